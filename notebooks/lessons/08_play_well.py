# ---
# jupyter:
#   jupytext:
#     formats: ipynb,lessons//py:percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 8: Play well
#
# [← Lesson 7](07_what_the_rules_change.ipynb) · **Lesson 8** · [Start](index.ipynb) ·
# [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * how the engine **reviews a hand**: every choice you made, rated by your **win chance**
#   from what you could see then, with the better move and why;
# * why you **keep your eights** for when nothing else fits, and **call the suit you hold
#   most** when you do play one;
# * in Crazy Breens, why a **Jack** is worth holding: it answers a hit;
# * in the music levels, why the **pile** you play on matters.
#
# No claim here is taken on trust: each one is **measured** by playing hundreds of hands between
# two computer players that differ in that one habit only, or by weighing every move of a
# position in the same imagined deals. Run the cells from top to bottom (Shift+Enter); every
# run is seeded, so you get the numbers shown.

# %%
from IPython.display import display

import crazylab as cl
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import choice_exercise

display(class_bar("08_play_well"))  # who you are, and where your answers are kept

# %%
import random

import pandas as pd

from crazylab import lab
from crazylab.bots import RuleBot, make_bot
from crazylab.engine.cards import EIGHT
from crazylab.playout import play_hand
from crazylab.review import TOLERANCE, hand_record, review_moves, weigh

# %% [markdown]
# ## 1. A hand, reviewed
#
# After a hand on the play page, **Review this hand** does what this cell does: for each of your
# choices it imagines the cards you could not see many times (always consistent with what you
# saw), plays every legal move out to the end in the same imagined deals, and counts how often
# you win. The move you played is compared with the best one: a loss of 5 points of win chance
# is an *inaccuracy*, 10 a *mistake*, 20 a *blunder*.

# %%
played = play_hand(cl.Game.new("crazy-eights-classic", players=2, seed=12),
                   [make_bot("random"), make_bot("rules")],
                   [random.Random(1), random.Random(2)])
start, moves = hand_record(played)
rows = [{"move": d.ply + 1, "you played": d.chance(d.played).display,
         "win chance": f"{d.chance(d.played).win:.0%}", "best": d.moves[0].display,
         "best's chance": f"{d.moves[0].win:.0%}", "verdict": d.verdict}
        for d in review_moves(start, moves, 0, seed=3) if d.verdict != "forced"]
pd.DataFrame(rows)

# %% [markdown]
# Seat 0 played at random here, so it made costly choices. The rest of the lesson finds out
# which habits avoid them.
#
# ## 2. Keep your eights
#
# An eight can be played on anything (SR-10), so it is the card that saves you when nothing
# else fits. Here is a position: five-card rules, 7♣ on the pile, and you hold 8♠ 7♥ K♦ 3♠ 9♥.
# `weigh` plays every legal move out in the same 100-odd imagined deals:

# %%
eights_position = cl.Game.from_position(
    "crazy-eights", 2, hands=[["8S", "7H", "KD", "3S", "9H"], ["2C", "4D", "6S", "10D", "QC"]],
    stock=["5H", "6H", "JS", "QH", "10S", "AH", "2D", "3D", "4S", "5C", "9S", "JD"],
    discard=["7C"], to_play=0, seed=3)
weighed = weigh(eights_position, seed=1)
pd.DataFrame([{"move": m.display, "win chance": f"{m.win:.0%}",
               "95% interval": f"{m.low:.0%} to {m.high:.0%}"} for m in weighed])


# %%
def choice_of(move: str) -> str:
    """The answer a move belongs to in the question below."""
    return "7♥" if move == "7H" else "draw" if move == "draw" else "8♠ (any call)"


right = tuple(dict.fromkeys(choice_of(m.move) for m in weighed
                            if weighed[0].win - m.win <= TOLERANCE))
choice_exercise("Five-card rules, 7♣ on the pile; you hold 8♠ 7♥ K♦ 3♠ 9♥. Which play gives you "
                "the best chance to win?", ["7♥", "8♠ (any call)", "draw"], right,
                "The engine's weighing above: " + ", ".join(
                    f"{m.display} {m.win:.0%}" for m in weighed[:3])
                + ". 7♥ fits without spending the eight, which stays for a suit you lack.",
                rules="SR-10 SR-11",
                hint="Which of your cards fits 7♣ without being wild?",
                wrong={"8♠ (any call)": "An eight fits anything (SR-10): play it now and the "
                                        "next time nothing fits you must draw.",
                       "draw": "A card that fits is a card gone; drawing only adds one."})

# %% [markdown]
# One position proves little. So two computer players meet for hundreds of hands, each in
# both seats: the **rules of thumb** (`"rules"`: keep eights for last, call the suit held most)
# and the same player with **one habit changed**. If the changed habit wins less often, beyond
# the 95% interval, the habit matters.


# %%
class Habit:
    """The rules of thumb with one habit changed: ``change(obs, rng, move)`` gets the move
    the rules of thumb chose and returns the move to play."""

    def __init__(self, name, change):
        self.name, self.change, self.rules = name, change, RuleBot()

    def choose(self, obs, rng):
        return self.change(obs, rng, self.rules.choose(obs, rng))


def duel(rules, challenger, games=150, seed=8):
    """The challenger against the rules of thumb, each in both seats: the win rate of each
    with its 95% (Wilson) interval."""
    hands = pd.concat([cl.simulate(rules, players=2, bots=order, games=games, seed=seed,
                                   workers=1, progress=False)
                       for order in ([challenger, "rules"], ["rules", challenger])])
    out = []
    for bot in (challenger.name, "rules"):
        wins = int((hands["winner_bot"] == bot).sum())
        low, high = lab.wilson(wins, len(hands))
        out.append({"player": bot, "hands": len(hands), "win rate": wins / len(hands),
                    "low": low, "high": high})
    return pd.DataFrame(out).set_index("player")


def eager(obs, rng, move):  # plays an eight as soon as one fits, calling the suit held most
    eights = [m for m in obs.legal if m.kind == "play" and m.cards[0].rank == EIGHT]
    if not eights or (move.kind == "play" and move.cards[0].rank == EIGHT):
        return move
    return max(eights, key=lambda m: sum(c.suit_letter == m.call for c in obs.hand))


def beyond_luck(duel_table, challenger):
    """Whether the challenger wins less, more, or neither beyond the intervals."""
    mine, theirs = duel_table.loc[challenger], duel_table.loc["rules"]
    if mine["high"] < theirs["low"]:
        return "less"
    return "more" if mine["low"] > theirs["high"] else "cannot tell"


def say(duel_table, challenger):
    """The duel in one sentence."""
    rows = duel_table.loc[[challenger, "rules"]]
    found = beyond_luck(duel_table, challenger)
    print(" · ".join(f"{who}: {r['win rate']:.0%} of {int(r['hands'])} hands "
                     f"({r['low']:.0%} to {r['high']:.0%})" for who, r in rows.iterrows())
          + (f" — {challenger} wins {found}, beyond luck." if found != "cannot tell"
             else " — the intervals overlap: these hands cannot tell the two apart."))
    return duel_table


eager_eights = say(duel("crazy-eights", Habit("eager eights", eager)), "eager eights")

# %% [markdown]
# ## 3. Call the suit you hold most
#
# When you do play an eight you name the suit to follow (SR-11). The rules of thumb name the
# suit they hold most of; the challenger names one at random.


# %%
def random_call(obs, rng, move):
    if move.kind == "play" and move.call is not None:  # the same eight, any call
        return rng.choice([m for m in obs.legal if m.cards == move.cards])
    return move


calls = say(duel("crazy-eights", Habit("random call", random_call), games=500),
            "random call")

# %%
choice_exercise("Against the rules of thumb, does the player who calls a random suit win less "
                "often, more often, or can we not tell from these hands?",
                ["less", "more", "cannot tell"], beyond_luck(calls, "random call"),
                f"The random caller won {calls.loc['random call', 'win rate']:.0%} of "
                f"{calls.loc['random call', 'hands']} hands, the rules of thumb "
                f"{calls.loc['rules', 'win rate']:.0%}"
                + ("; the intervals do not overlap: naming the suit you hold most lets you "
                   "follow it next turn." if beyond_luck(calls, "random call") != "cannot tell"
                   else "; the intervals overlap, so these hands cannot tell."),
                rules="SR-11",
                hint="Compare the two rows' intervals (low to high): do they overlap?",
                wrong={"more": "Read the win rate column again: which player is higher?",
                       "cannot tell": "When the two intervals do not overlap, the difference "
                                      "is beyond luck."})

# %% [markdown]
# ## 4. Crazy Breens: hold a Jack for a hit
#
# A joker makes you draw four and lose your turn
# ([house ruling BR-M4](rulebook.ipynb#BR-M4)) — unless you answer it with a Jack of any suit
# (BR-22). Here a joker hits you while you hold J♠ 4♦:

# %%
hit = cl.Game.from_position(
    "crazy-breens", 2, hands=[["JK", "5C", "7D", "9D", "KC", "3H", "6H"], ["JS", "4D"]],
    stock=["3C", "3D", "3S", "4C", "4S", "5D", "6D", "6S", "7C", "9C", "10C", "10D"],
    discard=["9H"], seed=2)
hit.push("JK:C")
answers = weigh(hit, seed=5)
pd.DataFrame([{"move": m.display, "win chance": f"{m.win:.0%}",
               "95% interval": f"{m.low:.0%} to {m.high:.0%}"} for m in answers])

# %%
names = {"JS": "counter with J♠", "draw": "draw the four cards"}
choice_exercise("Crazy Breens: a joker hits you for four cards; you hold J♠ 4♦. What gives you "
                "the best chance?", list(names.values()),
                tuple(names[m.move] for m in answers if answers[0].win - m.win <= TOLERANCE),
                f"Countering wins {answers[0].win:.0%} of the imagined deals, drawing "
                f"{answers[-1].win:.0%}: the Jack cancels the hit, so you keep two cards "
                "instead of six (BR-22).", rules="BR-22 BR-M4",
                hint="What may a Jack do when a hit is aimed at you?",
                wrong={"draw the four cards": "Drawing takes four cards and your turn; a Jack of "
                                              "any suit cancels the hit (BR-22)."})

# %% [markdown]
# Over many hands the challenger never counters, it always draws. A hit comes a few times a
# hand at most, so whole hands show the Jack's worth less sharply than the position above:


# %%
def never_counter(obs, rng, move):
    draws = [m for m in obs.legal if m.kind == "draw"]
    return draws[0] if move.kind == "play" and obs.phase == "penalty" and draws else move


counters = say(duel("crazy-breens", Habit("never counters", never_counter), games=150),
               "never counters")

# %% [markdown]
# ## 5. The music levels: which pile?
#
# From Level 2 on there are several piles (MU-22), and a card may fit more than one. The rules
# of thumb play where the most of their other cards will still fit afterwards; the challenger
# plays the same card on a pile chosen at random. Level 4 has four piles:


# %%
def random_pile(obs, rng, move):
    if move.kind == "play" and move.pile is not None:
        return rng.choice([m for m in obs.legal if m.kind == "play" and m.cards == move.cards])
    return move


piles = say(duel("crazy-8s-level-4", Habit("random pile", random_pile), games=100),
            "random pile")

# %%
choice_exercise("Level 4: does playing on a pile chosen at random cost wins, beyond luck?",
                ["yes", "no", "cannot tell"],
                {"less": "yes", "more": "no"}.get(beyond_luck(piles, "random pile"),
                                                  "cannot tell"),
                f"The random pile won {piles.loc['random pile', 'win rate']:.0%} of the hands, "
                f"the rules of thumb {piles.loc['rules', 'win rate']:.0%}: the pile you choose "
                "decides what your next cards can follow (MU-22, MU-26)."
                + ("" if beyond_luck(piles, "random pile") != "cannot tell"
                   else " The intervals overlap, so these hands cannot tell."),
                rules="MU-22 MU-26",
                hint="Look at the two intervals of the table above.",
                wrong={"no": "Read the win rates: which player is lower, and do the intervals "
                             "overlap?",
                       "cannot tell": "The two intervals do not overlap: the difference is "
                                      "beyond luck."})

# %% [markdown]
# ## Recap
#
# * A review rates each choice by the **win chance** it leaves you, from what you could see:
#   every legal move is played out in the same imagined deals.
# * **Keep your eights** for when nothing else fits (SR-10), and when you play one, **call the
#   suit you hold most** (SR-11): a player without these habits wins less, beyond luck.
# * In Crazy Breens a **Jack answers a hit** (BR-22): holding one saves the four cards of a
#   joker.
# * In the music levels the **pile** you play on decides what your next cards can follow
#   (MU-22).
#
# The rules of this lesson's first hands, on one page (every preset's sheet is in the
# [rules sheets](sheets.ipynb)):

# %%
from IPython.display import Markdown

from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-eights")))

# %% [markdown]
# ### Try it yourself
#
# 1. Play a hand on the app's **Play** page (linked from the start page), then press **Review
#    this hand**: which of your choices cost the most? Under the review, **Why did they
#    play** explains a computer player's move the same way.
# 2. Change `games=500` to `games=50` in section 3: does the difference stay beyond luck?
#
# <details><summary>What to look for</summary>
#
# 1. The costliest choices are listed with what they lost and why.
# 2. Ten times fewer hands make the intervals about √10 ≈ 3 times wider; they then usually
#    overlap: the habit still matters, but 100 hands seldom show it.
#
# </details>

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: which moves are legal under the rules you
# met here. Your answers are kept with your other answers (the bar at the top of the page says
# where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("08_play_well", ["crazy-eights", "crazy-breens"], kinds=["legal"])

# %% [markdown]
# [← Lesson 7](07_what_the_rules_change.ipynb) · **Lesson 8** · [Start](index.ipynb) ·
# [Glossary](glossary.ipynb)

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
# # Lesson 2: the app's classic and quick rules
#
# [← Lesson 1](01_crazy_eights_basics.ipynb) · **Lesson 2** ·
# [Lesson 3 →](03_play_a_match.ipynb) · [Start](index.ipynb) · [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * what the Crazy Eights app of seed 004 changes: **7 cards for two** players, 5 for three or
#   four (AP-1, AP-3), a regular deck (AP-2) and a **match to 100** (AP-15, AP-16);
# * that matching is the same as in lesson 1: suit or rank, eights wild (AP-6, AP-7), but you
#   **must play when you can** (a house ruling, section 3);
# * the difference between the **classic** rule (draw until you can play, AP-10) and the
#   **quick** rule (draw at most 3, stopping at the first card that fits, then pass; AP-11);
# * the **reshuffle**, under both rules: at most **3 times a hand** (AP-12, AP-13);
# * how a **blocked** game is settled: the fewest points in hand wins (AP-17).
#
# Presets: `crazy-eights-classic` and `crazy-eights-quick`.

# %%
import pandas as pd
from IPython.display import Markdown, display

import crazylab as cl
from crazylab.examples import load_example
from crazylab.widgets import LegalMoveExplorer, StepExplainer, legal_table, position
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import (
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    score_exercise,
)

display(class_bar("02_classic_vs_quick"))  # who you are, and where your answers are kept


def last_game(example):
    """The game at the last step of a worked example (replayed by the engine)."""
    return load_example(example).frames()[-1].game


# %% [markdown]
# ## 1. What differs between the rule sets
#
# Each rule set is data; here are the options that differ between the site rules and the app's
# two rules.

# %%
# NBVAL_CHECK_OUTPUT
names = ["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"]
options = pd.DataFrame({n: cl.rules(n).options() for n in names})
options[options.nunique(axis=1, dropna=False) > 1]

# %% [markdown]
# ## 2. Seven cards for two
#
# The app is for 2–4 players, you and 1 to 3 computer opponents (AP-1). Two players get 7 cards
# each, three or four players 5 (AP-3); the rest is the stock, and its top card starts the discard
# pile (AP-4). As on the site, a starter eight is buried
# ([house ruling AP-Q1](rulebook.ipynb#AP-Q1)). The player left of the dealer
# starts ([house ruling AP-5](rulebook.ipynb#AP-5)).

# %%
# NBVAL_CHECK_OUTPUT
for n in (2, 3, 4):
    game = cl.new_game("crazy-eights-classic", players=n, seed=4)
    print(f"{n} players: {len(game.hands[0])} cards each, stock {len(game.stock)}")

# %%
StepExplainer("ap-t1-deal-seven-for-two")

# %%
try:
    cl.new_game("crazy-eights-classic", players=5, seed=1)
    five = "yes"
except cl.SetupError:
    five = "no"
choice_exercise("The app is you against 1 to 3 computer players. May five play?", ["yes", "no"],
                five, "2–4 players: the user and 1–3 computer opponents (AP-1).", rules="AP-1",
                hint="How many computer players can the app deal in, besides you?")

# %%
choice_exercise("Two players, classic rule: how many cards are left in the stock after the deal "
                "and the starter?", ["37", "41", "36"],
                str(len(cl.new_game("crazy-eights-classic", players=2, seed=9).stock)),
                "52 − 2 × 7 − 1 = 37 (AP-3, AP-T1).", rules="AP-3 AP-4 AP-T1",
                hint="In the classic rule each of two players gets seven cards; then one card is "
                     "turned as the starter.")

# %%
app_deck = cl.rules("crazy-eights-classic").deck
choice_exercise("How many cards does the app's deck hold, and how many of them are jokers?",
                ["52, no joker", "54, two jokers", "53, one joker"],
                f"{len(app_deck)}, " + ("no joker" if not any(c.is_joker for c in app_deck)
                                        else "jokers"),
                "A regular 52-card deck, without jokers: there are no action cards (AP-2).",
                rules="AP-2",
                hint="Count the jokers in the app's deck: does the app use any?")

# %%
buried_deck = ["3H", "4H", "5H", "6H", "7H", "9H", "10H", "2C", "3C", "4C", "5C", "6C", "7C",
               "9C", "8S", "KD"]
buried = cl.Game.from_deck("crazy-eights-classic", 2, buried_deck + [
    str(c) for c in app_deck if str(c) not in buried_deck], seed=1)
choice_exercise("Two players get the top 14 cards of the deck; the next card is 8♠ and the one "
                "after it K♦. What is the starter?", ["8♠", "K♦", "another card"],
                buried.top.display, "A starter eight is buried in the stock (anywhere but the "
                "top) and the next card is turned (house ruling AP-Q1, AP-4).",
                rules="AP-Q1 AP-4",
                hint="If the card after the hands is an eight, the app does not start with it. "
                     "What does it do?")

# %%
dealt_by_two = cl.Game.new("crazy-eights-classic", 4, seed=3, dealer=2)
choice_exercise("Four players; seat 2 deals. Who plays first?",
                ["seat 0", "seat 2", "seat 3"], f"seat {dealt_by_two.to_play}",
                "The player left of the dealer starts, and play goes clockwise (house ruling "
                "AP-5).", rules="AP-5",
                hint="The player to the dealer's left starts.")

# %% [markdown]
# ## 3. Matching is the same; drawing while you can play is not
#
# *"On a 9 of hearts you can play any heart or any 9. Eights are wild."* (AP-6, AP-7, AP-T2)
# There are no action cards and nothing to call when you are down to one card (AP-18); one card
# per turn ([house ruling AP-8](rulebook.ipynb#AP-8)).

# %%
# NBVAL_CHECK_OUTPUT
nine = position("crazy-eights-classic", top="9H", hand="9C 2H 8D KS")
with pd.option_context("display.max_colwidth", None, "display.width", 200):
    display(legal_table(nine).reset_index())

# %%
StepExplainer("ap-t2-legal-on-nine-of-hearts")

# %%
legal_moves_exercise(nine, rules="AP-6 AP-7 AP-T2 AP-8",
                     hint="Match the suit or the rank of 9♥, or play an eight. In the app, may "
                          "you draw while a card fits?")

# %%
choice_exercise("A 2♣ is on top under the app's rules. Does the next player draw two?",
                ["yes", "no"], "no", "The basic game has no draw-two, no reverse and nothing to "
                "call at one card (AP-18).", rules="AP-18",
                hint="Which cards are action cards in the app's rules? Is the 2 one of them?")

# %% [markdown]
# The app only lets you draw "if you can't play": a card that fits **must** be played
# ([house ruling AP-9](rulebook.ipynb#AP-9), from [house ruling
# AP-Q5](rulebook.ipynb#AP-Q5)). That is the difference from lesson
# 1, where `draw` was offered beside playable cards.

# %%
can_play = cl.Game.from_position("crazy-eights-classic", 2, hands=[["9C", "2H"], ["4S"]],
                                 stock=["5S", "6S"], discard=["9H"])
is_legal_exercise(can_play, "draw", "On 9♥ you hold 9♣ and 2♥, and the stock has cards. Is "
                  "<code>draw</code> legal?", rules="AP-9 AP-Q5",
                  hint="In the app: with a legal card in your hand, may you still draw?")

# %% [markdown]
# ## 4. Drawing: classic vs quick
#
# With the **classic** rule ("the one in American rule books") you draw one card at a time until
# a card fits, and play it (AP-10, [house ruling AP-Q2](rulebook.ipynb#AP-Q2)).
#
# With the **quick** rule you draw **at most 3** cards in the turn. Drawing **stops at the first
# card that fits**, which you must play; if none of the three fits, you **pass**, and the fourth
# card stays on the stock (AP-11, AP-T3;
# [house ruling AP-Q3](rulebook.ipynb#AP-Q3) reads "draw *up to* 3" as a
# ceiling on a search). Step through both cases:

# %%
StepExplainer("ap-t3-quick-rule-three-draws-then-pass")

# %%
StepExplainer("ap-t4-quick-rule-second-card-fits")

# %%
quick = cl.Game.from_position("crazy-eights-quick", 2, hands=[["3D", "5H"], ["4S"]],
                              stock=["2S", "7D", "9S", "5C"], discard=["KC"])
for move in ["draw", "draw", "draw"]:
    quick.push(move)
legal_moves_exercise(quick, "Quick rule, top card K♣. You held 3♦ 5♥ and drew 2♠, 7♦ and 9♠. "
                     "What may you do now?", rules="AP-11 AP-T3",
                     hint="The quick rule stops the drawing after three cards. Did any of them "
                          "fit K♣?")

# %%
second = cl.Game.from_position("crazy-eights-quick", 2, hands=[["3D", "5H"], ["4S"]],
                               stock=["2S", "QC", "9S"], discard=["KC"])
second.push("draw")
second.push("draw")
legal_moves_exercise(second, "Quick rule, top card K♣. You drew 2♠, then Q♣. Which moves are "
                     "legal now (is there a third draw)?", rules="AP-11 AP-T4 AP-Q3",
                     hint="Under the quick rule how many cards may you draw? Q♣ was your second. "
                          "Does it fit K♣?")

# %%
found = cl.Game.from_position("crazy-eights-classic", 2, hands=[["3D", "5H"], ["4S"]],
                              stock=["2S", "7D", "QC", "9S"], discard=["KC"])
for move in ["draw", "draw", "draw"]:
    found.push(move)
legal_moves_exercise(found, "Classic rule, top card K♣. You drew 2♠, 7♦ and then Q♣, which "
                     "fits. What may you do now?", rules="AP-10 AP-Q2",
                     hint="In the classic rule you draw until a card fits. Once one fits, what "
                          "must you do?")

# %% [markdown]
# ## 5. The reshuffle, under both rules
#
# When the stock runs out and a player must draw, the discards **except the top card** are
# shuffled into a new stock (AP-12,
# [house ruling AP-Q7](rulebook.ipynb#AP-Q7) keeps the top card with its called
# suit). This is the same under the classic and the quick rule: a quick-rule draw can reshuffle
# too. It happens only when a draw needs it
# ([house ruling AP-Q6](rulebook.ipynb#AP-Q6)), and at most **3 times a hand**;
# after that, a player who cannot play and cannot draw passes (AP-13).

# %%
StepExplainer("ap-t6-reshuffle-keeps-the-top-card")

# %% [markdown]
# The classic rule draws on past a reshuffle until a card fits (AP-T5):

# %%
StepExplainer("ap-t5-classic-draws-past-a-reshuffle")

# %%
past = cl.Game.from_position("crazy-eights-classic", 2, hands=[["3D", "5S"], ["4S"]], stock=[],
                             discard=["2H", "9D", "7C"], seed=1)
past.push("draw")  # the stock was empty: 2♥ and 9♦ were reshuffled, and one was drawn
is_legal_exercise(past, "pass", "Classic rule, top card 7♣. The stock was empty, so 2♥ and 9♦ "
                  "were reshuffled into a new stock; you drew "
                  + " ".join(c.display for c in past.hands[0] if str(c) not in ("3D", "5S"))
                  + ", which does not fit. Is <code>pass</code> legal now?",
                  rules="AP-T5 AP-10",
                  hint="Passing comes only when you can draw no more. Is anything left in the new"
                       " stock?")

# %%
# NBVAL_CHECK_OUTPUT
for name in ("crazy-eights-classic", "crazy-eights-quick"):
    g = cl.Game.from_position(name, 2, hands=[["3D"], ["4S"]], stock=[],
                              discard=["2C", "9H", "5S", "7C"])
    g.push("draw")
    print(f"{name:21} stock was empty; after one draw: {len(g.stock)} in the stock, "
          f"top {g.top.display}, reshuffles used: {g.reshuffles}")

# %%
choice_exercise("The stock is empty and the discards are 2♣ 9♥ 5♠ 7♣ (7♣ on top). After the "
                "reshuffle, what is on the discard pile?", ["nothing", "7♣", "2♣"],
                g.top.display, "The top card stays, with any called suit, and only the cards "
                "under it are shuffled, at the moment a draw needs them (AP-12, house rulings "
                "AP-Q6 and AP-Q7).", rules="AP-12 AP-Q6 AP-Q7 AP-T6",
                hint="A reshuffle takes the discards under the top card. Which card stays?")

# %%
used_up = cl.Game.from_position(cl.rules("crazy-eights-classic", max_reshuffles=0), 2,
                                hands=[["3D", "5H"], ["4S"]], stock=[],
                                discard=["2C", "9S", "KC"])
legal_moves_exercise(used_up, "The three reshuffles of this hand are used up (set here with "
                     "<code>max_reshuffles=0</code>), the stock is empty, the top card is K♣ "
                     "and you hold 3♦ 5♥. What may you do?", rules="AP-12 AP-13 AP-T6",
                     hint="No reshuffle is left, the stock is empty and nothing fits.")

# %% [markdown]
# ## 6. Does the quick rule make hands shorter?
#
# Play 200 seeded random hands under each rule and compare. (Random players are not good
# players, but the draw rule's effect shows.) Lesson 7 measures it properly.

# %%
import random


def summary(name, hands=200):
    moves, draws = [], []
    for seed in range(hands):
        game = cl.new_game(name, players=2, seed=seed).play_random(random.Random(seed))
        moves.append(len(game.moves))
        draws.append(sum(1 for m in game.moves if m.kind == "draw"))
    return {"moves per hand": sum(moves) / hands, "draws per hand": sum(draws) / hands}


pd.DataFrame({n: summary(n) for n in names[1:]}).round(1)

# %% [markdown]
# ## 7. Scoring, the match, and a blocked game
#
# The hand's winner scores the cards left in the other hands, as on the site (AP-14, AP-15). The
# first player to reach **100** after a hand wins the match (AP-16).

# %%
StepExplainer("ap-t8-match-to-100")

# %%
score_exercise("crazy-eights-classic", [[], ["JD", "9C", "AH"], ["8S"]], winner=0,
               question="Seat 0 went out. Seat 1 holds J♦ 9♣ A♥, seat 2 holds 8♠. What does "
               "seat 0 score?", rules="AP-14 AP-15",
               hint="Add up every loser's hand: eights 50, faces and tens 10, aces 1, the rest "
                    "face value.")

# %%
choice_exercise("The match scores are 95 and 40; seat 0 wins a hand worth 7. Is the match over?",
                ["yes", "no"], "yes" if 95 + last_game("ap-t8-match-to-100").scores[0] >= 100
                else "no", "95 + 7 = 102 ≥ 100, so seat 0 wins the match (AP-16, AP-T8).",
                rules="AP-16 AP-T8",
                hint="A match ends when a player reaches 100 points or more after a hand.")

# %% [markdown]
# When the stock is empty, no reshuffle is left and everyone passes in a row, the game is
# **blocked**: the player with the **fewest points in hand** wins it (AP-17). What the winner
# scores is a house ruling: the **difference** to each opponent
# ([house ruling AP-Q12](rulebook.ipynb#AP-Q12); ties:
# [house ruling AP-Q11](rulebook.ipynb#AP-Q11)).

# %%
StepExplainer("ap-t7-blocked-game-fewest-points")

# %%
blocked = last_game("ap-t7-blocked-game-fewest-points")
choice_exercise("Blocked: the hands hold 12, 3 and 30 points. Who wins, and what do they score "
                "under the difference ruling?",
                ["seat 1 scores 42", "seat 1 scores 36", "seat 0 scores 27"],
                f"seat {blocked.winner} scores {blocked.scores[blocked.winner]}",
                "(12 − 3) + (30 − 3) = 36 (AP-17, AP-T7).", rules="AP-17 AP-T7 AP-Q12",
                hint="The lowest hand wins a blocked hand; under the difference ruling it scores "
                     "each other hand minus its own.")

# %%
tie = cl.Game.from_position(cl.rules("crazy-eights-classic", max_reshuffles=0), 2,
                            hands=[["4C", "3D", "3S"], ["10S"]], stock=[], discard=["2H", "7H"])
tie.push_many("pass pass")  # nothing fits, nothing to draw, no reshuffle left: blocked
choice_exercise("Blocked: seat 0 holds 4♣ 3♦ 3♠ (10 points), seat 1 holds 10♠ (10 points). Who "
                "wins?", ["seat 0", "seat 1", "nobody: a draw"],
                f"seat {tie.winner}" if tie.winner is not None else "nobody: a draw",
                "The points tie, so the fewest cards win: seat 1 with one card; the difference "
                "it scores is 0 (house ruling AP-Q11, AP-17).", rules="AP-Q11 AP-17",
                hint="Blocked hands are won by the fewest points; when points tie, what breaks "
                     "the tie?")

# %% [markdown]
# ## 8. Explore
#
# The explorer with the quick rule: set a top card and a hand, and see every card's verdict.

# %%
LegalMoveExplorer(rules="crazy-eights-quick", top="KC", hand="3D 5H 9S QC 8H")

# %% [markdown]
# ## Recap
#
# * The app deals **7 cards for two**, 5 for three or four (AP-3), and plays a **match to 100**
#   (AP-16).
# * Matching is suit or rank, eights wild (AP-6, AP-7); you **must** play when you can
#   ([house ruling AP-9](rulebook.ipynb#AP-9)).
# * **Classic**: draw until a card fits (AP-10). **Quick**: at most 3 draws, stop at the first that
#   fits, else pass (AP-11).
# * Under both, the discards (all but the top card) are **reshuffled**, at most 3 times a hand
#   (AP-12, AP-13).
# * **Blocked**: the fewest points wins (AP-17), scoring the difference
#   ([house ruling AP-Q12](rulebook.ipynb#AP-Q12)).
#
# **Rules sheets** (printable: [rules sheets](sheets.ipynb), `sheets/crazy-eights-classic.md`,
# `sheets/crazy-eights-quick.md`); the quick sheet:

# %%
from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-eights-quick")))

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: a new set each time you come back, so
# practise as often as you like. A wrong answer gets the engine's reason, and the rules you
# miss are asked again later. Your answers are kept with your other answers (the bar at the
# top of the page says where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("02_classic_vs_quick", ["crazy-eights-classic", "crazy-eights-quick"],
             kinds=["legal", "score", "next_top"])

# %% [markdown]
# [← Lesson 1](01_crazy_eights_basics.ipynb) · **Lesson 2** ·
# [Lesson 3: play a match →](03_play_a_match.ipynb)

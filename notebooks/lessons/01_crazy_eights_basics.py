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
# # Lesson 1: Crazy Eights basics
#
# [Start](index.ipynb) · **Lesson 1** · [Lesson 2 →](02_classic_vs_quick.ipynb) ·
# [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * how a card is matched: the same **suit** or the same **rank** as the top card (SR-10);
# * why eights are **wild**, and how the **called suit** replaces the eight's own suit
#   (SR-11, SR-12, SR-13);
# * what to do when nothing fits: **draw until you can play** (SR-15, SR-16), and why the
#   engine also offers `draw` when a card fits: **voluntary drawing** (SR-17);
# * what happens when the stock runs out: no reshuffle, and a **blocked hand is void and
#   redealt** (SR-18, SR-19, SR-20);
# * how the winner **scores** the cards left in the other hands (SR-21, SR-22);
# * the **common mistakes** the rules warn about.
#
# The rules are the five-card "site rules" (seed 001, preset `crazy-eights`). Rule ids such as
# SR-10 are those of the rulebook; where the seed is silent the rulebook decides, and this course
# marks such a decision as a **house ruling** with a link to it, like
# [house ruling SR-Q2](rulebook.ipynb#SR-Q2) (the links point at the rulebook
# [page](rulebook.ipynb), with the rule id after the `#`).
#
# Each section ends with an **exercise**: click your answer's button (or type the answer and
# press **Check**); the engine checks it and explains. The solution is hidden under *Show the
# solution*. Run the cells from top to bottom (Shift+Enter); every game is dealt from a fixed
# seed, so you see what the text describes.

# %%
import pandas as pd
from IPython.display import Markdown, display

import crazylab as cl
from crazylab.widgets import LegalMoveExplorer, StepExplainer, legal_table, position
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import (
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    score_exercise,
)

display(class_bar("01_crazy_eights_basics"))  # who you are, and where your answers are kept


def show_table(game):
    """The engine's verdict on every card of the hand, with the whole rule text."""
    with pd.option_context("display.max_colwidth", None, "display.width", 200):
        display(legal_table(game).reset_index())


# %% [markdown]
# ## 1. A deal
#
# Two players, **five cards each**, even with two players (SR-1, SR-2, SR-3): a 52-card deck
# without jokers, dealt one card at a time from the dealer's left (SR-4). The rest is the face-down
# **stock** (SR-5); its top card is turned up to start the discard pile: the **starter** (SR-6).
# The player left of the dealer plays first, and play goes clockwise (SR-8).

# %%
# NBVAL_CHECK_OUTPUT
game = cl.new_game("crazy-eights", players=2, seed=1)
print("seat 0 holds:", " ".join(c.display for c in game.hands[0]))
print("starter:     ", game.top.display, "| stock:", len(game.stock), "cards")

# %% [markdown]
# If the starter is an **eight**, it is buried in the stock and another card is turned, until the
# starter is not an eight (SR-7); where in the stock is the rulebook's choice
# ([house ruling SR-Q1](rulebook.ipynb#SR-Q1): anywhere but the top). So the game
# never starts on an eight: with 2 players the stock holds 52 − 10 − 1 = 41 cards (SR-T10).

# %%
# NBVAL_CHECK_OUTPUT
starters = [cl.new_game("crazy-eights", players=2, seed=s).top for s in range(300)]
print("eights among 300 starters:", sum(c.rank == 8 for c in starters))

# %%
StepExplainer("sr-t10-deal-two-players")

# %%
two = cl.new_game("crazy-eights", players=2, seed=5)
choice_exercise("Two players are dealt five cards each and the starter is turned up. How many "
                "cards are left in the stock?", ["41", "42", "47"], str(len(two.stock)),
                "52 − 2 × 5 − 1 = 41: ten cards in the hands, one starter (SR-3, SR-T10).",
                rules="SR-T10 SR-3",
                hint="Count the cards dealt (players × hand size) and the starter, and take them "
                     "from 52.")

# %%
three = cl.Game.new("crazy-eights", 3, seed=2, dealer=1)
choice_exercise("Three players; seat 1 deals. Who plays first?", ["seat 0", "seat 1", "seat 2"],
                f"seat {three.to_play}", "The player left of the dealer starts, and play goes "
                "clockwise: seat 2, then seat 0, then seat 1 (SR-8).", rules="SR-8",
                hint="Play starts with the player to the dealer's left, the next seat up.")

# %%
choice_exercise("After the deal, where does the first card of the discard pile come from?",
                ["the top of the stock", "the dealer's hand", "the bottom of the stock"],
                "the top of the stock", "The undealt cards are the face-down stock, and its top "
                "card is turned up as the starter (SR-4, SR-5, SR-6).",
                rules="SR-4 SR-5 SR-6",
                hint="Once the hands are dealt, the rest is the stock; where is its first card "
                     "turned?")

# %%
try:
    cl.new_game("crazy-eights", players=6, seed=1)
    six = "yes"
except cl.SetupError:
    six = "no"
choice_exercise("The site rules use a 52-card deck without jokers. May six people play?",
                ["yes", "no"], six, "The site rules are for 2–5 players (SR-1, SR-2).",
                rules="SR-1 SR-2",
                hint="The deck is not the limit here: read how many players the site rules are "
                     "written for.")

# %%
choice_exercise("The starter is 8♣. Where does it go?",
                ["it stays: the first player calls", "into the stock, anywhere but the top",
                 "to the bottom of the stock"], "into the stock, anywhere but the top",
                "A starter eight is buried (SR-7), at a random place other than the top, so the "
                "next card turned is never that eight (house ruling SR-Q1).", rules="SR-7 SR-Q1",
                hint="An eight can't be the starter: the rules put it back and turn another card."
                     " Where?")

# %%
choice_exercise("How many cards are in the stock after dealing to 3 players?",
                ["36", "37", "41"], str(len(cl.new_game("crazy-eights", players=3, seed=5).stock)),
                "52 cards − 3 × 5 dealt − 1 starter = 36 (SR-3, SR-7).", rules="SR-3 SR-7",
                hint="Three hands of five, plus one starter, out of 52.")

# %% [markdown]
# Seat 0 plays first. The engine lists every legal move in the notation of the rulebook: a card
# like `10H`, or `draw`:

# %%
# NBVAL_CHECK_OUTPUT
game.legal()

# %% [markdown]
# `10H` and `QH` follow the suit of the starter 4♥. **Why is `draw` there too, when two cards
# fit?** Because the site rules also allow drawing **voluntarily**: "the standard rules also
# allow drawing voluntarily when you already hold a legal card" (SR-17). The rulebook reads that
# remark as a rule ([house ruling SR-Q2](rulebook.ipynb#SR-Q2), option
# `voluntary_draw`): after each draw you choose again, to play any legal card or to draw again
# while the stock lasts. You never *have* to draw while a card fits.

# %%
legal_moves_exercise(game, rules="SR-10 SR-17 SR-Q2",
                     hint="A card fits if it shares the top card's suit or rank, or is an eight. "
                          "Is drawing allowed while a card fits?")

# %% [markdown]
# ## 2. The worked turn of the rules
#
# *"The top card is 6♥. You hold 6♣, K♥, 8♠ and 3♦. Your legal choices are 6♣, K♥ or 8♠."*
# (SR-T1). A card fits if it has the suit or the rank of the top card, and any eight fits
# (SR-10). One card per turn: playing two cards together is illegal (SR-9, SR-T7).
#
# The table below is built by the engine: one row per card, with the rule that decides it.
# (This position has no stock, so `draw` is not offered here.)

# %%
# NBVAL_CHECK_OUTPUT
worked = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
show_table(worked)

# %% [markdown]
# A refused move changes nothing and says why:

# %%
# NBVAL_CHECK_OUTPUT
print(worked.explain("3D"))
print(worked.explain("6C+KH"))

# %%
is_legal_exercise(worked, "3D", rules="SR-10 SR-T1",
                  hint="Compare 3♦ with 6♥: same suit? same rank? an eight?")

# %%
is_legal_exercise(worked, "6C+KH", "On 6♥, may you play 6♣ and K♥ together, as "
                  "<code>6C+KH</code>?", rules="SR-9 SR-T7",
                  hint="How many cards may you play in one turn?")

# %% [markdown]
# ## 3. Eights are wild
#
# An eight may be played on anything, whenever it is your turn, even while you hold another card
# that fits (SR-13). Whoever plays it **names a suit**, any of the four (SR-12). The next player
# must follow the **named** suit or play another eight: the eight's own suit no longer counts
# (SR-11, SR-T2). Press **Next ▶**: at step 3 the eight calls diamonds, and at step 6 a spade is
# refused even though the eight was a spade.

# %%
StepExplainer("sr-t1-t2-worked-turn-eight-calls-diamonds")

# %%
is_legal_exercise(worked, "8S:C", "On 6♥ you hold 6♣ and K♥, which fit. May you play 8♠ "
                  "(calling clubs) anyway?", rules="SR-13",
                  hint="Is an eight allowed only when nothing else fits?")

# %%
after_eight = position("crazy-eights", top="8S", hand="3D KS 9C 8H QD", call="D")
legal_moves_exercise(after_eight, "The top card is 8♠ and <b>diamonds</b> were called. You hold "
                     "3♦ K♠ 9♣ 8♥ Q♦. Which cards may you play?", rules="SR-11 SR-12 SR-T2",
                     cards_only=True,
                     hint="After an eight, the called suit counts, not the eight's own suit. "
                          "Eights are still wild.")

# %%
is_legal_exercise(after_eight, "KS", "8♠ called diamonds. Is K♠ legal (it has the eight's suit)?",
                  rules="SR-11 SR-T2",
                  hint="Which suit was called? The eight's own printed suit no longer counts.")

# %% [markdown]
# Twos, queens, aces and jacks do nothing special in these rules (SR-14): with a 2 on top, the
# next player simply plays on it (SR-T8). Step through `sr-t7-t8-one-card-and-no-action-cards`:

# %%
StepExplainer("sr-t7-t8-one-card-and-no-action-cards")

# %%
two_on_top = position("crazy-eights", top="2C", hand="5C 2H 9D")
legal_moves_exercise(two_on_top, "A 2♣ was just played. You hold 5♣ 2♥ 9♦. Which cards may "
                     "you play? (Think first: does the 2 make you draw?)", rules="SR-14 SR-T8",
                     cards_only=True,
                     hint="Do twos do anything special in the site rules? Then match suit or rank"
                          " as usual.")

# %% [markdown]
# ## 4. When nothing fits: draw until you can play
#
# With no legal card you **must** draw, one card at a time, until you hold a card that fits or the
# stock is empty (SR-15). Play when you can; the cards you drew and did not play stay in your hand
# (SR-16).
#
# *"On another turn the discard is K♣, and you hold 3♦ and 5♥. You draw 2♥, which stays in your
# hand, then J♣, which you play. Your turn ends with three cards still in hand."* (SR-T3)

# %%
StepExplainer("sr-t3-draw-until-playable")

# %%
turn = cl.Game.from_position("crazy-eights", 2, hands=[["3D", "5H"], ["4S", "9S"]],
                             stock=["2H", "JC", "9D"], discard=["KC"])
legal_moves_exercise(turn, "The top card is K♣; you hold 3♦ 5♥ and the stock is 2♥, J♣, 9♦ "
                     "(top first). What are your legal moves now?", rules="SR-15",
                     hint="Does any card of your hand fit K♣? If not, what must you do?")

# %%
played = turn.copy()  # the position above stays as it was (run this cell twice: same)
for move in ["draw", "draw", "JC"]:
    played.push(move)
choice_exercise("You draw 2♥, then J♣, and play J♣. How many cards are left in your hand?",
                ["2", "3", "4"], str(len(played.hands[0])),
                "2♥ stays in the hand with 3♦ and 5♥ (SR-16, SR-T3).", rules="SR-16 SR-T3",
                hint="You drew two cards and played one. Start from the two you held.")

# %% [markdown]
# With voluntary drawing off (`cl.rules("crazy-eights", voluntary_draw=False)`), the engine makes
# you play J♣ as soon as you draw it ([house ruling SR-Q3](rulebook.ipynb#SR-Q3)):
# the example `sr-t3-forced-play-without-voluntary-draw` shows it.

# %%
StepExplainer("sr-t3-forced-play-without-voluntary-draw")

# %%
forced = cl.Game.from_position(cl.rules("crazy-eights", voluntary_draw=False), 2,
                               hands=[["3D", "5H"], ["4S", "9S"]], stock=["2H", "JC", "9D"],
                               discard=["KC"])
forced.push("draw")
forced.push("draw")
is_legal_exercise(forced, "draw", "Voluntary drawing is off. On K♣ you drew 2♥, then J♣. May "
                  "you draw again?", rules="SR-Q3 SR-16",
                  hint="With voluntary drawing off, you must play a card that fits as soon as you"
                       " draw it. Does J♣ fit?")

# %% [markdown]
# ## 5. When the stock is empty
#
# The discards are **never** reshuffled into a new stock in these rules (SR-19). A player with no
# legal card and an empty stock **passes** (SR-18); passing is allowed only then
# ([house ruling SR-Q5](rulebook.ipynb#SR-Q5)). If every player passes in a row,
# the hand is **blocked**: it ends, nobody scores, and it is **void and redealt** (SR-20, SR-T9) by
# the same dealer ([house ruling SR-Q7](rulebook.ipynb#SR-Q7)).

# %%
StepExplainer("sr-t9-blocked-hand-is-void")

# %%
stuck = cl.Game.from_position("crazy-eights", 2, hands=[["3D", "5H"], ["4S", "9S"]],
                              stock=[], discard=["KC"])
legal_moves_exercise(stuck, "The stock is empty, the top card is K♣ and you hold 3♦ 5♥. What "
                     "may you do?", rules="SR-18 SR-19",
                     hint="Nothing fits and the stock is empty: can you draw? Then what is left?")

# %%
must = cl.Game.from_position("crazy-eights", 2, hands=[["3D", "5C"], ["4S", "9S"]], stock=[],
                             discard=["KC"])
is_legal_exercise(must, "pass", "The stock is empty, the top card is K♣ and you hold 3♦ 5♣. "
                  "May you pass?", rules="SR-Q5 SR-18",
                  hint="Passing is allowed only when you have no legal card. Does 5♣ fit K♣?")

# %%
blocked = stuck.copy()  # the position above stays as it was
blocked.push("pass")
blocked.push("pass")
choice_exercise("Both players passed in a row with an empty stock. Seat 1 holds 4♠ 9♠, worth 13 "
                "points; seat 0 holds 3♦ 5♥, worth 8. How many points does seat 0 score?",
                ["0", "5", "13"],
                str(max(blocked.scores)), f"The hand ended as {blocked.end_reason}: no points, and "
                "the same dealer deals again (SR-20, SR-T9).", rules="SR-20 SR-T9 SR-Q7",
                hint="What happens to a blocked hand in the site rules: is it scored, or void?")

# %% [markdown]
# ## 6. Going out and scoring: the winner collects
#
# Your last card wins the hand, and an eight may be your last card, with no suit to name (SR-21,
# SR-T5). The winner scores the cards left in **all** the other hands (SR-22): eights 50, kings,
# queens, jacks and tens 10, aces 1, the other cards their face value. An eight left in a hand is
# worth 50, not 8 (SR-T6). The site rules play one hand; a longer match is agreed before dealing
# (SR-23), and nobody has to announce a last card (SR-24).
#
# *"One opponent holds 8♦ and 3♣: 53 points. Another holds Q♥ and A♠: 11 points. The winner
# scores 64 points."* (SR-T4)

# %%
StepExplainer("sr-t5-t6-going-out-on-an-eight")

# %%
StepExplainer("sr-t4-scoring-64")

# %%
choice_exercise("You are down to one card. Must you announce it?", ["yes", "no"], "no",
                "No announcement is required, and the site rules play a single hand (SR-23, "
                "SR-24).", rules="SR-23 SR-24",
                hint="Do the site rules ask anything of a player with one card left?")

# %%
score_exercise("crazy-eights", [[], ["8D", "3C"], ["QH", "AS"]], winner=0,
               question="Seat 0 went out. Seat 1 holds 8♦ 3♣, seat 2 holds Q♥ A♠. What does "
               "seat 0 score?", rules="SR-22 SR-T4 SR-T6",
               hint="Eights count 50; K, Q, J and 10 count 10; aces 1; other cards their face "
                    "value. Add up every loser's hand.")

# %%
score_exercise("crazy-eights", [["KS", "8C", "2D"], [], ["AH", "10C"]], winner=1,
               question="Seat 1 went out on an eight. Seat 0 holds K♠ 8♣ 2♦, seat 2 holds A♥ "
               "10♣. What does seat 1 score?", rules="SR-21 SR-22 SR-T5",
               hint="The winner collects the points of every other hand. An eight left in a hand "
                    "counts 50.")

# %% [markdown]
# The calculator works any hand out; type cards or click them.

# %%
from crazylab.widgets import ScoreCalculator

ScoreCalculator()

# %% [markdown]
# ## 7. Common mistakes
#
# The site rules list four (seed 001, "Common mistakes"):
#
# * following an eight's **printed** suit instead of the **called** suit (SR-11);
# * playing **several cards together**: one card per turn (SR-9);
# * treating twos, queens or aces as **action cards** without agreeing a variant (SR-14);
# * giving an eight its face value when **scoring**: it is worth 50 (SR-22).
#
# Other versions deal more cards to two players, draw only one card, recycle the discards, call
# "last card" or add action cards: those are variants, not these rules (SR-25). Lesson 7 and the
# options of `cl.rules` try some of them.

# %%
choice_exercise("The top card is 8♥ with clubs called. A player lays 7♥ on it, saying "
                "\"it's a heart, like the eight\". Which common mistake is it?",
                ["printed-suit", "two-cards", "action-card", "eight-scoring"], "printed-suit",
                position("crazy-eights", top="8H", hand="7H", call="C").explain("7H"),
                rules="SR-11 SR-25",
                hint="What did the player look at: the suit that was called, or the eight's own "
                     "suit?")

# %% [markdown]
# ## 8. Explore
#
# In the explorer, set a top card, the *Call in force* and a hand: every card gets the rule that
# decides it. Try 8♠ with clubs called.

# %%
LegalMoveExplorer(rules="crazy-eights", top="8S", hand="3D KS 9C 8H QC", call="D")

# %% [markdown]
# ## Recap
#
# * A card fits on the same **suit** or the same **rank**; any **eight** fits (SR-10), one card
#   per turn (SR-9), and no other card does anything special (SR-14).
# * An eight **names a suit**, which replaces its own (SR-11, SR-12); it may be played at any
#   time (SR-13).
# * Nothing fits: **draw until** something does, then play it (SR-15, SR-16); drawing while a card
#   fits is allowed too (SR-17, [house ruling SR-Q2](rulebook.ipynb#SR-Q2)).
# * The stock is **not** reshuffled; with nothing to draw you pass, and a round of passes voids
#   the hand (SR-18, SR-19, SR-20).
# * The winner **collects** the opponents' points: eight 50, pictures and tens 10, ace 1 (SR-22).
#
# **Rules sheet** (printable; [rules sheets](sheets.ipynb), `sheets/crazy-eights.md`):

# %%
from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-eights")))

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: a new set each time you come back, so
# practise as often as you like. A wrong answer gets the engine's reason, and the rules you
# miss are asked again later. Your answers are kept with your other answers (the bar at the
# top of the page says where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("01_crazy_eights_basics", ["crazy-eights"], kinds=["legal", "score", "next_top"])

# %% [markdown]
# [Start](index.ipynb) · **Lesson 1** · [Lesson 2: classic and quick →](02_classic_vs_quick.ipynb)

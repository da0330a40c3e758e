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
# # Lesson 4: Crazy Breens
#
# [← Lesson 3](03_play_a_match.ipynb) · **Lesson 4** ·
# [Lesson 5 →](05_musical_crazy_8s.ipynb) · [Start](index.ipynb) · [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * the special cards of Crazy Breens, one at a time: the **8** (wild), the **joker** (wild, and
#   the next player draws 4), the **2** (draw two), the **Ace** (skip), the **King** (plays the top
#   card of the deck, and Kings chain), the **Queen** (drop any one card) and the **Jack** (the
#   counter, even a Jack drawn as the first penalty card);
# * **stacking** cards of one rank: three 2s are draw 6, and the hits go to the players in turn;
#   stacked Aces skip several players; a stack of Kings or Queens acts once;
# * the **starter** as the dealer's play: a starter 2, Ace, 8, joker, Queen or King (BR-6, BR-7);
# * how to play it against computer opponents, with the table telling you who is hit and
#   whether you can counter.
#
# Every section ends with an exercise the engine checks. Where the seed is silent, the rulebook
# decides: such decisions are marked as **house rulings** with a link to their id in the rulebook
# ([rulebook.ipynb](rulebook.ipynb)).
#
# Each card gets a worked example in the **step-through explainer**, with **Predict first**
# on: before each step you pick the next move, or say who is hit and how many cards they draw,
# and the engine judges your guess before it shows the step (**Next ▶** shows it without a
# guess; switch *Predict first* off to just step). The *Example* menu holds every Crazy Breens
# example, and a one-line summary under each is computed by the engine from the same example.
# Run the cells from top to bottom (Shift+Enter).

# %% [markdown]
# ## 0. The rules in one breath
#
# Crazy Breens (preset `crazy-breens`) is Crazy Eights with **7 cards** each (BR-3), the rest
# face down as the draw pile (BR-4), and the dealer turns its top card to start the discard pile
# (BR-5). The deck has two jokers ([house ruling BR-Q1](rulebook.ipynb#BR-Q1): the
# seed names the joker but
# not how many) and 2–6 players play ([house ruling BR-Q2](rulebook.ipynb#BR-Q2)). No
# score is kept: the
# first player out wins the round (BR-28). You **must** play a card if one fits (BR-9): the same
# suit or rank, an 8 or a joker (BR-10); only if none fits do you draw, until one does, and play it
# (BR-11). Everyone sees how many cards the others hold (BR-29). A special card's effect is yours
# even when a King turns it from the deck or a Queen lets you drop it, and the first card turned
# up at the deal (the **starter**) counts as the **dealer's** play (BR-6).

# %%
from IPython.display import Markdown, display

import crazylab as cl
from crazylab.engine.cards import SUIT_SYMBOLS, SUITS
from crazylab.engine.variants import breens as effects
from crazylab.examples import list_examples, load_example
from crazylab.widgets import StepExplainer
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import (
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    next_top_exercise,
)

display(class_bar("04_crazy_breens"))  # who you are, and where your answers are kept

BREENS = [name for name in list_examples() if name.startswith("br-")]


def explain(name, step=0):
    """The step-through explainer, opened at a Crazy Breens worked example, predicting
    first (guess each step before it is shown)."""
    return StepExplainer(name, step, choices=BREENS, predict=True)


def replay(name, step=None):
    """Replay a worked example with the engine, checking everything the file expects, and
    return the game after ``step`` (0 is the setup; by default the last step)."""
    example = load_example(name)
    problems = example.replay()
    assert not problems, problems
    return example.frames()[-1 if step is None else step].game


def suit(game):
    """The suit in force, as a symbol."""
    return SUIT_SYMBOLS[SUITS.index(game.suit)]


def turned(game):
    """The cards a King's deck play turned up, in order."""
    return " then ".join(e.cards[0].display for e in game.events
                         if e.kind == "flipped" and e.cards)


print(len(BREENS), "Crazy Breens worked examples")

# %%
deal = cl.new_game("crazy-breens", players=5, seed=3)
choice_exercise("Five players: how many cards does each get?", ["5", "7", "10"],
                str(len(deal.hands[0])), "7 cards each whatever the number of players (BR-3); "
                "the rest is the draw pile (BR-4), whose top card the dealer turns up (BR-5).",
                rules="BR-3 BR-4 BR-5",
                hint="Look up the deal of Crazy Breens: does the number of cards depend on the "
                     "number of players?")

# %%
choice_exercise("May you ask how many cards an opponent holds?", ["yes", "no"], "yes",
                "Hand sizes are public: \"watch your opponents' card counts\" (BR-29).",
                rules="BR-29",
                hint="Is the number of cards in a hand secret in Crazy Breens?")

# %%
breens = cl.rules("crazy-breens")
choice_exercise("How many cards does the Crazy Breens deck hold?", ["52", "53", "54"],
                str(breens.deck_size), f"52 cards and {breens.jokers} jokers: the seed names the "
                "joker but not how many (house ruling BR-Q1, BR-1).", rules="BR-Q1 BR-1",
                hint="A standard deck and its jokers.")

# %%
try:
    cl.new_game("crazy-breens", players=7, seed=1)
    seven = "yes"
except cl.SetupError:
    seven = "no"
choice_exercise("May seven play Crazy Breens?", ["yes", "no"], seven,
                f"{breens.min_players}–{breens.max_players} players: six hands of 7 and the "
                "starter leave an 11-card draw pile (house ruling BR-Q2, BR-2).",
                rules="BR-Q2 BR-2",
                hint="How many players do the rules allow at most?")

# %%
compulsory = replay("br-t19-compulsory-play")
is_legal_exercise(compulsory, "draw", f"The top card is {compulsory.top.display} and seat 0 holds "
                  + " ".join(c.display for c in compulsory.hands[0])
                  + ". Is <code>draw</code> legal?", rules="BR-9 BR-10 BR-T19",
                  hint="In Crazy Breens, may you draw while a card of your hand fits?")

# %%
explain("br-t20-draw-until-then-stack")

# %%
until = replay("br-t20-draw-until-then-stack", 2)
legal_moves_exercise(until, "On 5♥ no card of seat 0 fits; it draws until one does and now "
                     "holds " + " ".join(c.display for c in until.hands[0])
                     + ". Which moves are legal? List each card you may start a move with; a stack "
                     "may be written whole (9H+9C), as one move.",
                     rules="BR-11 BR-T20",
                     hint="Which card of the hand fits 5♥ now? A stack starts with one card that "
                          "fits, and the rest share its rank.")

# %% [markdown]
# ## 1. The 8 is wild
#
# An 8 fits on any card, and you call the suit that counts from now on (BR-16). A stack of 8s
# still gets only one call ([house ruling BR-15](rulebook.ipynb#BR-15)).

# %%
explain("br-seed-eight-wild")

# %%
# NBVAL_CHECK_OUTPUT

game = replay("br-seed-eight-wild")
print(f"{game.top.display} with {suit(game)} called: seat {game.to_play} may play {game.legal()}")

# %%
legal_moves_exercise(replay("br-seed-eight-wild"), "Seat 0 played 8♠ and called diamonds. "
                     "Which cards may seat 1 play?", rules="BR-16", cards_only=True,
                     hint="Diamonds were called after the eight. Which of seat 1's cards is a "
                          "diamond or an eight?")

# %%
eights = cl.Game.from_position("crazy-breens", 2, hands=[["8S", "8D", "5C"], ["4H", "9S"]],
                               stock=["3C", "4C", "6D"], discard=["6H"])
eights.push("8S+8D:H")
calls = sum(1 for e in eights.events if e.kind == "called")
choice_exercise("Seat 0 stacks 8♠+8♦ on 6♥. How many suits does it call?", ["1", "2"],
                str(calls), "One call, made after the whole stack is down: the move is written "
                "8S+8D:H (house ruling BR-15).", rules="BR-15 BR-12",
                hint="A stack of eights still names only one suit.")

# %% [markdown]
# ## 2. The joker: wild, and draw 4
#
# A joker is wild like an 8 (you call a suit), and the next player must **draw 4 and lose the
# turn** (BR-17). Penalty cards are drawn one at a time.

# %%
explain("br-t8-joker-draw-four")

# %%
# NBVAL_CHECK_OUTPUT

print("after JK:D:", effects.describe_pending(replay("br-t8-joker-draw-four", 2)))

# %% [markdown]
# A Jack counters the joker's draw 4 as well (`br-t8-joker-countered`,
# [house ruling BR-Q14](rulebook.ipynb#BR-Q14)); two jokers hit two players, with one
# call (BR-T9):

# %%
explain("br-t9-two-jokers")

# %%
legal_moves_exercise(replay("br-t8-joker-countered", 1), "Seat 0 played a joker. Seat 1 holds "
                     "a Jack. What may seat 1 do?", rules="BR-Q14 BR-T8 BR-T9",
                     hint="A Jack may counter a penalty. What else may a hit player do?")

# %%
choice_exercise("Seat 0 plays a joker and calls diamonds. How many cards does seat 1 draw, and "
                "does seat 1 play afterwards?",
                ["2, then plays", "4, then plays", "4, and loses the turn"],
                "4, and loses the turn",
                effects.describe_pending(replay("br-t8-joker-draw-four", 2)) + " (BR-17, BR-T8).",
                rules="BR-17 BR-T8",
                hint="A joker hits the next player: how many cards, and is the turn lost too?")

# %% [markdown]
# ## 3. The 2: draw two
#
# A 2 hits the next player: **draw 2 and lose the turn** (BR-18). Here the 2 is the starter,
# which counts as the dealer's play (BR-6), so it hits seat 0, the first player.

# %%
explain("br-t15-starter-two")

# %%
# NBVAL_CHECK_OUTPUT

game = replay("br-t15-starter-two", 0)
print(f"starter {game.top.display}: {effects.describe_pending(game)}")

# %%
legal_moves_exercise(replay("br-t15-starter-two", 0), "The starter is 2♣ and seat 0 holds no "
                     "Jack. What may seat 0 do?", rules="BR-18 BR-6 BR-T15",
                     hint="A starter 2 hits the first player. Without a Jack, there is no "
                          "counter.")

# %% [markdown]
# ## 4. The Ace: skip
#
# An Ace hits the next player too, but with no cards to draw: the player is **skipped** (BR-19).
# A skipped player who cannot counter says `pass`.

# %%
explain("br-t14-seed-starter-ace-skips-first-player")

# %%
# NBVAL_CHECK_OUTPUT

game = replay("br-t14-seed-starter-ace-skips-first-player", 0)
print(f"starter {game.top.display}: {effects.describe_pending(game)}; seat 0 may: {game.legal()}")

# %% [markdown]
# With two players, A+A skips the opponent once and seat 0 plays again (`br-t4-two-player-aces`).
# A starter 2 can be countered too (`br-t15-starter-two-countered`).

# %%
legal_moves_exercise(replay("br-t14-seed-starter-ace-skips-first-player", 0),
                     "The starter is A♣. What may seat 0, the first player, do?",
                     rules="BR-19 BR-T14",
                     hint="An Ace skips the next player; a starter Ace skips the first player.")

# %% [markdown]
# ## 5. The King: play the top card of the deck, and King chains
#
# After a King, the top card of the stock is turned onto the pile **as your play**: it need not
# match, and if it is special its effect is yours (BR-20). If it is another King, it turns again:
# a **King chain**. Only a King turns again: any other special card that is turned just has its
# effect ([house ruling BR-Q10](rulebook.ipynb#BR-Q10); the seed's "same with any
# special card" is read as
# "effects trigger"). The *Example* menu has the King turning a 2
# (`br-t10-king-flips-two`), an 8 (`br-t10-king-flips-eight`), a Queen
# (`br-t10-king-flips-queen`) and a joker (`br-t10-king-flips-joker`).

# %%
explain("br-t10-seed-king-chain")

# %%
# NBVAL_CHECK_OUTPUT

for name in ["br-t10-king-deck-play", "br-t10-seed-king-chain"]:
    game = replay(name, 1)
    hit = effects.describe_pending(game) or f"seat {game.to_play} plays next, on {suit(game)}"
    print(f"{name}: K♠ turns {turned(game)}: {hit}")

# %%
king = cl.Game.from_position("crazy-breens", 2, hands=[["KS", "3D", "4D"], ["4C", "5C"]],
                             stock=["7H", "9C", "6D"], discard=["2S"])
next_top_exercise(king, ["KS"], "Seat 0 plays K♠ on 2♠; the draw pile's top card is 7♥. "
                  "What is the top card of the discard pile afterwards?", rules="BR-20 BR-T10",
                  hint="A King turns the next card of the deck onto the pile.")

# %%
flip_two = replay("br-t10-king-flips-two", 1)
choice_exercise("A King turns 2♣ from the deck. Does it turn another card?", ["yes", "no"],
                "no" if turned(flip_two).count(" then ") == 0 else "yes",
                f"Only a King turns again (house ruling BR-Q10): {turned(flip_two)} is the "
                f"King's play, and {effects.describe_pending(flip_two)}.", rules="BR-Q10 BR-T10",
                hint="A King turns one card; does the turned card act?")

# %% [markdown]
# **The starter King.** A King turned up as the starter is the dealer's play too: the dealer
# turns the next card at once, and its effect triggers (BR-7). Here it turns an Ace, so the first
# player is skipped (BR-T17):

# %%
explain("br-t17-seed-initial-king")

# %%
initial = replay("br-t17-seed-initial-king", 0)
legal_moves_exercise(initial, f"The starter was a King; the dealer turned {initial.top.display} "
                     "onto it. What may seat 0, the first player, do?", rules="BR-7 BR-T17",
                     hint="A starter King turned A♦ onto it: what does an Ace do to the next "
                          "player?")

# %% [markdown]
# ## 6. The Queen: drop any card
#
# After a Queen you **may drop one card** of your hand on the pile, matching or not, or say
# `end` to drop none (BR-21). The dropped card's effect is yours: drop an Ace and the next player
# is skipped, and drop a 2 and the next player draws two (`br-seed-queen-drops-two`). Dropping
# your last card wins ([house ruling BR-Q32](rulebook.ipynb#BR-Q32)).

# %%
explain("br-t12-seed-queen-drops-ace")

# %%
# NBVAL_CHECK_OUTPUT

after_queen = replay("br-t12-seed-queen-drops-ace", 1)
print(f"after Q♥ seat 0 may: {after_queen.legal()}; dropping A♣: "
      f"{effects.describe_pending(replay('br-t12-seed-queen-drops-ace', 3))}")

# %% [markdown]
# Dropping an 8 lets you call a suit (`br-t12-queen-drops-eight`), dropping nothing leaves the
# Queen on top (`br-t12-queen-drops-nothing`), and dropping your last card wins at once (BR-T13):

# %%
explain("br-t13-queen-drop-last-card-wins")

# %%
choice_exercise("Seat 0 holds Q♥ 5♠ on a heart, plays Q♥ and drops 5♠. Who wins?",
                ["nobody yet", "seat 0", "seat 1"],
                f"seat {replay('br-t13-queen-drop-last-card-wins').winner}",
                "A dropped last card empties the hand: the round ends (BR-T13, house ruling "
                "BR-Q32).", rules="BR-T13 BR-Q32 BR-28",
                hint="A Queen lets you drop a card. If that was your last card, is the hand over?")

# %%
explain("br-seed-queen-drops-two")

# %%
legal_moves_exercise(replay("br-t12-seed-queen-drops-ace", 1), "Seat 0 played Q♥ and holds A♣ "
                     "9♠. What may seat 0 do now?", rules="BR-21 BR-T12",
                     hint="After a Queen you may drop any one card, or end without dropping.")

# %%
choice_exercise("After Q♥, seat 0 drops 2♣. What happens to seat 1?",
                ["nothing", "draws 2 and loses the turn", "is skipped"],
                "draws 2 and loses the turn",
                effects.describe_pending(replay("br-seed-queen-drops-two", 2))
                + ": the dropped card's effect is the dropper's (BR-21).", rules="BR-21",
                hint="A dropped card acts as if played: what does a 2 do?")

# %% [markdown]
# ## 7. The Jack: the counter
#
# A player who is hit by a 2, an Ace or a joker may answer with a **Jack** of any suit (or a
# stack of Jacks) instead of taking the penalty: the Jack needs no match, its suit counts, and
# the whole cycle of hits ends, so later victims are spared too (BR-22, BR-27).

# %%
explain("br-t5-counter-from-hand")

# %%
# NBVAL_CHECK_OUTPUT

hit = replay("br-t5-counter-from-hand", 1)
countered = replay("br-t5-counter-from-hand")
print(f"after 2♦+2♠: {effects.describe_pending(hit)}. After J♥: "
      f"{effects.describe_pending(countered) or 'no hit is left'}, the suit is "
      f"{suit(countered)} and seat {countered.to_play} plays")

# %%
legal_moves_exercise(replay("br-t5-counter-from-hand", 1), "Seat 0 played 2♦+2♠: seat 1 and "
                     "seat 2 are hit. Seat 1 holds a Jack. What may seat 1 do?",
                     rules="BR-22 BR-T5",
                     hint="When you are hit, you may take the penalty or counter with a Jack.")

# %%
ordinary = cl.Game.from_position("crazy-breens", 2, hands=[["JS", "4D"], ["4C", "5C"]],
                                 stock=["7H", "9C"], discard=["6H"])
is_legal_exercise(ordinary, "JS", "Nobody is hit. The top card is 6♥. Is J♠ legal?",
                  rules="BR-23",
                  hint="A Jack counters only a hit. Is anyone hit now? Then does J♠ match 6♥?")

# %% [markdown]
# ### The mid-draw counter
#
# A victim without a Jack starts drawing. If the **first** penalty card drawn is a Jack, it may
# be played at once as a counter, and the rest of the penalty is never drawn (BR-26). A Jack
# drawn second is too late (`br-t7-no-counter-after-first-card` in the menu).

# %%
explain("br-t7-seed-mid-draw-counter")

# %%
# NBVAL_CHECK_OUTPUT

drew = replay("br-t7-seed-mid-draw-counter", 2)
done = replay("br-t7-seed-mid-draw-counter")
late = replay("br-t7-no-counter-after-first-card")
print(f"J♠ drawn first: seat 1 may {drew.legal()}; it counters and keeps "
      f"{done.hand_sizes[1]} cards. J♠ drawn second: seat 1 keeps "
      f"{' '.join(c.display for c in late.hands[1])} and seat {late.to_play} plays")

# %%
legal_moves_exercise(replay("br-t7-seed-mid-draw-counter", 2), "Seat 1 is hit by a 2 and has "
                     "drawn one penalty card: J♠. What may seat 1 do now?",
                     rules="BR-26 BR-T7",
                     hint="Only a Jack drawn as the first penalty card may counter at once; "
                          "which card did seat 1 draw first?")

# %% [markdown]
# ## 8. Stacking
#
# On your turn you may play several cards of **one rank** together, in any order, as long as the
# first one fits (BR-12). The last card is the top card. Every 2, Ace or joker in a stack is
# **one hit**, and the hits go to the opponents **in turn**: the first to the next player, the
# second to the one after, and so on (BR-24; the rulebook's targeting model,
# [house ruling BR-M3](rulebook.ipynb#BR-M3)). A victim hit twice (the hits wrap round
# a
# small table) draws for both but loses **one** turn per cycle
# ([house ruling BR-Q12](rulebook.ipynb#BR-Q12)).
#
# ### Three 2s = draw 6
#
# With two players every hit lands on the only opponent: 6 cards, and one lost turn (BR-13).

# %%
explain("br-t2-seed-three-twos-draw-six")

# %%
# NBVAL_CHECK_OUTPUT

print("after 2C+2H+2S:", effects.describe_pending(replay("br-t2-seed-three-twos-draw-six", 1)))

# %%
legal_moves_exercise(replay("br-t2-seed-three-twos-draw-six", 0),
                     "Seat 0 may stack. Which moves may it play? List each card it may start "
                     "with; a stack may be written whole (2C+2H+2S), as one move.",
                     rules="BR-12 BR-13 BR-T2",
                     hint="A stack starts with a card that fits (suit or rank); the other cards "
                          "of the stack share its rank.")

# %% [markdown]
# ### Stacked 2s hit the players in turn
#
# With four players the same three 2s hit three players, 2 cards each. They resolve one after
# the other; a Jack from any of them would end the cycle for all.

# %%
explain("br-t1-seed-stacked-twos-hit-in-turn")  # BR-T1

# %%
four = replay("br-t1-seed-stacked-twos-hit-in-turn", 2)
choice_exercise("Four players: seat 0 plays 2♣+2♥+2♠. How many players draw, and how many cards "
                "each?", ["one player, 6", "three players, 2 each", "two players, 2 and 4"],
                "three players, 2 each", effects.describe_pending(four) + " (BR-T1).",
                rules="BR-T1 BR-24",
                hint="Each 2 of a stack hits the next player in turn, two cards each.")

# %%
# NBVAL_CHECK_OUTPUT

print("after 2C+2H+2S:", effects.describe_pending(replay("br-t1-seed-stacked-twos-hit-in-turn", 2)))

# %%
wrap = replay("br-t3-three-players-wrap-around", 1)
choice_exercise("Three players: seat 0 plays 2♣+2♥+2♠. How many cards does seat 1 draw?",
                ["2", "4", "6"], "4", effects.describe_pending(wrap)
                + ": hits 1 and 3 land on seat 1, hit 2 on seat 2 (BR-24, BR-T3).",
                rules="BR-24 BR-T3 BR-M3 BR-Q12",
                hint="With three players, three 2s go round: seat 1, seat 2, then seat 1 again.")

# %% [markdown]
# ### Ace stacking
#
# Each stacked Ace skips the next player in sequence (BR-25).

# %%
explain("br-t4-seed-ace-stacking")

# %%
# NBVAL_CHECK_OUTPUT

game = replay("br-t4-seed-ace-stacking", 2)
print(f"after AD+AS: {effects.describe_pending(game)}")

# %%
aces = replay("br-t4-seed-ace-stacking", 2)
choice_exercise("Four players: seat 0 plays A♦+A♠. Who plays next?",
                ["seat 1", "seat 2", "seat 3"], "seat 3",
                effects.describe_pending(aces) + "; then seat 3 plays (BR-25, BR-T4).",
                rules="BR-25 BR-T4",
                hint="Each Ace of a stack skips one player in turn.")

# %% [markdown]
# ### King and Queen stacking
#
# A stack of Kings or Queens acts **once**: only the last card triggers (BR-14). A stack of
# Kings turns one card from the deck; a stack of Queens gives one drop.

# %%
explain("br-t11-king-stack-one-deck-play")

# %%
explain("br-seed-queen-stack-one-drop")

# %%
# NBVAL_CHECK_OUTPUT

kings = replay("br-t11-king-stack-one-deck-play")
queens = replay("br-seed-queen-stack-one-drop", 1)
print(f"K♥+K♣ turns {turned(kings)} only; after Q♥+Q♣ seat 0 may drop one of {queens.legal()}")

# %%
choice_exercise("Seat 0 plays K♥+K♣. How many cards are turned from the deck?", ["1", "2"],
                str(len(turned(kings).split(" then "))), "A stack of Kings acts once: only the "
                "last King plays the deck (BR-14, BR-T11).", rules="BR-14 BR-T11",
                hint="Kings stacked together: how many times is a card turned?")

# %% [markdown]
# ### Going out and the counter that breaks the cycle
#
# A player who empties the hand wins at once, even on a stack of 2s: the hits are never dealt
# (BR-28, BR-T21). A Jack played by any victim ends the whole cycle (BR-27): in
# `br-t6-counter-by-later-victim` seat 1 takes its two cards, then seat 2 counters.

# %%
explain("br-t21-going-out-on-twos")

# %%
choice_exercise("Seat 0 holds only 2♣ and 2♥ and plays both on 7♣. Does seat 1 draw 4?",
                ["yes", "no"], "no" if replay("br-t21-going-out-on-twos").over else "yes",
                "Seat 0 has no cards left: the round ends at once and no hit is dealt "
                "(BR-28, BR-T21).", rules="BR-28 BR-T21",
                hint="A hand ends the moment a player's last card is played. Is there anyone left"
                     " to hit?")

# %%
explain("br-t6-counter-by-later-victim")

# %%
later = replay("br-t6-counter-by-later-victim")
choice_exercise("Four players: seat 0 hits seats 1 and 2. Seat 1 draws its two cards; seat 2 "
                "counters with J♣. Who plays next?", ["seat 0", "seat 1", "seat 3"],
                f"seat {later.to_play}", "The counter ends the cycle and is seat 2's turn, so "
                "seat 3 plays; seat 1 keeps its cards (BR-27, BR-T6).",
                rules="BR-27 BR-T6 BR-M4",
                hint="A counter is the countering player's turn: who plays after them?")

# %% [markdown]
# ## The starter: any card is the dealer's play
#
# The starter counts as the dealer's play (BR-6), so every special starter acts: a 2 or an Ace
# hits the first player (sections 3 and 4), a King turns the next card (BR-7, section 5). For an
# 8, a joker or a Queen the seed says no more, and the rulebook follows "as if the dealer played
# it": the **dealer** calls the suit for a starter 8 or joker
# ([house ruling BR-Q5](rulebook.ipynb#BR-Q5), [house ruling
# BR-Q6](rulebook.ipynb#BR-Q6)), a starter joker also
# makes the first player draw 4, and a starter Queen lets the dealer drop a card
# ([house ruling BR-Q7](rulebook.ipynb#BR-Q7)).

# %% [markdown]
# A starter 8 or joker: the dealer calls (BR-T16).

# %%
explain("br-t16-starter-eight")

# %%
explain("br-t16-starter-joker")

# %%
explain("br-t18-starter-queen")

# %%
queen_start = replay("br-t18-starter-queen", 0)
legal_moves_exercise(queen_start, "The starter is Q♣. It is the dealer's play. What may the "
                     f"dealer (seat {queen_start.to_play}) do?", rules="BR-6 BR-T18 BR-Q7",
                     hint="A starter Queen lets the dealer drop one card: any card, it need not "
                          "fit Q♣. May the dealer also drop none?")

# %%
eight_start = replay("br-t16-starter-eight", 0)
choice_exercise(f"The starter is {eight_start.top.display}. Who calls the suit?",
                ["the dealer", "the first player", "nobody: its own suit counts"],
                "the dealer" if eight_start.to_play == eight_start.dealer else "the first player",
                f"The starter is the dealer's play, so the dealer (seat {eight_start.dealer}) "
                f"calls: the engine asks seat {eight_start.to_play} for "
                + ", ".join(eight_start.legal()) + " (house ruling BR-Q5, BR-T16).",
                rules="BR-Q5 BR-T16",
                hint="A starter eight needs a suit before anyone has played. Who has already "
                     "taken part at that moment?")

# %%
joker_start = replay("br-t16-starter-joker", 2)
choice_exercise("The starter is a joker; the dealer called hearts. What happens to seat 0?",
                ["nothing", "draws 4 and loses the turn", "draws 2"],
                "draws 4 and loses the turn", effects.describe_pending(joker_start)
                + ": a starter joker is a real dealer's play (house ruling BR-Q6).",
                rules="BR-Q6 BR-T16",
                hint="A starter joker hits the first player as a played joker would.")

# %% [markdown]
# ## 9. Your turn: play against the computer
#
# You are seat 0 against two computer players. The dealer (Bot 2) turned a **2** as the starter,
# and the starter is the dealer's play: you are hit before your first card. The red banner says
# who is hit, by what, and what they must do; when it is you, it names the Jacks you can counter
# with (they are raised in your hand). Click the Jack to counter, or **Draw a penalty card**
# twice. Opponents who are hit carry a red badge. **Hint** explains every card;
# **New hand** deals again.

# %%
from crazylab.widgets import GameTable

table = GameTable("crazy-breens", opponents=2, seed=11)
table

# %% [markdown]
# What the table shows, as text (the same sentences the banner and the status line show):

# %%
# NBVAL_CHECK_OUTPUT

print(effects.describe_pending(table.game))
for line in table.view["pending"]:
    print(line["text"])
print(table.view["message"])

# %% [markdown]
# ## Recap
#
# | card | effect | rule |
# |---|---|---|
# | 8 | wild: call a suit | BR-16 |
# | joker | wild, and the next player draws 4 and loses the turn | BR-17 |
# | 2 | the next player draws 2 and loses the turn | BR-18 |
# | Ace | the next player is skipped | BR-19 |
# | King | the top card of the deck is your play; a King turned up turns again | BR-20, BR-7 |
# | Queen | drop any one card (optional); its effect is yours | BR-21 |
# | Jack | counters a hit, from the hand or as the first card drawn | BR-22, BR-26, BR-27 |
# | stacks | one rank; each 2, Ace or joker is a hit, in turn; K and Q act once | BR-12…BR-14 |
#
# * You must play when you can (BR-9); if nothing fits, draw until something does (BR-11).
# * The starter is the dealer's play (BR-6): its effect applies.
# * The first player out wins (BR-28); nobody scores.
#
# **Rules sheet** (printable: [rules sheets](sheets.ipynb), `sheets/crazy-breens.md`):

# %%
from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-breens")))

# %% [markdown]
# ### Try it yourself
#
# 1. In the table above, is it better to counter the starter 2 with your Jack at once, or to
#    keep the Jack for a bigger hit? Try both with **New hand** / **Restart match**.
# 2. In the explainer, open `br-t6-counter-by-later-victim`: why may seat 2 still counter after
#    seat 1 has drawn?
# 3. With three players, three stacked 2s wrap around (`br-t3-three-players-wrap-around`). How
#    many cards does each opponent draw, and how many turns do they lose?
#
# <details><summary>Answers</summary>
#
# 1. There is no single answer. Countering at once sheds the Jack and saves 2 cards; keeping it
#    can save 4 (a joker) later, but you may never be hit again before someone goes out.
# 2. Each victim resolves the hit when the turn reaches it
#    ([house ruling BR-M4](rulebook.ipynb#BR-M4)); seat 2's hit is still pending
#    when seat 1 has drawn, and a Jack from any victim ends what is left of the cycle (BR-27).
# 3. Seat 1 takes hits 1 and 3 and draws 4, seat 2 takes hit 2 and draws 2, and each loses one
#    turn (BR-T3; one turn per cycle is
#    [house ruling BR-Q12](rulebook.ipynb#BR-Q12)).
#
# </details>

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: a new set each time you come back, so
# practise as often as you like. A wrong answer gets the engine's reason, and the rules you
# miss are asked again later. Your answers are kept with your other answers (the bar at the
# top of the page says where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("04_crazy_breens", ["crazy-breens"], kinds=["legal", "next_top"])

# %% [markdown]
# [← Lesson 3](03_play_a_match.ipynb) · **Lesson 4** ·
# [Lesson 5: musical Crazy 8s →](05_musical_crazy_8s.ipynb)

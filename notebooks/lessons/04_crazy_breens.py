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
# **What you will learn**
#
# * the special cards of Crazy Breens, one at a time: the **8** (wild), the **joker** (wild, and
#   the next player draws 4), the **2** (draw two), the **Ace** (skip), the **King** (plays the top
#   card of the deck, and Kings chain), the **Queen** (drop any one card) and the **Jack** (the
#   counter, even a Jack drawn as the first penalty card);
# * **stacking** cards of one rank: three 2s are draw 6, and the hits go to the players in turn;
#   stacked Aces skip several players; a stack of Kings or Queens acts once;
# * how to play it against computer opponents, with the table telling you who is hit and
#   whether you can counter.
#
# Each card gets a worked example in the **step-through explainer** (press **Next ▶**; the
# *Example* menu holds every Crazy Breens example) and a one-line summary that the engine
# computes by replaying the same example. Run the cells from top to bottom (Shift+Enter).

# %% [markdown]
# ## 0. The rules in one breath
#
# Crazy Breens (preset `crazy-breens`) is Crazy Eights with 7 cards each, two jokers in the deck,
# no score (the first player out wins), and special cards. You must play a card if one fits (the
# same suit or rank, or a wild); only if none fits do you draw, until one does. A special card's
# effect is yours even when a King turns it from the deck or a Queen lets you drop it, and the
# first card turned up at the deal (the **starter**) counts as the **dealer's** play.

# %%
from crazylab.widgets import StepExplainer

from crazylab.engine.cards import SUIT_SYMBOLS, SUITS
from crazylab.engine.variants import breens as effects
from crazylab.examples import list_examples, load_example

BREENS = [name for name in list_examples() if name.startswith("br-")]


def explain(name, step=0):
    """The step-through explainer, opened at a Crazy Breens worked example."""
    return StepExplainer(name, step, choices=BREENS)


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

# %% [markdown]
# ## 1. The 8 is wild
#
# An 8 fits on any card, and you call the suit that counts from now on (BR-16). A stack of 8s
# still gets only one call (BR-15).

# %%
explain("br-seed-eight-wild")

# %%
# NBVAL_CHECK_OUTPUT

game = replay("br-seed-eight-wild")
print(f"{game.top.display} with {suit(game)} called: seat {game.to_play} may play {game.legal()}")

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
# ## 5. The King: play the top card of the deck, and King chains
#
# After a King, the top card of the stock is turned onto the pile **as your play**: it need not
# match, and if it is special its effect is yours (BR-20). If it is another King, it turns again:
# a **King chain**. The *Example* menu has the King turning a 2, an 8, a Queen and a joker too
# (`br-t10-king-flips-…`).

# %%
explain("br-t10-seed-king-chain")

# %%
# NBVAL_CHECK_OUTPUT

for name in ["br-t10-king-deck-play", "br-t10-seed-king-chain"]:
    game = replay(name, 1)
    hit = effects.describe_pending(game) or f"seat {game.to_play} plays next, on {suit(game)}"
    print(f"{name}: K♠ turns {turned(game)}: {hit}")

# %% [markdown]
# ## 6. The Queen: drop any card
#
# After a Queen you **may drop one card** of your hand on the pile, matching or not, or say
# `end` to drop none (BR-21). The dropped card's effect is yours: drop an Ace and the next player
# is skipped. Dropping your last card wins (BR-Q32).

# %%
explain("br-t12-seed-queen-drops-ace")

# %%
# NBVAL_CHECK_OUTPUT

after_queen = replay("br-t12-seed-queen-drops-ace", 1)
print(f"after Q♥ seat 0 may: {after_queen.legal()}; dropping A♣: "
      f"{effects.describe_pending(replay('br-t12-seed-queen-drops-ace', 3))}")

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

# %% [markdown]
# ## 8. Stacking
#
# On your turn you may play several cards of **one rank** together, in any order, as long as the
# first one fits (BR-12). The last card is the top card. Every 2, Ace or joker in a stack is
# **one hit**, and the hits go to the opponents **in turn**: the first to the next player, the
# second to the one after, and so on (BR-24, BR-M3).
#
# ### Three 2s = draw 6
#
# With two players every hit lands on the only opponent: 6 cards, and one lost turn (BR-13).

# %%
explain("br-t2-seed-three-twos-draw-six")

# %%
# NBVAL_CHECK_OUTPUT

print("after 2C+2H+2S:", effects.describe_pending(replay("br-t2-seed-three-twos-draw-six", 1)))

# %% [markdown]
# ### Stacked 2s hit the players in turn
#
# With four players the same three 2s hit three players, 2 cards each. They resolve one after
# the other; a Jack from any of them would end the cycle for all.

# %%
explain("br-t1-seed-stacked-twos-hit-in-turn")

# %%
# NBVAL_CHECK_OUTPUT

print("after 2C+2H+2S:", effects.describe_pending(replay("br-t1-seed-stacked-twos-hit-in-turn", 2)))

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
# ## Cheat sheet
#
# | card | effect | rule |
# |---|---|---|
# | 8 | wild: call a suit | BR-16 |
# | joker | wild, and the next player draws 4 and loses the turn | BR-17 |
# | 2 | the next player draws 2 and loses the turn | BR-18 |
# | Ace | the next player is skipped | BR-19 |
# | King | the top card of the deck is your play; a King turned up turns again | BR-20 |
# | Queen | drop any one card (optional); its effect is yours | BR-21 |
# | Jack | counters a 2, an Ace or a joker, from the hand or as the first card drawn | BR-22, 26 |
# | stacks | one rank; each 2, Ace or joker is a hit, dealt in turn; K and Q act once | BR-12…14, 24
# |
#
# ## Try it yourself
#
# 1. In the table above, is it better to counter the starter 2 with your Jack at once, or to
#    keep the Jack for a bigger hit? Try both with **New hand** / **Restart match**.
# 2. In the explainer, open `br-t6-counter-by-later-victim`: why may seat 2 still counter after
#    seat 1 has drawn?
# 3. With three players, three stacked 2s wrap around (`br-t3-three-players-wrap-around`). How
#    many cards does each opponent draw, and how many turns do they lose?

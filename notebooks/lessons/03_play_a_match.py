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
# # Lesson 3: play a match
#
# [← Lesson 2](02_classic_vs_quick.ipynb) · **Lesson 3** · [Lesson 4 →](04_crazy_breens.ipynb) ·
# [Start](index.ipynb) · [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * how to play a hand against computer opponents, and use the **Hint** to see why a card is
#   or is not legal;
# * how a **match** adds up the hands until someone reaches 100 (AP-16), and how the deal moves
#   one seat to the left each hand (C-2);
# * how to play a whole match in code, to see how scores grow.

# %% [markdown]
# ## 1. Your table
#
# Click a marked card to play it; an eight opens the suit chooser. Press **Hint** to see every
# card's reason. The computer players move after a short pause. When the hand is over, press
# **New hand**: the deal moves one seat to the left and the scores add up.

# %%
from IPython.display import display

from crazylab.widgets import GameTable
from crazylab.widgets.classbar import class_bar

display(class_bar("03_play_a_match"))  # who you are, and where your answers are kept

table = GameTable("crazy-eights-classic", opponents=2, seed=3)
table

# %% [markdown]
# The table is also a Python object. This is what you may see (your own cards only):

# %%
# NBVAL_CHECK_OUTPUT

print("your hand:", " ".join(card["display"] for card in table.view["hand"]))
print("top card: ", table.view["piles"][0]["display"])
print("opponents:", [o["count"] for o in table.view["opponents"]])

# %% [markdown]
# ## 2. A whole match in code
#
# A `Match` deals hands in turn and adds the winner's points until someone reaches the target.
# Here every player plays random legal moves, with a fixed seed:

# %%
import pandas as pd

from crazylab import Match

match = Match("crazy-eights-classic", players=3, seed=7).play_random(7)
pd.DataFrame(
    [{"hand": i + 1, "dealer": game.dealer, "winner": game.winner, "ended": game.end_reason,
      **{f"seat {s}": pts for s, pts in enumerate(game.scores)}}
     for i, game in enumerate(match.hands)]
).set_index("hand")

# %%
print("final scores:", match.scores, "- the winner is seat", match.winner)

# %% [markdown]
# ## 3. Other rule sets at the same table
#
# The table works for every rule set of lessons 1 and 2: try the quick rule (you may stop
# drawing after three cards) from the *Rules* menu above, or start it directly. Crazy Breens and
# the musical games get their own tables once their lessons have taught them.

# %%
GameTable("crazy-eights-quick", opponents=1, seed=2)

# %% [markdown]
# ## 4. Check yourself
#
# The hands of the match in section 2 were played by computer players; the engine kept every
# deal. Each hand is dealt by the next seat to the left, and the player left of the dealer
# starts (C-2).

# %%
from crazylab.widgets.exercise import choice_exercise, legal_moves_exercise, score_exercise

# another match, not shown above: four players this time
other = Match("crazy-eights-classic", players=4, seed=11).play_random(11)
first, second = other.hands[0], other.hands[1]
choice_exercise(f"In another match, of four players, hand 1 was dealt by seat {first.dealer}. "
                "Who deals hand 2, and who plays first in it?",
                [f"seat {d} deals, seat {(d + 1) % 4} starts" for d in range(4)],
                f"seat {second.dealer} deals, seat {(second.dealer + 1) % 4} starts",
                "The deal moves one seat to the left each hand, and the first player sits left "
                "of the dealer (C-2).", rules="C-2 AP-5",
                hint="The deal moves one seat to the left each hand, and the player left of the "
                     "dealer starts.")

# %%
choice_exercise("Only the winner of a hand scores. Can two players reach 100 in the same hand?",
                ["yes", "no"], "no", "One player scores per hand, so only one total can pass "
                "100 after it; that player wins the match (AP-16).", rules="AP-16",
                hint="In a hand, how many players score points?")

# %%
score_exercise("crazy-eights-classic", [["QS", "4H"], ["8C", "8D", "AH"], []], winner=2,
               question="Seat 2 went out. Seat 0 holds Q♠ 4♥, seat 1 holds 8♣ 8♦ A♥. What does "
               "seat 2 score?", rules="AP-15 C-16",
               hint="The app's values: eights 50, K Q J 10 count 10, aces 1, others face value. "
                    "Add every loser's cards.")

# %% [markdown]
# The table of section 1 marks the cards you may play. Here is a hand no table shows: decide
# yourself, then check.

# %%
from crazylab.widgets import position

legal_moves_exercise(position("crazy-eights-classic", top="9H", hand="9C 4H 8S KD 2S"),
                     "App rules: the top card is 9♥ and you hold 9♣ 4♥ 8♠ K♦ 2♠. Which cards "
                     "may you play?", rules="AP-6 AP-7 AP-9", cards_only=True,
                     hint="A card fits if it shares the suit or the rank of 9♥; an eight always "
                          "fits.")

# %% [markdown]
# ## Recap
#
# * A **match** adds up each hand's points; the first player with 100 or more after a hand wins
#   (AP-16). Only the hand's winner scores (AP-15).
# * The deal moves one seat left each hand; the player left of the dealer starts (C-2).
# * The table plays any rule set; **Hint** gives the engine's reason for every card.
#
# **Rules sheet** of the table's rules (printable:
# [rules sheets](sheets.ipynb), `sheets/crazy-eights-classic.md`):

# %%
from IPython.display import Markdown

import crazylab as cl
from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-eights-classic")))

# %% [markdown]
# ### Try it yourself
#
# 1. Play three hands with the hint closed. How often did you play an eight early? Was it wise?
# 2. Change the *Bots* level (when more levels are installed) and compare your results.
# 3. In section 2, change the seed and count how many hands a match to 100 takes.
#
# <details><summary>What to look for</summary>
#
# 1. An eight fits on anything, so it rescues a turn on which nothing else fits; played early it
#    is gone when you need it. The rules-of-thumb bot of lesson 7 keeps its eights for last, and
#    beats random play.
# 2. Stronger bots keep their eights, follow the suit they hold most of and shed high cards
#    first: you lose more hands, and the hands you lose cost more points.
# 3. Each row of the table is one hand. Only the hand's winner scores, so the number of hands
#    depends on how many points each win collects: a hand won while eights are left in the other
#    hands (50 each) brings a player close to 100 at once.
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

practice_set("03_play_a_match", ["crazy-eights-classic", "crazy-eights-quick"],
             kinds=["legal", "score", "next_top"])

# %% [markdown]
# [← Lesson 2](02_classic_vs_quick.ipynb) · **Lesson 3** ·
# [Lesson 4: Crazy Breens →](04_crazy_breens.ipynb)

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
# **What you will learn**
#
# * how to play a hand against computer opponents, and use the **Hint** to see why a card is
#   or is not legal;
# * how a **match** adds up the hands until someone reaches 100;
# * how to play a whole match in code, to see how scores grow.

# %% [markdown]
# ## 1. Your table
#
# Click a marked card to play it; an eight opens the suit chooser. Press **Hint** to see every
# card's reason. The computer players move after a short pause. When the hand is over, press
# **New hand**: the deal moves one seat to the left and the scores add up.

# %%
from crazylab.widgets import GameTable

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
# The table works for every rule set: try the quick rule, Crazy Breens (stacks, penalties and
# Jack counters) or a music level (pitches instead of suits) from the *Rules* menu above, or
# start one directly:

# %%
GameTable("crazy-8s-music", opponents=1, seed=2)

# %% [markdown]
# ## Try it yourself
#
# 1. Play three hands with the hint closed. How often did you play an eight early? Was it wise?
# 2. Change the *Bots* level (when more levels are installed) and compare your results.
# 3. In section 2, change the seed and count how many hands a match to 100 takes.

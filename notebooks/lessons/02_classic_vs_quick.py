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
# **What you will learn**
#
# * what the Crazy Eights app of seed 004 changes: **7 cards for two** players, 5 for three or
#   four, up to **3 reshuffles**, and a **match to 100**;
# * the difference between the **classic** rule (draw until you can play) and the **quick**
#   rule (draw at most 3, then pass);
# * how a **blocked** game is settled: the fewest points in hand wins.
#
# Presets: `crazy-eights-classic` and `crazy-eights-quick`.

# %% [markdown]
# ## 1. What differs between the rule sets
#
# Each rule set is data; here are the options that differ between the site rules and the app's two
# rules.

# %%
# NBVAL_CHECK_OUTPUT

import pandas as pd

from crazylab import rules

names = ["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"]
options = pd.DataFrame({n: rules(n).options() for n in names})
options[options.nunique(axis=1, dropna=False) > 1]

# %% [markdown]
# ## 2. Seven cards for two
#
# The same seed, dealt under each rule set:

# %%
# NBVAL_CHECK_OUTPUT

import crazylab as cl

for name in names:
    game = cl.new_game(name, players=2, seed=4)
    print(f"{name:22} seat 0 holds {len(game.hands[0])} cards")

# %% [markdown]
# ## 3. Matching is the same
#
# *"On a 9 of hearts you can play any heart or any 9. Eights are wild."*

# %%
# NBVAL_CHECK_OUTPUT

from crazylab.widgets import legal_table, position

legal_table(position("crazy-eights-classic", top="9H", hand="9C 2H 8D KS"))

# %% [markdown]
# ## 4. Drawing: classic vs quick
#
# With the **quick** rule you draw up to 3 cards; if none fits, you pass and the fourth card
# stays on the stock. Step through it:

# %%
from crazylab.widgets import StepExplainer

StepExplainer("ap-t3-quick-rule-three-draws-then-pass")

# %% [markdown]
# With the **classic** rule you keep drawing, and the discards are reshuffled into a new stock when
# it runs out (at most 3 times a hand):

# %%
StepExplainer("ap-t5-classic-draws-past-a-reshuffle")

# %% [markdown]
# ## 5. Does the quick rule make hands shorter?
#
# Play 200 seeded random hands under each rule and compare. (Random players are not good
# players, but the draw rule's effect shows.)

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
# ## 6. A blocked game
#
# When nobody can play or draw, the hand is blocked and the player with the fewest points in
# hand wins it, scoring the difference:

# %%
StepExplainer("ap-t7-blocked-game-fewest-points")

# %% [markdown]
# ## Try it yourself
#
# 1. Which rule would you choose for young players, and why?
# 2. Open the explorer: with the quick rule, after three draws that do not fit, which moves are
#    legal? (Hint: look at step 4 of the quick-rule example above.)
# 3. Play a hand of each in lesson 3 and count your draws.

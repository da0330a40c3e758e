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
# **What you will learn**
#
# * how a card is matched: the same **suit** or the same **rank** as the top card;
# * why eights are **wild**, and how the **called suit** replaces the eight's own suit;
# * what to do when nothing fits: **draw until you can play**;
# * how the winner **scores** the cards left in the other hands.
#
# The rules are the five-card "site rules" (seed 001, preset `crazy-eights`). Run the cells from
# top to bottom (Shift+Enter); every game here is dealt from a fixed seed, so you see what the
# text describes.

# %% [markdown]
# ## 1. A deal
#
# Two players, five cards each. The discard pile starts with one card turned up from the stock.

# %%
import crazylab as cl

game = cl.new_game("crazy-eights", players=2, seed=1)
game

# %% [markdown]
# Seat 0 plays first. The engine lists every legal move in the notation of the rulebook: a card like
# `10H`, or `draw`.

# %%
# NBVAL_CHECK_OUTPUT

game.legal()

# %% [markdown]
# ## 2. The worked turn of the rules
#
# *"The top card is 6♥. You hold 6♣, K♥, 8♠ and 3♦. Your legal choices are 6♣, K♥ or 8♠."*
#
# The table below is built by the engine: one row per card, with the rule that decides it.

# %%
# NBVAL_CHECK_OUTPUT

from crazylab.widgets import legal_table, position

worked = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
legal_table(worked)

# %% [markdown]
# A refused move changes nothing and says why:

# %%
# NBVAL_CHECK_OUTPUT

print(worked.explain("3D"))

# %% [markdown]
# ## 3. Step through it
#
# The explainer replays the worked turn from the rules' own example file. Press **Next ▶**:
# at step 3 the eight calls diamonds, and at step 6 a spade is refused even though the eight
# was a spade.

# %%
from crazylab.widgets import StepExplainer

StepExplainer("sr-t1-t2-worked-turn-eight-calls-diamonds")

# %% [markdown]
# ## 4. When nothing fits: draw until you can play
#
# *"On another turn the discard is K♣, and you hold 3♦ and 5♥. You draw 2♥, which stays in
# your hand, then J♣, which you play."*

# %%
StepExplainer("sr-t3-draw-until-playable")

# %% [markdown]
# ## 5. Scoring: the winner collects
#
# Eights are worth 50, kings, queens, jacks and tens 10, aces 1, other cards their face value.
# *"One opponent holds 8♦ and 3♣: 53 points. Another holds Q♥ and A♠: 11 points. The winner
# scores 64 points."*

# %%
# NBVAL_CHECK_OUTPUT

from crazylab.widgets import score_hands

scored = score_hands("crazy-eights", [[], ["8D", "3C"], ["QH", "AS"]], winner=0)
print("\n".join(scored.working()))

# %% [markdown]
# Change the hands below (type them, or click cards) and watch the working change.

# %%
from crazylab.widgets import ScoreCalculator

ScoreCalculator()

# %% [markdown]
# ## Try it yourself
#
# 1. In the explorer below, what may you play on 8♠ when **clubs** were called? Set *Call in
#    force* to `C` and check your answer.
# 2. Why is a spade not enough after 8♠ with diamonds called?
# 3. A player goes out holding nothing but an eight. Is that allowed? (See the example
#    `sr-t5-t6-going-out-on-an-eight` in the explainer.)

# %%
from crazylab.widgets import LegalMoveExplorer

LegalMoveExplorer(rules="crazy-eights", top="8S", hand="3D KS 9C 8H QC", call="D")

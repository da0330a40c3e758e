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
# # Lesson 5: What the rules change
#
# **What you will learn**
#
# * how to play hundreds of hands with **computer players** in one call, and read the result:
#   a table with **one row per hand**;
# * how much the **quick** rule (draw at most 3 cards, then pass) shortens a hand compared with
#   the **classic** rule (draw until you can play), and how to compare two rules **on the same
#   deals**;
# * how often a hand **blocks**, and what a hand is worth in **points**;
# * whether the player who **starts** has an advantage, and whether a **strategy** beats random
#   play;
# * why every answer comes with a **95% confidence interval**, and how to read one.
#
# Run the cells from top to bottom (Shift+Enter). Every run is seeded: you get the numbers shown.

# %%
import plotly.io as pio

pio.renderers.default = "plotly_mimetype"  # figures that work offline in Jupyter and Voilà

import crazylab as cl
from crazylab import lab

# %% [markdown]
# ## 1. A few hundred hands in one call
#
# `cl.simulate` deals and plays the hands with **bots**, computer players that see only their
# own cards and the table. There are three:
#
# * `"random"`: any legal move, at random;
# * `"rules"`: rules of thumb — keep eights for last, follow the suit you hold most of, shed
#   high cards first, call the suit you hold most of;
# * `"mc"`: Monte Carlo — imagines the hidden cards many times and plays each choice out to
#   the end (strong, but slower).
#
# Here every seat plays by the rules of thumb, under three rule sets, at tables of 2 and 4.

# %%
hands = cl.simulate(["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"],
                    players=[2, 4], bots="rules", games=150, seed=2026, workers=1)
hands.head()

# %% [markdown]
# One row per hand: which rules, who sat where, who won and why, how long it lasted, how many cards
# were drawn, how many points it paid. The columns:

# %%
# NBVAL_CHECK_OUTPUT

print(len(hands), "hands")
print(list(hands.columns))

# %% [markdown]
# The same seed gives the same hands, on any computer and with any number of processes
# (`workers=`), so a result can be checked by anyone:

# %%
# NBVAL_CHECK_OUTPUT

again = cl.simulate(["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"],
                    players=[2, 4], bots="rules", games=150, seed=2026, workers=1)
print("identical:", again.equals(hands))

# %% [markdown]
# ## 2. How long is a hand?
#
# Each box shows the middle half of the hands (the line inside is the median); the whiskers reach
# the long and short hands.

# %%
lab.fig_hand_length(hands)

# %% [markdown]
# **Question:** the site rules (`crazy-eights`) deal 5 cards, the app's rules 7 for two players.
# Which rule set gives the longest hands at a table of two? And at four?
#
# The table answers with means:

# %%
lab.summary(hands)

# %% [markdown]
# ## 3. Classic against quick: what does the draw rule change?
#
# The classic rule makes you draw until a card fits; the quick rule stops after 3 cards. The
# bars show the mean per hand with its 95% interval (the thin line): if we played many more
# hands, the true mean would almost surely lie inside it.

# %%
classic_quick = hands[hands["rules"] != "crazy-eights"]
lab.fig_variants(classic_quick, metrics=("turns", "cards_drawn", "reshuffles"))

# %% [markdown]
# Two separate runs would mix the effect of the rule with the luck of the deal. `compare_rules`
# plays the **same deals** under both rules and looks at the difference hand by hand, which is far
# more precise:

# %%
# NBVAL_CHECK_OUTPUT

turns = lab.compare_rules("crazy-eights-classic", "crazy-eights-quick", "turns",
                          players=2, bots="rules", games=300, seed=5, workers=1)
drawn = lab.compare_rules("crazy-eights-classic", "crazy-eights-quick", "cards_drawn",
                          players=2, bots="rules", games=300, seed=5, workers=1)
print(turns)
print(drawn)

# %% [markdown]
# **Reading it:** a negative difference means the quick rule has less of it. When the interval
# does not contain 0, the difference is not just luck.
#
# ## 4. How often does a hand block?
#
# A hand is **blocked** when nobody can play or draw. Under the site rules the stock is never
# refilled, so a hand can block and is then void; the app's rules reshuffle the discards up to
# three times, and a blocked hand is won by the fewest points in hand.

# %%
lab.fig_blocked(hands)

# %% [markdown]
# ## 5. What is a hand worth?
#
# The winner collects the points left in the other hands (an eight is 50, a picture card 10).
# With four players there are more cards left to collect:

# %%
lab.fig_points(hands[hands["players"] == 4])

# %% [markdown]
# ## 6. Does the first player have an advantage?
#
# Seat 0 plays first. Every seat plays the same way here, so only the seat differs:

# %%
lab.fig_win_rates(hands[hands["rules"] == "crazy-eights-quick"], by="seat")

# %% [markdown]
# **Question:** at a table of two, is the first seat's advantage bigger than the interval's
# width? What would you need to be sure at a table of four? (Hint: more hands make the
# intervals narrower, roughly by the square root: four times the hands, half the width.)
#
# ## 7. Does strategy matter?
#
# The rules of thumb against random play, at a table of two. `rotate=True` swaps the seats every
# hand, so neither bot always starts.

# %%
duel = cl.simulate("crazy-eights-quick", players=2, bots=["rules", "random"], games=300,
                   seed=7, rotate=True, workers=1)
lab.fig_win_rates(duel, by="bot")

# %%
# NBVAL_CHECK_OUTPUT

table = lab.win_rates(duel, by="bot")
table[["bot", "hands", "wins", "rate", "low", "high"]].round(3)

# %% [markdown]
# The Monte Carlo bot (`"mc"`) wins most often of the three, but each of its moves plays many
# imagined hands to the end, so a fair test takes minutes, not seconds:
# `python bench/bench_lab.py --only duel` measures it against the rules of thumb.
#
# ## Try it yourself
#
# 1. Change `games=300` in section 7 to `games=30`. Does the interval still exclude 50%?
# 2. Compare the quick rule with `cl.rules("crazy-eights-quick", draw_limit=1)`: how many more
#    hands block?
# 3. On the command line, the same lab writes a file you can open in any spreadsheet:
#    `crazylab simulate crazy-eights-classic crazy-eights-quick -n 2 -n 4 --bots rules,random
#    --games 2000 --out hands.csv`

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
# # Lesson 7: What the rules change
#
# [← Lesson 6](06_music_levels.ipynb) · **Lesson 7** · [Lesson 8 →](08_play_well.ipynb) ·
# [Start](index.ipynb) · [Glossary](glossary.ipynb)
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
from IPython.display import display

import crazylab as cl
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import choice_exercise

display(class_bar("07_what_the_rules_change"))  # who you are, and where your answers are kept

# %%
import plotly.io as pio

pio.renderers.default = "plotly_mimetype"  # figures that work offline in Jupyter and Voilà

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
                    players=[2, 4], bots="rules", games=150, seed=2026, workers=1, progress=False)
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
                    players=[2, 4], bots="rules", games=150, seed=2026, workers=1, progress=False)
print("identical:", again.equals(hands))

# %% [markdown]
# ## 2. How long is a hand?
#
# Each box shows the middle half of the hands (the line inside is the median); the whiskers reach
# the long and short hands.

# %%
lab.fig_hand_length(hands)

# %% [markdown]
# **Question:** the site rules (`crazy-eights`) deal 5 cards (SR-3), the app's rules 7 for two
# players (AP-3). Which rule set gives the longest hands at a table of two? Answer below, then
# read the table of means.

# %%
two = hands[hands["players"] == 2].groupby("rules")["turns"].mean()
choice_exercise("At a table of two, which rule set has the longest hands (most turns)?",
                list(two.index), two.idxmax(),
                "The table below has the means: " + ", ".join(
                    f"{name} {mean:.1f} turns" for name, mean in two.items())
                + ". Seven cards for two (AP-3) and drawing until a card fits (AP-10) both "
                "make hands longer.", rules="SR-3 AP-3 AP-10",
                hint="Read the turns column of the simulation above: which rule set's hands take "
                     "the most turns?")

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

# %%
choice_exercise("Does the quick rule (at most 3 draws, AP-11) draw fewer cards per hand than the "
                "classic rule (AP-10), beyond luck?", ["yes", "no", "cannot tell"],
                "yes" if drawn.high < 0 else ("no" if drawn.low > 0 else "cannot tell"),
                f"The paired difference is {drawn.diff:+.2f} cards per hand, 95% interval "
                f"[{drawn.low:+.2f}, {drawn.high:+.2f}]: "
                + ("it lies below 0." if drawn.high < 0 else "it is not below 0."),
                rules="AP-10 AP-11",
                hint="Look at the intervals for cards drawn per hand: if the two do not overlap, "
                     "the difference is beyond luck.")

# %% [markdown]
#
# ## 4. How often does a hand block?
#
# A hand is **blocked** when nobody can play or draw (C-13). Under the site rules the stock is
# never refilled (SR-19), so a hand can block and is then void (SR-20); the app's rules reshuffle
# the discards up to three times (AP-12), and a blocked hand is won by the fewest points in hand
# (AP-17).

# %%
lab.fig_blocked(hands)

# %%
blocked = hands.groupby("rules")["blocked"].mean()
choice_exercise("Which rule set blocks most often?", list(blocked.index), blocked.idxmax(),
                "Blocked share of hands: " + ", ".join(f"{n} {v:.1%}" for n, v in blocked.items())
                + ". Without a reshuffle (SR-19) the stock runs dry for good.",
                rules="SR-19 SR-20 AP-12 C-13",
                hint="Which rule set never reshuffles the discards, so that its stock runs out "
                     "for good?")

# %%
app_blocked = cl.Game.from_position(cl.rules("crazy-eights-classic", max_reshuffles=0), 3,
                                    hands=[["KC", "2D"], ["9S", "4D"], ["QS", "10C", "3D"]],
                                    stock=[], discard=["7H"])
while not app_blocked.over:  # nothing fits 7♥ and nothing is left to draw
    app_blocked.push(app_blocked.legal()[0])
choice_exercise("App rules, blocked: seat 0 holds K♣ 2♦ (12 points), seat 1 9♠ 4♦ (13), seat 2 "
                "Q♠ 10♣ 3♦ (23). Who wins the hand?", ["seat 0", "seat 1", "seat 2"],
                f"seat {app_blocked.winner}", "The fewest points in hand win a blocked hand, not "
                f"the fewest cards; seat 0 scores {app_blocked.scores[0]} (AP-17).",
                rules="AP-17",
                hint="In the app's rules the lowest hand wins a blocked hand: count each hand's "
                     "points.")

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

# %%
seats = lab.win_rates(hands[(hands["rules"] == "crazy-eights-quick") & (hands["players"] == 2)],
                      by="seat")
first_seat = seats[seats["seat"] == 0].iloc[0]
choice_exercise("At a table of two (quick rule), does the 95% interval of seat 0's win rate "
                "exclude 50%?", ["yes", "no"],
                "yes" if first_seat["low"] > 0.5 or first_seat["high"] < 0.5 else "no",
                f"Seat 0 won {first_seat['rate']:.1%} of {int(first_seat['hands'])} hands, 95% "
                f"interval [{first_seat['low']:.1%}, {first_seat['high']:.1%}].",
                rules="SR-8 AP-5",
                hint="Does the interval of seat 0's win rate contain 0.5?")

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

# %%
rules_bot = table[table["bot"] == "rules"].iloc[0]
choice_exercise("Do the rules of thumb beat random play, beyond luck?", ["yes", "no"],
                "yes" if rules_bot["low"] > 0.5 else "no",
                f"The rules of thumb won {rules_bot['rate']:.1%} of the hands, 95% interval "
                f"[{rules_bot['low']:.1%}, {rules_bot['high']:.1%}].", rules="AP-11 AP-6",
                hint="Compare the intervals of the two win rates (rules of thumb, random): do "
                     "they overlap?")

# %% [markdown]
# The Monte Carlo bot (`"mc"`) wins most often of the three, but each of its moves plays many
# imagined hands to the end, so a fair test takes minutes, not seconds:
# `python bench/bench_lab.py --only duel` measures it against the rules of thumb.
#
# ## Recap
#
# * `cl.simulate` plays seeded hands with bots; one row per hand.
# * Compare rules on the **same deals** (`lab.compare_rules`): the quick rule (AP-11) shortens
#   hands and draws fewer cards than the classic rule (AP-10).
# * No reshuffle (SR-19) means more blocked hands (C-13, SR-20).
# * Read every rate with its **95% interval**; more hands, narrower intervals.
#
# A rule set with options changed has its own rules sheet, written from the options: here the
# quick rule with a single draw (`draw_limit=1`), as in *Try it yourself* below. Every preset's
# sheet is in the [rules sheets](sheets.ipynb).

# %%
from IPython.display import Markdown

from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-eights-quick", draw_limit=1)))

# %% [markdown]
# ## 9. House rules, one worked example each
#
# Every house rule a teacher can switch on (`docs/OPTIONS.md` lists them all, with the
# ruling each follows) has a worked example: a short game where the option changes what
# happens. The table replays each one with the engine and shows its title, the options it
# changes and how many moves it takes; open any of them step by step in the explainer
# (`StepExplainer("NAME")`, or the Explain dashboard).

# %%
import pandas as pd

from crazylab.examples import load_example

HOUSE_RULE_EXAMPLES = [
    "opt-ap-q1-a13-first-player-names-the-starter-eight",
    "opt-ap-q6-a12-eager-reshuffle",
    "opt-br-q10-a2-flip-again-on-any-special",
    "opt-br-q12-a1-extra-hits-cost-turns",
    "opt-br-q21-a4-mid-draw-twos-only",
    "opt-br-q23-a5-draw-passing",
    "opt-br-q30-a3-queen-drops-two",
    "opt-br-q42-a6-joker-only-if-no-suit",
    "opt-br-q5-a7-first-player-declares-a-starter-joker",
    "opt-c16-card-values",
    "opt-mu-21-level-option",
    "opt-mu-q22-unison-in-level-3",
    "opt-mu-q17-a11-games-in-match",
    "opt-mu-q3-a9-dealer-announces-a-joker-seed",
    "opt-mu-q34-a9-dealer-announces-level-seeds",
    "opt-v1-hand-size-by-players",
    "opt-v11-a14-last-card-call",
    "opt-v16-a15-no-going-out-on-an-action-card",
    "opt-v16-a15-no-going-out-on-an-eight",
    "opt-v12-action-cards-draw-two-stacks",
    "opt-v12-action-cards-jack-is-wild",
    "opt-v12-action-cards-reverse-with-two-players",
    "opt-v12-action-cards-skip-and-reverse",
    "opt-v14-jump-in",
    "opt-v14-jump-in-declined",
    "opt-v19-two-decks",
]
rows = []
for name in HOUSE_RULE_EXAMPLES:
    example = load_example(name)
    assert example.replay() == []  # every expectation of the file holds
    options = example.data.get("options", {})
    rows.append({"example": name, "title": example.title,
                 "options": ", ".join(f"{k}={v}" for k, v in options.items()),
                 "moves": len(example.data.get("steps", []))})
pd.set_option("display.max_colwidth", 90)
pd.DataFrame(rows)

# %% [markdown]
# ### Try it yourself
#
# 1. Change `games=300` in section 7 to `games=30`. Does the interval still exclude 50%?
# 2. Compare the quick rule with `cl.rules("crazy-eights-quick", draw_limit=1)`: how many more
#    hands block?
# 3. On the command line, the same lab writes a file you can open in any spreadsheet:
#    `crazylab simulate crazy-eights-classic crazy-eights-quick -n 2 -n 4 --bots rules,random
#    --games 2000 --out hands.csv`
#
# <details><summary>What to look for</summary>
#
# 1. Ten times fewer hands make the interval about √10 ≈ 3 times wider: with 30 hands it
#    usually contains 50%, so the same bots no longer show a difference beyond luck.
# 2. Pass the rule set itself: `cl.simulate(cl.rules("crazy-eights-quick", draw_limit=1), …)`
#    and compare `lab.fig_blocked` of both: count the blocked share in each.
# 3. The file has one row per hand with the same columns as `hands` above.
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

practice_set("07_what_the_rules_change",
             ["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"],
             kinds=["legal", "score", "next_top"])

# %% [markdown]
# [← Lesson 6](06_music_levels.ipynb) · **Lesson 7** · [Lesson 8 →](08_play_well.ipynb) ·
# [Start](index.ipynb) · [Glossary](glossary.ipynb)

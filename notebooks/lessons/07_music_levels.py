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
# # The music levels: intervals, piles, and the music you make
#
# **What you will learn**
#
# * the five music-only levels: one **letter step** (Level 1), one **semitone** from either of two
#   piles (Level 2), a **third** (Level 3), a **whole tone up only** on four piles (Level 4), a
#   **fourth or fifth** (Level 5) (rulings MU-21…MU-32);
# * why the same pitch (a unison) never counts in the levels, and why Level 4 only climbs;
# * how 8s and jokers announce a pitch that becomes their pile's reference;
# * what each level sounds like: flowing melodies, sneaky action music, wacky arpeggios, mysterious
#   scales, leaps and appoggiaturas.
#
# Each level's game below is seeded, so the notebook says the same thing each time it runs.

# %% [markdown]
# ## The levels at a glance

# %%
# NBVAL_CHECK_OUTPUT
from crazylab.widgets.music import rule_text

import crazylab as cl
from crazylab.music import LEVELS

for name, level in LEVELS.items():
    r = cl.rules(name)
    print(f"Level {level.number} ({level.difficulty}): {len(r.deck)} cards, {r.piles} pile(s)")
    print(f"    play {rule_text(r)}")
    print(f"    sounds like {level.style.character}")

# %% [markdown]
# Intervals are counted in semitones, up from the pile's reference, and wrap round the octave: down
# a minor third is the same key as up a major sixth. On 3♦ (the note C) each level accepts these
# keys:

# %%
# NBVAL_CHECK_OUTPUT
from crazylab.widgets.music import Reference, keyboard_keys

from crazylab.engine.cards import card

for name, level in LEVELS.items():
    r = cl.rules(name)
    keys = keyboard_keys(r, Reference(card("3D")))
    fits = sorted({(k["pc"], k["name"]) for k in keys if k["fits"]})
    print(f"Level {level.number}:", ", ".join(n for _, n in fits) or "C itself (the same pitch)")

# %%
import random

from crazylab.widgets import GameTable, bot_levels


def keen(observation, rng):
    """A computer player that plays a card whenever it can (and chains as far as it can)."""
    plays = [m for m in observation.legal if m.kind == "play"]
    return rng.choice(plays) if plays else observation.legal[0]


def strongest_bot():
    """The strongest level of crazylab's bots, or the keen player if only random is there."""
    levels = bot_levels()
    name = list(levels)[-1]
    return keen if name == "random" else levels[name]


def play_with_bots(rules, opponents, seed):
    """A game table for one human against computer opponents; here the human seat is played
    by a computer player too, so the notebook runs by itself."""
    bot = strongest_bot()
    table = GameTable(rules, opponents=opponents, seed=seed, delay=0, bot=bot)
    rng = random.Random(seed)
    while not table.game.over:
        if table.your_turn:
            table.play(bot(table.observation, rng))
        else:
            table.run_bots()
    return table


def show_piles(game):
    """Each pile's top card and the pitch (or letter) it asks for."""
    for p, top in enumerate(game.tops):
        print(f"pile {p}: top {top.display:4}  reference {game.pitch_of(p)}")


from crazylab.widgets import StepExplainer
from crazylab.widgets.music import IntervalExplorer
from IPython.display import display

from crazylab.music import melody

tunes = {}


def level_game(name, opponents, seed):
    """The table of a seeded game against the computer, its piles, and its music."""
    table = play_with_bots(name, opponents, seed)
    display(table)
    show_piles(table.game)
    tune = tunes[name] = melody(table.game)
    print(tune.describe(limit=12))
    return tune.audio(max_notes=12, rate=8000)


# %% [markdown]
# ## Level 1 (Easy): Picnicking on a Rolling Hill with a Happy Puppy
#
# One step up or down the musical alphabet A B C D E F G, which loops: on A, play G or B. The deck
# loses its black keys (9 10 J Q K), so 34 cards are left. A letter step is a whole tone, except B–C
# and E–F, which are semitones.
#
# *Your party is going to generate some flowing melodies.*

# %%
StepExplainer("mu-t5-level-1-letter-steps")

# %%
explorer = IntervalExplorer("crazy-8s-level-1", top="AS")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits AS:", explorer.playable_names())

# %%
level_game("crazy-8s-level-1", opponents=2, seed=21)

# %% [markdown]
# ## Level 2 (Hard): Tiptoeing Through a Mansion with Creaky Stairways
#
# Two piles, both always active: a card fits if it is one semitone up or down from either top, and
# it goes on a pile where it fits.
#
# *Your party is going to generate some sneaky action music.*

# %%
StepExplainer("mu-t6-level-2-two-piles-semitones")

# %%
explorer = IntervalExplorer("crazy-8s-level-2", top="3D")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3D:", explorer.playable_names())

# %%
level_game("crazy-8s-level-2", opponents=1, seed=22)

# %% [markdown]
# ## Level 3 (Crazy): Jet Skiing on a Single Ski Made of Rock, Because You Like Skipping Rocks
#
# A minor third (3 semitones) or a major third (4) up or down: on C, that is E♭, E, A♭ and A. Chains
# of thirds are arpeggios.
#
# *Your party is going to generate some wacky arpeggios.*

# %%
StepExplainer("mu-t7-level-3-thirds")

# %%
explorer = IntervalExplorer("crazy-8s-level-3", top="3D")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3D:", explorer.playable_names())

# %%
level_game("crazy-8s-level-3", opponents=2, seed=23)

# %% [markdown]
# ## Level 4 (Epic): Mountain Climbing Under Water, with Starfish, at Night
#
# Four piles, and a card must be exactly a whole tone (2 semitones) **above** a top: only up. The
# deck splits into two whole-tone scales that never meet, unless a wild announces a pitch.
#
# *Your party is going to generate mysterious scales, where the home note is nowhere, and
# everywhere.*

# %%
StepExplainer("mu-t8-level-4-whole-tone-up-only")

# %%
explorer = IntervalExplorer("crazy-8s-level-4", top="3C")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3C:", explorer.playable_names())

# %%
level_game("crazy-8s-level-4", opponents=1, seed=24)

# %% [markdown]
# ## Level 5 (Legendary): Tightrope Walking Across an Enormous Clock that is Covered in String,
# Strung Across the Face of the Clock in a Star Pattern, for Some Reason
#
# A perfect fourth (5 semitones) or fifth (7) up or down: on C, F or G. Chains walk round the circle
# of fifths.
#
# *Your party is going to generate a melodic-leap-and-appoggiatura overload sensation.*

# %%
StepExplainer("mu-t9-level-5-fourths-and-fifths")

# %%
explorer = IntervalExplorer("crazy-8s-level-5", top="3C")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3C:", explorer.playable_names())

# %%
level_game("crazy-8s-level-5", opponents=2, seed=25)

# %% [markdown]
# ## Hearing the difference
#
# The levels move differently. The average step between consecutive notes of the same pile is small
# in Levels 1 and 2, a third in Level 3, and large in Level 5, whose leaps of fourths and fifths are
# also played farther apart on purpose.

# %%
for name, tune in tunes.items():
    keys = {}
    steps = []
    for n in tune.notes:
        if n.pc is None:
            continue
        if n.voice in keys:
            steps.append(abs(n.midi - keys[n.voice]))
        keys[n.voice] = n.midi
    mean = sum(steps) / len(steps) if steps else 0
    print(f"{name}: {len(tune.notes):3} notes, mean step {mean:4.1f} semitones, "
          f"{tune.style.tempo} beats per minute, {tune.style.timbre}")

# %% [markdown]
# Explore any position yourself: change the level, the top card or the announced pitch below, click
# a key, then a card.

# %%
IntervalExplorer("crazy-8s-level-5", top="AS")

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
# # Musical Crazy 8s: match the suit or the pitch
#
# **What you will learn**
#
# * how every card of the music deck is a key of the piano: the rank → pitch map, with sharps on ♦ ♣
#   and flats on ♥ ♠ (rulings MU-D1…D6);
# * the main game's one rule for a card: the same **suit** or the same **pitch**; an 8 takes its own
#   suit, a joker announces one and makes the next player draw two (MU-5, MU-12, MU-13);
# * a turn is a **chain** of cards, or **draw two**, and the first card after the draw must be a
#   drawn one (MU-6…MU-11, MU-Q9);
# * how a game becomes a **melody** you can hear, and save as WAV and MIDI.
#
# Every game here is seeded, so the notebook says the same thing each time it runs.

# %% [markdown]
# ## The deck is a keyboard
#
# Ace to 7 are the white keys A B C D E F G; 9, 10, J, Q and K are the five black keys; an 8 and a
# joker have no pitch (they are wild). The same rank sounds the same pitch in every suit: diamonds
# and clubs spell it with a sharp, hearts and spades with a flat.

# %%
# NBVAL_CHECK_OUTPUT
import crazylab as cl
from crazylab.engine.pitch import both_names

r = cl.rules("crazy-8s-music")
for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
    row = [cl.card(rank + suit) for suit in "DCHS"]
    pc = r.pitches.pitch(row[0])
    key = "wild, no pitch" if pc is None else f"pitch class {pc:2}  {both_names(pc)}"
    print(f"{rank:>2}: {key:24} spelled " + " ".join(
        f"{c.display}={r.pitches.spelling(c) or '-'}" for c in row))

# %% [markdown]
# The seed's own example: C♯ is *enharmonic* to D♭, the same key, so the four tens are four cards of
# one pitch.

# %%
# NBVAL_CHECK_OUTPUT
tens = cl.cards("10D 10C 10H 10S")
print([r.pitches.pitch(c) for c in tens], [r.pitches.spelling(c) for c in tens])

# %% [markdown]
# ## Suit or pitch
#
# On 5♥ (the note E) any heart fits, any 5 fits (E in another suit: the same pitch), and so do the
# wild 8s and jokers. Playing is optional: you may draw two instead (MU-Q8).

# %%
# NBVAL_CHECK_OUTPUT
game = cl.Game.from_position("crazy-8s-music", 2,
    hands=[["5D", "KH", "6C", "3C", "8S", "JK"], ["2C", "4S", "9H", "QC", "7D"]],
    stock=["10S", "JC", "AS", "2H"], discard=["5H"])
print("legal:", " ".join(game.legal()))
for move in ["6C", "3C", "8S:D"]:
    print(f"{move}: {game.explain(move)}")

# %% [markdown]
# A card you may play and one you may not, shown on the piano by the interval explorer. Click a key
# to see its cards, and a card to see why it fits or not.

# %%
from crazylab.widgets.music import IntervalExplorer

explorer = IntervalExplorer("crazy-8s-music", top="5H")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print(explorer.playable_names())
print(explorer.click_card("5D"))
print(explorer.click_card("6C"))

# %% [markdown]
# ## The turn, step by step
#
# The worked examples of the rulebook (MU-T1…T4, MU-T11) replay here. Step through them: *Next ▶*
# shows each move and what it changed.

# %%
from crazylab.widgets import StepExplainer

from crazylab.examples import list_examples

StepExplainer("mu-t4-draw-two-then-a-drawn-card",
              choices=[n for n in list_examples() if n.startswith("mu-")])

# %%
# NBVAL_CHECK_OUTPUT
from crazylab.examples import list_examples, load_example

for name in list_examples():
    example = load_example(name)
    if name.startswith("mu-") and example.rules.name == "crazy-8s-music":
        print("ok  " if example.replay() == [] else "FAIL", name)

# %% [markdown]
# After a draw, only a drawn card may start the chain, even when an old card would fit (MU-Q9); when
# nothing fits, `end` is the only move (MU-11).

# %%
# NBVAL_CHECK_OUTPUT
game = cl.Game.from_position("crazy-8s-music", 2, hands=[["5D", "6C"], ["2C", "4S"]],
                              stock=["3S", "JC", "KS"], discard=["5H"])
game.push("draw")
print("drew:", " ".join(c.display for c in game.drawn), "| legal:", game.legal())
print(game.explain("5D"))

# %% [markdown]
# ## Play against the computer
#
# The table below is a real game for one human (you, seat 0) against two computer opponents. So that
# this notebook runs by itself, the cell plays your seat with a computer player too; press *New
# hand* to play yourself.

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



# %%
table = play_with_bots("crazy-8s-music", opponents=2, seed=8)
table

# %%
game = table.game
show_piles(game)
print("winner:", game.winner, "| scores (−1 per card left):", game.scores)

# %% [markdown]
# ## The music of the game
#
# Every card played is a note: its pitch, in the order played. An 8 or a joker has no pitch in the
# main game, so it sounds as a clap (an 8) or a cymbal (a joker).

# %%
from crazylab.music import melody

tune = melody(game)
print(tune.describe())
tune.audio(max_notes=16, rate=8000)

# %% [markdown]
# Save it: a WAV file to listen to and a MIDI file for any music program. Both are written with the
# standard library only.

# %%
import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp())
wav = tune.wav(folder / "crazy-8s.wav", rate=11025)
mid = tune.midi(folder / "crazy-8s.mid")
print(f"WAV: {len(wav):,} bytes, {tune.duration:.1f} s; MIDI: {len(mid):,} bytes, "
      f"{len(tune.notes)} notes")

# %% [markdown]
# Next: `07_music_levels.ipynb`, where suits stop counting and only intervals do.

"""Build notebooks/06_musical_crazy_8s.ipynb and 07_music_levels.ipynb (unexecuted), then run

    cd notebooks && ../.venv/bin/python build_music_notebooks.py && ../.venv/bin/jupyter nbconvert \\
        --to notebook --execute --inplace --ExecutePreprocessor.store_widget_state=False \\
        06_musical_crazy_8s.ipynb 07_music_levels.ipynb

to execute them with their outputs kept (nbval checks the cells marked NBVAL_CHECK_OUTPUT).
"""
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CHECK = "# NBVAL_CHECK_OUTPUT\n"


def nb(cells):
    book = new_notebook()
    book.cells = [new_markdown_cell(c[3:]) if c.startswith("md:") else new_code_cell(c)
                  for c in cells]
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                   "language": "python"}
    book.metadata["language_info"] = {"name": "python"}
    return book


PLAY_HELPER = '''\
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
'''

MAIN = [
    "md:# Musical Crazy 8s: match the suit or the pitch\n\n"
    "**What you will learn**\n\n"
    "* how every card of the music deck is a key of the piano: the rank → pitch map, with sharps "
    "on ♦ ♣ and flats on ♥ ♠ (rulings MU-D1…D6);\n"
    "* the main game's one rule for a card: the same **suit** or the same **pitch**; an 8 takes "
    "its own suit, a joker announces one and makes the next player draw two (MU-5, MU-12, "
    "MU-13);\n"
    "* a turn is a **chain** of cards, or **draw two**, and the first card after the draw must be "
    "a drawn one (MU-6…MU-11, MU-Q9);\n"
    "* how a game becomes a **melody** you can hear, and save as WAV and MIDI.\n\n"
    "Every game here is seeded, so the notebook says the same thing each time it runs.",
    "md:## The deck is a keyboard\n\n"
    "Ace to 7 are the white keys A B C D E F G; 9, 10, J, Q and K are the five black keys; an 8 "
    "and a joker have no pitch (they are wild). The same rank sounds the same pitch in every "
    "suit: diamonds and clubs spell it with a sharp, hearts and spades with a flat.",
    CHECK + '''import crazylab as cl
from crazylab.engine.pitch import both_names

r = cl.rules("crazy-8s-music")
for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
    row = [cl.card(rank + suit) for suit in "DCHS"]
    pc = r.pitches.pitch(row[0])
    key = "wild, no pitch" if pc is None else f"pitch class {pc:2}  {both_names(pc)}"
    print(f"{rank:>2}: {key:24} spelled " + " ".join(
        f"{c.display}={r.pitches.spelling(c) or '-'}" for c in row))''',
    "md:The seed's own example: C♯ is *enharmonic* to D♭, the same key, so the four tens are "
    "four cards of one pitch.",
    CHECK + '''tens = cl.cards("10D 10C 10H 10S")
print([r.pitches.pitch(c) for c in tens], [r.pitches.spelling(c) for c in tens])''',
    "md:## Suit or pitch\n\n"
    "On 5♥ (the note E) any heart fits, any 5 fits (E in another suit: the same pitch), and so do "
    "the wild 8s and jokers. Playing is optional: you may draw two instead (MU-Q8).",
    CHECK + '''game = cl.Game.from_position("crazy-8s-music", 2,
    hands=[["5D", "KH", "6C", "3C", "8S", "JK"], ["2C", "4S", "9H", "QC", "7D"]],
    stock=["10S", "JC", "AS", "2H"], discard=["5H"])
print("legal:", " ".join(game.legal()))
for move in ["6C", "3C", "8S:D"]:
    print(f"{move}: {game.explain(move)}")''',
    "md:A card you may play and one you may not, shown on the piano by the interval explorer. "
    "Click a key to see its cards, and a card to see why it fits or not.",
    '''from crazylab.widgets.music import IntervalExplorer

explorer = IntervalExplorer("crazy-8s-music", top="5H")
explorer''',
    CHECK + '''print(explorer.playable_names())
print(explorer.click_card("5D"))
print(explorer.click_card("6C"))''',
    "md:## The turn, step by step\n\n"
    "The worked examples of the rulebook (MU-T1…T4, MU-T11) replay here. Step through them: "
    "*Next ▶* shows each move and what it changed.",
    '''from crazylab.examples import list_examples
from crazylab.widgets import StepExplainer

StepExplainer("mu-t4-draw-two-then-a-drawn-card",
              choices=[n for n in list_examples() if n.startswith("mu-")])''',
    CHECK + '''from crazylab.examples import list_examples, load_example

for name in list_examples():
    example = load_example(name)
    if name.startswith("mu-") and example.rules.name == "crazy-8s-music":
        print("ok  " if example.replay() == [] else "FAIL", name)''',
    "md:After a draw, only a drawn card may start the chain, even when an old card would fit "
    "(MU-Q9); when nothing fits, `end` is the only move (MU-11).",
    CHECK + '''game = cl.Game.from_position("crazy-8s-music", 2, hands=[["5D", "6C"], ["2C", "4S"]],
                              stock=["3S", "JC", "KS"], discard=["5H"])
game.push("draw")
print("drew:", " ".join(c.display for c in game.drawn), "| legal:", game.legal())
print(game.explain("5D"))''',
    "md:## Play against the computer\n\n"
    "The table below is a real game for one human (you, seat 0) against two computer opponents. "
    "So that this notebook runs by itself, the cell plays your seat with a computer player too; "
    "press *New hand* to play yourself.",
    PLAY_HELPER,
    '''table = play_with_bots("crazy-8s-music", opponents=2, seed=8)
table''',
    '''game = table.game
show_piles(game)
print("winner:", game.winner, "| scores (−1 per card left):", game.scores)''',
    "md:## The music of the game\n\n"
    "Every card played is a note: its pitch, in the order played. An 8 or a joker has no pitch "
    "in the main game, so it sounds as a clap (an 8) or a cymbal (a joker).",
    '''from crazylab.music import melody

tune = melody(game)
print(tune.describe())
tune.audio(max_notes=16, rate=8000)''',
    "md:Save it: a WAV file to listen to and a MIDI file for any music program. Both are "
    "written with the standard library only.",
    '''import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp())
wav = tune.wav(folder / "crazy-8s.wav", rate=11025)
mid = tune.midi(folder / "crazy-8s.mid")
print(f"WAV: {len(wav):,} bytes, {tune.duration:.1f} s; MIDI: {len(mid):,} bytes, "
      f"{len(tune.notes)} notes")''',
    "md:Next: `07_music_levels.ipynb`, where suits stop counting and only intervals do.",
]

LEVELS_NB = [
    "md:# The music levels: intervals, piles, and the music you make\n\n"
    "**What you will learn**\n\n"
    "* the five music-only levels: one **letter step** (Level 1), one **semitone** from either of "
    "two piles (Level 2), a **third** (Level 3), a **whole tone up only** on four piles "
    "(Level 4), a **fourth or fifth** (Level 5) (rulings MU-21…MU-32);\n"
    "* why the same pitch (a unison) never counts in the levels, and why Level 4 only climbs;\n"
    "* how 8s and jokers announce a pitch that becomes their pile's reference;\n"
    "* what each level sounds like: flowing melodies, sneaky action music, wacky arpeggios, "
    "mysterious scales, leaps and appoggiaturas.\n\n"
    "Each level's game below is seeded, so the notebook says the same thing each time it runs.",
    "md:## The levels at a glance",
    CHECK + '''import crazylab as cl
from crazylab.music import LEVELS
from crazylab.widgets.music import rule_text

for name, level in LEVELS.items():
    r = cl.rules(name)
    print(f"Level {level.number} ({level.difficulty}): {len(r.deck)} cards, {r.piles} pile(s)")
    print(f"    play {rule_text(r)}")
    print(f"    sounds like {level.style.character}")''',
    "md:Intervals are counted in semitones, up from the pile's reference, and wrap round the "
    "octave: down a minor third is the same key as up a major sixth. On 3♦ (the note C) each "
    "level accepts these keys:",
    CHECK + '''from crazylab.engine.cards import card
from crazylab.widgets.music import Reference, keyboard_keys

for name, level in LEVELS.items():
    r = cl.rules(name)
    keys = keyboard_keys(r, Reference(card("3D")))
    fits = sorted({(k["pc"], k["name"]) for k in keys if k["fits"]})
    print(f"Level {level.number}:", ", ".join(n for _, n in fits) or "C itself (the same pitch)")''',
    PLAY_HELPER + '''

from IPython.display import display

from crazylab.music import melody
from crazylab.widgets import StepExplainer
from crazylab.widgets.music import IntervalExplorer

tunes = {}


def level_game(name, opponents, seed):
    """The table of a seeded game against the computer, its piles, and its music."""
    table = play_with_bots(name, opponents, seed)
    display(table)
    show_piles(table.game)
    tune = tunes[name] = melody(table.game)
    print(tune.describe(limit=12))
    return tune.audio(max_notes=12, rate=8000)''',
]

SECTIONS = [
    (1, "mu-t5-level-1-letter-steps", "AS",
     "One step up or down the musical alphabet A B C D E F G, which loops: on A, play G or B. "
     "The deck loses its black keys (9 10 J Q K), so 34 cards are left. A letter step is a "
     "whole tone, except B–C and E–F, which are semitones."),
    (2, "mu-t6-level-2-two-piles-semitones", "3D",
     "Two piles, both always active: a card fits if it is one semitone up or down from either "
     "top, and it goes on a pile where it fits."),
    (3, "mu-t7-level-3-thirds", "3D",
     "A minor third (3 semitones) or a major third (4) up or down: on C, that is E♭, E, A♭ and A. "
     "Chains of thirds are arpeggios."),
    (4, "mu-t8-level-4-whole-tone-up-only", "3C",
     "Four piles, and a card must be exactly a whole tone (2 semitones) **above** a top: only up. "
     "The deck splits into two whole-tone scales that never meet, unless a wild announces a "
     "pitch."),
    (5, "mu-t9-level-5-fourths-and-fifths", "3C",
     "A perfect fourth (5 semitones) or fifth (7) up or down: on C, F or G. Chains walk round "
     "the circle of fifths."),
]
for number, example, top, text in SECTIONS:
    name = f"crazy-8s-level-{number}"
    from crazylab.music import LEVELS  # noqa: E402
    level = LEVELS[name]
    LEVELS_NB.append(f"md:## Level {number} ({level.difficulty}): {level.title}\n\n{text}\n\n"
                     f"*Your party is going to generate {level.promise}.*")
    LEVELS_NB.append(f'''StepExplainer("{example}")''')
    LEVELS_NB.append(f'''explorer = IntervalExplorer("{name}", top="{top}")
explorer''')
    LEVELS_NB.append(CHECK + f'''print("fits {top}:", explorer.playable_names())''')
    seed = 20 + number
    opponents = 1 if number in (2, 4) else 2
    LEVELS_NB.append(f'''level_game("{name}", opponents={opponents}, seed={seed})''')

LEVELS_NB += [
    "md:## Hearing the difference\n\n"
    "The levels move differently. The average step between consecutive notes of the same pile "
    "is small in Levels 1 and 2, a third in Level 3, and large in Level 5, whose leaps of "
    "fourths and fifths are also played farther apart on purpose.",
    '''for name, tune in tunes.items():
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
          f"{tune.style.tempo} beats per minute, {tune.style.timbre}")''',
    "md:Explore any position yourself: change the level, the top card or the announced "
    "pitch below, click a key, then a card.",
    '''IntervalExplorer("crazy-8s-level-5", top="AS")''',
]

nbformat.write(nb(MAIN), Path(__file__).with_name("06_musical_crazy_8s.ipynb"))
nbformat.write(nb(LEVELS_NB), Path(__file__).with_name("07_music_levels.ipynb"))

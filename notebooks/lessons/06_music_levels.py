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
# # Lesson 6: the music levels: intervals, piles, and the music you make
#
# [← Lesson 5](05_musical_crazy_8s.ipynb) · **Lesson 6** ·
# [Lesson 7 →](07_what_the_rules_change.ipynb) · [Start](index.ipynb) · [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * the five music-only levels (MU-21, MU-23): one **letter step** (Level 1), one **semitone** from
#   either of two piles (Level 2), a **third** (Level 3), a **whole tone up only** on four piles
#   (Level 4), a **fourth or fifth** (Level 5);
# * why the same pitch (a **unison**) never counts in the levels
#   ([house ruling MU-29](rulebook.ipynb#MU-29)), and why Level 4 only climbs;
# * how 8s and jokers **announce a pitch** that becomes their pile's reference, and a joker still
#   makes the next player draw two (MU-24);
# * what each level sounds like: flowing melodies, sneaky action music, wacky arpeggios,
#   mysterious scales, leaps and appoggiaturas.
#
# Each level has a worked example, an explorer on the piano, an exercise the engine checks, and a
# seeded game played by computer players that you can listen to. The worked examples start with
# **Predict first** on: guess each next note (or who draws) before the step is shown; **Next ▶**
# shows it without a guess. House rulings link to their id
# in the rulebook ([rulebook.ipynb](rulebook.ipynb)).

# %%
import random

from IPython.display import Markdown, display

import crazylab as cl
from crazylab.engine.cards import card
from crazylab.examples import load_example
from crazylab.music import LEVELS, melody
from crazylab.widgets import StepExplainer, bot_levels, position
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import choice_exercise, is_legal_exercise, legal_moves_exercise
from crazylab.widgets.music import IntervalExplorer, Reference, keyboard_keys, rule_text

display(class_bar("06_music_levels"))  # who you are, and where your answers are kept

# %% [markdown]
# ## The levels at a glance
#
# Everything of the main game stays (MU-21): 5 cards each, chains, draw two when you play none,
# the joker's draw-two, turn order, reshuffles, the end and the score. What changes is **what
# fits** and the **number of piles** (MU-22). Suits no longer count: fitting is purely musical
# (MU-23).

# %%
# NBVAL_CHECK_OUTPUT
for name, level in LEVELS.items():
    r = cl.rules(name)
    print(f"Level {level.number} ({level.difficulty}): {len(r.deck)} cards, {r.piles} pile(s)")
    print(f"    play {rule_text(r)}")
    print(f"    sounds like {level.style.character}")

# %% [markdown]
# Intervals are counted in semitones, up from the pile's reference, and wrap round the octave:
# down a minor third is the same key as up a major sixth
# ([house ruling MU-28](rulebook.ipynb#MU-28)). On 3♦ (the note C) each level
# accepts these keys. In the main game (Level 0) suits still count, so besides any C, **every
# diamond** fits 3♦ too; in the levels only the keys listed fit, in any suit:

# %%
# NBVAL_CHECK_OUTPUT
for name, level in LEVELS.items():
    r = cl.rules(name)
    keys = keyboard_keys(r, Reference(card("3D")))
    fits = ", ".join(n for _, n in sorted({(k["pc"], k["name"]) for k in keys if k["fits"]}))
    if level.number == 0:
        print(f"Level 0: {fits} (the same pitch, any suit), or any ♦ (the same suit)")
    else:
        print(f"Level {level.number}: {fits} (any suit; C itself does not fit)")

# %% [markdown]
# **Unison does not count.** In the levels a card of the same pitch (or letter) as the reference
# does not fit unless it is wild ([house ruling MU-29](rulebook.ipynb#MU-29);
# option `allow_unison_in_levels` is in the rulebook as
# [house ruling MU-Q22](rulebook.ipynb#MU-Q22)). The seed lists each level's
# intervals exactly and calls the levels "entirely music-based": playing the same note is no
# step, no third, no fourth, so it is not one of the moves the level asks for.

# %%
is_legal_exercise(position("crazy-8s-level-3", top="3D", hand="3H 5S"), "3H",
                  "Level 3, the top card is 3♦ (C). Is 3♥ (also C) legal?",
                  rules="MU-29 MU-23 MU-Q22",
                  hint="Compare the two pitches: are they different notes? A level's interval "
                       "never includes the same note.")

# %% [markdown]
# **8s and jokers announce a pitch.** In the levels, whoever plays an 8 or a joker **must announce
# a pitch**, which becomes that pile's reference; a joker also makes the player to the left draw
# two (MU-24). Level 1 announces one of the letters A–G, the other levels any of the 12 pitches
# ([house ruling MU-25](rulebook.ipynb#MU-25)). In Level 2, an 8 announcing F♯ on
# pile 1 makes that pile accept F and G (MU-T10):

# %%
StepExplainer("mu-t10-level-2-eight-announces-f-sharp", predict=True)

# %%
announced = load_example("mu-t10-level-2-eight-announces-f-sharp").frames()[3].game
legal_moves_exercise(announced, "Level 2: the piles show 3♦ (C) and an 8♠ that announced F♯. You "
                     "hold " + " ".join(c.display for c in announced.hands[0])
                     + ". Which moves are legal (cards, and <code>end</code>)?",
                     rules="MU-24 MU-T10 MU-26",
                     hint="The 8 made F♯ its pile's reference: a card fits a semitone up or down "
                          "from F♯, or from the other pile's C.")

# %%
choice_exercise("In Level 3, seat 0 plays a joker and announces A. What happens to seat 1?",
                ["nothing", "draws 2 at once", "draws 2 and loses a turn"], "draws 2 at once",
                "Jokers are still wild draw-two cards in the levels; the victim keeps its turn "
                "(MU-24, MU-Q12).", rules="MU-24 MU-13",
                hint="Jokers keep their draw-two in the levels. Does the victim lose its turn?")

# %%
level1 = position("crazy-8s-level-1", top="7D", hand="8S 5C")
is_legal_exercise(level1, "8S:C#", "Level 1, the top card is 7♦ (G). You play 8♠ and announce "
                  "C♯. Is <code>8S:C#</code> legal?", rules="MU-25 MU-24",
                  hint="Level 1 plays letter steps. What can an 8 announce in Level 1?")

# %%
hit = cl.Game.from_position("crazy-8s-level-3", 2, hands=[["JK", "5C", "4D"], ["4H"]],
                            stock=["3C", "4C", "6D", "7S"], discard=["3D"])
hit.push_many("JK:A end")
choice_exercise("Level 3: seat 0 plays a joker, announces A, and ends its turn. Seat 1 has drawn "
                "two. Who plays next?", ["seat 0", "seat 1"], f"seat {hit.to_play}",
                "The joker's victim draws two at once but does not lose its turn (house ruling "
                "MU-Q12, MU-24).", rules="MU-Q12 MU-24",
                hint="The joker's victim draws two at once. Does it lose its turn?")

# %% [markdown]
# The seed cards of the piles are dealt from the draw pile, one per pile (MU-22); an 8 or a joker
# seed is buried and replaced, separately for each pile
# ([house ruling MU-Q34](rulebook.ipynb#MU-Q34)):

# %%
StepExplainer("mu-22-level-4-seeds-rebury-wilds", predict=True)

# %%
level2 = cl.rules("crazy-8s-level-2")
seeded = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC", "8S", "QD", "KH"]
seeds = cl.Game.from_deck(level2, 2, seeded + [str(c) for c in level2.deck
                                               if str(c) not in seeded], seed=5)
choice_exercise("Level 2, two players: after the two hands of five, the deck's next cards are "
                "8♠, Q♦, K♥. Which cards start the two piles?", ["8♠ and Q♦", "Q♦ and K♥",
                                                                  "8♠ and K♥"],
                " and ".join(p[-1].display for p in seeds.piles),
                "The 8♠ has no pitch to start a pile with, so it is buried in the draw pile and "
                "the next card is dealt, for each pile (house ruling MU-Q34, MU-22).",
                rules="MU-Q34 MU-22",
                hint="An 8 has no pitch of its own, so it cannot start a pile.")

# %% [markdown]
# The first player to discard all their cards wins (MU-30). The seeded games below are played by
# **computer players** (the rules-of-thumb bot), so that each level has a tune to listen to; the
# table at the end is yours to play.

# %%
choice_exercise("How many discard piles does Level 4 have?", ["1", "2", "4"],
                str(cl.rules("crazy-8s-level-4").piles), "Level 4 plays on four piles; Level 2 "
                "on two; the others on one (MU-22), and all the main game's turn rules stay "
                "(MU-21).", rules="MU-21 MU-22",
                hint="Count the piles in the Level 4 rules.")

# %%
choice_exercise("Who wins a level?", ["the first player out", "the most points",
                                      "the longest chain"], "the first player out",
                "The winner is the first player to discard all their cards (MU-30).",
                rules="MU-30",
                hint="The same aim as the main game: get rid of your cards.")

# %%
tunes = {}


def bot_game(name, players, seed):
    """A seeded game played to the end by computer players (rules of thumb)."""
    bot, rng = bot_levels()["rules"], random.Random(seed)
    game = cl.new_game(name, players=players, seed=seed)
    while not game.over:
        game.push(bot(game.observation(game.to_play), rng))
    return game


def level_game(name, players, seed):
    """A computer players' game of a level: its piles, its winner and its music."""
    game = bot_game(name, players, seed)
    for p, top in enumerate(game.tops):
        print(f"pile {p}: top {top.display:4}  reference {game.pitch_of(p)}")
    print("winner: seat", game.winner)
    tune = tunes[name] = melody(game)
    print(tune.describe(limit=12))
    return tune.audio(max_notes=12, rate=8000)


# %% [markdown]
# ## Level 1 (easy): Picnicking on a Rolling Hill with a Happy Puppy
#
# One step up or down the musical alphabet A B C D E F G, which loops: on A, play G or B. The deck
# loses its black keys (9 10 J Q K), so 34 cards are left (MU-D1). In rank terms: A↔2, 2↔3, …,
# 6↔7 and 7↔A (MU-31). A letter step is a whole tone, except B–C and E–F, which are semitones.
#
# *Your party is going to generate flowing melodies.*

# %%
StepExplainer("mu-t5-level-1-letter-steps", predict=True)

# %%
choice_exercise("How many cards does the Level 1 deck hold?", ["54", "34", "32"],
                str(cl.rules("crazy-8s-level-1").deck_size), "The 20 black keys (every 9, 10, "
                "J, Q and K) leave: A–8 in four suits (32) and the 2 jokers (MU-D1).",
                rules="MU-D1",
                hint="Level 1 removes the black keys (9, 10, J, Q and K): count what stays, "
                     "jokers included.")

# %%
explorer = IntervalExplorer("crazy-8s-level-1", top="AS")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits AS:", explorer.playable_names())

# %%
legal_moves_exercise(position("crazy-8s-level-1", top="7D", hand="AC 6H 5S 7C 8D"),
                     "Level 1, the top card is 7♦ (G). You hold A♣ 6♥ 5♠ 7♣ 8♦. Which moves are "
                     "legal (cards, and <code>draw</code>)?", rules="MU-31 MU-T5",
                     hint="Level 1 accepts a letter step: the next letter up or down from G (F or"
                          " A), whatever the sharp or flat.")

# %%
level_game("crazy-8s-level-1", players=3, seed=21)

# %% [markdown]
# ## Level 2 (hard): Tiptoeing Through a Mansion with Creaky Stairways
#
# Two piles, both always active: a card fits if it is one semitone up or down from either top, and
# it goes on a pile where it fits, chosen by the player
# ([house ruling MU-26](rulebook.ipynb#MU-26);
# [house ruling MU-27](rulebook.ipynb#MU-27)). A move names its pile: `2C@0`.
#
# *Your party is going to generate sneaky action music.*

# %%
StepExplainer("mu-t6-level-2-two-piles-semitones", predict=True)

# %%
explorer = IntervalExplorer("crazy-8s-level-2", top="3D")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3D:", explorer.playable_names())

# %%
legal_moves_exercise(position("crazy-8s-level-2", top="3D KS", hand="2C 10H 7S AD 4C"),
                     "Level 2, the piles show 3♦ (C) and K♠ (A♭). You hold 2♣ 10♥ 7♠ A♦ 4♣. "
                     "Which cards may you play (on some pile), and may you draw?",
                     rules="MU-T6 MU-26 MU-27",
                     hint="Level 2 accepts a semitone up or down from either pile's top: C and "
                          "A♭.")

# %%
level_game("crazy-8s-level-2", players=2, seed=22)

# %% [markdown]
# ## Level 3 (crazy): Jet Skiing on a Single Ski Made of Rock
#
# A minor third (3 semitones) or a major third (4) up or down: on C, that is E♭, E, A♭ and A
# (MU-T7). Chains of thirds are arpeggios.
#
# *Your party is going to generate wacky arpeggios.*

# %%
StepExplainer("mu-t7-level-3-thirds", predict=True)

# %%
explorer = IntervalExplorer("crazy-8s-level-3", top="3D")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3D:", explorer.playable_names())

# %%
legal_moves_exercise(position("crazy-8s-level-3", top="3D", hand="JS 5C KH AD 4D 3C"),
                     "Level 3, the top card is 3♦ (C). You hold J♠ 5♣ K♥ A♦ 4♦ 3♣. Which moves "
                     "are legal (cards, and <code>draw</code>)?", rules="MU-T7 MU-28",
                     hint="Level 3 accepts a minor or major third, up or down: 3 or 4 semitones "
                          "from C. Not C itself.")

# %%
level_game("crazy-8s-level-3", players=3, seed=23)

# %% [markdown]
# ## Level 4 (epic): Mountain Climbing Under Water, with Starfish, at Night
#
# Four piles, and a card must be exactly a whole tone (2 semitones) **above** a top: only up
# ([house ruling MU-Q26](rulebook.ipynb#MU-Q26) reads "(and only up)" round the
# octave: a pile on A♯ accepts C). The deck splits into two whole-tone scales that never meet,
# unless a wild announces a pitch (MU-32).
#
# *Your party is going to generate mysterious whole-tone scales.*

# %%
StepExplainer("mu-t8-level-4-whole-tone-up-only", predict=True)

# %%
explorer = IntervalExplorer("crazy-8s-level-4", top="3C")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3C:", explorer.playable_names())

# %%
up_only = position("crazy-8s-level-4", top="2S 3C KD 7H", hand="AC 4D 9H 5S")
legal_moves_exercise(up_only, "Level 4, the piles show 2♠ (B), 3♣ (C), K♦ (G♯) and 7♥ (G). You "
                     "hold A♣ 4♦ 9♥ 5♠. Which cards may you play (on some pile)?",
                     rules="MU-T8 MU-32 MU-Q26", cards_only=True,
                     hint="Level 4 climbs: a whole tone UP from a pile's top, never down. Check "
                          "each card against all four piles.")

# %%
level_game("crazy-8s-level-4", players=2, seed=24)

# %% [markdown]
# ## Level 5 (legendary): Tightrope Walking Across an Enormous Clock
#
# A perfect fourth (5 semitones) or fifth (7) up or down: on C, F or G (MU-T9). Chains walk round
# the circle of fifths.
#
# *Your party is going to generate a melodic-leap-and-appoggiatura overload sensation.*

# %%
StepExplainer("mu-t9-level-5-fourths-and-fifths", predict=True)

# %%
explorer = IntervalExplorer("crazy-8s-level-5", top="3C")
explorer

# %%
# NBVAL_CHECK_OUTPUT
print("fits 3C:", explorer.playable_names())

# %%
legal_moves_exercise(position("crazy-8s-level-5", top="AS", hand="4C 5D 6H 2S 3D"),
                     "Level 5, the top card is A♠ (A). You hold 4♣ 5♦ 6♥ 2♠ 3♦. Which moves are "
                     "legal (cards, and <code>draw</code>)?", rules="MU-T9",
                     hint="Level 5 accepts a fourth or a fifth, up or down: 5 or 7 semitones from"
                          " A.")

# %%
level_game("crazy-8s-level-5", players=3, seed=25)

# %% [markdown]
# ## Hearing the difference
#
# Two numbers per level, from the games above. The **rule step** is the interval the rule
# allowed between consecutive notes of one pile, folded into an octave (a third is 3 or 4
# semitones, whichever way it goes). The **played step** is how far the melody actually moves:
# the tune places each note in its own octave, so a third down may sound as a sixth up, and
# Level 5's leaps are placed farther apart on purpose. Wild cards (announcements) are left out.

# %%
# NBVAL_CHECK_OUTPUT
def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


for name, tune in tunes.items():
    last_pc, last_midi, rule_steps, played_steps = {}, {}, [], []
    for n in tune.notes:
        if n.pc is None or n.called:
            last_pc.pop(n.voice, None)
            continue
        if n.voice in last_pc:
            iv = (n.pc - last_pc[n.voice]) % 12
            rule_steps.append(min(iv, 12 - iv))
            played_steps.append(abs(n.midi - last_midi[n.voice]))
        last_pc[n.voice], last_midi[n.voice] = n.pc, n.midi
    print(f"{name}: {len(tune.notes):3} notes, rule step {mean(rule_steps):4.1f}, played step "
          f"{mean(played_steps):4.1f} semitones, {tune.style.tempo} bpm, {tune.style.timbre}")

# %%
choice_exercise("Which level's rule moves by the largest interval?",
                ["Level 1", "Level 3", "Level 5"], "Level 5",
                "Fourths and fifths are 5 or 7 semitones; Level 3's thirds 3 or 4; Level 1's "
                "letter steps 1 or 2 (MU-26, MU-31).", rules="MU-26 MU-31",
                hint="Count the semitones each level's rule allows.")

# %% [markdown]
# ## Your turn: play a level
#
# You are seat 0 against two computer players, in Level 3. Click a card that fits a third from
# the top, or **Draw**; an 8 or a joker asks you to announce a pitch; **End** finishes your
# chain. Nothing is played for you. Change the level from the *Rules* menu.

# %%
from crazylab.widgets import GameTable

GameTable("crazy-8s-level-3", opponents=2, seed=23)

# %% [markdown]
# Explore any position yourself: change the level, the top card or the announced pitch, click a
# key, then a card.

# %%
IntervalExplorer("crazy-8s-level-5", top="AS")

# %% [markdown]
# ## Recap
#
# * The levels keep the main game's turn and change only what fits and the piles (MU-21, MU-22);
#   suits do not count (MU-23).
# * Level 1: a letter step (MU-31). Level 2: a semitone, two piles. Level 3: a third. Level 4: a
#   whole tone up, four piles (MU-32). Level 5: a fourth or a fifth.
# * A unison never fits ([house ruling MU-29](rulebook.ipynb#MU-29)).
# * 8s and jokers announce a pitch for their pile; a joker still makes the next player draw two
#   (MU-24).
#
# **Rules sheets** (printable: [rules sheets](sheets.ipynb), one per level,
# `sheets/crazy-8s-level-1.md` … `sheets/crazy-8s-level-5.md`). Level 3's:

# %%
from crazylab.sheet import rules_sheet

display(Markdown(rules_sheet(cl.rules("crazy-8s-level-3"))))

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: a new set each time you come back, so
# practise as often as you like. A wrong answer gets the engine's reason, and the rules you
# miss are asked again later. Your answers are kept with your other answers (the bar at the
# top of the page says where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("06_music_levels",
             ["crazy-8s-level-1", "crazy-8s-level-2", "crazy-8s-level-3", "crazy-8s-level-4",
              "crazy-8s-level-5"],
             kinds=["legal", "pile"])

# %% [markdown]
# [← Lesson 5](05_musical_crazy_8s.ipynb) · **Lesson 6** ·
# [Lesson 7: what the rules change →](07_what_the_rules_change.ipynb)

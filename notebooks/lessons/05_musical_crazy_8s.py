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
# # Lesson 5: Musical Crazy 8s: match the suit or the pitch
#
# [← Lesson 4](04_crazy_breens.ipynb) · **Lesson 5** · [Lesson 6 →](06_music_levels.ipynb) ·
# [Start](index.ipynb) · [Glossary](glossary.ipynb)
#
# **What you will learn**
#
# * how every card of the music deck is a key of the piano: the rank → pitch map, with sharps on
#   ♦ ♣ and flats on ♥ ♠ (MU-D1…MU-D6). The seed never prints the map: it is a **house ruling**
#   derived from the seed's text ([house ruling MU-Q1](rulebook.ipynb#MU-Q1));
# * the setup: 2–4 players, 5 cards each from 54 (MU-1…MU-4);
# * the main game's one rule for a card: the same **suit** or the same **pitch** (MU-5); an 8 takes
#   its own suit (MU-12), a joker announces one and the next player **draws two** at once (MU-13);
# * a turn is a **chain** of cards, or **draw two** (MU-6…MU-10), and the first card after the draw
#   must be a drawn one ([house ruling MU-Q9](rulebook.ipynb#MU-Q9));
# * the end: the first player out wins, every card left costs a point (MU-18, MU-19);
# * how a game becomes a **melody** you can hear, and save as WAV and MIDI.
#
# Every game here is seeded, so the notebook says the same thing each time it runs. House
# rulings link to their id in the rulebook ([rulebook.ipynb](rulebook.ipynb)).

# %%
import random

from IPython.display import Markdown, display

import crazylab as cl
from crazylab.engine.pitch import both_names, pretty
from crazylab.examples import list_examples, load_example
from crazylab.widgets import StepExplainer, bot_levels
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import (
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    score_exercise,
)

display(class_bar("05_musical_crazy_8s"))  # who you are, and where your answers are kept

MUSIC = [n for n in list_examples() if n.startswith("mu-")
         and load_example(n).rules.name == "crazy-8s-music"]


def frame(example, step=None):
    """The game at ``step`` of a worked example (by default the last), replayed by the engine."""
    return load_example(example).frames()[-1 if step is None else step].game


def explain(example):
    """The step-through explainer at a main-game worked example."""
    return StepExplainer(example, choices=MUSIC)


# %% [markdown]
# ## 1. The deck is a keyboard
#
# The whole deck is played: 52 cards and 2 jokers (MU-D1, MU-2). Ace to 7 are the white keys A B C
# D E F G; 9, 10, J, Q and K are the five black keys; an 8 and a joker have no pitch (they are
# wild) (MU-D3). Pitches are counted in semitones from C = 0 (MU-D2), and the chromatic order of
# the ranks is A 9 2 3 10 4 J 5 6 Q 7 K (MU-D4). The same rank sounds the same pitch in every suit:
# diamonds and clubs spell it with a sharp, hearts and spades with a flat.

# %%
# NBVAL_CHECK_OUTPUT
r = cl.rules("crazy-8s-music")
for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
    row = [cl.card(rank + suit) for suit in "DCHS"]
    pc = r.pitches.pitch(row[0])
    key = "wild, no pitch" if pc is None else f"pitch class {pc:2}  {both_names(pc)}"
    print(f"{rank:>2}: {key:24} spelled " + " ".join(
        f"{c.display}={r.pitches.spelling(c) or '-'}" for c in row))

# %% [markdown]
# The seed's own example: C♯ is *enharmonic* to D♭, the same key, so the four tens are four cards
# of one pitch (MU-D5). So "the same pitch" means "the same rank" for every card but the wilds
# (MU-D6).

# %%
# NBVAL_CHECK_OUTPUT
tens = cl.cards("10D 10C 10H 10S")
print([r.pitches.pitch(c) for c in tens], [r.pitches.spelling(c) for c in tens])

# %%
choice_exercise("Which note does J♥ sound?", ["D♯", "E♭", "E"],
                (pretty(r.pitches.spelling(cl.card("JH"))), "D♯"),
                "J is the black key between D and E. D♯ and E♭ are two names of that one "
                "note; hearts and spades spell it with a flat, E♭ (MU-D3).",
                rules="MU-D3 MU-D4 MU-Q1",
                wrong={"E": "E is a white key. J sounds the black key just below E, between D "
                       "and E."},
                hint="J stands for a black key. Which black key, between which two white keys? "
                     "One key can have two names.")

# %%
choice_exercise("Do 10♦ (C♯) and 10♠ (D♭) sound the same pitch?", ["yes", "no"],
                "yes" if r.pitches.pitch(cl.card("10D")) == r.pitches.pitch(cl.card("10S"))
                else "no", "They are the same key, spelled two ways (MU-D5, MU-D6).",
                rules="MU-D5 MU-D6 MU-D2",
                hint="Two names, one key: is the sound different?")

# %%
music_deck = cl.rules("crazy-8s-music").deck
choice_exercise("How many cards does the musical deck hold?", ["52", "54", "34"],
                str(len(music_deck)), "The full deck, including the jokers: 52 + "
                f"{sum(c.is_joker for c in music_deck)} = 54 (MU-D1, MU-2).", rules="MU-D1 MU-2",
                hint="The musical game uses the full deck, jokers included.")

# %% [markdown]
# ## 2. The deal
#
# 2–4 players (MU-1) get 5 cards each (MU-2); the rest is the draw pile, whose top card is the
# **seed card** that starts the discard pile (MU-3). The player left of the dealer starts, and play
# passes to the left (MU-4). A joker seed is buried and replaced
# ([house ruling MU-Q3](rulebook.ipynb#MU-Q3): nobody played it, so nobody draws);
# an 8 seed stays, with its own suit
# ([house ruling MU-Q4](rulebook.ipynb#MU-Q4)).

# %%
explain("mu-3-joker-seed-buried-eight-kept")

# %%
# NBVAL_CHECK_OUTPUT
game = cl.new_game("crazy-8s-music", players=3, seed=6)
print("seed card:", game.top.display, "| hands:", game.hand_sizes, "| draw pile:", len(game.stock))

# %%
choice_exercise("Three players: how many cards are in the draw pile after the deal and the seed "
                "card?", ["38", "43", "46"], str(len(game.stock)),
                "54 − 3 × 5 − 1 = 38 (MU-1, MU-2, MU-3).", rules="MU-1 MU-2 MU-3 MU-4",
                hint="54 cards, 3 hands of 5, and one seed card.")

# %%
seed_eight = frame("mu-3-joker-seed-buried-eight-kept")
legal_moves_exercise(seed_eight, f"The seed card is {seed_eight.top.display} (a joker seed was "
                     "buried first). You hold " + " ".join(c.display for c in seed_eight.hands[0])
                     + ". Which moves are legal?", rules="MU-Q3 MU-Q4",
                     hint="What does the seed card ask for: its suit or its pitch? Does any card "
                          "of the hand fit?")

# %% [markdown]
# ## 3. Suit or pitch
#
# On 5♥ (the note E) any heart fits, any 5 fits (E in another suit: the same pitch), and so do the
# wild 8s and jokers, "at any time on your turn" (MU-5, MU-T1). Playing is optional: you may draw
# two instead ([house ruling MU-Q8](rulebook.ipynb#MU-Q8) reads "or no longer wish
# to" that way), so `draw` is always a legal move before your first card.

# %%
# NBVAL_CHECK_OUTPUT
main = cl.Game.from_position("crazy-8s-music", 2,
                             hands=[["5D", "KH", "6C", "3C", "8S", "JK"],
                                    ["2C", "4S", "9H", "QC", "7D"]],
                             stock=["10S", "JC", "AS", "2H"], discard=["5H"])
print("legal:", " ".join(main.legal()))
for move in ["6C", "3C", "8S:D"]:
    print(f"{move}: {main.explain(move)}")

# %%
explain("mu-t1-main-game-suit-or-pitch")

# %%
legal_moves_exercise(main, "The top card is 5♥ (E). You hold 5♦ K♥ 6♣ 3♣ 8♠ and a joker. Which "
                     "moves are legal? (List the cards, and <code>draw</code> if you may.)",
                     rules="MU-5 MU-T1 MU-Q8",
                     hint="A card fits by suit or by pitch; an 8 and a joker are wild. May you "
                          "draw while a card fits?")

# %%
is_legal_exercise(main, "8S:D", "On 5♥ you play 8♠ and call diamonds, as in the site rules. Is "
                  "<code>8S:D</code> legal here?", rules="MU-12 MU-T2",
                  hint="Does an 8 of the musical main game name a suit, or keep its own?")

# %% [markdown]
# The interval explorer shows it on the piano: click a key to see its cards, and a card to see
# why it fits or not.

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
# ## 4. The 8 and the joker
#
# An **8** changes the suit to **its own** suit: there is no choice in the main game (MU-12;
# [house ruling MU-Q30](rulebook.ipynb#MU-Q30) keeps the seed's literal text). An 8
# has no pitch, so only its suit, another 8 or a joker can follow it (MU-T2).
#
# A **joker** is wild: you **announce a suit**, and the player to your left **draws two cards at
# once** (MU-13, MU-T3). The victim does not lose a turn
# ([house ruling MU-Q12](rulebook.ipynb#MU-Q12)), and each joker of a chain hits
# again ([house ruling MU-14](rulebook.ipynb#MU-14)). Either way you keep the turn.

# %%
explain("mu-t2-eight-takes-its-own-suit")

# %%
legal_moves_exercise(frame("mu-t2-eight-takes-its-own-suit", 2), "You played 8♣ on 5♥ and go on "
                     "with your chain. Which moves are legal now?", rules="MU-12 MU-T2 MU-Q30",
                     hint="In the musical main game an 8 takes its own suit: no call. What fits "
                          "8♣? And may you stop the chain?")

# %%
explain("mu-t3-joker-announces-a-suit")

# %%
before, after = frame("mu-t3-joker-announces-a-suit", 0), frame("mu-t3-joker-announces-a-suit", 2)
choice_exercise("Seat 0 plays a joker and announces ♦. How many cards does seat 1 draw, and does "
                "seat 1 lose a turn?", ["2, and keeps its turn", "2, and loses its turn",
                                       "4, and keeps its turn"],
                f"{after.hand_sizes[1] - before.hand_sizes[1]}, and keeps its turn",
                "The joker's victim draws two at once and plays normally on its turn (MU-13, "
                "MU-T3, MU-Q12).", rules="MU-13 MU-T3 MU-Q12",
                hint="A joker makes the next player draw two at once. Is the turn lost?")

# %%
two_jokers = cl.Game.from_position("crazy-8s-music", 2, hands=[["JK", "JK", "5C", "9D"], ["4H"]],
                                   stock=["3C", "4C", "6D", "7S"], discard=["5H"])
two_jokers.push_many("JK:H JK:D")
choice_exercise("In one chain seat 0 plays both jokers (announcing ♥, then ♦). How many cards "
                "does seat 1 draw in all?", ["2", "4", "0"], str(two_jokers.hand_sizes[1] - 1),
                "Each joker of the chain hits again: 2 + 2 = 4 cards, and seat 0 keeps the turn "
                "(house ruling MU-14, MU-13).", rules="MU-14 MU-13",
                hint="Each joker of a chain hits again.")

# %% [markdown]
# ## 5. The turn: a chain, or draw two
#
# You play fitting cards **one at a time**, each on the last, for as long as you can and want
# (MU-6); then you say `end` (MU-10;
# [house ruling MU-11](rulebook.ipynb#MU-11) makes the end an explicit move). If you
# play **no** card, you **draw 2** (MU-7). If a drawn card fits you may play it and go on with any
# card (MU-8), but the **first** card after the draw must be a drawn one
# ([house ruling MU-Q9](rulebook.ipynb#MU-Q9)), and you draw only once, before
# playing ([house ruling MU-9](rulebook.ipynb#MU-9)). If neither drawn card fits,
# `end` is the only move.

# %%
explain("mu-t4-draw-two-then-a-drawn-card")

# %%
after_draw = cl.Game.from_position("crazy-8s-music", 2, hands=[["5D", "6C"], ["2C", "4S"]],
                                   stock=["3S", "JC", "KS"], discard=["5H"])
after_draw.push("draw")
legal_moves_exercise(after_draw, "On 5♥ you held 5♦ 6♣ and chose to draw two: 3♠ and J♣. Which "
                     "moves are legal now? (5♦ fits 5♥, but is it allowed?)",
                     rules="MU-7 MU-8 MU-Q9 MU-T4 MU-9",
                     hint="After the draw a drawn card that fits may be played, and the first "
                          "card played must be a drawn one. Which drawn card fits 5♥?")

# %%
explain("mu-t4-neither-drawn-card-fits")

# %%
chain = frame("mu-t4-draw-two-then-a-drawn-card", 4)
is_legal_exercise(chain, "end", "You drew, played the drawn 5♦ and could go on with 9♦. Is "
                  "<code>end</code> legal (may you stop the chain)?", rules="MU-6 MU-10 MU-11",
                  hint="A chain may stop after any card. May it stop after a drawn card was "
                       "played?")

# %% [markdown]
# ## 6. The draw pile runs out
#
# When the draw pile is spent, the discard pile except its top card is shuffled into a new draw
# pile, as often as needed (MU-16), in the middle of a two-card draw if need be. If there is
# nothing to reshuffle, you draw what exists
# ([house ruling MU-17](rulebook.ipynb#MU-17)).

# %%
StepExplainer("mu-16-reshuffle-keeps-each-pile-top")

# %%
choice_exercise("The draw pile is empty and you must draw two. What becomes the new draw pile?",
                ["every discard", "every discard but the top card", "nothing: you draw none"],
                "every discard but the top card", "The top card stays to be matched; the rest is "
                "shuffled, with no limit (MU-16).", rules="MU-16",
                hint="The top card stays to be matched.")

# %%
nothing_left = cl.Game.from_position("crazy-8s-music", 2, hands=[["3C", "4D"], ["4H"]], stock=[],
                                     discard=["5H"])
nothing_left.push("draw")
choice_exercise("The draw pile is empty and the discard pile is only its top card, 5♥. Seat 0 "
                "plays nothing and must draw two. How many cards does it get?", ["0", "1", "2"],
                str(len(nothing_left.hands[0]) - 2), "There is nothing to reshuffle, so you draw "
                "what exists: here nothing; then you end the turn (house ruling MU-17, MU-16).",
                rules="MU-17 MU-16",
                hint="Nothing to reshuffle: you draw what exists.")

# %% [markdown]
# ## 7. The end and the score
#
# The game ends as soon as a player discards the last card, even in the middle of a chain; that
# player wins (MU-18). Scoring is optional: each card left in a hand counts −1, and the winner
# scores 0 (MU-19, MU-T11). A joker as the last card still makes the next player draw two
# ([house ruling MU-15](rulebook.ipynb#MU-15)); a blocked game goes to the fewest
# cards ([house ruling MU-20](rulebook.ipynb#MU-20)).

# %%
explain("mu-t11-scoring-minus-one-per-card")

# %%
score_exercise("crazy-8s-music", [[], ["3C", "4C", "5C"], ["6C", "7C", "9C", "10C", "JC", "QC"]],
               winner=0, seat=2, question="Seat 0 went out. Seat 1 holds 3 cards and seat 2 holds "
               "6. What does seat 2 score?", rules="MU-19 MU-T11",
               hint="In the musical game each card left in a hand counts minus one.")

# %%
StepExplainer("mu-20-blocked-fewest-cards")

# %%
stuck = cl.Game.from_position("crazy-8s-music", 2, hands=[["3C", "4D"], ["2S", "9S", "10C"]],
                              stock=[], discard=["5H"])
while not stuck.over:  # nothing fits E or hearts, and there is nothing to draw
    stuck.push(stuck.legal()[0])
choice_exercise("Blocked: nothing fits and nothing can be drawn. Seat 0 holds 2 cards, seat 1 "
                "holds 3. Who wins, and what does seat 1 score?",
                ["seat 0; seat 1 scores -3", "seat 1; seat 1 scores 0", "seat 0; seat 1 scores 3"],
                f"seat {stuck.winner}; seat 1 scores {stuck.scores[1]}",
                f"The fewest cards win; every player scores minus its cards: {stuck.scores[0]} "
                f"and {stuck.scores[1]} (house ruling MU-20, MU-19).", rules="MU-20 MU-19",
                hint="The fewest cards win a blocked game; the others score minus their cards.")

# %%
explain("mu-15-joker-as-the-last-card")

# %%
choice_exercise("Seat 0 goes out with a joker. Does seat 1 still draw two?", ["yes", "no"],
                "yes" if frame("mu-15-joker-as-the-last-card").hand_sizes[1]
                > frame("mu-15-joker-as-the-last-card", 0).hand_sizes[1] else "no",
                "The draw-two is part of playing the joker, so it applies, and then the game "
                "ends (MU-18; house ruling MU-15).", rules="MU-18 MU-15",
                hint="A joker's draw-two is part of playing it.")

# %% [markdown]
# ## 8. Your turn: play against the computer
#
# You are seat 0 against two computer players. Click a marked card to play it, **Draw** to draw
# two, **End** to finish your chain; **Hint** explains every card. Nothing is played for you.

# %%
from crazylab.widgets import GameTable

GameTable("crazy-8s-music", opponents=2, seed=8)

# %% [markdown]
# ## 9. The music of a game
#
# Every card played is a note: its pitch, in the order played. An 8 or a joker has no pitch in
# the main game, so it sounds as a clap (an 8) or a cymbal (a joker). Here three **computer
# players** (the rules-of-thumb bot) play a seeded game to the end, and we listen to it.

# %%
def bot_game(rules, players, seed):
    """A seeded game played to the end by computer players (rules of thumb)."""
    bot, rng = bot_levels()["rules"], random.Random(seed)
    played = cl.new_game(rules, players=players, seed=seed)
    while not played.over:
        played.push(bot(played.observation(played.to_play), rng))
    return played


# %%
# NBVAL_CHECK_OUTPUT
from crazylab.music import melody

played = bot_game("crazy-8s-music", 3, seed=8)
print("winner: seat", played.winner, "| scores (−1 per card left):", played.scores)
tune = melody(played)
print(tune.describe())

# %%
tune.audio(max_notes=16, rate=8000)

# %% [markdown]
# Save it: a WAV file to listen to and a MIDI file for any music program. Both are written with
# the standard library only.

# %%
import tempfile
from pathlib import Path

folder = Path(tempfile.mkdtemp())
wav = tune.wav(folder / "crazy-8s.wav", rate=11025)
mid = tune.midi(folder / "crazy-8s.mid")
print(f"WAV: {len(wav):,} bytes, {tune.duration:.1f} s; MIDI: {len(mid):,} bytes, "
      f"{len(tune.notes)} notes")

# %% [markdown]
# ## Recap
#
# * Each card is a piano key: A–7 the white keys, 9–K the black keys, 8 and joker wild
#   (MU-D3; [house ruling MU-Q1](rulebook.ipynb#MU-Q1)).
# * A card fits on the same **suit** or the same **pitch**; wilds always fit (MU-5).
# * An 8 takes its own suit (MU-12); a joker announces a suit and the next player draws two
#   (MU-13).
# * A turn is a **chain** (MU-6); play none and you **draw two** (MU-7), then start with a drawn
#   card (MU-8).
# * First out wins; −1 per card left (MU-18, MU-19).
#
# **Rules sheet** (printable: [rules sheets](sheets.ipynb), `sheets/crazy-8s-music.md`):

# %%
from crazylab.sheet import rules_sheet

Markdown(rules_sheet(cl.rules("crazy-8s-music")))

# %% [markdown]
# ## Practice
#
# Fresh positions, dealt by the engine for you alone: a new set each time you come back, so
# practise as often as you like. A wrong answer gets the engine's reason, and the rules you
# miss are asked again later. Your answers are kept with your other answers (the bar at the
# top of the page says where).

# %%
from crazylab.widgets.practice import practice_set

practice_set("05_musical_crazy_8s", ["crazy-8s-music"], kinds=["legal", "score", "pile"])

# %% [markdown]
# [← Lesson 4](04_crazy_breens.ipynb) · **Lesson 5** ·
# [Lesson 6: the music levels →](06_music_levels.ipynb)

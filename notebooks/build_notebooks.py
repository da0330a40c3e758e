"""Write the lesson and dashboard notebooks from the cells below, and execute the lessons so
they are saved with their outputs (nbval compares the cells marked ``# NBVAL_CHECK_OUTPUT``).

    .venv/bin/python notebooks/build_notebooks.py          # all of them
    .venv/bin/python notebooks/build_notebooks.py 01 play  # only names containing these

Lesson 04 is built by build_breens_notebook.py (with this module's ``build``), lessons
06-07 by build_music_notebooks.py; lesson 05 belongs to another author.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat as nbf
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
CHECK = "# NBVAL_CHECK_OUTPUT\n"

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def md(text: str) -> tuple[str, str]:
    return ("md", text.strip("\n"))


def code(text: str) -> tuple[str, str]:
    return ("code", text.strip("\n"))


# --------------------------------------------------------------------------- dashboards

INDEX = [
    md("""
# crazylab: Crazy Eights in Jupyter

Play, explore and explain the Crazy Eights family of card games: the five-card site rules,
the app's classic and quick rules, Crazy Breens and the musical Crazy 8s.

| page | what it does |
|---|---|
| [**Play**](play.ipynb) | a hand or a match against 1-3 computer opponents, under any rule set |
| [**Explore**](explore.ipynb) | a top card and a hand: which cards are legal, and the rule that decides |
| [**Explain**](explain.ipynb) | worked examples step by step, with what changed at each step |
| [**Score**](score.ipynb) | the points of the cards left, and what the winner scores |
| [**Piano**](piano.ipynb) | the musical Crazy 8s on a keyboard: which keys may follow a top card, and the interval |

Deep links work:
[the eight that calls diamonds, step 3](explain.ipynb?example=sr-t1-t2-worked-turn-eight-calls-diamonds&step=3),
[the quick rule with three opponents](play.ipynb?rules=crazy-eights-quick&opponents=3),
[Crazy Breens against two bots](play.ipynb?rules=crazy-breens&opponents=2).

## Lessons

Each lesson runs from top to bottom in seconds, with seeded games, and ends with a table to play.
"""),
    code("""
import html
import json
from pathlib import Path

from IPython.display import HTML, display

from crazylab import cards
from crazylab.render import cards_html


def lesson_link(path):
    \"\"\"A link to a lesson, named by its number and the first heading of its first cell.\"\"\"
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    title = first.splitlines()[0].lstrip("# ").strip()
    title = title.split(": ", 1)[1] if title.startswith("Lesson ") else title
    title = title[0].upper() + title[1:]
    return (f"<li><a href='{html.escape(path.name)}'>{path.name[:2]} · "
            f"{html.escape(title)}</a></li>")


lessons = sorted(Path().glob("[0-9][0-9]_*.ipynb"))  # Voilà runs this in notebooks/
display(HTML("<ul class='crazylab-lessons' style='line-height:1.7'>"
             + "".join(lesson_link(p) for p in lessons) + "</ul>"))
HTML(cards_html(cards("8C 8D 8H 8S"), width=56))
"""),
]

PLAY = [
    md("""
# Play Crazy Eights

Click a marked card to play it, or press **Draw**. An eight asks for the suit you call.
**Hint** shows which cards are legal and why the others are not. Keys: arrows move between
cards, Enter plays, D draws, P passes, E ends a turn, H toggles the hint, N deals a new hand.
[Back to the start](index.ipynb)
"""),
    code("""
from crazylab.widgets import GameTable

table = GameTable.from_query(rules="crazy-eights-classic", opponents=2)
table
"""),
]

EXPLORE = [
    md("""
# Which cards are legal?

Choose a rule set, type the top card (one per pile in the multi-pile music levels) and the
call in force if the top card is wild, then type or click a hand. The table shows every card
of the hand, whether it may be played, and the rule that decides. [Back](index.ipynb)
"""),
    code("""
from crazylab.widgets import LegalMoveExplorer

explorer = LegalMoveExplorer.from_query(rules="crazy-eights", top="6H", hand="6C KH 8S 3D")
explorer
"""),
]

EXPLAIN = [
    md("""
# Worked examples, step by step

Pick an example and step through it with **Previous** / **Next** or the slider. Each step
shows the narration, what changed, and the position (cards that moved are outlined).
The link under the position opens the same step again. [Back](index.ipynb)
"""),
    code("""
from crazylab.widgets import StepExplainer

explainer = StepExplainer.from_query(default="sr-t1-t2-worked-turn-eight-calls-diamonds")
explainer
"""),
]

SCORE = [
    md("""
# Score a hand

Choose who went out, then type or click the cards left in the other hands. The working shows
each card's points and what the winner scores under the rule set. The example is the site
rules' own: 8♦ 3♣ and Q♥ A♠ are worth 64 to the winner. [Back](index.ipynb)
"""),
    code("""
from crazylab.widgets import ScoreCalculator

calculator = ScoreCalculator.from_query()
calculator
"""),
]

# --------------------------------------------------------------------------- lessons

LESSON_01 = [
    md("""
# Lesson 1: Crazy Eights basics

**What you will learn**

* how a card is matched: the same **suit** or the same **rank** as the top card;
* why eights are **wild**, and how the **called suit** replaces the eight's own suit;
* what to do when nothing fits: **draw until you can play**;
* how the winner **scores** the cards left in the other hands.

The rules are the five-card "site rules" (seed 001, preset `crazy-eights`). Run the cells from
top to bottom (Shift+Enter); every game here is dealt from a fixed seed, so you see what the
text describes.
"""),
    md("## 1. A deal\n\nTwo players, five cards each. The discard pile starts with one card "
       "turned up from the stock."),
    code("""
import crazylab as cl

game = cl.new_game("crazy-eights", players=2, seed=1)
game
"""),
    md("Seat 0 plays first. The engine lists every legal move in the notation of the "
       "rulebook: a card like `10H`, or `draw`."),
    code(CHECK + """
game.legal()
"""),
    md("""
## 2. The worked turn of the rules

*"The top card is 6♥. You hold 6♣, K♥, 8♠ and 3♦. Your legal choices are 6♣, K♥ or 8♠."*

The table below is built by the engine: one row per card, with the rule that decides it.
"""),
    code(CHECK + """
from crazylab.widgets import legal_table, position

worked = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
legal_table(worked)
"""),
    md("A refused move changes nothing and says why:"),
    code(CHECK + """
print(worked.explain("3D"))
"""),
    md("""
## 3. Step through it

The explainer replays the worked turn from the rules' own example file. Press **Next ▶**:
at step 3 the eight calls diamonds, and at step 6 a spade is refused even though the eight
was a spade.
"""),
    code("""
from crazylab.widgets import StepExplainer

StepExplainer("sr-t1-t2-worked-turn-eight-calls-diamonds")
"""),
    md("""
## 4. When nothing fits: draw until you can play

*"On another turn the discard is K♣, and you hold 3♦ and 5♥. You draw 2♥, which stays in
your hand, then J♣, which you play."*
"""),
    code("""
StepExplainer("sr-t3-draw-until-playable")
"""),
    md("""
## 5. Scoring: the winner collects

Eights are worth 50, kings, queens, jacks and tens 10, aces 1, other cards their face value.
*"One opponent holds 8♦ and 3♣: 53 points. Another holds Q♥ and A♠: 11 points. The winner
scores 64 points."*
"""),
    code(CHECK + """
from crazylab.widgets import score_hands

scored = score_hands("crazy-eights", [[], ["8D", "3C"], ["QH", "AS"]], winner=0)
print("\\n".join(scored.working()))
"""),
    md("Change the hands below (type them, or click cards) and watch the working change."),
    code("""
from crazylab.widgets import ScoreCalculator

ScoreCalculator()
"""),
    md("""
## Try it yourself

1. In the explorer below, what may you play on 8♠ when **clubs** were called? Set *Call in
   force* to `C` and check your answer.
2. Why is a spade not enough after 8♠ with diamonds called?
3. A player goes out holding nothing but an eight. Is that allowed? (See the example
   `sr-t5-t6-going-out-on-an-eight` in the explainer.)
"""),
    code("""
from crazylab.widgets import LegalMoveExplorer

LegalMoveExplorer(rules="crazy-eights", top="8S", hand="3D KS 9C 8H QC", call="D")
"""),
]

LESSON_02 = [
    md("""
# Lesson 2: the app's classic and quick rules

**What you will learn**

* what the Crazy Eights app of seed 004 changes: **7 cards for two** players, 5 for three or
  four, up to **3 reshuffles**, and a **match to 100**;
* the difference between the **classic** rule (draw until you can play) and the **quick**
  rule (draw at most 3, then pass);
* how a **blocked** game is settled: the fewest points in hand wins.

Presets: `crazy-eights-classic` and `crazy-eights-quick`.
"""),
    md("## 1. What differs between the rule sets\n\nEach rule set is data; here are the "
       "options that differ between the site rules and the app's two rules."),
    code(CHECK + """
import pandas as pd

from crazylab import rules

names = ["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"]
options = pd.DataFrame({n: rules(n).options() for n in names})
options[options.nunique(axis=1, dropna=False) > 1]
"""),
    md("## 2. Seven cards for two\n\nThe same seed, dealt under each rule set:"),
    code(CHECK + """
import crazylab as cl

for name in names:
    game = cl.new_game(name, players=2, seed=4)
    print(f"{name:22} seat 0 holds {len(game.hands[0])} cards")
"""),
    md("""
## 3. Matching is the same

*"On a 9 of hearts you can play any heart or any 9. Eights are wild."*
"""),
    code(CHECK + """
from crazylab.widgets import legal_table, position

legal_table(position("crazy-eights-classic", top="9H", hand="9C 2H 8D KS"))
"""),
    md("""
## 4. Drawing: classic vs quick

With the **quick** rule you draw up to 3 cards; if none fits, you pass and the fourth card
stays on the stock. Step through it:
"""),
    code("""
from crazylab.widgets import StepExplainer

StepExplainer("ap-t3-quick-rule-three-draws-then-pass")
"""),
    md("With the **classic** rule you keep drawing, and the discards are reshuffled into a new "
       "stock when it runs out (at most 3 times a hand):"),
    code("""
StepExplainer("ap-t5-classic-draws-past-a-reshuffle")
"""),
    md("""
## 5. Does the quick rule make hands shorter?

Play 200 seeded random hands under each rule and compare. (Random players are not good
players, but the draw rule's effect shows.)
"""),
    code("""
import random


def summary(name, hands=200):
    moves, draws = [], []
    for seed in range(hands):
        game = cl.new_game(name, players=2, seed=seed).play_random(random.Random(seed))
        moves.append(len(game.moves))
        draws.append(sum(1 for m in game.moves if m.kind == "draw"))
    return {"moves per hand": sum(moves) / hands, "draws per hand": sum(draws) / hands}


pd.DataFrame({n: summary(n) for n in names[1:]}).round(1)
"""),
    md("""
## 6. A blocked game

When nobody can play or draw, the hand is blocked and the player with the fewest points in
hand wins it, scoring the difference:
"""),
    code("""
StepExplainer("ap-t7-blocked-game-fewest-points")
"""),
    md("""
## Try it yourself

1. Which rule would you choose for young players, and why?
2. Open the explorer: with the quick rule, after three draws that do not fit, which moves are
   legal? (Hint: look at step 4 of the quick-rule example above.)
3. Play a hand of each in lesson 3 and count your draws.
"""),
]

LESSON_03 = [
    md("""
# Lesson 3: play a match

**What you will learn**

* how to play a hand against computer opponents, and use the **Hint** to see why a card is
  or is not legal;
* how a **match** adds up the hands until someone reaches 100;
* how to play a whole match in code, to see how scores grow.
"""),
    md("""
## 1. Your table

Click a marked card to play it; an eight opens the suit chooser. Press **Hint** to see every
card's reason. The computer players move after a short pause. When the hand is over, press
**New hand**: the deal moves one seat to the left and the scores add up.
"""),
    code("""
from crazylab.widgets import GameTable

table = GameTable("crazy-eights-classic", opponents=2, seed=3)
table
"""),
    md("The table is also a Python object. This is what you may see (your own cards only):"),
    code(CHECK + """
print("your hand:", " ".join(card["display"] for card in table.view["hand"]))
print("top card: ", table.view["piles"][0]["display"])
print("opponents:", [o["count"] for o in table.view["opponents"]])
"""),
    md("""
## 2. A whole match in code

A `Match` deals hands in turn and adds the winner's points until someone reaches the target.
Here every player plays random legal moves, with a fixed seed:
"""),
    code("""
import pandas as pd

from crazylab import Match

match = Match("crazy-eights-classic", players=3, seed=7).play_random(7)
pd.DataFrame(
    [{"hand": i + 1, "dealer": game.dealer, "winner": game.winner, "ended": game.end_reason,
      **{f"seat {s}": pts for s, pts in enumerate(game.scores)}}
     for i, game in enumerate(match.hands)]
).set_index("hand")
"""),
    code("""
print("final scores:", match.scores, "- the winner is seat", match.winner)
"""),
    md("""
## 3. Other rule sets at the same table

The table works for every rule set: try the quick rule, Crazy Breens (stacks, penalties and
Jack counters) or a music level (pitches instead of suits) from the *Rules* menu above, or
start one directly:
"""),
    code("""
GameTable("crazy-8s-music", opponents=1, seed=2)
"""),
    md("""
## Try it yourself

1. Play three hands with the hint closed. How often did you play an eight early? Was it wise?
2. Change the *Bots* level (when more levels are installed) and compare your results.
3. In section 2, change the seed and count how many hands a match to 100 takes.
"""),
]

PIANO = [
    md("""
# Which keys may follow? The interval explorer

The musical Crazy 8s on a piano keyboard. Choose a level and a top card: the keys that may
follow it light up, with the interval named. Click a key to see its cards, and a card to see
why it fits or not. [Back](index.ipynb)
"""),
    code("""
from crazylab.widgets.music import IntervalExplorer

explorer = IntervalExplorer("crazy-8s-level-1", top="AS")
explorer
"""),
]

NOTEBOOKS = {
    "index.ipynb": (INDEX, False),
    "play.ipynb": (PLAY, False),
    "explore.ipynb": (EXPLORE, False),
    "explain.ipynb": (EXPLAIN, False),
    "score.ipynb": (SCORE, False),
    "piano.ipynb": (PIANO, False),
    "01_crazy_eights_basics.ipynb": (LESSON_01, True),
    "02_classic_vs_quick.ipynb": (LESSON_02, True),
    "03_play_a_match.ipynb": (LESSON_03, True),
}


def build(name: str, cells: list[tuple[str, str]], execute: bool, *,
          widget_state: bool = True) -> Path:
    """Write ``name`` from ``cells``; with ``execute``, run it first so the outputs are saved
    (``widget_state=False`` leaves the widgets' state out: smaller files, blank widgets until
    the notebook runs again)."""
    nb = nbf.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for kind, text in cells:
        nb.cells.append(nbf.v4.new_markdown_cell(text) if kind == "md"
                        else nbf.v4.new_code_cell(text))
    for i, cell in enumerate(nb.cells):  # stable ids keep diffs small
        cell["id"] = f"{Path(name).stem[:20]}-{i:02d}".replace("_", "-")
    path = HERE / name
    if execute:
        NotebookClient(nb, timeout=120, kernel_name="python3", record_timing=False,
                       store_widget_state=widget_state,
                       resources={"metadata": {"path": str(HERE)}}).execute()
    nbf.validate(nb)
    nbf.write(nb, path)
    return path


def main(argv: list[str]) -> None:
    for name, (cells, execute) in NOTEBOOKS.items():
        if argv and not any(a in name for a in argv):
            continue
        print("writing", build(name, cells, execute).relative_to(HERE.parent))


if __name__ == "__main__":
    main(sys.argv[1:])

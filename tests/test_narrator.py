"""One narrator (issue 33): the same move reads the same in the CLI, the explainer, the table
and practice, because all of them tell a hand through :class:`crazylab.Narrator`; events are
fields, and a variant's own events are told by its ``words`` hook."""

from __future__ import annotations

import ast
import contextlib
import io
from pathlib import Path

import pytest

import crazylab as cl
from crazylab.cli import main
from crazylab.engine.events import EVENT_KINDS, WHY_KINDS, Event
from crazylab.engine.rules import PRESETS
from crazylab.examples import game_to_example, load_example
from crazylab.match import Match
from crazylab.seat.view import SeatView
from crazylab.widgets.explainer import changes, new_sentences

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Ana", "Bo", "Cy", "Dee"]


def _game(preset: str, seed: int) -> cl.Game:
    r = cl.rules(preset)
    players = 3 if r.min_players <= 3 <= r.max_players else r.min_players
    game = cl.Game.new(r, players, seed)
    game.play_random(seed)
    return game


def _cli(preset: str, players: int, seed: int) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", preset, "--players", str(players), "--seed", str(seed)]) == 0
    return out.getvalue().splitlines()[:-1]  # the last line is the result's data


def _first_moves(game: cl.Game, moves: int) -> cl.Game:
    """``game`` replayed to its first ``moves`` moves (the explainer steps a long hand's
    start: each step tells its events with the whole hand before them)."""
    short = cl.Game.new(game.rules, game.n, game.seed)
    for m in game.moves[:moves]:
        short.push(m)
    return short


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_one_move_reads_the_same_in_the_cli_the_explainer_and_the_table(preset):
    kinds: set[str] = set()
    for seed in range(3):
        game = _game(preset, seed)
        kinds |= {e.kind for e in game.events}
        told = cl.story(game)
        assert _cli(preset, game.n, seed) == told

        # the explainer, stepping through the same hand saved as a worked example
        start = _first_moves(game, 120)
        frames = load_example(game_to_example(start)).frames()
        stepped = [s.text for f in frames for s in new_sentences(f) if s.text]
        shown = cl.story(start)
        assert stepped[:-1] == shown[:-1] == told[:len(shown) - 1]
        assert shown[-1].startswith(stepped[-1][:-1])  # the end is told with its points
        for before, frame in zip(frames, frames[1:], strict=False):
            said = [s.text for s in new_sentences(frame) if s.text and s.event.kind != "ended"]
            assert changes(before.game, frame)[:len(said)] == said

        # the table, for seat 0 (who reads "you") and every card it may see
        seat = SeatView(game.rules, 0, NAMES[:game.n])
        match = Match(game.rules, game.n, first=game)
        log = seat.view(match, seq=1)["log"]
        mine = cl.story(game, 0, seat.voice_names)
        assert log[:-1] == mine[-len(log):-1]
        assert log[-1].startswith(mine[-1])
        assert any(t.startswith("You ") for t in mine)
    assert {"dealt", "starter", "played", "ended"} <= kinds


def test_a_hidden_card_is_never_told_to_another_seat():
    game = _game("crazy-breens", 4)
    shown = {c.display for e in game.events if e.kind == "drew" and e.seat != 0 for c in e.cards}
    for text in cl.story(game, 0, ["You", "Bo", "Cy"]):
        if " drew " in text and not text.startswith("You"):
            assert not any(c in text.split(" drew ")[1].split(" (")[0] for c in shown), text


def test_every_variant_event_is_told_by_its_words_and_every_why_is_used():
    seen: dict[str, set[str]] = {}
    plays = {"crazy-breens": ({}, {"draw_passing": True, "extra_hits_cost_turns": True}),
             "crazy-eights-classic": ({"action_cards": "2=draw2,A=skip,Q=reverse",
                                       "jump_in": True, "decks": 2},),
             "crazy-8s-music": ({},)}
    for preset, settings in plays.items():
        for options in settings:
            for seed in range(40):
                r = cl.rules(preset, **options)
                g = cl.Game.new(r, 3, seed)
                g.play_random(seed)
                n = cl.Narrator(r, ["You", "Bo", "Cy"], 0)
                for s in n.hand(g):
                    seen.setdefault(s.event.kind, set()).add(s.event.why)
                    assert s.text == "" or s.text[:1].isupper() or s.text[:1] == "🃏", s
                    assert ": " not in s.text[:4] and "_" not in s.text, s  # no raw kind
    kinds = set(seen)
    assert kinds >= set(EVENT_KINDS) - {"buried", "reshuffled", "last_card"}, kinds
    whys = {w for ws in seen.values() for w in ws}
    rare = {"last_card", "said", "missed", "fizzled", "fizzled_again", "forgiven", "no_more",
            "wrapped"}  # told in tests/test_wording.py and the rule tests' positions
    assert whys >= set(WHY_KINDS) - rare, whys


def test_a_variants_words_come_through_its_hook():
    r = cl.rules("crazy-breens")
    you = cl.Narrator(r, ["You", "Bo", "Cy"], 0)
    you.say(Event("played", 1, (cl.card("KS"),)))
    assert you.say(Event("flipped", 1, (cl.card("5D"),))).text == \
        "Bo's K♠ turns 5♦ from the stock onto the pile, as Bo's play."
    plain = cl.Narrator(cl.rules("crazy-eights"))
    assert plain.say(Event("flipped", 1, (cl.card("5D"),))).text == "Seat 1: flipped 5♦."


def test_no_module_outside_the_engine_writes_an_events_sentence():
    """The old second and third narrators are gone: nothing above the engine builds a
    sentence from an event's kind, and no event carries prose."""
    fields = set(Event._fields)
    assert "note" not in fields and {"why", "by", "rules"} <= fields
    offenders = []
    for path in (ROOT / "crazylab").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("crazylab/engine/"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("describe", "note") \
                    and isinstance(node.value, ast.Name) and node.value.id in ("e", "event"):
                offenders.append(f"{rel}:{node.lineno}")
            if isinstance(node, ast.ClassDef) and node.name == "Narrator":
                offenders.append(f"{rel}:{node.lineno} defines a Narrator")
    assert not offenders, offenders


#: the variants' own phases (the core's are play, chain, declare and over)
VARIANT_PHASES = ("PHASE_PENALTY", "PHASE_DROP", "PHASE_LOST", "PHASE_JUMP")
#: the pages' layers: they read a variant's phases and ranks through its words
UI = ("crazylab/widgets", "crazylab/seat", "crazylab/web", "crazylab/tables")


def ui_offences(sources: dict[str, str]) -> list[str]:
    """Where a page's module names a variant's phase (its constant, or its value in a
    comparison) or a Breens rank in a text it shows."""
    out = []
    phases = {"penalty", "drop", "lost", "jump"}
    for rel, text in sources.items():
        tree = ast.parse(text)
        docs = {id(n.value) for n in ast.walk(tree)
                if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in VARIANT_PHASES:
                out.append(f"{rel}:{node.lineno} {node.id}")
            if isinstance(node, ast.ImportFrom) and any(a.name in VARIANT_PHASES
                                                        for a in node.names):
                out.append(f"{rel}:{node.lineno} imports a variant's phase")
            if isinstance(node, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value in phases
                    for c in [node.left, *node.comparators]):
                out.append(f"{rel}:{node.lineno} compares with a phase")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docs \
                    and any(w in node.value for w in ("Jack", "Queen", "King")):
                out.append(f"{rel}:{node.lineno} {node.value[:40]!r}")
    return out


def test_no_page_names_a_variants_phase_or_rank():
    sources = {p.relative_to(ROOT).as_posix(): p.read_text()
               for d in UI for p in (ROOT / d).rglob("*.py")}
    assert ui_offences(sources) == []
    # the check can fail: a page that asks for the Queen's drop itself
    broken = {"page.py": 'if game.phase == "drop":\n    say("Drop one card after the Queen")\n'
                         "from x import PHASE_PENALTY\n"}
    assert len(ui_offences(broken)) == 3

"""Fuzzing the worked-example loader and ``crazylab replay`` (issue 12) with hypothesis:
random bytes, random byte edits and random structural mutations of the shipped examples.

Every input must end in exactly one of three ways, and they must agree:

* the loader raises :class:`ExampleError` (a ``CrazylabError``)  ⇔  replay exits 2 with one
  ``ERROR`` line for the file;
* the loader returns an example whose ``replay()`` is a list of strings: empty ⇔ exit 0,
  not empty ⇔ exit 1 with ``FAIL`` lines;
* never any other exception, never a traceback, never the "bug in crazylab" fallback.

The whole file runs in well under a minute (``max_examples`` below).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crazylab.cli import main
from crazylab.errors import CrazylabError
from crazylab.examples import ExampleError, example_path, list_examples, load_example

pytestmark = pytest.mark.engine

NAMES = list_examples()
TEXTS = {name: example_path(name).read_bytes() for name in NAMES}
DATA = {name: json.loads(TEXTS[name]) for name in NAMES}

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


def run_replay(*paths: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", *paths])
    return code, out.getvalue(), err.getvalue()


def outcome(source: str | dict[str, Any]) -> tuple[int, list[str]]:
    """What the loader makes of ``source``: (2, [message]) or (0 or 1, problems)."""
    try:
        example = load_example(source)
    except ExampleError as e:
        assert isinstance(e, CrazylabError) and isinstance(e, ValueError)
        message = str(e)
        assert message and "\n" not in message
        assert len(message) < 600, message[:300]
        return 2, [message]
    problems = example.replay()
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
    return (1 if problems else 0), problems


def check_agrees(path: Path) -> int:
    """The loader and the command agree on ``path``; the exit code."""
    expected, _ = outcome(str(path))
    code, out, err = run_replay(str(path))
    assert code == expected, (code, expected, out[-500:], err[-500:])
    assert "Traceback" not in err and "bug in crazylab" not in err, err[-1000:]
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("ERROR ")
    elif code == 1:
        assert err == "" and out.startswith("FAIL ")
    else:
        assert err == "" and out.startswith("ok ")
    return code


# -- random bytes -------------------------------------------------------------------------------


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(folder: Path, raw: bytes) -> None:
    path = folder / "bytes.json"
    path.write_bytes(raw)
    assert check_agrees(path) == 2  # random bytes are never a worked example


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_random_byte_edits_of_shipped_examples(folder: Path, name: str, data: Any) -> None:
    raw = bytearray(TEXTS[name])
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        at = data.draw(st.integers(0, len(raw)), label="at")
        kind = data.draw(st.sampled_from(["flip", "insert", "delete", "cut"]), label="kind")
        if kind == "flip" and at < len(raw):
            raw[at] = data.draw(st.integers(0, 255), label="byte")
        elif kind == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=8), label="bytes")
        elif kind == "delete":
            del raw[at:at + data.draw(st.integers(1, 8), label="n")]
        else:
            del raw[at:]
    path = folder / "edited.json"
    path.write_bytes(bytes(raw))
    check_agrees(path)


# -- structural mutations -----------------------------------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**50), 10**50), st.floats(allow_nan=False,
    allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["6H", "8S:D", "JK", "draw", "pass", "end", "2H+2S", "5H@1", "6H@²",
                     "11H", "", "crazy-eights", "crazy-breens", "D", "C#", "OUT", "x" * 300]))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
KEYS = ["title", "rules", "options", "players", "setup", "steps", "seed", "dealer", "match",
        "hands", "stock", "discard", "piles", "to_play", "suit", "pitch", "deck", "say", "move",
        "expect", "legal", "top", "tops", "winner", "scores", "error", "phase", "draw_limit",
        "chain", "0", "1", "colour"]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


#: strings that mean something somewhere in a worked example
WORDS = st.sampled_from([
    *(f"{r}{s}" for r in ("A", "2", "5", "7", "8", "9", "10", "J", "Q", "K") for s in "CDHS"),
    "JK", "draw", "pass", "end", "8S:D", "8C:H", "JK:S", "2H+2S", "AS+AD", "KH+KS", "5H@1",
    "6C@0", "8S@2:E", "6C!", "C", "D", "H", "S", "E", "F#", "Bb", "G", "play", "penalty",
    "drop", "chain", "OUT", "BLOCKED", "VOID", "crazy-eights", "crazy-eights-quick",
    "crazy-breens", "crazy-8s-music", "crazy-8s-level-2", "crazy-8s-level-4"])


def _retype(value: Any, data: Any) -> Any:
    """Another value of the same JSON type: the file stays well-typed, the game changes."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return data.draw(st.integers(-2, 60), label="int")
    if isinstance(value, str):
        return data.draw(WORDS, label="word")
    if isinstance(value, list) and value:
        items = list(value)
        data.draw(st.randoms(use_true_random=False), label="rng").shuffle(items)
        return items[: data.draw(st.integers(0, len(items)), label="keep")]
    return value


def _mutate(doc: Any, data: Any) -> Any:
    """One random change somewhere in ``doc`` (in place when it can)."""
    paths = list(_nodes(doc))[1:] or [()]
    path = data.draw(st.sampled_from(paths), label="path")
    kind = data.draw(st.sampled_from(["retype", "retype", "retype", "replace", "delete", "add",
                                      "wrap", "duplicate"]), label="kind")
    if not path:  # only for an empty document
        return data.draw(JSON_VALUES, label="whole") if kind == "replace" else doc
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if kind == "retype":
        parent[last] = _retype(parent[last], data)
    elif kind == "replace":
        parent[last] = data.draw(JSON_VALUES, label="value")
    elif kind == "delete":
        del parent[last]
    elif kind == "wrap":
        parent[last] = [parent[last]] if data.draw(st.booleans()) else {"x": parent[last]}
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(KEYS), label="key")] = data.draw(JSON_VALUES)
    else:
        parent.insert(last, data.draw(JSON_VALUES, label="item"))
    return doc


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_random_mutations_of_shipped_examples_through_replay(folder: Path, name: str,
                                                             data: Any) -> None:
    doc = copy.deepcopy(DATA[name])
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        doc = _mutate(doc, data)
    path = folder / "mutated.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    check_agrees(path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), st.data())
def test_random_mutations_of_shipped_examples_through_the_loader(name: str, data: Any) -> None:
    """Dicts straight to load_example (no JSON round trip): the same contract."""
    doc = copy.deepcopy(DATA[name])
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        doc = _mutate(doc, data)
    outcome(doc)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["good", "bad", "failing"]), min_size=1, max_size=5))
def test_many_files_the_worst_wins_and_none_stops_the_others(folder: Path,
                                                             kinds: list[str]) -> None:
    files = []
    for i, kind in enumerate(kinds):
        doc = copy.deepcopy(DATA["sr-t4-scoring-64"])
        if kind == "bad":
            doc["players"] = "two"
        elif kind == "failing":
            doc["steps"][-1].setdefault("expect", {})["stock_size"] = 999
        path = folder / f"{i}-{kind}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        files.append(str(path))
    code, out, err = run_replay(*files)
    assert code == max({"good": 0, "failing": 1, "bad": 2}[k] for k in kinds)
    assert err.count("ERROR ") == kinds.count("bad")
    assert out.count("ok   ") == kinds.count("good")
    assert sum(f in out for f in files if "failing" in f) == kinds.count("failing")


def test_every_shipped_example_survives_the_harness(folder: Path) -> None:
    """The harness itself: each shipped file is exit 0 through both routes."""
    assert NAMES, "no shipped example found"
    for name in NAMES:
        assert check_agrees(example_path(name)) == 0, name


def test_an_expected_legal_move_with_a_call_the_rules_cannot_read_is_a_problem_not_a_crash():
    """Found by the mutation test: "8C:H" (a suit call) in a music example's expected legal
    moves raised PitchError out of replay(); it is a reported problem now."""
    data = json.loads(example_path("mu-20-blocked-fewest-cards").read_text())
    data["steps"][2].setdefault("expect", {})["legal"] = ["8C:H"]
    code, problems = outcome(data)
    assert code == 1
    assert any("cannot read" in p and "'H' is not a pitch" in p for p in problems), problems

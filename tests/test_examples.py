"""Every shipped worked example replays; bad files are refused whole with exit code 2."""

import json
import re

import pytest
from spec_paths import notation

import crazylab as cl
from crazylab.cli import main
from crazylab.engine.narrator import story
from crazylab.examples import (
    ExampleError,
    example_path,
    game_to_example,
    list_examples,
    load_example,
    load_game,
)

pytestmark = pytest.mark.engine


@pytest.mark.parametrize("name", list_examples())
def test_shipped_example_replays(name):
    example = load_example(name)
    assert example.steps, "an example with no steps shows nothing"
    assert example.replay() == []


def test_every_rule_set_of_the_seeds_has_examples():
    names = list_examples()
    for prefix in ("sr-t", "ap-t"):
        assert sum(n.startswith(prefix) for n in names) >= 8


@pytest.mark.parametrize("vector", [f"SR-T{i}" for i in range(1, 11)]
                         + [f"AP-T{i}" for i in range(1, 9)])
def test_every_test_vector_has_a_file(vector):
    prefix, number = vector.lower().rsplit("-t", 1)
    hits = [n for n in list_examples()
            if n.startswith(f"{prefix}-") and re.search(rf"-t{number}(?!\d)", n)]
    assert hits, f"no worked example for {vector}"


def test_frames_step_through_a_file():
    example = load_example("sr-t1-t2-worked-turn-eight-calls-diamonds")
    frames = example.frames()
    assert len(frames) == len(example.steps) + 1
    assert frames[0].game.top == cl.card("6H")
    refused = [f for f in frames if f.error]
    assert refused and "matches neither" in refused[0].error
    called = frames[3]
    assert called.game.suit == "D"
    assert any(e.kind == "played" for e in called.new_events)


def _write(tmp_path, data, name="x.json"):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(p)


GOOD = {"rules": "crazy-eights", "players": 2,
        "setup": {"hands": [["6C"], ["3H"]], "stock": ["2H"], "discard": ["6H"], "to_play": 0},
        "steps": [{"move": "6C", "expect": {"over": True, "winner": 0}}]}


def test_replay_exit_0(tmp_path, capsys):
    assert main(["replay", _write(tmp_path, GOOD)]) == 0


def test_replay_exit_1_names_file_step_and_difference(tmp_path, capsys):
    bad = json.loads(json.dumps(GOOD))
    bad["steps"] = [{"move": "6C"}, {"expect": {"winner": 1}}]
    path = _write(tmp_path, bad)
    assert main(["replay", path]) == 1
    out = capsys.readouterr().out
    assert path in out and "step 2: expected winner 1, got 0" in out


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: {**d, "rules": "crazy-nines"}, "unknown rule set"),
    (lambda d: {**d, "colour": "red"}, "unknown key"),
    (lambda d: {**d, "setup": {**d["setup"], "hands": [["6C", "11H"], ["3H"]]}}, "'11H'"),
    (lambda d: {**d, "setup": {**d["setup"], "hands": [["6C", "6C"], ["3H"]]}}, "2 times"),
    (lambda d: {**d, "setup": {**d["setup"], "hands": [["JK"], ["3H"]]}}, "not in the"),
    (lambda d: {**d, "players": 7}, "2-5 players"),
    (lambda d: {**d, "options": {"draw_limit": 0}}, "draw_limit"),
    (lambda d: {**d, "steps": [{"move": "6C", "expect": {"colour": 1}}]}, "unknown expectation"),
    (lambda d: {**d, "steps": [{"move": "6Z"}]}, "not a move"),
    (lambda d: {k: v for k, v in d.items() if k != "players"}, "'players' is required"),
    (lambda d: {**d, "setup": {**d["setup"], "hands": [["6C"]]}}, "hands lists 1"),
])
def test_malformed_or_impossible_files_exit_2(tmp_path, capsys, mutate, message):
    data = mutate(json.loads(json.dumps(GOOD)))
    path = _write(tmp_path, data)
    with pytest.raises(ExampleError) as e:
        load_example(path)
    assert message.lower() in str(e.value).lower()
    assert main(["replay", path]) == 2
    assert message.lower() in capsys.readouterr().err.lower()


def test_the_notation_page_example_differs_only_by_the_voluntary_draw():
    """The notation page's example (crazylab/rulebook/notation.md) omits `draw`, but SR-Q2
    (voluntary draw, default on) makes it legal while the stock has cards; with voluntary_draw
    off the file holds verbatim."""
    text = notation()
    data = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    problems = load_example(data).replay()
    assert len(problems) == 1 and "unexpected ['draw']" in problems[0]
    data["options"] = {"voluntary_draw": False}
    assert load_example(data).replay() == []


@pytest.mark.parametrize("rules", ["crazy-eights", "crazy-eights-quick", "crazy-8s-level-2"])
def test_save_and_load_round_trip(tmp_path, rules):
    game = cl.Game.new(rules, 3, seed=42)
    for _ in range(25):
        if game.over:
            break
        game.push(game.legal_moves()[0])
    path = tmp_path / "saved.json"
    cl.examples.save_game(game, path)
    loaded = load_game(str(path))
    assert loaded.fingerprint() == game.fingerprint()
    assert story(loaded) == story(game)


def test_a_tampered_save_is_refused_whole(tmp_path):
    game = cl.Game.new("crazy-eights", 2, seed=3)
    game.push(game.legal_moves()[0])
    data = game_to_example(game)
    data["steps"][0]["move"] = "8S:Q"
    with pytest.raises(ExampleError):
        load_game(data)


def test_shipped_files_are_json_with_titles():
    assert list_examples(), "no shipped example found"
    for name in list_examples():
        data = json.loads(example_path(name).read_text())
        assert data.get("title"), name

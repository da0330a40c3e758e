"""`crazylab replay` and the worked-example loader on bad files (issue 12): exit 0 when every
expectation holds, 1 when one fails, 2 when a file is unusable; never a traceback, whatever the
bytes; one bad file does not stop the others; messages quote at most ~80 characters of input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from crazylab import PRESETS
from crazylab.cli import main
from crazylab.errors import CrazylabError
from crazylab.examples import (
    SCHEMA_PATH,
    ExampleError,
    example_path,
    list_examples,
    load_example,
    schema,
)

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

GOOD: dict[str, Any] = {
    "rules": "crazy-eights", "players": 2,
    "setup": {"hands": [["6C"], ["3H"]], "stock": ["2H"], "discard": ["6H"], "to_play": 0},
    "steps": [{"move": "6C", "expect": {"over": True, "winner": 0}}]}

#: the longest message line a bad file may print (the file name, the problem, quoted input)
MAX_LINE = 400


def good() -> dict[str, Any]:
    return json.loads(json.dumps(GOOD))


def write(tmp_path: Path, content: Any, name: str = "x.json") -> str:
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif isinstance(content, str):
        p.write_text(content, encoding="utf-8")
    else:
        p.write_text(json.dumps(content), encoding="utf-8")
    return str(p)


def replay(capsys: pytest.CaptureFixture[str], *paths: str) -> tuple[int, str, str]:
    code = main(["replay", *paths])
    out, err = capsys.readouterr()
    return code, out, err


def with_(**changes: Any) -> dict[str, Any]:
    d = good()
    d.update(changes)
    return d


def with_setup(**changes: Any) -> dict[str, Any]:
    d = good()
    d["setup"].update(changes)
    return d


def with_expect(**expect: Any) -> dict[str, Any]:
    d = good()
    d["steps"] = [{"move": "6C", "expect": expect}]
    return d


# -- the schema -------------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema_shipped_with_the_package() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    assert SCHEMA_PATH.parent == example_path("x").parent
    data = schema()
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(data)
    assert "worked-example.schema" not in list_examples()


def test_every_shipped_example_validates_against_the_schema() -> None:
    """With the plain jsonschema validator, as an editor would check them."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    assert list_examples(), "no shipped example found"
    for name in list_examples():
        data = json.loads(example_path(name).read_text(encoding="utf-8"))
        errors = [e.message[:120] for e in validator.iter_errors(data)]
        assert errors == [], name


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_saved_game_validates_against_the_schema(tmp_path: Path, preset: str) -> None:
    import crazylab as cl

    jsonschema = pytest.importorskip("jsonschema")
    game = cl.Game.new(cl.rules(preset, joker_draw=3), 3, seed=4)
    game.play_random(4)
    path = tmp_path / "saved.json"
    cl.examples.save_game(game, path)
    jsonschema.validate(json.loads(path.read_text()), schema())
    assert main(["replay", str(path)]) == 0


def test_a_file_may_name_its_schema_for_editors(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, with_(**{"$schema": "../worked-example.schema.json"}))
    assert replay(capsys, path)[0] == 0


# -- exit codes -------------------------------------------------------------------------------


def test_exit_0_when_every_expectation_holds(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(capsys, write(tmp_path, GOOD))
    assert (code, err) == (0, "")
    assert out.startswith("ok ")


def test_exit_1_when_an_expectation_fails(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, with_expect(over=True, winner=1))
    code, out, _ = replay(capsys, path)
    assert code == 1
    assert f"FAIL {path}: step 1: expected winner 1, got 0" in out


@pytest.mark.parametrize("expect", [
    {"winner": "zero"}, {"over": "yes"}, {"to_play": 1.0}, {"hand_sizes": "0,1"},
    {"stock_size": -1}, {"scores": [0, "1"]}, {"reason": "WON"}, {"error": 1},
    {"top": 6}, {"tops": "6C"}, {"hands": {"zero": ["3H"]}}, {"winners": [0.0]},
])
def test_an_ill_typed_expectation_is_a_bad_file_not_a_failed_expectation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], expect: dict[str, Any]) -> None:
    code, out, err = replay(capsys, write(tmp_path, with_expect(**expect)))
    assert code == 2, (out, err)
    assert err.startswith("ERROR ") and "step 1" in err and out == ""


@pytest.mark.parametrize("expect", [
    {"to_play": 2}, {"winner": 5}, {"hands": {"2": []}}, {"hand_sizes": [0, 1, 2]},
    {"scores": [0]}, {"winners": [0, 9]}, {"tops": ["6C", "6H"]}, {"suit": "X"},
    {"legal": ["6C", "6Z"]}, {"top": "11H"},
])
def test_an_expectation_that_cannot_hold_in_this_game_is_a_bad_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], expect: dict[str, Any]) -> None:
    """A seat that does not exist, a list of the wrong length, a card or suit that is not one."""
    code, _, err = replay(capsys, write(tmp_path, with_expect(**expect)))
    assert code == 2
    assert "step 1" in err


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "[" * 5000, "deep.json")
    failing = write(tmp_path, with_expect(winner=1), "failing.json")
    fine = write(tmp_path, GOOD, "fine.json")
    directory = str(tmp_path)
    code, out, err = replay(capsys, bad, directory, failing, fine)
    assert code == 2
    assert f"FAIL {failing}" in out and f"ok   {fine}" in out
    assert err.count("ERROR ") == 2 and "deep.json" in err and "folder" in err
    code, out, _ = replay(capsys, failing, fine)
    assert code == 1 and f"ok   {fine}" in out


def test_no_file_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert replay(capsys)[0] == 2


# -- what issue 12 found: every case is a clean exit 2 ----------------------------------------

HUGE_INT = "1" + "0" * 4400

BAD_FILES: dict[str, tuple[Any, str]] = {
    # bytes and JSON
    "nested 1,000 deep": ("[" * 1000 + "]" * 1000, "nested"),
    "nested 100,000 deep": ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested"),
    "nested 30 deep, valid JSON": ({"rules": "crazy-eights", "players": 2, "seed": 1,
                                    "title": json.loads("[" * 30 + "]" * 30)}, "nested"),
    "non-UTF-8 bytes": (b'{"rules": "crazy-eights\xff", "players": 2}', "UTF-8"),
    "Latin-1 text": ('{"title": "é"}'.encode("latin-1"), "UTF-8"),
    "empty file": ("", "not valid JSON"),
    "not JSON": ("{not json", "not valid JSON"),
    "NaN": ('{"rules": "crazy-eights", "players": 2, "seed": NaN}', "NaN"),
    "seed Infinity": ('{"rules": "crazy-eights", "players": 2, "seed": Infinity}', "Infinity"),
    "seed -Infinity": ('{"rules": "crazy-eights", "players": 2, "seed": -Infinity}', "Infinity"),
    "seed 1e400": ('{"rules": "crazy-eights", "players": 2, "seed": 1e400}', "too large"),
    "an integer of 4,401 digits": ('{"rules": "crazy-eights", "players": 2, "seed": '
                                   + HUGE_INT + "}", "digits"),
    "a negative integer of 4,401 digits": ('{"rules": "crazy-eights", "players": 2, "seed": -'
                                           + HUGE_INT + "}", "digits"),
    "a repeated key": ('{"rules": "crazy-eights", "rules": "crazy-breens", "players": 2, '
                       '"seed": 1}', "twice"),
    "a list, not an object": ("[1, 2]", "must be an object"),
    "a string, not an object": ('"crazy-eights"', "must be an object"),
    # the top level
    "rules a list": (with_(rules=["crazy-eights"]), "rules must be text"),
    "rules an object": (with_(rules={"name": "crazy-eights"}), "rules must be text"),
    "rules unknown": (with_(rules="crazy-nines"), "unknown rule set"),
    "options a list": (with_(options=[]), "options must be an object"),
    "options null": (with_(options=None), "options must be an object"),
    "option value an object": (with_(options={"draw_limit": {"n": 2}}), "draw_limit"),
    "option unknown": (with_(options={"colour": "red"}), "colour"),
    "option value out of range": (with_(options={"draw_limit": 0}), "draw_limit"),
    "removed_ranks a number": (with_(options={"removed_ranks": 5}), "removed_ranks"),
    "players a float": (with_(players=2.0), "players must be a whole number"),
    "players a string": (with_(players="2"), "players must be a whole number"),
    "players true": (with_(players=True), "players must be a whole number"),
    "players 7": (with_(players=7), "2-5 players"),
    "players missing": ({k: v for k, v in GOOD.items() if k != "players"},
                        "'players' is required"),
    "seed a list": (with_(seed=[1]), "seed must be a whole number"),
    "seed an object": (with_(seed={"n": 1}), "seed must be a whole number"),
    "seed a float": (with_(seed=1.7), "seed must be a whole number"),
    "seed a string": (with_(seed="abc"), "seed must be a whole number"),
    "dealer a string": (with_(dealer="0"), "dealer must be a whole number"),
    "dealer a list": (with_(dealer=[0]), "dealer must be a whole number"),
    "dealer a float": (with_(dealer=1.5), "dealer must be a whole number"),
    "dealer not a seat": (with_(dealer=5), "dealer"),
    "no setup and no seed": ({"rules": "crazy-eights", "players": 2}, "'setup' or a 'seed'"),
    "unknown key": (with_(colour="red"), "unknown key"),
    "title a list": (with_(title=["x"]), "title must be text"),
    "steps an object": (with_(steps={"move": "6C"}), "steps must be a list"),
    "a step a string": (with_(steps=["6C"]), "step 1 must be an object"),
    # match
    "match a number": (with_(match=5), "match must be an object"),
    "match a list": (with_(match=[95, 40]), "match must be an object"),
    "match scores a string": (with_(match={"scores": "95,40"}), "match.scores must be a list"),
    "match scores of strings": (with_(match={"scores": ["95", "40"]}),
                                "must be a whole number, not '"),
    "match scores one seat": (with_(match={"scores": [95]}), "match.scores"),
    "match target a string": (with_(match={"target": "100"}), "match.target"),
    "match target 0": (with_(match={"target": 0}), "match.target must be at least 1"),
    "match unknown key": (with_(match={"goal": 100}), "unknown key(s) in match 'goal'"),
    # setup
    "setup a list": (with_(setup=[["6C"], ["3H"]]), "setup must be an object"),
    "hands an object": (with_setup(hands={"0": ["6C"]}), "setup.hands must be a list"),
    "a hand a string": (with_setup(hands=["6C", ["3H"]]), "setup.hands[0] must be a list"),
    "a card a number": (with_setup(hands=[[6], ["3H"]]), "setup.hands[0][0] must be text"),
    "a card unknown": (with_setup(hands=[["6C", "11H"], ["3H"]]), "'11H'"),
    "a card twice": (with_setup(hands=[["6C", "6C"], ["3H"]]), "2 times"),
    "a joker without jokers": (with_setup(hands=[["JK"], ["3H"]]), "not in the"),
    "one hand for two seats": (with_setup(hands=[["6C"]]), "hands lists 1"),
    "to_play a float": (with_setup(to_play=1.0), "to_play must be a whole number"),
    "to_play -1": (with_setup(to_play=-1), "to_play must be at least 0"),
    "to_play not a seat": (with_setup(to_play=2), "to_play"),
    "stock a string": (with_setup(stock="2H"), "setup.stock must be a list"),
    "unknown setup key": (with_setup(colour="red"), "unknown setup key"),
    "deck with hands": (with_setup(deck=["2H"]), "cannot be combined"),
    # steps and expectations
    "move a number": (with_(steps=[{"move": 6}]), "step 1: move must be text"),
    "move 6H@²": (with_(steps=[{"move": "6H@²"}]), "6H@²"),
    "move not a move": (with_(steps=[{"move": "6Z"}]), "not a move"),
    "expect a list": (with_(steps=[{"move": "6C", "expect": [1]}]), "expect must be an object"),
    "expect.hands a list": (with_expect(hands=[["3H"]]), "expect.hands must be an object"),
    "expect.tops a number": (with_expect(tops=6), "expect.tops must be a list"),
    "unknown expectation": (with_expect(colour=1), "step 1: unknown expectation(s) 'colour'"),
    "unknown step key": (with_(steps=[{"mvoe": "6C"}]), "step 1: unknown key(s) 'mvoe'"),
    "say a number": (with_(steps=[{"say": 1}]), "step 1: say must be text"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_exits_2_with_one_clear_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               case: str) -> None:
    content, message = BAD_FILES[case]
    path = write(tmp_path, content)
    with pytest.raises(ExampleError) as e:
        load_example(path)
    assert isinstance(e.value, CrazylabError) and isinstance(e.value, ValueError)
    assert message.lower() in str(e.value).lower()
    code, out, err = replay(capsys, path)
    assert code == 2 and out == ""
    assert err.startswith(f"ERROR {path}") and message.lower() in err.lower()
    assert err.count("\n") == 1 and len(err) < MAX_LINE, err[:500]
    assert "Traceback" not in err


@pytest.mark.parametrize("case", ["float seat", "float seed", "option a float"])
def test_floats_where_whole_numbers_go_are_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   case: str) -> None:
    """The issue found float seeds and seats accepted (exit 0): 1.7 was truncated to 1."""
    content = {"float seat": with_setup(to_play=0.0), "float seed": with_(seed=1.0),
               "option a float": with_(options={"draw_limit": 2.5})}[case]
    assert replay(capsys, write(tmp_path, content))[0] == 2


@pytest.mark.parametrize("changes", [
    pytest.param({"options": {"chain": "no"}}, id="chain-no"),
    pytest.param({"options": {"draw_limit": 1_000_000}}, id="draw_limit-1000000"),
    pytest.param({"options": {"specials": "x"}}, id="specials-x"),
    pytest.param({"options": {"max_reshuffles": 10**9}}, id="max_reshuffles-1e9"),
])
def test_option_values_the_typed_option_schema_refuses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, Any]) -> None:
    assert replay(capsys, write(tmp_path, with_(**changes)))[0] == 2


@pytest.mark.parametrize("key", ["rules", "title", "move", "card", "option", "expect-key"])
def test_messages_quote_at_most_about_80_characters_of_the_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str) -> None:
    big = "x" * 1_000_000
    content = {
        "rules": with_(rules=big), "title": with_(title=[big]),
        "move": with_(steps=[{"move": big}]), "card": with_setup(hands=[[big], ["3H"]]),
        "option": with_(options={big[:5000]: 1}), "expect-key": with_expect(**{big: 1}),
    }[key]
    path = write(tmp_path, content)
    code, _, err = replay(capsys, path)
    assert code == 2
    said = err.replace(str(path), "FILE")  # the file's own name is as long as its folder
    assert len(said) < MAX_LINE, f"{len(said)} characters: {said[:300]}"
    assert "x" * 100 not in err


def test_paths_that_are_not_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = {str(tmp_path): "folder", str(tmp_path / "missing.json"): "no such file",
             "/dev/null": "not a regular file", "a\0b.json": "not a usable path",
             "x" * 5000 + ".json": "not a usable path"}
    for path, message in cases.items():
        code, _, err = replay(capsys, path)
        assert code == 2 and message in err, (path[:40], err)
        assert len(err) < MAX_LINE


def test_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = write(tmp_path, GOOD)
    os.chmod(path, 0)
    code, _, err = replay(capsys, path)
    assert code == 2 and "cannot read it" in err


def test_a_lone_surrogate_in_a_file_prints_as_an_escape(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, '{"rules": "crazy-eights", "players": 2, "seed": 1, '
                           '"steps": [{"move": "\\ud800"}]}')
    code, _, err = replay(capsys, path)
    assert code == 2 and "\\ud800" in err


def test_load_example_refuses_what_is_not_a_name_path_or_dict() -> None:
    for source in (None, 5, ["x"]):
        with pytest.raises(ExampleError):
            load_example(source)  # type: ignore[arg-type]


def test_a_dict_with_python_values_json_cannot_hold() -> None:
    """Dicts given to load_example directly: tuples, sets, huge ints, self-reference."""
    loop: dict[str, Any] = with_()
    loop["title"] = loop
    for data in (with_(players=10**5000), with_setup(to_play=10**5000),
                 with_(steps=({"move": "6C"},)), with_(title={"a"}), loop,
                 with_(players=float("nan"))):
        with pytest.raises(ExampleError) as e:
            load_example(data)
        assert len(str(e.value)) < MAX_LINE


def test_a_refused_file_leaves_no_trace_and_the_next_load_works(tmp_path: Path) -> None:
    with pytest.raises(ExampleError):
        load_example(write(tmp_path, with_(players="2"), "bad.json"))
    assert load_example(write(tmp_path, GOOD, "good.json")).replay() == []


def test_the_command_prints_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    files = [write(tmp_path, content, f"{i}.json")
             for i, (content, _) in enumerate(BAD_FILES.values())]
    files.append(write(tmp_path, GOOD, "good.json"))
    proc = subprocess.run([sys.executable, "-m", "crazylab", "replay", *files],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("ERROR ") == len(BAD_FILES)
    assert "ok   " in proc.stdout


def test_an_unforeseen_error_is_reported_as_a_bug_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The last line of defence: a bug in crazylab is exit 2 and one line, not a traceback."""
    import crazylab.examples as examples

    def broken(self: Any) -> list[str]:
        raise KeyError("boom")

    monkeypatch.setattr(examples.Example, "replay", broken)
    code, _, err = replay(capsys, write(tmp_path, GOOD), write(tmp_path, GOOD, "y.json"))
    assert code == 2 and err.count("bug in crazylab") == 2 and "KeyError" in err


def test_expecting_no_pitch_while_one_is_in_force_is_a_failed_expectation() -> None:
    """Found by tests/test_fuzz_examples.py: `"pitch": null` crashed the check (PitchError)
    when a pitch was in force, instead of reporting the difference."""
    name = next(n for n in list_examples() if n.startswith("mu-")
                and any(s.get("expect", {}).get("pitch") for s in
                        json.loads(example_path(n).read_text())["steps"]))
    data = json.loads(example_path(name).read_text())
    step = next(i for i, s in enumerate(data["steps"]) if s.get("expect", {}).get("pitch"))
    data["steps"][step]["expect"]["pitch"] = None
    problems = load_example(data).replay()
    assert any(p.startswith(f"step {step + 1}: expected pitch None, got ") for p in problems)


def test_a_reader_that_stops_early_does_not_change_the_exit_code(tmp_path: Path) -> None:
    """`crazylab replay --all bad.json | head -1`: no BrokenPipeError traceback, and the exit
    code still says what the files hold (2: the bad file is checked after the pipe closed)."""
    bad = write(tmp_path, with_(players="two"))
    fine = write(tmp_path, GOOD, "f" * 200 + ".json")  # 1,000 lines of 250 bytes: over the
    files = [fine] * 1000 + [bad]                        # pipe's buffer, so writes must fail
    proc = subprocess.Popen([sys.executable, "-m", "crazylab", "replay", *files],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().startswith(b"ok ")
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    assert err.count(b"ERROR ") == 1


@pytest.mark.parametrize("command", ["rules", "play"])
def test_rules_and_play_quote_an_unknown_rule_set_short(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "x" * 1_000_000]) == 2
    err = capsys.readouterr().err
    assert "unknown rule set" in err and len(err) < MAX_LINE


def test_shipped_examples_load_without_jsonschema_but_other_files_need_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The static site's browser Python has no jsonschema (its wheels are not pure): the
    shipped files, schema-checked by the tests, still load; anything else is refused."""
    import importlib.util

    import crazylab.examples as ex

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "jsonschema" else real(name, *a))
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # import jsonschema fails
    ex._validator.cache_clear()
    try:
        assert ex.load_example("sr-t4-scoring-64").replay() == []
        with pytest.raises(ex.ExampleError, match="jsonschema"):
            ex.load_example(json.loads(ex.example_path("sr-t4-scoring-64").read_text()))
    finally:
        ex._validator.cache_clear()

"""Papercuts of issue 24, each as a user meets it: the README's slow ``mc`` example shows a
progress bar, ``--out`` files get the usual permissions, ``Match.play_random(seed=)`` works as
``Game.play_random(seed=)`` does, the README says what ``game_to_example`` and ``save_game``
do, and rule sets and observations print as one short line."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

import crazylab as cl
from crazylab.examples import game_to_example, load_game, save_game
from crazylab.match import Match, MatchError

pytestmark = pytest.mark.oldest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


# -- a progress bar for every run that takes a while --------------------------------------------


def _bar_shown(capsys: pytest.CaptureFixture[str], **kwargs: object) -> bool:
    pytest.importorskip("tqdm")
    pytest.importorskip("pandas")
    df = cl.simulate(**{"workers": 1, **kwargs})  # type: ignore[arg-type]
    assert len(df) == kwargs["games"]
    return "hands:" in capsys.readouterr().err


def test_the_readme_mc_example_would_show_a_progress_bar(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The README's lab example (1000 hands with an mc bot, about two minutes) shows the bar:
    here the same bots on 3 hands, and 600 random hands; 100 random hands (a blink) do not."""
    example = re.search(r"df = cl\.simulate\((.*?)\)\s", README, re.S)
    assert example and '"mc"' in example.group(1) and "games=500" in example.group(1)
    assert _bar_shown(capsys, rules="crazy-eights-quick", players=3,
                      bots=["mc:2", "rules", "random"], games=3, seed=1)
    assert _bar_shown(capsys, rules="crazy-eights", games=600, seed=1)
    assert not _bar_shown(capsys, rules="crazy-eights", games=100, seed=1)
    assert not _bar_shown(capsys, rules="crazy-eights-quick", bots=["mc:2", "random"],
                          games=3, seed=1, progress=False)
    assert _bar_shown(capsys, rules="crazy-eights", games=5, seed=1, progress=True)


# -- files with the usual permissions -----------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
@pytest.mark.parametrize("name", ["hands.csv", "hands.parquet"])
def test_out_files_get_the_usual_permissions(tmp_path: Path, name: str) -> None:
    pytest.importorskip("pyarrow")
    from crazylab.cli import main

    out = tmp_path / name
    assert main(["simulate", "--games", "5", "--no-progress", "--out", str(out)]) == 0
    assert _mode(out) == 0o644
    os.umask(0o027)
    assert main(["simulate", "--games", "5", "--no-progress", "--out", str(out)]) == 0
    assert _mode(out) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary file left


@pytest.mark.usefixtures("umask")
def test_dataset_part_files_get_the_usual_permissions(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    cl.simulate(games=40, workers=1, progress=False, out=tmp_path / "ds")
    modes = {_mode(p) for p in (tmp_path / "ds").iterdir()}
    assert modes == {0o644}


# -- Match.play_random(seed=) -------------------------------------------------------------------


def test_match_play_random_takes_seed_like_game_play_random() -> None:
    by_keyword = Match("crazy-eights-classic", players=2, seed=1).play_random(seed=5)
    by_position = Match("crazy-eights-classic", players=2, seed=1).play_random(5)
    assert by_keyword.scores == by_position.scores and any(by_keyword.scores)
    assert [h.events for h in by_keyword.hands] == [h.events for h in by_position.hands]
    assert by_keyword.over
    game = cl.Game.new("crazy-eights", 2, seed=1).play_random(seed=5)
    assert game.over and game.events == cl.Game.new("crazy-eights", 2, seed=1).play_random(
        5).events
    with pytest.raises(MatchError, match="not both"):
        Match("crazy-eights-classic", players=2, seed=1).play_random(5, seed=5)
    with pytest.raises(MatchError):
        Match("crazy-eights-classic", players=2, seed=1).play_random(seed="five")  # type: ignore[arg-type]


# -- the README on saving games -----------------------------------------------------------------


def test_the_readme_says_what_game_to_example_and_save_game_do(tmp_path: Path) -> None:
    sentence = README[README.index("game_to_example(game)"):][:300]
    assert "returns" in sentence and "dict" in sentence and "save_game" in sentence
    assert "saves a game as a worked-example file" not in README
    game = cl.Game.new("crazy-eights", 2, seed=3).play_random(3)
    example = game_to_example(game)
    assert isinstance(example, dict) and list(tmp_path.iterdir()) == []  # nothing written
    path = tmp_path / "my-game.json"
    assert save_game(game, path) is None
    assert json.loads(path.read_text()) == json.loads(json.dumps(example))
    assert load_game(path).events == game.events


# -- short reprs --------------------------------------------------------------------------------


def test_rule_sets_print_as_one_short_line_and_compare_as_before() -> None:
    for name in cl.PRESETS:
        r = cl.rules(name)
        text = repr(r)
        assert text == f"RuleSet({name!r})" and str(r) == text
    house = cl.rules("crazy-eights-quick", draw_limit=2, voluntary_draw=True)
    assert repr(house) == "RuleSet('crazy-eights-quick', draw_limit=2, voluntary_draw=True)"
    many = cl.rules("crazy-eights", draw_limit=2, voluntary_draw=True, jump_in=True,
                    last_card_call=True, last_card_penalty=3, joker_points=40, jokers=2,
                    max_reshuffles=5)
    assert len(repr(many)) < 120 and "8 house options" in repr(many)
    assert "\n" not in repr(many)
    # == and the fields are what they were
    assert house == cl.rules("crazy-eights-quick", voluntary_draw=True, draw_limit=2)
    assert house != cl.rules("crazy-eights-quick", draw_limit=2)
    assert house.draw_limit == 2 and house.options()["voluntary_draw"] is True
    assert dataclasses.replace(house) == house


def test_observations_print_as_one_short_line_and_compare_as_before() -> None:
    for name in cl.PRESETS:
        game = cl.Game.new(name, 2, seed=2)
        seen = []
        while True:
            obs = game.observation(game.to_play)
            text = repr(obs)
            assert len(text) < 120 and "\n" not in text, text
            n = len(obs.hand)
            assert text.startswith(f"Observation(seat {obs.seat}, {n} card")
            assert f"{len(obs.legal)} legal move" in text and str(obs.top) in text
            assert obs == game.observation(game.to_play) and dataclasses.replace(obs) == obs
            seen.append(obs)
            if game.over or len(seen) > 40:
                break
            game.push(obs.legal[0])
        assert len({repr(o) for o in seen}) > 1  # it says what changed
    first = cl.Game.new("crazy-eights", 2, seed=2)
    obs = first.observation(first.to_play)
    assert obs.hand and obs.legal and obs.rules == cl.rules("crazy-eights")

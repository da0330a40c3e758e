"""The command line on a bad day (issue 25 item 6): a full disk or a folder that vanishes while
``--out`` is written gives one line on stderr, exit 1 and no partial file (the old file, if
any, is kept whole); ``--out`` takes its suffix in any case; a rule set whose hands never end
is one line, not a traceback."""

from __future__ import annotations

import errno
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crazylab import cli, sim
from crazylab.playout import EndlessHand

pytestmark = pytest.mark.oldest

RUN = ["simulate", "crazy-eights-quick", "--games", "300", "--workers", "1", "--no-progress"]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """An 8 KiB tmpfs (room for the check file, not for 300 hands); skipped where it cannot be
    mounted (not root, no tmpfs): the patched test below covers the same path."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(folder)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.parametrize("name", ["hands.csv", "hands.PARQUET"])
def test_a_full_disk_is_one_line_exit_1_and_no_partial_file(
        tiny_disk: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main([*RUN, "--out", str(tiny_disk / name)])
    line = _one_line(capsys.readouterr().err)
    assert code == 1
    assert "No space left on device" in line and "nothing was written" in line
    assert _leftovers(tiny_disk) == []  # no partial file, no temporary


@pytest.mark.parametrize("name", ["hands.csv", "hands.parquet"])
def test_a_writer_failing_midway_keeps_the_old_file(
        tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The same without a tmpfs: the writer writes part of the file, then the disk is full."""
    import pandas as pd

    out = tmp_path / name
    out.write_bytes(b"the old results\n")

    def half_then_full(self: Any, path: Any, *args: Any, **kwargs: Any) -> None:
        Path(path).write_bytes(b"hand,seed\n0,")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_full)
    monkeypatch.setattr(pd.DataFrame, "to_parquet", half_then_full)
    code = cli.main([*RUN, "--out", str(out)])
    line = _one_line(capsys.readouterr().err)
    assert code == 1 and "No space left on device" in line
    assert out.read_bytes() == b"the old results\n"  # whole, as it was
    assert _leftovers(tmp_path) == [name]


def test_a_folder_that_vanishes_during_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    real = cli.simulate

    def then_remove(*args: Any, **kwargs: Any) -> Any:
        df = real(*args, **kwargs)
        shutil.rmtree(folder)  # someone cleaned up while the hands were played
        return df

    monkeypatch.setattr(cli, "simulate", then_remove)
    code = cli.main([*RUN, "--out", str(folder / "hands.csv")])
    line = _one_line(capsys.readouterr().err)
    assert code == 1 and "cannot write" in line and "No such file or directory" in line
    assert not folder.exists()


@pytest.mark.parametrize(("name", "kind"), [("X.CSV", "csv"), ("x.Csv", "csv"),
                                            ("X.PARQUET", "parquet"), ("x.Parquet", "parquet")])
def test_the_suffix_is_read_in_any_case(tmp_path: Path, name: str, kind: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    out = tmp_path / name
    assert cli.main([*RUN[:3], "20", *RUN[4:], "--out", str(out)]) == 0
    df = pd.read_csv(out) if kind == "csv" else pd.read_parquet(out)
    assert len(df) == 20 and list(df.columns[:3]) == ["hand", "seed", "rules"]
    assert _leftovers(tmp_path) == [name]
    assert f"wrote 20 hands to {out}" in capsys.readouterr().out


@pytest.mark.parametrize("command", [
    ["play", "crazy-8s-level-1", "--option", "removed_ranks=none"],
    ["simulate", "crazy-8s-level-1", "--option", "removed_ranks=none", "--games", "5",
     "--workers", "1", "--no-progress"],
])
def test_a_rule_set_that_never_ends_is_one_line(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Refused by the engine's option check (a bad command line, exit 2), or, should one slip
    through, stopped at the move limit (exit 1): one line either way."""
    code = cli.main(command)
    line = _one_line(capsys.readouterr().err)
    assert code in (1, 2) and "removed_ranks" in line or "never" in line


def test_a_hand_that_does_not_end_is_exit_1(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The exit-1 path itself, for play and simulate."""
    def endless(*_: Any, **__: Any) -> Any:
        raise EndlessHand("the hand did not end within 100000 moves: it may never end")

    monkeypatch.setattr(sim, "play_dealt", endless)
    assert cli.main([*RUN[:3], "3", *RUN[4:]]) == 1
    assert "may never end" in _one_line(capsys.readouterr().err)
    from crazylab.engine.game import Game

    monkeypatch.setattr(Game, "play_random", endless)
    assert cli.main(["play", "crazy-eights"]) == 1
    assert "may never end" in _one_line(capsys.readouterr().err)


def test_replay_starts_without_the_iri_grammar() -> None:
    """``crazylab replay`` spent 1.2 of its 2 s importing ``rfc3987_syntax`` (a grammar built
    on import) through ``jsonschema``'s format checker, for formats the schema never uses."""
    import sys

    code = ("import sys, time; t = time.perf_counter(); from crazylab.cli import main; "
            "code = main(['replay', '-q', 'sr-t4-scoring-64']); "
            "print(code, 'rfc3987_syntax' in sys.modules, 'jsonschema' in sys.modules, "
            "round(time.perf_counter() - t, 2))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    exit_code, grammar, schema, seconds = done.stdout.split()
    assert (exit_code, grammar, schema) == ("0", "False", "True"), done.stdout
    assert float(seconds) < 5.0  # about 0.3 s here when the machine is quiet

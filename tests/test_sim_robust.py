"""`crazylab simulate` as a long job people trust (issue 12): the whole command line is checked
before any game; results are written atomically; Ctrl-C (or SIGTERM) stops within 2 seconds,
leaves no process behind, prints one line and keeps the finished hands with --out; tasks are
made lazily (``--games 10**12`` builds no list); a script without a ``__main__`` guard works."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

import pytest

import crazylab as cl
import crazylab.sim as sim
from crazylab.cli import main
from crazylab.cli import main as cli_main
from crazylab.errors import CrazylabError
from crazylab.sim import SimulationError, SimulationInterrupted, simulate

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

pd = pytest.importorskip("pandas")

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
TRILLION = 10**12
#: how long a run may take to stop after Ctrl-C: a generous bound for a busy machine (tests
#: run in parallel); a stuck run never stops
STOP_WITHIN = 10.0
#: how long to wait for the first hands on this (shared, sometimes very busy) machine
FIRST_RESULT_WITHIN = 120.0


# -- the command line is checked before any game ------------------------------------------------


@pytest.fixture
def no_game(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make any hand played fail the test: the checks must come first."""
    played: list[int] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        played.append(1)
        raise AssertionError("a hand was played before the command line was checked")

    monkeypatch.setattr(sim, "play_one", refuse)
    return played


def _unwritable_folder(tmp_path: Path) -> Path:
    if os.geteuid() == 0:
        return Path("/proc")  # even root cannot create a file there
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


@pytest.mark.parametrize(("args", "message"), [
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--workers", "-3"], "--workers must be at least 1, not -3"),
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--games", "-5"], "--games must be at least 1"),
    (["--bots", "mc:-1"], "the playouts of mc must be a whole number of at least 1"),
    (["--bots", "mc:0"], "the playouts of mc must be a whole number of at least 1"),
    (["--bots", "mc:²"], "the playouts of mc must be a whole number of at least 1"),
    (["--bots", "rules:5"], "only mc takes a setting"),
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", ","], "name at least one bot"),
    (["-n", "9"], "is for 2-5 players, not 9"),
    (["-n", "1"], "players must be a whole number of at least 2"),
    (["nope"], "unknown rule set 'nope'"),
    (["--option", "chain"], "write KEY=VALUE"),
    (["--option", "=2"], "write KEY=VALUE"),
    (["--option", "draw_limit=0"], "draw_limit"),
    (["--option", "colour=red"], "colour"),
    (["--option", "removed_ranks=8"], "removed_ranks"),
    (["--out", "hands.json"], "must end in .csv or .parquet"),
])
def test_a_bad_command_line_is_refused_before_any_game(
        args: list[str], message: str, no_game: list[int],
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--games", "5", "--no-progress", *args])
    out, err = capsys.readouterr()
    assert code == 2 and not no_game
    assert message in err, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_out_is_checked_before_any_game(tmp_path: Path, no_game: list[int],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: the results were lost after the whole run on a bad --out."""
    (tmp_path / "taken.csv").mkdir()
    cases = {
        str(tmp_path / "missing" / "hands.csv"): "does not exist",
        str(tmp_path): "is a folder",
        str(tmp_path / "taken.csv"): "is a folder",
        str(_unwritable_folder(tmp_path) / "hands.csv"): "cannot write in",
    }
    for path, message in cases.items():
        assert main(["simulate", "--games", "5", "--out", path]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not no_game
    assert not list(tmp_path.glob(".*")), "the writability probe left a file behind"


def test_option_chain_no_means_false_not_truthy(capsys: pytest.CaptureFixture[str]) -> None:
    # the command line reads yes/no/on/off/true/false/1/0 as booleans (the option schema);
    # before it, the text "no" was truthy and switched chaining ON
    from crazylab.engine.options import parse_option

    assert parse_option("chain=no") == ("chain", False)
    assert main(["simulate", "--games", "2", "--workers", "1", "--option", "chain=no"]) == 0
    assert "chain=False" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--option", "chain=maybe"]) == 2


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"workers": 0}, "workers must be a whole number from 1 to"),
    ({"workers": -3}, "workers must be a whole number from 1 to"),
    ({"workers": 1.5}, "workers must be a whole number"),
    ({"games": -1}, "games must be a whole number from 0 to"),
    ({"games": 2.5}, "games must be a whole number"),
    ({"games": True}, "games must be a whole number"),
    ({"games": "10"}, "games must be a whole number"),
    ({"seed": "abc"}, "seed must be a whole number"),
    ({"seed": float("nan")}, "seed must be a whole number"),
    ({"players": 2.7}, "players must be a whole number"),
    ({"players": "3"}, "players must be a whole number"),
    ({"players": 9}, "is for 2-5 players"),
    ({"players": []}, "at least one rule set, table size and bot"),
    ({"bots": []}, "at least one rule set, table size and bot"),
    ({"bots": "mc:-1"}, "the playouts of mc must be a whole number of at least 1"),
    ({"bots": [5]}, "is not a bot"),
    ({"rules": 5}, "rules must be a preset name, a RuleSet or a list of them, not 5"),
    ({"rules": [None]}, "rules must be preset names or RuleSets"),
    ({"rules": "crazy-nines"}, "unknown rule set"),
    ({"chunk": 0}, "chunk must be a whole number from 1 to"),
])
def test_simulate_checks_its_arguments(kwargs: dict[str, Any], message: str,
                                       no_game: list[int]) -> None:
    args: dict[str, Any] = {"rules": "crazy-eights", "games": 3, "workers": 1}
    args.update(kwargs)
    with pytest.raises(SimulationError) as e:
        simulate(**args)
    assert isinstance(e.value, CrazylabError) and isinstance(e.value, ValueError)
    assert message in str(e.value) and not no_game


def test_zero_games_is_an_empty_table_with_every_column() -> None:
    df = simulate("crazy-eights", players=[2, 3], games=0, workers=2)
    assert len(df) == 0 and list(df.columns)[:3] == ["hand", "seed", "rules"]
    assert "score_2" in df.columns


def test_the_first_chunks_ramp_up_and_every_hand_comes_once() -> None:
    """Small chunks first (the first results arrive at once), then chunks of ``chunk``...
    here the default size: 200 hands × 2 table sizes on 8 client slots, ceil(400 / 32) = 13."""
    from concurrent.futures import ThreadPoolExecutor

    sizes: list[int] = []
    hands: list[tuple[int, int]] = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            sizes.append(len(args[1]))
            hands.extend(args[1])
            return super().submit(fn, *args, **kwargs)

    with Recording(2) as pool:
        df = simulate("crazy-eights", players=[2, 3], games=200, client=pool, progress=False)
    assert sizes[:6] == [1, 2, 4, 8, 13, 13]
    assert sorted(hands) == [(c, h) for c in range(2) for h in range(200)]
    assert len(df) == 400


# -- atomic writes ------------------------------------------------------------------------------


def test_out_is_written_through_a_temporary_file_then_renamed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "hands.csv"
    out.write_text("old results\n")
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace

    def spy(src: Any, dst: Any) -> None:
        replaced.append((str(src), str(dst)))
        assert out.read_text() == "old results\n"  # untouched until the rename
        real_replace(src, dst)

    monkeypatch.setattr(sim.os, "replace", spy)
    assert main(["simulate", "--games", "4", "--workers", "1", "--out", str(out)]) == 0
    [(src, dst)] = replaced
    assert Path(src).parent == tmp_path and dst == str(out)
    assert len(pd.read_csv(out)) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.csv"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "hands.csv"
    out.write_text("old results\n")

    def half_write(self: Any, path: Any, **kwargs: Any) -> None:
        Path(path).write_text("hand,seed\n1,")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_write)
    df = simulate("crazy-eights", games=2, workers=1)
    with pytest.raises(OSError):
        sim.write_atomically(df, out)
    assert out.read_text() == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["hands.csv"]


# -- lazy tasks: memory does not grow with --games ------------------------------------------------


class InterruptAfter:
    """A bot that plays randomly, then presses Ctrl-C after ``moves`` decisions."""

    name = "interrupt"

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def choose(self, obs: Any, rng: Any) -> Any:
        self.moves -= 1
        if self.moves < 0:
            raise KeyboardInterrupt
        return rng.choice(obs.legal)


def test_a_trillion_games_build_no_task_list_and_an_interrupt_keeps_the_hands() -> None:
    """The issue: --games 10**12 built the whole task list and died of MemoryError."""
    tracemalloc.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(SimulationInterrupted) as e:
            simulate("crazy-eights", games=TRILLION, bots=InterruptAfter(600), workers=1,
                     progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    stop = e.value
    assert isinstance(stop, KeyboardInterrupt) and stop.total == TRILLION
    assert 0 < len(stop.rows) < 1000
    partial = stop.partial()
    assert list(partial["hand"]) == list(range(len(partial)))
    again = simulate("crazy-eights", games=len(partial), bots="random", workers=1)
    assert list(partial["seed"]) == list(again["seed"])  # the same deals as a shorter run
    assert peak < 30 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    assert time.monotonic() - t0 < 60


def test_an_executor_gets_a_few_chunks_ahead_not_all() -> None:
    from concurrent.futures import ThreadPoolExecutor

    submitted = []

    class Counting(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            submitted.append(1)
            if len(submitted) > 40:
                raise KeyboardInterrupt
            return super().submit(fn, *args, **kwargs)

    with Counting(2) as pool, pytest.raises(SimulationInterrupted) as e:
        simulate("crazy-eights", games=TRILLION, client=pool, progress=False, chunk=2)
    assert len(submitted) == 41 and len(e.value.rows) > 0


# -- worker processes ---------------------------------------------------------------------------


class DiesInWorker:
    """A bot whose process dies when it plays anywhere but in the test process."""

    name = "dies"

    def __init__(self) -> None:
        self.home = os.getpid()

    def choose(self, obs: Any, rng: Any) -> Any:
        if os.getpid() != self.home:
            os._exit(3)
        return obs.legal[0]


class FailsInWorker:
    name = "fails"

    def choose(self, obs: Any, rng: Any) -> Any:
        raise ValueError("this bot refuses to play")


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    t0 = time.monotonic()
    with pytest.raises(SimulationError, match="exit code 3"):
        simulate("crazy-eights", games=30, bots=DiesInWorker(), workers=2, progress=False)
    assert time.monotonic() - t0 < FIRST_RESULT_WITHIN


def test_an_error_in_a_worker_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="refuses to play") as e:
        simulate("crazy-eights", games=30, bots=FailsInWorker(), workers=2, progress=False)
    assert "raised in a worker process" in "".join(e.value.__notes__)


def test_the_simulate_command_checks_its_command_line_in_process_too(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["simulate", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err


def test_bots_that_cannot_be_sent_to_workers_are_refused_with_advice() -> None:
    class Local:  # defined in a function: cannot be pickled
        name = "local"

        def choose(self, obs: Any, rng: Any) -> Any:
            return obs.legal[0]

    with pytest.raises(SimulationError, match="workers=1"):
        simulate("crazy-eights", games=30, bots=Local(), workers=2, progress=False)


# -- Ctrl-C in a real process ---------------------------------------------------------------------


def _marked(mark: str) -> list[str]:
    """Running processes (not zombies) whose environment holds ``mark``: the command's own
    process and everything it started (workers, resource tracker), wherever reparented."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if f"CRAZYLAB_TEST_MARK={mark}".encode() in environ and state != "Z":
            found.append(f"{pid} {cmd[:300]}")  # a long venv path keeps spawn_main in
    return found


class Run:
    """``crazylab simulate ARGS`` in its own session (like a terminal's foreground job)."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.mark = uuid.uuid4().hex
        env = {**os.environ, "CRAZYLAB_TEST_MARK": self.mark, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "crazylab", "simulate", *args], cwd=cwd, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        self.err = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        while chunk := self.proc.stderr.read(1):
            self.err += chunk

    def hands_done(self) -> int:
        """The progress bar's count of finished hands."""
        counts = re.findall(r"(\d+)/1000000000000", self.err)
        return int(counts[-1]) if counts else 0

    def wait_for_hands(self) -> None:
        deadline = time.monotonic() + FIRST_RESULT_WITHIN
        while self.hands_done() == 0:
            assert self.proc.poll() is None, self.err[-2000:]
            assert time.monotonic() < deadline, "no hand finished in time"
            time.sleep(0.2)

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self, sig: int, group: bool) -> float:
        t0 = time.monotonic()
        if group:
            os.killpg(self.proc.pid, sig)  # what Ctrl-C in a terminal does
        else:
            self.proc.send_signal(sig)  # what a Jupyter kernel interrupt does
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
        elapsed = time.monotonic() - t0
        self._reader.join(5)
        return elapsed

    def messages(self) -> list[str]:
        """stderr without the progress bar (cleared on interrupt)."""
        lines = self.err.replace("\r", "\n").splitlines()
        return [s for s in lines if s.strip() and not s.lstrip().startswith("hands:")]

    def leftovers(self) -> list[str]:
        # a generous bound (a loaded machine: workers notice their parent's death late, the
        # tracker exits last); a worker left computing never goes
        deadline = time.monotonic() + 60
        while (left := _marked(self.mark)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left


@pytest.mark.parametrize(("sig", "group"), [
    pytest.param(signal.SIGINT, True, id="ctrl-c-to-the-process-group"),
    pytest.param(signal.SIGTERM, False, id="sigterm"),
])
def test_an_interrupt_with_workers_stops_fast_keeps_the_hands_and_leaves_nothing(
        tmp_path: Path, sig: int, group: bool) -> None:
    out = tmp_path / "hands.csv"
    run = Run("crazy-eights", "--games", str(TRILLION), "--workers", "2", "--out", str(out),
              cwd=tmp_path)
    run.wait_for_hands()
    assert len(_marked(run.mark)) >= 3  # the command, 2 workers (and a resource tracker)
    assert run.rss_mib() < 400, "memory grows with --games"
    elapsed = run.stop(sig, group)
    assert run.proc.returncode == 130, run.err[-2000:]
    assert elapsed < STOP_WITHIN, f"stopped after {elapsed:.2f} s"
    [line] = run.messages()
    assert "Traceback" not in run.err
    kept = int(re.search(r"interrupted after (\d+) of 1000000000000 hands", line).group(1))
    assert f"the {kept} finished hands are in {out}" in line
    df = pd.read_csv(out)
    assert len(df) == kept > 0 and df["hand"].is_unique
    assert run.leftovers() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.csv"]


def test_a_forced_stop_leaves_no_worker_computing(tmp_path: Path) -> None:
    """The issue: after a forced stop the workers were still computing 7 minutes later."""
    run = Run("crazy-eights", "--games", str(TRILLION), "--workers", "2", "--bots", "mc:5",
              cwd=tmp_path)
    run.wait_for_hands()
    workers = [p for p in _marked(run.mark) if "spawn_main" in p]
    assert len(workers) == 2
    run.proc.kill()  # SIGKILL: no handler runs in the command
    run.proc.wait(10)
    assert run.leftovers() == []


def test_an_interrupt_in_process_without_out_prints_one_line(tmp_path: Path) -> None:
    run = Run("crazy-eights", "--games", str(TRILLION), "--workers", "1", cwd=tmp_path)
    run.wait_for_hands()
    assert len(_marked(run.mark)) == 1  # no worker: the hands are played in the command
    elapsed = run.stop(signal.SIGINT, group=False)
    assert run.proc.returncode == 130 and elapsed < STOP_WITHIN
    [line] = run.messages()
    assert "interrupted after" in line and "--out" in line  # says the hands were not kept
    assert "Traceback" not in run.err
    assert run.proc.stdout is not None and run.proc.stdout.read() == ""
    assert run.leftovers() == []


# -- scripts without a __main__ guard ------------------------------------------------------------

SNIPPET = """\
import crazylab as cl
from crazylab import lab

df = cl.simulate(["crazy-eights-classic", "crazy-eights-quick"], players=3,
                 bots=["rules", "random"], games=120, seed=1)
print(len(df), lab.summary(df).shape)
"""


def test_the_lab_snippet_as_a_script_without_a_main_guard_works_and_says_why(
        tmp_path: Path) -> None:
    """The issue: it died with BrokenProcessPool and no explanation. 240 hands: over
    PARALLEL_FROM, so workers would be used; without the guard they are not."""
    assert sim.PARALLEL_FROM <= 240
    script = tmp_path / "lab_snippet.py"
    script.write_text(SNIPPET)
    proc = subprocess.run([PYTHON, str(script)], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "240 (2, 7)"
    assert 'put the call under `if __name__ == "__main__":`' in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_guarded_script_uses_the_workers_and_gets_the_same_rows(tmp_path: Path) -> None:
    script = tmp_path / "guarded.py"
    script.write_text(textwrap.dedent("""\
        import crazylab as cl

        def main():
            df = cl.simulate("crazy-eights-quick", bots=["rules", "random"], games=40, seed=3,
                             workers=2, chunk=5)
            df.to_csv("parallel.csv", index=False)

        if __name__ == "__main__":
            main()
        """))
    proc = subprocess.run([PYTHON, str(script)], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path)
    assert proc.returncode == 0 and "RuntimeWarning" not in proc.stderr, proc.stderr[-3000:]
    parallel = pd.read_csv(tmp_path / "parallel.csv")
    here = simulate("crazy-eights-quick", bots=["rules", "random"], games=40, seed=3, workers=1)
    assert list(parallel["turns"]) == list(here["turns"])


def test_python_dash_c_uses_the_workers_without_a_warning() -> None:
    """``python -c`` (like a notebook) imports nothing again in the workers: no fallback."""
    code = ("import crazylab as cl; "
            "df = cl.simulate('crazy-eights', games=300, seed=1, workers=2, progress=False); "
            "print(len(df))")
    proc = subprocess.run([PYTHON, "-W", "error::RuntimeWarning", "-c", code],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout.strip() == "300", proc.stderr[-2000:]


def test_the_simulate_help_still_runs() -> None:
    proc = subprocess.run([PYTHON, "-m", "crazylab", "simulate", "--help"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "--workers" in proc.stdout
    assert cl.simulate is simulate


def test_a_worker_whose_parent_died_while_it_started_stops():
    """The race behind a flaky forced stop: a worker read its parent's pid only once it ran,
    so a parent killed while the worker was still starting was never missed (the worker
    took the reaper for its parent and waited on its queue for ever). It is given the pid."""
    import multiprocessing
    import subprocess
    import sys

    from crazylab import sim

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that is no longer anyone's parent
    ctx = multiprocessing.get_context("spawn")
    queues = [ctx.Queue() for _ in range(4)]  # kept: a queue must outlive its pickling
    worker = ctx.Process(target=sim._worker,
                         args=(queues[0], queues[1], [], 0, 4, None, gone.pid))
    worker.start()
    worker.join(60)  # a generous bound: it notices within a fraction of a second
    alive = worker.is_alive()
    if alive:
        worker.kill()
    assert not alive and worker.exitcode == 1
    # with its parent alive it waits for work, and stops when told to
    tasks = queues[2]
    waiting = ctx.Process(target=sim._worker,
                          args=(tasks, queues[3], [], 0, 4, None, os.getpid()))
    waiting.start()
    waiting.join(2)
    assert waiting.is_alive()
    tasks.put(None)
    waiting.join(60)
    assert waiting.exitcode == 0

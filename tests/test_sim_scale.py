"""The simulation lab at cluster scale (issue 24 item 5): a Dask cluster gives the in-process
frame, ``out=`` writes a Parquet dataset of part files (by whoever played the chunk), ``start=``
resumes a seeded run, the chunks in flight follow ``client.nthreads()``, and the default
worker count follows the CPUs this process may use (affinity, cgroup quota)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.oldest

pd = pytest.importorskip("pandas")
distributed = pytest.importorskip("dask.distributed")
pytest.importorskip("pyarrow")

from crazylab import cli, lab, sim  # noqa: E402
from crazylab.cli import main  # noqa: E402
from crazylab.sim import SimulationError, read_dataset, simulate  # noqa: E402

RUN: dict[str, Any] = {"rules": "crazy-eights", "bots": ["random", "random"], "games": 2000,
                       "seed": 7, "progress": False}


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """The 2,000 hands played in this process."""
    return simulate(**RUN, workers=1)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        yield client


def test_a_cluster_plays_the_same_frame_as_this_process(client: Any,
                                                         reference: pd.DataFrame) -> None:
    on_dask = simulate(**RUN, client=client)
    pd.testing.assert_frame_equal(on_dask, reference)
    assert on_dask.attrs["seed"] == 7 and len(on_dask) == 2000


def test_out_writes_a_dataset_of_part_files_whose_hands_are_the_frame(
        client: Any, reference: pd.DataFrame, tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    result = simulate(**RUN, client=client, out=folder)
    parts = sorted(folder.glob("part-*.parquet"))
    assert len(parts) >= 2 and parts[0].name == "part-000000000000.parquet"
    assert sorted(os.listdir(folder)) == [p.name for p in parts]  # no temporary file left
    joined = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    joined = joined.sort_values("hand", ignore_index=True)
    pd.testing.assert_frame_equal(joined, reference)
    pd.testing.assert_frame_equal(read_dataset(folder), reference)
    # what came back is the summary of every hand (from the workers' sums), not the hands
    pd.testing.assert_frame_equal(result, lab.summary(reference), check_dtype=False,
                                  check_index_type=False)
    assert result.attrs["parts"] == len(parts) and result.attrs["out"] == str(folder)
    [wins] = result.attrs["wins"]
    rates = lab.win_rates(reference, by="bot")
    assert (wins["hands"], wins["wins"]) == (rates["hands"][0], rates["wins"][0])


def test_a_dataset_of_several_rule_sets_reads_back_as_the_frame(tmp_path: Path) -> None:
    run = {**RUN, "rules": ["crazy-eights", "crazy-eights-quick"], "players": [2, 3],
           "games": 60}
    frame = simulate(**run, workers=1)
    simulate(**run, workers=1, out=tmp_path / "ds")
    assert len(list((tmp_path / "ds").glob("part-3-*.parquet"))) >= 1
    pd.testing.assert_frame_equal(read_dataset(tmp_path / "ds"), frame)


def test_start_resumes_a_seeded_run(client: Any, reference: pd.DataFrame,
                                    tmp_path: Path) -> None:
    second = simulate(**{**RUN, "start": 1000}, workers=1)
    pd.testing.assert_frame_equal(second, reference.iloc[1000:].reset_index(drop=True))
    # a dataset: the first 1000 hands, then resumed from hand 1000 into the same folder
    folder = tmp_path / "resumed"
    simulate(**{**RUN, "games": 1000}, client=client, out=folder)
    stray = folder / "part-000000001500.parquet"  # a part a cancelled task wrote late
    stray.write_bytes((folder / "part-000000000000.parquet").read_bytes())
    simulate(**{**RUN, "start": 1000}, client=client, out=folder)
    assert not stray.exists()
    pd.testing.assert_frame_equal(read_dataset(folder), reference)


def test_a_dataset_folder_is_checked_before_any_hand(tmp_path: Path) -> None:
    folder = tmp_path / "ds"
    simulate(**{**RUN, "games": 300}, workers=1, out=folder)
    before = sorted(os.listdir(folder))
    cases = [({"out": folder}, "already holds"),            # start=0 over a dataset
             ({"out": folder, "start": 100}, "falls inside"),
             ({"out": tmp_path / "no" / "ds"}, "does not exist"),
             ({"out": 5}, "must name a folder"),
             ({"start": 2001}, "start must be a whole number from 0 to 2000")]
    (tmp_path / "file").write_text("x")
    cases.append(({"out": tmp_path / "file"}, "is a file"))
    for kwargs, message in cases:
        with pytest.raises(SimulationError, match=message):
            simulate(**{**RUN, **kwargs}, workers=1)
    assert sorted(os.listdir(folder)) == before
    assert not (tmp_path / "no").exists()


def test_the_cli_runs_on_a_scheduler_and_resumes(client: Any, reference: pd.DataFrame,
                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "CONNECT_TIMEOUT", 1)
    address = client.scheduler.address
    args = ["simulate", "--bots", "random,random", "--seed", "7", "--no-progress",
            "--scheduler", address, "--dataset", str(tmp_path / "ds")]
    assert main([*args, "--games", "1200"]) == 0
    assert main([*args, "--games", "2000", "--start", "1200"]) == 0
    out = capsys.readouterr().out
    assert "wrote 800 hands to" in out and "crazy-eights" in out
    pd.testing.assert_frame_equal(read_dataset(tmp_path / "ds"), reference)
    assert main(["simulate", "--games", "5", "--scheduler", "tcp://127.0.0.1:9",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach a Dask scheduler" in err[0]
    assert main(["simulate", "--games", "5", "--start", "6"]) == 2


class FakeClient:
    """Reports a cluster's threads as a Dask client does."""

    def __init__(self, threads: dict[str, int]) -> None:
        self.threads = threads

    def nthreads(self) -> dict[str, int]:
        return self.threads

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("not called")


def test_chunks_in_flight_scale_with_the_clusters_threads() -> None:
    hands = 10**6
    plans = {n: sim._plan(hands, 1, FakeClient({f"w{i}": 2 for i in range(n)}), None, False)
             for n in (1, 4, 16)}
    assert {n: ahead for n, (_, ahead) in plans.items()} == {
        1: 2 * sim.DASK_AHEAD, 4: 8 * sim.DASK_AHEAD, 16: 32 * sim.DASK_AHEAD}
    # a dataset's part files are bigger chunks, still about four per thread when small
    size, ahead = sim._plan(2000, 1, FakeClient({"a": 1, "b": 1}), None, True)
    assert (size, ahead) == (250, 2 * sim.DASK_AHEAD)
    assert sim._plan(hands, 1, FakeClient({"a": 4}), None, True)[0] == sim.PART_CHUNK
    assert sim.client_threads(FakeClient({})) == 1  # a cluster still starting


@pytest.mark.parametrize("threads", [{"a": 1}, {"a": 2, "b": 2}])
def test_a_cluster_gets_a_bounded_queue_sized_by_its_threads(
        client: Any, monkeypatch: pytest.MonkeyPatch, threads: dict[str, int]) -> None:
    """``DASK_AHEAD`` chunks per reported thread are submitted before the first result is
    taken, then one more per result taken (``as_completed``)."""
    taken: list[int] = []
    seen: list[int] = []  # results taken when each chunk was submitted

    class Bar:
        def update(self, n: int) -> None:
            taken.append(n)

        def close(self) -> None:
            pass

    class Reporting:
        def nthreads(self) -> dict[str, int]:
            return threads

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            seen.append(len(taken))
            return client.submit(*args, **kwargs)

        def cancel(self, futures: Any) -> None:
            client.cancel(futures)

    monkeypatch.setattr(sim, "_progress_bar", lambda *args: Bar())
    df = simulate(**{**RUN, "games": 200}, client=Reporting(), chunk=5)
    ahead = sim.DASK_AHEAD * sum(threads.values())
    assert len(df) == 200 and len(seen) == 40 and sum(taken) == 200
    assert seen == [0] * ahead + list(range(1, 41 - ahead))


@pytest.mark.parametrize("cpu_max, expected", [
    (None, 8), ("max 100000\n", 8), ("150000 100000\n", 2), ("50000 100000\n", 1),
    ("400000 100000\n", 4), ("junk\n", 8)])
def test_the_cpu_count_honours_affinity_and_the_cgroup_quota(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cpu_max: str | None,
        expected: int) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    path = tmp_path / "cpu.max"
    if cpu_max is not None:
        path.write_text(cpu_max)
    monkeypatch.setattr(sim, "CPU_MAX", path)
    assert sim.available_cpus() == expected


def test_default_workers_are_the_cpus_this_process_may_use(
        monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []

    class InProcessPool:  # records the worker count, plays here
        def __init__(self, n: int, configs: Any, seed: int, max_seats: int,
                     out: str | None = None) -> None:
            started.append(n)
            self.args = (configs, seed, max_seats, out)

        def __enter__(self) -> InProcessPool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def run(self, chunks: Any, done: Any) -> None:
            configs, seed, max_seats, out = self.args
            for part in chunks:
                done(sim._run_chunk(configs, part, seed, max_seats, out))

    monkeypatch.setattr(sim, "_Pool", InProcessPool)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    monkeypatch.setattr(sim, "available_cpus", lambda: 3)
    df = simulate(**{**RUN, "games": 250})
    monkeypatch.setattr(sim, "available_cpus", lambda: 1)
    assert len(simulate(**{**RUN, "games": 250})) == 250
    assert started == [3] and len(df) == 250


def test_an_interrupted_dataset_run_resumes_where_it_says(reference: pd.DataFrame,
                                                          tmp_path: Path) -> None:
    """Ctrl-C in a dataset run: the finished parts stay, ``resume`` names the hand to start
    from, and the resumed run completes the dataset hand for hand."""
    from crazylab.bots import RandomBot

    class Stops(RandomBot):  # plays as "random" does, then Ctrl-C after some moves
        moves = 0

        def choose_legal(self, legal: Any, rng: Any) -> Any:
            Stops.moves += 1
            if Stops.moves > 30_000:
                raise KeyboardInterrupt
            return super().choose_legal(legal, rng)

    folder = tmp_path / "ds"
    with pytest.raises(sim.SimulationInterrupted) as e:
        simulate(**{**RUN, "bots": [Stops(), Stops()]}, workers=1, out=folder)
    stop = e.value
    assert 0 < stop.done < 2000 and stop.rows == [] and stop.resume is not None
    assert len(read_dataset(folder)) == stop.done >= stop.resume
    simulate(**{**RUN, "start": stop.resume}, workers=1, out=folder)
    pd.testing.assert_frame_equal(read_dataset(folder), reference)

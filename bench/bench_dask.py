"""The simulation lab at cluster scale: ``simulate`` on a 4-worker Dask ``LocalCluster``
(processes, one thread each) against the same run in this process, both writing a Parquet
dataset (``out=``).

For each size (``--small`` and ``--hands`` hands of ``crazy-eights``, bots random,random) it
reports the wall time of each run, whether the two datasets hold the same hands (a checksum
of the rows that does not depend on how they were split into part files), how busy each
worker was (``client.processing()`` sampled every 0.1 s: the share of samples in which the
worker had a task) and this process's peak RSS during the run (sampled with psutil in a
thread), which should not grow from the small run to the large one. The cluster (its
scheduler and workers) runs in a child process, as a real cluster would on other machines, so
the client's RSS is the caller's alone (a LocalCluster in this process would add the
scheduler's own bookkeeping; ``--cluster-here`` measures that way); the scheduler process's
peak RSS is reported too.

    .venv/bin/python bench/bench_dask.py                  # 10**5 and 10**6 hands
    .venv/bin/python bench/bench_dask.py --hands 200000   # a shorter run
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import psutil

import crazylab as cl
from crazylab.sim import _parts

BOTS = ["random", "random"]
#: the child process that holds the cluster: prints the scheduler's address, then waits
CLUSTER = """
import sys
from dask.distributed import LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=int(sys.argv[1]), threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
"""
SEED = 2026


class Sampler:
    """Samples this process's RSS (and, given a client, which workers have a task) in a
    thread until stopped."""

    def __init__(self, client: Any = None, every: float = 0.1, other: int | None = None
                 ) -> None:
        self.client, self.every = client, every
        self.other = None if other is None else psutil.Process(other)
        self.peak = self.other_peak = 0
        self.samples = 0
        self.busy: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            self.peak = max(self.peak, me.memory_info().rss)
            if self.other is not None:
                self.other_peak = max(self.other_peak, self.other.memory_info().rss)
            if self.client is not None:
                try:
                    processing = self.client.processing()
                except Exception:  # the cluster is closing
                    processing = {}
                for worker, tasks in processing.items():
                    self.busy[worker] = self.busy.get(worker, 0) + bool(tasks)
            self.samples += 1
            self._stop.wait(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def busy_fractions(self) -> list[float]:
        return sorted((n / max(1, self.samples) for n in self.busy.values()), reverse=True)


def checksum(folder: Path) -> tuple[int, int]:
    """``(rows, sum of the rows' hashes mod 2**64)`` over the dataset's part files, read one
    at a time: equal for two datasets holding the same rows, however they are split."""
    rows, total = 0, 0
    for _, _, file in _parts(folder):
        df = pd.read_parquet(file)
        rows += len(df)
        total = (total + int(pd.util.hash_pandas_object(df, index=False).sum())) % 2**64
    return rows, total


def timed(run: Callable[[], Any], client: Any = None, other: int | None = None
          ) -> tuple[float, Sampler]:
    with Sampler(client, other=other) as sampler:
        t0 = time.perf_counter()
        run()
        wall = time.perf_counter() - t0
    return wall, sampler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10**6)
    parser.add_argument("--small", type=int, default=10**5)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--no-in-process", action="store_true",
                        help="only the cluster runs (no comparison)")
    parser.add_argument("--cluster-here", action="store_true",
                        help="the LocalCluster in this process, not in a child process")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    sizes = sorted({args.small, args.hands})
    dask_runs: dict[int, tuple[float, Sampler]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.cluster_here:
            cluster: Any = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                        processes=True, dashboard_address=":0")
            address, child = cluster, None
        else:
            child = subprocess.Popen([sys.executable, "-c", CLUSTER, str(args.workers)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert child.stdout is not None
            address = child.stdout.readline().strip()
        try:
            with Client(address) as client:
                client.wait_for_workers(args.workers)
                for hands in sizes:  # the cluster runs first: the client's RSS stays its own
                    dask_runs[hands] = timed(lambda h=hands: cl.simulate(
                        "crazy-eights", bots=BOTS, games=h, seed=SEED, client=client,
                        out=Path(tmp, f"dask-{h}"), progress=False), client,
                        None if child is None else child.pid)
                    wall, sampler = dask_runs[hands]
                    print(f"{hands:>9} hands on dask: {wall:7.1f} s; workers busy "
                          f"{', '.join(f'{b:.0%}' for b in sampler.busy_fractions())}; client "
                          f"peak RSS {sampler.peak / 2**20:.0f} MiB; scheduler process "
                          f"{sampler.other_peak / 2**20:.0f} MiB", flush=True)
        finally:
            if child is not None:
                child.communicate("", timeout=60)
            else:
                cluster.close()
        for hands in sizes if not args.no_in_process else ():
            on_dask, here = Path(tmp, f"dask-{hands}"), Path(tmp, f"here-{hands}")
            wall_h, s_h = timed(lambda h=hands, o=here: cl.simulate(
                "crazy-eights", bots=BOTS, games=h, seed=SEED, workers=1, out=o,
                progress=False))
            wall_d, s_d = dask_runs[hands]
            same = checksum(on_dask) == checksum(here)
            busy = s_d.busy_fractions()
            print(f"{hands:>9} hands: dask {wall_d:7.1f} s ({len(_parts(on_dask))} parts), "
                  f"in-process {wall_h:7.1f} s, speed-up {wall_h / wall_d:4.2f}x; "
                  f"same hands: {same}; workers busy "
                  f"{', '.join(f'{b:.0%}' for b in busy)}; client peak RSS "
                  f"{s_d.peak / 2**20:.0f} MiB", flush=True)
    if len(sizes) == 2:
        (n0, n1), (p0, p1) = sizes, (dask_runs[n][1].peak for n in sizes)
        print(f"client peak RSS on dask: {p0 / 2**20:.0f} MiB at {n0} hands, "
              f"{p1 / 2**20:.0f} MiB at {n1} hands ({(p1 - p0) / 2**20:+.0f} MiB for "
              f"{n1 / n0:.0f}x the hands)")

if __name__ == "__main__":
    main()

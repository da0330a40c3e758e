"""The simulation lab's worker pool (issue 12) against the ProcessPoolExecutor it replaced,
measured in the same run: wall time of the same parallel simulation, as a ratio.

    .venv/bin/python bench/bench_sim_pool.py                 # 2,000 hands, 2 workers, 3 rounds
    .venv/bin/python bench/bench_sim_pool.py --games 5000 --rounds 5

The baseline is ``crazylab/sim.py`` as of commit 489f4d9 (``git show``), loaded next to the
current one; both play the same seeded hands (the rows are compared). Rounds alternate the two
so that a busy machine slows both alike; the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import crazylab.sim as current  # noqa: E402

BASELINE_COMMIT = "489f4d9"


def load_baseline() -> object:
    """The baseline sim.py as a top-level module ``sim_baseline`` (its relative imports made
    absolute), importable by worker processes too."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASELINE_COMMIT}:crazylab/sim.py"],
                            capture_output=True, text=True, check=True).stdout
    source = source.replace("from .", "from crazylab.")
    folder = Path(tempfile.mkdtemp())
    (folder / "sim_baseline.py").write_text(source)
    sys.path.insert(0, str(folder))
    return importlib.import_module("sim_baseline")


def run(module: object, games: int, workers: int) -> tuple[float, object]:
    t0 = time.perf_counter()
    df = module.simulate("crazy-eights-quick", players=2, bots=["rules", "random"],  # type: ignore[attr-defined]
                         games=games, seed=1, workers=workers, progress=False)
    return time.perf_counter() - t0, df


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    baseline = load_baseline()
    times: dict[str, list[float]] = {"baseline": [], "current": []}
    for _ in range(args.rounds):
        for name, module in (("baseline", baseline), ("current", current)):
            secs, df = run(module, args.games, args.workers)
            times[name].append(secs)
            if name == "baseline":
                reference = df
            else:
                assert df.equals(reference), "the two pools played different rows"  # noqa: F821
    b, c = statistics.median(times["baseline"]), statistics.median(times["current"])
    print(f"{args.games} hands of crazy-eights-quick (rules vs random), {args.workers} workers, "
          f"median of {args.rounds} rounds:")
    print(f"  baseline ProcessPoolExecutor (forkserver, {BASELINE_COMMIT}): {b:6.2f} s")
    print(f"  current pool (spawn, lazy chunks):            {c:6.2f} s")
    print(f"  current / baseline: ×{c / b:.2f}  (rounds: baseline "
          f"{', '.join(f'{t:.2f}' for t in times['baseline'])}; current "
          f"{', '.join(f'{t:.2f}' for t in times['current'])})")


if __name__ == "__main__":
    main()

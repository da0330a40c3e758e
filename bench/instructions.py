"""CPU instructions per random game, counted by valgrind's callgrind: a steady figure for
comparing two versions of the engine on a shared machine, where wall-clock times wander by
10% or more. (``bench_engine.py`` gives the games per second and the OpenSpiel ratio.)

Run: ``.venv/bin/python bench/instructions.py [--rules crazy-eights-quick] [--players 4]
[--games 300] [--simulate] [--build build/compiled]``. ``--simulate`` counts
``crazylab.simulate(..., bots="random", workers=1)`` instead of the raw loop; ``--build DIR``
runs the compiled build in ``DIR`` (``make compiled``). It needs ``valgrind`` (``apt-get
install valgrind``). The count is the difference between a run of ``--games`` games and a run
of none, both after the same warm-up, so start-up and imports cancel out; it includes the
driver loop (legal moves, a random choice, push), as ``bench_engine.py`` does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def _play(rules: str, players: int, games: int, simulate: bool) -> None:
    import crazylab as cl

    sys.path.insert(0, str(BENCH))
    import bench_engine

    r = cl.rules(rules)
    if simulate:  # the first call also imports pandas: warm up with it
        cl.simulate(r, players=players, bots="random", games=20, workers=1, progress=False)
        if games:
            cl.simulate(r, players=players, bots="random", games=games, workers=1,
                        progress=False)
        return
    bench_engine.crazylab_games(r, players, 20, seed=99)  # warm the rule set's tables
    if games:
        bench_engine.crazylab_games(r, players, games)


def _count(rules: str, players: int, games: int, simulate: bool, build: Path | None) -> int:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")  # no idle BLAS threads in the count
    python = [sys.executable]
    if build is not None:  # the compiled build first on the path, the checkout off it
        env["PYTHONPATH"] = str(build.resolve())
        python.append("-P")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *python,
         __file__, "--inner", "--rules", rules, "--players", str(players), "--games",
         str(games), *(["--simulate"] if simulate else [])],
        capture_output=True, text=True, check=True, env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="crazy-eights-quick")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--simulate", action="store_true",
                    help="count crazylab.simulate with random bots, not the raw loop")
    ap.add_argument("--build", type=Path, help="a compiled build to run (make compiled)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        _play(args.rules, args.players, args.games, args.simulate)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    if args.build is not None and not (args.build / "crazylab").is_dir():
        print(f"no compiled build in {args.build}: run `make compiled` first", file=sys.stderr)
        return 2
    counts = [_count(args.rules, args.players, g, args.simulate, args.build)
              for g in (args.games, 0)]
    what = "simulated hand" if args.simulate else "random game"
    build = "" if args.build is None else f" (compiled build {args.build})"
    per = (counts[0] - counts[1]) / args.games
    print(f"{args.rules}, {args.players} players{build}: {per:,.0f} instructions per {what} "
          f"(mean of {args.games})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

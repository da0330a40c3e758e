"""CPU instructions per random game, counted by valgrind's callgrind: a steady figure for
comparing two versions of the engine on a shared machine, where wall-clock times wander by
10% or more. (``bench_engine.py`` gives the games per second and the OpenSpiel ratio.)

Run: ``.venv/bin/python bench/instructions.py [--rules crazy-eights-quick] [--players 4]
[--games 300]``. It needs ``valgrind`` (``apt-get install valgrind``). The count is the
difference between a run of ``--games`` games and a run of none, both after the same warm-up,
so start-up and imports cancel out; it includes the driver loop (legal moves, a random
choice, push), as ``bench_engine.py`` does.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def _play(rules: str, players: int, games: int) -> None:
    sys.path.insert(0, str(BENCH))
    import bench_engine

    import crazylab as cl

    r = cl.rules(rules)
    bench_engine.crazylab_games(r, players, 20, seed=99)  # warm the rule set's tables
    if games:
        bench_engine.crazylab_games(r, players, games)


def _count(rules: str, players: int, games: int) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--inner", "--rules", rules, "--players", str(players), "--games",
         str(games)], capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="crazy-eights-quick")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        _play(args.rules, args.players, args.games)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    per_game = (_count(args.rules, args.players, args.games)
                - _count(args.rules, args.players, 0)) / args.games
    print(f"{args.rules}, {args.players} players: {per_game:,.0f} instructions per random game "
          f"(mean of {args.games})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

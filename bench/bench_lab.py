"""The simulation lab's numbers: the speed-up from 1 to N worker processes, the time the strong
(Monte Carlo) bot takes to move, and its head-to-head win rate against the rules of thumb with
a 95% confidence interval.

    .venv/bin/python bench/bench_lab.py                   # everything (several minutes)
    .venv/bin/python bench/bench_lab.py --only speedup    # or: move, duel
    .venv/bin/python bench/bench_lab.py --only duel --games 2000 --playouts 32

The duel plays crazy-eights-quick at a table of two with the seats swapped every hand
(``rotate=True``), so neither bot keeps the first seat; every hand is seeded.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import crazylab as cl  # noqa: E402
from crazylab.bots import MonteCarloBot, RuleBot, play_hand  # noqa: E402
from crazylab.lab import win_rates  # noqa: E402

RULES = "crazy-eights-quick"


def speedup(games: int, workers: int) -> None:
    print(f"simulation speed-up: {games} hands of {RULES}, 2 players, rules vs random")
    args = dict(players=2, bots=["rules", "random"], games=games, seed=1, progress=False)
    t0 = time.perf_counter()
    one = cl.simulate(RULES, workers=1, **args)
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    many = cl.simulate(RULES, workers=workers, **args)
    tn = time.perf_counter() - t0
    print(f"  1 worker : {t1:6.2f} s  ({games / t1:7.0f} hands/s)")
    print(f"  {workers} workers: {tn:6.2f} s  ({games / tn:7.0f} hands/s)  speed-up ×{t1 / tn:.2f}"
          f"  (identical rows: {one.equals(many)})")


class Timed:
    """A bot wrapper that records how long each decision takes."""

    def __init__(self, bot: object) -> None:
        self.bot, self.name, self.times = bot, bot.name, []  # type: ignore[attr-defined]

    def choose(self, obs, rng):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        move = self.bot.choose(obs, rng)  # type: ignore[attr-defined]
        self.times.append(time.perf_counter() - t0)
        return move


def move_time(hands: int, playouts: int) -> None:
    bot = Timed(MonteCarloBot(playouts=playouts))
    for i in range(hands):
        game = cl.Game.new(RULES, 2, seed=900 + i, keep_undo=False)
        bots = [bot, RuleBot()] if i % 2 == 0 else [RuleBot(), bot]
        play_hand(game, bots, [random.Random(i), random.Random(i + 1)])
    t = sorted(bot.times)
    print(f"strong bot (mc, {playouts} worlds per decision): {len(t)} decisions in {hands} hands "
          f"of {RULES}: median {statistics.median(t) * 1e3:.1f} ms, "
          f"90th percentile {t[int(0.9 * (len(t) - 1))] * 1e3:.1f} ms, "
          f"max {t[-1] * 1e3:.1f} ms per move (forced moves are not counted)")


def duel(games: int, playouts: int, workers: int) -> None:
    print(f"head-to-head: mc ({playouts} worlds) vs rules, {games} hands of {RULES}, "
          f"2 players, seats swapped every hand, {workers} workers")
    t0 = time.perf_counter()
    df = cl.simulate(RULES, players=2, bots=[MonteCarloBot(playouts=playouts), "rules"],
                     games=games, seed=2026, rotate=True, workers=workers)
    secs = time.perf_counter() - t0
    table = win_rates(df, by="bot")
    for t in table.itertuples():
        print(f"  {t.bot:>6}: {t.wins:7.1f} wins of {t.hands} = {t.rate:.3f} "
              f"(95% CI {t.low:.3f}-{t.high:.3f})")
    print(f"  ({secs:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["speedup", "move", "duel"])
    ap.add_argument("--games", type=int, default=1000, help="hands in the duel")
    ap.add_argument("--playouts", type=int, default=MonteCarloBot.playouts)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    if args.only in (None, "speedup"):
        speedup(4000, args.workers)
    if args.only in (None, "move"):
        move_time(20, args.playouts)
    if args.only in (None, "duel"):
        duel(args.games, args.playouts, args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

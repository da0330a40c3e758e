"""The ``mc`` bot before and after issue 21 (item 6), side by side in one run.

    .venv/bin/python bench/bench_mc.py                    # both parts (several minutes)
    .venv/bin/python bench/bench_mc.py --only example --repeat 2   # or: --only duel
    .venv/bin/python bench/bench_mc.py --bots legacy,v1,new:depth=12 --workers 2
    .venv/bin/python bench/bench_mc.py --bots legacy,new,new@compiled   # make compiled first

Bots (``--bots``, the first is the baseline): ``legacy`` (:class:`LegacyMonteCarloBot`, a
copy of the algorithm kept here, not in the package: 32 worlds for every legal move), ``v1``
(``MonteCarloBot(depth=None, cull=False)``: 96 playouts in all, to the end of the hand,
successive halving) and ``new`` (the package's default); ``new:depth=12:playouts=64`` sets
other values. ``--workers`` defaults to simulate's own default, what a learner gets. A bot named
``NAME@compiled`` runs the example in a child process on the compiled engine (``--build DIR``,
default ``build/compiled``: ``make compiled``; the same modules a wheel built with a compiler
holds); its duel is not run again, its games being the pure engine's move for move.

(a) ``example``: the README's lab example (``crazy-eights-classic`` and
``crazy-eights-quick``, 3 players, bots ``mc``, ``rules``, ``random``, 500 hands each, seed 1)
timed with each bot, ``--repeat`` times interleaved (the machine may be shared: the best
time of each is compared), and the ratio of the times.

(b) ``duel``: ``mc`` against ``rules`` heads-up on ``crazy-eights-quick``, seats swapped every
hand (``rotate=True``), the same seeds for every bot; each bot's win rate with its 95% Wilson
interval.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``--build DIR``: import crazylab from a compiled build (the engine a wheel built with a
#: compiler holds, or ``make compiled``'s) instead of the checkout
BUILD = sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv[:-1] else None
sys.path.insert(0, BUILD or str(ROOT))

import crazylab as cl  # noqa: E402
from crazylab.bots import (  # noqa: E402
    MonteCarloBot,
    RuleBot,
    _reward,
    _rollout,
    _with_legal,
    check_choice,
    determinize,
)
from crazylab.engine.moves import Move  # noqa: E402
from crazylab.engine.observe import Observation  # noqa: E402
from crazylab.lab import win_rates  # noqa: E402

EXAMPLE_RULES = ["crazy-eights-classic", "crazy-eights-quick"]
DUEL_RULES = "crazy-eights-quick"


@dataclass(frozen=True)
class LegacyMonteCarloBot(MonteCarloBot):
    """The ``mc`` bot as it was before issue 21: ``playouts`` worlds, every legal move played
    out once in each, whatever the choice."""

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        check_choice(obs, rng)
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        wins = [0.0] * len(legal)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for _ in range(self.playouts):
            world = determinize(obs, rng)
            if world is None:
                return RuleBot().choose(obs, rng)
            seed = rng.randrange(2**62)
            for i, move in enumerate(legal):
                game = world.copy() if i < len(legal) - 1 else world
                game.push(move)
                _rollout(game, random.Random(seed), self.greedy)
                wins[i] += _reward(game, obs.seat)
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(wins)
        choices = [m for m, w in zip(legal, wins, strict=True) if w == best]
        return choices[0] if len(choices) == 1 else RuleBot().choose(
            _with_legal(obs, choices), rng)


def example_compiled(name: str, workers: int | None, build: str) -> float:
    """:func:`example` with bot ``name`` in a child process importing crazylab from ``build``
    (``-P``: the checkout is not put first on its path)."""
    cmd = [sys.executable, "-P", __file__, "--only", "example", "--bots", name,
           "--build", build, "--child"] + ([] if workers is None else ["--workers", str(workers)])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH="")).stdout
    if "engine compiled" not in out:
        raise SystemExit(f"{build} is not a compiled build: {out}")
    return float(out.split("SECONDS ")[1].split()[0])


def example(bot: object, workers: int | None) -> float:
    """Seconds the README's 1,000-hand example takes with ``bot`` as ``mc``."""
    t0 = time.perf_counter()
    cl.simulate(EXAMPLE_RULES, players=3, bots=[bot, "rules", "random"], games=500, seed=1,
                workers=workers, progress=False)
    return time.perf_counter() - t0


def duel(bot: object, games: int,
         workers: int | None) -> tuple[float, int, float, float, float, float]:
    """(wins, hands, rate, low, high) of ``bot`` against the rules of thumb, and the seconds."""
    t0 = time.perf_counter()
    df = cl.simulate(DUEL_RULES, players=2, bots=[bot, "rules"], games=games, seed=2026,
                     rotate=True, workers=workers, progress=False)
    secs = time.perf_counter() - t0
    row = win_rates(df, by="bot").set_index("bot").loc["mc"]
    return float(row.wins), int(row.hands), float(row.rate), float(row.low), float(row.high), secs


#: the bots this bench can compare, by name
BOTS = {
    "legacy": LegacyMonteCarloBot(),  # before issue 21: 32 worlds for every legal move
    "v1": MonteCarloBot(depth=None, cull=False),  # 96 playouts to the end, halving (d7f62b1)
    "new": MonteCarloBot(),  # the package's default
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["example", "duel"])
    ap.add_argument("--games", type=int, default=2000, help="hands in the duel, per bot")
    ap.add_argument("--workers", type=int, default=None,
                    help="simulate's workers (default: simulate's own default, as a learner "
                         "gets it)")
    ap.add_argument("--bots", default="v1,new",
                    help=f"comma-separated, the first is the baseline: {', '.join(BOTS)}")
    ap.add_argument("--repeat", type=int, default=1,
                    help="timings of the example per bot, interleaved (the best is kept)")
    ap.add_argument("--build", default=str(ROOT / "build" / "compiled"),
                    help="the compiled build the NAME@compiled bots run on")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    names = args.bots.split(",")
    # "new:depth=12:playouts=64": the default bot with other settings
    for n in (n.split("@")[0] for n in names):
        base, *settings = n.split(":")
        if base not in BOTS:
            ap.error(f"--bots takes names among {', '.join(BOTS)} (new:depth=12:playouts=64)")
        if settings:
            kw = {k: None if v == "None" else v == "True" if v in ("True", "False") else int(v)
                  for k, _, v in (x.partition("=") for x in settings)}
            BOTS[n] = replace(BOTS[base], **kw)
    if args.child:  # one timing for a NAME@compiled bot of the parent process
        t = example(BOTS[args.bots], args.workers)
        print(f"engine {cl.engine_build()} SECONDS {t}")
        return 0
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, workers "
          f"{args.workers or 'default'}, load average {os.getloadavg()[0]:.1f}")
    if args.only in (None, "example"):
        print("(a) README lab example: 1,000 hands (2 rule sets x 500), 3 players, "
              "mc/rules/random")
        times: dict[str, list[float]] = {n: [] for n in names}
        for _ in range(args.repeat):
            for n in names:
                base_name, _, build = n.partition("@")
                t = (example_compiled(base_name, args.workers, args.build) if build
                     else example(BOTS[n], args.workers))
                times[n].append(t)
                print(f"  {n:6} mc: {t:7.1f} s   (load {os.getloadavg()[0]:.1f})", flush=True)
        base = min(times[names[0]])
        for n in names:
            best = min(times[n])
            print(f"  {n:6} best {best:7.1f} s   x{base / best:.2f} against {names[0]}")
    if args.only in (None, "duel"):
        print(f"(b) mc vs rules, {args.games} hands of {DUEL_RULES}, 2 players, seats swapped, "
              "seed 2026 for all")
        for n in (n for n in names if "@" not in n):
            wins, hands, rate, lo, hi, secs = duel(BOTS[n], args.games, args.workers)
            print(f"  {n:6} mc: {wins:7.1f} wins of {hands} = {rate:.3f} "
                  f"(95% CI {lo:.3f}-{hi:.3f})  [{secs:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

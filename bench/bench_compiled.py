"""Pure Python against the optional mypyc build of the engine, interleaved in one run.

Run: ``make compiled`` once (it builds ``build/compiled/``), then
``.venv/bin/python bench/bench_compiled.py`` (or ``make bench-compiled``). Options: ``--games N``
(per measurement), ``--repeat R`` (best of R), ``--players N`` (repeatable; default 2 and 4),
``--build DIR`` (the compiled tree, default ``build/compiled``), ``--no-openspiel``.

One package name cannot be imported twice in a process, so each build runs in its own worker
process (the pure one imports this checkout, the compiled one ``--build DIR`` first on
``sys.path``). The parent asks the workers in turn for one measurement at a time — OpenSpiel
(``crazy_eights``, in the pure worker), pure, compiled, and again — and keeps each one's best
CPU time (``time.process_time`` of that worker), so load on a shared machine hits all alike.

Measured: the raw loop of ``bench_engine.crazylab_games`` (``legal_moves``/``push``, undo off)
and ``crazylab.simulate(rules, players, bots="random", workers=1)``, on crazy-eights-quick.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = "crazy-eights-quick"


def _measure(what: str, players: int, games: int) -> float:
    """CPU seconds of one measurement in this (worker) process."""
    import bench_engine as be

    import crazylab as cl

    if what == "raw":
        return be.crazylab_games(cl.rules(RULES), players, games)[0]
    if what == "simulate":
        t0 = time.process_time()
        df = cl.simulate(RULES, players=players, bots="random", games=games, workers=1,
                         progress=False)
        secs = time.process_time() - t0
        assert len(df) == games
        return secs
    if what == "openspiel":
        game = be.openspiel_game(players)
        if game is None:
            return float("nan")
        return be.openspiel_games(game, games)[0]
    raise ValueError(what)


def worker() -> int:
    """Answer ``{"what", "players", "games"}`` lines with CPU seconds, until stdin closes."""
    import crazylab.engine.game as engine_game
    import crazylab.sim

    sys.path.insert(0, str(ROOT / "bench"))
    import bench_engine  # noqa: F401  (it puts the checkout first on sys.path: crazylab is
    # imported already, so the build under test stays the one in use)

    here = Path(engine_game.__file__).parents[2]
    assert Path(crazylab.sim.__file__).parents[1] == here, "one build, not a mix"
    print(json.dumps({"engine": engine_game.__file__,
                      "compiled": not hasattr(engine_game.Game.push, "__code__")}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        print(json.dumps(_measure(job["what"], job["players"], job["games"])), flush=True)
    return 0


class Worker:
    def __init__(self, label: str, build: Path | None) -> None:
        env = dict(os.environ)
        env.pop("CRAZYLAB_COMPILED", None)
        path = [str(build)] if build is not None else [str(ROOT)]
        env["PYTHONPATH"] = os.pathsep.join(path + [p for p in
                                                    [os.environ.get("PYTHONPATH")] if p])
        self.label = label
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self._read())
        self.engine, self.compiled = hello["engine"], hello["compiled"]

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.label} worker stopped (see its error above)")
        return line

    def run(self, what: str, players: int, games: int) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"what": what, "players": players,
                                          "games": games}) + "\n")
        self.proc.stdin.flush()
        return float(json.loads(self._read()))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--games", type=int, default=1000, help="games per measurement")
    ap.add_argument("--repeat", type=int, default=5, help="keep the best of this many runs")
    ap.add_argument("--players", type=int, action="append", default=[])
    ap.add_argument("--build", type=Path, action="append", default=[],
                    help="a compiled tree (repeatable; default build/compiled)")
    ap.add_argument("--no-openspiel", action="store_true")
    args = ap.parse_args(argv)
    if args.worker:
        return worker()
    builds = args.build or [ROOT / "build" / "compiled"]
    for b in builds:
        if not (b / "crazylab").is_dir():
            print(f"no compiled build in {b}: run `make compiled` first")
            return 2
    pure = Worker("pure", None)
    comps = [Worker(f"compiled {b}", b.resolve()) for b in builds]
    if pure.compiled or not all(c.compiled for c in comps):
        print(f"wrong builds: pure {pure.engine}, compiled {[c.engine for c in comps]}")
        return 2
    print(f"Python {sys.version.split()[0]}; {args.games} games per measurement, best of "
          f"{args.repeat}, interleaved; CPU time of each worker\n  pure:     {pure.engine}")
    for i, c in enumerate(comps):
        print(f"  compiled{'' if len(comps) == 1 else f' #{i + 1}'}: {c.engine}")
    head = "".join(f"{'compiled' if len(comps) == 1 else f'#{i + 1}':>10}"
                   f"{'×pure':>7}{'×OS':>7}" for i in range(len(comps)))
    print(f"\n{RULES:<20}{'players':>8}{'OpenSpiel':>11}{'pure':>9}{'×OS':>7}{head}"
          "   (games/s; ×: ratio of games/s)")
    for what in ("raw", "simulate"):
        for n in args.players or [2, 4]:
            runs = [] if args.no_openspiel else [(pure, "openspiel")]
            runs += [(pure, what)] + [(c, what) for c in comps]
            for w, job in runs:  # warm up: imports, tables, OpenSpiel's game
                w.run(job, n, max(1, args.games // 20))
            best = [float("inf")] * len(runs)
            for _ in range(args.repeat):
                for i, (w, job) in enumerate(runs):
                    best[i] = min(best[i], w.run(job, n, args.games))
            rate = [args.games / b for b in best]
            os_rate = float("nan") if args.no_openspiel else rate[0]
            p = rate[len(runs) - len(comps) - 1]
            cols = "".join(f"{c:>10.0f}{c / p:>7.2f}{c / os_rate:>7.2f}"
                           for c in rate[-len(comps):])
            print(f"{what:<20}{n:>8}{os_rate:>11.0f}{p:>9.0f}{p / os_rate:>7.2f}{cols}",
                  flush=True)
    for w in [pure, *comps]:
        w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine-core figures of issue 11, each a ratio measured interleaved in one run.

1. ``crazylab.simulate(rules="crazy-eights-quick", players=N, bots="random", workers=1)``
   against OpenSpiel's ``crazy_eights`` (N players, ``max_draw_cards`` 3, no special cards)
   driven from Python, at 2 and 4 players (target: at least ×2), for the pure package and,
   when it is built (``make compiled``; ``--build DIR``), the optional compiled one, which
   plays in a worker process of its own (:mod:`bench_compiled`).
2. For every preset, ``simulate`` with random bots at one worker against the raw engine loop
   (``legal_moves``/``push``, undo off) on that preset (target: at least 60%).
3. The default path, ``Game.new(...)`` then ``play_random()`` with undo available, against the
   undo-off loop (target: at least 70%).
4. The cost of one move of Crazy Breens and of each music level against plain Crazy Eights
   (target: at most ×2).
5. ``import crazylab`` in a fresh interpreter, bytecode cached (target: under 50 ms).

Run: ``.venv/bin/python bench/bench_core.py [--games 400] [--repeat 5] [--build DIR]
[--on-build]`` (``--on-build``: every figure on the compiled build, what learners run; or
``make bench``, which builds the compiled engine first). Times are this
process's CPU time, best of ``--repeat`` rounds; within a round the two sides of each ratio run
back to back, so load from other work on the machine falls on both alike.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``--on-build``: every figure measures the compiled build (``--build DIR``, default
#: build/compiled), the engine learners play with (``make app``, a wheel built with a compiler)
ON_BUILD = "--on-build" in sys.argv
BUILD = Path(sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv[:-1]
             else ROOT / "build" / "compiled")
sys.path.insert(0, str(BUILD.resolve() if ON_BUILD else ROOT))

import crazylab as cl  # noqa: E402  (before bench_engine, which puts the checkout first)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_compiled import Worker  # noqa: E402
from bench_engine import sample_chance  # noqa: E402

QUICK = "crazy-eights-quick"


def raw_loop(rules: cl.RuleSet, players: int, games: int) -> tuple[float, int]:
    """(CPU seconds, moves) for ``games`` random games with undo off."""
    rng = random.Random(0)
    moves = 0
    t0 = time.process_time()
    for i in range(games):
        game = cl.Game.new(rules, players, seed=i, keep_undo=False)
        while not game.over:
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
        moves += len(game.moves)
    return time.process_time() - t0, moves


def default_path(rules: cl.RuleSet, players: int, games: int) -> tuple[float, int]:
    """(CPU seconds, moves) for ``Game.new`` then ``play_random()``, undo available."""
    moves = 0
    t0 = time.process_time()
    for i in range(games):
        game = cl.Game.new(rules, players, seed=i).play_random(seed=i)
        moves += len(game.moves)
    return time.process_time() - t0, moves


def simulated(rules: cl.RuleSet, players: int, games: int) -> tuple[float, int]:
    """(CPU seconds, moves) for ``simulate`` with random bots in this process."""
    t0 = time.process_time()
    df = cl.simulate(rules, players=players, bots="random", games=games, workers=1,
                     progress=False)
    return time.process_time() - t0, int(df["moves"].sum())


def openspiel(players: int, games: int) -> tuple[float, int] | None:
    """(CPU seconds, decisions) for OpenSpiel random games, chance nodes sampled in Python."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players, "max_draw_cards": 3,
                                               "use_special_cards": False})
    rng = random.Random(0)
    decisions = 0
    t0 = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return time.process_time() - t0, decisions


def best(repeat: int, *runs: Callable[[], tuple[float, int] | None]) -> list[tuple[float, int]]:
    """Each run's fastest of ``repeat`` rounds, the runs alternating within a round."""
    out: list[tuple[float, int]] = [(float("inf"), 0)] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            got = run()
            if got is not None and got[0] < out[i][0]:
                out[i] = got
    return out


def import_ms(repeat: int) -> float:
    """The fastest ``import crazylab`` of ``repeat`` fresh interpreters (bytecode cached)."""
    code = ("import time; t = time.perf_counter(); import crazylab; "
            "print(time.perf_counter() - t)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    python = [sys.executable]
    if ON_BUILD:  # the build's crazylab, the checkout kept off the path
        env["PYTHONPATH"], python = str(BUILD.resolve()), [sys.executable, "-P"]
    subprocess.run([*python, "-c", "import crazylab"], check=True, env=env)  # cache it
    times = [float(subprocess.run([*python, "-c", code], capture_output=True, env=env,
                                  text=True, check=True).stdout) for _ in range(repeat)]
    return min(times) * 1000


def compiled_worker(build: Path) -> Worker | None:
    """A worker process running the compiled build in ``build``, or ``None`` if there is none."""
    if not (build / "crazylab").is_dir():
        return None
    worker = Worker(f"compiled {build}", build.resolve())
    if not worker.compiled:
        worker.close()
        raise SystemExit(f"{build} holds no compiled engine (its game module is {worker.engine})")
    return worker


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per measurement")
    ap.add_argument("--repeat", type=int, default=5, help="best of this many rounds")
    ap.add_argument("--build", type=Path, default=ROOT / "build" / "compiled",
                    help="the compiled build to measure in figure 1 too (make compiled)")
    ap.add_argument("--on-build", action="store_true",
                    help="measure every figure on the compiled build (the learners' engine)")
    args = ap.parse_args(argv)
    if ON_BUILD and cl.engine_build() != "compiled":
        raise SystemExit(f"--on-build: {args.build} holds no compiled engine (make compiled)")
    g, k = args.games, args.repeat
    quick = cl.rules(QUICK)
    for r in map(cl.rules, cl.PRESETS):  # warm every rule set's tables first
        raw_loop(r, 2, 20)
    print(f"Python {sys.version.split()[0]}; {g} games per measurement, best of {k}; "
          f"CPU time; the {cl.engine_build()} engine ({Path(cl.__file__).parent})")

    print("\n1. simulate(random bots, 1 worker) vs OpenSpiel crazy_eights (target ×2)")
    compiled = None if ON_BUILD else compiled_worker(args.build)
    for n in (2, 4):
        runs = [lambda n=n: simulated(quick, n, g), lambda n=n: openspiel(n, g)]
        if compiled is not None:
            compiled.run("simulate", n, max(1, g // 20))  # warm up
            runs.append(lambda n=n: (compiled.run("simulate", n, g), 0))
        # short runs on a shared machine: more rounds than the other figures need
        (sim_s, _), (os_s, _), *comp = best(max(k, 11), *runs)
        if os_s == float("inf"):
            print("   OpenSpiel is not installed (pip install -e '.[bench]'): skipped")
            break
        ratio = os_s / sim_s
        print(f"   {n} players: OpenSpiel {g / os_s:7.0f} games/s; {cl.engine_build()} simulate "
              f"{g / sim_s:7.0f} games/s: ×{ratio:.2f} {verdict(ratio >= 2)}", end="")
        if comp:
            c_ratio = os_s / comp[0][0]
            print(f"; compiled {g / comp[0][0]:7.0f} games/s: ×{c_ratio:.2f} "
                  f"{verdict(c_ratio >= 2)}", end="")
        print()
    if compiled is None and not ON_BUILD:
        print(f"   (no compiled build in {args.build}: `make compiled` adds it here)")
    elif compiled is not None:
        compiled.close()

    print("\n2. simulate(random bots, 1 worker) vs the raw loop, per preset (target ≥ 60%)")
    for name in cl.PRESETS:
        r = cl.rules(name)
        for n in (2, 4):
            if not r.min_players <= n <= r.max_players:
                continue
            (sim_s, _), (raw_s, _) = best(k, lambda r=r, n=n: simulated(r, n, g),
                                          lambda r=r, n=n: raw_loop(r, n, g))
            share = raw_s / sim_s
            print(f"   {name:<22} {n}p: simulate {g / sim_s:7.0f} games/s, raw "
                  f"{g / raw_s:7.0f}: {share:5.0%} {verdict(share >= 0.6)}")

    print("\n3. Game.new + play_random (undo on) vs the undo-off loop (target ≥ 70%)")
    for n in (2, 4):
        (d_s, _), (raw_s, _) = best(k, lambda n=n: default_path(quick, n, g),
                                    lambda n=n: raw_loop(quick, n, g))
        share = raw_s / d_s
        print(f"   {QUICK} {n}p: default {g / d_s:7.0f} games/s, undo off {g / raw_s:7.0f}: "
              f"{share:5.0%} {verdict(share >= 0.7)}")

    print("\n4. cost per move against crazy-eights (target ≤ ×2)")
    plain = cl.rules("crazy-eights")
    for name in ["crazy-breens", "crazy-8s-music"] + [f"crazy-8s-level-{i}" for i in
                                                      range(1, 6)]:
        r = cl.rules(name)
        for n in (2, 4):
            games = max(20, g // 8) if name == "crazy-8s-level-5" else g  # long games
            (v_s, v_m), (p_s, p_m) = best(k, lambda r=r, n=n, games=games: raw_loop(r, n, games),
                                          lambda n=n: raw_loop(plain, n, g))
            ratio = (v_s / v_m) / (p_s / p_m)
            print(f"   {name:<18} {n}p: {v_s / v_m * 1e6:5.2f} µs/move vs "
                  f"{p_s / p_m * 1e6:5.2f}: ×{ratio:.2f} {verdict(ratio <= 2)}")

    ms = import_ms(max(k, 5))
    print(f"\n5. import crazylab: {ms:.1f} ms (target < 50 ms) {verdict(ms < 50)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

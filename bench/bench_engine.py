"""Engine speed: full random games per second for every preset, and the cost of a legal-move
call, against OpenSpiel's ``crazy_eights`` measured in the same run.

Run: ``.venv/bin/python bench/bench_engine.py`` (or ``make bench``). Options: ``--games N``
(per measurement), ``--repeat R`` (best of R), ``--rules NAME`` (repeatable), ``--profile``
(cProfile of the crazy-eights-quick loop, top functions).

Both engines are driven from Python the same way: ask for the legal actions, pick one with
``random.Random``, apply it, until the game ends. OpenSpiel's chance nodes (the deal and every
draw) are sampled by their probabilities in the same loop; its special cards are off.
crazylab games use ``keep_undo=False`` (no undo snapshots), as simulations do.

Times are this process's CPU time (``time.process_time``), best of ``--repeat`` runs, and the
baseline and crazylab's quick rule are measured alternately, so other work on a shared machine
disturbs both alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import crazylab as cl  # noqa: E402

QUICK_LIKE = "crazy-eights-quick"  # the rule set compared with OpenSpiel's game


def crazylab_games(rules: cl.RuleSet, players: int, games: int, seed: int = 0
                   ) -> tuple[float, float]:
    """(seconds, moves per game) for ``games`` random games."""
    rng = random.Random(seed)
    moves = 0
    t0 = time.process_time()
    for i in range(games):
        game = cl.Game.new(rules, players, seed=seed * 1_000_003 + i, keep_undo=False)
        while not game.over:
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
        moves += len(game.moves)
    return time.process_time() - t0, moves / games


def crazylab_legal_cost(rules: cl.RuleSet, players: int, positions: int = 2000,
                        seed: int = 0) -> float:
    """Seconds per uncached ``legal_moves()`` call, over positions met in random games."""
    rng = random.Random(seed)
    games: list[cl.Game] = []
    i = 0
    while len(games) < positions:
        game = cl.Game.new(rules, players, seed=i, keep_undo=False)
        i += 1
        while not game.over and len(games) < positions:
            games.append(game.copy())
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])
    t0 = time.process_time()
    for game in games:
        game._legal_cache = None  # measure generation, not the cache
        game.legal_moves()
    return (time.process_time() - t0) / len(games)


def openspiel_game(players: int) -> object | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("crazy_eights", {"players": players, "use_special_cards": False})


def sample_chance(state: object, rng: random.Random) -> int:
    """An outcome of an OpenSpiel chance node, drawn by its probability."""
    outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def openspiel_games(game: object, games: int, seed: int = 0) -> tuple[float, float]:
    """(seconds, decisions per game) for ``games`` random OpenSpiel games."""
    rng = random.Random(seed)
    decisions = 0
    t0 = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return time.process_time() - t0, decisions / games


def openspiel_legal_cost(game: object, positions: int = 2000, seed: int = 0) -> float:
    rng = random.Random(seed)
    states = []
    while len(states) < positions:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal() and len(states) < positions:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    t0 = time.process_time()
    for state in states:
        state.legal_actions()
    return (time.process_time() - t0) / len(states)


def best_of(repeat: int, *runs: Callable[[], tuple[float, float]]
            ) -> list[tuple[float, float]]:
    """Run each measurement ``repeat`` times, alternating them; keep each one's fastest."""
    best: list[tuple[float, float]] = [(float("inf"), 0.0)] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            best[i] = min(best[i], run())
    return best


def presets(names: list[str]) -> list[cl.RuleSet]:
    out = []
    for name in names or list(cl.PRESETS):
        try:
            cl.Game.new(name, 2, seed=0, keep_undo=False).play_random(0)
        except Exception as e:  # e.g. a rule set whose effects are not written yet
            print(f"  (skipping {name}: {type(e).__name__}: {e})")
            continue
        out.append(cl.rules(name))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per measurement")
    ap.add_argument("--repeat", type=int, default=5, help="keep the best of this many runs")
    ap.add_argument("--rules", action="append", default=[], help="only these presets")
    ap.add_argument("--profile", action="store_true", help="cProfile the quick-rule loop")
    args = ap.parse_args(argv)
    quick = cl.rules(QUICK_LIKE)

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(crazylab_games, quick, 2, args.games)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return 0

    print(f"Python {sys.version.split()[0]}, crazylab {cl.__version__}; {args.games} games per "
          f"measurement, best of {args.repeat}; CPU time of this process")
    baseline: dict[int, float] = {}
    quick_rate: dict[int, float] = {}
    for n in (2, 4):
        game = openspiel_game(n)
        if game is None:
            print("OpenSpiel (pip install open_spiel) is not installed: no OpenSpiel baseline; "
                  f"ratios below are against crazylab's {QUICK_LIKE} instead")
            break
        (os_secs, os_per), (cl_secs, cl_per) = best_of(
            args.repeat, lambda game=game: openspiel_games(game, args.games),
            lambda n=n: crazylab_games(quick, n, args.games))
        baseline[n], quick_rate[n] = args.games / os_secs, args.games / cl_secs
        print(f"  {n} players: OpenSpiel crazy_eights {baseline[n]:7.0f} games/s "
              f"({os_per:.1f} decisions/game, legal_actions "
              f"{openspiel_legal_cost(game) * 1e6:.2f} µs) | crazylab {QUICK_LIKE} "
              f"{quick_rate[n]:7.0f} games/s ({cl_per:.1f} moves/game) | "
              f"ratio {quick_rate[n] / baseline[n]:.2f}")

    rows = []
    for r in presets(args.rules):
        for n in (2, 4):
            if not r.min_players <= n <= r.max_players:
                continue
            (secs, per), = best_of(args.repeat, lambda r=r, n=n: crazylab_games(r, n, args.games))
            rows.append((r.name, n, args.games / secs, per, crazylab_legal_cost(r, n)))
    if not baseline:
        baseline = {n: gps for name, n, gps, _, _ in rows if name == QUICK_LIKE}
    print(f"\n{'crazylab rule set':<24}{'players':>8}{'games/s':>10}{'moves/game':>12}"
          f"{'legal µs':>10}{'× baseline':>12}")
    for name, n, gps, per, legal in rows:
        ratio = f"{gps / baseline[n]:.2f}" if n in baseline else "-"
        print(f"{name:<24}{n:>8}{gps:>10.0f}{per:>12.1f}{legal * 1e6:>10.2f}{ratio:>12}")
    if quick_rate:
        fast = all(quick_rate[n] >= baseline[n] for n in quick_rate)
        print(f"\n{QUICK_LIKE} vs OpenSpiel, measured alternately: " + ", ".join(
            f"{n}p ×{quick_rate[n] / baseline[n]:.2f}" for n in quick_rate)
            + ("  -> at least as fast per game" if fast else "  -> SLOWER per game"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

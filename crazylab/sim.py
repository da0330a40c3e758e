"""The simulation lab: many hands played by bots, one row per hand in a pandas DataFrame.

>>> import crazylab as cl
>>> df = cl.simulate("crazy-eights-quick", players=2, bots=["rules", "random"], games=20,
...                  seed=1, workers=1)
>>> len(df), sorted(set(df.reason)) <= ["BLOCKED", "OUT", "VOID"]
(20, True)

Every hand is dealt and played from seeds derived from ``seed`` and the hand's number alone,
so a run is reproducible whatever the number of workers, and the same hand numbers get the
same deals under every rule set of a run (paired comparisons). ``workers`` processes run the
hands on this machine; ``client=`` runs them on a Dask cluster (a ``dask.distributed.Client``)
or any ``concurrent.futures.Executor``. pandas is imported only when a run is made.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeGuard

from .bots import Bot, bot_name, make_bot, play_hand
from .engine.game import Game
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "add_simulate_parser", "hand_seed", "play_one", "simulate"]

#: the columns of a simulation's DataFrame before the per-seat ``bot_<s>`` and ``score_<s>``
COLUMNS = ("hand", "seed", "rules", "options", "variant", "players", "bots", "winner",
           "winners", "winner_bot", "reason", "blocked", "turns", "moves", "cards_drawn",
           "reshuffles", "points")

#: runs with at least this many hands show a progress bar unless ``progress=False``
PROGRESS_FROM = 2000
#: with ``workers=None``, smaller runs play in this process (starting workers costs more)
PARALLEL_FROM = 200

_MASK = (1 << 64) - 1


def _mix(*parts: int) -> int:
    """A 62-bit seed from integers (splitmix64 steps): the same on every machine and run."""
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ (x >> 31)) * 0x94D049BB133111EB & _MASK
        x ^= x >> 29
    return x >> 2


def hand_seed(seed: int, hand: int) -> int:
    """The deal's seed of hand number ``hand`` in a run seeded with ``seed``."""
    return _mix(seed, hand, 1)


@dataclass(frozen=True)
class _Config:
    """One rule set at one table size, with the bots of its seats."""

    rules: RuleSet
    players: int
    bots: tuple[Any, ...]  # a name or a Bot per entry; seat s uses entry (s + shift) % len
    rotate: bool


def _seat_bots(config: _Config, hand: int) -> list[Any]:
    k = len(config.bots)
    shift = hand if config.rotate else 0
    return [config.bots[(s + shift) % k] for s in range(config.players)]


def options_text(r: RuleSet) -> str:
    """The options changed from the preset, ``"draw_limit=2, reshuffle=never"``."""
    return ", ".join(f"{k}={getattr(r, k)}" for k in r.options_changed)


def variant_label(r: RuleSet) -> str:
    opts = options_text(r)
    return f"{r.name} [{opts}]" if opts else r.name


def play_one(config: _Config, hand: int, seed: int, max_seats: int) -> dict[str, Any]:
    """Deal and play hand number ``hand``; its row."""
    specs = _seat_bots(config, hand)
    bots: list[Bot] = [make_bot(b) for b in specs]
    n = config.players
    game = Game.new(config.rules, n, seed=hand_seed(seed, hand), keep_undo=False)
    play_hand(game, bots, [random.Random(_mix(seed, hand, 2, s)) for s in range(n)])
    names = [bot_name(b) for b in bots]
    winners = game.winners
    scores = game.scores
    row: dict[str, Any] = {
        "hand": hand, "seed": game.seed, "rules": config.rules.name,
        "options": options_text(config.rules), "variant": variant_label(config.rules),
        "players": n, "bots": "|".join(names),
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": ",".join(map(str, winners)),
        "winner_bot": names[winners[0]] if len(winners) == 1 else None,
        "reason": game.end_reason, "blocked": game.end_reason != "OUT",
        "turns": game.turns, "moves": len(game.moves),
        "cards_drawn": sum(e.count for e in game.events if e.kind == "drew"),
        "reshuffles": game.reshuffles, "points": sum(abs(p) for p in scores),
    }
    for s in range(max_seats):
        row[f"bot_{s}"] = names[s] if s < n else None
    for s in range(max_seats):
        row[f"score_{s}"] = scores[s] if s < n else None
    return row


def _run_chunk(configs: Sequence[_Config], tasks: Sequence[tuple[int, int]], seed: int,
               max_seats: int) -> list[tuple[int, int, dict[str, Any]]]:
    """Worker entry point: play ``(config, hand)`` tasks; rows keyed for sorting."""
    return [(c, h, play_one(configs[c], h, seed, max_seats)) for c, h in tasks]


def _as_list(value: Any, kinds: tuple[type, ...]) -> list[Any]:
    if isinstance(value, kinds):
        return [value]
    return list(value)


def _bare(r: RuleSet) -> RuleSet:
    """The same rule set without its cached tables (small to send to a worker)."""
    return replace(r)


def _progress_bar(total: int, show: bool | None) -> Any:
    if show is None:
        show = total >= PROGRESS_FROM
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the lab extra is not installed: no bar
        return None
    return tqdm(total=total, desc="hands", unit="hand")


def simulate(rules: str | RuleSet | Iterable[str | RuleSet] = "crazy-eights",
             players: int | Iterable[int] = 2, bots: str | Bot | Sequence[str | Bot] = "random",
             games: int = 100, seed: int = 0, *, workers: int | None = None,
             client: Any = None, progress: bool | None = None, rotate: bool = False,
             chunk: int | None = None) -> pd.DataFrame:
    """Play ``games`` hands for every rule set × table size and return one row per hand.

    ``rules``: a preset name, a :class:`RuleSet` (``cl.rules("crazy-eights", draw_limit=2)``)
    or a list of them. ``players``: a table size or a list. ``bots``: a bot name
    (``"random"``, ``"rules"``, ``"mc"``), a bot, or a list given to the seats in order and
    repeated as needed; ``rotate=True`` moves the list one seat on every hand (hand ``h``:
    seat ``s`` gets entry ``(s + h) % len``), so no bot keeps the first seat. ``workers``:
    processes on this machine (default: every core, or 1 for runs under
    :data:`PARALLEL_FROM` hands; 1 plays here); ``client``: a Dask
    ``Client`` or a ``concurrent.futures.Executor`` to run on instead. ``progress``: a tqdm
    bar (default: on for runs of :data:`PROGRESS_FROM` hands or more).

    Columns: ``hand`` (its number), ``seed`` (its deal), ``rules``, ``options`` (changed from
    the preset), ``variant`` (both), ``players``, ``bots`` (per seat, ``|``-separated),
    ``winner`` (the seat, or missing without a single winner), ``winners``, ``winner_bot``,
    ``reason`` (``OUT``, ``BLOCKED``, ``VOID``), ``blocked``, ``turns``, ``moves``,
    ``cards_drawn``, ``reshuffles``, ``points`` (what the hand paid: the sum of the seats'
    scores, signs dropped), then ``bot_<s>`` and ``score_<s>`` per seat.
    """
    import pandas as pd

    rule_sets = [get_rules(r) if isinstance(r, str) else r
                 for r in _as_list(rules, (str, RuleSet))]
    sizes = [int(n) for n in _as_list(players, (int,))]
    bot_list = _as_list(bots, (str,)) if not _is_bot(bots) else [bots]
    if not rule_sets or not sizes or not bot_list:
        raise ValueError("simulate needs at least one rule set, table size and bot")
    for b in bot_list:
        make_bot(b)  # fail early on a bad name
    if games < 0:
        raise ValueError(f"games must not be negative, not {games}")
    configs = []
    for r in rule_sets:
        for n in sizes:
            if not r.min_players <= n <= r.max_players:
                raise ValueError(f"{r.name} is for {r.min_players}-{r.max_players} players, "
                                 f"not {n}")
            configs.append(_Config(_bare(r), n, tuple(bot_list), rotate))
    max_seats = max(sizes)
    tasks = [(c, h) for c in range(len(configs)) for h in range(games)]
    bar = _progress_bar(len(tasks), progress)
    try:
        results = _execute(configs, tasks, seed, max_seats, workers, client, chunk, bar)
    finally:
        if bar is not None:
            bar.close()
    results.sort(key=lambda t: (t[0], t[1]))
    columns = [*COLUMNS, *(f"bot_{s}" for s in range(max_seats)),
               *(f"score_{s}" for s in range(max_seats))]
    df = pd.DataFrame([row for _, _, row in results], columns=columns)
    df["winner"] = df["winner"].astype("Int64")
    for s in range(max_seats):
        df[f"score_{s}"] = df[f"score_{s}"].astype("Int64")
    df.attrs["seed"] = seed
    return df


def _is_bot(value: Any) -> TypeGuard[Bot]:
    return not isinstance(value, str) and callable(getattr(value, "choose", None))


def _execute(configs: list[_Config], tasks: list[tuple[int, int]], seed: int, max_seats: int,
             workers: int | None, client: Any, chunk: int | None, bar: Any
             ) -> list[tuple[int, int, dict[str, Any]]]:
    slots = 8  # with a client
    if client is None:
        if workers is None:  # every core, unless the run is too small to pay
            workers = 1 if len(tasks) < PARALLEL_FROM else os.cpu_count() or 1
        workers = slots = max(1, int(workers))
    size = chunk or max(1, min(250, math.ceil(len(tasks) / (4 * slots or 1))))
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    if client is None and (workers == 1 or len(chunks) <= 1):
        out = []
        for part in chunks:
            out += _run_chunk(configs, part, seed, max_seats)
            if bar is not None:
                bar.update(len(part))
        return out
    if client is not None:
        executor = client.get_executor() if hasattr(client, "get_executor") else client
        return _gather(executor, configs, chunks, seed, max_seats, bar)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=min(slots, len(chunks)),
                             mp_context=multiprocessing.get_context(method)) as pool:
        return _gather(pool, configs, chunks, seed, max_seats, bar)


def _gather(executor: Any, configs: list[_Config], chunks: list[list[tuple[int, int]]],
            seed: int, max_seats: int, bar: Any) -> list[tuple[int, int, dict[str, Any]]]:
    from concurrent.futures import as_completed

    futures = {executor.submit(_run_chunk, configs, part, seed, max_seats): len(part)
               for part in chunks}
    out = []
    for f in as_completed(futures):
        out += f.result()
        if bar is not None:
            bar.update(futures[f])
    return out


# -- command line ------------------------------------------------------------------------------


def add_simulate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``crazylab simulate`` to an argparse subparsers object."""
    p = subparsers.add_parser(
        "simulate", help="play many hands with bots; print a summary, write CSV or Parquet",
        description="Play many hands with computer players and summarise them. Example: "
                    "crazylab simulate crazy-eights-classic crazy-eights-quick -n 2 -n 4 "
                    "--bots rules,random --games 2000 --out hands.parquet")
    p.add_argument("rules", nargs="*", default=["crazy-eights"],
                   help="preset names (default: crazy-eights)")
    p.add_argument("-n", "--players", type=int, action="append",
                   help="table size; repeat for several (default: 2)")
    p.add_argument("--bots", default="random",
                   help="comma-separated bots given to the seats in order, repeated as needed: "
                        "random, rules, mc, mc:PLAYOUTS (default: random)")
    p.add_argument("--games", type=int, default=1000, help="hands per rule set and table size")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option for every rule set, e.g. draw_limit=2 (repeatable)")
    p.add_argument("--rotate", action="store_true", help="move the bots one seat each hand")
    p.add_argument("--out", help="write the hands to this .csv or .parquet file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)
    return p


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run ``crazylab simulate``; exit 0, or 2 for bad arguments."""
    from .engine.options import parse_option
    from .engine.rules import RulesError

    try:
        options = dict(parse_option(item) for item in args.option)
        rule_sets = [get_rules(name, **options) for name in args.rules]
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        if args.out and not args.out.endswith((".csv", ".parquet")):
            raise ValueError(f"--out {args.out!r}: the file must end in .csv or .parquet")
        df = simulate(rule_sets, players=args.players or [2], bots=bots, games=args.games,
                      seed=args.seed, workers=args.workers, rotate=args.rotate,
                      progress=False if args.no_progress else None)
    except (RulesError, ValueError, TypeError) as e:
        print(f"crazylab simulate: {e}", file=sys.stderr)
        return 2
    import pandas as pd

    from .lab import summary, win_rates

    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(summary(df).to_string())
        print()
        print(win_rates(df, by="bot").to_string(index=False))
    if args.out:
        if args.out.endswith(".parquet"):
            df.to_parquet(args.out, index=False)
        else:
            df.to_csv(args.out, index=False)
        print(f"\nwrote {len(df)} hands to {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m crazylab.sim …``: the ``simulate`` subcommand on its own."""
    parser = argparse.ArgumentParser(prog="crazylab")
    add_simulate_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["simulate", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())

"""The simulation lab: many hands played by bots, one row per hand in a pandas DataFrame.

>>> import crazylab as cl
>>> df = cl.simulate("crazy-eights-quick", players=2, bots=["rules", "random"], games=20,
...                  seed=1, workers=1)
>>> len(df), sorted(set(df.reason)) <= ["BLOCKED", "OUT", "VOID"]
(20, True)

Every hand is dealt and played from seeds derived from ``seed`` and the hand's number alone,
so a run is reproducible whatever the number of workers, and the same hand numbers get the
same deals under every rule set of a run (paired comparisons): ``start=k`` plays hands ``k`` on,
exactly as a run from 0 plays them (a seeded run resumes). ``workers`` processes run the
hands on this machine (by default one per CPU this process may use: its affinity and cgroup
quota); ``client=`` runs them on a Dask cluster (a ``dask.distributed.Client``: a few chunks
per worker thread in flight) or any ``concurrent.futures.Executor``. With ``out=DIR`` every
chunk is written as its own Parquet file ``DIR/part-<first hand>.parquet`` where it was played
(on a cluster, by the workers: ``DIR`` must be on a file system they share), and only small
summaries come back, so the caller's memory does not grow with the run. pandas is imported
only when a run is made.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import math
import os
import pickle
import queue
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeGuard

from .bots import Bot, BotError, RandomBot, RuleBot, bot_name, make_bot
from .engine import checks
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules
from .errors import CrazylabError, quote
from .playout import hand_summary, play_dealt

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "PartSummary", "SimulationError", "SimulationInterrupted",
           "available_cpus", "bots_seed", "check_bot", "check_dataset", "check_out",
           "client_threads", "hand_seed", "play_one", "read_dataset", "simulate",
           "table_configs", "write_atomically"]

#: the columns of a simulation's DataFrame before the per-seat ``bot_<s>`` and ``score_<s>``
COLUMNS = ("hand", "seed", "rules", "options", "variant", "players", "bots", "winner",
           "winners", "winner_bot", "reason", "blocked", "turns", "moves", "cards_drawn",
           "reshuffles", "points")

#: runs with at least this many hands (or with a slow bot, such as ``mc``: any bot but
#: ``random`` and ``rules``) show a progress bar unless ``progress=False``: about 2 s of hands
PROGRESS_FROM = 500
#: with ``workers=None``, smaller runs play in this process (starting workers costs more)
PARALLEL_FROM = 200
#: the most hands one run may ask for (rule sets × table sizes × ``games``): a trillion
#: (hands are handed out lazily, so a run that long only ends by Ctrl-C)
MAX_HANDS = 10**12
#: the longest list of bots a run takes
MAX_BOTS = 1000
#: the largest ``chunk`` (hands sent to a worker at once: its task list is built whole)
MAX_CHUNK = 100_000
#: the default chunk is at most this many hands (rows come back to the caller) …
ROWS_CHUNK = 250
#: … or this many with ``out=`` (each chunk is one Parquet part file)
PART_CHUNK = 10_000
#: with a Dask client, the chunks in flight per worker thread (the next ones wait queued on
#: the workers, so none idles between two chunks)
DASK_AHEAD = 3
#: cgroup v2's CPU quota of this process (``max 100000``: none; ``150000 100000``: 1.5 CPUs)
CPU_MAX = Path("/sys/fs/cgroup/cpu.max")

_MASK = (1 << 64) - 1


def _mix_state(x: int, parts: Iterable[int]) -> int:
    """The splitmix64 state after mixing ``parts`` into ``x`` (a seed is its top 62 bits; a
    shared prefix of parts can be mixed once)."""
    for p in parts:
        x = (x ^ (p & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ (x >> 31)) * 0x94D049BB133111EB & _MASK
        x ^= x >> 29
    return x


def hand_seed(seed: int, hand: int) -> int:
    """The deal's seed of hand number ``hand`` in a run seeded with ``seed``."""
    return _hand_seeds(_whole("seed", seed), _whole("hand", hand, 0))[0]


def bots_seed(seed: int, hand: int) -> int:
    """The seed of the bots' generator in hand number ``hand`` of a run seeded with ``seed``
    (the seats draw from it in turn)."""
    return _hand_seeds(_whole("seed", seed), _whole("hand", hand, 0))[1]


def _hand_seeds(seed: int, hand: int) -> tuple[int, int]:
    """``(hand_seed(seed, hand), bots_seed(seed, hand))``: the parts ``(seed, hand, 1)`` and
    ``(seed, hand, 2)`` mixed from the golden-ratio constant (their shared prefix once), the
    top 62 bits of each."""
    base = _mix_state(0x9E3779B97F4A7C15, (seed, hand))
    return _mix_state(base, (1,)) >> 2, _mix_state(base, (2,)) >> 2


@dataclass(frozen=True)
class _Config:
    """One rule set at one table size, with the bots of its seats."""

    rules: RuleSet
    players: int
    bots: tuple[Any, ...]  # a name or a Bot per entry; seat s uses entry (s + shift) % len
    rotate: bool

    @cached_property
    def texts(self) -> tuple[str, str, str]:
        """The rule set's name, ``options`` and ``variant`` columns (the same every hand)."""
        return self.rules.name, options_text(self.rules), variant_label(self.rules)

    @cached_property
    def seatings(self) -> tuple[tuple[list[Bot], list[str], str], ...]:
        """For each shift of the bot list: the seats' bots, their names and the ``bots``
        column. Named bots are made once per run (they are frozen dataclasses, so sharing one
        between hands changes nothing)."""
        made = [make_bot(b) for b in self.bots]
        out = []
        for shift in range(len(self.bots) if self.rotate else 1):
            bots = [made[(s + shift) % len(made)] for s in range(self.players)]
            names = [bot_name(b) for b in bots]
            out.append((bots, names, "|".join(names)))
        return tuple(out)


def options_text(r: RuleSet) -> str:
    """The options changed from the preset, ``"draw_limit=2, reshuffle=never"``."""
    return ", ".join(f"{k}={getattr(r, k)}" for k in r.options_changed)


def variant_label(r: RuleSet) -> str:
    opts = options_text(r)
    return f"{r.name} [{opts}]" if opts else r.name


def play_one(config: _Config, hand: int, seed: int, max_seats: int) -> tuple[Any, ...]:
    """Deal and play hand number ``hand``; its row (values in :func:`_column_names` order)."""
    seatings = config.seatings
    bots, names, bots_text = seatings[hand % len(seatings)]
    n = config.players
    deal, bots_rng = _hand_seeds(seed, hand)
    game = play_dealt(config.rules, n, deal, bots, bots_rng)
    winner, winners, reason, turns, moves, drawn, reshuffles, points = hand_summary(game)
    missing = (None,) * (max_seats - n)
    return (hand, deal, *config.texts, n, bots_text, winner, winners,
            None if winner is None else names[winner], reason, reason != "OUT", turns, moves,
            drawn, reshuffles, points, *names, *missing, *game.scores, *missing)


def _run_chunk(configs: Sequence[_Config], tasks: Sequence[tuple[int, int]], seed: int,
               max_seats: int, out: str | None = None
               ) -> list[tuple[int, int, tuple[Any, ...]]] | PartSummary:
    """Worker entry point: play ``(config, hand)`` tasks; rows keyed for sorting, or with
    ``out`` (a dataset folder) the rows written there as one part file and its summary."""
    if out is None:
        return [(c, h, play_one(configs[c], h, seed, max_seats)) for c, h in tasks]
    return _write_part(configs, tasks, seed, max_seats, Path(out))


class PartSummary(NamedTuple):
    """What a part file of a dataset run sends back: its config (the index of its rule set ×
    table size), first and last hand, and the sums behind :func:`crazylab.lab.summary` and
    :func:`crazylab.lab.win_rates` (``wins``: ``(bot, seat-hands, wins)`` per bot)."""

    config: int
    first: int
    last: int
    hands: int
    sums: tuple[float, ...]  # turns, moves, cards_drawn, reshuffles, blocked, points
    wins: tuple[tuple[str, int, float], ...]


#: the columns of :func:`crazylab.lab.summary` that a dataset run's summaries add up
_SUMMED = ("turns", "moves", "cards_drawn", "reshuffles", "blocked", "points")


def _part_name(config: int, first: int, n_configs: int) -> str:
    """``part-000000001000.parquet`` (``part-<config>-<first hand>`` for several rule sets or
    table sizes): the numbers zero-padded, so the names sort in hand order."""
    return (f"part-{first:012d}.parquet" if n_configs == 1
            else f"part-{config}-{first:012d}.parquet")


def _write_part(configs: Sequence[_Config], tasks: Sequence[tuple[int, int]], seed: int,
                max_seats: int, out: Path) -> PartSummary:
    """Play ``tasks`` (hands of one config, in order), write them to their part file in
    ``out`` (atomically) and return its summary."""
    c = tasks[0][0]
    rows = [play_one(configs[c], h, seed, max_seats) for _, h in tasks]
    df = _frame(rows, _columns(max_seats), None)
    _write_file(out / _part_name(c, tasks[0][1], len(configs)),
                lambda tmp: _to_parquet(df, tmp, max_seats))
    # seat-hands and wins per bot, as crazylab.lab.seat_table counts them (a shared win
    # is a fraction): from the rows, since the lab imports this module
    at = {name: i for i, name in enumerate(_column_names(max_seats))}
    by_bot: dict[str, list[float]] = {}
    for row in rows:
        winners = [int(w) for w in row[at["winners"]].split(",") if w != ""]
        for seat in range(row[at["players"]]):
            total = by_bot.setdefault(row[at[f"bot_{seat}"]], [0, 0.0])
            total[0] += 1
            total[1] += 1 / len(winners) if seat in winners else 0.0
    wins = tuple((b, int(n), w) for b, (n, w) in sorted(by_bot.items()))
    sums = tuple(float(df[col].sum()) for col in _SUMMED)
    return PartSummary(c, tasks[0][1], tasks[-1][1], len(df), sums, wins)


def _to_parquet(df: pd.DataFrame, path: str, max_seats: int) -> None:
    """Write ``df`` with the dataset's fixed schema (a part whose ``winner_bot`` or ``bot_3``
    holds no value still types it as text, so the parts read back as one table)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"hand": pa.int64(), "seed": pa.int64(), "players": pa.int64(),
             "winner": pa.int64(), "blocked": pa.bool_()}
    fields = []
    for col in _column_names(max_seats):
        if col in types:
            kind = types[col]
        elif col in _SUMMED or col.startswith("score_"):
            kind = pa.int64()
        else:
            kind = pa.string()
        fields.append(pa.field(col, kind))
    table = pa.Table.from_pandas(df, schema=pa.schema(fields), preserve_index=False)
    pq.write_table(table, path)


class SimulationError(CrazylabError):
    """A simulation that cannot run as asked (a bad argument, workers that cannot start)."""


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a kernel interrupt) stopped :func:`simulate`: ``rows`` holds the hands
    finished so far (``partial`` makes them a DataFrame), ``total`` the hands asked for. The
    worker processes are stopped before this is raised."""

    def __init__(self, rows: list[tuple[Any, ...]], total: int, columns: list[str],
                 done: int | None = None, resume: int | None = None) -> None:
        done = len(rows) if done is None else done
        super().__init__(f"interrupted after {done} of {total} hands")
        self.rows, self.total, self.columns = rows, total, columns
        #: hands finished (with ``out=``, in the dataset's part files, not in ``rows``)
        self.done = done
        #: with ``out=``: the ``start`` that completes the dataset (every hand before it is in
        #: a part file; parts from it on are replaced when the run resumes)
        self.resume = resume

    def partial(self) -> pd.DataFrame:
        """The hands finished before the interrupt, as :func:`simulate` would return them."""
        return _frame(self.rows, self.columns, None)


def _as_list(value: Any, kinds: tuple[type, ...], what: str = "") -> list[Any]:
    """``value`` as a list: one of ``kinds`` or any iterable (``what`` names it in errors)."""
    if isinstance(value, kinds):
        return [value]
    try:
        return list(value)
    except TypeError:
        raise SimulationError(f"{what or 'the value'} or a list of them, not {quote(value)}"
                              ) from None


def _bare(r: RuleSet) -> RuleSet:
    """The same rule set without its cached tables (small to send to a worker)."""
    return replace(r)


def _sendable(configs: list[_Config]) -> list[_Config]:
    """``configs`` with bare rule sets, to send to workers (in this process, the tables the
    rule sets have built already are kept)."""
    return [replace(c, rules=_bare(c.rules)) for c in configs]


def _progress_bar(total: int, show: bool | None, slow: bool = False) -> Any:
    """A tqdm bar for ``total`` hands: by default for runs expected to take a few seconds
    (:data:`PROGRESS_FROM` hands, or any number with a ``slow`` bot)."""
    if show is None:
        show = total >= PROGRESS_FROM or (slow and total > 1)
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the lab extra is not installed: no bar
        return None
    return tqdm(total=total, desc="hands", unit="hand")


def _whole(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    return checks.whole(name, value, low, high, SimulationError)


def _flag(name: str, value: Any, none: bool = False) -> None:
    """A boolean argument is ``True`` or ``False`` (``"no"`` is not false), or ``None``."""
    if none:
        checks.flag_or_none(name, value, SimulationError)
    else:
        checks.flag(name, value, SimulationError)


def max_workers() -> int:
    """The most worker processes a run may start: four per core."""
    return 4 * (os.cpu_count() or 1)


def available_cpus() -> int:
    """The CPUs this process may use: its affinity mask (``taskset``, a batch scheduler), at
    most its cgroup v2 quota rounded up (:data:`CPU_MAX`: a container or a hub user limited
    to 1.5 CPUs gets 2), at least 1; ``os.cpu_count()`` counts the host's cores instead."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        n = os.cpu_count() or 1
    try:
        quota, *rest = CPU_MAX.read_text().split()
        period = int(rest[0]) if rest else 100_000
        if quota != "max" and int(quota) > 0 and period > 0:
            n = min(n, math.ceil(int(quota) / period))
    except (OSError, ValueError):  # no cgroup v2 file, or one that cannot be read
        pass
    return max(1, n)


def client_threads(client: Any) -> int:
    """The worker threads of a Dask client's cluster (``client.nthreads()``), at least 1
    (a cluster still starting has none yet)."""
    try:
        threads = client.nthreads()
        return max(1, sum(int(n) for n in threads.values()))
    except Exception:  # not a Dask client, or a scheduler that does not answer
        return 1


def _is_dask(client: Any) -> bool:
    """A ``dask.distributed.Client`` (or one like it): ``submit`` and ``nthreads``."""
    return callable(getattr(client, "nthreads", None)) and callable(
        getattr(client, "submit", None))


def _plan(total: int, workers: int, client: Any, chunk: int | None, dataset: bool
          ) -> tuple[int, int]:
    """``(size, ahead)``: hands per chunk and the chunks in flight at most. Processes here
    keep two chunks each; a Dask cluster :data:`DASK_AHEAD` per worker thread; another
    executor 16. The default size gives every slot about four chunks, at most
    :data:`ROWS_CHUNK` hands (:data:`PART_CHUNK` for a dataset's part files)."""
    if client is None:
        slots, ahead = workers, 2 * workers
    elif _is_dask(client):
        slots = client_threads(client)
        ahead = DASK_AHEAD * slots
    else:
        slots, ahead = 8, 16
    cap = PART_CHUNK if dataset else ROWS_CHUNK
    return chunk or max(1, min(cap, math.ceil(total / (4 * slots)))), ahead


def check_bot(spec: Any) -> Bot:
    """The bot ``spec`` names (``"random"``, ``"rules"``, ``"mc"``, ``"mc:200"``) or ``spec``
    itself if it is a bot; :class:`SimulationError` naming the problem otherwise (the
    message of :func:`~crazylab.bots.make_bot`'s ``BotError``)."""
    try:
        return make_bot(spec)
    except BotError as e:
        raise SimulationError(str(e)) from None


def _columns(max_seats: int) -> list[str]:
    return list(_column_names(max_seats))


@cache
def _column_names(max_seats: int) -> tuple[str, ...]:
    return (*COLUMNS, *(f"bot_{s}" for s in range(max_seats)),
            *(f"score_{s}" for s in range(max_seats)))


def _frame(rows: list[tuple[Any, ...]], columns: list[str], seed: int | None) -> pd.DataFrame:
    import pandas as pd

    # column by column: a quarter of the cost of pandas reading the rows as records (no rows:
    # as records, so an empty run keeps its object columns)
    data = dict(zip(columns, map(list, zip(*rows, strict=True)), strict=True)) if rows else rows
    df = pd.DataFrame(data, columns=columns)
    df["winner"] = df["winner"].astype("Int64")
    for col in columns:
        if col.startswith("score_"):
            df[col] = df[col].astype("Int64")
    if seed is not None:
        df.attrs["seed"] = seed
    return df


def simulate(rules: str | RuleSet | Iterable[str | RuleSet] = "crazy-eights",
             players: int | Iterable[int] = 2, bots: str | Bot | Sequence[str | Bot] = "random",
             games: int = 100, seed: int = 0, *, workers: int | None = None,
             client: Any = None, progress: bool | None = None, rotate: bool = False,
             chunk: int | None = None, start: int = 0,
             out: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Play ``games`` hands for every rule set × table size and return one row per hand.

    ``rules``: a preset name, a :class:`RuleSet` (``cl.rules("crazy-eights", draw_limit=2)``)
    or a list of them. ``players``: a table size or a list. ``bots``: a bot name
    (``"random"``, ``"rules"``, ``"mc"``), a bot, or a list given to the seats in order and
    repeated as needed; ``rotate=True`` moves the list one seat on every hand (hand ``h``:
    seat ``s`` gets entry ``(s + h) % len``), so no bot keeps the first seat. ``workers``:
    processes on this machine (default: :func:`available_cpus`, or 1 for runs under
    :data:`PARALLEL_FROM` hands; 1 plays here); ``client``: a Dask
    ``Client`` (:data:`DASK_AHEAD` chunks per worker thread in flight) or a
    ``concurrent.futures.Executor`` to run on instead. ``progress``: a tqdm
    bar (default: on for runs of :data:`PROGRESS_FROM` hands or more, or with an ``mc`` bot).
    ``start``: play hands ``start`` to ``games - 1`` only, each exactly as in the whole run
    (resume a seeded run). ``out``: a folder (created if need be) that receives the hands as a
    Parquet dataset, one ``part-<first hand>.parquet`` per chunk written where the chunk was
    played; ``simulate`` then returns :func:`crazylab.lab.summary` of the hands instead of
    the hands (``attrs["wins"]``: the per-bot win counts; read the hands with
    :func:`read_dataset`). Resuming (``start`` > 0) replaces the folder's parts from
    ``start`` on.

    Every argument is checked before the first hand (:class:`SimulationError`, or the
    bots' :class:`~crazylab.bots.BotError`): at most :data:`MAX_HANDS` hands in all, at most
    :func:`max_workers` workers, a ``chunk`` up to :data:`MAX_CHUNK`, ``rotate`` and
    ``progress`` real booleans, a ``client`` with ``submit`` (or ``get_executor``), mc
    playouts at most ``MAX_PLAYOUTS``. Hands are
    handed out lazily, a few chunks ahead of the workers, so memory does not grow with
    ``games``. An interrupt (Ctrl-C) stops the workers and raises
    :class:`SimulationInterrupted` holding the hands finished so far. From a script, workers
    need the call under ``if __name__ == "__main__":`` (each worker imports the script); run
    at a script's top level, the hands are played in this process, with a warning saying so.

    Columns: ``hand`` (its number), ``seed`` (its deal), ``rules``, ``options`` (changed from
    the preset), ``variant`` (both), ``players``, ``bots`` (per seat, ``|``-separated),
    ``winner`` (the seat, or missing without a single winner), ``winners``, ``winner_bot``,
    ``reason`` (``OUT``, ``BLOCKED``, ``VOID``), ``blocked``, ``turns``, ``moves``,
    ``cards_drawn``, ``reshuffles``, ``points`` (what the hand paid: the sum of the seats'
    scores, signs dropped), then ``bot_<s>`` and ``score_<s>`` per seat.
    """
    _flag("rotate", rotate)
    _flag("progress", progress, none=True)
    configs, max_seats = table_configs(rules, players, bots, rotate)
    _whole("games", games, 0, MAX_HANDS)
    if len(configs) * games > MAX_HANDS:
        raise SimulationError(f"{len(configs)} rule sets and table sizes × games={games} is "
                              f"{len(configs) * games} hands: at most {MAX_HANDS} in one run")
    _whole("seed", seed)
    if workers is not None:
        _whole("workers", workers, 1, max_workers())
    if chunk is not None:
        _whole("chunk", chunk, 1, MAX_CHUNK)
    if client is not None and not (callable(getattr(client, "get_executor", None))
                                   or callable(getattr(client, "submit", None))):
        raise SimulationError(f"client must be a dask.distributed.Client or a "
                              f"concurrent.futures.Executor, not {quote(client)}")
    _whole("start", start, 0, games)
    import pandas as pd  # noqa: F401  (fail now, not after the run, without pandas)

    folder = None if out is None else check_dataset(out, len(configs), start)
    columns = _columns(max_seats)
    total = len(configs) * (games - start)
    slow = any(not isinstance(make_bot(b), (RandomBot, RuleBot))
               for c in configs for b in c.bots)
    if folder is not None:
        _clear_parts(folder, start)
    bar = _progress_bar(total, progress, slow)
    rows: dict[tuple[int, int], tuple[Any, ...]] = {}
    parts: list[PartSummary] = []
    try:
        _execute(configs, games, seed, max_seats, workers, client, chunk, bar,
                 rows, start=start, out=folder, parts=parts)
    except KeyboardInterrupt:
        if bar is not None:
            bar.leave = False
        if folder is not None:
            raise SimulationInterrupted([], total, columns, sum(p.hands for p in parts),
                                        _resume_from(parts, len(configs), start)) from None
        raise SimulationInterrupted([rows[k] for k in sorted(rows)], total, columns) from None
    finally:
        if bar is not None:
            bar.close()
    if folder is not None:
        return _dataset_summary(configs, parts, seed, folder)
    return _frame([rows[k] for k in sorted(rows)], columns, seed)


def _resume_from(parts: Sequence[PartSummary], n_configs: int, start: int) -> int:
    """The first hand, over every config, from which some hand is missing from ``parts``."""
    ends = []
    for c in range(n_configs):
        k = start
        for p in sorted(p for p in parts if p.config == c):
            if p.first == k:
                k = p.last + 1
        ends.append(k)
    return min(ends)


def _dataset_summary(configs: Sequence[_Config], parts: Sequence[PartSummary], seed: int,
                     folder: Path) -> pd.DataFrame:
    """:func:`crazylab.lab.summary` of a dataset run, from its parts' sums; ``attrs``: the
    ``seed``, the folder (``out``), the number of ``parts`` and ``wins``, one dict per rule
    variant, table size and bot (``hands``: seat-hands, ``wins``: shared wins count a
    fraction)."""
    import pandas as pd

    records, wins = [], []
    for c, config in enumerate(configs):
        mine = [p for p in parts if p.config == c]
        hands = sum(p.hands for p in mine)
        if not hands:
            continue
        variant = config.texts[2]
        means = [sum(p.sums[i] for p in mine) / hands for i in range(len(_SUMMED))]
        records.append((variant, config.players, hands, *means))
        by_bot: dict[str, list[float]] = {}
        for p in mine:
            for bot, n, w in p.wins:
                total = by_bot.setdefault(bot, [0, 0.0])
                total[0] += n
                total[1] += w
        wins += [{"variant": variant, "players": config.players, "bot": b, "hands": int(n),
                  "wins": w} for b, (n, w) in sorted(by_bot.items())]
    df = pd.DataFrame(records, columns=["variant", "players", "hands", *_SUMMED])
    df = df.set_index(["variant", "players"]).round(3)
    df.attrs.update(seed=seed, out=str(folder), parts=len(parts), wins=wins)
    return df


def table_configs(rules: Any, players: Any, bots: Any, rotate: bool
                  ) -> tuple[list[_Config], int]:
    """The rule set × table size pairs of a run, every argument checked."""
    _flag("rotate", rotate)
    rule_sets = []
    for r in _as_list(rules, (str, RuleSet), "rules must be a preset name, a RuleSet"):
        if isinstance(r, str):
            try:
                r = get_rules(r)
            except ValueError as e:
                raise SimulationError(str(e)) from None
        elif not isinstance(r, RuleSet):
            raise SimulationError(f"rules must be preset names or RuleSets, not {quote(r)}")
        rule_sets.append(r)
    sizes = [_whole("players", n, 2)
             for n in _as_list(players, (int,), "players must be a whole number")]
    bot_list = [bots] if _is_bot(bots) else _as_list(bots, (str,), "bots must be a bot")
    if not rule_sets or not sizes or not bot_list:
        raise SimulationError("simulate needs at least one rule set, table size and bot")
    if len(bot_list) > MAX_BOTS:
        raise SimulationError(f"bots lists {len(bot_list)} bots: at most {MAX_BOTS}")
    for b in bot_list:
        check_bot(b)  # fail early on a bad name or setting
    configs = []
    for r in rule_sets:
        for n in sizes:
            if not r.min_players <= n <= r.max_players:
                raise SimulationError(f"{r.name} is for {r.min_players}-{r.max_players} "
                                      f"players, not {quote(n)}")
            configs.append(_Config(r, n, tuple(bot_list), rotate))
    return configs, max(sizes)


def _is_bot(value: Any) -> TypeGuard[Bot]:
    return not isinstance(value, str) and callable(getattr(value, "choose", None))


def _chunks(n_configs: int, games: int, size: int, ramp: bool = True, first: int = 0
            ) -> Iterator[list[tuple[int, int]]]:
    """The run's ``(config, hand)`` tasks for hands ``first`` to ``games - 1`` in chunks of
    ``size``, made one at a time (memory does not grow with ``games``). With ``ramp``, the
    first chunks are 1, 2, 4 … hands, so the first results arrive at once even when a chunk of
    ``size`` hands takes minutes."""
    step = 1 if ramp else size
    for c in range(n_configs):
        start = first
        while start < games:
            k = min(step, games - start)
            yield [(c, h) for h in range(start, start + k)]
            start += k
            step = min(2 * step, size)


def _execute(configs: list[_Config], games: int, seed: int, max_seats: int,
             workers: int | None, client: Any, chunk: int | None, bar: Any,
             rows: dict[tuple[int, int], tuple[Any, ...]], start: int = 0,
             out: Path | None = None, parts: list[PartSummary] | None = None) -> None:
    """Play every hand, adding each finished chunk's rows to ``rows`` as it arrives (with
    ``out``, the chunks' part files are written and their summaries added to ``parts``)."""
    total = len(configs) * (games - start)
    if workers is None:  # every CPU this process may use, unless the run is too small to pay
        workers = 1 if total < PARALLEL_FROM else available_cpus()
    size, ahead = _plan(total, workers, client, chunk, out is not None)
    n_chunks = math.ceil((games - start) / size) * len(configs)  # at least (+ the ramp)
    chunks = _chunks(len(configs), games, size, ramp=chunk is None, first=start)
    where = None if out is None else str(out)

    def done(part: list[tuple[int, int, tuple[Any, ...]]] | PartSummary) -> None:
        if isinstance(part, PartSummary):
            assert parts is not None
            parts.append(part)
            n = part.hands
        else:
            for c, h, row in part:
                rows[c, h] = row
            n = len(part)
        if bar is not None:
            bar.update(n)

    if client is None and workers > 1 and total > 1 and _unguarded_script_call():
        warnings.warn(
            f"crazylab.simulate: playing in this process, not in {workers} worker processes: "
            "this script starts the simulation when it is imported, and every worker process "
            "imports it again. To use the workers, put the call under "
            "`if __name__ == \"__main__\":`", RuntimeWarning, stacklevel=3)
        workers = 1
    if client is None and (workers == 1 or total <= 1):
        for part in chunks:
            done(_run_chunk(configs, part, seed, max_seats, where))
        return
    if client is not None and _is_dask(client):
        _dask_gather(client, _sendable(configs), chunks, seed, max_seats, where, ahead, done)
        return
    if client is not None:
        executor = client.get_executor() if hasattr(client, "get_executor") else client
        _gather(executor, _sendable(configs), chunks, seed, max_seats, where, ahead, done)
        return
    with _Pool(min(workers, max(n_chunks, 2)), _sendable(configs), seed, max_seats,
               where) as pool:
        pool.run(chunks, done)


def _dask_gather(client: Any, configs: list[_Config], chunks: Iterator[list[tuple[int, int]]],
                 seed: int, max_seats: int, out: str | None, ahead: int, done: Any) -> None:
    """Run the chunks on a Dask cluster as a bounded queue: ``ahead`` chunks submitted, and
    one more each time one finishes (``as_completed``), so every worker thread has work
    waiting and the scheduler holds no more than ``ahead`` tasks. A finished chunk's result
    is released at once; on an error or an interrupt the unfinished ones are cancelled."""
    from distributed import as_completed

    def submit(part: list[tuple[int, int]]) -> Any:
        return client.submit(_run_chunk, configs, part, seed, max_seats, out, pure=False)

    live = {submit(part) for part in itertools.islice(chunks, ahead)}
    queue_ = as_completed(list(live))
    try:
        for future in queue_:
            live.discard(future)
            result = future.result()
            future.release()
            done(result)
            part = next(chunks, None)
            if part is not None:
                new = submit(part)
                live.add(new)
                queue_.add(new)
    finally:
        if live:
            with contextlib.suppress(Exception):
                client.cancel(list(live))


def _gather(executor: Any, configs: list[_Config], chunks: Iterator[list[tuple[int, int]]],
            seed: int, max_seats: int, out: str | None, ahead: int, done: Any) -> None:
    """Run the chunks on an executor, at most ``ahead`` of them submitted at a time."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending: set[Any] = set()
    try:
        for part in chunks:
            pending.add(executor.submit(_run_chunk, configs, part, seed, max_seats, out))
            if len(pending) >= ahead:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    done(f.result())
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                done(f.result())
    finally:
        for f in pending:
            f.cancel()


# -- worker processes --------------------------------------------------------------------------


def _unguarded_script_call() -> bool:
    """Whether this call runs at the top level of a script (``python script.py`` or ``-m``)
    outside ``if __name__ == "__main__":`` (worker processes would run the script again)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not path:
        return False  # python -c, a notebook, the REPL: nothing is imported again
    name = getattr(main.__spec__, "name", None)
    if name is not None and (name == "__main__" or name.endswith(".__main__")):
        return False  # python -m package: multiprocessing does not import it again
    if Path(path).stem == "ipython":
        return False
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main)
                                     and frame.f_code.co_name == "<module>"):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return False  # called from a thread, or from code the script did not run itself
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, SyntaxError):
        return True  # cannot tell: play here, which always works
    line = frame.f_lineno
    return not any(isinstance(node, ast.If) and _is_main_guard(node)
                   and node.lineno <= line <= (node.end_lineno or line)
                   for node in ast.walk(tree))


def _is_main_guard(node: ast.If) -> bool:
    """``if __name__ == "__main__":`` (either way round)."""
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    parts = [test.left, *test.comparators]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    texts = {p.value for p in parts if isinstance(p, ast.Constant)}
    return names == {"__name__"} and texts == {"__main__"}


def _worker(tasks: Any, results: Any, configs: list[_Config], seed: int,
            max_seats: int, out: str | None = None, parent: int | None = None) -> None:
    """A worker process: play chunks until told to stop (``None``) or the parent (``parent``,
    the pid that started it) is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # the pid given, not os.getppid() read here: a parent killed while this worker was still
    # starting would be read as the reaper, and the worker would wait on its queue for ever
    parent = parent if parent is not None else os.getppid()

    def orphaned() -> None:  # the parent was killed: stop at once, whatever is running
        while True:
            time.sleep(0.2)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=orphaned, daemon=True).start()
    while True:
        item = tasks.get()
        if item is None:
            return
        try:
            results.put((True, _run_chunk(configs, item, seed, max_seats, out)))
        except Exception as e:
            where = "".join(traceback.format_exception(e)[-3:]).rstrip()
            try:
                pickle.dumps(e)
            except Exception:
                e = RuntimeError(f"{type(e).__name__}: {e}")
            e.add_note(f"(raised in a worker process, at:\n{where})")
            results.put((False, e))


def _short(e: BaseException) -> str:
    text = str(e)
    return f"{type(e).__name__}: {text if len(text) <= 120 else text[:119] + '…'}"


class _Pool:
    """Worker processes that take chunks from a queue, a few ahead of the results; on exit
    (normal, an error or an interrupt) every worker is stopped and joined."""

    def __init__(self, n: int, configs: list[_Config], seed: int, max_seats: int,
                 out: str | None = None) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.ahead = 2 * n
        self.tasks = ctx.Queue()
        self.results = ctx.Queue()
        self.procs = [ctx.Process(target=_worker, name=f"crazylab-sim-{i}", daemon=True,
                                  args=(self.tasks, self.results, configs, seed, max_seats,
                                        out, os.getpid()))
                      for i in range(n)]
        main = threading.current_thread() is threading.main_thread()
        # workers start with Ctrl-C ignored (a terminal sends it to every process of the group)
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            for p in self.procs:
                p.start()
        except (pickle.PicklingError, AttributeError, TypeError) as e:
            self.stop(clean=False)
            raise SimulationError(
                f"the bots and rule sets cannot be sent to worker processes ({_short(e)}); "
                "pass workers=1 to play in this process") from None
        finally:
            if main and old is not None:
                signal.signal(signal.SIGINT, old)

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop(clean=exc[0] is None)

    def run(self, chunks: Iterator[list[tuple[int, int]]], done: Any) -> None:
        in_flight = 0
        for part in chunks:
            if in_flight >= self.ahead:
                done(self._next())
                in_flight -= 1
            self.tasks.put(part)
            in_flight += 1
        for _ in range(in_flight):
            done(self._next())

    def _next(self) -> list[tuple[int, int, tuple[Any, ...]]] | PartSummary:
        while True:
            try:
                ok, value = self.results.get(timeout=0.2)
            except queue.Empty:
                dead = [p for p in self.procs if p.exitcode is not None]
                if dead:
                    raise SimulationError(
                        f"a worker process stopped (exit code {dead[0].exitcode}) before its "
                        "hands were done. From a script, put the simulation under "
                        "`if __name__ == \"__main__\":`; a bot class must come from a module "
                        "the workers can import, not a notebook cell; or pass workers=1 to "
                        "play in this process") from None
                continue
            if not ok:
                raise value
            return value  # type: ignore[no-any-return]

    def stop(self, clean: bool) -> None:
        if clean:
            for _ in self.procs:
                self.tasks.put(None)
            for p in self.procs:
                p.join(5)
        started = [p for p in self.procs if p.pid is not None]
        for p in started:
            if p.is_alive():
                p.terminate()
        for p in started:
            p.join(1)
            if p.is_alive():
                p.kill()
                p.join(1)
        for q in (self.tasks, self.results):
            q.cancel_join_thread()  # never wait to flush chunks nobody will read
            q.close()


# -- files ---------------------------------------------------------------------------------------


def check_out(path: str) -> Path:
    """The ``--out`` file, checked before any hand is played: a .csv or .parquet name in a
    folder that exists and can be written, not a folder itself (:class:`SimulationError`).
    The suffix may be in any case (``X.CSV``)."""
    if not isinstance(path, (str, os.PathLike)) or "\0" in str(path):
        raise SimulationError(f"--out must name a file, not {quote(path)}")
    out = Path(path)
    shown = quote(str(path))
    if out.is_dir():
        raise SimulationError(f"--out {shown} is a folder: name a file in it, like "
                              f"{quote(str(out / 'hands.csv'))}")
    if _kind(out) is None:
        raise SimulationError(f"--out {shown}: the file must end in .csv or .parquet")
    folder = out.parent
    if not folder.is_dir():
        raise SimulationError(f"--out {shown}: the folder {quote(str(folder))} does not exist "
                              "(create it first)")
    if _kind(out) == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise SimulationError(f"--out {shown}: writing Parquet needs pyarrow: pip install "
                                  "'crazylab[lab]' (or write a .csv)") from None
    try:  # the only sure test: create (and remove) a file where the results will go
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{out.name}.", suffix=".check"):
            pass
    except OSError as e:
        raise SimulationError(f"--out {shown}: cannot write in {quote(str(folder))} "
                              f"({e.strerror or e})") from None
    return out


def _kind(out: Path) -> str | None:
    """``".csv"`` or ``".parquet"`` from the file's suffix in any case, else ``None``."""
    suffix = out.suffix.lower()
    return suffix if suffix in (".csv", ".parquet") else None


def write_atomically(df: pd.DataFrame, out: Path) -> None:
    """Write ``df`` to ``out`` (.csv or .parquet, any case) through a temporary file in the same
    folder and ``os.replace``: the file is the old one or the whole new one, never a truncated
    mix, and no temporary file is left behind (an ``OSError``, such as a full disk or a
    folder that has vanished, is raised after the temporary file is removed)."""
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise SimulationError(f"write_atomically needs a DataFrame, not {quote(df)}")
    if not isinstance(out, (str, os.PathLike)) or _kind(Path(out)) is None:
        raise SimulationError(f"write_atomically needs a .csv or .parquet path, not "
                              f"{quote(out)}")
    out = Path(out)
    if _kind(out) == ".parquet":
        _write_file(out, lambda tmp: df.to_parquet(tmp, index=False))
    else:
        _write_file(out, lambda tmp: df.to_csv(tmp, index=False))


def _write_file(out: Path, write: Any) -> None:
    """``write(tmp)`` a temporary file next to ``out``, give it the permissions a new file
    gets (``0o666`` less the umask: the temporary file was owner-only), then rename it to
    ``out``; on any error the temporary file is removed and the error raised."""
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    """This process's umask, read without changing it where Linux shows it (``os.umask``
    sets it, which other threads, such as a Dask worker's, could see for a moment)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_PART = re.compile(r"part-(?:(\d+)-)?(\d{12})\.parquet")


def check_dataset(path: Any, n_configs: int = 1, start: int = 0) -> Path:
    """The ``out=`` folder of a dataset run, checked before any hand is played: not a file,
    in a folder that exists, writable, and (unless resuming: ``start`` > 0) holding no part
    files yet; pyarrow installed (:class:`SimulationError`). Nothing is created here."""
    if not isinstance(path, (str, os.PathLike)) or "\0" in str(path) or not str(path):
        raise SimulationError(f"out must name a folder, not {quote(path)}")
    _whole("n_configs", n_configs, 1)
    _whole("start", start, 0)
    out = Path(path)
    shown = quote(str(path))
    try:
        return _check_folder(out, shown, n_configs, start)
    except OSError as e:  # a name too long, a folder that cannot be listed
        raise SimulationError(f"out {shown}: {e.strerror or type(e).__name__}") from None


def _check_folder(out: Path, shown: str, n_configs: int, start: int) -> Path:
    """:func:`check_dataset` past its argument types (an ``OSError`` is the caller's)."""
    if out.exists() and not out.is_dir():
        raise SimulationError(f"out {shown} is a file: name a folder for the Parquet dataset "
                              "(one part file per chunk)")
    if not out.parent.is_dir():
        raise SimulationError(f"out {shown}: the folder {quote(str(out.parent))} does not "
                              "exist (create it first)")
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise SimulationError("a Parquet dataset needs pyarrow: pip install "
                              "'crazylab[lab]'") from None
    where = out if out.is_dir() else out.parent
    try:
        with tempfile.NamedTemporaryFile(dir=where, prefix=".crazylab.", suffix=".check"):
            pass
    except OSError as e:
        raise SimulationError(f"out {shown}: cannot write in {quote(str(where))} "
                              f"({e.strerror or e})") from None
    found = _parts(out)
    if found and start == 0:
        raise SimulationError(f"out {shown} already holds {len(found)} part files: name a new "
                              "folder, or give start= to resume the run that wrote them")
    import pyarrow.parquet as pq

    for _, first, file in found:
        if first < start:
            try:
                last = first + pq.read_metadata(file).num_rows - 1
            except Exception:  # noqa: BLE001  (an unreadable part: reported when read)
                continue
            if last >= start:
                raise SimulationError(
                    f"out {shown}: start={start} falls inside {file.name} (hands {first} "
                    f"to {last}): resume at {first} or {last + 1}")
    if n_configs > 1 and any(c is None for c, _, _ in found):
        raise SimulationError(f"out {shown} holds the parts of a run of one rule set and "
                              "table size: name a new folder")
    return out


def _parts(folder: Path) -> list[tuple[int | None, int, Path]]:
    """The part files in ``folder``: ``(config or None, first hand, path)``."""
    try:
        if not folder.is_dir():
            return []
    except OSError:  # a name too long for the file system
        return []
    found = []
    for file in folder.iterdir():
        m = _PART.fullmatch(file.name)
        if m:
            found.append((None if m[1] is None else int(m[1]), int(m[2]), file))
    return sorted(found, key=lambda f: (f[0] or 0, f[1]))


def _clear_parts(folder: Path, start: int) -> None:
    """Create the dataset folder; remove its parts from hand ``start`` on (a resumed run
    plays them again: a part a cluster finished after an interrupt is not doubled)."""
    folder.mkdir(exist_ok=True)
    for _, first, file in _parts(folder):
        if first >= start:
            file.unlink()


def read_dataset(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The hands of a dataset run (``simulate(out=path)``) as one DataFrame in hand order
    (by rule set × table size, then hand), as ``simulate`` without ``out`` returns them."""
    import pandas as pd

    if not isinstance(path, (str, os.PathLike)) or "\0" in str(path):
        raise SimulationError(f"read_dataset needs a folder, not {quote(path)}")
    files = [f for _, _, f in _parts(Path(path))]
    if not files:
        raise SimulationError(f"{quote(str(path))} holds no part files of a simulation")
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    return df

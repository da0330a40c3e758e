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

import ast
import contextlib
import math
import os
import pickle
import queue
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
from typing import TYPE_CHECKING, Any, TypeGuard

from .bots import Bot, BotError, bot_name, make_bot
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules
from .errors import CrazylabError, quote
from .playout import hand_summary, play_dealt

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "SimulationError", "SimulationInterrupted", "check_bot", "check_out",
           "bots_seed", "hand_seed", "play_one", "simulate", "table_configs", "write_atomically"]

#: the columns of a simulation's DataFrame before the per-seat ``bot_<s>`` and ``score_<s>``
COLUMNS = ("hand", "seed", "rules", "options", "variant", "players", "bots", "winner",
           "winners", "winner_bot", "reason", "blocked", "turns", "moves", "cards_drawn",
           "reshuffles", "points")

#: runs with at least this many hands show a progress bar unless ``progress=False``
PROGRESS_FROM = 2000
#: with ``workers=None``, smaller runs play in this process (starting workers costs more)
PARALLEL_FROM = 200
#: the most hands one run may ask for (rule sets × table sizes × ``games``): a trillion
#: (hands are handed out lazily, so a run that long only ends by Ctrl-C)
MAX_HANDS = 10**12
#: the longest list of bots a run takes
MAX_BOTS = 1000
#: the largest ``chunk`` (hands sent to a worker at once: its task list is built whole)
MAX_CHUNK = 100_000

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
               max_seats: int) -> list[tuple[int, int, tuple[Any, ...]]]:
    """Worker entry point: play ``(config, hand)`` tasks; rows keyed for sorting."""
    return [(c, h, play_one(configs[c], h, seed, max_seats)) for c, h in tasks]


class SimulationError(CrazylabError):
    """A simulation that cannot run as asked (a bad argument, workers that cannot start)."""


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a kernel interrupt) stopped :func:`simulate`: ``rows`` holds the hands
    finished so far (``partial`` makes them a DataFrame), ``total`` the hands asked for. The
    worker processes are stopped before this is raised."""

    def __init__(self, rows: list[tuple[Any, ...]], total: int, columns: list[str]) -> None:
        super().__init__(f"interrupted after {len(rows)} of {total} hands")
        self.rows, self.total, self.columns = rows, total, columns

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


def _whole(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SimulationError(f"{name} must be a whole number, not {quote(value)}")
    if low is not None and value < low:
        raise SimulationError(f"{name} must be at least {low}, not {quote(value)}")
    if high is not None and value > high:
        raise SimulationError(f"{name} must be at most {high}, not {quote(value)}")
    return value


def _flag(name: str, value: Any, none: bool = False) -> None:
    """A boolean argument is ``True`` or ``False`` (``"no"`` is not false), or ``None``."""
    if not (isinstance(value, bool) or (none and value is None)):
        allowed = "True, False or None" if none else "True or False"
        raise SimulationError(f"{name} must be {allowed}, not {quote(value)}")


def max_workers() -> int:
    """The most worker processes a run may start: four per core."""
    return 4 * (os.cpu_count() or 1)


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
    import pandas as pd  # noqa: F401  (fail now, not after the run, without pandas)

    columns = _columns(max_seats)
    total = len(configs) * games
    bar = _progress_bar(total, progress)
    rows: dict[tuple[int, int], tuple[Any, ...]] = {}
    try:
        _execute(configs, games, seed, max_seats, workers, client, chunk, bar, rows)
    except KeyboardInterrupt:
        if bar is not None:
            bar.leave = False
        raise SimulationInterrupted([rows[k] for k in sorted(rows)], total, columns) from None
    finally:
        if bar is not None:
            bar.close()
    return _frame([rows[k] for k in sorted(rows)], columns, seed)


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


def _chunks(n_configs: int, games: int, size: int, ramp: bool = True
            ) -> Iterator[list[tuple[int, int]]]:
    """The run's ``(config, hand)`` tasks in chunks of ``size``, made one at a time (memory
    does not grow with ``games``). With ``ramp``, the first chunks are 1, 2, 4 … hands, so the
    first results arrive at once even when a chunk of ``size`` hands takes minutes."""
    step = 1 if ramp else size
    for c in range(n_configs):
        start = 0
        while start < games:
            k = min(step, games - start)
            yield [(c, h) for h in range(start, start + k)]
            start += k
            step = min(2 * step, size)


def _execute(configs: list[_Config], games: int, seed: int, max_seats: int,
             workers: int | None, client: Any, chunk: int | None, bar: Any,
             rows: dict[tuple[int, int], tuple[Any, ...]]) -> None:
    """Play every hand, adding each finished chunk's rows to ``rows`` as it arrives."""
    total = len(configs) * games
    if workers is None:  # every core, unless the run is too small to pay
        workers = 1 if total < PARALLEL_FROM else os.cpu_count() or 1
    slots = 8 if client is not None else workers
    size = chunk or max(1, min(250, math.ceil(total / (4 * slots))))
    n_chunks = math.ceil(games / size) * len(configs)  # at least (the ramp adds a few)
    chunks = _chunks(len(configs), games, size, ramp=chunk is None)

    def done(part: list[tuple[int, int, tuple[Any, ...]]]) -> None:
        for c, h, row in part:
            rows[c, h] = row
        if bar is not None:
            bar.update(len(part))

    if client is None and workers > 1 and total > 1 and _unguarded_script_call():
        warnings.warn(
            f"crazylab.simulate: playing in this process, not in {workers} worker processes: "
            "this script starts the simulation when it is imported, and every worker process "
            "imports it again. To use the workers, put the call under "
            "`if __name__ == \"__main__\":`", RuntimeWarning, stacklevel=3)
        workers = 1
    if client is None and (workers == 1 or total <= 1):
        for part in chunks:
            done(_run_chunk(configs, part, seed, max_seats))
        return
    if client is not None:
        executor = client.get_executor() if hasattr(client, "get_executor") else client
        _gather(executor, _sendable(configs), chunks, seed, max_seats, 2 * slots, done)
        return
    with _Pool(min(workers, max(n_chunks, 2)), _sendable(configs), seed, max_seats) as pool:
        pool.run(chunks, done)


def _gather(executor: Any, configs: list[_Config], chunks: Iterator[list[tuple[int, int]]],
            seed: int, max_seats: int, ahead: int, done: Any) -> None:
    """Run the chunks on an executor, at most ``ahead`` of them submitted at a time."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending: set[Any] = set()
    try:
        for part in chunks:
            pending.add(executor.submit(_run_chunk, configs, part, seed, max_seats))
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
            max_seats: int) -> None:
    """A worker process: play chunks until told to stop (``None``) or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    parent = os.getppid()

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
            results.put((True, _run_chunk(configs, item, seed, max_seats)))
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

    def __init__(self, n: int, configs: list[_Config], seed: int, max_seats: int) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.ahead = 2 * n
        self.tasks = ctx.Queue()
        self.results = ctx.Queue()
        self.procs = [ctx.Process(target=_worker, name=f"crazylab-sim-{i}", daemon=True,
                                  args=(self.tasks, self.results, configs, seed, max_seats))
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

    def _next(self) -> list[tuple[int, int, tuple[Any, ...]]]:
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
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    os.close(fd)
    try:
        if _kind(out) == ".parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

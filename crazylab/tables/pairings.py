"""A tournament's pure parts: pairings and standings (no database, no table service;
:mod:`crazylab.tables.tournament` keeps a tournament in the class database).

Pairings (pure functions, no database)
---------------------------------------
* :func:`round_robin` gives every round's tables. Tables of 2 follow the circle method: with
  ``n`` players (one more, a *bye*, when ``n`` is odd) every pair meets exactly once in
  ``n - 1`` rounds (``n`` when odd), and the cycle repeats when more rounds are asked. Tables
  of 3 or 4: the players are shared out over ``ceil(n / size)`` tables as evenly as
  possible (no table of one; bots fill the empty seats when the round is played). Each round
  is chosen in turn as the lightest seating found, where a pair that has met ``m`` times
  weighs ``m * m + m`` (players placed greedily from :data:`SPREAD_TRIES` starting orders,
  improved by swaps, then, up to :data:`SEARCH_MOST` players, by a bounded depth-first
  search); then, over the whole schedule, two players of a round swap tables while that
  lowers the sum over all pairs of their meetings squared. That sum is the measure of
  evenness (for 6 players at tables of 3 it is the least any schedule reaches, checked by
  brute force in the tests); it is what this search finds, not a proven optimum.
  Deterministic.
* :func:`swiss` seats players by their standing: the best player opens the first table with
  the next best players with whom it makes no repeat meeting, and so on; a depth-first search
  (bounded to :data:`SWISS_BUDGET` tables weighed, then the cheapest choice at each step) keeps the
  seating with the fewest repeat meetings, so a pair meets twice only when no seating without
  a repeat exists (or the search ran out, far beyond a class's size). With tables of 2 and an
  odd number of players the lowest-ranked player who has not had a bye sits out.
* A **bye** is a table of one player: it scores nothing (no points, no hand, no win) and is
  remembered in ``played`` as a one-player set, so a player gets a second bye only when
  everyone has had one.

Standings (:func:`standings`)
-----------------------------
Each :class:`HandResult` is one finished hand at one table. A player's **points** are the sum
of the hand scores the engine gave their seat (``Game.scores``: the rule set's own scoring,
so under ``minus_one_per_card`` they are negative and the least negative is best); under a
rule set that keeps no score (``scoring="none"``) a hand won scores 1. A **win** is a hand the
player won (a shared win counts for each winner). Players are ranked by, in order:

1. points (more first);
2. wins (more first);
3. Buchholz, ``opponents_points``: for every table the player sat at, the final points of
   each other player there (bots do not count), summed (more first: stronger opposition);
4. head to head, among players still tied only: over the hands a player shared with the
   others of the tie, the points they scored minus each such opponent's points, summed
   (more first);
5. the name (alphabetical).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import CrazylabError, quote
from ..store import display_name

__all__ = ["FORMATS", "HandResult", "Standing", "TournamentError", "round_robin", "standings",
           "swiss"]

T = TypeVar("T")
FORMATS = ("round_robin", "swiss")
TABLE_SIZES = (2, 3, 4)
MAX_PLAYERS = 64
MAX_ROUNDS = 50
#: tables :func:`swiss` weighs before it settles for the cheapest choice at each step
SWISS_BUDGET = 150_000
#: a Swiss table of 3 or 4 seats its first player with others among the next this many in
#: the standings (a round's search weighs at most C(16, 3) tables a step)
SWISS_WINDOW = 16
#: starting orders :func:`round_robin` tries for each round of tables of 3 or 4
SPREAD_TRIES = 8
#: about the checks one round of :func:`round_robin` may spend on its tries (n² a try)
SPREAD_WORK = 8000
#: tables :func:`round_robin` weighs for each round of tables of 3 or 4
SPREAD_BUDGET = 300_000
#: the most players whose round robin rounds are searched (beyond: swaps only)
SEARCH_MOST = 16
#: most passes of the whole schedule's swaps in :func:`round_robin`
POLISH_PASSES = 50
#: passes of swaps that settle one try of a round (each pass is tables² × size² checks)
SETTLE_PASSES = 3


class TournamentError(CrazylabError):
    """A refused tournament operation (one line); nothing was changed."""


# --------------------------------------------------------------------------- pairings


def checked_players(players: Any) -> list[str]:
    """``players`` as a list of 2 to :data:`MAX_PLAYERS` different names, each written as
    the class store keeps it (:class:`TournamentError` otherwise)."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TournamentError("players must be a list of names")
    names = list(players)
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise TournamentError(f"a tournament has 2 to {MAX_PLAYERS} players, not {len(names)}")
    for name in names:  # names as the class store keeps them (checks.display_name)
        if display_name(name, "player's name", TournamentError) != name:
            raise TournamentError(f"a player's name is written as it is kept (no extra "
                                  f"spaces), not {quote(name)}")
    twice = sorted(n for n, c in Counter(names).items() if c > 1)
    if twice:
        raise TournamentError(f"{quote(twice[0])} is listed twice: each player once")
    return names


def checked_table_size(size: Any) -> int:
    """``size`` if it is one of :data:`TABLE_SIZES`."""
    if type(size) is not int or size not in TABLE_SIZES:
        raise TournamentError(f"table_size must be 2, 3 or 4, not {quote(size)}")
    return size


def whole(name: str, value: Any, low: int, high: int) -> int:
    """``value`` if it is a whole number from ``low`` to ``high`` (``name`` in the error)."""
    if type(value) is not int or not low <= value <= high:
        raise TournamentError(f"{name} must be a whole number from {low} to {high}, "
                              f"not {quote(value)}")
    return value


def _sizes(n: int, size: int) -> list[int]:
    """Table sizes for ``n`` players at tables of at most ``size`` (n >= 2, size >= 3): as
    few tables as fit them, shared out evenly (never a table of one)."""
    count = math.ceil(n / size)
    return [n // count + (1 if i < n % count else 0) for i in range(count)]


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def round_robin(players: Sequence[str], table_size: int,
                rounds: int | None = None) -> list[list[list[str]]]:
    """Every round's tables (rounds -> tables -> players in seat order; a one-player table
    is a bye). ``rounds`` defaults to one full cycle: ``n - 1`` rounds for an even ``n`` at
    tables of 2 (``n`` when odd), else ``ceil((n - 1) / (table_size - 1))``."""
    names = checked_players(players)
    size = checked_table_size(table_size)
    n = len(names)
    if rounds is None:
        rounds = full_cycle(n, size)
    whole("rounds", rounds, 1, MAX_ROUNDS)
    if size == 2:
        return _circle(names, rounds)
    return _spread(names, size, rounds)


@functools.lru_cache(maxsize=16)
def schedule(players: tuple[str, ...], size: int, rounds: int) -> list[list[list[str]]]:
    """:func:`round_robin`, computed once and kept for a tournament's rounds (its search
    costs seconds for a large class; callers never change what it returns)."""
    return round_robin(players, size, rounds)


def full_cycle(n: int, size: int) -> int:
    """The rounds of one full round robin of ``n`` players at tables of ``size``."""
    return (n - 1 if n % 2 == 0 else n) if size == 2 else math.ceil((n - 1) / (size - 1))


def _circle(names: list[str], rounds: int) -> list[list[list[str]]]:
    ring: list[str | None] = [*names, None] if len(names) % 2 else list(names)
    n = len(ring)
    out = []
    for r in range(rounds):
        turn = r % (n - 1)
        rest = ring[1:]
        order = [ring[0], *rest[len(rest) - turn:], *rest[:len(rest) - turn]]
        tables: list[list[str]] = []
        byes: list[list[str]] = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if a is None or b is None:
                byes.append([a or b or ""])
            else:  # alternate who sits first (deals second) round by round
                tables.append([a, b] if (r + i) % 2 == 0 else [b, a])
        out.append(tables + byes)
    return out


def spread_tries(n: int) -> int:
    """The starting orders tried for a round of ``n`` players: :data:`SPREAD_TRIES`, fewer
    for a large class (each try costs about n² checks; more tries barely spread more)."""
    return max(1, min(n, SPREAD_TRIES, SPREAD_WORK // (n * n)))


def _spread(names: list[str], size: int, rounds: int) -> list[list[list[str]]]:
    n = len(names)
    sizes = _sizes(n, size)
    met = [[0] * n for _ in range(n)]  # met[a][b]: how often players a and b met

    def weight(tables: list[list[int]]) -> int:
        return sum(met[a][b] ** 2 + met[a][b]
                   for t in tables for a, b in itertools.combinations(t, 2))

    out = []
    for r in range(rounds):
        tries = [_settle([*range(s, n), *range(s)], sizes, met)
                 for s in ((r + k) % n for k in range(spread_tries(n)))]
        tables = min(tries, key=weight)
        if n <= SEARCH_MOST:
            tables = _search(list(range(n)), sizes, lambda a, b: met[a][b] ** 2 + met[a][b],
                             SPREAD_BUDGET, start=tables)
        for t in tables:
            for a, b in itertools.combinations(t, 2):
                met[a][b] += 1
                met[b][a] += 1
        out.append(tables)
    _polish(out, met)
    return [[[names[p] for p in t] for t in tables] for tables in out]


def _polish(schedule: list[list[list[int]]], met: list[list[int]]) -> None:
    """Swap two players between tables of one round while that lowers the sum over every
    pair of (meetings) squared over the whole schedule: the meetings even out."""
    def gain(p: int, y: int, table: list[int]) -> int:  # y takes p's place at table
        return sum(2 * (met[q][y] - met[q][p]) + 2 for q in table if q != p)

    for _ in range(POLISH_PASSES):
        improved = False
        for tables in schedule:
            for a, b in itertools.combinations(tables, 2):
                for x, y in itertools.product(range(len(a)), range(len(b))):
                    p, q = a[x], b[y]
                    if gain(p, q, a) + gain(q, p, b) >= 0:
                        continue
                    for table, out, into in ((a, p, q), (b, q, p)):
                        for o in table:
                            if o != out:
                                met[o][out] -= 1
                                met[out][o] -= 1
                                met[o][into] += 1
                                met[into][o] += 1
                    a[x], b[y] = q, p
                    improved = True
        if not improved:
            return


def _settle(order: list[int], sizes: list[int], met: list[list[int]]) -> list[list[int]]:
    """Tables of ``sizes``: each player of ``order`` to the open table where they have met
    the fewest, then two players swapped between tables while the weight drops."""
    def cost(p: int, table: list[int], skip: int) -> int:
        return sum(met[p][q] ** 2 + met[p][q] for q in table if q != skip)

    tables: list[list[int]] = [[] for _ in sizes]
    for p in order:
        open_ = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(open_, key=lambda i: (sum(met[p][q] for q in tables[i]), i))
        tables[best].append(p)
    improved, passes = True, 0
    while improved and passes < SETTLE_PASSES:  # bounded: a round's cost, a class of 64
        improved, passes = False, passes + 1
        for i, j in itertools.combinations(range(len(tables)), 2):
            a, b = tables[i], tables[j]
            for x, y in itertools.product(range(len(a)), range(len(b))):
                p, q = a[x], b[y]
                if cost(q, a, p) + cost(p, b, q) < cost(p, a, p) + cost(q, b, q):
                    a[x], b[y] = q, p
                    improved = True
    return tables


def swiss(standings: Sequence[Standing], table_size: int,
          played: set[frozenset[str]]) -> list[list[str]]:
    """The next round's tables from the standings (best first) avoiding repeat meetings
    (``played``: every pair that has met, and ``{player}`` for a bye had). A one-player
    table is a bye (tables of 2 and an odd number of players)."""
    if isinstance(standings, str) or not isinstance(standings, Sequence) \
            or not all(isinstance(s, Standing) for s in standings):
        raise TournamentError("swiss takes the standings: a list of Standing")
    order = checked_players([s.player for s in standings])
    size = checked_table_size(table_size)
    if not isinstance(played, (set, frozenset)) or not all(
            isinstance(p, frozenset) and 1 <= len(p) <= 2 for p in played):
        raise TournamentError("played must be a set of frozensets of one or two names")
    bye: list[list[str]] = []
    if size == 2 and len(order) % 2:
        fresh = [p for p in reversed(order) if frozenset((p,)) not in played]
        sitter = fresh[0] if fresh else order[-1]
        order.remove(sitter)
        bye = [[sitter]]
    sizes = [2] * (len(order) // 2) if size == 2 else _sizes(len(order), size)
    return _seat(order, sizes, played) + bye


def _seat(order: list[str], sizes: list[int], played: set[frozenset[str]]) -> list[list[str]]:
    """Tables of ``sizes`` for ``order`` (best first) with the fewest repeat meetings."""
    def lower_bound(rest: list[str]) -> int:
        if sizes[0] != 2:
            return 0
        alone = sum(all(_pair(a, b) in played for b in rest if b != a) for a in rest)
        return (alone + 1) // 2

    return _search(order, sizes, lambda a, b: int(_pair(a, b) in played), SWISS_BUDGET,
                   lower_bound=lower_bound, window=None if sizes[0] == 2 else SWISS_WINDOW)


def _search(order: list[T], sizes: list[int], pair_cost: Callable[[T, T], int], budget: int,
            *, start: list[list[T]] | None = None,
            lower_bound: Callable[[list[T]], int] | None = None,
            window: int | None = None) -> list[list[T]]:
    """Tables of ``sizes`` seating ``order`` with the least summed ``pair_cost``: depth first,
    the first of ``order`` left opening each table with the cheapest others first (so the
    first found keeps the order's neighbours together), branches no cheaper than the best
    found cut, ``start`` the best to beat. After ``budget`` tables weighed: the cheapest
    choice at each step (or ``start``). ``window``: a table's others are chosen among the next
    ``window`` of ``order`` only (each step then weighs a bounded number of tables)."""
    def cost(table: Sequence[T]) -> int:
        return sum(pair_cost(a, b) for a, b in itertools.combinations(table, 2))

    best: list[Any] = [None, math.inf] if start is None else \
        [start, sum(cost(t) for t in start)]
    steps = 0

    def visit(rest: list[T], tables: list[list[T]], spent: int) -> None:
        nonlocal steps
        if not rest:
            if spent < best[1]:
                best[0], best[1] = [t[:] for t in tables], spent
            return
        if spent + (lower_bound(rest) if lower_bound else 0) >= best[1]:
            return
        if steps > budget and best[0] is not None:
            return
        head, others = rest[0], rest[1:]
        near = len(others) if window is None else min(len(others), window)
        combos = itertools.combinations(range(near), sizes[len(tables)] - 1)
        options = sorted(([head, *(others[i] for i in c)] for c in combos), key=cost)
        steps += len(options)  # the work: every table weighed
        if steps > budget:
            options = options[:1]
        for table in options:
            left = [p for p in others if p not in table]
            tables.append(table)
            visit(left, tables, spent + cost(table))
            tables.pop()
            if best[1] == 0:
                return

    visit(order, [], 0)
    return list(best[0])


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class HandResult:
    """One finished hand at a tournament table: ``players`` in seat order (``None`` for a
    bot), the engine's ``scores`` per seat and its ``winners`` (seats); ``by_wins``: the
    rule set keeps no score, so a hand won scores 1."""

    round: int
    table: int
    hand: int
    players: tuple[str | None, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    by_wins: bool = False

    def points(self, seat: int) -> int:
        """What this hand gives ``seat`` in the standings."""
        if self.by_wins:
            return 1 if seat in self.winners else 0
        return self.scores[seat]


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings (see the module docstring for the order)."""

    player: str
    points: int
    wins: int
    hands: int
    opponents_points: int
    head_to_head: int = 0
    rank: int = 0


def standings(results: Sequence[HandResult],
              players: Sequence[str] | None = None) -> list[Standing]:
    """The standings of ``results`` (every player of ``players`` listed, with no hands yet
    too), best first, ranked 1, 2, ... by points, wins, Buchholz, head to head and name."""
    if isinstance(results, str) or not isinstance(results, Sequence) \
            or not all(isinstance(r, HandResult) for r in results):
        raise TournamentError("standings takes a list of HandResult")
    for r in results:
        if not len(r.players) == len(r.scores) or any(w not in range(len(r.players))
                                                      for w in r.winners):
            raise TournamentError(f"hand {r.hand} of round {r.round}, table {r.table}: "
                                  "players, scores and winners do not agree")
    names = list(players) if players is not None else []
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    hands: Counter[str] = Counter()
    tables: dict[tuple[int, int], set[str]] = defaultdict(set)
    for r in results:
        for seat, name in enumerate(r.players):
            if name is None:
                continue
            if name not in names:
                names.append(name)
            points[name] += r.points(seat)
            wins[name] += seat in r.winners
            hands[name] += 1
            tables[r.round, r.table].add(name)
    buchholz: Counter[str] = Counter()
    for at in tables.values():
        for name in at:
            buchholz[name] += sum(points[o] for o in at if o != name)

    def key(name: str) -> tuple[int, int, int]:
        return (-points[name], -wins[name], -buchholz[name])

    out: list[Standing] = []
    for _, group in itertools.groupby(sorted(names, key=key), key=key):
        tied = list(group)
        h2h = _head_to_head(results, set(tied)) if len(tied) > 1 else Counter()
        for name in sorted(tied, key=lambda n: (-h2h[n], n)):
            out.append(Standing(player=name, points=points[name], wins=wins[name],
                                hands=hands[name], opponents_points=buchholz[name],
                                head_to_head=h2h[name], rank=len(out) + 1))
    return out


def _head_to_head(results: Sequence[HandResult], tied: set[str]) -> Counter[str]:
    """Within ``tied``: each player's points minus each tied opponent's, over shared hands."""
    score: Counter[str] = Counter()
    for r in results:
        seats = [(s, p) for s, p in enumerate(r.players) if p in tied]
        for (s, p), (t, _) in itertools.permutations(seats, 2):
            score[p] += r.points(s) - r.points(t)
    return score



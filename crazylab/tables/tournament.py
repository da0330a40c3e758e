"""A class tournament kept in the class database: its rounds made by the table service, its
seats, its results and standings (the pairings and standings themselves are
:mod:`crazylab.tables.pairings`, pure functions).

Persistence (:class:`Tournament`)
---------------------------------
A tournament lives in the class database (its class must exist there), in the two tables the
class schema's version 3 made for it (:mod:`crazylab.store.schema`; this module adds
none): ``tournaments`` (``data``: JSON of the format, rounds, hands, table size, rules and
players) and ``tournament_tables``, one row per table and round (``players``: names by seat,
``null`` a bot; ``result``: JSON of the table's number, its sealed seats, the hands recorded
so far, each with the engine's scores and winners, and whether it is done). A bye is a row
whose ``table_code`` is ``bye-<number>``. The current round is the highest round stored.

Every player gets a random **player token** (192 bits) when the tournament is created
(:attr:`Tournament.tokens`, given once; only its SHA-256 is stored). A round's tables are made
by the table service (:meth:`Tournament.start_round`), the first player of a table being its
host. No seat token is kept anywhere: each seat's token is derived (HMAC) from the player's
token hash under the server's secret, kept outside the database
(:attr:`crazylab.store.database.Database.secret`); the table service gets it when the round
starts, and :meth:`Tournament.my_seat` checks a player's token and derives it again (the same
token on every call: a reloaded page keeps its seat). The database alone opens no seat.
A table plays its hands as one match (its host deals each
next hand); the first ``hands`` finished hands count, fewer if the match ends first (a rule
set played to a target).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import sqlalchemy as sa

from ..classroom.store import rows_to_csv
from ..engine.rules import PRESETS, RuleSet
from ..errors import CrazylabError, quote
from ..store import class_code, keyed, schema, secret_hash, secret_matches
from .pairings import (
    FORMATS,
    MAX_ROUNDS,
    HandResult,
    Standing,
    TournamentError,
    checked_players,
    checked_table_size,
    full_cycle,
    schedule,
    standings,
    swiss,
    whole,
)
from .service import SeatTicket, TableService, rules_from_json, rules_to_json
from .store import StoreError, TableStore

__all__ = ["TableInfo", "Tournament", "TournamentError"]

MAX_HANDS = 50
#: the level of the bots that fill a table's empty seats
BOT_LEVEL = "rules"
ID_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ID_LENGTH = 10


# --------------------------------------------------------------------------- the database


class _Service(Protocol):
    """What a tournament asks of the table service (``TableService``)."""

    def create(self, rules: str | RuleSet, seats: int, host: str, *,
               who: str = ..., class_code: str | None = ...) -> SeatTicket: ...
    def join(self, code: str, name: str, *, who: str = ...) -> SeatTicket: ...
    def set_bot(self, token: str, seat: int, level: str | None) -> None: ...
    def start(self, token: str) -> None: ...
    def reissue(self, code: str, seat: int, token: str | None = None) -> SeatTicket: ...
    def state(self, code: str) -> Any: ...


@dataclass(frozen=True)
class TableInfo:
    """A tournament table: ``code`` is ``None`` for a bye; ``players`` in seat order (``None``
    a bot); ``hands``: hands recorded; ``done``: all its hands recorded."""

    round: int
    number: int
    code: str | None
    players: tuple[str | None, ...]
    hands: int
    done: bool


def _now() -> datetime:
    return datetime.now(UTC)


def _bye(number: int) -> str:
    """The ``table_code`` of a bye's row: never a table service code (lower case)."""
    return f"bye-{number}"


class Tournament:
    """A class tournament kept in the database (see the module docstring).

    Made by :meth:`create` (which gives :attr:`tokens`, each player's token, once) or
    :meth:`load`; its rounds are started on a table service by :meth:`start_round` and their
    hands recorded by :meth:`record_table` / :meth:`record_round`."""

    def __init__(self, store: TableStore, tid: str, class_code: str | None,
                 data: Mapping[str, Any], *, own: bool) -> None:
        self.store = store
        self._own = own
        self.id = tid
        self.class_code = class_code
        self.format: str = data["format"]
        self.rounds: int = data["rounds"]
        self.hands: int = data["hands"]
        self.table_size: int = data["table_size"]
        self.rules: RuleSet = rules_from_json(data["rules"])
        self.players: list[str] = [p["name"] for p in data["players"]]
        self._hashes: dict[str, str] = {p["token_hash"]: p["name"] for p in data["players"]}
        #: each player's token (name -> token): only on the object :meth:`create` returns
        self.tokens: dict[str, str] = {}

    def __repr__(self) -> str:
        return (f"Tournament({self.id!r}, {self.format}, round {self.round}/{self.rounds}, "
                f"{len(self.players)} players)")

    # ------------------------------------------------------------------ making, loading

    @classmethod
    def create(cls, url: str | TableStore | TableService | None, class_code: str,
               players: Sequence[str], format: str, rounds: int | None, hands: int, table_size: int,
               rules: str | RuleSet, *, key: str | None = None) -> Tournament:
        """A new tournament of the class ``class_code`` in the database at ``url`` (a URL,
        ``None`` for the class database, or a ``TableService`` or its ``store``: its
        connections are shared, and never closed here); ``key``: when given, the class's
        teacher key, checked. ``rounds=None``: one full round robin. Every argument is
        checked before anything is stored."""
        names = checked_players(players)
        size = checked_table_size(table_size)
        if format not in FORMATS:
            raise TournamentError(f"format must be 'round_robin' or 'swiss', not {quote(format)}")
        if rounds is None:
            if format != "round_robin":
                raise TournamentError("a Swiss tournament needs a number of rounds")
            rounds = full_cycle(len(names), size)
        whole("rounds", rounds, 1, MAX_ROUNDS)
        whole("hands", hands, 1, MAX_HANDS)
        ruleset = _ruleset(rules)
        if not ruleset.min_players <= size <= ruleset.max_players:
            raise TournamentError(f"{ruleset.name} is for {ruleset.min_players}-"
                                  f"{ruleset.max_players} players, not tables of {size}")
        try:
            kept = rules_to_json(ruleset)
        except CrazylabError as e:
            raise TournamentError(str(e)) from None
        tokens = {n: secrets.token_urlsafe(24) for n in names}
        data = {"format": format, "rounds": rounds, "hands": hands, "table_size": size,
                "rules": kept,
                "players": [{"name": n, "token_hash": secret_hash(tokens[n])}
                            for n in names]}
        store, own = _open_store(url)
        try:
            tid = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
            with _write(store) as conn:
                code = _class(conn, class_code, key)
                conn.execute(sa.insert(schema.tournaments).values(
                    id=tid, class_code=code, data=json.dumps(data), created_at=_now()))
        except BaseException:
            if own:
                store.close()
            raise
        made = cls(store, tid, code, data, own=own)
        made.tokens = tokens
        return made

    @classmethod
    def load(cls, url: str | TableStore | TableService | None, id: str) -> Tournament:
        """The tournament ``id`` in the database at ``url`` (as for :meth:`create`);
        ``TournamentError`` for an unknown one."""
        if not isinstance(id, str) or not re.fullmatch(f"[{ID_ALPHABET}]{{{ID_LENGTH}}}", id):
            raise TournamentError(f"unknown tournament {quote(id)}")
        store, own = _open_store(url)
        try:
            with _read(store) as conn:
                t = schema.tournaments
                row = conn.execute(sa.select(t).where(t.c.id == id)).first()
        except BaseException:
            if own:
                store.close()
            raise
        if row is None:
            if own:
                store.close()
            raise TournamentError(f"unknown tournament {quote(id)}")
        return cls(store, row.id, row.class_code, json.loads(row.data), own=own)

    def close(self) -> None:
        """Close the database if this tournament opened it."""
        if self._own:
            self.store.close()

    def check_key(self, key: str) -> None:
        """Refuse (``TournamentError("wrong teacher key")``) unless ``key`` is the teacher
        key of the tournament's class."""
        with _read(self.store) as conn:
            _class(conn, self.class_code or "", key)

    # ------------------------------------------------------------------ rounds

    def _rows(self, conn: sa.Connection, round: int | None = None) -> list[Any]:
        tt = schema.tournament_tables
        query = sa.select(tt).where(tt.c.tournament_id == self.id)
        if round is not None:
            query = query.where(tt.c.round == round)
        return list(conn.execute(query))

    @property
    def round(self) -> int:
        """The round started last (0 before the first)."""
        tt = schema.tournament_tables
        with _read(self.store) as conn:
            return int(conn.execute(sa.select(sa.func.max(tt.c.round))
                                    .where(tt.c.tournament_id == self.id)).scalar() or 0)

    def tables(self, round: int | None = None) -> list[TableInfo]:
        """The tables of ``round`` (default: every round so far), in order."""
        with _read(self.store) as conn:
            rows = self._rows(conn, round)
        out = []
        for r in rows:
            result = json.loads(r.result)
            out.append(TableInfo(round=r.round, number=result["number"],
                                 code=None if r.table_code.startswith("bye-") else r.table_code,
                                 players=tuple(json.loads(r.players)),
                                 hands=len(result["hands"]), done=result["done"]))
        return sorted(out, key=lambda t: (t.round, t.number))

    def played(self) -> set[frozenset[str]]:
        """Every pair that has shared a table, and ``{player}`` for each bye."""
        out: set[frozenset[str]] = set()
        for t in self.tables():
            at = [p for p in t.players if p is not None]
            out.update(frozenset(c) for c in itertools.combinations(at, 2))
            if len(at) == 1:
                out.add(frozenset(at))
        return out

    def start_round(self, service: _Service) -> list[str]:
        """Start the next round: its tables are made on ``service`` with the players seated
        (the first of each table is its host; bots of level :data:`BOT_LEVEL` fill empty
        seats) and started. Returns the table codes (a bye makes no table). The round
        before must be finished (:meth:`record_round`)."""
        before = self.round
        busy = [t.code or "" for t in self.tables(before) if not t.done]
        if busy:
            raise TournamentError(f"round {before} is not finished: table(s) "
                                  f"{', '.join(busy)} still playing")
        if before >= self.rounds:
            raise TournamentError(f"all {self.rounds} rounds have been played")
        number = before + 1
        if self.format == "round_robin":
            groups = schedule(tuple(self.players), self.table_size, self.rounds)[number - 1]
        else:
            groups = swiss(self.standings(), self.table_size, self.played())
        rows = []
        for i, group in enumerate(groups, 1):
            if len(group) == 1:
                rows.append({"table_code": _bye(i), "players": json.dumps(group),
                             "result": json.dumps({"number": i, "seats": [], "hands": [],
                                                   "done": True})})
                continue
            # who="": the service's own caller, not a client (no join rate limit)
            host = service.create(self.rules, self.table_size, group[0], who="",
                                  class_code=self.class_code)
            tickets = [host, *(service.join(host.code, n, who="") for n in group[1:])]
            for seat in range(len(group), self.table_size):
                service.set_bot(host.token, seat, BOT_LEVEL)
            service.start(host.token)
            seated: list[str | None] = [None] * self.table_size
            for k, ticket in enumerate(tickets):
                seated[ticket.seat] = group[k]
                # the service's random token is forgotten: the seat takes the derived one
                service.reissue(host.code, ticket.seat,
                                self._seat_token(number, host.code, ticket.seat, group[k]))
            rows.append({"table_code": host.code, "players": json.dumps(seated),
                         "result": json.dumps({"number": i, "hands": [], "done": False})})
        with _write(self.store) as conn:
            tn = schema.tournaments
            conn.execute(sa.select(tn.c.id).where(tn.c.id == self.id).with_for_update()).first()
            tt = schema.tournament_tables
            now = conn.execute(sa.select(sa.func.max(tt.c.round))
                               .where(tt.c.tournament_id == self.id)).scalar() or 0
            if now != before:
                raise TournamentError(f"round {now} was started at the same time")
            conn.execute(sa.insert(tt), [{"tournament_id": self.id, "round": number, **r}
                                         for r in rows])
        return [str(r["table_code"]) for r in rows if not r["table_code"].startswith("bye-")]

    def record_table(self, service: _Service, code: str) -> int:
        """Record the finished hands of the table ``code`` from ``service`` (up to the
        tournament's number of hands; each hand once) and return how many are recorded.
        The table is done when all its hands are recorded, or when its match ended first
        (a rule set played to a target)."""
        if not isinstance(code, str) or code not in {t.code for t in self.tables()}:
            raise TournamentError(f"no table {quote(code)} in this tournament")
        match = service.state(code).match
        finished = [g for g in match.hands if g.over][:self.hands]
        hands = [{"scores": list(g.scores), "winners": list(g.winners)} for g in finished]
        done = len(hands) >= self.hands or match.over
        tt = schema.tournament_tables
        where = (tt.c.tournament_id == self.id, tt.c.table_code == code)
        with _write(self.store) as conn:
            row = conn.execute(sa.select(tt.c.result).where(*where).with_for_update()).first()
            if row is None:
                raise TournamentError(f"no table {quote(code)} in this tournament")
            result = json.loads(row.result)
            if len(hands) > len(result["hands"]) or done != result["done"]:
                result["hands"] = hands
                result["done"] = done
                conn.execute(sa.update(tt).where(*where).values(result=json.dumps(result)))
        return len(hands)

    def record_round(self, service: _Service) -> bool:
        """Record every table of the current round; True when the round is finished."""
        for t in self.tables(self.round):
            if t.code is not None and not t.done:
                self.record_table(service, t.code)
        return all(t.done for t in self.tables(self.round))

    def my_seat(self, player_token: str) -> SeatTicket:
        """The player's seat this round (a ``SeatTicket`` of the table service), for their
        tournament token. A bye, or no round started yet, is refused."""
        name = self._player(player_token)
        number = self.round
        with _read(self.store) as conn:
            rows = self._rows(conn, number) if number else []
        for r in rows:
            players = json.loads(r.players)
            if name not in players:
                continue
            if r.table_code.startswith("bye-"):
                raise TournamentError(f"{name} has a bye in round {number}")
            seat = players.index(name)
            return SeatTicket(code=r.table_code, seat=seat, name=name,
                              token=self._seat_token(number, r.table_code, seat, name))
        raise TournamentError(f"{name} has no table yet: the round has not started")

    def _seat_token(self, number: int, code: str, seat: int, name: str) -> str:
        """The seat's token: the player's token hash keyed by the server's secret (only the
        server derives it; the database holds the hash the table service keeps)."""
        player_hash = next(h for h, n in self._hashes.items() if n == name)
        return keyed(self.store.db.secret, "tournament seat", self.id, number, code, seat,
                     player_hash)[:43]

    def _player(self, token: Any) -> str:
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            raise TournamentError("unknown player token")
        name = self._hashes.get(secret_hash(token))
        if name is None:
            raise TournamentError("unknown player token")
        return name

    # ------------------------------------------------------------------ standings

    def results(self) -> list[HandResult]:
        """Every recorded hand."""
        by_wins = self.rules.scoring == "none"
        with _read(self.store) as conn:
            rows = self._rows(conn)
        out = []
        for r in rows:
            result = json.loads(r.result)
            players = tuple(json.loads(r.players))
            out += [HandResult(round=r.round, table=result["number"], hand=h,
                               players=players, scores=tuple(hand["scores"]),
                               winners=tuple(hand["winners"]), by_wins=by_wins)
                    for h, hand in enumerate(result["hands"], 1)]
        return sorted(out, key=lambda h: (h.round, h.table, h.hand))

    def standings(self) -> list[Standing]:
        """The standings so far (every player listed)."""
        return standings(self.results(), self.players)

    def export_csv(self) -> str:
        """The standings as CSV: rank, player, points, wins, hands, Buchholz, head to head
        (a cell a spreadsheet would run as a formula is quoted)."""
        return rows_to_csv([{"rank": s.rank, "player": s.player, "points": s.points,
                             "wins": s.wins, "hands": s.hands,
                             "opponents_points": s.opponents_points,
                             "head_to_head": s.head_to_head} for s in self.standings()])

    def summary(self) -> dict[str, Any]:
        """The tournament as plain JSON values (what a standings page shows: no token)."""
        tables = self.tables()
        return {"id": self.id, "format": self.format, "rules": self.rules.name,
                "round": max((t.round for t in tables), default=0), "rounds": self.rounds,
                "hands": self.hands, "table_size": self.table_size,
                "players": list(self.players),
                "standings": [dataclasses.asdict(s) for s in self.standings()],
                "tables": [{"round": t.round, "table": t.number, "code": t.code,
                            "players": list(t.players), "hands": t.hands, "done": t.done}
                           for t in tables]}


# --------------------------------------------------------------------------- helpers


def _ruleset(rules: Any) -> RuleSet:
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise TournamentError(f"unknown rule set {quote(rules)}: one of "
                                  f"{', '.join(PRESETS)}")
        return PRESETS[rules]
    if isinstance(rules, RuleSet) and rules.name in PRESETS:
        return rules
    raise TournamentError("rules must be a preset name, or a preset with house options "
                          f"(crazylab.rules(name, ...)), not {quote(rules)}")


def _open_store(url: str | TableStore | TableService | None) -> tuple[TableStore, bool]:
    if isinstance(url, TableService):
        return url.store, False
    if isinstance(url, TableStore):
        return url, False
    try:
        return TableStore(url), True
    except StoreError as e:
        raise TournamentError(str(e)) from None


@contextmanager
def _read(store: TableStore) -> Iterator[sa.Connection]:
    try:
        with store.db.read() as conn:
            yield conn
    except StoreError as e:
        raise TournamentError(str(e)) from None


@contextmanager
def _write(store: TableStore) -> Iterator[sa.Connection]:
    try:
        with store.write() as conn:
            yield conn
    except StoreError as e:
        raise TournamentError(str(e)) from None


def _class(conn: sa.Connection, code: Any, key: str | None) -> str:
    """The class code as stored; with ``key``, refused unless it is the teacher key (a wrong
    key and an unknown class alike)."""
    if not isinstance(code, str):
        raise TournamentError("the class code must be text")
    c = schema.classes
    row = conn.execute(sa.select(c.c.code, c.c.key_hash)
                       .where(c.c.code == class_code(code))).first()
    if key is not None and not secret_matches(row.key_hash if row is not None else None, key):
        raise TournamentError("wrong teacher key")
    if row is None:
        raise TournamentError(f"unknown class code {quote(code)}")
    return str(row.code)

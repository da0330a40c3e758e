"""The table service: matches that several learners play from their own browsers.

The game lives here, not in any learner's kernel. A **table** has a join code (8 characters
of :data:`CODE_ALPHABET`, drawn with ``secrets``: about 40 bits), a rule set (a preset,
with house options), 2 to 5 seats and one :class:`~crazylab.match.Match`. Each learner holds
a **seat token** (``secrets.token_urlsafe(24)``, 192 bits; only its sha256 is stored): it is
how a browser that reloads finds its seat again, never the name.

* The host (who created the table) fills empty seats with bots (``crazylab.bots.BOTS``)
  and starts; then every move comes through :meth:`TableService.move` with the seat's token
  and the table's version the browser last saw. It is checked by the engine for that seat;
  a move for another seat, out of turn, at a stale version, with a forged token, or that the
  rules refuse is a one-line :class:`TableError` and changes nothing.
* Bot seats move in :meth:`TableService.bot_step` (the web layer calls it after its delay);
  so do learner seats whose browser has been gone longer than ``idle_after`` seconds, until
  the learner takes the seat back (:meth:`TableService.take_back`).
* Every change is stored as it is made (:mod:`crazylab.tables.store`): a new service on the
  same database (a restart) replays every table's moves through the engine and carries on at
  the same version.
* One lock per table: two moves at once are applied one after the other, so the second sees
  a newer version and is refused (:class:`StaleMove`).
* Rate limits: :data:`JOINS_PER_MINUTE` joins (and creates) per client the server knows
  (``who``: a learner, a hub user), else :data:`ADDRESS_JOINS_PER_MINUTE` per address
  (``address``); neither given is a caller inside this process (a tournament, a test) and
  is not limited; :data:`MOVES_PER_SECOND` moves per seat token (:class:`RateLimited` says
  when to try again); at most :data:`MAX_TABLES` tables.
* Tables are retired (:meth:`TableService.retire`) once unchanged for ``retire_after``
  seconds: a start replays only the tables in use.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from ..bots import BOTS, make_bot
from ..engine.game import Game, IllegalMove
from ..engine.moves import MoveError
from ..engine.narrator import story
from ..engine.rules import PRESETS, RulesError, RuleSet
from ..engine.rules import rules as get_rules
from ..errors import CrazylabError, quote
from ..match import Match, MatchError
from ..store import display_name, secret_hash
from ..store.limits import Window
from .store import MoveRow, SeatRow, StaleWrite, StoreError, TableRow, TableStore

__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "BadMove", "BadToken", "NotHost", "NotYourTurn",
    "RateLimited", "SeatTicket", "StaleMove", "TableError", "TableFull", "TableService",
    "TableState", "UnknownTable",
]

log = logging.getLogger(__name__)

#: join codes: 8 characters of 31 (no 0/O, 1/I/L): about 40 random bits
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
MOVE_MAX = 100
TOKEN_MAX = 128
#: joins (and creates) one client (a learner, a hub user) may make in a minute
JOINS_PER_MINUTE = 20
#: joins (and creates) of clients nobody knows, per address, in a minute: a class of 60 behind
#: one school address sits down at once
ADDRESS_JOINS_PER_MINUTE = 120
#: the tables a service keeps at most (retired ones excluded)
MAX_TABLES = 10_000
#: moves (refused ones too) a seat token may send in a second
MOVES_PER_SECOND = 10
#: hands' reviews kept (a review takes seconds; a seat asks again after a reload)
REVIEWS_KEPT = 256
#: seconds a table may stay unchanged (finished or abandoned) before it is retired
RETIRE_AFTER = 7 * 24 * 3600.0
#: the bot that plays a learner's seat while the learner is away
IDLE_BOT = "rules"
LEARNER, BOT, EMPTY, AWAY = "learner", "bot", "empty", "away"


class TableError(CrazylabError):
    """A refused table call (one line saying why); the table is as it was."""


class UnknownTable(TableError):
    """No table has that code (a malformed code gets the same answer)."""


class TableFull(TableError):
    """Every seat of the table is taken."""


class BadToken(TableError):
    """No seat has that token."""


class NotYourTurn(TableError):
    """Another seat is to play (or the hand is over)."""


class StaleMove(TableError):
    """The table moved on since the version the move was made at."""


class RateLimited(TableError):
    """Too many calls: try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotHost(TableError):
    """Only the table's host may do that."""


class BadMove(TableError):
    """The engine refuses the move for this seat (the message says why)."""


@dataclass(frozen=True)
class SeatTicket:
    """A learner's seat: the table's code, the seat number, the token (keep it secret: it is
    the seat) and the name."""

    code: str
    seat: int
    token: str
    name: str


@dataclass(frozen=True)
class TableState:
    """A table as it is now. ``match`` is the live match: read it, never change it."""

    code: str
    rules: RuleSet
    names: list[str]
    kinds: list[str]  # learner, bot, empty, away
    levels: list[str | None]  # a bot seat's level
    host: int
    started: bool
    version: int
    match: Match


@dataclass
class _Seat:
    name: str
    kind: str  # learner, bot, empty
    bot: str | None = None
    token_hash: str | None = None
    gone_since: float | None = None  # the learner's browser left (None: here)
    away: bool = False  # a bot plays the seat until the learner takes it back


@dataclass
class _Table:
    code: str
    rules: RuleSet
    rules_json: str
    seed: int
    host: int
    started: bool
    version: int
    seats: list[_Seat]
    match: Match
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[Callable[[int], None]] = field(default_factory=list)
    class_code: str | None = None  # the class whose teacher may watch it


def _name(name: object) -> str:
    return display_name(name, "name", TableError)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def rules_to_json(r: RuleSet) -> str:
    """A preset with house options as JSON (:class:`TableError` for any other rule set)."""
    if r.name not in PRESETS:
        raise TableError(f"a table plays a preset ({', '.join(PRESETS)}), with house options, "
                         f"not {quote(r.name)}")
    options = {k: getattr(r, k) for k in r.options_changed}
    text = json.dumps({"preset": r.name, "options": options, "description": r.description})
    if rules_from_json(text) != r:
        raise TableError(f"the rules {quote(r.name)} cannot be kept for a table")
    return text


def rules_from_json(text: str) -> RuleSet:
    data = json.loads(text)
    options = {k: _tuples(v) for k, v in data.get("options", {}).items()}
    return get_rules(data["preset"], description=data.get("description", ""), **options)


def _bot_name(level: str) -> str:
    return f"Bot ({level})"


class TableService:
    """Every shared table, kept in the database at ``url`` (``None``: the class database).
    Thread safe. Opening it restores every stored table (see :meth:`restore`)."""

    def __init__(self, url: str | None = None, *, idle_after: float = 60.0,
                 retire_after: float | None = RETIRE_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        try:
            self._store = TableStore(url)
        except StoreError as e:
            raise TableError(str(e)) from None
        try:
            self._store.claim()  # the one service of this database
        except StoreError as e:
            self._store.close()
            raise TableError(str(e)) from None
        #: the database (``store.db``, ``store.write()``: a tournament keeps its rows there)
        self.store = self._store
        self.url = self._store.db.url
        self.idle_after = float(idle_after)
        self._clock = clock
        self._tables: dict[str, _Table] = {}
        self._tokens: dict[str, tuple[str, int]] = {}  # token hash -> (code, seat)
        self._reviews: dict[tuple[str, int, int, int], dict[str, Any]] = {}
        self._lock = threading.Lock()  # the three dicts above
        self._joins = Window(JOINS_PER_MINUTE, 60.0, "joins", RateLimited)
        self._address_joins = Window(ADDRESS_JOINS_PER_MINUTE, 60.0, "joins from this address",
                                     RateLimited)
        self._moves = Window(MOVES_PER_SECOND, 1.0, "moves", RateLimited)
        self.retire_after = retire_after
        if retire_after is not None:  # a quiet table is not replayed
            self._retire_rows()
        for row in self._store.load():
            try:
                self._restore_table(row)
            except (CrazylabError, ValueError, KeyError) as e:
                log.warning("table %s not restored: %s", row.code, e)

    @classmethod
    def restore(cls, url: str | None = None, **kw: Any) -> TableService:
        """A service with every table back from the database: seeds and move logs replayed
        through the engine (what a restarted service does)."""
        return cls(url, **kw)

    def close(self) -> None:
        """Close the database connections."""
        self._store.close()

    def __repr__(self) -> str:
        return f"TableService({self.url!r}, {len(self._tables)} tables)"

    # ------------------------------------------------------------------ restoring

    def _restore_table(self, row: TableRow) -> None:
        r = rules_from_json(row.rules)
        seed = self._store.deal_seed(row.seed) if row.keyed else row.seed  # older: in clear
        match = Match(r, row.seats, seed=seed)
        hands: dict[int, list[MoveRow]] = {}
        for m in row.moves:
            hands.setdefault(m.hand, []).append(m)
        for hand in range(1, row.hands + 1):
            if hand > 1:
                match.next_hand()
            for m in hands.get(hand, []):
                match.game.push(m.move, seat=m.seat)
            if match.game.over:
                match.record()
        seats = [_Seat(s.name, s.kind, s.bot, s.token_hash) for s in row.seat_rows]
        now = self._clock()
        for s in seats:
            if s.kind == LEARNER:
                s.gone_since = now  # back when its browser comes back
        table = _Table(code=row.code, rules=r, rules_json=row.rules, seed=seed,
                       host=row.host, started=row.started, version=row.version, seats=seats,
                       match=match, class_code=row.class_code)
        with self._lock:
            self._tables[row.code] = table
            for k, s in enumerate(seats):
                if s.token_hash:
                    self._tokens[s.token_hash] = (row.code, k)

    # ------------------------------------------------------------------ finding

    def _table(self, code: object) -> _Table:
        if isinstance(code, str):
            table = self._tables.get(code.strip().upper())
            if table is not None:
                return table
        raise UnknownTable("no table has that code: check the code and try again")

    def _seat(self, token: object) -> tuple[_Table, int, str]:
        if isinstance(token, str) and 0 < len(token) <= TOKEN_MAX:
            digest = secret_hash(token)
            found = self._tokens.get(digest)
            if found is not None:
                return self._tables[found[0]], found[1], digest
        raise BadToken("this seat token is not a seat at any table: join the table again")

    def _host(self, token: object) -> tuple[_Table, int]:
        table, seat, _ = self._seat(token)
        if seat != table.host:
            raise NotHost("only the table's host can do that")
        return table, seat

    def _notify(self, table: _Table) -> None:
        version = table.version
        for fn in list(table.listeners):
            try:
                fn(version)
            except Exception:  # a listener's bug never stops the table
                log.exception("table %s: a listener failed", table.code)

    def _stored(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except StaleWrite as e:
            raise StaleMove("the table changed elsewhere: reload it") from e
        except StoreError as e:
            raise TableError(str(e)) from None

    # ------------------------------------------------------------------ seats

    def _count_join(self, who: str, address: str) -> None:
        if who:
            self._joins.hit(who, self._clock())
        else:
            self._address_joins.hit(address, self._clock())

    def create(self, rules: str | RuleSet, seats: int, host: str, *, who: str = "",
               address: str = "", class_code: str | None = None) -> SeatTicket:
        """A new table of ``seats`` seats under ``rules`` (a preset name, or a preset with
        house options); the host, ``host`` by name, sits at seat 0. ``class_code``: the
        class it belongs to (its teacher may watch it); ``None``: no class's. ``who`` and
        ``address``: the client, for the rate limits."""
        self._count_join(who, address)
        if len(self._tables) >= MAX_TABLES:
            raise TableError("the server has too many tables open: try again later")
        if class_code is not None:
            try:
                class_code = self._store.class_named(class_code)
            except StoreError as e:
                raise TableError(str(e)) from None
            if class_code is None:
                raise TableError("no class has that class code: ask your teacher for it")
        if isinstance(rules, str):
            try:
                r = get_rules(rules)
            except RulesError as e:
                raise TableError(str(e)) from None
        elif isinstance(rules, RuleSet):
            r = rules
        else:
            raise TableError(f"rules must be a preset name or a RuleSet, not {quote(rules)}")
        if not isinstance(seats, int) or isinstance(seats, bool) \
                or not max(2, r.min_players) <= seats <= min(5, r.max_players):
            raise TableError(f"a table of {r.name} has {max(2, r.min_players)} to "
                             f"{min(5, r.max_players)} seats, not {quote(seats)}")
        name = _name(host)
        rules_json = rules_to_json(r)
        nonce = secrets.randbits(62)  # stored; the deal's seed is keyed (deal_seed)
        seed = self._store.deal_seed(nonce)
        try:
            match = Match(r, seats, seed=seed)
        except MatchError as e:
            raise TableError(str(e)) from None
        token = secrets.token_urlsafe(24)
        digest = secret_hash(token)
        table_seats = [_Seat(name, LEARNER, None, digest, gone_since=self._clock())]
        table_seats += [_Seat("Empty seat", EMPTY) for _ in range(seats - 1)]
        for _ in range(5):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            row = TableRow(code=code, rules=rules_json, seats=seats, seed=nonce, host=0,
                           started=False, hands=1, version=1, created_at=datetime.now(UTC),
                           seat_rows=[SeatRow(k, s.token_hash, s.name, s.kind, s.bot)
                                      for k, s in enumerate(table_seats)], keyed=True,
                           class_code=class_code)
            try:
                self._store.create(row)
            except StaleWrite:  # a code drawn twice: draw again
                continue
            except StoreError as e:
                raise TableError(str(e)) from None
            break
        else:  # pragma: no cover
            raise TableError("could not draw a new table code")
        table = _Table(code=code, rules=r, rules_json=rules_json, seed=seed, host=0,
                       started=False, version=1, seats=table_seats, match=match,
                       class_code=class_code)
        with self._lock:
            self._tables[code] = table
            self._tokens[digest] = (code, 0)
        return SeatTicket(code=code, seat=0, token=token, name=name)

    def join(self, code: str, name: str, *, who: str = "", address: str = "") -> SeatTicket:
        """Take the first empty seat of the table ``code`` (``who``, ``address``: the
        client, as for :meth:`create`)."""
        self._count_join(who, address)
        table = self._table(code)
        name = _name(name)
        with table.lock:
            free = [k for k, s in enumerate(table.seats) if s.kind == EMPTY]
            if not free:
                raise TableFull(f"table {table.code} is full: every seat is taken")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            digest = secret_hash(token)
            new = _Seat(name, LEARNER, None, digest, gone_since=self._clock())
            self._stored(lambda: self._store.set_seat(
                table.code, table.version, SeatRow(seat, digest, name, LEARNER, None)))
            table.seats[seat] = new
            table.version += 1
            with self._lock:
                self._tokens[digest] = (table.code, seat)
        self._notify(table)
        return SeatTicket(code=table.code, seat=seat, token=token, name=name)

    def reissue(self, code: str, seat: int, token: str | None = None) -> SeatTicket:
        """A new token for a learner's seat, ``token`` or a fresh random one (the seat's
        earlier token stops working): a tournament gives each seat a token only the server
        can derive again, so no seat token is ever stored."""
        table = self._table(code)
        with table.lock:
            if not isinstance(seat, int) or not 0 <= seat < len(table.seats) \
                    or table.seats[seat].kind != LEARNER:
                raise TableError(f"seat {quote(seat)} of table {table.code} is no learner's")
            old = table.seats[seat]
            token = token or secrets.token_urlsafe(24)
            digest = secret_hash(token)
            self._stored(lambda: self._store.set_seat(
                table.code, table.version, SeatRow(seat, digest, old.name, LEARNER, None)))
            table.seats[seat] = dataclasses.replace(old, token_hash=digest)
            table.version += 1
            with self._lock:
                self._tokens.pop(old.token_hash or "", None)
                self._tokens[digest] = (table.code, seat)
        self._notify(table)
        return SeatTicket(code=table.code, seat=seat, token=token, name=old.name)

    def seat_of(self, token: str) -> SeatTicket:
        """The seat of ``token`` (a browser back after a reload)."""
        table, seat, _ = self._seat(token)
        return SeatTicket(code=table.code, seat=seat, token=token, name=table.seats[seat].name)

    def review(self, token: str) -> dict[str, Any]:
        """The review of the hand just finished at the table of ``token``, for its seat
        only (:mod:`crazylab.review`: each decision rated from what that seat could see),
        with the seat's own hand and the top card at each decision. Refused while the hand
        is being played."""
        table, seat, _ = self._seat(token)
        return self._review(table, seat)

    def reviews_due(self, code: str) -> list[int]:
        """The learners' seats of table ``code`` whose finished hand is not reviewed yet
        (a class's table: their reviews are kept for the teacher); none while it is played."""
        table = self._table(code)
        with table.lock:
            game = table.match.game
            if table.class_code is None or not game.over:
                return []
            return [s for s, seat in enumerate(table.seats) if seat.kind == LEARNER
                    and self._review_key(table, s) not in self._reviews]

    def review_seat(self, code: str, seat: int) -> None:
        """Review seat ``seat``'s finished hand at table ``code`` (see :meth:`reviews_due`)."""
        self._review(self._table(code), seat)

    @staticmethod
    def _review_key(table: _Table, seat: int) -> tuple[str, int, int, int]:
        return (table.code, table.match.games_played, seat, len(table.match.game.moves))

    def _review(self, table: _Table, seat: int) -> dict[str, Any]:
        """Worked out once per hand and seat (slow: seconds), and kept with the class's
        rows when the table is a class's."""
        from crazylab.review import hand_record, review_moves

        with table.lock:
            game = table.match.game
            if not game.over:
                raise TableError("finish the hand first: its review comes after it")
            key = self._review_key(table, seat)
            if key in self._reviews:
                return self._reviews[key]
            start, moves = hand_record(game)
            name, klass = table.seats[seat].name, table.class_code
        # the worlds' seed: the table's code and hand (never the deal's own seed)
        decisions = review_moves(start, moves, seat,
                                 seed=zlib.crc32(f"{key[0]}:{key[1]}".encode()))
        replay, at, shown = start.copy(), 0, []
        for d in decisions:
            while at < d.ply:
                replay.push(moves[at])
                at += 1
            top = replay.top
            shown.append({**d.as_dict(), "hand": [c.display for c in replay.hand(seat)],
                          "top": top.display if top is not None else ""})
        review = {"code": table.code, "seat": seat, "hand": key[1], "decisions": shown}
        if klass is not None:
            rated = [d for d in shown if d["verdict"] not in ("forced", "unrated")]
            self.store.keep_review(klass, table.code, key[1], seat, name, rated)
        with self._lock:
            while len(self._reviews) >= REVIEWS_KEPT:
                self._reviews.pop(next(iter(self._reviews)))
            self._reviews[key] = review
        return review

    def set_bot(self, token: str, seat: int, level: str | None) -> None:
        """The host puts a bot of ``level`` on an empty or bot seat (``None``: empties it)."""
        table, host = self._host(token)
        with table.lock:
            if table.started:
                raise TableError("the game has started: seats are set before the start")
            if not isinstance(seat, int) or isinstance(seat, bool) \
                    or not 0 <= seat < len(table.seats):
                raise TableError(f"seat must be a seat from 0 to {len(table.seats) - 1}, "
                                 f"not {quote(seat)}")
            if table.seats[seat].kind == LEARNER:
                raise TableError(f"seat {seat} is taken by {table.seats[seat].name}")
            if level is not None and level not in BOTS:
                raise TableError(f"unknown bot level {quote(level)}; the levels are: "
                                 f"{', '.join(BOTS)}")
            new = (_Seat(_bot_name(level), BOT, level) if level is not None
                   else _Seat("Empty seat", EMPTY))
            self._stored(lambda: self._store.set_seat(
                table.code, table.version, SeatRow(seat, None, new.name, new.kind, new.bot)))
            table.seats[seat] = new
            table.version += 1
        self._notify(table)

    def start(self, token: str) -> None:
        """The host starts the match; every seat must be filled."""
        table, _ = self._host(token)
        with table.lock:
            if table.started:
                raise TableError("the game has already started")
            empty = [k for k, s in enumerate(table.seats) if s.kind == EMPTY]
            if empty:
                raise TableError(f"seat {empty[0]} is empty: wait for a classmate or give it "
                                 "a bot")
            self._stored(lambda: self._store.update(table.code, table.version, started=True))
            table.started = True
            table.version += 1
        self._notify(table)

    def new_hand(self, token: str) -> None:
        """The host deals the match's next hand (the current one must be over)."""
        table, _ = self._host(token)
        with table.lock:
            match = table.match
            if not table.started:
                raise TableError("the game has not started yet")
            if not match.game.over:
                raise TableError("the hand is not over yet")
            if match.over:
                raise TableError("the match is over")
            self._deal_next(table)
        self._notify(table)

    def _deal_next(self, table: _Table) -> None:
        """Store and deal the match's next hand (table locked, the hand over)."""
        hands = len(table.match.hands) + 1
        self._stored(lambda: self._store.update(table.code, table.version, hands=hands))
        table.match.next_hand()
        table.version += 1

    # ------------------------------------------------------------------ presence

    def present(self, token: str, here: bool) -> None:
        """A seat's browser came (``here``) or went. A seat gone longer than ``idle_after``
        is played by a bot on its turn until its learner takes it back."""
        table, seat, _ = self._seat(token)
        with table.lock:
            s = table.seats[seat]
            if here:
                s.gone_since = None
            elif s.gone_since is None:
                s.gone_since = self._clock()
        self._notify(table)

    def take_back(self, token: str) -> None:
        """A learner back from being away plays their seat again."""
        table, seat, _ = self._seat(token)
        with table.lock:
            s = table.seats[seat]
            s.away = False
            s.gone_since = None
        self._notify(table)

    def _away(self, s: _Seat, now: float) -> bool:
        if s.kind != LEARNER:
            return False
        if not s.away and s.gone_since is not None and now - s.gone_since > self.idle_after:
            s.away = True
        return s.away

    # ------------------------------------------------------------------ moves

    def move(self, token: str, move: str, *, version: int, who: str = "") -> int:
        """Play ``move`` (its text) for the seat of ``token`` at the table's ``version``;
        returns the new version."""
        if not isinstance(token, str):
            raise BadToken("this seat token is not a seat at any table: join the table again")
        self._moves.hit(token[:TOKEN_MAX], self._clock())
        table, seat, _ = self._seat(token)
        if not isinstance(move, str) or not 0 < len(move) <= MOVE_MAX:
            raise BadMove(f"a move is a text like '8S:D' or 'draw', not {quote(move)}")
        with table.lock:
            if not isinstance(version, int) or isinstance(version, bool) \
                    or version != table.version:
                raise StaleMove(f"the table has moved on (it is at version {table.version}, "
                                f"not {quote(version)}): look again")
            if not table.started:
                raise TableError("the game has not started yet")
            game = table.match.game
            if game.over:
                raise NotYourTurn("the hand is over")
            if game.to_play != seat:
                raise NotYourTurn(f"it is {table.seats[game.to_play].name}'s turn, not yours")
            s = table.seats[seat]
            s.away, s.gone_since = False, None  # a learner who moves is here
            self._play(table, seat, move)
            new = table.version
        self._notify(table)
        return new

    def _play(self, table: _Table, seat: int, move: str) -> None:
        """Check ``move`` for ``seat`` with the engine, store it, apply it (table locked)."""
        match = table.match
        game: Game = match.game
        ply = len(game.moves)
        try:
            m = game.push(move, seat=seat)
        except (IllegalMove, MoveError) as e:
            raise BadMove(str(e).splitlines()[0] if str(e) else "not a legal move") from None
        try:
            self._stored(lambda: self._store.add_move(
                table.code, table.version, MoveRow(len(match.hands), ply, seat, str(m))))
        except TableError:
            game.undo()
            raise
        if game.over:
            match.record()
        table.version += 1

    def next_bot(self, code: str) -> float | None:
        """Seconds until a bot move is due at table ``code`` (0: now), or ``None`` when no
        bot plays next (a learner here is to play, the hand is over, not started)."""
        table = self._table(code)
        with table.lock:
            if not table.started or table.match.over:
                return None
            if table.match.game.over:  # the host deals; one who has left is stood in for
                s = table.seats[table.host]
            else:
                s = table.seats[table.match.game.to_play]
                if s.kind == BOT:
                    return 0.0
            if self._away(s, self._clock()):
                return 0.0
            if s.kind == LEARNER and s.gone_since is not None:
                return max(s.gone_since + self.idle_after - self._clock(), 0.0) + 1e-3
            return None

    def bot_step(self, code: str) -> bool:
        """Play one due bot move at table ``code`` (a bot seat's, or an away learner's seat's),
        or deal the next hand of a match whose host has gone away (a tournament's table would
        stall otherwise); True if one was. The bot thinks without the table's lock; if the
        table moved on meanwhile, nothing is played (False)."""
        table = self._table(code)
        with table.lock:
            if not table.started:
                return False
            match = table.match
            game = match.game
            if game.over:
                if match.over or not self._away(table.seats[table.host], self._clock()):
                    return False
                self._deal_next(table)
                level = None
            else:
                seat = game.to_play
                s = table.seats[seat]
                if s.kind == BOT:
                    level = s.bot or IDLE_BOT
                elif self._away(s, self._clock()):
                    level = IDLE_BOT
                else:
                    return False
                seen = table.version
                obs = game.observation(seat)
                obs = replace(obs, log=obs.events)  # read now: the game moves on unlocked
                rng = random.Random(f"{table.seed}:{len(match.hands)}:{len(game.moves)}")
        if level is not None:
            move = make_bot(level).choose(obs, rng)
            with table.lock:
                if table.version != seen:
                    return False
                self._play(table, seat, str(move))
        self._notify(table)
        return True

    # ------------------------------------------------------------------ reading

    def tables(self, class_code: str | None = None) -> list[str]:
        """Every table's code, oldest first; with ``class_code``, only that class's."""
        with self._lock:
            return [code for code, t in self._tables.items()
                    if class_code is None or t.class_code == class_code]

    def class_of(self, code: str) -> str | None:
        """The class table ``code`` belongs to (``None``: no class's)."""
        return self._table(code).class_code

    def _retire_rows(self) -> list[str]:
        cutoff = datetime.now(UTC) - timedelta(seconds=float(self.retire_after or 0))
        try:
            return self._store.retire(cutoff)
        except StoreError as e:
            log.warning("no table retired: %s", e)
            return []

    def retire(self) -> list[str]:
        """Retire every table unchanged for :attr:`retire_after` seconds (finished or
        abandoned; a tournament's unfinished round stays): gone from the database and from
        this service. Returns their codes."""
        if self.retire_after is None:
            return []
        codes = self._retire_rows()
        with self._lock:
            for code in codes:
                table = self._tables.pop(code, None)
                for s in table.seats if table is not None else []:
                    self._tokens.pop(s.token_hash or "", None)
        return codes

    def state(self, code: str) -> TableState:
        """Table ``code`` as it is now."""
        table = self._table(code)
        with table.lock:
            now = self._clock()
            kinds = [AWAY if self._away(s, now) else s.kind for s in table.seats]
            return TableState(code=table.code, rules=table.rules,
                              names=[s.name for s in table.seats], kinds=kinds,
                              levels=[s.bot for s in table.seats], host=table.host,
                              started=table.started, version=table.version, match=table.match)

    @contextmanager
    def locked(self, code: str) -> Iterator[TableState]:
        """Table ``code`` held still: no move is applied while the block runs (build views
        of ``state.match`` here when moves may come from other threads)."""
        table = self._table(code)
        with table.lock:
            yield self.state(code)

    def public(self, code: str) -> dict[str, Any]:
        """What a spectator may see of table ``code``: names, card counts, the piles' top
        cards, the calls, the public log and the scores; never a hand while it is played
        (the hands are shown once the hand is over)."""
        state = self.state(code)
        table = self._table(code)
        with table.lock:
            match = table.match
            game = match.game
            n = game.n
            lines = story(game, n, state.names)  # seat n: nobody's
            frame: dict[str, Any] = {
                "code": table.code, "rules": table.rules.name, "names": state.names,
                "kinds": state.kinds, "host": table.host, "started": table.started,
                "version": table.version, "hand": len(match.hands), "dealer": game.dealer,
                "to_play": None if game.over else game.to_play,
                "counts": game.hand_sizes, "stock": game.stock_size,
                "tops": [str(p[-1]) if p else None for p in game.piles],
                "calls": list(game.observation(0).calls), "log": lines,
                "scores": list(match.scores), "over": game.over,
                "winners": list(game.winners), "match_over": match.over,
            }
            if game.over:
                frame["hand_scores"] = list(game.scores)
                frame["hands"] = [[str(c) for c in game.hand(k)] for k in range(n)]
            return frame

    def subscribe(self, code: str, fn: Callable[[int], None]) -> Callable[[], None]:
        """Call ``fn(version)`` after every change at table ``code``; returns the function
        that stops it."""
        table = self._table(code)
        with table.lock:
            table.listeners.append(fn)

        def unsubscribe() -> None:
            with table.lock:
                if fn in table.listeners:
                    table.listeners.remove(fn)

        return unsubscribe

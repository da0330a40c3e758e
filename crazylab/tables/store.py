"""Where the shared tables live: the class database's ``game_tables``, ``table_seats`` and
``table_moves`` (schema version 3, :mod:`crazylab.store.schema`).

:class:`TableStore` writes a table's every change as it happens, each in one transaction, and
reads every table back when a service starts (:meth:`TableStore.load`). A move is stored with
its hand and ply (the primary key), and the table's ``version`` is moved on only from the
version the writer saw (``WHERE version = :seen``): two services writing the same table can
never both store a move at one ply. Seat tokens are never stored: only their sha256.

SQL goes only through SQLAlchemy Core with bound parameters. The database is the class
database (:func:`crazylab.classroom.store.default_url`): a SQLite file (WAL, a busy timeout,
foreign keys on) or any SQLAlchemy URL (``postgresql+psycopg://...`` on a hub).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..classroom.store import default_url
from ..errors import CrazylabError
from ..store import Database, class_code, keyed, schema, sqlite_url

__all__ = ["MoveRow", "SeatRow", "StaleWrite", "StoreError", "TableRow", "TableStore"]

#: seconds a SQLite writer waits for another process's write
BUSY_TIMEOUT = 10.0


class StoreError(CrazylabError):
    """The database is unreachable, locked or refused the write: nothing was stored."""


class StaleWrite(StoreError):
    """Another writer changed the table first (its version moved on, or the ply is taken)."""


@dataclass
class SeatRow:
    seat: int
    token_hash: str | None
    name: str
    kind: str  # learner, bot, empty
    bot: str | None


@dataclass
class MoveRow:
    hand: int
    ply: int
    seat: int
    move: str


@dataclass
class TableRow:
    code: str
    rules: str  # JSON
    seats: int
    seed: int
    host: int
    started: bool
    hands: int
    version: int
    created_at: datetime
    seat_rows: list[SeatRow] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)
    keyed: bool = False  # seed is a nonce: the deal is keyed by the server's secret
    class_code: str | None = None  # the class whose teacher may watch it


def _now() -> datetime:
    return datetime.now(UTC)


class TableStore:
    """The tables' rows in the database at ``url`` (``None``: the class database), created
    or upgraded to the current schema when opened. Thread safe."""

    def __init__(self, url: str | None = None) -> None:
        if url is not None and "://" not in url:
            url = sqlite_url(Path(url))
        self.db = Database(url or default_url(), what="table database", error=StoreError,
                           unavailable=StoreError, busy_timeout=BUSY_TIMEOUT)

    def close(self) -> None:
        self.release()
        self.db.close()

    def claim(self) -> None:
        """Be the one table service of this database, or refuse in one line
        (:class:`StoreError`): the tables live in one process (its locks, bots and sockets),
        and a second service would only see its moves refused as stale. Held until
        :meth:`close` (or the process ends)."""
        if not self.db.claim("tables-service"):
            raise StoreError("another tables service already serves this database (one "
                             "service per database: stop it, or use that one)")

    def release(self) -> None:
        """Let another service have the database."""
        self.db.release("tables-service")

    @contextmanager
    def write(self) -> Iterator[sa.Connection]:
        """One write transaction (a tournament's rows too): :class:`StaleWrite` on a
        conflicting key, :class:`StoreError` when the database is unavailable."""
        try:
            with self.db.write() as conn:
                yield conn
        except sa_exc.IntegrityError as e:
            raise StaleWrite("another writer changed the table first") from e

    # ------------------------------------------------------------------ writes

    def create(self, row: TableRow) -> None:
        """A new table with its seats (:class:`StaleWrite` if the code is taken)."""
        with self.write() as conn:
            conn.execute(sa.insert(schema.game_tables).values(
                code=row.code, rules=row.rules, seats=row.seats, seed=row.seed, host=row.host,
                started=row.started, hands=row.hands, version=row.version,
                created_at=row.created_at, keyed=row.keyed, class_code=row.class_code,
                active_at=row.created_at))
            conn.execute(sa.insert(schema.table_seats), [
                {"code": row.code, "seat": s.seat, "token_hash": s.token_hash, "name": s.name,
                 "kind": s.kind, "bot": s.bot} for s in row.seat_rows])

    def _bump(self, conn: sa.Connection, code: str, seen: int, **values: Any) -> None:
        t = schema.game_tables
        done = conn.execute(sa.update(t).where(t.c.code == code, t.c.version == seen)
                            .values(version=seen + 1, active_at=_now(), **values))
        if done.rowcount != 1:
            raise StaleWrite(f"table {code} changed elsewhere (not at version {seen})")

    def set_seat(self, code: str, seen: int, seat: SeatRow) -> None:
        """A seat taken, given to a bot or emptied; the version moves on from ``seen``."""
        s = schema.table_seats
        with self.write() as conn:
            self._bump(conn, code, seen)
            conn.execute(sa.update(s).where(s.c.code == code, s.c.seat == seat.seat).values(
                token_hash=seat.token_hash, name=seat.name, kind=seat.kind, bot=seat.bot))

    def update(self, code: str, seen: int, **values: Any) -> None:
        """The table's own columns (``started``, ``hands``); the version moves on."""
        with self.write() as conn:
            self._bump(conn, code, seen, **values)

    def add_move(self, code: str, seen: int, move: MoveRow) -> None:
        """A move as it was made; the version moves on from ``seen``."""
        with self.write() as conn:
            self._bump(conn, code, seen)
            conn.execute(sa.insert(schema.table_moves).values(
                code=code, hand=move.hand, ply=move.ply, seat=move.seat, move=move.move,
                at=_now()))

    # ------------------------------------------------------------------ reads

    def keep_review(self, class_code: str, code: str, hand: int, seat: int, name: str,
                    choices: list[dict[str, Any]]) -> None:
        """The rated choices of one seat's hand at a class's table (``ply``, ``situation``,
        ``verdict``, ``loss``, ``rules``), in place of any kept before for that hand."""
        r = schema.hand_reviews
        at = _now()
        with self.write() as conn:
            conn.execute(sa.delete(r).where((r.c.table_code == code) & (r.c.hand == hand)
                                            & (r.c.seat == seat)))
            if choices:
                conn.execute(sa.insert(r), [
                    {"class_code": class_code, "table_code": code, "hand": hand, "seat": seat,
                     "name": name, "ply": c["ply"], "situation": c["situation"],
                     "verdict": c["verdict"], "loss": float(c["loss"]),
                     "rules": " ".join(c["rules"])[:200], "at": at} for c in choices])

    def class_named(self, code: str) -> str | None:
        """The class code ``code`` as stored (``None``: no class has it)."""
        if not isinstance(code, str) or not 0 < len(code.strip()) <= 40:
            return None
        c = schema.classes
        with self.db.read() as conn:
            found = conn.execute(sa.select(c.c.code)
                                 .where(c.c.code == class_code(code))).scalar()
        return str(found) if found is not None else None

    def deal_seed(self, nonce: int) -> int:
        """The seed of a table's deals: its stored nonce keyed by the server's secret (kept
        outside the database, :attr:`crazylab.store.database.Database.secret`), so the
        database alone shows no hidden card."""
        return int(keyed(self.db.secret, "table deal", nonce)[:15], 16)

    def retire(self, quiet_since: datetime) -> list[str]:
        """Delete every table unchanged since ``quiet_since`` (finished or abandoned), with
        its seats and moves, except the tables of a tournament round still being played
        (the tournament records them). Returns the retired codes."""
        t, tt = schema.game_tables, schema.tournament_tables
        with self.write() as conn:
            quiet = {r.code for r in conn.execute(sa.select(t.c.code).where(
                sa.func.coalesce(t.c.active_at, t.c.created_at) < quiet_since))}
            if not quiet:
                return []
            for r in conn.execute(sa.select(tt.c.table_code, tt.c.result)
                                  .where(tt.c.table_code.in_(sorted(quiet)))):
                if not json.loads(r.result or "{}").get("done", False):
                    quiet.discard(r.table_code)
            codes = sorted(quiet)
            for chunk in range(0, len(codes), 500):
                part = codes[chunk:chunk + 500]
                conn.execute(sa.delete(schema.table_moves)
                             .where(schema.table_moves.c.code.in_(part)))
                conn.execute(sa.delete(schema.table_seats)
                             .where(schema.table_seats.c.code.in_(part)))
                conn.execute(sa.delete(t).where(t.c.code.in_(part)))
        return codes

    def load(self) -> list[TableRow]:
        """Every table with its seats and moves (in hand and ply order)."""
        t, s, m = schema.game_tables, schema.table_seats, schema.table_moves
        with self.db.read() as conn:
            rows = {r.code: TableRow(
                code=r.code, rules=r.rules, seats=r.seats, seed=int(r.seed), host=r.host,
                started=bool(r.started), hands=r.hands, version=r.version,
                created_at=r.created_at, keyed=bool(r.keyed), class_code=r.class_code)
                for r in conn.execute(sa.select(t).order_by(t.c.created_at, t.c.code))}
            for r in conn.execute(sa.select(s).order_by(s.c.code, s.c.seat)):
                if r.code in rows:
                    rows[r.code].seat_rows.append(
                        SeatRow(r.seat, r.token_hash, r.name, r.kind, r.bot))
            for r in conn.execute(sa.select(m.c.code, m.c.hand, m.c.ply, m.c.seat, m.c.move)
                                  .order_by(m.c.code, m.c.hand, m.c.ply)):
                if r.code in rows:
                    rows[r.code].moves.append(MoveRow(r.hand, r.ply, r.seat, r.move))
        return list(rows.values())

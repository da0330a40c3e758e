"""One database behind everything that must last (the class store, the shared tables and
tournaments): the engine with crazylab's settings, the schema brought up to date when it is
opened, and its transactions.

* SQLite by default: its folder made, WAL, foreign keys, a busy timeout; writers of every
  thread and process take turns on a lock file beside the database (asleep in the kernel's
  ``flock``, not polling: 30 kernels answering at once queue instead of keeping the writer
  holding SQLite's lock off the CPU), then ``BEGIN IMMEDIATE``.
* Any SQLAlchemy URL otherwise (``postgresql+psycopg://...`` on a hub): a pool checked before
  use; the schema is migrated under a PostgreSQL advisory lock, one migrator at a time.
* An unreachable, locked or busy database raises the owner's "unavailable" error in one line:
  nothing was stored, the caller keeps what it had and tries again.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

try:  # POSIX; elsewhere SQLite's own lock is the only turn-taking
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

from ..errors import CrazylabError, quote
from . import schema

#: the longest a SQLite statement waits inside SQLite's own busy handler (crazylab retries
#: ``BEGIN IMMEDIATE`` itself, in short random waits up to the busy timeout)
SQLITE_STATEMENT_WAIT = 0.05
#: PostgreSQL's advisory lock key for the schema's migrations
MIGRATION_LOCK = 2202


def sqlite_file(url: sa.URL) -> Path | None:
    """The file of a SQLite URL (``None``: another database, or SQLite in memory)."""
    database = url.database or ""
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:"):
        return None
    return Path(database).expanduser()


def sqlite_url(path: Path) -> str:
    """A SQLite URL for the file ``path``."""
    return f"sqlite:///{path.expanduser().resolve()}"


def make_engine(url: str, *, what: str, error: type[CrazylabError],
                busy_timeout: float = 10.0, create: bool = True) -> tuple[sa.Engine, sa.URL]:
    """An engine for the database at ``url`` with crazylab's settings, and the parsed URL.
    SQLite: its folder made, WAL, foreign keys, a busy timeout, and transactions begun by
    crazylab (a connection with the execution option ``crazylab_immediate`` writes: BEGIN
    IMMEDIATE, writers taking fair turns); another database: a pool checked before use. A
    bad URL, folder or driver raises ``error`` in one line naming ``what``; so does a SQLite
    file that does not exist unless ``create`` (a mistyped path is not a new database)."""
    try:
        parsed = sa.make_url(url)
    except (sa_exc.ArgumentError, ValueError) as e:
        raise error(f"not a database URL: {quote(url)}") from e
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = sqlite_file(parsed)
        if database is not None and not create and not database.is_file():
            raise error(f"there is no {what} at {quote(str(database))}: it is made by its "
                        "owner (crazylab class create, or the server of make app)")
        if database is not None:
            try:
                database.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise error(f"cannot make the folder of the {what} "
                            f"{quote(str(database.parent))}: {e.strerror}") from None
            try:  # a new database is its owner's alone (its -wal and -shm files take its mode)
                os.close(os.open(database, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                pass
            except OSError as e:
                raise error(f"cannot make the {what} {quote(str(database))}: "
                            f"{e.strerror}") from None
        kwargs["connect_args"] = {"timeout": busy_timeout, "check_same_thread": False}
    else:
        kwargs.update(pool_pre_ping=True, pool_size=5, max_overflow=20, pool_timeout=60)
    try:
        engine = sa.create_engine(parsed, **kwargs)
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as e:
        raise error(f"cannot use the database {quote(str(parsed))}: {e}") from e
    if parsed.get_backend_name() == "sqlite":
        _sqlite_setup(engine, busy_timeout)
    return engine, parsed


def _sqlite_setup(engine: sa.Engine, busy_timeout: float) -> None:
    """WAL, a busy timeout and foreign keys on every connection; transactions begun by
    crazylab itself (DEFERRED for reads, IMMEDIATE for writes)."""

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # crazylab emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(min(busy_timeout, SQLITE_STATEMENT_WAIT) * 1000)}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut too
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        if not conn.get_execution_options().get("crazylab_immediate"):
            conn.exec_driver_sql("BEGIN")
            return
        # SQLite's own busy handler backs off to 100 ms sleeps, so under many writers a
        # writer that waited long keeps losing to newcomers (seconds, even its timeout).
        # Short random waits up to the timeout instead: first come is not first served,
        # but nobody starves.
        deadline = time.monotonic() + busy_timeout
        while True:
            try:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except sa_exc.OperationalError as e:
                if not _is_busy(e) or time.monotonic() >= deadline:
                    raise
                time.sleep(random.uniform(0.0005, 0.004))


def _is_busy(error: sa_exc.OperationalError) -> bool:
    text = str(error.orig).lower()
    return "locked" in text or "busy" in text


class Database:
    """The database at ``url``, created or upgraded to the current schema when opened
    (:mod:`.schema`; a newer one is refused with ``error``). ``what`` names it in messages
    ("class database"); ``unavailable(message)`` is the owner's error for a database that
    cannot answer now. Thread safe; one per process."""

    def __init__(self, url: str, *, what: str, error: type[CrazylabError],
                 unavailable: Callable[[str], Exception], busy_timeout: float = 10.0,
                 create: bool = True) -> None:
        self.what = what
        self.error = error
        self.unavailable = unavailable
        self.busy_timeout = busy_timeout
        self.engine, parsed = make_engine(url, what=what, error=error,
                                          busy_timeout=busy_timeout, create=create)
        self.dialect = parsed.get_backend_name()
        self.url = parsed.render_as_string(hide_password=True)
        database = sqlite_file(parsed)
        self._turns_path = (database.with_name(database.name + "-writers")
                            if database is not None and fcntl is not None else None)
        self._turns_fd: tuple[int, int] | None = None  # (pid, fd): not one inherited by fork
        self._threads = threading.Lock()
        self._secret: bytes | None = None
        self._claims: dict[str, Any] = {}  # role -> the lock's file or connection
        try:
            with self.write() as conn:
                if self.dialect == "postgresql":  # one migrator at a time
                    conn.execute(sa.text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
                found = schema.current_version(conn)
                if 0 < found < schema.VERSION and database is not None:
                    self.backup(database.with_name(f"{database.name}.before-v{schema.VERSION}"))
                try:
                    schema.migrate(conn)
                except schema.SchemaTooNew as e:
                    raise error(str(e)) from e
        except BaseException:
            self.close()  # refused: no pooled connection or lock file left open
            raise

    @property
    def secret(self) -> bytes:
        """The server's secret (:func:`.keys.server_secret`): for a SQLite file, the key file
        beside it (``<db>.key``); else ``$CRAZYLAB_HOME/server.key``."""
        if self._secret is None:
            from .keys import server_secret

            database = sqlite_file(self.engine.url)
            if database is not None:
                key_file = database.with_name(database.name + ".key")
            else:
                home = os.environ.get("CRAZYLAB_HOME") or "~/.local/share/crazylab"
                key_file = Path(home).expanduser() / "server.key"
            self._secret = server_secret(key_file)
        return self._secret

    def claim(self, role: str) -> bool:
        """Hold ``role`` (``"tables-service"``) for this database while this object lives,
        if no other process holds it: an exclusive lock on a file beside a SQLite database, a
        session advisory lock on PostgreSQL (per schema). False when another holds it."""
        if role in self._claims:
            return True
        database = sqlite_file(self.engine.url)
        if database is not None and fcntl is not None:
            fd = os.open(database.with_name(f"{database.name}-{role}"),
                         os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            self._claims[role] = fd
        elif self.dialect == "postgresql":
            conn = self.engine.connect()
            got = conn.execute(sa.text("SELECT pg_try_advisory_lock(hashtext(:role), "
                                       "hashtext(current_schema()))"), {"role": role}).scalar()
            conn.commit()
            if not got:
                conn.close()
                return False
            self._claims[role] = conn
        return True

    def release(self, role: str) -> None:
        """Let another process hold ``role``."""
        held = self._claims.pop(role, None)
        if isinstance(held, int):
            os.close(held)
        elif held is not None:
            held.close()

    def backup(self, path: Path) -> Path:
        """A consistent copy of this SQLite database at ``path`` (its owner's alone), made with
        SQLite's backup API while writers may be waiting: what a migration keeps aside."""
        source = sqlite_file(self.engine.url)
        if source is None:
            raise self.error(f"only a SQLite {self.what} is copied aside, not {self.url}")
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600))
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(path)) as dst:
            src.backup(dst)
        return path

    def close(self) -> None:
        """Close every pooled connection, the writers' lock file and any role held."""
        for role in list(self._claims):
            self.release(role)
        self.engine.dispose()
        if self._turns_fd is not None and self._turns_fd[0] == os.getpid():
            os.close(self._turns_fd[1])
        self._turns_fd = None

    def __repr__(self) -> str:
        return f"Database({self.url!r})"

    @contextmanager
    def write(self) -> Iterator[sa.Connection]:
        """One write transaction (SQLite: the writers' turn, then BEGIN IMMEDIATE). A
        conflicting key raises SQLAlchemy's ``IntegrityError`` for the owner to name."""
        with self._errors(), self.engine.connect() as conn:
            conn.execution_options(crazylab_immediate=True)
            with self._writers_turn(), conn.begin():
                yield conn

    @contextmanager
    def read(self) -> Iterator[sa.Connection]:
        """One read transaction."""
        with self._errors(), self.engine.connect() as conn, conn.begin():
            yield conn

    def _busy(self) -> Exception:
        return self.unavailable(f"the {self.what} is busy; nothing was stored, try again")

    @contextmanager
    def _writers_turn(self) -> Iterator[None]:
        """SQLite file: writers (threads and processes) queue on a lock file beside the
        database, asleep in the kernel, instead of polling SQLite's lock. A writer whose busy
        timeout ran out while it queued gives up."""
        if self._turns_path is None or fcntl is None:
            yield
            return
        deadline = time.monotonic() + self.busy_timeout
        if not self._threads.acquire(timeout=max(self.busy_timeout, 0.001)):
            raise self._busy()
        try:
            pid, fd = self._turns_fd or (-1, -1)
            if pid != os.getpid():
                try:
                    fd = os.open(self._turns_path, os.O_RDWR | os.O_CREAT, 0o600)
                except OSError:  # a read-only folder: SQLite's own lock still holds
                    yield
                    return
                self._turns_fd = (os.getpid(), fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                if time.monotonic() > deadline:
                    raise self._busy()
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self._threads.release()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError) as e:
            raise self._unavailable(e) from None
        except sa_exc.DBAPIError as e:
            if e.connection_invalidated:
                raise self._unavailable(e) from None
            if _unreadable(e):  # not a database, or a damaged one: trying again won't help
                raise self.error(f"the {self.what} at {self.url} cannot be read "
                                 f"({_first_line(e)}); nothing was changed") from None
            raise

    def _unavailable(self, error: Exception) -> Exception:
        return self.unavailable(f"the {self.what} is unavailable ({_first_line(error)}); "
                                "nothing was stored, try again")


def _first_line(error: Exception) -> str:
    orig = getattr(error, "orig", None) or error
    return (str(orig).strip().splitlines() or [type(orig).__name__])[0][:120]


def _unreadable(error: sa_exc.DBAPIError) -> bool:
    text = str(error.orig).lower()
    return "not a database" in text or "malformed" in text

"""The one persistence layer (crazylab.store): the database opened and migrated once, its
writers taking turns, its errors in one line; secrets kept only as hashes and checked in
constant time; one rule for names. And nothing above it builds an engine, hashes a secret or
locks the database on its own."""

from __future__ import annotations

import ast
import os
import stat
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from crazylab.errors import CrazylabError
from crazylab.store import (
    NAME_MAX,
    Database,
    class_code,
    display_name,
    schema,
    secret_hash,
    secret_matches,
    sqlite_url,
)

ROOT = Path(__file__).resolve().parents[1]


class Refused(CrazylabError):
    pass


class Busy(CrazylabError):
    pass


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "deep" / "folder" / "crazylab.db")
    return request.getfixturevalue("pg_url")


def open_db(url: str) -> Database:
    return Database(url, what="test database", error=Refused, unavailable=Busy)


def test_a_database_is_made_at_the_current_schema_and_reopened_as_it_is(url):
    db = open_db(url)
    try:
        with db.read() as conn:
            assert schema.current_version(conn) == schema.VERSION
        with db.write() as conn:
            conn.execute(sa.insert(schema.classes).values(
                code="ABC", name="Year 8", key_hash=secret_hash("k"),
                created_at=sa.func.now()))
    finally:
        db.close()
    again = open_db(url)  # a second open migrates nothing and keeps the row
    try:
        with again.read() as conn:
            assert conn.execute(sa.select(schema.classes.c.name)).scalar_one() == "Year 8"
    finally:
        again.close()


def test_a_new_sqlite_database_and_its_journal_are_the_owners_alone(tmp_path):
    path = tmp_path / "private.db"
    db = open_db(sqlite_url(path))
    try:
        with db.write() as conn:
            conn.execute(sa.insert(schema.classes).values(
                code="P", name="x", key_hash="h", created_at=sa.func.now()))
        made = [p for p in tmp_path.iterdir() if p.name.startswith("private.db")]
        assert {p.name for p in made} >= {"private.db", "private.db-wal", "private.db-writers"}
        assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in made} == dict.fromkeys(
            (p.name for p in made), 0o600)
    finally:
        db.close()


def test_a_newer_schema_is_refused_with_the_owners_error(tmp_path):
    url = sqlite_url(tmp_path / "new.db")
    open_db(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.insert(schema.schema_version).values(version=schema.VERSION + 1))
    engine.dispose()
    with pytest.raises(Refused, match="newer"):
        open_db(url)


def test_a_file_that_is_no_database_is_refused_in_one_line(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(Refused) as e:  # not "busy, try again": trying again won't help
        open_db(sqlite_url(path))
    assert str(e.value).startswith(f"the test database at sqlite:///{path} cannot be read (")
    assert "\n" not in str(e.value)
    assert path.read_bytes() == b"this is not a database" * 100  # nothing changed


def test_a_bad_url_is_refused_before_anything_is_made(tmp_path):
    with pytest.raises(Refused, match="not a database URL"):
        open_db("::nonsense::")
    with pytest.raises(Refused, match="cannot use the database"):
        open_db("nosuchdriver://x/y")


def test_sqlite_writers_take_turns_on_a_private_lock_file(tmp_path):
    db = open_db(sqlite_url(tmp_path / "c.db"))
    try:
        lock = tmp_path / "c.db-writers"
        assert lock.is_file()
        assert stat.S_IMODE(os.stat(lock).st_mode) == 0o600
        done: list[int] = []

        def writer(i: int) -> None:
            for j in range(20):
                with db.write() as conn:
                    conn.execute(sa.insert(schema.classes).values(
                        code=f"C{i}-{j}", name="x", key_hash="h", created_at=sa.func.now()))
            done.append(i)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert sorted(done) == [0, 1, 2, 3]
        with db.read() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(schema.classes)
                                ).scalar_one() == 80
    finally:
        db.close()


def test_a_writer_that_waited_past_its_timeout_gives_up_and_stores_nothing(tmp_path):
    url = sqlite_url(tmp_path / "t.db")
    slow = Database(url, what="test database", error=Refused, unavailable=Busy,
                    busy_timeout=0.2)
    holder = open_db(url)
    try:
        held = threading.Event()
        release = threading.Event()

        def hold() -> None:
            with holder.write():
                held.set()
                release.wait(30)

        t = threading.Thread(target=hold)
        t.start()
        assert held.wait(30)
        # the queued writer wakes when the lock passes on (1 s later), past its 0.2 s
        threading.Timer(1.0, release.set).start()
        with pytest.raises(Busy, match="busy|unavailable"), slow.write() as conn:
            conn.execute(sa.insert(schema.classes).values(
                code="LATE", name="x", key_hash="h", created_at=sa.func.now()))
        release.set()
        t.join(30)
        with slow.read() as conn:
            assert conn.execute(sa.select(schema.classes.c.code)).all() == []
    finally:
        slow.close()
        holder.close()


def test_secrets_are_kept_as_hashes_and_checked_in_constant_time():
    stored = secret_hash("s3cret")
    assert len(stored) == 64 and "s3cret" not in stored
    assert secret_matches(stored, "s3cret")
    assert not secret_matches(stored, "s3cret ")
    assert not secret_matches(None, "s3cret")  # no such owner: wrong, the same way
    assert not secret_matches(stored, None)
    assert not secret_matches(stored, "x" * 201)
    assert secret_hash("\ud800") != secret_hash("?")  # a lone surrogate hashes, never raises


def test_one_rule_for_names():
    assert display_name("  Ana   Lopez ", "name", Refused) == "Ana Lopez"
    for bad in ("", "   ", "x" * (NAME_MAX + 1), "tab\x07", 7, None, "\ud800"):
        with pytest.raises(Refused):
            display_name(bad, "name", Refused)
    assert class_code(" abcd-efgh ") == "ABCDEFGH"


#: what only the store layer does, and how it is spelled in code
STORE_ONLY = {"create_engine": "builds a database engine", "compare_digest": "checks a secret",
              "pg_advisory_xact_lock": "locks the database", "flock": "locks the database"}


def store_only_uses(source: str) -> list[str]:
    """The names of :data:`STORE_ONLY` a module's code uses (attributes, names, strings)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = (node.attr if isinstance(node, ast.Attribute)
                else node.id if isinstance(node, ast.Name)
                else node.value if isinstance(node, ast.Constant) and isinstance(node.value, str)
                else None)
        if name is None:
            continue
        found += [k for k in STORE_ONLY if k == name or (len(name) > len(k) and k in name
                                                         and isinstance(node, ast.Constant))]
    return sorted(set(found))


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT))
                                        for p in (ROOT / "crazylab").rglob("*.py")
                                        if "store" not in p.relative_to(ROOT).parts))
def test_nothing_above_the_store_builds_an_engine_checks_a_secret_or_locks(path):
    assert store_only_uses((ROOT / path).read_text()) == []


def test_the_store_only_check_can_fail():
    source = ("import hmac, sqlalchemy as sa\ne = sa.create_engine('x')\n"
              "hmac.compare_digest(a, b)\n"
              "conn.execute(sa.text('SELECT pg_advisory_xact_lock(1)'))\n")
    assert store_only_uses(source) == ["compare_digest", "create_engine", "pg_advisory_xact_lock"]


def test_a_sqlite_migration_first_copies_the_database_aside(tmp_path):
    """Issue 30: before a migration changes a SQLite file, a consistent copy of the old one is
    kept beside it (its owner's alone); a database at the current schema is not copied."""
    path = tmp_path / "crazylab.db"
    engine = sa.create_engine(sqlite_url(path))
    with engine.begin() as conn:
        schema.migrate(conn, target=schema.VERSION - 1)
        conn.execute(sa.insert(schema.classes).values(
            code="OLD", name="Year 7", key_hash=secret_hash("k"), created_at=sa.func.now()))
    engine.dispose()
    db = open_db(sqlite_url(path))
    try:
        with db.read() as conn:
            assert schema.current_version(conn) == schema.VERSION
            synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar()
        assert synchronous == 2  # FULL: a commit survives a power cut
    finally:
        db.close()
    kept = tmp_path / f"crazylab.db.before-v{schema.VERSION}"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    old = sa.create_engine(sqlite_url(kept))
    with old.connect() as conn:
        assert schema.current_version(conn) == schema.VERSION - 1
        assert conn.execute(sa.select(schema.classes.c.name)).scalar_one() == "Year 7"
    old.dispose()
    kept.unlink()
    open_db(sqlite_url(path)).close()  # already current: nothing copied
    assert not kept.exists()


def test_a_missing_sqlite_file_is_not_made_unless_asked(tmp_path):
    path = tmp_path / "typo" / "crazylab.db"
    with pytest.raises(Refused, match="there is no test database at"):
        Database(sqlite_url(path), what="test database", error=Refused, unavailable=Busy,
                 create=False)
    assert not path.exists() and not path.parent.exists()

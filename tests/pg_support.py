"""A real PostgreSQL server for the class store's tests.

:func:`pg_server` finds one, in this order:

1. ``$CRAZYLAB_TEST_PG`` (a SQLAlchemy URL; ``.ci/run`` starts a throwaway cluster and sets it);
2. with Debian's ``initdb`` (``/usr/lib/postgresql/*/bin``) or one on ``PATH``: a throwaway
   cluster of its own in a temporary folder (its unix socket there, no TCP; as the
   ``postgres`` user when run as root), stopped at the end of the session (one per
   pytest-xdist worker);
3. else the PostgreSQL tests are skipped with the reason, except under ``CI=true``, where a
   missing server fails them (CI must test PostgreSQL).

Each test gets a fresh schema (:func:`fresh_schema_url`): the URL carries
``options=-csearch_path=<schema>``, so the store's tables land there; it is dropped after.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from browser_support import free_port

PG_ENV = "CRAZYLAB_TEST_PG"


@dataclass
class PgServer:
    """A reachable server (``url``) or why there is none (``reason``)."""

    url: str | None
    reason: str = ""
    stop: Callable[[], None] = field(default=lambda: None)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def reachable(url: str) -> str | None:
    """None if a connection to ``url`` works, else why not (one line)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, pool_pre_ping=False)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        return None
    except Exception as e:  # any failure is "not reachable"; the reason says which
        return (str(e).strip().splitlines() or [type(e).__name__])[0]
    finally:
        engine.dispose()


def _initdb() -> str | None:
    """Debian's newest server, else an ``initdb`` on PATH that has ``pg_ctl`` beside it."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parent.parent.name or 0))
    if candidates:
        return candidates[-1]
    found = shutil.which("initdb")
    found = str(Path(found).resolve()) if found else None
    if found and (Path(found).parent / "pg_ctl").exists() \
            and (Path(found).parent / "createdb").exists():
        return found
    return None


def start_cluster() -> PgServer:
    """initdb + pg_ctl start in a temporary folder; as root (which PostgreSQL refuses) as the
    ``postgres`` user that Debian's package makes, as ``.ci/run`` does."""
    initdb = _initdb()
    if initdb is None:
        return PgServer(None, "no PostgreSQL here (no initdb; apt-get install postgresql)")
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            owner = None
        if owner is None or shutil.which("runuser") is None:
            return PgServer(None, "running as root without a postgres user: set "
                                  "CRAZYLAB_TEST_PG (.ci/run starts a cluster)")
        as_user = ["runuser", "-u", "postgres", "--"]
    bindir = Path(initdb).parent
    folder = Path(tempfile.mkdtemp(prefix="crazylab-pg-"))
    if as_user:
        os.chown(folder, owner.pw_uid, owner.pw_gid)  # type: ignore[union-attr]
    port = free_port()
    data = folder / "data"

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    def stop() -> None:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

    try:
        run(str(bindir / "initdb"), "--no-sync", "-D", str(data), "-U", "postgres",
            "--auth=trust", "-E", "UTF8")
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-w",
            "-o", f"-p {port} -k {folder} -c listen_addresses='' -c fsync=off", "start")
        run(str(bindir / "createdb"), "-h", str(folder), "-p", str(port), "-U", "postgres",
            "crazylab_test")
    except (subprocess.SubprocessError, OSError) as e:
        stop()
        return PgServer(None, f"could not start a PostgreSQL cluster: {e}")
    return PgServer(f"postgresql+psycopg://postgres@/crazylab_test?host={folder}&port={port}",
                    stop=stop)


def pg_server() -> PgServer:
    """The server the tests use (see the module docstring)."""
    url = os.environ.get(PG_ENV, "").strip()
    if url:
        why = reachable(url)
        return PgServer(url) if why is None else PgServer(None, f"{PG_ENV} is set but not "
                                                                f"reachable: {why}")
    return start_cluster()


def fresh_schema_url(url: str) -> tuple[str, Callable[[], None]]:
    """A URL whose tables go into a new, empty schema, and a function that drops it."""
    import sqlalchemy as sa

    name = f"t_{secrets.token_hex(6)}"
    admin = sa.create_engine(url)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    scoped = sa.make_url(url).update_query_dict({"options": f"-csearch_path={name}"})

    def drop() -> None:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()

    return scoped.render_as_string(hide_password=False), drop

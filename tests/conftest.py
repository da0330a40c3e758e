"""Shared fixtures. Add new fixtures below; browser plumbing lives in browser_support.py.

Browser tests: mark them ``@pytest.mark.browser`` and use ``voila_server`` (serves
``notebooks/``) with pytest-playwright's ``page``::

    @pytest.mark.browser
    def test_lobby(voila_server, page, screenshot):
        page.goto(voila_server.render("index.ipynb"))
        ...
        screenshot(page)            # -> tests/screenshots/<test name>.png
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS_DIR,
    VIEWPORT,
    VoilaServer,
    save_screenshot,
    start_voila,
    stop_voila,
)

# Kernels started by tests (nbval, Voilà) pick this up as well.
os.environ.setdefault("PLOTLY_RENDERER", "plotly_mimetype")
# crazylab's own files (the default class database, a server key file for PostgreSQL) go to a
# folder of this run, never to the developer's home
if "CRAZYLAB_HOME" not in os.environ:
    import tempfile

    os.environ["CRAZYLAB_HOME"] = tempfile.mkdtemp(prefix="crazylab-test-home-")


@pytest.fixture(autouse=True)
def _fresh_kernel_records(monkeypatch) -> None:
    """Each test starts as a new kernel does (issue 22): no recorder yet and no lesson page,
    so a lesson run by an earlier test lends its lesson and answers to no later exercise."""
    import sys

    progress = sys.modules.get("crazylab.classroom.recorder")
    if progress is not None:
        monkeypatch.setattr(progress, "_RECORDER", None)
    exercise = sys.modules.get("crazylab.widgets.exercise")
    if exercise is not None:
        monkeypatch.setattr(exercise, "_PAGES", {})
        monkeypatch.setattr(exercise, "_HOOKED", [])


# --------------------------------------------------------------------------- Voilà


@pytest.fixture(scope="session")
def voila_factory(tmp_path_factory) -> Iterator[Callable[..., VoilaServer]]:
    """Start Voilà on any directory: ``voila_factory(path)`` -> ``VoilaServer``.

    One server per (directory, show_tracebacks) for the whole session; all are stopped
    (process group SIGTERM, then SIGKILL, then any surviving kernel) at the end.
    """
    servers: dict[tuple[Path, bool], VoilaServer] = {}
    log_dir = tmp_path_factory.mktemp("voila-logs")

    def start(root: Path | str = NOTEBOOKS_DIR, *, show_tracebacks: bool = True) -> VoilaServer:
        key = (Path(root).resolve(), show_tracebacks)
        if key not in servers:
            servers[key] = start_voila(key[0], show_tracebacks=show_tracebacks, log_dir=log_dir)
        return servers[key]

    yield start

    errors = []
    for server in servers.values():
        try:
            stop_voila(server)
        except Exception as exc:  # keep stopping the others
            errors.append(f"{server}: {exc}")
    if errors:
        raise RuntimeError("Voilà teardown problems:\n" + "\n".join(errors))


@pytest.fixture(scope="session")
def voila_server(voila_factory) -> VoilaServer:
    """Voilà serving the repository's ``notebooks/`` (tracebacks shown, for tests).

    A ``str`` holding the base URL, e.g. ``http://127.0.0.1:41234``;
    ``voila_server.render("index.ipynb")`` gives a notebook's URL."""
    if not NOTEBOOKS_DIR.is_dir():
        pytest.fail(f"{NOTEBOOKS_DIR} does not exist")
    return voila_factory(NOTEBOOKS_DIR)


# --------------------------------------------------------------------------- Chromium
# Overrides of pytest-playwright's fixtures: the Debian Chromium, never a downloaded one.


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": list(CHROMIUM_ARGS),
    }


@pytest.fixture(scope="session")
def base_url() -> None:
    """Servers here start on free ports, so no fixed base URL. (Also replaces
    pytest-playwright's fallback fixture, which pytest 9 warns about.)"""
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    return {**browser_context_args, "viewport": dict(VIEWPORT)}


@pytest.fixture
def screenshot(request) -> Callable[..., Path]:
    """``screenshot(page, name=None)`` saves ``tests/screenshots/<name or test name>.png``."""

    def take(page, name: str | None = None, *, full_page: bool = True) -> Path:
        return save_screenshot(page, name or request.node.name, full_page=full_page)

    return take


# --------------------------------------------------------------------------- compiled engine

def _engine_is_compiled() -> bool:
    import crazylab.engine.game as engine_game

    return not hasattr(engine_game.Game.push, "__code__")


def pytest_report_header(config) -> str:
    import crazylab.engine.game as engine_game

    kind = "compiled (mypyc)" if _engine_is_compiled() else "pure Python"
    return f"crazylab engine: {kind}, {engine_game.__file__}"


def pytest_sessionstart(session) -> None:
    """``CRAZYLAB_COMPILED=1`` (``make test-compiled``) must test the mypyc build, never the
    pure package by mistake."""
    if os.environ.get("CRAZYLAB_COMPILED") == "1" and not _engine_is_compiled():
        import crazylab.engine.game as engine_game

        raise pytest.UsageError(
            f"CRAZYLAB_COMPILED=1 but the engine is pure Python ({engine_game.__file__}): "
            "run `make test-compiled` (it builds build/compiled and puts it first on the path)")


# --------------------------------------------------------------------------- PostgreSQL

def pytest_terminal_summary(terminalreporter) -> None:
    """One line for the PostgreSQL tests skipped, and why (never a silent skip)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "pg" in getattr(r, "keywords", {})]
    if skipped:
        reason = str(skipped[0].longrepr[-1]) if isinstance(skipped[0].longrepr, tuple) else ""
        terminalreporter.write_line(f"crazylab: {len(skipped)} PostgreSQL tests skipped: "
                                    f"{reason.removeprefix('Skipped: ')}")


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config, items) -> None:
    """A test that needs PostgreSQL is marked ``pg`` by the fixture it asks for (or its
    ``postgresql`` parameter); a lesson notebook's cell (nbval) is marked ``lesson``."""
    for item in items:
        if item.path.suffix == ".ipynb":  # a lesson notebook's cell, checked by nbval
            item.add_marker(pytest.mark.lesson)
        params = getattr(getattr(item, "callspec", None), "params", {})
        if {"pg_url", "pg_server"} & set(getattr(item, "fixturenames", ())) \
                or "postgresql" in params.values():  # a store fixture's PostgreSQL case
            item.add_marker(pytest.mark.pg)


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server (``pg_support.pg_server``): skipped with the reason when there
    is none, failed when there is none under ``CI=true``."""
    import pg_support

    server = pg_support.pg_server()
    if server.url is None:
        if pg_support.in_ci():
            pytest.fail(f"CI=true but no PostgreSQL for the tests: {server.reason}")
        pytest.skip(server.reason)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> Iterator[str]:
    """A URL on ``pg_server`` whose tables go into a fresh schema (dropped after the test)."""
    import pg_support

    url, drop = pg_support.fresh_schema_url(pg_server.url)
    yield url
    drop()

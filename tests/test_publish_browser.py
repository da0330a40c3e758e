"""Publishing from a wheel (issue 24), as a teacher outside the repository would: crazylab's
wheel installed with ``--no-deps`` into a fresh venv, a teacher's folder of two notebooks (a
game table; a markdown page), and in Chromium:

* plain ``voila FOLDER`` renders with the crazylab template (no JUPYTER_PATH, no voila.json
  around) and a card is played; its 404 page loads nothing from another host;
* ``jupyter server`` with Voilà as its extension renders ``/voila/render/table.ipynb`` with the
  crazylab template and draws the table;
* ``crazylab serve FOLDER`` renders and a card is played;
* ``crazylab site FOLDER -o DIR`` builds a site that a static server serves, a card is played.

The fresh venv sees the repository's .venv's packages through a ``.pth`` (no download), not its
editable crazylab: every server runs from a temporary folder and the test checks that
``crazylab`` comes from the wheel. Jupyter's data folders of .venv (Voilà's own templates, the
widgets' front ends) are linked into the venv's ``share/jupyter``, as if installed there.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    REPO_ROOT,
    YOUR_TURN,
    VoilaServer,
    free_port,
    human_step,
    save_screenshot,
    stop_voila,
    write_notebook,
)
from test_publish import build_wheel

sys.path.insert(0, str(REPO_ROOT / "tools"))
from build_backend import can_build  # noqa: E402

pytestmark = pytest.mark.browser

VENV = Path(sys.prefix)
TABLE = ('from crazylab.widgets import GameTable\n\n'
         'GameTable.from_query(rules="crazy-eights-classic", opponents=1)')
MARKER = 'id="crazylab-main"'  # the crazylab template's page


class Fresh:
    """The fresh venv: its python, a folder outside the repository, the teacher's folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "venv" / "bin" / "python"
        self.work = root / "work"
        self.folder = root / "work" / "class"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("JUPYTER_PATH", "PYTHONPATH", "JUPYTER_CONFIG_DIR", "VIRTUAL_ENV")}
        env.update(PYTHONUNBUFFERED="1", JUPYTER_PLATFORM_DIRS="1",
                   CRAZYLAB_SECRET="crazylab-tests", PLOTLY_RENDERER="plotly_mimetype",
                   PATH=f"{self.python.parent}{os.pathsep}{env.get('PATH', '')}")
        return env

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.python), *args], cwd=self.work, env=self.env(),
                              capture_output=True, text=True, timeout=timeout)

    def start(self, *args: str, ready: str = "/voila/static/voila.js",
              timeout: float = 120) -> VoilaServer:
        """A server (``python ARGS``, its port after ``--port``) once it answers ``ready``."""
        port = free_port()
        args = tuple(a.replace("{port}", str(port)) for a in args)
        log_path = self.root / f"server-{port}.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen([str(self.python), *args], cwd=self.work, env=self.env(),
                                    stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        server = VoilaServer(f"http://127.0.0.1:{port}")
        server.root, server.port, server.proc, server.log_path = self.folder, port, proc, log_path
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{args[:2]} exited {proc.returncode}:\n{server.log()}")
            with contextlib.suppress(OSError), urllib.request.urlopen(server + ready,
                                                                     timeout=2) as resp:
                if resp.status == 200:
                    return server
            if time.monotonic() > deadline:
                stop_voila(server)
                raise RuntimeError(f"{args[:2]} did not start:\n{server.log()}")
            time.sleep(0.5)


def make_fresh_venv(root: Path, wheel: Path) -> Fresh:
    """A venv made by .venv's python, .venv's packages visible through a ``.pth`` (after the
    venv's own), .venv's Jupyter data and config folders linked in, and the wheel installed."""
    fresh = Fresh(root)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")],
                   check=True)
    purelib = subprocess.run(
        [str(fresh.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    [venv_site] = (VENV / "lib").glob("python3*/site-packages")
    (Path(purelib) / "_dot_venv.pth").write_text(f"{venv_site}\n")
    share, etc = VENV / "share" / "jupyter", VENV / "etc" / "jupyter"
    (root / "venv" / "share" / "jupyter" / "voila" / "templates").mkdir(parents=True)
    (root / "venv" / "etc" / "jupyter").mkdir(parents=True)
    for entry in share.iterdir():
        if entry.name not in ("voila", "kernels"):  # kernels: the venv's own python
            (root / "venv" / "share" / "jupyter" / entry.name).symlink_to(entry)
    for entry in (share / "voila").iterdir():  # Voilà's own front end, its themes
        if entry.name != "templates":
            (root / "venv" / "share" / "jupyter" / "voila" / entry.name).symlink_to(entry)
    for entry in (share / "voila" / "templates").iterdir():
        if entry.name != "crazylab":
            (root / "venv" / "share" / "jupyter" / "voila" / "templates" / entry.name
             ).symlink_to(entry)
    for entry in etc.iterdir():
        if entry.name != "voila.json":
            (root / "venv" / "etc" / "jupyter" / entry.name).symlink_to(entry)
    fresh.folder.mkdir(parents=True)
    out = fresh.run("-m", "pip", "install", "--quiet", "--no-deps", str(wheel))
    assert out.returncode == 0, out.stderr
    write_notebook(fresh.folder, "table.ipynb", "# Our card table", TABLE)
    write_notebook(fresh.folder, "notes.ipynb",
                   "# Notes\n\nAn eight is wild. Back to the [table](table.ipynb).")
    return fresh


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Fresh:
    root = tmp_path_factory.mktemp("publish")
    fresh = make_fresh_venv(root, build_wheel())
    where = fresh.run("-c", "import crazylab; print(crazylab.__file__)")
    assert where.stdout.strip() == str(
        root / "venv" / "lib" / f"python3.{sys.version_info[1]}" / "site-packages" / "crazylab"
        / "__init__.py"), where
    assert not (fresh.work / "voila.json").exists()
    # the teacher's pages play with the wheel's compiled engine where a compiler built it
    build = fresh.run("-c", "import crazylab; print(crazylab.engine_build())").stdout.strip()
    assert build == ("compiled" if can_build() else "pure Python"), build
    return fresh


@pytest.fixture
def started(fresh) -> Iterator[list[VoilaServer]]:
    servers: list[VoilaServer] = []
    yield servers
    for server in servers:
        stop_voila(server)


def _fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def play_a_card(page, url: str, name: str, timeout: float = 120_000) -> None:
    """Open ``url`` and play until the human has played a card (drawing first if no card
    fits); the table redraws after each move."""
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector(".cl-table .cl-card", timeout=timeout)
    played = None
    for _ in range(12):
        page.wait_for_function(YOUR_TURN, timeout=30_000)
        hand = page.locator(".cl-table").get_attribute("data-seq")
        played = human_step(page)
        page.wait_for_function(  # a card led to a suit chooser: the next step picks a suit
            f"() => document.querySelector('.cl-table').dataset.seq !== '{hand}'"
            " || document.querySelector('.cl-opt') !== null", timeout=30_000)
        if played is not None:
            break
    assert played is not None, "no card could be played in 12 moves"
    if page.locator(".cl-opt").count():  # an eight: call a suit
        page.locator(".cl-opt").first.click()
    assert re.search("[♠♥♦♣]", page.inner_text(".cl-table"))
    save_screenshot(page, f"publish_{name}")


def test_plain_voila_and_the_server_extension_use_the_crazylab_template(fresh, started, page):
    started.append(fresh.start("-m", "voila", str(fresh.folder), "--no-browser",
                               "--port={port}", "--Voila.ip=127.0.0.1",
                               "--Voila.port_retries=0"))
    started.append(fresh.start("-m", "jupyter_server", "--no-browser", "--allow-root",
                               "--port={port}", "--ServerApp.ip=127.0.0.1",
                               "--IdentityProvider.token=",
                               f"--ServerApp.root_dir={fresh.folder}"))
    voila, server = started
    status, html = _fetch(voila.render("nope.ipynb"))
    assert status == 404
    assert not re.search(r"(?:src|href)=[\"'](?:https?:)?//", html), "404 page: another host"
    play_a_card(page, voila.render("table.ipynb"), "voila")
    assert MARKER in page.content()
    # Voilà as a Jupyter server extension (JupyterHub, Binder, JupyterLab's preview)
    status, html = _fetch(server.render("notes.ipynb"))
    assert status == 200 and MARKER in html and "An eight is wild" in html
    page.goto(server.render("table.ipynb"), wait_until="domcontentloaded")
    assert MARKER in page.content()
    page.wait_for_selector(".cl-table .cl-card", timeout=120_000)


def test_crazylab_serve_a_teachers_folder(fresh, started, page):
    started.append(fresh.start("-m", "crazylab.cli", "serve", str(fresh.folder),
                               "--port", "{port}"))
    [serve] = started
    assert "crazylab-voila" in serve.log() or "Voila" in serve.log()
    play_a_card(page, serve.render("table.ipynb"), "serve")
    assert MARKER in page.content()
    status, listing = _fetch(f"{serve}/")  # the crazylab folder listing links both pages
    assert status == 200 and "table.ipynb" in listing and "notes.ipynb" in listing


def _site_server():
    from crazylab.site.static_server import SiteServer

    return SiteServer


def test_crazylab_site_of_a_teachers_folder(fresh, page, context):
    from crazylab.site.build import SiteError, find_node_modules

    try:
        node_modules = find_node_modules(fetch=False)
    except SiteError as e:
        pytest.fail(f"{e}: run `make site-deps`")
    out = fresh.run("-m", "crazylab.cli", "site", str(fresh.folder), "-o", "site",
                    "--node-modules", str(node_modules), timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    site = fresh.work / "site"
    assert {p.name for p in (site / "voici" / "render").glob("*.html")} == {
        "table.html", "notes.html"}
    # the browser's crazylab is the installed package's (no checkout to build it from)
    [whl] = (site / "static" / "pyodide").glob("crazylab-*.whl")
    with zipfile.ZipFile(whl) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith("dist-info/METADATA")))
    assert b"made from the installed package" in meta
    with _site_server()(site) as server:
        outside: list[str] = []
        context.route(re.compile(r"^https?://(?!127\.0\.0\.1)"),
                      lambda r: (outside.append(r.request.url), r.abort()))
        page.goto(f"{server.url}/", wait_until="domcontentloaded")
        page.get_by_role("link", name="notes").click()  # no index.ipynb: a list of pages
        page.wait_for_url("**/voici/render/notes.html", timeout=30_000)
        play_a_card(page, f"{server.url}/voici/render/table.html", "site", timeout=240_000)
        assert not outside, outside

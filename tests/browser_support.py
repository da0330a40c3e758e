"""Helpers for tests that drive Voilà in headless Chromium.

Nothing here is a pytest fixture: ``tests/conftest.py`` wraps these helpers in fixtures so
that other test modules (and other conftest files) can reuse them or build their own.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
SCREENSHOT_DIR = REPO_ROOT / "tests" / "screenshots"  # gitignored

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking switches Chromium keeps trying to reach the internet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 800}

READY_PATH = "/voila/static/voila.js"  # a static file: polling it starts no kernel
STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children_map() -> dict[int, list[int]]:
    """ppid -> [pid] for every process visible in /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        # The command name (field 2) is in parentheses and may contain spaces.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    return children


def descendants(pid: int) -> set[int]:
    """All live descendants of ``pid`` (kernels run in their own sessions, so a
    process-group kill alone does not reach them)."""
    children = _children_map()
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().decode(errors="replace").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _kill(pids: set[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


class VoilaServer(str):
    """The base URL of a running Voilà (``http://127.0.0.1:PORT``), a plain ``str``,
    with a few extras: ``.render(name)``, ``.root``, ``.port``, ``.proc``, ``.log_path``."""

    root: Path
    port: int
    proc: subprocess.Popen
    log_path: Path

    def render(self, notebook: str) -> str:
        """URL that renders ``notebook`` (path relative to the served directory)."""
        return f"{self}/voila/render/{notebook.lstrip('/')}"

    def log(self, last: int = 4000) -> str:
        """The tail of Voilà's own log (stdout + stderr)."""
        try:
            return self.log_path.read_text(errors="replace")[-last:]
        except OSError:
            return ""

    def kernel_pids(self) -> set[int]:
        """Live descendant processes of the Voilà process (its kernels)."""
        return {p for p in descendants(self.proc.pid) if _alive(p)}


def voila_command(root: Path, port: int, *, show_tracebacks: bool = True,
                  extra_args: tuple[str, ...] = ()) -> list[str]:
    """The command line of ``make app`` (crazylab's Voilà launcher, settings from voila.json)
    on ``root`` and ``port``."""
    return [
        sys.executable, "-m", "crazylab.web.serve", str(root),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        f"--show_tracebacks={show_tracebacks}",
        *extra_args,
    ]


def start_voila(root: Path | str, *, show_tracebacks: bool = True,
                extra_args: tuple[str, ...] = (), timeout: float = STARTUP_TIMEOUT,
                log_dir: Path | str | None = None, port: int | None = None) -> VoilaServer:
    """Start Voilà in tree mode on ``root`` in its own process group and wait until it
    serves a static file. Raises ``RuntimeError`` (with Voilà's log) if it does not.
    ``port``: a given port (a restarted server keeps its address, so the browser's storage
    for that origin stays); a free one by default."""
    root = Path(root).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"Voilà root {root} is not a directory")
    port = port or free_port()
    log_dir = Path(log_dir) if log_dir else Path(tempfile.mkdtemp(prefix="crazylab-voila-"))
    log_path = log_dir / f"voila-{port}.log"
    env = dict(os.environ)
    env["PLOTLY_RENDERER"] = "plotly_mimetype"
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    env["PYTHONUNBUFFERED"] = "1"
    # a fixed secret: a seeded link deals the same cards on every run, so a failure replays
    # (CRAZYLAB_SECRET=... in the environment tries other deals)
    env.setdefault("CRAZYLAB_SECRET", "crazylab-tests")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            voila_command(root, port, show_tracebacks=show_tracebacks, extra_args=extra_args),
            cwd=REPO_ROOT,  # Voilà reads voila.json from here; the command line overrides it
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = VoilaServer(f"http://127.0.0.1:{port}")
    server.root, server.port, server.proc, server.log_path = root, port, proc, log_path

    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(
                f"Voilà exited with code {proc.returncode} before it was ready:\n{server.log()}"
            )
        try:
            with urllib.request.urlopen(server + READY_PATH, timeout=2) as resp:
                if resp.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        if time.monotonic() > deadline:
            stop_voila(server)
            raise RuntimeError(
                f"Voilà did not answer {READY_PATH} within {timeout:.0f} s:\n{server.log()}"
            )
        time.sleep(0.25)


def stop_voila(server: VoilaServer, timeout: float = STOP_TIMEOUT) -> set[int]:
    """SIGTERM Voilà's process group, wait, SIGKILL what is left, then kill any kernel
    that outlived it. Returns the pids that had to be killed after the graceful stop."""
    proc = server.proc
    kernels = server.kernel_pids()  # collect before Voilà dies and they are re-parented
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=timeout)
    # Voilà shuts its kernels down on SIGTERM; give them a moment, then force it.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_alive(p) for p in kernels):
        time.sleep(0.1)
    leftovers = {p for p in kernels if _alive(p)}
    if leftovers:
        _kill(leftovers, signal.SIGKILL)
        time.sleep(0.2)
    still = {p for p in leftovers if _alive(p)}
    if still:
        raise RuntimeError(f"kernel processes outlived Voilà: {sorted(still)}")
    return leftovers


_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def screenshot_path(name: str) -> Path:
    """``tests/screenshots/<name>.png`` with a file-system-safe name."""
    stem = _SAFE.sub("_", name).strip("_") or "screenshot"
    if stem.endswith(".png"):
        stem = stem[:-4]
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR / f"{stem}.png"


def page_errors(page) -> list[str]:
    """A list that collects every uncaught JavaScript error of ``page`` from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def save_screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Save a PNG of a Playwright ``page`` into ``tests/screenshots/`` and return its path."""
    path = screenshot_path(name)
    page.screenshot(path=str(path), full_page=full_page)
    return path


# In-page timing of one action: from the click to the table's next redraw (data-seq changes:
# the kernel answered), or to the chooser the browser opens itself (data-chooser changes).
TIMED_CLICK = """
async (selector) => {
  const root = document.querySelector('.cl-table');
  const before = root.dataset.seq, chooser = root.dataset.chooser;
  const t0 = performance.now();
  return await new Promise((resolve, reject) => {
    const obs = new MutationObserver(() => {
      if (root.dataset.seq !== before || root.dataset.chooser !== chooser) {
        obs.disconnect(); resolve(performance.now() - t0);
      }
    });
    obs.observe(root, {attributes: true, attributeFilter: ['data-seq', 'data-chooser']});
    setTimeout(() => { obs.disconnect(); reject(new Error('no redraw within 15 s')); }, 15000);
    document.querySelector(selector).click();
  });
}
"""

# The human may act: it is their turn, or the hand is over.
YOUR_TURN = ("() => { const r = document.querySelector('.cl-table');"
             " return r.dataset.yourTurn === 'true' || r.dataset.over === 'true'; }")


def human_step(page) -> float | None:
    """Make the human seat's next move on the game table, as a player would: the chooser's
    first option, else a legal card, else the offered button (draw, pass, end). Returns the
    click → redraw time of a card click, else ``None``."""
    if page.locator(".cl-opt").count():
        page.evaluate(TIMED_CLICK, ".cl-opt")
    elif page.locator(".cl-card.cl-legal").count():
        return page.evaluate(TIMED_CLICK, ".cl-card.cl-legal")
    else:
        page.evaluate(TIMED_CLICK, ".cl-actions .cl-primary")
    return None


def open_hand_review(page, timeout: float = 120_000) -> None:
    """Press "Review this hand" under a finished hand and wait for its summary; when it
    rated a choice, for its win-chance graph and the first choice's position too."""
    page.get_by_role("button", name="Review this hand").click()
    page.wait_for_selector(".cl-rv-sum", timeout=timeout)
    assert "with a choice" in page.locator(".cl-rv-sum").inner_text()
    if page.locator(".cl-rv-list li").count():  # choices rated: the graph and a position
        page.locator(".crazylab-hand-review .cl-rv-chart svg").wait_for(timeout=60_000)
        page.locator(".cl-rv-position svg").first.wait_for(timeout=30_000)
    page.locator(".crazylab-hand-review").scroll_into_view_if_needed()


def write_notebook(root: Path, name: str, *sources: str) -> Path:
    """A throwaway notebook of code cells (markdown when a source starts with ``#``)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(s) if s.startswith("# ")
                else nbformat.v4.new_code_cell(s) for s in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = Path(root) / name
    nbformat.write(nb, path)
    return path


#: a one-cell notebook whose page shows a Deal button (the room tests' page)
DEAL = "import ipywidgets as w\nw.Button(description='Deal')"


@contextlib.contextmanager
def deal_server(root: Path, *args: str) -> Iterator[VoilaServer]:
    """``make app``'s server, no preheated pool, on ``root/one.ipynb`` (a Deal button);
    ``args``: its bounds and clocks (``--CrazylabVoila.claim_grace=2``...)."""
    write_notebook(root, "one.ipynb", DEAL)
    server = start_voila(root, extra_args=("--preheat_kernel=False", *args))
    try:
        yield server
    finally:
        stop_voila(server)


def plain_get(url: str, timeout: float = 120) -> int:
    """What a link checker or a link preview does: GET the page, read it, never run it."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code

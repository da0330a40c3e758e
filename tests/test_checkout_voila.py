"""Plain ``voila`` in a checkout serves what a wheel install serves (issue 33, item 7).

The repository's ``voila.json`` selects the ``crazylab`` template, which a wheel installs as
Jupyter data; an editable install (``make venv``) had none, so ``voila notebooks`` from the
repository root answered every page with 500 ``TemplateNotFound``. ``make venv`` now links the
wheel's data files into the venv (``tools/link_jupyter_data.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_support import free_port

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import link_jupyter_data  # noqa: E402


def test_every_data_file_of_the_wheel_is_linked_from_the_checkout(tmp_path):
    wanted = link_jupyter_data.data_files()
    assert any(f.name == "index.html.j2" for files in wanted.values() for f in files)
    made = link_jupyter_data.link(prefix=tmp_path)
    for dest, files in wanted.items():
        for f in files:
            assert (tmp_path / dest / f.name).resolve() == f.resolve()
    assert len(made) == sum(len(f) for f in wanted.values())
    assert link_jupyter_data.link(prefix=tmp_path) == []  # run twice: nothing to do
    stale = tmp_path / "share/jupyter/voila/templates/crazylab/index.html.j2"
    stale.unlink()
    stale.write_text("an old copy")
    assert link_jupyter_data.link(prefix=tmp_path) == [stale]  # an old copy is replaced
    assert stale.resolve() == (REPO / "crazylab/web/jupyter/voila/templates/crazylab/"
                               "index.html.j2").resolve()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=180) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def test_plain_voila_from_the_repository_root_serves_the_pages():
    """``voila notebooks`` as a developer types it (no crazylab launcher, no JUPYTER_PATH)."""
    template = Path(sys.prefix) / "share/jupyter/voila/templates/crazylab/index.html.j2"
    if not template.exists():
        pytest.fail(f"{template} is missing: make venv links the wheel's Jupyter data "
                    "(tools/link_jupyter_data.py)")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_PATH"}
    env.update(PLOTLY_RENDERER="plotly_mimetype", CRAZYLAB_SECRET="crazylab-tests")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", "notebooks", "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--preheat_kernel=False"],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/voila/static/voila.js", timeout=5)
                break
            except (OSError, urllib.error.URLError):
                assert time.monotonic() < deadline, "voila did not start"
                assert proc.poll() is None, "voila exited"
                time.sleep(0.5)
        for page in ("index.ipynb", "01_crazy_eights_basics.ipynb"):
            status, body = _get(f"{base}/voila/render/{page}")
            assert status == 200, (page, status, body[:500])
            assert 'id="crazylab-main"' in body and "TemplateNotFound" not in body, page
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=60)

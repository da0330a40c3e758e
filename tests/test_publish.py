"""Publishing (issue 24): the wheel a teacher installs holds the crazylab Voilà template as
Jupyter data and the config that selects it, `crazylab --version`, `serve` and `site` work from
the command line, and `python -m build` builds without a warning.

The sdist and the wheel are built once per test run (``python -m build``; the engine compiled
by mypyc where this machine can, ~1 min) from a copy of the checkout's tracked files in a
temporary folder, never in the work tree (whose ``build/lib`` may hold stale files).
tests/test_publish_browser.py installs it into a fresh venv and drives it in Chromium.
"""

from __future__ import annotations

import atexit
import email
import functools
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest
from browser_support import REPO_ROOT

import crazylab
from crazylab.site import build as site_build
from crazylab.web import serve

pytestmark = pytest.mark.oldest

TEMPLATE = REPO_ROOT / "crazylab" / "web" / "jupyter" / "voila" / "templates" / "crazylab"
#: what the wheel is built from
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "tools/build_backend.py", "README.md",
           "LICENSE", "crazylab")


def copy_checkout(dest: Path) -> Path:
    """The files git knows (tracked or new, not ignored) that make the package, in ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z", *SOURCES],
                            cwd=REPO_ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


class Dist(NamedTuple):
    """What one build of the checkout gave: the wheel, the sdist (``None`` without the
    ``build`` package) and the build's log."""

    wheel: Path
    sdist: Path | None
    log: str


def build_dist(tree: Path, out: Path, env: dict[str, str] | None = None) -> Dist:
    """``python -m build`` (the sdist, then the wheel from the sdist, as a user's ``pip install
    crazylab`` builds it) of ``tree`` into ``out``, or ``pip wheel`` without ``build``."""
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:  # installed: not a folder named build/ where the tests run
        has_build = bool(importlib.metadata.version("build"))
    except importlib.metadata.PackageNotFoundError:
        has_build = False
    cmd = ([sys.executable, "-m", "build", "--outdir", str(out), str(tree)] if has_build else
           [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--wheel-dir", str(out),
            str(tree)])
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=out.parent,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [wheel] = out.glob("crazylab-*.whl")
    return Dist(wheel, next(out.glob("crazylab-*.tar.gz"), None), done.stdout + done.stderr)


@functools.cache
def built() -> Dist:
    """crazylab's sdist and wheel, built once per test run from a copy of the checkout
    (compiled where this machine can: tools/build_backend.py); removed at exit."""
    tmp = Path(tempfile.mkdtemp(prefix="crazylab-dist-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    return build_dist(copy_checkout(tmp / "src"), tmp / "dist")


def build_wheel() -> Path:
    """crazylab's wheel (:func:`built`)."""
    return built().wheel


@pytest.fixture(scope="module")
def wheel() -> Path:
    return build_wheel()


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crazylab.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


@pytest.mark.build
def test_wheel_holds_the_template_as_jupyter_data_and_the_config_that_selects_it(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        data = f"crazylab-{crazylab.__version__}.data/data/"
        shipped = {n.rsplit("/", 1)[1] for n in names
                   if n.startswith(data + "share/jupyter/voila/templates/crazylab/")}
        assert shipped == {p.name for p in TEMPLATE.iterdir()}
        assert {"index.html.j2", "conf.json", "page.html"} <= shipped
        config = json.loads(z.read(data + "etc/jupyter/voila.json"))
        assert config["VoilaConfiguration"]["template"] == "crazylab"
        # the labextensions that break Voilà's page, as in the repository's voila.json
        assert config["VoilaConfiguration"]["extension_denylist"] == json.loads(
            (REPO_ROOT / "voila.json").read_text())["VoilaConfiguration"]["extension_denylist"]
        # the template is Jupyter data only, not package data as well
        assert not [n for n in names if n.startswith("crazylab/web/jupyter/")]
        # the class settings of `crazylab serve` are the repository's voila.json
        settings = json.loads(z.read("crazylab/web/serve_config.json"))
        assert settings == json.loads((REPO_ROOT / "voila.json").read_text())
        for name in ("boot.js", "snapshot.mjs", "precompile.mjs", "browser-wheels.txt",
                     "pandas_lite.py", "package-lock.json", "placeholders/sqlite3/__init__.py"):
            assert f"crazylab/site/files/{name}" in names, name
        meta = email.message_from_bytes(z.read(f"crazylab-{crazylab.__version__}.dist-info/"
                                               "METADATA"))
        assert f"crazylab-{crazylab.__version__}.dist-info/licenses/LICENSE" in names
    assert meta["Version"] == crazylab.__version__
    assert meta["License-Expression"] == "MIT"
    assert "Framework :: Jupyter" in meta.get_all("Classifier")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues", "Changelog"} <= set(urls)
    # the base template the crazylab template extends is Voilà's lab
    assert json.loads((TEMPLATE / "conf.json").read_text())["base_template"] == "lab"


def test_the_error_page_frame_loads_nothing_from_another_host():
    """Voilà's error and 404 pages extend ``page.html``; the crazylab template's has no CDN
    link (Voilà's own loads Font Awesome from jsdelivr)."""
    page = (TEMPLATE / "page.html").read_text()
    assert "http://" not in page and "https://" not in page
    assert "{% block body %}" in page and "{% block stylesheets %}" in page


def test_one_npm_lock_and_the_served_settings_are_the_repositorys():
    """The builder's npm lock is the only one (`make site-deps` fetches with it too)."""
    locks = [p.relative_to(REPO_ROOT).as_posix() for p in REPO_ROOT.rglob("package-lock.json")
             if not {"node_modules", ".venv", "build", "_site_build"} & set(p.parts)]
    assert locks == ["crazylab/site/files/package-lock.json"]
    assert (site_build.HERE / "package-lock.json").is_file()
    assert json.loads(serve.SETTINGS.read_text()) == json.loads(
        (REPO_ROOT / "voila.json").read_text())
    assert serve.class_settings().VoilaConfiguration.preheat_kernel is True


def test_installed_config_selects_crazylab_and_the_command_line_still_wins(tmp_path,
                                                                          monkeypatch):
    """Voilà reads ``voila.json`` from every Jupyter config folder (the package installs one
    in ``etc/jupyter``); a teacher's ``--template=lab`` overrides it."""
    from voila.app import Voila

    monkeypatch.setenv("JUPYTER_PATH", str(serve.TEMPLATES))  # the checkout's template
    etc = tmp_path / "etc"
    etc.mkdir()
    shutil.copy2(serve.TEMPLATES / "etc" / "voila.json", etc / "voila.json")
    folder = tmp_path / "nb"
    folder.mkdir()
    chosen = {}
    for argv in ([str(folder)], [str(folder), "--template=lab"]):
        app = Voila()
        app.config_file_paths = [str(etc)]
        app.initialize(argv)
        chosen[len(argv)] = app.voila_configuration.template
        assert any(p.endswith(f"templates/{chosen[len(argv)]}") for p in app.template_paths)
        Voila.clear_instance()
    assert chosen == {1: "crazylab", 2: "lab"}


def test_version():
    out = _cli("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"crazylab {crazylab.__version__} (pure Python engine)"
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text()
    assert f"## [{crazylab.__version__}]" in changelog
    assert "MIT License" in (REPO_ROOT / "LICENSE").read_text()


def test_serve_and_site_help():
    serve_help = _cli("serve", "--help")
    assert serve_help.returncode == 0
    assert all(w in serve_help.stdout for w in ("folder", "--port", "--ip", "busy"))
    site_help = _cli("site", "--help")
    assert site_help.returncode == 0
    assert all(w in site_help.stdout for w in ("folder", "--output", "--node-modules"))


def test_bad_folders_are_one_line_and_change_nothing(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    out_dir = tmp_path / "out"
    cases = [("serve", str(tmp_path / "missing")),
             ("site", str(tmp_path / "missing"), "-o", str(out_dir)),
             ("site", str(empty), "-o", str(out_dir)),
             ("serve", str(empty), "--port", "70000")]
    for args in cases:
        out = _cli(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert out.stderr.startswith(f"crazylab {args[0]}: "), out.stderr
        assert "Traceback" not in out.stderr
    assert not out_dir.exists()


def test_site_without_node_modules_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with pytest.raises(site_build.SiteError, match="npm"):
        site_build.find_node_modules(fetch=False)
    with pytest.raises(site_build.SiteError, match="holds no pyodide"):
        site_build.find_node_modules(tmp_path)


def _warnings(log: str) -> list[str]:
    """The build log's warnings; a compiler's command line is not one (its flags name
    warnings: ``-Wno-unknown-warning-option``)."""
    return [ln for ln in log.splitlines() if re.search(r"\bwarn(ing)?s?\b", ln, re.I)
            and "pypi-more" not in ln  # pip's note on this machine's extra index
            and not re.match(r"\s*(gcc|cc|clang|x86_64-linux-gnu-gcc)\s", ln)]


@pytest.mark.build
def test_build_has_no_warning():
    """`python -m build` (sdist, then the wheel from it, its engine compiled where it can be)
    prints no warning (when `build` is installed; else `pip wheel -v`)."""
    dist = built()
    assert not _warnings(dist.log), "\n".join(_warnings(dist.log)[:10])
    assert dist.wheel.is_file()
    assert "bdist_wheel" in dist.log or "Building wheel" in dist.log
    assert _warnings("warning: something\ngcc -Wno-unknown-warning-option -c x.c") == [
        "warning: something"]


def test_a_server_other_machines_reach_over_plain_http_says_so(tmp_path, monkeypatch, capsys):
    """``--ip 0.0.0.0`` sends the teacher key and every token over the class network in
    clear: the command says so before it starts; on 127.0.0.1 it says nothing."""
    import argparse

    from crazylab import publish

    assert publish.plain_http_warning("serve", "127.0.0.1") is None
    assert publish.plain_http_warning("serve", "::1") is None
    started: list[list[str]] = []
    monkeypatch.setattr(serve, "main", started.append)
    for ip, warned in (("0.0.0.0", True), ("192.168.1.20", True), ("127.0.0.1", False)):
        args = argparse.Namespace(folder=str(tmp_path), port=8899, ip=ip)
        assert publish.cmd_serve(args) == 0
        err = capsys.readouterr().err
        assert ("over plain HTTP" in err and ip in err and "HTTPS" in err) is warned, err
    assert [a[2] for a in started] == ["--Voila.ip=0.0.0.0", "--Voila.ip=192.168.1.20",
                                       "--Voila.ip=127.0.0.1"]


def test_the_tables_server_says_so_too_unless_a_proxy_listens(monkeypatch, capsys):
    import argparse

    from crazylab import publish
    from crazylab.web import tables_api

    started: list[str] = []
    monkeypatch.setattr(tables_api, "main", lambda db, port, host, delay, proxy, **_:
                        started.append(host))
    for host, proxy, warned in (("0.0.0.0", False, True), ("0.0.0.0", True, False),
                                ("127.0.0.1", False, False)):
        args = argparse.Namespace(db=None, port=8870, host=host, delay=0.5, behind_proxy=proxy,
                                  hub=False, teacher_group="teachers",
                                  allow_class_creation=False)
        assert publish.cmd_tables(args) == 0
        assert ("over plain HTTP" in capsys.readouterr().err) is warned
    assert started == ["0.0.0.0", "0.0.0.0", "127.0.0.1"]

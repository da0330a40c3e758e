"""Publishing (issue 24): the wheel a teacher installs holds the crazylab Voilà template as
Jupyter data and the config that selects it, `crazylab --version`, `serve` and `site` work from
the command line, and `python -m build` builds without a warning.

The wheel is built (``pip wheel --no-deps``, ~10 s) from a copy of the checkout's tracked files
in a temporary folder, never in the work tree (whose ``build/lib`` may hold stale files).
tests/test_publish_browser.py installs it into a fresh venv and drives it in Chromium.
"""

from __future__ import annotations

import email
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from browser_support import REPO_ROOT
from crazylab.widgets import serve, site_build

import crazylab

TEMPLATE = REPO_ROOT / "widgets" / "jupyter" / "voila" / "templates" / "crazylab"
#: what the wheel is built from
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "crazylab", "widgets")


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


def build_wheel(tmp: Path) -> Path:
    """crazylab's wheel, built from a copy of the checkout; its path."""
    tree = copy_checkout(tmp / "src")
    out = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(out), str(tree)], check=True, capture_output=True)
    [wheel] = out.glob("crazylab-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crazylab.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


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
        assert not [n for n in names if n.startswith("crazylab/widgets/jupyter/")]
        # the class settings of `crazylab serve` are the repository's voila.json
        settings = json.loads(z.read("crazylab/widgets/serve_config.json"))
        assert settings == json.loads((REPO_ROOT / "voila.json").read_text())
        for name in ("boot.js", "snapshot.mjs", "precompile.mjs", "browser-wheels.txt",
                     "pandas_lite.py", "package-lock.json", "placeholders/sqlite3/__init__.py"):
            assert f"crazylab/widgets/static-site/{name}" in names, name
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


def test_packaged_copies_agree_with_the_repository():
    """The npm lock the builder fetches with is the one `make site-deps` installs."""
    for name in ("package.json", "package-lock.json"):
        assert (site_build.HERE / name).read_bytes() == (REPO_ROOT / "site" / name).read_bytes()
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
    shutil.copy2(REPO_ROOT / "widgets" / "jupyter" / "etc" / "voila.json", etc / "voila.json")
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
    assert out.stdout.strip() == f"crazylab {crazylab.__version__}"
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
    monkeypatch.setattr(site_build, "NODE", tmp_path / "nothing")
    with pytest.raises(site_build.SiteError, match="npm"):
        site_build.find_node_modules(fetch=False)
    with pytest.raises(site_build.SiteError, match="holds no pyodide"):
        site_build.find_node_modules(tmp_path)


def test_build_has_no_warning(tmp_path):
    """`python -m build` (sdist, then the wheel from it) prints no warning (when `build` is
    installed; else `pip wheel -v`)."""
    tree = copy_checkout(tmp_path / "src")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    has_build = importlib.util.find_spec("build.__main__") is not None
    cmd = ([sys.executable, "-m", "build", "--outdir", str(tmp_path / "dist"), str(tree)]
           if has_build else
           [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--wheel-dir",
            str(tmp_path / "dist"), str(tree)])
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    log = out.stdout + out.stderr
    warnings = [ln for ln in log.splitlines() if re.search(r"\bwarn(ing)?s?\b", ln, re.I)
                and "pypi-more" not in ln]  # pip's note on this machine's extra index
    assert not warnings, "\n".join(warnings[:10])
    assert list((tmp_path / "dist").glob("crazylab-*.whl"))

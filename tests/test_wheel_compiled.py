"""The engine learners install (issue 21): a wheel built on a machine with a C compiler (``pip
install crazylab`` from source, ``pip install .``, Binder's ``.``) holds the engine compiled
by mypyc beside its sources, and plays exactly as the pure engine; without a compiler, with
``CRAZYLAB_PURE=1`` or when the compile fails, the wheel is pure Python and installs all the
same; an editable install (the checkout, ``make venv``) stays pure and needs no compiler.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from browser_support import REPO_ROOT
from test_publish import build_dist, built, copy_checkout

import crazylab as cl

pytestmark = pytest.mark.build

sys.path.insert(0, str(REPO_ROOT / "tools"))
import build_backend  # noqa: E402

MODULES = [p.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
           for p in build_backend.compiled_modules(REPO_ROOT)]
needs_compiler = pytest.mark.skipif(not build_backend.can_build(),
                                    reason="no C compiler or Python headers here")

#: seeded games of every preset, random moves: the moves' notation, for pure and compiled alike
FINGERPRINT = """
import json, random, sys, crazylab as cl
out = {}
for name in cl.PRESETS:
    r = cl.rules(name)
    for seed in range(6):
        rng = random.Random(seed)
        g = cl.Game.new(r, r.min_players + seed % 2, seed=seed)
        while not g.over:
            legal = g.legal_moves()
            g.push(legal[rng.randrange(len(legal))])
        out[f"{name}/{seed}"] = [str(m) for m in g.moves] + [list(g.winners)]
mods = {m: sys.modules[m].__file__ for m in sys.argv[1:] if __import__(m)}
print(json.dumps({"games": out, "files": mods}))
"""


def fingerprint(python: str, *, path: str = "", cwd: Path = REPO_ROOT) -> dict:
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([python, "-P", "-c", FINGERPRINT, *MODULES], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300, check=True)
    return json.loads(done.stdout)


def so_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as z:
        return {n for n in z.namelist() if n.endswith(".so")}


@needs_compiler
def test_the_wheel_holds_the_compiled_engine_beside_its_sources():
    dist = built()  # sdist, then the wheel built from the sdist, as `pip install crazylab`
    names = zipfile.ZipFile(dist.wheel).namelist()
    for module in build_backend.compiled_modules(REPO_ROOT):
        stem = module.removesuffix(".py")
        assert module in names  # the source stays: tracebacks and inspect read it
        assert [n for n in names if n.startswith(stem + ".cpython-") and n.endswith(".so")], stem
    assert [n for n in names if "__mypyc" in n and n.endswith(".so")]  # mypyc's shared runtime
    assert not dist.wheel.name.endswith("-py3-none-any.whl")
    assert dist.sdist is not None
    import tarfile

    with tarfile.open(dist.sdist) as sdist:
        shipped = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"setup.py", "tools/build_backend.py", "pyproject.toml"} <= shipped
    assert not [n for n in shipped if n.endswith((".c", ".so"))]  # sources only


@needs_compiler
def test_the_installed_wheel_runs_the_compiled_engine_and_plays_as_the_pure_one(tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(site), str(built().wheel)], check=True)
    compiled = fingerprint(sys.executable, path=str(site), cwd=tmp_path)
    pure = fingerprint(sys.executable, cwd=tmp_path)
    assert all(f.startswith(str(site)) and f.endswith(".so")
               for f in compiled["files"].values()), compiled["files"]
    assert all(f.endswith(".py") for f in pure["files"].values()), pure["files"]
    assert len(compiled["games"]) == 6 * len(cl.PRESETS)
    assert compiled["games"] == pure["games"]
    version = subprocess.run([sys.executable, "-P", "-m", "crazylab.cli", "--version"],
                             env=dict(os.environ, PYTHONPATH=str(site)), cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    assert version.strip() == f"crazylab {cl.__version__} (compiled engine)"


def test_pure_when_asked_or_when_the_compile_fails(tmp_path):
    tree = copy_checkout(tmp_path / "src")
    pure = build_dist(tree, tmp_path / "pure", dict(os.environ, CRAZYLAB_PURE="1"))
    assert not so_names(pure.wheel)
    assert pure.wheel.name.endswith("-py3-none-any.whl")
    if not build_backend.can_build():
        return
    failed = build_dist(tree, tmp_path / "failed", dict(os.environ, CC="/bin/false"))
    assert "the engine was not compiled" in failed.log
    assert not so_names(failed.wheel)
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(site), str(failed.wheel)], check=True)
    files = fingerprint(sys.executable, path=str(site), cwd=tmp_path)["files"]
    assert all(f.startswith(str(site)) and f.endswith(".py") for f in files.values()), files


def test_an_editable_install_stays_pure_and_asks_for_no_compiler(monkeypatch):
    assert all(Path(__import__(m, fromlist=["_"]).__file__ or "").suffix == ".py"
               for m in MODULES)
    from setuptools import build_meta

    # an editable install is setuptools' own, hook for hook: no mypy, nothing compiled
    assert build_backend.get_requires_for_build_editable is (
        build_meta.get_requires_for_build_editable)
    assert build_backend.build_editable is build_meta.build_editable
    # a wheel asks for mypy only where it will compile
    monkeypatch.setattr(build_backend._setuptools, "get_requires_for_build_wheel",
                        lambda config_settings=None: ["setuptools-own"])
    monkeypatch.setenv("CRAZYLAB_PURE", "1")
    assert build_backend.get_requires_for_build_wheel() == ["setuptools-own"]
    monkeypatch.delenv("CRAZYLAB_PURE")
    assert build_backend.get_requires_for_build_wheel() == (
        ["setuptools-own", build_backend.MYPYC] if build_backend.can_build()
        else ["setuptools-own"])


def test_binder_and_the_make_targets_build_the_same_modules():
    # Binder installs the checkout as a wheel (not editable): it gets the compiled engine
    lines = (REPO_ROOT / "binder" / "requirements.txt").read_text().split()
    assert lines[-1] == "." and "-e" not in lines
    sys.path.insert(0, str(REPO_ROOT / "tools"))
    import build_compiled

    assert build_backend.compiled_modules(REPO_ROOT) == build_compiled.COMPILED
    assert "crazylab/engine/game.py" in build_compiled.COMPILED

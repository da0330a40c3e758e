"""The package as a user installs it: ranges in the library's extras (exact pins only in the
locks), the oldest supported set that CI tests, the extras that carry what a feature needs,
and types a user's type checker sees (``crazylab.simulate``, ``crazylab.widgets.GameTable``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from browser_support import REPO_ROOT
from packaging.requirements import Requirement
from packaging.version import Version

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"]["optional-dependencies"]
#: the extras a user installs into an environment of their own: ranges, never exact pins
LIBRARY_EXTRAS = ("widgets", "jupyter", "lab", "class", "postgres", "examples", "docs")
LOCK = REPO_ROOT / "ci" / "constraints-newest.txt"
OLDEST = REPO_ROOT / "ci" / "constraints-oldest.txt"


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", f"{path.name}: {line} is not an exact pin"
            pins[_name(req.name)] = spec.version
    return pins


def _requirements(*extras: str) -> list[Requirement]:
    return [Requirement(r) for extra in extras for r in EXTRAS[extra]]


def test_library_extras_are_ranges_with_a_lower_bound():
    for extra in LIBRARY_EXTRAS:
        for req in _requirements(extra):
            ops = {s.operator for s in req.specifier}
            assert "==" not in ops and "===" not in ops, f"[{extra}] pins {req} exactly"
            assert ">=" in ops, f"[{extra}] {req} has no lower bound"


def test_each_extra_carries_what_its_feature_imports():
    names = {extra: {_name(r.name) for r in _requirements(extra)} for extra in EXTRAS}
    assert names["widgets"] == {"anywidget", "ipywidgets"}
    assert {"pandas", "plotly", "dask", "tqdm", "pyarrow"} <= names["lab"]
    assert {"jupyterlab", "voila", "ipywidgets", "anywidget", "ipykernel"} <= names["jupyter"]
    # the same package has the same range in every extra that names it
    ranges: dict[str, set[str]] = {}
    for req in _requirements(*LIBRARY_EXTRAS):
        ranges.setdefault(_name(req.name), set()).add(str(req.specifier))
    assert {n: r for n, r in ranges.items() if len(r) > 1} == {}


def test_simulate_without_pandas_names_the_extra_that_has_it(tmp_path):
    """`crazylab simulate` where pandas is missing says to install crazylab[lab], and that
    extra does carry pandas."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['pandas'] = None  # as if not installed\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "crazylab", "simulate", "crazy-eights",
                           "--games", "2"], capture_output=True, text=True, env=env,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    hint = re.search(r"pip install '(crazylab\[(\w+)\])'", proc.stderr + proc.stdout)
    assert hint, proc.stderr
    assert "pandas" in {_name(r.name) for r in _requirements(hint.group(2))}


def test_the_lock_is_within_the_ranges_and_is_what_make_venv_installed():
    lock = _pins(LOCK)
    for extra, reqs in EXTRAS.items():
        if extra == "bench":  # installed on demand by `make bench`, not locked
            continue
        for req in map(Requirement, reqs):
            name = _name(req.name)
            assert name in lock, f"{LOCK.name} lacks {name} ([{extra}])"
            assert lock[name] in req.specifier, f"{name}=={lock[name]} is outside [{extra}] {req}"
    makefile = (REPO_ROOT / "Makefile").read_text()
    assert "-c $(LOCK)" in makefile and "LOCK := ci/constraints-newest.txt" in makefile
    # the venv the tests run in holds the locked versions of the project's own dependencies
    for req in _requirements(*LIBRARY_EXTRAS, "test"):
        try:
            installed = version(req.name)
        except PackageNotFoundError:
            continue
        assert Version(installed) == Version(lock[_name(req.name)]), (
            f"{req.name} {installed} installed, {lock[_name(req.name)]} locked: run make venv")


def test_the_oldest_set_is_the_lower_bounds_and_ci_runs_it():
    oldest = _pins(OLDEST)
    lower: dict[str, str] = {}
    for req in _requirements("jupyter", "widgets", "lab", "class", "examples"):
        (bound,) = [s.version for s in req.specifier if s.operator == ">="]
        lower[_name(req.name)] = bound
    for name, bound in lower.items():
        assert name in oldest, f"{OLDEST.name} does not test {name}'s lower bound"
        assert Version(oldest[name]) == Version(bound), f"{name}: {oldest[name]} != >={bound}"
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    step = ci.index("ci/constraints-oldest.txt")
    assert ci.index("make test\n") < step, "the oldest set runs after make test passes"
    assert "timeout" in ci[step - 600:step + 1200]
    assert '-m "oldest and not browser and not site"' in ci[step:]
    assert "pytest.mark.oldest" in ci[step:]  # the files are the marker's, no list by hand


def _installed_copy(dest: Path) -> Path:
    """crazylab laid out as a wheel installs it."""
    site = dest / "site"
    ignore = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(REPO_ROOT / "crazylab", site / "crazylab", ignore=ignore)
    assert (site / "crazylab" / "py.typed").is_file()
    return site


def test_a_users_type_checker_sees_simulate_and_the_widgets(tmp_path):
    """A user's mypy: ``cl.simulate(...)`` type-checks (it was ``object``, "not callable"),
    a wrong argument is caught, and ``GameTable`` is the real class, not ``Any``."""
    pytest.importorskip("mypy")
    site = _installed_copy(tmp_path)
    user = tmp_path / "user.py"
    user.write_text(
        "import crazylab as cl\n"
        "from crazylab.widgets import GameTable\n"
        "import crazylab.widgets\n\n"
        'df = cl.simulate("crazy-eights", games=10, seed=1)\n'
        "reveal_type(cl.simulate)\n"
        "reveal_type(GameTable)\n"
        "reveal_type(crazylab.widgets.StepExplainer)\n"
        'table = GameTable("crazy-eights-quick", opponents=2, seed=4)\n'
        "reveal_type(table)\n"
    )
    bad = tmp_path / "bad.py"
    bad.write_text('import crazylab as cl\n\ncl.simulate("crazy-eights", games="ten")\n')
    cfg = tmp_path / "mypy.ini"
    # as for an installed package: its own modules are not the user's to check
    cfg.write_text(f"[mypy]\nmypy_path = {site}\nfollow_imports = silent\n"
                   "ignore_missing_imports = True\n")

    def mypy(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(cfg),
                               "--no-incremental", "--cache-dir", os.devnull, str(path)],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)

    proc = mypy(user)
    out = proc.stdout
    assert "error" not in out, out
    assert "not callable" not in out
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == 4, out
    # the real signature (its DataFrame is Any only because pandas ships no type stubs)
    assert revealed[0].startswith("def (rules: str | crazylab.engine.rules.RuleSet"), revealed[0]
    assert "games: int =" in revealed[0] and "seed: int =" in revealed[0], revealed[0]
    assert "crazylab.widgets.table.GameTable" in revealed[1], revealed[1]
    assert "crazylab.widgets.explainer.StepExplainer" in revealed[2], revealed[2]
    assert revealed[3] == "crazylab.widgets.table.GameTable", revealed[3]
    proc = mypy(bad)
    assert proc.returncode == 1 and 'Argument "games" to "simulate"' in proc.stdout, proc.stdout


def test_every_package_of_the_checkout_is_in_the_wheel():
    """pyproject.toml lists the packages by hand: a new one left out is missing from every
    wheel (the static site's too) while an editable install still finds it (crazylab.store
    was, until the site's pages failed to import it)."""
    table = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    listed = set(table["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO_ROOT).parts)
             for p in (REPO_ROOT / "crazylab").rglob("__init__.py")
             if "files" not in p.parts}  # the static site's placeholders are data
    assert found == listed, {"not listed": sorted(found - listed),
                             "no such package": sorted(listed - found)}

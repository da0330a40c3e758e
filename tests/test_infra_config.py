"""Cheap checks that the project's infrastructure files agree with each other."""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib

import pytest
from browser_support import REPO_ROOT

pytestmark = pytest.mark.oldest

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())


def _requirement_lines(path):
    lines = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def _norm(req: str) -> str:
    name, _, version = req.partition("==")
    return f"{re.sub(r'[-_.]+', '-', name).lower()}=={version}"


def _pins(path) -> dict[str, str]:
    """name -> version of a lock's ``name==version`` lines (extras dropped)."""
    pins = {}
    for line in _requirement_lines(path):
        if "==" in line:
            name, version = _norm(line).split("==")
            pins[name.split("[")[0]] = version
    return pins


def test_binder_requirements_are_the_lock_of_the_jupyter_and_lab_extras():
    """binder/requirements.txt: an exact pin of every package of the jupyter and lab extras
    (within their ranges) and of what they need, at the versions of the lock `make venv`
    installs (ci/constraints-newest.txt), then the project itself."""
    from packaging.requirements import Requirement

    lines = _requirement_lines(REPO_ROOT / "binder" / "requirements.txt")
    assert lines[-1] == ".", "binder/requirements.txt must install the project itself, last"
    assert all(x == "." or re.fullmatch(r"[\w.\[\],-]+==[\w.+!-]+", x) for x in lines), (
        [x for x in lines if x != "." and "==" not in x])
    binder = _pins(REPO_ROOT / "binder" / "requirements.txt")
    lock = _pins(REPO_ROOT / "ci" / "constraints-newest.txt")
    assert {n: v for n, v in binder.items() if lock.get(n) != v} == {}
    extras = PYPROJECT["project"]["optional-dependencies"]
    for req in map(Requirement, extras["jupyter"] + extras["lab"]):
        name = _norm(req.name + "==").split("==")[0]
        assert name in binder, f"binder/requirements.txt does not pin {req.name}"
        assert binder[name] in req.specifier, f"{name}=={binder[name]} is outside {req}"
    assert len(binder) > 50  # what they need too: a lock, not only the direct dependencies


def test_binder_runtime_and_start():
    assert (REPO_ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    start = REPO_ROOT / "binder" / "start"
    assert os.access(start, os.X_OK)
    assert start.read_text().rstrip().endswith('exec "$@"')


def test_voila_json_is_published_mode():
    cfg = json.loads((REPO_ROOT / "voila.json").read_text())
    assert cfg["VoilaConfiguration"]["show_tracebacks"] is False
    denied = cfg["VoilaConfiguration"]["extension_denylist"]
    assert "jupyterlab-jupytext" in denied
    assert "@jupyterlite/pyodide-kernel-extension" in denied  # the site extra's: errors in Voilà
    assert cfg["MappingKernelManager"]["cull_idle_timeout"] > 0
    assert cfg["MappingKernelManager"]["cull_interval"] > 0


def test_a_page_that_never_connects_gives_its_kernel_back_within_a_minute():
    """A link checker's GET used to hold a kernel for 15 minutes (claim_grace 900 s)."""
    from crazylab.web.serve import BoundedKernelManager, CrazylabVoila

    cfg = json.loads((REPO_ROOT / "voila.json").read_text())
    assert cfg["CrazylabVoila"]["claim_grace"] + CrazylabVoila.watch_every.default_value <= 60
    assert 0 < cfg["BoundedKernelManager"]["evict_after"] <= cfg["CrazylabVoila"]["claim_grace"]
    assert "evict_after" in BoundedKernelManager.class_trait_names(config=True)


def test_voila_waits_for_a_cells_output_under_load():
    """nbclient waits only 4 s after a cell's reply for its outputs, then drops them: under a
    class-sized burst the table's widget output came late, was dropped, and the page never
    showed a table (bench_voila: 9 of 30 pages). voila.json gives the outputs 120 s."""
    from voila.execute import VoilaExecutor

    cfg = json.loads((REPO_ROOT / "voila.json").read_text())
    assert "iopub_timeout" in VoilaExecutor.class_trait_names(config=True)
    assert cfg["VoilaExecutor"]["iopub_timeout"] >= 60
    assert cfg["VoilaExecutor"].get("raise_on_iopub_timeout", False) is False


def test_ci_run_is_executable():
    assert os.access(REPO_ROOT / ".ci" / "run", os.X_OK)


def _sanitize(text: str) -> str:
    cfg = (REPO_ROOT / "tests" / "nbval_sanitize.cfg").read_text()
    # The same parse as nbval's get_sanitize_patterns.
    pairs = re.findall(r"^regex: (.*)$\n^replace: (.*)$", cfg, flags=re.MULTILINE)
    assert len(pairs) >= 8
    for regex, replace in pairs:
        text = re.sub(regex, replace, text)
    return text


def test_sanitizer_masks_volatile_output():
    a = (
        "id 3f2b8c1e-9d4a-4b7e-8f00-1a2b3c4d5e6f model 0123456789abcdef0123456789abcdef\n"
        "<object object at 0x7f496086f390>\n"
        "2026-12-02 16:09:25.416121 | 2026-12-02T16:09:25 | 2024-10-28 | 16:09:25\n"
        "CPU times: user 916 \u03bcs, sys: 240 \u03bcs, total: 1.16 ms\nWall time: 1.16 ms\n"
        "9.41 \u03bcs \u00b1 175 ns per loop (mean \u00b1 std. dev. of 2 runs, 3 loops each)\n"
        "/tmp/ipykernel_5115/1673769944.py:2: UserWarning: careful\n"
    )
    b = (
        "id 00000000-1111-4222-8333-444444444444 model ffffffffffffffffffffffffffffffff\n"
        "<object object at 0x55d0c0ffee00>\n"
        "2027-01-01 00:00:00.000001 | 2027-01-01T00:00:00 | 1999-01-01 | 01:02:03\n"
        "CPU times: user 1 ms, sys: 0 ns, total: 1 ms\nWall time: 2.5 s\n"
        "1.5 ms \u00b1 3 \u00b5s per loop (mean \u00b1 std. dev. of 7 runs, 1,000 loops each)\n"
        "/var/tmp/ipykernel_77/42.py:2: UserWarning: careful\n"
    )
    assert a != b
    assert _sanitize(a) == _sanitize(b)
    # Ordinary text survives.
    plain = "8 of \u2663 on 7 of \u2663: 2 cards left, score 10-3"
    assert _sanitize(plain) == plain


def test_binder_installs_everything_the_notebooks_import():
    """Every top-level module a notebook imports is installed by binder/requirements.txt:
    the project with the extras the notebooks need, or a package listed there."""
    import ast

    import nbformat

    lines = _requirement_lines(REPO_ROOT / "binder" / "requirements.txt")
    project = next(x for x in lines if x == "." or x.startswith(".["))
    lines = [x for x in lines if x == project or "==" in x]
    extras = set(re.findall(r"[\w-]+", project[2:-1])) if project.startswith(".[") else set()
    optional = PYPROJECT["project"]["optional-dependencies"]
    installed = {_norm(x).split("==")[0].split("[")[0] for x in lines if not x.startswith(".")}
    for extra in extras:
        installed |= {re.split(r"[=<>\[;]", x)[0].lower().replace("_", "-")
                      for x in optional[extra]}
    provides = {"crazylab": "crazylab", "ipywidgets": "ipywidgets", "plotly": "plotly",
                "pandas": "pandas", "IPython": "ipykernel", "anywidget": "anywidget",
                "dask": "dask", "distributed": "dask", "tqdm": "tqdm", "pyarrow": "pyarrow",
                "voila": "voila", "numpy": "pandas", "traitlets": "ipykernel"}
    stdlib = set(sys.stdlib_module_names)
    missing = set()
    for path in sorted((REPO_ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            src = "\n".join(line for line in cell.source.splitlines()
                            if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(src)):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.module
                         and not node.level else [])
                for name in names:
                    top = name.split(".")[0]
                    if top in stdlib or top == "crazylab":
                        continue
                    if provides.get(top, top).lower() not in installed:
                        missing.add(f"{path.name}: {top}")
    # crazylab.lab needs the lab extras: a notebook using it needs them installed
    uses_lab = any("crazylab import lab" in p.read_text() or "crazylab.lab" in p.read_text()
                   for p in (REPO_ROOT / "notebooks").glob("*.ipynb"))
    if uses_lab:
        for need in ("dask", "tqdm", "pyarrow"):
            if need not in installed:
                missing.add(f"crazylab.lab: {need}")
    assert not missing, f"binder/requirements.txt lacks: {sorted(missing)}"

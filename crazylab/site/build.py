"""Build a static site: notebooks running in the visitor's browser (Voici on JupyterLite's
Pyodide kernel), with every file served from the site itself.

    crazylab site FOLDER -o DIR                   # any folder of notebooks (``build_folder``)
    python -m crazylab.site.build                 # the repository's -> _site/ (`make site`)
    .venv/bin/python -m http.server -d _site      # or `make site-serve`

A teacher's folder: each ``*.ipynb`` is a page (``index.ipynb`` the landing page, else a list of
the pages), links to ``.ipynb`` pointed at the rendered ``.html``. The repository's site: the
dashboards of ``notebooks/`` (``PAGES``), the lessons (``LESSONS``) and the rulebook, glossary
and rules sheets (``READING``), copied at build time with links to ``.ipynb`` pointed at the
rendered ``.html`` (``rulebook.ipynb#SR-17`` -> ``rulebook.html#SR-17``). A lesson's copy starts
with a stand-in for pandas (``pandas_lite.py``); the simulations of the lesson on what the rules
change (pandas, plotly) show their stored results (``lesson_cells``).

The builder's files (``HERE``: the node scripts, boot.js, the pinned browser wheels, the pandas
stand-in, the placeholders, the one npm lock) are package data in ``crazylab/site/files/``.
Nothing is fetched from a CDN: Pyodide's runtime comes from the npm package ``pyodide`` (a
node_modules found by ``find_node_modules``: one named, else the one ``npm ci`` fetched once
into a cache from the package's lock; `make site-deps` fills it), the wheels from PyPI at build time
(``browser-wheels.txt``), Font Awesome from npm. Every
wheel the pages need (crazylab, the widgets, the kernel's own) is listed in the site's
``pyodide-lock.json`` and loaded when Pyodide starts, in parallel and from the browser's cache
on a second visit, instead of one by one through micropip. Work files go to ``_site_build/``.

Python starts from a memory snapshot (snapshot.mjs, made here in node; restored by the
kernel's loader boot.js) with IPython, the widgets and crazylab already imported: a visit
skips Python's own start, unpacking the wheels and those imports. The kernel's ``piplite``
imports micropip only when ``%pip`` is used (``LAZY_PIPLITE``). The wheels' files come in one
gzipped pack written straight into site-packages (no unpacking in Python).
"""

from __future__ import annotations

import argparse
import ast
import base64
import csv
import gzip
import hashlib
import html
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from ..errors import CrazylabError

#: the builder's own files (package data)
HERE = Path(__file__).resolve().parent / "files"
#: the repository, when this module runs from a checkout (an editable install)
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
#: a node_modules named by the user, before the cache's
NODE_ENV = "CRAZYLAB_SITE_NODE_MODULES"
#: the npm packages the site takes files from (pinned by files/package-lock.json)
NPM_PYODIDE, NPM_FONTAWESOME = "pyodide", "@fortawesome/fontawesome-free"


class SiteError(CrazylabError):
    """What stops a site from being built (a missing tool or file, a failed step)."""

#: the dashboards published, landing page first
PAGES = ["index", "play", "explain", "explore", "score", "piano"]
#: the lessons with their exercises (notebooks/NN_*.ipynb, from notebooks/lessons/NN_*.py)
LESSONS = sorted(p.stem for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
#: the markdown pages the lessons link to: the rulebook (a heading per rule id: rulebook.html#ID)
READING = ["rulebook", "glossary", "sheets"]
#: the Pyodide runtime files the site serves (the npm package has no packages of its own)
PYODIDE_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "package.json"]
#: packages of Pyodide's own lock the kernel loads; their wheels come from PyPI
PYODIDE_PACKAGES = ["micropip", "packaging"]
#: the pyodide kernel's labextension comes in as a wheel, like the widgets' front ends
KERNEL_WHEEL = "jupyterlite_pyodide_kernel==0.7.0"
#: the Python of the Pyodide the kernel runs (the wheels are downloaded for it)
PYTHON = "3.13"
FRONT_ENDS = ["anywidget", "jupyterlab_widgets"]
#: placeholder packages built from placeholders/: name -> version
PLACEHOLDERS = {"sqlite3": "0.0.0", "jedi": "0.19.999"}
#: the wheels the Pyodide kernel serves itself (its labextension's pypi/ folder)
KERNEL_OWN = ["piplite", "pyodide_kernel", "ipykernel", "widgetsnbextension-4"]
#: the packages the kernel's worker installs at start unless loadPyodideOptions lists them
KERNEL_START = ["sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython"]
#: in the lock but not loaded at start: front-end files only, no Python imports them
NOT_PRELOADED = {"jupyterlab-widgets"}
#: imported before the snapshot is taken: the kernel (pyodide_kernel makes its IPython shell on
#: import; its two JavaScript objects, Pyodide's API and loadPackagesFromImports, are handed over
#: by name: snapshot.mjs, boot.js), then what the pages import. ipywidgets after the kernel, as
#: in a cell: it registers its comm targets with the kernel, so the page's widget manager gets
#: its answer at once (otherwise it waits 4 s for "jupyter.widget.control" before the cells
#: run). Not micropip: it holds more JavaScript objects (piplite imports it on the first %pip
#: only, LAZY_PIPLITE)
SNAPSHOT_IMPORTS = [
    "IPython", "traitlets", "comm", "piplite.piplite", "pyodide_kernel", "ipywidgets",
    "anywidget", "crazylab", "crazylab.render", "crazylab.widgets", "crazylab.widgets.table",
    "crazylab.widgets.music",
]
SITE_PACKAGES = "/lib/python3.13/site-packages"
#: the snapshot, and the files of every preloaded wheel in one file (unpacked, then gzipped)
SNAPSHOT, PACK = "snapshot.bin.gz", "site-packages.pack.gz"
#: the kernel's piplite.piplite, without importing micropip (and unittest.mock) at the kernel's
#: start: the original module becomes piplite/_piplite.py, loaded on the first install
LAZY_PIPLITE = '''"""piplite for the crazylab static site: the kernel's start imports this
module to set its settings; the real one (``_piplite``, which imports micropip) loads on the
first install."""

from typing import Any

_PIPLITE_URLS: list[str] = []
_PIPLITE_INDICES: dict[str, dict[str, Any]] = {}
_PIPLITE_DISABLE_PYPI = False
ALL_JSON = "/all.json"


def _real():
    from . import _piplite as real

    real._PIPLITE_URLS = _PIPLITE_URLS
    real._PIPLITE_INDICES = _PIPLITE_INDICES
    real._PIPLITE_DISABLE_PYPI = _PIPLITE_DISABLE_PYPI
    return real


def install(*args, **kwargs):
    """micropip.install through the site's wheel index (see piplite._piplite.install)."""
    return _real().install(*args, **kwargs)


def __getattr__(name):
    if name.startswith("__"):  # what the import system looks up: not a reason to load micropip
        raise AttributeError(name)
    return getattr(_real(), name)


__all__ = ["install"]
'''
FONTAWESOME_CDN = re.compile(
    r"<link[^>]*href=\"https://[^\"]*font-?awesome[^\"]*\"[^>]*>", re.IGNORECASE)


def run(*cmd: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a step of the build (``env``: added to this process's environment); a failure is
    a :class:`SiteError` naming it."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    try:
        subprocess.run([str(c) for c in cmd], cwd=cwd, check=True,
                       env=None if env is None else {**os.environ, **env})
    except FileNotFoundError:
        raise SiteError(f"{cmd[0]} is not installed (the static site needs it)") from None
    except subprocess.CalledProcessError as e:
        raise SiteError(f"{Path(str(cmd[0])).name} {' '.join(str(c) for c in cmd[1:3])} ... "
                        f"failed (exit {e.returncode}); see its output above") from None


def pip_download(dest: Path, *requirements: str) -> None:
    """Pure wheels for Pyodide's Python, exactly the versions asked for."""
    run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
        "--python-version", PYTHON, "--implementation", "py", "--abi", "none",
        "--platform", "any", "--dest", dest, *requirements)


def pinned(path: Path) -> list[str]:
    """The ``name==version`` lines of a requirements file."""
    lines = [ln.split("#", 1)[0].strip() for ln in path.read_text().splitlines()]
    reqs = [ln for ln in lines if ln]
    loose = [r for r in reqs if "==" not in r]
    if loose:
        raise SiteError(f"{path}: pin every wheel with ==: {loose}")
    return reqs


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def placeholder_wheel(name: str, version: str, source: Path | None, dest: Path) -> Path:
    """A small ``py3-none-any`` wheel: the modules under ``source`` (if any) and metadata."""
    files: dict[str, bytes] = {}
    if source is not None and source.is_dir():
        for f in sorted(source.rglob("*.py")):
            files[f"{name}/{f.relative_to(source).as_posix()}"] = f.read_bytes()
    return pure_wheel(name, version, files, dest,
                      f"crazylab static site placeholder for {name} (see placeholders/)")


def pure_wheel(name: str, version: str, files: dict[str, bytes], dest: Path,
               summary: str) -> Path:
    """A ``py3-none-any`` wheel of ``files`` (archive path -> bytes) with its metadata."""
    files = dict(files)
    info = f"{name}-{version}.dist-info"
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
    ).encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: crazylab-site\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for path, data in files.items():
        writer.writerow([path, _record_hash(data), len(data)])
    writer.writerow([f"{info}/RECORD", "", ""])
    files[f"{info}/RECORD"] = record.getvalue().encode()
    wheel = dest / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            z.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return wheel


def lazy_piplite(wheel: Path) -> None:
    """Rewrite the kernel's piplite wheel in place with ``LAZY_PIPLITE`` as piplite.piplite
    (RECORD is rewritten by precompile)."""
    with zipfile.ZipFile(wheel) as z:
        files = {n: z.read(n) for n in z.namelist()}
    if "piplite/piplite.py" not in files or "piplite/_piplite.py" in files:
        raise SiteError(f"{wheel.name}: not the piplite this build knows")
    files["piplite/_piplite.py"] = files.pop("piplite/piplite.py")
    files["piplite/piplite.py"] = LAZY_PIPLITE.encode()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)


def build_wheels(work: Path) -> tuple[Path, list[Path]]:
    """The browser's wheel folder, and the wheels holding front ends (lab extensions)."""
    wheels = work / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    crazylab_wheel(wheels)
    pip_download(wheels, *pinned(HERE / "browser-wheels.txt"))
    for name, version in PLACEHOLDERS.items():
        placeholder_wheel(name, version, HERE / "placeholders" / name, wheels)
    extensions = work / "extensions"
    shutil.rmtree(extensions, ignore_errors=True)
    extensions.mkdir()
    pip_download(extensions, KERNEL_WHEEL)
    for stem in FRONT_ENDS:
        for whl in wheels.glob(f"{stem}-*.whl"):
            shutil.copy2(whl, extensions)
    [kernel] = extensions.glob("jupyterlite_pyodide_kernel-*.whl")
    with zipfile.ZipFile(kernel) as z:
        for member in z.namelist():
            base = member.rsplit("/", 1)[-1]
            if "/static/pypi/" in member and any(base.startswith(k) for k in KERNEL_OWN):
                (wheels / base).write_bytes(z.read(member))
    [piplite] = wheels.glob("piplite-*.whl")
    lazy_piplite(piplite)
    return wheels, sorted(extensions.glob("*.whl"))


def wheel_name(wheel: Path) -> str:
    """The distribution name a wheel's METADATA gives (``pyodide_kernel``, ``ipython``)."""
    with zipfile.ZipFile(wheel) as z:
        [meta] = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        for line in z.read(meta).decode().splitlines():
            if line.startswith("Name:"):
                return line.split(":", 1)[1].strip()
    raise SiteError(f"{wheel}: no Name in METADATA")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entry(wheel: Path, name: str, version: str, depends: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package", "imports": [], "depends": depends,
            "unvendored_tests": False}


def precompile(wheels: list[Path], node: Path) -> None:
    """Every module of ``wheels`` as bytecode of the browser's Python (precompile.mjs):
    otherwise each visit compiles them from source, 4x slower to import."""
    run("node", node / "precompile.mjs", *wheels, cwd=node)


def pyodide_runtime(dest: Path, wheels: Path, node: Path) -> list[str]:
    """Pyodide's runtime from npm (``node``: ``node_folder``), and a lock that lists micropip
    and packaging (their wheels from PyPI, the versions the lock names) and every wheel of
    ``wheels``. Returns the names Pyodide is to load at start."""
    npm = node / "node_modules" / NPM_PYODIDE
    if not (npm / "pyodide.asm.wasm").exists():
        raise SiteError(f"{npm} is missing: run `npm ci` in {HERE}")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(npm / name, dest / name)
    lock = json.loads((npm / "pyodide-lock.json").read_text())
    entries = {name: dict(lock["packages"][name]) for name in PYODIDE_PACKAGES}
    for name, entry in entries.items():
        pip_download(dest, f"{name}=={entry['version']}")
        if not (dest / entry["file_name"]).exists():
            raise SiteError(f"PyPI's {name} {entry['version']} is not {entry['file_name']}")
    for wheel in sorted(wheels.glob("*.whl")):
        shutil.copy2(wheel, dest / wheel.name)
    precompile(sorted(dest.glob("*.whl")), node)
    packages = {name: lock_entry(dest / entry["file_name"], name, entry["version"],
                                 entry["depends"])
                for name, entry in entries.items()}
    preload = list(PYODIDE_PACKAGES)
    for wheel in sorted(wheels.glob("*.whl")):
        name = wheel_name(wheel)
        version = wheel.name.split("-")[1]
        # every wheel is preloaded, so none needs its dependencies resolved here
        packages[canonical(name)] = lock_entry(dest / wheel.name, canonical(name), version, [])
        if canonical(name) not in NOT_PRELOADED:
            preload.append(name)  # as the wheel spells it: the kernel skips these by that name
    # ... and as the kernel's start spells them: one it does not find here (it looked for
    # "pyodide_kernel", the wheel says "pyodide-kernel") it installs through piplite, which
    # imports micropip and reads the wheel index: 1-3 s of every visit
    for name in KERNEL_START:
        if name not in preload and canonical(name) in {canonical(p) for p in preload}:
            preload.append(name)
    lock["packages"] = packages
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))
    snapshot(dest, sorted({dest / packages[canonical(n)]["file_name"] for n in preload}), node)
    return preload


def boot_manifest(dest: Path, wheels: list[Path]) -> dict:
    """The files of ``wheels`` as installed in site-packages, one after another in
    ``dest/PACK``, and what boot.js and snapshot.mjs need to know to write them back."""
    pack = io.BytesIO()
    files: list[tuple[str, int, int]] = []
    seen: set[str] = set()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                if info.is_dir():
                    continue
                path = f"{SITE_PACKAGES}/{info.filename}"
                if path in seen:
                    raise SiteError(f"{wheel.name}: {info.filename} is in another wheel too")
                seen.add(path)
                start = pack.tell()
                pack.write(z.read(info))
                files.append((path, start, pack.tell()))
    (dest / PACK).write_bytes(gzip.compress(pack.getvalue(), compresslevel=6, mtime=0))
    return {"snapshot": SNAPSHOT, "pack": PACK, "files": files, "imports": SNAPSHOT_IMPORTS}


def snapshot(dest: Path, wheels: list[Path], node: Path) -> None:
    """boot.js, its boot.json, the site-packages pack and the snapshot of Python it restores
    (snapshot.mjs)."""
    manifest = dest / "boot.json"
    manifest.write_text(json.dumps(boot_manifest(dest, wheels), separators=(",", ":")))
    shutil.copy2(HERE / "boot.js", dest / "boot.js")
    run("node", node / "snapshot.mjs", dest, manifest, dest / SNAPSHOT, cwd=node)


def page_notebook(name: str) -> dict:
    """The site's copy of ``notebooks/<name>.ipynb``: links to the rendered pages, and on the
    landing page a note in place of what only Voilà offers."""
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    if name in LESSONS:
        nb["cells"] = lesson_cells(nb["cells"])
    elif name in PANDAS_PAGES:
        nb["cells"] = [_code_cell(pandas_cell(), 0), *nb["cells"]]
    if name == "index":  # its lessons are listed in markdown (LANDING_LESSONS)
        code = [c for c in nb["cells"] if LANDING_LESSONS[0] in "".join(c["source"])]
        if len(code) != 1:
            raise SiteError(f"index.ipynb: no cell with {LANDING_LESSONS[0]!r} to replace")
        code[0]["source"] = "".join(code[0]["source"]).replace(*LANDING_LESSONS)
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = site_links("".join(cell["source"]))
        if name == "index":
            text = re.sub(r"\nDeep links work:.*?\n\n", "\n" + STATIC_NOTE + "\n", text,
                          flags=re.DOTALL)
            text = re.sub(r"(\n## Lessons\n.*)", lambda m: m[1].rstrip() + "\n\n"
                          + lesson_list(), text, flags=re.DOTALL)
        cell["source"] = text
    nb["metadata"]["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)",
                                    "language": "python"}
    return nb


STATIC_NOTE = """\
This is the **static edition**: Python runs in your browser, nothing is sent to a server, and
the first visit downloads the Python runtime (later visits start from the browser's cache).
The simulation lab (the lesson on what the rules change shows its results as they were when
the site was built) and deep links (`?rules=…`) are in the Voilà app.
"""
#: the Voilà app's landing page lists the lesson files beside it, linked as .ipynb; the site's
#: lists them in markdown (``lesson_list``), linked to their pages
LANDING_LESSONS = ('lessons = sorted(Path().glob("[0-9][0-9]_*.ipynb"))',
                   "lessons = []  # the static site lists its lessons' pages above")
#: ``x.ipynb``, ``x.ipynb?query`` and ``x.ipynb#ID`` in a markdown link (the query is dropped:
#: the site's pages read none but explain's, whose links the widgets write themselves)
IPYNB_LINK = re.compile(r"\]\(([\w-]+)\.ipynb(\?[^)#]*)?(#[^)]*)?\)")


def site_links(text: str) -> str:
    """Markdown links to notebooks pointed at the site's pages, keeping a ``#fragment``
    (``rulebook.ipynb#SR-17`` -> ``rulebook.html#SR-17``)."""
    return IPYNB_LINK.sub(lambda m: f"]({m[1]}.html{m[3] or ''})", text)


def lesson_title(name: str) -> str:
    """A lesson's title: the first heading of its first cell, without "Lesson N: "."""
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    title = "".join(nb["cells"][0]["source"]).splitlines()[0].lstrip("# ").strip()
    return title.split(": ", 1)[1] if title.startswith("Lesson ") else title


def lesson_list() -> str:
    """The landing page's list of the lessons and the pages they lean on (the Voilà app's
    landing page lists the lesson files it finds beside it: the site's Python has none)."""
    items = [f"{i}. [{lesson_title(n)[:1].upper() + lesson_title(n)[1:]}]({n}.html)"
             for i, n in enumerate(LESSONS, 1)]
    return ("\n".join(items) + "\n\nAnd the [rulebook](rulebook.html) (every rule by its id), "
            "the [glossary](glossary.html) and the [rules sheets](sheets.html).\n")


#: the first cell of a lesson's site copy: pandas is not part of the site (with numpy, ~10 MB
#: more for every visit, for four small tables); files/pandas_lite.py stands in for it
PANDAS_CELL = """\
# the static site: a stand-in for the few pandas calls the lessons make (pandas_lite.py)
import sys as _sys
import types as _types

_pandas = _types.ModuleType("pandas")
exec({source!r}, _pandas.__dict__)
_sys.modules.setdefault("pandas", _pandas)
del _sys, _types, _pandas
"""
#: the dashboards whose widgets call pandas (the explorer's legal_table): the stand-in too
PANDAS_PAGES = ["explore"]


def pandas_cell() -> str:
    return PANDAS_CELL.format(source=(HERE / "pandas_lite.py").read_text(encoding="utf-8"))


#: what a lesson with simulations (what the rules change) says on the site, under its title
PRERENDERED_NOTE = """\
> **On the static site** this lesson's simulations do not run: they need pandas and plotly,
> which the browser edition does not carry. The tables and printed results below are the ones
> the lesson produced when the site was built (every run is seeded: the numbers are the ones
> you get in the Voilà app, which also draws the figures). The questions are live: the engine
> checks your answers in your browser.
"""
#: what makes a code cell need the simulation lab: these imports, and calling ``simulate``
LAB_MODULES = ("plotly", "crazylab.lab", "numpy")


def _code_cell(source: str, n: int) -> dict:
    return {"cell_type": "code", "execution_count": None, "id": f"crazylab-site-{n}",
            "metadata": {}, "outputs": [], "source": source}


def _needs_lab(stmt: ast.stmt, lab: set[str]) -> bool:
    """Whether a statement needs the simulation lab (imports it, calls ``simulate`` or reads a
    name that does); the names it binds join ``lab`` if so."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        base = f"{stmt.module}." if isinstance(stmt, ast.ImportFrom) else ""
        names = {a.asname or a.name.split(".")[0]: base + a.name for a in stmt.names}
        hit = {k for k, full in names.items()
               if any(full == m or full.startswith(m + ".") for m in LAB_MODULES)}
        lab |= hit
        return bool(hit)
    nodes = list(ast.walk(stmt))
    needs = any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in lab
                for n in nodes) or any(
        isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", None))
        == "simulate" for n in nodes)
    if needs:
        lab |= _bound(stmt)
    return needs


def _bound(node: ast.AST) -> set[str]:
    """The names a statement binds (not those of its comprehensions and lambdas)."""
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
        return set()
    names = {node.id} if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) else set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    for child in ast.iter_child_nodes(node):
        names |= _bound(child)
    return names


def _stored_exercise(cell: dict, call: ast.Call) -> str:
    """A choice exercise whose question, choices and answer were computed from a simulation,
    as a call with the values the built notebook shows (its HTML copy of the exercise)."""
    page = "".join(next((o["data"]["text/html"] for o in cell["outputs"]
                         if "text/html" in o.get("data", {})), []))
    question = re.search(r"<div class='crazylab-question'><b>Exercise\.</b> (.*?)</div>", page,
                         re.DOTALL)
    listed = re.search(r"<ol class='crazylab-choices'>(.*?)</ol>", page, re.DOTALL)
    solved = re.search(r"<summary>Show the solution</summary><div[^>]*>(.*?)<br><small>Rules: "
                       r"(.*?)</small>", page, re.DOTALL)
    hint = re.search(r"<details><summary>Hint</summary>(.*?)</details>", page, re.DOTALL)
    if not (question and listed and solved):
        raise SiteError(f"cell {cell.get('id')}: no stored exercise to show on the site")
    choices = [html.unescape(c) for c in re.findall(r"<li>(.*?)</li>", listed[1], re.DOTALL)]
    solution = html.unescape(solved[1].replace("<br>", "\n"))
    answers = [c for c in choices if solution.startswith(c + ". ")]
    if not answers:
        raise SiteError(f"cell {cell.get('id')}: the stored solution names no choice")
    answer = max(answers, key=len)
    rules = " ".join(solved[2].replace(",", " ").split())
    more = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg == "wrong"}
    return ("from crazylab.widgets.exercise import choice_exercise\n\n"
            f"choice_exercise({html.unescape(question[1])!r}, {choices!r}, {answer!r},\n"
            f"                {solution[len(answer) + 2:]!r},\n"
            f"                rules={rules!r}, hint={html.unescape(hint[1]) if hint else ''!r}"
            + "".join(f", {k}={v!r}" for k, v in more.items()) + ")\n")


def _stored_outputs(cell: dict) -> str:
    """Code that shows a cell's stored outputs: tables as HTML, printed text, and a note in
    place of a plotly figure."""
    lines = ["from IPython.display import HTML, Markdown, display", ""]
    for out in cell["outputs"]:
        if out["output_type"] == "stream":
            lines.append(f"print({''.join(out['text'])!r}, end='')")
            continue
        data = out.get("data", {})
        if "application/vnd.plotly.v1+json" in data:
            title = data["application/vnd.plotly.v1+json"].get("layout", {}).get("title", {})
            name = title.get("text", "") if isinstance(title, dict) else str(title)
            note = (f"*Figure: {name or 'a plotly figure'}.* The static site draws no plotly "
                    "figures: the Voilà app shows this one.")
            lines.append(f"display(Markdown({note!r}))")
        elif "text/html" in data:
            lines.append(f"display(HTML({''.join(data['text/html'])!r}))")
        elif "text/markdown" in data:
            lines.append(f"display(Markdown({''.join(data['text/markdown'])!r}))")
        elif "text/plain" in data:
            lines.append(f"print({''.join(data['text/plain'])!r})")
    return "\n".join(lines) + "\n"


def lesson_cells(cells: list[dict]) -> list[dict]:
    """A lesson's cells for the site: first the pandas stand-in, then the lesson's cells; a
    cell that needs the simulation lab (plotly, crazylab.lab, ``simulate`` and what is
    computed from them) shows what it showed when the notebook was built, its exercises
    rebuilt from their stored copy so that they stay live, and the lesson says so."""
    lab: set[str] = set()
    out = [_code_cell(pandas_cell(), 0)]
    if cells and cells[0]["cell_type"] == "markdown":  # the title stays first
        out.insert(0, cells.pop(0))
    prerendered = False
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or source.lstrip().startswith(("%", "!")):
            out.append(cell)
            continue
        try:
            body = ast.parse(source).body
        except SyntaxError:  # IPython syntax (a magic): kept as it is
            out.append(cell)
            continue
        needs = [_needs_lab(stmt, lab) for stmt in body]
        if not any(needs):
            out.append(cell)
            continue
        prerendered = True
        kept = [stmt for stmt, need in zip(body, needs, strict=True) if not need]
        calls = [s.value for s, need in zip(body, needs, strict=True) if need
                 and isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                 and getattr(s.value.func, "id", None) == "choice_exercise"]
        if calls:
            out.append(_code_cell(_stored_exercise(cell, calls[-1]), len(out)))
        elif cell.get("outputs"):
            out.append(_code_cell(_stored_outputs(cell), len(out)))
        elif kept:
            out.append(_code_cell("\n".join(ast.unparse(s) for s in kept) + "\n", len(out)))
    if prerendered:
        at = next(i for i, c in enumerate(out) if c["cell_type"] == "markdown") + 1
        out.insert(at, {"cell_type": "markdown", "id": "crazylab-site-note", "metadata": {},
                        "source": PRERENDERED_NOTE})
    return out


def write_config(lite: Path, contents: Path, output: Path, extensions: list[Path]) -> None:
    (lite / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {
            "apps": ["voici"],
            "contents": [str(contents)],
            "output_dir": str(output),
            "ignore_sys_prefix": True,
            "federated_extensions": [str(p) for p in extensions],
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
        },
    }, indent=2))
    (lite / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "crazylab",
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "disablePyPIFallback": True,
                },
            },
        },
    }, indent=2))


def vendor_fontawesome(output: Path, node: Path) -> str:
    """Font Awesome's CSS and fonts in the site; the ``<link>`` that replaces the CDN's."""
    npm = node / "node_modules" / NPM_FONTAWESOME
    css = npm / "css" / "all.min.css"
    if not css.exists():
        raise SiteError(f"{npm} is missing: run `npm ci` in {HERE}")
    dest = output / "vendor" / "fontawesome"
    (dest / "css").mkdir(parents=True, exist_ok=True)
    shutil.copy2(css, dest / "css" / "all.min.css")
    (dest / "webfonts").mkdir(exist_ok=True)
    for font in (npm / "webfonts").glob("*.woff2"):  # every browser of today
        shutil.copy2(font, dest / "webfonts" / font.name)
    return "<link rel=\"stylesheet\" href=\"../../vendor/fontawesome/css/all.min.css\">"


CONFIG_DATA = re.compile(
    r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.DOTALL)
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"


def _from_render(url: str) -> str:
    """A site-root-relative ``./x`` as seen from ``voici/render/``."""
    return "../../" + url[2:] if url.startswith("./") else url


def patch_config(config: dict, preload: list[str], *, page: bool) -> dict:
    """The kernel's settings: no PyPI, every wheel loaded at start, and (on a page) paths
    from ``voici/render/``."""
    data = config.get("jupyter-config-data", config)
    data["appName"] = "crazylab"
    kernel = data.setdefault("litePluginSettings", {}).setdefault(KERNEL_SETTINGS, {})
    kernel["disablePyPIFallback"] = True
    kernel["loadPyodideOptions"] = {"packages": preload}
    if not kernel["pyodideUrl"].endswith("/pyodide.js"):
        raise SiteError(f"unexpected pyodideUrl {kernel['pyodideUrl']!r}")
    kernel["pyodideUrl"] = kernel["pyodideUrl"][:-len("pyodide.js")] + "boot.js"
    if page:
        kernel["pyodideUrl"] = _from_render(kernel["pyodideUrl"])
        kernel["pipliteUrls"] = [_from_render(u) for u in kernel["pipliteUrls"]]
    return config


PROGRESS = """
<div id="crazylab-progress" role="status" aria-live="polite"
     style="font-family:sans-serif;max-width:36em;margin:0 auto;line-height:1.6">
  <ol style="padding-left:1.4em">
    <li data-step="page">Load the page</li>
    <li data-step="python">Start Python in your browser: a first visit downloads it and the card
      engine (about __MB__ MB, less where the web host compresses); later visits start from
      your browser's cache</li>
    <li data-step="run">Run the page's Python and draw it</li>
  </ol>
  <p><span id="crazylab-elapsed">0</span> s</p>
</div>
<script>
document.addEventListener("DOMContentLoaded", function () {
  // JupyterLite unregisters its service worker (2-3 s before the kernel starts) on a visit
  // that finds the page controlled by one whose version it never stored, i.e. every second
  // visit: the first stores it here, as JupyterLite itself does on a controlled visit
  try {
    const cfg = JSON.parse(document.getElementById("jupyter-config-data").textContent);
    const sw = new URL("service-worker.js", new URL(cfg.baseUrl || "/", location.href));
    sw.searchParams.set("enableCache", cfg.enableServiceWorkerCache || "false");
    const key = sw.href + "-version";
    if (cfg.appVersion && !localStorage.getItem(key)) localStorage.setItem(key, cfg.appVersion);
  } catch (err) {
    // no localStorage: JupyterLite does as before
  }
});
(function () {
  const t0 = performance.now();
  const marks = {page: "\u23f3 ", python: "", run: ""};
  function step() {
    const text = (document.getElementById("loading_text") || {}).textContent || "";
    const loading = document.getElementById("loading");
    const order = ["page", "python", "run"];
    let now = 0;
    if (/kernel/i.test(text)) now = 1;
    if (/^Executing/i.test(text)) now = 2;
    order.forEach(function (name, i) {
      const li = document.querySelector('#crazylab-progress [data-step="' + name + '"]');
      if (!li) return;
      li.style.fontWeight = i === now ? "bold" : "normal";
      li.style.color = i < now ? "#2e7d32" : (i === now ? "inherit" : "#777");
      li.dataset.state = i < now ? "done" : (i === now ? "now" : "todo");
    });
    const el = document.getElementById("crazylab-elapsed");
    if (el) el.textContent = ((performance.now() - t0) / 1000).toFixed(0);
    if (!loading || loading.style.display === "none") {
      const box = document.getElementById("crazylab-progress");
      if (box) box.remove();
      return;
    }
    setTimeout(step, 250);
  }
  step();
})();
</script>
"""


def download_mb(pyodide_dir: Path) -> float:
    """The Python runtime, its snapshot and the wheels' files, in MB (what step 2 downloads;
    the wheels themselves only if the snapshot fails)."""
    files = [pyodide_dir / f for f in PYODIDE_FILES if f != "package.json"]
    files += [pyodide_dir / SNAPSHOT, pyodide_dir / PACK]
    return sum(f.stat().st_size for f in files) / 1e6


def direct_links(page: str, pages: list[str] | None = None) -> str:
    """Links between the site's pages (``pages``: the repository's by default) straight to the
    rendered page (Voici points them at the contents folder, ``../../files/x.html``, whose
    redirect costs a page load)."""
    names = "|".join(re.escape(n) for n in (PAGES + LESSONS + READING if pages is None
                                            else pages))
    return re.sub(rf'href="\.\./\.\./files/({names})\.html', r'href="\1.html', page)


def fix_pages(output: Path, preload: list[str], node: Path, pages: list[str]) -> None:
    """Voici writes the pages' kernel paths as if the pages sat at the site's root; they sit
    two folders down. PyPI is switched off, Font Awesome comes from the site, and the site's
    root (and ``voici/``) open the landing page; Voici's file tree is not published."""
    fa_link = vendor_fontawesome(output, node)
    lite_json = output / "jupyter-lite.json"
    lite_json.write_text(json.dumps(patch_config(json.loads(lite_json.read_text()), preload,
                                                 page=False),
                                    indent=2))
    for page in sorted((output / "voici" / "render").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        m = CONFIG_DATA.search(html)
        if not m:
            raise SiteError(f"{page}: no jupyter-config-data")
        config = json.dumps(patch_config(json.loads(m.group(2)), preload, page=True))
        config = config.replace("</", "<\\/")
        html = html[:m.start(2)] + config + html[m.end(2):]
        html = FONTAWESOME_CDN.sub(fa_link, html)
        html = direct_links(html, pages)
        head, sep, tail = html.partition("</h2>")  # the end of Voici's "loading" heading
        if not sep or 'id="loading_text"' not in head:
            raise SiteError(f"{page}: no loading heading to put the progress under")
        mb = download_mb(output / "static" / "pyodide")
        html = head + sep + PROGRESS.replace("__MB__", f"{mb:.0f}") + tail
        page.write_text(html, encoding="utf-8")
    # Voici's markdown renderer points a relative link `play.html` at the contents folder,
    # files/play.html: a redirect there leads on to the rendered page
    # (a script first, to keep a #fragment such as rulebook.html#SR-17)
    for name in pages:
        (output / "files" / f"{name}.html").write_text(
            "<!doctype html><meta charset='utf-8'><title>crazylab</title>"
            "<link rel='icon' href='data:,'>"
            f"<script>location.replace('../voici/render/{name}.html' + location.search"
            " + location.hash)</script>"
            f"<meta http-equiv='refresh' content='0; url=../voici/render/{name}.html'>"
            f"<a href='../voici/render/{name}.html'>{name}</a>\n", encoding="utf-8")
    shutil.rmtree(output / "voici" / "tree", ignore_errors=True)
    # a lesson's kernel looks up its folder's parent in the contents (JupyterLite asks for
    # api/contents/../all.json): an empty listing, not a 404 in the console
    (output / "api" / "all.json").write_text(json.dumps({
        "name": "", "path": "", "type": "directory", "format": "json", "mimetype": None,
        "content": [], "created": None, "last_modified": None, "size": None,
        "writable": False}), encoding="utf-8")
    if "index" in pages:
        for index, target in ((output / "index.html", "voici/render/index.html"),
                              (output / "voici" / "index.html", "render/index.html")):
            index.write_text(
                "<!doctype html><meta charset='utf-8'><title>crazylab</title>"
                "<link rel='icon' href='data:,'>"
                f"<meta http-equiv='refresh' content='0; url={target}'>"
                f"<a href='{target}'>crazylab</a>\n", encoding="utf-8")
    else:  # a folder without a landing page: a list of its pages
        for index, prefix in ((output / "index.html", "voici/render/"),
                              (output / "voici" / "index.html", "render/")):
            index.write_text(page_list(pages, prefix), encoding="utf-8")


def page_list(pages: list[str], prefix: str) -> str:
    """A plain landing page linking ``pages`` (a folder without ``index.ipynb``)."""
    items = "".join(f"<li><a href='{prefix}{html.escape(n)}.html'>{html.escape(n)}</a></li>"
                    for n in pages)
    return ("<!doctype html><html lang='en'><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<title>Notebooks</title><link rel='icon' href='data:,'>"
            "<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;"
            "line-height:1.6}</style><main><h1>Notebooks</h1>"
            f"<ul>{items}</ul></main></html>\n")


def outside_references(output: Path) -> list[str]:
    """``src=`` and ``href=`` attributes and the CSS ``url()`` references of the pages that
    leave the site."""
    found = []
    pattern = re.compile(r"(?:src|href)=[\"'](https?:)?//|url\([\"']?https?://", re.IGNORECASE)
    for page in output.rglob("*.html"):
        for m in pattern.finditer(page.read_text(encoding="utf-8", errors="replace")):
            found.append(f"{page.relative_to(output)}: {m.group(0)}")
    return found


def checkout() -> Path | None:
    """The repository this module runs from (an editable install), else None."""
    project = ROOT / "pyproject.toml"
    if project.is_file() and 'name = "crazylab"' in project.read_text(encoding="utf-8"):
        return ROOT
    return None


def crazylab_wheel(dest: Path) -> Path:
    """crazylab's wheel for the browser, pure Python (``py3-none-any``: no browser loads an
    x86-64 extension module): built from the checkout when there is one (``CRAZYLAB_PURE=1``,
    so a machine with a compiler does not compile the engine into it), else made from the
    installed package's ``.py`` and data files."""
    repo = checkout()
    if repo is not None:
        run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", dest,
            repo, env={"CRAZYLAB_PURE": "1"})
        wheel = max(dest.glob("crazylab-*.whl"), key=lambda w: w.stat().st_mtime)
        if not wheel.name.endswith("-py3-none-any.whl"):
            raise SiteError(f"{wheel.name}: the browser needs a pure wheel (py3-none-any)")
        return wheel
    import crazylab

    package = Path(crazylab.__file__).resolve().parent
    files = {f"crazylab/{f.relative_to(package).as_posix()}": f.read_bytes()
             for f in sorted(package.rglob("*"))
             if f.is_file() and "__pycache__" not in f.parts
             and f.suffix not in (".pyc", ".so", ".pyd")}  # no compiled module: a pure wheel
    return pure_wheel("crazylab", crazylab.__version__, files, dest,
                      "crazylab for the static site (made from the installed package)")


def _node_modules_ok(folder: Path) -> bool:
    return ((folder / NPM_PYODIDE / "pyodide.asm.wasm").is_file()
            and (folder / NPM_FONTAWESOME / "css" / "all.min.css").is_file())


def cache_folder() -> Path:
    """Where ``npm ci`` fetches the site's npm packages once (per lock file)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    lock = hashlib.sha256((HERE / "package-lock.json").read_bytes()).hexdigest()[:12]
    return base / "crazylab" / f"site-npm-{lock}"


def find_node_modules(given: Path | None = None, *, fetch: bool = True) -> Path:
    """A node_modules with Pyodide's runtime and Font Awesome: ``given``, else
    ``$CRAZYLAB_SITE_NODE_MODULES``, the cache's (`make site-deps` fills it in a checkout);
    else (``fetch``) ``npm ci`` fills the cache from the package's lock file."""
    named = given or (Path(os.environ[NODE_ENV]) if os.environ.get(NODE_ENV) else None)
    if named is not None:
        if not _node_modules_ok(named):
            raise SiteError(f"{named} holds no {NPM_PYODIDE} and {NPM_FONTAWESOME}: run "
                            f"`npm ci` in a folder with {HERE / 'package.json'} and its lock")
        return named.resolve()
    cache = cache_folder()
    if _node_modules_ok(cache / "node_modules"):
        return (cache / "node_modules").resolve()
    if not fetch or shutil.which("npm") is None:
        raise SiteError("the static site needs Pyodide's runtime from npm: install node and npm "
                        f"(then this fetches it once into {cache}), or pass --node-modules DIR")
    cache.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(HERE / name, cache / name)
    run("npm", "ci", "--no-audit", "--no-fund", cwd=cache)
    if not _node_modules_ok(cache / "node_modules"):
        raise SiteError(f"npm ci in {cache} did not give {NPM_PYODIDE} and {NPM_FONTAWESOME}")
    return (cache / "node_modules").resolve()


def node_folder(work: Path, node_modules: Path) -> Path:
    """``work/node``: the builder's node scripts beside a link to ``node_modules`` (they
    import Pyodide from ``./node_modules``)."""
    if shutil.which("node") is None:
        raise SiteError("the static site needs node (https://nodejs.org) to compile the "
                        "browser's Python files")
    node = work / "node"
    shutil.rmtree(node, ignore_errors=True)
    node.mkdir(parents=True)
    for script in ("precompile.mjs", "snapshot.mjs"):
        shutil.copy2(HERE / script, node / script)
    (node / "node_modules").symlink_to(node_modules, target_is_directory=True)
    return node


def folder_notebook(path: Path) -> dict:
    """The site's copy of a notebook of a teacher's folder: links to the rendered pages."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells = nb["cells"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SiteError(f"{path.name} is not a notebook this can read ({e})") from None
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            cell["source"] = site_links("".join(cell["source"]))
    nb.setdefault("metadata", {})["kernelspec"] = {
        "name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    return nb


def build(output: Path, work: Path, *, folder: Path | None = None,
          node_modules: Path | None = None) -> Path:
    """Build the site of ``folder`` (the repository's notebooks by default: the dashboards,
    lessons and reading pages) into ``output``; work files go to ``work``."""
    if folder is None:
        pages = PAGES + LESSONS + READING
        notebooks = {name: page_notebook(name) for name in pages}
    else:
        pages = sorted(p.stem for p in folder.glob("*.ipynb"))
        if not pages:
            raise SiteError(f"{folder} holds no notebook (*.ipynb)")
        notebooks = {name: folder_notebook(folder / f"{name}.ipynb") for name in pages}
    if importlib.util.find_spec("voici_core") is None:
        raise SiteError("the static site needs Voici and JupyterLite: "
                        "pip install 'crazylab[site]'")
    node = node_folder(work, find_node_modules(node_modules))
    work.mkdir(parents=True, exist_ok=True)
    wheels, extensions = build_wheels(work)
    lite = work / "lite"
    shutil.rmtree(lite, ignore_errors=True)
    lite.mkdir()
    preload = pyodide_runtime(lite / "static" / "pyodide", wheels, node)
    contents = work / "contents"
    shutil.rmtree(contents, ignore_errors=True)
    contents.mkdir()
    for name, nb in notebooks.items():
        (contents / f"{name}.ipynb").write_text(json.dumps(nb, indent=1), encoding="utf-8")
    write_config(lite, contents, output, extensions)
    shutil.rmtree(output, ignore_errors=True)
    # Voici's own command (voici_core's __main__ imports a `voici` module it does not ship)
    run(sys.executable, "-c", "import sys; from voici_core.app import main; sys.exit(main())",
        "build", cwd=lite)
    shutil.rmtree(output / "build", ignore_errors=True)  # the JupyterLab app: never loaded
    fix_pages(output, preload, node, pages)
    bad = outside_references(output)
    if bad:
        raise SiteError("the site refers to other hosts:\n" + "\n".join(bad))
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    print(f"site: {output} ({size / 1e6:.1f} MB); serve it with any static web server, e.g. "
          f"`python -m http.server -d {output}`")
    return output


def build_folder(folder: Path, output: Path, work: Path,
                 node_modules: Path | None = None) -> Path:
    """``crazylab site FOLDER -o OUTPUT``: the static site of a folder of notebooks."""
    return build(output, work, folder=folder, node_modules=node_modules)


def main(argv: list[str] | None = None) -> None:
    """`make site`: the repository's site (``python -m crazylab.site.build``); ``--npm-only``
    (`make site-deps`) fetches the npm packages into the cache and prints where they are."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "_site")
    parser.add_argument("--work", type=Path, default=ROOT / "_site_build")
    parser.add_argument("--npm-only", action="store_true",
                        help="only fetch Pyodide and Font Awesome from npm (once, into a cache)")
    args = parser.parse_args(argv)
    try:
        if args.npm_only:
            print(f"site: the npm packages are in {find_node_modules()}")
            return
        build(args.output.resolve(), args.work.resolve())
    except SiteError as e:
        raise SystemExit(f"site: {e}") from None


if __name__ == "__main__":
    main()

"""Build the optional compiled engine: crazylab with its engine modules compiled by mypyc.

Run: ``make compiled`` (or ``.venv/bin/python tools/build_compiled.py [DEST]``, default
``build/compiled``). It copies ``crazylab/`` to
``DEST/crazylab``, compiles the modules of :data:`COMPILED` there in place with mypyc (the
``mypy`` of the test extra; gcc and the Python headers), and checks that the result imports.
The source tree and the installed (editable, pure-Python) package are not touched: the
compiled build is used only where ``DEST`` comes first on the path, e.g.
``PYTHONPATH=build/compiled python -P ...`` (``-P``: the checkout itself is not put first).
``make test-compiled`` runs the test suite so; ``bench/bench_compiled.py`` compares speeds.

The modules compiled are the wheel's (``tools/build_backend.py``: the engine but ``cards.py``,
``rules.py`` and ``options.py``, and ``playout.py``, the bots' loop over a hand's moves); bots,
sim and the rest stay plain Python in the build too. A wheel built on a machine with a
compiler (``pip install .``) holds the same compiled modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from build_backend import can_build, compiled_modules  # noqa: E402  (the wheel's list)

COMPILED = compiled_modules(ROOT)
IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc", ".ipynb_checkpoints")


def build(dest: Path) -> float:
    """Copy and compile into ``dest``; return the seconds it took."""
    t0 = time.monotonic()
    dest.mkdir(parents=True, exist_ok=True)
    for stale in ("crazylab", "build", ".mypy_cache"):
        shutil.rmtree(dest / stale, ignore_errors=True)
    shutil.copytree(ROOT / "crazylab", dest / "crazylab", ignore=IGNORE)
    env = dict(os.environ, PYTHONPATH="")
    subprocess.run([sys.executable, "-m", "mypyc", *COMPILED], cwd=dest, env=env, check=True,
                   stdout=subprocess.DEVNULL if "-q" in sys.argv else None)
    return time.monotonic() - t0


def check(dest: Path) -> None:
    """The build imports, and its engine modules are the compiled ones."""
    names = [p.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
             for p in COMPILED]
    code = ("import importlib, sys; import crazylab; "
            f"bad = [m for m in {names!r} if importlib.import_module(m).__file__.endswith('.py')]; "
            "sys.exit(f'not compiled: {bad}' if bad else 0)")
    subprocess.run([sys.executable, "-P", "-c", code], check=True,
                   env=dict(os.environ, PYTHONPATH=str(dest.resolve())))


def main(argv: list[str]) -> int:
    if "--can-build" in argv:  # exit status only (make test asks before test-compiled)
        return 0 if can_build() else 1
    args = [a for a in argv if not a.startswith("-")]
    dest = Path(args[0]) if args else ROOT / "build" / "compiled"
    secs = build(dest)
    check(dest)
    print(f"compiled {len(COMPILED)} engine modules into {dest} in {secs:.0f} s; use it with "
          f"PYTHONPATH={dest} python -P ...")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

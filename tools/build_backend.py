"""crazylab's build backend: setuptools', which also asks for mypy (mypyc) when a wheel is built
on a machine that can compile the engine (black and mypy ship their wheels compiled so).

- ``pip install crazylab`` from source, ``pip install .``, Binder's ``.`` and ``python -m build``
  build a wheel: where this machine has a C compiler and the Python headers, the engine
  modules of :func:`compiled_modules` are compiled by mypyc (``setup.py``); where it has not,
  or the compile fails, or ``CRAZYLAB_PURE=1`` is set, the wheel is pure Python.
- An editable install (``make venv``: ``pip install -e``) is always pure Python, and asks for
  nothing more than setuptools: the checkout is what runs, so an edit takes effect at once.

The same list of modules is what ``tools/build_compiled.py`` (``make compiled``) compiles.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every other hook, as setuptools has it)

#: what compiles the engine; only a wheel's build asks for it
MYPYC = "mypy>=1.10"
#: what mypyc compiles, relative to the checkout: the rulebook and the turn machine (the game,
#: its moves and events, what a seat observes, the variants' hooks) and the bots' playout
#: loop, which every simulated move runs; the rest of the source (explanations, wording,
#: pitch names, scoring, the rule sets and their options, cards) stays plain Python
COMPILED_MODULES: tuple[str, ...] = (
    "crazylab/engine/events.py",
    "crazylab/engine/game.py",
    "crazylab/engine/moves.py",
    "crazylab/engine/observe.py",
    "crazylab/engine/rulebook.py",
    "crazylab/engine/variants/__init__.py",
    "crazylab/engine/variants/base.py",
    "crazylab/engine/variants/breens.py",
    "crazylab/engine/variants/house.py",
    "crazylab/playout.py",
)


def compiled_modules(root: Path) -> list[str]:
    """The files mypyc compiles (:data:`COMPILED_MODULES`), each checked to exist under the
    checkout ``root``."""
    missing = [m for m in COMPILED_MODULES if not (root / m).is_file()]
    if missing:
        raise FileNotFoundError(f"tools/build_backend.py compiles missing files: {missing}")
    return list(COMPILED_MODULES)


def can_build() -> bool:
    """Whether this machine has what mypyc's output needs: a C compiler and the Python headers."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.is_file()


def wants_compiled() -> bool:
    """Whether a wheel built here gets the compiled engine (``CRAZYLAB_PURE=1``: never)."""
    return os.environ.get("CRAZYLAB_PURE", "") in ("", "0") and can_build()


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    """setuptools' requirements, and mypy where the engine will be compiled."""
    extra = [MYPYC] if wants_compiled() else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]

"""The compiled engine of crazylab's wheel (everything else is declared in pyproject.toml).

When a wheel is built (not an editable install, not an sdist) on a machine that can
(``tools/build_backend.py``), the engine modules are compiled by mypyc into extension modules
that sit beside their ``.py`` files and are imported first. If the compile fails anyway, the
wheel is built pure Python, with one line saying why: it installs either way.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tools"))

from build_backend import compiled_modules, wants_compiled  # noqa: E402


class OptionalBuildExt(build_ext):
    """Build the compiled engine, or leave the wheel pure Python if that fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler after all, a compile error: pure Python
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            self.extensions = []
            print(f"crazylab: the engine was not compiled ({type(exc).__name__}: {exc}); "
                  "the wheel is pure Python", file=sys.stderr)


def engine_extensions() -> list[Any]:
    """mypyc's extension modules for a wheel's build; none for anything else."""
    if "bdist_wheel" not in sys.argv or not wants_compiled():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # a build without the backend's requirements (pip --no-build-isolation)
        print("crazylab: mypy is not installed: the wheel is pure Python", file=sys.stderr)
        return []
    return list(mypycify(compiled_modules(ROOT), opt_level="3"))


if __name__ == "__main__":
    setup(ext_modules=engine_extensions(), cmdclass={"build_ext": OptionalBuildExt})

"""Run the lessons' code cells in this process and collect every exercise they build (for the
tests of the checker, the feedback and cells run twice)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks" / "lessons").glob("[0-9][0-9]_*.py"))


def code_cells(source: Path) -> list[str]:
    """The code cells of a percent-format lesson, in order."""
    cells: list[list[str]] = []
    current: list[str] | None = None
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.startswith("# %%"):
            current = None if "[markdown]" in line or "[raw]" in line else []
            if current is not None:
                cells.append(current)
            continue
        if current is not None:
            current.append(line)
    return ["\n".join(c) for c in cells if any(x.strip() for x in c)]


@contextmanager
def _in_notebooks() -> Iterator[None]:
    here = os.getcwd()
    os.chdir(ROOT / "notebooks")
    try:
        yield
    finally:
        os.chdir(here)


def run_lesson(source: Path, times: int = 1) -> list[Any]:
    """Run every code cell of ``source`` ``times`` times in a row (one namespace, as a kernel
    would) and return the exercises built, in order (each cell's, once per run); the items of
    a practice set (exercises with no exercise id) are not the lesson's."""
    from IPython.core.interactiveshell import InteractiveShell

    from crazylab.widgets import exercise

    made: list[Any] = []
    init = exercise.Exercise.__init__

    def recording(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    shell = InteractiveShell.instance()
    exercise.Exercise.__init__ = recording  # type: ignore[method-assign]
    try:
        with _in_notebooks():
            ns: dict[str, Any] = {"__name__": "__main__"}
            for cell in code_cells(source):
                for _ in range(times):
                    code = shell.transform_cell(cell)
                    exec(compile(code, f"{source.name}", "exec"), ns)  # noqa: S102
    finally:
        exercise.Exercise.__init__ = init  # type: ignore[method-assign]
    return [e for e in made if e.exercise_id is not None]

"""How long each lesson takes to run top to bottom (a fresh kernel per lesson, as nbval and
Voilà run them), against a baseline notebook measured in the same run (one cell that imports
crazylab), so the ratio says what the lesson itself costs.

    .venv/bin/python bench/bench_lessons.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def run(nb: nbformat.NotebookNode) -> float:
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return time.perf_counter() - t0


def main() -> None:
    base = nbformat.v4.new_notebook()
    base.cells = [nbformat.v4.new_code_cell("import crazylab\nimport crazylab.widgets")]
    baseline = run(base)
    print(f"{'baseline (import crazylab)':32} {baseline:6.1f} s")
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if len(sys.argv) > 1 and not any(a in path.name for a in sys.argv[1:]):
            continue
        took = run(nbformat.read(path, as_version=4))
        print(f"{path.name:32} {took:6.1f} s  ({took / baseline:4.1f} × baseline)")


if __name__ == "__main__":
    main()

"""Link the wheel's Jupyter data files into this environment, for an editable install.

A wheel installs ``[tool.setuptools.data-files]`` (the ``crazylab`` Voilà template and the
``etc/jupyter/voila.json`` that selects it) under ``sys.prefix``; setuptools' editable install
(``make venv``, ``pip install -e .``) installs none, so plain ``voila notebooks`` in a checkout
answered every page with 500 ``TemplateNotFound``. This links each file of the table from the
checkout (symlinks: an edited template is served at once), so a clone gets what a wheel gets.

    .venv/bin/python tools/link_jupyter_data.py        # make venv runs it
"""

from __future__ import annotations

import glob
import os
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_files(root: Path = ROOT) -> dict[str, list[Path]]:
    """The wheel's data files: a folder under the prefix -> the checkout's files for it."""
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    spec = table["tool"]["setuptools"]["data-files"]
    return {dest: sorted(Path(p) for pattern in patterns
                         for p in glob.glob(str(root / pattern)) if Path(p).is_file())
            for dest, patterns in spec.items()}


def link(prefix: Path = Path(sys.prefix), root: Path = ROOT) -> list[Path]:
    """Symlink every data file under ``prefix``; the links made or renewed."""
    made = []
    for dest, files in data_files(root).items():
        folder = prefix / dest
        folder.mkdir(parents=True, exist_ok=True)
        for source in files:
            target = folder / source.name
            if target.is_symlink() or target.exists():
                if target.is_symlink() and target.resolve() == source.resolve():
                    continue
                target.unlink()
            os.symlink(source, target)
            made.append(target)
    return made


if __name__ == "__main__":
    made = link()
    print(f"crazylab: {len(made)} Jupyter data file(s) linked into {sys.prefix}"
          if made else f"crazylab: the Jupyter data files are linked into {sys.prefix}")

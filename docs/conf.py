"""Sphinx configuration of crazylab's documentation site (``make docs`` → ``_build/docs``).

MyST-NB reads the Markdown pages and the lessons (``lessons/*.ipynb``, copied from
``notebooks/0*.ipynb`` on each build), shown with the outputs they were saved with: nothing is
executed. The lessons' links to the Voilà app's pages (the rulebook notebook, the glossary,
the rules sheets, the index) are pointed at this site's pages as they are read.
The API reference is generated from the docstrings (autodoc + autosummary). The build runs
with ``-W -n``: a warning or an unresolved cross-reference fails it; ``check_links.py`` then
checks every local link of the built pages (offline; no ``linkcheck``).
"""

from __future__ import annotations

import importlib
import re
import shutil
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import crazylab  # noqa: E402  (installed: `make venv`, editable)
from crazylab import rulebook  # noqa: E402

# ``python -m crazylab``'s module runs the command line when imported: autosummary's scan of
# the package imports this empty stand-in instead (the API pages leave it out).
sys.modules["crazylab.__main__"] = types.ModuleType("crazylab.__main__")

DOCS = ROOT / "docs"
LESSONS = DOCS / "lessons"
for _old in LESSONS.glob("*.ipynb"):
    if not (ROOT / "notebooks" / _old.name).is_file():
        _old.unlink()
for _lesson in sorted((ROOT / "notebooks").glob("0*.ipynb")):
    _copy = LESSONS / _lesson.name
    if not _copy.is_file() or _copy.read_bytes() != _lesson.read_bytes():
        shutil.copyfile(_lesson, _copy)

#: the rulebook page (``docs/rulebook/PAGE.md``) of each rule id
RULE_PAGE = {rid: entry.page for rid, entry in rulebook.entries().items()}
#: the app's notebooks the lessons and the glossary link to → this site's pages
APP_PAGES = {"index": "lessons.md", "glossary": "glossary.md", "sheets": "sheets.md",
             "rulebook": "rulebook.md"}
_APP_LINK = re.compile(r"\]\((index|glossary|sheets|rulebook|0\d_\w+)\.ipynb(?:#([^)\s]+))?\)")
_RAW_LINK = re.compile(r"\b(index|glossary|sheets|rulebook)\.ipynb(?:#([A-Za-z0-9-]+))?")
GLOSSARY = ROOT / "notebooks" / "glossary.md"
SHEETS = ROOT / "notebooks" / "sheets"


def _site_links(text: str, up: str) -> str:
    """``text``'s links to the app's notebooks, pointed at this site's pages (``up``: the way
    from the page to the site's root, ``""`` or ``"../"``)."""

    def link(match: re.Match[str]) -> str:
        page, anchor = match.group(1), match.group(2)
        if page == "rulebook" and anchor in RULE_PAGE:
            return f"]({up}rulebook/{RULE_PAGE[anchor]}.md#{anchor.lower()})"
        if page in APP_PAGES:
            return f"]({up}{APP_PAGES[page]})"
        return f"]({up}lessons/{page}.ipynb{'#' + anchor if anchor else ''})"

    def raw(match: re.Match[str]) -> str:  # in HTML the outputs and widgets hold
        page, anchor = match.group(1), match.group(2)
        if page == "rulebook" and anchor in RULE_PAGE:
            return f"{up}rulebook/{RULE_PAGE[anchor]}.html#{anchor.lower()}"
        return f"{up}{APP_PAGES[page].removesuffix('.md')}.html"

    return _RAW_LINK.sub(raw, _APP_LINK.sub(link, text))


def _read(app: Any, docname: str, source: list[str]) -> None:
    """The lessons' links to the app's notebooks pointed at this site's pages; the glossary
    page is ``notebooks/glossary.md`` with its links pointed the same way, the rules sheets
    page every ``notebooks/sheets/*.md`` (written by ``make lessons``)."""
    if docname.startswith("lessons/"):
        source[0] = _site_links(source[0], "../")
    elif docname == "glossary":
        source[0] = _site_links(GLOSSARY.read_text(encoding="utf-8"), "")
    elif docname == "sheets":
        sheets = [re.sub(r"^#", "##", p.read_text(encoding="utf-8"), flags=re.MULTILINE)
                  for p in sorted(SHEETS.glob("*.md"))]
        source[0] = source[0].split("<!--", 1)[0] + "\n\n".join(sheets)


def _alias(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A name a package re-exports (``crazylab.Game``, ``crazylab.widgets.GameTable``,
    ``crazylab.classroom.open_store`` …) resolves to where the object is documented
    (``crazylab.engine.game.Game``)."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("crazylab."):
        return None
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
        break
    else:
        return None
    where = f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"
    if obj is None or not hasattr(obj, "__qualname__") or where == target:
        return None
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                             where, node, contnode)


def setup(app: Any) -> None:
    app.connect("source-read", _read)
    app.connect("missing-reference", _alias)

project = "crazylab"
author = "crazylab contributors"
copyright = "crazylab contributors"
release = version = crazylab.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "options_md.py"]
html_theme = "alabaster"
html_title = f"crazylab {release}"
html_static_path: list[str] = []
templates_path = ["_templates"]

# The lessons as they were built by `make lessons` (executed, widget state saved).
nb_execution_mode = "off"
# Plotly figures were saved as their own mimetype (PLOTLY_RENDERER=plotly_mimetype) beside a
# text form; widget views render from the saved widget state.
nb_render_priority_extra = {"html": ["application/vnd.plotly.v1+json"]}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4
suppress_warnings = [
    # The rulebook's pages (crazylab/rulebook/*.md) go from a page title to rule headings (###).
    "myst.header",
    # MyST-NB has no renderer for Plotly's JSON: the text/html or text/plain form beside it.
    "mystnb.unknown_mime_type",
]

# API reference
autosummary_generate = True
autodoc_default_options = {"members": True, "undoc-members": True, "ignore-module-all": True,
                           "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True
# Cross-references to crazylab's API must resolve (``-n``). Loose names in docstrings (a
# constant of the same module, the standard library, pandas, ipywidgets: no intersphinx
# offline) and private helpers are not checked.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(?!crazylab\.).*"),
    (r"py:.*", r"crazylab\..*\._\w+.*"),
]

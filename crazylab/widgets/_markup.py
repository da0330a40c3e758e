"""Markup and style kept beside a widget, not in its Python: ``<stem>.html`` holds the widget's
named HTML fragments, ``<stem>.css`` its style sheet (anywidget's ``_esm``/``_css`` beside
the class, for the widgets composed of ipywidgets).

A fragment file is plain HTML; each fragment starts with a line ``<!-- fragment: name -->``
and uses ``$field`` placeholders (:class:`string.Template`). Filling one escapes every value
unless it is :class:`Html` (markup already built, e.g. another fragment), so text from a user
or a rule set can never become markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from pathlib import Path
from string import Template

import ipywidgets as w

HERE = Path(__file__).resolve().parent
_FRAGMENT = re.compile(r"^<!-- fragment: ([a-z_][a-z0-9_]*) -->\n", re.MULTILINE)


class Html(str):
    """Markup that a fragment inserts as it is (everything else is escaped)."""

    __slots__ = ()


class Markup:
    """The named fragments of ``<stem>.html`` beside the widgets."""

    def __init__(self, stem: str, folder: Path = HERE) -> None:
        self.path = folder / f"{stem}.html"
        parts = _FRAGMENT.split(self.path.read_text(encoding="utf-8"))
        if parts[0].strip() and not parts[0].lstrip().startswith("<!--"):
            raise ValueError(f"{self.path.name}: text before the first fragment")
        self.fragments: dict[str, Template] = {}
        for name, body in zip(parts[1::2], parts[2::2], strict=True):
            if name in self.fragments:
                raise ValueError(f"{self.path.name}: fragment {name!r} is defined twice")
            self.fragments[name] = Template(body.strip())

    def __call__(self, fragment: str, /, **values: object) -> Html:
        """Fragment ``fragment`` with ``values`` filled in (escaped unless :class:`Html`); a
        missing or unknown placeholder is an error, not a blank."""
        template = self.fragments[fragment]
        filled = {k: v if isinstance(v, Html) else html.escape(str(v)) for k, v in values.items()}
        unused = set(filled) - set(template.get_identifiers())
        if unused:
            raise KeyError(f"{self.path.name}: fragment {fragment!r} has no {sorted(unused)}")
        return Html(template.substitute(filled))

    @staticmethod
    def join(parts: Iterable[object]) -> Html:
        """Several fragments (or escaped texts) one after the other."""
        return Html("".join(p if isinstance(p, Html) else html.escape(str(p)) for p in parts))


def style_sheet(stem: str, folder: Path = HERE) -> w.HTML:
    """``<stem>.css`` as a child widget: put it first in the composed widget's children."""
    css = (folder / f"{stem}.css").read_text(encoding="utf-8")
    sheet = w.HTML(f"<style>{css}</style>")
    sheet.add_class("crazylab-style")
    return sheet

"""How engine objects show themselves in a notebook without the engine importing a renderer.

A renderer above the engine (:mod:`crazylab.render`) registers a function per class;
``Card._repr_svg_`` and ``Game._repr_html_`` ask here. With nothing registered they return
``None`` and Jupyter falls back to the text ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_HTML: dict[type, Callable[[Any], str]] = {}
_SVG: dict[type, Callable[[Any], str]] = {}


def register(cls: type, *, html: Callable[[Any], str] | None = None,
             svg: Callable[[Any], str] | None = None) -> None:
    """Show instances of ``cls`` with these functions."""
    if html is not None:
        _HTML[cls] = html
    if svg is not None:
        _SVG[cls] = svg


def html_of(obj: object) -> str | None:
    render = _HTML.get(type(obj))
    return None if render is None else render(obj)


def svg_of(obj: object) -> str | None:
    render = _SVG.get(type(obj))
    return None if render is None else render(obj)

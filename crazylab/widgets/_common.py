"""Shared plumbing for the widgets: error areas that never swallow a callback's exception,
call labels, and the query string of a Voilà page."""

from __future__ import annotations

import functools
import logging
import os
import traceback
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs

import ipywidgets as w

from ._markup import HERE, Html, Markup

log = logging.getLogger("crazylab.widgets")

F = TypeVar("F", bound=Callable[..., Any])
MARKUP = Markup("common")


def error_text(exc: BaseException, where: str = "") -> str:
    """The message an error area shows: what failed, then the traceback."""
    head = f"{where} failed: " if where else ""
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return f"{head}{type(exc).__name__}: {exc}\n\n{tb}"


class ErrorReporting:
    """Mixin: ``report_error`` logs an exception and shows it under the widget, in its
    ``error_area`` (an :class:`ErrorArea`) unless ``_show_error(text)`` is overridden;
    ``errors`` keeps every message (tests read it)."""

    errors: list[str]

    def report_error(self, exc: BaseException, where: str = "") -> None:
        log.error("crazylab widget: %s failed", where or type(self).__name__,
                  exc_info=(type(exc), exc, exc.__traceback__))
        text = error_text(exc, where)
        if not hasattr(self, "errors"):
            self.errors = []
        self.errors.append(text)
        self._show_error(text)

    def _show_error(self, text: str) -> None:
        self.error_area.show(text)  # type: ignore[attr-defined]

    def clear_error(self) -> None:
        self._show_error("")


def guarded(method: F) -> F:
    """Run a callback; an exception is logged and shown in the widget's error area instead
    of vanishing into the kernel log."""

    @functools.wraps(method)
    def wrapper(self: ErrorReporting, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            self.report_error(exc, method.__name__.lstrip("_"))
            return None

    return wrapper  # type: ignore[return-value]


class ErrorArea(w.HTML):
    """A red box under a composed widget; hidden while there is no error.

    The box carries its own style sheet (common.css) in its value: every widget has an error
    area, and a sheet inside the box reaches every page that shows one without each composed
    widget adding a child for it (the sheet is there only while the box is shown)."""

    def __init__(self) -> None:
        super().__init__(value="", layout=w.Layout(display="none"))
        self.add_class("crazylab-error")

    def show(self, text: str) -> None:
        if not text:
            self.value = ""
            self.layout.display = "none"
            return
        head, _, rest = text.partition("\n\n")
        details = MARKUP("details", rest=rest) if rest else ""
        self.value = Markup.join([MARKUP("sheet", css=Html(_css())),
                                  MARKUP("error", head=head, details=Html(details))])
        self.layout.display = ""


@functools.cache
def _css() -> str:
    """common.css, read once."""
    return (HERE / "common.css").read_text(encoding="utf-8")


def build_or_default(cls: Any, kwargs: dict[str, Any], defaults: dict[str, Any]) -> Any:
    """``cls(**kwargs)`` from a page's address; if the address asks for something impossible
    (an unknown rule set, a word where a number goes), the defaults, with the problem shown
    in the widget's error area as one line (no traceback: the reader of a page did nothing
    wrong in Python)."""
    try:
        return cls(**kwargs)
    except Exception as e:
        from ._validate import one_line

        widget = cls(**defaults)
        log.warning("crazylab widget: the page's address was not used: %s", one_line(e))
        text = f"reading the page's address failed: {one_line(e)}"
        if not hasattr(widget, "errors"):
            widget.errors = []
        widget.errors.append(text)
        widget._show_error(text)
        return widget


def query_params(query: str | None = None) -> dict[str, str]:
    """The page's query parameters (``?example=…&step=…``) as a dict of strings.

    Voilà puts the request's query string into the kernel's environment as
    ``QUERY_STRING``; with a preheated kernel it must be waited for with
    ``voila.utils.get_query_string``. Outside Voilà the result is empty."""
    if query is None:
        if os.environ.get("VOILA_PREHEAT") == "True":  # pragma: no cover - Voilà preheat
            from voila.utils import get_query_string

            query = get_query_string() or ""
        else:
            query = os.environ.get("QUERY_STRING", "")
    return {k: v[-1] for k, v in parse_qs(query.lstrip("?")).items()}

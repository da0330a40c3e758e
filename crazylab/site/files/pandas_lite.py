"""A stand-in for the few pandas calls the lessons make, for the static site's lesson pages.

Pyodide's pandas (with numpy) is not part of the site: about 10 MB more for every visit, to
show four small tables. ``crazylab/site/build.py`` puts this module's source in a first
(hidden) cell of each lesson's site copy, which registers it as ``pandas`` in that page's
kernel only. It knows
exactly what the lessons ask of pandas (``tests/test_site.py`` checks the lessons' own tables
through it): a frame from records or from a dict of columns, ``set_index``, ``reset_index``,
``iterrows``, ``round``, ``nunique(axis=1) > 1`` as a row filter, ``option_context`` and
``set_option`` (no-ops), and an HTML table. Anything else raises ``NotImplementedError`` saying
that the Voilà app has the real pandas.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

__version__ = "0.0+crazylab-site"

APOLOGY = ("the static site's stand-in for pandas does not do this; the Voilà app (or Binder) "
           "runs the lessons with the real pandas")


class option_context:  # noqa: N801 - pandas' name
    """Display options change nothing here: every cell is shown whole."""

    def __init__(self, *args: Any) -> None:
        pass

    def __enter__(self) -> option_context:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def set_option(*args: Any) -> None:
    """A no-op, as ``option_context``."""


class Series(list):
    """A column of values: only comparisons to a row filter."""

    def __gt__(self, other: Any) -> list[bool]:  # type: ignore[override]
        return [v > other for v in self]


class DataFrame:
    """Rows of values under named columns, with an index (row labels)."""

    def __init__(self, data: Any = None, columns: list[str] | None = None) -> None:
        if isinstance(data, dict):  # column -> {row label: value}
            cols = list(data)
            index: list[Any] = []
            for col in cols:
                index.extend(k for k in data[col] if k not in index)
            rows = [[data[c].get(k) for c in cols] for k in index]
        else:
            records = [dict(r) for r in (data or [])]
            cols = list(columns) if columns is not None else list(
                dict.fromkeys(k for r in records for k in r))
            index = list(range(len(records)))
            rows = [[r.get(c) for c in cols] for r in records]
        self.columns, self.index, self._rows = cols, index, rows
        self.index_name: str | None = None

    def _like(self, index: list[Any], rows: list[list[Any]], columns: list[str] | None = None,
              index_name: str | None = None) -> DataFrame:
        new = DataFrame([], columns=columns if columns is not None else self.columns)
        new.index, new._rows, new.index_name = index, rows, index_name
        return new

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, key: Any) -> DataFrame:
        if isinstance(key, list) and all(isinstance(k, bool) for k in key):
            kept = [i for i, keep in enumerate(key) if keep]
            return self._like([self.index[i] for i in kept], [self._rows[i] for i in kept],
                              index_name=self.index_name)
        raise NotImplementedError(APOLOGY)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"DataFrame.{name}: {APOLOGY}")

    def set_index(self, column: str) -> DataFrame:
        at = self.columns.index(column)
        return self._like([r[at] for r in self._rows],
                          [r[:at] + r[at + 1:] for r in self._rows],
                          self.columns[:at] + self.columns[at + 1:], column)

    def reset_index(self) -> DataFrame:
        return self._like(list(range(len(self._rows))),
                          [[label, *r] for label, r in zip(self.index, self._rows, strict=True)],
                          [self.index_name or "index", *self.columns])

    def iterrows(self) -> Iterator[tuple[Any, dict[str, Any]]]:
        for label, row in zip(self.index, self._rows, strict=True):
            yield label, dict(zip(self.columns, row, strict=True))

    def round(self, digits: int = 0) -> DataFrame:
        return self._like(self.index, [[round(v, digits) if isinstance(v, float) else v
                                        for v in r] for r in self._rows],
                          index_name=self.index_name)

    def nunique(self, axis: int = 0, dropna: bool = True) -> Series:
        if axis != 1:
            raise NotImplementedError(APOLOGY)
        return Series(len({repr(v) for v in r if dropna is False or v is not None})
                      for r in self._rows)

    def __repr__(self) -> str:
        head = [self.index_name or "", *map(str, self.columns)]
        lines = [head] + [[str(label), *map(str, r)]
                          for label, r in zip(self.index, self._rows, strict=True)]
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        return "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True))
                         for line in lines)

    def _repr_html_(self) -> str:
        def cells(tag: str, values: list[Any]) -> str:
            return "".join(f"<{tag}>{html.escape(str(v))}</{tag}>" for v in values)

        head = f"<tr>{cells('th', [self.index_name or '', *self.columns])}</tr>"
        body = "".join(f"<tr><th>{html.escape(str(label))}</th>{cells('td', r)}</tr>"
                       for label, r in zip(self.index, self._rows, strict=True))
        return (f"<table class='dataframe'><thead>{head}</thead><tbody>{body}</tbody>"
                "</table>")

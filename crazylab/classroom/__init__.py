"""The class: classes, learners and their progress kept in a database (issue 22).

:mod:`crazylab.classroom.store` holds the model (read its docstring) and its queries, over the
one persistence layer :mod:`crazylab.store`; :mod:`crazylab.classroom.catalog` lists the
lesson and exercise ids a record may name.
Importing this package is cheap: the store (and SQLAlchemy) load on first use of one of its
names, e.g. ``from crazylab.classroom import open_store``.
"""

from __future__ import annotations

from typing import Any

_STORE_NAMES = frozenset({
    "Attempt", "ClassError", "ClassInfo", "ClassReport", "Learner", "LessonProgress",
    "NewClass", "PracticeItem", "Store", "StoreUnavailable", "open_store", "rows_to_csv",
})

__all__ = sorted(_STORE_NAMES)


def __getattr__(name: str) -> Any:
    if name in _STORE_NAMES:
        from . import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

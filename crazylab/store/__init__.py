"""The one persistence layer, below the class store and the shared tables: the database
(:class:`Database`: engine, migrations, the writers' turn, errors), its schema
(:mod:`.schema`), secrets at rest (:mod:`.keys`) and names (:mod:`.names`). Importing it is
cheap (a kernel's recorder hashes with it): SQLAlchemy loads with the first database name."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .keys import SECRET_MAX, class_code, keyed, secret_hash, secret_matches
from .names import NAME_MAX, display_name, utf8_text

if TYPE_CHECKING:
    from . import schema as schema
    from .database import Database as Database
    from .database import make_engine as make_engine
    from .database import sqlite_file as sqlite_file
    from .database import sqlite_url as sqlite_url

_LAZY = {"Database": ".database", "make_engine": ".database", "sqlite_file": ".database",
         "sqlite_url": ".database", "schema": ".schema"}

__all__ = ["NAME_MAX", "SECRET_MAX", "Database", "class_code", "display_name", "keyed",
           "make_engine", "schema", "secret_hash", "secret_matches", "sqlite_file", "sqlite_url",
           "utf8_text"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name], __name__)
    value = module if name == "schema" else getattr(module, name)
    globals()[name] = value
    return value

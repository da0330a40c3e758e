"""What people type that the database keeps: names (on the engine's checks)."""

from __future__ import annotations

from typing import Any

from ..engine.checks import utf8_text
from ..errors import CrazylabError, quote

#: the longest display name (a learner's, a class's, a seat's, a tournament player's)
NAME_MAX = 40


def display_name(value: Any, what: str, error: type[CrazylabError]) -> str:
    """``value`` as a name is kept: runs of spaces made one, trimmed, 1 to :data:`NAME_MAX`
    printable characters (``error`` naming ``what`` otherwise)."""
    if not isinstance(value, str):
        raise error(f"the {what} must be text, not {quote(value)}")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise error(f"the {what} must be 1 to {NAME_MAX} printable characters, not "
                    f"{quote(name)}")
    return utf8_text(name, f"the {what}", error)

"""The project's own error base and the one rule for quoting input in messages."""

from __future__ import annotations

QUOTE_LIMIT = 80


class CrazylabError(ValueError):
    """Every refusal of the engine: a message a learner understands; nothing has changed."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to at most ``limit`` characters (a huge input never floods a
    message). Never raises, whatever the value."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ (or a huge int beyond str conversion)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"

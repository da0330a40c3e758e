"""The project's own error base and the one rule for quoting input in messages."""

from __future__ import annotations

QUOTE_LIMIT = 80
"""The most characters of an input value that a message quotes."""


class CrazylabError(ValueError):
    """Every refusal of the engine: a message a learner understands; nothing has changed."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters, safe for any value (huge ints, deep lists,
    objects whose ``repr`` fails)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        text = f"<a whole number of about {int(value.bit_length() * 0.30103)} digits>"
    else:
        try:
            text = repr(value)
        except Exception:  # a broken __repr__, RecursionError, …
            text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."

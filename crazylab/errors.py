"""The one error contract of crazylab: every refusal is a :class:`CrazylabError` (a
``ValueError``) whose message quotes at most :data:`QUOTE_LIMIT` characters of the input, and
the object refused is left as it was. Defined in :mod:`crazylab.engine.errors`."""

from __future__ import annotations

from .engine.errors import QUOTE_LIMIT, CrazylabError, int_digits, quote

__all__ = ["QUOTE_LIMIT", "CrazylabError", "int_digits", "quote"]

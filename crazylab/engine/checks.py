"""The one vocabulary of argument checks. Every layer refuses a bad value through these, with
its own error class (a :class:`~crazylab.engine.errors.CrazylabError`) and in the same words:
``players must be a whole number from 2 to 8, not 9``.

>>> whole("opponents", 2, 1, 3)
2
>>> whole("opponents", True, 1, 3)
Traceback (most recent call last):
...
crazylab.engine.errors.CrazylabError: opponents must be a whole number from 1 to 3, not True
"""

from __future__ import annotations

import math

from .errors import CrazylabError, quote

__all__ = ["flag", "flag_or_none", "number", "text", "utf8_text", "whole"]


def flag(what: str, value: object, error: type[CrazylabError] = CrazylabError) -> bool:
    """``True`` or ``False`` (``"no"`` and ``0`` are not booleans)."""
    if value is True or value is False:
        return value
    raise error(f"{what} must be True or False, not {quote(value)}")


def flag_or_none(what: str, value: object, error: type[CrazylabError] = CrazylabError
                 ) -> bool | None:
    """``True``, ``False`` or ``None`` (the default chosen later)."""
    if value is None:
        return None
    if value is True or value is False:
        return value
    raise error(f"{what} must be True, False or None, not {quote(value)}")


def whole(what: str, value: object, low: int | None = None, high: int | None = None,
          error: type[CrazylabError] = CrazylabError) -> int:
    """A whole number (an ``int``: not a bool, a card or ``1.7``) from ``low`` to ``high``."""
    if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
        return value
    if low is not None and high is not None:
        allowed = f"a whole number from {low} to {high}"
    elif low is not None:
        allowed = f"a whole number of at least {low}"
    elif high is not None:
        allowed = f"a whole number of at most {high}"
    else:
        allowed = "a whole number"
    raise error(f"{what} must be {allowed}, not {quote(value)}")


def number(what: str, value: object, low: float, high: float,
           error: type[CrazylabError] = CrazylabError) -> float:
    """A finite number (an ``int`` or a ``float``, not a bool) from ``low`` to ``high``."""
    if type(value) is int or type(value) is float:
        try:
            x = float(value)
        except OverflowError:  # an int too large for a float: out of range
            x = math.inf
        if math.isfinite(x) and low <= x <= high:
            return x
    raise error(f"{what} must be a number from {low:g} to {high:g}, not {quote(value)}")


def text(what: str, value: object, limit: int, error: type[CrazylabError] = CrazylabError, *,
         empty: bool = True, optional: bool = False) -> str | None:
    """Text of at most ``limit`` characters that can be stored (no NUL, no lone surrogate),
    not blank unless ``empty``; ``None`` when ``optional``."""
    if optional and value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        kind = f"text of at most {limit} characters" + (" or None" if optional else "")
        raise error(f"{what} must be {kind}, not {quote(value)}")
    if not empty and not value.strip():
        raise error(f"{what} must not be empty")
    if "\x00" in value:
        raise error(f"{what} holds a NUL character")
    return utf8_text(value, what, error)


def utf8_text(value: str, what: str, error: type[CrazylabError] = CrazylabError) -> str:
    """``value`` if it is text that can be stored as UTF-8 (a lone surrogate cannot)."""
    if not isinstance(value, str):
        raise error(f"{what} must be text, not {quote(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{what} holds a character that is not valid text (a lone "
                    "surrogate)") from None
    return value

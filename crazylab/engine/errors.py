"""The one error contract of crazylab: every refusal is a :class:`CrazylabError`.

A :class:`CrazylabError` is a :class:`ValueError`, so ``except ValueError`` keeps working. Its
message says what was wrong in words a learner understands (naming the option, card, seat or
key and the values allowed), and quotes at most :data:`QUOTE_LIMIT` characters of the input
(:func:`quote`). The object refused (a game, a match, a file) is left exactly as it was.

It sits at the bottom of the engine and imports nothing, so every layer can use it;
``crazylab.errors`` is the same module's public face.
"""

from __future__ import annotations

from typing import Any

__all__ = ["QUOTE_LIMIT", "CrazylabError", "Given", "int_digits", "quote"]

#: The type of a public parameter whose value is checked inside the function (a move or its
#: text, a flag, a list of cards …; the docstring says what is allowed). It is ``Any`` so the
#: compiled (mypyc) build lets every value reach that check, which refuses it with a
#: :class:`CrazylabError` naming it, instead of a bare ``TypeError`` at a typed parameter.
Given = Any

#: how many characters of a user's input a message may quote
QUOTE_LIMIT = 80


class CrazylabError(ValueError):
    """The base of every error crazylab raises on purpose (bad cards, moves, rules, files)."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how much was left out.

    >>> quote("6H")
    "'6H'"
    >>> quote("x" * 1000, limit=20)
    "'xxxxxxxxxxxxxxxxxx… (1000 characters)"

    Safe for any value: huge integers (whose ``repr`` Python refuses past 4,300 digits), deep
    nesting and objects whose ``repr`` fails are described instead of raising.
    """
    limit = max(limit, 8)
    if isinstance(value, int) and not isinstance(value, bool):
        digits = int_digits(value)
        if digits > limit:
            return f"{'a negative' if value < 0 else 'an'} integer of {digits} digits"
    size = ""
    if isinstance(value, str):
        size = f"{len(value)} characters"
        value = value[: 4 * limit]  # only the head is shown: no need to repr a megabyte
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        size = f"{len(value)} items"
    try:
        text = repr(value)
    except Exception:  # deep nesting (RecursionError), a user's broken __repr__ ...
        return f"<a {type(value).__name__} that cannot be shown>"
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({size or f'{len(text)} characters'})"


def int_digits(value: int) -> int:
    """The number of decimal digits of ``value``, without converting it to text (which Python
    refuses past 4,300 digits); exact up to 100,000 digits, within one beyond."""
    n = abs(value)
    if n < 10:
        return 1
    # bit_length * log10(2), corrected by one comparison
    digits = int(n.bit_length() * 0.30102999566398120) + 1
    if digits <= 100_000 and n < 10 ** (digits - 1):
        digits -= 1
    return digits

"""Secrets at rest: a learner's, a seat's or a teacher's secret is stored only as its hash,
and checked in constant time (an unknown owner takes as long as a wrong secret)."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

#: the longest secret checked (a longer one is wrong without hashing it)
SECRET_MAX = 200


def secret_hash(secret: str) -> str:
    """The SHA-256 of ``secret`` (hex): what is stored instead of it."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def secret_matches(stored: str | None, secret: Any) -> bool:
    """Whether ``secret`` is the one whose hash is ``stored`` (``None``: no such owner; the
    check takes the same time)."""
    if not isinstance(secret, str) or len(secret) > SECRET_MAX:
        return False
    expected = stored if stored is not None else secret_hash(secrets.token_hex(8))
    return hmac.compare_digest(expected, secret_hash(secret)) and stored is not None


def class_code(code: str) -> str:
    """A class code as stored: spaces and dashes dropped, upper case (``abcd-efgh`` ->
    ``ABCDEFGH``)."""
    return re.sub(r"[\s-]", "", code).upper()

"""Secrets at rest: a learner's, a seat's or a teacher's secret is stored only as its hash,
and checked in constant time (an unknown owner takes as long as a wrong secret); what must be
derived (a hub learner's token, a table's deal) is keyed by the server's own secret, kept
outside the database (:func:`server_secret`), so the database alone gives nothing away."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import Any

#: the server's secret, if given (else a key file beside the database, made on first use)
SERVER_SECRET_ENV = "CRAZYLAB_SERVER_SECRET"

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


def server_secret(key_file: Path) -> bytes:
    """The server's secret: ``$CRAZYLAB_SERVER_SECRET``, else the key file (256 random bits,
    made its owner's alone, 0600, on first use; never in the database)."""
    given = os.environ.get(SERVER_SECRET_ENV)
    if given:
        return given.encode()
    try:
        return key_file.read_bytes().strip()
    except FileNotFoundError:
        pass
    key_file.parent.mkdir(parents=True, exist_ok=True)
    draft = key_file.with_name(f".{key_file.name}.{secrets.token_hex(8)}")
    fd = os.open(draft, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    try:  # whole or not at all: the first process's key is everybody's
        os.link(draft, key_file)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return key_file.read_bytes().strip()


def keyed(secret: bytes, *parts: object) -> str:
    """HMAC-SHA256 of ``parts`` under ``secret`` (hex): a value only the server can derive."""
    message = "\0".join(str(p) for p in parts).encode("utf-8", "surrogatepass")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()

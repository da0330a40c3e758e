"""``bounded(seconds, what)``: fail a test whose call runs past a time bound (SIGALRM; the
tests run in the main thread). Shared by the bad-input property tests."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

import pytest


class _TooLong(BaseException):
    pass


@contextlib.contextmanager
def bounded(seconds: float, what: str = "the call") -> Iterator[None]:
    """Fail with "<what> ran past <seconds> s" when the body runs longer."""
    def ring(*_: object) -> None:
        raise _TooLong

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _TooLong:
        pytest.fail(f"{what} ran past {seconds} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)

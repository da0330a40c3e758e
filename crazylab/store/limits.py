"""Rate limits of the servers: at most ``limit`` events per ``period`` seconds per client.

A client is a string the server decides: a hub user, a learner's or a seat's hashed token,
else an address. ``""`` is a caller inside the process (a tournament, a test): never limited.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

__all__ = ["Window"]

#: clients remembered before the quiet ones are forgotten
REMEMBERED = 10_000


class Window:
    """A sliding window: :meth:`hit` counts one event of a client and refuses the one over
    the limit with ``error(message, retry_after)``; :meth:`check` refuses without counting
    (count only failures: a wrong key is counted after it was found wrong)."""

    def __init__(self, limit: int, period: float, what: str,
                 error: Callable[[str, float], Exception]) -> None:
        self.limit, self.period, self.what, self.error = limit, period, what, error
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _times(self, key: str, now: float) -> deque[float]:
        if len(self._seen) > REMEMBERED:
            for k in [k for k, q in self._seen.items() if not q or q[-1] <= now - self.period]:
                del self._seen[k]
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.period:
            times.popleft()
        return times

    def _refuse_full(self, times: deque[float], now: float) -> None:
        if len(times) >= self.limit:
            wait = max(times[0] + self.period - now, 0.001)
            raise self.error(f"too many {self.what}: try again in {wait:.1f} s", wait)

    def check(self, key: str, now: float) -> None:
        """Refuse when ``key`` is at its limit; count nothing."""
        if key:
            with self._lock:
                self._refuse_full(self._times(key, now), now)

    def hit(self, key: str, now: float) -> None:
        """Count one event of ``key``, refused when it is over the limit."""
        if key:
            with self._lock:
                times = self._times(key, now)
                self._refuse_full(times, now)
                times.append(now)

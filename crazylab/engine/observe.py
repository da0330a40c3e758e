"""What one seat may see: the only view bots and widgets get of a game.

An :class:`Observation` is built per decision, so it must cost the same late in a hand as
early: the event log as the seat sees it is kept incrementally per seat (:class:`VisibleLog`)
and copied out only when someone reads ``observation.events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .events import Event
from .moves import Move
from .rules import RuleSet

__all__ = ["Observation"]


class VisibleLog:
    """Each seat's view of a game's event log, extended as the log grows (and cut back when
    moves are taken back), so a seat's view is never rebuilt from the start."""

    __slots__ = ("_views",)

    def __init__(self, players: int) -> None:
        self._views: list[list[Event]] = [[] for _ in range(players)]

    def view(self, seat: int, events: list[Event]) -> LogView:
        """Seat ``seat``'s view of ``events`` as they are now (read lazily)."""
        return LogView(self, seat, events, len(events))

    def visible(self, seat: int, events: list[Event], upto: int) -> tuple[Event, ...]:
        """The first ``upto`` events as ``seat`` sees them."""
        seen = self._views[seat]
        if len(seen) < upto:
            for e in events[len(seen):upto]:  # a loop: no closure cell per call
                seen.append(e.visible_to(seat))
        return tuple(seen[:upto]) if len(seen) > upto else tuple(seen)

    def cut(self, length: int) -> None:
        """The log was cut back to ``length`` events (undo)."""
        for seen in self._views:
            del seen[length:]


@dataclass(frozen=True)
class LogView:
    """A seat's view of the log at one moment; :attr:`events` materialises it (read it before
    the game's moves are taken back)."""

    log: VisibleLog
    seat: int
    events_list: list[Event]
    length: int

    @property
    def events(self) -> tuple[Event, ...]:
        return self.log.visible(self.seat, self.events_list, self.length)


@dataclass(frozen=True)
class Observation:
    """Seat ``seat``'s view: its own hand, public counts and piles, the calls in force, and
    its legal moves when it is to play. Other hands and the stock order are never here."""

    rules: RuleSet
    seat: int
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    piles: tuple[tuple[Card, ...], ...]
    calls: tuple[str | None, ...]
    to_play: int
    phase: str
    legal: tuple[Move, ...]
    reshuffles: int
    turn_draws: int
    turn_plays: int
    drawn: tuple[Card, ...]
    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    log: LogView | tuple[Event, ...] = field(default=(), repr=False, compare=False)
    extra: tuple[tuple[str, object], ...] = ()

    def __repr__(self) -> str:
        """One short line (``Observation(seat 1, 5 cards, top 6♥, 3 legal moves)``); the
        fields hold the rest."""
        n, k = len(self.hand), len(self.legal)
        tops = "/".join(str(p[-1]) for p in self.piles if p) or "none"
        end = ", over" if self.over else ""
        return (f"Observation(seat {self.seat}, {n} card{'s' * (n != 1)}, top {tops}, "
                f"{k} legal move{'s' * (k != 1)}{end})")

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log as this seat sees it (others' drawn cards hidden)."""
        log = self.log
        return log if isinstance(log, tuple) else log.events

    @property
    def tops(self) -> tuple[Card, ...]:
        return tuple(p[-1] for p in self.piles)

    @property
    def top(self) -> Card:
        return self.piles[0][-1]

"""The event log: everything that happens in a hand, in order, as fields (who, which cards,
how many, why, which rules decide it), never as prose: :mod:`crazylab.engine.narrator`
writes the sentences."""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import CARDS, Card

#: the event kinds, a named contract: compare ``event.kind`` with these, never with a bare
#: text (the values are what saved games and the worked examples hold, so they stay)
DEALT: Final = "dealt"
STARTER: Final = "starter"
BURIED: Final = "buried"
PLAYED: Final = "played"
CALLED: Final = "called"
DREW: Final = "drew"
RESHUFFLED: Final = "reshuffled"
PASSED: Final = "passed"
ENDED: Final = "ended"
LAST_CARD: Final = "last_card"
SKIPPED: Final = "skipped"
PENALTY: Final = "penalty"
COUNTERED: Final = "countered"
DROPPED: Final = "dropped"
FLIPPED: Final = "flipped"
JUMPED_IN: Final = "jumped_in"
REVERSED: Final = "reversed"
EVENT_KINDS: Final = (DEALT, STARTER, BURIED, PLAYED, CALLED, DREW, RESHUFFLED, PASSED, ENDED,
                      LAST_CARD, SKIPPED, PENALTY, COUNTERED, DROPPED, FLIPPED, JUMPED_IN,
                      REVERSED)

#: why an event happened (:attr:`Event.why`), a named contract too
WHY_HIT: Final = "hit"  # a hit's penalty card drawn (nth of of), its lost turn, the hit itself
WHY_PASSED_ON: Final = "passed_on"  # a hit passed on to the next seat (``by`` passed it)
WHY_JOKER: Final = "joker"  # the plain joker's draw, or the turn its victim loses
WHY_LAST_CARD: Final = "last_card"  # the cards drawn for a missed last-card call
WHY_SAID: Final = "said"  # last card said
WHY_MISSED: Final = "missed"  # last card not said: ``count`` cards to draw
WHY_SKIP_CARD: Final = "skip_card"  # a turn lost to a skip card
WHY_WRAPPED: Final = "wrapped"  # one more turn lost, for a hit that came round again
WHY_FORGIVEN: Final = "forgiven"  # a turn lost with ``count`` penalty cards forgiven
WHY_NO_JUMP: Final = "no_jump"  # a seat that could jump in did not
WHY_FIZZLED: Final = "fizzled"  # a King's deck play with no card to turn
WHY_FIZZLED_AGAIN: Final = "fizzled_again"  # … as the stock ran out again in one chain
WHY_JUST_DRAWN: Final = "just_drawn"  # a counter with the card just drawn
WHY_NONE: Final = "none"  # a Queen's drop of nothing
WHY_NO_MORE: Final = "no_more"  # no more drops after the Queen
WHY_KINDS: Final = (WHY_HIT, WHY_PASSED_ON, WHY_JOKER, WHY_LAST_CARD, WHY_SAID, WHY_MISSED,
                    WHY_SKIP_CARD, WHY_WRAPPED, WHY_FORGIVEN, WHY_NO_JUMP, WHY_FIZZLED,
                    WHY_FIZZLED_AGAIN, WHY_JUST_DRAWN, WHY_NONE, WHY_NO_MORE)

__all__ = ["BURIED", "CALLED", "COUNTERED", "DEALT", "DREW", "DROPPED", "ENDED", "EVENT_KINDS",
           "FLIPPED", "JUMPED_IN", "LAST_CARD", "PASSED", "PENALTY", "PLAYED", "RESHUFFLED",
           "REVERSED", "SKIPPED", "STARTER", "WHY_KINDS", "Event"]


class Event(NamedTuple):
    """One thing that happened. ``cards`` may be hidden from other seats (a draw).
    Immutable (a named tuple: cheap to build, so a hand's log costs little)."""

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    call: str | None = None
    pile: int | None = None
    count: int = 0  # type: ignore[assignment]  # the field hides tuple.count, on purpose
    #: why it happened, one of :data:`WHY_KINDS` (``""``: the plain case); an ``ended``
    #: event's is the result's reason (``OUT``, ``BLOCKED``, ``VOID``)
    why: str = ""
    #: a ``drew`` event the rules imposed (a hit, a missed last-card call, a joker's draw),
    #: not the player's own draw
    penalty: bool = False
    #: the seat whose card caused it (the seat that hit, or passed a hit on)
    by: int | None = None
    #: a part of a whole: penalty card ``nth`` of ``of``, reshuffle ``nth`` of ``of``
    nth: int = 0
    of: int = 0
    #: the rule ids that decide it (``("BR-22", "BR-27")``), for links beside the sentence
    rules: tuple[str, ...] = ()

    @property
    def private(self) -> bool:
        """Whether the cards are known only to ``seat`` (cards drawn or dealt)."""
        return self.kind in (DREW, DEALT)

    def visible_to(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may see it (``None``: everyone sees everything)."""
        if viewer is None or not self.private or viewer == self.seat:
            return self
        return Event(self.kind, self.seat, (), self.call, self.pile, self.count, self.why,
                     self.penalty, self.by, self.nth, self.of, self.rules)


EVENT_CACHE: dict[tuple, Event] = {}
"""Interned events by their fields (events are immutable, so equal ones can be shared): the
log gets one or two per move, and looking one up is cheaper than building it. The hot paths
look up ``EVENT_CACHE.get(fields) or intern_event(fields)`` inline."""


#: ``PLAYED_ONE[seat][card]``, ``DREW_ONE[seat][card]``: the interned events of the two
#: commonest moves, one card played on the only pile and one card drawn (without a note),
#: found by two list lookups instead of hashing their fields; ``None`` until first met.
#: :func:`seat_tables` grows them to a table's seats.
PLAYED_ONE: list[list[Event | None]] = []
DREW_ONE: list[list[Event | None]] = []


def seat_tables(seats: int) -> None:
    """Give :data:`PLAYED_ONE` and :data:`DREW_ONE` a row for each of ``seats`` seats."""
    while len(PLAYED_ONE) < seats:
        PLAYED_ONE.append([None] * len(CARDS))
        DREW_ONE.append([None] * len(CARDS))


def intern_event(fields: tuple) -> Event:
    if len(EVENT_CACHE) >= 100_000:  # bounded: long draws make many distinct keys
        EVENT_CACHE.clear()
    e = EVENT_CACHE[fields] = tuple.__new__(Event, fields)
    return e


def new_event(kind: str, seat: int | None = None, cards: tuple[Card, ...] = (),
              call: str | None = None, pile: int | None = None, count: int = 0,
              why: str = "", penalty: bool = False, rules: tuple[str, ...] = ()) -> Event:
    """``Event(...)``, built by ``tuple.__new__`` (C) rather than the named tuple's generated
    Python ``__new__``: for events met once (a dealt hand, the end), not worth interning."""
    return tuple.__new__(Event, (kind, seat, cards, call, pile, count, why, penalty, None, 0, 0,
                                 rules))


def event(kind: str, seat: int | None, cards: tuple[Card, ...] = (), call: str | None = None,
          pile: int | None = None, count: int = 0) -> Event:
    """An interned :class:`Event`."""
    fields = (kind, seat, cards, call, pile, count, "", False, None, 0, 0, ())
    return EVENT_CACHE.get(fields) or intern_event(fields)

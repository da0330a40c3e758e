"""The event log: everything that happens in a hand, in order, with plain-word narration."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from .cards import CARDS, Card, display
from .errors import CrazylabError, Given, quote
from .pitch import pretty

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

__all__ = ["BURIED", "CALLED", "COUNTERED", "DEALT", "DREW", "DROPPED", "ENDED", "EVENT_KINDS",
           "FLIPPED", "JUMPED_IN", "LAST_CARD", "PASSED", "PENALTY", "PLAYED", "RESHUFFLED",
           "REVERSED", "SKIPPED", "STARTER", "Event"]


class Event(NamedTuple):
    """One thing that happened. ``cards`` may be hidden from other seats (a draw).
    Immutable (a named tuple: cheap to build, so a hand's log costs little)."""

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    call: str | None = None
    pile: int | None = None
    count: int = 0  # type: ignore[assignment]  # the field hides tuple.count, on purpose
    note: str = ""
    #: a ``drew`` event the rules imposed (a hit, a missed last-card call, a joker's draw),
    #: not the player's own draw: read this, never whether ``note`` is empty
    penalty: bool = False

    @property
    def private(self) -> bool:
        """Whether the cards are known only to ``seat`` (cards drawn or dealt)."""
        return self.kind in (DREW, DEALT)

    def visible_to(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may see it (``None``: everyone sees everything)."""
        if viewer is None or not self.private or viewer == self.seat:
            return self
        return Event(self.kind, self.seat, (), self.call, self.pile, self.count, self.note,
                     self.penalty)

    def describe(self, viewer: Given = None, names: Given = None) -> str:
        """A sentence for the move log: ``"Seat 0 played 8♠ and called ♦."``

        With ``names`` (one per seat, ``"You"`` for the reader's own seat) every seat is
        named, ``seat N`` in a note included, and a sentence about ``"You"`` is in the second
        person: ``"You are hit once by Bot 1's two: …"``, ``"You win the hand"``. Piles are
        numbered from 1, as people count (the move notation's ``@0`` is pile 1)."""
        if viewer is not None and (type(viewer) is not int or viewer < 0):
            raise CrazylabError(f"viewer must be a seat number (or None), not {quote(viewer)}")
        if names is not None and (not isinstance(names, (list, tuple))
                                  or not all(isinstance(n, str) for n in names)):
            raise CrazylabError(f"names must be a list of texts, one per seat, not "
                                f"{quote(names)}")
        e = self.visible_to(viewer)
        who = (names[e.seat] if names and e.seat is not None and e.seat < len(names)
               else f"Seat {e.seat}")
        you = who == "You"
        shown = display(e.cards)
        on_pile = f" on pile {e.pile + 1}" if e.pile is not None else ""
        k = e.kind
        if k == DEALT:
            was = "were" if you else "was"
            return (f"{who} {was} dealt {shown}." if shown
                    else f"{who} {was} dealt {e.count} cards.")
        if k == STARTER:
            return f"The starter {shown} was turned face up{on_pile}." + _note(e)
        if k == BURIED:
            return f"The starter {shown} was buried in the stock and another card turned."
        if k == PLAYED:
            verb = "stacked" if len(e.cards) > 1 else "played"
            return f"{who} {verb} {shown}{on_pile}." + _note(e)
        if k == CALLED:
            return f"{who} called {_call_words(e.call)}{on_pile}."
        if k == DREW:
            n = e.count or len(e.cards)
            what = shown if shown else ("a card" if n == 1 else f"{n} cards")
            return f"{who} drew {what}." + _note(e)
        if k == RESHUFFLED:
            return f"The discards were shuffled into a new stock of {e.count} cards{_note(e)}."
        if k == PASSED:
            return f"{who} passed." + _note(e)
        if k == ENDED:
            return _people(e.note, names) if e.note else "The hand is over."
        note = e.note
        if e.seat is None:
            return _people(note, names)
        if note.startswith("the King's deck play"):  # whose King turned the card
            whose = "Your" if you else f"{who}'s"
            return _people(whose + note[3:], names)
        if note.startswith(("seat ", "Seat ")):  # the note names its own subject
            return _people(note, names)
        if note.startswith(("hit ", "skipped")):  # "is hit once by …", "is skipped (…)"
            note = "is " + note
        return _people(f"seat {e.seat} {note}" if note else f"seat {e.seat}.", names)


#: third-person verbs of the notes and their second-person forms (``"You lose the turn"``)
_SECOND_PERSON = {
    "is": "are", "was": "were", "has": "have", "does": "do", "loses": "lose",
    "drops": "drop", "calls": "call", "draws": "draw", "reverses": "reverse",
    "jumps": "jump", "passes": "pass", "plays": "play", "wins": "win", "holds": "hold",
    "names": "name", "announces": "announce", "turns": "turn", "takes": "take",
    "shares": "share", "counters": "counter",
}
_SEAT_WORDS = re.compile(r"\b([Ss])eat (\d+)('s)?( [a-z]+)?")
_COLON_VERB = re.compile(r"(: )([a-z]+)\b")


def _people(text: str, names: Sequence[str] | None) -> str:
    """``text`` with each ``seat N`` named from ``names`` (``you``/``your`` for the seat
    named ``"You"``, with its verb in the second person); as it is without ``names``."""
    if not names:
        return text[:1].upper() + text[1:]
    seconds = False

    def name(m: re.Match[str]) -> str:
        nonlocal seconds
        seat = int(m[2])
        if seat >= len(names):
            return m[0]
        who, owner, after = names[seat], m[3], m[4] or ""
        start = m.start() == 0 or text[max(0, m.start() - 2):m.start()] in (". ", "! ")
        if who != "You":
            return f"{who}{owner or ''}{after}"
        if owner:
            word = "your"
        else:
            word = "you"
            verb = after[1:]
            if verb in _SECOND_PERSON:
                after = " " + _SECOND_PERSON[verb]
            seconds = seconds or m.start() == 0  # the sentence is about you
        return (word.capitalize() if start else word) + after

    out = _SEAT_WORDS.sub(name, text)
    if seconds:  # "you did not call last card: draws 2" -> "…: draw 2"
        out = _COLON_VERB.sub(lambda m: m[1] + _SECOND_PERSON.get(m[2], m[2]), out, count=1)
    return out[:1].upper() + out[1:]


def _note(e: Event) -> str:
    return f" {e.note}" if e.note else ""


def _call_words(call: str | None) -> str:
    if call is None:
        return "nothing"
    if call in ("C", "D", "H", "S"):
        return {"C": "clubs ♣", "D": "diamonds ♦", "H": "hearts ♥", "S": "spades ♠"}[call]
    return pretty(call)  # a letter or a pitch


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
              note: str = "", penalty: bool = False) -> Event:
    """``Event(...)``, built by ``tuple.__new__`` (C) rather than the named tuple's generated
    Python ``__new__``: for events met once (a dealt hand, the end), not worth interning."""
    return tuple.__new__(Event, (kind, seat, cards, call, pile, count, note, penalty))


def event(kind: str, seat: int | None, cards: tuple[Card, ...] = (), call: str | None = None,
          pile: int | None = None, count: int = 0, note: str = "",
          penalty: bool = False) -> Event:
    """An interned :class:`Event`."""
    fields = (kind, seat, cards, call, pile, count, note, penalty)
    return EVENT_CACHE.get(fields) or intern_event(fields)

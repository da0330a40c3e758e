"""The narrator's vocabulary, below the variants: how a sentence names a seat
(:class:`Voice`), cards and points in words, and :class:`Words`, the base of a variant's own
words (its :meth:`~crazylab.engine.variants.base.Variant.words` hook)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .cards import Card
from .events import Event
from .moves import DRAW, PLAY
from .rules import RuleSet

__all__ = ["Seen", "Teller", "Voice", "Words", "cards_words", "join", "points"]


def cards_words(cards: Sequence[Card]) -> str:
    """``8♠``, ``2♣ and 2♥``, ``2♣, 2♥ and 2♠``."""
    shown = [c.display for c in cards]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def points(n: int) -> str:
    """``1 point``, ``-3 points``, with a true minus sign."""
    return f"{n} point{'s' if abs(n) != 1 else ''}".replace("-", "−")


def join(words: Sequence[str]) -> str:
    """``Ana``, ``Ana and Bo``, ``Ana, Bo and Cy``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Voice:
    """How a sentence names a seat: "you"/"your" for the reader's seat when it is named
    ``You``, the seat's name otherwise (``Seat N`` without names)."""

    names: Sequence[str] = ()
    human: int | None = None

    def you(self, seat: int | None) -> bool:
        return (seat is not None and seat == self.human and seat < len(self.names)
                and self.names[seat] == "You")

    def subj(self, seat: int | None) -> str:
        return "You" if self.you(seat) else self.name(seat)

    def obj(self, seat: int | None) -> str:
        return "you" if self.you(seat) else self.name(seat, start=False)

    def poss(self, seat: int | None, start: bool = False) -> str:
        if self.you(seat):
            return "Your" if start else "your"
        return f"{self.name(seat, start)}'s"

    def the_turn(self, seat: int | None) -> str:
        return "your turn" if self.you(seat) else "the turn"

    def verb(self, seat: int | None, plural: str, singular: str) -> str:
        return plural if self.you(seat) else singular

    def name(self, seat: int | None, start: bool = True) -> str:
        """The seat's name (unnamed: ``Seat N`` first in a sentence, ``seat N`` within)."""
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        word = "the dealer" if seat is None else f"seat {seat}"
        return word[:1].upper() + word[1:] if start else word


class Words:
    """A variant's own words, the :meth:`~crazylab.engine.variants.base.Variant.words` hook:
    the core narrator asks it first for every event (``None``: the core's sentence), tells it
    each card placed (so it can remember whose King or whose two it was), and asks it how a hit
    may be answered."""

    #: the variant's event kinds that put cards on a pile (a counter, a drop, a jump-in)
    places: tuple[str, ...] = ()
    #: the kinds whose sentence tells the play logged next to them (the play is not told)
    retells: tuple[str, ...] = ()

    # The words of the variant's own phases, by phase or by (phase, move kind) ("play",
    # "draw", "pass", "end"); a phase left out reads as the core says. ``{seat}`` and
    # ``{cards}`` are filled in.
    #: what the seat to play is asked ("You are hit: counter with a Jack … or take the
    #: penalty.")
    prompts: ClassVar[dict[str, str]] = {}
    #: a button's label ("Take the penalty")
    labels: ClassVar[dict[tuple[str, str], str]] = {}
    #: what a move does, after the seat's name ("drops {cards} after the Queen")
    doings: ClassVar[dict[tuple[str, str], str]] = {}
    #: why a move is allowed now, of a seat ("After its Queen, seat {seat} may drop …")
    reasons: ClassVar[dict[tuple[str, str], str]] = {}
    #: why a word is the move now, to the one who makes it ("You are hit: take the penalty
    #: card by card, …")
    hints: ClassVar[dict[tuple[str, str], str]] = {}
    #: where the cards a learner left out come from, per phase ("any Jack of your hand
    #: counters the hit")
    missed: ClassVar[dict[str, str]] = {}
    #: why a card may be played now, to the one who holds it, per phase ("After your Queen
    #: you may drop any card: …")
    allowed: ClassVar[dict[str, str]] = {}

    def __init__(self, narrator: Teller) -> None:
        self.narrator = narrator

    def placed(self, seat: int | None, cards: tuple[Card, ...]) -> None:
        """Cards were placed on a pile by ``seat`` (``None``: the starter)."""

    def hitter(self) -> tuple[int | None, tuple[Card, ...]] | None:
        """Who placed the cards behind the hit being told, when the event does not say."""
        return None

    def say(self, e: Event) -> str | None:
        """The sentence of ``e``, or ``None`` to leave it to the core."""
        return None

    def answer(self, victims: int, you: bool, cards: tuple[Card, ...]) -> str:
        """How a hit may still be answered (``", unless you counter with a Jack"``)."""
        return ""

    #: the start of what the seat to play is told in a phase when no card answers it: the
    #: end says "draw the penalty." or "you lose the turn."
    stuck: ClassVar[dict[str, str]] = {}

    @classmethod
    def prompt(cls, phase: str, kinds: set[str]) -> str | None:
        """What the seat to play is asked in ``phase`` when its legal moves are of ``kinds``
        (``None``: the core asks)."""
        if PLAY not in kinds and phase in cls.stuck:
            return cls.stuck[phase] + ("draw the penalty." if DRAW in kinds
                                       else "you lose the turn.")
        return cls.prompts.get(phase)

    @staticmethod
    def pending(seen: Seen, names: Sequence[str], me: int) -> tuple[list[dict[str, Any]],
                                                                    dict[int, str]]:
        """The variant's pending hits as a seat's banner lines (``seat``, ``now``, ``you``,
        ``text``) and a short badge per seat, from what seat ``me`` sees (an observation)."""
        return [], {}


class Seen(Protocol):
    """What the banner of pending hits reads of a seat's observation."""

    @property
    def extra(self) -> Any: ...
    @property
    def over(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_play(self) -> int: ...
    @property
    def turn_draws(self) -> int: ...
    @property
    def legal(self) -> Any: ...
    @property
    def rules(self) -> RuleSet: ...


class Teller(Protocol):
    """What a variant's words read of the narrator telling the hand."""

    rules: RuleSet
    voice: Voice

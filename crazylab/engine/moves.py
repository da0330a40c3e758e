"""Moves and their notation: ``6C``, ``8S:D``, ``2H+2S``, ``5H@1``, ``8S@0:E``, ``draw``…"""

from __future__ import annotations

import itertools
from typing import Any, Final, NamedTuple

from .cards import Card, CardError, sort_key
from .errors import CrazylabError, Given, quote
from .pitch import pretty

__all__ = ["DRAW", "END", "PASS", "PLAY", "Move", "MoveError", "checked"]

DRAW: Final = "draw"
PASS: Final = "pass"
END: Final = "end"
PLAY: Final = "play"


class MoveError(CrazylabError):
    """A text that is not a move."""


class Move(NamedTuple):
    """One decision: play ``cards`` (one, or a same-rank stack) with an optional call and
    pile, or ``draw`` / ``pass`` / ``end``. ``call`` is the canonical call text (``D``,
    ``C#``, ``E``) or ``None``; ``last`` is the last-card call of a play that leaves one card
    (``6C!``, rulings A14). Immutable; a named tuple, so comparing two moves (``move in
    legal``) runs in C."""

    kind: str
    cards: tuple[Card, ...] = ()
    call: str | None = None
    pile: int | None = None
    last: bool = False

    def __str__(self) -> str:
        if self.kind != PLAY:
            return self.kind
        text = "+".join(str(c) for c in self.cards)
        if self.pile is not None:
            text += f"@{self.pile}"
        if self.call is not None:
            text += f":{self.call}"
        return text + "!" if self.last else text

    @property
    def card(self) -> Card:
        """The first card played (the one that must be legal)."""
        return self.cards[0]

    @property
    def top(self) -> Card:
        """The last card placed: the new top of its pile."""
        return self.cards[-1]

    @property
    def display(self) -> str:
        if self.kind != PLAY:
            return self.kind
        text = " + ".join(c.display for c in self.cards)
        if self.call is not None:
            call = self.call  # a suit as its symbol, a pitch as C♯ or D♭
            call = ("♣♦♥♠"["CDHS".index(call)] if len(call) == 1 and call in "CDHS"
                    else pretty(call))
            text += f" calling {call}"
        if self.pile is not None:
            text += f" on pile {self.pile + 1}"  # people count piles from 1 (notation: @0)
        return text + ", calling last card!" if self.last else text

    @classmethod
    def parse(cls, text: Given) -> Move:
        """Parse a move string; raise :class:`MoveError` with the reason otherwise. A
        :class:`Move` built by hand is checked (:func:`checked`)."""
        if isinstance(text, Move):
            return checked(text)
        if not isinstance(text, str) or not text.strip():
            raise MoveError(f"{quote(text)} is not a move: play a card like 6C, or say draw, "
                            "pass or end")
        t = text.strip()
        if t.lower() in (DRAW, PASS, END):
            return cls(t.lower())
        if len(t) > 200:  # longer than any real move (a stack of six, a pile, a call)
            raise MoveError(f"{quote(t)} is not a move: it is far too long")
        last = t.endswith("!")
        if last:
            t = t[:-1].rstrip()
            if t.lower() in (DRAW, PASS, END) or not t:
                raise MoveError(f"{quote(text)}: '!' is the last-card call of a play, like 6C!")
        body, call = t, None
        if ":" in t:
            body, call = t.split(":", 1)
            call = call.strip()
            if not call:
                raise MoveError(f"{quote(text)}: nothing is called after ':' (write 8S:D)")
            if ":" in call or "@" in call:
                raise MoveError(f"{quote(text)} is not a move: write the pile first and one "
                                "call last, like 8S@1:D")
        pile = None
        if "@" in body:
            body, pile_text = body.split("@", 1)
            pile_text = pile_text.strip()
            if not (pile_text.isascii() and pile_text.isdigit() and len(pile_text) <= 2):
                raise MoveError(f"{quote(text)}: the pile after '@' must be a number, like "
                                "5H@1")
            pile = int(pile_text)
        try:
            played = tuple(Card.parse(part) for part in body.split("+"))
        except CardError as e:
            raise MoveError(f"{quote(text)} is not a move: {e}") from None
        return cls(PLAY, played, call, pile, last)


DRAW_MOVE: Final = Move(DRAW)
PASS_MOVE: Final = Move(PASS)
END_MOVE: Final = Move(END)
_WORDS: Final = {DRAW: DRAW_MOVE, PASS: PASS_MOVE, END: END_MOVE}
#: the most cards one move can place (a stack of one rank: eight of a rank in two decks,
#: or the jokers) and the highest pile number the notation can write (``@99``)
MAX_STACK: Final = 8
MAX_PILE: Final = 99


def checked(move: Given) -> Move:
    """``move`` if its fields are those a move can have (a kind of ``play``, ``draw``,
    ``pass`` or ``end``; for a play one to eight cards, a call text or ``None``, a pile from
    0 to 99 or ``None``, ``last`` a bool; cards are :class:`Card` objects, never texts);
    otherwise a :class:`MoveError` naming it. Whether it is legal is the game's question.

    A ``Move`` is a named tuple, so one can be built with any fields
    (``Move("play", ("6H",))``, refused: ``Move.parse("6H")`` reads text): this is where such
    a move enters the engine."""
    if not isinstance(move, Move):
        raise MoveError(f"{quote(move)} is not a Move")
    fields: tuple[Any, ...] = tuple(move)  # untyped: a hand-built move's fields may be anything
    kind, cards, call, pile, last = fields
    if type(kind) is str and kind in _WORDS:
        if cards == () and call is None and pile is None and last is False:
            return _WORDS[kind]
        raise MoveError(f"{quote(move)} is not a move: {kind} takes no cards, call, pile or "
                        "last-card call")
    if type(kind) is not str or kind != PLAY:
        raise MoveError(f"{quote(move)} is not a move: its kind must be play, draw, pass or "
                        f"end, not {quote(kind, 30)}")
    if not isinstance(cards, (tuple, list)) or not 1 <= len(cards) <= MAX_STACK:
        raise MoveError(f"{quote(move)} is not a move: a play places a tuple of 1 to "
                        f"{MAX_STACK} cards, not {quote(cards, 30)}")
    if call is not None and (type(call) is not str or len(call) > 20):
        raise MoveError(f"{quote(move)} is not a move: its call must be a text like 'D' or "
                        f"'C#' (or None), not {quote(call, 30)}")
    if pile is not None and (type(pile) is not int or not 0 <= pile <= MAX_PILE):
        raise MoveError(f"{quote(move)} is not a move: its pile must be a whole number from 0 "
                        f"to {MAX_PILE} (or None), not {quote(pile, 30)}")
    if type(last) is not bool:
        raise MoveError(f"{quote(move)} is not a move: last (the last-card call) must be True "
                        f"or False, not {quote(last, 30)}")
    for c in cards:
        if type(c) is not Card:
            hint = (f"Move.parse({quote(c, 30)}) reads a move's text" if isinstance(c, str)
                    else "build cards with crazylab.card('6H')")
            raise MoveError(f"{quote(move)} is not a move: {quote(c, 30)} is not a Card "
                            f"({hint})")
        try:
            Card(c)  # a Card made past Card() (int.__new__) may be out of range
        except CardError as e:
            raise MoveError(f"{quote(move, 60)} is not a move: {e}") from None
    if type(cards) is tuple:
        return move
    return Move(PLAY, tuple(cards), call, pile, last)


_MOVES: dict[tuple, Move] = {}


def play_move(cards: tuple[Card, ...], call: str | None, pile: int | None,
              last: bool = False) -> Move:
    """The interned play move of ``cards`` with ``call`` on ``pile`` (and the last-card call,
    ``last``); equal moves are one object, so legal-move lists are cheap to build and
    compare."""
    key = (cards, call, pile, last) if last else (cards, call, pile)
    m = _MOVES.get(key)
    if m is None:
        m = _MOVES[key] = Move(PLAY, cards, call, pile, last)
    return m


def ordered_stacks(first: Card, same: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Every ordered stack starting with ``first`` and continuing with distinct others of
    ``same`` (identical cards such as two jokers are listed once); shortest first."""
    key = (first, *sorted(same))
    stacks = _STACKS.get(key)
    if stacks is None:
        found: set[tuple[Card, ...]] = {(first,)}
        for k in range(1, len(same) + 1):
            for combo in itertools.permutations(key[1:], k):
                found.add((first, *combo))
        stacks = _STACKS[key] = tuple(sorted(found, key=_stack_order))
    return stacks


_STACKS: dict[tuple[Card, ...], tuple[tuple[Card, ...], ...]] = {}


def _stack_order(stack: tuple[Card, ...]) -> tuple[int, list[tuple[int, int]]]:
    return (len(stack), [sort_key(c) for c in stack])

"""Crazy Breens in words: the narrator's sentences for a King's deck play, a counter, a
Queen's drop and an extra lost turn, and how a hit may be answered (with a Jack)."""

from __future__ import annotations

from ..cards import ACE, JOKER_RANK, KING, SUIT_NAMES, SUIT_SYMBOLS, TWO, Card
from ..events import (
    COUNTERED,
    DROPPED,
    FLIPPED,
    SKIPPED,
    WHY_FIZZLED,
    WHY_FIZZLED_AGAIN,
    WHY_JUST_DRAWN,
    WHY_NO_MORE,
    WHY_WRAPPED,
    Event,
)
from ..wording import Teller, Words, cards_words

#: the ranks whose hits a Jack answers (2, Ace, joker)
_HITTING = (TWO, ACE, JOKER_RANK)


class BreensWords(Words):
    """Remembers whose King turns a card and whose 2, Ace or joker hits whom."""

    places = (COUNTERED, DROPPED, FLIPPED)
    retells = (COUNTERED, DROPPED)

    def __init__(self, narrator: Teller) -> None:
        super().__init__(narrator)
        self._hitter: tuple[int | None, tuple[Card, ...]] | None = None
        self._king: tuple[int | None, Card] | None = None

    def placed(self, seat: int | None, cards: tuple[Card, ...]) -> None:
        hitting = tuple(c for c in cards if c.rank in _HITTING)
        if hitting:
            self._hitter = (seat, hitting)
        kings = [c for c in cards if c.rank == KING]
        if kings:
            self._king = (seat, kings[-1])

    def hitter(self) -> tuple[int | None, tuple[Card, ...]] | None:
        return self._hitter

    def say(self, e: Event) -> str | None:
        v = self.narrator.voice
        s, who, shown = e.seat, v.subj(e.seat), cards_words(e.cards)
        if e.kind == FLIPPED:
            king = self._king
            whose = v.poss(s, start=True)
            king_words = f"{whose} {king[1].display}" if king and king[0] == s else \
                f"{whose} King"
            if e.why == WHY_FIZZLED_AGAIN:
                return (f"{king_words} turns nothing: the stock ran out again, and a chain of "
                        "Kings reshuffles it only once.")
            if e.why == WHY_FIZZLED or not e.cards:
                return f"{king_words} turns nothing: no card is left in the stock."
            return f"{king_words} turns {shown} from the stock onto the pile, as {v.poss(s)} play."
        if e.kind == COUNTERED:
            top = e.cards[-1] if e.cards else None
            jack = f"the {shown} just drawn" if e.why == WHY_JUST_DRAWN else shown
            suit = (f", and the suit is now {SUIT_SYMBOLS[top.suit]} {SUIT_NAMES[top.suit]}"
                    if top is not None and top.suit is not None else "")
            return f"{who} countered with {jack}: the hit is over{suit}."
        if e.kind == DROPPED:
            if e.cards:
                return f"{who} dropped {shown} with the Queen."
            more = " more" if e.why == WHY_NO_MORE else ""
            return f"{who} dropped nothing{more} after the Queen."
        if e.kind == SKIPPED and e.why == WHY_WRAPPED:
            return (f"{who} {v.verb(s, 'lose', 'loses')} one more turn, for a hit that came "
                    "round again.")
        return None

    def answer(self, victims: int, you: bool, cards: tuple[Card, ...]) -> str:
        r = self.narrator.rules
        if not r.specials or (cards and cards[-1].rank == JOKER_RANK
                              and not r.jack_counters_joker):
            return ""
        return ", unless you counter with a Jack" if victims == 1 and you else \
            ", unless they counter with a Jack"

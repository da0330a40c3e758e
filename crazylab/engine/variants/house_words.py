"""The house rules in words: the narrator's sentences for a reverse, a jump-in and a seat
that lets its jump-in go."""

from __future__ import annotations

from ..events import JUMPED_IN, PASSED, REVERSED, WHY_NO_JUMP, Event
from ..wording import Words, cards_words


class HouseWords(Words):
    places = (JUMPED_IN,)
    retells = (JUMPED_IN,)

    def say(self, e: Event) -> str | None:
        who, shown = self.narrator.voice.subj(e.seat), cards_words(e.cards)
        if e.kind == REVERSED:
            return f"{who} reversed the direction of play with {shown}."
        if e.kind == JUMPED_IN:
            return f"{who} jumped in out of turn with {shown}, the same card as the top."
        if e.kind == PASSED and e.why == WHY_NO_JUMP:
            return f"{who} did not jump in."
        return None

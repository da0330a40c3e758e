"""The house rules in words: the narrator's sentences for a reverse, a jump-in and a seat
that lets its jump-in go."""

from __future__ import annotations

from typing import ClassVar

from ..events import JUMPED_IN, PASSED, REVERSED, WHY_NO_JUMP, Event
from ..moves import DRAW, PASS, PLAY
from ..phases import PHASE_JUMP, PHASE_PENALTY
from ..wording import Words, cards_words


class HouseWords(Words):
    places = (JUMPED_IN,)
    retells = (JUMPED_IN,)
    stuck: ClassVar[dict[str, str]] = {PHASE_PENALTY: "You are hit and cannot pass it on: "}
    prompts: ClassVar[dict[str, str]] = {
        PHASE_PENALTY: "You are hit: pass it on with a draw card (click it) or take the "
                       "penalty.",
        PHASE_JUMP: "You hold a card identical to the top: jump in with it now, out of turn "
                    "(click it), or pass.",
    }
    labels: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "Take the penalty", (PHASE_PENALTY, PASS): "Lose the turn",
        (PHASE_JUMP, PASS): "Do not jump in",
    }
    doings: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "draws a penalty card",
        (PHASE_PENALTY, PASS): "passes (losing the turn)",
        (PHASE_PENALTY, PLAY): "passes the hit on with {cards}",
        (PHASE_JUMP, PLAY): "jumps in with {cards}",
        (PHASE_JUMP, PASS): "does not jump in",
    }
    reasons: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, PLAY): "Seat {seat} is hit, and passes it on with {cards} instead of "
                               "drawing.",
        (PHASE_PENALTY, DRAW): "Seat {seat} takes its penalty, one card at a time.",
        (PHASE_PENALTY, PASS): "Seat {seat} loses the turn: it passes.",
        (PHASE_JUMP, PLAY): "Seat {seat} holds the very card on top, {cards}, and may jump in "
                            "with it out of turn.",
        (PHASE_JUMP, PASS): "A jump-in is optional: seat {seat} may let it go.",
    }
    hints: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "You are hit: take the penalty card by card, unless you pass "
                               "it on with a draw card.",
        (PHASE_PENALTY, PASS): "You are hit and the stock is empty: say pass to lose the turn.",
        (PHASE_JUMP, PASS): "Let the jump-in go: say pass.",
    }


    allowed: ClassVar[dict[str, str]] = {
        PHASE_PENALTY: "You are hit: a draw card passes the hit on to the next player.",
        PHASE_JUMP: "It is the very card on top: you may jump in with it, out of turn.",
    }
    missed: ClassVar[dict[str, str]] = {
        PHASE_PENALTY: "a draw card of your hand passes the hit on",
        PHASE_JUMP: "a card identical to the top may jump in",
    }

    def say(self, e: Event) -> str | None:
        who, shown = self.narrator.voice.subj(e.seat), cards_words(e.cards)
        if e.kind == REVERSED:
            return f"{who} reversed the direction of play with {shown}."
        if e.kind == JUMPED_IN:
            return f"{who} jumped in out of turn with {shown}, the same card as the top."
        if e.kind == PASSED and e.why == WHY_NO_JUMP:
            return f"{who} did not jump in."
        return None

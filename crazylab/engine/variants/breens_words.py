"""Crazy Breens in words: the narrator's sentences for a King's deck play, a counter, a
Queen's drop and an extra lost turn, and how a hit may be answered (with a Jack)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

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
from ..moves import DRAW, END, PASS, PLAY
from ..phases import PHASE_DROP, PHASE_LOST, PHASE_PENALTY
from ..wording import Seen, Teller, Words, cards_words

#: the ranks whose hits a Jack answers (2, Ace, joker)
_HITTING = (TWO, ACE, JOKER_RANK)


class BreensWords(Words):
    """Remembers whose King turns a card and whose 2, Ace or joker hits whom."""

    places = (COUNTERED, DROPPED, FLIPPED)
    retells = (COUNTERED, DROPPED)
    stuck: ClassVar[dict[str, str]] = {PHASE_PENALTY: "You are hit and cannot counter: "}
    prompts: ClassVar[dict[str, str]] = {
        PHASE_PENALTY: "You are hit: counter with a Jack (click it) or take the penalty.",
        PHASE_DROP: "Your Queen lets you drop one card of your hand: click it, or drop nothing.",
        PHASE_LOST: "You lose this turn too, for a hit that came round again: pass.",
    }
    labels: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "Take the penalty", (PHASE_PENALTY, PASS): "Lose the turn",
        (PHASE_LOST, PASS): "Lose the turn", (PHASE_DROP, END): "Drop nothing",
    }
    doings: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "draws a penalty card",
        (PHASE_PENALTY, PASS): "passes (losing the turn)",
        (PHASE_LOST, PASS): "passes (losing the turn)",
        (PHASE_PENALTY, PLAY): "answers the hit with {cards}",
        (PHASE_DROP, PLAY): "drops {cards} after the Queen",
        (PHASE_DROP, END): "drops nothing more after the Queen",
    }
    reasons: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, PLAY): "Seat {seat} is hit, and answers the hit with {cards} instead "
                               "of drawing (a Jack counters a hit whatever its suit).",
        (PHASE_DROP, PLAY): "After its Queen, seat {seat} may drop another card: {cards} "
                            "(any card: a dropped card need not match).",
        (PHASE_PENALTY, DRAW): "Seat {seat} takes its penalty, one card at a time.",
        (PHASE_PENALTY, PASS): "Seat {seat} loses the turn: it passes.",
        (PHASE_LOST, PASS): "Seat {seat} loses the turn: it passes.",
        (PHASE_DROP, END): "A Queen's drops are optional: it may end the turn instead.",
    }
    hints: ClassVar[dict[tuple[str, str], str]] = {
        (PHASE_PENALTY, DRAW): "You are hit: take the penalty card by card, unless you "
                               "counter with a Jack.",
        (PHASE_PENALTY, PASS): "You are skipped: say pass to lose the turn, unless you counter "
                               "with a Jack.",
        (PHASE_LOST, PASS): "You lose this turn too, for a hit that came round again.",
        (PHASE_DROP, END): "Drop no card after the Queen, and end the turn.",
    }


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

    allowed: ClassVar[dict[str, str]] = {
        PHASE_DROP: "After your Queen you may drop any one card: a dropped card need not match.",
        PHASE_PENALTY: "You are hit: a Jack counters the hit whatever its suit.",
    }
    missed: ClassVar[dict[str, str]] = {
        PHASE_DROP: "after a Queen any card of your hand may be dropped, matching or not",
        PHASE_PENALTY: "a Jack of your hand counters the hit whatever its suit",
    }

    @staticmethod
    def pending(seen: Seen, names: Sequence[str], me: int) -> tuple[list[dict[str, Any]],
                                                                    dict[int, str]]:
        """The open cycle of hits as banner lines, in the order they resolve, and a short
        badge per victim, from public state only (who is hit, by whom, how many cards are
        left), plus seat ``me``'s own counters when it is the one resolving."""
        extra = dict(seen.extra)
        hits: tuple[tuple[int, int, int], ...] = extra.get("pending", ())
        if not hits or seen.over:
            return [], {}
        actor: int | None
        source: str
        actor, source = extra.get("hit_by", (None, ""))
        total = sum(h for _s, _l, h in hits)
        word = _SOURCE_WORDS.get(source, source) + ("s" if total > 1 else "")
        by = ("your" if actor == me else f"{names[actor]}'s") if actor is not None else "a"
        joker_proof = source == "joker" and not seen.rules.jack_counters_joker
        lines, badges = [], {}
        for seat, left, count in hits:
            now = seen.phase == PHASE_PENALTY and seen.to_play == seat
            you = seat == me
            times = "" if count == 1 else f" {count} times"
            more = " more" if now and seen.turn_draws else ""
            who = "You are" if you else f"{names[seat]} is"
            if left:
                text = (f"{who} hit{times} by {by} {word}: {'you must ' if you else ''}draw "
                        f"{left}{more} card{'s' if left != 1 else ''} and lose "
                        f"{'your' if you else 'the'} turn")
            else:
                text = (f"{who} skipped{times} by {by} {word}: {'your' if you else 'the'} turn "
                        "is lost")
            if you and now:
                jacks = sorted({m.cards[0] for m in seen.legal if m.kind == PLAY})
                if jacks and seen.turn_draws:
                    text += f", or counter now with the {jacks[0].display} you just drew"
                elif jacks:
                    text += (" — or counter with a Jack: click "
                             + " or ".join(c.display for c in jacks))
                elif not seen.turn_draws:
                    text += (" (a Jack cannot counter a joker in these rules)" if joker_proof
                             else " (no Jack in your hand to counter with)")
            elif not (now and seen.turn_draws) and not joker_proof:
                text += (", unless you counter with a Jack" if you
                         else ", unless countered with a Jack")
            lead = "" if len(hits) == 1 else "Now: " if now else "Then: "
            lines.append({"seat": seat, "now": now, "you": you, "text": lead + text + "."})
            badges[seat] = f"hit: draw {left}" if left else "hit: skipped"
        return lines, badges


#: how the banner names the card that made a cycle of hits
_SOURCE_WORDS = {"two": "2", "ace": "Ace", "joker": "joker"}

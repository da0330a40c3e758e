"""The words of the game table: every event of a hand as a sentence a learner reads (and a
screen reader speaks), built from the event's fields (who, which cards, how many), not from
the engine's notes; and :func:`for_people`, which takes the engine's own sentences (why a card
is refused, why one fits) to the table's conventions: cards in symbols (``3♥``, never ``3H``),
no rule ids (``BR-12``, ``SR-17``: those belong in the rulebook's links).

The sentences say "you" to the human seat when its name is ``You`` ("you are hit", "your
turn"), and "Bot 2" otherwise. Piles are counted from 1, as people count them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crazylab.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, CardError
from crazylab.engine.events import (
    BURIED,
    CALLED,
    COUNTERED,
    DEALT,
    DREW,
    DROPPED,
    ENDED,
    FLIPPED,
    JUMPED_IN,
    LAST_CARD,
    PASSED,
    PENALTY,
    PLAYED,
    RESHUFFLED,
    REVERSED,
    SKIPPED,
    STARTER,
    Event,
)
from crazylab.engine.moves import PLAY, Move
from crazylab.engine.pitch import pretty
from crazylab.engine.rules import RuleSet
from crazylab.rulebook import RULE_ID

_PAREN = re.compile(r"\s*\(([^()]*)\)")
#: an option's name or setting inside a rule-id parenthesis: ``action_cards``, ``x='y'``
_OPTION = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+(?:=\S+)?|\b\w+='[^']*'")
#: a card code in a sentence, not in typed notation (``4D@0``, ``8S:D``, ``2H+2S`` stay)
_CARD = re.compile(r"(?<![\w@+♠♥♦♣])(10|[2-9AJQK])([CDHS])(?![\w@+♠♥♦♣]|:\S)")
_JOKER = re.compile(r"(?<![\w@+])JK(?![\w@+]|:\S)")
#: ranks whose hits a Jack answers in Crazy Breens (2, Ace, joker)
_HIT_RANKS = (2, 1, 14)


def strip_rule_ids(text: str) -> str:
    """``"loses the turn (BR-M4)."`` → ``"loses the turn."``; a parenthesis keeps its words
    (``"(BR-22; no passing the hit on, BR-Q23)"`` → ``"(no passing the hit on)"``)."""
    if not RULE_ID.search(text):
        return text

    def paren(m: re.Match[str]) -> str:
        inside = m.group(1)
        if not RULE_ID.search(inside):
            return m.group(0)
        rest = _OPTION.sub("", RULE_ID.sub("", inside))
        rest = re.sub(r"\s*[,;]\s*(?=[,;]|$)", "", rest)
        rest = re.sub(r"^[\s,;:]+|[\s,;:]+$", "", rest)
        rest = re.sub(r"\bhouse rulings?\b\s*", "", rest).strip(" ,;:")
        return f" ({rest})" if rest else ""

    text = _PAREN.sub(paren, text)
    text = re.sub(r"\b(?:house )?rulings?\s+(?=" + RULE_ID.pattern + ")", "", text)
    text = RULE_ID.sub("", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)
    text = re.sub(r"\s+([.,;:!?)])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def card_symbols(text: str) -> str:
    """Card codes in a sentence as the cards are printed: ``3H`` → ``3♥``, ``JK`` → ``🃏``."""
    def card(m: re.Match[str]) -> str:
        try:
            return Card.parse(m.group(0)).display
        except CardError:  # pragma: no cover - the pattern only finds real codes
            return m.group(0)

    return _JOKER.sub("🃏", _CARD.sub(card, text))


def for_people(text: str, names: Sequence[str] = ()) -> str:
    """An engine sentence as the table shows it: cards in symbols, no rule ids, and seats
    by the table's names (``Seat 1`` → ``Bot 1``) when ``names`` are given."""
    text = card_symbols(strip_rule_ids(text or ""))
    if names:
        text = re.sub(r"\b[Ss]eat (\d+)\b",
                      lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)
    return text


def cards_words(cards: Sequence[Card]) -> str:
    """``8♠``, ``2♣ and 2♥``, ``2♣, 2♥ and 2♠``."""
    shown = [c.display for c in cards]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def move_words(m: Move) -> str:
    """A legal move as the hint lists it: ``8♠, calling ♦``, ``2♣ + 2♥``, ``4♦ on pile 2``."""
    if m.kind != PLAY:
        return m.kind
    text = " + ".join(c.display for c in m.cards)
    if m.call is not None:
        call = SUIT_SYMBOLS[SUITS.index(m.call)] if m.call in SUITS else pretty(m.call)
        text += f", calling {call}"
    if m.pile is not None:
        text += f" on pile {m.pile + 1}"
    if m.last:
        text += ", saying “Last card!”"
    return text


def call_label(rules: RuleSet, call: str) -> str:
    """``D`` → ``♦ diamonds``; pitches and letters are shown as they are."""
    if rules.call_kind == "suit" and call in SUITS:
        i = SUITS.index(call)
        return f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}"
    return call


def call_in_force(rules: RuleSet, game_or_obs: Any, pile: int) -> str:
    """What the next play must follow on ``pile``, in words (from public information)."""
    top = game_or_obs.piles[pile][-1]
    call = game_or_obs.calls[pile]
    if isinstance(call, int):  # a Game stores calls as numbers
        call = rules.format_call(call)
    if rules.call_kind == "suit":
        if call is not None:
            return f"called {call_label(rules, call)}"
        if top.suit is None:
            return "anything"
        text = f"suit {SUIT_SYMBOLS[top.suit]} {SUIT_NAMES[top.suit]}"
        if rules.matching == "suit_pitch" and rules.pitches.pitch(top) is not None:
            text += f" or pitch {pretty(rules.pitches.spelling(top))}"
        return text
    kind = "letter" if rules.call_kind == "letter" else "pitch"
    if call is not None:
        return f"called {kind} {pretty(call) if kind == 'pitch' else call}"
    ref = rules.reference(top, None)
    if kind == "pitch":  # as the top card spells it: sharps on ♦ ♣, flats on ♥ ♠ (MU-Q32)
        return f"pitch {rules.pitches.spell(ref, top)}"
    return f"{kind} {rules.format_call(ref)}"

@dataclass
class Voice:
    """How the table names a seat in a sentence: "you"/"your" for the human seat named
    ``You``, the seat's name otherwise."""

    names: Sequence[str]
    human: int = 0

    def you(self, seat: int | None) -> bool:
        return seat == self.human and self.names[self.human] == "You"

    def subj(self, seat: int | None) -> str:
        return "You" if self.you(seat) else self.name(seat)

    def obj(self, seat: int | None) -> str:
        return "you" if self.you(seat) else self.name(seat)

    def poss(self, seat: int | None, start: bool = False) -> str:
        if self.you(seat):
            return "Your" if start else "your"
        return f"{self.name(seat)}'s"

    def the_turn(self, seat: int | None) -> str:
        return "your turn" if self.you(seat) else "the turn"

    def verb(self, seat: int | None, plural: str, singular: str) -> str:
        return plural if self.you(seat) else singular

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "The dealer"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"


@dataclass
class Said:
    """One event and its sentence (``text`` empty for events the table does not read out,
    such as the start of a turn). ``hit_by``: for a hit, who placed which hitting cards."""

    event: Event
    text: str
    hit_by: tuple[int | None, tuple[Card, ...]] | None = None


def _pile(rules: RuleSet, pile: int | None) -> str:
    return f" on pile {pile + 1}" if pile is not None and rules.piles > 1 else ""


def _call_words(rules: RuleSet, call: str | None) -> str:
    if call is None:
        return "nothing"
    if rules.call_kind == "suit" and call in SUITS:
        i = SUITS.index(call)
        return f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}"
    kind = "the letter" if rules.call_kind == "letter" else "the pitch"
    return f"{kind} {call[:1] + call[1:].replace('#', '♯').replace('b', '♭')}"


class Narrator:
    """Turns a hand's events into the table's sentences, in order, keeping what a sentence
    needs from earlier events (whose King turns a card, whose 2 hits whom)."""

    def __init__(self, rules: RuleSet, names: Sequence[str], human: int = 0) -> None:
        self.rules = rules
        self.voice = Voice(names, human)
        self._hitter: tuple[int | None, tuple[Card, ...]] | None = None
        self._king: tuple[int | None, Card] | None = None
        self._last: tuple[int | None, tuple[Card, ...]] | None = None

    def _placed(self, seat: int | None, cards: tuple[Card, ...]) -> None:
        self._last = (seat, cards)
        hitting = tuple(c for c in cards if c.rank in _HIT_RANKS)
        if hitting:
            self._hitter = (seat, hitting)
        kings = [c for c in cards if c.rank == 13]
        if kings:
            self._king = (seat, kings[-1])

    def say(self, e: Event, result: str = "") -> Said:
        v, r = self.voice, self.rules
        k, s = e.kind, e.seat
        who, shown = v.subj(s), cards_words(e.cards)
        note = for_people(e.note)
        king = self._king  # the King whose deck play this is (before this event's cards)
        if k in (PLAYED, JUMPED_IN, DROPPED, FLIPPED, STARTER, COUNTERED):
            self._placed(s if k != STARTER else None, e.cards)
        if k == DEALT:
            if e.cards:
                return Said(e, f"{who} {v.verb(s, 'were', 'was')} dealt "
                               f"{' '.join(c.display for c in e.cards)}.")
            return Said(e, f"{who} {v.verb(s, 'were', 'was')} dealt {e.count} cards.")
        if k == STARTER:
            return Said(e, f"The starter is {shown}{_pile(r, e.pile)}.")
        if k == BURIED:
            return Said(e, f"The starter {shown} was buried in the stock and another card "
                           "turned up.")
        if k == PLAYED:
            if len(e.cards) > 1:
                return Said(e, f"{who} stacked {shown}{_pile(r, e.pile)} "
                               f"({e.cards[-1].display} on top).")
            return Said(e, f"{who} played {shown}{_pile(r, e.pile)}.")
        if k == CALLED:
            return Said(e, f"{who} called {_call_words(r, e.call)}{_pile(r, e.pile)}.")
        if k == DREW:
            n = e.count or len(e.cards)
            what = (' '.join(c.display for c in e.cards) if e.cards
                    else "a card" if n == 1 else f"{n} cards")
            extra = f" {note}" if note.startswith("(") else ""
            return Said(e, f"{who} drew {what}{extra}.")
        if k == RESHUFFLED:
            extra = f" {note}" if note else ""
            return Said(e, f"The discards were shuffled into a new stock of {e.count} "
                           f"cards{extra}.")
        if k == PASSED:
            if "jump" in e.note:
                return Said(e, f"{who} did not jump in.")
            return Said(e, f"{who} passed.")
        if k == ENDED:
            return Said(e, result or note)
        if k == FLIPPED:
            king_words = (f"{v.poss(s, start=True)} {king[1].display}" if king and king[0] == s
                          else f"{v.poss(s, start=True)} King")
            if e.cards:
                return Said(e, f"{king_words} turns {shown} from the stock onto the pile, as "
                               f"{v.poss(s)} play.")
            if "again" in e.note:
                return Said(e, f"{king_words} turns nothing: the stock ran out again, and a "
                               "chain of Kings reshuffles it only once.")
            return Said(e, f"{king_words} turns nothing: no card is left in the stock.")
        if k == PENALTY:
            source = self._hitter
            if e.cards:  # a draw passed on, or a house draw card: its player is the hitter
                last = self._last
                source = last if last is not None and last[1] == e.cards else (None, e.cards)
            return Said(e, self.hits([(s, e.count)], source), hit_by=source)
        if k == SKIPPED:
            return Said(e, self._skipped(e))
        if k == COUNTERED:
            top = e.cards[-1] if e.cards else None
            jack = ("the " + shown + " just drawn") if "just drawn" in e.note else shown
            suit = (f", and the suit is now {SUIT_SYMBOLS[top.suit]} {SUIT_NAMES[top.suit]}"
                    if top is not None and top.suit is not None else "")
            return Said(e, f"{who} countered with {jack}: the hit is over{suit}.")
        if k == DROPPED:
            if e.cards:
                return Said(e, f"{who} dropped {shown} with the Queen.")
            more = " more" if "more" in e.note else ""
            return Said(e, f"{who} dropped nothing{more} after the Queen.")
        if k == REVERSED:
            return Said(e, f"{who} reversed the direction of play with {shown}.")
        if k == JUMPED_IN:
            return Said(e, f"{who} jumped in out of turn with {shown}, the same card as the "
                           "top.")
        if k == LAST_CARD:
            if e.count or "not" in e.note:
                n = e.count
                return Said(e, f"{who} forgot to say “Last card!” and "
                               f"{v.verb(s, 'draw', 'draws')} {n} card{'s' if n != 1 else ''}.")
            return Said(e, f"{who} said “Last card!”")
        if k == "turn":
            return Said(e, "")
        text = for_people(e.describe(names=list(v.names)))
        return Said(e, text)

    def _skipped(self, e: Event) -> str:
        v, s = self.voice, self.voice.subj(e.seat)
        lose = self.voice.verb(e.seat, "lose", "loses")
        if "wrapped" in e.note or "one more" in e.note:
            return f"{s} {lose} one more turn, for a hit that came round again."
        text = f"{s} {lose} {v.the_turn(e.seat)}"
        if "forgiven" in e.note:
            n = re.search(r"\d+", e.note)
            left = int(n.group(0)) if n else 0
            text += (f"; the {left} penalty card{'s' if left != 1 else ''} left to draw "
                     f"{'are' if left != 1 else 'is'} forgiven (the stock is empty)" if left
                     else "; the penalty cards left to draw are forgiven (the stock is empty)")
        elif "skip card" in e.note:
            text += " to a skip card"
        elif "joker" in e.note:
            text += " to the joker"
        return text + "."

    def hits(self, victims: Sequence[tuple[int | None, int]],
             source: tuple[int | None, tuple[Card, ...]] | None) -> str:
        """One sentence for the hits of one action: ``Your 2♣ and 2♥ hit Bot 1 and Bot 2:
        each must draw 2 cards and lose the turn, unless they counter with a Jack.``"""
        v, r = self.voice, self.rules
        cards: tuple[Card, ...] = source[1] if source else ()
        if source is None or not cards:
            by = "A hit"
        elif source[0] is None:
            by = f"The starter {cards_words(cards)}"
        else:
            by = f"{v.poss(source[0], start=True)} {cards_words(cards)}"
        verb = "hits" if len(cards) <= 1 else "hit"
        seats = [seat for seat, _ in victims]
        objs = [v.obj(seat) for seat in seats]
        whom = objs[0] if len(objs) == 1 else ", ".join(objs[:-1]) + " and " + objs[-1]
        draws = {d for _, d in victims}
        if len(victims) == 1:
            seat, d = victims[0]
            subj = "you" if v.you(seat) else v.name(seat)
            what = (f"{subj} must draw {d} card{'s' if d != 1 else ''} and lose "
                    f"{v.the_turn(seat)}" if d else f"{subj} must lose {v.the_turn(seat)}")
        elif len(draws) == 1:
            d = draws.pop()
            what = (f"each must draw {d} card{'s' if d != 1 else ''} and lose the turn" if d
                    else "each must lose the turn")
        else:
            what = "; ".join(f"{v.name(seat) if not v.you(seat) else 'you'} must draw {d}"
                             for seat, d in victims) + ", and each loses the turn"
        counter = ""
        if r.specials and not (cards and cards[-1].rank == 14 and not r.jack_counters_joker):
            if len(victims) > 1:
                counter = ", unless they counter with a Jack"
            elif v.you(seats[0]):
                counter = ", unless you counter with a Jack"
            else:
                counter = ", unless they counter with a Jack"
        return f"{by} {verb} {whom}: {what}{counter}."

    def sentences(self, events: Sequence[Event], result: str = "") -> list[Said]:
        """A :class:`Said` per event. A card placed as a Queen's drop, a counter or a jump-in
        is said once, by the event that says what it was (the engine logs the play too)."""
        said = [self.say(e, result) for e in events]
        for i, e in enumerate(events):
            if e.kind != PLAYED:
                continue
            before = events[i - 1] if i else None
            after = events[i + 1] if i + 1 < len(events) else None
            if (after is not None and after.kind in (DROPPED, COUNTERED)
                    and after.seat == e.seat and after.cards == e.cards) or (
                    before is not None and before.kind == JUMPED_IN
                    and before.seat == e.seat and before.cards == e.cards):
                said[i] = Said(e, "")
        return said


def news(said: Sequence[Said], narrator: Narrator) -> list[str]:
    """What happened since the human last acted, for the status line: the same sentences as
    the log, with a run of draws by one player said once ("Bot 1 drew 2 cards.", and "…and
    loses the turn." when the run was a penalty), and the hits of one action said together.
    Deals and the starts of turns are left out."""
    out: list[str] = []
    v = narrator.voice
    i = 0
    while i < len(said):
        s = said[i]
        e = s.event
        if e.kind in (DEALT, "turn", ENDED) or not s.text:  # the prompt says the end
            i += 1
            continue
        if e.kind == DREW:
            cards: list[Card] = []
            j, n, penalty = i, 0, False
            while j < len(said) and said[j].event.kind == DREW and said[j].event.seat == e.seat:
                d = said[j].event
                cards += d.cards
                n += d.count or len(d.cards)
                penalty = penalty or "penalty" in d.note
                j += 1
            if j == i + 1 and not penalty:
                out.append(s.text)
                i = j
                continue
            who = v.subj(e.seat)
            what = (cards_words(tuple(cards)) if cards and len(cards) == n
                    else "a card" if n == 1 else f"{n} cards")
            kind = " as a penalty" if penalty else ""
            if j < len(said) and said[j].event.kind == SKIPPED and \
                    said[j].event.seat == e.seat and penalty:
                lose = v.verb(e.seat, "lose", "loses")
                out.append(f"{who} drew {what}{kind} and {lose} {v.the_turn(e.seat)}.")
                j += 1
            else:
                out.append(f"{who} drew {what}{kind}.")
            i = j
            continue
        if e.kind == PENALTY:
            j, victims = i, []
            while j < len(said) and said[j].event.kind == PENALTY and \
                    said[j].hit_by == s.hit_by:
                victims.append((said[j].event.seat, said[j].event.count))
                j += 1
            out.append(narrator.hits(victims, s.hit_by) if len(victims) > 1 else s.text)
            i = j
            continue
        out.append(s.text)
        i += 1
    return out

"""The one narrator: every event of a hand as the sentence a learner reads (and a screen
reader speaks), written from the event's fields (who, which cards, how many, why), never from
prose. The table, spectators, the explainer, practice, the CLI and the review all read a hand
through it, so the same move reads the same everywhere.

A :class:`Narrator` is given the rules, the seats' names and the reader's seat: the seat named
``"You"`` is spoken to ("you are hit", "your turn"), the others are named. A variant adds the
words of its own events through its :meth:`~crazylab.engine.variants.base.Variant.words`
hook (a :class:`~crazylab.engine.wording.Words`); the core writes the rest. Piles are counted
from 1, as people count them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card
from .errors import CrazylabError, quote
from .events import (
    BURIED,
    CALLED,
    DEALT,
    DREW,
    ENDED,
    LAST_CARD,
    PASSED,
    PENALTY,
    PLAYED,
    RESHUFFLED,
    SKIPPED,
    STARTER,
    WHY_FORGIVEN,
    WHY_HIT,
    WHY_JOKER,
    WHY_LAST_CARD,
    WHY_MISSED,
    WHY_SKIP_CARD,
    Event,
)
from .pitch import pretty
from .rules import RuleSet
from .scoring import HandResult
from .variants import hooks_for
from .wording import Voice, Words, cards_words, join, points

__all__ = ["Narrator", "Said", "story", "words_for"]


@dataclass(frozen=True)
class Said:
    """One event and its sentence (``text`` empty for an event not read out, such as a card
    another sentence already tells). ``hit_by``: for a hit, who placed which hitting cards."""

    event: Event
    text: str
    hit_by: tuple[int | None, tuple[Card, ...]] | None = None


class Narrator:
    """A hand's events as sentences, in order, remembering what a sentence needs from earlier
    events (who placed the cards of a hit)."""

    def __init__(self, rules: RuleSet, names: Sequence[str] = (), viewer: int | None = None
                 ) -> None:
        if not isinstance(rules, RuleSet):
            raise CrazylabError(f"a narrator needs the hand's RuleSet, not {quote(rules)}")
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            raise CrazylabError(f"names must be a list of texts, one per seat, not "
                                f"{quote(names)}")
        if viewer is not None and (type(viewer) is not int or viewer < 0):
            raise CrazylabError(f"viewer must be a seat number (or None), not {quote(viewer)}")
        self.rules = rules
        self.viewer = viewer
        self.voice = Voice(tuple(names), viewer)
        self.last: tuple[int | None, tuple[Card, ...]] | None = None
        self.words: Words = words_for(rules)(self)

    # -- one event ------------------------------------------------------------------------

    def say(self, e: Event, result: str = "") -> Said:
        """``e`` as the reader may see it, in one sentence (``result``: the end's sentence,
        else the one :meth:`result` would need the game for)."""
        if not isinstance(e, Event) or not isinstance(result, str):
            raise CrazylabError(f"say() tells an Event (and the end's sentence as a text), not "
                                f"{quote(e)}")
        e = e.visible_to(self.viewer)
        source = self._source(e) if e.kind == PENALTY else None
        own = self.words.say(e)
        if e.kind in (PLAYED, STARTER) or e.kind in self.words.places:
            seat = e.seat if e.kind != STARTER else None
            self.last = (seat, e.cards)
            self.words.placed(seat, e.cards)
        if own is not None:
            return Said(e, own, source)
        if e.kind == PENALTY:
            return Said(e, self._hits([(e.seat, e.count)], source), source)
        if e.kind == ENDED:
            return Said(e, result or self._ended(e))
        return Said(e, self._core(e))

    def _source(self, e: Event) -> tuple[int | None, tuple[Card, ...]] | None:
        """Who placed the cards of the hit ``e`` tells: the event's own cards (a draw card, a
        hit passed on) are its player's; else the variant remembers."""
        if e.cards:
            last = self.last
            return last if last is not None and last[1] == e.cards else (e.by, e.cards)
        return self.words.hitter()

    def _core(self, e: Event) -> str:
        v, k, s = self.voice, e.kind, e.seat
        who, shown = v.subj(s), cards_words(e.cards)
        on = self._on_pile(e.pile)
        if k == DEALT:
            was = v.verb(s, "were", "was")
            return (f"{who} {was} dealt {' '.join(c.display for c in e.cards)}." if e.cards
                    else f"{who} {was} dealt {e.count} cards.")
        if k == STARTER:
            return f"The starter is {shown}{on}."
        if k == BURIED:
            return f"The starter {shown} was buried in the stock and another card turned up."
        if k == PLAYED:
            if len(e.cards) > 1:
                return f"{who} stacked {shown}{on} ({e.cards[-1].display} on top)."
            return f"{who} played {shown}{on}."
        if k == CALLED:
            return f"{who} called {self._call_words(e.call)}{on}."
        if k == DREW:
            n = e.count or len(e.cards)
            what = (" ".join(c.display for c in e.cards) if e.cards
                    else "a card" if n == 1 else f"{n} cards")
            return f"{who} drew {what}{self._drew_why(e)}."
        if k == RESHUFFLED:
            limit = f" ({e.nth} of {e.of})" if e.of else ""
            return f"The discards were shuffled into a new stock of {e.count} cards{limit}."
        if k == PASSED:
            return f"{who} passed."
        if k == LAST_CARD:
            if e.why == WHY_MISSED:
                n = e.count
                return (f"{who} forgot to say “Last card!” and {v.verb(s, 'draw', 'draws')} "
                        f"{n} card{'s' if n != 1 else ''}.")
            return f"{who} said “Last card!”"
        if k == SKIPPED:
            text = f"{who} {v.verb(s, 'lose', 'loses')} {v.the_turn(s)}"
            if e.why == WHY_FORGIVEN:
                n = e.count
                text += (f"; the {n} penalty card{'s' if n != 1 else ''} left to draw "
                         f"{'are' if n != 1 else 'is'} forgiven (the stock is empty)")
            elif e.why == WHY_SKIP_CARD:
                text += " to a skip card"
            elif e.why == WHY_JOKER:
                text += " to the joker"
            return text + "."
        return f"{who}: {k.replace('_', ' ')}" + (f" {shown}" if shown else "") + "."

    @staticmethod
    def _drew_why(e: Event) -> str:
        if e.why == WHY_HIT and e.of:
            return f" (penalty card {e.nth} of {e.of})"
        if e.why == WHY_JOKER:
            return " (the joker's draw)"
        if e.why == WHY_LAST_CARD:
            return " (no last-card call)"
        return ""

    def _on_pile(self, pile: int | None) -> str:
        """`` on pile 2`` where there are several piles, else nothing."""
        return f" on pile {pile + 1}" if pile is not None and self.rules.piles > 1 else ""

    def _call_words(self, call: str | None) -> str:
        """``♦ diamonds``, ``the pitch F♯``, ``the letter D``."""
        if call is None:
            return "nothing"
        if self.rules.call_kind == "suit" and call in SUITS:
            i = SUITS.index(call)
            return f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}"
        kind = "the letter" if self.rules.call_kind == "letter" else "the pitch"
        return f"{kind} {pretty(call)}"

    # -- hits ------------------------------------------------------------------------------

    def _hits(self, victims: Sequence[tuple[int | None, int]],
             source: tuple[int | None, tuple[Card, ...]] | None) -> str:
        """One sentence for the hits of one action: ``Your 2♣ and 2♥ hit Bot 1 and Bot 2:
        each must draw 2 cards and lose the turn, unless they counter with a Jack.``"""
        v = self.voice
        cards: tuple[Card, ...] = source[1] if source else ()
        if source is None or not cards:
            by = "A hit" if source is None or source[0] is None else \
                f"{v.poss(source[0], start=True)} hit"
        elif source[0] is None:
            by = f"The starter {cards_words(cards)}"
        else:
            by = f"{v.poss(source[0], start=True)} {cards_words(cards)}"
        verb = "hits" if len(cards) <= 1 else "hit"
        seats = [seat for seat, _ in victims]
        whom = join([v.obj(seat) for seat in seats])
        draws = {d for _, d in victims}
        if len(victims) == 1:
            seat, d = victims[0]
            subj = v.obj(seat)
            what = (f"{subj} must draw {d} card{'s' if d != 1 else ''} and lose "
                    f"{v.the_turn(seat)}" if d else f"{subj} must lose {v.the_turn(seat)}")
        elif len(draws) == 1:
            d = draws.pop()
            what = (f"each must draw {d} card{'s' if d != 1 else ''} and lose the turn" if d
                    else "each must lose the turn")
        else:
            what = "; ".join(f"{v.obj(seat)} must draw {d}" for seat, d in victims) + \
                ", and each loses the turn"
        answer = self.words.answer(len(victims), v.you(seats[0]), cards)
        return f"{by} {verb} {whom}: {what}{answer}."

    # -- the end ---------------------------------------------------------------------------

    def _ended(self, e: Event) -> str:
        """The end without its points (:meth:`result` tells them, from the game)."""
        if e.seat is not None:
            v = self.voice
            return f"{v.subj(e.seat)} went out and {v.verb(e.seat, 'win', 'wins')} the hand."
        return {"VOID": "The hand is void.", "BLOCKED": "The hand is blocked."}.get(
            e.why, "The hand is over.")

    def result(self, result: HandResult | None) -> str:
        """How a finished hand ended: ``"Seat 0 went out and wins the hand with 64 points;
        seats 1 and 2 score 0 points."`` (empty while it is played)."""
        if result is None:
            return ""
        if not isinstance(result, HandResult):
            raise CrazylabError(f"result() tells a hand's HandResult (game.result), not "
                                f"{quote(result)}")
        scores, winners = list(result.scores), list(result.winners)
        if result.reason == "VOID" or not winners:
            return "The hand is void: nobody wins and nobody scores."
        who, plural = self._seats(winners)
        wins = "win" if plural else "wins"
        if result.reason == "OUT":
            head = f"{who[0].upper()}{who[1:]} went out and {wins} the hand"
        elif result.reason == "BLOCKED":
            head = f"The hand is blocked: {who} {wins} it"
        else:
            head = f"{who[0].upper()}{who[1:]} {wins} the hand"
        if not any(scores):
            return f"{head}; nobody scores points."
        own = {scores[s] for s in winners}
        if len(own) == 1:
            head += f" with {points(own.pop())}"
        others: dict[int, list[int]] = {}
        for seat, score in enumerate(scores):
            if seat not in winners:
                others.setdefault(score, []).append(seat)
        parts = []
        for score, seats in others.items():
            text, many = self._seats(seats)
            parts.append(f"{text} {'score' if many else 'scores'} {points(score)}")
        return head + ("; " + ", ".join(parts) if parts else "") + "."

    def _seats(self, seats: list[int]) -> tuple[str, bool]:
        """``seat 1``, ``seats 1 and 2`` (or the names), and whether the verb is plural."""
        v = self.voice
        if v.names:
            words = [v.obj(s) for s in seats]
            return join(words), len(words) > 1 or v.you(seats[0])
        if len(seats) == 1:
            return f"seat {seats[0]}", False
        return f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}", True

    # -- a whole log -----------------------------------------------------------------------

    def sentences(self, events: Sequence[Event], result: str = "") -> list[Said]:
        """A :class:`Said` per event. A card placed as a Queen's drop, a counter or a jump-in
        is said once, by the event that says what it was (the engine logs the play too)."""
        if not isinstance(events, (list, tuple)):
            raise CrazylabError(f"sentences() tells a list of events, not {quote(events)}")
        said = [self.say(e, result) for e in events]
        for i, e in enumerate(events):
            if e.kind == PLAYED and self.retold(events, i):
                said[i] = Said(e, "")
        return said

    def news(self, said: Sequence[Said]) -> list[str]:
        """What happened since the reader last acted, for a status line: the same sentences as
        the log, with a run of draws by one player said once ("Bot 1 drew 2 cards.", and "…and
        loses the turn." when the run was a penalty), and the hits of one action said together.
        Deals, the starts of turns and the end are left out."""
        if not isinstance(said, (list, tuple)) or not all(isinstance(x, Said) for x in said):
            raise CrazylabError(f"news() digests the narrator's Saids, not {quote(said)}")
        out: list[str] = []
        v = self.voice
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
                    penalty = penalty or d.why == WHY_HIT
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
                out.append(self._hits(victims, s.hit_by) if len(victims) > 1 else s.text)
                i = j
                continue
            out.append(s.text)
            i += 1
        return out

    def hand(self, game: Any) -> list[Said]:
        """A :class:`Said` per event of ``game``'s hand so far (a game of these rules), the
        end told with its points."""
        if _rules_of(game) != self.rules:
            raise CrazylabError("hand() tells a game of the narrator's own rules")
        return self.sentences(game.events, self.result(game.result) if game.over else "")

    def retold(self, events: Sequence[Event], i: int) -> bool:
        """Whether the play ``events[i]`` is told by the event logged next to it with the
        same cards (the engine logs a drop, a counter or a jump-in as a play too)."""
        if type(i) is not int or not isinstance(events, (list, tuple)) \
                or not 0 <= i < len(events) \
                or not all(isinstance(x, Event) for x in events[max(0, i - 1):i + 2]):
            raise CrazylabError(f"retold() takes a list of events and the index of one, not "
                                f"{quote(events)}, {quote(i)}")
        e, kinds = events[i], self.words.retells
        return any(0 <= j < len(events) and events[j].kind in kinds
                   and events[j].seat == e.seat and events[j].cards == e.cards
                   for j in (i - 1, i + 1))


def story(game: Any, viewer: int | None = None, names: Sequence[str] = ()) -> list[str]:
    """Every sentence of ``game``'s hand so far as ``viewer`` may read it (``None``: every
    card shown), the end told with its points: what the CLI prints and spectators read."""
    return [s.text for s in Narrator(_rules_of(game), names, viewer).hand(game) if s.text]


def words_for(rules: RuleSet) -> type[Words]:
    """The words of ``rules``'s variant (its phases' prompts, labels, doings, reasons and
    hints): what a page reads instead of naming a variant's phase itself."""
    if not isinstance(rules, RuleSet):
        raise CrazylabError(f"words_for() takes a RuleSet, not {quote(rules)}")
    words: type[Words] | None = hooks_for(rules).words()
    return words or Words


def _rules_of(game: Any) -> RuleSet:
    rules = getattr(game, "rules", None)
    if not isinstance(rules, RuleSet) or not isinstance(getattr(game, "events", None), list):
        raise CrazylabError(f"a hand's story is told from a Game, not {quote(game)}")
    return rules

"""A scored hand with its working: what each card left counts and what each seat scores.

The final scores are the engine's own: :func:`score_hands` sets up the position, lets the
winner play a last card and reads ``game.scores``, so the working shown and the engine can
never disagree silently. The score calculator widget and the lessons' score questions use it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, sort_key
from .checks import whole
from .errors import quote
from .game import Game, SetupError
from .rules import RuleSet
from .rules import rules as get_rules


def card_value(rules: RuleSet, c: Card) -> int:
    """What one card left in a loser's hand counts under the rule set's own scoring: its
    points for the winner (``winner_collects``), −1 (``minus_one_per_card``) or 0."""
    if rules.scoring == "winner_collects":
        return rules.card_points(c)
    return -1 if rules.scoring == "minus_one_per_card" else 0


def signed(n: int) -> str:
    """``+3``, ``−3`` (a true minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def number_text(n: int) -> str:
    """``3``, ``−3``."""
    return f"−{-n}" if n < 0 else str(n)


@dataclass(frozen=True)
class Scored:
    """The working of a scored hand."""

    rules: RuleSet
    winner: int
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[tuple[int, ...], ...]  # what each card counts (card_value), seat by seat
    totals: tuple[int, ...]
    scores: tuple[int, ...]  # from the engine

    def working(self, names: list[str] | None = None) -> list[str]:
        """The calculation in words, seat by seat, then the winner's line."""
        names = names or [f"Seat {s}" for s in range(len(self.hands))]
        lines = []
        for s, hand in enumerate(self.hands):
            if s == self.winner:
                continue
            if not hand:
                lines.append(f"{names[s]} holds no cards: 0 points.")
            elif self.rules.scoring == "none":
                lines.append(f"{names[s]} holds {len(hand)} card{'s' * (len(hand) != 1)}: "
                             "they count nothing in these rules.")
            else:
                parts = " + ".join(f"{c.display} {number_text(p)}"
                                   for c, p in zip(hand, self.points[s], strict=True))
                lines.append(f"{names[s]} holds {parts} = {number_text(self.totals[s])} points.")
        w_name = names[self.winner]
        kind = self.rules.scoring
        others = [s for s in range(len(self.hands)) if s != self.winner]
        if kind == "winner_collects":
            sums = " + ".join(str(self.totals[s]) for s in others)
            lines.append(f"{w_name} went out and scores {sums} = {self.scores[self.winner]}.")
        elif kind == "minus_one_per_card":
            lines.append(f"{w_name} went out and scores 0; the others score "
                         + ", ".join(f"{names[s]} {number_text(self.scores[s])}" for s in others)
                         + " (−1 per card left).")
        else:
            lines.append(f"{w_name} wins the round; nobody scores points.")
        return lines


def score_hands(rules: str | RuleSet, hands: Sequence[Sequence[Card | str]], winner: int
                ) -> Scored:
    """Score a hand that ``winner`` went out of, with ``hands`` left in the other seats
    (the winner's entry is ignored). The scores are the engine's."""
    rs = rules if isinstance(rules, RuleSet) else get_rules(rules)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)):
        raise SetupError(f"hands must be a list of hands (lists of cards), one per "
                         f"seat, not {quote(hands)}")
    n = len(hands)
    if not rs.min_players <= n <= rs.max_players:
        raise SetupError(f"{rs.name} is for {rs.min_players}-{rs.max_players} players, not {n}")
    winner = whole("winner", winner, 0, n - 1, SetupError)
    left = [tuple(_cards(f"hands[{s}]", h)) if s != winner else () for s, h in enumerate(hands)]
    last, tops = _last_play(rs, [c for h in left for c in h])
    game_hands: list[list[Card]] = [list(h) for h in left]
    game_hands[winner] = [last]
    game = Game.from_position(rs, n, hands=game_hands, piles=[[t] for t in tops],
                              to_play=winner)
    game.push(str(last) if rs.piles == 1 else f"{last}@0")
    points = tuple(tuple(card_value(rs, c) for c in h) for h in left)
    return Scored(rs, winner, tuple(left), points, tuple(sum(p) for p in points),
                  tuple(game.scores))


def _last_play(rs: RuleSet, used: list[Card]) -> tuple[Card, list[Card]]:
    """A last card for the winner and the top card of each pile (the first one fits it),
    from cards nobody holds: plain cards, no wild and no Breens special, so playing the last
    card only ends the hand."""
    free = Counter(rs.deck) - Counter(used)
    plain = [c for c in sorted(free, key=sort_key)
             if not rs.is_wild(c) and c.rank in (3, 4, 5, 6, 7, 9, 10)]
    for top in plain:
        for last in plain:
            if last == top or last not in rs.accepts[rs.reference(top, None)]:
                continue
            others = [c for c in plain if c not in (top, last)][:rs.piles - 1]
            if len(others) == rs.piles - 1:
                return last, [top, *others]
    raise SetupError("the hands use so many cards that no last play can be set up")


def _cards(name: str, value: object) -> list[Card]:
    """A hand given as cards or card texts."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise SetupError(f"{name} must be a list of cards, not {quote(value)}")
    out = []
    for i, v in enumerate(value):
        if not isinstance(v, (Card, str)):
            raise SetupError(f"{name}[{i}] must be a card, not {quote(v)}")
        try:
            out.append(Card.parse(v))
        except ValueError as e:
            raise SetupError(f"{name}[{i}]: {e}") from None
    return out

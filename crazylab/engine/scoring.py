"""How a hand ends and what it scores: pure functions of the rule set and the hands left.

Scoring is by face value (C-16: ace 1, two to ten their number, court cards 10, eights 50,
jokers ``joker_points``), read from the rule set's ``points`` table, never by a card's index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, CardError
from .errors import CrazylabError, Given, quote
from .rules import RuleSet

__all__ = ["HandResult", "hand_points"]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: ``reason`` is ``OUT``, ``BLOCKED`` or ``VOID``."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]


def hand_points(rules: Given, hand: Given) -> int:
    """What the cards left in a hand count (C-16)."""
    if not isinstance(rules, RuleSet):
        raise CrazylabError(f"rules must be a RuleSet (crazylab.rules(...)), not {quote(rules)}")
    if not isinstance(hand, (list, tuple)) or any(type(c) is not Card for c in hand):
        raise CardError(f"a hand is a list of Cards (crazylab.cards('6C KH')), not "
                        f"{quote(hand)}")
    return sum(map(rules.points.__getitem__, hand))


def out_result(rules: RuleSet, hands: Sequence[Sequence[Card]], seat: int) -> HandResult:
    """The result when ``seat`` has played its last card."""
    n = len(hands)
    if rules.scoring == "winner_collects":
        scores = [0] * n
        scores[seat] = sum(hand_points(rules, hands[s]) for s in range(n) if s != seat)
    elif rules.scoring == "minus_one_per_card":
        scores = [-len(h) for h in hands]
    else:
        scores = [0] * n
    return HandResult((seat,), "OUT", tuple(scores))


def blocked_result(rules: RuleSet, hands: Sequence[Sequence[Card]]) -> HandResult:
    """The result when nobody can play or draw (C-13), by the rule set's blocked rule."""
    n = len(hands)
    zero = (0,) * n
    if rules.blocked_rule == "void_redeal":
        return HandResult((), "VOID", zero)
    if rules.blocked_rule == "lowest_points_wins":
        pts = [hand_points(rules, h) for h in hands]
        tied = [s for s in range(n) if pts[s] == min(pts)]
        if len(tied) > 1 and rules.blocked_tiebreak == "fewest_cards_then_draw":
            fewest = min(len(hands[s]) for s in tied)
            tied = [s for s in tied if len(hands[s]) == fewest]
        if len(tied) > 1:
            return HandResult(tuple(tied), "BLOCKED", zero)
        w = tied[0]
        scores = list(zero)
        if rules.blocked_scoring == "difference":
            scores[w] = sum(pts[s] - pts[w] for s in range(n) if s != w)
        elif rules.blocked_scoring == "opponents_total":
            scores[w] = sum(pts[s] for s in range(n) if s != w)
        return HandResult((w,), "BLOCKED", tuple(scores))
    sizes = [len(h) for h in hands]
    fewest_seats = tuple(s for s in range(n) if sizes[s] == min(sizes))
    if rules.scoring == "minus_one_per_card":
        scores = [-k for k in sizes]
    elif rules.scoring == "winner_collects" and len(fewest_seats) == 1:
        w = fewest_seats[0]
        scores = list(zero)
        scores[w] = sum(hand_points(rules, hands[s]) for s in range(n) if s != w)
    else:
        scores = list(zero)
    return HandResult(fewest_seats, "BLOCKED", tuple(scores))

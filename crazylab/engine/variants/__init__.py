"""Variants that change the turn structure, behind one interface (:mod:`.base`).

Crazy Breens' special cards are the one such variant today; the musical game's chained plays
and several piles are rule-set data the core turn machine reads.
"""

from __future__ import annotations

from ..rules import RuleSet
from .base import TurnAPI, Variant
from .breens import BREENS


def variant_for(rules: RuleSet) -> Variant | None:
    """The variant a rule set plays with, or ``None`` for the plain turn machine."""
    return BREENS if rules.specials else None


__all__ = ["TurnAPI", "Variant", "variant_for"]

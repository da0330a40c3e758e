"""Variants that change the turn structure, behind one interface (:mod:`.base`).

Crazy Breens' special cards and the house rules (action cards, jump-in: :mod:`.house`) are
the variants shipped; the musical game's chained
plays and several piles are rule-set data that the core turn machine reads. A new variant is a
:class:`Variant` subclass registered with :func:`register`: the game loop does not change.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import CrazylabError, Given, quote
from ..rules import RuleSet
from .base import TurnAPI, Variant
from .breens import BREENS
from .house import HOUSE

_REGISTERED: list[tuple[str, Callable[[RuleSet], bool], Variant]] = []


def register(name: Given, applies: Given, variant: Given) -> None:
    """Play ``variant`` in every game whose rule set ``applies`` accepts (the latest
    registration wins); registering a ``name`` again replaces it."""
    if not isinstance(name, str) or not callable(applies) or not isinstance(variant, Variant):
        raise CrazylabError(f"register(name, applies, variant) takes a text, a function of a "
                            f"RuleSet and a Variant, not {quote(name)}, {quote(applies)}, "
                            f"{quote(variant)}")
    unregister(name)
    _REGISTERED.append((name, applies, variant))


def unregister(name: Given) -> None:
    """Stop playing the variant registered as ``name`` (nothing if there is none)."""
    if not isinstance(name, str):
        raise CrazylabError(f"a variant's name is a text, not {quote(name)}")
    _REGISTERED[:] = [entry for entry in _REGISTERED if entry[0] != name]


def variant_for(rules: Given) -> Variant | None:
    """The variant a rule set plays with, or ``None`` for the plain turn machine."""
    if not isinstance(rules, RuleSet):
        raise CrazylabError(f"rules must be a RuleSet (crazylab.rules(...)), not {quote(rules)}")
    for _, applies, variant in reversed(_REGISTERED):
        if applies(rules):
            return variant
    return None


def _is_breens(rules: RuleSet) -> bool:
    return rules.specials


def _is_house(rules: RuleSet) -> bool:
    return bool(rules.action_cards) or rules.jump_in


register("breens", _is_breens, BREENS)
register("house", _is_house, HOUSE)  # action cards (V12) and jump-in (V14)

__all__ = ["TurnAPI", "Variant", "register", "unregister", "variant_for"]

"""Variants that change the turn structure, behind one interface (:mod:`.base`).

Crazy Breens' special cards and the house rules (action cards, jump-in: :mod:`.house`) are
the variants shipped; the musical game's chained
plays and several piles are rule-set data that the core turn machine reads. A rule set names
its variant (:attr:`~crazylab.engine.rules.RuleSet.variant`), and the registry maps each name
to its hooks: "plain" to :data:`~.base.PLAIN` (the core's own), "breens", "house". A new
variant is a :class:`Variant` subclass registered with :func:`register` and named by its rule
sets (``dataclasses.replace(rules, variant="toll")``): the game loop does not change.
"""

from __future__ import annotations

from ..errors import CrazylabError, Given, quote
from ..rules import VARIANT_NAMES, RuleSet
from .base import PLAIN, TurnAPI, Variant
from .breens import BREENS
from .house import HOUSE

#: the variants shipped, by name
_SHIPPED: dict[str, Variant] = {"plain": PLAIN, "breens": BREENS, "house": HOUSE}
#: name -> the hooks of every game whose rule set names it
_REGISTERED: dict[str, Variant] = dict(_SHIPPED)


def register(name: Given, variant: Given) -> None:
    """Play ``variant`` in every game whose rule set names ``name``; registering a name again
    replaces its variant ("plain", the core's own hooks, cannot be replaced)."""
    if not isinstance(name, str) or not name or not isinstance(variant, Variant):
        raise CrazylabError(f"register(name, variant) takes a non-empty text and a Variant, "
                            f"not {quote(name)}, {quote(variant)}")
    if name == "plain":
        raise CrazylabError("'plain' is the core's own turn machine: register the variant "
                            "under a name of its own")
    _REGISTERED[name] = variant
    if name not in VARIANT_NAMES:
        VARIANT_NAMES.append(name)


def unregister(name: Given) -> None:
    """Stop playing the variant registered as ``name`` (nothing if there is none); a shipped
    variant's name gets the shipped variant back."""
    if not isinstance(name, str):
        raise CrazylabError(f"a variant's name is a text, not {quote(name)}")
    if name in _SHIPPED:
        _REGISTERED[name] = _SHIPPED[name]
        return
    _REGISTERED.pop(name, None)
    if name in VARIANT_NAMES:
        VARIANT_NAMES.remove(name)


def hooks_for(rules: Given) -> Variant:
    """The hooks the turn machine calls for a rule set: its variant's, :data:`~.base.PLAIN`
    for the plain games (the rulebook's ``hooks``)."""
    if not isinstance(rules, RuleSet):
        raise CrazylabError(f"rules must be a RuleSet (crazylab.rules(...)), not {quote(rules)}")
    if rules.variant not in _REGISTERED:
        raise CrazylabError(f"no variant is registered as {quote(rules.variant)}, which "
                            f"{quote(rules.name)} names; registered: {', '.join(_REGISTERED)}")
    return _REGISTERED[rules.variant]


def variant_for(rules: Given) -> Variant | None:
    """The variant a rule set names, or ``None`` for the plain turn machine ("plain")."""
    hooks = hooks_for(rules)
    return None if hooks is PLAIN else hooks


__all__ = ["TurnAPI", "Variant", "register", "unregister", "variant_for"]

"""A rule set's rulebook: what the engine derives from a :class:`RuleSet`, built once and
shared by every game of it (OpenSpiel's immutable ``Game`` shared by its ``State``\\ s).

A :class:`Game` is a position and its turn machine; everything it reads about the rules on
every move lives here: the per-move rule values (:class:`TurnRules`), the interned one-card
plays per pile and reference, the rule set's reference table, the memo of same-rank stacks,
and the variant the rule set names (:attr:`RuleSet.variant`) with the hooks the turn machine
calls. :func:`rulebook` gives one rulebook
per distinct rule set (equal rule sets share it); it lives as long as its rule set does.
"""

from __future__ import annotations

import weakref
from typing import Any

from .cards import Card
from .moves import Move, ordered_stacks, play_move
from .rules import RuleSet
from .variants import Variant, hooks_for
from .variants.base import PLAIN

STACK_MEMO_LIMIT = 50_000
"""Entries a rulebook's memo of same-rank stacks may hold before it starts again."""

#: one fit table per pile: ``fits[pile][reference][card]`` -> the card's one-card plays
FitTables = tuple[tuple[dict[Card, tuple[Move, ...]], ...], ...]


class TurnRules:
    """The rule values the turn machine reads on every move, copied once per rule set from
    its :class:`RuleSet` into one plain record (a compiled build reads its fields directly)."""

    __slots__ = ("chain", "optional_play", "voluntary_draw", "must_play_drawn",
                 "draws_per_turn", "draw_count", "joker_draw", "joker_victim_skips",
                 "stacking", "several_piles", "one_deck", "filtered_plays", "eager",
                 "last_call")

    def __init__(self, r: RuleSet) -> None:
        self.chain: bool = r.chain
        self.optional_play: bool = r.optional_play
        self.voluntary_draw: bool = r.voluntary_draw
        self.must_play_drawn: bool = r.must_play_drawn
        self.draws_per_turn: float = r.draws_per_turn
        #: cards one ``draw`` move takes: the fixed number, or one
        self.draw_count: int = r.draw_limit if r.draw_rule == "fixed" else 1
        self.joker_draw: int = r.joker_draw
        self.joker_victim_skips: bool = r.joker_victim_skips
        self.stacking: bool = r.stacking
        self.several_piles: bool = r.piles > 1
        #: one deck: no card but the joker can be held twice
        self.one_deck: bool = r.decks == 1
        #: house rules that take plays away (A15, A6): off in every preset, so the plain path
        #: pays one test of this flag
        self.filtered_plays: bool = bool(r.final_ban) or r.joker_only_if_no_suit
        #: A12: the stock is refilled as soon as it is emptied
        self.eager: bool = r.reshuffle_timing == "eager" and r.reshuffle != "never"
        #: A14: plays leaving one card carry the last-card call
        self.last_call: bool = r.last_card_call


class Rulebook:
    """What a rule set compiles to. Read-only once built (the stack memo aside, a cache of
    pure results): create one with :func:`rulebook`, never by hand."""

    __slots__ = ("rules", "turn", "fits", "one_pile", "references", "variant", "hooks",
                 "stacks")

    def __init__(self, r: RuleSet) -> None:
        self.rules = r
        self.turn = TurnRules(r)
        #: ``fits[pile][reference][card]``: the interned one-card plays of ``card`` on
        #: ``pile`` when the pile's reference is ``reference`` (one per call it makes)
        self.fits: FitTables = tuple(
            tuple({c: tuple(play_move((c,), call, p if r.piles > 1 else None)
                            for call in (r.call_texts if r.calls_on_play(c) else (None,)))
                   for c in sorted(accepted)}
                  for accepted in r.accepts)
            for p in range(r.piles))
        #: one pile and no stacking: the only table a play is looked up in
        self.one_pile = self.fits[0] if r.piles == 1 and not r.stacking else None
        #: :attr:`RuleSet.references`, at hand for every play
        self.references: tuple[tuple[int, ...], ...] = r.references
        #: the hooks the turn machine calls: the variant's, or the core's own
        #: (:data:`~.variants.base.PLAIN`)
        self.hooks: Variant = hooks_for(r)
        #: the variant the rule set names (``None``: "plain", the plain game)
        self.variant: Variant | None = None if self.hooks is PLAIN else self.hooks
        #: ``stacks[(cards, pile)]``: the plays of a same-rank stack, made when first asked
        self.stacks: dict[Any, tuple[Move, ...]] = {}

    def __reduce__(self) -> tuple[Any, tuple[RuleSet]]:
        """Pickled as its rule set: a worker process shares its own rulebook of it."""
        return rulebook, (self.rules,)

    def stack_plays(self, key: tuple[Card, ...], pile: int | None) -> tuple[Move, ...]:
        """Every ordered same-rank stack starting with ``key[0]`` and using the others of
        ``key``, with every call its top card makes, on ``pile`` (memoised)."""
        moves = self.stacks.get((key, pile))
        if moves is not None:
            return moves
        r = self.rules
        first = key[0]
        calls = r.call_texts if r.calls_on_play(first) else (None,)
        moves = tuple(play_move(stack, call, pile)
                      for stack in ordered_stacks(first, key[1:]) for call in calls)
        if len(self.stacks) > STACK_MEMO_LIMIT:
            self.stacks.clear()
        self.stacks[(key, pile)] = moves
        return moves


_BOOKS: weakref.WeakKeyDictionary[RuleSet, Rulebook] = weakref.WeakKeyDictionary()


def rulebook(r: RuleSet) -> Rulebook:
    """The rulebook of ``r``, built on first use and shared by equal rule sets."""
    book = _BOOKS.get(r)
    if book is None:
        book = _BOOKS[r] = Rulebook(r)
    return book

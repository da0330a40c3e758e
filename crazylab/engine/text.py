"""A plain-text picture of a position (``print(game)``)."""

from __future__ import annotations

from typing import Protocol

from .cards import Card, sort_key
from .rules import RuleSet


class Position(Protocol):
    """What a picture of a position reads (a :class:`~crazylab.engine.game.Game`)."""

    rules: RuleSet
    n: int
    to_play: int
    phase: str
    over: bool
    piles: list[list[Card]]
    calls: list[int | None]
    stock_cards: list[Card]
    hands: list[list[Card]]

    @property
    def end_reason(self) -> str | None: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...


def game_text(game: Position) -> str:
    """Every hand, the piles and the stock, in a few lines."""
    lines = [f"{game.rules.name}, {game.n} players, "
             + ("hand over" if game.over else f"seat {game.to_play} to play ({game.phase})")]
    for p, pile in enumerate(game.piles):
        call = game.calls[p]
        called = f" (called {game.rules.format_call(call)})" if call is not None else ""
        label = f"pile {p + 1} (@{p})" if game.rules.piles > 1 else "discard"
        size = f"{len(pile)} card{'s' * (len(pile) != 1)}"
        lines.append(f"  {label}: {pile[-1].display}{called}  [{size}]")
    lines.append(f"  stock: {len(game.stock_cards)} cards")
    for s, hand in enumerate(game.hands):
        lines.append(f"  seat {s}: {' '.join(c.display for c in sorted(hand, key=sort_key))}")
    if game.over:
        lines.append(f"  result: {game.end_reason}, winners {list(game.winners)}, "
                     f"scores {list(game.scores)}")
    return "\n".join(lines)

"""What one seat may see: the only view bots and widgets get of a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card, sort_key
from .events import Event
from .moves import Move

if TYPE_CHECKING:
    from .game import Game
    from .rules import RuleSet


@dataclass(frozen=True)
class Observation:
    """Seat ``seat``'s view: its own hand, public counts and piles, the calls in force, and
    its legal moves when it is to play. Other hands and the stock order are never here."""

    rules: RuleSet
    seat: int
    players: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    piles: tuple[tuple[Card, ...], ...]
    calls: tuple[str | None, ...]
    to_play: int
    phase: str
    legal: tuple[Move, ...]
    reshuffles: int
    turn_draws: int
    turn_plays: int
    drawn: tuple[Card, ...]
    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    events: tuple[Event, ...]
    extra: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, game: Game, seat: int) -> Observation:
        r = game.rules
        mine = seat == game.to_play and not game.over
        return cls(
            rules=r,
            seat=seat,
            players=game.n,
            hand=tuple(sorted(game.hands[seat], key=sort_key)),
            hand_sizes=tuple(len(h) for h in game.hands),
            stock_size=len(game.stock_cards),
            piles=tuple(tuple(p) for p in game.piles),
            calls=tuple(None if c is None else r.format_call(c) for c in game.calls),
            to_play=game.to_play,
            phase=game.phase,
            legal=tuple(game.legal_moves()) if mine else (),
            reshuffles=game.reshuffles,
            turn_draws=game.turn_draws,
            turn_plays=game.turn_plays,
            drawn=tuple(game.drawn) if mine else (),
            over=game.over,
            winners=game.winners,
            scores=game.scores,
            events=tuple(e.visible_to(seat) for e in game.events),
            extra=tuple(sorted(game.public_extra().items())) if hasattr(game, "public_extra")
            else (),
        )

    @property
    def tops(self) -> tuple[Card, ...]:
        return tuple(p[-1] for p in self.piles)

    @property
    def top(self) -> Card:
        return self.piles[0][-1]

"""Playing a hand to its end by bots: the loop under every simulation, and the random bot.

Kept apart from :mod:`crazylab.bots` (which re-exports both) so the optional compiled build
(``make compiled``) compiles them with the engine: this loop runs once per move of every
simulated hand. It knows the bot protocol only by its two method names (``choose``, and the
optional ``choose_legal`` of a bot that needs no observation).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .engine.game import Game
from .engine.moves import Move
from .engine.observe import Observation
from .engine.rules import RuleSet

__all__ = ["RandomBot", "hand_summary", "play_dealt", "play_hand"]


@dataclass(frozen=True)
class RandomBot:
    """A uniformly random legal move: ``legal[int(rng.random() * len(legal))]`` (one call
    into the generator's C code; against ``randrange`` its bias is at most n/2**53 for n legal
    moves, far below what any simulation can see)."""

    name: str = "random"

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        return self.choose_legal(obs.legal, rng)

    def choose_legal(self, legal: Sequence[Move], rng: random.Random) -> Move:
        """The same choice from the legal moves alone: a bot that needs nothing else offers
        this, and :func:`play_hand` then builds it no observation."""
        return legal[int(rng.random() * len(legal))]


def play_hand(game: Game, bots: Sequence[Any], rngs: Sequence[random.Random],
              max_moves: int = 100_000) -> Game:
    """Play ``game`` to its end, seat ``s`` moved by ``bots[s]`` with ``rngs[s]``; each bot
    sees only its own observation. Returns the game."""
    # bots that choose from the legal moves alone (``choose_legal``) need no observation
    pickers = [getattr(b, "choose_legal", None) for b in bots]
    for _ in range(max_moves):
        if game.over:
            return game
        seat = game.to_play
        legal = game.legal_moves()
        if len(legal) == 1:  # a forced move needs no decision (nor an observation)
            game.push(legal[0])
            continue
        pick = pickers[seat]
        game.push(pick(legal, rngs[seat]) if pick is not None
                  else bots[seat].choose(game.observation(seat), rngs[seat]))
    raise RuntimeError(f"the hand did not end within {max_moves} moves")


def play_dealt(rules: RuleSet, players: int, deal_seed: int, bots: Sequence[Any],
               bots_seed: int) -> Game:
    """Deal a hand with ``deal_seed`` (undo off) and play it to its end by ``bots``, every
    seat drawing from one generator seeded with ``bots_seed``, in turn. Returns the game."""
    game = Game.new(rules, players, seed=deal_seed, keep_undo=False)
    rng = random.Random(bots_seed)
    return play_hand(game, bots, [rng] * players)


def hand_summary(game: Game) -> tuple[int | None, str, str | None, int, int, int, int, int]:
    """What a simulation records of a finished hand: the single winner (``None`` for none or
    several), the winners as text (``"0,2"``), the end reason, turns, moves, cards drawn,
    reshuffles and points (the sum of the seats' absolute scores)."""
    winners = game.winners
    drawn = 0
    for e in game.events:
        if e.kind == "drew":
            drawn += e.count
    return (winners[0] if len(winners) == 1 else None, ",".join(map(str, winners)),
            game.end_reason, game.turns, len(game.moves), drawn, game.reshuffles,
            sum(map(abs, game.scores)))

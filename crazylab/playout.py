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

from .engine.errors import CrazylabError, quote
from .engine.events import DREW
from .engine.game import Game
from .engine.moves import Move
from .engine.observe import Observation
from .engine.rules import RuleSet

__all__ = ["BotError", "EndlessHand", "RandomBot", "check_choice", "check_name",
           "hand_summary", "play_dealt", "play_hand"]


class BotError(CrazylabError):
    """A bot that cannot be made (an unknown name, a setting out of range) or asked to choose
    where nothing can be chosen."""


class EndlessHand(CrazylabError):
    """A hand that did not end within its move limit (rules under which it never can).

    Only the project's error (a ``ValueError``), not also a ``RuntimeError``: mypyc compiles
    this module and cannot build a class with two built-in bases."""


def check_name(name: object) -> None:
    """A bot's ``name`` is text (a table and a simulation's columns show it)."""
    if not isinstance(name, str):
        raise BotError(f"a bot's name must be text, not {quote(name)}")


def check_choice(obs: object, rng: object, need_legal: bool = True) -> None:
    """What ``choose(obs, rng)`` needs: an :class:`Observation` with at least one legal move
    (unless not ``need_legal``) and a :class:`random.Random` (:class:`BotError` otherwise)."""
    if not isinstance(obs, Observation):
        raise BotError(f"choose needs a seat's Observation (game.observation(seat)), not "
                       f"{quote(obs)}")
    if not isinstance(rng, random.Random):
        raise BotError(f"choose needs rng, a random.Random, not {quote(rng)}")
    if need_legal and not obs.legal:
        raise BotError("choose: the observation has no legal move (the hand is over, or this "
                       "seat is not to play): there is nothing to choose")


@dataclass(frozen=True)
class RandomBot:
    """A uniformly random legal move: ``legal[int(rng.random() * len(legal))]`` (one call
    into the generator's C code; against ``randrange`` its bias is at most n/2**53 for n legal
    moves, far below what any simulation can see)."""

    name: str = "random"

    def __post_init__(self) -> None:
        check_name(self.name)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        check_choice(obs, rng)
        return self.choose_legal(obs.legal, rng)

    def choose_legal(self, legal: Sequence[Move], rng: random.Random) -> Move:
        """The same choice from the legal moves alone: a bot that needs nothing else offers
        this, and :func:`play_hand` then builds it no observation."""
        try:
            return legal[int(rng.random() * len(legal))]
        except (AttributeError, TypeError, IndexError):  # checked only when it fails: hot path
            if not isinstance(legal, Sequence) or isinstance(legal, str) or not legal:
                raise BotError(f"choose_legal needs the legal moves, at least one, not "
                               f"{quote(legal)}") from None
            raise BotError(f"choose_legal needs rng, a random.Random, not {quote(rng)}") from None


def play_hand(game: Game, bots: Sequence[Any], rngs: Sequence[random.Random],
              max_moves: int = 100_000) -> Game:
    """Play ``game`` to its end, seat ``s`` moved by ``bots[s]`` with ``rngs[s]``; each bot
    sees only its own observation. Returns the game; :class:`BotError` for arguments that do
    not fit the game (checked before the first move), :class:`EndlessHand` past ``max_moves``."""
    _check_players(game, bots, rngs, max_moves)
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
    raise EndlessHand(f"the hand did not end within {max_moves} moves: under {game.rules.name}"
                      f" [{', '.join(game.rules.options_changed) or 'as preset'}] it may never "
                      "end (cards no pile can take)")


def _check_players(game: object, bots: object, rngs: object, max_moves: object) -> None:
    if not isinstance(game, Game):
        raise BotError(f"play_hand needs a Game, not {quote(game)}")
    for name, items in (("bots", bots), ("rngs", rngs)):
        if not isinstance(items, Sequence) or isinstance(items, str) or len(items) != game.n:
            raise BotError(f"play_hand needs {name} for each of the {game.n} seats, not "
                           f"{quote(items)}")
    for b in bots:  # type: ignore[attr-defined]
        if not callable(getattr(b, "choose", None)):
            raise BotError(f"{quote(b)} is not a bot: it needs a choose(observation, rng) method")
    for r in rngs:  # type: ignore[attr-defined]
        if not isinstance(r, random.Random):
            raise BotError(f"play_hand needs a random.Random per seat, not {quote(r)}")
    if not isinstance(max_moves, int) or isinstance(max_moves, bool) or max_moves < 1:
        raise BotError(f"max_moves must be a whole number of at least 1, not {quote(max_moves)}")


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
        if e.kind == DREW:
            drawn += e.count
    return (winners[0] if len(winners) == 1 else None, ",".join(map(str, winners)),
            game.end_reason, game.turns, len(game.moves), drawn, game.reshuffles,
            sum(map(abs, game.scores)))

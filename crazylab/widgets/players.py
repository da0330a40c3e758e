"""Computer opponents for the game table. A bot is any callable ``bot(observation, rng) ->
Move`` (or move text); it sees only its own :class:`~crazylab.engine.observe.Observation`.

The levels are :mod:`crazylab.bots`' bots; :func:`random_bot` is a seeded random player."""

from __future__ import annotations

import random
from collections.abc import Callable

from crazylab.engine.moves import Move
from crazylab.engine.observe import Observation

Bot = Callable[[Observation, random.Random], "Move | str"]


def random_bot(obs: Observation, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    return obs.legal[rng.randrange(len(obs.legal))]


def bot_levels() -> dict[str, Bot]:
    """Every level of ``crazylab.bots.BOTS``, weakest first: ``{"random": ..., "rules":
    ..., "mc": ...}``, each a fresh bot's ``choose``."""
    from crazylab.bots import BOTS

    return {name: bot().choose for name, bot in BOTS.items()}


def resolve_bot(level: str | Bot) -> Bot:
    """A bot from a level name or a callable."""
    if callable(level):
        return level
    levels = bot_levels()
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r}; the levels are: {', '.join(levels)}")
    return levels[level]

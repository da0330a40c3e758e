"""Computer opponents for the game table. A bot is any callable ``bot(observation, rng) ->
Move`` (or move text); it sees only its own :class:`~crazylab.engine.observe.Observation`.

The levels come from :mod:`crazylab.bots` when that module is installed; a seeded random
player is always available."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from crazylab.engine.moves import Move
from crazylab.engine.observe import Observation

Bot = Callable[[Observation, random.Random], "Move | str"]


def random_bot(obs: Observation, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    return obs.legal[rng.randrange(len(obs.legal))]


def bot_levels() -> dict[str, Bot]:
    """Every available level, weakest first: ``{"random": random_bot, ...}``."""
    levels: dict[str, Bot] = {"random": random_bot}
    try:
        bots = importlib.import_module("crazylab.bots")
    except ImportError:
        return levels
    found = _levels_of(bots)
    levels.update({k: v for k, v in found.items() if k != "random"})
    if "random" in found:
        levels["random"] = found["random"]
    return levels


def _levels_of(bots: Any) -> dict[str, Bot]:
    """The bots a ``crazylab.bots`` module offers, as ``(obs, rng) -> Move`` callables."""
    for name in ("LEVELS", "BOTS"):
        table = getattr(bots, name, None)
        if isinstance(table, dict) and table:
            return {str(k): _adapt(v) for k, v in table.items()}
    maker = getattr(bots, "get_bot", None) or getattr(bots, "make_bot", None)
    names = getattr(bots, "LEVEL_NAMES", None) or getattr(bots, "NAMES", None)
    if callable(maker) and names:
        return {str(n): _adapt(maker(n)) for n in names}
    return {}


def _adapt(bot: Any) -> Bot:
    """Accept a bot function, a bot class (instantiated) or an object with ``choose``/``move``."""
    if isinstance(bot, type):
        bot = bot()
    for attr in ("choose", "move", "choose_move", "act"):
        method = getattr(bot, attr, None)
        if callable(method) and not isinstance(bot, type(random_bot)):
            return lambda obs, rng, m=method: m(obs, rng)
    return bot


def resolve_bot(level: str | Bot) -> Bot:
    """A bot from a level name or a callable."""
    if callable(level):
        return level
    levels = bot_levels()
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r}; the levels are: {', '.join(levels)}")
    return levels[level]

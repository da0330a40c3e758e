"""crazylab: an exact rules engine for the Crazy Eights family, for learning in Jupyter.

>>> import crazylab as cl
>>> game = cl.Game.new("crazy-eights", players=3, seed=7)
>>> game.legal()[:2]  # doctest: +SKIP
"""

from typing import TYPE_CHECKING

from . import render  # noqa: F401  (registers how cards and games display in a notebook)
from .engine.cards import JOKER, Card, CardError, card, cards
from .engine.game import Game, HandResult, IllegalMove, NothingToUndo, SetupError
from .engine.moves import Move, MoveError
from .engine.narrator import Narrator, story
from .engine.rules import PRESETS, RulesError, RuleSet, rules
from .match import Match

if TYPE_CHECKING:  # what ``__getattr__`` returns, for type checkers (mypy, pyright)
    from .sim import simulate

__all__ = [
    "JOKER", "PRESETS", "Card", "CardError", "Game", "HandResult", "IllegalMove", "Match",
    "Move", "MoveError", "Narrator", "NothingToUndo", "RuleSet", "RulesError", "SetupError", "card",
    "cards", "engine_build", "new_game", "rules", "simulate", "story",
]
__version__ = "0.1.0"


def engine_build() -> str:
    """Which engine plays: ``"compiled"`` (by mypyc: a wheel built where a C compiler was,
    ``make app``'s build) or ``"pure Python"`` (an editable install, no compiler): the same
    games either way, the compiled one about twice as fast."""
    from .engine import game

    return "pure Python" if (game.__file__ or "").endswith(".py") else "compiled"


def __getattr__(name: str) -> object:
    """``crazylab.simulate`` is imported on first use: the lab (bots, processes, pandas) is
    not needed to play, and ``import crazylab`` stays fast."""
    if name == "simulate":
        from .sim import simulate

        return simulate
    raise AttributeError(f"module 'crazylab' has no attribute {name!r}")


def new_game(rules_name: str = "crazy-eights", players: int = 2, seed: int | None = None,
             **options: object) -> Game:
    """A freshly dealt hand: ``new_game("crazy-eights-quick", players=3, seed=1)``."""
    return Game.new(rules(rules_name, **options), players, seed)

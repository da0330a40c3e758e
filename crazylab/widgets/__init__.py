"""Jupyter widgets for crazylab (ipywidgets and anywidgets only; what one seat sees is
:mod:`crazylab.seat`, the HTTP side :mod:`crazylab.web`):

* :class:`GameTable`: play a hand or a match against computer opponents, any rule set;
* :class:`LegalMoveExplorer`: which cards of a hand are legal on a top card, and why;
* :class:`StepExplainer`: a worked-example file step by step (deep links ``?example=&step=``);
* :class:`ScoreCalculator`: each card's points and what the winner scores;
* :class:`RuleBuilder`: a preset plus house rules, its rules sheet, played on a table.

>>> from crazylab.widgets import GameTable
>>> GameTable("crazy-eights-quick", opponents=2, seed=4)  # doctest: +SKIP

Each name is imported when first used, so a page that shows only the game table (a Voilà
kernel per visitor) does not import the other widgets.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names ``__getattr__`` imports on first use, for type checkers
    # (``X as X``: re-exported)
    from crazylab.engine.reasons import Verdict as Verdict
    from crazylab.engine.reasons import verdicts as verdicts

    from ._common import query_params as query_params
    from .builder import RuleBuilder as RuleBuilder
    from .explainer import StepExplainer as StepExplainer
    from .explorer import LegalMoveExplorer as LegalMoveExplorer
    from .explorer import legal_table as legal_table
    from .explorer import position as position
    from .picker import CardPicker as CardPicker
    from .players import bot_levels as bot_levels
    from .players import random_bot as random_bot
    from .scoring import ScoreCalculator as ScoreCalculator
    from .scoring import Scored as Scored
    from .scoring import score_hands as score_hands
    from .table import GameTable as GameTable

_WHERE = {
    "query_params": "._common",
    "StepExplainer": ".explainer",
    "LegalMoveExplorer": ".explorer", "legal_table": ".explorer", "position": ".explorer",
    "CardPicker": ".picker",
    "bot_levels": ".players", "random_bot": ".players",
    "Verdict": "crazylab.engine.reasons", "verdicts": "crazylab.engine.reasons",
    "ScoreCalculator": ".scoring", "Scored": ".scoring", "score_hands": ".scoring",
    "GameTable": ".table",
    "RuleBuilder": ".builder",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))

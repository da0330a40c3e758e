"""Jupyter widgets for crazylab, installed as ``crazylab.widgets``:

* :class:`GameTable`: play a hand or a match against computer opponents, any rule set;
* :class:`LegalMoveExplorer`: which cards of a hand are legal on a top card, and why;
* :class:`StepExplainer`: a worked-example file step by step (deep links ``?example=&step=``);
* :class:`ScoreCalculator`: each card's points and what the winner scores.

>>> from crazylab.widgets import GameTable
>>> GameTable("crazy-eights-quick", opponents=2, seed=4)  # doctest: +SKIP
"""

from ._common import query_params
from .explainer import StepExplainer
from .explorer import LegalMoveExplorer, legal_table, position
from .picker import CardPicker
from .players import bot_levels, random_bot
from .reasons import Verdict, verdicts
from .scoring import ScoreCalculator, Scored, score_hands
from .table import GameTable

__all__ = [
    "CardPicker", "GameTable", "LegalMoveExplorer", "ScoreCalculator", "Scored",
    "StepExplainer", "Verdict", "bot_levels", "legal_table", "position", "query_params",
    "random_bot", "score_hands", "verdicts",
]

"""The per-move path of the engine stays free of closures.

A comprehension or generator expression that uses a local of its function turns that local
into a cell, and CPython builds every cell of a function on *every* call, whichever branch
runs. On ``Game._plays`` that cost simulations 8% of their time. Speed itself is measured
by ``bench/bench_engine.py`` (not by a timed test); this only guards the shape of the code.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from crazylab.engine.game import Game
from crazylab.engine.variants import breens as effects

PER_MOVE: list[Callable[..., object]] = [
    Game.legal_moves, Game._legal_play, Game._legal_chain, Game._plays, Game.push,
    Game._apply, Game._play, Game.place, Game._draw_turn, Game.draw_cards, Game.end_turn,
    Game.begin_turn, effects.begin_turn, effects.legal, effects.apply, Game._plays_any,
    Game.observation, effects._counters, effects._legal_penalty,
    # the Breens hooks every move runs hold their bodies in the methods
    effects.Breens.begin_turn, effects.Breens.legal, effects.Breens.apply,
    effects.Breens.after_play, effects._apply_penalty, effects._assign,
]

# the mypyc build (make test-compiled) has no bytecode, so no cells to look at
pytestmark = [pytest.mark.skipif(not hasattr(Game.push, "__code__"),
                                 reason="the engine is compiled (mypyc): no __code__"),
              pytest.mark.engine]


@pytest.mark.parametrize("function", PER_MOVE, ids=lambda f: f.__qualname__)
def test_per_move_functions_build_no_closure_cells(function: Callable[..., object]) -> None:
    cells = function.__code__.co_cellvars
    assert cells == (), (f"{function.__qualname__} captures {cells} in a comprehension or "
                         "closure: use a loop or a C builtin (filter, map, set operations)")

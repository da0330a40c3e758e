"""A wild's call is read the way the engine reads it (issue 31's first wrong thing): a flat
for its sharp (``Db`` for ``C#``), ``♯`` for ``#``, a suit's word for its letter. Before, the
"which moves are legal" check compared the call's text and told a learner that a legal
``8S@1:Db`` or ``8S:diamonds`` was "not legal"."""

from __future__ import annotations

import pytest

from crazylab.widgets import position
from crazylab.widgets.exercise import legal_moves_exercise


def check(rules: str, top: str, hand: str, answer: str) -> str:
    return legal_moves_exercise(position(rules, top, hand), rules="SR-10").check(answer)


@pytest.mark.parametrize("answer", ["8S@1:Db draw", "8S@1:C# draw", "8S@0:C♯ draw",
                                    "8S@0:Bb draw", "8S draw"])
def test_a_called_pitch_in_any_spelling_is_the_legal_move(answer):
    said = check("crazy-8s-level-2", "5H 9C", "8S 4D", answer)
    assert said.startswith("Right"), said


@pytest.mark.parametrize("answer", ["8S:diamonds", "8S:Hearts", "8S:D", "8S:♦"])
def test_a_called_suit_by_its_word_or_sign_is_the_legal_move(answer):
    said = check("crazy-eights", "5H", "8S 4D", answer)
    assert said.startswith("Right"), said


def test_a_jokers_suit_word_is_read_too():
    said = check("crazy-8s-music", "5H", "8S 4D JK", "JK:hearts 8S draw")
    assert said.startswith("Right"), said


@pytest.mark.parametrize("rules,top,hand,answer,why", [
    ("crazy-eights", "5H", "8S 4D", "8S:clubs 4D", "4♦ is not legal"),
    ("crazy-8s-level-2", "5H 9C", "8S 4D", "8S@3:Db", "not legal"),
    ("crazy-eights", "5H", "8S 4D", "8S:purple", ""),
])
def test_a_wrong_move_is_still_wrong(rules, top, hand, answer, why):
    said = check(rules, top, hand, answer)
    assert not said.startswith("Right") and why in said, said

"""Questions as data (crazylab.questions): every exercise of every lesson is rebuilt from the
catalogue's spec and judges as the lesson page does; a spec carries its position exactly; a
malformed spec is refused in one line."""

from __future__ import annotations

import json

import pytest
from answers import right_answer, wrong_answers

import crazylab as cl
from crazylab import questions
from crazylab.classroom.catalog import CATALOG_PATH, load
from crazylab.examples import load_example
from crazylab.widgets import position
from crazylab.widgets.exercise import (
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    next_top_exercise,
    score_exercise,
)

pytestmark = pytest.mark.oldest

CATALOG = load()
SHIPPED = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))["lessons"]
EXERCISES = [(lesson, e) for lesson, info in CATALOG.lessons.items() for e in info.exercises]


def test_every_catalogue_exercise_has_a_question_of_its_version() -> None:
    assert len(EXERCISES) >= 100
    kinds = set()
    for lesson, e in EXERCISES:
        raw = json.loads(json.dumps(CATALOG.lessons[lesson].judges[e]))
        q = questions.from_spec(raw)
        kinds.add(q.kind)
        assert q.version == questions.spec_version(raw) == SHIPPED[lesson]["exercises"][e][
            "version"]
        assert questions.from_spec(q.spec).spec == q.spec  # the spec survives a round trip
        assert q.judge(right_answer(lesson, e))[0] is True
        for wrong in wrong_answers(lesson, e)[:3]:
            right, feedback = q.judge(wrong)
            assert right is False and feedback.startswith("Not"), (lesson, e, wrong)
    assert kinds == set(questions.KINDS)


def _games() -> list[cl.Game]:
    """Positions of every way a lesson makes one: a seeded deal with moves played, a set-up
    position, a Breens hand in the middle of a hit, a musical hand on three piles."""
    dealt = cl.new_game("crazy-eights-classic", players=3, seed=4)
    for _ in range(5):
        dealt.push(str(dealt.legal_moves()[0]))
    breens = load_example("br-t1-seed-stacked-twos-hit-in-turn").play()[0]
    music = cl.new_game("crazy-8s-level-3", players=2, seed=2)
    return [dealt, position("crazy-eights", top="6H", hand="6C KH 8S 3D"), breens, music]


@pytest.mark.parametrize("n", range(4))
def test_a_spec_carries_its_position_exactly(n: int) -> None:
    game = _games()[n]
    q = questions.legal_moves(game)
    again = questions.from_spec(json.loads(json.dumps(q.spec)))  # as the catalogue keeps it
    assert again.game is not None and again.game.fingerprint() == game.fingerprint()
    assert again.right_answers == q.right_answers and again.solution == q.solution


def test_the_widget_and_the_spec_judge_alike() -> None:
    game = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
    answers = ["6C KH 8S", "6C KH 8S draw", "6C", "3D", "8S:D 6C KH", "banana", "8s:diamonds",
               "KH, 6C; 8S", ""]
    made = [legal_moves_exercise(game, rules="SR-10"),
            is_legal_exercise(game, "3D", rules="SR-10"),
            score_exercise("crazy-eights", [["8S", "3H"], []], 1, rules="SR-21"),
            next_top_exercise(cl.new_game("crazy-eights", players=2, seed=1), ["draw"],
                              rules="SR-15"),
            choice_exercise("Which?", ["yes", "no", "maybe"], "no", "Because.", rules="SR-1",
                            wrong={"yes": "It is not."})]
    for ex in made:
        q = questions.from_spec(ex.spec)
        for a in [*answers, "yes", "no", "53", "54", "7H", *ex.right_answers]:
            if a.strip():
                assert q.judge(a) == ex.checker(a), (q.kind, a)


@pytest.mark.parametrize(("spec", "says"), [
    ({"kind": "riddle"}, "needs a kind"),
    ("legal_moves", "needs a kind"),
    ({"kind": "choice", "choices": ["a"], "answer": ["b"], "explanation": ""},
     "not one of the choices"),
    ({"kind": "score", "rules": "crazy-eights", "hands": "8S", "winner": 0, "seat": 0},
     "cannot be rebuilt"),
    ({"kind": "legal_moves", "game": {"rules": "crazy-eights", "players": 2, "seed": 1,
                                      "steps": [{"move": "KH"}]}}, "cannot be replayed"),
    ({"kind": "is_legal", "move": "3D"}, "cannot be rebuilt"),
    ({"kind": "choice", "choices": ["a"] * 40_000, "answer": ["a"], "explanation": ""},
     "limited to"),
    ({"kind": "choice", "choices": [float("nan")], "answer": ["a"], "explanation": ""},
     "plain JSON"),
])
def test_a_malformed_spec_is_refused_in_one_line(spec, says) -> None:
    with pytest.raises(questions.QuestionError, match=says) as refused:
        questions.from_spec(spec)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 300

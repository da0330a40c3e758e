"""Mastery per rule, per learner (issue 31 item 2): knowledge tracing over judged answers.

A simulated class whose learners know some rules and not others converges to what each
knows, and the rules each learner needs next are the ones they do not know; first tries weigh
most; an answer after the solution is no evidence. Then the whole way through the class store:
two learners answer lesson 1, the teacher's grid and each learner's own view tell them apart.
"""

from __future__ import annotations

import random
import uuid

import pytest
from answers import right_answer, wrong_answer

from crazylab.classroom import open_store
from crazylab.classroom.mastery import (
    MASTERED,
    PRIOR,
    Evidence,
    evidence,
    family,
    mastery,
    update,
    weakest,
)
from crazylab.classroom.recorder import Recorder
from crazylab.widgets.dashboard import mastery_grid, names_of, report_rows
from crazylab.widgets.mastery import rules_html

pytestmark = pytest.mark.engine

L1 = "01_crazy_eights_basics"


def test_an_answer_moves_the_estimate_the_right_way_and_a_first_try_weighs_most():
    assert update(PRIOR, True) > PRIOR > update(PRIOR, False)
    assert update(PRIOR, True, first_try=True) > update(PRIOR, True, first_try=False) > PRIOR
    p = PRIOR
    for _ in range(3):  # three right first tries: mastered
        p = update(p, True)
    assert p >= MASTERED
    assert mastery([Evidence(("AP-1",), True)], rules=["AP-2"])["AP-2"].status == "not seen"


@pytest.mark.parametrize("seed", range(8))
def test_a_simulated_class_converges_to_what_each_learner_knows(seed: int):
    """Learners who know some rules answer right 90 % of the time on those and guess (20 %)
    on the others; after 8 questions per rule each learner's mastery says which they know,
    and what they need next is what they do not."""
    rng = random.Random(seed)
    rules = [f"BR-{n}" for n in range(1, 13)]
    for _learner in range(6):
        known = set(rng.sample(rules, rng.randint(2, 10)))
        answers = [r for r in rules for _ in range(8)]
        rng.shuffle(answers)
        said = [Evidence((r,), rng.random() < (0.9 if r in known else 0.2)) for r in answers]
        standing = mastery(said)
        knows = [standing[r].p for r in rules if r in known]
        guesses = [standing[r].p for r in rules if r not in known]
        assert sum(knows) / len(knows) > 0.85, knows
        # a rule known ranks above a rule guessed (a lucky streak may pass one or two)
        ranked = sum(k > g for k in knows for g in guesses) / (len(knows) * len(guesses))
        assert ranked >= 0.85, (ranked, knows, guesses)
        needs = weakest(standing, 3)
        assert needs and needs[0] not in known and all(standing[r].status == "learning"
                                                       for r in needs)


def test_retries_and_answers_after_the_solution_weigh_less_or_nothing():
    attempts = [
        {"lesson": L1, "exercise": "e01", "verdict": False, "rule_ids": "AP-1",
         "at": "2026-12-01T10:00:00", "after_solution": False},
        {"lesson": L1, "exercise": "e01", "verdict": True, "rule_ids": "AP-1",
         "at": "2026-12-01T10:01:00", "after_solution": False},
        {"lesson": L1, "exercise": "e01", "verdict": True, "rule_ids": "AP-1",
         "at": "2026-12-01T10:02:00", "after_solution": True},
    ]
    said = evidence(attempts)
    assert [(e.rule_ids, e.right, e.first_try) for e in said] == [
        (("AP-1",), False, True), (("AP-1",), True, False)]
    assert said[0].at is not None and said[0].at.tzinfo is not None
    first_right = mastery([Evidence(("AP-1",), True)])["AP-1"].p
    assert mastery(said)["AP-1"].p < first_right
    assert family("BR-21") == "BR" and family("MU-Q22") == "MU"


def test_two_learners_mastery_through_the_store_the_grid_and_their_own_page(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'class.db'}")
    made = store.create_class("8A")
    ana, ben = store.join(made.code, "Ana"), store.join(made.code, "Ben<b>")
    exercises = list(store.catalog.lessons[L1].exercises)
    for ex in exercises:  # Ana: right at once; Ben: wrong, then right
        store.record_attempt(ana.token, lesson=L1, exercise=ex,
                             answer=right_answer(L1, ex), attempt_id=uuid.uuid4().hex)
        store.record_attempt(ben.token, lesson=L1, exercise=ex,
                             answer=wrong_answer(L1, ex), attempt_id=uuid.uuid4().hex)
        store.record_attempt(ben.token, lesson=L1, exercise=ex,
                             answer=right_answer(L1, ex), attempt_id=uuid.uuid4().hex)
    mine = {who.name: mastery(evidence(store.attempts(who.token), store.practice(who.token)))
            for who in (ana, ben)}
    assert set(mine["Ana"]) == set(mine["Ben<b>"]) and mine["Ana"]
    assert all(mine["Ana"][r].p > mine["Ben<b>"][r].p for r in mine["Ana"])
    often = [r for r, m in mine["Ana"].items() if m.answers >= 3]
    assert often and all(mine["Ana"][r].status == "mastered" for r in often)
    assert all(m.status == "learning" for m in mine["Ben<b>"].values())

    # the teacher's grid: mastered / met per family, and the rules each learner needs
    report = store.class_report(made.code, made.teacher_key)
    names = names_of(report_rows(report, "learners"))
    grid = mastery_grid(report_rows(report, "attempts"), report_rows(report, "practice"), names)
    assert list(grid.index) == ["Ana", "Ben<b>"]
    fam = family(often[0])
    done, met = (int(x) for x in grid.loc["Ana", fam].split(" / "))
    assert done >= len([r for r in often if family(r) == fam]) and met >= done
    assert grid.loc["Ben<b>", fam].startswith("0 / ")
    assert set(grid.loc["Ana", "needs"].split()) <= set(mine["Ana"]) - set(often)
    assert grid.loc["Ben<b>", "needs"]

    # each learner's own page: the recorder reads the class's records
    rec = Recorder(open_store=lambda: store, schedule=lambda _d, _f: None, environ={})
    assert rec.identify(ben.token)
    shown = rules_html(rec.mastery())
    assert "0 of the" in shown and "learning" in shown
    assert "<script" not in rules_html(mastery([Evidence(("<script>",), True)]))
    store.close()

"""Attacks on the class's verdicts (issue 30, item 2): a learner cannot grade themselves.

The store judges every answer with the engine, from the catalogue's question: a verdict or
feedback sent by a browser (the unsaved copy a reload hands back), a kernel or a progress file
is never stored; an answer given once the solution was shown never counts as right; a page
older than the catalogue is told to reload; a learner's rows are bounded. Each attack is
refused in one line (or judged as what it is) and changes nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from answers import catalog_of, practice_answer, right_answer, wrong_answer

from crazylab.classroom import store as store_mod
from crazylab.classroom.recorder import MAX_REQUEUED, Recorder
from crazylab.classroom.store import ClassError, Store, open_store

L1 = "01_crazy_eights_basics"


@pytest.fixture
def store(tmp_path: Path):
    s = open_store(str(tmp_path / "class.db"))
    yield s
    s.close()


def _kernel(store: Store, token: str) -> Recorder:
    rec = Recorder(open_store=lambda: store, schedule=lambda _d, _f: None, environ={})
    assert rec.identify(token)
    return rec


def test_a_forged_unsaved_copy_is_judged_not_believed(store: Store) -> None:
    """The message that made every lesson "N/N right": the browser hands back saves with
    verdict True, glowing feedback and any number of rows."""
    c = store.create_class("Year 8")
    ana = store.join(c.code, "Ana")
    rec = _kernel(store, ana.token)
    forged = [{"kind": "attempt", "token": ana.token, "fields": {
        "attempt_id": f"forged-{n}", "lesson": L1, "exercise": exercise,
        "answer": wrong_answer(L1, exercise), "verdict": True,
        "feedback": "Checked by the engine: perfect.", "rule_ids": ["SR-1"]}}
        for n, exercise in enumerate(store.catalog.lessons[L1].exercises)]
    flood = [{**forged[0], "fields": {**forged[0]["fields"], "attempt_id": f"x-{n}"}}
             for n in range(1000)]
    assert rec.requeue(forged + flood) == MAX_REQUEUED  # a page makes a few, not a thousand
    rows = store.attempts(ana.token)
    assert len(rows) == MAX_REQUEUED
    assert not any(a.verdict for a in rows)
    assert not any("perfect" in a.feedback for a in rows)
    assert all(a.feedback.startswith("Not") for a in rows)
    assert store.progress(ana.token)[L1].right == 0
    report = store.class_report(c.code, c.teacher_key)
    assert not any(r["verdict"] for r in report.attempts)


def test_a_kernel_cannot_hand_the_store_a_verdict(store: Store) -> None:
    c = store.create_class("Year 8")
    ana = store.join(c.code, "Ana")
    with pytest.raises(TypeError):
        store.record_attempt(ana.token, lesson=L1, exercise="e01",  # type: ignore[call-arg]
                             answer=wrong_answer(L1, "e01"), attempt_id="a-1", verdict=True)
    rec = _kernel(store, ana.token)
    rec.attempt(lesson=L1, exercise="e01", answer=wrong_answer(L1, "e01"), verdict=True,
                rule_ids=["SR-1"], feedback="Right!")  # a forged call in the kernel
    rec.practice(lesson=L1, kind="score", seed=9, question="?", verdict=True, rule_ids=[],
                 answer=practice_answer("crazy-eights", "score", 9, False), feedback="Right!",
                 rules="crazy-eights")
    assert rec.pending == 0
    [a] = store.attempts(ana.token)
    [p] = store.practice(ana.token)
    assert (a.verdict, p.verdict) == (False, False)
    assert a.feedback.startswith("Not") and p.feedback.startswith("Not")
    assert p.question.startswith("Seat") or p.question  # the store's own question text


def test_an_answer_after_the_solution_never_counts(store: Store) -> None:
    c = store.create_class("Year 8")
    ana, ben = store.join(c.code, "Ana"), store.join(c.code, "Ben")
    # Ana asks for the solution, then types the right answer
    assert store.record_reveal(ana.token, lesson=L1, exercise="e01") is True
    assert store.record_reveal(ana.token, lesson=L1, exercise="e01") is False  # once
    store.record_attempt(ana.token, lesson=L1, exercise="e01",
                         answer=right_answer(L1, "e01"), attempt_id="a-1")
    # Ben answers wrong three times (the solution is shown), then right
    for n in range(3):
        store.record_attempt(ben.token, lesson=L1, exercise="e02",
                             answer=wrong_answer(L1, "e02"), attempt_id=f"b-{n}")
    store.record_attempt(ben.token, lesson=L1, exercise="e02",
                         answer=right_answer(L1, "e02"), attempt_id="b-3")
    [a] = store.attempts(ana.token)
    assert a.verdict and a.after_solution and not a.counts
    assert a.feedback.endswith("The solution had been shown: this answer is not counted.")
    b = store.attempts(ben.token)
    assert [x.after_solution for x in b] == [False, False, False, True]
    assert b[2].feedback.endswith("After 3 tries, the answer is shown below.")
    assert store.progress(ana.token)[L1].right == 0 and store.progress(ben.token)[L1].right == 0
    rows = store.export_rows(c.code, c.teacher_key, "attempts")
    assert [r["after_solution"] for r in rows if r["name"] == "Ana"] == [True]


def test_the_widget_tells_the_store_it_showed_the_solution(store: Store) -> None:
    """The lesson page's exercise, clicked: "Show the answer", then the right answer."""
    from crazylab.classroom import recorder as recorder_mod
    from crazylab.widgets import exercise as exercise_mod

    c = store.create_class("Year 8")
    ana = store.join(c.code, "Ana")
    rec = _kernel(store, ana.token)
    rec.lesson = L1
    old = recorder_mod._RECORDER
    recorder_mod._RECORDER = rec
    try:
        spec = store.catalog.lessons[L1].judges["e01"]
        q = store.catalog.question(L1, "e01")
        ex = exercise_mod.Exercise(store.catalog.lessons[L1].questions["e01"], q.judge,
                                   q.solution, rules="SR-1", choices=q.choices,
                                   kind=q.answer_kind, right_answers=q.right_answers,
                                   spec=spec)
        assert ex.exercise_id == "e01"
        ex.answer_button.click()
        said = ex.check(right_answer(L1, "e01"))
    finally:
        recorder_mod._RECORDER = old
    assert "not counted" in said
    [a] = store.attempts(ana.token)
    assert a.verdict and a.after_solution and store.progress(ana.token)[L1].right == 0


def test_an_answer_to_an_older_question_is_refused_in_one_line(store: Store) -> None:
    c = store.create_class("Year 8")
    ana = store.join(c.code, "Ana")
    with pytest.raises(ClassError, match="reload the page") as refused:
        store.record_attempt(ana.token, lesson=L1, exercise="e01", version="f" * 16,
                             answer=right_answer(L1, "e01"), attempt_id="a-1")
    assert "\n" not in str(refused.value)
    version = store.catalog.question(L1, "e01").version
    assert store.record_attempt(ana.token, lesson=L1, exercise="e01", version=version,
                                answer=right_answer(L1, "e01"), attempt_id="a-2")
    assert [a.attempt_id for a in store.attempts(ana.token)] == ["a-2"]


def test_a_learners_rows_are_bounded(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(store_mod, "ROWS_MAX", 5)
    store = open_store(str(tmp_path / "c.db"), catalog=catalog_of((L1,), size=10))
    try:
        c = store.create_class("Year 8")
        ana, ben = store.join(c.code, "Ana"), store.join(c.code, "Ben")
        for n in range(1, 6):
            assert store.record_attempt(ana.token, lesson=L1, exercise=f"e{n:02d}",
                                        answer=right_answer(L1, f"e{n:02d}", store.catalog),
                                        attempt_id=f"a-{n}")
        with pytest.raises(ClassError, match="at most 5 attempts rows") as refused:
            store.record_attempt(ana.token, lesson=L1, exercise="e06",
                                 answer=right_answer(L1, "e06", store.catalog),
                                 attempt_id="a-6")
        assert "\n" not in str(refused.value)
        assert len(store.attempts(ana.token)) == 5
        assert store.record_attempt(ben.token, lesson=L1, exercise="e01",  # Ben is not Ana
                                    answer=right_answer(L1, "e01", store.catalog),
                                    attempt_id="b-1")
    finally:
        store.close()


def test_a_progress_file_is_judged_again_on_import(store: Store) -> None:
    c = store.create_class("Year 8")
    exercises = list(store.catalog.lessons[L1].exercises)
    data = {"format": "crazylab-progress", "version": 1,
            "learner": {"id": "browser-1", "name": "Dee"},
            "attempts": [{"attempt_id": f"d-{e}", "lesson": L1, "exercise": e,
                          "answer": wrong_answer(L1, e), "verdict": True,
                          "rule_ids": ["SR-1"], "feedback": "Right (says the file)",
                          "at": "2026-12-01T10:00:00Z"} for e in exercises]}
    assert store.import_progress(c.code, c.teacher_key, data) == 1 + len(exercises)
    rows = store.export_rows(c.code, c.teacher_key, "attempts")
    assert not any(r["verdict"] for r in rows)
    assert not any("says the file" in r["feedback"] for r in rows)

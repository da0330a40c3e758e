"""The exercises remember (issue 22 items 2 and 3): a learner of a class answers lesson 1's
exercises in one kernel, with a real SQLite store; a new kernel (a reload, a culled kernel, a
server restart: a fresh recorder and the lesson's cells run again) shows every earlier answer
with its verdict, the feedback and the tries counted, without recording anything again. A page
without a database keeps the answers in the browser. The catalogue lists every exercise each
lesson makes, with ids stable from run to run, and is never older than its lesson."""

from __future__ import annotations

import contextlib
import html
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from lesson_exercises import LESSONS, run_lesson

from crazylab.classroom import recorder as progress
from crazylab.classroom.catalog import load
from crazylab.classroom.store import open_store
from crazylab.widgets import exercise, position
from crazylab.widgets.classbar import class_bar
from crazylab.widgets.exercise import Exercise, legal_moves_exercise, score_exercise
from crazylab.widgets.table import GameTable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lessons as builder  # noqa: E402

LESSON1 = next(s for s in LESSONS if s.stem == "01_crazy_eights_basics")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``fresh()`` starts a new kernel: a new recorder, no exercise made yet."""

    def start() -> progress.Recorder:
        monkeypatch.setattr(progress, "_RECORDER", None)
        monkeypatch.setattr(exercise, "_PAGES", {})
        monkeypatch.setattr(exercise, "_HOOKED", [])
        return progress.recorder()

    start()
    return start


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "class.db"
    monkeypatch.setenv("CRAZYLAB_DB", str(path))
    return path


def run_quietly(source: Path, times: int = 1) -> list[Exercise]:
    """The lesson exercises a lesson's cells make (not its practice set's items)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return run_lesson(source, times)


def first(made: list[Exercise], kind: str, rights: int = 1) -> Exercise:
    """The first exercise of a kind whose right answer has at least ``rights`` parts."""
    return next(e for e in made if e.kind == kind and len(e.right_answers) >= rights)


def a_wrong_choice(ex: Exercise) -> str:
    return next(c for c in ex.choices if c not in ex.right_answers)


def shown(ex: Exercise) -> dict[str, Any]:
    """What the learner sees of an exercise's answers."""
    return {"answers": list(ex.answers), "tries": ex.tries, "box": ex.answer_box.value,
            "buttons": [b.button_style for b in ex.choice_buttons],
            "feedback": ex.feedback.value, "solution": bool(ex.reveal.value)}


def test_a_learner_comes_back_to_lesson_1(db: Path, fresh: Any) -> None:
    store = open_store(str(db))
    year8 = store.create_class("Year 8")

    # kernel 1: the page is opened, the learner joins, answers three exercises
    rec = fresh()
    made = run_quietly(LESSON1)
    assert rec.lesson == LESSON1.stem
    assert [e.lesson for e in made] == [LESSON1.stem] * len(made)
    ana = rec.join(year8.code, "Ana")
    choice, cards, number = first(made, "choice"), first(made, "cards", 2), first(made, "number")
    wrong = a_wrong_choice(choice)
    said = [choice.choose(wrong), choice.choose(choice.right_answers[0])]
    assert said[0].startswith("Not") and said[1].startswith("Right")
    cards.answer_box.value = " ".join(cards.right_answers)  # typed, then Enter
    right = int(number.right_answers[0])
    for n in (right + 1, right + 2, right + 3):
        number.answer_box.value = str(n)
    assert number.tries == 3 and number.reveal.value  # the solution after 3 wrong tries
    assert [e.errors for e in (choice, cards, number)] == [[], [], []]

    rows = store.attempts(ana.token, LESSON1.stem)
    assert [(r.exercise, r.answer, r.verdict) for r in rows] == [
        (choice.exercise_id, wrong, False), (choice.exercise_id, choice.right_answers[0], True),
        (cards.exercise_id, " ".join(cards.right_answers), True),
        *[(number.exercise_id, str(n), False) for n in (right + 1, right + 2, right + 3)]]
    assert rows[0].feedback == said[0] and rows[1].feedback == said[1]
    assert rows[0].rule_ids == choice.rule_ids
    assert rec.pending == 0
    before = {e.exercise_id: shown(e) for e in (choice, cards, number)}

    # kernel 2: a reload; the page is built, then the browser says who the learner is
    rec2 = fresh()
    made2 = run_quietly(LESSON1)
    assert [e.exercise_id for e in made2] == [e.exercise_id for e in made]
    again = {e.exercise_id: e for e in made2}
    assert all(not e.answers and not e.feedback.value for e in made2)
    assert rec2.identify(ana.token)
    restored = {i: shown(again[i]) for i in before}
    assert restored == before  # answers, verdicts, tries, box, buttons, feedback, solution
    assert all(again[i].history.value.count("Your earlier answers:") == 1 for i in before)
    c2, k2, n2 = (again[e.exercise_id] for e in (choice, cards, number))
    assert c2.tries == 1 and c2.answers == [(wrong, False), (choice.right_answers[0], True)]
    right_button = c2.choice_buttons[c2.choices.index(choice.right_answers[0])]
    assert right_button.button_style == "success"
    assert html.escape(said[1].splitlines()[0]) in c2.feedback.value
    assert f"Your earlier answers: {html.escape(wrong)} ✘, " in c2.history.value
    assert k2.answer_box.value == " ".join(cards.right_answers) and k2.tries == 0
    assert n2.tries == 3 and n2.reveal.value and n2.answer_box.value == str(right + 3)
    untouched = [e for e in made2 if e.exercise_id not in before]
    assert all(not e.answers and not e.history.value for e in untouched)
    assert len(store.attempts(ana.token)) == 6  # restoring recorded nothing

    lines = [again[i].history.value for i in before]
    rec2.identify(ana.token)  # told twice: shown once
    assert {i: shown(again[i]) for i in before} == before
    assert [again[i].history.value for i in before] == lines
    assert len(store.attempts(ana.token)) == 6

    n2.answer_box.value = str(right)  # answering goes on from there
    assert n2.answers[-1] == (str(right), True) and n2.tries == 3
    assert "✔" in n2.history.value.rsplit(",", 1)[-1]
    assert len(store.attempts(ana.token)) == 7

    # kernel 3: the learner is known first (a server restart), then the cells run again
    rec3 = fresh()
    assert rec3.identify(ana.token)
    made3 = {e.exercise_id: e for e in run_quietly(LESSON1)}
    n3 = made3[number.exercise_id]
    assert n3.answers == n2.answers and n3.tries == 3 and n3.answer_box.value == str(right)
    assert made3[choice.exercise_id].answers == c2.answers
    assert len(store.attempts(ana.token)) == 7


def test_a_cell_run_twice_keeps_its_ids_and_answers(db: Path, fresh: Any) -> None:
    store = open_store(str(db))
    code = store.create_class("Year 9").code
    rec = fresh()
    made = run_quietly(LESSON1, times=2)  # each cell run twice, as a learner may
    ids = [e.exercise_id for e in made]
    assert len(set(ids)) * 2 == len(ids) and ids[::2] == ids[1::2]
    learner = rec.join(code, "Bo")
    made[-1].check(made[-1].right_answers[0])
    rec.identify(learner.token)  # the same learner again: the newest exercise shows it once
    assert made[-1].answers == [(made[-1].right_answers[0], True)]
    assert len(store.attempts(learner.token)) == 1


def test_another_learner_sees_only_their_own_answers(db: Path, fresh: Any) -> None:
    store = open_store(str(db))
    code = store.create_class("Year 10").code
    rec = fresh()
    made = run_quietly(LESSON1)
    ana = rec.join(code, "Ana")
    ex = first(made, "choice")
    ex.choose(a_wrong_choice(ex))
    bo = store.join(code, "Bo")
    rec.identify(bo.token)  # "not you?": Bo on the same page
    assert ex.answers == [] and ex.tries == 0 and not ex.feedback.value
    assert all(b.button_style == "" for b in ex.choice_buttons)
    rec.identify(ana.token)
    assert ex.answers == [(a_wrong_choice(ex), False)] and ex.tries == 1


def test_a_page_without_a_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   fresh: Any) -> None:
    """No database (the static site, no class): no practice set, the answers go to the
    browser's store and come back from it, nothing is written on disk."""
    monkeypatch.delenv("CRAZYLAB_DB", raising=False)
    monkeypatch.setenv("CRAZYLAB_HOME", str(tmp_path))
    rec = fresh()

    def page() -> list[Exercise]:
        bar = class_bar("01_crazy_eights_basics")
        worked = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
        made = [legal_moves_exercise(worked, rules="SR-10 SR-T1"),
                score_exercise("crazy-eights", [[], ["8D", "3C"], ["QH", "AS"]], winner=0,
                               rules="SR-22 SR-T4")]
        assert bar.lesson == "01_crazy_eights_basics"
        return made

    legal, score = page()
    assert (legal.lesson, legal.exercise_id, score.exercise_id) == (
        "01_crazy_eights_basics", "e01", "e02")
    assert legal.check("6C 3D").startswith("Not quite")
    assert legal.check("6C KH 8S").startswith("Right")
    assert score.check("64").startswith("Right")
    assert score.check("") == "Type an answer, e.g. a number."  # not an answer: not kept
    assert rec.mode == "browser" and rec.pending == 0 and legal.errors == score.errors == []
    kept = rec.progress_file()  # what the class bar writes into localStorage
    assert [(a["exercise"], a["answer"], a["verdict"]) for a in kept["attempts"]] == [
        ("e01", "6C 3D", False), ("e01", "6C KH 8S", True), ("e02", "64", True)]

    rec2 = fresh()  # a reload: the browser hands its records back
    legal2, score2 = page()
    rec2.use_browser("browser-1", json.loads(json.dumps(kept)))
    assert legal2.answers == [("6C 3D", False), ("6C KH 8S", True)] and legal2.tries == 1
    assert score2.answer_box.value == "64" and "✔" in score2.feedback.value
    assert list(tmp_path.iterdir()) == []


def test_a_finished_hand_is_kept_once(db: Path, fresh: Any) -> None:
    store = open_store(str(db))
    made = store.create_class("Year 11")
    rec = fresh()
    rec.join(made.code, "Ana")
    table = GameTable("crazy-eights", opponents=1, seed=3, delay=0)
    for _ in range(500):
        if table.game.over:
            break
        table.play(table.game.legal_moves()[0])
    assert table.game.over
    table.bot_step()  # nothing more happens after the end
    hands = store.class_report(made.code, made.teacher_key).hands
    assert len(hands) == 1
    assert hands[0]["rules"] == "crazy-eights"
    moves = hands[0]["moves"]
    assert (json.loads(moves) if isinstance(moves, str) else moves) == [
        str(m) for m in table.game.moves]


# --------------------------------------------------------------------------- the catalogue

def every_exercise() -> list[tuple[str, str, str, tuple[str, ...], str | None]]:
    """(lesson, id, question, rule ids, version) of every exercise the lessons make, run
    once each."""
    out = []
    for source in LESSONS:
        for ex in run_quietly(source):
            assert ex.lesson == source.stem, (source.stem, ex.question)
            out.append((source.stem, str(ex.exercise_id), exercise.plain(ex.question),
                        ex.rule_ids, ex.version))
    return out


def test_the_catalogue_lists_every_exercise_with_stable_ids(fresh: Any) -> None:
    made = every_exercise()  # a second run of the lessons: the catalogue was the first
    catalog = json.loads(builder.CATALOG.read_text(encoding="utf-8"))
    assert not catalog.get("provisional")
    # the same questions, the same versions: what a learner's page asks is what the store
    # judges (a position's own random seed, which decides no answer, is not in the version)
    listed = [(lesson, ident, entry["question"], tuple(entry["rules"]), entry["version"])
              for lesson, info in catalog["lessons"].items()
              for ident, entry in info["exercises"].items()]
    assert sorted(listed) == sorted(made)
    assert 117 <= len(made) <= 118  # lesson 8 (play well) added 4
    loaded = load(builder.CATALOG)
    assert list(loaded.lessons) == [s.stem for s in LESSONS]
    assert sum(loaded.exercise_count(s.stem) for s in LESSONS) == len(made)
    for source in LESSONS:
        info = catalog["lessons"][source.stem]
        assert info["title"] == builder.title_of(source)
        assert info["title"].startswith("Lesson ")
        assert info["practice"] == builder.practice_of(source)
        assert info["practice"]["rule_sets"] and info["practice"]["kinds"]
        ids = list(info["exercises"])
        assert ids == [f"e{i:02d}" for i in range(1, len(ids) + 1)]


def test_the_catalogue_is_never_older_than_its_lessons(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert builder.catalog_out_of_date() == []
    changed = tmp_path / LESSON1.name  # the lesson edited after the catalogue was written
    changed.write_text(LESSON1.read_text(encoding="utf-8") + "\n# %%\n1 + 1\n",
                       encoding="utf-8")
    problems = builder.catalog_out_of_date([changed])
    assert problems and "older than" in problems[0]
    data = json.loads(builder.CATALOG.read_text(encoding="utf-8"))
    del data["lessons"][LESSON1.stem]
    stale = tmp_path / "catalog.json"
    stale.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(builder, "CATALOG", stale)
    assert builder.catalog_out_of_date() == [
        f"catalog.json has no lesson {LESSON1.stem}: run `make lessons`"]
    with contextlib.redirect_stdout(io.StringIO()) as said:
        assert builder.main(["--check"]) == 1
    assert "catalog.json has no lesson" in said.getvalue()


# --------------------------------------------------------------------------- in Voilà

@pytest.mark.browser
def test_answers_come_back_after_a_reload_in_voila(voila_server: Any, page: Any,
                                                   screenshot: Any) -> None:
    """No class, no database: the answers are kept in the browser, and a reload (a new
    kernel) shows them again with their verdicts."""
    from browser_support import page_errors

    errors = page_errors(page)
    question = "Is 3♦ legal?"

    def open_lesson() -> Any:
        page.goto(voila_server.render("01_crazy_eights_basics.ipynb"), timeout=120_000)
        page.wait_for_function("() => document.querySelectorAll('.crazylab-exercise').length"
                               " >= 15", timeout=120_000)
        ex = page.locator(".crazylab-exercise").filter(has_text=question).first
        ex.scroll_into_view_if_needed()
        return ex

    ex = open_lesson()
    ex.get_by_role("button", name="yes").click()
    ex.get_by_text("Not right").wait_for(timeout=30_000)
    ex.get_by_role("button", name="no").click()
    ex.get_by_text("Right: no").wait_for(timeout=30_000)
    page.wait_for_timeout(1500)  # the class bar writes the answers into localStorage
    again = open_lesson()
    again.get_by_text("Your earlier answers: yes ✘, no ✔").wait_for(timeout=60_000)
    assert "Right: no" in again.inner_text()
    assert "mod-success" in (again.get_by_role("button", name="no").get_attribute("class")
                             or "")
    screenshot(page, "lesson_01_answers_restored", full_page=False)
    assert not errors, errors
    assert page.get_by_text("Traceback").count() == 0

"""The teacher's dashboard (issue 22 item 5) against a real SQLite class store: the grid, the
success rates and the most common wrong answers are those of the rows put in; the CSV download
is the database's rows; a reset needs the class code; an imported progress file adds its rows
once and a bad one nothing; a wrong key shows nothing."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from answers import practice_answer, right_answer, wrong_answer, wrong_answers

from crazylab.classroom.catalog import load as load_catalog
from crazylab.classroom.store import ClassError, StoreUnavailable, open_store
from crazylab.practice import make_item
from crazylab.questions import for_item
from crazylab.widgets.dashboard import (
    BUSY,
    MISMATCH,
    TeacherDashboard,
    TeacherPage,
    lesson_titles,
)

pytestmark = pytest.mark.oldest

L1, L2 = "01_crazy_eights_basics", "02_classic_vs_quick"



def _attempt(who: str, lesson: str, exercise: str, answer: str) -> tuple:
    """(learner, lesson, exercise, answer, verdict, rule ids, feedback): as the store judges."""
    verdict, feedback = load_catalog().question(lesson, exercise).judge(answer)
    return (who, lesson, exercise, answer, verdict,
            list(load_catalog().lessons[lesson].exercises[exercise]), feedback)


def _practice(who: str, lesson: str, rules: str, kind: str, seed: int, right: bool) -> tuple:
    """(learner, lesson, kind, answer, verdict, rule ids, feedback, rules, seed)."""
    item = make_item(rules, kind, seed)
    answer = practice_answer(rules, kind, seed, right)
    verdict, feedback = for_item(item).judge(answer)
    return (who, lesson, kind, answer, verdict, list(item.rule_ids), feedback, rules, seed)


W1, W2 = wrong_answers(L1, "e01")[:2]
ATTEMPTS = [
    _attempt("Ana", L1, "e01", W1),
    _attempt("Ana", L1, "e01", W1),
    _attempt("Ana", L1, "e01", right_answer(L1, "e01")),
    _attempt("Ana", L1, "e02", wrong_answer(L1, "e02")),
    _attempt("Ana", L2, "e01", right_answer(L2, "e01")),
    _attempt("Ben", L1, "e01", W2),
    _attempt("Ben", L1, "e01", right_answer(L1, "e01")),
    _attempt("Ben", L1, "e03", wrong_answer(L1, "e03")),
]
PRACTICE = [
    _practice("Ana", L1, "crazy-eights", "legal", 0, True),
    _practice("Ana", L1, "crazy-eights", "score", 1, False),
    _practice("Ben", L1, "crazy-eights", "legal", 2, True),
]
HANDS = [("Ana", "crazy-eights"), ("Ana", "crazy-eights"), ("Ben", "crazy-eights-classic")]


@pytest.fixture
def store(tmp_path):
    s = open_store(str(tmp_path / "class.db"))
    yield s
    s.close()


@pytest.fixture
def klass(store):
    """A class with Ana and Ben and their records, and another class with one learner."""
    new = store.create_class("Year 8")
    tokens = {name: store.join(new.code, name).token for name in ("Ana", "Ben")}
    for n, (who, lesson, ex, answer, *_) in enumerate(ATTEMPTS):
        assert store.record_attempt(tokens[who], lesson=lesson, exercise=ex, answer=answer,
                                    attempt_id=f"a{n}")
    for n, (who, lesson, kind, answer, *_, rules, seed) in enumerate(PRACTICE):
        assert store.record_practice(tokens[who], lesson=lesson, kind=kind, seed=seed,
                                     rules=rules, answer=answer, attempt_id=f"p{n}")
    for n, (who, rules) in enumerate(HANDS):
        assert store.record_hand(tokens[who], rules=rules, seats=["you", "bot"],
                                 moves=["6C", "draw"], result={"winner": 0}, hand_id=f"h{n}")
    other = store.create_class("Year 9")
    zed = store.join(other.code, "Zed").token
    store.record_attempt(zed, lesson=L1, exercise="e05", answer=wrong_answer(L1, "e05"),
                         attempt_id="z1")
    return new, other


def _counts(store, new) -> dict[str, int]:
    return {what: len(store.export_rows(new.code, new.teacher_key, what))
            for what in ("attempts", "practice", "hands", "learners")}


def test_grid_rates_and_wrong_answers_are_those_of_the_rows(store, klass) -> None:
    new, _ = klass
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    lessons = lesson_titles()
    # the grid: every learner x every lesson, answered (distinct exercises) and right
    assert set(dash.grid) == {"Ana", "Ben"}
    for who in ("Ana", "Ben"):
        assert list(dash.grid[who]) == list(lessons)
        for lesson, (_, total) in lessons.items():
            mine = [a for a in ATTEMPTS if a[0] == who and a[1] == lesson]
            cell = dash.grid[who][lesson]
            assert (cell.answered, cell.right, cell.total) == (
                len({a[2] for a in mine}), len({a[2] for a in mine if a[4]}), total)
    assert dash.grid["Ana"][L1].answered == 2 and dash.grid["Ana"][L1].right == 1
    # learners are numbered in the report: their tokens never reach the teacher
    assert all(set(r) == {"learner", "name", "joined"} for r in dash.report.learners)

    # per exercise: attempts, success rate, the most common wrong answer with its feedback
    table = dash.exercises.set_index(["lesson", "exercise"])
    groups: dict[tuple[str, str], list[tuple]] = {}
    for a in ATTEMPTS:
        groups.setdefault((a[1], a[2]), []).append(a)
    assert set(table.index) == set(groups)
    for key, rows in groups.items():
        right = sum(1 for a in rows if a[4])
        assert table.loc[key, "attempts"] == len(rows)
        assert table.loc[key, "right"] == right
        assert table.loc[key, "success %"] == pytest.approx(100 * right / len(rows), abs=0.05)
        assert table.loc[key, "learners"] == len({a[0] for a in rows})
        wrong = Counter(a[3] for a in rows if not a[4])
        shown = table.loc[key, "wrong answers"]
        if wrong:
            top, times = wrong.most_common(1)[0]
            feedback = next(a[6] for a in rows if a[3] == top)
            assert shown[0] == (top, times, feedback)
        else:
            assert shown == []
    assert table.loc[(L1, "e01"), "wrong answers"][0][:2] == (W1, 2)  # given twice
    assert (L1, "e05") not in table.index  # the other class's rows

    # per rule id: exercises and practice together
    rules = dash.rules.set_index("rule")
    per_rule: dict[str, list[bool]] = {}
    for a in ATTEMPTS:
        for rid in a[5]:
            per_rule.setdefault(rid, []).append(a[4])
    for p in PRACTICE:
        for rid in p[5]:
            per_rule.setdefault(rid, []).append(p[4])
    assert set(rules.index) == set(per_rule)
    for rid, verdicts in per_rule.items():
        assert rules.loc[rid, "attempts"] == len(verdicts)
        assert rules.loc[rid, "success %"] == pytest.approx(
            100 * sum(verdicts) / len(verdicts), abs=0.05)
    wrong_rule = PRACTICE[1][5][0]
    assert PRACTICE[1][6] in [w[2] for w in rules.loc[wrong_rule, "wrong answers"]]

    # the page shows it: names, a grid cell, the wrong answer with its reason (escaped)
    grid = dash.grid_html.value
    assert "Ana" in grid and "Ben" in grid
    assert dash.grid["Ana"][L1].text() in grid
    assert html.escape(W1, quote=True) in dash.exercises_html.value
    assert html.escape(ATTEMPTS[0][6].splitlines()[0], quote=True) in dash.exercises_html.value

    # practice over time: the whole class's accuracy and a plotly figure of it
    whole = dash.accuracy[dash.accuracy["learner"] == "whole class"]
    assert whole["items"].sum() == len(PRACTICE)
    assert whole["right"].sum() == sum(1 for p in PRACTICE if p[4])
    for who in ("Ana", "Ben"):
        mine = [p[4] for p in PRACTICE if p[0] == who]
        row = dash.accuracy[dash.accuracy["learner"] == who]
        assert (row["items"].sum(), row["right"].sum()) == (len(mine), sum(mine))
        if len(row) == 1:
            assert row["accuracy %"].iloc[0] == pytest.approx(100 * sum(mine) / len(mine))
    assert {t.name for t in dash.figure.data} == {"Ana", "Ben", "whole class"}
    [out] = dash.chart.outputs
    assert "application/vnd.plotly.v1+json" in out["data"]

    # hands played, per learner and rule set
    for (who, rules_name), n in Counter(HANDS).items():
        assert dash.hands.loc[who, rules_name] == n
    assert dash.hands.loc["Ana", "all rule sets"] == 2


def _download(dash: TeacherDashboard, filename: str) -> bytes:
    """The file behind the page's download link ``filename`` (its data URL, decoded)."""
    m = re.search(rf"<a download='{re.escape(filename)}' href='data:[^;]+;base64,([^']*)'",
                  dash.downloads_html.value)
    assert m, f"no download link {filename}"
    return base64.b64decode(m.group(1))


def test_csv_and_parquet_downloads_are_the_database_rows(store, klass) -> None:
    import pandas as pd

    new, _ = klass
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    for what in ("attempts", "practice", "hands", "learners"):
        rows = store.export_rows(new.code, new.teacher_key, what)
        data = _download(dash, f"class-{new.code}-{what}.csv").decode("utf-8")
        got = list(csv.DictReader(io.StringIO(data)))
        assert len(got) == len(rows) > 0
        for mine, theirs in zip(got, rows, strict=True):
            assert list(mine) == list(theirs)
            for col, value in theirs.items():
                text = str(value)
                if text.startswith(("=", "+", "@")):  # a spreadsheet must not run it
                    text = "'" + text
                assert mine[col] == text, (what, col)
        frame = pd.read_parquet(io.BytesIO(_download(dash, f"class-{new.code}-{what}.parquet")))
        assert frame.to_dict("records") == rows
    attempts = list(csv.DictReader(io.StringIO(
        _download(dash, f"class-{new.code}-attempts.csv").decode())))
    assert [r["answer"] for r in attempts] == [a[3] for a in ATTEMPTS]
    assert new.teacher_key not in dash.downloads_html.value.split("base64,")[0]
    assert all(new.teacher_key not in name for name in dash.downloads)


def test_reset_needs_the_class_code(store, klass) -> None:
    new, other = klass
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    before, other_before = _counts(store, new), _counts(store, other)
    for wrong in ("", "yes", other.code, new.code[:-1]):
        line = dash.reset(wrong)
        assert line.startswith("Nothing deleted"), line
        assert _counts(store, new) == before
    assert dash.grid["Ana"][L1].answered == 2
    dash.confirm_box.value = new.code.lower()  # typed in lower case: still the code
    dash._on_reset()
    assert dash.errors == []
    assert "The class was reset" in dash.reset_line.value
    assert _counts(store, new) == {"attempts": 0, "practice": 0, "hands": 0, "learners": 0}
    assert _counts(store, other) == other_before
    assert dash.grid == {} and "No learner" in dash.grid_html.value
    assert store.class_report(new.code, new.teacher_key).name == "Year 8"  # the class stays


def _progress_file(name: str = "Cleo", **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "crazylab-progress", "version": 1,
        "learner": {"id": "browser-cleo-1", "name": name},
        "attempts": [
            {"attempt_id": "c-a1", "lesson": L1, "exercise": "e01", "answer": W1,
             "verdict": False, "rule_ids": ["SR-10"], "feedback": "K♥ matches neither.",
             "at": "2026-12-01T10:00:00Z"},
            {"attempt_id": "c-a2", "lesson": L1, "exercise": "e01",
             "answer": right_answer(L1, "e01"), "verdict": True, "rule_ids": ["SR-10"],
             "feedback": "Right.", "at": "2026-12-01T10:01:00Z"}],
        "practice": [
            {"attempt_id": "c-p1", "lesson": L1, "kind": "legal", "seed": 7,
             "rules": "crazy-eights", "answer": practice_answer("crazy-eights", "legal", 7, True),
             "verdict": True, "rule_ids": ["SR-10"], "feedback": "Right.",
             "at": "2026-12-02T09:00:00Z"}]}
    data.update(changes)
    return data


def test_import_adds_a_file_once_and_a_bad_file_nothing(store, klass) -> None:
    new, _ = klass
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    before = _counts(store, new)
    good = json.dumps(_progress_file()).encode()
    bad_item = _progress_file(name="Dan")
    bad_item["learner"] = {"id": "browser-dan", "name": "Dan"}
    bad_item["attempts"][1]["exercise"] = "e999"  # the second item is wrong: nothing stored
    bad = json.dumps(bad_item).encode()
    lines = dash.import_files([("cleo.json", good), ("dan.json", bad),
                               ("notes.json", b"{not json"), ("empty.json", b"[]")])
    assert lines[0] == "cleo.json: 4 new records imported."  # the learner, 2 attempts, 1 item
    assert lines[1].startswith("dan.json: ") and "e999" in lines[1]
    assert lines[1].endswith("nothing imported.")
    assert lines[2].startswith("notes.json: not a progress file (not JSON")
    assert lines[3].startswith("empty.json: not a crazylab progress file")
    after = _counts(store, new)
    assert after == {**before, "attempts": before["attempts"] + 2,
                     "practice": before["practice"] + 1, "learners": before["learners"] + 1}
    names = [r["name"] for r in store.export_rows(new.code, new.teacher_key, "learners")]
    assert "Dan" not in names and names.count("Cleo") == 1
    # again, through the upload button as the browser sends it: nothing doubles
    dash.upload.set_state({"value": [{"name": "cleo.json", "type": "application/json",
                                      "size": len(good), "content": memoryview(good),
                                      "last_modified": 1764583200000}]})
    assert dash.errors == []
    assert "cleo.json: 0 new records imported." in dash.import_line.value
    assert _counts(store, new) == after
    assert dash.upload.value == ()
    assert dash.grid["Cleo"][L1].answered == 1 and dash.grid["Cleo"][L1].right == 1


def test_a_wrong_key_or_code_is_refused_and_shows_nothing(store, klass) -> None:
    new, other = klass
    with pytest.raises(ClassError):
        TeacherDashboard(store, new.code, "not-the-key")
    with pytest.raises(ClassError):
        TeacherDashboard(store, new.code, other.teacher_key)
    page = TeacherPage(store)
    lines = []
    for code, key in ((new.code, "not-the-key"), (new.code, other.teacher_key),
                      ("ZZZZZZZZZZZZZ", new.teacher_key), ("", new.teacher_key)):
        page.code_box.value, page.key_box.value = code, key
        page._on_open()
        assert page.dashboard is None and page.place.children == ()
        assert page.key_box.value == ""  # the key does not stay in the field
        lines.append(page.open_line.value)
    assert MISMATCH in lines[0] and lines[0] == lines[1] == lines[2]  # codes cannot be probed
    assert "Type the class code" in lines[3]
    assert page.errors == []
    page.code_box.value, page.key_box.value = new.code, new.teacher_key
    page._on_open()
    assert page.dashboard is not None and page.place.children == (page.dashboard,)
    assert page.open_line.value == ""
    assert set(page.dashboard.grid) == {"Ana", "Ben"}


def test_a_new_class_is_shown_once_then_opens(store) -> None:
    page = TeacherPage(store)
    page.name_box.value = "Year 10"
    page._on_make()
    shown = page.made.value
    code = re.search(r"cl-new-code'>([^<]+)<", shown).group(1)
    key = re.search(r"cl-new-key'>([^<]+)<", shown).group(1)
    assert "Write the key down; it is not shown again." in shown
    assert page.code_box.value == code and page.key_box.value == ""
    page.key_box.value = key
    page._on_open()
    assert page.errors == []
    assert page.made.value == ""  # shown once
    assert "Year 10" in page.dashboard.title.value
    assert page.dashboard.grid == {}
    page.name_box.value = "   "
    page._on_make()
    assert "class name" in page.made.value and page.errors == []


class _Flaky:
    """The real store, whose ``class_report`` fails as told after the first call."""

    def __init__(self, store, error: Exception) -> None:
        self.store, self.error, self.calls = store, error, 0

    def class_report(self, code: str, key: str):
        self.calls += 1
        if self.calls > 1:
            raise self.error
        return self.store.class_report(code, key)

    def __getattr__(self, name: str):
        return getattr(self.store, name)


def test_a_busy_database_is_one_line_and_a_failure_is_shown_under_the_widget(store,
                                                                           klass) -> None:
    new, _ = klass
    busy = TeacherDashboard(_Flaky(store, StoreUnavailable("database is locked")), new.code,
                            new.teacher_key)
    grid = busy.grid_html.value
    busy.refresh_button.click()
    assert BUSY in busy.status.value and busy.errors == []
    assert busy.grid_html.value == grid  # what was shown stays
    broken = TeacherDashboard(_Flaky(store, RuntimeError("disk on fire")), new.code,
                              new.teacher_key)
    broken.refresh_button.click()
    assert len(broken.errors) == 1 and "disk on fire" in broken.errors[0]
    assert "disk on fire" in broken.error_area.value
    assert broken.error_area.layout.display != "none"


def test_no_learner_page_links_the_teacher_page() -> None:
    notebooks = Path(__file__).resolve().parents[1] / "notebooks"
    linking = [p.name for p in notebooks.rglob("*.ipynb") if p.name != "teacher.ipynb"
               and "teacher.ipynb" in p.read_text(encoding="utf-8")]
    assert linking == []
    assert (notebooks / "teacher.ipynb").is_file()


def test_a_browser_file_with_no_name_is_named_from_its_file(store, klass) -> None:
    """The site without a server writes ``learner.name`` empty until a name is typed: the
    teacher still imports it, named after the file (or the learner id)."""
    new, _ = klass
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    nameless = _progress_file()
    nameless["learner"] = {"id": "9f3a71c2e4", "name": ""}
    lines = dash.import_files([("crazylab-progress-Cleo_B.json", json.dumps(nameless).encode())])
    assert lines == ["crazylab-progress-Cleo_B.json: 4 new records imported (the file names "
                     "no learner: shown as Cleo B)."]
    other = _progress_file()
    other["learner"] = {"id": "77aa00bb11", "name": "  "}
    for row in other["attempts"] + other["practice"]:
        row["attempt_id"] = "x" + row["attempt_id"]
    [line] = dash.import_files([("crazylab-progress.json", json.dumps(other).encode())])
    assert line.endswith("shown as Learner 77aa00).")
    dash.refresh()
    assert {"Cleo B", "Learner 77aa00"} <= set(dash.grid)
    wrong_type = _progress_file()
    wrong_type["learner"] = {"id": "5555", "name": 5}
    [line] = dash.import_files([("odd.json", json.dumps(wrong_type).encode())])
    assert line.startswith("odd.json: ") and line.endswith("nothing imported.")


def test_a_file_the_learners_recorder_writes_is_imported(store, klass) -> None:
    """The learner's side (the kernel's recorder in browser mode, as on the site without a
    server) writes the file; the teacher's dashboard imports it whole, once."""
    from crazylab.classroom.recorder import Recorder

    new, _ = klass
    rec = Recorder(environ={})  # no database: the browser keeps the records
    rec.use_browser("b7c1d2e3f4a5", None, name="")
    wrong = wrong_answer(L1, "e02")
    rec.attempt(lesson=L1, exercise="e02", answer=wrong, verdict=True, rule_ids=["SR-11"],
                feedback="the browser says right")
    rec.attempt(lesson=L1, exercise="e02", answer=right_answer(L1, "e02"), verdict=True,
                rule_ids=["SR-11"], feedback="Right.")
    rec.practice(lesson=L1, kind="legal", seed=3, question="Which are legal?",
                 answer=practice_answer("crazy-eights", "legal", 3, True), verdict=True,
                 rule_ids=["SR-10"], feedback="Right.", rules="crazy-eights")
    data = rec.progress_file()
    assert len(data["attempts"]) == 2 and len(data["practice"]) == 1
    dash = TeacherDashboard(store, new.code, new.teacher_key)
    content = json.dumps(data).encode()
    [line] = dash.import_files([("crazylab-progress-Eve.json", content)])
    assert line.startswith("crazylab-progress-Eve.json: 4 new records imported"), line
    assert dash.import_files([("crazylab-progress-Eve.json", content)])[0].startswith(
        "crazylab-progress-Eve.json: 0 new records")
    dash.refresh()
    assert (dash.grid["Eve"][L1].answered, dash.grid["Eve"][L1].right) == (1, 1)
    table = dash.exercises.set_index(["lesson", "exercise"])
    judged = load_catalog().question(L1, "e02").judge(wrong)[1]  # the store's, not the file's
    assert (wrong, judged) in [(w[0], w[2]) for w in table.loc[(L1, "e02"), "wrong answers"]]
    eve = [r for r in store.export_rows(new.code, new.teacher_key, "attempts")
           if r["name"] == "Eve"]
    assert [(r["answer"], r["verdict"]) for r in eve] == [(wrong, False),
                                                           (right_answer(L1, "e02"), True)]


def test_a_learners_name_is_text_in_the_practice_chart_not_a_link() -> None:
    """plotly draws tags in a trace's name (<a href>, <b>): a learner named like a link must
    not become one on the teacher's page."""
    from crazylab.widgets.dashboard import accuracy_figure, practice_accuracy

    evil = "<a href='https://example.invalid/steal'>Ana</a>"
    rows = [{"learner": "1", "at": "2026-12-07T09:00:00+00:00", "verdict": True},
            {"learner": "2", "at": "2026-12-07T09:05:00+00:00", "verdict": False}]
    fig = accuracy_figure(practice_accuracy(rows, {"1": evil, "2": "Ben & Co"}))
    names = [t.name for t in fig.data]
    assert "&lt;a href=&#x27;https://example.invalid/steal&#x27;&gt;Ana&lt;/a&gt;" in names
    assert "Ben &amp; Co" in names and "whole class" in names
    assert not any("<a" in n for n in names)


def test_a_page_visitor_makes_no_class_unless_the_server_allows_it(store, monkeypatch) -> None:
    """Anyone who opens teacher.ipynb used to be a teacher: now a page (no store handed in)
    on a server not started with --allow-class-creation says how classes are made."""
    from crazylab.widgets.dashboard import ALLOW_ENV, MADE_ON_SERVER

    monkeypatch.delenv(ALLOW_ENV, raising=False)
    monkeypatch.delenv("CRAZYLAB_CLASS_URL", raising=False)
    monkeypatch.setenv("CRAZYLAB_DB", store.db.url)
    before = len(store.classes())
    page = TeacherPage()
    shown = json.dumps([getattr(c, "value", "") for c in page.children])
    assert not page.can_make and "Classes are made on the server" in shown
    assert "Class name" not in json.dumps([str(c) for c in page.children])  # no form
    assert page.make_class("Mine") is None
    assert html.escape(MADE_ON_SERVER, quote=True) in page.made.value
    assert len(store.classes()) == before
    monkeypatch.setenv(ALLOW_ENV, "1")  # crazylab serve --allow-class-creation
    allowed = TeacherPage()
    assert allowed.can_make and allowed.make_class("Year 7") is not None
    assert len(store.classes()) == before + 1

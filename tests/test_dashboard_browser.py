"""The teacher's page (``notebooks/teacher.ipynb``) in Chromium, served by Voilà with a real
SQLite class database (``CRAZYLAB_DB``): a class made on the page shows its key once; a wrong
key gets one line; the class's code and key open the dashboard with the learners put in through
the store, their counts and wrong answers, and the practice chart; the CSV downloaded is the
database's rows; Refresh shows a new answer; progress files are imported (a bad one names
itself and adds nothing); a reset needs the class code. No key in the page sent to the
browser, its address or its storage; no console error."""

from __future__ import annotations

import csv
import io
import json
import os
import urllib.request

import pytest
from answers import practice_answer, right_answer, wrong_answer
from browser_support import NOTEBOOKS_DIR, start_voila, stop_voila

from crazylab.classroom.catalog import load as load_catalog
from crazylab.classroom.store import open_store

pytestmark = pytest.mark.browser

LOAD_MS = 180_000
L1 = "01_crazy_eights_basics"
# (learner, exercise, answer, verdict, feedback)
W1, R1 = wrong_answer(L1, "e01"), right_answer(L1, "e01")
#: (learner, exercise, answer, verdict): the store judges each answer itself
ATTEMPTS = [("Ana", "e01", W1, False), ("Ana", "e01", W1, False), ("Ana", "e01", R1, True),
            ("Ben", "e01", R1, True), ("Ben", "e02", wrong_answer(L1, "e02"), False)]


@pytest.fixture(scope="module")
def class_db(tmp_path_factory):
    return tmp_path_factory.mktemp("class-db") / "crazylab.db"


@pytest.fixture(scope="module")
def teacher_server(class_db, tmp_path_factory):
    """Voilà on notebooks/ whose kernels use the test's class database."""
    settings = {"CRAZYLAB_DB": str(class_db), "CRAZYLAB_ALLOW_CLASS_CREATION": "1"}
    before = {k: os.environ.get(k) for k in settings}
    os.environ.update(settings)  # this server lets its visitors make classes
    try:
        server = start_voila(NOTEBOOKS_DIR, log_dir=tmp_path_factory.mktemp("teacher-logs"))
    finally:
        for k, v in before.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v
    yield server
    stop_voila(server)


def _watch(page) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(f"uncaught: {exc}"))
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 else None)
    return problems


def _storage(page) -> str:
    return page.evaluate("() => JSON.stringify({...localStorage}) + JSON.stringify("
                         "{...sessionStorage}) + document.cookie")


def test_teacher_opens_the_class_and_downloads_its_csv(teacher_server, class_db, page,
                                                      screenshot, tmp_path) -> None:
    store = open_store(str(class_db))
    year8 = store.create_class("Year 8")
    tokens = {n: store.join(year8.code, n).token for n in ("Ana", "Ben")}
    for i, (who, ex, answer, _) in enumerate(ATTEMPTS):
        store.record_attempt(tokens[who], lesson=L1, exercise=ex, answer=answer,
                             attempt_id=f"att-{i}")
    for i, verdict in enumerate((True, False, True)):
        store.record_practice(tokens["Ana"], lesson=L1, rules="crazy-eights", kind="legal",
                              seed=i, answer=practice_answer("crazy-eights", "legal", i, verdict),
                              attempt_id=f"prac-{i}")
    store.record_hand(tokens["Ben"], rules="crazy-eights", seats=["Ben", "bot"],
                      moves=["6C"], result={"winner": 0}, hand_id="hand-1")

    problems = _watch(page)
    url = teacher_server.render("teacher.ipynb")
    response = page.goto(url, timeout=LOAD_MS)
    sent = response.text()  # the page as sent, before any key is typed
    assert year8.teacher_key not in sent
    code_box = page.get_by_label("Your class code")
    code_box.wait_for(timeout=LOAD_MS)
    with urllib.request.urlopen(url, timeout=120) as plain:  # another visitor's copy
        assert year8.teacher_key not in plain.read().decode("utf-8")

    # a new class: its code and key, shown once
    page.get_by_label("Class name").fill("Year 9")
    page.get_by_role("button", name="Make a new class").click()
    secret = page.locator(".cl-secret")
    secret.wait_for(timeout=30_000)
    assert "Write the key down; it is not shown again." in secret.inner_text()
    year9_key = page.locator(".cl-new-key").inner_text()
    year9_code = page.locator(".cl-new-code").inner_text()
    assert store.class_report(year9_code, year9_key).name == "Year 9"
    screenshot(page, "teacher_new_class")

    # a wrong key: one line, nothing shown
    code_box.fill(year8.code)
    page.get_by_label("Teacher key").fill("not-the-key")
    page.get_by_role("button", name="Open").click()
    page.get_by_text("That class code and key do not match.").wait_for(timeout=30_000)
    assert page.locator(".crazylab-teacher-dashboard").count() == 0
    assert page.locator(".cl-secret").count() == 0  # the new key went with it

    # the right key: the dashboard with Ana and Ben
    code_box.fill(year8.code)
    key_box = page.get_by_label("Teacher key")
    key_box.fill(year8.teacher_key)
    page.get_by_role("button", name="Open").click()
    grid = page.locator(".crazylab-teacher-dashboard table.cl-dash-table").first
    grid.wait_for(timeout=60_000)
    rows = {r.locator("th").inner_text(): r.locator("td").first.inner_text()
            for r in grid.locator("tbody tr").all()}
    total = store.catalog.exercise_count(L1)
    assert rows == {"Ana": f"1/{total}, 1 right", "Ben": f"2/{total}, 1 right"}
    exercises = page.locator(".crazylab-teacher-dashboard table.cl-dash-table").nth(1)
    first_wrong = exercises.locator("tbody tr").first.locator(".cl-wrong").first
    said = load_catalog().question(L1, "e01").judge(W1)[1]  # the store's own feedback
    assert first_wrong.inner_text().splitlines()[:2] == [f"{W1} × 2", said.splitlines()[0]]
    page.locator(".js-plotly-plot").wait_for(timeout=60_000)  # practice over time
    assert key_box.input_value() == ""
    assert year8.teacher_key not in page.url and year8.teacher_key not in _storage(page)
    assert year9_key not in page.content()

    # the CSV download is the database's rows
    link = page.locator("a[download$='-attempts.csv']")
    with page.expect_download(timeout=30_000) as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"class-{year8.code}-attempts.csv"
    path = tmp_path / "attempts.csv"
    download.save_as(path)
    got = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    expected = store.export_rows(year8.code, year8.teacher_key, "attempts")
    assert len(got) == len(expected) == len(ATTEMPTS)
    assert got == [{k: str(v) for k, v in row.items()} for row in expected]
    assert [(r["name"], r["answer"]) for r in got] == [(a[0], a[2]) for a in ATTEMPTS]

    page.wait_for_timeout(1000)
    screenshot(page, "teacher_dashboard")

    # a new answer, then Refresh: Ana has answered a second exercise
    store.record_attempt(tokens["Ana"], lesson=L1, exercise="e03",
                         answer=right_answer(L1, "e03"), attempt_id="att-late")
    page.get_by_role("button", name="Refresh").click()
    ana = grid.locator("tbody tr", has_text="Ana").locator("td").first
    ana.filter(has_text=f"2/{total}, 2 right").wait_for(timeout=30_000)

    # progress files from the site without a server: a good one and a bad one
    good = json.dumps(_progress_file("cleo-1", "Cleo", "e01")).encode()
    bad = json.dumps(_progress_file("dan-1", "Dan", "e999")).encode()
    with page.expect_file_chooser(timeout=30_000) as chooser:
        page.get_by_role("button", name="Import progress files").click()
    assert chooser.value.is_multiple()
    chooser.value.set_files([
        {"name": "cleo.json", "mimeType": "application/json", "buffer": good},
        {"name": "dan.json", "mimeType": "application/json", "buffer": bad}])
    page.get_by_text("cleo.json: 2 new records imported.").wait_for(timeout=30_000)
    assert "dan.json: " in page.get_by_text("dan.json").inner_text()
    assert "nothing imported" in page.get_by_text("dan.json").inner_text()
    grid.locator("tbody tr", has_text="Cleo").wait_for(timeout=30_000)
    names = [r["name"] for r in store.export_rows(year8.code, year8.teacher_key, "learners")]
    assert sorted(names) == ["Ana", "Ben", "Cleo"]
    screenshot(page, "teacher_imported")

    # reset: a wrong confirmation deletes nothing; the class code empties the class
    confirm = page.get_by_label("Type the class code to confirm")
    confirm.fill("yes")
    page.get_by_role("button", name="Reset the class").click()
    page.get_by_text("Nothing deleted").wait_for(timeout=30_000)
    assert len(store.export_rows(year8.code, year8.teacher_key, "attempts")) == len(
        ATTEMPTS) + 2
    confirm.fill(year8.code)
    page.get_by_role("button", name="Reset the class").click()
    page.get_by_text("No learner has joined this class yet.").wait_for(timeout=30_000)
    assert store.export_rows(year8.code, year8.teacher_key, "attempts") == []
    assert store.export_rows(year8.code, year8.teacher_key, "learners") == []
    assert not problems, problems
    store.close()


def _progress_file(learner_id: str, name: str, exercise: str) -> dict:
    """A learner's downloaded progress file with one attempt (on ``exercise``)."""
    return {"format": "crazylab-progress", "version": 1,
            "learner": {"id": learner_id, "name": name},
            "attempts": [{"attempt_id": f"{learner_id}-a1", "lesson": L1, "exercise": exercise,
                          "answer": R1, "verdict": True, "rule_ids": ["SR-10"],
                          "feedback": "Right.", "at": "2026-12-01T10:00:00Z"}],
            "practice": []}

"""A class, end to end (issue 22): real Voilà, a real SQLite class database, Chromium.

Two learners of one class open lesson 1 in their own browsers, join with the class code,
answer an exercise (one wrong then right, one wrong) and a practice item. One reloads and
sees their answers; the server restarts (same address, same database) and both still do. The
teacher's page shows both learners with the right counts and the wrong answer; its CSV is the
database's rows. Forged requests for another learner's data, or the teacher's routes without
the key, are refused and leak nothing.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from browser_support import (
    NOTEBOOKS_DIR,
    VIEWPORT,
    free_port,
    page_errors,
    save_screenshot,
    start_voila,
    stop_voila,
)

from crazylab.classroom.store import Store, open_store

pytestmark = pytest.mark.browser

LESSON = "01_crazy_eights_basics"
QUESTION = "Is 3♦ legal?"


class Room:
    """The class's server: started, stopped and started again on one port and database."""

    def __init__(self, db: Path, logs: Path) -> None:
        self.db, self.logs, self.port = db, logs, free_port()
        self.server: Any = None

    def start(self) -> None:
        with mock.patch.dict("os.environ", {"CRAZYLAB_DB": str(self.db)}):
            self.server = start_voila(NOTEBOOKS_DIR, port=self.port, log_dir=self.logs)

    def stop(self) -> None:
        stop_voila(self.server)

    def url(self, notebook: str) -> str:
        return self.server.render(notebook)

    def api(self, path: str, headers: dict[str, str]) -> tuple[int, str]:
        req = urllib.request.Request(f"{self.server}{path}", headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> Iterator[Room]:
    tmp = tmp_path_factory.mktemp("class-journey")
    room = Room(tmp / "class.db", tmp)
    room.start()
    yield room
    room.stop()


def _lesson(page: Any, room: Room) -> Any:
    """Open lesson 1 and wait for its class bar and exercises; the exercise asked about."""
    page.goto(room.url(f"{LESSON}.ipynb"), timeout=120_000)
    page.wait_for_selector(".cbar", timeout=120_000)
    page.wait_for_function("() => document.querySelectorAll('.crazylab-exercise').length >= 15",
                           timeout=120_000)
    ex = page.locator(".crazylab-exercise").filter(has_text=QUESTION).first
    ex.scroll_into_view_if_needed()
    return ex


def _join(page: Any, code: str, name: str) -> str:
    """Join with the class code and a display name; the browser's token."""
    page.get_by_label("Class code").fill(code)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    page.get_by_text(f"You are {name} in Year 8").wait_for(timeout=60_000)
    learner = json.loads(page.evaluate("() => localStorage.getItem('crazylab.learner')"))
    return str(learner["token"])


def _practise(page: Any) -> None:
    """Answer the practice set's first item (a button, or a typed card); wait for the verdict."""
    practice = page.locator(".crazylab-practice").first
    practice.scroll_into_view_if_needed()
    item = practice.locator(".crazylab-exercise").first
    answered = practice.locator(".crazylab-practice-status").filter(has_text=" of 1 right")
    if item.locator(".crazylab-choice").count():
        item.locator(".crazylab-choice").first.click()
        answered.wait_for(timeout=30_000)
        return
    # a card (the next top card), a number (a score) or a move (which are legal): whichever
    # the question reads is an answer, right or wrong; the others are told how to answer
    for answer in ("QH", "10", "draw"):
        item.locator("input[type=text]").fill(answer)
        item.get_by_role("button", name="Check").click()
        try:
            answered.wait_for(timeout=5_000)
            return
        except Exception:  # noqa: BLE001 - not an answer to this question: the next kind
            continue
    raise AssertionError("no answer was read: " + practice.inner_text())


def _earlier(ex: Any, text: str) -> None:
    ex.get_by_text(f"Your earlier answers: {text}").wait_for(timeout=60_000)


def test_a_class_is_remembered_and_the_teacher_sees_it(room: Room, browser: Any,
                                                       tmp_path: Path) -> None:
    store: Store = open_store(str(room.db))
    year8 = store.create_class("Year 8")
    other = store.create_class("Year 9")
    ana_ctx = browser.new_context(viewport=dict(VIEWPORT))
    ben_ctx = browser.new_context(viewport=dict(VIEWPORT))
    contexts = [ana_ctx, ben_ctx]
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    errors = page_errors(ana) + page_errors(ben)
    try:
        # -- both join and answer ----------------------------------------------------------
        ex_a = _lesson(ana, room)
        ex_b = _lesson(ben, room)
        token_a = _join(ana, year8.code, "Ana")
        token_b = _join(ben, year8.code, "Ben")
        assert token_a != token_b and "Ana" not in token_a and len(token_a) >= 16
        ex_a.get_by_role("button", name="yes").click()
        ex_a.get_by_text("Not right").wait_for(timeout=30_000)
        ex_a.get_by_role("button", name="no").click()
        ex_a.get_by_text("Right: no").wait_for(timeout=30_000)
        ex_b.get_by_role("button", name="yes").click()
        ex_b.get_by_text("Not right").wait_for(timeout=30_000)
        _practise(ana)
        _practise(ben)

        def stored() -> tuple[list[tuple[str, bool]], list[tuple[str, bool]], int, int]:
            a = [(r.answer, r.verdict) for r in store.attempts(token_a, LESSON)]
            b = [(r.answer, r.verdict) for r in store.attempts(token_b, LESSON)]
            return a, b, len(store.practice(token_a)), len(store.practice(token_b))

        ana.wait_for_timeout(1000)
        assert stored() == ([("yes", False), ("no", True)], [("yes", False)], 1, 1)

        # -- Ana reloads -------------------------------------------------------------------
        _earlier(_lesson(ana, room), "yes ✘, no ✔")
        save_screenshot(ana, "class_journey_reloaded", full_page=False)

        # -- the server restarts: both come back to their answers ---------------------------
        room.stop()
        room.start()
        _earlier(_lesson(ana, room), "yes ✘, no ✔")
        ex_b = _lesson(ben, room)
        _earlier(ex_b, "yes ✘")
        ben.get_by_text("You are Ben in Year 8").wait_for(timeout=30_000)
        assert stored() == ([("yes", False), ("no", True)], [("yes", False)], 1, 1)

        # -- the teacher ---------------------------------------------------------------------
        teacher_ctx = browser.new_context(viewport=dict(VIEWPORT))
        contexts.append(teacher_ctx)
        teacher = teacher_ctx.new_page()
        errors += page_errors(teacher)
        teacher.goto(room.url("teacher.ipynb"), timeout=120_000)
        teacher.get_by_label("Your class code").fill(year8.code)
        teacher.get_by_label("Teacher key").fill(year8.teacher_key)
        teacher.get_by_role("button", name="Open").click()
        grid = teacher.locator(".crazylab-teacher-dashboard table.cl-dash-table").first
        grid.wait_for(timeout=60_000)
        total = store.catalog.exercise_count(LESSON)
        rows = {r.locator("th").inner_text(): r.locator("td").first.inner_text()
                for r in grid.locator("tbody tr").all()}
        assert rows == {"Ana": f"1/{total}, 1 right", "Ben": f"1/{total}, 0 right"}
        wrong = teacher.locator(".crazylab-teacher-dashboard .cl-wrong").filter(
            has_text="yes × 2").first
        wrong.wait_for(timeout=30_000)
        assert "3♦" in wrong.inner_text()  # the engine's reason is shown with it
        with teacher.expect_download(timeout=30_000) as info:
            teacher.locator("a[download$='-attempts.csv']").click()
        path = tmp_path / "attempts.csv"
        info.value.save_as(path)
        got = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
        expected = store.export_rows(year8.code, year8.teacher_key, "attempts")
        assert len(got) == 3
        assert got == [{k: str(v) for k, v in row.items()} for row in expected]
        save_screenshot(teacher, "class_journey_teacher")
        for page in (ana, ben):  # the key never reached a learner's page
            assert year8.teacher_key not in page.content()
            assert year8.teacher_key not in page.evaluate("() => JSON.stringify(localStorage)")

        # -- forged requests -----------------------------------------------------------------
        status, body = room.api(f"/crazylab/api/me/attempts?lesson={LESSON}",
                                {"X-Crazylab-Token": token_b})
        assert status == 200 and token_a not in body and "Ana" not in body
        assert [a["answer"] for a in json.loads(body)["attempts"]] == ["yes"]
        forged = secrets.token_urlsafe(24)
        status, body = room.api("/crazylab/api/me/attempts", {"X-Crazylab-Token": forged})
        assert status in (401, 403) and "Ana" not in body and "attempts" not in body
        status, body = room.api(f"/crazylab/api/class/{year8.code}/export.csv", {})
        assert status in (401, 403) and "Ana" not in body
        status, body = room.api(f"/crazylab/api/class/{year8.code}/export.csv",
                                {"X-Crazylab-Key": other.teacher_key})
        assert status == 403 and "Ana" not in body
        status, body = room.api(f"/crazylab/api/class/{other.code}/export.csv",
                                {"X-Crazylab-Key": year8.teacher_key})
        assert status == 403 and "Ana" not in body
        status, body = room.api(f"/crazylab/api/class/{year8.code}/export.csv",
                                {"X-Crazylab-Key": year8.teacher_key})
        assert status == 200 and "Ana" in body and "Ben" in body
        assert not errors, errors
        assert not any(p.get_by_text("Traceback").count() for p in (ana, ben, teacher))
    finally:
        for ctx in contexts:
            ctx.close()

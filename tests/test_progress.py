"""The kernel's recorder and the class bar, driven from Python against a real SQLite file
(issue 22): a learner joins, answers, and a new kernel with the same browser token gets the
answers back; a locked database keeps answers waiting (said under the bar) and stores each once
when it is free again, on the retry timer; a refused record is one line and stores nothing;
"forget me" deletes; with no class the records go to the browser and come back from it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from answers import practice_answer, right_answer, wrong_answer

from crazylab.classroom.recorder import Recorder
from crazylab.classroom.store import ClassError, Store, StoreUnavailable, open_store
from crazylab.widgets.classbar import ClassBar

pytestmark = pytest.mark.oldest

LESSON = "01_crazy_eights_basics"
#: answers the store judges right (R) or wrong (W), by exercise number
R1, R2, R3, R5 = (right_answer(LESSON, f"e0{n}") for n in (1, 2, 3, 5))
W2, W4 = wrong_answer(LESSON, "e02"), wrong_answer(LESSON, "e04")


class Timer:
    """The recorder's retry timer, fired by the test."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, fn: Callable[[], None]) -> None:
        self.calls.append((delay, fn))

    def fire(self) -> None:
        _delay, fn = self.calls.pop(0)
        fn()


def make(db: Path, *, timer: Timer | None = None, busy: float = 10.0,
         env: dict[str, str] | None = None) -> tuple[Recorder, ClassBar, list[dict[str, Any]]]:
    """A fresh kernel: its recorder, its class bar and what the bar sent the browser."""
    environ = {"CRAZYLAB_DB": str(db), **(env or {})}
    rec = Recorder(open_store=lambda: open_store(str(db), busy_timeout=busy),
                   schedule=timer, environ=environ)
    bar = ClassBar(LESSON, rec=rec)
    sent: list[dict[str, Any]] = []
    bar.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    return rec, bar, sent


def answer(rec: Recorder, exercise: str, text: str, verdict: bool) -> None:
    rec.attempt(lesson=LESSON, exercise=exercise, answer=text, verdict=verdict,
                rule_ids=["SR-1"], feedback="right" if verdict else "an eight is wild")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "class.db"


@pytest.fixture
def store(db: Path) -> Store:
    return open_store(str(db))


def test_join_answer_reload_restores(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    rec, bar, sent = make(db)
    assert bar.state["mode"] == "browser" and bar.state["can_join"]
    assert bar.join(year8.code, "Ana")
    token = rec.token
    assert token and "Ana" not in token
    assert sent[-1] == {"event": "joined", "learner": {
        "token": token, "name": "Ana", "class_name": "Year 8"}}
    assert bar.state["mode"] == "joined" and bar.state["name"] == "Ana"
    assert bar.state["class_name"] == "Year 8"
    answer(rec, "e01", R1, True)
    answer(rec, "e02", W2, False)
    answer(rec, "e02", R2, True)
    assert rec.pending == 0
    stored = store.attempts(token, LESSON)
    assert [(a.exercise, a.answer, a.verdict) for a in stored] == [
        ("e01", R1, True), ("e02", W2, False), ("e02", R2, True)]
    assert bar.outbox == []  # a class learner's records do not go to the browser

    # a reload (a new kernel): the browser sends the token, the widgets get the answers back
    rec2, bar2, _ = make(db)
    restored: list[list[tuple[str, str, bool]]] = []
    rec2.on_change(lambda r: restored.append(
        [(a.exercise, a.answer, a.verdict) for a in r.earlier(LESSON)]))
    assert restored == []  # nobody known yet
    bar2.token = token
    assert restored == [[("e01", R1, True), ("e02", W2, False), ("e02", R2, True)]]
    assert [a.attempt_id for a in rec2.earlier(LESSON)] == [a.attempt_id for a in stored]
    assert bar2.state["mode"] == "joined" and bar2.state["name"] == "Ana"
    assert rec2.seed() == rec.seed()  # same learner, same practice count
    seed = rec2.seed()
    rec2.practice(lesson=LESSON, kind="legal", seed=seed, question="which?",
                  answer=practice_answer("crazy-eights", "legal", seed, True), verdict=True,
                  rule_ids=["SR-1"], feedback="ok", rules="crazy-eights")
    assert rec2.seed() != rec.seed()  # the next attempt deals anew
    assert len(store.practice(token)) == 1
    progress = store.progress(token)[LESSON]
    assert (progress.answered, progress.right) == (2, 2)
    assert rec2.progress()[LESSON] == (2, 2, progress.total) and progress.total >= 2
    assert rec2.progress_words()[LESSON] == f"2 of {progress.total} answered, 2 right"


def test_unknown_token_is_dropped_from_the_browser(db: Path, store: Store) -> None:
    rec, bar, sent = make(db)
    bar.token = "x" * 32
    assert rec.learner is None and bar.state["mode"] == "browser"
    assert sent == [{"event": "forgotten"}]


def _newer(db: Path) -> None:
    """Make ``db`` a database of a newer crazylab (a schema version above this one's)."""
    from crazylab.store import schema

    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (schema.VERSION + 1,))
    conn.close()


def test_a_newer_database_keeps_the_learners_token_and_answers(db: Path, store: Store) -> None:
    """Issue 30: a database the kernel cannot use is not "unknown learner": the browser keeps
    its token and the answer waits (before, the browser was told to forget the learner and
    the answer was dropped as refused)."""
    year8 = store.create_class("Year 8")
    token = store.join(year8.code, "Ana").token
    store.db.close()
    _newer(db)
    timer = Timer()
    rec, bar, sent = make(db, timer=timer)
    bar.token = token
    assert {"event": "forgotten"} not in sent and not rec.unknown_token
    said = bar.state["notice"] + bar.state["refused"]  # what the bar shows under it
    assert "unavailable" in said and "newer" in said, said
    rec.requeue([{"kind": "attempt", "token": token, "fields": {
        "lesson": LESSON, "exercise": "e01", "answer": R1, "verdict": True,
        "rule_ids": ["SR-1"], "feedback": "right", "attempt_id": "a" * 32}}])
    rec.flush()
    assert rec.pending == 1 and rec.unsaved()[0]["token"] == token  # kept, not refused
    assert timer.calls  # and tried again later


def test_a_mistyped_database_path_is_not_made_by_a_learners_kernel(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "clas.db"  # the teacher's is class.db
    monkeypatch.setenv("CRAZYLAB_DB", str(missing))
    timer = Timer()
    rec = Recorder(schedule=timer, environ={"CRAZYLAB_DB": str(missing)})
    bar = ClassBar(LESSON, rec=rec)
    sent: list[dict[str, Any]] = []
    bar.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    bar.token = "x" * 32
    assert not missing.exists() and not list(tmp_path.iterdir())
    said = bar.state["notice"] + bar.state["refused"]
    assert {"event": "forgotten"} not in sent and "no class database" in said, said
    assert timer.calls  # it looks again: the teacher may make it meanwhile


def test_locked_database_keeps_answers_then_stores_each_once(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    timer = Timer()
    rec, bar, _ = make(db, timer=timer, busy=0.2)
    assert bar.join(year8.code, "Ben")
    lock = sqlite3.connect(db, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")  # another writer holds the database
    try:
        answer(rec, "e01", R1, True)
        answer(rec, "e02", W2, False)
        assert rec.pending == 2
        assert bar.state["notice"] == "2 answers not yet saved — retrying"
        assert [a.answer for a in rec.earlier(LESSON)] == [R1, W2]  # shown meanwhile
        assert len(timer.calls) == 1 and timer.calls[0][0] == 1.0
        timer.fire()  # still locked: waits longer
        assert rec.pending == 2 and timer.calls[0][0] == 2.0
        timer.fire()
        assert timer.calls[0][0] == 4.0
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    timer.fire()
    assert rec.pending == 0 and bar.state["notice"] == ""
    ids = [a.attempt_id for a in rec.earlier(LESSON)]
    stored = store.attempts(rec.token or "", LESSON)
    assert sorted(a.attempt_id for a in stored) == sorted(ids) and len(stored) == 2
    # a save sent again (its answer was lost on the way back) is not stored twice
    assert store.record_attempt(rec.token or "", lesson=LESSON, exercise="e01", answer=R1,
                                attempt_id=ids[0]) is False
    assert len(store.attempts(rec.token or "")) == 2


def test_gone_database_retried_on_the_ioloop(tmp_path: Path) -> None:
    """No timer given: the kernel's IOLoop retries (1 s), and the next record retries too."""
    folder = tmp_path / "gone"
    folder.mkdir()
    db = folder / "class.db"
    store = open_store(str(db))
    year8 = store.create_class("Year 8")
    rec = Recorder(open_store=lambda: open_store(str(db), busy_timeout=0.2),
                   environ={"CRAZYLAB_DB": str(db)})
    rec.join(year8.code, "Cleo")
    lock = sqlite3.connect(db, isolation_level=None, check_same_thread=False)

    async def lesson() -> None:
        lock.execute("BEGIN EXCLUSIVE")
        answer(rec, "e03", R3, True)
        assert rec.pending == 1
        lock.execute("ROLLBACK")
        await asyncio.sleep(1.6)
        assert rec.pending == 0

    # in a thread of its own: an event loop left running in this one (the browser tests'
    # Playwright) would make asyncio.run refuse
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, lesson()).result()
    lock.close()
    assert [a.answer for a in store.attempts(rec.token or "")] == [R3]

    # no loop runs (a script): the next record takes the waiting one along
    lock = sqlite3.connect(db, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    answer(rec, "e04", W4, False)
    lock.execute("ROLLBACK")
    lock.close()
    assert rec.pending == 1
    answer(rec, "e05", R5, True)
    assert rec.pending == 0
    assert [a.answer for a in store.attempts(rec.token or "")] == [R3, W4, R5]


def test_refused_record_is_one_line_and_stores_nothing(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    rec, bar, _ = make(db)
    bar.join(year8.code, "Dee")
    rec.attempt(lesson=LESSON, exercise="e999", answer=R1, verdict=True,
                rule_ids=["SR-1"], feedback="")
    assert rec.pending == 0 and rec.earlier(LESSON) == []
    assert "e999" in bar.state["refused"] and "\n" not in bar.state["refused"]
    assert "Traceback" not in bar.state["refused"]
    rec.attempt(lesson=LESSON, exercise="e01", answer="x" * 501, verdict=False,
                rule_ids=[], feedback="")
    assert "500" in bar.state["refused"]
    assert store.attempts(rec.token or "") == []
    answer(rec, "e01", R1, True)  # the next good answer clears the line
    assert bar.state["refused"] == "" and len(store.attempts(rec.token or "")) == 1


def test_join_errors_are_one_line(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    rec, bar, sent = make(db)
    assert not bar.join("NOSUCHCLASS23", "Eve")
    assert "unknown class code" in bar.state["error"] and rec.learner is None
    assert not bar.join(year8.code, "\x00bad")
    assert "name" in bar.state["error"] and "\n" not in bar.state["error"]
    assert not bar.join(year8.code, "   ")
    assert sent == []
    bar._on_msg(bar, {"do": "join", "code": year8.code, "name": "Eve"}, None)
    assert bar.state["mode"] == "joined" and bar.state["error"] == ""


def test_not_you_and_forget_me(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    rec, bar, sent = make(db)
    bar.join(year8.code, "Fin")
    token = rec.token or ""
    answer(rec, "e01", R1, True)
    bar._on_msg(bar, {"do": "not_you"}, None)
    assert rec.learner is None and bar.state["mode"] == "browser"
    assert rec.earlier(LESSON) == []  # the next learner does not see Fin's answers
    assert store.learner(token).name == "Fin"  # kept for Fin
    bar.token = token  # Fin comes back
    assert bar.state["mode"] == "joined" and len(rec.earlier(LESSON)) == 1
    bar._on_msg(bar, {"do": "forget"}, None)
    assert sent[-1] == {"event": "forgotten", "all": True}
    assert bar.state["mode"] == "browser"
    with pytest.raises(ClassError, match="unknown learner token"):
        store.learner(token)
    assert store.class_report(year8.code, year8.teacher_key).attempts == []


def test_browser_mode_round_trip(tmp_path: Path) -> None:
    """No database: records go to the browser (the outbox trait) and come back from it."""
    rec = Recorder(environ={})
    bar = ClassBar(LESSON, rec=rec)
    assert bar.state["mode"] == "browser" and not bar.state["can_join"]
    bar.browser = {"id": "b" * 32, "name": "", "progress": {}}
    seed0 = rec.seed()
    answer(rec, "e01", R1, True)
    answer(rec, "e02", W2, False)
    rec.practice(lesson=LESSON, kind="score", seed=seed0, question="what does it score?",
                 answer="50", verdict=False, rule_ids=["SR-1"], feedback="58")
    assert [r["type"] for r in bar.outbox] == ["attempt", "attempt", "practice"]
    assert not bar.join("ANYCODE", "Gus") and rec.learner is None

    # what classbar.js keeps in localStorage: the progress file, by attempt_id
    file = {"format": "crazylab-progress", "version": 1,
            "learner": {"id": "b" * 32, "name": ""},
            "attempts": [{k: v for k, v in r.items() if k != "type"}
                         for r in bar.outbox if r["type"] == "attempt"],
            "practice": [{k: v for k, v in r.items() if k != "type"}
                         for r in bar.outbox if r["type"] == "practice"]}
    rec2 = Recorder(environ={})
    bar2 = ClassBar(LESSON, rec=rec2)
    seen: list[int] = []
    rec2.on_change(lambda r: seen.append(len(r.earlier(LESSON))))
    bar2.browser = {"id": "b" * 32, "name": "", "progress": file}
    assert seen == [2]
    assert [(a.exercise, a.answer, a.verdict) for a in rec2.earlier(LESSON)] == [
        ("e01", R1, True), ("e02", W2, False)]
    assert [p.answer for p in rec2.earlier_practice(LESSON)] == ["50"]
    assert rec2.seed() == rec.seed() != seed0
    answered, right, total = rec2.progress()[LESSON]
    assert (answered, right) == (2, 1) and total >= 2
    assert bar2.outbox == []  # the browser has them: only new records travel
    other = Recorder(environ={})
    other.use_browser("c" * 32, None)
    assert other.seed() != seed0
    # what a browser sends is not trusted: junk is left out, no traceback
    junk = Recorder(environ={})
    jbar = ClassBar(LESSON, rec=junk)
    jbar.browser = {"id": 5, "progress": {"attempts": ["junk", {"verdict": "yes"}],
                                          "practice": [{"seed": "not a number"}]},
                    "unsaved": "x"}
    jbar.token = "not a token"
    assert jbar.state["mode"] == "browser" and junk.pending == 0
    assert junk.earlier(None) == [] and junk.earlier_practice(None) == []
    download = rec2.progress_file()
    assert download["format"] == "crazylab-progress" and len(download["attempts"]) == 2
    assert rec2.pending == 0


def test_hub_user_is_the_learner(db: Path, store: Store) -> None:
    year8 = store.create_class("Year 8")
    rec, bar, sent = make(db, env={"JUPYTERHUB_USER": "hana"})
    assert bar.state["mode"] == "hub" and bar.state["name"] == "hana"
    bar.token = "y" * 32  # a browser token is not used behind the hub
    assert rec.learner.name == "hana"
    assert bar.join(year8.code, "")
    assert bar.state["class_name"] == "Year 8"
    assert sent == []  # no token for the browser to keep behind the hub
    answer(rec, "e01", R1, True)
    rec2, bar2, _ = make(db, env={"JUPYTERHUB_USER": "hana"})
    assert rec2.token == rec.token and len(rec2.earlier(LESSON)) == 1
    # a hub with no class database: the answers stay in the browser, and the bar says so
    alone = Recorder(environ={"JUPYTERHUB_USER": "hana"})
    assert ClassBar(LESSON, rec=alone).state["mode"] == "browser"


def test_importing_the_recorder_needs_no_sqlalchemy() -> None:
    code = ("import sys; import crazylab.classroom.recorder, crazylab.widgets.classbar; "
            "from crazylab.classroom.recorder import recorder; r = recorder(); "
            "r.attempt(lesson='l', exercise='e01', answer='a', verdict=True, rule_ids=[], "
            "feedback=''); assert len(r.outbox) == 1; "
            "assert 'sqlalchemy' not in sys.modules, 'sqlalchemy imported'")
    env = {"PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=60)


def test_database_down_when_the_page_opens(db: Path, store: Store) -> None:
    """The browser's token arrives while the database is unreachable: the answers made
    meanwhile wait under that token and join the earlier ones when it is back."""
    year8 = store.create_class("Year 8")
    first, bar, _ = make(db)
    bar.join(year8.code, "Gia")
    answer(first, "e01", R1, True)
    down = [True]

    def flaky() -> Store:
        if down[0]:
            raise StoreUnavailable("the class database is unavailable (gone); try again")
        return open_store(str(db))

    timer = Timer()
    rec = Recorder(open_store=flaky, schedule=timer, environ={"CRAZYLAB_DB": str(db)})
    bar2 = ClassBar(LESSON, rec=rec)
    seen: list[list[str]] = []
    rec.on_change(lambda r: seen.append([a.answer for a in r.earlier(LESSON)]))
    bar2.token = first.token or ""
    assert bar2.state["mode"] == "waiting" and rec.learner is None
    assert "unavailable" in bar2.state["refused"]
    answer(rec, "e02", W2, False)
    assert rec.pending == 1 and bar2.state["notice"] == "1 answer not yet saved — retrying"
    assert bar2.outbox == []  # not the browser's: it is Gia's, for the class
    timer.fire()
    assert rec.pending == 1  # still down
    down[0] = False
    timer.fire()
    assert rec.pending == 0 and bar2.state["mode"] == "joined"
    assert seen[-1] == [R1, W2]
    assert [a.answer for a in store.attempts(first.token or "")] == [R1, W2]


def test_a_kernel_restart_while_the_database_is_locked_loses_nothing(db: Path,
                                                                     store: Store) -> None:
    """The waiting saves have a copy in the browser (``unsaved``); the next kernel takes them
    back from it and stores each once, even if the old kernel stored some meanwhile."""
    year8 = store.create_class("Year 8")
    rec, bar, _ = make(db, timer=Timer(), busy=0.2)
    bar.join(year8.code, "Hal")
    lock = sqlite3.connect(db, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        answer(rec, "e01", R1, True)
        answer(rec, "e02", W2, False)
        rec.hand(rules="crazy-eights", seats=["You", "Bot 1"], moves=["8S"],
                 result={"winner": 0})
        assert rec.pending == 3 and len(bar.unsaved) == 3
        browser_copy = json.loads(json.dumps(bar.unsaved))  # what localStorage holds
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    # the old kernel is gone (a server restart); the first of its saves was made after all
    token = rec.token or ""
    first = browser_copy[0]["fields"]
    assert store.record_attempt(token, **first) is True
    timer = Timer()
    rec2, bar2, sent2 = make(db, timer=timer)
    bar2.browser = {"id": "b" * 32, "progress": {},
                    "unsaved": [*browser_copy, {"kind": "attempt", "token": token,
                                                "fields": {"attempt_id": "x"}},
                                "junk", {"kind": "drop_tables"}]}
    assert sent2 == [{"event": "taken"}]  # only now may the browser let its copy go
    bar2.token = token
    assert rec2.pending == 0 and bar2.unsaved == []
    assert sorted(a.answer for a in store.attempts(token)) == [R1, W2]
    assert [a.answer for a in rec2.earlier(LESSON)] == [R1, W2]
    report = store.class_report(year8.code, year8.teacher_key)
    assert len(report.hands) == 1
    assert rec2.requeue(browser_copy) == 3 and rec2.pending == 0  # again: stored once
    assert len(store.attempts(token)) == 2

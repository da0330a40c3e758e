"""The teacher assigns (issue 31 item 5): lessons with a due date for the class; each learner
sees theirs with how far they got; the dashboard shows who finished and their first-try
accuracy; a wrong key, an unknown lesson or a bad date change nothing. Through the store, the
dashboard, the learner's page, and the class API with its client."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date

import pytest
from answers import right_answer, wrong_answer
from tornado import httpserver, web
from tornado.netutil import bind_sockets

from crazylab.classroom import ClassError, open_store
from crazylab.classroom.client import ClassClient
from crazylab.classroom.recorder import Recorder
from crazylab.web import class_api
from crazylab.widgets.assigned import assigned_html
from crazylab.widgets.dashboard import TeacherDashboard

L1 = "01_crazy_eights_basics"
L2 = "02_classic_vs_quick"


def test_a_teacher_assigns_and_sees_who_finished(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'class.db'}")
    made = store.create_class("10A")
    other = store.create_class("10B")
    ana, ben = store.join(made.code, "Ana"), store.join(made.code, "Ben")
    for bad, words in (([], "at least one lesson"), (["99_nope"], "unknown lesson")):
        with pytest.raises(ClassError, match=words):
            store.assign(made.code, made.teacher_key, bad, "2026-12-20")
    with pytest.raises(ClassError, match="YYYY-MM-DD"):
        store.assign(made.code, made.teacher_key, [L1], "next friday")
    with pytest.raises(ClassError, match="wrong teacher key"):
        store.assign(made.code, other.teacher_key, [L1], "2026-12-20")
    assert store.assignments(made.code, made.teacher_key) == []

    dash = TeacherDashboard(store, made.code, made.teacher_key)
    assert "Nothing assigned yet" in dash.assignments_html.value
    given = dash.assign([L1], "2026-12-20")
    assert given.lessons == (L1,) and given.due == "2026-12-20" and given.title
    exercises = list(store.catalog.lessons[L1].exercises)
    for ex in exercises:  # Ana: every one right at once; Ben: one wrong, then right
        store.record_attempt(ana.token, lesson=L1, exercise=ex, answer=right_answer(L1, ex),
                             attempt_id=uuid.uuid4().hex)
    store.record_attempt(ben.token, lesson=L1, exercise=exercises[0],
                         answer=wrong_answer(L1, exercises[0]), attempt_id=uuid.uuid4().hex)
    store.record_attempt(ben.token, lesson=L1, exercise=exercises[0],
                         answer=right_answer(L1, exercises[0]), attempt_id=uuid.uuid4().hex)
    dash.refresh()
    table = dash.assignments.set_index("learner")
    total = len(exercises)
    assert table.loc["Ana", "right"] == f"{total} / {total}" and table.loc["Ana", "done"]
    assert table.loc["Ana", "first-try %"] == 100.0
    assert table.loc["Ben", "right"] == f"1 / {total}" and not table.loc["Ben", "done"]
    assert table.loc["Ben", "first-try %"] == 0.0

    # each learner's start page: their class's assignments and how far they got
    for who, done in ((ana, True), (ben, False)):
        rec = Recorder(open_store=lambda: store, schedule=lambda _d, _f: None, environ={})
        assert rec.identify(who.token)
        [mine] = rec.assignments()
        assert mine.assignment == given and mine.done is done
        shown = assigned_html(rec.assignments(), today=date(2026, 12, 21))
        assert given.title in shown and ("done" in shown) is done
        assert ("past due" in shown) is (not done)
    loner = store.join(other.code, "Cy")
    assert store.my_assignments(loner.token) == []  # another class's: none
    store.close()


def test_assignments_through_the_class_api_and_its_client(tmp_path):
    db = tmp_path / "class.db"
    store = open_store(f"sqlite:///{db}")
    made = store.create_class("10C")
    ana = store.join(made.code, "Ana")
    store.close()

    async def main() -> None:
        routes = class_api.handlers("/", factory=lambda: open_store(str(db)))
        server = httpserver.HTTPServer(web.Application(routes))
        sockets = bind_sockets(0, "127.0.0.1")
        server.add_sockets(sockets)
        client = ClassClient(f"http://127.0.0.1:{sockets[0].getsockname()[1]}/")
        loop = asyncio.get_running_loop()
        try:
            given = await loop.run_in_executor(None, lambda: client.assign(
                made.code, made.teacher_key, [L1, L2], "2026-12-24", "Before the holidays"))
            assert given.title == "Before the holidays" and given.lessons == (L1, L2)
            listed = await loop.run_in_executor(
                None, lambda: client.assignments(made.code, made.teacher_key))
            assert listed == [given]
            [mine] = await loop.run_in_executor(None, lambda: client.my_assignments(ana.token))
            assert mine.assignment == given and mine.right == 0 and mine.total > 0
            with pytest.raises(ClassError, match="wrong teacher key"):
                await loop.run_in_executor(None, lambda: client.assign(
                    made.code, "not the key", [L1], "2026-12-24"))
        finally:
            server.stop()

    asyncio.run(main())

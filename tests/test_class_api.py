"""The class API (crazylab.web.class_api) on a real tornado server on 127.0.0.1 with a
SQLite file, sent forged requests: another learner's token, a made-up token, another class's
code, the teacher's route without or with a wrong key. Each is refused with a one-line JSON
error and leaks nothing; a learner's and a teacher's own requests work. Then the same routes
mounted in the crazylab Voilà server."""

from __future__ import annotations

import asyncio
import csv
import http.client
import io
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from answers import right_answer, wrong_answer
from browser_support import start_voila, stop_voila
from tornado import httpserver, web
from tornado.netutil import bind_sockets

from crazylab.classroom import Store, open_store
from crazylab.web import class_api

pytestmark = pytest.mark.oldest

L1, L2 = "01_crazy_eights_basics", "02_classic_vs_quick"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


@dataclass
class Api:
    port: int
    store: Store

    def send(self, method: str, path: str, headers: dict[str, str] | None = None,
             body: bytes | None = None) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()},
                         resp.read())
        finally:
            conn.close()


@contextmanager
def serving(store: Store | None, routes: list | None = None) -> Iterator[Api]:
    """The API's routes for ``store`` in a tornado app on a free port of 127.0.0.1, in its own
    thread (xsrf_cookies on, as in Jupyter's server)."""
    ready = threading.Event()
    state: dict[str, Any] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = web.Application(routes or class_api.handlers("/", store), xsrf_cookies=True)
        server = httpserver.HTTPServer(app)
        sockets = bind_sockets(0, "127.0.0.1")
        server.add_sockets(sockets)
        state["port"] = sockets[0].getsockname()[1]
        state["loop"] = loop
        ready.set()
        loop.run_forever()
        server.stop()
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        yield Api(state["port"], store)  # type: ignore[arg-type]
    finally:
        state["loop"].call_soon_threadsafe(state["loop"].stop)
        thread.join(10)


@pytest.fixture
def api(tmp_path) -> Iterator[Api]:
    store = open_store(str(tmp_path / "class.db"))
    with serving(store) as running:
        yield running
    store.close()


def _class_with_two_learners(store: Store) -> dict[str, Any]:
    mine = store.create_class("Year 8")
    theirs = store.create_class("Year 9")
    ana = store.join(mine.code, "Ana Secretname")
    ben = store.join(mine.code, "Ben Othername")
    zed = store.join(theirs.code, "Zed Elsewhere")
    for n, who in enumerate((ana, ben, zed), 1):  # each their own exercise and item
        store.record_attempt(who.token, lesson=L1, exercise=f"e0{n}",
                             answer=right_answer(L1, f"e0{n}"), attempt_id=f"a-{n}")
        store.record_practice(who.token, lesson=L2, rules="crazy-eights-classic", kind="score",
                              seed=n, answer="1000", attempt_id=f"p-{n}")
    return {"mine": mine, "theirs": theirs, "ana": ana, "ben": ben, "zed": zed}


def _refused(reply: Reply, status: int, *secrets_: str) -> None:
    assert reply.status == status, reply.body
    assert reply.headers["content-type"].startswith("application/json")
    error = reply.json["error"]
    assert isinstance(error, str) and error and "\n" not in error
    assert list(reply.json) == ["error"]
    for secret in (*secrets_, "Traceback", "ANSWER", "Secretname", "Othername", "Elsewhere"):
        assert secret not in reply.text


def test_a_learner_reads_only_their_own_records(api: Api) -> None:
    c = _class_with_two_learners(api.store)
    ana = c["ana"]
    me = api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: ana.token})
    assert me.status == 200 and me.headers["cache-control"] == "no-store"
    assert me.json["learner"] == {"name": "Ana Secretname", "class_code": c["mine"].code,
                                  "class_name": "Year 8"}
    assert me.json["progress"][L1] == {"title": api.store.catalog.title(L1), "answered": 1,
                                       "right": 1, "total": api.store.catalog.exercise_count(L1)}
    assert "BEN" not in me.text and "Ben" not in me.text and "ZED" not in me.text
    mine = api.send("GET", f"/crazylab/api/me/attempts?lesson={L1}",
                    {class_api.TOKEN_HEADER: ana.token})
    assert mine.status == 200
    assert [a["exercise"] for a in mine.json["attempts"]] == ["e01"]
    assert mine.json["attempts"][0]["rule_ids"] == list(
        api.store.catalog.lessons[L1].exercises["e01"]) and mine.json["practice"] == []
    every = api.send("GET", "/crazylab/api/me/attempts", {class_api.TOKEN_HEADER: ana.token})
    assert [p["seed"] for p in every.json["practice"]] == [1]
    assert "BEN" not in every.text and "ZED" not in every.text


def test_forged_learner_requests_are_refused(api: Api) -> None:
    c = _class_with_two_learners(api.store)
    made_up = "x" * 32
    for path in ("/crazylab/api/me", f"/crazylab/api/me/attempts?lesson={L1}",
                 "/crazylab/api/me/attempts"):
        _refused(api.send("GET", path), 401)
        _refused(api.send("GET", path, {class_api.TOKEN_HEADER: made_up}), 403)
        _refused(api.send("GET", path, {class_api.TOKEN_HEADER: "' OR 1=1 --"}), 403)
        # a teacher key is not a learner token
        _refused(api.send("GET", path, {class_api.TOKEN_HEADER: c["mine"].teacher_key}), 403)
        # the token in the URL or a cookie is not read
        _refused(api.send("GET", path + ("&" if "?" in path else "?") + f"token={c['ben'].token}",
                          {"Cookie": f"{class_api.TOKEN_HEADER}={c['ben'].token}"}), 401)
    _refused(api.send("DELETE", "/crazylab/api/me", {class_api.TOKEN_HEADER: made_up}), 403)
    _refused(api.send("GET", "/crazylab/api/me/attempts?lesson=../../etc",
                      {class_api.TOKEN_HEADER: c["ana"].token}), 400)
    _refused(api.send("GET", "/crazylab/api/learners/1", {class_api.TOKEN_HEADER: made_up}), 404)
    _refused(api.send("POST", "/crazylab/api/me", {class_api.TOKEN_HEADER: c["ana"].token},
                      b"{}"), 405)
    _refused(api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: c["ana"].token,
                                                  "Content-Length": str(65 * 1024)},
                      b"x" * (65 * 1024)), 413)
    assert len(api.store.attempts(c["ben"].token)) == 1  # nothing changed


def test_forget_me_deletes_only_the_sender(api: Api) -> None:
    c = _class_with_two_learners(api.store)
    gone = api.send("DELETE", "/crazylab/api/me", {class_api.TOKEN_HEADER: c["ana"].token})
    assert gone.status == 200 and gone.json == {"forgotten": True}
    _refused(api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: c["ana"].token}), 403)
    assert [a.exercise for a in api.store.attempts(c["ben"].token)] == ["e02"]
    report = api.store.class_report(c["mine"].code, c["mine"].teacher_key)
    assert [r["name"] for r in report.learners] == ["Ben Othername"]


def test_the_teacher_export_needs_the_key_of_that_class(api: Api) -> None:
    c = _class_with_two_learners(api.store)
    mine, theirs = c["mine"], c["theirs"]
    url = f"/crazylab/api/class/{mine.code}/export.csv?what=attempts"
    _refused(api.send("GET", url), 401, mine.teacher_key)
    wrong = _refused_body = api.send("GET", url, {class_api.KEY_HEADER: "guess"})
    _refused(wrong, 403, mine.teacher_key)
    _refused(api.send("GET", url, {class_api.KEY_HEADER: theirs.teacher_key}), 403)
    _refused(api.send("GET", url, {class_api.TOKEN_HEADER: c["ana"].token}), 401)
    _refused(api.send("GET", url, {class_api.KEY_HEADER: c["ana"].token}), 403)
    unknown = api.send("GET", "/crazylab/api/class/AAAAAAAAAAAAA/export.csv",
                       {class_api.KEY_HEADER: "guess"})
    _refused(unknown, 403)
    assert unknown.json == _refused_body.json  # an unknown code looks like a wrong key
    _refused(api.send("GET", f"/crazylab/api/class/{theirs.code}/export.csv",
                      {class_api.KEY_HEADER: mine.teacher_key}), 403)
    _refused(api.send("GET", url.replace("attempts", "keys"),
                      {class_api.KEY_HEADER: mine.teacher_key}), 400)

    ok = api.send("GET", url, {class_api.KEY_HEADER: mine.teacher_key})
    assert ok.status == 200 and ok.headers["content-type"].startswith("text/csv")
    assert "attachment" in ok.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(ok.text)))
    assert sorted((r["name"], r["exercise"]) for r in rows) == [
        ("Ana Secretname", "e01"), ("Ben Othername", "e02")]
    assert rows == [{k: str(v) for k, v in r.items()}
                    for r in api.store.export_rows(mine.code, mine.teacher_key, "attempts")]
    assert "ZED" not in ok.text and mine.teacher_key not in ok.text
    learners = api.send("GET", f"/crazylab/api/class/{mine.code.lower()}/export.csv"
                               "?what=learners", {class_api.KEY_HEADER: mine.teacher_key})
    assert [r["name"] for r in csv.DictReader(io.StringIO(learners.text))] == [
        "Ana Secretname", "Ben Othername"]


def test_a_locked_database_is_503_with_retry_after(tmp_path) -> None:
    import sqlite3

    slow = open_store(str(tmp_path / "locked.db"), busy_timeout=0.2)
    c = slow.create_class("Locked")
    ana = slow.join(c.code, "Ana")
    holder = sqlite3.connect(tmp_path / "locked.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with serving(slow) as api:
            reply = api.send("DELETE", "/crazylab/api/me", {class_api.TOKEN_HEADER: ana.token})
            _refused(reply, 503)
            assert reply.headers["retry-after"] == str(class_api.RETRY_AFTER)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert slow.learner(ana.token).name == "Ana"  # nothing was deleted
    slow.close()


def test_a_database_that_cannot_open_is_503_and_names_no_path(tmp_path) -> None:
    (tmp_path / "a-file").write_text("")
    bad = str(tmp_path / "a-file" / "class.db")  # its folder cannot be made
    routes = class_api.handlers("/", factory=lambda: open_store(bad))
    with serving(None, routes) as api:
        _refused(api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: "x" * 32}), 503,
                 str(tmp_path))


def test_the_crazylab_voila_server_mounts_the_routes(tmp_path, monkeypatch) -> None:
    """``python -m crazylab.web.serve`` answers the API from ``$CRAZYLAB_DB``."""
    db = tmp_path / "served.db"
    store = open_store(str(db))
    c = _class_with_two_learners(store)
    store.close()
    (tmp_path / "root").mkdir()
    monkeypatch.setenv("CRAZYLAB_DB", str(db))
    server = start_voila(tmp_path / "root", show_tracebacks=False, log_dir=tmp_path)
    try:
        api = Api(server.port, store)
        me = api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: c["ben"].token})
        assert me.status == 200 and me.json["learner"]["name"] == "Ben Othername"
        _refused(api.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: "y" * 32}), 403)
        _refused(api.send("GET", f"/crazylab/api/class/{c['mine'].code}/export.csv",
                          {class_api.KEY_HEADER: c["theirs"].teacher_key}), 403)
        ok = api.send("GET", f"/crazylab/api/class/{c['mine'].code}/export.csv",
                      {class_api.KEY_HEADER: c["mine"].teacher_key})
        assert ok.status == 200
        assert sorted(r["exercise"] for r in csv.DictReader(io.StringIO(ok.text))) == [
            "e01", "e02"]
    finally:
        stop_voila(server)


def test_a_kernel_records_through_the_class_service(api: Api) -> None:
    """The client a learner's kernel uses when it holds no database (``$CRAZYLAB_CLASS_URL``):
    the same calls as the store, judged by the service; a verdict is not even a field."""
    from crazylab.classroom.client import ClassClient
    from crazylab.classroom.recorder import Recorder
    from crazylab.classroom.records import ClassError, UnknownLearner

    c = api.store.create_class("Year 8")
    url = f"http://127.0.0.1:{api.port}/"
    client = ClassClient(url)
    ana = client.join(c.code, "Ana")
    assert (ana.name, ana.class_code) == ("Ana", c.code) and len(ana.token) >= 16
    rec = Recorder(environ={"CRAZYLAB_CLASS_URL": url}, schedule=lambda _d, _f: None)
    assert rec.can_use_store() and rec.identify(ana.token)
    rec.attempt(lesson=L1, exercise="e01", answer=right_answer(L1, "e01"), verdict=True,
                rule_ids=[], feedback="")
    rec.attempt(lesson=L1, exercise="e02", answer=wrong_answer(L1, "e02"), verdict=True,
                rule_ids=[], feedback="Right!")  # a wrong answer the page calls right
    rec.reveal(lesson=L1, exercise="e03")
    rec.attempt(lesson=L1, exercise="e03", answer=right_answer(L1, "e03"), verdict=True,
                rule_ids=[], feedback="")
    assert rec.pending == 0 and rec.notice == ""
    stored = api.store.attempts(ana.token, L1)
    assert [(a.exercise, a.verdict, a.after_solution) for a in stored] == [
        ("e01", True, False), ("e02", False, False), ("e03", True, True)]
    assert client.progress(ana.token)[L1].right == 1
    assert [a.exercise for a in client.attempts(ana.token, L1)] == ["e01", "e02", "e03"]
    with pytest.raises(UnknownLearner):
        client.learner("z" * 32)
    with pytest.raises(ClassError, match="crazylab class create"):
        client.create_class("Mine")  # a visitor makes no class on a server that forbids it
    with pytest.raises(ClassError, match="wrong teacher key"):
        client.class_report(c.code, "k" * 32)
    report = client.class_report(c.code, c.teacher_key)
    assert [r["exercise"] for r in report.attempts] == ["e01", "e02", "e03"]
    refused = api.send("POST", "/crazylab/api/me/records",
                       {class_api.TOKEN_HEADER: ana.token, "Content-Type": "application/json"},
                       json.dumps({"kind": "attempt", "fields": {
                           "attempt_id": "f-1", "lesson": L1, "exercise": "e04",
                           "answer": "x", "verdict": True}}).encode())
    _refused(refused, 400)
    assert len(api.store.attempts(ana.token)) == 3


def test_an_unreachable_service_keeps_the_answers(tmp_path) -> None:
    from crazylab.classroom.recorder import Recorder

    calls: list[float] = []
    rec = Recorder(environ={"CRAZYLAB_CLASS_URL": "http://127.0.0.1:9/"},
                   schedule=lambda delay, _f: calls.append(delay))
    assert not rec.identify("t" * 32) and rec.mode == "store"
    assert "unavailable" in rec.notice and not rec.unknown_token  # the token is kept
    assert calls == [1.0]


class _FakeHub:
    """A hub that knows two tokens: Ana's server (a learner) and the teacher's."""

    access_scopes = {"access:services!service=crazylab"}

    def __init__(self) -> None:
        from crazylab.web.hub import HubUser

        self.users = {"ana-token": HubUser("ana"), "teacher-token": HubUser("teach", True)}

    def token_of(self, handler: Any) -> str:
        return handler.request.headers.get("Authorization", "").removeprefix("token ")

    async def who(self, token: str) -> Any:
        return self.users.get(token)


def test_on_a_hub_the_hub_says_who_and_who_teaches(tmp_path) -> None:
    from crazylab.classroom.client import HUB_LEARNER, ClassClient
    from crazylab.classroom.records import ClassError

    store = open_store(str(tmp_path / "class.db"))
    with serving(store, class_api.handlers("/", store, hub=_FakeHub())) as running:
        url = f"http://127.0.0.1:{running.port}/"
        teacher = ClassClient(url, hub_token="teacher-token")
        made = teacher.create_class("Year 8")
        ana = ClassClient(url, hub_token="ana-token")
        with pytest.raises(ClassError, match="only a teacher"):
            ana.create_class("Mine")
        me = ana.hub_learner(code=made.code)
        assert (me.token, me.name, me.class_code) == (HUB_LEARNER, "ana", made.code)
        assert ana.record_attempt(me.token, attempt_id="a-1", lesson=L1, exercise="e01",
                                  answer=right_answer(L1, "e01"))
        with pytest.raises(ClassError, match="does not know this token"):
            ClassClient(url, hub_token="forged").learner(HUB_LEARNER)
        # a learner token in a header is not an identity on a hub
        _refused(running.send("GET", "/crazylab/api/me", {class_api.TOKEN_HEADER: "a" * 32}),
                 401)
        joined = running.send("POST", "/crazylab/api/join",
                              {"Authorization": "token ana-token",
                               "Content-Type": "application/json"},
                              json.dumps({"code": made.code}).encode())
        assert joined.status == 200 and "token" not in joined.json  # no token leaves
        report = teacher.class_report(made.code, made.teacher_key)
        assert [(r["name"], r["verdict"]) for r in report.attempts] == [("ana", True)]
    store.close()

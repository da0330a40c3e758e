"""The trusted class on a real JupyterHub (issue 30): the class service is a hub service that
alone holds the database; learners' kernels record through it and are who the hub says.

Two learners log in (their servers spawned by the hub), answer lesson exercises in their own
kernels; code run in a learner's kernel finds no database URL, no other learner's token or
record, and cannot make a verdict, a class or another learner's attempt; the hub admin makes
a class and sees both learners on the dashboard."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from answers import right_answer, wrong_answer
from hub_support import Hub, proxy_command, start_hub

pytestmark = pytest.mark.hub

L1 = "01_crazy_eights_basics"

if proxy_command() is None and not os.environ.get("CI"):
    pytest.skip("configurable-http-proxy is missing: run `make hub-deps`",
                allow_module_level=True)


@pytest.fixture(scope="module")
def hub(tmp_path_factory) -> Any:
    running = start_hub(tmp_path_factory.mktemp("hub"))
    try:
        for user in ("teacher", "ana", "ben"):
            running.start_server(user)
        yield running
    finally:
        running.stop()


CLIENT = """
import json, os
from crazylab.classroom.client import ClassClient
from crazylab.classroom.records import ClassError
client = ClassClient(os.environ["CRAZYLAB_CLASS_URL"],
                     hub_token=os.environ["JUPYTERHUB_API_TOKEN"])
"""


def _json(hub: Hub, user: str, code: str) -> Any:
    out = hub.run(user, CLIENT + code).strip().splitlines()
    return json.loads(out[-1])


def _made_class(hub: Hub) -> dict[str, str]:
    return _json(hub, "teacher", """
made = client.create_class("Year 8")
print(json.dumps({"code": made.code, "key": made.teacher_key}))
""")


def _answer(hub: Hub, user: str, code: str, answers: list[tuple[str, str, bool]]) -> Any:
    """In ``user``'s kernel, as the lesson page does: join the class, answer each exercise
    (the page's verdict given as ``said``), and report what the kernel can see."""
    return _json(hub, user, f"""
from crazylab.classroom.recorder import recorder
rec = recorder()
rec.lesson = {L1!r}
learner = rec.join({code!r}, "")
for exercise, answer, said in {answers!r}:
    rec.attempt(lesson={L1!r}, exercise=exercise, answer=answer, verdict=said,
                rule_ids=[], feedback="Right!" if said else "no")
print(json.dumps({{"pending": rec.pending, "notice": rec.notice, "name": learner.name,
                  "token": learner.token, "class": learner.class_code,
                  "progress": rec.progress()[{L1!r}],
                  "mine": [(a.exercise, a.verdict) for a in client.attempts("x", {L1!r})],
                  "env": dict(os.environ)}}))
""")


def test_a_class_on_a_real_jupyterhub(hub: Hub) -> None:
    made = _made_class(hub)
    # Ana: one right answer, one wrong answer her page (or a forged message) calls right
    ana = _answer(hub, "ana", made["code"], [
        ("e01", right_answer(L1, "e01"), True), ("e02", wrong_answer(L1, "e02"), True)])
    assert ana["pending"] == 0 and ana["notice"] == "", ana
    assert (ana["name"], ana["class"]) == ("ana", made["code"])
    assert ana["mine"] == [["e01", True], ["e02", False]]  # judged by the service
    assert ana["progress"][:2] == [2, 1]
    ben = _answer(hub, "ben", made["code"], [("e01", wrong_answer(L1, "e01"), False)])
    assert ben["mine"] == [["e01", False]]

    # nothing in a learner's process names the database or holds a learner token
    for env in (ana["env"], ben["env"]):
        assert "CRAZYLAB_DB" not in env
        text = json.dumps(env)
        assert "class.db" not in text and "sqlite" not in text and "postgresql" not in text
        assert env["CRAZYLAB_CLASS_URL"] == hub.service_url
    assert ana["token"] == ben["token"] == "hub-learner"  # a placeholder, not a secret
    assert not list((hub.folder / "home").rglob("*.db"))  # no database beside a learner

    # the teacher (a hub admin) sees both learners, with the service's verdicts
    report = _json(hub, "teacher", f"""
from crazylab.widgets.dashboard import TeacherDashboard
dash = TeacherDashboard(client, {made["code"]!r}, {made["key"]!r})
print(json.dumps({{"grid": {{who: [cell.answered, cell.right] for who, cells in dash.grid.items()
                           for lesson, cell in cells.items() if lesson == {L1!r}}},
                  "rows": [(r["name"], r["exercise"], r["verdict"])
                           for r in client.class_report({made["code"]!r},
                                                        {made["key"]!r}).attempts]}}))
""")
    assert report["grid"] == {"ana": [2, 1], "ben": [1, 0]}
    assert sorted(map(tuple, report["rows"])) == [
        ("ana", "e01", True), ("ana", "e02", False), ("ben", "e01", False)]
    assert (hub.folder / "service" / "class.db").is_file()


def test_a_learners_kernel_cannot_forge_or_reach_another_learner(hub: Hub) -> None:
    made = _made_class(hub)
    _answer(hub, "ben", made["code"], [("e03", right_answer(L1, "e03"), True)])
    tried = _json(hub, "ana", f"""
import urllib.request, urllib.error
def ask(method, path, body=None, headers=None):
    req = urllib.request.Request(client.url + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={{"Content-Type": "application/json",
                                          **(headers or {{}})}})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
me = {{"Authorization": "token " + os.environ["JUPYTERHUB_API_TOKEN"]}}
out = {{}}
out["verdict"] = ask("POST", "me/records", {{"kind": "attempt", "fields": {{
    "attempt_id": "forged-1", "lesson": {L1!r}, "exercise": "e05", "answer": "x",
    "verdict": True}}}}, me)
out["no_token"] = ask("GET", "me")
out["made_up_token"] = ask("GET", "me", headers={{"Authorization": "token " + "f" * 32}})
out["learner_header"] = ask("GET", "me", headers={{"X-Crazylab-Token": "a" * 32}})
out["class"] = ask("POST", "classes", {{"name": "Mine"}}, me)
guess = {{"X-Crazylab-Key": "k" * 32}}
out["export"] = ask("GET", "class/{made["code"]}/export.csv", headers=guess)
out["report"] = ask("GET", "class/{made["code"]}/report", headers=guess)
out["mine"] = ask("GET", "me/attempts", headers=me)
try:
    client.create_class("Mine")
    out["create"] = "made"
except ClassError as e:
    out["create"] = str(e)
print(json.dumps(out))
""")
    status = {k: v[0] for k, v in tried.items() if k != "create"}
    assert status == {"verdict": 400, "no_token": 401, "made_up_token": 403,
                      "learner_header": 401, "class": 403, "export": 403, "report": 403,
                      "mine": 200}, tried
    assert "verdict" in json.loads(tried["verdict"][1])["error"]
    assert tried["create"].startswith("only a teacher")
    mine = json.loads(tried["mine"][1])
    assert all(a["exercise"] not in ("e03", "e05") for a in mine["attempts"])  # Ben's: his
    rows = _json(hub, "teacher", f"""
print(json.dumps([(r["name"], r["exercise"]) for r in
                  client.class_report({made["code"]!r}, {made["key"]!r}).attempts]))
""")
    assert ["ben", "e03"] in rows and all(name == "ben" for name, _ in rows)


def test_the_service_alone_holds_the_database(hub: Hub) -> None:
    service_env = Path(f"/proc/{hub.process.pid}/environ")
    if service_env.exists():  # the hub's own environment: no database there either
        assert b"CRAZYLAB_DB" not in service_env.read_bytes()
    config = (hub.folder / "jupyterhub_config.py").read_text()
    spawner_env = config.split("c.Spawner.environment = ", 1)[1].split("\n", 1)[0]
    assert "CRAZYLAB_DB" not in spawner_env and "CRAZYLAB_CLASS_URL" in spawner_env


TABLES_CALL = """
import urllib.request, urllib.error
def tables(path, body=None, headers=None):
    req = urllib.request.Request(os.environ["CRAZYLAB_CLASS_URL"] + "crazylab/tables/api/" + path,
                                 method="GET" if body is None else "POST",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json",
                                          "Authorization": "token "
                                          + os.environ["JUPYTERHUB_API_TOKEN"],
                                          **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")
"""


def test_two_learners_play_one_table_of_their_class(hub: Hub) -> None:
    """Ana opens a table of the class from her kernel (the hub says who she is), Ben joins it
    from his; their browsers (websockets through the hub's proxy, by seat token) play the
    hand to its end, neither sent the other's hand; the class's teacher sees the table, and
    a learner's kernel sees no table without the key."""
    import asyncio

    from tornado import websocket

    made = _made_class(hub)
    ana = _json(hub, "ana", TABLES_CALL + f"""
print(json.dumps(tables("create", {{"rules": "crazy-eights", "seats": 2, "name": "Ana",
                                    "class": {made["code"]!r}}})))
""")
    assert ana[0] == 200, ana
    code = ana[1]["code"]
    ben = _json(hub, "ben", TABLES_CALL + f"""
out = {{"join": tables("join", {{"code": {code!r}, "name": "Ben"}}),
        "overview": tables("tables"),
        "guess": tables("tables", headers={{"X-Crazylab-Key": "k" * 32}})}}
print(json.dumps(out))
""")
    assert ben["join"][0] == 200 and ben["join"][1]["seat"] == 1, ben
    assert ben["overview"][0] == 401 and ben["guess"][0] == 403  # no table without the key
    tokens = [ana[1]["token"], ben["join"][1]["token"]]
    ws = f"ws://127.0.0.1:{hub.port}/services/crazylab/crazylab/tables/ws/{code}"

    async def play() -> list[dict[str, Any]]:
        conns = [await websocket.websocket_connect(ws) for _ in tokens]
        views: list[dict[str, Any]] = [{}, {}]
        first_hands: list[set[str]] = [set(), set()]
        raws: list[list[str]] = [[], []]
        for conn, token in zip(conns, tokens, strict=True):
            await conn.write_message(json.dumps({"hello": {"token": token}}))

        async def seat(k: int) -> None:
            from crazylab.seat.view import apply_step

            version, acted = -1, None
            while True:
                text = await asyncio.wait_for(conns[k].read_message(), 120)
                assert text is not None, "the service closed the socket"
                raws[k].append(text)
                msg = json.loads(text)
                if msg["type"] == "welcome":
                    version = msg["version"]
                    if msg["snapshot"]:
                        views[k] = dict(msg["snapshot"]["view"])
                elif msg["type"] == "steps":
                    for step in msg["steps"]:
                        views[k] = apply_step(views[k], step)
                    version = msg["version"]
                elif msg["type"] == "refused":  # faster than 10 moves a second: as the
                    assert msg["why"].startswith("too many moves"), msg  # page does,
                    await asyncio.sleep(1)  # wait, ask for the present, move again
                    await conns[k].write_message(json.dumps(
                        {"action": "sync", "seq": None, "version": version}))
                    acted = None
                    continue
                v = views[k]
                if v.get("hand") and not first_hands[k]:
                    first_hands[k] = {e["card"] for e in v["hand"]}
                if v.get("over"):
                    return
                if v.get("your_turn") and acted != (version, v.get("seq")):
                    acted = (version, v.get("seq"))
                    if v.get("chooser"):
                        action = {"action": "choose", "index": 0}
                    else:  # a card with one move, a wild (it opens its chooser), a button
                        legal = sorted((e for e in v["hand"] if e["legal"]),
                                       key=lambda e: e["move"] is None)
                        action = ({"action": "move", "move": legal[0]["move"]}
                                  if legal and legal[0]["move"] else
                                  {"action": "card", "card": legal[0]["card"]} if legal
                                  else {"action": "move", "move": v["actions"][0]["move"]})
                    await conns[k].write_message(json.dumps({**action, "version": version}))

        async def start_when_seated() -> None:
            await asyncio.sleep(0.5)
            start = await asyncio.get_running_loop().run_in_executor(None, lambda: hub_post(
                hub, "start", {"token": tokens[0]}))
            assert start == {"ok": True}

        await asyncio.gather(seat(0), seat(1), start_when_seated())
        for conn in conns:
            conn.close()
        # the deal: neither seat was sent a card of the other's first hand before it ended
        for k in (0, 1):
            other = first_hands[1 - k]
            assert other and first_hands[k]
            playing = [r for r in raws[k] if '"over": true' not in r]
            assert not any(re.search(rf'"{re.escape(c)}[":]', r) for r in playing[:2]
                           for c in other), k
        return views

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # after the browser tests Playwright's loop runs here
        views = pool.submit(asyncio.run, play()).result()
    assert all(v["over"] for v in views)
    watched = _json(hub, "teacher", TABLES_CALL + f"""
print(json.dumps(tables("tables", headers={{"X-Crazylab-Key": {made["key"]!r}}})))
""")
    assert watched[0] == 200 and [t["code"] for t in watched[1]["tables"]] == [code]
    assert watched[1]["tables"][0]["names"] == ["ana", "ben"]  # as the hub names them


def hub_post(hub: Hub, path: str, body: Any) -> Any:
    """POST to the tables' API through the hub's proxy, as a learner's browser does."""
    import urllib.request

    request = urllib.request.Request(
        f"{hub.service_url}crazylab/tables/api/{path}", method="POST",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as resp:
        return json.loads(resp.read())


def test_the_tables_pages_are_behind_the_hubs_login(hub: Hub, browser, screenshot) -> None:
    """In Chromium: a visitor who has not logged in to the hub is sent to its login page; Ana
    logs in, comes back to the tables' lobby through the hub's OAuth, sits down under the name
    the hub gives her (the name field shows it, locked; a name she types is not taken) and the
    table is hers. Without the hub's login nobody opens or joins a table."""
    lobby = hub.service_url + "crazylab/tables/"
    stranger = browser.new_context()
    try:
        page = stranger.new_page()
        page.goto(lobby)
        page.wait_for_url(re.compile(r"/hub/login"), timeout=30_000)
        assert page.locator('input[name="username"]').count() == 1
    finally:
        stranger.close()
    for path, body in (("create", {"rules": "crazy-eights", "seats": 2, "name": "Ana"}),
                       ("join", {"code": "ABCDEFGH", "name": "Ana"})):
        status, answer = _post(hub, path, body)
        assert status == 401 and "log in to the hub" in answer["error"], (path, answer)

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{hub.url}/hub/login")
        page.fill('input[name="username"]', "ana")
        page.fill('input[name="password"]', hub.password)
        page.click('input[type="submit"], button[type="submit"]')
        page.wait_for_url(re.compile(r"/user/ana/|/hub/(home|spawn)"), timeout=60_000)
        page.goto(lobby)  # → the hub's OAuth → oauth_callback → back to the lobby
        page.wait_for_url(re.compile(r"/crazylab/tables/$"), timeout=60_000)
        name = page.locator('#create input[name="name"]')
        page.wait_for_function(
            "() => document.querySelector('#create input[name=\"name\"]').value === 'ana'",
            timeout=30_000)
        assert name.get_attribute("readonly") is not None
        page.evaluate("() => { const i = document.querySelector('#create input[name=\"name\"]');"
                      " i.readOnly = false; i.value = 'Ben'; }")  # a forged name is not taken
        page.select_option('#create select[name="seats"]', "2")
        screenshot(page, "hub-tables-lobby")
        page.click('#create button[type="submit"]')
        page.wait_for_url(re.compile(r"/crazylab/tables/t/[A-Z0-9]+$"), timeout=30_000)
        code = page.url.rsplit("/", 1)[1]
        page.wait_for_selector(".st-lobby", timeout=30_000)
        screenshot(page, "hub-tables-table")
        stored = page.evaluate(f"() => JSON.parse(localStorage.getItem("
                               f"Object.keys(localStorage).find(k => k.endsWith({code!r}))))")
        assert stored["name"] == "ana", stored
        seat = hub_post(hub, "seat", {"token": stored["token"]})
        assert (seat["code"], seat["seat"], seat["name"]) == (code, 0, "ana")
    finally:
        context.close()


def _post(hub: Hub, path: str, body: Any) -> tuple[int, Any]:
    """POST to the tables' API through the hub's proxy with no identity: (status, answer)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        f"{hub.service_url}crazylab/tables/api/{path}", method="POST",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

"""Tables for people over the wire (crazylab.web.tables_api): a real tornado server on
127.0.0.1 with a SQLite file, HTTP calls and websocket clients (no browser).

* create, join, bots and start over HTTP; three learners' websockets and a bot play a hand to
  its end, each client choosing legal moves from its own frames only;
* while the hand runs, no frame to a seat holds a card code of another seat's hand;
* a forged token, a move out of turn and a stale version are refused in one line and change
  nothing;
* the server stops mid-hand and a new one on the same database file carries the hand on;
* a burst of joins is answered 429 with Retry-After;
* a seat whose browser left is played by a bot, and taken back; a teacher watches public
  frames only; a class tournament over HTTP; ``crazylab tables`` serves alone and resumes.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import free_port
from tornado import httpclient, httpserver, web, websocket
from tornado.netutil import bind_sockets

from crazylab.classroom import open_store
from crazylab.seat.view import apply_step
from crazylab.tables import TableService
from crazylab.tables.service import ADDRESS_JOINS_PER_MINUTE as ADDRESS_JOINS
from crazylab.tables.service import JOINS_PER_MINUTE as JOINS
from crazylab.web import tables_api

RULES = "crazy-eights"
TIMEOUT = 120.0
BOT_DELAY = 0.05


class Server:
    """The tables' routes on a free port of 127.0.0.1, on the SQLite file ``db``."""

    def __init__(self, db: Path, delay: float = BOT_DELAY, idle_after: float = 60.0,
                 review_hands: bool = False) -> None:
        # the class tables' background reviews (seconds of CPU a hand) where a test wants them
        routes = tables_api.handlers(
            "/", lambda: TableService.restore(str(db), idle_after=idle_after), delay=delay,
            store_factory=lambda: open_store(str(db)), review_hands=review_hands)
        self.hub: tables_api.TablesHub = routes[0][2]["hub"]
        self.http = httpserver.HTTPServer(web.Application(routes))
        sockets = bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        self.http.add_sockets(sockets)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/crazylab/tables/"

    async def post(self, path: str, body: Any, headers: dict[str, str] | None = None
                   ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """POST ``body`` as JSON to ``api/<path>``: status, JSON answer, headers."""
        client = httpclient.AsyncHTTPClient()
        resp = await client.fetch(self.base + "api/" + path, method="POST",
                                  body=json.dumps(body),
                                  headers={"Content-Type": "application/json", **(headers or {})},
                                  raise_error=False)
        return resp.code, json.loads(resp.body or b"{}"), dict(resp.headers)

    async def stop(self) -> None:
        self.http.stop()
        self.hub.close()
        await self.http.close_all_connections()


class Seat:
    """A learner's websocket: the frames it was sent, and the view they add up to."""

    def __init__(self, server: Server, code: str, token: str) -> None:
        self.server, self.code, self.token = server, code, token
        self.conn: websocket.WebSocketClientConnection | None = None
        self.raw: list[str] = []  # every frame, as sent
        self.view: dict[str, Any] = {}
        self.version = -1
        self.seat = -1
        self.refusals: list[str] = []
        self.lobby: dict[str, Any] = {}

    async def connect(self) -> dict[str, Any]:
        self.conn = await websocket.websocket_connect(
            f"ws://127.0.0.1:{self.server.port}/crazylab/tables/ws/{self.code}")
        await self.conn.write_message(json.dumps({"hello": {"token": self.token}}))
        return await self.until(lambda m: m["type"] in ("welcome", "refused"))

    async def read(self) -> dict[str, Any]:
        assert self.conn is not None
        text = await asyncio.wait_for(self.conn.read_message(), TIMEOUT)
        assert text is not None, "the server closed the socket"
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        if msg["type"] == "welcome":
            self.seat, self.version, self.lobby = msg["seat"], msg["version"], msg["lobby"]
            if msg["snapshot"]:
                self.view = dict(msg["snapshot"]["view"])
        elif msg["type"] == "steps":
            for step in msg["steps"]:
                self.view = apply_step(self.view, step)
            self.version = msg["version"]
        elif msg["type"] == "refused":
            self.refusals.append(msg["why"])
        elif msg["type"] == "lobby":
            self.lobby = msg
        return msg

    async def until(self, done: Any) -> dict[str, Any]:
        while True:
            msg = await self.read()
            if done(msg):
                return msg

    async def send(self, message: dict[str, Any]) -> None:
        assert self.conn is not None
        await self.conn.write_message(json.dumps(message))

    def legal_action(self) -> dict[str, Any]:
        """A legal action read from this seat's own view: an open chooser's first option, a
        card with one move, a card that opens a chooser, else a button (draw, pass, end)."""
        v = self.view
        if v.get("chooser"):
            return {"action": "choose", "index": 0}
        for entry in v["hand"]:
            if entry["legal"] and entry["move"]:
                return {"action": "move", "move": entry["move"]}
        for entry in v["hand"]:
            if entry["legal"]:
                return {"action": "card", "card": entry["card"]}
        return {"action": "move", "move": v["actions"][0]["move"]}

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


async def open_table(server: Server, learners: int = 3, seats: int = 4,
                     bot: str | None = "random", klass: str | None = None
                     ) -> tuple[str, list[dict[str, Any]]]:
    """A table with ``learners`` learners (the first the host), bots in the rest; ``klass``:
    the class it belongs to."""
    status, host, _ = await server.post("create?delay=0.05", {
        "rules": RULES, "seats": seats, "name": "Ada", **({"class": klass} if klass else {})})
    assert status == 200, host
    assert set(host) == {"code", "seat", "token", "name", "link"}
    assert host["link"].endswith(f"/crazylab/tables/t/{host['code']}")
    tickets = [host]
    for name in ("Bo", "Cy", "Di")[:learners - 1]:
        status, t, _ = await server.post("join", {"code": host["code"].lower(), "name": name})
        assert status == 200, t
        tickets.append(t)
    assert [t["seat"] for t in tickets] == list(range(learners))
    for s in range(learners, seats):
        status, answer, _ = await server.post("bot", {"token": host["token"], "seat": s,
                                                      "level": bot})
        assert (status, answer) == (200, {"ok": True})
    return host["code"], tickets


async def started(server: Server, code: str, tickets: list[dict[str, Any]]) -> list[Seat]:
    """Every learner's socket connected, the table started by its host, each seat's first
    whole view received."""
    seats = [Seat(server, code, t["token"]) for t in tickets]
    for s in seats:
        await s.connect()
    status, answer, _ = await server.post("start", {"token": tickets[0]["token"]})
    assert (status, answer) == (200, {"ok": True})
    for s in seats:
        await s.until(lambda m: m["type"] == "welcome" and m["snapshot"])
    return seats


def cards_of_others(server: Server, code: str, seat: int) -> set[str]:
    """Every card code another seat holds right now (read from the service)."""
    service = server.hub._service
    game = service.state(code).match.game
    return {str(c) for k in range(game.n) if k != seat for c in game.hand(k)}


def leaks(frame: str, cards: set[str]) -> list[str]:
    """Card codes of ``cards`` in a frame: as a JSON string, a move ("8S:D") or a face key."""
    return sorted(c for c in cards if re.search(rf'"{re.escape(c)}[":]', frame))


async def play_out(server: Server, code: str, seats: list[Seat], *,
                   stop_after: int | None = None) -> int:
    """Each seat plays legal moves from its own frames until the hand is over (or until
    ``stop_after`` learner moves); every frame is checked for other seats' cards as it
    arrives. Returns the learner moves made."""
    moves = 0
    last_acted: dict[int, Any] = {s.seat: None for s in seats}
    syncing: set[int] = set()  # seats waiting for the answer to their sync

    async def turn(s: Seat) -> bool:
        nonlocal moves
        v = s.view
        if v.get("over"):
            return True
        if s.seat in syncing:
            return False
        if v.get("your_turn") and last_acted[s.seat] != (s.version, v.get("seq")):
            last_acted[s.seat] = (s.version, v.get("seq"))
            action = s.legal_action()
            await s.send({**action, "version": s.version})
            if action["action"] == "move":
                moves += 1
        return False

    async def loop(s: Seat) -> None:
        while True:
            if await turn(s) or (stop_after is not None and moves >= stop_after):
                return
            msg = await s.read()
            if not s.view.get("over"):
                found = leaks(s.raw[-1], cards_of_others(server, code, s.seat))
                assert not found, f"seat {s.seat} was sent {found}: {msg}"
            if msg["type"] == "refused":  # faster than 10 moves a second: wait, then ask
                assert msg["why"].startswith("too many moves"), msg  # for the present as
                await asyncio.sleep(0.5)  # the page does, and move again
                await s.send({"action": "sync", "seq": None, "version": s.version})
                syncing.add(s.seat)
                last_acted[s.seat] = None
            elif msg["type"] == "steps":
                syncing.discard(s.seat)

    await asyncio.wait_for(asyncio.gather(*(loop(s) for s in seats)), TIMEOUT)
    return moves


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


def run(coro: Any) -> Any:
    """Run ``coro`` on a loop of its own, in a thread: after the browser tests, Playwright's
    loop is running in the main thread, where ``asyncio.run`` is refused."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_three_learners_and_a_bot_play_a_hand_to_the_end(db: Path) -> None:
    async def main() -> None:
        server = Server(db)
        try:
            code, tickets = await open_table(server)
            seats = [Seat(server, code, t["token"]) for t in tickets]
            welcome = await seats[1].connect()
            assert welcome["seat"] == 1 and welcome["snapshot"] is None  # not started yet
            assert welcome["lobby"]["kinds"] == ["learner", "learner", "learner", "bot"]
            status, answer, _ = await server.post("start", {"token": tickets[1]["token"]})
            assert status == 403 and "host" in answer["error"]  # only the host starts
            for s in (seats[0], seats[2]):
                await s.connect()
            status, answer, _ = await server.post("start", {"token": tickets[0]["token"]})
            assert (status, answer) == (200, {"ok": True})
            for s in seats:  # the table started: each seat's whole view, its own cards only
                await s.until(lambda m: m["type"] == "welcome" and m["snapshot"])
                assert s.view["seat"] == s.seat and s.view["shared"] is True
                assert len(s.view["hand"]) == s.view["hand_size"] > 0
                assert not leaks(s.raw[-1], cards_of_others(server, code, s.seat))
            await play_out(server, code, seats)
            game = server.hub._service.state(code).match.game
            assert game.over
            for s in seats:  # every seat saw the same end, and its table says so
                assert s.view["over"] and s.view["end"]
                assert s.view["scores"]["hand"] == list(game.scores)
                assert s.version == server.hub._service.state(code).version
            acted = {e.seat for e in game.events if e.kind in ("played", "drew", "passed")}
            assert 3 in acted  # the bot played on the server
            assert [s.view["can_deal"] for s in seats] == [True, False, False]  # the host's
            await seats[1].send({"action": "new_hand", "version": seats[1].version})
            assert "host" in (await seats[1].until(lambda m: m["type"] == "refused"))["why"]
            await seats[0].send({"action": "new_hand", "version": seats[0].version})
            for s in seats:  # the next hand, dealt to everyone, each its own cards
                await s.until(lambda m, s=s: m["type"] == "steps" and not s.view["over"])
                assert s.view["hand_id"] == 2 and s.view["news"][0].startswith("A new hand")
                assert not leaks(s.raw[-1], cards_of_others(server, code, s.seat))
            for s in seats:
                s.close()
        finally:
            await server.stop()

    run(main())


def test_forged_token_other_seat_and_stale_version_are_refused(db: Path) -> None:
    async def main() -> None:
        server = Server(db, delay=5.0)  # no bot moves while we poke
        try:
            code, tickets = await open_table(server, learners=2, seats=2)
            status, _, _ = await server.post("start", {"token": tickets[0]["token"]})
            assert status == 200
            service = server.hub._service
            before = service.state(code)
            version, hands = before.version, [list(h) for h in before.match.game.hands]
            plies = len(before.match.game.moves)  # (the state's match is the live one)

            def unchanged() -> None:
                now = service.state(code)
                assert now.version == version
                assert [list(h) for h in now.match.game.hands] == hands

            # a forged token: refused in one line, the socket closed 4403, nothing changed
            forged = Seat(server, code, "x" * 32)
            msg = await forged.connect()
            assert msg == {"type": "refused",
                           "why": "this seat token is not a seat at any table: join the "
                                  "table again"}
            assert await forged.conn.read_message() is None
            assert forged.conn.close_code == 4403
            status, answer, _ = await server.post("new_hand", {"token": "x" * 32})
            assert status == 403 and "\n" not in answer["error"]
            # a seat token of another table is no seat here either
            other, other_tickets = await open_table(server, learners=1, seats=2)
            stranger = Seat(server, code, other_tickets[0]["token"])
            assert (await stranger.connect())["type"] == "refused"
            unchanged()

            seats = [Seat(server, code, t["token"]) for t in tickets]
            for s in seats:
                await s.connect()
            mover = seats[before.match.game.to_play]
            waiter = seats[1 - mover.seat]
            # a move for the seat to play, sent by the other: refused, to that socket only
            move = str(before.match.game.legal_moves()[0])  # legal for the mover
            legal = {"action": "move", "move": move}
            await waiter.send({**legal, "version": version, "seat": mover.seat})
            msg = await waiter.until(lambda m: m["type"] == "refused")
            assert "turn" in msg["why"] and "\n" not in msg["why"]
            unchanged()
            # a stale version: refused with the version the table is at
            await mover.send({**legal, "version": version - 1})
            msg = await mover.until(lambda m: m["type"] == "refused")
            assert "moved on" in msg["why"] and msg["version"] == version
            unchanged()
            # garbage is refused in one line too, and the table plays on afterwards
            await mover.send({"action": "explode", "version": version})
            assert "unknown action" in (await mover.until(
                lambda m: m["type"] == "refused"))["why"]
            await mover.send({"action": "card", "card": "not a card", "version": version})
            assert (await mover.until(lambda m: m["type"] == "refused"))["why"]
            unchanged()
            assert waiter.refusals == [waiter.refusals[0]]  # nobody else was told
            # two clicks at once (the mover's two tabs): exactly one is applied, the other
            # is told why
            tab = Seat(server, code, mover.token)
            await tab.connect()
            await asyncio.gather(mover.send({**legal, "version": version}),
                                 tab.send({**legal, "version": version}))
            told = len(mover.refusals) + len(tab.refusals)
            for s in (mover, tab):  # each tab is sent the move that was applied
                await s.until(lambda m: m["type"] == "steps" and m["version"] == version + 1)
            while len(mover.refusals) + len(tab.refusals) == told:
                await asyncio.wait_for(tab.read(), 2)
            await asyncio.sleep(0.2)
            assert len(mover.refusals) + len(tab.refusals) == told + 1
            assert service.state(code).version == version + 1
            assert len(service.state(code).match.game.moves) == plies + 1
            tab.close()
            for s in seats:
                s.close()
        finally:
            await server.stop()

    run(main())


def test_a_restarted_server_carries_the_hand_on(db: Path) -> None:
    async def main() -> None:
        server = Server(db)
        code, tickets = await open_table(server)
        seats = [Seat(server, code, t["token"]) for t in tickets]
        for s in seats:
            await s.connect()
        assert (await server.post("start", {"token": tickets[0]["token"]}))[0] == 200
        for s in seats:
            await s.until(lambda m: m["type"] == "welcome" and m["snapshot"])
        await play_out(server, code, seats, stop_after=3)
        await asyncio.sleep(0.3)  # a bot move on its way lands first
        state = server.hub._service.state(code)
        version, played = state.version, [str(m) for m in state.match.game.moves]
        hands = [sorted(map(str, h)) for h in state.match.game.hands]
        assert not state.match.game.over and len(played) >= 3
        for s in seats:
            s.close()
        await server.stop()

        again = Server(db)  # a new server, a new service: the table from its move log
        try:
            seats = [Seat(again, code, t["token"]) for t in tickets]
            for s in seats:
                welcome = await s.connect()
                assert welcome["type"] == "welcome" and welcome["seat"] == s.seat
            restored = again.hub._service.state(code)
            assert restored.version == version
            assert [str(m) for m in restored.match.game.moves] == played
            assert [sorted(map(str, h)) for h in restored.match.game.hands] == hands
            for s in seats:  # each seat's own cards, as before the restart
                assert sorted(e["card"] for e in s.view["hand"]) == hands[s.seat]
            await play_out(again, code, seats)
            assert again.hub._service.state(code).match.game.over
            for s in seats:
                s.close()
        finally:
            await again.stop()

    run(main())


def test_a_burst_of_joins_is_rate_limited(db: Path) -> None:
    store = open_store(str(db))
    made = store.create_class("6A")
    ana, ben = store.join(made.code, "Ana"), store.join(made.code, "Ben")
    store.close()

    async def main() -> None:
        server = Server(db)
        try:
            status, host, _ = await server.post("create", {"rules": RULES, "seats": 2,
                                                           "name": "Ada"})
            assert status == 200
            answers = [await server.post("join", {"code": host["code"], "name": f"L{i}"})
                       for i in range(ADDRESS_JOINS + 5)]
            codes = [a[0] for a in answers]
            assert codes[0] == 200  # the one empty seat
            assert codes[1:ADDRESS_JOINS - 1] == [409] * (ADDRESS_JOINS - 2)  # then full
            assert codes[ADDRESS_JOINS - 1:] == [429] * 6  # the address's limit
            status, answer, headers = answers[-1]
            assert int(headers["Retry-After"]) >= 1 and "\n" not in answer["error"]
            assert headers["Cache-Control"] == "no-store"
            # a learner the class store knows counts alone, not with the address
            mine = {"X-Crazylab-Token": ana.token}
            seen = [(await server.post("join", {"code": host["code"], "name": "Ana"},
                                       mine))[0] for _ in range(JOINS + 1)]
            assert seen == [409] * JOINS + [429]
            other = await server.post("join", {"code": host["code"], "name": "Ben"},
                                      {"X-Crazylab-Token": ben.token})
            assert other[0] == 409  # Ben is not Ana: the table is full, not him limited
            forged = await server.post("join", {"code": host["code"], "name": "X"},
                                       {"X-Crazylab-Token": "not-a-learner"})
            assert forged[0] == 429  # an unknown token is anyone at the address
            # a wrong code is refused like an unknown one; bad bodies in one line
            status, answer, _ = await server.post("join", {"code": "ZZZZZZZZ", "name": "X"})
            assert status in (403, 429)
            for body, word in (({"rules": "nope", "seats": 2, "name": "A"}, "rule set"),
                               ({"rules": RULES, "seats": 9, "name": "A"}, "seats"),
                               ({"rules": RULES, "seats": 2, "name": ""}, "name"),
                               ([1, 2], "object")):
                status, answer, _ = await server.post("create", body)
                assert status == 400 and word in answer["error"], answer
            client = httpclient.AsyncHTTPClient()
            resp = await client.fetch(server.base + "api/create", method="POST",
                                      body=b"{" * (17 * 1024), raise_error=False,
                                      headers={"Content-Type": "application/json"})
            assert resp.code == 413 and json.loads(resp.body)["error"]
        finally:
            await server.stop()

    run(main())


def test_pages_and_static_files_by_name_only(db: Path) -> None:
    async def main() -> None:
        server = Server(db)
        client = httpclient.AsyncHTTPClient()
        try:
            for path, kind in (("", "text/html"), ("t/ABCDEFGH", "text/html"),
                               ("static/table.js", "javascript"),
                               ("static/shared_table.js", "javascript"),
                               ("static/table.css", "text/css")):
                resp = await client.fetch(server.base + path, raise_error=False)
                assert resp.code == 200 and kind in resp.headers["Content-Type"], path
                assert resp.headers["Cache-Control"] in ("no-cache", "no-store"), path
                # another site cannot frame them
                assert resp.headers["X-Frame-Options"] == "SAMEORIGIN", path
                assert "frame-ancestors 'self'" in resp.headers["Content-Security-Policy"]
            resp = await client.fetch(server.base.rstrip("/"), follow_redirects=False,
                                      raise_error=False)
            assert resp.code == 301 and resp.headers["Location"] == "/crazylab/tables/"
            for path in ("static/tables_api.py", "static/..%2Fserve.py", "static/serve.py",
                         "static/table.py"):
                resp = await client.fetch(server.base + path, raise_error=False)
                assert resp.code == 404, path
            # off a hub nobody is named by the server: the lobby keeps its name fields
            resp = await client.fetch(server.base + "api/me")
            assert json.loads(resp.body) == {"hub": False, "name": None}
        finally:
            await server.stop()

    run(main())


def test_another_sites_page_cannot_create_or_join_a_table(db: Path) -> None:
    """A form or a ``text/plain`` POST (what another site's page can send without asking) is
    refused, and so is a JSON POST whose browser names another origin; nothing is made."""
    async def main() -> None:
        server = Server(db)
        client = httpclient.AsyncHTTPClient()
        body = json.dumps({"rules": RULES, "seats": 2, "name": "Ada"})
        try:
            for headers, status in (
                    ({"Content-Type": "text/plain"}, 415),
                    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
                    ({}, 415),
                    ({"Content-Type": "application/json",
                      "Origin": "https://elsewhere.example"}, 403)):
                resp = await client.fetch(server.base + "api/create", method="POST",
                                          body=body, headers=headers, raise_error=False)
                assert resp.code == status, (headers, resp.code, resp.body)
                assert json.loads(resp.body)["error"]
            assert (await server.hub.service()).tables() == []  # nothing was made
            # the tables' own page: JSON from this very origin
            resp = await client.fetch(server.base + "api/create", method="POST", body=body,
                                      headers={"Content-Type": "application/json",
                                               "Origin": f"http://127.0.0.1:{server.port}"})
            assert resp.code == 200 and json.loads(resp.body)["code"]
        finally:
            await server.stop()

    run(main())


def test_a_class_tournament_over_http(db: Path) -> None:
    store = open_store(str(db))
    made = store.create_class("5B")
    other = store.create_class("5C")
    store.close()

    async def main() -> None:
        server = Server(db, delay=0.0)
        key = {"X-Crazylab-Key": made.teacher_key}
        body = {"class": made.code, "players": ["Ana", "Ben", "Cat", "Dan"],
                "format": "round_robin", "rounds": 2, "hands": 1, "table_size": 2,
                "rules": RULES}
        client = httpclient.AsyncHTTPClient()
        try:
            # the teacher's key of another class, or none, starts nothing
            status, answer, _ = await server.post("tournament", body,
                                                  {"X-Crazylab-Key": other.teacher_key})
            assert status == 403 and answer == {"error": "wrong teacher key"}
            assert (await server.post("tournament", body))[0] == 401
            for bad, word in ((("format", "chess"), "format"), (("players", "Ana"), "player"),
                              (("table_size", 9), "table")):
                status, answer, _ = await server.post("tournament", {**body, bad[0]: bad[1]},
                                                      key)
                assert status == 400 and word in answer["error"], answer
            status, made_t, _ = await server.post("tournament", body, key)
            assert status == 200, made_t
            tid, tokens = made_t["id"], made_t["tokens"]
            assert sorted(tokens) == body["players"]
            assert made_t["link"].endswith(f"/crazylab/tables/tournament/{tid}")
            status, answer, _ = await server.post(f"tournament/{tid}/round", {},
                                                  {"X-Crazylab-Key": other.teacher_key})
            assert status == 403
            for round_ in (1, 2):
                status, started, _ = await server.post(f"tournament/{tid}/round", {}, key)
                assert status == 200 and started["round"] == round_, started
                assert len(started["tables"]) == 2
                # each player finds their seat with their own token, and plays it
                seats = []
                for name, token in tokens.items():
                    resp = await client.fetch(
                        f"{server.base}api/tournament/{tid}/seat?player={name}",
                        headers={"X-Crazylab-Token": token})
                    seat = json.loads(resp.body)
                    assert seat["name"] == name and seat["code"] in started["tables"]
                    seats.append(Seat(server, seat["code"], seat["token"]))
                for s in seats:
                    await s.connect()
                for code in started["tables"]:
                    await play_out(server, code, [s for s in seats if s.code == code])
                for s in seats:
                    s.close()
            resp = await client.fetch(f"{server.base}api/tournament/{tid}")
            summary = json.loads(resp.body)
            assert summary["round"] == 2 and all(t["done"] for t in summary["tables"])
            results = {}  # the standings from the hands the service played
            service = server.hub._service
            for t in summary["tables"]:
                game = service.state(t["code"]).match.hands[0]
                for seat, player in enumerate(t["players"]):
                    results.setdefault(player, [0, 0])
                    results[player][0] += game.scores[seat]
                    results[player][1] += seat in game.winners
            got = {s["player"]: [s["points"], s["wins"]] for s in summary["standings"]}
            assert got == results
            resp = await client.fetch(f"{server.base}api/tournament/{tid}/standings.csv",
                                      headers=key)
            lines = resp.body.decode().splitlines()
            assert lines[0].startswith("rank,player,points,wins")
            assert len(lines) == 5 and resp.headers["Content-Type"].startswith("text/csv")
            resp = await client.fetch(f"{server.base}api/tournament/{tid}/standings.csv",
                                      raise_error=False)
            assert resp.code == 401
            resp = await client.fetch(f"{server.base}api/tournament/{tid}/seat",
                                      headers={"X-Crazylab-Token": "y" * 32},
                                      raise_error=False)
            assert resp.code == 403 and json.loads(resp.body) == {
                "error": "unknown player token"}
        finally:
            await server.stop()

    run(main())


def test_a_seat_left_is_played_by_a_bot_and_taken_back(db: Path) -> None:
    async def main() -> None:
        server = Server(db, delay=0.0, idle_after=0.3)
        try:
            code, tickets = await open_table(server, learners=2, seats=2)
            seats = [Seat(server, code, t["token"]) for t in tickets]
            for s in seats:
                await s.connect()
            assert (await server.post("start", {"token": tickets[0]["token"]}))[0] == 200
            for s in seats:
                await s.until(lambda m: m["type"] == "welcome" and m["snapshot"])
            service = server.hub._service
            gone = seats[1]
            gone.close()  # seat 1's browser goes; seat 0 plays on alone
            version = service.state(code).version
            stayed = seats[0]
            for _ in range(4):  # seat 1's turns are played for it once it is away
                while not stayed.view["your_turn"] and not stayed.view["over"]:
                    await stayed.read()
                if stayed.view["over"]:
                    break
                await stayed.send({**stayed.legal_action(), "version": stayed.version})
                await stayed.until(lambda m: m["type"] == "steps")
            assert service.state(code).version > version + 2
            # away once gone longer than idle_after: waited for, not assumed (a busy run's
            # hand could end before its 0.3 s had passed)
            for _ in range(600):
                if service.state(code).kinds[1] == "away":
                    break
                await asyncio.sleep(0.05)
            assert service.state(code).kinds[1] == "away"
            # its lobby message may still be on the way (none comes once the hand is over:
            # nothing is pushed then, and waiting for one hung a busy run for 120 s)
            # "away" is read off the clock, not an event: a lobby saying so is pushed with
            # the next change, and none comes if the hand ended meanwhile (that wait hung)
            while stayed.lobby["kinds"][1] != "away" and not stayed.view["over"]:
                try:
                    await asyncio.wait_for(stayed.read(), 5)
                except TimeoutError:
                    break
            back = Seat(server, code, tickets[1]["token"])  # a reload: the same seat back
            welcome = await back.connect()
            assert welcome["seat"] == 1 and welcome["lobby"]["kinds"][1] == "learner"
            assert service.state(code).kinds == ["learner", "learner"]
            assert sorted(e["card"] for e in back.view["hand"]) == sorted(
                map(str, service.state(code).match.game.hands[1]))
            for s in (stayed, back):
                s.close()
        finally:
            await server.stop()

    run(main())


def test_a_teacher_watches_public_frames_only(db: Path) -> None:
    store = open_store(str(db))
    made = store.create_class("5B")
    store.close()

    async def main() -> None:
        server = Server(db, idle_after=0.2)  # the host's seat, never connected, is played
        try:
            code, tickets = await open_table(server, learners=1, seats=3, klass=made.code)
            assert (await server.post("start", {"token": tickets[0]["token"]}))[0] == 200
            url = f"ws://127.0.0.1:{server.port}/crazylab/tables/ws/{code}"
            wrong = await websocket.websocket_connect(url)
            await wrong.write_message(json.dumps({"hello": {"watch": "not the key"}}))
            assert json.loads(await wrong.read_message())["why"] == tables_api.NOT_YOURS
            assert await wrong.read_message() is None and wrong.close_code == 4403
            watch = await websocket.websocket_connect(url)
            await watch.write_message(json.dumps({"hello": {"watch": made.teacher_key}}))
            frames = []
            while True:
                text = await asyncio.wait_for(watch.read_message(), TIMEOUT)
                frames.append(json.loads(text))
                frame = frames[-1]
                if frame["type"] == "public" and frame["started"]:
                    game = server.hub._service.state(code).match.game
                    if not frame["over"]:
                        hands = {str(c) for k in range(game.n) for c in game.hand(k)}
                        assert not leaks(text, hands), text
                        assert "hands" not in frame
                    if len(frames) > 6 or frame["over"]:
                        break
            assert frames[0]["type"] == "welcome" and frames[0]["seat"] is None
            await watch.write_message(json.dumps({"action": "move", "move": "draw"}))
            while (msg := json.loads(await watch.read_message()))["type"] != "refused":
                pass
            assert msg["why"] == "a spectator cannot play"
            watch.close()
        finally:
            await server.stop()

    run(main())


def test_crazylab_tables_serves_alone_and_resumes_its_tables(tmp_path: Path) -> None:
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    def serve(port: int) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "crazylab", "tables", "--db", str(tmp_path / "t.db"),
             "--port", str(port), "--delay", "0", "--behind-proxy"], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        return proc

    port = free_port()
    proc = serve(port)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith(f"crazylab tables: serving on http://127.0.0.1:{port}/"
                               "crazylab/tables/ (0 tables restored)"), line
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/crazylab/tables/api/create", method="POST",
            data=json.dumps({"rules": RULES, "seats": 2, "name": "Ada"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as resp:
            code = json.loads(resp.read())["code"]

        def join(address: str, real: str = "") -> int:
            headers = {"X-Forwarded-For": address, "Content-Type": "application/json"}
            if real:
                headers["X-Real-Ip"] = real  # a client's own claim: it counts for nothing
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/crazylab/tables/api/join", method="POST",
                data=json.dumps({"code": code, "name": "L"}).encode(), headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=20) as resp:
                    return int(resp.status)
            except urllib.error.HTTPError as e:
                return int(e.code)

        # behind a hub's proxy, each learner's own address counts: 25 learners, no 429
        assert {join(f"10.0.0.{i}") for i in range(25)} <= {200, 409}
        # one address's burst is limited
        statuses = [join("10.0.1.1") for _ in range(ADDRESS_JOINS + 1)]
        assert statuses[-1] == 429
        # a client cannot dodge its limit with a forged X-Real-Ip or an address of its own
        # in front of the one the proxy appended (tornado's xheaders believed both)
        assert join("10.0.1.1", real="10.9.9.9") == 429
        assert join("10.9.9.8, 10.0.1.1") == 429
    finally:
        proc.terminate()
        proc.wait(20)
    proc = serve(port)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert "(1 table restored)" in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/crazylab/tables/t/{code}",
                                    timeout=20) as resp:
            assert resp.status == 200 and b"<html" in resp.read()
    finally:
        proc.terminate()
        proc.wait(20)
    busy = subprocess.run([sys.executable, "-m", "crazylab", "tables", "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert busy.returncode == 2
    assert busy.stderr == "crazylab tables: --port must be 1 to 65535, not 0\n"


def test_the_teachers_overview_shows_every_table_public_only(db: Path) -> None:
    """``api/tables`` with a teacher key: every table of the key's class, public state only,
    the newest first, never a card of a hand in play; no key is 401, a wrong one 403;
    ``watch/`` is its page."""
    store = open_store(str(db))
    made = store.create_class("5C")
    store.close()

    async def main() -> None:
        server = Server(db)
        client = httpclient.AsyncHTTPClient()
        try:
            first, tickets = await open_table(server, learners=2, seats=3, klass=made.code)
            assert (await server.post("start", {"token": tickets[0]["token"]}))[0] == 200
            await open_table(server, learners=1, seats=2)  # a table of no class
            second, _ = await open_table(server, learners=1, seats=2,
                                         klass=made.code.lower())

            async def overview(key: str | None) -> tuple[int, dict[str, Any]]:
                resp = await client.fetch(server.base + "api/tables", raise_error=False,
                                          headers={"X-Crazylab-Key": key} if key else {})
                assert resp.headers["Cache-Control"] == "no-store"
                return resp.code, json.loads(resp.body)

            assert (await overview(None))[0] == 401
            status, answer = await overview("not the key")
            assert (status, answer) == (403, {"error": tables_api.NOT_YOURS})
            status, answer = await overview(made.teacher_key)
            assert status == 200 and answer["class"] == made.code
            frames = answer["tables"]
            assert [f["code"] for f in frames] == [second, first]  # the newest first
            assert [f["started"] for f in frames] == [False, True]
            for frame in frames:  # each table's frame against that table's own hands
                game = server.hub._service.state(frame["code"]).match.game
                hands = {str(c) for k in range(game.n) for c in game.hand(k)}
                assert not game.over and not leaks(json.dumps(frame), hands)
                assert "hands" not in frame and frame["counts"] == game.hand_sizes
            playing = frames[1]
            assert playing["names"][:2] == ["Ada", "Bo"] and len(playing["log"]) <= 3
            page = await client.fetch(server.base + "watch/")
            assert b"Every table of the class" in page.body
        finally:
            await server.stop()

    run(main())


def test_crazylab_tables_as_a_jupyterhub_service_serves_under_its_prefix(tmp_path: Path) -> None:
    """A hub-managed service is reached through the hub's proxy at
    ``/services/<name>/`` (the path kept): every route, the links and the websocket sit
    under ``$JUPYTERHUB_SERVICE_PREFIX``."""
    import os
    import subprocess
    import sys
    import urllib.request

    port = free_port()
    prefix = "/services/crazylab-tables/"
    proc = subprocess.Popen(
        [sys.executable, "-m", "crazylab", "tables", "--db", str(tmp_path / "hub.db"),
         "--port", str(port), "--delay", "0"], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "JUPYTERHUB_SERVICE_PREFIX": prefix})
    base = f"http://127.0.0.1:{port}{prefix}crazylab/tables/"
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith(f"crazylab tables: serving on {base} "), line
        request = urllib.request.Request(
            base + "api/create", method="POST",
            data=json.dumps({"rules": RULES, "seats": 2, "name": "Ada"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as resp:
            made = json.loads(resp.read())
        assert made["link"] == f"{prefix}crazylab/tables/t/{made['code']}"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{made['link']}",
                                    timeout=20) as resp:
            assert resp.status == 200 and b"<html" in resp.read()

        async def hello() -> dict[str, Any]:
            conn = await websocket.websocket_connect(
                f"ws://127.0.0.1:{port}{prefix}crazylab/tables/ws/{made['code']}")
            await conn.write_message(json.dumps({"hello": {"token": made["token"]}}))
            text = await asyncio.wait_for(conn.read_message(), TIMEOUT)
            conn.close()
            assert isinstance(text, str)
            return dict(json.loads(text))

        welcome = run(hello())
        assert (welcome["type"], welcome["seat"]) == ("welcome", 0)
    finally:
        proc.terminate()
        proc.wait(20)


def test_each_learner_reviews_their_own_seat_after_the_hand(db: Path) -> None:
    """Issue 32: at a table of two learners and a bot, "Review my hand" answers each learner
    with their own seat's decisions only, after the hand (refused while it is played): the
    hand shown at each decision is the learner's own, nothing names another seat's hidden
    card, and a seat token that is not a seat's gets nothing."""
    async def main() -> None:
        server = Server(db)
        try:
            code, tickets = await open_table(server, learners=2, seats=3)
            seats = await started(server, code, tickets)
            status, early, _ = await server.post("review", {"token": tickets[1]["token"]})
            assert status == 400 and "finish the hand first" in early["error"]
            await play_out(server, code, seats)
            from crazylab.review import hand_record

            game = server.hub._service.state(code).match.game
            start, moves = hand_record(game)
            for ticket in tickets:
                seat = ticket["seat"]
                status, review, _ = await server.post("review", {"token": ticket["token"]})
                assert status == 200, review
                assert review["seat"] == seat and review["code"] == code
                mine = [k for k in range(len(moves)) if _to_play(start, moves, k) == seat]
                assert [d["ply"] for d in review["decisions"]] == mine
                replay = start.copy()
                for k, move in enumerate(moves):
                    for d in review["decisions"]:
                        if d["ply"] == k:
                            assert d["seat"] == seat
                            assert sorted(d["hand"]) == sorted(c.display
                                                               for c in replay.hand(seat))
                            assert d["verdict"] in ("good", "inaccuracy", "mistake",
                                                    "blunder", "forced")
                            others = {c.display for o in range(replay.n) if o != seat
                                      for c in replay.hand(o)}
                            shown = {m["display"] for m in d["moves"]} | set(d["hand"])
                            assert not shown & others - set(d["hand"])
                    replay.push(move)
                again = await server.post("review", {"token": ticket["token"]})
                assert again[1] == review  # kept: asked again, the same review at once
            status, answer, _ = await server.post("review", {"token": "f" * 40})
            assert status == 403
            for s in seats:
                s.close()
        finally:
            await server.stop()

    run(main())


def test_a_class_tables_hands_are_reviewed_for_the_teacher(db: Path) -> None:
    """Issue 32: a hand played at a class's table is reviewed by the server for each learner
    seat (not the bot's) without anyone asking; the rated choices are kept with the class
    (schema 7's ``hand_reviews``), the class report and CSV carry them, the teacher's
    dashboard tallies the costly ones by kind of choice, and a learner's own "Review my hand"
    is the same review."""
    from crazylab.widgets.dashboard import costly_choices

    store = open_store(str(db))
    made = store.create_class("8B")

    async def main() -> list[dict[str, Any]]:
        server = Server(db, review_hands=True)
        try:
            code, tickets = await open_table(server, learners=2, seats=3, klass=made.code)
            seats = await started(server, code, tickets)
            await play_out(server, code, seats)
            deadline = asyncio.get_running_loop().time() + TIMEOUT
            while {r["seat"] for r in store.class_report(made.code, made.teacher_key).reviews
                   } != {0, 1}:  # the server reviews both learners' seats by itself
                assert asyncio.get_running_loop().time() < deadline, "no review was kept"
                await asyncio.sleep(0.2)
            mine = []
            for ticket in tickets:
                status, review, _ = await server.post("review", {"token": ticket["token"]})
                assert status == 200
                mine.append(review)
            for s in seats:
                s.close()
            return mine
        finally:
            await server.stop()

    reviews = run(main())
    rows = store.class_report(made.code, made.teacher_key).reviews
    for review in reviews:  # what the learner sees is what the teacher's tally counts
        rated = [d for d in review["decisions"] if d["verdict"] not in ("forced", "unrated")]
        kept = [r for r in rows if r["seat"] == review["seat"]]
        assert [(r["ply"], r["verdict"], r["situation"]) for r in kept] == [
            (d["ply"], d["verdict"], d["situation"]) for d in rated]
        assert {r["name"] for r in kept} == {("Ada", "Bo")[review["seat"]]}
    assert all(r["table"] == reviews[0]["code"] and r["hand"] == reviews[0]["hand"]
               for r in rows)
    tally = costly_choices(rows)
    assert int(tally["times"].sum()) == sum(r["verdict"] in ("mistake", "blunder")
                                            for r in rows)
    csv = store.export_rows(made.code, made.teacher_key, "reviews")
    assert csv == rows
    assert store.reset_class(made.code, made.teacher_key, confirm=made.code) >= len(rows)
    assert store.class_report(made.code, made.teacher_key).reviews == []
    store.close()


def test_the_costly_choices_tally_ranks_kinds_by_the_win_chance_they_lost() -> None:
    from crazylab.review import SITUATIONS
    from crazylab.widgets.dashboard import costly_choices

    rows = [{"name": "Ana", "situation": "hit", "verdict": "blunder", "loss": 0.3,
             "rules": "BR-22 BR-27"},
            {"name": "Ben", "situation": "hit", "verdict": "mistake", "loss": 0.1,
             "rules": "BR-22"},
            {"name": "Ana", "situation": "draw", "verdict": "mistake", "loss": 0.12, "rules": ""},
            {"name": "Ben", "situation": "draw", "verdict": "inaccuracy", "loss": 0.06,
             "rules": ""},
            {"name": "Ben", "situation": "", "verdict": "good", "loss": 0.0, "rules": ""}]
    tally = costly_choices(rows)
    assert list(tally["choice"]) == [SITUATIONS["hit"], SITUATIONS["draw"]]
    assert list(tally["times"]) == [2, 1]
    assert tally["learners"][0] == "Ana (1), Ben (1)"
    assert list(tally["win chance lost"]) == ["20%", "12%"]
    assert tally["rules"][0] == "BR-22 BR-27"
    assert len(costly_choices([])) == 0


def _to_play(start: Any, moves: list[str], k: int) -> int:
    """The seat to play before move ``k`` of a hand."""
    game = start.copy()
    for move in moves[:k]:
        game.push(move)
    return game.to_play

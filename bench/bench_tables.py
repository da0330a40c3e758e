"""Learners of a class playing each other (issue 23 item 6): how long does a move take to reach
the other browsers at its table, with one table alone and with 30 learners at 8 tables at once?

    .venv/bin/python bench/bench_tables.py                        # a temporary SQLite file
    .venv/bin/python bench/bench_tables.py --learners 30 --tables 8 --seconds 30 --think 0.3
    .venv/bin/python bench/bench_tables.py --url http://127.0.0.1:8866/   # a running server

A real table server is started on 127.0.0.1 (``crazylab tables --db URL --port N``, the one a
hub runs) unless ``--url`` names one. Every learner is a websocket client (asyncio, in this one
process, so one clock times every frame) that takes a seat through the HTTP API, says hello with
its seat token and plays as a browser does: it keeps its seat's view from the ``welcome``
snapshot and the ``steps`` patches, and on its turn waits ``--think`` seconds and sends a legal
move (a card's only move, else the first option of its chooser, else draw/pass/end) with the
last version it was sent. The host fills the seats that are short with bots (rules level) and
deals again when a hand ends.

Timed: from the moment a learner's move is sent to the moment the frame of that move (the next
version) arrives at EACH OTHER client of that table; bots' moves are not timed. First one table
of 4 learners plays alone for ``--seconds``, then ``--learners`` learners at ``--tables``
tables at once for ``--seconds``: both figures are printed (p50, p95, max, moves, frames) from
the same run and server. The goal is p95 <= 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import WebSocketClientConnection, WebSocketClosedError, websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PREFIX = "crazylab/tables/"
RULES = "crazy-eights"
GOAL_MS = 200.0


@dataclass
class Timing:
    """What one phase measured: per frame delivered to another client, ms."""

    lags: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    hands: int = 0
    why: list[str] = field(default_factory=list)  # why moves were refused
    errors: list[str] = field(default_factory=list)

    def summary(self, label: str) -> str:
        if not self.lags:
            return f"{label:<24}: no move timed ({'; '.join(self.errors[:3]) or 'no frames'})"
        lags = sorted(self.lags)
        p50 = statistics.median(lags)
        p95 = lags[min(len(lags) - 1, round(0.95 * (len(lags) - 1)))]
        return (f"{label:<24}: p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  max {lags[-1]:6.1f} ms  "
                f"({self.moves} moves, {len(lags)} frames to other clients, {self.hands} hands "
                f"ended, {self.refused} refused){'  ✔' if p95 <= GOAL_MS else '  ✘ over the goal'}")


class Table:
    """One table: its code, the time each learner's move was sent (by the version it makes)."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.sent: dict[int, float] = {}  # version the move will make -> perf_counter at send
        self.clients: list[Learner] = []


def apply_patch(view: dict[str, Any], patch: dict[str, Any]) -> None:
    """A view step as table.js applies it (keys replaced, ``unset`` ones become None)."""
    rest = {k: v for k, v in patch.items() if k not in ("faces", "log_add", "unset")}
    for key in patch.get("unset") or []:
        rest[key] = None
    view.update(rest)


def pick_move(view: dict[str, Any]) -> str | None:
    """The move a quick learner makes: a legal card's only move, else the first option down its
    chooser, else the first button (draw, pass, end)."""
    def walk(node: dict[str, Any] | None) -> str | None:
        while node:
            opt = node["options"][0]
            if opt.get("move"):
                return str(opt["move"])
            node = opt.get("next")
        return None

    if view.get("forced"):
        return walk(view["forced"])
    for card in view.get("hand") or []:
        if card.get("legal"):
            return card.get("move") or walk((view.get("choosers") or {}).get(card["card"]))
    actions = view.get("actions") or []
    return str(actions[0]["move"]) if actions else None


class Learner:
    """One learner's browser: a websocket at its seat."""

    def __init__(self, bench: Bench, table: Table, token: str, host: bool) -> None:
        self.bench, self.table, self.token, self.host = bench, table, token, host
        self.view: dict[str, Any] = {}
        self.version = 0
        self.seat = -1
        self.ws: WebSocketClientConnection | None = None
        self.moving = False  # a move of this client's is on its way (or being thought of)
        self.mover_of = -1  # the version this client's own move will make (not timed here)

    async def run(self, timing: Timing, until: float) -> None:
        url = self.bench.ws_url(self.table.code)
        self.ws = await websocket_connect(url)
        await self.ws.write_message(json.dumps({"hello": {"token": self.token}}))
        try:
            while time.perf_counter() < until:
                try:
                    left = until - time.perf_counter()
                    raw = await asyncio.wait_for(self.ws.read_message(), left)
                except TimeoutError:
                    break
                if raw is None:
                    timing.errors.append(f"{self.table.code}: socket closed by the server")
                    break
                now = time.perf_counter()
                await self.frame(json.loads(raw), now, timing)
        finally:
            self.ws.close()

    async def frame(self, msg: dict[str, Any], now: float, timing: Timing) -> None:
        """Take one frame (its arrival time ``now``); never waits, so every frame is timed as
        it arrives."""
        kind = msg.get("type")
        if kind == "welcome":
            self.seat, self.version = msg["seat"], msg.get("version", 0)
            snap = msg.get("snapshot") or {}
            self.view = dict(snap.get("view") or {})
            if not self.view and (msg.get("lobby") or {}).get("started"):
                await self.send({"action": "sync", "seq": None})
        elif kind == "steps":
            version = msg.get("version", self.version)
            sent = self.table.sent.get(version)
            if sent is not None and self.mover_of != version:
                timing.lags.append((now - sent) * 1000)
            self.version = version
            for step in msg.get("steps", []):
                apply_patch(self.view, step)
            if self.moving and version >= self.mover_of:
                self.moving = False  # this client's own move (or deal) is in
        elif kind == "refused":
            timing.refused += 1
            timing.why.append(str(msg.get("why")))
            if self.moving:
                self.table.sent.pop(self.mover_of, None)
                self.moving = False
            await self.send({"action": "sync", "seq": None})
        elif "error" in msg:
            timing.errors.append(str(msg["error"]))
        v = self.view
        if self.moving or not v or (not v.get("your_turn") and not (v.get("over") and self.host)):
            return
        self.moving = True
        self.mover_of = self.version + 1
        asyncio.ensure_future(self.act(timing))

    async def act(self, timing: Timing) -> None:
        """Think, then move (or deal the next hand, the host at a hand's end)."""
        await asyncio.sleep(self.bench.think)
        if self.view.get("over"):
            timing.hands += 1
            await self.send({"action": "new_hand"})
            return
        move = pick_move(self.view)
        if move is None or self.version + 1 != self.mover_of:
            self.moving = False  # the table moved on while this learner thought
            return
        self.table.sent[self.mover_of] = time.perf_counter()
        timing.moves += 1
        await self.send({"action": "move", "move": move})

    async def send(self, msg: dict[str, Any]) -> None:
        if self.ws is not None and self.ws.protocol is not None:
            with contextlib.suppress(WebSocketClosedError):  # the phase is over
                await self.ws.write_message(json.dumps({**msg, "version": self.version}))


class Bench:
    """A server (started here or given) and the HTTP calls that seat learners."""

    def __init__(self, base: str, think: float) -> None:
        self.base = base.rstrip("/") + "/"
        self.think = think
        self.http = AsyncHTTPClient()

    def ws_url(self, code: str) -> str:
        return "ws" + self.base[4:] + PREFIX + "ws/" + code

    async def post(self, path: str, body: dict[str, Any], name: str = "") -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if name:  # each learner is its own browser (its own address on a real network)
            headers["X-Forwarded-For"] = f"10.0.{hash(name) % 250}.{len(name)}"
        for _ in range(20):
            req = HTTPRequest(self.base + PREFIX + "api/" + path, method="POST",
                              body=json.dumps(body), headers=headers)
            resp = await self.http.fetch(req, raise_error=False)
            if resp.code == 429:
                await asyncio.sleep(float(resp.headers.get("Retry-After", "1")))
                continue
            data = json.loads(resp.body or b"{}")
            if resp.code != 200:
                raise RuntimeError(f"{path}: {resp.code} {data.get('error')}")
            return data
        raise RuntimeError(f"{path}: rate limited 20 times")

    async def table(self, learners: int, seats: int, tag: str) -> tuple[Table, list[Learner]]:
        """A started table of ``learners`` learners (the host first) and bots for the rest."""
        host = await self.post("create", {"rules": RULES, "seats": seats, "name": f"{tag}-0"},
                               f"{tag}-0")
        table = Table(host["code"])
        clients = [Learner(self, table, host["token"], True)]
        for k in range(1, learners):
            t = await self.post("join", {"code": table.code, "name": f"{tag}-{k}"}, f"{tag}-{k}")
            clients.append(Learner(self, table, t["token"], False))
        for seat in range(learners, seats):
            await self.post("bot", {"token": host["token"], "seat": seat, "level": "rules"})
        table.clients = clients
        return table, clients


async def phase(bench: Bench, sizes: list[int], seconds: float, tag: str) -> Timing:
    """Tables of the given numbers of learners (seats filled up to 4 with bots) play at once."""
    timing = Timing()
    tables = [await bench.table(n, max(n, 2) if n >= 4 else 4, f"{tag}{i}")
              for i, n in enumerate(sizes)]
    until = time.perf_counter() + seconds
    runs = [c.run(timing, until) for _, clients in tables for c in clients]
    started = asyncio.gather(*runs)
    await asyncio.sleep(0.3)  # every client connected and welcomed
    for _table, clients in tables:
        await bench.post("start", {"token": clients[0].token})
    await started
    return timing


def split(learners: int, tables: int) -> list[int]:
    """``learners`` spread over ``tables`` tables of at most 4 (30 over 8: 4,4,4,4,4,4,3,3)."""
    base, extra = divmod(learners, tables)
    sizes = [base + (1 if i < extra else 0) for i in range(tables)]
    if max(sizes) > 4:
        raise SystemExit(f"{learners} learners do not fit {tables} tables of 4")
    return sizes


def start_server(db: str, port: int, delay: float) -> subprocess.Popen:
    """``crazylab tables`` on 127.0.0.1:port; returns once it answers the lobby."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "crazylab", "tables", "--db", db, "--port", str(port),
           "--delay", str(delay)]
    log = open(Path(tempfile.gettempdir()) / f"bench-tables-{port}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited ({proc.returncode}); see {log.name}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{PREFIX}", timeout=2):
                return proc
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"the server did not answer within 30 s; see {log.name}")


async def main_async(args: argparse.Namespace, base: str) -> None:
    bench = Bench(base, args.think)
    one = await phase(bench, [4], args.seconds, "solo")
    print(one.summary("1 table, 4 learners"), flush=True)
    sizes = split(args.learners, args.tables)
    many = await phase(bench, sizes, args.seconds, "class")
    print(many.summary(f"{args.tables} tables, {args.learners} learners"), flush=True)
    for label, t in (("1 table", one), ("class", many)):
        if t.errors:
            print(f"  {label}: {len(t.errors)} errors, e.g. {t.errors[0]}")
        if t.why:
            print(f"  {label}: refused because {sorted(set(t.why))[:3]}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--learners", type=int, default=30)
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--seconds", type=float, default=30.0, help="how long each phase plays")
    p.add_argument("--think", type=float, default=0.3, help="a learner's time per move, s")
    p.add_argument("--bot-delay", type=float, default=0.3, help="the server's bot delay, s")
    p.add_argument("--db", help="SQLAlchemy URL (default: a temporary SQLite file)")
    p.add_argument("--url", help="a running server's base URL (default: start one)")
    args = p.parse_args(argv)
    proc = None
    if args.url:
        base = args.url
    else:
        with socket.socket() as sock:  # a free port
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        db = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='bench-tables-')}/tables.db"
        proc = start_server(db, port, args.bot_delay)
        base = f"http://127.0.0.1:{port}/"
    print(f"bench_tables: {args.learners} learners at {args.tables} tables, think "
          f"{args.think} s, {args.seconds:.0f} s a phase, server {base}, {os.cpu_count()} cores",
          flush=True)
    try:
        asyncio.run(main_async(args, base))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()

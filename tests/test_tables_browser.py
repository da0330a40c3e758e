"""Learners play each other (issue 23), in real browsers: one Voilà server (``make app``'s, the
tables mounted in it) with its own class database, and one Chromium context per learner.

* 3 learners and a bot play a hand to the end; one learner reloads mid-hand and goes on in the
  same seat with the same cards; every websocket frame and the DOM of each browser are captured
  while the hand runs, and none holds a card of another seat (the cards each other seat still
  held when the hand ended: with ``crazy-eights`` no card comes back from the pile, so those
  were never shown to anybody);
* forged moves are refused (out of turn, a stale version, a forged seat token) and change
  nothing;
* the server is stopped and started again (same port, same database) mid-hand: the browsers
  reconnect by themselves and the hand plays on to its end;
* a 4-learner round-robin tournament of 2 rounds: the standings page shows what the test
  computes from the hands' own results.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    NOTEBOOKS_DIR,
    YOUR_TURN,
    VoilaServer,
    free_port,
    human_step,
    page_errors,
    start_voila,
    stop_voila,
)

pytestmark = pytest.mark.browser

RULES = "crazy-eights"  # no reshuffle: a card left in a hand at the end was never public
TABLES = "/crazylab/tables/"
BOT_DELAY = 0.2
HAND_TIMEOUT = 240.0


# --------------------------------------------------------------------------- the server

class Server:
    """Voilà on a fixed port and class database, that can be stopped and started again."""

    def __init__(self, tmp: Path) -> None:
        self.db = tmp / "class.db"
        self.port = free_port()
        self.logs = tmp
        self.voila: VoilaServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        before = os.environ.get("CRAZYLAB_DB")
        os.environ["CRAZYLAB_DB"] = str(self.db)
        try:
            self.voila = start_voila(NOTEBOOKS_DIR, port=self.port, log_dir=self.logs,
                                     extra_args=("--VoilaConfiguration.preheat_kernel=False",))
        finally:
            if before is None:
                os.environ.pop("CRAZYLAB_DB", None)
            else:
                os.environ["CRAZYLAB_DB"] = before

    def stop(self) -> None:
        if self.voila is not None:
            stop_voila(self.voila)
            self.voila = None

    def log(self) -> str:
        return self.voila.log() if self.voila else ""

    def post(self, path: str, body: dict[str, Any], key: str = "") -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if key:
            headers["X-Crazylab-Key"] = key
        req = urllib.request.Request(self.url + TABLES + "api/" + path,
                                     data=json.dumps(body).encode(), headers=headers)
        return self._open(req)

    def _open(self, req: urllib.request.Request) -> Any:
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{req.full_url}: {e.code} {e.read()[:300]!r}\n"
                                 f"{self.log()[-3000:]}") from None

    def get(self, path: str, token: str = "") -> Any:
        req = urllib.request.Request(self.url + TABLES + path,
                                     headers={"X-Crazylab-Token": token} if token else {})
        return self._open(req)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    tmp = Path(tempfile.mkdtemp(prefix="crazylab-tables-"))
    s = Server(tmp)
    s.start()
    yield s
    s.stop()


# --------------------------------------------------------------------------- browsers

class Learner:
    """One learner's browser: its page, every websocket frame it received, its DOM snapshots."""

    def __init__(self, browser: Any, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.doms: list[tuple[int, str]] = []  # (the version it shows, the page's HTML)
        self.errors = page_errors(self.page)
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def dom(self) -> None:
        """Keep the page's HTML, with the table version this browser was last sent."""
        version, html = self.page.evaluate(  # both at once: no frame can come in between
            "() => [window.crazylabTable.version, document.documentElement.outerHTML]")
        self.doms.append((int(version), html))

    @property
    def seat(self) -> int:
        return int(self.page.locator(".st-page").get_attribute("data-seat") or -1)

    def hand(self) -> list[str]:
        return self.page.locator(".cl-hand .cl-card").evaluate_all(
            "els => els.map(e => e.dataset.card)")

    def over(self) -> bool:
        return self.page.evaluate(
            "() => { const r = document.querySelector('.cl-table');"
            " return !!r && r.dataset.over === 'true'; }")

    def my_turn(self) -> bool:
        return self.page.evaluate(
            "() => !!document.querySelector('.cl-table') && (" + YOUR_TURN + ")()") \
            and not self.over()

    def version(self) -> int:
        return int(self.page.evaluate("() => window.crazylabTable.version"))

    def wait_table(self, timeout: float = 30_000) -> None:
        self.page.wait_for_selector(".cl-table[data-seq] .cl-hand", timeout=timeout)
        self.page.wait_for_function("() => document.querySelector('.cl-table').dataset.seq"
                                    " !== undefined && window.crazylabTable.version >= 0",
                                    timeout=timeout)


def open_table(server: Server, host: Learner, guests: list[Learner], *, seats: int,
               bots: int, options: str = "", klass: str = "") -> str:
    """The host opens a table in the lobby (of the class ``klass``, typed in), the guests join
    it by its code, the host fills the rest with bots and starts. Returns the join code."""
    p = host.page
    p.goto(f"{server.url}{TABLES}?delay={BOT_DELAY}")  # the bots' pace, for the test
    p.select_option('#create [name="rules"]', RULES)
    p.select_option('#create [name="seats"]', str(seats))
    if options:
        p.click(".st-house summary")
        p.fill('#create [name="options"]', options)
    p.fill('#create [name="name"]', host.name)
    if klass:
        p.fill('#create [name="class"]', klass)
    p.click('#create button[type="submit"]')
    p.wait_for_url(re.compile(r"/crazylab/tables/t/[A-Z0-9]{8}$"))
    code = p.url.rsplit("/", 1)[1]
    p.wait_for_selector(".st-code")
    assert code in p.locator(".st-share").inner_text()
    assert code not in json.dumps(p.evaluate("() => location.search + location.hash"))
    for g in guests:  # by keyboard only: the code typed as it comes, Tab, the name, Enter
        g.page.goto(server.url + TABLES)
        g.page.focus('#join [name="code"]')
        g.page.keyboard.type(code.lower())
        g.page.keyboard.press("Tab")
        g.page.keyboard.type(g.name)
        g.page.keyboard.press("Enter")
        g.page.wait_for_url(re.compile(rf"/t/{code}$"))
        g.page.wait_for_selector(f'.st-seat[data-seat="{guests.index(g) + 1}"]')
    want = 1 + len(guests)
    p.wait_for_function(f"() => document.querySelectorAll('.st-seat.st-learner').length === {want}")
    if bots:
        p.select_option("[data-fill-level]", "rules")
        p.click('[data-do="fill"]')
        p.wait_for_function(f"() => document.querySelectorAll('.st-seat.st-bot').length === {bots}")
    p.click('[data-do="start"]')
    for learner in [host, *guests]:
        learner.wait_table()
    return code


def play(learners: list[Learner], *, until_over: bool = True, moves: int | None = None,
         watch: bool = True, watchers: tuple[Learner, ...] | list[Learner] = ()) -> int:
    """Every learner moves on their turn, as a player would, until the hand is over (or
    ``moves`` moves were made). DOM snapshots of every browser are kept while it runs."""
    made, deadline = 0, time.monotonic() + HAND_TIMEOUT
    while time.monotonic() < deadline:
        if until_over and all(lr.over() for lr in learners):
            return made
        if moves is not None and made >= moves:
            return made
        moved = False
        for lr in learners:
            if lr.my_turn():
                human_step(lr.page)
                made += 1
                moved = True
                if watch:
                    for other in [*learners, *watchers]:
                        other.dom()
        if not moved:
            learners[0].page.wait_for_timeout(100)
    raise AssertionError(f"the hand did not end in {HAND_TIMEOUT:.0f} s (made {made} moves)")


def end_hands(learner: Learner) -> dict[int, list[str]]:
    """Seat -> the cards left in it at the end, from the end panel this browser was sent."""
    for raw in reversed(learner.frames):
        msg = json.loads(raw)
        for step in reversed(msg.get("steps") or []):
            if step.get("end"):
                return {h["seat"]: h["cards"] for h in step["end"]["hands"]}
        snap = msg.get("snapshot") or {}
        if (snap.get("view") or {}).get("end"):
            return {h["seat"]: h["cards"] for h in snap["view"]["end"]["hands"]}
    raise AssertionError(f"{learner.name} was sent no end of the hand")


def hands_by_version(db: Path, code: str) -> dict[int, list[set[str]]]:
    """Table version -> every seat's hand at that version, over the table's first hand,
    replayed from the moves the server stored (after the start, each move makes the next
    version, and nothing else does until a new hand is dealt)."""
    from crazylab.match import Match
    from crazylab.tables.service import rules_from_json
    from crazylab.tables.store import TableStore

    store = TableStore(f"sqlite:///{db}")
    try:
        row = next(r for r in store.load() if r.code == code)
        seed = store.deal_seed(row.seed)  # the stored nonce under the server's key file
    finally:
        store.close()
    assert row.hands == 1 and row.keyed, "a test table plays one hand, its deal keyed"
    game = Match(rules_from_json(row.rules), row.seats, seed=seed).game
    moves = [m for m in row.moves if m.hand == 1]
    assert moves, "the server stored no move"
    start = row.version - len(moves)
    out = {start: [{str(c) for c in h} for h in game.hands]}
    for k, m in enumerate(moves, 1):
        game.push(m.move, seat=m.seat)
        out[start + k] = [{str(c) for c in h} for h in game.hands]
    assert game.over, "the stored moves do not end the hand"
    return out


def before_the_end(frames: list[str]) -> list[str]:
    """The frames received before the one that ended the hand (which shows every hand)."""
    out = []
    for raw in frames:
        if '"end": {' in raw or '"end":{' in raw or '"over": true' in raw:
            break
        out.append(raw)
    return out


def assert_no_other_cards(learner: Learner, hands: dict[int, list[set[str]]]) -> None:
    """No frame and no DOM snapshot of ``learner`` (before the end of the hand) holds a card
    that was in another seat's hand at that moment (the table's version): not as a code, and
    the page not as the card's name either."""
    from crazylab.engine.cards import Card

    seat = learner.seat
    checked = 0

    def others(version: int) -> set[str]:
        assert version in hands, f"{learner.name} was sent version {version}: not of the hand"
        return {c for s, h in enumerate(hands[version]) if s != seat for c in h}

    frames = [json.loads(raw) for raw in before_the_end(learner.frames)]
    for msg in frames:
        if not (msg.get("steps") or msg.get("snapshot") or msg.get("type") == "public"):
            continue  # a lobby or a refusal: no card in it
        raw = json.dumps(msg)
        for code in others(int(msg["version"])):
            checked += 1
            assert f'"{code}"' not in raw, f"{learner.name} (seat {seat}) got {code}: {raw[:200]}"
    assert checked > 50, f"{learner.name}: only {checked} card checks on the frames"
    doms = [(v, d) for v, d in learner.doms if "cl-end-table" not in d]
    assert len(doms) > 5, f"{learner.name}: {len(doms)} DOM snapshots"
    for version, dom in doms:
        for code in others(version):
            assert f'"{code}"' not in dom, f"{learner.name}'s page shows {code}"
            assert Card.parse(code).name not in dom, f"{learner.name}'s page names {code}"


# --------------------------------------------------------------------------- the tests

def test_three_learners_and_a_bot_play_a_hand(server: Server, browser, screenshot) -> None:
    from crazylab.classroom import open_store

    store = open_store(f"sqlite:///{server.db}")
    made = store.create_class("Tables 4A")
    key = made.teacher_key
    store.close()
    ann, ben, cat = (Learner(browser, n) for n in ("Ann", "Ben", "Cat"))
    learners = [ann, ben, cat]
    code = open_table(server, ann, [ben, cat], seats=4, bots=1, klass=made.code.lower())
    assert [lr.seat for lr in learners] == [0, 1, 2]
    screenshot(ann.page, "tables_host_start")
    # the teacher watches with the class key: the public state only
    teacher = Learner(browser, "teacher")
    teacher.page.goto(f"{server.url}{TABLES}watch/{code}")
    teacher.page.fill(".st-watch-form input", "wrong key")
    teacher.page.click(".st-watch-form button")
    teacher.page.wait_for_function("() => document.querySelector('.st-refused').textContent")
    teacher.page.fill(".st-watch-form input", key)
    teacher.page.click(".st-watch-form button")
    teacher.page.wait_for_selector(".st-public .st-watch-seat")
    assert "Ben" in teacher.page.locator(".st-public").inner_text()

    # a few moves, then Ben reloads: same seat, same cards, and the hand goes on
    play(learners, until_over=False, moves=4, watchers=[teacher])
    ben_hand = ben.hand()
    ben.page.reload()
    ben.wait_table()
    assert ben.seat == 1
    assert ben.hand() == ben_hand, "the reloaded page shows another hand"
    assert "token" not in ben.page.url and code in ben.page.url
    screenshot(ben.page, "tables_after_reload")

    play(learners, watchers=[teacher])
    for lr in learners:
        assert lr.over()
        lr.dom()
    screenshot(cat.page, "tables_hand_over")
    teacher.page.wait_for_selector("text=the hand is over")
    screenshot(teacher.page, "tables_teacher_watch")
    # the teacher's overview of every table (watch/): this one, its public state and a link
    overview = teacher.context.new_page()
    overview.goto(f"{server.url}{TABLES}watch/")
    overview.fill(".st-watch-form input", key)
    overview.click(".st-watch-form button")
    card = overview.locator(f".st-class-table[data-code='{code}']")
    card.wait_for()
    assert "the hand is over" in card.inner_text() and "Ben" in card.inner_text()
    assert card.get_by_role("link", name=f"Watch table {code} live").count() == 1
    screenshot(overview, "tables_teacher_overview")
    overview.close()

    # each learner reviews the hand: their own seat's choices only (issue 32); the review's
    # page goes through the hidden-card check below with the rest of the learner's pages
    rated = 0
    for lr in (ann, ben):
        lr.page.click('.st-review [data-do="review"]')
        lr.page.wait_for_selector(".st-review-summary", timeout=120_000)
        assert "moves of yours" in lr.page.locator(".st-review-summary").inner_text()
        steps = lr.page.locator(".st-rv-step")
        rated += steps.count()
        if steps.count():
            assert lr.page.locator(".st-review-chart").count() == 1
            steps.first.click()
            lr.page.wait_for_function("() => document.querySelector('.st-review-position')"
                                      ".textContent.includes('your hand')")
        lr.dom()
    assert rated, "neither learner had a choice to review"
    screenshot(ann.page, "tables_review")

    left = end_hands(ann)
    assert sorted(left) == [0, 1, 2, 3]
    assert end_hands(ben) == left == end_hands(cat)
    # every seat's hand at every version, from the server's own move log
    hands = hands_by_version(server.db, code)
    last = hands[max(hands)]
    assert {s: sorted(c) for s, c in left.items()} == {s: sorted(h) for s, h in enumerate(last)}
    for lr in [*learners, teacher]:  # the teacher: no hand at all
        assert_no_other_cards(lr, hands)
        assert not lr.errors, f"{lr.name}: {lr.errors}"

    # the phone width: the table fits and can still be played by keyboard
    cat.page.set_viewport_size({"width": 390, "height": 844})
    width = cat.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width} px wide on a phone"
    screenshot(cat.page, "tables_phone")
    for lr in [*learners, teacher]:
        lr.context.close()


def test_forged_moves_are_refused(server: Server, browser, screenshot) -> None:
    ann, ben = Learner(browser, "Ann"), Learner(browser, "Ben")
    ben.page.set_viewport_size({"width": 390, "height": 844})  # Ben is on a phone
    code = open_table(server, ann, [ben], seats=2, bots=0, options="hand_size=7")
    assert len(ann.hand()) == len(ben.hand()) == 7, "the house option was not applied"
    width = ben.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 400, f"the table page is {width} px wide on a phone"
    learners = [ann, ben]
    waiting = ann if ben.my_turn() else ben
    mover = ben if waiting is ann else ann
    if not mover.my_turn():
        mover.page.wait_for_function("() => (" + YOUR_TURN + ")()")
    version = waiting.version()
    hand = waiting.hand()

    # a move out of turn, crafted in the page (the buttons would not even offer it)
    waiting.page.evaluate(
        "() => { const t = window.crazylabTable;"
        " t.ws.send(JSON.stringify({action: 'move', move: 'draw', version: t.version})); }")
    waiting.page.wait_for_function("() => document.querySelector('.st-refused').textContent")
    why = waiting.page.locator(".st-refused").inner_text()
    assert why and "\n" not in why.strip() and "Traceback" not in why
    screenshot(waiting.page, "tables_refused")

    # the mover's own move with an old version: stale, refused
    mover.page.evaluate(
        "() => { const t = window.crazylabTable;"
        " t.ws.send(JSON.stringify({action: 'move', move: 'draw', version: t.version - 1})); }")
    mover.page.wait_for_function("() => document.querySelector('.st-refused').textContent")
    assert mover.page.locator(".st-refused").inner_text().strip()
    mover.page.wait_for_timeout(500)
    assert waiting.version() == version and mover.version() == version, "a refused move counted"
    assert waiting.hand() == hand

    # a join to the full table, and to a code that is no table: one line each, no seat
    thief = Learner(browser, "Thief")
    for tried in (code, "ABCDEFGH" if code != "ABCDEFGH" else "HGFEDCBA"):
        thief.page.goto(server.url + TABLES)
        thief.page.fill('#join [name="code"]', tried)
        thief.page.fill('#join [name="name"]', "Thief")
        thief.page.click('#join button[type="submit"]')
        thief.page.wait_for_function("() => document.querySelector('.st-refused').textContent")
        line = thief.page.locator(".st-refused").inner_text().strip()
        assert line and "\n" not in line and "Traceback" not in line, line
        assert thief.page.url.endswith(TABLES)
    # a house option the rules do not have: one line, no table
    thief.page.goto(server.url + TABLES)
    thief.page.click(".st-house summary")
    thief.page.fill('#create [name="options"]', "hand_size=banana")
    thief.page.fill('#create [name="name"]', "Thief")
    thief.page.click('#create button[type="submit"]')
    thief.page.wait_for_function("() => document.querySelector('.st-refused').textContent")
    line = thief.page.locator(".st-refused").inner_text().strip()
    assert "hand_size" in line and "\n" not in line and "Traceback" not in line, line
    assert thief.page.url.endswith(TABLES)
    # a forged seat token: no seat, no view, the join form instead
    thief.context.add_init_script(
        f"localStorage.setItem('crazylab.table.{code}', JSON.stringify({{token: 'forged-'"
        f" + 'x'.repeat(30), seat: 0}}))")
    thief.page.goto(f"{server.url}{TABLES}t/{code}")
    thief.page.wait_for_selector(".st-join:not([hidden])", timeout=15_000)
    thief.page.wait_for_timeout(500)
    assert not thief.page.locator(".cl-hand").count()
    assert not any('"snapshot": {' in f or '"steps"' in f for f in thief.frames)

    # the table plays on: the mover's real move is applied (a card may open a chooser first)
    for _ in range(4):
        if mover.version() > version:
            break
        if mover.page.evaluate("() => (" + YOUR_TURN + ")()"):
            human_step(mover.page)
        else:
            mover.page.wait_for_timeout(500)  # an answer on its way (the refusals' syncs)
    waiting.page.wait_for_function(f"() => window.crazylabTable.version > {version}")
    for lr in [*learners, thief]:
        lr.context.close()


def test_the_server_restarts_mid_hand(server: Server, browser, screenshot) -> None:
    ann, ben, cat = (Learner(browser, n) for n in ("Ann", "Ben", "Cat"))
    learners = [ann, ben, cat]
    open_table(server, ann, [ben, cat], seats=4, bots=1)
    play(learners, until_over=False, moves=3, watch=False)
    hands = {lr.name: lr.hand() for lr in learners}
    version = max(lr.version() for lr in learners)

    server.stop()
    ann.page.wait_for_function("() => document.querySelector('.st-page').dataset.conn === 'lost'",
                               timeout=15_000)
    screenshot(ann.page, "tables_server_gone")
    server.start()
    for lr in learners:
        lr.page.wait_for_function(
            "() => document.querySelector('.st-page').dataset.conn === 'open'", timeout=60_000)
        lr.wait_table()
    assert {lr.name: lr.hand() for lr in learners} == hands, "the restored hands differ"
    assert min(lr.version() for lr in learners) >= version

    play(learners, watch=False)
    screenshot(ann.page, "tables_after_restart_over")
    assert all(lr.over() for lr in learners)
    for lr in learners:
        lr.context.close()


def expected_standings(results: list[dict[str, int]], wins: list[str]) -> dict[str, tuple]:
    """player -> (points, wins, hands, Buchholz) from the hands' own results (one dict of
    name -> hand score per hand; a table plays one hand here). Buchholz: for every table a
    player sat at, the final points of each other player there, summed."""
    points: dict[str, int] = {}
    hands: dict[str, int] = {}
    for res in results:
        for name, score in res.items():
            points[name] = points.get(name, 0) + score
            hands[name] = hands.get(name, 0) + 1
    buchholz = {name: sum(points[o] for res in results if name in res for o in res if o != name)
                for name in points}
    return {n: (points[n], wins.count(n), hands[n], buchholz[n]) for n in points}


def test_round_robin_tournament_standings(server: Server, browser, screenshot) -> None:
    from crazylab.classroom import open_store

    store = open_store(f"sqlite:///{server.db}")
    klass = store.create_class("Tables 4B")
    store.close()
    names = ["Ann", "Ben", "Cat", "Dan"]
    t = server.post("tournament", {"class": klass.code, "players": names,
                                   "format": "round_robin", "rounds": 2, "hands": 1,
                                   "table_size": 2, "rules": RULES}, key=klass.teacher_key)
    tid = t["id"]
    players = {n: Learner(browser, n) for n in names}
    watcher = Learner(browser, "teacher")
    watcher.page.goto(f"{server.url}{TABLES}tournament/{tid}")
    watcher.page.wait_for_selector("main[data-loaded='true']")

    results: list[dict[str, int]] = []
    winners: list[str] = []
    for rnd in (1, 2):
        server.post(f"tournament/{tid}/round", {}, key=klass.teacher_key)
        tables: dict[str, list[Learner]] = {}
        for name, lr in players.items():
            # the player opens the standings page and goes to their table with their token
            # (typed in round 1, kept by the browser for round 2)
            lr.page.goto(f"{server.url}{TABLES}tournament/{tid}")
            if rnd == 1:
                lr.page.fill('.st-mine [name="player"]', name)
                if name == "Ann":  # another player's token is no seat of Ann's
                    lr.page.fill('.st-mine [name="token"]', t["tokens"]["Ben"])
                    lr.page.click(".st-mine button")
                    lr.page.wait_for_function(
                        "() => document.querySelector('.st-refused').textContent")
                    assert "/tournament/" in lr.page.url
                lr.page.fill('.st-mine [name="token"]', t["tokens"][name])
            else:
                assert lr.page.input_value('.st-mine [name="token"]') == t["tokens"][name]
            lr.page.click(".st-mine button")
            lr.page.wait_for_url(re.compile(r"/crazylab/tables/t/[A-Z0-9]{8}$"))
            assert t["tokens"][name] not in lr.page.url
            tables.setdefault(lr.page.url.rsplit("/", 1)[1], []).append(lr)
        assert sorted(len(v) for v in tables.values()) == [2, 2], tables
        for lr in players.values():
            lr.wait_table()
        for table in tables.values():
            play(table, watch=False)
            hands = end_hands(table[0])
            frame = next(json.loads(f) for f in reversed(table[0].frames) if '"end"' in f)
            end = next(s["end"] for s in reversed(frame.get("steps") or [frame["snapshot"]["view"]])
                       if s.get("end"))
            results.append({h["name"]: h["score"] for h in end["hands"]})
            winners += [h["name"] for h in end["hands"] if h["winner"]]
            assert len(hands) == 2
        screenshot(players["Ann"].page, f"tables_tournament_round{rnd}")

    want = expected_standings(results, winners)
    assert sorted(want) == sorted(names) and all(v[2] == 2 for v in want.values())
    assert len(results) == 4  # a blocked hand has no winner
    page = watcher.page
    page.wait_for_function("() => document.querySelector('main').dataset.round == '2'"
                           " && document.querySelectorAll('.st-standings tbody tr').length === 4",
                           timeout=20_000)
    page.wait_for_timeout(2500)  # one more poll after the last hand
    rows = page.locator(".st-standings tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))")
    shown = {r[1]: (int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows}
    assert shown == want, f"the page shows {shown}, the hands say {want}"
    # ranked by points, then wins, then Buchholz (head to head and name only break what is
    # left, which these keys leave in either order)
    keys = [(want[r[1]][0], want[r[1]][1], want[r[1]][3]) for r in rows]
    assert keys == sorted(keys, reverse=True), f"standings out of order: {rows}"
    tables = page.locator(".st-round-tables li").all_inner_texts()
    assert len(tables) == 4 and all("finished" in t for t in tables), tables
    assert "round 2 of 2" in page.locator(".st-summary").inner_text()
    screenshot(page, "tables_tournament_standings")
    for lr in [*players.values(), watcher]:
        lr.context.close()

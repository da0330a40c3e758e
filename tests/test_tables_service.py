"""The table service (crazylab.tables): whole journeys on a SQLite file and on PostgreSQL.

Tables made, joined, filled with bots and played to the end through the service; every
refusal (another seat, out of turn, stale version, forged token, full table, unknown code,
an illegal card) is one line and changes nothing (version, game, rows); two moves at once;
codes, tokens and what the database keeps; rate limits; a learner away and back; a restart
mid-hand; and what a spectator and each seat may see."""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from crazylab.classroom.store import open_store
from crazylab.engine.cards import Card
from crazylab.store import schema
from crazylab.tables import (
    CODE_ALPHABET,
    BadMove,
    BadToken,
    NotHost,
    NotYourTurn,
    RateLimited,
    SeatTicket,
    StaleMove,
    TableError,
    TableFull,
    TableService,
    UnknownTable,
)
from crazylab.tables.service import JOINS_PER_MINUTE as JOINS

pytestmark = pytest.mark.engine

TABLE_ROWS = ("game_tables", "table_seats", "table_moves")


class Clock:
    """A clock the test moves (the rate limits and the idle time read it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db' / 'tables.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db_url, clock) -> Iterator[TableService]:
    s = TableService(db_url, idle_after=60.0, clock=clock)
    yield s
    s.close()


def rows(service: TableService) -> dict[str, list[tuple]]:
    """Every row of the tables' tables, sorted (what the database holds)."""
    with service.store.db.engine.connect() as conn:
        found = {name: [tuple(r) for r in conn.execute(
            sa.select(schema.metadata.tables[name]))] for name in TABLE_ROWS}
    found["table_moves"].sort(key=lambda r: (r[0], r[1], r[2]))  # code, hand, ply
    found["game_tables"].sort(key=repr)
    found["table_seats"].sort(key=repr)
    return found


def snapshot(service: TableService, code: str) -> tuple:
    st = service.state(code)
    return (st.version, st.started, tuple(st.names), tuple(st.kinds),
            st.match.game.fingerprint(), len(st.match.hands), repr(rows(service)))


def table_of(service: TableService, clock: Clock, seats: int = 4, bots: int = 1,
             rules: str = "crazy-eights") -> list[SeatTicket]:
    """A started table: the host, ``seats - bots - 1`` classmates, then bots."""
    host = service.create(rules, seats, "Ana", who="10.0.0.1")
    tickets = [host]
    for k in range(seats - bots - 1):
        tickets.append(service.join(host.code.lower(), f"Learner {k + 1}", who="10.0.0.2"))
    for seat in range(seats - bots, seats):
        service.set_bot(host.token, seat, "rules")
    service.start(host.token)
    for t in tickets:
        service.present(t.token, True)
    return tickets


def play(service: TableService, clock: Clock, tickets: list[SeatTicket], rng: random.Random,
         *, until: int | None = None, check: Any = None) -> int:
    """Play the hand through the service until it is over (or ``until`` moves were made):
    learners by random legal moves of their own observation, bots by ``bot_step``."""
    by_seat = {t.seat: t for t in tickets}
    code = tickets[0].code
    made = 0
    while until is None or made < until:
        st = service.state(code)
        game = st.match.game
        if game.over:
            break
        seat = game.to_play
        before = st.version
        if st.kinds[seat] in ("bot", "away"):
            assert service.next_bot(code) == 0.0
            assert service.bot_step(code) is True
        else:
            assert service.bot_step(code) is False  # a learner here: no bot plays for them
            obs = game.observation(seat)
            assert obs.legal, "the seat to play has a legal move"
            move = rng.choice(obs.legal)
            clock.tick(0.2)
            assert service.move(by_seat[seat].token, str(move), version=before) == before + 1
        after = service.state(code)
        assert after.version == before + 1
        assert after.match.game.moves[-1] is not None
        if check is not None:
            check(after)
        made += 1
    return made


# --------------------------------------------------------------------------- journeys


def test_a_hand_is_played_to_the_end_through_the_service(service, clock):
    host = service.create("crazy-eights", 4, "Ana", who="a")
    assert (host.seat, host.name) == (0, "Ana")
    st = service.state(host.code)
    assert (st.kinds, st.started, st.version, st.host) == (
        ["learner", "empty", "empty", "empty"], False, 1, 0)
    ben = service.join(host.code, "  Ben  ", who="b")
    cleo = service.join(host.code, "Cleo", who="c")
    assert (ben.seat, ben.name, cleo.seat) == (1, "Ben", 2)
    with pytest.raises(TableError, match="seat 3 is empty"):
        service.start(host.token)
    service.set_bot(host.token, 3, "random")
    service.set_bot(host.token, 3, "rules")  # changed its mind
    st = service.state(host.code)
    assert st.names == ["Ana", "Ben", "Cleo", "Bot (rules)"]
    assert st.kinds == ["learner", "learner", "learner", "bot"]
    assert st.levels == [None, None, None, "rules"]
    assert st.version == 5
    with pytest.raises(TableError, match="not started"):
        service.move(host.token, "draw", version=5)
    seen: list[int] = []
    stop = service.subscribe(host.code, seen.append)
    service.start(host.token)
    assert service.state(host.code).started and seen == [6]
    for t in (host, ben, cleo):
        service.present(t.token, True)

    tickets = [host, ben, cleo]
    rng = random.Random(7)
    made = play(service, clock, tickets, rng)
    st = service.state(host.code)
    game = st.match.game
    assert game.over and made == len(game.moves) and st.version == 6 + made
    assert seen[-1] == st.version and len(seen) >= made
    stop()
    # the database holds each move as made, by the seat that was to play
    stored = rows(service)["table_moves"]
    assert [(r[1], r[2], r[4]) for r in stored] == [(1, k, str(m))
                                                   for k, m in enumerate(game.moves)]
    from crazylab.engine.game import Game
    replay = Game.new(game.rules, 4, game.seed, dealer=game.dealer)
    for r in stored:
        assert replay.to_play == r[3]
        replay.push(r[4], seat=r[3])
    assert replay.fingerprint() == game.fingerprint()
    # the next hand: host only, once this one is over
    with pytest.raises(NotHost):
        service.new_hand(ben.token)
    service.new_hand(host.token)
    st = service.state(host.code)
    assert len(st.match.hands) == 2 and not st.match.game.over
    void = game.end_reason == "VOID" and game.rules.void_hand_dealer == "same"
    assert st.match.game.dealer == (game.dealer if void else (game.dealer + 1) % 4)
    with pytest.raises(TableError, match="not over"):
        service.new_hand(host.token)


def test_refusals_are_one_line_and_change_nothing(service, clock):
    host, ben = table_of(service, clock, seats=3, bots=1)[:2]
    code = host.code
    state = service.state(code)
    game = state.match.game
    to_play = {0: host, 1: ben}.get(game.to_play)
    while to_play is None:  # the bot first: let it move
        service.bot_step(code)
        game = service.state(code).match.game
        to_play = {0: host, 1: ben}.get(game.to_play)
    other = ben if to_play is host else host
    version = service.state(code).version
    legal = str(game.observation(to_play.seat).legal[0])
    not_mine = next(c for c in game.rules.deck if c not in game.hand(to_play.seat))
    bogus_token = "x" * 32
    cases: list[tuple[type[TableError], Any]] = [
        (NotYourTurn, lambda: service.move(other.token, legal, version=version)),
        (NotYourTurn, lambda: service.move(other.token, "draw", version=version)),
        (StaleMove, lambda: service.move(to_play.token, legal, version=version - 1)),
        (StaleMove, lambda: service.move(to_play.token, legal, version=version + 1)),
        (StaleMove, lambda: service.move(to_play.token, legal, version="7")),
        (BadToken, lambda: service.move(bogus_token, legal, version=version)),
        (BadToken, lambda: service.move(to_play.token + "x", legal, version=version)),
        (BadToken, lambda: service.move(None, legal, version=version)),
        (BadToken, lambda: service.seat_of("forged-token-0123456789")),
        (BadMove, lambda: service.move(to_play.token, str(not_mine), version=version)),
        (BadMove, lambda: service.move(to_play.token, "nonsense", version=version)),
        (BadMove, lambda: service.move(to_play.token, "", version=version)),
        (BadMove, lambda: service.move(to_play.token, "8S" * 100, version=version)),
        (TableFull, lambda: service.join(code, "Dan")),
        (UnknownTable, lambda: service.join("ZZZZZZZZ", "Dan")),
        (UnknownTable, lambda: service.join("not a code at all", "Dan")),
        (UnknownTable, lambda: service.join(None, "Dan")),
        (UnknownTable, lambda: service.state("ZZZZZZZZ")),
        (UnknownTable, lambda: service.public("ZZZZZZZZ")),
        (UnknownTable, lambda: service.bot_step("ZZZZZZZZ")),
        (NotHost, lambda: service.set_bot(ben.token, 2, "mc")),
        (NotHost, lambda: service.start(ben.token)),
        (NotHost, lambda: service.new_hand(ben.token)),
        (TableError, lambda: service.set_bot(host.token, 2, "mc")),  # started
        (TableError, lambda: service.start(host.token)),  # already started
        (TableError, lambda: service.new_hand(host.token)),  # the hand goes on
    ]
    before = snapshot(service, code)
    for kind, call in cases:
        with pytest.raises(kind) as info:
            call()
        message = str(info.value)
        assert message and "\n" not in message and len(message) < 300, message
        assert snapshot(service, code) == before, message
    # the unknown and the malformed code get the same answer: a guesser learns nothing
    answers = set()
    for bad in ("ZZZZZZZZ", "nope", code[:-1] + ("A" if code[-1] != "A" else "B")):
        with pytest.raises(UnknownTable) as info:
            service.join(bad, "Dan", who=f"guess-{bad}")
        answers.add(str(info.value))
    assert len(answers) == 1
    # a wrong card says why, in the engine's words
    clock.tick(1.0)  # past the moves' rate limit
    with pytest.raises(BadMove, match="do not hold"):
        service.move(to_play.token, str(not_mine), version=version)
    # and the right move still goes through
    assert service.move(to_play.token, legal, version=version) == version + 1


def test_creating_and_seating_refuse_bad_input(service, clock):
    for args, pattern in [(("no-such-rules", 3, "Ana"), "unknown rule set"),
                          (("crazy-eights", 1, "Ana"), "2 to 5 seats"),
                          (("crazy-eights", 6, "Ana"), "2 to 5 seats"),
                          (("crazy-8s-music", 5, "Ana"), "2 to 4 seats"),
                          (("crazy-eights", True, "Ana"), "seats"),
                          (("crazy-eights", 3, ""), "name"),
                          (("crazy-eights", 3, "x" * 41), "name"),
                          (("crazy-eights", 3, 7), "name")]:
        with pytest.raises(TableError, match=pattern):
            service.create(*args)
    assert service.tables() == [] and rows(service)["game_tables"] == []
    host = service.create("crazy-eights", 3, "Ana")
    ben = service.join(host.code, "Ben")
    before = snapshot(service, host.code)
    for call, pattern in [(lambda: service.set_bot(host.token, 1, "rules"), "taken by Ben"),
                          (lambda: service.set_bot(host.token, 2, "genius"), "unknown bot"),
                          (lambda: service.set_bot(host.token, 3, "rules"), "seat must be"),
                          (lambda: service.join(host.code, "\x00bad"), "name")]:
        with pytest.raises(TableError, match=pattern):
            call()
        assert snapshot(service, host.code) == before
    assert service.seat_of(ben.token) == ben


def test_house_rules_are_kept(service, clock, db_url):
    from crazylab.engine.rules import rules

    house = rules("crazy-eights", draw_rule="one", jokers=2)
    host = service.create(house, 2, "Ana")
    service.set_bot(host.token, 1, "random")
    service.start(host.token)
    assert service.state(host.code).rules == house
    from crazylab.engine.rules import RuleSet
    with pytest.raises(TableError, match="preset"):
        service.create(RuleSet("my-own"), 2, "Ana")
    service.close()  # restarted: the next service reads the house rules back
    again = TableService(db_url, clock=clock)
    try:
        assert again.state(host.code).rules == house
    finally:
        again.close()


def test_two_moves_at_the_same_version_one_is_applied(service, clock):
    tickets = table_of(service, clock, seats=2, bots=0)
    code = tickets[0].code
    for _ in range(5):
        st = service.state(code)
        game = st.match.game
        seat = game.to_play
        legal = [str(m) for m in game.observation(seat).legal]
        token = tickets[seat].token
        barrier = threading.Barrier(2)
        results: list[object] = []

        def submit(move: str, version: int = st.version, token: str = token,
                   barrier: threading.Barrier = barrier, results: list = results) -> None:
            barrier.wait()
            try:
                results.append(service.move(token, move, version=version))
            except TableError as e:
                results.append(e)

        threads = [threading.Thread(target=submit, args=(legal[k % len(legal)],))
                   for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        applied = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, TableError)]
        assert applied == [st.version + 1], results
        assert len(refused) == 1 and isinstance(refused[0], StaleMove), results
        after = service.state(code)
        assert after.version == st.version + 1
        assert len(after.match.game.moves) == len(game.moves)  # the same live game
        assert len(rows(service)["table_moves"]) == len(after.match.game.moves)
        clock.tick(1.0)
        if after.match.game.over:
            break


# --------------------------------------------------------------------------- secrets


def test_codes_and_tokens_are_random_and_only_hashes_are_stored(tmp_path, clock):
    path = tmp_path / "tables.db"
    service = TableService(f"sqlite:///{path}", clock=clock)
    tickets = []
    for k in range(12):
        clock.tick(10)  # under the joins' rate limit
        host = service.create("crazy-eights", 2, f"Host {k}", who="teacher")
        tickets += [host, service.join(host.code, f"Guest {k}", who="teacher")]
    codes = {t.code for t in tickets}
    assert len(codes) == 12
    for code in codes:
        assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert set(CODE_ALPHABET) == set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    tokens = [t.token for t in tickets]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) == 32 for t in tokens)  # token_urlsafe(24): 192 bits
    service.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    for token in tokens:
        assert token.encode() not in data
    stored = {r.token_hash for r in sa.create_engine(f"sqlite:///{path}").connect().execute(
        sa.select(schema.table_seats.c.token_hash))}
    assert stored == {hashlib.sha256(t.encode()).hexdigest() for t in tokens}
    # the code's characters vary over the alphabet (not a counter, not one fixed letter)
    letters = "".join(codes)
    assert len(set(letters)) > 15


def test_the_database_alone_shows_no_hand(tmp_path, clock, monkeypatch):
    """A table's deal is keyed by the server's secret, kept outside the database (a key file
    beside it, its owner's alone): the stored seed deals other hands; the service, and a
    restarted service, deal the table's own."""
    import os

    from crazylab.match import Match
    from crazylab.tables.service import rules_from_json
    from crazylab.tables.store import TableStore

    monkeypatch.delenv("CRAZYLAB_SERVER_SECRET", raising=False)
    path = tmp_path / "tables.db"
    service = TableService(f"sqlite:///{path}", clock=clock)
    host = service.create("crazy-eights", 2, "Ada", who="teacher")
    service.join(host.code, "Bo", who="teacher")
    service.start(host.token)
    hands = [sorted(map(str, h)) for h in service.state(host.code).match.game.hands]
    service.close()
    key = path.with_name(path.name + ".key")
    assert key.is_file() and os.stat(key).st_mode & 0o777 == 0o600
    store = TableStore(f"sqlite:///{path}")
    [row] = store.load()
    assert row.keyed
    from_db = Match(rules_from_json(row.rules), row.seats, seed=row.seed).game
    assert [sorted(map(str, h)) for h in from_db.hands] != hands  # the nonce deals other cards
    keyed_game = Match(rules_from_json(row.rules), row.seats,
                       seed=store.deal_seed(row.seed)).game
    assert [sorted(map(str, h)) for h in keyed_game.hands] == hands
    store.close()
    again = TableService(f"sqlite:///{path}", clock=clock)
    assert [sorted(map(str, h)) for h in again.state(host.code).match.game.hands] == hands
    again.close()
    key.write_text("another server's key")  # the file goes with the server, not the database
    other = TableService(f"sqlite:///{path}", clock=clock)
    assert [sorted(map(str, h)) for h in other.state(host.code).match.game.hands] != hands
    other.close()


# --------------------------------------------------------------------------- rate limits


def test_joins_and_moves_are_rate_limited(service, clock):
    host = service.create("crazy-eights", 5, "Ana", who="room-1")
    for k in range(3):
        service.join(host.code, f"L{k}", who="room-1")
    for _ in range(16):  # 20 a minute: the create, 3 joins and 16 guesses
        with pytest.raises(UnknownTable):
            service.join("ZZZZZZZZ", "Guess", who="room-1")
    before = snapshot(service, host.code)
    with pytest.raises(RateLimited) as info:
        service.join(host.code, "Late", who="room-1")
    assert 0 < info.value.retry_after <= 60 and "try again" in str(info.value)
    assert snapshot(service, host.code) == before
    last = service.join(host.code, "Other room", who="room-2")  # another client is not
    assert last.seat == 4
    for k in range(JOINS + 5):  # nor a caller inside the process (a tournament): who=""
        service.create("crazy-eights", 2, f"Round {k}")
    clock.tick(61)
    with pytest.raises(TableFull):
        service.join(host.code, "Late", who="room-1")

    tickets = table_of(service, clock, seats=2, bots=0)
    code = tickets[0].code
    st = service.state(code)
    token = tickets[st.match.game.to_play].token
    for _ in range(10):  # stale moves count too: a flood is a flood
        with pytest.raises(StaleMove):
            service.move(token, "draw", version=0)
    before = snapshot(service, code)
    legal = str(st.match.game.observation(st.match.game.to_play).legal[0])
    with pytest.raises(RateLimited) as info:
        service.move(token, legal, version=st.version)
    assert 0 < info.value.retry_after <= 1
    assert snapshot(service, code) == before
    clock.tick(info.value.retry_after)
    assert service.move(token, legal, version=st.version) == st.version + 1


# --------------------------------------------------------------------------- idle


def test_an_idle_seat_is_played_by_a_bot_until_taken_back(service, clock):
    tickets = table_of(service, clock, seats=3, bots=1)
    code = tickets[0].code
    ben = tickets[1]
    rng = random.Random(3)
    # play until it is Ben's turn
    while service.state(code).match.game.to_play != ben.seat:
        assert play(service, clock, tickets, rng, until=1) == 1
    st = service.state(code)
    service.present(ben.token, False)
    clock.tick(30)
    assert service.next_bot(code) == pytest.approx(30.0, abs=0.01)
    assert service.bot_step(code) is False  # gone, but not for long yet
    assert service.state(code).version == st.version
    clock.tick(31)
    assert service.state(code).kinds[ben.seat] == "away"
    assert service.next_bot(code) == 0.0
    assert service.bot_step(code) is True  # a bot plays Ben's turn
    assert service.state(code).version == st.version + 1
    stored = rows(service)["table_moves"]
    assert max(stored, key=lambda r: r[2])[3] == ben.seat
    # back: still away until the seat is taken back, and the bot plays it meanwhile
    service.present(ben.token, True)
    assert service.state(code).kinds[ben.seat] == "away"
    seen: list[int] = []
    service.subscribe(code, seen.append)
    service.take_back(ben.token)
    assert service.state(code).kinds[ben.seat] == "learner" and seen
    assert service.state(code).version == st.version + 1  # presence is not a move
    while not service.state(code).match.game.over \
            and service.state(code).match.game.to_play != ben.seat:
        play(service, clock, tickets, rng, until=1)
    if not service.state(code).match.game.over:
        assert service.next_bot(code) is None
        assert service.bot_step(code) is False  # Ben's own turn again


def test_a_host_who_leaves_between_hands_is_stood_in_for(service, clock, db_url):
    """A tournament's table must not stall when its host leaves: once the host has been gone
    ``idle_after``, the next hand is dealt for them and their seat is played by a bot."""
    tickets = table_of(service, clock, seats=3, bots=1)
    host = tickets[0]
    code = host.code
    rng = random.Random(8)
    play(service, clock, tickets, rng)  # the first hand, to its end
    st = service.state(code)
    assert st.match.game.over and not st.match.over
    hands = len(st.match.hands)  # the state's match is the live one
    # the host is here: the host says when the next hand is dealt
    assert service.next_bot(code) is None and service.bot_step(code) is False
    service.present(host.token, False)
    clock.tick(30)
    assert service.next_bot(code) == pytest.approx(30.0, abs=0.01)
    assert service.bot_step(code) is False  # gone, but not for long yet
    assert service.state(code).version == st.version
    clock.tick(31)
    assert service.next_bot(code) == 0.0
    assert service.bot_step(code) is True  # dealt for the host
    after = service.state(code)
    assert after.version == st.version + 1 and len(after.match.hands) == hands + 1
    assert not after.match.game.over and after.kinds[host.seat] == "away"
    with pytest.raises(TableError, match="not over"):  # and only once
        service.new_hand(host.token)
    bot_to_play = after.match.game.to_play != tickets[1].seat  # the host's seat or the bot's
    assert service.bot_step(code) is bot_to_play
    # the hand goes on, the host's turns played by the bot; a restart deals the same hand
    play(service, clock, tickets, rng, until=5)
    mid = service.state(code)
    seen = (mid.version, mid.match.game.fingerprint(), len(mid.match.hands))
    service.close()  # the service restarts
    again = TableService.restore(db_url, clock=clock)
    try:
        back = again.state(code)
        assert (back.version, back.match.game.fingerprint(), len(back.match.hands)) == seen
    finally:
        again.close()


# --------------------------------------------------------------------------- restart


def test_a_restarted_service_restores_every_table_mid_hand(db_url, clock):
    first = TableService(db_url, clock=clock)
    rng = random.Random(11)
    tables = [table_of(first, clock, seats=n, bots=b) for n, b in ((2, 0), (3, 1), (4, 2))]
    for tickets in tables:
        play(first, clock, tickets, rng, until=7)
    lobby = first.create("crazy-eights-quick", 3, "Zoe")  # one not started yet
    first.join(lobby.code, "Yann")

    def seen_by(service: TableService, code: str) -> list[tuple]:
        st = service.state(code)
        game = st.match.game
        return [(st.version, st.names, st.started, repr(game.observation(k)),
                 game.observation(k).hand, game.observation(k).legal,
                 game.observation(k).events, game.scores)
                for k in range(game.n)]

    before = {code: seen_by(first, code) for code in first.tables()}
    spectators = {code: first.public(code) for code in first.tables()}
    first.close()  # the service stops mid-hand

    second = TableService.restore(db_url, clock=clock)
    try:
        assert sorted(second.tables()) == sorted(before)
        for code, views in before.items():
            assert seen_by(second, code) == views
            assert second.public(code) == spectators[code]
        # the same tokens find the same seats, and every hand plays on to its end
        for tickets in tables:
            for t in tickets:
                assert second.seat_of(t.token) == t
                second.present(t.token, True)
            play(second, clock, tickets, rng)
            assert second.state(tickets[0].code).match.game.over
        assert second.state(lobby.code).kinds == ["learner", "learner", "empty"]
        # and a third start sees the finished hands as they ended
        final = {t[0].code: second.state(t[0].code).match.game.fingerprint() for t in tables}
    finally:
        second.close()
    third = TableService(db_url, clock=clock)
    try:
        for code, fingerprint in final.items():
            assert third.state(code).match.game.fingerprint() == fingerprint
    finally:
        third.close()


# --------------------------------------------------------------------------- who sees what


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def test_spectators_never_see_a_hand_and_seats_see_only_their_own(service, clock):
    tickets = table_of(service, clock, seats=4, bots=2)
    code = tickets[0].code
    checked = [0]

    def check(state) -> None:
        game = state.match.game
        frame = service.public(code)
        json.dumps(frame)  # a frame is JSON
        if game.over:
            assert frame["hands"] == [[str(c) for c in game.hand(k)] for k in range(game.n)]
            return
        assert "hands" not in frame
        assert frame["counts"] == [len(game.hand(k)) for k in range(game.n)]
        # what was ever shown face up is public; any other card in a hand must not appear
        shown: set[Card] = set()
        for e in game.events:
            shown.update(e.visible_to(game.n).cards)
        texts = list(_strings(frame))
        blob = "\n".join(texts)
        for seat in range(game.n):
            for c in game.hand(seat):
                if c in shown:
                    continue
                assert str(c) not in texts, (c, seat)  # a card code as a value
                assert c.display not in blob, (c, seat)  # as the log writes it
        # each seat's observation: its own hand only, others' draws hidden
        for seat in range(game.n):
            obs = game.observation(seat)
            assert sorted(obs.hand) == sorted(game.hand(seat))
            for e in obs.events:
                if e.private and e.seat != seat:
                    assert e.cards == ()
        checked[0] += 1

    play(service, clock, tickets, random.Random(5), check=check)
    assert checked[0] > 5


def test_an_old_class_database_is_upgraded(tmp_path, clock):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        schema.migrate(conn, target=2)
        assert not sa.inspect(conn).has_table("game_tables")
    engine.dispose()
    classes = open_store(url)
    made = classes.create_class("Class 5B")
    classes.close()
    service = TableService(url, clock=clock)
    try:
        with service.store.db.engine.connect() as conn:
            assert schema.current_version(conn) == schema.VERSION == 7
        host = service.create("crazy-eights", 2, "Ana")
        assert service.state(host.code).version == 1
    finally:
        service.close()
    again = open_store(url)
    try:
        assert [c.code for c in again.classes()] == [made.code]
    finally:
        again.close()


def test_every_preset_is_played_and_restored_over_two_hands(tmp_path, clock):
    """Every move's text is stored and replayed to the same game, under every preset's rules
    (calls, piles, chains, specials), over two hands of the match."""
    from crazylab.engine.rules import PRESETS

    url = f"sqlite:///{tmp_path / 'presets.db'}"
    service = TableService(url, clock=clock)
    rng = random.Random(2)
    played = {}
    for name, r in PRESETS.items():
        host = service.create(name, 3 if r.max_players >= 3 else 2, "Ana")
        seats = service.state(host.code).match.players
        for seat in range(1, seats):
            service.set_bot(host.token, seat, "random")
        service.start(host.token)
        service.present(host.token, True)
        for hand in range(2):
            play(service, clock, [host], rng)
            if hand == 0 and not service.state(host.code).match.over:
                service.new_hand(host.token)
        st = service.state(host.code)
        played[host.code] = (st.version, [g.fingerprint() for g in st.match.hands],
                             list(st.match.scores))
    service.close()
    again = TableService(url, clock=clock)
    try:
        for code, (version, hands, scores) in played.items():
            st = again.state(code)
            assert (st.version, [g.fingerprint() for g in st.match.hands],
                    list(st.match.scores)) == (version, hands, scores), st.rules.name
    finally:
        again.close()


def test_a_bad_database_url_is_one_line(tmp_path):
    for url, pattern in [("nosuchdb://x", "cannot use the database"),
                         ("sqlite:///" + str(tmp_path / "file.txt" / "t.db"), "folder")]:
        (tmp_path / "file.txt").write_text("a file, not a folder")
        with pytest.raises(TableError) as info:
            TableService(url)
        assert "\n" not in str(info.value) and pattern in str(info.value)


def test_a_move_the_database_cannot_store_is_not_played(service, clock, monkeypatch):
    from crazylab.tables.store import StoreError

    tickets = table_of(service, clock, seats=2, bots=0)
    code = tickets[0].code
    st = service.state(code)
    seat = st.match.game.to_play
    legal = str(st.match.game.observation(seat).legal[0])
    before = snapshot(service, code)

    def down(*args: object) -> None:
        raise StoreError("the table database is unavailable (disk I/O error); nothing was "
                         "stored, try again")

    monkeypatch.setattr(service.store, "add_move", down)
    with pytest.raises(TableError, match="unavailable"):
        service.move(tickets[seat].token, legal, version=st.version)
    assert snapshot(service, code) == before  # the engine's move was taken back
    monkeypatch.undo()
    assert service.move(tickets[seat].token, legal, version=st.version) == st.version + 1


def test_a_second_service_on_one_database_refuses_to_start(db_url, clock):
    """Two table services on one database used to refuse every move of the second for ever
    (stale versions): now the second refuses to start, in one line, until the first stops."""
    first = TableService(db_url, clock=clock)
    host = first.create("crazy-eights", 2, "Ada", who="teacher")
    with pytest.raises(TableError, match="another tables service already serves") as refused:
        TableService(db_url, clock=clock)
    assert "\n" not in str(refused.value)
    assert first.state(host.code).names[0] == "Ada"  # the first goes on
    first.close()
    second = TableService(db_url, clock=clock)  # free again: it takes over every table
    assert second.state(host.code).names[0] == "Ada"
    second.close()

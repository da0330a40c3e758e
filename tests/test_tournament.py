"""A class tournament (crazylab.tables.tournament): pairings, standings and whole tournaments.

The pairings are checked as properties (round robin: every pair once, nobody twice in a
round; Swiss: no repeat meeting while a seating without one exists, byes); the standings
against numbers worked out by hand from hand-built results, each tie-break on its own; and
whole tournaments are played through the real table service (learners' random legal moves by
their seat tokens, bots by ``bot_step``), their standings compared with those computed here
from the matches' own scores. Every refusal is one line and changes nothing."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

import crazylab
from crazylab.classroom.store import open_store
from crazylab.store import schema
from crazylab.tables import SeatTicket, TableService
from crazylab.tables.pairings import (
    HandResult,
    Standing,
    TournamentError,
    round_robin,
    standings,
    swiss,
)
from crazylab.tables.tournament import Tournament

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]


# --------------------------------------------------------------------------- round robin


def pairs_met(rounds: list[list[list[str]]]) -> Counter[frozenset[str]]:
    return Counter(frozenset(p) for r in rounds for t in r for p in itertools.combinations(t, 2))


def test_round_robin_of_4_at_tables_of_2_over_3_rounds_meets_every_pair_once():
    rounds = round_robin(NAMES[:4], 2, 3)
    assert len(rounds) == 3
    for r in rounds:
        assert sorted(p for t in r for p in t) == sorted(NAMES[:4])
        assert [len(t) for t in r] == [2, 2]
    met = pairs_met(rounds)
    assert set(met) == {frozenset(p) for p in itertools.combinations(NAMES[:4], 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", range(2, 11))
def test_a_full_circle_meets_every_pair_exactly_once_and_gives_each_one_bye_when_odd(n):
    names = NAMES[:n]
    rounds = round_robin(names, 2)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = pairs_met(rounds)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    byes = Counter(t[0] for r in rounds for t in r if len(t) == 1)
    assert byes == (Counter(names) if n % 2 else Counter())
    for r in rounds:
        assert sorted(p for t in r for p in t) == sorted(names)
    # more rounds than a cycle: the cycle again (who sits first may change)
    again = round_robin(names, 2, len(rounds) + 1)[-1]
    assert {frozenset(t) for t in again} == {frozenset(t) for t in rounds[0]}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 13), size=st.sampled_from([2, 3, 4]), rounds=st.integers(1, 8))
def test_round_robin_seats_every_player_once_a_round_at_tables_no_bigger_than_asked(
        n, size, rounds):
    names = NAMES[:n] + [f"P{i}" for i in range(max(0, n - len(NAMES)))]
    schedule = round_robin(names, size, rounds)
    assert schedule == round_robin(list(names), size, rounds)  # deterministic
    assert len(schedule) == rounds
    for r in schedule:
        assert sorted(p for t in r for p in t) == sorted(names)
        assert all(1 <= len(t) <= size for t in r)
        singles = [t for t in r if len(t) == 1]
        assert len(singles) == (1 if size == 2 and n % 2 else 0)  # a bye only at tables of 2


def test_tables_of_3_for_9_players_in_4_rounds_meet_every_pair_exactly_once():
    rounds = round_robin(NAMES[:9], 3)
    assert len(rounds) == 4
    assert all([len(t) for t in r] == [3, 3, 3] for r in rounds)
    met = pairs_met(rounds)
    assert len(met) == 36 and set(met.values()) == {1}


@pytest.mark.parametrize("rounds", range(1, 6))
def test_tables_of_3_for_6_players_are_as_even_as_the_best_schedule_found_by_brute_force(
        rounds):
    """Evenness is the sum over pairs of their meetings squared (documented); for 6 players
    at two tables of 3 every schedule of up to 5 rounds is tried here."""
    names = NAMES[:6]
    splits = [[[names[0], *t], [p for p in names[1:] if p not in t]]
              for t in itertools.combinations(names[1:], 2)]

    def evenness(schedule: list[list[list[str]]]) -> int:
        met = pairs_met(schedule)
        return sum(met[frozenset(p)] ** 2 for p in itertools.combinations(names, 2))

    best = min(evenness([splits[i] for i in pick])
               for pick in itertools.combinations_with_replacement(range(len(splits)), rounds))
    assert evenness(round_robin(names, 3, rounds)) == best


@pytest.mark.parametrize("n,size,rounds", [(8, 4, 7), (12, 3, 11), (7, 3, 6), (12, 4, 4)])
def test_tables_of_3_and_4_spread_the_meetings(n, size, rounds):
    names = NAMES[:n] + [f"P{i}" for i in range(max(0, n - len(NAMES)))]
    met = pairs_met(round_robin(names, size, rounds))
    counts = [met[frozenset(p)] for p in itertools.combinations(names, 2)]
    assert max(counts) - min(counts) <= 2, sorted(Counter(counts).items())


@pytest.mark.parametrize("call,why", [
    (lambda: round_robin(["Ana"], 2), "2 to 64 players, not 1"),
    (lambda: round_robin(["Ana", "Ana"], 2), "'Ana' is listed twice"),
    (lambda: round_robin(["Ana", "Ben"], 5), "table_size must be 2, 3 or 4, not 5"),
    (lambda: round_robin(["Ana", "Ben"], 2, 0), "rounds must be a whole number from 1"),
    (lambda: round_robin("AnaBen", 2), "players must be a list of names"),
    (lambda: round_robin(["Ana", " Ben"], 2), "(no extra spaces), not ' Ben'"),
    (lambda: round_robin(["Ana", "B" * 41], 2), "1 to 40 printable characters"),
])
def test_bad_pairing_input_is_one_clear_line(call, why):
    with pytest.raises(TournamentError) as e:
        call()
    assert why in str(e.value) and "\n" not in str(e.value)


# --------------------------------------------------------------------------- Swiss


def zero(names: list[str]) -> list[Standing]:
    return [Standing(n, 0, 0, 0, 0) for n in names]


def fresh_seating_exists(names: list[str], sizes: list[int], played: set[frozenset[str]]
                         ) -> bool:
    """By brute force: can ``names`` sit at tables of ``sizes`` with no pair that met?"""
    if not names:
        return True
    head, rest = names[0], names[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        table = (head, *others)
        if any(frozenset(p) in played for p in itertools.combinations(table, 2)):
            continue
        if fresh_seating_exists([p for p in rest if p not in others], sizes[1:], played):
            return True
    return False


def repeats(tables: list[list[str]], played: set[frozenset[str]]) -> int:
    return sum(frozenset(p) in played for t in tables for p in itertools.combinations(t, 2))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n=st.integers(2, 10))
def test_swiss_at_tables_of_2_never_repeats_a_pair_while_a_fresh_pairing_exists(data, n):
    names = NAMES[:n]
    all_pairs = sorted(itertools.combinations(names, 2))
    played = {frozenset(p) for p in data.draw(st.lists(st.sampled_from(all_pairs),
                                                       max_size=len(all_pairs)))}
    order = data.draw(st.permutations(names))
    tables = swiss(zero(order), 2, played)
    assert sorted(p for t in tables for p in t) == sorted(names)
    byes = [t for t in tables if len(t) == 1]
    assert len(byes) == n % 2
    seated = [p for p in order if not byes or p != byes[0][0]]
    if fresh_seating_exists(seated, [2] * (len(seated) // 2), played):
        assert repeats(tables, played) == 0, (order, sorted(map(sorted, played)), tables)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(3, 7), size=st.sampled_from([3, 4]))
def test_swiss_at_tables_of_3_and_4_never_repeats_a_pair_while_a_fresh_seating_exists(
        data, n, size):
    names = NAMES[:n]
    all_pairs = sorted(itertools.combinations(names, 2))
    played = {frozenset(p) for p in data.draw(st.lists(st.sampled_from(all_pairs),
                                                       max_size=len(all_pairs)))}
    order = data.draw(st.permutations(names))
    tables = swiss(zero(order), size, played)
    assert sorted(p for t in tables for p in t) == sorted(names)
    sizes = [len(t) for t in tables]
    assert all(2 <= s <= size for s in sizes) and max(sizes) - min(sizes) <= 1
    if fresh_seating_exists(list(order), sizes, played):
        assert repeats(tables, played) == 0


def test_swiss_pairs_by_standing_and_gives_the_bye_to_the_lowest_without_one():
    order = ["Eli", "Ana", "Dev", "Ben", "Cleo"]
    assert swiss(zero(order), 2, set()) == [["Eli", "Ana"], ["Dev", "Ben"], ["Cleo"]]
    # Cleo has had a bye: Ben (the lowest without one) sits out; Eli and Ana have met
    played = {frozenset(["Cleo"]), frozenset(["Eli", "Ana"])}
    assert swiss(zero(order), 2, played) == [["Eli", "Dev"], ["Ana", "Cleo"], ["Ben"]]
    # everyone has had a bye: the lowest again
    everyone = {frozenset([n]) for n in order}
    assert swiss(zero(order), 2, everyone)[-1] == ["Cleo"]
    # tables of 3: consecutive standings
    assert swiss(zero(NAMES[:6]), 3, set()) == [NAMES[0:3], NAMES[3:6]]


def test_swiss_refuses_what_is_not_standings():
    with pytest.raises(TournamentError, match="a list of Standing"):
        swiss(["Ana", "Ben"], 2, set())  # type: ignore[list-item]
    with pytest.raises(TournamentError, match="frozensets of one or two names"):
        swiss(zero(["Ana", "Ben"]), 2, {("Ana", "Ben")})  # type: ignore[arg-type]


# --------------------------------------------------------------------------- standings


def H(rnd: int, table: int, hand: int, players: tuple, scores: tuple, winners: tuple,
      by_wins: bool = False) -> HandResult:
    return HandResult(rnd, table, hand, players, scores, winners, by_wins)


#: 4 players, 2 rounds, tables of 2, 2 hands a table (winner_collects scores)
FOUR = [
    H(1, 1, 1, ("Ana", "Ben"), (10, 0), (0,)), H(1, 1, 2, ("Ana", "Ben"), (0, 5), (1,)),
    H(1, 2, 1, ("Cleo", "Dev"), (0, 12), (1,)), H(1, 2, 2, ("Cleo", "Dev"), (7, 0), (0,)),
    H(2, 1, 1, ("Ana", "Cleo"), (0, 8), (1,)), H(2, 1, 2, ("Ana", "Cleo"), (6, 0), (0,)),
    H(2, 2, 1, ("Ben", "Dev"), (4, 0), (0,)), H(2, 2, 2, ("Ben", "Dev"), (0, 0), ()),  # void
]


def test_standings_of_a_4_player_2_round_example_match_the_hand_computed_ones():
    # points: Ana 10+0+0+6=16, Ben 0+5+4+0=9, Cleo 0+7+8+0=15, Dev 12+0+0+0=12
    # wins: Ana 2, Ben 2, Cleo 2, Dev 1; hands: 4 each
    # Buchholz: Ana met Ben (9) and Cleo (15) = 24; Ben met Ana (16) and Dev (12) = 28;
    #           Cleo met Dev (12) and Ana (16) = 28; Dev met Cleo (15) and Ben (9) = 24
    assert standings(FOUR) == [
        Standing("Ana", 16, 2, 4, 24, 0, 1), Standing("Cleo", 15, 2, 4, 28, 0, 2),
        Standing("Dev", 12, 1, 4, 24, 0, 3), Standing("Ben", 9, 2, 4, 28, 0, 4)]


def test_points_tie_is_broken_by_wins():
    # Ana 10 in one win; Ben 5 + 5 in two wins: 10 each, Ben has more wins
    hands = [H(1, 1, 1, ("Ana", "Ben"), (10, 0), (0,)), H(1, 1, 2, ("Ana", "Ben"), (0, 5), (1,)),
             H(1, 1, 3, ("Ana", "Ben"), (0, 5), (1,))]
    assert standings(hands) == [Standing("Ben", 10, 2, 3, 10, 0, 1),
                                Standing("Ana", 10, 1, 3, 10, 0, 2)]


def test_points_and_wins_tie_is_broken_by_buchholz():
    # r1: Zara beats Ben 10, Cleo beats Dev 10; r2: Zara-Cleo void, Ben beats Dev 5
    # Zara 10 (1 win), Cleo 10 (1 win); Buchholz Zara = Ben 5 + Cleo 10 = 15, Cleo = Dev 0 +
    # Zara 10 = 10 (the name alone would put Cleo first); Ben 5 (1 win, Buchholz Zara 10 +
    # Dev 0 = 10), Dev 0 (Cleo 10 + Ben 5 = 15)
    hands = [H(1, 1, 1, ("Zara", "Ben"), (10, 0), (0,)),
             H(1, 2, 1, ("Cleo", "Dev"), (10, 0), (0,)),
             H(2, 1, 1, ("Zara", "Cleo"), (0, 0), ()), H(2, 2, 1, ("Ben", "Dev"), (5, 0), (0,))]
    assert standings(hands) == [
        Standing("Zara", 10, 1, 2, 15, 0, 1), Standing("Cleo", 10, 1, 2, 10, 0, 2),
        Standing("Ben", 5, 1, 2, 10, 0, 3), Standing("Dev", 0, 0, 2, 15, 0, 4)]


def test_a_tie_on_points_wins_and_buchholz_is_broken_head_to_head_then_by_name():
    # r1: Zoe beats Amy 10 at a table with a bot; r2: Amy beats Cal 10.
    # Zoe 10, 1 win, Buchholz Amy 10; Amy 10, 1 win, Buchholz Zoe 10 + Cal 0 = 10: tied.
    # Head to head: their one shared hand, Zoe 10 - Amy 0: Zoe +10, Amy -10 (the name alone
    # would put Amy first). Cal: 0, Buchholz Amy 10.
    hands = [H(1, 1, 1, ("Zoe", "Amy", None), (10, 0, 0), (0,)),
             H(2, 1, 1, ("Amy", "Cal"), (10, 0), (0,))]
    assert standings(hands) == [
        Standing("Zoe", 10, 1, 1, 10, 10, 1), Standing("Amy", 10, 1, 2, 10, -10, 2),
        Standing("Cal", 0, 0, 1, 10, 0, 3)]
    # four players who each won one and lost one, alike in everything: by name
    ring = [H(1, 1, 1, ("Dev", "Ben"), (10, 0), (0,)), H(1, 2, 1, ("Cleo", "Ana"), (10, 0), (0,)),
            H(2, 1, 1, ("Ben", "Cleo"), (10, 0), (0,)), H(2, 2, 1, ("Ana", "Dev"), (10, 0), (0,))]
    table = standings(ring)
    assert [s.player for s in table] == ["Ana", "Ben", "Cleo", "Dev"]
    assert {(s.points, s.wins, s.opponents_points, s.head_to_head) for s in table} == \
        {(10, 1, 20, 0)}


def test_a_rule_set_that_keeps_no_score_counts_one_point_a_win_and_lists_every_player():
    hands = [H(1, 1, 1, ("Ana", "Ben"), (0, 0), (1,), True),
             H(1, 1, 2, ("Ana", "Ben"), (0, 0), (1,), True),
             H(1, 1, 3, ("Ana", "Ben"), (0, 0), (0,), True)]
    assert standings(hands, ["Ana", "Ben", "Cleo"]) == [
        Standing("Ben", 2, 2, 3, 1, 0, 1), Standing("Ana", 1, 1, 3, 2, 0, 2),
        Standing("Cleo", 0, 0, 0, 0, 0, 3)]
    # minus_one_per_card: negative points, the least negative first
    neg = [H(1, 1, 1, ("Ana", "Ben"), (-3, 0), (1,)), H(1, 1, 2, ("Ana", "Ben"), (0, -1), (0,))]
    assert [(s.player, s.points) for s in standings(neg)] == [("Ben", -1), ("Ana", -3)]


def test_standings_refuse_results_that_do_not_agree():
    with pytest.raises(TournamentError, match="players, scores and winners do not agree"):
        standings([H(1, 1, 1, ("Ana", "Ben"), (1, 2, 3), (0,))])
    with pytest.raises(TournamentError, match="players, scores and winners do not agree"):
        standings([H(1, 1, 1, ("Ana", "Ben"), (1, 2), (2,))])


# --------------------------------------------------------------------------- the database


class Clock:
    """The service's clock, moved by the test (a move a second: under the rate limit)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


CLOCK = Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db' / 'class.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def klass(db_url):
    store = open_store(db_url)
    made = store.create_class("Class 5B")
    store.close()
    return made


@pytest.fixture
def service(db_url) -> Iterator[TableService]:
    s = TableService(db_url, clock=CLOCK)
    yield s
    s.close()


def db_rows(url: str) -> list[tuple]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return sorted((name, *map(str, r)) for name in ("tournaments", "tournament_tables")
                          for r in conn.execute(sa.select(schema.metadata.tables[name])))
    finally:
        engine.dispose()


def play_round(service: TableService, tour: Tournament, codes: list[str],
               rng: random.Random, hands: int | None = None) -> None:
    """Play every table of the round to the end of its hands: each learner's move by their
    own seat token (from :meth:`Tournament.my_seat`), bots by ``bot_step``; the host deals."""
    seats: dict[str, dict[int, SeatTicket]] = defaultdict(dict)
    for name, token in tour.tokens.items():
        try:
            ticket = tour.my_seat(token)
        except TournamentError as e:
            assert "has a bye" in str(e)
            continue
        assert ticket.name == name
        assert service.seat_of(ticket.token) == ticket  # the service knows that seat
        seats[ticket.code][ticket.seat] = ticket
    assert sorted(seats) == sorted(codes)
    for code in codes:
        for _ in range(100_000):
            state = service.state(code)
            match = state.match
            game = match.game
            if game.over:
                if sum(g.over for g in match.hands) >= (hands or tour.hands):
                    break
                service.new_hand(seats[code][state.host].token)
                continue
            seat = game.to_play
            if state.kinds[seat] == "bot":
                assert service.bot_step(code)
                continue
            move = rng.choice(game.legal())
            CLOCK.now += 1.0
            service.move(seats[code][seat].token, move, version=state.version)
        else:  # pragma: no cover
            raise AssertionError(f"table {code} never finished")


def expected_from_service(service: TableService, tour: Tournament) -> dict[str, tuple]:
    """Each player's (points, wins, hands, Buchholz) computed here from the matches."""
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    hands: Counter[str] = Counter()
    met: list[list[str]] = []
    by_wins = tour.rules.scoring == "none"
    for t in tour.tables():
        if t.code is None:
            continue
        state = service.state(t.code)
        names = [n if k != "bot" else None for n, k in zip(state.names, state.kinds,
                                                           strict=True)]
        assert names == list(t.players)
        for game in [g for g in state.match.hands if g.over][:tour.hands]:
            for seat, name in enumerate(names):
                if name is None:
                    continue
                won = seat in game.winners
                points[name] += int(won) if by_wins else game.scores[seat]
                wins[name] += won
                hands[name] += 1
        met.append([n for n in names if n is not None])
    buchholz: Counter[str] = Counter()
    for at in met:
        for name in at:
            buchholz[name] += sum(points[o] for o in at if o != name)
    return {n: (points[n], wins[n], hands[n], buchholz[n]) for n in tour.players}


def test_a_4_player_round_robin_of_2_rounds_played_through_the_service(db_url, klass,
                                                                       service):
    players = ["Ana", "Ben", "Cleo", "Dev"]
    tour = Tournament.create(db_url, klass.code, players, "round_robin", 2, 2, 2,
                             "crazy-eights", key=klass.teacher_key)
    assert set(tour.tokens) == set(players) and tour.round == 0
    rng = random.Random(23)
    schedule = round_robin(players, 2, 2)
    for number in (1, 2):
        codes = tour.start_round(service)
        assert tour.round == number and len(codes) == 2
        tables = tour.tables(number)
        assert [[p for p in t.players] for t in tables] == schedule[number - 1]
        for t in tables:
            st_ = service.state(t.code or "")
            assert st_.started and st_.names == list(t.players) and st_.host == 0
        assert not tour.record_round(service)  # nothing played yet
        with pytest.raises(TournamentError, match=f"round {number} is not finished"):
            tour.start_round(service)
        play_round(service, tour, codes, rng)
        assert tour.record_round(service)
        assert all(t.done and t.hands == 2 for t in tour.tables(number))
    with pytest.raises(TournamentError, match="all 2 rounds have been played"):
        tour.start_round(service)

    expected = expected_from_service(service, tour)
    table = tour.standings()
    assert {s.player: (s.points, s.wins, s.hands, s.opponents_points) for s in table} == expected
    assert all(s.hands == 4 for s in table)
    keys = [(s.points, s.wins, s.opponents_points) for s in table]
    assert keys == sorted(keys, reverse=True) and [s.rank for s in table] == [1, 2, 3, 4]
    scored = any(any(g.scores) for t in tour.tables() if t.code
                 for g in service.state(t.code).match.hands if g.over)
    assert any(s.points for s in table) == scored  # what the hands scored (rarely nothing)
    # every pair met at most once, each player twice
    assert max(pairs_met([[list(t.players) for t in tour.tables(r)] for r in (1, 2)])
               .values()) == 1

    # the same standings from the database alone, and as CSV
    again = Tournament.load(db_url, tour.id)
    assert again.standings() == table and again.tokens == {} and again.round == 2
    rows = list(csv.DictReader(io.StringIO(again.export_csv())))
    assert [(r["rank"], r["player"], r["points"], r["wins"], r["opponents_points"])
            for r in rows] == [(str(s.rank), s.player, str(s.points), str(s.wins),
                                str(s.opponents_points)) for s in table]
    summary = json.loads(json.dumps(again.summary()))
    assert summary["round"] == 2 and len(summary["tables"]) == 4
    assert [s["player"] for s in summary["standings"]] == [s.player for s in table]
    again.close()

    # recording again changes nothing
    before = db_rows(db_url)
    assert tour.record_table(service, tour.tables(1)[0].code or "") == 2
    assert db_rows(db_url) == before
    tour.close()


def test_the_database_holds_no_token_and_a_seat_opens_only_with_its_players_token(
        db_url, klass, service):
    tour = Tournament.create(db_url, klass.code, ["Ana", "Ben", "Cleo"], "round_robin", None,
                             1, 2, "crazy-eights-classic")
    assert tour.rounds == 3  # a full cycle of 3 players: each sits out once
    with pytest.raises(TournamentError, match="has no table yet"):
        tour.my_seat(tour.tokens["Ana"])
    codes = tour.start_round(service)
    assert len(codes) == 1
    tickets = {}
    for name, token in tour.tokens.items():
        if name in service.state(codes[0]).names:
            tickets[name] = tour.my_seat(token)
            assert tickets[name].name == name and tickets[name].code == codes[0]
            assert service.state(codes[0]).names[tickets[name].seat] == name
        else:
            with pytest.raises(TournamentError, match=f"{name} has a bye in round 1"):
                tour.my_seat(token)
    assert len(tickets) == 2
    text = repr(db_rows(db_url))
    for secret in [*tour.tokens.values(), *(t.token for t in tickets.values())]:
        assert secret not in text
    for forged in ["x" * 32, "", 12, tickets["Ana" if "Ana" in tickets else "Ben"].token]:
        with pytest.raises(TournamentError, match="^unknown player token$"):
            tour.my_seat(forged)  # type: ignore[arg-type]
    # no seat token is kept anywhere: it is derived again, the same on every call (a page
    # reloaded keeps its seat), under the server's secret (another server derives another)
    name, first = next(iter(tickets.items()))
    assert tour.my_seat(tour.tokens[name]) == first and service.seat_of(first.token) == first
    assert first.token not in repr(db_rows(db_url))
    tour.close()
    service.close()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CRAZYLAB_SERVER_SECRET", "another server")
        other = Tournament.load(db_url, tour.id)
        assert other.my_seat(tour.tokens[name]).token != first.token
        other.close()


def test_bad_tournaments_are_refused_in_one_line_and_store_nothing(db_url, klass):
    ok = dict(url=db_url, class_code=klass.code, players=["Ana", "Ben"], format="swiss",
              rounds=2, hands=1, table_size=2, rules="crazy-eights")
    before = db_rows(db_url)
    for change, why in [
        ({"key": "not the key"}, "wrong teacher key"),
        ({"class_code": "ABCDEFGHJKLMN", "key": "x"}, "wrong teacher key"),
        ({"class_code": "ABCDEFGHJKLMN"}, "unknown class code"),
        ({"format": "knockout"}, "format must be 'round_robin' or 'swiss'"),
        ({"rounds": None}, "a Swiss tournament needs a number of rounds"),
        ({"rounds": 0}, "rounds must be a whole number from 1 to 50"),
        ({"hands": True}, "hands must be a whole number"),
        ({"table_size": 5}, "table_size must be 2, 3 or 4"),
        ({"rules": "poker"}, "unknown rule set 'poker'"),
        ({"rules": 3}, "rules must be a preset name"),
        ({"players": ["Ana", "Ana"]}, "'Ana' is listed twice"),
        ({"players": ["Ana"]}, "2 to 64 players, not 1"),
    ]:
        with pytest.raises(TournamentError) as e:
            Tournament.create(**{**ok, **change})
        assert why in str(e.value) and "\n" not in str(e.value), (change, str(e.value))
    assert db_rows(db_url) == before
    for bad in ["NOPE", "", "ABCDEFGHJK", 7]:
        with pytest.raises(TournamentError, match="^unknown tournament"):
            Tournament.load(db_url, bad)  # type: ignore[arg-type]
    house = crazylab.rules("crazy-eights", draw_rule="one", hand_size=7)
    tour = Tournament.create(**{**ok, "rules": house}, key=klass.teacher_key)
    assert Tournament.load(tour.store, tour.id).rules == house
    tour.check_key(klass.teacher_key)
    with pytest.raises(TournamentError, match="^wrong teacher key$"):
        tour.check_key("guess")
    tables = TableService(db_url)
    with pytest.raises(TournamentError, match="no table 'ZZZZZZZZ' in this tournament"):
        tour.record_table(tables, "ZZZZZZZZ")
    tables.close()
    tour.close()


def test_a_swiss_tournament_with_a_bye_and_bots_at_tables_of_3(db_url, klass, service):
    """5 players, Swiss, tables of 2 under a rule set that keeps no score (a win is 1):
    round 2 pairs by the standings, repeats no pair and gives the bye to someone new."""
    players = ["Ana", "Ben", "Cleo", "Dev", "Eli"]
    # made on the service's own database connections (closing it leaves them open)
    tour = Tournament.create(service, klass.code, players, "swiss", 2, 2, 2, "crazy-breens")
    rng = random.Random(5)
    codes = tour.start_round(service)
    first = tour.tables(1)
    assert [t.players for t in first] == [("Ana", "Ben"), ("Cleo", "Dev"), ("Eli",)]
    play_round(service, tour, codes, rng)
    tokens = tour.tokens
    tour.close()
    tour = Tournament.load(service, tour.id)
    assert tour.tokens == {}  # given once, by create
    tour.tokens = tokens  # the players keep theirs
    assert tour.record_round(service)
    ranked = [s.player for s in tour.standings()]
    codes = tour.start_round(service)
    second = tour.tables(2)
    bye = [t.players[0] for t in second if t.code is None]
    assert len(bye) == 1 and bye[0] != "Eli"
    assert bye[0] == [p for p in ranked if p != "Eli"][-1]
    assert not {frozenset(t.players) for t in first} & {frozenset(t.players) for t in second}
    play_round(service, tour, codes, rng)
    assert tour.record_round(service)
    expected = expected_from_service(service, tour)
    assert {s.player: (s.points, s.wins, s.hands, s.opponents_points)
            for s in tour.standings()} == expected
    assert sum(s.points for s in tour.standings()) == sum(s.wins for s in tour.standings())
    tour.close()

    # tables of 3 for 4 players: two tables of 2 players, a bot in each third seat
    tour = Tournament.create(db_url, klass.code, players[:4], "round_robin", 1, 1, 3,
                             "crazy-eights")
    codes = tour.start_round(service)
    assert len(codes) == 2
    for code in codes:
        assert service.state(code).kinds[2] == "bot"
        assert [t.players[2] for t in tour.tables(1)] == [None, None]
    play_round(service, tour, codes, rng)
    assert tour.record_round(service)
    expected = expected_from_service(service, tour)
    assert {s.player: (s.points, s.wins, s.hands, s.opponents_points)
            for s in tour.standings()} == expected
    tour.close()


def test_standings_follow_the_hands_as_they_finish(db_url, klass, service):
    tour = Tournament.create(service, klass.code, ["Ana", "Ben"], "round_robin", 1, 3, 2,
                             "crazy-eights")
    [code] = tour.start_round(service)
    rng = random.Random(1)
    for played in (1, 2, 3):
        play_round(service, tour, [code], rng, hands=played)
        assert tour.record_round(service) is (played == 3)
        [table] = tour.tables(1)
        assert (table.hands, table.done) == (played, played == 3)
        assert [s.hands for s in tour.standings()] == [played, played]
        assert {s.player: (s.points, s.wins, s.hands, s.opponents_points)
                for s in tour.standings()} == expected_from_service(service, tour)
    # the table's host deals a fourth hand: it does not count
    state = service.state(code)
    host = tour.my_seat(tour.tokens[state.names[state.host]])
    service.new_hand(host.token)
    play_round(service, tour, [code], rng, hands=4)
    assert tour.record_table(service, code) == 3
    assert [s.hands for s in tour.standings()] == [3, 3]
    tour.close()


def test_a_tournament_searches_its_round_robin_once(db_url, klass, service):
    """The schedule's search (seconds for a large class at tables of 3 or 4) is kept for the
    tournament's rounds, not run again at each round."""
    from crazylab.tables.pairings import schedule

    players = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
    tour = Tournament.create(db_url, klass.code, players, "round_robin", 2, 1, 3,
                             "crazy-eights", key=klass.teacher_key)
    schedule.cache_clear()
    tour.start_round(service)
    assert schedule.cache_info().misses == 1
    assert schedule(tuple(players), 3, 2) == round_robin(players, 3, 2)  # the kept one
    assert schedule.cache_info().hits == 1

"""Generated bad input at every public entry point outside the engine core (issue 25 item 7):
the bots, :class:`~crazylab.Match`, :func:`~crazylab.simulate`, the worked-example functions
and the command line. Each call either gives a valid result or raises the project's own error
(a :class:`~crazylab.errors.CrazylabError`); a refused call leaves the state as it was, and
every call ends within a time bound. :data:`COVERED` lists what is tested here, and
``test_every_public_callable_is_covered`` fails when a public callable is added uncovered."""

from __future__ import annotations

import contextlib
import inspect
import io
import json
import math
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import time_bound
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crazylab as cl
from crazylab import bots as B
from crazylab import cli
from crazylab import examples as E
from crazylab import lab as L
from crazylab import match as M
from crazylab import sim as S
from crazylab.errors import CrazylabError

pytestmark = pytest.mark.oldest

#: seconds any one call may take (a refusal must come before the work)
BOUND = 5.0

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def bounded(seconds: float = BOUND) -> contextlib.AbstractContextManager[None]:
    """Fail a call that runs past ``seconds``."""
    return time_bound.bounded(seconds)


def outcome(call: Callable[[], Any], snapshot: Callable[[], Any] | None = None
            ) -> tuple[bool, Any]:
    """``(True, result)`` or ``(False, error)`` for a CrazylabError; any other exception fails
    the test, and so does a refusal that changed ``snapshot()``."""
    before = snapshot() if snapshot else None
    with bounded():
        try:
            return True, call()
        except CrazylabError as e:
            assert str(e) and "\n" not in str(e).strip(), f"not one line: {e!r}"
            if snapshot is not None:
                assert snapshot() == before, f"a refused call changed the state: {e}"
            return False, e


#: anything at all, leaning to the values people get wrong
junk = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["no", "yes", "", "0", "1", "mc:0", "mc", "rules", "crazy-eights", "ſ",
                     "mc:99999999999999999999", "٣", "1.5"]),
    st.lists(st.integers(-2, 200), max_size=4), st.dictionaries(st.text(max_size=3),
                                                                st.integers(), max_size=2),
    st.builds(object), st.just(10**100), st.just(math.nan),
)


def _game(name: str = "crazy-eights", n: int = 2, seed: int = 1, over: bool = False) -> cl.Game:
    g = cl.Game.new(name, n, seed=seed)
    return g.play_random(seed) if over else g


# -- bots ----------------------------------------------------------------------------------------


@SETTINGS
@given(spec=st.one_of(junk, st.integers(-5, 20_000).map(lambda k: f"mc:{k}"),
                      st.sampled_from(["random", "rules", "mc", "mc:", "rules:3", "MC",
                                       "mc:00000000000000000000001", "mc: 5"])))
def test_make_bot(spec: Any) -> None:
    ok, bot = outcome(lambda: B.make_bot(spec))
    if ok:
        assert callable(bot.choose)
        if isinstance(bot, B.MonteCarloBot):
            assert 1 <= bot.playouts <= B.MAX_PLAYOUTS
    elif isinstance(spec, str) and spec.startswith("mc:"):
        assert "playouts" in str(bot) and "only mc takes" not in str(bot)


@SETTINGS
@given(playouts=st.one_of(junk, st.integers(-5, 20_000)), greedy=st.one_of(junk, st.floats()),
       time_limit=st.one_of(junk, st.floats(-1, 1000)), name=junk)
def test_monte_carlo_bot_settings(playouts: Any, greedy: Any, time_limit: Any, name: Any
                                  ) -> None:
    ok, bot = outcome(lambda: B.MonteCarloBot(playouts, greedy, time_limit, name))
    if ok:  # only sane settings are taken
        assert isinstance(bot.playouts, int) and 1 <= bot.playouts <= B.MAX_PLAYOUTS
        assert 0 <= bot.greedy <= 1 and isinstance(bot.name, str)
        assert bot.time_limit is None or 0 < bot.time_limit <= B.MAX_TIME_LIMIT


@SETTINGS
@given(name=junk)
def test_simple_bots_names(name: Any) -> None:
    for cls in (B.RandomBot, B.RuleBot):
        ok, bot = outcome(lambda cls=cls: cls(name))
        assert ok == isinstance(name, str)


def _finished_observation() -> Any:
    g = _game(over=True)
    return g.observation(0)


@SETTINGS
@given(obs=st.one_of(junk, st.sampled_from(["finished", "live", "no legal"])),
       rng=st.one_of(junk, st.just("random")))
def test_choose(obs: Any, rng: Any) -> None:
    game = _game(seed=3)
    live = game.observation(game.to_play)
    obs = {"finished": _finished_observation(), "live": live,
           "no legal": replace(live, legal=())}.get(obs, obs) if isinstance(obs, str) else obs
    rng = random.Random(1) if rng == "random" else rng
    for bot in (B.RandomBot(), B.RuleBot(), B.MonteCarloBot(playouts=2)):
        ok, move = outcome(lambda bot=bot: bot.choose(obs, rng), game.fingerprint)
        if ok:
            assert move in obs.legal
        assert game.fingerprint() == live_fp(game)


def live_fp(game: cl.Game) -> Any:
    return game.fingerprint()


@SETTINGS
@given(legal=st.one_of(junk, st.just("moves")), rng=st.one_of(junk, st.just("random")))
def test_choose_legal(legal: Any, rng: Any) -> None:
    game = _game(seed=3)
    legal = game.legal_moves() if legal == "moves" else legal
    rng = random.Random(1) if rng == "random" else rng
    ok, move = outcome(lambda: B.RandomBot().choose_legal(legal, rng), game.fingerprint)
    assert not ok or move in legal


def test_choose_without_a_legal_move_names_it() -> None:
    obs = _finished_observation()
    for bot in (B.RandomBot(), B.RuleBot(), B.MonteCarloBot()):
        with pytest.raises(B.BotError, match="no legal move"):
            bot.choose(obs, random.Random(0))


@SETTINGS
@given(obs=st.one_of(junk, st.just("live")), rng=st.one_of(junk, st.just("random")))
def test_determinize_and_constraints(obs: Any, rng: Any) -> None:
    game = _game(seed=5)
    obs = game.observation(game.to_play) if obs == "live" else obs
    rng = random.Random(2) if rng == "random" else rng
    ok, world = outcome(lambda: B.determinize(obs, rng), game.fingerprint)
    if ok:
        assert world is None or world.n == game.n
    ok, got = outcome(lambda: B.hand_constraints(obs), game.fingerprint)
    if ok:
        assert isinstance(got, dict)
    ok, world = outcome(lambda: next(B.worlds(obs, rng), None), game.fingerprint)
    if ok:
        assert world is None or world.n == game.n


@SETTINGS
@given(seat=st.one_of(junk, st.integers(-2, 4)), rng=st.one_of(junk, st.just("random")),
       greedy=st.one_of(junk, st.floats(-1, 2)))
def test_play_out(seat: Any, rng: Any, greedy: Any) -> None:
    game = _game(seed=6)
    rng = random.Random(3) if rng == "random" else rng
    world = game.copy()  # played out: the game given is the one that changes
    ok, got = outcome(lambda: B.play_out(world, seat, rng, greedy), game.fingerprint)
    if ok:
        assert 0 <= got <= 1
    with pytest.raises(CrazylabError):
        B.play_out("not a game", 0, random.Random(1))  # type: ignore[arg-type]


@SETTINGS
@given(bots=st.one_of(junk, st.lists(st.sampled_from(["rules", "random", "x"]), max_size=3)),
       rngs=st.one_of(junk, st.just("two")), max_moves=st.one_of(junk, st.just(100_000)))
def test_play_hand(bots: Any, rngs: Any, max_moves: Any) -> None:
    game = _game(seed=7)
    if isinstance(bots, list):
        bots = [B.RuleBot() if b == "rules" else B.RandomBot() if b == "random" else b
                for b in bots]
    rngs = [random.Random(1), random.Random(2)] if rngs == "two" else rngs
    ok, done = outcome(lambda: B.play_hand(game, bots, rngs, max_moves), game.fingerprint)
    if ok:
        assert done.over


def test_bot_name_is_text_for_anything() -> None:
    for thing in (B.RuleBot(), object(), 5, None, "x"):
        assert isinstance(B.bot_name(thing), str)  # a name for anything: nothing to refuse


# -- Match -------------------------------------------------------------------------------------


@SETTINGS
@given(rules=st.one_of(junk, st.sampled_from(list(cl.PRESETS))),
       players=st.one_of(junk, st.integers(0, 9)), seed=st.one_of(junk, st.integers()),
       target=st.one_of(junk, st.integers(-5, 200_000)), dealer=st.one_of(junk, st.integers(-2, 6)),
       scores=st.one_of(junk, st.lists(st.integers(-10**7, 10**7), min_size=2, max_size=3)),
       hands=st.one_of(junk, st.integers(-2, 20_000)))
def test_match_arguments(rules: Any, players: Any, seed: Any, target: Any, dealer: Any,
                         scores: Any, hands: Any) -> None:
    kwargs = {"players": players, "seed": seed, "target": target, "dealer": dealer,
              "scores": scores}
    if hands is not None and target is None:
        kwargs["hands"] = hands
    ok, m = outcome(lambda: M.Match(rules, **kwargs))
    if ok:
        assert not m.over, "a match that starts already over"
        assert m.target is None or 1 <= m.target <= M.MAX_TARGET
        assert m.hands_to_play is None or 1 <= m.hands_to_play <= M.MAX_HANDS
        assert 0 <= m.dealer < m.players and len(m.scores) == m.players


def test_the_issue_s_match_examples_are_refused() -> None:
    for kwargs in ({"target": 10**100}, {"scores": [150, 0]}, {"target": 0}):
        with pytest.raises(M.MatchError):
            M.Match("crazy-eights-classic", **kwargs)  # type: ignore[arg-type]


def test_a_match_may_start_from_a_hand_dealt_already() -> None:
    from crazylab import Game

    first = Game.new("crazy-eights-classic", 3, 5, dealer=1)
    m = M.Match("crazy-eights-classic", 3, seed=2, dealer=1, first=first)
    assert m.game is first and m.hands == [first] and m.games_played == 0
    for wrong in (Game.new("crazy-eights-classic", 2, 5), Game.new("crazy-eights-quick", 3, 5),
                  "8S"):
        with pytest.raises(M.MatchError, match="the first hand must be a Game"):
            M.Match("crazy-eights-classic", 3, first=wrong)  # type: ignore[arg-type]


def _match_state(m: M.Match) -> Any:
    return (list(m.scores), m.games_played, len(m.hands), m.dealer, m.game.fingerprint())


@SETTINGS
@given(which=st.sampled_from(["3 seats", "other rules", "unfinished", "own", "finished", "junk"]),
       value=junk)
def test_match_record(which: str, value: Any) -> None:
    m = M.Match("crazy-eights", 2, seed=4, target=100)
    game = {"3 seats": lambda: _game(n=3, over=True),
            "other rules": lambda: _game("crazy-eights-quick", over=True),
            "unfinished": lambda: _game(),
            "own": lambda: m.game.play_random(1),
            "finished": lambda: _game(over=True),  # a hand dealt elsewhere, same rules and size
            "junk": lambda: value}[which]()
    ok, _ = outcome(lambda: m.record(game), lambda: _match_state(m))
    assert ok == (which in ("own", "finished")), which


@SETTINGS
@given(rng=st.one_of(junk, st.just("random")), max_hands=st.one_of(junk, st.integers(-2, 20_000)),
       seed=st.one_of(st.none(), junk))
def test_match_play_random(rng: Any, max_hands: Any, seed: Any) -> None:
    m = M.Match("crazy-eights-quick", 2, seed=4, target=50)
    rng = random.Random(3) if rng == "random" else rng
    ok, got = outcome(lambda: m.play_random(rng, max_hands, seed=seed), lambda: _match_state(m))
    if ok:
        assert got is m and (m.over or m.games_played == max_hands)


def test_match_play_random_takes_seed_like_game() -> None:
    a = M.Match("crazy-eights-classic", 3, seed=7).play_random(seed=7)
    b = M.Match("crazy-eights-classic", 3, seed=7).play_random(7)
    assert a.over and a.scores == b.scores and a.winner == b.winner


def test_match_next_hand() -> None:
    m = M.Match("crazy-eights-quick", 2, seed=4, hands=1)
    ok, _ = outcome(m.next_hand, lambda: _match_state(m))  # the hand is not over: refused
    assert not ok
    m.play_random(1)
    ok, _ = outcome(m.next_hand, lambda: _match_state(m))  # the match is over: refused
    assert not ok and m.over


# -- simulate ------------------------------------------------------------------------------------


def _small(strategy: st.SearchStrategy[Any], ok: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Junk for one argument, with only cheap valid values among it (a run stays short)."""
    def cheap(v: Any) -> bool:
        return not (isinstance(v, int) and not isinstance(v, bool) and 4 <= v <= S.MAX_HANDS)
    return st.one_of(strategy.filter(cheap), ok)


@SETTINGS
@given(rules=st.one_of(junk, st.just("crazy-eights-quick"), st.just([])),
       players=st.one_of(junk, st.integers(0, 9)),
       bots=st.one_of(junk, st.sampled_from(["mc:99999999999999999999", "mc:0", "mc:10001",
                                             "random", ["rules", "random"], []])),
       games=_small(junk, st.integers(0, 3)), seed=st.one_of(junk, st.integers()),
       workers=_small(junk, st.just(1)), client=st.one_of(st.none(), junk),
       progress=st.one_of(st.none(), junk), rotate=junk,
       chunk=st.one_of(st.none(), _small(junk, st.just(1))))
def test_simulate_arguments(rules: Any, players: Any, bots: Any, games: Any, seed: Any,
                            workers: Any, client: Any, progress: Any, rotate: Any, chunk: Any
                            ) -> None:
    if client is not None:
        workers = 1  # a client is checked, never used with junk
    ok, df = outcome(lambda: S.simulate(rules, players, bots, games, seed, workers=workers,
                                        client=client, progress=progress, rotate=rotate,
                                        chunk=chunk))
    if ok:
        assert len(df) == games and isinstance(rotate, bool)
        assert progress is None or isinstance(progress, bool)


def test_simulate_checks_before_work() -> None:
    """The issue's cases: refused at once (the mc bot used to run for ever)."""
    for kwargs in ({"bots": "mc:99999999999999999999"}, {"client": "x"},
                   {"rotate": "no"}, {"progress": "no"}, {"workers": 10**6},
                   {"chunk": S.MAX_CHUNK + 1}):
        t = time.perf_counter()
        with pytest.raises(CrazylabError) as e:
            S.simulate("crazy-eights", games=10**9, **kwargs)
        assert time.perf_counter() - t < 1.0
        assert next(iter(kwargs)).split("s")[0] in str(e.value) or "mc" in str(e.value)


@SETTINGS
@given(spec=st.one_of(junk, st.just("rules")), path=junk, seed=junk, hand=junk)
def test_sim_helpers(spec: Any, path: Any, seed: Any, hand: Any) -> None:
    ok, bot = outcome(lambda: S.check_bot(spec))
    assert not ok or callable(bot.choose)
    with tempfile.TemporaryDirectory() as tmp:
        target = str(Path(tmp) / path) if isinstance(path, str) else path
        ok, out = outcome(lambda: S.check_out(target))
        assert not ok or out.suffix.lower() in (".csv", ".parquet")
        ok, _ = outcome(lambda: S.write_atomically(path, Path(tmp) / "x.csv"))
        assert not ok
        assert [p.name for p in Path(tmp).iterdir()] == []  # nothing written, no temporary
    for f in (S.hand_seed, S.bots_seed):
        ok, value = outcome(lambda f=f: f(seed, hand))
        assert not ok or (isinstance(value, int) and 0 <= value < 2**62)
    ok, got = outcome(lambda: S.table_configs("crazy-eights", 2, "random", seed))
    assert ok == isinstance(seed, bool)


@SETTINGS
@given(path=junk, n=junk, start=junk)
def test_sim_dataset_helpers(path: Any, n: Any, start: Any) -> None:
    """The dataset folder's checks refuse junk and create nothing; the CPU and thread counts
    are at least 1 whatever they are given."""
    with tempfile.TemporaryDirectory() as tmp:
        target = str(Path(tmp) / path) if isinstance(path, str) else path
        ok, out = outcome(lambda: S.check_dataset(target, n, start))
        assert not ok or isinstance(out, Path)
        ok, _ = outcome(lambda: S.read_dataset(target))
        assert not ok
        assert list(Path(tmp).iterdir()) == []  # nothing created
    assert S.client_threads(path) == 1 and S.available_cpus() >= 1


def test_play_one_is_the_workers_entry() -> None:
    """``play_one`` takes the private configuration :func:`table_configs` builds."""
    configs, seats = S.table_configs("crazy-eights-quick", 2, "rules", False)
    row = S.play_one(configs[0], 0, 1, seats)
    assert row[0] == 0 and row[2] == "crazy-eights-quick"


# -- worked examples ----------------------------------------------------------------------------


_SEED = json.loads(E.example_path("sr-t4-scoring-64").read_text(encoding="utf-8"))


@SETTINGS
@given(source=st.one_of(junk, st.sampled_from(["steps", "legal", "hands", "deep"])))
def test_load_and_replay(source: Any) -> None:
    if source == "steps":
        source = dict(_SEED, steps=[{}] * (E.MAX_STEPS + 1))
    elif source == "legal":
        source = dict(_SEED, steps=[{"expect": {"legal": ["8H"] * (E.MAX_ITEMS + 1)}}])
    elif source == "hands":
        source = dict(_SEED, steps=[{"expect": {"hands": {str(i): [] for i in range(3000)}}}])
    elif source == "deep":
        source = dict(_SEED, steps=[{"expect": {"legal": [[[[]]]] * 3}}])
    for load in (E.load_example, E.load_game):
        ok, got = outcome(lambda load=load: load(source))
        if ok and load is E.load_example:
            assert isinstance(got.replay(), list) and got.play()[0].over in (True, False)
            assert len(got.frames()) == len(got.steps) + 1 and got.start().n == got.players


def test_replay_is_bounded_by_content(tmp_path: Path) -> None:
    """The issue's cases, a little smaller: refused before the work, in well under a second."""
    for steps in ([{}] * 400_000, [{"expect": {"legal": ["8H"] * 500_000}}]):
        f = tmp_path / "big.json"
        f.write_text(json.dumps(dict(_SEED, steps=steps)), encoding="utf-8")
        t = time.perf_counter()
        with pytest.raises(E.ExampleError, match="too many"):
            E.load_example(f)
        assert time.perf_counter() - t < 2.0


@SETTINGS
@given(game=st.one_of(junk, st.just("game")), path=st.one_of(junk, st.just("ok")),
       title=st.one_of(junk, st.just("A title")))
def test_save_and_convert(game: Any, path: Any, title: Any) -> None:
    real = _game(seed=2, over=True)
    game = real if game == "game" else game
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        target = folder / "saved.json" if path == "ok" else (
            str(folder / "missing" / path) if isinstance(path, str) else path)
        ok, _ = outcome(lambda: E.save_game(game, target, title), real.fingerprint)
        if ok:
            assert E.load_game(target).fingerprint() == real.fingerprint()
        else:
            assert not any(p.name.endswith(".tmp") for p in folder.rglob("*"))
        ok, data = outcome(lambda: E.game_to_example(game, title))
        assert not ok or data["rules"] == real.rules.name


@SETTINGS
@given(game=st.one_of(junk, st.just("game")), expect=st.one_of(junk, st.just({"over": True})))
def test_check(game: Any, expect: Any) -> None:
    real = _game(seed=2, over=True)
    game = real if game == "game" else game
    ok, problems = outcome(lambda: E.check(game, expect), real.fingerprint)
    assert not ok or isinstance(problems, list)


def test_list_examples_takes_nothing() -> None:
    names = E.list_examples()
    assert "sr-t4-scoring-64" in names and all(isinstance(n, str) for n in names)


# -- the command line ----------------------------------------------------------------------------


_TOKENS = ["--games", "-1", "0", "2", "x", "99999999999999999999", "--bots", "mc:0",
           "mc:99999999999999999999", "rules,random", "--workers", "100000", "-n", "9", "1",
           "--option", "draw_limit=0", "removed_ranks=none", "chain=maybe", "--seed", "-5",
           "--out", "OUT.CSV", "OUT.txt", "--rotate", "nope", "crazy-8s-level-1", "ſ"]


@SETTINGS
@given(command=st.sampled_from(["simulate", "play", "rules", "replay", "bogus"]),
       tokens=st.lists(st.sampled_from(_TOKENS), max_size=6))
def test_cli_main(command: str, tokens: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        argv = [command, *(str(Path(tmp) / t) if t.startswith("OUT") else t for t in tokens)]
        if command == "simulate":  # a run stays short: two hands, here
            argv = [*argv, "--no-progress", "--workers", "1"]
            if "--games" not in tokens or argv[argv.index("--games") + 1] not in (
                    "-1", "0", "2", "x", "99999999999999999999"):
                argv += ["--games", "2"]
        err = io.StringIO()
        with bounded(), contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            try:
                code = cli.main(argv)
            except SystemExit as e:  # argparse: a usage line and the error
                code = e.code
        text = err.getvalue()
        assert "Traceback" not in text, text
        lines = [x for x in text.strip().splitlines() if not x.startswith(("usage:", " "))]
        if command == "replay":  # one line per file refused
            assert len(lines) <= len(argv) and all(x.startswith(("ERROR ", "crazylab"))
                                                   for x in lines), text
        else:
            assert len(lines) <= 1 and all(x.startswith("crazylab") for x in lines), text
        assert code in (0, 1, 2, 130)
        if code != 0:
            assert text.strip(), f"{argv}: failed without a word"
        assert not any(p.name.endswith(".tmp") for p in Path(tmp).iterdir())


# -- the lab's tables and figures -----------------------------------------------------------------


@pytest.fixture(scope="module")
def results() -> Any:
    return S.simulate("crazy-eights-quick", players=[2, 3], bots=["rules", "random"], games=6,
                      seed=1, workers=1)


LAB_SETTINGS = settings(SETTINGS, max_examples=15)


@LAB_SETTINGS
@given(df=st.one_of(junk, st.sampled_from(["results", "empty", "other"])),
       by=st.one_of(junk, st.sampled_from(["bot", "seat", "variant"])),
       metric=st.one_of(junk, st.sampled_from(["turns", "points", "nope"])))
def test_lab_tables_and_figures(results: Any, df: Any, by: Any, metric: Any) -> None:
    import pandas as pd

    df = {"results": results, "empty": results.iloc[:0],
          "other": pd.DataFrame({"a": [1]})}.get(df, df) if isinstance(df, str) else df
    snapshot = results.copy()
    calls = [lambda: L.seat_table(df), lambda: L.summary(df), lambda: L.win_rates(df, by),
             lambda: L.fig_hand_length(df, by), lambda: L.fig_variants(df, (metric,)),
             lambda: L.fig_win_rates(df, by), lambda: L.fig_blocked(df), lambda: L.fig_points(df),
             lambda: L.paired_difference(df, results, metric)]
    for call in calls:
        outcome(call, lambda: results.equals(snapshot))
    assert results.equals(snapshot)


@SETTINGS
@given(successes=junk, n=junk, values=junk)
def test_lab_statistics(successes: Any, n: Any, values: Any) -> None:
    ok, (lo, hi) = outcome(lambda: L.wilson(successes, n))[0], (0.0, 1.0)
    if ok:
        lo, hi = L.wilson(successes, n)
        assert (math.isnan(lo) and math.isnan(hi)) or 0 <= lo <= hi <= 1
    ok, got = outcome(lambda: L.mean_ci(values))
    assert not ok or len(got) == 3


@LAB_SETTINGS
@given(a=st.one_of(junk, st.just("crazy-eights-quick")), metric=st.one_of(junk, st.just("turns")),
       games=_small(junk, st.integers(1, 3)))
def test_compare_rules(a: Any, metric: Any, games: Any) -> None:
    ok, got = outcome(lambda: L.compare_rules(a, "crazy-eights-classic", metric, games=games,
                                              workers=1))
    assert not ok or got.hands == games


# -- coverage ------------------------------------------------------------------------------------

#: every public callable outside the engine core that H6 owns, and the test that throws bad
#: values at it
COVERED: dict[str, Callable[..., Any]] = {
    "crazylab.bots.make_bot": test_make_bot,
    "crazylab.bots.MonteCarloBot": test_monte_carlo_bot_settings,
    "crazylab.bots.RandomBot": test_simple_bots_names,
    "crazylab.bots.RuleBot": test_simple_bots_names,
    "crazylab.bots.MonteCarloBot.choose": test_choose,
    "crazylab.bots.RandomBot.choose": test_choose,
    "crazylab.bots.RuleBot.choose": test_choose,
    "crazylab.bots.determinize": test_determinize_and_constraints,
    "crazylab.bots.hand_constraints": test_determinize_and_constraints,
    "crazylab.bots.worlds": test_determinize_and_constraints,
    "crazylab.bots.play_out": test_play_out,
    "crazylab.bots.play_hand": test_play_hand,
    "crazylab.bots.bot_name": test_bot_name_is_text_for_anything,
    "crazylab.match.Match": test_match_arguments,
    "crazylab.match.Match.record": test_match_record,
    "crazylab.match.Match.play_random": test_match_play_random,
    "crazylab.match.Match.next_hand": test_match_next_hand,
    "crazylab.sim.simulate": test_simulate_arguments,
    "crazylab.sim.check_bot": test_sim_helpers,
    "crazylab.sim.check_out": test_sim_helpers,
    "crazylab.sim.write_atomically": test_sim_helpers,
    "crazylab.sim.hand_seed": test_sim_helpers,
    "crazylab.sim.bots_seed": test_sim_helpers,
    "crazylab.sim.table_configs": test_sim_helpers,
    "crazylab.sim.check_dataset": test_sim_dataset_helpers,
    "crazylab.sim.read_dataset": test_sim_dataset_helpers,
    "crazylab.sim.client_threads": test_sim_dataset_helpers,
    "crazylab.sim.available_cpus": test_sim_dataset_helpers,
    "crazylab.sim.play_one": test_play_one_is_the_workers_entry,
    "crazylab.examples.load_example": test_load_and_replay,
    "crazylab.examples.load_game": test_load_and_replay,
    "crazylab.examples.Example.replay": test_load_and_replay,
    "crazylab.examples.Example.play": test_load_and_replay,
    "crazylab.examples.Example.frames": test_load_and_replay,
    "crazylab.examples.Example.start": test_load_and_replay,
    "crazylab.bots.RandomBot.choose_legal": test_choose_legal,
    "crazylab.examples.save_game": test_save_and_convert,
    "crazylab.examples.game_to_example": test_save_and_convert,
    "crazylab.examples.check": test_check,
    "crazylab.examples.list_examples": test_list_examples_takes_nothing,
    "crazylab.cli.main": test_cli_main,
    "crazylab.lab.seat_table": test_lab_tables_and_figures,
    "crazylab.lab.summary": test_lab_tables_and_figures,
    "crazylab.lab.win_rates": test_lab_tables_and_figures,
    "crazylab.lab.fig_hand_length": test_lab_tables_and_figures,
    "crazylab.lab.fig_variants": test_lab_tables_and_figures,
    "crazylab.lab.fig_win_rates": test_lab_tables_and_figures,
    "crazylab.lab.fig_blocked": test_lab_tables_and_figures,
    "crazylab.lab.fig_points": test_lab_tables_and_figures,
    "crazylab.lab.paired_difference": test_lab_tables_and_figures,
    "crazylab.lab.wilson": test_lab_statistics,
    "crazylab.lab.mean_ci": test_lab_statistics,
    "crazylab.lab.compare_rules": test_compare_rules,
}

#: public names that are not entry points to throw values at
NOT_CALLS = {"crazylab.bots.Bot": "a Protocol", "crazylab.bots.Bot.choose": "a Protocol's",
             "crazylab.bots.BotError": "the error itself",
             "crazylab.sim.SimulationError": "the error itself",
             "crazylab.sim.SimulationInterrupted": "raised by simulate, not called",
             "crazylab.sim.PartSummary": "a record a dataset run's workers send back",
             "crazylab.examples.ExampleError": "the error itself",
             "crazylab.examples.Example": "made by load_example (its replay is tested there)",
             "crazylab.examples.Frame": "a record made by Example.frames",
             "crazylab.examples.Step": "a record made by load_example",
             "crazylab.lab.LabError": "the error itself",
             "crazylab.lab.Comparison": "a record made by paired_difference"}


def _public() -> set[str]:
    found = set()
    for mod in (B, M, S, E, L, cli):
        names = getattr(mod, "__all__", None) or (["Match"] if mod is M else ["main"])
        for name in names:
            obj = getattr(mod, name)
            if not callable(obj):
                continue
            found.add(f"{mod.__name__}.{name}")
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                for meth, _ in inspect.getmembers(obj, inspect.isfunction):
                    if not meth.startswith("_") and meth in vars(obj):
                        found.add(f"{mod.__name__}.{name}.{meth}")
    return found


def test_every_public_callable_is_covered() -> None:
    missing = sorted(_public() - set(COVERED) - set(NOT_CALLS))
    assert not missing, f"public callables with no bad-input test: {missing}"

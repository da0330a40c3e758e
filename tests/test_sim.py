"""The simulation lab (crazylab.sim, crazylab.lab): reproducible runs whatever the workers,
the Dask path, the rows against replayed hands, figures against their DataFrame, the
command line, and the engine's fast paths that simulations rely on."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crazylab as cl
from crazylab.bots import make_bot, play_hand
from crazylab.engine import game as game_module
from crazylab.engine.events import Event
from crazylab.engine.game import Game
from crazylab.lab import (
    compare_rules,
    fig_blocked,
    fig_hand_length,
    fig_points,
    fig_variants,
    fig_win_rates,
    paired_difference,
    seat_table,
    summary,
    wilson,
    win_rates,
)
from crazylab.sim import bots_seed, hand_seed, simulate

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

pd = pytest.importorskip("pandas")

SMALL = dict(rules=["crazy-eights-classic", "crazy-eights-quick"], players=[2, 3],
             bots=["rules", "random"], games=12, seed=5)


@pytest.fixture(scope="module")
def small() -> pd.DataFrame:
    return simulate(**SMALL, workers=1)


# -- reproducibility -------------------------------------------------------------------------------


def test_a_run_is_reproducible_from_its_seed(small: pd.DataFrame) -> None:
    again = simulate(**SMALL, workers=1)
    pd.testing.assert_frame_equal(small, again)
    other = simulate(**{**SMALL, "seed": 6}, workers=1)
    assert not other["seed"].equals(small["seed"])


def test_a_run_is_identical_across_worker_counts(small: pd.DataFrame) -> None:
    """Two processes, chunks of five hands finishing in any order: the same rows."""
    parallel = simulate(**SMALL, workers=2, chunk=5)
    pd.testing.assert_frame_equal(small, parallel)


def test_the_dask_path_runs_on_a_local_cluster(small: pd.DataFrame) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = simulate(**SMALL, client=client, chunk=7)
    pd.testing.assert_frame_equal(small, on_dask)


def test_a_concurrent_futures_executor_works_as_client(small: pd.DataFrame) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        threaded = simulate(**SMALL, client=pool, chunk=4)
    pd.testing.assert_frame_equal(small, threaded)


# -- the rows ----------------------------------------------------------------------------


def test_one_row_per_hand_with_the_documented_columns(small: pd.DataFrame) -> None:
    assert len(small) == 2 * 2 * SMALL["games"]
    for col in ("hand", "seed", "rules", "options", "variant", "players", "bots", "winner",
                "winners", "winner_bot", "reason", "blocked", "turns", "moves", "cards_drawn",
                "reshuffles", "points", "bot_0", "bot_2", "score_0", "score_2"):
        assert col in small.columns
    assert (small["blocked"] == (small["reason"] != "OUT")).all()
    assert set(small["reason"]) <= {"OUT", "BLOCKED", "VOID"}
    two = small[small["players"] == 2]
    assert two["bot_2"].isna().all() and two["score_2"].isna().all()
    # seats alternate rules, random, rules ... as given
    three = small[small["players"] == 3]
    assert set(three["bots"]) == {"rules|random|rules"}


def test_rows_match_the_hands_replayed(small: pd.DataFrame) -> None:
    """Each row's deal seed, winner, turns, moves, draws, reshuffles and points are those of
    the hand played again from its seed with the same bots."""
    for row in small.sample(6, random_state=1).itertuples():
        n = row.players
        game = Game.new(cl.rules(row.rules), n, seed=hand_seed(SMALL["seed"], row.hand),
                        keep_undo=False)
        assert game.seed == row.seed
        bots = [make_bot(b) for b in row.bots.split("|")]
        play_hand(game, bots, [random.Random(bots_seed(SMALL["seed"], row.hand))] * n)
        assert row.turns == game.turns and row.moves == len(game.moves)
        assert row.reshuffles == game.reshuffles
        assert row.cards_drawn == sum(e.count for e in game.events if e.kind == "drew")
        assert row.points == sum(abs(s) for s in game.scores)
        assert row.winners == ",".join(map(str, game.winners))
        assert [getattr(row, f"score_{s}") for s in range(n)] == list(game.scores)


def test_same_hand_number_same_deal_under_every_rule_set(small: pd.DataFrame) -> None:
    by_hand = small.groupby(["hand", "players"])["seed"].nunique()
    assert (by_hand == 1).all()


def test_rotate_moves_the_bots_one_seat_per_hand() -> None:
    df = simulate("crazy-eights-quick", players=2, bots=["rules", "random"], games=4, seed=1,
                  rotate=True, workers=1)
    assert list(df["bots"]) == ["rules|random", "random|rules"] * 2


def test_options_and_bad_arguments() -> None:
    variant = cl.rules("crazy-eights", draw_rule="one")
    df = simulate(variant, players=2, games=3, seed=1, workers=1)
    assert set(df["options"]) == {"draw_rule=one, must_play_drawn=False"}
    assert set(df["variant"]) == {"crazy-eights [draw_rule=one, must_play_drawn=False]"}
    with pytest.raises(ValueError):
        simulate("crazy-eights", players=9, games=1, workers=1)
    with pytest.raises(ValueError):
        simulate("crazy-eights", bots="nobody", games=1, workers=1)


# -- tables, statistics, comparisons ---------------------------------------------------------------


def test_win_rates_agree_with_the_rows(small: pd.DataFrame) -> None:
    table = win_rates(small, by="seat")
    for t in table.itertuples():
        part = small[(small["variant"] == t.variant) & (small["players"] == t.players)]
        credit = part["winners"].map(
            lambda w, s=t.seat: 1 / len(w.split(",")) if str(s) in w.split(",") else 0.0)
        assert t.hands == len(part) and t.wins == pytest.approx(credit.sum())
        assert t.low <= t.rate <= t.high
    by_bot = win_rates(small, by="bot")
    assert by_bot["hands"].sum() == len(seat_table(small))


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_summary_means(small: pd.DataFrame) -> None:
    table = summary(small)
    part = small[(small["variant"] == "crazy-eights-quick") & (small["players"] == 3)]
    row = table.loc[("crazy-eights-quick", 3)]
    assert row["hands"] == len(part)
    assert row["turns"] == pytest.approx(part["turns"].mean(), abs=1e-3)


def test_compare_rules_pairs_the_same_deals() -> None:
    """The same rule set against itself differs by exactly zero; two rule sets give the mean
    of the per-hand differences."""
    same = compare_rules("crazy-eights-quick", "crazy-eights-quick", "turns", games=10,
                         seed=2, workers=1)
    assert same.diff == 0 and same.low == 0 and same.high == 0
    a = simulate("crazy-eights-classic", games=15, seed=3, workers=1)
    b = simulate("crazy-eights-quick", games=15, seed=3, workers=1)
    c = paired_difference(a, b, "cards_drawn")
    assert c.hands == 15
    assert c.diff == pytest.approx((b["cards_drawn"] - a["cards_drawn"]).mean())
    assert c.low <= c.diff <= c.high
    assert "cards_drawn" in str(c)


# -- figures, checked against the DataFrame --------------------------------------------------------


def test_hand_length_figure_shows_every_hand(small: pd.DataFrame) -> None:
    fig = fig_hand_length(small)
    assert fig.data, "the figure has no trace"
    shown = sorted(y for trace in fig.data for y in trace.y)
    assert len(small) and shown == sorted(small["turns"])


def test_win_rate_figure_matches_the_table(small: pd.DataFrame) -> None:
    fig = fig_win_rates(small, by="seat")
    table = win_rates(small, by="seat")
    assert sorted(int(trace.name) for trace in fig.data) == sorted(set(table["seat"]))
    for trace in fig.data:
        seat = int(trace.name)
        rows = table[table["seat"] == seat]
        assert list(trace.y) == pytest.approx(list(rows["rate"]))
        assert list(trace.error_y.array) == pytest.approx(list(rows["high"] - rows["rate"]))


def test_blocked_points_and_variant_figures(small: pd.DataFrame) -> None:
    fig = fig_blocked(small)
    expected = small.groupby(["variant", "players"], sort=False)["blocked"].mean()
    shown = {(x, int(t.name)): y for t in fig.data for x, y in zip(t.x, t.y, strict=True)}
    assert shown == pytest.approx(expected.to_dict())
    points = fig_points(small)
    assert sorted(x for t in points.data for x in t.x) == sorted(small["points"])
    variants = fig_variants(small, metrics=("turns",))
    two = [t for t in variants.data if t.name == "2 players"][0]
    means = small[small["players"] == 2].groupby("variant", sort=False)["turns"].mean()
    assert list(two.y) == pytest.approx(list(means))


# -- the command line ------------------------------------------------------------------------------


def test_cli_simulate_writes_csv_and_prints_a_summary(tmp_path, capsys) -> None:
    from crazylab.cli import main

    out = tmp_path / "hands.csv"
    assert main(["simulate", "crazy-eights-quick", "-n", "2", "--bots", "rules,random",
                 "--games", "6", "--seed", "1", "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "crazy-eights-quick" in printed and "rate" in printed
    written = pd.read_csv(out)
    assert len(written) == 6
    assert list(written["turns"]) == list(
        simulate("crazy-eights-quick", 2, ["rules", "random"], 6, 1, workers=1)["turns"])
    assert main(["simulate", "crazy-eights", "--games", "1", "--out", "x.txt"]) == 2
    assert main(["simulate", "nope", "--games", "1"]) == 2


def test_cli_simulate_writes_parquet(tmp_path) -> None:
    pytest.importorskip("pyarrow")
    from crazylab.cli import main

    out = tmp_path / "hands.parquet"
    assert main(["simulate", "crazy-eights", "--games", "4", "--workers", "1",
                 "--option", "draw_rule=one", "--out", str(out)]) == 0
    assert set(pd.read_parquet(out)["options"]) == {"draw_rule=one, must_play_drawn=False"}


def test_import_crazylab_stays_light() -> None:
    """``import crazylab`` (and ``crazylab.simulate``) loads no pandas, plotly or numpy."""
    code = ("import sys, crazylab; crazylab.simulate; "
            "print([m for m in ('pandas', 'plotly', 'numpy') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


# -- the engine's fast paths keep its behaviour -------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**62), n=st.integers(1, 120))
def test_engine_shuffle_is_random_shuffle(seed: int, n: int) -> None:
    """Game.new deals with an inlined shuffle: the same permutation as random.shuffle (up to
    120 cards: two decks' reshuffles, and enough rejections to draw more outputs)."""
    a, b = list(range(n)), list(range(n))
    random.Random(seed).shuffle(a)
    game_module._shuffle(random.Random(seed), b)
    assert a == b


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(
    ["crazy-eights", "crazy-eights-quick", "crazy-8s-music", "crazy-8s-level-2"]))
def test_simulation_games_play_like_undoable_games(seed: int, name: str) -> None:
    """keep_undo=False (no snapshots, the fast push) plays exactly like a normal game: the
    same legal moves at every step, the same log and result; the log's events are interned
    but equal to fresh ones."""
    fast = Game.new(name, 3, seed=seed, keep_undo=False)
    slow = Game.new(name, 3, seed=seed)
    rng = random.Random(seed)
    while not slow.over:
        assert fast.legal_moves() == slow.legal_moves()
        legal = slow.legal_moves()
        move = legal[rng.randrange(len(legal))]
        fast.push(move)
        slow.push(str(move))  # the text path: parsed, checked, snapshotted
    assert fast.result == slow.result and fast.events == slow.events
    assert all(isinstance(e, Event) for e in fast.events)

"""The ``mc`` bot (issue 21, item 6): reproducible per seed, no playout for a forced move, an
immediate win taken at once, never an illegal move, a budget spent where the choice is close,
and clearly stronger than random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import crazylab as cl
from crazylab import bots
from crazylab.bots import MonteCarloBot, make_bot, play_hand
from crazylab.engine.game import Game
from crazylab.engine.observe import Observation
from crazylab.lab import win_rates

pytestmark = pytest.mark.engine

RULES = "crazy-eights-quick"


@pytest.fixture
def rollouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A spy on the playout function: one entry per rollout, in the current decision."""
    calls: list[int] = []
    real = bots._rollout

    def spy(game: Game, rng: random.Random, greedy: float, max_moves: int = 2000) -> None:
        calls.append(1)
        real(game, rng, greedy, max_moves)

    monkeypatch.setattr(bots, "_rollout", spy)
    return calls


def positions(seeds: range, rules: str = RULES, players: int = 2) -> Iterator[Observation]:
    """Observations of the seat to play, every few moves of hands played at random."""
    for seed in seeds:
        game = Game.new(rules, players, seed=seed, keep_undo=False)
        rng = random.Random(seed)
        while not game.over:
            if rng.random() < 0.3:
                yield game.observation(game.to_play)
            legal = game.legal_moves()
            game.push(legal[rng.randrange(len(legal))])


def test_same_seed_same_move_and_a_whole_hand_replays() -> None:
    bot = make_bot("mc:8")
    obs = next(o for o in positions(range(1, 50)) if len(o.legal) >= 3)
    assert bot.choose(obs, random.Random(7)) == bot.choose(obs, random.Random(7))

    def hand() -> list[str]:
        game = Game.new(RULES, 2, seed=11, keep_undo=False)
        play_hand(game, [bot, make_bot("rules")], [random.Random(1), random.Random(2)])
        return [str(m) for m in game.moves]

    assert hand() == hand()


def test_one_legal_move_runs_no_playout(rollouts: list[int]) -> None:
    forced = Game.from_position(RULES, 2, hands=[["2S"], ["3S"]], stock=["KC"],
                                discard=["9H"], seed=1)
    assert str(MonteCarloBot().choose(forced.observation(0), random.Random(0))) == "draw"
    assert rollouts == []
    # the spy does see the playouts of a real choice
    choice = Game.from_position(RULES, 2, hands=[["2H", "5H", "KC"], ["3S", "4S"]],
                                stock=["QC", "JD"], discard=["9H"], seed=1)
    MonteCarloBot(playouts=4).choose(choice.observation(0), random.Random(0))
    assert rollouts


def test_takes_a_move_that_wins_at_once(rollouts: list[int]) -> None:
    # seat 0 may play its last card, 5H, and win, or draw ("crazy-eights": a voluntary draw)
    game = Game.from_position("crazy-eights", 2, hands=[["5H"], ["3S", "4S", "KD"]],
                              stock=["QC", "JD", "2C"], discard=["9H"], seed=1)
    obs = game.observation(0)
    assert len(obs.legal) >= 2
    move = MonteCarloBot().choose(obs, random.Random(0))
    assert str(move) == "5H"
    game.push(move)
    assert game.over and game.winners == (0,)
    assert rollouts == []


@pytest.mark.parametrize(("rules", "players"), [(RULES, 2), ("crazy-eights-classic", 3)])
def test_never_an_illegal_move(rules: str, players: int) -> None:
    bot = MonteCarloBot(playouts=3)
    seen = 0
    for i, obs in enumerate(positions(range(40), rules, players)):
        if len(obs.legal) < 2:
            continue
        assert bot.choose(obs, random.Random(i)) in obs.legal
        seen += 1
    assert seen >= 100


def test_budget_is_at_most_playouts_per_move_and_less_for_a_clear_choice(
        rollouts: list[int]) -> None:
    bot = MonteCarloBot(playouts=8)
    checked = 0
    for i, obs in enumerate(positions(range(20))):
        k = len(obs.legal)
        if k < 2:
            continue
        rollouts.clear()
        bot.choose(obs, random.Random(i))
        assert 0 < len(rollouts) <= bot.playouts * k
        if k >= 3:
            assert len(rollouts) < bot.playouts * k  # halving: the worse moves get fewer
        checked += 1
    assert checked >= 20
    # a clear choice (going out) costs nothing
    rollouts.clear()
    win = Game.from_position("crazy-eights", 2, hands=[["5H"], ["3S", "4S"]], stock=["QC", "JD"],
                             discard=["9H"], seed=1)
    bot.choose(win.observation(0), random.Random(0))
    assert rollouts == []


def test_beats_random_play() -> None:
    """Heads-up "crazy-eights-classic", seats swapped every hand. Luck weighs a lot in this
    game: the rules of thumb themselves win about 70% of such hands against random play (60%
    under the quick rule), so the bar is a clear win, not 70%."""
    df = cl.simulate("crazy-eights-classic", players=2, bots=["mc:8", "random"], games=200,
                     seed=5, rotate=True, workers=1, progress=False)
    row = win_rates(df, by="bot").set_index("bot").loc["mc:8"]
    assert row["hands"] == 200
    assert row["rate"] > 0.6 and row["low"] > 0.5


def test_a_clear_choice_stops_early_and_the_old_configuration_spends_its_budget(
        rollouts: list[int]) -> None:
    """With ``cull`` (the default) a decision stops once no challenger is ahead of the rules'
    favourite: over many positions it spends fewer playouts than the same bot without it,
    and some decisions spend less than half of the budget; ``cull=False`` spends it all."""
    culled, full = MonteCarloBot(playouts=32), MonteCarloBot(playouts=32, cull=False)
    spent: dict[str, list[int]] = {"culled": [], "full": []}
    moves_agree = 0
    for i, obs in enumerate(positions(range(12))):
        if len(obs.legal) < 2 or len(set(obs.legal)) < 2:
            continue
        for label, bot in (("culled", culled), ("full", full)):
            rollouts.clear()
            move = bot.choose(obs, random.Random(i))
            assert move in obs.legal
            spent[label].append(len(rollouts))
        moves_agree += 1
    assert moves_agree >= 20
    assert sum(spent["culled"]) < 0.8 * sum(spent["full"])
    assert any(c < 16 for c in spent["culled"])
    # without culling, every decision with a real choice spends most of the budget
    assert min(f for f in spent["full"] if f) >= 24


def test_depth_scores_an_unfinished_hand_by_the_cards_held() -> None:
    game = Game.from_position(RULES, 3, hands=[["2S"], ["3S", "4S", "5D"], ["6S", "7S"]],
                              stock=["KC", "QD"], discard=["9H"], seed=1)
    scores = [bots._reward(game, s) for s in range(3)]
    assert scores[0] > scores[2] > scores[1] > 0
    assert sum(scores) == pytest.approx(1.0)
    # a finished hand scores its result, not the cards
    game = Game.from_position("crazy-eights", 2, hands=[["5H"], ["3S", "4S"]],
                              stock=["QC", "JD"], discard=["9H"], seed=1)
    game.push(next(m for m in game.legal_moves() if str(m) == "5H"))
    assert (bots._reward(game, 0), bots._reward(game, 1)) == (1.0, 0.0)


def test_a_playout_stops_after_depth_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    lengths: list[int] = []
    real = bots._rollout

    def spy(game: Game, rng: random.Random, greedy: float, max_moves: int = 2000) -> None:
        before = len(game.moves)
        real(game, rng, greedy, max_moves)
        lengths.append(len(game.moves) - before)
        assert max_moves == 5

    monkeypatch.setattr(bots, "_rollout", spy)
    bot = MonteCarloBot(playouts=16, depth=5)
    for i, obs in enumerate(positions(range(6))):
        if len(obs.legal) >= 2:
            assert bot.choose(obs, random.Random(i)) in obs.legal
    assert lengths and max(lengths) == 5


@pytest.mark.parametrize(("setting", "value"), [("depth", 0), ("depth", 2.5), ("depth", True),
                                                ("depth", 10**6), ("cull", "yes"),
                                                ("cull", 1)])
def test_bad_settings_are_refused_in_one_line(setting: str, value: object) -> None:
    with pytest.raises(bots.BotError, match=setting) as err:
        MonteCarloBot(**{setting: value})  # type: ignore[arg-type]
    assert "\n" not in str(err.value)


def test_the_old_configuration_plays_as_before_the_depth_and_the_early_stop() -> None:
    """``MonteCarloBot(depth=None, cull=False)`` is the bot bench/bench_mc.py compares with:
    its playouts reach the end of every hand (each reward is a whole win, a share of a tie,
    or nothing)."""
    old = MonteCarloBot(playouts=8, depth=None, cull=False)
    obs = next(o for o in positions(range(1, 50)) if len(set(o.legal)) >= 3)
    assert old.choose(obs, random.Random(3)) == old.choose(obs, random.Random(3))
    seen: list[float] = []
    real = bots._reward

    def spy(game: Game, seat: int) -> float:
        assert game.result is not None
        got = real(game, seat)
        seen.append(got)
        return got

    mp = pytest.MonkeyPatch()
    mp.setattr(bots, "_reward", spy)
    try:
        old.choose(obs, random.Random(3))
    finally:
        mp.undo()
    assert seen and set(seen) <= {0.0, 0.5, 1.0}


def test_a_redealt_world_forgets_the_legal_moves_of_the_world_it_was_copied_from() -> None:
    """Game.redeal_hidden (the mc bot's later worlds) gives the seat to play other cards: its
    legal moves must be those of the new hand, not a cached list from the copied world."""
    import crazylab as cl

    g = cl.Game.new("crazy-eights-classic", 2, seed=3)
    before = g.legal_moves()
    world = g.copy()
    assert world.legal_moves() == before  # now cached on the world
    seat = world.to_play
    other = 1 - seat
    hands = [list(h) for h in world.hands]
    hands[seat], hands[other] = hands[other], hands[seat]
    assert len(hands[seat]) == len(world.hands[seat]) == 7  # two seats of seven: a swap fits
    world.redeal_hidden(hands, world.stock_cards)
    fresh = cl.Game.from_position("crazy-eights-classic", 2, hands=hands,
                                  stock=world.stock_cards[::-1],
                                  piles=[list(p) for p in world.piles], to_play=seat,
                                  calls=list(world.calls))
    assert world.legal_moves() == fresh.legal_moves()
    assert g.legal_moves() == before and world.hands != g.hands

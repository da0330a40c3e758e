"""Computer opponents (crazylab.bots): legal play in every rule set, no look at hidden cards,
the rules of thumb one by one, and the Monte Carlo bot's picture of the hidden cards."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import crazylab as cl
from crazylab.bots import (
    MonteCarloBot,
    RandomBot,
    RuleBot,
    determinize,
    hand_constraints,
    make_bot,
    play_hand,
)
from crazylab.engine.cards import CARDS
from crazylab.engine.game import Game
from crazylab.engine.moves import Move, play_move
from crazylab.engine.observe import Observation

pytestmark = pytest.mark.engine


def _playable(name: str) -> bool:
    """A rule set whose games can be created (Breens needs its variant module)."""
    try:
        Game.new(name, 2, seed=0).legal_moves()
    except Exception:
        return False
    return True


PRESETS = [pytest.param(n, marks=pytest.mark.skipif(not _playable(n), reason=f"{n} unavailable"))
           for n in cl.PRESETS]
PLAYABLE = [n for n in cl.PRESETS if _playable(n)]
#: rule sets whose hands are short enough for Monte Carlo playouts in a test
SHORT = [n for n in ("crazy-eights", "crazy-eights-classic", "crazy-eights-quick",
                     "crazy-8s-music", "crazy-8s-level-1", "crazy-8s-level-3") if n in PLAYABLE]


@dataclass
class Checked:
    """Wraps a bot: asserts every observation is the mover's own and every move is legal."""

    bot: object
    seat: int
    decisions: int = 0

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        assert obs.seat == self.seat == obs.to_play
        move = self.bot.choose(obs, rng)
        assert move in obs.legal, f"{self.name} chose {move}, not among {obs.legal}"
        self.decisions += 1
        return move


def _play(name: str, players: int, seed: int, bots: list[object]) -> tuple[Game, list[Checked]]:
    game = Game.new(name, players, seed=seed, keep_undo=False)
    checked = [Checked(b, s) for s, b in enumerate(bots)]
    play_hand(game, checked, [random.Random(seed * 10 + s) for s in range(players)])
    return game, checked


# -- every bot plays only legal moves, in every rule set ---------------------------------------


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_and_rule_bots_play_only_legal_moves(name: str, seed: int, players: int) -> None:
    """RandomBot and RuleBot, mixed at one table, finish a hand of every rule set with legal
    moves only (Checked asserts each decision; push would refuse an illegal one too)."""
    r = cl.rules(name)
    players = max(r.min_players, min(players, r.max_players))
    bots = [RuleBot() if s % 2 else RandomBot() for s in range(players)]
    game, checked = _play(name, players, seed, bots)
    assert game.over
    assert sum(c.decisions for c in checked) <= len(game.moves)


@pytest.mark.parametrize("name", SHORT + (["crazy-breens"] if "crazy-breens" in PLAYABLE else []))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_monte_carlo_bot_plays_only_legal_moves(name: str, seed: int) -> None:
    """The Monte Carlo bot (a tiny budget) finishes hands with legal moves only; in Crazy
    Breens effect phases it falls back to the rules of thumb."""
    game, checked = _play(name, 2, seed, [MonteCarloBot(playouts=2), RuleBot()])
    assert game.over and checked[0].decisions > 0


# -- a bot never sees a hidden card -------------------------------------------------------------


def _advance(game: Game, rng: random.Random, moves: int) -> None:
    """Play up to ``moves`` uniformly random legal moves (fewer if the hand ends)."""
    for _ in range(moves):
        if game.over:
            return
        legal = game.legal_moves()
        game.push(legal[rng.randrange(len(legal))])


def _scrambled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card ``seat`` cannot see (other hands, the stock order)
    dealt again at random: the public log and ``seat``'s own hand are unchanged."""
    other = game.copy()
    hidden = [c for s in range(game.n) if s != seat for c in game.hands[s]] + game.stock_cards
    rng.shuffle(hidden)
    k = 0
    for s in range(game.n):
        if s != seat:
            size = len(game.hands[s])
            other.hands[s] = hidden[k:k + size]
            k += size
    other.stock_cards = hidden[k:]
    return other


BOT_SPECS = ["random", "rules", "mc:6"]


@pytest.mark.parametrize("spec", BOT_SPECS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 30), data=st.data())
def test_bot_behaves_identically_when_hidden_cards_are_scrambled(spec: str, seed: int,
                                                                  moves: int, data) -> None:
    """A bot's decision depends only on what its seat can see: with the opponents' hands and
    the stock scrambled, its observation is equal and its move identical."""
    name = data.draw(st.sampled_from(SHORT))
    game = Game.new(name, 3, seed=seed)
    rng = random.Random(seed)
    _advance(game, rng, moves)
    assume(not game.over and len(game.legal_moves()) >= 2)  # a real decision
    seat = game.to_play
    other = _scrambled(game, seat, random.Random(seed + 1))
    assume(any(sorted(other.hands[s]) != sorted(game.hands[s])
               for s in range(game.n) if s != seat))  # the hidden cards really moved
    assert sorted(other.hands[seat]) == sorted(game.hands[seat])
    obs, obs2 = game.observation(seat), other.observation(seat)
    assert obs == obs2
    bot = make_bot(spec)
    assert bot.choose(obs, random.Random(seed)) == bot.choose(obs2, random.Random(seed))


def test_observation_holds_no_other_hand_or_stock_card() -> None:
    """The observation shows no card of another hand or of the stock except those public in
    the log (played cards); dealt and drawn cards of other seats are blanked."""
    game = Game.new("crazy-eights-quick", 2, seed=11)
    obs = game.observation(0)
    hidden = set(game.hands[1]) | set(game.stock_cards)
    assert not hidden & set(obs.hand)
    for e in obs.events:
        if e.kind in ("dealt", "drew") and e.seat != 0:
            assert e.cards == ()


# -- the rules of thumb --------------------------------------------------------------------------


def _choose(hand: list[str], discard: list[str], other: list[str] | None = None,
            rules: str = "crazy-eights-quick", stock: tuple[str, ...] = ("7C", "7D", "7S"),
            suit: str | None = None) -> str:
    game = Game.from_position(rules, 2, hands=[hand, other or ["KC", "QD"]], stock=list(stock),
                              discard=discard, suit=suit, seed=1)
    return str(RuleBot().choose(game.observation(0), random.Random(0)))


def test_rule_bot_keeps_eights_for_last() -> None:
    """AP-7/SR-13: an eight is playable on anything; the rule bot plays the matching 5H
    instead, keeping the eight for last."""
    assert _choose(["8S", "5H", "KD"], ["9H"]) == "5H"


def test_rule_bot_plays_an_eight_when_it_is_the_only_play() -> None:
    assert _choose(["8S", "KD", "2D"], ["9H"]).startswith("8S:")


def test_rule_bot_calls_the_suit_it_holds_most_of() -> None:
    """AP-7/SR-12: the eight names a suit; the rule bot names the one most of its remaining
    hand follows (diamonds)."""
    assert _choose(["8S", "2D", "5D", "KD", "3C"], ["9H"]) == "8S:D"


def test_rule_bot_follows_the_suit_it_holds_most_of() -> None:
    """On 9H it can play 9C (turning the suit to clubs, where it holds two more) or 2H (no
    heart left): it plays 9C."""
    assert _choose(["9C", "2H", "4C", "6C"], ["9H"]) == "9C"


def test_rule_bot_sheds_high_scoring_cards_first() -> None:
    """C-16: with two equally good plays (KH and 3H, both leaving 5S and 6S without a fit), it
    sheds the king (10 points) before the three."""
    assert _choose(["KH", "3H", "5S", "6S"], ["9H"]) == "KH"


def test_rule_bot_goes_out_when_it_can() -> None:
    assert _choose(["8S"], ["9H"]).startswith("8S")


def test_rule_bot_draws_only_when_nothing_fits() -> None:
    assert _choose(["2S", "3D"], ["9H"]) == "draw"


@pytest.mark.skipif("crazy-breens" not in PLAYABLE, reason="Crazy Breens effects unavailable")
def test_BR_22_rule_bot_counters_when_hit() -> None:
    """BR-22/BR-M4: hit by a two, the rule bot counters with its Jack instead of drawing."""
    game = Game.from_position("crazy-breens", 2, hands=[["2H", "5C"], ["JS", "4D", "6C"]],
                              stock=["3C", "3D", "3S", "4C", "4S", "5D"], discard=["9H"],
                              seed=2)
    game.push("2H")
    assert game.phase == "penalty" and game.to_play == 1
    obs = game.observation(1)
    assert any(m.kind == "play" for m in obs.legal) and any(m.kind == "draw" for m in obs.legal)
    assert str(RuleBot().choose(obs, random.Random(0))) == "JS"


# -- Monte Carlo: the bot's picture of the hidden cards -------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 60), name=st.sampled_from(SHORT))
def test_determinized_world_matches_the_observation(seed: int, moves: int, name: str) -> None:
    """A determinized world keeps the seat's hand, the table, the hand sizes and the stock
    size; it uses every card exactly as often as the deck holds it; and the real hands
    satisfy the constraints read from the log (so the bot never rules out the truth)."""
    game = Game.new(name, 3, seed=seed)
    rng = random.Random(seed)
    _advance(game, rng, moves)
    if game.over:
        return
    seat = game.to_play
    obs = game.observation(seat)
    world = determinize(obs, random.Random(seed))
    assert world is not None
    assert sorted(world.hands[seat]) == sorted(game.hands[seat])
    assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
    assert len(world.stock_cards) == len(game.stock_cards)
    assert world.piles == game.piles and world.refs == game.refs
    placed = [c for h in world.hands for c in h] + world.stock_cards + \
        [c for p in world.piles for c in p]
    assert Counter(placed) == Counter(game.rules.deck)
    assert world.legal_moves() == game.legal_moves()
    for s, slots in hand_constraints(obs).items():
        truth = list(game.hands[s])
        assert len(slots) == len(truth)
        # some assignment of the true cards to the slots respects every slot
        for excluded in sorted(slots, key=len, reverse=True):
            fit = next((c for c in truth if c not in excluded), None)
            assert fit is not None
            truth.remove(fit)


VARIANT_RULES = [("crazy-breens", {}),
                 ("crazy-eights-classic", {"action_cards": "2=draw2,A=skip,Q=reverse,J=wild"}),
                 ("crazy-eights-classic", {"action_cards": "2=draw2,Q=reverse", "jump_in": True})]


@pytest.mark.skipif("crazy-breens" not in PLAYABLE, reason="Crazy Breens effects unavailable")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 80), which=st.integers(0, 2),
       players=st.integers(2, 4))
def test_a_world_rebuilds_a_variants_state_in_every_phase(seed: int, moves: int, which: int,
                                                           players: int) -> None:
    """In every phase of Crazy Breens (hits, the mid-draw Jack, Queen drops, calls) and of
    the house rules (draw hits, jump-in), a world rebuilt from the seat's observation has the
    game's own variant state, phase, calls and legal moves: the hidden cards are the only
    thing a world makes up."""
    name, options = VARIANT_RULES[which]
    game = Game.new(cl.rules(name, **options), players, seed=seed)
    rng = random.Random(seed)
    _advance(game, rng, moves)
    if game.over:
        return
    world = determinize(game.observation(game.to_play), random.Random(seed))
    assert world is not None, game.phase
    assert world.phase == game.phase and world.calls == game.calls and world.refs == game.refs
    assert world.direction == game.direction
    assert world.variant_state == game.variant_state
    assert world.legal_moves() == game.legal_moves()


def test_a_world_keeps_the_jack_just_drawn_that_may_counter() -> None:
    """BR-26: hit by a two, seat 1 draws a Jack as its first penalty card; only seat 1 sees
    it, and a world rebuilt from seat 1's view still offers it as a counter."""
    game = Game.from_position("crazy-breens", 2, hands=[["2H", "5C", "9C"], ["4D", "6C"]],
                              stock=["JS", "3C", "3D", "3S", "4C", "4S"], discard=["9H"],
                              seed=2)
    game.push("2H")
    game.push("draw")
    assert game.phase == "penalty" and game.to_play == 1
    assert "JS" in {str(m) for m in game.legal_moves()}
    world = determinize(game.observation(1), random.Random(0))
    assert world is not None and world.variant_state == game.variant_state
    assert world.legal_moves() == game.legal_moves()


def test_hand_constraints_read_a_forced_draw() -> None:
    """AP-9/AP-11 (quick rule): a player draws only when nothing fits, so after seat 1 draws
    on 9H no card it held then is a heart, a nine or an eight."""
    game = Game.from_position("crazy-eights-quick", 2,
                              hands=[["5C", "6C"], ["2S", "3S", "4D"]],
                              stock=["KS", "QS", "JS", "10S"], discard=["9H"], to_play=1, seed=1)
    game.push("draw")
    slots = hand_constraints(game.observation(0))[1]
    assert len(slots) == 4
    constrained = [x for x in slots if x]
    assert len(constrained) == 3
    assert all(cl.card("2H") in x and cl.card("9C") in x and cl.card("8D") in x
               for x in constrained)


def test_monte_carlo_bot_is_reproducible_and_takes_a_forced_move_at_once() -> None:
    game = Game.new("crazy-eights-quick", 2, seed=5)
    while len(game.legal_moves()) < 2:
        game.push(game.legal_moves()[0])
    obs = game.observation(game.to_play)
    bot = MonteCarloBot(playouts=4)
    assert bot.choose(obs, random.Random(3)) == bot.choose(obs, random.Random(3))
    forced = Game.from_position("crazy-eights-quick", 2, hands=[["2S"], ["3S"]],
                                stock=["KC"], discard=["9H"], seed=1)
    assert str(bot.choose(forced.observation(0), random.Random(0))) == "draw"


def test_make_bot_names_and_errors() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("rules"), RuleBot)
    assert make_bot("mc:12").playouts == 12
    bot = RuleBot()
    assert make_bot(bot) is bot
    for bad in ("nobody", "rules:3", "mc:0", "mc:x"):
        with pytest.raises(ValueError):
            make_bot(bad)
    with pytest.raises(ValueError, match="is not a bot"):
        make_bot(object())  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40])
def test_the_random_bot_picks_every_legal_move_about_equally_often(n: int) -> None:
    """RandomBot draws ``int(rng.random() * n)``: every index, none out of range, each close
    to 1/n of the picks (8,000 per move: a 12% band is over six standard deviations wide)."""
    legal = [play_move((c,), None, None) for c in CARDS[:n]]  # real moves: the compiled bot checks
    rng = random.Random(3)
    bot = RandomBot()
    picks = [bot.choose_legal(legal, rng) for _ in range(8000 * n)]
    counts = [picks.count(m) for m in legal]
    assert set(picks) == set(legal)
    assert all(abs(c - 8000) < 0.12 * 8000 for c in counts), counts

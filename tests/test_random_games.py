"""One random-game harness (after OpenSpiel's ``random_sim_test``) over every preset and each
variant option that changes the turn machine: seeded random games played to their end, and after
every move

* no card is created or lost (hands + stock + piles are the deck);
* the seat to play is one the rules allow: the turn stays with the mover until it ends, then
  passes to the next seat in the direction of play, past the seats a ``skipped`` event names
  (checked strictly on every plain turn change; the variants' own phases — a Breens penalty, a
  jump-in window — are checked to be a seat with a legal move);
* undo restores the exact previous state (a full snapshot, for a sample of moves);

and every game ends within a bound, with a result that sums as the rule set scores.
:func:`play_checked` is the harness; other test files call it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import crazylab as cl
from crazylab.engine.game import Game
from crazylab.engine.moves import Move

pytestmark = pytest.mark.engine

#: each game ends within this many moves (random players draw a lot; level 5 is the longest)
MAX_MOVES = 20_000
#: the share of moves whose undo is checked against a full snapshot
UNDO_SAMPLE = 0.15

#: the variant options that change the turn machine, one representative value each (every
#: entry a valid combination: the test fails on a RulesError)
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    # the core turn machine
    "chain": ("crazy-eights", {"chain": True}),
    "optional-play": ("crazy-eights", {"optional_play": True, "voluntary_draw": True}),
    "draw-one": ("crazy-eights", {"draw_rule": "one"}),
    "draw-up-to-n": ("crazy-eights", {"draw_rule": "up_to_n", "draw_limit": 2}),
    "draw-fixed": ("crazy-eights", {"draw_rule": "fixed", "draw_limit": 2}),
    "post-draw-any": ("crazy-eights", {"must_play_drawn": False, "post_draw_first_card": "any"}),
    "last-card-call": ("crazy-eights", {"last_card_call": True}),
    "reshuffle-eager": ("crazy-eights", {"reshuffle": "unlimited",
                                         "reshuffle_timing": "eager"}),
    "stacking": ("crazy-eights-classic", {"stacking": True}),
    "joker-victim-skips": ("crazy-8s-music", {"joker_victim_skips": True}),
    # house action cards (V12) and jump-in (V14)
    "house-action-cards": ("crazy-eights", {"action_cards": "2=draw2,A=skip,Q=reverse,J=wild,"
                                                            "QS=draw5"}),
    "house-jump-in": ("crazy-eights", {"jump_in": True, "decks": 2, "max_players": 8}),
    "house-both": ("crazy-eights-classic", {
        "jump_in": True, "decks": 2, "jokers": 4, "stacking": True,
        "action_cards": "2=draw2,A=skip,Q=reverse,JK=draw4+skip,8=skip"}),
    # Crazy Breens
    "breens-all-on-next": ("crazy-breens", {"stack_targeting": "all_on_next"}),
    "breens-hits-cost-turns": ("crazy-breens", {"extra_hits_cost_turns": True}),
    "breens-mid-draw-any": ("crazy-breens", {"mid_draw_counter": "any_card",
                                             "counter_stack": False}),
    "breens-mid-draw-twos": ("crazy-breens", {"mid_draw_applies_to": "twos_only"}),
    "breens-no-jack-counter": ("crazy-breens", {"jack_counters_joker": False,
                                                "starter_queen_drop": False}),
    "breens-draw-passing": ("crazy-breens", {"draw_passing": True}),
    "breens-flip-again": ("crazy-breens", {"flip_again_on_any_special": True}),
    "breens-queen-drop-2": ("crazy-breens", {"queen_drop_count": 2}),
    "breens-no-reshuffle": ("crazy-breens", {"reshuffle": "never"}),
}

#: the phases of an ordinary turn (a play, then more plays of a chain); the others (a Breens
#: penalty, drop or declaration, a jump-in window) belong to a variant or the starter
TURN_PHASES = ("play", "chain")

CASES: dict[str, tuple[str, dict[str, object]]] = {
    **{name: (name, {}) for name in cl.PRESETS}, **VARIANTS}
SEEDS = tuple(range(8))


@dataclass
class Report:
    """What one checked game saw (so a test can tell that it checked something)."""

    moves: int = 0
    strict_turns: int = 0  # turn changes checked against the direction of play
    undos: int = 0


def all_cards(game: Game) -> Counter:
    """Every card the game holds: the hands, the stock and the piles."""
    return (Counter(c for h in game.hands for c in h) + Counter(game.stock_cards)
            + Counter(c for p in game.piles for c in p))


def snapshot(game: Game) -> tuple:
    """The whole state: the position, the move list and the event log."""
    return (game.fingerprint(), tuple(map(str, game.moves)), tuple(game.events),
            tuple(tuple(h) for h in game.hands), game.to_play, game.phase)


def direction(game: Game) -> int:
    """The direction of play: 1 clockwise (seat + 1), -1 after an odd number of reverses."""
    return game.direction


def check_turn(game: Game, seat: int, turns: int, phase: str, before_events: int) -> bool:
    """Assert the seat to play after ``seat``'s move is one the rules allow; return whether the
    check was the strict one (a plain turn change in the direction of play)."""
    n, now = game.n, game.to_play
    assert 0 <= now < n, f"seat {now} to play at a {n}-player table"
    if game.over:
        return False
    assert game.legal_moves(), f"seat {now} is to play ({game.phase}) with no legal move"
    new = game.events[before_events:]
    if game.turns == turns:  # the turn did not end
        if phase in TURN_PHASES and game.phase in TURN_PHASES:
            assert now == seat, f"seat {seat}'s turn went on, but seat {now} is to play"
            return True
        return False
    plain = {"played", "called", "drew", "reshuffled", "skipped", "last_card"}
    if (game.turns != turns + 1 or phase not in TURN_PHASES or game.phase != "play"
            or any(e.kind not in plain for e in new) or _skip_card(game, new)):
        return False
    skipped = [e.seat for e in new if e.kind == "skipped"]
    expected = (seat + direction(game)) % n
    while skipped and expected == skipped[0]:
        skipped.pop(0)
        expected = (expected + direction(game)) % n
    assert now == expected, (f"after seat {seat}'s turn seat {now} is to play, not {expected} "
                             f"(direction {direction(game)}, events {[e.kind for e in new]})")
    return True


def _skip_card(game: Game, events: list) -> bool:
    """Whether this move played a card under house action cards (a skip or a reverse moves
    the turn itself: such a turn change is checked loosely)."""
    return bool(game.rules.action_cards) and any(e.kind == "played" for e in events)


def check_result(game: Game) -> None:
    """The result names real seats and sums as the rule set scores."""
    res, r, n = game.result, game.rules, game.n
    assert game.over and res is not None
    assert len(res.scores) == n and all(0 <= w < n for w in res.winners)
    if res.reason == "OUT":
        (w,) = res.winners
        assert not game.hands[w], "the winner went out"
        if r.scoring == "winner_collects":
            collected = sum(game.hand_points(s) for s in range(n) if s != w)
            assert res.scores == tuple(collected if s == w else 0 for s in range(n))
        elif r.scoring == "minus_one_per_card":
            assert res.scores == tuple(-len(h) for h in game.hands)
        else:
            assert res.scores == (0,) * n
    elif res.reason == "VOID":
        assert res.winners == () and res.scores == (0,) * n
    else:
        assert res.reason == "BLOCKED" and res.winners, res


#: a test's own check after each move: ``(game, move, seat that moved, events before it)``
AfterMove = Callable[[Game, Move, int, int], None]


def play_checked(game: Game, seed: int, *, max_moves: int = MAX_MOVES,
                 undo_sample: float = UNDO_SAMPLE, after_move: AfterMove | None = None
                 ) -> Report:
    """Play seeded random legal moves to the end, checking every invariant after every move
    (and ``after_move``, a rule set's own invariants, if given)."""
    deck = Counter(game.rules.deck)
    rng = random.Random(seed)
    report = Report()
    assert all_cards(game) == deck, "the deal creates or loses no card"
    for _ in range(max_moves):
        if game.over:
            break
        legal = game.legal_moves()
        assert legal and len(set(legal)) == len(legal), "each legal move is listed once"
        seat, turns, phase, events = game.to_play, game.turns, game.phase, len(game.events)
        check_undo = rng.random() < undo_sample
        before = snapshot(game) if check_undo else None
        move = legal[rng.randrange(len(legal))]
        game.push(move)
        report.moves += 1
        assert all_cards(game) == deck, f"{move} created or lost a card"
        if check_undo:
            assert game.undo() == move
            assert snapshot(game) == before, f"undoing {move} did not restore the state"
            game.push(move)
            report.undos += 1
        report.strict_turns += check_turn(game, seat, turns, phase, events)
        if after_move is not None:
            after_move(game, move, seat, events)
    assert game.over, f"the game did not end within {max_moves} moves"
    check_result(game)
    return report


def _game(case: str, seed: int) -> Game:
    preset, options = CASES[case]
    r = cl.rules(preset, **options)
    n = r.min_players + seed % (min(r.max_players, 5) - r.min_players + 1)
    return Game.new(r, n, seed=seed, dealer=seed % n)


@pytest.mark.parametrize("case", sorted(CASES))
def test_random_games_keep_every_invariant(case: str) -> None:
    total = Report()
    for seed in SEEDS:
        report = play_checked(_game(case, seed), seed)
        total.moves += report.moves
        total.strict_turns += report.strict_turns
        total.undos += report.undos
    assert total.undos > 0 and total.strict_turns > 0, total


def test_every_preset_is_covered() -> None:
    assert set(cl.PRESETS) <= set(CASES)


def test_the_harness_catches_a_lost_card() -> None:
    game = Game.new("crazy-eights", 2, seed=3)
    game.stock_cards.pop()
    with pytest.raises(AssertionError, match="no card"):
        play_checked(game, 3)


def test_the_harness_catches_a_wrong_seat() -> None:
    game = Game.new("crazy-eights", 3, seed=4)
    seat = game.to_play
    while game.turns == 0:  # seat's turn: draws, then a play
        move = next((m for m in game.legal_moves() if m.kind == "play"), game.legal_moves()[0])
        events = len(game.events)
        game.push(move)
    assert check_turn(game, seat, 0, "play", events)  # the real turn change passes
    game.to_play = (game.to_play + 1) % game.n  # a turn machine that skipped a seat
    with pytest.raises(AssertionError, match="is to play, not"):
        check_turn(game, seat, 0, "play", events)


def test_the_harness_catches_an_endless_game() -> None:
    with pytest.raises(AssertionError, match="did not end within 3 moves"):
        play_checked(Game.new("crazy-8s-level-5", 2, seed=1), 1, max_moves=3)

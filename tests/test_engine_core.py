"""The engine core: the variant interface, undo by checkpoints, incremental observations, the
public turn API, and the engine's refusals of bad arguments (a project error, nothing changed).
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crazylab as cl
from crazylab.engine import variants
from crazylab.engine.errors import CrazylabError, quote
from crazylab.engine.game import CHECKPOINT_EVERY
from crazylab.engine.moves import Move, MoveError
from crazylab.engine.variants.base import TurnAPI, Variant
from crazylab.engine.variants.breens import BreensState

pytestmark = pytest.mark.engine

# -- the variant interface ---------------------------------------------------------------


class QueenSkips(Variant):
    """A toy variant written only against the public hooks: a Queen makes the next seat
    lose its turn."""

    name = "queen-skips"

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        if move.top.rank != 12:
            return False
        game.end_turn()
        game.events.append(cl.engine.events.Event("skipped", game.to_play))
        game.end_turn()
        return True


def test_a_new_variant_plugs_in_without_touching_the_game_loop():
    base = cl.rules("crazy-eights")
    variants.register("queen-skips", QueenSkips())
    toy = dataclasses.replace(base, name="queen-skips-test", variant="queen-skips")
    try:
        g = cl.Game.from_position(toy, 3, hands=[["QH", "5C"], ["4H", "9S"], ["6H", "7C"]],
                                  discard=["2H"], stock=["3D", "3S"])
        g.push("QH")
        assert g.to_play == 2  # seat 1 lost its turn
        assert g.events[-1].kind != "skipped" or g.events[-1].seat == 1
        assert any(e.kind == "skipped" and e.seat == 1 for e in g.events)
        g.undo()
        assert g.to_play == 0 and "QH" in map(str, g.hand(0))
        plain = cl.Game.from_position(base, 3, hands=[["QH", "5C"], ["4H", "9S"], ["6H", "7C"]],
                                      discard=["2H"], stock=["3D", "3S"])
        plain.push("QH")
        assert plain.to_play == 1  # the registration touched only its own rule set
    finally:
        variants.unregister("queen-skips")
    with pytest.raises(CrazylabError, match="no variant is registered"):
        variants.variant_for(toy)


def test_breens_state_is_one_typed_field_that_undo_copies():
    g = cl.Game.new("crazy-breens", 3, seed=4)
    assert isinstance(g.variant_state, BreensState)
    assert cl.Game.new("crazy-eights", 3, seed=4).variant_state is None
    rng = random.Random(1)
    prints = []
    for _ in range(60):
        if g.over:
            break
        prints.append((g.fingerprint(), repr(g.variant_state)))
        g.push(g.legal_moves()[rng.randrange(len(g.legal_moves()))])
    for fp, state in reversed(prints):
        g.undo()
        assert (g.fingerprint(), repr(g.variant_state)) == (fp, state)


def test_no_variant_attribute_is_injected_onto_a_game():
    g = cl.Game.new("crazy-breens", 2, seed=1).play_random(seed=2)
    assert "variant_state" in dir(g)  # dir() lists the fields in both builds
    assert not [k for k in dir(g) if k.startswith("br_") or k == "penalties"]
    assert not hasattr(g, "__dict__")


# -- BR-Q27: a King chain reshuffles the stock at most once --------------------------------


def test_br_q27_a_king_chain_through_an_empty_stock_fizzles_instead_of_looping():
    # only Kings can be reshuffled: before the ruling this recursed until RecursionError
    g = cl.Game.from_position("crazy-breens", 2, hands=[["KH", "5C"], ["4D", "6S"]], stock=[],
                              discard=["KC", "KD", "KS"], to_play=0)
    g.push("KH")
    reshuffles = [e for e in g.events if e.kind == "reshuffled"]
    assert len(reshuffles) == 1
    assert "BR-Q27" in g.events[-1].rules and g.events[-1].why.startswith("fizzled")
    assert g.to_play == 1 and g.phase == "play"
    g.undo()
    assert g.to_play == 0 and g.hand_sizes == [2, 2]


def test_br_q27_a_new_chain_may_reshuffle_again():
    g = cl.Game.from_position("crazy-breens", 2, hands=[["KH", "5C", "KS"], ["4D", "6S"]],
                              stock=[], discard=["KC", "2D", "6H"], to_play=0)
    g.push("KH")  # reshuffles [KC, 2D] and flips until something stops the chain
    assert sum(e.kind == "reshuffled" for e in g.events) == 1
    total = sum(g.hand_sizes) + g.stock_size + sum(len(p) for p in g.piles)
    assert total == 8  # no card created or lost


# -- undo by checkpoints -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["crazy-eights-quick", "crazy-breens", "crazy-8s-level-2"])
def test_undo_past_several_checkpoints_restores_every_position(name):
    g = cl.Game.new(name, 3 if name != "crazy-8s-level-2" else 2, seed=11)
    rng = random.Random(5)
    seen = []
    while not g.over and len(seen) < 3 * CHECKPOINT_EVERY + 5:
        seen.append(g.fingerprint())
        moves = g.legal_moves()
        g.push(moves[rng.randrange(len(moves))])
    for fp in reversed(seen):
        g.undo()
        assert g.fingerprint() == fp
    with pytest.raises(IndexError):
        g.undo()


class InterruptedOnce(Variant):
    """A toy variant whose hook stops the first play midway, as Ctrl-C would: the card is
    already on the pile when the interrupt comes."""

    name = "interrupted-once"

    def __init__(self) -> None:
        self.calls = 0

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        self.calls += 1
        if self.calls == 1:
            raise KeyboardInterrupt
        return False


def test_a_failing_move_rolls_back_to_the_position_before_it():
    hook = InterruptedOnce()
    variants.register("interrupted", hook)
    rules = dataclasses.replace(cl.rules("crazy-eights"), name="interrupted-test",
                                variant="interrupted")
    try:
        g = cl.Game.new(rules, 2, seed=3)
        rng = random.Random(2)
        while len(g.moves) < CHECKPOINT_EVERY + 3 or not any(
                m.kind == "play" and len(m.cards) < len(g.hands[g.to_play])
                for m in g.legal_moves()):
            hook.calls = 2  # let the plays before this one through
            g.push(g.legal_moves()[rng.randrange(len(g.legal_moves()))])
        before = g.fingerprint()
        play = next(m for m in g.legal_moves()
                    if m.kind == "play" and len(m.cards) < len(g.hands[g.to_play]))
        hook.calls = 0
        with pytest.raises(KeyboardInterrupt):
            g.push(play)
        assert g.fingerprint() == before
        g.push(play)  # and the game goes on
        assert g.moves[-1] == play
    finally:
        variants.unregister("interrupted")


# -- observations ----------------------------------------------------------------------------


def test_observation_events_match_a_fresh_view_after_moves_and_undos():
    g = cl.Game.new("crazy-eights-classic", 3, seed=2)
    rng = random.Random(3)
    for step in range(80):
        if g.over:
            break
        for seat in range(3):
            obs = g.observation(seat)
            assert obs.events == tuple(e.visible_to(seat) for e in g.events)
        if step % 7 == 6:
            g.undo()
        moves = g.legal_moves()
        g.push(moves[rng.randrange(len(moves))])


def test_an_observation_hides_other_hands_and_the_stock():
    g = cl.Game.new("crazy-eights", 3, seed=9)
    obs = g.observation(1)
    drawn_by_others = [e for e in obs.events if e.kind in ("dealt", "drew") and e.seat != 1]
    assert drawn_by_others and all(e.cards == () for e in drawn_by_others)
    assert not hasattr(obs, "stock") and obs.stock_size == g.stock_size


# -- bad arguments: the project's own error, nothing changed -------------------------------


@pytest.mark.parametrize("kwargs", [
    {"rules": None}, {"rules": 5}, {"rules": ["crazy-eights"]},
    {"seed": "abc"}, {"seed": math.nan}, {"seed": math.inf}, {"seed": [1]}, {"seed": 1.7},
    {"seed": True}, {"dealer": 1.5}, {"dealer": "0"}, {"dealer": 7}, {"dealer": -1},
    {"players": 2.0}, {"players": "2"}, {"players": 9},
])
def test_game_new_refuses_bad_arguments_with_a_project_error(kwargs):
    args = {"rules": "crazy-eights", "players": 2, "seed": 1, **kwargs}
    with pytest.raises(CrazylabError) as info:
        cl.Game.new(args.pop("rules"), args.pop("players"), args.pop("seed"), **args)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("seat", [99, -1, 2, 1.0, "0", None, True])
def test_observation_and_hand_refuse_a_seat_that_does_not_exist(seat):
    g = cl.Game.new("crazy-eights", 2, seed=1)
    before = g.fingerprint()
    with pytest.raises(cl.SetupError, match="seat must be a number from 0 to 1"):
        g.observation(seat)
    with pytest.raises(cl.SetupError):
        g.hand(seat)
    if seat is not None:  # playable_cards(None) is the seat to play's
        with pytest.raises(cl.SetupError):  # it used to raise IndexError or TypeError
            g.playable_cards(seat)
    with pytest.raises(cl.SetupError):
        g.hand_points(seat)
    assert g.fingerprint() == before


def test_numbers_of_any_integer_type_are_whole_numbers():
    """numpy's integers (a pandas column's values) count as whole numbers; bools do not."""
    np = pytest.importorskip("numpy")
    g = cl.Game.new("crazy-eights", np.int64(3), np.int64(5), dealer=np.int8(0))
    assert (g.n, g.seed, g.dealer) == (3, 5, 0) and type(g.seed) is int
    assert g.hands == cl.Game.new("crazy-eights", 3, 5, dealer=0).hands
    assert g.hand(np.int64(1)) == g.hand(1)
    with pytest.raises(cl.SetupError, match="players"):
        cl.Game.new("crazy-eights", True)


@pytest.mark.parametrize("text", ["6H@²", "6H@١", "6H@-1", "6H@", "6H@99999", "6H@1.5"])
def test_a_pile_that_is_not_an_ascii_number_is_refused(text):
    g = cl.Game.new("crazy-8s-level-2", 2, seed=1)
    before = g.fingerprint()
    with pytest.raises(MoveError):
        Move.parse(text)
    with pytest.raises(cl.IllegalMove):
        g.push(text)
    assert g.fingerprint() == before


def test_messages_quote_at_most_80_characters_of_the_input():
    huge = "X" * 1_000_000
    for call in (lambda: cl.card(huge), lambda: Move.parse(huge),
                 lambda: cl.Game.new("crazy-eights", 2, seed=1).push(huge),
                 lambda: cl.Game.new("crazy-eights", 2, seed=huge)):
        with pytest.raises(CrazylabError) as info:
            call()
        assert len(str(info.value)) < 300
    assert len(quote(10 ** 5000)) <= 80  # beyond int-to-str limits: still no exception


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.binary(max_size=20).map(repr),
                 st.integers().map(str), st.sampled_from(["8S:", "8S:Q", "2H+", "+", "@",
                                                           "JK:X", "6H@0:D", "draw ", "END"])))
def test_any_text_to_push_is_a_move_or_a_clear_refusal_and_nothing_changes(text):
    g = cl.Game.new("crazy-eights", 2, seed=5)
    before = g.fingerprint()
    try:
        g.push(text)
    except cl.IllegalMove as e:
        assert str(e) and len(str(e)) < 400
        assert g.fingerprint() == before
    else:
        assert len(g.moves) == 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_text_to_move_parse_or_card_gives_a_move_or_a_project_error(text):
    for parse in (Move.parse, cl.card):
        try:
            result = parse(text)
        except CrazylabError as e:
            assert str(e)
        else:
            assert str(result)  # it has a canonical text


def test_every_engine_error_is_a_crazylab_error_and_a_value_error():
    for err in (cl.IllegalMove, cl.SetupError, cl.CardError, cl.MoveError):
        assert issubclass(err, CrazylabError) and issubclass(err, ValueError)


# -- scoring: pure functions, checked against hand-computed sums (C-16 face values) ---------


def test_scoring_is_by_face_value_not_card_index():
    from crazylab.engine.scoring import blocked_result, hand_points, out_result

    r = cl.rules("crazy-eights")
    hands = [[], cl.cards("8S KH AC"), cl.cards("10D 5C")]
    assert hand_points(r, hands[1]) == 50 + 10 + 1  # KH's index is 25, AC's 0: not used
    result = out_result(r, hands, 0)
    assert result.scores == (50 + 10 + 1 + 10 + 5, 0, 0) and result.reason == "OUT"
    classic = cl.rules("crazy-eights-classic")  # blocked: lowest points wins the difference
    result = blocked_result(classic, [cl.cards("2C 3D"), cl.cards("QH"), cl.cards("8C")])
    assert result.winners == (0,) and result.scores == ((10 - 5) + (50 - 5), 0, 0)
    music = cl.rules("crazy-8s-music")  # minus one per card left
    result = out_result(music, [[], cl.cards("2C 3D"), cl.cards("JK")], 0)
    assert result.scores == (0, -2, -1)


def test_two_decks_stack_the_same_card_twice_and_counter_with_twin_jacks():
    r = cl.rules("crazy-breens", decks=2)
    g = cl.Game.from_position(r, 2, hands=[["7H", "7H", "5C"], ["4D", "6S"]], stock=["2C"],
                              discard=["7C"], to_play=0)
    assert g.legal() == ["5C", "7H", "7H+7H"]
    g = cl.Game.from_position(r, 2, hands=[["2C", "9D"], ["JD", "JD", "4S"]],
                              stock=["3C", "3D"], discard=["2H"], to_play=0)
    g.push("2C")
    assert g.phase == "penalty" and {"JD", "JD+JD"} <= set(g.legal())


def test_stacks_on_several_piles_name_every_pile_they_fit():
    r = cl.rules("crazy-8s-level-2", stacking=True, chain=False)
    g = cl.Game.new(r, 2, seed=1).play_random(seed=1)  # plays to the end: no card lost
    assert g.over and sum(map(len, g.hands)) + g.stock_size + sum(map(len, g.piles)) == 52 + 2
    for seed in range(30):
        g = cl.Game.new(r, 2, seed=seed)
        for m in g.legal_moves():
            if m.kind == "play":
                assert m.pile in range(2)
                assert g.is_legal(m)


# -- the hot path's shortcuts keep the general behaviour -----------------------------------------


@pytest.mark.parametrize("name", ["crazy-eights", "crazy-eights-quick", "crazy-8s-music",
                                  "crazy-breens"])
def test_one_card_events_from_the_seat_tables_are_the_general_ones(name: str) -> None:
    """place() and draw_cards() take the events of one card played or drawn from per-seat
    tables; a game that finds no table (one unpickled in a fresh process) builds each event
    from its fields instead, and the two logs are the same events."""
    from crazylab.engine import events

    n = cl.rules(name).max_players
    fast = cl.Game.new(name, n, seed=11, keep_undo=False).play_random(seed=11)
    slow = cl.Game.new(name, n, seed=11, keep_undo=False)
    saved = events.PLAYED_ONE[:], events.DREW_ONE[:]
    events.PLAYED_ONE.clear()
    events.DREW_ONE.clear()
    try:
        slow.play_random(seed=11)
    finally:
        events.PLAYED_ONE[:], events.DREW_ONE[:] = saved
    assert [e.kind for e in fast.events].count("drew") > 3
    assert fast.events == slow.events
    assert all(type(e) is events.Event for e in fast.events)
    assert fast.fingerprint() == slow.fingerprint()


def test_turn_rules_follow_the_rule_set() -> None:
    """TurnRules copies what the turn machine reads per move; a house rule changes it."""
    from crazylab.engine.rulebook import rulebook

    quick = rulebook(cl.rules("crazy-eights-quick")).turn
    fixed = rulebook(cl.rules("crazy-eights", draw_rule="fixed", draw_limit=2)).turn
    assert (quick.draws_per_turn, quick.draw_count, quick.chain) == (3, 1, False)
    assert (fixed.draw_count, fixed.draws_per_turn) == (2, 2)
    assert rulebook(cl.rules("crazy-8s-music")).turn.chain is True


def test_a_rulebook_is_built_once_and_shared_by_every_game_of_its_rule_set() -> None:
    """Issue 21: what a rule set compiles to is one immutable rulebook that every game of
    that rule set shares (equal rule sets share it too); its variant is the rule set's."""
    from crazylab.engine.rulebook import Rulebook, rulebook
    from crazylab.engine.variants import variant_for

    for name in cl.PRESETS:
        r = cl.rules(name)
        games = [cl.Game.new(r, r.min_players, seed=s) for s in range(3)]
        book = rulebook(r)
        assert isinstance(book, Rulebook) and book.rules is r
        assert all(g.book is book for g in games)
        assert rulebook(cl.rules(name)) is book  # an equal rule set: the same rulebook
        assert book.variant is variant_for(r) and all(g.variant is book.variant for g in games)
        with pytest.raises(AttributeError):  # slots: no stray per-game copy can be hung on it
            book.extra = 1  # type: ignore[attr-defined]
    house = cl.rules("crazy-eights", draw_rule="fixed", draw_limit=2)
    assert rulebook(house) is not rulebook(cl.rules("crazy-eights"))
    assert not hasattr(cl.rules("crazy-eights"), "engine_tables")

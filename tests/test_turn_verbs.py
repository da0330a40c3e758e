"""The turn machine's verbs: ``Game`` is the one writer of ``phase``, ``to_play``, the turn's
counters and the direction of play; a variant asks for a verb (``variants.base.TurnAPI``).
Each verb's behaviour, and a toy variant written only with verbs that plays whole hands."""

from __future__ import annotations

import dataclasses
import random

import pytest

import crazylab as cl
from crazylab.engine import variants
from crazylab.engine.events import Event
from crazylab.engine.game import Game, SetupError
from crazylab.engine.moves import DRAW, DRAW_MOVE, PASS_MOVE, Move
from crazylab.engine.narrator import story
from crazylab.engine.variants.base import PLAIN, TurnAPI, Variant
from crazylab.engine.wording import Words

pytestmark = pytest.mark.engine

HANDS = [["QH", "7H", "5C"], ["4H", "9S", "KD"], ["6H", "KC", "2S"]]


def position(rules: object = "crazy-eights", stock: tuple[str, ...] = ("3D", "3S", "4C"),
             discard: tuple[str, ...] = ("2H",), hands: list[list[str]] = HANDS) -> Game:
    return Game.from_position(rules, len(hands), hands=hands, discard=list(discard),
                              stock=list(stock), seed=1)


def test_next_seat_and_reverse_follow_the_direction_of_play():
    g = position()
    assert [g.next_seat(s) for s in range(3)] == [1, 2, 0]
    assert g.next_seat(2, 2) == 1
    g.reverse()
    assert g.direction == -1
    assert [g.next_seat(s) for s in range(3)] == [2, 0, 1]
    g.push("QH")  # no variant: the engine's own end of turn steps the reversed way
    assert g.to_play == 2
    g.reverse()
    assert g.direction == 1 and g.next_seat(2) == 0


def test_pass_to_set_phase_and_restart_turn():
    g = position()
    g.push("QH")
    g.pass_to(0)
    g.set_phase("toll")
    assert (g.to_play, g.phase) == (0, "toll")
    g.draw_for_turn(0, 1)
    assert (g.turn_draws, g.drawn) == (1, [cl.Card.parse("3D")])
    g.restart_turn()
    assert (g.phase, g.turn_draws, g.turn_plays, g.drawn) == ("play", 0, 0, [])
    assert g.to_play == 0


def test_log_adds_an_event_to_the_hands_record_and_undo_takes_it_back():
    g = position()
    g.push("QH")
    before = list(g.events)
    g.log(Event("skipped", 1, why="own"))
    assert g.events == [*before, Event("skipped", 1, why="own")]
    assert story(g)[-1] == "Seat 1 loses the turn."
    g.undo()
    assert g.events == before[:len(g.events)] and not any(e.why == "own" for e in g.events)


def test_play_cards_counts_the_turns_plays_and_places_them():
    g = position()
    before = len(g.hands[0])
    g.play_cards(0, Move.parse("QH"))
    assert g.turn_plays == 1 and len(g.hands[0]) == before - 1
    assert str(g.top) == "QH" and g.events[-1].kind == "played"


def test_draw_for_turn_counts_one_draw_even_from_an_empty_stock():
    g = position(rules=cl.rules("crazy-eights", reshuffle="never"), stock=("3D",))
    got = g.draw_for_turn(0, 1, "toll", penalty=True)
    assert [str(c) for c in got] == ["3D"] and g.turn_draws == 1 and g.drawn == got
    assert g.events[-1].penalty and g.events[-1].why == "toll"
    assert g.draw_for_turn(0, 1) == [] and g.turn_draws == 2  # nothing left: still a draw


def test_flip_to_pile_turns_the_stocks_top_card_and_clears_the_call():
    g = position(discard=("5D", "8S"), hands=[["QH", "7H"], ["4H", "9S"]])
    g.set_call(0, "H")
    assert g.suit == "H"
    c = g.flip_to_pile(0)
    assert str(c) == "3D" and str(g.top) == "3D" and g.calls[0] is None and g.suit == "D"
    assert g.stock[0] == cl.Card.parse("3S")
    empty = position(rules=cl.rules("crazy-eights", reshuffle="never"), stock=())
    before = empty.fingerprint()
    assert empty.flip_to_pile(0) is None and empty.fingerprint() == before


def test_flip_to_pile_reshuffles_an_empty_stock_when_the_rules_allow():
    g = position(rules=cl.rules("crazy-eights", reshuffle="unlimited"), stock=(),
                 discard=("5D", "6D", "2H"))
    c = g.flip_to_pile(0)
    assert g.reshuffles == 1 and c is not None and str(c) in ("5D", "6D")
    assert [str(x) for x in g.discard] == ["2H", str(c)]


def test_set_call_sets_the_call_and_the_reference():
    g = position(discard=("8S",), hands=[["QH", "7D"], ["4H", "9S"]])
    g.set_call(0, "diamonds")
    assert g.suit == "D" and "7D" in g.legal() and "QH" not in g.legal()
    with pytest.raises(SetupError):
        g.set_call(0, "purple")


def test_skip_turn_of_skips_once():
    g = position()
    g.skip_turn_of(1)
    g.skip_turn_of(1)
    assert g.skipping == [1]
    g.push("QH")
    assert g.to_play == 2 and g.skipping == []
    assert any(e.kind == "skipped" and e.seat == 1 for e in g.events)


def test_restore_turn_sets_the_observed_turn_and_refuses_bad_input():
    g = position(rules=cl.rules("crazy-eights", reshuffle="never"), stock=())
    g.restore_turn("play", 1, 0, [cl.Card.parse("5C")], 0, 2)
    assert (g.phase, g.turn_draws, g.turn_plays, g.reshuffles, g.idle) == ("play", 1, 0, 0, 2)
    assert g.drawn == [cl.Card.parse("5C")]
    drawable = position()
    drawable.restore_turn("play", 0, 0, [], 0, 2)
    assert drawable.idle == 0  # a card can still be drawn: nobody is stuck
    before = g.fingerprint()
    for bad in [(3, 0, 0, [], 0, 0), ("play", -1, 0, [], 0, 0), ("play", 0, 0, [], 0, True),
                ("play", 0, 0.5, [], 0, 0), ("play", 0, 0, ["ZZ"], 0, 0)]:
        with pytest.raises(SetupError, match="restore_turn takes"):
            g.restore_turn(*bad)  # type: ignore[arg-type]
        assert g.fingerprint() == before


def test_plain_games_play_with_the_plain_hooks():
    g = Game.new("crazy-eights", 3, seed=2)
    assert g.rules.variant == "plain" and g.variant is None and g.hooks is PLAIN
    breens = Game.new("crazy-breens", 3, seed=2)
    assert breens.rules.variant == "breens" and breens.hooks is breens.variant
    assert isinstance(breens.hooks, Variant) and breens.hooks is not PLAIN


# -- a toy variant written only with verbs ---------------------------------------------------


class Toll(Variant):
    """Queens reverse the direction of play; after a 7 the next player pays a toll: draws one
    card (if any can be drawn) and loses the turn, in a phase of its own."""

    name = "toll"
    phases = ("toll",)

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        if move.top.rank == 12:
            game.reverse()
            return False  # the engine ends the turn, in the new direction
        if move.top.rank != 7:
            return False
        game.end_turn()
        if not game.over:
            game.set_phase("toll")
        return True

    def legal(self, game: TurnAPI) -> list[Move]:
        return [DRAW_MOVE if game.can_draw() else PASS_MOVE]

    def apply(self, game: TurnAPI, move: Move) -> None:
        if move.kind == DRAW:
            game.draw_for_turn(game.to_play, 1, "toll", penalty=True)
        game.events.append(Event("skipped", game.to_play, why="toll"))
        game.end_turn()

    def words(self) -> type[Words]:
        return TollWords


class TollWords(Words):
    """The toll's own words, through the variant's ``words`` hook."""

    def say(self, e: Event) -> str | None:
        if e.why != "toll":
            return None
        who = self.narrator.voice.subj(e.seat)
        return f"{who} paid the toll{' with a card' if e.kind == 'drew' else ''}."


@pytest.fixture
def toll_rules():
    variants.register("toll", Toll())  # before a rule set may name it
    try:
        yield dataclasses.replace(cl.rules("crazy-eights"), name="toll-test", variant="toll")
    finally:
        variants.unregister("toll")


def test_a_variant_written_only_with_verbs_plays_a_journey(toll_rules):
    g = position(toll_rules, stock=("3D", "3S", "4C", "9C"),
                 hands=[["QH", "7H", "5C"], ["4H", "9S", "KD"], ["6H", "KC", "2S"]])
    start = g.fingerprint()
    g.push("QH")  # reverse: seat 2 is next
    assert (g.to_play, g.direction) == (2, -1)
    g.push("6H")
    assert g.to_play == 1
    g.push("4H")
    assert g.to_play == 0
    g.push("7H")  # seat 2 (anticlockwise) pays the toll
    assert (g.to_play, g.phase, g.legal()) == (2, "toll", ["draw"])
    g.push("draw")
    assert len(g.hands[2]) == 3 and g.to_play == 1 and g.phase == "play"
    assert g.events[-2].why == "toll" and g.events[-2].penalty
    names = ["Ana", "Bo", "You"]
    told = story(g, 2, names)
    assert told[-2:] == ["You paid the toll with a card.", "You paid the toll."], told
    for _ in range(5):
        g.undo()
    assert g.fingerprint() == start and g.direction == 1


def test_a_variant_written_only_with_verbs_plays_whole_hands(toll_rules):
    deck = len(toll_rules.deck)
    tolls = reversed_ = 0
    for seed in range(25):
        g = Game.new(toll_rules, 2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            moves = g.legal_moves()
            tolls += g.phase == "toll"
            reversed_ += g.direction < 0
            g.push(moves[rng.randrange(len(moves))])
            held = sum(map(len, g.hands)) + len(g.stock_cards) + sum(map(len, g.piles))
            assert held == deck
            assert len(g.moves) < 5000
        assert g.result is not None and g.result.reason
        assert sum(g.result.scores) == sum(g.scores)
    assert tolls > 10 and reversed_ > 10  # the toy's phase and its reverses were played

"""The last bad calls of a sweep (issue 33, item 5): each is refused with the project's error
(a ``CrazylabError`` naming what was wrong), never a bare ``IndexError``, ``TypeError``,
``ValueError`` or ``AttributeError``, and a refused move leaves the game as it was."""

from __future__ import annotations

import pickle

import pytest

import crazylab
from crazylab import Game, Move, RuleSet, rules
from crazylab.engine.cards import Card
from crazylab.engine.moves import PLAY
from crazylab.errors import CrazylabError

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

#: cards made past Card() (``int.__new__``), as an old or forged pickle could
OUT_OF_RANGE = [int.__new__(Card, 99), int.__new__(Card, -1), int.__new__(Card, 53)]


def refused(call, *words: str) -> str:
    with pytest.raises(CrazylabError) as info:
        call()
    text = str(info.value)
    for w in words:
        assert w in text, text
    return text


@pytest.fixture
def game() -> Game:
    return crazylab.new_game("crazy-eights", players=2, seed=1)


@pytest.mark.parametrize("bad", OUT_OF_RANGE, ids=lambda c: f"number{int(c)}")
def test_an_out_of_range_card_is_refused_everywhere(bad, game):
    from crazylab.widgets import CardPicker

    assert "not a card" in repr(bad)
    refused(lambda: str(bad), "not a card")
    refused(lambda: Card(bad), "0 to 52")
    refused(lambda: Card.parse(bad), "0 to 52")
    refused(lambda: Game.from_deck(rules("crazy-eights"), 2, [bad] * 52), "deck")
    before = ([list(h) for h in game.hands], game.to_play)
    refused(lambda: game.push(Move(PLAY, (bad,))), "not a move")
    refused(lambda: game.explain(Move(PLAY, (bad,))), "not a move")
    assert ([list(h) for h in game.hands], game.to_play) == before
    refused(lambda: CardPicker([bad]), "0 to 52")


def test_a_pickled_card_comes_back_as_the_same_card():
    card = Card.parse("8S")
    assert pickle.loads(pickle.dumps(card)) is card


def test_a_hand_built_move_holds_cards_not_texts(game):
    hand = [list(h) for h in game.hands]
    refused(lambda: game.push(Move(PLAY, ("QS",))), "'QS' is not a Card", "Move.parse")
    refused(lambda: game.push(Move(PLAY, (12,))), "not a Card")
    assert [list(h) for h in game.hands] == hand
    legal = game.legal_moves()[0]
    assert game.push(legal) == legal  # a real Move still plays


def test_options_changed_must_name_options():
    refused(lambda: RuleSet("x", options_changed=5), "options_changed")
    refused(lambda: RuleSet("x", options_changed=("no_such_option",)), "options_changed")
    r = RuleSet("x", options_changed=["draw_limit"])
    assert r.options_changed == ("draw_limit",) and "RuleSet('x'" in repr(r)


def test_a_position_takes_a_suit_or_a_pitch_not_both():
    refused(lambda: Game.from_position(rules("crazy-eights"), 2, hands=[["3C"], ["4C"]],
                                       discard=["8S"], suit="D", pitch="C#"), "not both")


@pytest.mark.parametrize("text", ["6H::D", "8S:D:H", "8S:D@1", "6H:@"])
def test_a_move_text_has_one_call_after_the_pile(text):
    refused(lambda: Move.parse(text), "not a move")


def test_score_hands_refuses_bad_arguments_with_the_projects_error():
    from crazylab.widgets import score_hands

    refused(lambda: score_hands("crazy-eights", [[], ["3C"]], "0"), "winner")
    refused(lambda: score_hands("crazy-eights", None, 0), "hands")
    refused(lambda: score_hands(5, [[], ["3C"]], 0), "rules")
    refused(lambda: score_hands("crazy-eights", [[], [OUT_OF_RANGE[0]]], 0), "hands[1]")
    assert score_hands("crazy-eights", [[], ["3C"]], 0).totals == (0, 3)


def test_widgets_refuse_bad_arguments_with_the_projects_error(game):
    from crazylab.widgets import GameTable, StepExplainer
    from crazylab.widgets.exercise import choice_exercise, legal_moves_exercise
    from crazylab.widgets.music import PianoKeyboard

    refused(lambda: GameTable(names=list("abcdefg"), opponents=1), "names", "at most 4")
    refused(lambda: StepExplainer(choices=[]), "choices")
    piano = PianoKeyboard()
    refused(lambda: piano.click(999), "no key 999")
    assert piano.played == []
    refused(lambda: choice_exercise("Which?", ["a", "b"], "c", "because",
                                    rules="SR-10"), "not one of the choices")
    refused(lambda: choice_exercise("Which?", ["a", "b"], "a", "because",
                                    rules="SR-10", wrong={"z": "no"}), "wrong=")
    refused(lambda: legal_moves_exercise("x", rules="nope"), "game must be a Game")
    refused(lambda: legal_moves_exercise(game, rules="nope"), "rule ids")
    assert legal_moves_exercise(game, rules="SR-10").check(" ".join(
        str(m) for m in game.legal_moves()))

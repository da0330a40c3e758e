"""The lesson exercises (crazylab.widgets.exercise): answers are checked by the engine, wrong
answers are explained with Game.explain's words, unreadable answers get a sentence and change
nothing, and every exercise names its rule ids."""

import pytest

import crazylab as cl
from crazylab.widgets import position
from crazylab.widgets.exercise import (
    Exercise,
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    next_top_exercise,
    score_exercise,
)

pytestmark = pytest.mark.oldest


@pytest.fixture
def worked():
    """SR-T1: top 6♥, hand 6♣ K♥ 8♠ 3♦."""
    return position("crazy-eights", top="6H", hand="6C KH 8S 3D")


def test_legal_moves_right_answer_sr_t1(worked):
    ex = legal_moves_exercise(worked, rules="SR-10 SR-T1")
    assert ex.check("6C KH 8S").startswith("Right")
    assert ex.check("8S:D, KH 6C").startswith("Right")  # a called eight, commas
    assert ex.answers[-1] == ("8S:D, KH 6C", True)


def test_legal_moves_wrong_card_is_explained_by_the_engine(worked):
    ex = legal_moves_exercise(worked, rules="SR-10")
    feedback = ex.check("6C 3D")
    assert worked.explain("3D") in feedback  # the engine's own words
    assert "K♥" not in feedback and "8♠" not in feedback  # the first thing wrong, no more
    assert "✘" in ex.feedback.value and ex.answers[-1][1] is False
    missing = ex.check("6C")
    assert missing.startswith("Not quite: 2 more cards") and "K♥" not in missing


def test_legal_moves_include_voluntary_draw_sr_17():
    game = cl.new_game("crazy-eights", players=2, seed=1)
    assert "draw" in game.legal()
    ex = legal_moves_exercise(game, rules="SR-17")
    plays = " ".join(m for m in game.legal() if m != "draw")
    assert ex.check(plays).startswith("Not quite")
    assert "missed draw" in ex.check(plays)
    assert ex.check(plays + " draw").startswith("Right")


def test_unreadable_answer_gets_a_sentence_and_changes_nothing(worked):
    before = worked.legal()
    ex = legal_moves_exercise(worked, rules="SR-10")
    assert ex.check("6C banana").startswith("I could not read 'banana'")
    assert worked.legal() == before and ex.errors == []


def test_is_legal_yes_and_no(worked):
    no = is_legal_exercise(worked, "3D", rules="SR-10")
    assert no.check("no").startswith("Right") and worked.explain("3D") in no.check("no")
    assert no.check("yes").startswith("Not right")
    assert no.check("maybe") == "Answer yes or no."
    yes = is_legal_exercise(worked, "KH", rules="SR-10")
    assert yes.check("y").startswith("Right") and "suit" in yes.solution


def test_score_exercise_sr_t4():
    ex = score_exercise("crazy-eights", [[], ["8D", "3C"], ["QH", "AS"]], winner=0,
                        rules="SR-22 SR-T4")
    assert ex.check("64").startswith("Right") and "53 + 11 = 64" in ex.check("64")
    assert ex.check("53").startswith("Not 53")
    assert ex.check("lots").startswith("Answer with a whole number")


def test_score_exercise_music_minus_one_per_card_mu_t11():
    ex = score_exercise("crazy-8s-music", [[], ["3C", "4C", "5C"], ["6C"] * 1], winner=0, seat=1,
                        rules="MU-19 MU-T11")
    assert ex.check("-3").startswith("Right") and ex.check("−3").startswith("Right")


def test_next_top_exercise_king_deck_play_leaves_the_game_as_it_was():
    game = cl.Game.from_position("crazy-breens", 2, hands=[["KS", "3D"], ["4C", "5C"]],
                                 stock=["7H", "9C"], discard=["2S"])
    before = (game.legal(), [str(c) for c in game.stock])
    ex = next_top_exercise(game, ["KS"], rules="BR-20 BR-T10")
    assert ex.check("7H").startswith("Right")
    assert ex.check("KS").startswith("Not K♠")
    assert ex.check("??").startswith("Type one card")
    assert ex.check("7h").startswith("Right") and ex.check("7♥").startswith("Right")
    assert (game.legal(), [str(c) for c in game.stock]) == before


def test_choice_exercise():
    ex = choice_exercise("Which?", ["0", "5"], "0", "because", rules="SR-20")
    assert ex.check("0") == "Right: because" and ex.check("5").startswith("Not 5")
    assert ex.check("7").startswith("Answer one of")
    with pytest.raises(ValueError):
        choice_exercise("Which?", ["0", "5"], "3", "", rules="SR-20")


def test_rule_ids_are_required_and_checked(worked):
    with pytest.raises(ValueError):
        legal_moves_exercise(worked, rules="")
    with pytest.raises(ValueError):
        legal_moves_exercise(worked, rules="rule ten")
    assert legal_moves_exercise(worked, rules="SR-10 SR-Q2").rule_ids == ("SR-10", "SR-Q2")


def test_check_button_and_answer_box_use_the_same_checker(worked):
    ex = legal_moves_exercise(worked, rules="SR-10")
    ex.answer_box.value = "6C KH 8S"
    assert "✔" in ex.feedback.value
    ex.answer_box.value = "3D"
    ex.check_button.click()
    assert "✘" in ex.feedback.value and len(ex.answers) == 3  # typed (2), then clicked


def test_solution_is_hidden_and_shown_without_widgets(worked):
    ex = legal_moves_exercise(worked, rules="SR-10")
    assert ex.reveal.value == ""  # hidden until asked for
    ex.answer_button.click()
    assert "Legal: 6♣ K♥ 8♠" in ex.reveal.value
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "<details" in data["text/html"] and "6♣" in data["text/html"]


def test_a_checker_error_shows_in_the_error_area(worked):
    def broken(answer):
        raise RuntimeError("boom")

    ex = Exercise("Q?", broken, "S", rules="SR-10")
    ex.answer_box.value = "x"
    assert ex.errors and "boom" in ex.error_area.value


def test_long_choices_are_answered_by_number():
    ex = choice_exercise("Who?", ["seat 1 scores 42", "seat 1 scores 36"], "seat 1 scores 36",
                         "(12 − 3) + (30 − 3) = 36", rules="AP-17 AP-T7")
    assert ex.check("2").startswith("Right") and ex.check("1").startswith("Not seat 1 scores 42")
    assert ex.check("seat 1 scores 36").startswith("Right")
    assert [b.description for b in ex.choice_buttons] == ["seat 1 scores 42", "seat 1 scores 36"]
    assert ex.choose("seat 1 scores 36").startswith("Right")


def test_choice_exercises_are_answered_by_buttons_not_typed():
    """Issue 19: choice exercises had to be typed. Each choice is a button (keyboard: Tab,
    Enter or Space), the answer box is gone, and a click checks the answer."""
    import ipywidgets as w

    ex = choice_exercise("How many?", ["0", "5", "7"], "5", "because", rules="SR-20")
    assert [b.description for b in ex.choice_buttons] == ["0", "5", "7"]
    shown = [c for row in ex.children for c in getattr(row, "children", (row,))]
    assert ex.answer_box not in shown and ex.check_button not in shown
    assert all(isinstance(b, w.Button) for b in ex.choice_buttons)
    assert all(b in shown for b in ex.choice_buttons)
    ex.choice_buttons[0].click()
    assert ex.answers[-1] == ("0", False) and "✘" in ex.feedback.value
    assert ex.choice_buttons[0].button_style == "danger"
    ex.choice_buttons[1].click()
    assert ex.answers[-1] == ("5", True) and "✔ Right: because" in ex.feedback.value
    assert [b.button_style for b in ex.choice_buttons] == ["", "success", ""]
    assert ex.check("7").startswith("Not 7")  # the Python API still takes a typed answer
    assert ex.choice_buttons[2].button_style == "danger"
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "<li>5</li>" in data["text/html"]  # pages without widgets list the choices


def test_is_legal_is_answered_with_yes_and_no_buttons(worked):
    ex = is_legal_exercise(worked, "3D", rules="SR-10")
    assert [b.description for b in ex.choice_buttons] == ["yes", "no"]
    assert "Is <b>3♦</b> legal?" in ex.prompt.value
    assert ex.choose("no").startswith("Right: no. 3♦ matches neither")
    with pytest.raises(ValueError):
        ex.choose("maybe")


def test_penalty_draw_is_explained_as_a_penalty_br_22():
    from crazylab.examples import load_example

    hit = load_example("br-t8-joker-countered").frames()[1].game  # seat 1 holds J♣
    ex = legal_moves_exercise(hit, rules="BR-22 BR-Q14")
    assert ex.check("JC draw").startswith("Right")
    assert "You are hit" in ex.solution and "Nothing in your hand fits" not in ex.solution

"""Feedback that names the rule (issue 31's "wrong today"): what a learner is told after a
wrong answer or asks for as a hint states the rule that decides, not a wrong one. Each test
failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

import crazylab as cl
from crazylab.engine.reasons import legal_reason
from crazylab.examples import load_example
from crazylab.widgets import position
from crazylab.widgets.exercise import legal_moves_exercise

ROOT = Path(__file__).resolve().parents[1]


def frame(name: str, step: int) -> cl.Game:
    return load_example(name).frames()[step].game


def test_a_draw_refused_names_the_rule_that_a_card_must_be_played():
    """02 e06: the lesson's position has no stock; the feedback blamed it instead of AP-9."""
    nine = position("crazy-eights-classic", top="9H", hand="9C 2H 8D KS")
    said = legal_moves_exercise(nine, rules="AP-9").check("9C 2H 8D draw")
    assert said.startswith("Not quite: draw is not legal.")
    assert "must play when you can" in said and "stock is empty" not in said


def test_pass_in_the_musical_game_says_end_only_where_end_is_a_move():
    """05 e05: "or say end" before a play or the draw, where end is not a move (MU-11)."""
    g = cl.Game.from_position("crazy-8s-music", 2, hands=[["5D", "6C"], ["2C", "4S"]],
                              stock=["3S", "JC", "KS"], discard=["5H"])
    assert "end" not in [str(m) for m in g.legal_moves()]
    assert "say end" not in g.explain("pass") and "draw two" in g.explain("pass")
    g.push("5D")
    assert "end" in [str(m) for m in g.legal_moves()] and "say end" in g.explain("pass")


def test_missed_cards_are_sent_where_they_come_from():
    """04 e17/e29, e09/e19/e21, 06 e11/e13: "check each card against the top card again"
    was the feedback where no card has to match (a Queen's drop, a counter) or where there
    are several piles."""
    drop = frame("br-t12-seed-queen-drops-ace", 1)
    assert drop.phase == "drop"
    said = legal_moves_exercise(drop, rules="BR-21", cards_only=True).check("AC")
    assert "any card of your hand may be dropped, matching or not" in said, said
    hit = frame("br-t5-counter-from-hand", 1)
    jacks = sorted({m.cards[0] for m in hit.legal_moves() if m.kind == "play"})
    if len(jacks) > 1:
        said = legal_moves_exercise(hit, rules="BR-22", cards_only=True).check(str(jacks[0]))
        assert "a Jack of your hand counters the hit" in said, said
    piles = cl.Game.from_position("crazy-8s-level-2", 2, hands=[["2D", "6D", "9S"], ["2C"]],
                                  piles=[["3D"], ["5C"]], to_play=0)
    legal = {str(m.cards[0]) for m in piles.legal_moves() if m.kind == "play"}
    assert len(legal) >= 2
    said = legal_moves_exercise(piles, rules="MU-27", cards_only=True).check(sorted(legal)[0])
    assert "against the top card of every pile" in said, said


def test_a_card_allowed_in_a_variants_phase_says_why():
    """8 Breens solutions read "A♣: Allowed now (drop): A♣."."""
    drop = frame("br-t12-seed-queen-drops-ace", 1)
    ace = cl.card("AC")
    moves = tuple(m for m in drop.legal_moves() if m.kind == "play" and m.cards[0] == ace)
    said = legal_reason(drop, ace, moves)
    assert "Allowed now" not in said and "need not match" in said, said


@pytest.mark.parametrize(("lesson", "wrong", "right"), [
    ("04_crazy_breens", "the number of cards depends on the number", "does the number of cards"),
    ("04_crazy_breens", "even after you have drawn", "first penalty card"),
    ("04_crazy_breens", "Which cards fit Q♣", "any card, it need not"),
    ("04_crazy_breens", "play goes on from the player who countered", "who plays after them"),
    ("05_musical_crazy_8s", "may you play any card in that same turn", "drawn card that fits"),
])
def test_a_hint_states_no_wrong_rule(lesson, wrong, right):
    """The hints the issue lists (04 e01, e21, e29, e28; 05 e11), in the lessons' sources and
    in the notebooks learners open."""
    for path in (ROOT / "notebooks" / "lessons" / f"{lesson}.py",
                 ROOT / "notebooks" / f"{lesson}.ipynb"):
        text = path.read_text()
        assert wrong not in text and right in text, path


@pytest.mark.parametrize("preset", ["crazy-8s-music", "crazy-8s-level-2", "crazy-8s-level-4"])
def test_a_chain_is_told_as_it_is_played_on_one_pile_or_several(preset):
    """The sheets called a chain "each on the last", wrong where there are several piles."""
    from crazylab.sheet import rules_sheet

    sheet = rules_sheet(cl.rules(preset))
    several = cl.rules(preset).piles > 1
    assert ("each on the last" in sheet) is not several
    assert ("each on a pile whose top card it fits" in sheet) is several

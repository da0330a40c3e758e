"""The score page counts each rule set its own way (issue 19: with musical rules it showed
"63 points" beside a score of −3; the musical rule is −1 per card)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.oldest

pytest.importorskip("ipywidgets")

from crazylab.engine.cards import Card  # noqa: E402
from crazylab.engine.rules import PRESETS  # noqa: E402
from crazylab.engine.rules import rules as get_rules  # noqa: E402
from crazylab.widgets.scoring import ScoreCalculator, card_value, score_hands  # noqa: E402

SCORE_PAGE = Path(__file__).resolve().parents[1] / "notebooks" / "score.ipynb"


def cells(html_text: str) -> list[list[str]]:
    """The working table's rows, each a list of its cells' text."""
    rows = re.findall(r"<tr>(.*?)</tr>", html_text.split("<tbody>")[1].split("</tbody>")[0])
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
            for r in rows]


def test_music_scoring_shows_minus_one_per_card_not_face_values():
    """The report: 8♦ 3♣ and Q♥ A♠ J♦ left under musical rules showed 63 points beside −3."""
    calc = ScoreCalculator(rules="crazy-8s-music", hands={1: "8D 3C", 2: "QH AS JD"})
    res = calc.result
    assert res.scores == (0, -2, -3)
    assert res.totals == (0, -2, -3)  # the hand totals are the scores, not 53 and 21
    rows = cells(calc.working_html.value)
    assert rows[1][-2:] == ["−2", "−2"] and rows[2][-2:] == ["−3", "−3"], rows
    assert "8♦&nbsp;−1 + 3♣&nbsp;−1" in calc.working_html.value
    assert "53" not in calc.working_html.value and "63" not in calc.working_html.value
    assert "cards left (−1 each)" in calc.working_html.value
    assert res.working() == [
        "Seat 1 holds 8♦ −1 + 3♣ −1 = −2 points.",
        "Seat 2 holds Q♥ −1 + A♠ −1 + J♦ −1 = −3 points.",
        "Seat 0 went out and scores 0; the others score Seat 1 −2, Seat 2 −3 (−1 per card "
        "left).",
    ]


def test_a_rule_set_without_scores_counts_nothing():
    calc = ScoreCalculator(rules="crazy-breens", hands={1: "8D 3C"}, players=2)
    assert calc.result.scores == (0, 0) and calc.result.totals == (0, 0)
    assert "they count nothing" in calc.working_html.value
    rows = cells(calc.working_html.value)
    assert rows[1][-2:] == ["0", "0"] and "8♦&nbsp;0 + 3♣&nbsp;0" in rows[1][1], rows


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_rule_sets_working_agrees_with_the_engines_scores(preset):
    """For every preset: each loser's hand total is what that hand scores (musical rules) or
    the winner's share (winner collects), and the points shown per card are the rule set's."""
    r = get_rules(preset)
    deck = [c for c in sorted(set(r.deck)) if c.rank in (1, 8, 11, 12, 13) or c.is_joker]
    hands = [[], [str(c) for c in deck[:2]], [str(c) for c in deck[2:5]]][:max(2, min(
        3, r.max_players))]
    res = score_hands(r, hands, 0)
    for s in range(1, len(hands)):
        assert res.totals[s] == sum(card_value(r, Card.parse(c)) for c in hands[s])
        if r.scoring == "minus_one_per_card":
            assert res.totals[s] == res.scores[s] == -len(hands[s])
        elif r.scoring == "winner_collects":
            assert sum(res.totals[1:]) == res.scores[0]
        else:
            assert res.totals[s] == 0 == res.scores[s]


def test_the_score_page_does_not_promise_face_values_for_every_rule_set():
    text = "".join(json.loads(SCORE_PAGE.read_text())["cells"][0]["source"])
    assert "−1" in text and "Breens" in text

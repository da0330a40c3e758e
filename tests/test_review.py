"""Game review (issue 32 items 1-3): every decision of one seat rated from what that seat
knew, on positions where the best move is provable, and never from hidden cards."""

from __future__ import annotations

import random

import pytest

import crazylab as cl
from crazylab.bots import make_bot
from crazylab.cli import main as cli_main
from crazylab.review import ReviewError, review_game, review_moves, verdict

pytestmark = pytest.mark.engine


def test_going_out_now_is_found_and_not_going_out_is_a_blunder():
    """Seat 0 holds one card that fits: playing it wins the hand; the five-card rules let it
    draw instead, which leaves the hand to chance."""
    start = cl.Game.from_position("crazy-eights", 2, hands=[["7H"], ["2C", "3D", "4S", "9C",
                                                                     "KD"]],
                                  stock=["5S", "6C", "JD", "QH", "10S", "AC"],
                                  discard=["7C"], to_play=0)
    assert {str(m) for m in start.legal_moves()} >= {"7H", "draw"}
    [went] = review_moves(start, ["7H"], 0, seed=1)
    assert went.best == "7H" and went.verdict == "good" and went.chance("7H").win == 1.0
    [drew] = review_moves(start, ["draw"], 0, seed=1)
    assert drew.best == "7H" and drew.verdict == "blunder"
    assert drew.loss >= 0.2 and drew.loss_low > 0
    assert "goes out now" in drew.why and "7♥" in drew.why


def test_a_forced_move_is_not_rated_and_a_review_is_reproducible():
    # the classic rule: a card that fits must be played (AP-9), and only 2♣ fits
    start = cl.Game.from_position("crazy-eights-classic", 2, hands=[["2C", "9H"], ["3D", "4S"]],
                                  stock=["5S", "6C", "JD"], discard=["7C"], to_play=0)
    [only] = review_moves(start, ["2C"], 0, seed=4)
    assert only.verdict == "forced" and only.worlds == 0
    game, moves = _played_hand("crazy-eights-classic", seed=11)
    first = review_moves(game, moves, 1, seed=7)
    assert first == review_moves(game, moves, 1, seed=7)
    assert {d.verdict for d in first} <= {"good", "inaccuracy", "mistake", "blunder",
                                          "forced", "unrated"}
    for d in first:
        if d.verdict not in ("forced", "unrated"):
            assert d.moves[0].move == d.best and d.worlds >= 24
            assert d.chance(d.played).win <= d.moves[0].win


def test_a_counter_that_saves_four_cards_is_found_and_drawing_is_a_mistake():
    """Crazy Breens: seat 0's joker hits seat 1 for four cards (BR-M4); seat 1's J♠ counters
    it (BR-22). The review weighs the counter against the draw in worlds rebuilt from seat
    1's own view of the open hit, finds the counter and says what the draw cost."""
    start = cl.Game.from_position(
        "crazy-breens", 2, hands=[["JK", "5C", "7D", "9D", "KC", "3H", "6H"], ["JS", "4D"]],
        stock=["3C", "3D", "3S", "4C", "4S", "5D", "6D", "6S", "7C", "9C", "10C", "10D"],
        discard=["9H"], seed=2)
    hit = ["JK:C"]
    drew = review_moves(start, [*hit, "draw", "draw", "draw", "draw"], 1, seed=5)
    choice, *forced = drew
    assert choice.best == "JS" and choice.played == "draw"
    assert choice.verdict in ("mistake", "blunder") and choice.loss_low > 0, choice
    assert choice.worlds >= 24 and choice.chance("JS").win > choice.chance("draw").win
    assert "answered the hit" in choice.why and "4 cards" in choice.why
    assert "BR-22" in choice.why and "J♠" in choice.why
    assert [d.verdict for d in forced] == ["forced"] * 3  # the rest of the hit's draws
    [countered] = review_moves(start, [*hit, "JS"], 1, seed=5)
    assert countered.best == "JS" and countered.verdict == "good"


@pytest.mark.parametrize("seed", [0, 2])
def test_every_decision_of_a_crazy_breens_hand_is_rated(seed):
    """Hits, counters, Queen drops and calls: every decision with a choice gets a verdict
    (worlds rebuilt in the variant's own phases), none is left unrated."""
    game, moves = _played_hand("crazy-breens", seed=seed)
    decisions = review_moves(game, moves, 0, seed=seed)
    assert decisions and all(d.verdict != "unrated" for d in decisions)
    rated = [d for d in decisions if d.verdict != "forced"]
    assert rated and all(d.worlds >= 24 for d in rated)


def test_why_a_bot_played_its_move_is_said_from_what_it_could_see():
    """A bot's move explained (issue 32 item 3): the best of its moves with its win chance
    and the others'; a forced one said as such; an explanation reads only the mover's view
    (the other hand's cards differ, the words do not)."""
    from crazylab.review import explain_move

    base = dict(discard=["7C"], to_play=1)
    one = cl.Game.from_position("crazy-eights", 2, hands=[["2D", "3D", "4S", "9S", "QD"],
                                                          ["7H", "8S", "KC"]],
                                stock=["5H", "6H", "JS", "QH", "10S", "AH"], **base)
    two = cl.Game.from_position("crazy-eights", 2, hands=[["QH", "10S", "AH", "5H", "6H"],
                                                          ["7H", "8S", "KC"]],
                                stock=["QD", "9S", "4S", "3D", "2D", "JS"], **base)
    said = explain_move(one, ["7H"], 0, seed=2)
    assert said.seat == 1 and said.played == "7H" and said.verdict != "forced"
    assert said.why.startswith("7♥ was") and "moves: it wins" in said.why and "%" in said.why
    assert said == explain_move(two, ["7H"], 0, seed=2)
    forced = cl.Game.from_position("crazy-eights-classic", 2, hands=[["2C", "9H"], ["3D"]],
                                   stock=["5S", "6C", "JD"], discard=["7C"], to_play=0)
    assert explain_move(forced, ["2C"], 0).why == "2♣ was the only move."
    with pytest.raises(ReviewError, match="ply must be"):
        explain_move(one, ["7H"], 3)


def test_weigh_ranks_every_move_until_each_is_told_from_the_best():
    """Five-card rules, 7♣ on the pile: 7♥ keeps the eight for later and beats every call of
    8♠ by more than the tolerance; every move is weighed in the same worlds, best first."""
    from crazylab.review import TOLERANCE, weigh

    game = cl.Game.from_position(
        "crazy-eights", 2, hands=[["8S", "7H", "KD", "3S", "9H"],
                                  ["2C", "4D", "6S", "10D", "QC"]],
        stock=["5H", "6H", "JS", "QH", "10S", "AH", "2D", "3D", "4S", "5C", "9S", "JD"],
        discard=["7C"], to_play=0, seed=3)
    moves = weigh(game, seed=1)
    assert sorted(m.move for m in moves) == sorted(str(m) for m in game.legal_moves())
    assert [m.win for m in moves] == sorted((m.win for m in moves), reverse=True)
    assert moves[0].move == "7H"
    eights = [m for m in moves if m.move.startswith("8S")]
    assert all(moves[0].win - m.win > TOLERANCE for m in eights)
    assert all(m.low <= m.win <= m.high for m in moves)
    assert weigh(game, seed=1) == moves  # seeded
    assert all(m.high - m.low < 0.2 for m in moves)  # worlds enough to tell them apart
    with pytest.raises(ReviewError, match="weigh needs"):
        weigh("7H")  # type: ignore[arg-type]


def test_two_hands_that_differ_only_in_hidden_cards_get_the_same_review():
    """The review reads the seat's observation only: the other hand and the stock's order
    (cards seat 0 cannot see) differ, what seat 0 sees and does is the same."""
    base = dict(discard=["7C"], to_play=0)
    one = cl.Game.from_position("crazy-eights", 2, hands=[["7H", "8S", "KC"],
                                                          ["2D", "3D", "4S", "9S", "QD"]],
                                stock=["5H", "6H", "JS", "QH", "10S", "AH"], **base)
    two = cl.Game.from_position("crazy-eights", 2, hands=[["7H", "8S", "KC"],
                                                          ["QH", "10S", "AH", "5H", "6H"]],
                                stock=["QD", "9S", "4S", "3D", "2D", "JS"], **base)
    assert one.observation(0) == two.observation(0)
    assert review_moves(one, ["KC"], 0, seed=3) == review_moves(two, ["KC"], 0, seed=3)


def test_verdicts_follow_the_stated_thresholds():
    assert verdict(0.30, 0.1) == "blunder" and verdict(0.15, 0.05) == "mistake"
    assert verdict(0.07, 0.01) == "inaccuracy" and verdict(0.04, 0.01) == "good"
    assert verdict(0.30, -0.01) == "good"  # the worlds could not tell the moves apart


def test_bad_input_is_refused_in_one_line(capsys):
    start = cl.Game.from_position("crazy-eights", 2, hands=[["2C", "9H"], ["3D", "4S"]],
                                  stock=["5S", "6C", "JD"], discard=["7C"], to_play=0)
    with pytest.raises(ReviewError, match="refused"):
        review_moves(start, ["KD"], 0)
    with pytest.raises(ReviewError, match="seat must be"):
        review_moves(start, ["2C"], 5)
    with pytest.raises(ReviewError):
        review_game("no-such-example", 0)
    assert cli_main(["review", "no-such-example"]) == 2
    assert "crazylab review:" in capsys.readouterr().err


def test_the_command_prints_each_decision_and_why(capsys):
    assert cli_main(["review", "sr-t1-t2-worked-turn-eight-calls-diamonds", "--seat", "0",
                     "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "seat 0: 1 decisions" in out and "best" in out and "%" in out


def _played_hand(rules: str, seed: int, players: int = 2) -> tuple[cl.Game, list[str]]:
    """A hand the rules of thumb (seat 0) play against random bots: its start and moves."""
    from crazylab.playout import play_hand
    from crazylab.review import hand_record

    game = play_hand(cl.Game.new(rules, players=players, seed=seed),
                     [make_bot("rules")] + [make_bot("random")] * (players - 1),
                     [random.Random(seed + k) for k in range(players)])
    return hand_record(game)


def test_the_review_panel_beside_a_table_reviews_the_hand_just_played():
    """A whole hand on the table (the learner plays the rules of thumb's moves), then
    "Review this hand": a progress bar, the decisions with verdicts, the win-chance graph (SVG),
    each decision's position; asked during the next hand, it clears and says to finish."""
    from crazylab.bots import make_bot
    from crazylab.widgets import GameTable
    from crazylab.widgets.review_panel import HandReview

    table = GameTable("crazy-eights-classic", opponents=1, seed=3, delay=0)
    panel = HandReview(table, seed=1)
    panel.button.click()  # too early: it says to finish the hand, and reviews nothing
    assert panel.decisions == [] and "Finish the hand" in panel.summary.value
    bot, rng = make_bot("random"), random.Random(2)
    for _ in range(500):
        if table.game.over:
            break
        assert table.your_turn
        assert table.play(bot.choose(table.observation, rng))
    assert table.game.over
    panel.button.click()
    assert not panel.errors, panel.errors
    assert panel.decisions and all(d.seat == 0 for d in panel.decisions)
    assert panel.progress.value == panel.progress.max == len(panel.decisions)
    rated = [d for d in panel.decisions if d.verdict not in ("forced", "unrated")]
    assert "with a choice" in panel.summary.value
    if rated:
        assert panel.listing.value.count("<li") == len(rated)
        assert panel.chart.value.count("<polyline") == 2 and "Win chance" in panel.chart.value
    panel.picker.value = len(panel.decisions) - 1
    assert "your hand" in panel.position.value and "<svg" in panel.position.value
    # "why did the bot play that?": each of its choices, explained as it could see them
    bot_choices = [v for _label, v in panel.others.options if v is not None]
    assert bot_choices and all(panel._moves and v < len(panel._moves) for v in bot_choices)
    panel.others.value = bot_choices[0]
    assert not panel.errors, panel.errors
    assert "of the" in panel.other_why.value and "%" in panel.other_why.value
    table.new_hand()
    panel.button.click()  # the next hand, not over: the last one's review goes
    assert panel.decisions == [] and panel.listing.value == ""
    assert "Finish the hand" in panel.summary.value


@pytest.mark.parametrize("lesson", ["04_crazy_breens", "06_music_levels"])
def test_the_breens_and_music_level_explainers_predict_first(lesson):
    """Issue 31 item 6: in the lessons of Crazy Breens and the music levels every worked
    example opens with "Predict first" on (read from the lesson as it is published)."""
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "notebooks"
                     / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    toggles = [m["state"]["value"] for m in state.values()
               if m.get("model_name") == "ToggleButtonModel"
               and m["state"].get("description") == "Predict first"]
    assert toggles and all(toggles), toggles

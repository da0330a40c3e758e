"""Every exercise of every lesson, driven as a learner would answer it (issue 20 items 1, 2
and 6): the lessons' code cells run twice in one namespace (as a learner re-running cells
would) without an error; each exercise's right answer passes in every equivalent spelling
(case, suit symbols or letters, order, separators, a stack as one move, a called eight, a
pile, the other name of a note); a wrong answer fails with the first thing wrong and never the
whole solution, the solution comes after 3 tries; an empty or nonsense answer is told how to
answer; every exercise has a hint written by its lesson; and the seeds' known mistakes get a
targeted message."""

from __future__ import annotations

import contextlib
import io
import random
import re
from typing import Any

import pytest
from lesson_exercises import LESSONS, run_lesson

from crazylab.engine.cards import Card
from crazylab.engine.moves import PLAY
from crazylab.widgets import position
from crazylab.widgets.exercise import legal_moves_exercise

pytestmark = pytest.mark.oldest

SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NOTE = re.compile(r"^([A-G])([♯♭#b]?)$")
SEMITONE = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
RUNS: dict[str, Any] = {}


def lesson_run(stem: str) -> tuple[list[Any], BaseException | None]:
    """The exercises of a lesson whose every code cell ran twice, and the error if any."""
    if stem not in RUNS:
        source = next(s for s in LESSONS if s.stem == stem)
        made: list[Any] = []
        error: BaseException | None = None
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                made = run_lesson(source, times=2)
        except Exception as e:  # reported by test_every_cell_runs_twice
            error = e
        RUNS[stem] = (made, error)
    return RUNS[stem]


def exercises(stem: str) -> list[Any]:
    made, error = lesson_run(stem)
    if error is not None:
        pytest.fail(f"{stem} does not run: {error!r}")
    return made


STEMS = [s.stem for s in LESSONS]


def card_spellings(token: str) -> list[str]:
    """``10H`` as ``10H``, ``10h``, ``10♥``; a word as itself, in capitals too."""
    try:
        c = Card.parse(token)
    except ValueError:
        return [token, token.upper()]
    text = str(c)
    if c.is_joker:
        return [text, text.lower()]
    rank, suit = text[:-1], text[-1]
    return [text, text.lower(), rank + SYMBOL[suit], rank.lower() + SYMBOL[suit]]


def move_spellings(ex: Any, token: str) -> list[str]:
    """Other ways to write the move that starts with ``token``: a legal stack written whole
    (its tail in any order), a called eight, a pile named."""
    game = ex.game
    out: list[str] = []
    if game is None or token in ("draw", "pass", "end"):
        return out
    for m in game.legal_moves():
        if m.kind != PLAY or str(m.cards[0]) != token:
            continue
        text = str(m)
        if text != token:
            out.append(text)
            out.append(text.lower())
        if len(m.cards) > 2:  # the rest of a stack in another order
            head, *tail = text.split(":")[0].split("@")[0].split("+")
            out.append("+".join([head, *reversed(tail)]))
    return out


def pitch_class(name: str) -> int | None:
    m = NOTE.match(name.strip())
    if not m:
        return None
    shift = {"♯": 1, "#": 1, "♭": -1, "b": -1}.get(m.group(2), 0)
    return (SEMITONE[m.group(1)] + shift) % 12


def right_spellings(ex: Any) -> list[str]:
    """Every spelling of the right answer a learner may type."""
    rng = random.Random(len(ex.question))
    rights = list(ex.right_answers)
    if ex.kind == "cards":
        out = [" ".join(rights), ", ".join(reversed(rights)), ";".join(rights)]
        for pick in range(4):  # each card in one of its spellings, in a shuffled order
            tokens = [card_spellings(t)[pick % len(card_spellings(t))] for t in rights]
            rng.shuffle(tokens)
            out.append(rng.choice([" ", ", ", " , ", "; "]).join(tokens))
        for i, t in enumerate(rights):  # a stack / call / pile in place of its first card
            for other in move_spellings(ex, t):
                out.append(" ".join([*rights[:i], other, *rights[i + 1:]]))
                out.append(" ".join([*rights, other]))  # the card and its stack both
        for word in ex.optional:  # words the question does not ask about
            out.append(" ".join([*rights, word]))
        return out
    if ex.kind == "card":
        return card_spellings(rights[0]) + [f" {card_spellings(rights[0])[-1]} "]
    if ex.kind == "number":
        n = int(rights[0])
        return [str(n), f" {n} ", f"−{-n}" if n < 0 else f"+{n}"]
    out = []
    for r in rights:
        out += [r, r.upper(), r.lower(), f"{r}.", r.replace("♯", "#").replace("♭", "b")]
        if r in ex.choices and any(len(c) > 12 for c in ex.choices):
            out.append(str(ex.choices.index(r) + 1))
        if r in ("yes", "no"):
            out += [r[0], r[0].upper(), r.capitalize()]
    # a note is right under each of its names where the question is about sound
    sounds = {pitch_class(r) for r in rights} - {None}
    out += [c for c in ex.choices if pitch_class(c) in sounds]
    return out


def wrong_answer(ex: Any) -> str | None:
    """One wrong answer, or None when the exercise has none to give."""
    rights = list(ex.right_answers)
    if ex.kind == "cards":
        if len(rights) > 1:
            return " ".join(rights[1:])  # one move missing
        hand = [str(c) for c in ex.game.hands[ex.game.to_play]] if ex.game else []
        extra = [c for c in hand if c not in rights]
        return " ".join([*rights, extra[0]]) if extra else None
    if ex.kind == "card":
        return "2C" if rights[0] != "2C" else "3C"
    if ex.kind == "number":
        return str(int(rights[0]) + 1)
    sounds = {pitch_class(r) for r in rights} - {None}
    wrong = [c for c in ex.choices if c not in rights and pitch_class(c) not in sounds]
    return wrong[0] if wrong else None


@pytest.mark.parametrize("stem", STEMS)
def test_every_cell_runs_twice(stem):
    """Issue 20 item 6: a learner re-running a cell gets the same exercise, no IllegalMove."""
    made, error = lesson_run(stem)
    assert error is None, f"{stem}: a cell run twice raised {error!r}"
    assert made and len(made) % 2 == 0
    firsts, seconds = made[0::2], made[1::2]
    assert [e.question for e in firsts] == [e.question for e in seconds]
    assert [e.solution for e in firsts] == [e.solution for e in seconds]


def test_the_lessons_ask_over_a_hundred_questions():
    assert sum(len(exercises(s)) // 2 for s in STEMS) >= 113


@pytest.mark.parametrize("stem", STEMS)
def test_every_spelling_of_a_right_answer_passes(stem):
    checked = 0
    for ex in exercises(stem)[0::2]:
        assert ex.right_answers, ex.question
        for answer in right_spellings(ex):
            feedback = ex.check(answer)
            assert ex.answers[-1] == (answer, True), (ex.question, answer, feedback)
            assert feedback.startswith("Right"), (ex.question, answer, feedback)
            checked += 1
        for right in ex.right_answers:  # clicking the button is the same
            if right in ex.choices:
                assert ex.choose(right).startswith("Right"), (ex.question, right)
    assert checked >= 3 * len(exercises(stem)) // 2


@pytest.mark.parametrize("stem", STEMS)
def test_a_wrong_answer_says_the_first_thing_wrong_not_the_solution(stem):
    for ex in exercises(stem)[1::2]:
        wrong = wrong_answer(ex)
        if wrong is None:
            continue
        feedback = ex.check(wrong)
        assert ex.answers[-1] == (wrong, False), (ex.question, wrong, feedback)
        assert not feedback.startswith("Right"), (ex.question, wrong)
        assert ex.reveal.value == "", (ex.question, "solution shown after one try")
        if ex.kind == "cards" and len(ex.right_answers) > 1:
            missing = Card.parse(ex.right_answers[0]).display \
                if ex.right_answers[0] not in ("draw", "pass", "end") else None
            if missing:  # the missing card is not given away
                assert missing not in feedback, (ex.question, feedback)
        ex.check(wrong)
        third = ex.check(wrong)
        assert "answer is shown" in third and ex.reveal.value, ex.question


@pytest.mark.parametrize("stem", STEMS)
def test_empty_and_nonsense_answers_are_told_how_to_answer(stem):
    for ex in exercises(stem)[0::2]:
        tries = len(ex.answers)
        for nonsense in ("", ",", " ; ", "banana"):
            text = ex.check(nonsense)
            if ex.kind == "cards" and nonsense.strip(" ,;") == "":
                assert text.startswith("Type some cards, e.g."), (ex.question, text)
            assert not text.startswith(("Right", "Not")), (ex.question, nonsense, text)
            assert "Legal:" not in text and ex.solution not in text
        assert len(ex.answers) == tries and ex.tries == 0  # no try counted
        assert ex.reveal.value == ""


@pytest.mark.parametrize("stem", STEMS)
def test_every_exercise_has_a_hint_written_by_its_lesson(stem):
    assert exercises(stem)[0::2], f"{stem} has no exercise"
    for ex in exercises(stem)[0::2]:
        assert ex.hint_written and len(ex.hint) > 15, ex.question
        assert ex.hint_area.value == ""
        ex.hint_button.click()
        assert ex.hint in ex.hint_area.value.replace("&#x27;", "'") or ex.hint_area.value
        ex.answer_button.click()
        assert ex.reveal.value, ex.question  # the solution on request


def find(stem: str, *ids: str, kind: str = "") -> Any:
    for ex in exercises(stem)[0::2]:
        if all(i in ex.rule_ids for i in ids) and kind in ("", ex.kind):
            return ex
    raise AssertionError(f"no exercise of {stem} asks about {ids}")


def test_common_mistakes_get_a_targeted_message():
    """The seeds' named mistakes and the misconceptions of issue 20."""
    # an eight scored at face value (SR-T6: 22, not 64) and the largest hand only (53)
    t4 = find("01_crazy_eights_basics", "SR-T4")
    assert "an eight counts 50 points here, not 8" in t4.check("22")
    assert "only seat 1's hand" in t4.check("53")
    assert "every opponent" in t4.check("11")
    t5 = find("01_crazy_eights_basics", "SR-T5")
    assert "not 8" in t5.check("31") and "only seat 0's hand" in t5.check("62")
    # the printed suit after an eight: the called suit counts
    t2 = find("01_crazy_eights_basics", "SR-T2", "SR-12")
    assert "called suit counts, not the eight's printed suit" in t2.check("3D QD 8H KS")
    ks = find("01_crazy_eights_basics", "SR-T2", "SR-11", kind="choice")
    assert "called suit counts" in ks.choose("yes")
    breens = legal_moves_exercise(position("crazy-breens", top="8S", hand="KS 3D", call="D"),
                                  rules="BR-16", cards_only=True)
    assert "called suit counts" in breens.check("3D KS")
    assert "called suit counts" not in breens.check("3D 5H")  # not in the hand: no such claim
    # the musical main game's 8 takes its own suit: no call
    mu = find("05_musical_crazy_8s", "MU-12", "MU-T2", kind="choice")
    assert "takes its own suit" in mu.choose("yes")
    # unison in the levels, and Level 4 up only
    unison = find("06_music_levels", "MU-29", kind="choice")
    assert "unison never fits" in unison.choose("yes")
    up = find("06_music_levels", "MU-Q26")
    assert "only an interval UP" in up.check("AC 4D 9H 5S")


def test_the_right_answers_issue_20_found_marked_wrong():
    stack = find("04_crazy_breens", "BR-T20")
    assert stack.check("9H 9H+9C").startswith("Right")
    assert stack.check("9h+9c").startswith("Right")
    twos = find("04_crazy_breens", "BR-T2")
    assert twos.check("2C+2H+2S").startswith("Right")
    note = find("05_musical_crazy_8s", "MU-D3")
    assert note.choose("D♯").startswith("Right") and note.choose("E♭").startswith("Right")
    assert not note.choose("E").startswith("Right")
    after_eight = find("01_crazy_eights_basics", "SR-T2", "SR-12")
    assert after_eight.check("3D QD 8H draw").startswith("Right")
    two = find("01_crazy_eights_basics", "SR-T8")
    assert two.check("5C 2H draw").startswith("Right") and two.check("5C 2H").startswith("Right")
    up = find("06_music_levels", "MU-Q26")
    assert up.check("AC 4D 9H").startswith("Right")
    comma = find("01_crazy_eights_basics", "SR-10", "SR-17")
    text = comma.check(",")
    assert text.startswith("Type some cards") and "10♥" not in text and "Q♥" not in text

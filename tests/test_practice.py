"""Practice sets (issue 22 item 4): fresh positions from the engine, answers checked by the
lesson exercises' factories, wrong rule ids asked again later, a seeded set per learner.

Every answer here is computed again without the item generator: the legal cards from the
rule set's matching table, the scores by adding card points, the top card by playing the
moves, the pile by the table of each pile's reference."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from crazylab.classroom.recorder import Recorder
from crazylab.engine.cards import Card
from crazylab.engine.errors import CrazylabError
from crazylab.engine.moves import PLAY, Move
from crazylab.engine.narrator import story
from crazylab.engine.rules import PRESETS
from crazylab.practice import (
    KINDS,
    PracticeError,
    PracticeSet,
    derive_seed,
    kinds_for,
    make_item,
    possible_ids,
)
from crazylab.widgets import exercise as exercise_module
from crazylab.widgets.exercise import misconception
from crazylab.widgets.practice import Practice, exercise_for, practice_set

pytestmark = pytest.mark.oldest

LESSON = "01_crazy_eights_basics"
CASES = [(r, k) for r in PRESETS for k in kinds_for(r)]
SEEDS = range(50)


class FakeRecorder:
    """The recorder's API (the class contract), keeping what it is sent."""

    def __init__(self, name: str = "ana") -> None:
        self.name = name
        self.lesson: str | None = LESSON
        self.records: list[dict] = []
        self.attempts: list[dict] = []
        self.callbacks: list = []

    def seed(self) -> int:
        return derive_seed(self.name, len(self.records))

    def practice(self, **fields) -> None:
        self.records.append(fields)

    def attempt(self, **fields) -> None:
        self.attempts.append(fields)

    def earlier_practice(self, lesson):
        return [r for r in self.records if r["lesson"] == lesson]

    def earlier(self, lesson):
        return []

    def on_change(self, callback) -> None:
        self.callbacks.append(callback)


# --------------------------------------------------------------------------- the kinds

def test_every_preset_has_its_kinds():
    assert set(PRESETS) == {"crazy-eights", "crazy-eights-classic", "crazy-eights-quick",
                            "crazy-breens", "crazy-8s-music", *(f"crazy-8s-level-{n}"
                                                               for n in range(1, 6))}
    for name in PRESETS:
        kinds = kinds_for(name)
        assert {"legal", "next_top"} <= set(kinds)
        assert ("score" in kinds) == (name != "crazy-breens")  # Breens keeps no score
        assert ("pile" in kinds) == name.startswith("crazy-8s")


def _independent_legal(game) -> set[str]:
    """The cards of the hand that fit some pile by the rule set's matching table."""
    rs = game.rules
    return {str(c) for c in game.hands[game.to_play]
            if any(c in rs.accepts[game.refs[p]] for p in range(len(game.piles)))}


@pytest.mark.parametrize(("rules_name", "kind"), CASES)
def test_fifty_seeds_right_answer_accepted_wrong_refused_with_the_engines_reason(
        rules_name, kind):
    rs = PRESETS[rules_name]
    answers = Counter()
    for seed in SEEDS:
        item = make_item(rules_name, kind, seed)
        assert item.rules == rules_name and item.kind == kind and item.seed == seed
        assert item.rule_ids and set(item.rule_ids) <= set(possible_ids(rules_name, kind))
        assert 0 < len(item.question) <= 1000  # the class store keeps questions up to 1000
        before = None if item.game is None else item.game.fingerprint()
        ex = exercise_for(item)
        assert ex.rule_ids == item.rule_ids
        if kind == "legal":
            game = item.game
            legal = _independent_legal(game)
            engine = {str(m.cards[0]) for m in game.legal_moves() if m.kind == PLAY}
            assert legal == engine == set(item.answer.split())
            hand = {str(c) for c in game.hands[game.to_play]}
            assert legal and hand - legal, "a trivial question: all or none legal"
            shuffled = sorted(legal, key=lambda _: random.Random(seed).random())
            assert ex.check(" ".join(s.lower() for s in shuffled)).startswith("Right")
            bad = sorted(hand - legal)[0]
            why = game.explain(bad)
            feedback = ex.check(" ".join([*legal, bad]))
            assert feedback.startswith("Not quite") and Card.parse(bad).display in feedback
            assert why and (misconception(game, bad, why) or why) in feedback
        elif kind == "score":
            win, seat = item.winner, item.seat
            cards = [Card.parse(c) for s, h in enumerate(item.hands) if s != win for c in h]
            if rs.scoring == "minus_one_per_card":
                expected = -len(item.hands[seat])
                assert seat != win
            else:
                expected = sum(rs.card_points(c) for c in cards)
                assert seat == win
            assert expected != 0 and len(cards) >= 2
            assert item.answer == str(expected)
            assert ex.check(str(expected)).startswith("Right")
            assert ex.check(f" {expected} ").startswith("Right")
            wrong = ex.check(str(expected + 1))
            assert wrong.startswith(f"Not {expected + 1}")
            assert ex.answers[-1][1] is False
            for s, hand in enumerate(item.hands):  # the working names every loser's hand
                if s != win and hand:
                    assert f"Seat {s} holds" in ex.solution
        elif kind == "next_top":
            g = item.game.copy(keep_undo=True)
            top_before = g.piles[item.pile][-1]
            for m in item.moves:
                g.push(m)
            top = g.piles[item.pile][-1]
            assert str(top) == item.answer and top != top_before
            assert len(item.moves) >= 2
            assert ex.check(str(top).lower()).startswith("Right")
            assert ex.check(top.display).startswith("Right")
            feedback = ex.check(str(top_before))
            assert feedback.startswith(f"Not {top_before.display}")
            assert f"the top card of {'pile ' + str(item.pile + 1) if rs.piles > 1 else ''}"\
                .rstrip() in ex.solution and top.display in ex.solution
            assert story(g)[-1] in ex.solution  # the one narrator's words
        else:  # pile
            game, card = item.game, Card.parse(item.card)
            assert not rs.is_wild(card) and card in game.hands[game.to_play]
            fit = [p for p in range(len(game.piles)) if card in rs.accepts[game.refs[p]]]
            assert len(fit) <= 1 or rs.piles == 1
            if rs.piles == 1:
                expected = "yes" if fit else "no"
            else:
                expected = f"pile {fit[0] + 1}" if fit else "none"
            assert item.answer == expected
            answers[bool(fit)] += 1
            assert ex.check(expected).startswith("Right")
            for choice in item.choices:
                if choice == expected:
                    continue
                feedback = ex.check(choice)
                assert feedback.startswith(f"Not {choice}")
                if choice in ("none", "no"):
                    assert f"{card.display} fits" in feedback
                else:
                    p = 0 if rs.piles == 1 else int(choice.split()[1]) - 1
                    reason = game.explain(str(card) if rs.piles == 1 else f"{card}@{p}")
                    assert reason and reason in feedback
        if before is not None:
            assert item.game.fingerprint() == before  # asking changed nothing
    if kind == "pile":
        assert answers[True] >= 10 and answers[False] >= 10  # both kinds of answer


def test_items_are_reproducible_from_their_seed():
    for rules_name, kind in CASES:
        a, b = make_item(rules_name, kind, 7), make_item(rules_name, kind, 7)
        assert (a.position, a.question, a.answer, a.rule_ids) == \
            (b.position, b.question, b.answer, b.rule_ids)
        assert make_item(rules_name, kind, 8).position != a.position


def test_twenty_learners_get_at_least_fifteen_distinct_positions():
    for rule_sets in (["crazy-eights"], ["crazy-8s-level-4"], ["crazy-breens"]):
        firsts = set()
        for n in range(20):
            rec = FakeRecorder(f"learner-{n}")
            p = Practice(LESSON, rule_sets, recorder=rec)
            firsts.add(p.item.position)
            # the same learner and attempt number: the same set again
            again = Practice(LESSON, rule_sets, recorder=rec)
            assert [i.position for i in again.set.items] == [i.position for i in p.set.items]
        assert len(firsts) >= 15, (rule_sets, len(firsts))


def test_bad_requests_are_refused_with_one_line_and_nothing_dealt():
    with pytest.raises(PracticeError, match="unknown rule set 'crazy-nines'"):
        practice_set(LESSON, ["crazy-nines"])
    with pytest.raises(PracticeError, match="unknown practice kind 'colour'"):
        practice_set(LESSON, ["crazy-eights"], kinds=["colour"])
    with pytest.raises(PracticeError, match="none of the kinds pile"):
        practice_set(LESSON, ["crazy-eights"], kinds=["pile"])
    with pytest.raises(PracticeError, match="size must be a whole number from 1 to 10"):
        practice_set(LESSON, ["crazy-eights"], size=0)
    with pytest.raises(PracticeError, match="crazy-breens has no 'score' questions"):
        make_item("crazy-breens", "score", 1)
    with pytest.raises(PracticeError, match="seed must be a whole number"):
        make_item("crazy-eights", "legal", "1")  # type: ignore[arg-type]
    assert issubclass(PracticeError, CrazylabError) and issubclass(PracticeError, ValueError)
    for e in (PracticeError("x"),):
        assert "\n" not in str(e)


def test_default_kinds_fit_the_rule_sets():
    p = PracticeSet(LESSON, ["crazy-breens", "crazy-8s-level-2"], size=8, seed=3)
    assert set(p.options) == {("crazy-breens", "legal"), ("crazy-breens", "next_top"),
                              *(("crazy-8s-level-2", k) for k in KINDS)}
    assert {(i.rules, i.kind) for i in p.items} <= set(p.options)
    assert len({(i.rules, i.kind) for i in p.items}) == 6  # each option before any repeat
    only = PracticeSet(LESSON, ["crazy-eights"], kinds=["score"], size=3, seed=3)
    assert {i.kind for i in only.items} == {"score"}


# --------------------------------------------------------------------------- the widget

def _wrong_answer(item) -> str:
    if item.kind == "legal":
        game = item.game
        bad = sorted({str(c) for c in game.hands[game.to_play]} - set(item.answer.split()))
        return " ".join([*item.answer.split(), bad[0]])
    if item.kind == "score":
        return str(int(item.answer) + 1)
    if item.kind == "next_top":
        return str(item.game.piles[item.pile][-1])
    return next(c for c in item.choices if c != item.answer)


def test_a_whole_set_some_wrong_the_wrong_rule_ids_come_back_later():
    rec = FakeRecorder("bo")
    p = Practice(LESSON, ["crazy-eights", "crazy-8s-level-2"], recorder=rec)
    plan = ["wrong", "right", "wrong", "right", "wrong"]
    assert p.status.value.count("Question 1 of 5") == 1
    asked = []
    n = 0  # the planned items seen (re-asks and the filler are answered right)
    while p.item is not None:
        item = p.item
        wrong = not item.again and plan[n] == "wrong"
        n += not item.again
        with pytest.raises(PracticeError, match="answer this question first"):
            p.next()
        feedback = p.answer(_wrong_answer(item) if wrong else item.answer)
        assert feedback.startswith("Not" if wrong else "Right"), feedback
        assert f"Question {len(asked) + 1} of {len(p.set.items)}" in p.status.value
        assert f"Question {len(asked) + 1}" in p.exercise.prompt.value
        assert not p.next_button.disabled
        asked.append((item, not wrong))
        p.next()
    wrong_at = [i for i, (item, ok) in enumerate(asked) if not ok and not item.again]
    assert len(wrong_at) == 3 and wrong_at[0] == 0
    for i in wrong_at:
        item = asked[i][0]
        later = [j for j, (other, _) in enumerate(asked) if j >= i + 2 and other.again
                 and (other.rules, other.kind) == (item.rules, item.kind)
                 and set(item.rule_ids) <= set(other.rule_ids)]
        assert later, f"{item.rule_ids} of item {i} not asked again"
        # never right after: the next item is not its re-ask
        assert not (asked[i + 1][0].again and (asked[i + 1][0].rules, asked[i + 1][0].kind)
                    == (item.rules, item.kind))
    # the last item was wrong: one other question, then its rule ids again
    assert len(asked) == 5 + 3 + 1
    assert asked[-2][0].again and asked[-1][0].again and wrong_at[-1] == len(asked) - 3
    assert p.set.right == sum(ok for _, ok in asked)
    assert f"{p.set.right} of {len(asked)} right" in p.summary.value
    assert f"Set done: {len(asked)} questions" in p.status.value
    assert p.exercise is None and p.next_button.disabled


def test_records_carry_the_item_and_the_answer():
    rec = FakeRecorder("cy")
    p = Practice(LESSON, ["crazy-8s-music"], kinds=["pile", "score", "next_top"], size=3,
                 recorder=rec)
    sent = []
    for wrong in (True, False, True):
        item = p.item
        given = _wrong_answer(item) if wrong else item.answer
        text = p.answer(given)
        ex = p.exercise
        assert bool(ex.reveal.value) == wrong  # the solution shown with a wrong answer
        assert ex.solution not in ex.feedback.value  # and only there
        sent.append((item, given, not wrong, text, ex.solution))
        p.next()
    assert len(rec.records) == 3
    for (item, given, ok, text, solution), r in zip(sent, rec.records, strict=True):
        assert r == {"lesson": LESSON, "kind": item.kind, "seed": item.seed, "rules": item.rules,
                     "question": item.question, "answer": given, "verdict": ok,
                     "rule_ids": list(item.rule_ids),
                     # the engine's working comes with a wrong verdict, as on the page
                     "feedback": text if ok else f"{text}\n{solution}"}
        if not ok:
            shown = item.answer if item.kind in ("pile", "score") else \
                Card.parse(item.answer).display
            assert shown in solution
    assert rec.attempts == []  # practice items are not lesson exercises


def test_one_answer_decides_an_item_and_is_recorded_once():
    rec = FakeRecorder("di")
    p = Practice(LESSON, ["crazy-eights"], kinds=["legal"], size=2, recorder=rec)
    item = p.item
    first = p.answer(_wrong_answer(item))
    assert p.answer(item.answer) == first  # the verdict stands
    assert len(rec.records) == 1 and rec.records[0]["verdict"] is False
    assert p.exercise.answer_box.disabled and p.exercise.check_button.disabled
    assert "Solution" in p.exercise.reveal.value  # the answer and why, after a wrong one
    unreadable = Practice(LESSON, ["crazy-eights"], kinds=["legal"], size=1,
                          recorder=FakeRecorder("ed"))
    assert unreadable.answer("banana").startswith("I could not read")
    assert unreadable.next_button.disabled and unreadable.set.verdicts == []


def test_new_set_deals_fresh_positions_and_favours_what_was_wrong():
    rec = FakeRecorder("fa")
    p = Practice(LESSON, ["crazy-eights-classic"], recorder=rec)
    first = [i.position for i in p.set.items]
    while p.item is not None:  # every score wrong, the rest right
        item = p.item
        p.answer(_wrong_answer(item) if item.kind == "score" else item.answer)
        p.next()
    p.new_set()
    assert p.set.verdicts == [] and "0 of 0 right" in p.status.value
    assert not {i.position for i in p.set.items} & set(first)
    # over many learners, earlier wrong scores make score questions more frequent
    missed = [{"lesson": LESSON, "kind": "score", "rule_ids": ["AP-15", "C-16"],
               "verdict": False}] * 3
    plain, favoured = Counter(), Counter()
    for n in range(30):
        plain.update(i.kind for i in PracticeSet(LESSON, ["crazy-eights-classic"],
                                                 seed=n).items)
        favoured.update(i.kind for i in PracticeSet(LESSON, ["crazy-eights-classic"],
                                                    seed=n, earlier=missed).items)
    assert favoured["score"] > plain["score"] + 15, (plain, favoured)
    # and a rule id missed before is named by the items dealt
    eights = [{"lesson": LESSON, "kind": "legal", "rule_ids": ["SR-10", "SR-11"],
               "verdict": False}] * 2
    named = sum("SR-11" in i.rule_ids for n in range(10)
                for i in PracticeSet(LESSON, ["crazy-eights"], kinds=["legal"], seed=n,
                                     earlier=eights).items)
    base = sum("SR-11" in i.rule_ids for n in range(10)
               for i in PracticeSet(LESSON, ["crazy-eights"], kinds=["legal"],
                                    seed=n).items)
    assert named >= 40 > base


def test_with_the_real_recorder_practice_carries_over_a_reload():
    rec = Recorder(environ={})
    rec.lesson = LESSON
    rec.use_browser("browser-1", None, "Ana")
    p = Practice(LESSON, ["crazy-eights"], recorder=rec)
    assert p.set.seed == rec.seed()  # seeded from the learner and their attempt count
    while p.item is not None:
        item = p.item
        p.answer(_wrong_answer(item) if item.kind == "legal" else item.answer)
        p.next()
    kept = rec.earlier_practice(LESSON)
    assert len(kept) == len(p.set.verdicts) and {k.kind for k in kept} >= {"legal"}
    assert rec.earlier(LESSON) == []  # no lesson exercise attempts from practice
    catalogue = getattr(exercise_module, "catalogue", None)
    if catalogue is not None:
        assert LESSON not in catalogue()
    # the page is opened again: the browser hands back what it kept
    again = Recorder(environ={})
    again.lesson = LESSON
    again.use_browser("browser-1", rec.progress_file(), "Ana")
    assert again.seed() == rec.seed()
    after = Practice(LESSON, ["crazy-eights"], recorder=again)
    now = Practice(LESSON, ["crazy-eights"], recorder=rec)
    assert [i.position for i in after.set.items] == [i.position for i in now.set.items]
    assert "right" in after.earlier_note.value
    assert sum(i.kind == "legal" for i in after.set.items) >= 2  # the wrong kind favoured


def test_the_learner_known_later_gets_their_own_set():
    rec = Recorder(environ={})
    rec.lesson = LESSON
    p = Practice(LESSON, ["crazy-eights"], recorder=rec)
    kernel_set = [i.position for i in p.set.items]
    rec.use_browser("browser-2", None, "Bo")  # the class bar tells who the learner is
    mine = [i.position for i in p.set.items]
    assert mine != kernel_set
    assert mine == [i.position for i in Practice(LESSON, ["crazy-eights"],
                                                 recorder=rec).set.items]


def test_a_set_of_five_is_dealt_fast():
    """Measured, not asserted on time: printed for the report."""
    lessons = {"01": ["crazy-eights"], "02": ["crazy-eights-classic", "crazy-eights-quick"],
               "04": ["crazy-breens"], "05": ["crazy-8s-music"],
               "06": [f"crazy-8s-level-{n}" for n in range(1, 6)], "07": list(PRESETS)}
    worst = 0.0
    for name, rule_sets in lessons.items():
        for n in range(10):
            start = time.perf_counter()
            s = PracticeSet(name, rule_sets, seed=derive_seed(name, n))
            worst = max(worst, time.perf_counter() - start)
            assert len(s.items) == 5
    print(f"\nworst time to deal a set of 5: {worst * 1000:.0f} ms")


def test_move_text_in_next_top_questions_is_the_engines():
    item = make_item("crazy-8s-level-2", "next_top", 5)
    for m in item.moves:
        Move.parse(m)
    assert "pile" in item.question and item.question.endswith("now?")


def test_items_are_no_lesson_exercises_even_when_the_page_names_its_lesson():
    """The kernel's recorder names the lesson (the class bar set it): an item's exercise still
    gets no exercise id, is not catalogued and records no attempt; the set is catalogued."""
    from crazylab.classroom.recorder import recorder
    from crazylab.widgets import practice as practice_module

    rec = recorder()
    saved = rec.lesson
    lesson = "99_practice_only"
    rec.lesson = lesson
    try:
        before = len(rec.earlier(None))
        p = practice_set(lesson, ["crazy-8s-level-2"], kinds=["pile", "legal"], size=2)
        assert rec.lesson == lesson  # given back after each item was made
        while p.item is not None:
            assert p.exercise.lesson is None and p.exercise.exercise_id is None
            assert p.exercise.answer_button.layout.display == "none"
            p.answer(p.item.answer)
            p.next()
        assert len(rec.earlier(None)) == before  # no exercise attempt recorded
        assert len(rec.earlier_practice(lesson)) == 2
        catalogue = getattr(exercise_module, "catalogue", None)
        if catalogue is not None:
            assert lesson not in catalogue()
        assert practice_module.catalogue()[lesson] == {"rule_sets": ["crazy-8s-level-2"],
                                                       "kinds": ["legal", "pile"]}
    finally:
        rec.lesson = saved


def test_the_stored_output_does_not_depend_on_the_deal():
    shown = []
    for name in ("ana", "bo"):
        p = Practice(LESSON, ["crazy-eights"], recorder=FakeRecorder(name))
        bundle = p._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        assert "application/vnd.jupyter.widget-view+json" in data
        shown.append((data["text/plain"], data["text/html"]))
    assert shown[0] == shown[1]
    assert shown[0][0] == ("Practice: 5 questions on fresh positions of crazy-eights (which "
                           "cards are legal, what a hand scores, the top card after some "
                           "moves).")


def test_a_pitch_called_in_a_level_is_not_read_as_a_suit():
    from crazylab.practice import play_words

    level, main = PRESETS["crazy-8s-level-2"], PRESETS["crazy-eights"]
    assert play_words(level, Move.parse("8S@0:D")) == "8♠ announcing D on pile 1"
    assert play_words(level, Move.parse("8S@1:C#")) == "8♠ announcing C♯ on pile 2"
    assert play_words(main, Move.parse("8S:D")) == "8♠ calling ♦"
    calls = 0
    for seed in range(60):
        item = make_item("crazy-8s-level-4", "next_top", seed)
        for m in item.moves:
            move = Move.parse(m)
            if move.call:
                calls += 1
                assert f"announcing {move.call.replace('#', '♯')}" in item.question
                assert "calling" not in item.question.split("Then")[1]
    assert calls >= 5


def test_two_rule_sets_of_one_lesson_deal_different_positions_from_one_seed():
    for seed in range(20):
        classic = make_item("crazy-eights-classic", "legal", seed)
        quick = make_item("crazy-eights-quick", "legal", seed)
        assert classic.position.split("|", 1)[1] != quick.position.split("|", 1)[1]


def test_new_set_before_any_answer_still_deals_fresh_positions():
    p = Practice(LESSON, ["crazy-eights"], recorder=FakeRecorder("gu"))
    seen = [{i.position for i in p.set.items}]
    for _ in range(3):
        p.new_set()
        now = {i.position for i in p.set.items}
        assert all(not now & earlier for earlier in seen)
        seen.append(now)


def test_answers_reach_the_class_database_and_come_back_after_a_restart(tmp_path):
    """The real recorder and the class's SQLite store: every checked item is one row with the
    item's fields, and a new kernel (a reload, a restart) deals that learner the same set."""
    store_mod = pytest.importorskip("crazylab.classroom.store")
    path = str(tmp_path / "class.db")
    rec = Recorder(open_store=lambda: store_mod.open_store(path), environ={},
                   schedule=lambda delay, fn: None)
    rec.lesson = LESSON
    code = store_mod.open_store(path).create_class("Year 8").code
    learner = rec.join(code, "Ana")
    p = Practice(LESSON, ["crazy-eights"], recorder=rec)
    sent = []
    for wrong in (True, False, True, False):
        item = p.item
        given = _wrong_answer(item) if wrong else item.answer
        p.answer(given)
        sent.append((item, given, not wrong))
        p.next()
    assert rec.pending == 0 and rec.notice == ""
    rows = store_mod.open_store(path).practice(learner.token, LESSON)
    assert [(r.kind, r.seed, r.question, r.answer, r.verdict, r.rule_ids) for r in rows] == \
        [(i.kind, i.seed, i.question, g, ok, i.rule_ids) for i, g, ok in sent]
    assert all(r.feedback for r in rows)
    # another kernel for the same learner: the same next set, the missed kinds favoured
    other = Recorder(open_store=lambda: store_mod.open_store(path), environ={},
                     schedule=lambda delay, fn: None)
    assert other.identify(learner.token)
    assert len(other.earlier_practice(LESSON)) == 4
    assert [i.position for i in Practice(LESSON, ["crazy-eights"], recorder=other).set.items] \
        == [i.position for i in Practice(LESSON, ["crazy-eights"], recorder=rec).set.items]

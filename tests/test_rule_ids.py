"""One rule-id pattern (crazylab.rulebook.ID_PATTERN): every id the rulebook has is one, the
class store and the exercises take the house rulings' and variants' ids too, and no other
module writes a pattern of its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crazylab import rulebook
from crazylab.rulebook import RULE_ID, is_rule_id

ROOT = Path(__file__).resolve().parents[1]


def test_every_id_of_the_rulebook_is_a_rule_id_and_nothing_else_is():
    ids = rulebook.ids()
    assert {"SR-17", "BR-Q14", "MU-T4", "BR-M4", "C-10", "A14", "V12"} <= ids
    assert all(is_rule_id(i) for i in ids)
    for wrong in ("SR17", "sr-17", "SR-17b", "X-1", "A", "V123", "", None, 17, "SR-17 "):
        assert not is_rule_id(wrong), wrong


def test_in_a_sentence_an_id_is_a_whole_word():
    text = "Draw four (BR-18, BR-Q31); house ruling A14 and V12 apply, not XA12 or SR-17b."
    assert RULE_ID.findall(text) == ["BR-18", "BR-Q31", "A14", "V12"]


def test_the_store_and_the_exercises_take_every_kind_of_id(tmp_path):
    from crazylab.classroom.catalog import CATALOG_PATH, Catalog
    from crazylab.classroom.store import ClassError, open_store
    from crazylab.widgets._validate import WidgetArgumentError
    from crazylab.widgets.exercise import Exercise

    shipped = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))["lessons"]
    lesson = next(iter(shipped))
    entry = {**shipped[lesson]["exercises"]["e01"], "rules": ["A14", "V12", "SR-Q2"]}
    catalog = Catalog.from_dict({"lessons": {lesson: {"title": "L", "exercises": {
        "e01": entry}}}})
    store = open_store(tmp_path / "c.db", catalog=catalog)  # a Path, as well as a text
    with pytest.raises(ClassError, match="a URL or a file path"):
        open_store(5)  # type: ignore[arg-type]
    try:
        learner = store.anonymous()
        answer = " ".join(catalog.question(lesson, "e01").right_answers[:1])
        store.record_attempt(learner.token, lesson=lesson, exercise="e01", answer=answer,
                             attempt_id="a1")
        # the store keeps the catalogue's rule ids, never a caller's
        assert store.attempts(learner.token)[0].rule_ids == ("A14", "V12", "SR-Q2")
    finally:
        store.close()
    assert Exercise("Which house ruling?", lambda text: (True, "ok"), "A14", rules="A14 V12")
    with pytest.raises(WidgetArgumentError, match="rule ids"):
        Exercise("?", lambda text: (True, "ok"), "-", rules="SR17")


#: how a rule-id pattern of its own would be written
OWN_PATTERN = re.compile(r"SR\||\|SR\b|\(C\|")


@pytest.mark.parametrize("path", sorted(
    str(p.relative_to(ROOT)) for folder in ("crazylab", "tools")
    for p in (ROOT / folder).rglob("*.py") if p.parent.name != "rulebook"))
def test_no_module_writes_its_own_rule_id_pattern(path):
    assert not OWN_PATTERN.search((ROOT / path).read_text()), path


def test_the_own_pattern_check_can_fail():
    assert OWN_PATTERN.search('RULE_ID = re.compile(r"^(C|SR|AP|MU|BR)-(?:[DTQM]?\\d+)$")')
    assert OWN_PATTERN.search('_ID = r"(?:(?:SR|AP|BR|MU|C)-[A-Z]{0,2}\\d+"')

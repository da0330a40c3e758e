"""Answers to the catalogue's exercises for the tests: one the store judges right and one it
judges wrong (the store judges every answer itself, so a test cannot just say "right")."""

from __future__ import annotations

import json

from crazylab.classroom.catalog import CATALOG_PATH, Catalog, load
from crazylab.engine.cards import sort_key

L1 = "01_crazy_eights_basics"


def catalog_of(lessons: tuple[str, ...], size: int = 30) -> Catalog:
    """A catalogue of ``lessons`` with ``size`` exercises each, ``e01`` …: the shipped
    lesson's exercises (questions and all) over and over."""
    shipped = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))["lessons"]
    out = {}
    for n, lesson in enumerate(lessons, 1):
        real = list(shipped[lesson]["exercises"].values())
        out[lesson] = {"title": f"Lesson {n}", "practice": shipped[lesson].get("practice"),
                       "exercises": {f"e{k:02d}": real[(k - 1) % len(real)]
                                     for k in range(1, size + 1)}}
    return Catalog.from_dict({"lessons": out})


def right_answer(lesson: str, exercise: str, catalog: Catalog | None = None) -> str:
    """An answer the exercise's question judges right."""
    q = (catalog or load()).question(lesson, exercise)
    text = " ".join(q.right_answers) if q.answer_kind == "cards" else q.right_answers[0]
    assert q.judge(text)[0] is True, (lesson, exercise, text)
    return text


def wrong_answer(lesson: str, exercise: str, catalog: Catalog | None = None) -> str:
    """An answer the exercise's question judges wrong (readable, so it counts as a try)."""
    return wrong_answers(lesson, exercise, catalog)[0]


def wrong_answers(lesson: str, exercise: str, catalog: Catalog | None = None) -> list[str]:
    """Answers the exercise's question judges wrong, different ones first."""
    q = (catalog or load()).question(lesson, exercise)
    candidates = [c for c in q.choices if c not in q.right_answers]
    if q.answer_kind == "number":
        candidates.append(str(int(q.right_answers[0]) + 1))
    if q.answer_kind in ("card", "cards"):
        hand = [] if q.game is None else sorted(q.game.hands[q.game.to_play], key=sort_key)
        candidates += [str(c) for c in hand if str(c) not in q.right_answers]
        candidates += ["2C", "3D", "KS", "draw"]
    if q.answer_kind == "cards" and len(q.right_answers) > 1:
        candidates.append(q.right_answers[0])  # one legal card missed
    found = list(dict.fromkeys(t for t in candidates if q.judge(t)[0] is False))
    assert found, f"no wrong answer found for {lesson} {exercise}"
    return found


def practice_answer(rules: str, kind: str, seed: int, right: bool) -> str:
    """An answer to the practice item ``(rules, kind, seed)``, judged right or wrong."""
    from crazylab.practice import make_item
    from crazylab.questions import for_item

    q = for_item(make_item(rules, kind, seed))
    if right:
        text = " ".join(q.right_answers) if q.answer_kind == "cards" else q.right_answers[0]
        assert q.judge(text)[0] is True
        return text
    candidates = [c for c in q.choices if c not in q.right_answers]
    if q.answer_kind == "number":
        candidates.append(str(int(q.right_answers[0]) + 1))
    candidates += ["2C", "3D", "KS", "AH"]
    return next(t for t in candidates if q.judge(t)[0] is False)

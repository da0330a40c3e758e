"""The lesson catalogue: which lesson ids and exercise ids exist, and each exercise's question
as data, so the class store can only store an answer to a real exercise, judged by itself.

``catalog.json`` (package data, written by ``tools/lessons.py`` when it builds the lessons)::

    {"version": 1, "lessons": {"01_crazy_eights_basics": {
        "title": "Lesson 1: Crazy Eights basics",
        "exercises": {"e01": {"rules": ["SR-1"], "question": "...",
                              "judge": {"kind": "choice", ...}, "version": "3f0c..."}, ...},
        "practice": {"rule_sets": ["crazy-eights"], "kinds": ["legal", "score", "next_top"]}}}}

``judge`` is the question's spec (:mod:`crazylab.questions`) and ``version`` its digest. No
SQLAlchemy here: the catalogue is plain JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported when a question is first judged
    import crazylab.questions

CATALOG_PATH = Path(__file__).with_name("catalog.json")


@dataclass(frozen=True)
class LessonInfo:
    """One lesson: its title, its exercises (id -> rule ids) and its practice kinds."""

    id: str
    title: str
    exercises: Mapping[str, tuple[str, ...]]
    practice_kinds: tuple[str, ...] = ()
    questions: Mapping[str, str] = field(default_factory=dict)
    judges: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # id -> spec
    practice_rule_sets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalog:
    """The lessons by id, in course order."""

    lessons: Mapping[str, LessonInfo]
    version: int = 1

    def has_lesson(self, lesson: str) -> bool:
        return isinstance(lesson, str) and lesson in self.lessons

    def has_exercise(self, lesson: str, exercise: str) -> bool:
        return (self.has_lesson(lesson) and isinstance(exercise, str)
                and exercise in self.lessons[lesson].exercises)

    def exercise_count(self, lesson: str) -> int:
        return len(self.lessons[lesson].exercises) if self.has_lesson(lesson) else 0

    def title(self, lesson: str) -> str:
        return self.lessons[lesson].title if self.has_lesson(lesson) else lesson

    def question(self, lesson: str, exercise: str) -> crazylab.questions.Question:
        """The exercise's question, rebuilt from its spec (``KeyError`` for an exercise the
        catalogue has no spec of; :class:`crazylab.questions.QuestionError` for a bad one)."""
        from crazylab.questions import from_spec

        return from_spec(self.lessons[lesson].judges[exercise])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Catalog:
        """A catalogue from its JSON form (a ``ValueError`` names what is malformed)."""
        raw = data.get("lessons") if isinstance(data, Mapping) else None
        if not isinstance(raw, Mapping):
            raise ValueError("catalog: 'lessons' must be an object")
        lessons: dict[str, LessonInfo] = {}
        for lesson_id, entry in raw.items():
            exercises = entry.get("exercises", {}) if isinstance(entry, Mapping) else None
            if not isinstance(exercises, Mapping):
                raise ValueError(f"catalog: lesson {lesson_id!r} has no exercises object")
            practice = entry.get("practice") or {}
            lessons[str(lesson_id)] = LessonInfo(
                id=str(lesson_id),
                title=str(entry.get("title", lesson_id)),
                exercises={str(k): tuple(v.get("rules", ()) if isinstance(v, Mapping) else ())
                           for k, v in exercises.items()},
                practice_kinds=tuple(practice.get("kinds", ())
                                     if isinstance(practice, Mapping) else ()),
                questions={str(k): str(v.get("question", "")) for k, v in exercises.items()
                           if isinstance(v, Mapping)},
                judges={str(k): v["judge"] for k, v in exercises.items()
                        if isinstance(v, Mapping) and isinstance(v.get("judge"), Mapping)},
                practice_rule_sets=tuple(practice.get("rule_sets", ())
                                         if isinstance(practice, Mapping) else ()),
            )
        return cls(lessons=lessons, version=int(data.get("version", 1)))


@lru_cache(maxsize=4)
def _load(path: str) -> Catalog:
    with open(path, encoding="utf-8") as f:
        return Catalog.from_dict(json.load(f))


def load(path: str | Path | None = None) -> Catalog:
    """The shipped catalogue (or the one at ``path``), read once per path."""
    return _load(str(path or CATALOG_PATH))

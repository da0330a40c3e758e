"""What a learner's records are, as the store gives them back and a progress file holds them,
and the store's answers and refusals (no SQLAlchemy here: the kernel's recorder, the static
site and the class service's client use these too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import CrazylabError

__all__ = ["EXPORTS", "Assigned", "Assignment", "Attempt", "ClassError", "ClassInfo",
           "ClassReport",
           "Learner", "LessonProgress", "NewClass", "PracticeItem", "StoreUnavailable",
           "UnknownLearner"]


@dataclass(frozen=True)
class Assignment:
    """Lessons a teacher set the class, due on ``due`` (YYYY-MM-DD)."""

    id: int
    title: str
    lessons: tuple[str, ...]
    due: str


@dataclass(frozen=True)
class Assigned:
    """A learner's standing on an assignment: exercises answered right (counted) of those in
    its lessons; done when every one is."""

    assignment: Assignment
    right: int
    total: int

    @property
    def done(self) -> bool:
        return self.total > 0 and self.right >= self.total


@dataclass(frozen=True)
class Attempt:
    """One checked answer to an exercise."""

    attempt_id: str
    lesson: str
    exercise: str
    answer: str
    verdict: bool
    rule_ids: tuple[str, ...]
    feedback: str
    at: datetime
    after_solution: bool = False  # answered once the solution was shown: never counted right

    @property
    def counts(self) -> bool:
        """Whether the answer counts as right (a right answer after the solution does not)."""
        return self.verdict and not self.after_solution


@dataclass(frozen=True)
class PracticeItem:
    """One answered practice item."""

    attempt_id: str
    lesson: str
    kind: str
    seed: int
    question: str
    answer: str
    verdict: bool
    rule_ids: tuple[str, ...]
    feedback: str
    at: datetime
    rules: str = ""  # the rule set the item was dealt from


class ClassError(CrazylabError):
    """A refused class operation (one line naming what was wrong); nothing was stored."""


class UnknownLearner(ClassError):
    """No learner has this token (forgotten, or a token of another database): the one answer
    that tells a browser to let its token go."""


class StoreUnavailable(ClassError):
    """The database is locked, gone or unreachable: nothing was stored; the caller may retry."""


@dataclass(frozen=True)
class NewClass:
    code: str
    teacher_key: str
    name: str


@dataclass(frozen=True)
class ClassInfo:
    code: str
    name: str
    learners: int
    created_at: datetime


@dataclass(frozen=True)
class Learner:
    token: str
    name: str
    class_code: str | None
    class_name: str | None


@dataclass(frozen=True)
class LessonProgress:
    """Of a lesson's ``total`` exercises, ``answered`` were tried and ``right`` answered right
    at least once."""

    answered: int
    right: int
    total: int


#: the kinds of row a class's teacher may export (``Store.export_rows``, the CSV files)
EXPORTS = ("attempts", "practice", "hands", "learners", "reviews")


@dataclass(frozen=True)
class ClassReport:
    """A class's rows as :meth:`Store.export_rows` gives them (plain str/int/bool values,
    ``at`` an ISO-8601 UTC string, ``rule_ids`` space separated)."""

    code: str
    name: str
    learners: list[dict[str, Any]]
    attempts: list[dict[str, Any]]
    practice: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    #: each rated choice of a learner's seat at the class's tables (the server's reviews)
    reviews: list[dict[str, Any]] = field(default_factory=list)

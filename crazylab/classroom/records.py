"""What a learner's records are, as the store gives them back and a progress file holds them
(no SQLAlchemy here: the kernel's recorder, the static site included, uses these too)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["Attempt", "PracticeItem"]


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

"""Spaced review across lessons: which rules a learner should meet again today.

A Leitner scheduler over the judged answers (:class:`crazylab.classroom.mastery.Evidence`,
oldest first). Each rule a learner has met sits in a box; box ``k`` comes back
``INTERVALS[k]`` days after the rule last changed box:

* a wrong answer (a first try or a retry) puts the rule back in box 0: tomorrow;
* a right first try *when the rule is due* moves it up one box (the wait doubles);
* a right answer before it is due moves nothing: answering the same rule ten times in one
  lesson is practice, not spaced recall, so rules come back days apart, not minutes.

Why Leitner and not FSRS: its schedule is stated in one line a learner understands ("this
rule comes back in 4 days"), it needs no parameters fitted to a learner's review log (a class
starts with none), and its boxes map onto mastery (box 0 is being learned). FSRS can replace
:func:`boxes` later without changing what the review page asks for.

:func:`review_plan` turns the rules due into questions: for each, a lesson's practice rule
set and kind whose fresh positions name that rule (:func:`crazylab.practice.possible_ids`),
else the lesson exercise that asks about it, so a review mixes earlier lessons' rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from .mastery import Evidence

__all__ = ["INTERVALS", "Box", "Review", "boxes", "due", "review_plan"]

#: days before a rule in each box comes back (a right first try when due moves it up one)
INTERVALS: tuple[int, ...] = (1, 2, 4, 8, 16, 32)


@dataclass(frozen=True)
class Box:
    """Where a rule stands in a learner's review: its box, and when it comes back."""

    rule: str
    box: int
    since: datetime  # when it last changed box (or was first met)

    @property
    def due_at(self) -> datetime:
        return self.since + timedelta(days=INTERVALS[self.box])


@dataclass(frozen=True)
class Review:
    """One question of a review set about ``rules`` (due rules): practice of a lesson's rule
    set and kind (a fresh position), or, where no practice asks about them, the lesson's
    ``exercise``."""

    lesson: str
    rule_set: str
    kind: str  # a practice kind, or "exercise"
    rules: tuple[str, ...]
    exercise: str = ""


def boxes(answers: Iterable[Evidence]) -> dict[str, Box]:
    """Each rule's box after ``answers`` (oldest first; an answer without a time is left
    out: it cannot be spaced)."""
    out: dict[str, Box] = {}
    for e in answers:
        if e.at is None:
            continue
        for rule in dict.fromkeys(e.rule_ids):
            now = out.get(rule)
            if now is None or not e.right:
                out[rule] = Box(rule, 0, e.at)
            elif e.first_try and e.at >= now.due_at:
                out[rule] = Box(rule, min(now.box + 1, len(INTERVALS) - 1), e.at)
    return out


def due(answers: Iterable[Evidence], now: datetime | None = None) -> list[Box]:
    """The rules due for review at ``now`` (default: now): the lowest boxes first, then the
    longest overdue."""
    now = now or datetime.now(UTC)
    found = [b for b in boxes(answers).values() if b.due_at <= now]
    return sorted(found, key=lambda b: (b.box, b.due_at, b.rule))


def review_plan(due_rules: Sequence[str], lessons: Mapping[str, Any],
                size: int = 5) -> list[Review]:
    """At most ``size`` questions covering ``due_rules`` (most due first); ``lessons``: the
    catalogue's lessons (their ``practice_rule_sets`` and ``exercises``). Each question
    covers the most due rules not yet covered, practice first."""
    from crazylab.practice import kinds_for, possible_ids

    options: list[tuple[Review, set[str]]] = []
    for name, info in lessons.items():
        for rs in info.practice_rule_sets:
            for kind in kinds_for(rs):
                options.append((Review(name, rs, kind, ()), set(possible_ids(rs, kind))))
    exercises = [(Review(name, "", "exercise", (), ex), set(ids))
                 for name, info in lessons.items() for ex, ids in info.exercises.items()]
    wanted = list(dict.fromkeys(due_rules))
    plan: list[Review] = []
    while wanted and len(plan) < size:
        first = wanted[0]
        fits = [o for o in options if first in o[1]] or [o for o in exercises if first in o[1]]
        if not fits:
            wanted.pop(0)  # nothing asks about it
            continue
        review, ids = max(fits, key=lambda o: len(o[1] & set(wanted)))
        plan.append(replace(review, rules=tuple(r for r in wanted if r in ids)))
        wanted = [r for r in wanted if r not in ids]
    return plan

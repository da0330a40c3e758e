"""Mastery per rule, per learner: Bayesian knowledge tracing over the answers the store judged.

Every answer exercises the rule ids of its question. For each rule a learner has a chance
``p`` of knowing it (:data:`PRIOR` before any answer). An answer is evidence (Corbett and
Anderson's knowledge tracing, the model pyBKT fits):

* right: ``p' = p(1 - SLIP) / (p(1 - SLIP) + (1 - p) GUESS)``;
* wrong: ``p' = p SLIP / (p SLIP + (1 - p)(1 - GUESS))``;
* then the chance to learn from the question: ``p'' = p' + (1 - p') LEARN``.

**First tries weigh most.** A second or later answer to the same question comes after its
feedback, so a right one says less: its guess chance is :data:`RETRY_GUESS`, not
:data:`GUESS`. An answer given after the solution was shown is no evidence at all. A practice
item is a question of its own (a fresh deal): always a first try.

A rule is **mastered** at ``p >= MASTERED`` (0.95, knowledge tracing's usual bar), **learning**
once seen, **not seen** before. The numbers are stated, not fitted: a class's own data can fit
them later (pyBKT) without changing the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = ["GUESS", "LEARN", "LEARNING", "MASTERED", "MASTERED_WORD", "NOT_SEEN", "PRIOR",
           "RETRY_GUESS", "SLIP", "Evidence",
           "RuleMastery", "evidence", "family", "mastery", "update", "weakest"]

#: the chance a learner knows a rule before answering anything about it
PRIOR = 0.2
#: the chance of learning a rule from one question about it (its feedback included)
LEARN = 0.15
#: the chance of a right first answer without knowing the rule
GUESS = 0.2
#: the chance of a right answer without knowing, after the question's feedback was read
RETRY_GUESS = 0.5
#: the chance of a wrong answer while knowing the rule
SLIP = 0.1
#: the chance of knowing from which a rule counts as mastered
MASTERED = 0.95

MASTERED_WORD, LEARNING, NOT_SEEN = "mastered", "learning", "not seen"


@dataclass(frozen=True)
class Evidence:
    """One judged answer: the rules it exercised, whether it was right, and whether it was
    the learner's first answer to that question."""

    rule_ids: tuple[str, ...]
    right: bool
    first_try: bool = True
    at: datetime | None = None  # when it was answered (the spacing of reviews reads it)


@dataclass(frozen=True)
class RuleMastery:
    """A learner's standing on one rule."""

    rule: str
    p: float  # the chance the learner knows it
    answers: int  # answers that exercised it (after the solution: not counted)
    first_right: int  # first tries answered right

    @property
    def status(self) -> str:
        """mastered, learning or not seen."""
        if self.answers == 0:
            return NOT_SEEN
        return MASTERED_WORD if self.p >= MASTERED else LEARNING


def update(p: float, right: bool, first_try: bool = True) -> float:
    """The chance of knowing a rule after one answer exercising it (see the module)."""
    guess = GUESS if first_try else RETRY_GUESS
    if right:
        known, unknown = p * (1 - SLIP), (1 - p) * guess
    else:
        known, unknown = p * SLIP, (1 - p) * (1 - guess)
    after = known / (known + unknown)
    return after + (1 - after) * LEARN


def mastery(answers: Iterable[Evidence], rules: Iterable[str] = ()) -> dict[str, RuleMastery]:
    """Each rule's standing after ``answers`` (oldest first); ``rules``: rules to list even
    when no answer exercised them (not seen)."""
    p: dict[str, float] = {r: PRIOR for r in rules}
    seen: dict[str, int] = dict.fromkeys(p, 0)
    first_right: dict[str, int] = dict.fromkeys(p, 0)
    for e in answers:
        for rule in dict.fromkeys(e.rule_ids):
            p[rule] = update(p.get(rule, PRIOR), e.right, e.first_try)
            seen[rule] = seen.get(rule, 0) + 1
            first_right[rule] = first_right.get(rule, 0) + int(e.right and e.first_try)
    return {r: RuleMastery(r, p[r], seen[r], first_right[r]) for r in sorted(p, key=_rule_key)}


def weakest(standing: Mapping[str, RuleMastery], n: int = 5) -> list[str]:
    """The rules a learner most needs again: seen and not mastered, the least known first
    (what a review set starts from)."""
    learning = [m for m in standing.values() if m.status == LEARNING]
    return [m.rule for m in sorted(learning, key=lambda m: (m.p, _rule_key(m.rule)))[:n]]


def family(rule: str) -> str:
    """The family of a rule id: its letters (``BR`` for ``BR-21``, ``MU`` for ``MU-Q22``)."""
    return rule.split("-", 1)[0] if "-" in rule else rule.rstrip("0123456789") or rule


def _rule_key(rule: str) -> tuple[str, int, str]:
    head, _, tail = rule.partition("-")
    digits = "".join(ch for ch in tail if ch.isdigit())
    return head, int(digits) if digits else 0, tail


def _field(record: Any, name: str) -> Any:
    return record.get(name) if isinstance(record, Mapping) else getattr(record, name, None)


def _rules(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(str(v) for v in value or ())


def _at(value: Any) -> str:
    return value.isoformat() if isinstance(value, datetime) else str(value or "")


def _when(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def evidence(attempts: Sequence[Any], practice: Sequence[Any] = ()) -> list[Evidence]:
    """The evidence of one learner's lesson attempts and practice items (store records or
    report rows), oldest first. A lesson exercise's first answer is its first try; an answer
    after the solution is left out; each practice item is a first try."""
    timed: list[tuple[str, int, Evidence]] = []
    answered: set[tuple[str, str]] = set()
    for n, a in enumerate(sorted(attempts, key=lambda a: _at(_field(a, "at")))):
        if _field(a, "after_solution"):
            continue
        question = (str(_field(a, "lesson")), str(_field(a, "exercise")))
        first = question not in answered
        answered.add(question)
        timed.append((_at(_field(a, "at")), n, Evidence(
            _rules(_field(a, "rule_ids")), bool(_field(a, "verdict")), first,
            _when(_field(a, "at")))))
    for n, item in enumerate(practice):
        timed.append((_at(_field(item, "at")), len(attempts) + n, Evidence(
            _rules(_field(item, "rule_ids")), bool(_field(item, "verdict")), True,
            _when(_field(item, "at")))))
    return [e for _, _, e in sorted(timed, key=lambda t: (t[0], t[1]))]

"""The learner's rules, as the index page shows them: per rule family, how many rules are
mastered of those met, and which are still being learned
(:mod:`crazylab.classroom.mastery`). Markup beside it in ``mastery.html``."""

from __future__ import annotations

from collections.abc import Mapping

from crazylab.classroom.mastery import LEARNING, MASTERED_WORD, RuleMastery, family

from ._markup import Html, Markup

__all__ = ["rules_html"]

MARKUP = Markup("mastery")
#: the learning rules named per family (the least known first)
SHOWN = 6


def rules_html(standing: Mapping[str, RuleMastery]) -> str:
    """The learner's rules in a few lines (``standing``: ``Recorder.mastery()``)."""
    met = [m for m in standing.values() if m.answers]
    if not met:
        return str(MARKUP("none"))
    families: dict[str, list[RuleMastery]] = {}
    for m in met:
        families.setdefault(family(m.rule), []).append(m)
    lines = []
    for fam in sorted(families):
        rules = families[fam]
        learning = sorted((m for m in rules if m.status == LEARNING), key=lambda m: m.p)
        lines.append(MARKUP("family", family=fam, met=len(rules),
                            mastered=sum(m.status == MASTERED_WORD for m in rules),
                            learning=MARKUP("learning", rules=" ".join(
                                m.rule for m in learning[:SHOWN])) if learning else ""))
    done = sum(m.status == MASTERED_WORD for m in met)
    summary = f"{done} of the {len(met)} rules you have met are mastered."
    return str(MARKUP("view", summary=summary, families=Html("".join(lines))))

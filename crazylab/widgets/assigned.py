"""What the teacher assigned, on the learner's index page: each assignment of their class,
when it is due, and how far they got. Markup beside it in ``assigned.html``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from crazylab.classroom.records import Assigned

from ._markup import Html, Markup

__all__ = ["assigned_html"]

MARKUP = Markup("assigned")


def assigned_html(assigned: Sequence[Assigned], today: date | None = None) -> str:
    """The learner's assignments (``Recorder.assignments()``); empty when there are none."""
    if not assigned:
        return ""
    today = today or datetime.now(UTC).date()
    items = [MARKUP("item", title=a.assignment.title, due=a.assignment.due,
                    late=MARKUP("late") if not a.done and a.assignment.due < today.isoformat()
                    else "", right=a.right, total=a.total,
                    done=MARKUP("done") if a.done else "")
             for a in assigned]
    return str(MARKUP("view", items=Html("".join(items))))

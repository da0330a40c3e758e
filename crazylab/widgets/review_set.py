"""Today's review, as the index page shows it: the rules due again for this learner
(:mod:`crazylab.classroom.spacing`), the first practice of them dealt here, the others linked
to their lesson. Markup beside it in ``review_set.html``."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from crazylab.classroom.recorder import recorder as kernel_recorder
from crazylab.classroom.spacing import Review

from ._common import ErrorArea, ErrorReporting
from ._markup import Markup
from .practice import Practice

__all__ = ["ReviewSet", "review_set"]

MARKUP = Markup("review_set")
#: practice items dealt for the first review question
SIZE = 3


def _lesson_page(review: Review) -> str:
    return f"{review.lesson}.ipynb"


class ReviewSet(ErrorReporting, w.VBox):
    """Today's review for the kernel's learner (``recorder``: tests give their own); drawn
    again when the learner joins a class or comes back."""

    def __init__(self, recorder: Any = None) -> None:
        self._recorder = recorder
        self.plan: list[Review] = []
        self.summary = w.HTML()
        self.practice_area = w.VBox([])
        self.error_area = ErrorArea()
        super().__init__([w.HTML(MARKUP("head")), self.summary, self.practice_area,
                          self.error_area])
        self.add_class("crazylab-review-set")
        self.draw()
        rec = self.recorder()
        if hasattr(rec, "on_change"):
            rec.on_change(lambda _rec=None: self.draw())

    def recorder(self) -> Any:
        return self._recorder if self._recorder is not None else kernel_recorder()

    def draw(self) -> None:
        """Ask the recorder for today's review and show it."""
        self.plan = self.recorder().review()
        if not self.plan:
            self.summary.value = MARKUP("nothing")
            self.practice_area.children = ()
            return
        rules = " ".join(dict.fromkeys(r for review in self.plan for r in review.rules))
        here = next((r for r in self.plan if r.kind != "exercise"), None)
        others = [r for r in self.plan if r is not here]
        items = [MARKUP("exercise" if r.kind == "exercise" else "practice",
                        href=_lesson_page(r), number=r.lesson[:2], exercise=r.exercise,
                        rules=" ".join(r.rules)) for r in others]
        more = MARKUP("elsewhere", items=Markup.join(items)) if items else ""
        self.summary.value = MARKUP("due", rules=rules, more=more)
        self.practice_area.children = (
            (Practice(here.lesson, [here.rule_set], kinds=[here.kind], size=SIZE,
                      recorder=self._recorder),) if here is not None else ())


def review_set(recorder: Any = None) -> ReviewSet:
    """Today's review (see :class:`ReviewSet`)."""
    return ReviewSet(recorder)

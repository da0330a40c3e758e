"""Practice sets: the end of each lesson, fresh positions from the engine, one at a time.

``practice_set("01_crazy_eights_basics", ["crazy-eights"])`` shows a question on a freshly
dealt position (which cards are legal, what the winner scores, what the top card is after
some moves, which pile takes a note), an answer box or a button per answer, and **Check**.
One answer decides an item: right, or wrong with the engine's reason and the solution; then
**Next**. The count ("3 of 5 right") is kept; **New set** deals fresh positions.

The items come from :mod:`crazylab.practice` (no Jupyter there) and are asked through the
lesson exercises' own factories (:func:`~crazylab.widgets.exercise.legal_moves_exercise` and
the others), so an answer is read and explained exactly as in the lesson. The positions are
seeded from the learner and the number of practice items they have done
(``recorder().seed()``): the same learner gets the same set back after a reload, another
learner other positions. A wrong answer's rule ids are asked again later in the set (after at
least one other item), and a new set favours the kinds and rule ids the learner got wrong
before (``recorder().earlier_practice(lesson)``, which survives a reload). Every checked
answer goes to ``recorder().practice(...)``.

Practice items are not lesson exercises: they get no exercise id and are not in the
catalogue (the recorder's ``lesson`` is cleared while an item's exercise is made).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from crazylab import questions, rulebook
from crazylab.practice import Item, PracticeError, PracticeSet, derive_seed

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Markup, style_sheet
from .exercise import (
    Exercise,
    legal_moves_exercise,
    next_top_exercise,
    practice_items,
    score_exercise,
)

__all__ = ["Practice", "catalogue", "exercise_for", "practice_set"]

log = logging.getLogger("crazylab.widgets.practice")
MARKUP = Markup("practice")
#: the longest answer and feedback a record keeps (the class's store refuses longer ones)
MAX_ANSWER, MAX_FEEDBACK = 500, 4000
KIND_WORDS = {"legal": "which cards are legal", "score": "what a hand scores",
              "next_top": "the top card after some moves", "pile": "which pile takes a note"}


def _default_recorder() -> Any:
    """The kernel's recorder (``crazylab.classroom.recorder``)."""
    from crazylab.classroom.recorder import recorder

    return recorder()


def exercise_for(item: Item) -> Exercise:
    """The exercise that asks ``item``: its question (:func:`crazylab.questions.for_item`),
    so the same reading of answers, hints and reasons as in the lessons, and the same judge
    as the class store's."""
    question = Markup.join([item.question])  # the item's plain text, as markup
    ids = " ".join(item.rule_ids)
    if item.kind == "legal":
        assert item.game is not None
        return legal_moves_exercise(item.game, question, rules=ids, cards_only=True)
    if item.kind == "score":
        return score_exercise(item.rules, [list(h) for h in item.hands], item.winner,
                              item.seat, question, rules=ids)
    if item.kind == "next_top":
        assert item.game is not None
        return next_top_exercise(item.game, list(item.moves), question, rules=ids,
                                 pile=item.pile, solution=item.explanation)
    q = questions.for_item(item)
    return Exercise(question, q.judge, q.solution, rules=ids, placeholder=q.placeholder,
                    choices=q.choices, kind=q.answer_kind, right_answers=q.right_answers,
                    game=q.game, spec=q.spec)


class Practice(ErrorReporting, w.VBox):
    """A practice set of a lesson: one item at a time, **Check**, **Next**, **New set**.

    ``recorder`` (tests) replaces the kernel's recorder. Everything a click does is also a
    method: :meth:`answer`, :meth:`next`, :meth:`new_set`."""

    def __init__(self, lesson: str, rule_sets: Sequence[str], *,
                 kinds: Sequence[str] | None = None, size: int = 5,
                 recorder: Any = None) -> None:
        self.errors: list[str] = []
        self.lesson = lesson
        self.rule_sets = (rule_sets,) if isinstance(rule_sets, str) else tuple(rule_sets)
        self.kinds = None if kinds is None else (
            (kinds,) if isinstance(kinds, str) else tuple(kinds))
        self.size = size
        self._recorder = recorder
        self.records: list[dict[str, Any]] = []  # what was sent to the recorder
        self.exercise: Exercise | None = None
        self._asking = 0  # the index of the item on screen
        self._dealt: set[int] = set()  # the seeds of the sets dealt here
        self._redeals = 0  # New set pressed while the learner's seed stood still
        self.set = self._deal()  # raises PracticeError on a bad lesson, rule set, kind, size
        _SETS[lesson] = {"rule_sets": list(self.rule_sets), "kinds": self._kinds_asked()}
        self.title = w.HTML(MARKUP("title", kinds=", ".join(
            KIND_WORDS[k] for k in self._kinds_asked())))
        self.status = w.HTML("")
        self.earlier_note = w.HTML("")
        self.body = w.VBox([])
        self.summary = w.HTML("")
        self.next_button = w.Button(description="Next", tooltip="The next question",
                                    disabled=True, layout=w.Layout(width="auto"))
        self.new_button = w.Button(description="New set", tooltip="Deal fresh positions",
                                   layout=w.Layout(width="auto"))
        self.next_button.on_click(lambda _b: self._on_next())
        self.new_button.on_click(lambda _b: self._on_new())
        self.error_area = ErrorArea()
        super().__init__([style_sheet("practice"), self.title, self.status, self.body,
                          w.HBox([self.next_button, self.new_button]), self.summary,
                          self.earlier_note, self.error_area])
        self.add_class("crazylab-practice")
        self._show()
        rec = self.recorder()
        if rec is not None and hasattr(rec, "on_change"):
            rec.on_change(self._learner_changed)

    # -- the recorder ----------------------------------------------------------------------
    def recorder(self) -> Any:
        """The recorder the set reports to (the kernel's, unless one was given)."""
        if self._recorder is not None:
            return self._recorder
        try:
            return _default_recorder()
        except Exception:  # noqa: BLE001 - practice works without one
            log.exception("no recorder: practice answers are not kept")
            return None

    def _seed(self) -> int:
        rec = self.recorder()
        try:
            return int(rec.seed()) if rec is not None else derive_seed(id(self))
        except Exception:  # noqa: BLE001
            log.exception("no seed from the recorder")
            return derive_seed(id(self))

    def _earlier(self) -> list[Any]:
        rec = self.recorder()
        try:
            return list(rec.earlier_practice(self.lesson)) if rec is not None else []
        except Exception:  # noqa: BLE001
            log.exception("earlier practice not available")
            return []

    def _deal(self, fresh: bool = False) -> PracticeSet:
        """A set from the learner's seed; ``fresh``: never the set on screen (New set
        pressed before any answer, when the learner's seed has not moved on)."""
        seed = self._seed()
        if fresh and seed in self._dealt:
            self._redeals += 1
            seed = derive_seed(seed, "new set", self._redeals)
        self._dealt.add(seed)
        return PracticeSet(self.lesson, self.rule_sets, self.kinds, self.size,
                           seed=seed, earlier=self._earlier())

    def _kinds_asked(self) -> list[str]:
        return list(dict.fromkeys(k for _, k in self.set.options))

    # -- showing -----------------------------------------------------------------------------
    def _show(self) -> None:
        """Show the current item (or the set's summary when it is done)."""
        s = self.set
        item = s.current
        self._asking = s.position
        self._show_status()
        self._show_earlier()
        if item is None:
            self.exercise = None
            self.body.children = ()
            self.next_button.disabled = True
            self.new_button.button_style = "primary"
            missed = s.missed_ids()
            again = ("" if not missed else " Rules to read again: " + "; ".join(
                f"{i} ({_title(i)})" for i in missed[:4]) + ".")
            self.summary.value = MARKUP("summary", right=s.right, total=len(s.verdicts),
                                        again=again)
            return
        self.summary.value = ""
        self.new_button.button_style = ""
        with practice_items():  # no lesson exercise: the set records its answers
            ex = exercise_for(item)
        ex.label(f"Question {s.position + 1}" + (" (again)" if item.again else "") + ".")
        ex.checker = self._wrap(ex, item, ex.checker)
        # the solution comes with the verdict: shown before, it would give the answer away
        ex.answer_button.layout.display = "none"
        self.exercise = ex
        self.body.children = (ex,)
        self.next_button.disabled = True
        self.next_button.button_style = ""

    def _show_status(self) -> None:
        s = self.set
        where = (f"Question {self._asking + 1} of {len(s.items)}"  # on screen, answered or not
                 if self._asking < len(s.items) else f"Set done: {len(s.items)} questions")
        self.status.value = MARKUP("status", where=where, right=s.right, total=len(s.verdicts))

    def _show_earlier(self) -> None:
        earlier = self._earlier()
        if not earlier:
            self.earlier_note.value = ""
            return
        right = sum(1 for p in earlier if _get(p, "verdict"))
        self.earlier_note.value = MARKUP("earlier", right=right, total=len(earlier))

    # -- answering ---------------------------------------------------------------------------
    def _wrap(self, ex: Exercise, item: Item, checker: Any) -> Any:
        done: list[tuple[bool, str]] = []

        def practice_checker(answer: str) -> tuple[bool | None, str]:
            if done:  # one answer decides an item
                return done[0]
            right, text = checker(answer)
            if right is None:
                return right, text
            done.append((right, text))
            self._answered(ex, item, answer, right, text)
            return right, text

        return practice_checker

    def _answered(self, ex: Exercise, item: Item, answer: str, right: bool,
                  text: str) -> None:
        self.set.answer(right)
        # the record keeps the engine's whole working with a wrong answer (the page shows
        # it as the solution, under the feedback)
        self._record(item, answer, right, text if right else f"{text}\n{ex.solution}")
        ex.answer_box.disabled = ex.check_button.disabled = True
        for b in ex.choice_buttons:
            b.disabled = True
        if not right:
            ex.show_answer()
        self._show_status()
        if self.set.done:
            self.next_button.description = "Finish"
        self.next_button.disabled = False
        self.next_button.button_style = "primary"

    def _record(self, item: Item, answer: str, right: bool, text: str) -> None:
        fields = dict(lesson=self.lesson, kind=item.kind, seed=item.seed, rules=item.rules,
                      question=item.question, answer=answer.strip()[:MAX_ANSWER],
                      verdict=bool(right), rule_ids=list(item.rule_ids),
                      feedback=text[:MAX_FEEDBACK])
        self.records.append(fields)
        rec = self.recorder()
        if rec is None:
            return
        try:
            rec.practice(**fields)
        except Exception:  # noqa: BLE001 - a lost record is the recorder's notice
            log.exception("recording a practice item failed")

    def answer(self, text: str) -> str:
        """Answer the current item as a learner would (typed, or the text of a choice
        button) and return the feedback."""
        if self.exercise is None:
            raise PracticeError("the practice set is finished: deal a new set")
        if self.exercise.choices and text in self.exercise.choices:
            return self.exercise.choose(text)
        return self.exercise.check(text)

    def next(self) -> Item | None:
        """Go on to the next item (after the current one was answered); the new item."""
        if self.exercise is not None and self.next_button.disabled:
            raise PracticeError("answer this question first")
        self.next_button.description = "Next"
        self._show()
        return self.set.current

    def new_set(self) -> Item | None:
        """Deal a fresh set (from the learner's next seed, favouring what they got wrong)."""
        self.set = self._deal(fresh=True)
        self.next_button.description = "Next"
        self._show()
        return self.set.current

    @property
    def item(self) -> Item | None:
        """The item being asked."""
        return self.set.current

    def _learner_changed(self, _rec: Any) -> None:
        """The learner became known (or changed): deal their own set, unless this one has
        been answered already."""
        try:
            if not self.set.verdicts and self._seed() != self.set.seed:
                self.set = self._deal()
                self._show()
            else:
                self._show_earlier()
        except Exception as exc:  # noqa: BLE001 - a restore must not break the page
            self.report_error(exc, "dealing the practice set")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with a plain-text and HTML stand-in that do not depend on the deal
        (a stored notebook stays the same from one build to the next)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            kinds = ", ".join(KIND_WORDS[k] for k in self._kinds_asked())
            text = (f"Practice: {self.size} questions on fresh positions of "
                    f"{', '.join(self.rule_sets)} ({kinds}).")
            data["text/plain"] = text
            data["text/html"] = MARKUP("static_copy", text=text[10:])
        return bundle

    @guarded
    def _on_next(self) -> None:
        self.next()

    @guarded
    def _on_new(self) -> None:
        self.new_set()


#: the practice set each lesson page made in this kernel (for the class's catalogue)
_SETS: dict[str, dict[str, list[str]]] = {}


def catalogue() -> dict[str, dict[str, list[str]]]:
    """The practice set of each lesson made in this kernel: ``{lesson: {"rule_sets": [...],
    "kinds": [...]}}`` (the ``practice`` entry of ``crazylab/classroom/catalog.json``)."""
    return {lesson: {k: list(v) for k, v in entry.items()} for lesson, entry in _SETS.items()}


def _get(record: Any, name: str) -> Any:
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


def _title(rule_id: str) -> str:
    try:
        return rulebook.entry(rule_id).title
    except (KeyError, rulebook.RulebookError):
        return ""


def practice_set(lesson: str, rule_sets: Sequence[str], *, kinds: Sequence[str] | None = None,
                 size: int = 5) -> Practice:
    """The practice set at the end of a lesson: ``size`` items on fresh positions of
    ``rule_sets`` (kinds: ``legal``, ``score``, ``next_top``, ``pile``; by default every
    kind that fits the rule sets)."""
    return Practice(lesson, rule_sets, kinds=kinds, size=size)

"""Exercises for the lessons: a question, an answer box and **Check** (or, when the answer is
one of a few choices, one button per choice), and a solution hidden behind a click.

The feedback comes from the engine: a card that is not legal is explained by
``Game.explain`` ("3♦ matches neither the rank nor the suit of 6♥"), a legal one by the rule
that lets it through, a score by the calculator's working. Every exercise names the rule ids
of ``rulings.md`` it practises (``rules="SR-10 SR-11"``), so the course can check that each
rule is asked about somewhere.

>>> from crazylab.widgets import position
>>> ex = legal_moves_exercise(position("crazy-eights", top="6H", hand="6C KH 8S 3D"),
...                           rules="SR-10")
>>> ex.check("6C KH 8S").startswith("Right")
True

Each factory returns an :class:`Exercise`; ``check(answer)`` is what the **Check** button
(or a choice button) runs, so the lessons and the tests can ask it from Python too. A choice
exercise (:func:`choice_exercise`, :func:`is_legal_exercise`) is answered by clicking a
button: real ``<button>`` elements, reached with Tab and pressed with Enter or Space.

Feedback teaches before it tells: every exercise has a **Hint** button (the lesson's ``hint=``,
or the text of the first rule it practises); a wrong answer is told the *first* thing that is
wrong and why (the engine's reason, or a targeted sentence for a known misconception, see
:func:`misconception`), never the whole solution; the solution comes after
:data:`TRIES` wrong tries or on request (**Show the answer**). An empty or unreadable answer
is told how to write one and counts as no try.

Every exercise of a lesson page has an id, ``e01``, ``e02`` … in the order the page's cells
create them (:attr:`Exercise.lesson` is the lesson the page's class bar named, see
``crazylab.widgets.classbar``; the same question made again, a cell run twice, keeps its id).
Each checked answer (right or wrong; not an answer the exercise could not read) goes to the
kernel's recorder (``crazylab.classroom.recorder``), and when the learner's earlier answers come
back the exercise shows them: the last answer in its box (or its button coloured), the last
feedback, the list of answers with their verdicts, and the tries counted. :func:`catalogue`
lists the exercises the kernel made, for ``crazylab/classroom/catalog.json``.

Answers are read generously: card text in any case, with suit symbols or letters, in any
order, separated by spaces, commas or semicolons; a stack (``9H+9C``) is one move; the choice
of a note accepts each of its names where the question is about sound (``answer=("E♭",
"D♯")``) and ``Eb``/``D#`` typed.
"""

from __future__ import annotations

import html
import logging
import re
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w

from crazylab import questions, rulebook
from crazylab.engine.cards import sort_key
from crazylab.engine.game import Game
from crazylab.engine.moves import Move
from crazylab.errors import quote
from crazylab.questions import Checker, default_hint, misconception, normalize

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet
from ._validate import WidgetArgumentError
from .scoring import score_hands

#: wrong tries before the solution is shown without asking
TRIES = questions.TRIES
#: the longest answer and feedback a record keeps (the class's store refuses longer ones)
MAX_ANSWER, MAX_FEEDBACK = 500, 4000

log = logging.getLogger("crazylab.widgets.exercise")
MARKUP = Markup("exercise")


class Exercise(ErrorReporting, w.VBox):
    """One question with a checked answer, a hint and a solution shown on request.

    ``checker(answer)`` returns ``(right, feedback)``; an answer it cannot read should come
    back as ``(None, "a sentence saying how to answer")``, never as an exception.
    ``kind`` and ``right_answers`` say what a right answer looks like (the tests spell it in
    every equivalent way); ``game`` is the position asked about, if any; ``spec`` the
    question as data (:mod:`crazylab.questions`), which the catalogue keeps so the class
    store judges the answers itself."""

    def __init__(self, question: str, checker: Checker, solution: str, *, rules: str,
                 placeholder: str = "", hint: str = "",
                 choices: Sequence[str] = (), kind: str = "text",
                 right_answers: Sequence[str] = (), game: Game | None = None,
                 optional: Sequence[str] = (), spec: Mapping[str, Any] | None = None) -> None:
        ids = rules.split()
        bad = [i for i in ids if not rulebook.is_rule_id(i)]
        if not ids or bad:
            raise WidgetArgumentError(f"rules must name rule ids like 'SR-10 SR-Q2', not "
                                      f"{quote(rules)}")
        self.errors: list[str] = []
        self._last_text = ""
        self.question = question
        self.rule_ids = tuple(ids)
        self.solution = solution
        self.checker = checker
        self.kind = kind
        self.right_answers = tuple(right_answers)
        self.game = game
        self.optional = tuple(optional)  # words an answer may add or leave out
        self.spec = dict(spec) if spec is not None else None
        self.hint = hint or default_hint(ids)
        self.hint_written = bool(hint)  # written by the lesson, not taken from the rulebook
        self.tries = 0  # wrong answers so far
        self.answers: list[tuple[str, bool]] = []  # every answer checked, and whether right
        self.restored: tuple[str, ...] = ()  # the attempt ids shown by the last restore
        self._restoring = False
        self.prompt = w.HTML(MARKUP("prompt", label="Exercise.", question=Html(question)))
        self.answer_box = w.Text(placeholder=placeholder or "your answer",
                                 continuous_update=False,
                                 layout=w.Layout(width="22em"))
        self.example = placeholder
        self.check_button = w.Button(description="Check", button_style="primary",
                                     tooltip="Check your answer")
        self.feedback = w.HTML("")
        self.hint_button = w.Button(description="Hint", tooltip="A hint, not the answer",
                                    layout=w.Layout(width="auto"))
        self.answer_button = w.Button(description="Show the answer",
                                      tooltip="Show the solution and why",
                                      layout=w.Layout(width="auto"))
        self.hint_area = w.HTML("")
        self.reveal = w.HTML("")
        self.hint_button.on_click(lambda _b: self._on_hint())
        self.answer_button.on_click(lambda _b: self._on_answer())
        self.error_area = ErrorArea()
        self.check_button.on_click(lambda _b: self._on_check())
        self.answer_box.observe(lambda _c: self._on_check(), names="value")
        self.choices = tuple(choices)
        self.choice_buttons: list[w.Button] = []
        if self.choices:  # one button per choice, instead of typing the answer
            long = any(len(c) > 12 for c in self.choices)
            for choice in self.choices:
                b = w.Button(description=choice, tooltip=f"Answer: {choice}",
                             layout=w.Layout(width="auto", height="auto"))
                b.add_class("crazylab-choice")
                b.on_click(lambda _b, c=choice: self._on_choice(c))
                self.choice_buttons.append(b)
            answer_row: w.Widget = w.Box(
                self.choice_buttons,
                layout=w.Layout(display="flex", flex_flow="column" if long else "row wrap",
                                align_items="flex-start", grid_gap="6px"))
            answer_row.add_class("crazylab-choices")
            parts = [self.prompt, answer_row]
        else:
            parts = [self.prompt, w.HBox([self.answer_box, self.check_button])]
        helps = w.HBox([self.hint_button, self.answer_button])
        helps.add_class("crazylab-helps")
        self.history = w.HTML("")  # "Your earlier answers: 6C KH ✘, 6C KH 8S ✔"
        super().__init__([style_sheet("exercise"), *parts, self.feedback, self.history, helps,
                          self.hint_area, self.reveal, self.error_area])
        self.add_class("crazylab-exercise")
        self.lesson, self.exercise_id = _register(self)

    def label(self, label: str) -> None:
        """Put ``label`` ("Question 2.") before the question instead of "Exercise."."""
        self.prompt.value = MARKUP("prompt", label=label, question=Html(self.question))

    def check(self, answer: str) -> str:
        """Check ``answer`` and return the feedback (also shown under the answer box)."""
        given = answer.strip()
        # a lesson's exercise whose solution was shown: a right answer now does not count
        shown = bool(self.reveal.value) and getattr(self, "exercise_id", None) is not None
        if not given:
            right: bool | None = None
            text = self.how_to_answer()
        else:
            right, text = self.checker(given)
        if right is None:  # not an answer: say how to write one, count no try
            self.feedback.value = MARKUP("feedback", verdict="unread", mark="?",
                                         text=_lines(text))
            return text
        if shown:
            text += "\n" + questions.AFTER_SOLUTION
        self.answers.append((answer, right))
        self._mark_choice(given, right)
        reveal_now = False
        if not right:
            self.tries += 1
            reveal_now = self.tries >= TRIES and not shown
            if reveal_now:
                text += "\n" + questions.after_tries(self.tries)
        self._show_feedback(right, text)
        if self.restored:
            self._show_history()
        self._record(given, right, text, shown)  # before the solution it shows is told
        if reveal_now:
            self.show_answer()
        return text

    def _show_feedback(self, right: bool, text: str) -> None:
        verdict, mark = ("right", "✔") if right else ("wrong", "✘")
        self.feedback.value = MARKUP("feedback", verdict=verdict, mark=mark, text=_lines(text))

    def _show_history(self) -> None:
        said = ", ".join(f"{a} {'✔' if ok else '✘'}" for a, ok in self.answers)
        self.history.value = MARKUP("history", said=said) if said else ""

    def _record(self, answer: str, right: bool, feedback: str, after_solution: bool) -> None:
        """Give the checked answer to the kernel's recorder (never raises: a record that
        cannot be kept is the recorder's notice, not the learner's error). The class store
        judges the answer again from the question's version; the verdict is the page's."""
        if self.lesson is None or self.exercise_id is None:
            return
        try:
            rec = _recorder()
            if rec is not None:
                rec.attempt(lesson=self.lesson, exercise=self.exercise_id,
                            answer=answer[:MAX_ANSWER], verdict=right,
                            rule_ids=list(self.rule_ids), feedback=feedback[:MAX_FEEDBACK],
                            version=self.version, after_solution=after_solution)
        except Exception:  # noqa: BLE001 - never into the widget's callback
            log.exception("recording an answer of %s %s failed", self.lesson, self.exercise_id)

    @property
    def version(self) -> str | None:
        """The version of the question (its spec's digest), or None for a hand-made one."""
        return questions.spec_version(self.spec) if self.spec is not None else None

    def restore(self, attempts: Sequence[Any]) -> None:
        """Show the learner's earlier ``attempts`` at this exercise (oldest first; each with
        ``answer``, ``verdict``, ``feedback``, ``attempt_id``): they replace what the exercise
        showed, so restoring twice shows them once, and nothing is recorded again."""
        done = [(str(_field(a, "answer")), bool(_field(a, "verdict")),
                 str(_field(a, "feedback")), str(_field(a, "attempt_id"))) for a in attempts]
        ids = tuple(d[3] for d in done)
        if ids == self.restored and [(a, v) for a, v, _, _ in done] == self.answers:
            return  # already shown
        self.restored = ids
        self.answers = [(a, v) for a, v, _, _ in done]
        self.tries = sum(1 for _, v, _, _ in done if not v)
        if not done:  # another learner, who never answered here
            self.feedback.value = self.history.value = ""
            self._restoring = True
            try:
                self._mark_choice("", False)
                self.answer_box.value = ""
            finally:
                self._restoring = False
            return
        last, right, feedback, _ = done[-1]
        self._restoring = True
        try:
            if self.choices:
                self._mark_choice(last, right)
            else:
                self.answer_box.value = last
        finally:
            self._restoring = False
        self._show_feedback(right, feedback)
        self._show_history()
        if self.tries >= TRIES and not self.reveal.value:
            self.show_answer()

    def how_to_answer(self) -> str:
        if self.kind == "cards":
            return f"Type some cards, e.g. {self.example or '6C KH'}."
        if self.choices:
            return "Pick one of: " + ", ".join(self.choices) + "."
        return f"Type an answer, e.g. {self.example}." if self.example else "Type an answer."

    def show_hint(self) -> str:
        """Show the hint (the **Hint** button) and return it."""
        self.hint_area.value = MARKUP("hint", hint=self.hint)
        return self.hint

    def show_answer(self) -> str:
        """Show the solution (the **Show the answer** button) and return it. The recorder
        is told: a right answer after it is not counted."""
        lesson, ident = getattr(self, "lesson", None), getattr(self, "exercise_id", None)
        if not self.reveal.value and lesson is not None and ident is not None:
            try:
                rec = _recorder()
                if rec is not None:
                    rec.reveal(lesson=lesson, exercise=ident)
            except Exception:  # noqa: BLE001 - never into the widget's callback
                log.exception("recording a shown solution failed")
        self.reveal.value = _solution_html(self.solution, self.rule_ids)
        return self.solution

    def choose(self, choice: str) -> str:
        """Click the button of ``choice`` (what a learner does), and return the feedback."""
        if choice not in self.choices:
            raise ValueError(f"{choice!r} is not one of the choices {list(self.choices)}")
        self.choice_buttons[self.choices.index(choice)].click()
        return self._last_text

    def _mark_choice(self, answer: str, right: bool) -> None:
        """Colour the button of the answer given (green right, red wrong), the others plain."""
        given = normalize(answer)
        if given.isdigit() and 1 <= int(given) <= len(self.choices) and not any(
                normalize(c) == given for c in self.choices):
            given = normalize(self.choices[int(given) - 1])
        for c, b in zip(self.choices, self.choice_buttons, strict=True):
            chosen = normalize(c) == given
            b.button_style = ("success" if right else "danger") if chosen else ""

    @guarded
    def _on_check(self) -> None:
        if self.answer_box.value.strip() and not self._restoring:
            self.check(self.answer_box.value)

    @guarded
    def _on_choice(self, choice: str) -> None:
        self._last_text = self.check(choice)

    @guarded
    def _on_hint(self) -> None:
        self.show_hint()

    @guarded
    def _on_answer(self) -> None:
        self.show_answer()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus an HTML copy (question, hint and hidden solution) for pages that
        show no widgets, such as GitHub."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            listed = MARKUP("choice_list", items=Markup.join(
                MARKUP("choice_item", choice=c) for c in self.choices)) if self.choices else ""
            data["text/html"] = MARKUP(
                "static_copy", prompt=Html(self.prompt.value), choices=Html(listed),
                hint=self.hint, solution=_solution_html(self.solution, self.rule_ids, folded=True))
        return bundle


def _lines(text: str) -> Html:
    """``text`` escaped, its line breaks kept."""
    br = MARKUP("line_break")
    return Markup.join(part for i, line in enumerate(text.split("\n"))
                       for part in ((br, line) if i else (line,)))


# --------------------------------------------------------------------------- the page

@dataclass
class _Page:
    """The exercises one lesson page made in this kernel: each question's id (the same
    question made again keeps it) and the newest exercise of each id (to restore)."""

    ids: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    live: dict[str, weakref.ReferenceType[Exercise]] = field(default_factory=dict)


_PAGES: dict[str | None, _Page] = {}
_HOOKED: list[Any] = []  # the recorder our restore hook is registered with
_ITEMS = [0]  # > 0 while practice items are made (see practice_items)


@contextmanager
def practice_items() -> Iterator[None]:
    """Exercises made inside are practice items, not lesson exercises: no lesson id, not in
    the catalogue, nothing restored or recorded by the exercise (the practice set records
    their answers)."""
    _ITEMS[0] += 1
    try:
        yield
    finally:
        _ITEMS[0] -= 1


def _recorder() -> Any:
    """The kernel's recorder, or None where it cannot be had."""
    try:
        from crazylab.classroom.recorder import recorder
        return recorder()
    except Exception:  # noqa: BLE001 - exercises work without one
        log.exception("no recorder: answers are not kept")
        return None


def _field(record: Any, name: str) -> Any:
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


def plain(question: str) -> str:
    """A question's HTML as plain text (the catalogue's)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", question)).split())


def _register(ex: Exercise) -> tuple[str | None, str | None]:
    """The lesson and id of a new exercise (ids ``e01`` … in the order of creation per lesson
    page; a question made again keeps its id), hooked to the recorder's restore."""
    if _ITEMS[0]:  # a practice item
        return None, None
    try:
        rec = _recorder()
        lesson = getattr(rec, "lesson", None)
        page = _PAGES.setdefault(lesson, _Page())
        key = (ex.question, ex.rule_ids)
        if key not in page.ids:
            page.ids[key] = f"e{len(page.ids) + 1:02d}"
        ident = page.ids[key]
        page.entries[ident] = {"rules": list(ex.rule_ids), "question": plain(ex.question)}
        if ex.spec is not None:  # the class store judges the answers with it
            page.entries[ident].update(judge=ex.spec, version=questions.spec_version(ex.spec))
        page.live[ident] = weakref.ref(ex)
        if rec is not None and lesson is not None:
            if not any(r is rec for r in _HOOKED):
                _HOOKED[:] = [rec]
                rec.on_change(_restore_all)
            _restore_one(ex, lesson, ident, rec.earlier(lesson))
        return lesson, ident
    except Exception:  # noqa: BLE001 - an exercise works without its id
        log.exception("registering an exercise failed")
        return None, None


def _restore_one(ex: Exercise, lesson: str, ident: str, earlier: Sequence[Any]) -> None:
    mine = [a for a in earlier if _field(a, "exercise") == ident
            and _field(a, "lesson") == lesson]
    if mine or ex.answers or ex.restored:  # another learner's answers are cleared too
        ex.restore(mine)


def _restore_all(rec: Any) -> None:
    """The recorder's hook: the learner is known (or changed): every live exercise of a
    lesson shows that learner's earlier answers."""
    for lesson, page in list(_PAGES.items()):
        if lesson is None:
            continue
        earlier = rec.earlier(lesson)
        for ident, ref in list(page.live.items()):
            ex = ref()
            if ex is None:
                del page.live[ident]
                continue
            try:
                _restore_one(ex, lesson, ident, earlier)
            except Exception as exc:  # noqa: BLE001 - one exercise must not stop the others
                ex.report_error(exc, "restoring earlier answers")


def catalogue() -> dict[str, dict[str, dict[str, Any]]]:
    """Every exercise each lesson page made in this kernel: ``{lesson: {id: {"rules":
    [...], "question": plain text}}}`` (what ``tools/lessons.py`` writes into the catalogue)."""
    return {lesson: dict(sorted(page.entries.items())) for lesson, page in _PAGES.items()
            if lesson is not None}


def _solution_html(solution: str, ids: Sequence[str], folded: bool = False) -> Html:
    inner = MARKUP("solution_body", body=_lines(solution), ids=", ".join(ids))
    return MARKUP("solution_folded" if folded else "solution", inner=inner)


# --------------------------------------------------------------------------- the kinds

def _ask(question: str, q: questions.Question, *, rules: str, hint: str) -> Exercise:
    """The exercise of a judged question: its judge, solution and spec (which the catalogue
    keeps, so the class store judges the answers itself)."""
    return Exercise(question, q.judge, q.solution, rules=rules, hint=hint,
                    placeholder=q.placeholder, choices=q.choices, kind=q.answer_kind,
                    right_answers=q.right_answers, game=q.game, optional=q.optional,
                    spec=q.spec)


def _game_arg(game: object) -> Game:
    if not isinstance(game, Game):
        raise WidgetArgumentError(f"game must be a Game (the position asked about), not "
                                  f"{quote(game)}")
    return game


def legal_moves_exercise(game: Game, question: str | None = None, *, rules: str,
                         hint: str = "", cards_only: bool = False) -> Exercise:
    """"Which moves are legal?" (:func:`crazylab.questions.legal_moves`): the answer lists
    cards (``6C KH``, a called eight as ``8S`` or ``8S:D``, a stack as ``9H+9C``) and the
    words ``draw``, ``pass``, ``end`` where they apply. ``cards_only``: the question asks
    which *cards* may be played, so the words are neither needed nor judged."""
    q = questions.legal_moves(_game_arg(game), cards_only=cards_only)
    g = q.game
    assert g is not None
    hand = " ".join(c.display for c in sorted(g.hands[g.to_play], key=sort_key))
    tops = ", ".join(p[-1].display for p in g.piles)
    question = question or MARKUP("question_cards" if cards_only else "question_moves",
                                  seat=g.to_play, hand=hand, tops=tops)
    return _ask(question, q, rules=rules, hint=hint)


def is_legal_exercise(game: Game, move: str, question: str | None = None, *, rules: str,
                      hint: str = "") -> Exercise:
    """"Is this move legal?" (:func:`crazylab.questions.is_legal`): answer yes or no."""
    q = questions.is_legal(_game_arg(game), move)
    tops = ", ".join(p[-1].display for p in game.piles)
    question = question or MARKUP("question_is_legal", tops=tops,
                                  move=Move.parse(move).display)
    return _ask(question, q, rules=rules, hint=hint)


def score_exercise(rules_name: str, hands: list[list[str]], winner: int, seat: int | None = None,
                   question: str | None = None, *, rules: str, hint: str = "",
                   mistakes: dict[int, str] | None = None) -> Exercise:
    """"What does the winner score?" (or ``seat``; :func:`crazylab.questions.score`): a whole
    number, checked against the engine's scores, with the calculator's working as the
    solution; ``mistakes`` adds targeted sentences (``{22: "why 22 is wrong"}``)."""
    score_hands(rules_name, hands, winner)  # the arguments checked as the calculator does
    q = questions.score(rules_name, hands, winner, seat, mistakes=mistakes)
    question = question or f"Seat {winner} went out. What does seat {q.spec['seat']} score?"
    return _ask(question, q, rules=rules, hint=hint)


def next_top_exercise(game: Game, moves: Sequence[str], question: str | None = None, *,
                      rules: str, pile: int = 0, hint: str = "",
                      solution: str | None = None) -> Exercise:
    """"After these moves, what is the top card?" (:func:`crazylab.questions.next_top`): the
    engine plays the moves on a copy, so ``game`` is left as it was."""
    q = questions.next_top(_game_arg(game), list(moves), pile=pile, solution=solution)
    said = Markup.join(part for i, m in enumerate(moves)
                       for part in ((", ", MARKUP("move_code", move=m)) if i
                                    else (MARKUP("move_code", move=m),)))
    question = question or MARKUP("question_next_top", moves=said)
    return _ask(question, q, rules=rules, hint=hint)


def choice_exercise(question: str, choices: Sequence[str], answer: str | Sequence[str],
                    explanation: str, *, rules: str, hint: str = "",
                    wrong: dict[str, str] | None = None) -> Exercise:
    """A question with a few answers, one button each (:func:`crazylab.questions.choice`);
    ``answer`` is the right one (or a tuple of right ones: two names of one note). ``wrong``
    maps a wrong choice to a sentence on the misconception behind it (else the feedback is
    the hint). ``check`` also takes an answer typed (loosely, or its number for long
    choices)."""
    try:
        q = questions.choice(choices, answer, explanation,
                             hint=hint or default_hint(_rule_ids(rules)), wrong=wrong)
    except questions.QuestionError as e:
        raise WidgetArgumentError(str(e)) from None
    return _ask(question, q, rules=rules, hint=hint)


def _rule_ids(rules: str) -> list[str]:
    return rules.split() if isinstance(rules, str) else []


__all__ = ["Exercise", "catalogue", "choice_exercise", "default_hint", "is_legal_exercise",
           "legal_moves_exercise", "misconception", "next_top_exercise", "practice_items",
           "score_exercise"]

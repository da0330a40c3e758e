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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w

from crazylab import rulebook
from crazylab.engine.cards import Card, CardError, sort_key
from crazylab.engine.game import Game
from crazylab.engine.moves import DRAW, END, PASS, PLAY, Move, MoveError
from crazylab.engine.narrator import words_for
from crazylab.errors import CrazylabError, quote
from crazylab.seat.reasons import legal_reason, verdicts

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet
from ._validate import WidgetArgumentError
from .scoring import card_value, score_hands

#: a checker returns (True, text) for a right answer, (False, text) for a wrong one, and
#: (None, text) for no answer at all (empty or unreadable: told how to answer, no try counted)
Checker = Callable[[str], tuple[bool | None, str]]
WORDS = {DRAW: "draw", PASS: "pass", END: "end"}
#: wrong tries before the solution is shown without asking
TRIES = 3
#: the longest answer and feedback a record keeps (the class's store refuses longer ones)
MAX_ANSWER, MAX_FEEDBACK = 500, 4000

log = logging.getLogger("crazylab.widgets.exercise")
MARKUP = Markup("exercise")


def default_hint(ids: Sequence[str]) -> str:
    """A hint from the rulebook: the text of the first rule the exercise practises."""
    for rid in ids:
        try:
            entry = rulebook.entry(rid)
        except (KeyError, rulebook.RulebookError):
            continue
        body = " ".join(entry.body.split())
        if body:
            return f"Rule {rid}, {entry.title.rstrip('.')}: {body}"
    return "Read the rules this exercise names again: " + ", ".join(ids) + "."


class Exercise(ErrorReporting, w.VBox):
    """One question with a checked answer, a hint and a solution shown on request.

    ``checker(answer)`` returns ``(right, feedback)``; an answer it cannot read should come
    back as ``(None, "a sentence saying how to answer")``, never as an exception.
    ``kind`` and ``right_answers`` say what a right answer looks like (the tests spell it in
    every equivalent way); ``game`` is the position asked about, if any."""

    def __init__(self, question: str, checker: Checker, solution: str, *, rules: str,
                 placeholder: str = "", hint: str = "",
                 choices: Sequence[str] = (), kind: str = "text",
                 right_answers: Sequence[str] = (), game: Game | None = None,
                 optional: Sequence[str] = ()) -> None:
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
        if not given:
            right: bool | None = None
            text = self.how_to_answer()
        else:
            right, text = self.checker(given)
        if right is None:  # not an answer: say how to write one, count no try
            self.feedback.value = MARKUP("feedback", verdict="unread", mark="?",
                                         text=_lines(text))
            return text
        self.answers.append((answer, right))
        self._mark_choice(given, right)
        if not right:
            self.tries += 1
            if self.tries >= TRIES and not self.reveal.value:
                self.show_answer()
                text += f"\nAfter {self.tries} tries, the answer is shown below."
        self._show_feedback(right, text)
        if self.restored:
            self._show_history()
        self._record(given, right, text)
        return text

    def _show_feedback(self, right: bool, text: str) -> None:
        verdict, mark = ("right", "✔") if right else ("wrong", "✘")
        self.feedback.value = MARKUP("feedback", verdict=verdict, mark=mark, text=_lines(text))

    def _show_history(self) -> None:
        said = ", ".join(f"{a} {'✔' if ok else '✘'}" for a, ok in self.answers)
        self.history.value = MARKUP("history", said=said) if said else ""

    def _record(self, answer: str, right: bool, feedback: str) -> None:
        """Give the checked answer to the kernel's recorder (never raises: a record that
        cannot be kept is the recorder's notice, not the learner's error)."""
        if self.lesson is None or self.exercise_id is None:
            return
        try:
            rec = _recorder()
            if rec is not None:
                rec.attempt(lesson=self.lesson, exercise=self.exercise_id,
                            answer=answer[:MAX_ANSWER], verdict=right,
                            rule_ids=list(self.rule_ids), feedback=feedback[:MAX_FEEDBACK])
        except Exception:  # noqa: BLE001 - never into the widget's callback
            log.exception("recording an answer of %s %s failed", self.lesson, self.exercise_id)

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
        """Show the solution (the **Show the answer** button) and return it."""
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
        given = _norm(answer)
        if given.isdigit() and 1 <= int(given) <= len(self.choices) and not any(
                _norm(c) == given for c in self.choices):
            given = _norm(self.choices[int(given) - 1])
        for c, b in zip(self.choices, self.choice_buttons, strict=True):
            chosen = _norm(c) == given
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


# --------------------------------------------------------------------------- answers

SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}


def _norm(text: str) -> str:
    """A choice or typed answer compared loosely: case, spaces, ♯/#, ♭/b, suit symbols,
    the minus sign and a full stop at the end do not matter."""
    t = text.strip().rstrip(".").lower().replace("♯", "#").replace("♭", "b")
    t = t.replace("−", "-").replace("–", "-")
    for sym, letter in SUIT_LETTERS.items():
        t = t.replace(sym, letter)
    return " ".join(t.split())


def _tokens(answer: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", answer.strip().rstrip(".")) if t]


def _clean(token: str) -> str:
    """A move typed any way, in the notation's own spelling: ``8s:d`` → ``8S:D``, ``9♥`` →
    ``9H`` (a pitch call keeps its flat: ``8S:Db``)."""
    head, colon, call = token.partition(":")
    head = head.upper()
    if colon:
        call = call[:1].upper() + call[1:]
        for sym, letter in SUIT_LETTERS.items():
            call = call.replace(sym, letter.upper())
    return head + colon + call


def _read_moves(answer: str) -> tuple[list[tuple[str, Move | None]], str]:
    """The moves of an answer: (key, move) with the key ``10H`` for a play (its first card:
    a stack is one move) or a word (draw, pass, end); or a complaint."""
    found: list[tuple[str, Move | None]] = []
    for token in _tokens(answer):
        if token.lower() in WORDS.values():
            found.append((token.lower(), None))
            continue
        try:
            m = Move.parse(_clean(token))
        except (MoveError, CardError, ValueError) as e:
            return [], (f"I could not read {token!r} as a card or a move ({e}). Write cards "
                        "like 6C or 6♣, a stack as 9H+9C, and the words draw, pass, end.")
        if m.kind == PLAY:
            found.append((str(m.cards[0]), m))
        else:
            found.append((WORDS.get(m.kind, m.kind), None))
    return found, ""


def _expected_moves(game: Game) -> set[str]:
    out: set[str] = set()
    for m in game.legal_moves():
        if m.kind == PLAY:
            out.add(str(m.cards[0]))
        else:
            out.add(WORDS.get(m.kind, m.kind))
    return out


def _same_move(game: Game, m: Move) -> bool:
    """Whether a play as typed (a stack in any order after its first card, a call in any
    spelling the engine reads: ``Db`` for ``C#``, ``diamonds`` for ``D``, a pile) is one of
    the legal moves."""
    try:
        call = game.parse_call(m.call) if m.call is not None else None
    except CrazylabError:
        return False  # a call these rules cannot make
    for x in game.legal_moves():
        if x.kind != PLAY or x.cards[0] != m.cards[0]:
            continue
        if sorted(x.cards[1:]) != sorted(m.cards[1:]):
            continue
        if call is not None and (x.call is None or game.parse_call(x.call) != call):
            continue
        if m.pile is not None and x.pile != m.pile:
            continue
        return True
    return False


def _show(items: set[str]) -> str:
    def key(t: str) -> tuple[int, Any]:
        try:
            return (0, sort_key(Card.parse(t)))
        except (CardError, ValueError):
            return (1, t)
    return " ".join(_display(t) for t in sorted(items, key=key)) or "nothing"


def _display(token: str) -> str:
    try:
        return Card.parse(token).display
    except (CardError, ValueError):
        try:
            return Move.parse(token).display
        except (MoveError, CardError, ValueError):
            return token


def _why(game: Game, token: str) -> str:
    """Why a card (or draw/pass/end) is legal or not, in the engine's words."""
    if token in WORDS.values():
        return game.explain(token) or _word_reason(game, token)
    c = Card.parse(token)
    for v in verdicts(game):
        if v.card == c:
            return v.reason
    return game.explain(token) or f"{c.display} is not in the hand."


def misconception(game: Game, move: str, reason: str = "") -> str:
    """A sentence for a known misconception behind playing ``move`` (or ``""``): the eight's
    printed suit after a call, an eight called in the musical main game, a unison in the
    levels, going down in Level 4. ``reason`` is the engine's why-not, if known."""
    reason = reason or game.explain(move)
    if not reason:
        return ""
    try:
        m = Move.parse(move)
    except (MoveError, CardError, ValueError):
        return ""
    rs = game.rules
    if m.kind == PLAY and ":" in move and "own suit" in reason:
        return (f"In the musical main game an eight takes its own suit: there is no call "
                f"(MU-12). Play {m.cards[0].display} with no call.")
    if m.kind != PLAY or m.cards[0].is_joker:
        return ""
    card = m.cards[0]
    if "unison" in reason:
        return (f"{card.display} sounds the very pitch it would follow: a unison never fits "
                "in the levels, not even the pitch an eight announced (MU-29, MU-Q22).")
    if rs.matching == "interval" and "only up" in reason and " down from" in reason:
        return ("This level climbs: only an interval UP fits, never down (house ruling "
                f"MU-Q26). {card.display} would go down.")
    top = game.top
    if (rs.matching not in ("interval", "letter_step") and top is not None and top.rank == 8
            and not top.is_joker and card.rank != 8 and card.suit == top.suit
            and game.suit != top.suit):
        return (f"After an eight the called suit counts, not the eight's printed suit: "
                f"{_suit_symbol(game.suit)} was called, so {card.display} does not fit.")
    return ""


def _suit_symbol(suit: str | None) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(suit or "", suit or "?")


def _missed_where(game: Game) -> str:
    """Where the cards a learner left out come from: the variant's phase says (after a Queen
    any card may be dropped), else the piles' top cards."""
    special = words_for(game.rules).missed.get(game.phase)
    if special:
        return special
    if game.rules.piles > 1:
        return "check each card against the top card of every pile"
    return "check each card against the top card again"


def _word_reason(game: Game, word: str) -> str:
    hint = words_for(game.rules).hints.get((game.phase, word))
    if hint:  # a variant's phase: a hit to resolve, a Queen's drop, a jump-in
        return hint
    if word == "draw":
        if game.rules.chain:
            return "You may always draw two instead of playing a card."
        if game.playable_cards():
            return "These rules let you draw even though you could play."
        return "Nothing in your hand fits, so you draw."
    if word == "pass":
        return "Nothing fits and you cannot draw, so you pass."
    return "You have played or drawn, so you may end your turn."


def legal_moves_exercise(game: Game, question: str | None = None, *, rules: str,
                         hint: str = "", cards_only: bool = False) -> Exercise:
    """"Which moves are legal?": the answer lists cards (``6C KH``, a called eight as
    ``8S`` or ``8S:D``, a stack as ``9H+9C``: one move, counted by its first card) and the
    words ``draw``, ``pass``, ``end`` where they apply. ``cards_only``: the question asks
    which *cards* may be played, so the words are neither needed nor judged."""
    if not isinstance(game, Game):
        raise WidgetArgumentError(f"game must be a Game (the position asked about), not "
                                  f"{quote(game)}")
    game = game.copy()  # the position asked about, whatever the lesson does next
    legal = _expected_moves(game)
    expected = {t for t in legal if t not in WORDS.values()} if cards_only else legal
    hand = " ".join(c.display for c in sorted(game.hands[game.to_play], key=sort_key))
    tops = ", ".join(p[-1].display for p in game.piles)
    question = question or MARKUP("question_cards" if cards_only else "question_moves",
                                  seat=game.to_play, hand=hand, tops=tops)
    order = [str(c) for c in sorted(set(game.hands[game.to_play]), key=sort_key)]

    def rank(t: str) -> tuple[int, str]:
        return (order.index(t), t) if t in order else (len(order), t)

    def checker(answer: str) -> tuple[bool | None, str]:
        found, problem = _read_moves(answer)
        if problem:
            return None, problem
        if cards_only:
            found = [(k, m) for k, m in found if k not in WORDS.values()]
        if not found:
            return None, ("Type some cards, e.g. 6C KH (or 6♣ K♥)"
                          + ("." if cards_only else ", and draw if you may draw."))
        for key, m in sorted(found, key=lambda f: rank(f[0])):  # the first thing wrong
            if key not in expected:
                why = _why(game, key)
                text = m.display if m is not None and len(m.cards) > 1 else _display(key)
                special = misconception(game, str(m) if m is not None else key, why)
                return False, f"Not quite: {text} is not legal. " + (special or why)
            if m is not None and len(m.cards) + (":" in str(m)) + ("@" in str(m)) > 1 \
                    and not _same_move(game, m):
                why = game.explain(str(m)) or "that is not one of the legal moves."
                special = misconception(game, str(m), why)
                return False, f"Not quite: {m.display} is not legal. " + (special or why)
        given = {k for k, _ in found}
        missing = expected - given
        if not missing:
            return True, "Right: " + _show(expected) + "."
        words = sorted(missing & set(WORDS.values()))
        cards = len(missing) - len(words)
        parts = []
        if cards:
            parts.append(f"{cards} more card{'s' * (cards != 1)} of your hand may be played: "
                         f"{_missed_where(game)}.")
        for word in words:
            parts.append(f"You missed {word}: {_why(game, word)}")
        return False, "Not quite: " + " ".join(parts)

    every = order + sorted(legal - set(order))
    solution = "Legal: " + _show(expected) + ".\n" + "\n".join(
        f"{_display(t)}: {_why(game, t)}" for t in every if not cards_only
        or t not in WORDS.values())
    return Exercise(question, checker, solution, rules=rules, hint=hint,
                    placeholder="e.g. 6C KH" if cards_only else "e.g. 6C KH draw",
                    kind="cards", right_answers=sorted(expected, key=rank), game=game,
                    optional=tuple(WORDS.values()) if cards_only else ())


def is_legal_exercise(game: Game, move: str, question: str | None = None, *, rules: str,
                      hint: str = "") -> Exercise:
    """"Is this move legal?": answer yes or no; the engine's explanation is the feedback,
    with a targeted sentence when a wrong "yes" is a known misconception."""
    why = game.explain(move)
    legal = why == ""
    special = "" if legal else misconception(game, move, why)
    if legal:
        m = Move.parse(move)
        if m.kind == PLAY:
            moves = tuple(x for x in game.legal_moves() if x.kind == PLAY and x.cards == m.cards
                          or (x.kind == PLAY and x.cards[0] == m.cards[0]))
            why = legal_reason(game, m.cards[0], moves)
        else:
            why = _word_reason(game, WORDS.get(m.kind, m.kind))
    tops = ", ".join(p[-1].display for p in game.piles)
    shown = Move.parse(move).display
    question = question or MARKUP("question_is_legal", tops=tops, move=shown)
    verdict = "Yes" if legal else "No"

    def checker(answer: str) -> tuple[bool | None, str]:
        a = _norm(answer)
        if a not in ("yes", "no", "y", "n"):
            return None, "Answer yes or no."
        right = a.startswith("y") == legal
        head = "Right:" if right else "Not right: the answer is"
        reason = f"{special} {why}" if special and not right else why
        return right, f"{head} {verdict.lower()}. {reason}"

    return Exercise(question, checker, f"{verdict}. {why}", rules=rules, hint=hint,
                    placeholder="yes or no", choices=("yes", "no"), kind="choice",
                    right_answers=(verdict.lower(),), game=game.copy())


def score_exercise(rules_name: str, hands: list[list[str]], winner: int, seat: int | None = None,
                   question: str | None = None, *, rules: str, hint: str = "",
                   mistakes: dict[int, str] | None = None) -> Exercise:
    """"What does the winner score?" (or ``seat``): a whole number, checked against the
    engine's scores, with the calculator's working as the solution. The known mistakes get
    their own sentence: an eight counted at its face value, only the largest (or one) hand
    counted; ``mistakes`` adds others (``{22: "why 22 is wrong"}``)."""
    scored = score_hands(rules_name, [list(h) for h in hands], winner)
    seat = winner if seat is None else seat
    expected = scored.scores[seat]
    working = "\n".join(scored.working())  # each rule set counted its own way
    question = question or f"Seat {winner} went out. What does seat {seat} score?"
    targeted = dict(mistakes or {})
    rs = scored.rules
    if rs.scoring == "winner_collects" and seat == winner:
        eights = [(c, p) for h in scored.hands for c, p in zip(h, _points(scored, h),
                                                                strict=True)
                  if not c.is_joker and c.rank == 8 and p != 8]
        if eights:
            face = expected - sum(p - 8 for _, p in eights)
            targeted.setdefault(face, f"an eight counts {eights[0][1]} points here, not 8 "
                                      "(its face value): count each eight as "
                                      f"{eights[0][1]}.")
        held = [s for s, h in enumerate(scored.hands) if h and s != winner]
        if len(held) > 1:
            for s in held:
                targeted.setdefault(scored.totals[s], (
                    f"that is only seat {s}'s hand. The winner collects the points of every "
                    "opponent's cards: add all the hands left."))
    targeted.pop(expected, None)

    def checker(answer: str) -> tuple[bool | None, str]:
        try:
            given = int(_norm(answer).replace(" ", "").lstrip("+"))
        except ValueError:
            return None, f"Answer with a whole number, e.g. 12, not {answer!r}."
        if given == expected:
            return True, f"Right: {expected}.\n{working}"
        if given in targeted:
            return False, f"Not {given}: {targeted[given]}"
        side = "high" if given > expected else "low"
        return False, (f"Not {given}: that is too {side}. Count again card by card: "
                       "each card's points are in the rules.")

    return Exercise(question, checker, f"{expected}.\n{working}", rules=rules, hint=hint,
                    placeholder="a number", kind="number", right_answers=(str(expected),))


def _points(scored: Any, hand: Sequence[Card]) -> list[int]:
    return [card_value(scored.rules, c) for c in hand]


def next_top_exercise(game: Game, moves: Sequence[str], question: str | None = None, *,
                      rules: str, pile: int = 0, hint: str = "") -> Exercise:
    """"After these moves, what is the top card?": the engine plays the moves (a King's deck
    play and the like included) and takes them back, so ``game`` is left as it was."""
    for m in moves:  # play them, read the top card, and take them back
        game.push(m)
    top = game.piles[pile][-1]
    for _ in moves:
        game.undo()
    said = Markup.join(part for i, m in enumerate(moves)
                       for part in ((", ", MARKUP("move_code", move=m)) if i
                                    else (MARKUP("move_code", move=m),)))
    question = question or MARKUP("question_next_top", moves=said)
    narration = f"After {', '.join(moves)} the top card is {top.display}."

    def checker(answer: str) -> tuple[bool | None, str]:
        words = _tokens(answer)
        try:
            if len(words) != 1:
                raise ValueError("give one card")
            given = Card.parse(_clean(words[0]).split(":")[0])
        except (CardError, ValueError) as e:
            return None, f"Type one card, e.g. 7H or 7♥ ({answer!r}: {e})."
        if given == top:
            return True, f"Right: {narration}"
        return False, f"Not {given.display}. Play the moves in your head one at a time."

    return Exercise(question, checker, narration, rules=rules, hint=hint,
                    placeholder="a card, e.g. 7H", kind="card", right_answers=(str(top),))


def choice_exercise(question: str, choices: Sequence[str], answer: str | Sequence[str],
                    explanation: str, *, rules: str, hint: str = "",
                    wrong: dict[str, str] | None = None) -> Exercise:
    """A question with a few answers, one button each; ``answer`` is the right one (or a
    tuple of right ones: two names of one note). ``wrong`` maps a wrong choice to a sentence
    on the misconception behind it (else the feedback is the hint). ``check`` also takes an
    answer typed (loosely: case, ♯/#, ♭/b; or its number for long choices)."""
    rights = (answer,) if isinstance(answer, str) else tuple(answer)
    norm = {_norm(c): c for c in choices}
    for a in rights:
        if _norm(a) not in norm:
            raise WidgetArgumentError(f"the answer {quote(a)} is not one of the choices "
                                      f"{quote(list(choices))}")
    right_set = {_norm(a) for a in rights}
    told = {_norm(k): v for k, v in (wrong or {}).items()}
    for k in told:
        if k not in norm:
            raise WidgetArgumentError(f"wrong= names {quote(k)}, which is not one of the "
                                      "choices")
    numbered = any(len(c) > 12 for c in choices)  # long answers are picked by number
    ex: Exercise

    def checker(given: str) -> tuple[bool | None, str]:
        g = _norm(given)
        if numbered and g.isdigit() and 1 <= int(g) <= len(choices) and g not in norm:
            g = _norm(choices[int(g) - 1])
        g = {"y": "yes", "n": "no"}.get(g, g) if g not in norm else g
        if g not in norm:
            return None, "Answer one of: " + ", ".join(choices) + "."
        if g in right_set:
            return True, f"Right: {explanation}"
        if g in told:
            return False, f"Not {norm[g]}: {told[g]}"
        return False, f"Not {norm[g]}. Hint: {ex.hint}"

    hint_words = f"1 to {len(choices)}" if numbered else " / ".join(choices)
    ex = Exercise(question, checker, f"{' or '.join(rights)}. {explanation}", rules=rules,
                  hint=hint, placeholder=hint_words, choices=choices, kind="choice",
                  right_answers=rights)
    return ex

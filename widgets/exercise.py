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
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from crazylab.engine.cards import Card, CardError, sort_key
from crazylab.engine.game import Game
from crazylab.engine.moves import DRAW, END, PASS, PLAY, Move, MoveError

from ._common import ErrorArea, ErrorReporting, guarded
from .reasons import legal_reason, verdicts
from .scoring import score_hands

Checker = Callable[[str], tuple[bool, str]]
RULE_ID = re.compile(r"^(C|SR|AP|MU|BR)-(?:[DTQM]?\d+)$")
WORDS = {DRAW: "draw", PASS: "pass", END: "end"}


class Exercise(ErrorReporting, w.VBox):
    """One question with a checked answer and a hidden solution.

    ``checker(answer)`` returns ``(right, feedback)``; an answer it cannot read should come
    back as ``(False, "a sentence saying why")``, never as an exception."""

    def __init__(self, question: str, checker: Checker, solution: str, *, rules: str,
                 placeholder: str = "", hint: str = "",
                 choices: Sequence[str] = ()) -> None:
        ids = rules.split()
        bad = [i for i in ids if not RULE_ID.match(i)]
        if not ids or bad:
            raise ValueError(f"rules must name rule ids like 'SR-10 SR-Q2', not {rules!r}")
        self.errors: list[str] = []
        self._last_text = ""
        self.question = question
        self.rule_ids = tuple(ids)
        self.solution = solution
        self.checker = checker
        self.answers: list[tuple[str, bool]] = []  # every answer checked, and whether right
        self.prompt = w.HTML(f"<div class='crazylab-question'><b>Exercise.</b> {question}</div>")
        self.answer_box = w.Text(placeholder=placeholder or "your answer",
                                 continuous_update=False,
                                 layout=w.Layout(width="22em"))
        self.check_button = w.Button(description="Check", button_style="primary",
                                     tooltip="Check your answer")
        self.feedback = w.HTML("")
        self.reveal = w.HTML(_solution_html(solution, hint, self.rule_ids))
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
            parts = [self.prompt, w.HTML(CHOICE_STYLE), answer_row]
        else:
            parts = [self.prompt, w.HBox([self.answer_box, self.check_button])]
        super().__init__([*parts, self.feedback, self.reveal, self.error_area])
        self.add_class("crazylab-exercise")

    def check(self, answer: str) -> str:
        """Check ``answer`` and return the feedback (also shown under the answer box)."""
        right, text = self.checker(answer.strip())
        self.answers.append((answer, right))
        self._mark_choice(answer.strip(), right)
        colour, mark = ("#1b6e20", "✔") if right else ("#9c1c1c", "✘")
        self.feedback.value = (f"<div style='color:{colour}'>{mark} "
                               f"{html.escape(text).replace(chr(10), '<br>')}</div>")
        return text

    def choose(self, choice: str) -> str:
        """Click the button of ``choice`` (what a learner does), and return the feedback."""
        if choice not in self.choices:
            raise ValueError(f"{choice!r} is not one of the choices {list(self.choices)}")
        self.choice_buttons[self.choices.index(choice)].click()
        return self._last_text

    def _mark_choice(self, answer: str, right: bool) -> None:
        """Colour the button of the answer given (green right, red wrong), the others plain."""
        given = answer.lower()
        if given.isdigit() and 1 <= int(given) <= len(self.choices) and not any(
                c.lower() == given for c in self.choices):
            given = self.choices[int(given) - 1].lower()
        for c, b in zip(self.choices, self.choice_buttons, strict=True):
            chosen = c.lower() == given
            b.button_style = ("success" if right else "danger") if chosen else ""

    @guarded
    def _on_check(self) -> None:
        if self.answer_box.value.strip():
            self.check(self.answer_box.value)

    @guarded
    def _on_choice(self, choice: str) -> None:
        self._last_text = self.check(choice)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus an HTML copy (question and hidden solution) for pages that show
        no widgets, such as GitHub."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        if isinstance(data, dict):
            listed = ("<ol class='crazylab-choices'>" + "".join(
                f"<li>{html.escape(c)}</li>" for c in self.choices) + "</ol>"
                if self.choices else "")
            data["text/html"] = (self.prompt.value + listed
                                 + _solution_html(self.solution, "", self.rule_ids))
        return bundle


#: the choice buttons: long answers wrap instead of being cut, and the focus is plain to see
CHOICE_STYLE = """<style>
.crazylab-choices .crazylab-choice { white-space: normal; text-align: left; min-height: 32px;
  padding: 4px 12px; max-width: 100%; line-height: 1.3; }
.crazylab-choices .crazylab-choice:focus-visible { outline: 3px solid #1565c0;
  outline-offset: 2px; }
</style>"""


def _solution_html(solution: str, hint: str, ids: Sequence[str]) -> str:
    body = html.escape(solution).replace("\n", "<br>")
    hint_html = (f"<details><summary>Hint</summary>{html.escape(hint)}</details>"
                 if hint else "")
    return (f"{hint_html}<details class='crazylab-solution'><summary>Show the solution"
            f"</summary><div style='padding:4px 0 4px 1em'>{body}<br>"
            f"<small>Rules: {', '.join(ids)}</small></div></details>")


# --------------------------------------------------------------------------- answers


def _tokens(answer: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", answer) if t]


def _read_moves(answer: str) -> tuple[set[str], str]:
    """The cards (as ``10H``) and words (draw, pass, end) of an answer, or a complaint."""
    found: set[str] = set()
    for token in _tokens(answer):
        if token.lower() in WORDS.values():
            found.add(token.lower())
            continue
        try:
            m = Move.parse(token)
        except (MoveError, CardError, ValueError) as e:
            return set(), f"I could not read {token!r}: {e}"
        if m.kind == PLAY:
            found.update(str(c) for c in m.cards)
        else:
            found.add(WORDS.get(m.kind, m.kind))
    return found, ""


def _expected_moves(game: Game) -> set[str]:
    out: set[str] = set()
    for m in game.legal_moves():
        if m.kind == PLAY:
            out.add(str(m.cards[0]))
        else:
            out.add(WORDS.get(m.kind, m.kind))
    return out


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


def _word_reason(game: Game, word: str) -> str:
    if game.phase == "penalty":  # Crazy Breens: a hit to resolve
        return ("You are hit: take the penalty card by card, unless you counter with a Jack."
                if word == "draw" else
                "You are skipped: say pass to lose the turn, unless you counter with a Jack.")
    if game.phase == "drop":
        return "Drop no card after the Queen, and end the turn."
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
                         hint: str = "") -> Exercise:
    """"Which moves are legal?": the answer lists cards (``6C KH``, a called eight as
    ``8S`` or ``8S:D``) and the words ``draw``, ``pass``, ``end`` where they apply."""
    expected = _expected_moves(game)
    hand = " ".join(c.display for c in sorted(game.hands[game.to_play], key=sort_key))
    tops = ", ".join(p[-1].display for p in game.piles)
    question = question or (f"Seat {game.to_play} holds {hand}; the top card is {tops}. "
                            "Which moves are legal? List the cards (and <code>draw</code> if "
                            "drawing is allowed).")

    def checker(answer: str) -> tuple[bool, str]:
        given, problem = _read_moves(answer)
        if problem:
            return False, problem
        if given == expected:
            return True, "Right: " + _show(expected) + "."
        lines = []
        for t in sorted(given - expected):
            lines.append(f"{_display(t)} is not legal: {_why(game, t)}")
        for t in sorted(expected - given):
            lines.append(f"You missed {_display(t)}: {_why(game, t)}")
        return False, "Not quite.\n" + "\n".join(lines)

    every = [str(c) for c in sorted(set(game.hands[game.to_play]), key=sort_key)]
    every += sorted(expected - set(every))
    solution = "Legal: " + _show(expected) + ".\n" + "\n".join(
        f"{_display(t)}: {_why(game, t)}" for t in every)
    return Exercise(question, checker, solution, rules=rules, hint=hint,
                    placeholder="e.g. 6C KH draw")


def is_legal_exercise(game: Game, move: str, question: str | None = None, *, rules: str,
                      hint: str = "") -> Exercise:
    """"Is this move legal?": answer yes or no; the engine's explanation is the feedback."""
    why = game.explain(move)
    legal = why == ""
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
    question = question or f"The top card is {tops}. Is <b>{html.escape(shown)}</b> legal?"
    verdict = "Yes" if legal else "No"

    def checker(answer: str) -> tuple[bool, str]:
        a = answer.lower()
        if a not in ("yes", "no", "y", "n"):
            return False, "Answer yes or no."
        right = a.startswith("y") == legal
        head = "Right:" if right else "Not right: the answer is"
        return right, f"{head} {verdict.lower()}. {why}"

    return Exercise(question, checker, f"{verdict}. {why}", rules=rules, hint=hint,
                    placeholder="yes or no", choices=("yes", "no"))


def score_exercise(rules_name: str, hands: list[list[str]], winner: int, seat: int | None = None,
                   question: str | None = None, *, rules: str, hint: str = "") -> Exercise:
    """"What does the winner score?" (or ``seat``): a whole number, checked against the
    engine's scores, with the calculator's working as the solution."""
    scored = score_hands(rules_name, [list(h) for h in hands], winner)
    seat = winner if seat is None else seat
    expected = scored.scores[seat]
    working = "\n".join(scored.working())  # each rule set counted its own way
    question = question or f"Seat {winner} went out. What does seat {seat} score?"

    def checker(answer: str) -> tuple[bool, str]:
        try:
            given = int(answer.replace("−", "-"))
        except ValueError:
            return False, f"Answer with a whole number, not {answer!r}."
        if given == expected:
            return True, f"Right: {expected}.\n{working}"
        return False, f"Not {given}. Count again: each card's points are in the rules."

    return Exercise(question, checker, f"{expected}.\n{working}", rules=rules, hint=hint,
                    placeholder="a number")


def next_top_exercise(game: Game, moves: Sequence[str], question: str | None = None, *,
                      rules: str, pile: int = 0, hint: str = "") -> Exercise:
    """"After these moves, what is the top card?": the engine plays the moves (a King's deck
    play and the like included) and takes them back, so ``game`` is left as it was."""
    for m in moves:  # play them, read the top card, and take them back
        game.push(m)
    top = game.piles[pile][-1]
    for _ in moves:
        game.undo()
    said = ", ".join(f"<code>{html.escape(m)}</code>" for m in moves)
    question = question or f"After {said}, what is the top card of the discard pile?"
    narration = f"After {', '.join(moves)} the top card is {top.display}."

    def checker(answer: str) -> tuple[bool, str]:
        try:
            given = Card.parse(answer.split(":")[0])
        except (CardError, ValueError) as e:
            return False, f"I could not read {answer!r} as a card: {e}"
        if given == top:
            return True, f"Right: {narration}"
        return False, f"Not {given.display}. Play the moves in your head one at a time."

    return Exercise(question, checker, narration, rules=rules, hint=hint,
                    placeholder="a card, e.g. 7H")


def choice_exercise(question: str, choices: Sequence[str], answer: str, explanation: str, *,
                    rules: str, hint: str = "") -> Exercise:
    """A question with a few answers, one button each; ``answer`` is the right one.
    ``check`` also takes an answer typed (the choice, or its number for long choices)."""
    norm = {c.lower(): c for c in choices}
    if answer.lower() not in norm:
        raise ValueError(f"the answer {answer!r} is not one of the choices {list(choices)}")
    numbered = any(len(c) > 12 for c in choices)  # long answers are picked by number

    def checker(given: str) -> tuple[bool, str]:
        g = given.lower()
        if numbered and g.isdigit() and 1 <= int(g) <= len(choices):
            g = choices[int(g) - 1].lower()
        if g not in norm:
            return False, "Answer one of: " + ", ".join(choices) + "."
        if g == answer.lower():
            return True, f"Right: {explanation}"
        return False, f"Not {norm[g]}. Think again, or open the solution."

    hint_words = f"1 to {len(choices)}" if numbered else " / ".join(choices)
    return Exercise(question, checker, f"{answer}. {explanation}", rules=rules,
                    hint=hint, placeholder=hint_words, choices=choices)

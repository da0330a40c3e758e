"""The exercise, practice set, teacher's dashboard, step explainer and error area keep their
markup beside them (issue 21): no HTML and no inline style in their Python, every fragment of
their ``.html`` files used, every class that replaced an inline style defined in their style
sheet, and the widgets show the same words as before, escaped once."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from crazylab.practice import derive_seed
from crazylab.widgets import position
from crazylab.widgets._common import ErrorArea
from crazylab.widgets._markup import Html, Markup
from crazylab.widgets.dashboard import MISMATCH, TeacherPage, table_html
from crazylab.widgets.exercise import (
    Exercise,
    choice_exercise,
    is_legal_exercise,
    legal_moves_exercise,
    next_top_exercise,
)
from crazylab.widgets.explainer import StepExplainer
from crazylab.widgets.practice import Practice

ROOT = Path(__file__).resolve().parent.parent
WIDGETS = ROOT / "crazylab" / "widgets"
#: module -> the stem of its markup (<stem>.html) and style sheet (<stem>.css)
MODULES = {"exercise.py": "exercise", "practice.py": "practice", "dashboard.py": "dashboard",
           "explainer.py": "explainer", "_common.py": "common"}
#: an inline style or an HTML tag in a Python string
MARKUP_IN_PYTHON = re.compile(
    r"style\s*=\s*['\"]|<(?:div|span|table|thead|tbody|tr|td|th|pre|ol|ul|li|b|i|p|a|q|br|"
    r"h[1-6]|code|small|details|summary|style)[\s>/]", re.IGNORECASE)
#: the classes that took the place of inline styles, per style sheet (each needs a rule)
STYLED = {
    "common": ["crazylab-error-box", "crazylab-error-details"],
    "exercise": ["cle-right", "cle-wrong", "cle-unread", "crazylab-earlier", "crazylab-hint",
                 "cle-solution-body", "crazylab-choice"],
    "practice": ["crazylab-practice-earlier"],
    "dashboard": ["cl-dash-title"],
    "explainer": ["cl-rule-id", "crazylab-notice", "cl-ex-keys", "cl-ex-title", "cl-ex-quiet",
                  "cl-ex-description", "cl-ex-say", "cl-ex-said", "cl-ex-move",
                  "cl-ex-refused", "cl-ex-changes", "cl-ex-legal", "cl-ex-link"],
}


def markup_in_python(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant of ``source`` (f-strings' literal parts
    included) that holds an HTML tag or an inline style. Docstrings are left out: they are
    documentation (``<button>`` elements, a ``<select>``), never shown as markup."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and MARKUP_IN_PYTHON.search(node.value)]


def fragments_called(source: str) -> set[str]:
    """The fragment names a module asks its ``MARKUP`` for (``MARKUP("name", ...)``, the
    name possibly chosen by a conditional expression)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "MARKUP" and node.args):
            for part in ast.walk(node.args[0]):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    names.add(part.value)
    return names


# --------------------------------------------------------------------------- the sources


def test_the_checker_finds_markup_in_strings_and_f_strings() -> None:
    source = ('"""A <div> in a docstring is documentation."""\n'
              'x = f"<div style=\'color:red\'>{y}</div>"\n'
              'z = "plain " + "<b>bold</b>"\n'
              'w = re.sub(r"<[^>]+>", "", q)  # a regex, not markup\n')
    found = markup_in_python(source)
    assert [line for line, _ in found] == [2, 3]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_html_and_no_inline_style_in_the_python(module: str) -> None:
    found = markup_in_python((WIDGETS / module).read_text(encoding="utf-8"))
    assert not found, f"{module} builds markup in Python: {found}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_fragment_is_used_and_every_fragment_used_exists(module: str) -> None:
    markup = Markup(MODULES[module])
    called = fragments_called((WIDGETS / module).read_text(encoding="utf-8"))
    assert set(markup.fragments) - called == set(), f"dead fragments of {markup.path.name}"
    assert called - set(markup.fragments) == set(), f"{module} asks for missing fragments"


@pytest.mark.parametrize("stem", sorted(STYLED))
def test_the_classes_that_replaced_inline_styles_have_rules(stem: str) -> None:
    css = (WIDGETS / f"{stem}.css").read_text(encoding="utf-8")
    assert "style=" not in (WIDGETS / f"{stem}.html").read_text(encoding="utf-8")
    for cls in STYLED[stem]:
        assert re.search(rf"\.{re.escape(cls)}\b[^{{}}]*\{{", css), f"{stem}.css: no .{cls}"


def test_the_files_are_package_data() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["crazylab.widgets"]
    assert "*.html" in shipped and "*.css" in shipped
    for stem in set(MODULES.values()):
        assert (WIDGETS / f"{stem}.html").is_file() and (WIDGETS / f"{stem}.css").is_file()


# --------------------------------------------------------------------------- the widgets


def _static_copy(widget: Any) -> str:
    """The HTML copy a page without widgets shows."""
    bundle = widget._repr_mimebundle_()
    return (bundle[0] if isinstance(bundle, tuple) else bundle)["text/html"]


def _sheet_first(widget: Any, stem: str) -> None:
    sheet = widget.children[0]
    assert "crazylab-style" in sheet._dom_classes
    assert sheet.value == f"<style>{(WIDGETS / f'{stem}.css').read_text()}</style>"


def test_the_error_area_says_something_went_wrong_with_its_own_sheet() -> None:
    area = ErrorArea()
    assert area.value == "" and area.layout.display == "none"
    area.show("checking failed: ValueError: <b>bad</b> & worse\n\nTraceback: line <1>")
    value = area.value
    assert "<div role='alert' class='crazylab-error-box'><b>Something went wrong.</b> " \
           "checking failed: ValueError: &lt;b&gt;bad&lt;/b&gt; &amp; worse" in value
    assert "<pre class='crazylab-error-details'>Traceback: line &lt;1&gt;</pre>" in value
    assert value.startswith("<style>") and "border: 2px solid #c8102e" in value
    area.show("one line only")
    assert "<details>" not in area.value and area.layout.display == ""
    area.show("")
    assert area.value == "" and area.layout.display == "none"


def test_an_exercise_shows_the_same_words_with_classes_for_colours() -> None:
    ex = legal_moves_exercise(position("crazy-eights", top="6H", hand="6C KH 8S 3D"),
                              rules="SR-10")
    _sheet_first(ex, "exercise")
    assert ex.prompt.value == (
        "<div class='crazylab-question'><b>Exercise.</b> Seat 0 holds 6♣ 3♦ K♥ 8♠; the top "
        "card is 6♥. Which moves are legal? List the cards (and <code>draw</code> if drawing "
        "is allowed).</div>")
    ex.check("6C KH")
    assert ex.feedback.value.startswith("<div class='cle-feedback cle-wrong'>✘ Not quite:")
    ex.check("zz")  # unreadable: told how to answer
    assert ex.feedback.value.startswith("<div class='cle-feedback cle-unread'>? ")
    ex.check("6C KH 8S")
    assert ex.feedback.value.startswith("<div class='cle-feedback cle-right'>✔ Right")
    assert ex.show_hint().startswith("Rule SR-10")
    assert ex.hint_area.value.startswith("<div class='crazylab-hint'><b>Hint.</b> Rule SR-10")
    ex.show_answer()
    assert "<b>Solution.</b><div class='cle-solution-body'>Legal: 6♣ K♥ 8♠.<br>" \
           in ex.reveal.value and "<small>Rules: SR-10</small>" in ex.reveal.value


def test_an_exercises_text_is_escaped_once_and_its_lines_kept() -> None:
    ex = Exercise("Is <b>this</b> markup?", lambda a: (False, "a <tag> & more\nline 2"),
                  "x < y\nso", rules="SR-10", hint="use <care>")
    assert "Is <b>this</b> markup?" in ex.prompt.value  # the lesson's question is markup
    ex.check("anything")
    assert "a &lt;tag&gt; &amp; more<br>line 2" in ex.feedback.value
    assert "&amp;lt;" not in ex.feedback.value
    ex.show_hint()
    assert "use &lt;care&gt;" in ex.hint_area.value
    ex.answers[:] = [("a<b", False)]
    ex.restore([{"answer": "a<b", "verdict": False, "feedback": "f", "attempt_id": "1"}])
    assert ex.history.value == ("<div class='crazylab-earlier'>Your earlier answers: "
                                "a&lt;b ✘</div>")
    html_copy = _static_copy(ex)
    assert "<details><summary>Hint</summary>use &lt;care&gt;</details>" in html_copy
    assert "<summary>Show the solution</summary><div class='cle-solution-body'>x &lt; y<br>so" \
           in html_copy


def test_the_default_questions_are_built_from_fragments() -> None:
    game = position("crazy-eights", top="6H", hand="6C KH 8S 3D")
    assert "Is <b>K♥</b> legal?" in is_legal_exercise(game, "KH", rules="SR-10").prompt.value
    cards = legal_moves_exercise(game, rules="SR-10", cards_only=True).prompt.value
    assert cards.endswith("the top card is 6♥. Which cards may you play?</div>")
    after = game.copy()
    after.push("6C")
    then = str(after.legal_moves()[0])
    top = next_top_exercise(game, ["6C", then], rules="SR-10")
    assert f"After <code>6C</code>, <code>{then}</code>, what is the top card" \
        in top.prompt.value
    choice = choice_exercise("Pick <i>one</i>", ["<a>", "b"], "b", "because", rules="SR-10")
    assert "<ol class='crazylab-choices'><li>&lt;a&gt;</li><li>b</li></ol>" in \
        _static_copy(choice)


class _Recorder:
    """What a practice set asks of the kernel's recorder."""

    lesson = None

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def seed(self) -> int:
        return derive_seed("markup", len(self.records))

    def practice(self, **fields: Any) -> None:
        self.records.append(fields)

    def earlier_practice(self, lesson: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r["lesson"] == lesson]

    def earlier(self, lesson: str) -> list[Any]:
        return []

    def on_change(self, callback: Any) -> None:
        pass


def test_a_practice_set_shows_the_same_words() -> None:
    p = Practice("01_crazy_eights_basics", ["crazy-eights"], recorder=_Recorder())
    _sheet_first(p, "practice")
    assert p.title.value.startswith("<div class='crazylab-practice-title'><b>Practice.</b> "
                                    "Fresh positions dealt for you: which cards are legal")
    assert p.status.value == ("<div class='crazylab-practice-status'>Question 1 of 5 · "
                              "<b>0 of 0 right</b></div>")
    assert p.exercise is not None
    assert p.exercise.prompt.value.startswith("<div class='crazylab-question'><b>Question 1."
                                              "</b> ")
    for _ in range(10):  # every item answered right: none comes back
        if p.exercise is None:
            break
        p.answer(p.exercise.right_answers[0])
        p.next()
    assert p.summary.value == ("<div class='crazylab-practice-summary'><b>5 of 5 right.</b> "
                               "<i>New set</i> deals fresh positions.</div>")
    assert p.earlier_note.value.startswith(
        "<div class='crazylab-practice-earlier'>Your practice of this lesson so far: ")


def test_the_teacher_page_and_dashboard_show_the_same_words(tmp_path: Path) -> None:
    from crazylab.classroom.store import open_store

    store = open_store(str(tmp_path / "class.db"))
    page = TeacherPage(store)
    _sheet_first(page, "dashboard")
    assert page.children[1].value == "<h3>Open your class</h3>"
    new = page.make_class("Year <8> & co")
    assert ("<div class='cl-secret' role='status'>Class <b>Year &lt;8&gt; &amp; co</b> is "
            f"made.<br>Class code (for your learners): <code class='cl-new-code'>{new.code}"
            "</code>") in page.made.value
    assert f"<code class='cl-new-key'>{new.teacher_key}</code>" in page.made.value
    assert page.open_class(new.code, "wrong key") == MISMATCH
    assert page.open_line.value == (f"<div class='cl-dash-line cl-bad' role='status'>"
                                    f"{MISMATCH}</div>")
    assert page.open_class(new.code, new.teacher_key) == ""
    dash = page.dashboard
    assert dash is not None
    _sheet_first(dash, "dashboard")
    assert dash.title.value == (f"<h2 class='cl-dash-title'>Year &lt;8&gt; &amp; co <small>"
                                f"class {new.code}, 0 learners</small></h2>")
    assert "No learner has joined this class yet." in dash.grid_html.value
    assert f"<a download='class-{new.code}-attempts.csv' href='data:text/csv;base64," \
           in dash.downloads_html.value
    assert dash.children[3].value.startswith("<h3>Progress</h3><div class='cl-dash-note'>")


def test_a_table_escapes_its_cells_once() -> None:
    import pandas as pd

    frame = pd.DataFrame({"answer": ["<b>x</b>"], "n": [3],
                          "wrong answers": [[("6C & KH", 2, "K♥ <no>", "lesson 1")]]})
    out = table_html(frame)
    assert out.startswith("<table class='cl-dash-table'><thead><tr><th scope='col'>answer</th>")
    assert "<td>&lt;b&gt;x&lt;/b&gt;</td><td class='cl-num'>3</td>" in out
    assert ("<div class='cl-wrong'><q>6C &amp; KH</q> × 2 <small>in lesson 1</small><br>"
            "<span>K♥ &lt;no&gt;</span></div>") in out
    assert table_html(pd.DataFrame({"wrong answers": [[]]})).count("cl-none'>none<") == 1


def test_the_explainer_shows_the_same_words_with_classes() -> None:
    x = StepExplainer.from_query("example=no<pe&step=2",
                                 default="sr-t1-t2-worked-turn-eight-calls-diamonds")
    assert x.notice_html.value.startswith(
        "<div class='crazylab-notice' role='alert'><div>No worked example called ‘no&lt;pe’.")
    assert x.title_html.value.startswith(
        "<h3 class='cl-ex-title'>Worked turn: on 6♥, the eight calls diamonds</h3><div "
        "class='cl-ex-quiet'>Crazy Eights, 2 players, 7 steps</div>")
    assert "<a class='cl-rule-id' title='SR-T1" in x.title_html.value
    say = x.say_html.value
    assert say.startswith("<div role='status' aria-live='polite' class='cl-ex-say'>"
                          "<b>Step 2 of 7</b><div class='cl-ex-said'>3♦ is refused")
    assert "<div class='cl-ex-refused'><b>Refused:</b> 3♦ matches neither" in say
    assert "<div class='cl-ex-move'>Move: 3♦ <code>3D</code></div>" in say
    assert "<li>Nothing changed: the move was refused.</li>" in x.changes_html.value
    assert "<div class='cl-ex-legal'>Seat 0 may: 6♣, K♥" in x.position_html.value
    assert x.keys_html.value.startswith("<span class='cl-ex-keys'>Keys: ← → step")
    x.go(0)
    assert "The starting position. Press <b>Next ▶</b> (or →)" in x.say_html.value
    x.predict = True
    assert "&amp;predict=1'>Link to this step</a> (the explain page at step 0" \
        in x.link_html.value
    assert "<span class='cl-ex-quiet'>Press <b>Next ▶</b>" in x.score_html.value
    x.next()
    x.next()  # step 2 asks whether the engine accepts 3♦
    assert "<b>Step 2 of 7: predict first</b>" in x.say_html.value
    x.answer("yes")
    assert ("<div class='cl-verdict cl-verdict-wrong'><b>Not this time:</b> the engine "
            "refuses it, because 3♦ matches neither") in x.quiz_html.value
    x.next()
    x.answer("3D")
    assert ("<div class='cl-verdict cl-refused' role='alert'><b>Not legal:</b> 3♦ matches "
            "neither") in x.quiz_html.value
    assert "<b>Predict:</b> Seat 0 is to play. What does it do next?" in x.quiz_html.value
    assert not x.errors


def test_html_values_pass_through_and_text_is_escaped() -> None:
    """The fragments' contract the modules rely on (``Html`` kept, everything else
    escaped once)."""
    m = Markup("explainer")
    assert m("change", text="<x>") == "<li>&lt;x&gt;</li>"
    assert m("change", text=Html("<x>")) == "<li><x></li>"

"""Issue 21, first half: the legal-move explorer, the rule builder, the scoring calculator and
the interval explorer keep their markup in ``<stem>.html`` and their style in ``<stem>.css``
beside them (widgets/_markup.py); their Python builds no HTML and writes no inline style.

The checks: an AST walk over each module's string constants finds no tag and no ``style=``;
every fragment of each ``.html`` is used by its module (and every one it names exists); and
each widget, driven through a short journey, shows the same words, roles and classes as before
(the texts the tests and the pages rely on), with its style sheet first among its children."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from crazylab.engine.game import Game  # noqa: E402
from crazylab.engine.moves import PLAY  # noqa: E402
from crazylab.widgets._markup import Markup  # noqa: E402
from crazylab.widgets.builder import RuleBuilder  # noqa: E402
from crazylab.widgets.explorer import LegalMoveExplorer  # noqa: E402
from crazylab.widgets.music import IntervalExplorer  # noqa: E402
from crazylab.widgets.scoring import ScoreCalculator  # noqa: E402

WIDGETS = Path(__file__).resolve().parents[1] / "crazylab" / "widgets"
STEMS = ("explorer", "builder", "scoring", "music")

#: an HTML tag (opening or closing) or an inline style attribute
MARKUP_RE = re.compile(
    r"</?(div|span|table|thead|tbody|tr|td|th|pre|code|ol|ul|li|p|b|i|a|br|style|details)\b"
    r"|\bstyle\s*=", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes: a docstring may show markup as an example (builder's
    ``<label for=…>``), which is documentation, not markup the widget builds."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def markup_in_python(source: str) -> list[str]:
    """Every string constant of ``source`` (f-strings' literal parts included: they are
    constants inside the JoinedStr) that holds a tag or an inline style, docstrings aside."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip and MARKUP_RE.search(node.value)]


def fragments_named(source: str) -> set[str]:
    """The fragment names a module asks its ``MARKUP`` for: every string constant in the
    first argument of a ``MARKUP(...)`` call (a conditional picks one of two)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "MARKUP" and node.args):
            names |= {c.value for c in ast.walk(node.args[0])
                      if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return names


def test_the_check_finds_inline_markup_and_styles():
    """The walk itself can fail: the explorer's old f-strings are caught, docstrings are not."""
    old = ('"""A docstring may say <div> and style=."""\n'
           "def f(e):\n"
           "    '''<b>doc</b>'''\n"
           "    x = f\"<div role='status' style='color:#8a4b00'><b>No:</b> {e}</div>\"\n"
           "    y = \"<tr style='background:red'>\"\n"
           "    return x + y + '3 < 4 and a > b'\n")
    found = sorted(markup_in_python(old))
    assert found == ["</div>", "<div role='status' style='color:#8a4b00'><b>No:</b> ",
                     "<tr style='background:red'>"], found
    assert fragments_named("MARKUP('a' if x else 'b', v=1); MARKUP('c'); other('d')") == \
        {"a", "b", "c"}


@pytest.mark.parametrize("stem", STEMS)
def test_the_module_builds_no_markup_and_no_inline_style(stem):
    source = (WIDGETS / f"{stem}.py").read_text(encoding="utf-8")
    assert markup_in_python(source) == []
    assert "import html\n" not in source  # escaping is the fragments' job now
    assert f'Markup("{stem}")' in source and f'style_sheet("{stem}")' in source


@pytest.mark.parametrize("stem", STEMS)
def test_every_fragment_is_used_and_every_one_used_exists(stem):
    fragments = set(Markup(stem).fragments)
    used = fragments_named((WIDGETS / f"{stem}.py").read_text(encoding="utf-8"))
    assert fragments, stem
    assert fragments - used == set(), f"{stem}.html: dead fragment(s)"
    assert used - fragments == set(), f"{stem}.py asks for fragment(s) {stem}.html lacks"
    css = (WIDGETS / f"{stem}.css").read_text(encoding="utf-8")
    assert "style=" not in "".join(t.template for t in Markup(stem).fragments.values())
    for name in re.findall(r"class='([^']+)'", (WIDGETS / f"{stem}.html").read_text()):
        for cls in name.split():  # a widget's own new classes are styled in its sheet
            if cls.startswith(("clx-", "clsc-", "clm-")) and "$" not in cls:
                assert f".{cls}" in css, (stem, cls)


def _sheet_first(widget, stem: str) -> None:
    first = widget.children[0]
    assert "crazylab-style" in first._dom_classes
    assert first.value == f"<style>{(WIDGETS / f'{stem}.css').read_text()}</style>"


def test_explorer_journey_same_words_classes_for_colours_and_escaped_once():
    ex = LegalMoveExplorer()
    _sheet_first(ex, "explorer")
    legal = sorted({m.cards[0].display for m in ex.game.legal_moves() if m.kind == PLAY})
    assert sorted(ex.table.index[ex.table["legal"]]) == legal
    message = ex.message.value
    assert message.startswith("<div role='status'><b>3 of 4</b> card(s) can be played: ")
    assert sorted(message.split(": ")[1].removesuffix(".</div>").split()) == legal
    table = ex.table_html.value
    assert table.startswith("<table class='crazylab-legal'><thead>")
    assert table.count("<tr class='clx-legal'>") == 3 and table.count("class='clx-illegal'") == 1
    assert "✘ not legal" in table and "<code>8S:C 8S:D 8S:H 8S:S</code>" in table
    assert "style=" not in message + table and "<style>" not in table
    assert "Top card" in ex.position_html.value and "class='clx-position'" in \
        ex.position_html.value
    # bad input: a refusal with the same words, then the position comes back
    ex.set(top="11H")
    assert ex.message.value.startswith(
        "<div role='status' class='clx-refusal'><b>Cannot set up this position:</b> ")
    assert "11H" in ex.message.value and ex.table is None and ex.table_html.value == ""
    ex.set(top="6H", hand="6C <b>x</b>")  # text from the user is escaped, and only once
    assert "&lt;b&gt;x&lt;/b&gt;" in ex.message.value and "&amp;" not in ex.message.value
    ex.set(hand="6C KH 8S 3D")
    assert ex.message.value == message and ex.table_html.value == table and not ex.errors


def test_explorer_names_each_pile_of_a_two_pile_level():
    ex = LegalMoveExplorer("crazy-8s-level-2", top="3D KS", hand="2C AS 4H")
    shown = ex.position_html.value
    assert shown.count("<div class='clx-pile'><div>Pile ") == 2
    assert "<div>Pile 0</div>" in shown and "<div>Pile 1</div>" in shown


def test_builder_journey_refusal_code_and_sheet():
    b = RuleBuilder("crazy-eights-classic")
    _sheet_first(b, "builder")
    assert b.children[1].value.startswith("<b>Build a rule set</b>: start from a preset")
    assert b.changed_html.value == ("<div class='clb-changed'><b>House rules:</b> none (the "
                                    "preset as it is)</div>")
    assert b.description.value.startswith("<i>The app&#x27;s classic rule")  # escaped once
    assert "<pre class='clb-python'>crazylab.rules(&quot;crazy-eights-classic&quot;)</pre>" \
        in b.code_html.value
    assert "<pre class='clb-cli'>crazylab play crazy-eights-classic</pre>" in b.code_html.value
    assert b.sheet.value.startswith("<div class='clb-sheet-text'><h1>")  # markup, not escaped
    assert "&lt;" not in b.sheet.value
    b.set_option("stacking", True)
    sheet, code = b.sheet.value, b.code_html.value
    b.set_option("chain", True)  # refused: the same words, role='alert', nothing changed
    refusal = b.error_area.value
    assert refusal.startswith("<div role='alert' class='clb-refusal'><b>These rules do not go "
                              "together; nothing was changed.</b> ")
    assert html.escape(b.refusals[-1]) in refusal and "style=" not in refusal
    assert b.sheet.value == sheet and b.code_html.value == code
    assert "stacking=true" in b.changed_html.value and "chain" not in b.changed_html.value
    doc = b.controls["voluntary_draw"].doc.value
    assert doc.startswith("<span class='clb-doc'>") and "style=" not in doc


def test_scoring_journey_table_working_and_refusal():
    calc = ScoreCalculator()
    _sheet_first(calc, "scoring")
    res = calc.result
    assert calc.message.value == ("<div role='status'>The winner collects the points of every "
                                  "card left in the other hands.</div>")
    work = calc.working_html.value
    assert work.startswith("<table class='crazylab-score'><thead><tr><th>seat</th><th>cards "
                           "left (points each)</th>")
    assert "<tr><th scope='row'>Seat 0</th><td>went out</td><td></td>" \
           f"<td><b>+{res.scores[0]}</b></td></tr>" in work
    assert "8♦&nbsp;50 + 3♣&nbsp;3" in work and "Q♥&nbsp;10 + A♠&nbsp;1" in work
    steps = re.findall(r"<li>(.*?)</li>", work)
    assert steps == [html.escape(line) for line in res.working()]
    # the card faces (crazylab.render's SVG, not this widget's markup) keep their own
    # double-quoted style attributes; the widget's single-quoted inline styles are gone
    assert "<ol class='clsc-working'>" in work and "style='" not in work
    calc.set_hand(1, "3X")  # bad input: the refusal, and no score
    assert calc.message.value.startswith(
        "<div role='status' class='clsc-refusal'><b>Cannot score this:</b> ")
    assert "3X" in calc.message.value and calc.result is None and calc.working_html.value == ""
    calc.set_hand(1, "8D 3C")
    assert calc.working_html.value == work and not calc.errors


def test_music_journey_summary_verdicts_downloads_and_piles():
    ex = IntervalExplorer("crazy-8s-level-3", top="3D")
    _sheet_first(ex, "music")
    summary = ex.summary.value
    assert summary.startswith("<div class='cl-music-summary'><b>")
    assert "<br>The rule: play a minor or major third, up or down.<br>On 3♦ (C) you may play: " \
        in summary
    assert ex.downloads.value.startswith(
        "<div class='cl-downloads' role='group' aria-label='Download the notes'>"
        "<b>The top card&#x27;s key and the keys that fit</b>")
    assert "download='crazylab-level-3-fits.mid' href='data:audio/midi;base64," \
        in ex.downloads.value
    ex.click_key("E")
    assert ex.cards_label.value == "<i>The cards of E: click one to see why</i>"
    ex.click_card("5H")
    assert ex.why.value.startswith("<div class='cl-why clm-fits'><b class='clm-verdict'>"
                                   "5♥: ✓ fits</b><br>")
    ex.click_card("2S")
    assert "<div class='cl-why clm-misfit'><b class='clm-verdict'>2♠: ✗ does not fit</b>" \
        in ex.why.value and html.escape(ex.reason) in ex.why.value
    assert "style=" not in ex.why.value + ex.downloads.value + summary
    ex.clear_tune()
    g = Game.from_position("crazy-8s-level-2", 2, hands=[["2C", "AS", "4H"], ["5S"]],
                           piles=[["3D"], ["KS"]], stock=["6D"])
    ex.show_game(g)
    assert "<br><b>pile 1: 3♦ (C)</b> · pile 2: K♠" in ex.summary.value
    ex.choose_pile(1)
    assert "<br>pile 1: 3♦ (C) · <b>pile 2: K♠" in ex.summary.value
    assert ex.cards_label.value == "<i>Seat 0&#x27;s hand: click a card to see why</i>"
    assert not ex.errors

"""The markup and style kept beside the widgets (widgets/_markup.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crazylab.widgets._markup import Html, Markup, style_sheet


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "demo.html").write_text(
        "<!-- Demo's fragments. -->\n"
        "<!-- fragment: row -->\n<tr><th>$name</th><td>$cell</td></tr>\n"
        "<!-- fragment: table -->\n<table class='demo'>$rows</table>\n", encoding="utf-8")
    (tmp_path / "demo.css").write_text(".demo { color: red; }\n", encoding="utf-8")
    return tmp_path


def test_fragments_escape_text_and_keep_markup(folder: Path) -> None:
    m = Markup("demo", folder)
    rows = Markup.join(m("row", name=f"<b>{i}</b>", cell=Html("<i>x</i>")) for i in (1, 2))
    out = m("table", rows=rows)
    assert out == ("<table class='demo'><tr><th>&lt;b&gt;1&lt;/b&gt;</th><td><i>x</i></td></tr>"
                   "<tr><th>&lt;b&gt;2&lt;/b&gt;</th><td><i>x</i></td></tr></table>")
    assert isinstance(out, Html)


def test_a_missing_or_unknown_placeholder_is_an_error(folder: Path) -> None:
    m = Markup("demo", folder)
    with pytest.raises(KeyError):
        m("row", name="a")
    with pytest.raises(KeyError, match="nope"):
        m("row", name="a", cell="b", nope="c")
    with pytest.raises(KeyError):
        m("no_such_fragment")


def test_a_fragment_defined_twice_is_refused(folder: Path) -> None:
    (folder / "twice.html").write_text("<!-- fragment: a -->\nx\n<!-- fragment: a -->\ny\n")
    with pytest.raises(ValueError, match="twice"):
        Markup("twice", folder)


def test_the_style_sheet_is_a_style_element(folder: Path) -> None:
    sheet = style_sheet("demo", folder)
    assert sheet.value == "<style>.demo { color: red; }\n</style>"
    assert "crazylab-style" in sheet._dom_classes

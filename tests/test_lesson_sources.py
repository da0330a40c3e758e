"""The lesson notebooks are built from jupytext sources (notebooks/lessons/NN_*.py) by
`make lessons` (tools/lessons.py): every committed lesson must match its source cell for
cell (kind, source, id), be executed, and carry its widgets' state."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lessons  # noqa: E402

SOURCES = lessons.sources()


def test_every_lesson_has_a_source_and_every_source_a_lesson():
    built = {p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert len(SOURCES) >= 7
    assert {s.stem for s in SOURCES} == built
    assert not list((ROOT / "notebooks").glob("build_*.py")), "the build scripts are gone"


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_committed_notebook_matches_its_source(source):
    assert lessons.out_of_date(source) == []


def test_cell_ids_are_stable_and_unique():
    nb1, nb2 = lessons.convert(SOURCES[0]), lessons.convert(SOURCES[0])
    ids = [c.id for c in nb1.cells]
    assert ids == [c.id for c in nb2.cells]
    assert len(set(ids)) == len(ids)


def test_a_changed_source_is_out_of_date(tmp_path, monkeypatch):
    source = tmp_path / "lessons" / SOURCES[0].name
    source.parent.mkdir()
    text = SOURCES[0].read_text()
    source.write_text(text.replace("# %% [markdown]\n", "# %% [markdown]\n# changed\n", 1))
    monkeypatch.setattr(lessons, "NOTEBOOKS", ROOT / "notebooks")
    monkeypatch.setattr(lessons, "ROOT", tmp_path)
    problems = lessons.out_of_date(source)
    assert problems and "differ" in problems[0]


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_lessons_are_saved_with_widget_state(source):
    nb = json.loads(lessons.target(source).read_text(encoding="utf-8"))
    views = [o for c in nb["cells"] for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert views, f"{source.name}: the saved notebook shows no widget (run `make lessons`)"
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    for view in views:
        assert view["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] in state


def test_glossary_and_sheets_pages_match_their_sources():
    assert lessons.pages_out_of_date() == []


def test_no_notebook_saves_a_memory_address():
    """Saved outputs are the same on every machine: no ``<... object at 0x7f...>`` reprs."""
    import re

    found = {p.name: m.group(0) for p in sorted((ROOT / "notebooks").rglob("*.ipynb"))
             if (m := re.search(r"object at 0x[0-9a-f]+", p.read_text(encoding="utf-8")))}
    assert found == {}

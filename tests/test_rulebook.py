"""crazylab's own rulebook (``crazylab/rulebook/``): every page parses, every id has one entry of
a known kind on its rule set's page, house rulings say what the seed says, what crazylab decides
and why, cross-references resolve, the loader refuses malformed pages, the pages ship as
package data, and ``notebooks/rulebook.ipynb`` has an anchor for every id."""

from __future__ import annotations

import ast
import doctest
import json
import re
import sys
import tomllib

import pytest
from spec_paths import ROOT, RULEBOOK, entries

from crazylab import rulebook
from crazylab.engine.rules import PRESETS
from crazylab.rulebook import RulebookError, parse

ENTRIES = entries()
ID = r"(?:(?:C|SR|AP|MU|BR)-[A-Z]?\d+|[AV]\d+)"
#: the id prefixes each page holds
PREFIXES = {"common": ("C-",), "crazy-eights": ("SR-",), "crazy-eights-app": ("AP-",),
            "crazy-breens": ("BR-",), "crazy-8s-music": ("MU-",), "options": ("A", "V")}
NOTEBOOK = ROOT / "notebooks" / "rulebook.ipynb"


def test_the_package_reads_the_repositorys_pages():
    assert RULEBOOK.resolve() == rulebook.FOLDER  # not another checkout's
    assert rulebook.entries() == ENTRIES and rulebook.ids() == set(ENTRIES)


def test_every_family_is_there_with_its_kinds():
    kinds = [e.kind for e in ENTRIES.values()]
    assert len(ENTRIES) >= 351
    assert {k: kinds.count(k) for k in set(kinds)} == {
        k: kinds.count(k) for k in ("seed", "derived", "ruling", "convention", "vector",
                                    "option", "variant")}
    assert kinds.count("seed") >= 80 and kinds.count("ruling") >= 150
    assert kinds.count("vector") >= 50 and kinds.count("convention") == 16
    for page in rulebook.PAGES[1:5]:  # each rule set has seed rules, rulings and vectors
        on_page = {e.kind for e in ENTRIES.values() if e.page == page}
        assert {"seed", "ruling", "vector"} <= on_page, page


@pytest.mark.parametrize("page", rulebook.PAGES)
def test_each_page_holds_its_own_rule_set_in_order(page):
    found = [rid for rid, e in ENTRIES.items() if e.page == page]
    assert found and all(rid.startswith(PREFIXES[page]) for rid in found)
    numbered = [rid for rid in found if re.fullmatch(r"[A-Z]+-\d+", rid)]
    assert numbered == sorted(numbered, key=lambda r: int(r.split("-")[1]))
    gaps = {int(r.split("-")[1]) for r in numbered}
    assert not numbered or gaps == set(range(1, max(gaps) + 1)), "a numbered rule is missing"


@pytest.mark.parametrize("rid", sorted(r for r in ENTRIES if "-Q" in r))
def test_every_house_ruling_says_seed_decision_and_why(rid):
    e = ENTRIES[rid]
    assert e.kind == "ruling"
    lines = e.body.splitlines()
    for lead in ("- **Seed:** ", "- **crazylab:** ", "- **Why:** "):
        hit = [line for line in lines if line.startswith(lead)]
        assert len(hit) == 1 and len(hit[0]) > len(lead) + 3, (rid, lead)


def test_entries_say_something_and_titles_are_short():
    assert ENTRIES, "the rulebook has no entry"
    for rid, e in ENTRIES.items():
        assert 2 <= len(e.title) <= 70, rid
        assert len(e.body) >= 20, rid
        assert "shared/" not in e.body and "rulings.md" not in e.body, rid


def test_every_id_a_rulebook_page_mentions_exists():
    for page in (*rulebook.PAGES, rulebook.NOTATION):
        text = (RULEBOOK / f"{page}.md").read_text(encoding="utf-8")
        named = set(re.findall(rf"(?<![\w-])({ID})(?![\w-])", text))
        named = {n for n in named if not re.fullmatch(r"[AV]\d+", n) or n in ENTRIES}
        assert named - set(ENTRIES) == set(), page


def test_a_seed_rule_settled_by_a_ruling_names_a_house_ruling():
    settled = [e for e in ENTRIES.values() if e.settled_by]
    assert len(settled) >= 10
    for e in settled:
        assert all(ENTRIES[r].kind == "ruling" and "-Q" in r for r in e.settled_by), e.id


def test_every_preset_has_a_page():
    assert set(rulebook.PRESET_PAGES) == set(PRESETS)
    for preset in PRESETS:
        page = rulebook.page_of(preset)
        assert rulebook.markdown(preset) == rulebook.markdown(page)
        title = rulebook.markdown(page).splitlines()[0]
        assert f"`{preset}`" in title or f"`{preset[:-1]}1` … `{preset[:-1]}5`" in title


def test_unknown_pages_and_ids_are_refused():
    with pytest.raises(RulebookError, match="no rulebook page 'uno'"):
        rulebook.markdown("uno")
    with pytest.raises(RulebookError, match="no rule 'SR-99'"):
        rulebook.entry("SR-99")
    with pytest.raises(RulebookError, match="no preset"):
        rulebook.page_of("common")
    assert rulebook.entry("BR-Q14").options == ("jack_counters_joker",)
    assert rulebook.entry("SR-17").settled_by == ("SR-Q2",)
    assert rulebook.entry("SR-17").link() == "rulebook.ipynb#SR-17"


GOOD = "### SR-1\n**Title** · *Seed rule · option `hand_size`*\n\nText.\n"


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("**Title** · ", ""), "a heading without the entry format"),
    (GOOD.replace("Seed rule", "Rumour"), "kind 'Rumour'"),
    (GOOD + GOOD, "SR-1 twice"),
    (GOOD.replace("### SR-1", "### SR-1 · Title"), "a heading without the entry format"),
    (GOOD.replace("Text.", ""), "says nothing"),
    (GOOD.replace("· option", "· see"), "after the kind comes `option"),
])
def test_a_malformed_page_is_refused(text, message):
    assert parse("probe", GOOD)["SR-1"].options == ("hand_size",)
    with pytest.raises(RulebookError, match=re.escape(message)):
        parse("probe", text)


def test_the_loader_is_standard_library_only_and_its_examples_hold():
    tree = ast.parse((RULEBOOK / "__init__.py").read_text(encoding="utf-8"))
    imported = {(n.module or "").split(".")[0] for n in ast.walk(tree)
                if isinstance(n, ast.ImportFrom)}
    imported |= {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                 for a in n.names}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    assert doctest.testmod(rulebook).failed == 0


def test_the_pages_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert "crazylab.rulebook" in config["setuptools"]["packages"]
    assert "*.md" in config["setuptools"]["package-data"]["crazylab.rulebook"]
    assert {p.stem for p in RULEBOOK.glob("*.md")} == {*rulebook.PAGES, rulebook.NOTATION}


def notebook_markdown() -> str:
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_rulebook_notebook_has_one_anchor_per_id_and_its_links_resolve():
    """Each rule's heading is its id alone: Voilà and JupyterLab give a heading the anchor of
    its text, so ``rulebook.ipynb#SR-17`` finds it in both (JupyterLab drops ``<a id>``)."""
    text = notebook_markdown()
    headings = re.findall(r"^#{1,6} (.+)$", text, flags=re.M)
    anchors = re.findall(r'<a id="([^"]+)"></a>', text)
    assert {a for a in anchors} == {
        "rulebook-contents", *(f"rulebook-{p}" for p in (*rulebook.PAGES, rulebook.NOTATION))}
    ids = [h for h in headings if h in ENTRIES]
    assert sorted(ids) == sorted(ENTRIES)  # once each
    assert not set(anchors) & set(headings)
    for rid, e in ENTRIES.items():  # the title and kind right under the heading
        assert re.search(rf"^### {re.escape(rid)}\n\*\*{re.escape(e.title)}\*\* · \*", text,
                         flags=re.M), rid
    anchors += ids
    targets = set(re.findall(r"\]\(#([^)]+)\)", text))
    assert len(targets) > 80 and targets - set(anchors) == set()
    assert "shared/" not in text and "rulings.md" not in text

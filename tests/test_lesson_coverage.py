"""Course coverage: each rule id of the rulebook (``crazylab/rulebook/``) with the test that
names it, the lessons that teach it and the exercises that ask about it (``python
tests/test_lesson_coverage.py`` prints the table). Fails when a seed rule, a derived rule, a
test vector or a worked example is taught by no lesson, when a seed rule has no exercise, when
a lesson teaches (mentions) a rule id that none of its own exercises asks about, when an
exercise names an id the rulebook does not have, and when a lesson mentions a house ruling
without marking it as one with a link to it.

House-ruling links are written ``[house ruling ID](rulebook.ipynb#ID)``: crazylab's rulebook
page ``notebooks/rulebook.ipynb`` (built from ``crazylab/rulebook/`` by ``make lessons``; the
lessons are built into ``notebooks/`` too), with the rule id as the anchor. Every link of a
lesson into the rulebook names a rule id the rulebook has, and no lesson points outside the
repository (``shared/spec``).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from spec_paths import rule_kinds

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks" / "lessons").glob("[0-9][0-9]_*.py"))
LINK = re.compile(r"\[house\s+ruling\s+([A-Z]+-[A-Z]?\d+)\]\(rulebook\.ipynb"
                  r"#([A-Z]+-[A-Z]?\d+)\)")
#: any link into the rulebook page, with its anchor (if any)
RULEBOOK_LINK = re.compile(r"\]\(rulebook\.ipynb(?:#([^)\s]*))?\)")
ID = r"(?:C|SR|AP|MU|BR)-(?:[DTQM]?\d+)"


def rulebook() -> dict[str, str]:
    """Every rule id of the rulebook and its kind: seed, derived, ruling (the rulebook's own
    decisions: the house rulings, [ruling] rules, the Breens resolution model), vector (a
    test vector) or convention (the common engine conventions C-1 … C-16, which mix both)."""
    return rule_kinds()


RULES = rulebook()


def mentions(text: str, rid: str) -> bool:
    return re.search(re.escape(rid) + r"(?![\d])", text) is not None


def markdown_of(source: Path) -> str:
    """The markdown cells of a percent-format lesson."""
    out, keep = [], False
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.startswith("# %%"):
            keep = "[markdown]" in line
            continue
        if keep:
            out.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
    return "\n".join(out)


def exercises_of(source: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(function, rule ids) of every exercise a lesson builds: calls of ``*_exercise`` or
    ``Exercise`` with a constant ``rules=`` string."""
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if not (name.endswith("_exercise") or name == "Exercise"):
            continue
        for kw in node.keywords:
            if kw.arg == "rules" and isinstance(kw.value, ast.Constant):
                found.append((name, tuple(str(kw.value.value).split())))
    return found


TEXT = {s.stem: s.read_text(encoding="utf-8") for s in LESSONS}
EXERCISES = {s.stem: exercises_of(s) for s in LESSONS}
ASKED = {rid for items in EXERCISES.values() for _, ids in items for rid in ids}


def coverage() -> list[dict[str, str]]:
    """One row per rule id: kind, the first test naming it, the lessons and exercises."""
    rows = []
    for rid, kind in sorted(RULES.items()):
        pattern = rid.replace("-", "[-_]") + r"(?!\d)"
        test = next((p.stem for p in Path(__file__).parent.glob("test_*.py")
                     if p.name != Path(__file__).name and re.search(pattern, p.read_text())), "")
        lessons = [stem[:2] for stem, text in TEXT.items() if mentions(text, rid)]
        asked = [stem[:2] for stem, items in EXERCISES.items()
                 if any(rid in ids for _, ids in items)]
        rows.append({"id": rid, "kind": kind, "test": test, "lessons": " ".join(lessons),
                     "exercises": " ".join(asked)})
    return rows


def test_the_rulebook_parser_finds_every_family():
    kinds = list(RULES.values())
    assert len(RULES) >= 316 and kinds.count("seed") >= 80 and kinds.count("vector") >= 45
    # (no rule is named here: tests/test_rule_coverage.py counts a test that names an id)
    assert set(kinds) == {"seed", "derived", "ruling", "vector", "convention"}
    assert all(RULES[rid] == "ruling" for rid in RULES if "-Q" in rid or "-M" in rid)
    assert all(RULES[rid] == "derived" for rid in RULES if "-D" in rid)


@pytest.mark.parametrize("kind", ["seed", "derived", "vector"])
def test_every_seed_rule_derived_rule_and_test_vector_is_taught(kind):
    untaught = [rid for rid, k in RULES.items()
                if k == kind and not any(mentions(t, rid) for t in TEXT.values())]
    assert untaught == [], f"no lesson teaches these {kind} rules"


def test_every_seed_rule_has_an_exercise():
    unasked = sorted(rid for rid, k in RULES.items() if k == "seed" and rid not in ASKED)
    assert unasked == []


def unexercised(texts: dict[str, str],
                exercises: dict[str, list[tuple[str, tuple[str, ...]]]]) -> list[tuple[str, str]]:
    """(lesson, rule id) for every id a lesson mentions (teaches) but none of its own
    exercises names."""
    return sorted((stem, rid) for stem, text in texts.items() for rid in RULES
                  if mentions(text, rid)
                  and not any(rid in ids for _, ids in exercises.get(stem, [])))


def test_every_rule_a_lesson_teaches_has_an_exercise_in_that_lesson():
    assert unexercised(TEXT, EXERCISES) == []


def test_a_taught_rule_without_an_exercise_is_caught(tmp_path):
    """The guard above fails on a lesson that teaches an id (here AP-2, in markdown) that no
    exercise of that lesson names, even when another lesson asks about it."""
    source = tmp_path / "99_probe.py"
    source.write_text('# %% [markdown]\n# A regular deck (AP-2), eights wild (AP-7).\n\n'
                      '# %%\nchoice_exercise("Wild?", ["yes", "no"], "yes", "AP-7", '
                      'rules="AP-7")\n', encoding="utf-8")
    texts = {"99_probe": source.read_text(encoding="utf-8")}
    found = exercises_of(source)
    assert found == [("choice_exercise", ("AP-7",))]
    assert unexercised(texts, {"99_probe": found}) == [("99_probe", "AP-2")]
    assert unexercised(texts, {"99_probe": found + [("Exercise", ("AP-2",))]}) == []


def test_every_lesson_asks_and_every_exercise_names_real_rules():
    for stem, items in EXERCISES.items():
        assert len(items) >= 3, f"{stem} has {len(items)} exercises"
        for name, ids in items:
            assert ids, f"{stem}: {name} names no rule"
            assert set(ids) <= set(RULES), f"{stem}: {name} names unknown ids {ids}"


def test_every_worked_example_is_taught():
    examples = [p.stem for p in (ROOT / "crazylab" / "examples").glob("*.json")
                if not p.name.endswith(".schema.json")]  # the format, not an example
    assert len(examples) >= 60
    untaught = [e for e in examples if not any(e in t for t in TEXT.values())]
    assert untaught == []


@pytest.mark.parametrize("source", LESSONS, ids=[s.stem for s in LESSONS])
def test_house_rulings_are_marked_and_linked(source):
    text = markdown_of(source)
    links = LINK.findall(text)
    for shown, target in links:
        assert shown == target and RULES.get(target) == "ruling", (shown, target)
    linked = {target for _, target in links}
    mentioned = {rid for rid, k in RULES.items() if k == "ruling" and mentions(text, rid)}
    assert mentioned - linked == set(), "mention a house ruling only with its link"
    assert "shared/spec" not in text and "rulings.md" not in text, "a link out of the repository"
    anchors = [a for a in RULEBOOK_LINK.findall(text) if a]
    assert len(anchors) >= len(links) and set(anchors) <= set(RULES), \
        f"a rulebook link to no rule id: {set(anchors) - set(RULES)}"


@pytest.mark.parametrize("source", LESSONS, ids=[s.stem for s in LESSONS])
def test_every_lesson_has_navigation_and_a_recap(source):
    text = markdown_of(source)
    assert "## Recap" in text and "](index.ipynb)" in text and "](glossary.ipynb)" in text
    assert "](sheets.ipynb)" in text, "the recap links the rules sheets"
    names = [s.stem for s in LESSONS]
    i = names.index(source.stem)
    for neighbour in names[max(i - 1, 0):i] + names[i + 1:i + 2]:
        assert f"]({neighbour}.ipynb)" in text, f"no link to {neighbour}"
    assert "rules_sheet(" in TEXT[source.stem], "the recap shows the rules sheet"


if __name__ == "__main__":  # print the coverage table
    rows = coverage()
    print("| id | kind | test | lessons | exercises |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['id']} | {r['kind']} | {r['test']} | {r['lessons']} | {r['exercises']} |")
    seed = [r for r in rows if r["kind"] in ("seed", "derived", "vector")]
    print(f"\n{len(rows)} ids; {sum(bool(r['lessons']) for r in rows)} taught, "
          f"{sum(bool(r['exercises']) for r in rows)} asked, {sum(bool(r['test']) for r in rows)} "
          f"tested; seed/derived/vector {len(seed)}, untaught "
          f"{sum(not r['lessons'] for r in seed)}", file=sys.stderr)

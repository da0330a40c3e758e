"""Build the lesson notebooks from their sources: ``notebooks/lessons/NN_*.py`` (jupytext
percent format) → ``notebooks/NN_*.ipynb``, executed, with the widgets' state saved so the
lessons render on GitHub and nbviewer.

    .venv/bin/python tools/lessons.py            # every lesson (what `make lessons` runs)
    .venv/bin/python tools/lessons.py 04 06      # only the lessons whose names contain these
    .venv/bin/python tools/lessons.py --check    # say which notebooks are out of date

It also writes the printable rules sheet of every preset, ``notebooks/sheets/NAME.md``
(``crazylab.sheet.rules_sheet``), and two markdown-only notebooks that Voilà can show (it
serves no .md file): ``notebooks/sheets.ipynb`` (every sheet), ``notebooks/glossary.ipynb``
(from ``notebooks/glossary.md``) and ``notebooks/rulebook.ipynb`` (crazylab's rulebook, from
``crazylab/rulebook/*.md``: one anchor per rule id, so a lesson links ``rulebook.ipynb#SR-17``).

While a lesson runs, its exercises take their ids (``e01`` … in the order its cells make them,
``crazylab.widgets.exercise``); the build asks the kernel for them afterwards and writes the
catalogue ``crazylab/classroom/catalog.json``: per lesson its title (the first heading), every
exercise id with its rule ids and question (plain text), the practice set's rule sets and kinds
(the lesson's ``practice_set(...)`` call) and the source's sha1, so ``--check`` (and the tests)
can tell a catalogue older than its lesson.

Cell ids are derived from the cell's source (a hash), so a rebuild writes identical ids, and
widget model ids come from a seeded generator in the kernel, so a rebuild of an unchanged
source writes an identical file. ``tests/test_lesson_sources.py`` fails when a committed
notebook's cells differ from its source.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / "lessons"
CATALOG = ROOT / "crazylab" / "classroom" / "catalog.json"
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

# Run in the kernel before the lesson: widget (comm) ids from a seeded generator instead of
# uuid4, so the saved widget state is the same on every build.
STABLE_IDS = """\
def _stable_ids():
    import random
    import uuid

    ids = random.Random(20261203)
    uuid.uuid4 = lambda: uuid.UUID(int=ids.getrandbits(128), version=4)


_stable_ids()
del _stable_ids
"""


def sources() -> list[Path]:
    """Every lesson source, in order."""
    return sorted(SOURCES.glob("[0-9][0-9]_*.py"))


def target(source: Path) -> Path:
    """The notebook a source builds."""
    return NOTEBOOKS / (source.stem + ".ipynb")


def cell_id(cell: nbformat.NotebookNode, seen: set[str]) -> str:
    """A stable id from the cell's kind and source (a repeated source gets -2, -3 …)."""
    digest = hashlib.sha1(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:10]
    base, n = f"c{digest}", 1
    ident = base
    while ident in seen:
        n += 1
        ident = f"{base}-{n}"
    seen.add(ident)
    return ident


def convert(source: Path) -> nbformat.NotebookNode:
    """The notebook of a source, not executed, with stable cell ids."""
    nb = jupytext.read(source, fmt="py:percent")
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata.get("jupytext", {}).pop("text_representation", None)
    seen: set[str] = set()
    for cell in nb.cells:
        cell["id"] = cell_id(cell, seen)
        cell.metadata.pop("lines_to_next_cell", None)
    return nb


# Run in the kernel after the lesson (a cell not kept in the notebook): the exercises it made.
CATALOG_MARK = "crazylab-catalogue:"
ASK_CATALOGUE = f"""\
import json as _json
from crazylab.widgets.exercise import catalogue as _catalogue
print({CATALOG_MARK!r}, _json.dumps(_catalogue()))
"""


def build(source: Path) -> Path:
    """Convert, execute (saving the widgets' state) and write one lesson; its catalogue
    entry is :func:`lesson_entry`'s (kept in ``ENTRIES`` until :func:`write_catalog`)."""
    nb = convert(source)
    nb.cells.append(nbformat.v4.new_code_cell(ASK_CATALOGUE))
    with tempfile.TemporaryDirectory() as ipython_dir:
        startup = Path(ipython_dir, "profile_default", "startup")
        startup.mkdir(parents=True)
        (startup / "00-stable-ids.py").write_text(STABLE_IDS)
        old = os.environ.get("IPYTHONDIR")
        os.environ["IPYTHONDIR"] = ipython_dir
        os.environ.setdefault("PLOTLY_RENDERER", "plotly_mimetype")
        try:
            NotebookClient(nb, timeout=180, kernel_name="python3", record_timing=False,
                           store_widget_state=True,
                           resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
        finally:
            if old is None:
                os.environ.pop("IPYTHONDIR", None)
            else:
                os.environ["IPYTHONDIR"] = old
    asked = nb.cells.pop()
    said = "".join(o.get("text", "") for o in asked.get("outputs", []) if o.get("name") == "stdout")
    made = json.loads(said.split(CATALOG_MARK, 1)[1]) if CATALOG_MARK in said else {}
    if source.stem not in made:
        raise SystemExit(f"{source.name}: its exercises name no lesson {source.stem!r} (found "
                         f"{sorted(made)}): the first cell must show class_bar({source.stem!r})")
    ENTRIES[source.stem] = lesson_entry(source, made[source.stem])
    nbformat.validate(nb)
    path = target(source)
    nbformat.write(nb, path)
    return path


# --------------------------------------------------------------------------- the catalogue

ENTRIES: dict[str, dict[str, object]] = {}


def title_of(source: Path) -> str:
    """A lesson's title: the first heading of its notebook."""
    for cell in jupytext.read(source, fmt="py:percent").cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return source.stem


def practice_of(source: Path) -> dict[str, list[str]]:
    """The rule sets and kinds of the lesson's ``practice_set(lesson, rule_sets, kinds=...)``
    (literal arguments), or empty lists when it has none."""
    found: dict[str, list[str]] = {"rule_sets": [], "kinds": []}
    for cell in jupytext.read(source, fmt="py:percent").cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse("\n".join(line for line in cell.source.splitlines()
                                       if not line.lstrip().startswith(("%", "!"))))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                    node.func, "attr", "")) == "practice_set":
                if len(node.args) > 1:
                    found["rule_sets"] = [str(r) for r in ast.literal_eval(node.args[1])]
                for kw in node.keywords:
                    if kw.arg == "rule_sets":
                        found["rule_sets"] = [str(r) for r in ast.literal_eval(kw.value)]
                    if kw.arg == "kinds":
                        found["kinds"] = [str(k) for k in ast.literal_eval(kw.value)]
    return found


def source_sha1(source: Path) -> str:
    return hashlib.sha1(source.read_bytes()).hexdigest()


def lesson_entry(source: Path, exercises: dict[str, object]) -> dict[str, object]:
    """One lesson's catalogue entry from the exercises its run made."""
    return {"title": title_of(source), "source_sha1": source_sha1(source),
            "exercises": dict(sorted(exercises.items())), "practice": practice_of(source)}


def read_catalog() -> dict[str, object]:
    """The committed catalogue (an empty one if there is none)."""
    try:
        data = json.loads(CATALOG.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": 1, "lessons": {}}
    return data if isinstance(data, dict) else {"version": 1, "lessons": {}}


def write_catalog(entries: dict[str, dict[str, object]]) -> Path:
    """The catalogue with ``entries`` replacing their lessons' (the others kept as they
    were), in course order, for the lessons that have a source."""
    old = read_catalog().get("lessons")
    lessons = dict(old) if isinstance(old, dict) and not read_catalog().get(
        "provisional") else {}
    lessons.update(entries)
    ordered = {s.stem: lessons[s.stem] for s in sources() if s.stem in lessons}
    CATALOG.write_text(json.dumps({"version": 1, "lessons": ordered}, indent=1,
                                  ensure_ascii=False) + "\n", encoding="utf-8")
    return CATALOG


def catalog_out_of_date(chosen: list[Path] | None = None) -> list[str]:
    """What the committed catalogue lacks or has stale (empty when it matches the lessons:
    each built from the source as it is, its title and practice as the source has them)."""
    data = read_catalog()
    lessons = data.get("lessons") if isinstance(data.get("lessons"), dict) else {}
    assert isinstance(lessons, dict)
    problems = []
    if data.get("provisional"):
        problems.append("catalog.json is provisional: run `make lessons`")
    for source in chosen if chosen is not None else sources():
        entry = lessons.get(source.stem)
        if not isinstance(entry, dict):
            problems.append(f"catalog.json has no lesson {source.stem}: run `make lessons`")
        elif (entry.get("source_sha1") != source_sha1(source)
              or entry.get("title") != title_of(source)
              or entry.get("practice") != practice_of(source)):
            problems.append(f"catalog.json is older than lessons/{source.name}: "
                            "run `make lessons`")
        elif not entry.get("exercises"):
            problems.append(f"catalog.json lists no exercise of {source.stem}")
    if chosen is None:
        extra = sorted(set(lessons) - {s.stem for s in sources()})
        problems += [f"catalog.json lists {x}, which has no source" for x in extra]
    return problems


def out_of_date(source: Path) -> list[str]:
    """What differs between a source and its committed notebook (empty when in step)."""
    path = target(source)
    if not path.exists():
        return [f"{path.name} is missing: run `make lessons`"]
    want = convert(source)
    have = nbformat.read(path, as_version=4)
    problems = []
    if len(want.cells) != len(have.cells):
        problems.append(f"{path.name}: {len(have.cells)} cells, the source has "
                        f"{len(want.cells)}")
    differ = [i for i, (a, b) in enumerate(zip(want.cells, have.cells, strict=False))
              if (a.cell_type, a.source, a.id) != (b.cell_type, b.source, b.get("id"))]
    if differ:
        problems.append(f"{path.name}: cell(s) {', '.join(map(str, differ[:8]))}"
                        f"{' …' if len(differ) > 8 else ''} differ from "
                        f"{source.relative_to(ROOT)}: run `make lessons`")
    for i, cell in enumerate(have.cells):
        if cell.cell_type == "code" and cell.get("execution_count") is None:
            problems.append(f"{path.name}: cell {i} was not executed")
    return problems


RULEBOOK_INTRO = """\
# The crazylab rulebook

Every rule crazylab plays, rule set by rule set, in crazylab's own words. Each rule has an id
(SR-10, BR-Q14 …): the lessons, the exercises and the tests cite it, and `rulebook.ipynb#ID`
opens this page at it. [Back to the start](index.ipynb) · [Glossary](glossary.ipynb) ·
[Rules sheets](sheets.ipynb)

The four rule sets come from four short rule documents, the *seeds*: a web page on five-card
Crazy Eights, a Crazy Eights app's help page, the Crazy Breens family page and a musical deck's
rule sheet. Each rule is marked with what it is:

* **Seed rule**: the seed says it; **Derived rule**: it follows from what the seed says;
* **House ruling**: the seed is silent or unclear, so crazylab decides. A house ruling says
  what the seed says, what crazylab decides, and why;
* **Convention**: how crazylab plays every rule set (seats, dealing, reshuffles …);
* **Test vector**: a worked case the tests replay;
* the **option** that changes a rule, when there is one (`docs/OPTIONS.md` lists their values;
  in Python `crazylab.rules("crazy-eights", voluntary_draw=False)`).

"""


#: Voilà shows a page only once its kernel is up (``#rendered_cells`` is hidden until then), so
#: the browser's own jump to ``#SR-17`` finds nothing to scroll to on a slow start: this waits
#: for the anchor to be shown, then jumps once (JupyterLab and GitHub strip the script and
#: scroll by themselves).
SCROLL_TO_HASH = """\
<script>
(function () {
  var id = decodeURIComponent(location.hash.slice(1)), tries = 0;
  if (!id) { return; }
  (function jump() {
    var e = document.getElementById(id);
    if (e && e.getClientRects().length) { e.scrollIntoView(); return; }
    if (++tries < 1200) { setTimeout(jump, 100); }
  })();
})();
</script>"""


def link_rule_ids(text: str, known: set[str]) -> str:
    """Markdown with every known rule id outside code, headings and anchors linked to its
    anchor on the same page (``SR-Q2`` → ``[SR-Q2](#SR-Q2)``)."""
    from crazylab.rulebook import ID_PATTERN

    pattern = re.compile(rf"(?<![\w#\[/-])({ID_PATTERN})(?![\w-])")

    def link(m: re.Match[str]) -> str:
        return f"[{m[1]}](#{m[1]})" if m[1] in known else m[0]

    lines = []
    for line in text.splitlines():
        if not line.startswith(("#", "<a id=")):
            parts = re.split(r"(`[^`]*`)", line)
            line = "".join(p if i % 2 else pattern.sub(link, p) for i, p in enumerate(parts))
        lines.append(line)
    return "\n".join(lines)


def rulebook_notebook() -> nbformat.NotebookNode:
    """notebooks/rulebook.ipynb: an introduction with the contents, then one markdown cell per
    rulebook page (``crazylab.rulebook``), each opening with an anchor ``rulebook-PAGE``."""
    sys.path.insert(0, str(ROOT))
    from crazylab import rulebook

    known = rulebook.ids()
    titles = {p: rulebook.markdown(p).split("\n", 1)[0].lstrip("# ").strip()
              for p in (*rulebook.PAGES, rulebook.NOTATION)}
    contents = "\n".join(f"{i}. [{title}](#rulebook-{page})"
                          for i, (page, title) in enumerate(titles.items(), 1))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(
        RULEBOOK_INTRO + f"## Contents\n\n{contents}\n\n"
        f"{len(known)} rule ids in all.")]
    for page in titles:
        body = rulebook.markdown(page).strip()
        nb.cells.append(nbformat.v4.new_markdown_cell(
            f'<a id="rulebook-{page}"></a>\n\n' + link_rule_ids(body, known)
            + "\n\n[Back to the contents](#rulebook-contents)"))
    nb.cells[0].source = ('<a id="rulebook-contents"></a>\n\n' + nb.cells[0].source
                          + "\n\n" + SCROLL_TO_HASH)
    return nb


def pages() -> dict[Path, nbformat.NotebookNode]:
    """The markdown-only pages built beside the lessons, so that Voilà (which serves no .md
    file) shows them too: glossary.ipynb from glossary.md, sheets.ipynb with the rules
    sheet of every preset, and rulebook.ipynb (``rulebook_notebook``)."""
    sys.path.insert(0, str(ROOT))
    import crazylab as cl
    from crazylab.sheet import rules_sheet

    glossary = jupytext.read(NOTEBOOKS / "glossary.md", fmt="md")
    sheets = nbformat.v4.new_notebook()
    sheets.cells = [nbformat.v4.new_markdown_cell(
        "# Rules sheets\n\n"
        "One printable page per rule set, written by `crazylab.sheet.rules_sheet` from the rule "
        "set itself (so a sheet follows its options: `rules_sheet(cl.rules(\"crazy-eights\", "
        "voluntary_draw=False))`). The same sheets are Markdown files in `notebooks/sheets/`. "
        "[Back to the start](index.ipynb) · [Glossary](glossary.ipynb)")]
    sheets.cells += [nbformat.v4.new_markdown_cell(rules_sheet(cl.rules(name)).strip())
                     for name in cl.PRESETS]
    out = {}
    for path, nb in ((NOTEBOOKS / "glossary.ipynb", glossary),
                     (NOTEBOOKS / "sheets.ipynb", sheets),
                     (NOTEBOOKS / "rulebook.ipynb", rulebook_notebook())):
        nb.nbformat, nb.nbformat_minor = 4, 5
        nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
        seen: set[str] = set()
        for cell in nb.cells:
            cell.metadata = {}
            cell["id"] = cell_id(cell, seen)
        out[path] = nb
    return out


def pages_out_of_date() -> list[str]:
    """The built pages that differ from what ``pages()`` writes."""
    problems = []
    for path, want in pages().items():
        have = nbformat.read(path, as_version=4) if path.exists() else None
        if have is None or [(c.source, c.id) for c in have.cells] != [
                (c.source, c.id) for c in want.cells]:
            problems.append(f"{path.name} is out of date: run `make lessons`")
    return problems


def write_sheets() -> list[Path]:
    """notebooks/sheets/NAME.md: the printable rules sheet of every preset."""
    sys.path.insert(0, str(ROOT))
    import crazylab as cl
    from crazylab.sheet import rules_sheet

    folder = NOTEBOOKS / "sheets"
    folder.mkdir(exist_ok=True)
    paths = []
    for name in cl.PRESETS:
        path = folder / f"{name}.md"
        path.write_text(rules_sheet(cl.rules(name)), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str]) -> int:
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    chosen = [s for s in sources() if not names or any(n in s.name for n in names)]
    if check:
        problems = [p for s in chosen for p in out_of_date(s)] + pages_out_of_date()
        problems += catalog_out_of_date(None if not names else chosen)
        print("\n".join(problems) or "every lesson notebook matches its source")
        return 1 if problems else 0
    print("writing", len(write_sheets()), "rules sheets in notebooks/sheets/")
    for path, nb in pages().items():
        nbformat.validate(nb)
        nbformat.write(nb, path)
        print("writing", path.relative_to(ROOT))
    for source in chosen:
        print("building", build(source).relative_to(ROOT), flush=True)
    if chosen:
        count = sum(len(e["exercises"]) for e in ENTRIES.values())  # type: ignore[arg-type]
        print("writing", write_catalog(ENTRIES).relative_to(ROOT), f"({count} exercises in "
              f"{len(ENTRIES)} lesson(s) built now)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

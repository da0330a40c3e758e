"""The documentation site: `make docs`'s Sphinx build (docs/conf.py, MyST-NB) with warnings as
errors, then every local link of the built pages resolves (docs/check_links.py, offline).
Built once per module into a temporary folder, with the Makefile's own options."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser_support import REPO_ROOT

pytestmark = pytest.mark.docs

sys.path.insert(0, str(REPO_ROOT / "docs"))
import check_links  # noqa: E402

pytest.importorskip("myst_nb", reason="the docs extra: pip install -e '.[docs]'")


def _makefile_sphinx_args() -> list[str]:
    """The options of `make docs`'s sphinx line (between `sphinx` and the source folder)."""
    recipe = (REPO_ROOT / "Makefile").read_text().split("\ndocs: venv\n", 1)[1]
    line = next(x for x in recipe.splitlines() if "-m sphinx" in x)
    args = line.split("-m sphinx", 1)[1].split()
    return args[: args.index("docs")]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str], float]:
    out = tmp_path_factory.mktemp("docs")
    args = _makefile_sphinx_args()
    assert "-W" in args and "-n" in args  # warnings fail the build; nitpicky cross-references
    args = [a for a in args if not a.startswith("_build")]
    if "-d" in args:  # its own doctrees: a full build, not the developer's cache
        args.remove("-d")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "sphinx", *args, "-d", str(out / ".doctrees"),
                           "docs", str(out / "html")], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=900)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out / "html", proc, cpu


def test_the_site_builds_without_a_warning_in_under_two_minutes(site):
    html, proc, cpu = site
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert "ERROR" not in proc.stderr, proc.stderr[-3000:]
    assert cpu < 120, f"the docs build took {cpu:.0f} s of CPU"
    for page in ("index", "getting-started", "rulebook", "lessons", "authoring", "api",
                 "glossary", "sheets", "ARCHITECTURE", "DEVELOPING", "OPTIONS"):
        assert (html / f"{page}.html").is_file(), page


def test_every_local_link_resolves(site):
    html, proc, _ = site
    assert proc.returncode == 0
    assert check_links.broken_links(html) == []
    assert check_links.main([str(html)]) == 0


def test_the_link_check_finds_a_broken_link(tmp_path):
    (tmp_path / "a.html").write_text(
        '<p id="top"><a href="b.html#here">b</a> <a href="a.html#top">self</a> '
        '<a href="https://example.org/x">out</a> <img src="_static/missing.png"></p>')
    (tmp_path / "b.html").write_text('<p id="there"></p>')
    bad = check_links.broken_links(tmp_path)
    assert bad == ["a.html: b.html#here (no #here there)",
                   "a.html: _static/missing.png (no such file)"]
    assert check_links.main([str(tmp_path)]) == 1


def _api_links(page: str) -> dict[str, str]:
    """Link text → href of the API page's table of names."""
    return {re.sub(r"<[^>]+>", "", text).strip(): href
            for href, text in re.findall(r'<a class="reference internal" href="([^"]+)"[^>]*>'
                                         r"(.*?)</a>", page, flags=re.S)}


def test_the_api_page_lists_simulate_game_and_gametable_with_their_docstrings(site):
    html, proc, _ = site
    assert proc.returncode == 0
    links = _api_links((html / "api.html").read_text())
    where = {"crazylab.simulate": "crazylab.sim.simulate",
             "crazylab.Game": "crazylab.engine.game.Game",
             "crazylab.widgets.GameTable": "crazylab.widgets.table.GameTable"}
    for name, target in where.items():
        href = links.get(name) or links.get(f"{name}()")
        assert href and href.endswith(f"#{target}"), (name, href)
        page = (html / href.split("#")[0]).read_text()
        assert f'id="{target}"' in page
    sim = (html / "generated" / "crazylab.sim.html").read_text()
    assert "hands for every rule set" in sim  # simulate's docstring, rendered
    # the four packages' modules have pages
    for module in ("crazylab", "crazylab.engine", "crazylab.widgets", "crazylab.classroom",
                   "crazylab.engine.game", "crazylab.widgets.table", "crazylab.classroom.store"):
        assert (html / "generated" / f"{module}.html").is_file(), module


def test_the_lessons_are_rendered_with_their_stored_outputs(site):
    html, proc, _ = site
    assert proc.returncode == 0
    lessons = sorted((REPO_ROOT / "notebooks").glob("0*.ipynb"))
    assert len(lessons) >= 7
    for nb in lessons:
        page = (html / "lessons" / f"{nb.stem}.html").read_text()
        assert page.count('class="cell_output') >= 3, nb.stem
        # the lessons' links to the app's rulebook notebook now go to the rulebook pages
        assert "rulebook.ipynb" not in page, nb.stem
    first = (html / "lessons" / f"{lessons[0].stem}.html").read_text()
    assert "../rulebook/crazy-eights.html#sr-q2" in first
    for md in sorted((REPO_ROOT / "crazylab" / "rulebook").glob("*.md")):
        page = (html / "rulebook" / f"{md.stem}.html").read_text()
        heading = md.read_text().splitlines()[0].lstrip("# ").split("(")[0].strip()
        assert heading.split()[0] in page, md.stem


def test_make_docs_builds_into_build_docs_and_checks_links():
    recipe = (REPO_ROOT / "Makefile").read_text().split("\ndocs: venv\n", 1)[1].split("\n\n")[0]
    assert "$(DOCS_OUT)" in recipe and "DOCS_OUT := _build/docs" in (REPO_ROOT / "Makefile"
                                                                        ).read_text()
    assert "docs/check_links.py $(DOCS_OUT)" in recipe
    started = time.monotonic()
    assert check_links.main(["no-such-dir"]) == 2
    assert time.monotonic() - started < 5

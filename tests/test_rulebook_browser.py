"""The rulebook in Voilà (headless Chromium): every rulebook link of every lesson notebook
points at an anchor that exists on the rendered ``rulebook.ipynb``, following a link scrolls
the page to its rule, and a real click from a lesson lands on the rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_support import page_errors

from crazylab import rulebook

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
#: a markdown link into the rulebook: ](rulebook.ipynb#ID)
RULEBOOK_LINK = re.compile(r"\]\(rulebook\.ipynb#([^)\s]+)\)")
IDS_ON_PAGE = "() => Array.from(document.querySelectorAll('[id]'), e => e.id)"
#: a rule's heading: the element of that id (a page's anchor: the first heading after it)
HEADING = """(id) => {
    const e = document.getElementById(id);
    if (!e || /^H[1-6]$/.test(e.tagName)) return e;
    return Array.from(document.querySelectorAll('h1, h2, h3')).find(
        h => e.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""
#: where that heading is in the window, once the page has settled
WHERE = f"""id => {{
    const h = ({HEADING})(id);
    if (!h) return null;
    const next = h.nextElementSibling;
    return {{top: h.getBoundingClientRect().top, height: window.innerHeight, y: window.scrollY,
             text: h.textContent, tag: h.tagName, next: next ? next.textContent : ""}};
}}"""
IN_VIEW = f"""id => {{
    const h = ({HEADING})(id);
    if (!h) return false;
    const t = h.getBoundingClientRect().top;
    return t >= -2 && t < window.innerHeight / 3;
}}"""


def lesson_links() -> dict[str, list[str]]:
    """Lesson notebook → the rule ids its markdown links to in the rulebook, link by link."""
    found = {}
    for path in LESSONS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        assert "shared/spec" not in text and "rulings.md" not in text, path.name
        found[path.name] = RULEBOOK_LINK.findall(text)
    return found


def open_rulebook(page, url: str) -> None:
    page.goto(url, timeout=120_000)
    page.locator("#SR-1").wait_for(state="attached", timeout=120_000)
    page.wait_for_load_state("networkidle", timeout=60_000)


def assert_scrolled_to(page, rid: str) -> None:
    """The rule's heading is at the top part of the window, and the page did scroll."""
    page.wait_for_function(f"() => location.hash === '#{rid}'", timeout=30_000)
    page.wait_for_function(IN_VIEW, arg=rid, timeout=30_000)
    where = page.evaluate(WHERE, rid)
    assert where["tag"] == "H3" and re.match(rf"{re.escape(rid)}\W*$", where["text"]), where
    assert where["next"] == f"{rulebook.entry(rid).title} · " + where["next"].split(" · ", 1)[1]
    assert where["y"] > 0 or rid == "C-1", where


def test_every_lesson_rulebook_link_has_its_anchor_in_voila(voila_server, page, screenshot):
    links = lesson_links()
    assert sum(map(len, links.values())) >= 58, "the lessons link the rulebook less than they did"
    errors = page_errors(page)
    open_rulebook(page, voila_server.render("rulebook.ipynb"))
    on_page = set(page.evaluate(IDS_ON_PAGE))
    assert rulebook.ids() <= on_page, sorted(rulebook.ids() - on_page)[:10]
    missing = {name: sorted(set(ids) - on_page) for name, ids in links.items()
               if set(ids) - on_page}
    assert missing == {}
    # the in-page links (a rule naming another, the contents) land on anchors too
    hrefs = page.evaluate("() => Array.from(document.querySelectorAll('a[href^=\"#\"]'),"
                          " a => a.getAttribute('href').slice(1))")
    assert len(hrefs) > 300 and {h for h in hrefs if h not in on_page} <= {""}
    screenshot(page, "rulebook_top", full_page=False)
    # following links: a fresh load at an id scrolls to it (a few, from different pages)
    for rid in ("SR-17", "AP-Q5", "BR-Q14", "MU-Q22", "C-13"):
        open_rulebook(page, voila_server.render(f"rulebook.ipynb#{rid}"))
        assert_scrolled_to(page, rid)
    screenshot(page, "rulebook_at_C-13", full_page=False)
    # an in-page link (C-13 is cited by SR-20) moves to its rule
    open_rulebook(page, voila_server.render("rulebook.ipynb#SR-20"))
    assert_scrolled_to(page, "SR-20")
    page.evaluate("""() => {
        const from = document.getElementById('SR-20');
        const link = Array.from(document.querySelectorAll("a[href='#C-13']")).find(
            a => from.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
        link.setAttribute('data-probe', 'C-13');
    }""")
    page.locator("[data-probe='C-13']").click()
    assert_scrolled_to(page, "C-13")
    assert not errors, errors
    assert page.get_by_text("Traceback").count() == 0


def test_a_lessons_rulebook_link_opens_the_rule_in_voila(voila_server, page, screenshot):
    """A real click on lesson 02's house-ruling link (rendered by Voilà) opens the rulebook at
    the rule."""
    links = lesson_links()["02_classic_vs_quick.ipynb"]
    rid = sorted(links)[0]
    page.goto(voila_server.render("02_classic_vs_quick.ipynb"), timeout=120_000)
    link = page.locator(f"a[href='rulebook.ipynb#{rid}']").first
    link.wait_for(timeout=120_000)
    link.scroll_into_view_if_needed()
    if link.get_attribute("target") == "_blank":
        with page.context.expect_page() as opened:
            link.click()
        page = opened.value
    else:
        link.click()
    page.wait_for_url(re.compile(rf"/voila/render/rulebook\.ipynb#{re.escape(rid)}$"),
                      timeout=120_000)
    page.locator("#SR-1").wait_for(state="attached", timeout=120_000)
    assert_scrolled_to(page, rid)
    screenshot(page, f"rulebook_from_lesson_02_{rid}", full_page=False)

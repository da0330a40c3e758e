"""The rule-set builder on the play page, in Voilà and headless Chromium: ticking a house rule
changes the rules sheet and the Python/CLI text, **Play these rules** deals it on the table,
a card is played under it, and a refused combination shows the engine's message and changes
nothing. Screenshots go to tests/screenshots/ (look at them)."""

from __future__ import annotations

import pytest
from browser_support import TIMED_CLICK, YOUR_TURN, page_errors


def _open(page, url: str) -> None:
    page.goto(url, timeout=90_000)
    page.wait_for_selector(".cl-card", timeout=90_000)
    page.wait_for_selector(".clb-sheet", timeout=90_000)


def _axe_serious(page) -> list[str]:
    """Serious or critical axe-core findings (as tests/test_browser.py checks every page)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:3])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def _visible_errors(page) -> list[str]:
    return [box.inner_text() for box in page.locator(".cl-errors, .crazylab-error").all()
            if box.is_visible() and box.inner_text().strip()]


@pytest.mark.browser
def test_builder_toggles_a_rule_shows_its_sheet_and_plays_it(voila_server, page, screenshot):
    """SR-17 / AP-Q5: voluntary drawing ticked in the builder; the new table offers Draw
    beside a playable card, and a card click plays."""
    errors = page_errors(page)
    _open(page, voila_server.render("play.ipynb")
          + "?rules=crazy-eights-classic&opponents=1&seed=7&delay=0.1")
    sheet = page.locator(".clb-sheet")
    assert "must play when you can" in sheet.inner_text()
    assert page.locator(".clb-python").inner_text() == 'crazylab.rules("crazy-eights-classic")'

    page.locator("button.clb-open").click()  # the options panel opens
    page.locator(".clb-opt-voluntary_draw input[type=checkbox]").check()
    page.wait_for_function("() => document.querySelector('.clb-sheet').innerText"
                           ".includes('voluntary draw')", timeout=15_000)
    assert "must play when you can" not in sheet.inner_text()
    assert page.locator(".clb-python").inner_text() == \
        'crazylab.rules("crazy-eights-classic", voluntary_draw=True)'
    assert page.locator(".clb-cli").inner_text() == \
        "crazylab play crazy-eights-classic --option voluntary_draw=true"
    page.locator(".clb-opt-voluntary_draw").scroll_into_view_if_needed()
    screenshot(page, "builder_voluntary_draw", full_page=False)
    found = _axe_serious(page)  # every option's control is labelled by its name
    assert not found, "\n".join(found)

    seq = page.locator(".cl-table").get_attribute("data-seq")
    page.locator("button.clb-play").click()
    page.wait_for_function(
        f"() => document.querySelector('.cl-table').dataset.seq !== '{seq}'", timeout=15_000)
    page.wait_for_function(YOUR_TURN, timeout=30_000)
    for _ in range(40):  # to a turn where a card fits: Draw must be offered beside it
        if page.locator(".cl-card.cl-legal").count():
            break
        page.evaluate(TIMED_CLICK, ".cl-actions .cl-primary")
        page.wait_for_function(YOUR_TURN, timeout=30_000)
    assert page.locator(".cl-card.cl-legal").count()
    assert page.locator(".cl-actions [data-move='draw']").count() == 1, \
        "voluntary drawing: Draw is offered while a card fits"
    page.locator(".cl-table").scroll_into_view_if_needed()
    screenshot(page, "builder_table_with_voluntary_draw", full_page=False)

    hand = page.locator(".cl-card").count()
    page.evaluate(TIMED_CLICK, ".cl-card.cl-legal")
    if page.locator(".cl-opt").count():  # an eight: call the first suit
        page.evaluate(TIMED_CLICK, ".cl-opt")
    page.wait_for_function(f"() => document.querySelectorAll('.cl-card').length < {hand}"
                           " || document.querySelector('.cl-table').dataset.over === 'true'",
                           timeout=15_000)
    assert "You played" in page.locator(".cl-log").inner_text() or \
        page.locator(".cl-table").get_attribute("data-over") == "true"
    assert not errors and not _visible_errors(page)
    assert page.get_by_text("Traceback").count() == 0

    # a combination the engine refuses: the message shows, the rules stay as they were
    page.locator(".clb-opt-stacking input[type=checkbox]").check()
    page.wait_for_function("() => document.querySelector('.clb-python').innerText"
                           ".includes('stacking=True')", timeout=15_000)
    page.locator(".clb-opt-chain input[type=checkbox]").click()  # the kernel unticks it
    refusal = page.locator(".clb-refusal")
    refusal.wait_for(timeout=15_000)
    assert "stacking and chain cannot both be on" in refusal.inner_text()
    page.wait_for_function("() => !document.querySelector('.clb-opt-chain input').checked",
                           timeout=15_000)
    assert "chain" not in page.locator(".clb-python").inner_text()
    refusal.scroll_into_view_if_needed()
    screenshot(page, "builder_refused", full_page=False)
    assert not errors


@pytest.mark.browser
def test_builder_drives_the_explorer_page(voila_server, page, screenshot):
    """The explorer page: two jokers added in the builder, and the explorer (live) sets up
    the hand it could not before and marks the joker legal on 6♥."""
    errors = page_errors(page)
    page.goto(voila_server.render("explore.ipynb") + "?rules=crazy-eights&top=6H"
              "&hand=6C%20KH%203D%20JK", timeout=90_000)
    page.wait_for_selector(".clb-sheet", timeout=90_000)
    assert "JK is not in the crazy-eights deck" in page.locator(".crazylab-explorer").inner_text()
    page.locator("button.clb-open").click()
    box = page.locator(".clb-opt-jokers input")
    box.fill("2")
    box.press("Enter")
    page.wait_for_selector(".crazylab-legal", timeout=15_000)
    row = page.locator(".crazylab-legal tr", has_text="🃏")
    assert "✔ legal" in row.inner_text()
    assert "✘ not legal" in page.locator(".crazylab-legal tr", has_text="3♦").inner_text()
    assert "jokers=2" in page.locator(".clb-python").inner_text()
    assert "and 2 jokers" in page.locator(".clb-sheet").inner_text()
    page.locator(".crazylab-explorer").scroll_into_view_if_needed()
    screenshot(page, "builder_explorer_jokers", full_page=False)
    assert not errors and not _visible_errors(page)

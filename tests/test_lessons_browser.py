"""Lessons in Voilà (headless Chromium): the exercises render as widgets (not as their HTML
copy), a wrong answer is explained in the engine's words, a right one is confirmed, and the
solution is hidden until asked for (Hint, then Show the answer)."""

from __future__ import annotations

import pytest
from browser_support import page_errors

pytestmark = pytest.mark.browser


def test_lesson_01_exercises_check_answers_in_voila(voila_server, page, screenshot):
    errors = page_errors(page)
    page.goto(voila_server.render("01_crazy_eights_basics.ipynb"), timeout=120_000)
    page.wait_for_function("() => document.querySelectorAll('.crazylab-exercise').length >= 15"
                           " && document.querySelector('.crazylab-explainer')", timeout=120_000)
    exercises = page.locator(".crazylab-exercise")
    # the exercise on the worked turn SR-T1: "Is 3D legal?"
    ex = exercises.filter(has_text="Is 3♦ legal?").first
    ex.scroll_into_view_if_needed()
    assert ex.locator("input").count() == 0  # a yes/no question is answered by buttons
    ex.get_by_role("button", name="yes").click()
    ex.get_by_text("Not right").wait_for(timeout=30_000)
    assert "3♦ matches neither the rank nor the suit of 6♥" in ex.inner_text()
    assert ex.locator(".crazylab-solution").count() == 0  # hidden until asked for
    ex.get_by_role("button", name="Hint").click()
    ex.locator(".crazylab-hint").wait_for(timeout=30_000)
    ex.get_by_role("button", name="Show the answer").click()
    ex.locator(".crazylab-solution").wait_for(timeout=30_000)
    assert "No." in ex.locator(".crazylab-solution").inner_text()
    ex.get_by_role("button", name="no").click()
    ex.get_by_text("Right: no").wait_for(timeout=30_000)
    screenshot(page, "lesson_01_exercise", full_page=False)
    # the widget is shown, not its HTML copy for pages without widgets (one question each)
    assert page.get_by_text("Is 3♦ legal?").count() == 1
    assert not errors, errors
    assert page.get_by_text("Traceback").count() == 0


def test_glossary_and_rules_sheets_render_in_voila(voila_server, page, screenshot):
    """Voilà serves no .md file, so the glossary and the sheets are notebooks too."""
    errors = page_errors(page)
    page.goto(voila_server.render("sheets.ipynb"), timeout=120_000)
    page.get_by_text("crazy-breens: rules sheet").wait_for(timeout=120_000)
    assert page.get_by_text("draws 4 and loses the turn").count() >= 1
    screenshot(page, "rules_sheets", full_page=False)
    page.goto(voila_server.render("glossary.ipynb"), timeout=120_000)
    page.get_by_text("house ruling", exact=True).first.wait_for(timeout=120_000)
    assert not errors, errors

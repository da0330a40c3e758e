"""Lessons in Voilà (headless Chromium): the exercises render as widgets (not as their HTML
copy), a wrong answer is explained in the engine's words, a right one is confirmed, and the
solution is hidden until clicked."""

from __future__ import annotations

import pytest
from browser_support import page_errors

pytestmark = pytest.mark.browser


def test_lesson_01_exercises_check_answers_in_voila(voila_server, page, screenshot):
    errors = page_errors(page)
    page.goto(voila_server.render("01_crazy_eights_basics.ipynb"), timeout=90_000)
    page.wait_for_function("() => document.querySelectorAll('.crazylab-exercise').length >= 15"
                           " && document.querySelector('.crazylab-explainer')", timeout=90_000)
    exercises = page.locator(".crazylab-exercise")
    # the exercise on the worked turn SR-T1: "Is 3D legal?"
    ex = exercises.filter(has_text="Is 3D legal?").first
    ex.scroll_into_view_if_needed()
    box = ex.locator("input")
    box.fill("yes")
    ex.get_by_role("button", name="Check").click()
    ex.get_by_text("Not right").wait_for(timeout=15_000)
    assert "3D matches neither the rank nor the suit of 6H" in ex.inner_text()
    solution = ex.locator("details.crazylab-solution")
    assert not solution.locator("div").is_visible()
    solution.locator("summary").click()
    assert solution.locator("div").is_visible()
    box.fill("no")
    ex.get_by_role("button", name="Check").click()
    ex.get_by_text("Right: no").wait_for(timeout=15_000)
    screenshot(page, "lesson_01_exercise", full_page=False)
    # the widget is shown, not its HTML copy for pages without widgets (one question each)
    assert page.get_by_text("Is 3D legal?").count() == 1
    assert not errors, errors
    assert page.get_by_text("Traceback").count() == 0

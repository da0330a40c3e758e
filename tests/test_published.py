"""Published mode: a visitor never sees a traceback, and each visitor gets their own kernel
(and so their own game)."""

from __future__ import annotations

import pytest
from browser_support import write_notebook
from playwright.sync_api import expect

BROKEN = """\
def secret_helper():
    raise RuntimeError("internal detail that visitors must not see")

secret_helper()
"""


@pytest.fixture(scope="module")
def broken_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("voila-published")
    write_notebook(root, "broken.ipynb", "# A page", BROKEN)
    return root


@pytest.mark.browser
def test_published_mode_hides_tracebacks(voila_factory, broken_dir, page):
    published = voila_factory(broken_dir, show_tracebacks=False)
    page.goto(published.render("broken.ipynb"), timeout=60_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    text = page.locator("body").inner_text()
    assert "secret_helper" not in text and "internal detail" not in text
    assert "Traceback" not in text
    # the same page in the test server (tracebacks on) does show it: the check can fail
    debug = voila_factory(broken_dir, show_tracebacks=True)
    page.goto(debug.render("broken.ipynb"), timeout=60_000)
    expect(page.locator("body")).to_contain_text("internal detail", timeout=60_000)


@pytest.mark.browser
def test_each_visitor_gets_their_own_kernel(voila_server, browser):
    first, second = browser.new_page(), browser.new_page()
    try:
        before = voila_server.kernel_pids()
        for page in (first, second):
            page.goto(voila_server.render("score.ipynb"), timeout=60_000)
            page.wait_for_selector(".jupyter-widgets", timeout=60_000)
        started = voila_server.kernel_pids() - before
        assert len(started) >= 2
    finally:
        first.close()
        second.close()

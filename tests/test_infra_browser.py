"""Guards the Jupyter version set: Voilà + ipywidgets render and respond in headless Chromium,
and the card-suit glyphs have a font.

Serves a throwaway notebook from a temporary directory (never from notebooks/).
"""

from __future__ import annotations

import pytest
from browser_support import page_errors, write_notebook
from playwright.sync_api import expect

SUITS = "♠ ♥ ♦ ♣"

CELL = f"""\
import ipywidgets as w

label = w.Label("{SUITS}", style={{"font_size": "40px"}})
button = w.Button(description="Deal")
clicks = 0


def on_click(_):
    global clicks
    clicks += 1
    label.value = f"{SUITS} clicked {{clicks}}"


button.on_click(on_click)
w.VBox([button, label])
"""


@pytest.fixture(scope="module")
def smoke_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("voila-smoke")
    write_notebook(root, "smoke.ipynb", CELL)
    return root


@pytest.mark.browser
def test_voila_widget_roundtrip(voila_factory, smoke_dir, page, screenshot):
    server = voila_factory(smoke_dir)
    errors = page_errors(page)

    page.goto(server.render("smoke.ipynb"), timeout=60_000)
    button = page.get_by_role("button", name="Deal")
    expect(button).to_be_visible(timeout=60_000)
    label = page.locator(".widget-label").filter(has_text="♠")
    expect(label).to_have_text(SUITS)
    # Headless Chromium draws nothing where no font has the glyph: the text check above
    # cannot see that, the width can (and a person should look at the screenshot).
    width = label.evaluate(
        "el => { const r = document.createRange(); r.selectNodeContents(el);"
        " return r.getBoundingClientRect().width; }"
    )
    assert width > 100, f"suit glyphs seem not to render (text width {width}px)"

    button.click()
    expect(label).to_have_text(f"{SUITS} clicked 1", timeout=15_000)
    button.click()
    expect(label).to_have_text(f"{SUITS} clicked 2", timeout=15_000)

    path = screenshot(page, "infra_smoke")
    assert path.stat().st_size > 0
    assert not errors, errors
    assert server.kernel_pids(), "Voilà should be running a kernel for the open page"

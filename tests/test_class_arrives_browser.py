"""A class arriving together, in Chromium (issue 34).

A burst of pages opening the game table at the same moment on ``make app``'s command line: every
page gets its table, and the server shuts down no visitor's kernel while their browsers, slow on
a busy machine, load the page (a page announces itself in its first lines; only pages that never
do are taken for link checkers). And a page whose kernel was lost before it could connect says
so within seconds and loads again by itself, never a dead page.
"""

from __future__ import annotations

import re
import shutil

import pytest
from browser_support import (
    NOTEBOOKS_DIR,
    YOUR_TURN,
    deal_server,
    human_step,
    start_voila,
    stop_voila,
)

BURST = 12  # pages at once; bench/bench_voila.py runs 30 and times them
SHUT_DOWN = re.compile(r"crazylab: (?:shutting down kernel (\S+) \(no page\)"
                       r"|room is full; kernel (\S+) never met its page)")


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """``make app``'s server (voila.json's pool, clocks and bound) on the game table alone."""
    root = tmp_path_factory.mktemp("voila-class")
    shutil.copy(NOTEBOOKS_DIR / "play.ipynb", root / "play.ipynb")
    server = start_voila(root, show_tracebacks=False)
    yield server
    stop_voila(server)


def _announced(page, kernels: set[str]) -> None:
    page.on("request", lambda r: kernels.add(r.url.split("/crazylab/page/")[1].split("/")[0])
            if "/crazylab/page/" in r.url and r.url.endswith("/hello") else None)


@pytest.mark.browser
def test_a_class_arriving_at_once_all_get_their_table(class_server, browser, screenshot):
    """Before: on two cores, pages whose browsers had not opened the websocket 45 s after
    the page was sent lost their kernel, and 12-15 of 30 got a table."""
    contexts = [browser.new_context(viewport={"width": 1024, "height": 700})
                for _ in range(BURST)]
    pages = [c.new_page() for c in contexts]
    kernels: set[str] = set()
    for p in pages:
        _announced(p, kernels)
    log_from = len(class_server.log(10**9))
    url = class_server.render("play.ipynb") + "?opponents=1&delay=0"
    try:
        for p in pages:
            p.goto(url, wait_until="commit", timeout=300_000)
        for p in pages:  # a generous bound: the event, not a time goal
            p.wait_for_selector(".cl-card", timeout=420_000)
        shown = {p.evaluate("() => window.crazylabPage.kernelId") for p in pages}
        assert len(shown) == BURST and shown <= kernels, (shown, kernels)
        for p in pages:
            p.wait_for_function(YOUR_TURN, timeout=120_000)
            human_step(p)  # raises unless the table answers the click
        screenshot(pages[0], "class_arrives_first")
        log = class_server.log(10**9)[log_from:]
        shut = {a or b for a, b in SHUT_DOWN.findall(log)}
        assert not shut & kernels, f"visitors' kernels shut down: {shut & kernels}\n{log[-3000:]}"
        assert "never reached an 'alive' state" not in log, log[-3000:]
        for p in pages:
            notice = p.locator("#crazylab-retry")
            assert notice.is_hidden(), notice.inner_text()
    finally:
        for c in contexts:
            c.close()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory):
    """No pool, a claim grace of 2 s: a page that does not announce itself loses its kernel."""
    with deal_server(tmp_path_factory.mktemp("voila-lost"),
                     "--CrazylabVoila.claim_grace=2") as server:
        yield server


@pytest.mark.browser
def test_a_page_that_lost_its_kernel_before_connecting_loads_again_by_itself(
        quick_server, browser, screenshot):
    """The page's hello and websocket are held back (as a browser far too busy to send them
    would), so the server takes it for a link checker and shuts its kernel down: the page says
    within seconds that it is trying again, and gets its button by itself once it can."""
    page = browser.new_context().new_page()
    held = {"on": True}
    loads: list[str] = []
    page.on("framenavigated", lambda f: loads.append(f.url) if f == page.main_frame else None)

    def hello(route):
        if held["on"]:
            route.abort()
        else:
            route.continue_()

    def socket(ws):
        if held["on"]:
            ws.close()
        else:
            ws.connect_to_server()

    page.route("**/crazylab/page/*/hello", hello)
    page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), socket)
    page.goto(quick_server.render("one.ipynb"), timeout=120_000)
    first = page.evaluate("() => window.crazylabPage.kernelId")
    notice = page.locator("#crazylab-retry")
    notice.get_by_text("Trying again by itself").wait_for(timeout=60_000)
    assert notice.get_attribute("role") == "status"
    screenshot(page, "lost_before_connecting_retrying")
    assert f"shutting down kernel {first} (no page)" in quick_server.log(10**9)
    held["on"] = False
    page.get_by_role("button", name="Deal").wait_for(timeout=120_000)
    assert len(loads) >= 2, loads  # loaded again by itself: nobody clicked anything
    assert page.evaluate("() => window.crazylabPage.kernelId") != first
    page.wait_for_timeout(6_000)  # connected now: the notice goes and nothing reloads again
    assert notice.is_hidden() or not notice.inner_text().strip()
    n = len(loads)
    page.get_by_role("button", name="Deal").click()
    page.wait_for_timeout(1_000)
    assert len(loads) == n
    page.close(run_before_unload=True)

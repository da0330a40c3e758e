"""Every page the Voilà app serves, in Chromium: no JavaScript error, no failed request, and a
widget that cannot be drawn is drawn again in place instead of the page being reloaded, and a
widget's request to the kernel is answered or, unanswered, asked again and then reported.

Issue 19 item 1: under load, lesson 04 showed "Error displaying widget: model not found" and the
template's watchdog reloaded the whole lesson; lesson 05 threw six errors on every load (plotly's
renderer calls ``setData`` on an output model that Voilà renders from plain JSON).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import NOTEBOOKS_DIR, write_notebook

DASHBOARDS = ["index", "play", "explore", "explain", "score", "piano", "sheets", "glossary",
              "teacher"]
PAGES = sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))  # what the app serves
LOAD_TIMEOUT_MS = 180_000

# The page is drawn: the widget manager has its models and no output still waits for one.
DRAWN = """() => {
  const app = window.jupyterapp;
  const m = app && app.widgetManager;
  if (!m || !m.restoredStatus) return false;
  if (document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return false;
  return ![...document.querySelectorAll('.jp-OutputArea-output')]
    .some(n => (n.textContent || '').trim() === 'Loading widget...');
}"""


class PageLog:
    """Console errors, uncaught errors, HTTP errors and main-frame navigations of a page."""

    def __init__(self, page) -> None:
        self.problems: list[str] = []
        self.navigations: list[str] = []
        self.console: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.problems.append(f"uncaught: {exc}"))
        page.on("response", self._on_response)
        page.on("framenavigated",
                lambda frame: self.navigations.append(frame.url)
                if frame == page.main_frame else None)

    def _on_console(self, msg) -> None:
        self.console.append(f"{msg.type}: {msg.text}")
        if msg.type == "error":
            self.problems.append(f"console.error: {msg.text}")

    def _on_response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")


def test_every_page_is_listed() -> None:
    """The dashboards the issue names and all seven lessons are among the pages tested."""
    for name in DASHBOARDS:
        assert f"{name}.ipynb" in PAGES
    assert len([p for p in PAGES if p[0].isdigit()]) == len(
        list(NOTEBOOKS_DIR.glob("[0-9]*.ipynb"))) >= 7


@pytest.mark.browser
@pytest.mark.parametrize("name", ["/", *PAGES])
def test_page_logs_no_error(voila_server, page, screenshot, name: str) -> None:
    log = PageLog(page)
    url = f"{voila_server}/" if name == "/" else voila_server.render(name)
    page.goto(url, timeout=LOAD_TIMEOUT_MS)
    if name != "/":
        page.wait_for_function(DRAWN, timeout=LOAD_TIMEOUT_MS, polling=250)
    page.wait_for_timeout(1500)  # late errors: figures drawn, first syncs answered
    if log.problems:
        screenshot(page)
    assert not log.problems, "\n".join(log.problems)
    assert len(log.navigations) == 1, f"the page reloaded: {log.navigations}"


# --------------------------------------------------------------------------- drawn again

LATE_ID = "c0ffee00c0ffee00c0ffee00c0ffee00"


def _test_notebooks(root: Path) -> None:
    """Output 1 shows a widget whose model does not exist yet (as when a model arrives after
    its view asked for it); the button of output 2 makes it (and "never" never does)."""
    write_notebook(
        root, "late.ipynb",
        "# A widget that arrives late",
        "from IPython.display import display\n"
        f"display({{'application/vnd.jupyter.widget-view+json': {{'model_id': '{LATE_ID}', "
        "'version_major': 2, 'version_minor': 0}, 'text/plain': 'late'}, raw=True)",
        "import ipywidgets as w\n"
        "maker = w.Button(description='Make the late widget')\n"
        "def make(_):\n"
        "    global late\n"
        f"    late = w.Button(description='I arrived late', model_id='{LATE_ID}')\n"
        "maker.on_click(make)\n"
        "maker",
    )
    write_notebook(
        root, "never.ipynb",
        "# A widget that never arrives",
        "from IPython.display import display\n"
        "display({'application/vnd.jupyter.widget-view+json': {'model_id': "
        "'0badc0de0badc0de0badc0de0badc0de', 'version_major': 2, 'version_minor': 0}, "
        "'text/plain': 'never'}, raw=True)",
    )


    write_notebook(
        root, "slow_picker.ipynb",
        "# A card picker whose kernel is slow to answer",
        "import time\n"
        "from crazylab.engine.cards import Card\n"
        "from crazylab.widgets import CardPicker\n"
        "picker = CardPicker([Card.parse(c) for c in ('8D', 'KS')], answer_timeout=1.0)\n"
        "picks = []\n"
        "def slow(card):\n"
        "    picks.append(str(card))\n"
        "    time.sleep(4)\n"
        "    picker.tags = {str(card): f'picked {len(picks)}x'}\n"
        "picker.on_pick(slow)\n"
        "picker",
    )


    write_notebook(root, "slow_anywidget.ipynb",
                   "# An anywidget whose module takes 3 s to initialize", SLOW_ANYWIDGET)


# the module's first message is answered while the module still initializes
SLOW_ESM = """
export default {
  async initialize({ model }) {
    model.send({ hello: 1 });
    await new Promise((done) => setTimeout(done, 3000));
  },
  render({ model, el }) {
    const draw = () => { el.className = 'slow-widget'; el.textContent = model.get('value'); };
    model.on('change:value', draw);
    draw();
  },
};
"""
SLOW_ANYWIDGET = f"""import anywidget, traitlets
class Slow(anywidget.AnyWidget):
    _esm = {SLOW_ESM!r}
    value = traitlets.Unicode('not answered').tag(sync=True)
slow = Slow()
slow.on_msg(lambda widget, content, buffers: setattr(widget, 'value', 'answered'))
slow"""


@pytest.fixture(scope="module")
def late_server(voila_factory, tmp_path_factory):
    root = tmp_path_factory.mktemp("late-widgets")
    _test_notebooks(root)
    return voila_factory(root)


@pytest.mark.browser
def test_a_widget_that_cannot_be_drawn_is_drawn_again_in_place(late_server, page, screenshot):
    log = PageLog(page)
    page.goto(late_server.render("late.ipynb"), timeout=LOAD_TIMEOUT_MS)
    first = page.locator(f'[data-crazylab-model="{LATE_ID}"] .jp-OutputArea-output')
    # the manager gave up on the model: Voilà's renderer says so, and the template tries again
    page.wait_for_function(
        """(id) => /Error displaying widget|Loading this part of the page again/.test(
             (document.querySelector(`[data-crazylab-model="${id}"]`) || {}).textContent)""",
        arg=LATE_ID, timeout=LOAD_TIMEOUT_MS)
    page.get_by_role("button", name="Make the late widget").click()
    late = page.get_by_role("button", name="I arrived late")
    late.wait_for(timeout=30_000)
    assert first.locator("button", has_text="I arrived late").count() == 1
    assert "Error displaying widget" not in first.text_content()
    assert first.get_attribute("data-crazylab-redrawn") == "true"
    screenshot(page)
    assert page.locator("#crazylab-retry").is_hidden()
    assert len(log.navigations) == 1, f"the page reloaded: {log.navigations}"
    assert not [p for p in log.problems if "widget model not found" not in p], log.problems


@pytest.mark.browser
def test_a_widget_that_never_arrives_reloads_the_page_last(late_server, page, screenshot):
    log = PageLog(page)
    page.goto(late_server.render("never.ipynb"), timeout=LOAD_TIMEOUT_MS)
    box = page.locator("#crazylab-retry")
    box.wait_for(state="visible", timeout=90_000)
    assert "could not be drawn" in box.text_content()
    screenshot(page)
    tries = [c for c in log.console if "still cannot be drawn" in c]
    assert len(tries) == 4, log.console  # drawn again four times before the reload


# --------------------------------------------------------------------------- requests answered


def test_card_picker_answers_every_click_once() -> None:
    """A click is answered even when its callback fails, and a repeated request (the browser
    asks again after a timeout) is answered without picking the card twice."""
    from crazylab.engine.cards import Card
    from crazylab.widgets import CardPicker

    picker = CardPicker([Card.parse("8D"), Card.parse("KS")])
    sent: list[dict] = []
    picker.send = sent.append  # type: ignore[method-assign]
    picks: list[str] = []
    picker.on_pick(lambda card: picks.append(str(card)))
    picker._on_message(picker, {"action": "pick", "card": "8D", "id": "a-1"})
    picker._on_message(picker, {"action": "pick", "card": "8D", "id": "a-1"})  # asked again
    assert picks == ["8D"]
    assert sent == [{"type": "answer", "id": "a-1"}] * 2

    def fail(card):
        raise ValueError("no such seat")

    picker.on_pick(fail)
    picker._on_message(picker, {"action": "pick", "card": "KS", "id": "a-2"})
    assert sent[-1] == {"type": "answer", "id": "a-2"}
    assert "no such seat" in picker.error


@pytest.mark.browser
def test_card_picker_asks_again_then_says_the_server_did_not_answer(late_server, page,
                                                                     screenshot):
    """The kernel takes 4 s over a click and the page waits 1 s: the click is sent again, the
    picker says the server has not answered, and the late answer clears that (picked once)."""
    log = PageLog(page)
    page.goto(late_server.render("slow_picker.ipynb"), timeout=LOAD_TIMEOUT_MS)
    card = page.locator('.clp-card[data-card="8D"]')
    card.wait_for(timeout=LOAD_TIMEOUT_MS)
    card.click()
    status = page.locator(".clp-status")
    status.wait_for(state="visible", timeout=10_000)
    assert "has not answered your click on eight of diamonds" in status.text_content()
    screenshot(page)
    status.wait_for(state="hidden", timeout=30_000)
    assert card.locator(".clp-tag").text_content() == "picked 1x"
    assert len([c for c in log.console if "asking again" in c]) == 1, log.console
    assert not log.problems, log.problems


@pytest.mark.browser
def test_an_anywidget_slow_to_load_keeps_its_messages(late_server, page):
    """anywidget drops every message to a model whose module took over 2 s to initialize (as on
    a busy page): the kernel's answer to the module's first message must still arrive."""
    log = PageLog(page)
    page.goto(late_server.render("slow_anywidget.ipynb"), timeout=LOAD_TIMEOUT_MS)
    page.locator(".slow-widget").wait_for(timeout=LOAD_TIMEOUT_MS)
    page.wait_for_function(
        "() => document.querySelector('.slow-widget').textContent === 'answered'",
        timeout=15_000)
    assert not log.problems, log.problems


@pytest.mark.browser
def test_a_page_whose_kernel_is_gone_says_so(late_server, page, screenshot):
    """The kernel is shut down under an open page (as the idle culler does): within seconds
    the page says that it no longer answers and offers to load itself again."""
    page.goto(late_server.render("slow_picker.ipynb"), timeout=LOAD_TIMEOUT_MS)
    page.locator('.clp-card[data-card="8D"]').wait_for(timeout=LOAD_TIMEOUT_MS)
    box = page.locator("#crazylab-retry")
    assert box.is_hidden()
    status = page.evaluate("""async () => {
      const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
      const data = new FormData();
      data.append('_xsrf', (document.cookie.match('\\\\b_xsrf=([^;]*)\\\\b') || [])[1] || '');
      const r = await fetch(`${config.baseUrl}voila/api/shutdown/${config.kernelId}`,
                            {method: 'POST', body: data});
      return r.status;
    }""")
    assert status < 400
    box.wait_for(state="visible", timeout=60_000)
    assert "connection to the server was lost" in box.text_content()
    screenshot(page)
    with page.expect_navigation(timeout=30_000):
        box.get_by_role("button", name="Load the page again").click()
    page.locator('.clp-card[data-card="8D"]').wait_for(timeout=LOAD_TIMEOUT_MS)
    assert page.locator("#crazylab-retry").is_hidden()


@pytest.mark.browser
def test_a_model_a_few_seconds_late_is_drawn_without_an_error(late_server, page):
    """ipywidgets' manager gives a view 2 s to find its model; the template lets it wait longer
    (a busy page blocks its main thread for seconds): a model made 3 s after the page is drawn
    shows without "Error displaying widget" and without a console error."""
    log = PageLog(page)
    page.goto(late_server.render("late.ipynb"), timeout=LOAD_TIMEOUT_MS)
    maker = page.get_by_role("button", name="Make the late widget")
    maker.wait_for(timeout=LOAD_TIMEOUT_MS)
    page.wait_for_timeout(3000)
    maker.click()
    page.get_by_role("button", name="I arrived late").wait_for(timeout=30_000)
    first = page.locator(f'[data-crazylab-model="{LATE_ID}"] .jp-OutputArea-output')
    assert first.get_attribute("data-crazylab-redrawn") is None  # Voilà's own view drew it
    assert not log.problems, log.problems

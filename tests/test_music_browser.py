"""In Chromium (Voilà): the piano page sounds a clicked key through Web Audio and offers the
MIDI and WAV files; a choice exercise is answered with buttons, by mouse and by keyboard."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import page_errors, write_notebook

pytestmark = pytest.mark.browser

#: a stand-in Web Audio API that counts what the page asks of it (no sound device needed)
AUDIO_STUB = """
(() => {
  const log = window.__audio = {contexts: 0, oscillators: 0, started: 0, freqs: []};
  class Param {
    setValueAtTime(v) { this.value = v; if (this.onset) this.onset(v); return this; }
    exponentialRampToValueAtTime() { return this; }
    linearRampToValueAtTime() { return this; }
  }
  class Node { connect(n) { return n; } disconnect() {} }
  class Osc extends Node {
    constructor() {
      super(); this.type = 'sine'; this.frequency = new Param();
      this.frequency.onset = (v) => log.freqs.push(v); log.oscillators++;
    }
    start() { log.started++; }
    stop() {}
  }
  class Gain extends Node { constructor() { super(); this.gain = new Param(); } }
  class FakeAudioContext {
    constructor() { log.contexts++; this.state = 'running'; this.currentTime = 0;
                    this.destination = new Node(); }
    createOscillator() { return new Osc(); }
    createGain() { return new Gain(); }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = FakeAudioContext;
  window.webkitAudioContext = FakeAudioContext;
})();
"""


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_piano_page_sounds_a_clicked_key_and_downloads_midi_and_wav(voila_server, page,
                                                                   screenshot):
    page.add_init_script(AUDIO_STUB)
    errors, console = page_errors(page), console_errors(page)
    page.goto(voila_server.render("piano.ipynb"), timeout=120_000)
    page.wait_for_selector(".cl-piano-caption", timeout=120_000)
    page.wait_for_selector(".cl-download-midi", timeout=60_000)
    assert page.evaluate("() => window.__audio.contexts") == 0  # no sound before a gesture

    key = page.locator("[data-midi][aria-label$=': fits']").first
    midi = int(key.get_attribute("data-midi"))
    key.click()
    page.wait_for_function("() => window.__audio.started >= 1", timeout=10_000)
    audio = page.evaluate("() => window.__audio")
    assert audio["contexts"] == 1 and audio["oscillators"] >= 1
    assert any(abs(f - 440 * 2 ** ((midi - 69) / 12)) < 0.01 for f in audio["freqs"])
    page.get_by_text("Your tune").wait_for(timeout=30_000)

    # by keyboard: the focused key is played with Enter, and the focus stays on it
    other = page.locator("[data-midi]").nth(2)
    other_midi = other.get_attribute("data-midi")
    other.focus()
    before = page.evaluate("() => window.__audio.started")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.__audio.started > {before}", timeout=10_000)
    page.wait_for_timeout(500)  # the redraw after the kernel's answer
    assert page.evaluate("() => document.activeElement.dataset.midi") == other_midi
    assert page.evaluate("() => window.__audio.contexts") == 1  # one context for the page

    # the downloads are the files the kernel wrote
    with page.expect_download() as midi_download:
        page.locator(".cl-download-midi").click()
    data = Path(midi_download.value.path()).read_bytes()
    assert data[:4] == b"MThd" and b"MTrk" in data
    assert midi_download.value.suggested_filename.endswith("-tune.mid")
    with page.expect_download() as wav_download:
        page.locator(".cl-download-wav").click()
    data = Path(wav_download.value.path()).read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"

    # sound off: a click is silent, and still shows the key's cards
    page.locator(".cl-sound").click()
    page.wait_for_selector(".cl-sound[aria-pressed='false']", timeout=10_000)
    started = page.evaluate("() => window.__audio.started")
    page.locator("[data-midi]").nth(4).click()
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__audio.started") == started
    page.locator(".cl-sound").click()
    page.wait_for_selector(".cl-sound[aria-pressed='true']", timeout=10_000)
    key.scroll_into_view_if_needed()
    screenshot(page, "piano_sound_and_downloads")
    assert not errors, errors
    assert not console, console
    assert page.get_by_text("Traceback").count() == 0


def test_choice_exercises_are_buttons_for_mouse_and_keyboard(voila_factory, tmp_path, page,
                                                            screenshot):
    write_notebook(
        tmp_path, "choices.ipynb",
        "from crazylab.widgets import position\n"
        "from crazylab.widgets.exercise import choice_exercise, is_legal_exercise\n"
        "worked = position('crazy-eights', top='6H', hand='6C KH 8S 3D')\n"
        "is_legal_exercise(worked, '3D', rules='SR-10 SR-T1')",
        "choice_exercise('How many cards are in the stock after dealing to 3 players?',\n"
        "                ['52', '37', '36'], '36', '52 - 3 × 5 - 1 starter = 36.',\n"
        "                rules='SR-5')",
        "choice_exercise('Blocked: the hands hold 12, 3 and 30 points. Who wins, and what '\n"
        "                'do they score?', ['seat 1 scores 42', 'seat 1 scores 36',\n"
        "                'seat 0 scores 33'], 'seat 1 scores 36', '(12 − 3) + (30 − 3).',\n"
        "                rules='AP-17 AP-T7')")
    server = voila_factory(tmp_path)
    errors, console = page_errors(page), console_errors(page)
    page.goto(server.render("choices.ipynb"), timeout=120_000)
    page.wait_for_function("() => document.querySelectorAll('.crazylab-choice').length >= 8",
                           timeout=120_000)
    exercises = page.locator(".crazylab-exercise")
    legal = exercises.filter(has_text="Is 3♦ legal?")
    assert legal.locator("input").count() == 0  # nothing to type
    legal.get_by_role("button", name="yes").click()
    legal.get_by_text("Not right").wait_for(timeout=30_000)
    assert "3♦ matches neither the rank nor the suit of 6♥" in legal.inner_text()

    # by keyboard: Tab from "no" of the first exercise reaches the next exercise's buttons
    stock = exercises.filter(has_text="How many cards are in the stock")
    legal.get_by_role("button", name="no").focus()
    page.keyboard.press("Enter")
    legal.get_by_text("Right: no").wait_for(timeout=30_000)
    stock.get_by_role("button", name="52").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "36"
    page.keyboard.press("Space")
    stock.get_by_text("Right: 52 - 3 × 5 - 1 starter = 36.").wait_for(timeout=30_000)
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineWidth")
    assert outline == "3px", outline  # the focus is plain to see

    blocked = exercises.filter(has_text="Who wins")
    blocked.get_by_role("button", name="seat 1 scores 42").click()
    blocked.get_by_text("Not seat 1 scores 42").wait_for(timeout=30_000)
    stock.scroll_into_view_if_needed()
    screenshot(page, "exercise_choice_buttons")
    assert not errors, errors
    assert not console, console


def test_score_page_counts_music_rules_minus_one_per_card(voila_server, page, screenshot):
    """The report: with musical rules the page showed "63 points" beside a score of −3."""
    errors = page_errors(page)
    page.goto(voila_server.render("score.ipynb")
              + "?rules=crazy-8s-music&seat1=8D+3C&seat2=QH+AS+JD", timeout=120_000)
    page.wait_for_selector("table.crazylab-score", timeout=120_000)
    rows = page.locator("table.crazylab-score tbody tr")
    assert rows.count() == 3
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(3)]
    assert cells[1][-2:] == ["−2", "−2"] and cells[2][-2:] == ["−3", "−3"], cells
    text = page.locator(".crazylab-scoring").inner_text()
    assert "cards left (−1 each)" in text and "63" not in text and "53" not in text
    screenshot(page, "score_page_music")
    assert not errors, errors


def test_piano_with_chromiums_own_web_audio_logs_no_error(voila_server, page):
    """No stand-in: Chromium's real AudioContext, made by a click, plays without an error."""
    errors, console = page_errors(page), console_errors(page)
    page.add_init_script("""
      window.__made = 0;
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        constructor(...a) { super(...a); window.__made++; }
      };
    """)
    page.goto(voila_server.render("piano.ipynb"), timeout=120_000)
    page.wait_for_selector(".cl-piano-caption", timeout=120_000)
    page.locator("[data-midi][aria-label$=': fits']").first.click()
    page.wait_for_function("() => window.__made === 1", timeout=10_000)
    page.locator("[data-midi]").nth(1).click()
    page.wait_for_timeout(1500)  # the notes ring out
    assert page.evaluate("() => window.__made") == 1
    assert not errors, errors
    assert not console, console


def test_piano_page_passes_axe_and_fits_a_phone(voila_server, page, screenshot):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(voila_server.render("piano.ipynb"), timeout=120_000)
    page.wait_for_selector(".cl-download-midi", timeout=120_000)
    results = Axe().run(page)
    serious = [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
               for v in results.response["violations"] if v["impact"] in ("serious",
                                                                         "critical")]
    assert not serious, "\n".join(serious)
    page.set_viewport_size({"width": 390, "height": 740})
    page.wait_for_timeout(500)
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 392, f"the page scrolls sideways at 390 px ({width} px wide)"
    screenshot(page, "piano_390")

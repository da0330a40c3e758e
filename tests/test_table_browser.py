"""The game table in the Voilà app, played as a learner plays it: whole hands of classic Crazy
Eights, of Crazy Breens from a position with a King chain and a Jack counter, and of a music
level; every effect said in words and kept on screen, no rule id at the table, the end of a
hand with every hand face up and the points counted; the first card within 3 Tabs, a visible
focus ring, and on a phone a raised card never over the hand's label. Any console error or
page error fails the test."""

from __future__ import annotations

import re

import pytest
from browser_support import YOUR_TURN, human_step, write_notebook

pytestmark = pytest.mark.browser

from crazylab.rulebook import RULE_ID  # noqa: E402

CARD_CODE = re.compile(r"(?<![\w@+])(?:10|[2-9AJQK])[CDHS](?![\w@:+])")

CHAIN = '''\
from crazylab.engine.game import Game
from crazylab.widgets import GameTable


def first_play(obs, rng):
    """A bot that plays (a Jack counter when hit) whenever it can: the test knows its moves."""
    plays = [m for m in obs.legal if m.kind == "play"]
    return plays[0] if plays else obs.legal[0]


game = Game.from_position(
    "crazy-breens", 2, hands=[["KS", "5D", "6D"], ["JD", "9C", "4H", "QC"]],
    stock=["KD", "2D", "3C", "9S", "10C", "7D", "4S", "5C", "8H", "3H"],
    discard=["7S"], to_play=0)
table = GameTable("crazy-breens", opponents=1, seed=1, delay=0.4, bot=first_play)
table.set_game(game)
table'''


HOUSE = """\
import crazylab
from crazylab.widgets import GameTable

table = GameTable(crazylab.rules("crazy-eights-quick", draw_limit=2), opponents=1, seed=1)
table"""


@pytest.fixture(scope="module")
def notebooks_server(voila_factory, tmp_path_factory):
    """Voilà on a folder of the positions these tests play."""
    root = tmp_path_factory.mktemp("table-positions")
    write_notebook(root, "chain.ipynb", CHAIN)
    write_notebook(root, "house.ipynb", HOUSE)
    return voila_factory(root)


def _watch(page) -> list[str]:
    """Every console error and uncaught page error from now on."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"console: {msg.text}")
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _open(page, url: str) -> None:
    page.goto(url, timeout=90_000)
    page.wait_for_selector(".cl-card", timeout=90_000)
    page.wait_for_function(YOUR_TURN, timeout=60_000)


def _over(page) -> bool:
    return page.locator(".cl-table").get_attribute("data-over") == "true"


def _play_to_the_end(page, errors: list[str]) -> None:
    for _ in range(400):
        if _over(page):
            break
        page.wait_for_function(YOUR_TURN, timeout=60_000)
        if _over(page):
            break
        human_step(page)
        _words_for_people(page)
    assert _over(page), "the hand did not end"
    page.wait_for_selector(".cl-end", timeout=30_000)
    assert not errors, errors


def _words_for_people(page) -> None:
    """No rule id and no card code anywhere a learner reads at the table (the board)."""
    text = page.inner_text(".cl-board")
    assert not RULE_ID.search(text), RULE_ID.search(text)
    assert not CARD_CODE.search(text), CARD_CODE.search(text)
    assert "You's" not in text and "You: " not in text and "(seat 0)" not in text


def _check_end_panel(page, players: int) -> list[dict]:
    """The end panel: a row per player, each hand left face up (one drawn card per card),
    and the sums right."""
    rows = page.evaluate("""() => [...document.querySelectorAll('.cl-end-table tbody tr')]
        .map(tr => ({name: tr.querySelector('th').innerText,
                     cards: tr.querySelectorAll('.cl-end-card svg').length,
                     counted: tr.querySelector('.cl-end-count').innerText,
                     score: (tr.querySelector('.cl-end-score') || {}).innerText}))""")
    assert len(rows) == players
    for row in rows:
        shown = re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]|🃏", row["counted"])
        assert len(shown) == row["cards"], row  # every card left is drawn face up
        sums = re.fullmatch(r"(.+) = (−?\d+)", row["counted"])
        if sums:
            values = [int(v.replace("−", "-"))
                      for v in re.findall(r"(?:[♣♦♥♠]|🃏) (−?\d+)", sums.group(1))]
            assert sum(values) == int(sums.group(2).replace("−", "-")), row
    assert page.locator(".cl-end-match").inner_text().strip()
    return rows


def test_classic_whole_hand_ends_with_every_hand_counted(voila_server, page, screenshot):
    errors = _watch(page)
    _open(page, voila_server.render("play.ipynb")
          + "?rules=crazy-eights-classic&opponents=2&seed=5&delay=0.05")
    _words_for_people(page)
    _play_to_the_end(page, errors)
    rows = _check_end_panel(page, 3)
    how = page.locator(".cl-end").inner_text()
    winners = [r for r in rows if r["cards"] == 0]
    if winners and "void" not in how:  # went out: the winner collects the other hands
        losers = [int(re.findall(r"(\d+)$", r["counted"])[0]) for r in rows if r["cards"]]
        assert f"= {sum(losers)}" in how or str(sum(losers)) in how
    assert "first to 100" in page.locator(".cl-end-match").inner_text()
    screenshot(page, "table_end_of_hand_classic")
    assert not errors, errors


def test_breens_king_chain_and_jack_counter_are_said_and_stay(notebooks_server, page,
                                                             screenshot):
    errors = _watch(page)
    _open(page, notebooks_server.render("chain.ipynb"))
    page.locator(".cl-card[data-card='KS']").click()
    page.wait_for_function(YOUR_TURN, timeout=60_000)
    news = page.locator(".cl-news").inner_text()
    for said in ("You played K♠.", "Your K♠ turns K♦ from the stock", "Your K♦ turns 2♦",
                 "Your 2♦ hits Bot 1", "Bot 1 countered with J♦"):
        assert said in news, news
    assert "play a marked card" in page.locator(".cl-prompt").inner_text()
    page.wait_for_timeout(1500)  # still there to read long after the last step
    assert "Bot 1 countered with J♦" in page.locator(".cl-news").inner_text()
    status = page.locator(".cl-status")
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live")
    _words_for_people(page)
    screenshot(page, "table_breens_king_chain", full_page=False)
    _play_to_the_end(page, errors)
    rows = _check_end_panel(page, 2)
    assert rows[1]["cards"] == 6  # Bot 1's cards, face up
    assert "keeps no score" in page.locator(".cl-end").inner_text()
    screenshot(page, "table_breens_end_of_hand")
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: the panel fits
    page.wait_for_timeout(300)
    wide = page.evaluate("""() => [...document.querySelectorAll('.cl-end *')]
        .filter(e => e.getBoundingClientRect().right > 392).map(e => e.className)""")
    assert not wide, wide
    page.locator(".cl-end").scroll_into_view_if_needed()
    screenshot(page, "table_breens_end_of_hand_390", full_page=False)
    assert not errors, errors


def test_a_music_level_hand_counts_minus_one_a_card_on_piles_from_1(voila_server, page,
                                                                     screenshot):
    errors = _watch(page)
    _open(page, voila_server.render("play.ipynb")
          + "?rules=crazy-8s-level-2&opponents=1&seed=4&delay=0.05")
    labels = page.locator(".cl-pile .cl-caption").all_inner_texts()
    assert any(t.startswith("Pile 1") for t in labels) and any(t.startswith("Pile 2")
                                                               for t in labels), labels
    assert not any(t.startswith("Pile 0") for t in labels)
    _play_to_the_end(page, errors)
    rows = _check_end_panel(page, 2)
    for row in rows:
        if row["cards"]:
            assert "−1" in row["counted"] and row["score"] == f"-{row['cards']}", row
    screenshot(page, "table_end_of_hand_music")
    assert not errors, errors


def test_the_first_card_is_within_3_tabs_with_a_visible_focus_ring(voila_server, page):
    errors = _watch(page)
    _open(page, voila_server.render("play.ipynb") + "?rules=crazy-eights&opponents=1&seed=2")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")
    stops = []
    for _ in range(3):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("() => document.activeElement.className || "
                                   "document.activeElement.tagName"))
        if "cl-card" in stops[-1]:
            break
    assert "cl-card" in stops[-1], f"Tab stops from the top: {stops}"
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {width: parseFloat(s.outlineWidth), style: s.outlineStyle,
                color: s.outlineColor}; }""")
    assert ring["width"] >= 2 and ring["style"] != "none", ring
    # the skip link is the table's first stop, and it moves the focus to the hand
    page.evaluate("() => document.querySelector('.cl-skip').focus()")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineWidth") != "0px"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.classList.contains('cl-card')")
    assert not errors, errors


def test_on_a_phone_a_raised_card_never_covers_the_hand_label(voila_server, page, screenshot):
    errors = _watch(page)
    page.set_viewport_size({"width": 390, "height": 800})
    _open(page, voila_server.render("play.ipynb") + "?rules=crazy-eights&opponents=1&seed=3")
    cards = page.locator(".cl-card")
    for i in range(min(cards.count(), 8)):
        cards.nth(i).hover()
        cards.nth(i).focus()
        page.wait_for_timeout(150)  # the raise's transition
        overlap = page.evaluate("""(i) => {
            const label = document.querySelector('.cl-hand-label').getBoundingClientRect();
            const card = document.querySelectorAll('.cl-card')[i].getBoundingClientRect();
            return label.bottom - card.top; }""", i)
        assert overlap <= 0, f"card {i} covers the hand's label by {overlap:.1f} px"
    screenshot(page, "table_phone_raised_card", full_page=False)
    assert not errors, errors


def test_a_house_rules_variant_is_named_and_its_sheet_is_in_words(notebooks_server, page,
                                                                  screenshot):
    errors = _watch(page)
    _open(page, notebooks_server.render("house.ipynb"))
    assert page.inner_text(".cl-name") == "crazy-eights-quick + house rules: draw limit 2"
    page.locator(".cl-sheet summary").click()
    sheet = page.inner_text(".cl-sheet-body")
    assert "Draw limit: 2 (the preset: 3)" in sheet and "draw up to 2" in sheet, sheet
    assert not re.search(r"\(\(|\),\)", sheet)  # no Python tuple
    page.locator(".cl-sheet").scroll_into_view_if_needed()
    screenshot(page, "table_house_rules_sheet", full_page=False)
    assert not errors, errors

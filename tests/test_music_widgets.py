"""The interval explorer and its piano keyboard, driven from Python: the keys that light up
for each level (MU-26 … MU-32), the cards of a key, the reasons for a card, and following a
real game or a game table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

import crazylab as cl  # noqa: E402
from crazylab.engine.cards import card, cards, sort_key  # noqa: E402
from crazylab.engine.game import Game  # noqa: E402
from crazylab.widgets.music import (  # noqa: E402
    IntervalExplorer,
    PianoKeyboard,
    Reference,
    keyboard_keys,
)

WIDGETS = Path(__file__).resolve().parents[1] / "crazylab" / "widgets"


def fitting(ex):
    return sorted({k["pc"] for k in ex.key_states if k["fits"]})


def test_keyboard_front_end_files_exist():
    js = (WIDGETS / "piano.js").read_text()
    assert "export default" in js and "piano_keys" in js and "selected" in js
    assert (WIDGETS / "piano.css").read_text().strip()


def test_MU_T7_level_3_lights_the_four_thirds_of_c():
    ex = IntervalExplorer("crazy-8s-level-3", top="3D")
    assert fitting(ex) == [3, 4, 8, 9]  # E♭ E A♭ A
    ref = [k for k in ex.key_states if k["state"] == "ref"]
    assert [k["name"] for k in ref] == ["C"] and not ref[0]["fits"]  # MU-29
    named = {k["pc"]: k["interval"] for k in ex.key_states if k["fits"]}
    assert named[3] == "a minor third up" and named[4] == "a major third up"
    assert named[9] == "a minor third down" and named[8] == "a major third down"
    assert "minor or major third" in ex.summary.value


def test_MU_32_level_4_up_only_the_keyboard_is_asymmetric():
    ex = IntervalExplorer("crazy-8s-level-4", top="3C")
    assert fitting(ex) == [2]  # only D
    down = [k for k in ex.key_states if k["step"] == "−2"]
    assert down and down[0]["state"] == "no" and down[0]["interval"] == "a whole tone down"
    assert "up only" in ex.summary.value
    why = ex.click_card("9C")  # A♯ is a whole tone below C
    assert "whole tone down" in why and "only up" in why


def test_MU_29_unison_never_lights_in_any_level():
    for level in range(1, 6):
        ex = IntervalExplorer(f"crazy-8s-level-{level}", top="4D")
        assert 2 not in fitting(ex)
        assert "unison" in ex.click_card("4S") or "same letter" in ex.click_card("4S")


def test_MU_5_main_game_lights_the_same_pitch_and_names_the_suit():
    ex = IntervalExplorer("crazy-8s-music", top="5H")
    assert fitting(ex) == [4]  # E: the 5s of the other suits
    assert "every heart" in ex.summary.value
    assert "same pitch" in ex.click_card("5D")
    assert "follows the suit" in ex.click_card("KH")
    assert "matches neither" in ex.click_card("6C")


def test_MU_Q7_main_game_joker_call_has_no_pitch():
    ex = IntervalExplorer("crazy-8s-music", top="JK", call="D")
    assert fitting(ex) == []
    assert "called suit is ♦" in ex.click_card("KH")
    assert ex.fits("QD") and "follows the suit" in ex.click_card("QD")


def test_MU_31_level_1_letters_and_absent_black_keys():
    ex = IntervalExplorer("crazy-8s-level-1", top="AS")
    assert fitting(ex) == [7, 11]  # G and B
    black = [k for k in ex.key_states if k["black"]]
    assert black and all(k["state"] == "absent" for k in black)  # no 9-K in Level 1
    assert "two letter steps up" in ex.click_card("3S")


def test_MU_T10_an_announced_pitch_is_the_reference():
    ex = IntervalExplorer("crazy-8s-level-2", top="8S", call="Gb")
    assert ex.ref == Reference(card("8S"), 6)
    assert fitting(ex) == [5, 7]  # F and G
    assert "unison never counts" in ex.click_card("QD")
    assert "semitone up" in ex.click_card("7H")


def test_clicking_a_key_shows_its_cards_and_each_card_says_why():
    ex = IntervalExplorer("crazy-8s-level-5", top="3C")
    got = ex.click_key("F")
    assert got == cards("6C 6D 6H 6S")
    assert [b.description for b in ex.card_buttons.children] == ["6♣", "6♦", "6♥", "6♠"]
    assert all(b.button_style == "success" for b in ex.card_buttons.children)
    ex.card_buttons.children[2].click()
    assert "perfect fourth up" in ex.reason and "✓ fits" in ex.why.value
    ex.click_key("D")
    ex.card_buttons.children[0].click()
    assert "✗ does not fit" in ex.why.value and "whole tone up" in ex.reason
    with pytest.raises(ValueError):
        ex.piano.click(0)  # not a key of this keyboard


def test_the_controls_change_level_top_and_call():
    ex = IntervalExplorer("crazy-8s-level-1", top="AS")
    ex.level_box.value = "crazy-8s-level-3"
    assert ex.rules.name == "crazy-8s-level-3" and fitting(ex) == [0, 1, 5, 6]  # on A
    ex.top_box.value = "8S"
    assert ex.call_box.layout.display == "" and ex.ref.call == 0  # a wild top: announce
    ex.call_box.value = 7  # G
    assert fitting(ex) == [3, 4, 10, 11]
    assert ex.errors == []


def test_the_explorer_follows_a_real_game_pile_by_pile():
    g = Game.from_position("crazy-8s-level-2", 2, hands=[["2C", "AS", "4H"], ["5S"]],
                           piles=[["3D"], ["KS"]], stock=["6D"])
    ex = IntervalExplorer()
    ex.show_game(g)
    assert ex.pile_box.layout.display == "" and len(ex.refs) == 2
    assert [b.description for b in ex.card_buttons.children] == ["2♣", "4♥", "A♠"]
    assert fitting(ex) == [1, 11]
    assert "semitone down" in ex.click_card("2C")
    assert ex.click_card("AS") == g.explain("AS@0")  # the engine's own reason
    ex.choose_pile(1)
    assert fitting(ex) == [7, 9]
    assert "semitone up" in ex.click_card("AS")
    g.push("draw")
    ex.show_game(g, seat=0)
    assert "one you drew" in ex.click_card("2C")  # MU-Q9, from the live game
    with pytest.raises(ValueError):
        ex.choose_pile(2)


def test_the_explorer_follows_a_game_table():
    widgets = pytest.importorskip("crazylab.widgets")
    table = widgets.GameTable("crazy-8s-level-4", opponents=1, seed=3, delay=0)
    ex = IntervalExplorer()
    ex.follow(table)
    assert ex.game is table.game and len(ex.refs) == 4
    rng = random.Random(1)
    moved = 0
    for _ in range(6):
        if table.game.over or table.game.to_play != 0:
            break
        assert table.play(rng.choice(table.game.legal()))
        moved += 1
    assert [r.top for r in ex.refs] == table.game.tops
    assert ex.hand == sorted(table.game.hands[0], key=sort_key)
    assert ex.game is table.game and ex.errors == []
    assert moved, "the human made at least one move"


def test_keyboard_keys_is_centred_and_starts_and_ends_white():
    r = cl.rules("crazy-8s-level-5")
    keys = keyboard_keys(r, Reference(card("3C")))
    assert not keys[0]["black"] and not keys[-1]["black"]
    steps = [k["step"] for k in keys]
    assert "−7" in steps and "+7" in steps and "0" in steps
    assert {k["pc"] for k in keys if k["fits"]} == {5, 7}
    piano = PianoKeyboard(piano_keys=keys)
    piano.click(keys[3]["midi"])
    assert piano.selected == keys[3]["midi"]


def test_a_rule_set_without_pitches_is_refused():
    with pytest.raises(ValueError, match="not a musical rule set"):
        IntervalExplorer("crazy-eights", top="6H")


BROWSER_CELL = """\
from crazylab.widgets.music import IntervalExplorer

explorer = IntervalExplorer("crazy-8s-level-3", top="3D")
explorer
"""


@pytest.fixture(scope="module")
def piano_dir(tmp_path_factory):
    from browser_support import write_notebook

    root = tmp_path_factory.mktemp("voila-piano")
    write_notebook(root, "piano.ipynb", BROWSER_CELL)
    return root


@pytest.mark.browser
def test_the_piano_draws_and_a_click_reaches_python(voila_factory, piano_dir, page, screenshot):
    from browser_support import page_errors
    from playwright.sync_api import expect

    server = voila_factory(piano_dir)
    errors = page_errors(page)
    page.goto(server.render("piano.ipynb"), timeout=60_000)
    keys = page.locator(".cl-piano .cl-keyg")
    expect(keys.first).to_be_visible(timeout=60_000)
    expected = keyboard_keys(cl.rules("crazy-8s-level-3"), Reference(card("3D")))
    assert keys.count() == len(expected)  # F3 … G4: a fifth either side of C4
    assert page.locator(".cl-piano rect.cl-ok").count() == 4  # the four thirds of C
    assert page.locator(".cl-piano rect.cl-ref").count() == 1
    expect(page.locator(".cl-fitlist li")).to_have_count(4)
    page.locator(".cl-keyg[aria-label^='E,']").first.click()  # E: a major third up
    button = page.get_by_role("button", name="5♥")
    expect(button).to_be_visible(timeout=20_000)
    button.click()
    expect(page.locator(".cl-why")).to_contain_text("major third up", timeout=20_000)
    screenshot(page)
    assert errors == []

"""crazylab.sheet.rules_sheet: a one-page rules sheet written from the rule set, so it follows
the options (and the committed notebooks/sheets/*.md match the generator)."""

from pathlib import Path

import pytest

import crazylab as cl
from crazylab.sheet import rules_sheet

SHEETS = Path(__file__).resolve().parent.parent / "notebooks" / "sheets"


@pytest.mark.parametrize("name", list(cl.PRESETS))
def test_every_preset_has_a_one_page_sheet(name):
    text = rules_sheet(cl.rules(name))
    assert text.startswith(f"# {name}: rules sheet")
    assert len(text.splitlines()) <= 45 and len(text) < 3500  # one printed page
    assert (SHEETS / f"{name}.md").read_text(encoding="utf-8") == text, "run `make lessons`"


def test_sheet_follows_the_draw_options_sr_17_ap_11():
    assert "voluntary draw" in rules_sheet(cl.rules("crazy-eights"))
    forced = rules_sheet(cl.rules("crazy-eights", voluntary_draw=False))
    assert "must** play when you can" in forced and "voluntary_draw=False" in forced
    assert "up to 3" in rules_sheet(cl.rules("crazy-eights-quick"))
    assert "up to 2" in rules_sheet(cl.rules("crazy-eights-quick", draw_limit=2))
    assert "draw **one**" in rules_sheet(cl.rules("crazy-eights", draw_rule="one"))


def test_sheet_follows_reshuffle_match_and_blocked_options_ap_12_ap_16_sr_20():
    classic = rules_sheet(cl.rules("crazy-eights-classic"))
    assert "at most **3 times**" in classic and "**100**" in classic
    assert "at most **1 times**" in rules_sheet(cl.rules("crazy-eights-classic",
                                                           max_reshuffles=1))
    assert "**never** reshuffled" in rules_sheet(cl.rules("crazy-eights"))
    assert "void" in rules_sheet(cl.rules("crazy-eights"))
    assert "deal moves on" in rules_sheet(cl.rules("crazy-eights", void_hand_dealer="rotate"))


def test_sheet_special_cards_follow_breens_options_br_17():
    breens = rules_sheet(cl.rules("crazy-breens"))
    assert "draws 4" in breens and "| K |" in breens
    assert "draws 2 and loses" in rules_sheet(cl.rules("crazy-breens", joker_draw=2))
    assert "all the hits go to the next player" in rules_sheet(
        cl.rules("crazy-breens", stack_targeting="all_on_next"))
    assert "| K |" not in rules_sheet(cl.rules("crazy-eights"))


def test_sheet_music_levels_mu_26_mu_29():
    assert "one letter step" in rules_sheet(cl.rules("crazy-8s-level-1"))
    assert "minor third or a major third" in rules_sheet(cl.rules("crazy-8s-level-3"))
    assert "perfect fourth or a perfect fifth" in rules_sheet(cl.rules("crazy-8s-level-5"))
    assert "whole tone up" in rules_sheet(cl.rules("crazy-8s-level-4"))
    assert "4 starters" in rules_sheet(cl.rules("crazy-8s-level-4"))
    assert "own** suit" in rules_sheet(cl.rules("crazy-8s-music"))
    assert "draw 2" in rules_sheet(cl.rules("crazy-8s-music"))


def test_sheet_follows_hand_size_by_players_sr_q15():
    """SR-Q15: the cards dealt by table size (a builder's house rule) are on the sheet."""
    text = rules_sheet(cl.rules("crazy-eights-classic", hand_size_by_players={2: 6}))
    assert "Deal 5 cards each (6 each with two players)" in text
    text = rules_sheet(cl.rules("crazy-eights", hand_size_by_players={2: 7, 3: 6}))
    assert "(7 each with two players; 6 each with three players)" in text
    every = rules_sheet(cl.rules("crazy-eights", hand_size_by_players={2: 7, 3: 6, 4: 6, 5: 6}))
    assert "Deal cards: 7 each with two players; 6 each with three players" in every


def test_sheet_follows_card_values_c_16():
    """C-16 with house card values: the sheet names the changed values."""
    text = rules_sheet(cl.rules("crazy-eights", card_values={8: 20, 13: 5}))
    assert "but **8 = 20**, **K = 5**" in text
    assert "but" not in [line for line in rules_sheet(cl.rules("crazy-eights")).splitlines()
                         if "winner scores" in line][0]


def test_sheet_as_html_has_its_headings_lists_table_and_escapes_text():
    from crazylab.sheet import markdown_html, rules_sheet_html

    page = rules_sheet_html(cl.rules("crazy-breens"))
    assert page.startswith("<h1>crazy-breens: rules sheet</h1>")
    assert "<li>Play a card of the same <strong>suit</strong>" in page
    assert "<table><thead><tr><th>card</th><th>effect</th></tr></thead>" in page
    assert "<tr><td>A</td><td>the next player is skipped</td></tr>" in page
    assert "|" not in page and "**" not in page
    assert "<em>end</em>" in rules_sheet_html(cl.rules("crazy-8s-music"))
    assert markdown_html("# a <b>\n\n* x & `<i>`\n* y\n\ntext *it*\nmore") == (
        "<h1>a &lt;b&gt;</h1>\n<ul><li>x &amp; <code>&lt;i&gt;</code></li><li>y</li></ul>\n"
        "<p>text <em>it</em> more</p>")

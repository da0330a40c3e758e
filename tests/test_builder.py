"""The rule-set builder (crazylab.widgets.RuleBuilder) driven from Python: one control per
option of the typed schema, of the right kind; a change rebuilds the rule set, its rules
sheet and its Python and command-line text, which build the same rule set; a refused
combination shows the engine's message and changes nothing; Play deals the built rules on a
table, and the explorer explores them."""

from __future__ import annotations

import contextlib
import io
import shlex

import ipywidgets as w
import pytest

import crazylab
from crazylab import cli
from crazylab.engine.narrator import story
from crazylab.engine.options import FIELDS, parse_option
from crazylab.engine.rules import PRESETS
from crazylab.sheet import rules_sheet
from crazylab.widgets import GameTable, LegalMoveExplorer, RuleBuilder
from crazylab.widgets.builder import changed_options, cli_text, python_text

pytestmark = pytest.mark.oldest

KINDS = {"bool": w.Checkbox, "choice": w.Dropdown, "int": w.BoundedIntText,
         "optional_int": w.HBox, "ints": w.Text, "int_map": w.Text, "effect_map": w.Text}


def built_from_cli(text: str) -> crazylab.RuleSet:
    """The rule set the command line ``text`` (``crazylab play NAME --option ...``) plays."""
    args = cli.build_parser().parse_args(shlex.split(text)[1:])
    return crazylab.rules(args.rules, **dict(parse_option(o) for o in args.option))


def test_every_schema_option_has_a_control_of_its_kind():
    b = RuleBuilder("crazy-eights")
    assert b.options_box.children == () and b.options_box.layout.display == "none"
    b.open_button.value = True  # the options are made when the panel first opens
    assert b.options_box.layout.display == "" and len(b.options_box.children) == len(FIELDS)
    assert list(b.controls) == list(FIELDS)
    for name, option in FIELDS.items():
        widget = b.controls[name].widget
        assert isinstance(widget, KINDS[option.kind]), name
        if option.kind == "int":
            assert (widget.min, widget.max) == (option.low, option.high), name
        if option.kind == "choice":
            assert tuple(widget.options) == option.allowed_choices(), name
    # the controls show the preset's values
    for name in FIELDS:
        assert b.controls[name].get() == getattr(PRESETS["crazy-eights"], name), name


def test_sr_17_toggle_changes_rules_sheet_python_and_cli_text():
    """SR-17 / AP-Q5: voluntary drawing on the classic rule, from the builder's checkbox."""
    b = RuleBuilder("crazy-eights-classic")
    assert "You **must** play when you can" in rules_sheet(b.rules)
    assert "must</strong> play when you can" in b.sheet.value
    b.controls["voluntary_draw"].input.value = True  # as a click on the checkbox does
    assert b.rules == crazylab.rules("crazy-eights-classic", voluntary_draw=True)
    assert "voluntary draw" in b.sheet.value and "must</strong> play" not in b.sheet.value
    assert b.python_text() == 'crazylab.rules("crazy-eights-classic", voluntary_draw=True)'
    assert b.cli_text() == "crazylab play crazy-eights-classic --option voluntary_draw=true"
    assert "voluntary_draw=true" in b.changed_html.value
    assert "clb-python" in b.code_html.value and b.errors == [] and b.refusals == []


@pytest.mark.parametrize("preset", list(PRESETS))
def test_python_and_cli_text_build_the_same_rules(preset):
    """Every kind of control at once (a choice, a number, a list, a map, an optional number):
    the Python text and the command line both give the builder's rule set."""
    b = RuleBuilder(preset)
    wanted = {"reshuffle": "limited", "max_reshuffles": 2, "joker_points": 25,
              "card_values": ((8, 20), (13, 5)), "voluntary_draw": not b.rules.voluntary_draw}
    if b.rules.matching == "suit_rank":
        wanted["removed_ranks"] = (9,)
    if b.rules.scoring == "winner_collects":
        wanted["match_target"] = 150
    for name, value in wanted.items():
        b.set_option(name, value)
    assert b.refusals == [] and b.errors == []
    assert {k: b.rules.options()[k] for k in wanted} == wanted
    assert eval(b.python_text(), {"crazylab": crazylab}) == b.rules
    assert built_from_cli(b.cli_text()) == b.rules
    assert set(changed_options(b.rules)) >= set(wanted) - {k for k in wanted
                                                           if getattr(PRESETS[preset], k)
                                                           == wanted[k]}


def test_text_boxes_read_the_command_line_syntax():
    b = RuleBuilder("crazy-eights")
    b.controls["removed_ranks"].input.value = "9, 10"
    b.controls["hand_size_by_players"].input.value = "2:7,3:6"
    assert b.rules.removed_ranks == (9, 10)
    assert b.rules.hand_size_by_players == ((2, 7), (3, 6))
    assert "hand_size_by_players={2: 7, 3: 6}" in b.python_text()
    assert "--option hand_size_by_players=2:7,3:6" in b.cli_text()
    assert "7 each with two players" in b.sheet.value
    b.controls["removed_ranks"].input.value = ""
    assert b.rules.removed_ranks == ()


def test_optional_number_is_switched_on_and_off():
    b = RuleBuilder("crazy-eights")
    control = b.controls["match_target"]
    control.switch.value = True
    assert b.rules.match_target == control.number.value == 100  # a preset's value
    control.number.value = 250
    assert b.rules.match_target == 250 and "**250**" in rules_sheet(b.rules)
    control.switch.value = False
    assert b.rules.match_target is None and control.number.disabled


@pytest.mark.parametrize("name, value, control_value", [
    ("chain", True, True),  # with stacking on: "stacking and chain cannot both be on"
    ("removed_ranks", "8", "8"),  # the schema: an eight is never removed
    ("hand_size_by_players", "9:5", "9:5"),  # a table size the rule set does not play
    ("action_cards", "K=explode", "K=explode"),  # V12: no such effect
])
def test_a_refused_combination_shows_the_message_and_changes_nothing(name, value, control_value):
    b = RuleBuilder("crazy-eights")
    b.set_option("stacking", True)
    table = GameTable("crazy-eights", opponents=1, seed=2, delay=0)
    b.connect(table)
    before, game = b.rules, table.game
    sheet, code = b.sheet.value, b.code_html.value
    control = b.controls[name]
    control.input.value = control_value
    assert b.rules is before and b.sheet.value == sheet and b.code_html.value == code
    assert control.get() == getattr(before, name)  # the control went back
    assert len(b.refusals) == 1
    message = b.refusals[0]
    with pytest.raises(crazylab.RulesError) as refused:
        crazylab.rules("crazy-eights", stacking=True,
                       **{name: FIELDS[name].parse(value) if isinstance(value, str) else value})
    assert str(refused.value) == message
    assert b.error_area.layout.display == "" and "nothing was changed" in b.error_area.value
    assert "Traceback" not in b.error_area.value and b.errors == []
    assert table.game is game  # nothing was dealt
    b.set_option("voluntary_draw", False)  # the next accepted change clears the message
    assert b.error_area.layout.display == "none"


def test_preset_and_reset_drop_the_house_rules():
    b = RuleBuilder("crazy-eights", {"draw_rule": "one"})
    assert b.rules.must_play_drawn is False  # rules() ties draw_rule="one" to it (SR-Q18)
    assert b.controls["must_play_drawn"].get() is False
    b.set_preset("crazy-breens")
    assert b.rules == PRESETS["crazy-breens"] and b.python_text() == \
        'crazylab.rules("crazy-breens")'
    assert "| K |" in rules_sheet(b.rules) and "<table>" in b.sheet.value
    b.set_option("joker_draw", 2)
    b.reset_button.click()
    assert b.rules == PRESETS["crazy-breens"]


def test_play_deals_the_built_rules_on_the_table_and_a_card_plays():
    table = GameTable("crazy-eights-classic", opponents=2, seed=5, delay=0)
    b = RuleBuilder(table.rules, target=table)
    b.set_option("voluntary_draw", True)
    assert table.rules.voluntary_draw is False  # nothing changes before Play
    b.play_button.click()
    assert table.rules is b.rules and table.game.rules is b.rules and table.errors == []
    assert table.view["rules"] == "crazy-eights-classic" and b.built == [b.rules]
    table.run_bots()
    assert table.your_turn
    legal = [c["card"] for c in table.view["hand"] if c["legal"]]
    assert legal and "draw" in table.game.legal()  # voluntary drawing is on (SR-17)
    hand = len(table.game.hands[0])
    assert table.click_card(legal[0]) and not table.view.get("chooser")
    assert len(table.game.hands[0]) == hand - 1
    assert legal[0] in [str(m) for m in table.game.moves]
    assert table.errors == []


def test_live_builder_drives_the_explorer():
    explorer = LegalMoveExplorer(rules="crazy-eights", top="6H", hand="6C KH 3D JK")
    assert explorer.game is None and "JK is not in the crazy-eights deck" in \
        explorer.message.value
    b = RuleBuilder("crazy-eights", target=explorer, live=True, button="Explore these rules")
    b.set_option("jokers", 2)  # live: the explorer follows at once
    assert explorer.rules is b.rules and explorer.errors == []
    assert explorer.table.loc["🃏", "legal"] and not explorer.table.loc["3♦", "legal"]
    assert explorer.table.loc["3♦", "rule"] == explorer.game.explain("3D")
    assert b.built == [b.rules]
    explorer.rules_box.value = "crazy-eights-classic"  # the explorer's own dropdown: a preset
    assert explorer.rules == PRESETS["crazy-eights-classic"] and explorer.game is None


def test_cli_play_and_rules_take_the_builders_options():
    b = RuleBuilder("crazy-eights").set_option("draw_rule", "one").set_option("reshuffle",
                                                                              "unlimited")
    line = b.cli_text()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(shlex.split(line)[1:] + ["--seed", "4"]) == 0
    game = crazylab.Game.new(b.rules, 2, 4)
    game.play_random(4)
    assert out.getvalue().splitlines()[:-1] == story(game)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rules_line = line.replace("crazylab play", "crazylab rules")
        assert cli.main(shlex.split(rules_line)[1:]) == 0
    assert "reshuffle              'unlimited'" in out.getvalue()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert cli.main(["play", "crazy-eights", "--option", "stacking=yes", "--option",
                         "chain=yes"]) == 2
    assert "stacking and chain cannot both be on" in err.getvalue()


def test_cli_text_quotes_nothing_it_does_not_need():
    rs = crazylab.rules("crazy-8s-music", pitch_map="C_based", intervals=(3, 4))
    assert cli_text(rs, "simulate") == ("crazylab simulate crazy-8s-music --option "
                                        "intervals=3,4 --option pitch_map=C_based")
    assert python_text(rs) == \
        'crazylab.rules("crazy-8s-music", intervals=(3, 4), pitch_map="C_based")'
    assert eval(python_text(rs), {"crazylab": crazylab}) == rs


def test_filter_shows_only_matching_options_and_bad_text_is_refused():
    b = RuleBuilder("crazy-eights")
    b.filter_box.value = "joker"
    shown = [n for n, c in b.controls.items() if c.row.layout.display != "none"]
    assert "jokers" in shown and "joker_draw" in shown and "draw_rule" not in shown
    assert all("joker" in f"{n} {FIELDS[n].doc}".lower() for n in shown)
    b.filter_box.value = ""
    assert all(c.row.layout.display != "none" for c in b.controls.values())
    before = b.rules
    b.controls["removed_ranks"].input.value = "nine"
    assert b.rules is before and b.controls["removed_ranks"].input.value == ""
    assert b.refusals == ["removed_ranks must be a list of different whole numbers from 1 to "
                          "13 other than 8 (got 'nine')"]
    assert "nothing was changed" in b.error_area.value


def test_house_action_cards_from_the_builder_match_python_and_the_cli():
    """V12 through the builder's text box: the same rule set as the Python and the CLI
    text it shows."""
    b = RuleBuilder("crazy-eights-classic")
    b.open_button.value = True
    b.controls["action_cards"].input.value = "2=draw2,A=skip"
    expected = crazylab.rules("crazy-eights-classic", action_cards={"2": "draw2", "A": "skip"})
    assert b.rules == expected
    assert built_from_cli(b.cli_text()) == expected
    assert eval(b.python_text(), {"crazylab": crazylab}) == expected  # noqa: S307

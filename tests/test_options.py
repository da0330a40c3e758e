"""The typed option schema (crazylab/engine/options.py): every RuleSet option is typed and
bounded, Python values and CLI text go through it, refusals are RulesError naming the option,
and docs/OPTIONS.md is generated from it."""

import dataclasses
import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spec_paths import entries as rulebook_entries
from spec_paths import rule_ids

import crazylab as cl
from crazylab.engine import options as opts
from crazylab.engine.options import (
    FIELDS,
    NAMES,
    OPTIONS,
    Option,
    RulesError,
    parse_option,
    parse_value,
)
from crazylab.engine.rules import PRESETS, RuleSet, rules

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

DOCS = Path(__file__).resolve().parents[1] / "docs" / "OPTIONS.md"
NOT_OPTIONS = {"name", "description", "options_changed", "variant"}  # variant: derived
#: the rulebook's ids: the rules, the option values (A1 …) and the variants (V1 …)
RULING_IDS = rule_ids()
RULESET_FIELDS = {f.name: f for f in dataclasses.fields(RuleSet) if f.name not in NOT_OPTIONS}


def presets_snapshot():
    return {name: (r, r.options_changed) for name, r in PRESETS.items()}


# -- the schema describes RuleSet exactly ---------------------------------------------------------


def test_the_schema_has_every_ruleset_option_in_field_order_with_its_default():
    assert list(FIELDS) == list(RULESET_FIELDS)
    assert list(OPTIONS) == [*FIELDS, *NAMES] and not set(FIELDS) & set(NAMES)
    for name, option in FIELDS.items():
        assert option.name == name and option.is_field
        assert option.default == RULESET_FIELDS[name].default, name
        assert option.check(option.default) == option.default
    assert all(not o.is_field and o.sets_doc for o in NAMES.values())


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_has_a_doc_and_real_ruling_ids(name):
    option = OPTIONS[name]
    assert option.doc and "\n" not in option.doc and len(option.doc) < 140
    assert option.rulings, f"{name} names no ruling"
    assert set(option.rulings) <= RULING_IDS, set(option.rulings) - RULING_IDS


def test_options_method_lists_the_schema():
    assert list(PRESETS["crazy-eights"].options()) == list(FIELDS)


def test_every_preset_passes_its_own_schema():
    for r in PRESETS.values():
        for name, option in FIELDS.items():
            assert option.check(getattr(r, name)) == getattr(r, name)


# -- each option's types and bounds ---------------------------------------------------------------


def bad_values(option: Option) -> list[object]:
    """Values of the wrong type for ``option``, and values just outside its bounds."""
    common = [float("nan"), 2.5, [1, [2]], {"a": 1}, object(), b"x"]
    if option.kind == "bool":
        return [*common, "no", "yes", "true", "x", 0, 1, None, [True]]
    if option.kind in ("int", "optional_int"):
        out = [*common, True, False, "3", 3.0, float("inf"), 10**38, 10**5000, [3],
               option.low - 1, option.high + 1]
        return out if option.kind == "optional_int" else [*out, None]
    if option.kind == "choice":
        return [*common, "nonsense", "", 5, None, True, [option.choices[0]],
                option.choices[0].upper() + "x"]
    if option.kind == "int_map":
        k, v = option.key_low, option.low
        return [*common[:2], object(), b"x", 5, "2:7", None, True, [k], [(k, v, v)], {k: True},
                {k: 2.0}, {k - 1: v}, {option.key_high + 1: v}, {k: v - 1}, {k: option.high + 1},
                [(k, v), (k, v)], {"x": v}, {"²": v}, {None: v}, [[k, [v]]]]
    if option.kind == "effect_map":
        return [*common[:2], object(), b"x", 5, None, True, [2], [(2, "skip", "x")], {2: True},
                {2: "zap"}, {2: ""}, {2: ["skip", 5]}, {14: "skip"}, {0: "skip"}, {"Z": "skip"},
                {"11H": "skip"}, {None: "skip"}, {2: "draw11"}, {2: "draw0"}, {2: "skip+skip"},
                {2: "draw2+draw4"}, [(2, "skip"), ("2", "wild")], "2=zap", "2", "Z=skip",
                {"x" * 100: "skip"}, {2: "skip" * 30}]
    assert option.kind == "ints"
    return [*common, 5, "9", None, True, [option.low - 1], [option.high + 1], [1, 1], [2.0],
            [True], [*option.exclude] or [option.high + 1]]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_each_option_refuses_wrong_types_and_out_of_bounds_values_by_name(name):
    option = OPTIONS[name]
    before = presets_snapshot()
    for value in bad_values(option):
        with pytest.raises(RulesError, match=rf"\b{name} must be") as info:
            option.check(value)
        for preset in ("crazy-eights", "crazy-breens", "crazy-8s-level-2"):
            with pytest.raises(RulesError, match=rf"\b{name}\b"):
                rules(preset, **{name: value})
        assert len(str(info.value)) < 300
    assert presets_snapshot() == before


def good_values(option: Option) -> list[object]:
    """Values across ``option``'s whole ruled range."""
    if option.kind == "bool":
        return [True, False]
    if option.kind in ("int", "optional_int"):
        good: list[object] = [option.low, option.high, (option.low + option.high) // 2]
        return good + ([None] if option.kind == "optional_int" else [])
    if option.kind == "choice":
        return [*option.choices, *option.value_aliases]
    if option.kind == "int_map":
        return [(), {option.key_low: option.low}, [(option.key_high, option.high)],
                {str(option.key_low): option.high, option.key_high: option.low}]
    if option.kind == "effect_map":
        return [(), {2: "draw2"}, {"A": "skip", "q": "reverse", "J": "wild", "QS": "draw5"},
                [("10", "draw10"), ("JK", "wild+draw4")], {13: "reverse+skip"}]
    allowed = [i for i in range(option.low, option.high + 1) if i not in option.exclude]
    return [(), allowed[:1], tuple(allowed[-2:]), allowed]


def stored(option: Option, value: object) -> object:
    if option.kind == "effect_map":
        order = {"A": 0, "2": 1, "10": 9, "J": 10, "Q": 11, "K": 12, "QS": 20, "JK": 21}
        pairs = value.items() if isinstance(value, dict) else value
        keys = {2: "2", 13: "K", "q": "Q"}
        return tuple(sorted(((keys.get(k, k), v) for k, v in pairs),
                            key=lambda kv: order[kv[0]]))
    if option.kind == "int_map":
        pairs = value.items() if isinstance(value, dict) else value
        return tuple(sorted((int(k), v) for k, v in pairs))
    if isinstance(value, list):
        return tuple(value)
    return option.value_aliases.get(value, value) if isinstance(value, str) else value


@pytest.mark.parametrize("name", list(OPTIONS))
def test_each_option_accepts_its_whole_range_or_says_the_engine_does_not_play_it_yet(name):
    option = OPTIONS[name]
    for value in good_values(option):
        if option.only is None or stored(option, value) in option.only:
            assert option.check(value) == stored(option, value)
        else:
            with pytest.raises(RulesError, match=rf"{name}=.* is ruled \(rulebook .*\) but the "
                               "engine does not play it yet"):
                option.check(value)
            with pytest.raises(RulesError, match="does not play it yet"):
                rules("crazy-eights", **{name: value})


def test_brief_cases_each_refused_with_the_option_named():
    """The values issue 12 found silently accepted or crashing."""
    cases = {"chain": "no", "specials": "x", "draw_limit": 10**38, "max_reshuffles": 10**9,
             "match_target": 10**18, "removed_ranks": 5, "pitch_map": ["A_based"],
             "joker_points": 10**6, "joker_draw": 99, "hand_size": 10**4, "hand_size_2p": 0}
    for name, value in cases.items():
        with pytest.raises(RulesError, match=name):
            rules("crazy-eights", **{name: value})


def test_chain_no_is_refused_not_truthy():
    with pytest.raises(RulesError, match="chain must be true or false"):
        rules("crazy-eights", chain="no")
    assert rules("crazy-eights", chain=False).chain is False


def test_draw_limit_above_the_deck_is_refused():
    assert rules("crazy-eights", draw_limit=52).draw_limit == 52
    with pytest.raises(RulesError, match="draw_limit must be at most the deck's 52"):
        rules("crazy-eights", draw_limit=53)
    with pytest.raises(RulesError, match="draw_limit must be at most the deck's 34"):
        rules("crazy-8s-level-1", draw_limit=35)


def test_list_options_take_lists_from_json_and_store_tuples():
    r = rules("crazy-eights", removed_ranks=[9, 10])
    assert r.removed_ranks == (9, 10) and r.deck_size == 44
    assert hash(r) == hash(rules("crazy-eights", removed_ranks=(9, 10)))
    assert RuleSet("custom", intervals=[1, 2], matching="interval").intervals == (1, 2)
    with pytest.raises(RulesError, match="removed_ranks"):
        rules("crazy-eights", removed_ranks=[8])
    with pytest.raises(RulesError, match="intervals"):
        rules("crazy-8s-level-3", intervals=[])


def test_rule_set_names_must_be_presets_or_rule_sets():
    for name in (None, 5, ["crazy-eights"], {"a": 1}, "crazy-sevens", b"crazy-eights"):
        with pytest.raises(RulesError, match="the presets are"):
            rules(name)
    base = rules("crazy-eights", draw_limit=2)
    assert rules(base) is base and rules(base, piles=2).draw_limit == 2
    with pytest.raises(RulesError, match="name and description are text"):
        RuleSet(None)  # type: ignore[arg-type]


def test_messages_quote_at_most_80_characters_of_the_input():
    long = "x" * 10**6
    for call in (lambda: rules(long), lambda: rules("crazy-eights", **{long: 1}),
                 lambda: rules("crazy-eights", pitch_map=long),
                 lambda: rules("crazy-eights", hand_size=10**5000),
                 lambda: parse_option(f"draw_limit={long}"), lambda: parse_option(long)):
        with pytest.raises(RulesError) as info:
            call()
        assert "x" * 81 not in str(info.value) and len(str(info.value)) < 2500


def test_quote_survives_values_whose_repr_fails():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert opts.quote(Broken()).startswith("<a Broken")
    assert len(opts.quote(deep)) <= 80
    assert "digits" in opts.quote(10**5000)
    with pytest.raises(RulesError, match="draw_limit"):
        rules("crazy-eights", draw_limit=deep)


def test_rules_error_is_a_value_error_and_refusals_change_nothing():
    assert issubclass(RulesError, ValueError) and cl.RulesError is RulesError
    base = rules("crazy-eights", draw_limit=2)
    before = (presets_snapshot(), base, base.options_changed)
    for bad in ({"chain": "no"}, {"nope": 1}, {"draw_limit": 53}, {"stacking": True,
                                                                  "chain": True}):
        with pytest.raises(RulesError):
            rules(base, **bad)
    assert (presets_snapshot(), base, base.options_changed) == before


def test_unknown_options_suggest_close_names():
    with pytest.raises(RulesError, match="did you mean draw_limit"):
        rules("crazy-eights", draw_limt=2)


def test_registered_pitch_maps_are_choices():
    from crazylab.engine.pitch import PITCH_MAPS, register_pitch_map

    register_pitch_map("test_options_map", PITCH_MAPS["C_based"])
    try:
        assert rules("crazy-8s-level-3", pitch_map="test_options_map").pitch_map == \
            "test_options_map"
        assert parse_value("pitch_map", "test_options_map") == "test_options_map"
    finally:
        del PITCH_MAPS["test_options_map"]
    assert "test_options_map" not in opts.render_markdown(PRESETS)


# -- random values for every option: a RuleSet or a RulesError, nothing else -----------------------

ANY_VALUE = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-60, 60),
    st.integers(min_value=10**17, max_value=10**400), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from([c for o in OPTIONS.values() for c in o.choices]),
    st.lists(st.integers(-3, 15), max_size=6), st.tuples(st.integers(0, 14)),
    st.lists(st.text(max_size=3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                st.integers(), max_size=2),
    st.lists(st.floats(), max_size=2), st.binary(max_size=4),
    st.dictionaries(st.integers(0, 14), st.integers(-2, 120), max_size=3),
    st.lists(st.tuples(st.integers(0, 14), st.integers(-2, 120)), max_size=3),
    st.sampled_from([v for o in OPTIONS.values() for v in o.value_aliases]),
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(list(OPTIONS)), value=ANY_VALUE,
       preset=st.sampled_from(list(PRESETS)))
def test_random_values_give_a_rule_set_or_a_rules_error(name, value, preset):
    try:
        r = rules(preset, **{name: value})
    except RulesError as e:
        assert len(str(e)) < 2500
        try:
            OPTIONS[name].check(value)
        except RulesError:
            assert name in str(e)  # a bad value is refused by its option's name
        return  # else a rule between options refused it (deck size, stacking and chain …)
    option = OPTIONS[name]
    checked = option.check(value)
    assert not (isinstance(value, float) and math.isnan(value))
    if option.is_field:
        assert getattr(r, name) == checked and name in r.options_changed
        assert type(getattr(r, name)) is type(checked)
        if (not isinstance(value, (list, dict)) and not option.value_aliases
                and option.kind != "effect_map"):  # action_cards also takes its text form
            assert checked is value
    else:
        for field, v in option.sets(checked, PRESETS[preset].options()).items():
            assert getattr(r, field) == v


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(list(OPTIONS)), text=st.one_of(
    st.text(max_size=30), st.sampled_from(["true", "no", "ON", " 1 ", "none", "9,10", "²",
                                           "1_000", "0x10", "1e3", "-0", "３"])))
def test_random_text_parses_to_a_checked_value_or_a_rules_error(name, text):
    try:
        value = parse_value(name, text)
    except RulesError as e:
        assert name in str(e)
        return
    assert OPTIONS[name].check(value) == value


# -- text from the command line -------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value"), [
    ("true", True), ("false", False), ("yes", True), ("no", False), ("on", True),
    ("off", False), ("1", True), ("0", False), ("TRUE", True), (" No ", False), ("Off", False),
])
def test_cli_booleans(text, value):
    assert parse_value("chain", text) is value
    assert parse_option(f"voluntary_draw={text}") == ("voluntary_draw", value)


def test_cli_chain_no_means_false():
    name, value = parse_option("chain=no")
    assert (name, value) == ("chain", False)
    assert rules("crazy-eights", **{name: value}).chain is False


@pytest.mark.parametrize(("text", "expected"), [
    ("draw_limit=2", ("draw_limit", 2)), (" draw_limit = 7 ", ("draw_limit", 7)),
    ("match_target=none", ("match_target", None)), ("match_target=250", ("match_target", 250)),
    ("removed_ranks=9,10, 11", ("removed_ranks", (9, 10, 11))),
    ("removed_ranks=", ("removed_ranks", ())), ("intervals=none", ("intervals", ())),
    ("draw_rule=one", ("draw_rule", "one")), ("pitch_map=c_based", ("pitch_map", "C_based")),
    ("hand_size_2p=7", ("hand_size_2p", 7)), ("max_reshuffles=+4", ("max_reshuffles", 4)),
])
def test_cli_values_by_type(text, expected):
    assert parse_option(text) == expected


@pytest.mark.parametrize(("text", "named"), [
    ("chain=maybe", "chain must be true or false"), ("draw_limit=²", "draw_limit"),
    ("draw_limit=2.0", "draw_limit"), ("draw_limit=1" + "0" * 40, "draw_limit"),
    ("draw_limit=200", "draw_limit"), ("match_target=20000", "match_target"),
    ("draw_rule=sometimes", "draw_rule must be one of until_playable, up_to_n"),
    ("removed_ranks=8", "removed_ranks"), ("removed_ranks=9,x", "removed_ranks"),
    ("wild_sevens=true", "unknown option 'wild_sevens'"), ("chian=no", "did you mean chain"),
    ("draw_limit", "write KEY=VALUE"), ("=3", "write KEY=VALUE"),
    ("hand_size=", "hand_size"),
])
def test_cli_refusals_name_the_option_and_the_allowed_values(text, named):
    with pytest.raises(RulesError, match=re.escape(named)):
        parse_option(text)


def test_cli_simulate_refuses_a_bad_option_value_before_any_game(capsys):
    from crazylab.cli import main

    assert main(["simulate", "crazy-eights", "--games", "1", "--option", "chain=maybe"]) == 2
    err = capsys.readouterr().err
    assert "chain must be true or false" in err and "Traceback" not in err
    assert main(["simulate", "crazy-eights", "--games", "1", "--option", "chian=no"]) == 2
    assert "did you mean chain" in capsys.readouterr().err


def test_cli_simulate_chain_no_keeps_chaining_off(capsys):
    from crazylab.cli import main

    assert main(["simulate", "crazy-eights", "--games", "2", "--workers", "1",
                 "--no-progress", "--option", "chain=no", "--option", "draw_limit=2"]) == 0
    assert "crazy-eights" in capsys.readouterr().out


# -- the generated reference ----------------------------------------------------------------------


def test_docs_options_md_is_up_to_date():
    """Regenerate with ``python docs/options_md.py`` after changing the schema or a preset."""
    assert DOCS.read_text(encoding="utf-8") == opts.render_markdown(PRESETS)


def test_docs_name_every_option_and_its_rulings():
    text = DOCS.read_text(encoding="utf-8")
    for name, option in OPTIONS.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{name}`"))
        assert all(r in row for r in option.rulings)
    for preset in PRESETS:
        assert f"**{preset}**" in text


# -- the rulings' own names (issue 15): fields, other names, pending values ----------------------


def test_V19_decks_two_packs_deal_and_play_with_every_card_kept():
    from collections import Counter

    from crazylab.engine.game import Game
    from crazylab.examples import game_to_example, load_game

    r = rules("crazy-breens", decks=2, num_jokers=4)
    assert r.deck_size == 108 and Counter(r.deck)[cl.card("5H")] == 2
    assert Counter(r.deck)[cl.card("JK")] == 4
    for seed in range(4):
        game = Game.new(r, 6, seed=seed)
        game.play_random(seed)
        held = Counter([c for h in game.hands for c in h] + game.stock_cards
                       + [c for p in game.piles for c in p])
        assert held == Counter(r.deck) and game.over
        again = load_game(game_to_example(game))
        assert again.rules == r and again.fingerprint() == game.fingerprint()
    assert rules("crazy-eights").decks == 1
    with pytest.raises(RulesError, match="decks must be a whole number from 1 to 2"):
        rules("crazy-eights", decks=3)
    with pytest.raises(RulesError, match="jokers must be at most 2 per deck"):
        rules("crazy-eights", jokers=3)


def test_BR_Q1_MU_Q2_num_jokers_is_the_rulings_name_of_jokers():
    assert rules("crazy-eights", num_jokers=2).jokers == 2
    assert rules("crazy-breens", num_jokers=0).deck_size == 52
    assert parse_option("num_jokers=1") == ("num_jokers", 1)
    with pytest.raises(RulesError, match="num_jokers=1 sets jokers=1, but jokers sets jokers=2"):
        rules("crazy-eights", num_jokers=1, jokers=2)
    assert rules("crazy-eights", num_jokers=1, jokers=1).jokers == 1
    with pytest.raises(RulesError, match="num_jokers must be"):
        rules("crazy-eights", num_jokers="2")


def test_SR_Q15_AP_3_V1_hand_size_by_players():
    import json

    from crazylab.engine.game import Game
    from crazylab.examples import game_to_example, load_game

    r = rules("crazy-eights", hand_size_by_players={2: 7, 3: 6})
    assert [r.hand_size_for(n) for n in (2, 3, 4, 5)] == [7, 6, 5, 5]
    assert [len(h) for h in Game.new(r, 2, seed=1).hands] == [7, 7]
    assert [len(h) for h in Game.new(r, 3, seed=1).hands] == [6, 6, 6]
    assert r.hand_size_by_players == ((2, 7), (3, 6))
    # JSON keys are strings; a list of pairs is what a saved game writes
    assert rules("crazy-eights", hand_size_by_players={"2": 7, "3": 6}) == r
    assert rules("crazy-eights", hand_size_by_players=[[3, 6], [2, 7]]) == r
    assert parse_value("hand_size_by_players", "2:7, 3:6") == ((2, 7), (3, 6))
    assert PRESETS["crazy-eights"].hand_size_by_players == ()
    game = Game.new(r, 2, seed=3)
    game.play_random(3)
    again = load_game(json.loads(json.dumps(game_to_example(game))))
    assert again.rules == r and again.fingerprint() == game.fingerprint()
    classic = PRESETS["crazy-eights-classic"]  # the app's {2: 7, 3+: 5}, as hand_size_2p
    assert [classic.hand_size_for(n) for n in (2, 3, 4)] == [7, 5, 5]
    for bad, named in [({1: 5}, "hand_size_by_players must be"),
                       ({2: 0}, "hand_size_by_players must be"),
                       ({2: 27}, "hand_size_by_players must be"),
                       ({7: 3}, "names 7 players, but this rule set plays 2-5"),
                       ({5: 11}, "5 players × 11 cards"), ("2:7", "hand_size_by_players"),
                       ([(2, 7), (2, 5)], "hand_size_by_players must be")]:
        with pytest.raises(RulesError, match=re.escape(named)):
            rules("crazy-eights", hand_size_by_players=bad)


def test_C_16_V17_card_values_change_what_a_left_card_scores():
    from crazylab.engine.game import Game

    r = rules("crazy-eights", card_values={8: 20, "K": 13, "a": 11})
    assert r.card_points(cl.card("8S")) == 20 and r.card_points(cl.card("KD")) == 13
    assert r.card_points(cl.card("AC")) == 11 and r.card_points(cl.card("QH")) == 10
    assert r.card_values == ((1, 11), (8, 20), (13, 13))
    game = Game.from_position(r, 2, hands=[["3H"], ["8D", "KC", "2S"]], discard=["5H"],
                              stock=["4C"])
    game.push("3H")
    assert game.scores == (35, 0)  # 20 + 13 + 2
    assert parse_value("card_values", "8:20,K:13") == ((8, 20), (13, 13))
    for bad in ({14: 1}, {8: -1}, {8: 101}, {"X": 5}, 50, [8, 20]):
        with pytest.raises(RulesError, match="card_values must be"):
            rules("crazy-eights", card_values=bad)


def test_MU_Q22_A8_allow_unison_in_levels():
    c = cl.card
    for preset, top, same in [("crazy-8s-level-3", "3D", "3S"), ("crazy-8s-level-4", "3D", "3S"),
                              ("crazy-8s-level-1", "AS", "AD")]:
        off, on = rules(preset), rules(preset, allow_unison_in_levels=True)
        assert c(same) not in off.accepts[off.reference(c(top), None)]
        assert c(same) in on.accepts[on.reference(c(top), None)]
        assert off.accepts[off.reference(c(top), None)] < on.accepts[on.reference(c(top), None)]
    game = Game_from(rules("crazy-8s-level-3", allow_unison_in_levels=True), [["3S"], ["5C"]],
                     ["3D"])
    assert "3S" in [str(m) for m in game.legal_moves()]
    with pytest.raises(RulesError, match="allow_unison_in_levels must be true or false"):
        rules("crazy-8s-level-3", allow_unison_in_levels="yes")


def Game_from(r, hands, discard):
    from crazylab.engine.game import Game

    return Game.from_position(r, len(hands), hands=hands, discard=discard, stock=["4C", "9H"])


@pytest.mark.parametrize("level", range(6))
def test_MU_21_level_sets_a_music_level(level):
    preset = "crazy-8s-music" if level == 0 else f"crazy-8s-level-{level}"
    for base in ("crazy-8s-music", "crazy-8s-level-2", "crazy-8s-level-4"):
        assert rules(base, level=level).options() == PRESETS[preset].options()
    assert parse_option(f"level={level}") == ("level", level)


def test_level_refusals():
    with pytest.raises(RulesError, match="level must be a whole number from 0 to 5"):
        rules("crazy-8s-music", level=6)
    with pytest.raises(RulesError, match="specials .* need suit matching"):
        rules("crazy-breens", level=3)
    with pytest.raises(RulesError, match="level=3 sets piles=1, but piles sets piles=2"):
        rules("crazy-8s-music", level=3, piles=2)


def test_MU_Q21_level1_announce_and_C_1_direction_have_one_value():
    assert rules("crazy-8s-level-1", level1_announce="letters") == PRESETS["crazy-8s-level-1"]
    assert rules("crazy-eights", direction="clockwise") == PRESETS["crazy-eights"]
    with pytest.raises(RulesError, match="level1_announce must be one of letters"):
        rules("crazy-8s-level-1", level1_announce="pitches")
    with pytest.raises(RulesError, match="direction must be one of clockwise"):
        rules("crazy-eights", direction="counterclockwise")


def test_MU_Q4_MU_Q3_MU_Q34_seed_names():
    assert rules("crazy-8s-music", seed_eight_main="rebury").starter_eight == "rebury"
    assert rules("crazy-8s-music", seed_eight_main="keep").starter_eight == "keep"
    assert rules("crazy-8s-music", seed_joker="rebury").starter_joker == "rebury"
    r = rules("crazy-8s-level-2", seed_wild_levels="rebury")
    assert (r.starter_eight, r.starter_joker) == ("rebury", "rebury")
    with pytest.raises(RulesError, match="seed_eight_main must be one of keep, rebury"):
        rules("crazy-8s-music", seed_eight_main="dealer_declares")
    assert rules("crazy-8s-music", seed_joker="dealer_announces").starter_joker == \
        "dealer_announces"
    r = rules("crazy-8s-level-2", seed_wild_levels="dealer_announces")
    assert (r.starter_eight, r.starter_joker) == ("dealer_announces", "dealer_announces")


def test_MU_Q30_main_eight_declares():
    assert rules("crazy-8s-music", main_eight_declares=True).eights == "call"
    assert rules("crazy-8s-music", main_eight_declares=False).eights == "own_suit"
    assert rules("crazy-8s-level-3", main_eight_declares=False) == PRESETS["crazy-8s-level-3"]
    with pytest.raises(RulesError, match="main_eight_declares must be true or false"):
        rules("crazy-8s-music", main_eight_declares="no")


def test_MU_7_V5_no_play_draw_and_fixed_draw():
    for name in ("no_play_draw", "fixed_draw"):
        r = rules("crazy-eights", **{name: 3})
        assert (r.draw_rule, r.draw_limit) == ("fixed", 3)
        with pytest.raises(RulesError, match=f"{name} must be a whole number from 1 to 108"):
            rules("crazy-eights", **{name: 0})
    assert rules("crazy-8s-music", no_play_draw=2) == PRESETS["crazy-8s-music"]


def test_V13_multi_card_play():
    r = rules("crazy-eights", multi_card_play="same_rank")
    assert (r.stacking, r.chain) == (True, False)
    r = rules("crazy-eights", multi_card_play="chain")
    assert (r.stacking, r.chain) == (False, True)
    r = rules("crazy-8s-music", multi_card_play="none")
    assert (r.stacking, r.chain) == (False, False)
    with pytest.raises(RulesError, match="multi_card_play must be one of none, same_rank, chain"):
        rules("crazy-eights", multi_card_play=True)


def test_A16_must_play_is_not_voluntary_draw():
    assert rules("crazy-eights", must_play=True).voluntary_draw is False
    assert rules("crazy-breens", must_play=False).voluntary_draw is True
    with pytest.raises(RulesError, match="must_play=True sets voluntary_draw=False"):
        rules("crazy-eights", must_play=True, voluntary_draw=True)


def test_BR_Q5_A7_starter_wild_declarer():
    assert rules("crazy-breens", starter_wild_declarer="dealer") == PRESETS["crazy-breens"]
    assert rules("crazy-breens", starter_wild_declarer="printed_suit").starter_eight == "keep"
    assert rules("crazy-breens", starter_wild_declarer="first_player").starter_eight == \
        "first_player_declares"


def test_BR_Q40_blocked_winner():
    assert rules("crazy-breens", blocked_winner="fewest_cards") == PRESETS["crazy-breens"]
    r = rules("crazy-breens", blocked_winner="fewest_points")
    assert r.blocked_rule == "lowest_points_wins"
    with pytest.raises(RulesError, match="blocked_winner must be one of fewest_cards, "
                                         "fewest_points"):
        rules("crazy-breens", blocked_winner="most_cards")


def test_AP_Q13_scoring_enabled_and_match_targets_that_can_be_reached():
    r = rules("crazy-eights-classic", scoring_enabled=False)
    assert (r.scoring, r.match_target) == ("none", None)
    assert rules("crazy-eights-classic", scoring_enabled=True) == PRESETS["crazy-eights-classic"]
    assert rules("crazy-breens", scoring_enabled=True).scoring == "winner_collects"
    assert rules("crazy-8s-music", scoring_enabled=True).scoring == "minus_one_per_card"
    with pytest.raises(RulesError, match="scoring_enabled=False sets match_target=None"):
        rules("crazy-eights-classic", scoring_enabled=False, match_target=100)
    # BR-Q41: Breens' optional classic scoring, with a match target
    assert rules("crazy-breens", scoring="classic", match_target=100).match_target == 100
    for preset in ("crazy-8s-music", "crazy-breens"):
        with pytest.raises(RulesError, match="match_target=100 needs scoring='winner_collects'"):
            rules(preset, match_target=100)


def test_value_spellings_of_the_rulings():
    assert rules("crazy-breens", scoring="classic").scoring == "winner_collects"
    assert rules("crazy-eights", starter_eight="keep_printed_suit").starter_eight == "keep"
    assert rules("crazy-eights", blocked_rule="fewest_cards_shared").blocked_rule == \
        "fewest_cards"
    assert parse_value("scoring", "classic") == "winner_collects"
    assert RuleSet("x", scoring="classic").scoring == "winner_collects"


def test_no_ruled_option_is_left_unplayed():
    """A1-A5, A11-A15, V12, V14: every option the rulings name is played by the engine now
    (none accepts only its default)."""
    assert [o.name for o in OPTIONS.values() if o.only is not None] == []
    assert rules("crazy-eights", jump_in=True).jump_in is True
    assert rules("crazy-8s-music", games_in_match=3).games_in_match == 3
    assert parse_option("jump_in=yes") == ("jump_in", True)
    assert parse_option("games_in_match=5") == ("games_in_match", 5)


def test_A14_last_card_penalty_is_a_bounded_number():
    assert rules("crazy-eights", last_card_penalty=4).last_card_penalty == 4
    assert PRESETS["crazy-eights"].last_card_penalty == 2
    with pytest.raises(RulesError, match="last_card_penalty must be a whole number from 0 to 10"):
        rules("crazy-eights", last_card_penalty=11)


def rulebook_option_names() -> dict[str, set[str]]:
    """Option name → the rulebook entries (``crazylab/rulebook/``) whose option line names it."""
    names: dict[str, set[str]] = {}
    for rid, entry in rulebook_entries().items():
        for name in entry.options:
            names.setdefault(name, set()).add(rid)
    return names


def test_every_rulebook_option_name_is_an_option_and_every_option_is_in_the_rulebook():
    """The rulebook's names are the contract (issue 15): each option it names is accepted,
    and every option is explained by some rule of the rulebook."""
    names = rulebook_option_names()
    assert {"num_jokers", "hand_size_by_players", "reshuffle_timing", "last_card_call",
            "seed_wild_levels", "decks", "jump_in", "level", "action_cards",
            "games_in_match"} <= set(names)  # the scan works
    assert sorted(set(names) - set(OPTIONS)) == []
    assert sorted(set(OPTIONS) - set(names)) == []


@pytest.mark.parametrize("name", list(OPTIONS))
def test_the_rulings_of_an_option_name_it_in_the_rulebook(name):
    """An option's ruling ids (the schema's) are entries of the rulebook whose "option" line
    names the option, so a learner reading the rule finds the option that changes it."""
    assert set(OPTIONS[name].rulings) <= rulebook_option_names().get(name, set())


def test_MU_Q34_a_seed_eight_in_the_levels_is_buried_and_dealer_declares_needs_specials():
    """starter_eight='keep' on a music level used to leave an eight that matched as C."""
    for preset in ("crazy-8s-level-1", "crazy-8s-level-3"):
        for value in ("keep", "dealer_declares", "keep_printed_suit"):
            with pytest.raises(RulesError, match="MU-Q34"):
                rules(preset, starter_eight=value)
    with pytest.raises(RulesError, match="starter_eight='dealer_declares' makes a starter"):
        rules("crazy-eights", starter_eight="dealer_declares")
    assert rules("crazy-eights", starter_eight="keep").starter_eight == "keep"
    assert rules("crazy-8s-music", level=2).starter_eight == "rebury"


def test_the_new_rule_set_data_options_each_have_a_worked_example():
    """Issue 15: each option added from the rulings is shown by a shipped worked example,
    which would fail without it (tests/test_examples.py replays every file)."""
    from crazylab.examples import example_path, list_examples

    used = {}
    for name in list_examples():
        data = json.loads(example_path(name).read_text(encoding="utf-8"))
        for option in data.get("options") or {}:
            used.setdefault(option, name)
    for option in ("hand_size_by_players", "card_values", "allow_unison_in_levels", "decks",
                   "level", "forbid_final_wild", "forbid_final_action", "joker_only_if_no_suit",
                   "mid_draw_applies_to", "reshuffle_timing", "queen_drop_count",
                   "starter_eight", "starter_wild_declarer", "last_card_call",
                   "flip_again_on_any_special", "draw_passing", "extra_hits_cost_turns",
                   "seed_joker", "seed_wild_levels", "action_cards", "jump_in",
                   "games_in_match"):
        assert option in used, option
        without = json.loads(example_path(used[option]).read_text(encoding="utf-8"))
        del without["options"][option]
        try:
            example = cl.examples.load_example(without)
        except cl.examples.ExampleError:
            continue  # impossible without it (two 7♥ need decks=2)
        assert example.replay() != [], option

"""The typed option schema (crazylab/engine/options.py): every RuleSet option is typed and
bounded, Python values and CLI text go through it, refusals are RulesError naming the option,
and docs/OPTIONS.md is generated from it."""

import dataclasses
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spec_paths import shared_spec

import crazylab as cl
from crazylab.engine import options as opts
from crazylab.engine.options import OPTIONS, Option, RulesError, parse_option, parse_value
from crazylab.engine.rules import PRESETS, RuleSet, rules

DOCS = Path(__file__).resolve().parents[1] / "docs" / "OPTIONS.md"
NOT_OPTIONS = {"name", "description", "options_changed"}
RULING_IDS = set(re.findall(r"\b(?:C|SR|AP|MU|BR)-[A-Z]?\d+\b", shared_spec("rulings.md")
                            .read_text()))
FIELDS = {f.name: f for f in dataclasses.fields(RuleSet) if f.name not in NOT_OPTIONS}


def presets_snapshot():
    return {name: (r, r.options_changed) for name, r in PRESETS.items()}


# -- the schema describes RuleSet exactly ---------------------------------------------------------


def test_the_schema_has_every_ruleset_option_in_field_order_with_its_default():
    assert list(OPTIONS) == list(FIELDS)
    for name, option in OPTIONS.items():
        assert option.name == name
        assert option.default == FIELDS[name].default, name
        assert option.check(option.default) == option.default


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_has_a_doc_and_real_ruling_ids(name):
    option = OPTIONS[name]
    assert option.doc and "\n" not in option.doc and len(option.doc) < 140
    assert option.rulings, f"{name} names no ruling"
    assert set(option.rulings) <= RULING_IDS, set(option.rulings) - RULING_IDS


def test_options_method_lists_the_schema():
    assert list(PRESETS["crazy-eights"].options()) == list(OPTIONS)


def test_every_preset_passes_its_own_schema():
    for r in PRESETS.values():
        for name, option in OPTIONS.items():
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


@pytest.mark.parametrize("name", list(OPTIONS))
def test_each_option_accepts_its_whole_range(name):
    option = OPTIONS[name]
    if option.kind == "bool":
        good: list[object] = [True, False]
    elif option.kind in ("int", "optional_int"):
        good = [option.low, option.high, (option.low + option.high) // 2]
        good += [None] if option.kind == "optional_int" else []
    elif option.kind == "choice":
        good = list(option.choices)
    else:
        allowed = [i for i in range(option.low, option.high + 1) if i not in option.exclude]
        good = [(), allowed[:1], tuple(allowed[-2:]), allowed]
    for value in good:
        expected = tuple(value) if isinstance(value, list) else value
        assert option.check(value) == expected


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
        assert "x" * 81 not in str(info.value) and len(str(info.value)) < 1200


def test_quote_survives_values_whose_repr_fails():
    class Broken:
        def __repr__(self):
            raise RuntimeError("no")

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert opts.quote(Broken()) == "<a Broken>"
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
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(list(OPTIONS)), value=ANY_VALUE,
       preset=st.sampled_from(list(PRESETS)))
def test_random_values_give_a_rule_set_or_a_rules_error(name, value, preset):
    try:
        r = rules(preset, **{name: value})
    except RulesError as e:
        assert name in str(e) or "deck" in str(e) or "cannot both" in str(e) \
            or "needs" in str(e) or "specials" in str(e) or "interval" in str(e)
        return
    got = getattr(r, name)
    if isinstance(value, list):
        assert got == tuple(value)
    elif isinstance(value, float) and math.isnan(value):  # pragma: no cover  # never accepted
        raise AssertionError("nan accepted")
    else:
        assert got == value and type(got) is type(value)
    assert name in r.options_changed


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
    ("draw_limit=99", "draw_limit"), ("match_target=20000", "match_target"),
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

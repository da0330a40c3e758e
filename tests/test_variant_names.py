"""Issue 21: the rule set names its variant (``RuleSet.variant``), the registry maps a name to
its hooks, and neither the turn machine nor the explanations ask ``variant is None``.

``variant`` is derived, not an option a learner picks: left out, it follows the flags
(``specials`` plays "breens", ``action_cards`` or ``jump_in`` "house", else "plain"); a name
the flags contradict, or no registered variant's, is refused and nothing is created."""

from __future__ import annotations

import ast
import copy
import dataclasses
import pickle
import random
from pathlib import Path

import pytest

import crazylab as cl
from crazylab.engine import variants
from crazylab.engine.errors import CrazylabError
from crazylab.engine.game import Game
from crazylab.engine.moves import Move
from crazylab.engine.options import FIELDS, RulesError, parse_option
from crazylab.engine.rulebook import rulebook
from crazylab.engine.rules import PRESETS, VARIANT_NAMES, RuleSet, rules
from crazylab.engine.variants.base import PLAIN, TurnAPI, Variant
from crazylab.engine.variants.breens import BREENS
from crazylab.engine.variants.house import HOUSE

ENGINE = Path(cl.__file__).resolve().parent / "engine"
HOUSE_OPTIONS = [{"jump_in": True}, {"action_cards": "2=draw2,A=skip"},
                 {"action_cards": "Q=reverse", "jump_in": True}]
SUITED = ["crazy-eights", "crazy-eights-classic", "crazy-eights-quick"]


def registry() -> tuple[list[str], dict[str, Variant]]:
    """The names a rule set may give and what each plays (to show nothing changed)."""
    return list(VARIANT_NAMES), dict(variants._REGISTERED)


def play_out(r: RuleSet, players: int, seed: int) -> Game:
    g = Game.new(r, players, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        moves = g.legal_moves()
        g.push(moves[rng.randrange(len(moves))])
    return g


# -- every preset names its variant, and plays with its hooks -------------------------------


def test_every_preset_names_its_variant_and_its_games_play_with_that_variants_hooks():
    named = {name: r.variant for name, r in PRESETS.items()}
    assert named == {name: "breens" if name == "crazy-breens" else "plain" for name in PRESETS}
    for r in PRESETS.values():
        g = play_out(r, r.min_players, seed=3)
        assert g.hooks.name == r.variant  # PLAIN is "plain", BREENS "breens"
        assert g.hooks is (BREENS if r.variant == "breens" else PLAIN)
        assert (g.variant is None) == (r.variant == "plain")
        assert rulebook(r).hooks is g.hooks and variants.variant_for(r) is g.variant


def test_variant_is_derived_not_an_option_a_learner_picks():
    assert "variant" not in FIELDS and "variant" not in PRESETS["crazy-eights"].options()
    assert repr(rules("crazy-eights", jump_in=True)) == "RuleSet('crazy-eights', jump_in=True)"
    bare = RuleSet("bare", specials=True, stacking=True, starter_eight="keep")
    assert bare.variant == "breens"  # a rule set made by hand derives it too


# -- house options turn a preset's variant to "house" ------------------------------------


@pytest.mark.parametrize("preset", SUITED)
@pytest.mark.parametrize("options", HOUSE_OPTIONS)
def test_a_house_option_turns_a_presets_variant_to_house_and_back(preset, options):
    house = rules(preset, **options)
    assert (PRESETS[preset].variant, house.variant) == ("plain", "house")
    g = play_out(house, 3, seed=len(preset))
    assert g.hooks is HOUSE is g.variant and g.over
    assert "house" in str(g.hooks.name)
    off = {k: () if k == "action_cards" else False for k in options}
    assert rules(house, **off).variant == "plain"  # the flags off: the plain game again
    assert rules(house, **off) == PRESETS[preset]


def test_a_breens_option_keeps_breens_and_music_presets_refuse_house_options():
    assert rules("crazy-breens", draw_passing=True, queen_drop_count=2).variant == "breens"
    with pytest.raises(RulesError, match="chain=False"):
        rules("crazy-8s-music", jump_in=True)


# -- contradicting or unknown names are refused, and nothing is created ---------------------


@pytest.mark.parametrize("preset, options, allowed", [
    ("crazy-eights", {"variant": "breens"}, "variant must be plain here"),
    ("crazy-eights", {"variant": "house"}, "variant must be plain here"),
    ("crazy-breens", {"variant": "plain"}, "variant must be breens here"),
    ("crazy-breens", {"variant": "house"}, "variant must be breens here"),
    ("crazy-eights-quick", {"jump_in": True, "variant": "plain"}, "variant must be house here"),
    ("crazy-eights", {"action_cards": "2=draw2", "variant": "breens"},
     "variant must be house here"),
    ("crazy-eights", {"variant": "nope"}, "variant must be one of plain, breens, house"),
    ("crazy-breens", {"variant": "Breens"}, "variant must be one of plain, breens, house"),
    ("crazy-eights", {"variant": 3}, "variant must be one of plain, breens, house"),
    ("crazy-eights", {"variant": None}, "variant must be one of plain, breens, house"),
    ("crazy-eights", {"variant": ["plain"]}, "variant must be one of plain, breens, house"),
])
def test_a_contradicting_or_unknown_variant_is_refused_in_one_line(preset, options, allowed):
    presets = {n: (r, r.variant, r.options_changed) for n, r in PRESETS.items()}
    before = registry()
    with pytest.raises(RulesError) as e:
        rules(preset, **options)
    text = str(e.value)
    assert allowed in text and "\n" not in text and text.startswith(f"{preset}: ")
    assert {n: (r, r.variant, r.options_changed) for n, r in PRESETS.items()} == presets
    assert registry() == before
    with pytest.raises(RulesError, match="variant must be"):  # made by hand: the same check
        dataclasses.replace(PRESETS[preset], **options)


def test_register_refuses_bad_input_and_changes_nothing():
    before = registry()
    for name, variant in [("plain", Variant()), ("", Variant()), (3, Variant()),
                          ("toy", "not a variant"), ("toy", Variant)]:
        with pytest.raises(CrazylabError, match="register|plain"):
            variants.register(name, variant)
    with pytest.raises(CrazylabError, match="a variant's name is a text"):
        variants.unregister(None)
    with pytest.raises(CrazylabError, match="rules must be a RuleSet"):
        variants.variant_for("crazy-eights")
    assert registry() == before and "toy" not in VARIANT_NAMES


# -- a variant of one's own, plugged in by name ------------------------------------------


class Skipper(Variant):
    """A toy variant: a Queen makes the next seat lose its turn."""

    name = "skipper"

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        if move.top.rank == 12:
            game.skip_turn_of(game.next_seat(seat))
        return False


def test_a_registered_variant_is_named_by_its_rule_sets_and_only_while_registered():
    with pytest.raises(RulesError, match="variant must be one of plain, breens, house "):
        rules("crazy-eights", variant="skipper")  # not registered yet
    toy = Skipper()
    variants.register("skipper", toy)
    try:
        r = rules("crazy-eights", variant="skipper")
        assert r.variant == "skipper" and "skipper" in VARIANT_NAMES
        assert repr(r) == "RuleSet('crazy-eights', variant='skipper')"
        assert rules(r, draw_limit=2).variant == "skipper"  # kept when other options change
        with pytest.raises(RulesError, match="variant must be house here"):
            rules(r, jump_in=True)
        with pytest.raises(RulesError, match="variant must be breens here"):
            rules("crazy-breens", variant="skipper")
        g = Game.from_position(r, 3, hands=[["QH", "5C"], ["4H", "9S"], ["6H", "7C"]],
                               discard=["2H"], stock=["3D", "3S"])
        assert g.hooks is toy is g.variant
        g.push("QH")
        assert g.to_play == 2  # seat 1 lost its turn
        plain = Game.from_position("crazy-eights", 3,
                                   hands=[["QH", "5C"], ["4H", "9S"], ["6H", "7C"]],
                                   discard=["2H"], stock=["3D", "3S"])
        plain.push("QH")
        assert plain.to_play == 1 and plain.hooks is PLAIN
        # the explanations ask the hooks: a variant explains its own 'end'
        assert plain.explain("end") == "There is no turn to end: play a card, draw or pass."
        assert g.explain("end") == "Play a card or draw before you end your turn."
    finally:
        variants.unregister("skipper")
    assert "skipper" not in VARIANT_NAMES
    with pytest.raises(CrazylabError, match="no variant is registered as 'skipper'"):
        variants.variant_for(r)
    with pytest.raises(RulesError, match="variant must be one of"):
        rules("crazy-eights", variant="skipper")


def test_unregistering_a_shipped_name_gives_the_shipped_variant_back():
    mine = Skipper()
    variants.register("house", mine)
    try:
        assert variants.hooks_for(rules("crazy-eights", jump_in=True)) is mine
    finally:
        variants.unregister("house")
    assert variants.hooks_for(rules("crazy-eights", jump_in=True)) is HOUSE
    assert "house" in VARIANT_NAMES


# -- every serialisation keeps the name ---------------------------------------------------


def rule_sets() -> list[RuleSet]:
    return [*PRESETS.values(), *(rules(p, **o) for p in SUITED for o in HOUSE_OPTIONS),
            rules("crazy-eights", variant="plain"), rules("crazy-breens", variant="breens",
                                                          draw_passing=True)]


def test_a_rule_set_keeps_its_variant_through_every_serialisation(tmp_path):
    from crazylab.examples import game_to_example, load_game, save_game
    from crazylab.tables.service import rules_from_json, rules_to_json
    from crazylab.widgets.builder import cli_text, python_text

    for r in rule_sets():
        copies = {
            "pickle": pickle.loads(pickle.dumps(r)),
            "copy": copy.copy(r), "deepcopy": copy.deepcopy(r),
            "replace": dataclasses.replace(r),
            "rules": rules(r, description="again"),
            "json": rules_from_json(rules_to_json(r)),
            "python": eval(python_text(r), {"crazylab": cl}),
        }
        words = cli_text(r).split()
        copies["cli"] = rules(words[2], **dict(parse_option(words[i + 1])
                                               for i, w in enumerate(words) if w == "--option"))
        g = Game.new(r, r.min_players, seed=1)
        g.push(g.legal_moves()[0])
        copies["example"] = load_game(game_to_example(g)).rules
        path = tmp_path / "saved.json"
        save_game(g, path)
        copies["saved file"] = load_game(path).rules
        for how, back in copies.items():
            assert (back.variant, back.options()) == (r.variant, r.options()), (r, how)


def test_old_saved_rule_sets_without_the_key_still_load():
    from crazylab.examples import load_example
    from crazylab.tables.service import rules_from_json

    old_json = '{"preset": "crazy-eights", "options": {"jump_in": true}, "description": ""}'
    assert rules_from_json(old_json).variant == "house"
    assert rules_from_json('{"preset": "crazy-breens", "options": {}}').variant == "breens"
    old_example = {"title": "old", "rules": "crazy-eights-quick",
                   "options": {"action_cards": "2=draw2"}, "players": 2, "seed": 4,
                   "dealer": 0, "steps": []}
    assert load_example(old_example).rules.variant == "house"


# -- no `variant is None` in the core --------------------------------------------------------


def variant_none_checks(source: str) -> list[str]:
    """The ``... is None`` / ``is not None`` (and ``== None``) comparisons of a variant in
    ``source``: a name or attribute called ``variant`` compared with ``None``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        nones = [isinstance(o, ast.Constant) and o.value is None for o in operands]
        named = [isinstance(o, ast.Name) and "variant" in o.id
                 or isinstance(o, ast.Attribute) and "variant" in o.attr for o in operands]
        if any(nones) and any(named) and any(
                isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in node.ops):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_finds_variant_is_none_comparisons_in_a_snippet():
    snippet = ("variant = game.variant\n"
               "if game.phase == 'declare' and variant is None:\n    pass\n"
               "hooks = PLAIN if book.variant is None else book.variant\n"
               "if self.variant is not None and x:\n    pass\n"
               "ok = game.hooks.core_explanations and game.variant_state is not game\n")
    assert variant_none_checks(snippet) == [
        "line 2: variant is None", "line 4: book.variant is None",
        "line 5: self.variant is not None"]


@pytest.mark.parametrize("module", ["explain.py", "game.py", "rulebook.py"])
def test_the_core_never_asks_whether_the_variant_is_none(module):
    source = (ENGINE / module).read_text(encoding="utf-8")
    assert "hooks" in source  # it asks the hooks instead
    assert variant_none_checks(source) == []

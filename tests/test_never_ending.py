"""Only rule sets that can be played to the end (issue 25, item 1).

The option schema takes options one by one; a combination can still leave cards that no pile
can ever take (``crazy-8s-level-1`` with ``removed_ranks=none``: the black-key cards have no
letter; ``matching=letter_step`` on the other levels), and such hands never end. A rule set
is refused when :meth:`RuleSet.dead_cards` finds such a card, with a message naming the
options. The property test draws random VALID option sets for every preset and plays hands to
the end by random and rule-of-thumb players: every one ends within a bounded number of moves.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import crazylab as cl
from crazylab.engine.options import OPTIONS, Option
from crazylab.engine.rules import PRESETS, RulesError
from crazylab.playout import EndlessHand, RandomBot, play_hand

MAX_MOVES = 100_000  # simulate's own bound (playout.play_hand). Random bots that may draw
# instead of playing wander long: crazy-8s-level-5 with no_play_draw=4 at 2 players (seeds 0
# and 1) ends after 22,988 and 41,236 moves; most option sets end within ~2,000

# -- refused: the known combinations, and the general condition ----------------------------


@pytest.mark.parametrize(("preset", "options", "named"), [
    ("crazy-8s-level-1", {"removed_ranks": ()}, ["matching='letter_step'", "removed_ranks=()"]),
    ("crazy-8s-level-1", {"removed_ranks": (9, 10)},
     ["matching='letter_step'", "removed_ranks=(9, 10)"]),
    *[(f"crazy-8s-level-{n}", {"matching": "letter_step"},
       ["matching='letter_step'", "removed_ranks=()"]) for n in (2, 3, 4, 5)],
])
def test_rule_sets_leaving_cards_no_pile_can_take_are_refused_naming_the_options(
        preset: str, options: dict[str, object], named: list[str]) -> None:
    with pytest.raises(RulesError) as e:
        cl.rules(preset, **options)
    message = str(e.value)
    assert message.startswith(f"{preset}:") and "never end" in message
    for text in named:
        assert text in message
    assert "removed_ranks=(9, 10, 11, 12, 13)" in message  # what would make it playable
    assert "\n" not in message and len(message) < 600


@pytest.mark.parametrize(("preset", "options"), [
    ("crazy-8s-level-4", {"piles": 1}), ("crazy-8s-level-5", {"intervals": (7,)}),
    ("crazy-8s-level-3", {"intervals": [2]}),
])
def test_rule_sets_whose_draws_outpace_the_plays_are_refused(
        preset: str, options: dict[str, object]) -> None:
    # one pile taking one pitch in twelve: random play had not ended 29 of 30 hands after
    # 20,000 moves (the hand sizes grow)
    with pytest.raises(RulesError) as e:
        cl.rules(preset, **options)
    message = str(e.value)
    assert "matching='interval'" in message and "piles=1" in message
    assert "intervals=(" in message and "does not end" in message
    assert cl.rules(preset, **{**options, "piles": 2}).play_share() >= 1 / 8


def test_cards_only_a_wild_can_let_a_pile_take_are_refused() -> None:
    # semitone steps with ranks 1-4 and 7 gone: the pitches of 9, 10 and K have no neighbour
    # left, so only an eight's or joker's call lets a pile take them (found by the property
    # test below: such a hand had not ended after 20,000 moves)
    with pytest.raises(RulesError) as e:
        cl.rules("crazy-8s-level-2", removed_ranks=(1, 2, 3, 4, 7))
    message = str(e.value)
    assert "only a wild's call ever lets a pile take 12 of the deck's cards" in message
    assert "intervals=(1, 11)" in message and "removed_ranks=(1, 2, 3, 4, 7)" in message
    assert "removed_ranks=(1, 2, 3, 4, 7, 9, 10, 13)" in message
    assert cl.rules("crazy-8s-level-2", removed_ranks=(1, 2, 3, 4, 7, 9, 10, 13)) \
        .dead_cards(wild_calls=False) == ()


def test_the_cli_refuses_them_with_one_line_and_no_game() -> None:
    from crazylab.engine.options import parse_option

    name, value = parse_option("removed_ranks=none")
    with pytest.raises(RulesError, match="no pile can ever take 20 of the deck's cards"):
        cl.rules("crazy-8s-level-1", **{name: value})


def test_every_preset_and_level_has_no_dead_card() -> None:
    for name, r in PRESETS.items():
        assert r.dead_cards() == () and r.dead_cards(wild_calls=False) == (), name
    for level in range(6):
        r = cl.rules("crazy-8s-music", level=level)
        assert r.dead_cards() == () and r.dead_cards(wild_calls=False) == ()


def test_dead_cards_is_the_general_condition_not_a_list_of_cases() -> None:
    # a pitch map that leaves a rank without a pitch: its cards never fit (only wilds would)
    from crazylab.engine.pitch import PITCH_MAPS, register_pitch_map

    table = dict(PITCH_MAPS["A_based"])
    del table[5]  # fives have no pitch
    register_pitch_map("test_no_fives", table)
    try:
        with pytest.raises(RulesError, match=r"pitch_map='test_no_fives'.*5♣"):
            cl.rules("crazy-8s-level-3", pitch_map="test_no_fives")
        r = cl.rules("crazy-8s-level-3", pitch_map="test_no_fives", removed_ranks=(5,))
        assert r.dead_cards() == ()
        game = cl.Game.new(r, 2, seed=3)
        assert RandomBot and play_hand(game, [RandomBot()] * 2,
                                       [random.Random(1)] * 2, MAX_MOVES).over
    finally:
        PITCH_MAPS.pop("test_no_fives")


def test_a_refused_rule_set_changes_nothing() -> None:
    before = {n: (r, r.options()) for n, r in PRESETS.items()}
    for _ in range(3):
        with pytest.raises(RulesError):
            cl.rules("crazy-8s-level-1", removed_ranks=())
    assert {n: (r, r.options()) for n, r in PRESETS.items()} == before


# -- accepted: random valid option sets all play to the end --------------------------------

EFFECT_KEYS = ["2", "A", "Q", "J", "K", "7", "QS", "JK"]
EFFECTS = ["skip", "reverse", "draw2", "wild", "draw4", "wild+skip", "draw1"]
SKIP = {"name", "description", "match_target", "games_in_match"}  # not about one hand


def values(option: Option) -> st.SearchStrategy[object]:
    """Valid values of ``option`` (as its schema allows; a combination may still be
    refused)."""
    kind = option.kind
    if kind == "bool":
        out: st.SearchStrategy[object] = st.booleans()
    elif kind in ("int", "optional_int"):
        assert option.low is not None and option.high is not None
        out = st.integers(option.low, option.high)
        if kind == "optional_int":
            out = st.none() | out
    elif kind == "choice":
        out = st.sampled_from(option.allowed_choices())
    elif kind == "ints":
        assert option.low is not None and option.high is not None
        allowed = [i for i in range(option.low, option.high + 1) if i not in option.exclude]
        out = st.lists(st.sampled_from(allowed), unique=True, max_size=6).map(tuple)
    elif kind == "int_map":
        assert option.low is not None and option.high is not None
        out = st.dictionaries(st.integers(option.key_low, option.key_high),
                              st.integers(option.low, option.high), max_size=2)
    else:
        out = st.dictionaries(st.sampled_from(EFFECT_KEYS), st.sampled_from(EFFECTS),
                              max_size=3)
    if option.only is not None:
        out = out.filter(lambda v: option.check(v) in option.only)  # type: ignore[union-attr]
    return out


@st.composite
def rule_sets(draw: st.DrawFn) -> tuple[cl.RuleSet, dict[str, object]]:
    preset = draw(st.sampled_from(list(PRESETS)))
    names = draw(st.lists(st.sampled_from([n for n in OPTIONS if n not in SKIP]),
                          unique=True, min_size=1, max_size=4))
    options = {n: draw(values(OPTIONS[n])) for n in names}
    try:
        r = cl.rules(preset, **options)
    except RulesError:
        assume(False)
        raise  # pragma: no cover (assume raised)
    return r, {"preset": preset, **options}


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(drawn=rule_sets(), seed=st.integers(0, 2**32), players=st.integers(2, 10),
       rules_bot=st.booleans())
def test_every_valid_option_set_plays_to_the_end(
        drawn: tuple[cl.RuleSet, dict[str, object]], seed: int, players: int,
        rules_bot: bool) -> None:
    r, options = drawn
    assert r.dead_cards() == () and r.dead_cards(wild_calls=False) == ()
    n = min(max(players, r.min_players), r.max_players)
    game = cl.Game.new(r, n, seed=seed, keep_undo=False)
    if rules_bot:
        from crazylab.bots import make_bot

        bots = [make_bot("rules"), make_bot("random")] * n
    else:
        bots = [RandomBot()] * n
    try:
        play_hand(game, bots[:n], [random.Random(seed)] * n, MAX_MOVES)
    except EndlessHand:
        pytest.fail(f"a hand under {options} with {n} players (seed {seed}) did not end "
                    f"within {MAX_MOVES} moves")
    assert game.over and game.result is not None


def test_a_long_random_walk_still_ends_within_the_bound() -> None:
    """What hypothesis found over the old bound of 20,000 moves: random bots that may draw four
    instead of playing (musical level 5, 2 players) wander long, yet every hand ends."""
    r = cl.rules("crazy-8s-level-5", min_players=2, max_players=2, no_play_draw=4)
    lengths = []
    for seed in (0, 1):
        game = cl.Game.new(r, 2, seed=seed, keep_undo=False)
        play_hand(game, [RandomBot()] * 2, [random.Random(seed)] * 2, MAX_MOVES)
        assert game.over and game.result is not None
        assert sum(map(len, game.hands)) + len(game.stock_cards) + sum(map(len, game.piles)) \
            == len(r.deck)
        lengths.append(len(game.moves))
    assert max(lengths) > 20_000, lengths

"""The error contract (issue 12) outside the engine: crazylab.errors, and Match's arguments
(a music match to a target can never end: it is refused, and ``hands=`` is offered)."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crazylab as cl
import crazylab.examples
from crazylab.errors import QUOTE_LIMIT, CrazylabError, int_digits, quote
from crazylab.match import MatchError

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]

# -- crazylab.errors ------------------------------------------------------------------------


def test_errors_module_imports_nothing_from_crazylab() -> None:
    # the engine's errors module is the bottom of every layer; crazylab.errors re-exports it
    tree = ast.parse((ROOT / "crazylab" / "engine" / "errors.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("crazylab")
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("crazylab") for a in node.names)


def test_crazylab_error_is_a_value_error() -> None:
    assert issubclass(CrazylabError, ValueError)
    assert issubclass(MatchError, CrazylabError) and issubclass(MatchError, cl.SetupError)
    assert issubclass(crazylab.examples.ExampleError, CrazylabError)


@pytest.mark.parametrize(("value", "shown"), [
    ("6H", "'6H'"), (7, "7"), (None, "None"), ([1, 2], "[1, 2]"), (1.5, "1.5"),
    ("x" * 79, repr("x" * 79)[:79] + "… (79 characters)"),
])
def test_quote_shows_short_values_as_repr(value: object, shown: str) -> None:
    assert quote(value) == shown


def test_quote_cuts_long_values_and_says_how_long() -> None:
    text = quote("y" * 10**6)
    assert len(text) <= QUOTE_LIMIT + 30 and text.endswith("(1000000 characters)")
    assert quote(list(range(10**5))).endswith("(100000 items)")
    assert quote(10**5000) == "an integer of 5001 digits"
    assert quote(-(10**100)) == "a negative integer of 101 digits"


def test_quote_never_raises() -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert "cannot be shown" in quote(deep)
    assert "cannot be shown" in quote(Broken())


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(10**4100), max_value=10**4100))
def test_int_digits_counts_decimal_digits(n: int) -> None:
    assert int_digits(n) == len(str(abs(n)))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=2000), st.integers(), st.floats(),
                 st.lists(st.text(max_size=50), max_size=200), st.binary(max_size=500)),
       st.integers(min_value=1, max_value=200))
def test_quote_is_short_for_any_value(value: object, limit: int) -> None:
    assert len(quote(value, limit)) <= max(limit, 8) + 30


# -- Match --------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [
    "crazy-8s-music", "crazy-8s-level-3",
    cl.rules("crazy-eights-classic", scoring="none", match_target=None)])
def test_a_match_to_a_target_that_no_total_can_reach_is_refused(rules: object) -> None:
    """Music scores are never positive (−1 per card, the winner 0): a target could never be
    reached, and play_random raised RuntimeError after 1,000 hands."""
    with pytest.raises(MatchError) as e:
        cl.Match(rules, 2, seed=1, target=10)  # type: ignore[arg-type]
    message = str(e.value)
    assert "no hand ever gives a seat more than 0 points" in message
    assert "hands=" in message


def test_a_rule_set_match_target_under_music_scoring_is_refused_too() -> None:
    # the option schema refuses the rule set itself, before any match is made
    with pytest.raises(cl.RulesError, match="match_target=50 needs scoring='winner_collects'"):
        cl.rules("crazy-8s-music", match_target=50)


def test_a_music_match_of_a_fixed_number_of_hands_ends_and_the_highest_total_wins() -> None:
    match = cl.Match("crazy-8s-music", 3, seed=4, hands=4).play_random(4)
    assert match.over and len(match.hands) == 4
    assert all(v <= 0 for v in match.scores)
    assert match.scores == [sum(g.scores[s] for g in match.hands) for s in range(3)]
    best = max(match.scores)
    leaders = [s for s, v in enumerate(match.scores) if v == best]
    assert match.winner == (leaders[0] if len(leaders) == 1 else None)
    with pytest.raises(MatchError, match="the match is over"):
        match.next_hand()


def test_a_music_match_without_target_or_hands_is_one_hand() -> None:
    match = cl.Match("crazy-8s-music", 2, seed=2).play_random(2)
    assert len(match.hands) == 1 and not match.over and match.winner is None


def test_a_fixed_number_of_hands_works_for_positive_scoring_too() -> None:
    match = cl.Match("crazy-eights-quick", 2, seed=3, hands=2).play_random(3)
    assert match.over and len(match.hands) == 2


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": None}, "players must be a whole number"),
    ({"players": 2.0}, "players must be a whole number"),
    ({"players": 1}, "players must be a whole number from 2 to 4, not 1"),
    ({"seed": "abc"}, "seed must be a whole number"),
    ({"seed": 1.7}, "seed must be a whole number"),
    ({"seed": float("nan")}, "seed must be a whole number"),
    ({"seed": [1]}, "seed must be a whole number"),
    ({"target": 0}, "target must be a whole number from 1 to"),
    ({"target": "100"}, "target must be a whole number"),
    ({"target": True}, "target must be a whole number"),
    ({"dealer": 1.5}, "dealer must be a whole number"),
    ({"dealer": "0"}, "dealer must be a whole number"),
    ({"dealer": 2}, "dealer must be a seat from 0 to 1"),
    ({"dealer": -1}, "dealer must be a whole number of at least 0"),
    ({"scores": [1]}, "scores must list 2 seats"),
    ({"scores": "95,40"}, "scores must list 2 seats"),
    ({"scores": [95, "40"]}, "scores[1] must be a whole number"),
    ({"hands": 0}, "hands must be a whole number from 1 to"),
    ({"hands": 3, "target": 100}, "not both"),
    ({"rules": 5}, "rules must be a preset name or a RuleSet"),
])
def test_bad_match_arguments_are_refused_by_name(kwargs: dict[str, object],
                                                 message: str) -> None:
    args: dict[str, object] = {"rules": "crazy-eights-classic", "players": 2, "seed": 1}
    args.update(kwargs)
    with pytest.raises(MatchError) as e:
        cl.Match(**args)  # type: ignore[arg-type]
    assert message in str(e.value)
    assert len(str(e.value)) < 300


def test_a_huge_argument_is_quoted_short() -> None:
    with pytest.raises(MatchError) as e:
        cl.Match("crazy-eights-classic", 2, seed="s" * 10**6)  # type: ignore[arg-type]
    assert len(str(e.value)) < 150


def test_a_refused_match_call_leaves_the_match_unchanged() -> None:
    match = cl.Match("crazy-eights-classic", 2, seed=1)
    with pytest.raises(MatchError, match="not over"):
        match.record()
    with pytest.raises(MatchError):
        match.record(cl.Game.new("crazy-eights-classic", 2, seed=9))
    before = (list(match.scores), len(match.hands), match.dealer, match.game.fingerprint())
    assert before[:2] == ([0, 0], 1)
    match.play_random(1)
    done = (copy.copy(match.scores), len(match.hands), match.dealer)
    with pytest.raises(MatchError, match="the match is over"):
        match.next_hand()
    assert (match.scores, len(match.hands), match.dealer) == done

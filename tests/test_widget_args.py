"""Generated bad arguments for every widget constructor (issue 25 items 3, 4 and 7): from
Python, the project's own error naming the argument, or a widget that shows no error; from a
page's address (``from_query``), a widget with the defaults and at most one line saying why,
never a traceback. ``test_every_widget_is_covered`` fails when a widget class in
``crazylab.widgets.__all__`` has no test here."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import ipywidgets
import pytest
import time_bound
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crazylab as cl
import crazylab.widgets as W
from crazylab.errors import CrazylabError
from crazylab.widgets.music import IntervalExplorer

pytestmark = pytest.mark.oldest

BOUND = 10.0
SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

junk = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.integers(-3, 12),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from(["no", "", "0", "1.7", "crazy-eights", "nope", "8D 3C", "ſ", "x" * 5000]),
    st.lists(st.integers(-2, 5), max_size=3), st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.integers(-2, 9), st.text(max_size=5), max_size=3),
    st.builds(object), st.just(math.nan), st.just(10**100),
)


def bounded(seconds: float = BOUND) -> contextlib.AbstractContextManager[None]:
    """Fail building a widget that runs past ``seconds``."""
    return time_bound.bounded(seconds, "building the widget")


def build(make: Callable[[], Any]) -> Any:
    """The widget, or ``None`` when refused with the project's error (any other exception
    fails the test); a widget built shows no error."""
    with bounded():
        try:
            widget = make()
        except CrazylabError as e:
            assert str(e) and "Traceback" not in str(e)
            return None
    assert not getattr(widget, "errors", []), f"built, but shows an error: {widget.errors}"
    return widget


def _arg(value: Any, good: Any) -> Any:
    return good if value == "GOOD" else value


def maybe(good: Any) -> st.SearchStrategy[Any]:
    """Junk, or (half the time) the good value."""
    return st.one_of(st.just("GOOD"), junk).map(lambda v: _arg(v, good))


@SETTINGS
@given(rules=maybe("crazy-eights-quick"), opponents=maybe(2), seed=maybe(5), bot=maybe("rules"),
       delay=maybe(0.0), four_colour=maybe(False), target=maybe("rules"), names=maybe(None))
def test_game_table(rules: Any, opponents: Any, seed: Any, bot: Any, delay: Any,
                    four_colour: Any, target: Any, names: Any) -> None:
    t = build(lambda: W.GameTable(rules, opponents, seed=seed, bot=bot, delay=delay,
                                  four_colour=four_colour, target=target, names=names))
    if t is not None:  # only sane values were taken, none silently changed
        assert t.opponents == opponents and t.players == opponents + 1
        assert isinstance(seed, int) and t._seed == seed and t.delay == delay
        assert isinstance(four_colour, bool) and t.four_colour is four_colour
        assert names is None or t.names == list(names)[:t.players]
        assert t.game.n == t.players


def test_game_table_the_issue_s_cases() -> None:
    for kwargs in ({"rules": 5}, {"seed": 1.7}, {"opponents": 10}, {"names": [1, 2]},
                   {"rules": "crazy-8s-music", "target": 100}, {"four_colour": "no"},
                   {"delay": 10 ** 400}):  # a number too large for a float raised OverflowError
        with pytest.raises(CrazylabError) as e:
            W.GameTable(**kwargs)
        assert next(iter(kwargs)) in str(e.value) or "target" in str(e.value)


@SETTINGS
@given(rules=maybe("crazy-eights"), players=maybe(3), winner=maybe(0),
       hands=maybe({1: "8D 3C", 2: "QH AS"}), four_colour=maybe(False))
def test_score_calculator(rules: Any, players: Any, winner: Any, hands: Any,
                          four_colour: Any) -> None:
    c = build(lambda: W.ScoreCalculator(rules, players, winner, hands, four_colour))
    if c is not None:
        assert c.players == players and c.winner == winner and c.rules.name == rules
        assert "Traceback" not in c.error_area.value


@SETTINGS
@given(rules=maybe("crazy-eights"), top=maybe("6H"), hand=maybe("6C KH 8S 3D"),
       call=maybe(None), four_colour=maybe(False))
def test_legal_move_explorer(rules: Any, top: Any, hand: Any, call: Any,
                             four_colour: Any) -> None:
    x = build(lambda: W.LegalMoveExplorer(rules, top, hand, call, four_colour))
    if x is None:
        return
    assert x.rules.name == rules and "Traceback" not in x.error_area.value


@SETTINGS
@given(rules=maybe("crazy-eights"), options=maybe(None), on_build=maybe(None),
       target=maybe(None), live=maybe(False), button=maybe("Play"))
def test_rule_builder(rules: Any, options: Any, on_build: Any, target: Any, live: Any,
                      button: Any) -> None:
    b = build(lambda: W.RuleBuilder(rules, options, on_build=on_build, target=target,
                                    live=live, button=button))
    if b is not None:
        assert isinstance(live, bool) and b.live is live and b.play_button.description == button


@SETTINGS
@given(deck=st.one_of(junk, st.just("DECK"), st.lists(st.sampled_from(["8D", "ZZ", 5]),
                                                      max_size=3)),
       four_colour=maybe(False))
def test_card_picker(deck: Any, four_colour: Any) -> None:
    deck = cl.rules("crazy-eights").deck if deck == "DECK" else deck
    p = build(lambda: W.CardPicker(deck, four_colour=four_colour))
    if p is not None:
        assert all(isinstance(c["card"], str) for c in p.cards)
        assert len(p.cards) == len(set(cl.Card.parse(c) if isinstance(c, str) else c
                                        for c in deck))


@SETTINGS
@given(example=maybe("sr-t4-scoring-64"), step=maybe(1), choices=maybe(None),
       four_colour=maybe(False), predict=maybe(False))
def test_step_explainer(example: Any, step: Any, choices: Any, four_colour: Any,
                        predict: Any) -> None:
    x = build(lambda: W.StepExplainer(example, step, choices=choices, four_colour=four_colour,
                                      predict=predict))
    if x is not None:
        assert isinstance(step, int) and isinstance(predict, bool)
        assert x.example is not None and x.index == min(step, len(x.frames) - 1)


def test_step_explainer_refuses_an_example_that_is_none() -> None:
    for example in ("nope", {"x": 1}, "sr-t4-scoring-64.json/.."):
        with pytest.raises(CrazylabError):
            W.StepExplainer(example)


@SETTINGS
@given(rules=maybe("crazy-8s-level-3"), top=maybe("3D"), call=maybe(None))
def test_interval_explorer(rules: Any, top: Any, call: Any) -> None:
    x = build(lambda: IntervalExplorer(rules, top, call))
    if x is not None:
        assert x.rules.name == getattr(rules, "name", rules) and len(x.refs) == 1


def test_interval_explorer_the_bare_errors() -> None:
    for kwargs in ({"rules": "crazy-eights"}, {"call": "Q"}, {"top": "ZZ"}, {"top": 5}):
        with pytest.raises(CrazylabError):
            IntervalExplorer(**kwargs)


# -- from a page's address ----------------------------------------------------------------------

_VALUES = ["crazy-eights-quick", "nope", "10", "-1", "1.7", "x", "٣", "", "2", "0", "1e999",
           "99999999999999999999999"]


@SETTINGS
@given(params=st.dictionaries(st.sampled_from(["rules", "opponents", "seed", "delay", "level",
                                               "four", "players", "winner", "seat1", "top",
                                               "hand", "call"]),
                              st.sampled_from(_VALUES), max_size=4),
       cls=st.sampled_from(["GameTable", "ScoreCalculator", "LegalMoveExplorer"]))
def test_from_query_shows_one_line(params: dict[str, str], cls: str) -> None:
    widget_class = getattr(W, cls)
    defaults = {"delay": 0} if cls == "GameTable" else {}
    with bounded():
        widget = widget_class.from_query(urlencode(params), **defaults)
    for text in widget.errors:
        assert "Traceback" not in text and "\n" not in text, text
        assert text.startswith("reading the page's address failed: ")


def test_the_table_s_address_says_why_in_one_line() -> None:
    t = W.GameTable.from_query("rules=crazy-8s-music&seed=1.7&delay=0")
    assert t.error == "reading the page's address failed: seed must be a whole number, not '1.7'"
    assert t.rules.name == "crazy-eights-classic"  # the defaults, playable


# -- coverage ------------------------------------------------------------------------------------

COVERED = {"GameTable": test_game_table, "ScoreCalculator": test_score_calculator,
           "LegalMoveExplorer": test_legal_move_explorer, "RuleBuilder": test_rule_builder,
           "CardPicker": test_card_picker, "StepExplainer": test_step_explainer}


def test_every_widget_is_covered() -> None:
    widgets = {n for n in W.__all__ if isinstance(getattr(W, n), type)
               and issubclass(getattr(W, n), ipywidgets.Widget)}
    assert widgets and not widgets - set(COVERED), sorted(widgets - set(COVERED))

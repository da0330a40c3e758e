"""The widgets' shared argument checks: a constructor refuses a bad argument with
:class:`WidgetArgumentError` (a ``CrazylabError``) naming the argument, what was given and what
is allowed, before it builds anything.

>>> whole("opponents", 2, 1, 3)
2
>>> whole("opponents", 10, 1, 3)
Traceback (most recent call last):
...
crazylab.widgets._validate.WidgetArgumentError: opponents must be a whole number from 1 to 3, not 10

A page built from its address (:func:`~crazylab.widgets._common.build_or_default`) shows
:func:`one_line` of the refusal over the default widget, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from crazylab.engine import checks
from crazylab.engine.cards import Card
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.errors import CrazylabError, quote

__all__ = ["MAX_TEXT", "WidgetArgumentError", "callback", "cards", "flag", "number", "one_line",
           "preset", "rule_set", "text", "texts", "whole"]

#: the longest text a widget's argument may hold (a hand typed as text, a title)
MAX_TEXT = 2_000
#: the most seats at a game table (you and up to three opponents)
MAX_SEATS = 4
#: the most items a list argument may hold (a deck of cards, names, choices)
MAX_ITEMS = 1_000


class WidgetArgumentError(CrazylabError):
    """A widget's constructor argument of the wrong kind or out of range."""


def _fail(name: str, allowed: str, value: object) -> WidgetArgumentError:
    return WidgetArgumentError(f"{name} must be {allowed}, not {quote(value)}")


def flag(name: str, value: object) -> bool:
    """``True`` or ``False`` (``"no"`` and ``0`` are not booleans)."""
    return checks.flag(name, value, WidgetArgumentError)


def whole(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """A whole number (not a bool, not ``1.7``) from ``low`` to ``high``."""
    return checks.whole(name, value, low, high, WidgetArgumentError)


def number(name: str, value: object, low: float, high: float) -> float:
    """A finite number (int or float, not a bool) from ``low`` to ``high``."""
    return checks.number(name, value, low, high, WidgetArgumentError)


def text(name: str, value: object, limit: int = MAX_TEXT, *, optional: bool = False
         ) -> str | None:
    """Text of at most ``limit`` characters (or ``None`` when ``optional``)."""
    return checks.text(name, value, limit, WidgetArgumentError, optional=optional)


def texts(name: str, value: object, limit: int = 40, most: int = MAX_ITEMS) -> list[str]:
    """A list (or tuple) of at most ``most`` texts of at most ``limit`` characters each."""
    if (isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple))
            or len(value) > most):
        raise _fail(name, f"a list of at most {most} texts", value)
    for i, v in enumerate(value):
        text(f"{name}[{i}]", v, limit)
    return list(value)


def preset(name: str, value: object) -> str:
    """The name of a preset (a widget's dropdown lists the presets)."""
    if not isinstance(value, str) or value not in PRESETS:
        raise _fail(name, f"a preset's name ({', '.join(PRESETS)})", value)
    return value


def rule_set(name: str, value: object) -> RuleSet:
    """A preset's name or a :class:`RuleSet`, as a rule set."""
    if isinstance(value, RuleSet):
        return value
    if isinstance(value, str):
        preset(name, value)
        return get_rules(value)
    raise _fail(name, f"a preset's name ({', '.join(PRESETS)}) or a RuleSet", value)


def callback(name: str, value: object) -> Callable[..., Any] | None:
    """``None`` or something to call."""
    if value is not None and not callable(value):
        raise _fail(name, "a function (or None)", value)
    return value


def cards(name: str, value: object, most: int = MAX_ITEMS) -> list[Card]:
    """Cards (``Card`` or card text such as ``"8D"``), at most ``most`` of them."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise _fail(name, "a list of cards", value)
    out: list[Card] = []
    for i, v in enumerate(value):
        if i >= most:
            raise WidgetArgumentError(f"{name} holds more than {most} cards")
        if isinstance(v, (Card, str)):  # a Card too: one made past Card() is refused
            try:
                out.append(Card.parse(v))
            except ValueError as e:
                raise WidgetArgumentError(f"{name}[{i}]: {e}") from None
        else:
            raise _fail(f"{name}[{i}]", "a card", v)
    return out


def one_line(exc: BaseException, limit: int = 300) -> str:
    """The reason a page shows for a refused address: the error's first line, cut (the
    project's errors as they are, any other with its kind)."""
    head = (str(exc).strip().splitlines() or [""])[0]
    if not isinstance(exc, CrazylabError):
        head = f"{type(exc).__name__}: {head}" if head else type(exc).__name__
    return head if len(head) <= limit else f"{head[: limit - 1]}…"


# -- one widget's arguments together ----------------------------------------------------------


def table_args(rules: object, opponents: object, seed: object, bot: object, delay: object,
               four_colour: object, target: object, names: object) -> RuleSet:
    """:class:`~crazylab.widgets.GameTable`'s arguments, checked together (a match under
    these rules must be possible: ``target`` for a game whose hands never pay, say); its
    rule set."""
    from crazylab.match import MAX_TARGET, Match

    from .players import bot_levels

    r = rule_set("rules", rules)
    whole("opponents", opponents, max(1, r.min_players - 1), min(3, r.max_players - 1))
    if seed is not None:
        whole("seed", seed)
    if bot is not None and not callable(bot):
        levels = list(bot_levels())
        if not isinstance(bot, str) or bot not in levels:
            raise _fail("bot", f"a level ({', '.join(levels)}) or a function "
                        "(observation, rng) -> Move", bot)
    number("delay", delay, 0, 10)
    flag("four_colour", four_colour)
    if target is not None and target != "rules":
        whole("target", target, 1, MAX_TARGET)
    players = opponents + 1  # type: ignore[operator]
    if names is not None:
        given = texts("names", names)
        if not players <= len(given) <= MAX_SEATS:
            raise WidgetArgumentError(f"names must name all {players} seats (you first), and "
                                      f"at most {MAX_SEATS} (a table's most seats), not "
                                      f"{quote(names)}")
    goal = r.match_target if target == "rules" else target
    Match(r, players, seed=0, target=goal)  # type: ignore[arg-type]  # a MatchError if impossible
    return r


def scoring_args(rules: object, players: object, winner: object, hands: object,
                 four_colour: object) -> None:
    """:class:`~crazylab.widgets.ScoreCalculator`'s arguments (seats within the table)."""
    r = get_rules(preset("rules", rules))
    n = whole("players", players, r.min_players, min(6, r.max_players))
    whole("winner", winner, 0, n - 1)
    if hands is not None:
        if not isinstance(hands, Mapping) or len(hands) > n:
            raise _fail("hands", f"a dict of at most {n} seats to the cards they hold "
                        "({1: '8D 3C'})", hands)
        for seat, held in hands.items():
            s = int(seat) if isinstance(seat, str) and seat.isascii() and seat.isdigit() else seat
            whole("hands' seat", s, 0, n - 1)
            text(f"hands[{seat}]", held)
    flag("four_colour", four_colour)


def explorer_args(rules: object, top: object, hand: object, call: object,
                  four_colour: object) -> None:
    """:class:`~crazylab.widgets.LegalMoveExplorer`'s arguments."""
    preset("rules", rules)
    text("top", top, 200)
    text("hand", hand)
    text("call", call, 40, optional=True)
    flag("four_colour", four_colour)


def builder_args(rules: object, options: object, on_build: object, target: object,
                 live: object, button: object) -> None:
    """:class:`~crazylab.widgets.RuleBuilder`'s arguments."""
    rule_set("rules", rules)
    if options is not None and (not isinstance(options, Mapping) or len(options) > MAX_ITEMS
                                or not all(isinstance(k, str) for k in options)):
        raise _fail("options", "a dict of option names to values", options)
    callback("on_build", on_build)
    if target is not None and not callable(getattr(target, "set_rules", None)):
        raise _fail("target", "a GameTable, a LegalMoveExplorer (anything with set_rules) or "
                    "None", target)
    flag("live", live)
    text("button", button, 80)


def explainer_args(example: object, step: object, choices: object, four_colour: object,
                   predict: object) -> None:
    """:class:`~crazylab.widgets.StepExplainer`'s arguments; an example given by name, path or
    dict is loaded here, so a bad one raises its ``ExampleError`` from Python instead of
    showing in the widget."""
    from crazylab.examples import MAX_STEPS, Example, load_example

    if not (example is None or isinstance(example, (dict, Example))):
        text("example", example, 200)
    if isinstance(example, (str, dict)):
        load_example(example)
    whole("step", step, 0, MAX_STEPS)
    if choices is not None and not texts("choices", choices, 200):
        raise WidgetArgumentError("choices must list at least one example (or be None for "
                                  "all of them), not []")
    flag("four_colour", four_colour)
    flag("predict", predict)


def interval_args(rules: object, top: object, call: object) -> RuleSet:
    """:class:`~crazylab.widgets.music.IntervalExplorer`'s arguments; its rule set."""
    from crazylab.music import level_of

    r = rule_set("rules", rules)
    try:
        level_of(r)
    except ValueError as e:
        raise WidgetArgumentError(f"rules: {e}") from None
    if not isinstance(top, Card):
        text("top", top, 40)
    text("call", call, 40, optional=True)
    return r

"""The typed option schema: every :class:`~crazylab.RuleSet` option, with its type, allowed
values or bounds, default, a one-line doc and the ruling(s) of ``rulings.md`` it implements.

Three things come from :data:`OPTIONS` and nothing else:

* validation of a rule set (``RuleSet.__post_init__`` checks each value with
  :meth:`Option.check`; the cross-field checks, such as the deck size, stay in ``rules.py``);
* the text parsing of the command line's ``--option KEY=VALUE`` (:func:`parse_option`,
  :func:`parse_value`);
* the options reference ``docs/OPTIONS.md`` (:func:`render_markdown`;
  ``python docs/options_md.py`` writes it, and a test checks that it is up to date).

Booleans are only ``True``/``False`` from Python (``chain="no"`` is refused), and from text
``true/false/yes/no/on/off/1/0``. Whole numbers are real ``int`` values (not ``bool``, not
``float``) within bounds that make sense. Every refusal is a :class:`RulesError` (a
``ValueError``) whose message names the option and its allowed values, and quotes at most
~80 characters of the value given.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .pitch import PITCH_MAPS

Kind = Literal["bool", "int", "optional_int", "choice", "ints"]

#: the most characters of an input value that a message quotes
QUOTE_LIMIT = 80
#: the most cards a deck can hold (52 + 2 jokers): the bound of per-card counts
MAX_DECK = 54


class RulesError(ValueError):
    """An unknown preset or an option value that makes no sense."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters, safe for any value (huge ints, deep lists,
    objects whose ``repr`` fails)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        text = f"<a whole number of about {int(value.bit_length() * 0.30103)} digits>"
    else:
        try:
            text = repr(value)
        except Exception:  # noqa: BLE001  # a broken __repr__, RecursionError, …
            text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option:
    """One rule-set option: how it is typed, checked, parsed from text and documented."""

    name: str
    kind: Kind
    default: object
    doc: str
    rulings: tuple[str, ...] = ()
    #: for ``choice``: the allowed values (as documented)
    choices: tuple[str, ...] = ()
    #: for ``choice``: where more allowed values come from at run time (pitch maps)
    more_choices: Callable[[], Iterable[str]] | None = None
    #: bounds of an ``int``/``optional_int`` value, or of each item of ``ints``
    low: int | None = None
    high: int | None = None
    #: ``ints`` items that are never allowed (the 8s of ``removed_ranks``)
    exclude: tuple[int, ...] = ()
    #: other names accepted for this option (``rules()`` and the CLI map them to ``name``)
    aliases: tuple[str, ...] = ()

    # -- what is allowed -----------------------------------------------------------------------

    def allowed_choices(self) -> tuple[str, ...]:
        """Every value a ``choice`` option accepts now (pitch maps can be registered)."""
        if self.more_choices is None:
            return self.choices
        extra = [c for c in self.more_choices() if c not in self.choices]
        return self.choices + tuple(extra)

    def _range_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"from {self.low} to {self.high}"
        if self.low is not None:
            return f"of at least {self.low}"
        return f"of at most {self.high}"  # pragma: no cover  # every option has a low bound

    def allowed(self, live: bool = True) -> str:
        """What this option accepts, in words (``live=False``: the documented choices)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number {self._range_text()}"
        if self.kind == "optional_int":
            return f"None or a whole number {self._range_text()}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.allowed_choices() if live else self.choices)
        but = f" other than {', '.join(map(str, self.exclude))}" if self.exclude else ""
        return f"a list of different whole numbers {self._range_text()}{but}"

    def _refuse(self, value: object, what: str | None = None) -> RulesError:
        return RulesError(f"{self.name} must be {what or self.allowed()} (got {quote(value)})")

    # -- checking a Python value ------------------------------------------------------------------

    def _in_bounds(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    def check(self, value: object) -> object:
        """``value`` if this option accepts it (lists become tuples), else :class:`RulesError`."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
        elif kind == "int" or kind == "optional_int":
            if value is None and kind == "optional_int":
                return None
            if _is_int(value) and self._in_bounds(value):  # type: ignore[arg-type]
                return value
        elif kind == "choice":
            if isinstance(value, str) and value in self.allowed_choices():
                return value
        elif isinstance(value, (tuple, list)):
            items = tuple(value)
            if all(_is_int(i) and self._in_bounds(i) and i not in self.exclude for i in items) \
                    and len(set(items)) == len(items):
                return items
        raise self._refuse(value)

    # -- parsing text (the CLI) -------------------------------------------------------------------

    def parse(self, text: str) -> object:
        """The value that ``text`` (as typed after ``KEY=``) stands for, checked."""
        t = text.strip()
        low = t.lower()
        kind = self.kind
        if kind == "bool":
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise self._refuse(text, "true or false (also yes/no, on/off, 1/0)")
        if kind == "int" or kind == "optional_int":
            if kind == "optional_int" and low in _NONE:
                return None
            return self.check(_parse_int(t, self, text))
        if kind == "choice":
            allowed = self.allowed_choices()
            if t in allowed:
                return t
            folded = [c for c in allowed if c.lower() == low]
            if len(folded) == 1:
                return folded[0]
            raise self._refuse(text)
        if low in _NONE or t == "":
            return ()
        return self.check(tuple(_parse_int(part.strip(), self, text) for part in t.split(",")))


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_NONE = frozenset({"none", "null"})
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII digits only ('²'.isdigit() is True)


def _parse_int(t: str, option: Option, whole: str) -> int:
    if not _INT_TEXT.fullmatch(t):
        raise option._refuse(whole)
    return int(t)


def _opt(name: str, kind: Kind, default: object, doc: str, rulings: str = "",
         **more: Any) -> Option:
    return Option(name, kind, default, doc, tuple(rulings.split()), **more)


def _pitch_maps() -> Iterable[str]:
    return PITCH_MAPS.keys()


_BOOL: Kind = "bool"
_INT: Kind = "int"
_CHOICE: Kind = "choice"

#: Every option, in the order of :class:`~crazylab.RuleSet`'s fields. ``default`` is the
#: field's default; the presets change some of them (``docs/OPTIONS.md`` lists which).
OPTIONS: dict[str, Option] = {o.name: o for o in (
    # -- players, cards, piles
    _opt("min_players", _INT, 2, "Fewest players a game may have.",
         "C-14 SR-1 AP-1 MU-1 BR-2", low=2, high=10),
    _opt("max_players", _INT, 5, "Most players a game may have (the deck must deal them all).",
         "C-14 SR-1 AP-1 MU-Q31 BR-Q2", low=2, high=10),
    _opt("hand_size", _INT, 5, "Cards dealt to each player.",
         "SR-3 AP-3 MU-2 BR-3 SR-Q15", low=1, high=26),
    _opt("hand_size_2p", "optional_int", None,
         "Cards dealt to each of two players, if different from hand_size (the app: 7).",
         "AP-3 SR-Q15", low=1, high=26),
    _opt("jokers", _INT, 0, "Jokers added to the 52 cards.", "SR-2 MU-Q2 BR-Q1",
         low=0, high=2),
    _opt("removed_ranks", "ints", (), "Ranks (1 = A … 13 = K) taken out of the deck.",
         "MU-D1 MU-Q27", low=1, high=13, exclude=(8,)),
    _opt("piles", _INT, 1, "Discard piles, each with its own starter.", "MU-22 MU-Q23",
         low=1, high=4),
    # -- what may be played
    _opt("matching", _CHOICE, "suit_rank",
         "What a card must match: suit or rank, suit or pitch, a letter step, an interval.",
         "SR-10 MU-5 MU-26 MU-28", choices=("suit_rank", "suit_pitch", "letter_step",
                                             "interval")),
    _opt("intervals", "ints", (),
         "Semitones up from a pile's pitch that are playable (interval matching).",
         "MU-26 MU-28 MU-29", low=1, high=11),
    _opt("pitch_map", _CHOICE, "A_based",
         "The rank → pitch table of the musical deck (more with register_pitch_map).",
         "MU-Q1 MU-D3", choices=("A_based", "C_based"), more_choices=_pitch_maps),
    _opt("eights", _CHOICE, "call",
         "An eight names a suit (or pitch), or takes its own printed suit.",
         "SR-12 MU-12 MU-Q30", choices=("call", "own_suit")),
    _opt("starter_eight", _CHOICE, "rebury",
         "A starter eight is buried in the stock, kept, or declared by the dealer.",
         "SR-7 AP-Q1 MU-Q4 BR-Q5", choices=("rebury", "keep", "dealer_declares")),
    _opt("starter_joker", _CHOICE, "rebury",
         "A starter joker is buried in the stock, or counts as the dealer's play.",
         "MU-Q3 BR-Q6", choices=("rebury", "apply")),
    _opt("bury_position", _CHOICE, "random_not_top",
         "Where a buried starter goes in the stock.", "SR-Q1",
         choices=("random_not_top", "middle", "bottom")),
    # -- drawing
    _opt("draw_rule", _CHOICE, "until_playable",
         "Drawing when you cannot play: until playable, up to draw_limit, one, or a fixed "
         "draw_limit at once.", "SR-15 AP-10 AP-11 MU-7 SR-Q18",
         choices=("until_playable", "up_to_n", "one", "fixed")),
    _opt("draw_limit", _INT, 3,
         "Cards per turn for up_to_n; cards drawn at once for fixed (at most the deck).",
         "AP-11 AP-Q3 MU-7", low=1, high=MAX_DECK),
    _opt("must_play_drawn", _BOOL, True, "A playable card found by drawing must be played.",
         "SR-Q3 SR-Q18 AP-Q2"),
    _opt("voluntary_draw", _BOOL, False, "A player holding a legal card may draw instead.",
         "SR-17 SR-Q2 AP-Q5 BR-Q38"),
    _opt("chain", _BOOL, False, "Several plays in a turn, one card at a time, closed by end.",
         "MU-6"),
    _opt("optional_play", _BOOL, False, "A player may draw instead of playing.", "MU-Q8"),
    _opt("post_draw_first_card", _CHOICE, "drawn_only",
         "After the no-play draw, the first card played must be a drawn one, or any.",
         "MU-Q9", choices=("drawn_only", "any")),
    # -- Crazy Breens
    _opt("stacking", _BOOL, False, "Several cards of one rank in one play.", "BR-12"),
    _opt("specials", _BOOL, False,
         "The Crazy Breens special cards: 2 draw two, A skip, K deck play, Q drop, J counter, "
         "joker draw.", "BR-16 BR-17 BR-18 BR-19 BR-20 BR-21 BR-22"),
    _opt("joker_draw", _INT, 2, "Cards the victim of a joker draws.", "BR-17 MU-13",
         low=0, high=10),
    _opt("joker_victim_skips", _BOOL, False, "The joker's victim also loses a turn (music).",
         "MU-Q12"),
    _opt("stack_targeting", _CHOICE, "distributed",
         "Hit i of a stack lands on opponent i, or every hit on the next player.", "BR-Q11",
         choices=("distributed", "all_on_next")),
    _opt("mid_draw_counter", _CHOICE, "first_card",
         "A Jack drawn while taking a penalty counters: the first card only, any card, or "
         "never.", "BR-Q21 BR-26", choices=("first_card", "any_card", "off")),
    _opt("counter_stack", _BOOL, True, "A counter may be several Jacks.", "BR-Q19"),
    _opt("jack_counters_joker", _BOOL, True, "A Jack counters a joker's draw too.", "BR-Q14"),
    _opt("starter_queen_drop", _BOOL, True, "A Queen starter lets the dealer drop a card.",
         "BR-Q7"),
    # -- the stock
    _opt("reshuffle", _CHOICE, "never",
         "When the stock is empty the discards (but the top cards) are reshuffled: never, up "
         "to max_reshuffles times a hand, or always.", "SR-19 AP-12 MU-16 BR-Q39",
         choices=("never", "limited", "unlimited")),
    _opt("max_reshuffles", _INT, 3, "Reshuffles a hand allows with reshuffle='limited'.",
         "AP-12 AP-Q9", low=0, high=100),
    # -- scoring and the end
    _opt("scoring", _CHOICE, "winner_collects",
         "The winner collects the cards left in the other hands, each left card is -1, or "
         "no points.", "SR-22 MU-19 MU-Q17 BR-Q41",
         choices=("winner_collects", "minus_one_per_card", "none")),
    _opt("joker_points", _INT, 50, "What a joker left in a hand scores.", "C-16 BR-Q41",
         low=0, high=100),
    _opt("blocked_rule", _CHOICE, "void_redeal",
         "A blocked hand is void and redealt, won by the fewest points, or by the fewest "
         "cards.", "SR-20 AP-17 MU-20 BR-Q40",
         choices=("void_redeal", "lowest_points_wins", "fewest_cards")),
    _opt("blocked_tiebreak", _CHOICE, "fewest_cards_then_draw",
         "A tie for the fewest points: fewest cards then a draw, or a shared win.", "AP-Q11",
         choices=("fewest_cards_then_draw", "shared")),
    _opt("blocked_scoring", _CHOICE, "difference",
         "What a blocked hand's winner scores: the difference to each opponent, the "
         "opponents' total, or nothing.", "AP-Q12",
         choices=("difference", "opponents_total", "none")),
    _opt("void_hand_dealer", _CHOICE, "same", "Who deals after a void hand.", "SR-Q7",
         choices=("same", "rotate")),
    _opt("match_target", "optional_int", None,
         "Points that win a match (None: every hand stands alone).", "SR-Q10 AP-16 AP-Q13",
         low=1, high=10_000),
)}

#: every alias → the option it names
ALIASES: dict[str, str] = {a: o.name for o in OPTIONS.values() for a in o.aliases}


def canonical(name: object) -> str:
    """The option that ``name`` (an option name or an alias) stands for; else RulesError
    naming close matches."""
    if isinstance(name, str):
        if name in OPTIONS:
            return name
        if name in ALIASES:
            return ALIASES[name]
    raise RulesError(f"unknown option {quote(name)}{suggest(name)}; options are: "
                     f"{', '.join(sorted(OPTIONS))}")


def suggest(name: object) -> str:
    """`` (did you mean …?)`` naming the options closest to ``name``, or ``""``."""
    if not isinstance(name, str) or len(name) > 100:
        return ""
    close = difflib.get_close_matches(name, [*OPTIONS, *ALIASES], n=3)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def check(name: str, value: object) -> object:
    """``value`` checked as option ``name`` (an alias is fine); lists become tuples."""
    return OPTIONS[canonical(name)].check(value)


def parse_value(name: str, text: str) -> object:
    """The value of option ``name`` written as ``text``: ``parse_value("chain", "no")`` is
    ``False``; ``parse_value("removed_ranks", "9,10")`` is ``(9, 10)``."""
    return OPTIONS[canonical(name)].parse(text)


def parse_option(text: str) -> tuple[str, object]:
    """``"KEY=VALUE"`` (the CLI's ``--option``) as ``(option name, value)``; an alias gives
    the option's own name."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RulesError(f"--option {quote(text)}: write KEY=VALUE, like draw_limit=2")
    name = canonical(key.strip())
    return name, OPTIONS[name].parse(value)


# -- the options reference (docs/OPTIONS.md) ------------------------------------------------------


def _md_value(value: object) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if value is None:
        return "`None`"
    if isinstance(value, tuple):
        return "`" + (",".join(map(str, value)) or "()") + "`"
    return f"`{value}`"


def _md_allowed(o: Option) -> str:
    if o.kind == "choice":
        text = ", ".join(f"`{c}`" for c in o.choices)
        return text + (" (or a registered map)" if o.more_choices else "")
    if o.kind == "bool":
        return "`true`, `false`"
    but = f", not {', '.join(map(str, o.exclude))}" if o.exclude else ""
    if o.kind == "ints":
        return f"list of {o.low}–{o.high}{but}"
    prefix = "`None` or " if o.kind == "optional_int" else ""
    return f"{prefix}{o.low}–{o.high}"


def render_markdown(presets: Mapping[str, Any]) -> str:
    """The options reference as markdown: one row per option, then each preset's changes."""
    lines = [
        "# Rule-set options",
        "",
        "Generated from `crazylab/engine/options.py` by `python docs/options_md.py`; do not",
        "edit by hand. Give options in Python as `crazylab.rules(\"crazy-eights\", "
        "draw_limit=2)`,",
        "on the command line as `--option draw_limit=2` (booleans: true/false, yes/no, on/off,",
        "1/0; lists: `9,10,11`; `none` for no value), or in a worked example's `\"options\"`.",
        "The ruling ids are those of `shared/spec/rulings.md`.",
        "",
        "| option | type | allowed | default | rulings | what it does |",
        "|---|---|---|---|---|---|",
    ]
    for o in OPTIONS.values():
        name = f"`{o.name}`" + "".join(f" (alias `{a}`)" for a in o.aliases)
        kind = {"optional_int": "int or None", "ints": "list of int", "choice": "str"}.get(
            o.kind, o.kind)
        lines.append(f"| {name} | {kind} | {_md_allowed(o)} | {_md_value(o.default)} | "
                     f"{', '.join(o.rulings)} | {o.doc} |")
    lines += ["", "## What each preset changes", ""]
    for pname, r in presets.items():
        changed = [f"`{o.name}`={_md_value(getattr(r, o.name))}" for o in OPTIONS.values()
                   if getattr(r, o.name) != o.default]
        lines.append(f"* **{pname}**: {', '.join(changed) or 'nothing'}")
    return "\n".join(lines) + "\n"

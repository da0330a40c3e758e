"""The typed option schema: every :class:`~crazylab.RuleSet` option, with its type, allowed
values or bounds, default, a one-line doc and the ruling(s) of crazylab's rulebook
(``crazylab.rulebook``) it implements.

Three things come from :data:`OPTIONS` and nothing else:

* validation of a rule set (``RuleSet.__post_init__`` checks each field with
  :meth:`Option.check`; the cross-field checks, such as the deck size, stay in ``rules.py``);
* the text parsing of the command line's ``--option KEY=VALUE`` (:func:`parse_option`,
  :func:`parse_value`);
* the options reference ``docs/OPTIONS.md`` (:func:`render_markdown`;
  ``python docs/options_md.py`` writes it, and a test checks that it is up to date).

:data:`FIELDS` are the options stored in a rule set. The names the rulebook gives where the
engine stores the rule under another name (``num_jokers``, ``blocked_winner``, ``level`` …) are
options too, with ``sets``: they set one or more fields (:func:`expand`). Options the rulings
describe but the engine does not play yet accept only their default (``only``), and say so.

Booleans are only ``True``/``False`` from Python (``chain="no"`` is refused), and from text
``true/false/yes/no/on/off/1/0``. Whole numbers are real ``int`` values (not ``bool``, not
``float``) within bounds that make sense. Every refusal is a :class:`RulesError` (a
``ValueError``) whose message names the option and its allowed values, and quotes at most
~80 characters of the value given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import ASCII_SPACE, RANKS, Card, CardError, ascii_upper
from .errors import CrazylabError, quote
from .pitch import PITCH_MAPS

__all__ = ["FIELDS", "LEVELS", "OPTIONS", "Option", "RulesError", "canonical", "check", "expand",
           "parse_option", "parse_value", "suggest"]

Kind = Literal["bool", "int", "optional_int", "choice", "ints", "int_map", "effect_map"]
#: a rulings name that sets fields: ``sets(value, current field values) -> {field: value}``
Setter = Callable[[Any, Mapping[str, object]], dict[str, object]]

#: the most cards a deck can hold (two decks with four jokers): the bound of card counts
MAX_DECK = 108
_RANK_KEYS = {"A": 1, "J": 11, "Q": 12, "K": 13}

#: the effects an ``action_cards`` entry may give (V12); ``drawN`` is any of draw1 … draw10
ACTION_EFFECTS = ("skip", "reverse", "draw2", "wild")
#: the text form of ``action_cards``, as the options reference shows it
ACTION_CARDS_TEXT = "2=draw2,A=skip,Q=reverse,J=wild,QS=draw5"
_SHORT = "a map of ranks or cards to effects"
_DRAW_N = re.compile(r"draw(10|[1-9])")
_RANK_TEXT = {**{r: r for r in RANKS}, "T": "10", "1": "A", "11": "J", "12": "Q", "13": "K"}


class RulesError(CrazylabError):
    """An unknown preset or an option value that makes no sense."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Option:
    """One rule-set option: how it is typed, checked, parsed from text and documented."""

    name: str
    kind: Kind
    #: the field's default (``None`` for a rulings name that only sets other options)
    default: object
    doc: str
    rulings: tuple[str, ...] = ()
    #: for ``choice``: the allowed values (as documented)
    choices: tuple[str, ...] = ()
    #: for ``choice``: other spellings of a value (``{"classic": "winner_collects"}``)
    value_aliases: Mapping[str, str] = field(default_factory=dict)
    #: for ``choice``: where more allowed values come from at run time (pitch maps)
    more_choices: Callable[[], Iterable[str]] | None = None
    #: bounds of an ``int``/``optional_int`` value, or of each item of ``ints``/``int_map``
    low: int | None = None
    high: int | None = None
    #: ``ints`` items that are never allowed (the 8s of ``removed_ranks``)
    exclude: tuple[int, ...] = ()
    #: for ``int_map``: bounds of the keys, and names a key may be written as
    key_low: int = 0
    key_high: int = 0
    key_names: Mapping[str, int] = field(default_factory=dict)
    #: the values the engine plays so far, when the rulings allow more (``None``: all)
    only: tuple[object, ...] | None = None
    #: for a rulings name stored under other fields: what it sets
    sets: Setter | None = None
    sets_doc: str = ""

    @property
    def is_field(self) -> bool:
        """Whether a rule set stores this option (else it sets other options)."""
        return self.sets is None

    # -- what is allowed -----------------------------------------------------------------------

    def allowed_choices(self) -> tuple[str, ...]:
        """Every value a ``choice`` option accepts now (pitch maps can be registered)."""
        if self.more_choices is None:
            return self.choices
        extra = [c for c in self.more_choices() if c not in self.choices]
        return self.choices + tuple(extra)

    def _range_text(self) -> str:
        return f"from {self.low} to {self.high}"

    def allowed(self, live: bool = True) -> str:
        """What this option accepts, in words (``live=False``: the documented choices)."""
        if live is not True and live is not False:
            raise RulesError(f"live must be True or False, not {quote(live)}")
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number {self._range_text()}"
        if self.kind == "optional_int":
            return f"None or a whole number {self._range_text()}"
        if self.kind == "choice":
            return "one of " + ", ".join(self.allowed_choices() if live else self.choices)
        if self.kind == "effect_map":
            return ("a map of ranks (A, 2-10, J, Q, K) or cards (QS, JK) to effects (skip, "
                    "reverse, draw2 (stackable), draw1-draw10, wild; join two with +), "
                    f"written {ACTION_CARDS_TEXT}")
        if self.kind == "int_map":
            return (f"a mapping of {self.key_low}-{self.key_high} to whole numbers "
                    f"{self._range_text()}, like {{{self.key_low}: {self.high}}}")
        but = f" other than {', '.join(map(str, self.exclude))}" if self.exclude else ""
        return f"a list of different whole numbers {self._range_text()}{but}"

    def refuse(self, value: object, what: str | None = None) -> RulesError:
        """The error for a ``value`` this option does not take."""
        return RulesError(f"{self.name} must be {what or self.allowed()} (got {quote(value)})")

    # -- checking a Python value ------------------------------------------------------------------

    def _in_bounds(self, n: object) -> bool:
        return (isinstance(n, int) and not isinstance(n, bool)
                and self.low is not None and self.high is not None and self.low <= n <= self.high)

    def check(self, value: object) -> object:
        """``value`` if this option accepts it, in its stored form (lists become tuples, a
        value's other spelling its own), else :class:`RulesError`."""
        checked = self._check_type(value)
        if self.only is not None and checked not in self.only:
            now = " or ".join(_text(v) for v in self.only)
            raise RulesError(
                f"{self.name}={quote(value)} is ruled (rulebook {', '.join(self.rulings)}) "
                f"but the engine does not play it yet; {self.name} can only be {now} for now")
        return checked

    def _check_type(self, value: object) -> object:
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
        elif kind == "int" or kind == "optional_int":
            if value is None and kind == "optional_int":
                return None
            if self._in_bounds(value):
                return value
        elif kind == "choice":
            if isinstance(value, str):
                if value in self.value_aliases:
                    return self.value_aliases[value]
                if value in self.allowed_choices():
                    return value
        elif kind == "int_map":
            return self._check_map(value)
        elif kind == "effect_map":
            return self._check_effects(value)
        elif isinstance(value, (tuple, list)):
            items = tuple(value)
            if all(self._in_bounds(i) and i not in self.exclude for i in items) \
                    and len(set(items)) == len(items):
                return items
        raise self.refuse(value)

    def _key(self, key: object) -> int | None:
        if isinstance(key, str):
            k = ascii_upper(key.strip(ASCII_SPACE))
            key = self.key_names.get(k, int(k) if re.fullmatch(r"[0-9]{1,3}", k) else None)
        if _is_int(key) and self.key_low <= key <= self.key_high:  # type: ignore[operator]
            return key  # type: ignore[return-value]
        return None

    def _pairs(self, value: object) -> list[tuple[Any, Any]]:
        """A map's ``(key, value)`` pairs, given as a mapping or a list of pairs."""
        if isinstance(value, Mapping):
            return list(value.items())
        if not isinstance(value, (tuple, list)):
            raise self.refuse(value)
        if not all(isinstance(p, (tuple, list)) and len(p) == 2 for p in value):
            raise self.refuse(value)
        return [(p[0], p[1]) for p in value]

    def _check_map(self, value: object) -> tuple[tuple[int, int], ...]:
        out: dict[int, int] = {}
        for pair in self._pairs(value):
            key = self._key(pair[0])
            if key is None or key in out or not self._in_bounds(pair[1]):
                raise self.refuse(value)
            out[key] = pair[1]
        return tuple(sorted(out.items()))

    def _check_effects(self, value: object) -> tuple[tuple[str, str], ...]:
        """``action_cards`` (V12) as sorted ``(key, effects)`` pairs: a key is a rank
        (``"2"``, ``"A"``) or a card (``"QS"``, ``"JK"``), effects are ``+``-joined names."""
        if isinstance(value, str):  # the text form, 2=draw2,A=skip
            return self.parse(value)  # type: ignore[return-value]
        out: dict[str, str] = {}
        for pair in self._pairs(value):
            key = action_key(pair[0])
            if key is None:
                raise self.refuse(value, f"{_SHORT}: {quote(pair[0], 20)} is not a rank "
                                  "(A, 2-10, J, Q, K) or a card (QS, JK)")
            if key in out:
                raise self.refuse(value, f"{_SHORT}: {key} is given twice")
            out[key] = _effects(self, pair[1], key, value)
        return tuple(sorted(out.items(), key=lambda kv: action_order(kv[0])))

    # -- parsing text (the CLI) -------------------------------------------------------------------

    def parse(self, text: str) -> object:
        """The value that ``text`` (as typed after ``KEY=``) stands for, checked."""
        if not isinstance(text, str):
            raise self.refuse(text, f"written as text ({self.allowed()})")
        t = text.strip()
        low = t.lower()
        kind = self.kind
        if kind == "bool":
            if low in _TRUE:
                return self.check(True)
            if low in _FALSE:
                return self.check(False)
            raise self.refuse(text, "true or false (also yes/no, on/off, 1/0)")
        if kind == "int" or kind == "optional_int":
            if kind == "optional_int" and low in _NONE:
                return self.check(None)
            return self.check(_parse_int(t, self, text))
        if kind == "choice":
            allowed = (*self.allowed_choices(), *self.value_aliases)
            if t in allowed:
                return self.check(t)
            folded = [c for c in allowed if c.lower() == low]
            if len(folded) == 1:
                return self.check(folded[0])
            raise self.refuse(text)
        if low in _NONE or t == "":
            return self.check(())
        if kind == "effect_map":
            parts = [re.split(r"[=:]", part, maxsplit=1) for part in t.split(",")]
            if len(t) > 2000 or any(len(p) != 2 for p in parts):
                raise self.refuse(text)
            try:
                return self.check([(k.strip(), v.strip()) for k, v in parts])
            except RulesError as e:  # quote the text as typed, not the pairs made of it
                raise RulesError(f"{str(e).rsplit(' (got ', 1)[0]} (got {quote(text)})") \
                    from None
        if kind == "int_map":
            pairs = [part.partition(":") for part in t.split(",")]
            if any(not sep for _, sep, _ in pairs):
                raise self.refuse(text, self.allowed() + ", written 2:7,3:5")
            return self.check([(k, _parse_int(v.strip(), self, text)) for k, _, v in pairs])
        return self.check(tuple(_parse_int(part.strip(), self, text) for part in t.split(",")))


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})
_NONE = frozenset({"none", "null"})
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,18}")  # ASCII digits only ('²'.isdigit() is True)


def _parse_int(t: str, option: Option, whole: str) -> int:
    if not _INT_TEXT.fullmatch(t):
        raise option.refuse(whole)
    return int(t)


def action_key(key: object) -> str | None:
    """An ``action_cards`` key in canonical form: a rank (``"2"``, ``"A"``, ``"10"``; from
    Python also 1-13) or a card (``"QS"``, ``"JK"``), else ``None``."""
    if _is_int(key) and 1 <= key <= 13:  # type: ignore[operator]
        return RANKS[key - 1]  # type: ignore[operator]
    if not isinstance(key, str) or len(key) > 20:
        return None
    k = ascii_upper(key.strip(ASCII_SPACE))
    if k in _RANK_TEXT:
        return _RANK_TEXT[k]
    try:
        return str(Card.parse(k))
    except CardError:
        return None


def action_order(key: str) -> tuple[int, int]:
    """Ranks first (A … K), then cards in card order."""
    if key in RANKS:
        return (0, RANKS.index(key))
    return (1, int(Card.parse(key)))


def _effects(option: Option, effects: object, key: str, whole: object) -> str:
    """One key's effects (``"draw2"``, ``"wild+skip"``, or a list of names), canonical."""
    names = effects.split("+") if isinstance(effects, str) else effects
    if not isinstance(names, (list, tuple)) or not names:
        raise option.refuse(whole)
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise option.refuse(whole)
        n = name.strip().lower()
        if n not in ACTION_EFFECTS and not _DRAW_N.fullmatch(n):
            raise option.refuse(whole, f"{_SHORT}: {quote(name, 20)} (for {key}) is not an "
                                "effect (skip, reverse, draw2, draw1-draw10, wild)")
        if n in out or (n.startswith("draw") and any(o.startswith("draw") for o in out)):
            raise option.refuse(whole, f"{_SHORT}: {key} repeats an effect or has two "
                                "draws")
        out.append(n)
    return "+".join(out)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _opt(name: str, kind: Kind, default: object, doc: str, rulings: str = "",
         **more: Any) -> Option:
    return Option(name, kind, default, doc, tuple(rulings.split()), **more)


def _pitch_maps() -> Iterable[str]:
    return PITCH_MAPS.keys()


_BOOL: Kind = "bool"
_INT: Kind = "int"
_CHOICE: Kind = "choice"
_MAP: Kind = "int_map"

#: The options a rule set stores, in the order of :class:`~crazylab.RuleSet`'s fields.
#: ``default`` is the field's default; the presets change some (``docs/OPTIONS.md`` lists them).
FIELDS: dict[str, Option] = {o.name: o for o in (
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
    _opt("hand_size_by_players", _MAP, (),
         "Cards dealt by player count, over hand_size and hand_size_2p: {2: 7, 3: 5}.",
         "SR-Q15 AP-3 V1", low=1, high=26, key_low=2, key_high=10),
    _opt("jokers", _INT, 0, "Jokers added to the deck(s), at most two per deck.",
         "SR-2 MU-Q2 BR-Q1", low=0, high=4),
    _opt("decks", _INT, 1, "52-card packs shuffled together (two for big tables).", "V19",
         low=1, high=2),
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
    _opt("allow_unison_in_levels", _BOOL, False,
         "In the music levels a card of the pile's own pitch (or letter) is playable too.",
         "MU-Q22 MU-29 A8"),
    _opt("pitch_map", _CHOICE, "A_based",
         "The rank → pitch table of the musical deck (more with register_pitch_map).",
         "MU-Q1 MU-D3", choices=("A_based", "C_based"), more_choices=_pitch_maps),
    _opt("eights", _CHOICE, "call",
         "An eight names a suit (or pitch), or takes its own printed suit.",
         "SR-12 MU-12 MU-Q30", choices=("call", "own_suit")),
    _opt("starter_eight", _CHOICE, "rebury",
         "A starter eight is buried, kept, the dealer's play, named by the first player, or "
         "announced by the dealer.",
         "SR-7 AP-Q1 MU-Q4 BR-Q5 A13 A9", choices=("rebury", "keep", "dealer_declares",
                                                  "first_player_declares",
                                                  "dealer_announces"),
         value_aliases={"keep_printed_suit": "keep"}),
    _opt("starter_joker", _CHOICE, "rebury",
         "A starter joker is buried in the stock, counts as the dealer's play, or stays with "
         "a call the dealer announces.", "MU-Q3 BR-Q6 A9",
         choices=("rebury", "apply", "dealer_announces")),
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
    _opt("jump_in", _BOOL, False,
         "After a play, another player holding a card identical to the top may play it out of "
         "turn.", "V14"),
    _opt("last_card_call", _BOOL, False,
         "A play leaving one card must carry the call (6C!), else last_card_penalty cards.",
         "V11 A14 SR-24 AP-18"),
    _opt("last_card_penalty", _INT, 2, "Cards drawn for a missing last-card call.", "V11 A14",
         low=0, high=10),
    _opt("forbid_final_wild", _BOOL, False, "An eight or joker may not be the last card.",
         "V16 A15 SR-21"),
    _opt("forbid_final_action", _BOOL, False,
         "An action card (2, A, J as counter, Q, K, joker) may not be the last card.",
         "V16 A15"),
    _opt("action_cards", "effect_map", (),
         f"Ranks or cards with an effect: skip, reverse, draw2 (stackable), drawN, wild "
         f"({ACTION_CARDS_TEXT}).", "V12"),
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
    _opt("extra_hits_cost_turns", _BOOL, False,
         "Each hit beyond the first on one victim costs one more lost turn.", "BR-Q12 BR-M3 A1"),
    _opt("mid_draw_counter", _CHOICE, "first_card",
         "A Jack drawn while taking a penalty counters: the first card only, any card, or "
         "never.", "BR-Q21 BR-26", choices=("first_card", "any_card", "off")),
    _opt("mid_draw_applies_to", _CHOICE, "all_draws",
         "The mid-draw counter answers every draw penalty, or only the 2s'.", "BR-Q21 BR-26 A4",
         choices=("all_draws", "twos_only")),
    _opt("counter_stack", _BOOL, True, "A counter may be several Jacks.", "BR-Q19"),
    _opt("jack_counters_joker", _BOOL, True, "A Jack counters a joker's draw too.", "BR-Q14"),
    _opt("draw_passing", _BOOL, False,
         "A draw victim may pass the draw on with a card of the hitting rank.", "BR-Q23 A5 V15"),
    _opt("flip_again_on_any_special", _BOOL, False,
         "A King's deck play flips again after any special card, not only a King.", "BR-Q10 A2"),
    _opt("queen_drop_count", _INT, 1, "Cards a Queen lets its player drop, one at a time.",
         "BR-Q30 A3", low=1, high=4),
    _opt("starter_queen_drop", _BOOL, True, "A Queen starter lets the dealer drop a card.",
         "BR-Q7"),
    _opt("joker_only_if_no_suit", _BOOL, False,
         "A joker is legal only for a player holding no card of the active suit.", "BR-Q42 A6"),
    # -- the stock
    _opt("reshuffle", _CHOICE, "never",
         "When the stock is empty the discards (but the top cards) are reshuffled: never, up "
         "to max_reshuffles times a hand, or always.", "SR-19 AP-12 MU-16 BR-Q39",
         choices=("never", "limited", "unlimited")),
    _opt("max_reshuffles", _INT, 3, "Reshuffles a hand allows with reshuffle='limited'.",
         "AP-12 AP-Q9", low=0, high=100),
    _opt("reshuffle_timing", _CHOICE, "lazy",
         "Reshuffle when a draw needs a card, or as soon as the stock is emptied.",
         "AP-Q6 MU-Q11 C-9 A12", choices=("lazy", "eager")),
    # -- scoring and the end
    _opt("scoring", _CHOICE, "winner_collects",
         "The winner collects the cards left in the other hands, each left card is -1, or "
         "no points.", "SR-22 MU-19 MU-Q17 BR-Q41",
         choices=("winner_collects", "minus_one_per_card", "none"),
         value_aliases={"classic": "winner_collects"}),
    _opt("card_values", _MAP, (),
         "Points of a card left in a hand by rank, over the classic values: {8: 20}.",
         "C-16 SR-22 AP-15 V17", low=0, high=100, key_low=1, key_high=13, key_names=_RANK_KEYS),
    _opt("joker_points", _INT, 50, "What a joker left in a hand scores.", "C-16 BR-Q41",
         low=0, high=100),
    _opt("blocked_rule", _CHOICE, "void_redeal",
         "A blocked hand is void and redealt, won by the fewest points, or by the fewest "
         "cards (ties shared).", "SR-20 AP-17 MU-20 BR-Q40",
         choices=("void_redeal", "lowest_points_wins", "fewest_cards"),
         value_aliases={"fewest_cards_shared": "fewest_cards"}),
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
    _opt("games_in_match", "optional_int", None,
         "Games a match lasts; the highest total then wins (equal highest share it).",
         "MU-Q17 A11", low=1, high=100),
)}


#: The music levels (rulings §4.3): what ``level`` sets. Level 0 is the main game.
LEVELS: dict[int, dict[str, object]] = {
    0: dict(matching="suit_pitch", intervals=(), piles=1, removed_ranks=(), eights="own_suit",
            starter_eight="keep"),
    1: dict(matching="letter_step", intervals=(), piles=1, removed_ranks=(9, 10, 11, 12, 13),
            eights="call", starter_eight="rebury"),
    2: dict(matching="interval", intervals=(1, 11), piles=2, removed_ranks=(), eights="call",
            starter_eight="rebury"),
    3: dict(matching="interval", intervals=(3, 4, 8, 9), piles=1, removed_ranks=(),
            eights="call", starter_eight="rebury"),
    4: dict(matching="interval", intervals=(2,), piles=4, removed_ranks=(), eights="call",
            starter_eight="rebury"),
    5: dict(matching="interval", intervals=(5, 7), piles=1, removed_ranks=(), eights="call",
            starter_eight="rebury"),
}


def _one(target: str, mapping: Mapping[object, object] | None = None) -> Setter:
    """A setter writing the value (or ``mapping[value]``) to one field."""
    def sets(value: object, _current: Mapping[str, object]) -> dict[str, object]:
        return {target: mapping[value] if mapping is not None else value}
    return sets


def _nothing(_value: object, _current: Mapping[str, object]) -> dict[str, object]:
    return {}


def _multi_card_play(value: str, _current: Mapping[str, object]) -> dict[str, object]:
    return {"stacking": value == "same_rank", "chain": value == "chain"}


def _scoring_enabled(value: bool, current: Mapping[str, object]) -> dict[str, object]:
    if not value:
        return {"scoring": "none", "match_target": None}
    return {"scoring": current["scoring"] if current["scoring"] != "none" else "winner_collects"}


def _main_eight_declares(value: bool, current: Mapping[str, object]) -> dict[str, object]:
    if current["matching"] not in ("suit_rank", "suit_pitch"):
        return {}  # the levels always announce a pitch (MU-24)
    return {"eights": "call" if value else "own_suit"}


def _fixed_draw(value: int, _current: Mapping[str, object]) -> dict[str, object]:
    return {"draw_rule": "fixed", "draw_limit": value}


def _level(value: int, _current: Mapping[str, object]) -> dict[str, object]:
    return dict(LEVELS[value])


#: The names the rulebook gives to rules the engine stores under other fields.
NAMES: dict[str, Option] = {o.name: o for o in (
    _opt("num_jokers", _INT, None, "The rulings' name of jokers.", "BR-Q1 MU-Q2",
         low=0, high=4, sets=_one("jokers"), sets_doc="`jokers`"),
    _opt("allowed_intervals", "ints", None, "The rulings' name of intervals.", "MU-26 MU-28",
         low=1, high=11, sets=_one("intervals"), sets_doc="`intervals`"),
    _opt("level", _INT, None, "A music level's matching, piles and deck (0: the main game).",
         "MU-21 MU-22 MU-26", low=0, high=5, sets=_level,
         sets_doc="`matching`, `intervals`, `piles`, `removed_ranks`, `eights`, "
                  "`starter_eight` as the crazy-8s-level-N preset"),
    _opt("level1_announce", _CHOICE, None, "What a wild announces in Level 1: a letter A-G.",
         "MU-Q21 MU-25", choices=("letters",), sets=_nothing, sets_doc="nothing (fixed)"),
    _opt("seed_eight_main", _CHOICE, None, "A main-game seed eight is kept or buried.",
         "MU-Q4", choices=("keep", "rebury"), sets=_one("starter_eight"),
         sets_doc="`starter_eight`"),
    _opt("seed_joker", _CHOICE, None, "A joker seed is buried, or the dealer announces it.",
         "MU-Q3 A9", choices=("rebury", "dealer_announces"),
         sets=_one("starter_joker"), sets_doc="`starter_joker`"),
    _opt("seed_wild_levels", _CHOICE, None,
         "A level's eight or joker seed is buried, or the dealer announces it.", "MU-Q34 A9",
         choices=("rebury", "dealer_announces"),
         sets=lambda v, _c: {"starter_eight": v, "starter_joker": v},
         sets_doc="`starter_eight` and `starter_joker`"),
    _opt("main_eight_declares", _BOOL, None,
         "In the music main game an eight names a suit (else it takes its own).", "MU-Q30",
         sets=_main_eight_declares,
         sets_doc="`eights`: `call` / `own_suit` (nothing on the levels)"),
    _opt("no_play_draw", _INT, None, "Cards drawn at once by a turn that plays nothing.",
         "MU-7", low=1, high=MAX_DECK, sets=_fixed_draw,
         sets_doc="`draw_rule`=`fixed`, `draw_limit`"),
    _opt("fixed_draw", _INT, None, "The variant catalogue's name of no_play_draw.", "V5 MU-7",
         low=1, high=MAX_DECK, sets=_fixed_draw, sets_doc="`draw_rule`=`fixed`, `draw_limit`"),
    _opt("multi_card_play", _CHOICE, None,
         "One card a play, same-rank stacks, or chains of single cards.", "V13 BR-12 MU-6",
         choices=("none", "same_rank", "chain"), sets=_multi_card_play,
         sets_doc="`stacking`, `chain`"),
    _opt("must_play", _BOOL, None, "A player holding a legal card must play it.",
         "BR-9 BR-Q38 A16", sets=lambda v, _c: {"voluntary_draw": not v},
         sets_doc="`voluntary_draw` = not must_play"),
    _opt("starter_wild_declarer", _CHOICE, None,
         "Who names the suit of a Breens starter eight or joker: the dealer, the first "
         "player, or the printed suit.",
         "BR-Q5 A7", choices=("dealer", "first_player", "printed_suit"),
         sets=_one("starter_eight", {"dealer": "dealer_declares", "printed_suit": "keep",
                                     "first_player": "first_player_declares"}),
         sets_doc="`starter_eight`: `dealer_declares` / `first_player_declares` / `keep`"),
    _opt("blocked_winner", _CHOICE, None, "Who wins a blocked Breens round.", "BR-Q40",
         choices=("fewest_cards", "fewest_points"),
         sets=_one("blocked_rule", {"fewest_cards": "fewest_cards",
                                    "fewest_points": "lowest_points_wins"}),
         sets_doc="`blocked_rule`: `fewest_cards` / `lowest_points_wins`"),
    _opt("scoring_enabled", _BOOL, None, "Hands score points (off: every hand stands alone).",
         "AP-Q13 AP-15", sets=_scoring_enabled,
         sets_doc="`scoring` (off: `none` and `match_target`=None)"),
    _opt("direction", _CHOICE, None, "Play goes clockwise (the only direction ruled).", "C-1 V20",
         choices=("clockwise",), sets=_nothing, sets_doc="nothing (fixed)"),
)}

#: every option: the fields, then the rulings' names that set fields
OPTIONS: dict[str, Option] = {**FIELDS, **NAMES}


def canonical(name: object) -> str:
    """``name`` if it is an option; else RulesError naming close matches."""
    if isinstance(name, str) and name in OPTIONS:
        return name
    raise RulesError(f"unknown option {quote(name)}{suggest(name)}; options are: "
                     f"{', '.join(OPTIONS)}")


def suggest(name: object) -> str:
    """`` (did you mean …?)`` naming the options closest to ``name``, or ``""``."""
    if not isinstance(name, str) or len(name) > 100:
        return ""
    import difflib  # only for the "did you mean" of a refusal: not paid by every import

    close = difflib.get_close_matches(name, list(OPTIONS), n=3)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def check(name: str, value: object) -> object:
    """``value`` checked as option ``name``; lists become tuples."""
    return OPTIONS[canonical(name)].check(value)


def expand(given: Mapping[str, object], current: Mapping[str, object]) -> dict[str, object]:
    """The fields that the options ``given`` set, for a rule set whose fields are
    ``current``. Field options pass through unchecked (the rule set checks them); a rulings
    name is checked and expanded. Two names that set one field differently are refused."""
    if not isinstance(given, Mapping) or not isinstance(current, Mapping):
        raise RulesError(f"options are given as a mapping of names to values, like "
                         f"{{'draw_limit': 2}}, not {quote(given)}")
    unknown = [quote(k) for k in given if not (isinstance(k, str) and k in OPTIONS)]
    if unknown:
        key = next(k for k in given if not (isinstance(k, str) and k in OPTIONS))
        hint = suggest(key) if len(unknown) == 1 else ""
        raise RulesError(f"unknown option(s) {', '.join(sorted(unknown))}{hint}; options are: "
                         f"{', '.join(OPTIONS)}")
    out = {k: v for k, v in given.items() if OPTIONS[k].is_field}
    by: dict[str, str] = {k: k for k in out}
    view = {**current, **out}
    for name, value in given.items():
        option = OPTIONS[name]
        if option.sets is None:
            continue
        for target, v in option.sets(option.check(value), view).items():
            if target in out and out[target] != v:
                raise RulesError(f"{name}={quote(value)} sets {target}={quote(v)}, but "
                                 f"{by[target]} sets {target}={quote(out[target])}")
            out[target] = view[target] = v
            by[target] = name
    return out


def parse_value(name: str, text: str) -> object:
    """The value of option ``name`` written as ``text``: ``parse_value("chain", "no")`` is
    ``False``; ``parse_value("removed_ranks", "9,10")`` is ``(9, 10)``."""
    return OPTIONS[canonical(name)].parse(text)


def parse_option(text: str) -> tuple[str, object]:
    """``"KEY=VALUE"`` (the CLI's ``--option``) as ``(option name, value)``."""
    if not isinstance(text, str):
        raise RulesError(f"--option {quote(text)}: write KEY=VALUE as text, like draw_limit=2")
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
        if value and isinstance(value[0], tuple):
            return "`{" + ", ".join(f"{k}: {v}" for k, v in value) + "}`"
        return "`" + (",".join(map(str, value)) or "()") + "`"
    return f"`{value}`"


def _md_allowed(o: Option) -> str:
    if o.kind == "choice":
        text = ", ".join(f"`{c}`" for c in o.choices)
        text += "".join(f" (`{a}` = `{v}`)" for a, v in o.value_aliases.items())
        text += " (or a registered map)" if o.more_choices else ""
    elif o.kind == "bool":
        text = "`true`, `false`"
    elif o.kind == "ints":
        but = f", not {', '.join(map(str, o.exclude))}" if o.exclude else ""
        text = f"list of {o.low}–{o.high}{but}"
    elif o.kind == "int_map":
        text = f"{{{o.key_low}–{o.key_high}: {o.low}–{o.high}}}"
    elif o.kind == "effect_map":
        text = ("{rank or card: " + ", ".join(f"`{e}`" for e in ACTION_EFFECTS)
                + ", `draw1`–`draw10`}, joined with `+`; text `" + ACTION_CARDS_TEXT + "`")
    else:
        text = ("`None` or " if o.kind == "optional_int" else "") + f"{o.low}–{o.high}"
    if o.only is not None:
        text += " — so far only " + ", ".join(_md_value(v) for v in o.only)
    return text


_KIND_NAMES = {"optional_int": "int or None", "ints": "list of int", "choice": "str",
               "int_map": "map int→int", "effect_map": "map rank/card→effect"}


def render_markdown(presets: Mapping[str, Any]) -> str:
    """The options reference as markdown: the fields, the rulings' other names, then each
    preset's changes."""
    lines = [
        "# Rule-set options",
        "",
        "Generated from `crazylab/engine/options.py` by `python docs/options_md.py`; do not",
        "edit by hand. Give options in Python as `crazylab.rules(\"crazy-eights\", "
        "draw_limit=2)`,",
        "on the command line as `--option draw_limit=2` (booleans: true/false, yes/no, on/off,",
        "1/0; lists: `9,10,11`; maps: `2:7,3:5`; `none` for no value), or in a worked",
        "example's `\"options\"`. The ruling ids are those of crazylab's rulebook",
        "(`crazylab/rulebook/`, `notebooks/rulebook.ipynb`). Values",
        "marked \"so far only\" are ruled but not played by the engine yet, and are refused.",
        "",
        "| option | type | allowed | default | rulings | what it does |",
        "|---|---|---|---|---|---|",
    ]
    for o in FIELDS.values():
        default = ("`{}`" if o.kind in ("int_map", "effect_map") and not o.default
                   else _md_value(o.default))
        lines.append(f"| `{o.name}` | {_KIND_NAMES.get(o.kind, o.kind)} | {_md_allowed(o)} | "
                     f"{default} | {', '.join(o.rulings)} | {o.doc} |")
    lines += [
        "",
        "## The rulings' other names",
        "",
        "The rulebook names these rules; a rule set stores them in the options they set.",
        "",
        "| name | type | allowed | sets | rulings | what it does |",
        "|---|---|---|---|---|---|",
    ]
    for o in NAMES.values():
        lines.append(f"| `{o.name}` | {_KIND_NAMES.get(o.kind, o.kind)} | {_md_allowed(o)} | "
                     f"{o.sets_doc} | {', '.join(o.rulings)} | {o.doc} |")
    lines += ["", "## What each preset changes", ""]
    for pname, r in presets.items():
        changed = [f"`{o.name}`={_md_value(getattr(r, o.name))}" for o in FIELDS.values()
                   if getattr(r, o.name) != o.default]
        lines.append(f"* **{pname}**: {', '.join(changed) or 'nothing'}")
    return "\n".join(lines) + "\n"

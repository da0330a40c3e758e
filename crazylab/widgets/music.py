"""The interval explorer of the musical Crazy 8s: a piano keyboard showing the top card's key
and every key (so every card) that may be played on it at the chosen level, with the interval
named; click a key to see its cards, click a card to see why it fits or not.

* :class:`PianoKeyboard` is the keyboard alone (an anywidget, ``piano.js`` / ``piano.css``):
  Python computes every key's state and label; the browser only draws them and reports clicks.
* :class:`IntervalExplorer` puts a level chooser, a top-card (and announcement) chooser, the
  keyboard, the cards and the reasons together. It explores a free position, or follows a
  real game (:meth:`IntervalExplorer.show_game`, :meth:`IntervalExplorer.follow` a
  :class:`~crazylab.widgets.GameTable`), pile by pile.

A click on a key also sounds its note (a Web Audio oscillator in ``piano.js``: no samples,
no network), and the explorer offers the notes as a MIDI file and a WAV file to download,
written in pure Python by :mod:`crazylab.audio`: the keys clicked so far ("your tune"), or
before any click the top card's key followed by every key that fits it.

Everything a click does is also a method (``click_key``, ``click_card``, ``set``), so the
explorer is driven and tested from Python.

The explorer's markup is the fragments of ``music.html`` and its style ``music.css``, beside it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import traitlets as t

from crazylab.audio import MIDI_MIME, WAV_MIME, data_url, midi_file, tones, wav_file
from crazylab.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, Card, CardError, parse_suit, sort_key
from crazylab.engine.game import Game
from crazylab.engine.pitch import (
    LETTER_PITCH,
    LETTERS,
    PITCH_NAMES,
    STEP_NAMES,
    both_names,
    describe_interval,
    describe_intervals,
    describe_letter_step,
    is_black,
    midi_note,
    parse_letter,
    parse_pitch,
    pretty,
)
from crazylab.engine.rules import RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.errors import CrazylabError, quote
from crazylab.music import LEVELS, level_of

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet
from ._validate import WidgetArgumentError, interval_args

HERE = Path(__file__).parent
MUSIC_PRESETS = tuple(LEVELS)
MARKUP = Markup("music")
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


# -- the facts the keyboard shows ----------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """What one pile asks for: its top card and the call in force on it (a suit index in the
    main game, a letter index in Level 1, a pitch class in Levels 2-5)."""

    top: Card
    call: int | None = None

    def pitch(self, r: RuleSet) -> int | None:
        """The reference pitch class, or ``None`` (a main-game eight or joker)."""
        if r.call_kind == "suit":
            return None if r.is_wild(self.top) else r.pitches.pitch(self.top)
        if self.call is not None:
            return LETTER_PITCH[LETTERS[self.call]] if r.call_kind == "letter" else self.call
        return r.pitches.pitch(self.top)

    def key(self, r: RuleSet) -> int:
        """The index into ``r.accepts``."""
        return r.reference(self.top, self.call)

    def suit(self, r: RuleSet) -> int | None:
        if r.call_kind != "suit":
            return None
        return self.call if self.call is not None else self.top.suit

    def describe(self, r: RuleSet) -> str:
        """``3♦ (C)``, ``8♠ announcing F♯``, ``🃏 calling ♦``."""
        pc = self.pitch(r)
        if self.call is not None:
            said = (SUIT_SYMBOLS[self.call] if r.call_kind == "suit"
                    else LETTERS[self.call] if r.call_kind == "letter"
                    else pretty(PITCH_NAMES[self.call]))
            verb = "calling" if r.call_kind == "suit" else "announcing"
            return f"{self.top.display} {verb} {said}"
        if pc is None:
            suit = self.suit(r)
            return (f"{self.top.display} (no pitch; suit {SUIT_SYMBOLS[suit]})"
                    if suit is not None else self.top.display)
        return f"{self.top.display} ({pretty(r.pitches.spelling(self.top))})"


def deck_cards(r: RuleSet) -> list[Card]:
    """The distinct cards of the rule set's deck, in hand order."""
    return sorted(set(r.deck), key=sort_key)


def fits(r: RuleSet, card: Card, ref: Reference) -> bool:
    return card in r.accepts[ref.key(r)]


def fit_reason(r: RuleSet, card: Card, ref: Reference) -> str:
    """Why ``card`` fits ``ref`` (call only when it does), naming the interval."""
    name = card.display
    if card.is_joker:
        what = "a suit" if r.call_kind == "suit" else "a letter" if r.call_kind == "letter" \
            else "a pitch"
        return (f"{name} is wild: it fits anything; announce {what}, and the player to your "
                "left draws two (MU-13, MU-24).")
    assert card.suit is not None, "only a joker has no suit"
    if r.is_wild(card):
        if r.eights == "own_suit":
            return (f"{name} is wild: it fits anything and makes its own suit "
                    f"{SUIT_SYMBOLS[card.suit]} the one to follow (MU-12).")
        what = "a letter A-G" if r.call_kind == "letter" else "a pitch"
        return f"{name} is wild: it fits anything; announce {what} for the next card (MU-24)."
    sounds = pretty(r.pitches.spelling(card))
    if r.call_kind == "suit":
        suit = ref.suit(r)
        if suit is not None and card.suit == suit:
            return f"{name} ({sounds}) follows the suit {SUIT_SYMBOLS[suit]} (MU-5)."
        return (f"{name} ({sounds}) sounds the same pitch as {ref.describe(r)}: the same key "
                "on the piano, a unison (MU-5).")
    pc = ref.pitch(r)
    assert pc is not None, "a pitch or letter level's reference has a pitch"
    if r.call_kind == "letter":
        mine, theirs = r.pitches.letter(card), LETTERS.index(PITCH_NAMES[pc])
        assert mine is not None, "only a joker has no letter"
        return (f"{name} is {LETTERS[mine]}, {describe_letter_step(theirs, mine)} from "
                f"{LETTERS[theirs]} in the musical alphabet (MU-31).")
    played = r.pitches.pitch(card)
    assert played is not None, "only a joker has no pitch"
    return (f"{name} ({sounds}) is {describe_interval(played - pc)} from "
            f"{r.pitches.spell(pc, ref.top)}: this level accepts {describe_intervals(r.intervals)} "
            "(MU-26).")


def rule_text(r: RuleSet) -> str:
    """The level's matching rule in one phrase."""
    if r.call_kind == "suit":
        return "the same suit or the same pitch (an 8 or a joker always)"
    if r.call_kind == "letter":
        return "one letter step up or down in A B C D E F G (looping)"
    return describe_intervals(r.intervals)


def keyboard_keys(r: RuleSet, ref: Reference, *, below: int = 7, above: int = 7
                  ) -> list[dict[str, Any]]:
    """The keys around the reference (``below``/``above`` semitones, widened to white keys),
    each with its state: ``ref`` (the top card's key), ``ok`` (its cards may be played on it
    by pitch), ``no``, or ``absent`` (no such card in this deck, as in Level 1)."""
    pc = ref.pitch(r)
    centre = midi_note(pc if pc is not None else 0, 4)
    low, high = centre - (below if pc is not None else 0), centre + (above if pc is not None
                                                                      else 12)
    while is_black(low):
        low -= 1
    while is_black(high):
        high += 1
    in_deck = set(r.deck)
    suit = ref.suit(r)
    keys = []
    for midi in range(low, high + 1):
        kpc = midi % 12
        cards_here = [c for c in r.pitches.cards_of(kpc) if c in in_deck]
        by_pitch = [c for c in cards_here if c.suit != suit]  # suits aside (main game)
        distance = midi - centre
        if not cards_here:
            state = "absent"
        elif pc is not None and distance == 0:
            state = "ref"
        else:
            state = "ok" if any(fits(r, c, ref) for c in by_pitch) else "no"
        ok_here = state == "ok" or (state == "ref" and any(fits(r, c, ref) for c in by_pitch))
        keys.append({
            "midi": midi, "pc": kpc, "black": is_black(kpc), "name": both_names(kpc),
            "ranks": " ".join(sorted({RANK_TEXT[c.rank - 1] for c in cards_here},
                                     key=RANK_TEXT.index)),
            "state": state, "fits": ok_here,
            "step": "" if pc is None else _signed_label(distance),
            "interval": "" if pc is None else _interval_words(r, pc, kpc, distance),
        })
    return keys


def _signed_label(distance: int) -> str:
    if distance == 0:
        return "0"
    return f"+{distance}" if distance > 0 else f"−{-distance}"


def _interval_words(r: RuleSet, ref_pc: int, pc: int, distance: int) -> str:
    if r.call_kind == "letter" and not is_black(pc) and not is_black(ref_pc):
        mine, theirs = LETTERS.index(PITCH_NAMES[pc]), LETTERS.index(PITCH_NAMES[ref_pc])
        if distance == 0:
            return "the same letter"
        step = (mine - theirs) % 7 if distance > 0 else -((theirs - mine) % 7)
        if abs(step) <= 3:
            return describe_letter_step(theirs, mine)
        way = "up" if step > 0 else "down"
        return f"{('four', 'five', 'six')[abs(step) - 4]} letter steps {way}"
    if distance == 0:
        return "unison (the same pitch)"
    size = abs(distance)
    name = STEP_NAMES.get(size) or f"{size} semitones"
    return f"a {name} {'up' if distance > 0 else 'down'}"


# -- the keyboard widget -------------------------------------------------------------------


#: the most notes kept in "your tune"
TUNE_LENGTH = 16


class PianoKeyboard(anywidget.AnyWidget):
    """A piano keyboard: ``piano_keys`` (from :func:`keyboard_keys`) are drawn as they say;
    clicking one sounds it (when ``sound`` is on), sets ``selected`` to its MIDI number and
    adds it to ``played`` (the last :data:`TUNE_LENGTH` keys clicked)."""

    _esm = HERE / "piano.js"
    _css = HERE / "piano.css"

    piano_keys = t.List(t.Dict()).tag(sync=True)  # not `keys`: a Widget's synced names
    selected = t.Int(-1).tag(sync=True)
    caption = t.Unicode("").tag(sync=True)
    sound = t.Bool(True).tag(sync=True)
    played = t.List(t.Int())  # kept in the kernel: the browser reports each click

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._on_msg)

    def click(self, midi: int) -> None:
        """What a click on key ``midi`` does in the browser (but the sound)."""
        if midi not in [k["midi"] for k in self.piano_keys]:
            raise WidgetArgumentError(f"there is no key {quote(midi)} on this keyboard")
        self.selected = midi
        self.played = [*self.played, midi][-TUNE_LENGTH:]

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("event") == "play":
            midi = content.get("midi")
            if isinstance(midi, int) and midi in [k["midi"] for k in self.piano_keys]:
                self.played = [*self.played, midi][-TUNE_LENGTH:]


# -- the explorer --------------------------------------------------------------------------


class IntervalExplorer(ErrorReporting, w.VBox):
    """Choose a level and a top card; see which keys (and cards) may follow it, and why.

    >>> ex = IntervalExplorer("crazy-8s-level-3", top="3D")
    >>> sorted(ex.playable_names())
    ['A', 'A♭', 'E', 'E♭']
    """

    def __init__(self, rules: str | RuleSet = "crazy-8s-level-1", top: str | Card = "AS",
                 call: str | None = None) -> None:
        self.errors: list[str] = []
        self._rules = interval_args(rules, top, call)
        level_of(self._rules)  # refuse a rule set without pitches
        self.game: Game | None = None
        self.seat = 0
        self.refs: list[Reference] = []
        self.pile = 0
        self.hand: list[Card] = []
        self.reason = ""
        self.chosen: Card | None = None
        self._quiet = False
        style = {"description_width": "initial"}
        self.level_box = w.Dropdown(
            options=[(f"{lv.number}: {lv.difficulty}", name) for name, lv in LEVELS.items()],
            description="Level", style=style)
        self.top_box = w.Dropdown(description="Top card", style=style)
        self.call_box = w.Dropdown(description="Announced", style=style)
        self.pile_box = w.ToggleButtons(description="Pile", style=style)
        self.piano = PianoKeyboard()
        self.summary = w.HTML()
        self.cards_label = w.HTML()
        self.card_buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.why = w.HTML()
        self.downloads = w.HTML()
        self.clear_button = w.Button(description="Start a new tune",
                                     tooltip="Forget the keys clicked so far",
                                     layout=w.Layout(width="auto"))
        self.clear_button.on_click(lambda _b: self.clear_tune())
        self.error_area = ErrorArea()
        self.level_box.observe(self._on_level, "value")
        self.top_box.observe(self._on_top, "value")
        self.call_box.observe(self._on_call, "value")
        self.pile_box.observe(self._on_pile, "value")
        self.piano.observe(self._on_key, "selected")
        self.piano.observe(self._on_played, "played")
        super().__init__([
            style_sheet("music"),
            w.HBox([self.level_box, self.top_box, self.call_box],
                   layout=w.Layout(flex_flow="row wrap")),
            self.pile_box, self.summary, self.piano,
            w.HBox([self.downloads, self.clear_button], layout=w.Layout(
                flex_flow="row wrap", align_items="center", grid_gap="8px")),
            self.cards_label, self.card_buttons, self.why, self.error_area,
        ])
        self.add_class("crazylab-interval-explorer")
        try:
            self.set(rules=self._rules, top=top, call=call)
        except ValueError as e:  # a top card or a call these rules do not have
            if isinstance(e, CrazylabError):
                raise
            raise WidgetArgumentError(str(e)) from None

    # -- public API (what the controls do) --------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def ref(self) -> Reference:
        return self.refs[self.pile]

    @property
    def key_states(self) -> list[dict[str, Any]]:
        """The keyboard's keys, each with its state and labels (see :func:`keyboard_keys`)."""
        return list(self.piano.piano_keys)

    def playable_names(self) -> list[str]:
        """The keys (one per pitch class) whose cards fit the current pile by pitch."""
        seen: dict[int, str] = {}
        for k in self.key_states:
            if k["fits"]:
                seen.setdefault(k["pc"], k["name"].split("/")[-1] if k["black"] else k["name"])
        return list(seen.values())

    def set(self, *, rules: str | RuleSet | None = None, top: str | Card | None = None,
            call: str | None = None) -> None:
        """Explore a free position: a level, one top card, and the announcement on it."""
        if rules is not None:
            self._rules = get_rules(rules) if isinstance(rules, str) else rules
            level_of(self._rules)
        r = self._rules
        self.game = None
        top_card = Card.parse(top) if top is not None else (
            self.refs[0].top if self.refs else deck_cards(r)[0])
        if top_card not in set(r.deck):
            raise CardError(f"{top_card} is not in the {r.name} deck")
        value = self._call_value(top_card, call)
        self.refs = [Reference(top_card, value)]
        self.pile = 0
        self.hand = []
        self._sync_controls()
        self._refresh()

    def show_game(self, game: Game, seat: int | None = None) -> None:
        """Follow a real game: its piles (tops and calls) and ``seat``'s hand (default: the
        seat to play)."""
        level_of(game.rules)
        self._rules = game.rules
        self.game = game
        self.seat = game.to_play if seat is None else seat
        self.refs = [Reference(p[-1], c) for p, c in zip(game.piles, game.calls, strict=True)]
        self.pile = min(self.pile, len(self.refs) - 1)
        self.hand = sorted(game.hands[self.seat], key=sort_key)
        self._sync_controls()
        self._refresh()

    def follow(self, table: Any, seat: int = 0) -> None:
        """Keep showing ``table.game`` (a :class:`~crazylab.widgets.GameTable`) as it is
        played, from ``seat``'s side (the human's, 0)."""
        def update(_change: Any = None) -> None:
            try:
                self.show_game(table.game, seat)
            except Exception as exc:  # a table of another rule set, say
                self.report_error(exc, "follow")

        table.observe(update, names="view")
        update()

    def choose_pile(self, pile: int) -> None:
        if not 0 <= pile < len(self.refs):
            raise ValueError(f"there is no pile {pile}: the piles are 0 to {len(self.refs) - 1}")
        self.pile = pile
        self._sync_controls()
        self._refresh()

    def click_key(self, key: int | str) -> list[Card]:
        """Click a key (a MIDI number, or a pitch name such as ``"Eb"``): show its cards."""
        if isinstance(key, str):
            pc = parse_pitch(key)
            matches = [k["midi"] for k in self.key_states if k["pc"] == pc]
            if not matches:
                raise ValueError(f"{key} is not on this keyboard")
            key = min(matches, key=lambda m: abs(m - self._centre()))
        self.piano.click(int(key))
        return self.key_cards()

    # -- the tune: sound files of the notes ---------------------------------------------------

    def tune_keys(self) -> list[int]:
        """The MIDI keys of the tune to download: the keys clicked (oldest first), or before
        any click the top card's key and then each key that fits it, low to high."""
        if self.piano.played:
            return list(self.piano.played)
        keys = self.key_states
        ref = [k["midi"] for k in keys if k["state"] == "ref"]
        fit = [k["midi"] for k in keys if k["fits"] and k["state"] != "ref"]
        return ref + fit

    def tune_names(self) -> list[str]:
        return [both_names(k % 12).split("/")[0] for k in self.tune_keys()]

    def midi(self) -> bytes:
        """The tune as a standard MIDI file, at the level's tempo and instrument."""
        style = level_of(self._rules).style
        return midi_file(tones(self.tune_keys()), tempo=style.tempo, program=style.program,
                         title=f"crazylab: {self._tune_title()}")

    def wav(self, rate: int = 11025) -> bytes:
        """The tune as a WAV file (mono, 16 bits, ``rate`` samples a second)."""
        return wav_file(tones(self.tune_keys()), tempo=level_of(self._rules).style.tempo,
                        rate=rate)

    def clear_tune(self) -> None:
        """Forget the keys clicked: the downloads go back to the keys that fit."""
        self.piano.played = []

    def _tune_title(self) -> str:
        if self.piano.played:
            return "your tune"
        return f"{self.ref.describe(self._rules)} and the keys that fit"

    def _refresh_downloads(self) -> None:
        keys = self.tune_keys()
        self.clear_button.disabled = not self.piano.played
        if not keys:
            self.downloads.value = MARKUP("no_tune")
            return
        level = level_of(self._rules).number
        stem = f"crazylab-level-{level}-{'tune' if self.piano.played else 'fits'}"
        what = ("Your tune" if self.piano.played else
                "The top card's key and the keys that fit")
        self.downloads.value = MARKUP(
            "downloads", what=what, notes=" ".join(self.tune_names()), stem=stem,
            midi=data_url(self.midi(), MIDI_MIME), wav=data_url(self.wav(), WAV_MIME))

    def key_cards(self) -> list[Card]:
        """The cards of the selected key (in this deck)."""
        sel = self.piano.selected
        if sel < 0:
            return []
        in_deck = set(self._rules.deck)
        return [c for c in self._rules.pitches.cards_of(sel % 12) if c in in_deck]

    def click_card(self, card: str | Card) -> str:
        """Click a card: the reason it fits the current pile, or why not (``game.explain``)."""
        c = Card.parse(card)
        self.chosen = c
        self.reason = self.explain(c)
        fit = self.fits(c)
        self.why.value = MARKUP("why", verdict="fits" if fit else "misfit", card=c.display,
                                mark="✓ fits" if fit else "✗ does not fit", reason=self.reason)
        return self.reason

    def fits(self, card: str | Card) -> bool:
        return fits(self._rules, Card.parse(card), self.ref)

    def explain(self, card: str | Card) -> str:
        """Why ``card`` fits the current pile (the interval named), or the engine's reason it
        does not: from the real game when it is that seat's decision, else from a position
        built with the same piles."""
        c = Card.parse(card)
        r = self._rules
        if self.fits(c):
            return fit_reason(r, c, self.ref)
        move = f"{c}@{self.pile}" if r.piles > 1 else str(c)
        g = self.game
        if (g is not None and not g.over and g.to_play == self.seat
                and c in g.hands[self.seat]):
            return g.explain(move)
        return self._probe(c).explain(move)

    # -- internals ------------------------------------------------------------------------

    def _call_value(self, top: Card, call: str | None) -> int | None:
        r = self._rules
        if not r.calls_on_play(top):
            if call:
                raise ValueError(f"{top} calls nothing in {r.name}")
            return None
        if not call:  # a wild top needs a call: default to the first
            return 0
        if r.call_kind == "suit":
            return parse_suit(call)
        return parse_letter(call) if r.call_kind == "letter" else parse_pitch(call)

    def _probe(self, c: Card) -> Game:
        """A position where seat 0 holds ``c`` on the explorer's piles; a wild top with a
        call stands in as a card that sounds (or shows) what was called."""
        r = self._rules
        calls = {ref.call for ref in self.refs}
        if (len(self.refs) == r.piles and len(calls) == 1
                and c not in {ref.top for ref in self.refs}):  # the real tops
            call = calls.pop()
            kwargs: dict[str, Any] = {} if call is None else {
                "suit" if r.call_kind == "suit" else "pitch": r.format_call(call)}
            return Game.from_position(r, 2, hands=[[c], []], to_play=0,
                                      piles=[[ref.top] for ref in self.refs], **kwargs)
        used = {c}
        tops = []
        for ref in self.refs:
            top = ref.top
            if ref.call is not None or top in used:
                top = self._stand_in(r, ref, used)
            used.add(top)
            tops.append([top])
        # a free position explores one pile of a level with several (a level-4 rule set with
        # one pile is refused: its hands do not end): the other piles get plain tops of their
        # own, and the move names pile 0
        spare = (x for x in r.deck if x not in used and not r.is_wild(x))
        tops += [[next(spare)] for _ in range(r.piles - len(tops))]
        return Game.from_position(r, 2, hands=[[c], []], piles=tops, to_play=0)

    @staticmethod
    def _stand_in(r: RuleSet, ref: Reference, used: Collection[Card]) -> Card:
        """A card that asks for what ``ref`` asks for and is not in ``used``."""
        suit, pitch = ref.suit(r), ref.pitch(r)
        if r.call_kind == "suit":  # an eight of the called suit shows it, with no pitch
            assert suit is not None, "a suit level's reference has a suit"
            options = [Card(suit * 13 + 7)]
        else:
            assert pitch is not None, "a pitch or letter level's reference has a pitch"
            options = [x for x in r.pitches.cards_of(pitch) if x in set(r.deck)]
        return next(x for x in options if x not in used)

    def _centre(self) -> int:
        pc = self.ref.pitch(self._rules)
        return midi_note(pc if pc is not None else 0, 4)

    def _sync_controls(self) -> None:
        self._quiet = True
        try:
            r = self._rules
            self.level_box.value = r.name if r.name in LEVELS else MUSIC_PRESETS[0]
            ref = self.refs[self.pile]
            self.top_box.options = [(self._card_label(c), str(c)) for c in deck_cards(r)]
            self.top_box.value = str(ref.top)
            self.top_box.disabled = self.game is not None
            calls = [(r.format_call(v), v) for v in r.call_values] if r.calls_on_play(
                ref.top) else []
            self.call_box.options = calls or [("nothing", -1)]
            self.call_box.value = ref.call if ref.call is not None else -1
            self.call_box.disabled = self.game is not None or not calls
            self.call_box.layout.display = "" if calls else "none"
            self.pile_box.options = [(f"Pile {p + 1}", p) for p in range(len(self.refs))]
            self.pile_box.value = self.pile
            self.pile_box.layout.display = "" if len(self.refs) > 1 else "none"
        finally:
            self._quiet = False

    def _card_label(self, c: Card) -> str:
        r = self._rules
        if r.is_wild(c):
            return f"{c.display} (wild)"
        return f"{c.display} ({pretty(r.pitches.spelling(c))})"

    def _refresh(self) -> None:
        r = self._rules
        level = level_of(r)
        ref = self.ref
        keys = keyboard_keys(r, ref)
        self.piano.selected = -1
        self.piano.piano_keys = keys
        self.piano.caption = (f"Level {level.number}: {ref.describe(r)} — play "
                              f"{rule_text(r)}")
        ok = [k for k in keys if k["fits"]]
        names = []
        for k in ok:
            label = f"{k['name']} ({k['ranks']}): {k['interval']}"
            if label not in names:
                names.append(label)
        suit = ref.suit(r)
        extra = []
        if suit is not None:
            extra.append(f"every {SUIT_NAMES[suit][:-1]} {SUIT_SYMBOLS[suit]}")
        extra.append("every 8 and joker (wild)")
        piles = Html()
        if len(self.refs) > 1:
            piles = MARKUP("piles", piles=Html(" · ".join(
                MARKUP("pile_now" if p == self.pile else "pile", number=p + 1,
                       ref=x.describe(r)) for p, x in enumerate(self.refs))))
        if r.intervals == (2,):
            extra.append("never a whole tone down: Level 4 climbs, up only (MU-32)")
        if r.call_kind != "suit":
            extra.append("never the same pitch: a unison does not count in the levels (MU-29)")
        self.summary.value = MARKUP(
            "summary", title=level.title, promise=level.promise, piles=piles, rule=rule_text(r),
            ref=ref.describe(r), names="; ".join(names) or "no key by pitch",
            extra="; ".join(extra))
        self._show_cards()
        self._refresh_downloads()

    def _show_cards(self) -> None:
        if self.hand:
            shown, label = self.hand, f"Seat {self.seat}'s hand: click a card to see why"
        else:
            shown = self.key_cards()
            label = ("Click a key to see its cards" if not shown else
                     f"The cards of {both_names(self.piano.selected % 12)}: "
                     "click one to see why")
        self.cards_label.value = MARKUP("cards_label", label=label)
        buttons = []
        for c in shown:
            ok = self.fits(c)
            b = w.Button(description=c.display, tooltip=("fits" if ok else "does not fit"),
                         button_style="success" if ok else "",
                         layout=w.Layout(width="auto"))
            b.on_click(lambda _b, card=c: self._on_card(card))
            buttons.append(b)
        self.card_buttons.children = buttons

    # -- control callbacks -----------------------------------------------------------------

    @guarded
    def _on_level(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        r = get_rules(change["new"])
        top = self.refs[0].top if self.refs and self.refs[0].top in set(r.deck) else None
        self.set(rules=r, top=top if top is not None else deck_cards(r)[0])

    @guarded
    def _on_top(self, change: dict[str, Any]) -> None:
        if self._quiet or change["new"] is None:
            return
        self.set(top=change["new"])

    @guarded
    def _on_call(self, change: dict[str, Any]) -> None:
        if self._quiet or change["new"] in (None, -1):
            return
        ref = self.refs[self.pile]
        self.refs[self.pile] = Reference(ref.top, change["new"])
        self._refresh()

    @guarded
    def _on_pile(self, change: dict[str, Any]) -> None:
        if self._quiet or change["new"] is None:
            return
        self.choose_pile(change["new"])

    @guarded
    def _on_key(self, _change: Any = None) -> None:
        if not self.hand:
            self._show_cards()

    @guarded
    def _on_played(self, _change: Any = None) -> None:
        self._refresh_downloads()

    @guarded
    def _on_card(self, card: Card) -> None:
        self.click_card(card)


__all__ = ["IntervalExplorer", "PianoKeyboard", "Reference", "fit_reason", "keyboard_keys",
           "rule_text"]

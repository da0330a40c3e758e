"""The legal-move explorer: pick a rule set, the top card (and the call in force) and a hand,
and see every card of the hand with whether it is legal and the rule that decides it.

Its markup is the fragments of ``explorer.html`` and its style ``explorer.css``, beside it."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from crazylab.engine.cards import CardError, cards, sort_key
from crazylab.engine.game import Game, SetupError
from crazylab.engine.moves import PLAY
from crazylab.engine.reasons import verdicts
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.render import cards_html
from crazylab.seat.words import call_in_force

from ._common import (
    ErrorArea,
    ErrorReporting,
    build_or_default,
    guarded,
    query_params,
)
from ._markup import Html, Markup, style_sheet
from ._validate import explorer_args
from .picker import CardPicker

if TYPE_CHECKING:
    import pandas as pd


def position(rules: str | RuleSet, top: str, hand: str, call: str | None = None) -> Game:
    """A position for exploring: seat 0 holds ``hand`` and is to play on ``top`` (several
    tops, one per pile, separated by spaces), with ``call`` in force if the top is wild."""
    rs = get_rules(rules) if isinstance(rules, str) else rules
    tops = cards(top)
    if len(tops) != rs.piles:
        raise SetupError(f"{rs.name} has {rs.piles} discard pile(s): give {rs.piles} top "
                         f"card(s), not {len(tops)}")
    kwargs: dict[str, Any] = {}
    if call:
        kwargs["suit" if rs.call_kind == "suit" else "pitch"] = call
    return Game.from_position(rs, 2, hands=[cards(hand), []], piles=[[t] for t in tops],
                              to_play=0, **kwargs)


def legal_table(game: Game) -> pd.DataFrame:
    """One row per card of the hand to play: legal or not, its legal moves, and the rule that
    decides it."""
    import pandas as pd

    rows = [{"card": v.card.display, "legal": v.legal,
             "moves": " ".join(str(m) for m in v.moves), "rule": v.reason}
            for v in verdicts(game)]
    return pd.DataFrame(rows, columns=["card", "legal", "moves", "rule"]).set_index("card")


def whole_deck(rules: RuleSet, tops: str) -> str:
    """Every card of the deck except the top card(s), as hand text."""
    left = Counter(rules.deck) - Counter(cards(tops))
    return " ".join(str(c) for c in sorted(left.elements(), key=sort_key))


MARKUP = Markup("explorer")


class LegalMoveExplorer(ErrorReporting, w.VBox):
    """Try positions and see which cards are legal, and why."""

    def __init__(self, rules: str = "crazy-eights", top: str = "6H",
                 hand: str = "6C KH 8S 3D", call: str | None = None,
                 four_colour: bool = False) -> None:
        explorer_args(rules, top, hand, call, four_colour)
        self.errors: list[str] = []
        self._built: RuleSet | None = None  # a rule set with house rules (set_rules)
        self._setting = False
        self.four_colour = four_colour
        self.game: Game | None = None
        self.table: pd.DataFrame | None = None
        style = {"description_width": "initial"}
        self.rules_box = w.Dropdown(options=list(PRESETS), value=rules, description="Rule set",
                                    style=style)
        self.top_box = w.Text(value=top, description="Top card(s)", style=style,
                              continuous_update=False, placeholder="6H (one per pile)")
        self.call_box = w.Dropdown(description="Call in force", style=style)
        self.hand_box = w.Textarea(value=hand, description="Hand", style=style,
                                   continuous_update=False, placeholder="6C KH 8S 3D",
                                   layout=w.Layout(width="100%", max_width="640px"))
        self.deck_button = w.Button(description="Whole deck", tooltip="Put every other card "
                                    "of the deck in the hand")
        self.clear_button = w.Button(description="Clear hand", tooltip="Empty the hand")
        self.picker = CardPicker(get_rules(rules).deck,
                                 label="Click cards to add them to the hand or take them out")
        self.message = w.HTML()
        self.position_html = w.HTML()
        self.table_html = w.HTML()
        self.error_area = ErrorArea()
        self._set_calls(call)
        self.picker.on_pick(self._toggle)
        self.deck_button.on_click(self._on_deck)
        self.clear_button.on_click(self._on_clear)
        for box in (self.top_box, self.call_box, self.hand_box):
            box.observe(self._on_change, "value")
        self.rules_box.observe(self._on_rules, "value")
        super().__init__([
            style_sheet("explorer"),
            w.HBox([self.rules_box, self.top_box, self.call_box],
                   layout=w.Layout(flex_flow="row wrap")),
            self.hand_box, w.HBox([self.deck_button, self.clear_button]),
            self.message, self.position_html, self.table_html, self.picker, self.error_area,
        ])
        self.add_class("crazylab-explorer")
        self.update()

    @classmethod
    def from_query(cls, query: str | None = None, **defaults: Any) -> LegalMoveExplorer:
        """An explorer set up from ``?rules=…&top=…&hand=…&call=…`` (cards as ``6H``)."""
        q = query_params(query)
        kwargs: dict[str, Any] = {**defaults, **{k: q[k] for k in ("rules", "top", "hand", "call")
                                                 if k in q}}
        return build_or_default(cls, kwargs, defaults)

    @property
    def rules(self) -> RuleSet:
        if self._built is not None and self._built.name == self.rules_box.value:
            return self._built
        return get_rules(self.rules_box.value)

    @guarded
    def set_rules(self, rules: str | RuleSet) -> None:
        """Explore under ``rules``: a preset's name, or a rule set with house rules (a
        RuleBuilder's); picking a preset in the dropdown goes back to the plain preset."""
        built = get_rules(rules) if isinstance(rules, str) else rules
        self._built, self._setting = built, True
        try:
            same = self.rules_box.value == built.name
            self.rules_box.value = built.name  # a new name redraws through _on_rules
        finally:
            self._setting = False
        if same:
            self._on_rules()

    def _set_calls(self, value: str | None = None) -> None:
        r = self.rules
        options = [("none (the top card's own)", "")] + [
            (r.format_call(v), r.format_call(v)) for v in r.call_values]
        self.call_box.options = options
        self.call_box.value = value if value in [o[1] for o in options] else ""

    @guarded
    def _on_rules(self, change: Any = None) -> None:
        if change is not None and not self._setting:  # the dropdown: a plain preset
            self._built = None
        self.picker.set_deck(self.rules.deck)
        self._set_calls(None)
        self.update()

    @guarded
    def _on_change(self, _change: Any = None) -> None:
        self.update()

    @guarded
    def _on_deck(self, _button: Any = None) -> None:
        self.hand_box.value = whole_deck(self.rules, self.top_box.value)

    @guarded
    def _on_clear(self, _button: Any = None) -> None:
        self.hand_box.value = ""

    @guarded
    def _toggle(self, c: Any) -> None:
        hand = cards(self.hand_box.value)
        if c in hand:
            hand.remove(c)
        else:
            hand.append(c)
        self.hand_box.value = " ".join(str(x) for x in hand)

    def set(self, *, rules: str | None = None, top: str | None = None,
            hand: str | None = None, call: str | None = None) -> LegalMoveExplorer:
        """Change several inputs at once (from Python); returns the explorer."""
        with self.hold_trait_notifications():
            if rules is not None:
                self.rules_box.value = rules
            if top is not None:
                self.top_box.value = top
            if hand is not None:
                self.hand_box.value = hand
            if call is not None:
                self.call_box.value = call
        self.update()
        return self

    @guarded
    def update(self) -> None:
        """Rebuild the position and the table from the inputs."""
        self.clear_error()
        try:
            game = position(self.rules, self.top_box.value, self.hand_box.value,
                            self.call_box.value or None)
        except (SetupError, CardError, ValueError) as e:
            self.game, self.table = None, None
            self.message.value = MARKUP("refusal", reason=e)
            self.table_html.value = ""
            self.position_html.value = ""
            return
        self.game = game
        self.table = legal_table(game)
        self.picker.tags = {str(c): "in hand" for c in game.hands[0]}
        legal = [c for c, row in self.table.iterrows() if row["legal"]]
        self.message.value = MARKUP("count", legal=len(legal), total=len(self.table),
                                    cards=" ".join(legal) or "none")
        self.position_html.value = position_html(game, self.four_colour)
        self.table_html.value = table_html(self.table)


def position_html(game: Game, four_colour: bool = False) -> str:
    """The top card(s) with what they ask for, and the hand with its legal cards outlined."""
    r = game.rules
    piles = Markup.join(
        MARKUP("pile", label=f"Pile {p}" if r.piles > 1 else "Top card",
               top=Html(cards_html([pile[-1]], 56, four_colour)),
               call=call_in_force(r, game, p))
        for p, pile in enumerate(game.piles))
    legal = {m.cards[0] for m in game.legal_moves() if m.kind == PLAY}
    hand = sorted(game.hands[0], key=sort_key)
    return MARKUP("position", piles=piles, hand=Html(cards_html(hand, 44, four_colour, legal)))


def table_html(df: pd.DataFrame) -> str:
    """The explorer's table, with legal rows marked for the eye and for screen readers (its
    colours are ``explorer.css``'s, which the explorer carries)."""
    rows = Markup.join(
        MARKUP("row", verdict="legal" if row["legal"] else "illegal", card=card,
               mark="✔ legal" if row["legal"] else "✘ not legal", moves=row["moves"],
               rule=row["rule"])
        for card, row in df.iterrows())
    return MARKUP("table", rows=rows)


__all__ = ["LegalMoveExplorer", "legal_table", "position", "table_html", "whole_deck"]

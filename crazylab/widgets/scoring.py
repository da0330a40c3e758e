"""The scoring calculator: enter (or click) the cards left in each loser's hand and see each
card's points, each hand's total and what the winner scores under the rule set's scoring.

Each rule set is counted its own way (``rules.scoring``): the winner collects the cards' face
values (``rules.card_points``: eights 50), or every card left counts −1 (the musical rules),
or nothing is scored (Crazy Breens). The final scores come from the engine itself:
the calculator sets up the position, lets the winner play a last card, and reads
``game.scores``, so the working shown and the engine can never disagree silently.

Its markup is the fragments of ``scoring.html`` and its style ``scoring.css``, beside it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from crazylab.engine import scorecard
from crazylab.engine.cards import Card, CardError, cards
from crazylab.engine.game import SetupError
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.engine.scorecard import Scored, card_value, number_text, signed
from crazylab.errors import quote
from crazylab.render import cards_html

from ._common import ErrorArea, ErrorReporting, build_or_default, guarded, query_params
from ._markup import Html, Markup, style_sheet
from ._validate import WidgetArgumentError, rule_set, scoring_args, whole
from ._validate import cards as card_list
from .picker import CardPicker

SCORING_WORDS = {
    "winner_collects": "The winner collects the points of every card left in the other hands.",
    "minus_one_per_card": "Each player loses one point per card left in hand.",
    "none": "This rule set keeps no score: the round's winner simply wins.",
}

MARKUP = Markup("scoring")

#: the header of the working table's columns, by scoring
COLUMNS = {
    "winner_collects": ("cards left (points each)", "hand total"),
    "minus_one_per_card": ("cards left (−1 each)", "hand total"),
    "none": ("cards left (they count nothing)", "hand total"),
}


def score_hands(rules: str | RuleSet, hands: Sequence[Sequence[Card | str]], winner: int
                ) -> Scored:
    """Score a hand that ``winner`` went out of, with ``hands`` left in the other seats (the
    winner's entry is ignored): the arguments checked as every widget checks them, then
    :func:`crazylab.engine.scorecard.score_hands`."""
    rs = rule_set("rules", rules)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)):
        raise WidgetArgumentError(f"hands must be a list of hands (lists of cards), one per "
                                  f"seat, not {quote(hands)}")
    n = len(hands)
    if not rs.min_players <= n <= rs.max_players:
        raise SetupError(f"{rs.name} is for {rs.min_players}-{rs.max_players} players, not {n}")
    winner = whole("winner", winner, 0, n - 1)
    left = [card_list(f"hands[{s}]", h) if s != winner else [] for s, h in enumerate(hands)]
    return scorecard.score_hands(rs, left, winner)


class ScoreCalculator(ErrorReporting, w.VBox):
    """Type or click the cards left in each hand; see the points and the winner's score."""

    def __init__(self, rules: str = "crazy-eights", players: int = 3, winner: int = 0,
                 hands: dict[int, str] | None = None, four_colour: bool = False) -> None:
        scoring_args(rules, players, winner, hands, four_colour)
        self.errors: list[str] = []
        self.four_colour = four_colour
        self.result: Scored | None = None
        self._building = False
        hands = hands if hands is not None else {1: "8D 3C", 2: "QH AS"}
        style = {"description_width": "initial"}
        self.rules_box = w.Dropdown(options=list(PRESETS), value=rules, description="Rule set",
                                    style=style)
        self.players_box = w.BoundedIntText(value=players, min=2, max=6, description="Players",
                                            style=style, layout=w.Layout(width="140px"))
        self.winner_box = w.Dropdown(description="Went out", style=style)
        self.hand_boxes: list[w.Text] = []
        self.hands_area = w.VBox()
        self.target_box = w.ToggleButtons(description="Clicks go to", style=style)
        self.picker = CardPicker(label="Click a card to give it to the chosen seat "
                                       "(click again to take it back)")
        self.message = w.HTML()
        self.working_html = w.HTML()
        self.error_area = ErrorArea()
        self._hands_text = {int(k): v for k, v in hands.items()}
        self.picker.on_pick(self._toggle)
        self.rules_box.observe(self._on_rules, "value")
        self.players_box.observe(self._on_players, "value")
        self.winner_box.observe(self._on_winner, "value")
        super().__init__([
            style_sheet("scoring"),
            w.HBox([self.rules_box, self.players_box, self.winner_box],
                   layout=w.Layout(flex_flow="row wrap")),
            self.hands_area, self.message, self.working_html, self.target_box, self.picker,
            self.error_area,
        ])
        self.add_class("crazylab-scoring")
        self._rebuild(winner)

    @classmethod
    def from_query(cls, query: str | None = None, **defaults: Any) -> ScoreCalculator:
        """A calculator set up from ``?rules=…&players=3&winner=0&seat1=8D+3C&seat2=QH+AS``."""
        q = query_params(query)
        kwargs: dict[str, Any] = dict(defaults)
        if "rules" in q:
            kwargs["rules"] = q["rules"]
        for key in ("players", "winner"):
            if key in q:
                kwargs[key] = int(q[key]) if q[key].isdigit() else q[key]
        seats = {int(k[4:]): v for k, v in q.items() if k.startswith("seat") and k[4:].isdigit()}
        if seats:
            kwargs["hands"] = seats
        return build_or_default(cls, kwargs, defaults)

    @property
    def rules(self) -> RuleSet:
        return get_rules(self.rules_box.value)

    @property
    def players(self) -> int:
        return self.players_box.value

    @property
    def winner(self) -> int:
        return self.winner_box.value

    def set_hand(self, seat: int, text: str) -> None:
        """Type the cards left in ``seat``'s hand (``"8D 3C"``)."""
        self.hand_boxes[seat].value = text

    def _rebuild(self, winner: int = 0) -> None:
        r = self.rules
        self.players_box.min, self.players_box.max = r.min_players, r.max_players
        n = self.players
        for s, box in enumerate(self.hand_boxes):
            self._hands_text[s] = box.value
            box.unobserve(self._on_hand, "value")
        self.hand_boxes = []
        for s in range(n):
            box = w.Text(value=self._hands_text.get(s, ""), description=f"Seat {s} holds",
                         continuous_update=False,
                         placeholder="cards left, e.g. 8D 3C", style={"description_width":
                                                                      "initial"})
            box.observe(self._on_hand, "value")
            self.hand_boxes.append(box)
        self.hands_area.children = self.hand_boxes
        self._building = True
        try:
            self.winner_box.options = [(f"Seat {s}", s) for s in range(n)]
            self.winner_box.value = min(winner, n - 1)
        finally:
            self._building = False
        self._sync_targets()
        self.picker.set_deck(r.deck)
        self.update()

    def _sync_targets(self) -> None:
        seats = [s for s in range(self.players) if s != self.winner]
        current = self.target_box.value if self.target_box.value in seats else seats[0]
        self.target_box.options = [(f"Seat {s}", s) for s in seats]
        self.target_box.value = current
        for s, box in enumerate(self.hand_boxes):
            box.disabled = s == self.winner
            if s == self.winner:
                box.placeholder = "went out: no cards"

    @guarded
    def _on_rules(self, _change: Any = None) -> None:
        r = self.rules
        self.players_box.value = min(max(self.players, r.min_players), r.max_players)
        self._rebuild(self.winner)

    @guarded
    def _on_players(self, _change: Any = None) -> None:
        self._rebuild(self.winner)

    @guarded
    def _on_winner(self, _change: Any = None) -> None:
        if self._building:
            return
        self._sync_targets()
        self.update()

    @guarded
    def _on_hand(self, _change: Any = None) -> None:
        self.update()

    @guarded
    def _toggle(self, c: Card) -> None:
        """A click on a card: take it back from the chosen seat, or give it to that seat
        (moving it from another seat that holds it)."""
        seat = self.target_box.value
        target = self.hand_boxes[seat]
        mine = cards(target.value)
        if c in mine:
            mine.remove(c)
            target.value = " ".join(str(x) for x in mine)
            return
        for s, box in enumerate(self.hand_boxes):
            if s != seat and box.value.strip():
                hand = cards(box.value)
                if c in hand:
                    hand.remove(c)
                    box.value = " ".join(str(x) for x in hand)
                    break
        target.value = (target.value + " " + str(c)).strip()

    @guarded
    def update(self) -> None:
        """Score the hands as they are typed now."""
        self.clear_error()
        r = self.rules
        try:
            hands = [cards(b.value) if s != self.winner else []
                     for s, b in enumerate(self.hand_boxes)]
            self.result = score_hands(r, hands, self.winner)
        except (SetupError, CardError, ValueError) as e:
            self.result = None
            self.message.value = MARKUP("refusal", reason=e)
            self.working_html.value = ""
            return
        res = self.result
        self.picker.tags = {str(c): f"seat {s}" for s, h in enumerate(res.hands) for c in h}
        self.message.value = MARKUP("scoring", words=SCORING_WORDS[r.scoring])
        rows = []
        for s, hand in enumerate(res.hands):
            if s == res.winner:
                rows.append(MARKUP("winner_row", seat=s, score=signed(res.scores[s])))
                continue
            faces = Html(cards_html(list(hand), 36, self.four_colour)) if hand else "—"
            each = Html(" + ".join(MARKUP("card_points", card=c.display, points=number_text(p))
                                   for c, p in zip(hand, res.points[s], strict=True)))
            rows.append(MARKUP("row", seat=s, faces=faces, each=each,
                               total=number_text(res.totals[s]), score=signed(res.scores[s])))
        steps = Markup.join(MARKUP("step", line=line) for line in res.working())
        cards_head, total_head = COLUMNS.get(r.scoring, COLUMNS["winner_collects"])
        self.working_html.value = MARKUP("working", cards_head=cards_head, total_head=total_head,
                                         rows=Markup.join(rows), steps=steps)


__all__ = ["ScoreCalculator", "Scored", "card_value", "score_hands", "signed"]

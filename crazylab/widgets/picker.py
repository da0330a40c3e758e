"""A grid of every card of a deck to click: cards are tagged (for example with the seat they
were given to) and the tag is printed under each card.

A click is a request: the browser sends ``{"action": "pick", "card", "id"}`` and waits for
``{"type": "answer", "id"}``, which is sent once the click is handled (also when it failed: the
error shows under the grid). Unanswered after ``answer_timeout`` seconds the click is sent
again (the same id: a repeat is answered, not picked twice), then the grid says that the
server did not answer."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from crazylab.engine.cards import Card, sort_key
from crazylab.render import card_svg

from ._common import ErrorReporting, guarded
from ._validate import cards, flag

HERE = Path(__file__).parent


class CardPicker(ErrorReporting, anywidget.AnyWidget):
    """Click cards of a deck. ``on_pick(callback)`` receives each clicked :class:`Card`;
    ``tags`` maps card text (``"8D"``) to a short label shown under it."""

    _esm = HERE / "picker.js"
    _css = HERE / "picker.css"

    cards = t.List().tag(sync=True)
    tags = t.Dict().tag(sync=True)
    label = t.Unicode("Click a card").tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    #: seconds the browser waits for a click's answer before asking again, then reporting
    answer_timeout = t.Float(10.0).tag(sync=True)

    def __init__(self, deck: Iterable[Card] = (), *, four_colour: bool = False,
                 **kwargs: Any) -> None:
        deck = cards("deck", deck)
        flag("four_colour", four_colour)
        super().__init__(**kwargs)
        self.errors: list[str] = []
        self._callbacks: list[Callable[[Card], None]] = []
        self._answered: deque[Any] = deque(maxlen=64)  # ids of clicks handled, newest last
        self.four_colour = four_colour
        self.set_deck(deck)
        self.on_msg(self._on_message)

    def set_deck(self, deck: Iterable[Card]) -> None:
        unique = sorted(set(deck), key=sort_key)
        self.cards = [{"card": str(c), "label": c.name,
                       "svg": card_svg(c, 40, four_colour=self.four_colour)} for c in unique]

    def on_pick(self, callback: Callable[[Card], None]) -> None:
        self._callbacks.append(callback)

    def pick(self, card: str | Card) -> None:
        """What a click does: pass the card to every callback."""
        c = Card.parse(card)
        for callback in self._callbacks:
            callback(c)

    def _show_error(self, text: str) -> None:
        self.error = text

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any = None) -> None:
        request = content.get("id")
        try:
            if request is None or request not in self._answered:
                self._handle(content)
        finally:
            if request is not None:
                if request not in self._answered:
                    self._answered.append(request)
                self.send({"type": "answer", "id": request})

    @guarded
    def _handle(self, content: dict[str, Any]) -> None:
        if content.get("action") == "pick":
            self.pick(content["card"])

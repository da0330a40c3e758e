"""The table's words beside the narrator's (:mod:`crazylab.engine.narrator` writes every
event's sentence): :func:`for_people`, which takes the engine's own sentences (why a card is
refused, why one fits) to the table's conventions: cards in symbols (``3♥``, never ``3H``),
no rule ids (``BR-12``, ``SR-17``: those belong in the rulebook's links); a legal move as a
hint lists it; what the next play must follow.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from crazylab.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, CardError
from crazylab.engine.moves import PLAY, Move
from crazylab.engine.pitch import pretty
from crazylab.engine.rules import RuleSet
from crazylab.rulebook import RULE_ID

_PAREN = re.compile(r"\s*\(([^()]*)\)")
#: an option's name or setting inside a rule-id parenthesis: ``action_cards``, ``x='y'``
_OPTION = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+(?:=\S+)?|\b\w+='[^']*'")
#: a card code in a sentence, not in typed notation (``4D@0``, ``8S:D``, ``2H+2S`` stay)
_CARD = re.compile(r"(?<![\w@+♠♥♦♣])(10|[2-9AJQK])([CDHS])(?![\w@+♠♥♦♣]|:\S)")
_JOKER = re.compile(r"(?<![\w@+])JK(?![\w@+]|:\S)")


def strip_rule_ids(text: str) -> str:
    """``"loses the turn (BR-M4)."`` → ``"loses the turn."``; a parenthesis keeps its words
    (``"(BR-22; no passing the hit on, BR-Q23)"`` → ``"(no passing the hit on)"``)."""
    if not RULE_ID.search(text):
        return text

    def paren(m: re.Match[str]) -> str:
        inside = m.group(1)
        if not RULE_ID.search(inside):
            return m.group(0)
        rest = _OPTION.sub("", RULE_ID.sub("", inside))
        rest = re.sub(r"\s*[,;]\s*(?=[,;]|$)", "", rest)
        rest = re.sub(r"^[\s,;:]+|[\s,;:]+$", "", rest)
        rest = re.sub(r"\bhouse rulings?\b\s*", "", rest).strip(" ,;:")
        return f" ({rest})" if rest else ""

    text = _PAREN.sub(paren, text)
    text = re.sub(r"\b(?:house )?rulings?\s+(?=" + RULE_ID.pattern + ")", "", text)
    text = RULE_ID.sub("", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)
    text = re.sub(r"\s+([.,;:!?)])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def card_symbols(text: str) -> str:
    """Card codes in a sentence as the cards are printed: ``3H`` → ``3♥``, ``JK`` → ``🃏``."""
    def card(m: re.Match[str]) -> str:
        try:
            return Card.parse(m.group(0)).display
        except CardError:  # pragma: no cover - the pattern only finds real codes
            return m.group(0)

    return _JOKER.sub("🃏", _CARD.sub(card, text))


def for_people(text: str, names: Sequence[str] = ()) -> str:
    """An engine sentence as the table shows it: cards in symbols, no rule ids, and seats
    by the table's names (``Seat 1`` → ``Bot 1``) when ``names`` are given."""
    text = card_symbols(strip_rule_ids(text or ""))
    if names:
        text = re.sub(r"\b[Ss]eat (\d+)\b",
                      lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)
    return text


def move_words(m: Move) -> str:
    """A legal move as the hint lists it: ``8♠, calling ♦``, ``2♣ + 2♥``, ``4♦ on pile 2``."""
    if m.kind != PLAY:
        return m.kind
    text = " + ".join(c.display for c in m.cards)
    if m.call is not None:
        call = SUIT_SYMBOLS[SUITS.index(m.call)] if m.call in SUITS else pretty(m.call)
        text += f", calling {call}"
    if m.pile is not None:
        text += f" on pile {m.pile + 1}"
    if m.last:
        text += ", saying “Last card!”"
    return text


def call_label(rules: RuleSet, call: str) -> str:
    """``D`` → ``♦ diamonds``; pitches and letters are shown as they are."""
    if rules.call_kind == "suit" and call in SUITS:
        i = SUITS.index(call)
        return f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}"
    return call


def call_in_force(rules: RuleSet, game_or_obs: Any, pile: int) -> str:
    """What the next play must follow on ``pile``, in words (from public information)."""
    top = game_or_obs.piles[pile][-1]
    call = game_or_obs.calls[pile]
    if isinstance(call, int):  # a Game stores calls as numbers
        call = rules.format_call(call)
    if rules.call_kind == "suit":
        if call is not None:
            return f"called {call_label(rules, call)}"
        if top.suit is None:
            return "anything"
        text = f"suit {SUIT_SYMBOLS[top.suit]} {SUIT_NAMES[top.suit]}"
        if rules.matching == "suit_pitch" and rules.pitches.pitch(top) is not None:
            text += f" or pitch {pretty(rules.pitches.spelling(top))}"
        return text
    kind = "letter" if rules.call_kind == "letter" else "pitch"
    if call is not None:
        return f"called {kind} {pretty(call) if kind == 'pitch' else call}"
    ref = rules.reference(top, None)
    if kind == "pitch":  # as the top card spells it: sharps on ♦ ♣, flats on ♥ ♠ (MU-Q32)
        return f"pitch {rules.pitches.spell(ref, top)}"
    return f"{kind} {rules.format_call(ref)}"

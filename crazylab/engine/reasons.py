"""Why each card of a hand is legal or not, in words: the engine's ``explain`` says why a card
is refused; :func:`legal_reason` says which rule lets a legal one through."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUIT_NAMES, SUIT_SYMBOLS, Card, sort_key
from .game import Game
from .moves import PLAY, Move
from .narrator import words_for
from .phases import PHASE_CHAIN, PHASE_PLAY
from .pitch import (
    LETTERS,
    describe_interval,
    describe_letter_step,
    pretty,
)


@dataclass(frozen=True)
class Verdict:
    """One card of the hand to play: the legal moves that start with it, and why."""

    card: Card
    moves: tuple[Move, ...]
    reason: str

    @property
    def legal(self) -> bool:
        return bool(self.moves)


def card_moves(game: Game, card: Card) -> tuple[Move, ...]:
    """The legal moves that play ``card`` first (one per stack, pile and call)."""
    return tuple(m for m in game.legal_moves() if m.kind == PLAY and m.cards[0] == card)


def verdicts(game: Game) -> list[Verdict]:
    """A verdict for each distinct card of the hand of the seat to play."""
    out = []
    for c in sorted(set(game.hands[game.to_play]), key=sort_key):
        moves = card_moves(game, c)
        reason = legal_reason(game, c, moves) if moves else game.explain(str(c))
        out.append(Verdict(c, moves, reason))
    return out


def legal_reason(game: Game, c: Card, moves: tuple[Move, ...]) -> str:
    """Which rule makes ``c`` playable now (``moves`` are its legal moves)."""
    if game.phase not in (PHASE_PLAY, PHASE_CHAIN):  # a variant's phase: its words say why
        return words_for(game.rules).allowed.get(game.phase) or (
            f"Allowed now ({game.phase}): " + " or ".join(m.display for m in moves) + ".")
    r = game.rules
    piles = sorted({m.pile or 0 for m in moves})
    reasons = []
    for p in piles:
        where = f"on pile {p + 1}, " if r.piles > 1 else ""
        reasons.append(where + _fits(game, c, p))
    text = "; ".join(reasons)
    if len(moves) > 1 and r.calls_on_play(c):
        what = {"suit": "suit", "letter": "letter", "pitch": "pitch"}[r.call_kind]
        text += f" (then call a {what})"
    if game.phase == PHASE_CHAIN and game.turn_plays == 0 and c in game.drawn:
        text += "; it is a card you just drew"
    return text[0].upper() + text[1:] + "."


def _fits(game: Game, c: Card, p: int) -> str:
    r = game.rules
    top, call = game.piles[p][-1], game.calls[p]
    if c.is_joker:
        return "a joker is wild: it goes on anything"
    if r.is_wild(c):
        if r.eights == "own_suit":
            return f"an eight is wild: it goes on anything and keeps its own suit {_suit(c)}"
        return "eights are wild: an eight goes on anything"
    if r.call_kind == "suit":
        suit = game.active_suit(p)
        if suit is not None and c.suit == suit:
            if call is not None:
                return f"{c.display} is a {SUIT_NAMES[suit][:-1]}, the suit called on {top.display}"
            return f"{c.display} follows the suit of {top.display}"
        if r.matching == "suit_rank":
            return f"{c.display} matches the rank of {top.display}"
        return (f"{c.display} sounds the same pitch as {top.display} "
                f"({pretty(r.pitches.spelling(c))} = {pretty(r.pitches.spelling(top))})")
    ref = game.refs[p]
    if r.call_kind == "letter":
        letter = r.pitches.letter(c)
        return (f"{c.display} is {LETTERS[letter]}, {describe_letter_step(ref, letter)} from "
                f"{LETTERS[ref]}")
    pc = r.pitches.pitch(c)
    assert pc is not None  # a card without a pitch fits only as a wild
    # named the way the level's rule names its steps: on D♯, D is "a semitone down" (level
    # 2), never "a major seventh up"; the same words as the refusals (describe_interval)
    return (f"{c.display} ({pretty(r.pitches.spelling(c))}) is {describe_interval(pc - ref)} "
            f"from {r.pitches.spell(ref, top)}")


def _suit(c: Card) -> str:
    return f"{SUIT_SYMBOLS[c.suit]}" if c.suit is not None else ""

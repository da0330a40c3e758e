"""House rules that change the turn structure: action cards (rulings §6.4 V12) and jump-in
(V14), as one :class:`~.base.Variant` over the plain turn machine.

**Action cards** (``action_cards``, a map from a rank or a card to effects). Each card placed
on a normal turn resolves its effects, composed in this order:

* ``wild``: the card plays on anything and names a suit (in the rule set's tables; nothing
  happens here);
* ``reverse``: play changes direction; with two players it acts as ``skip`` (V12);
* ``skip``: the next player in the direction of play loses the turn;
* ``draw2`` / ``drawN``: the player who plays next (after any skips) is hit: on that turn
  they draw the cards one ``draw`` at a time and lose the turn (phase ``"penalty"``). A
  ``draw2`` hit is *stackable*: before drawing, the victim may instead play any card with
  ``draw2``; the total then passes to the player after them. A ``drawN`` hit cannot be
  passed on. A draw that the stock cannot cover shrinks to what it holds (C-9; ``pass``
  when nothing at all can be drawn).

A stack of several cards (``stacking``) resolves each card's effects in turn (``2H+2S`` with
``2=draw2`` is a draw four). The starter card has no effect: it is nobody's play. A joker with
no entry of its own keeps the plain rule (MU-13): the next player draws ``joker_draw`` cards at
once and plays on (or loses the turn with ``joker_victim_skips``). Going out ends the hand at
once; the last card's effects are not resolved (C-10).

**Jump-in** (``jump_in``). The reading implemented: when a turn that placed cards is over,
before the next player's decision, every *other* player holding a card identical to the top
card (same rank and suit, so only with ``decks=2``, or a joker on a joker) is asked in turn
order, starting after the player who placed it (the player whose turn comes next is not
asked: they may simply play it). The phase is ``"jump"``: ``to_play`` is the player asked,
and the legal moves are the identical card (with each call, if it is wild) and ``pass``.
A jump-in is the jumper's turn: the card's effects resolve as if played on a turn, and play
continues from the jumper (the players between are passed over). A draw hit waiting for the
player whose turn it was passes, with the jumper's own draw added, to the player after the
jumper. When everyone asked passes, the held-back turn begins.

All of it is one typed value, :class:`HouseState`, the game's ``variant_state`` (undo copies
it); :data:`HOUSE` is registered for every rule set with ``action_cards`` or ``jump_in``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import JOKER, Card
from ..events import (
    JUMPED_IN,
    PASSED,
    PENALTY,
    REVERSED,
    SKIPPED,
    WHY_FORGIVEN,
    WHY_HIT,
    WHY_JOKER,
    WHY_NO_JUMP,
    WHY_SKIP_CARD,
    Event,
)
from ..moves import DRAW, DRAW_MOVE, END, PASS, PASS_MOVE, PLAY, Move, play_move
from ..phases import PHASE_DECLARE, PHASE_JUMP, PHASE_PENALTY
from .base import TurnAPI, Variant

PHASES: tuple[str, ...] = (PHASE_PENALTY, PHASE_JUMP, PHASE_DECLARE)


@dataclass
class HouseState:
    """A pending draw hit and an open jump-in window (the direction of play is the game's:
    ``game.direction``, turned by ``game.reverse()``)."""

    next: int | None = None  # the seat this variant passes the turn to (set before end_turn)
    draw: int = 0  # cards the pending hit makes its victim draw
    victim: int = -1  # the seat hit
    stackable: bool = False  # whether the victim may pass it on with a draw2 card
    paid: int = 0  # penalty cards drawn so far
    played: int = -1  # the seat whose turn just placed cards (-1: none, no window)
    pile: int = 0  # the pile it placed them on
    window: list[int] = field(default_factory=list)  # seats still to be asked to jump in
    resume: int = -1  # the seat whose turn the window holds back

    def clone(self) -> HouseState:
        return HouseState(self.next, self.draw, self.victim, self.stackable,
                          self.paid, self.played, self.pile, list(self.window), self.resume)


_V12 = ("V12",)  # action cards
_V14 = ("V14",)  # jump-in


def _state(game: TurnAPI) -> HouseState:
    st: HouseState = game.variant_state
    return st


def _label(game: TurnAPI, pile: int) -> int | None:
    return pile if game.rules.piles > 1 else None


# -- resolving a play ------------------------------------------------------------------------


def _resolve(game: TurnAPI, seat: int, cards: tuple[Card, ...]) -> None:
    """``seat`` has placed ``cards`` (its hand is not empty): resolve their effects, then
    pass the turn to the seat that plays next."""
    st = _state(game)
    r = game.rules
    skips = 0
    draw = 0
    stackable = True
    joker_draw = 0
    for c in cards:
        effects = r.action_effects[c]
        if c == JOKER and not effects and game.n > 1:
            joker_draw += r.joker_draw  # the plain joker (MU-13): drawn at once
            continue
        for effect in effects:
            if effect == "reverse":
                if game.n == 2:
                    skips += 1  # V12: with two players a reverse acts as a skip
                else:
                    game.reverse()
                    game.log(Event(REVERSED, seat, (c,), rules=_V12))
            elif effect == "skip":
                skips += 1
            elif effect.startswith("draw"):
                draw += int(effect[4:])
                stackable = stackable and effect == "draw2"
    nxt = game.next_seat(seat)
    if joker_draw:
        game.draw_cards(nxt, joker_draw, WHY_JOKER, penalty=True)
        if r.joker_victim_skips:
            skips += 1
    for _ in range(skips):
        game.log(Event(SKIPPED, nxt, why=WHY_SKIP_CARD, rules=_V12))
        nxt = game.next_seat(nxt)
    if draw:  # with a hit pending (passed on, or a jump-in) the total grows and moves on
        st.draw += draw
        st.victim = nxt
        st.paid = 0
        st.stackable = stackable
        game.log(Event(PENALTY, nxt, cards, count=st.draw, why=WHY_HIT, by=seat, rules=_V12))
    st.next = nxt
    if r.jump_in:
        st.played = seat
    game.end_turn()


def _cards(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} card{'s' * (n != 1)}"


def _lose_turn(game: TurnAPI, forgiven: int) -> None:
    """The hit's victim loses the turn, with ``forgiven`` penalty cards the stock could not
    give (C-9)."""
    st = _state(game)
    st.draw = st.paid = 0
    st.victim = -1
    game.log(Event(SKIPPED, game.to_play, count=forgiven,
                   why=WHY_FORGIVEN if forgiven else WHY_HIT,
                   rules=("C-9",) if forgiven else _V12))
    game.end_turn()


# -- hooks --------------------------------------------------------------------------------------


def begin_turn(game: TurnAPI) -> None:
    """Point the turn at the right seat (after a skip or a hit), open a jump-in window after a
    play, or begin a pending draw hit."""
    st = _state(game)
    if st.next is not None:
        game.pass_to(st.next)
        st.next = None
    if st.played >= 0:
        seat, st.played = st.played, -1
        holders = _jumpers(game, seat)
        if holders:
            st.window = holders
            st.resume = game.to_play
            game.pass_to(holders[0])
            game.set_phase(PHASE_JUMP)
            return
    if st.draw and game.to_play == st.victim:
        game.set_phase(PHASE_PENALTY)


def _jumpers(game: TurnAPI, seat: int) -> list[int]:
    """Seats other than ``seat`` and the one to play that may jump in, in turn order from
    ``seat``."""
    st = _state(game)
    top = game.piles[st.pile][-1]
    out = []
    for k in range(1, game.n):
        s = game.next_seat(seat, k)
        if s != game.to_play and _jump_card(game, s, top):
            out.append(s)
    return out


def _jump_card(game: TurnAPI, seat: int, top: Card) -> bool:
    hand = game.hands[seat]
    if top not in hand:
        return False
    return len(hand) > 1 or top not in game.rules.final_ban  # A15 still holds


def after_play(game: TurnAPI, seat: int, move: Move) -> bool:
    """A normal-turn play: resolve its action cards (and note it for a jump-in window)."""
    r = game.rules
    st = _state(game)
    st.pile = move.pile or 0
    if not any(r.action_effects[c] for c in move.cards) and JOKER not in move.cards:
        if r.jump_in:
            st.played = seat  # the window opens when the engine begins the next turn
        return False  # nothing to resolve: the engine ends the turn
    _resolve(game, seat, move.cards)
    return True


def _plays_of(game: TurnAPI, c: Card, pile: int) -> list[Move]:
    calls = game.rules.call_texts if game.rules.calls_on_play(c) else (None,)
    out = []
    for call in calls:
        out.append(play_move((c,), call, _label(game, pile)))
    return out


def legal(game: TurnAPI) -> list[Move]:
    """The legal moves of the ``jump`` and ``penalty`` phases."""
    st = _state(game)
    if game.phase == PHASE_JUMP:
        return _plays_of(game, game.piles[st.pile][-1], st.pile) + [PASS_MOVE]
    if game.phase == PHASE_PENALTY:
        if st.paid:
            return [DRAW_MOVE]
        moves: list[Move] = []
        if st.stackable:
            hand = game.hands[game.to_play]
            ban = game.rules.final_ban
            for c in sorted(set(hand)):
                if "draw2" in game.rules.action_effects[c] and (len(hand) > 1 or c not in ban):
                    moves += _plays_of(game, c, st.pile)
        return moves + [DRAW_MOVE if game.can_draw() else PASS_MOVE]
    return []  # pragma: no cover  (the core plays the declare phase)


def apply(game: TurnAPI, move: Move) -> None:
    """Apply a legal move of the ``jump`` or ``penalty`` phase."""
    st = _state(game)
    seat = game.to_play
    if game.phase == PHASE_JUMP:
        if move.kind == PASS:
            game.log(Event(PASSED, seat, why=WHY_NO_JUMP, rules=_V14))
            st.window.pop(0)
            if st.window:
                game.pass_to(st.window[0])
            else:
                st.next = st.resume
                game.begin_turn()
            return
        st.window = []
        game.restart_turn()
        game.log(Event(JUMPED_IN, seat, move.cards, rules=_V14))
        _place(game, seat, move)
        return
    if move.kind == PLAY:  # passing a draw2 hit on
        _place(game, seat, move)
        return
    if move.kind == DRAW:
        got = game.draw_for_turn(seat, 1, WHY_HIT, True, st.paid + 1, st.draw)
        st.paid += len(got)
        if got and st.paid < st.draw and game.can_draw():
            return
        forgiven = st.draw - st.paid
        _lose_turn(game, forgiven)
        return
    _lose_turn(game, st.draw)


def _place(game: TurnAPI, seat: int, move: Move) -> None:
    """Place a jump-in or a passed-on draw2 as ``seat``'s turn, then resolve it."""
    st = _state(game)
    game.play_cards(seat, move)
    st.pile = move.pile or 0
    if not game.hands[seat]:
        game.finish_out(seat)
        return
    _resolve(game, seat, move.cards)


# -- explaining and public state ----------------------------------------------------------------


def explain(game: TurnAPI, move: Move) -> str:
    """Why ``move`` is not legal in a ``jump``, ``penalty`` or ``declare`` phase."""
    st = _state(game)
    legal_text = ", ".join(m.display for m in game.legal_moves())
    if game.phase == PHASE_DECLARE:
        return (f"Before the first turn seat {game.to_play} names the call of the starter "
                f"{game.top.display} (A9, A13): say one of {legal_text}.")
    if game.phase == PHASE_JUMP:
        top = game.piles[st.pile][-1]
        if move.kind == PLAY and move.cards == (top,) and move.call is None \
                and game.rules.calls_on_play(top):
            return (f"Jumping in with {top.display} needs a call (typed after a colon, "
                    f"e.g. {top}:D).")
        return (f"It is not seat {game.to_play}'s turn: seat {game.to_play} may only jump in "
                f"with a card identical to the top card {top.display} (jump_in, V14), or say "
                f"pass to let seat {st.resume} play. Legal: {legal_text}.")
    if move.kind == PLAY and st.paid:
        return "You have begun drawing your penalty: draw the rest."
    if move.kind == PLAY and st.stackable:
        return (f"You are hit and must draw {_cards(st.draw - st.paid)} and lose the turn, or "
                "pass the hit on with a draw2 card (action_cards V12). Legal: "
                f"{legal_text}.")
    if move.kind in (PLAY, PASS, END):
        return (f"You are hit and must draw {_cards(st.draw - st.paid)}, one draw at a time, "
                f"and lose the turn (action_cards V12). Legal: {legal_text}.")
    return f"{move.display} is not legal now. Legal moves: {legal_text}."


def explain_turn(game: TurnAPI, move: Move) -> str:
    if move.kind == END:
        return "There is no turn to end: play a card, draw or pass."
    return ""


def public_state(game: TurnAPI) -> dict[str, Any]:
    """For observations: the direction of play, a pending draw hit ``(seat, cards left)``,
    the seats still to be asked in a jump-in window, and the whole state (``state``: every
    part of it public, each hit and each play seen) for a world rebuilt by :func:`restore`."""
    st = _state(game)
    return {"direction": "clockwise" if game.direction > 0 else "anticlockwise",
            "pending_draw": (st.victim, st.draw - st.paid) if st.draw else (),
            "jump_window": tuple(st.window) if game.phase == PHASE_JUMP else (),
            "state": (st.next, st.draw, st.victim, st.stackable, st.paid, st.played, st.pile,
                      tuple(st.window), st.resume)}


def restore(game: TurnAPI, seen: dict[str, Any]) -> bool:
    """Rebuild the state from :func:`public_state`: the direction of play and the state."""
    direction = seen.get("direction", "clockwise")
    state = seen.get("state")
    if direction not in ("clockwise", "anticlockwise") or not isinstance(state, tuple) \
            or len(state) != 9:
        return False
    if (direction == "clockwise") != (game.direction > 0):
        game.reverse()
    st = _state(game)
    (st.next, st.draw, st.victim, st.stackable, st.paid, st.played, st.pile, window,
     st.resume) = state
    st.window = list(window)
    return True


class House(Variant):
    """Action cards and jump-in as a variant (real methods: the compiled build dispatches
    hooks through the base class)."""

    name = "house"
    phases = PHASES
    core_declarations = True

    def words(self) -> Any:
        """The narrator's words for this variant's events (:mod:`.house_words`)."""
        from .house_words import HouseWords

        return HouseWords

    def new_state(self) -> HouseState:
        return HouseState()

    def begin_turn(self, game: TurnAPI) -> None:
        begin_turn(game)

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        return after_play(game, seat, move)

    def legal(self, game: TurnAPI) -> list[Move]:
        return legal(game)

    def apply(self, game: TurnAPI, move: Move) -> None:
        apply(game, move)

    def explain(self, game: TurnAPI, move: Move) -> str:
        return explain(game, move)

    def explain_turn(self, game: TurnAPI, move: Move) -> str:
        return explain_turn(game, move)

    def public_state(self, game: TurnAPI) -> dict[str, Any]:
        return public_state(game)

    def restore(self, game: TurnAPI, seen: dict[str, Any]) -> bool:
        return restore(game, seen)


HOUSE = House()

__all__ = ["HOUSE", "PHASES", "House", "HouseState", "after_play", "apply", "begin_turn",
           "explain", "legal", "public_state", "restore"]

"""Crazy Breens special cards (rulings §5) as small effects on the shared engine.

The engine's normal turn places a card or a same-rank stack; this module resolves what the
stack does (BR-M2) with one effect per rank (:data:`EFFECTS`) and a small state machine of
three extra phases:

``"penalty"``
    The seat to play has a pending hit of the open cycle (BR-M4). Moves: a counter, i.e. a
    Jack or a stack of Jacks of any suit (``JH``, ``JH+JC``); ``draw`` to take one penalty
    card; ``pass`` to lose the turn when nothing is left to draw (a skip-only hit, BR-Q53).
    A Jack drawn as the first penalty card may be played at once as a counter (BR-26).
``"drop"``
    After a Queen (BR-21): drop one card of the hand, written as a play (``5S``, ``8S:D``), or
    ``end`` to drop none.
``"declare"``
    A wild that nobody played from the hand (turned by a King, BR-Q25, or the starter, BR-Q5,
    BR-Q6) needs its suit from the actor. ``notation.md`` has no move for this; we write the
    top card with the call: ``8H:D``, ``JK:S``.

An *action* (a turn's play, the starter, a counter; BR-M1) collects its hits; when nothing
waits for a decision any more, the hits are dealt out to the opponents in turn order (BR-M3)
as the cycle's ``penalties`` and the turn passes on. All of it is one typed value,
:class:`BreensState`, the game's ``variant_state``, which undo copies. :class:`Breens` plugs
these functions into the engine through the :class:`~.base.Variant` hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import (
    ACE,
    CARDS,
    EIGHT,
    JACK,
    JOKER_RANK,
    KING,
    QUEEN,
    RANK_NAMES,
    SUITS,
    TWO,
    Card,
)
from ..events import (
    CALLED,
    COUNTERED,
    DROPPED,
    FLIPPED,
    PENALTY,
    SKIPPED,
    WHY_FIZZLED,
    WHY_FIZZLED_AGAIN,
    WHY_FORGIVEN,
    WHY_HIT,
    WHY_JUST_DRAWN,
    WHY_NO_MORE,
    WHY_NONE,
    WHY_PASSED_ON,
    WHY_WRAPPED,
    Event,
)
from ..explain import final_card, mismatch
from ..moves import (
    DRAW,
    DRAW_MOVE,
    END,
    END_MOVE,
    PASS,
    PASS_MOVE,
    PLAY,
    Move,
    ordered_stacks,
    play_move,
)
from ..phases import PHASE_DECLARE, PHASE_DROP, PHASE_LOST, PHASE_PENALTY
from .base import TurnAPI, Variant

PHASES: tuple[str, ...] = (PHASE_PENALTY, PHASE_DROP, PHASE_DECLARE, PHASE_LOST)

#: an effect resolves ``count`` cards of one rank topped by ``top`` for the actor; it returns
#: the phase that waits for the actor's decision, or ``None`` when it is fully resolved
Effect = Callable[["TurnAPI", Card, int, bool], "str | None"]


# -- state ---------------------------------------------------------------------------------


@dataclass
class BreensState:
    """The state of the special cards' resolution, a field of the game (``variant_state``)
    that undo copies."""

    actor: int = -1  # the seat whose action is resolving
    starter: bool = False  # the action is the dealer's starter (BR-6)
    wait: str = ""  # the phase awaiting the actor's decision
    hits: list[int] = field(default_factory=list)  # draw amount per hit so far (0: a skip)
    sources: list[int] = field(default_factory=list)  # the rank that made each hit (BR-Q50)
    #: ``[seat, draw, hits, drawn, sources]``; ``sources``: a bit ``1 << rank`` for each kind
    #: of card (2, ace, joker) whose hit is in the entry, so each hit keeps its own card
    penalties: list[list[int]] = field(default_factory=list)
    jack: Card | None = None  # a Jack just drawn as a penalty card that may counter (BR-26)
    reshuffled: bool = False  # this action's King chain has reshuffled the stock (BR-Q27)
    drops: int = 0  # Queen's drops the actor may still make (queen_drop_count, A3)
    flips: int = 0  # deck plays owed once the actor's decision is made (A2)
    owed: list[int] = field(default_factory=list)  # a seat per extra lost turn owed (A1)

    def clone(self) -> BreensState:
        return BreensState(self.actor, self.starter, self.wait, list(self.hits),
                           list(self.sources),
                           [list(e) for e in self.penalties], self.jack, self.reshuffled,
                           self.drops, self.flips, list(self.owed))


def _entry(game: TurnAPI) -> list[int]:
    """The open-cycle penalty of the seat to play (it exists in the ``penalty`` phase)."""
    st: BreensState = game.variant_state
    for e in st.penalties:
        if e[0] == game.to_play:
            return e
    raise RuntimeError(f"seat {game.to_play} has no pending penalty")  # pragma: no cover


def _rank_name(rank: int) -> str:
    return "joker" if rank == JOKER_RANK else RANK_NAMES[rank - 1]


#: the bit of each hitting rank in a penalty entry's ``sources``
TWO_BIT, ACE_BIT, JOKER_BIT = 1 << TWO, 1 << ACE, 1 << JOKER_RANK


def _sources_name(sources: int) -> str:
    """The kinds of card behind an entry's hits: ``"two"``, ``"two and joker"``."""
    return " and ".join(_rank_name(r) for r in (TWO, ACE, JOKER_RANK) if sources >> r & 1)


# -- the effects, one per rank (BR-M2 step 3) ------------------------------------------------


def _add_hits(game: TurnAPI, draw: int, count: int, rank: int) -> None:
    st: BreensState = game.variant_state
    st.hits.extend([draw] * count)
    st.sources.extend([rank] * count)


def _two(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-18: each 2 is a draw-2 hit."""
    _add_hits(game, 2, count, TWO)
    return None


def _ace(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-19: each Ace is a skip hit."""
    _add_hits(game, 0, count, ACE)
    return None


def _joker(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-17: each joker is a draw-4 hit; the stack gets one declaration (BR-Q34)."""
    _add_hits(game, game.rules.joker_draw, count, JOKER_RANK)
    return None if declared else "declare"


def _eight(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-16/BR-15: one declaration for the stack."""
    return None if declared else "declare"


def _king(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-20/BR-14: one deck play, however many Kings were stacked."""
    return _deck_play(game)


def _queen(game: TurnAPI, top: Card, count: int, declared: bool) -> str | None:
    """BR-21/BR-14: one optional drop (none if the hand is empty); up to
    ``queen_drop_count`` drops, one at a time (A3)."""
    st: BreensState = game.variant_state
    st.drops += game.rules.queen_drop_count
    return "drop" if game.hands[st.actor] else None


EFFECTS: dict[int, Effect] = {TWO: _two, ACE: _ace, JOKER_RANK: _joker, EIGHT: _eight,
                              KING: _king, QUEEN: _queen}


#: each card's rank, by its value (``_RANK[card]``: a tuple index, not a property call)
_RANK: tuple[int, ...] = tuple(c.rank for c in CARDS)


def _effect(game: TurnAPI, cards: tuple[Card, ...], declared: bool) -> str | None:
    """Resolve the cards just placed (one rank) for the actor; ``declared``: their call, if
    they are wild, is already made."""
    top = cards[-1]
    effect = EFFECTS.get(_RANK[top])
    return effect(game, top, len(cards), declared) if effect else None


def _deck_play(game: TurnAPI) -> str | None:
    """The top card of the stock goes on the pile as the actor's play (BR-20, BR-Q26); it
    fizzles when no card can be had, or when the stock is empty again after this chain's one
    reshuffle (BR-Q27)."""
    st: BreensState = game.variant_state
    actor = st.actor
    if not game.stock_cards:
        if st.reshuffled:
            game.log(Event(FLIPPED, actor, why=WHY_FIZZLED_AGAIN, rules=("BR-Q27",)))
            return None
        st.reshuffled = game.can_draw()  # take_from_stock reshuffles if it can
    before = game.reshuffles
    c = game.flip_to_pile(0, eager=not st.reshuffled)  # A12 eager: still once a chain
    if game.reshuffles > before:
        st.reshuffled = True
    if c is None:
        game.log(Event(FLIPPED, actor, why=WHY_FIZZLED, rules=("BR-Q27",)))
        return None
    game.log(Event(FLIPPED, actor, (c,), rules=("BR-20",)))
    wait = _effect(game, (c,), declared=False)
    if c.rank in _FLIP_AGAIN and game.rules.flip_again_on_any_special:
        # A2: a special card turned resolves its effect, then the deck plays once more
        if wait:
            st.flips += 1
            return wait
        return _deck_play(game)
    return wait


#: the special cards other than the King (which flips again anyway) that flip again under
#: ``flip_again_on_any_special`` (A2)
_FLIP_AGAIN = frozenset({TWO, ACE, EIGHT, JACK, QUEEN, JOKER_RANK})


# -- running an action -----------------------------------------------------------------------


def _run(game: TurnAPI, cards: tuple[Card, ...], declared: bool) -> None:
    """Resolve ``cards``; then wait for the actor's decision or close the action."""
    st: BreensState = game.variant_state
    wait = _effect(game, cards, declared)
    if wait:
        st.wait = wait
        game.set_phase(wait)
    else:
        _resume(game)


def _resume(game: TurnAPI) -> None:
    """An effect has resolved: the actor drops again while a Queen allows (A3), else the
    action closes."""
    st: BreensState = game.variant_state
    if st.drops > 0 and game.hands[st.actor]:
        st.wait = PHASE_DROP
        game.set_phase(PHASE_DROP)
        return
    st.drops = 0
    if st.flips:  # A2: the deck play owed after a turned special's decision
        st.flips -= 1
        wait = _deck_play(game)
        if wait:
            st.wait = wait
            game.set_phase(wait)
            return
        _resume(game)
        return
    _close(game)


def _assign(game: TurnAPI) -> None:
    """Deal the action's hits out to the opponents in turn order (BR-M3, BR-24, BR-25)."""
    st: BreensState = game.variant_state
    hits = st.hits
    if not hits:
        return
    sources = st.sources
    st.hits = []
    st.sources = []
    actor, n = st.actor, game.n
    if len(hits) == 1:  # the usual hit: one card, on the next player
        v = (actor + 1) % n
        st.penalties = [[v, hits[0], 1, 0, 1 << sources[0]]]
    else:
        opponents = []
        for i in range(1, n):  # loops, not comprehensions: their cells cost every call
            opponents.append((actor + i) % n)
        spread = game.rules.stack_targeting == "distributed"
        by_seat: dict[int, list[int]] = {}
        for i, amount in enumerate(hits):
            v = opponents[i % len(opponents)] if spread else opponents[0]
            entry = by_seat.setdefault(v, [v, 0, 0, 0, 0])
            entry[1] += amount
            entry[2] += 1
            entry[4] |= 1 << sources[i]  # each hit keeps its own card (BR-M2, BR-Q50)
        penalties = []
        for v in opponents:
            if v in by_seat:
                penalties.append(by_seat[v])
        st.penalties = penalties
    for v, draw, _, _, _ in st.penalties:
        game.log(_hit_event(v, draw, actor))


def _hit_event(victim: int, draw: int, actor: int) -> Event:
    """The ``penalty`` event of a hit (interned: the same few are logged again and again)."""
    key = (victim, draw, actor)
    e = _HIT_EVENTS.get(key)
    if e is None:
        if len(_HIT_EVENTS) >= 10_000:
            _HIT_EVENTS.clear()
        e = _HIT_EVENTS[key] = Event(PENALTY, victim, count=draw, why=WHY_HIT, by=actor,
                                     rules=("BR-M3",))
    return e


_HIT_EVENTS: dict[tuple[int, int, int], Event] = {}


def _close(game: TurnAPI) -> None:
    """The action is fully resolved: hand out its hits and pass the turn on."""
    st: BreensState = game.variant_state
    _assign(game)
    st.wait = ""
    if st.starter:  # the dealer's starter is no turn: the first player begins (BR-8)
        st.starter = False
        game.pass_to(game.next_seat(game.dealer))
        game.begin_turn()
    else:
        game.end_turn()


def _start_action(game: TurnAPI, actor: int) -> None:
    """A new action of ``actor``."""
    st: BreensState = game.variant_state
    st.actor = actor
    st.hits = []
    st.penalties = []
    st.jack = None
    st.reshuffled = False
    st.drops = 0
    st.flips = 0


# -- hooks called by the engine --------------------------------------------------------------


def starter(game: TurnAPI) -> None:
    """The starter counts as the dealer's play (BR-6, BR-Q4): a King turns another card
    (BR-7), an 8 or joker waits for the dealer's suit (BR-Q5, BR-Q6), a Queen lets the dealer
    drop (BR-Q7), and hits land on the players after the dealer."""
    st: BreensState = game.variant_state
    r = game.rules
    top = game.top
    _start_action(game, game.dealer)
    st.starter = True
    game.pass_to(game.dealer)
    declared = top.rank == EIGHT and r.starter_eight == "keep"
    wait = None
    if not (top.rank == QUEEN and not r.starter_queen_drop):
        wait = _effect(game, (top,), declared)
    if wait:
        st.wait = wait  # begin_turn puts the dealer in this phase
        if (wait == "declare" and r.starter_eight == "first_player_declares"
                and len(game.piles[0]) == 1):
            game.pass_to(game.next_seat(game.dealer))  # A7: the first player names it
        return
    _assign(game)
    st.starter = False
    game.pass_to(game.next_seat(game.dealer))  # the engine begins this turn


def begin_turn(game: TurnAPI) -> None:
    """At a turn's start: the dealer's pending starter decision, or a pending hit (BR-M4)."""
    BREENS.begin_turn(game)


def after_play(game: TurnAPI, seat: int, move: Move) -> bool:
    """A normal-turn play was placed (and did not empty the hand): resolve its effect (the
    rest of the turn is the variant's)."""
    return BREENS.after_play(game, seat, move)


# -- legal moves -------------------------------------------------------------------------------


def legal(game: TurnAPI) -> list[Move]:
    """The legal moves of the seat to play in an effect phase."""
    return BREENS.legal(game)


def _legal_declare(game: TurnAPI) -> list[Move]:
    top = (game.top,)
    declarations = []
    for suit in SUITS:  # a loop: a comprehension's closure would cost every call here
        declarations.append(play_move(top, suit, None))
    return declarations


def _can_counter(game: TurnAPI, entry: list[int]) -> bool:
    return game.rules.jack_counters_joker or not entry[4] & JOKER_BIT


def _counters(game: TurnAPI, hand: list[Card], first: Card | None = None) -> list[Move]:
    """Every counter: a Jack of any suit, or an ordered stack of Jacks (BR-Q19); with
    ``first``, only stacks that begin with that (just drawn) Jack."""
    if _JACKS.isdisjoint(hand):  # the usual hand: no counter
        return []
    jacks = [c for c in hand if c in _JACKS]  # duplicates kept (two decks)
    firsts = sorted(set(jacks)) if first is None else [first]
    stacking = game.rules.counter_stack
    last_ok = not game.rules.final_counter_ban  # A15: no going out on a counter
    out: list[Move] = []
    for c in firsts:
        others: list[Card] = []
        if stacking:
            others = list(jacks)
            others.remove(c)
        for stack in ordered_stacks(c, tuple(others)):
            if last_ok or len(stack) < len(hand):
                out.append(play_move(stack, None, None))
    return out


_JACKS = frozenset(c for c in CARDS if c.rank == JACK)


def _legal_penalty(game: TurnAPI) -> list[Move]:
    st: BreensState = game.variant_state
    entry = _entry(game)
    hand = game.hands[game.to_play]
    if st.jack is not None:  # the mid-draw window (BR-26)
        return _counters(game, hand, st.jack) + [
            DRAW_MOVE if game.can_draw() else PASS_MOVE]
    if entry[3]:  # drawing has begun: the rest comes one card at a time
        return [DRAW_MOVE]
    moves = (_counters(game, hand)  # (no Jack: no counter, and no call to look)
             if not _JACKS.isdisjoint(hand) and _can_counter(game, entry) else [])
    if entry[1] and game.rules.draw_passing:
        moves += _passes(game, hand, entry[4])
    return moves + [DRAW_MOVE if entry[1] and game.can_draw() else PASS_MOVE]


def _passes(game: TurnAPI, hand: list[Card], sources: int) -> list[Move]:
    """A5 (``draw_passing``): one card of a rank whose draw hit is pending (a 2 or a joker,
    never an Ace: its hit draws nothing), which passes the draw on."""
    sources &= TWO_BIT | JOKER_BIT
    ban = game.rules.final_ban if len(hand) == 1 else frozenset()
    out = []
    for c in sorted(set(hand)):
        if sources >> c.rank & 1 and c not in ban:
            for call in (SUITS if game.rules.calls_on_play(c) else [None]):
                out.append(play_move((c,), call, None))
    return out


def _legal_drop(game: TurnAPI) -> list[Move]:

    out = []
    hand = game.hands[game.to_play]
    ban = game.rules.final_ban if len(hand) == 1 else frozenset()  # A15
    for c in sorted(set(hand)):
        if c in ban:
            continue
        calls = SUITS if game.rules.calls_on_play(c) else [None]
        out += [play_move((c,), call, None) for call in calls]
    return out + [END_MOVE]


# -- applying moves ----------------------------------------------------------------------------


def apply(game: TurnAPI, move: Move) -> None:
    """Apply a legal move of an effect phase."""
    BREENS.apply(game, move)


def _apply_lost(game: TurnAPI) -> None:
    st: BreensState = game.variant_state
    st.owed.remove(game.to_play)
    game.log(Event(SKIPPED, game.to_play, why=WHY_WRAPPED, rules=("A1",)))
    game.end_turn()


def _apply_penalty(game: TurnAPI, move: Move) -> None:
    st: BreensState = game.variant_state
    seat = game.to_play
    if move.kind == PLAY and _RANK[move.cards[0]] != JACK:  # passing the draw on (A5)
        _pass_on(game, _entry(game), move)
        return
    if move.kind == PLAY:  # a counter (BR-22, BR-27)
        drawn = st.jack is not None
        game.play_cards(seat, move)
        _start_action(game, seat)  # an action with no effect; it closes the cycle (BR-27)
        game.log(Event(COUNTERED, seat, move.cards, why=WHY_JUST_DRAWN if drawn else "",
                       rules=("BR-22", "BR-26", "BR-27") if drawn else ("BR-22", "BR-27")))
        if not game.hands[seat]:
            game.finish_out(seat)  # BR-Q46
        else:
            game.end_turn()
        return
    entry = _entry(game)
    if move.kind == DRAW:
        st.jack = None
        got = game.draw_for_turn(seat, 1, WHY_HIT, True, entry[3] + 1, entry[1])
        entry[3] += len(got)
        left = entry[1] - entry[3]
        if got and _jack_window(game, entry, got[0]):
            st.jack = got[0]
            return
        if got and left > 0 and game.can_draw():
            return
    _lose_turn(game, entry)


def _pass_on(game: TurnAPI, entry: list[int], move: Move) -> None:
    """A5: the victim plays a card of the hitting rank instead of drawing; this is their
    turn, and the draw so far plus the new card's passes with a lost turn to the next
    player (added to that player's penalty if they have one in this cycle)."""
    st: BreensState = game.variant_state
    seat = game.to_play
    game.play_cards(seat, move)
    st.penalties.remove(entry)
    amount = entry[1] + (2 if move.card.rank == TWO else game.rules.joker_draw)
    sources = entry[4] | 1 << move.card.rank
    nxt = (seat + 1) % game.n
    for e in st.penalties:
        if e[0] == nxt:
            e[1] += amount
            e[2] += 1
            e[4] |= sources
            break
    else:
        st.penalties.insert(0, [nxt, amount, 1, 0, sources])
    game.log(Event(PENALTY, nxt, move.cards, count=amount, why=WHY_PASSED_ON, by=seat,
                   rules=("A5",)))
    if not game.hands[seat]:
        game.finish_out(seat)
    else:
        game.end_turn()


def _lose_turn(game: TurnAPI, entry: list[int]) -> None:
    """The victim accepted: the cards drawn stay and the turn is lost (BR-M4 b, BR-Q47)."""
    st: BreensState = game.variant_state
    st.penalties.remove(entry)
    if entry[2] > 1 and game.rules.extra_hits_cost_turns:  # A1: one more turn per extra hit
        st.owed += [entry[0]] * (entry[2] - 1)
    st.jack = None
    forgiven = entry[1] - entry[3]
    if forgiven > 0:
        game.log(Event(SKIPPED, game.to_play, count=forgiven, why=WHY_FORGIVEN,
                       rules=("BR-Q48",)))
    else:
        game.log(Event(SKIPPED, game.to_play, why=WHY_HIT, rules=("BR-M4",)))
    game.end_turn()


def _apply_drop(game: TurnAPI, move: Move) -> None:
    seat = game.to_play
    st: BreensState = game.variant_state
    if move.kind == END:
        none = st.drops >= game.rules.queen_drop_count
        game.log(Event(DROPPED, seat, why=WHY_NONE if none else WHY_NO_MORE,
                       rules=("BR-21",)))
        st.drops = 0
        _resume(game)
        return
    st.drops -= 1
    game.play_cards(seat, move)
    game.log(Event(DROPPED, seat, move.cards, rules=("BR-21",)))
    if not game.hands[seat]:
        game.finish_out(seat)  # BR-Q32
        return
    _run(game, move.cards, declared=True)


def _apply_declare(game: TurnAPI, move: Move) -> None:
    assert move.call is not None  # every legal declare move names a suit
    game.set_call(0, move.call)
    game.log(Event(CALLED, game.to_play, call=move.call))
    _resume(game)


# -- explaining ----------------------------------------------------------------------------------


def explain(game: TurnAPI, move: Move) -> str:
    """Why ``move`` is not legal in an effect phase."""
    if game.phase == PHASE_PENALTY:
        why = _explain_penalty(game, move)
    elif game.phase == PHASE_LOST:
        why = (f"Seat {game.to_play} loses this turn too: each hit beyond the first costs one "
               "more lost turn in these rules (extra_hits_cost_turns, A1). Say pass.")
    elif game.phase == PHASE_DROP:
        why = _explain_drop(game, move)
    else:
        why = _explain_declare(game, move)
    return why or (f"{move.display} is not legal now. Legal moves: "
                   f"{', '.join(m.display for m in game.legal_moves())}.")


def _held(game: TurnAPI, cards: tuple[Card, ...]) -> str:
    hand = game.hands[game.to_play]
    for c in cards:
        if cards.count(c) > hand.count(c):
            return f"You do not hold {c.display}."
    return ""


def _explain_penalty(game: TurnAPI, m: Move) -> str:
    st: BreensState = game.variant_state
    entry = _entry(game)
    left = entry[1] - entry[3]
    fate = (f"draw {left} more card{'s' * (left != 1)} and lose your turn" if left
            else "lose your turn")
    if m.kind == PLAY:
        if len({c.rank for c in m.cards}) > 1:
            return "A stack must be cards of one rank; a counter is Jacks only, like J♥ + J♣."
        if m.card.rank != JACK and game.rules.draw_passing and entry[1]:
            what = _sources_name(entry[4] & (TWO_BIT | JOKER_BIT)).replace(" and ", " or ")
            if len(m.cards) > 1 or not (entry[4] & (TWO_BIT | JOKER_BIT)) >> m.card.rank & 1:
                return (f"You are hit and must {fate}, counter with a Jack, or pass the draw "
                        f"on with one {what} (draw_passing, A5).")
            if entry[3]:
                return "You have begun drawing your penalty: draw the rest."
            held = _held(game, m.cards)
            if held:
                return held
            if m.call is None and game.rules.calls_on_play(m.card):
                return (f"Passing the draw on with {m.card.display} needs a suit to be called "
                        f"(typed after a colon, e.g. {m.card}:D).")
            return ""
        if m.card.rank != JACK:
            return (f"You are hit and must {fate}: only a Jack can answer a hit, as a counter "
                    "(BR-22; no passing the hit on, BR-Q23).")
        if not _can_counter(game, entry):
            return "In these rules a Jack does not counter a joker's draw: take the penalty."
        if entry[3] and st.jack is None and game.rules.mid_draw_applies_to == "twos_only" \
                and not entry[4] & TWO_BIT:
            return ("In these rules a Jack drawn while taking a joker's draw is kept and "
                    "cannot counter (mid_draw_applies_to='twos_only', A4): draw the rest.")
        if entry[3] and st.jack is None:
            return ("You have begun drawing your penalty: only a Jack drawn as the first card "
                    "can counter (BR-26); draw the rest.")
        if st.jack is not None and m.card != st.jack:
            return (f"Counter with the Jack you just drew ({st.jack.display}) first, "
                    "or draw on.")
        held = _held(game, m.cards)
        if held:
            return held
        if len(m.cards) == len(game.hands[game.to_play]):
            why = final_card(game.rules, m.top, counter=True)
            if why:
                return why
        if len(m.cards) > 1 and not game.rules.counter_stack:
            return "In these rules a counter is a single Jack."
        if m.call is not None:
            return "A Jack calls no suit: the counter's suit is the last Jack's (BR-22)."
        return ""
    if m.kind == DRAW:
        if not entry[1]:
            return "You are skipped, not made to draw: say pass, or counter with a Jack."
        if not game.can_draw():
            return ("The stock is empty and cannot be refilled: the rest of your penalty is "
                    "forgiven (BR-Q48). Say pass.")
        return ""
    if m.kind == PASS:
        if st.jack is not None:
            return f"Play the Jack you drew ({st.jack.display}) as a counter, or draw on."
        return (f"You must take your penalty: draw {left} more card{'s' * (left != 1)} one "
                "at a time with draw, "
                "or counter with a Jack.")
    return "There is nothing to end: counter with a Jack or take your penalty."


def _explain_drop(game: TurnAPI, m: Move) -> str:
    if m.kind in (DRAW, PASS):
        return ("After your Queen you may drop one card from your hand (it need not match), "
                "or say end to drop none (BR-21).")
    if len(m.cards) > 1:
        return "The Queen lets you drop exactly one card at a time, not a stack (BR-Q30)."
    held = _held(game, m.cards)
    if held:
        return held
    c = m.card
    if len(game.hands[game.to_play]) == 1:
        why = final_card(game.rules, c)
        if why:
            return why.replace("draw or pass as if you could not play", "say end")
    if m.call is None and game.rules.calls_on_play(c):
        return (f"Dropping {c.display} needs a suit to be called (typed after a colon, "
                f"e.g. {c}:D).")
    if m.call is not None and not game.rules.calls_on_play(c):
        return f"{c.display} calls nothing: drop it with no call."
    return ""


def _explain_declare(game: TurnAPI, m: Move) -> str:
    top = game.top
    how = "call ♣, ♦, ♥ or ♠ (typed " + ", ".join(f"{top}:{s}" for s in SUITS) + ")"
    if game.to_play != game.variant_state.actor:
        return (f"Seat {game.to_play} names the suit of the starter {top.display} before the "
                f"first turn (starter_wild_declarer='first_player', A7): {how}.")
    return (f"Seat {game.to_play} must call a suit for {top.display}, which was played for "
            f"them: {how}.")


def explain_turn(game: TurnAPI, move: Move) -> str:
    """A Breens hint for a refused move on a normal turn ('' when the engine's is enough)."""
    m = move
    if m.kind == END:
        return ("There is no Queen's drop to decline: end only follows a Queen (BR-21). Play "
                "a card, or draw if you cannot.")
    if (m.kind == PLAY and all(c.rank == JACK for c in m.cards) and not _held(game, m.cards)
            and not game.fits_any(m.card)):
        return (mismatch(game, m.card, None)[:-1] + ": a Jack needs no match only as a "
                "counter, when you are hit by a 2, an Ace or a joker (BR-23, BR-Q55).")
    return ""


# -- public information --------------------------------------------------------------------------


def pending(game: TurnAPI) -> list[dict[str, Any]]:
    """The open cycle's unresolved hits, in turn order, for tables and widgets: who is hit,
    by whom, how many cards are still to draw, and whether a counter is possible now."""
    st: BreensState = game.variant_state
    if not isinstance(game.variant_state, BreensState) or game.over:
        return []
    out = []
    for seat, draw, hits, drawn, source in st.penalties:
        now = seat == game.to_play and game.phase == PHASE_PENALTY
        counters = now and any(m.kind == PLAY for m in game.legal_moves())
        out.append({"seat": seat, "by": st.actor, "source": _sources_name(source),
                    "hits": hits, "draw": draw, "drawn": drawn, "left": draw - drawn,
                    "skip": True, "resolving": now, "can_counter": counters,
                    "drawn_jack": str(st.jack) if now and st.jack is not None
                    else None})
    return out


def public_extra(game: TurnAPI) -> dict[str, Any]:
    """Public Breens state for observations: pending hits as ``(seat, cards left, hits)``,
    who made them and with what (``hit_by``: ``(seat, "two" | "ace" | "joker")``, while hits
    are pending), and the decision the actor owes (``drop`` or ``declare``), if any."""
    st: BreensState = game.variant_state
    if not isinstance(game.variant_state, BreensState):
        return {}
    out: dict[str, Any] = {
        "pending": tuple((e[0], e[1] - e[3], e[2]) for e in st.penalties),
        "awaiting": game.phase if game.phase in (PHASE_DROP, PHASE_DECLARE) else ""}
    if st.penalties:
        out["hit_by"] = (st.actor, _sources_name(st.penalties[0][4]))
    # the whole open cycle (all of it public: every play and draw of it was seen), for a
    # world rebuilt from an observation (:func:`restore`)
    out["cycle"] = (st.actor, st.starter, st.wait, tuple(st.hits), tuple(st.sources),
                    tuple(tuple(e) for e in st.penalties), st.reshuffled, st.drops, st.flips,
                    tuple(st.owed))
    return out


def restore(game: TurnAPI, seen: dict[str, Any]) -> bool:
    """Rebuild the state from :func:`public_extra`'s ``cycle`` on a world whose turn is
    already restored (``Game.restore_turn``). The one private part, a Jack just drawn as a
    penalty card that may still counter (BR-26), is the drawer's own last drawn card: only the
    drawer, to play, sees it, and the window's rules decide whether it is open."""
    cycle = seen.get("cycle")
    if not isinstance(cycle, tuple) or len(cycle) != 10:
        return False
    st: BreensState = game.variant_state
    (st.actor, st.starter, st.wait, hits, sources, penalties, st.reshuffled, st.drops,
     st.flips, owed) = cycle
    st.hits, st.sources, st.owed = list(hits), list(sources), list(owed)
    st.penalties = [list(e) for e in penalties]
    st.jack = None
    if game.phase == PHASE_PENALTY and game.drawn:
        entry = next((e for e in st.penalties if e[0] == game.to_play), None)
        if entry is not None and _jack_window(game, entry, game.drawn[-1]):
            st.jack = game.drawn[-1]
    return True


def _jack_window(game: TurnAPI, entry: list[int], got: Card) -> bool:
    """Whether ``got``, the penalty card just drawn for ``entry``, may counter now (BR-26,
    A4: the mid-draw window's options)."""
    r = game.rules
    window = r.mid_draw_counter
    return (_RANK[got] == JACK and entry[1] - entry[3] > 0 and _can_counter(game, entry)
            and (window == "any_card" or (window == "first_card" and entry[3] == 1))
            and (r.mid_draw_applies_to == "all_draws" or bool(entry[4] & TWO_BIT)))


def describe_pending(game: TurnAPI) -> str:
    """One line about the open cycle: ``"Seat 1 must draw 2 (1 drawn); seat 2 is skipped"``."""
    parts = []
    for p in pending(game):
        if p["draw"]:
            done = f" ({p['drawn']} drawn)" if p["drawn"] else ""
            parts.append(f"seat {p['seat']} must draw {p['draw']}{done} and lose the turn")
        else:
            parts.append(f"seat {p['seat']} is skipped")
    return "; ".join(parts)


class Breens(Variant):
    """Crazy Breens as a variant: each hook is one of this module's functions, or (the hooks
    every move runs) holds its body, the module function calling it. (Real methods, not
    static-method aliases: the compiled build dispatches hooks through the base class.)"""

    name = "breens"
    phases = PHASES

    def words(self) -> Any:
        """The narrator's words for this variant's events (:mod:`.breens_words`)."""
        from .breens_words import BreensWords

        return BreensWords

    def new_state(self) -> BreensState:
        return BreensState()

    def starter(self, game: TurnAPI) -> None:
        starter(game)

    def begin_turn(self, game: TurnAPI) -> None:
        """At a turn's start: the dealer's pending starter decision, or a pending hit
        (BR-M4). (The hot hooks' bodies are here, not in module functions: one call less on
        every move.)"""
        st: BreensState = game.variant_state
        if st.wait:
            game.set_phase(st.wait)
            return
        seat = game.to_play
        for e in st.penalties:  # a loop: every turn runs this
            if e[0] == seat:
                game.set_phase(PHASE_PENALTY)
                return
        if st.owed and seat in st.owed:  # A1: a further lost turn
            game.set_phase(PHASE_LOST)

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        """A normal-turn play was placed (and did not empty the hand): resolve its effect
        (the rest of the turn is the variant's)."""
        _start_action(game, seat)
        st: BreensState = game.variant_state
        cards = move.cards
        top = cards[-1]
        effect = EFFECTS.get(_RANK[top])
        if effect is not None:  # _run's work, spelt out: this is every special card played
            wait = effect(game, top, len(cards), True)
            if wait:
                st.wait = wait
                game.set_phase(wait)
            elif st.drops or st.flips:
                _resume(game)
            else:  # a 2, an ace, an eight, a joker: what _resume comes to
                _close(game)
        elif st.starter:
            _close(game)
        else:  # most plays: no effect, so no hits, drops or flips (what _run, _resume and
            st.wait = ""  # _close come to): the turn passes on
            game.end_turn()
        return True

    def legal(self, game: TurnAPI) -> list[Move]:
        """The legal moves of the seat to play in an effect phase."""
        phase = game.phase
        if phase == PHASE_PENALTY:
            return _legal_penalty(game)
        if phase == PHASE_DROP:
            return _legal_drop(game)
        if phase == PHASE_LOST:
            return [PASS_MOVE]
        if phase == PHASE_DECLARE:
            return _legal_declare(game)
        return []  # pragma: no cover

    def apply(self, game: TurnAPI, move: Move) -> None:
        """Apply a legal move of an effect phase."""
        phase = game.phase
        if phase == PHASE_PENALTY:
            _apply_penalty(game, move)
        elif phase == PHASE_LOST:
            _apply_lost(game)
        elif phase == PHASE_DROP:
            _apply_drop(game, move)
        elif phase == PHASE_DECLARE:
            _apply_declare(game, move)

    def explain(self, game: TurnAPI, move: Move) -> str:
        return explain(game, move)

    def explain_turn(self, game: TurnAPI, move: Move) -> str:
        return explain_turn(game, move)

    def public_state(self, game: TurnAPI) -> dict[str, Any]:
        return public_extra(game)

    def restore(self, game: TurnAPI, seen: dict[str, Any]) -> bool:
        return restore(game, seen)


BREENS = Breens()

__all__ = ["BREENS", "EFFECTS", "PHASES", "Breens", "BreensState", "after_play", "apply",
           "begin_turn", "describe_pending", "explain", "explain_turn", "legal", "pending",
           "public_extra", "restore", "starter"]

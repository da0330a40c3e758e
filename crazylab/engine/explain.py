"""Explanations: why a move is not legal now, in words a learner understands.

``explain_move(game, "3D")`` gives ``"3♦ matches neither the rank nor the suit of 6♥."``;
:meth:`crazylab.engine.game.Game.explain` is the same. Kept apart from the turn machine: the
game only decides *whether* a move is legal, this module says *why not*.

What a learner reads names cards by their symbols (``3♦``, never ``3D``), pitches as
``G♯``/``A♭`` and piles from 1 (the move notation ``4D@0`` appears only where it says what to
type).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .cards import JOKER, SUIT_NAMES, SUIT_SYMBOLS, Card, CardError, display, sort_key
from .errors import Given
from .moves import DRAW, END, PASS, PLAY, Move, MoveError
from .phases import PHASE_CHAIN, PHASE_DECLARE, PHASE_PLAY
from .pitch import (
    LETTERS,
    PitchError,
    describe_interval,
    describe_intervals,
    describe_letter_step,
    pretty,
)
from .rules import RuleSet

__all__ = ["explain_move"]


class PileView(Protocol):
    """The parts of a game that say what its piles accept."""

    rules: RuleSet
    piles: list[list[Card]]
    calls: list[int | None]
    refs: list[int]

    def active_suit(self, pile: int = 0) -> int | None: ...


class ExplainView(PileView, Protocol):
    """The parts of a game an explanation reads."""

    hands: list[list[Card]]
    stock_cards: list[Card]
    to_play: int
    phase: str
    turn_draws: int
    turn_plays: int
    drawn: list[Card]
    result: Any
    #: the turn machine's hooks (a ``Variant``; ``PLAIN`` for the plain games)
    hooks: Any

    def canonical(self, move: Move | str) -> Move: ...

    def accepted(self, m: Move) -> Move | None: ...

    def legal_moves(self) -> tuple[Move, ...]: ...

    def playable_cards(self, seat: int | None = None) -> list[Card]: ...

    def can_draw(self) -> bool: ...


def explain_move(game: ExplainView, move: Given) -> str:
    """Why ``move`` is not legal now, in words a learner understands ('' if it is). Text that
    is no move is explained too; a value that is no move at all (not a text, or a hand-built
    :class:`Move` with impossible fields) is a :class:`MoveError` naming it."""
    if not isinstance(move, str):
        move = Move.parse(move)
    try:
        m = game.canonical(move)
    except (MoveError, PitchError, CardError) as e:
        return str(e)
    if game.accepted(m) is not None:
        return ""
    if game.result:
        return "The hand is over: start a new hand to play again."
    if m.kind == PLAY and m.last:
        plain = m._replace(last=False).display
        if not game.rules.last_card_call:
            return f"There is no last-card call in these rules: play {plain} without '!'."
        if game.phase == PHASE_DECLARE:
            return f"Naming a suit is not a play, so there is no last-card call: say {plain}."
        left = len(game.hands[game.to_play]) - len(m.cards)
        if left != 1:
            return (f"'!' calls your last card, but {plain} would leave you {left} cards: "
                    f"play it without '!' (last_card_call, A14).")
        m = m._replace(last=False)
    hooks = game.hooks
    if game.phase == PHASE_DECLARE and hooks.core_explanations:
        calls = ", ".join(x.display for x in game.legal_moves())
        top = game.legal_moves()[0].top
        if game.rules.starter_eight == "first_player_declares" and not top.is_joker:
            return (f"Before the first turn seat {game.to_play} names the suit of the "
                    f"starter {top.display} (starter_eight='first_player_declares', A13): "
                    f"say one of {calls}. Naming it is not a play and not a turn.")
        what = {"suit": "suit", "letter": "letter", "pitch": "pitch"}[game.rules.call_kind]
        return (f"Before the first turn the dealer, seat {game.to_play}, announces the {what} "
                f"of the seed {top.display} (dealer_announces, A9): say one of {calls}. "
                "The announcement is not a play and not a turn.")
    if game.phase not in (PHASE_PLAY, PHASE_CHAIN):  # a variant's own phase
        return hooks.explain(game, m) or (
            f"{m.display} is not legal now. Legal moves: "
            f"{', '.join(x.display for x in game.legal_moves())}.")
    why = hooks.explain_turn(game, m)  # the plain games: ''
    if why:
        return why
    r = game.rules
    hand = game.hands[game.to_play]
    legal = game.legal_moves()
    if r.final_ban or r.joker_only_if_no_suit:  # house rules take some fitting cards away
        playable = sorted({x.card for x in legal if x.kind == PLAY}, key=sort_key)
    else:
        playable = game.playable_cards()
    if m.kind == DRAW:
        if game.phase == PHASE_CHAIN:
            return ("You have already drawn this turn." if game.turn_draws else
                    "You have played this turn, so you cannot draw: say end to finish.")
        # the rule first: where a fitting card must be played, that is the reason, whatever
        # the stock holds (a lesson's position may have none)
        if playable and not r.voluntary_draw:
            return (f"You can play {display(playable)}, and these rules say you must play "
                    "when you can instead of drawing.")
        if not game.can_draw():
            return "The stock is empty and cannot be refilled, so you cannot draw."
        if playable and game.turn_draws and r.must_play_drawn:
            return (f"You drew a card you can play ({display(playable)}), so you must "
                    "play it.")
        if r.voluntary_draw and not game.stock_cards:
            return "The stock is empty, so you cannot draw."
        drawn = f"{game.turn_draws} card{'s' * (game.turn_draws != 1)}"
        return (f"You have drawn {drawn}, the most these rules allow in "
                "one turn.")
    if m.kind == PASS:
        if r.chain:  # end finishes a turn only after a play or the draw (MU-11)
            if game.phase == PHASE_CHAIN or game.turn_draws:
                return "There is no pass in this game: play on, or say end to finish."
            return "There is no pass in this game: play a card, or draw two."
        if playable:
            return (f"You cannot pass while you can play ({display(playable)}).")
        return "You cannot pass while you can still draw from the stock."
    if m.kind == END:
        if not r.chain and hooks.core_explanations:
            return "There is no turn to end: play a card, draw or pass."
        return "Play a card or draw before you end your turn."
    return _explain_play(game, m, hand, legal)

def _explain_play(game: ExplainView, m: Move, hand: list[Card], legal: Sequence[Move]
                  ) -> str:
    r = game.rules
    if len(m.cards) > 1 and not r.stacking:
        return ("Only one card may be played at a time in these rules"
                + (" (chain them one by one)." if r.chain else "."))
    if len({c.rank for c in m.cards}) > 1:
        return "A stack must be cards of one rank, like 2♥ + 2♠."
    for c in set(m.cards):
        if m.cards.count(c) > hand.count(c):
            return f"You do not hold {c.display}."
    c = m.card
    if m.pile is not None and not 0 <= m.pile < r.piles:
        return (f"There is no pile {m.pile + 1} (@{m.pile}): there are {r.piles} piles, "
                f"1 to {r.piles} (typed @0 to @{r.piles - 1})."
                if r.piles > 1 else "There is only one discard pile.")
    if (game.phase == PHASE_CHAIN and game.turn_plays == 0 and c not in game.drawn
            and r.post_draw_first_card == "drawn_only"):
        drawn = display(game.drawn) or "nothing"
        return (f"After drawing, the first card you play must be one you drew ({drawn}).")
    if game.phase == PHASE_PLAY and game.turn_draws and r.must_play_drawn and not r.chain:
        pass
    piles = range(r.piles) if m.pile is None else [m.pile]
    if not any(c in r.accepts[game.refs[p]] for p in piles):
        return mismatch(game, c, piles[0] if len(piles) == 1 else None)
    why = house_rule(game, m, hand)
    if why:
        return why
    if r.piles > 1 and m.pile is None:
        options = sorted({x.pile for x in legal
                          if x.kind == PLAY and x.cards == m.cards and x.pile is not None})
        return (f"Say which pile {c.display} goes on: "
                f"{' or '.join(f'pile {p + 1}' for p in options)} "
                f"(typed {' or '.join(f'{c}@{p}' for p in options)}).")
    if m.call is None and r.calls_on_play(m.top):
        calls = ", ".join(f"{m.top}:{r.format_call(v)}" for v in r.call_values[:4])
        what = {"suit": "a suit", "letter": "a letter", "pitch": "a pitch"}[r.call_kind]
        return (f"Playing {m.top.display} needs {what} to be called (typed after a colon, "
                f"e.g. {calls}).")
    if m.call is not None and not r.calls_on_play(m.top):
        if m.top.rank == 8 and r.eights == "own_suit":
            return (f"In this game an eight takes its own suit: play {m.top.display} with no "
                    "call.")
        return f"{m.top.display} calls nothing: play it with no call."
    return (f"{m.display} is not legal now. Legal moves: "
            f"{', '.join(x.display for x in legal)}.")

def final_card(rules: RuleSet, card: Card, counter: bool = False) -> str:
    """Why ``card`` may not be the last card (A15), or ''."""
    if counter:
        if rules.final_counter_ban:
            return ("You cannot go out on an action card in these rules, and a Jack "
                    "countering is one (forbid_final_action, A15): take the penalty instead.")
        return ""
    if card not in rules.final_ban:
        return ""
    if rules.forbid_final_wild and rules.is_wild(card):
        return (f"You cannot go out on a wild card in these rules ({card.display} would be "
                "your last card; forbid_final_wild, A15): draw or pass as if you could not "
                "play.")
    return (f"You cannot go out on an action card in these rules ({card.display} would be "
            "your last card; forbid_final_action, A15): draw or pass as if you could not "
            "play.")


def house_rule(game: ExplainView, m: Move, hand: list[Card]) -> str:
    """Why a fitting play ``m`` is taken away by a house rule (A15, A6), or ''."""
    r = game.rules
    if len(m.cards) == len(hand):
        why = final_card(r, m.top)
        if why:
            return why
    if r.joker_only_if_no_suit and m.card == JOKER and game.phase in (PHASE_PLAY, PHASE_CHAIN):
        suit = game.active_suit(0)
        held = [c for c in hand if c.suit == suit and c.rank != 8]
        if suit is not None and held:
            return (f"In these rules a joker may be played only when you hold no "
                    f"{SUIT_NAMES[suit][:-1]}, the suit in force, and you hold "
                    f"{display(sorted(held, key=sort_key))} (joker_only_if_no_suit, BR-Q42).")
    return ""


def mismatch(game: PileView, c: Card, pile: int | None) -> str:
    """Why card ``c`` fits no pile (or the given pile)."""
    r = game.rules
    piles = range(r.piles) if pile is None else [pile]
    reasons = []
    for p in piles:
        top, call = game.piles[p][-1], game.calls[p]
        where = f" on pile {p + 1}" if r.piles > 1 else ""
        if r.call_kind == "suit":
            suit = game.active_suit(p)
            if call is not None:  # the called suit is the active one
                reasons.append(f"after {top.display} the called suit is {SUIT_SYMBOLS[call]}"
                               f": play a {SUIT_NAMES[call][:-1]} or an eight")
            elif r.matching == "suit_rank":
                reasons.append(f"{c.display} matches neither the rank nor the suit of "
                               f"{top.display}")
            else:
                if suit is None:  # a joker with no call in force: nothing to follow
                    reasons.append(f"{top.display} has no suit or pitch in force, so only "
                                   "an eight or a joker fits")
                elif r.pitches.pitch(top) is None:
                    reasons.append(f"{top.display} has no pitch, so only a "
                                   f"{SUIT_NAMES[suit][:-1]}, an eight or a joker fits")
                else:
                    reasons.append(
                        f"{c.display} ({pretty(r.pitches.spelling(c)) or 'no pitch'}) matches "
                        f"neither the suit {SUIT_SYMBOLS[suit]} nor the pitch "
                        f"{pretty(r.pitches.spelling(top))} of {top.display}")
        elif r.call_kind == "letter":
            ref = game.refs[p]
            near = f"{LETTERS[(ref - 1) % 7]} or {LETTERS[(ref + 1) % 7]}"
            letter = r.pitches.letter(c)
            if letter is None:
                rel = "not a letter of the musical alphabet"
            elif letter == ref:
                rel = f"{LETTERS[ref]} too, and the same letter never counts (MU-29)"
            else:
                step = describe_letter_step(ref, letter)
                rel = f"{LETTERS[letter]}, {step} from {LETTERS[ref]}"
            reasons.append(f"{c.display} is {rel}{where}; on {LETTERS[ref]} you may play {near} "
                           "(one letter step up or down)")
        else:
            ref = game.refs[p]
            pc = r.pitches.pitch(c)
            if pc is None:  # a rank the pitch map leaves out
                reasons.append(f"{c.display} has no pitch in the {r.pitch_map} pitch map, so it "
                               "never fits (only eights and jokers are wild)")
                continue
            ref_name = r.pitches.spell(ref, top)
            rel = (f"the same pitch as {ref_name}{where}, and a unison never counts "
                   "(MU-29)" if pc == ref else
                   f"{describe_interval((pc - ref) % 12)} from {ref_name}{where}")
            reasons.append(f"{c.display} ({pretty(r.pitches.spelling(c))}) is {rel}")
    if r.call_kind == "pitch":
        reasons.append(f"this level accepts {describe_intervals(r.intervals)}")
    return "; ".join(reasons)[0].upper() + "; ".join(reasons)[1:] + "."

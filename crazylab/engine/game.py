"""One hand of any Crazy Eights rule set: the state, its legal moves, push and undo.

The shape follows python-chess: a :class:`Game` holds a position, ``legal_moves()`` generates
:class:`~crazylab.engine.moves.Move` objects, ``push()`` plays one (a ``Move`` or its text) and
``undo()`` takes it back. Rule sets differ only by their :class:`~crazylab.engine.rules.RuleSet`
data; a variant that changes the turn structure (Crazy Breens' special cards) plugs in through
the hooks of :class:`crazylab.engine.variants.base.Variant`. Explanations of refused moves are
in :mod:`crazylab.engine.explain`.

A turn is a small state machine. ``phase`` is ``"play"`` at the start of a turn (and while
drawing until playable), ``"chain"`` in the musical game once the player has played or drawn,
and a variant adds its own phases (a Queen's drop, a penalty to resolve). ``"over"`` ends it.
``Game`` is the only writer of the machine's fields: a variant asks for a verb (``pass_to``,
``set_phase``, ``next_seat``, ``reverse``, ``flip_to_pile``, ``play_cards``, ``draw_for_turn``…),
and the hooks are called on ``hooks`` (the rulebook's: the variant the rule set names or, for
the plain games, :data:`~crazylab.engine.variants.base.PLAIN`).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence
from itertools import compress
from operator import getitem, methodcaller
from typing import Any, SupportsIndex, TypeVar

from .cards import (
    CARDS,
    JOKER,
    JOKER_CODE,
    SUITS,
    Card,
    CardError,
    sort_key,
)
from .checks import flag
from .errors import CrazylabError, Given, quote
from .events import (
    BURIED,
    CALLED,
    DEALT,
    DREW,
    DREW_ONE,
    ENDED,
    EVENT_CACHE,
    LAST_CARD,
    PASSED,
    PLAYED,
    PLAYED_ONE,
    RESHUFFLED,
    SKIPPED,
    STARTER,
    WHY_JOKER,
    WHY_LAST_CARD,
    WHY_MISSED,
    WHY_SAID,
    Event,
    event,
    intern_event,
    new_event,
    seat_tables,
)
from .explain import explain_move
from .moves import (
    DRAW,
    DRAW_MOVE,
    END,
    END_MOVE,
    PASS,
    PASS_MOVE,
    PLAY,
    Move,
    MoveError,
    checked,
    play_move,
)
from .observe import Observation, VisibleLog
from .phases import PHASE_CHAIN, PHASE_DECLARE, PHASE_OVER, PHASE_PLAY
from .pitch import (
    LETTERS,
    PITCH_NAMES,
    PitchError,
    parse_letter,
    parse_pitch,
)
from .rulebook import rulebook
from .rules import RuleSet
from .rules import rules as get_rules
from .scoring import HandResult, blocked_result, hand_points, out_result
from .text import game_text
from .variants.base import Variant
from .views import html_of

__all__ = ["Game", "IllegalMove", "NothingToUndo", "SetupError", "whole_number"]


class IllegalMove(CrazylabError):
    """A move that is not legal now. The message says why; the game is unchanged."""


class SetupError(CrazylabError):
    """A position or deck that cannot exist under the rule set, or an argument out of its
    range (a seat, a pile, a flag that is not a bool)."""


class NothingToUndo(CrazylabError, IndexError):
    """``undo()`` with no move to take back (an ``IndexError`` too, as it always was)."""


# attributes that are configuration or logs, not state to snapshot for undo
_NOT_STATE = frozenset({"rules", "n", "seed", "dealer", "events", "moves", "keep_undo",
                        "_undo", "_legal_cache", "book", "setup", "title", "variant",
                        "hooks", "_seen"})


def whole_number(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number (an ``int``, or an integer type such as
    numpy's), else ``None``: not a bool (``True`` is no seat), a float or a text.

    The public methods take such arguments as :class:`~typing.SupportsIndex` and check them
    with this, so a bad one is a :class:`SetupError` naming it in both builds (the compiled
    build would raise a bare ``TypeError`` at a parameter typed ``int``)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


CHECKPOINT_EVERY = 16
"""Undo keeps a snapshot of the position every this many moves and replays the rest."""


def _clone(value: Any) -> Any:
    if isinstance(value, list):
        return [_clone(v) for v in value] if value and isinstance(value[0], list) else value[:]
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    clone = getattr(value, "clone", None)  # a variant's state
    return value if clone is None else clone()


#: Game's attributes (its ``__slots__``), named here because mypyc's build reads no
#: ``__slots__`` through the class
_FIELDS: tuple[str, ...] = (
    # configuration and logs (not snapshot for undo: see _NOT_STATE)
    "rules", "n", "seed", "dealer", "keep_undo", "title", "events", "moves", "setup",
    "_undo", "_legal_cache", "book",
    # the position
    "hands", "stock_cards", "piles", "calls", "refs", "to_play", "phase", "turn_draws",
    "turn_plays", "drawn", "reshuffles", "idle", "random_count", "result", "over", "turns",
    "skipping", "direction",
    # a variant (``None`` for the plain games), the hooks the turn machine calls (the
    # variant, or :data:`~.variants.base.PLAIN`) and the variant's state
    "variant", "hooks", "variant_state", "_seen",
)




class Game:
    """A hand in progress. Create one with :meth:`new`, :meth:`from_deck` or
    :meth:`from_position`; every random step uses the game's ``seed``."""

    __slots__ = _FIELDS

    def __new__(cls, *args: Any, **kwargs: Any) -> Game:
        """A bare instance, as ``object.__new__`` gives. Spelt out for the mypyc build, whose
        ``Game.__new__`` would otherwise run ``__init__`` too (``copy()`` needs it bare)."""
        return super().__new__(cls)

    # -- creation ------------------------------------------------------------------------

    def __init__(self, rules: Given, players: SupportsIndex, *,
                 seed: SupportsIndex | None = None, dealer: SupportsIndex | None = None,
                 keep_undo: Given = True) -> None:
        if isinstance(rules, str):
            rules = get_rules(rules)
        elif not isinstance(rules, RuleSet):
            raise SetupError(f"rules must be a preset name or a RuleSet, not {quote(rules)}; "
                             "see crazylab.PRESETS")
        self.rules = r = rules
        n = whole_number(players)
        if n is None or not r.min_players <= n <= r.max_players:
            raise SetupError(f"{r.name} is for {r.min_players}-{r.max_players} players, "
                             f"not {quote(players)}")
        self.n = players = n
        number = None if seed is None else whole_number(seed)
        if seed is not None and number is None:
            raise SetupError(f"seed must be a whole number (or None for a random deal), not "
                             f"{quote(seed)}")
        self.seed = random.randrange(2**62) if number is None else number
        seat = None if dealer is None else whole_number(dealer)
        if dealer is not None and (seat is None or not 0 <= seat < n):
            raise SetupError(f"dealer must be a seat from 0 to {n - 1}, not {quote(dealer)}")
        self.dealer = n - 1 if seat is None else seat
        self.keep_undo = flag("keep_undo", keep_undo, SetupError)
        self.title = ""
        self.events: list[Event] = []
        self.moves: list[Move] = []
        self.setup: dict[str, Any] = {}
        self._undo: list[tuple[int, dict[str, Any]]] = []  # (moves done, snapshot) checkpoints
        self._legal_cache: tuple[Move, ...] | None = None
        self.book = book = rulebook(r)  # what the rule set compiles to, shared
        seat_tables(players)  # the event tables of place() and draw_cards() (a game made
        # without __init__, say unpickled in a fresh process, falls back to EVENT_CACHE)
        self.variant = book.variant
        self.hooks: Variant = book.hooks
        self.variant_state = self.hooks.new_state()
        self._seen = VisibleLog(players)
        # state
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock_cards: list[Card] = []  # top of the stock is the END of this list
        self.piles: list[list[Card]] = [[] for _ in range(r.piles)]
        self.calls: list[int | None] = [None] * r.piles
        self.refs: list[int] = [0] * r.piles
        self.to_play = (self.dealer + 1) % players
        self.phase = PHASE_PLAY
        self.turn_draws = 0
        self.turn_plays = 0
        self.drawn: list[Card] = []
        self.reshuffles = 0
        self.idle = 0
        self.random_count = 0
        self.result: HandResult | None = None
        self.over = False  # whether the hand has ended (``result`` says how)
        self.turns = 0
        self.skipping: list[int] = []  # seats that lose their next turn (joker_victim_skips)
        self.direction = 1  # the direction of play: 1 clockwise (seat + 1), -1 reversed

    @classmethod
    def new(cls, rules: Given, players: SupportsIndex = 2,
            seed: SupportsIndex | None = None, *, dealer: SupportsIndex | None = None,
            keep_undo: Given = True) -> Game:
        """Shuffle a fresh deck with ``seed`` and deal it."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        deck = list(game.rules.deck)
        _shuffle(random.Random(game.seed), deck)
        game._deal(deck)
        game.setup = {"seed": game.seed, "dealer": game.dealer}
        return game

    @classmethod
    def from_deck(cls, rules: Given, players: SupportsIndex, deck: Given,
                  *, seed: SupportsIndex | None = None, dealer: SupportsIndex | None = None,
                  keep_undo: Given = True) -> Game:
        """Deal a stacked deck (``deck[0]`` is the top card) exactly as the rules say."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        n = game.n
        cards_ = game._parse_cards(deck, "deck", len(game.rules.deck))
        game._check_counts(cards_)
        needed = n * game.rules.hand_size_for(n) + game.rules.piles
        if len(cards_) < needed:
            raise SetupError(f"the deck has {len(cards_)} cards but dealing {n} hands and "
                             f"the starter needs at least {needed}")
        game._deal(cards_)
        game.setup = {"deck": [str(c) for c in cards_], "dealer": game.dealer,
                      "seed": game.seed}
        return game

    @classmethod
    def from_position(cls, rules: Given, players: SupportsIndex, *,
                      hands: Given, stock: Given = (), discard: Given = None,
                      piles: Given = None, to_play: SupportsIndex = 0, suit: Given = None,
                      pitch: Given = None, seed: SupportsIndex | None = None,
                      dealer: SupportsIndex | None = None, keep_undo: Given = True,
                      calls: Given = None) -> Game:
        """A dealt position, possibly partial (unplaced cards are out of play).
        ``stock`` is top first; each discard pile is bottom first, top last. The call in
        force is ``suit`` or ``pitch`` on every pile, or ``calls``: one per pile (a text or
        ``None``)."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        r, n = game.rules, game.n
        size = len(r.deck)
        if not isinstance(hands, (list, tuple)):
            raise SetupError(f"hands must be a list of {n} hands (lists of cards), not "
                             f"{quote(hands)}")
        if len(hands) != n:
            raise SetupError(f"hands lists {len(hands)} seats but the game has {n} players")
        if (discard is None) == (piles is None):
            raise SetupError("give the discard pile as either 'discard' or 'piles'")
        if piles is not None and not isinstance(piles, (list, tuple)):
            raise SetupError(f"piles must be a list of {r.piles} discard piles (lists of "
                             f"cards), not {quote(piles)}")
        pile_lists = [discard] if piles is None else piles
        if len(pile_lists) != r.piles:
            raise SetupError(f"{r.name} has {r.piles} discard pile(s), not {len(pile_lists)}")
        for name, value in (("suit", suit), ("pitch", pitch)):
            if value is not None and not isinstance(value, str):
                raise SetupError(f"{name} must be a text like 'D' or 'C#' (or None), not "
                                 f"{quote(value)}")
        if suit is not None and pitch is not None:
            raise SetupError(f"give the call in force as suit or as pitch, not both (got suit="
                             f"{quote(suit)}, pitch={quote(pitch)})")
        if calls is not None and (
                not isinstance(calls, (list, tuple)) or len(calls) != r.piles
                or not all(c is None or isinstance(c, str) for c in calls)
                or suit is not None or pitch is not None):
            raise SetupError(f"calls must be a list of {r.piles} calls in force (texts like "
                             f"'D' or None), one per pile, without suit or pitch, not "
                             f"{quote(calls)}")
        game.hands = [game._parse_cards(h, f"hand {i}", size) for i, h in enumerate(hands)]
        game.stock_cards = game._parse_cards(stock, "stock", size)[::-1]
        game.piles = [game._parse_cards(p, f"pile {i}", size)
                      for i, p in enumerate(pile_lists)]
        if any(not p for p in game.piles):
            raise SetupError("every discard pile needs at least its top card")
        game._check_counts([c for h in game.hands for c in h] + game.stock_cards
                           + [c for p in game.piles for c in p])
        first = whole_number(to_play)
        if first is None or not 0 <= first < n:
            raise SetupError(f"to_play must be a seat from 0 to {n - 1}, not {quote(to_play)}")
        game.to_play = first
        call = suit if suit is not None else pitch
        per_pile = [call] * r.piles if calls is None else list(calls)
        for p in range(r.piles):
            top = game.piles[p][-1]
            call = per_pile[p]
            if call is not None:
                if not r.calls_on_play(top):
                    raise SetupError(f"a call is in force only on a wild card, not on {top}")
                game.calls[p] = game.parse_call(call)
            elif r.calls_on_play(top) and (top.is_joker or r.call_kind != "suit"):
                raise SetupError(f"the top card {top} is wild: give the call in force "
                                     "('suit' or 'pitch')")
            game.update_reference(p)
        for i, hand in enumerate(game.hands):
            game.events.append(new_event(DEALT, i, tuple(hand), count=len(hand)))
        game.begin_turn()
        game.setup = {"hands": [[str(c) for c in h] for h in game.hands],
                      "stock": [str(c) for c in game.stock],
                      "piles": [[str(c) for c in p] for p in game.piles],
                      "to_play": to_play, "dealer": game.dealer, "seed": game.seed}
        if calls is not None:
            game.setup["calls"] = list(calls)
        elif per_pile[0] is not None:
            game.setup["suit" if r.call_kind == "suit" else "pitch"] = per_pile[0]
        return game

    def _parse_cards(self, items: Any, where: str, most: int) -> list[Card]:
        if not isinstance(items, (list, tuple)):
            raise SetupError(f"{where} must be a list of cards, not {quote(items)}")
        if len(items) > most:
            raise SetupError(f"{where} lists {len(items)} cards but the whole deck has {most}")
        try:
            return [Card.parse(c) for c in items]
        except CardError as e:
            raise SetupError(f"{where}: {e}") from None

    def _check_counts(self, placed: list[Card]) -> None:
        in_deck: dict[Card, int] = {}
        for c in self.rules.deck:
            in_deck[c] = in_deck.get(c, 0) + 1
        seen: dict[Card, int] = {}
        for c in placed:
            seen[c] = seen.get(c, 0) + 1
        for c, k in seen.items():
            have = in_deck.get(c, 0)
            if k > have:
                if have == 0:
                    raise SetupError(f"{c} is not in the {self.rules.name} deck")
                raise SetupError(f"{c} is placed {k} times but the deck holds it {have} time(s)")

    # -- dealing -----------------------------------------------------------------------------

    def _deal(self, deck: list[Card]) -> None:
        r, n = self.rules, self.n
        size = r.hand_size_for(n)
        for k in range(n):  # one card at a time from the dealer's left: every n-th card
            self.hands[(self.dealer + 1 + k) % n].extend(deck[k:size * n:n])
        self.stock_cards = deck[size * n:][::-1]
        for seat, hand in enumerate(self.hands):
            self.events.append(new_event(DEALT, seat, tuple(hand), count=len(hand)))
        for p in range(r.piles):
            self._turn_starter(p)
        self.hooks.starter(self)
        self.begin_turn()
        waiting = self.undeclared_piles() if self.hooks.core_declarations else []
        if waiting:
            # A13: the first player names a starter eight's suit; A9: the dealer announces
            # each wild seed's call, in pile order, before the first turn
            self.phase = PHASE_DECLARE
            self.to_play = self.declarer(waiting[0])

    def undeclared_piles(self) -> list[int]:
        """Piles whose starter is a wild still waiting for its call: an eight with
        ``starter_eight`` ``first_player_declares`` (A13) or ``dealer_announces`` (A9), a
        joker with ``starter_joker="dealer_announces"`` (A9). Only the plain turn machine
        asks."""
        r = self.rules
        eights = r.starter_eight in ("first_player_declares", "dealer_announces")
        jokers = r.starter_joker == "dealer_announces"
        if not (eights or jokers):
            return []
        out = []
        for p, pile in enumerate(self.piles):
            top = pile[-1]
            if self.calls[p] is None and ((jokers and top.is_joker)
                                          or (eights and top.rank == 8 and not top.is_joker)):
                out.append(p)
        return out

    def declarer(self, pile: SupportsIndex) -> int:
        """Who names the call of pile ``pile``'s starter wild: the first player for an eight
        under ``first_player_declares`` (A13), else the dealer (A9)."""
        top = self.piles[self._pile(pile)][-1]
        if not top.is_joker and self.rules.starter_eight == "first_player_declares":
            return (self.dealer + 1) % self.n
        return self.dealer

    def _turn_starter(self, pile: int) -> None:
        r = self.rules
        for _ in range(200):
            c = self.take_from_stock()
            if c is None:
                raise SetupError("the stock ran out while turning a starter")
            buried = (c.is_joker and r.starter_joker == "rebury") or (
                c.rank == 8 and not c.is_joker and r.starter_eight == "rebury")
            if buried and self.stock_cards:
                self._bury(c)
                self.events.append(new_event(BURIED, None, (c,), pile=self._pile_label(pile)))
                continue
            self.piles[pile].append(c)
            self.update_reference(pile)
            self.events.append(event(STARTER, None, (c,), pile=self._pile_label(pile)))
            return
        raise SetupError("no starter could be turned")  # pragma: no cover

    def _bury(self, c: Card) -> None:
        where = self.rules.bury_position
        if where == "bottom":
            i = 0
        elif where == "middle":
            i = len(self.stock_cards) // 2
        else:  # anywhere but the top (the end of the list)
            i = self._rng().randrange(len(self.stock_cards))
        self.stock_cards.insert(i, c)

    def _rng(self) -> random.Random:
        """A generator for the next random step, derived from the seed (so undo needs no
        generator state)."""
        self.random_count += 1
        return random.Random(self.seed * 1_000_003 + self.random_count)

    # -- public state --------------------------------------------------------------------------

    @property
    def winners(self) -> tuple[int, ...]:
        return self.result.winners if self.result else ()

    @property
    def winner(self) -> int | None:
        """The seat that won the hand; ``None`` while playing or with no single winner."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def scores(self) -> tuple[int, ...]:
        """The hand's points per seat under the rule set's scoring (zeros while playing)."""
        return self.result.scores if self.result else (0,) * self.n

    @property
    def end_reason(self) -> str | None:
        return self.result.reason if self.result else None

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self.hands]

    def hand(self, seat: SupportsIndex) -> list[Card]:
        """Seat ``seat``'s cards, sorted."""
        return sorted(self.hands[self._seat(seat)], key=sort_key)

    def _seat(self, seat: object) -> int:
        number = whole_number(seat)
        if number is None or not 0 <= number < self.n:
            raise SetupError(f"seat must be a number from 0 to {self.n - 1}, not {quote(seat)}")
        return number

    @property
    def stock(self) -> list[Card]:
        """The stock, top card first."""
        return self.stock_cards[::-1]

    @property
    def stock_size(self) -> int:
        return len(self.stock_cards)

    @property
    def discard(self) -> list[Card]:
        """Discard pile 0, bottom first."""
        return list(self.piles[0])

    @property
    def top(self) -> Card:
        return self.piles[0][-1]

    @property
    def tops(self) -> list[Card]:
        return [p[-1] for p in self.piles]

    def _pile(self, pile: object) -> int:
        """``pile`` as a pile number of this game, or a :class:`SetupError` naming it."""
        number = whole_number(pile)
        piles = self.rules.piles
        if number is None or not 0 <= number < piles:
            where = "0 (there is one discard pile)" if piles == 1 else f"from 0 to {piles - 1}"
            raise SetupError(f"pile must be a number {where}, not {quote(pile)}")
        return number

    def active_suit(self, pile: SupportsIndex = 0) -> int | None:
        """The suit the next play must follow on ``pile``: the call in force, else the top's."""
        p = pile if type(pile) is int and 0 <= pile < len(self.piles) else self._pile(pile)
        if self.rules.call_kind != "suit":
            return None
        call = self.calls[p]
        return call if call is not None else self.piles[p][-1].suit

    @property
    def suit(self) -> str | None:
        """The suit in force on pile 0 (``"D"``), or ``None`` where suits do not count."""
        s = self.active_suit(0)
        return None if s is None else SUITS[s]

    def reference(self, pile: SupportsIndex = 0) -> str | None:
        """The pitch (or letter) a pile asks for in the music-only levels, else ``None``."""
        p = self._pile(pile)
        kind = self.rules.call_kind
        if kind == "suit":
            return None
        return self.rules.format_call(self.refs[p])

    @property
    def pitch(self) -> str | None:
        return self.reference(0)

    def pitch_of(self, pile: SupportsIndex = 0) -> str | None:
        """The pitch class name of a pile's top card or call (for every musical rule set)."""
        p = self._pile(pile)
        call, top = self.calls[p], self.piles[p][-1]
        if self.rules.call_kind == "pitch" and call is not None:
            return PITCH_NAMES[call]
        if self.rules.call_kind == "letter" and call is not None:
            return LETTERS[call]
        pc = self.rules.pitches.pitch(top)
        return None if pc is None else PITCH_NAMES[pc]

    def _pile_label(self, pile: int) -> int | None:
        return pile if self.rules.piles > 1 else None

    def update_reference(self, pile: int) -> None:
        call = self.calls[pile]
        self.refs[pile] = self.book.references[self.piles[pile][-1]][
            0 if call is None else call + 1]

    # -- legal moves ---------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move of the seat to play, each exactly once: a tuple (the game's own,
        made once per position, so nothing a caller does to it changes the game)."""
        cached = self._legal_cache
        if cached is None:
            legal: list[Move]
            phase = self.phase
            if phase == PHASE_PLAY:
                legal = self._legal_play()
            elif phase == PHASE_CHAIN:
                legal = self._legal_chain()
            elif phase == PHASE_OVER:
                legal = []
            elif phase == PHASE_DECLARE and self.hooks.core_declarations:
                legal = self._legal_declare()
            else:
                legal = self.hooks.legal(self)
            if self.book.turn.last_call and phase != PHASE_DECLARE:
                legal = self.with_last_calls(legal)
            cached = self._legal_cache = tuple(legal)
        return cached

    def with_last_calls(self, legal: list[Move]) -> list[Move]:
        """``legal`` with each play that leaves exactly one card also offered with the
        last-card call, right after it (``6C``, ``6C!``; A14): both are legal, and the play
        without the call costs ``last_card_penalty`` cards."""
        keep = len(self.hands[self.to_play]) - 1
        out: list[Move] = []
        for m in legal:
            out.append(m)
            if m.kind == PLAY and len(m.cards) == keep:
                out.append(play_move(m.cards, m.call, m.pile, True))
        return out

    def legal(self) -> list[str]:
        """The legal moves in canonical notation."""
        return [str(m) for m in self.legal_moves()]

    def is_legal(self, move: Given) -> bool:
        """Whether ``move`` (a :class:`Move` or its text) may be played now: always a bool,
        ``False`` for anything that is not a move at all."""
        try:
            return self.accepted(self.canonical(move)) is not None
        except CrazylabError:  # not a move at all (bad card, call or pile text, bad fields)
            return False

    def playable_cards(self, seat: SupportsIndex | None = None) -> list[Card]:
        """Cards of ``seat``'s hand that fit some pile now (ignoring whose turn it is)."""
        hand = self.hands[self.to_play if seat is None else self._seat(seat)]
        return sorted({c for c in hand if self.fits_any(c)}, key=sort_key)

    def fits_any(self, c: Card) -> bool:
        accepts = self.rules.accepts
        return any(c in accepts[ref] for ref in self.refs)

    def _legal_play(self) -> list[Move]:
        t = self.book.turn
        plays = self._plays(self.hands[self.to_play])
        if t.filtered_plays:
            plays = self.restricted(plays, self.hands[self.to_play])
        if t.chain:  # musical game: play, or draw two (always possible, MU-Q37)
            return plays + [DRAW_MOVE] if (plays == [] or t.optional_play) else plays
        if plays and not t.voluntary_draw and (t.must_play_drawn or not self.turn_draws):
            return plays  # the usual case: play one of them
        limit_ok = self.turn_draws < t.draws_per_turn
        if plays:
            if t.voluntary_draw and self.stock_cards and limit_ok:
                return plays + [DRAW_MOVE]
            if self.turn_draws and not t.must_play_drawn:
                return plays + [PASS_MOVE]
            return plays
        return [DRAW_MOVE] if limit_ok and self.can_draw() else [PASS_MOVE]

    def _legal_declare(self) -> list[Move]:
        """The calls for the first starter wild waiting for one (A13): ``8S:D`` …"""
        p = self.undeclared_piles()[0]
        pile = p if self.rules.piles > 1 else None
        out = []
        for call in self.rules.call_texts:
            out.append(play_move((self.piles[p][-1],), call, pile))
        return out

    def _legal_chain(self) -> list[Move]:
        hand = self.hands[self.to_play]
        if (self.turn_plays == 0 and self.rules.post_draw_first_card == "drawn_only"):
            hand = list(filter(hand.__contains__, self.drawn))  # the drawn cards still held
        if self.book.turn.filtered_plays:
            return self.restricted(self._plays(hand), self.hands[self.to_play]) + [END_MOVE]
        return self._plays(hand) + [END_MOVE]

    def restricted(self, plays: list[Move], hand: list[Card]) -> list[Move]:
        """``plays`` without those the house rules take away on a normal turn: a last card
        in :attr:`RuleSet.final_ban` (A15), and a joker while ``hand`` holds a card of the
        active printed suit other than an eight (A6, ``joker_only_if_no_suit``)."""
        r = self.rules
        ban = r.final_ban
        size = len(hand)
        out = [m for m in plays if not (len(m.cards) == size and m.cards[-1] in ban)]
        if r.joker_only_if_no_suit and JOKER in hand and self.suit_in_hand(hand) is not None:
            out = [m for m in out if m.cards[0] != JOKER]
        return out

    def suit_in_hand(self, hand: list[Card]) -> Card | None:
        """A card of ``hand`` whose printed suit is the active suit of pile 0, not an eight
        (what forbids a joker under ``joker_only_if_no_suit``), or ``None``."""
        suit = self.active_suit(0)
        if suit is None:
            return None
        for c in sorted(hand):
            if c.suit == suit and c.rank != 8:
                return c
        return None

    def _plays(self, hand: list[Card]) -> list[Move]:
        """Every play from ``hand``: each legal card (or same-rank stack) on each pile where it
        fits, once per possible call (in card order, then pile order)."""
        one_pile = self.book.one_pile
        if one_pile is None:
            return self._plays_any(hand)
        # the common case (one pile, one card at a time), kept lean: a plain loop (no
        # comprehension, whose closure would cost every call) beats a set intersection
        fits = one_pile[self.refs[0]]
        fitting: list[Card] = []
        for c in hand:
            if c in fits:
                fitting.append(c)
        if len(fitting) < 2:
            return list(fits[fitting[0]]) if fitting else []
        fitting.sort()  # a card's int order is its sort_key order
        plays: list[Move] = []
        last = -1
        for c in fitting:
            if c != last:  # two decks: the same card twice is one set of plays
                plays += fits[c]
                last = c
        return plays

    def _plays_any(self, hand: list[Card]) -> list[Move]:
        """:meth:`_plays` on several piles, or with same-rank stacks (whose plays are tabled
        with the rule set as hands are met)."""
        r, book = self.rules, self.book
        t = book.turn
        if not t.stacking:  # one card at a time on several piles
            on_piles = list(map(getitem, book.fits, self.refs))  # each pile's table, in C
            fitting: list[Card] = []  # the hand's cards that fit some pile, each once
            for c in hand:  # plain loops (no closure cell per call) beat set operations
                if c not in fitting:
                    for f in on_piles:
                        if c in f:
                            fitting.append(c)
                            break
            if not fitting:
                return []
            fitting.sort()  # a card's int order is its sort_key order
            plays: list[Move] = []
            for c in fitting:
                for f in on_piles:
                    moves = f.get(c)
                    if moves:
                        plays += moves
            return plays
        multi = t.several_piles
        tables = book.stacks
        if not multi:  # one pile: a card with no partner of its rank in hand plays alone
            fits = book.fits[0][self.refs[0]]
            plays = []
            one_deck = t.one_deck
            held: list[Card] = []  # the hand's cards that fit, each once
            for c in hand:  # a plain loop beats a set intersection here too
                if c in fits and c not in held:
                    held.append(c)
            if len(held) > 1:
                held.sort()  # a card's int order is its sort_key order
            for c in held:
                if c == JOKER_CODE:  # the deck's jokers are one value: count them
                    k = hand.count(c)
                    if k == 1:
                        plays += fits[c]
                        continue
                    key: tuple[Card, ...] = (c,) * k
                elif one_deck and SAME_RANK[c].isdisjoint(hand):  # the usual card: alone
                    plays += fits[c]
                    continue
                else:
                    same = SAME_RANK[c].intersection(hand)
                    twins = hand.count(c) - 1  # the same card again (two decks)
                    if not same and not twins:
                        plays += fits[c]
                        continue
                    key = (c, *sorted([*same, *(c,) * twins]))
                moves = tables.get((key, None))
                plays += moves if moves is not None else book.stack_plays(key, None)
            return plays
        accepts = r.accepts
        piles = []
        for ref in self.refs:  # a loop: no closure cell per call
            piles.append(accepts[ref])
        candidates = piles[0].intersection(hand)
        for table in piles[1:]:
            candidates = candidates.union(table.intersection(hand))
        if not candidates:
            return []
        out: list[Move] = []
        for c in sorted(candidates):  # a card's int order is its sort_key order
            if c == JOKER:
                key = (c,) * hand.count(c)
            else:
                same = SAME_RANK[c].intersection(hand)
                key = (c, *sorted([*same, *(c,) * (hand.count(c) - 1)]))
            on: list[int | None] = [None]
            if multi:
                on = list(compress(range(len(piles)), map(methodcaller("__contains__", c),
                                                          piles)))
            for pile in on:
                moves = tables.get((key, pile))
                if moves is None:
                    moves = book.stack_plays(key, pile)
                out += moves
        return out

    def can_draw(self) -> bool:
        """Whether a card can be obtained now: stock, or a reshuffle the rules allow."""
        return bool(self.stock_cards) or self.can_reshuffle()

    def can_reshuffle(self) -> bool:
        r = self.rules
        if r.reshuffle == "never" or (r.reshuffle == "limited"
                                      and self.reshuffles >= r.max_reshuffles):
            return False
        return any(len(p) > 1 for p in self.piles)

    # -- playing -------------------------------------------------------------------------------

    def push(self, move: Given, seat: SupportsIndex | None = None) -> Move:
        """Play ``move`` (a :class:`Move` or its text) for the seat to play. Raises
        :class:`IllegalMove` with the reason, leaving the game unchanged; a value that is no
        move at all (not a text, or a hand-built :class:`Move` with impossible fields) is a
        :class:`MoveError` naming it."""
        if seat is not None and self._seat(seat) != self.to_play and not self.over:
            raise IllegalMove(f"It is seat {self.to_play}'s turn, not seat {seat}'s.")
        legal = self._legal_cache
        applied: Move | None = None
        if legal is not None and type(move) is Move:
            try:  # noqa: SIM105 (a with-block costs every move) the legal move itself
                applied = legal[legal.index(move)]
            except ValueError:
                pass
        if applied is not None:
            m = applied
        else:
            if not isinstance(move, str):
                move = Move.parse(move)  # a MoveError names a value that is no move at all
            try:
                m = self.canonical(move)
            except (MoveError, PitchError, CardError) as e:
                raise IllegalMove(str(e)) from None
            applied = self.accepted(m)
            if applied is None:
                raise IllegalMove(self.explain(m))
        if not self.keep_undo:  # fast path (simulations): no checkpoints, so no rollback either
            self.moves.append(m)
            self._legal_cache = None
            self._apply(applied)
            return m
        checkpoints = self._undo
        done = len(self.moves)
        if not checkpoints or done - checkpoints[-1][0] >= CHECKPOINT_EVERY:
            checkpoints.append((done, self._snapshot()))
        self.moves.append(m)
        self._legal_cache = None
        try:
            self._apply(applied)
        except BaseException:  # a bug or an interrupt mid-move: back to the position before it
            self._rewind(done)
            raise
        return m

    def push_many(self, moves: Given) -> None:
        """Play several moves (a list, or one text: ``"QS 8S:D draw"``), all or none: they
        are tried on a copy first, so a refused move leaves the game as it was and the error
        says which move it was."""
        if isinstance(moves, str):
            todo: list[Any] = list(moves.split())
        elif isinstance(moves, (list, tuple)):
            todo = list(moves)
        else:
            raise MoveError(f"push_many takes a list of moves or a text like 'QS 8S:D draw', "
                            f"not {quote(moves)}")
        if len(todo) > 1:
            trial = self.copy()
            for i, m in enumerate(todo):
                try:
                    trial.push(m)
                except (IllegalMove, MoveError) as e:
                    raise type(e)(f"move {i + 1} of {len(todo)} ({quote(m, 40)}): {e} "
                                  "No move was played.") from None
        for m in todo:
            self.push(m)

    def undo(self) -> Move:
        """Take back the last move exactly; raise :class:`NothingToUndo` (an
        ``IndexError`` too) if there is none."""
        if not self._undo or not self.moves:
            raise NothingToUndo("there is no move to undo" + (
                "" if self.keep_undo else " (this game was made with keep_undo=False)"))
        move = self.moves[-1]
        self._rewind(len(self.moves) - 1)
        return move

    def _rewind(self, length: int) -> None:
        """Back to the position after the first ``length`` moves: restore the last checkpoint
        at or before it, then replay the moves after the checkpoint (undo keeps a snapshot
        every :data:`CHECKPOINT_EVERY` moves, not one per move)."""
        checkpoints = self._undo
        while checkpoints[-1][0] > length:
            checkpoints.pop()
        at, snapshot = checkpoints[-1]
        replay = self.moves[at:length]
        self._restore(snapshot)
        for m in replay:
            self.moves.append(m)
            self._legal_cache = None
            self._apply(m)
        self._legal_cache = None

    def _snapshot(self) -> dict[str, Any]:
        state = {k: _clone(getattr(self, k)) for k in _STATE if hasattr(self, k)}
        state["#events"], state["#moves"] = len(self.events), len(self.moves)
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        state = dict(state)
        del self.events[state.pop("#events"):]
        del self.moves[state.pop("#moves"):]
        for k, v in state.items():
            setattr(self, k, _clone(v))
        self._legal_cache = None
        self._seen.cut(len(self.events))

    def fingerprint(self) -> tuple:
        """A hashable summary of the whole state (tests compare it before and after)."""
        state = self._snapshot()
        return tuple(sorted((k, repr(v)) for k, v in state.items()))

    def canonical(self, move: Given) -> Move:
        """``move`` (or its text) as the engine writes it: canonical calls and piles."""
        m = Move.parse(move)
        if m.kind != PLAY:
            return m
        call = self.canonical_call(m.call) if m.call is not None else None
        pile = m.pile
        if pile is not None and self.rules.piles == 1 and pile == 0:
            pile = None
        if pile is None and self.rules.piles > 1:
            candidates = {x.pile for x in self.legal_moves()
                          if x.kind == PLAY and x.cards == m.cards}
            if len(candidates) == 1:
                pile = candidates.pop()
        return play_move(m.cards, call, pile, m.last)

    def canonical_call(self, text: Given) -> str:
        """A call's text in canonical form (``d`` → ``D``, ``D♭`` → ``C#``)."""
        kind = self.rules.call_kind
        if kind == "suit":
            from .cards import parse_suit

            return SUITS[parse_suit(text)]
        if kind == "letter":
            return LETTERS[parse_letter(text)]
        return PITCH_NAMES[parse_pitch(text)]

    def parse_call(self, text: Given) -> int:
        """A call's text (``D``, ``diamonds``, ``C#``) as the rule set's call number."""
        calls = self.rules.call_texts
        if text in calls:  # canonical already (every legal move's call)
            return calls.index(text)
        if not isinstance(text, str):
            raise SetupError(f"a call is a text like 'D' or 'C#', not {quote(text)}")
        try:
            canonical = self.canonical_call(text)
        except (CardError, PitchError) as e:
            raise SetupError(str(e)) from None
        kind = self.rules.call_kind
        if kind == "suit":
            return SUITS.index(canonical)
        return LETTERS.index(canonical) if kind == "letter" else PITCH_NAMES.index(canonical)

    def accepted(self, m: Given) -> Move | None:
        """The move to apply if ``m`` is legal; a wild that empties the hand may omit its call
        (C-10)."""
        if type(m) is not Move:
            raise MoveError(f"accepted() takes a Move (see canonical()), not {quote(m)}")
        m = checked(m)
        legal = self.legal_moves()
        if m in legal:
            return m
        if (m.last and len(m.cards) == len(self.hands[self.to_play])
                and self.phase != PHASE_DECLARE):  # going out needs no call, but may say it
            return m if self.accepted(m._replace(last=False)) is not None else None
        if (m.kind == PLAY and m.call is None and self.rules.calls_on_play(m.top)
                and len(m.cards) == len(self.hands[self.to_play])
                and self.phase != PHASE_DECLARE):  # a Breens declaration is no play
            first = self.rules.format_call(0)
            if play_move(m.cards, first, m.pile) in legal:
                return m
        return None

    def _apply(self, m: Move) -> None:
        """Apply a legal move: the core phases here, a variant's own phases by its hook."""
        phase, kind = self.phase, m.kind
        if phase == PHASE_PLAY or phase == PHASE_CHAIN:  # noqa: SIM109 (two compares: hot path)
            if kind == PLAY:
                return self._play(m)
            if kind == DRAW:
                return self._draw_turn()
            if kind == PASS and phase == PHASE_PLAY:
                self.events.append(event(PASSED, self.to_play))
                return self.end_turn()
            if kind == END and phase == PHASE_CHAIN:
                return self.end_turn()
        if phase == PHASE_DECLARE and self.hooks.core_declarations:
            return self._declare(m)
        self.hooks.apply(self, m)

    def _declare(self, m: Move) -> None:
        """A starter wild's call (A13): neither a play nor a turn."""
        p = m.pile or 0
        assert m.call is not None  # every legal declaration calls
        self.set_call(p, m.call)
        self.events.append(event(CALLED, self.to_play, (), m.call, m.pile))
        waiting = self.undeclared_piles()
        if waiting:
            self.to_play = self.declarer(waiting[0])
        else:
            self.to_play = (self.dealer + 1) % self.n
            self.begin_turn()

    def _play(self, m: Move) -> None:
        seat = self.to_play
        self.place(seat, m)
        self.turn_plays += len(m.cards)
        if m.cards[-1] == JOKER_CODE:
            self.hooks.joker_played(self, seat)
        if not self.hands[seat]:
            self.finish_out(seat)
            return
        if self.hooks.after_play(self, seat, m):
            return
        if self.book.turn.chain:
            self.phase = PHASE_CHAIN
        else:
            self.end_turn()

    def place(self, seat: int, m: Move) -> None:
        """Move ``m``'s cards from ``seat``'s hand to its pile and set the call in force."""
        hand, cards, call, pile = self.hands[seat], m.cards, m.call, m.pile
        for c in cards:
            hand.remove(c)
        p = pile or 0
        self.piles[p] += cards
        top = cards[-1]
        value = (self.parse_call(call)
                 if call is not None and self.rules.calls_on_play(top) else None)
        self.calls[p] = value
        self.update_reference(p)
        self.idle = 0
        if pile is None and len(cards) == 1 and seat < len(PLAYED_ONE):
            row = PLAYED_ONE[seat]
            e = row[top]
            if e is None:
                e = row[top] = new_event(PLAYED, seat, cards)
            self.events.append(e)
        else:
            fields = (PLAYED, seat, cards, None, pile, 0, "", False, None, 0, 0, ())
            self.events.append(EVENT_CACHE.get(fields) or intern_event(fields))
        if call is not None and hand:
            self.events.append(event(CALLED, seat, (), call, pile))
        if self.book.turn.last_call and len(hand) == 1:
            self._last_card(seat, m.last)

    def _last_card(self, seat: int, called: bool) -> None:
        """A14: a play left ``seat`` one card: with the call it is announced, without it the
        player draws ``last_card_penalty`` cards at once (what the stock, reshuffled if the
        rules allow, holds)."""
        if called:
            self.events.append(new_event(LAST_CARD, seat, why=WHY_SAID, rules=_A14))
            return
        penalty = self.rules.last_card_penalty
        self.events.append(new_event(LAST_CARD, seat, count=penalty, why=WHY_MISSED,
                                     rules=_A14))
        if penalty:
            self.draw_cards(seat, penalty, why=WHY_LAST_CARD, penalty=True)

    def _draw_turn(self) -> None:
        """The ``draw`` move on a turn: one card, or the rule's fixed number at once."""
        t = self.book.turn
        got = self.draw_cards(self.to_play, t.draw_count)
        self.turn_draws += len(got) or 1
        self.drawn += got
        if t.chain:
            self.phase = PHASE_CHAIN

    def draw_cards(self, seat: int, count: int, why: str = "", penalty: bool = False,
                   nth: int = 0, of: int = 0) -> list[Card]:
        """``seat`` takes up to ``count`` cards from the stock, reshuffling lazily;
        ``penalty``: the rules impose the draw; ``why``, ``nth``, ``of``: the event's."""
        stock = self.stock_cards
        rest = len(stock) - count
        if count == 1 and stock:  # the usual draw
            got = [stock.pop()]
        elif rest >= 0:  # no reshuffle needed: take the top ``count`` cards at once
            got = stock[rest:]
            got.reverse()  # the top card (the end of the list) is drawn first
            del stock[rest:]
        else:
            got = []
            for _ in range(count):
                c = self.take_from_stock()
                if c is None:
                    break
                got.append(c)
        self.hands[seat] += got
        if len(got) == 1 and not why and not penalty and seat < len(DREW_ONE):
            row = DREW_ONE[seat]
            e = row[got[0]]
            if e is None:
                e = row[got[0]] = new_event(DREW, seat, (got[0],), count=1)
            self.events.append(e)
        else:
            fields = (DREW, seat, tuple(got), None, None, len(got), why, penalty, None, nth, of, ())
            self.events.append(EVENT_CACHE.get(fields) or intern_event(fields))
        if not self.stock_cards and self.book.turn.eager:
            self.eager_reshuffle()
        return got

    def take_from_stock(self, eager: bool = True) -> Card | None:
        """The top card of the stock, reshuffling first if it is empty and the rules allow
        (lazy, C-9); ``None`` when no card can be had. With ``reshuffle_timing="eager"``
        (A12) taking the last card reshuffles at once (unless ``eager`` is false)."""
        if not self.stock_cards:
            if not self.can_reshuffle():
                return None
            self._reshuffle()
        c = self.stock_cards.pop()
        if eager and self.book.turn.eager and not self.stock_cards:
            self.eager_reshuffle()
        return c

    def eager_reshuffle(self) -> None:
        """A12: the stock was just emptied; reshuffle now if the rules allow and there is at
        least one card under the piles' tops (else nothing happens and nothing counts)."""
        if self.can_reshuffle():
            self._reshuffle()

    def _reshuffle(self) -> None:
        """Every discard but each pile's top card (and its call) becomes the new stock."""
        pool = [c for p in self.piles for c in p[:-1]]
        for p in range(len(self.piles)):
            del self.piles[p][:-1]
        _shuffle(self._rng(), pool)  # random.shuffle's permutation, faster
        self.stock_cards = pool + self.stock_cards
        self.reshuffles += 1
        limited = self.rules.reshuffle == "limited"
        self.events.append(tuple.__new__(Event, (
            RESHUFFLED, None, (), None, None, len(pool), "", False, None,
            self.reshuffles if limited else 0, self.rules.max_reshuffles if limited else 0,
            ())))

    def end_turn(self) -> None:
        """Close the turn: count a stuck turn (C-13) and pass to the next seat."""
        self.turns += 1
        if self.turn_plays or self.can_draw():
            self.idle = 0
        else:
            self.idle += 1
            if self.idle >= self.n:
                self._finish_blocked()
                return
        self.to_play = (self.to_play + self.direction) % self.n
        # a joker's victim loses this turn (MU-Q12 option)
        while self.skipping and self.to_play in self.skipping:
            self.skipping.remove(self.to_play)
            self.events.append(new_event(SKIPPED, self.to_play, why=WHY_JOKER))
            self.to_play = (self.to_play + self.direction) % self.n
        self.begin_turn()

    def begin_turn(self) -> None:
        """Begin the turn of the seat to play: phase ``play``, the turn's counters at zero,
        then the variant's :meth:`~.variants.base.Variant.begin_turn` hook."""
        self.phase = PHASE_PLAY
        self.turn_draws = 0
        self.turn_plays = 0
        if self.drawn:
            self.drawn = []
        self.hooks.begin_turn(self)

    # -- the turn machine's verbs (what a variant asks for instead of writing fields) --------

    def next_seat(self, seat: int, k: int = 1) -> int:
        """The seat ``k`` places after ``seat`` in the direction of play."""
        return (seat + k * self.direction) % self.n

    def reverse(self) -> None:
        """Play changes direction (the next seats are counted the other way)."""
        self.direction = -self.direction

    def pass_to(self, seat: int) -> None:
        """The seat to play is now ``seat`` (the phase and the turn's counters stay)."""
        self.to_play = seat

    def set_phase(self, phase: str) -> None:
        """The turn is now in ``phase`` (a core phase or one of the variant's own)."""
        self.phase = phase

    def log(self, event: Event) -> None:
        """``event`` happened: it joins the hand's record (what a variant did, as an event
        the narration and the observers read)."""
        self.events.append(event)

    def restart_turn(self) -> None:
        """The seat to play begins a normal turn afresh (phase ``play``, counters at zero)
        without the variant's begin-turn hook (a jump-in is the jumper's turn)."""
        self.phase = PHASE_PLAY
        self.turn_draws = self.turn_plays = 0
        self.drawn = []

    def skip_turn_of(self, seat: int) -> None:
        """``seat`` loses its next turn (once, however often it is asked)."""
        if seat not in self.skipping:
            self.skipping.append(seat)

    def play_cards(self, seat: int, m: Move) -> None:
        """``seat`` plays ``m`` as (part of) its turn: :meth:`place`, counted in the turn's
        plays."""
        self.place(seat, m)
        self.turn_plays += len(m.cards)

    def draw_for_turn(self, seat: int, count: int, why: str = "", penalty: bool = False,
                      nth: int = 0, of: int = 0) -> list[Card]:
        """``seat`` draws as (part of) its turn: :meth:`draw_cards`, counted in the turn's
        draws (one at least) and its drawn cards."""
        got = self.draw_cards(seat, count, why, penalty, nth, of)
        self.turn_draws += len(got) or 1
        self.drawn += got
        return got

    def flip_to_pile(self, pile: int = 0, eager: bool = True) -> Card | None:
        """Turn the stock's top card onto ``pile`` (reshuffling first if the stock is empty
        and the rules allow; ``eager`` as in :meth:`take_from_stock`), clearing the pile's
        call; ``None`` when no card can be had. A turned card is a play: nobody is idle."""
        c = self.take_from_stock(eager)
        if c is None:
            return None
        self.piles[pile].append(c)
        self.calls[pile] = None
        self.update_reference(pile)
        self.idle = 0
        return c

    def set_call(self, pile: int, text: str) -> None:
        """``text`` (a call like ``D``) is now the call in force on ``pile``."""
        self.calls[pile] = self.parse_call(text)
        self.update_reference(pile)

    def redeal_hidden(self, hands: Sequence[Sequence[Card]], stock_cards: Sequence[Card]
                      ) -> None:
        """Give the seats these hands and the stock these cards (its top card last): a bot's
        world dealt again with the same public position (the caller keeps the counts and
        the cards' conservation; nothing is checked, for speed)."""
        self.hands = [list(h) for h in hands]
        self.stock_cards = list(stock_cards)
        self._legal_cache = None

    def restore_turn(self, phase: Given, turn_draws: SupportsIndex, turn_plays: SupportsIndex,
                     drawn: Given, reshuffles: SupportsIndex, passes: SupportsIndex,
                     uncalled: Sequence[int] = ()) -> None:
        """Set the turn's state as a seat observed it (a bot's world built with
        :meth:`from_position`): the phase, the turn's draws, plays and drawn cards, the
        reshuffles so far, and ``passes``, the turns in a row that ended without a play
        (they count towards a blocked hand only while nothing can be drawn, C-13);
        ``uncalled``: the piles whose wild top still waits for its call (a declare phase:
        :meth:`from_position` needed one to build the position)."""
        counts = [whole_number(v) for v in (turn_draws, turn_plays, reshuffles, passes)]
        if not isinstance(phase, str) or any(v is None or v < 0 for v in counts):
            raise SetupError(f"restore_turn takes a phase and whole numbers of at least 0, "
                             f"not {quote((phase, turn_draws, turn_plays, reshuffles, passes))}")
        try:
            cards = self._parse_cards(list(drawn), "drawn", len(self.rules.deck))
        except (SetupError, TypeError) as e:
            raise SetupError(f"restore_turn takes the drawn cards: {e}") from None
        if not all(isinstance(p, int) and 0 <= p < self.rules.piles for p in uncalled):
            raise SetupError(f"restore_turn's uncalled are piles 0 to {self.rules.piles - 1}, "
                             f"not {quote(uncalled)}")
        draws, plays, shuffles, stuck = [v or 0 for v in counts]
        for pile in uncalled:
            self.calls[pile] = None
            self.update_reference(pile)
        self.phase = phase
        self.turn_draws, self.turn_plays = draws, plays
        self.drawn = cards
        self.reshuffles = shuffles
        self.idle = 0 if self.can_draw() else stuck
        self._legal_cache = None

    # -- the end of a hand -------------------------------------------------------------------

    def hand_points(self, seat: SupportsIndex) -> int:
        """What seat ``seat``'s cards count now (C-16)."""
        return hand_points(self.rules, self.hands[self._seat(seat)])

    def finish_out(self, seat: int) -> None:
        """``seat`` has played its last card: the hand ends, scored by the rules."""
        self._end(out_result(self.rules, self.hands, seat))

    def _finish_blocked(self) -> None:
        self._end(blocked_result(self.rules, self.hands))

    def finish(self, winners: Sequence[int], reason: str, scores: Sequence[int]) -> None:
        """End the hand with this result."""
        self._end(HandResult(tuple(winners), reason, tuple(scores)))

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.over = True
        self.phase = PHASE_OVER
        out = result.winners[0] if result.reason == "OUT" else None
        self.events.append(new_event(ENDED, out, why=result.reason))

    # -- explaining --------------------------------------------------------------------------

    def explain(self, move: Given) -> str:
        """Why ``move`` is not legal now, in words a learner understands ('' if it is); see
        :mod:`crazylab.engine.explain`."""
        return explain_move(self, move)

    # -- views ---------------------------------------------------------------------------------

    def public_extra(self) -> dict[str, Any]:
        """Public state of a rule set's effects (Crazy Breens: pending hits), else ``{}``."""
        return self.hooks.public_state(self)

    def observation(self, seat: SupportsIndex) -> Observation:
        """What ``seat`` may see: its own hand, the public table, and its legal moves."""
        seat = self._seat(seat)
        mine = seat == self.to_play and not self.over
        r = self.rules
        return Observation(
            rules=r, seat=seat, players=self.n,
            hand=tuple(sorted(self.hands[seat])),  # a card's int order is its sort order
            hand_sizes=tuple(map(len, self.hands)),
            stock_size=len(self.stock_cards),
            piles=tuple(map(tuple, self.piles)),
            calls=self._call_texts(),
            to_play=self.to_play, phase=self.phase,
            legal=tuple(self.legal_moves()) if mine else (),
            reshuffles=self.reshuffles, turn_draws=self.turn_draws,
            turn_plays=self.turn_plays, drawn=tuple(self.drawn) if mine else (),
            over=self.over, winners=self.winners, scores=self.scores,
            log=self._seen.view(seat, self.events),
            extra=tuple(sorted(self.public_extra().items())))

    def _call_texts(self) -> tuple[str | None, ...]:
        texts: list[str | None] = []
        for c in self.calls:  # a loop: no closure cell per observation
            texts.append(None if c is None else self.rules.format_call(c))
        return tuple(texts)

    def copy(self, keep_undo: Given = False) -> Game:
        """An independent copy of this game (without undo history unless asked)."""
        flag("keep_undo", keep_undo, SetupError)
        g = Game.__new__(Game)
        for k in _FIELDS:
            if hasattr(self, k):
                setattr(g, k, _clone(getattr(self, k)))
        g.events = list(self.events)
        g.moves = list(self.moves)
        g.keep_undo = keep_undo
        g._undo = list(self._undo) if keep_undo else []
        g._legal_cache = None
        g._seen = VisibleLog(self.n)
        return g

    def play_random(self, seed: Given = None, max_moves: Given = 100_000
                    ) -> Game:
        """Play uniformly random legal moves until the hand ends; return ``self``.
        ``seed`` is a number or a ``random.Random`` to draw from; after ``max_moves`` moves
        without an end it raises ``RuntimeError`` (a bug: every rule set's hands end)."""
        if not (seed is None or isinstance(seed, random.Random) or whole_number(seed) is not None):
            raise SetupError(f"seed must be a whole number, a random.Random or None, not "
                             f"{quote(seed)}")
        limit = whole_number(max_moves)
        if limit is None or limit < 1:
            raise SetupError(f"max_moves must be a whole number of at least 1, not "
                             f"{quote(max_moves)}")
        max_moves = limit
        rng = (seed if isinstance(seed, random.Random)
               else random.Random(None if seed is None else whole_number(seed)))
        for _ in range(max_moves):
            if self.result:
                return self
            moves = self.legal_moves()
            self.push(moves[rng.randrange(len(moves))])
        raise RuntimeError(f"the hand did not end within {max_moves} moves")

    def __str__(self) -> str:
        return game_text(self)

    def __repr__(self) -> str:
        state = "over" if self.result else f"seat {self.to_play} to play"
        return f"<Game {self.rules.name} {self.n} players, {state}, {len(self.moves)} moves>"

    def _repr_html_(self) -> str | None:
        return html_of(self)


_STATE = tuple(k for k in _FIELDS if k not in _NOT_STATE)


_T = TypeVar("_T")
_A14 = ("A14",)  # the last-card call


def _shuffle(rng: random.Random, cards: list[_T]) -> None:
    """``rng.shuffle(cards)``, the same permutation without a Python call per card: CPython's
    Fisher-Yates with ``getrandbits`` rejection sampling, inlined (every simulated hand starts
    with one; tests check it against ``random.shuffle``)."""
    getrandbits = rng.getrandbits
    for i, k in _shuffle_steps(len(cards)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """``(i, bits)`` for each step of a Fisher-Yates shuffle of ``size`` cards."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


SAME_RANK = tuple(frozenset(x for x in CARDS if x.rank == c.rank and x != c) for c in CARDS)
"""``SAME_RANK[card]``: the other cards of its rank."""




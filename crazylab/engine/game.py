"""One hand of any Crazy Eights rule set: the state, its legal moves, push and undo.

The shape follows python-chess: a :class:`Game` holds a position, ``legal_moves()`` generates
:class:`~crazylab.engine.moves.Move` objects, ``push()`` plays one (a ``Move`` or its text) and
``undo()`` takes it back. Rule sets differ only by their :class:`~crazylab.engine.rules.RuleSet`
data; the special cards of Crazy Breens are effects in :mod:`crazylab.engine.variants.breens`.

A turn is a small state machine. ``phase`` is ``"play"`` at the start of a turn (and while
drawing until playable), ``"chain"`` in the musical game once the player has played or drawn,
and the effects add their own phases (a Queen's drop, a penalty to resolve). ``"over"`` ends it.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import (
    JOKER,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    display,
    sort_key,
)
from .events import Event
from .moves import DRAW, DRAW_MOVE, END, END_MOVE, PASS, PASS_MOVE, PLAY, Move, MoveError
from .pitch import (
    LETTERS,
    PITCH_NAMES,
    PitchError,
    describe_interval,
    describe_intervals,
    describe_letter_step,
    parse_letter,
    parse_pitch,
)
from .rules import RuleSet
from .rules import rules as get_rules

if TYPE_CHECKING:
    from .observe import Observation


class IllegalMove(ValueError):
    """A move that is not legal now. The message says why; the game is unchanged."""


class SetupError(ValueError):
    """A position or deck that cannot exist under the rule set."""


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: ``reason`` is ``OUT``, ``BLOCKED`` or ``VOID``."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]


# attributes that are configuration or logs, not state to snapshot for undo
_NOT_STATE = frozenset({"rules", "n", "seed", "dealer", "events", "moves", "keep_undo",
                        "_undo", "_legal_cache", "_fits", "_one_pile", "_references", "setup",
                        "title"})


def _clone(value: Any) -> Any:
    if isinstance(value, list):
        return [_clone(v) for v in value] if value and isinstance(value[0], list) else value[:]
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    return value


class Game:
    """A hand in progress. Create one with :meth:`new`, :meth:`from_deck` or
    :meth:`from_position`; every random step uses the game's ``seed``."""

    __slots__ = (
        # configuration and logs (not snapshot for undo: see _NOT_STATE)
        "rules", "n", "seed", "dealer", "keep_undo", "title", "events", "moves", "setup",
        "_undo", "_legal_cache", "_fits", "_one_pile", "_references",
        # the position
        "hands", "stock_cards", "piles", "calls", "refs", "to_play", "phase", "turn_draws",
        "turn_plays", "drawn", "reshuffles", "idle", "random_count", "result", "over", "turns",
        "skipping",
        # Crazy Breens state: effects._ensure_state sets it on Breens games only (its absence
        # marks any other game)
        "br_actor", "br_starter", "br_wait", "br_hits", "br_source", "penalties", "br_jack",
    )
    br_actor: int
    br_starter: bool
    br_wait: str
    br_hits: list[int]
    br_source: int
    penalties: list[list[int]]
    br_jack: Card | None

    # -- creation ------------------------------------------------------------------------

    def __init__(self, rules: RuleSet | str, players: int, *, seed: int | None = None,
                 dealer: int | None = None, keep_undo: bool = True) -> None:
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        r = self.rules
        if not isinstance(players, int) or not r.min_players <= players <= r.max_players:
            raise SetupError(f"{r.name} is for {r.min_players}-{r.max_players} players, "
                             f"not {players}")
        self.n = players
        self.seed = random.randrange(2**62) if seed is None else int(seed)
        self.dealer = players - 1 if dealer is None else dealer
        if not 0 <= self.dealer < players:
            raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
        self.keep_undo = keep_undo
        self.title = ""
        self.events: list[Event] = []
        self.moves: list[Move] = []
        self.setup: dict[str, Any] = {}
        self._undo: list[dict[str, Any]] = []
        self._legal_cache: list[Move] | None = None
        self._fits = () if r.stacking else _single_fits(r)
        self._one_pile = self._fits[0] if self._fits and r.piles == 1 else None
        self._references = r.references  # the rule set's table, at hand for every play
        # state
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock_cards: list[Card] = []  # top of the stock is the END of this list
        self.piles: list[list[Card]] = [[] for _ in range(r.piles)]
        self.calls: list[int | None] = [None] * r.piles
        self.refs: list[int] = [0] * r.piles
        self.to_play = (self.dealer + 1) % players
        self.phase = "play"
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

    @classmethod
    def new(cls, rules: RuleSet | str, players: int = 2, seed: int | None = None, *,
            dealer: int | None = None, keep_undo: bool = True) -> Game:
        """Shuffle a fresh deck with ``seed`` and deal it."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        deck = list(game.rules.deck)
        _shuffle(random.Random(game.seed), deck)
        game._deal(deck)
        game.setup = {"seed": game.seed, "dealer": game.dealer}
        return game

    @classmethod
    def from_deck(cls, rules: RuleSet | str, players: int, deck: list[Card | str], *,
                  seed: int | None = None, dealer: int | None = None,
                  keep_undo: bool = True) -> Game:
        """Deal a stacked deck (``deck[0]`` is the top card) exactly as the rules say."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        cards_ = game._parse_cards(deck, "deck")
        game._check_counts(cards_)
        needed = players * game.rules.hand_size_for(players) + game.rules.piles
        if len(cards_) < needed:
            raise SetupError(f"the deck has {len(cards_)} cards but dealing {players} hands and "
                             f"the starter needs at least {needed}")
        game._deal(cards_)
        game.setup = {"deck": [str(c) for c in cards_], "dealer": game.dealer,
                      "seed": game.seed}
        return game

    @classmethod
    def from_position(cls, rules: RuleSet | str, players: int, *, hands: list[list[Any]],
                      stock: Sequence[Any] = (), discard: list[Any] | None = None,
                      piles: list[list[Any]] | None = None, to_play: int = 0,
                      suit: str | None = None, pitch: str | None = None,
                      seed: int | None = None, dealer: int | None = None,
                      keep_undo: bool = True) -> Game:
        """A dealt position, possibly partial (unplaced cards are out of play).
        ``stock`` is top first; each discard pile is bottom first, top last."""
        game = cls(rules, players, seed=seed, dealer=dealer, keep_undo=keep_undo)
        r = game.rules
        if len(hands) != players:
            raise SetupError(f"hands lists {len(hands)} seats but the game has {players} players")
        if (discard is None) == (piles is None):
            raise SetupError("give the discard pile as either 'discard' or 'piles'")
        pile_lists = [discard] if piles is None else piles
        if len(pile_lists) != r.piles:
            raise SetupError(f"{r.name} has {r.piles} discard pile(s), not {len(pile_lists)}")
        game.hands = [game._parse_cards(h, f"hand {i}") for i, h in enumerate(hands)]
        game.stock_cards = game._parse_cards(stock, "stock")[::-1]
        game.piles = [game._parse_cards(p, f"pile {i}") for i, p in enumerate(pile_lists)]
        if any(not p for p in game.piles):
            raise SetupError("every discard pile needs at least its top card")
        game._check_counts([c for h in game.hands for c in h] + game.stock_cards
                           + [c for p in game.piles for c in p])
        if not isinstance(to_play, int) or not 0 <= to_play < players:
            raise SetupError(f"to_play must be a seat from 0 to {players - 1}, not {to_play!r}")
        game.to_play = to_play
        call = suit if suit is not None else pitch
        for p in range(r.piles):
            top = game.piles[p][-1]
            if call is not None:
                if not r.calls_on_play(top):
                    raise SetupError(f"a call is in force only on a wild card, not on {top}")
                game.calls[p] = game._parse_call(call)
            elif r.calls_on_play(top) and (top.is_joker or r.call_kind != "suit"):
                raise SetupError(f"the top card {top} is wild: give the call in force "
                                     "('suit' or 'pitch')")
            game._update_ref(p)
        for i, hand in enumerate(game.hands):
            game.events.append(Event("dealt", i, tuple(hand), count=len(hand)))
        game._begin_turn()
        game.setup = {"hands": [[str(c) for c in h] for h in game.hands],
                      "stock": [str(c) for c in game.stock],
                      "piles": [[str(c) for c in p] for p in game.piles],
                      "to_play": to_play, "dealer": game.dealer, "seed": game.seed}
        if call is not None:
            game.setup["suit" if r.call_kind == "suit" else "pitch"] = call
        return game

    def _parse_cards(self, items: Any, where: str) -> list[Card]:
        if isinstance(items, str) or not hasattr(items, "__iter__"):
            raise SetupError(f"{where} must be a list of cards, not {items!r}")
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
            self.events.append(Event("dealt", seat, tuple(hand), count=len(hand)))
        for p in range(r.piles):
            self._turn_starter(p)
        if r.specials:
            from .variants import breens as effects

            effects.starter(self)
        self._begin_turn()

    def _turn_starter(self, pile: int) -> None:
        r = self.rules
        for _ in range(200):
            c = self._take_from_stock()
            if c is None:
                raise SetupError("the stock ran out while turning a starter")
            buried = (c.is_joker and r.starter_joker == "rebury") or (
                c.rank == 8 and not c.is_joker and r.starter_eight == "rebury")
            if buried and self.stock_cards:
                self._bury(c)
                self.events.append(Event("buried", None, (c,), pile=self._pile_label(pile)))
                continue
            self.piles[pile].append(c)
            self._update_ref(pile)
            self.events.append(_event("starter", None, (c,), pile=self._pile_label(pile)))
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

    def hand(self, seat: int) -> list[Card]:
        return sorted(self.hands[seat], key=sort_key)

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

    def active_suit(self, pile: int = 0) -> int | None:
        """The suit the next play must follow on ``pile``: the call in force, else the top's."""
        if self.rules.call_kind != "suit":
            return None
        call = self.calls[pile]
        return call if call is not None else self.piles[pile][-1].suit

    @property
    def suit(self) -> str | None:
        """The suit in force on pile 0 (``"D"``), or ``None`` where suits do not count."""
        s = self.active_suit(0)
        return None if s is None else SUITS[s]

    def reference(self, pile: int = 0) -> str | None:
        """The pitch (or letter) a pile asks for in the music-only levels, else ``None``."""
        kind = self.rules.call_kind
        if kind == "suit":
            return None
        return self.rules.format_call(self.refs[pile])

    @property
    def pitch(self) -> str | None:
        return self.reference(0)

    def pitch_of(self, pile: int = 0) -> str | None:
        """The pitch class name of a pile's top card or call (for every musical rule set)."""
        call, top = self.calls[pile], self.piles[pile][-1]
        if self.rules.call_kind == "pitch" and call is not None:
            return PITCH_NAMES[call]
        if self.rules.call_kind == "letter" and call is not None:
            return LETTERS[call]
        pc = self.rules.pitches.pitch(top)
        return None if pc is None else PITCH_NAMES[pc]

    def _pile_label(self, pile: int) -> int | None:
        return pile if self.rules.piles > 1 else None

    def _update_ref(self, pile: int) -> None:
        call = self.calls[pile]
        self.refs[pile] = self._references[self.piles[pile][-1]][
            0 if call is None else call + 1]

    # -- legal moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play, each exactly once."""
        legal = self._legal_cache
        if legal is None:
            phase = self.phase
            if phase == "play":
                legal = self._legal_play()
            elif phase == "chain":
                legal = self._legal_chain()
            elif phase == "over":
                legal = []
            else:
                from .variants import breens as effects

                legal = effects.legal(self)
            self._legal_cache = legal
        return legal

    def legal(self) -> list[str]:
        """The legal moves in canonical notation."""
        return [str(m) for m in self.legal_moves()]

    def is_legal(self, move: Move | str) -> bool:
        try:
            return self._accept(self._canonical(move)) is not None
        except ValueError:  # not a move at all (bad card, call or pile text)
            return False

    def playable_cards(self, seat: int | None = None) -> list[Card]:
        """Cards of ``seat``'s hand that fit some pile now (ignoring whose turn it is)."""
        seat = self.to_play if seat is None else seat
        return sorted({c for c in self.hands[seat] if self._fits_any(c)}, key=sort_key)

    def _fits_any(self, c: Card) -> bool:
        accepts = self.rules.accepts
        return any(c in accepts[ref] for ref in self.refs)

    def _legal_play(self) -> list[Move]:
        r = self.rules
        plays = self._plays(self.hands[self.to_play])
        if r.chain:  # musical game: play, or draw two (always possible, MU-Q37)
            return plays + [DRAW_MOVE] if (plays == [] or r.optional_play) else plays
        if plays and not r.voluntary_draw and (r.must_play_drawn or not self.turn_draws):
            return plays  # the usual case: play one of them
        limit_ok = self.turn_draws < r.draws_per_turn
        if plays:
            if r.voluntary_draw and self.stock_cards and limit_ok:
                return plays + [DRAW_MOVE]
            if self.turn_draws and not r.must_play_drawn:
                return plays + [PASS_MOVE]
            return plays
        return [DRAW_MOVE] if limit_ok and self._can_draw() else [PASS_MOVE]

    def _legal_chain(self) -> list[Move]:
        hand = self.hands[self.to_play]
        if (self.turn_plays == 0 and self.rules.post_draw_first_card == "drawn_only"):
            hand = list(filter(hand.__contains__, self.drawn))  # the drawn cards still held
        return self._plays(hand) + [END_MOVE]

    def _plays(self, hand: list[Card]) -> list[Move]:
        """Every play from ``hand``: each legal card (or same-rank stack) on each pile where it
        fits, once per possible call (in card order, then pile order)."""
        one_pile = self._one_pile
        if one_pile is None:
            return self._plays_any(hand)
        # the common case (one pile, one card at a time), kept lean: set operations run in C,
        # and no comprehension (its closure would cost every call)
        fits = one_pile[self.refs[0]]
        fitting = fits.keys() & hand
        if len(fitting) < 2:
            return list(fits[fitting.pop()]) if fitting else []
        plays: list[Move] = []
        for c in sorted(fitting):  # a card's int order is its sort_key order
            plays += fits[c]
        return plays

    def _plays_any(self, hand: list[Card]) -> list[Move]:
        """:meth:`_plays` on several piles, or with same-rank stacks."""
        r = self.rules
        if not r.stacking:  # one card at a time on several piles
            on_piles = [self._fits[p][ref] for p, ref in enumerate(self.refs)]
            return [m for c in sorted(set().union(*(f.keys() & hand for f in on_piles)))
                    for fits in on_piles for m in fits.get(c, ())]
        tables = [r.accepts[ref] for ref in self.refs]
        fitting = set().union(*(t.intersection(hand) for t in tables))
        out: list[Move] = []
        multi = r.piles > 1
        for c in sorted(fitting):  # a card's int order is its sort_key order
            piles = [p for p, t in enumerate(tables) if c in t] if multi else [0]
            rest = list(hand)
            rest.remove(c)
            stacks = _ordered_stacks(c, [x for x in rest if x.rank == c.rank])
            calls = r.call_texts if r.calls_on_play(c) else (None,)
            for p in piles:
                for stack in stacks:
                    for call in calls:
                        out.append(_move(stack, call, p if multi else None))
        return out

    def _can_draw(self) -> bool:
        """Whether a card can be obtained now: stock, or a reshuffle the rules allow."""
        return bool(self.stock_cards) or self._can_reshuffle()

    def _can_reshuffle(self) -> bool:
        r = self.rules
        if r.reshuffle == "never" or (r.reshuffle == "limited"
                                      and self.reshuffles >= r.max_reshuffles):
            return False
        return any(len(p) > 1 for p in self.piles)

    # -- playing -------------------------------------------------------------------------------

    def push(self, move: Move | str, seat: int | None = None) -> Move:
        """Play ``move`` (a :class:`Move` or its text) for the seat to play. Raises
        :class:`IllegalMove` with the reason, leaving the game unchanged."""
        if seat is not None and seat != self.to_play and not self.over:
            raise IllegalMove(f"It is seat {self.to_play}'s turn, not seat {seat}'s.")
        legal = self._legal_cache
        applied: Move | None
        if legal is not None and move.__class__ is Move and move in legal:
            m = applied = move  # already canonical and legal (bots, simulations)
        else:
            try:
                m = self._canonical(move)
            except (MoveError, PitchError, CardError) as e:
                raise IllegalMove(str(e)) from None
            applied = self._accept(m)
            if applied is None:
                raise IllegalMove(self.explain(m))
        if not self.keep_undo:  # fast path (simulations): no snapshot, so no rollback either
            self.moves.append(m)
            self._legal_cache = None
            self._apply(applied)
            return m
        snapshot = self._snapshot()
        self._undo.append(snapshot)
        self.moves.append(m)
        self._legal_cache = None
        try:
            self._apply(applied)
        except Exception:
            self._restore(snapshot)
            self._undo.pop()
            raise
        return m

    def push_many(self, moves: list[Move | str] | str) -> None:
        for m in moves.split() if isinstance(moves, str) else moves:
            self.push(m)

    def undo(self) -> Move:
        """Take back the last move exactly; raise ``IndexError`` if there is none."""
        if not self._undo:
            raise IndexError("there is no move to undo")
        move = self.moves[-1]
        self._restore(self._undo.pop())
        return move

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

    def fingerprint(self) -> tuple:
        """A hashable summary of the whole state (tests compare it before and after)."""
        state = self._snapshot()
        return tuple(sorted((k, repr(v)) for k, v in state.items()))

    def _canonical(self, move: Move | str) -> Move:
        m = Move.parse(move)
        if m.kind != PLAY:
            return m
        call = self._format_call_text(m.call) if m.call is not None else None
        pile = m.pile
        if pile is not None and self.rules.piles == 1 and pile == 0:
            pile = None
        if pile is None and self.rules.piles > 1:
            candidates = {x.pile for x in self.legal_moves()
                          if x.kind == PLAY and x.cards == m.cards}
            if len(candidates) == 1:
                pile = candidates.pop()
        return _move(m.cards, call, pile)

    def _format_call_text(self, text: str) -> str:
        kind = self.rules.call_kind
        if kind == "suit":
            from .cards import parse_suit

            return SUITS[parse_suit(text)]
        if kind == "letter":
            return LETTERS[parse_letter(text)]
        return PITCH_NAMES[parse_pitch(text)]

    def _parse_call(self, text: str) -> int:
        calls = self.rules.call_texts
        if text in calls:  # canonical already (every legal move's call)
            return calls.index(text)
        try:
            canonical = self._format_call_text(str(text))
        except (CardError, PitchError) as e:
            raise SetupError(str(e)) from None
        kind = self.rules.call_kind
        if kind == "suit":
            return SUITS.index(canonical)
        return LETTERS.index(canonical) if kind == "letter" else PITCH_NAMES.index(canonical)

    def _accept(self, m: Move) -> Move | None:
        """The move to apply if ``m`` is legal; a wild that empties the hand may omit its call
        (C-10)."""
        legal = self.legal_moves()
        if m in legal:
            return m
        if (m.kind == PLAY and m.call is None and self.rules.calls_on_play(m.top)
                and len(m.cards) == len(self.hands[self.to_play])
                and self.phase != "declare"):  # a Breens declaration is no play (effects.py)
            first = self.rules.format_call(0)
            if _move(m.cards, first, m.pile) in legal:
                return m
        return None

    def _apply(self, m: Move) -> None:
        """Apply a legal move: the core phases here, the effects' own phases (Crazy Breens)
        in :mod:`crazylab.engine.variants.breens`."""
        phase, kind = self.phase, m.kind
        if phase == "play" or phase == "chain":
            if kind == PLAY:
                return self._play(m)
            if kind == DRAW:
                return self._draw_turn()
            if kind == PASS and phase == "play":
                self.events.append(_event("passed", self.to_play))
                return self._end_turn()
            if kind == END and phase == "chain":
                return self._end_turn()
        from .variants import breens as effects

        effects.apply(self, m)

    def _play(self, m: Move) -> None:
        seat = self.to_play
        self._place(seat, m)
        self.turn_plays += len(m.cards)
        r = self.rules
        if m.cards[-1] == JOKER and not r.specials and self.n > 1:
            victim = (seat + 1) % self.n
            self._draw_cards(victim, r.joker_draw, note="(the joker's draw two)")
            if r.joker_victim_skips and victim not in self.skipping:  # MU-Q12 option
                self.skipping.append(victim)
        if not self.hands[seat]:
            self._finish_out(seat)
            return
        if r.specials:
            from .variants import breens as effects

            effects.after_play(self, seat, m)
            return
        if r.chain:
            self.phase = "chain"
        else:
            self._end_turn()

    def _place(self, seat: int, m: Move) -> None:
        """Move ``m``'s cards from ``seat``'s hand to its pile and set the call in force."""
        hand, cards, call, pile = self.hands[seat], m.cards, m.call, m.pile
        for c in cards:
            hand.remove(c)
        p = pile or 0
        self.piles[p] += cards
        top = cards[-1]
        value = (self._parse_call(call)
                 if call is not None and self.rules.calls_on_play(top) else None)
        self.calls[p] = value
        self._update_ref(p)
        self.idle = 0
        fields = ("played", seat, cards, None, pile, 0, "")
        self.events.append(_EVENTS.get(fields) or _intern(fields))
        if call is not None and hand:
            self.events.append(_event("called", seat, (), call, pile))

    def _draw_turn(self) -> None:
        """The ``draw`` move on a turn: one card, or the rule's fixed number at once."""
        r = self.rules
        seat = self.to_play
        count = r.draw_limit if r.draw_rule == "fixed" else 1
        got = self._draw_cards(seat, count)
        self.turn_draws += len(got) or 1
        self.drawn += got
        if r.chain:
            self.phase = "chain"

    def _draw_cards(self, seat: int, count: int, note: str = "") -> list[Card]:
        """``seat`` takes up to ``count`` cards from the stock, reshuffling lazily."""
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
                c = self._take_from_stock()
                if c is None:
                    break
                got.append(c)
        self.hands[seat] += got
        fields = ("drew", seat, tuple(got), None, None, len(got), note)
        self.events.append(_EVENTS.get(fields) or _intern(fields))
        return got

    def _take_from_stock(self) -> Card | None:
        if not self.stock_cards:
            if not self._can_reshuffle():
                return None
            self._reshuffle()
        return self.stock_cards.pop()

    def _reshuffle(self) -> None:
        """Every discard but each pile's top card (and its call) becomes the new stock."""
        pool = [c for p in self.piles for c in p[:-1]]
        for p in range(len(self.piles)):
            del self.piles[p][:-1]
        self._rng().shuffle(pool)
        self.stock_cards = pool + self.stock_cards
        self.reshuffles += 1
        limit = (f" ({self.reshuffles} of {self.rules.max_reshuffles})"
                 if self.rules.reshuffle == "limited" else "")
        self.events.append(Event("reshuffled", None, count=len(pool), note=limit.strip()))

    def _end_turn(self) -> None:
        """Close the turn: count a stuck turn (C-13) and pass to the next seat."""
        self.turns += 1
        if self.turn_plays or self._can_draw():
            self.idle = 0
        else:
            self.idle += 1
            if self.idle >= self.n:
                self._finish_blocked()
                return
        self.to_play = (self.to_play + 1) % self.n
        # a joker's victim loses this turn (MU-Q12 option)
        while self.skipping and self.to_play in self.skipping:
            self.skipping.remove(self.to_play)
            self.events.append(Event("skipped", self.to_play,
                                     note="skipped (a joker's victim loses a turn)"))
            self.to_play = (self.to_play + 1) % self.n
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.phase = "play"
        self.turn_draws = 0
        self.turn_plays = 0
        if self.drawn:
            self.drawn = []
        if self.rules.specials:
            from .variants import breens as effects

            effects.begin_turn(self)

    # -- the end of a hand -------------------------------------------------------------------

    def hand_points(self, seat: int) -> int:
        return sum(map(self.rules.points.__getitem__, self.hands[seat]))

    def _finish_out(self, seat: int) -> None:
        r = self.rules
        if r.scoring == "winner_collects":
            scores = [0] * self.n
            scores[seat] = sum(self.hand_points(s) for s in range(self.n) if s != seat)
        elif r.scoring == "minus_one_per_card":
            scores = [-len(h) for h in self.hands]
        else:
            scores = [0] * self.n
        self._finish((seat,), "OUT", scores,
                     f"Seat {seat} played their last card and wins the hand.")

    def _finish_blocked(self) -> None:
        r, n = self.rules, self.n
        zero = [0] * n
        if r.blocked_rule == "void_redeal":
            self._finish((), "VOID", zero, "Everyone passed in a row with the stock empty: "
                         "the hand is void, nobody scores, and the same dealer redeals.")
            return
        if r.blocked_rule == "lowest_points_wins":
            pts = [self.hand_points(s) for s in range(n)]
            tied: Sequence[int] = [s for s in range(n) if pts[s] == min(pts)]
            if len(tied) > 1 and r.blocked_tiebreak == "fewest_cards_then_draw":
                fewest = min(len(self.hands[s]) for s in tied)
                tied = [s for s in tied if len(self.hands[s]) == fewest]
            if len(tied) > 1:
                self._finish(tuple(tied), "BLOCKED", zero,
                             f"The hand is blocked and seats {tied} tie: nobody scores.")
                return
            w = tied[0]
            scores = list(zero)
            if r.blocked_scoring == "difference":
                scores[w] = sum(pts[s] - pts[w] for s in range(n) if s != w)
            elif r.blocked_scoring == "opponents_total":
                scores[w] = sum(pts[s] for s in range(n) if s != w)
            self._finish((w,), "BLOCKED", scores,
                         f"The hand is blocked: seat {w} holds the fewest points ({pts[w]}) "
                         "and wins it.")
            return
        sizes = [len(h) for h in self.hands]
        tied = tuple(s for s in range(n) if sizes[s] == min(sizes))
        if r.scoring == "minus_one_per_card":
            scores = [-k for k in sizes]
        elif r.scoring == "winner_collects" and len(tied) == 1:
            scores = list(zero)
            scores[tied[0]] = sum(self.hand_points(s) for s in range(n) if s != tied[0])
        else:
            scores = zero
        self._finish(tied, "BLOCKED", scores,
                     f"The hand is blocked: fewest cards wins (seat(s) {list(tied)}).")

    def _finish(self, winners: Sequence[int], reason: str, scores: Sequence[int],
                note: str) -> None:
        self.result = HandResult(tuple(winners), reason, tuple(scores))
        self.over = True
        self.phase = "over"
        self.events.append(Event("ended", None, note=note))

    # -- explaining --------------------------------------------------------------------------

    def explain(self, move: Move | str) -> str:
        """Why ``move`` is not legal now, in words a learner understands ('' if it is)."""
        try:
            m = self._canonical(move)
        except (MoveError, PitchError, CardError) as e:
            return str(e)
        if self._accept(m) is not None:
            return ""
        if self.result:
            return "The hand is over: start a new hand to play again."
        if self.phase not in ("play", "chain"):
            from .variants import breens as effects

            return effects.explain(self, m)
        if self.rules.specials:
            from .variants import breens as effects

            why = effects.explain_turn(self, m)
            if why:
                return why
        r = self.rules
        hand = self.hands[self.to_play]
        playable = self.playable_cards()
        legal = self.legal_moves()
        if m.kind == DRAW:
            if self.phase == "chain":
                return ("You have already drawn this turn." if self.turn_draws else
                        "You have played this turn, so you cannot draw: say end to finish.")
            if not self._can_draw():
                return "The stock is empty and cannot be refilled, so you cannot draw."
            if playable and self.turn_draws and r.must_play_drawn:
                return (f"You drew a card you can play ({display(playable)}), so you must "
                        "play it.")
            if playable and not r.voluntary_draw:
                return (f"You can play {display(playable)}, and these rules say you must play "
                        "when you can instead of drawing.")
            if r.voluntary_draw and not self.stock_cards:
                return "The stock is empty, so you cannot draw."
            return (f"You have drawn {self.turn_draws} card(s), the most these rules allow in "
                    "one turn.")
        if m.kind == PASS:
            if r.chain:
                return "There is no pass in this game: play, draw two, or say end."
            if playable:
                return (f"You cannot pass while you can play ({display(playable)}).")
            return "You cannot pass while you can still draw from the stock."
        if m.kind == END:
            if not r.chain and not r.specials:
                return "There is no turn to end: play a card, draw or pass."
            return "Play a card or draw before you end your turn."
        return self._explain_play(m, hand, legal)

    def _explain_play(self, m: Move, hand: list[Card], legal: list[Move]) -> str:
        r = self.rules
        if len(m.cards) > 1 and not r.stacking:
            return ("Only one card may be played at a time in these rules"
                    + (" (chain them one by one)." if r.chain else "."))
        if len({c.rank for c in m.cards}) > 1:
            return "A stack must be cards of one rank, like 2H+2S."
        for c in set(m.cards):
            if m.cards.count(c) > hand.count(c):
                return f"You do not hold {c.display}."
        c = m.card
        if m.pile is not None and not 0 <= m.pile < r.piles:
            return (f"There is no pile {m.pile}: the piles are numbered 0 to {r.piles - 1}."
                    if r.piles > 1 else "There is only one discard pile.")
        if (self.phase == "chain" and self.turn_plays == 0 and c not in self.drawn
                and r.post_draw_first_card == "drawn_only"):
            drawn = display(self.drawn) or "nothing"
            return (f"After drawing, the first card you play must be one you drew ({drawn}).")
        if self.phase == "play" and self.turn_draws and r.must_play_drawn and not r.chain:
            pass
        piles = range(r.piles) if m.pile is None else [m.pile]
        if not any(c in r.accepts[self.refs[p]] for p in piles):
            return self._mismatch(c, piles[0] if len(piles) == 1 else None)
        if r.piles > 1 and m.pile is None:
            options = sorted({x.pile for x in legal
                              if x.kind == PLAY and x.cards == m.cards and x.pile is not None})
            return f"Say which pile: {' or '.join(f'{c}@{p}' for p in options)}."
        if m.call is None and r.calls_on_play(m.top):
            calls = ", ".join(f"{m.top}:{r.format_call(v)}" for v in r.call_values[:4])
            what = {"suit": "a suit", "letter": "a letter", "pitch": "a pitch"}[r.call_kind]
            return f"Playing {m.top.display} needs {what} to be called, e.g. {calls}."
        if m.call is not None and not r.calls_on_play(m.top):
            if m.top.rank == 8 and r.eights == "own_suit":
                return (f"In this game an eight takes its own suit: play {m.top} with no call.")
            return f"{m.top.display} calls nothing: play it as {'+'.join(map(str, m.cards))}."
        return f"{m} is not legal now. Legal moves: {', '.join(map(str, legal))}."

    def _mismatch(self, c: Card, pile: int | None) -> str:
        """Why card ``c`` fits no pile (or the given pile)."""
        r = self.rules
        piles = range(r.piles) if pile is None else [pile]
        reasons = []
        for p in piles:
            top, call = self.piles[p][-1], self.calls[p]
            where = f" on pile {p}" if r.piles > 1 else ""
            if r.call_kind == "suit":
                suit = self.active_suit(p)
                if call is not None:  # the called suit is the active one
                    reasons.append(f"after {top.display} the called suit is {SUIT_SYMBOLS[call]}"
                                   f": play a {SUIT_NAMES[call][:-1]} or an eight")
                elif r.matching == "suit_rank":
                    reasons.append(f"{c} matches neither the rank nor the suit of {top}")
                else:
                    if suit is None:  # a joker with no call in force: nothing to follow
                        reasons.append(f"{top.display} has no suit or pitch in force, so only "
                                       "an eight or a joker fits")
                    elif r.pitches.pitch(top) is None:
                        reasons.append(f"{top.display} has no pitch, so only a "
                                       f"{SUIT_NAMES[suit][:-1]}, an eight or a joker fits")
                    else:
                        reasons.append(
                            f"{c} ({r.pitches.spelling(c) or 'no pitch'}) matches neither the "
                            f"suit {SUIT_SYMBOLS[suit]} nor the pitch "
                            f"{r.pitches.spelling(top)} of {top}")
            elif r.call_kind == "letter":
                ref = self.refs[p]
                near = f"{LETTERS[(ref - 1) % 7]} or {LETTERS[(ref + 1) % 7]}"
                letter = r.pitches.letter(c)
                if letter is None:
                    rel = "not a letter of the musical alphabet"
                elif letter == ref:
                    rel = f"{LETTERS[ref]} too, and the same letter never counts (MU-29)"
                else:
                    step = describe_letter_step(ref, letter)
                    rel = f"{LETTERS[letter]}, {step} from {LETTERS[ref]}"
                reasons.append(f"{c} is {rel}{where}; on {LETTERS[ref]} you may play {near} "
                               "(one letter step up or down)")
            else:
                ref = self.refs[p]
                pc = r.pitches.pitch(c)
                if pc is None:  # a rank the pitch map leaves out
                    reasons.append(f"{c} has no pitch in the {r.pitch_map} pitch map, so it "
                                   "never fits (only eights and jokers are wild)")
                    continue
                rel = (f"the same pitch as {PITCH_NAMES[ref]}{where}, and a unison never counts "
                       "(MU-29)" if pc == ref else
                       f"{describe_interval((pc - ref) % 12)} from {PITCH_NAMES[ref]}{where}")
                reasons.append(f"{c} ({r.pitches.spelling(c)}) is {rel}")
        if r.call_kind == "pitch":
            reasons.append(f"this level accepts {describe_intervals(r.intervals)}")
        return "; ".join(reasons)[0].upper() + "; ".join(reasons)[1:] + "."

    # -- views ---------------------------------------------------------------------------------

    def public_extra(self) -> dict[str, Any]:
        """Public state of a rule set's effects (Crazy Breens: pending hits), else ``{}``."""
        if not self.rules.specials:
            return {}
        from .variants import breens as effects

        return effects.public_extra(self)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand, the public table, and its legal moves."""
        from .observe import Observation

        return Observation.of(self, seat)

    def copy(self, keep_undo: bool = False) -> Game:
        """An independent copy of this game (without undo history unless asked)."""
        g = Game.__new__(Game)
        for k in Game.__slots__:
            if hasattr(self, k):
                setattr(g, k, _clone(getattr(self, k)))
        g.events = list(self.events)
        g.moves = list(self.moves)
        g.keep_undo = keep_undo
        g._undo = list(self._undo) if keep_undo else []
        g._legal_cache = None
        return g

    def play_random(self, seed: random.Random | int | None = None, max_moves: int = 100_000
                    ) -> Game:
        """Play uniformly random legal moves until the hand ends; return ``self``.
        ``seed`` is a number or a ``random.Random`` to draw from."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        for _ in range(max_moves):
            if self.result:
                return self
            moves = self.legal_moves()
            self.push(moves[rng.randrange(len(moves))])
        raise RuntimeError(f"the hand did not end within {max_moves} moves")

    def to_json(self, title: str = "") -> dict[str, Any]:
        """The game as a worked-example file (setup plus every move), loadable again with
        :func:`crazylab.examples.load_game`."""
        from ..examples import game_to_example

        return game_to_example(self, title)

    def __str__(self) -> str:
        from ..render import game_text

        return game_text(self)

    def __repr__(self) -> str:
        state = "over" if self.result else f"seat {self.to_play} to play"
        return f"<Game {self.rules.name} {self.n} players, {state}, {len(self.moves)} moves>"

    def _repr_html_(self) -> str:
        from ..render import game_html

        return game_html(self)


_STATE = tuple(k for k in Game.__slots__ if k not in _NOT_STATE)


def _shuffle(rng: random.Random, cards: list[Card]) -> None:
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


def _ordered_stacks(first: Card, same: list[Card]) -> list[tuple[Card, ...]]:
    """Every ordered stack starting with ``first`` and continuing with distinct others
    (identical cards such as two jokers are listed once)."""
    out: set[tuple[Card, ...]] = {(first,)}
    for k in range(1, len(same) + 1):
        for combo in itertools.permutations(same, k):
            out.add((first, *combo))
    return sorted(out, key=lambda s: (len(s), [sort_key(c) for c in s]))


_MOVES: dict[tuple, Move] = {}


def _single_fits(r: RuleSet) -> tuple[tuple[dict[Card, tuple[Move, ...]], ...], ...]:
    """``fits[pile][reference][card]``: the interned one-card plays of ``card`` on ``pile``
    when its reference is ``reference`` (one per call it makes), for the cards that fit
    there. Built once per rule set."""
    fits = r.engine_tables.get("single_fits")
    if fits is None:
        fits = r.engine_tables["single_fits"] = tuple(
            tuple({c: tuple(_move((c,), call, p if r.piles > 1 else None)
                            for call in (r.call_texts if r.calls_on_play(c) else (None,)))
                   for c in sorted(accepted)}
                  for accepted in r.accepts)
            for p in range(r.piles))
    return fits  # type: ignore[return-value]


_EVENTS: dict[tuple, Event] = {}
"""Interned events by their fields (events are immutable, so equal ones can be shared): the
log gets one or two per move, and looking one up is cheaper than building it. The hot paths
look up ``_EVENTS.get(fields) or _intern(fields)`` inline."""


def _intern(fields: tuple) -> Event:
    if len(_EVENTS) >= 100_000:  # bounded: long draws make many distinct keys
        _EVENTS.clear()
    e = _EVENTS[fields] = Event._make(fields)
    return e


def _event(kind: str, seat: int | None, cards: tuple[Card, ...] = (), call: str | None = None,
           pile: int | None = None, count: int = 0, note: str = "") -> Event:
    """An interned :class:`Event`."""
    fields = (kind, seat, cards, call, pile, count, note)
    return _EVENTS.get(fields) or _intern(fields)


def _move(cards: tuple[Card, ...], call: str | None, pile: int | None) -> Move:
    """An interned play move."""
    key = (cards, call, pile)
    m = _MOVES.get(key)
    if m is None:
        m = _MOVES[key] = Move(PLAY, cards, call, pile)
    return m



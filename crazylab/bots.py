"""Computer opponents: a bot sees one seat's :class:`~crazylab.engine.observe.Observation` only.

The protocol is one method, ``choose(observation, rng) -> Move``: the observation holds the
seat's own hand, the public table and ``observation.legal``; ``rng`` is a
:class:`random.Random` that the caller owns, so a game played by bots is reproducible from
its seeds. Three levels:

* :class:`RandomBot` (``"random"``): a uniformly random legal move;
* :class:`RuleBot` (``"rules"``): rules of thumb — keep eights and jokers for last, follow the
  suit you hold most of, shed high-scoring cards first, call the suit you hold most of,
  counter when hit in Crazy Breens;
* :class:`MonteCarloBot` (``"mc"``): determinized Monte Carlo — deal the cards it cannot see
  at random, consistently with what it can see, play the candidate moves out in the same
  worlds for a few moves (``depth``) and score the position by the cards each seat holds,
  drop a move that is not ahead of the rules of thumb's after a first look (a clear choice
  stops early) and the worse half round by round (successive halving), and keep the rules
  of thumb's move unless another does clearly better.

Every setting is checked where the bot is made (:class:`BotError`, a ``CrazylabError``,
naming the setting, what was given and what is allowed): ``playouts`` from 1 to
:data:`MAX_PLAYOUTS`, ``greedy`` from 0 to 1, ``time_limit`` above 0 and at most
:data:`MAX_TIME_LIMIT` seconds; and ``choose`` refuses an observation with no legal move.

>>> import random, crazylab as cl
>>> game = cl.Game.new("crazy-eights-quick", players=2, seed=3)
>>> bot = make_bot("rules")
>>> move = bot.choose(game.observation(game.to_play), random.Random(0))
>>> move in game.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .engine.cards import CARDS, EIGHT, Card
from .engine.events import CALLED, DEALT, DREW, PASSED, PLAYED, RESHUFFLED, STARTER
from .engine.game import Game
from .engine.moves import DRAW, END, PASS, PLAY, Move
from .engine.observe import Observation
from .engine.phases import PHASE_CHAIN, PHASE_DECLARE, PHASE_DROP, PHASE_PENALTY, PHASE_PLAY
from .engine.rules import RuleSet
from .errors import quote
from .playout import BotError, RandomBot, check_choice, check_name, play_hand

__all__ = [
    "BOTS", "MAX_DEPTH", "MAX_PLAYOUTS", "MAX_TIME_LIMIT", "Bot", "BotError", "MonteCarloBot",
    "RandomBot", "RuleBot", "bot_name", "determinize", "hand_constraints", "make_bot", "play_hand",
    "play_out", "worlds",
]

#: the most playouts a Monte Carlo decision may ask for (``mc:10000``)
MAX_PLAYOUTS = 10_000
#: the longest ``time_limit`` of one Monte Carlo decision, in seconds
MAX_TIME_LIMIT = 600.0
#: the longest ``depth`` of a Monte Carlo playout, in moves
MAX_DEPTH = 2000
#: with ``cull``, the fewest worlds the first round deals before a challenger may be dropped
FIRST_LOOK = 4
#: the moves a playout to the end of the hand (``depth=None``) may take at most
_MAX_ROLLOUT = 2000


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(observation, rng) -> Move`` (and, for tables, a ``name``)."""

    @property
    def name(self) -> str: ...  # read-only, so frozen dataclasses qualify

    def choose(self, obs: Observation, rng: random.Random) -> Move: ...


# -- rules of thumb ------------------------------------------------------------------------


def _reference(rules: RuleSet, top: Card, call: int | None) -> int:
    return rules.references[top][0 if call is None else call + 1]


def _call_value(rules: RuleSet, text: str | None) -> int | None:
    return None if text is None else rules.call_texts.index(text)


def rule_key(rules: RuleSet, hand: Sequence[Card], refs: Sequence[int], phase: str,
             turn_plays: int, move: Move) -> tuple[int, int, int, int, int]:
    """How much the rules of thumb like ``move`` (bigger is better), from public facts and the
    mover's own hand only. In order: going out; not spending a wild card (an eight or a
    joker is kept for last; a counter in a penalty is always welcome); cards shed; how many of
    the cards left fit the table afterwards (this follows, and calls, the suit held most);
    points shed (high-scoring cards go first)."""
    if move.kind != PLAY:
        # drawing beats a wild only when nothing else can be played; ending a turn (or
        # declining a drop) beats spending a wild; passing is what is left
        kind = move.kind  # (an if chain, not a dict built on every call: a hot path)
        if kind == DRAW:
            return (0, 1, 0, 0, 0)
        if kind == END:
            return (0, 2 if turn_plays or phase == PHASE_DROP else 0, 0, 0, 0)
        if kind == PASS:
            return (0, 0, 0, 0, 0)
        raise KeyError(kind)
    cards = move.cards
    rest = list(hand)
    if phase == PHASE_DECLARE:  # naming the suit of a wild already on the table (Crazy Breens)
        cards = ()
    else:
        if len(cards) >= len(hand):
            return (1, 0, 0, 0, 0)
        for c in cards:
            rest.remove(c)
    top = move.cards[-1]
    ref = _reference(rules, top, _call_value(rules, move.call)
                     if rules.calls_on_play(top) else None)
    if len(refs) == 1:
        fits = sum(map(rules.accepts[ref].__contains__, rest))
    else:
        tables = [rules.accepts[x] for x in refs]
        tables[move.pile or 0] = rules.accepts[ref]
        fits = sum(1 for c in rest if any(c in t for t in tables))
    wild = phase != PHASE_PENALTY and not _WILD.isdisjoint(cards)
    return (0, 1 if wild else 3, len(cards), fits, sum(map(rules.card_points, cards)))


#: eights and jokers
_WILD = frozenset(c for c in CARDS if c.rank == EIGHT or c.is_joker)


def rule_choice(rules: RuleSet, hand: Sequence[Card], refs: Sequence[int], phase: str,
                turn_plays: int, legal: Sequence[Move], rng: random.Random) -> Move:
    """The rules-of-thumb move among ``legal`` (ties broken by ``rng``)."""
    if len(legal) == 1:
        return legal[0]
    best: tuple[int, int, int, int, int] | None = None
    choices: list[Move] = []  # the moves with the best key, in legal order
    for m in legal:  # a loop, not comprehensions: their closures cost every call
        key = rule_key(rules, hand, refs, phase, turn_plays, m)
        if best is None or key > best:
            best, choices = key, [m]
        elif key == best:
            choices.append(m)
    return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]


def observed_refs(obs: Observation) -> list[int]:
    """What each discard pile accepts now (its top card and the call in force), as
    :attr:`RuleSet.references` keys."""
    r = obs.rules
    return [_reference(r, pile[-1], _call_value(r, call) if r.calls_on_play(pile[-1])
                       else None)
            for pile, call in zip(obs.piles, obs.calls, strict=True)]


@dataclass(frozen=True)
class RuleBot:
    """Rules of thumb (see :func:`rule_key`)."""

    name: str = "rules"

    def __post_init__(self) -> None:
        check_name(self.name)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        check_choice(obs, rng)
        return rule_choice(obs.rules, obs.hand, observed_refs(obs), obs.phase, obs.turn_plays,
                           obs.legal, rng)


# -- determinized Monte Carlo ----------------------------------------------------------------


def determinize(obs: Observation, rng: random.Random) -> Game | None:
    """A full game consistent with ``obs``: the seat's own hand and the public table as
    observed, and the cards it cannot see dealt at random to the other hands (their observed
    sizes) and to the stock. Where the rules force a player to play when they can, a draw or
    a pass in the public log shows that the player held nothing playable then, and the
    cards dealt to that player respect it (:func:`hand_constraints`). ``None`` where the
    observation cannot be rebuilt (a variant whose state the seat cannot see whole). Built
    on :meth:`Game.from_position`; a variant's state (the direction of play after a reverse,
    Crazy Breens' open hits, in the variant's own phases too) is rebuilt from what the seat
    sees by ``Variant.restore``."""
    check_choice(obs, rng, need_legal=False)
    if obs.over or obs.phase not in (PHASE_PLAY, PHASE_CHAIN, *_variant_phases(obs.rules)):
        return None
    return _deal_world(obs, rng, hand_constraints(obs))


def _variant_phases(rules: RuleSet) -> tuple[str, ...]:
    """The phases of a rule set's variant (Crazy Breens' hits, drops and calls), which a
    world rebuilds through ``Variant.restore``."""
    from .engine.variants import variant_for

    variant = variant_for(rules)
    return () if variant is None else tuple(variant.phases)


def _deal_world(obs: Observation, rng: random.Random,
                constraints: dict[int, list[frozenset[Card]]],
                like: Game | None = None) -> Game | None:
    """:func:`determinize` with the log's constraints worked out once per decision (they
    depend on the observation only), for an observation already checked. With ``like``, a
    world already rebuilt from the same observation, the new world is a copy of it with the
    hidden cards dealt again (the public table, the turn and the variant's state are the
    same): a copy costs a fraction of building a game."""
    r = obs.rules
    unseen = Counter(r.deck)
    unseen.subtract(obs.hand)
    for pile in obs.piles:
        unseen.subtract(pile)
    pool = list(unseen.elements())
    need = sum(n for s, n in enumerate(obs.hand_sizes) if s != obs.seat) + obs.stock_size
    if any(v < 0 for v in unseen.values()) or len(pool) < need:
        return None  # a partial position (cards out of play) that we cannot account for
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat:
            hands.append(list(obs.hand))
            continue
        slots = constraints.get(seat) or [frozenset()] * size
        hand = []
        for excluded in sorted(slots, key=len, reverse=True):  # the most constrained first
            i = next((i for i, c in enumerate(pool) if c not in excluded), 0)
            hand.append(pool.pop(i))
        hands.append(hand)
    if like is not None:
        game = like.copy()
        game.redeal_hidden(hands, pool[:obs.stock_size])
        return game
    # a wild card whose call is still to be made (a declare phase): built with a call, which
    # the restored turn takes back
    calling = [c is None and obs.phase == PHASE_DECLARE and r.calls_on_play(p[-1])
               for p, c in zip(obs.piles, obs.calls, strict=True)]
    calls = [r.call_texts[0] if pending else c
             for pending, c in zip(calling, obs.calls, strict=True)]
    game = Game.from_position(r, obs.players, hands=hands, stock=pool[:obs.stock_size][::-1],
                              piles=[list(p) for p in obs.piles], to_play=obs.to_play,
                              calls=calls, seed=rng.randrange(2**62), keep_undo=False)
    game.restore_turn(obs.phase, obs.turn_draws, obs.turn_plays, obs.drawn, obs.reshuffles,
                      _trailing_passes(obs), uncalled=[p for p, c in enumerate(calling) if c])
    if not game.hooks.restore(game, dict(obs.extra)):
        return None  # a variant whose state the seat cannot see whole
    return game


def worlds(obs: Observation, rng: random.Random) -> Iterator[Game]:
    """Worlds consistent with ``obs`` (:func:`determinize`), one after another, endlessly;
    nothing when the observation cannot be rebuilt. The log's
    constraints are worked out once, and each world after the first is dealt on a copy."""
    first = determinize(obs, rng)
    if first is None:
        return
    constraints = hand_constraints(obs)
    like = first.copy()
    yield first
    while True:
        world = _deal_world(obs, rng, constraints, like)
        assert world is not None  # the same observation rebuilt before
        yield world


def play_out(game: Game, seat: int, rng: random.Random, greedy: float = 1.0) -> float:
    """Play ``game`` to the end of its hand (rules of thumb with probability ``greedy``, else
    random moves) and return ``seat``'s share of the win (0 to 1)."""
    if not isinstance(game, Game):
        raise BotError(f"play_out needs a Game, not {quote(game)}")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise BotError(f"seat must be 0 to {game.n - 1}, not {quote(seat)}")
    if not isinstance(rng, random.Random):
        raise BotError(f"rng must be a random.Random, not {quote(rng)}")
    if not _real(greedy) or not 0 <= greedy <= 1:
        raise BotError(f"greedy must be a number from 0 to 1, not {quote(greedy)}")
    _rollout(game, rng, greedy, _MAX_ROLLOUT)
    return _reward(game, seat)


def hand_constraints(obs: Observation) -> dict[int, list[frozenset[Card]]]:
    """What the public log tells about the other hands: for each other seat, one set per card
    it holds of the cards that card cannot be. Under rules that make a player play when they
    can (no voluntary draw, no optional play), drawing or passing shows that nothing in the
    hand fitted the table at that moment; cards drawn later are unconstrained until the next
    such moment. A played card leaves from a slot that allows it. Seats whose bookkeeping
    does not add up get no constraints."""
    check_choice(obs, _SOME_RNG, need_legal=False)
    r = obs.rules
    infer_draw = not (r.voluntary_draw or r.chain or r.optional_play or r.specials)
    infer_pass = infer_draw and r.must_play_drawn
    if not infer_draw:
        return {}
    slots: dict[int, list[frozenset[Card]]] = {s: [] for s in range(obs.players)}
    tops, calls = _first_tops(obs)

    def fitting() -> frozenset[Card]:
        out: frozenset[Card] = frozenset()
        for top, call in zip(tops, calls, strict=True):
            if top is not None:
                out |= r.accepts[_reference(r, top, call)]
        return out

    for e in obs.events:
        pile = e.pile or 0
        if e.kind == STARTER or e.kind == PLAYED:
            if e.kind == PLAYED and e.seat != obs.seat:
                assert e.seat is not None  # a play always has a seat
                own = slots[e.seat]
                for c in e.cards:
                    ok = [i for i, x in enumerate(own) if c not in x]
                    if not ok:  # our picture was wrong somewhere: forget what we inferred
                        own[:] = [frozenset()] * len(own)
                        ok = list(range(len(own)))
                    if ok:
                        own.pop(max(ok, key=lambda i: len(own[i])))
            tops[pile], calls[pile] = e.cards[-1], None
        elif e.kind == CALLED:
            calls[pile] = _call_value(r, e.call)
        elif e.seat is None or e.seat == obs.seat:
            continue
        elif e.kind == DEALT:
            slots[e.seat] = [frozenset()] * e.count
        elif e.kind == DREW:
            if not e.penalty and infer_draw:
                no = fitting()
                slots[e.seat] = [x | no for x in slots[e.seat]]
            slots[e.seat] += [frozenset()] * e.count
        elif e.kind == PASSED and infer_pass:
            no = fitting()
            slots[e.seat] = [x | no for x in slots[e.seat]]
    return {s: v for s, v in slots.items()
            if s != obs.seat and len(v) == obs.hand_sizes[s]}


#: stands for a generator where only the observation is checked
_SOME_RNG = random.Random(0)


def _first_tops(obs: Observation) -> tuple[list[Card | None], list[int | None]]:
    """Each pile's top card and call before the first event of the log that sets it: unknown
    (``None``) after a starter event; in a position set up without one (``from_position``),
    the card under everything played there since, while no reshuffle has hidden it."""
    r = obs.rules
    tops: list[Card | None] = [None] * r.piles
    calls: list[int | None] = [None] * r.piles
    if any(e.kind == STARTER for e in obs.events) or obs.reshuffles:
        return tops, calls
    played = Counter((e.pile or 0) for e in obs.events if e.kind == PLAYED
                     for _ in e.cards)
    for p, pile in enumerate(obs.piles):
        k = played[p]
        if k < len(pile):
            tops[p] = pile[-k - 1]
            calls[p] = _call_value(r, obs.calls[p]) if k == 0 else None
    return tops, calls


def _trailing_passes(obs: Observation) -> int:
    """Turns in a row that ended without a play, as the public log shows them."""
    n = 0
    for e in reversed(obs.events):
        if e.kind == PASSED:
            n += 1
        elif e.kind in (PLAYED, DREW, STARTER, RESHUFFLED):
            break
    return n


def _rollout(game: Game, rng: random.Random, greedy: float, max_moves: int = 2000) -> None:
    """Play ``game`` to its end: rules of thumb with probability ``greedy``, else random."""
    r = game.rules
    for _ in range(max_moves):
        if game.result is not None:
            return
        legal = game.legal_moves()
        if len(legal) == 1:
            move = legal[0]
        elif rng.random() < greedy:
            move = rule_choice(r, game.hands[game.to_play], game.refs, game.phase,
                               game.turn_plays, legal, rng)
        else:
            move = legal[rng.randrange(len(legal))]
        game.push(move)


def _reward(game: Game, seat: int) -> float:
    """``seat``'s share of the win of a finished hand; of a hand a playout stopped short of
    its end (``depth``), its share of the weights ``exp(-cards held)`` (:func:`_score`)."""
    if game.result is None:
        return _score(game, seat)
    winners = game.winners
    return 1 / len(winners) if seat in winners else 0.0


#: ``exp(-0.7 n)`` for a hand of n cards (longer hands weigh as 60 cards: nothing)
_WEIGHTS = [math.exp(-0.7 * n) for n in range(61)]


def _score(game: Game, seat: int) -> float:
    """How well ``seat`` stands in an unfinished hand, from 0 to 1, by the cards each seat
    holds: its weight ``exp(-0.7 * cards)`` over the sum of all seats' weights (one card fewer
    than an opponent counts about twice as much)."""
    w = _WEIGHTS
    weights = [w[min(len(h), 60)] for h in game.hands]
    return weights[seat] / sum(weights)


@dataclass(frozen=True)
class MonteCarloBot:
    """Determinized (perfect-information) Monte Carlo. A single legal move is played without
    a playout, and a move that wins at once (going out) is taken at once. Otherwise it spends
    at most ``playouts`` playouts in all on the decision (until issue 21, that many per legal
    move): it deals random worlds consistent with its observation, plays every
    candidate still in the running out in each (the same world and the same luck for
    all: common random numbers; rules of thumb with probability ``greedy``, else random
    moves) for ``depth`` moves — then scores the position by the cards each seat holds
    (:func:`_score`) — or to the end of the hand (``depth=None``), and after each round of
    successive halving keeps the better half. The rules of thumb's own favourite stays to the
    end as the yardstick and gives way only to a move that beats it, world by world, by more
    than chance (one standard deviation of a sign test). With ``cull`` (the default), a
    challenger that no world told apart from the favourite, or that is behind it by that
    much, is dropped at the end of each round but the last, and the decision stops as soon
    as none is left: a clear choice costs a fraction of the budget; the first round (the
    first look) deals a quarter of the worlds at most (:data:`FIRST_LOOK` at least), and the
    worlds after the first are dealt on a copy of it.
    ``MonteCarloBot(depth=None, cull=False)`` is the bot of the first fix of issue 21 (96
    playouts, to the end of the hand, no early stop, every world built afresh).
    ``time_limit`` (seconds), when given, stops early; without it a decision is reproducible
    from ``rng``. Where it cannot rebuild a world (Crazy Breens effect phases) it plays the
    rules of thumb. Settings out of range raise :class:`BotError` (see the module)."""

    playouts: int = 96
    greedy: float = 1.0
    time_limit: float | None = None
    name: str = "mc"
    depth: int | None = 16
    cull: bool = True

    def __post_init__(self) -> None:
        p = self.playouts
        if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= MAX_PLAYOUTS:
            raise BotError(f"MonteCarloBot playouts must be a whole number from 1 to "
                           f"{MAX_PLAYOUTS}, not {quote(p)}")
        g = self.greedy
        if not _real(g) or not 0 <= g <= 1:
            raise BotError(f"MonteCarloBot greedy must be a number from 0 to 1 (the share of "
                           f"rules-of-thumb moves in a playout), not {quote(g)}")
        t = self.time_limit
        if t is not None and (not _real(t) or not 0 < t <= MAX_TIME_LIMIT):
            raise BotError(f"MonteCarloBot time_limit must be None or a number of seconds "
                           f"above 0 and at most {MAX_TIME_LIMIT:g}, not {quote(t)}")
        d = self.depth
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)
                              or not 1 <= d <= MAX_DEPTH):
            raise BotError(f"MonteCarloBot depth must be None (play to the end of the hand) "
                           f"or a whole number of moves from 1 to {MAX_DEPTH}, not {quote(d)}")
        if not isinstance(self.cull, bool):
            raise BotError(f"MonteCarloBot cull must be True or False, not {quote(self.cull)}")
        check_name(self.name)

    def choose(self, obs: Observation, rng: random.Random) -> Move:
        check_choice(obs, rng)
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]  # nothing to weigh: no playout at all
        world = determinize(obs, rng)
        if world is None:
            return RuleBot().choose(obs, rng)
        seat = obs.seat
        won = _winning_move(world, legal, obs, seat)
        if won is not None:
            return won
        constraints = hand_constraints(obs)
        depth = _MAX_ROLLOUT if self.depth is None else self.depth
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        # the rules of thumb's order: a tie (in wins) goes to the move they like best
        order = sorted(range(len(legal)), key=lambda i: _rule_rank(obs, legal[i]), reverse=True)
        alive = _distinct(legal, order)
        favourite = alive[0]
        if len(alive) == 1:
            return legal[favourite]  # the same move listed twice
        like = world.copy() if self.cull else None  # later worlds are dealt on a copy of it
        wins = [0.0] * len(legal)
        rewards: list[list[float]] = [[] for _ in legal]  # per world, paired across candidates
        # with cull, one round more: a first look after which the hopeless challengers go
        rounds = max(1, math.ceil(math.log2(len(alive)))) + (1 if self.cull else 0)
        budget = self.playouts  # rollouts for the whole decision, shared out over the rounds
        spent = 0
        for round_ in range(rounds):
            worlds = max(1, budget // (rounds * len(alive)))
            if round_ == 0 and self.cull:  # the first look: a quarter of the budget at most
                worlds = min(worlds, max(FIRST_LOOK, budget // (4 * len(alive))))
            if round_ == rounds - 1:  # the last round takes what is left
                worlds = max(worlds, (budget - spent) // len(alive))
            for _ in range(worlds):
                if world is None:
                    world = _deal_world(obs, rng, constraints, like)
                    assert world is not None  # the same observation rebuilt before
                seed = rng.randrange(2**62)  # every candidate meets the same luck in this world
                last = len(alive) - 1
                for j, i in enumerate(alive):
                    game = world.copy() if j < last else world
                    game.push(legal[i])
                    _rollout(game, random.Random(seed), self.greedy, depth)
                    got = _reward(game, seat)
                    wins[i] += got
                    rewards[i].append(got)
                spent += len(alive)
                world = None
                if deadline is not None and time.perf_counter() > deadline:
                    break
            else:
                if round_ < rounds - 1:
                    rest = alive[1:]
                    if self.cull:  # a challenger clearly behind the favourite goes
                        rest = [i for i in rest
                                if _in_the_running(rewards[i], rewards[favourite])]
                        if not rest:
                            return legal[favourite]
                    # successive halving: the better half of the challengers (a stable sort
                    # keeps the rules' order); the rules' favourite stays as the yardstick
                    rest.sort(key=lambda i: -wins[i])
                    keep = max(1, (len(alive) - 1) // 2) if round_ or not self.cull else len(rest)
                    alive = [favourite, *rest[:keep]]
                    continue
            break
        best = max(alive[1:], key=lambda i: wins[i])
        return legal[best if _clearly_better(rewards[best], rewards[favourite]) else favourite]


def _signs(a: list[float], b: list[float]) -> tuple[int, int]:
    """(worlds where ``a`` did better, worlds where it did worse) than ``b``, paired."""
    ahead = behind = 0
    for x, y in zip(a, b, strict=True):
        if x > y:
            ahead += 1
        elif x < y:
            behind += 1
    return ahead, behind


def _in_the_running(a: list[float], b: list[float]) -> bool:
    """Whether a challenger with rewards ``a`` stays after a round against the
    favourite's ``b`` (paired, world by world): some world told them apart, and it is not
    behind by one standard deviation of a sign test or more (the mirror of
    :func:`_clearly_better`; dropping every challenger merely not ahead, after a first look
    of four worlds, cost the bot 2.6 points of its win rate against the rules of thumb)."""
    ahead, behind = _signs(a, b)
    return ahead + behind > 0 and ahead - behind > -math.sqrt(ahead + behind)


def _clearly_better(a: list[float], b: list[float]) -> bool:
    """Whether rewards ``a`` beat ``b`` (paired, world by world) by at least one standard
    deviation of a sign test: the playouts must overturn the rules of thumb, not tie them."""
    ahead, behind = _signs(a, b)
    return ahead > behind and ahead - behind >= math.sqrt(ahead + behind)


def _rule_rank(obs: Observation, move: Move) -> tuple[int, int, int, int, int]:
    return rule_key(obs.rules, obs.hand, observed_refs(obs), obs.phase, obs.turn_plays, move)


def _distinct(legal: Sequence[Move], order: list[int]) -> list[int]:
    """``order`` without a move equal to one before it (the same move listed twice)."""
    seen: set[Move] = set()
    out = []
    for i in order:
        if legal[i] not in seen:
            seen.add(legal[i])
            out.append(i)
    return out


def _winning_move(world: Game, legal: Sequence[Move], obs: Observation,
                  seat: int) -> Move | None:
    """A move that ends the hand at once with ``seat`` the only winner (going out), tried in
    one world: it depends on no hidden card."""
    for m in legal:
        if m.kind == PLAY and len(m.cards) >= len(obs.hand) and obs.phase != PHASE_DECLARE:
            game = world.copy()
            game.push(m)
            if game.result is not None and game.winners == (seat,):
                return m
    return None


def _real(value: object) -> bool:
    """A finite int or float (not a bool)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _with_legal(obs: Observation, legal: Sequence[Move]) -> Observation:
    from dataclasses import replace

    return replace(obs, legal=tuple(legal))


# -- names -------------------------------------------------------------------------------------

BOTS: dict[str, type] = {"random": RandomBot, "rules": RuleBot, "mc": MonteCarloBot}


def make_bot(spec: str | Bot) -> Bot:
    """A bot from its name (``"random"``, ``"rules"``, ``"mc"``; ``"mc:200"`` sets the
    Monte Carlo playouts, 1 to :data:`MAX_PLAYOUTS`), or the bot itself; anything else raises
    :class:`BotError` saying what is allowed."""
    if not isinstance(spec, str):
        if not callable(getattr(spec, "choose", None)):
            raise BotError(f"{quote(spec)} is not a bot: give a name ({', '.join(BOTS)}, "
                           "mc:PLAYOUTS) or an object with a choose(observation, rng) method")
        return spec
    name, sep, arg = spec.partition(":")
    if name not in BOTS:
        raise BotError(f"unknown bot {quote(spec)}; the bots are: {', '.join(BOTS)} "
                       "(mc:PLAYOUTS sets the Monte Carlo playouts)")
    if not sep:
        return BOTS[name]()  # type: ignore[no-any-return]
    if name != "mc":
        raise BotError(f"bot {quote(spec)}: only mc takes a setting, its playouts (mc:200); "
                       f"{name} takes none")
    if not (arg.isascii() and arg.isdigit() and len(arg) <= 6
            and 1 <= int(arg) <= MAX_PLAYOUTS):
        raise BotError(f"bot {quote(spec)}: the playouts of mc must be a whole number of at "
                       f"least 1 and at most {MAX_PLAYOUTS}, like mc:200")
    return MonteCarloBot(playouts=int(arg), name=spec)


def bot_name(bot: Bot) -> str:
    return str(getattr(bot, "name", type(bot).__name__))

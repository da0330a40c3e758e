"""Game review: every decision one seat made in a finished hand, rated by the engine.

For each decision the seat had (two legal moves or more), every legal move is played out in
the same sampled worlds (common random numbers): the cards the seat could not see are dealt
at random, consistently with everything it had seen then — its own hand, the piles, the
counts, and what play revealed (a player who drew where the rules make you play when you can
held nothing playable; :func:`crazylab.bots.worlds`) — and each world is played to the end of
the hand by the rules-of-thumb players. A move's **win chance** is its share of those worlds'
wins, with a 95 % interval.

The review reads the seat's :class:`~crazylab.engine.observe.Observation` only, never the
hidden cards of the game it reviews: two hands that differ only in cards the seat could not
know get the same review.

**Verdicts** by the win chance the move played lost against the best move (percentage points),
counted only when the sampled worlds tell the two apart (the 95 % interval of the paired
difference is above 0): below :data:`INACCURACY` good, then inaccuracy, :data:`MISTAKE`
mistake, :data:`BLUNDER` blunder — chess sites' scale, on the win chance.

**Worlds adapt**: at least :data:`MIN_WORLDS`, then batches of :data:`BATCH` until the
interval of the loss is narrower than :data:`TOLERANCE` on each side (at most
:data:`MAX_WORLDS`). Seeded: the same hand, seat and seed give the same review.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .bots import determinize, play_out, worlds
from .engine.cards import EIGHT
from .engine.game import Game
from .engine.moves import DRAW, PASS, PLAY, Move
from .engine.observe import Observation
from .engine.phases import PHASE_CHAIN, PHASE_PLAY
from .errors import CrazylabError, quote

__all__ = ["BLUNDER", "INACCURACY", "MISTAKE", "SITUATIONS", "Decision", "MoveChance",
           "ReviewError", "explain_move", "hand_record", "review_game", "review_moves",
           "verdict", "weigh"]

#: win-chance points lost from which a move is an inaccuracy, a mistake, a blunder
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
MIN_WORLDS, BATCH, MAX_WORLDS = 24, 16, 192
#: the half-width of the loss's 95 % interval at which sampling stops
TOLERANCE = 0.05
Z95 = 1.96


class ReviewError(CrazylabError):
    """A hand that cannot be reviewed (a move its rules refuse, a seat it does not have)."""


@dataclass(frozen=True)
class MoveChance:
    """One legal move: its win chance over the sampled worlds and the 95 % interval."""

    move: str
    display: str
    win: float
    low: float
    high: float


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the moves weighed, the move played and the best one, the
    win chance lost (with its 95 % interval), the verdict and why."""

    ply: int  # moves made in the hand before this one
    seat: int
    played: str
    best: str
    moves: tuple[MoveChance, ...]  # best first
    loss: float
    loss_low: float
    loss_high: float
    verdict: str  # good, inaccuracy, mistake, blunder; forced; unrated
    worlds: int
    why: str = ""
    situation: str = ""  # what kind of costly choice (:data:`SITUATIONS`); "" if none
    rules: tuple[str, ...] = ()  # the rule ids that decide it, where a rule does

    def chance(self, move: str) -> MoveChance:
        """The win chance of ``move`` (as played or listed)."""
        return next(m for m in self.moves if m.move == move)

    def as_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data (an unrated chance is ``None``, not NaN)."""
        def number(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 4)

        return {"ply": self.ply, "seat": self.seat, "played": self.played, "best": self.best,
                "moves": [{"move": m.move, "display": m.display, "win": number(m.win),
                           "low": number(m.low), "high": number(m.high)} for m in self.moves],
                "loss": number(self.loss), "loss_low": number(self.loss_low),
                "loss_high": number(self.loss_high), "verdict": self.verdict,
                "worlds": self.worlds, "why": self.why, "situation": self.situation,
                "rules": list(self.rules)}


def verdict(loss: float, loss_low: float) -> str:
    """The verdict of a move that lost ``loss`` win-chance points (``loss_low``: the lower
    end of its 95 % interval: at 0 or below, the worlds could not tell the moves apart)."""
    if loss_low <= 0 or loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    return "mistake" if loss < BLUNDER else "blunder"


def _mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.25
    half = Z95 * math.sqrt(max(var, 1e-12) / n)
    return mean, mean - half, mean + half


def _result_key(game: Game, move: Move) -> tuple:
    after = game.copy()
    after.push(move)
    return after.fingerprint()


def _played_index(game: Game, legal: Sequence[Move], played: str) -> int:
    """Which legal move ``played`` is (a call in any spelling the engine reads)."""
    try:
        key = _result_key(game, Move.parse(played))
    except (ValueError, CrazylabError) as e:
        raise ReviewError(f"the move {quote(played)} is refused here: {e}") from None
    for i, m in enumerate(legal):
        if _result_key(game, m) == key:
            return i
    raise ReviewError(f"the move {quote(played)} is not one of the legal moves")


def _weigh(obs: Observation, rng: random.Random, played: int | None
           ) -> tuple[list[list[float]], int] | None:
    """Every legal move's rewards in the same worlds, until the loss of the move ``played``
    (``None``: of every move) against the best is known well enough."""
    legal = obs.legal
    source = worlds(obs, rng)
    rewards: list[list[float]] = [[] for _ in legal]
    while True:
        for _ in range(MIN_WORLDS if not rewards[0] else BATCH):
            world = next(source, None)
            if world is None:
                return None  # a phase whose hidden state cannot be sampled
            luck = rng.randrange(2**62)
            for i, move in enumerate(legal):
                game = world.copy() if i < len(legal) - 1 else world
                game.push(move)
                rewards[i].append(play_out(game, obs.seat, random.Random(luck)))
        n = len(rewards[0])
        best = max(range(len(legal)), key=lambda i: sum(rewards[i]))
        wide = 0.0
        for other in range(len(legal)) if played is None else (played,):
            diff = [b - p for b, p in zip(rewards[best], rewards[other], strict=True)]
            _, low, high = _mean_interval(diff)
            wide = max(wide, (high - low) / 2)
        if wide <= TOLERANCE or n >= MAX_WORLDS:
            return rewards, n


#: the kinds of costly choice a review names (``Decision.situation``), for a teacher's tally
SITUATIONS = {"out": "did not go out when they could",
              "hit": "took a hit they could answer",
              "draw": "drew or passed with a card to play",
              "eight": "spent a wild card a plain card would do",
              "call": "called a suit the others were more likely to hold",
              "card": "played a card a better one would beat"}


def _words(game: Game, legal: Sequence[Move], played: int, best: int, win: list[float]
           ) -> tuple[str, str, tuple[str, ...]]:
    """Why the best move beats the move played, in a learner's words: the situation
    (:data:`SITUATIONS`), the sentence and the rule ids that decide it."""
    p, b = legal[played], legal[best]
    odds = (f"{b.display} wins {win[best]:.0%} of the deals sampled, {p.display} "
            f"{win[played]:.0%}.")
    after = game.copy()
    after.push(b)
    if after.result is not None and game.to_play in after.winners:
        return "out", f"{b.display} goes out now: the hand was yours. " + odds, ()
    if p.kind == DRAW and b.kind == PLAY and game.phase not in (PHASE_PLAY, PHASE_CHAIN):
        taken = _hit_drawn(game, p)  # a hit: the cards the draw began (a public count)
        if taken > 1:
            rules = tuple(after.events[-1].rules) if after.events else ()
            cite = f" ({', '.join(rules)})" if rules else ""
            return "hit", (f"{b.display} would have answered the hit{cite}; drawing, you "
                           f"took {taken} cards instead. " + odds), rules
    if p.kind in (DRAW, PASS) and b.kind == PLAY:
        return "draw", (f"You could play {b.display} instead of {p.display}: a card gone is "
                        "a card you cannot be stuck with. " + odds), ()
    if p.kind == PLAY and p.cards[0].rank == EIGHT and not p.cards[0].is_joker and (
            b.kind == DRAW or (b.kind == PLAY and b.cards[0].rank != EIGHT)):
        instead = "drawing keeps it" if b.kind == DRAW else "keeping it"
        return "eight", (f"Playing {p.display} spends your wild card; {instead} answers a "
                         "suit you lack later. " + odds), ()
    if p.kind == PLAY and b.kind == PLAY and p.cards == b.cards and p.call != b.call:
        return "call", (f"The same card, another call: {b.display} leaves the others a suit "
                        "they are less likely to hold, and you one you hold. " + odds), ()
    return "card", odds, ()


def _hit_drawn(game: Game, draw: Move) -> int:
    """The cards the seat to play takes by ``draw`` and the hit's draws it is then held to,
    drawing on (their number, which every seat sees), counted in a world dealt from the
    seat's own observation."""
    seat = game.to_play
    world = determinize(game.observation(seat), random.Random(0))
    if world is None:
        return 0
    taken = 0
    while (world.result is None and world.to_play == seat and taken < len(world.rules.deck)
           and world.phase not in (PHASE_PLAY, PHASE_CHAIN) and draw in world.legal_moves()):
        world.push(draw)
        taken += 1
    return taken


def review_moves(start: Game, moves: Sequence[str], seat: int, *, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """Review seat ``seat``'s decisions when ``moves`` are played from ``start`` (a hand's
    first position); ``progress(done, total)`` is called after each decision."""
    if not isinstance(seat, int) or not 0 <= seat < start.n:
        raise ReviewError(f"seat must be 0 to {start.n - 1}, not {quote(seat)}")
    game = start.copy()
    todo: list[tuple[int, Game, str]] = []
    for ply, move in enumerate(moves):
        if game.result is not None:
            raise ReviewError(f"move {ply + 1} ({quote(move)}) comes after the hand ended")
        if game.to_play == seat:
            todo.append((ply, game.copy(), move))
        try:
            game.push(move)
        except (ValueError, CrazylabError) as e:
            raise ReviewError(f"move {ply + 1} ({quote(move)}) is refused: {e}") from None
    rng = random.Random(seed)
    out = []
    for done, (ply, before, move) in enumerate(todo, 1):
        out.append(_decision(before, seat, ply, move, random.Random(rng.randrange(2**62))))
        if progress is not None:
            progress(done, len(todo))
    return out


def _decision(before: Game, seat: int, ply: int, move: str, rng: random.Random) -> Decision:
    obs = before.observation(seat)  # what the seat knew: the review reads nothing else
    legal = list(obs.legal)
    played = _played_index(before, legal, move)
    shown = str(legal[played])
    if len(legal) == 1:
        one = MoveChance(shown, legal[0].display, math.nan, math.nan, math.nan)
        return Decision(ply, seat, shown, shown, (one,), 0.0, 0.0, 0.0, "forced", 0)
    weighed = _weigh(obs, rng, played)
    if weighed is None:
        chances = tuple(MoveChance(str(m), m.display, math.nan, math.nan, math.nan)
                        for m in legal)
        return Decision(ply, seat, shown, shown, chances, 0.0, 0.0, 0.0, "unrated", 0,
                        "This phase's hidden state cannot be sampled: not rated.")
    rewards, n = weighed
    stats = [_mean_interval(r) for r in rewards]
    win = [s[0] for s in stats]
    best = max(range(len(legal)), key=lambda i: (win[i], i == played))
    loss, low, high = _mean_interval([b - p for b, p in zip(rewards[best], rewards[played],
                                                            strict=True)])
    if best == played:
        loss = low = high = 0.0
    rated = verdict(loss, low)
    order = [best, *sorted((i for i in range(len(legal)) if i != best), key=lambda i: -win[i])]
    chances = tuple(MoveChance(str(legal[i]), legal[i].display, win[i],
                               max(0.0, stats[i][1]), min(1.0, stats[i][2])) for i in order)
    situation, why, rules = ("", "", ()) if rated == "good" else \
        _words(before, legal, played, best, win)
    return Decision(ply, seat, shown, str(legal[best]), chances, max(loss, 0.0), low, high,
                    rated, n, why, situation, rules)


def weigh(game: Game, *, seed: int = 0) -> tuple[MoveChance, ...]:
    """Every legal move of the seat to play in ``game``, weighed from that seat's own view
    (worlds dealt from its observation, each move played out in the same worlds), best
    first. A move within :data:`TOLERANCE` of the best one's win chance is as good as it,
    as far as the engine can tell: a lesson's "best move" question takes all of them."""
    if not isinstance(game, Game) or game.result is not None:
        raise ReviewError(f"weigh needs a game being played, not {quote(game)}")
    obs = game.observation(game.to_play)
    legal = list(obs.legal)
    weighed = _weigh(obs, random.Random(seed), None) if len(legal) > 1 else None
    if weighed is None:
        return tuple(MoveChance(str(m), m.display, math.nan, math.nan, math.nan) for m in legal)
    stats = [_mean_interval(r) for r in weighed[0]]
    order = sorted(range(len(legal)), key=lambda i: -stats[i][0])
    return tuple(MoveChance(str(legal[i]), legal[i].display, stats[i][0],
                            max(0.0, stats[i][1]), min(1.0, stats[i][2])) for i in order)


def explain_move(start: Game, moves: Sequence[str], ply: int, *, seed: int = 0) -> Decision:
    """Why move ``ply`` of a hand (``moves`` played from ``start``) was played, as its
    player could see it — a bot's move too ("why did Bot 1 play that?"): the move rated
    among that player's legal moves, with a sentence (:attr:`Decision.why`) even when it was
    the best one."""
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply < len(moves):
        raise ReviewError(f"ply must be a move of the hand, 0 to {len(moves) - 1}, not "
                          f"{quote(ply)}")
    game = start.copy()
    for k, move in enumerate(moves[:ply]):
        try:
            game.push(move)
        except (ValueError, CrazylabError) as e:
            raise ReviewError(f"move {k + 1} ({quote(move)}) is refused: {e}") from None
    if game.result is not None:
        raise ReviewError(f"move {ply + 1} comes after the hand ended")
    d = _decision(game, game.to_play, ply, moves[ply], random.Random(seed))
    if d.why:
        return d
    played = d.chance(d.played)
    if d.verdict == "forced":
        why = f"{played.display} was the only move."
    elif d.verdict == "unrated":
        why = f"{played.display}: this moment cannot be weighed from what the player saw."
    else:
        best = "the best" if d.best == d.played else "as good as the best"
        others = ", ".join(f"{m.display} {m.win:.0%}" for m in d.moves if m.move != d.played)
        why = (f"{played.display} was {best} of the {len(d.moves)} moves: it wins "
               f"{played.win:.0%} of the deals sampled from what the player could see "
               f"(the others: {others}).")
    return replace(d, why=why)


def hand_record(game: Game) -> tuple[Game, list[str]]:
    """A hand's first position and its moves, from a game that kept its undo history (a
    table's game does): what :func:`review_moves` reviews."""
    start = game.copy(keep_undo=True)
    moves = [str(m) for m in game.moves]
    try:
        while start.moves:
            start.undo()
    except (ValueError, CrazylabError) as e:
        raise ReviewError(f"this hand cannot be replayed from its start: {e}") from None
    return start, moves


def review_game(example: object, seat: int, *, seed: int = 0,
                progress: Callable[[int, int], None] | None = None) -> list[Decision]:
    """Review seat ``seat`` of a saved game: a worked-example file, name or dict
    (:func:`crazylab.examples.load_example`: its setup and its moves)."""
    from .examples import ExampleError, load_example

    try:
        ex = load_example(example)  # type: ignore[arg-type]
    except ExampleError as e:
        raise ReviewError(str(e)) from None
    # the moves played (a step that shows a refused move, as a lesson's example may, is not)
    moves = [f.step.move for f in ex.frames()[1:]
             if f.step is not None and f.step.move is not None and f.error is None]
    return review_moves(ex.start(), moves, seat, seed=seed, progress=progress)

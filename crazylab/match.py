"""Several hands with the dealer rotating, cumulative scores and a match target.

A match ends in one of two ways: when a seat's total reaches ``target`` after a hand (SR-Q10,
AP-16), or after a fixed number of ``hands`` (MU-Q17: "total over an agreed number of games,
highest (least negative) total wins"; the rule set's ``games_in_match`` gives it, A11, and
equal highest totals share the match: :attr:`Match.winners`). A rule set whose hands never pay
a seat a positive score (the musical game's ``minus_one_per_card``, or ``scoring="none"``) can
never reach a target, so ``Match`` refuses one for it and asks for ``hands=`` instead.
"""

from __future__ import annotations

import random

from .engine import checks
from .engine.game import Game, SetupError
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules
from .errors import CrazylabError, quote

#: scoring rules under which no seat ever scores above 0 in a hand
NEVER_POSITIVE = ("minus_one_per_card", "none")
#: the highest match target, the most hands of a fixed-length match, the largest starting
#: total (in points, either sign) that a match takes
MAX_TARGET = 100_000
MAX_HANDS = 10_000
MAX_SCORE = 1_000_000


class MatchError(SetupError, CrazylabError):
    """A match that cannot be set up or played on (a ``SetupError``, so a ``ValueError``)."""


def _whole(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    return checks.whole(name, value, low, high, MatchError)


class Match:
    """A match: hands are dealt in turn, the deal moving one seat left each hand (a void
    hand is redealt by the same dealer unless ``void_hand_dealer='rotate'``).

    ``target``: the total that wins (default: the rule set's ``match_target``; ``None`` with
    no ``hands`` is a single hand). ``hands``: play exactly this many hands instead (default:
    the rule set's ``games_in_match``); the highest total wins (a tie has no single winner:
    the leaders share it, :attr:`winners`). Every argument is checked before anything is dealt:
    a bad one raises :class:`MatchError` naming it (a target up to :data:`MAX_TARGET`, hands up
    to :data:`MAX_HANDS`, starting ``scores`` within :data:`MAX_SCORE` and below the target: a
    match does not start already won). ``first``: the first hand, dealt already (a position set
    up by hand, under these rules at this table size); the next ones are dealt as usual."""

    def __init__(self, rules: RuleSet | str, players: int = 2, seed: int | None = None,
                 target: int | None = None, dealer: int | None = None,
                 scores: list[int] | None = None, *, hands: int | None = None,
                 first: Game | None = None) -> None:
        if isinstance(rules, str):
            rules = get_rules(rules)
        if not isinstance(rules, RuleSet):
            raise MatchError(f"rules must be a preset name or a RuleSet, not {quote(rules)}")
        self.rules = rules
        self.players = _whole("players", players, rules.min_players, rules.max_players)
        if seed is not None:
            _whole("seed", seed)
        if hands is None and target is None:
            hands = rules.games_in_match  # A11: a match of N games (None: no such rule)
        if hands is not None:
            _whole("hands", hands, 1, MAX_HANDS)
            if target is not None:
                raise MatchError("give a match either a target or a number of hands, not both")
        else:
            target = target if target is not None else rules.match_target
        if target is not None:
            _whole("target", target, 1, MAX_TARGET)
            if rules.scoring in NEVER_POSITIVE:
                raise MatchError(
                    f"{rules.name} cannot be played to a target of {target}: under its scoring "
                    f"({rules.scoring}) no hand ever gives a seat more than 0 points, so no total "
                    f"can reach {target}. Play a fixed number of hands instead, "
                    f"Match({rules.name!r}, hands=5): the highest total wins (MU-Q17)")
        start = [0] * self.players if scores is None else scores
        if not isinstance(start, (list, tuple)) or len(start) != self.players:
            raise MatchError(f"scores must list {self.players} seats, not {quote(start)}")
        for s, v in enumerate(start):
            _whole(f"scores[{s}]", v, -MAX_SCORE, MAX_SCORE)
        if target is not None and max(start) >= target:
            raise MatchError(f"scores {quote(list(start))} already reach the target {target}: "
                             "the match would be over before its first hand")
        if dealer is not None:
            _whole("dealer", dealer, 0)
            if dealer >= self.players:
                raise MatchError(f"dealer must be a seat from 0 to {self.players - 1}, "
                                 f"not {dealer}")
        self.seed = random.randrange(2**62) if seed is None else seed
        self.target = target
        self.hands_to_play = hands
        self.scores = list(start)
        self.dealer = self.players - 1 if dealer is None else dealer
        self.hands: list[Game] = []
        self._recorded: list[Game] = []  # hands whose points are in the scores
        if first is None:
            self.game = self._deal()
        elif not isinstance(first, Game) or first.rules != rules or first.n != self.players:
            raise MatchError(f"the first hand must be a Game of {rules.name} for "
                             f"{self.players} players, not {quote(first)}")
        else:
            self.game = first
            self.hands.append(first)

    def _deal(self) -> Game:
        seed = self.seed * 7919 + len(self.hands)
        game = Game.new(self.rules, self.players, seed, dealer=self.dealer)
        self.hands.append(game)
        return game

    @property
    def over(self) -> bool:
        """Whether the match has ended (checked only between hands): a total reached the
        target, or the agreed number of hands has been recorded."""
        if self.hands_to_play is not None:
            return len(self._recorded) >= self.hands_to_play
        return self.target is not None and max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        """The seat with the single highest total once the match is over (else ``None``)."""
        leaders = self.winners
        return leaders[0] if len(leaders) == 1 else None

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat with the highest total once the match is over (``()`` before): after
        ``games_in_match`` games equal highest totals share the match (A11, MU-Q17)."""
        if not self.over:
            return ()
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    @property
    def games_played(self) -> int:
        """Hands recorded so far (a worked example's ``match.games_played``, A11)."""
        return len(self._recorded)

    def record(self, game: Game | None = None) -> None:
        """Add a finished hand's points to the match scores. The hand must be over and played
        under this match's rule set at its table size; a refused hand changes nothing."""
        game = self.game if game is None else game
        if not isinstance(game, Game):
            raise MatchError(f"record takes a finished Game of this match, not {quote(game)}")
        if game.n != self.players or len(game.scores) != self.players:
            raise MatchError(f"the hand was played by {game.n} players, but this match has "
                             f"{self.players}: its points cannot be added")
        if game.rules is not self.rules and game.rules != self.rules:
            raise MatchError(f"the hand was played under {game.rules.name}, not this match's "
                             f"rules ({self.rules.name}): its points cannot be added")
        if not game.over:
            raise MatchError("the hand is not over yet: finish it before recording it")
        if any(g is game for g in self._recorded):
            return
        self.scores = [a + b for a, b in zip(self.scores, game.scores, strict=True)]
        self._recorded.append(game)

    def next_hand(self) -> Game:
        """Record the current hand if needed and deal the next one."""
        if self.over:
            raise MatchError(f"the match is over: {self._result()}")
        self.record()
        void = self.game.end_reason == "VOID" and self.rules.void_hand_dealer == "same"
        if not void:
            self.dealer = (self.dealer + 1) % self.players
        self.game = self._deal()
        return self.game

    def _result(self) -> str:
        return "a tie, no winner" if self.winner is None else f"seat {self.winner} won"

    def play_random(self, rng: random.Random | int | None = None, max_hands: int = 1000, *,
                    seed: random.Random | int | None = None) -> Match:
        """Play random moves until the match ends (a single hand without target or hands).
        ``rng`` (or ``seed=``, as in :meth:`Game.play_random`) is a number or a
        ``random.Random``; ``max_hands`` (1 to :data:`MAX_HANDS`) bounds the work: after
        that many hands the match is returned as it stands (see :attr:`over`)."""
        if seed is not None:
            if rng is not None:
                raise MatchError("give play_random a seed or an rng, not both")
            rng = seed
        if not (rng is None or isinstance(rng, random.Random)):
            _whole("seed", rng)
        _whole("max_hands", max_hands, 1, MAX_HANDS)
        if self.over:
            return self
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        for _ in range(max_hands):
            self.game.play_random(rng)
            self.record()
            if self.over or (self.target is None and self.hands_to_play is None):
                return self
            self.next_hand()
        return self

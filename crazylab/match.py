"""Several hands with the dealer rotating, cumulative scores and a match target."""

from __future__ import annotations

import random

from .engine.game import Game
from .engine.rules import RuleSet
from .engine.rules import rules as get_rules


class Match:
    """A match: hands are dealt in turn, the deal moving one seat left each hand (a void
    hand is redealt by the same dealer unless ``void_hand_dealer='rotate'``)."""

    def __init__(self, rules: RuleSet | str, players: int = 2, seed: int | None = None,
                 target: int | None = None, dealer: int | None = None,
                 scores: list[int] | None = None) -> None:
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        self.players = players
        self.seed = random.randrange(2**62) if seed is None else seed
        self.target = target if target is not None else self.rules.match_target
        self.scores = list(scores) if scores is not None else [0] * players
        if len(self.scores) != players:
            raise ValueError(f"scores must list {players} seats, not {len(self.scores)}")
        self.dealer = players - 1 if dealer is None else dealer
        self.hands: list[Game] = []
        self._recorded: list[Game] = []  # hands whose points are in the scores
        self.game = self._deal()

    def _deal(self) -> Game:
        seed = self.seed * 7919 + len(self.hands)
        game = Game.new(self.rules, self.players, seed, dealer=self.dealer)
        self.hands.append(game)
        return game

    @property
    def over(self) -> bool:
        """Whether someone reached the target after a hand (checked only between hands)."""
        return self.target is not None and max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        best = max(self.scores)
        leaders = [s for s, v in enumerate(self.scores) if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def record(self, game: Game | None = None) -> None:
        """Add a finished hand's points to the match scores."""
        game = game or self.game
        if not game.over:
            raise ValueError("the hand is not over yet")
        if any(g is game for g in self._recorded):
            return
        for s, pts in enumerate(game.scores):
            self.scores[s] += pts
        self._recorded.append(game)

    def next_hand(self) -> Game:
        """Record the current hand if needed and deal the next one."""
        if self.over:
            raise ValueError(f"the match is over: seat {self.winner} won")
        self.record()
        void = self.game.end_reason == "VOID" and self.rules.void_hand_dealer == "same"
        if not void:
            self.dealer = (self.dealer + 1) % self.players
        self.game = self._deal()
        return self.game

    def play_random(self, rng: random.Random | int | None = None, max_hands: int = 1000
                    ) -> Match:
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        for _ in range(max_hands):
            self.game.play_random(rng)
            self.record()
            if self.over or self.target is None:
                return self
            self.next_hand()
        raise RuntimeError("the match did not end")

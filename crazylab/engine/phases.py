"""The turn phases, a named contract: compare ``game.phase`` (and an observation's) with
these, never with a bare text. The values are what saved games and observations hold."""

from __future__ import annotations

from typing import Final

PHASE_PLAY: Final = "play"  # a normal turn
PHASE_CHAIN: Final = "chain"  # a turn that may go on playing (chain rules)
PHASE_DECLARE: Final = "declare"  # a call owed for a wild card or a starter
PHASE_OVER: Final = "over"  # the hand is over
PHASE_PENALTY: Final = "penalty"  # a hit to settle (Crazy Breens, house draw2/drawN)
PHASE_DROP: Final = "drop"  # a Queen's optional drop (Crazy Breens)
PHASE_LOST: Final = "lost"  # an extra lost turn owed (Crazy Breens, A1)
PHASE_JUMP: Final = "jump"  # a jump-in window (house rules, V14)
PHASES: Final = (PHASE_PLAY, PHASE_CHAIN, PHASE_DECLARE, PHASE_OVER, PHASE_PENALTY, PHASE_DROP,
                 PHASE_LOST, PHASE_JUMP)

__all__ = ["PHASES", "PHASE_CHAIN", "PHASE_DECLARE", "PHASE_DROP", "PHASE_JUMP", "PHASE_LOST",
           "PHASE_OVER", "PHASE_PENALTY", "PHASE_PLAY"]

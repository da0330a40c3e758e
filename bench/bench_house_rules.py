"""What the house rules of rulings §6.5 cost per move, as ratios measured in one run.

For each preset, random games with undo off (the raw ``legal_moves``/``push`` loop) with the
preset's own options, then with each house rule that applies to it switched on, back to back in
each round (best of ``--repeat`` rounds of process CPU time). A ratio is the house rule's CPU
time per move over the preset's. The presets' own figures are issue 11's (bench_core.py); the
engine reads each house rule once when a game is made, so a preset pays nothing for them.

Run: ``.venv/bin/python bench/bench_house_rules.py [--games 200] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import crazylab as cl  # noqa: E402

HOUSE: dict[str, object] = {
    "forbid_final_wild": True, "forbid_final_action": True, "joker_only_if_no_suit": True,
    "mid_draw_applies_to": "twos_only", "reshuffle_timing": "eager", "queen_drop_count": 2,
    "starter_eight": "first_player_declares", "last_card_call": True,
    "flip_again_on_any_special": True, "draw_passing": True, "extra_hits_cost_turns": True,
    "seed_joker": "dealer_announces",
}


def per_move(rules: cl.RuleSet, games: int) -> float:
    """CPU microseconds per move over ``games`` random games (undo off)."""
    moves = 0
    t0 = time.process_time()
    for seed in range(games):
        n = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        g = cl.Game.new(rules, n, seed=seed, keep_undo=False)
        rng = random.Random(seed)
        while not g.over:
            legal = g.legal_moves()
            g.push(legal[rng.randrange(len(legal))])
            moves += 1
    return (time.process_time() - t0) / max(moves, 1) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for name in cl.PRESETS:
        base = cl.rules(name)
        variants = {}
        for option, value in HOUSE.items():
            try:
                variants[option] = cl.rules(name, **{option: value})
            except cl.RulesError:
                continue  # not a rule of this preset's family
        best = {k: float("inf") for k in ("preset", *variants)}
        for _ in range(args.repeat):
            for key, r in (("preset", base), *variants.items()):
                best[key] = min(best[key], per_move(r, args.games))
        ratios = ", ".join(f"{k} ×{best[k] / best['preset']:.2f}" for k in variants)
        print(f"{name}: {best['preset']:.2f} µs/move; {ratios}")


if __name__ == "__main__":
    main()

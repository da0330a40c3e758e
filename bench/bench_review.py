"""How long a learner waits for the review of a hand (issue 32): a typical hand of the
five-card and the classic rules and of Crazy Breens (its hits and counters weighed too), two
seats, the rules-of-thumb bot against a random one, seat 1 reviewed, beside the ``mc`` bot's
own cost per decision on the same decisions (the baseline, in the same run).

    .venv/bin/python bench/bench_review.py                # 5 hands of each
    .venv/bin/python bench/bench_review.py --hands 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    import crazylab as cl
    from crazylab.bots import make_bot
    from crazylab.playout import play_hand
    from crazylab.review import hand_record, review_moves

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--rules", nargs="+",
                        default=["crazy-eights", "crazy-eights-classic", "crazy-breens"])
    args = parser.parse_args()
    mc = make_bot("mc")
    for rules in args.rules:
        times, per_mc, decisions = [], [], []
        for seed in range(args.hands):
            start, moves = hand_record(play_hand(
                cl.Game.new(rules, players=2, seed=seed), [make_bot("rules"), make_bot("random")],
                [random.Random(seed), random.Random(seed + 1)]))
            began = time.perf_counter()
            out = review_moves(start, moves, 1, seed=seed)
            times.append(time.perf_counter() - began)
            rated = [d for d in out if d.verdict not in ("forced", "unrated")]
            decisions.append(len(rated))
            replay = start.copy()
            for ply, move in enumerate(moves):  # the mc bot on the same decisions
                if replay.to_play == 1 and any(d.ply == ply for d in rated):
                    began = time.perf_counter()
                    mc.choose(replay.observation(1), random.Random(ply))
                    per_mc.append(time.perf_counter() - began)
                replay.push(move)
        per_decision = sum(times) / max(1, sum(decisions))
        mc_mean = statistics.mean(per_mc) if per_mc else float("nan")
        print(f"{rules}: {args.hands} hands, {sum(decisions)} rated decisions; review of a "
              f"hand p50 {statistics.median(times):.2f} s, max {max(times):.2f} s; "
              f"{per_decision * 1000:.0f} ms a decision = {per_decision / mc_mean:.1f}x the "
              f"mc bot's {mc_mean * 1000:.0f} ms")


if __name__ == "__main__":
    main()

"""The ``crazylab`` command: ``replay`` worked examples, list ``rules``, ``play`` a game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .engine.rules import PRESETS, RulesError
from .engine.rules import rules as get_rules
from .examples import ExampleError, example_path, list_examples, load_example


def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0 when every file holds, 1 when an expectation fails, 2 for a bad file."""
    files = list(args.files)
    if args.all:
        files += [str(example_path(n)) for n in list_examples()]
    if not files:
        print("crazylab replay: name at least one file (or --all)", file=sys.stderr)
        return 2
    worst = 0
    for f in files:
        try:
            example = load_example(f)
        except ExampleError as e:
            print(f"ERROR {e}", file=sys.stderr)
            worst = 2
            continue
        problems = example.replay()
        if problems:
            for p in problems:
                print(f"FAIL {f}: {p}")
            worst = max(worst, 1)
        elif not args.quiet:
            print(f"ok   {f} ({len(example.steps)} steps)")
    return worst


def cmd_rules(args: argparse.Namespace) -> int:
    if not args.name:
        width = max(len(n) for n in PRESETS)
        for name, r in PRESETS.items():
            print(f"{name:<{width}}  {r.description}")
        return 0
    try:
        r = get_rules(args.name)
    except RulesError as e:
        print(f"crazylab rules: {e}", file=sys.stderr)
        return 2
    print(f"{r.name}: {r.description}")
    for key, value in r.options().items():
        print(f"  {key:<22} {value!r}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a seeded random game to the end and print its log."""
    from .engine.game import Game

    try:
        game = Game.new(get_rules(args.rules), args.players, args.seed)
    except (RulesError, ValueError) as e:
        print(f"crazylab play: {e}", file=sys.stderr)
        return 2
    game.play_random(args.seed)
    for event in game.events:
        print(event.describe())
    print(f"result: {game.end_reason}, winners {list(game.winners)}, scores {list(game.scores)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="crazylab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay worked-example files and check them")
    p.add_argument("files", nargs="*")
    p.add_argument("--all", action="store_true", help="also replay every shipped example")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("rules", help="list the presets, or show one rule set's options")
    p.add_argument("name", nargs="?")
    p.set_defaults(func=cmd_rules)
    p = sub.add_parser("play", help="play a seeded random game and print its log")
    p.add_argument("rules", nargs="?", default="crazy-eights")
    p.add_argument("-n", "--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_play)
    try:
        from .sim import add_simulate_parser
    except ImportError:  # the simulation lab is optional
        pass
    else:
        add_simulate_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())

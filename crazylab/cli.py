"""The ``crazylab`` command: ``replay`` worked examples, list ``rules``, ``play`` a game."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .engine.rules import PRESETS, RulesError
from .engine.rules import rules as get_rules
from .errors import quote
from .examples import ExampleError, example_path, list_examples, load_example


def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0 when every file holds, 1 when an expectation fails, 2 for an unusable file.

    Every file is checked, whatever the others hold; nothing a file contains prints a
    traceback: a problem crazylab did not foresee is reported (exit 2) as a bug to report."""
    files = list(args.files)
    if args.all:
        files += [str(example_path(n)) for n in list_examples()]
    if not files:
        say("crazylab replay: name at least one file (or --all)", sys.stderr)
        return 2
    worst = 0
    for f in files:
        shown = _clip(f, 200)
        try:
            example = load_example(f)
            problems = example.replay()
        except ExampleError as e:
            say(f"ERROR {e}", sys.stderr)
            worst = 2
            continue
        except (Exception, RecursionError) as e:  # a bug in crazylab, not in the file
            say(f"ERROR {shown}: crazylab could not check this file ({type(e).__name__}: "
                f"{_clip(str(e), 120)}); this is a bug in crazylab, please report it",
                sys.stderr)
            worst = 2
            continue
        if problems:
            for p in problems:
                say(f"FAIL {shown}: {p}")
            worst = max(worst, 1)
        elif not args.quiet:
            say(f"ok   {shown} ({len(example.steps)} steps)")
    return worst


def say(text: str, stream: TextIO | None = None) -> None:
    """Print one line that any terminal can show (a lone surrogate from a file's JSON, or a
    character the stream's encoding lacks, is written as an escape instead of raising)."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        print(text.encode(encoding, "backslashreplace").decode(encoding, "replace"),
              file=stream, flush=True)
    except BrokenPipeError:  # `crazylab replay --all | head`: go on checking, quietly
        _silence(stream)


def _silence(stream: TextIO) -> None:
    """Point ``stream``'s file descriptor at /dev/null (its reader has gone)."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def cmd_rules(args: argparse.Namespace) -> int:
    if not args.name:
        width = max(len(n) for n in PRESETS)
        for name, r in PRESETS.items():
            print(f"{name:<{width}}  {r.description}")
        return 0
    try:
        r = get_rules(_preset(args.name))
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
        game = Game.new(get_rules(_preset(args.rules)), args.players, args.seed)
    except (RulesError, ValueError) as e:
        print(f"crazylab play: {e}", file=sys.stderr)
        return 2
    game.play_random(args.seed)
    for event in game.events:
        print(event.describe())
    print(f"result: {game.end_reason}, winners {list(game.winners)}, scores {list(game.scores)}")
    return 0


def _preset(name: str) -> str:
    """``name`` if it is a preset, else a :class:`RulesError` quoting it short."""
    if name not in PRESETS:
        raise RulesError(f"unknown rule set {quote(name)}; the presets are: {', '.join(PRESETS)}")
    return name


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
    """Run one command; its exit code. Ctrl-C prints one line and exits 130."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        say("crazylab: interrupted", sys.stderr)
        return 130
    except BrokenPipeError:  # `crazylab rules | head`: the reader has gone
        _silence(sys.stdout)  # no second error when Python flushes at exit
        return 1
    return code


if __name__ == "__main__":
    raise SystemExit(main())

"""The ``crazylab`` command: ``replay`` worked examples, list ``rules``, ``play`` a game, serve
``tables`` where learners play each other."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any, TextIO

from . import __version__, engine_build
from .engine.narrator import story
from .engine.options import parse_option
from .engine.rules import PRESETS, RulesError
from .engine.rules import rules as get_rules
from .errors import CrazylabError, quote
from .examples import ExampleError, example_path, list_examples, load_example
from .sim import (
    SimulationError,
    SimulationInterrupted,
    check_dataset,
    check_out,
    simulate,
    table_configs,
    write_atomically,
)


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


def cmd_review(args: argparse.Namespace) -> int:
    """Print the review of one seat of a saved game (2: the file or the seat is refused)."""
    from .review import ReviewError, review_game

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\rreviewing: decision {done} of {total}", end="", file=sys.stderr,
                  flush=True)

    try:
        decisions = review_game(args.file, args.seat, seed=args.seed, progress=progress)
    except ReviewError as e:
        say(f"crazylab review: {_clip(str(e), 300)}", sys.stderr)
        return 2
    if sys.stderr.isatty():
        print(file=sys.stderr)
    rated = [d for d in decisions if d.verdict not in ("forced", "unrated")]
    say(f"seat {args.seat}: {len(decisions)} decisions, {len(rated)} with a choice "
        "(win chance of the move played -> of the best move, over the deals sampled)")
    for d in decisions:
        if d.verdict == "forced":
            say(f"move {d.ply + 1:>3}  {d.played:<10} forced")
            continue
        if d.verdict == "unrated":
            say(f"move {d.ply + 1:>3}  {d.played:<10} not rated: {d.why}")
            continue
        played = d.chance(d.played)
        line = (f"move {d.ply + 1:>3}  {d.played:<10} {played.win:>4.0%}  best {d.best:<10} "
                f"{d.moves[0].win:>4.0%}  {d.verdict}")
        say(line + (f"  (-{d.loss:.0%}, {d.worlds} deals)" if d.loss else ""))
        if d.why:
            say(f"          {d.why}")
    return 0


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
        r = get_rules(_preset(args.name), **_options(args.option))
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
        game = Game.new(get_rules(_preset(args.rules), **_options(args.option)), args.players,
                        args.seed)
    except (RulesError, ValueError) as e:
        print(f"crazylab play: {e}", file=sys.stderr)
        return 2
    try:
        game.play_random(args.seed)
    except (ValueError, RuntimeError) as e:  # a hand that never ends under these rules
        print(f"crazylab play: {_clip(str(e), 300)}", file=sys.stderr)
        return 1
    for line in story(game):
        print(line)
    print(f"result: {game.end_reason}, winners {list(game.winners)}, scores {list(game.scores)}")
    return 0


def _options(items: Sequence[str]) -> dict[str, object]:
    """The ``--option KEY=VALUE`` items as rule options (the typed schema parses them)."""
    return dict(parse_option(item) for item in items)


def _preset(name: str) -> str:
    """``name`` if it is a preset, else a :class:`RulesError` quoting it short."""
    if name not in PRESETS:
        raise RulesError(f"unknown rule set {quote(name)}; the presets are: {', '.join(PRESETS)}")
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="crazylab", description=__doc__)
    parser.add_argument("--version", action="version",
                        version=f"crazylab {__version__} ({engine_build()} engine)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay worked-example files and check them")
    p.add_argument("files", nargs="*")
    p.add_argument("--all", action="store_true", help="also replay every shipped example")
    p.add_argument("-q", "--quiet", action="store_true")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("rules", help="list the presets, or show one rule set's options")
    p.add_argument("name", nargs="?")
    _add_option_argument(p)
    p.set_defaults(func=cmd_rules)
    p = sub.add_parser("play", help="play a seeded random game and print its log")
    p.add_argument("rules", nargs="?", default="crazy-eights")
    p.add_argument("-n", "--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    _add_option_argument(p)
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("review", help="review one seat's decisions in a saved game: the win "
                       "chance of every legal move, the best move, and what each mistake cost")
    p.add_argument("file", help="a worked-example file (its setup and moves) or a shipped "
                                "example's name")
    p.add_argument("--seat", type=int, default=0, help="the seat reviewed (default: 0)")
    p.add_argument("--seed", type=int, default=0, help="the sampling's seed (default: 0)")
    p.set_defaults(func=cmd_review)
    add_simulate_parser(sub)
    from .classroom.cli import add_class_parser  # `crazylab class ...` (issue 22)

    add_class_parser(sub)
    from .publish import add_publish_parsers  # `crazylab serve`, `crazylab site` (issue 24)

    add_publish_parsers(sub)  # and `crazylab tables` (issue 23)
    return parser


def _add_option_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a house rule, e.g. voluntary_draw=false (repeatable; the options are "
                        "in docs/OPTIONS.md)")


# -- crazylab simulate ------------------------------------------------------------------------


def add_simulate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``crazylab simulate`` to an argparse subparsers object."""
    p = subparsers.add_parser(
        "simulate", help="play many hands with bots; print a summary, write CSV or Parquet",
        description="Play many hands with computer players and summarise them. Example: "
                    "crazylab simulate crazy-eights-classic crazy-eights-quick -n 2 -n 4 "
                    "--bots rules,random --games 2000 --out hands.parquet")
    p.add_argument("rules", nargs="*", default=["crazy-eights"],
                   help="preset names (default: crazy-eights)")
    p.add_argument("-n", "--players", type=int, action="append",
                   help="table size; repeat for several (default: 2)")
    p.add_argument("--bots", default="random",
                   help="comma-separated bots given to the seats in order, repeated as needed: "
                        "random, rules, mc, mc:PLAYOUTS (default: random)")
    p.add_argument("--games", type=int, default=1000, help="hands per rule set and table size")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=None,
                   help="processes (default: the CPUs this process may use)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on this Dask cluster (tcp://host:8786) instead of local processes")
    p.add_argument("--start", type=int, default=0, metavar="HAND",
                   help="play hands HAND to GAMES-1 only, exactly as a whole run plays them "
                        "(resume a seeded run)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option for every rule set, e.g. draw_limit=2 (repeatable)")
    p.add_argument("--rotate", action="store_true", help="move the bots one seat each hand")
    p.add_argument("--out", help="write the hands to this .csv or .parquet file")
    p.add_argument("--dataset", metavar="DIR",
                   help="write the hands as a Parquet dataset in DIR, one part file per chunk, "
                        "written by the workers (memory stays flat; with --start, resume)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)
    return p


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM stops a simulation as Ctrl-C does (the finished hands are kept)."""
    raise KeyboardInterrupt


def _fail(message: str) -> int:
    print(f"crazylab simulate: {message}", file=sys.stderr)
    return 2


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run ``crazylab simulate``: 0 done, 2 a bad command line (nothing played), 1 a hand that
    never ends or an ``--out`` that cannot be written (a full disk: one line, no partial
    file), 130 interrupted (the finished hands written to ``--out`` if given).

    The whole command line is checked before the first hand: rule sets and options, table
    sizes, bots, ``--games`` (at least 1), ``--workers`` (at least 1), and that ``--out`` can
    be written."""
    try:
        options = dict(parse_option(item) for item in args.option)  # the typed schema
        rule_sets = [get_rules(name, **options) for name in args.rules]
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        if not bots:
            raise SimulationError(f"--bots {quote(args.bots)}: name at least one bot "
                                  "(random, rules, mc, mc:PLAYOUTS)")
        if args.games < 1:
            raise SimulationError(f"--games must be at least 1, not {args.games}")
        if args.workers is not None and args.workers < 1:
            raise SimulationError(f"--workers must be at least 1, not {args.workers} (leave it "
                                  "out to use every core)")
        if not 0 <= args.start <= args.games:
            raise SimulationError(f"--start must be from 0 to --games ({args.games}), not "
                                  f"{args.start}")
        if args.out and args.dataset:
            raise SimulationError("give --out FILE or --dataset DIR, not both")
        if args.scheduler is not None and args.workers is not None:
            raise SimulationError("give --workers (local processes) or --scheduler (a Dask "
                                  "cluster), not both")
        configs, _ = table_configs(rule_sets, args.players or [2], bots, args.rotate)
        out = check_out(args.out) if args.out else None
        dataset = (check_dataset(args.dataset, len(configs), args.start) if args.dataset
                   else None)
        import pandas as pd
        client = _connect(args.scheduler) if args.scheduler is not None else None
    except ImportError as e:
        return _fail(f"the simulation lab needs pandas ({e}): pip install 'crazylab[lab]'")
    except (RulesError, ValueError) as e:
        return _fail(str(e))
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, _stop) if main else None  # `kill` keeps hands too
    try:
        df = simulate(rule_sets, players=args.players or [2], bots=bots, games=args.games,
                      seed=args.seed, workers=args.workers, rotate=args.rotate,
                      progress=False if args.no_progress else None, client=client,
                      start=args.start, out=dataset)
    except SimulationInterrupted as stop:
        kept = ""
        if dataset is not None:
            kept = (f"; the finished hands are in {dataset}: add --start {stop.resume} to "
                    "resume")
            print(f"crazylab simulate: interrupted after {stop.done} of {stop.total} "
                  f"hands{kept}", file=sys.stderr)
            return 130
        if out is not None and stop.rows:
            if not _write(stop.partial(), out):
                return 1
            kept = f"; the {len(stop.rows)} finished hands are in {out}"
        elif out is not None:
            kept = f"; no hand had finished, {out} was not written"
        else:
            kept = " (not saved: give --out FILE to keep the finished hands)"
        print(f"crazylab simulate: interrupted after {len(stop.rows)} of {stop.total} "
              f"hands{kept}", file=sys.stderr)
        return 130
    except SimulationError as e:
        return _fail(str(e))
    except CrazylabError as e:  # a hand that never ends under these rules (EndlessHand)
        print(f"crazylab simulate: {_clip(str(e), 300)}", file=sys.stderr)
        return 1
    finally:
        if main and old is not None:
            signal.signal(signal.SIGTERM, old)
        if client is not None:
            client.close()
    from .lab import summary, wilson, win_rates

    if dataset is not None:  # the hands are on disk: the summary came from the workers
        wins = pd.DataFrame(df.attrs["wins"])
        if len(wins):
            wins["rate"] = wins["wins"] / wins["hands"]
            bounds = [wilson(w, n) for w, n in zip(wins["wins"], wins["hands"], strict=True)]
            wins["low"], wins["high"] = [b[0] for b in bounds], [b[1] for b in bounds]
        with pd.option_context("display.width", 120, "display.max_columns", 20):
            print(df.to_string())
            print()
            print(wins.round(3).to_string(index=False))
        print(f"\nwrote {int(df['hands'].sum())} hands to {dataset} ({df.attrs['parts']} "
              "part files)")
        return 0
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(summary(df).to_string())
        print()
        print(win_rates(df, by="bot").to_string(index=False))
    if out is not None:
        if not _write(df, out):
            return 1
        print(f"\nwrote {len(df)} hands to {out}")
    return 0


#: seconds ``--scheduler`` waits for the Dask scheduler to answer
CONNECT_TIMEOUT = 10


def _connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; :class:`SimulationError` in one line
    when dask is not installed or the scheduler does not answer within
    :data:`CONNECT_TIMEOUT` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs dask: pip install 'crazylab[lab]'") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise SimulationError(f"--scheduler {quote(address)}: cannot reach a Dask scheduler "
                              f"there ({_clip(str(e) or type(e).__name__, 120)})") from None


def _write(df: Any, out: Any) -> bool:
    """Write ``--out`` whole or not at all (a temporary file renamed into place); a full disk
    or a folder that vanished is one line on stderr (``False``: exit 1), no partial file."""
    try:
        write_atomically(df, out)
    except OSError as e:
        print(f"crazylab simulate: cannot write {quote(str(out))}: "
              f"{e.strerror or _clip(str(e), 120)}; nothing was written", file=sys.stderr)
        return False
    return True


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

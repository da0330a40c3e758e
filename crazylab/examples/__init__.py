"""Worked-example files (``notation.md``): load and validate, replay, step through, save.

A file sets up a position, makes moves and states what must be true after each step. The
tests replay every shipped file, ``crazylab replay`` checks files from the command line, and
the explainer widget shows :meth:`Example.frames` one by one.

Beyond ``notation.md`` this loader accepts a few keys of its own, all optional: ``description``
and ``dealer`` at the top level (``dealer`` also in ``setup``), ``seed`` next to a ``setup``
(it seeds later reshuffles and burials), ``match`` (``{"scores": [...], "target": N}``: match
scores before the hand), and the expectations ``phase``, ``reshuffles``, ``winners``,
``reason``, ``match_scores``, ``match_winner``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.cards import SUITS, Card, CardError, parse_suit, sort_key
from ..engine.events import Event
from ..engine.game import Game, IllegalMove, SetupError
from ..engine.moves import PLAY, Move, MoveError
from ..engine.pitch import LETTERS, PitchError, parse_letter, parse_pitch
from ..engine.rules import RulesError, RuleSet
from ..engine.rules import rules as get_rules

EXAMPLES_DIR = Path(__file__).parent
TOP_KEYS = {"title", "description", "rules", "options", "players", "setup", "steps", "seed",
            "dealer", "match"}
SETUP_KEYS = {"hands", "stock", "discard", "piles", "to_play", "suit", "pitch", "deck", "dealer"}
STEP_KEYS = {"say", "move", "expect"}
EXPECT_KEYS = {"legal", "legal_includes", "legal_excludes", "to_play", "top", "tops", "suit",
               "pitch", "hands", "hand_sizes", "stock_size", "over", "winner", "scores", "error",
               "phase", "reshuffles", "winners", "reason", "match_scores", "match_winner"}


class ExampleError(ValueError):
    """A worked-example file that is malformed or impossible (``crazylab replay`` exits 2)."""


@dataclass(frozen=True)
class Step:
    say: str = ""
    move: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Frame:
    """The game after step ``index`` (frame 0 is the setup)."""

    index: int
    step: Step | None
    game: Game
    new_events: tuple[Event, ...]
    error: str | None = None


@dataclass(frozen=True)
class Example:
    name: str
    title: str
    rules: RuleSet
    players: int
    steps: tuple[Step, ...]
    data: dict[str, Any]
    description: str = ""

    def start(self) -> Game:
        """A fresh game at the file's setup."""
        return _start(self.data, self.rules, self.players)

    def frames(self) -> list[Frame]:
        """Every step's position, for an explainer (moves are applied even if an
        expectation fails; a refused move leaves the position as it was)."""
        game = self.start()
        frames = [Frame(0, None, game.copy(), tuple(game.events))]
        for i, step in enumerate(self.steps, 1):
            before = len(game.events)
            error = None
            if step.move is not None:
                try:
                    game.push(step.move)
                except IllegalMove as e:
                    error = str(e)
            frames.append(Frame(i, step, game.copy(), tuple(game.events[before:]), error))
        return frames

    def replay(self) -> list[str]:
        """Check every expectation; return what differed (empty when the file holds)."""
        return self.play()[1]

    def play(self) -> tuple[Game, list[str]]:
        """Replay the file, checking every expectation: the final game and what differed."""
        game = self.start()
        problems: list[str] = []
        for i, step in enumerate(self.steps, 1):
            wants_error = step.expect.get("error")
            if step.move is not None:
                before = game.fingerprint()
                try:
                    game.push(step.move)
                except IllegalMove as e:
                    if not wants_error:
                        problems.append(f"step {i}: move {step.move} was refused: {e}")
                        return game, problems
                    if isinstance(wants_error, str) and wants_error.lower() not in str(e).lower():
                        problems.append(f"step {i}: expected an error containing "
                                        f"{wants_error!r}, got {str(e)!r}")
                    if game.fingerprint() != before:
                        problems.append(f"step {i}: the refused move changed the game")
                else:
                    if wants_error:
                        problems.append(f"step {i}: expected {step.move} to be refused, "
                                        "but it was played")
                        return game, problems
            problems += [f"step {i}: {p}" for p in check(game, step.expect, self.data)]
        return game, problems


def list_examples() -> list[str]:
    """Names of the worked examples shipped with crazylab."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))


def example_path(name: str) -> Path:
    return EXAMPLES_DIR / f"{name}.json"


def load_example(source: str | Path | dict[str, Any]) -> Example:
    """Load and validate a worked example: a shipped name, a path, or a parsed dict.
    Raises :class:`ExampleError` naming the problem; nothing is half-loaded."""
    name = "example"
    if isinstance(source, dict):
        data = source
    else:
        path = Path(source)
        if not path.exists() and isinstance(source, str) and example_path(source).exists():
            path = example_path(source)
        name = path.stem
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ExampleError(f"{source}: no such file or shipped example") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ExampleError(f"{path}: not valid JSON ({e})") from None
    return _validate(data, name)


def _validate(data: Any, name: str) -> Example:
    if not isinstance(data, dict):
        raise ExampleError(f"{name}: a worked example is a JSON object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ExampleError(f"{name}: unknown key(s) {', '.join(sorted(unknown))}")
    for key in ("rules", "players"):
        if key not in data:
            raise ExampleError(f"{name}: '{key}' is required")
    options = data.get("options", {}) or {}
    if not isinstance(options, dict):
        raise ExampleError(f"{name}: 'options' must be an object")
    try:
        rs = get_rules(data["rules"], **options)
    except RulesError as e:
        raise ExampleError(f"{name}: {e}") from None
    players = data["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise ExampleError(f"{name}: 'players' must be a number")
    setup = data.get("setup")
    if setup is not None:
        if not isinstance(setup, dict):
            raise ExampleError(f"{name}: 'setup' must be an object")
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise ExampleError(f"{name}: unknown setup key(s) {', '.join(sorted(unknown))}")
    elif "seed" not in data:
        raise ExampleError(f"{name}: give a 'setup' or a 'seed'")
    try:
        _start(data, rs, players)  # proves the setup is possible
    except (SetupError, CardError, PitchError, ValueError) as e:
        raise ExampleError(f"{name}: impossible setup: {e}") from None
    raw_steps = data.get("steps", [])
    if not isinstance(raw_steps, list):
        raise ExampleError(f"{name}: 'steps' must be a list")
    steps = []
    for i, raw in enumerate(raw_steps, 1):
        if not isinstance(raw, dict):
            raise ExampleError(f"{name}: step {i} must be an object")
        unknown = set(raw) - STEP_KEYS
        if unknown:
            raise ExampleError(f"{name}: step {i}: unknown key(s) {', '.join(sorted(unknown))}")
        expect = raw.get("expect", {}) or {}
        if not isinstance(expect, dict):
            raise ExampleError(f"{name}: step {i}: 'expect' must be an object")
        unknown = set(expect) - EXPECT_KEYS
        if unknown:
            raise ExampleError(f"{name}: step {i}: unknown expectation(s) "
                               f"{', '.join(sorted(unknown))}")
        move = raw.get("move")
        if move is not None:
            if not isinstance(move, str):
                raise ExampleError(f"{name}: step {i}: 'move' must be a string")
            if not expect.get("error"):
                try:
                    Move.parse(move)
                except MoveError as e:
                    raise ExampleError(f"{name}: step {i}: {e}") from None
        try:
            _check_expect_values(expect)
        except (CardError, PitchError, MoveError, ValueError) as e:
            raise ExampleError(f"{name}: step {i}: {e}") from None
        steps.append(Step(str(raw.get("say", "")), move, expect))
    return Example(name, str(data.get("title", name)), rs, players, tuple(steps), data,
                   str(data.get("description", "")))


def _check_expect_values(expect: dict[str, Any]) -> None:
    for key in ("legal", "legal_includes", "legal_excludes"):
        for text in expect.get(key, []):
            Move.parse(text)
    for key in ("top",):
        if key in expect:
            Card.parse(expect[key])
    for text in expect.get("tops", []):
        Card.parse(text)
    for cards_ in (expect.get("hands") or {}).values():
        for text in cards_:
            Card.parse(text)


def _start(data: dict[str, Any], rs: RuleSet, players: int) -> Game:
    setup = data.get("setup")
    seed = data.get("seed")
    dealer = data.get("dealer")
    if setup is None:
        return Game.new(rs, players, seed, dealer=dealer)
    dealer = setup.get("dealer", dealer)
    if "deck" in setup:
        extra = set(setup) - {"deck", "dealer"}
        if extra:
            raise SetupError(f"a stacked 'deck' cannot be combined with {', '.join(sorted(extra))}")
        return Game.from_deck(rs, players, setup["deck"], seed=seed, dealer=dealer)
    if "hands" not in setup:
        raise SetupError("setup needs 'hands' (a dealt position) or 'deck' (a stacked deck)")
    return Game.from_position(
        rs, players, hands=setup["hands"], stock=setup.get("stock", []),
        discard=setup.get("discard"), piles=setup.get("piles"), to_play=setup.get("to_play", 0),
        suit=setup.get("suit"), pitch=setup.get("pitch"), seed=seed, dealer=dealer)


# -- checking expectations -------------------------------------------------------------------


def _canon_move(game: Game, text: str) -> str:
    m = Move.parse(text)
    if m.kind == PLAY and m.call is not None:
        m = Move(PLAY, m.cards, game.canonical_call(m.call), m.pile, m.last)
    if m.kind == PLAY and m.pile == 0 and game.rules.piles == 1:
        m = Move(PLAY, m.cards, m.call, None, m.last)
    return str(m)


def _same_pitch(game: Game, expected: str, got: str | None) -> bool:
    if got is None:
        return expected is None
    if game.rules.call_kind == "letter":
        return parse_letter(expected) == parse_letter(got)
    return parse_pitch(expected) == parse_pitch(got)


def check(game: Game, expect: dict[str, Any], data: dict[str, Any] | None = None) -> list[str]:
    """What differs between ``game`` and the expectations ``expect``."""
    out: list[str] = []
    want: Any  # each check below compares its own kind of value
    got: Any

    def differ(key: str, want: Any, got: Any) -> None:
        out.append(f"expected {key} {want}, got {got}")

    if "legal" in expect:
        want = {_canon_move(game, t) for t in expect["legal"]}
        got = set(game.legal())
        if want != got:
            extra, missing = sorted(got - want), sorted(want - got)
            out.append(f"expected legal {sorted(want)}, got {sorted(got)} "
                       f"(missing {missing}, unexpected {extra})")
    for t in expect.get("legal_includes", []):
        if not game.is_legal(t):
            out.append(f"expected {t} to be legal, but it is not: {game.explain(t)}")
    for t in expect.get("legal_excludes", []):
        if game.is_legal(t):
            out.append(f"expected {t} to be illegal, but it is legal")
    if "to_play" in expect and game.to_play != expect["to_play"] and not game.over:
        differ("to_play", expect["to_play"], game.to_play)
    if "top" in expect and game.top != Card.parse(expect["top"]):
        differ("top", expect["top"], str(game.top))
    if "tops" in expect and game.tops != [Card.parse(t) for t in expect["tops"]]:
        differ("tops", expect["tops"], [str(c) for c in game.tops])
    if "suit" in expect:
        want = expect["suit"]
        got = game.suit
        if want is None:
            if got is not None:
                differ("suit", None, got)
        elif got is None or SUITS[parse_suit(want)] != got:
            differ("suit", want, got)
    if "pitch" in expect:
        got = game.pitch_of(0)
        if not _same_pitch(game, expect["pitch"], got):
            differ("pitch", expect["pitch"], got)
    for seat, want_cards in (expect.get("hands") or {}).items():
        s = int(seat)
        want = sorted((Card.parse(c) for c in want_cards), key=sort_key)
        got = sorted(game.hands[s], key=sort_key)
        if want != got:
            differ(f"hand of seat {s}", [str(c) for c in want], [str(c) for c in got])
    simple = {
        "hand_sizes": game.hand_sizes,
        "stock_size": game.stock_size,
        "over": game.over,
        "winner": game.winner,
        "scores": list(game.scores),
        "phase": game.phase,
        "reshuffles": game.reshuffles,
        "winners": list(game.winners),
        "reason": game.end_reason,
    }
    for key, got in simple.items():
        if key in expect and expect[key] != got:
            differ(key, expect[key], got)
    if "match_scores" in expect or "match_winner" in expect:
        match = (data or {}).get("match", {})
        start = list(match.get("scores", [0] * game.n))
        totals = [a + b for a, b in zip(start, game.scores, strict=True)]
        if "match_scores" in expect and expect["match_scores"] != totals:
            differ("match_scores", expect["match_scores"], totals)
        if "match_winner" in expect:
            target = match.get("target", game.rules.match_target)
            leaders = [s for s, v in enumerate(totals) if v == max(totals)]
            got = (leaders[0] if target is not None and max(totals) >= target
                   and len(leaders) == 1 else None)
            if expect["match_winner"] != got:
                differ("match_winner", expect["match_winner"], got)
    return out


# -- saving and loading whole games ----------------------------------------------------------


def game_to_example(game: Game, title: str = "") -> dict[str, Any]:
    """A game as a worked-example dict: its setup, every move, and the final state."""
    data: dict[str, Any] = {
        "title": title or game.title or f"A game of {game.rules.name}",
        "rules": game.rules.name,
        "options": {k: (list(v) if isinstance(v, tuple) else v)
                    for k, v in game.rules.options().items() if k in game.rules.options_changed},
        "players": game.n,
        "seed": game.seed,
        "dealer": game.dealer,
    }
    setup = {k: v for k, v in game.setup.items() if k not in ("seed", "dealer")}
    if setup:
        data["setup"] = setup
    steps: list[dict[str, Any]] = [{"move": str(m)} for m in game.moves]
    final = {"hand_sizes": game.hand_sizes, "stock_size": game.stock_size, "over": game.over}
    if game.over:
        final.update(winner=game.winner, scores=list(game.scores))
    else:
        final["to_play"] = game.to_play
    if steps:
        steps[-1]["expect"] = final
    data["steps"] = steps
    return data


def load_game(source: str | Path | dict[str, Any]) -> Game:
    """Load a saved game (a worked-example file) and replay its moves; refuse it whole if any
    move is illegal or the final state differs."""
    example = load_example(source)
    game, problems = example.play()
    if problems:
        raise ExampleError(f"{example.name}: {problems[0]}")
    return game


def save_game(game: Game, path: str | Path, title: str = "") -> None:
    Path(path).write_text(json.dumps(game_to_example(game, title), indent=1) + "\n",
                          encoding="utf-8")


__all__ = ["Example", "ExampleError", "Frame", "Step", "check", "game_to_example",
           "list_examples", "load_example", "load_game", "save_game", "LETTERS"]

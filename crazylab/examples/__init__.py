"""Worked-example files (``notation.md``): load and validate, replay, step through, save.

A file sets up a position, makes moves and states what must be true after each step. The
tests replay every shipped file, ``crazylab replay`` checks files from the command line, and
the explainer widget shows :meth:`Example.frames` one by one.

Beyond ``notation.md`` this loader accepts a few keys of its own, all optional: ``description``
and ``dealer`` at the top level (``dealer`` also in ``setup``), ``seed`` next to a ``setup``
(it seeds later reshuffles and burials), ``match`` (``{"scores": [...], "target": N,
"games_played": K}``: match scores before the hand, and the games of a ``games_in_match``
match already played, A11), and the expectations ``phase``, ``reshuffles``, ``winners``,
``reason``, ``match_scores``, ``match_winner``, ``match_winners`` (``[]`` while the match
goes on); and ``$schema`` (for editors).

The format is the JSON Schema ``worked-example.schema.json`` next to this module
(:data:`SCHEMA_PATH`, :func:`schema`). Loading checks, in order: the bytes (UTF-8, strict JSON,
see :func:`parse_json`), the schema (with ``jsonschema``, imported only when a file is loaded),
then what a schema cannot say (a preset, cards, moves, option values, a possible setup, seats
that exist). Every refusal is an :class:`ExampleError` (a ``CrazylabError``) naming the file
and the first problem, quoting at most ~80 characters of it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import math
import os
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..engine.cards import SUITS, Card, parse_suit, sort_key
from ..engine.events import Event
from ..engine.game import Game, SetupError
from ..engine.moves import PLAY, Move, MoveError
from ..engine.pitch import LETTERS, PITCH_NAMES, parse_letter, parse_pitch
from ..engine.rules import PRESETS, RuleSet
from ..engine.rules import rules as get_rules
from ..errors import CrazylabError, int_digits, quote

EXAMPLES_DIR = Path(__file__).parent
#: the JSON Schema of the format (``notation.md``), shipped with the package
SCHEMA_PATH = EXAMPLES_DIR / "worked-example.schema.json"
#: files larger than this are refused unread (a long saved game is well under 1 MB)
MAX_BYTES = 16 * 1024 * 1024
#: integers with more digits than this are refused while reading the JSON
MAX_DIGITS = 40
#: how deep a file may nest (the format itself needs 6 levels)
MAX_DEPTH = 24
#: the most steps a file may hold (a long saved game has a few thousand moves)
MAX_STEPS = 20_000
#: the longest list (or object) anywhere else in a file, such as an ``expect.legal`` (a
#: position has at most a few hundred legal moves; a deck at most a few hundred cards)
MAX_ITEMS = 2_000
#: errors the engine raises for bad data (``ValueError``: its own errors; ``TypeError`` and
#: ``ArithmeticError``: values the engine does not check yet), turned into ``ExampleError``
_DATA_ERRORS = (ValueError, TypeError, ArithmeticError)


class ExampleError(CrazylabError):
    """A worked-example file that is unusable: unreadable, not JSON, against the schema, or
    impossible (``crazylab replay`` exits 2). The message names the file and the problem."""


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
                except ValueError as e:  # IllegalMove, or a move the parser refused
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
                except ValueError as e:  # IllegalMove, or a move the parser refused
                    message = _clip(str(e))
                    if not wants_error:
                        problems.append(f"step {i}: move {quote(step.move)} was refused: "
                                        f"{message}")
                        return game, problems
                    if isinstance(wants_error, str) and wants_error.lower() not in str(e).lower():
                        problems.append(f"step {i}: expected an error containing "
                                        f"{quote(wants_error)}, got {quote(str(e))}")
                    if game.fingerprint() != before:
                        problems.append(f"step {i}: the refused move changed the game")
                else:
                    if wants_error:
                        problems.append(f"step {i}: expected {quote(step.move)} to be refused, "
                                        "but it was played")
                        return game, problems
            problems += [f"step {i}: {p}" for p in check(game, step.expect, self.data)]
        return game, problems


def list_examples() -> list[str]:
    """Names of the worked examples shipped with crazylab."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.json") if p != SCHEMA_PATH)


def example_path(name: str) -> Path:
    return EXAMPLES_DIR / f"{name}.json"


def load_example(source: str | Path | dict[str, Any]) -> Example:
    """Load and validate a worked example: a shipped name, a path, or a parsed dict.

    The file is read as UTF-8 JSON, checked against :data:`SCHEMA_PATH` (with the
    ``jsonschema`` library: ``pip install 'crazylab[examples]'``), then for what a schema
    cannot say (cards, moves, rule options, a possible setup). Raises :class:`ExampleError`
    naming the problem, whatever the bytes; nothing is half-loaded."""
    if isinstance(source, dict):
        return _validate(source, "example")
    if not isinstance(source, (str, Path)):
        raise ExampleError(f"load_example takes a name, a path or a dict, not "
                           f"{type(source).__name__}")
    path = _resolve(source)
    shipped = path.parent == EXAMPLES_DIR  # checked against the schema by the tests
    return _validate(parse_json(_read(path), str(path)), path.stem, str(path),
                     schema_optional=shipped)


def _resolve(source: str | Path) -> Path:
    """The file ``source`` names: a path, else a shipped example's name."""
    shown = _clip(str(source), 200)
    if "\0" in str(source):
        raise ExampleError(f"{quote(str(source), 200)}: not a usable path (it holds a NUL "
                           "character)")
    try:
        path = Path(source)
        if path.exists():
            return path
        if isinstance(source, str) and "/" not in source and example_path(source).exists():
            return example_path(source)
    except (OSError, ValueError) as e:  # a name too long, an embedded NUL byte ...
        raise ExampleError(f"{shown}: not a usable path ({_os_reason(e)})") from None
    raise ExampleError(f"{shown}: no such file or shipped example")


def _read(path: Path) -> str:
    shown = _clip(str(path), 200)
    try:
        if path.is_dir():
            raise ExampleError(f"{shown}: is a folder; name the .json files in it")
        if not path.is_file():
            raise ExampleError(f"{shown}: not a regular file")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ExampleError(f"{shown}: {size} bytes is too large for a worked example "
                               f"(at most {MAX_BYTES})")
        raw = path.read_bytes()[: MAX_BYTES + 1]
    except OSError as e:
        raise ExampleError(f"{shown}: cannot read it ({_os_reason(e)})") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ExampleError(f"{shown}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset "
                           f"{e.start}); save the file as UTF-8") from None


def _os_reason(e: BaseException) -> str:
    return e.strerror if isinstance(e, OSError) and e.strerror else _clip(str(e))


def parse_json(text: str, name: str = "example") -> Any:
    """Strict JSON: no ``NaN``/``Infinity``, no number too large for a float (``1e400``),
    no integer of more than :data:`MAX_DIGITS` digits, no repeated key, no nesting deeper than
    :data:`MAX_DEPTH`. Raises :class:`ExampleError`."""
    shown = _clip(name, 200)
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_object)
    except _JSONValueError as e:
        raise ExampleError(f"{shown}: not valid JSON: {e}") from None
    except json.JSONDecodeError as e:
        raise ExampleError(f"{shown}: not valid JSON: {e.msg} at line {e.lineno} column "
                           f"{e.colno}") from None
    except RecursionError:
        raise ExampleError(f"{shown}: not usable: nested too deeply (a worked example "
                           f"nests at most {MAX_DEPTH} levels)") from None
    _check_sizes(data, shown)
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise ExampleError(f"{shown}: not usable: nested {depth} levels deep (a worked example "
                           f"nests at most {MAX_DEPTH} levels)")
    return data


class _JSONValueError(ValueError):
    """Raised by the JSON hooks below (``json`` passes it through)."""


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _JSONValueError(f"an integer of {digits} digits is too large "
                              f"(at most {MAX_DIGITS} digits)")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _JSONValueError(f"the number {quote(text)} is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise _JSONValueError(f"{text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JSONValueError(f"the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def _check_sizes(data: Any, name: str) -> None:
    """Replay work bounded by content: at most :data:`MAX_STEPS` steps, and no other list or
    object longer than :data:`MAX_ITEMS` (:class:`ExampleError`, before any other work; each
    container's length is read before its items, so a refusal costs little)."""
    steps = data.get("steps") if isinstance(data, dict) else None
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise ExampleError(f"{name}: {len(steps)} steps is too many for a worked example (at "
                           f"most {MAX_STEPS})")
    stack: list[tuple[Any, list[Any]]] = [(data, [])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
        elif isinstance(value, (list, tuple)):
            items = enumerate(value)
        else:
            continue
        if len(value) > MAX_ITEMS and value is not steps:
            where = _where(path) if path else "the file"
            raise ExampleError(f"{name}: {where} holds {len(value)} items, too many for a "
                               f"worked example (at most {MAX_ITEMS})")
        if len(path) <= MAX_DEPTH:  # deeper is refused by the depth check
            stack.extend((v, [*path, k]) for k, v in items
                         if isinstance(v, (dict, list, tuple)))


def _depth(data: Any) -> int:
    """How deeply ``data`` nests (iteratively: safe at any depth, and on a dict that holds
    itself); more than :data:`MAX_DEPTH` is reported as ``MAX_DEPTH + 1``."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, d = stack.pop()
        if isinstance(value, (dict, list, tuple)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, d + 1) for v in items if isinstance(v, (dict, list, tuple)))
    return deepest


def _huge_int(data: Any) -> int | None:
    """The digit count of the first integer in ``data`` longer than :data:`MAX_DIGITS`."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, int) and int_digits(value) > MAX_DIGITS:
            return int_digits(value)
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return None


def _show(value: Any) -> str:
    """A value from a file as a message shows it: as written when short, else quoted and cut."""
    return value if isinstance(value, str) and len(value) <= 80 else quote(value)


def _clip(text: str, limit: int = 300) -> str:
    """A message cut to ``limit`` characters (the engine's messages quote their input)."""
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


# -- the schema --------------------------------------------------------------------------------


@cache
def schema() -> dict[str, Any]:
    """The worked-example JSON Schema (draft 2020-12) as a dict."""
    result: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return result


#: what ``jsonschema`` imports for the ``iri``/``uri`` formats, which the schema does not use:
#: ``rfc3987_syntax`` builds a grammar on import (1.2 s of a 2 s ``crazylab replay``)
_UNUSED_FORMAT_MODULES = ("rfc3987", "rfc3987_syntax")


def _import_jsonschema() -> Any:
    """``import jsonschema`` without the modules of :data:`_UNUSED_FORMAT_MODULES` (not yet
    imported): they are hidden while it imports, so its format checker goes without the IRI
    formats (no format of the worked-example schema is checked anyway)."""
    hidden = [m for m in _UNUSED_FORMAT_MODULES if m not in sys.modules]
    for m in hidden:
        sys.modules[m] = None  # type: ignore[assignment]  # `import m` raises ImportError
    try:
        import jsonschema
    finally:
        for m in hidden:
            if m in sys.modules and sys.modules[m] is None:
                del sys.modules[m]
    return jsonschema


@cache
def _validator() -> Any:
    try:
        jsonschema = _import_jsonschema()
    except ImportError:
        raise ExampleError("checking a worked-example file needs the jsonschema library: "
                           "pip install 'crazylab[examples]'") from None
    base = jsonschema.Draft202012Validator
    # a JSON integer is a whole number written without a point: 1.0 is not a seat or a seed
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
    strict = jsonschema.validators.extend(base, type_checker=checker)
    # the shipped schema is checked against the metaschema by the tests, not on every start
    return strict(schema())


_TYPE_WORDS = {"integer": "a whole number", "string": "text", "boolean": "true or false",
               "null": "null", "array": "a list", "object": "an object", "number": "a number"}


def _where(path: list[Any]) -> str:
    """``['steps', 1, 'expect', 'winner']`` → ``step 2: expect.winner``."""
    prefix = ""
    if len(path) >= 2 and path[0] == "steps" and isinstance(path[1], int):
        prefix, path = f"step {path[1] + 1}", path[2:]
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    if prefix:
        return f"{prefix}: {text}" if text else prefix
    return text or "the file"


def _schema_message(error: Any) -> str:
    """One line, in words, for a jsonschema ``ValidationError`` (input quoted, cut)."""
    path = list(error.absolute_path)
    where = _where(path)
    kind, value, inst = error.validator, error.validator_value, error.instance
    if "propertyNames" in error.schema_path:  # a key, not a value, is wrong
        hint = error.schema.get("description")
        return f"{where}: the key {quote(inst, 40)} is not allowed" + (
            f" (a key here is {hint})" if hint else "")
    if kind == "type":
        kinds = [value] if isinstance(value, str) else list(value)
        want = " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
        hint = error.schema.get("description")
        hint = f" ({hint})" if hint and kinds == ["string"] else ""
        return f"{where} must be {want}{hint}, not {quote(inst)}"
    if kind == "required":
        missing = [k for k in value if k not in inst]
        return f"'{missing[0]}' is required" + ("" if not path else f" in {where}")
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(k for k in inst if k not in allowed)
        names = ", ".join(quote(k, 40) for k in extra[:5]) + (" …" if len(extra) > 5 else "")
        head = f"step {path[1] + 1}: " if path[:1] == ["steps"] and len(path) > 1 else ""
        if not path or (head and len(path) == 2):
            what = "key(s)"
        elif path == ["setup"]:
            what = "setup key(s)"
        elif head and path[2:] == ["expect"]:
            what = "expectation(s)"
        else:
            head, what = "", f"key(s) in {where}"
        return f"{head}unknown {what} {names} (allowed: {', '.join(allowed)})"
    if kind == "pattern":
        hint = error.schema.get("description")
        return f"{where}: {quote(inst)} is not allowed" + (f" ({hint})" if hint else "")
    if kind == "maxLength":
        hint = error.schema.get("description")
        hint = f" for {hint.split(':')[0]}" if hint else ""
        return f"{where} is too long{hint} (at most {value} characters): {quote(inst, 40)}"
    if kind == "maximum":
        return f"{where} must be at most {value}, not {quote(inst)}"
    if kind == "minimum":
        return f"{where} must be at least {value}, not {quote(inst)}"
    if kind == "enum":
        choices = ", ".join("null" if v is None else str(v) for v in value)
        return f"{where} must be one of {choices}, not {quote(inst)}"
    return f"{where}: {_clip(error.message, 120)}"


def check_schema(data: Any, name: str = "example") -> None:
    """Check ``data`` against the worked-example schema; :class:`ExampleError` naming the
    first problem (and how many more there are)."""
    validator = _validator()  # an ExampleError saying what to install if jsonschema is missing
    import jsonschema

    try:
        errors = list(validator.iter_errors(data))
    except (RecursionError, ValueError) as e:  # what the validator cannot even describe
        raise ExampleError(f"{name}: not usable ({_clip(str(e), 100)})") from None
    if not errors:
        return
    best = jsonschema.exceptions.best_match(errors)
    more = len(errors) - 1
    extra = f" (and {more} more problem{'s' * (more > 1)})" if more else ""
    raise ExampleError(f"{name}: {_schema_message(best)}{extra}")


# -- what the schema cannot say ---------------------------------------------------------------


def _validate(data: Any, name: str, label: str | None = None, *,
              schema_optional: bool = False) -> Example:
    """The checked :class:`Example` called ``name``; messages begin with ``label``. With
    ``schema_optional`` (a shipped file) the schema check is skipped where ``jsonschema`` is
    not installed, as in the static site's browser Python."""
    title_name = name
    name = _clip(label or name, 200)
    _check_sizes(data, name)
    if _depth(data) > MAX_DEPTH:
        raise ExampleError(f"{name}: not usable: nested more than {MAX_DEPTH} levels deep")
    digits = _huge_int(data)
    if digits is not None:
        raise ExampleError(f"{name}: an integer of {digits} digits is too large "
                           f"(at most {MAX_DIGITS} digits)")
    if not (schema_optional and importlib.util.find_spec("jsonschema") is None):
        check_schema(data, name)
    if data["rules"] not in PRESETS:
        raise ExampleError(f"{name}: unknown rule set {quote(data['rules'])}; the presets are: "
                           f"{', '.join(PRESETS)}")
    try:
        rs = get_rules(data["rules"], **data.get("options", {}))
    except ValueError as e:
        raise ExampleError(f"{name}: {_clip(str(e))}") from None
    except _DATA_ERRORS as e:  # a value of the wrong kind the engine did not name
        options = data.get("options", {})
        culprit = next((k for k in options if _refused(data["rules"], k, options[k])), "")
        raise ExampleError(f"{name}: options.{culprit}: a value of the wrong kind "
                           f"({_clip(str(e))})") from None
    players = data["players"]
    if "setup" not in data and "seed" not in data:
        raise ExampleError(f"{name}: give a 'setup' or a 'seed'")
    try:
        _start(data, rs, players)  # proves the setup is possible
    except _DATA_ERRORS as e:
        raise ExampleError(f"{name}: impossible setup: {_clip(str(e))}") from None
    match = data.get("match", {})
    games = rs.games_in_match
    if "games_played" in match and (games is None or match["games_played"] >= games):
        raise ExampleError(f"{name}: match.games_played={match['games_played']} needs "
                           "games_in_match above it (A11): this hand is the next game")
    if "scores" in match and len(match["scores"]) != players:
        raise ExampleError(f"{name}: match.scores gives {len(match['scores'])} values for "
                           f"{players} seats")
    steps = []
    for i, raw in enumerate(data.get("steps", []), 1):
        expect = raw.get("expect", {})
        move = raw.get("move")
        if move is not None and not expect.get("error"):
            try:
                Move.parse(move)
            except MoveError as e:
                raise ExampleError(f"{name}: step {i}: {_clip(str(e))}") from None
            except _DATA_ERRORS as e:
                raise ExampleError(f"{name}: step {i}: {quote(move)} is not a move "
                                   f"({_clip(str(e))})") from None
        try:
            _check_expect_values(expect, rs, players)
        except _DATA_ERRORS as e:
            raise ExampleError(f"{name}: step {i}: {_clip(str(e))}") from None
        steps.append(Step(raw.get("say", ""), move, expect))
    return Example(title_name, data.get("title", title_name), rs, players, tuple(steps), data,
                   data.get("description", ""))


def _refused(rules_name: str, key: str, value: Any) -> bool:
    """Whether option ``key=value`` alone is refused (to name the culprit of an error)."""
    try:
        get_rules(rules_name, **{key: value})
    except _DATA_ERRORS:
        return True
    return False


def _check_expect_values(expect: dict[str, Any], rs: RuleSet, players: int) -> None:
    """The values of one step's expectations that a schema cannot check (``ValueError``)."""
    for key in ("legal", "legal_includes", "legal_excludes"):
        for text in expect.get(key, []):
            Move.parse(text)
    if "top" in expect:
        Card.parse(expect["top"])
    for text in expect.get("tops", []):
        Card.parse(text)
    if "tops" in expect and len(expect["tops"]) != rs.piles:
        raise ValueError(f"tops lists {len(expect['tops'])} piles, but {rs.name} has {rs.piles}")
    for seat, cards_ in expect.get("hands", {}).items():
        _seat(f"hands key {quote(seat)}", int(seat), players)
        for text in cards_:
            Card.parse(text)
    for key in ("to_play", "winner", "match_winner"):
        if expect.get(key) is not None:
            _seat(key, expect[key], players)
    for key in ("winners", "match_winners"):
        for seat in expect.get(key, []):
            _seat(key, seat, players)
    for key in ("hand_sizes", "scores", "match_scores"):
        if key in expect and len(expect[key]) != players:
            raise ValueError(f"{key} gives {len(expect[key])} values for {players} seats")
    if expect.get("suit") is not None:
        parse_suit(expect["suit"])
    if expect.get("pitch") is not None:
        (parse_letter if rs.call_kind == "letter" else parse_pitch)(expect["pitch"])


def _seat(what: str, seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise ValueError(f"{what}: seat {quote(seat)} does not exist; the seats are "
                         f"0 to {players - 1}")


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
        m = Move(PLAY, m.cards, _canon_call(game.rules, m.call), m.pile, m.last)
    if m.kind == PLAY and m.pile == 0 and game.rules.piles == 1:
        m = Move(PLAY, m.cards, m.call, None, m.last)
    return str(m)


def _canon_call(rs: RuleSet, text: str) -> str:
    """A call as the engine prints it: ``"d"`` → ``"D"``, ``"Db"`` → ``"C#"``."""
    if rs.call_kind == "suit":
        return SUITS[parse_suit(text)]
    if rs.call_kind == "letter":
        return LETTERS[parse_letter(text)]
    return PITCH_NAMES[parse_pitch(text)]


def _same_pitch(game: Game, expected: str | None, got: str | None) -> bool:
    if got is None or expected is None:
        return got is expected
    if game.rules.call_kind == "letter":
        return parse_letter(expected) == parse_letter(got)
    return parse_pitch(expected) == parse_pitch(got)


def check(game: Game, expect: dict[str, Any], data: dict[str, Any] | None = None) -> list[str]:
    """What differs between ``game`` and the expectations ``expect`` (a step's ``expect``
    object; :class:`ExampleError` for arguments of the wrong kind)."""
    _need_game(game, "check")
    if not isinstance(expect, dict) or not (data is None or isinstance(data, dict)):
        raise ExampleError(f"check takes a step's expectations as a dict, not "
                           f"{quote(expect if not isinstance(expect, dict) else data)}")
    out: list[str] = []
    want: Any  # each check below compares its own kind of value
    got: Any

    def differ(key: str, want: Any, got: Any) -> None:
        out.append(f"expected {key} {_show(want)}, got {_show(got)}")

    if "legal" in expect:
        try:
            want = {_canon_move(game, t) for t in expect["legal"]}
        except CrazylabError as e:  # a call these rules cannot read ("8C:H" in a music game)
            out.append(f"expected legal holds a move these rules cannot read: {e}")
            want = None
        got = set(game.legal())
        if want is not None and want != got:
            extra, missing = sorted(got - want), sorted(want - got)
            out.append(f"expected legal {sorted(want)}, got {sorted(got)} "
                       f"(missing {missing}, unexpected {extra})")
    for t in expect.get("legal_includes", []):
        if not game.is_legal(t):
            out.append(f"expected {_show(t)} to be legal, but it is not: "
                       f"{_clip(game.explain(t))}")
    for t in expect.get("legal_excludes", []):
        if game.is_legal(t):
            out.append(f"expected {_show(t)} to be illegal, but it is legal")
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
    if {"match_scores", "match_winner", "match_winners"} & set(expect):
        out += _check_match(game, expect, (data or {}).get("match", {}))
    return out


def _check_match(game: Game, expect: dict[str, Any], match: dict[str, Any]) -> list[str]:
    """The match expectations: totals after this hand (once it is over) and who won the
    match (``match_winners`` is ``[]`` while it goes on). A match ends when a total reaches
    its target, or (A11) when this hand is game ``games_in_match`` (``match.games_played``
    were played before it); equal highest totals then share it (``match_winners``;
    ``match_winner`` is ``null``)."""
    out: list[str] = []
    start = list(match.get("scores", [0] * game.n))
    totals = [a + b for a, b in zip(start, game.scores, strict=True)]
    if "match_scores" in expect and expect["match_scores"] != totals:
        out.append(f"expected match_scores {expect['match_scores']}, got {totals}")
    games = game.rules.games_in_match
    if games is not None:
        over = game.over and match.get("games_played", 0) + 1 >= games
    else:
        target = match.get("target", game.rules.match_target)
        over = game.over and target is not None and max(totals) >= target
    leaders = [s for s, v in enumerate(totals) if v == max(totals)] if over else []
    got: Any = leaders[0] if len(leaders) == 1 else None
    checks = {"match_winners": leaders, "match_winner": got}
    for key, value in checks.items():
        if key in expect and expect[key] != value:
            out.append(f"expected {key} {_show(expect[key])}, got {_show(value)}")
    return out


# -- saving and loading whole games ----------------------------------------------------------


def game_to_example(game: Game, title: str = "") -> dict[str, Any]:
    """A game as a worked-example dict: its setup, every move, and the final state."""
    _need_game(game, "game_to_example")
    if not isinstance(title, str):
        raise ExampleError(f"title must be text, not {quote(title)}")
    data: dict[str, Any] = {
        "title": title or game.title or f"A game of {game.rules.name}",
        "rules": game.rules.name,
        "options": {k: _json_option(k, v) for k, v in game.rules.options().items()
                    if k in game.rules.options_changed},
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


def _json_option(name: str, value: Any) -> Any:
    """An option's value as JSON holds it: tuples become lists (pairs too), and
    ``action_cards`` a map (``{"2": "draw2"}``)."""
    if name == "action_cards":
        return dict(value)
    if isinstance(value, tuple):
        return [_json_option(name, v) for v in value]
    return value


def load_game(source: str | Path | dict[str, Any]) -> Game:
    """Load a saved game (a worked-example file) and replay its moves; refuse it whole if any
    move is illegal or the final state differs."""
    example = load_example(source)
    game, problems = example.play()
    if problems:
        raise ExampleError(f"{example.name}: {problems[0]}")
    return game


def save_game(game: Game, path: str | Path, title: str = "") -> None:
    """Save ``game`` as a worked-example file at ``path``, whole or not at all (a temporary
    file in the same folder, renamed into place); :class:`ExampleError` when it cannot be."""
    if not isinstance(path, (str, Path)) or "\0" in str(path):
        raise ExampleError(f"save_game needs a file path, not {quote(path)}")
    text = json.dumps(game_to_example(game, title), indent=1) + "\n"
    out = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise ExampleError(f"{_clip(str(path), 200)}: cannot save the game there "
                           f"({_os_reason(e)})") from None


def _need_game(game: object, what: str) -> None:
    if not isinstance(game, Game):
        raise ExampleError(f"{what} takes a Game, not {quote(game)}")


__all__ = ["Example", "ExampleError", "Frame", "Step", "check", "game_to_example",
           "list_examples", "load_example", "load_game", "save_game", "LETTERS"]

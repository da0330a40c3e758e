"""Questions as data, judged by the engine: the one place an answer is read and judged.

A :class:`Question` is made from a plain-JSON ``spec`` (:func:`from_spec`), so whoever holds
the spec can rebuild it and judge an answer: the lesson page's exercise widget in the kernel,
and the class store on the server, which never takes a verdict from a browser or a kernel::

    >>> import crazylab as cl
    >>> from crazylab import questions
    >>> game = cl.new_game("crazy-eights", players=2, seed=1)
    >>> q = questions.legal_moves(game)
    >>> questions.from_spec(q.spec).judge("draw")[0] is False
    True

The kinds are ``legal_moves`` ("which moves are legal?"), ``is_legal`` (yes or no),
``score`` (a whole number), ``next_top`` (a card after some moves) and ``choice`` (one of a
few answers). A position travels as a worked example
(:func:`crazylab.examples.game_to_example`): its setup and its moves, replayed exactly.
:attr:`Question.version` is a digest of the spec: an answer to another version of a question
is not judged against this one.

Answers are read generously: card text in any case, with suit symbols or letters, in any
order, separated by spaces, commas or semicolons; a stack (``9H+9C``) is one move; a call in
any spelling the engine reads (``8S:Db`` for ``8S:C#``); a choice by its text or, for long
choices, its number.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import rulebook
from .engine.cards import Card, CardError, sort_key
from .engine.errors import CrazylabError, quote
from .engine.game import Game
from .engine.moves import DRAW, END, PASS, PLAY, Move, MoveError
from .engine.narrator import words_for
from .engine.reasons import legal_reason, verdicts
from .engine.scorecard import Scored, card_value, score_hands
from .examples import game_to_example, load_example
from .practice import Item

#: a checker returns (True, text) for a right answer, (False, text) for a wrong one, and
#: (None, text) for no answer at all (empty or unreadable: told how to answer, no try counted)
Checker = Callable[[str], tuple[bool | None, str]]
WORDS = {DRAW: "draw", PASS: "pass", END: "end"}
KINDS = ("legal_moves", "is_legal", "score", "next_top", "choice")
#: the longest spec a question may have as JSON (a position with its moves is a few KB)
SPEC_MAX = 64_000
#: said of a right answer given once the solution was shown (it never counts as right)
AFTER_SOLUTION = "The solution had been shown: this answer is not counted."
#: wrong answers to an exercise after which its solution is shown
TRIES = 3


def after_tries(tries: int) -> str:
    """Said with the wrong answer that shows the solution."""
    return f"After {tries} tries, the answer is shown below."


class QuestionError(CrazylabError):
    """A question spec that cannot be rebuilt (unknown kind, malformed, an illegal move)."""


@dataclass(frozen=True)
class Question:
    """A question's judge: ``judge(answer)`` gives ``(right, feedback)`` (``right`` is None
    for no answer at all); ``solution`` the worked answer; ``right_answers`` what a right
    answer looks like (the tests spell it every way); ``game`` the position asked about."""

    spec: Mapping[str, Any]
    judge: Checker = field(repr=False, compare=False)
    solution: str
    right_answers: tuple[str, ...] = ()
    answer_kind: str = "text"            # cards, choice, number or card
    placeholder: str = ""
    choices: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()       # words an answer may add or leave out
    game: Game | None = field(default=None, repr=False, compare=False)

    @property
    def kind(self) -> str:
        return str(self.spec["kind"])

    @property
    def version(self) -> str:
        """A digest of the spec: two versions of a question never share it."""
        return spec_version(self.spec)


def spec_version(spec: Mapping[str, Any]) -> str:
    """The version of a question spec: 16 hex digits of a sha256 of its canonical JSON. A
    set-up position's own seed (drawn at random when none is given, and deciding no answer:
    its cards are all placed) is left out, so each run of a lesson asks the same version."""
    game = spec.get("game")
    if isinstance(game, Mapping) and game.get("setup"):
        spec = {**spec, "game": {k: v for k, v in game.items() if k != "seed"}}
    text = json.dumps(spec, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def from_spec(spec: Mapping[str, Any]) -> Question:
    """The question of a spec (as :attr:`Question.spec` gives it): rebuilt and cached."""
    if not isinstance(spec, Mapping) or spec.get("kind") not in KINDS:
        raise QuestionError(f"a question spec needs a kind, one of {', '.join(KINDS)}; got "
                            f"{quote(spec.get('kind') if isinstance(spec, Mapping) else spec)}")
    try:
        text = json.dumps(spec, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise QuestionError(f"a question spec must be plain JSON ({e})") from None
    if len(text) > SPEC_MAX:
        raise QuestionError(f"a question spec is limited to {SPEC_MAX} characters as JSON")
    return _from_text(text)


@lru_cache(maxsize=512)
def _from_text(text: str) -> Question:
    spec = json.loads(text)
    kind = spec["kind"]
    try:
        if kind == "legal_moves":
            return legal_moves(_game(spec["game"]), cards_only=bool(spec.get("cards_only")))
        if kind == "is_legal":
            return is_legal(_game(spec["game"]), str(spec["move"]))
        if kind == "score":
            mistakes = {int(k): str(v) for k, v in (spec.get("mistakes") or {}).items()}
            return score(str(spec["rules"]), [list(h) for h in spec["hands"]],
                         int(spec["winner"]), int(spec["seat"]), mistakes=mistakes)
        if kind == "next_top":
            return next_top(_game(spec["game"]), list(spec["moves"]), pile=int(spec["pile"]),
                            solution=spec.get("solution"))
        return choice(list(spec["choices"]), list(spec["answer"]), str(spec["explanation"]),
                      hint=str(spec.get("hint", "")), wrong=dict(spec.get("wrong") or {}))
    except QuestionError:
        raise
    except (CrazylabError, KeyError, TypeError, ValueError) as e:
        raise QuestionError(f"the {kind} question cannot be rebuilt: "
                            f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def _game(example: Any) -> Game:
    """The position of a spec: its worked example replayed (refused whole if it differs)."""
    game, problems = load_example(example).play()
    if problems:
        raise QuestionError(f"the position cannot be replayed: {problems[0]}")
    return game


def _position(game: Game) -> dict[str, Any]:
    data = game_to_example(game, "the position asked about")
    data.pop("title", None)
    return data


def default_hint(ids: Sequence[str]) -> str:
    """A hint from the rulebook: the text of the first rule a question practises."""
    for rid in ids:
        try:
            entry = rulebook.entry(rid)
        except (KeyError, rulebook.RulebookError):
            continue
        body = " ".join(entry.body.split())
        if body:
            return f"Rule {rid}, {entry.title.rstrip('.')}: {body}"
    return "Read the rules this exercise names again: " + ", ".join(ids) + "."


# --------------------------------------------------------------------------- reading answers

SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}


def normalize(text: str) -> str:
    """A choice or typed answer compared loosely: case, spaces, ♯/#, ♭/b, suit symbols,
    the minus sign and a full stop at the end do not matter."""
    t = text.strip().rstrip(".").lower().replace("♯", "#").replace("♭", "b")
    t = t.replace("−", "-").replace("–", "-")
    for sym, letter in SUIT_LETTERS.items():
        t = t.replace(sym, letter)
    return " ".join(t.split())


def _tokens(answer: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", answer.strip().rstrip(".")) if t]


def _clean(token: str) -> str:
    """A move typed any way, in the notation's own spelling: ``8s:d`` → ``8S:D``, ``9♥`` →
    ``9H`` (a pitch call keeps its flat: ``8S:Db``)."""
    head, colon, call = token.partition(":")
    head = head.upper()
    if colon:
        call = call[:1].upper() + call[1:]
        for sym, letter in SUIT_LETTERS.items():
            call = call.replace(sym, letter.upper())
    return head + colon + call


def _read_moves(answer: str) -> tuple[list[tuple[str, Move | None]], str]:
    """The moves of an answer: (key, move) with the key ``10H`` for a play (its first card:
    a stack is one move) or a word (draw, pass, end); or a complaint."""
    found: list[tuple[str, Move | None]] = []
    for token in _tokens(answer):
        if token.lower() in WORDS.values():
            found.append((token.lower(), None))
            continue
        try:
            m = Move.parse(_clean(token))
        except (MoveError, CardError, ValueError) as e:
            return [], (f"I could not read {token!r} as a card or a move ({e}). Write cards "
                        "like 6C or 6♣, a stack as 9H+9C, and the words draw, pass, end.")
        if m.kind == PLAY:
            found.append((str(m.cards[0]), m))
        else:
            found.append((WORDS.get(m.kind, m.kind), None))
    return found, ""


def _expected_moves(game: Game) -> set[str]:
    out: set[str] = set()
    for m in game.legal_moves():
        if m.kind == PLAY:
            out.add(str(m.cards[0]))
        else:
            out.add(WORDS.get(m.kind, m.kind))
    return out


def _same_move(game: Game, m: Move) -> bool:
    """Whether a play as typed (a stack in any order after its first card, a call in any
    spelling the engine reads: ``Db`` for ``C#``, ``diamonds`` for ``D``, a pile) is one of
    the legal moves."""
    try:
        call = game.parse_call(m.call) if m.call is not None else None
    except CrazylabError:
        return False  # a call these rules cannot make
    for x in game.legal_moves():
        if x.kind != PLAY or x.cards[0] != m.cards[0]:
            continue
        if sorted(x.cards[1:]) != sorted(m.cards[1:]):
            continue
        if call is not None and (x.call is None or game.parse_call(x.call) != call):
            continue
        if m.pile is not None and x.pile != m.pile:
            continue
        return True
    return False


def _show(items: set[str]) -> str:
    def key(t: str) -> tuple[int, Any]:
        try:
            return (0, sort_key(Card.parse(t)))
        except (CardError, ValueError):
            return (1, t)
    return " ".join(_display(t) for t in sorted(items, key=key)) or "nothing"


def _display(token: str) -> str:
    try:
        return Card.parse(token).display
    except (CardError, ValueError):
        try:
            return Move.parse(token).display
        except (MoveError, CardError, ValueError):
            return token


def _why(game: Game, token: str) -> str:
    """Why a card (or draw/pass/end) is legal or not, in the engine's words."""
    if token in WORDS.values():
        return game.explain(token) or _word_reason(game, token)
    c = Card.parse(token)
    for v in verdicts(game):
        if v.card == c:
            return v.reason
    return game.explain(token) or f"{c.display} is not in the hand."


def misconception(game: Game, move: str, reason: str = "") -> str:
    """A sentence for a known misconception behind playing ``move`` (or ``""``): the eight's
    printed suit after a call, an eight called in the musical main game, a unison in the
    levels, going down in Level 4. ``reason`` is the engine's why-not, if known."""
    reason = reason or game.explain(move)
    if not reason:
        return ""
    try:
        m = Move.parse(move)
    except (MoveError, CardError, ValueError):
        return ""
    rs = game.rules
    if m.kind == PLAY and ":" in move and "own suit" in reason:
        return (f"In the musical main game an eight takes its own suit: there is no call "
                f"(MU-12). Play {m.cards[0].display} with no call.")
    if m.kind != PLAY or m.cards[0].is_joker:
        return ""
    card = m.cards[0]
    if "unison" in reason:
        return (f"{card.display} sounds the very pitch it would follow: a unison never fits "
                "in the levels, not even the pitch an eight announced (MU-29, MU-Q22).")
    if rs.matching == "interval" and "only up" in reason and " down from" in reason:
        return ("This level climbs: only an interval UP fits, never down (house ruling "
                f"MU-Q26). {card.display} would go down.")
    top = game.top
    if (rs.matching not in ("interval", "letter_step") and top is not None and top.rank == 8
            and not top.is_joker and card.rank != 8 and card.suit == top.suit
            and game.suit != top.suit):
        return (f"After an eight the called suit counts, not the eight's printed suit: "
                f"{_suit_symbol(game.suit)} was called, so {card.display} does not fit.")
    return ""


def _suit_symbol(suit: str | None) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(suit or "", suit or "?")


def _missed_where(game: Game) -> str:
    """Where the cards a learner left out come from: the variant's phase says (after a Queen
    any card may be dropped), else the piles' top cards."""
    special = words_for(game.rules).missed.get(game.phase)
    if special:
        return special
    if game.rules.piles > 1:
        return "check each card against the top card of every pile"
    return "check each card against the top card again"


def _word_reason(game: Game, word: str) -> str:
    hint = words_for(game.rules).hints.get((game.phase, word))
    if hint:  # a variant's phase: a hit to resolve, a Queen's drop, a jump-in
        return hint
    if word == "draw":
        if game.rules.chain:
            return "You may always draw two instead of playing a card."
        if game.playable_cards():
            return "These rules let you draw even though you could play."
        return "Nothing in your hand fits, so you draw."
    if word == "pass":
        return "Nothing fits and you cannot draw, so you pass."
    return "You have played or drawn, so you may end your turn."




# --------------------------------------------------------------------------- the kinds

def legal_moves(game: Game, *, cards_only: bool = False) -> Question:
    """"Which moves are legal?": the answer lists cards (``6C KH``, a called eight as ``8S``
    or ``8S:D``, a stack as ``9H+9C``: one move, counted by its first card) and the words
    ``draw``, ``pass``, ``end`` where they apply. ``cards_only``: only the cards are asked,
    so the words are neither needed nor judged."""
    _need_game(game)
    game = game.copy()  # the position asked about, whatever the caller does next
    legal = _expected_moves(game)
    expected = {t for t in legal if t not in WORDS.values()} if cards_only else legal
    order = [str(c) for c in sorted(set(game.hands[game.to_play]), key=sort_key)]

    def rank(t: str) -> tuple[int, str]:
        return (order.index(t), t) if t in order else (len(order), t)

    def judge(answer: str) -> tuple[bool | None, str]:
        found, problem = _read_moves(answer)
        if problem:
            return None, problem
        if cards_only:
            found = [(k, m) for k, m in found if k not in WORDS.values()]
        if not found:
            return None, ("Type some cards, e.g. 6C KH (or 6♣ K♥)"
                          + ("." if cards_only else ", and draw if you may draw."))
        for key, m in sorted(found, key=lambda f: rank(f[0])):  # the first thing wrong
            if key not in expected:
                why = _why(game, key)
                text = m.display if m is not None and len(m.cards) > 1 else _display(key)
                special = misconception(game, str(m) if m is not None else key, why)
                return False, f"Not quite: {text} is not legal. " + (special or why)
            if m is not None and len(m.cards) + (":" in str(m)) + ("@" in str(m)) > 1 \
                    and not _same_move(game, m):
                why = game.explain(str(m)) or "that is not one of the legal moves."
                special = misconception(game, str(m), why)
                return False, f"Not quite: {m.display} is not legal. " + (special or why)
        missing = expected - {k for k, _ in found}
        if not missing:
            return True, "Right: " + _show(expected) + "."
        words = sorted(missing & set(WORDS.values()))
        cards = len(missing) - len(words)
        parts = []
        if cards:
            parts.append(f"{cards} more card{'s' * (cards != 1)} of your hand may be played: "
                         f"{_missed_where(game)}.")
        for word in words:
            parts.append(f"You missed {word}: {_why(game, word)}")
        return False, "Not quite: " + " ".join(parts)

    every = order + sorted(legal - set(order))
    solution = "Legal: " + _show(expected) + ".\n" + "\n".join(
        f"{_display(t)}: {_why(game, t)}" for t in every if not cards_only
        or t not in WORDS.values())
    spec = {"kind": "legal_moves", "game": _position(game), "cards_only": bool(cards_only)}
    return Question(spec, judge, solution, tuple(sorted(expected, key=rank)), "cards",
                    "e.g. 6C KH" if cards_only else "e.g. 6C KH draw", (),
                    tuple(WORDS.values()) if cards_only else (), game)


def is_legal(game: Game, move: str) -> Question:
    """"Is this move legal?": yes or no; the engine's explanation is the feedback, with a
    targeted sentence when a wrong "yes" is a known misconception."""
    _need_game(game)
    why = game.explain(move)
    legal = why == ""
    special = "" if legal else misconception(game, move, why)
    if legal:
        m = Move.parse(move)
        if m.kind == PLAY:
            moves = tuple(x for x in game.legal_moves() if x.kind == PLAY and x.cards == m.cards
                          or (x.kind == PLAY and x.cards[0] == m.cards[0]))
            why = legal_reason(game, m.cards[0], moves)
        else:
            why = _word_reason(game, WORDS.get(m.kind, m.kind))
    verdict = "Yes" if legal else "No"

    def judge(answer: str) -> tuple[bool | None, str]:
        a = normalize(answer)
        if a not in ("yes", "no", "y", "n"):
            return None, "Answer yes or no."
        right = a.startswith("y") == legal
        head = "Right:" if right else "Not right: the answer is"
        reason = f"{special} {why}" if special and not right else why
        return right, f"{head} {verdict.lower()}. {reason}"

    spec = {"kind": "is_legal", "game": _position(game), "move": str(move)}
    return Question(spec, judge, f"{verdict}. {why}", (verdict.lower(),), "choice",
                    "yes or no", ("yes", "no"), (), game.copy())


def score(rules_name: str, hands: list[list[str]], winner: int, seat: int | None = None, *,
          mistakes: Mapping[int, str] | None = None) -> Question:
    """"What does the winner (or ``seat``) score?": a whole number, checked against the
    engine's scores, with the working as the solution. Known mistakes get their own
    sentence: an eight counted at its face value, only one hand counted; ``mistakes`` adds
    others (``{22: "why 22 is wrong"}``)."""
    scored = score_hands(rules_name, [list(h) for h in hands], winner)
    seat = winner if seat is None else seat
    expected = scored.scores[seat]
    working = "\n".join(scored.working())  # each rule set counted its own way
    targeted = dict(mistakes or {})
    rs = scored.rules
    if rs.scoring == "winner_collects" and seat == winner:
        eights = [(c, p) for h in scored.hands for c, p in zip(h, _points(scored, h),
                                                                strict=True)
                  if not c.is_joker and c.rank == 8 and p != 8]
        if eights:
            face = expected - sum(p - 8 for _, p in eights)
            targeted.setdefault(face, f"an eight counts {eights[0][1]} points here, not 8 "
                                      "(its face value): count each eight as "
                                      f"{eights[0][1]}.")
        held = [s for s, h in enumerate(scored.hands) if h and s != winner]
        if len(held) > 1:
            for s in held:
                targeted.setdefault(scored.totals[s], (
                    f"that is only seat {s}'s hand. The winner collects the points of every "
                    "opponent's cards: add all the hands left."))
    targeted.pop(expected, None)

    def judge(answer: str) -> tuple[bool | None, str]:
        try:
            given = int(normalize(answer).replace(" ", "").lstrip("+"))
        except ValueError:
            return None, f"Answer with a whole number, e.g. 12, not {answer!r}."
        if given == expected:
            return True, f"Right: {expected}.\n{working}"
        if given in targeted:
            return False, f"Not {given}: {targeted[given]}"
        side = "high" if given > expected else "low"
        return False, (f"Not {given}: that is too {side}. Count again card by card: "
                       "each card's points are in the rules.")

    spec = {"kind": "score", "rules": rs.name,
            "hands": [[str(c) for c in h] for h in hands], "winner": int(winner),
            "seat": int(seat), "mistakes": {str(k): v for k, v in (mistakes or {}).items()}}
    return Question(spec, judge, f"{expected}.\n{working}", (str(expected),), "number",
                    "a number")


def _points(scored: Scored, hand: Sequence[Card]) -> list[int]:
    return [card_value(scored.rules, c) for c in hand]


def next_top(game: Game, moves: Sequence[str], *, pile: int = 0,
             solution: str | None = None) -> Question:
    """"After these moves, what is the top card?": the engine plays the moves (a King's deck
    play and the like included) on a copy of ``game``. ``solution`` replaces the one-line
    narration (a practice item's events, move by move)."""
    _need_game(game)
    played = game.copy(keep_undo=True)
    for m in moves:
        played.push(m)
    top = played.piles[pile][-1]
    narration = f"After {', '.join(moves)} the top card is {top.display}."

    def judge(answer: str) -> tuple[bool | None, str]:
        words = _tokens(answer)
        try:
            if len(words) != 1:
                raise ValueError("give one card")
            given = Card.parse(_clean(words[0]).split(":")[0])
        except (CardError, ValueError) as e:
            return None, f"Type one card, e.g. 7H or 7♥ ({answer!r}: {e})."
        if given == top:
            return True, f"Right: {narration}"
        return False, f"Not {given.display}. Play the moves in your head one at a time."

    spec: dict[str, Any] = {"kind": "next_top", "game": _position(game),
                            "moves": [str(m) for m in moves], "pile": int(pile)}
    if solution is not None:
        spec["solution"] = str(solution)
    return Question(spec, judge, narration if solution is None else str(solution),
                    (str(top),), "card", "a card, e.g. 7H", (), (), game.copy())


def choice(choices: Sequence[str], answer: str | Sequence[str], explanation: str, *,
           hint: str = "", wrong: Mapping[str, str] | None = None) -> Question:
    """A question with a few answers; ``answer`` is the right one (or several right ones:
    two names of one note). ``wrong`` maps a wrong choice to a sentence on the misconception
    behind it (else the feedback is ``hint``). An answer may be typed loosely (case, ♯/#,
    ♭/b), or given by its number when the choices are long."""
    choices = [str(c) for c in choices]
    rights = [answer] if isinstance(answer, str) else [str(a) for a in answer]
    norm = {normalize(c): c for c in choices}
    for a in rights:
        if normalize(a) not in norm:
            raise QuestionError(f"the answer {quote(a)} is not one of the choices "
                                f"{quote(choices)}")
    right_set = {normalize(a) for a in rights}
    told = {normalize(k): str(v) for k, v in (wrong or {}).items()}
    for k in told:
        if k not in norm:
            raise QuestionError(f"wrong= names {quote(k)}, which is not one of the choices")
    numbered = any(len(c) > 12 for c in choices)  # long answers are picked by number

    def judge(given: str) -> tuple[bool | None, str]:
        g = normalize(given)
        if numbered and g.isdigit() and 1 <= int(g) <= len(choices) and g not in norm:
            g = normalize(choices[int(g) - 1])
        g = {"y": "yes", "n": "no"}.get(g, g) if g not in norm else g
        if g not in norm:
            return None, "Answer one of: " + ", ".join(choices) + "."
        if g in right_set:
            return True, f"Right: {explanation}"
        if g in told:
            return False, f"Not {norm[g]}: {told[g]}"
        return False, f"Not {norm[g]}. Hint: {hint}"

    spec = {"kind": "choice", "choices": choices, "answer": rights,
            "explanation": str(explanation), "hint": str(hint),
            "wrong": {k: str(v) for k, v in (wrong or {}).items()}}
    placeholder = f"1 to {len(choices)}" if numbered else " / ".join(choices)
    return Question(spec, judge, f"{' or '.join(rights)}. {explanation}", tuple(rights),
                    "choice", placeholder, tuple(choices))


def _need_game(game: object) -> None:
    if not isinstance(game, Game):
        raise QuestionError(f"a question needs a Game (the position asked about), not "
                            f"{quote(game)}")


__all__ = ["AFTER_SOLUTION", "KINDS", "TRIES", "Question", "QuestionError", "after_tries",
           "choice", "default_hint", "for_item", "from_spec", "is_legal", "legal_moves",
           "misconception", "next_top", "normalize", "score", "spec_version"]


def for_item(item: Item) -> Question:
    """The question a practice item asks (:func:`crazylab.practice.make_item`), so a stored
    practice answer is judged again from the item's rule set, kind and seed alone."""
    ids = list(item.rule_ids)
    if item.kind == "legal":
        return legal_moves(_item_game(item), cards_only=True)
    if item.kind == "score":
        return score(item.rules, [list(h) for h in item.hands], item.winner, item.seat)
    if item.kind == "next_top":
        return next_top(_item_game(item), list(item.moves), pile=item.pile,
                        solution=item.explanation)
    game = _item_game(item)  # "which pile takes this note?": a reason for every wrong pile
    card = Card.parse(item.card)
    moves = tuple(m for m in game.legal_moves() if m.kind == PLAY and m.cards[0] == card)
    piles = sorted({m.pile or 0 for m in moves})
    fits = legal_reason(game, card, moves) if moves else ""
    one = len(game.piles) == 1
    why_not = {p: game.explain(str(card) if one else f"{card}@{p}")
               for p in range(len(game.piles)) if p not in piles}
    wrong: dict[str, str] = {}
    for option in item.choices:
        if option == item.answer:
            continue
        if option in ("none", "no"):
            wrong[option] = f"{card.display} fits: {fits}"
        else:
            p = 0 if one else int(option.split()[1]) - 1
            wrong[option] = why_not.get(p) or f"{card.display} fits: {fits}"
    explanation = fits or " ".join(why_not.values())
    return choice(item.choices, item.answer, explanation, hint=default_hint(ids), wrong=wrong)


def _item_game(item: Item) -> Game:
    if item.game is None:
        raise QuestionError(f"the {item.kind} practice item has no position")
    return item.game

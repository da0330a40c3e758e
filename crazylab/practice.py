"""Practice that varies: fresh positions dealt by the engine, each a question with one answer.

A lesson ends with a practice set (``crazylab.widgets.practice.practice_set``); this module is
its Jupyter-free half. :func:`make_item` deals a fresh hand of a rule set from a seed, plays
random legal moves to an *interesting* position (one whose answer is not trivial), and asks
one of four kinds of question:

* ``legal``: which cards of the hand may be played (at least one may, at least one may not);
* ``score``: a hand played out by random moves; what does the winner score (or a loser, in
  the musical games' −1 a card); not for rule sets that keep no score (Crazy Breens);
* ``next_top``: after these moves (plays, draws, a King's deck play, a Queen's drop …), what
  is the top card of the pile;
* ``pile``: the musical rule sets: which pile takes this note (does the pile take it, with
  one pile).

Every answer comes from the engine (its legal moves, its scores, the moves applied), and
every item names the rule ids its answer depends on. :class:`PracticeSet` deals a set of
items from one seed (the learner and their attempt number: the same seed deals the same
items), asks the rule ids of a wrong answer again later in the set (after at least one other
item), and favours the kinds and rule ids earlier practice got wrong.

>>> item = make_item("crazy-eights", "legal", seed=1)
>>> item.kind, item.rules, bool(item.answer)
('legal', 'crazy-eights', True)
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine.cards import SUIT_SYMBOLS, Card, sort_key
from .engine.errors import CrazylabError, quote
from .engine.game import Game, SetupError
from .engine.moves import DRAW, END, PASS, PLAY, Move
from .engine.narrator import Narrator, words_for
from .engine.phases import PHASE_CHAIN, PHASE_DECLARE, PHASE_DROP, PHASE_PLAY
from .engine.pitch import pretty
from .engine.rules import PRESETS, RuleSet
from .engine.rules import rules as get_rules

__all__ = ["KINDS", "Item", "PracticeError", "PracticeSet", "derive_seed", "kinds_for",
           "make_item"]

#: the kinds of question, in the order a set mixes them
KINDS: tuple[str, ...] = ("legal", "score", "next_top", "pile")
#: the most items a set may hold (re-asks included: at most twice its size, plus one)
MAX_SIZE = 20
#: deals tried before an item is given up (each deal is walked through many positions)
DEALS = 60
#: candidates tried for an item that should practise given rule ids
TARGET_TRIES = 12


class PracticeError(CrazylabError):
    """A practice set or item asked for with something that does not exist (an unknown rule
    set or kind, a kind the rule set has no question of, a size out of range)."""


@dataclass(frozen=True)
class Item:
    """One practice question on a fresh position, and its answer from the engine.

    ``answer`` is the right answer in canonical text (the legal cards ``6C KH``, a score
    ``-3``, a card ``7H``, a choice ``pile 2``); ``rule_ids`` the rules it depends on;
    ``game`` the position asked about (before ``moves`` for ``next_top``); ``seed``
    reproduces it: ``make_item(item.rules, item.kind, item.seed)``."""

    kind: str
    rules: str
    seed: int
    question: str
    answer: str
    rule_ids: tuple[str, ...]
    game: Game | None = None
    moves: tuple[str, ...] = ()          # next_top: the moves played, in order
    pile: int = 0                        # next_top: the pile asked about
    card: str = ""                       # pile: the note asked about
    choices: tuple[str, ...] = ()        # pile: the answers offered
    hands: tuple[tuple[str, ...], ...] = ()  # score: the cards left in each seat
    winner: int = 0                      # score: the seat that went out
    seat: int = 0                        # score: the seat asked about
    explanation: str = ""                # the engine's working (next_top: what happened)
    again: bool = False                  # asked again after a wrong answer

    @property
    def position(self) -> str:
        """A text of the position asked about (tests compare positions by it)."""
        if self.hands:
            return f"{self.rules}|{self.hands}|{self.winner}|{self.seat}"
        g = self.game
        if g is None:
            return self.question
        return (f"{self.rules}|{[[str(c) for c in h] for h in g.hands]}|"
                f"{[[str(c) for c in p] for p in g.piles]}|{g.calls}|{g.to_play}|{self.moves}"
                f"|{self.card}")


def derive_seed(*parts: object) -> int:
    """A seed from several parts (a set's seed and an item's place): stable across runs and
    machines, below 2**62."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


def _rules(name: str) -> RuleSet:
    if not isinstance(name, str) or name not in PRESETS:
        raise PracticeError(f"unknown rule set {quote(name)} for practice; the presets are: "
                            + ", ".join(PRESETS))
    return get_rules(name)


def is_musical(rs: RuleSet) -> bool:
    """Whether the rule set matches by pitch (the musical Crazy 8s and its levels)."""
    return rs.matching in ("suit_pitch", "letter_step", "interval")


def kinds_for(rules_name: str) -> tuple[str, ...]:
    """The kinds of question a rule set has: every rule set ``legal`` and ``next_top``;
    ``score`` where hands are scored; ``pile`` in the musical rule sets."""
    rs = _rules(rules_name)
    out = ["legal"]
    if rs.scoring != "none":
        out.append("score")
    out.append("next_top")
    if is_musical(rs):
        out.append("pile")
    return tuple(k for k in KINDS if k in out)


# --------------------------------------------------------------------------- positions

def _deal(rs: RuleSet, rng: random.Random) -> Game:
    players = rng.randint(rs.min_players, min(rs.max_players, 4))
    return Game.new(rs, players, seed=rng.getrandbits(62))


def _step(game: Game, rng: random.Random) -> bool:
    """Play one random legal move; False when the hand is over."""
    if game.over:
        return False
    game.push(rng.choice(game.legal_moves()))
    return not game.over


def _turn_start(game: Game) -> bool:
    return (game.phase == PHASE_PLAY and game.turn_draws == 0 and game.turn_plays == 0
            and not game.drawn)


def _positions(rs: RuleSet, rng: random.Random) -> Iterable[Game]:
    """Positions of freshly dealt hands, each after a random number of random moves, then
    the next ones of the same hand; at most :data:`DEALS` deals."""
    for _ in range(DEALS):
        game = _deal(rs, rng)
        for _ in range(rng.randint(0, 12)):
            if not _step(game, rng):
                break
        for _ in range(30):
            if game.over:
                break
            yield game
            _step(game, rng)


def _suit(i: int | None) -> str:
    return "?" if i is None else SUIT_SYMBOLS[i]


def describe_pile(game: Game, p: int) -> str:
    """A pile's top card as a learner reads it: ``9♥``, ``8♠ (♦ was called)``, ``5♥ (E)``,
    ``8♠ announcing F♯``."""
    rs, top, call = game.rules, game.piles[p][-1], game.calls[p]
    if rs.call_kind == "suit":
        if call is not None:
            return f"{top.display} ({_suit(call)} was called)"
        if rs.matching == "suit_pitch":
            if rs.is_wild(top):
                return f"{top.display} (no pitch: its suit {_suit(top.suit)} counts)"
            return f"{top.display} ({pretty(rs.pitches.spelling(top))})"
        return top.display
    if call is not None:
        said = rs.format_call(call)
        return f"{top.display} announcing {pretty(said)}"
    if rs.call_kind == "letter":
        return f"{top.display} ({game.reference(p)})"
    return f"{top.display} ({pretty(rs.pitches.spelling(top))})"


def describe_piles(game: Game) -> str:
    if len(game.piles) == 1:
        return f"The top card is {describe_pile(game, 0)}"
    return "The piles show " + ", ".join(f"pile {p + 1}: {describe_pile(game, p)}"
                                         for p in range(len(game.piles)))


def _hand_text(cards: Iterable[Card]) -> str:
    return " ".join(c.display for c in sorted(cards, key=sort_key))


def _header(game: Game) -> str:
    return f"{game.rules.name}, {game.n} players."


# --------------------------------------------------------------------------- rule ids

def _matching_ids(rs: RuleSet, game: Game, cards: Sequence[Card]) -> list[str]:
    """The rules that decide whether ``cards`` fit the piles of ``game``."""
    name = rs.name
    tops = [p[-1] for p in game.piles]
    wild_top = any(rs.is_wild(t) for t in tops)
    wild_card = any(rs.is_wild(c) for c in cards)
    jokers = any(c.is_joker for c in cards)
    if name == "crazy-eights":
        ids = ["SR-10"] + (["SR-11"] if wild_top else []) + (["SR-13"] if wild_card else [])
    elif name in ("crazy-eights-classic", "crazy-eights-quick"):
        ids = ["AP-6"] + (["AP-7"] if wild_top or wild_card else [])
    elif rs.specials:
        ids = ["BR-10"] + (["BR-Q44"] if wild_top else [])
        ids += (["BR-16"] if any(not c.is_joker and rs.is_wild(c) for c in cards) else [])
        ids += (["BR-17"] if jokers else [])
    elif rs.matching == "suit_pitch":
        ids = ["MU-5"]
        if any(t.is_joker for t in tops):
            ids.append("MU-Q7")
        elif wild_top:
            ids += ["MU-12", "MU-Q6"]
        ids += (["MU-13"] if jokers else [])
    elif is_musical(rs):
        ids = ["MU-26"] + (["MU-24"] if wild_top or wild_card else [])
        refs = [game.refs[p] for p in range(len(game.piles))]
        kind = rs.call_kind
        key = (rs.pitches.letter if kind == "letter" else rs.pitches.pitch)
        if any(key(c) in refs for c in cards if not rs.is_wild(c)):
            ids.append("MU-29")
        if kind == "letter":
            ids.append("MU-31")
        if rs.intervals == (2,):
            ids += ["MU-32", "MU-Q26"]
        if rs.piles > 1:
            ids += ["MU-27", "MU-Q23"]
    else:  # a rule set made of other options: the common rules
        ids = ["C-6"]
    return ids


def _score_ids(rs: RuleSet) -> list[str]:
    if rs.scoring == "minus_one_per_card":
        return ["MU-19"]
    if rs.name == "crazy-eights":
        return ["SR-22", "C-16"]
    return ["AP-15", "C-16"]


def _draw_id(rs: RuleSet) -> str:
    if rs.specials:
        return "BR-11"
    if is_musical(rs):
        return "MU-7"
    if rs.name == "crazy-eights":
        return "SR-15"
    return "AP-11" if rs.draw_rule == "up_to_n" else "AP-10"


# --------------------------------------------------------------------------- the kinds

def _legal(rs: RuleSet, rng: random.Random) -> dict[str, Any] | None:
    for game in _positions(rs, rng):
        if not _turn_start(game):
            continue
        hand = set(game.hands[game.to_play])
        if len(hand) < 3:
            continue
        legal = {m.cards[0] for m in game.legal_moves() if m.kind == PLAY}
        if not legal or not hand - legal:
            continue
        g = game.copy()
        question = (f"{_header(g)} {describe_piles(g)}. Seat {g.to_play} holds "
                    f"{_hand_text(g.hands[g.to_play])}. Which cards may seat {g.to_play} "
                    "play? List them all.")
        answer = " ".join(str(c) for c in sorted(legal, key=sort_key))
        return dict(question=question, answer=answer, game=g,
                    rule_ids=_matching_ids(rs, g, sorted(hand, key=sort_key)))
    return None


def _score(rs: RuleSet, rng: random.Random) -> dict[str, Any] | None:
    for _ in range(DEALS):
        game = _deal(rs, rng)
        try:
            game.play_random(rng.getrandbits(62), max_moves=1000)
        except RuntimeError:  # random play can go round in circles (unlimited reshuffles)
            continue
        if game.end_reason != "OUT" or game.winner is None:
            continue
        win = game.winner
        hands = tuple(tuple(str(c) for c in sorted(h, key=sort_key)) for h in game.hands)
        left = sum(len(h) for s, h in enumerate(hands) if s != win)
        if rs.scoring == "minus_one_per_card":
            losers = [s for s, h in enumerate(hands) if s != win and h]
            if not losers:
                continue
            bigger = [s for s in losers if len(hands[s]) > 1]
            seat = rng.choice(bigger or losers)
        else:
            seat = win
        expected = game.scores[seat]
        if expected == 0 or left < 2:
            continue
        held = "; ".join(f"seat {s}: {_hand_text(Card.parse(c) for c in h) or 'no cards'}"
                         for s, h in enumerate(hands) if s != win)
        question = (f"{rs.name}, {game.n} players. Seat {win} went out. The cards left: "
                    f"{held}. What does seat {seat} score for this hand?")
        return dict(question=question, answer=str(expected), hands=hands, winner=win,
                    seat=seat, rule_ids=_score_ids(rs), game=None)
    return None


def _move_words(game: Game, m: Move) -> str:
    """What seat to play does with ``m``, in words (the cards a draw takes are not told)."""
    seat = f"seat {game.to_play}"
    doing = words_for(game.rules).doings.get((game.phase, m.kind))
    if doing:  # a variant's phase: a penalty card, a Queen's drop, a counter
        return f"{seat} {doing.format(cards=play_words(game.rules, m) if m.cards else '')}"
    if m.kind == DRAW:
        return f"{seat} draws"
    if m.kind == PASS:
        return f"{seat} passes"
    if m.kind == END:
        return f"{seat} ends the turn"
    return f"{seat} plays {play_words(game.rules, m)}"


def play_words(rs: RuleSet, m: Move) -> str:
    """A play in words, its call read as the rule set reads calls: ``8♠ calling ♦``,
    ``8♠ announcing D on pile 2`` (``Move.display`` alone would read the pitch D as ♦)."""
    text = " + ".join(c.display for c in m.cards)
    if m.call is not None:
        if rs.call_kind == "suit":
            text += f" calling {SUIT_SYMBOLS['CDHS'.index(m.call)]}"
        else:
            text += f" announcing {pretty(m.call)}"
    if m.pile is not None:
        text += f" on pile {m.pile + 1}"
    return text


def _next_top(rs: RuleSet, rng: random.Random) -> dict[str, Any] | None:
    for game in _positions(rs, rng):
        if not _turn_start(game):
            continue
        g = game.copy(keep_undo=True)
        stock = list(g.stock)
        before = [p[-1] for p in g.piles]
        n_events = len(g.events)
        words: list[str] = []
        moves: list[str] = []
        kings = drawn_first = False
        ids = ["C-6"]
        for _ in range(rng.randint(2, 4)):
            if g.over or g.phase == PHASE_DECLARE:
                break
            m = rng.choice(g.legal_moves())
            if m.kind == DRAW and not kings:
                drawn_first = True
            if m.kind == PLAY and rs.specials and any(c.rank == 13 for c in m.cards):
                kings = True
                if drawn_first:
                    break
            words.append(_move_words(g, m))
            if m.kind == DRAW and _draw_id(rs) not in ids:
                ids.append(_draw_id(rs))
            if m.kind == PLAY and len(m.cards) > 1 and "BR-12" not in ids:
                ids.append("BR-12")
            if m.kind == PLAY and g.phase == PHASE_DROP and "BR-21" not in ids:
                ids.append("BR-21")
            if m.kind == PLAY and g.phase == PHASE_CHAIN and "MU-6" not in ids:
                ids.append("MU-6")
            moves.append(str(m))
            g.push(m)
        if len(moves) < 2 or (kings and drawn_first) or g.phase == PHASE_DECLARE:
            continue
        if kings:
            ids.append("BR-20")
        after = [p[-1] for p in g.piles]
        changed = [p for p in range(len(after)) if after[p] != before[p]]
        if not changed:
            continue
        pile = rng.choice(changed)
        top = after[pile]
        last = Move.parse(moves[-1])
        plain_last = (last.kind == PLAY and len(last.cards) == 1 and last.cards[0] == top
                      and (last.pile or 0) == pile)
        named = {c for mv in moves for c in Move.parse(mv).cards if mv not in (DRAW, PASS, END)}
        shown = stock[:3] if kings else []
        played = [c for mv in moves for c in Move.parse(mv).cards if mv not in (DRAW, PASS, END)]
        if plain_last or (top not in named and top not in shown) or (
                len(played) < 2 and top in played):
            continue
        if kings and len(stock) < 3:
            continue
        if rs.piles > 1:
            ids += ["MU-27", "MU-Q23"]
        said = Narrator(g.rules).hand(g)[n_events:]
        story = " ".join(s.text for s in said if s.text)
        for _ in moves:
            g.undo()
        where = f"pile {pile + 1}" if rs.piles > 1 else "the discard pile"
        deck = (f" The draw pile's top cards are {', '.join(c.display for c in shown)} "
                "(top first)." if shown else "")
        question = (f"{_header(g)} {describe_piles(g)}.{deck} Then, in order: "
                    + "; ".join(words) + f". What is the top card of {where} now?")
        return dict(question=question, answer=str(top), game=g, moves=tuple(moves),
                    pile=pile, rule_ids=ids,
                    explanation=f"What happened: {story} So the top card of {where} is "
                                f"{top.display}.")
    return None


def _pile(rs: RuleSet, rng: random.Random) -> dict[str, Any] | None:
    want = rng.random() < 0.5
    for game in _positions(rs, rng):
        if not _turn_start(game):
            continue
        plays = [m for m in game.legal_moves() if m.kind == PLAY]
        notes = sorted({c for c in game.hands[game.to_play] if not rs.is_wild(c)},
                       key=sort_key)
        fit = {c: sorted({m.pile or 0 for m in plays if m.cards[0] == c}) for c in notes}
        one = [c for c in notes if len(fit[c]) <= 1]
        if not one:
            continue
        wanted = [c for c in one if bool(fit[c]) == want]
        card = rng.choice(wanted or one)
        g = game.copy()
        if rs.piles == 1:
            choices: tuple[str, ...] = ("yes", "no")
            answer = "yes" if fit[card] else "no"
            ask = f"Does the pile take {card.display}?"
        else:
            choices = (*(f"pile {p + 1}" for p in range(rs.piles)), "none")
            answer = f"pile {fit[card][0] + 1}" if fit[card] else "none"
            ask = f"Which pile takes {card.display}? (If none does, say none.)"
        question = f"{_header(g)} {describe_piles(g)}. {ask}"
        return dict(question=question, answer=answer, game=g, card=str(card),
                    choices=choices, rule_ids=_matching_ids(rs, g, [card]))
    return None


_MAKERS = {"legal": _legal, "score": _score, "next_top": _next_top, "pile": _pile}


def make_item(rules_name: str, kind: str, seed: int, *, again: bool = False) -> Item:
    """A practice item of ``kind`` on a fresh position of ``rules_name``, dealt from
    ``seed`` (the same seed, the same item)."""
    rs = _rules(rules_name)
    if kind not in KINDS:
        raise PracticeError(f"unknown practice kind {quote(kind)}; the kinds are: "
                            + ", ".join(KINDS))
    if kind not in kinds_for(rules_name):
        raise PracticeError(f"{rules_name} has no {kind!r} questions; its kinds are: "
                            + ", ".join(kinds_for(rules_name)))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PracticeError(f"seed must be a whole number, not {quote(seed)}")
    found = _MAKERS[kind](rs, random.Random(derive_seed(seed, rules_name, kind)))
    if found is None:  # never seen: every preset finds one in its first deals
        raise SetupError(f"no {kind} question found for {rules_name} from seed {seed}")
    ids = tuple(dict.fromkeys(found.pop("rule_ids")))
    return Item(kind=kind, rules=rules_name, seed=seed, rule_ids=ids, again=again, **found)


# --------------------------------------------------------------------------- the set

def _field(record: Any, name: str) -> Any:
    return record.get(name) if isinstance(record, dict) else getattr(record, name, None)


def missed(earlier: Iterable[Any]) -> tuple[Counter[str], Counter[str]]:
    """From earlier practice records (``kind``, ``rule_ids``, ``verdict``, oldest first):
    how much each kind and each rule id needs practice (a wrong answer adds 2, a right one
    takes 1 off, never below zero)."""
    kinds: Counter[str] = Counter()
    ids: Counter[str] = Counter()
    for rec in earlier:
        wrong = not _field(rec, "verdict")
        kind = str(_field(rec, "kind"))
        for counter, keys in ((kinds, [kind]), (ids, list(_field(rec, "rule_ids") or ()))):
            for key in keys:
                counter[key] = max(0, counter[key] + (2 if wrong else -1))
    return +kinds, +ids


@dataclass
class PracticeSet:
    """A set of practice items dealt from ``seed``, one asked at a time.

    ``earlier`` is the learner's earlier practice of the lesson: its wrong kinds and rule ids
    come up more often. :meth:`answer` records the verdict of the current item; a wrong one is
    asked again (a fresh position with the same rule ids) after at least one other item.
    """

    lesson: str
    rule_sets: tuple[str, ...]
    kinds: tuple[str, ...] | None = None
    size: int = 5
    seed: int = 0
    earlier: Sequence[Any] = ()
    items: list[Item] = field(default_factory=list)
    verdicts: list[bool] = field(default_factory=list)
    options: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.lesson, str) or not self.lesson:
            raise PracticeError(f"lesson must be a lesson id, not {quote(self.lesson)}")
        if isinstance(self.rule_sets, str):
            self.rule_sets = (self.rule_sets,)
        self.rule_sets = tuple(self.rule_sets)
        if not self.rule_sets:
            raise PracticeError("a practice set needs at least one rule set")
        for name in self.rule_sets:
            _rules(name)
        if self.kinds is not None:
            if isinstance(self.kinds, str):
                self.kinds = (self.kinds,)
            self.kinds = tuple(self.kinds)
            bad = [k for k in self.kinds if k not in KINDS]
            if bad or not self.kinds:
                raise PracticeError(f"unknown practice kind {quote(bad[0] if bad else '')}; "
                                    "the kinds are: " + ", ".join(KINDS))
        if isinstance(self.size, bool) or not isinstance(self.size, int) \
                or not 1 <= self.size <= MAX_SIZE // 2:
            raise PracticeError(f"size must be a whole number from 1 to {MAX_SIZE // 2}, "
                                f"not {quote(self.size)}")
        wanted = self.kinds or KINDS
        self.options = [(r, k) for r in self.rule_sets for k in kinds_for(r) if k in wanted]
        if not self.options:
            raise PracticeError(f"none of the kinds {', '.join(wanted)} has questions for "
                                + ", ".join(self.rule_sets))
        self.items = self._plan()

    # -- planning ----------------------------------------------------------------------------
    def _plan(self) -> list[Item]:
        rng = random.Random(derive_seed(self.seed, "plan"))
        kinds, ids = missed(self.earlier)
        weights = {o: 1.0 + 2.0 * kinds[o[1]] + sum(ids[i] for i in possible_ids(*o))
                   for o in self.options}
        # every option once (in an order the weights draw) before any repeats, which the
        # weights draw too: what was missed comes first and comes back
        order: list[tuple[str, str]] = []
        pool = dict(weights)
        while len(order) < self.size:
            source = pool or weights
            opts = list(source)
            pick = rng.choices(opts, [source[o] for o in opts])[0]
            order.append(pick)
            pool.pop(pick, None)
        target = {i for i, n in ids.items() if n > 0}
        return [self._make(rules_name, kind, derive_seed(self.seed, "item", n), target)
                for n, (rules_name, kind) in enumerate(order)]

    def _make(self, rules_name: str, kind: str, seed: int, target: set[str],
              again: bool = False) -> Item:
        """An item; with ``target`` rule ids, the first of a few candidates that names all
        those its rule set and kind can name (else the one naming most)."""
        best = make_item(rules_name, kind, seed, again=again)
        reach = target & set(possible_ids(rules_name, kind))
        for n in range(1, TARGET_TRIES):
            if reach <= set(best.rule_ids):
                break
            other = make_item(rules_name, kind, derive_seed(seed, n), again=again)
            if len(reach & set(other.rule_ids)) > len(reach & set(best.rule_ids)):
                best = other
        return best

    # -- asking ------------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """The index of the item being asked (== ``len(items)`` when the set is done)."""
        return len(self.verdicts)

    @property
    def current(self) -> Item | None:
        return self.items[self.position] if self.position < len(self.items) else None

    @property
    def done(self) -> bool:
        return self.position >= len(self.items)

    @property
    def right(self) -> int:
        return sum(self.verdicts)

    def answer(self, verdict: bool) -> Item | None:
        """Record the current item's verdict; a wrong answer (not itself a re-ask) puts a
        fresh item with the same rule ids after the next one. Returns that re-ask, if any."""
        item = self.current
        if item is None:
            raise PracticeError("the practice set is finished: deal a new set")
        at = self.position
        self.verdicts.append(bool(verdict))
        if verdict or item.again or len(self.items) >= MAX_SIZE:
            return None
        redo = self._make(item.rules, item.kind, derive_seed(self.seed, "again", at),
                          set(item.rule_ids), again=True)
        where = at + 2
        if where > len(self.items):  # the last item: one other item first
            self.items.append(self._filler(item, at))
        self.items.insert(where, redo)
        return redo

    def _filler(self, wrong: Item, at: int) -> Item:
        """Another question to ask between a wrong last item and its re-ask."""
        others = [o for o in self.options if o != (wrong.rules, wrong.kind)] or self.options
        rules_name, kind = random.Random(derive_seed(self.seed, "filler", at)).choice(others)
        return make_item(rules_name, kind, derive_seed(self.seed, "filler", at), again=True)

    def missed_ids(self) -> list[str]:
        """The rule ids of this set's wrong answers, most missed first."""
        count: Counter[str] = Counter()
        for item, ok in zip(self.items, self.verdicts, strict=False):
            if not ok:
                count.update(item.rule_ids)
        return [i for i, _ in count.most_common()]


def possible_ids(rules_name: str, kind: str) -> tuple[str, ...]:
    """Every rule id the items of a rule set and kind may name."""
    rs = _rules(rules_name)
    if kind == "score":
        return tuple(_score_ids(rs))
    if kind == "next_top":
        ids = ["C-6", _draw_id(rs)]
        if rs.specials:
            ids += ["BR-12", "BR-21", "BR-20"]
        if rs.chain:
            ids.append("MU-6")
        if rs.piles > 1:
            ids += ["MU-27", "MU-Q23"]
        return tuple(ids)
    name = rs.name
    if name == "crazy-eights":
        return ("SR-10", "SR-11", "SR-13")
    if name in ("crazy-eights-classic", "crazy-eights-quick"):
        return ("AP-6", "AP-7")
    if rs.specials:
        return ("BR-10", "BR-Q44", "BR-16", "BR-17")
    if rs.matching == "suit_pitch":
        return ("MU-5", "MU-Q7", "MU-12", "MU-Q6", "MU-13")
    if is_musical(rs):
        ids = ["MU-26", "MU-24", "MU-29"]
        ids += ["MU-31"] if rs.call_kind == "letter" else []
        ids += ["MU-32", "MU-Q26"] if rs.intervals == (2,) else []
        ids += ["MU-27", "MU-Q23"] if rs.piles > 1 else []
        return tuple(ids)
    return ("C-6",)

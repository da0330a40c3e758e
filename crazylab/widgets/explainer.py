"""The step-through explainer: a worked-example file step by step, with the position at each
step, the narration, and what changed.

* The examples are offered grouped by rule set and topic, under readable titles
  (:func:`catalogue`, :func:`groups`), in one ``<select>`` with ``<optgroup>``\\ s
  (:class:`ExamplePicker`, ``explainer.js``).
* Narration is shown in words first: the rule ids the files lead with move to small badges
  after the sentence (:func:`plain_words`); a finished hand's result is a sentence
  (:func:`crazylab.render.result_words`), never a Python list.
* Keys: with the focus in the explainer, ← / → step, Home / End go to the setup and the
  last step (``explainer.js`` sends the key; :meth:`StepExplainer.press`).
* Deep links ``explain.ipynb?example=NAME&step=N`` (``explain.html?…`` on the static site):
  :meth:`StepExplainer.from_query` reads the page's address where the kernel can
  (:func:`page_query`: Voilà's ``QUERY_STRING``, or the page itself in Pyodide), and the
  browser reports it too (the static site's kernel runs in a web worker that cannot see the
  page). A name that is not an example shows a notice and the list, never an empty page.
* Predict, then see (``predict=True``, the "Predict first" toggle, ``&predict=1``): before
  each step the learner picks the next move from the hand (buttons, or the keys 1 to 9), or
  says who is hit and how many cards they draw, or whether a tried move is accepted; the
  narration, what changed and the legal moves reach the page only once answered
  (:class:`Question`, :func:`questions`). The engine judges: the example's recorded move is
  right, another legal move is "legal, but", an illegal pick is refused with the engine's
  reason and the question stays open. → without an answer shows the step (skipped).
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import anywidget
import ipywidgets as w
import traitlets as t

from crazylab.engine.cards import Card, sort_key
from crazylab.engine.events import ENDED, PENALTY
from crazylab.engine.game import Game
from crazylab.engine.moves import DRAW, PASS, PLAY, Move
from crazylab.engine.narrator import Narrator, Said, words_for
from crazylab.engine.phases import (
    PHASE_CHAIN,
    PHASE_DECLARE,
    PHASE_PLAY,
)
from crazylab.examples import Example, Frame, example_path, list_examples, load_example
from crazylab.examples.topics import MATCH_ORDER, TOPICS
from crazylab.render import game_html, result_words
from crazylab.rulebook import ID_PATTERN, RULE_ID
from crazylab.seat.words import call_in_force

from ._common import ErrorArea, ErrorReporting, guarded, query_params
from ._markup import Html, Markup
from ._validate import explainer_args

HERE = Path(__file__).parent
#: the explainer's markup; its style is explainer.css, which the example list (an anywidget,
#: in every explainer) brings to the page
MARKUP = Markup("explainer")

#: the example the explain page opens when its address names none (or a wrong one)
DEFAULT_EXAMPLE = "sr-t1-t2-worked-turn-eight-calls-diamonds"

# -- words first: rule ids out of the sentences ---------------------------------------------

_ID = ID_PATTERN
_OPTION = r"[a-z]+(?:_[a-z]+)+"
_IDS = rf"{_ID}(?:\s*(?:/|,|and|&)\s*{_ID})*"
# "(SR-21)", "(BR-18, BR-Q31)", "(draw_passing, A5)", "(notation.md)": dropped whole
_PAREN = re.compile(rf"\s*\((?:(?:{_ID}|{_OPTION}|notation\.md)[\s,/]*)+\)")
# "the actor is never hit, BR-Q12)": the ids at the end of a parenthesis
_PAREN_TAIL = re.compile(rf"(?:,\s*|\s+){_IDS}(?=\))")
# "BR-20: the deck play…", "…; BR-M4: the pointer…", "…: BR-11, it must draw"
_LEAD = re.compile(rf"(^|(?<=[.;:!?(…]\s)|(?<=\()|(?<=\band\s)|(?<=\.\.\.))\s*{_IDS}\s*[:,]\s*")
_UPPER = "\x00"


def plain_words(text: str) -> tuple[str, list[str]]:
    """A narration sentence without its rule ids, and the ids it named (in order, once
    each): ``"BR-20: the deck play turns K♦ (BR-19)."`` → ``("The deck play turns K♦.",
    ["BR-20", "BR-19"])``."""
    ids = list(dict.fromkeys(RULE_ID.findall(text)))
    out = _PAREN.sub("", text)
    out = _PAREN_TAIL.sub("", out)

    def lead(m: re.Match[str]) -> str:
        before = out[:m.start()]
        starts = m.group(1) == "" and (not before.strip() or before.rstrip()[-1] in ".!?…")
        if re.match(_OPTION, out[m.end():]):  # an option's name keeps its spelling
            starts = False
        return m.group(1) + (_UPPER if starts else "")

    out = _LEAD.sub(lead, out)
    out = re.sub(_UPPER + r"(.)", lambda m: m.group(1).upper(), out).replace(_UPPER, "")
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out, ids


def rule_badges(ids: list[str]) -> Html:
    """Small badges naming the rules a sentence applies (after it, never before): links to
    the rule in ``rulebook.ipynb`` (a new tab), with the rule's title as their tooltip. The
    static site has no rulebook page: there they are plain badges with the tooltip."""
    from crazylab import rulebook

    out = []
    for i in ids:
        try:
            title = f"{i}: {rulebook.entry(i).title} (the rulebook)"
        except (ValueError, KeyError):
            title = f"rule {i} of the rulebook"
        out.append(" ")
        if sys.platform == "emscripten":  # pragma: no cover - the static site
            out.append(MARKUP("badge_span", title=title, rule=i))
        else:
            out.append(MARKUP("badge_link", title=title, anchor=quote(i), rule=i))
    return Markup.join(out)


#: the joker's emoji is missing from many fonts (a box in headless Chromium): written out
JOKER = ("🃏", "Joker")


def words_html(text: str) -> Html:
    """A sentence in words, then its rule ids as badges (HTML)."""
    words, ids = plain_words(text.replace(*JOKER))
    return Markup.join([words, rule_badges(ids)])


# -- the catalogue: rule set, topic, readable title ------------------------------------------

RULE_SET_NAMES = {
    "crazy-eights": "Crazy Eights",
    "crazy-eights-classic": "Crazy Eights, classic",
    "crazy-eights-quick": "Crazy Eights, quick",
    "crazy-breens": "Crazy Breens",
    "crazy-8s-music": "Musical Crazy 8s",
    **{f"crazy-8s-level-{n}": f"Musical Crazy 8s, level {n}" for n in range(1, 6)},
}

#: the families of rule sets, in the order the list shows them
FAMILIES = {
    "crazy-eights": "Crazy Eights",
    "crazy-eights-classic": "Classic and quick Crazy Eights",
    "crazy-eights-quick": "Classic and quick Crazy Eights",
    "crazy-breens": "Crazy Breens",
    "crazy-8s": "Musical Crazy 8s",
}
HOUSE_RULES = "house rules"
OTHER = "other examples"

@dataclass(frozen=True)
class Entry:
    """One worked example as the list offers it."""

    name: str
    title: str  # readable: no leading rule id
    rules: str  # the preset's name, e.g. ``crazy-breens``
    family: str  # e.g. ``Crazy Breens``
    topic: str  # e.g. ``Kings: deck plays`` or ``house rules``
    description: str = ""

    @property
    def group(self) -> str:
        return f"{self.family} — {self.topic}"

    @property
    def label(self) -> str:
        """The title as the list shows it: without an option's code in brackets."""
        short = re.sub(r"\s*\([^()]*[_=][^()]*\)\s*$", "", self.title)
        return short or self.title


def readable_title(title: str, name: str = "") -> str:
    """A file's title without the rule ids it starts with (``BR-T10: King chains: …`` →
    ``King chains: …``), or the name made readable when there is no title."""
    words, _ = plain_words(title or "")
    if not words:
        words = name.replace("-", " ")
    return words[:1].upper() + words[1:]


def _family(preset: str) -> str:
    if preset.startswith("crazy-8s"):
        return FAMILIES["crazy-8s"]
    return FAMILIES.get(preset, RULE_SET_NAMES.get(preset, preset))


def _topic(family: str, name: str, text: str) -> str:
    if name.startswith("opt-"):
        return HOUSE_RULES
    topics = dict(TOPICS.get(family, []))
    for topic in MATCH_ORDER.get(family, list(topics)):
        if re.search(topics[topic], text):
            return topic
    return OTHER


def entry(name: str) -> Entry:
    """How the list offers the shipped example ``name`` (read from the file's own title,
    description and rule set; a file that cannot be read is listed under its name)."""
    try:
        data = json.loads(example_path(name).read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}

    def text(key: str, default: str = "") -> str:
        value = data.get(key)
        return value if isinstance(value, str) else default

    raw_title, rules, description = text("title"), text("rules", "other"), text("description")
    family = _family(rules)
    haystack = f"{name} {raw_title} {rules}".lower()
    return Entry(name, readable_title(raw_title, name), rules, family,
                 _topic(family, name, haystack), description)


def _natural(name: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


@cache
def catalogue() -> tuple[Entry, ...]:
    """Every shipped example, in the order the list shows them: by family of rule sets, by
    topic (house rules last), then by name (``br-t2`` before ``br-t10``)."""
    families = list(dict.fromkeys(FAMILIES.values()))
    entries = [entry(n) for n in list_examples()]

    def key(e: Entry) -> tuple[Any, ...]:
        fam = families.index(e.family) if e.family in families else len(families)
        topics = [tp for tp, _ in TOPICS.get(e.family, [])] + [HOUSE_RULES, OTHER]
        level = re.match(r"Level (\d+)", e.title)  # the music levels in their order
        return (fam, e.family, topics.index(e.topic), int(level.group(1)) if level else 0,
                _natural(e.name))

    return tuple(sorted(entries, key=key))


def groups(names: list[str] | None = None) -> list[dict[str, Any]]:
    """The list's groups: ``[{"label": "Crazy Breens — Kings: deck plays", "options":
    [{"value": name, "label": title}, …]}, …]`` (only ``names``, if given)."""
    known = {e.name: e for e in catalogue()}
    wanted = None if names is None else set(names)
    out: list[dict[str, Any]] = []
    for e in catalogue():
        if wanted is not None and e.name not in wanted:
            continue
        if not out or out[-1]["label"] != e.group:
            out.append({"label": e.group, "options": []})
        out[-1]["options"].append({"value": e.name, "label": e.label})
    extra = [n for n in (names or []) if n not in known]
    if extra:  # names given that are not shipped files (paths): listed as they are
        out.append({"label": "More examples",
                    "options": [{"value": n, "label": n} for n in extra]})
    return out


# -- the page's address -----------------------------------------------------------------------

def page_query() -> str:
    """The page's query string (``example=…&step=…``), wherever the kernel can see it: Voilà
    gives it to the kernel (``QUERY_STRING``, or ``voila.utils`` with a preheated kernel); in
    Pyodide on the main thread it is ``js.location.search``. The static site's kernel runs
    in a web worker, which cannot see the page: there the browser reports the address to the
    explainer when it draws it (:class:`ExamplePicker`)."""
    query = os.environ.get("QUERY_STRING", "")
    if query or os.environ.get("VOILA_PREHEAT") == "True":
        return "&".join(f"{k}={quote(v, safe='')}" for k, v in query_params().items())
    if sys.platform == "emscripten":  # pragma: no cover - Pyodide only
        try:
            import js  # type: ignore[import-not-found]

            if hasattr(js, "document"):
                return str(js.location.search).lstrip("?")
        except Exception:
            return ""
    return ""


def explain_page() -> str:
    """The explain page, relative to a page next to it: ``explain.ipynb`` in Voilà,
    ``explain.html`` on the static site (Pyodide)."""
    return "explain.html" if sys.platform == "emscripten" else "explain.ipynb"


def step_link(name: str, step: int) -> str:
    """The deep link to a step of an example, relative to the pages' folder."""
    return f"{explain_page()}?example={quote(name, safe='')}&step={step}"


# -- the widgets -------------------------------------------------------------------------------

def new_sentences(frame: Frame) -> list[Said]:
    """The narrator's sentences for the events a step added (told with the whole hand before
    them: whose two hits whom needs the earlier plays)."""
    events = frame.game.events
    said = Narrator(frame.game.rules).sentences(events)
    return said[len(events) - len(frame.new_events):]


def changes(before: Game, frame: Frame) -> list[str]:
    """What a step changed, in plain words: the events it added, then the differences
    between the two positions (top card, call, hands, stock, whose turn); the end of a hand
    as a sentence with the points."""
    after = frame.game
    if frame.error is not None:
        return ["Nothing changed: the move was refused."]
    out = [s.text for s in new_sentences(frame) if s.event.kind != ENDED and s.text]
    r = after.rules
    for p in range(r.piles):
        where = f" on pile {p + 1}" if r.piles > 1 else ""
        if before.piles[p][-1] != after.piles[p][-1]:
            out.append(f"Top card{where}: {before.piles[p][-1].display} → "
                       f"{after.piles[p][-1].display}.")
        old, new = call_in_force(r, before, p), call_in_force(r, after, p)
        if old != new:
            out.append(f"To follow{where}: {old} → {new}.")
    for s in range(after.n):
        a, b = len(before.hands[s]), len(after.hands[s])
        if a != b:
            out.append(f"Seat {s}: {a} → {b} card{'s' if b != 1 else ''} in hand.")
    if before.stock_size != after.stock_size:
        out.append(f"Stock: {before.stock_size} → {after.stock_size} cards.")
    if after.over and not before.over:
        out.append(result_words(after))
    elif before.to_play != after.to_play and not after.over:
        out.append(f"Seat {after.to_play} is to play next.")
    elif before.phase != after.phase:
        out.append(f"Phase: {before.phase} → {after.phase}.")
    if frame.step is not None and frame.step.move is None and not out:
        out.append("Nothing moves in this step: look at the position.")
        if after.over:
            out.append(result_words(after))
    return out


def match_words(example: Example, game: Game) -> str:
    """The match after a finished hand of an example that plays one (its ``match`` key):
    the totals and who has won it, in words; empty otherwise."""
    match = example.data.get("match")
    if not game.over or not isinstance(match, dict):
        return ""
    start = list(match.get("scores", [0] * game.n))
    totals = [a + b for a, b in zip(start, game.scores, strict=False)]
    text = "Match totals: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(totals)) + "."
    target = match.get("target", game.rules.match_target)
    games = game.rules.games_in_match
    top = max(totals)
    leaders = [s for s, v in enumerate(totals) if v == top]
    done = (games is not None and match.get("games_played", 0) + 1 >= games) or (
        target is not None and top >= target)
    if done:
        who = " and ".join(f"seat {s}" for s in leaders)
        verb = "share" if len(leaders) > 1 else "wins"
        reach = f" reaches {target} and" if target is not None and games is None else ""
        text += f" {who[0].upper()}{who[1:]}{reach} {verb} the match."
    return text


def moved_cards(before: Game, frame: Frame) -> set[Card]:
    """The cards that changed place in this step (to outline them)."""
    moved: set[Card] = set()
    for e in frame.new_events:
        moved.update(e.cards)
    after = frame.game
    for p in range(after.rules.piles):
        if before.piles[p][-1] != after.piles[p][-1]:
            moved.add(after.piles[p][-1])
    return moved


def _move_words(move: Any) -> str:
    text = move._replace(pile=None).display.replace(*JOKER)
    return f"{text} on pile {move.pile + 1}" if move.pile is not None else text


# -- predict, then see ---------------------------------------------------------------------------

RIGHT, LEGAL, WRONG, SKIPPED = "right", "legal", "wrong", "skipped"
#: how a verdict reads its result
_RESULT_WORDS = {RIGHT: "right", LEGAL: "legal, but not the example's", WRONG: "wrong",
                 SKIPPED: "skipped"}


@dataclass
class Question:
    """One prediction asked before a step is shown.

    ``kind``: ``move`` (the next move, from the hand), ``accepted`` (is a tried move
    accepted?), ``who`` (who is hit) or ``count`` (how many cards a hit seat draws).
    ``options`` are ``(label, value)`` pairs; ``answer`` is the right value (for ``move``, the
    example's move as the engine writes it) and ``why`` the engine's reason for it."""

    kind: str
    prompt: str
    options: list[tuple[str, str]]
    answer: str
    answer_label: str
    why: str
    game: Game | None = None  # the position asked about (``move``)


def _same(a: Move, b: Move) -> bool:
    """One move, even if one of them leaves out a going-out wild's call or the last-card
    call (the engine accepts both spellings)."""
    if a == b:
        return True
    return (a.kind == b.kind == PLAY and a.cards == b.cards and a.pile == b.pile
            and (a.call is None or b.call is None or a.call == b.call))


def why_legal(game: Game, move: Move) -> str:
    """Why ``move`` is allowed now, in words (the rule that lets it through)."""
    seat = game.to_play
    card = move.card.display.replace(*JOKER) if move.kind == PLAY else ""
    reason = words_for(game.rules).reasons.get((game.phase, move.kind))
    if reason:
        return reason.format(seat=seat, cards=card)
    if move.kind == PLAY and game.phase == PHASE_DECLARE:
        return f"Seat {seat} names what its card calls: {_move_words(move)}."
    if move.kind == PLAY and game.phase not in (PHASE_PLAY, PHASE_CHAIN):
        return f"{_move_words(move)} is one of the moves allowed now."
    if move.kind == PLAY:
        from crazylab.engine.reasons import card_moves, legal_reason

        moves = tuple(m for m in card_moves(game, move.card) if m.pile == move.pile) or (move,)
        why = legal_reason(game, move.card, moves)
        if len(move.cards) > 1:  # a stack: the first card must fit, the rest share its rank
            rest = " + ".join(c.display for c in move.cards[1:]).replace(*JOKER)
            why = f"{why[:-1]}; {rest} of the same rank go on it as a stack."
        return why
    fits = [m for m in game.legal_moves() if m.kind == PLAY]
    if move.kind == DRAW:
        if not fits:
            return f"No card of seat {seat} fits, so it draws."
        return "These rules let a player draw even when a card fits."
    if move.kind == PASS:
        if not fits:
            return f"Nothing of seat {seat} fits and it may not draw more, so it passes."
        return "Passing is allowed now."
    return f"Seat {seat} has played or drawn this turn, so it may end it."


def _pending(game: Game) -> dict[int, tuple[int, int]]:
    """The hits waiting in a position: seat -> (cards still to draw, hits)."""
    out: dict[int, tuple[int, int]] = {}
    for entry in game.public_extra().get("pending", ()):
        seat, left, hits = entry
        out[int(seat)] = (int(left), int(hits))
    return out


def _seats_label(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return "Seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _move_question(before: Game, move: Move) -> Question:
    """Pick the next move: one button per card of the hand (a card with several legal moves
    asks which next: a stack, a call, a pile), then draw / pass / end."""
    legal = before.legal_moves()
    hand = before.hands[before.to_play]
    cards = sorted(set(hand) | {m.card for m in legal if m.kind == PLAY}, key=sort_key)
    options = []
    for c in cards:
        mine = [m for m in legal if m.kind == PLAY and m.card == c]
        value = str(mine[0]) if len(mine) == 1 else f"card:{c}"
        label = _move_words(mine[0]) if len(mine) == 1 else c.display.replace(*JOKER)
        options.append((label, value))
    others = [m.kind for m in legal if m.kind != PLAY]
    if before.phase in (PHASE_PLAY, PHASE_CHAIN) and DRAW not in others and hand:
        others.insert(0, DRAW)  # a learner may think so: refused with the engine's reason
    options += [(k, k) for k in dict.fromkeys(others)]
    who = f"Seat {before.to_play}"
    return Question("move", f"{who} is to play. What does it do next?", options, str(move),
                    _move_words(move), why_legal(before, move), before)


def questions(frames: list[Frame], i: int) -> list[Question]:
    """What the learner is asked before step ``i`` is shown (none for a step without a move,
    or for a forced penalty draw that goes on): the next move, whether a tried move is
    accepted, then who a new hit lands on and how many cards each hit seat draws."""
    if i <= 0 or i >= len(frames):
        return []
    frame = frames[i]
    before, after = frames[i - 1].game, frame.game
    step = frame.step
    out: list[Question] = []
    if step is not None and step.move is not None and not before.over:
        if frame.error is not None:
            try:
                tried = _move_words(before.canonical(step.move))
            except Exception:
                tried = step.move
            out.append(Question(
                "accepted", f"Seat {before.to_play} tries {tried}. Does the engine accept it?",
                [("Yes, it is legal", "yes"), ("No, it is refused", "no")], "no",
                "the engine refuses it", frame.error))
        else:
            move = before.accepted(before.canonical(step.move))
            legal = before.legal_moves()
            forced = len(legal) == 1 and before.phase not in (PHASE_PLAY, PHASE_CHAIN)
            if move is not None and not forced:
                out.append(_move_question(before, move))
    was = _pending(frames[i - 1].game) if i > 1 else {}
    now = _pending(after) if i > 1 else _pending(before) | _pending(after)
    new = {s: v for s, v in now.items() if s not in was or v[1] > was[s][1]}
    if new:
        said = [*new_sentences(frame), *(new_sentences(frames[0]) if i == 1 else [])]
        hits = {s.event.seat: s.text for s in said
                if s.event.kind == PENALTY and s.event.seat in new}
        why = " ".join(hits.values()) or describe_hits(new)
        seats = sorted(new)
        actor = before.to_play
        others = [s for s in range(after.n) if s != actor] or list(range(after.n))
        choices = [[s] for s in others]
        choices += [[a, b] for k, a in enumerate(others) for b in others[k + 1:]]
        if seats not in choices:
            choices.append(seats)
        if len(choices) > 1:  # with two players the hit has one place to go: not asked
            out.append(Question(
                "who", "Who is hit, and must draw or lose the turn?",
                [(_seats_label(c), ",".join(map(str, c))) for c in choices],
                ",".join(map(str, seats)), _seats_label(seats), why))
        for s in seats:
            left = new[s][0]
            if not left:
                continue
            top = max(8, left + 2)
            out.append(Question(
                "count", f"How many cards must seat {s} draw?",
                [(str(k), str(k)) for k in range(1, top + 1)], str(left),
                f"{left} card{'s' if left != 1 else ''}", hits.get(s) or why))
    return out


def describe_hits(new: dict[int, tuple[int, int]]) -> str:
    """The new hits in words, when the engine logged no event for them."""
    return " ".join(f"Seat {s} must draw {left} and lose the turn." if left else
                    f"Seat {s} loses the turn." for s, (left, _hits) in sorted(new.items()))


@dataclass
class _Quiz:
    """The predictions of one step: the questions, the answers so far, the verdicts."""

    questions: list[Question]
    at: int = 0
    results: list[str] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)  # HTML, one per answered question
    refused: list[str] = field(default_factory=list)  # HTML: illegal picks of the open one
    card: str = ""  # a card picked that has several legal moves: which of them?

    @property
    def done(self) -> bool:
        return self.at >= len(self.questions)

    @property
    def question(self) -> Question | None:
        return None if self.done else self.questions[self.at]


class ExamplePicker(ErrorReporting, anywidget.AnyWidget):
    """The grouped list of examples (a ``<select>`` with ``<optgroup>``\\ s), and the
    explainer's keys: ``explainer.js`` sends ← → Home End pressed inside the explainer, and
    (on the explain page) the page's address, which a static site's kernel cannot read."""

    _esm = HERE / "explainer.js"
    _css = HERE / "explainer.css"

    groups: t.List[dict[str, Any]] = t.List().tag(sync=True)
    value = t.Unicode("").tag(sync=True)
    label = t.Unicode("Example").tag(sync=True)
    #: the explain page: report the page's address, keep it in step, keys anywhere
    follow_address = t.Bool(False).tag(sync=True)
    #: the address of what is shown (``?example=…&step=…``) while ``follow_address``
    address = t.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.errors: list[str] = []
        self.on_key: Any = None
        self.on_address: Any = None
        self.on_msg(self._on_message)

    @property
    def names(self) -> list[str]:
        return [o["value"] for g in self.groups for o in g["options"]]

    def __repr__(self) -> str:  # no memory address in a saved notebook
        return f"ExamplePicker(value={self.value!r})"

    def _show_error(self, text: str) -> None:
        if text:
            log_text = text.split("\n\n")[0]
            self.label = f"Example (something went wrong: {log_text})"

    @guarded
    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any = None) -> None:
        kind = content.get("kind")
        if kind == "key" and self.on_key is not None:
            self.on_key(str(content.get("key", "")))
        elif kind == "address" and self.on_address is not None:
            self.on_address(str(content.get("search", "")))


KEYS = {"ArrowLeft": "previous", "ArrowRight": "next", "Home": "first", "End": "last"}


def keys_text(more: str = "") -> Html:
    """The line saying which keys step through the example (``more``: the quiz's keys)."""
    return MARKUP("keys", more=more)


class StepExplainer(ErrorReporting, w.VBox):
    """Step through a worked example: Previous / Next / the slider / ← → Home End, or
    :meth:`go`. ``choices`` limits the list to some examples (a lesson's). ``predict=True``
    (or the "Predict first" toggle) asks before each step: :attr:`question`, :attr:`options`,
    :meth:`answer` / :meth:`pick` (the buttons, keys 1 to 9), :meth:`skip` (→), :attr:`score`."""

    def __init__(self, example: str | dict[str, Any] | Example | None = None, step: int = 0,
                 *, choices: list[str] | None = None, four_colour: bool = False,
                 predict: bool = False) -> None:
        explainer_args(example, step, choices, four_colour, predict)
        self.errors: list[str] = []
        self.four_colour = four_colour
        self._quiz: dict[int, _Quiz] = {}
        self.example: Example | None = None
        self.frames: list[Frame] = []
        self.notices: list[str] = []
        self._address_seen: dict[str, str] | None = None
        names = choices if choices is not None else [e.name for e in catalogue()]
        self.picker = ExamplePicker(groups=groups(names),
                                    layout=w.Layout(width="min(100%, 640px)"))
        self.picker.on_key = self.press
        self.picker.on_address = self._on_address
        self.prev_button = w.Button(description="◀ Previous", tooltip="Previous step (←)")
        self.next_button = w.Button(description="Next ▶", tooltip="Next step (→)")
        self.slider = w.IntSlider(min=0, max=0, value=0, description="Step",
                                  continuous_update=True,
                                  layout=w.Layout(width="min(100%, 420px)"))
        self.notice_html = w.HTML()
        self.title_html = w.HTML()
        self.say_html = w.HTML()
        self.changes_html = w.HTML()
        self.position_html = w.HTML()
        self.link_html = w.HTML()
        self.keys_html = w.HTML(keys_text())
        self.error_area = ErrorArea()
        self.predict_toggle = w.ToggleButton(
            value=predict, description="Predict first", icon="question",
            tooltip="Guess each step (the next move, who is hit, how many cards) before the "
                    "explainer shows it", layout=w.Layout(width="auto"))
        # the quiz's widgets are made the first time predicting is on (a lesson shows many
        # explainers: no models for a mode nobody has switched on)
        self._quiz_widgets: tuple[w.HTML, w.HTML, w.HBox, w.VBox] | None = None
        self.predict_toggle.observe(self._on_predict, "value")
        self.prev_button.on_click(self._on_prev)
        self.next_button.on_click(self._on_next)
        self.slider.observe(self._on_slider, "value")
        self.picker.observe(self._on_pick, "value")
        _column = w.Layout(flex="1 1 380px", min_width="0", margin="0 12px 0 0")
        super().__init__([
            self.notice_html, self.picker, self.title_html,
            w.HBox([self.prev_button, self.slider, self.next_button, self.predict_toggle],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.keys_html,
            w.HBox([w.VBox([self.say_html, self.changes_html], layout=_column),
                    w.VBox([self.position_html, self.link_html], layout=_column)],
                   layout=w.Layout(flex_flow="row wrap", align_items="flex-start")),
            self.error_area,
        ])
        self.add_class("crazylab-explainer")
        if example is not None:
            self.load(example, step)
        elif names:
            self.load(names[0], step)

    @classmethod
    def from_query(cls, query: str | None = None, default: str | None = None,
                   **kwargs: Any) -> StepExplainer:
        """The explain page: an explainer opened at the page's ``?example=NAME&step=N``
        (:func:`page_query` unless ``query`` is given). A name that is no example, or a step
        that is no number, shows a notice over the list and the default example."""
        text = page_query() if query is None else query
        q = _params(text)
        names = {e.name for e in catalogue()}
        start = default if default is not None else DEFAULT_EXAMPLE
        if start not in names and names:
            start = catalogue()[0].name
        first = q.get("example", start)
        x = cls(first if first in names else start, **kwargs)
        x.picker.follow_address = True
        x.open_address(text)
        return x

    # -- the page's address ---------------------------------------------------------------

    def open_address(self, query: str) -> None:
        """Show what ``?example=NAME&step=N`` asks for; say what is wrong with it, if
        anything, over the list (the page goes on with what it shows)."""
        q = _params(query)
        self._address_seen = q
        notices = []
        name = q.get("example")
        target = self.example.name if self.example is not None else None
        if name is not None:
            if name in self.picker.names:
                target = name
            else:
                notices.append("")  # filled in below, once the example shown is known
        if "predict" in q:
            self.predict = q["predict"].strip().lower() in ("1", "true", "yes", "on")
        step = 0
        if "step" in q:
            try:
                step = int(q["step"])
            except ValueError:
                notices.append(f"“{q['step'][:40]}” is not a step number: this is the "
                               "setup (step 0).")
        if target is not None and (self.example is None or target != self.example.name):
            self.load(target, step)
        elif target is not None:
            self.go(step)
        showing = readable_title(self.example.title) if self.example is not None else ""
        notices = [n or _no_such_example(name or "", showing) for n in notices]
        if target is not None and "step" in q and not notices and step != self.index:
            notices.append(f"This example has steps 0 to {self.slider.max}: this is step "
                           f"{self.index}.")
        self.notice(*notices)

    def notice(self, *lines: str) -> None:
        """Show (or, with no lines, clear) the notice over the list."""
        self.notices = list(lines)
        if not lines:
            self.notice_html.value = ""
            return
        self.notice_html.value = MARKUP("notice", lines=Markup.join(
            MARKUP("notice_line", text=s) for s in lines))

    @guarded
    def _on_address(self, search: str) -> None:
        q = _params(search)
        if self.picker.follow_address and q and q != self._address_seen:
            self.open_address(search)

    # -- navigation -----------------------------------------------------------------------

    @property
    def index(self) -> int:
        return self.slider.value

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    def go(self, step: int) -> None:
        """Show step ``step`` (clamped to the example's steps)."""
        self.slider.value = max(0, min(step, self.slider.max))

    def next(self) -> None:
        """The next step; in predict mode, a step not answered yet is shown first (its
        open questions count as skipped)."""
        if self.predict and not self.revealed(self.index):
            self.skip()
        else:
            self.go(self.index + 1)

    def previous(self) -> None:
        self.go(self.index - 1)

    @guarded
    def press(self, key: str) -> None:
        """What a key pressed in the explainer does: ← previous, → next, Home the setup,
        End the last step (other keys: nothing)."""
        action = KEYS.get(key)
        if len(key) == 1 and key in "123456789":
            if self.predict and not self.revealed(self.index):
                self.pick(int(key) - 1)
            return
        if action == "previous":
            self.previous()
        elif action == "next":
            self.next()
        elif action == "first":
            self.go(0)
        elif action == "last":
            self.go(self.slider.max)

    @guarded
    def load(self, example: str | dict[str, Any] | Example, step: int = 0) -> None:
        """Load a worked example (a shipped name, a path, a dict or an Example)."""
        ex = example if isinstance(example, Example) else load_example(example)
        self.example = ex
        self.frames = ex.frames()
        self._quiz = {}
        if isinstance(example, str) and example in self.picker.names:
            self.picker.unobserve(self._on_pick, "value")
            self.picker.value = example
            self.picker.observe(self._on_pick, "value")
        self.slider.unobserve(self._on_slider, "value")
        self.slider.max = len(self.frames) - 1
        self.slider.value = max(0, min(step, self.slider.max))
        self.slider.observe(self._on_slider, "value")
        title = readable_title(ex.title, ex.name)
        words, ids = plain_words(ex.description)
        desc = (MARKUP("description", words=Markup.join([words, rule_badges(ids)]))
                if ex.description else "")
        rules = RULE_SET_NAMES.get(ex.rules.name, ex.rules.name)
        self.title_html.value = MARKUP("title", title=title, rules=rules, players=ex.players,
                                       steps=len(ex.steps), description=Html(desc))
        self.show()

    @guarded
    def _on_prev(self, _b: Any = None) -> None:
        self.previous()

    @guarded
    def _on_next(self, _b: Any = None) -> None:
        self.next()

    @guarded
    def _on_slider(self, _change: Any = None) -> None:
        self.show()

    @guarded
    def _on_pick(self, change: dict[str, Any]) -> None:
        if change["new"] and (self.example is None or change["new"] != self.example.name):
            self.notice()
            self.load(change["new"], 0)

    # -- predict, then see -----------------------------------------------------------------

    @property
    def predict(self) -> bool:
        """Predict mode: each step asks first and shows after (the "Predict first" toggle)."""
        return bool(self.predict_toggle.value)

    @predict.setter
    def predict(self, on: bool) -> None:
        self.predict_toggle.value = bool(on)

    @guarded
    def _on_predict(self, _change: Any = None) -> None:
        self.show()

    def quiz(self, step: int | None = None) -> _Quiz:
        """The predictions of a step (the current one by default)."""
        i = self.index if step is None else step
        if i not in self._quiz:
            self._quiz[i] = _Quiz(questions(self.frames, i))
        return self._quiz[i]

    @property
    def question(self) -> Question | None:
        """The open question of the current step (``None`` when predicting is off or the
        step is shown)."""
        if not self.predict or not self.frames:
            return None
        return self.quiz().question

    @property
    def options(self) -> list[tuple[str, str]]:
        """The answers offered now, ``(label, value)``: the open question's, or the moves of
        a card picked that has several."""
        q = self.question
        if q is None:
            return []
        z = self.quiz()
        if q.kind == "move" and z.card and q.game is not None:
            card = Card.parse(z.card)
            moves = [m for m in q.game.legal_moves() if m.kind == PLAY and m.card == card]
            return [(_move_words(m), str(m)) for m in moves] + [("another card", "back")]
        return list(q.options)

    def revealed(self, step: int | None = None) -> bool:
        """Whether a step's narration and legal moves are shown: always unless predicting;
        when predicting, once its questions are answered (or skipped)."""
        i = self.index if step is None else step
        return not self.predict or i == 0 or self.quiz(i).done

    @property
    def score(self) -> dict[str, int]:
        """This example's predictions so far: how many were right, legal but not the
        example's, wrong, skipped, and asked (the sum)."""
        out = {RIGHT: 0, LEGAL: 0, WRONG: 0, SKIPPED: 0}
        for z in self._quiz.values():
            for r in z.results:
                out[r] += 1
        out["asked"] = sum(out.values())
        return out

    def score_text(self) -> str:
        s = self.score
        if not s["asked"]:
            return "No predictions yet."
        extra = [f"{s[k]} {_RESULT_WORDS[k]}" for k in (LEGAL, SKIPPED) if s[k]]
        more = f" ({', '.join(extra)})" if extra else ""
        return f"{s[RIGHT]} of {s['asked']} predicted{more}."

    @guarded
    def pick(self, index: int) -> None:
        """Answer with the ``index``-th option offered (a button, or the key ``index + 1``)."""
        offered = self.options
        if 0 <= index < len(offered):
            self.answer(offered[index][1])

    @guarded
    def answer(self, choice: str) -> None:
        """Answer the open question: an option's value or label, or (the next move) any move
        text such as ``8S:D``, which the engine judges."""
        q = self.question
        if q is None:
            return
        z = self.quiz()
        for label, value in self.options:
            if choice == label:
                choice = value
        if q.kind != "move":
            if choice not in {v for _, v in q.options}:
                return
            good = choice == q.answer
            if good:
                said = q.answer_label[:1].upper() + q.answer_label[1:]
                verdict = MARKUP("right", said=said, why=words_html(q.why))
            else:
                verdict = MARKUP("not_this_time", answer=_lower_first(q.answer_label),
                                 why=words_html(_lower_first(q.why)))
            self._close(z, RIGHT if good else WRONG, verdict)
            return
        assert q.game is not None
        game = q.game
        if choice == "back":
            z.card = ""
        elif choice.startswith("card:"):
            card = Card.parse(choice[5:])
            if any(m.kind == PLAY and m.card == card for m in game.legal_moves()):
                z.card = str(card)  # which of its moves? (a stack, a call, a pile)
            else:
                self._refuse(z, card.display, game.explain(str(card)))
        else:
            try:
                picked = game.canonical(choice)
            except ValueError as e:
                self._refuse(z, choice, str(e))
            else:
                legal = game.accepted(picked)
                if legal is None:
                    self._refuse(z, _move_words(picked), game.explain(picked))
                else:
                    self._judge(z, q, legal)
        self.show()

    def _refuse(self, z: _Quiz, what: str, why: str) -> None:
        z.card = ""
        said = words_html(why)
        if not plain_words(why)[0].startswith(what):  # "3♦ matches neither…" names it
            said = Markup.join([what, ". ", said])
        z.refused.append(MARKUP("not_legal", said=said))

    def _judge(self, z: _Quiz, q: Question, picked: Move) -> None:
        assert q.game is not None
        example = q.game.accepted(q.game.canonical(q.answer)) or Move.parse(q.answer)
        if _same(picked, example):
            self._close(z, RIGHT, MARKUP("right_move", move=q.answer_label,
                                         why=words_html(q.why)))
        else:
            self._close(z, LEGAL, MARKUP(
                "legal_not_this_time", move=q.answer_label, why=words_html(_lower_first(q.why)),
                mine=_move_words(picked),
                mine_why=words_html(_lower_first(why_legal(q.game, picked)))))

    def _close(self, z: _Quiz, result: str, verdict: str) -> None:
        z.results.append(result)
        z.verdicts.append(verdict)
        z.refused = []
        z.card = ""
        z.at += 1
        self.show()

    @guarded
    def skip(self) -> None:
        """Show the current step without answering: its open questions count as skipped."""
        z = self.quiz()
        while not z.done:
            q = z.questions[z.at]
            z.results.append(SKIPPED)
            z.verdicts.append(MARKUP("skipped", prompt=q.prompt, answer=q.answer_label,
                                     why=words_html(q.why)))
            z.at += 1
        z.refused, z.card = [], ""
        self.show()

    def _quiz_parts(self) -> tuple[w.HTML, w.HTML, w.HBox, w.VBox]:
        """The score, the question and verdicts, the answer buttons, and their box (under
        the keys' line), made on first use."""
        if self._quiz_widgets is None:
            score, text = w.HTML(), w.HTML()
            buttons = w.HBox(layout=w.Layout(flex_flow="row wrap", align_items="center"))
            box = w.VBox([score, text, buttons], layout=w.Layout(display="none"))
            box.add_class("cl-predict")
            self._quiz_widgets = (score, text, buttons, box)
            kids: list[Any] = list(getattr(self, "children"))  # noqa: B009 (a trait)
            kids.insert(kids.index(self.keys_html) + 1, box)
            self.children = tuple(kids)
        return self._quiz_widgets

    @property
    def score_html(self) -> w.HTML:
        return self._quiz_parts()[0]

    @property
    def quiz_html(self) -> w.HTML:
        return self._quiz_parts()[1]

    @property
    def options_box(self) -> w.HBox:
        return self._quiz_parts()[2]

    @property
    def quiz_box(self) -> w.VBox:
        return self._quiz_parts()[3]

    def _show_quiz(self) -> None:
        """The quiz above the narration: the score, the verdicts so far, the open question
        and its answers as buttons (keys 1 to 9)."""
        self.keys_html.value = keys_text(", 1 to 9: answer" if self.predict else "")
        if self._quiz_widgets is None and not self.predict:
            return
        self.quiz_box.layout.display = "flex" if self.predict else "none"
        on = self.predict and self.index > 0
        nothing = MARKUP("nothing_first" if self.index == 0 else "nothing_here")
        self.score_html.value = MARKUP("score", score=self.score_text(), nothing=(
            Html("") if on and self.quiz().questions else nothing))
        if not on:
            self.options_box.children = ()
            self.quiz_html.value = ""
            return
        z = self.quiz()
        q = z.question
        parts = [MARKUP("verdict", result=r, verdict=Html(v))
                 for r, v in zip(z.results, z.verdicts, strict=False)]
        parts += [MARKUP("refused_verdict", verdict=Html(v)) for v in z.refused[-1:]]
        if q is not None:
            which = f" {_move_words(Move.parse(z.card))}: which move?" if z.card else ""
            parts.append(MARKUP("question", prompt=q.prompt, which=which))
        self.quiz_html.value = Markup.join(parts)
        buttons = []
        for n, (label, value) in enumerate(self.options):
            key = f" (key {n + 1})" if n < 9 else ""
            b = w.Button(description=label, tooltip=f"{label}{key}",
                         layout=w.Layout(width="auto", margin="2px 4px 2px 0"))
            b.add_class("cl-answer")
            b.on_click(self._answer_button(value))
            buttons.append(b)
        old = self.options_box.children
        self.options_box.children = tuple(buttons)
        for b in old:
            b.close()

    def _answer_button(self, value: str) -> Any:
        @guarded
        def click(_self: StepExplainer, _b: Any = None) -> None:
            _self.answer(value)

        return lambda b: click(self, b)

    @guarded
    def show(self) -> None:
        """Draw the current frame."""
        if not self.frames or self.example is None:
            return
        i = self.index
        frame = self.frames[i]
        n = len(self.frames) - 1
        self.prev_button.disabled = i == 0
        hidden = not self.revealed(i)
        self.next_button.disabled = i == n and not hidden
        self.next_button.description = "Show ▶" if hidden else "Next ▶"
        self.next_button.tooltip = ("Show this step without predicting (→)" if hidden
                                    else "Next step (→)")
        self._show_quiz()
        if hidden:
            self._show_hidden(i, n)
            return
        move = Html("")
        if frame.step is None:
            say = MARKUP("setup")
            head = f"Setup (step 0 of {n})"
            what: list[str] = []
            highlight: set[Card] = set()
        else:
            step = frame.step
            say = words_html(step.say) if step.say else Html("")
            head = f"Step {i} of {n}"
            if step.move:
                move = MARKUP("move", words=self._move_text(step.move), move=step.move)
            before = self.frames[i - 1].game
            what = changes(before, frame)
            if frame.game.over and not before.over:
                extra = match_words(self.example, frame.game)
                if extra:
                    what.append(extra)
            highlight = moved_cards(before, frame)
        refused = (MARKUP("refused", why=words_html(frame.error)) if frame.error is not None
                   else Html(""))
        self.say_html.value = MARKUP("say", head=head, say=say, move=move, refused=refused)
        self.changes_html.value = (MARKUP("changes", items=Markup.join(
            MARKUP("change", text=words_html(s)) for s in what)) if what else "")
        legal = frame.game.legal_moves()
        legal_text = ("" if frame.game.over else MARKUP(
            "legal", seat=frame.game.to_play, moves=", ".join(_move_words(m) for m in legal[:16]),
            more=" …" if len(legal) > 16 else ""))
        self.position_html.value = game_html(
            frame.game, four_colour=self.four_colour, highlight=highlight,
            title=RULE_SET_NAMES.get(frame.game.rules.name, frame.game.rules.name)) + legal_text
        self._show_link(i)

    def _show_hidden(self, i: int, n: int) -> None:
        """A step not predicted yet: the position before it, no narration, no changes, no
        legal moves (none of them reaches the browser)."""
        before = self.frames[i - 1].game
        self.say_html.value = MARKUP("hidden", step=i, last=n)
        self.changes_html.value = ""
        self.position_html.value = game_html(
            before, four_colour=self.four_colour,
            title=RULE_SET_NAMES.get(before.rules.name, before.rules.name))
        self._show_link(i)

    def _show_link(self, i: int) -> None:
        assert self.example is not None
        href = step_link(self.example.name, i) + ("&predict=1" if self.predict else "")
        self.link_html.value = MARKUP("link", href=href, step=i)
        if self.picker.follow_address:
            self.picker.address = "?" + href.split("?", 1)[1]

    def _move_text(self, text: str) -> str:
        try:
            from crazylab.engine.moves import Move

            return _move_words(Move.parse(text))
        except Exception:
            return text


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _params(query: str | None) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs((query or "").lstrip("?")).items()}


def _no_such_example(name: str, showing: str) -> str:
    shown = name if len(name) <= 60 else name[:57] + "…"
    close = [e for e in catalogue() if shown and shown.lower() in e.name][:1]
    hint = f" Did you mean “{close[0].label}”?" if close else ""
    meanwhile = f" Meanwhile this is “{showing}”." if showing else ""
    return (f"No worked example called ‘{shown}’.{hint} Choose one from the list below, "
            f"grouped by rule set and topic.{meanwhile}")


__all__ = ["DEFAULT_EXAMPLE", "Entry", "ExamplePicker", "Question", "StepExplainer",
           "catalogue", "changes", "entry", "groups", "match_words", "moved_cards",
           "page_query", "plain_words", "questions", "readable_title", "step_link",
           "why_legal", "words_html"]

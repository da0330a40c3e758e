"""The game table: play a hand or a match against 1-3 computer opponents under any rule set.

Everything the browser shows is built only from what the human seat may see
(``game.observation(0)`` plus the engine's explanations of that seat's own cards): ``view``
here, in Python. The browser gets it once (``snapshot``), then one message per human action
holding what changed (``steps``: the human's move, then each computer move, which the browser
shows ``delay`` seconds apart). Cards travel as codes; each face's SVG is sent once and drawn
from the browser's cache. The browser itself opens and closes the choosers (a call, a pile, a
stack: every legal card carries its options), the hint and the four-colour deck, and says why
an illegal card cannot be played. The same actions are methods here, so the table can be
driven and tested from Python (there, bots wait for :meth:`bot_step` unless ``delay=0``).

What the learner reads is in words (``table_text``): the status lists every event since the
human's last move (``news``: a King's deck play, a hit, a counter, a drop, a skip), kept until
they move again, then what to do now (``message``); no rule id and no card code reaches the
table. At the end of a hand ``end`` holds every hand left, face up, how each was counted
(the engine's scoring: card values, or −1 a card under the musical rules) and the match so
far. ``title`` names a variant with its house rules and ``sheet`` is its rules sheet.

A page's ``?seed=`` is mixed with the server's secret (``CRAZYLAB_SECRET``) so a class link
deals the same cards for everyone on that server but does not reveal them; ``seed=`` given to
the constructor is used as it is.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from crazylab.engine.cards import SUITS, Card, CardError
from crazylab.engine.game import Game, IllegalMove
from crazylab.engine.moves import DRAW, END, PASS, PLAY, Move
from crazylab.engine.observe import Observation
from crazylab.engine.phases import PHASE_CHAIN, PHASE_PENALTY, PHASE_PLAY
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.match import Match
from crazylab.render import card_svg
from crazylab.sheet import house_options, rules_sheet_html, variant_name

from ._common import (
    ErrorReporting,
    build_or_default,
    call_in_force,
    call_label,
    guarded,
    query_params,
)
from ._validate import table_args as _table_args
from .players import Bot, bot_levels, random_bot, resolve_bot
from .reasons import card_moves, legal_reason
from .table_text import Narrator, Said, Voice, cards_words, for_people, move_words, news

HERE = Path(__file__).parent
HUMAN = 0
MAX_LOG = 80
SECRET_ENV = "CRAZYLAB_SECRET"
FOUR_COLOURS = {"C": "#1a7f37", "D": "#1f5fbf"}  # the browser recolours these suits

ACTION_LABELS = {DRAW: "Draw", PASS: "Pass", END: "End turn"}
ACTION_KEYS = {DRAW: "d", PASS: "p", END: "e"}
#: button labels for phases added by rule sets (Crazy Breens); other phases use ACTION_LABELS
PHASE_LABELS = {
    ("penalty", DRAW): "Take the penalty",
    ("penalty", PASS): "Lose the turn",
    ("drop", END): "Drop nothing",
}
PHASE_HELP = {
    "chain": "Play another card that fits, or end your turn.",
    "penalty": "You are hit: counter with a Jack (click it) or take the penalty.",
    "jump": "You hold a card identical to the top: jump in with it now, out of turn "
            "(click it), or pass.",
    "drop": "Your Queen lets you drop one card of your hand: click it, or drop nothing.",
    "declare": "A wild card was turned up for you: call the suit that counts now.",
}
#: how the banner names the card that made a cycle of hits
SOURCE_WORDS = {"two": "2", "ace": "Ace", "joker": "joker"}
#: the chooser's questions, in the order they are asked
DIMENSIONS: tuple[tuple[str, Callable[[Move], Any]], ...] = (
    ("stack", lambda m: m.cards),
    ("pile", lambda m: m.pile),
    ("call", lambda m: m.call),
    ("last", lambda m: m.last),  # A14: the "Last card!" call, asked last
)


class GameTable(ErrorReporting, anywidget.AnyWidget):
    """A card table for one human (seat 0) against computer opponents.

    >>> table = GameTable("crazy-eights-classic", opponents=2, seed=1, delay=0)
    >>> table.click_card("8S")   # a legal eight opens the suit chooser  # doctest: +SKIP
    >>> table.choose_call("D")                                          # doctest: +SKIP
    """

    _esm = HERE / "table.js"
    _css = HERE / "table.css"

    view = t.Dict()  # what the browser shows (Python side; sent as ``snapshot`` + steps)
    snapshot = t.Dict().tag(sync=True)  # the first view and its card faces
    error = t.Unicode("").tag(sync=True)
    delay = t.Float(0.7).tag(sync=True)
    four_colour = t.Bool(False).tag(sync=True)
    show_hint = t.Bool(False).tag(sync=True)
    preset = t.Unicode("crazy-eights-classic").tag(sync=True)
    opponents = t.Int(1).tag(sync=True)
    level = t.Unicode("random").tag(sync=True)

    def __repr__(self) -> str:
        """Stable text (no memory address): what a saved notebook shows without a browser."""
        return (f"GameTable({self.preset!r}, opponents={self.opponents}, "
                f"bots={self.level!r})")

    def __init__(self, rules: str | RuleSet = "crazy-eights-classic", opponents: int = 1, *,
                 seed: int | None = None, bot: str | Bot | None = None,
                 delay: float = 0.7, four_colour: bool = False,
                 target: int | None | str = "rules", names: Sequence[str] | None = None,
                 **kwargs: Any) -> None:
        self._ready = False
        self.errors: list[str] = []
        self._rules = _table_args(rules, opponents, seed, bot, delay, four_colour, target, names)
        self._custom_bot: Bot | None = bot if callable(bot) else None
        levels = bot_levels()
        level = "custom" if self._custom_bot else (bot or _default_level(levels))
        super().__init__(delay=delay, four_colour=four_colour, preset=self._rules.name,
                         opponents=opponents, level=level, **kwargs)
        self._seed = random.randrange(2**31) if seed is None else int(seed)
        self._rng = random.Random(self._seed)
        self._target = target
        self._names = list(names) if names else None
        self._message, self._message_kind = "", "info"
        self._news_from = 0  # the events since the human last acted: the status reads them
        self._intro: list[str] = []  # said before them (a new hand, who deals)
        self._sheet_cache: tuple[RuleSet, str] | None = None  # the rules sheet, as HTML
        self._pending: list[Move] = []
        self._pending_card: Card | None = None
        self._token = 0
        self._seq = 0
        self._hand_id = 0
        self._steps: list[dict[str, Any]] | None = None  # views collected for one message
        self._sent: dict[str, Any] = {}  # the view the browser has
        self._faces_sent: set[str] = set()
        self._live = False  # the snapshot is taken: later changes go out as messages
        self.match: Match
        self.on_msg(self._on_message)
        self._clamp_opponents()
        self._ready = True
        self.new_match()
        self.snapshot = {"view": self.view, "faces": self._faces(self.view, everything=True)}
        self._sent = self.view
        self._live = True

    @classmethod
    def from_query(cls, query: str | None = None, **defaults: Any) -> GameTable:
        """A table set up from a page's query string: ``?rules=crazy-eights-quick&
        opponents=2&seed=5&delay=0.3&level=random&four=1``."""
        q = query_params(query)
        kwargs: dict[str, Any] = dict(defaults)
        if "rules" in q:
            kwargs["rules"] = q["rules"]
        for key, conv in (("opponents", int), ("delay", float)):
            if key in q:
                kwargs[key] = _number(conv, q[key])
        if "seed" in q:
            kwargs["seed"] = link_seed(q["seed"])
        if "level" in q:
            kwargs["bot"] = q["level"]
        if q.get("four", "") not in ("", "0", "false"):
            kwargs["four_colour"] = True
        return build_or_default(cls, kwargs, defaults)

    # -- state --------------------------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self._rules

    @property
    def game(self) -> Game:
        """The hand being played (the kernel holds it; the browser never sees it whole)."""
        return self.match.game

    @property
    def observation(self) -> Observation:
        return self.game.observation(HUMAN)

    @property
    def players(self) -> int:
        return self.opponents + 1

    @property
    def names(self) -> list[str]:
        if self._names and len(self._names) >= self.players:
            return self._names[:self.players]
        return ["You"] + [f"Bot {s}" for s in range(1, self.players)]

    @property
    def message(self) -> str:
        return self._message

    @property
    def your_turn(self) -> bool:
        return not self.game.over and self.game.to_play == HUMAN

    @property
    def bot_pending(self) -> bool:
        return not self.game.over and self.game.to_play != HUMAN

    def bot_for(self, seat: int) -> Bot:
        if self._custom_bot is not None:
            return self._custom_bot
        return resolve_bot(self.level) if self.level != "custom" else random_bot

    def _show_error(self, text: str) -> None:
        self.error = text

    # -- actions (the browser sends these as messages) ----------------------------------------

    @guarded
    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: Any = None) -> None:
        action = content.get("action")
        if action == "card":
            self._answer(lambda: self.click_card(content["card"]))
        elif action == "move":
            self._answer(lambda: self.play(content["move"]))
        elif action == "choose":
            self._answer(lambda: self.choose(int(content["index"])))
        elif action == "cancel":
            self._answer(self.cancel)
        elif action in ("bot", "bots"):  # a computer opponent is to move first
            self._answer(lambda: None)
        elif action == "new_hand":
            self._answer(self.new_hand)
        elif action == "new_match":
            self._answer(self.new_match)
        elif action == "sync":  # a view asks for the present (drawn from an old snapshot,
            # or it has waited too long for an answer): always answered, whole if it is behind
            if content.get("seq") != self.view.get("seq"):
                self._faces_sent.clear()
                self._sent = {}
            self._send_steps([self.view])
        elif action == "clear_error":
            self.error = ""
        else:
            raise ValueError(f"unknown action {action!r} from the browser")

    def _answer(self, action: Callable[[], Any]) -> None:
        """Do a browser's action, play every computer move that follows, and answer with one
        message: the views after each move (the browser shows them ``delay`` s apart)."""
        self._steps = []
        try:
            action()
            while self.bot_pending:  # each move is a step; the status keeps them all
                self._one_bot_move()
                self._after_move(from_bot=True, run=False)
        finally:
            steps, self._steps = self._steps, None
            if steps:
                self._send_steps(steps)

    @guarded
    def click_card(self, card: str | Card) -> bool:
        """The human clicks a card of their hand: play it if only one move starts with it,
        open the chooser if several do (a call, a pile, a stack), else say why not."""
        try:
            c = Card.parse(card)
        except CardError as e:
            return self._refuse(str(e))
        self._pending, self._pending_card = [], None
        if c not in self.game.hands[HUMAN]:
            return self._refuse(f"You do not hold {c.display}.")
        if self.game.over:
            return self._refuse("The hand is over: press New hand to deal again.")
        if not self.your_turn:
            return self._refuse(self._wait_text())
        moves = list(card_moves(self.game, c))
        if not moves:
            return self._refuse(for_people(self.game.explain(str(c)), self.names)
                                or f"{c.display} cannot be played now.")
        if len(moves) == 1:
            return self.play(moves[0])
        self._pending, self._pending_card = moves, c
        self._say("", "info")
        self._refresh()
        return True

    @guarded
    def choose(self, index: int) -> bool:
        """Pick option ``index`` of the open chooser (a stack, a pile or a call)."""
        step = self._chooser_step()
        if step is None:
            return self._refuse("There is nothing to choose right now.")
        _name, key, values = step
        if not 0 <= index < len(values):
            return self._refuse(f"There is no option {index + 1}.")
        chosen = values[index]
        self._pending = [m for m in self._pending if key(m) == chosen]
        if len(self._pending) == 1:
            return self.play(self._pending[0])
        self._refresh()
        return True

    def choose_call(self, call: str) -> bool:
        """Pick a call by its text (``D``, ``♦``, ``C#``…) in an open call chooser."""
        step = self._chooser_step()
        if step is None or step[0] != "call":
            return self._refuse("No call is being chosen right now.")
        canonical = self.game.canonical_call(call)
        return self.choose(step[2].index(canonical))

    def choose_pile(self, pile: int) -> bool:
        step = self._chooser_step()
        if step is None or step[0] != "pile":
            return self._refuse("No pile is being chosen right now.")
        return self.choose(step[2].index(pile))

    @guarded
    def cancel(self) -> None:
        """Close the chooser (a forced one, for a card not in the hand, opens again)."""
        self._pending, self._pending_card = [], None
        self._say("", "info")
        self._refresh()

    @guarded
    def play(self, move: str | Move) -> bool:
        """The human makes ``move`` (``"6C"``, ``"8S:D"``, ``"draw"``…). An illegal move
        changes nothing; the table says why."""
        self._pending, self._pending_card = [], None
        if self.game.over:
            return self._refuse("The hand is over: press New hand to deal again.")
        if not self.your_turn:
            return self._refuse(self._wait_text())
        penalty = self.game.phase == PHASE_PENALTY
        before = len(self.game.events)
        try:
            self.game.push(move, seat=HUMAN)
        except IllegalMove as e:
            return self._refuse(for_people(str(e), self.names))
        self._news_from, self._intro = before, []  # the status starts again from this move
        if penalty and self.game.moves[-1].kind == DRAW:
            self._draw_whole_penalty()
        self._after_move()
        return True

    def _draw_whole_penalty(self) -> None:
        """One press takes the whole penalty: drawing goes on while drawing is all the human
        may do, and stops when a card drawn lets them counter now (BR-26)."""
        g = self.game
        while not g.over and g.phase == PHASE_PENALTY and g.to_play == HUMAN:
            legal = g.legal_moves()
            if [m.kind for m in legal] != [DRAW]:
                break
            g.push(legal[0], seat=HUMAN)

    def press(self, action: str) -> bool:
        """Press the Draw, Pass or End button (only shown when legal)."""
        return self.play(action)

    @guarded
    def bot_step(self, token: int | None = None) -> bool:
        """Play one computer move (the browser asks after ``delay``). A stale ``token`` is
        ignored, so two open views cannot move twice."""
        if token is not None and token != self._token:
            return False
        if not self.bot_pending:
            return False
        self._one_bot_move()
        self._after_move(from_bot=True)
        return True

    def run_bots(self, limit: int = 10_000) -> None:
        """Play every pending computer move now."""
        for _ in range(limit):
            if not self.bot_pending:
                break
            self._one_bot_move()
        self._after_move(from_bot=True, run=False)

    @guarded
    def new_hand(self) -> None:
        """Deal the next hand of the match (a new match once it is over). Mid-hand, the hand
        is abandoned unscored and redealt by the same dealer."""
        m = self.match
        if m.over:
            self.new_match()
            return
        if m.game.over:
            m.next_hand()
        else:
            self.match = Match(self._rules, self.players, seed=self._rng.randrange(2**31),
                               target=m.target, dealer=m.dealer, scores=m.scores)
            self.match.hands[:0] = [h for h in m.hands if h.over]  # keep the hands played
        self._start_hand()

    @guarded
    def new_match(self) -> None:
        """Start a match from zero with the current rule set and opponents."""
        target = self._rules.match_target if self._target == "rules" else self._target
        self.match = Match(self._rules, self.players, seed=self._rng.randrange(2**31),
                           target=target)  # type: ignore[arg-type]
        self._start_hand()

    @guarded
    def set_rules(self, rules: str | RuleSet) -> None:
        """Start a new match under ``rules``: a preset's name, or a rule set with house rules
        (``crazylab.rules("crazy-eights", voluntary_draw=False)``, a RuleBuilder's)."""
        self._rules = get_rules(rules) if isinstance(rules, str) else rules
        self._ready = False
        try:
            self.preset = self._rules.name
        finally:
            self._ready = True
        self._clamp_opponents()
        self.new_match()

    @guarded
    def set_game(self, game: Game) -> None:
        """Play on from a given position (a worked example's, say): seat 0 is the human. The
        match starts again with this hand."""
        self._ready = False
        try:
            self._rules = game.rules
            self.preset = game.rules.name
            self.opponents = game.n - 1
        finally:
            self._ready = True
        match = Match(game.rules, game.n, seed=self._rng.randrange(2**31), dealer=game.dealer,
                      target=self.match.target)
        match.game, match.hands = game, [game]
        self.match = match
        self._start_hand()

    def hint(self, show: bool = True) -> dict[str, Any]:
        """Show (or hide) the hint: which cards are legal and why each other one is not."""
        self.show_hint = show
        return self.view.get("hint", {})

    # -- internals ----------------------------------------------------------------------------

    def _start_hand(self) -> None:
        self._hand_id += 1
        self._pending, self._pending_card = [], None
        dealer = self.game.dealer
        deals = "You deal" if self.names[dealer] == "You" else f"{self.names[dealer]} deals"
        self._news_from = 0
        self._intro = [f"A new hand of {variant_name(self._rules)}. {deals}."]
        self._say("", "info")
        self._after_move(from_bot=True)

    def _one_bot_move(self) -> None:
        g = self.game
        seat = g.to_play
        obs = g.observation(seat)
        try:
            move = self.bot_for(seat)(obs, self._rng)
            g.push(move, seat=seat)
        except IllegalMove as e:
            self.report_error(e, f"the {self.level} bot's move")
            g.push(random_bot(obs, self._rng), seat=seat)
        except Exception as e:
            self.report_error(e, f"the {self.level} bot")
            g.push(random_bot(obs, self._rng), seat=seat)

    def _after_move(self, from_bot: bool = False, run: bool = True) -> None:
        if run and self.bot_pending and self.delay <= 0:
            for _ in range(10_000):
                if not self.bot_pending:
                    break
                self._one_bot_move()
        if self.game.over:
            self.match.record()
            _keep_hand(self)
            self._say(self._result_text(), "result")
        else:  # a refusal is answered by the next move
            self._say("", "info")
        self._token += 1
        self._refresh()

    def _refuse(self, why: str) -> bool:
        self._say(why, "warn")
        self._refresh()
        return False

    def _say(self, text: str, kind: str) -> None:
        self._message, self._message_kind = text, kind

    def _wait_text(self) -> str:
        seat = self.game.to_play
        if seat == HUMAN:
            return "Wait: the table is still answering your last move."
        return f"Wait: it is {self.names[seat]}'s turn."

    def _chooser_step(self, moves: Sequence[Move] | None = None
                      ) -> tuple[str, Callable[[Move], Any], list[Any]] | None:
        """The chooser's next question for ``moves`` (the open chooser's by default)."""
        moves = self._pending if moves is None else moves
        if not moves:
            return None
        for name, key in DIMENSIONS:
            values: list[Any] = []
            for m in moves:
                if key(m) not in values:
                    values.append(key(m))
            if len(values) > 1:
                return name, key, values
        return None

    def _result_text(self) -> str:
        """How the hand ended, in one sentence or two (the end panel shows the working)."""
        g, voice = self.game, Voice(self.names, HUMAN)
        res = g.result
        assert res is not None
        if res.reason == "VOID":
            text = "The hand is void: everyone passed with the stock empty, so nobody scores."
        else:
            winners = list(res.winners)
            who = _join([voice.subj(s) for s in winners[:1]]
                        + [voice.obj(s) for s in winners[1:]]) or "Nobody"
            verb = "win" if len(winners) != 1 or voice.you(winners[0]) else "wins"
            if res.reason == "OUT":
                text = f"{who} went out and {verb} the hand."
            elif winners:
                who = _join([voice.obj(s) for s in winners])
                text = f"The hand is blocked: {who} {verb} it."
            else:
                text = "The hand is blocked: nobody wins it."
        points = [f"{voice.subj(s) if i == 0 else voice.obj(s)} "
                  f"{voice.verb(s, 'score', 'scores')} {_points(p)}"
                  for i, (s, p) in enumerate((s, p) for s, p in enumerate(res.scores) if p)]
        if points:
            text += " " + "; ".join(points) + "."
        m = self.match
        if m.over:
            leaders = list(m.winners)
            if len(leaders) == 1:
                w = leaders[0]
                text += (f" Match over: {voice.subj(w)} {voice.verb(w, 'win', 'wins')} with "
                         f"{_points(m.scores[w])}.")
            else:
                text += (f" Match over: {_join([voice.obj(s) for s in leaders])} share it "
                         f"with {_points(m.scores[leaders[0]])}.")
        return text

    def _sheet(self) -> str:
        """The rules sheet of the rules on the table, as HTML (made once per rule set)."""
        r = self._rules
        cached = self._sheet_cache
        if cached is None or cached[0] is not r:
            cached = (r, rules_sheet_html(r))
            self._sheet_cache = cached
        return cached[1]

    def _end_view(self) -> dict[str, Any]:
        """The end of a hand: every hand left, face up, how each was counted, what each
        player scores, and the match so far. Scored as the engine scores (the rule set's
        card values, or −1 a card under the musical rules); a result the working cannot
        explain (a variant's own scoring) shows its scores without the sums."""
        g, r, m = self.game, self._rules, self.match
        voice = Voice(self.names, HUMAN)
        res = g.result
        assert res is not None
        hands = [list(h) for h in g.hands]
        values = [[_card_value(r, c) for c in h] for h in hands]
        totals = [sum(v) for v in values]
        scores = list(res.scores)
        expected, how = _scoring_working(r, res.reason, list(res.winners), hands, totals,
                                         voice)
        explained = expected == scores
        rows = []
        for s, h in enumerate(hands):
            if r.scoring == "none" or not h:
                counted = "no cards left" if not h else cards_words(tuple(h))
            elif len(h) == 1:
                counted = f"{h[0].display} {_signed(values[s][0])}"
            else:
                counted = (" + ".join(f"{c.display} {_signed(v)}" for c, v in zip(h, values[s],
                                                                                  strict=True))
                           + f" = {_signed(totals[s])}")
            rows.append({"seat": s, "name": self.names[s], "cards": [str(c) for c in h],
                         "shown": [c.display for c in h], "counted": counted,
                         "points": totals[s], "score": scores[s],
                         "winner": s in res.winners})
        target = m.target
        if m.hands_to_play is not None:
            goal = (f"after {m.games_played} of {m.hands_to_play} hands; the highest total "
                    "wins")
        elif target:
            goal = f"first to {target} points"
        else:
            goal = "no target: the totals run on"
        standing = ", ".join(f"{self.names[s]} {_signed(m.scores[s])}"
                             for s in range(len(m.scores)))
        if m.over:
            leaders = list(m.winners)
            if len(leaders) == 1:
                w = leaders[0]
                match = (f"Match over: {voice.subj(w)} {voice.verb(w, 'win', 'wins')} with "
                         f"{_points(m.scores[w])} ({standing}).")
            else:
                match = (f"Match over: {_join([voice.obj(s) for s in leaders])} share it "
                         f"({standing}).")
        elif r.scoring == "none":
            match = f"Rounds played: {m.games_played}. This rule set keeps no score."
        else:
            match = f"Match so far ({goal}): {standing}."
        return {"headline": self._message if self._message_kind == "result"
                else self._result_text(),
                "hands": rows, "how": how if explained else "",
                "kept": r.scoring != "none", "match": match,
                "scores": list(m.scores), "target": target, "match_over": m.over}

    def _turn_text(self, obs: Observation) -> str:
        moves = obs.legal
        kinds = {m.kind for m in moves}
        if obs.phase == PHASE_PENALTY and PLAY not in kinds:
            return ("You are hit and cannot counter: "
                    + ("draw the penalty." if DRAW in kinds else "you lose the turn."))
        if obs.phase == PHASE_PENALTY and self._rules.action_cards:  # V12: a draw two passes on
            return "You are hit: pass it on with a draw card (click it) or take the penalty."
        if obs.phase in PHASE_HELP:
            return PHASE_HELP[obs.phase]
        if obs.phase != PHASE_PLAY:
            return (f"Your turn ({obs.phase}): choose a marked card or a button.")
        if PLAY in kinds:
            return "Your turn: play a marked card" + (" or draw." if DRAW in kinds else ".")
        if kinds == {DRAW}:
            return "Your turn: no card fits, so draw from the stock."
        if kinds == {PASS}:
            return "Your turn: nothing fits and you cannot draw, so pass."
        return "Your turn."

    @t.observe("preset", "opponents")
    def _on_settings(self, change: dict[str, Any]) -> None:
        if not self._ready:
            return
        self._apply_settings(change)

    @guarded
    def _apply_settings(self, change: dict[str, Any]) -> None:
        if change["name"] == "preset" and change["new"] != self._rules.name:
            self._rules = get_rules(change["new"])
        self._clamp_opponents()
        self.new_match()

    def _clamp_opponents(self) -> None:
        r = self._rules
        lo, hi = max(1, r.min_players - 1), min(3, r.max_players - 1)
        if not lo <= self.opponents <= hi:
            self._ready = False
            self.opponents = min(max(self.opponents, lo), hi)
            self._ready = True

    @t.observe("delay", "four_colour")
    def _on_display(self, change: dict[str, Any]) -> None:
        """With no delay left, pending bots move now; a deck set from Python is redrawn. (The
        browser toggles the hint and the four-colour deck itself, without the kernel.)"""
        if not self._ready:
            return
        if change["name"] == "delay":
            guarded(GameTable._after_move)(self, from_bot=True)
        else:
            guarded(GameTable._refresh)(self)

    def _refresh(self) -> None:
        self._open_forced_chooser()
        self._seq += 1
        self.view = self._build_view()
        if self._steps is not None:
            self._steps.append(self.view)
        elif self._live:
            self._send_steps([self.view])

    # -- what goes to the browser -------------------------------------------------------------

    def _send_steps(self, views: list[dict[str, Any]]) -> None:
        """One message: each view as the changes from the one before (the first from what the
        browser has), with the faces of cards it has not seen yet."""
        steps, before = [], self._sent
        for view in views:
            steps.append(self._patch(before, view))
            before = view
        self._sent = before
        self.send({"type": "steps", "steps": steps, "delay": max(0.0, float(self.delay))})

    def _patch(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
        """What changed from ``old`` to ``new``. A key that became ``None`` is listed under
        ``unset``, never sent as a null: Pyodide's kernel turns ``None`` into ``undefined``,
        which JSON drops, so the browser kept the old value (the static site's table froze
        after one move, still asking for a computer move that had been played)."""
        changes = {k: v for k, v in new.items()
                   if k != "log" and old.get(k) != v and v is not None}
        unset = sorted(k for k, v in new.items() if v is None and old.get(k) is not None)
        if unset:
            changes["unset"] = unset
        changes["seq"] = new["seq"]
        same_hand = old.get("hand_id") == new["hand_id"]
        added = new["log_total"] - old.get("log_total", 0)
        if same_hand and 0 <= added <= len(new["log"]):
            if added:
                changes["log_add"] = new["log"][len(new["log"]) - added:]
        else:
            changes["log"] = new["log"]
        faces = self._faces(new)
        if faces:
            changes["faces"] = faces
        return changes

    def _faces(self, view: dict[str, Any], everything: bool = False) -> dict[str, str]:
        """SVGs of the faces in ``view`` that the browser has not been sent (four-colour is a
        CSS recolouring, so one face per card)."""
        codes = [c["card"] for c in view["hand"]] + [p["top"] for p in view["piles"]]
        if view.get("end"):
            codes += [c for h in view["end"]["hands"] for c in h["cards"]]
        if everything:
            self._faces_sent.clear()
        out = {}
        if "back" not in self._faces_sent:
            out["back"] = card_svg(None, 64, face_down=True)
            self._faces_sent.add("back")
        for code in codes:
            if code not in self._faces_sent:
                out[code] = card_svg(Card.parse(code), 64)
                self._faces_sent.add(code)
        return out

    def _said(self) -> tuple[Narrator, list[Said]]:
        """Every event of this hand as seat 0 may see it, with its sentence."""
        narrator = Narrator(self._rules, self.names, HUMAN)
        result = self._result_text() if self.game.over else ""
        return narrator, narrator.sentences(self.game.observation(HUMAN).events, result)

    def _log_lines(self) -> list[str]:
        """The move log of this hand, one sentence per event, from seat 0's point of view."""
        return [s.text for s in self._said()[1] if s.text]

    # -- the view: what seat 0 may see ------------------------------------------------------

    def _build_view(self) -> dict[str, Any]:
        g = self.game
        obs = g.observation(HUMAN)
        r = obs.rules
        names = self.names
        four = self.four_colour
        mine = self.your_turn
        legal_by_card: dict[Card, list[Move]] = {}
        for m in obs.legal:
            if m.kind == PLAY:
                legal_by_card.setdefault(m.cards[0], []).append(m)
        hand = []
        hint_legal: list[dict[str, Any]] = []
        hint_other: list[dict[str, Any]] = []
        for c in obs.hand:
            moves = legal_by_card.get(c, [])
            if mine:
                why = for_people(legal_reason(g, c, tuple(moves)) if moves
                                 else g.explain(str(c)) or "Not playable now.", names)
            else:
                why = ""
            entry = {"card": str(c), "display": c.display, "label": c.name,
                     "suit": _suit(c),
                     "legal": bool(moves), "why": why,
                     "move": str(moves[0]) if len(moves) == 1 else None}
            hand.append(entry)
            if mine:
                (hint_legal if moves else hint_other).append(
                    {"card": c.display, "why": why,
                     "moves": [move_words(m) for m in moves][:6]
                     + (["…"] if len(moves) > 6 else [])})
        piles = []
        for p, pile in enumerate(obs.piles):
            top = pile[-1]
            piles.append({
                "index": p,
                "label": f"Pile {p + 1}" if r.piles > 1 else "Discard pile",
                "top": str(top), "display": top.display, "name": top.name,
                "suit": _suit(top),
                "count": len(pile),
                "in_force": call_in_force(r, obs, p),
                "called": obs.calls[p] is not None,
            })
        actions = [{"move": m.kind, "label": self._action_label(m.kind, obs),
                    "key": ACTION_KEYS[m.kind]}
                   for m in obs.legal if m.kind != PLAY]
        pending, hit = _pending_view(obs, names)
        opponents = [{"seat": s, "name": names[s], "count": obs.hand_sizes[s],
                      "to_play": (not obs.over and obs.to_play == s),
                      "dealer": s == g.dealer, "hit": hit.get(s, "")}
                     for s in range(1, obs.players)]
        # the status: what happened since the human last acted (kept until they act again),
        # then what to do now, or why a click was refused, or how the hand ended
        message = self._message or (self._turn_text(obs) if mine else
                                    (f"{names[obs.to_play]} is thinking…"
                                     if not obs.over else ""))
        kind = self._message_kind if self._message else "info"
        narrator, said = self._said()
        log = [s.text for s in said if s.text]
        match = self.match
        return {
            "seq": self._seq,
            "rules": r.name,
            "title": variant_name(r),
            "description": (f"Changed from the preset: {r.description}" if house_options(r)
                            and r.description == PRESETS[r.name].description
                            else r.description),
            "sheet": self._sheet(),
            "call_kind": r.call_kind,
            "players": obs.players,
            "names": names,
            "to_play": obs.to_play,
            "your_turn": mine,
            "phase": obs.phase,
            "over": obs.over,
            "hand": hand,
            "hand_size": len(obs.hand),
            "piles": piles,
            "stock": {"count": obs.stock_size, "can_draw": mine and any(
                x.kind == DRAW for x in obs.legal), "reshuffles": obs.reshuffles},
            "opponents": opponents,
            "four_colour": four,
            "actions": actions if mine else [],
            "chooser": self._chooser_view(),
            "choosers": {str(c): self._tree(ms, c) for c, ms in legal_by_card.items()
                         if len(ms) > 1} if mine else {},
            "forced": self._forced_tree() if mine else None,
            "pending": pending,
            "news": self._intro + news(said[self._news_from:], narrator),
            "message": message,
            "message_kind": kind,
            "end": self._end_view() if obs.over else None,
            "log": log[-MAX_LOG:],
            "log_total": len(log),
            "hand_id": self._hand_id,
            "hint": {"legal": hint_legal, "other": hint_other} if mine else {},
            "scores": {
                "kept": r.scoring != "none",
                "hand": list(obs.scores) if obs.over else None,
                "match": list(match.scores),
                "target": match.target,
                "hands_played": sum(1 for h in match.hands if h.over),
                "match_over": match.over,
                "dealer": g.dealer,
            },
            "bot": ({"token": self._token, "seat": obs.to_play}
                    if self.bot_pending and self.delay > 0 else None),
            "settings": {
                "presets": [{"name": n, "description": p.description,
                             "label": variant_name(p)}
                            for n, p in _presets_with(self._rules).items()],
                "opponents": list(range(max(1, r.min_players - 1), min(3, r.max_players - 1) + 1)),
                "levels": list(bot_levels()) + (["custom"] if self._custom_bot else []),
            },
        }

    def _action_label(self, kind: str, obs: Observation) -> str:
        r = obs.rules
        if (obs.phase, kind) in PHASE_LABELS:
            return PHASE_LABELS[obs.phase, kind]
        if kind == DRAW and r.draw_rule == "fixed" and obs.phase in (PHASE_PLAY, PHASE_CHAIN):
            return f"Draw {r.draw_limit}"
        if kind == END and obs.phase not in (PHASE_PLAY, PHASE_CHAIN):
            return "Decline (end)"
        return ACTION_LABELS[kind]

    def _open_forced_chooser(self) -> None:
        """Plays of a card the human does not hold (a wild turned up by an effect that the
        human must call) open the chooser by themselves."""
        if self._pending or not self.your_turn:
            return
        hand = set(self.game.hands[HUMAN])
        loose = [m for m in self.game.legal_moves() if m.kind == PLAY and m.cards[0] not in hand]
        if loose:
            self._pending, self._pending_card = loose, loose[0].cards[0]

    def _tree(self, moves: Sequence[Move], c: Card) -> dict[str, Any] | None:
        """The chooser for a card with several moves, as a tree the browser walks itself:
        each option holds the move it makes, or the next question."""
        node = self._chooser_view(moves, c)
        if node is None:
            return None
        step = self._chooser_step(moves)
        assert step is not None
        _name, key, values = step
        for opt, value in zip(node["options"], values, strict=True):
            sub = [m for m in moves if key(m) == value]
            opt["move"] = str(sub[0]) if len(sub) == 1 else None
            opt["next"] = self._tree(sub, c) if len(sub) > 1 else None
        return node

    def _forced_tree(self) -> dict[str, Any] | None:
        """The chooser that opens by itself: a wild card turned up for the human to call."""
        hand = set(self.game.hands[HUMAN])
        loose = [m for m in self.game.legal_moves() if m.kind == PLAY and m.cards[0] not in hand]
        return self._tree(loose, loose[0].cards[0]) if loose else None

    def _chooser_view(self, moves: Sequence[Move] | None = None,
                      card: Card | None = None) -> dict[str, Any] | None:
        step = self._chooser_step(moves)
        c = self._pending_card if card is None else card
        if step is None or c is None:
            return None
        name, _key, values = step
        r, g = self._rules, self.game
        options = []
        for i, v in enumerate(values):
            if name == "stack":
                label, aria = " + ".join(x.display for x in v), "play " + ", then ".join(
                    x.name for x in v)
                if len(v) > 1:  # the last card played ends on top and sets what follows
                    label += f" ({v[-1].display} on top)"
                    aria += f"; {v[-1].name} ends on top"
            elif name == "last":
                label = "Play it and say “Last card!”" if v else "Play it without a word"
                aria = "play and call last card" if v else "play without calling last card"
            elif name == "pile":
                top = g.piles[v][-1]
                label, aria = (f"Pile {v + 1} ({top.display})",
                               f"pile {v + 1}, top card {top.name}")
            else:
                label = call_label(r, v)
                aria = f"call {label.split(' ', 1)[-1] if r.call_kind == 'suit' else v}"
            options.append({"index": i, "label": label, "aria": aria, "value": str(v)})
        what = {"suit": "suit", "letter": "letter", "pitch": "pitch"}[r.call_kind]
        title = {
            "stack": (f"Play {c.display} alone or stack more {c.display[:-1] or c.display}s? "
                      "The last card you stack ends on top."),
            "pile": f"On which pile do you play {c.display}?",
            "call": f"{c.display} is wild: call a {what}.",
            "last": (f"{c.display} leaves you one card. Say “Last card!”? (Forget it and you "
                     f"draw {r.last_card_penalty}.)"),
        }[name]
        forced = c not in self.game.hands[HUMAN]
        return {"card": str(c), "display": c.display, "kind": name, "title": title,
                "options": options, "forced": forced}


def _pending_view(obs: Observation, names: list[str]) -> tuple[list[dict[str, Any]],
                                                                   dict[int, str]]:
    """The open cycle of hits (Crazy Breens) as banner lines, in the order they resolve, and a
    short badge per victim. Built from public state only (who is hit, by whom, how many cards
    are left), plus the human's own counters when the human is the one resolving."""
    extra = dict(obs.extra)
    hits: tuple[tuple[int, int, int], ...] = extra.get("pending", ())  # type: ignore[assignment]
    if not hits or obs.over:
        return [], {}
    actor: int | None
    source: str
    actor, source = extra.get("hit_by", (None, ""))  # type: ignore[misc]
    total = sum(h for _s, _l, h in hits)
    word = SOURCE_WORDS.get(source, source) + ("s" if total > 1 else "")
    by = ("your" if actor == HUMAN else f"{names[actor]}'s") if actor is not None else "a"
    lines, badges = [], {}
    for seat, left, count in hits:
        now = obs.phase == PHASE_PENALTY and obs.to_play == seat
        you = seat == HUMAN
        times = "" if count == 1 else f" {count} times"
        more = " more" if now and obs.turn_draws else ""
        who = "You are" if you else f"{names[seat]} is"
        if left:
            text = (f"{who} hit{times} by {by} {word}: {'you must ' if you else ''}draw "
                    f"{left}{more} card{'s' if left != 1 else ''} and lose "
                    f"{'your' if you else 'the'} turn")
        else:
            text = f"{who} skipped{times} by {by} {word}: {'your' if you else 'the'} turn is lost"
        if you and now:
            jacks = sorted({m.cards[0] for m in obs.legal if m.kind == PLAY})
            if jacks and obs.turn_draws:
                text += f", or counter now with the {jacks[0].display} you just drew"
            elif jacks:
                text += (" — or counter with a Jack: click "
                         + " or ".join(c.display for c in jacks))
            elif not obs.turn_draws:
                text += (" (a Jack cannot counter a joker in these rules)"
                         if source == "joker" and not obs.rules.jack_counters_joker
                         else " (no Jack in your hand to counter with)")
        elif not (now and obs.turn_draws) and (source != "joker"
                                               or obs.rules.jack_counters_joker):
            text += ", unless you counter with a Jack" if you else ", unless countered with a Jack"
        lead = "" if len(hits) == 1 else "Now: " if now else "Then: "
        lines.append({"seat": seat, "now": now, "you": you, "text": lead + text + "."})
        badges[seat] = f"hit: draw {left}" if left else "hit: skipped"
    return lines, badges


def link_seed(text: str, secret: str | None = None) -> int | str:
    """The seed a page's ``?seed=`` stands for on this server: the link's seed mixed with the
    server's secret (``CRAZYLAB_SECRET``), so one link deals the same cards to a whole class
    but nobody can compute the hands from it. Without a secret (outside the published app)
    the seed is used as it is; text that is no number is passed on for the constructor to
    refuse."""
    try:
        seed = int(text)
    except ValueError:
        return text
    secret = os.environ.get(SECRET_ENV, "") if secret is None else secret
    if not secret:
        return seed
    digest = hashlib.blake2b(f"{seed}".encode(), key=secret.encode()[:64], digest_size=8)
    return int.from_bytes(digest.digest(), "big") % 2**31


def _suit(c: Card) -> str:
    """``C``/``D``/``H``/``S``, or ``""`` for a joker (the browser recolours by suit)."""
    return "" if c.suit is None else SUITS[c.suit]


def _number(conv: Callable[[str], Any], text: str) -> Any:
    """A number from the address; a bad one is kept as text so the constructor refuses it."""
    try:
        return conv(text)
    except ValueError:
        return text


def _join(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _points(n: int) -> str:
    return f"{_signed(n)} point{'s' if abs(n) != 1 else ''}"


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else f"{n}"


def _card_value(r: RuleSet, c: Card) -> int:
    """What a card left in a hand counts under ``r``: −1 each under the musical rules, else
    its value from the rule set's table (C-16, with the house card values)."""
    if r.scoring == "minus_one_per_card":
        return -1
    return int(r.points[c])


def _scoring_working(r: RuleSet, reason: str, winners: list[int], hands: list[list[Card]],
                     totals: list[int], voice: Voice) -> tuple[list[int], str]:
    """The scores the rules give this end of a hand, worked from the hands left, and how, in
    words: ``You collect 60 + 12 = 72.`` (The table shows the working only when it gives
    the engine's scores.)"""
    n = len(hands)
    zero = [0] * n
    if reason == "VOID":
        return zero, "A void hand scores nothing."
    if r.scoring == "none":
        return zero, "These rules keep no score: going out is the win."
    if r.scoring == "minus_one_per_card" and not (reason == "BLOCKED"
                                                  and r.blocked_rule == "lowest_points_wins"):
        return ([-len(h) for h in hands],
                "Every card left in a hand counts −1; a player with no cards left scores 0.")
    if len(winners) != 1:
        return zero, "A shared win scores nothing."
    w = winners[0]
    others = [s for s in range(n) if s != w]
    scores = list(zero)
    collects = voice.verb(w, "collect", "collects")
    if reason == "BLOCKED" and r.blocked_rule == "lowest_points_wins":
        pts = [sum(r.points[c] for c in h) for h in hands]
        how = r.blocked_scoring
        if how == "difference":
            scores[w] = sum(pts[s] - pts[w] for s in others)
            parts = " + ".join(f"({pts[s]} − {pts[w]})" for s in others)
            return scores, (f"{voice.subj(w)} {voice.verb(w, 'hold', 'holds')} the fewest "
                            f"points and {collects} the difference to each other hand: "
                            f"{parts} = {scores[w]}.")
        if how == "opponents_total":
            scores[w] = sum(pts[s] for s in others)
            return scores, (f"{voice.subj(w)} {voice.verb(w, 'hold', 'holds')} the fewest "
                            f"points and {collects} the others' points: "
                            f"{' + '.join(str(pts[s]) for s in others)} = {scores[w]}.")
        return scores, "The fewest points win the blocked hand, for no score."
    scores[w] = sum(totals[s] for s in others)
    parts = " + ".join(str(totals[s]) for s in others)
    sum_text = f"{parts} = {scores[w]}" if len(others) > 1 else f"{scores[w]}"
    return scores, (f"{voice.subj(w)} {collects} the points left in the other "
                    f"hand{'s' if len(others) > 1 else ''}: {sum_text}.")


def _default_level(levels: dict[str, Bot]) -> str:
    names = [n for n in levels if n != "random"]
    return names[0] if names else "random"


def _presets_with(r: RuleSet) -> dict[str, RuleSet]:
    presets = dict(PRESETS)
    if PRESETS.get(r.name) != r:
        presets[r.name] = r
    return presets


def _keep_hand(table: GameTable) -> None:
    """A finished hand goes to the kernel's recorder once (its rules, who sat where, the
    moves, the result); a table works the same when it cannot be kept."""
    game = table.game
    if getattr(table, "_kept_hand", None) is game:
        return
    table._kept_hand = game
    try:
        from .progress import recorder

        res = game.result
        recorder().hand(
            rules=table.rules.name,
            seats=["human"] + [f"bot:{table.level}"] * (game.n - 1),
            moves=[str(m) for m in game.moves],
            result={"reason": res.reason if res else "", "variant": variant_name(table.rules),
                    "winners": list(res.winners) if res else [],
                    "scores": list(res.scores) if res else []})
    except Exception:  # noqa: BLE001 - never into the table's callback
        import logging
        logging.getLogger("crazylab.widgets").exception("keeping a finished hand failed")


__all__ = ["GameTable", "HUMAN", "link_seed"]

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

The seat's half of the table (what seat 0 may see, its chooser, status and news, the
patches to the browser) is :mod:`crazylab.seat.view`'s :class:`SeatView` and
:class:`ViewStream`, shared with the server of a class's shared tables; this widget is their
host: the match, the computer opponents, the anywidget traits and messages.

A page's ``?seed=`` is mixed with the server's secret (``CRAZYLAB_SECRET``) so a class link
deals the same cards for everyone on that server but does not reveal them; ``seed=`` given to
the constructor is used as it is.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import traitlets as t

from crazylab.engine.cards import Card
from crazylab.engine.game import Game, IllegalMove
from crazylab.engine.moves import DRAW, Move
from crazylab.engine.observe import Observation
from crazylab.engine.phases import PHASE_CHAIN, PHASE_PLAY
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.match import Match
from crazylab.seat import RENDERER
from crazylab.seat.view import Refused, SeatView, ViewStream
from crazylab.sheet import variant_name

from ._common import (
    ErrorReporting,
    build_or_default,
    guarded,
    query_params,
)
from ._validate import table_args as _table_args
from .players import Bot, bot_levels, random_bot, resolve_bot

HUMAN = 0
MAX_LOG = 80
SECRET_ENV = "CRAZYLAB_SECRET"
FOUR_COLOURS = {"C": "#1a7f37", "D": "#1f5fbf"}  # the browser recolours these suits



class GameTable(ErrorReporting, anywidget.AnyWidget):
    """A card table for one human (seat 0) against computer opponents.

    >>> table = GameTable("crazy-eights-classic", opponents=2, seed=1, delay=0)
    >>> table.click_card("8S")   # a legal eight opens the suit chooser  # doctest: +SKIP
    >>> table.choose_call("D")                                          # doctest: +SKIP
    """

    _esm = RENDERER / "table.js"  # the seat view's renderer, shared with the tables' pages
    _css = RENDERER / "table.css"

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
        # seat 0's view of the match (chooser, status, news) and what the browser was sent
        self._seat = SeatView(self._rules, HUMAN, ["You"] * (opponents + 1), say_you=False)
        self._stream = ViewStream()
        self._token = 0
        self._seq = 0
        self._steps: list[dict[str, Any]] | None = None  # views collected for one message
        self._live = False  # the snapshot is taken: later changes go out as messages
        self.match: Match
        self.on_msg(self._on_message)
        self._clamp_opponents()
        self._ready = True
        self.new_match()
        self.snapshot = self._stream.snapshot(self.view)
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
        return self._seat.message

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
                self._stream.reset()
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
            move = self._seat.click(self.match, card)
        except Refused:
            self._refresh()
            return False
        if move is not None:
            return self.play(move)
        self._refresh()
        return True

    @guarded
    def choose(self, index: int) -> bool:
        """Pick option ``index`` of the open chooser (a stack, a pile or a call)."""
        try:
            move = self._seat.choose(self.match, index)
        except Refused:
            self._refresh()
            return False
        if move is not None:
            return self.play(move)
        self._refresh()
        return True

    def choose_call(self, call: str) -> bool:
        """Pick a call by its text (``D``, ``♦``, ``C#``…) in an open call chooser."""
        step = self._seat.chooser_step()
        if step is None or step[0] != "call":
            return self._refuse("No call is being chosen right now.")
        canonical = self.game.canonical_call(call)
        return self.choose(step[2].index(canonical))

    def choose_pile(self, pile: int) -> bool:
        step = self._seat.chooser_step()
        if step is None or step[0] != "pile":
            return self._refuse("No pile is being chosen right now.")
        return self.choose(step[2].index(pile))

    @guarded
    def cancel(self) -> None:
        """Close the chooser (a forced one, for a card not in the hand, opens again)."""
        self._seat.cancel()
        self._refresh()

    @guarded
    def play(self, move: str | Move) -> bool:
        """The human makes ``move`` (``"6C"``, ``"8S:D"``, ``"draw"``…). An illegal move
        changes nothing; the table says why."""
        try:
            m = self._seat.check(self.match, move)
        except Refused:
            self._refresh()
            return False
        penalty = self.game.phase not in (PHASE_PLAY, PHASE_CHAIN)  # a variant's: a hit
        self.game.push(m, seat=HUMAN)
        if penalty and self.game.moves[-1].kind == DRAW:
            self._draw_whole_penalty()
        self._after_move()
        return True

    def _draw_whole_penalty(self) -> None:
        """One press takes the whole penalty: drawing goes on while drawing is all the human
        may do, and stops when a card drawn lets them counter now (BR-26)."""
        g = self.game
        while not g.over and g.phase not in (PHASE_PLAY, PHASE_CHAIN) and g.to_play == HUMAN:
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
        self.match = Match(game.rules, game.n, seed=self._rng.randrange(2**31),
                           dealer=game.dealer, target=self.match.target, first=game)
        self._start_hand()

    def hint(self, show: bool = True) -> dict[str, Any]:
        """Show (or hide) the hint: which cards are legal and why each other one is not
        (the view's hint points at the hand's entries; here each carries its ``why``)."""
        self.show_hint = show
        hint, hand = self.view.get("hint", {}), self.view["hand"]
        return {k: [{**h, "why": hand[h["hand"]]["why"]} for h in hint[k]] for k in hint}

    # -- internals ----------------------------------------------------------------------------

    def _start_hand(self) -> None:
        self._sync_seat()
        self._seat.new_hand(self.match)
        self._after_move(from_bot=True)

    def _sync_seat(self) -> None:
        """Seat 0's view follows the table's rules and names (settings change them)."""
        self._seat.rules, self._seat.names = self._rules, self.names

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
        self._seat.moved(self.match)  # the result said, or a refusal answered by the move
        self._token += 1
        self._refresh()

    def _refuse(self, why: str) -> bool:
        self._seat.say(why, "warn")
        self._refresh()
        return False

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
        self._seq += 1
        self.view = self._view_now()
        if self._steps is not None:
            self._steps.append(self.view)
        elif self._live:
            self._send_steps([self.view])

    def _view_now(self) -> dict[str, Any]:
        """Seat 0's view of the match now (built by :class:`SeatView`), with this table's
        computer-move token and settings bar."""
        self._sync_seat()
        r = self._rules
        return self._seat.view(
            self.match, seq=self._seq, delay=self.delay, four_colour=self.four_colour,
            bot=({"token": self._token, "seat": self.game.to_play}
                 if self.bot_pending and self.delay > 0 else None),
            settings={
                "presets": [{"name": n, "description": p.description,
                             "label": variant_name(p)}
                            for n, p in _presets_with(r).items()],
                "opponents": list(range(max(1, r.min_players - 1),
                                        min(3, r.max_players - 1) + 1)),
                "levels": list(bot_levels()) + (["custom"] if self._custom_bot else []),
            })

    def _send_steps(self, views: list[dict[str, Any]]) -> None:
        """One message: each view as the changes from the one before (the first from what the
        browser has), with the faces of cards it has not seen yet."""
        self.send(self._stream.steps(views, self.delay))


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


def _number(conv: Callable[[str], Any], text: str) -> Any:
    """A number from the address; a bad one is kept as text so the constructor refuses it."""
    try:
        return conv(text)
    except ValueError:
        return text


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
        from crazylab.classroom.recorder import recorder

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

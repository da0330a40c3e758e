"""One seat's view of a match, and what one browser has been sent of it: the plain half of the
game table, without ipywidgets, so that a notebook's :class:`~crazylab.widgets.GameTable` and a
server holding a shared table (one learner per seat) build the same views.

:class:`SeatView` holds what belongs to one seat and to nobody else: its open chooser (a card
with several moves), its status message, the news since it last moved, the hand's sentences
as that seat reads them. :meth:`SeatView.view` builds the dict the browser draws (``table.js``)
from ``game.observation(seat)`` plus the engine's explanations of that seat's own cards: never
another seat's cards, until the hand is over (the end panel shows every hand left). The host
(the widget, or a server) owns the match and plays the moves: :meth:`SeatView.click`,
:meth:`~SeatView.choose` and :meth:`~SeatView.check` answer with the :class:`Move` to play, or
raise :class:`Refused` whose text is the one-line "why"; after any seat's move the host calls
:meth:`~SeatView.moved` on every seat's view.

:class:`ViewStream` is the protocol for one browser: a ``snapshot`` (a view and its card faces),
then ``steps`` messages holding only what changed from the view that browser has (each card
face's SVG sent once).

The move log is narrated incrementally: the sentences of a hand's earlier events are kept and
only new events are said (the narrator carries what a sentence needs from earlier ones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from crazylab.engine.cards import SUITS, Card, CardError
from crazylab.engine.events import ENDED, PLAYED, Event
from crazylab.engine.game import Game
from crazylab.engine.moves import DRAW, END, PASS, PLAY, Move
from crazylab.engine.narrator import Narrator, Said, Voice, cards_words, words_for
from crazylab.engine.narrator import join as _join
from crazylab.engine.narrator import points as _points
from crazylab.engine.observe import Observation
from crazylab.engine.phases import PHASE_CHAIN, PHASE_DECLARE, PHASE_PLAY
from crazylab.engine.reasons import card_moves, legal_reason
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.errors import CrazylabError
from crazylab.match import Match
from crazylab.render import card_svg
from crazylab.sheet import house_options, rules_sheet_html, variant_name

from .words import call_in_force, call_label, for_people, move_words

MAX_LOG = 80
ACTION_LABELS = {DRAW: "Draw", PASS: "Pass", END: "End turn"}
ACTION_KEYS = {DRAW: "d", PASS: "p", END: "e"}
#: what the seat to play is asked in the core's own phases (a variant's: its words' prompts)
PHASE_HELP = {
    PHASE_CHAIN: "Play another card that fits, or end your turn.",
    PHASE_DECLARE: "A wild card was turned up for you: call the suit that counts now.",
}
#: the chooser's questions, in the order they are asked
DIMENSIONS: tuple[tuple[str, Callable[[Move], Any]], ...] = (
    ("stack", lambda m: m.cards),
    ("pile", lambda m: m.pile),
    ("call", lambda m: m.call),
    ("last", lambda m: m.last),  # A14: the "Last card!" call, asked last
)


class Refused(CrazylabError):
    """A click or a move that is not a move of this seat now; ``str(e)`` is the one-line why."""


@dataclass
class _Narration:
    """The sentences of one hand as one seat reads them, kept between views."""

    game: Game
    names: tuple[str, ...]
    narrator: Narrator
    said: list[Said] = field(default_factory=list)
    texts: list[str | None] = field(default_factory=list)  # said[i].text, or None if silent


class SeatView:
    """What seat ``seat`` sees of a match, and its own state at the table (the open chooser,
    the status message, the news since it last moved).

    ``names[seat]`` is this learner's own name; with ``say_you`` (the default) the sentences
    say "you" to this seat ("You played 8♠."), while ``view["names"]`` keeps the names.
    """

    def __init__(self, rules: RuleSet, seat: int, names: Sequence[str], *,
                 say_you: bool = True) -> None:
        if not 0 <= seat < len(names):
            raise CrazylabError(f"seat {seat} is not one of the {len(names)} seats")
        self.rules = rules
        self.seat = seat
        self.names = list(names)
        self.say_you = say_you
        self.hand_id = 0
        self.message, self.message_kind = "", "info"
        self.pending: list[Move] = []  # the open chooser's moves
        self.pending_card: Card | None = None
        self._news_from = 0  # the events since this seat last acted: the status reads them
        self._intro: list[str] = []  # said before them (a new hand, who deals)
        self._mark: tuple[Game | None, int, int] = (None, 0, -1)  # game, events, to_play
        self._narration: _Narration | None = None
        self._sheet_cache: tuple[RuleSet, str] | None = None

    # -- the seat's words ---------------------------------------------------------------------

    @property
    def voice_names(self) -> list[str]:
        """The names as the sentences use them: this seat is ``You`` when ``say_you``."""
        names = list(self.names)
        if self.say_you:
            names[self.seat] = "You"
        return names

    def say(self, text: str, kind: str) -> None:
        """The status message (``info``, ``warn``, ``result``); empty: what to do now."""
        self.message, self.message_kind = text, kind

    def your_turn(self, match: Match) -> bool:
        g = match.game
        return not g.over and g.to_play == self.seat

    # -- actions: the host plays what these return --------------------------------------------

    def click(self, match: Match, card: str | Card) -> Move | None:
        """A click on a card of this seat's hand: the move if only one starts with it; several
        open the chooser (None); else :class:`Refused` with why (also the status message)."""
        g = match.game
        try:
            c = Card.parse(card)
        except CardError as e:
            self._refuse(str(e))
        self.pending, self.pending_card = [], None
        if c not in g.hands[self.seat]:
            self._refuse(f"You do not hold {c.display}.")
        self._can_move(match)
        moves = list(card_moves(g, c))
        if not moves:
            self._refuse(for_people(g.explain(str(c)), self.voice_names)
                         or f"{c.display} cannot be played now.")
        if len(moves) == 1:
            return moves[0]
        self.pending, self.pending_card = moves, c
        self.say("", "info")
        return None

    def choose(self, match: Match, index: int) -> Move | None:
        """Pick option ``index`` of the open chooser: the move once one is left, else None
        (the chooser asks its next question)."""
        step = self.chooser_step()
        if step is None:
            self._refuse("There is nothing to choose right now.")
        _name, key, values = step
        if not 0 <= index < len(values):
            self._refuse(f"There is no option {index + 1}.")
        chosen = values[index]
        self.pending = [m for m in self.pending if key(m) == chosen]
        if len(self.pending) == 1:
            move = self.pending[0]
            self.pending, self.pending_card = [], None
            return move
        return None

    def cancel(self) -> None:
        """Close the chooser (a forced one, for a card not in the hand, opens again)."""
        self.pending, self.pending_card = [], None
        self.say("", "info")

    def check(self, match: Match, move: str | Move) -> Move:
        """``move`` (``"6C"``, ``"8S:D"``, ``"draw"``…) as a legal move of this seat now, or
        :class:`Refused` saying why (the match is not changed)."""
        self.pending, self.pending_card = [], None
        self._can_move(match)
        g = match.game
        try:
            m = g.canonical(move)
        except CrazylabError as e:  # no move at all, a card or a call that does not exist
            self._refuse(for_people(str(e), self.voice_names))
        applied = g.accepted(m)
        if applied is None:
            self._refuse(for_people(g.explain(m), self.voice_names))
        return applied

    def moved(self, match: Match) -> None:
        """After any seat's move (the match recorded if the hand ended): the chooser closes;
        the news start again from this seat's move when it was this seat that moved."""
        g = match.game
        game, seen, to_play = self._mark
        if game is g and to_play == self.seat and len(g.events) > seen:
            self._news_from, self._intro = seen, []
        self.pending, self.pending_card = [], None
        if g.over:
            self.say(self.result_text(match), "result")
        else:  # a refusal is answered by the next move
            self.say("", "info")
        self._remember(g)

    def new_hand(self, match: Match) -> None:
        """A hand was dealt (or a new match started): the status starts from the deal."""
        g = match.game
        self.rules = g.rules
        self.hand_id += 1
        self.pending, self.pending_card = [], None
        dealer = g.dealer
        names = self.voice_names
        deals = "You deal" if names[dealer] == "You" else f"{names[dealer]} deals"
        self._news_from = 0
        self._intro = [f"A new hand of {variant_name(g.rules)}. {deals}."]
        self._narration = None
        self.say("", "info")
        self._remember(g)

    def _remember(self, g: Game) -> None:
        self._mark = (g, len(g.events), -1 if g.over else g.to_play)

    def _refuse(self, why: str) -> NoReturn:
        self.say(why, "warn")
        raise Refused(why)

    def _can_move(self, match: Match) -> None:
        g = match.game
        if g.over:
            self._refuse("The hand is over: press New hand to deal again.")
        if g.to_play != self.seat:
            self._refuse(self.wait_text(match))

    def wait_text(self, match: Match) -> str:
        seat = match.game.to_play
        if seat == self.seat:
            return "Wait: the table is still answering your last move."
        return f"Wait: it is {self.voice_names[seat]}'s turn."

    # -- the chooser --------------------------------------------------------------------------

    def chooser_step(self, moves: Sequence[Move] | None = None
                     ) -> tuple[str, Callable[[Move], Any], list[Any]] | None:
        """The chooser's next question for ``moves`` (the open chooser's by default)."""
        return chooser_step(self.pending if moves is None else moves)

    def _loose(self, g: Game) -> list[Move]:
        """Plays of a card this seat does not hold (a wild turned up for it to call)."""
        hand = set(g.hands[self.seat])
        return [m for m in g.legal_moves() if m.kind == PLAY and m.cards[0] not in hand]

    def _tree(self, g: Game, moves: Sequence[Move], c: Card) -> dict[str, Any] | None:
        """The chooser for a card with several moves, as a tree the browser walks itself:
        each option holds the move it makes, or the next question."""
        node = self._chooser_view(g, moves, c)
        if node is None:
            return None
        step = self.chooser_step(moves)
        assert step is not None
        _name, key, values = step
        for opt, value in zip(node["options"], values, strict=True):
            sub = [m for m in moves if key(m) == value]
            opt["move"] = str(sub[0]) if len(sub) == 1 else None
            opt["next"] = self._tree(g, sub, c) if len(sub) > 1 else None
        return node

    def _chooser_view(self, g: Game, moves: Sequence[Move] | None = None,
                      card: Card | None = None) -> dict[str, Any] | None:
        step = self.chooser_step(moves)
        c = self.pending_card if card is None else card
        if step is None or c is None:
            return None
        name, _key, values = step
        r = g.rules
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
        forced = c not in g.hands[self.seat]
        return {"card": str(c), "display": c.display, "kind": name, "title": title,
                "options": options, "forced": forced}

    # -- words for the whole table ------------------------------------------------------------

    def result_text(self, match: Match) -> str:
        """How the hand ended, in one sentence or two (the end panel shows the working)."""
        g = match.game
        narrator = Narrator(g.rules, self.voice_names, self.seat)
        voice = narrator.voice
        text = narrator.result(g.result)
        m = match
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

    def sheet(self, r: RuleSet) -> str:
        """The rules sheet of ``r``, as HTML (made once per rule set)."""
        cached = self._sheet_cache
        if cached is None or cached[0] is not r:
            cached = (r, rules_sheet_html(r))
            self._sheet_cache = cached
        return cached[1]

    def _end_view(self, match: Match) -> dict[str, Any]:
        """The end of a hand: every hand left, face up, how each was counted, what each
        player scores, and the match so far. Scored as the engine scores (the rule set's
        card values, or −1 a card under the musical rules); a result the working cannot
        explain (a variant's own scoring) shows its scores without the sums."""
        g, m = match.game, match
        r = g.rules
        voice = Voice(self.voice_names, self.seat)
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
                said = (f"Match over: {voice.subj(w)} {voice.verb(w, 'win', 'wins')} with "
                        f"{_points(m.scores[w])} ({standing}).")
            else:
                said = (f"Match over: {_join([voice.obj(s) for s in leaders])} share it "
                        f"({standing}).")
        elif r.scoring == "none":
            said = f"Rounds played: {m.games_played}. This rule set keeps no score."
        else:
            said = f"Match so far ({goal}): {standing}."
        return {"headline": self.message if self.message_kind == "result"
                else self.result_text(match),
                "hands": rows, "how": how if explained else "",
                "kept": r.scoring != "none", "match": said,
                "scores": list(m.scores), "target": target, "match_over": m.over}

    def _turn_text(self, obs: Observation) -> str:
        moves = obs.legal
        kinds = {m.kind for m in moves}
        prompt = words_for(obs.rules).prompt(obs.phase, kinds) or PHASE_HELP.get(obs.phase)
        if prompt:
            return prompt
        if obs.phase != PHASE_PLAY:
            return (f"Your turn ({obs.phase}): choose a marked card or a button.")
        if PLAY in kinds:
            return "Your turn: play a marked card" + (" or draw." if DRAW in kinds else ".")
        if kinds == {DRAW}:
            return "Your turn: no card fits, so draw from the stock."
        if kinds == {PASS}:
            return "Your turn: nothing fits and you cannot draw, so pass."
        return "Your turn."

    def _action_label(self, kind: str, obs: Observation) -> str:
        r = obs.rules
        label = words_for(r).labels.get((obs.phase, kind))
        if label:
            return label
        if kind == DRAW and r.draw_rule == "fixed" and obs.phase in (PHASE_PLAY, PHASE_CHAIN):
            return f"Draw {r.draw_limit}"
        if kind == END and obs.phase not in (PHASE_PLAY, PHASE_CHAIN):
            return "Decline (end)"
        return ACTION_LABELS[kind]

    # -- the log, narrated as it grows --------------------------------------------------------

    def said(self, match: Match, events: Sequence[Event] | None = None
             ) -> tuple[Narrator, list[Said]]:
        """Every event of this hand as this seat may see it, with its sentence: the events
        already said are kept, only new ones are narrated (the end is said afresh, as the
        match's result can change when it is recorded)."""
        g = match.game
        names = tuple(self.voice_names)
        if events is None:
            events = g.observation(self.seat).events
        n = self._narration
        if n is None or n.game is not g or n.names != names or len(events) < len(n.said):
            n = self._narration = _Narration(g, names, Narrator(g.rules, names, self.seat))
        result = self.result_text(match) if g.over else ""
        said, texts = n.said, n.texts
        for i in range(len(said), len(events)):
            e = events[i]
            s = n.narrator.say(e, result)
            said.append(s)
            texts.append(s.text or None)
            # a play told by the event logged next to it (a drop, a counter, a jump-in) is
            # said once, by that event
            for j in (i - 1, i):
                if j >= 0 and events[j].kind == PLAYED and texts[j] is not None \
                        and n.narrator.retold(events, j):
                    said[j] = Said(events[j], "")
                    texts[j] = None
        if said and said[-1].event.kind == ENDED and result:
            said[-1] = Said(said[-1].event, result)
            texts[-1] = result
        return n.narrator, said

    def _log(self) -> tuple[list[str], int]:
        """The last :data:`MAX_LOG` sentences of the log (after :meth:`said`), and how many."""
        n = self._narration
        assert n is not None
        out: list[str] = []
        total = 0
        for text in n.texts:
            if text is not None:
                total += 1
        for text in reversed(n.texts):
            if len(out) == MAX_LOG:
                break
            if text is not None:
                out.append(text)
        out.reverse()
        return out, total

    # -- the view -----------------------------------------------------------------------------

    def view(self, match: Match, *, seq: int, bot: dict[str, Any] | None = None,
             delay: float = 0.7, four_colour: bool = False, shared: bool = False,
             settings: dict[str, Any] | None = None,
             can_deal: bool | None = None) -> dict[str, Any]:
        """What this seat's browser draws now (``table.js``): its own hand, the public table,
        the hint and the chooser for its own cards, the news since it moved, the log as it
        may read it. ``can_deal`` (default: not ``shared``) shows New hand/New match."""
        del delay  # the host passes it on in its steps
        g = match.game
        seat = self.seat
        obs = g.observation(seat)
        r = obs.rules
        names = self.voice_names
        mine = not obs.over and obs.to_play == seat
        loose = self._loose(g) if mine else []
        if loose and not self.pending:  # a wild turned up for this seat opens its chooser
            self.pending, self.pending_card = loose, loose[0].cards[0]
        legal_by_card: dict[Card, list[Move]] = {}
        for m in obs.legal:
            if m.kind == PLAY:
                legal_by_card.setdefault(m.cards[0], []).append(m)
        hand = []
        hint_legal: list[dict[str, Any]] = []
        hint_other: list[dict[str, Any]] = []
        for i, c in enumerate(obs.hand):
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
            if mine:  # the hint points at the hand's entry: its why is sent once
                (hint_legal if moves else hint_other).append(
                    {"card": c.display, "hand": i,
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
        pending, hit = words_for(r).pending(obs, names, seat)
        order = [(seat + k) % obs.players for k in range(1, obs.players)]
        opponents = [{"seat": s, "name": self.names[s], "count": obs.hand_sizes[s],
                      "to_play": (not obs.over and obs.to_play == s),
                      "dealer": s == g.dealer, "hit": hit.get(s, "")}
                     for s in order]
        # the status: what happened since this seat last acted (kept until it acts again),
        # then what to do now, or why a click was refused, or how the hand ended
        message = self.message or (self._turn_text(obs) if mine else
                                   (f"{names[obs.to_play]} is thinking…"
                                    if not obs.over else ""))
        kind = self.message_kind if self.message else "info"
        narrator, said = self.said(match, obs.events)
        log, log_total = self._log()
        self._remember(g)
        return {
            "seq": seq,
            "rules": r.name,
            "title": variant_name(r),
            "description": (f"Changed from the preset: {r.description}" if house_options(r)
                            and r.name in PRESETS
                            and r.description == PRESETS[r.name].description
                            else r.description),
            "sheet": self.sheet(r),
            "call_kind": r.call_kind,
            "players": obs.players,
            "seat": seat,
            "names": list(self.names),
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
            "four_colour": four_colour,
            "actions": actions if mine else [],
            "chooser": self._chooser_view(g),
            "choosers": {str(c): self._tree(g, ms, c) for c, ms in legal_by_card.items()
                         if len(ms) > 1} if mine else {},
            "forced": self._tree(g, loose, loose[0].cards[0]) if loose else None,
            "pending": pending,
            "news": self._intro + narrator.news(said[self._news_from:]),
            "message": message,
            "message_kind": kind,
            "end": self._end_view(match) if obs.over else None,
            "log": log,
            "log_total": log_total,
            "hand_id": self.hand_id,
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
            "bot": bot,
            "shared": shared,
            "can_deal": (not shared) if can_deal is None else can_deal,
            "settings": settings if settings is not None else {},
        }


class ViewStream:
    """What one browser has been sent: the view it holds and the card faces it has."""

    def __init__(self) -> None:
        self.sent: dict[str, Any] = {}
        self.faces_sent: set[str] = set()

    def reset(self) -> None:
        """The browser is behind (or new): the next steps carry the view whole."""
        self.sent = {}
        self.faces_sent.clear()

    def snapshot(self, view: dict[str, Any]) -> dict[str, Any]:
        """The first message: the view and every face it shows."""
        self.sent = view
        return {"view": view, "faces": self.faces(view, everything=True)}

    def steps(self, views: list[dict[str, Any]], delay: float) -> dict[str, Any]:
        """One message: each view as the changes from the one before (the first from what the
        browser has), with the faces of cards it has not seen yet."""
        steps, before = [], self.sent
        for view in views:
            steps.append(self.patch(before, view))
            before = view
        self.sent = before
        return {"type": "steps", "steps": steps, "delay": max(0.0, float(delay))}

    def patch(self, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
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
        faces = self.faces(new)
        if faces:
            changes["faces"] = faces
        return changes

    def faces(self, view: dict[str, Any], everything: bool = False) -> dict[str, str]:
        """SVGs of the faces in ``view`` that the browser has not been sent (four-colour is a
        CSS recolouring, so one face per card)."""
        codes = [c["card"] for c in view["hand"]] + [p["top"] for p in view["piles"]]
        if view.get("end"):
            codes += [c for h in view["end"]["hands"] for c in h["cards"]]
        if everything:
            self.faces_sent.clear()
        out = {}
        if "back" not in self.faces_sent:
            out["back"] = card_svg(None, 64, face_down=True)
            self.faces_sent.add("back")
        for code in codes:
            if code not in self.faces_sent:
                out[code] = card_svg(Card.parse(code), 64)
                self.faces_sent.add(code)
        return out


def apply_step(shown: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    """A step applied to the view a browser holds, as ``table.js`` applies it (for tests and
    for a server that checks what its browsers hold)."""
    out = dict(shown)
    rest = {k: v for k, v in step.items() if k not in ("faces", "log_add", "unset")}
    for key in step.get("unset", []):
        out[key] = None
    out.update(rest)
    if "log" not in step and step.get("log_add"):
        out["log"] = list(out.get("log", [])) + list(step["log_add"])
    if "log" in out:
        out["log"] = out["log"][-MAX_LOG:]
    return out


def chooser_step(moves: Sequence[Move]) -> tuple[str, Callable[[Move], Any], list[Any]] | None:
    """The chooser's next question for ``moves``: its name, the key it asks about, and the
    distinct values in order; None when they do not differ."""
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


def _suit(c: Card) -> str:
    """``C``/``D``/``H``/``S``, or ``""`` for a joker (the browser recolours by suit)."""
    return "" if c.suit is None else SUITS[c.suit]


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


__all__ = ["MAX_LOG", "Refused", "SeatView", "ViewStream", "apply_step", "chooser_step"]

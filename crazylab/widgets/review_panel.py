"""The review of a finished hand beside the table: "Review this hand" rates every choice the
learner made (:mod:`crazylab.review`, from what they could see), with a progress bar while it
runs, the win chance over the hand as a graph (inline SVG: drawn at once, in Voilà, JupyterLab
and on the static site alike), the decisions in order with the better move and why, and each
decision's position on request. Markup in ``review_panel.html``, style in
``review_panel.css``."""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as w

from crazylab.engine.moves import Move
from crazylab.render import cards_html
from crazylab.review import Decision, explain_move, hand_record, review_moves

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet

__all__ = ["HandReview"]

MARKUP = Markup("review_panel")


def _pct(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.0%}"


class HandReview(ErrorReporting, w.VBox):
    """The review of the hand on ``table`` (a :class:`~crazylab.widgets.GameTable`) for the
    learner's seat (0). :meth:`review` is what the button does."""

    def __init__(self, table: Any, seat: int = 0, seed: int = 0) -> None:
        self.errors: list[str] = []
        self.table, self.seat, self.seed = table, seat, seed
        self.decisions: list[Decision] = []
        self.button = w.Button(description="Review this hand", icon="search",
                               tooltip="Rate every choice you made in this hand",
                               layout=w.Layout(width="auto"))
        self.button.on_click(lambda _b: self.review())
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Reviewing",
                                      layout=w.Layout(display="none"))
        self.summary = w.HTML(MARKUP("wait"))
        self.chart = w.HTML()
        self.listing = w.HTML()
        self.picker = w.Dropdown(options=[], description="Position",
                                 layout=w.Layout(display="none"))
        self.picker.observe(lambda _c: self._show_position(), "value")
        self.position = w.HTML()
        # "why did Bot 1 play that?": another player's choice, rated as they saw it
        self.others = w.Dropdown(options=[], description="Why did they play",
                                 style={"description_width": "initial"},
                                 layout=w.Layout(display="none"))
        self.others.observe(lambda _c: self._explain_other(), "value")
        self.other_why = w.HTML()
        self.error_area = ErrorArea()
        super().__init__([style_sheet("review_panel"), self.button, self.progress,
                          self.summary, self.chart, self.listing, self.picker, self.position,
                          self.others, self.other_why, self.error_area])
        self.add_class("crazylab-hand-review")
        # no observer on the table: one would run at every move (a cost on the static site)

    def _clear(self) -> None:
        self.decisions = []
        self.listing.value = self.position.value = self.other_why.value = ""
        self.chart.value = ""
        self.picker.layout.display = self.others.layout.display = "none"

    @guarded
    def review(self) -> list[Decision]:
        """Review the finished hand on the table and show it (a hand still being played:
        the panel says to finish it, and an earlier hand's review goes)."""
        game = self.table.game
        if not game.over:
            self._clear()
            self.summary.value = MARKUP("wait")
            return []
        start, moves = hand_record(game)
        self._start, self._moves = start, moves
        self.progress.layout.display = None
        self.progress.value, self.progress.max = 0, 1

        def step(done: int, total: int) -> None:
            self.progress.max, self.progress.value = max(total, 1), done

        self.decisions = review_moves(start, moves, self.seat, seed=self.seed, progress=step)
        self.progress.layout.display = "none"
        self._draw()
        return self.decisions

    def _draw(self) -> None:
        rated = [d for d in self.decisions if d.verdict not in ("forced", "unrated")]
        costly = [d for d in rated if d.verdict != "good"]
        self.summary.value = MARKUP("summary", summary=(
            f"{len(self.decisions)} moves of yours, {len(rated)} with a choice: "
            f"{len(rated) - len(costly)} good, {len(costly)} costly "
            f"(win chance over the deals the engine sampled from what you could see)."))
        items = []
        for d in rated:
            played = d.chance(d.played)
            items.append(MARKUP("decision", number=d.ply + 1, played=played.display,
                                win=_pct(played.win), best=d.moves[0].display,
                                best_win=_pct(d.moves[0].win), verdict=d.verdict,
                                why=MARKUP("why", text=d.why) if d.why else ""))
        self.listing.value = MARKUP("list", items=Html("".join(items))) if items else ""
        self._draw_chart(rated)
        self.picker.options = [(f"move {d.ply + 1}: {d.played}", i)
                               for i, d in enumerate(self.decisions)]
        self.picker.layout.display = None if self.decisions else "none"
        first = next((i for i, d in enumerate(self.decisions) if d in rated), None)
        if first is not None:  # the first choice's position, to start from
            self.picker.value = first
        self._show_position()
        self._list_others()

    def _list_others(self) -> None:
        """The other players' moves that were choices (two legal moves or more)."""
        names = list(getattr(self.table, "names", []) or [])
        game, choices = self._start.copy(), []
        for ply, move in enumerate(self._moves):
            seat = game.to_play
            if seat != self.seat and len(game.legal_moves()) > 1:
                who = names[seat] if seat < len(names) else f"Seat {seat}"
                choices.append((f"{who}, move {ply + 1}: {Move.parse(move).display}", ply))
            game.push(move)
        self.other_why.value = ""
        self.others.options = [("(choose a move)", None), *choices]
        self.others.value = None
        self.others.layout.display = None if choices else "none"

    @guarded
    def _explain_other(self) -> None:
        ply = self.others.value
        if ply is None:
            self.other_why.value = ""
            return
        d = explain_move(self._start, self._moves, ply, seed=self.seed)
        self.other_why.value = MARKUP("other", text=d.why)

    def _draw_chart(self, rated: list[Decision]) -> None:
        """The win chance of the move played and of the best move at each choice."""
        if not rated:
            self.chart.value = ""
            return
        width, height, left, top = 520, 170, 44, 12
        inner_w, inner_h = width - left - 12, height - top - 30
        step = inner_w / max(1, len(rated) - 1)

        def point(i: int, p: float) -> str:
            return f"{left + i * step:.1f},{top + (1 - p) * inner_h:.1f}"

        played = " ".join(point(i, d.chance(d.played).win) for i, d in enumerate(rated))
        best = " ".join(point(i, d.moves[0].win) for i, d in enumerate(rated))
        grid = "".join(
            f"<line x1='{left}' x2='{left + inner_w}' y1='{top + (1 - p) * inner_h:.1f}' "
            f"y2='{top + (1 - p) * inner_h:.1f}' stroke='#e3e7ee'/>"
            f"<text x='{left - 6}' y='{top + (1 - p) * inner_h + 4:.1f}' "
            f"text-anchor='end'>{p:.0%}</text>" for p in (0, 0.5, 1))
        marks = "".join(f"<text x='{left + i * step:.1f}' y='{height - 10}' "
                        f"text-anchor='middle'>{d.ply + 1}</text>"
                        for i, d in enumerate(rated))
        self.chart.value = MARKUP("chart", width=width, height=height, grid=Html(grid),
                                  marks=Html(marks), played=played, best=best)

    def _show_position(self) -> None:
        index = self.picker.value
        if index is None or not self.decisions:
            self.position.value = ""
            return
        d = self.decisions[index]
        game = self._start.copy()
        for move in self._moves[:d.ply]:
            game.push(move)
        top = game.top
        self.position.value = MARKUP("position", number=d.ply + 1,
                                     top=top.display if top is not None else "none",
                                     hand=Html(cards_html(game.hand(self.seat), width=44)))

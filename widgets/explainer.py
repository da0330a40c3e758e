"""The step-through explainer: a worked-example file step by step, with the position at each
step, the narration, and what changed. Deep links: ``?example=NAME&step=N``."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from crazylab.engine.cards import Card
from crazylab.engine.game import Game
from crazylab.examples import Example, Frame, list_examples, load_example
from crazylab.render import game_html

from ._common import ErrorArea, ErrorReporting, call_in_force, guarded, query_params


def changes(before: Game, frame: Frame) -> list[str]:
    """What a step changed, in plain words: the events it added, then the differences
    between the two positions (top card, call, hands, stock, whose turn)."""
    after = frame.game
    if frame.error is not None:
        return ["Nothing changed: the move was refused."]
    out = [e.describe() for e in frame.new_events]
    r = after.rules
    for p in range(r.piles):
        where = f" on pile {p}" if r.piles > 1 else ""
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
        winners = ", ".join(f"seat {s}" for s in after.winners) or "nobody"
        out.append(f"The hand is over ({after.end_reason}): winner {winners}; "
                   f"scores {list(after.scores)}.")
    elif before.to_play != after.to_play and not after.over:
        out.append(f"Seat {after.to_play} is to play next.")
    elif before.phase != after.phase:
        out.append(f"Phase: {before.phase} → {after.phase}.")
    if frame.step is not None and frame.step.move is None and not out:
        out.append("Nothing moves in this step: look at the position.")
    return out


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


class StepExplainer(ErrorReporting, w.VBox):
    """Step through a worked example: Previous / Next / the slider, or :meth:`go`."""

    def __init__(self, example: str | dict[str, Any] | Example | None = None, step: int = 0,
                 *, choices: list[str] | None = None, four_colour: bool = False) -> None:
        self.errors: list[str] = []
        self.four_colour = four_colour
        self.example: Example | None = None
        self.frames: list[Frame] = []
        names = choices if choices is not None else list_examples()
        self.picker = w.Dropdown(options=[(n, n) for n in names], description="Example",
                                 style={"description_width": "initial"},
                                 layout=w.Layout(width="min(100%, 560px)"))
        self.prev_button = w.Button(description="◀ Previous", tooltip="Previous step (←)")
        self.next_button = w.Button(description="Next ▶", tooltip="Next step (→)")
        self.slider = w.IntSlider(min=0, max=0, value=0, description="Step",
                                  continuous_update=True,
                                  layout=w.Layout(width="min(100%, 420px)"))
        self.title_html = w.HTML()
        self.say_html = w.HTML()
        self.changes_html = w.HTML()
        self.position_html = w.HTML()
        self.link_html = w.HTML()
        self.error_area = ErrorArea()
        self.prev_button.on_click(self._on_prev)
        self.next_button.on_click(self._on_next)
        self.slider.observe(self._on_slider, "value")
        self.picker.observe(self._on_pick, "value")
        _column = w.Layout(flex="1 1 380px", min_width="0", margin="0 12px 0 0")
        super().__init__([
            self.picker, self.title_html,
            w.HBox([self.prev_button, self.slider, self.next_button],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
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
        """An explainer opened at ``?example=NAME&step=N`` (Voilà passes the page's query
        string to the kernel)."""
        q = query_params(query)
        name = q.get("example", default)
        try:
            step = int(q.get("step", "0"))
        except ValueError:
            step = 0
        return cls(name, step, **kwargs)

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
        self.go(self.index + 1)

    def previous(self) -> None:
        self.go(self.index - 1)

    @guarded
    def load(self, example: str | dict[str, Any] | Example, step: int = 0) -> None:
        """Load a worked example (a shipped name, a path, a dict or an Example)."""
        ex = example if isinstance(example, Example) else load_example(example)
        self.example = ex
        self.frames = ex.frames()
        if isinstance(example, str) and example in [v for _, v in self.picker.options]:
            with self.picker.hold_trait_notifications():
                self.picker.unobserve(self._on_pick, "value")
                self.picker.value = example
                self.picker.observe(self._on_pick, "value")
        self.slider.unobserve(self._on_slider, "value")
        self.slider.max = len(self.frames) - 1
        self.slider.value = max(0, min(step, self.slider.max))
        self.slider.observe(self._on_slider, "value")
        desc = f"<div>{html.escape(ex.description)}</div>" if ex.description else ""
        self.title_html.value = (
            f"<h3 style='margin:6px 0 2px'>{html.escape(ex.title)}</h3>"
            f"<div style='color:#555'>{html.escape(ex.rules.name)}, {ex.players} players, "
            f"{len(ex.steps)} steps</div>{desc}")
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
        self.load(change["new"], 0)

    @guarded
    def show(self) -> None:
        """Draw the current frame."""
        if not self.frames or self.example is None:
            return
        i = self.index
        frame = self.frames[i]
        n = len(self.frames) - 1
        self.prev_button.disabled = i == 0
        self.next_button.disabled = i == n
        if frame.step is None:
            say = "The starting position. Press <b>Next ▶</b> to play the first step."
            head = f"Setup (step 0 of {n})"
            what: list[str] = []
            highlight: set[Card] = set()
        else:
            step = frame.step
            say = html.escape(step.say) if step.say else ""
            move = (f" — move <code>{html.escape(step.move)}</code>" if step.move else "")
            head = f"Step {i} of {n}{move}"
            before = self.frames[i - 1].game
            what = changes(before, frame)
            highlight = moved_cards(before, frame)
        refused = ""
        if frame.error is not None:
            refused = (f"<div style='background:#fff3cd;color:#5c3b00;padding:4px 8px;"
                       f"border-radius:6px;margin-top:4px'><b>Refused:</b> "
                       f"{html.escape(frame.error)}</div>")
        self.say_html.value = (
            f"<div role='status' aria-live='polite' style='font-size:1.05em'><b>{head}</b>"
            f"<div style='margin:4px 0'>{say}</div>{refused}</div>")
        items = "".join(f"<li>{html.escape(t)}</li>" for t in what)
        self.changes_html.value = (f"<div><b>What changed</b><ul style='margin:2px 0;"
                                   f"padding-left:1.2em;line-height:1.5'>{items}</ul></div>"
                                   if items else "")
        legal = frame.game.legal_moves()
        legal_text = ("" if frame.game.over else
                      f"<div style='color:#444;font-size:0.9em'>Seat {frame.game.to_play} may: "
                      f"{html.escape(', '.join(str(m) for m in legal[:16]))}"
                      f"{' …' if len(legal) > 16 else ''}</div>")
        self.position_html.value = game_html(frame.game, four_colour=self.four_colour,
                                             highlight=highlight) + legal_text
        self.link_html.value = (
            f"<div style='font-size:0.85em;color:#555'>Link to this step: "
            f"<a href='?example={html.escape(self.example.name)}&amp;step={i}'>"
            f"?example={html.escape(self.example.name)}&amp;step={i}</a></div>")


__all__ = ["StepExplainer", "changes", "moved_cards"]

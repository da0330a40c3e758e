"""The rule-set builder: pick a preset, toggle house rules, read the rules sheet that results,
and play it (or explore it).

Every control is generated from the typed option schema (``crazylab.engine.options.FIELDS``):
a boolean is a checkbox, a choice a dropdown, a bounded whole number a number box (with a
"set" checkbox where ``None`` is allowed), a list or a map a text box in the command line's
syntax (``9,10``; ``2:7,3:5``). A new option in the schema gets its control without a change
here. The builder shows the same rule set as Python (``crazylab.rules("crazy-eights",
voluntary_draw=False)``) and as a command line (``crazylab play crazy-eights --option
voluntary_draw=false``), so a teacher can copy either.

A combination the engine refuses (a :class:`~crazylab.RulesError`) is shown in the error
area under the builder and changes nothing: the control goes back to its last value and the
rule set stays the last one that was accepted.

Its markup is the fragments of ``builder.html`` and its style ``builder.css``, beside it.

>>> b = RuleBuilder("crazy-eights-classic")
>>> b.set_option("voluntary_draw", True).python_text()
'crazylab.rules("crazy-eights-classic", voluntary_draw=True)'
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as w

from crazylab.engine.options import FIELDS, Option, RulesError
from crazylab.engine.rules import PRESETS, RuleSet
from crazylab.engine.rules import rules as get_rules
from crazylab.sheet import rules_sheet_html

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet
from ._validate import builder_args

OnBuild = Callable[[RuleSet], Any]
_STYLE = {"description_width": "initial"}
_NAME = {"description_width": "15em"}  # the option names line up
MARKUP = Markup("builder")


def changed_options(rs: RuleSet) -> dict[str, object]:
    """The fields of ``rs`` that differ from its preset's, in the schema's order."""
    base = PRESETS[rs.name]
    return {name: getattr(rs, name) for name in FIELDS
            if getattr(rs, name) != getattr(base, name)}


def _pairs(value: object) -> list[tuple[object, object]]:
    """An ``int_map`` or ``effect_map`` option's value (a tuple of pairs) as its pairs."""
    if not isinstance(value, tuple | list):
        raise TypeError(f"a map option's value is a tuple of pairs, not {value!r}")
    return [(k, v) for k, v in value]


def _py_value(option: Option, value: object) -> str:
    if isinstance(value, str):  # choices are plain words: written as the docs write them
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if option.kind == "int_map":
        return "{" + ", ".join(f"{k}: {v}" for k, v in _pairs(value)) + "}"
    if option.kind == "effect_map":
        return "{" + ", ".join(f'"{k}": "{v}"' for k, v in _pairs(value)) + "}"
    return repr(value)


def _cli_value(option: Option, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if option.kind == "int_map":
        return ",".join(f"{k}:{v}" for k, v in _pairs(value)) or "none"
    if option.kind == "ints":
        return ",".join(map(str, value)) or "none"  # type: ignore[call-overload]
    if option.kind == "effect_map":
        return ",".join(f"{k}={v}" for k, v in _pairs(value)) or "none"
    return str(value)


def python_text(rs: RuleSet) -> str:
    """The Python call that builds ``rs`` from its preset."""
    args = [f'"{rs.name}"'] + [f"{k}={_py_value(FIELDS[k], v)}"
                               for k, v in changed_options(rs).items()]
    return f"crazylab.rules({', '.join(args)})"


def cli_text(rs: RuleSet, command: str = "play") -> str:
    """The command line that plays (``command``) ``rs``: ``--option KEY=VALUE`` per change."""
    parts = ["crazylab", command, rs.name]
    for k, v in changed_options(rs).items():
        parts += ["--option", f"{k}={_cli_value(FIELDS[k], v)}"]
    return " ".join(shlex.quote(p) for p in parts)


def sheet_html(rs: RuleSet) -> str:
    """The rules sheet of ``rs`` as HTML."""
    return rules_sheet_html(rs)


def _sample_number(option: Option) -> int:
    """A number to offer when an optional whole number is switched on: a preset's value,
    else the lower bound."""
    for preset in PRESETS.values():
        value = getattr(preset, option.name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return option.low or 0


#: option kinds edited as the command line's text
TEXT_KINDS = ("ints", "int_map", "effect_map")


class _Control:
    """One option's control: its widget(s), reading and writing the option's value. The
    option's name is the control's label (a ``<label for=…>``, so screen readers name it)."""

    def __init__(self, option: Option, on_change: Callable[[str], None]) -> None:
        self.option = o = option
        self.number: w.BoundedIntText | None = None
        self.switch: w.Checkbox | None = None
        doc = o.doc + (f" ({', '.join(o.rulings)})" if o.rulings else "")
        named: dict[str, Any] = dict(description=o.name, tooltip=doc, style=_NAME)
        widget: w.Widget
        if o.kind == "bool":
            widget = self.switch = w.Checkbox(value=False, indent=False, description=o.name,
                                              tooltip=doc, layout=w.Layout(width="30em"))
        elif o.kind == "choice":
            widget = w.Dropdown(options=list(o.allowed_choices()),
                                layout=w.Layout(width="30em"), **named)
        elif o.kind == "int":
            widget = self.number = w.BoundedIntText(min=o.low, max=o.high,
                                                    layout=w.Layout(width="30em"), **named)
        elif o.kind == "optional_int":
            self.switch = w.Checkbox(value=False, indent=False, description=f"{o.name}: set",
                                     tooltip=doc, layout=w.Layout(width="15em"))
            self.number = w.BoundedIntText(min=o.low, max=o.high, value=_sample_number(o),
                                           description="to", tooltip=doc,
                                           style={"description_width": "1.5em"},
                                           layout=w.Layout(width="7em"))
            widget = w.HBox([self.switch, self.number], layout=w.Layout(width="30em"))
        else:  # ints, int_map, effect_map: the command line's text
            example = {"int_map": "2:7,3:5", "effect_map": "2=draw2,A=skip"}.get(o.kind, "9,10")
            widget = w.Text(placeholder=f"none, or like {example}", continuous_update=False,
                            layout=w.Layout(width="30em"), **named)
        self.widget = widget
        self.input = widget if not isinstance(widget, w.HBox) else None
        self.named = self.switch if self.switch is not None else widget
        self._name = str(self.named.description)
        parts = [self.switch, self.number] if self.input is None else [self.input]
        for part in parts:  # each widget once (a boolean's checkbox is its input and switch)
            if part is not None:
                part.observe(lambda _c, n=o.name: on_change(n), names="value")
        self.doc = w.HTML(MARKUP("doc", doc=doc), layout=w.Layout(flex="1 1 20em"))
        self.row = w.HBox([widget, self.doc],
                          layout=w.Layout(align_items="center", flex_flow="row wrap",
                                          flex="0 0 auto", min_height="30px",
                                          border_bottom="1px solid #eee"))
        self.row.add_class("clb-option")
        self.row.add_class(f"clb-opt-{o.name}")

    def mark(self, changed: bool) -> None:
        """Mark the name of an option the house rules change."""
        self.named.description = f"{self._name} ✎" if changed else self._name

    def get(self) -> object:
        """The value the control shows (RulesError for text it cannot read)."""
        o = self.option
        if o.kind == "optional_int":
            assert self.switch is not None and self.number is not None
            self.number.disabled = not self.switch.value
            return self.number.value if self.switch.value else None
        if o.kind in TEXT_KINDS:
            return o.parse(self.input.value)  # type: ignore[union-attr]
        return self.input.value  # type: ignore[union-attr]

    def set(self, value: object) -> None:
        o = self.option
        if o.kind == "optional_int":
            assert self.switch is not None and self.number is not None
            self.switch.value = value is not None
            if value is not None:
                self.number.value = value
            self.number.disabled = value is None
        elif o.kind in TEXT_KINDS:
            self.input.value = "" if not value else _cli_value(o, value)  # type: ignore
        else:
            self.input.value = value  # type: ignore[union-attr]


class RuleBuilder(ErrorReporting, w.VBox):
    """Pick a preset, change any option, read the rules sheet and play the result.

    ``on_build(rule_set)`` is called by the **Play** button (or after every accepted change
    with ``live=True``); a :class:`~crazylab.widgets.GameTable` or
    :class:`~crazylab.widgets.LegalMoveExplorer` given as ``target`` is connected through its
    ``set_rules``."""

    def __init__(self, rules: str | RuleSet = "crazy-eights",
                 options: Mapping[str, object] | None = None, *,
                 on_build: OnBuild | None = None, target: Any = None, live: bool = False,
                 button: str = "Play these rules") -> None:
        builder_args(rules, options, on_build, target, live, button)
        self.errors: list[str] = []
        self.refusals: list[str] = []  # every RulesError message shown (tests read it)
        self.built: list[RuleSet] = []  # every rule set handed to on_build
        self._callbacks: list[OnBuild] = []
        self._quiet = False
        self.live = live
        start = get_rules(rules) if isinstance(rules, str) else rules
        if options:
            start = get_rules(start, **options)
        if start.name not in PRESETS:
            raise RulesError(f"unknown rule set {start.name!r}; the presets are: "
                             f"{', '.join(PRESETS)}")
        self._rules = start
        self.preset_box = w.Dropdown(options=list(PRESETS), value=start.name,
                                     description="Start from", style=_STYLE)
        self.preset_box.add_class("clb-preset")
        self.description = w.HTML()
        self.filter_box = w.Text(placeholder="e.g. draw, joker", description="Filter options",
                                 style=_STYLE,
                                 continuous_update=True, layout=w.Layout(width="18em"))
        self.open_button = w.ToggleButton(value=False, description="Change house rules",
                                          icon="sliders", tooltip="Show every option",
                                          layout=w.Layout(width="auto"))
        self.open_button.add_class("clb-open")
        self.reset_button = w.Button(description="Reset to the preset",
                                     tooltip="Undo every house rule")
        self.play_button = w.Button(description=button, button_style="primary",
                                    tooltip="Start a new game with these rules")
        self.play_button.add_class("clb-play")
        self._controls: dict[str, _Control] | None = None  # built when first needed
        self.options_box = w.VBox([], layout=w.Layout(max_height="340px", overflow="auto",
                                                      border="1px solid #ccc", padding="4px",
                                                      display="none"))
        self.filter_box.layout.display = "none"
        self.changed_html = w.HTML()
        self.code_html = w.HTML()
        self.code_html.add_class("clb-code")
        self.sheet = w.HTML()
        self.sheet.add_class("clb-sheet")
        self.error_area = ErrorArea()
        self.preset_box.observe(self._on_preset, names="value")
        self.filter_box.observe(lambda _c: self._filter(), names="value")
        self.open_button.observe(self._on_open, names="value")
        self.reset_button.on_click(lambda _b: self._on_reset())
        self.play_button.on_click(lambda _b: self._on_play())
        super().__init__([
            style_sheet("builder"), w.HTML(MARKUP("title")),
            w.HBox([self.preset_box, self.open_button, self.reset_button, self.play_button],
                   layout=w.Layout(flex_flow="row wrap")),
            self.description, self.filter_box, self.options_box, self.error_area,
            self.changed_html, self.code_html, self.sheet,
        ])
        self.add_class("crazylab-builder")
        if on_build is not None:
            self._callbacks.append(on_build)
        if target is not None:
            self.connect(target)
        self._show(start)

    # -- state ----------------------------------------------------------------------------------

    @property
    def controls(self) -> dict[str, _Control]:
        """One control per option of the schema, made the first time they are needed (the
        options panel opened, or an option set from Python): a page that only plays does not
        pay for some 600 widget models."""
        if self._controls is None:
            self._controls = {name: _Control(option, self._on_option)
                              for name, option in FIELDS.items()}
            self.options_box.children = [c.row for c in self._controls.values()]
            self._show(self._rules)
        return self._controls

    @guarded
    def _on_open(self, change: dict[str, Any]) -> None:
        shown = "" if change["new"] else "none"
        if change["new"]:
            self.controls  # noqa: B018 - made on first opening
        self.options_box.layout.display = self.filter_box.layout.display = shown

    @property
    def rules(self) -> RuleSet:
        """The rule set built so far (the last one the engine accepted)."""
        return self._rules

    def python_text(self) -> str:
        return python_text(self._rules)

    def cli_text(self, command: str = "play") -> str:
        return cli_text(self._rules, command)

    def connect(self, target: Any) -> RuleBuilder:
        """Play (or explore) the built rules on ``target``, anything with ``set_rules``."""
        self._callbacks.append(target.set_rules)
        return self

    # -- changes ----------------------------------------------------------------------------------

    def set_option(self, name: str, value: object) -> RuleBuilder:
        """Change one option as its control would (from Python); returns the builder."""
        control = self.controls[name]
        self._quiet = True
        try:
            control.set(value)
        finally:
            self._quiet = False
        self._on_option(name)
        return self

    def set_preset(self, name: str) -> RuleBuilder:
        """Start again from preset ``name`` (house rules dropped)."""
        self.preset_box.value = name
        return self

    @guarded
    def _on_option(self, name: str) -> None:
        if self._quiet:
            return
        control = self.controls[name]
        try:
            value = control.get()
            options = {**changed_options(self._rules), name: value}
            base = PRESETS[self._rules.name]
            options = {k: v for k, v in options.items() if getattr(base, k) != v}
            built = get_rules(self._rules.name, **options)
        except RulesError as e:
            self._refuse(str(e))
            return
        self._accept(built)

    @guarded
    def _on_preset(self, change: dict[str, Any]) -> None:
        self._accept(get_rules(change["new"]))

    @guarded
    def _on_reset(self) -> None:
        self._accept(get_rules(self._rules.name))

    @guarded
    def _on_play(self) -> None:
        self.play()

    def play(self) -> RuleSet:
        """Hand the built rule set to every connected table or explorer; returns it."""
        for callback in self._callbacks:
            callback(self._rules)
        self.built.append(self._rules)
        return self._rules

    def _accept(self, built: RuleSet) -> None:
        self.clear_error()
        self._rules = built
        self._show(built)
        if self.live:
            self.play()

    def _refuse(self, message: str) -> None:
        """Show the engine's refusal and put every control back: nothing changes."""
        self.refusals.append(message)
        self._show(self._rules)
        self.error_area.value = MARKUP("refusal", message=message)
        self.error_area.layout.display = ""

    # -- what is shown ------------------------------------------------------------------------

    def _show(self, rs: RuleSet) -> None:
        self._quiet = True
        try:
            if self.preset_box.value != rs.name:
                self.preset_box.value = rs.name
            for name, control in (self._controls or {}).items():
                control.set(getattr(rs, name))
        finally:
            self._quiet = False
        changed = changed_options(rs)
        for name, control in (self._controls or {}).items():
            control.mark(name in changed)
        self.description.value = MARKUP("description",
                                        description=PRESETS[rs.name].description)
        self.changed_html.value = MARKUP(
            "changed", changes=", ".join(f"{k}={_cli_value(FIELDS[k], v)}"
                                         for k, v in changed.items())
            or "none (the preset as it is)")
        self.code_html.value = MARKUP("code", python=python_text(rs), cli=cli_text(rs))
        self.sheet.value = MARKUP("sheet", sheet=Html(sheet_html(rs)))
        self._filter()

    def _filter(self) -> None:
        words = self.filter_box.value.strip().lower()
        for name, control in (self._controls or {}).items():
            text = f"{name} {control.option.doc} {' '.join(control.option.rulings)}".lower()
            control.row.layout.display = "" if not words or words in text else "none"


__all__ = ["RuleBuilder", "changed_options", "cli_text", "python_text", "sheet_html"]

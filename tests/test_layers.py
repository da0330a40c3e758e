"""The structure of the code, checked over its syntax trees: the layers import only downward,
there is no import cycle (imports inside functions and under ``TYPE_CHECKING`` count), no
module reaches another module's ``_private`` names (by owner: ``x._name`` on an object
the module does not own), only the game writes the turn machine, and docs/ARCHITECTURE.md
shows the rulebook, the turn machine's verbs and the variant hooks as the code has them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.engine, pytest.mark.oldest]

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"crazylab": ROOT / "crazylab"}

#: each layer may import only the layers after it in this list (lowest last); every module of
#: the package has one (``crazylab`` itself re-exports the public API)
LAYERS: list[tuple[str, ...]] = [
    ("crazylab.__main__",),
    ("crazylab.cli",),
    ("crazylab.publish",),  # `crazylab serve / site / tables`: starts the web side
    ("crazylab.web", "crazylab.site"),  # the HTTP side (Voilà launcher, class and tables
    # APIs, pages); the static-site builder
    ("crazylab.widgets",),  # ipywidgets and anywidgets only
    ("crazylab.seat",),  # one seat's view and its words: below the widgets and the web
    ("crazylab.tables",),  # shared tables: on the class store, the match and the bots
    ("crazylab.classroom",),  # the class store: below the app, beside nothing of the engine
    ("crazylab.questions",),  # questions as data, judged by the engine (kernel and server)
    ("crazylab.store",),  # the one persistence layer: database, schema, secrets, names
    ("crazylab.sim", "crazylab.lab", "crazylab.review"),  # review: bots and examples below
    ("crazylab.bots", "crazylab.music", "crazylab.examples", "crazylab.match", "crazylab.render",
     "crazylab.audio", "crazylab.rulebook",
     "crazylab.sheet", "crazylab.errors", "crazylab.practice"),
    ("crazylab.playout",),
    ("crazylab.engine",),
]



def _modules() -> dict[str, Path]:
    """Every module of the two packages by dotted name."""
    out = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    base = package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _target(name: str) -> str | None:
    """The project module ``name`` refers to (a module, or a name inside one)."""
    while name:
        if name in MODULES:
            return name
        name = name.rsplit(".", 1)[0] if "." in name else ""
    return None


def imports(module: str) -> set[str]:
    """Every project module ``module`` imports, anywhere in the file."""
    path = MODULES[module]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node)
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        for name in names:
            target = _target(name)
            if target and target != module:
                found.add(target)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def _layer(module: str) -> int:
    for i, layer in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in layer):
            return i
    return -1


def _is_package_init(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def test_the_graph_sees_imports_inside_functions_and_type_checking():
    # guards the checker itself: a lazy import and a TYPE_CHECKING import are both edges
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n" \
             "def f():\n    from ..render import card_svg\n"
    tree = ast.parse(source)
    froms = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
    path = MODULES["crazylab.engine.cards"]
    assert {_target(_resolve("crazylab.engine.cards", path, n) + "." + n.names[0].name)
            for n in froms} == {"crazylab.engine.game", "crazylab.render"}


def test_no_import_cycles():
    """Depth-first search for a cycle among all project modules (package ``__init__`` files
    re-export their contents, so an edge into a package's own ``__init__`` from inside it
    does not count)."""
    def edges(m: str) -> set[str]:
        return {t for t in GRAPH[m]
                if not (_is_package_init(t) and m.startswith(t + "."))}

    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_engine_imports_nothing_above_it():
    bad = {m: sorted(t for t in targets if not t.startswith("crazylab.engine"))
           for m, targets in GRAPH.items() if m.startswith("crazylab.engine")}
    assert not {m: t for m, t in bad.items() if t}


def upward(module: str, targets: set[str]) -> list[str]:
    """The modules of ``targets`` on a layer above ``module``'s."""
    return sorted(t for t in targets if t != "crazylab" and _layer(t) < _layer(module))


def unlisted(modules: set[str]) -> list[str]:
    """The modules no layer holds (``crazylab`` itself aside)."""
    return sorted(m for m in modules if m != "crazylab" and _layer(m) < 0)


def test_every_module_has_a_layer():
    assert unlisted(set(MODULES)) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_layers_import_only_downward(module):
    if module == "crazylab":
        return  # the top-level package re-exports the public API
    up = upward(module, GRAPH[module])
    assert not up, f"{module} imports the layer(s) above it: {up}"


def test_the_layer_checks_can_fail():
    # the old upward import: the command line's publish reaching the launcher in widgets was
    # fine, but the widgets reaching the web side, or the seat view reaching a widget, is not
    assert upward("crazylab.widgets.table", {"crazylab.web.serve", "crazylab.seat.view"}) == [
        "crazylab.web.serve"]
    assert upward("crazylab.seat.view", {"crazylab.widgets.table"}) == ["crazylab.widgets.table"]
    assert upward("crazylab.publish", {"crazylab.cli"}) == ["crazylab.cli"]
    assert unlisted({"crazylab.engine.game", "crazylab.nowhere", "crazylab"}) == [
        "crazylab.nowhere"]


def test_the_engine_imports_no_jupyter_or_data_libraries():
    heavy = ("ipywidgets", "IPython", "pandas", "plotly", "numpy", "anywidget", "traitlets")
    for m, path in MODULES.items():
        if not m.startswith("crazylab.engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [n for n in names if n.split(".")[0] in heavy], (m, names)


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


ALLOWED_FOREIGN = {"_repr_html_", "_repr_svg_", "_repr_mimebundle_", "_make", "_asdict",
                   "_replace", "_fields", "_ipython_display_",
                   "_exit", "_getframe"}  # os._exit, sys._getframe: the standard library's


#: ``x._name`` where ``x`` is neither ``self``/``cls``/``super()`` nor a class or private
#: top-level name of the module itself, reviewed one owner at a time: (module, ``x``) -> why
#: it is the module's own object. An entry no longer used fails too, so the list stays true.
ALLOWED_OWNERS: dict[tuple[str, str], str] = {
    ("crazylab.engine.game", "game"): "Game.new / Game.from_deck deal a Game of this class",
    ("crazylab.engine.game", "g"): "Game.clone fills the fresh copy of this class",
    ("crazylab.engine.rules", "base"): "rules(): `base` is a RuleSet of this module",
    ("crazylab.widgets._common", "widget"):
        "build_or_default: the widget is an ErrorReporting of this module",
    ("crazylab.widgets.table", "table"): "_keep_hand marks this module's GameTable",
    ("crazylab.site.files.pandas_lite", "new"):
        "DataFrame._like fills the fresh DataFrame of this class",
}


def _module_own_names(tree: ast.Module) -> set[str]:
    """The module's own objects: its top-level classes and its private top-level names."""
    found: set[str] = set()
    classes: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
            if isinstance(node, ast.ClassDef):
                classes.add(node.name)
        for sub in ast.walk(node) if isinstance(node, ast.Assign | ast.AnnAssign) else ():
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                found.add(sub.id)
    return classes | {n for n in found if n.startswith("_")}


def foreign_private_uses(module: str, source: str) -> dict[str, set[str]]:
    """``{owner expression: {private attributes}}`` the module reaches through an object it
    does not own: ``x._name`` where ``x`` is not ``self``/``cls``/``super()`` nor one of the
    module's own top-level classes or private names (``table.game._rng()`` counts)."""
    tree = ast.parse(source)
    own_top = _module_own_names(tree)
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")):
            continue
        if _dunder(node.attr) or node.attr in ALLOWED_FOREIGN:
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and (owner.id in ("self", "cls") or owner.id in own_top):
            continue
        if (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                and owner.func.id == "super"):
            continue
        found.setdefault(ast.unparse(owner), set()).add(node.attr)
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_uses_another_modules_private_names(module):
    source = MODULES[module].read_text()
    imported = {a.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)
                for a in node.names if a.name.startswith("_") and not _dunder(a.name)}
    assert not imported, f"{module} imports private names of other modules: {sorted(imported)}"
    uses = foreign_private_uses(module, source)
    bad = {owner: sorted(names) for owner, names in uses.items()
           if (module, owner) not in ALLOWED_OWNERS}
    assert not bad, f"{module} reaches private names through objects it does not own: {bad}"
    stale = [owner for (m, owner) in ALLOWED_OWNERS if m == module and owner not in uses]
    assert not stale, f"ALLOWED_OWNERS lists {module}'s {stale}, which it no longer uses"


def test_the_private_names_check_can_fail():
    # by owner, not by name: the module defines its own `_rng`, yet `table.game._rng()`
    # reaches into the Game the table holds
    source = ("class T:\n    def __init__(self):\n        self._rng = 1\n"
              "    def go(self, table):\n        return self._rng, table.game._rng()\n"
              "import x\nx.game._take_from_stock()\n")
    assert foreign_private_uses("crazylab.sim", source) == {
        "table.game": {"_rng"}, "x.game": {"_take_from_stock"}}


#: the turn machine's fields and the position: only ``Game`` (crazylab/engine/game.py) assigns
#: them; a variant asks for a verb (``pass_to``, ``set_phase``, ``flip_to_pile``…, see
#: ``variants.base.TurnAPI``)
TURN_FIELDS = frozenset({
    "to_play", "phase", "turn_draws", "turn_plays", "drawn", "reshuffles", "idle", "direction",
    "skipping", "turns", "over", "result", "random_count", "hands", "stock_cards", "piles",
    "calls", "refs", "variant_state", "hooks"})
#: files allowed to assign them for now, and why
TURN_WRITERS = {
    "crazylab/engine/game.py": "the owner",
}


def turn_writes(source: str) -> list[str]:
    """``obj.field = …`` (or ``+=``, or in a tuple target) for a turn-machine field on any
    object but ``self`` (another class's own attribute of the same name)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        while targets:
            t = targets.pop()
            if isinstance(t, (ast.Tuple, ast.List)):
                targets += t.elts
            elif (isinstance(t, ast.Attribute) and t.attr in TURN_FIELDS
                  and not (isinstance(t.value, ast.Name) and t.value.id == "self")):
                out.append(f"line {node.lineno}: {ast.unparse(t)}")
    return out


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT))
                                        for p in (ROOT / "crazylab").rglob("*.py")))
def test_only_the_game_writes_the_turn_machine(path):
    if path in TURN_WRITERS:
        return
    writes = turn_writes((ROOT / path).read_text())
    assert not writes, (f"{path} assigns the turn machine's fields (ask Game for a verb: "
                        f"pass_to, set_phase, play_cards…): {writes}")


def event_writes(source: str) -> list[str]:
    """``x.events.append(…)`` (``extend``, ``insert``, ``+=``, item assignment) on any object
    but ``self``: a hand's record written past ``Game.log``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        target = None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert")):
            target = node.func.value
        elif isinstance(node, ast.AugAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0].value
        if (isinstance(target, ast.Attribute) and target.attr == "events"
                and not (isinstance(target.value, ast.Name) and target.value.id == "self")):
            out.append(f"line {node.lineno}: {ast.unparse(target)}")
    return out


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT))
                                        for p in (ROOT / "crazylab").rglob("*.py")))
def test_only_the_game_writes_a_hands_record(path):
    if path == "crazylab/engine/game.py":
        return
    writes = event_writes((ROOT / path).read_text())
    assert not writes, f"{path} writes game.events (ask Game.log(event)): {writes}"


def test_the_event_writes_check_can_fail():
    source = ("game.events.append(e)\ng.events += [e]\nself.events.append(e)\n"
              "game.log(e)\nsong.notes.append(n)\n")
    assert sorted(event_writes(source)) == ["line 1: game.events", "line 2: g.events"]


def test_the_turn_writes_check_can_fail():
    source = ("def f(game, st):\n    game.phase = 'penalty'\n    game.turn_plays += 1\n"
              "    game.drawn, x = [], 1\n    st.draw = 2\n    self.phase = 'mine'\n")
    assert sorted(turn_writes(source)) == ["line 2: game.phase", "line 3: game.turn_plays",
                                           "line 4: game.drawn"]
    assert all((ROOT / p).exists() for p in TURN_WRITERS), "TURN_WRITERS names a missing file"


# -- the architecture page keeps the engine's shape (issue 21) -------------------------------
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


def _class_members(path: Path, name: str) -> tuple[set[str], set[str]]:
    """(public methods, ``__slots__``) of class ``name`` in the module at ``path``."""
    [cls] = [n for n in ast.parse(path.read_text()).body
             if isinstance(n, ast.ClassDef) and n.name == name]
    methods = {f.name for f in cls.body
               if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}
    slots: set[str] = set()
    for node in cls.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__slots__"
                and isinstance(node.value, ast.Tuple)):  # Game's are computed: not read here
            slots = set(ast.literal_eval(node.value))
    return methods, slots


def architecture_gaps(doc: str) -> list[str]:
    """What the engine section of the architecture page leaves out or names wrongly: the
    rulebook's attributes (its table), the turn API and the verbs (each a ``Game`` method),
    and the variant hooks."""
    engine = doc[doc.index("## The engine"):doc.index("## Speed")]
    turn = engine[engine.index("**One owner of the turn machine.**"):engine.index("- **Variants**")]
    variants = engine[engine.index("- **Variants**"):engine.index("- **Explanations**")]
    book = engine[engine.index("**One rulebook per rule set.**"):
                  engine.index("- **One state, one turn machine.**")]
    engine_dir = ROOT / "crazylab" / "engine"
    _, slots = _class_members(engine_dir / "rulebook.py", "Rulebook")
    api, _ = _class_members(engine_dir / "variants" / "base.py", "TurnAPI")
    hooks, _ = _class_members(engine_dir / "variants" / "base.py", "Variant")
    game, _ = _class_members(engine_dir / "game.py", "Game")
    gaps = [f"rulebook attribute {a}" for a in sorted(
        slots ^ set(re.findall(r"^  \| `(\w+)` \|", book, re.M)))]
    named = set(re.findall(r"`(\w+)[`(]", turn))
    gaps += [f"turn API {m}" for m in sorted(api - named)]
    verbs = {v for row in re.findall(r"^  \| (.+?) \|", turn, re.M)
             for v in re.findall(r"`(\w+)\(", row)}
    gaps += [f"verb {v} is not a Game method" for v in sorted(verbs - game)]
    gaps += [f"hook {h}" for h in sorted(hooks - set(re.findall(r"`(\w+)`", variants)))]
    return gaps


def test_the_architecture_page_shows_the_rulebook_the_verbs_and_the_hooks():
    doc = ARCHITECTURE.read_text()
    assert architecture_gaps(doc) == []
    # the check can fail: a verb's row, a hook and a rulebook attribute left out
    broken = (doc.replace("  | `pass_to(seat)` |", "  | `hand_to(seat)` |")
              .replace("`public_state`", "public state")
              .replace("  | `fits` |", "  | `fit_tables` |"))
    assert architecture_gaps(broken) == [
        "rulebook attribute fit_tables", "rulebook attribute fits", "turn API pass_to",
        "verb hand_to is not a Game method", "hook public_state"]

"""crazylab's own rulebook: every rule, house ruling and test vector of each rule set, by id.

The rulebook is markdown shipped inside the package (one file per rule set, next to this
module), written for learners and teachers: for each rule what the seed (the source rule
document) says, what crazylab decides and why, and the option that changes it. The lessons link
to it (``rulebook.ipynb#SR-17`` in the notebooks, built by ``tools/lessons.py``), and the tests
check every id against it. Standard library only, so the engine's users need no Jupyter.

Each entry of a page is written::

    ### SR-17
    **You may draw with a legal card** · *Seed rule, settled by SR-Q2 · option `voluntary_draw`*

    What the rule says …

The heading is the id alone, so that every renderer gives it that anchor: Voilà (nbconvert)
and JupyterLab name a heading's anchor after its text (``rulebook.ipynb#SR-17``).

>>> entry("SR-17").kind, entry("SR-17").options
('seed', ('voluntary_draw',))
>>> "BR-Q14" in ids()
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["ID_PATTERN", "RULE_ID", "Entry", "PAGES", "PRESET_PAGES", "RulebookError", "entries",
           "entry", "ids", "is_rule_id", "markdown", "page_of", "text"]

FOLDER = Path(__file__).resolve().parent

#: the rulebook's pages in reading order (file ``NAME.md`` beside this module)
PAGES: tuple[str, ...] = ("common", "crazy-eights", "crazy-eights-app", "crazy-breens",
                          "crazy-8s-music", "options")
#: the notation page (cards, moves, worked-example files): no rule ids
NOTATION = "notation"
#: the page of each preset
PRESET_PAGES: dict[str, str] = {
    "crazy-eights": "crazy-eights",
    "crazy-eights-classic": "crazy-eights-app",
    "crazy-eights-quick": "crazy-eights-app",
    "crazy-breens": "crazy-breens",
    "crazy-8s-music": "crazy-8s-music",
    **{f"crazy-8s-level-{n}": "crazy-8s-music" for n in range(1, 6)},
}
#: how an entry's kind is written (the first words of its italic line) → its kind
KINDS: dict[str, str] = {
    "Seed rule": "seed",
    "Derived rule": "derived",
    "House ruling": "ruling",
    "Convention": "convention",
    "Test vector": "vector",
    "Option value": "option",
    "Variant": "variant",
}

#: a rule id, the one pattern every module uses: a seed rule or its settlement (``SR-17``,
#: ``BR-Q14``, ``MU-T4``, ``BR-M4``, ``MU-D3``, ``AP-2``, ``C-10``), a house ruling (``A14``) or
#: a variant (``V12``)
ID_PATTERN = r"(?:(?:C|SR|AP|MU|BR)-[A-Z]?\d+|[AV]\d{1,2})"
#: a rule id inside a sentence (a whole word: not ``XA12``, not ``SR-17b``)
RULE_ID = re.compile(rf"\b{ID_PATTERN}\b")
_HEAD = re.compile(
    rf"^### (?P<id>{ID_PATTERN})\n"
    r"\*\*(?P<title>[^\n]+?)\*\* · \*(?P<meta>[^\n]+)\*\n", re.M)
_SECTION = re.compile(r"^#{1,2} ", re.M)


class RulebookError(ValueError):
    """A rulebook page that does not follow the entry format, or an unknown id or page."""


@dataclass(frozen=True)
class Entry:
    """One rule of the rulebook."""

    id: str
    #: the page it is on (``crazy-eights``, ``common`` …)
    page: str
    title: str
    #: ``seed``, ``derived``, ``ruling``, ``convention``, ``vector``, ``option`` or ``variant``
    kind: str
    #: the options that change it (names of ``crazylab.engine.options.OPTIONS``)
    options: tuple[str, ...]
    #: the house rulings that settle a seed rule's open question (``SR-17`` → ``SR-Q2``)
    settled_by: tuple[str, ...]
    #: the entry's text (markdown, after the italic line)
    body: str

    def link(self, page: str = "rulebook.ipynb") -> str:
        """Where the entry is in the notebooks: ``rulebook.ipynb#SR-17``."""
        return f"{page}#{self.id}"


def _path(name: str) -> Path:
    page = name if name in (*PAGES, NOTATION) else PRESET_PAGES.get(name, "")
    if not page:
        raise RulebookError(f"no rulebook page {name!r}: pages are {', '.join(PAGES)}, "
                            f"{NOTATION}, or a preset name")
    return FOLDER / f"{page}.md"


def markdown(ruleset: str) -> str:
    """The markdown of a rulebook page: a page name (``common``, ``options``, ``notation``
    …) or a preset name (``crazy-eights-quick`` gives the app's page)."""
    return _path(ruleset).read_text(encoding="utf-8")


def page_of(preset: str) -> str:
    """The rulebook page of a preset."""
    if preset not in PRESET_PAGES:
        raise RulebookError(f"no preset {preset!r} in the rulebook")
    return PRESET_PAGES[preset]


def parse(page: str, text: str) -> dict[str, Entry]:
    """The entries of one page's markdown; :class:`RulebookError` on a malformed entry."""
    heads = list(_HEAD.finditer(text))
    starts = {m.start() for m in heads}
    for h in re.finditer(r"^### ", text, flags=re.M):
        if h.start() not in starts:
            line = text.count("\n", 0, h.start()) + 1
            raise RulebookError(f"{page}.md line {line}: a heading without the entry format "
                                f"(### ID, then **title** · *kind …*)")
    found: dict[str, Entry] = {}
    for i, m in enumerate(heads):
        rid = m["id"]
        where = f"{page}.md line {text.count(chr(10), 0, m.start()) + 1}"
        if rid in found:
            raise RulebookError(f"{where}: {rid} twice")
        meta = m["meta"]
        kind_text, _, rest = meta.partition(" · ")
        kind_name, _, settled = kind_text.partition(", settled by ")
        if kind_name not in KINDS:
            raise RulebookError(f"{where}: {rid} has kind {kind_name!r}, not one of "
                                f"{', '.join(KINDS)}")
        if rest and not rest.startswith("option "):
            raise RulebookError(f"{where}: {rid}: after the kind comes `option …`, not {rest!r}")
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        section = _SECTION.search(text, m.end(), end)
        body = text[m.end():section.start() if section else end].strip()
        if not body:
            raise RulebookError(f"{where}: {rid} says nothing")
        found[rid] = Entry(rid, page, m["title"].strip(), KINDS[kind_name],
                           tuple(re.findall(r"`(\w+)`", rest)),
                           tuple(re.findall(ID_PATTERN, settled)), body)
    return found


@cache
def is_rule_id(value: object) -> bool:
    """Whether ``value`` is written as a rule id (:data:`ID_PATTERN`; it need not exist)."""
    return isinstance(value, str) and re.fullmatch(ID_PATTERN, value) is not None


def entries() -> dict[str, Entry]:
    """Every entry of every page, by id, in page order."""
    out: dict[str, Entry] = {}
    for page in PAGES:
        for rid, e in parse(page, markdown(page)).items():
            if rid in out:
                raise RulebookError(f"{rid} is on both {out[rid].page}.md and {page}.md")
            out[rid] = e
    return out


def ids() -> set[str]:
    """Every rule id of the rulebook."""
    return set(entries())


def entry(rule_id: str) -> Entry:
    """The entry of a rule id (``SR-17``); :class:`RulebookError` for an id the rulebook has
    not."""
    try:
        return entries()[rule_id]
    except KeyError:
        raise RulebookError(f"the rulebook has no rule {rule_id!r}") from None


def text() -> str:
    """The whole rulebook as one markdown document: every page, in order."""
    return "\n\n".join(markdown(p).strip() for p in PAGES) + "\n"

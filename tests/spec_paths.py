"""The rules the tests check against: crazylab's own rulebook and its notation page, read from
this repository's ``crazylab/rulebook/`` (whichever build of crazylab is imported: the compiled
one copies them), so a fresh clone with nothing beside it collects and runs every test. Nothing
here reads a folder outside the repository."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from crazylab import rulebook

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "crazylab" / "rulebook"


@cache
def entries() -> dict[str, rulebook.Entry]:
    """Every entry of this repository's rulebook pages, by id."""
    out: dict[str, rulebook.Entry] = {}
    for page in rulebook.PAGES:
        out.update(rulebook.parse(page, (RULEBOOK / f"{page}.md").read_text(encoding="utf-8")))
    return out


def rule_ids(*kinds: str) -> set[str]:
    """Every rule id of the rulebook, or those of the given kinds (``seed``, ``derived``,
    ``ruling``, ``convention``, ``vector``, ``option``, ``variant``)."""
    return {rid for rid, e in entries().items() if not kinds or e.kind in kinds}


def rule_kinds() -> dict[str, str]:
    """Rule id → kind, for the rules of the five rule sets (not the option pages' A*/V*)."""
    return {rid: e.kind for rid, e in entries().items() if e.kind not in ("option", "variant")}


def notation() -> str:
    """The notation page (cards, moves, seats, worked-example files)."""
    return (RULEBOOK / "notation.md").read_text(encoding="utf-8")

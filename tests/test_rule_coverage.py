"""Guard: every numbered rule, resolution step, deck item, ruling and test vector of
rulings.md is named by some test (as ``SR-10`` or ``SR_10``)."""

import re
from pathlib import Path

import pytest
from spec_paths import shared_spec

SPEC = shared_spec("rulings.md").read_text()
TESTS = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py")
                if p.name != Path(__file__).name)

FAMILIES = {
    # family: (ids found in the rulebook, the least count the rulebook holds)
    "common": (set(re.findall(r"\*\*(C-\d+)\b", SPEC)), 16),
    "site rules": (set(re.findall(r"\*\*(SR-\d+)\*\*", SPEC)), 25),
    "app rules": (set(re.findall(r"\*\*(AP-\d+)\*\*", SPEC)), 18),
    "music": (set(re.findall(r"\*\*(MU-[DT]?\d+)\*\*", SPEC))
              | set(re.findall(r"^\| (MU-Q\d+) \|", SPEC, flags=re.M)), 32 + 6 + 37 + 11),
    "breens": (set(re.findall(r"\b(BR-(?:M|Q)?\d+)\b", SPEC)), 32 + 9 + 55),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_id_is_named_by_a_test(family):
    ids, least = FAMILIES[family]
    assert len(ids) >= least, "the rulebook parser lost rules"
    missing = {i for i in ids if not re.search(i.replace("-", "[-_]") + r"(?!\d)", TESTS)}
    assert missing == set()

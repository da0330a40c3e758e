"""Guard: every numbered rule, resolution step, deck item and ruling of the rulebook
(``crazylab/rulebook/``) is named by some test (as ``SR-10`` or ``SR_10``)."""

import re
from pathlib import Path

import pytest
from spec_paths import rule_ids

pytestmark = pytest.mark.engine

IDS = rule_ids()
TESTS = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py")
                if p.name != Path(__file__).name)


def of_family(pattern: str) -> set[str]:
    return {i for i in IDS if re.fullmatch(pattern, i)}


FAMILIES = {
    # family: (ids of the rulebook, the least count the rulebook holds)
    "common": (of_family(r"C-\d+"), 16),
    "site rules": (of_family(r"SR-\d+"), 25),
    "app rules": (of_family(r"AP-\d+"), 18),
    "music": (of_family(r"MU-[DTQ]?\d+"), 32 + 6 + 37 + 11),
    "breens": (of_family(r"BR-[MQ]?\d+"), 32 + 9 + 55),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_rule_id_is_named_by_a_test(family):
    ids, least = FAMILIES[family]
    assert len(ids) >= least, "the rulebook parser lost rules"
    missing = {i for i in ids if not re.search(i.replace("-", "[-_]") + r"(?!\d)", TESTS)}
    assert missing == set()

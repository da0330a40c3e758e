"""The engine bugs of issue 21, each with a test that failed on the code before the fix:
``determinize`` rebuilding a variant's state (the direction of play after a reverse), and
Crazy Breens hits keeping their own card's kind when one action makes hits from two kinds
(rulings BR-M2, BR-M3, BR-Q50)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import crazylab as cl
from crazylab.bots import MonteCarloBot, determinize
from crazylab.engine.events import DREW, EVENT_KINDS
from crazylab.engine.game import Game
from crazylab.engine.phases import PHASE_PENALTY, PHASE_PLAY, PHASES
from crazylab.engine.rules import rules

pytestmark = pytest.mark.engine

# -- determinize after a reverse (house action_cards) ------------------------------------------


def _reversed_game() -> Game:
    """Three players; seat 0's Queen reverses play, so seat 2 is to play, then seat 1."""
    r = cl.rules("crazy-eights", action_cards="Q=reverse")
    g = Game.from_position(r, 3, hands=[["QH", "5C", "KD"], ["7H", "3C", "4C"],
                                        ["4H", "10H", "9C"]],
                           stock=["10D", "JD", "KC", "4S", "6D", "9S"], discard=["6H"], seed=5)
    g.push("QH")
    assert (g.to_play, dict(g.public_extra())["direction"]) == (2, "anticlockwise")
    return g


def test_determinize_keeps_the_direction_of_play_after_a_reverse():
    g = _reversed_game()
    obs = g.observation(2)
    for seed in range(5):
        world = determinize(obs, random.Random(seed))
        assert world is not None
        assert dict(world.public_extra())["direction"] == "anticlockwise"
        assert world.to_play == 2 and sorted(world.hands[2]) == sorted(g.hands[2])
        world.push("10H")  # no action card: the turn passes on in the direction of play
        g2 = _reversed_game()
        g2.push("10H")
        assert world.to_play == g2.to_play == 1


def test_mc_rollouts_follow_the_direction_of_play():
    """Every world the mc bot rolls out runs anticlockwise, as the real game does."""
    g = _reversed_game()
    seen: list[str] = []
    import crazylab.bots as bots
    real = bots.determinize

    def spy(obs, rng):
        world = real(obs, rng)
        if world is not None:
            seen.append(dict(world.public_extra())["direction"])
        return world

    bots.determinize = spy
    try:
        move = MonteCarloBot(playouts=4).choose(g.observation(2), random.Random(1))
    finally:
        bots.determinize = real
    assert move in g.legal_moves()
    assert seen and set(seen) == {"anticlockwise"}


# -- Crazy Breens: each hit keeps its own card (BR-M2, BR-M3, BR-Q50) --------------------------

BR = "crazy-breens"


def _breens(p0: list[str], others: list[list[str]], stock: list[str], **opts: object) -> Game:
    return Game.from_position(rules(BR, queen_drop_count=2, **opts), 4, hands=[p0, *others],
                              stock=stock, discard=["6S"], seed=7)


STOCK = ["10C", "10D", "10H", "6C", "6D", "6H", "5C", "5D"]


def test_a_jokers_hit_cannot_be_countered_when_a_two_follows_it():
    """Queen, drop a joker, drop a 2: seat 1's hit is the joker's (4 cards), which a Jack
    does not counter under jack_counters_joker=false; seat 2's is the 2's."""
    g = _breens(["QS", "JK", "2C", "9C"], [["JC", "4C"], ["JD", "3H"], ["3S", "4S"]], STOCK,
                jack_counters_joker=False)
    for m in ("QS", "JK:D", "2C"):
        g.push(m)
    assert (g.to_play, g.phase) == (1, "penalty")
    assert g.legal() == ["draw"]
    g.push("draw")
    g.push("draw")
    g.push("draw")
    g.push("draw")
    assert (g.to_play, g.phase) == (2, "penalty")
    assert "JD" in g.legal()  # the 2's hit is countered as ever


def test_a_twos_hit_keeps_its_mid_draw_window_when_a_joker_follows_it():
    """Queen, drop a 2, drop a joker: seat 1 draws for the 2's hit; a Jack drawn first may
    counter under mid_draw_applies_to=twos_only."""
    g = _breens(["QS", "2C", "JK", "9C"], [["3H", "4H"], ["3D", "5H"], ["3S", "4S"]],
                ["JD", *STOCK], mid_draw_applies_to="twos_only")
    for m in ("QS", "2C", "JK:D"):
        g.push(m)
    assert (g.to_play, g.phase) == (1, "penalty")
    g.push("draw")
    assert g.to_play == 1 and "JD" in g.legal()
    g.push("JD")
    assert g.to_play == 2 and g.phase == "play"  # the counter ends the cycle (BR-27)


def test_an_ace_cannot_pass_on_a_twos_draw():
    """Queen, drop a 2, drop an Ace: seat 1's hit is the 2's; under draw_passing it may pass
    it on with a 2, never with an Ace."""
    g = _breens(["QS", "2C", "AC", "9C"], [["AH", "2H"], ["3D", "5H"], ["3S", "4S"]], STOCK,
                draw_passing=True)
    for m in ("QS", "2C", "AC"):
        g.push(m)
    assert (g.to_play, g.phase) == (1, "penalty")
    assert g.legal() == ["2H", "draw"]


# -- named contracts: event kinds and phases as constants, a penalty draw as a field -----------

ROOT = Path(__file__).resolve().parents[1]


def _bare_contract_compares(source: str) -> list[int]:
    """The lines where an event kind or a phase (``x.kind``, ``x.phase``, ``kind``, ``phase``)
    is compared with a text literal that is an event kind or a phase."""
    known = set(EVENT_KINDS) | set(PHASES)
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        ops = [node.left, *node.comparators]
        if not any((isinstance(o, ast.Attribute) and o.attr in ("kind", "phase"))
                   or (isinstance(o, ast.Name) and o.id in ("kind", "phase")) for o in ops):
            continue
        for o in ops:
            items = o.elts if isinstance(o, (ast.Tuple, ast.List, ast.Set)) else [o]
            if any(isinstance(i, ast.Constant) and i.value in known for i in items):
                out.append(node.lineno)
    return sorted(set(out))


def test_the_scan_finds_a_bare_compare():
    assert _bare_contract_compares('if e.kind == "drew" or g.phase in ("play", "x"):\n  pass'
                                   ) == [1]
    assert _bare_contract_compares("if e.kind == DREW and phase == PHASE_PLAY:\n  pass") == []


def test_no_module_compares_an_event_kind_or_a_phase_with_a_bare_text():
    found = []
    for folder in (ROOT / "crazylab",):
        for path in sorted(folder.rglob("*.py")):
            if path == ROOT / "crazylab" / "engine" / "events.py":
                continue  # where the kinds are defined
            for line in _bare_contract_compares(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "compare with the constants of engine/events.py, engine/phases.py: " \
        + ", ".join(found)


def test_the_constants_keep_their_values():
    assert set(EVENT_KINDS) >= {"played", "drew", "dealt", "penalty", "jumped_in"}
    assert len(EVENT_KINDS) == len(set(EVENT_KINDS)) == 17
    assert (PHASE_PLAY, PHASE_PENALTY) == ("play", "penalty") and len(set(PHASES)) == 8


def _penalty_draws(g: Game) -> tuple[list, list]:
    drew = [e for e in g.events if e.kind == DREW]
    return [e for e in drew if e.penalty], [e for e in drew if not e.penalty]


def test_penalty_is_set_exactly_on_penalty_draws():
    # Crazy Breens: a 2's hit drawn card by card; then seat 2 draws for itself
    g = _breens(["2S", "9C", "5H"], [["3H", "4H"], ["3D", "7D"], ["3S", "4S"]], STOCK)
    g.push("2S")
    g.push("draw")
    g.push("draw")
    assert g.to_play == 2 and g.phase == PHASE_PLAY
    g.push("draw")
    hits, own = _penalty_draws(g)
    assert [e.seat for e in hits] == [1, 1] and all(e.why == "hit" for e in hits)
    assert [e.seat for e in own] == [2] and not own[0].why
    # house draw2: the victim's penalty cards, then an ordinary draw
    r = cl.rules("crazy-eights", action_cards="2=draw2")
    h = Game.from_position(r, 2, hands=[["2H", "5C"], ["9C", "3C"]],
                           stock=["10D", "JD", "KC", "4S", "6D", "9S"], discard=["6H"], seed=5)
    h.push("2H")
    h.push("draw")
    h.push("draw")
    hits, own = _penalty_draws(h)
    assert [e.seat for e in hits] == [1, 1] and not own
    h.push("draw")
    hits, own = _penalty_draws(h)
    assert len(hits) == 2 and [e.seat for e in own] == [0]
    # another seat's view hides the cards drawn but keeps the mark (visible_to)
    seen = [e for e in g.observation(0).events if e.kind == DREW]
    assert [e.penalty for e in seen] == [True, True, False] and not seen[0].cards

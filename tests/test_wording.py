"""Every word right (issue 19): intervals named the way each level's rule names them, cards in
symbols in every sentence a learner reads, names and grammar in the move log ("you are hit",
"You win"), piles counted from 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crazylab.engine.cards import Card, sort_key
from crazylab.engine.game import Game, IllegalMove
from crazylab.engine.rules import PRESETS
from crazylab.engine.rules import rules as get_rules

pytestmark = pytest.mark.oldest

README = Path(__file__).resolve().parents[1] / "README.md"

#: a card written as a code (``3D``, ``10H``, ``AD``) instead of a symbol (``3♦``)
CODE = re.compile(r"(?<![\w@])(?:10|[2-9AJQK])[CDHS](?![\w♯♭#])")
#: what may show move notation: the part of a sentence that says what to type
TYPED = re.compile(r"\(typed[^)]*\)")


def codes(text: str) -> list[str]:
    return CODE.findall(TYPED.sub("", text))


# -- intervals, level by level ---------------------------------------------------------------

#: each level's words for a legal step, as its rule (notebooks/sheets) says it
LEVEL_WORDS = {
    1: {"one letter step up", "one letter step down"},
    2: {"a semitone up", "a semitone down"},
    3: {"a minor third up", "a minor third down", "a major third up", "a major third down"},
    4: {"a whole tone up"},
    5: {"a perfect fourth up (or a fifth down)", "a perfect fifth up (or a fourth down)"},
}
#: words that a level's hints must never use for a legal card
NEVER = re.compile(r"second|sixth|seventh|tritone|unison")


def _positions(level: int):
    """For every pitched top card of the level's deck: seat 0 holds every other distinct
    card of the deck but the wilds (the other piles, if any, show the next cards)."""
    r = get_rules(f"crazy-8s-level-{level}")
    deck = [c for c in sorted(set(r.deck), key=sort_key)
            if not r.is_wild(c) and r.pitches.pitch(c) is not None]
    for i in range(len(deck)):
        tops = [deck[(i + k * 5) % len(deck)] for k in range(r.piles)]
        hand = [c for c in deck if c not in tops]
        yield Game.from_position(r, 2, hands=[hand, []], piles=[[t] for t in tops], to_play=0)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_legal_hints_name_the_interval_as_the_levels_rule_does(level):
    from crazylab.seat.reasons import verdicts

    checked = 0
    for game in _positions(level):
        for v in verdicts(game):
            if not v.legal:
                continue
            for part in v.reason.split("; "):  # one part per pile it fits
                assert any(w in part for w in LEVEL_WORDS[level]), v.reason
                assert not NEVER.search(part), v.reason
                checked += 1
            assert not codes(v.reason) and "pile 0" not in v.reason, v.reason
    assert checked >= 20


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_interval_explorer_names_the_interval_as_the_levels_rule_does(level):
    pytest.importorskip("anywidget")
    from crazylab.widgets.music import IntervalExplorer

    r = get_rules(f"crazy-8s-level-{level}")
    ex = IntervalExplorer(r, top="4D")
    fitting = [c for c in sorted(set(r.deck), key=sort_key) if not r.is_wild(c) and ex.fits(c)]
    assert fitting
    for c in fitting:
        why = ex.explain(c)
        assert any(w in why for w in LEVEL_WORDS[level]), why
        assert not NEVER.search(why.split("this level accepts")[0]), why


def test_level_2_d_on_d_sharp_is_a_semitone_down_not_a_major_seventh_up():
    """The report: a legal 4♦ (D) on D♯ was explained as "a major seventh up"."""
    from crazylab.seat.reasons import verdicts

    # J♦ is D♯ in the A-based map; 4♦ is D
    g = Game.from_position("crazy-8s-level-2", 2, hands=[["4D", "5C"], ["9S"]],
                           piles=[["JD"], ["3C"]], to_play=0)
    reason = {v.card: v.reason for v in verdicts(g)}[Card.parse("4D")]
    assert reason == "On pile 1, 4♦ (D) is a semitone down from D♯.", reason


def test_refusals_name_steps_the_same_way_and_count_piles_from_one():
    g = Game.from_position("crazy-8s-level-2", 2, hands=[["4H", "5C"], ["9S"]],
                           piles=[["3D"], ["KS"]], to_play=0)
    with pytest.raises(IllegalMove) as e:
        g.push("4H@0")
    text = str(e.value)
    assert text.startswith("4♥ (D) is a whole tone up from C on pile 1"), text
    with pytest.raises(IllegalMove) as e:
        g.push("4H@2")
    assert "no pile 3 (@2)" in str(e.value) and "2 piles" in str(e.value)


# -- cards in symbols ------------------------------------------------------------------------


def test_the_readme_prints_the_engines_own_refusal():
    g = Game.from_position("crazy-eights", 2, hands=[["6C", "KH", "8S", "3D"], ["4S"]],
                           stock=["2H"], discard=["6H"])
    with pytest.raises(IllegalMove) as e:
        g.push("3D")
    assert str(e.value) == "3♦ matches neither the rank nor the suit of 6♥."
    assert f"IllegalMove: {e.value}" in README.read_text()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_refusal_and_log_line_names_cards_by_symbol(preset):
    """Random hands of every preset: every card of the hand that is refused is explained
    with symbols (move notation only where the sentence says what to type), and every event
    describes itself with symbols."""
    r = get_rules(preset)
    seen = 0
    for seed in range(6):
        g = Game.new(r, max(2, r.min_players), seed=seed)
        for _ in range(60):
            if g.over:
                break
            for c in set(g.hands[g.to_play]):
                for move in (str(c), f"{c}@0" if r.piles > 1 else str(c)):
                    why = g.explain(move)
                    assert not codes(why), (move, why)
                    seen += bool(why)
            for word in ("draw", "pass", "end"):
                assert not codes(g.explain(word)), g.explain(word)
            g.push(g.legal_moves()[seed % len(g.legal_moves())])
        for e in g.events:
            assert not codes(e.describe()), e.describe()
    assert seen


# -- names and grammar in the move log -------------------------------------------------------

NAMES = ["You", "Bot 1", "Bot 2"]
BAD = re.compile(r"You's|You:|You is|You was|You loses|You drops|You wins|You holds|"
                 r"\byou is\b|\byou loses\b|\byou wins\b|\byou holds\b|\bseat \d|\bSeat \d|"
                 r"on pile 0\b")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_move_log_names_you_in_the_second_person(preset):
    r = get_rules(preset)
    players = max(3, r.min_players) if r.max_players >= 3 else r.min_players
    for seed in range(12):
        g = Game.new(r, players, seed=seed)
        g.play_random(seed=seed)
        names = (NAMES + [f"Bot {s}" for s in range(3, players)])[:players]
        for e in g.events:
            text = e.describe(viewer=0, names=names)
            assert not BAD.search(text), text
            assert text[:1].isupper() or text[:1] in "🃏", text


def test_event_sentences_people_read():
    from crazylab.engine.events import Event

    c = Card.parse
    hit = Event("penalty", 0, count=2, note="hit once by seat 2's two: must draw 2 and lose the "
                                            "turn, or counter with a Jack (BR-M3).")
    assert hit.describe(0, NAMES) == ("You are hit once by Bot 2's two: must draw 2 and lose "
                                      "the turn, or counter with a Jack (BR-M3).")
    assert hit.describe() == ("Seat 0 is hit once by seat 2's two: must draw 2 and lose the "
                              "turn, or counter with a Jack (BR-M3).")
    by_you = Event("penalty", 1, count=2, note="hit once by seat 0's two: must draw 2.")
    assert by_you.describe(0, NAMES) == "Bot 1 is hit once by your two: must draw 2."
    assert Event("skipped", 0, note="loses the turn (BR-M4).").describe(0, NAMES) == \
        "You lose the turn (BR-M4)."
    assert Event("skipped", 1, note="skipped (a joker's victim loses a turn)").describe(
        0, NAMES) == "Bot 1 is skipped (a joker's victim loses a turn)"
    assert Event("dealt", 0, count=5).describe(0, NAMES) == "You were dealt 5 cards."
    assert Event("called", 1, call="F#", pile=1).describe(0, NAMES) == \
        "Bot 1 called F♯ on pile 2."
    assert Event("played", 0, (c("5H"),), pile=0).describe(0, NAMES) == \
        "You played 5♥ on pile 1."
    assert Event("last_card", 0, count=2, note="did not call last card: draws 2 cards "
                 "(last_card_call, A14).").describe(0, NAMES) == \
        "You did not call last card: draw 2 cards (last_card_call, A14)."
    flip = Event("flipped", 0, (c("5D"),), note="the King's deck play turns 5♦ (BR-20).")
    assert flip.describe(0, NAMES) == "Your King's deck play turns 5♦ (BR-20)."
    assert flip.describe() == "Seat 0's King's deck play turns 5♦ (BR-20)."
    passed_on = Event("penalty", 0, (c("2S"),), count=4, note=(
        "seat 2 passes the draw on with 2♠: seat 0 must draw 4 and lose the turn, or answer "
        "(draw_passing, A5)."))
    assert passed_on.describe(0, NAMES).startswith("Bot 2 passes the draw on with 2♠: you must")


def test_the_end_of_a_hand_says_you_win():
    g = Game.from_position("crazy-eights", 3, hands=[["5H"], ["9C", "KS"], ["2D"]],
                           discard=["6H"], stock=["3C"], to_play=0)
    g.push("5H")
    end = g.events[-1]
    assert end.describe(0, NAMES) == "You win the hand, with no cards left."
    assert end.describe() == "Seat 0 wins the hand, with no cards left."
    g = Game.from_position("crazy-eights", 3, hands=[["5H"], ["9C", "KS"], ["2D"]],
                           discard=["6H"], stock=["3C"], to_play=2)
    g.push("draw")
    assert g.events[-1].kind != "ended"


def test_a_blocked_hand_names_its_winners():
    from crazylab.engine.events import Event
    from crazylab.engine.scoring import blocked_result

    r = get_rules("crazy-8s-level-2")
    _, note = blocked_result(r, [[c] for c in map(Card.parse, ["3C", "4C", "5C"])][:2]
                             + [[Card.parse("6C"), Card.parse("7C")]])
    said = Event("ended", None, note=note).describe(0, NAMES)
    assert said == "The hand is blocked: you and Bot 1 share it, with the fewest cards (1 each).", \
        said
    _, note = blocked_result(get_rules("crazy-eights-quick"),
                             [[Card.parse("KC")], [Card.parse("2C")], [Card.parse("QC")]])
    said = Event("ended", None, note=note).describe(0, NAMES)
    assert said == "The hand is blocked: Bot 1 wins it, with the fewest points (2).", said


def test_the_printed_game_counts_piles_from_one_and_names_the_notation():
    text = str(Game.from_position("crazy-8s-level-2", 2, hands=[["4H"], ["9S"]],
                                  piles=[["3D"], ["KS", "5C"]], to_play=0))
    assert "pile 1 (@0): 3♦  [1 card]" in text and "pile 2 (@1): 5♣  [2 cards]" in text


def test_a_forgotten_last_card_call_is_a_whole_sentence():
    g = Game.from_position(get_rules("crazy-eights-classic", last_card_call=True), 2,
                           hands=[["5H", "9H"], ["2C", "3C"]], discard=["6H"],
                           stock=["4S", "7S", "KD"], to_play=0)
    g.push("5H")
    said = [e.describe(0, NAMES[:2]) for e in g.events if e.kind == "last_card"]
    assert said == ["You did not call last card: draw 2 cards (last_card_call, A14)."], said

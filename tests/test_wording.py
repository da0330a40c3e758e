"""Every word right (issue 19): intervals named the way each level's rule names them, cards in
symbols in every sentence a learner reads, names and grammar in the move log ("you are hit",
"You win"), piles counted from 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crazylab.engine.cards import Card, sort_key
from crazylab.engine.game import Game, IllegalMove
from crazylab.engine.narrator import Narrator, story
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
    from crazylab.engine.reasons import verdicts

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
    from crazylab.engine.reasons import verdicts

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
        for text in story(g):
            assert not codes(text), text
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
        for text in story(g, 0, names):
            assert not BAD.search(text), text
            assert text[:1].isupper() or text[:1] in "🃏", text


def test_event_sentences_people_read():
    from crazylab.engine.events import WHY_HIT, WHY_JOKER, WHY_MISSED, WHY_PASSED_ON, Event

    c = Card.parse
    breens, music = get_rules("crazy-breens"), get_rules("crazy-8s-level-2")
    you = Narrator(breens, NAMES, 0)
    you.say(Event("played", 2, (c("2S"),)))
    hit = Event("penalty", 0, count=2, why=WHY_HIT, by=2)
    assert you.say(hit).text == ("Bot 2's 2♠ hits you: you must draw 2 cards and lose your "
                                 "turn, unless you counter with a Jack.")
    anyone = Narrator(breens)
    anyone.say(Event("played", 2, (c("2S"),)))
    assert anyone.say(hit).text == ("Seat 2's 2♠ hits seat 0: seat 0 must draw 2 cards and "
                                    "lose the turn, unless they counter with a Jack.")
    assert you.say(Event("skipped", 0, why=WHY_HIT)).text == "You lose your turn."
    assert you.say(Event("skipped", 1, why=WHY_JOKER)).text == "Bot 1 loses the turn to the joker."
    assert you.say(Event("dealt", 0, count=5)).text == "You were dealt 5 cards."
    tune = Narrator(music, NAMES, 0)
    assert tune.say(Event("called", 1, call="F#", pile=1)).text == \
        "Bot 1 called the pitch F♯ on pile 2."
    assert tune.say(Event("played", 0, (c("5H"),), pile=0)).text == "You played 5♥ on pile 1."
    assert you.say(Event("last_card", 0, count=2, why=WHY_MISSED)).text == \
        "You forgot to say “Last card!” and draw 2 cards."
    you.say(Event("played", 0, (c("KS"),)))
    assert you.say(Event("flipped", 0, (c("5D"),))).text == \
        "Your K♠ turns 5♦ from the stock onto the pile, as your play."
    you.say(Event("played", 2, (c("2H"),)))
    passed_on = Event("penalty", 0, (c("2H"),), count=4, why=WHY_PASSED_ON, by=2)
    assert you.say(passed_on).text.startswith("Bot 2's 2♥ hits you: you must draw 4 cards")


def test_the_end_of_a_hand_says_you_win():
    g = Game.from_position("crazy-eights", 3, hands=[["5H"], ["9C", "KS"], ["2D"]],
                           discard=["6H"], stock=["3C"], to_play=0)
    g.push("5H")
    assert story(g, 0, NAMES)[-1] == ("You went out and win the hand with 21 points; Bot 1 "
                                      "and Bot 2 score 0 points.")
    assert story(g)[-1] == ("Seat 0 went out and wins the hand with 21 points; seats 1 and 2 "
                            "score 0 points.")
    assert Narrator(g.rules, NAMES, 0).say(g.events[-1]).text == "You went out and win the hand."
    g = Game.from_position("crazy-eights", 3, hands=[["5H"], ["9C", "KS"], ["2D"]],
                           discard=["6H"], stock=["3C"], to_play=2)
    g.push("draw")
    assert g.events[-1].kind != "ended"


def test_a_blocked_hand_names_its_winners():
    from crazylab.engine.scoring import blocked_result

    r = get_rules("crazy-8s-level-2")
    result = blocked_result(r, [[c] for c in map(Card.parse, ["3C", "4C", "5C"])][:2]
                            + [[Card.parse("6C"), Card.parse("7C")]])
    said = Narrator(r, NAMES, 0).result(result)
    assert said == ("The hand is blocked: you and Bot 1 win it with −1 point; Bot 2 scores "
                    "−2 points."), said
    result = blocked_result(get_rules("crazy-eights-quick"),
                            [[Card.parse("KC")], [Card.parse("2C")], [Card.parse("QC")]])
    said = Narrator(get_rules("crazy-eights-quick"), NAMES, 0).result(result)
    assert said.startswith("The hand is blocked: Bot 1 wins it"), said


def test_the_printed_game_counts_piles_from_one_and_names_the_notation():
    text = str(Game.from_position("crazy-8s-level-2", 2, hands=[["4H"], ["9S"]],
                                  piles=[["3D"], ["KS", "5C"]], to_play=0))
    assert "pile 1 (@0): 3♦  [1 card]" in text and "pile 2 (@1): 5♣  [2 cards]" in text


def test_a_forgotten_last_card_call_is_a_whole_sentence():
    g = Game.from_position(get_rules("crazy-eights-classic", last_card_call=True), 2,
                           hands=[["5H", "9H"], ["2C", "3C"]], discard=["6H"],
                           stock=["4S", "7S", "KD"], to_play=0)
    g.push("5H")
    said = [s.text for s in Narrator(g.rules, NAMES[:2], 0).sentences(g.events)
            if s.event.kind == "last_card"]
    assert said == ["You forgot to say “Last card!” and draw 2 cards."], said

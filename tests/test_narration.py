"""The narration a learner reads (issue 20, item 3): every worked-example step narrated, in
plain words and one notation (card symbols, never bare codes such as ``3D``), never teaching a
wrong rule (the musical main game's 8 calls nothing, MU-12; in the levels a called pitch is the
pile's new reference and a unison does not fit it, MU-26/MU-29), and every pitch spelt as its
card spells it: sharps on ♦ ♣, flats on ♥ ♠ (MU-Q32), wherever a learner reads a pitch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import crazylab as cl
from crazylab.engine.cards import Card
from crazylab.engine.game import Game
from crazylab.engine.pitch import PitchMap, card_pitch_name
from crazylab.examples import list_examples, load_example
from crazylab.music import melody
from crazylab.sheet import rules_sheet

pytestmark = pytest.mark.oldest

ROOT = Path(__file__).resolve().parent.parent
SHEETS = ROOT / "notebooks" / "sheets"
LESSONS = sorted((ROOT / "notebooks" / "lessons").glob("[0-9]*.py"))
EXAMPLES = list_examples()

#: the twelve pitch classes as ♦/♣ cards spell them, and as ♥/♠ cards do (written out here,
#: not read from the module under test)
SHARPS = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"]
FLATS = ["C", "D♭", "D", "E♭", "E", "F", "G♭", "G", "A♭", "A", "B♭", "B"]

#: a card written in code (3D, 10C, JK, 8S:D), not with its symbol; text in backticks is
#: move notation marked as such and is not read
BARE_CODE = re.compile(r"(?<![\w♠♥♦♣`])(?:(?:10|[2-9AJQK])[CDHS]|JK)(?![a-z])")
#: a card and, in brackets right after it, the pitch it sounds: ``K♠ (A♭``
CARD_PITCH = re.compile(r"(?<![\w])((?:10|[2-9AJQK])[♣♦♥♠]) \(([A-G][♯♭]?)(?![\w♯♭])")


def narration(name: str) -> list[tuple[int, str]]:
    ex = load_example(name)
    return [(i, s.say) for i, s in enumerate(ex.steps, 1)]


def bare_codes(text: str) -> list[str]:
    return BARE_CODE.findall(re.sub(r"`[^`]*`", "", text))


# -- every step narrated ---------------------------------------------------------------------


def test_there_are_worked_examples_to_read():
    assert len(EXAMPLES) >= 90
    assert sum(len(narration(n)) for n in EXAMPLES) >= 350


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_step_is_narrated_in_words(name):
    from crazylab.widgets.explainer import plain_words

    for i, say in narration(name):
        assert say.strip(), f"{name} step {i} has no narration"
        words, _ = plain_words(say)
        # a sentence once the rule ids are taken out (the explainer shows those as badges)
        assert len(words) >= 12, f"{name} step {i}: {words!r}"
        assert words[0].isupper() or words[0].isdigit() or words[0] in "♠♥♦♣🃏", \
            f"{name} step {i}: {words!r}"
        assert words.rstrip(")").endswith((".", "!", "?", "…")), f"{name} step {i}: {words!r}"


def test_the_plain_words_check_fails_on_a_bare_fragment():
    from crazylab.widgets.explainer import plain_words

    words, _ = plain_words("1 of 4")
    assert not words.endswith(".")


# -- one notation ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLES)
def test_narration_writes_cards_with_symbols(name):
    ex = load_example(name)
    for i, say in [(0, ex.title)] + narration(name):
        assert not bare_codes(say), f"{name} step {i}: {bare_codes(say)} in {say!r}"


def test_bare_codes_are_found_outside_marked_notation():
    assert bare_codes("it may be played with the call (9C!) or 3D or JK") == ["9C", "3D", "JK"]
    assert bare_codes("type `9C!` to call; 10♣, A14, MU-Q8, BR-Q5, SR-T3") == []


# -- no wrong rule: the musical main game's eight --------------------------------------------

_EIGHT = re.compile(r"(?<![\w♯♭])(?:8[♣♦♥♠]?|8s|eights?)\b", re.I)
_CALLS = re.compile(r"\b(?:call(?:s|ed|ing)?|announc(?:e|es|ed|ing)|names?|chooses?)\b[^.;]*"
                    r"\bsuit|calling [♣♦♥♠]", re.I)
_DENIED = re.compile(r"\bown suit\b|\bnot\b|\bno\b|\bnever\b|\bnothing\b|refused", re.I)


def says_an_eight_calls(text: str) -> bool:
    """Whether a sentence has an eight call or announce a suit (and does not deny it)."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if _EIGHT.search(sentence) and _CALLS.search(sentence) and not _DENIED.search(sentence):
            return True
    return False


def test_the_eight_check_fails_on_the_old_mu_t1_narration():
    old = ("MU-T1: the top card is 5♥, the note E. Any heart fits (K♥), any 5 fits (5♦ is E too: "
           "the same pitch, a unison), and so do the 8 and the joker, which must announce a "
           "suit. MU-Q8: you may also play nothing and draw two.")
    assert says_an_eight_calls(old)
    assert not says_an_eight_calls("8♣ makes clubs the suit, with no announcement.")


def test_musical_main_game_narration_never_has_an_eight_call_a_suit():
    main = [n for n in EXAMPLES if load_example(n).rules.eights == "own_suit"]
    assert "mu-t1-main-game-suit-or-pitch" in main and "mu-t2-eight-takes-its-own-suit" in main
    for name in main:
        ex = load_example(name)
        for i, say in [(0, ex.title), (0, ex.description)] + narration(name):
            assert not says_an_eight_calls(say), f"{name} step {i}: {say!r}"
        # and the engine agrees: no eight of this game is followed by a call
        events = ex.frames()[-1].game.events
        for e, after in zip(events, events[1:], strict=False):
            if e.kind == "played" and e.cards[-1].rank == 8:
                assert after.kind != "called", f"{name}: an eight called {after.call}"


# -- no wrong rule: the level sheets ---------------------------------------------------------

LEVELS = [n for n in cl.PRESETS if cl.rules(n).call_kind in ("letter", "pitch")]


def test_there_are_five_levels():
    assert [f"crazy-8s-level-{k}" for k in range(1, 6)] == LEVELS


@pytest.mark.parametrize("name", LEVELS)
def test_level_sheets_say_a_call_is_a_new_reference_not_something_to_follow(name):
    for text in (rules_sheet(cl.rules(name)), (SHEETS / f"{name}.md").read_text("utf-8")):
        assert "follow the call" not in text
        call = next(line for line in text.splitlines() if "**calls**" in line)
        assert "does not fit" in call and "becomes that pile's top" in call, call
    # a house rule that allows the unison says so instead
    unison = rules_sheet(cl.rules(name, allow_unison_in_levels=True))
    call = next(line for line in unison.splitlines() if "**calls**" in line)
    assert "fits too" in call and "does not fit" not in call, call
    assert "does not fit" not in unison


def test_level_4_sheet_names_the_step_from_the_called_pitch():
    call = next(line for line in rules_sheet(cl.rules("crazy-8s-level-4")).splitlines()
                if "**calls**" in line)
    assert "a whole tone up (and only up) from that pitch" in call


# -- pitches spelt by the card's suit --------------------------------------------------------


@pytest.mark.parametrize("pitch_map", ["A_based", "C_based"])
def test_the_spelling_helper_follows_the_suit(pitch_map):
    pm = PitchMap(pitch_map)
    for text in ["2", "3", "4", "5", "6", "7", "9", "10", "J", "Q", "K", "A"]:
        for suit, names in (("C", SHARPS), ("D", SHARPS), ("H", FLATS), ("S", FLATS)):
            c = Card.parse(text + suit)
            pc = pm.pitch(c)
            assert pc is not None
            assert pm.spell(pc, c) == card_pitch_name(pc, c) == names[pc], (c, pc)
            # a pitch the card does not sound (an announced one) keeps the sharp spelling
            assert pm.spell((pc + 1) % 12, c) == SHARPS[(pc + 1) % 12]
    assert card_pitch_name(6) == "F♯" and card_pitch_name(6, Card.parse("QS")) == "G♭"


def _misspelt(text: str, pm: PitchMap) -> list[str]:
    out = []
    for m in CARD_PITCH.finditer(text):
        c = Card.parse(m.group(1))
        pc = pm.pitch(c)
        if pc is not None and m.group(2) != (SHARPS if c.suit in (0, 1) else FLATS)[pc]:
            out.append(m.group(0))
    return out


def test_the_spelling_check_finds_a_sharp_on_a_spade():
    pm = PitchMap("A_based")
    assert _misspelt("pile 2 shows K♠ (G♯) and K♦ (G♯)", pm) == ["K♠ (G♯"]
    assert _misspelt("K♠ (A♭) and K♦ (G♯), J♥ (E♭)", pm) == []


@pytest.mark.parametrize("name", [n for n in EXAMPLES
                                  if load_example(n).rules.call_kind != "suit"
                                  or load_example(n).rules.matching == "suit_pitch"])
def test_example_narration_and_refusals_spell_pitches_by_suit(name):
    ex = load_example(name)
    pm = ex.rules.pitches
    texts = [ex.title, ex.description] + [say for _, say in narration(name)]
    frames = ex.frames()
    for before, frame in zip(frames, frames[1:], strict=False):
        if frame.error is None:
            continue
        texts.append(frame.error)
        # "… from A♭ on pile 2": a pile's reference as its top card spells it
        game = before.game
        for m in re.finditer(r"from ([A-G][♯♭]?) on pile (\d+)", frame.error):
            p = int(m.group(2)) - 1
            top = game.piles[p][-1]
            want = pm.spell(game.refs[p], top)
            assert m.group(1) == want, f"{name} step {frame.index}: {frame.error!r}"
    for text in texts:
        assert not _misspelt(text, pm), f"{name}: {_misspelt(text, pm)} in {text!r}"


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_sources_spell_pitches_by_suit(lesson):
    text = lesson.read_text(encoding="utf-8")
    assert not _misspelt(text, PitchMap("A_based")), _misspelt(text, PitchMap("A_based"))


def test_explanations_name_a_spade_reference_with_a_flat():
    # K♠ sounds A♭, K♦ sounds G♯: the refusal names the reference as the top card spells it
    for top, name in (("KS", "A♭"), ("KD", "G♯")):
        g = Game.from_position("crazy-8s-level-2", 2, hands=[["2C", "5C"], ["9S"]],
                               piles=[["3D"], [top]], to_play=0)
        with pytest.raises(ValueError) as e:
            g.push("2C@1")
        assert f"minor third up from {name} on pile 2" in str(e.value)


def test_reasons_and_melody_spell_by_suit():
    from crazylab.engine.reasons import verdicts

    g = Game.from_position("crazy-8s-level-2", 2, hands=[["7D", "AS", "5C"], ["9S"]],
                           piles=[["3D"], ["KS"]], to_play=0)
    reasons = {v.card: v.reason for v in verdicts(g)}
    assert "from A♭" in reasons[Card.parse("7D")] and "G♯" not in reasons[Card.parse("7D")]
    g.push("AS@1")
    g.push("end")
    names = melody(g).names()
    assert names[-1] == "A"
    # Q♠ sounds G♭ (a spade): the melody names it so, and the step from F to it
    g2 = Game.from_position("crazy-8s-level-2", 2, hands=[["QS", "5C"], ["9S"]],
                            piles=[["3D"], ["6H"]], to_play=0)
    g2.push("QS@1")
    assert melody(g2).names()[-1] == "G♭"
    g3 = Game.from_position("crazy-8s-level-2", 2, hands=[["QD", "7H", "5C"], ["9S"]],
                            piles=[["3D"], ["6H"]], to_play=0)
    g3.push("QD@1")
    g3.push("7H@1")
    assert melody(g3).names()[-2:] == ["F♯", "G"]
    assert melody(g3).steps()[-1] == "F♯ → G: a semitone up"


def test_the_pile_in_force_names_a_pitch_by_its_card():
    from crazylab.seat.words import call_in_force

    g = Game.from_position("crazy-8s-level-2", 2, hands=[["2C", "8S"], ["9S"]],
                           piles=[["3D"], ["KS"]], to_play=0)
    assert [call_in_force(g.rules, g, p) for p in (0, 1)] == ["pitch C", "pitch A♭"]
    g.push("8S@1:Gb")
    assert call_in_force(g.rules, g, 1) == "called pitch F♯"  # a call is stored with a sharp
    main = Game.from_position("crazy-8s-music", 2, hands=[["2C", "8S"], ["9S"]],
                              discard=["KS"], to_play=0)
    assert call_in_force(main.rules, main, 0) == "suit ♠ spades or pitch A♭"


# -- narration that names a draw or a play names what the engine did -------------------------

_DOES = re.compile(r"\b[Ss]eat (\d) (draws|plays) ((?:10|[2-9AJQK])[♣♦♥♠])(?! or\b)")


def test_a_narrated_draw_or_play_is_what_the_engine_did():
    checked = 0
    for name in EXAMPLES:
        for frame in load_example(name).frames()[1:]:
            assert frame.step is not None
            for m in _DOES.finditer(frame.step.say):
                kind = "drew" if m.group(2) == "draws" else "played"
                done = [(e.seat, c.display) for e in frame.new_events if e.kind == kind
                        for c in e.cards]
                assert (int(m.group(1)), m.group(3)) in done, \
                    f"{name} step {frame.index}: {m.group(0)!r}, the engine: {done}"
                checked += 1
    assert checked >= 50


_REFUSED = re.compile(r"refus|\bnot\b|cannot|never|\bno\b|nowhere|\bonly\b|must|needs?\b",
                      re.I)


def test_a_refused_move_is_narrated_as_refused():
    refused = 0
    for name in EXAMPLES:
        for frame in load_example(name).frames()[1:]:
            if frame.error is not None:
                assert frame.step is not None
                assert _REFUSED.search(frame.step.say), \
                    f"{name} step {frame.index}: {frame.step.say!r} (the engine: {frame.error})"
                refused += 1
    assert refused >= 50

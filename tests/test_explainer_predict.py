"""Predict, then see (issue 20, item 5): the step explainer asks before it shows.

The Python tests drive :class:`StepExplainer` in predict mode over every step of worked
examples of each rule set (Crazy Eights, the app's rules, Crazy Breens, a music level): before
a step is answered, neither the narration, nor what changed, nor the legal moves are in the
widgets' values or in any message the widgets send to the browser (a recording comm); the
engine is the judge (the example's recorded move is right, another legal move is "legal, but",
an illegal pick is refused with the engine's own reason and the question stays open); once
answered the step reads exactly as it does outside predict mode. The ``browser`` test opens
``explain.ipynb?…&predict=1`` in Voilà and answers with the mouse and the keyboard.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import ipywidgets
import pytest

from crazylab.engine.moves import PLAY
from crazylab.widgets import StepExplainer
from crazylab.widgets import explainer as ex
from crazylab.widgets.explainer import plain_words

TURN = "sr-t1-t2-worked-turn-eight-calls-diamonds"
EXAMPLES = [
    TURN,  # Crazy Eights: a refused card, an eight's call
    "sr-t3-draw-until-playable",  # draws
    "ap-t3-quick-rule-three-draws-then-pass",  # the app's rules: draws, then a pass
    "br-t2-seed-three-twos-draw-six",  # Crazy Breens: a stack of 2s, how many cards
    "br-t3-three-players-wrap-around",  # a hit that wraps round: who is hit
    "br-t4-seed-ace-stacking",  # aces: skips, no cards
    "br-t6-counter-by-later-victim",  # a Jack's counter
    "br-t15-starter-two",  # a hit by the starter card
    "br-seed-queen-drops-two",  # a Queen's drop phase
    "mu-t5-level-1-letter-steps",  # music, level 1
    "mu-t1-main-game-suit-or-pitch",  # the musical main game
    "mu-t6-level-2-two-piles-semitones",  # music, level 2: two piles
]


def _text(value: str) -> str:
    value = re.sub(r"<(a|span) class='cl-rule-id'[^>]*>.*?</\1>", "", value)
    return _squash(html.unescape(re.sub(r"<[^>]+>", " ", value)))


def _squash(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip()


class _Recorder:
    """A comm that keeps what the widgets send to the browser."""

    sent: list[str] = []
    comm_id = "recorder"
    kernel = "yes"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _Recorder.sent.append(json.dumps(kwargs.get("data", {}), default=str,
                                         ensure_ascii=False))

    def open(self, *args: Any, **kwargs: Any) -> None:
        pass

    def on_msg(self, *args: Any, **kwargs: Any) -> None:
        pass

    def send(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        _Recorder.sent.append(json.dumps(data, default=str, ensure_ascii=False))

    def close(self, *args: Any, **kwargs: Any) -> None:
        pass


@pytest.fixture
def browser_sees(monkeypatch):
    """Every widget made in the test gets a comm that records its messages; the fixture
    returns a function giving the text sent since its last call."""
    import comm

    monkeypatch.setattr(comm, "create_comm", lambda **kw: _Recorder(**kw))
    monkeypatch.setattr(ipywidgets.Widget.comm, "klass", _Recorder, raising=False)
    _Recorder.sent = []

    def since() -> str:
        out = html.unescape("\n".join(_Recorder.sent))
        _Recorder.sent = []
        return out

    return since


def _narration(frame) -> str:
    """A piece of a step's narration long enough to be its own (or '')."""
    if frame.step is None or not frame.step.say:
        return ""
    words = plain_words(frame.step.say)[0]
    return words[:40] if len(words) >= 24 else ""


def _penalties(frame) -> dict[int, int]:
    return {e.seat: e.count for e in frame.new_events if e.kind == "penalty"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_predict_over_a_whole_example(name, browser_sees):
    """Every step: hidden until answered (widgets and messages), illegal picks refused with
    the engine's reason, the example's move right, another legal move "legal, but", then the
    step exactly as outside predict mode; the score counts what happened."""
    x = StepExplainer(name, predict=True)
    plain = StepExplainer(name)
    expect = {"right": 0, "legal": 0, "wrong": 0, "skipped": 0}
    asked_moves = 0
    for i in range(1, len(x.frames)):
        browser_sees()
        x.go(i)
        frame, before = x.frames[i], x.frames[i - 1].game
        said = _narration(frame)
        if x.question is None:  # nothing to predict: shown at once
            assert x.revealed()
        while x.question is not None:
            q = x.question
            sent = browser_sees()
            assert not x.revealed() and x.changes_html.value == ""
            assert " may: " not in x.position_html.value and " may: " not in sent
            if said:
                assert said not in _text(x.say_html.value) and said not in sent, (i, said)
            assert "Predict:" in x.quiz_html.value and q.prompt in html.unescape(sent)
            assert x.options and all(label in sent for label, _ in x.options[:9])
            if q.kind == "accepted":  # a tried move: the engine refuses it
                assert frame.error and not before.is_legal(frame.step.move)
                assert q.answer == "no" and q.why == frame.error
            if q.kind == "who":  # the seats the engine's penalty events hit
                assert q.answer == ",".join(map(str, sorted(_penalties(frame)))) or i == 1
            if q.kind == "count":
                seat = int(q.prompt.split("seat ")[1].split()[0])
                hits = _penalties(frame) or _penalties(x.frames[0])
                assert int(q.answer) == hits[seat]
            if q.kind != "move":
                good = len(x.quiz().results) % 2 == 0
                value = q.answer if good else next(v for _, v in q.options if v != q.answer)
                x.answer(value)
                expect["right" if good else "wrong"] += 1
                verdict = _squash(_text(x.quiz_html.value))
                assert ("Right: " if good else "Not this time: ") in verdict
                assert _squash(plain_words(q.why)[0][1:30]) in verdict
                continue
            # the next move: illegal cards first (refused, the question stays open)
            game = q.game
            example = game.accepted(game.canonical(frame.step.move))
            assert example is not None and example in game.legal_moves() or example.kind == PLAY
            for label, value in list(x.options):
                if not value.startswith("card:"):
                    continue
                card = value[5:]
                if any(m.kind == PLAY and str(m.card) == card for m in game.legal_moves()):
                    continue
                x.answer(value)
                reason = _squash(plain_words(game.explain(card))[0])
                assert reason and reason in _squash(_text(x.quiz_html.value)), (label, reason)
                assert "Not legal:" in x.quiz_html.value and x.question is q
                assert not x.revealed() and (not said or said not in browser_sees())
            others = [m for m in game.legal_moves() if not ex._same(m, example)]
            asked_moves += 1
            if others and asked_moves % 2 == 0:
                other = others[0]
                x.answer(str(other))
                expect["legal"] += 1
                verdict = _squash(_text(x.quiz_html.value))
                assert "Legal, but not this time: the example played " \
                       f"{ex._move_words(example)}" in verdict, verdict
                assert f"Your {ex._move_words(other)} is legal too" in verdict
            else:
                _pick_by_buttons(x, example)
                expect["right"] += 1
                verdict = _squash(_text(x.quiz_html.value))
                assert f"Right: the example played {ex._move_words(example)}" in verdict
        # answered: the step reads as it does outside predict mode
        assert x.revealed()
        plain.go(i)
        sent = browser_sees()
        for part in ("say_html", "changes_html", "position_html"):
            assert getattr(x, part).value == getattr(plain, part).value, (i, part)
        if said:
            assert said in _text(x.say_html.value)
            assert not x.quiz().questions or said in sent
    score = x.score
    assert {k: score[k] for k in expect} == expect
    assert score["asked"] == sum(expect.values()) > 0
    assert f"{expect['right']} of {score['asked']} predicted" in x.score_html.value
    assert not x.errors and not plain.errors


def _pick_by_buttons(x: StepExplainer, move) -> None:
    """Answer with the buttons a learner sees: the card (then its move, if it has several),
    or draw / pass / end."""
    label = ex._move_words(move) if move.kind == PLAY else move.kind
    card = move.card.display.replace(*ex.JOKER) if move.kind == PLAY else ""
    labels = [lb for lb, _ in x.options]
    assert labels == [b.description for b in x.options_box.children]
    if label in labels:
        x.options_box.children[labels.index(label)].click()
        return
    x.options_box.children[labels.index(card)].click()  # a card with several moves
    labels = [lb for lb, _ in x.options]
    assert "another card" in labels and x.question is not None
    x.options_box.children[labels.index(label)].click()


def test_skipping_reveals_and_keys_answer():
    x = StepExplainer(TURN, 2, predict=True)
    assert x.question.kind == "accepted" and x.next_button.description == "Show ▶"
    x.press("ArrowRight")  # → without an answer: the step is shown, counted as skipped
    assert x.index == 2 and x.revealed() and x.score["skipped"] == 1
    assert "Skipped:" in x.quiz_html.value and "3♦ is refused" in _text(x.say_html.value)
    assert x.next_button.description == "Next ▶"
    x.press("ArrowRight")
    assert x.index == 3 and x.question.kind == "move"
    labels = [lb for lb, _ in x.options]
    x.picker._on_message(x.picker, {"kind": "key", "key": str(labels.index("3♦") + 1)})
    assert "Not legal:" in x.quiz_html.value and x.question is not None
    x.press(str(labels.index("8♠") + 1))  # an eight: which call?
    calls = [lb for lb, _ in x.options]
    assert calls[:4] == [f"8♠ calling {s}" for s in "♣♦♥♠"] and calls[-1] == "another card"
    x.press(str(calls.index("8♠ calling ♦") + 1))
    assert x.revealed() and "Right: the example played 8♠ calling ♦" in _text(x.quiz_html.value)
    assert x.score_text() == "1 of 2 predicted (1 skipped)."
    x.press("ArrowLeft")
    assert x.index == 2 and x.revealed()  # answered steps stay shown
    x.press("Home")
    x.press("9")  # nothing asked at the setup: no effect
    assert x.index == 0 and not x.errors


def test_deep_link_and_toggle():
    x = StepExplainer.from_query(f"example={TURN}&step=3&predict=1")
    assert x.predict and x.predict_toggle.value and x.question.kind == "move"
    assert x.picker.address == f"?example={TURN}&step=3&predict=1"
    assert "&amp;predict=1" in x.link_html.value
    hidden = x.say_html.value
    assert "predict first" in hidden and "8♠" not in _text(hidden)
    x.predict_toggle.value = False  # the toggle: everything shown, nothing asked
    assert x.revealed() and x.question is None and x.quiz_box.layout.display == "none"
    assert "you play 8♠ and call diamonds" in _text(x.say_html.value).lower()
    assert x.picker.address == f"?example={TURN}&step=3"
    x.predict = True
    assert x.question is not None and x.quiz_box.layout.display == "flex"
    y = StepExplainer.from_query(f"example={TURN}&step=3")
    assert not y.predict and y.question is None
    assert y._quiz_widgets is None  # no quiz widgets (models) until predicting is on
    y.predict_toggle.value = True
    assert y.quiz_box in y.children and y.question.kind == "move"
    assert "No predictions yet." in y.score_html.value
    y.go(4)  # a step without a move: nothing to ask
    assert y.revealed() and "Nothing to predict at this step" in y.score_html.value
    assert not x.errors and not y.errors


def test_a_new_example_starts_a_new_score():
    x = StepExplainer(TURN, 3, predict=True)
    x.answer("8S:D")
    assert x.score["right"] == 1
    x.picker.value = "br-t2-seed-three-twos-draw-six"
    assert x.score["asked"] == 0 and x.score_text() == "No predictions yet."
    x.next()
    assert x.question.kind == "move"
    x.answer("2C+2H+2S")
    assert x.question.kind == "count" and x.question.answer == "6"
    x.answer("4")
    assert ("Not this time: 6 cards, because seat 0's 2♣, 2♥ and 2♠ hit seat 1: seat 1 must "
            "draw 6 cards") in _text(x.quiz_html.value)
    assert x.score_text() == "1 of 2 predicted."


# -- in the browser: Voilà -----------------------------------------------------------------------

def _console(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console on {page.url}: {m.text[:300]}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror on {page.url}: {e}"))
    return errors


@pytest.mark.browser
def test_browser_predict_mode(voila_server, page, screenshot):
    errors = _console(page)
    page.goto(voila_server.render("explain.ipynb") + f"?example={TURN}&step=3&predict=1",
              timeout=120_000)
    page.wait_for_selector("text=Step 3 of 7: predict first", timeout=120_000)
    box = page.locator(".crazylab-explainer")
    question = box.locator(".cl-question")
    question.wait_for(timeout=30_000)
    assert "What does it do next?" in question.inner_text()
    assert box.get_by_text("you play 8♠ and call diamonds").count() == 0  # the narration
    assert box.get_by_text("may:").count() == 0  # the legal moves
    assert box.get_by_text("What changed", exact=True).count() == 0
    toggle = box.get_by_role("button", name="Predict first")
    assert "mod-active" in (toggle.get_attribute("class") or "")
    # the mouse: an illegal card is refused with the engine's reason
    box.locator("button.cl-answer", has_text="3♦").click()
    page.wait_for_selector("text=3♦ matches neither the rank nor the suit of 6♥", timeout=30_000)
    assert page.get_by_text("you play 8♠ and call diamonds").count() == 0
    screenshot(page, "explain_predict_question")
    # the keyboard: the key of 8♠, then Tab to its call and Enter
    labels = box.locator("button.cl-answer").all_inner_texts()
    box.locator("h3").click()
    page.keyboard.press(str(labels.index("8♠") + 1))
    call = box.locator("button.cl-answer", has_text="8♠ calling ♦")
    call.wait_for(timeout=30_000)
    call.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Right: the example played 8♠ calling ♦", timeout=30_000)
    page.wait_for_selector("text=you play 8♠ and call diamonds", timeout=30_000)
    page.wait_for_selector("text=/Seat 1 may: /", timeout=30_000)
    page.wait_for_selector("text=1 of 1 predicted.", timeout=30_000)
    screenshot(page, "explain_predict_verdict")
    # step on with the arrow key; → on an unanswered step shows it, as skipped
    box.locator("h3").click()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("text=Step 4 of 7", timeout=30_000)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("text=Step 5 of 7: predict first", timeout=30_000)
    page.wait_for_selector("text=Seat 1 tries 9♣. Does the engine accept it?", timeout=30_000)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("text=/Skipped:/", timeout=30_000)
    page.wait_for_selector("text=1 of 2 predicted (1 skipped).", timeout=30_000)
    page.wait_for_function("() => location.search.includes('predict=1')", timeout=30_000)
    # Crazy Breens from the list, still predicting: the stack of 2s, then how many cards
    page.locator("select.cl-ex-select").select_option("br-t2-seed-three-twos-draw-six")
    page.wait_for_selector("text=No predictions yet.", timeout=30_000)
    box.locator("h3").click()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("text=Step 1 of 8: predict first", timeout=30_000)
    box.locator("button.cl-answer", has_text="2♣").first.click()
    box.locator("button.cl-answer", has_text="2♣ + 2♥ + 2♠").click(timeout=30_000)
    page.wait_for_selector("text=How many cards must seat 1 draw?", timeout=30_000)
    assert box.get_by_text("What changed", exact=True).count() == 0
    box.locator("h3").click()
    page.keyboard.press("6")
    page.wait_for_selector("text=Right: 6 cards.", timeout=30_000)
    page.wait_for_selector("text=2 of 2 predicted.", timeout=30_000)
    page.wait_for_selector("text=What changed", timeout=30_000)
    screenshot(page, "explain_predict_breens")
    for b in page.locator(".crazylab-error").all():
        assert not b.is_visible() or not b.inner_text().strip(), b.inner_text()
    assert errors == [], errors


def test_verdicts_say_why_in_each_phase():
    counter = StepExplainer("br-t6-counter-by-later-victim", 4, predict=True)
    assert counter.frames[3].game.phase == "penalty"
    counter.answer("draw")  # legal too: the hit seat may take its penalty
    said = _text(counter.quiz_html.value)
    assert ("Legal, but not this time: the example played J♣, because seat 2 is hit, and "
            "answers the hit with J♣ instead of drawing (a Jack counters a hit whatever "
            "its suit)") in said
    assert "Your draw is legal too: seat 2 takes its penalty" in said
    drop = StepExplainer("br-seed-queen-drops-two", 2, predict=True)
    assert drop.frames[1].game.phase == "drop"
    drop.answer("2C")
    assert "Right: the example played 2♣. After its Queen, seat 0 may drop another card" \
        in _text(drop.quiz_html.value)
    assert [q.kind for q in drop.quiz().questions] == ["move", "who", "count"]
    drop.answer("1")  # who is hit: seat 1 (four players)
    drop.answer("3")
    said = _text(drop.quiz_html.value)
    assert "Right: Seat 1." in said
    assert "Not this time: 2 cards, because seat 0's 2♣ hits seat 1" in said
    tried = StepExplainer(TURN, 2, predict=True)
    tried.answer("yes")
    assert "Not this time: the engine refuses it, because 3♦ matches neither the rank nor " \
           "the suit of 6♥" in _text(tried.quiz_html.value)
    assert not counter.errors and not drop.errors and not tried.errors

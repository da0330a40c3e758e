"""One seat's view of a match (crazylab/seat/view.py), from any seat: what a shared table's
server sends each learner. Whole hands are played by a plain host loop (the engine's legal
moves), each seat's view built after every move."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from crazylab.engine.game import Game
from crazylab.engine.rules import rules
from crazylab.match import Match
from crazylab.seat.view import MAX_LOG, Refused, SeatView, ViewStream

NAMES = ["Ada", "Bea", "Cy"]


def _match_at(game: Game) -> Match:
    """A match playing on from ``game`` (as GameTable.set_game makes one)."""
    m = Match(game.rules, game.n, seed=7, dealer=game.dealer)
    m.game, m.hands = game, [game]
    return m


def _play_one(match: Match, seats: list[SeatView], rng: random.Random) -> None:
    """The host: one legal move of the seat to play, then every seat's view is told."""
    g = match.game
    g.push(rng.choice(g.legal_moves()), seat=g.to_play)
    if g.over:
        match.record()
    for s in seats:
        s.moved(match)


def _codes(cards: Any) -> set[str]:
    return {str(c) for c in cards}


def _quoted(code: str, text: str) -> bool:
    """A card code as a JSON value of its own or a move's start (``"8S"``, ``"8S:D"``)."""
    return f'"{code}"' in text or f'"{code}:' in text or f'"{code}+' in text


@pytest.mark.parametrize("preset,house", [
    ("crazy-eights-classic", {}), ("crazy-breens", {}), ("crazy-8s-level-2", {}),
    ("crazy-eights", {"jump_in": True, "decks": 2, "action_cards": "2:draw2, 10=skip"})],
    ids=["classic", "breens", "level-2", "house-jump-in"])
def test_seats_1_and_2_see_only_their_own_hand_until_the_hand_is_over(preset, house):
    r = rules(preset, **house)
    match = Match(r, 3, seed=11)
    seats = [SeatView(r, s, NAMES) for s in range(3)]
    for s in seats:
        s.new_hand(match)
    rng = random.Random(5)
    checked = 0
    for seq in range(2000):
        g = match.game
        for sv in seats[1:]:
            view = sv.view(match, seq=seq)
            text = json.dumps(view, ensure_ascii=False)
            own = _codes(g.hands[sv.seat])
            assert [c["card"] for c in view["hand"]] == [str(c) for c in sorted(g.hands[sv.seat])]
            assert view["your_turn"] == (not g.over and g.to_play == sv.seat)
            assert [o["seat"] for o in view["opponents"]] == \
                [(sv.seat + k) % 3 for k in (1, 2)]
            assert [o["name"] for o in view["opponents"]] == \
                [NAMES[(sv.seat + k) % 3] for k in (1, 2)]
            if not g.over:
                others = set().union(*(_codes(g.hands[o]) for o in range(3) if o != sv.seat))
                public = own | {str(p[-1]) for p in g.piles}  # two jokers share a code
                leaked = {c for c in others - public if _quoted(c, text)}
                assert not leaked, (sv.seat, leaked)
                if view["your_turn"]:
                    assert view["hint"]["legal"] or view["hint"]["other"]
                else:
                    assert view["hint"] == {} and all(c["why"] == "" for c in view["hand"])
                checked += 1
            else:  # the end panel shows every hand left, face up
                assert [h["cards"] for h in view["end"]["hands"]] == \
                    [[str(c) for c in h] for h in g.hands]
        if g.over:
            break
        _play_one(match, seats, rng)
    assert match.game.over and checked > 20


def test_a_refused_click_says_why_in_one_line_and_changes_nothing():
    game = Game.from_position("crazy-eights-classic", 3,
                              hands=[["5C", "KD"], ["6H", "9S", "8D"], ["2C", "3C"]],
                              stock=["4C", "5D", "7C"], discard=["6C"], to_play=1)
    match = _match_at(game)
    seat1, seat2 = SeatView(game.rules, 1, NAMES), SeatView(game.rules, 2, NAMES)
    before = game.fingerprint()
    cases = [(seat1, "9S", "9♠"), (seat1, "5C", "You do not hold 5♣"),
             (seat1, "ZZ", ""), (seat2, "2C", "Wait: it is Bea's turn.")]
    for sv, card, words in cases:
        with pytest.raises(Refused) as e:
            sv.click(match, card)
        why = str(e.value)
        assert why and "\n" not in why and words in why, why
        view = sv.view(match, seq=1)
        assert view["message"] == why and view["message_kind"] == "warn"
    assert game.fingerprint() == before
    assert seat1.click(match, "8D") is None  # an eight: the chooser opens
    with pytest.raises(Refused, match="There is no option 100."):
        seat1.choose(match, 99)
    assert seat1.view(match, seq=2)["chooser"]["kind"] == "call"  # still open
    seat1.cancel()
    with pytest.raises(Refused) as e:
        seat1.check(match, "9S")
    assert "9♠" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(Refused, match="Bea's turn"):
        seat2.check(match, "draw")
    assert game.fingerprint() == before
    assert seat1.check(match, "6H") == seat1.click(match, "6H")  # one move: no chooser


def test_an_eight_opens_the_chooser_and_choose_returns_the_move():
    game = Game.from_position("crazy-eights-classic", 3,
                              hands=[["5C", "KD"], ["6H", "9S", "8D"], ["2C", "3C"]],
                              stock=["4C", "5D", "7C"], discard=["6C"], to_play=1)
    match = _match_at(game)
    seats = [SeatView(game.rules, s, NAMES) for s in range(3)]
    me = seats[1]
    assert me.click(match, "8D") is None
    chooser = me.view(match, seq=1)["chooser"]
    assert chooser["kind"] == "call" and len(chooser["options"]) == 4
    assert seats[0].view(match, seq=1)["chooser"] is None  # only the clicker's
    me.cancel()
    assert me.view(match, seq=2)["chooser"] is None
    assert me.click(match, "8D") is None
    index = [o["value"] for o in chooser["options"]].index("S")
    move = me.choose(match, index)
    assert move is not None and str(move) == "8D:S"
    game.push(move, seat=1)
    for s in seats:
        s.moved(match)
    view = me.view(match, seq=3)
    assert view["chooser"] is None and not view["your_turn"]
    assert view["news"][:2] == ["You played 8♦.", "You called ♠ spades."]
    assert "Bea played 8♦." in seats[0].view(match, seq=3)["log"]
    game.push("draw", seat=2)  # Cy draws: Bea's news keep her move; Cy's start again
    for s in seats:
        s.moved(match)
    assert me.view(match, seq=4)["news"] == ["You played 8♦.", "You called ♠ spades.",
                                             "Cy drew a card."]
    assert seats[2].view(match, seq=4)["news"] == ["You drew 4♣."]  # only Cy sees the card
    with pytest.raises(Refused, match="nothing to choose"):
        me.choose(match, 0)


def _apply(shown: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    """table.js's apply: keys replaced, ``unset`` keys set to None, log lines added."""
    out = dict(shown)
    for k, v in step.items():
        if k not in ("faces", "log_add", "unset"):
            out[k] = v
    for k in step.get("unset", []):
        out[k] = None
    if "log" not in step:
        out["log"] = out["log"] + step.get("log_add", [])
    return out


@pytest.mark.parametrize("seat", [0, 2])
def test_steps_rebuild_each_seats_view_and_faces_come_once(seat):
    r = rules("crazy-eights-quick")
    match = Match(r, 3, seed=3)
    seats = [SeatView(r, s, NAMES) for s in range(3)]
    for s in seats:
        s.new_hand(match)
    stream = ViewStream()
    first = seats[seat].view(match, seq=0)
    snap = stream.snapshot(first)
    shown, faces = dict(snap["view"]), dict(snap["faces"])
    rng = random.Random(seat)
    for seq in range(1, 500):
        if match.game.over:
            break
        views = []
        for _ in range(rng.randint(1, 3)):  # one message may hold several moves
            if match.game.over:
                break
            _play_one(match, seats, rng)
            views.append(seats[seat].view(match, seq=seq))
        msg = stream.steps(views, 0.5)
        assert msg["type"] == "steps" and msg["delay"] == 0.5
        assert len(msg["steps"]) == len(views)
        for step in msg["steps"]:
            assert not set(step.get("faces", {})) & set(faces)  # each face sent once
            faces.update(step.get("faces", {}))
            shown = _apply(shown, step)
        view = views[-1]
        assert {k: v for k, v in shown.items() if k != "log"} == \
            {k: v for k, v in view.items() if k != "log"}
        assert shown["log"][-len(view["log"]):] == view["log"]
        assert all(c["card"] in faces for c in view["hand"])
    assert match.game.over
    stream.reset()  # a browser that is behind gets the view whole, faces again
    again = stream.steps([view], 0.5)["steps"][0]
    assert again["log"] == view["log"] and "back" in again["faces"]


def test_the_log_said_as_it_grows_equals_the_log_said_whole():
    """The narration is incremental: a seat's view after many moves says the log exactly as
    a fresh seat view narrating every event at once does."""
    r = rules("crazy-breens")
    for seed in range(4):
        match = Match(r, 3, seed=seed)
        seats = [SeatView(r, s, NAMES) for s in range(3)]
        for s in seats:
            s.new_hand(match)
        rng = random.Random(seed)
        for seq in range(400):
            for sv in seats:
                view = sv.view(match, seq=seq)
                fresh = SeatView(r, sv.seat, NAMES)
                whole = fresh.view(match, seq=seq)
                assert view["log"] == whole["log"] and view["log_total"] == whole["log_total"]
                assert len(view["log"]) <= MAX_LOG
            if match.game.over:
                break
            _play_one(match, seats, rng)
        assert match.game.over


def test_no_why_is_sent_twice_in_one_view_the_hint_points_at_the_hand():
    game = Game.from_position("crazy-eights-classic", 2,
                              hands=[["6C", "KH", "8S", "3D", "4D"], ["2C", "QD"]],
                              stock=["4C", "5C", "7C"], discard=["6H"], to_play=0)
    match = _match_at(game)
    sv = SeatView(game.rules, 0, ["You", "Bot 1"], say_you=False)
    view = sv.view(match, seq=1)
    text = json.dumps(view, ensure_ascii=False)
    whys = [c["why"] for c in view["hand"]]
    assert all(whys)
    for why in set(whys):
        assert text.count(json.dumps(why, ensure_ascii=False)) == whys.count(why), why
    hint = view["hint"]["legal"] + view["hint"]["other"]
    assert sorted(h["hand"] for h in hint) == list(range(len(view["hand"])))
    for h in hint:
        assert view["hand"][h["hand"]]["display"] == h["card"]


def test_a_bad_seat_is_refused():
    with pytest.raises(ValueError, match="seat 3"):
        SeatView(rules("crazy-eights"), 3, NAMES)


def test_the_seat_view_imports_no_widget_library():
    """A server builds views with it: no ipywidgets, anywidget, traitlets or tornado."""
    code = ("import sys, crazylab.seat.view; "
            "print([m for m in ('ipywidgets', 'anywidget', 'traitlets', 'tornado') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>{css}</style></head>
<body><div id="t"></div><script type="module">
{js}
const state = {{snapshot: {snap}, show_hint: false, four_colour: false, error: "",
               preset: "crazy-eights-classic", opponents: 2, level: "random"}};
window.sent = [];
const model = {{get: (k) => state[k], set: (k, v) => {{ state[k] = v; }}, save_changes() {{}},
               on() {{}}, off() {{}}, send: (m) => window.sent.push(m)}};
render({{model, el: document.getElementById("t")}});
window.drawn = true;
</script></body></html>"""


def _show(page, snap: dict[str, Any]) -> None:
    """table.js drawn from ``snap`` with a model shim (as a shared table's page feeds it)."""
    from crazylab.seat import RENDERER as here

    js = (here / "table.js").read_text().replace("export default { render };", "")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_content(_PAGE.format(css=(here / "table.css").read_text(), js=js,
                                  snap=json.dumps(snap)))
    page.wait_for_function("window.drawn === true")
    assert not errors, errors


@pytest.mark.browser
def test_table_js_at_a_shared_seat_hides_the_settings_and_deals_only_when_allowed(page):
    r = rules("crazy-eights-classic")
    match = Match(r, 3, seed=2)
    seats = [SeatView(r, s, NAMES) for s in range(3)]
    for s in seats:
        s.new_hand(match)
    rng = random.Random(1)
    while match.game.to_play != 1:
        _play_one(match, seats, rng)
    view = seats[1].view(match, seq=1, shared=True)
    assert view["shared"] and view["can_deal"] is False and view["your_turn"]
    _show(page, ViewStream().snapshot(view))
    assert page.locator(".cl-settings select").count() == 0  # no preset/opponents/level
    assert page.locator('[data-action="new_hand"], [data-action="new_match"]').count() == 0
    assert page.locator(".cl-hand-label").inner_text().startswith("Bea: Your hand")
    assert [t.split()[0] for t in page.locator(".cl-opp-name").all_inner_texts()] == \
        ["Cy", "Ada"]
    page.locator('[data-action="hint"]').click()
    hint = page.locator(".cl-hint").inner_text()
    for card in view["hand"]:  # each why comes from the hand's entry
        assert card["why"] in hint
    # the host of a shared table may deal; a notebook's own table shows its settings
    _show(page, ViewStream().snapshot(seats[1].view(match, seq=2, shared=True, can_deal=True)))
    assert page.locator('[data-action="new_hand"]').count() == 1
    assert page.locator(".cl-settings select").count() == 0
    from crazylab.widgets import GameTable

    table = GameTable("crazy-eights-classic", opponents=2, seed=1, delay=0)
    assert table.view["shared"] is False and table.view["can_deal"] is True
    _show(page, table.snapshot)
    assert page.locator(".cl-settings select").count() == 3
    assert page.locator('[data-action="new_hand"]').count() == 1

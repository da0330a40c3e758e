"""The Jupyter widgets driven from Python: every control changes the state as the engine says,
illegal clicks change nothing and say why, a whole hand against bots plays to the end, and
only what seat 0 may see is synced to the browser."""

from __future__ import annotations

import html
import json
import logging
import random
import re

import pytest

from crazylab.engine.cards import Card, cards
from crazylab.engine.game import Game
from crazylab.engine.rules import PRESETS
from crazylab.engine.variants import breens as effects
from crazylab.examples import list_examples, load_example
from crazylab.widgets import (
    GameTable,
    LegalMoveExplorer,
    ScoreCalculator,
    StepExplainer,
    legal_table,
    position,
    query_params,
    score_hands,
)
from crazylab.widgets.explainer import changes, plain_words

pytestmark = pytest.mark.oldest

WORKED_TURN = dict(hands=[["6C", "KH", "8S", "3D"], ["3H", "9C", "QD", "4S", "7D"]],
                   stock=["2H", "JC", "5S", "4C", "9H"], discard=["6H"], to_play=0)


def table_at(rules: str = "crazy-eights", delay: float = 5.0, **setup) -> GameTable:
    """A table playing on from a dealt position; a long delay keeps the bots waiting so the
    human's move can be inspected alone."""
    table = GameTable(rules, opponents=len(setup["hands"]) - 1, seed=1, delay=delay)
    table.set_game(Game.from_position(rules, len(setup["hands"]), **setup))
    return table


def engine_after(table: GameTable, move: str) -> tuple:
    """The fingerprint the engine gives after ``move`` on a copy of the table's game."""
    g = table.game.copy()
    g.push(move)
    return g.fingerprint()


def _shown(view: dict, c: Card) -> bool:
    text = json.dumps(view, ensure_ascii=False)
    code = re.compile(rf"(?<![0-9A-Za-z]){re.escape(str(c))}(?![0-9A-Za-z])")
    return bool(code.search(text)) or c.display in text or c.name in text


# -- the game table ---------------------------------------------------------------------------


def test_C11_view_holds_only_what_seat_0_may_see():
    """C-11: other hands and the stock order never reach the browser."""
    table = GameTable("crazy-eights", opponents=3, seed=11, delay=0)
    for _ in range(3):  # a few turns: the bots play, nobody reshuffles in these rules
        if table.game.over:
            break
        move = table.game.legal_moves()[0]
        table.play(str(move)) if len(table.game.legal_moves()) > 0 else None
    g, view = table.game, table.view
    hidden = [c for s in range(1, g.n) for c in g.hands[s]] + list(g.stock_cards)
    assert hidden
    leaked = [str(c) for c in hidden if _shown(view, c)]
    assert not leaked, f"hidden cards in the synced view: {leaked}"
    assert sorted(c["card"] for c in view["hand"]) == sorted(str(c) for c in g.hands[0])
    assert [o["count"] for o in view["opponents"]] == g.hand_sizes[1:]
    assert view["stock"]["count"] == g.stock_size


def test_SR10_legal_cards_are_marked_and_a_legal_click_plays_as_the_engine_says():
    """SR-10: on 6♥, 6♣ and K♥ (and the eight) are legal; clicking 6♣ plays it."""
    table = table_at(**WORKED_TURN)
    marks = {c["card"]: c["legal"] for c in table.view["hand"]}
    assert marks == {"6C": True, "KH": True, "8S": True, "3D": False}
    expected = engine_after(table, "6C")
    assert table.click_card("6C") is True
    assert table.game.fingerprint() == expected
    assert table.view["piles"][0]["top"] == "6C"
    assert table.view["bot"] is not None and table.view["bot"]["seat"] == 1


def test_SR10_illegal_click_changes_nothing_and_says_why():
    """SR-10: 3♦ on 6♥ is refused with the engine's reason; nothing changes."""
    table = table_at(**WORKED_TURN)
    before, seq = table.game.fingerprint(), table.view["seq"]
    assert table.click_card("3D") is False
    assert table.game.fingerprint() == before
    assert table.view["message"] == table.game.explain("3D")
    assert "matches neither the rank nor the suit" in table.view["message"]
    assert table.view["message_kind"] == "warn"
    assert table.view["seq"] > seq  # the browser is told, even for a repeated click
    assert table.click_card("QD") is False  # a card the human does not hold
    assert table.game.fingerprint() == before


def test_SR12_eight_opens_the_suit_chooser_and_the_call_is_in_force():
    """SR-12: an eight asks for a suit; the called suit is what the next player follows."""
    table = table_at(**WORKED_TURN)
    before = table.game.fingerprint()
    table.click_card("8S")
    chooser = table.view["chooser"]
    assert chooser["kind"] == "call"
    assert [o["value"] for o in chooser["options"]] == ["C", "D", "H", "S"]
    assert table.game.fingerprint() == before  # choosing is not yet playing
    table.cancel()
    assert table.view["chooser"] is None
    table.click_card("8S")
    expected = engine_after(table, "8S:D")
    assert table.choose_call("♦") is True
    assert table.game.fingerprint() == expected
    assert table.game.suit == "D"
    assert table.view["piles"][0]["in_force"] == "called ♦ diamonds"


def test_SR15_draw_button_draws_as_the_engine_says_and_pass_appears_when_stuck():
    """SR-15/SR-18: with nothing playable only Draw is offered; with the stock empty, Pass."""
    table = table_at(hands=[["3D", "5H"], ["4S", "9S", "QS"]], stock=["2H", "JC"],
                     discard=["KC"], to_play=0)
    assert [a["move"] for a in table.view["actions"]] == ["draw"]
    assert table.view["stock"]["can_draw"] is True
    expected = engine_after(table, "draw")
    assert table.press("draw") is True
    assert table.game.fingerprint() == expected
    assert "pass" not in table.game.legal()
    assert table.play("pass") is False  # refused, with the engine's reason
    assert table.view["message"] == table.game.explain("pass")
    stuck = table_at(hands=[["3D", "5H"], ["4S", "9S", "QS"]], stock=[], discard=["KC"],
                     to_play=0)
    assert [a["move"] for a in stuck.view["actions"]] == ["pass"]
    expected = engine_after(stuck, "pass")
    stuck.press("pass")
    assert stuck.game.fingerprint() == expected


def test_MU_chain_end_button_and_pile_then_pitch_chooser():
    """MU-22/MU-Q23: on two piles an eight asks for the pile, then the pitch; End closes a
    chained turn."""
    table = table_at("crazy-8s-level-2", hands=[["8C", "KD", "4C"], ["3H", "5D"]],
                     stock=["2H", "7S", "9D"], piles=[["AH"], ["AD"]], to_play=0)
    table.click_card("8C")
    assert table.view["chooser"]["kind"] == "pile"
    assert table.choose_pile(1)
    chooser = table.view["chooser"]
    assert chooser["kind"] == "call" and len(chooser["options"]) == 12
    expected = engine_after(table, "8C@1:E")
    assert table.choose_call("E") is True
    assert table.game.fingerprint() == expected
    assert table.game.phase == "chain"
    assert [a["move"] for a in table.view["actions"]] == ["end"]
    expected = engine_after(table, "end")
    table.press("end")
    assert table.game.fingerprint() == expected


def test_BR12_stack_chooser_offers_each_legal_stack():
    """BR-12: a same-rank stack is chosen in the chooser; its first card must be legal."""
    table = table_at("crazy-breens", hands=[["5H", "5S", "9C"], ["3D", "4D", "6C"]],
                     stock=["7C", "7D", "7H", "7S"], discard=["KH"], to_play=0)
    if not table.game.legal_moves():
        pytest.skip("Crazy Breens effects are not available")
    table.click_card("5H")
    chooser = table.view["chooser"]
    assert chooser["kind"] == "stack"
    assert {o["label"] for o in chooser["options"]} == {"5♥", "5♥ + 5♠ (5♠ on top)"}
    index = [o["label"] for o in chooser["options"]].index("5♥ + 5♠ (5♠ on top)")
    expected = engine_after(table, "5H+5S")
    table.choose(index)
    assert table.game.fingerprint() == expected


def test_BR_Q5_a_wild_turned_up_for_the_human_opens_a_forced_call_chooser():
    """BR-Q5: the dealer declares a starter eight; as dealer, the human gets the chooser
    without clicking a card, and it cannot be cancelled away."""
    deck = cards("3D 3H 3S 3C 4D 4H 4S 4C 5D 5H 5S 5C 6D 6H KD AC 2C 9D 9H 9S 10S")
    game = Game.from_deck("crazy-breens", 2, deck[:14] + cards("8C") + deck[14:], dealer=0)
    if game.phase != "declare":
        pytest.skip("Crazy Breens effects are not available")
    table = GameTable("crazy-breens", opponents=1, seed=1, delay=5.0)
    table.set_game(game)
    chooser = table.view["chooser"]
    assert chooser["forced"] and chooser["kind"] == "call" and chooser["card"] == "8C"
    table.cancel()
    assert table.view["chooser"]["forced"]
    expected = engine_after(table, "8C:H")
    table.choose_call("H")
    assert table.game.fingerprint() == expected


def hit_table(hands: list[list[str]], move: str, stock: list[str] | None = None) -> GameTable:
    """A Crazy Breens table where the last seat has just made ``move`` (not the human)."""
    game = Game.from_position("crazy-breens", len(hands), hands=hands, discard=["7C"],
                              stock=stock or ["10C", "10D", "10H", "10S", "6C", "6D"],
                              to_play=len(hands) - 1)
    game.push(move)
    table = GameTable("crazy-breens", opponents=len(hands) - 1, seed=1, delay=5.0)
    table.set_game(game)
    return table


def test_BR_22_BR_M4_the_banner_says_who_hit_the_human_and_which_jacks_counter():
    table = hit_table([["JH", "JS", "5D"], ["2C", "9D", "4S"]], "2C")
    (pending,) = effects.pending(table.game)
    (line,) = table.view["pending"]
    assert line["now"] and line["you"]
    text = line["text"]
    assert f"{table.names[pending['by']]}'s 2" in text and f"draw {pending['left']} " in text
    counters = {m.cards[0].display for m in table.game.legal_moves() if m.kind == "play"}
    assert counters == {"J♥", "J♠"} and all(c in text for c in counters)
    assert [c["card"] for c in table.view["hand"] if c["legal"]] == ["JH", "JS"]
    expected = engine_after(table, "JS")
    table.click_card("JS")  # alone or with J♥ on it (BR-Q19): the chooser asks
    labels = [o["label"] for o in table.view["chooser"]["options"]]
    table.choose(labels.index("J♠"))
    assert table.game.fingerprint() == expected
    assert table.view["pending"] == []


def test_BR_M4_without_a_jack_the_banner_says_there_is_no_counter():
    table = hit_table([["5D", "6H"], ["AC", "9D", "4S"]], "AC")
    (line,) = table.view["pending"]
    assert "skipped" in line["text"] and "no Jack" in line["text"]
    assert [a["move"] for a in table.view["actions"]] == ["pass"]


def test_BR_26_the_banner_offers_the_jack_drawn_as_the_first_penalty_card():
    table = hit_table([["5D", "6H"], ["2C", "9D", "4S"]], "2C", stock=["JS", "9S", "10C"])
    table.press("draw")
    assert table.game.legal() == ["JS", "draw"]
    (line,) = table.view["pending"]
    assert "J♠ you just drew" in line["text"] and "1 more card" in line["text"]


def test_BR_M3_BR_24_stacked_twos_mark_each_victim_in_turn():
    table = table_at("crazy-breens", hands=[["2C", "2H", "2S", "5D"], ["3D", "4D"],
                                            ["3H", "4H"], ["3S", "4S"]],
                     stock=["10C", "10D", "10H", "10S", "6C", "6D", "6H", "6S"],
                     discard=["7C"], to_play=0)
    table.play("2C+2H+2S")
    lines = table.view["pending"]
    assert [p["seat"] for p in lines] == [p["seat"] for p in effects.pending(table.game)]
    assert [p["now"] for p in lines] == [True, False, False]
    assert lines[0]["text"].startswith("Now: Bot 1 is hit by your 2s")
    assert all(p["text"].startswith("Then: ") for p in lines[1:])
    assert [o["hit"] for o in table.view["opponents"]] == ["hit: draw 2"] * 3


def test_hint_lists_legal_cards_and_why_each_other_card_is_not():
    table = table_at(**WORKED_TURN)
    hint = table.hint()
    assert table.show_hint is True
    assert {h["card"] for h in hint["legal"]} == {"6♣", "K♥", "8♠"}
    (other,) = hint["other"]
    assert other["card"] == "3♦" and other["why"] == table.game.explain("3D")
    assert any("rank" in h["why"] for h in hint["legal"] if h["card"] == "6♣")


def test_bots_move_one_at_a_time_and_stale_tokens_are_ignored():
    table = table_at(**WORKED_TURN)
    table.click_card("KH")
    token = table.view["bot"]["token"]
    assert table.bot_step(token - 1) is False  # a second view's late request
    assert table.game.to_play == 1
    moves = len(table.game.moves)
    assert table.bot_step(token) is True
    assert len(table.game.moves) == moves + 1
    assert table.bot_step(token) is False  # the same token cannot move twice


def test_setting_the_delay_to_zero_lets_waiting_bots_move_at_once():
    table = table_at(**WORKED_TURN)
    table.click_card("KH")
    assert table.bot_pending
    table.delay = 0
    assert not table.bot_pending and table.view["bot"] is None


def test_whole_hand_against_bots_plays_to_the_end_and_the_match_records_it():
    table = GameTable("crazy-eights-classic", opponents=3, seed=5, delay=0)
    rng = random.Random(5)
    for _ in range(500):
        if table.game.over:
            break
        view = table.view
        assert view["your_turn"]
        if view["chooser"]:
            table.choose(rng.randrange(len(view["chooser"]["options"])))
            continue
        legal = [c["card"] for c in view["hand"] if c["legal"]]
        if legal:
            table.click_card(rng.choice(legal))
        else:
            table.press(view["actions"][0]["move"])
    g = table.game
    assert g.over
    assert table.view["over"] and table.view["message_kind"] == "result"
    assert table.match.scores == list(g.scores)
    assert table.view["scores"]["match"] == list(g.scores)
    assert not table.errors
    dealer = table.match.dealer
    table.new_hand()
    assert not table.game.over and len(table.match.hands) == 2
    assert table.match.dealer != dealer or g.end_reason == "VOID"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_rule_set_plays_a_hand_through_the_table(preset):
    """The table is generic: each preset's phases are shown as clickable moves."""
    table = GameTable(preset, opponents=1, seed=3, delay=0)
    for _ in range(3000):
        if table.game.over:
            break
        v = table.view
        if v["chooser"]:
            table.choose(0)
        elif any(c["legal"] for c in v["hand"]):
            table.click_card(next(c["card"] for c in v["hand"] if c["legal"]))
        else:
            assert v["actions"], f"no control for the legal moves {table.game.legal()}"
            table.press(v["actions"][0]["move"])
    assert table.game.over and not table.errors


def test_browser_messages_drive_the_same_actions():
    """One message per human action: the browser walks the chooser itself (the card's tree
    is in the view) and sends the move; the answer holds the human's move and each computer
    move after it, as changes only, with each card face sent once."""
    table = table_at(**WORKED_TURN)
    sent: list[dict] = []
    table.send = sent.append
    tree = table.view["choosers"]["8S"]
    assert tree["kind"] == "call" and "8S" not in {c["card"] for c in table.view["hand"]
                                                   if c["move"]}
    move = next(o["move"] for o in tree["options"] if o["value"] == "H")
    assert move == "8S:H"
    logged = table.view["log_total"]
    table._on_message(table, {"action": "move", "move": move})
    assert [str(m) for m in table.game.moves][0] == "8S:H"
    (answer,) = sent
    steps = answer["steps"]
    assert len(steps) == len(table.game.moves)  # the human's move, then the bot's
    assert table.your_turn and steps[-1]["your_turn"] and answer["delay"] == table.delay
    assert all("rules" not in st and "settings" not in st for st in steps)  # only changes
    assert sum(len(st.get("log_add", [])) for st in steps) == table.view["log_total"] - logged
    faces = [code for st in steps for code in st.get("faces", {})]
    assert len(faces) == len(set(faces)) and "8S" not in faces  # 8♠ was sent before
    assert "svg" not in str(table.view["hand"])
    # the status keeps the human's move and announces the opponent's after it
    assert steps[-1]["news"][:2] == ["You played 8♠.", "You called ♥ hearts."]
    assert any(line.startswith("Bot 1 ") for line in steps[-1]["news"][2:])
    assert steps[-1]["message"].startswith("Your turn")
    table._on_message(table, {"action": "no-such-thing"})
    assert "no-such-thing" in table.error  # shown, not swallowed


def _drop_nulls(value):
    """What Pyodide's kernel delivers: ``None`` becomes ``undefined``, which JSON drops."""
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def _browser_apply(shown: dict, step: dict) -> None:
    """table.js's ``apply``: the changes, with ``unset`` keys back to null."""
    step = dict(step)
    step.pop("faces", None)
    added = step.pop("log_add", [])
    for key in step.pop("unset", []):
        step[key] = None
    shown.update(step)
    if "log" not in step:
        shown["log"] = shown["log"] + added


@pytest.mark.parametrize("drop_nulls", [False, True], ids=["voila", "pyodide"])
def test_the_browsers_view_follows_a_whole_hand(drop_nulls):
    """The browser rebuilds the view from the snapshot and the steps; after every answer
    of a whole hand (with bots on a delay, as on a page) it must equal Python's view, also
    when nulls are lost on the way (the static site's table froze after one move: ``bot``
    stayed set, so the page asked for a computer move forever)."""
    deliver = _drop_nulls if drop_nulls else (lambda m: m)
    table = GameTable("crazy-eights-classic", opponents=2, seed=3, delay=0.7)
    sent: list[dict] = []
    table.send = lambda msg: sent.append(deliver(msg))
    shown = dict(table.snapshot["view"])
    table._on_message(table, {"action": "sync", "seq": shown["seq"]})  # always answered
    for _ in range(300):
        for msg in sent:
            for step in msg["steps"]:
                _browser_apply(shown, step)
        sent.clear()
        view = table.view
        assert shown["log"][-len(view["log"]):] == view["log"]  # Python keeps the last lines
        # every top-level key as Python has it (nested nulls read as undefined in JS)
        assert {k: deliver(v) for k, v in shown.items() if k != "log"} == \
            {k: deliver(v) for k, v in view.items() if k != "log"}
        if shown["over"]:
            break
        assert shown["your_turn"] and shown.get("bot") is None  # never stuck waiting for a bot
        if shown.get("chooser"):
            table._on_message(table, {"action": "choose", "index": 0})
            continue
        card = next((c for c in shown["hand"] if c["legal"]), None)
        if card is not None and card.get("move"):
            table._on_message(table, {"action": "move", "move": card.get("move")})
        elif card is not None:  # an eight: the browser walks its chooser to a move
            node = shown["choosers"][card["card"]]
            while "move" not in node["options"][0]:
                node = node["options"][0]["next"]
            table._on_message(table, {"action": "move", "move": node["options"][0]["move"]})
        else:
            table._on_message(table, {"action": "move", "move": shown["actions"][0]["move"]})
    assert shown["over"] and table.game.over and not table.errors


def test_one_press_takes_a_whole_penalty_unless_a_drawn_jack_counters():
    """Crazy Breens: a joker's four cards are one press; BR-26 stops the draw where a
    drawn Jack may counter."""
    game = Game.from_position("crazy-breens", 2, hands=[["5D", "6H"], ["JK", "9D", "4S"]],
                              discard=["7C"], stock=["10C", "10D", "10H", "10S", "6C", "6D"],
                              to_play=1)
    joker = next((m for m in game.legal_moves() if m.kind == "play"), None)
    if joker is None or game.rules.name != "crazy-breens":
        pytest.skip("Crazy Breens effects are not available")
    game.push(joker)
    table = GameTable("crazy-breens", opponents=1, seed=1, delay=5.0)
    table.set_game(game)
    hand = len(table.game.hands[0])
    (line,) = table.view["pending"]
    left = int(re.search(r"draw (\d+)", line["text"])[1])
    assert left > 1
    table.press("draw")
    assert len(table.game.hands[0]) == hand + left and table.view["pending"] == []
    table = hit_table([["5D", "6H"], ["2C", "9D", "4S"]], "2C", stock=["JS", "9S", "10C"])
    table.press("draw")
    assert table.game.legal() == ["JS", "draw"]  # stopped: the J♠ may counter now


def test_callback_errors_are_shown_logged_and_the_game_goes_on(caplog):
    def broken_bot(obs, rng):
        raise RuntimeError("the bot fell over")

    table = GameTable("crazy-eights", opponents=1, seed=2, bot=broken_bot, delay=0)
    with caplog.at_level(logging.ERROR, logger="crazylab.widgets"):
        for _ in range(50):
            if table.game.over or table.errors:
                break
            table.play(table.game.legal()[0])
    assert "the bot fell over" in table.error
    assert any("the bot fell over" in r.getMessage() or r.exc_info for r in caplog.records)
    assert table.your_turn or table.game.over  # a random move was played instead


def test_settings_start_a_new_match_with_the_chosen_rules_and_opponents():
    table = GameTable("crazy-eights", opponents=1, seed=4, delay=0)
    table.preset = "crazy-eights-quick"
    assert table.game.rules.name == "crazy-eights-quick" and table.view["rules"] == table.preset
    table.opponents = 3
    assert table.game.n == 4 and len(table.view["opponents"]) == 3
    assert table.match.target == PRESETS["crazy-eights-quick"].match_target
    table.four_colour = True  # the browser recolours; the view says so
    assert table.view["four_colour"] is True


def test_from_query_reads_a_voila_query_string():
    table = GameTable.from_query("rules=crazy-eights-quick&opponents=2&seed=9&delay=0&four=1")
    assert (table.rules.name, table.players, table.delay, table.four_colour) == (
        "crazy-eights-quick", 3, 0.0, True)
    assert query_params("?example=x&step=3") == {"example": "x", "step": "3"}
    bad = GameTable.from_query("rules=no-such-rules&opponents=9&delay=0")
    assert "no-such-rules" in bad.error and bad.game.rules.name == "crazy-eights-classic"
    nine = GameTable.from_query("opponents=9&delay=0")  # refused in one line, not clamped
    assert nine.players == 2 and nine.error.count("\n") == 0
    assert "opponents must be a whole number from 1 to 3, not 9" in nine.error


# -- the legal-move explorer ------------------------------------------------------------------


def test_SR10_explorer_table_matches_the_engine():
    ex = LegalMoveExplorer()
    df = ex.table
    assert list(df.index) == ["6♣", "3♦", "K♥", "8♠"]
    assert df["legal"].to_dict() == {"6♣": True, "3♦": False, "K♥": True, "8♠": True}
    assert df.loc["3♦", "rule"] == ex.game.explain("3D")
    assert df.loc["8♠", "moves"] == "8S:C 8S:D 8S:H 8S:S"


def test_SR11_explorer_follows_the_called_suit_not_the_eights_print():
    ex = LegalMoveExplorer().set(top="8S", call="D", hand="3D KS 9C")
    assert ex.table["legal"].to_dict() == {"9♣": False, "3♦": True, "K♠": False}
    assert "called suit" in ex.table.loc["K♠", "rule"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_explorer_agrees_with_the_engine_on_every_card_of_the_deck(preset):
    r = PRESETS[preset]
    tops = " ".join(str(c) for c in [c for c in r.deck if not r.is_wild(c)][:r.piles])
    ex = LegalMoveExplorer(rules=preset, top=tops, hand="")
    ex.deck_button.click()
    assert ex.table is not None and len(ex.table) == len(set(r.deck) - set(cards(tops)))
    game = ex.game
    for v in ex.table.itertuples():
        c = Card.parse(v.Index)
        assert v.legal == any(m.cards[0] == c for m in game.legal_moves() if m.kind == "play")
        assert v.rule


def test_explorer_bad_input_is_a_message_not_an_error():
    ex = LegalMoveExplorer()
    ex.set(hand="6C 11H")
    assert ex.table is None and "11H" in ex.message.value and not ex.errors
    ex.set(hand="6C 6H")  # 6H is the top card
    assert ex.table is None and "6H" in ex.message.value


def test_dashboards_survive_a_bad_address():
    """A bad query string is shown in the error area; the page still works with defaults."""
    ex = LegalMoveExplorer.from_query("rules=nope&top=6H")
    assert "reading the page" in ex.error_area.value and ex.table is not None
    calc = ScoreCalculator.from_query("players=x")
    assert calc.errors and calc.result.scores == (64, 0, 0)


def test_explorer_card_picker_toggles_cards_in_the_hand():
    ex = LegalMoveExplorer(hand="6C")
    ex.picker.pick("QH")
    assert ex.hand_box.value == "6C QH" and "Q♥" in ex.table.index
    ex.picker.pick("6C")
    assert ex.hand_box.value == "QH"


def test_legal_table_function_for_lessons():
    df = legal_table(position("crazy-eights-quick", "9H", "9C 2H 8D KS"))
    assert df["legal"].to_dict() == {"9♣": True, "8♦": True, "2♥": True, "K♠": False}


# -- the step-through explainer ---------------------------------------------------------------


@pytest.mark.parametrize("name", list_examples())
def test_explainer_steps_through_every_shipped_example(name):
    x = StepExplainer(name)
    assert not x.errors, x.errors
    n = len(load_example(name).steps)
    assert x.slider.max == n and x.prev_button.disabled
    for i in range(1, n + 1):
        x.next_button.click()
        assert x.index == i and f"Step {i} of {n}" in x.say_html.value
        frame = x.frames[i]
        if frame.error:
            assert "Refused" in x.say_html.value
        if frame.step.say:  # in words first: the rule ids follow as badges
            words, ids = plain_words(frame.step.say)
            assert html.escape(words[:20]) in x.say_html.value
            assert all(f">{i}</a>" in x.say_html.value for i in ids)
    assert x.next_button.disabled and not x.errors
    x.prev_button.click()
    assert x.index == n - 1


def test_explainer_shows_what_changed_and_deep_links_to_a_step():
    name = "sr-t1-t2-worked-turn-eight-calls-diamonds"
    x = StepExplainer.from_query(f"example={name}&step=3")
    assert x.index == 3 and x.example.name == name
    assert "8S:D" in x.say_html.value
    assert "Seat 0 called ♦ diamonds." in x.changes_html.value
    assert "called ♦ diamonds" in x.changes_html.value
    assert f"example={name}&amp;step=3" in x.link_html.value
    x.go(99)
    assert x.index == x.slider.max
    x.picker.value = "sr-t4-scoring-64"
    assert x.example.name == "sr-t4-scoring-64" and x.index == 0


def test_explainer_changes_name_drawn_cards():
    ex = load_example("sr-t3-draw-until-playable")
    frames = ex.frames()
    text = " ".join(changes(frames[1].game, frames[2]))
    assert "drew 2♥" in text and "Stock: 3 → 2" in text


def test_explainer_bad_example_is_refused_from_python():
    """From Python a bad argument raises the project's error (issue 25); a page's address
    naming no example shows a notice instead (from_query)."""
    with pytest.raises(ValueError, match="no-such-example: no such file or shipped example"):
        StepExplainer("no-such-example")


# -- the scoring calculator -------------------------------------------------------------------


def test_SR22_seed_001_scoring_example_shows_its_working():
    """SR-22: 8♦ 3♣ = 53 and Q♥ A♠ = 11, so the winner scores 64."""
    calc = ScoreCalculator()
    res = calc.result
    assert res.scores == (64, 0, 0)
    assert res.totals[1:] == (53, 11)
    working = res.working()
    assert working == ["Seat 1 holds 8♦ 50 + 3♣ 3 = 53 points.",
                       "Seat 2 holds Q♥ 10 + A♠ 1 = 11 points.",
                       "Seat 0 went out and scores 53 + 11 = 64."]
    for line in working:
        assert line in calc.working_html.value


def test_scoring_clicks_give_and_take_back_cards():
    calc = ScoreCalculator()
    calc.picker.pick("KD")
    assert calc.hand_boxes[1].value == "8D 3C KD" and calc.result.scores[0] == 74
    calc.target_box.value = 2
    calc.picker.pick("KD")  # moves the K♦ from seat 1 to seat 2
    assert calc.hand_boxes[1].value == "8D 3C" and calc.hand_boxes[2].value == "QH AS KD"
    calc.picker.pick("KD")
    assert calc.result.scores[0] == 64


def test_MU_scoring_is_minus_one_per_card_and_breens_keeps_none():
    assert score_hands("crazy-8s-music", [[], ["5C", "JK"], ["2H"]], 0).scores == (0, -2, -1)
    assert score_hands("crazy-breens", [[], ["5C", "JK"]], 0).scores == (0, 0)
    calc = ScoreCalculator(rules="crazy-eights")
    calc.set_hand(1, "8D 3X")
    assert calc.result is None and "3X" in calc.message.value and not calc.errors


def test_a_link_seed_is_mixed_with_the_server_secret_and_an_explicit_seed_is_exact(
        monkeypatch):
    """A class link deals the same cards for everyone on one server, but the seed in it is
    not the engine's seed; GameTable(seed=...) stays exactly reproducible."""
    from crazylab.widgets.table import link_seed

    monkeypatch.setenv("CRAZYLAB_SECRET", "teacher-one")
    a = GameTable.from_query("seed=5&opponents=2&delay=0")
    b = GameTable.from_query("seed=5&opponents=2&delay=0")
    assert a.game.hands == b.game.hands  # the same link, the same deal
    assert link_seed("5") != 5 and link_seed("5") == link_seed("5", "teacher-one")
    assert link_seed("5", "teacher-two") != link_seed("5", "teacher-one")
    plain = GameTable("crazy-eights-classic", opponents=2, seed=5, delay=0)
    assert a.game.hands != plain.game.hands  # the link does not give the engine's seed away
    again = GameTable("crazy-eights-classic", opponents=2, seed=5, delay=0)
    assert plain.game.hands == again.game.hands
    assert link_seed("5", "") == 5 and link_seed("five", "x") == "five"


def test_the_table_plays_house_action_cards_and_jump_in_and_says_what_to_do():
    """V12/V14 at the table: a hit under house action cards and a jump-in chance for the
    human are explained and offered as buttons; every hand still ends."""
    import random

    import crazylab as cl
    from crazylab.widgets import GameTable

    seen: dict[str, tuple[str, list]] = {}
    for seed in range(60):
        table = GameTable("crazy-eights-classic", opponents=2, seed=seed, delay=0)
        table.set_rules(cl.rules("crazy-eights-classic", jump_in=True, decks=2,
                                 action_cards="2=draw2,A=skip"))
        rng = random.Random(seed)
        for _ in range(2000):
            if table.game.result is not None:
                break
            if table.your_turn:
                phase = table.game.phase
                if phase in ("jump", "penalty") and phase not in seen:
                    actions = [a.get("move") for a in table.view.get("actions", [])]
                    seen[phase] = (table.view["message"], actions)
                assert table.play(rng.choice([str(m) for m in table.game.legal_moves()]))
            else:
                table.run_bots()
            assert not table.error, table.error
        assert table.game.result is not None, f"seed {seed}: the hand did not end"
        if len(seen) == 2:
            break
    assert "You hold a card identical to the top" in seen["jump"][0]
    assert seen["jump"][1] == ["pass"]
    assert "You are hit" in seen["penalty"][0] and "draw" in seen["penalty"][1]


def test_a_play_that_leaves_one_card_asks_for_the_last_card_call():
    """A14 at the table: with last_card_call on, a card that leaves one card opens a
    chooser (call or not); calling avoids the penalty, forgetting it draws it."""
    import crazylab as cl
    from crazylab.widgets import GameTable

    outcomes = {}
    for seed in range(40):
        for call in (True, False):
            table = GameTable("crazy-eights-classic", opponents=1, seed=seed, delay=0)
            table.set_rules(cl.rules("crazy-eights-classic", last_card_call=True))
            for _ in range(500):
                if table.game.result is not None or len(outcomes) == 2:
                    break
                if not table.your_turn:
                    table.run_bots()
                    continue
                hand = table.game.hands[0]
                legal = table.game.legal_moves()
                calls = [m for m in legal if m.last]
                if len(hand) == 2 and calls:
                    card = calls[0].cards[0]
                    assert table.click_card(str(card))
                    tree = table.view["choosers"][str(card)]
                    assert tree["kind"] == "last" and "Last card" in tree["title"]
                    [index] = [o["index"] for o in tree["options"]
                               if ("say" in o["label"]) == call]
                    stock = len(table.game.stock)
                    assert table.choose(index)
                    table.run_bots()
                    outcomes[call] = (len(table.game.hands[0]), stock - len(table.game.stock))
                    break
                table.play(str(legal[0]))
    assert outcomes[True][0] <= 1  # called: one card left (or out on the next turn)
    assert outcomes[False][0] >= 3  # forgot: one card plus the penalty of 2


# -- the table's words: every effect said, kept, for people (issue 19) -----------------------

from crazylab.rulebook import RULE_ID  # noqa: E402

CARD_CODE = re.compile(r"(?<![\w@+])(?:10|[2-9AJQK])[CDHS](?![\w@:+])")


def _first_play(obs, rng):
    """A bot that plays (a Jack counter when hit) whenever it can."""
    plays = [m for m in obs.legal if m.kind == "play"]
    return plays[0] if plays else obs.legal[0]


def _chain_table(delay: float = 0.7) -> GameTable:
    game = Game.from_position(
        "crazy-breens", 2, hands=[["KS", "5D", "6D"], ["JD", "9C", "4H", "QC"]],
        stock=["KD", "2D", "3C", "9S", "10C", "7D", "4S", "5C", "8H", "3H"],
        discard=["7S"], to_play=0)
    table = GameTable("crazy-breens", opponents=1, seed=1, delay=delay, bot=_first_play)
    table.set_game(game)
    return table


def _shown_words(view: dict) -> list[str]:
    texts = [view["message"], *view["news"], *view["log"],
             *(p["text"] for p in view["pending"]), *(c["why"] for c in view["hand"])]
    for h in view["hint"].get("legal", []) + view["hint"].get("other", []):
        texts += [*h["moves"]]  # its why is the hand entry's
    if view["chooser"]:
        texts += [view["chooser"]["title"], *(o["label"] for o in view["chooser"]["options"])]
    if view["end"]:
        end = view["end"]
        texts += [end["headline"], end["how"], end["match"],
                  *(h["counted"] for h in end["hands"])]
    return texts


def test_a_king_chain_and_a_jack_counter_are_said_in_order_and_kept_until_you_move():
    """A King's deck play was never announced and a bot's counter showed for one step: each
    step of the answer now keeps every sentence of the steps before it."""
    table = _chain_table()
    sent: list[dict] = []
    table.send = sent.append
    table._on_message(table, {"action": "move", "move": "KS"})
    (answer,) = sent
    news = [st["news"] for st in answer["steps"] if "news" in st]
    assert news[-1] == [
        "You played K♠.",
        "Your K♠ turns K♦ from the stock onto the pile, as your play.",
        "Your K♦ turns 2♦ from the stock onto the pile, as your play.",
        "Your 2♦ hits Bot 1: Bot 1 must draw 2 cards and lose the turn, unless they counter "
        "with a Jack.",
        "Bot 1 countered with J♦: the hit is over, and the suit is now ♦ diamonds."]
    for before, after in zip(news, news[1:], strict=False):  # kept, never replaced
        assert after[:len(before)] == before
    assert table.view["message"] == "Your turn: play a marked card."
    table.click_card("5D")  # the next move of the human starts the status again
    assert table.view["news"][0] == "You played 5♦."


def test_a_hit_on_you_says_you_are_hit_and_which_jack_counters_without_rule_ids():
    table = hit_table([["JH", "5D"], ["2C", "9D", "4S"]], "2C")
    view = table.view
    (line,) = view["pending"]
    assert line["text"].startswith("You are hit by Bot 1's 2")
    assert "click J♥" in line["text"] and not RULE_ID.search(line["text"])
    assert "Bot 1's 2♣ hits you: you must draw 2 cards and lose your turn, unless you " \
           "counter with a Jack." in view["log"]


@pytest.mark.parametrize("preset", ["crazy-breens", "crazy-8s-level-2", "crazy-8s-music",
                                    "crazy-eights-classic"])
def test_no_rule_id_no_card_code_and_no_broken_grammar_in_whole_hands(preset):
    """Everything a learner reads at the table (status, news, banner, log, why a card is
    refused or fits, the hint, the chooser, the end) over whole hands: no rule id, cards in
    symbols, "you" as a person, piles counted from 1."""
    for seed in range(3):
        table = GameTable(preset, opponents=2, seed=seed, delay=0)
        table.hint()
        rng = random.Random(seed)
        piles = table.rules.piles
        for _ in range(3000):
            view = table.view
            for text in _shown_words(view):
                assert not RULE_ID.search(text), text
                assert not CARD_CODE.search(text), text
                assert not re.search(r"You's|You: |\(seat \d\)|You (is|was|loses|wins)\b|"
                                     r"\b[Ss]eat \d|moved\.$", text), text
                for n in re.findall(r"\b[Pp]ile (\d+)", text):
                    assert 1 <= int(n) <= piles, text
            if table.game.over:
                break
            if view["chooser"]:
                table.choose(rng.randrange(len(view["chooser"]["options"])))
            elif any(c["legal"] for c in view["hand"]):
                table.click_card(rng.choice([c["card"] for c in view["hand"] if c["legal"]]))
            else:
                table.press(view["actions"][0]["move"])
        assert table.game.over and not table.errors
        if piles > 1:
            assert [p["label"] for p in view["piles"]] == [f"Pile {i + 1}" for i in range(piles)]


@pytest.mark.parametrize("preset", ["crazy-eights-classic", "crazy-8s-level-3", "crazy-breens",
                                    "crazy-eights"])
def test_the_end_of_a_hand_shows_every_hand_and_counts_it_as_the_engine_scores(preset):
    from crazylab.engine.scoring import hand_points

    table = GameTable(preset, opponents=2, seed=7, delay=0)
    table.match.game.play_random(random.Random(7))  # the bots' way to an end, for speed
    table._after_move(from_bot=True)
    g, end = table.game, table.view["end"]
    assert g.over and end is not None
    assert [h["cards"] for h in end["hands"]] == [[str(c) for c in h] for h in g.hands]
    assert [h["score"] for h in end["hands"]] == list(g.scores)
    for h, hand in zip(end["hands"], g.hands, strict=True):
        if table.rules.scoring == "minus_one_per_card":
            assert h["points"] == -len(hand)
        else:
            assert h["points"] == hand_points(table.rules, hand)
        if len(hand) > 1 and table.rules.scoring != "none":
            assert h["counted"].endswith(f"= {h['points']}".replace("-", "−"))
    if g.result.reason != "VOID" and table.rules.scoring != "none":
        assert end["how"]  # the working agrees with the engine's scores
    assert end["scores"] == table.match.scores
    faces = table._stream.faces(table.view, everything=True)
    assert all(c in faces for h in end["hands"] for c in h["cards"])  # drawn face up


def test_the_end_of_a_classic_hand_says_what_the_winner_collects():
    table = table_at("crazy-eights-classic", delay=0,
                     hands=[["6C"], ["8S", "KH", "3D"], ["2C", "QD"]],
                     stock=["4C", "5C", "7C"], discard=["6H"], to_play=0)
    table.click_card("6C")
    end = table.view["end"]
    assert [h["counted"] for h in end["hands"]] == [
        "no cards left", "8♠ 50 + K♥ 10 + 3♦ 3 = 63", "2♣ 2 + Q♦ 10 = 12"]
    assert end["how"] == "You collect the points left in the other hands: 63 + 12 = 75."
    assert end["match"] == "Match so far (first to 100 points): You 75, Bot 1 0, Bot 2 0."
    assert table.view["message"] == ("You went out and win the hand with 75 points; "
                                     "Bot 1 and Bot 2 score 0 points.")


def test_a_variant_with_house_rules_is_named_and_its_sheet_says_them_in_words():
    import crazylab

    table = GameTable(crazylab.rules("crazy-eights-quick", draw_limit=2), opponents=1, seed=1)
    assert table.view["title"] == "crazy-eights-quick + house rules: draw limit 2"
    assert table.view["description"].startswith("Changed from the preset: ")
    assert "Draw limit: 2" in table.view["sheet"] and "(the preset: 3)" in table.view["sheet"]
    labels = {p["name"]: p["label"] for p in table.view["settings"]["presets"]}
    assert labels["crazy-eights-quick"] == "crazy-eights-quick + house rules: draw limit 2"
    table.set_rules(crazylab.rules("crazy-eights", card_values={8: 20, 13: 5},
                                   voluntary_draw=False))
    sheet = table.view["sheet"]
    assert "Card values: 8 = 20, K = 5" in sheet and "Voluntary draw: no" in sheet
    assert "((" not in sheet and "(8, 20)" not in sheet  # no Python tuple
    assert table.view["title"].startswith("crazy-eights + house rules: voluntary draw: no")
    table.set_rules("crazy-eights")
    assert table.view["title"] == "crazy-eights" and "House rules" not in table.view["sheet"]


def test_for_people_takes_rule_ids_and_card_codes_out_of_engine_sentences():
    from crazylab.seat.words import for_people

    assert for_people("3H matches neither the rank nor the suit of AD.") == \
        "3♥ matches neither the rank nor the suit of A♦."
    assert for_people("3♥ matches neither the rank nor the suit of A♦.") == \
        "3♥ matches neither the rank nor the suit of A♦."
    assert for_people("Bot 1: loses the turn (BR-M4).") == "Bot 1: loses the turn."
    assert for_people("only a Jack can answer (BR-22; no passing the hit on, BR-Q23).") == \
        "only a Jack can answer (no passing the hit on)."
    assert for_people("a unison never counts (MU-29); try 10D") == \
        "a unison never counts; try 10♦"
    assert for_people("reverses (Q♥, action_cards V12).") == "reverses (Q♥)."
    assert for_people("typed 4D@0 or 8S:D") == "typed 4D@0 or 8S:D"  # notation stays
    assert for_people("Seat 0 must call", ["You", "Bot 1"]) == "You must call"


def test_wait_text_never_says_yous_turn():
    table = table_at(**WORKED_TURN)
    table.click_card("KH")  # the bot is to move (delay 5 s)
    table.click_card("6C")
    assert table.view["message"] == "Wait: it is Bot 1's turn."
    # the browser's own wait text names the seat to play only when it is not the human's
    assert "${v.names[v.to_play]}'s turn" not in str(table._esm)

"""House rules of rulings.md §6.5 (A1 ...) and §6.4 (V...): each non-default option value the
engine plays, tested by its ruling id; refused moves explain why and change nothing."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_random_games import play_checked

import crazylab as cl
from crazylab.engine.game import Game, IllegalMove
from crazylab.engine.rules import rules
from crazylab.engine.variants import breens as effects

pytestmark = pytest.mark.engine

BR = "crazy-breens"


def position(preset: str, hands: list[list[str]], discard: list[str], stock: list[str] = (),
             *, to_play: int = 0, suit: str | None = None, **opts: object) -> Game:
    return Game.from_position(rules(preset, **opts), len(hands), hands=hands, stock=stock,
                              discard=discard, to_play=to_play, suit=suit, seed=11)


def push(g: Game, *moves: str) -> Game:
    for m in moves:
        g.push(m)
    return g


def refused(g: Game, move: str, says: str) -> None:
    before = g.fingerprint()
    assert says.lower() in g.explain(move).lower(), g.explain(move)
    with pytest.raises(IllegalMove, match=says):
        g.push(move)
    assert g.fingerprint() == before


def kinds(g: Game, kind: str) -> list:
    return [e for e in g.events if e.kind == kind]


# -- A15 / V16: forbid_final_wild, forbid_final_action -------------------------------------------


def test_A15_V16_forbid_final_wild_an_eight_may_not_be_the_last_card():
    g = position("crazy-eights", [["8S"], ["3H", "4H"]], ["6C"], ["2D", "6H", "7C"],
                 forbid_final_wild=True)
    assert g.legal() == ["draw"]  # as if holding no legal card
    refused(g, "8S:D", "cannot go out on a wild card")
    refused(g, "8S", "cannot go out on a wild card")
    push(g, "draw")  # 2D fits nothing, but the eight is no longer the last card
    assert g.legal() == ["8S:C", "8S:D", "8S:H", "8S:S", "draw"]
    push(g, "8S:H", "3H")
    assert not g.over
    assert not rules("crazy-eights").final_ban  # the default allows a final eight (SR-21)


def test_A15_forbid_final_wild_with_an_empty_stock_passes():
    g = position("crazy-eights", [["8S"], ["3H", "4H"]], ["6C"], forbid_final_wild=True)
    assert g.legal() == ["pass"]
    refused(g, "8S:C", "wild card")
    push(g, "pass")
    assert g.to_play == 1


def test_A15_forbid_final_wild_the_music_joker_in_a_chain():
    g = position("crazy-8s-music", [["5H", "JK"], ["3C", "4C"]], ["6H"], ["2C", "3D", "4S"],
                 forbid_final_wild=True)
    push(g, "5H")
    assert g.phase == "chain" and g.legal() == ["end"]
    refused(g, "JK:D", "wild card")


def test_A15_forbid_final_action_breens_cards_and_the_jack_counter():
    for card in ("2H", "AH", "QH", "KH"):
        g = position(BR, [[card], ["3C", "4C"]], ["7H"], ["9S", "10S", "5H"],
                     forbid_final_action=True)
        assert g.legal() == ["draw"], card
        refused(g, card, "cannot go out on an action card")
    g = position(BR, [["JK"], ["3C", "4C"]], ["7H"], ["9S"], forbid_final_action=True)
    refused(g, "JK:D", "action card")
    # an eight is wild, not an action card; a 5 is neither
    g = position(BR, [["8H"], ["3C", "4C"]], ["7H"], ["9S"], forbid_final_action=True)
    push(g, "8H")
    assert g.over and g.winner == 0
    # a Jack as a counter may not be the last card; a matching Jack played normally may
    g = position(BR, [["2C", "9C", "5D"], ["JH"], ["3S", "4S"]], ["7C"], ["9S", "10S", "6C"],
                 forbid_final_action=True)
    push(g, "2C")
    assert g.legal() == ["draw"]
    refused(g, "JH", "a Jack countering is one")
    g = position(BR, [["JC"], ["3C", "4C"]], ["7C"], ["9S"], forbid_final_action=True)
    push(g, "JC")
    assert g.over


def test_A15_forbid_final_action_a_queen_drop_may_not_be_a_last_action_card():
    g = position(BR, [["QH", "KS"], ["3C", "4C"], ["3D", "4D"]], ["7H"], ["9S", "10S"],
                 forbid_final_action=True)
    push(g, "QH")
    assert g.legal() == ["end"]
    refused(g, "KS", "action card")
    g = position(BR, [["QH", "5S"], ["3C", "4C"], ["3D", "4D"]], ["7H"], ["9S", "10S"],
                 forbid_final_action=True)
    push(g, "QH", "5S")
    assert g.over and g.winner == 0


def test_A15_forbid_final_action_stacks_and_the_plain_games():
    g = position(BR, [["2H", "2S"], ["3C", "4C"]], ["7H"], ["9S"], forbid_final_action=True)
    assert g.legal() == ["2H"]  # 2H+2S would empty the hand on a 2 (2S fits nothing)
    # without the special cards only the joker acts (the music game's draw two)
    assert rules("crazy-eights", forbid_final_action=True).final_ban == frozenset()
    assert {str(c) for c in rules("crazy-8s-music", forbid_final_action=True).final_ban} \
        == {"JK"}


# -- A6: joker_only_if_no_suit (BR-Q42) -----------------------------------------------------------


def test_A6_BR_Q42_a_joker_only_without_a_card_of_the_active_suit():
    g = position(BR, [["JK", "5H", "7C"], ["3C", "4C"]], ["7H"], ["9S", "10S"],
                 joker_only_if_no_suit=True)
    assert sorted(g.legal()) == ["5H", "7C"]
    refused(g, "JK:D", "hold no heart")
    # a rank match and an eight (even of the active suit) do not forbid it
    g = position(BR, [["JK", "7C", "8H"], ["3C", "4C"]], ["7H"], ["9S", "10S"],
                 joker_only_if_no_suit=True)
    assert {"JK:D", "7C", "8H:D"} <= set(g.legal())
    # the suit in force after a called wild counts, not the wild's own
    g = position(BR, [["JK", "3D", "5H"], ["3C", "4C"]], ["8H"], ["9S"], suit="D",
                 joker_only_if_no_suit=True)
    assert not any(m.startswith("JK") for m in g.legal())
    assert any(m.startswith("JK") for m in position(
        BR, [["JK", "3D", "5H"], ["3C", "4C"]], ["8H"], ["9S"], suit="D").legal())


def test_A6_drops_and_deck_plays_are_unaffected():
    g = position(BR, [["QH", "JK", "5H"], ["3C", "4C"], ["3S", "4S"]], ["7H"], ["9S", "10S"],
                 joker_only_if_no_suit=True)
    push(g, "QH")
    assert "JK:C" in g.legal()  # the drop need not match, and may be a joker
    push(g, "JK:C")
    assert effects.pending(g)[0]["draw"] == 4
    g = position(BR, [["KH", "5H", "9C"], ["3C", "4C"], ["3S", "4S"]], ["7H"], ["JK", "10S"],
                 joker_only_if_no_suit=True)
    push(g, "KH")  # the King turns the joker: it is played for seat 0 regardless
    assert g.top == cl.card("JK") and g.phase == "declare"


def test_A6_refused_where_no_suit_is_followed():
    with pytest.raises(cl.RulesError, match="joker_only_if_no_suit needs suits"):
        rules("crazy-8s-level-3", joker_only_if_no_suit=True)


# -- A4: mid_draw_applies_to="twos_only" (BR-Q21, BR-26) ---------------------------------------


def test_A4_BR_Q21_twos_only_a_jack_drawn_for_a_joker_is_kept():
    hands = [["JK", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7S"], ["JH", "6D", "6H", "6S", "6C"],
                 mid_draw_applies_to="twos_only")
    push(g, "JK:D", "draw")
    assert g.legal() == ["draw"]  # no counter window
    refused(g, "JH", "cannot counter")
    push(g, "draw", "draw", "draw")
    assert "JH" in [str(c) for c in g.hands[1]] and g.to_play == 2
    # the default: the same Jack counters
    g = position(BR, hands, ["7S"], ["JH", "6D", "6H", "6S", "6C"])
    push(g, "JK:D", "draw")
    assert "JH" in g.legal()


def test_A4_twos_only_a_jack_drawn_for_a_two_still_counters():
    hands = [["2S", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7S"], ["JH", "6D", "6H"], mid_draw_applies_to="twos_only")
    push(g, "2S", "draw")
    assert sorted(g.legal()) == ["JH", "draw"]
    push(g, "JH")
    assert g.suit == "H" and g.to_play == 2


# -- A12: reshuffle_timing="eager" (AP-Q6, MU-Q11) ---------------------------------------------


def test_A12_AP_Q6_eager_reshuffles_when_the_last_stock_card_is_drawn():
    setup = ([["3D", "4C"], ["QH", "JC"]], ["2S", "4S", "9H"], ["5C", "6C"])
    g = position("crazy-eights-classic", *setup, reshuffle_timing="eager")
    push(g, "draw")
    assert (g.stock_size, g.reshuffles) == (1, 0)
    push(g, "draw")  # the last stock card: the discards but the top are the stock at once
    assert (g.stock_size, g.reshuffles, g.discard) == (2, 1, [cl.card("9H")])
    assert g.legal() == ["draw"]  # the next decision already sees the new stock
    events = [e.kind for e in g.events]
    assert events[-2:] == ["drew", "reshuffled"]
    lazy = position("crazy-eights-classic", *setup)
    push(lazy, "draw", "draw")
    assert (lazy.stock_size, lazy.reshuffles) == (0, 0)
    push(lazy, "draw")
    assert lazy.reshuffles == 1


def test_A12_an_eager_reshuffle_with_nothing_under_the_top_does_not_count():
    g = position("crazy-eights-classic", [["3D", "4C"], ["QH", "JC"]], ["9H"], ["5C"],
                 reshuffle_timing="eager")
    push(g, "draw")
    assert (g.stock_size, g.reshuffles) == (0, 0)
    assert g.legal() == ["pass"]


def test_A12_MU_Q11_eager_in_the_music_draw_two_keeps_each_pile_top():
    g = Game.from_position(rules("crazy-8s-level-2", reshuffle_timing="eager"), 2,
                           hands=[["3C"], ["4C"]], stock=["5D", "6D"],
                           piles=[["9S", "KS"], ["10H", "2H"]], to_play=0, seed=3)
    push(g, "draw")
    assert g.reshuffles == 1 and g.stock_size == 2 and g.tops == [cl.card("KS"), cl.card("2H")]


def test_A12_eager_within_a_king_chain_still_reshuffles_once_BR_Q27():
    hands = [["KH", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["2D", "KD", "KS", "7H"], ["KC"], reshuffle_timing="eager")
    push(g, "KH")  # turns KC (the last card): reshuffle now; the chain turns on
    assert g.reshuffles == 1
    assert not g.over


# -- A3: queen_drop_count (BR-Q30) ----------------------------------------------------------------


def test_A3_BR_Q30_queen_drop_count_drops_one_at_a_time_each_effect_first():
    hands = [["QH", "AC", "8S", "9S", "5D"], ["3C", "4D"], ["3H", "4H"], ["3S", "4S"]]
    g = position(BR, hands, ["7H"], ["10C", "10D", "10H"], queen_drop_count=3)
    push(g, "QH", "AC")  # drop 1: an Ace's skip hit (assigned when the action closes)
    assert g.phase == "drop" and g.to_play == 0
    refused(g, "9S+5D", "one card at a time")
    push(g, "8S:D")  # drop 2: the eight's call resolves before the next drop
    assert (g.phase, g.suit) == ("drop", "D")
    push(g, "9S")  # drop 3: the last one allowed
    assert g.phase == "penalty" and g.to_play == 1
    assert [e.kind for e in g.events].count("dropped") == 3
    assert effects.pending(g)[0]["draw"] == 0  # the Ace's skip


def test_A3_end_stops_dropping_and_a_dropped_queen_adds_drops():
    hands = [["QH", "QC", "9S", "5D", "6S"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7H"], ["10C", "10D"], queen_drop_count=2)
    push(g, "QH", "QC")  # drop 1 is a Queen: two more drops of its own
    push(g, "9S", "5D")
    assert g.phase == "drop"
    push(g, "end")
    assert (g.phase, g.to_play, g.top) == ("play", 1, cl.card("5D"))
    # the default is one drop (BR-Q30)
    g = position(BR, [["QH", "9S", "5D"], ["3C", "4D"]], ["7H"], ["10C"])
    push(g, "QH", "9S")
    assert g.to_play == 1


def test_A3_a_king_dropped_turns_a_wild_declared_then_drops_resume():
    hands = [["QH", "KC", "9S", "5D"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7H"], ["8D", "10D"], queen_drop_count=2)
    push(g, "QH", "KC")  # the King's deck play turns 8D: seat 0 declares
    assert g.phase == "declare"
    push(g, "8D:S")
    assert (g.phase, g.suit) == ("drop", "S")
    push(g, "5D")
    assert g.to_play == 1 and g.top == cl.card("5D")


def test_A3_dropping_the_last_card_wins():
    g = position(BR, [["QH", "9S", "5D"], ["3C", "4D"]], ["7H"], ["10C"], queen_drop_count=2)
    push(g, "QH", "9S", "5D")
    assert g.over and g.winner == 0


# -- properties over random combinations of the house rules --------------------------------------

#: every house-rule value the engine plays, by option (the presets' defaults are the others)
HOUSE = {
    "forbid_final_wild": [True],
    "forbid_final_action": [True],
    "joker_only_if_no_suit": [True],
    "mid_draw_applies_to": ["twos_only"],
    "reshuffle_timing": ["eager"],
    "queen_drop_count": [2, 3],
    "starter_eight": ["first_player_declares"],
    "starter_wild_declarer": ["first_player", "printed_suit"],
    "last_card_call": [True],
    "last_card_penalty": [0, 4],
    "flip_again_on_any_special": [True],
    "draw_passing": [True],
    "extra_hits_cost_turns": [True],
    "seed_joker": ["dealer_announces"],
    "seed_wild_levels": ["dealer_announces"],
}


def all_cards(game: Game) -> Counter:
    return Counter([c for h in game.hands for c in h] + game.stock_cards
                   + [c for p in game.piles for c in p])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_random_house_rule_combinations_keep_every_invariant(data, seed):
    """No card created or lost, refused moves change nothing, undo is exact, the game ends
    and a saved game loads, whatever house rules are combined."""
    from crazylab.examples import game_to_example, load_game

    preset = data.draw(st.sampled_from(list(cl.PRESETS)))
    chosen = data.draw(st.dictionaries(st.sampled_from(sorted(HOUSE)), st.just(None)))
    opts = {k: data.draw(st.sampled_from(HOUSE[k])) for k in chosen}
    try:
        r = rules(preset, **opts)
    except cl.RulesError:
        return  # a combination the schema refuses (joker_only_if_no_suit on a level)
    n = data.draw(st.integers(r.min_players, r.max_players))
    game = Game.new(r, n, seed=seed)
    deck = Counter(r.deck)
    rng = random.Random(seed)
    for _ in range(60):
        assert all_cards(game) == deck
        if game.over:
            break
        legal = game.legal_moves()
        assert legal and len(set(legal)) == len(legal)
        before = game.fingerprint()
        cards = [str(c) for c in rng.sample(r.deck, 3)]
        for text in ("draw", "pass", "end", *cards, *(f"{c}!" for c in cards)):
            if not game.is_legal(text):
                with pytest.raises(IllegalMove) as e:
                    game.push(text)
                assert str(e.value)
                assert game.fingerprint() == before
        for m in rng.sample(legal, min(2, len(legal))):
            assert game.explain(m) == ""
            game.push(m)
            game.undo()
            assert game.fingerprint() == before
        game.push(rng.choice(legal))
    play_checked(game, seed)  # the rest through the shared harness: cards, turns, undo, end
    if game.result.reason == "OUT":
        assert not game.hands[game.winner]
        last = [e for e in game.events if e.kind == "played" and e.seat == game.winner][-1]
        assert last.cards[-1] not in r.final_ban  # A15: nobody went out on a barred card
    assert load_game(game_to_example(game)).fingerprint() == game.fingerprint()


# -- A13: starter_eight="first_player_declares" (AP-Q1); A7: starter_wild_declarer (BR-Q5) ------


def deck_with_starter(preset: str, players: int, hands: list[list[str]], starter: str,
                      **opts: object) -> Game:
    """A stacked deck dealing ``hands`` (dealer = the last seat), then ``starter``."""
    r = rules(preset, **opts)
    size = r.hand_size_for(players)
    order = [hands[k % players][k // players] for k in range(size * players)] + [starter]
    rest = [str(c) for c in r.deck]
    for c in order:
        rest.remove(c)
    return Game.from_deck(r, players, order + rest, seed=5)


SR_HANDS = [["3C", "4C", "5C", "6D", "7D"], ["3H", "4H", "5H", "6S", "7S"]]


def test_A13_AP_Q1_the_first_player_names_a_starter_eights_suit():
    g = deck_with_starter("crazy-eights-classic", 3, [*SR_HANDS, ["9C", "9D", "9H", "9S", "10C"]],
                          "8H", starter_eight="first_player_declares")
    assert (g.phase, g.to_play, g.top) == ("declare", 0, cl.card("8H"))
    assert g.legal() == ["8H:C", "8H:D", "8H:H", "8H:S"]
    refused(g, "3C", "names the suit of the starter")
    refused(g, "draw", "not a play and not a turn")
    turns = g.turns
    push(g, "8H:C")
    # neither a play nor a turn: seat 0 now takes the first turn on clubs
    assert (g.phase, g.to_play, g.suit, g.turns, g.hand_sizes[0]) == ("play", 0, "C", turns, 5)
    assert {"3C", "4C", "5C"} <= set(g.legal())
    g.undo()
    assert g.phase == "declare" and g.suit == "H"


def test_A13_other_starters_are_played_on_at_once_and_music_main_eights_refuse():
    g = deck_with_starter("crazy-eights", 2, SR_HANDS, "6H", starter_eight="first_player_declares")
    assert g.phase == "play"
    with pytest.raises(cl.RulesError, match="needs eights that call a suit"):
        rules("crazy-8s-music", starter_eight="first_player_declares")


BR_HANDS = [["3D", "4D", "5D", "6D", "7D", "9D", "10D"],
            ["3H", "4H", "5H", "6H", "7H", "9H", "10H"],
            ["3S", "4S", "5S", "6S", "7S", "9S", "10S"]]


def test_A7_BR_Q5_first_player_declares_a_starter_eight_as_no_turn():
    g = deck_with_starter(BR, 3, BR_HANDS, "8C", starter_wild_declarer="first_player")
    assert (g.phase, g.to_play) == ("declare", 0)
    refused(g, "3D", "starter_wild_declarer='first_player'")
    push(g, "8C:D")
    assert (g.phase, g.to_play, g.suit) == ("play", 0, "D")
    # the default: the dealer (seat 2) names it
    g = deck_with_starter(BR, 3, BR_HANDS, "8C")
    assert (g.phase, g.to_play) == ("declare", 2)


def test_A7_first_player_declares_a_starter_joker_then_takes_its_hit():
    g = deck_with_starter(BR, 3, BR_HANDS, "JK", starter_wild_declarer="first_player")
    assert (g.phase, g.to_play) == ("declare", 0)
    push(g, "JK:S")
    assert (g.phase, g.to_play, g.suit) == ("penalty", 0, "S")
    assert effects.pending(g)[0]["draw"] == 4
    # printed_suit: an eight keeps its suit, a joker is the dealer's to declare
    g = deck_with_starter(BR, 3, BR_HANDS, "JK", starter_wild_declarer="printed_suit")
    assert (g.phase, g.to_play) == ("declare", 2)
    g = deck_with_starter(BR, 3, BR_HANDS, "8C", starter_wild_declarer="printed_suit")
    assert (g.phase, g.to_play, g.suit) == ("play", 0, "C")


# -- A14 / V11: last_card_call, last_card_penalty ----------------------------------------------


def test_A14_V11_a_play_leaving_one_card_carries_the_call():
    setup = ([["6C", "9D"], ["3H", "4H", "5S"]], ["6H"], ["2C", "3C", "4C"])
    g = position("crazy-eights", *setup, last_card_call=True)
    assert g.legal() == ["6C", "6C!", "draw"]
    push(g, "6C!")
    assert g.hand_sizes == [1, 3] and g.stock_size == 3 and g.to_play == 1
    assert kinds(g, "last_card")[-1].why == "said"
    g = position("crazy-eights", *setup, last_card_call=True)
    push(g, "6C")  # forgotten: the penalty, at once
    assert g.hand_sizes == [3, 3] and g.stock_size == 1 and g.to_play == 1
    g = position("crazy-eights", *setup, last_card_call=True, last_card_penalty=4)
    push(g, "6C")  # a penalty bigger than the stock is what the stock holds
    assert g.hand_sizes == [4, 3] and g.stock_size == 0


def test_A14_the_call_where_it_does_not_belong_is_refused():
    g = position("crazy-eights", [["6C", "9D", "KH"], ["3H", "4H"]], ["6H"], ["2C"],
                 last_card_call=True)
    refused(g, "6C!", "would leave you 2 cards")
    assert "!" not in "".join(g.legal())
    off = position("crazy-eights", [["6C", "9D"], ["3H", "4H"]], ["6H"], ["2C"])
    refused(off, "6C!", "no last-card call in these rules")
    # going out needs no call, but saying it is no fault
    g = position("crazy-eights", [["6C"], ["3H", "4H"]], ["6H"], ["2C"], last_card_call=True)
    assert g.legal() == ["6C", "draw"]
    push(g, "6C!")
    assert g.over and g.winner == 0


def test_A14_notation_round_trips_and_old_moves_are_unchanged():
    for text in ("6C!", "8S:D!", "2H+2S!", "5H@1!", "8S@0:E!"):
        m = cl.Move.parse(text)
        assert m.last and str(m) == text and cl.Move.parse(str(m)) == m
    for text in ("6C", "8S:D", "2H+2S", "draw", "pass", "end"):
        m = cl.Move.parse(text)
        assert not m.last and str(m) == text
    with pytest.raises(cl.MoveError, match="last-card call of a play"):
        cl.Move.parse("draw!")


def test_A14_in_breens_drops_counters_and_stacks():
    g = position(BR, [["QH", "5S", "9C"], ["3C", "4C"], ["3D", "4D"]], ["7H"], ["9S", "10S"],
                 last_card_call=True)
    assert g.legal() == ["QH"]  # leaves two cards
    push(g, "QH")
    assert set(g.legal()) == {"5S", "5S!", "9C", "9C!", "end"}
    push(g, "5S")
    assert g.hand_sizes[0] == 3  # forgot: two penalty cards
    g = position(BR, [["2C", "9C", "5D"], ["JH", "JS", "3H"], ["3S", "4S"]], ["7C"],
                 ["9S", "10S", "6C"], last_card_call=True)
    push(g, "2C")
    assert {"JH+JS!", "JS+JH!", "JH+JS"} <= set(g.legal())
    push(g, "JS+JH!")
    assert g.hand_sizes[1] == 1 and g.to_play == 2


def test_A14_in_the_music_chain():
    g = position("crazy-8s-music", [["5H", "5C", "9C"], ["3D", "4D"]], ["6H"], ["2S", "3S"],
                 last_card_call=True)
    push(g, "5H", "5C")  # forgot the call mid-chain: two cards at once, and the chain goes on
    assert g.hand_sizes[0] == 3 and g.phase == "chain"


# -- A2: flip_again_on_any_special (BR-Q10) ----------------------------------------------------


def test_A2_BR_Q10_a_turned_special_acts_then_the_deck_plays_again():
    hands = [["KH", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7H"], ["2C", "JD", "6S", "10S"], flip_again_on_any_special=True)
    push(g, "KH")  # turns 2C (a hit on seat 1), flips again: JD (no effect), again: 6S
    assert g.top == cl.card("6S") and g.suit == "S"
    assert [str(e.cards[0]) for e in kinds(g, "flipped")] == ["2C", "JD", "6S"]
    assert effects.pending(g)[0]["draw"] == 2 and g.to_play == 1
    # the default: only a King flips again (BR-Q10)
    g = position(BR, hands, ["7H"], ["2C", "JD", "6S", "10S"])
    push(g, "KH")
    assert g.top == cl.card("2C")


def test_A2_a_turned_wild_is_declared_before_the_next_flip():
    hands = [["KH", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7H"], ["8C", "6S", "10S"], flip_again_on_any_special=True)
    push(g, "KH")
    assert (g.phase, g.top) == ("declare", cl.card("8C"))
    push(g, "8C:D")  # then one more deck play: 6S is the top, its suit in force
    assert (g.top, g.suit, g.to_play, g.phase) == (cl.card("6S"), "S", 1, "play")


def test_A2_a_turned_queen_drops_first_then_the_deck_plays():
    hands = [["KH", "9C", "5C"], ["3C", "4D"], ["3H", "4H"]]
    g = position(BR, hands, ["7H"], ["QC", "6S", "10S"], flip_again_on_any_special=True)
    push(g, "KH")
    assert g.phase == "drop"
    push(g, "9C")
    assert (g.top, g.to_play) == (cl.card("6S"), 1)
    g = position(BR, hands, ["7H"], ["QC", "6S", "10S"], flip_again_on_any_special=True)
    push(g, "KH", "end")
    assert (g.top, g.to_play) == (cl.card("6S"), 1)


# -- A5 / V15: draw_passing (BR-Q23) -----------------------------------------------------------


def test_A5_BR_Q23_a_victim_passes_the_draw_on_with_a_two():
    hands = [["2C", "9C", "5C"], ["2H", "3H", "4D"], ["3S", "4S"]]
    g = position(BR, hands, ["7C"], ["6C", "6D", "6H", "6S", "10C"], draw_passing=True)
    push(g, "2C")
    assert sorted(g.legal()) == ["2H", "draw"]
    refused(g, "3H", "pass the draw on with one two")
    push(g, "2H")  # seat 1 draws nothing; 2 + 2 and a lost turn go to seat 2
    assert (g.to_play, g.phase, g.top, g.hand_sizes[1]) == (2, "penalty", cl.card("2H"), 2)
    assert effects.pending(g)[0]["draw"] == 4
    push(g, *["draw"] * 4)
    assert (g.to_play, g.hand_sizes[2]) == (0, 6)
    # the default refuses it (BR-Q23)
    g = position(BR, hands, ["7C"], ["6C", "6D", "6H", "6S", "10C"])
    push(g, "2C")
    refused(g, "2H", "no passing the hit on")


def test_A5_a_joker_passes_a_joker_draw_with_a_call_and_back_to_the_actor():
    g = position(BR, [["JK", "9C", "5C"], ["JK", "3H", "4D"]], ["7S"], ["6D"],
                 draw_passing=True)
    push(g, "JK:H")
    assert {"JK:C", "JK:D", "JK:H", "JK:S"} <= set(g.legal())
    refused(g, "JK", "needs a suit")
    push(g, "JK:D")  # two players: the 8 cards and the lost turn go back to seat 0
    assert (g.to_play, g.phase, g.suit) == (0, "penalty", "D")
    assert effects.pending(g)[0]["draw"] == 8


# -- A1: extra_hits_cost_turns (BR-Q12) ---------------------------------------------------------


def test_A1_BR_Q12_each_wrapped_hit_costs_one_more_lost_turn():
    g = position(BR, [["AC", "AD", "9C", "5C"], ["3C", "4D", "6H"]], ["7D"], ["6C", "6D"],
                 extra_hits_cost_turns=True)
    push(g, "AD+AC")  # two players: both skips land on seat 1
    assert (g.to_play, g.legal()) == (1, ["pass"])
    push(g, "pass")  # the cycle's lost turn
    assert g.to_play == 0
    push(g, "9C")
    assert (g.to_play, g.phase, g.legal()) == (1, "lost", ["pass"])
    refused(g, "4D", "loses this turn too")
    push(g, "pass")  # the wrapped hit's extra turn, after seat 0 has acted
    assert (g.to_play, g.phase) == (0, "play")
    assert g.legal() == ["5C"]
    # the default: one lost turn per cycle (BR-T4)
    g = position(BR, [["AC", "AD", "9C", "5C"], ["3C", "4D", "6H"]], ["7D"], ["6C", "6D"])
    push(g, "AD+AC", "pass", "9C")
    assert (g.to_play, g.phase) == (1, "play")


def test_A1_a_counter_cancels_the_extra_turns_too():
    g = position(BR, [["2C", "2D", "2S", "5C"], ["JH", "4D", "6H"], ["3S", "4S"]], ["7C"],
                 ["6C", "6D", "6S", "10C", "10D", "10H"], extra_hits_cost_turns=True)
    push(g, "2C+2D+2S")  # seat 1: hits 1 and 3; seat 2: hit 2
    push(g, "JH")
    assert g.to_play == 2 and g.phase == "play"
    assert not g.variant_state.owed


# -- A9: seed_joker / seed_wild_levels = "dealer_announces" (MU-Q3, MU-Q34) ---------------------


MU_HANDS = [["3C", "4C", "5C", "6C", "7C"], ["3H", "4H", "5H", "6H", "7H"]]


def test_A9_MU_Q3_the_dealer_announces_a_joker_seeds_suit_and_nobody_draws():
    g = deck_with_starter("crazy-8s-music", 2, MU_HANDS, "JK", seed_joker="dealer_announces")
    assert (g.phase, g.to_play, g.top) == ("declare", 1, cl.card("JK"))
    assert g.legal() == ["JK:C", "JK:D", "JK:H", "JK:S"]
    refused(g, "3H", "the dealer, seat 1, announces the suit")
    push(g, "JK:C")
    assert (g.phase, g.to_play, g.suit, g.hand_sizes) == ("play", 0, "C", [5, 5])
    assert {"3C", "4C"} <= set(g.legal())
    # the default buries it (MU-Q3)
    g = deck_with_starter("crazy-8s-music", 2, MU_HANDS, "JK")
    assert g.top != cl.card("JK") and g.phase == "play"


def test_A9_MU_Q34_the_dealer_announces_each_wild_seed_in_pile_order():
    r = rules("crazy-8s-level-2", seed_wild_levels="dealer_announces")
    order = [MU_HANDS[k % 2][k // 2] for k in range(10)] + ["8D", "JK"]
    rest = [str(c) for c in r.deck]
    for c in order:
        rest.remove(c)
    g = Game.from_deck(r, 2, order + rest, seed=5)
    assert (g.phase, g.to_play, g.tops) == ("declare", 1, [cl.card("8D"), cl.card("JK")])
    assert len(g.legal()) == 12 and all(m.startswith("8D@0:") for m in g.legal())
    push(g, "8D@0:C")
    assert (g.phase, g.to_play) == ("declare", 1) and g.legal()[0].startswith("JK@1:")
    push(g, "JK@1:F")
    assert (g.phase, g.to_play, g.hand_sizes) == ("play", 0, [5, 5])
    # C accepts B and C# (one semitone), F accepts E and F#: 3C (C) no, 5C (E) yes
    assert any(m.startswith("5C") for m in g.legal())
    assert not any(m.startswith("3C") for m in g.legal())


def test_A9_is_refused_for_crazy_breens_and_own_suit_eights():
    with pytest.raises(cl.RulesError, match="music seeds' rule"):
        rules(BR, starter_joker="dealer_announces")
    with pytest.raises(cl.RulesError, match="needs eights that call a suit"):
        rules("crazy-8s-music", starter_eight="dealer_announces")

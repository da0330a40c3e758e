"""A test per numbered rule of rulings §1-3 (common, site rules SR, app rules AP)."""

from collections import Counter

import pytest

import crazylab as cl
from crazylab import Game, IllegalMove
from crazylab.engine.cards import CARDS
from crazylab.engine.narrator import story

pytestmark = pytest.mark.engine


def pos(rules, players, hands, stock=(), discard=("KH",), to_play=0, **kw):
    return Game.from_position(rules, players, hands=hands, stock=list(stock),
                              discard=list(discard), to_play=to_play, **kw)


def deck_with_top(first, *rest_first):
    """A full 52-card deck, top first, starting with the given cards."""
    head = cl.cards(list((first, *rest_first)))
    return head + [c for c in CARDS[:52] if c not in head]


def refused(game, move, words=""):
    before = game.fingerprint()
    with pytest.raises(IllegalMove) as e:
        game.push(move)
    assert game.fingerprint() == before
    assert words.lower() in str(e.value).lower()
    return str(e.value)


# -- common conventions --------------------------------------------------------------------

def test_C_2_C_3_dealer_left_plays_first_and_deals_first():
    deck = deck_with_top("AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC", "QC",
                         "KC", "AD", "2D", "3D")
    game = Game.from_deck("crazy-eights", 3, deck, dealer=1)
    assert game.to_play == 2
    assert game.hand(2)[0] == cl.card("AC")  # the first card dealt goes left of the dealer
    assert set(game.hands[0]) == set(cl.cards("2C 5C 9C QC 2D"))


def test_C_7_call_ends_when_another_card_is_placed():
    game = pos("crazy-eights", 2, [["8S", "4D", "6C"], ["5D", "7D"]], stock=["2C"], discard=["6H"])
    game.push("8S:D")
    assert game.suit == "D"
    game.push("5D")
    assert game.suit == "D" and game.calls == [None]


def test_C_9_reshuffle_keeps_top_and_call():
    game = pos("crazy-eights-classic", 2, [["2C"], ["3D", "4D"]], stock=[],
               discard=["5S", "6S", "8H"], suit="C")
    assert game.suit == "C"
    game.push("2C")
    assert game.over


def test_C_10_hand_ends_immediately_and_wild_last_card_needs_no_call():
    for move in ("8H", "8H:S"):
        game = pos("crazy-eights", 2, [["8H"], ["3C"]], stock=["4C"])
        game.push(move)
        assert game.over and game.winner == 0 and game.end_reason == "OUT"


def test_C_12_out_of_turn_and_after_the_end_are_refused():
    game = pos("crazy-eights", 2, [["KC", "2H"], ["3H"]], stock=["4C"])
    refused_text = ""
    with pytest.raises(IllegalMove) as e:
        game.push("3H", seat=1)
    refused_text = str(e.value)
    assert "seat 0's turn" in refused_text
    game = pos("crazy-eights", 2, [["KC"], ["3H"]], stock=["4C"])
    game.push("KC")
    refused(game, "draw", "hand is over")


def test_C_14_player_count_is_validated():
    for name, lo, hi in (("crazy-eights", 2, 5), ("crazy-eights-classic", 2, 4),
                         ("crazy-eights-quick", 2, 4)):
        for n in (lo - 1, hi + 1):
            with pytest.raises(cl.SetupError, match=f"{lo}-{hi} players"):
                Game.new(name, n, seed=1)
        Game.new(name, hi, seed=1)


def test_C_16_card_values():
    rules = cl.rules("crazy-eights")
    values = {str(c): rules.card_points(c) for c in cl.cards("8C AS 2D 7H 9S 10C JD QH KS")}
    assert values == {"8C": 50, "AS": 1, "2D": 2, "7H": 7, "9S": 9, "10C": 10, "JD": 10,
                      "QH": 10, "KS": 10}


# -- SR: site rules (seed 001) -------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_SR_1_SR_3_SR_5_SR_7_deal_five_each_and_stock_size(n):
    game = Game.new("crazy-eights", n, seed=n)
    assert game.hand_sizes == [5] * n
    assert game.stock_size == 52 - 5 * n - 1
    assert game.top.rank != 8


def test_SR_2_no_jokers():
    assert len(cl.rules("crazy-eights").deck) == 52
    assert cl.JOKER not in cl.rules("crazy-eights").deck


def test_SR_7_SR_Q13_all_four_eights_as_starters_are_buried():
    deck = deck_with_top(*["AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC"],
                         "8C", "8D", "8H", "8S", "KD")
    game = Game.from_deck("crazy-eights", 2, deck, seed=4)
    assert game.top == cl.card("KD")
    assert sum(e.kind == "buried" for e in game.events) >= 4
    assert game.stock_size == 41 and all(c.rank != 8 for c in game.discard)


def test_SR_Q1_buried_eight_goes_anywhere_but_the_top():
    positions = set()
    for seed in range(40):
        deck = deck_with_top(*["AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC"],
                             "8C", "KD")
        game = Game.from_deck("crazy-eights", 2, deck, seed=seed)
        assert game.top == cl.card("KD")  # the next reveal is never the buried eight
        positions.add(game.stock.index(cl.card("8C")))
    assert len(positions) > 10  # a random position, not a fixed one


def test_SR_8_AP_5_first_player_left_of_dealer():
    assert Game.new("crazy-eights", 4, seed=1).to_play == 0
    assert Game.new("crazy-eights", 4, seed=1, dealer=0).to_play == 1
    assert Game.new("crazy-eights-quick", 3, seed=1, dealer=1).to_play == 2


def test_SR_9_one_card_per_turn():
    game = pos("crazy-eights", 2, [["6C", "6D"], ["3S"]], stock=["2S"], discard=["6H"])
    refused(game, "6C+6D", "one card")


def test_SR_10_SR_11_legal_cards_and_named_suit():
    game = pos("crazy-eights", 2, [["6C", "KH", "8S", "3D"], ["KS", "5D"]], stock=["2S"],
               discard=["6H"])
    plays = {str(m) for m in game.legal_moves() if m.kind == "play"}
    assert plays == {"6C", "KH", "8S:C", "8S:D", "8S:H", "8S:S"}
    game.push("8S:D")
    assert game.is_legal("5D") and not game.is_legal("KS")
    assert "called suit" in game.explain("KS")


def test_SR_12_an_eight_mid_hand_needs_a_call():
    game = pos("crazy-eights", 2, [["8S", "4C"], ["3D"]], stock=["2S"], discard=["6H"])
    refused(game, "8S", "needs a suit")
    refused(game, "8S:X", "not a suit")


def test_SR_13_an_eight_may_be_played_holding_other_legal_cards():
    game = pos("crazy-eights", 2, [["8S", "6C"], ["3D"]], stock=["2S"], discard=["6H"])
    assert game.is_legal("8S:H") and game.is_legal("6C")


def test_SR_14_no_action_cards():
    for top in ("2H", "QH", "AH", "JH"):
        game = pos("crazy-eights", 2, [["3H", "4C"], ["5H", "6D"]], stock=["9S", "9C"],
                   discard=[top])
        game.push("3H")
        assert game.to_play == 1 and game.hand_sizes == [1, 2] and game.stock_size == 2


def test_SR_15_SR_16_draw_until_playable_then_play():
    game = pos("crazy-eights", 2, [["3D", "5H"], ["4S"]], stock=["2H", "JC", "6S"],
               discard=["KC"])
    assert game.legal() == ["draw"]
    game.push("draw")
    assert game.legal() == ["draw"]
    game.push("draw")
    game.push("JC")
    assert game.hand(0) == cl.cards("3D 2H 5H")


def test_SR_17_SR_Q2_voluntary_draw_while_stock_lasts():
    game = pos("crazy-eights", 2, [["6C"], ["4S"]], stock=["2S"], discard=["6H"])
    assert set(game.legal()) == {"6C", "draw"}
    game.push("draw")
    assert set(game.legal()) == {"6C"}  # SR-Q14: no draw from an empty stock
    refused(game, "draw", "stock is empty")


def test_SR_18_SR_Q5_pass_only_when_stuck_with_an_empty_stock():
    game = pos("crazy-eights", 2, [["6C", "3D"], ["4S"]], stock=[], discard=["6H"])
    assert game.legal() == ["6C"]
    refused(game, "pass", "cannot pass")
    game = pos("crazy-eights", 2, [["3D"], ["4S"]], stock=[], discard=["6H"])
    assert game.legal() == ["pass"]
    game = pos("crazy-eights", 2, [["3D"], ["4S"]], stock=["5S"], discard=["6H"])
    refused(game, "pass", "draw")


def test_SR_19_discards_are_never_reshuffled():
    game = pos("crazy-eights", 2, [["3D"], ["4S"]], stock=[], discard=["5S", "9C", "6H"])
    assert game.legal() == ["pass"]
    game.push("pass")
    assert game.stock_size == 0 and game.reshuffles == 0


def test_SR_20_SR_Q6_SR_Q7_blocked_hand_is_void_and_same_dealer_redeals():
    game = pos("crazy-eights", 2, [["3D"], ["4S"]], stock=[], discard=["6H"])
    game.push("pass")
    assert not game.over
    game.push("pass")
    assert game.over and game.end_reason == "VOID" and game.scores == (0, 0)
    assert game.winner is None
    match = cl.Match("crazy-eights", 2, seed=1)
    match.game = game
    dealer = match.dealer
    match.next_hand()
    assert match.dealer == dealer


def test_SR_Q16_a_pass_with_stock_left_does_not_count_towards_a_block():
    rules = cl.rules("crazy-eights", draw_rule="one", must_play_drawn=False)
    game = pos(rules, 2, [["3D"], ["4S"]], stock=["5S", "7S", "9S"], discard=["6H"])
    game.push("draw")
    game.push("pass")
    assert game.idle == 0


def test_SR_21_SR_22_winner_collects_all_opponents_cards():
    game = pos("crazy-eights", 3, [["5C"], ["8D", "3C"], ["QH", "AS"]], stock=["2H"],
               discard=["9C"])
    game.push("5C")
    assert game.scores == (64, 0, 0)


def test_SR_23_single_hand_no_match_target():
    assert cl.rules("crazy-eights").match_target is None
    match = cl.Match("crazy-eights", 2, seed=1)
    match.play_random(1)
    assert len(match.hands) == 1


def test_SR_24_no_last_card_announcement():
    game = pos("crazy-eights", 2, [["5C", "6C"], ["3H"]], stock=["2H"], discard=["9C"])
    game.push("5C")
    assert game.to_play == 1 and "Last card" not in " ".join(story(game))


def test_SR_25_variants_are_options():
    r = cl.rules("crazy-eights", hand_size_2p=7, draw_rule="one", reshuffle="unlimited")
    assert Game.new(r, 2, seed=1).hand_sizes == [7, 7]
    game = pos(r, 2, [["3D"], ["4S"]], stock=["6C"], discard=["6H"])
    game.push("draw")
    assert set(game.legal()) == {"6C", "pass"}  # SR-Q18: draw one, may play it or pass


# -- AP: the app (seed 004) ------------------------------------------------------------------

@pytest.mark.parametrize(("n", "size", "stock"), [(2, 7, 37), (3, 5, 36), (4, 5, 31)])
@pytest.mark.parametrize("name", ["crazy-eights-classic", "crazy-eights-quick"])
def test_AP_1_AP_3_AP_T1_deal(name, n, size, stock):
    game = Game.new(name, n, seed=9)
    assert game.hand_sizes == [size] * n and game.stock_size == stock


def test_AP_2_regular_deck():
    assert Counter(cl.rules("crazy-eights-classic").deck) == Counter(CARDS[:52])


def test_AP_4_AP_Q1_starter_eight_buried():
    deck = deck_with_top(*cl.cards("AC 2C 3C 4C 5C 6C 7C 9C 10C JC QC KC AD 2D"), "8H", "5S")
    game = Game.from_deck("crazy-eights-classic", 2, deck, seed=1)
    assert game.top == cl.card("5S")


def test_AP_6_AP_7_AP_T2_legal_on_nine_of_hearts():
    game = pos("crazy-eights-classic", 2, [["2H", "9C", "8S", "KD", "5S"], ["3C"]],
               stock=["4D"], discard=["9H"])
    assert set(game.legal()) == {"2H", "9C", "8S:C", "8S:D", "8S:H", "8S:S"}


def test_AP_8_AP_9_one_card_and_no_voluntary_draw():
    game = pos("crazy-eights-classic", 2, [["2H", "3H"], ["3C"]], stock=["4D"], discard=["9H"])
    refused(game, "draw", "must play")
    refused(game, "2H+3H", "one card")


def test_AP_10_AP_Q2_classic_draws_until_playable_and_must_play_it():
    game = pos("crazy-eights-classic", 2, [["2C"], ["3C"]], stock=["4D", "5S", "6H", "7C"],
               discard=["9H"])
    for _ in range(3):
        game.push("draw")
    assert game.legal() == ["6H"]
    refused(game, "draw", "must play")


def test_AP_11_AP_T3_quick_rule_limit_and_pass():
    game = pos("crazy-eights-quick", 2, [["2C"], ["3C"]], stock=["4D", "5S", "6S", "7H"],
               discard=["9H"])
    for _ in range(3):
        game.push("draw")
    assert game.legal() == ["pass"] and game.stock == cl.cards(["7H"])


def test_AP_11_quick_rule_passes_with_fewer_draws_when_no_card_can_be_had():
    game = pos("crazy-eights-quick", 2, [["2C"], ["3C"]], stock=["4D"], discard=["9H"])
    game.push("draw")
    assert game.legal() == ["pass"]


def test_AP_Q4_quick_limit_is_per_turn_across_a_reshuffle():
    game = pos("crazy-eights-quick", 2, [["2C"], ["3C"]], stock=["4D"],
               discard=["5S", "6S", "9H"], seed=2)
    for _ in range(3):
        game.push("draw")
    assert game.reshuffles == 1 and game.legal() == ["pass"]


def test_AP_12_AP_T6_reshuffle_limit_and_fourth_exhaustion():
    game = pos("crazy-eights-classic", 2, [["2C"], ["3C"]], stock=[],
               discard=["4D", "5S", "9H"], seed=2)
    game.reshuffles = 3  # three reshuffles already used this hand
    assert game.legal() == ["pass"]  # AP-13: no fourth reshuffle
    game.push("pass")
    assert game.stock_size == 0 and game.reshuffles == 3


def test_AP_Q8_empty_reshuffle_does_not_count():
    game = pos("crazy-eights-classic", 2, [["2C"], ["3C"]], stock=[], discard=["9H"])
    assert game.legal() == ["pass"]
    game.push("pass")
    assert game.reshuffles == 0


def test_AP_Q9_reshuffle_counter_resets_each_hand():
    match = cl.Match("crazy-eights-classic", 2, seed=5)
    match.game.reshuffles = 3
    match.game.play_random(1)
    match.record()
    assert match.next_hand().reshuffles == 0


def test_AP_14_AP_15_going_out_on_an_eight_scores_remaining_cards():
    game = pos("crazy-eights-classic", 3, [["8C"], ["KD", "10S"], ["AH", "8H"]], stock=["2S"],
               discard=["9H"])
    game.push("8C")
    assert game.scores == (71, 0, 0)


def test_AP_16_AP_T8_match_to_100():
    match = cl.Match("crazy-eights-classic", 2, seed=1, scores=[95, 40])
    match.game = pos("crazy-eights-classic", 2, [["4C"], ["5D", "2S"]], stock=["6H"],
                     discard=["9C"])
    match.game.push("4C")
    match.record()
    match.record()  # a hand's points count once, however often it is recorded
    assert match.scores == [102, 40] and match.over and match.winner == 0
    with pytest.raises(ValueError, match="match is over"):
        match.next_hand()


def test_AP_Q17_match_is_checked_only_between_hands():
    match = cl.Match("crazy-eights-classic", 2, seed=1, scores=[99, 0])
    assert not match.over
    match.play_random(3)
    assert match.over and max(match.scores) >= 100


def test_AP_17_AP_T7_AP_Q12_blocked_game_difference_scoring():
    game = pos("crazy-eights-classic", 3, [["10S", "2S"], ["3S"], ["KS", "QS", "JS"]],
               stock=[], discard=["5H"])
    for _ in range(3):
        game.push("pass")
    assert game.winner == 1 and game.scores == (0, 36, 0) and game.end_reason == "BLOCKED"


def test_AP_Q11_tie_broken_by_fewest_cards_then_drawn():
    game = pos("crazy-eights-classic", 2, [["3S", "2S"], ["5S"]], stock=[], discard=["KH"])
    game.push("pass")
    game.push("pass")
    assert game.winner == 1 and game.scores == (0, 0)  # 5 = 5 points; seat 1 has fewer cards
    game = pos("crazy-eights-classic", 2, [["5S"], ["5C"]], stock=[], discard=["KH"])
    game.push("pass")
    game.push("pass")
    assert game.winners == (0, 1) and game.winner is None and game.scores == (0, 0)


def test_AP_18_no_action_cards_or_last_card_call():
    game = pos("crazy-eights-quick", 2, [["2H", "5C"], ["3D"]], stock=["4D"], discard=["9H"])
    game.push("2H")
    assert game.to_play == 1 and game.hand_sizes == [1, 1]


# -- options -------------------------------------------------------------------------------

def test_options_compose_house_variants():
    r = cl.rules("crazy-eights", draw_limit=1, draw_rule="up_to_n")
    assert r.draw_limit == 1 and r.name == "crazy-eights" and "draw_limit" in r.options_changed


@pytest.mark.parametrize(("options", "named"), [
    ({"draw_limit": 0}, "draw_limit"), ({"draw_rule": "sometimes"}, "draw_rule"),
    ({"hand_size": 30}, "hand_size"), ({"max_players": 1}, "max_players"),
    ({"jokers": 5}, "jokers"), ({"match_target": -5}, "match_target"),
    ({"wild_sevens": True}, "wild_sevens"), ({"piles": 9}, "piles"),
    ({"hand_size": "five"}, "hand_size"),
])
def test_absurd_options_are_refused_by_name(options, named):
    with pytest.raises(cl.RulesError, match=named):
        cl.rules("crazy-eights", **options)


def test_unknown_preset():
    with pytest.raises(cl.RulesError, match="crazy-eights-classic"):
        cl.rules("crazy-sevens")


# -- the rest of §1, and a guard that every rule id has a test ----------------------------

def test_C_1_C_8_clockwise_turns_and_play_or_no_play_turns():
    game = pos("crazy-eights", 3, [["3H", "4C"], ["5H", "6D"], ["7H", "9S"]], stock=["2S"])
    game.push("3H")  # a play turn
    assert game.to_play == 1
    game.push("5H")
    assert game.to_play == 2
    game.push("7H")
    assert game.to_play == 0


def test_C_4_C_5_card_model_and_determinism_hooks():
    assert cl.card("JK").suit is None and cl.card("JK").rank == 14
    deck = deck_with_top("AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC", "QC")
    a = Game.from_deck("crazy-eights", 2, deck, seed=1)
    b = Game.from_deck("crazy-eights", 2, deck, seed=1)
    assert a.fingerprint() == b.fingerprint() and a.top == cl.card("QC")
    assert Game.new("crazy-eights", 2, seed=8).fingerprint() == \
        Game.new("crazy-eights", 2, seed=8).fingerprint()


def test_C_6_top_card_and_active_suit():
    game = pos("crazy-eights", 2, [["3C"], ["4C"]], stock=["2S"], discard=["5D", "KH"])
    assert game.top == cl.card("KH") and game.suit == "H"
    game = pos("crazy-eights", 2, [["3C"], ["4C"]], stock=["2S"], discard=["8H"], suit="C")
    assert game.suit == "C" and game.is_legal("3C")


def test_C_11_observations_show_only_what_a_seat_may_see():
    game = Game.new("crazy-eights", 3, seed=4)
    obs = game.observation(1)
    assert obs.hand == tuple(game.hand(1)) and obs.hand_sizes == (5, 5, 5)
    assert obs.legal == () and obs.stock_size == game.stock_size
    assert not hasattr(obs, "hands") and not hasattr(obs, "stock")
    hidden = [e for e in obs.events if e.kind == "dealt" and e.seat != 1]
    assert hidden and all(e.cards == () for e in hidden)
    assert game.observation(0).legal == tuple(game.legal_moves())


def test_C_13_blocked_after_n_stuck_turns_only():
    game = pos("crazy-eights", 3, [["3D"], ["4S"], ["9C"]], stock=[], discard=["6H"])
    game.push("pass")
    game.push("pass")
    assert game.idle == 2 and not game.over
    game.push("pass")
    assert game.over


def test_C_15_hand_result_records_winners_reason_and_points():
    game = pos("crazy-eights", 2, [["3H"], ["4S", "KD"]], stock=["2S"])
    game.push("3H")
    assert game.result == cl.HandResult((0,), "OUT", (14, 0))


def test_SR_4_SR_5_SR_6_deal_stock_and_starter():
    deck = deck_with_top("AC", "2C", "3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC", "QC")
    game = Game.from_deck("crazy-eights", 2, deck)
    assert game.hand(0) == cl.cards("AC 3C 5C 7C 10C") and game.top == cl.card("QC")
    assert game.stock == deck[11:]


def test_regression_a_joker_starter_as_a_play_needs_the_special_cards():
    """starter_joker='apply' without specials used to leave a joker starter with no suit in
    force (and explain() crashed); it is now refused as an option."""
    with pytest.raises(cl.RulesError, match="starter_joker"):
        cl.rules("crazy-8s-music", starter_joker="apply")
    game = pos("crazy-8s-music", 2, [["5D", "6C"], ["2C"]], stock=["4S"], discard=["JK"],
               suit="H")
    assert "called suit" in game.explain("6C")

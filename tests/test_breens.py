"""Crazy Breens (rulings §5): a test per rule (BR-n), resolution step (BR-Mn) and ruling
(BR-Qn), refused inputs that leave the game unchanged, and property tests over random games."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_random_games import play_checked

import crazylab as cl
from crazylab.engine.cards import JOKER
from crazylab.engine.game import Game, IllegalMove, SetupError
from crazylab.engine.rules import RulesError, rules
from crazylab.engine.variants import breens as effects
from crazylab.examples import list_examples, load_example

pytestmark = pytest.mark.engine

BR = "crazy-breens"
FILL = ["10C", "10D", "10H", "10S", "6C", "6D", "6H", "6S"]
OTHERS = [["3C", "4D"], ["3H", "4H"], ["3S", "4S"]]  # seats 1-3 of a 4-player position
ALL = [str(c) for c in rules(BR).deck]
SPARE = ["5C", "5D", "7C", "7D", "9H", "9S", "10H", "6D", "5S", "7S", "9C", "9D"]


def pos(p0: list[str], discard: list[str], stock: list[str] | None = None, *,
        others: list[list[str]] | None = None, to_play: int = 0, suit: str | None = None,
        **opts: object) -> Game:
    """A partial position, seat 0 to play unless told (4 players by default). The default
    filler hands and stock avoid the cards the test places itself."""
    placed = set(p0) | set(discard) | set(stock or ()) | {c for h in others or () for c in h}
    spare = [c for c in SPARE if c not in placed]

    def fill(cards: list[str]) -> list[str]:
        return [c if c not in placed else spare.pop(0) for c in cards]

    hands = [p0] + ([fill(h) for h in OTHERS] if others is None else others)
    return Game.from_position(rules(BR, **opts), len(hands), hands=hands,
                              stock=fill(FILL) if stock is None else stock, discard=discard,
                              to_play=to_play, suit=suit, seed=7)


def stacked(hands: list[list[str]], starter: str, top: list[str] = (), dealer: int | None = None,
            **opts: object) -> Game:
    """A full stacked deck dealt by ``dealer``: the hands, then the starter, then ``top``."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    order = [""] * (7 * n)
    for k in range(7 * n):
        order[k] = hands[(dealer + 1 + k) % n][k // n]
    order += [starter, *top]
    rest = list(ALL)
    for c in order:
        rest.remove(c)
    return Game.from_deck(rules(BR, **opts), n, order + rest, dealer=dealer, seed=3)


H = [["3D", "4D", "5D", "6D", "7D", "9D", "10D"], ["3H", "4H", "5H", "6H", "7H", "9H", "10H"],
     ["3S", "4S", "5S", "6S", "7S", "9S", "10S"], ["3C", "4C", "5C", "6C", "7C", "9C", "10C"]]


def refused(g: Game, move: str, *words: str, seat: int | None = None) -> str:
    """``move`` is refused with a message containing ``words`` and changes nothing."""
    before = g.fingerprint()
    with pytest.raises(IllegalMove) as err:
        g.push(move, seat=seat)
    assert g.fingerprint() == before
    if seat is None:
        assert not g.is_legal(move)
    text = str(err.value)
    for w in words:
        assert w.lower() in text.lower(), text
    return text


def push(g: Game, *moves: str) -> Game:
    for m in moves:
        g.push(m)
    return g


def kinds(g: Game, kind: str) -> list[cl.game.Event]:
    return [e for e in g.events if e.kind == kind]


# -- setup: BR-1 ... BR-8 --


def test_BR_1_BR_Q1_deck_is_54_cards_with_two_jokers():
    deck = rules(BR).deck
    assert len(deck) == 54 and deck.count(JOKER) == 2 and len(set(deck)) == 53


@pytest.mark.parametrize("n", [1, 7])
def test_BR_2_BR_Q2_C_14_player_count_outside_2_to_6_refused(n):
    with pytest.raises(SetupError, match="2-6"):
        Game.new(BR, n, 1)


@pytest.mark.parametrize("n", range(2, 7))
def test_BR_3_BR_4_BR_5_seven_cards_each_rest_is_stock(n):
    g = Game.new(BR, n, 11 * n)
    assert g.hand_sizes == [7] * n
    assert g.stock_size + len(g.discard) == 54 - 7 * n


def test_BR_6_BR_Q4_BR_M1_starter_is_the_dealers_play_with_any_dealer():
    g = stacked(H, "AC", dealer=1)  # dealer 1: player 1 of the effect is seat 2
    assert (g.to_play, g.phase, g.legal()) == (2, "penalty", ["pass"])
    push(g, "pass")
    assert (g.to_play, g.phase) == (3, "play")


def test_BR_T14_BR_Q8_starter_ace_skips_seat_0():
    g = stacked(H, "AC")
    assert (g.to_play, g.phase, g.legal()) == (0, "penalty", ["pass"])
    push(g, "pass")
    assert (g.to_play, g.phase, g.hand_sizes) == (1, "play", [7, 7, 7, 7])


def test_BR_7_BR_T17_initial_king_flips_again_and_chains():
    g = stacked(H, "KC", ["KD", "JH", "KH"])
    assert g.discard == [cl.card(c) for c in ("KC", "KD", "JH")]
    assert [e.seat for e in kinds(g, "flipped")] == [3, 3]  # the dealer is the actor
    assert (g.to_play, g.phase, g.suit) == (0, "play", "H")


def test_BR_8_BR_Q3_C_2_first_player_is_left_of_the_dealer():
    g = stacked(H, "JS", dealer=2)
    assert (g.to_play, g.phase) == (3, "play")


# -- normal turn: BR-9 ... BR-15 --


def test_BR_9_BR_31_BR_Q38_BR_T19_must_play_no_draw_no_pass():
    g = pos(["5H", "9C"], ["6H"])
    assert g.legal() == ["5H"]
    refused(g, "draw", "must play")
    refused(g, "pass", "cannot pass")


def test_BR_10_BR_Q42_legal_first_card_suit_rank_eight_joker():
    g = pos(["5H", "6C", "8S", "JK", "9D", "JS"], ["6H"])
    calls = [f"{w}:{s}" for w in ("8S", "JK") for s in "CDHS"]
    assert sorted(g.legal()) == sorted(["5H", "6C", *calls])


def test_BR_11_BR_Q37_BR_T20_draw_until_playable_then_stack():
    g = pos(["9C", "3S"], ["5H"], ["4C", "9H", "10C"], others=[["3D", "4D"]])
    assert g.legal() == ["draw"]
    push(g, "draw")
    assert g.legal() == ["draw"]  # 4♣ does not fit: keep drawing
    push(g, "draw")
    assert sorted(g.legal()) == ["9H", "9H+9C"]
    refused(g, "pass")
    refused(g, "draw", "must play")
    push(g, "9H+9C")
    assert (g.top, g.suit, g.to_play) == (cl.card("9C"), "C", 1)


def test_BR_12_BR_Q36_every_ordered_stack_once_first_card_legal():
    g = pos(["2C", "2H", "2S", "5D"], ["7C"])
    assert g.legal() == ["2C", "2C+2H", "2C+2S", "2C+2H+2S", "2C+2S+2H"]
    refused(g, "2H+2C", "matches neither")
    g2 = g.copy()
    push(g, "2C+2S+2H")
    push(g2, "2C+2H+2S")
    assert (g.suit, g2.suit) == ("H", "S")  # the last card placed is the top


def test_BR_12_two_jokers_are_one_rank_listed_once():
    g = pos(["JK", "JK"], ["7C"])
    assert sorted(g.legal()) == sorted(f"{m}:{s}" for m in ("JK", "JK+JK") for s in "CDHS")


def test_BR_13_BR_T1_three_twos_hand_out_six_cards():
    g = pos(["2C", "2H", "2S", "5D"], ["7C"])
    push(g, "2C+2H+2S", *["draw"] * 6)
    assert g.hand_sizes == [1, 4, 4, 4] and g.stock_size == 2
    assert (g.to_play, g.phase) == (0, "play")


def test_BR_14_BR_T11_BR_Q33_king_stack_gives_one_deck_play():
    g = pos(["KH", "KC", "9C"], ["4H"], ["7D", "6C", "9H"],
            others=[["3D", "4C"], ["3H", "5H"], ["3S", "4S"]])
    push(g, "KH+KC")
    assert g.discard == [cl.card(c) for c in ("4H", "KH", "KC", "7D")]
    assert g.stock_size == 2 and len(kinds(g, "flipped")) == 1


def test_BR_14_queen_stack_gives_one_drop():
    g = pos(["QH", "QC", "5S", "9D"], ["4H"])
    push(g, "QH+QC")
    assert g.phase == "drop"
    push(g, "5S")
    assert (g.to_play, g.phase, g.top) == (1, "play", cl.card("5S"))


def test_BR_15_BR_Q35_BR_Q54_eight_stack_gives_one_declaration():
    g = pos(["8S", "8D", "5C"], ["4H"])
    assert "8S+8D:C" in g.legal() and "8D+8S:C" in g.legal()
    push(g, "8S+8D:C")
    assert (g.top, g.suit, g.to_play, g.phase) == (cl.card("8D"), "C", 1, "play")
    assert len(kinds(g, "called")) == 1


# -- card effects: BR-16 ... BR-23 --


def test_BR_16_eight_is_wild_and_calls_a_suit():
    g = pos(["8S", "5C"], ["4H"])
    push(g, "8S:D")
    assert (g.suit, g.to_play, g.phase) == ("D", 1, "play")


def test_BR_17_BR_T8_joker_draw_four_and_lost_turn():
    g = pos(["JK", "9C"], ["7S"], others=[["3C", "4C"], ["3D", "5H"], ["3S", "4S"]])
    push(g, "JK:D")
    assert (g.to_play, g.phase, g.suit, g.legal()) == (1, "penalty", "D", ["draw"])
    push(g, *["draw"] * 4)
    assert g.hand_sizes[1] == 6
    assert (g.to_play, g.phase, g.legal()) == (2, "play", ["3D"])


def test_BR_18_two_hits_only_the_next_player():
    g = pos(["2D", "9C"], ["7D"])
    push(g, "2D")
    assert [p["seat"] for p in effects.pending(g)] == [1]
    push(g, "draw", "draw")
    assert (g.to_play, g.phase, g.hand_sizes) == (2, "play", [1, 4, 2, 2])


def test_BR_19_ace_skips_the_next_player():
    g = pos(["AD", "9C"], ["7D"])
    push(g, "AD")
    assert (g.to_play, g.phase, g.legal()) == (1, "penalty", ["pass"])
    push(g, "pass")
    assert (g.to_play, g.phase, g.hand_sizes) == (2, "play", [1, 2, 2, 2])


K_OTHERS = [["3H", "4C"], ["3D", "4D"], ["3S", "4S"]]


def kpos(stock: list[str], **opts: object) -> Game:
    return pos(["KS", "9C", "5D"], ["4H", "6S"], stock, others=K_OTHERS, **opts)


def test_BR_20_BR_Q26_BR_T10_king_plays_the_deck_top_without_match():
    g = push(kpos(["7H", "9D"]), "KS")
    assert (g.top, g.suit, g.to_play, g.phase, g.stock_size) == (cl.card("7H"), "H", 1, "play", 1)


def test_BR_20_king_turns_a_two_whose_hit_lands_on_the_next_player():
    g = push(kpos(["2C", "9D", "9H"]), "KS")
    assert (g.top, g.to_play, g.phase, g.legal()) == (cl.card("2C"), 1, "penalty", ["draw"])


def test_BR_20_BR_Q25_turned_eight_is_declared_by_the_kings_player():
    g = push(kpos(["8C", "9D"]), "KS")
    assert (g.to_play, g.phase, g.legal()) == (0, "declare", ["8C:C", "8C:D", "8C:H", "8C:S"])
    push(g, "8C:H")
    assert (g.suit, g.to_play, g.phase) == ("H", 1, "play")


def test_BR_20_BR_Q31_turned_joker_declared_then_next_draws_four():
    g = push(kpos(["JK", "9D", "9H", "10C", "10D"]), "KS", "JK:S")
    assert (g.suit, g.to_play, g.phase) == ("S", 1, "penalty")
    assert effects.pending(g)[0]["draw"] == 4


def test_BR_20_turned_queen_lets_the_kings_player_drop():
    g = push(kpos(["QC", "9D"]), "KS")
    assert (g.to_play, g.phase, sorted(g.legal())) == (0, "drop", ["5D", "9C", "end"])


def test_BR_21_BR_T12_queen_drop_needs_no_match_and_triggers():
    g = pos(["QH", "AC", "9S"], ["5H"])
    push(g, "QH")
    assert (g.to_play, g.phase, g.legal()) == (0, "drop", ["AC", "9S", "end"])
    push(g, "AC")
    assert (g.top, g.suit, g.to_play, g.phase) == (cl.card("AC"), "C", 1, "penalty")


def test_BR_22_BR_Q15_jack_counters_a_skip_and_sets_its_suit():
    g = pos(["AD", "9C"], ["7D"], others=[["JS", "3C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "AD")
    assert g.legal() == ["JS", "pass"]
    push(g, "JS")
    assert (g.top, g.suit, g.to_play, g.phase, g.hand_sizes) == (
        cl.card("JS"), "S", 2, "play", [1, 1, 2, 2])


def test_BR_23_BR_Q43_BR_M8_jack_on_a_normal_turn_must_match_and_does_nothing():
    g = pos(["JH", "JC", "5S"], ["4H"])
    assert "JC" not in g.legal() and "JH+JC" in g.legal()
    push(g, "JH")
    assert (g.to_play, g.phase, effects.pending(g)) == (1, "play", [])


# -- advanced stacking: BR-24 ... BR-27 --


def test_BR_24_BR_M3_BR_Q50_stacked_hits_go_to_players_in_creation_and_turn_order():
    g = pos(["2C", "2H", "2S", "5D"], ["7C"])
    push(g, "2C+2H+2S")
    assert [(p["seat"], p["draw"], p["hits"], p["by"]) for p in effects.pending(g)] == [
        (1, 2, 1, 0), (2, 2, 1, 0), (3, 2, 1, 0)]


def test_BR_25_BR_T4_stacked_aces_skip_in_sequence():
    g = pos(["AD", "AS", "5C"], ["7D"], others=[["3D", "4D"], ["3H", "4H"], ["3S", "4S", "5D"]])
    push(g, "AD+AS", "pass")
    assert (g.to_play, g.phase) == (2, "penalty")
    push(g, "pass")
    assert (g.to_play, g.phase, g.legal()) == (3, "play", ["3S", "4S"])


def mid(stock: list[str], **opts: object) -> Game:
    return push(pos(["2D", "9C"], ["7D"], stock, others=[["3C", "4C"], ["3H", "4H"],
                                                         ["3S", "4S"]], **opts), "2D")


def test_BR_26_BR_Q22_BR_T7_first_drawn_jack_counters_the_rest():
    g = push(mid(["JS", "9D", "10C"]), "draw")
    assert (g.to_play, g.phase, g.legal()) == (1, "penalty", ["JS", "draw"])
    push(g, "JS")
    assert (g.hand_sizes, g.stock_size, g.suit, g.to_play, g.phase) == (
        [1, 2, 2, 2], 2, "S", 2, "play")


def test_BR_26_BR_Q21_a_jack_drawn_second_cannot_counter():
    g = push(mid(["9D", "JS", "10C"]), "draw")
    assert g.legal() == ["draw"]
    refused(g, "JS", "first card")
    push(g, "draw")
    assert (g.to_play, g.phase) == (2, "play") and cl.card("JS") in g.hands[1]


def test_BR_Q21_a_jack_drawn_second_of_a_jokers_four_cannot_counter():
    g = pos(["JK", "9C"], ["7D"], ["9D", "JS", "10C", "10D"],
            others=[["3C", "4C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "JK:S", "draw", "draw")
    assert g.legal() == ["draw"] and cl.card("JS") in g.hands[1]


def test_BR_26_drawn_jack_may_lead_a_stack_of_hand_jacks():
    g = pos(["2D", "9C"], ["7D"], ["JS", "9D"], others=[["JC", "4C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "2D", "draw")
    assert g.legal() == ["JS", "JS+JC", "draw"]
    refused(g, "JC", "just drew")


def test_BR_Q21_mid_draw_counter_also_against_a_jokers_draw():
    g = pos(["JK", "9C"], ["7D"], ["JD", "9D", "10C", "10D"],
            others=[["3C", "4C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "JK:S", "draw")
    assert g.legal() == ["JD", "draw"]
    push(g, "JD")
    assert (g.suit, g.to_play, g.stock_size) == ("D", 2, 3)


def test_BR_Q21_option_mid_draw_counter_any_card_and_off():
    g = push(mid(["9D", "JS", "10C"], mid_draw_counter="any_card"), "draw")
    assert g.legal() == ["draw"]
    push(g, "draw")  # the second card is a Jack, but nothing is left to counter
    assert g.to_play == 2
    g = push(pos(["JK", "9C"], ["7D"], ["9D", "JS", "10C", "6C"],
                 others=[["3C", "4C"], ["3H", "4H"], ["3S", "4S"]],
                 mid_draw_counter="any_card"), "JK:S", "draw", "draw")
    assert g.legal() == ["JS", "draw"]
    g = push(mid(["JS", "9D"], mid_draw_counter="off"), "draw")
    assert g.legal() == ["draw"]


def test_BR_27_BR_Q18_BR_T6_counter_by_a_later_victim_ends_the_cycle():
    g = pos(["2D", "2S", "9C"], ["7D"], others=[["3C", "4C"], ["JC", "3H"], ["3S", "4S"]])
    push(g, "2D+2S", "draw", "draw")
    assert (g.to_play, g.legal()) == (2, ["JC", "draw"])
    push(g, "JC")
    assert (g.top, g.suit, g.to_play, g.phase, g.hand_sizes) == (
        cl.card("JC"), "C", 3, "play", [1, 4, 1, 2])
    assert effects.pending(g) == []


def test_BR_27_BR_T5_BR_M1_counter_is_an_action_that_cancels_later_victims():
    g = pos(["2C", "2H", "2S", "5D"], ["7C"], others=[["JH", "3D"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "2C+2H+2S", "JH")
    assert (g.to_play, g.phase, g.hand_sizes, effects.pending(g)) == (2, "play", [1, 1, 2, 2], [])


# -- end: BR-28 ... BR-32 --


def test_BR_28_BR_M2_C_10_BR_Q45_BR_T21_going_out_on_twos_ends_at_once():
    g = pos(["2C", "2H"], ["7C"])
    push(g, "2C+2H")
    assert (g.over, g.winner, g.end_reason, g.stock_size) == (True, 0, "OUT", 8)
    assert not kinds(g, "penalty")


def test_BR_29_C_11_hand_sizes_and_pending_hits_are_public():
    g = push(pos(["2C", "2H", "5D"], ["7C"]), "2C+2H")
    obs = g.observation(3)
    assert obs.hand_sizes == (1, 2, 2, 2)
    assert dict(obs.extra)["pending"] == ((1, 2, 1), (2, 2, 1))
    assert effects.describe_pending(g) == ("seat 1 must draw 2 and lose the turn; "
                                           "seat 2 must draw 2 and lose the turn")


def test_BR_30_BR_Q39_penalty_draws_reshuffle_lazily_and_keep_the_top():
    g = pos(["2C", "5D"], ["9S", "9H", "7C"], ["10C"])
    push(g, "2C", "draw")
    assert g.reshuffles == 0
    push(g, "draw")
    assert g.reshuffles == 1 and g.top == cl.card("2C") and g.hand_sizes[1] == 4


def test_BR_32_BR_Q41_no_scoring():
    g = push(pos(["5C"], ["7C"]), "5C")
    assert g.over and g.scores == (0, 0, 0, 0)


# -- resolution model: BR-M1 ... BR-M9 --


def test_BR_M3_BR_Q12_BR_T3_three_players_wrap_one_lost_turn():
    g = pos(["2C", "2H", "2S", "5S"], ["7C"], FILL[:7], others=[["3D", "4D"], ["3H", "4H"]])
    push(g, "2C+2H+2S")
    assert [(p["seat"], p["draw"], p["hits"]) for p in effects.pending(g)] == [(1, 4, 2), (2, 2, 1)]
    push(g, *["draw"] * 4)
    assert (g.to_play, g.phase) == (2, "penalty")
    push(g, "draw", "draw")
    assert (g.to_play, g.phase, g.hand_sizes) == (0, "play", [1, 6, 4])


def test_BR_M4_BR_Q13_BR_Q23_BR_Q47_a_victim_resolves_at_their_turn_not_a_normal_turn():
    g = pos(["2C", "9C"], ["7C"], others=[["2H", "5C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "2C")
    assert g.legal() == ["draw"]  # 2♥ and 5♣ fit the pile, but a hit is not a turn
    refused(g, "2H", "only a jack")
    push(g, "draw", "draw")
    assert g.to_play == 2 and g.phase == "play"


def test_BR_M5_BR_Q20_countering_is_optional():
    g = pos(["2C", "9C"], ["7C"], others=[["JH", "3D"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "2C", "draw", "draw")
    assert g.to_play == 2 and cl.card("JH") in g.hands[1] and g.hand_sizes[1] == 4


def test_BR_M7_BR_Q52_BR_T2_two_players_the_actor_plays_again():
    g = pos(["2C", "2H", "2S", "5S"], ["7C"], FILL[:7], others=[["3D", "4D"]])
    push(g, "2C+2H+2S", *["draw"] * 6)
    assert (g.to_play, g.phase, g.hand_sizes, g.legal()) == (0, "play", [1, 8], ["5S"])


def test_BR_M9_BR_Q40_blocked_round_counts_lost_turns_fewest_cards_win():
    g = pos(["AH", "3C"], ["7H"], [], others=[["4D", "5D"]], reshuffle="never")
    push(g, "AH", "pass")  # seat 1's lost turn is a no-play turn
    assert g.idle == 1 and not g.over
    push(g, "pass")
    assert (g.over, g.end_reason, g.winners) == (True, "BLOCKED", (0,))


def test_BR_M9_blocked_tie_lists_every_tied_player():
    g = pos(["3C"], ["7H"], [], others=[["4D"]], reshuffle="never")
    push(g, "pass", "pass")
    assert g.winners == (0, 1) and g.winner is None


# -- rulings on the starter: BR-Q5 ... BR-Q9 --


def test_BR_Q5_starter_eight_is_declared_by_the_dealer():
    g = stacked(H, "8C")
    assert (g.to_play, g.phase, g.legal()) == (3, "declare", ["8C:C", "8C:D", "8C:H", "8C:S"])
    push(g, "8C:S")
    assert (g.to_play, g.phase, g.suit) == (0, "play", "S")


def test_BR_Q5_option_starter_eight_keep_uses_its_printed_suit():
    g = stacked(H, "8C", starter_eight="keep")
    assert (g.to_play, g.phase, g.suit) == (0, "play", "C")


def test_BR_Q6_BR_T16_starter_joker_dealer_declares_first_player_draws_four():
    g = stacked(H, "JK", ["KD", "KH", "KS", "KC"])
    assert (g.to_play, g.phase) == (3, "declare")
    push(g, "JK:H")
    assert (g.to_play, g.phase, g.suit) == (0, "penalty", "H")
    push(g, *["draw"] * 4)
    assert (g.to_play, g.hand_sizes) == (1, [11, 7, 7, 7])


def test_BR_Q6_option_starter_joker_rebury():
    g = stacked(H, "JK", ["JC"], starter_joker="rebury")
    assert g.top == cl.card("JC") and (g.to_play, g.phase) == (0, "play")
    assert JOKER in g.stock_cards and kinds(g, "buried")


def test_BR_Q7_BR_T18_starter_queen_lets_the_dealer_drop():
    hands = [*H[:3], ["2H", "4C", "5C", "6C", "7C", "9C", "10C"]]
    g = stacked(hands, "QC")
    assert (g.to_play, g.phase) == (3, "drop") and len(g.legal()) == 8
    push(g, "2H")
    assert (g.to_play, g.phase, g.hand_sizes) == (0, "penalty", [7, 7, 7, 6])
    g = stacked(hands, "QC", starter_queen_drop=False)
    assert (g.to_play, g.phase) == (0, "play")


def test_BR_Q8_BR_Q16_BR_T15_starter_two_can_be_countered():
    g = stacked([H[0][:-1] + ["JD"], *H[1:]], "2C")
    assert g.legal() == ["JD", "draw"]
    push(g, "JD")
    assert (g.to_play, g.phase, g.suit, g.hand_sizes) == (1, "play", "D", [6, 7, 7, 7])


def test_BR_Q9_starter_jack_has_no_effect():
    g = stacked(H, "JC")
    assert (g.to_play, g.phase, g.suit, effects.pending(g)) == (0, "play", "C", [])


# -- rulings on effects: BR-Q10 ... BR-Q55 --


def test_BR_Q10_only_a_king_flips_again():
    g = push(kpos(["2C", "AH", "9D"]), "KS")
    assert g.top == cl.card("2C") and g.stock_size == 2


def test_BR_Q11_option_stack_targeting_all_on_next():
    g = pos(["2C", "2H", "2S", "5D"], ["7C"], stack_targeting="all_on_next")
    push(g, "2C+2H+2S")
    assert [(p["seat"], p["draw"]) for p in effects.pending(g)] == [(1, 6)]
    push(g, *["draw"] * 6)
    assert (g.to_play, g.phase, g.hand_sizes) == (2, "play", [1, 8, 2, 2])


def test_BR_Q14_jack_counters_a_joker_and_the_option_turns_it_off():
    others = [["JC", "4C"], ["3D", "5H"], ["3S", "4S"]]
    g = push(pos(["JK", "9C"], ["7S"], others=others), "JK:D")
    assert g.legal() == ["JC", "draw"]
    g = push(pos(["JK", "9C"], ["7S"], others=others, jack_counters_joker=False), "JK:D")
    assert g.legal() == ["draw"]
    refused(g, "JC", "does not counter")


def test_BR_Q16_hits_from_a_king_or_queen_can_be_countered():
    g = pos(["KS", "9C"], ["6S"], ["2C", "9D"], others=[["JD", "4C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "KS")
    assert "JD" in g.legal()
    g = pos(["QS", "2C", "9C"], ["6S"], others=[["JD", "4C"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "QS", "2C", "JD")
    assert (g.to_play, g.suit) == (2, "D")


def test_BR_Q17_a_non_victim_cannot_counter():
    g = pos(["2C", "9C"], ["7C"], others=[["3D", "4D"], ["JS", "3H"], ["3S", "4S"]])
    push(g, "2C")
    refused(g, "JS", "seat 1's turn", seat=2)
    push(g, "draw", "draw")
    assert (g.to_play, g.phase) == (2, "play")
    refused(g, "JS", "counter", "BR-Q55")


def test_BR_Q19_a_counter_may_be_several_jacks_unless_the_option_says_one():
    others = [["JH", "JC", "3D"], ["3H", "4H"], ["3S", "4S"]]
    g = push(pos(["AD", "9C"], ["7D"], others=others), "AD")
    assert g.legal() == ["JC", "JC+JH", "JH", "JH+JC", "pass"]
    push(g, "JH+JC")
    assert (g.suit, g.hand_sizes[1]) == ("C", 1)
    g = push(pos(["AD", "9C"], ["7D"], others=others, counter_stack=False), "AD")
    assert g.legal() == ["JC", "JH", "pass"]
    refused(g, "JH+JC", "single jack")


def test_BR_Q24_the_counter_is_the_whole_turn():
    g = pos(["AD", "9C"], ["7D"], others=[["JD", "3D"], ["3H", "4H"], ["3S", "4S"]])
    push(g, "AD", "JD")
    assert g.to_play == 2
    refused(g, "3D", "turn", seat=1)


def test_BR_Q27_king_deck_play_reshuffles_then_fizzles():
    g = push(pos(["KS", "9C"], ["4S"], []), "KS")
    assert (g.reshuffles, g.top, g.stock_size) == (1, cl.card("4S"), 0)
    g = push(pos(["KS", "9C"], ["4S"], [], reshuffle="never"), "KS")
    assert (g.top, g.to_play, g.phase) == (cl.card("KS"), 1, "play")
    assert kinds(g, "flipped")[0].why == "fizzled"


def test_BR_Q28_a_drawn_king_does_nothing_until_played():
    g = pos(["3C", "9C"], ["5H"], ["KH", "7D", "6C"], others=[["3D", "4D"]])
    push(g, "draw")
    assert g.legal() == ["KH"] and g.stock_size == 2
    push(g, "KH")
    assert g.top == cl.card("7D") and g.stock_size == 1
    g = push(mid(["KS", "9D", "6C"]), "draw", "draw")
    assert g.stock_size == 1 and not kinds(g, "flipped")


def test_BR_Q29_king_or_queen_as_last_card_wins_without_effect():
    for card in ("KS", "QS"):
        g = push(pos([card], ["4S"]), card)
        assert (g.over, g.winner, g.stock_size) == (True, 0, 8)


def test_BR_Q30_the_drop_is_optional_and_one_card():
    g = push(pos(["QH", "AC", "9S"], ["5H"]), "QH")
    refused(g, "AC+9S", "exactly one card")
    push(g, "end")
    assert (g.top, g.to_play, g.phase, g.hand_sizes[0]) == (cl.card("QH"), 1, "play", 2)


@pytest.mark.parametrize(("drop", "check"), [
    ("8S:D", lambda g: (g.suit, g.to_play, g.phase) == ("D", 1, "play")),
    ("JK:H", lambda g: (g.suit, g.phase, effects.pending(g)[0]["draw"]) == ("H", "penalty", 4)),
    ("KC", lambda g: (g.top, g.to_play) == (cl.card("10C"), 1)),
    ("QC", lambda g: (g.to_play, g.phase) == (0, "drop")),
    ("JD", lambda g: (g.suit, g.to_play, g.phase) == ("D", 1, "play")),
    ("2C", lambda g: effects.pending(g)[0]["draw"] == 2 and g.to_play == 1),
    ("AC", lambda g: effects.pending(g)[0]["draw"] == 0 and g.legal() == ["pass"]),
])
def test_BR_Q31_a_dropped_card_acts_as_if_played(drop, check):
    hand = ["QH", "8S", "JK", "KC", "QC", "JD", "2C", "AC"]
    g = push(pos(hand, ["5H"]), "QH", drop)
    assert check(g)


def test_BR_Q32_BR_T13_dropping_the_last_card_wins_even_a_wild_without_call():
    g = push(pos(["QH", "5S"], ["7H"]), "QH", "5S")
    assert (g.over, g.winner) == (True, 0)
    g = push(pos(["QH", "8S"], ["7H"]), "QH", "8S")
    assert (g.over, g.winner) == (True, 0)


def test_BR_Q34_BR_T9_two_jokers_one_declaration_two_hits():
    g = pos(["JK", "JK", "9C"], ["7S"])
    push(g, "JK+JK:H")
    assert [(p["seat"], p["draw"]) for p in effects.pending(g)] == [(1, 4), (2, 4)]
    assert len(kinds(g, "called")) == 1


def test_BR_Q44_BR_Q49_after_a_joker_the_called_suit_until_a_jack_counters():
    others = [["3C", "4C"], ["3D", "5H", "8C", "JS"], ["3S", "4S"]]
    g = push(pos(["JK", "9C"], ["7S"], others=others), "JK:D", *["draw"] * 4)
    assert sorted(g.legal()) == sorted(["3D", "8C:C", "8C:D", "8C:H", "8C:S"])
    g = push(pos(["JK", "9C"], ["7S"], others=[["JC", "4C"], *others[1:]]), "JK:D", "JC")
    assert (g.suit, g.top) == ("C", cl.card("JC"))


def test_BR_Q46_counter_with_the_last_card_wins():
    g = push(pos(["2C", "9C"], ["7C"], others=[["JH"], ["3H"], ["3S"]]), "2C", "JH")
    assert (g.over, g.winner) == (True, 1)


def test_BR_Q48_penalty_reduced_to_what_can_be_drawn():
    g = push(pos(["2C", "9C"], ["7C"], ["10D"], reshuffle="never"), "2C", "draw")
    assert (g.to_play, g.hand_sizes[1]) == (2, 3)
    assert kinds(g, "skipped")[0].why == "forgiven"
    g = push(pos(["2C", "9C"], ["7C"], [], reshuffle="never"), "2C")
    assert g.legal() == ["pass"]
    refused(g, "draw", "forgiven")


def test_BR_Q51_the_deal_moves_one_seat_left():
    m = cl.Match(BR, 3, seed=5)
    assert m.game.dealer == 2
    m.game.play_random(1)
    m.next_hand()
    assert m.game.dealer == 0


def test_BR_Q53_skip_only_victim_passes_or_counters():
    g = push(pos(["AD", "9C"], ["7D"], others=[["JH", "3D"], ["3H", "4H"], ["3S", "4S"]]), "AD")
    assert g.legal() == ["JH", "pass"]
    refused(g, "draw", "skipped, not made to draw")


def test_BR_Q55_no_counter_without_a_hit():
    g = pos(["JS", "5C"], ["7H"])
    refused(g, "JS", "only as a counter")


# -- refused input: the reason is clear and nothing changes (C-12) --


def test_C_12_mixed_rank_stack_refused_on_a_turn_and_as_a_counter():
    g = pos(["2C", "3C", "5D"], ["7C"], others=[["JH", "2H"], ["3H", "4H"], ["3S", "4S"]])
    refused(g, "2C+3C", "one rank")
    push(g, "2C")
    refused(g, "JH+2H", "one rank")


def test_C_12_drop_without_a_queen_refused():
    g = pos(["5H", "9S"], ["7H"])
    refused(g, "end", "queen")
    push(g, "5H")
    refused(g, "9S", "turn", seat=0)
    refused(g, "9S", "You do not hold")


def test_C_12_drop_phase_refuses_draws_stacks_and_missing_calls():
    g = push(pos(["QH", "8S", "8C", "4C"], ["7H"]), "QH")
    refused(g, "draw", "drop one card")
    refused(g, "8S+8C:D", "one card")
    refused(g, "8S", "needs a suit")
    refused(g, "4C:D", "calls nothing")
    refused(g, "KD", "do not hold")


def test_C_12_declaration_must_name_the_turned_card_and_a_suit():
    g = push(kpos(["8C", "9D"]), "KS")
    refused(g, "9C", "call a suit")
    refused(g, "8C", "call a suit")
    refused(g, "draw", "call a suit")


def test_C_10_a_declaration_is_no_last_card_play():
    """The actor's only card is the other joker: ``JK`` (no call) is still no declaration."""
    g = push(pos(["KS", "JK"], ["4S"], ["JK", "9D"]), "KS")
    assert g.phase == "declare" and g.hands[0] == [cl.card("JK")]
    refused(g, "JK", "call a suit")
    push(g, "JK:C")
    assert g.hand_sizes[0] == 1 and g.to_play == 1


def test_C_12_penalty_phase_refuses_wrong_answers():
    g = push(pos(["2C", "9C"], ["7C"], others=[["3D", "JH"], ["3H", "4H"], ["3S", "4S"]]), "2C")
    refused(g, "pass", "must take your penalty")
    refused(g, "end", "nothing to end")
    refused(g, "JC", "do not hold")
    refused(g, "JH:D", "calls no suit")
    refused(g, "3D", "only a jack")


def test_BR_options_are_validated():
    with pytest.raises(RulesError, match="stack_targeting"):
        rules(BR, stack_targeting="everyone")
    with pytest.raises(RulesError, match="mid_draw_counter"):
        rules(BR, mid_draw_counter="second_card")
    with pytest.raises(RulesError, match="counter_stack"):
        rules(BR, counter_stack="yes")


# -- worked examples --

BR_EXAMPLES = [n for n in list_examples() if n.startswith("br-")]


@pytest.mark.parametrize("name", BR_EXAMPLES)
def test_BR_worked_example_replays_and_names_rules(name):
    ex = load_example(name)
    assert ex.replay() == []
    assert all(re.search(r"BR-|C-\d", s.say) for s in ex.steps[:1]), "the first step names a rule"


@pytest.mark.parametrize("vector", [f"BR-T{i}" for i in range(1, 22)])
def test_every_BR_vector_has_a_worked_example(vector):
    number = vector.split("T")[1]
    assert any(re.search(rf"^br-t{number}(?!\d)", n) for n in BR_EXAMPLES), vector


# -- properties over random games --

OPTIONS = st.sampled_from([{}, {"stack_targeting": "all_on_next"},
                           {"mid_draw_counter": "any_card", "counter_stack": False},
                           {"jack_counters_joker": False, "starter_queen_drop": False},
                           {"reshuffle": "never"}])


def _check_invariants(g: Game, deck: Counter) -> None:
    held = Counter(c for h in g.hands for c in h) + Counter(g.stock_cards)
    held += Counter(c for p in g.piles for c in p)
    assert held == deck, "cards are conserved"
    if g.over:
        return
    legal = g.legal()
    assert legal and len(legal) == len(set(legal)), "every legal move is listed once"
    pend = effects.pending(g)
    if pend and g.phase not in ("drop", "declare"):
        # BR-M6: the open cycle's victims resolve, in turn order, before anyone else acts
        assert g.phase == "penalty" and g.to_play == pend[0]["seat"]
    assert all(p["seat"] != p["by"] for p in pend), "an effect never targets its actor"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), dealer=st.integers(0, 5),
       opts=OPTIONS)
def test_property_BR_M6_random_games_conserve_cards_end_and_undo_exactly(seed, players, dealer,
                                                                          opts):
    g = Game.new(rules(BR, **opts), players, seed, dealer=dealer % players)
    deck = Counter(g.rules.deck)
    for e in g.events:  # starter hits never land on the dealer
        assert e.kind != "penalty" or e.seat != g.dealer

    def breens_invariants(g: Game, move: object, seat: int, before: int) -> None:
        _check_invariants(g, deck)
        assert all(e.seat != seat for e in g.events[before:] if e.kind == "penalty")

    # the shared harness: cards, turn order, undo, the end and the result; then Breens' own
    play_checked(g, seed, max_moves=4000, undo_sample=0.1, after_move=breens_invariants)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), steps=st.integers(0, 60),
       opts=OPTIONS)
def test_property_every_legal_move_is_accepted_and_undone_exactly(seed, players, steps, opts):
    g = Game.new(rules(BR, **opts), players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            return
        g.push(rng.choice(g.legal_moves()))
    if g.over:
        return
    fp = g.fingerprint()
    for move in list(g.legal_moves())[:40]:
        assert g.explain(move) == ""
        g.push(move)
        g.undo()
        assert g.fingerprint() == fp

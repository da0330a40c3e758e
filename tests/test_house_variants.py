"""The house variants of rulings §6.4/§6.5 played by crazylab/engine/variants/house.py:
action cards (V12), jump-in (V14), and matches of a fixed number of games (A11, MU-Q17)."""

from collections import Counter

import pytest
from test_random_games import play_checked

import crazylab as cl
from crazylab.engine.options import RulesError, parse_option
from crazylab.examples import load_example

pytestmark = pytest.mark.engine

ACTIONS = "2=draw2,A=skip,Q=reverse,J=wild,QS=draw5"


def position(options, hands, discard="6H", stock=("10D", "JD", "KC", "4S", "6D", "9S"),
             to_play=0, preset="crazy-eights", **kw):
    r = cl.rules(preset, **options)
    return cl.Game.from_position(r, len(hands), hands=hands, stock=list(stock),
                                 discard=[discard], to_play=to_play, **kw)


def all_cards(game):
    return Counter([c for h in game.hands for c in h] + game.stock_cards
                   + [c for p in game.piles for c in p])


# -- V12: the option ------------------------------------------------------------------------------


def test_V12_action_cards_from_python_json_text_and_the_cli():
    want = (("A", "skip"), ("2", "draw2"), ("J", "wild"), ("Q", "reverse"), ("QS", "draw5"))
    assert cl.rules("crazy-eights", action_cards=ACTIONS).action_cards == want
    assert cl.rules("crazy-eights", action_cards={2: "draw2", "a": "SKIP", 12: "reverse",
                                                  "J": ["wild"], "Q♠": "draw5"}
                    ).action_cards == want
    assert cl.rules("crazy-eights", action_cards=[["2", "draw2"]]).action_cards == (("2", "draw2"),)
    assert parse_option(f"action_cards={ACTIONS}") == ("action_cards", want)
    assert parse_option("action_cards=2:draw2, 10=draw4+skip") == (
        "action_cards", (("2", "draw2"), ("10", "draw4+skip")))
    assert parse_option("action_cards=none") == ("action_cards", ())
    assert cl.rules("crazy-eights", action_cards={}) == cl.PRESETS["crazy-eights"]


@pytest.mark.parametrize(("value", "says"), [
    ({2: "zap"}, "'zap' (for 2) is not an effect"),
    ({"Z": "skip"}, "'Z' is not a rank"),
    ({14: "skip"}, "is not a rank"),
    ({"2": "skip", 2: "wild"}, "2 is given twice"),
    ({2: "draw2+draw4"}, "two draws"),
    ({2: "draw11"}, "not an effect"),
    ("2=", "not an effect"),
    ("2", "action_cards must be"),
    ("2=zap,A=skip", "(got '2=zap,A=skip')"),
    (5, "action_cards must be"),
])
def test_V12_bad_action_cards_are_refused_naming_the_option(value, says):
    before = cl.PRESETS["crazy-eights"]
    with pytest.raises(RulesError, match="action_cards") as e:
        cl.rules("crazy-eights", action_cards=value)
    assert says in str(e.value)
    assert cl.PRESETS["crazy-eights"] is before


def test_V12_action_cards_refused_where_they_cannot_be_played():
    with pytest.raises(RulesError, match="action_cards names JK, which is not in the deck"):
        cl.rules("crazy-eights", action_cards="JK=draw4")
    assert cl.rules("crazy-eights", action_cards="JK=draw4", jokers=2).action_cards
    with pytest.raises(RulesError, match="action_cards names 9, a rank taken out"):
        cl.rules("crazy-eights", action_cards="9=skip", removed_ranks=[9])
    with pytest.raises(RulesError, match="action_cards cannot be combined with the Crazy Breens"):
        cl.rules("crazy-breens", action_cards="2=draw2")
    with pytest.raises(RulesError, match="action_cards needs one play a turn"):
        cl.rules("crazy-8s-music", action_cards="2=draw2")


def test_V12_a_cards_own_entry_replaces_its_ranks():
    r = cl.rules("crazy-eights", action_cards="Q=skip,QS=draw5")
    assert r.action_effects[cl.card("QS")] == ("draw5",)
    assert r.action_effects[cl.card("QH")] == ("skip",)
    assert r.action_effects[cl.card("KH")] == ()


# -- V12: the effects ----------------------------------------------------------------------------


def test_V12_skip_passes_over_the_next_player():
    g = position({"action_cards": "A=skip"}, [["AH", "5C"], ["7H", "3C"], ["4H", "9C"]])
    g.push("AH")
    assert g.to_play == 2 and any(e.kind == "skipped" and e.seat == 1 for e in g.events)


def test_V12_reverse_changes_direction_and_with_two_players_is_a_skip():
    g = position({"action_cards": "Q=reverse"}, [["QH", "5C", "KD"], ["7H", "3C"],
                                                  ["4H", "10H", "9C"]])
    g.push("QH")
    assert g.to_play == 2 and dict(g.public_extra())["direction"] == "anticlockwise"
    g.push("10H")
    assert g.to_play == 1
    g.push("7H")
    assert g.to_play == 0
    two = position({"action_cards": "Q=reverse"}, [["QH", "5H", "KD"], ["7H", "3C"]])
    two.push("QH")
    assert two.to_play == 0 and dict(two.public_extra())["direction"] == "clockwise"


def test_V12_draw2_stacks_and_draw5_does_not():
    g = position({"action_cards": ACTIONS},
                 [["2H", "QS", "KD"], ["2C", "4D"], ["5D", "7S"]])
    g.push("2H")
    assert g.phase == "penalty" and g.legal() == ["2C", "draw"]
    assert "draw2" in g.explain("4D")
    g.push("2C")
    assert g.to_play == 2 and g.legal() == ["draw"]
    assert dict(g.public_extra())["pending_draw"] == (2, 4)
    for _ in range(4):
        g.push("draw")
    assert g.to_play == 0 and g.phase == "play" and g.hand_sizes == [2, 1, 6]
    assert "draw the rest" not in g.explain("draw")


def test_V12_a_penalty_the_stock_cannot_cover_shrinks_C_9():
    g = position({"action_cards": "2=draw2"}, [["2H", "5C"], ["7C", "3C"]], stock=["9D"])
    g.push("2H")
    g.push("draw")
    assert g.to_play == 0 and g.hand_sizes == [1, 3]
    assert g.events[-1].why == "forgiven"


def test_V12_nothing_to_draw_means_pass():
    g = position({"action_cards": "2=draw2"}, [["2H", "5C"], ["7C", "3C"]], stock=[])
    g.push("2H")
    assert g.legal() == ["pass"]
    g.push("pass")
    assert g.to_play == 0


def test_V12_wild_jack_fits_anything_and_names_a_suit():
    g = position({"action_cards": "J=wild"}, [["JC", "3D"], ["7H", "3C"]])
    assert "JC:D" in g.legal() and "needs a suit" in g.explain("JC")
    g.push("JC:D")
    assert g.suit == "D" and g.legal() == ["draw"]


def test_V12_a_stack_resolves_each_card():
    g = position({"action_cards": "2=draw2", "stacking": True},
                 [["2H", "2S", "5C"], ["7C", "3C"], ["9C", "4C"]])
    g.push("2H+2S")
    assert g.to_play == 1 and dict(g.public_extra())["pending_draw"] == (1, 4)


def test_V12_going_out_on_an_action_card_ends_the_hand_C_10():
    g = position({"action_cards": "2=draw2"}, [["2H"], ["7C", "3C"]])
    g.push("2H")
    assert g.over and g.winner == 0 and g.hand_sizes == [0, 2]


def test_V12_A15_forbid_final_action_covers_action_cards():
    g = position({"action_cards": "A=skip", "forbid_final_action": True},
                 [["AH"], ["7C", "3C"]])
    assert g.legal() == ["draw"] and "action card" in g.explain("AH")


def test_V12_an_unmapped_joker_keeps_the_plain_draw_MU_13():
    g = position({"action_cards": "A=skip", "jokers": 2}, [["JK", "5C"], ["7C", "3C"]])
    g.push("JK:C")
    assert g.hand_sizes == [1, 4] and g.to_play == 1 and g.phase == "play"


def test_V12_A13_starter_declaration_still_runs_under_the_variant():
    r = cl.rules("crazy-eights", action_cards="A=skip", starter_eight="first_player_declares")
    deck = ["3C", "4C", "5C", "6C", "7C", "9C", "10C", "JC", "QC", "KC", "8S", "2D"]
    g = cl.Game.from_deck(r, 2, deck)
    assert g.phase == "declare" and g.legal() == ["8S:C", "8S:D", "8S:H", "8S:S"]
    assert "names" in g.explain("3C")
    g.push("8S:H")
    assert g.phase == "play" and g.suit == "H"


def test_V12_undo_restores_direction_and_pending_hits():
    g = position({"action_cards": ACTIONS}, [["QH", "5C", "KD"], ["7H", "3C"],
                                              ["4H", "2H", "9C"]])
    before = g.fingerprint()
    g.push("QH")
    mid = g.fingerprint()
    g.push("2H")
    assert dict(g.public_extra())["pending_draw"] == (1, 2) and g.to_play == 1
    g.undo()
    assert g.fingerprint() == mid
    g.undo()
    assert g.fingerprint() == before


# -- V14: jump-in -------------------------------------------------------------------------------


JUMP = {"jump_in": True, "decks": 2}


def test_V14_a_holder_of_the_identical_card_is_asked_and_play_continues_from_them():
    g = position(JUMP, [["7H", "KH", "3D"], ["4C", "KH", "2D"], ["7H", "5S", "10C"]])
    g.push("7H")
    assert (g.to_play, g.phase, g.legal()) == (2, "jump", ["7H", "pass"])
    assert g.observation(2).legal and not g.observation(1).legal
    assert "identical" in g.explain("5S")
    g.push("7H")
    assert (g.to_play, g.phase) == (0, "play")
    assert any(e.kind == "jumped_in" and e.seat == 2 for e in g.events)
    g.push("KH")  # seat 1 holds the other K♥ but plays next: nobody is asked
    assert (g.to_play, g.phase) == (1, "play") and "KH" in g.legal()


def test_V14_jokers_are_identical_and_holders_are_asked_in_turn_order():
    opts = {"jump_in": True, "decks": 2, "jokers": 4, "max_players": 6}
    g = position(opts, [["JK", "3D", "4D"], ["4C", "2D"], ["JK", "5S"], ["JK", "9C"]])
    g.push("JK:S")
    assert (g.to_play, g.phase) == (2, "jump")
    assert g.legal() == ["JK:C", "JK:D", "JK:H", "JK:S", "pass"]
    assert "needs a call" in g.explain("JK")
    g.push("pass")
    assert (g.to_play, g.phase) == (3, "jump")
    g.push("pass")
    assert (g.to_play, g.phase) == (1, "play")


def test_V14_jumping_in_on_a_draw_two_moves_the_hit_on():
    opts = {**JUMP, "action_cards": "2=draw2"}
    g = position(opts, [["2H", "3D", "4D"], ["4C", "9D"], ["2H", "5S", "6S"]])
    g.push("2H")
    assert (g.to_play, g.phase) == (2, "jump")
    g.push("2H")
    assert (g.to_play, g.phase) == (0, "penalty")
    assert dict(g.public_extra())["pending_draw"] == (0, 4)


def test_V14_a_jumper_may_go_out_and_a_banned_last_card_is_not_offered():
    g = position(JUMP, [["7H", "KH", "3D"], ["4C", "KH", "2D"], ["7H"]])
    g.push("7H")
    g.push("7H")
    assert g.over and g.winner == 2
    banned = position({**JUMP, "forbid_final_wild": True},
                      [["8H", "KH", "3D"], ["4C", "KH", "2D"], ["8H"]])
    banned.push("8H:C")
    assert (banned.to_play, banned.phase) == (1, "play")


def test_V14_jump_in_refused_where_it_cannot_be_played():
    with pytest.raises(RulesError, match="jump_in cannot be combined with the Crazy Breens"):
        cl.rules("crazy-breens", jump_in=True)
    with pytest.raises(RulesError, match="jump_in needs one play a turn"):
        cl.rules("crazy-8s-music", jump_in=True)


def test_V14_random_bots_play_jump_ins_in_simulations():
    r = cl.rules("crazy-eights", jump_in=True, decks=2, max_players=8)
    jumped = 0
    for seed in range(40):
        g = cl.Game.new(r, 6, seed=seed).play_random(seed)
        jumped += sum(e.kind == "jumped_in" for e in g.events)
        assert g.over and all_cards(g) == Counter(r.deck)
    assert jumped > 0


# -- A11, MU-Q17: a match of N games --------------------------------------------------------------


def test_A11_games_in_match_plays_exactly_n_games_and_ties_share_it():
    r = cl.rules("crazy-8s-music", games_in_match=3)
    m = cl.Match(r, 3, seed=4).play_random(1)
    assert m.over and m.games_played == 3 and len(m.hands) == 3
    best = max(m.scores)
    assert m.winners == tuple(s for s, v in enumerate(m.scores) if v == best)
    assert m.winner == (m.winners[0] if len(m.winners) == 1 else None)
    shared = 0
    for seed in range(30):
        m = cl.Match(r, 2, seed=seed).play_random(seed)
        assert m.games_played == 3
        shared += len(m.winners) > 1
        assert (m.winner is None) == (len(m.winners) > 1)
    assert shared > 0  # equal highest totals happen, and then no single seat wins


def test_A11_games_in_match_and_a_target_are_one_or_the_other():
    with pytest.raises(RulesError, match="games_in_match=3 and match_target=100"):
        cl.rules("crazy-eights-classic", games_in_match=3)
    r = cl.rules("crazy-eights-classic", games_in_match=2, match_target=None)
    m = cl.Match(r, 2, seed=1)
    assert m.hands_to_play == 2 and m.target is None
    assert cl.Match(r, 2, seed=1, hands=5).hands_to_play == 5


def test_A11_worked_example_counts_the_games_already_played():
    data = load_example("opt-mu-q17-a11-games-in-match").data
    assert load_example(data).replay() == []
    early = {**data, "match": {**data["match"], "games_played": 1}}
    problems = load_example(early).replay()
    assert any("match_winners [0, 1], got []" in p for p in problems)
    for wrong, options in ((3, data["options"]), (1, {})):
        bad = {**data, "options": options, "match": {**data["match"], "games_played": wrong}}
        with pytest.raises(cl.examples.ExampleError, match="games_played"):
            load_example(bad)


# -- properties: every new option on, random games conserve cards and end --------------------------


CONFIGS = [
    ("crazy-eights", {"action_cards": ACTIONS}),
    ("crazy-eights", {"jump_in": True, "decks": 2, "max_players": 8}),
    ("crazy-eights", {"jump_in": True, "decks": 2, "jokers": 4, "max_players": 8,
                      "action_cards": "2=draw2,A=skip,Q=reverse,JK=draw4+skip"}),
    ("crazy-eights-classic", {"jump_in": True, "decks": 2, "stacking": True,
                              "action_cards": "7=draw2,8=skip,J=wild"}),
    ("crazy-eights-quick", {"action_cards": "K=reverse,JK=wild+draw4", "jokers": 2,
                            "starter_eight": "first_player_declares"}),
]


@pytest.mark.parametrize(("preset", "options"), CONFIGS)
def test_V12_V14_many_random_games_end_and_conserve_cards(preset, options):
    r = cl.rules(preset, **options)
    for seed in range(150):  # every table size up to eight, through the shared harness
        n = r.min_players + seed % (r.max_players - r.min_players + 1)
        g = cl.Game.new(r, n, seed=seed, keep_undo=False)
        play_checked(g, seed, undo_sample=0.0)  # cards, turn order, the end, the result


def test_V12_V14_a_saved_game_round_trips_through_a_json_file(tmp_path):
    """Saving wrote action_cards as a list of tuples, which the schema refused on loading."""
    from crazylab.examples import load_game, save_game

    r = cl.rules("crazy-eights", action_cards=ACTIONS, jump_in=True, decks=2,
                 hand_size_by_players={3: 6})
    g = cl.Game.new(r, 3, seed=5).play_random(5)
    save_game(g, tmp_path / "g.json")
    assert '"action_cards": {' in (tmp_path / "g.json").read_text(encoding="utf-8")
    assert load_game(tmp_path / "g.json").fingerprint() == g.fingerprint()

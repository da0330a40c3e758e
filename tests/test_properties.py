"""Property tests over seeded random games of every preset and player count: no card is
created or lost, every legal move is accepted, illegal ones are refused with the state
unchanged, undo is exact, save/load round-trips, turns advance as the rules say, every game
ends."""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_random_games import play_checked

import crazylab as cl
from crazylab.engine.cards import CARDS
from crazylab.engine.game import IllegalMove
from crazylab.examples import game_to_example, load_game

pytestmark = pytest.mark.engine

PRESETS = list(cl.PRESETS)
CHECKED_MOVES = 80  # moves per game checked in depth; the game then plays on to its end
SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def all_cards(game):
    return Counter([c for h in game.hands for c in h] + game.stock_cards
                   + [c for p in game.piles for c in p])


def players_for(name):
    r = cl.rules(name)
    return st.integers(r.min_players, r.max_players)


def random_texts(game, rng, k=4):
    """Move texts a careless player might type: any card, stacks, calls, piles."""
    texts = ["draw", "pass", "end"]
    for _ in range(k):
        c = rng.choice(CARDS)
        texts.append(str(c))
        texts.append(f"{c}:{rng.choice(['C', 'D', 'H', 'S', 'A', 'C#'])}")
        texts.append(f"{c}@{rng.randrange(5)}")
        texts.append(f"{c}+{rng.choice(CARDS)}")
    return texts


#: random level-5 games last ~2,400 moves (the random player draws often): fewer of them
LONG_GAMES = ("crazy-8s-level-5",)


@pytest.mark.parametrize("name", [p for p in PRESETS if p not in LONG_GAMES])
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_random_games_keep_every_invariant(name, data, seed):
    n = data.draw(players_for(name))
    check_random_game(cl.Game.new(name, n, seed=seed), seed)


@pytest.mark.parametrize("name", LONG_GAMES)
@settings(SETTINGS, max_examples=5)
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_random_long_games_keep_every_invariant(name, data, seed):
    n = data.draw(players_for(name))
    check_random_game(cl.Game.new(name, n, seed=seed), seed)


#: the house variants (rulings §6.4 V12 action cards, V14 jump-in), each new option on
HOUSE = {
    "V12-action-cards": ("crazy-eights", {"action_cards": "2=draw2,A=skip,Q=reverse,J=wild,"
                                                          "QS=draw5"}),
    "V14-jump-in": ("crazy-eights", {"jump_in": True, "decks": 2, "max_players": 8}),
    "V12-V14-both": ("crazy-eights-classic", {
        "jump_in": True, "decks": 2, "jokers": 4, "stacking": True,
        "action_cards": "2=draw2,A=skip,Q=reverse,JK=draw4+skip,8=skip"}),
}


@pytest.mark.parametrize("name", HOUSE)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_random_house_variant_games_keep_every_invariant(name, data, seed):
    """V12, V14: no card created or lost, illegal moves refused with nothing changed, undo
    exact, save/load round-trips, every game ends."""
    preset, options = HOUSE[name]
    r = cl.rules(preset, **options)
    n = data.draw(st.integers(r.min_players, r.max_players))
    check_random_game(cl.Game.new(r, n, seed=seed), seed)


def check_random_game(game, seed):
    """Refused moves change nothing and every legal move is accepted and undone, for the
    first moves; then the shared harness plays the game to its end; it saves and loads."""
    deck = Counter(game.rules.deck)
    rng = random.Random(seed)
    for _ in range(CHECKED_MOVES):
        assert all_cards(game) == deck
        if game.over:
            break
        legal = game.legal_moves()
        assert legal, "a live game always has a legal move"
        assert len(set(legal)) == len(legal), "each legal move is listed once"
        before = game.fingerprint()
        # illegal moves are refused and change nothing
        for text in random_texts(game, rng):
            if not game.is_legal(text):
                with pytest.raises(IllegalMove) as e:
                    game.push(text)
                assert str(e.value)
                assert game.fingerprint() == before
        # every legal move is accepted, and undo restores the exact state
        for m in rng.sample(legal, min(3, len(legal))):
            game.push(m)
            game.undo()
            assert game.fingerprint() == before
        game.push(rng.choice(legal))
    # the rest of the game through the shared harness: cards, turn order, undo, the end
    play_checked(game, seed)
    assert game.result.reason in ("OUT", "BLOCKED", "VOID")
    loaded = load_game(game_to_example(game))
    assert loaded.fingerprint() == game.fingerprint()


GAMES = 1000
GAMES_BY_PRESET = dict.fromkeys(LONG_GAMES, 300)


@pytest.mark.parametrize("name", PRESETS)
def test_thousands_of_games_end_and_conserve_cards(name):
    r = cl.rules(name)
    games, total = 0, GAMES_BY_PRESET.get(name, GAMES)
    for seed in range(total):
        n = r.min_players + seed % (r.max_players - r.min_players + 1)
        game = cl.Game.new(r, n, seed=seed, keep_undo=False)
        game.play_random(seed, max_moves=50_000)
        assert Counter(r.deck) == all_cards(game)
        assert game.over
        if game.result.reason == "OUT":
            assert len(game.hands[game.winner]) == 0
        games += 1
    assert games == total


@pytest.mark.parametrize("name", PRESETS)
def test_seed_reproduces_the_game(name):
    a = cl.Game.new(name, 3, seed=123).play_random(5)
    b = cl.Game.new(name, 3, seed=123).play_random(5)
    assert [str(m) for m in a.moves] == [str(m) for m in b.moves]
    assert a.fingerprint() == b.fingerprint()

"""Rule sets as data: a frozen :class:`RuleSet` per preset, composable with options.

``rules("crazy-eights-quick", draw_limit=2)`` gives a house variant; option values that make
no sense are refused with a message naming them.

A rule set names the variant that plays its special turns (:attr:`RuleSet.variant`: "plain",
"breens", "house" or a name registered with :func:`crazylab.engine.variants.register`). It is
not an option a learner picks: left out, it follows the flags (``specials`` plays "breens",
``action_cards`` or ``jump_in`` "house", anything else "plain"); a name the flags contradict
is refused.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .cards import ACE, CARDS, EIGHT, JOKER_CODE, KING, QUEEN, RANKS, TWO, Card, CardError
from .options import FIELDS, LEVELS, RulesError, expand, quote
from .pitch import LETTERS, PitchMap

__all__ = ["MIN_PLAY_SHARE", "PRESETS", "RuleSet", "RulesError", "rules"]

#: C-16 hand-point values by rank (A … K), jokers separately
CARD_VALUES = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10)


#: the least :meth:`RuleSet.play_share` a rule set may have (presets: 1/6 and more)
MIN_PLAY_SHARE = 0.125


@dataclass(frozen=True)
class RuleSet:
    """Everything that distinguishes one rule set from another. Presets are instances."""

    name: str
    description: str = ""
    # The options, in the order of options.FIELDS (each one's type, bounds, doc and rulings
    # are there; docs/OPTIONS.md lists them).
    min_players: int = 2
    max_players: int = 5
    hand_size: int = 5
    hand_size_2p: int | None = None  # a different hand size for two players (AP: 7)
    hand_size_by_players: tuple[tuple[int, int], ...] = ()  # (players, cards), over the two
    jokers: int = 0
    decks: int = 1
    removed_ranks: tuple[int, ...] = ()  # ranks taken out of the deck (MU level 1: 9 … K)
    piles: int = 1
    matching: str = "suit_rank"
    intervals: tuple[int, ...] = ()  # semitones up that are playable (interval matching)
    allow_unison_in_levels: bool = False
    pitch_map: str = "A_based"
    eights: str = "call"  # an eight calls a suit/pitch, or takes its own suit (MU main game)
    starter_eight: str = "rebury"
    starter_joker: str = "rebury"
    bury_position: str = "random_not_top"
    draw_rule: str = "until_playable"
    draw_limit: int = 3  # cards per turn for up_to_n, cards drawn at once for fixed
    must_play_drawn: bool = True
    voluntary_draw: bool = False
    chain: bool = False  # several plays in a turn, closed by `end` (MU)
    optional_play: bool = False  # a player may draw instead of playing (MU)
    post_draw_first_card: str = "drawn_only"
    jump_in: bool = False  # V14: an identical card may be played out of turn (variants.house)
    last_card_call: bool = False  # A14: a play leaving one card carries the call (6C!)
    last_card_penalty: int = 2
    forbid_final_wild: bool = False  # A15: no going out on an eight or a joker
    forbid_final_action: bool = False  # A15: no going out on an action card
    action_cards: tuple[tuple[str, str], ...] = ()  # V12: (rank or card, "draw2" …) pairs
    stacking: bool = False  # several cards of one rank at once (Crazy Breens)
    specials: bool = False  # Crazy Breens special cards (2, A, K, Q, J, joker)
    joker_draw: int = 2  # cards the victim of a joker draws
    joker_victim_skips: bool = False
    # Crazy Breens options (rulings §5.5); they matter only with specials
    stack_targeting: str = "distributed"  # BR-Q11: hit i lands on opponent i, or all on the next
    extra_hits_cost_turns: bool = False  # BR-Q12 (A1): each extra hit costs one more turn
    mid_draw_counter: str = "first_card"  # BR-Q21: a drawn Jack counters (first card/any/off)
    mid_draw_applies_to: str = "all_draws"  # BR-Q21 (A4): every draw penalty, or the 2s' only
    counter_stack: bool = True  # BR-Q19: a counter may be several Jacks
    jack_counters_joker: bool = True  # BR-Q14
    draw_passing: bool = False  # BR-Q23 (A5): a victim passes the draw on with its rank
    flip_again_on_any_special: bool = False  # BR-Q10 (A2): any turned special flips again
    queen_drop_count: int = 1  # BR-Q30 (A3): drops a Queen allows, one at a time
    starter_queen_drop: bool = True  # BR-Q7: a Queen starter lets the dealer drop
    joker_only_if_no_suit: bool = False  # BR-Q42 (A6): a joker only without the active suit
    reshuffle: str = "never"
    max_reshuffles: int = 3
    reshuffle_timing: str = "lazy"  # AP-Q6, MU-Q11 (A12): when a draw needs it, or eager
    scoring: str = "winner_collects"
    card_values: tuple[tuple[int, int], ...] = ()  # (rank, points) over the C-16 values
    joker_points: int = 50
    blocked_rule: str = "void_redeal"
    blocked_tiebreak: str = "fewest_cards_then_draw"
    blocked_scoring: str = "difference"
    void_hand_dealer: str = "same"
    match_target: int | None = None
    games_in_match: int | None = None  # MU-Q17 (A11): a match of this many games
    options_changed: tuple[str, ...] = field(default=(), compare=False, repr=False)
    #: the variant that plays this rule set's special turns (one of :data:`VARIANT_NAMES`);
    #: ``""`` when constructing: the one the flags choose (:func:`flag_variant`)
    variant: str = ""

    def __repr__(self) -> str:
        """One short line: the name and the house options changed from the preset
        (``RuleSet('crazy-eights', draw_limit=2)``, or their count when they would not fit in
        about 100 characters); ``options()`` lists every value."""
        changed = [f"{k}={getattr(self, k)!r}" for k in self.options_changed]
        text = f"RuleSet({self.name!r}{''.join(', ' + c for c in changed)})"
        if len(text) <= 100:
            return text
        name = self.name if len(self.name) <= 60 else self.name[:59] + "…"
        n = len(changed)
        return f"RuleSet({name!r}, {n} house option{'s' * (n != 1)})"

    def __post_init__(self) -> None:
        """Check every option against its schema entry (:data:`~.options.FIELDS`), then the
        rules between options; lists given for list options become tuples."""
        problems = []
        if not isinstance(self.name, str) or not isinstance(self.description, str):
            raise RulesError(f"a rule set's name and description are text "
                             f"(got {quote(self.name)}, {quote(self.description)})")
        changed = self.options_changed
        if not (isinstance(changed, (tuple, list))
                and all(c in FIELDS or c == "variant" for c in changed)):
            raise RulesError(f"options_changed lists option names (like ('draw_limit',)), not "
                             f"{quote(changed, 60)}")
        if type(changed) is not tuple:
            object.__setattr__(self, "options_changed", tuple(changed))
        for option in FIELDS.values():
            value = getattr(self, option.name)
            try:
                checked = option.check(value)
            except RulesError as e:
                problems.append(str(e))
                continue
            if checked is not value:
                object.__setattr__(self, option.name, checked)
        if problems:
            raise RulesError(f"{self._label}: " + "; ".join(problems))
        if self.variant == "":
            object.__setattr__(self, "variant", flag_variant(self))
        else:
            why = self._variant_problem()
            if why:
                problems.append(why)
        if self.max_players < self.min_players:
            problems.append("max_players must be at least min_players "
                            f"(got {self.max_players} < {self.min_players})")
        if self.jokers > 2 * self.decks:
            problems.append(f"jokers must be at most 2 per deck ({2 * self.decks} with "
                            f"decks={self.decks}; got {self.jokers})")
        if self.draw_limit > self.deck_size:
            problems.append(f"draw_limit must be at most the deck's {self.deck_size} cards "
                            f"(got {self.draw_limit})")
        outside = [n for n, _ in self.hand_size_by_players
                   if not self.min_players <= n <= self.max_players]
        if outside:
            problems.append(f"hand_size_by_players names {outside[0]} players, but this rule "
                            f"set plays {self.min_players}-{self.max_players}")
        if self.matching == "interval" and not self.intervals:
            problems.append("intervals must name at least one semitone step 1-11 for "
                            "interval matching (got ())")
        if self.matching in ("letter_step", "interval") and self.eights == "own_suit":
            problems.append("eights='own_suit' needs suit matching")
        if self.specials and self.matching not in ("suit_rank", "suit_pitch"):
            problems.append("specials (the Crazy Breens cards) need suit matching "
                            f"(got matching={self.matching!r})")
        if self.matching in ("letter_step", "interval") and self.starter_eight not in (
                "rebury", "dealer_announces"):
            problems.append(f"starter_eight={self.starter_eight!r}: in the music levels an "
                            "eight has no pitch to start a pile with, so a seed eight is "
                            "buried (MU-Q34): use starter_eight='rebury' (or "
                            "'dealer_announces', A9)")
        elif self.starter_eight == "dealer_declares" and not self.specials:
            problems.append("starter_eight='dealer_declares' makes a starter eight the "
                            "dealer's play, which only the special cards (specials=True) "
                            "resolve; use 'keep' for its printed suit")
        for value in ("first_player_declares", "dealer_announces"):
            if self.starter_eight == value and self.eights == "own_suit":
                problems.append(f"starter_eight={value!r} needs eights that call a suit "
                                "(here an eight takes its own suit)")
        if self.specials and "dealer_announces" in (self.starter_eight, self.starter_joker):
            problems.append("'dealer_announces' is the music seeds' rule (A9): a Crazy "
                            "Breens starter wild is the dealer's play ('dealer_declares', "
                            "'apply')")
        if self.starter_joker == "apply" and not self.specials:
            problems.append("starter_joker='apply' makes a starter joker the dealer's play, "
                            "which only the special cards (specials=True) resolve")
        if self.joker_only_if_no_suit and self.call_kind != "suit":
            problems.append("joker_only_if_no_suit needs suits to follow (the music levels "
                            "follow pitches)")
        if self.stacking and self.chain:
            problems.append("stacking and chain cannot both be on")
        for house, on in (("action_cards", bool(self.action_cards)),
                          ("jump_in", self.jump_in)):
            if on and self.specials:
                problems.append(f"{house} cannot be combined with the Crazy Breens special "
                                "cards (specials=True), which have their own fixed effects")
            elif on and self.chain:
                problems.append(f"{house} needs one play a turn (chain=False): the music "
                                "game's chained plays do not take it")
        if self.action_cards:
            deck = set(self.deck)
            for key, _ in self.action_cards:
                if key in RANKS:
                    if RANKS.index(key) + 1 in self.removed_ranks:
                        problems.append(f"action_cards names {key}, a rank taken out of the "
                                        "deck (removed_ranks)")
                elif Card.parse(key) not in deck:
                    problems.append(f"action_cards names {key}, which is not in the deck"
                                    + (" (add jokers)" if key == "JK" else ""))
        if self.games_in_match is not None and self.match_target is not None:
            problems.append(f"games_in_match={self.games_in_match} and match_target="
                            f"{self.match_target} both end a match: give one of them")
        if self.match_target is not None and self.scoring != "winner_collects":
            problems.append(f"match_target={self.match_target} needs scoring="
                            f"'winner_collects': with scoring={self.scoring!r} no total ever "
                            "reaches it (set match_target=None)")
        if not problems:
            needs = [(n * self.hand_size_for(n) + self.piles, n)
                     for n in range(self.min_players, self.max_players + 1)]
            needed, n = max(needs)
            if needed > self.deck_size:
                problems.append(
                    f"{n} players × {self.hand_size_for(n)} cards + {self.piles} starter(s) "
                    f"need {needed} cards but the deck has {self.deck_size}: "
                    "lower max_players or hand_size"
                )
        if not problems:
            dead = self.dead_cards()
            wild_only = () if dead else self.dead_cards(wild_calls=False)
            if dead:
                problems.append(self._dead_message(dead))
            elif wild_only:
                problems.append(self._dead_message(wild_only, wild_only=True))
            elif self.play_share() < MIN_PLAY_SHARE:
                problems.append(
                    f"with matching={self.matching!r}"
                    + (f", intervals={self.intervals!r}" if self.matching == "interval" else "")
                    + f" and piles={self.piles} the piles take on average only "
                    f"{self.play_share():.0%} of the deck's cards that are not wild (at least "
                    f"{MIN_PLAY_SHARE:.1%} are needed), so the draws outpace the plays and a "
                    "hand does not end: allow more intervals or more piles")
        if problems:
            raise RulesError(f"{self._label}: " + "; ".join(problems))

    def _variant_problem(self) -> str:
        """Why the variant this rule set names is refused: an unknown name, or one its flags
        contradict ('' if it is fine)."""
        named = self.variant
        if not isinstance(named, str) or named not in VARIANT_NAMES:
            return (f"variant must be one of {', '.join(VARIANT_NAMES)} (got {quote(named)}); "
                    "left out, it follows the flags")
        flags = flag_variant(self)
        if named == flags or (flags == "plain" and named not in SHIPPED_VARIANTS):
            return ""  # a registered variant of its own plays on the plain game's flags
        allowed = ([v for v in VARIANT_NAMES if v not in SHIPPED_VARIANTS[1:]]
                   if flags == "plain" else [flags])
        return (f"variant={named!r} contradicts the flags, which play {flags!r} "
                f"({_VARIANT_FLAGS[flags]}): variant must be {' or '.join(allowed)} here, or "
                "left out")

    def dead_cards(self, wild_calls: bool = True) -> tuple[Card, ...]:
        """The cards of the deck that some reachable pile can never take, in card order:
        ``()`` for every rule set that can be played to the end (``__post_init__`` refuses
        the others).

        A pile is known by its reference (its top card and the call in force,
        :attr:`references`); it takes the cards of :attr:`accepts`, and a card played moves it
        to that card's reference (with each call a wild may make). A hand can end only if,
        from every reference a pile can reach, every card of the deck is takeable on some
        reference reachable from there: otherwise a card (say a black-key card under
        ``matching='letter_step'``, which has no letter) stays in its holder's hand for ever,
        or a pile's position shuts some cards out for the rest of the hand. Every reference
        of a deck card counts as reachable (a starter, or a card played), so the test does not
        depend on the deal.

        With ``wild_calls=False`` the result is the cards that no plain card's reference takes:
        nothing but a wild's call ever lets a pile take them (under
        level 2's semitone steps with ``removed_ranks=(1, 2, 3, 4, 7)``, the tens, nines and
        kings, whose pitches have no neighbour left); ``__post_init__`` refuses those too, as
        random play had not ended such hands after 20,000 moves."""
        if wild_calls is not True and wild_calls is not False:
            raise RulesError(f"wild_calls must be True or False, not {quote(wild_calls)}")
        deck = frozenset(self.deck)
        accepts, references = self.accepts, self.references
        if not wild_calls:  # a card no plain card's reference takes, whatever the position
            plain_starts = {references[c][0] for c in deck if not self.calls_on_play(c)}
            takeable = frozenset().union(*(accepts[ref] for ref in plain_starts))
            return tuple(sorted(c for c in deck - takeable if not self.is_wild(c)))
        calls = len(self.call_values)
        moves: dict[int, set[int]] = {}  # reference -> the references one play leads to
        for ref in range(len(accepts)):
            after: set[int] = set()
            for c in accepts[ref] & deck:
                row = references[c]
                if not self.calls_on_play(c):
                    after.add(row[0])
                else:
                    after.update(row[1:calls + 1])
            moves[ref] = after
        # the cards takeable on some reference reachable from each reference (itself
        # included), as bit masks over the deck's cards, grown along the plays to a fixpoint
        cards = sorted(deck)
        bit = {c: 1 << i for i, c in enumerate(cards)}
        takes = [sum(bit[c] for c in accepts[ref] & deck) for ref in range(len(accepts))]
        changed = True
        while changed:
            changed = False
            for ref, after in moves.items():
                grown = takes[ref]
                for nxt in after:
                    grown |= takes[nxt]
                if grown != takes[ref]:
                    takes[ref], changed = grown, True
        missing = 0
        for start in {x for c in deck for x in references[c]}:  # every reference reachable
            missing |= ~takes[start]
        return tuple(c for c in cards if missing & bit[c])

    def play_share(self) -> float:
        """The share of the deck's cards that are not wild which the piles take together, on
        average over the references a pile can have: ``piles`` times the mean share one
        reference takes. Under a single step of two semitones on one pile (level 4 with
        ``piles=1``) it is 1/12, and random play draws more than it plays: of 30 such hands
        29 had not ended after 20,000 moves. Every preset takes a sixth or more."""
        plain = [c for c in self.deck if not self.is_wild(c)]
        if not plain:
            return 1.0
        refs = sorted({x for c in self.deck for x in self.references[c]})
        taken = sum(sum(c in self.accepts[ref] for c in plain) for ref in refs)
        return self.piles * taken / (len(refs) * len(plain))

    def _dead_message(self, dead: tuple[Card, ...], wild_only: bool = False) -> str:
        """Why a rule set with :meth:`dead_cards` is refused, naming the options at play."""
        named = [f"matching={self.matching!r}"]
        if self.matching == "interval":
            named.append(f"intervals={self.intervals!r}")
        if self.matching != "suit_rank":
            named.append(f"pitch_map={self.pitch_map!r}")
        named.append(f"removed_ranks={self.removed_ranks!r}")
        if self.jokers == 0 and 8 in self.removed_ranks:
            named.append("jokers=0 (no wild card is left)")
        shown = " ".join(c.display for c in dead[:8]) + (" …" if len(dead) > 8 else "")
        ranks = sorted({c.rank for c in dead if c.rank < 14}
                       - {c.rank for c in self.deck if c not in dead})
        removed = tuple(sorted({*self.removed_ranks, *ranks}))
        fix = (f"; take their ranks out (removed_ranks={removed})"
               if ranks and not any(c.is_joker for c in dead) else "")
        if wild_only:
            return (f"with {', '.join(named)} only a wild's call ever lets a pile take "
                    f"{len(dead)} of the deck's cards ({shown}), so a hand does not end{fix} or "
                    "choose other intervals")
        return (f"with {', '.join(named)} no pile can ever take {len(dead)} of the deck's "
                f"cards ({shown}), so a hand could never end{fix} or choose another matching")

    @property
    def _label(self) -> str:
        """The name as a message shows it (cut to the quoting limit)."""
        return self.name if len(self.name) <= 80 else self.name[:77] + "..."

    # -- derived facts ---------------------------------------------------------------------

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """Every card of a fresh deck, in a fixed order."""
        suited = tuple(c for c in CARDS[:52] if c.rank not in self.removed_ranks)
        return suited * self.decks + (CARDS[JOKER_CODE],) * self.jokers

    @property
    def deck_size(self) -> int:
        return (52 - 4 * len(set(self.removed_ranks))) * self.decks + self.jokers

    @cached_property
    def pitches(self) -> PitchMap:
        return PitchMap(self.pitch_map)

    @property
    def call_kind(self) -> str:
        """What a wild names: ``suit``, ``letter`` (MU level 1) or ``pitch``."""
        return {"letter_step": "letter", "interval": "pitch"}.get(self.matching, "suit")

    @property
    def call_values(self) -> tuple[int, ...]:
        return tuple(range({"suit": 4, "letter": 7, "pitch": 12}[self.call_kind]))

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of ``players``: ``hand_size_by_players``, else ``hand_size_2p``
        for two, else ``hand_size``."""
        if (type(players) is not int
                or not self.min_players <= players <= self.max_players):
            raise RulesError(f"{self._label} is for {self.min_players}-{self.max_players} "
                             f"players, not {quote(players)}")
        for n, size in self.hand_size_by_players:
            if n == players:
                return size
        return self.hand_size_2p if players == 2 and self.hand_size_2p else self.hand_size

    def is_wild(self, c: Card) -> bool:
        """Whether ``c`` (a :class:`Card`) fits on anything: an eight, a joker, a wild
        action card."""
        if type(c) is not Card:
            raise _not_a_card(c)
        return c == JOKER_CODE or c.rank == EIGHT or c in self.action_wilds

    def calls_on_play(self, c: Card) -> bool:
        """Whether playing ``c`` (a :class:`Card`) names a suit or pitch."""
        if type(c) is not Card:
            raise _not_a_card(c)
        return (c == JOKER_CODE or (c.rank == EIGHT and self.eights == "call")
                or c in self.action_wilds)

    @cached_property
    def action_effects(self) -> tuple[tuple[str, ...], ...]:
        """``action_effects[card]``: the card's ``action_cards`` effects (V12), ``()`` for
        none. A card's own entry replaces its rank's (``Q=skip,QS=draw5``: Q♠ draws 5)."""
        by_rank = {k: v for k, v in self.action_cards if k in RANKS}
        by_card = {Card.parse(k): v for k, v in self.action_cards if k not in RANKS}
        out = []
        for c in CARDS:
            text = by_card.get(c)
            if text is None and not c.is_joker:
                text = by_rank.get(RANKS[c.rank - 1])
            out.append(tuple(text.split("+")) if text else ())
        return tuple(out)

    @cached_property
    def action_wilds(self) -> frozenset[Card]:
        """Cards that ``action_cards`` makes wild: playable on anything, naming a suit."""
        if not self.action_cards:
            return frozenset()
        return frozenset(c for c in CARDS if "wild" in self.action_effects[c])

    @cached_property
    def final_ban(self) -> frozenset[Card]:
        """Cards that may not be a player's last card (A15): eights and jokers with
        ``forbid_final_wild``; with ``forbid_final_action`` the cards that have an effect here
        (Crazy Breens: 2, A, Q, K and the joker; elsewhere the joker, whose draw is its
        effect). A Jack is barred only as a counter (:attr:`final_counter_ban`)."""
        ban: set[Card] = set()
        if self.forbid_final_wild:
            ban |= {c for c in CARDS if self.is_wild(c)}
        if self.forbid_final_action:
            ranks = {TWO, ACE, QUEEN, KING} if self.specials else set()
            ban |= {c for c in CARDS if c == JOKER_CODE or c.rank in ranks}
            ban |= {c for c in CARDS if self.action_effects[c]}  # V12's action cards
        return frozenset(c for c in ban if c in self.deck)

    @property
    def final_counter_ban(self) -> bool:
        """Whether a Jack counter may not be the last card (A15, ``forbid_final_action``)."""
        return self.forbid_final_action and self.specials

    @cached_property
    def draws_per_turn(self) -> float:
        """How many ``draw`` moves one turn allows (unbounded while drawing until playable)."""
        return {"until_playable": float("inf"), "one": 1}.get(self.draw_rule, self.draw_limit)

    def card_points(self, c: Card) -> int:
        """What ``c`` (a :class:`Card`) counts left in a hand."""
        if type(c) is not Card:
            raise _not_a_card(c)
        return self.points[c]

    @cached_property
    def points(self) -> tuple[int, ...]:
        """``points[card]``: what a card left in a hand scores (face value, eights 50, or
        ``card_values``)."""
        values = dict(enumerate(CARD_VALUES, 1)) | dict(self.card_values)
        return tuple(self.joker_points if c == JOKER_CODE else values[c.rank] for c in CARDS)

    # -- matching ----------------------------------------------------------------------------

    def reference(self, top: Card, call: int | None) -> int:
        """The key of what a pile accepts: its top card and the call in force on it."""
        if type(top) is not Card:
            raise _not_a_card(top)
        if call is not None:
            self.format_call(call)  # a RulesError unless a call number of this rule set
        if self.matching in ("suit_rank", "suit_pitch"):
            suit = call if call is not None else top.suit
            if self.is_wild(top):
                match_value = 0
            elif self.matching == "suit_rank":
                match_value = top.rank
            else:
                pc = self.pitches.pitch(top)
                match_value = 0 if pc is None else pc + 1
            return match_value * 4 + (suit if suit is not None else 0)
        if call is not None:
            return call
        if self.matching == "letter_step":
            letter = self.pitches.letter(top)
            return 0 if letter is None else letter
        pc = self.pitches.pitch(top)
        return 0 if pc is None else pc

    @cached_property
    def call_texts(self) -> tuple[str, ...]:
        """Every call a wild may make, as canonical text (``C D H S`` for suits)."""
        return tuple(self.format_call(v) for v in self.call_values)

    @cached_property
    def references(self) -> tuple[tuple[int, ...], ...]:
        """:meth:`reference` tabulated: ``references[top][0]`` with no call in force,
        ``references[top][call + 1]`` with one."""
        return tuple(tuple(self.reference(c, call) for call in (None, *self.call_values))
                     for c in CARDS)

    @cached_property
    def accepts(self) -> tuple[frozenset[Card], ...]:
        """``accepts[reference]``: the cards playable on a pile with that reference."""
        wild = frozenset(c for c in CARDS if self.is_wild(c))
        pm = self.pitches
        table = []
        if self.matching in ("suit_rank", "suit_pitch"):
            for key in range(14 * 4):
                match_value, suit = divmod(key, 4)
                table.append(wild | {c for c in CARDS[:52]
                                     if c.suit == suit or self._same_value(c, match_value)})
        elif self.matching == "letter_step":
            steps = (0, 1, 6) if self.allow_unison_in_levels else (1, 6)
            for ref in range(7):
                table.append(wild | {c for c in CARDS[:52]
                                     if ((letter := pm.letter(c)) is not None
                                         and (letter - ref) % 7 in steps)})
        else:
            allowed = set(self.intervals) | ({0} if self.allow_unison_in_levels else set())
            for ref in range(12):
                table.append(wild | {c for c in CARDS[:52]
                                     if ((pc := pm.pitch(c)) is not None
                                         and (pc - ref) % 12 in allowed)})
        return tuple(table)

    def _same_value(self, c: Card, match_value: int) -> bool:
        """Whether ``c`` matches a top card's rank (or pitch) key; 0 means nothing matches."""
        if not match_value:
            return False
        if self.matching == "suit_rank":
            return c.rank == match_value
        return self.pitches.pitch(c) == match_value - 1

    # -- presentation ------------------------------------------------------------------------

    def format_call(self, value: int) -> str:
        """Call number ``value`` as text: ``D`` (suits 0-3), ``E`` (letters 0-6), ``C#``
        (pitches 0-11)."""
        kind = self.call_kind
        if type(value) is not int or not 0 <= value < (4 if kind == "suit" else
                                                        7 if kind == "letter" else 12):
            raise RulesError(f"a call of {self._label} is a number from 0 to "
                             f"{len(self.call_values) - 1}, not {quote(value)}")
        if kind == "suit":
            return "CDHS"[value]
        if kind == "letter":
            return LETTERS[value]
        from .pitch import PITCH_NAMES

        return PITCH_NAMES[value]

    def options(self) -> dict[str, object]:
        """Every option and its value (name and description left out)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("name", "description", "options_changed", "variant")}


#: the variants the engine ships: the plain game's hooks and the two variants
SHIPPED_VARIANTS = ("plain", "breens", "house")
#: the variants a rule set may name (:attr:`RuleSet.variant`): the shipped ones, then any
#: plugged in with :func:`crazylab.engine.variants.register` (which keeps this list)
VARIANT_NAMES: list[str] = list(SHIPPED_VARIANTS)
#: what the flags of each shipped variant say, for messages
_VARIANT_FLAGS = {"plain": "specials, action_cards and jump_in off", "breens": "specials=True",
                  "house": "action_cards or jump_in=True"}


def flag_variant(r: RuleSet) -> str:
    """The shipped variant ``r``'s flags choose: "house" with ``action_cards`` or
    ``jump_in`` (V12, V14), "breens" with ``specials``, else "plain"."""
    if r.action_cards or r.jump_in:
        return "house"
    return "breens" if r.specials else "plain"


_MUSIC: dict[str, Any] = dict(
    min_players=2, max_players=4, hand_size=5, jokers=2, starter_eight="rebury",
    starter_joker="rebury", draw_rule="fixed", draw_limit=2, chain=True, optional_play=True,
    reshuffle="unlimited", scoring="minus_one_per_card", blocked_rule="fewest_cards",
    blocked_tiebreak="shared", joker_draw=2,
)
_APP: dict[str, Any] = dict(
    min_players=2, max_players=4, hand_size=5, hand_size_2p=7, reshuffle="limited",
    max_reshuffles=3, match_target=100, blocked_rule="lowest_points_wins",
)

PRESETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet("crazy-eights", "Five-card Crazy Eights for 2-5: only eights wild, draw until "
                "you can play, no reshuffle, blocked hand redealt, winner collects points",
                max_players=5, voluntary_draw=True),
        RuleSet("crazy-eights-classic", "The app's classic rule: 7 cards for two, 5 for three or "
                "four; draw until you can play; up to 3 reshuffles; match to 100", **_APP),
        RuleSet("crazy-eights-quick", "The app's quick rule: as classic, but draw at most 3 "
                "cards, then pass", draw_rule="up_to_n", **_APP),
        RuleSet("crazy-breens", "Crazy Breens: 7 cards, jokers draw 4, stack same ranks, "
                "2 draw two, A skip, K plays the deck, Q drops a card, J counters",
                max_players=6, hand_size=7, jokers=2, stacking=True, specials=True,
                starter_eight="dealer_declares", starter_joker="apply", joker_draw=4,
                reshuffle="unlimited", scoring="none", blocked_rule="fewest_cards",
                blocked_tiebreak="shared"),
        RuleSet("crazy-8s-music", "Musical Crazy 8s: match suit or pitch, chain cards, draw "
                "two when you play none, jokers make the next player draw two",
                **{**_MUSIC, **LEVELS[0]}),
        RuleSet("crazy-8s-level-1", "Music level 1 (easy): one letter step up or down, A-G, "
                "on a 34-card deck", **{**_MUSIC, **LEVELS[1]}),
        RuleSet("crazy-8s-level-2", "Music level 2 (hard): one semitone up or down from either "
                "of two piles", **{**_MUSIC, **LEVELS[2]}),
        RuleSet("crazy-8s-level-3", "Music level 3 (crazy): a major or minor third up or down",
                **{**_MUSIC, **LEVELS[3]}),
        RuleSet("crazy-8s-level-4", "Music level 4 (epic): one whole tone up only, on any of "
                "four piles", **{**_MUSIC, **LEVELS[4]}),
        RuleSet("crazy-8s-level-5", "Music level 5 (legendary): a perfect fourth or fifth up "
                "or down", **{**_MUSIC, **LEVELS[5]}),
    )
}


def _not_a_card(value: object) -> CardError:
    return CardError(f"{quote(value)} is not a Card: read card text with crazylab.card('6H')")


def rules(name: str | RuleSet, **options: object) -> RuleSet:
    """A preset by name, with options changed: ``rules("crazy-eights", draw_rule="one")``.

    Option names are those of :data:`~.options.OPTIONS`: the fields of a rule set, and the
    rulings' other names (``num_jokers=1``, ``level=3`` …), which set fields. Every value is
    checked by the schema; a refusal is a :class:`RulesError` naming the option.

    ``variant`` may be named too (it is no option): left out, a preset's variant follows the
    changed flags, and a variant registered by name (a base rule set naming one of its own)
    is kept."""
    if isinstance(name, RuleSet):
        base = name
    elif isinstance(name, str) and name in PRESETS:
        base = PRESETS[name]
    else:
        raise RulesError(f"unknown rule set {quote(name)}; the presets are: {', '.join(PRESETS)}")
    if not options:
        return base
    description = options.pop("description", base.description)
    named = "variant" in options
    variant = options.pop("variant", "" if base.variant == flag_variant(base) else base.variant)
    try:
        given = expand(options, base.options())
    except RulesError as e:
        raise RulesError(f"{base._label}: {e}") from None
    if given.get("draw_rule") == "one" and "must_play_drawn" not in given:
        given["must_play_drawn"] = False  # SR-Q18: draw one, then play or pass
    changed = tuple(sorted(set(base.options_changed) | set(given)))
    if named:
        changed = tuple(sorted({*changed, "variant"}))
    fields: dict[str, Any] = {**given, "description": description, "options_changed": changed,
                              "variant": variant}
    return dataclasses.replace(base, **fields)

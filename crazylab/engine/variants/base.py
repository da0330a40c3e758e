"""The variant interface: how a rule set that changes the turn structure plugs into the engine.

A :class:`Variant` is a set of hooks the turn machine (:class:`crazylab.engine.game.Game`) calls
at fixed points; the plain games have none. A variant keeps its own state in one typed value,
``game.variant_state`` (made by :meth:`Variant.new_state`), which undo copies with its
``clone()``, which a saved game rebuilds by replaying its moves, and which
:meth:`Variant.restore` rebuilds from what a seat sees (a bot's worlds). Adding a variant means
writing a subclass, registering it by name (:func:`crazylab.engine.variants.register`) and
naming it in a rule set (:attr:`~crazylab.engine.rules.RuleSet.variant`), not editing the
game loop.

The hooks see the game through :class:`TurnAPI`, the public turn API: the position's fields
to read, and the verbs a variant composes. The game is the only writer of its turn machine
(``phase``, ``to_play``, the turn's counters, the direction of play): a variant never assigns
those fields but asks for a verb (pass the turn to a seat, set a phase, the next seat in the
direction of play, reverse it, turn the stock's top card onto a pile, play or draw as part of
a turn, begin or end a turn, finish the hand); ``tests/test_layers.py`` keeps it so.

The plain games play with :data:`PLAIN`, whose hooks are the core's own behaviour (the
starter declarations, the plain joker's draw, the engine's own explanations), so neither the
turn machine nor the explanations have a ``variant is None`` branch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from ..cards import Card
from ..events import WHY_JOKER, Event
from ..moves import Move
from ..rules import RuleSet

_C = TypeVar("_C")

try:  # the mark that lets plain-Python classes subclass Variant in the compiled build
    from mypy_extensions import mypyc_attr
except ImportError:  # mypy is not installed: nothing is compiled, so nothing to mark
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:  # type: ignore[no-redef]
        return lambda cls: cls


class TurnAPI(Protocol):
    """What a variant (and an explanation) may read and do on a game."""

    rules: RuleSet
    n: int
    dealer: int
    hands: list[list[Card]]
    piles: list[list[Card]]
    calls: list[int | None]
    refs: list[int]
    stock_cards: list[Card]
    events: list[Event]
    to_play: int
    phase: str
    turn_draws: int
    turn_plays: int
    drawn: list[Card]
    idle: int
    reshuffles: int
    over: bool
    direction: int
    variant_state: Any

    @property
    def top(self) -> Card: ...

    def legal_moves(self) -> tuple[Move, ...]: ...

    def active_suit(self, pile: int = 0) -> int | None: ...

    def take_from_stock(self, eager: bool = True) -> Card | None: ...

    def can_draw(self) -> bool: ...

    def fits_any(self, c: Card) -> bool: ...

    def place(self, seat: int, m: Move) -> None: ...

    def draw_cards(self, seat: int, count: int, why: str = "", penalty: bool = False,
                   nth: int = 0, of: int = 0) -> list[Card]: ...

    def update_reference(self, pile: int) -> None: ...

    def parse_call(self, text: str) -> int: ...

    def begin_turn(self) -> None: ...

    def end_turn(self) -> None: ...

    def finish_out(self, seat: int) -> None: ...

    def finish(self, winners: Sequence[int], reason: str, scores: Sequence[int]) -> None: ...

    # the turn machine's verbs

    def next_seat(self, seat: int, k: int = 1) -> int: ...

    def reverse(self) -> None: ...

    def pass_to(self, seat: int) -> None: ...

    def set_phase(self, phase: str) -> None: ...

    def log(self, event: Event) -> None: ...

    def restart_turn(self) -> None: ...

    def skip_turn_of(self, seat: int) -> None: ...

    def play_cards(self, seat: int, m: Move) -> None: ...

    def draw_for_turn(self, seat: int, count: int, why: str = "", penalty: bool = False,
                      nth: int = 0, of: int = 0) -> list[Card]: ...

    def flip_to_pile(self, pile: int = 0, eager: bool = True) -> Card | None: ...

    def set_call(self, pile: int, text: str) -> None: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class Variant:
    """Hooks into the turn machine; every default leaves the plain game unchanged.

    ``phases`` are the variant's own turn phases: in them the engine asks :meth:`legal`,
    :meth:`apply` and :meth:`explain` instead of its own play/draw/pass logic."""

    name = ""
    phases: ClassVar[tuple[str, ...]] = ()  # ClassVar: mypyc compiles a subclass's tuple
    #: whether the engine still runs its own starter declarations (A9, A13: the ``declare``
    #: phase before the first turn) for this variant's games
    core_declarations = False
    #: whether the engine's own words explain a refused starter declaration and ``end``
    #: (the plain games); a variant explains those itself (:meth:`explain`,
    #: :meth:`explain_turn`)
    core_explanations = False

    def words(self) -> Any:
        """The narrator's words for the variant's own events: a subclass of
        :class:`~crazylab.engine.wording.Words` (``None``: the core's words are enough)."""
        return None

    def new_state(self) -> Any:
        """The variant's state for a new hand (a value with ``clone()``), or ``None``."""
        return None

    def starter(self, game: TurnAPI) -> None:
        """After the starter is turned, before the first turn begins."""

    def begin_turn(self, game: TurnAPI) -> None:
        """At the start of every turn (the engine has reset the turn counters)."""

    def joker_played(self, game: TurnAPI, seat: int) -> None:
        """A normal-turn play topped by a joker was placed (before the engine looks whether
        the hand is empty). A variant resolves jokers in its own hooks: nothing here."""

    def after_play(self, game: TurnAPI, seat: int, move: Move) -> bool:
        """After a normal-turn play that did not empty the hand. Return ``True`` when the
        variant has taken over the rest of the turn (the engine then does nothing more)."""
        return False

    def legal(self, game: TurnAPI) -> list[Move]:
        """The legal moves in one of the variant's phases."""
        return []

    def apply(self, game: TurnAPI, move: Move) -> None:
        """Apply a legal move of one of the variant's phases."""

    def explain(self, game: TurnAPI, move: Move) -> str:
        """Why ``move`` is not legal in one of the variant's phases."""
        return ""

    def explain_turn(self, game: TurnAPI, move: Move) -> str:
        """A variant's hint for a refused move on a normal turn ('' when the engine's is
        enough)."""
        return ""

    def public_state(self, game: TurnAPI) -> dict[str, Any]:
        """The variant's public state for observations (``{}`` if none)."""
        return {}

    def restore(self, game: TurnAPI, seen: dict[str, Any]) -> bool:
        """Rebuild ``game.variant_state`` from what a seat sees (``seen``: the variant's
        :meth:`public_state`, an observation's ``extra``), on a position made by
        ``Game.from_position`` whose turn ``Game.restore_turn`` has set (its phase and the
        cards the seat drew this turn). ``False`` when the state cannot be rebuilt from it (then the
        position cannot be determinized)."""
        return not seen


@mypyc_attr(allow_interpreted_subclasses=True)
class Plain(Variant):
    """The plain turn machine's hooks: the core's starter declarations (A9, A13) and the plain
    joker (MU-13: the next player draws ``joker_draw`` cards at once; with
    ``joker_victim_skips`` they lose that turn too, MU-Q12)."""

    name = "plain"
    core_declarations = True
    core_explanations = True

    def joker_played(self, game: TurnAPI, seat: int) -> None:
        if game.n > 1:
            victim = game.next_seat(seat)
            game.draw_cards(victim, game.rules.joker_draw, why=WHY_JOKER,
                            penalty=True)
            if game.rules.joker_victim_skips:
                game.skip_turn_of(victim)


#: the hooks of every game whose rule set names the variant "plain"
PLAIN = Plain()

"""Cards as small integers, with the notation of ``notation.md``.

A card is a :class:`Card`, an ``int`` subclass: ``suit * 13 + rank - 1`` for the 52 suited
cards and 52 for a joker. Both jokers of a 54-card deck are the same value (they are
interchangeable). Every card is interned, so ``Card.parse("6H") is Card.parse("6♥") is
Card(44)``; ``Card(n)`` takes only a whole number 0 … 52, so every ``Card`` is a real card.

Card text is the notation exactly: the ranks and suits of ``notation.md`` and the aliases it
lists, with ASCII letters in either case (:func:`ascii_upper`). No other character is read as
a rank or a suit: ``str.upper`` would turn ``ſ`` (Latin long s) into ``S``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Final

from .errors import CrazylabError, quote
from .views import html_of, svg_of

__all__ = ["CARDS", "JOKER", "RANKS", "SUITS", "SUIT_SYMBOLS", "Card", "CardError", "card", "cards",
           "parse_suit"]

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_NAMES_ONE = ("club", "diamond", "heart", "spade")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
JOKER_RANK = 14
JOKER_CODE: Final = 52
ACE, JACK, QUEEN, KING, EIGHT, TWO = 1, 11, 12, 13, 8, 2

_SUIT_ALIASES = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    **{s: i for i, s in enumerate("♧♢♡♤")},
}
_RANK_ALIASES = {**{r: i + 1 for i, r in enumerate(RANKS)}, "T": 10, "1": 1}
_JOKER_ALIASES = {"JK", "🃏", "JOKER"}


#: ASCII lower-case letters to upper case, and nothing else (``"ſ".upper()`` is ``"S"``)
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: the white space card, suit and move text may carry around it (ASCII only)
ASCII_SPACE = " \t\n\r\f\v"
_SEPARATORS = str.maketrans(",\t\n\r\f\v", "      ")


def ascii_upper(text: str) -> str:
    """``text`` with its ASCII letters in upper case and every other character as it is:
    ``ascii_upper("6h") == "6H"`` but ``ascii_upper("6ſ") == "6ſ"`` (not a spade)."""
    return text.translate(_ASCII_UPPER)


class CardError(CrazylabError):
    """A text that is not a card (``11H``, ``8X``, the empty string), or a card number that
    is not one (``Card(99)``)."""


_NOT_A_CARD = ("the card number {} is not a card (0 to 52): build cards with Card(n), "
               "Card.parse or crazylab.card")


class Card(int):
    """One playing card. ``str(card)`` is canonical (``10C``); ``card.display`` uses symbols.

    ``Card(n)`` is the card numbered ``n`` (0 … 51 the suited cards, 52 the joker), the
    interned one; anything else is a :class:`CardError`. Text is read by :meth:`parse`."""

    __slots__ = ()

    def __new__(cls, number: object) -> Card:
        """The interned card numbered ``number``; refuse anything that is not one."""
        if type(number) is Card and 0 <= number <= JOKER_CODE:
            return number
        if isinstance(number, str):
            raise CardError(f"Card() takes a card number from 0 to 52, not the text "
                            f"{quote(number)}: read card text with Card.parse({quote(number)}) "
                            "or crazylab.card()")
        try:
            value = None if isinstance(number, bool) else operator.index(number)  # type: ignore[arg-type]
        except TypeError:
            value = None
        if value is None or not 0 <= value <= JOKER_CODE:
            raise CardError(f"Card() takes a card number from 0 to 52 (suit * 13 + rank - 1, "
                            f"52 the joker), not {quote(number)}; read text with Card.parse")
        return CARDS[value]

    @property
    def rank(self) -> int:
        """1 (ace) … 13 (king); 14 for a joker."""
        return JOKER_RANK if self == JOKER_CODE else self % 13 + 1

    @property
    def suit(self) -> int | None:
        """0 … 3 for ♣ ♦ ♥ ♠; ``None`` for a joker."""
        return None if self == JOKER_CODE else self // 13

    @property
    def is_joker(self) -> bool:
        return self == JOKER_CODE

    @property
    def suit_letter(self) -> str | None:
        return None if self.suit is None else SUITS[self.suit]

    def __str__(self) -> str:
        if not 0 <= self <= JOKER_CODE:  # made past Card() (int.__new__), as a pickle could
            raise CardError(_NOT_A_CARD.format(int(self)))
        suit = self.suit
        return "JK" if suit is None else RANKS[self.rank - 1] + SUITS[suit]

    def __repr__(self) -> str:
        return f"Card('{self}')" if 0 <= self <= JOKER_CODE else f"<not a card: {int(self)}>"

    @property
    def display(self) -> str:
        """The display form with a suit symbol: ``6♥``, ``10♣``, ``🃏``."""
        suit = self.suit
        return "🃏" if suit is None else RANKS[self.rank - 1] + SUIT_SYMBOLS[suit]

    @property
    def name(self) -> str:
        """Words a learner reads: ``"six of hearts"``, ``"joker"``."""
        suit = self.suit
        if suit is None:
            return "joker"
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[suit]}"

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Parse ``6H``, ``6♥``, ``th``, ``JK``, ``🃏``…; raise :class:`CardError` otherwise."""
        if isinstance(text, Card):
            return Card(text)  # the interned card; one made past Card() is refused here
        if not isinstance(text, str):
            raise CardError(f"{quote(text)} is not a card: write cards like 6H, 10C or JK")
        key = text.strip(ASCII_SPACE)
        card = _PARSED.get(key) or _PARSED.get(ascii_upper(key))
        if card is None:
            raise CardError(
                f"{quote(text)} is not a card: write a rank (A 2-10 J Q K) then a suit "
                "(C D H S or ♣ ♦ ♥ ♠), like 6H or 10♣, or JK for a joker"
            )
        return card

    def _repr_html_(self) -> str | None:
        return html_of(self)

    def _repr_svg_(self) -> str | None:
        return svg_of(self)


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(53))
JOKER = CARDS[JOKER_CODE]


def _build_parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {alias: JOKER for alias in _JOKER_ALIASES}
    for rank_text, rank in _RANK_ALIASES.items():
        for suit_text, suit in _SUIT_ALIASES.items():
            table[ascii_upper(rank_text + suit_text)] = CARDS[suit * 13 + rank - 1]
    return table


_PARSED = _build_parse_table()


def card(text: str | Card) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(texts: str | Iterable[str | Card]) -> list[Card]:
    """Parse several cards: ``cards("6C KH 8S")`` or ``cards(["6C", "KH"])``."""
    if isinstance(texts, str):
        texts = texts.translate(_SEPARATORS).split(" ")  # ASCII white space and commas
        texts = [t for t in texts if t]
    elif isinstance(texts, (bytes, bytearray, dict)) or not hasattr(texts, "__iter__"):
        raise CardError(f"cards() takes a text like '6C KH 8S' or a list of cards, not "
                        f"{quote(texts)}")
    return [Card.parse(t) for t in texts]


def parse_suit(text: str) -> int:
    """``D``, ``♦``, ``♢`` or ``diamonds`` → 1 (ASCII letters in either case)."""
    if not isinstance(text, str):
        raise CardError(f"{quote(text)} is not a suit: use C, D, H or S (♣ ♦ ♥ ♠)")
    key = text.strip(ASCII_SPACE)
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    key = ascii_upper(key)
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    for i, name in enumerate(SUIT_NAMES):
        if key in (name.upper(), SUIT_NAMES_ONE[i].upper()):
            return i
    raise CardError(f"{quote(text)} is not a suit: use C, D, H or S (♣ ♦ ♥ ♠)")


def sort_key(c: Card) -> tuple[int, int]:
    """Order a hand by suit, then rank; jokers last."""
    suit = c.suit
    return (4, 0) if suit is None else (suit, c.rank)


def display(cs: Iterable[Card]) -> str:
    """``6♣ K♥ 8♠``."""
    return " ".join(c.display for c in cs)

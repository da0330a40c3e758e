"""The pitch model of the musical Crazy 8s deck (rulings MU-D1…D6).

Pitch classes count semitones from C (C = 0 … B = 11). The rank → pitch map is a
replaceable table (option ``pitch_map``): ``A_based`` (the default, derived in rulings §4.0),
``C_based``, or any table added with :func:`register_pitch_map`. Eights and jokers have no
pitch. ♦ and ♣ cards are spelled with sharps, ♥ and ♠ cards with flats (MU-Q32).

Intervals are modular (MU-28): ``interval(a, b)`` is the number of semitones *up* from ``a``
to ``b``, 0 … 11, so "down a minor third" is ``9``. :func:`describe_interval` says it the way a
learner hears it ("a minor third down"), :func:`describe_intervals` names a level's whole set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cards import ASCII_SPACE, CARDS, Card, ascii_upper
from .errors import CrazylabError, Given, quote

__all__ = ["LETTERS", "PITCH_MAPS", "PITCH_NAMES", "PitchError", "parse_letter", "parse_pitch",
           "register_pitch_map"]

PITCH_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
FLAT_NAMES = ("C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B")
LETTERS = "ABCDEFG"
#: semitone of each natural letter
LETTER_PITCH = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}

#: rank (1 … 13) → pitch class; 8 is absent (wild). A table may also be keyed by
#: ``(rank, suit)`` (suit 0 … 3 for C D H S) where the suits of one rank differ.
PITCH_MAPS: dict[str, Mapping[int | tuple[int, int], int]] = {
    "A_based": {1: 9, 2: 11, 3: 0, 4: 2, 5: 4, 6: 5, 7: 7, 9: 10, 10: 1, 11: 3, 12: 6, 13: 8},
    "C_based": {1: 0, 2: 2, 3: 4, 4: 5, 5: 7, 6: 9, 7: 11, 9: 1, 10: 3, 11: 6, 12: 8, 13: 10},
}

INTERVAL_NAMES = {
    0: "unison",
    1: "minor second (a semitone)",
    2: "major second (a whole tone)",
    3: "minor third",
    4: "major third",
    5: "perfect fourth",
    6: "tritone",
    7: "perfect fifth",
    8: "minor sixth",
    9: "major sixth",
    10: "minor seventh",
    11: "major seventh",
}

#: the short name of a step of 1 … 7 semitones, as a learner says it
STEP_NAMES = {1: "semitone", 2: "whole tone", 3: "minor third", 4: "major third",
              5: "perfect fourth", 6: "tritone", 7: "perfect fifth"}


class PitchError(CrazylabError):
    """A text that is not a pitch class (``H``, ``C##``)."""


def parse_pitch(text: Given) -> int:
    """``C#``, ``Db``, ``C♯``, ``D♭``, ``Cb``, ``E#`` … → pitch class 0 … 11 (the letter in
    either case; no other character is read as a letter)."""
    if not isinstance(text, str):
        raise PitchError(f"{quote(text)} is not a pitch: use C C# D D# E F F# G G# A A# B "
                         "(or flats)")
    t = text.strip(ASCII_SPACE).replace("♯", "#").replace("♭", "b")
    letter = ascii_upper(t[:1])
    if letter not in LETTER_PITCH:
        raise PitchError(f"{quote(text)} is not a pitch: use C C# D D# E F F# G G# A A# B "
                         "(or flats)")
    pc = LETTER_PITCH[letter]
    if len(t) > 2:
        raise PitchError(f"{quote(text)} is not a pitch: one sharp or flat at most")
    for accidental in t[1:]:
        if accidental == "#":
            pc += 1
        elif accidental == "b":
            pc -= 1
        else:
            raise PitchError(f"{quote(text)} is not a pitch: use C C# D D# E F F# G G# A A# B")
    return pc % 12


def parse_letter(text: Given) -> int:
    """A musical-alphabet letter ``A`` … ``G`` (either case) → 0 … 6 (Level 1 calls)."""
    t = ascii_upper(text.strip(ASCII_SPACE)) if isinstance(text, str) else ""
    if len(t) != 1 or t not in LETTERS:
        raise PitchError(f"{quote(text)} is not a letter of the musical alphabet A B C D E F G")
    return LETTERS.index(t)


def pitch_name(pc: int, flat: bool = False) -> str:
    return (FLAT_NAMES if flat else PITCH_NAMES)[pc % 12]


def pretty(name: str) -> str:
    """``C#`` → ``C♯``, ``Db`` → ``D♭`` (display form)."""
    return name[:1] + name[1:].replace("#", "♯").replace("b", "♭")


def card_pitch_name(pc: int, card: Card | None = None) -> str:
    """Pitch class ``pc`` in display form as ``card`` spells it: ♦ and ♣ cards with sharps,
    ♥ and ♠ cards with flats (MU-Q32, as the lessons spell them); with no card (a pitch a
    wild announced) with a sharp."""
    return pretty(pitch_name(pc, flat=card is not None and card.suit in (2, 3)))


def both_names(pc: int) -> str:
    """Both spellings of a black key, one of a white key: ``C♯/D♭``, ``E``."""
    sharp, flat = PITCH_NAMES[pc % 12], FLAT_NAMES[pc % 12]
    return pretty(sharp) if sharp == flat else f"{pretty(sharp)}/{pretty(flat)}"


def is_black(pc: int) -> bool:
    """Whether pitch class ``pc`` is a black key of the piano."""
    return PITCH_NAMES[pc % 12].endswith("#")


def interval(from_pc: int, to_pc: int) -> int:
    """Semitones up from ``from_pc`` to ``to_pc``, modulo 12."""
    return (to_pc - from_pc) % 12


def interval_name(semitones: int) -> str:
    """``7`` → ``"perfect fifth"``; intervals are modular, so down a fourth is up a fifth."""
    return INTERVAL_NAMES[semitones % 12]


def describe_interval(semitones: int) -> str:
    """A modular interval as a learner hears it: ``4`` → ``"a major third up"``, ``9`` →
    ``"a minor third down"``, ``7`` → ``"a perfect fifth up (or a fourth down)"``."""
    iv = semitones % 12
    if iv == 0:
        return "the same pitch (a unison)"
    if iv == 6:
        return "a tritone (up or down)"
    if iv == 5:
        return "a perfect fourth up (or a fifth down)"
    if iv == 7:
        return "a perfect fifth up (or a fourth down)"
    return f"a {STEP_NAMES[iv]} up" if iv < 6 else f"a {STEP_NAMES[12 - iv]} down"


def describe_intervals(intervals: Iterable[int]) -> str:
    """A set of allowed modular intervals in words: ``(1, 11)`` → ``"a semitone up or
    down"``, ``(3, 4, 8, 9)`` → ``"a minor or major third, up or down"``, ``(2,)`` →
    ``"a whole tone up (and only up)"``, ``(5, 7)`` → ``"a perfect fourth or fifth, up or
    down"``."""
    allowed = {i % 12 for i in intervals}
    groups: dict[str, list[str]] = {}
    for k in range(1, 7):
        up, down = k in allowed, (12 - k) % 12 in allowed
        if not (up or down):
            continue
        name = STEP_NAMES[k]
        if k == 5 and up and down:
            name = "perfect fourth or fifth"
        if (up and down) or k == 6:
            way = "up or down"
        else:
            way = "up (and only up)" if up else "down (and only down)"
        groups.setdefault(way, []).append(name)
    parts = []
    for way, names in groups.items():
        lasts = {n.rsplit(" ", 1)[-1] for n in names}
        if len(names) > 1 and len(lasts) == 1 and all(" " in n for n in names):
            joined = " or ".join(n.rsplit(" ", 1)[0] for n in names) + " " + lasts.pop()
        else:
            joined = " or ".join(names)
        sep = ", " if len(names) > 1 or " or " in joined else " "
        parts.append(f"a {joined}{sep}{way}")
    if 0 in allowed:
        parts.append("the same pitch")
    return "; or ".join(parts) if parts else "nothing"


def describe_letter_step(from_letter: int, to_letter: int) -> str:
    """Letter steps in the looping alphabet A … G: ``"one letter step up"``, …"""
    d = (to_letter - from_letter) % 7
    if d == 0:
        return "the same letter"
    if d <= 3:
        return f"{_count(d)} letter step{'s' * (d > 1)} up"
    return f"{_count(7 - d)} letter step{'s' * (7 - d > 1)} down"


def _count(k: int) -> str:
    return ("one", "two", "three")[k - 1]


def midi_note(pc: int, octave: int = 4) -> int:
    """The MIDI key number of pitch class ``pc`` in scientific ``octave`` (C4 = 60)."""
    return 12 * (octave + 1) + pc % 12


def frequency(midi: float) -> float:
    """Equal temperament, A4 = 440 Hz."""
    return 440.0 * 2.0 ** ((midi - 69) / 12)


def register_pitch_map(name: Given, table: Given) -> None:
    """Add a rank → pitch table under ``name`` (usable as the ``pitch_map`` option): keys are
    ranks 1 … 13 other than 8, or ``(rank, suit)`` pairs; values are pitch classes 0 … 11.
    Anything else is a :class:`PitchError` naming it, and nothing is registered."""
    if not isinstance(name, str) or not 0 < len(name) <= 40:
        raise PitchError(f"a pitch map's name is a text of 1 to 40 characters, not {quote(name)}")
    if not isinstance(table, Mapping) or len(table) > 13 * 4:
        raise PitchError(f"pitch_map {quote(name)}: the table maps ranks 1-13 (other than 8) to "
                         f"pitch classes 0-11, like {{1: 9, 2: 11}}, not {quote(table)}")
    clean: dict[int | tuple[int, int], int] = {}
    for key, pc in table.items():
        rank = key[0] if isinstance(key, tuple) and key else key
        if type(rank) is not int or rank not in range(1, 14) or rank == 8:
            raise PitchError(f"pitch_map {quote(name)}: {quote(key)} is not a rank 1-13 other "
                             "than 8")
        if isinstance(key, tuple) and (len(key) != 2 or type(key[1]) is not int
                                       or key[1] not in range(4)):
            raise PitchError(f"pitch_map {quote(name)}: {quote(key)} is not a (rank, suit 0-3) "
                             "pair")
        if type(pc) is not int or pc not in range(12):
            raise PitchError(f"pitch_map {quote(name)}: pitch {quote(pc)} is not 0-11")
        clean[key] = pc
    PITCH_MAPS[name] = clean


class PitchMap:
    """A rank → pitch table; ``pitch(card)`` is ``None`` for eights and jokers."""

    def __init__(self, name: str = "A_based") -> None:
        if name not in PITCH_MAPS:
            raise ValueError(f"pitch_map must be one of {sorted(PITCH_MAPS)}, not {name!r}")
        self.name = name
        table = PITCH_MAPS[name]
        self._pitch: list[int | None] = []
        for c in CARDS:
            suit = c.suit
            if suit is None:
                self._pitch.append(None)
            else:
                self._pitch.append(table.get((c.rank, suit), table.get(c.rank)))

    def pitch(self, c: Card) -> int | None:
        return self._pitch[c]

    def letter(self, c: Card) -> int | None:
        """0 … 6 for A … G if the card is a natural note, else ``None``."""
        pc = self._pitch[c]
        if pc is None or is_black(pc):
            return None
        return LETTERS.index(PITCH_NAMES[pc])

    def spelling(self, c: Card) -> str:
        """The note printed on the card: sharps on ♦ ♣, flats on ♥ ♠ (``C#`` / ``Db``)."""
        pc = self._pitch[c]
        if pc is None:
            return ""
        return pitch_name(pc, flat=c.suit in (2, 3))

    def spell(self, pc: int, card: Card | None = None) -> str:
        """Pitch class ``pc`` as a learner reads it beside ``card`` (display form): spelt as
        the card spells it when the card sounds it (``F♯`` for Q♦, ``G♭`` for Q♠), else (an
        announced pitch, a wild's) with a sharp, as a call is stored (MU-Q32)."""
        return card_pitch_name(pc, card if card is not None and self._pitch[card] == pc % 12
                               else None)

    def cards_of(self, pc: int) -> tuple[Card, ...]:
        """Every card (of a full deck) that sounds pitch class ``pc``."""
        return tuple(c for c in CARDS if self._pitch[c] == pc % 12)


"""The pitch model of the musical Crazy 8s deck (rulings MU-D1…D6).

Pitch classes count semitones from C (C = 0 … B = 11). The rank → pitch map is a
replaceable table (option ``pitch_map``): ``A_based`` (the default, derived in rulings §4.0)
or ``C_based``. Eights and jokers have no pitch. ♦ and ♣ cards are spelled with sharps,
♥ and ♠ cards with flats.
"""

from __future__ import annotations

from .cards import Card

PITCH_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
FLAT_NAMES = ("C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B")
LETTERS = "ABCDEFG"
#: semitone of each natural letter
LETTER_PITCH = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}

#: rank (1 … 13) → pitch class; 8 is absent (wild)
PITCH_MAPS: dict[str, dict[int, int]] = {
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


class PitchError(ValueError):
    """A text that is not a pitch class (``H``, ``C##``)."""


def parse_pitch(text: str) -> int:
    """``C#``, ``Db``, ``C♯``, ``D♭``, ``Cb``, ``E#`` … → pitch class 0 … 11."""
    t = text.strip().replace("♯", "#").replace("♭", "b")
    if not t or t[0].upper() not in LETTER_PITCH:
        raise PitchError(f"{text!r} is not a pitch: use C C# D D# E F F# G G# A A# B (or flats)")
    pc = LETTER_PITCH[t[0].upper()]
    for accidental in t[1:]:
        if accidental == "#":
            pc += 1
        elif accidental == "b":
            pc -= 1
        else:
            raise PitchError(f"{text!r} is not a pitch: use C C# D D# E F F# G G# A A# B")
    if len(t) > 2:
        raise PitchError(f"{text!r} is not a pitch: one sharp or flat at most")
    return pc % 12


def parse_letter(text: str) -> int:
    """A musical-alphabet letter ``A`` … ``G`` → 0 … 6 (Level 1 calls)."""
    t = text.strip().upper()
    if len(t) != 1 or t not in LETTERS:
        raise PitchError(f"{text!r} is not a letter of the musical alphabet A B C D E F G")
    return LETTERS.index(t)


def pitch_name(pc: int, flat: bool = False) -> str:
    return (FLAT_NAMES if flat else PITCH_NAMES)[pc % 12]


def interval(from_pc: int, to_pc: int) -> int:
    """Semitones up from ``from_pc`` to ``to_pc``, modulo 12."""
    return (to_pc - from_pc) % 12


def interval_name(semitones: int) -> str:
    """``7`` → ``"perfect fifth"``; intervals are modular, so down a fourth is up a fifth."""
    return INTERVAL_NAMES[semitones % 12]


class PitchMap:
    """A rank → pitch table; ``pitch(card)`` is ``None`` for eights and jokers."""

    def __init__(self, name: str = "A_based") -> None:
        if name not in PITCH_MAPS:
            raise ValueError(f"pitch_map must be one of {sorted(PITCH_MAPS)}, not {name!r}")
        self.name = name
        self._by_rank = PITCH_MAPS[name]
        self._pitch = [self._by_rank.get(c.rank) if not c.is_joker else None for c in _ALL]
        naturals = sorted((r for r, pc in self._by_rank.items() if PITCH_NAMES[pc][-1] != "#"))
        self.natural_ranks = tuple(naturals)

    def pitch(self, c: Card) -> int | None:
        return self._pitch[c]

    def letter(self, c: Card) -> int | None:
        """0 … 6 for A … G if the card is a natural note, else ``None``."""
        pc = self._pitch[c]
        if pc is None or PITCH_NAMES[pc].endswith("#"):
            return None
        return LETTERS.index(PITCH_NAMES[pc])

    def spelling(self, c: Card) -> str:
        """The note printed on the card: sharps on ♦ ♣, flats on ♥ ♠ (``C#`` / ``Db``)."""
        pc = self._pitch[c]
        if pc is None:
            return ""
        return pitch_name(pc, flat=c.suit in (2, 3))


_ALL = tuple(Card(i) for i in range(53))
DEFAULT_PITCH_MAP = PitchMap("A_based")

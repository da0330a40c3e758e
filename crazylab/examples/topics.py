"""The worked examples' topics, per family of rule sets: how the explainer's list groups
the example files (by a pattern on each file's name and title). Content of the examples
collection, kept beside its files."""

from __future__ import annotations

__all__ = ["MATCH_ORDER", "TOPICS"]

_EIGHTS = [("Dealing and playing a turn", r"deal|turn|legal|one-card"),
           ("Drawing and reshuffling", r"draw|reshuffle|quick-rule"),
           ("The end of a hand, scoring and matches", r"scor|going-out|blocked|match")]
#: per family: (topic, pattern on "name title"), in the order the list shows them; an example
#: takes the first topic of ``MATCH_ORDER`` whose pattern it matches
TOPICS: dict[str, list[tuple[str, str]]] = {
    "Crazy Eights": _EIGHTS,
    "Classic and quick Crazy Eights": _EIGHTS,
    "Crazy Breens": [
        ("Turns, eights and going out", r"compulsory|draw-until|eight-wild|going-out"),
        ("2s and Jokers: draw hits", r"twos|joker|wrap"),
        ("Aces: skips", r"\baces?\b"),
        ("Jacks: counters", r"counter"),
        ("Kings: deck plays", r"\bkings?\b"),
        ("Queens: drops", r"\bqueens?\b"),
        ("Starter cards", r"starter|initial"),
    ],
    "Musical Crazy 8s": [
        ("The main game", r"crazy-8s-music"),
        ("Levels 1 to 5", r"crazy-8s-level"),
        ("Scoring and the end of a hand", r"scoring|blocked|last-card"),
    ],
}
MATCH_ORDER = {
    "Crazy Eights": [_EIGHTS[2][0], _EIGHTS[1][0], _EIGHTS[0][0]],
    "Classic and quick Crazy Eights": [_EIGHTS[2][0], _EIGHTS[1][0], _EIGHTS[0][0]],
    "Crazy Breens": ["Starter cards", "Kings: deck plays", "Queens: drops", "Jacks: counters",
                     "Turns, eights and going out", "Aces: skips", "2s and Jokers: draw hits"],
    "Musical Crazy 8s": ["Scoring and the end of a hand", "Levels 1 to 5", "The main game"],
}

"""A printable one-page rules sheet for any rule set, written from the rule set itself, so it
follows every option: ``rules_sheet(rules("crazy-eights", voluntary_draw=False))`` says that
you must play when you can.

>>> from crazylab import rules
>>> print(rules_sheet(rules("crazy-eights-quick")).splitlines()[0])
# crazy-eights-quick: rules sheet

The sheet is Markdown (headings, short lists and one table), one page when printed. It reads
only the public fields of :class:`~crazylab.engine.rules.RuleSet` (through ``getattr``, so a
renamed option shows its default wording rather than failing).
"""

from __future__ import annotations

import html
import re
from typing import Any

from .engine.options import FIELDS
from .engine.pitch import both_names, describe_intervals
from .engine.rules import PRESETS, RuleSet

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
INTERVAL_NAMES = {1: "a semitone", 2: "a whole tone", 3: "a minor third", 4: "a major third",
                  5: "a perfect fourth", 6: "a tritone", 7: "a perfect fifth",
                  8: "a minor sixth", 9: "a major sixth", 10: "a minor seventh",
                  11: "a major seventh"}


# The rulings' option names, tried when the engine's own name is missing (the engine may
# rename an option to the rulings' name and keep the old one as an alias, or the reverse).
ALIASES = {"jokers": ("num_jokers",), "hand_size_2p": ("hand_size_by_players",)}


def _get(rs: RuleSet, name: str, default: Any = None) -> Any:
    for candidate in (name, *ALIASES.get(name, ())):
        if hasattr(rs, candidate):
            value = getattr(rs, candidate)
            if candidate == "hand_size_by_players" and isinstance(value, dict):
                return value.get(2) if value.get(2) != value.get(3) else None
            return value
    return default


def _players(rs: RuleSet) -> str:
    lo, hi = _get(rs, "min_players", 2), _get(rs, "max_players", 4)
    return f"{lo}–{hi} players"


def _deck(rs: RuleSet) -> str:
    jokers = _get(rs, "jokers", 0)
    removed = _get(rs, "removed_ranks", ())
    text = f"{rs.deck_size} cards: "
    text += "the standard deck" if not removed else (
        "the standard deck without " + ", ".join(RANKS[r - 1] for r in sorted(removed)))
    if jokers:
        text += f" and {jokers} joker{'s' if jokers > 1 else ''}"
    else:
        text += ", no jokers"
    return text + "."


_COUNT_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten")


def _hand_sizes(rs: RuleSet) -> str:
    """``Deal 5 cards each (7 each with two players)``, from the cards each table size gets
    (``hand_size``, ``hand_size_2p``, ``hand_size_by_players``)."""
    size = _get(rs, "hand_size", 5)
    counts = range(_get(rs, "min_players", 2), _get(rs, "max_players", 4) + 1)
    if not hasattr(rs, "hand_size_for"):  # an engine without it: the old fields
        two = _get(rs, "hand_size_2p")
        return f"Deal {size} cards each" + (f" ({two} each with two players)" if two else "")
    sizes = {n: rs.hand_size_for(n) for n in counts}
    other = [f"{k} each with {_COUNT_WORDS[n] if n < len(_COUNT_WORDS) else n} players"
             for n, k in sizes.items() if k != size]
    if len(other) == len(sizes):  # no table size gets hand_size
        return "Deal cards: " + "; ".join(other)
    return f"Deal {size} cards each" + (f" ({'; '.join(other)})" if other else "")


def _deal(rs: RuleSet) -> str:
    text = _hand_sizes(rs)
    piles = _get(rs, "piles", 1)
    if piles > 1:
        text += f"; turn up {piles} starters, one per discard pile"
    else:
        text += "; turn up the top card of the stock as the starter"
    starter = []
    eight, joker = _get(rs, "starter_eight", "rebury"), _get(rs, "starter_joker", "rebury")
    wild_word = "an 8 or a joker" if _get(rs, "jokers", 0) else "an 8"
    if eight == "rebury" and (joker == "rebury" or not _get(rs, "jokers", 0)):
        starter.append(f"a starter that is {wild_word} is buried in the stock and replaced")
    else:
        if eight == "rebury":
            starter.append("a starter 8 is buried and replaced")
        elif eight == "keep":
            starter.append("a starter 8 stays, with its own suit")
        elif eight == "dealer_declares":
            starter.append("a starter 8 is the dealer's: the dealer calls the suit")
        if _get(rs, "jokers", 0):
            starter.append("a starter joker is buried and replaced" if joker == "rebury" else
                           "a starter joker is the dealer's play: the dealer calls, and the "
                           "first player is hit")
    if _get(rs, "specials", False):
        starter.append("the starter counts as the dealer's play: its effect applies")
    return text + (". " + "; ".join(starter).capitalize() if starter else "") + "."


def _match(rs: RuleSet) -> list[str]:
    matching = _get(rs, "matching", "suit_rank")
    jokers = _get(rs, "jokers", 0)
    wild = "an 8" + (" or a joker" if jokers else "")
    lines = []
    if matching == "suit_rank":
        lines.append(f"Play a card of the same **suit** or the same **rank** as the top card, "
                     f"or {wild} (wild) at any time.")
    elif matching == "suit_pitch":
        lines.append(f"Play a card of the same **suit** or the same **pitch** as the top card "
                     f"(the same rank sounds the same pitch in every suit), or {wild} (wild).")
    elif matching == "letter_step":
        same = ("a card of the same letter fits too"
                if _get(rs, "allow_unison_in_levels", False) else "the same letter does not fit")
        lines.append("Play a card **one letter step** up or down from the top card in "
                     "A B C D E F G (which loops: on A, G or B), or a wild. Suits do not count; "
                     f"{same}.")
    else:
        steps = sorted(set(_get(rs, "intervals", ())))
        ups = [i for i in steps if i <= 7]
        if len(steps) == 1 or any(12 - i not in steps for i in steps):
            words = ", ".join(f"{INTERVAL_NAMES[i]} up ({i} semitones)" for i in steps)
        else:
            words = " or ".join(f"{INTERVAL_NAMES[i]}" for i in ups) + " up or down"
        unison = ("a card of the top card's own pitch (a unison) fits too"
                  if _get(rs, "allow_unison_in_levels", False)
                  else "the same pitch (a unison) does not fit")
        lines.append(f"Play a card **{words}** from a top card's pitch, or a wild. Suits do "
                     f"not count; {unison}.")
    piles = _get(rs, "piles", 1)
    if piles > 1:
        lines.append(f"There are {piles} discard piles: a card may go on any pile it fits.")
    eights = _get(rs, "eights", "call")
    kind = rs.call_kind
    if eights == "own_suit":
        lines.append("An 8 takes its **own** suit (no call)"
                     + ("; a joker **calls** a suit" if jokers else "") + ".")
    else:
        what = {"suit": "a suit", "letter": "a letter A–G", "pitch": "one of the 12 pitches"}[kind]
        lines.append(f"Whoever plays {wild} **calls** {what}; " + _after_call(rs, kind)
                     + " A wild as the last card needs no call.")
    return lines


def _after_call(rs: RuleSet, kind: str) -> str:
    """What the card after a wild must be. A called suit is followed; in the levels a called
    letter or pitch is the pile's new reference, and the card played on it must be a step of
    the level's interval from it (the called pitch itself is a unison: it does not fit)."""
    if kind == "suit":
        return "the next card must follow the call (or be wild)."
    unison = _get(rs, "allow_unison_in_levels", False)
    if kind == "letter":
        step = "one letter step up or down from that letter"
        same = "the same letter fits too" if unison else "the called letter itself does not fit"
        noun = "letter"
    else:
        step = describe_intervals(i for i in _get(rs, "intervals", ()) if i % 12)
        step = f"{step.replace(', up or down', ' up or down')} from that pitch"
        same = ("the called pitch fits too (a unison)" if unison
                else "the called pitch itself is a unison and does not fit")
        noun = "pitch"
    return (f"the called {noun} becomes that pile's top: the next card there must be {step} "
            f"(or be wild); {same}.")


def _turn(rs: RuleSet) -> list[str]:
    lines = []
    if _get(rs, "chain", False):
        where = ("each on a pile whose top card it fits" if _get(rs, "piles", 1) > 1
                 else "each on the last")
        lines.append(f"A turn is a **chain**: play fitting cards one at a time, {where}, "
                     "and say *end* when you stop.")
    elif _get(rs, "stacking", False):
        lines.append("You may play **several cards of one rank** together; the first must fit, "
                     "the last is the new top card.")
    else:
        lines.append("Play **one** card per turn.")
    rule, limit = _get(rs, "draw_rule", "until_playable"), _get(rs, "draw_limit", 3)
    voluntary = _get(rs, "voluntary_draw", False)
    optional = _get(rs, "optional_play", False)
    if rule == "fixed":
        first = _get(rs, "post_draw_first_card", "drawn_only")
        lines.append("If you play no card" + (" (playing is optional)" if optional else "")
                     + f", **draw {limit}**; then you may play"
                     + (" one of the drawn cards first" if first == "drawn_only" else " any card")
                     + " and go on.")
    elif rule == "until_playable":
        lines.append("If nothing fits, **draw until** a card fits, then play it.")
    elif rule == "up_to_n":
        lines.append(f"If nothing fits, draw **up to {limit}** cards, stopping at the first that "
                     "fits (play it); if none fits, pass.")
    else:
        lines.append("If nothing fits, draw **one** card; play it if it fits, or pass.")
    if rule != "fixed":
        lines.append("You may also draw while a card fits (**voluntary draw**)." if voluntary
                     else "You **must** play when you can: no drawing while a card fits.")
    reshuffle = _get(rs, "reshuffle", "never")
    if reshuffle == "never":
        lines.append("The discards are **never** reshuffled: with an empty stock and nothing to "
                     "play, pass.")
    elif reshuffle == "limited":
        lines.append(f"When the stock runs out, shuffle the discards (all but the top card) into "
                     f"a new stock, at most **{_get(rs, 'max_reshuffles', 3)} times** a hand.")
    else:
        lines.append("When the stock runs out, shuffle the discards (all but the top card of "
                     "each pile) into a new stock, as often as needed.")
    return lines


def _specials(rs: RuleSet) -> list[str]:
    if not _get(rs, "specials", False):
        if _get(rs, "chain", False) and _get(rs, "jokers", 0):
            skip = " and loses a turn" if _get(rs, "joker_victim_skips", False) else ""
            return [f"A **joker** makes the next player draw {_get(rs, 'joker_draw', 2)} at "
                    f"once{skip}; you keep the turn."]
        return []
    draw = _get(rs, "joker_draw", 4)
    counter = _get(rs, "mid_draw_counter", "first_card")
    rows = [
        ("8", "wild: call a suit"),
        ("Joker", f"wild: call a suit; the next player draws {draw} and loses the turn"),
        ("2", "the next player draws 2 and loses the turn"),
        ("A", "the next player is skipped"),
        ("K", "the top card of the stock is turned up as your play; a King turned up turns "
              "again"),
        ("Q", "you may drop any one card; its effect is yours"),
        ("J", "counters a 2, an Ace" + (" or a joker" if _get(rs, "jack_counters_joker", True)
                                        else "") + " aimed at you"
              + {"first_card": ", also as the first penalty card drawn",
                 "any_card": ", also as any penalty card drawn", "off": ""}.get(counter, "")),
    ]
    lines = ["| card | effect |", "|---|---|"] + [f"| {c} | {e} |" for c, e in rows]
    target = _get(rs, "stack_targeting", "distributed")
    lines.append("")
    lines.append("Each 2, Ace or joker in a stack is one hit; "
                 + ("the hits go to the opponents in turn." if target == "distributed"
                    else "all the hits go to the next player.")
                 + " A stack of Kings or Queens acts once.")
    return lines


def _end(rs: RuleSet) -> list[str]:
    lines = ["The first player with no cards wins" + (" the hand." if _get(rs, "scoring") !=
                                                      "none" else " the round.")]
    scoring = _get(rs, "scoring", "winner_collects")
    if scoring == "winner_collects":
        house = sorted(dict(_get(rs, "card_values", ())).items())
        lines.append("The winner scores the cards left in the other hands: 8 = 50; K, Q, J, 10 "
                     "= 10; A = 1; 2–7 and 9 face value"
                     + (f"; joker = {_get(rs, 'joker_points', 50)}" if _get(rs, "jokers", 0)
                        else "")
                     + ("; but " + ", ".join(f"**{RANKS[r - 1]} = {v}**" for r, v in house)
                        if house else "") + ".")
    elif scoring == "minus_one_per_card":
        lines.append("Scoring: every card left in a hand counts −1; the winner scores 0.")
    else:
        lines.append("No points are kept.")
    target = _get(rs, "match_target")
    if target:
        lines.append(f"A **match** goes on until someone reaches **{target}** points after a "
                     "hand.")
    blocked = _get(rs, "blocked_rule", "void_redeal")
    if blocked == "void_redeal":
        lines.append("**Blocked** (everyone passes in a row): the hand is void, nobody scores, "
                     + ("the same dealer deals again." if _get(rs, "void_hand_dealer", "same")
                        == "same" else "the deal moves on."))
    elif blocked == "lowest_points_wins":
        how = {"difference": "the difference to each opponent's points",
               "opponents_total": "the opponents' points",
               "none": "nothing"}.get(_get(rs, "blocked_scoring", "difference"), "")
        lines.append(f"**Blocked**: the fewest points in hand wins and scores {how}.")
    else:
        lines.append("**Blocked**: the fewest cards wins (ties share).")
    return lines


def house_options(rs: RuleSet) -> dict[str, object]:
    """The options of ``rs`` that differ from the preset it is named after (its house rules),
    in the order of the option schema; ``{}`` for a preset itself or a rule set of its own
    name."""
    base = PRESETS.get(rs.name)
    if base is None or base is rs:
        return {}
    return {name: getattr(rs, name) for name in FIELDS
            if hasattr(rs, name) and getattr(rs, name) != getattr(base, name, None)}


def _label(name: str) -> str:
    return name.replace("_", " ")


def _rank(key: object) -> str:
    return RANKS[key - 1] if isinstance(key, int) and 1 <= key <= 13 else str(key)


def option_words(name: str, value: object) -> str:
    """An option's value in words: ``True`` → ``yes``, ``((8, 20),)`` → ``8 = 20``,
    ``"until_playable"`` → ``until playable``; never a Python tuple."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        if not value:
            return "the classic values" if name == "card_values" else "none"
        if isinstance(value[0], tuple):
            if name == "card_values":
                return ", ".join(f"{_rank(k)} = {v}" for k, v in value)
            if name == "hand_size_by_players":
                return ", ".join(f"{v} cards with {k} players" for k, v in value)
            return ", ".join(f"{k}: " + re.sub(r"draw(\d+)", r"draw \1",
                                                str(v).replace("+", " and ")) for k, v in value)
        if name == "removed_ranks":
            return ", ".join(_rank(v) for v in value)
        return ", ".join(str(v) for v in value)
    return str(value).replace("_", " ")


def _short(name: str, value: object) -> str:
    """``draw limit 2``, ``voluntary draw: no``: one house option for a title."""
    words = option_words(name, value)
    if isinstance(value, bool) or value is None or isinstance(value, tuple):
        return f"{_label(name)}: {words}"
    return f"{_label(name)} {words}"


def variant_name(rs: RuleSet) -> str:
    """The name of a rule set as people read it: the preset's name, and for a variant made
    with house rules ``crazy-eights-quick + house rules: draw limit 2``."""
    house = house_options(rs)
    if not house:
        return rs.name
    return f"{rs.name} + house rules: " + "; ".join(_short(n, v) for n, v in house.items())


def _py_value(value: object) -> str:
    """A value as Python source a reader can copy (maps as dicts, lists as lists)."""
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in value) + "}"
        return "[" + ", ".join(repr(v) for v in value) + "]"
    return repr(value)


def _house(rs: RuleSet) -> list[str]:
    """The house rules section: each changed option in words, what the preset had, and
    what the option does (from the option schema)."""
    house = house_options(rs)
    if not house:
        return []
    base = PRESETS[rs.name]
    lines = [f"**House rules** (changed from the {rs.name} preset).", ""]
    for name, value in house.items():
        option = FIELDS[name]
        doc = re.sub(r"\b[a-z]+(?:_[a-z0-9]+)+\b", lambda m: _label(m.group(0)), option.doc)
        lines.append(f"* **{_label(name).capitalize()}: {option_words(name, value)}** (the "
                     f"preset: {option_words(name, getattr(base, name))}). {doc}")
    code = ", ".join(f"{n}={_py_value(v)}" for n, v in house.items())
    lines += ["", f"In Python: `crazylab.rules(\"{rs.name}\", {code})`", ""]
    return lines


def rules_sheet(rs: RuleSet) -> str:
    """The one-page rules sheet of ``rs`` as Markdown."""
    house = _house(rs)
    out = [f"# {rs.name}{' + house rules' if house else ''}: rules sheet", ""]
    if rs.description:
        base = PRESETS.get(rs.name)
        if house and base is not None and rs.description == base.description:
            out += [f"*The preset: {rs.description}* (the house rules below change it)", ""]
        else:
            out += [f"*{rs.description}*", ""]
    out += house
    out += ["**Setup.** " + _players(rs) + ". " + _deck(rs) + " " + _deal(rs)
            + " The player left of the dealer starts; play goes clockwise.", ""]
    out += ["**What fits.**", ""] + [f"* {line}" for line in _match(rs)] + [""]
    out += ["**Your turn.**", ""] + [f"* {line}" for line in _turn(rs)] + [""]
    special = _specials(rs)
    if special:
        out += ["**Special cards.**", ""]
        out += special if special[0].startswith("|") else [f"* {line}" for line in special]
        out += [""]
    out += ["**The end.**", ""] + [f"* {line}" for line in _end(rs)]
    if rs.call_kind == "pitch":
        out += ["", "Pitches: " + ", ".join(both_names(pc) for pc in range(12))
                + " (♦ and ♣ cards are named with sharps, ♥ and ♠ cards with flats)."]
    return "\n".join(out) + "\n"


def markdown_html(text: str) -> str:
    """A rules sheet's Markdown as HTML: the few forms :func:`rules_sheet` writes (``#``
    headings, paragraphs, ``*`` lists, one table, ``**bold**``, ``*italic*``, code in backquotes),
    with every character of the text escaped. (No Markdown library: the sheet is shown where
    only the standard library is sure to be, such as the site's browser Python.)"""
    out: list[str] = []
    para: list[str] = []
    block: list[str] = []
    kind = ""

    def close() -> None:
        nonlocal kind
        if para:
            out.append(f"<p>{' '.join(_inline(t) for t in para)}</p>")
            para.clear()
        if kind == "ul":
            out.append("<ul>" + "".join(f"<li>{_inline(t)}</li>" for t in block) + "</ul>")
        elif kind == "table":
            rows = [[c.strip() for c in r.strip().strip("|").split("|")] for r in block
                    if not re.fullmatch(r"\|?[\s|:-]+\|?", r.strip())]
            head, body = rows[0], rows[1:]
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>"
                                 for r in body) + "</tbody></table>")
        block.clear()
        kind = ""

    for line in text.splitlines():
        heading = re.match(r"(#{1,6}) (.*)", line)
        now = ("ul" if line.startswith("* ") else "table" if line.startswith("|") else "")
        if heading or not line.strip() or now != kind or (not now and block):
            close()
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif now:
            kind = now
            block.append(line[2:] if now == "ul" else line)
        elif line.strip():
            para.append(line)
    close()
    return "\n".join(out)


def _inline(text: str) -> str:
    t = html.escape(text, quote=False)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    t = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)
    return re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", t)


def rules_sheet_html(rs: RuleSet) -> str:
    """The rules sheet of ``rs`` as HTML (:func:`rules_sheet` through :func:`markdown_html`)."""
    return markdown_html(rules_sheet(rs))

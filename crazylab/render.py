"""Cards and positions as SVG, HTML and text, for notebooks without a kernel.

Suit symbols are plain Unicode text (♣ ♦ ♥ ♠) drawn with a font stack that includes DejaVu,
so they show in a browser, in nbconvert HTML and on GitHub.
"""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from .engine import views
from .engine.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, Card, sort_key
from .engine.game import Game
from .engine.narrator import Narrator
from .engine.text import Position, game_text

__all__ = ["FONT", "Position", "card_html", "card_label", "card_svg", "cards_html",
           "game_html", "game_text", "result_words", "suit_colour"]


FONT = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, Arial, sans-serif"
TWO_COLOURS = ("#111", "#c8102e", "#c8102e", "#111")
FOUR_COLOURS = ("#1a7f37", "#1f5fbf", "#c8102e", "#111")
HIGHLIGHT = "#e8a200"  # the outline of cards that just moved


def suit_colour(c: Card, four_colour: bool = False) -> str:
    suit = c.suit
    if suit is None:
        return "#6f42c1"
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]


def card_label(c: Card) -> str:
    """A screen-reader label: ``"eight of spades"``."""
    return c.name


def card_svg(c: Card | None, width: int = 60, *, four_colour: bool = False,
             face_down: bool = False, highlight: str | None = None, note: str = "") -> str:
    """One card face (or back) as an inline SVG; ``highlight`` outlines it in that colour;
    ``note`` prints a small line under the rank (a pitch name, say)."""
    h = round(width * 1.4)
    stroke = highlight or "#888"
    sw = 3 if highlight else 1
    if face_down or c is None:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" '
                f'viewBox="0 0 60 84" role="img" aria-label="face-down card">'
                f'<rect x="1" y="1" width="58" height="82" rx="6" fill="#2b4c7e" '
                f'stroke="{stroke}" stroke-width="{sw}"/>'
                f'<rect x="6" y="6" width="48" height="72" rx="4" fill="none" '
                f'stroke="#9fb6d9" stroke-dasharray="3 3"/></svg>')
    colour = suit_colour(c, four_colour)
    suit = c.suit
    if suit is None:
        rank, symbol = "JK", "🃏"
        centre = (f'<text x="30" y="52" font-size="26" text-anchor="middle" '
                  f'font-family="{FONT}" fill="{colour}">★</text>')
    else:
        rank, symbol = RANKS[c.rank - 1], SUIT_SYMBOLS[suit]
        centre = (f'<text x="30" y="56" font-size="30" text-anchor="middle" '
                  f'font-family="{FONT}" fill="{colour}">{symbol}</text>')
    corner = symbol if not c.is_joker else ""
    extra = (f'<text x="30" y="76" font-size="10" text-anchor="middle" font-family="{FONT}" '
             f'fill="#444">{escape(note)}</text>') if note else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" '
        f'viewBox="0 0 60 84" role="img" aria-label="{escape(card_label(c))}">'
        f'<rect x="1" y="1" width="58" height="82" rx="6" fill="white" stroke="{stroke}" '
        f'stroke-width="{sw}"/>'
        f'<text x="6" y="17" font-size="14" font-weight="bold" font-family="{FONT}" '
        f'fill="{colour}">{rank}</text>'
        f'<text x="6" y="30" font-size="12" font-family="{FONT}" fill="{colour}">{corner}</text>'
        f'{centre}{extra}</svg>'
    )


def _mark(c: Card, highlight: Collection[Card]) -> str | None:
    return HIGHLIGHT if c in highlight else None


def card_html(c: Card, width: int = 60) -> str:
    return f'<span style="display:inline-block;margin:2px">{card_svg(c, width)}</span>'


def cards_html(cs: list[Card], width: int = 50, four_colour: bool = False,
               highlight: Collection[Card] = ()) -> str:
    """A row of card faces; cards in ``highlight`` are outlined (what just moved)."""
    inner = "".join(f'<span style="display:inline-block;margin:2px">'
                    f'{card_svg(c, width, four_colour=four_colour, highlight=_mark(c, highlight))}'
                    '</span>' for c in cs)
    return f'<span style="white-space:normal">{inner}</span>'


def game_html(game: Position, viewer: int | None = None, four_colour: bool = False,
              highlight: Collection[Card] = (), title: str | None = None) -> str:
    """The position as HTML: piles, stock, and hands (other hands face down if ``viewer``);
    cards in ``highlight`` are outlined; ``title`` heads it (default: the rule set's name)."""
    r = game.rules
    rows = []
    for p, pile in enumerate(game.piles):
        call = game.calls[p]
        called = ""
        if call is not None:
            text = r.format_call(call)
            if r.call_kind == "suit":
                text = f"{SUIT_SYMBOLS[call]} ({SUIT_NAMES[call]})"
            called = f"<div>called: <b>{escape(text)}</b></div>"
        label = f"Pile {p + 1}" if r.piles > 1 else "Discard"  # people count from 1
        face = card_svg(pile[-1], 56, four_colour=four_colour,
                        highlight=_mark(pile[-1], highlight))
        rows.append(f"<div style='display:inline-block;margin-right:16px;vertical-align:top'>"
                    f"<div>{label}</div>{face}{called}</div>")
    rows.append(f"<div style='display:inline-block;vertical-align:top'><div>Stock</div>"
                f"{card_svg(None, 56, face_down=True)}<div>{_count(len(game.stock_cards))}</div>"
                "</div>")
    hands = []
    for s, hand in enumerate(game.hands):
        marker = " ◀ to play" if (s == game.to_play and not game.over) else ""
        if viewer is not None and s != viewer:
            shown = f"{len(hand)} cards"
        else:
            shown = cards_html(sorted(hand, key=sort_key), 40, four_colour, highlight)
        hands.append(f"<tr><td style='padding-right:8px'>Seat {s}{marker}</td>"
                     f"<td>{shown}</td></tr>")
    status = f"<p><b>{escape(result_words(game))}</b></p>" if game.over else ""
    return (f"<div class='crazylab-position' style='font-family:{FONT}'>"
            f"<div><b>{escape(r.name if title is None else title)}</b></div>"
            f"<div>{''.join(rows)}</div>"
            f"<table>{''.join(hands)}</table>{status}</div>")


def _count(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def result_words(game: Position, names: list[str] | None = None) -> str:
    """How a finished hand ended, in the narrator's words: ``"Seat 0 went out and wins the
    hand with 64 points; seats 1 and 2 score 0 points."`` (``names`` replaces ``seat N``)."""
    names = list(names or ())
    you = names.index("You") if "You" in names else None
    return Narrator(game.rules, names, you).result(getattr(game, "result", None))


# cards and games show these pictures in a notebook (the engine asks crazylab.engine.views)
views.register(Card, html=card_html, svg=card_svg)
views.register(Game, html=game_html)

"""One seat's view of a game, below both the table widget and the shared tables' service:
:mod:`.view` (what a seat may see and do, as a dict and a stream of patches), :mod:`.words`
(the table's words for the events) and
the renderer that draws a view in a browser (``table.js``, ``table.css``, :data:`RENDERER`)."""

from __future__ import annotations

from pathlib import Path

#: the folder of ``table.js`` and ``table.css``: the browser side of :class:`.view.SeatView`
RENDERER = Path(__file__).resolve().parent

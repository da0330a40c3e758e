"""The tables' pages and static files, served by fixed name (nothing else of the package is
reachable), never framed by another site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tornado import web

from crazylab.seat import RENDERER

HERE = Path(__file__).parent
#: the files ``static/<file>`` serves: the seat view's renderer and the pages' own code
STATIC_FILES = {"table.js": RENDERER / "table.js", "table.css": RENDERER / "table.css",
                "shared_table.js": HERE / "shared_table.js",
                "shared_table.css": HERE / "shared_table.css"}
PAGES = {"lobby": "tables_lobby.html", "table": "shared_table.html",
         "watch": "shared_table.html", "tournament": "tournament.html",
         "class": "tables_class.html"}
CONTENT_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".html": "text/html; charset=utf-8"}


class FileHandler(web.RequestHandler):
    """A page or a static file of the package, by a fixed name (nothing else is served)."""

    def initialize(self, name: str | None = None, cache: str = "no-store") -> None:
        self.name, self.cache = name, cache

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        # no other site may frame the tables' pages (a click there would be a click here)
        self.set_header("X-Frame-Options", "SAMEORIGIN")
        self.set_header("Content-Security-Policy", "frame-ancestors 'self'")

    def get(self, *args: str) -> None:
        name = self.name or (args[0] if args else "")
        if name not in STATIC_FILES and name not in PAGES.values():
            raise web.HTTPError(404)
        path = STATIC_FILES.get(name) or HERE / name
        if not path.is_file():
            raise web.HTTPError(404)
        self.set_header("Content-Type", CONTENT_TYPES.get(path.suffix, "text/plain"))
        self.set_header("Cache-Control", self.cache)
        self.finish(path.read_bytes())  # tornado's ETag answers 304 when nothing changed

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("not found" if status_code == 404 else "the server could not answer")

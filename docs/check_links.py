"""Check that every local link of the built documentation resolves (offline).

    python docs/check_links.py _build/docs

Every ``href`` and ``src`` of every built HTML page that is not an outside address (``http:``,
``https:``, ``mailto:``, ``data:``, ``//host``) must name a file of the site, and its
``#fragment`` an ``id`` (or ``name``) on that page. Prints each broken link and exits 1; 0 when
all resolve.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

OUTSIDE = ("http:", "https:", "mailto:", "data:", "javascript:", "tel:")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)
            elif name in ("href", "src") and tag != "base":
                self.links.append(value)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def broken_links(site: Path) -> list[str]:
    """``"page: link (why)"`` for each local link of ``site``'s HTML pages that does not
    resolve."""
    pages = {p.resolve(): _parse(p) for p in sorted(site.rglob("*.html"))}
    bad = []
    for path, page in pages.items():
        for link in page.links:
            if link.startswith(OUTSIDE) or link.startswith("//"):
                continue
            parts = urlsplit(link)
            if parts.scheme:  # some other scheme: not a file of the site
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            where = f"{path.relative_to(site.resolve())}: {link}"
            if target.is_dir():
                target = target / "index.html"
            if not target.is_relative_to(site.resolve()):
                bad.append(f"{where} (outside the site)")
            elif not target.is_file():
                bad.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    bad.append(f"{where} (no #{parts.fragment} there)")
    return bad


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not Path(args[0]).is_dir():
        print("usage: python docs/check_links.py BUILT_SITE_DIR", file=sys.stderr)
        return 2
    site = Path(args[0])
    bad = broken_links(site)
    for line in bad:
        print(f"broken link: {line}")
    count = sum(1 for _ in site.rglob("*.html"))
    print(f"check_links: {count} pages, {len(bad)} broken local links")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

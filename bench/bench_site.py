"""The static site's figures: size on disk, bytes a first visit transfers, and the time from
navigation to a playable table on a first visit and on a second (cached) one.

    make site && .venv/bin/python bench/bench_site.py [--runs 2] [--site _site]

Headless Debian Chromium, every request to another host aborted (and counted), the site
served by site/serve.py on 127.0.0.1 (which counts the bytes it sends). Each run uses a fresh
browser profile: visit 1 starts with an empty cache, visit 2 opens the page again in the same
profile. Targets (issue 14): under 20 MB transferred, under 10 s to playable when cached.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402

_spec = importlib.util.spec_from_file_location("crazylab_site_serve", ROOT / "site" / "serve.py")
assert _spec and _spec.loader
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

PLAYABLE = ".cl-table .cl-card.cl-legal"
TARGET_MB, TARGET_CACHED_S = 20.0, 10.0


def disk_size(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def visit(page, url: str, server, timeout_s: float = 180) -> tuple[float, int]:
    """Seconds from navigation to a playable table, and the bytes the server sent."""
    server.reset()
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_selector(PLAYABLE, timeout=timeout_s * 1000)
    return time.perf_counter() - t0, server.sent


def run_once(playwright, server) -> dict[str, float]:
    blocked: list[str] = []
    with tempfile.TemporaryDirectory(prefix="crazylab-site-bench-") as profile:
        ctx = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=list(CHROMIUM_ARGS),
            viewport=dict(VIEWPORT))

        def route(r):  # type: ignore[no-untyped-def]
            if r.request.url.startswith(server.url):
                r.continue_()
            else:
                blocked.append(r.request.url)
                r.abort()

        ctx.route("**/*", route)
        url = f"{server.url}/voici/render/play.html"
        page = ctx.new_page()
        first_s, first_b = visit(page, url, server)
        page.close()
        page = ctx.new_page()
        second_s, second_b = visit(page, url, server)
        ctx.close()
    if blocked:
        raise SystemExit(f"requests to other hosts: {blocked}")
    return {"first_s": first_s, "first_bytes": first_b, "cached_s": second_s,
            "cached_bytes": second_b}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_site")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    size = disk_size(args.site)
    results = []
    with serve.SiteServer(args.site) as server, sync_playwright() as p:
        for i in range(args.runs):
            r = run_once(p, server)
            results.append(r)
            print(f"run {i + 1}: first visit {r['first_s']:.1f} s, "
                  f"{r['first_bytes'] / 1e6:.1f} MB; cached visit {r['cached_s']:.1f} s, "
                  f"{r['cached_bytes'] / 1e6:.2f} MB", flush=True)

    def med(key: str) -> float:
        return statistics.median(r[key] for r in results)

    print(f"\nsite on disk: {size / 1e6:.1f} MB ({args.site})")
    print(f"first visit: {med('first_bytes') / 1e6:.1f} MB transferred "
          f"(target < {TARGET_MB:.0f}), playable after {med('first_s'):.1f} s (median of "
          f"{len(results)})")
    print(f"cached visit: {med('cached_bytes') / 1e6:.2f} MB transferred, playable after "
          f"{med('cached_s'):.1f} s (target < {TARGET_CACHED_S:.0f}); "
          f"cached/first = {med('cached_s') / med('first_s'):.2f}")
    print("requests to other hosts: 0 (all aborted and counted; none made)")


if __name__ == "__main__":
    main()

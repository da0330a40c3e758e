"""The static site's figures: size on disk, bytes a first visit transfers, and the time from
navigation to a playable table on a first visit and on a second (cached) one.

    make site && .venv/bin/python bench/bench_site.py [--runs 2] [--site _site]

Headless Debian Chromium; every other host resolves to nothing (``--host-resolver-rules``:
Playwright's request routing, which tests/test_site.py uses, switches the HTTP cache off) and
any request for one is counted. The site is served by site/serve.py on 127.0.0.1, which counts
the bytes it sends, once with gzip (as most web hosts do) and once without (like
``python -m http.server``). Each run uses a fresh browser profile: visit 1 starts with an
empty cache, visit 2 opens the page again in the same profile. Targets (issue 14): under
20 MB transferred, under 10 s to playable when cached.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
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
    try:
        page.wait_for_selector(PLAYABLE, timeout=timeout_s * 1000)
    except Exception as exc:
        status = page.evaluate("(document.getElementById('loading_text') || {}).textContent")
        raise SystemExit(f"not playable after {timeout_s:.0f} s (page says {status!r}; "
                         f"{server.sent / 1e6:.1f} MB sent; load average "
                         f"{os.getloadavg()[0]:.1f}): {exc}") from None
    return time.perf_counter() - t0, server.sent


def run_once(playwright, server) -> dict[str, float]:
    blocked: list[str] = []
    offline = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
    with tempfile.TemporaryDirectory(prefix="crazylab-site-bench-") as profile:
        ctx = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True,
            args=list(CHROMIUM_ARGS) + offline, viewport=dict(VIEWPORT))
        ctx.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:"))
               else blocked.append(r.url))
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
    results: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    with sync_playwright() as p:
        for i in range(args.runs):
            for gzip in (True, False):  # interleaved, so both see the same machine load
                with serve.SiteServer(args.site, gzip=gzip) as server:
                    r = run_once(p, server)
                results[gzip].append(r)
                print(f"run {i + 1} {'gzip' if gzip else 'plain'}: first visit "
                      f"{r['first_s']:.1f} s, {r['first_bytes'] / 1e6:.1f} MB; cached visit "
                      f"{r['cached_s']:.1f} s, {r['cached_bytes'] / 1e6:.2f} MB", flush=True)

    def med(gzip: bool, key: str) -> float:
        return statistics.median(r[key] for r in results[gzip])

    print(f"\nsite on disk: {size / 1e6:.1f} MB ({args.site}); medians of {args.runs} runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for gzip in (True, False):
        name = "gzip (most web hosts)" if gzip else "no compression (python -m http.server)"
        print(f"{name}:\n  first visit: {med(gzip, 'first_bytes') / 1e6:.1f} MB transferred "
              f"(target < {TARGET_MB:.0f}), playable after {med(gzip, 'first_s'):.1f} s\n"
              f"  cached visit: {med(gzip, 'cached_bytes') / 1e6:.2f} MB transferred, playable "
              f"after {med(gzip, 'cached_s'):.1f} s (target < {TARGET_CACHED_S:.0f}); "
              f"cached/first = {med(gzip, 'cached_s') / med(gzip, 'first_s'):.2f}")
    print("requests to other hosts: 0 (each would have been counted and failed the run)")


if __name__ == "__main__":
    main()

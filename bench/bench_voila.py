"""How fast is the Voilà game table? Starts Voilà on notebooks/ (a free port, loopback only),
drives headless Chromium and reports:

* request → table drawn: from ``page.goto`` to the first card of the hand on screen;
* request → interactive: until the kernel has answered a first card click;
* card click → table redrawn: in-page time from a click on a legal card to the next redraw
  of the table (the human's move shown; opponents then move after their visible delay),
  median over ``--clicks`` clicks, across as many hands as needed;
* the same with ``delay=0``, where the redraw also includes every computer move.

    .venv/bin/python bench/bench_voila.py                 # 5 page loads, 20 clicks
    .venv/bin/python bench/bench_voila.py --loads 3 --clicks 40 --preheat
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from browser_support import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS_DIR,
    TIMED_CLICK,
    YOUR_TURN,
    human_step,
    start_voila,
    stop_voila,
)


def load_times(page, url: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".cl-card", timeout=120_000)
    drawn = time.perf_counter() - t0
    page.evaluate(TIMED_CLICK, ".cl-card")
    return drawn, time.perf_counter() - t0


def click_times(page, clicks: int) -> list[float]:
    """Play hands, timing clicks on legal cards, until ``clicks`` samples are taken."""
    samples: list[float] = []
    for _ in range(20 * clicks + 200):
        if len(samples) >= clicks:
            break
        page.wait_for_function(YOUR_TURN, timeout=60_000)
        root = page.locator(".cl-table")
        if root.get_attribute("data-over") == "true":
            page.evaluate(TIMED_CLICK, "[data-action='new_hand']")
        else:
            took = human_step(page)
            if took is not None:
                samples.append(took)
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=5, help="page loads to time (default 5)")
    ap.add_argument("--clicks", type=int, default=20, help="card clicks to time (default 20)")
    ap.add_argument("--preheat", action="store_true", help="start Voilà with preheated kernels")
    ap.add_argument("--rules", default="crazy-eights-classic")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    extra = ("--preheat_kernel=True",) if args.preheat else ()
    server = start_voila(NOTEBOOKS_DIR, show_tracebacks=False, extra_args=extra)
    base = server.render("play.ipynb") + f"?rules={args.rules}&opponents=2&seed=11"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                        headless=True)
            loads = []
            for _ in range(args.loads):
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                loads.append(load_times(page, base + "&delay=0.05"))
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(base + "&delay=0.05", timeout=120_000)
            page.wait_for_selector(".cl-card", timeout=120_000)
            clicks = click_times(page, args.clicks)
            page.goto(base + "&delay=0", timeout=120_000)
            page.wait_for_selector(".cl-card", timeout=120_000)
            clicks0 = click_times(page, args.clicks)
            browser.close()
    finally:
        stop_voila(server)

    drawn = [d for d, _ in loads]
    ready = [r for _, r in loads]
    print(f"Voilà {'(preheated kernels) ' if args.preheat else ''}play.ipynb, {args.rules}, "
          f"2 opponents, {len(loads)} loads, headless Chromium")
    print(f"  request -> table drawn      median {statistics.median(drawn):5.2f} s  "
          f"(min {min(drawn):.2f}, max {max(drawn):.2f})")
    print(f"  request -> interactive      median {statistics.median(ready):5.2f} s  "
          f"(min {min(ready):.2f}, max {max(ready):.2f})")
    print(f"  card click -> table redrawn median {statistics.median(clicks):5.0f} ms "
          f"(min {min(clicks):.0f}, max {max(clicks):.0f}, n={len(clicks)})")
    print(f"  same, bots answer at once   median {statistics.median(clicks0):5.0f} ms "
          f"(min {min(clicks0):.0f}, max {max(clicks0):.0f}, n={len(clicks0)})")


if __name__ == "__main__":
    main()

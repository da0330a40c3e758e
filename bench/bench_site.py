"""The static site's figures beside a baseline's: size on disk, bytes a first visit transfers,
and the time from navigation to a playable table on a first visit and on a second (cached) one.

    make site && .venv/bin/python bench/bench_site.py [--runs 3] [--site _site]
        [--baseline-ref 2405523 | --baseline DIR | --no-baseline]

The baseline is the site as it was before Python started from a snapshot (issue 19 item 8):
``--baseline-ref`` builds it from that commit of this repository (a ``git worktree`` in a
temporary folder, its own site/build.py, as the site was built then; about 30 s),
``--baseline`` takes a site already built.
Both sites are measured in the same run, interleaved (baseline, this site, baseline, ...), so
both see the same machine load: the ratios are the figures to compare across runs.

Headless Debian Chromium; every other host resolves to nothing (``--host-resolver-rules``:
Playwright's request routing, which tests/test_site.py uses, switches the HTTP cache off) and
any request for one is counted. Each site is served by crazylab.site.static_server on 127.0.0.1 with
gzip (as most web hosts do; ``--plain`` also measures without, like ``python -m http.server``),
which counts the bytes it sends. Each run uses a fresh browser profile: visit 1 starts with an empty
cache, visit 2 opens the page again in the same profile. Targets (issue 19): playable in under
4 s on a second visit and under 8 s on a first; issue 14: under 20 MB transferred.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402

from crazylab.site import static_server as serve  # noqa: E402
from crazylab.site.build import find_node_modules  # noqa: E402

#: the table waits for the human's move (a legal card or, when none fits, the draw button)
PLAYABLE = ".cl-table[data-your-turn=true], .cl-table[data-over=true]"
#: main just before the snapshot (the figures of issue 19: 8.4 s first visit, 8.25 s second)
BASELINE_REF = "2405523"
TARGET_FIRST_S, TARGET_CACHED_S, TARGET_MB = 8.0, 4.0, 20.0
SNAPSHOT_SAYS = "Python started from its snapshot"


class NotPlayable(Exception):
    """A visit whose table never waited for the human: counted, and the run left out."""


def disk_size(site: Path) -> int:
    return sum(p.stat().st_size for p in site.rglob("*") if p.is_file())


def build_baseline(ref: str, dest: Path) -> Path:
    """The site of commit ``ref``, built by that commit's site/build.py into ``dest``."""
    tree = dest / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force",
                    str(tree), ref], check=True, capture_output=True)
    try:
        (tree / "site" / "node_modules").symlink_to(find_node_modules())  # its site/ folder
        print(f"building the baseline site of {ref} (its own site/build.py) ...", flush=True)
        done = subprocess.run([sys.executable, "site/build.py", "--output",
                               str(dest / "_site"), "--work", str(dest / "work")],
                              cwd=tree, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"the baseline's build failed:\n{done.stderr[-3000:]}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       check=False, capture_output=True)
        shutil.rmtree(dest / "work", ignore_errors=True)
    return dest / "_site"


def visit(page, url: str, server, timeout_s: float = 180) -> tuple[float, int]:
    """Seconds from navigation to a playable table, and the bytes the server sent."""
    server.reset()
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    try:
        page.wait_for_selector(PLAYABLE, timeout=timeout_s * 1000)
    except Exception:
        status = page.evaluate("(document.getElementById('loading_text') || {}).textContent")
        table = page.evaluate("JSON.stringify((document.querySelector('.cl-table') || {}).dataset)")
        raise NotPlayable(f"not playable after {timeout_s:.0f} s (loading text {status!r}, table "
                          f"{table}; {server.sent / 1e6:.1f} MB sent; load average "
                          f"{os.getloadavg()[0]:.1f})") from None
    return time.perf_counter() - t0, server.sent


def run_once(playwright, server) -> dict[str, float]:
    blocked: list[str] = []
    said: list[str] = []
    offline = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
    with tempfile.TemporaryDirectory(prefix="crazylab-site-bench-") as profile:
        ctx = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True,
            args=list(CHROMIUM_ARGS) + offline, viewport=dict(VIEWPORT))
        ctx.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:"))
               else blocked.append(r.url))
        url = f"{server.url}/voici/render/play.html"
        result: dict[str, float] = {}
        for key in ("first", "cached"):
            page = ctx.new_page()
            page.on("console", lambda m: said.append(m.text) if SNAPSHOT_SAYS in m.text
                    else None)
            result[f"{key}_s"], result[f"{key}_bytes"] = visit(page, url, server)
            result[f"{key}_snapshot"] = float(bool(said))
            said.clear()
            page.close()
        ctx.close()
    if blocked:
        raise SystemExit(f"requests to other hosts: {blocked}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_site")
    parser.add_argument("--runs", type=int, default=3)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--baseline-ref", default=BASELINE_REF,
                       help=f"commit whose site is the baseline (default {BASELINE_REF})")
    group.add_argument("--baseline", type=Path, help="a baseline site already built")
    group.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--plain", action="store_true",
                        help="also measure without compression (python -m http.server)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="crazylab-site-baseline-") as tmp:
        sites = {}
        if args.baseline is not None:
            sites["baseline"] = args.baseline
        elif not args.no_baseline:
            sites["baseline"] = build_baseline(args.baseline_ref, Path(tmp))
        sites["this site"] = args.site
        modes = (True, False) if args.plain else (True,)
        results: dict[tuple[str, bool], list[dict[str, float]]] = {}
        failed: dict[str, int] = {}
        with sync_playwright() as p:
            for i in range(args.runs):
                for gzip in modes:
                    for name, site in sites.items():  # interleaved: the same machine load
                        try:
                            with serve.SiteServer(site, gzip=gzip) as server:
                                r = run_once(p, server)
                        except NotPlayable as exc:
                            failed[name] = failed.get(name, 0) + 1
                            print(f"run {i + 1} {name:9} left out: {exc}", flush=True)
                            continue
                        results.setdefault((name, gzip), []).append(r)
                        print(f"run {i + 1} {name:9} {'gzip' if gzip else 'plain'}: first visit "
                              f"{r['first_s']:.1f} s, {r['first_bytes'] / 1e6:.1f} MB; second "
                              f"visit {r['cached_s']:.1f} s, {r['cached_bytes'] / 1e6:.2f} MB"
                              f"{'; snapshot' if r['cached_snapshot'] else ''}", flush=True)
        report(sites, results, modes, failed)


def report(sites: dict[str, Path], results: dict, modes: tuple[bool, ...],
           failed: dict[str, int]) -> None:
    def figs(name: str, gzip: bool, key: str) -> list[float]:
        return [r[key] for r in results[(name, gzip)]]

    print(f"\nmin / median of the runs; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    for name, site in sites.items():
        runs = len(results.get((name, True), []))
        print(f"{name}: {site} ({disk_size(site) / 1e6:.1f} MB on disk); {runs} runs"
              + (f", {failed[name]} left out (never playable)" if failed.get(name) else ""))
    if any(not results.get((name, True)) for name in sites):
        raise SystemExit("a site has no run that became playable")
    for gzip in modes:
        print("gzip (most web hosts):" if gzip else "no compression (python -m http.server):")
        for key, label, target in (("first", "first visit ", TARGET_FIRST_S),
                                   ("cached", "second visit", TARGET_CACHED_S)):
            cells = []
            for name in sites:
                t = figs(name, gzip, f"{key}_s")
                mb = statistics.median(figs(name, gzip, f"{key}_bytes")) / 1e6
                cells.append(f"{name} {min(t):.1f} / {statistics.median(t):.1f} s "
                             f"({mb:.1f} MB)")
            line = f"  {label}: " + "; ".join(cells) + f"  [target < {target:.0f} s]"
            if "baseline" in sites:
                new = statistics.median(figs("this site", gzip, f"{key}_s"))
                old = statistics.median(figs("baseline", gzip, f"{key}_s"))
                best = min(figs("this site", gzip, f"{key}_s"))
                line += (f"\n    this site / baseline = {new / old:.2f} (medians), "
                         f"{best / min(figs('baseline', gzip, f'{key}_s')):.2f} (minima)")
            print(line)
        snap = figs("this site", gzip, "cached_snapshot") + figs("this site", gzip,
                                                                 "first_snapshot")
        print(f"  this site started Python from its snapshot in {sum(snap):.0f} of "
              f"{len(snap)} visits; first visit transfers target < {TARGET_MB:.0f} MB")
    print("requests to other hosts: 0 (each would have been counted and failed the run)")


if __name__ == "__main__":
    main()

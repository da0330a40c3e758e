"""How fast is the published game table, for one visitor and for a class arriving at once?

Serves a temporary folder holding ``play.ipynb`` (the dashboard, as it is) and ``bare.ipynb``
(one ipywidgets Button and a Label: what Voilà itself costs) with the command line of
``make app`` (crazylab's Voilà launcher, settings from voila.json; both notebooks get the same
preheated pool), drives headless Chromium and prints, in one run:

* single visitor: request -> clickable card (the first card of the hand on screen; bare: the
  button) and request -> first click answered, median over ``--loads`` loads of each page,
  one page at a time, bare and play interleaved, and the ratio;
* burst: ``--burst`` visitors (default 30) open the page at the same moment, each in its own
  browser context; per page the time to a clickable card (bare: the button) and to a first
  answered click; 50th/95th percentile and worst, pages that never became playable, pages
  that were shown the "busy, retry" page; side by side, bare vs play, and the ratio;
* visitors who never got a table, and the kernels the server shut down during the burst (from
  its log; a visitor's kernel is one its page announced) -- any is a visitor shut out;
* a link checker first, on the same server (``--checkers``, default 200 plain GETs): how many
  pages it got, and how soon its kernels were all given back (the room open again);
* kernels: the most running at once, resident memory (RSS) per kernel, and how long after the
  pages closed the kernels were shut down;
* with ``--clicks N``: card click -> table redrawn (median of N clicks in one game).

    .venv/bin/python bench/bench_voila.py                 # 30 visitors, 5 single loads
    .venv/bin/python bench/bench_voila.py --burst 12 --loads 3 --clicks 20

The machine is shared: run it when nothing else is busy and report the load average it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
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
    plain_get,
    start_voila,
    stop_voila,
    write_notebook,
)

BARE = """\
import ipywidgets as w

label = w.Label("not clicked yet")
button = w.Button(description="Click me")


def on_click(_):
    label.value = "clicked"


button.on_click(on_click)
w.VBox([button, label])
"""

# What "clickable" means on each page, and an in-page click that resolves when answered.
PAGES = {
    "bare": {
        "ready": ".widget-button",
        "click": """async () => {
            const label = document.querySelector('.widget-label');
            const t0 = performance.now();
            return await new Promise((resolve, reject) => {
              const obs = new MutationObserver(() => {
                if (label.textContent !== 'clicked') return;
                obs.disconnect();
                resolve(performance.now() - t0);
              });
              obs.observe(label, {childList: true, characterData: true, subtree: true});
              setTimeout(() => reject(new Error('no answer within 60 s')), 60000);
              document.querySelector('.widget-button').click();
            });
        }""",
    },
    "play": {"ready": ".cl-card", "click": None},  # TIMED_CLICK on a card
}

POOLS = {"default": {"pool_size": 0}, "play.ipynb": {"pool_size": 2},
         "bare.ipynb": {"pool_size": 2}}


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s) + 0.5) - 1))]


def cpu_s(pids) -> float:
    """CPU seconds (user + system, with reaped children) used so far by ``pids``."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / tick
    return total


def groups(server) -> dict[str, set[int]]:
    """Live processes: Voilà's server, its kernels, and the browser (this script's other
    descendants)."""
    from browser_support import descendants

    kernels = server.kernel_pids()
    mine = descendants(os.getpid()) - kernels - {server.proc.pid}
    return {"server": {server.proc.pid}, "kernels": kernels, "browser": mine}


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def visit(browser, url: str, kind: str, t_start: float) -> dict:
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    out: dict = {"busy": 0, "retry": 0, "errors": [], "kernels": set()}
    page.on("request", lambda r: out["kernels"].add(r.url.split("/crazylab/page/")[1].split("/")[0])
            if "/crazylab/page/" in r.url and r.url.endswith("/hello") else None)
    page.on("response", lambda r: out.__setitem__("busy", out["busy"] + (r.status == 503)))
    out["log"] = []
    page.on("console", lambda m: out["errors"].append(m.text[:200]) if m.type == "error" else None)

    def log(m) -> None:
        if m.type in ("error", "warning") and "shared module" not in m.text \
                and "Unsatisfied version" not in m.text:
            out["log"].append(f"{time.perf_counter() - t_start:.1f} {m.type}: {m.text[:160]}")

    page.on("console", log)
    page.on("framenavigated", lambda f: out.__setitem__("retry", out["retry"] + 1)
            if f == page.main_frame else None)
    try:
        await page.goto(url, timeout=300_000, wait_until="commit")
        spec = PAGES[kind]
        await page.wait_for_selector(spec["ready"], state="visible", timeout=300_000)
        out["clickable"] = time.perf_counter() - t_start
        if spec["click"]:
            await page.evaluate(spec["click"])
        else:  # the human's first action: a legal card, else the offered button (draw)
            await page.wait_for_function(YOUR_TURN, timeout=300_000)
            legal = await page.locator(".cl-card.cl-legal").count()
            await page.evaluate(TIMED_CLICK, ".cl-card.cl-legal" if legal
                                else ".cl-actions .cl-primary")
        out["answered"] = time.perf_counter() - t_start
    except Exception as e:  # a page that never became playable: what did it show?
        shown = ""
        with contextlib.suppress(Exception):
            shown = " ".join((await page.evaluate("() => document.body.innerText")).split())
        out["failed"] = f"{type(e).__name__}: {str(e)[:120]} | page shows: {shown[:160]!r}"
    out["page"], out["ctx"] = page, ctx
    return out


async def burst(server, browser, kind: str, n: int, query: str) -> dict:
    """``n`` visitors at once; returns their timings and the kernels' footprint."""
    url = server.render(f"{kind}.ipynb") + query
    base = set(server.kernel_pids())
    peak = {"kernels": 0, "rss": []}
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            pids = server.kernel_pids()
            peak["kernels"] = max(peak["kernels"], len(pids))
            if len(pids) >= peak["kernels"]:
                peak["rss"] = [rss_mb(p) for p in pids]
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    log_from = len(server.log(10**9))
    cpu0 = {k: cpu_s(v) for k, v in groups(server).items()}
    t0 = time.perf_counter()
    visits = await asyncio.gather(*(visit(browser, url, kind, t0) for _ in range(n)))
    await asyncio.sleep(1)
    stop.set()
    await sampler
    # CPU used during the burst by each group (kernels that exited are not counted)
    cpu = {k: cpu_s(v) - cpu0[k] for k, v in groups(server).items()}
    # kernels the server shut down during the burst (before any page closed), and how many
    # of those were a visitor's (a page announced it)
    log = server.log(10**9)[log_from:]
    shut = set(re.findall(r"crazylab: shutting down kernel (\S+) \(no page\)", log)) | set(
        re.findall(r"crazylab: room is full; kernel (\S+) never met its page", log))
    visitors = set().union(*(v["kernels"] for v in visits))
    # close every page as a browser closing tabs does (beforeunload fires), then time until
    # the kernels they held are gone
    t_close = time.perf_counter()
    for v in visits:
        await v["page"].close(run_before_unload=True)
    for v in visits:
        await v["ctx"].close()
    freed_after = None  # until no more kernels run than before the burst (the pool)
    while time.perf_counter() - t_close < 60:
        if len(server.kernel_pids()) <= len(base):
            freed_after = time.perf_counter() - t_close
            break
        await asyncio.sleep(0.25)
    return {"visits": visits, "kernels": peak["kernels"], "rss": peak["rss"], "cpu": cpu,
            "freed_after": freed_after, "shut": len(shut), "shut_visitors": len(shut & visitors),
            "never_alive": log.count("Kernel never reached an 'alive' state"),
            "left": max(0, len(server.kernel_pids()) - len(base))}


def checkers(server, n: int, query: str) -> dict:
    """``n`` plain GETs of the game table (16 at a time), then the time until the room is
    back to its pool (the checkers' kernels given back)."""
    from concurrent.futures import ThreadPoolExecutor

    base = len(server.kernel_pids())
    t0 = time.perf_counter()
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(plain_get, [server.render("play.ipynb") + query] * n))
    took = time.perf_counter() - t0
    t1, cleared = time.perf_counter(), None
    while time.perf_counter() - t1 < 180:
        if len(server.kernel_pids()) <= base:
            cleared = time.perf_counter() - t1
            break
        time.sleep(0.5)
    return {"n": n, "ok": statuses.count(200), "busy": statuses.count(503),
            "other": len(statuses) - statuses.count(200) - statuses.count(503),
            "took": took, "cleared": cleared}


async def singles(server, browser, loads: int, query: str) -> dict[str, list[tuple]]:
    """``loads`` single visits to each page, bare and play interleaved, one page at a time;
    per page the (clickable, first click answered) times."""
    out: dict[str, list[tuple]] = {"bare": [], "play": []}
    for _ in range(loads):
        for kind in ("bare", "play"):
            t0 = time.perf_counter()
            v = await visit(browser, server.render(f"{kind}.ipynb") + query, kind, t0)
            out[kind].append((v.get("clickable", float("nan")), v.get("answered", float("nan"))))
            await v["page"].close(run_before_unload=True)
            await v["ctx"].close()
            await asyncio.sleep(2)  # let the pool refill, as between two real visitors
    return out


def summary(name: str, res: dict) -> dict:
    vs = res["visits"]
    ok = [v for v in vs if "answered" in v]
    clickable = [v["clickable"] for v in ok]
    answered = [v["answered"] for v in ok]
    return {
        "name": name, "n": len(vs), "ok": len(ok),
        "p50": statistics.median(clickable) if ok else float("nan"),
        "p95": pct(clickable, 95) if ok else float("nan"),
        "max": max(clickable) if ok else float("nan"),
        "a95": pct(answered, 95) if ok else float("nan"),
        "busy": sum(v["busy"] for v in vs), "retries": sum(max(0, v["retry"] - 1) for v in vs),
        "errors": sum(len(v["errors"]) for v in vs),
        "kernels": res["kernels"],
        "rss": statistics.median(res["rss"]) if res["rss"] else float("nan"),
        "freed": res["freed_after"], "left": res["left"],
        "never": len(vs) - len(ok), "shut": res["shut"], "shut_visitors": res["shut_visitors"],
        "never_alive": res["never_alive"],
        "failed": [v["failed"] for v in vs if "failed" in v][:3],
        "error_texts": sorted({e for v in vs for e in v["errors"]})[:4],
        "cpu_browser": res["cpu"]["browser"], "cpu_server": res["cpu"]["server"],
        "cpu_kernels": res["cpu"]["kernels"],
    }


def click_times(page, clicks: int) -> list[float]:
    """Play hands, timing clicks on legal cards, until ``clicks`` samples are taken."""
    samples: list[float] = []
    for _ in range(20 * clicks + 200):
        if len(samples) >= clicks:
            break
        page.wait_for_function(YOUR_TURN, timeout=60_000)
        if page.locator(".cl-table").get_attribute("data-over") == "true":
            page.evaluate(TIMED_CLICK, "[data-action='new_hand']")
        else:
            took = human_step(page)
            if took is not None:
                samples.append(took)
    return samples


async def run(args: argparse.Namespace, server) -> tuple[list, list]:
    from playwright.async_api import async_playwright

    query = f"?rules={args.rules}&opponents=2&seed=11&delay=0.05"
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                          headless=True)
        await singles(server, browser, 1, query)  # warm the disk cache and the pools
        single = await singles(server, browser, args.loads, query)
        checked = await asyncio.to_thread(checkers, server, args.checkers, query) \
            if args.checkers else None
        rows = []
        for kind in ("bare", "play"):
            await asyncio.sleep(5)  # pools refilled, load settled
            rows.append(summary(kind, await burst(server, browser, kind, args.burst, query)))
        await browser.close()
    return single, rows, checked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--burst", type=int, default=30, help="visitors at once (default 30)")
    ap.add_argument("--loads", type=int, default=5, help="single-visitor loads (default 5)")
    ap.add_argument("--clicks", type=int, default=0, help="card clicks to time (default 0)")
    ap.add_argument("--rules", default="crazy-eights-classic")
    ap.add_argument("--checkers", type=int, default=200,
                    help="plain GETs (a link checker) before the bursts, same server "
                         "(default 200; 0: none)")
    ap.add_argument("--no-preheat", action="store_true", help="no preheated kernel pool")
    args = ap.parse_args()

    root = Path(tempfile.mkdtemp(prefix="crazylab-bench-"))
    shutil.copy(NOTEBOOKS_DIR / "play.ipynb", root / "play.ipynb")
    write_notebook(root, "bare.ipynb", BARE)
    extra = [f"--VoilaKernelManager.kernel_pools_config={json.dumps(POOLS)}",
             f"--BoundedKernelManager.max_kernels={max(40, args.burst + 10)}"]
    if args.no_preheat:
        extra.append("--preheat_kernel=False")
    load_before = os.getloadavg()
    server = start_voila(root, show_tracebacks=False, extra_args=tuple(extra))
    try:
        time.sleep(8)  # the pools fill
        single, rows, checked = asyncio.run(run(args, server))
        clicks: list[float] = []
        if args.clicks:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                            headless=True)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(server.render("play.ipynb") + f"?rules={args.rules}&delay=0.05",
                          timeout=120_000)
                page.wait_for_selector(".cl-card", timeout=120_000)
                clicks = click_times(page, args.clicks)
                browser.close()
    finally:
        stop_voila(server)
        shutil.rmtree(root, ignore_errors=True)

    cores = os.cpu_count()
    print(f"Voilà ({'no preheat' if args.no_preheat else 'preheated pool of 2'}), "
          f"make app's command line, headless Chromium, {cores} cores; load average before "
          f"{load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    for kind in ("bare", "play"):
        cl = [c for c, _ in single[kind]]
        an = [a for _, a in single[kind]]
        print(f"single visitor, {kind}.ipynb: request -> clickable median "
              f"{statistics.median(cl):.2f} s (min {min(cl):.2f}, max {max(cl):.2f}); "
              f"-> first click answered median {statistics.median(an):.2f} s, {len(cl)} loads")
    ratio = (statistics.median(c for c, _ in single["play"])
             / statistics.median(c for c, _ in single["bare"]))
    print(f"single visitor, play vs bare (clickable, median): {ratio:.2f}x")
    if checked:
        cleared = "never" if checked["cleared"] is None else f"{checked['cleared']:.1f} s later"
        print(f"link checker, same server: {checked['n']} plain GETs of play.ipynb in "
              f"{checked['took']:.1f} s ({checked['ok']} pages, {checked['busy']} 'busy, retry', "
              f"{checked['other']} other); their kernels all given back {cleared}")
    print(f"burst of {args.burst} visitors at once           {'bare':>10} {'play':>10}  ratio")
    bare, play = rows
    for label, key, fmt in (
        ("pages playable", "ok", "{:>10d}"),
        ("visitors who never got a table", "never", "{:>10d}"),
        ("kernels shut down during the burst", "shut", "{:>10d}"),
        ("  of them a visitor's (announced)", "shut_visitors", "{:>10d}"),
        ("'never reached alive' in the log", "never_alive", "{:>10d}"),
        ("clickable p50 (s)", "p50", "{:>10.2f}"),
        ("clickable p95 (s)", "p95", "{:>10.2f}"),
        ("clickable worst (s)", "max", "{:>10.2f}"),
        ("first click answered p95 (s)", "a95", "{:>10.2f}"),
        ("'busy, retry' pages shown", "busy", "{:>10d}"),
        ("pages reloaded by the watchdog", "retries", "{:>10d}"),
        ("console errors", "errors", "{:>10d}"),
        ("CPU s, browser (all pages)", "cpu_browser", "{:>10.1f}"),
        ("CPU s, Voilà server", "cpu_server", "{:>10.1f}"),
        ("CPU s, kernels (still running)", "cpu_kernels", "{:>10.1f}"),
        ("kernels at the peak", "kernels", "{:>10d}"),
        ("RSS per kernel (MB, median)", "rss", "{:>10.0f}"),
        ("kernels freed after close (s)", "freed", "{:>10}"),
        ("kernels left 60 s after close", "left", "{:>10d}"),
    ):
        a, b = bare[key], play[key]
        if key == "freed":
            a = "never" if a is None else f"{a:.1f}"
            b = "never" if b is None else f"{b:.1f}"
        ratio = f"  {b / a:.2f}x" if key in ("p50", "p95", "max", "a95") and a else ""
        print(f"  {label:<34}{fmt.format(a)}{fmt.format(b)}{ratio}")
    for row in rows:
        if row["failed"]:
            print(f"  {row['name']}: failures, e.g. {row['failed']}")
        if row["error_texts"]:
            print(f"  {row['name']}: console errors, e.g. {row['error_texts']}")
    if play["never"] or bare["never"]:
        print(f"VISITORS SHUT OUT: {bare['never']} bare, {play['never']} play never got a table")
    if clicks:
        print(f"card click -> table redrawn median {statistics.median(clicks):.0f} ms "
              f"(min {min(clicks):.0f}, max {max(clicks):.0f}, n={len(clicks)})")


if __name__ == "__main__":
    main()

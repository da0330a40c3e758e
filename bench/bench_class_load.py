"""30 learners answering at once (issue 22 item 8): is every attempt stored once, and how long
does storing one take?

    .venv/bin/python bench/bench_class_load.py                       # a temporary SQLite file
    .venv/bin/python bench/bench_class_load.py --db postgresql+psycopg://user@host/db
    .venv/bin/python bench/bench_class_load.py --learners 60 --attempts 40

As on a Voilà server, each learner is its own process (a kernel) with its own store
connection. All start together (a barrier) and answer ``--attempts`` exercises as fast as they
can; as the kernel's recorder does, an answer the database refuses for now
(:class:`StoreUnavailable`, e.g. SQLite busy past its timeout) is retried with the same
``attempt_id``, and every ``--resend``-th answer is sent a second time (a reply lost on the
way), which must not store a second row. Printed: attempts sent, rows stored, lost, doubled,
retries, and the p50/p95/max time from first try to stored.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LESSON = "01_crazy_eights_basics"


def learner(url: str, token: str, n: int, attempts: int, resend: int, start: Any,
            out: Any, run: str) -> None:
    """One learner's kernel: open the store, wait for the others, answer ``attempts``."""
    from crazylab.classroom.store import StoreUnavailable, open_store

    store = open_store(url)
    names = list(store.catalog.lessons[LESSON].exercises)
    # what a learner types: a right answer to each question (the store judges it itself)
    answers = {}
    for name in names:
        q = store.catalog.question(LESSON, name)
        answers[name] = " ".join(q.right_answers) if q.answer_kind == "cards" \
            else q.right_answers[0]
    times, retries, sent = [], 0, 0
    start.wait()
    for k in range(attempts):
        attempt_id = f"bench-{run}-{n}-{k}"  # unique in the database, as a uuid4 is
        name = names[k % len(names)]
        fields = dict(lesson=LESSON, exercise=name, answer=answers[name],
                      attempt_id=attempt_id)
        copies = 2 if resend and (k + 1) % resend == 0 else 1
        for _ in range(copies):
            sent += 1
            t0 = time.perf_counter()
            while True:
                try:
                    store.record_attempt(token, **fields)
                    break
                except StoreUnavailable:
                    retries += 1
                    time.sleep(0.05)
            times.append(time.perf_counter() - t0)
    store.close()
    out.put((n, sent, retries, times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="a SQLAlchemy URL (default: a new SQLite "
                                                   "file in a temporary folder)")
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--attempts", type=int, default=20)
    parser.add_argument("--resend", type=int, default=5,
                        help="send every N-th answer twice (0: never)")
    args = parser.parse_args()

    import sqlalchemy as sa

    from crazylab.classroom.store import open_store
    from crazylab.store import schema

    url = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='crazylab-load-')}/class.db"
    store = open_store(url)
    new = store.create_class("Load test")
    tokens = [store.join(new.code, f"Learner {n}").token for n in range(args.learners)]
    store.close()

    ctx = mp.get_context("spawn")  # a fresh interpreter per learner, as a kernel is
    start, out = ctx.Barrier(args.learners + 1), ctx.Queue()
    procs = [ctx.Process(target=learner, args=(url, t, n, args.attempts, args.resend, start,
                                               out, new.code)) for n, t in enumerate(tokens)]
    for p in procs:
        p.start()
    start.wait()  # every learner's store is open: go
    t0 = time.perf_counter()
    results = [out.get(timeout=600) for _ in procs]
    wall = time.perf_counter() - t0
    for p in procs:
        p.join(60)

    sent = sum(r[1] for r in results)
    retries = sum(r[2] for r in results)
    times = sorted(t for r in results for t in r[3])
    unique = args.learners * args.attempts
    store = open_store(url)
    a, lr = schema.attempts, schema.learners
    with store.db.engine.connect() as conn:
        in_class = a.c.learner_id.in_(sa.select(lr.c.id).where(lr.c.class_code == new.code))
        rows = conn.execute(sa.select(sa.func.count()).select_from(a).where(in_class)).scalar()
        distinct = conn.execute(sa.select(sa.func.count(sa.distinct(a.c.attempt_id)))
                                .where(in_class)).scalar()
    store.close()
    rows, distinct = int(rows or 0), int(distinct or 0)
    lost = unique - distinct
    doubled = rows - distinct
    ms = [1000 * t for t in times]
    print(f"database:            {sa.make_url(url).render_as_string(hide_password=True)}")
    resent = f", every {args.resend}th sent twice" if args.resend else ""
    print(f"learners:            {args.learners} processes, {args.attempts} answers each"
          f"{resent}")
    print(f"attempts sent:       {sent} ({unique} distinct)")
    print(f"rows stored:         {rows}")
    print(f"lost:                {lost}")
    print(f"doubled:             {doubled}")
    print(f"retries (busy):      {retries}")
    print(f"time to store (ms):  p50 {statistics.median(ms):.1f}  "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f}  max {ms[-1]:.1f}")
    print(f"wall time:           {wall:.2f} s ({sent / wall:.0f} attempts/s)")
    return 0 if lost == 0 and doubled == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""``crazylab class ...``: make and manage classes on the server (the database of
:func:`crazylab.classroom.open_store`, or ``--db URL``).

    crazylab class create "Year 8"          # prints the class code and the teacher key
    crazylab class list
    crazylab class export CODE --key KEY --what attempts --out attempts.csv
    crazylab class import CODE --key KEY progress.json ...
    crazylab class reset CODE --key KEY --confirm CODE

``--key`` may be left out when ``$CRAZYLAB_TEACHER_KEY`` holds it (a key on the command line
shows in the process list). Every refusal is one line on stderr and exit 1; nothing changed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from .records import EXPORTS

KEY_ENV = "CRAZYLAB_TEACHER_KEY"


def add_class_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``crazylab class`` (create, list, export, import, reset) to ``subparsers``."""
    p = subparsers.add_parser("class", help="make a class, list, export, import, reset",
                              description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="class_command", required=True)

    def command(name: str, help_: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help_)
        c.add_argument("--db", metavar="URL", default=None,
                       help="a SQLAlchemy URL or a SQLite file (default: $CRAZYLAB_DB, else "
                            "$CRAZYLAB_HOME/crazylab.db)")
        c.set_defaults(func=cmd_class)
        return c

    c = command("create", "make a class: prints its code (for learners) and teacher key")
    c.add_argument("name", help='the class name, e.g. "Year 8"')
    command("list", "list the classes and their number of learners")
    for name, help_ in (("export", "write a class's rows as CSV"),
                        ("import", "add learners' downloaded progress files to a class"),
                        ("reset", "delete every learner of a class and their records")):
        c = command(name, help_)
        c.add_argument("code", help="the class code")
        c.add_argument("--key", default=None,
                       help=f"the teacher key (default: ${KEY_ENV})")
        if name == "export":
            c.add_argument("--what", choices=EXPORTS, default="attempts")
            c.add_argument("--out", metavar="FILE.csv", default=None,
                           help="write here (default: standard output)")
        elif name == "import":
            c.add_argument("files", nargs="+", metavar="FILE.json")
        else:
            c.add_argument("--confirm", required=True, metavar="CODE",
                           help="the class code again, to confirm")
    return p


def cmd_class(args: argparse.Namespace) -> int:
    """Run one ``crazylab class`` command: 0 done, 1 refused (one line on stderr)."""
    from . import store as store_mod

    try:
        return _run(args, store_mod)
    except store_mod.ClassError as e:
        return _fail(args, str(e))


def _fail(args: argparse.Namespace, message: str) -> int:
    first = (message.strip().splitlines() or ["failed"])[0]
    print(f"crazylab class {args.class_command}: {first}", file=sys.stderr)
    return 1


def _run(args: argparse.Namespace, store_mod: Any) -> int:
    what = args.class_command
    key = None
    if what in ("export", "import", "reset"):
        key = args.key if args.key is not None else os.environ.get(KEY_ENV)
        if not key:
            return _fail(args, f"give the teacher key with --key KEY (or ${KEY_ENV})")
    if what == "import":
        files: list[tuple[str, dict]] = []
        for name in args.files:  # every file read and parsed before the first is stored
            try:
                files.append((name, json.loads(Path(name).read_text(encoding="utf-8"))))
            except OSError as e:
                return _fail(args, f"cannot read {name}: {e.strerror}")
            except (ValueError, UnicodeDecodeError) as e:
                return _fail(args, f"{name} is not a JSON file ({str(e)[:80]})")
    store = store_mod.open_store(args.db)
    try:
        if what == "create":
            new = store.create_class(args.name)
            print(f"class:        {new.name}")
            print(f"class code:   {new.code}    (give this to the learners)")
            print(f"teacher key:  {new.teacher_key}    (keep it secret: it opens the "
                  "dashboard, the export and the reset; it cannot be shown again)")
            print(f"database:     {store.db.url}")
        elif what == "list":
            found = store.classes()
            if not found:
                print(f"no classes yet in {store.db.url}")
            for c in found:
                print(f"{c.code}  {c.learners:4d} learners  {c.created_at:%Y-%m-%d}  {c.name}")
        elif what == "export":
            rows = store.export_rows(args.code, key, args.what)
            text = store_mod.rows_to_csv(rows, args.what)
            if args.out is None:
                sys.stdout.write(text)
            else:
                _write_atomically(Path(args.out), text)
                print(f"wrote {len(rows)} {args.what} rows to {args.out}")
        elif what == "import":
            total = 0
            for name, data in files:
                try:
                    total += store.import_progress(args.code, key, data)
                except store_mod.ClassError as e:
                    return _fail(args, f"{name}: {e} (the files before it were imported)")
            print(f"imported {len(files)} file(s): {total} new rows")
        elif what == "reset":
            deleted = store.reset_class(args.code, key, confirm=args.confirm)
            print(f"class {args.code} reset: {deleted} rows deleted")
    except OSError as e:
        return _fail(args, f"cannot write {args.out}: {e.strerror}; nothing was written")
    finally:
        store.close()
    return 0


def _write_atomically(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed into place)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

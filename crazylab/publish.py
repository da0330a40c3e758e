"""``crazylab serve`` and ``crazylab site``: publish a folder of notebooks, a teacher's own or
the repository's, from the installed package.

    crazylab serve FOLDER [--port 8866] [--ip 127.0.0.1]   # the class-ready Voilà server
    crazylab site FOLDER -o DIR                             # the static site (Pyodide, no server)
    crazylab tables [--db URL] [--port 8870]               # tables where learners play each other

``serve`` is :mod:`crazylab.web.serve` (a bound on kernels with a "busy, retry" page, kernels
of closed pages freed, preheated kernels, the seed secret, the offline ``crazylab`` template,
the package's class settings). ``site`` is :mod:`crazylab.site.build`: every notebook
of the folder as a page running in the visitor's browser. Bad arguments are one line on stderr
(exit 2) and nothing is started or written.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from .errors import CrazylabError, quote


class PublishError(CrazylabError):
    """A folder, port or output ``crazylab serve``/``site`` cannot use."""


def add_publish_parsers(subparsers: Any) -> None:
    """Add ``crazylab serve`` and ``crazylab site`` to an argparse subparsers object."""
    p = subparsers.add_parser(
        "serve", help="serve a folder of notebooks to a class (Voilà, the crazylab template)",
        description="Serve FOLDER's notebooks with Voilà, ready for a class: a bound on "
                    "kernels with a 'busy, retry' page, kernels of closed pages freed within "
                    "seconds, preheated kernels, a secret for seeded links (set "
                    "$CRAZYLAB_SECRET to keep it across restarts) and the offline crazylab "
                    "template. A voila.json in the current folder overrides the class "
                    "settings. Needs crazylab[jupyter].")
    p.add_argument("folder", help="the folder of notebooks (its index.ipynb is the landing page)")
    p.add_argument("--port", type=int, default=8866, help="the port (default: 8866)")
    p.add_argument("--ip", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1; 0.0.0.0 for every one)")
    p.add_argument("--allow-class-creation", action="store_true",
                   help="let the teacher page's visitors make classes (off: classes are made "
                        "with `crazylab class create`)")
    _tls_arguments(p)
    p.set_defaults(func=cmd_serve)
    p = subparsers.add_parser(
        "site", help="build the static site of a folder of notebooks (runs in the browser)",
        description="Build a static web site of FOLDER's notebooks: each a page whose Python "
                    "runs in the visitor's browser (Voici, JupyterLite's Pyodide kernel), "
                    "every file served from the site. Any static web host serves DIR. Needs "
                    "crazylab[site], node and npm (Pyodide's runtime comes from npm, fetched "
                    "once into a cache), and PyPI for the browser's wheels.")
    p.add_argument("folder", help="the folder of notebooks (*.ipynb; index.ipynb is the "
                                  "landing page if there is one)")
    p.add_argument("-o", "--output", required=True, type=Path, help="the site's folder "
                   "(replaced)")
    p.add_argument("--work", type=Path, default=None,
                   help="a folder for work files (default: DIR's sibling DIR.build)")
    p.add_argument("--node-modules", type=Path, default=None,
                   help="a node_modules holding pyodide and @fortawesome/fontawesome-free "
                        "(default: $CRAZYLAB_SITE_NODE_MODULES, the checkout's "
                        "site/node_modules, else ~/.cache/crazylab/site, fetched by npm ci)")
    p.set_defaults(func=cmd_site)
    add_tables_parser(subparsers)


def add_tables_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``crazylab tables`` (issue 23) to an argparse subparsers object."""
    p = subparsers.add_parser(
        "tables", help="serve tables where learners play each other (one service for a hub)",
        description="Serve the tables for people alone: learners create and join tables from "
                    "their browsers at http://HOST:PORT/crazylab/tables/, every move checked "
                    "here and stored in the database, so a restarted service resumes every "
                    "table. On one machine `make app` serves them already; on a JupyterHub run "
                    "this once, e.g. crazylab tables --db postgresql://... --host 0.0.0.0. "
                    "Needs crazylab[jupyter] (tornado).")
    p.add_argument("--db", default=None, metavar="URL",
                   help="the database's SQLAlchemy URL (default: $CRAZYLAB_DB, else the class "
                        "store's own file)")
    p.add_argument("--port", type=int, default=8870, help="the port (default: 8870)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1; 0.0.0.0 for every one)")
    p.add_argument("--delay", type=float, default=0.7,
                   help="seconds between bot moves (default: 0.7)")
    p.add_argument("--behind-proxy", action="store_true",
                   help="take each client's address from the proxy's X-Forwarded-For (behind "
                        "a JupyterHub proxy: the join limits then count per learner)")
    p.add_argument("--retire-after", type=float, default=7.0, metavar="DAYS",
                   help="retire a table unchanged for DAYS days (finished or abandoned): it "
                        "is deleted and not replayed at a start (default: 7)")
    p.add_argument("--hub", action="store_true",
                   help="run as a JupyterHub service: learners and teachers are who the hub "
                        "says (a kernel's or page's hub token, checked with the hub); needs "
                        "the environment JupyterHub gives a service")
    p.add_argument("--teacher-group", default="teachers", metavar="GROUP",
                   help="with --hub: the hub group whose members (and the hub's admins) are "
                        "teachers and may make classes (default: teachers)")
    p.add_argument("--allow-class-creation", action="store_true",
                   help="let any visitor make a class (off: classes are made with `crazylab "
                        "class create`, or by a hub teacher)")
    _tls_arguments(p)
    p.set_defaults(func=cmd_tables)
    return p


def _tls_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--certfile", default=None, metavar="PEM",
                   help="serve HTTPS with this certificate (PEM); on a class network, so keys "
                        "and tokens do not cross it in clear")
    p.add_argument("--keyfile", default=None, metavar="PEM",
                   help="the certificate's private key (PEM), if not in --certfile")


def _tls_problem(args: argparse.Namespace) -> str | None:
    """Why the TLS files cannot be used (``None`` when they can, or none is given)."""
    certfile, keyfile = getattr(args, "certfile", None), getattr(args, "keyfile", None)
    if keyfile and not certfile:
        return "--keyfile needs --certfile"
    if not certfile:
        return None
    import ssl

    from .web.tls import tls_context

    try:
        tls_context(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        return f"cannot use the certificate {certfile!r}: {e}"
    return None


def cmd_tables(args: argparse.Namespace) -> int:
    """Run the tables' server until interrupted (2: a bad command line or a missing layer)."""
    if not 0 < args.port < 65536:
        print(f"crazylab tables: --port must be 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    if not 0 <= args.delay <= 5:
        print(f"crazylab tables: --delay must be 0 to 5 seconds, not {args.delay}",
              file=sys.stderr)
        return 2
    try:
        from .web import tables_api as server
    except ImportError as e:
        print(f"crazylab tables: needs the Jupyter layer ({e.name} is missing): "
              "pip install 'crazylab[jupyter]'", file=sys.stderr)
        return 2
    problem = _tls_problem(args)
    retire_days = getattr(args, "retire_after", 7.0)
    if not 0 < retire_days <= 3650:
        problem = f"--retire-after must be more than 0 and at most 3650 days, not " \
                  f"{retire_days}"
    if problem:
        print(f"crazylab tables: {_clip(problem)}", file=sys.stderr)
        return 2
    warning = plain_http_warning("tables", args.host)
    if warning and not args.behind_proxy and not getattr(args, "certfile", None):
        print(warning, file=sys.stderr)  # behind a proxy: it is the proxy that listens
    try:
        server.main(args.db, args.port, args.host, args.delay, args.behind_proxy,
                    hub=args.hub, teacher_group=args.teacher_group,
                    allow_classes=args.allow_class_creation,
                    certfile=getattr(args, "certfile", None),
                    keyfile=getattr(args, "keyfile", None),
                    retire_after=retire_days * 86400)
    except (CrazylabError, OSError, ValueError) as e:
        print(f"crazylab tables: {_clip(str(e))}", file=sys.stderr)
        return 1
    return 0



def plain_http_warning(command: str, host: str) -> str | None:
    """The warning for a server that other machines reach over plain HTTP (``None`` for this
    machine only): the teacher key and every learner's token would cross the network in
    clear."""
    if host in ("127.0.0.1", "localhost", "::1") or host.startswith("127."):
        return None
    return (f"crazylab {command}: WARNING: listening on {host} over plain HTTP: teacher keys "
            "and learners' tokens cross the network in clear. On a class network give it "
            "--certfile (and --keyfile), or put it behind HTTPS (a JupyterHub, or a reverse "
            "proxy with a certificate).")


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _folder(name: str) -> Path:
    folder = Path(name)
    if not folder.is_dir():
        raise PublishError(f"no such folder: {quote(name)}")
    return folder.resolve()


def _say(command: str, message: str) -> None:
    print(f"crazylab {command}: {message}", file=sys.stderr)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the class-ready Voilà on ``args.folder`` until interrupted."""
    try:
        folder = _folder(args.folder)
        if not 0 < args.port < 65536:
            raise PublishError(f"--port must be 1 to 65535, not {args.port}")
        try:
            from .web import serve
        except ImportError as e:
            raise PublishError(f"needs the Jupyter layer ({e.name} is missing): "
                               "pip install 'crazylab[jupyter]'") from None
    except PublishError as e:
        _say("serve", str(e))
        return 2
    problem = _tls_problem(args)
    if problem:
        _say("serve", _clip(problem))
        return 2
    warning = plain_http_warning("serve", args.ip)
    if warning and not getattr(args, "certfile", None):
        print(warning, file=sys.stderr)
    if getattr(args, "allow_class_creation", False):  # the kernels it starts read it
        os.environ["CRAZYLAB_ALLOW_CLASS_CREATION"] = "1"
    tls = ([f"--CrazylabVoila.certfile={args.certfile}"] if getattr(args, "certfile", None)
           else []) + ([f"--CrazylabVoila.keyfile={args.keyfile}"]
                       if getattr(args, "keyfile", None) else [])
    serve.main([str(folder), f"--port={args.port}", f"--Voila.ip={args.ip}", "--no-browser",
                "--Voila.port_retries=0", "--show_tracebacks=False", *tls])
    return 0


def cmd_site(args: argparse.Namespace) -> int:
    """Build the static site of ``args.folder`` into ``args.output``."""
    try:
        folder = _folder(args.folder)
        if not any(folder.glob("*.ipynb")):
            raise PublishError(f"{quote(args.folder)} holds no notebook (*.ipynb)")
        output = args.output.resolve()
        if output == folder or folder.is_relative_to(output):
            raise PublishError("the output folder would replace the notebooks' folder")
        from .site import build as site_build
    except PublishError as e:
        _say("site", str(e))
        return 2
    work = (args.work or output.with_name(output.name + ".build")).resolve()
    try:
        site_build.build_folder(folder, output, work, node_modules=args.node_modules)
    except site_build.SiteError as e:
        _say("site", str(e))
        return 1
    return 0

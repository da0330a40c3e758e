"""Serve the dashboards to a class: Voilà with a bound on kernels, fast culling and a template
that needs nothing from the internet.

    crazylab serve FOLDER --port 8866                           # a teacher's own folder
    python -m crazylab.web.serve notebooks --port=8866      # what `make app` runs

On top of plain Voilà (every option of ``voila`` works here too):

* **a bound on kernels** (``--CrazylabVoila.max_kernels=40``): past it a visitor gets a short
  "busy, retry in N s" page (HTTP 503, ``Retry-After``) that reloads itself, instead of a
  kernel that would slow everybody down;
* **at most ``max_starting`` kernels boot at once** (others queue), so a burst of visitors
  does not thrash two cores;
* **a closed page frees its kernel within seconds**: Voilà's page sends a shutdown beacon on
  ``beforeunload``; the ``crazylab`` template adds one on ``pagehide`` (mobile browsers), and
  a watcher shuts down any kernel whose page disconnected ``disconnect_grace`` seconds ago.
  Abandoned open tabs are culled by Jupyter's idle culler (``cull_idle_timeout``,
  ``cull_connected`` in ``voila.json``);
* **kernels only for visitors, told apart by what they do**: the page's own script announces
  itself (a tiny POST, sent as soon as the browser reads the page's first lines, long before
  the heavy front end loads). A page request that never announces itself (a link checker, a
  chat link preview, a prefetching browser: none runs the page's script) gives its kernel
  back ``claim_grace`` seconds after its page was sent, and at the bound such kernels make
  room for the next visitor (after ``evict_after`` seconds) instead of the visitor being
  turned away. An announced page is a visitor however busy the machine is: its kernel waits
  ``visitor_grace`` seconds for the websocket (a class arriving at once on two cores takes
  a minute or more to connect), and is never evicted to make room;
* **the ``crazylab`` template**: Voilà's ``lab`` template without its Font Awesome CDN links,
  with a ``main`` landmark, a page that scrolls itself, and a watchdog that draws a widget
  that could not be drawn again in place (its model fetched anew), reloading the page only
  as a last resort; a notice when the page's kernel is gone;
* **a server secret for seeded links** (``CRAZYLAB_SECRET``): set it to keep ``?seed=``
  links dealing the same cards across restarts; otherwise each start draws a new one.

The class settings (the preheated pool, culling, the bound; the repository's ``voila.json``) ship
with the package as ``serve_config.json`` and are the defaults here: a ``voila.json`` in the
folder Voilà starts from, or a command-line option, overrides them.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import math
import os
import secrets
import sys
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import APIHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Float, Int, Unicode
from traitlets.config import Config
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

TEMPLATES = Path(__file__).parent / "jupyter"  # holds voila/templates/crazylab/ (a checkout)
#: the class settings every `crazylab serve` starts from (package data)
SETTINGS = Path(__file__).parent / "serve_config.json"
SECRET_ENV = "CRAZYLAB_SECRET"
PREHEAT_ENV = "VOILA_PREHEAT"
KERNEL_ID = r"(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)"  # as Voilà's own routes match one

#: the page request being served in this task: the kernel it starts or takes is noted on it
_PAGE: contextvars.ContextVar[PageHandler | None] = contextvars.ContextVar("crazylab_page",
                                                                         default=None)


class KernelsFull(web.HTTPError):
    """Raised instead of starting a kernel past the bound; the page handler turns it into
    the "busy, retry" page."""

    def __init__(self, running: int, retry: int) -> None:
        super().__init__(503, "kernel bound reached")
        self.running, self.retry = running, retry


class BoundedKernelManager(AsyncMappingKernelManager):
    """Refuses to start a kernel for a visitor past ``max_kernels`` (unless a kernel whose
    page was sent ``evict_after`` seconds ago and never connected can make room) and lets at
    most ``max_starting`` kernels boot at a time (preheated pool kernels are not refused)."""

    max_kernels = Int(40, config=True, help="Most kernels at once (pool kernels included).")
    max_starting = Int(4, config=True, help="Most kernels booting at once; others wait.")
    retry_after = Int(15, config=True, help="Seconds the busy page waits before retrying.")
    evict_after = Float(10.0, config=True,
                        help="At the bound, a kernel whose page was sent this many seconds "
                             "ago and never connected is shut down for the next visitor.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._starting = 0
        self._gate: asyncio.Semaphore | None = None
        self.preheated: set[str] = set()  # started for Voilà's pool
        self.claimed: set[str] = set()  # pool kernels a page has taken
        self.page_sent: dict[str, float] = {}  # kernel id -> when its page was sent whole
        self.connected: set[str] = set()  # kernels a page's websocket has reached
        self.announced: dict[str, float] = {}  # kernel id -> when its page's script said hello

    def is_connected(self, kernel_id: str) -> bool:
        """A page's websocket is (or was) on this kernel."""
        if kernel_id in self.connected:
            return True
        try:
            now = bool(self.kernel_model(kernel_id)["connections"])
        except Exception:  # gone meanwhile
            return False
        if now:
            self.connected.add(kernel_id)
        return now

    def announce(self, kernel_id: str) -> bool:
        """The page of ``kernel_id`` ran its script in a browser: a visitor, not a plain
        GET. False if no such kernel runs."""
        if kernel_id not in self.list_kernel_ids():
            return False
        self.announced.setdefault(kernel_id, time.monotonic())
        return True

    def unclaimed_pages(self, older_than: float) -> list[str]:
        """Kernels whose page was sent at least ``older_than`` seconds ago and that neither
        announced itself nor was reached by a websocket, the oldest first."""
        now = time.monotonic()
        alive = set(self.list_kernel_ids())
        return [k for k, sent in sorted(self.page_sent.items(), key=lambda kv: kv[1])
                if k in alive and now - sent >= older_than and k not in self.announced
                and not self.is_connected(k)]

    def seconds_until_room(self) -> int:
        """The busy page's wait: until the oldest page-sent, never-connected kernel can make
        room (``retry_after`` when there is none)."""
        waiting = self.unclaimed_pages(0.0)
        if not waiting:
            return self.retry_after
        age = time.monotonic() - self.page_sent[waiting[0]]
        return max(1, min(self.retry_after, math.ceil(self.evict_after - age)))

    def forget(self, kernel_id: str) -> None:
        self.page_sent.pop(kernel_id, None)
        self.announced.pop(kernel_id, None)
        self.connected.discard(kernel_id)
        self.preheated.discard(kernel_id)
        self.claimed.discard(kernel_id)

    # jupyter_client types the base's shutdown_kernel as the sync wrapper; this manager's is
    # async, as AsyncMultiKernelManager's is at run time
    async def shutdown_kernel(  # type: ignore[override]
            self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        try:
            await super().shutdown_kernel(kernel_id, *args, **kwargs)
        finally:
            self.forget(kernel_id)

    async def _make_room(self) -> bool:
        """Shut down the oldest kernel nobody's page connected to; False if there is none."""
        for kernel_id in self.unclaimed_pages(self.evict_after):
            self.log.info("crazylab: room is full; kernel %s never met its page, shutting "
                          "it down for a new visitor", kernel_id)
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception as e:  # already gone: the room is made all the same
                self.log.debug("crazylab: shutdown of %s: %s", kernel_id, e)
            return True
        return False

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        env = kwargs.get("env") or {}
        for_visitor = env.get(PREHEAT_ENV) != "True"
        running = len(self.list_kernel_ids()) + self._starting
        if for_visitor and running >= self.max_kernels and not await self._make_room():
            self.log.warning("crazylab: %d kernels running, refusing a new one", running)
            raise KernelsFull(running, self.seconds_until_room())
        if self._gate is None:
            self._gate = asyncio.Semaphore(max(1, self.max_starting))
        self._starting += 1
        try:
            async with self._gate:
                kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        if for_visitor:
            note_page_kernel(kernel_id)
        else:  # a pool kernel waits for a page: the page that claims it notes it then
            self.preheated.add(kernel_id)
        return kernel_id

    def waiting_in_pool(self, kernel_id: str) -> bool:
        return kernel_id in self.preheated and kernel_id not in self.claimed

    def ready_in_pool(self, notebook: str) -> bool:
        """A pool kernel for ``notebook`` has rendered it and waits (Voilà's pool is a list
        of tasks per notebook; a pending one would make the visitor wait for its start)."""
        pool = getattr(self, "_pools", {}).get(notebook) or []
        return bool(pool) and pool[0].done() and not pool[0].cancelled() \
            and pool[0].exception() is None


BUSY_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{retry}">
<title>crazylab: busy, retrying in {retry} s</title>
<style>body{{font-family:"DejaVu Sans",Arial,sans-serif;max-width:36em;margin:3em auto;
padding:0 1em;line-height:1.5;color:#1b1b1b}}h1{{font-size:1.4em;color:#14532f}}</style>
</head><body><main>
<h1>The card room is full right now</h1>
<p role="status">{running} tables are in play on this server, its limit. This page
tries again by itself in <b>{retry} s</b>; you need not do anything.</p>
<p><a href="">Retry now</a></p>
</main></body></html>"""


def note_page_kernel(kernel_id: str) -> None:
    """Note ``kernel_id`` on the page request being served in this task (if any)."""
    page = _PAGE.get()
    if page is not None:
        page.kernel_ids.append(kernel_id)


class PageHandler(TornadoVoilaHandler):
    """Voilà's page handler; past the kernel bound it answers with the busy page. It also
    sets the ``_xsrf`` cookie, without which Voilà's shutdown beacon is refused (403) and a
    closed page's kernel lives on until culled, and notes when the page of each kernel was
    sent (the watcher's clock for pages that never connect)."""

    rendering = 0  # pages being rendered right now

    async def get(self, path: str | None = None) -> None:
        self.xsrf_token  # noqa: B018 - reading it sets the cookie the page's beacon sends
        self.kernel_ids: list[str] = []
        token = _PAGE.set(self)
        PageHandler.rendering += 1
        try:
            await super().get(path)
        finally:
            PageHandler.rendering -= 1
            _PAGE.reset(token)
            sent = getattr(self.kernel_manager, "page_sent", None)
            if sent is not None:
                for kernel_id in self.kernel_ids:
                    sent[kernel_id] = time.monotonic()

    def should_use_rendered_notebook(self, notebook_data: dict, pool_size: int,
                                     template_name: str, theme: str,
                                     request_args: dict) -> bool:
        """A preheated kernel serves a lone visitor at once; in a burst, waiting for the pool
        to refill is slower than starting kernels (and Voilà's pool misbehaves under load),
        so visitors beyond the ready pool kernels get a fresh kernel."""
        km = self.kernel_manager
        path = self.request.path.split("/voila/render/", 1)[-1]
        ready = getattr(km, "ready_in_pool", None)
        if ready is not None and (PageHandler.rendering > 1 or not ready(path)):
            return False
        return bool(super().should_use_rendered_notebook(
            notebook_data, pool_size, template_name, theme, request_args))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, KernelsFull):
            self.set_status(503)
            self.set_header("Retry-After", str(exc.retry))
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(BUSY_PAGE.format(retry=exc.retry, running=exc.running))
            return
        super().write_error(status_code, **kwargs)


class PageHelloHandler(APIHandler):
    """``POST /crazylab/page/<kernel id>/hello``: the page's script announces itself (sent
    with the page's ``_xsrf`` cookie value, as Voilà's shutdown beacon is). 204, or 404 for a
    kernel that does not run (its page should load again)."""

    @web.authenticated
    async def post(self, kernel_id: str) -> None:
        announce = getattr(self.kernel_manager, "announce", None)
        if announce is None or not announce(kernel_id):
            raise web.HTTPError(404, "no such kernel")
        self.set_status(204)
        self.finish()


class CrazylabVoila(Voila):
    """Voilà for a class: see the module's docstring."""

    name = "crazylab-voila"
    disconnect_grace = Float(5.0, config=True,
                             help="Seconds a kernel may live after its page disconnected.")
    claim_grace = Float(45.0, config=True,
                        help="Seconds a kernel may wait for its page to connect, counted "
                             "from when the page was sent whole.")
    visitor_grace = Float(600.0, config=True,
                          help="Seconds a kernel whose page announced itself (a browser ran "
                               "its script) may wait for the page's websocket.")
    render_limit = Float(900.0, config=True,
                         help="Seconds a kernel may live unconnected while its page is "
                              "still being rendered (a stuck render).")
    watch_every = Float(1.0, config=True, help="Seconds between checks of the kernels.")
    certfile = Unicode("", config=True,
                       help="A TLS certificate (PEM): serve HTTPS (Voilà itself serves plain "
                            "HTTP only).")
    keyfile = Unicode("", config=True, help="The certificate's private key (PEM), if apart.")

    def listen(self) -> None:
        """Voilà's listen, over TLS when a certificate is given."""
        if self.certfile:
            from .tls import tls_context

            context = tls_context(self.certfile, self.keyfile or None)
            plain = self.app.listen
            self.app.listen = (  # type: ignore[method-assign]
                lambda port, address="", **kw: plain(port, address, ssl_options=context, **kw))
        super().listen()

    def init_settings(self) -> dict:
        """Voilà's settings with the bounded kernel manager; pool kernels a page takes are
        marked as claimed (the watcher leaves unclaimed pool kernels alone)."""
        if self.voila_configuration.multi_kernel_manager_class is AsyncMappingKernelManager:
            self.voila_configuration.multi_kernel_manager_class = BoundedKernelManager
        settings = super().init_settings()
        km = self.kernel_manager
        take = getattr(km, "get_rendered_notebook", None)
        if take is not None and isinstance(km, BoundedKernelManager):
            async def claim(*args: Any, **kwargs: Any) -> Any:
                task, cache, kernel_id = await take(*args, **kwargs)
                km.claimed.add(kernel_id)
                # its page is being sent now: no clock from an earlier page applies to it
                km.page_sent.pop(kernel_id, None)
                note_page_kernel(kernel_id)
                return task, cache, kernel_id

            km.get_rendered_notebook = claim
        return settings

    def init_handlers(self) -> list:
        handlers = []
        for spec in super().init_handlers():
            if len(spec) >= 2 and spec[1] is TornadoVoilaHandler:
                spec = (spec[0], PageHandler, *spec[2:])
            handlers.append(spec)
        self._seen: dict[str, list[Any]] = {}  # kernel id -> [first seen, ever connected, lost]
        PeriodicCallback(self._watch_kernels, self.watch_every * 1000).start()
        from .class_api import handlers as class_handlers  # the class's routes (issue 22)
        from .tables_api import handlers as tables_handlers  # tables for people (issue 23)

        tables = tables_handlers(self.server_url)
        IOLoop.current().add_callback(tables[0][2]["hub"].start)  # every table resumes
        hello = [(url_path_join(self.server_url, "/crazylab/page/" + KERNEL_ID + "/hello"),
                  PageHelloHandler)]
        return hello + class_handlers(self.server_url) + tables + handlers

    async def _watch_kernels(self) -> None:
        """Shut down kernels whose page went away, or never connected once it was sent."""
        km, now = self.kernel_manager, time.monotonic()
        alive = set(km.list_kernel_ids())
        pooled = {k for k in alive if getattr(km, "waiting_in_pool", lambda _k: False)(k)}
        page_sent: dict[str, float] = getattr(km, "page_sent", {})
        announced: dict[str, float] = getattr(km, "announced", {})
        for kid in list(self._seen):
            if kid not in alive:
                del self._seen[kid]
        for kid in alive - pooled:
            seen = self._seen.setdefault(kid, [now, False, None])
            try:
                connections = km.kernel_model(kid)["connections"]
            except Exception:
                continue
            if connections:
                seen[1], seen[2] = True, None
                getattr(km, "connected", set()).add(kid)
                continue
            if seen[1]:
                seen[2] = seen[2] or now
                stale = now - seen[2] > self.disconnect_grace
            elif kid in announced:  # a visitor's browser, still loading the page
                stale = now - announced[kid] > self.visitor_grace
            elif kid in page_sent:
                stale = now - page_sent[kid] > self.claim_grace
            else:
                stale = now - seen[0] > self.render_limit
            if stale:
                self.log.info("crazylab: shutting down kernel %s (no page)", kid)
                del self._seen[kid]
                try:
                    await km.shutdown_kernel(kid)
                except Exception as e:  # already gone
                    self.log.debug("crazylab: shutdown of %s: %s", kid, e)


def prepare_environment(environ: MutableMapping[str, str] | None = None
                        ) -> MutableMapping[str, str]:
    """The settings every kernel inherits: the seed secret (random unless the teacher set
    one), plotly's renderer, that the tables for people are served, and, run from a checkout,
    the template's folder on the Jupyter path (an installed crazylab has it in Jupyter's data
    folder: share/jupyter/voila/templates)."""
    env = os.environ if environ is None else environ
    env.setdefault(SECRET_ENV, secrets.token_hex(16))
    env.setdefault("PLOTLY_RENDERER", "plotly_mimetype")
    env["CRAZYLAB_TABLES"] = "1"  # the index links the tables for people (served here too)
    paths = [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if (TEMPLATES / "voila" / "templates" / "crazylab").is_dir() and str(TEMPLATES) not in paths:
        env["JUPYTER_PATH"] = os.pathsep.join([str(TEMPLATES), *paths])
    return env


def class_settings() -> Config:
    """The package's class settings (``serve_config.json``) as traitlets config."""
    return Config(json.loads(SETTINGS.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> None:
    """Start the class-ready Voilà: the package's settings first, then ``voila.json`` files
    and the command line (``argv``: any ``voila`` arguments)."""
    prepare_environment()
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a.startswith("--template") for a in args):
        args.append("--template=crazylab")
    CrazylabVoila.launch_instance(args, config=class_settings())


if __name__ == "__main__":
    main()

"""Tables for people over HTTP and websockets: the game lives in one server, each browser gets
only what its seat may see.

Mounted by ``crazylab.web.serve.CrazylabVoila`` beside the class API, and served alone
by ``crazylab tables --db URL --port N``. Routes under ``<base>crazylab/tables/`` (the wire of
issue 23; every body is JSON of at most 16 KB, every error ``{"error": "<one line>"}``):

* ``POST api/create`` ``{"rules", "options", "seats", "name"}`` -> ``{"code", "seat",
  "token", "link"}``; ``POST api/join`` ``{"code", "name"}`` -> ``{"code", "seat", "token"}``;
  ``POST api/seat`` ``{"token"}`` -> the seat of a token (a reloaded page);
  ``POST api/bot`` ``{"token", "seat", "level"}``, ``api/start`` and ``api/new_hand``
  ``{"token"}`` -> ``{"ok": true}`` (the host's);
* the class tournament (``X-Crazylab-Key``: the class's teacher key): ``POST api/tournament``,
  ``POST api/tournament/<id>/round``, ``GET api/tournament/<id>`` (standings),
  ``GET api/tournament/<id>/seat?player=`` (``X-Crazylab-Token``: the player's tournament
  token), ``GET api/tournament/<id>/standings.csv``;
* ``GET api/tables`` (``X-Crazylab-Key``): every table's public state (the teacher's overview);
* the pages: the lobby (``crazylab/tables/``), a table ``t/<code>``, a spectator's
  ``watch/<code>``, the teacher's overview of every table ``watch/``, ``tournament/<id>``,
  and ``static/<file>`` (only the table's and the pages' own files);
* the websocket ``ws/<code>``: the first message says who is there (``{"hello": {"token"}}``
  a seat, ``{"hello": {"watch": "<teacher key>"}}`` a spectator). A seat's socket gets
  ``welcome``, ``lobby`` and ``steps`` messages built from ITS ``table_seat.SeatView``
  (never another seat's), a spectator's ``public`` frames only. A browser's action (``card``,
  ``move``, ``choose``, ``cancel``, ``sync``, ``new_hand``) is checked by its SeatView, then
  by the service against the version it was last sent; a refusal answers that socket only.

Statuses: 400 bad input, 403 a bad token, an unknown code or a wrong key (alike: nothing tells
a guesser whether a code exists), 409 a full table or a stale move, 429 too many requests
(``Retry-After``), 503 the database is unavailable. Responses are ``Cache-Control: no-store``
(static files ``no-cache``: always checked, never stale). Tokens travel in bodies, headers and
the websocket's first message, never in URLs or cookies.

One ``TableService`` (``crazylab.tables``) per server, opened on first use (restored from its
database: a restarted server resumes every table, its bots included). The service's calls run
in threads; the calls of one table run one at a time (an asyncio lock), so its frames are
built from a match that nothing changes meanwhile. Bots move here, ``delay`` seconds apart,
one move per ``steps`` message, so every browser sees each move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
from collections.abc import Callable
from typing import Any

from tornado import web, websocket
from tornado.ioloop import IOLoop, PeriodicCallback
from tornado.log import gen_log

from crazylab.store.limits import Window

from .class_api import ApiError, JsonApiHandler, StoreHolder
from .pages import PAGES, FileHandler

TABLES_PREFIX = "crazylab/tables/"
BODY_LIMIT = 16 * 1024
MESSAGE_LIMIT = 4 * 1024  # a browser's websocket message
#: the lines of a table's public log the teacher's overview shows
OVERVIEW_LOG = 3
BOT_DELAY = 0.7
HELLO_TIMEOUT = 10.0  # seconds a socket may wait before saying who it is
PING_INTERVAL = 20.0  # seconds between pings (unless the server's settings say)
RETRY_AFTER = 5
REVIEWS_AT_ONCE = 2
#: wrong teacher keys (or codes no table of the key's class has) an address may send a minute
KEY_FAILURES_PER_MINUTE = 10
#: the one answer to a wrong key and to a code that is no table of the key's class
NOT_YOURS = "wrong teacher key, or no table of its class has this code"
#: seconds between two retirements of quiet tables
RETIRE_EVERY = 3600.0
TOKEN_HEADER = "X-Crazylab-Token"
KEY_HEADER = "X-Crazylab-Key"
ACTIONS = ("card", "move", "choose", "cancel", "sync", "new_hand")

ServiceFactory = Callable[[], Any]


def default_factory(url: str | None = None, **options: Any) -> ServiceFactory:
    """A factory restoring the table service of ``url`` (``None``: ``$CRAZYLAB_DB``, else the
    class store's default database); ``options``: the service's (``retire_after``)."""
    def open_service() -> Any:
        from crazylab.tables import TableService

        return TableService.restore(url or os.environ.get("CRAZYLAB_DB") or None, **options)

    return open_service


def error_status(error: Exception) -> tuple[int, str, float | None]:
    """The HTTP status, one-line message and Retry-After of a service's refusal."""
    from crazylab import tables

    message = (str(error).splitlines() or ["refused"])[0][:200]
    if isinstance(error, tables.RateLimited):
        return 429, message, max(1.0, math.ceil(float(error.retry_after)))
    if isinstance(error, tables.UnknownTable | tables.BadToken | tables.NotHost):
        return 403, message, None
    if isinstance(error, tables.TableFull | tables.StaleMove | tables.NotYourTurn):
        return 409, message, None
    return 400, message, None


#: the addresses of a proxy on this machine, the only one whose ``X-Forwarded-For`` counts
LOOPBACK = frozenset({"127.0.0.1", "::1"})


class TablesHub:
    """The server's side of every table: the service, the open sockets per table, the bots'
    timers. It lives on the IOLoop's thread; the service's writes run in threads."""

    def __init__(self, factory: ServiceFactory | None = None, *, delay: float = BOT_DELAY,
                 store: StoreHolder | None = None, behind_proxy: bool = False,
                 identity: Any = None, review_hands: bool = True) -> None:
        self.factory = factory or default_factory()
        #: a class's tables have each finished hand reviewed for the teacher (:meth:`review_soon`)
        self.review_hands = review_hands
        self.delay = delay
        #: on a JupyterHub, who a request's hub token belongs to (``web.hub.HubIdentity``)
        self.identity = identity
        #: wrong teacher keys and unknown codes per address: alike, and limited
        self.key_failures = Window(KEY_FAILURES_PER_MINUTE, 60.0, "wrong keys or codes",
                                   lambda message, wait: TableRefusal(429, message, wait))
        #: clients come through a proxy on this machine (a hub's): their address is the one
        #: it appends to ``X-Forwarded-For``
        self.behind_proxy = behind_proxy
        self.store = store or StoreHolder()
        self._service: Any = None
        self._opening: asyncio.Future[Any] | None = None
        self.sockets: dict[str, set[TableSocket]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._unsubscribe: dict[str, Callable[[], None]] = {}
        self._timers: dict[str, tuple[float, object]] = {}
        self._sent: dict[str, tuple[int, Any]] = {}  # code -> (version, lobby) pushed
        self.delays: dict[str, float] = {}  # a table's own bot delay (``?delay=``)
        #: hands reviewed at once (each is seconds of CPU; the rest wait their turn)
        self.reviewing = asyncio.Semaphore(REVIEWS_AT_ONCE)
        self._reviewing: set[str] = set()  # tables whose hand is being reviewed
        self._not_before: dict[str, float] = {}  # no bot turn before (a turn found none)
        self._loop: IOLoop | None = None
        self._retiring: PeriodicCallback | None = None
        self.closed = False

    # -- the service ------------------------------------------------------------------------

    async def service(self) -> Any:
        """The table service, opened (restored) on first use; its tables are watched."""
        if self._service is not None:
            return self._service
        if self._opening is None:
            self._loop = IOLoop.current()
            self._opening = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._opening)

    async def start(self) -> None:
        """Open the service now (a server's start: every table resumes, its bots moving); a
        database that cannot be opened is logged, and each request says so (503)."""
        try:
            await self.service()
        except Exception as e:
            import logging

            logging.getLogger("crazylab.tables").warning(
                "crazylab tables: the tables database is unavailable (%s)", e)

    async def _open(self) -> Any:
        try:
            service = await asyncio.get_running_loop().run_in_executor(None, self.factory)
        except Exception:
            self._opening = None
            raise
        self._service = service
        for code in service.tables():
            self.watch(code)
            await self.push(code)
        self._retiring = PeriodicCallback(self.retire, RETIRE_EVERY * 1000)
        self._retiring.start()
        return service

    async def retire(self) -> list[str]:
        """Retire the quiet tables (``TableService.retire``) and forget their timers."""
        if self._service is None or self.closed:
            return []
        codes = await asyncio.get_running_loop().run_in_executor(None, self._service.retire)
        loop = IOLoop.current()
        for code in codes:
            when = self._timers.pop(code, None)
            if when is not None:
                loop.remove_timeout(when[1])
            self._unsubscribe.pop(code, lambda: None)()
            for name in ("_sent", "delays", "_not_before", "_locks"):
                getattr(self, name).pop(code, None)
        return list(codes)

    async def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in a thread (a write: the database may be slow); the
        service's refusals as :class:`TableRefusal`."""
        from crazylab.errors import CrazylabError

        try:
            return await asyncio.get_running_loop().run_in_executor(
                None, lambda: fn(*args, **kwargs))
        except CrazylabError as e:
            raise refusal(e) from None

    def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` now (a read of the service's memory); refusals as TableRefusal."""
        from crazylab.errors import CrazylabError

        try:
            return fn(*args)
        except CrazylabError as e:
            raise refusal(e) from None

    def lock(self, code: str) -> asyncio.Lock:
        return self._locks.setdefault(code, asyncio.Lock())

    async def act(self, code: str, fn: Callable[[Any], Any]) -> Any:
        """``fn(service)`` for the table ``code`` in a thread (one call of a table at a
        time), then every socket of the table gets what changed and the bots are scheduled."""
        service = await self.service()
        async with self.lock(code):
            try:
                return await self.call(fn, service)
            finally:
                self.push_now(code)

    def watch(self, code: str) -> None:
        """Follow the table's changes made elsewhere (a tournament, another thread)."""
        if code in self._unsubscribe or self._service is None:
            return
        loop = self._loop or IOLoop.current()

        def changed(_version: int) -> None:
            if not self.closed:
                loop.add_callback(self.push, code)

        self._unsubscribe[code] = self._service.subscribe(code, changed)

    # -- frames -----------------------------------------------------------------------------

    async def push(self, code: str) -> None:
        """Send each socket of the table what changed since it was last sent anything."""
        if self._service is None or self.closed:
            return
        async with self.lock(code):
            self.push_now(code)

    def push_now(self, code: str) -> None:
        """:meth:`push` with the table's lock held: lobby changes to everyone, each seat its
        own steps, each spectator the public frame; then the bots' timer."""
        try:
            state = self.read(self._service.state, code)
        except TableRefusal:
            return  # no such table (a wrong code): nothing to push
        lobby = lobby_of(code, state)
        version, was = int(state.version), self._sent.get(code)
        self._sent[code] = (version, lobby)
        public = None
        for sock in list(self.sockets.get(code, ())):
            try:
                if not sock.watcher:  # first: a table that started comes in a welcome
                    sock.frame(state)
                if was is not None and was[1] != lobby:
                    sock.send({"type": "lobby", **lobby})
                if sock.watcher and sock.version != version:
                    if public is None:
                        public = self.read(self._service.public, code)
                    sock.version = version
                    sock.send({"type": "public", **public, "version": version})
            except websocket.WebSocketClosedError:
                self.left(sock)
        self.schedule_bots(code)
        if state.match.game.over and self.review_hands:
            self.review_soon(code)

    def review_soon(self, code: str) -> None:
        """A hand ended: a class's table has its learners' seats reviewed in the background
        (a few at a time), so the teacher's tally has every hand and a learner's "Review my
        hand" answers at once."""
        if code in self._reviewing or self.closed or self._service is None:
            return
        self._reviewing.add(code)
        service = self._service

        async def run() -> None:
            try:
                for seat in await self.call(service.reviews_due, code):
                    async with self.reviewing:
                        if not self.closed:
                            await self.call(service.review_seat, code, seat)
            except Exception as e:  # noqa: BLE001 - a retired table, a database away
                gen_log.warning("crazylab tables: table %s's review failed: %s", code, e)
            finally:
                self._reviewing.discard(code)

        asyncio.ensure_future(run())

    # -- bots ---------------------------------------------------------------------------------

    def bot_delay(self, code: str) -> float:
        return self.delays.get(code, self.delay)

    def schedule_bots(self, code: str) -> None:
        """A due bot moves after the table's delay; a learner gone from their turn is played
        once they have been gone the service's ``idle_after``."""
        if self.closed or self._service is None:
            return
        try:
            due = self.read(self._service.next_bot, code)
        except TableRefusal:
            return
        if due is None:
            return
        loop = IOLoop.current()
        when = max(loop.time() + (self.bot_delay(code) if due <= 0 else float(due)),
                   self._not_before.get(code, 0.0))
        pending = self._timers.get(code)
        if pending is not None:
            if pending[0] <= when:
                return
            loop.remove_timeout(pending[1])
        self._timers[code] = (when, loop.call_at(when, self._bot_turn, code))

    async def _bot_turn(self, code: str) -> None:
        """One bot move (one ``steps`` message each), then the next is scheduled."""
        self._timers.pop(code, None)
        if self.closed:
            return
        service = await self.service()
        async with self.lock(code):
            try:
                played = bool(await self.call(service.bot_step, code))
            except TableRefusal:
                played = False
            # no move after all (a learner came back meanwhile): not again at once
            self._not_before[code] = 0.0 if played else IOLoop.current().time() + 0.25
            self.push_now(code)

    # -- sockets ------------------------------------------------------------------------------

    def joined(self, sock: TableSocket) -> None:
        self.sockets.setdefault(sock.code, set()).add(sock)

    def left(self, sock: TableSocket) -> None:
        self.sockets.get(sock.code, set()).discard(sock)

    def seated(self, code: str, token: str) -> bool:
        """A socket of this seat is open (a second tab)."""
        return any(s.token == token for s in self.sockets.get(code, ()))

    def close(self) -> None:
        """Stop the timers, close the sockets and the service (a test's or a server's end)."""
        self.closed = True
        if self._retiring is not None:
            self._retiring.stop()
        loop = IOLoop.current()
        for _when, handle in self._timers.values():
            loop.remove_timeout(handle)
        self._timers.clear()
        for unsubscribe in self._unsubscribe.values():
            with contextlib.suppress(Exception):
                unsubscribe()
        for socks in self.sockets.values():
            for sock in list(socks):
                sock.close()
        if self._service is not None:
            self._service.close()


class TableRefusal(ApiError):
    """A refusal of the service as an HTTP error (and a websocket's ``refused``)."""


def refusal(error: Exception) -> TableRefusal:
    return TableRefusal(*error_status(error))


def lobby_of(code: str, state: Any) -> dict[str, Any]:
    """Who sits where: the ``lobby`` message (no token, no card)."""
    return {"code": code, "names": list(state.names), "kinds": list(state.kinds),
            "levels": list(state.levels), "host": int(state.host),
            "started": bool(state.started), "rules": state.rules.name,
            "seats": len(state.names)}


# -- HTTP ---------------------------------------------------------------------------------------


def client_address(hub: TablesHub, request: Any) -> str:
    """The client's address, what the limits of anonymous clients count: the peer's own;
    behind a hub's proxy (``--behind-proxy``) the address that proxy appended to
    ``X-Forwarded-For``, believed only from a proxy on this machine. A client's own
    ``X-Real-Ip`` or earlier ``X-Forwarded-For`` entries count for nothing (tornado's
    ``xheaders`` believed them)."""
    peer = str(request.remote_ip or "")
    if hub.behind_proxy and peer in LOOPBACK:
        last = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        if last:
            return last[:64]
    return peer


class JsonHandler(JsonApiHandler):
    """The tables' JSON routes (bodies of at most 16 KB; errors in one line, no caching)."""

    body_limit = BODY_LIMIT
    routes = "crazylab tables"

    def initialize(self, hub: TablesHub, base: str) -> None:
        self.hub, self.base = hub, base

    def who(self) -> str:
        """The client's address (:func:`client_address`)."""
        return client_address(self.hub, self.request)

    async def hub_user(self) -> Any:
        """On a JupyterHub, the hub user asking (a kernel's hub token or a page's login
        cookie), checked with the hub; ``None`` off a hub or for no one the hub knows."""
        if self.hub.identity is None:
            return None
        from .hub import HubUnavailable

        try:
            return await self.hub.identity.user_of(self)
        except HubUnavailable:
            raise ApiError(503, "the hub did not answer; try again") from None

    async def player(self, data: dict[str, Any]) -> tuple[str, dict[str, str]]:
        """The name a new seat takes and who asks, for the join limits (``who``/``address``
        of the service's calls). On a JupyterHub only a user the hub logged in sits down, as
        the hub names them (the name sent is ignored) and counting alone. Elsewhere the name
        is the one sent; a learner of the class store (the ``X-Crazylab-Token`` header,
        checked there) counts alone; anyone else counts with everyone at their address."""
        address = self.who()
        if self.hub.identity is not None:
            user = await self.hub_user()
            if user is None:
                raise ApiError(401, "log in to the hub first: open the tables page from "
                                    "the hub, or send your hub token")
            return user.name[:40], {"who": f"hub:{user.name}", "address": address}
        name = text(data.get("name"), "name", 40)
        token = self.request.headers.get(TOKEN_HEADER, "").strip()
        if token and len(token) <= 200 and await known_learner(self.hub, token):
            from crazylab.store import secret_hash

            return name, {"who": f"learner:{secret_hash(token)[:24]}", "address": address}
        return name, {"who": "", "address": address}

    async def guard(self, check: Callable[[], Any]) -> None:
        """Await ``check()``: a false answer (a wrong key, a code not of the key's class) is
        refused with :data:`NOT_YOURS` and counted against the address; an address over
        :data:`KEY_FAILURES_PER_MINUTE` is refused (429) before anything is checked."""
        await guarded(self.hub, self.who(), check)

    async def service(self) -> Any:
        try:
            return await self.hub.service()
        except Exception as e:  # a misconfigured or unreachable database: not the caller's
            raise ApiError(503, "the tables database is unavailable; try again "
                           f"({(str(e).splitlines() or [''])[0][:120]})") from None

    async def ticket(self, token: Any) -> Any:
        """The seat of ``token`` (403 for an unknown one)."""
        service = await self.service()
        return await self.hub.call(service.seat_of, text(token, "token", 200))


def text(value: Any, what: str, limit: int = 80) -> str:
    """``value`` as a non-empty line of text (400 otherwise)."""
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"give the {what} as text")
    if len(value) > limit or "\n" in value or "\r" in value:
        raise ApiError(400, f"the {what} is one line of at most {limit} characters")
    return value.strip()


def number(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"the {what} must be a whole number from {low} to {high}")
    return value


def bot_delay(value: str | None) -> float | None:
    """A table's ``?delay=`` (seconds between bot moves, 0 to 5; 400 otherwise)."""
    if value is None:
        return None
    try:
        delay = float(value)
    except ValueError:
        delay = math.nan
    if not 0 <= delay <= 5:
        raise ApiError(400, "the delay is a number of seconds from 0 to 5")
    return delay


def rule_set(preset: Any, options: Any) -> Any:
    """A preset with house options, as the service wants it (400 in one line otherwise)."""
    from crazylab.engine.rules import PRESETS, RulesError
    from crazylab.engine.rules import rules as get_rules
    from crazylab.errors import quote

    name = text(preset, "rule set")
    if name not in PRESETS:
        raise ApiError(400, f"unknown rule set {quote(name)}; the presets are: "
                       f"{', '.join(PRESETS)}")
    if options is None:
        return get_rules(name)
    if not isinstance(options, dict) or len(options) > 64:
        raise ApiError(400, "the house options must be a JSON object of option: value")
    try:
        return get_rules(name, **{str(k): v for k, v in options.items()})
    except (RulesError, TypeError, ValueError) as e:
        raise ApiError(400, (str(e).splitlines() or ["bad house options"])[0][:200]) \
            from None


class CreateHandler(JsonHandler):
    """A new table: the creator is its host, in seat 0."""

    async def post(self) -> None:
        data = self.body()
        rules = rule_set(data.get("rules"), data.get("options"))
        seats = number(data.get("seats"), "number of seats", 2, 5)
        klass = data.get("class") or None
        if klass is not None:
            klass = text(klass, "class code", 40)
        delay = bot_delay(self.get_query_argument("delay", None))
        name, client = await self.player(data)
        service = await self.service()
        ticket = await self.hub.call(service.create, rules, seats, name, class_code=klass,
                                     **client)
        if delay is not None:
            self.hub.delays[ticket.code] = delay
        self.hub.watch(ticket.code)
        await self.hub.push(ticket.code)
        self.send_json({"code": ticket.code, "seat": ticket.seat, "token": ticket.token,
                        "name": name, "link": f"{self.base}t/{ticket.code}"})


class JoinHandler(JsonHandler):
    """The first empty seat of a table, for a classmate."""

    async def post(self) -> None:
        data = self.body()
        code = text(data.get("code"), "join code", 20).upper()
        name, client = await self.player(data)
        service = await self.service()
        ticket = await self.hub.call(service.join, code, name, **client)
        self.hub.watch(ticket.code)
        await self.hub.push(ticket.code)
        self.send_json({"code": ticket.code, "seat": ticket.seat, "token": ticket.token,
                        "name": name})


class ReviewHandler(JsonHandler):
    """The review of the hand just finished, for the seat of the token only (the service's
    :meth:`~crazylab.tables.TableService.review`); a few at a time, each in a thread."""

    async def post(self) -> None:
        token = text(self.body().get("token"), "token", 200)
        service = await self.service()
        async with self.hub.reviewing:
            self.send_json(await self.hub.call(service.review, token))


class MeHandler(JsonHandler):
    """Who the pages' visitor is: on a JupyterHub the hub's name, which the lobby shows in
    place of a name field; elsewhere nobody (``name`` is null)."""

    async def get(self) -> None:
        user = await self.hub_user()
        self.send_json({"hub": self.hub.identity is not None,
                        "name": None if user is None else user.name})


class SeatHandler(JsonHandler):
    """The seat of a token (a page reloaded, a learner back)."""

    async def post(self) -> None:
        ticket = await self.ticket(self.body().get("token"))
        self.send_json({"code": ticket.code, "seat": ticket.seat, "name": ticket.name})


class HostHandler(JsonHandler):
    """The host's buttons: a bot in a seat, start, next hand."""

    def initialize(self, hub: TablesHub, base: str, what: str = "start") -> None:
        super().initialize(hub, base)
        self.what = what

    async def post(self) -> None:
        data = self.body()
        ticket = await self.ticket(data.get("token"))
        token = str(data["token"]).strip()
        if self.what == "bot":
            seat = number(data.get("seat"), "seat", 0, 4)
            level = data.get("level")
            if level is not None and level not in ("random", "rules", "mc"):
                raise ApiError(400, "the bot level is random, rules, mc or null (no bot)")
            await self.hub.act(ticket.code, lambda s: s.set_bot(token, seat, level))
        elif self.what == "start":
            await self.hub.act(ticket.code, lambda s: s.start(token))
        else:
            await self.hub.act(ticket.code, lambda s: s.new_hand(token))
        self.send_json({"ok": True})


class NotFoundHandler(JsonHandler):
    def prepare(self) -> None:
        raise ApiError(404, "no such crazylab tables route")


# -- the websocket ----------------------------------------------------------------------------


class TableSocket(websocket.WebSocketHandler):
    """One browser at one table: a seat (its own SeatView and ViewStream) or a spectator."""

    def initialize(self, hub: TablesHub) -> None:
        self.hub = hub
        self.code = ""
        self.token: str | None = None
        self.watcher = False
        self.ready = False
        self.seat = -1
        self.seat_view: Any = None
        self.stream: Any = None
        self.names: list[str] = []
        self.version = -1  # the version this browser was last sent
        self.seq = 0
        self.hand = 0  # the hands of the match when this browser was last sent a view
        self._hello_timer: object = None

    @property
    def ping_interval(self) -> float | None:
        """Pings find a browser that went without closing (a laptop asleep): its seat is
        then away, and played once the service's ``idle_after`` has passed."""
        return float(self.settings.get("websocket_ping_interval") or PING_INTERVAL)

    @property
    def ping_timeout(self) -> float | None:
        interval = self.ping_interval or PING_INTERVAL  # tornado: at most the interval
        return min(float(self.settings.get("websocket_ping_timeout") or interval), interval)

    def open(self, code: str) -> None:  # type: ignore[override]
        self.code = code.strip().upper()[:20]
        self._hello_timer = IOLoop.current().call_later(HELLO_TIMEOUT, self._no_hello)

    def _no_hello(self) -> None:
        if not self.ready:
            self.close(4400, "say hello first")

    def send(self, message: dict[str, Any]) -> None:
        self.write_message(json.dumps(message, ensure_ascii=False))

    def on_close(self) -> None:
        if self._hello_timer is not None:
            IOLoop.current().remove_timeout(self._hello_timer)
        self.hub.left(self)
        token = self.token
        if token is not None and self.ready and not self.hub.seated(self.code, token):
            asyncio.ensure_future(self._gone(token))

    async def _gone(self, token: str) -> None:
        if self.hub.closed:
            return
        with contextlib.suppress(TableRefusal):
            await self.hub.act(self.code, lambda s: s.present(token, False))

    async def on_message(self, message: str | bytes) -> None:
        if len(message) > MESSAGE_LIMIT:
            self.send({"type": "refused", "why": "a message is at most 4 KB"})
            return
        try:
            data = json.loads(message)
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            self.send({"type": "refused", "why": "a message is one JSON object"})
            return
        try:
            if not self.ready:
                await self._hello(data.get("hello"))
            elif self.watcher:
                self.send({"type": "refused", "why": "a spectator cannot play"})
            else:
                await self._action(data)
        except ApiError as e:
            with contextlib.suppress(websocket.WebSocketClosedError):
                self.send({"type": "refused", "why": e.message})
                if not self.ready:  # 4403: this browser's seat token is no seat here
                    self.close(4403 if e.status_code == 403 else 4400, e.message[:120])
        except websocket.WebSocketClosedError:
            pass

    async def _hello(self, hello: Any) -> None:
        if not isinstance(hello, dict):
            raise TableRefusal(400, 'say {"hello": {"token": ...}} or {"hello": {"watch": ...}}')
        try:
            service = await self.hub.service()
        except Exception:
            raise TableRefusal(503, "the tables database is unavailable; try again") from None
        if "watch" in hello:
            await self._hello_watcher(service, hello)
            return
        token = hello.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise TableRefusal(403, "this seat token is not a seat at this table")
        ticket = self.hub.read(service.seat_of, token)
        if ticket.code != self.code:
            raise TableRefusal(403, "this seat token is not a seat at this table")
        self.token, self.seat = token, int(ticket.seat)
        self.hub.watch(self.code)
        await self.hub.act(self.code, lambda s: s.present(token, True))
        async with self.hub.lock(self.code):
            state = self.hub.read(service.state, self.code)
            if state.kinds[self.seat] == "away":  # back: the learner plays again
                await self.hub.call(service.take_back, token)
                state = self.hub.read(service.state, self.code)
            self.ready = True
            self.hub.joined(self)
            self.welcome(state)
            self.hub.push_now(self.code)  # the others see this seat is back

    async def _hello_watcher(self, service: Any, hello: dict[str, Any]) -> None:
        key = hello.get("watch")

        async def check() -> bool:  # the key's class is the table's: one answer otherwise
            if not isinstance(key, str) or not key:
                return False
            try:
                table_class = service.class_of(self.code)
            except Exception:  # an unknown code: told like a wrong key
                return False
            return table_class is not None and await class_of_key(self.hub, key) == table_class

        await guarded(self.hub, client_address(self.hub, self.request), check)
        async with self.hub.lock(self.code):
            state = self.hub.read(service.state, self.code)
            public = self.hub.read(service.public, self.code)
            self.watcher, self.ready, self.version = True, True, int(state.version)
            self.hub.joined(self)
            self.send({"type": "welcome", "seat": None, "version": self.version,
                       "lobby": lobby_of(self.code, state), "snapshot": None})
            self.send({"type": "public", **public, "version": self.version})

    def welcome(self, state: Any) -> None:
        """Who this browser is, the seats, and (once the table started) the whole view."""
        snapshot = None
        if state.started:
            self._seat(state)
            snapshot = self.stream.snapshot(self._view(state))
        self.version = int(state.version)
        self.send({"type": "welcome", "seat": self.seat, "version": self.version,
                   "lobby": lobby_of(self.code, state), "snapshot": snapshot})

    def _seat(self, state: Any) -> None:
        """This seat's SeatView (a new one when the seats' names change) and ViewStream."""
        from crazylab.seat.view import SeatView, ViewStream

        names = list(state.names)
        if self.seat_view is None or names != self.names:
            self.seat_view, self.names = SeatView(state.rules, self.seat, names), names
            self.seat_view.new_hand(state.match)
            self.hand = len(state.match.hands)
        if self.stream is None:
            self.stream = ViewStream()

    def _view(self, state: Any) -> dict[str, Any]:
        """This seat's view of the table now (the host may deal the next hand)."""
        self.seq += 1
        match = state.match
        return dict(self.seat_view.view(
            match, seq=self.seq, bot=None, delay=self.hub.bot_delay(self.code), shared=True,
            can_deal=self.seat == state.host and match.game.over and not match.over))

    def frame(self, state: Any) -> None:
        """Send this seat what changed (nothing if it has this version already): the whole
        view in a ``welcome`` when the table has just started, else ``steps``."""
        if not state.started:
            return
        if self.stream is None:
            self.welcome(state)
            return
        version = int(state.version)
        if version == self.version:
            return
        self._seat(state)
        hand = len(state.match.hands)
        if hand != self.hand:
            self.hand = hand
            self.seat_view.new_hand(state.match)
        else:
            self.seat_view.moved(state.match)
        self._send_steps(self._view(state), version)

    def _send_steps(self, view: dict[str, Any], version: int, whole: bool = False) -> None:
        """One ``steps`` message; ``whole``: the view whole, its empty keys (a chooser
        closed meanwhile) listed as ``unset`` since the browser may still hold them."""
        message = dict(self.stream.steps([view], self.hub.bot_delay(self.code)))
        if whole:
            step = message["steps"][-1]
            step["unset"] = sorted(set(step.get("unset", ()))
                                   | {k for k, v in view.items() if v is None})
        message["version"] = self.version = version
        self.send(message)

    async def _action(self, data: dict[str, Any]) -> None:
        """A browser's action: checked by this seat's SeatView, then played by the service
        at the version the browser saw; a refusal answers this browser alone."""
        from crazylab.seat.view import Refused

        action = data.get("action")
        if action == "clear_error":  # the table dismissed an error line: nothing to answer
            return
        if action not in ACTIONS:
            raise TableRefusal(400, f"unknown action {str(action)[:40]!r}")
        token = self.token
        assert token is not None
        if action == "new_hand":
            await self.hub.act(self.code, lambda s: s.new_hand(token))
            return
        service = await self.hub.service()
        async with self.hub.lock(self.code):
            state = self.hub.read(service.state, self.code)
            if not state.started:
                raise TableRefusal(409, "the game has not started yet")
            version = data.get("version", self.version)
            if isinstance(version, bool) or not isinstance(version, int):
                raise TableRefusal(400, "the version must be a whole number")
            self._seat(state)
            if action == "sync":  # a browser that is behind gets the view whole
                whole = data.get("seq") != self.seq
                if whole:
                    self.stream.reset()
                self._send_steps(self._view(state), int(state.version), whole=whole)
                return
            try:
                move = self._pick(action, data, state.match)
            except Refused as e:
                self._refuse(str(e), state)
                return
            if move is None:  # a chooser opened or closed: this browser alone
                self._send_steps(self._view(state), int(state.version))
                return
            try:
                await self.hub.call(service.move, token, str(move), version=version,
                                    who=token)
            except TableRefusal as e:
                self.seat_view.say(e.message, "warn")
                self._refuse(e.message, state)
            finally:
                self.hub.push_now(self.code)

    def _pick(self, action: str, data: dict[str, Any], match: Any) -> Any:
        """The move a browser's action makes (None: a chooser opened or closed)."""
        if action == "cancel":
            self.seat_view.cancel()
            return None
        if action == "card":
            return self.seat_view.click(match, text(data.get("card"), "card", 8))
        if action == "choose":
            index = data.get("index")
            if isinstance(index, bool) or not isinstance(index, int):
                raise TableRefusal(400, "the option is a whole number")
            return self.seat_view.choose(match, index)
        return self.seat_view.check(match, text(data.get("move"), "move", 100))

    def _refuse(self, why: str, state: Any) -> None:
        """Tell this browser alone why (nothing changed); it asks for the present (sync)."""
        self.send({"type": "refused", "why": why, "version": int(state.version)})


class OverviewHandler(JsonHandler):
    """``GET api/tables`` (``X-Crazylab-Key``: a teacher key): the public state of every
    table of the key's class, the newest first, for the teacher's overview (``watch/``).
    Public frames only: counts, the piles' tops, the last lines of the public log, the
    scores; never a hand in play."""

    async def get(self) -> None:
        key = self.request.headers.get(KEY_HEADER, "").strip()
        if not key:
            raise ApiError(401, f"send the class's teacher key in the {KEY_HEADER} header")
        found: list[str] = []

        async def check() -> bool:
            klass = await class_of_key(self.hub, key)
            found.extend([klass] if klass else [])
            return klass is not None

        await self.guard(check)
        service = await self.service()

        def frames() -> list[dict[str, Any]]:
            out = []
            for code in service.tables(found[0]):
                frame = service.public(code)
                frame["log"] = frame["log"][-OVERVIEW_LOG:]
                out.append(frame)
            return out[::-1]

        self.send_json({"class": found[0], "tables": await asyncio.get_running_loop()
                        .run_in_executor(None, frames)})


async def class_of_key(hub: TablesHub, key: str) -> str | None:
    """The class whose teacher key is ``key`` (``None``: none), asked of the class store (one
    look-up by the key's hash)."""
    from crazylab.classroom import ClassError

    if not 0 < len(key) <= 200:
        return None
    try:
        return await asyncio.get_running_loop().run_in_executor(
            None, lambda: hub.store.get().class_of_key(key))
    except ClassError:
        return None


async def known_learner(hub: TablesHub, token: str) -> bool:
    """Whether the class store knows the learner token ``token``."""
    from crazylab.classroom import ClassError

    def check() -> bool:
        hub.store.get().learner(token)
        return True

    try:
        return await asyncio.get_running_loop().run_in_executor(None, check)
    except ClassError:
        return False


async def guarded(hub: TablesHub, address: str, check: Callable[[], Any]) -> None:
    """``await check()`` for a client at ``address``; see :meth:`JsonHandler.guard`."""
    loop = asyncio.get_running_loop()
    hub.key_failures.check(address, loop.time())
    if not await check():
        hub.key_failures.hit(address, loop.time())
        raise TableRefusal(403, NOT_YOURS)


def handlers(server_url: str = "/", service_factory: ServiceFactory | None = None, *,
             delay: float = BOT_DELAY, store: Any = None,
             store_factory: Callable[[], Any] | None = None,
             hub: TablesHub | None = None, behind_proxy: bool = False,
             identity: Any = None, review_hands: bool = True) -> list[tuple[str, type, dict]]:
    """The tables' tornado routes under ``server_url`` (one hub, one service per server:
    ``service_factory()`` or the service restored from ``$CRAZYLAB_DB``, opened on first
    use). The hub is ``handlers(...)[0][2]["hub"]``."""
    base = server_url.rstrip("/") + "/" + TABLES_PREFIX
    hub = hub or TablesHub(service_factory, delay=delay,
                           store=StoreHolder(store, store_factory), behind_proxy=behind_proxy,
                           identity=identity, review_hands=review_hands)
    api = {"hub": hub, "base": base}
    no_cache = {"cache": "no-cache"}
    page: type[web.RequestHandler] = FileHandler
    hub_login: list[tuple[str, type, dict]] = []
    if identity is not None:  # on a JupyterHub: the pages are behind the hub's login
        from .hub_pages import HubPage, login_routes

        page, hub_login = HubPage, login_routes(identity)

    def shows(name: str) -> dict[str, Any]:
        return {"name": PAGES[name], **({"identity": identity} if hub_login else {})}

    return [
        (base + "api/create", CreateHandler, api),
        (base + "api/join", JoinHandler, api),
        (base + "api/seat", SeatHandler, api),
        (base + "api/bot", HostHandler, {**api, "what": "bot"}),
        (base + "api/start", HostHandler, {**api, "what": "start"}),
        (base + "api/new_hand", HostHandler, {**api, "what": "new_hand"}),
        (base + "api/tables", OverviewHandler, api),
        (base + "api/me", MeHandler, api),
        (base + "api/review", ReviewHandler, api),
        *tournament_routes(base, api),
        (base + "api/.*", NotFoundHandler, api),
        (base + "ws/([^/]+)", TableSocket, {"hub": hub}),
        (base.rstrip("/"), web.RedirectHandler, {"url": base}),
        (base, page, shows("lobby")),
        (base + "t/[^/]+", page, shows("table")),
        (base + "watch/", page, shows("class")),
        (base + "watch/[^/]+", page, shows("watch")),
        (base + "tournament/[^/]+", page, shows("tournament")),
        (base + "static/([^/]+)", FileHandler, no_cache),
        *hub_login,
    ]


def tournament_routes(base: str, api: dict[str, Any]) -> list[tuple[str, type, dict]]:
    """The class tournament's routes."""
    t = base + "api/tournament"
    return [
        (t, TournamentCreateHandler, api),
        (t + "/([^/]+)/round", TournamentRoundHandler, api),
        (t + "/([^/]+)/seat", TournamentSeatHandler, api),
        (t + r"/([^/]+)/standings\.csv", TournamentCsvHandler, api),
        (t + "/([^/]+)", TournamentHandler, api),
    ]


class TournamentApi(JsonHandler):
    """A tournament's call in a thread; its refusals in one line (403 for
    a wrong key, an unknown tournament or player token, 400 otherwise)."""

    def key(self) -> str:
        key = self.request.headers.get(KEY_HEADER, "").strip()
        if not key:
            raise ApiError(401, f"send the class's teacher key in the {KEY_HEADER} header")
        return key

    async def tournament(self, fn: Callable[[Any, Any], Any], tid: str | None = None,
                         key: str | None = None) -> Any:
        """``fn(tournament, service)`` in a thread, the key checked first when given (with
        no ``tid``: ``fn(None, service)``). The tournament is kept in the service's
        database."""
        from crazylab.errors import CrazylabError
        from crazylab.tables.tournament import Tournament, TournamentError

        service = await self.service()

        def run() -> Any:
            if tid is None:
                return fn(None, service)
            tournament = Tournament.load(service, tid)
            try:
                if key is not None:
                    tournament.check_key(key)
                return fn(tournament, service)
            finally:
                tournament.close()

        try:
            return await asyncio.get_running_loop().run_in_executor(None, run)
        except TournamentError as e:
            message = (str(e).splitlines() or ["refused"])[0][:200]
            if "unavailable" in message:
                raise ApiError(503, message) from None
            status = 403 if message.startswith(("wrong teacher key", "unknown tournament",
                                                "unknown player token")) else 400
            raise ApiError(status, message) from None
        except CrazylabError as e:
            raise refusal(e) from None


class TournamentCreateHandler(TournamentApi):
    """The teacher starts a tournament for the class: its id and each player's token (given
    once: hand each player theirs)."""

    async def post(self) -> None:
        from crazylab.tables.tournament import Tournament

        key = self.key()
        data = self.body()
        class_code = text(data.get("class"), "class code", 40)
        rules = text(data.get("rules", "crazy-eights"), "rule set")
        fields: dict[str, Any] = {name: data.get(name, default) for name, default in (
            ("players", None), ("format", "round_robin"), ("rounds", None), ("hands", 1),
            ("table_size", 2))}  # each checked by Tournament.create, nothing stored before

        def create(_t: Any, service: Any) -> dict[str, Any]:
            t = Tournament.create(service, class_code, rules=rules, key=key, **fields)
            try:
                return {"id": t.id, "tokens": dict(t.tokens)}
            finally:
                t.close()

        made = await self.tournament(create)
        made["link"] = f"{self.base}tournament/{made['id']}"
        self.send_json(made)


class TournamentRoundHandler(TournamentApi):
    """The teacher starts the next round (the round before recorded and finished)."""

    async def post(self, tid: str) -> None:
        def start(t: Any, service: Any) -> dict[str, Any]:
            if t.round:
                t.record_round(service)
            codes = t.start_round(service)
            return {"round": t.round, "tables": codes}

        started = await self.tournament(start, tid, self.key())
        for code in started["tables"]:
            self.hub.watch(code)
            await self.hub.push(code)
        self.send_json(started)


class TournamentHandler(TournamentApi):
    """The standings and tables so far (anyone with the id: no token, no card)."""

    async def get(self, tid: str) -> None:
        def summary(t: Any, service: Any) -> dict[str, Any]:
            if t.round:
                t.record_round(service)  # the hands finished since: live standings
            return dict(t.summary())

        self.send_json(await self.tournament(summary, tid))


class TournamentSeatHandler(TournamentApi):
    """A player's seat this round, for their tournament token."""

    async def get(self, tid: str) -> None:
        token = self.request.headers.get(TOKEN_HEADER, "").strip()
        if not token:
            raise ApiError(401, f"send your tournament token in the {TOKEN_HEADER} header")
        player = self.get_query_argument("player", None)

        def seat(t: Any, _service: Any) -> dict[str, Any]:
            ticket = t.my_seat(token)
            if player is not None and player.strip() != ticket.name:
                from crazylab.tables.tournament import TournamentError

                raise TournamentError("unknown player token")
            return {"code": ticket.code, "seat": ticket.seat, "token": ticket.token,
                    "name": ticket.name}

        found = await self.tournament(seat, tid)
        found["link"] = f"{self.base}t/{found['code']}"
        self.send_json(found)


class TournamentCsvHandler(TournamentApi):
    """The standings as CSV (the teacher's)."""

    async def get(self, tid: str) -> None:
        def export(t: Any, service: Any) -> str:
            if t.round:
                t.record_round(service)
            return str(t.export_csv())

        csv_text = await self.tournament(export, tid, self.key())
        safe = "".join(ch for ch in tid if ch.isalnum())
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition",
                        f'attachment; filename="crazylab-tournament-{safe}.csv"')
        self.finish(csv_text.encode("utf-8"))


def main(db: str | None = None, port: int = 8870, host: str = "127.0.0.1",
         delay: float = BOT_DELAY, behind_proxy: bool = False, *, hub: bool = False,
         teacher_group: str = "teachers", allow_classes: bool = False,
         certfile: str | None = None, keyfile: str | None = None,
         retire_after: float | None = None) -> None:
    """Serve the class service (``crazylab tables``): the tables, restored from ``db``, and
    the class API (:mod:`crazylab.web.class_api`) that learners' kernels record through.
    ``hub``: a JupyterHub service — learners and teachers are who the hub says
    (:class:`crazylab.web.hub.HubIdentity`; teachers: admins and ``teacher_group``);
    ``allow_classes``: any visitor may make a class; ``certfile``/``keyfile``: serve HTTPS;
    ``retire_after``: seconds a table may stay unchanged before it is retired.
    ``behind_proxy``: a client's address is the one a proxy on this machine (a hub's) appends
    to ``X-Forwarded-For``, so the join limits apply per learner, not to the whole class at
    once.
    Run by JupyterHub as a managed service, the routes sit under the service's prefix
    (``$JUPYTERHUB_SERVICE_PREFIX``, e.g. ``/services/crazylab-tables/``), where the hub's
    proxy sends them."""
    from tornado.httpserver import HTTPServer

    from crazylab.classroom import open_store

    prefix = "/" + os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/").strip("/") + "/"
    prefix = prefix.replace("//", "/")

    identity = None
    if hub:
        from .hub import HubIdentity

        identity = HubIdentity(teacher_group=teacher_group)

    async def serve() -> None:
        from .class_api import handlers as class_handlers

        options = {} if retire_after is None else {"retire_after": retire_after}
        routes = handlers(prefix, default_factory(db, **options), delay=delay,
                          store_factory=lambda: open_store(db), behind_proxy=behind_proxy,
                          identity=identity)
        hub: TablesHub = routes[0][2]["hub"]
        routes += class_handlers(prefix, factory=lambda: open_store(db), hub=identity,
                                 allow_classes=allow_classes)
        await hub.service()  # every table back, its bots moving, before the first visitor
        tls = None
        if certfile:
            from .tls import tls_context

            tls = tls_context(certfile, keyfile)
        settings: dict[str, Any] = {"websocket_max_message_size": MESSAGE_LIMIT}
        if identity is not None:  # the hub's login cookie, signed with the server's secret
            from crazylab.store import keyed

            store = open_store(db)
            try:
                settings["cookie_secret"] = keyed(store.db.secret, "hub login cookies")
            finally:
                store.close()
        server = HTTPServer(web.Application(routes, **settings), max_body_size=BODY_LIMIT,
                            ssl_options=tls)
        server.listen(port, host)
        n = len((await hub.service()).tables())
        scheme = "https" if tls else "http"
        print(f"crazylab tables: serving on {scheme}://{host}:{port}{prefix}{TABLES_PREFIX} "
              f"({n} table{'' if n == 1 else 's'} restored) and the class API at "
              f"{prefix}crazylab/api/{' (JupyterHub identities)' if identity else ''}; "
              "Ctrl-C stops", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            server.stop()
            hub.close()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())

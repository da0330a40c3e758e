"""The class store over HTTP: a learner's own records and the teacher's CSV export.

Mounted by :class:`crazylab.web.serve.CrazylabVoila` under ``<base>/crazylab/api/``:

* ``GET /crazylab/api/me`` (header ``X-Crazylab-Token``): the learner (name, class) and
  their progress per lesson;
* ``DELETE /crazylab/api/me``: forget me (the learner and every row of theirs);
* ``GET /crazylab/api/me/attempts?lesson=<id>``: the learner's attempts and practice items;
* ``GET /crazylab/api/class/<code>/export.csv?what=attempts`` (header ``X-Crazylab-Key``):
  the class's ``attempts``, ``practice``, ``hands`` or ``learners`` as CSV;
* ``GET /crazylab/api/class/<code>/report`` (``X-Crazylab-Key``): the class's rows as JSON
  (the teacher's dashboard);
* ``POST /crazylab/api/me/records`` ``{"kind", "fields"}``: keep one of the learner's records
  (an ``attempt``, ``practice`` item, ``hand`` or ``reveal``): what the learner did, never a
  verdict — the store judges every answer itself;
* ``POST /crazylab/api/join`` ``{"code", "name"}``: join a class (a new learner and their
  token; on a hub, the hub user joins);
* ``POST /crazylab/api/classes`` ``{"name"}``: make a class (its code and teacher key) — only
  a teacher (on a hub: an admin or a member of the teacher group) or anyone when the server
  was started to allow it.

**On a JupyterHub** (``hub``: a :class:`crazylab.web.hub.HubIdentity`), the learner is the
hub user whose token the request carries (``Authorization: token …``, checked with the hub);
no learner token is taken or given, so a learner's process never holds another's.

A learner is only ever who their token says: no route takes a learner id, so no request can
name another learner. A missing token or key is 401, an unknown token, a wrong key and an
unknown class code alike are 403 (nothing tells a guesser whether a code exists), a refused
parameter is 400, a locked or unreachable database is 503 with ``Retry-After``; every error
is ``{"error": "<one line>"}``, never a traceback. Bodies over 64 KB are refused (413).
Credentials travel in headers, never in cookies or URLs, so a page of another site cannot
make a browser send them (no CSRF); responses are ``Cache-Control: no-store``.

The store (:func:`crazylab.classroom.open_store`, so ``$CRAZYLAB_DB``) opens on the first
request; its calls run in a thread so a locked database never stalls the server.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from tornado import web
from tornado.http1connection import HTTP1Connection

from crazylab.store.limits import Window

API_PREFIX = "crazylab/api/"
TOKEN_HEADER = "X-Crazylab-Token"
KEY_HEADER = "X-Crazylab-Key"
BODY_LIMIT = 64 * 1024
RETRY_AFTER = 5
#: classes one client (a hub teacher, else an address) may make in a minute
CLASSES_PER_MINUTE = 5
#: learners joining a class from one address in a minute (a class of 60 behind one school
#: address joins at once); a hub user counts alone, :data:`USER_JOINS_PER_MINUTE`
ADDRESS_JOINS_PER_MINUTE = 120
USER_JOINS_PER_MINUTE = 20
#: wrong teacher keys (or unknown class codes) one address may send in a minute
KEY_FAILURES_PER_MINUTE = 10


class ApiError(web.HTTPError):
    """An HTTP error whose one-line ``message`` is the JSON body's ``error`` (and, when
    given, ``retry_after`` seconds its Retry-After)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(status, message)
        self.message = message
        self.retry_after = retry_after


class StoreHolder:
    """Opens the store once, on first use (a store object or a factory may be given)."""

    def __init__(self, store: Any = None, factory: Callable[[], Any] | None = None) -> None:
        self._store, self._factory, self._lock = store, factory, threading.Lock()

    def get(self) -> Any:
        with self._lock:
            if self._store is None:
                if self._factory is None:
                    from crazylab.classroom import open_store

                    self._factory = open_store
                self._store = self._factory()
            return self._store


@web.stream_request_body  # prepare() sees the headers before any body is read
class JsonApiHandler(web.RequestHandler):
    """JSON answers and one-line JSON errors, no caching, a body limit (``body_limit``
    bytes; the body is kept for :meth:`body`). The class API and the tables' API build on it."""

    body_limit = BODY_LIMIT
    routes = "crazylab API"  # "no such <routes> route"

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def check_xsrf_cookie(self) -> None:
        """No cookie: credentials come in custom headers and JSON bodies (see
        :meth:`check_request_origin`)."""

    def check_request_origin(self) -> None:
        """A request that changes something comes from this site's own pages: as JSON (a
        content type another site's page cannot send without the browser asking this server
        first, which it never allows) and, when the browser names its origin, from this
        host. A form or a ``text/plain`` POST from another site is refused (403/415)."""
        method = (self.request.method or "GET").lower()
        handled = getattr(type(self), method, None) is not getattr(web.RequestHandler, method,
                                                                      None)
        if method not in ("post", "put", "patch", "delete") or not handled:
            return  # a read, or a method this route refuses anyway (405)
        origin = self.request.headers.get("Origin")
        hosts = {self.request.host, self.request.headers.get("X-Forwarded-Host", "")}  # a proxy
        if origin is not None and urlsplit(origin).netloc not in hosts:
            raise ApiError(403, "a request from another site's page is refused")
        kind = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if method != "delete" and kind != "application/json":
            raise ApiError(415, "send the request body as JSON (Content-Type: "
                                "application/json)")

    def _too_big(self) -> ApiError:
        return ApiError(413, f"request bodies are limited to {self.body_limit // 1024} KB")

    def prepare(self) -> None:
        self._chunks: list[bytes] = []
        self._body_size = 0
        self.check_request_origin()
        length = self.request.headers.get("Content-Length", "0").strip() or "0"
        if not length.isdigit() or int(length) > self.body_limit:
            raise self._too_big()
        connection = self.request.connection
        if isinstance(connection, HTTP1Connection):  # a chunked body too
            connection.set_max_body_size(self.body_limit)

    def data_received(self, chunk: bytes) -> None:
        self._body_size += len(chunk)
        if self._body_size > self.body_limit:
            raise self._too_big()
        self._chunks.append(chunk)

    def body(self) -> dict[str, Any]:
        """The request's JSON object (400 in one line if it is not one)."""
        try:
            data = json.loads(b"".join(self._chunks) or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise ApiError(400, "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return data

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, ApiError):
            message = error.message
        elif status_code == 404:
            message = f"no such {self.routes} route"
        elif status_code == 405:
            message = f"{self.request.method} is not allowed here"
        elif status_code < 500:
            message = "bad request"
        else:
            message = "the server could not answer; try again"
        retry = getattr(error, "retry_after", None)
        if status_code == 503 and isinstance(error, ApiError):
            retry = retry or RETRY_AFTER
        if retry is not None:
            self.set_header("Retry-After", str(int(math.ceil(retry))))
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"error": message}, ensure_ascii=False))

    def send_json(self, data: Any) -> None:
        self.finish(json.dumps(data, ensure_ascii=False))


class Limits:
    """The class API's rate limits, one set per server (see the ``*_PER_MINUTE`` numbers)."""

    def __init__(self) -> None:
        def refused(message: str, wait: float) -> ApiError:
            return ApiError(429, message, wait)

        self.classes = Window(CLASSES_PER_MINUTE, 60.0, "new classes", refused)
        self.address_joins = Window(ADDRESS_JOINS_PER_MINUTE, 60.0, "joins from this address",
                                    refused)
        self.user_joins = Window(USER_JOINS_PER_MINUTE, 60.0, "joins", refused)
        self.key_failures = Window(KEY_FAILURES_PER_MINUTE, 60.0, "wrong keys", refused)


class ApiHandler(JsonApiHandler):
    """The class API: a learner's token or the teacher's key, and store calls in a thread."""

    def initialize(self, holder: StoreHolder, hub: Any = None,
                   allow_classes: bool = False, limits: Limits | None = None) -> None:
        self.holder = holder
        self.hub = hub
        self.allow_classes = allow_classes
        self.limits = limits or Limits()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def with_key(self, fn: Callable[..., Any], *args: Any) -> Any:
        """:meth:`call` of a teacher's route: a wrong key (or an unknown class) is counted
        against the address, and an address over :data:`KEY_FAILURES_PER_MINUTE` is refused
        before its key is checked."""
        address = str(self.request.remote_ip or "")
        self.limits.key_failures.check(address, self.now())
        try:
            return await self.call(fn, *args)
        except ApiError as e:
            if e.status_code == 403:
                self.limits.key_failures.hit(address, self.now())
            raise

    async def hub_user(self) -> Any:
        """The hub user of the request's token (401 without one, 403 one the hub refuses)."""
        from .hub import HubUnavailable

        token = self.hub.token_of(self)
        if not token:
            raise ApiError(401, "send your JupyterHub token (Authorization: token …)")
        try:
            user = await self.hub.who(token)
        except HubUnavailable:
            raise ApiError(503, "the hub did not answer; try again") from None
        if user is None:
            raise ApiError(403, "the hub does not know this token for this service")
        return user

    async def learner_token(self) -> str:
        """Whose request this is, as a learner token the store knows: on a hub, the hub
        user's (server side only); else the X-Crazylab-Token header."""
        if self.hub is None:
            return self.credential(TOKEN_HEADER, "learner token")
        user = await self.hub_user()
        learner = await self.call(lambda store: store.hub_learner(user.name))
        return str(learner.token)

    def credential(self, header: str, what: str) -> str:
        value = self.request.headers.get(header, "").strip()
        if not value:
            raise ApiError(401, f"send your {what} in the {header} header")
        return value

    async def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(store, *args, **kwargs)`` in a thread; the store's refusals as HTTP errors."""
        from crazylab.classroom import ClassError, StoreUnavailable

        def run() -> Any:
            try:
                store = self.holder.get()
            except ClassError as e:  # a server's misconfigured $CRAZYLAB_DB: not the caller's
                raise StoreUnavailable(str(e)) from None
            return fn(store, *args, **kwargs)

        try:
            return await asyncio.get_running_loop().run_in_executor(None, run)
        except StoreUnavailable:
            raise ApiError(503, "the class database is busy or unavailable; try again") \
                from None
        except ClassError as e:
            message = str(e)
            if message in ("unknown learner token", "wrong teacher key"):
                raise ApiError(403, message) from None
            raise ApiError(400, message.splitlines()[0][:200]) from None

    def send_json(self, data: Any) -> None:
        self.finish(json.dumps(data, ensure_ascii=False))


class MeHandler(ApiHandler):
    """The learner of the token: who they are and their progress; DELETE forgets them."""

    async def get(self) -> None:
        token = await self.learner_token()

        def me(store: Any) -> dict[str, Any]:
            learner = store.learner(token)
            return {
                "learner": {"name": learner.name, "class_code": learner.class_code,
                            "class_name": learner.class_name},
                "progress": {lesson: {"title": store.catalog.title(lesson),
                                      "answered": p.answered, "right": p.right,
                                      "total": p.total}
                             for lesson, p in store.progress(token).items()},
            }

        self.send_json(await self.call(me))

    async def delete(self) -> None:
        token = await self.learner_token()
        await self.call(lambda store: store.forget(token))
        self.send_json({"forgotten": True})


class MyAttemptsHandler(ApiHandler):
    """The learner's attempts and practice items (``?lesson=`` for one lesson)."""

    async def get(self) -> None:
        token = await self.learner_token()
        lesson = self.get_query_argument("lesson", None) or None

        def mine(store: Any) -> dict[str, Any]:
            if lesson is not None and not store.catalog.has_lesson(lesson):
                from crazylab.classroom import ClassError
                from crazylab.errors import quote

                raise ClassError(f"unknown lesson {quote(lesson)}")
            return {
                "lesson": lesson,
                "attempts": [_plain(a) for a in store.attempts(token, lesson)],
                "practice": [_plain(p) for p in store.practice(token, lesson)],
            }

        self.send_json(await self.call(mine))


class ExportHandler(ApiHandler):
    """The teacher's CSV export of one class."""

    async def get(self, code: str) -> None:
        key = self.credential(KEY_HEADER, "teacher key")
        what = self.get_query_argument("what", "attempts")

        def export(store: Any) -> str:
            from crazylab.classroom import rows_to_csv

            return str(rows_to_csv(store.export_rows(code, key, what), what))

        text = await self.with_key(export)
        safe = "".join(ch for ch in f"{code}-{what}" if ch.isalnum() or ch in "-_")
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="crazylab-{safe}.csv"')
        self.finish(text.encode("utf-8"))


class RecordHandler(ApiHandler):
    """Keep one record of the learner's: the store judges an answer itself, so the fields
    are what the learner did (a verdict or feedback is refused)."""

    async def post(self) -> None:
        from crazylab.classroom.recorder import OPTIONAL_FIELDS, SAVE_FIELDS

        body = self.body()
        kind, fields = body.get("kind"), body.get("fields")
        if kind not in SAVE_FIELDS or not isinstance(fields, dict):
            raise ApiError(400, "send {\"kind\": \"attempt\", \"practice\", \"hand\" or "
                                "\"reveal\", \"fields\": {...}}")
        unknown = sorted(set(fields) - SAVE_FIELDS[kind] - OPTIONAL_FIELDS.get(kind, set()))
        if unknown or not SAVE_FIELDS[kind] <= set(fields):
            raise ApiError(400, f"a {kind} takes the fields "
                                f"{', '.join(sorted(SAVE_FIELDS[kind]))}"
                                + (f", not {', '.join(unknown)}" if unknown else ""))
        token = await self.learner_token()
        stored = await self.call(lambda store: getattr(store, f"record_{kind}")(token, **fields))
        self.send_json({"stored": bool(stored)})


class JoinHandler(ApiHandler):
    """Join a class: a new learner and their token (on a hub, the hub user joins)."""

    async def post(self) -> None:
        body = self.body()
        code, name = body.get("code"), body.get("name", "")
        if self.hub is not None:
            user = await self.hub_user()
            self.limits.user_joins.hit(user.name, self.now())
            learner = await self.call(lambda store: store.hub_learner(user.name, code))
        else:
            self.limits.address_joins.hit(str(self.request.remote_ip or ""), self.now())
            learner = await self.call(lambda store: store.join(code, name))
        out = {"name": learner.name, "class_code": learner.class_code,
               "class_name": learner.class_name}
        if self.hub is None:
            out["token"] = learner.token  # the browser's to keep; never on a hub
        self.send_json(out)


class ClassesHandler(ApiHandler):
    """Make a class: only a teacher, or anyone when the server was started to allow it."""

    async def post(self) -> None:
        body = self.body()
        if self.hub is not None:
            user = await self.hub_user()
            if not user.teacher:
                raise ApiError(403, "only a teacher (a hub admin or a member of the teacher "
                                    "group) makes a class")
            self.limits.classes.hit(f"hub:{user.name}", self.now())
        elif not self.allow_classes:
            raise ApiError(403, "classes are made by the teacher with `crazylab class "
                                "create` on the server")
        else:
            self.limits.classes.hit(str(self.request.remote_ip or ""), self.now())
        made = await self.call(lambda store: store.create_class(body.get("name")))
        self.send_json({"code": made.code, "teacher_key": made.teacher_key, "name": made.name})


class ReportHandler(ApiHandler):
    """The teacher's view of one class: every row, as JSON."""

    async def get(self, code: str) -> None:
        key = self.credential(KEY_HEADER, "teacher key")
        report = await self.with_key(lambda store: store.class_report(code, key))
        self.send_json(dict(report.__dict__))


class MyAssignmentsHandler(ApiHandler):
    """The assignments of the learner's class, with how far the learner got."""

    async def get(self) -> None:
        token = await self.learner_token()
        got = await self.call(lambda store: store.my_assignments(token))
        self.send_json({"assignments": [
            {**_assignment(a.assignment), "right": a.right, "total": a.total, "done": a.done}
            for a in got]})


class AssignmentsHandler(ApiHandler):
    """The teacher's assignments of one class: GET lists them, POST sets one."""

    async def get(self, code: str) -> None:
        key = self.credential(KEY_HEADER, "teacher key")
        got = await self.with_key(lambda store: store.assignments(code, key))
        self.send_json({"assignments": [_assignment(a) for a in got]})

    async def post(self, code: str) -> None:
        key = self.credential(KEY_HEADER, "teacher key")
        body = self.body()
        made = await self.with_key(lambda store: store.assign(
            code, key, body.get("lessons"), body.get("due"), body.get("title") or ""))
        self.send_json(_assignment(made))


def _assignment(a: Any) -> dict[str, Any]:
    return {"id": a.id, "title": a.title, "lessons": list(a.lessons), "due": a.due}


class NotFoundHandler(ApiHandler):
    def prepare(self) -> None:
        raise ApiError(404, "no such crazylab API route")


def _plain(record: Any) -> dict[str, Any]:
    """A stored Attempt or PracticeItem as JSON-ready values."""
    out = dict(record.__dict__)
    out["rule_ids"] = list(record.rule_ids)
    out["at"] = record.at.isoformat()
    return out


def handlers(server_url: str = "/", store: Any = None,
             factory: Callable[[], Any] | None = None, *, hub: Any = None,
             allow_classes: bool = False) -> list[tuple[str, type, dict]]:
    """The API's tornado routes under ``server_url`` (a store, a factory, or
    :func:`~crazylab.classroom.open_store` on first use). ``hub``: identify learners and
    teachers with JupyterHub (:class:`crazylab.web.hub.HubIdentity`); ``allow_classes``: let
    any visitor make a class (off: ``crazylab class create`` or a hub teacher)."""
    base = server_url.rstrip("/") + "/" + API_PREFIX
    options = {"holder": StoreHolder(store, factory), "hub": hub,
               "allow_classes": allow_classes, "limits": Limits()}
    return [
        (base + "me", MeHandler, options),
        (base + "me/attempts", MyAttemptsHandler, options),
        (base + "me/records", RecordHandler, options),
        (base + "join", JoinHandler, options),
        (base + "classes", ClassesHandler, options),
        (base + r"class/([^/]+)/export\.csv", ExportHandler, options),
        (base + r"class/([^/]+)/report", ReportHandler, options),
        (base + r"class/([^/]+)/assignments", AssignmentsHandler, options),
        (base + "me/assignments", MyAssignmentsHandler, options),
        (base + ".*", NotFoundHandler, options),
    ]

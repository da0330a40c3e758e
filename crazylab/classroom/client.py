"""The class store over HTTP, for a learner's kernel that must not hold the database.

On a JupyterHub the class service (``crazylab tables --hub``, a hub service) owns the database;
a learner's kernel gets only its address (``$CRAZYLAB_CLASS_URL``) and records through it.
:class:`ClassClient` answers the calls the kernel's recorder makes of a
:class:`~crazylab.classroom.store.Store` (``learner``, ``hub_learner``, ``join``, ``record_*``,
``attempts``, ``practice``, ``progress``, ``forget``) with the same errors: a refusal is a
:class:`ClassError`, an unknown learner :class:`UnknownLearner`, a service that does not answer
:class:`StoreUnavailable` (the recorder keeps the record and retries).

Behind the hub the kernel names nobody: every request carries the hub token of the learner's
own server (``$JUPYTERHUB_API_TOKEN``, the hub's credential for that server) and the service
asks the hub whose it is. The :class:`Learner` it returns has the token :data:`HUB_LEARNER`,
a placeholder that is no secret and that the service never reads. No SQLAlchemy here.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from .catalog import Catalog
from .catalog import load as load_catalog
from .records import (
    Assigned,
    Assignment,
    Attempt,
    ClassError,
    ClassReport,
    Learner,
    LessonProgress,
    NewClass,
    PracticeItem,
    StoreUnavailable,
    UnknownLearner,
)

CLASS_URL_ENV = "CRAZYLAB_CLASS_URL"
HUB_TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
#: the learner token of a hub learner in a kernel: a placeholder (the hub token identifies)
HUB_LEARNER = "hub-learner"
TIMEOUT = 5.0

__all__ = ["CLASS_URL_ENV", "ClassClient", "HUB_LEARNER", "class_store"]


def class_store(environ: Mapping[str, str], **store_options: Any) -> Any:
    """The class store a kernel may use: the class service's client when the kernel has its
    address (``$CRAZYLAB_CLASS_URL``; behind a hub, with the server's own hub token), else
    the database (:func:`crazylab.classroom.store.open_store`, ``$CRAZYLAB_DB``)."""
    url = environ.get(CLASS_URL_ENV)
    if url:
        hub = environ.get(HUB_TOKEN_ENV) if environ.get("JUPYTERHUB_USER") else None
        return ClassClient(url, hub_token=hub)
    from .store import open_store

    return open_store(environ.get("CRAZYLAB_DB"), **store_options)


class ClassClient:
    """The class service at ``url`` (its base, ending in ``/``), as a store. ``hub_token``:
    the kernel's own hub token (behind a JupyterHub); else requests carry learner tokens."""

    def __init__(self, url: str, *, hub_token: str | None = None,
                 catalog: Catalog | None = None, timeout: float = TIMEOUT) -> None:
        if not url.startswith(("http://", "https://")):

            raise ClassError(f"the class service's address must be an http(s) URL, not "
                             f"{url[:80]!r}")
        self.url = url.rstrip("/") + "/crazylab/api/"
        self.hub_token = hub_token or None
        self.catalog = catalog or load_catalog()
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"ClassClient({self.url!r}, hub={self.hub_token is not None})"

    # -- the wire ----------------------------------------------------------------------------
    def _ask(self, method: str, path: str, token: str | None = None,
             body: Mapping[str, Any] | None = None,
             headers: Mapping[str, str] | None = None) -> Any:
        headers = {"Accept": "application/json", **(headers or {})}
        if self.hub_token:
            headers["Authorization"] = f"token {self.hub_token}"
        elif token:
            headers["X-Crazylab-Token"] = token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:  # noqa: S310
                return json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as e:
            message = _error_of(e)
            if e.code == 403 and message == "unknown learner token":
                raise UnknownLearner(message) from None
            if e.code in (429, 502, 503, 504):
                raise StoreUnavailable(f"the class service is busy: {message}") from None
            raise ClassError(message) from None
        except (OSError, ValueError) as e:  # refused, timed out, not JSON
            raise StoreUnavailable(f"the class service did not answer ({e})") from None

    # -- learners ----------------------------------------------------------------------------
    def _learner(self, data: Mapping[str, Any], token: str | None) -> Any:
        return Learner(token=HUB_LEARNER if self.hub_token else str(token or data["token"]),
                       name=str(data["name"]), class_code=data.get("class_code"),
                       class_name=data.get("class_name"))

    def learner(self, token: str) -> Any:
        """The learner of ``token`` (behind the hub: the hub user)."""
        return self._learner(self._ask("GET", "me", token)["learner"], token)

    def hub_learner(self, hub_user: str = "", code: str | None = None) -> Any:
        """The hub user of this kernel's token (``hub_user`` is not sent: the hub says who);
        ``code`` joins them to that class."""
        if code is not None:
            return self._learner(self._ask("POST", "join", body={"code": code}), None)
        return self.learner(HUB_LEARNER)

    def join(self, code: str, name: str) -> Any:
        return self._learner(self._ask("POST", "join", body={"code": code, "name": name}),
                             None)

    def forget(self, token: str) -> None:
        self._ask("DELETE", "me", token)

    # -- records -----------------------------------------------------------------------------
    def _record(self, kind: str, token: str, fields: Mapping[str, Any]) -> bool:
        reply = self._ask("POST", "me/records", token, {"kind": kind, "fields": dict(fields)})
        return bool(reply.get("stored"))

    def record_attempt(self, token: str, **fields: Any) -> bool:
        return self._record("attempt", token, fields)

    def record_practice(self, token: str, **fields: Any) -> bool:
        return self._record("practice", token, fields)

    def record_hand(self, token: str, **fields: Any) -> bool:
        return self._record("hand", token, fields)

    def record_reveal(self, token: str, **fields: Any) -> bool:
        return self._record("reveal", token, fields)

    def attempts(self, token: str, lesson: str | None = None) -> list[Attempt]:
        return [_attempt(a) for a in self._mine(token, lesson)["attempts"]]

    def practice(self, token: str, lesson: str | None = None) -> list[PracticeItem]:
        return [_practice(p) for p in self._mine(token, lesson)["practice"]]

    def _mine(self, token: str, lesson: str | None) -> Any:
        query = f"?lesson={quote(lesson)}" if lesson is not None else ""
        return self._ask("GET", "me/attempts" + query, token)

    def progress(self, token: str) -> dict[str, Any]:
        got = self._ask("GET", "me", token)["progress"]
        return {lesson: LessonProgress(int(p["answered"]), int(p["right"]), int(p["total"]))
                for lesson, p in got.items()}

    def my_assignments(self, token: str) -> list[Assigned]:
        return [Assigned(_assignment(a), int(a["right"]), int(a["total"]))
                for a in self._ask("GET", "me/assignments", token)["assignments"]]

    # -- teachers ----------------------------------------------------------------------------
    def assign(self, code: str, key: str, lessons: Any, due: str, title: str = "") -> Any:
        return _assignment(self._ask(
            "POST", f"class/{quote(code, safe='')}/assignments",
            body={"lessons": list(lessons), "due": due, "title": title},
            headers={"X-Crazylab-Key": key}))

    def assignments(self, code: str, key: str) -> list[Assignment]:
        got = self._ask("GET", f"class/{quote(code, safe='')}/assignments",
                        headers={"X-Crazylab-Key": key})
        return [_assignment(a) for a in got["assignments"]]

    def create_class(self, name: str) -> Any:
        """Make a class (behind the hub: the hub says whether this user is a teacher)."""
        made = self._ask("POST", "classes", body={"name": name})
        return NewClass(code=made["code"], teacher_key=made["teacher_key"], name=made["name"])

    def class_report(self, code: str, key: str) -> Any:
        return ClassReport(**self._ask("GET", f"class/{quote(code, safe='')}/report",
                                       headers={"X-Crazylab-Key": key}))


def _error_of(e: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(e.read())["error"])
    except (ValueError, KeyError, TypeError, OSError):
        return f"the class service answered {e.code}"


def _when(value: Any) -> datetime:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return datetime.now(UTC)


def _assignment(a: Mapping[str, Any]) -> Assignment:
    return Assignment(int(a["id"]), str(a["title"]), tuple(a["lessons"]), str(a["due"]))


def _attempt(a: Mapping[str, Any]) -> Attempt:
    return Attempt(str(a["attempt_id"]), str(a["lesson"]), str(a["exercise"]),
                   str(a["answer"]), bool(a["verdict"]), tuple(a.get("rule_ids") or ()),
                   str(a.get("feedback", "")), _when(a.get("at")),
                   bool(a.get("after_solution", False)))


def _practice(p: Mapping[str, Any]) -> PracticeItem:
    return PracticeItem(str(p["attempt_id"]), str(p["lesson"]), str(p["kind"]), int(p["seed"]),
                        str(p.get("question", "")), str(p["answer"]), bool(p["verdict"]),
                        tuple(p.get("rule_ids") or ()), str(p.get("feedback", "")),
                        _when(p.get("at")), str(p.get("rules") or ""))

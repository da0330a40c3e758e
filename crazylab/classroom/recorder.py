"""The kernel's recorder: everything a learner does on a page, kept for them (issue 22).

A Voilà page is one kernel and one learner, so there is one :class:`Recorder` per kernel
(:func:`recorder`). The exercises call :meth:`Recorder.attempt` after every checked answer, the
practice sets :meth:`Recorder.practice`, the table :meth:`Recorder.hand`; none of them ever
sees an exception from here.

Where a record goes depends on who the learner is, which the page's class bar
(``crazylab.widgets.classbar``) tells the recorder once the browser has sent its token:

* a learner of a class (joined with a class code, or the JupyterHub user): the class's
  database — through the class service when the kernel is given its address
  (``$CRAZYLAB_CLASS_URL``: on a JupyterHub the kernel holds no database credential, only its
  server's hub token, :class:`crazylab.classroom.client.ClassClient`), else the
  :class:`crazylab.classroom.store.Store` opened lazily from ``$CRAZYLAB_DB`` (one machine,
  where the Voilà server starts the kernels); this module never imports SQLAlchemy itself
  (the static site's Pyodide has none);
* nobody known yet, no class, or no database at all: the browser. Each record is put in
  :attr:`Recorder.outbox`, which the class bar mirrors into ``localStorage`` and hands back
  (:meth:`Recorder.use_browser`) when the page is opened again.

Every record carries a uuid4 ``attempt_id`` made once, so a retry never stores it twice. A save
the database could not take (locked, gone: any error but a refusal) is kept in
:attr:`Recorder.pending` and tried again on a timer (1 s, doubling up to 30 s) and on the next
record; the class bar says "2 answers not yet saved — retrying", and keeps a copy of them in
the browser (:meth:`Recorder.unsaved`), which the next kernel takes back
(:meth:`Recorder.requeue`) if this one is gone first (a reload, a culled kernel, a server
restart). A refusal (an unknown exercise, an answer too long) is one line in
:attr:`Recorder.notice`, and nothing is stored.

Widgets that show earlier answers register :meth:`Recorder.on_change`: they are called with
the recorder whenever the learner becomes known (or changes), and read
:meth:`Recorder.earlier` / :meth:`Recorder.earlier_practice` then.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import logging
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from crazylab.classroom.records import Attempt, PracticeItem
from crazylab.store.keys import secret_hash

if TYPE_CHECKING:  # the store imports SQLAlchemy: only for the type checker here
    from crazylab.classroom.mastery import Evidence, RuleMastery
    from crazylab.classroom.records import Assigned
    from crazylab.classroom.spacing import Review
    from crazylab.classroom.store import Store

log = logging.getLogger("crazylab.classroom.recorder")

DB_ENV = "CRAZYLAB_DB"
CLASS_URL_ENV = "CRAZYLAB_CLASS_URL"
HUB_ENV = "JUPYTERHUB_USER"
FIRST_RETRY = 1.0   # seconds before the first retry of a failed save
MAX_RETRY = 30.0    # the longest wait between retries
BUSY_TIMEOUT = 3.0  # how long a learner's click waits for a locked database, then retried
PROGRESS_FORMAT = "crazylab-progress"
#: the most waiting saves a browser may hand back at once (a page makes a few)
MAX_REQUEUED = 200

__all__ = ["Attempt", "PracticeItem", "Recorder", "database_configured", "recorder"]


#: the fields each kind of save needs (the Store's ``record_*`` keyword arguments): what the
#: learner did, never a verdict (the store judges each answer itself)
SAVE_FIELDS = {
    "attempt": {"attempt_id", "lesson", "exercise", "answer"},
    "practice": {"attempt_id", "lesson", "kind", "seed", "answer"},
    "hand": {"hand_id", "rules", "seats", "moves", "result"},
    "reveal": {"lesson", "exercise"},
}
#: the fields a save may add
OPTIONAL_FIELDS = {"attempt": {"version"}, "practice": {"rules", "question"}}


def _save_id(fields: dict[str, Any]) -> Any:
    return (fields.get("attempt_id") or fields.get("hand_id")
            or f"reveal:{fields.get('lesson')}:{fields.get('exercise')}")


def _save_fields(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """What a save sends the store: the fields of its kind, none else (a verdict, feedback
    or rule ids are the page's, never the store's); an empty optional field left out."""
    allowed = SAVE_FIELDS[kind] | OPTIONAL_FIELDS.get(kind, set())
    return {k: v for k, v in data.items()
            if k in allowed and (k in SAVE_FIELDS[kind] or v not in (None, ""))}


@dataclass
class _Save:
    """A record on its way to the database: which Store method, for whom, with what."""

    kind: str            # "attempt", "practice" or "hand"
    token: str
    fields: dict[str, Any] = field(default_factory=dict)


def database_configured() -> bool:
    """True when the page may keep records in a database: ``$CRAZYLAB_DB`` is set (by the
    teacher or the server) and SQLAlchemy can be imported (not in the static site)."""
    if not os.environ.get(DB_ENV):
        return False
    try:
        return importlib.util.find_spec("sqlalchemy") is not None
    except (ImportError, ValueError):
        return False


def _now() -> datetime:
    return datetime.now(UTC)


def _parse_time(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return _now()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _is_unknown_learner(exc: BaseException) -> bool:
    """The database answered, and no learner has the token: the browser may let it go.
    Anything else (a database missing, newer, unreadable or busy) keeps it."""
    try:
        from crazylab.classroom.records import UnknownLearner
    except ImportError:
        return False
    return isinstance(exc, UnknownLearner)


def _is_refusal(exc: BaseException) -> bool:
    """A ClassError that is not StoreUnavailable: retrying cannot help."""
    try:
        from crazylab.classroom.records import ClassError, StoreUnavailable
    except ImportError:
        return False
    return isinstance(exc, ClassError) and not isinstance(exc, StoreUnavailable)


def _exercise_counts() -> dict[str, int]:
    """lesson -> number of exercises, from the lesson catalogue (empty without one)."""
    try:
        from crazylab.classroom.catalog import load
        catalog = load()
        return {lesson: catalog.exercise_count(lesson) for lesson in catalog.lessons}
    except Exception:  # noqa: BLE001 - no catalogue (an old install): count what was done
        return {}


def _attempt_from(data: Any) -> Attempt:
    """An :class:`Attempt` from the store's object or a progress file's dict."""
    get = data.get if isinstance(data, dict) else lambda k, d=None: getattr(data, k, d)
    if not isinstance(get("attempt_id"), str) or not get("attempt_id"):
        raise ValueError("a record without its attempt_id")
    return Attempt(str(get("attempt_id")), str(get("lesson")), str(get("exercise")),
                   str(get("answer", "")), bool(get("verdict")),
                   tuple(str(r) for r in get("rule_ids", ()) or ()), str(get("feedback", "")),
                   _parse_time(get("at")), bool(get("after_solution", False)))


def _practice_from(data: Any) -> PracticeItem:
    """A :class:`PracticeItem` from the store's object or a progress file's dict."""
    get = data.get if isinstance(data, dict) else lambda k, d=None: getattr(data, k, d)
    if not isinstance(get("attempt_id"), str) or not get("attempt_id"):
        raise ValueError("a record without its attempt_id")
    return PracticeItem(str(get("attempt_id")), str(get("lesson")), str(get("kind")),
                        int(get("seed", 0) or 0), str(get("question", "")),
                        str(get("answer", "")), bool(get("verdict")),
                        tuple(str(r) for r in get("rule_ids", ()) or ()),
                        str(get("feedback", "")), _parse_time(get("at")),
                        str(get("rules", "") or ""))


def _judged(fields: dict[str, Any]) -> dict[str, Any]:
    """The verdict and feedback of an answer waiting to be saved, for the page to show: the
    catalogue's question judges it here as the store will (nothing if it cannot)."""
    try:
        from crazylab.classroom.catalog import load
        verdict, feedback = load().question(str(fields["lesson"]), str(fields["exercise"])
                                            ).judge(str(fields["answer"]))
    except Exception:  # noqa: BLE001 - shown as waiting, without a verdict
        return {}
    return {"verdict": bool(verdict), "feedback": feedback}


def as_dict(record: Attempt | PracticeItem) -> dict[str, Any]:
    """A record as the progress file writes it (lists, ISO-8601 time)."""
    data = asdict(record)
    data["rule_ids"] = list(record.rule_ids)
    data["at"] = record.at.isoformat()
    return data


class Recorder:
    """Keeps a learner's records: in the class's database when the learner belongs to a
    class, else in the browser (through the class bar). One per kernel: :func:`recorder`.

    ``open_store`` (tests) replaces :func:`crazylab.classroom.store.open_store`;
    ``schedule(delay, fn)`` replaces the IOLoop timer that retries failed saves.
    """

    def __init__(self, *, open_store: Callable[[], Store] | None = None,
                 schedule: Callable[[float, Callable[[], None]], Any] | None = None,
                 environ: dict[str, str] | None = None) -> None:
        self.lesson: str | None = None
        self._environ = os.environ if environ is None else environ
        self._open_store = open_store
        self._schedule = schedule
        self._store: Store | None = None
        self.learner: Any = None            # the store's Learner when in a class
        self.browser_id: str | None = None  # the browser's own id (browser mode)
        self.browser_name: str = ""
        self._attempts: dict[str, Attempt] = {}
        self._practice: dict[str, PracticeItem] = {}
        self._pending: list[_Save] = []
        self._retry_set = False
        self._failures = 0
        self.notice = ""                    # the last refusal, one line
        self.outbox: list[dict[str, Any]] = []  # new records for the browser (localStorage)
        self._from_browser: dict[str, dict[str, Any]] = {}  # what the browser kept before
        self._callbacks: list[Callable[[Recorder], None]] = []
        self._listeners: list[Callable[[], None]] = []
        self._kernel_id = uuid.uuid4().hex
        self._wanted: str | None = None     # a token not yet confirmed (database down)
        self.unknown_token = False          # the browser's token is not in the database

    # -- who -------------------------------------------------------------------------------
    @property
    def token(self) -> str | None:
        """The learner's token in the class's database, or None (browser mode)."""
        return None if self.learner is None else self.learner.token

    @property
    def mode(self) -> str:
        """``"store"`` (a class's database) or ``"browser"``."""
        return "store" if self.learner is not None or self._wanted else "browser"

    @property
    def hub_user(self) -> str | None:
        """The JupyterHub user running this kernel, if any."""
        return self._environ.get(HUB_ENV) or None

    def can_use_store(self) -> bool:
        """Whether a class store is configured for this kernel (or one was given)."""
        return self._open_store is not None or bool(self._environ.get(CLASS_URL_ENV)) or (
            bool(self._environ.get(DB_ENV)) and database_configured())

    def store(self) -> Store:
        """The class's store, opened on first use: the class service's client when the kernel
        has its address, else the database."""
        if self._store is None:
            if self._open_store is not None:
                self._store = self._open_store()
            else:  # the class service's client has the same calls, over HTTP
                from crazylab.classroom.client import class_store
                self._store = cast("Store", class_store(self._environ,
                                                        busy_timeout=BUSY_TIMEOUT, create=False))
        return self._store

    def identify(self, token: str) -> bool:
        """The browser says the learner is ``token``: load them and their records. False
        (and browser mode) when the token is unknown or no database is configured."""
        if not token or not self.can_use_store():
            return False
        self._wanted = token
        try:
            learner = self.store().learner(token)
        except Exception as exc:  # noqa: BLE001 - unknown token or db gone
            if _is_unknown_learner(exc):  # forgotten, or a token of another database
                self._wanted = None
                self.unknown_token = True
                log.info("learner token not restored: %s", _one_line(exc))
                self._changed()
                return False
            # the database is missing, newer, unreadable or unreachable: the learner is kept,
            # their records wait for them, and the kernel tries again
            self.notice = (f"Your class is unavailable ({_one_line(exc)}); your answers are "
                           "kept — retrying")
            if not self._retry_set:
                self._failures += 1
            self._schedule_retry()
            for save in self._pending:  # theirs, waiting (from the browser): shown now
                if save.token == token:
                    self._show_waiting(save.kind, save.fields)
            self._changed(learner=True)
            return False
        self._become(learner)
        return True

    def use_hub(self) -> bool:
        """Behind JupyterHub: the hub user is the learner (their class, if they joined one)."""
        user = self.hub_user
        if not user or not self.can_use_store():
            return False
        try:
            learner = self.store().hub_learner(user)
        except Exception as exc:  # noqa: BLE001
            self.notice = f"Could not reach the class's records: {_one_line(exc)}"
            self._changed()
            return False
        self._become(learner)
        return True

    def join(self, code: str, name: str) -> Any:
        """Join the class ``code`` as ``name`` (raises the store's ClassError, one line).
        Records made in the browser so far are kept there; from now on they go to the class."""
        store = self.store()
        if self.hub_user:
            learner = store.hub_learner(self.hub_user, code)
        else:
            learner = store.join(code, name)
        self._become(learner)
        return learner

    def leave(self) -> None:
        """"Not you?": forget who the learner is in this kernel (back to browser mode)."""
        self.learner = None
        self._wanted = None
        self._attempts.clear()
        self._practice.clear()  # their saves still waiting keep their token: not lost
        self._restore_outbox()
        self._changed(learner=True)

    def forget(self) -> None:
        """"Forget me": delete the learner and all their records from the class's database,
        then back to browser mode (raises the store's ClassError)."""
        if self.learner is not None:
            self.store().forget(self.learner.token)
        self.outbox.clear()
        self._from_browser.clear()
        self.browser_id = None
        self.leave()

    def use_browser(self, browser_id: str, data: dict[str, Any] | None,
                    name: str = "") -> None:
        """The browser's id and the progress file it kept (``localStorage``): restored
        when the learner is not in a class."""
        self.browser_id = browser_id or None
        self.browser_name = name
        for rec in (data or {}).get("attempts", []) or []:
            try:
                a = _attempt_from(rec)
            except (TypeError, ValueError):
                continue
            self._from_browser[a.attempt_id] = {"type": "attempt", **as_dict(a)}
        for rec in (data or {}).get("practice", []) or []:
            try:
                p = _practice_from(rec)
            except (TypeError, ValueError):
                continue
            self._from_browser[p.attempt_id] = {"type": "practice", **as_dict(p)}
        if self.learner is None:
            self._restore_outbox()
            self._changed(learner=True)

    def _become(self, learner: Any) -> None:
        self.learner = learner
        self._wanted = None
        self.unknown_token = False
        self.notice = ""
        self._attempts.clear()
        self._practice.clear()
        try:
            for a in self.store().attempts(learner.token):
                self._attempts[a.attempt_id] = _attempt_from(a)
            for p in self.store().practice(learner.token):
                self._practice[p.attempt_id] = _practice_from(p)
        except Exception as exc:  # noqa: BLE001 - records come back on the next identify
            self.notice = f"Could not load your earlier answers: {_one_line(exc)}"
        for save in self._pending:  # theirs, not saved yet: shown all the same
            if save.token == learner.token:
                self._show_waiting(save.kind, save.fields)
        self._changed(learner=True)

    # -- records ---------------------------------------------------------------------------
    def attempt(self, *, lesson: str, exercise: str, answer: str, verdict: bool,
                rule_ids: Any, feedback: str, version: str | None = None,
                after_solution: bool = False) -> None:
        """Keep one checked answer to an exercise. The verdict and feedback are what the
        page showed (and what the browser keeps); the class store judges the answer again
        and keeps its own."""
        try:
            rec = Attempt(uuid.uuid4().hex, str(lesson), str(exercise), str(answer),
                          bool(verdict), tuple(str(r) for r in rule_ids or ()),
                          str(feedback), _now(), bool(after_solution))
            self._attempts[rec.attempt_id] = rec
            self._keep("attempt", as_dict(rec), version=version)
        except Exception as exc:  # noqa: BLE001 - never into a widget's callback
            self._refused(exc)

    def reveal(self, *, lesson: str, exercise: str) -> None:
        """The learner was shown an exercise's solution (the class store marks their later
        answers to it; in the browser the exercise marks them itself)."""
        try:
            token = self.learner.token if self.learner is not None else self._wanted
            fields = {"lesson": str(lesson), "exercise": str(exercise)}
            if token is not None and not any(
                    s.kind == "reveal" and s.token == token and s.fields == fields
                    for s in self._pending):
                self._pending.append(_Save("reveal", token, fields))
                self.flush()
        except Exception as exc:  # noqa: BLE001
            self._refused(exc)

    def practice(self, *, lesson: str, kind: str, seed: int, question: str, answer: str,
                 verdict: bool, rule_ids: Any, feedback: str, rules: str = "") -> None:
        """Keep one answered practice item (``rules``: the rule set it was dealt from; the
        class store deals it again and judges the answer itself)."""
        try:
            rec = PracticeItem(uuid.uuid4().hex, str(lesson), str(kind), int(seed),
                               str(question), str(answer), bool(verdict),
                               tuple(str(r) for r in rule_ids or ()), str(feedback), _now(),
                               str(rules))
            self._practice[rec.attempt_id] = rec
            self._keep("practice", as_dict(rec))
        except Exception as exc:  # noqa: BLE001
            self._refused(exc)

    def hand(self, *, rules: str, seats: list[str], moves: list[str],
             result: dict[str, Any]) -> None:
        """Keep one finished hand at a table (the class's database only)."""
        try:
            fields = {"rules": str(rules), "seats": [str(s) for s in seats],
                      "moves": [str(m) for m in moves], "result": dict(result),
                      "hand_id": uuid.uuid4().hex}
            token = self.learner.token if self.learner is not None else self._wanted
            if token is not None:
                self._pending.append(_Save("hand", token, fields))
                self.flush()
        except Exception as exc:  # noqa: BLE001
            self._refused(exc)

    def _keep(self, kind: str, data: dict[str, Any], **extra: Any) -> None:
        self.notice = ""
        token = self.learner.token if self.learner is not None else self._wanted
        if token is None:
            self._merge_outbox(kind, data)
            self.flush()  # older saves of a learner who left may still wait
            self._changed()
            return
        self._pending.append(_Save(kind, token, _save_fields(kind, {**data, **extra})))
        self.flush()

    def _merge_outbox(self, kind: str, data: dict[str, Any]) -> None:
        ids = {r["attempt_id"] for r in self.outbox}
        if data["attempt_id"] not in ids:
            self.outbox = [*self.outbox, {"type": kind, **data}]

    def _restore_outbox(self) -> None:
        for rec in [*self._from_browser.values(), *self.outbox]:
            data = {k: v for k, v in rec.items() if k != "type"}
            if rec.get("type") == "practice":
                p = _practice_from(data)
                self._practice[p.attempt_id] = p
            else:
                a = _attempt_from(data)
                self._attempts[a.attempt_id] = a

    def _refused(self, exc: BaseException) -> None:
        self.notice = _one_line(exc)
        log.warning("record refused: %s", self.notice)
        self._changed()

    # -- saving ----------------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """Records not yet saved in the database (the class bar's notice)."""
        return len(self._pending)

    def flush(self) -> int:
        """Try every waiting save in order; returns how many were saved now. A refusal drops
        its record (one line in :attr:`notice`); an unreachable database keeps the rest
        waiting and sets the retry timer."""
        from_store = 0
        if (self.learner is None and self._wanted is not None
                and not self.identify(self._wanted)):
            return 0
        if not self._pending:
            return 0
        try:
            from crazylab.classroom.records import ClassError, StoreUnavailable
        except ImportError:  # no store at all: keep them (a class bar shows why)
            self._schedule_retry()
            self._changed()
            return 0
        try:
            store = self.store()
        except Exception as exc:  # noqa: BLE001 - missing, newer, unreadable: keep them all
            self._unavailable(exc)
            self._changed()
            return 0
        while self._pending:
            save = self._pending[0]
            try:
                method = getattr(store, f"record_{save.kind}")
                method(save.token, **save.fields)
            except StoreUnavailable as exc:
                self._unavailable(exc)
                break
            except (ClassError, TypeError) as exc:  # a refusal: it can never be stored
                self._pending.pop(0)
                self._attempts.pop(save.fields.get("attempt_id", ""), None)
                self._practice.pop(save.fields.get("attempt_id", ""), None)
                self.notice = _one_line(exc)
                log.warning("record refused: %s", self.notice)
                continue
            except Exception as exc:  # noqa: BLE001 - a database error not wrapped: retry
                self._unavailable(exc)
                break
            self._pending.pop(0)
            from_store += 1
        if not self._pending:
            self._failures = 0
        self._changed()
        return from_store

    def unsaved(self) -> list[dict[str, Any]]:
        """The saves still waiting, as plain data: the class bar keeps a copy in the browser,
        so a kernel that dies before the database is back (a server restart) loses none."""
        return [{"kind": s.kind, "token": s.token, "fields": dict(s.fields)}
                for s in self._pending]

    def requeue(self, saves: Any) -> int:
        """Take back saves an earlier kernel could not make (:meth:`unsaved`, from the
        browser); each keeps its id, so one stored meanwhile is not stored twice. Returns
        how many were taken; anything malformed is left out."""
        waiting = {_save_id(s.fields) for s in self._pending}
        taken = 0
        for item in saves[:MAX_REQUEUED] if isinstance(saves, list) else []:
            if not isinstance(item, dict) or item.get("kind") not in SAVE_FIELDS:
                continue
            token, fields = item.get("token"), item.get("fields")
            if not isinstance(token, str) or not token or not isinstance(fields, dict):
                continue
            fields = _save_fields(item["kind"], fields)
            if not SAVE_FIELDS[item["kind"]] <= set(fields) or _save_id(fields) in waiting:
                continue
            waiting.add(_save_id(fields))
            self._pending.append(_Save(item["kind"], token, fields))
            if token in (self.token, self._wanted):
                self._show_waiting(item["kind"], fields)
            taken += 1
        if taken:
            self.flush()
        return taken

    def _show_waiting(self, kind: str, fields: dict[str, Any]) -> None:
        try:
            if kind == "attempt":
                a = _attempt_from({**fields, **_judged(fields)})
                self._attempts[a.attempt_id] = a
            elif kind == "practice":
                p = _practice_from(fields)
                self._practice[p.attempt_id] = p
        except (TypeError, ValueError):
            pass

    def _unavailable(self, exc: BaseException) -> None:
        log.info("save deferred (%d waiting): %s", len(self._pending), _one_line(exc))
        if not self._retry_set:  # a record made while a retry waits does not hasten it
            self._failures += 1
        self._schedule_retry()

    def retry_delay(self) -> float:
        """Seconds before the next retry: 1, 2, 4 … up to :data:`MAX_RETRY`."""
        return min(MAX_RETRY, FIRST_RETRY * 2 ** max(0, self._failures - 1))

    def _schedule_retry(self) -> None:
        if self._retry_set:
            return
        delay = self.retry_delay()
        if self._schedule is not None:
            self._retry_set = True
            self._schedule(delay, self._retry)
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop runs (a script): retried on the next record
        from tornado.ioloop import IOLoop
        self._retry_set = True
        IOLoop.current().call_later(delay, self._retry)

    def _retry(self) -> None:
        self._retry_set = False
        try:
            self.flush()
        except Exception:  # noqa: BLE001 - a timer callback must never raise
            log.exception("retrying saves failed")

    # -- reading ---------------------------------------------------------------------------
    def earlier(self, lesson: str | None) -> list[Attempt]:
        """The learner's answers to ``lesson``'s exercises (every lesson if None), oldest
        first."""
        return sorted((a for a in self._attempts.values()
                       if lesson is None or a.lesson == lesson), key=lambda a: a.at)

    def earlier_practice(self, lesson: str | None) -> list[PracticeItem]:
        """The learner's practice items of ``lesson`` (every lesson if None), oldest first."""
        return sorted((p for p in self._practice.values()
                       if lesson is None or p.lesson == lesson), key=lambda p: p.at)

    def progress(self) -> dict[str, tuple[int, int, int]]:
        """Each lesson's ``(answered, right, total)``: exercises tried, exercises answered
        right at least once, and exercises in the lesson (the catalogue's count, else the
        number of exercises recorded). From the class's database for a class learner
        (``Store.progress``), else from the records in this kernel and the browser."""
        if self.learner is not None:
            try:
                return {lesson: (p.answered, p.right, p.total)
                        for lesson, p in self.store().progress(self.learner.token).items()}
            except Exception as exc:  # noqa: BLE001 - fall back on what this kernel knows
                log.info("progress from the database failed: %s", _one_line(exc))
        tried: dict[str, set[str]] = {}
        right: dict[str, set[str]] = {}
        for a in self._attempts.values():
            tried.setdefault(a.lesson, set()).add(a.exercise)
            if a.counts:
                right.setdefault(a.lesson, set()).add(a.exercise)
        counts = _exercise_counts()
        lessons = list(counts) + [lesson for lesson in tried if lesson not in counts]
        return {lesson: (len(tried.get(lesson, ())), len(right.get(lesson, ())),
                         counts.get(lesson) or len(tried.get(lesson, ())))
                for lesson in lessons}

    def evidence(self) -> list[Evidence]:
        """The learner's judged answers as evidence, oldest first: from the class's database
        for a class learner, else from the records in this kernel and the browser."""
        from .mastery import evidence

        attempts: Sequence[Any] = list(self._attempts.values())
        practice: Sequence[Any] = list(self._practice.values())
        if self.learner is not None:
            try:
                store = self.store()
                attempts = store.attempts(self.learner.token)
                practice = store.practice(self.learner.token)
            except Exception as exc:  # noqa: BLE001 - fall back on what this kernel knows
                log.info("answers from the database failed: %s", _one_line(exc))
        return evidence(attempts, practice)

    def mastery(self) -> dict[str, RuleMastery]:
        """The learner's standing on each rule their answers exercised
        (:func:`crazylab.classroom.mastery.mastery`)."""
        from .mastery import mastery

        return mastery(self.evidence())

    def assignments(self) -> list[Assigned]:
        """The assignments of the learner's class with how far they got (none outside a
        class, or while the class store cannot be reached)."""
        if self.learner is None or not self.learner.class_code:
            return []
        try:
            return list(self.store().my_assignments(self.learner.token))
        except Exception as exc:  # noqa: BLE001 - the page says nothing rather than fail
            log.info("assignments from the database failed: %s", _one_line(exc))
            return []

    def review(self, now: datetime | None = None, size: int = 5) -> list[Review]:
        """Today's review set: practice questions on the rules due again
        (:mod:`crazylab.classroom.spacing`), from every lesson's practice."""
        from .catalog import load
        from .spacing import due, review_plan

        return review_plan([b.rule for b in due(self.evidence(), now)], load().lessons, size)

    def progress_words(self) -> dict[str, str]:
        """Each lesson's progress in words: "3 of 9 answered, 2 right"."""
        return {lesson: f"{answered} of {total} answered, {right} right"
                for lesson, (answered, right, total) in self.progress().items() if total}

    def identity(self) -> str:
        """Who the records are for: the learner's token, the browser's id, or this kernel."""
        return self.token or self.browser_id or self._kernel_id

    def seed(self) -> int:
        """A seed for the next practice item: from the learner (token or browser id) and the
        number of practice items they have done, so each learner and each attempt differ and
        the same learner gets the same positions back after a reload."""
        text = f"{self.identity()}:{len(self._practice)}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1

    def progress_file(self) -> dict[str, Any]:
        """Everything the learner did, as the progress file a learner hands in."""
        name = self.learner.name if self.learner is not None else self.browser_name
        ident = self.identity()
        if self.token:  # the token lets whoever holds it answer as the learner: not in a file
            ident = secret_hash(self.token)[:32]
        return {"format": PROGRESS_FORMAT, "version": 1,
                "learner": {"id": ident, "name": name},
                "attempts": [as_dict(a) for a in self.earlier(None)],
                "practice": [as_dict(p) for p in self.earlier_practice(None)]}

    # -- hooks -----------------------------------------------------------------------------
    def on_change(self, callback: Callable[[Recorder], None]) -> None:
        """Call ``callback(recorder)`` whenever the learner becomes known or changes (and
        now, if already known)."""
        self._callbacks.append(callback)
        if self.learner is not None or self.browser_id is not None:
            self._call(callback)

    def listen(self, callback: Callable[[], None]) -> None:
        """The class bar: called after every record, save and change of learner."""
        self._listeners.append(callback)

    def _call(self, callback: Callable[[Recorder], None]) -> None:
        try:
            callback(self)
        except Exception:  # noqa: BLE001 - a widget's restore must not stop the others
            log.exception("restoring earlier answers failed")

    def _changed(self, learner: bool = False) -> None:
        for listener in list(self._listeners):  # the class bar first: who, then their answers
            try:
                listener()
            except Exception:  # noqa: BLE001
                log.exception("class bar update failed")
        if learner:
            for cb in list(self._callbacks):
                self._call(cb)


_RECORDER: Recorder | None = None


def recorder() -> Recorder:
    """The kernel's recorder (a Voilà page is one kernel and one learner)."""
    global _RECORDER
    if _RECORDER is None:
        _RECORDER = Recorder()
    return _RECORDER

"""The class store: classes, learners and everything a learner does, in a real database.

The model
---------
* A **class** has a short **class code** (13 characters, 65 random bits, typed by learners to
  join) and a **teacher key** (192 random bits). Only a SHA-256 hash of the key is stored; every
  teacher call (:meth:`Store.class_report`, :meth:`Store.export_rows`,
  :meth:`Store.reset_class`, :meth:`Store.import_progress`) checks it and refuses a wrong key
  and an unknown code alike (``ClassError("wrong teacher key")``: nothing says which).
* A **learner** is a random **token** (192 bits, kept in the browser; never derived from the
  name) with a display name (1-40 printable characters) and at most one class. Behind
  JupyterHub the hub user is the learner (:meth:`Store.hub_learner`); without a class the
  learner is anonymous (:meth:`Store.anonymous`). No passwords, no personal data beyond the
  display name; :meth:`Store.forget` deletes a learner and every row of theirs.
* A learner's **attempts** (checked exercise answers), **practice** items and finished
  **hands** are rows keyed by an id the caller draws once per record (``attempt_id``,
  ``hand_id``, unique in the database): a retry with the same id never stores a second row,
  so a recorder may resend until it hears back.
* **The store judges every answer itself.** An attempt carries the exercise (lesson, id and
  the version of its question) and the learner's raw answer; the store rebuilds the question
  from the catalogue (:mod:`crazylab.questions`) and judges it with the engine. A practice
  item carries its rule set, kind and seed, and is dealt and judged again the same way. A
  verdict, feedback or rule ids sent by a kernel or a browser are never stored. An answer
  given once the exercise's solution was shown (a recorded reveal, or after
  :data:`~crazylab.questions.TRIES` wrong answers) is stored as such and never counts as right.
* Every write is validated first (lesson and exercise ids against the catalogue, sizes, types):
  a refusal is a one-line :class:`ClassError` and nothing is stored. A learner keeps at most
  :data:`ROWS_MAX` rows of each kind. SQL goes only through SQLAlchemy Core with bound
  parameters.
* The database is a SQLite file by default (WAL, a busy timeout, foreign keys on; created with
  its folders on first use; writers of all processes take turns on a lock file beside it, so
  30 kernels answering at once queue instead of polling) or any SQLAlchemy URL
  (``postgresql+psycopg://...`` for a hub whose kernels run on several nodes). Its schema
  version is kept in the database and an older database is upgraded in place
  (:mod:`crazylab.store.schema`). A locked or unreachable database raises
  :class:`StoreUnavailable`: the caller keeps the record and retries.

``open_store()`` picks the database: ``$CRAZYLAB_DB`` (a URL or a file path), else the file
``$CRAZYLAB_HOME/crazylab.db`` (``CRAZYLAB_HOME`` defaults to ``~/.local/share/crazylab``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..engine import checks
from ..errors import CrazylabError, quote
from ..questions import AFTER_SOLUTION, TRIES, QuestionError, after_tries
from ..store import (
    NAME_MAX,
    SECRET_MAX,
    Database,
    class_code,
    display_name,
    keyed,
    schema,
    secret_hash,
    secret_matches,
    sqlite_url,
    utf8_text,
)
from .catalog import Catalog
from .catalog import load as load_catalog
from .records import (
    EXPORTS,
    Assigned,
    Assignment,
    Attempt,
    ClassError,
    ClassInfo,
    ClassReport,
    Learner,
    LessonProgress,
    NewClass,
    PracticeItem,
    StoreUnavailable,
    UnknownLearner,
)

__all__ = [
    "Attempt", "ClassError", "ClassInfo", "ClassReport", "Learner", "LessonProgress",
    "NewClass", "PracticeItem", "Store", "StoreUnavailable", "UnknownLearner", "open_store",
    "rows_to_csv",
]

DB_ENV = "CRAZYLAB_DB"
HOME_ENV = "CRAZYLAB_HOME"
DEFAULT_HOME = Path("~/.local/share/crazylab")


ANSWER_MAX = 500
QUESTION_MAX = 1000
FEEDBACK_MAX = 4000
PRACTICE_KINDS = frozenset({"legal", "score", "next_top", "pile"})
RECORD_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: class codes: 13 characters of 32 (no 0/O, 1/I) = 65 random bits
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 13
SEED_RANGE = (-(2**63), 2**63 - 1)
HAND_SEATS_MAX = 8
HAND_MOVES_MAX = 2000
HAND_TEXT_MAX = 100
HAND_RESULT_MAX = 4000
#: the most rows of each kind (attempts, practice items, hands) one learner keeps
ROWS_MAX = 5000
#: assignments a class keeps at most
ASSIGNMENTS_MAX = 100
ANONYMOUS_NAME = "Anonymous"
#: SQLite's own wait for a busy database inside a statement (a write transaction waits up to
#: the store's busy timeout in :func:`_sqlite_setup` instead)


# --------------------------------------------------------------------------- opening


def default_url() -> str:
    """``$CRAZYLAB_DB`` (a URL, or a file path made a SQLite URL), else the default file."""
    configured = os.environ.get(DB_ENV, "").strip()
    if configured:
        return configured if "://" in configured else sqlite_url(Path(configured))
    home = Path(os.environ.get(HOME_ENV, "") or DEFAULT_HOME).expanduser()
    return sqlite_url(home / "crazylab.db")


def open_store(url: str | os.PathLike[str] | None = None, *, catalog: Catalog | None = None,
               busy_timeout: float = 10.0, create: bool = True) -> Store:
    """The store at ``url`` (see :func:`default_url` for ``None``), created (unless not
    ``create``: a learner's kernel never makes one) and upgraded to the current schema on
    first use. A plain file path (text or a ``Path``) is taken as a SQLite file."""
    if isinstance(url, os.PathLike) or (isinstance(url, str) and "://" not in url):
        url = sqlite_url(Path(url))
    elif url is not None and not isinstance(url, str):
        raise ClassError(f"the database must be a URL or a file path, not {quote(url)}")
    return Store(url or default_url(), catalog=catalog, busy_timeout=busy_timeout,
                 create=create)


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were stored as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Store:
    """The class database behind one SQLAlchemy engine (thread safe; one per process)."""

    def __init__(self, url: str, *, catalog: Catalog | None = None,
                 busy_timeout: float = 10.0, create: bool = True) -> None:
        self.catalog = catalog or load_catalog()
        self._statements: dict[str, Any] = {}
        self.db = Database(url, what="class database", error=ClassError,
                           unavailable=StoreUnavailable, busy_timeout=busy_timeout,
                           create=create)
        with self.db.write() as conn:
            self._warm_up(conn)

    def _warm_up(self, conn: sa.Connection) -> None:
        """Build and compile the statements of a learner's records now, not in their first
        answer (with the write lock held; 30 kernels starting at once queued 1-2 s on it).
        Each insert runs once in a savepoint that is rolled back: its learner does not
        exist, so it stores nothing in any case."""
        conn.execute(self._LEARNER_BY_TOKEN, {"token": "-"}).scalar()
        now = _now()
        dummy = {"attempts": {"attempt_id": "-", "lesson": "-", "exercise": "-", "answer": "",
                              "verdict": False, "rule_ids": "[]", "feedback": "", "at": now,
                              "version": None, "after_solution": False},
                 "practice": {"attempt_id": "-", "lesson": "-", "kind": "-", "seed": 0,
                              "question": "", "answer": "", "verdict": False,
                              "rule_ids": "[]", "feedback": "", "at": now, "rules": None},
                 "hands": {"hand_id": "-", "rules": "-", "seats": "[]", "moves": "[]",
                           "result": "{}", "at": now}}
        for table, key in ((schema.attempts, "attempt_id"), (schema.practice, "attempt_id"),
                           (schema.hands, "hand_id")):
            if self._statement(table, key) is None:
                continue
            savepoint = conn.begin_nested()
            try:
                self._insert_row(conn, table, key, {**dummy[table.name], "learner_id": -1})
            except sa_exc.IntegrityError:
                pass
            finally:
                savepoint.rollback()

    def close(self) -> None:
        """Close every pooled connection."""
        self.db.close()

    def __repr__(self) -> str:
        return f"Store({self.db.url!r})"

    # ------------------------------------------------------------------ classes

    def create_class(self, name: str) -> NewClass:
        """A new class: its code (to give learners) and its teacher key (to keep secret)."""
        name = display_name(name, "class name", ClassError)
        key = secrets.token_urlsafe(24)
        while key.startswith("-"):  # typed after --key on a command line: no leading dash
            key = secrets.token_urlsafe(24)
        for _ in range(5):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.db.write() as conn:
                    conn.execute(sa.insert(schema.classes).values(
                        code=code, name=name, key_hash=secret_hash(key), created_at=_now()))
                return NewClass(code=code, teacher_key=key, name=name)
            except sa_exc.IntegrityError:  # a code drawn twice: 2**-65, but draw again
                continue
        raise ClassError("could not draw a new class code")  # pragma: no cover

    def classes(self) -> list[ClassInfo]:
        """Every class with its number of learners (no keys: only their hashes are kept)."""
        c, lr = schema.classes, schema.learners
        query = (sa.select(c.c.code, c.c.name, c.c.created_at, sa.func.count(lr.c.id))
                 .select_from(c.outerjoin(lr, lr.c.class_code == c.c.code))
                 .group_by(c.c.code, c.c.name, c.c.created_at)
                 .order_by(c.c.created_at, c.c.code))
        with self.db.read() as conn:
            return [ClassInfo(code=r[0], name=r[1], learners=int(r[3]), created_at=_utc(r[2]))
                    for r in conn.execute(query)]

    # ------------------------------------------------------------------ learners

    def join(self, code: str, name: str) -> Learner:
        """A new learner in the class ``code`` with a fresh random token."""
        name = display_name(name, "display name", ClassError)
        code = _code(code)
        with self.db.write() as conn:
            cls = self._class_row(conn, code)
            if cls is None:
                raise ClassError(f"unknown class code {quote(code)}")
            token = secrets.token_urlsafe(24)
            conn.execute(sa.insert(schema.learners).values(
                token=secret_hash(token), name=name, class_code=code, created_at=_now()))
        return Learner(token=token, name=name, class_code=code, class_name=cls.name)

    def hub_learner(self, hub_user: str, code: str | None = None) -> Learner:
        """The one learner of a JupyterHub user (made on first call; ``code`` joins them to
        that class). Their token is derived from the hub user under the server's secret, so
        the server finds it again while the database keeps only its hash."""
        if not isinstance(hub_user, str) or not 1 <= len(hub_user) <= 255 \
                or not hub_user.isprintable():
            raise ClassError(f"not a hub user name: {quote(str(hub_user))}")
        utf8_text(hub_user, "the hub user name", ClassError)
        code = _code(code) if code is not None else None
        lr = schema.learners
        token = keyed(self.db.secret, "hub learner", hub_user)[:43]
        for _ in range(2):
            try:
                with self.db.write() as conn:
                    cls = self._class_row(conn, code) if code else None
                    if code and cls is None:
                        raise ClassError(f"unknown class code {quote(code)}")
                    row = conn.execute(sa.select(lr).where(lr.c.hub_user == hub_user)).first()
                    if row is None:
                        display = hub_user.strip()[:NAME_MAX] or ANONYMOUS_NAME
                        conn.execute(sa.insert(lr).values(
                            token=secret_hash(token), name=display, class_code=code,
                            hub_user=hub_user, created_at=_now()))
                    else:
                        changes: dict[str, Any] = {}
                        if row.token != secret_hash(token):  # made before, or another key
                            changes["token"] = secret_hash(token)
                        if code and row.class_code != code:
                            changes["class_code"] = code
                        if changes:
                            conn.execute(sa.update(lr).where(lr.c.id == row.id)
                                         .values(**changes))
                return self.learner(token)
            except sa_exc.IntegrityError:  # made at the same moment by another kernel
                continue
        raise StoreUnavailable("could not make the hub learner; try again")  # pragma: no cover

    def anonymous(self) -> Learner:
        """A learner in no class (kept like any other; :meth:`forget` deletes it)."""
        token = secrets.token_urlsafe(24)
        with self.db.write() as conn:
            conn.execute(sa.insert(schema.learners).values(
                token=secret_hash(token), name=ANONYMOUS_NAME, class_code=None,
                created_at=_now()))
        return Learner(token=token, name=ANONYMOUS_NAME, class_code=None, class_name=None)

    def learner(self, token: str) -> Learner:
        """The learner with this token (``ClassError("unknown learner token")`` otherwise)."""
        lr, c = schema.learners, schema.classes
        with self.db.read() as conn:
            row = conn.execute(
                sa.select(lr.c.name, lr.c.class_code, c.c.name.label("class_name"))
                .select_from(lr.outerjoin(c, c.c.code == lr.c.class_code))
                .where(lr.c.token == secret_hash(_token(token)))).first()
        if row is None:
            raise UnknownLearner("unknown learner token")
        return Learner(token=token, name=row.name, class_code=row.class_code,
                       class_name=row.class_name)

    def forget(self, token: str) -> None:
        """Delete the learner and every attempt, practice item and hand of theirs."""
        with self.db.write() as conn:
            learner_id = self._learner_id(conn, token)
            for table in (schema.attempts, schema.practice, schema.hands, schema.reveals):
                conn.execute(sa.delete(table).where(table.c.learner_id == learner_id))
            conn.execute(sa.delete(schema.learners).where(schema.learners.c.id == learner_id))

    # ------------------------------------------------------------------ records

    def record_attempt(self, token: str, *, lesson: str, exercise: str, answer: str,
                       attempt_id: str, version: str | None = None) -> bool:
        """Judge and store one answer to an exercise; False if ``attempt_id`` was stored
        before. ``version`` is the version of the question the learner saw (an answer to
        another version is refused: the page is older than the catalogue)."""
        values = self._attempt_values(lesson=lesson, exercise=exercise, answer=answer,
                                      attempt_id=attempt_id, version=version)
        values["at"] = _now()
        token = _token(token)
        self._statement(schema.attempts, "attempt_id")
        with self.db.write() as conn:  # one read, then the insert: the writers' turn is short
            standing = conn.execute(self._ATTEMPT_STANDING, {
                "token": secret_hash(token), "lesson": values["lesson"],
                "exercise": values["exercise"]}).first()
            if standing is None:
                raise UnknownLearner("unknown learner token")
            learner_id, rows, revealed, wrong = standing
            self._refuse_full(schema.attempts, rows)
            if revealed or wrong >= TRIES:
                values.update(after_solution=True,
                              feedback=_clip(f"{values['feedback']}\n{AFTER_SOLUTION}"))
            elif not values["verdict"] and wrong + 1 == TRIES:  # this one shows the solution
                values["feedback"] = _clip(f"{values['feedback']}\n{after_tries(TRIES)}")
            values["learner_id"] = learner_id
            return bool(self._insert_row(conn, schema.attempts, "attempt_id", values))

    def record_reveal(self, token: str, *, lesson: str, exercise: str) -> bool:
        """The learner was shown the solution of ``exercise``: their later answers to it are
        stored as answered after the solution. False if it was recorded before."""
        lesson = self._lesson(lesson)
        if not isinstance(exercise, str) or not self.catalog.has_exercise(lesson, exercise):
            raise ClassError(f"unknown exercise {quote(str(exercise))} in lesson {lesson}")
        r = schema.reveals
        with self.db.write() as conn:
            learner_id = self._learner_id(conn, token)
            if conn.execute(sa.select(r.c.id).where(
                    r.c.learner_id == learner_id, r.c.lesson == lesson,
                    r.c.exercise == exercise)).first() is not None:
                return False
            with conn.begin_nested():
                try:
                    conn.execute(sa.insert(r).values(learner_id=learner_id, lesson=lesson,
                                                     exercise=exercise, at=_now()))
                except sa_exc.IntegrityError:  # another writer recorded it meanwhile
                    return False
            return True

    def record_practice(self, token: str, *, lesson: str, kind: str, seed: int, answer: str,
                        attempt_id: str, rules: str | None = None,
                        question: str | None = None) -> bool:
        """Deal the practice item again (its ``rules``, ``kind`` and ``seed``), judge the
        answer and store it; False if ``attempt_id`` was stored before. Without ``rules``
        (an older page) the lesson's rule set whose item reads ``question`` is taken."""
        values = self._practice_values(lesson=lesson, kind=kind, seed=seed, answer=answer,
                                       attempt_id=attempt_id, rules=rules, question=question)
        values["at"] = _now()
        return self._insert_once(token, schema.practice, "attempt_id", values)

    def record_hand(self, token: str, *, rules: str, seats: Sequence[str],
                    moves: Sequence[str], result: Mapping[str, Any], hand_id: str) -> bool:
        """Store one finished hand; False if ``hand_id`` was stored before."""
        _text(rules, "rules", 80, empty=False)
        seats = _str_list(seats, "seats", HAND_SEATS_MAX, HAND_TEXT_MAX)
        moves = _str_list(moves, "moves", HAND_MOVES_MAX, HAND_TEXT_MAX)
        if not isinstance(result, Mapping):
            raise ClassError("result must be an object")
        try:
            result_json = json.dumps(dict(result), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ClassError(f"result is not plain JSON: {quote(str(e))}") from None
        if len(result_json) > HAND_RESULT_MAX:
            raise ClassError(f"result is longer than {HAND_RESULT_MAX} characters as JSON")
        values = {"hand_id": _record_id(hand_id, "hand_id"), "rules": rules,
                  "seats": json.dumps(seats), "moves": json.dumps(moves),
                  "result": result_json, "at": _now()}
        return self._insert_once(token, schema.hands, "hand_id", values)

    def _room_for(self, conn: sa.Connection, table: sa.Table, learner_id: int) -> None:
        """Refuse a row past :data:`ROWS_MAX` of this kind for one learner."""
        self._refuse_full(table, conn.execute(
            sa.select(sa.func.count()).select_from(table)
            .where(table.c.learner_id == learner_id)).scalar_one())

    @staticmethod
    def _refuse_full(table: sa.Table, count: int) -> None:
        if count >= ROWS_MAX:
            raise ClassError(f"one learner keeps at most {ROWS_MAX} {table.name} rows; this "
                             "one was not stored")

    #: a learner's standing on one exercise, read in one statement inside the writers' turn:
    #: their id, their attempt rows (the bound), whether they asked for its solution, and
    #: their wrong answers to it (:data:`TRIES` of them show it too)
    _ATTEMPT_STANDING = sa.select(
        schema.learners.c.id,
        sa.select(sa.func.count()).select_from(schema.attempts)
        .where(schema.attempts.c.learner_id == schema.learners.c.id).scalar_subquery(),
        sa.exists().where(schema.reveals.c.learner_id == schema.learners.c.id,
                          schema.reveals.c.lesson == sa.bindparam("lesson"),
                          schema.reveals.c.exercise == sa.bindparam("exercise")),
        sa.select(sa.func.count()).select_from(schema.attempts).where(
            schema.attempts.c.learner_id == schema.learners.c.id,
            schema.attempts.c.lesson == sa.bindparam("lesson"),
            schema.attempts.c.exercise == sa.bindparam("exercise"),
            schema.attempts.c.verdict == sa.false()).scalar_subquery(),
    ).where(schema.learners.c.token == sa.bindparam("token"))

    def attempts(self, token: str, lesson: str | None = None) -> list[Attempt]:
        """The learner's attempts (of one lesson), oldest first."""
        t = schema.attempts
        with self.db.read() as conn:
            query = sa.select(t).where(t.c.learner_id == self._learner_id(conn, token))
            if lesson is not None:
                query = query.where(t.c.lesson == lesson)
            rows = conn.execute(query.order_by(t.c.at, t.c.id)).all()
        return [Attempt(attempt_id=r.attempt_id, lesson=r.lesson, exercise=r.exercise,
                        answer=r.answer, verdict=bool(r.verdict),
                        rule_ids=tuple(json.loads(r.rule_ids)), feedback=r.feedback,
                        at=_utc(r.at), after_solution=bool(r.after_solution)) for r in rows]

    def practice(self, token: str, lesson: str | None = None) -> list[PracticeItem]:
        """The learner's practice items (of one lesson), oldest first."""
        t = schema.practice
        with self.db.read() as conn:
            query = sa.select(t).where(t.c.learner_id == self._learner_id(conn, token))
            if lesson is not None:
                query = query.where(t.c.lesson == lesson)
            rows = conn.execute(query.order_by(t.c.at, t.c.id)).all()
        return [PracticeItem(attempt_id=r.attempt_id, lesson=r.lesson, kind=r.kind,
                             seed=int(r.seed), question=r.question, answer=r.answer,
                             verdict=bool(r.verdict), rule_ids=tuple(json.loads(r.rule_ids)),
                             feedback=r.feedback, at=_utc(r.at), rules=r.rules or "")
                for r in rows]

    def progress(self, token: str) -> dict[str, LessonProgress]:
        """Every lesson of the catalogue (in its order) with the learner's progress."""
        t = schema.attempts
        with self.db.read() as conn:
            rows = conn.execute(
                sa.select(t.c.lesson, t.c.exercise, sa.func.max(sa.case(
                    (sa.and_(t.c.verdict, sa.not_(t.c.after_solution)), 1), else_=0)))
                .where(t.c.learner_id == self._learner_id(conn, token))
                .group_by(t.c.lesson, t.c.exercise)).all()
        answered: dict[str, int] = {}
        right: dict[str, int] = {}
        for lesson, _exercise, best in rows:
            answered[lesson] = answered.get(lesson, 0) + 1
            right[lesson] = right.get(lesson, 0) + int(bool(best))
        return {lesson: LessonProgress(answered=answered.get(lesson, 0),
                                       right=right.get(lesson, 0),
                                       total=self.catalog.exercise_count(lesson))
                for lesson in self.catalog.lessons}

    def my_assignments(self, token: str) -> list[Assigned]:
        """The assignments of the learner's class, the soonest due first, each with how far
        the learner got (exercises of its lessons answered right)."""
        lr, a = schema.learners, schema.assignments
        with self.db.read() as conn:
            found = conn.execute(sa.select(lr.c.class_code).where(
                lr.c.token == secret_hash(_token(token)))).first()
            if found is None:
                raise UnknownLearner("unknown learner token")
            rows = [] if found.class_code is None else conn.execute(
                sa.select(a).where(a.c.class_code == found.class_code)).all()
        if not rows:
            return []
        progress = self.progress(token)
        out = []
        for row in sorted(rows, key=lambda r: (r.due, r.id)):
            given = _assignment(row)
            lessons = [progress[ln] for ln in given.lessons if ln in progress]
            out.append(Assigned(given, sum(p.right for p in lessons),
                                sum(p.total for p in lessons)))
        return out

    # ------------------------------------------------------------------ the teacher

    def assign(self, code: str, key: str, lessons: Sequence[str], due: str,
               title: str = "") -> Assignment:
        """Set the class ``lessons`` (ids of the catalogue) due on ``due`` (YYYY-MM-DD); the
        title defaults to the lessons' titles. At most :data:`ASSIGNMENTS_MAX` a class."""
        if isinstance(lessons, str) or not isinstance(lessons, Sequence) or not lessons:
            raise ClassError("assign at least one lesson")
        lessons = list(dict.fromkeys(lessons))
        unknown = [ln for ln in lessons if not self.catalog.has_lesson(ln)]
        if unknown:
            raise ClassError(f"unknown lesson {quote(str(unknown[0]))}")
        try:
            day = date.fromisoformat(due) if isinstance(due, str) else None
        except ValueError:
            day = None
        if day is None:
            raise ClassError(f"the due date is a day written YYYY-MM-DD, not {quote(due)}")
        title = display_name(title or ", ".join(self.catalog.title(ln) for ln in lessons)[:80],
                             "title", ClassError)
        a = schema.assignments
        with self.db.write() as conn:
            cls = self._check_key(conn, code, key)
            count = conn.execute(sa.select(sa.func.count()).select_from(a)
                                 .where(a.c.class_code == cls.code)).scalar_one()
            if count >= ASSIGNMENTS_MAX:
                raise ClassError(f"a class keeps at most {ASSIGNMENTS_MAX} assignments")
            made = conn.execute(sa.insert(a).values(
                class_code=cls.code, title=title, lessons=json.dumps(lessons),
                due=day.isoformat(), created_at=_now())).inserted_primary_key
            new_id = made[0] if made is not None else 0
        return Assignment(int(new_id), title, tuple(lessons), day.isoformat())

    def assignments(self, code: str, key: str) -> list[Assignment]:
        """The class's assignments, the soonest due first."""
        a = schema.assignments
        with self.db.read() as conn:
            cls = self._check_key(conn, code, key)
            rows = conn.execute(sa.select(a).where(a.c.class_code == cls.code)
                                .order_by(a.c.due, a.c.id)).all()
        return [_assignment(r) for r in rows]

    def class_report(self, code: str, key: str) -> ClassReport:
        """Everything of the class: its learners, attempts, practice items and hands."""
        with self.db.read() as conn:
            cls = self._check_key(conn, code, key)
            rows = {what: self._export(conn, cls.code, what) for what in EXPORTS}
        return ClassReport(code=cls.code, name=cls.name, **rows)

    def class_of_key(self, key: str) -> str | None:
        """The code of the class whose teacher key is ``key`` (``None``: no class has it). One
        look-up by the key's hash, however many classes there are."""
        if not isinstance(key, str) or not 0 < len(key) <= SECRET_MAX:
            return None
        c = schema.classes
        with self.db.read() as conn:
            code = conn.execute(sa.select(c.c.code).where(c.c.key_hash == secret_hash(key))
                                .limit(1)).scalar()
        return str(code) if code is not None else None

    def export_rows(self, code: str, key: str,
                    what: Literal["attempts", "practice", "hands", "learners"]) -> list[dict]:
        """One kind of row of the class, ready for CSV (see :class:`ClassReport`)."""
        if what not in EXPORTS:
            raise ClassError(f"cannot export {quote(str(what))}; choose one of "
                             f"{', '.join(EXPORTS)}")
        with self.db.read() as conn:
            cls = self._check_key(conn, code, key)
            return self._export(conn, cls.code, what)

    def reset_class(self, code: str, key: str, *, confirm: str) -> int:
        """Delete every learner of the class and all their rows (the class, its code and key
        stay); ``confirm`` must be the class code. Returns the number of rows deleted."""
        with self.db.write() as conn:
            cls = self._check_key(conn, code, key)
            if not isinstance(confirm, str) or class_code(confirm) != cls.code:
                raise ClassError("to reset the class, confirm with its class code; "
                                 "nothing was deleted")
            lr = schema.learners
            ids = sa.select(lr.c.id).where(lr.c.class_code == cls.code).scalar_subquery()
            deleted = 0
            for table in (schema.attempts, schema.practice, schema.hands):
                deleted += conn.execute(sa.delete(table).where(
                    table.c.learner_id.in_(ids))).rowcount
            deleted += conn.execute(sa.delete(lr).where(lr.c.class_code == cls.code)).rowcount
            deleted += conn.execute(sa.delete(schema.hand_reviews).where(
                schema.hand_reviews.c.class_code == cls.code)).rowcount
            return deleted

    def import_progress(self, code: str, key: str, data: Mapping[str, Any]) -> int:
        """Add a learner's downloaded progress file to the class (the whole file is checked
        before anything is stored; importing it again adds nothing). Returns rows stored."""
        if not isinstance(data, Mapping) or data.get("format") != "crazylab-progress":
            raise ClassError("not a crazylab progress file (its format must be "
                             "'crazylab-progress')")
        if data.get("version") != 1:
            raise ClassError(f"progress file version {quote(str(data.get('version')))} is not "
                             "supported (1 is)")
        who = data.get("learner")
        if not isinstance(who, Mapping):
            raise ClassError("progress file: 'learner' must be an object")
        import_id = _record_id(who.get("id"), "learner id")
        name = display_name(who.get("name"), "display name", ClassError)
        attempt_rows: list[dict[str, Any]] = []
        practice_rows: list[dict[str, Any]] = []
        for what, items, check in (("attempts", data.get("attempts", []), self._attempt_values),
                                   ("practice", data.get("practice", []),
                                    self._practice_values)):
            if not isinstance(items, list):
                raise ClassError(f"progress file: {what!r} must be a list")
            rows = attempt_rows if what == "attempts" else practice_rows
            for n, item in enumerate(items):
                if not isinstance(item, Mapping):
                    raise ClassError(f"progress file: {what} item {n + 1} is not an object")
                # what the learner answered, judged again here (a verdict in the file is
                # the learner's own word, never taken)
                fields = {k: v for k, v in item.items() if k in _IMPORTED[what]}
                try:
                    values = check(**fields)
                except TypeError:
                    raise ClassError(f"progress file: {what} item {n + 1} has missing or "
                                     "unknown fields") from None
                except ClassError as e:
                    raise ClassError(f"progress file: {what} item {n + 1}: {e}") from None
                if what == "attempts" and item.get("after_solution") is True:
                    values.update(after_solution=True,
                                  feedback=_clip(f"{values['feedback']}\n{AFTER_SOLUTION}"))
                values["at"] = _when(item.get("at"), f"{what} item {n + 1}")
                rows.append(values)
        stored = 0
        with self.db.write() as conn:
            cls = self._check_key(conn, code, key)
            lr = schema.learners
            learner_id = conn.execute(sa.select(lr.c.id).where(
                lr.c.class_code == cls.code, lr.c.import_id == import_id)).scalar()
            if learner_id is None:
                learner_id = conn.execute(sa.insert(lr).values(
                    token=secret_hash(secrets.token_urlsafe(24)), name=name, class_code=cls.code,
                    import_id=import_id, created_at=_now()).returning(lr.c.id)).scalar_one()
                stored += 1
            for table, rows in ((schema.attempts, attempt_rows),
                                (schema.practice, practice_rows)):
                for values in rows:
                    stored += self._insert_row(conn, table, "attempt_id",
                                               {**values, "learner_id": learner_id})
        return stored

    # ------------------------------------------------------------------ helpers

    def _attempt_values(self, *, lesson: Any, exercise: Any, answer: Any, attempt_id: Any,
                        version: Any = None) -> dict[str, Any]:
        """An attempt's row, judged here: the catalogue's question, the learner's answer."""
        lesson = self._lesson(lesson)
        if not isinstance(exercise, str) or not self.catalog.has_exercise(lesson, exercise):
            raise ClassError(f"unknown exercise {quote(str(exercise))} in lesson {lesson}")
        answer = _text(answer, "answer", ANSWER_MAX)
        try:
            q = self.catalog.question(lesson, exercise)
        except (KeyError, QuestionError):
            raise ClassError(f"exercise {exercise} of {lesson} cannot be judged by this "
                             "server (its catalogue has no question for it)") from None
        if version is not None and version != q.version:
            raise ClassError(f"exercise {exercise} of {lesson} has changed since the page was "
                             "opened: reload the page and answer it again")
        verdict, feedback = q.judge(answer)
        if verdict is None:
            raise ClassError(_not_an_answer(exercise, feedback))
        return {"attempt_id": _record_id(attempt_id, "attempt_id"), "lesson": lesson,
                "exercise": exercise, "answer": answer, "verdict": verdict,
                "rule_ids": json.dumps(list(self.catalog.lessons[lesson].exercises[exercise])),
                "feedback": _clip(feedback), "version": q.version, "after_solution": False}

    def _practice_values(self, *, lesson: Any, kind: Any, seed: Any, answer: Any,
                         attempt_id: Any, rules: Any = None,
                         question: Any = None) -> dict[str, Any]:
        """A practice item's row: the item dealt again and the answer judged here."""
        from crazylab.practice import PracticeError, make_item
        from crazylab.questions import for_item

        lesson = self._lesson(lesson)
        if not isinstance(kind, str) or kind not in PRACTICE_KINDS:
            raise ClassError(f"unknown practice kind {quote(str(kind))}; the kinds are "
                             f"{', '.join(sorted(PRACTICE_KINDS))}")
        if isinstance(seed, bool) or not isinstance(seed, int) \
                or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            raise ClassError(f"seed must be a 64-bit integer, not {quote(repr(seed))}")
        answer = _text(answer, "answer", ANSWER_MAX)
        rule_sets = self.catalog.lessons[lesson].practice_rule_sets
        if rules is not None and rules not in rule_sets:
            raise ClassError(f"lesson {lesson} practises no rule set {quote(str(rules))}")
        item = None
        for name in [rules] if rules is not None else rule_sets:
            try:
                found = make_item(name, kind, seed)
            except (PracticeError, CrazylabError):
                continue
            if rules is not None or question is None or found.question == question:
                item = found
                break
        if item is None:
            raise ClassError(f"no {kind} practice item of {lesson} has that seed and question")
        verdict, feedback = for_item(item).judge(answer)
        if verdict is None:
            raise ClassError(_not_an_answer("the practice item", feedback))
        return {"attempt_id": _record_id(attempt_id, "attempt_id"), "lesson": lesson,
                "kind": kind, "seed": seed, "rules": item.rules,
                "question": _clip(item.question, QUESTION_MAX), "answer": answer,
                "verdict": verdict, "rule_ids": json.dumps(list(item.rule_ids)),
                "feedback": _clip(feedback)}

    def _lesson(self, lesson: Any) -> str:
        if not isinstance(lesson, str) or not self.catalog.has_lesson(lesson):
            raise ClassError(f"unknown lesson {quote(str(lesson))}")
        return lesson

    def _insert_once(self, token: str, table: sa.Table, key: str,
                     values: dict[str, Any]) -> bool:
        token = _token(token)
        self._statement(table, key)  # built before the write lock is taken
        with self.db.write() as conn:
            values["learner_id"] = self._learner_id(conn, token)
            return bool(self._insert_row(conn, table, key, values))

    def _statement(self, table: sa.Table, key: str) -> Any:
        """INSERT ... ON CONFLICT (key) DO NOTHING RETURNING id, built once per table with
        bound parameters (building a statement per call cost more than running it)."""
        stmt = self._statements.get(table.name)
        if stmt is None and self.db.dialect in ("sqlite", "postgresql"):
            from sqlalchemy.dialects import postgresql, sqlite

            dialect_insert = sqlite.insert if self.db.dialect == "sqlite" else postgresql.insert
            columns = [c for c in table.columns if c.name != "id"]
            stmt = dialect_insert(table).values({c.name: sa.bindparam(c.name, type_=c.type)
                                                 for c in columns}) \
                .on_conflict_do_nothing(index_elements=[table.c[key]]).returning(table.c.id)
            self._statements[table.name] = stmt
        return stmt

    def _insert_row(self, conn: sa.Connection, table: sa.Table, key: str,
                    values: dict[str, Any]) -> int:
        """Insert unless a row with the same ``key`` exists: 1 if inserted, else 0."""
        stmt = self._statement(table, key)
        if stmt is not None:
            return 1 if conn.execute(stmt, values).first() is not None else 0
        if conn.execute(sa.select(table.c.id).where(table.c[key] == values[key])).first():
            return 0
        with conn.begin_nested():
            try:
                conn.execute(sa.insert(table).values(**values))
            except sa_exc.IntegrityError:
                return 0
        return 1

    _LEARNER_BY_TOKEN = sa.select(schema.learners.c.id).where(
        schema.learners.c.token == sa.bindparam("token"))

    def _learner_id(self, conn: sa.Connection, token: Any) -> int:
        found = conn.execute(self._LEARNER_BY_TOKEN,
                             {"token": secret_hash(_token(token))}).scalar()
        if found is None:
            raise UnknownLearner("unknown learner token")
        return int(found)

    def _class_row(self, conn: sa.Connection, code: str | None) -> Any:
        c = schema.classes
        return conn.execute(sa.select(c).where(c.c.code == code)).first()

    def _check_key(self, conn: sa.Connection, code: Any, key: Any) -> Any:
        """The class row if ``key`` is its teacher key; an unknown code is refused the same
        way as a wrong key (and takes the same time)."""
        row = self._class_row(conn, class_code(code)) if isinstance(code, str) else None
        if not secret_matches(row.key_hash if row is not None else None, key):
            raise ClassError("wrong teacher key")
        return row

    def _export(self, conn: sa.Connection, code: str, what: str) -> list[dict[str, Any]]:
        lr = schema.learners
        if what == "learners":
            rows = conn.execute(sa.select(lr.c.id, lr.c.name, lr.c.created_at)
                                .where(lr.c.class_code == code).order_by(lr.c.id))
            return [{"learner": r.id, "name": r.name, "joined": _iso(r.created_at)}
                    for r in rows]
        if what == "reviews":  # by seat name: a table's seat is not a learner's row
            rv = schema.hand_reviews
            found = conn.execute(sa.select(rv).where(rv.c.class_code == code)
                                 .order_by(rv.c.at, rv.c.id))
            return [{"name": x.name, "table": x.table_code, "hand": x.hand, "seat": x.seat,
                     "ply": x.ply, "situation": x.situation, "verdict": x.verdict,
                     "loss": x.loss, "rules": x.rules, "at": _iso(x.at)} for x in found]
        table = getattr(schema, what)
        query = (sa.select(lr.c.id.label("learner_no"), lr.c.name.label("learner_name"), table)
                 .select_from(table.join(lr, lr.c.id == table.c.learner_id))
                 .where(lr.c.class_code == code).order_by(table.c.at, table.c.id))
        out = []
        for r in conn.execute(query).mappings():
            row: dict[str, Any] = {"learner": r["learner_no"], "name": r["learner_name"]}
            for col in table.c:
                if col.name in ("id", "learner_id"):
                    continue
                value = r[col.name]
                if col.name == "at":
                    value = _iso(value)
                elif col.name == "rule_ids":
                    value = " ".join(json.loads(value))
                elif col.name in ("verdict", "after_solution"):
                    value = bool(value)
                row[col.name] = value
            out.append(row)
        return out


# --------------------------------------------------------------------------- validation


def _assignment(row: Any) -> Assignment:
    return Assignment(int(row.id), str(row.title), tuple(json.loads(row.lessons)), str(row.due))


def _code(code: Any) -> str:
    if not isinstance(code, str):
        raise ClassError("the class code must be text")
    normal = class_code(code)
    if not re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", normal):
        raise ClassError(f"unknown class code {quote(code)}")
    return normal


def _token(token: Any) -> str:
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        raise UnknownLearner("unknown learner token")
    return token


def _record_id(value: Any, what: str) -> str:
    if not isinstance(value, str) or not RECORD_ID.fullmatch(value):
        raise ClassError(f"{what} must be 1 to 64 letters, digits or _.:- , not "
                         f"{quote(str(value))}")
    return value


def _text(value: Any, what: str, limit: int, *, empty: bool = True) -> str:
    return checks.text(what, value, limit, ClassError, empty=empty) or ""


def _not_an_answer(what: str, how: str) -> str:
    """One line: the answer could not be read, and how to write one."""
    how = " ".join(how.split())
    return f"not an answer to {what}: " + (how if len(how) <= 120 else how[:119] + "…")


def _clip(text: str, limit: int = FEEDBACK_MAX) -> str:
    """Engine feedback kept within a column's limit."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _str_list(value: Any, what: str, most: int, longest: int) -> list[str]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ClassError(f"{what} must be a list of text")
    if len(value) > most:
        raise ClassError(f"more than {most} {what} ({len(value)})")
    return [_text(v, f"each of {what}", longest) for v in value]


def _when(value: Any, what: str) -> datetime:
    if not isinstance(value, str):
        raise ClassError(f"progress file: {what}: 'at' must be an ISO-8601 time")
    try:
        return _utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        raise ClassError(f"progress file: {what}: 'at' is not an ISO-8601 time: "
                         f"{quote(value)}") from None


def _iso(value: datetime) -> str:
    return _utc(value).isoformat(timespec="milliseconds")


# --------------------------------------------------------------------------- CSV

_FORMULA = ("=", "+", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    """A spreadsheet would run a text cell starting with = + @ (or - before a non-number) as
    a formula: such a cell gets a leading apostrophe."""
    if isinstance(value, str) and value and (
            value.startswith(_FORMULA) or (value[0] == "-" and not _is_number(value))):
        return "'" + value
    return value


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def rows_to_csv(rows: Sequence[Mapping[str, Any]], what: str = "attempts") -> str:
    """Export rows as CSV text (a header line even when there are no rows)."""
    columns: list[str] = list(rows[0]) if rows else list(_COLUMNS.get(what, ()))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return out.getvalue()


#: the fields of a progress file's records the store reads (it judges them itself)
_IMPORTED = {"attempts": frozenset({"lesson", "exercise", "answer", "attempt_id"}),
             "practice": frozenset({"lesson", "kind", "seed", "answer", "attempt_id", "rules",
                                    "question"})}

_COLUMNS: dict[str, tuple[str, ...]] = {
    "learners": ("learner", "name", "joined"),
    "attempts": ("learner", "name", "attempt_id", "lesson", "exercise", "answer", "verdict",
                 "after_solution", "rule_ids", "feedback", "at", "version"),
    "practice": ("learner", "name", "attempt_id", "lesson", "kind", "rules", "seed",
                 "question", "answer", "verdict", "rule_ids", "feedback", "at"),
    "hands": ("learner", "name", "hand_id", "rules", "seats", "moves", "result", "at"),
    "reviews": ("name", "table", "hand", "seat", "ply", "situation", "verdict", "loss",
                "rules", "at"),
}

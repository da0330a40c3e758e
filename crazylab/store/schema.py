"""The class database's tables and their migrations (SQLAlchemy Core).

The schema is built by numbered steps: ``MIGRATIONS[n]`` turns a version ``n - 1`` database
into version ``n`` (version 0 is an empty database). :func:`migrate` runs, in one
transaction, every step above the version in the ``schema_version`` table, so a database
made by an older crazylab is upgraded in place when it is opened; one newer than
:data:`VERSION` is refused.

* version 1: ``schema_version``, ``classes``, ``learners``, ``attempts``, ``practice``;
* version 2: ``hands`` (finished hands at a table), ``learners.import_id`` (a learner
  imported from a progress file, so importing it twice makes one learner) and indexes on a
  learner's attempts, practice items and hands;
* version 3: the shared tables of :mod:`crazylab.tables`: ``game_tables`` (a table's code,
  rules, seats, seed, host seat, started, hands dealt and version), ``table_seats`` (who sits
  where: a sha256 of the seat token, name, kind, bot level), ``table_moves`` (every move as
  it was made: hand, ply, seat, text), and a class tournament's ``tournaments`` and
  ``tournament_tables`` (its tables, round by round, and their results);
* version 4: answers judged by the store: ``attempts.version`` (the version of the question
  answered) and ``attempts.after_solution`` (answered once the solution was shown: never
  counted right), ``practice.rules`` (the rule set a practice item was dealt from) and
  ``reveals`` (a learner was shown an exercise's solution);
* version 5: secrets at rest: ``learners.token`` holds the SHA-256 of the learner's token
  (the tokens stored in clear before are hashed), and ``game_tables.keyed`` says the table's
  ``seed`` is a nonce whose deal only the server's secret derives;
* version 6: tables belong to a class: ``game_tables.class_code`` (the class whose teacher
  may watch it; a tournament's tables take their tournament's class) and
  ``game_tables.active_at`` (the table's last change: a table quiet for longer than the
  service's ``retire_after`` is retired, and not replayed at a start); ``assignments``
  (lessons a teacher set the class, with a due date);
* version 7: ``hand_reviews``: each rated choice of a learner's seat in a hand played at one
  of the class's tables, as the server's review of that hand rated it (the situation, the
  verdict, the win chance lost and the rule ids), for the teacher's tally of costly choices.

:data:`metadata` describes the current version; the steps create what they add with their
own table definitions, so an old step never creates a newer column.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

VERSION = 7

metadata = sa.MetaData()


def _judged_columns(table: str, judged: bool) -> list[sa.Column]:
    """The columns version 4 adds to ``attempts`` or ``practice`` (none before it)."""
    if not judged:
        return []
    if table == "attempts":
        return [sa.Column("version", sa.String(16), nullable=True),
                sa.Column("after_solution", sa.Boolean, nullable=False,
                          server_default=sa.false())]
    return [sa.Column("rules", sa.String(80), nullable=True)]


def _reveals_table(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "reveals", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("learner_id", sa.Integer,
                  sa.ForeignKey("learners.id", ondelete="CASCADE"), nullable=False),
        sa.Column("lesson", sa.String(80), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("learner_id", "lesson", "exercise", name="uq_reveals_once"),
    )


def _assignments_table(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "assignments", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_code", sa.String(32),
                  sa.ForeignKey("classes.code", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("lessons", sa.Text, nullable=False),   # JSON: the lesson ids assigned
        sa.Column("due", sa.String(10), nullable=False),  # YYYY-MM-DD
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _reviews_table(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "hand_reviews", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_code", sa.String(32),
                  sa.ForeignKey("classes.code", ondelete="CASCADE"), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("situation", sa.String(16), nullable=False),  # "" for a good choice
        sa.Column("verdict", sa.String(12), nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),  # rule ids, space separated
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def _base_tables(md: sa.MetaData, *, with_import_id: bool, judged: bool = False
                 ) -> dict[str, sa.Table]:
    """The version-1 tables (``learners`` with ``import_id`` when ``with_import_id``, the
    answers with version 4's columns when ``judged``)."""
    version = sa.Table("schema_version", md, sa.Column("version", sa.Integer, nullable=False))
    classes = sa.Table(
        "classes", md,
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    learner_cols: list[sa.Column] = [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("class_code", sa.String(32),
                  sa.ForeignKey("classes.code", ondelete="CASCADE"), nullable=True),
        sa.Column("hub_user", sa.String(255), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    ]
    if with_import_id:
        learner_cols.append(sa.Column("import_id", sa.String(64), nullable=True))
    # AUTOINCREMENT: SQLite never gives a forgotten learner's number to a new one
    learners = sa.Table("learners", md, *learner_cols, sqlite_autoincrement=True)

    def learner_fk() -> sa.Column:
        return sa.Column("learner_id", sa.Integer,
                         sa.ForeignKey("learners.id", ondelete="CASCADE"), nullable=False)

    attempts = sa.Table(
        "attempts", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("attempt_id", sa.String(64), nullable=False, unique=True),
        learner_fk(),
        sa.Column("lesson", sa.String(80), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("verdict", sa.Boolean, nullable=False),
        sa.Column("rule_ids", sa.Text, nullable=False),  # JSON list
        sa.Column("feedback", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        *_judged_columns("attempts", judged),
    )
    practice = sa.Table(
        "practice", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("attempt_id", sa.String(64), nullable=False, unique=True),
        learner_fk(),
        sa.Column("lesson", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("verdict", sa.Boolean, nullable=False),
        sa.Column("rule_ids", sa.Text, nullable=False),
        sa.Column("feedback", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        *_judged_columns("practice", judged),
    )
    return {"schema_version": version, "classes": classes, "learners": learners,
            "attempts": attempts, "practice": practice}


def _hands_table(md: sa.MetaData) -> sa.Table:
    return sa.Table(
        "hands", md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("hand_id", sa.String(64), nullable=False, unique=True),
        sa.Column("learner_id", sa.Integer,
                  sa.ForeignKey("learners.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rules", sa.String(80), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),   # JSON list
        sa.Column("moves", sa.Text, nullable=False),   # JSON list
        sa.Column("result", sa.Text, nullable=False),  # JSON object
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def _game_tables(md: sa.MetaData, *, keyed: bool = False, classed: bool = False
                 ) -> dict[str, sa.Table]:
    """The version-3 tables of shared game tables and tournaments (``game_tables.keyed``
    from version 5, ``class_code`` and ``active_at`` from version 6)."""
    classed_columns: list[sa.Column] = [
        sa.Column("class_code", sa.String(32), nullable=True),
        sa.Column("active_at", sa.DateTime(timezone=True), nullable=True)] if classed else []
    game_tables = sa.Table(
        "game_tables", md,
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),      # JSON: preset and house options
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("host", sa.Integer, nullable=False),
        sa.Column("started", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),   # hands dealt (0 before the start)
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *([sa.Column("keyed", sa.Boolean, nullable=False, server_default=sa.false())]
          if keyed else []),
        *classed_columns,
    )
    table_seats = sa.Table(
        "table_seats", md,
        sa.Column("code", sa.String(16), sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),  # learner, bot or empty
        sa.Column("bot", sa.String(32), nullable=True),    # the bot's level
    )
    table_moves = sa.Table(
        "table_moves", md,
        sa.Column("code", sa.String(16), sa.ForeignKey("game_tables.code", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    tournaments = sa.Table(
        "tournaments", md,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("class_code", sa.String(32), nullable=True),
        sa.Column("data", sa.Text, nullable=False),       # JSON: players, format, settings
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    tournament_tables = sa.Table(
        "tournament_tables", md,
        sa.Column("tournament_id", sa.String(32),
                  sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("players", sa.Text, nullable=False),    # JSON list of names, by seat
        sa.Column("result", sa.Text, nullable=True),      # JSON, once the table is done
    )
    return {"game_tables": game_tables, "table_seats": table_seats,
            "table_moves": table_moves, "tournaments": tournaments,
            "tournament_tables": tournament_tables}


_tables = _base_tables(metadata, with_import_id=True, judged=True)
schema_version = _tables["schema_version"]
classes = _tables["classes"]
learners = _tables["learners"]
attempts = _tables["attempts"]
practice = _tables["practice"]
hands = _hands_table(metadata)
reveals = _reveals_table(metadata)
assignments = _assignments_table(metadata)
hand_reviews = _reviews_table(metadata)
sa.Index("ix_hand_reviews_class", hand_reviews.c.class_code)
sa.Index("ix_hand_reviews_hand", hand_reviews.c.table_code, hand_reviews.c.hand,
         hand_reviews.c.seat)
sa.Index("ix_attempts_learner_lesson", attempts.c.learner_id, attempts.c.lesson)
sa.Index("ix_learners_class_import", learners.c.class_code, learners.c.import_id, unique=True)
sa.Index("ix_practice_learner_lesson", practice.c.learner_id, practice.c.lesson)
sa.Index("ix_hands_learner", hands.c.learner_id)
_shared = _game_tables(metadata, keyed=True, classed=True)
game_tables = _shared["game_tables"]
sa.Index("ix_game_tables_class", game_tables.c.class_code)
table_seats = _shared["table_seats"]
table_moves = _shared["table_moves"]
tournaments = _shared["tournaments"]
tournament_tables = _shared["tournament_tables"]


def _v1(conn: sa.Connection) -> None:
    md = sa.MetaData()
    _base_tables(md, with_import_id=False)
    md.create_all(conn)


def _v2(conn: sa.Connection) -> None:
    md = sa.MetaData()
    _base_tables(md, with_import_id=False)
    _hands_table(md).create(conn)
    # An added column: ALTER TABLE works the same on SQLite and PostgreSQL here.
    conn.execute(sa.text("ALTER TABLE learners ADD COLUMN import_id VARCHAR(64)"))
    for index in sorted(attempts.indexes | learners.indexes | practice.indexes | hands.indexes,
                        key=lambda i: str(i.name)):
        index.create(conn)


def _v3(conn: sa.Connection) -> None:
    md = sa.MetaData()
    _game_tables(md)
    md.create_all(conn)


def _v4(conn: sa.Connection) -> None:
    false = "0" if conn.dialect.name == "sqlite" else "false"
    conn.execute(sa.text("ALTER TABLE attempts ADD COLUMN version VARCHAR(16)"))
    conn.execute(sa.text(f"ALTER TABLE attempts ADD COLUMN after_solution BOOLEAN NOT NULL "
                         f"DEFAULT {false}"))
    conn.execute(sa.text("ALTER TABLE practice ADD COLUMN rules VARCHAR(80)"))
    md = sa.MetaData()
    _base_tables(md, with_import_id=True)
    _reveals_table(md).create(conn)


def _v5(conn: sa.Connection) -> None:
    import hashlib

    false = "0" if conn.dialect.name == "sqlite" else "false"
    conn.execute(sa.text(f"ALTER TABLE game_tables ADD COLUMN keyed BOOLEAN NOT NULL "
                         f"DEFAULT {false}"))
    rows = conn.execute(sa.text("SELECT id, token FROM learners")).all()
    for row in rows:  # the tokens kept in clear until now: only their hashes from here on
        digest = hashlib.sha256(row.token.encode("utf-8", "surrogatepass")).hexdigest()
        conn.execute(sa.text("UPDATE learners SET token = :t WHERE id = :i"),
                     {"t": digest, "i": row.id})


def _v6(conn: sa.Connection) -> None:
    conn.execute(sa.text("ALTER TABLE game_tables ADD COLUMN class_code VARCHAR(32)"))
    conn.execute(sa.text("ALTER TABLE game_tables ADD COLUMN active_at TIMESTAMP"
                         + ("" if conn.dialect.name == "sqlite" else " WITH TIME ZONE")))
    conn.execute(sa.text("UPDATE game_tables SET active_at = created_at"))
    # a tournament's tables belong to its class
    conn.execute(sa.text(
        "UPDATE game_tables SET class_code = (SELECT t.class_code FROM tournaments t "
        "JOIN tournament_tables tt ON tt.tournament_id = t.id "
        "WHERE tt.table_code = game_tables.code)"))
    for index in sorted(game_tables.indexes, key=lambda i: str(i.name)):
        index.create(conn)
    md = sa.MetaData()
    _base_tables(md, with_import_id=True)
    _assignments_table(md).create(conn)


def _v7(conn: sa.Connection) -> None:
    md = sa.MetaData()
    _base_tables(md, with_import_id=True)
    _reviews_table(md).create(conn)
    for index in sorted(hand_reviews.indexes, key=lambda i: str(i.name)):
        index.create(conn)


#: MIGRATIONS[n] upgrades a version n-1 database to version n
MIGRATIONS: dict[int, Callable[[sa.Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4,
                                                          5: _v5, 6: _v6, 7: _v7}


class SchemaTooNew(Exception):
    """The database was made by a newer crazylab."""


def current_version(conn: sa.Connection) -> int:
    """The database's schema version (0 when it has no tables yet)."""
    if not sa.inspect(conn).has_table("schema_version"):
        return 0
    found = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar()
    return int(found or 0)


def migrate(conn: sa.Connection, target: int = VERSION) -> int:
    """Upgrade the database on ``conn`` (inside its transaction) to ``target``; returns the
    version it had. Raises :class:`SchemaTooNew` for a database above :data:`VERSION`."""
    found = current_version(conn)
    if found > VERSION:
        raise SchemaTooNew(f"the class database has schema version {found}, newer than this "
                           f"crazylab's {VERSION}: upgrade crazylab")
    for step in range(found + 1, target + 1):
        MIGRATIONS[step](conn)
        conn.execute(sa.delete(schema_version))
        conn.execute(sa.insert(schema_version).values(version=step))
    return found

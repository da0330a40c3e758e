"""The teacher's dashboard (issue 22 item 5): a class's progress, its hard questions and its
wrong answers, practice over time, hands played, exports, a reset and imported progress files.

:class:`TeacherPage` is the page ``notebooks/teacher.ipynb`` shows: a class code and the
teacher key (a password field) open a :class:`TeacherDashboard`; "Make a new class" shows a
new class's code and key once. The key is typed on that page only: it is never put in an
address, a download's name, a learner's page or the browser's storage, and the page sent to
the browser holds none. A wrong key and an unknown code get the same line
(:data:`MISMATCH`), so codes cannot be probed.

Everything comes from the store (:mod:`crazylab.classroom.store`) through the teacher's calls,
each of which checks the key: one ``class_report`` (the rows as ``export_rows`` gives them, read
in one transaction) makes the tables and the downloads, so the CSV is the database's rows
(written by the store's ``rows_to_csv``) and agrees with the tables. The tables are built by
plain functions (:func:`progress_counts`, :func:`exercise_stats`, :func:`rule_stats`,
:func:`hands_played`, :func:`practice_accuracy`) that the tests call on the same rows.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from crazylab.classroom.records import EXPORTS
from crazylab.errors import CrazylabError

from ._common import ErrorArea, ErrorReporting, guarded
from ._markup import Html, Markup, style_sheet

if TYPE_CHECKING:
    import pandas as pd

MARKUP = Markup("dashboard")

#: the one line for a wrong key *and* an unknown code (the same text: codes cannot be probed)
MISMATCH = "That class code and key do not match."
#: the most common wrong answers shown per exercise
TOP_WRONG = 3


class DashboardError(CrazylabError):
    """A teacher's request the dashboard refuses (one line, nothing changed)."""


# --------------------------------------------------------------------------- rows


def plain(row: Any) -> dict[str, Any]:
    """A store row as a dict (a dict, a dataclass or a named tuple)."""
    if isinstance(row, dict):
        return dict(row)
    if dataclasses.is_dataclass(row) and not isinstance(row, type):
        return dataclasses.asdict(row)
    if hasattr(row, "_asdict"):
        return dict(row._asdict())
    raise DashboardError(f"a store row of an unexpected kind: {type(row).__name__}")


def report_rows(report: Any, what: str) -> list[dict[str, Any]]:
    """The rows of one part of a class report (``learners``, ``attempts``…) as dicts."""
    rows = report.get(what, []) if isinstance(report, dict) else getattr(report, what, [])
    return [plain(r) for r in rows or []]


def learner_of(row: dict[str, Any]) -> str:
    """The learner a row belongs to (their id in the report)."""
    for key in ("learner", "learner_id", "token"):
        if row.get(key) is not None:
            return str(row[key])
    raise DashboardError(f"a report row names no learner: {sorted(row)}")


def names_of(learners: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Learner id -> the name the dashboard shows (a repeated name gets ``(2)``, ``(3)``)."""
    shown: dict[str, str] = {}
    seen: Counter[str] = Counter()
    for row in learners:
        name = str(row.get("name") or "(no name)")
        seen[name] += 1
        shown[learner_of(row)] = name if seen[name] == 1 else f"{name} ({seen[name]})"
    return shown


def _rule_ids(value: Any) -> list[str]:
    """``("SR-1", "SR-2")``, ``["SR-1"]`` or ``"SR-1 SR-2"`` -> a list of ids."""
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            return [str(v) for v in json.loads(text)]
        return text.replace(",", " ").split()
    return [str(v) for v in value]


def _when(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


# --------------------------------------------------------------------------- tables


@dataclasses.dataclass(frozen=True)
class Cell:
    """One learner's progress in one lesson: exercises answered (at least once) and answered
    right (at least once), of the lesson's ``total``."""

    answered: int
    right: int
    total: int

    def text(self) -> str:
        return f"{self.answered}/{self.total}, {self.right} right"


def lesson_titles() -> dict[str, tuple[str, int]]:
    """lesson id -> (title, number of exercises), in course order, from the catalogue."""
    from crazylab.classroom import catalog

    cat = catalog.load()
    return {lesson: (cat.title(lesson), cat.exercise_count(lesson)) for lesson in cat.lessons}


def exercise_questions(limit: int = 120) -> dict[tuple[str, str], str]:
    """(lesson, exercise) -> its question, from the catalogue (cut at ``limit`` characters)."""
    from crazylab.classroom import catalog

    out = {}
    for lesson, info in catalog.load().lessons.items():
        for ex, text in getattr(info, "questions", {}).items():
            text = " ".join(str(text).split())
            out[(lesson, ex)] = text if len(text) <= limit else text[:limit - 1] + "…"
    return out


def progress_counts(learners: Sequence[dict[str, Any]], attempts: Sequence[dict[str, Any]],
                    lessons: dict[str, tuple[str, int]]) -> dict[str, dict[str, Cell]]:
    """learner id -> lesson -> :class:`Cell`, for every learner and lesson."""
    answered: dict[tuple[str, str], set[str]] = {}
    right: dict[tuple[str, str], set[str]] = {}
    for row in attempts:
        key = (learner_of(row), str(row["lesson"]))
        answered.setdefault(key, set()).add(str(row["exercise"]))
        if counted(row):
            right.setdefault(key, set()).add(str(row["exercise"]))
    return {learner_of(ln): {lesson: Cell(len(answered.get((learner_of(ln), lesson), ())),
                                          len(right.get((learner_of(ln), lesson), ())), total)
                             for lesson, (_, total) in lessons.items()}
            for ln in learners}


def counted(row: dict[str, Any]) -> bool:
    """Whether an answer counts as right: the store's verdict, and not given once the
    solution was shown."""
    return bool(row["verdict"]) and not row.get("after_solution")


def wrong_answers(rows: Iterable[dict[str, Any]], top: int = TOP_WRONG
                  ) -> list[tuple[str, int, str]]:
    """The most common wrong answers of ``rows``: (answer, times given, the engine's feedback
    on it), most common first (ties: the answer first given first). Answers are compared as
    typed, spaces at the ends and case aside."""
    return [item[:3] for item in _ranked_wrong(rows, top)]


def _ranked_wrong(rows: Iterable[dict[str, Any]], top: int
                  ) -> list[tuple[str, int, str, str]]:
    """(answer, times, feedback, where) of the most common wrong answers; rows with a
    ``_where`` (the question) count an answer once per question."""
    counts: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for row in sorted(rows, key=lambda r: _when(r["at"])):
        if row["verdict"]:
            continue
        answer = str(row["answer"]).strip()
        norm = (str(row.get("_where", "")), " ".join(answer.lower().split()))
        counts[norm] += 1
        first.setdefault(norm, (answer, str(row.get("feedback") or "")))
    order = list(first)
    ranked = sorted(counts, key=lambda a: (-counts[a], order.index(a)))
    return [(first[a][0], counts[a], first[a][1], a[0]) for a in ranked[:top]]


def _rate(right: int, total: int) -> float:
    return round(100.0 * right / total, 1) if total else 0.0


def exercise_stats(attempts: Sequence[dict[str, Any]],
                   lessons: dict[str, tuple[str, int]] | None = None) -> pd.DataFrame:
    """One row per exercise answered: attempts, right, success rate (%), learners, its rule
    ids and its most common wrong answers (a list of (answer, times, feedback))."""
    import pandas as pd

    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in attempts:
        groups.setdefault((str(row["lesson"]), str(row["exercise"])), []).append(row)
    order = list(lessons or {})

    def key(k: tuple[str, str]) -> tuple[int, str, str]:
        return (order.index(k[0]) if k[0] in order else len(order), k[0], k[1])

    records = []
    for lesson, exercise in sorted(groups, key=key):
        rows = groups[(lesson, exercise)]
        right = sum(1 for r in rows if counted(r))
        rules = sorted({rid for r in rows for rid in _rule_ids(r.get("rule_ids"))})
        records.append({"lesson": lesson, "exercise": exercise, "rules": " ".join(rules),
                        "attempts": len(rows), "right": right,
                        "success %": _rate(right, len(rows)),
                        "learners": len({learner_of(r) for r in rows}),
                        "wrong answers": wrong_answers(rows)})
    return pd.DataFrame(records, columns=["lesson", "exercise", "rules", "attempts", "right",
                                          "success %", "learners", "wrong answers"])


def rule_stats(attempts: Sequence[dict[str, Any]], practice: Sequence[dict[str, Any]],
               lessons: dict[str, tuple[str, int]] | None = None) -> pd.DataFrame:
    """One row per rule id asked about (exercises and practice items together): attempts,
    right, success rate (%), learners, and its most common wrong answers as (answer, times,
    feedback, where: ``lesson e03`` or ``lesson practice: kind``); the same answer to two
    questions is two mistakes."""
    import pandas as pd

    def title(lesson: Any) -> str:
        return (lessons or {}).get(str(lesson), (str(lesson), 0))[0]

    groups: dict[str, list[dict[str, Any]]] = {}
    for row in attempts:
        where = f"{title(row['lesson'])} {row['exercise']}"
        for rid in _rule_ids(row.get("rule_ids")):
            groups.setdefault(rid, []).append({**row, "_where": where})
    for row in practice:
        where = f"{title(row['lesson'])} practice: {row['kind']}"
        for rid in _rule_ids(row.get("rule_ids")):
            groups.setdefault(rid, []).append({**row, "_where": where})
    records = []
    for rid in sorted(groups):
        rows = groups[rid]
        right = sum(1 for r in rows if counted(r))
        records.append({"rule": rid, "attempts": len(rows), "right": right,
                        "success %": _rate(right, len(rows)),
                        "learners": len({learner_of(r) for r in rows}),
                        "wrong answers": _ranked_wrong(rows, TOP_WRONG)})
    return pd.DataFrame(records, columns=["rule", "attempts", "right", "success %",
                                          "learners", "wrong answers"])


def mastery_grid(attempts: Sequence[dict[str, Any]], practice: Sequence[dict[str, Any]],
                 names: dict[str, str], needs: int = 3) -> pd.DataFrame:
    """One row per learner (by name): for each rule family, "mastered / met" (rules the
    learner very likely knows, of the rules their answers exercised), and the rules they
    need next, least known first (:mod:`crazylab.classroom.mastery`)."""
    import pandas as pd

    from crazylab.classroom.mastery import evidence, family, mastery, weakest

    mine: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
    for rows, k in ((attempts, 0), (practice, 1)):
        for answered in rows:
            mine.setdefault(learner_of(answered), ([], []))[k].append(answered)
    standing = {who: mastery(evidence(a, p)) for who, (a, p) in mine.items()}
    families = sorted({family(r) for s in standing.values() for r in s})
    records = []
    for who in sorted(standing, key=lambda w: names.get(w, w)):
        rules = standing[who]
        line: dict[str, Any] = {"learner": names.get(who, who)}
        for fam in families:
            met = [m for r, m in rules.items() if family(r) == fam]
            done = sum(m.status == "mastered" for m in met)
            line[fam] = f"{done} / {len(met)}" if met else ""
        line["needs"] = " ".join(weakest(rules, needs))
        records.append(line)
    return pd.DataFrame(records, columns=["learner", *families, "needs"]).set_index("learner")


def assignment_table(assignments: Sequence[Any], learners: Sequence[dict[str, Any]],
                     attempts: Sequence[dict[str, Any]],
                     counts: dict[str, int] | None = None) -> pd.DataFrame:
    """One row per assignment and learner: exercises of its lessons answered right (of those
    in them), done, and the first-try accuracy (%) on them."""
    import pandas as pd

    counts = counts if counts is not None else {ln: n for ln, (_t, n) in lesson_titles().items()}
    names = names_of(learners)
    first: dict[tuple[str, str, str], dict[str, Any]] = {}
    right: set[tuple[str, str, str]] = set()
    for row in sorted(attempts, key=lambda r: str(r.get("at", ""))):
        key = (learner_of(row), str(row["lesson"]), str(row["exercise"]))
        first.setdefault(key, row)
        if counted(row):
            right.add(key)
    records = []
    for a in assignments:
        lessons = set(a.lessons)
        total = sum(counts.get(ln, 0) for ln in lessons)
        for who in names:
            done = sum(1 for k in right if k[0] == who and k[1] in lessons)
            tries = [r for k, r in first.items() if k[0] == who and k[1] in lessons]
            records.append({"assignment": a.title, "due": a.due, "learner": names[who],
                            "right": f"{done} / {total}", "done": total > 0 and done >= total,
                            "first-try %": _rate(sum(1 for r in tries if counted(r)),
                                                 len(tries))})
    return pd.DataFrame(records, columns=["assignment", "due", "learner", "right", "done",
                                          "first-try %"])


def hands_played(hands: Sequence[dict[str, Any]], names: dict[str, str]) -> pd.DataFrame:
    """Hands finished: one row per learner (by name), one column per rule set, and a total."""
    import pandas as pd

    counts: Counter[tuple[str, str]] = Counter(
        (names.get(learner_of(h), learner_of(h)), str(h["rules"])) for h in hands)
    rules = sorted({r for _, r in counts})
    people = [n for n in names.values() if any(k[0] == n for k in counts)]
    table = pd.DataFrame([[counts[(p, r)] for r in rules] for p in people],
                         index=pd.Index(people, name="learner"), columns=rules)
    table["all rule sets"] = table.sum(axis=1) if rules else []
    return table


def costly_choices(reviews: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """The class's costly choices at its tables (mistakes and blunders of the server's
    reviews), by kind of choice: how often, the learners who made them (most often first),
    the win chance lost on average and the rules that decide them; the costliest first."""
    import pandas as pd

    from crazylab.review import SITUATIONS

    costly = [r for r in reviews if r.get("verdict") in ("mistake", "blunder")]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for r in costly:
        kinds.setdefault(str(r.get("situation") or "card"), []).append(r)
    rows = []
    for kind, found in kinds.items():
        who = Counter(str(r["name"]) for r in found)
        rules = sorted({x for r in found for x in str(r.get("rules") or "").split()})
        rows.append({"choice": SITUATIONS.get(kind, kind), "times": len(found),
                     "learners": ", ".join(f"{n} ({k})" for n, k in who.most_common()),
                     "win chance lost": f"{sum(float(r['loss']) for r in found) / len(found):.0%}",
                     "rules": " ".join(rules), "_lost": sum(float(r["loss"]) for r in found)})
    columns = ["choice", "times", "learners", "win chance lost", "rules"]
    if not rows:
        return pd.DataFrame(columns=columns)
    table = pd.DataFrame(rows).sort_values(["_lost", "times"], ascending=False)
    return table[columns].reset_index(drop=True)


def practice_accuracy(practice: Sequence[dict[str, Any]], names: dict[str, str]
                      ) -> pd.DataFrame:
    """Practice accuracy over time: one row per (period, learner) and per period for the whole
    class (learner ``"whole class"``): items, right, accuracy (%). The period is the hour when
    all practice falls within two days, else the day."""
    import pandas as pd

    cols = ["period", "learner", "items", "right", "accuracy %"]
    if not practice:
        return pd.DataFrame(columns=cols)
    frame = pd.DataFrame({
        "at": pd.to_datetime([_when(r["at"]) for r in practice], utc=True),
        "learner": [names.get(learner_of(r), learner_of(r)) for r in practice],
        "right": [bool(r["verdict"]) for r in practice]})
    span = frame["at"].max() - frame["at"].min()
    unit = "h" if span <= pd.Timedelta(days=2) else "D"
    frame["period"] = frame["at"].dt.floor(unit)
    parts = []
    for by in (["period", "learner"], ["period"]):
        g = frame.groupby(by, sort=True)["right"].agg(items="count", right="sum").reset_index()
        if "learner" not in g:
            g["learner"] = "whole class"
        parts.append(g)
    out = pd.concat(parts, ignore_index=True)
    out["right"] = out["right"].astype(int)
    out["accuracy %"] = (100.0 * out["right"] / out["items"]).round(1)
    out = out[cols].sort_values(["period", "learner"], ignore_index=True)
    out.attrs["period"] = unit
    return out


def accuracy_figure(table: pd.DataFrame) -> Any:
    """A plotly line chart of :func:`practice_accuracy`: one line per learner, the whole class
    in bold."""
    import pandas as pd
    import plotly.graph_objects as go

    fig = go.Figure()
    for learner, rows in table.groupby("learner", sort=False):
        whole = learner == "whole class"
        fig.add_trace(go.Scatter(
            # plotly draws a name's tags (<a href>, <b>): a learner's name is text, escaped
            x=rows["period"].dt.tz_localize(None), y=rows["accuracy %"],
            name=html.escape(str(learner)),
            mode="lines+markers", customdata=rows[["right", "items"]],
            hovertemplate="%{y}% (%{customdata[0]} of %{customdata[1]})",
            line={"width": 4 if whole else 1.5, "color": "#222" if whole else None}))
    periods = table["period"].dt.tz_localize(None)
    step = pd.Timedelta(1, unit=table.attrs.get("period", "h"))
    fig.update_xaxes(range=[periods.min() - step, periods.max() + step])
    fig.update_layout(template="plotly_white", height=320, margin={"l": 50, "r": 20,
                      "t": 30, "b": 40}, yaxis={"title": "right (%)", "range": [0, 105]},
                      xaxis={"title": "practice time (UTC)"}, legend={"orientation": "h"})
    return fig


# --------------------------------------------------------------------------- downloads


def csv_bytes(rows: Sequence[dict[str, Any]], what: str) -> bytes:
    """``export_rows`` as the store writes CSV (``rows_to_csv``: a header line, cells that a
    spreadsheet would run as a formula quoted with an apostrophe), UTF-8."""
    from crazylab.classroom.store import rows_to_csv

    return rows_to_csv(rows, what).encode("utf-8")


def _columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    cols: list[str] = []
    for row in rows:
        cols += [k for k in row if k not in cols]
    return cols


def parquet_bytes(rows: Sequence[dict[str, Any]]) -> bytes | None:
    """``export_rows`` as a Parquet file (lists and dicts as JSON text), or ``None`` when
    pyarrow is not installed."""
    try:
        import pandas as pd
        import pyarrow  # noqa: F401
    except ImportError:
        return None
    cols = _columns(rows)
    frame = pd.DataFrame([{c: (json.dumps(list(v) if isinstance(v, tuple) else v,
                                          ensure_ascii=False)
                               if isinstance(v := row.get(c), (list, tuple, dict)) else v)
                           for c in cols} for row in rows], columns=cols)
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    return buf.getvalue()


def download_link(filename: str, mime: str, payload: bytes, label: str) -> Html:
    """A download link whose address carries the file (base64): made in the browser,
    no server route."""
    data = base64.b64encode(payload).decode("ascii")
    return MARKUP("download", filename=filename, mime=mime, data=data, label=label)


# --------------------------------------------------------------------------- markup


def _wrong_html(items: Sequence[tuple[Any, ...]]) -> Html:
    """(answer, times, feedback[, where]) items: the answer × times, where it was given, and
    the engine's explanation under it."""
    if not items:
        return MARKUP("none")
    out = []
    for ans, n, fb, *where in items:
        at = (Markup.join([" ", MARKUP("wrong_where", where=where[0])]) if where and where[0]
              else "")
        out.append(MARKUP("wrong", answer=ans, times=n, where=Html(at), feedback=fb))
    return Markup.join(out)


def table_html(frame: pd.DataFrame, *, index: bool = False,
               cell_class: Callable[[str, Any], str] | None = None) -> Html:
    """A DataFrame as a readable HTML table: text escaped, numbers right-aligned, the wrong
    answers column as answer × times with the engine's explanation under it."""
    head = ([str(frame.index.name or "")] if index else []) + [str(c) for c in frame.columns]
    rows = []
    for label, row in frame.iterrows():
        cells = [MARKUP("row_head", text=str(label))] if index else []
        for col in frame.columns:
            value = row[col]
            classes = []
            text: object
            if col == "wrong answers":
                text = _wrong_html(value)
            elif isinstance(value, Cell):
                text = value.text()
                classes.append("cl-none" if not value.answered else
                               "cl-done" if value.right >= value.total > 0 else "cl-some")
            else:
                text = str(value)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    classes.append("cl-num")
            if cell_class:
                classes.append(cell_class(str(col), value))
            cls = " ".join(c for c in classes if c)
            cells.append(MARKUP("cell_class", cls=cls, text=text) if cls
                         else MARKUP("cell", text=text))
        rows.append(MARKUP("row", cells=Markup.join(cells)))
    return MARKUP("table", head=Markup.join(MARKUP("column_head", text=h) for h in head),
                  rows=Markup.join(rows))


def _line(text: str, kind: str = "") -> str:
    return MARKUP("line", cls=f"cl-dash-line {kind}".strip(), text=text) if text else ""


def _is_class_error(exc: BaseException) -> bool:
    from crazylab.classroom.store import ClassError

    return isinstance(exc, ClassError)


def _unavailable(exc: BaseException) -> bool:
    from crazylab.classroom.store import StoreUnavailable

    return isinstance(exc, StoreUnavailable)


BUSY = "The class database cannot be reached just now: try again in a moment."


def _name_nameless(data: Any, filename: str) -> str:
    """A progress file made in a browser with no name typed (the site without a server) has
    ``learner.name`` empty: name it from the file's name (``crazylab-progress-Ana.json`` ->
    ``Ana``) or its learner id, in ``data``; returns that name, or ``""`` if it had one."""
    who = data.get("learner") if isinstance(data, dict) else None
    if not isinstance(who, dict):
        return ""
    given = who.get("name")
    if given is not None and (not isinstance(given, str) or given.strip()):
        return ""  # a name, or one of the wrong type (the store says so)
    stem = Path(filename).stem
    stem = stem[len("crazylab-progress"):] if stem.startswith("crazylab-progress") else stem
    stem = " ".join(stem.replace("_", " ").strip(" -").split())[:40]
    if not stem or stem == str(who.get("id", "")):
        stem = f"Learner {str(who.get('id', ''))[:6]}".strip()
    who["name"] = stem
    return stem


# --------------------------------------------------------------------------- dashboard


class TeacherDashboard(ErrorReporting, w.VBox):
    """One class, for its teacher: ``TeacherDashboard(store, code, key)``.

    Raises the store's ``ClassError`` when the code and key do not match (nothing is built).
    ``grid`` (learner -> lesson -> :class:`Cell`), ``exercises``, ``rules``, ``accuracy``,
    ``hands`` and ``downloads`` (file name -> bytes) are what the page shows."""

    def __init__(self, store: Any, code: str, key: str) -> None:
        self.errors: list[str] = []
        self.store, self.code, self._key = store, code.strip(), key.strip()
        self.error_area = ErrorArea()
        self.title = w.HTML()
        self.refresh_button = w.Button(description="Refresh", icon="refresh",
                                       tooltip="Read the class's records again")
        self.status = w.HTML()
        self.grid_html = w.HTML()
        self.exercises_html = w.HTML()
        self.rules_html = w.HTML()
        self.mastery_html = w.HTML()
        self.chart = w.Output()
        self.accuracy_html = w.HTML()
        self.hands_html = w.HTML()
        self.costly_html = w.HTML()
        self.downloads_html = w.HTML()
        self.downloads_html.add_class("cl-downloads")
        self.confirm_box = w.Text(description="Type the class code to confirm",
                                  placeholder="the class code",
                                  style={"description_width": "initial"},
                                  layout=w.Layout(width="420px"))
        self.reset_button = w.Button(description="Reset the class", button_style="danger",
                                     tooltip="Delete every learner record of this class")
        self.reset_line = w.HTML()
        self.upload = w.FileUpload(accept=".json", multiple=True,
                                   description="Import progress files",
                                   layout=w.Layout(width="260px"))
        self.import_line = w.HTML()
        titles = lesson_titles()
        self.assign_lessons = w.SelectMultiple(
            options=[(title, ln) for ln, (title, _n) in titles.items()],
            description="Lessons", rows=min(8, max(2, len(titles))))
        self.assign_due = w.DatePicker(description="Due")
        self.assign_title = w.Text(description="Title", placeholder="(the lessons' titles)")
        self.assign_button = w.Button(description="Assign", icon="check",
                                      tooltip="Set the class these lessons, due that day")
        self.assign_line = w.HTML()
        self.assignments_html = w.HTML()
        self.assign_button.on_click(lambda _: self._on_assign())
        self.refresh_button.on_click(lambda _: self._on_refresh())
        self.reset_button.on_click(lambda _: self._on_reset())
        self.upload.observe(lambda _: self._on_upload(), "value")
        self.grid: dict[str, dict[str, Cell]] = {}
        self.downloads: dict[str, bytes] = {}
        self.load()  # a wrong key raises here: nothing is shown
        self.draw_assignments()
        super().__init__([
            style_sheet("dashboard"), self.title, w.HBox([self.refresh_button, self.status]),
            w.HTML(MARKUP("progress")), self.grid_html,
            w.HTML(MARKUP("exercises")), self.exercises_html,
            w.HTML(MARKUP("rules")), self.rules_html,
            w.HTML(MARKUP("mastery")), self.mastery_html,
            w.HTML(MARKUP("assignments")), self.assignments_html,
            w.HBox([self.assign_lessons, w.VBox([self.assign_due, self.assign_title,
                                                 self.assign_button])]), self.assign_line,
            w.HTML(MARKUP("accuracy")), self.chart, self.accuracy_html,
            w.HTML(MARKUP("hands")), self.hands_html,
            w.HTML(MARKUP("costly")), self.costly_html,
            w.HTML(MARKUP("export")), self.downloads_html,
            w.HTML(MARKUP("import")), self.upload, self.import_line,
            w.HTML(MARKUP("reset")),
            w.HBox([self.confirm_box, self.reset_button]), self.reset_line,
            self.error_area,
        ])
        self.add_class("cl-dash")
        self.add_class("crazylab-teacher-dashboard")

    # ---------------------------------------------------------------- reading

    def load(self) -> None:
        """Read the class from the store and draw every part again."""
        report = self.store.class_report(self.code, self._key)
        learners = report_rows(report, "learners")
        attempts = report_rows(report, "attempts")
        practice = report_rows(report, "practice")
        hands = report_rows(report, "hands")
        self.report = report
        self.code = str(getattr(report, "code", None) or self.code)
        self.names = names_of(learners)
        lessons = lesson_titles()
        name = (report.get("name") if isinstance(report, dict)
                else getattr(report, "name", None)) or ""
        self.title.value = MARKUP("title", name=name, code=self.code, learners=(
            f"{len(learners)} learner{'s' * (len(learners) != 1)}"))
        self.grid = {self.names[ln]: cells for ln, cells
                     in progress_counts(learners, attempts, lessons).items()}
        self._draw_grid(lessons)
        self.exercises = exercise_stats(attempts, lessons)
        self.exercises_html.value = (table_html(self._readable(self.exercises, lessons))
                                     if len(self.exercises) else
                                     _line("No exercise answered yet."))
        self.rules = rule_stats(attempts, practice, lessons)
        self.rules_html.value = (table_html(self.rules) if len(self.rules) else
                                 _line("No rule asked about yet."))
        self._attempts, self._learners = attempts, learners
        self.mastery = mastery_grid(attempts, practice, self.names)
        self.mastery_html.value = (table_html(self.mastery, index=True) if len(self.mastery)
                                   else _line("No rule met yet."))
        self.accuracy = practice_accuracy(practice, self.names)
        self._draw_accuracy()
        self.hands = hands_played(hands, self.names)
        self.hands_html.value = (table_html(self.hands, index=True) if len(self.hands) else
                                 _line("No hand played yet."))
        reviews = report_rows(report, "reviews")
        self.costly = costly_choices(reviews)
        self.costly_html.value = (table_html(self.costly) if len(self.costly) else
                                  _line("No costly choice at the class's tables yet."))
        self._draw_downloads({"attempts": attempts, "practice": practice, "hands": hands,
                              "learners": learners, "reviews": reviews})

    @staticmethod
    def _readable(table: pd.DataFrame, lessons: dict[str, tuple[str, int]]) -> pd.DataFrame:
        """The exercises table as shown: lessons by title, each exercise's question."""
        questions = exercise_questions()
        shown = table.copy()
        shown.insert(2, "question", [questions.get((lesson, ex), "") for lesson, ex
                                     in zip(table["lesson"], table["exercise"], strict=True)])
        if not any(shown["question"]):
            shown = shown.drop(columns="question")
        shown["lesson"] = [lessons.get(lesson, (lesson, 0))[0] for lesson in table["lesson"]]
        return shown

    def _draw_grid(self, lessons: dict[str, tuple[str, int]]) -> None:
        import pandas as pd

        if not self.grid:
            self.grid_html.value = _line("No learner has joined this class yet.")
            return
        frame = pd.DataFrame([[self.grid[n][lesson] for lesson in lessons] for n in self.grid],
                             index=pd.Index(list(self.grid), name="learner"),
                             columns=[title for title, _ in lessons.values()])
        self.grid_html.value = table_html(frame, index=True)

    def _draw_accuracy(self) -> None:
        if not len(self.accuracy):
            self.figure = None
            self.chart.outputs = ()
            self.accuracy_html.value = _line("No practice item answered yet.")
            return
        self.figure = accuracy_figure(self.accuracy)
        bundle = {"application/vnd.plotly.v1+json": json.loads(self.figure.to_json()),
                  "text/plain": "practice accuracy over time"}
        self.chart.outputs = ({"output_type": "display_data", "data": bundle,
                               "metadata": {}},)
        shown = self.accuracy.copy()
        shown["period"] = shown["period"].dt.strftime("%Y-%m-%d %H:%M")
        self.accuracy_html.value = MARKUP("numbers", table=table_html(shown))

    def _draw_downloads(self, parts: dict[str, list[dict[str, Any]]]) -> None:
        """The download links of the report's rows (``class_report`` gives each part as
        ``export_rows`` does, from one read: the files and the tables agree)."""
        links = []
        self.downloads = {}
        stem = f"class-{self.code}"
        for what in EXPORTS:
            rows = parts[what]
            data = csv_bytes(rows, what)
            self.downloads[f"{stem}-{what}.csv"] = data
            links.append(download_link(f"{stem}-{what}.csv", "text/csv", data,
                                       f"{what} (CSV, {len(rows)} rows)"))
            pq = parquet_bytes(rows)
            if pq is not None:
                self.downloads[f"{stem}-{what}.parquet"] = pq
                links.append(download_link(f"{stem}-{what}.parquet",
                                           "application/vnd.apache.parquet", pq,
                                           f"{what} (Parquet)"))
        self.downloads_html.value = Markup.join(links)

    # ---------------------------------------------------------------- actions

    def refresh(self) -> str:
        """Read the class again; returns the status line."""
        try:
            self.load()
            self.draw_assignments()
        except Exception as exc:
            if _unavailable(exc):
                self.status.value = _line(BUSY, "cl-bad")
                return BUSY
            raise
        text = f"Read at {datetime.now():%H:%M:%S}."
        self.status.value = _line(text)
        return text

    def reset(self, confirm: str) -> str:
        """Delete the class's records if ``confirm`` is the class code (the store checks it);
        returns the line shown (a wrong confirmation changes nothing)."""
        try:
            deleted = self.store.reset_class(self.code, self._key, confirm=confirm.strip())
        except Exception as exc:
            if not _is_class_error(exc):
                raise
            text = BUSY if _unavailable(exc) else f"Nothing deleted: {exc}"
            self.reset_line.value = _line(text, "cl-bad")
            return text
        self.confirm_box.value = ""
        text = f"The class was reset: {deleted} record{'s' * (deleted != 1)} deleted."
        self.reset_line.value = _line(text, "cl-good")
        self.refresh()
        return text

    def import_files(self, files: Sequence[tuple[str, bytes]]) -> list[str]:
        """Import learners' progress files (name, content); one line per file: what was
        stored, or the file's name and what is wrong with it (nothing stored from it)."""
        lines = []
        for name, content in files:
            try:
                data = json.loads(bytes(content).decode("utf-8"))
            except UnicodeDecodeError:
                lines.append(f"{name}: not a progress file (not UTF-8 text); nothing imported.")
                continue
            except json.JSONDecodeError as exc:
                lines.append(f"{name}: not a progress file (not JSON: {exc.msg} at line "
                             f"{exc.lineno}); nothing imported.")
                continue
            named = _name_nameless(data, name)
            try:
                stored = self.store.import_progress(self.code, self._key, data)
            except Exception as exc:
                if not _is_class_error(exc):
                    raise
                why = BUSY if _unavailable(exc) else str(exc)
                lines.append(f"{name}: {why}; nothing imported.")
                continue
            lines.append(f"{name}: {stored} new record{'s' * (stored != 1)} imported"
                         + (f" (the file names no learner: shown as {named})." if named
                            else "."))
        return lines

    def draw_assignments(self) -> None:
        """The class's assignments, who finished them and their first-try accuracy."""
        got = self.store.assignments(self.code, self._key)
        self.assignments = assignment_table(got, self._learners, self._attempts)
        self.assignments_html.value = (table_html(self.assignments) if len(self.assignments)
                                       else _line("Nothing assigned yet."))

    def assign(self, lessons: Sequence[str], due: str, title: str = "") -> Any:
        """Set the class ``lessons`` due on ``due`` (YYYY-MM-DD); what the button does."""
        made = self.store.assign(self.code, self._key, list(lessons), due, title)
        self.assign_line.value = _line(f"Assigned: {made.title}, due {made.due}.", "cl-good")
        self.draw_assignments()
        return made

    @guarded
    def _on_assign(self) -> None:
        self.clear_error()
        due = self.assign_due.value
        if not self.assign_lessons.value or due is None:
            self.assign_line.value = _line("Pick the lessons and the due date.", "cl-bad")
            return
        self.assign(self.assign_lessons.value, due.isoformat(), self.assign_title.value)

    @guarded
    def _on_refresh(self) -> None:
        self.clear_error()
        self.refresh()

    @guarded
    def _on_reset(self) -> None:
        self.clear_error()
        self.reset(self.confirm_box.value)

    @guarded
    def _on_upload(self) -> None:
        files = [(f["name"], bytes(f["content"])) for f in self.upload.value]
        if not files:
            return
        self.clear_error()
        lines = self.import_files(files)
        self.upload.value = ()
        self.import_line.value = Markup.join(
            _line(t, "cl-bad" if "nothing imported" in t else "cl-good") for t in lines)
        self.refresh()


# --------------------------------------------------------------------------- the page


#: set by ``crazylab serve --allow-class-creation``: the page's visitors may make classes
ALLOW_ENV = "CRAZYLAB_ALLOW_CLASS_CREATION"
#: said where a visitor may not make a class
MADE_ON_SERVER = ("Classes are made on the server: crazylab class create \"Year 8\" (or make "
                  "class NAME=\"Year 8\"), which prints the class code and the teacher key.")


def may_make_classes(store: Any, environ: Any = None) -> bool:
    """Whether this page's visitor may make a class here: a store handed in (a teacher's own
    notebook), the class service (which asks the hub who teaches), or a server started
    with ``--allow-class-creation``."""
    import os

    env = os.environ if environ is None else environ
    return store is not None or bool(env.get("CRAZYLAB_CLASS_URL")) or env.get(ALLOW_ENV) == "1"


class TeacherPage(ErrorReporting, w.VBox):
    """The teacher's page: open a class with its code and key, or make a new class (where
    :func:`may_make_classes`; else it says how classes are made).

    ``store`` defaults to :func:`crazylab.classroom.client.class_store`: the class service
    (``$CRAZYLAB_CLASS_URL``, on a hub) or the database (``$CRAZYLAB_DB``), opened at the first
    request."""

    def __init__(self, store: Any = None) -> None:
        self.errors: list[str] = []
        self._store = store
        self.can_make = may_make_classes(store)
        self.dashboard: TeacherDashboard | None = None
        self.error_area = ErrorArea()
        style = {"description_width": "initial"}
        self.code_box = w.Text(description="Your class code", style=style,
                               placeholder="the code your learners type")
        self.key_box = w.Password(description="Teacher key", style=style)
        self.open_button = w.Button(description="Open", button_style="primary")
        self.open_line = w.HTML()
        self.name_box = w.Text(description="Class name", style=style, placeholder="Year 8")
        self.make_button = w.Button(description="Make a new class")
        self.made = w.HTML()
        self.place = w.VBox()
        self.open_button.on_click(lambda _: self._on_open())
        self.make_button.on_click(lambda _: self._on_make())
        super().__init__([
            style_sheet("dashboard"),
            w.HTML(MARKUP("open_class")),
            w.HBox([self.code_box, self.key_box, self.open_button],
                   layout=w.Layout(flex_flow="row wrap")), self.open_line,
            w.HTML(MARKUP("new_class")),
            *([w.HBox([self.name_box, self.make_button])] if self.can_make
              else [w.HTML(_line(MADE_ON_SERVER, "cl-note"))]), self.made,
            self.error_area, self.place,
        ])
        self.add_class("cl-dash")

    @property
    def store(self) -> Any:
        if self._store is None:  # the class service (on a hub), else the database
            import os

            from crazylab.classroom.client import class_store

            self._store = class_store(os.environ)
        return self._store

    def open_class(self, code: str, key: str) -> str:
        """Open the class's dashboard below the form; returns the line shown ('' when it
        opened). The key field is emptied either way."""
        self.key_box.value = ""
        self.made.value = ""  # a new class's key is shown once
        self.place.children = ()
        self.dashboard = None
        if not code.strip() or not key.strip():
            text = "Type the class code and the teacher key."
            self.open_line.value = _line(text, "cl-bad")
            return text
        try:
            self.dashboard = TeacherDashboard(self.store, code, key)
        except Exception as exc:
            if not _is_class_error(exc):
                raise
            text = BUSY if _unavailable(exc) else MISMATCH
            self.open_line.value = _line(text, "cl-bad")
            return text
        self.open_line.value = ""
        self.place.children = (self.dashboard,)
        return ""

    def make_class(self, name: str) -> Any:
        """Make a class named ``name``; its code and key are shown once. Returns the
        store's ``NewClass``, or ``None`` with a line saying why."""
        self.made.value = ""
        if not self.can_make:
            self.made.value = _line(MADE_ON_SERVER, "cl-bad")
            return None
        try:
            new = self.store.create_class(name.strip())
        except Exception as exc:
            if not _is_class_error(exc):
                raise
            self.made.value = _line(BUSY if _unavailable(exc) else str(exc), "cl-bad")
            return None
        self.name_box.value = ""
        self.code_box.value = new.code
        self.made.value = MARKUP("made", name=new.name, code=new.code, key=new.teacher_key)
        return new

    @guarded
    def _on_open(self) -> None:
        self.clear_error()
        self.open_class(self.code_box.value, self.key_box.value)

    @guarded
    def _on_make(self) -> None:
        self.clear_error()
        self.make_class(self.name_box.value)

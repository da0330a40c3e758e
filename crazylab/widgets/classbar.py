"""The class bar at the top of every lesson page: who the learner is, and where their
answers are kept (issue 22).

>>> from crazylab.widgets.classbar import class_bar
>>> class_bar("01_crazy_eights_basics")  # doctest: +SKIP

The browser keeps a random learner token in ``localStorage`` (``crazylab.learner``: the token,
the display name and the class's name, never a teacher key) and sends it here when the bar is
drawn (the ``token`` trait); the kernel's :func:`~crazylab.classroom.recorder.recorder` then
loads that learner and hands every widget their earlier answers. Three states:

* **no class** ("browser"): "Join a class" (class code, display name, Join) and "working on
  your own: your answers are kept in this browser". Each record goes to the browser
  (``outbox``), which adds it to ``localStorage`` (``crazylab.progress``, the progress file)
  and sends it back on the next visit (the ``browser`` trait). Without a database (no
  ``$CRAZYLAB_DB``, or no SQLAlchemy as in the static site) the join form is not shown;
* **joined**: "You are Ana in Year 8 · Not you? · Forget me";
* **JupyterHub** (``$JUPYTERHUB_USER``): the hub user is the learner; no joining as someone
  else.

"Download my progress" (every state) saves the progress file, made in the browser. A save the
database could not take yet is said under the bar ("2 answers not yet saved — retrying") and
kept in ``localStorage`` too (``crazylab.unsaved``) until it is made, so the next kernel can
make it; a refused record or a refused join is one line.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from crazylab.classroom.recorder import Recorder, recorder

HERE = Path(__file__).parent
log = logging.getLogger("crazylab.widgets.classbar")

__all__ = ["ClassBar", "class_bar"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class ClassBar(anywidget.AnyWidget):
    """The learner's identity and their records' home, for one page (one kernel)."""

    _esm = HERE / "classbar.js"
    _css = HERE / "classbar.css"

    lesson = t.Unicode("").tag(sync=True)
    token = t.Unicode("").tag(sync=True)        # the browser's learner token (browser -> kernel)
    browser = t.Dict().tag(sync=True)           # {"id", "name", "progress"} (browser -> kernel)
    outbox: t.List[Any] = t.List().tag(sync=True)  # records for the browser to keep
    state = t.Dict().tag(sync=True)             # what the bar shows (kernel -> browser)
    unsaved: t.List[Any] = t.List().tag(sync=True)  # saves still waiting: the browser's copy

    def __repr__(self) -> str:
        """Stable text: what a saved notebook shows without a browser."""
        return f"ClassBar({self.lesson or None!r})"

    def __init__(self, lesson: str | None = None, *, rec: Recorder | None = None,
                 **kwargs: Any) -> None:
        super().__init__(lesson=lesson or "", **kwargs)
        self.recorder = rec or recorder()
        if lesson:
            self.recorder.lesson = lesson
        self.join_error = ""
        self._quiet = False
        if self.recorder.hub_user and self.recorder.learner is None:
            self.recorder.use_hub()
        self.recorder.listen(self._refresh)
        self.observe(self._on_token, names="token")
        self.observe(self._on_browser, names="browser")
        self.on_msg(self._on_msg)
        self._refresh()

    # -- the browser says ----------------------------------------------------------------
    def _on_token(self, change: dict[str, Any]) -> None:
        token = str(change["new"] or "")
        rec = self.recorder
        if not token or rec.hub_user or (rec.learner is not None and rec.token == token):
            return
        try:
            rec.identify(token)
            if rec.unknown_token:
                self.send({"event": "forgotten"})  # the browser drops a token nobody knows
                rec.unknown_token = False
        except Exception:  # noqa: BLE001 - the page goes on in browser mode
            log.exception("the browser's learner token could not be used")
        self._refresh()

    def _on_browser(self, change: dict[str, Any]) -> None:
        data = change["new"] if isinstance(change["new"], dict) else {}
        try:
            progress = data.get("progress") if isinstance(data.get("progress"), dict) else None
            self.recorder.use_browser(str(data.get("id", "")), progress,
                                      str(data.get("name", "")))
            if data.get("unsaved"):  # saves an earlier kernel of this page could not make
                self.recorder.requeue(data.get("unsaved"))
        except Exception:  # noqa: BLE001 - what the browser kept is not worth a traceback
            log.exception("the browser's records could not be read")
        self._refresh()
        # the kernel holds them now (saved, or waiting in `unsaved`): the browser's copy may
        # follow `unsaved` from here on, not before (a kernel lost first loses none)
        self.send({"event": "taken"})

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        action = content.get("do") if isinstance(content, dict) else None
        try:
            if action == "join":
                self.join(str(content.get("code", "")), str(content.get("name", "")))
            elif action == "not_you":
                self.not_you()
            elif action == "forget":
                self.forget()
            elif action == "download":
                self.send({"event": "download", "data": self.recorder.progress_file()})
        except Exception as exc:  # noqa: BLE001 - a callback never raises into the page
            self.join_error = _line(exc)
            self._refresh()

    # -- actions (also driven from Python in the tests) -------------------------------------
    def join(self, code: str, name: str) -> bool:
        """Join class ``code`` as ``name``; a refusal is one line in ``state["error"]``."""
        rec = self.recorder
        if not rec.can_use_store():
            self.join_error = "This page keeps no class records: your answers stay here."
            self._refresh()
            return False
        code, name = code.strip(), name.strip()
        if not code or (not name and not rec.hub_user):
            self.join_error = "Type the class code and your name."
            self._refresh()
            return False
        self._quiet = True  # the browser keeps the token before the bar says "joined"
        try:
            learner = rec.join(code, name)
        except Exception as exc:  # noqa: BLE001 - the store's ClassError, one line
            self.join_error = _line(exc)
            self._quiet = False
            self._refresh()
            return False
        self.join_error = ""
        if not rec.hub_user:  # behind the hub, the hub says who: no token in the browser
            self.send({"event": "joined", "learner": {
                "token": learner.token, "name": learner.name,
                "class_name": learner.class_name or ""}})
        self._quiet = False
        self._refresh()
        return True

    def not_you(self) -> None:
        """"Not you?": this page forgets the learner; the browser drops its token."""
        if self.recorder.hub_user:
            return
        self.recorder.leave()
        self.join_error = ""
        self._refresh()

    def forget(self) -> None:
        """"Forget me": delete the learner's records; the browser clears what it kept."""
        self._quiet = True  # the browser forgets before the bar shows the join form
        try:
            self.recorder.forget()
        except Exception as exc:  # noqa: BLE001
            self.join_error = f"Could not forget you: {_line(exc)}"
            self._quiet = False
            self._refresh()
            return
        self.outbox = []
        self.send({"event": "forgotten", "all": True})
        self.join_error = ""
        self._quiet = False
        self._refresh()

    # -- the kernel says -------------------------------------------------------------------
    def _refresh(self) -> None:
        if self._quiet:
            return
        rec = self.recorder
        learner = rec.learner
        if rec.hub_user and rec.can_use_store():
            mode = "hub"
        elif learner is not None and learner.class_code:
            mode = "joined"
        elif rec.mode == "store":
            mode = "waiting"  # a token the database has not confirmed yet
        else:
            mode = "browser"
        notice = ""
        if rec.pending:
            notice = f"{_plural(rec.pending, 'answer')} not yet saved — retrying"
        self.state = {
            "mode": mode,
            "can_join": rec.can_use_store(),
            "name": (learner.name if learner is not None else rec.hub_user or ""),
            "class_name": (learner.class_name or "") if learner is not None else "",
            "pending": rec.pending,
            "notice": notice,
            "refused": rec.notice if not rec.pending else "",
            "error": self.join_error,
        }
        if list(rec.outbox) != list(self.outbox):
            self.outbox = list(rec.outbox)
        unsaved = rec.unsaved()
        if unsaved != list(self.unsaved):
            self.unsaved = unsaved


def _line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def class_bar(lesson: str | None = None) -> ClassBar:
    """The class bar of a page (``lesson``: the notebook's stem, or None for the index)."""
    return ClassBar(lesson)

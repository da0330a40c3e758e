"""The class bar in Chromium against a real Voilà server (issue 22): a learner joins a class
made by ``Store.create_class`` (``CRAZYLAB_DB`` a temp SQLite file in the server's
environment); the browser keeps a random token (not the name); a reload is still joined and
gets the answers back from the database; "Not you?" shows the join form; "Forget me" deletes.
With no database, the answers are kept in the browser and come back after a reload; "Download
my progress" saves the progress file. Keyboard, labels and a phone width. Any page error
fails a test."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from answers import right_answer, wrong_answer
from browser_support import save_screenshot, start_voila, stop_voila, write_notebook

from crazylab.classroom.catalog import load as load_catalog
from crazylab.classroom.store import ClassError, Store, open_store

pytestmark = pytest.mark.browser

LESSON = "01_crazy_eights_basics"
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
TOTAL = load_catalog().exercise_count(LESSON)

#: try n answers exercise e0n: right when n is odd, wrong when even (the store judges them)
ANSWERS = {n: (right_answer if n % 2 else wrong_answer)(LESSON, f"e0{n}") for n in range(1, 8)}
A1, A2 = ANSWERS[1], ANSWERS[2]

PAGE = f'''\
import ipywidgets as w
from crazylab.widgets.classbar import class_bar
from crazylab.classroom.recorder import recorder

bar = class_bar("{LESSON}")
rec = recorder()
shown = w.HTML("")
shown.add_class("earlier")
tries = [0]


def show(_rec=None):
    said = [f"{{a.exercise}}={{a.answer}}{{'+' if a.verdict else '-'}}"
            for a in rec.earlier("{LESSON}")]
    shown.value = "earlier: " + (" ".join(said) or "none")


def answer(_button):
    tries[0] += 1
    rec.attempt(lesson="{LESSON}", exercise=f"e0{{tries[0]}}", answer={ANSWERS!r}[tries[0]],
                verdict=tries[0] % 2 == 1, rule_ids=["SR-1"], feedback="")
    show()


button = w.Button(description="Answer")
button.add_class("answer")
button.on_click(answer)
rec.on_change(show)
show()
display(bar)
w.VBox([button, shown])'''


def _pages(root: Path) -> None:
    """The test page, the index and the lesson it links (its first cell names it)."""
    write_notebook(root, "page.ipynb", PAGE)
    for name in ("index.ipynb", f"{LESSON}.ipynb"):
        shutil.copy(NOTEBOOKS / name, root / name)


def _index_says(page, url: str, text: str) -> None:
    page.goto(url, timeout=90_000)
    page.wait_for_selector(f"a[href='{LESSON}.ipynb']", timeout=90_000)
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.crazylab-lessons li')]"
        ".some(li => li.innerText.includes(t))", arg=text, timeout=30_000)


def _server(root: Path, env: dict[str, str], drop: tuple[str, ...] = ()) -> object:
    with mock.patch.dict(os.environ, env):
        for name in drop:
            os.environ.pop(name, None)
        return start_voila(root)


@pytest.fixture(scope="module")
def class_db(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("class-db") / "class.db"


@pytest.fixture(scope="module")
def db_server(tmp_path_factory, class_db: Path) -> Iterator[object]:
    root = tmp_path_factory.mktemp("classbar-db")
    _pages(root)
    server = _server(root, {"CRAZYLAB_DB": str(class_db)}, drop=("JUPYTERHUB_USER",))
    yield server
    stop_voila(server)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory) -> Iterator[object]:
    root = tmp_path_factory.mktemp("classbar-plain")
    _pages(root)
    server = _server(root, {}, drop=("CRAZYLAB_DB", "JUPYTERHUB_USER"))
    yield server
    stop_voila(server)  # type: ignore[arg-type]


def _watch(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"console: {msg.text}")
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def _open(page, url: str, mode: str) -> None:
    page.goto(url, timeout=90_000)
    page.wait_for_selector(f".cbar[data-mode='{mode}']", timeout=90_000)
    page.wait_for_selector(".earlier", timeout=30_000)


def _earlier(page, text: str) -> None:
    page.wait_for_function(
        "(t) => (document.querySelector('.earlier') || {}).innerText === t", arg=text,
        timeout=30_000)


def _fits_a_phone(page, name: str) -> None:
    """At 360 px nothing of the bar is wider than the screen; a screenshot to look at."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(300)
    wide = page.evaluate("""() => [...document.querySelectorAll('.cbar, .cbar *')]
        .filter(e => e.getBoundingClientRect().right > 362).map(e => e.className)""")
    assert not wide, wide
    save_screenshot(page, name, full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})


def _stored(page, key: str) -> dict | None:
    raw = page.evaluate("(k) => window.localStorage.getItem(k)", key)
    return json.loads(raw) if raw else None


def test_join_reload_not_you_and_forget(db_server, class_db: Path, page, screenshot) -> None:
    store: Store = open_store(str(class_db))
    year8 = store.create_class("Year 8")
    errors = _watch(page)
    url = db_server.render("page.ipynb")  # type: ignore[attr-defined]
    _open(page, url, "browser")
    bar = page.locator(".cbar")
    assert "kept in this browser" in bar.inner_text()
    _fits_a_phone(page, "classbar_join_form_360")
    # the join form by keyboard: labelled inputs, Enter joins
    page.get_by_label("Class code").fill("NOSUCHCLASS99")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_label("Your name").press("Enter")
    page.wait_for_function("() => /unknown class code/.test("
                           "document.querySelector('.cbar-error').innerText)", timeout=30_000)
    assert page.locator(".cbar-error").inner_text().count("\n") == 0
    page.get_by_label("Class code").fill(year8.code)
    page.get_by_label("Class code").press("Tab")
    assert page.evaluate("() => document.activeElement.name") == "name"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.innerText") == "Join"
    page.keyboard.press("Enter")
    page.wait_for_selector(".cbar[data-mode='joined']", timeout=30_000)
    assert "You are Ana in Year 8" in bar.inner_text()
    me = _stored(page, "crazylab.learner")
    assert me and me["name"] == "Ana" and me["class_name"] == "Year 8"
    assert me["token"] and "Ana" not in me["token"] and len(me["token"]) >= 16
    assert set(me) == {"token", "name", "class_name"}  # no teacher key, nothing else
    assert store.learner(me["token"]).name == "Ana"

    page.locator(".answer").click()
    _earlier(page, f"earlier: e01={A1}+")
    page.locator(".answer").click()
    _earlier(page, f"earlier: e01={A1}+ e02={A2}-")
    assert [a.answer for a in store.attempts(me["token"], LESSON)] == [A1, A2]
    assert not (_stored(page, "crazylab.progress") or {}).get("attempts")
    screenshot(page, "classbar_joined")

    # the index: the class bar, and each lesson's progress from the database
    _index_says(page, db_server.render("index.ipynb"),  # type: ignore[attr-defined]
                f"2 of {TOTAL} answered, 1 right")
    page.wait_for_selector(".cbar[data-mode='joined']", timeout=30_000)
    assert "You are Ana in Year 8" in page.locator(".cbar").inner_text()
    screenshot(page, "classbar_index_joined")

    page.goto(url)  # a new kernel: the browser's token brings Ana and her answers back
    _open(page, url, "joined")
    _earlier(page, f"earlier: e01={A1}+ e02={A2}-")
    assert "You are Ana in Year 8" in bar.inner_text()

    _fits_a_phone(page, "classbar_joined_360")

    # the database locked by another writer: the answer waits, said under the bar, and is
    # stored once when the database is free (the kernel's retry timer)
    lock = sqlite3.connect(class_db, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        page.locator(".answer").click()
        page.wait_for_function(
            "() => document.querySelector('.cbar-notice').innerText === "
            "'1 answer not yet saved — retrying'", timeout=30_000)
        _earlier(page, f"earlier: e01={A1}+ e02={A2}- e01={A1}+")  # shown meanwhile
        screenshot(page, "classbar_not_yet_saved")
        # the kernel goes (a reload; a server restart alike): the browser's copy comes back
        assert len(_stored(page, "crazylab.unsaved") or []) == 1  # type: ignore[arg-type]
        page.goto(url)
        _open(page, url, "waiting")  # the class is out of reach: the answer still waits
        page.wait_for_function(
            "() => document.querySelector('.cbar-notice').innerText === "
            "'1 answer not yet saved — retrying'", timeout=30_000)
        assert "You are Ana in Year 8" in bar.inner_text()
        _earlier(page, f"earlier: e01={A1}+")
        screenshot(page, "classbar_waiting_after_reload")
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    page.wait_for_selector(".cbar[data-mode='joined']", timeout=60_000)
    _earlier(page, f"earlier: e01={A1}+ e02={A2}- e01={A1}+")
    page.wait_for_function("() => document.querySelector('.cbar-notice').innerText === ''",
                           timeout=30_000)
    assert [a.answer for a in store.attempts(me["token"])] == [A1, A2, A1]
    assert _stored(page, "crazylab.unsaved") is None
    with page.expect_download() as got:  # a class learner's file comes from the database
        page.get_by_role("button", name="Download my progress").click()
    data = json.loads(Path(got.value.path()).read_text())
    assert data["format"] == "crazylab-progress" and data["learner"]["name"] == "Ana"
    assert sorted(a["attempt_id"] for a in data["attempts"]) == sorted(
        a.attempt_id for a in store.attempts(me["token"]))
    assert year8.teacher_key not in json.dumps(data) and me["token"] not in json.dumps(data)

    page.get_by_role("button", name="Not you?").click()
    page.wait_for_selector(".cbar[data-mode='browser']", timeout=30_000)
    assert page.get_by_label("Class code").is_visible()
    assert _stored(page, "crazylab.learner") is None
    _earlier(page, "earlier: none")  # the next learner does not see Ana's answers
    screenshot(page, "classbar_not_you")

    # Ben joins, answers once, then is forgotten (with a confirm step)
    page.get_by_label("Class code").fill(year8.code)
    page.get_by_label("Your name").fill("Ben")
    page.get_by_role("button", name="Join").click()
    page.wait_for_selector(".cbar[data-mode='joined']", timeout=30_000)
    ben = _stored(page, "crazylab.learner")
    assert ben and ben["token"] != me["token"]
    page.locator(".answer").click()
    page.wait_for_function("() => /e01=/.test(document.querySelector('.earlier').innerText)",
                           timeout=30_000)
    assert len(store.attempts(ben["token"])) == 1
    page.get_by_role("button", name="Forget me").click()
    page.get_by_role("button", name="Yes, forget me").click()
    page.wait_for_selector(".cbar[data-mode='browser']", timeout=30_000)
    page.wait_for_function("() => localStorage.getItem('crazylab.learner') === null",
                           timeout=30_000)
    with pytest.raises(ClassError):
        store.learner(ben["token"])
    assert len(store.attempts(me["token"])) == 3  # Ana's are hers, kept
    assert not errors, errors


def test_no_database_keeps_answers_in_the_browser(plain_server, page, screenshot,
                                                  tmp_path: Path) -> None:
    errors = _watch(page)
    url = plain_server.render("page.ipynb")  # type: ignore[attr-defined]
    _open(page, url, "browser")
    assert page.locator(".cbar-join").is_hidden()  # no database: no class to join
    assert "kept in this browser" in page.locator(".cbar").inner_text()
    page.locator(".answer").click()
    _earlier(page, f"earlier: e01={A1}+")
    page.locator(".answer").click()
    _earlier(page, f"earlier: e01={A1}+ e02={A2}-")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('crazylab.progress'))"
                           ".attempts.length === 2", timeout=30_000)
    kept = _stored(page, "crazylab.progress")
    assert kept and kept["format"] == "crazylab-progress" and kept["learner"]["id"]

    page.reload()
    _open(page, url, "browser")
    _earlier(page, f"earlier: e01={A1}+ e02={A2}-")
    page.locator(".answer").click()  # a new kernel counts on from 1: e01 again
    _earlier(page, f"earlier: e01={A1}+ e02={A2}- e01={A1}+")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('crazylab.progress'))"
                           ".attempts.length === 3", timeout=30_000)

    _index_says(page, plain_server.render("index.ipynb"),  # type: ignore[attr-defined]
                f"2 of {TOTAL} answered, 1 right")
    screenshot(page, "classbar_index_browser")
    with page.expect_download() as got:
        page.get_by_role("button", name="Download my progress").click()
    path = tmp_path / "progress.json"
    got.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["format"] == "crazylab-progress" and data["version"] == 1
    assert [a["answer"] for a in data["attempts"]] == [A1, A2, A1]
    assert len({a["attempt_id"] for a in data["attempts"]}) == 3
    assert got.value.suggested_filename.startswith("crazylab-progress")
    screenshot(page, "classbar_browser_mode")
    assert not errors, errors


@pytest.fixture(scope="module")
def hub_server(tmp_path_factory, class_db: Path) -> Iterator[object]:
    root = tmp_path_factory.mktemp("classbar-hub")
    _pages(root)
    server = _server(root, {"CRAZYLAB_DB": str(class_db), "JUPYTERHUB_USER": "hana"})
    yield server
    stop_voila(server)  # type: ignore[arg-type]


def test_behind_jupyterhub_the_hub_user_is_the_learner(hub_server, class_db: Path, page,
                                                       screenshot) -> None:
    store: Store = open_store(str(class_db))
    year9 = store.create_class("Year 9")
    errors = _watch(page)
    url = hub_server.render("page.ipynb")  # type: ignore[attr-defined]
    _open(page, url, "hub")
    assert "You are hana" in page.locator(".cbar").inner_text()
    assert page.get_by_role("button", name="Not you?").is_hidden()  # no one else here
    assert page.get_by_label("Your name").is_hidden()  # the hub says who: a code joins
    page.get_by_label("Class code").fill(year9.code)
    page.get_by_label("Class code").press("Enter")
    page.wait_for_function("() => /in Year 9/.test(document.querySelector('.cbar').innerText)",
                           timeout=30_000)
    assert page.locator(".cbar-join").is_hidden()
    page.locator(".answer").click()
    _earlier(page, f"earlier: e01={A1}+")
    page.goto(url)  # a new kernel: the hub user again, with the answer
    _open(page, url, "hub")
    _earlier(page, f"earlier: e01={A1}+")
    assert "You are hana in Year 9" in page.locator(".cbar").inner_text()
    hana = store.hub_learner("hana")
    assert hana.class_name == "Year 9" and len(store.attempts(hana.token)) == 1
    assert _stored(page, "crazylab.learner") is None  # the browser keeps no hub token
    screenshot(page, "classbar_hub")
    assert not errors, errors

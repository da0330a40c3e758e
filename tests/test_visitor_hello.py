"""A visitor is told from a plain GET by what its page does, not by a clock (issue 34).

The page's first lines announce it (``POST /crazylab/page/<kernel>/hello``, the page's own
``_xsrf``); a request that never runs the page's script (a link checker) does not. Here the
server is driven over HTTP as both would: a checker's kernel is given back after
``claim_grace`` and makes room at the bound, an announced visitor's kernel is kept however long
its browser takes to connect (up to ``visitor_grace``) and is never evicted for room; a forged
or stale hello changes nothing.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.request

import pytest
from browser_support import deal_server

CLAIM_GRACE = 3


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """Two kernels at most, no pool, short clocks."""
    with deal_server(tmp_path_factory.mktemp("voila-hello"),
                     "--BoundedKernelManager.max_kernels=2",
                     "--BoundedKernelManager.evict_after=1",
                     "--BoundedKernelManager.retry_after=2",
                     f"--CrazylabVoila.claim_grace={CLAIM_GRACE}") as server:
        yield server


class Client:
    """One browser's cookies; ``open`` returns (status, headers, body)."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open(self, url: str, *, data: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict, str]:
        req = urllib.request.Request(url, data=data, headers=headers or {},
                                     method="POST" if data is not None else "GET")
        try:
            with self.opener.open(req, timeout=120) as r:
                return r.status, dict(r.headers), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read().decode(errors="replace")

    def shutdown(self, server, kernel_id: str) -> int:
        """The page's shutdown beacon (its ``_xsrf`` in the form, as the page sends it)."""
        return self.open(f"{server}/voila/api/shutdown/{kernel_id}",
                         data=f"_xsrf={self.xsrf()}".encode(),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})[0]

    def xsrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "_xsrf"), "")

    def load(self, server) -> str:
        """GET the page (as any client does); its kernel's id."""
        status, _, body = self.open(server.render("one.ipynb"))
        assert status == 200, (status, body[:300])
        return json.loads(re.search(
            r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
            body, re.S).group(1))["kernelId"]

    def hello(self, server, kernel_id: str, *, xsrf: str | None = None) -> int:
        """What the page's first script does in a browser."""
        token = self.xsrf() if xsrf is None else xsrf
        return self.open(f"{server}/crazylab/page/{kernel_id}/hello", data=b"",
                         headers={"X-XSRFToken": token})[0]


def alive(server, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{server}/api/kernels/{kernel_id}", timeout=30) as r:
            return r.status == 200
    except urllib.error.HTTPError as e:
        assert e.code == 404, e.code
        return False


def empty(server) -> bool:
    """No kernel runs (an earlier test's plain GET gives its kernel back within seconds)."""
    return not server.kernel_pids()


def wait_until(condition, bound: float, what: str) -> None:
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"not within {bound:.0f} s: {what}"
        time.sleep(0.25)


def test_the_page_announces_itself_in_its_first_lines(room):
    """The hello is in the page before any cell output and before the front end's scripts
    (so a busy browser sends it long before it could open the websocket)."""
    _, _, body = Client().open(room.render("one.ipynb"))
    hello = body.index("/hello")
    assert hello < body.index("cell-index") and hello < body.index("voila.js"), hello


def test_a_visitor_is_kept_while_a_checker_is_reclaimed_and_makes_room(room):
    wait_until(lambda: empty(room), 60, "an empty room to start from")
    checker, visitor = Client(), Client()
    visitor_kernel = visitor.load(room)
    assert visitor.hello(room, visitor_kernel) == 204
    checker_kernel = checker.load(room)
    # the checker's kernel goes claim_grace after its page was sent; the visitor's stays
    wait_until(lambda: not alive(room, checker_kernel), 60, "the checker's kernel given back")
    time.sleep(CLAIM_GRACE + 2)  # past the claim grace of the visitor's page too
    assert alive(room, visitor_kernel), room.log()
    # the room: the visitor and a checker; a second visitor evicts the checker, not them
    checker_kernel = checker.load(room)
    time.sleep(1.5)  # past evict_after
    second = Client()
    second_kernel = second.load(room)
    assert second.hello(room, second_kernel) == 204
    assert not alive(room, checker_kernel) and alive(room, visitor_kernel)
    assert f"kernel {checker_kernel} never met its page" in room.log(100_000)
    # two announced visitors fill the room: a third client is told to wait, nobody evicted
    status, headers, body = Client().open(room.render("one.ipynb"))
    assert status == 503 and int(headers["Retry-After"]) >= 1, (status, body[:200])
    assert alive(room, visitor_kernel) and alive(room, second_kernel)
    # the pages close (the page's pagehide beacon): the room is free again
    for client, kernel in ((visitor, visitor_kernel), (second, second_kernel)):
        assert client.shutdown(room, kernel) < 400
    wait_until(lambda: empty(room), 60, "the closed pages' kernels freed")


@pytest.fixture(scope="module")
def impatient_room(tmp_path_factory):
    """An announced page may wait only 2 s for its websocket."""
    with deal_server(tmp_path_factory.mktemp("voila-impatient"),
                     "--CrazylabVoila.visitor_grace=2") as server:
        yield server


def test_an_announced_page_that_never_connects_is_not_kept_for_ever(impatient_room):
    page = Client()
    kernel = page.load(impatient_room)
    assert page.hello(impatient_room, kernel) == 204
    wait_until(lambda: not alive(impatient_room, kernel), 60, "the kernel given back")
    assert f"shutting down kernel {kernel} (no page)" in impatient_room.log(100_000)


def test_a_forged_or_stale_hello_is_refused_and_changes_nothing(room):
    wait_until(lambda: empty(room), 60, "an empty room to start from")
    page = Client()
    kernel = page.load(room)
    assert page.hello(room, kernel, xsrf="forged") == 403  # not the page's own token
    assert page.hello(room, "00000000-0000-0000-0000-000000000000") == 404
    assert page.hello(room, "not-a-kernel") == 404  # no such route
    # nothing was announced: the page's kernel is still a plain GET's, given back
    wait_until(lambda: not alive(room, kernel), 60, "the unannounced kernel given back")
    assert page.hello(room, kernel) == 404  # a stale hello: the page should load again

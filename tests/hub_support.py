"""A real JupyterHub on 127.0.0.1 for the tests: DummyAuthenticator, SimpleLocalProcessSpawner,
npm's configurable-http-proxy, and crazylab's class service registered as a hub service
(``crazylab tables --hub``, holding the only database). Code runs in a learner's own kernel
through their single-user server's REST API and kernel websocket, as a notebook cell would."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser_support import free_port

ROOT = Path(__file__).resolve().parents[1]
PROXY = ROOT / ".venv" / "hub-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "crazylab"


def proxy_command() -> str | None:
    """npm's configurable-http-proxy: `make hub-deps`'s, else one on the PATH."""
    return str(PROXY) if PROXY.exists() else shutil.which("configurable-http-proxy")


CONFIG = """
import sys
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.auth_token = {proxy_token!r}
c.JupyterHub.db_url = "sqlite:///{folder}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret = bytes.fromhex({cookie!r})
c.JupyterHub.pid_file = "{folder}/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allow_all = True
c.Authenticator.admin_users = {{"teacher"}}
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{folder}/home/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--allow-root"]  # CI runs as root
c.Spawner.default_url = "/lab"
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 120
# a learner's server: the class service's address, never the database
c.Spawner.environment = {{"CRAZYLAB_CLASS_URL": "http://127.0.0.1:{port}/services/{service}/"}}
# its hub token may reach the class service (and no more than a server's usual scopes)
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server",
                                 "access:services!service={service}"]
c.JupyterHub.services = [
    {{"name": "{service}", "url": "http://127.0.0.1:{service_port}",
      "command": [sys.executable, "-m", "crazylab", "tables", "--hub", "--port",
                  "{service_port}", "--delay", "0"],
      "environment": {{"CRAZYLAB_DB": "{folder}/service/class.db",
                       "PATH": {path!r}}},
      "oauth_no_confirm": True}},
    {{"name": "tester", "api_token": {tester_token!r}}},
]
c.JupyterHub.load_roles = [
    # every user may reach the class service (a learner's server token takes that scope)
    {{"name": "user", "scopes": ["self", "access:services!service={service}"]}},
    {{"name": "crazylab-service", "services": ["{service}"],
      "scopes": ["read:users", "read:groups"]}},
    {{"name": "tester", "services": ["tester"],
      "scopes": ["admin:users", "admin:servers", "tokens", "read:users"]}},
]
"""


@dataclass
class Hub:
    """A running JupyterHub and what the tests need to reach it."""

    folder: Path
    port: int
    tester_token: str
    process: subprocess.Popen[bytes]
    password: str = ""  # every user's, at the hub's login page (DummyAuthenticator)
    tokens: dict[str, str] = field(default_factory=dict)  # user -> a token for their server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def service_url(self) -> str:
        return f"{self.url}/services/{SERVICE}/"

    def api(self, method: str, path: str, body: Any = None, token: str | None = None,
            expect: tuple[int, ...] = (200, 201, 202, 204)) -> Any:
        """The hub's REST API (``/hub/api/…``) as the tester service (or ``token``)."""
        return request(method, f"{self.url}/hub/api/{path}", token or self.tester_token,
                       body, expect)

    def start_server(self, user: str) -> str:
        """Make ``user``, start their server and return a token that reaches it."""
        self.api("POST", f"users/{user}", expect=(201, 409))
        self.api("POST", f"users/{user}/server", expect=(201, 202, 400))
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            model = self.api("GET", f"users/{user}")
            server = (model.get("servers") or {}).get("")
            if server and server.get("ready"):
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"{user}'s server did not start: {self.log()[-3000:]}")
        made = self.api("POST", f"users/{user}/tokens",
                        {"note": "test", "scopes": [f"access:servers!user={user}"]})
        self.tokens[user] = made["token"]
        return made["token"]

    def run(self, user: str, code: str, timeout: float = 120) -> str:
        """Run ``code`` in a new kernel of ``user``'s own server; its printed output (an
        error raises with the traceback's last lines)."""
        token = self.tokens[user]
        base = f"{self.url}/user/{user}/api/"
        kernel = request("POST", base + "kernels", token, {"name": "python3"})
        try:
            return _execute(f"ws://127.0.0.1:{self.port}/user/{user}/api/kernels/"
                            f"{kernel['id']}/channels", token, code, timeout)
        finally:
            request("DELETE", base + f"kernels/{kernel['id']}", token, expect=(204, 404))

    def log(self) -> str:
        path = self.folder / "hub.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        subprocess.run(["pkill", "-f", str(self.folder)], check=False)


def request(method: str, url: str, token: str | None = None, body: Any = None,
            expect: tuple[int, ...] = (200, 201, 202, 204)) -> Any:
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"token {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as reply:
            status, text = reply.status, reply.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    if status not in expect:
        raise AssertionError(f"{method} {url}: {status} {text[:500]!r}")
    return json.loads(text) if text.strip() else None


def _execute(url: str, token: str, code: str, timeout: float) -> str:
    """One execute_request on a kernel's websocket; stdout and results, or the error."""
    import asyncio

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    async def go() -> str:
        conn = await websocket_connect(HTTPRequest(
            url, headers={"Authorization": f"token {token}"}, request_timeout=60))
        msg_id = uuid.uuid4().hex
        conn.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": "test", "session": uuid.uuid4().hex,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": False,
                        "user_expressions": {}, "allow_stdin": False}}))
        out: list[str] = []
        error = None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the kernel did not finish in {timeout} s: {out}")
            raw = await asyncio.wait_for(conn.read_message(), left)
            if raw is None:
                raise AssertionError("the kernel's websocket closed")
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                out.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                error = "\n".join(content["traceback"][-3:])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        conn.close()
        if error is not None:
            raise AssertionError(f"the cell failed: {error}\n{''.join(out)}")
        return "".join(out)

    # a thread of its own: the test process may already run an event loop (Playwright's)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, go()).result()


def start_hub(folder: Path) -> Hub:
    """A JupyterHub in ``folder`` with the class service; waits until both answer."""
    proxy = proxy_command()
    if proxy is None:
        raise RuntimeError("configurable-http-proxy is missing: run `make hub-deps`")
    (folder / "home").mkdir(parents=True)
    (folder / "service").mkdir()
    port = free_port()
    tester_token = secrets.token_hex(32)
    password = secrets.token_hex(8)
    config = CONFIG.format(
        port=port, hub_port=free_port(), proxy=proxy, proxy_api_port=free_port(),
        proxy_token=secrets.token_hex(32), folder=folder, cookie=secrets.token_hex(32),
        password=password, service=SERVICE, service_port=free_port(),
        path=os.environ.get("PATH", ""), tester_token=tester_token)
    (folder / "jupyterhub_config.py").write_text(config)
    log = open(folder / "hub.log", "wb")  # noqa: SIM115 - kept open for the hub's life
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "CRAZYLAB_"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(folder / "jupyterhub_config.py")],
        cwd=folder, stdout=log, stderr=subprocess.STDOUT, env=env)
    hub = Hub(folder, port, tester_token, process, password=password)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterHub exited: {hub.log()[-3000:]}")
        try:
            hub.api("GET", "")
            request("GET", hub.service_url + "crazylab/api/me", expect=(401,))
            return hub
        except (OSError, AssertionError):
            time.sleep(0.5)
    hub.stop()
    raise RuntimeError(f"JupyterHub did not answer in 120 s: {hub.log()[-3000:]}")

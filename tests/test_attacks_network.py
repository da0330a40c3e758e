"""Attacks on the class network (issue 30, item 6): a server other machines reach speaks HTTPS
when given a certificate (keys and tokens never cross the Wi-Fi in clear), warns in one line
when it listens beyond this machine without one, refuses a certificate it cannot use before
it starts, and a plain-HTTP client of an HTTPS server gets nothing."""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from browser_support import free_port

ROOT = Path(__file__).resolve().parents[1]


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (the cryptography library's, as a teacher's
    own certificate would be)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return certfile, keyfile


def _wait_https(url: str, context: ssl.SSLContext, process: subprocess.Popen,
                log: Path) -> bytes:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10, context=context) as reply:
                return reply.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise AssertionError(f"no HTTPS answer from {url}: {log.read_text()[-2000:]}")


def _plain_gets_nothing(port: int) -> None:
    """A plain-HTTP request to the HTTPS port: no page, no key, no token."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as reply:
            body = reply.read()
    except (urllib.error.URLError, ConnectionError, OSError):
        return
    raise AssertionError(f"plain HTTP was answered: {body[:200]!r}")


@pytest.mark.parametrize("command", ["tables", "serve"])
def test_a_server_given_a_certificate_speaks_only_https(tmp_path: Path, command: str) -> None:
    certfile, keyfile = _certificate(tmp_path)
    port = free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, "CRAZYLAB_DB": str(tmp_path / "class.db"), "PYTHONUNBUFFERED": "1"}
    if command == "tables":
        args = ["tables", "--port", str(port), "--delay", "0"]
        path = "/crazylab/tables/"
    else:
        (tmp_path / "pages").mkdir()
        args = ["serve", str(tmp_path / "pages"), "--port", str(port)]
        path = "/crazylab/api/me"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "crazylab", *args, "--certfile", str(certfile),
             "--keyfile", str(keyfile)], cwd=tmp_path, env=env, stdout=out,
            stderr=subprocess.STDOUT)
    try:
        trusted = ssl.create_default_context(cafile=str(certfile))
        if command == "tables":
            assert b"<html" in _wait_https(f"https://127.0.0.1:{port}{path}", trusted,
                                           process, log).lower()
            with urllib.request.urlopen(f"https://127.0.0.1:{port}{path}", timeout=10,
                                        context=trusted) as reply:  # no other site frames it
                assert "frame-ancestors 'self'" in reply.headers["Content-Security-Policy"]
        else:  # the class API answers over HTTPS: 401 without a token, as it should
            deadline = time.monotonic() + 120
            while True:
                try:
                    urllib.request.urlopen(f"https://127.0.0.1:{port}{path}", timeout=10,
                                           context=trusted)
                except urllib.error.HTTPError as e:
                    assert e.code == 401
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    assert process.poll() is None, log.read_text()[-2000:]
                    assert time.monotonic() < deadline, log.read_text()[-2000:]
                    time.sleep(0.5)
        _plain_gets_nothing(port)
        with pytest.raises(urllib.error.URLError):  # a certificate nobody vouched for
            urllib.request.urlopen(f"https://127.0.0.1:{port}{path}", timeout=10)
        assert "over plain HTTP" not in log.read_text()
    finally:
        process.terminate()
        process.wait(30)


@pytest.mark.parametrize("command", ["tables", "serve"])
def test_a_bad_certificate_is_refused_before_the_start(tmp_path: Path, command: str) -> None:
    (tmp_path / "pages").mkdir()
    bad = tmp_path / "not-a-cert.pem"
    bad.write_text("hello")
    where = ["tables"] if command == "tables" else ["serve", str(tmp_path / "pages")]
    for extra, says in ((["--certfile", str(bad)], "cannot use the certificate"),
                        (["--certfile", str(tmp_path / "missing.pem")],
                         "cannot use the certificate"),
                        (["--keyfile", str(bad)], "--keyfile needs --certfile")):
        run = subprocess.run([sys.executable, "-m", "crazylab", *where, "--port",
                              str(free_port()), *extra], capture_output=True, text=True,
                             timeout=60, cwd=tmp_path)
        assert run.returncode == 2, run
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and says in lines[0], run.stderr


def test_beyond_this_machine_without_a_certificate_is_one_warning(monkeypatch, capsys,
                                                                   tmp_path) -> None:
    import argparse

    from crazylab import publish
    from crazylab.web import tables_api

    certfile, keyfile = _certificate(tmp_path)
    monkeypatch.setattr(tables_api, "main", lambda *a, **kw: None)
    for host, cert, warned in (("0.0.0.0", None, True), ("0.0.0.0", certfile, False),
                               ("127.0.0.1", None, False)):
        args = argparse.Namespace(db=None, port=8870, host=host, delay=0.5,
                                  behind_proxy=False, hub=False, teacher_group="teachers",
                                  allow_class_creation=False, certfile=cert and str(cert),
                                  keyfile=cert and str(keyfile))
        assert publish.cmd_tables(args) == 0
        err = capsys.readouterr().err
        assert ("over plain HTTP" in err) is warned
        if warned:
            assert len(err.strip().splitlines()) == 1 and "--certfile" in err

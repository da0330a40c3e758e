"""Serve the built site (``_site/``) on 127.0.0.1 with Python's plain static file server:
what `make site-serve` runs. Any static web host serves the folder the same way.

    python -m crazylab.site.static_server [--port 8000] [--dir _site] [--no-gzip]

Like most web hosts, it compresses text and WebAssembly with gzip for browsers that ask for
it (``--no-gzip``: never, like ``python -m http.server``). :class:`SiteServer` is also what
tests/test_site.py and bench/bench_site.py use: it runs in a thread and counts the bytes it
sends (what a visit transfers).
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import os
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json",
                      ".whl": "application/octet-stream"}
    counter: SiteServer | None = None
    #: what is sent gzipped (wheels, zips, images and fonts are compressed already)
    COMPRESS = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".map", ".txt")

    def send_head(self):  # type: ignore[no-untyped-def]
        """The plain handler's, except a compressible file is sent gzipped when asked for."""
        path = self.translate_path(self.path)
        counter = self.counter
        if (counter is None or not counter.gzip or not os.path.isfile(path)
                or not path.endswith(self.COMPRESS)
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        st = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                if email.utils.parsedate_to_datetime(since).timestamp() >= int(st.st_mtime):
                    self.send_response(HTTPStatus.NOT_MODIFIED)
                    self.end_headers()
                    return None
            except (TypeError, ValueError, IndexError, OverflowError):
                pass
        body = counter.compressed(path, st.st_mtime)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
        self.end_headers()
        return _Body(body)

    def log_message(self, format: str, *args: object) -> None:
        if self.counter is None or self.counter.verbose:
            super().log_message(format, *args)

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        data = source.read()
        outputfile.write(data)
        if self.counter is not None:
            self.counter.add(len(data), self.path)


class _Body:
    """A bytes body with the ``read``/``close`` of a file, for ``copyfile``."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self) -> bytes:
        return self.data

    def close(self) -> None:
        pass


class SiteServer:
    """A static server for ``directory`` on 127.0.0.1 in a background thread.

    ``url`` is its base address; ``sent`` the body bytes served since the last ``reset()``,
    ``paths`` the paths served."""

    def __init__(self, directory: Path | str, port: int = 0, verbose: bool = False,
                 gzip: bool = True) -> None:
        self.directory = Path(directory).resolve()
        self.gzip = gzip
        self._gz: dict[tuple[str, float], bytes] = {}
        if not (self.directory / "index.html").exists():
            raise FileNotFoundError(f"{self.directory} holds no site: run `make site` first")
        self.verbose = verbose
        self._lock = threading.Lock()
        self.reset()
        handler = type("Handler", (_Handler,), {"counter": self})
        self.httpd = ThreadingHTTPServer(
            ("127.0.0.1", port), functools.partial(handler, directory=str(self.directory)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread: threading.Thread | None = None

    def add(self, n: int, path: str) -> None:
        with self._lock:
            self.sent += n
            self.paths.append(path)

    def compressed(self, path: str, mtime: float) -> bytes:
        """``path`` gzipped (level 6), kept in memory while the file is unchanged."""
        key = (path, mtime)
        if key not in self._gz:
            with open(path, "rb") as f:
                self._gz[key] = gzip.compress(f.read(), compresslevel=6, mtime=0)
        return self._gz[key]

    def reset(self) -> None:
        with self._lock:
            self.sent = 0
            self.paths: list[str] = []

    def start(self) -> SiteServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the static site on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=Path("_site"))
    parser.add_argument("--no-gzip", action="store_true", help="never compress")
    args = parser.parse_args()
    server = SiteServer(args.dir, args.port, verbose=True, gzip=not args.no_gzip)
    print(f"crazylab static site: open {server.url}/  (Ctrl-C stops)", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()


if __name__ == "__main__":
    main()

"""HTTPS for crazylab's servers: a TLS context from the teacher's certificate (tornado's
``ssl_options``), so class keys and learner tokens do not cross a class network in clear."""

from __future__ import annotations

import ssl


def tls_context(certfile: str, keyfile: str | None = None) -> ssl.SSLContext:
    """A server's TLS context from a PEM certificate (and key); ``OSError``/``ssl.SSLError``
    name what cannot be read."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certfile, keyfile)
    return context

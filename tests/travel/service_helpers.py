"""A live service for the tests, and one HTTP request to it (the standard
library's client: no test dependency beyond the service's own)."""

import contextlib
import http.client
import json
import socket
import threading
import time
import urllib.parse

import pytest


@contextlib.contextmanager
def live_server(app):
    """`app` served by uvicorn in a thread on a free local port; yields its URL."""
    uvicorn = pytest.importorskip("uvicorn", reason="the service needs uvicorn: pip install '.[serve]'")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def request(url: str, method: str, path: str, body: bytes = b"", headers=None):
    """(status, decoded JSON or text) of one request."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read().decode("utf8")
        is_json = response.getheader("content-type", "").startswith("application/json")
        return response.status, json.loads(data) if is_json else data
    finally:
        conn.close()

"""The app's web server, started as the README says (``streamlit run app.py``): no framing by
other sites, no websocket from another origin, no network request of its own.

Real servers, no browser: pages are fetched with urllib, websockets opened with the ``websockets``
client that Streamlit installs, and outbound requests caught by a local listener that the app
process is told is its HTTP(S) proxy.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from conftest import streamlit_app
from toolsearch.live.guard import check_client
from toolsearch.live.webguard import BrowserGuard, same_origin

STREAM = "/_stcore/stream"


# --- the rules ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("origin,host,expected", [
    ("http://localhost:8501", "localhost:8501", True),
    ("https://LOCALHOST:8501", "localhost:8501", True),
    ("http://[::1]:8501", "[::1]:8501", True),
    ("http://192.0.2.5:8501", "192.0.2.5:8501", True),
    ("http://localhost:3000", "localhost:8501", False),   # another program on this machine
    ("http://127.0.0.1:8501", "localhost:8501", False),   # another name is another origin
    ("http://evil.example", "localhost:8501", False),
    ("null", "localhost:8501", False),
    ("file://", "localhost:8501", False),
    ("http://localhost:8501/path", "localhost:8501", False),
    ("http://localhost:8501", None, False),
    (None, "localhost:8501", False),
])
def test_same_origin(origin, host, expected):
    assert same_origin(origin, host) is expected


def test_the_launch_guard_counts_only_the_apps_own_origin_as_local():
    assert check_client(None, {"Host": "localhost:8501", "Origin": "http://localhost:8501"}).local
    other_port = check_client(None, {"Host": "localhost:8501", "Origin": "http://localhost:3000"})
    assert not other_port.local
    assert other_port.reason == "the page was opened from 'http://localhost:3000', not from this app (localhost:8501)"
    assert not check_client(None, {"Host": "127.0.0.1:8501", "Origin": "http://localhost:8501"}).local


def _run_guard(scope: dict, app_headers: list[tuple[bytes, bytes]]) -> tuple[list[dict], bool]:
    """Run :class:`BrowserGuard` around a tiny app; returns (messages sent, whether the app ran)."""
    ran, sent = [], []

    async def app(scope, receive, send):
        ran.append(True)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": list(app_headers)})
            await send({"type": "http.response.body", "body": b"<html></html>"})

    async def receive():
        return {"type": "websocket.connect"} if scope["type"] == "websocket" else {"type": "http.request"}

    async def send(message):
        sent.append(message)

    asyncio.run(BrowserGuard(app)(scope, receive, send))
    return sent, bool(ran)


def test_the_guard_sets_its_headers_over_the_apps_and_stops_foreign_websockets():
    sent, _ = _run_guard({"type": "http", "headers": []}, [(b"x-frame-options", b"SAMEORIGIN"),
                                                           (b"content-type", b"text/html")])
    headers = sent[0]["headers"]
    assert [v for k, v in headers if k == b"x-frame-options"] == [b"DENY"]
    assert (b"content-security-policy", b"frame-ancestors 'none'") in headers
    assert (b"content-type", b"text/html") in headers
    foreign = {"type": "websocket", "headers": [(b"host", b"localhost:8501"), (b"origin", b"http://localhost:3000")]}
    sent, ran = _run_guard(foreign, [])
    assert not ran and sent == [{"type": "websocket.close", "code": 1008}]
    own = {"type": "websocket", "headers": [(b"host", b"localhost:8501"), (b"origin", b"http://localhost:8501")]}
    assert _run_guard(own, [])[1]
    assert _run_guard({"type": "websocket", "headers": [(b"host", b"localhost:8501")]}, [])[1]  # no Origin


# --- a served app ------------------------------------------------------------------------------------

def _headers(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url, timeout=30) as resp:
        assert resp.status == 200
        return {k.lower(): v for k, v in resp.headers.items()}


def _websocket_status(url: str, origin: str | None) -> int:
    """101 when the handshake succeeds, else the HTTP status the server answered with."""
    ws_url = url.replace("http://", "ws://", 1) + STREAM
    try:
        with connect(ws_url, origin=origin, subprotocols=["streamlit"], open_timeout=30):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


def test_pages_refuse_framing_and_foreign_websockets():
    with streamlit_app() as (_, url):
        port = url.rsplit(":", 1)[1]
        for path in ("/", "/report", "/live"):  # the app's HTML, whichever page a link opens
            headers = _headers(url + path)
            assert headers["x-frame-options"] == "DENY"
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert headers["content-type"].startswith("text/html")
        assert _headers(url + "/_stcore/health")["x-frame-options"] == "DENY"
        # A page served by another program on this machine, or by any web site: refused.
        assert _websocket_status(url, f"http://localhost:{int(port) + 1}") == 403
        assert _websocket_status(url, "http://localhost:3000") == 403
        assert _websocket_status(url, "http://evil.example") == 403
        assert _websocket_status(url, "null") == 403
        # The app's own page connects.
        assert _websocket_status(url, url) == 101


class _Listener:
    """A TCP listener on loopback that records every connection (and closes it at once)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.first_bytes: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                conn.settimeout(2)
                try:
                    self.first_bytes.append(conn.recv(200))
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


def test_an_exposed_app_makes_no_network_request(tmp_path: Path):
    """Exposed with --server.address 0.0.0.0, Streamlit would ask checkip.amazonaws.com for the
    machine's public address at start (and for websockets from other origins). Every HTTP(S)
    request of the app process goes to a listener posing as its proxy: it must see none."""
    listener = _Listener()
    proxy = f"http://127.0.0.1:{listener.port}"
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "http_proxy", "https_proxy", "all_proxy")}
    env.update(HTTP_PROXY=proxy, HTTPS_PROXY=proxy, http_proxy=proxy, https_proxy=proxy, ALL_PROXY=proxy)
    log = tmp_path / "app.log"
    try:
        with streamlit_app(address="0.0.0.0", url_host="127.0.0.1", log=log, env=env) as (_, url):
            _headers(url + "/")
            assert _websocket_status(url, "http://evil.example") == 403
            assert _websocket_status(url, url) == 101
    finally:
        listener.close()
    output = log.read_text(encoding="utf-8", errors="replace")
    assert listener.connections == 0, (listener.first_bytes, output)
    assert "External URL" not in output and "Did not auto detect external IP" not in output
    assert "URL: http://localhost:" in output  # the terminal still says where to open the app

"""A small HTTP forward proxy on 127.0.0.1 for the proxy tests: it counts the requests it is sent.

It serves the absolute-form requests a client sends to an HTTP proxy for ``http://`` URLs
(``POST http://mcp.example.test:8123/mcp HTTP/1.1``). The host names it was given "resolve" to
127.0.0.1 here only (the request goes to 127.0.0.1 on the URL's port), so a server URL with such
a name can only be reached through this proxy; any other host gets ``502 Bad Gateway``, and so
does a ``CONNECT`` (the tunnel an ``https://`` URL asks for: no TLS server is here). With
``credentials``, a request without the matching ``Proxy-Authorization`` header gets ``407`` first.

Each request is forwarded on a connection of its own (``Connection: close`` both ways), and the
answer is relayed as it arrives (event streams included) until either side closes. Everything
stops when the ``with`` block ends.
"""

from __future__ import annotations

import base64
import select
import socket
import socketserver
import threading
from urllib.parse import urlsplit

_HEAD_MAX = 64 * 1024
_HOP_HEADERS = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "upgrade"}


class ForwardProxy:
    """``with ForwardProxy({"mcp.example.test"}) as proxy:`` serves on ``proxy.url`` until the block ends.

    Attributes:
        requests: ``(method, target, proxy_authorization)`` of every request received, in order.
    """

    def __init__(self, hosts: set[str] | frozenset[str] = frozenset(), credentials: tuple[str, str] | None = None) -> None:
        self.hosts = {host.lower() for host in hosts}
        self.expected_auth = None if credentials is None else \
            "Basic " + base64.b64encode(f"{credentials[0]}:{credentials[1]}".encode()).decode()
        self.requests: list[tuple[str, str, str | None]] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        owner = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                owner._serve(self.request)

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self) -> "ForwardProxy":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def targets(self) -> list[str]:
        """The request targets received so far (``http://host:port/path``)."""
        with self.lock:
            return [target for _, target, _ in self.requests]

    # --- one client connection -------------------------------------------------------------------

    def _serve(self, client: socket.socket) -> None:
        client.settimeout(30)
        try:
            head, rest = _read_head(client)
        except OSError:
            return
        if not head:
            return
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        try:
            method, target, _version = request_line.split(" ", 2)
        except ValueError:
            return _reply(client, "400 Bad Request")
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in header_lines if ":" in line]
        auth = next((value for name, value in headers if name.lower() == "proxy-authorization"), None)
        with self.lock:
            self.requests.append((method, target, auth))
        if self.expected_auth is not None and auth != self.expected_auth:
            return _reply(client, "407 Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="test"\r\n')
        parts = urlsplit(target)
        if parts.scheme != "http" or (parts.hostname or "").lower() not in self.hosts:
            return _reply(client, "502 Bad Gateway")
        length = next((int(value) for name, value in headers if name.lower() == "content-length"), 0)
        body = rest
        while len(body) < length:
            chunk = client.recv(65536)
            if not chunk:
                return
            body += chunk
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        forwarded = "".join(f"{name}: {value}\r\n" for name, value in headers if name.lower() not in _HOP_HEADERS)
        try:
            upstream = socket.create_connection(("127.0.0.1", parts.port or 80), timeout=30)
        except OSError:
            return _reply(client, "502 Bad Gateway")
        with upstream:
            upstream.sendall(f"{method} {path} HTTP/1.1\r\n{forwarded}Connection: close\r\n\r\n".encode("latin-1") + body)
            answer, rest = _read_head(upstream)
            if not answer:
                return _reply(client, "502 Bad Gateway")
            status_line, *answer_lines = answer.decode("latin-1").split("\r\n")
            kept = "".join(line + "\r\n" for line in answer_lines
                           if line.split(":", 1)[0].strip().lower() not in _HOP_HEADERS)
            client.sendall(f"{status_line}\r\n{kept}Connection: close\r\n\r\n".encode("latin-1") + rest)
            self._relay(upstream, client)

    def _relay(self, upstream: socket.socket, client: socket.socket) -> None:
        """Copy the rest of the answer to the client until either side closes or the proxy stops."""
        while not self.stopping.is_set():
            ready, _, _ = select.select([upstream, client], [], [], 0.2)
            for sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                if sock is upstream:
                    client.sendall(data)


def _read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    """The bytes up to the blank line that ends an HTTP head, and what came after it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return b"", b""
        data += chunk
        if len(data) > _HEAD_MAX:
            return b"", b""
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _reply(client: socket.socket, status: str, extra: str = "") -> None:
    body = status.encode()
    client.sendall(f"HTTP/1.1 {status}\r\n{extra}Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                   f"Connection: close\r\n\r\n".encode() + body)

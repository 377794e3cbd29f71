"""An MCP server (raw JSON-RPC, no SDK) that answers ``tools/list`` only after sending the client
many requests of its own (``ping``, ``roots/list``, ``sampling/createMessage``,
``elicitation/create``).

    python tests/request_flood_mcp_server.py --requests N           # never reads the answers
    python tests/request_flood_mcp_server.py --requests N --reading # reads them as they come
    python tests/request_flood_mcp_server.py --requests N --later   # answers tools/list first, then
                                                                    # sends them, reading nothing
    python tests/request_flood_mcp_server.py --requests N --reading --http PORT
        # Streamable HTTP on 127.0.0.1:PORT/mcp: the requests go out on the event stream that
        # answers tools/list, each answer (a POST) is acknowledged at once
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading

METHODS = ("ping", "roots/list", "sampling/createMessage", "elicitation/create")


def _initialized(message: dict) -> dict:
    return {"jsonrpc": "2.0", "id": message["id"],
            "result": {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                       "serverInfo": {"name": "asker", "version": "1"}}}


def serve_http(port: int, requests: int) -> None:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _empty(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self._empty(405)

        def do_DELETE(self) -> None:
            self._empty(200)

        def do_POST(self) -> None:
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            method, request_id = message.get("method"), message.get("id")
            if method is None or request_id is None:  # an answer or a notification: read
                self._empty(202)
                return
            if method == "initialize":
                data = json.dumps(_initialized(message)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            out = [{"jsonrpc": "2.0", "id": f"s{n}", "method": METHODS[n % len(METHODS)], "params": {}}
                   for n in range(requests if method == "tools/list" else 0)]
            tools = [{"name": "t", "inputSchema": {"type": "object"}}] if method == "tools/list" else []
            out.append({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}})
            try:
                for item in out:
                    self.wfile.write(f"event: message\ndata: {json.dumps(item)}\n\n".encode())
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--reading", action="store_true")
    parser.add_argument("--http", type=int, metavar="PORT")
    parser.add_argument("--later", action="store_true")
    args = parser.parse_args()
    if args.http:
        serve_http(args.http, args.requests)
        return
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            lines.put(line)
        lines.put(None)

    if args.reading:  # a thread reads the client's answers while the requests go out
        threading.Thread(target=read, daemon=True).start()
        next_line = lines.get
    else:  # nothing is read while the requests go out: the answers pile up in the pipe
        next_line = lambda: sys.stdin.readline() or None  # noqa: E731
    lock = threading.Lock()

    def send(message: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    while (line := next_line()) is not None:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if method is None or request_id is None:
            continue
        if method == "initialize":
            send(_initialized(message))
        elif method == "tools/list":
            listed = {"jsonrpc": "2.0", "id": request_id,
                      "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}}
            if args.later:
                send(listed)
            for number in range(args.requests):
                send({"jsonrpc": "2.0", "id": f"s{number}", "method": METHODS[number % len(METHODS)], "params": {}})
            if not args.later:
                send(listed)
        else:
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main()

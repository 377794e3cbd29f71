"""An MCP server (raw JSON-RPC, no SDK) that answers ``tools/list`` only after sending the client
many requests of its own (``ping``, ``roots/list``, ``sampling/createMessage``,
``elicitation/create``).

    python tests/request_flood_mcp_server.py --requests N           # never reads the answers
    python tests/request_flood_mcp_server.py --requests N --reading # reads them as they come
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading

METHODS = ("ping", "roots/list", "sampling/createMessage", "elicitation/create")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--reading", action="store_true")
    args = parser.parse_args()
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
            send({"jsonrpc": "2.0", "id": request_id,
                  "result": {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                             "serverInfo": {"name": "asker", "version": "1"}}})
        elif method == "tools/list":
            for number in range(args.requests):
                send({"jsonrpc": "2.0", "id": f"s{number}", "method": METHODS[number % len(METHODS)], "params": {}})
            send({"jsonrpc": "2.0", "id": request_id,
                  "result": {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}})
        else:
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main()

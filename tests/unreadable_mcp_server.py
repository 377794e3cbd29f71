"""A raw JSON-RPC MCP server over stdio (no SDK) whose answers the MCP SDK cannot read.

``python tests/unreadable_mcp_server.py MODE``: ``initialize`` is answered well (except in mode
``initialize``), and the ``tools/list`` answer (``tools/call`` in mode ``call-*``) is:

* ``result-string``: ``"result": "oops"``;
* ``error-string``: ``"error": "boom"``;
* ``no-jsonrpc``: no ``"jsonrpc": "2.0"``;
* ``deep``: a tool schema nested 300 levels (past the SDK's JSON parser, which stops near 200);
* ``very-deep``: nested 100,000 levels (past Python's own JSON parser too);
* ``big-number``: a schema ``maximum`` with 5,000 digits;
* ``initialize``: the ``initialize`` answer has ``"result": "hello"``;
* ``call-result-string``: ``tools/list`` is fine (one tool, ``echo``), the ``tools/call`` answer
  has ``"result": "oops"``;
* ``crash-on-page-2``: the first ``tools/list`` page has two tools and a ``nextCursor``; asked for
  the second page, the server exits without answering.

It first prints a log line on stdout (not JSON-RPC), as careless servers do.
"""

from __future__ import annotations

import json
import sys

MODE = sys.argv[1]


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def nested(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


def main() -> None:
    send("server starting (a log line on stdout)")
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue
        ident, method = json.dumps(message["id"]), message.get("method")
        if method == "initialize":
            if MODE == "initialize":
                send('{"jsonrpc": "2.0", "id": %s, "result": "hello"}' % ident)
                continue
            send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                "serverInfo": {"name": "unreadable", "version": "1"}}}))
        elif method == "tools/list" and MODE == "crash-on-page-2":
            if (message.get("params") or {}).get("cursor"):
                sys.exit(3)
            send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"nextCursor": "2", "tools": [
                {"name": name, "inputSchema": {"type": "object"}} for name in ("one", "two")]}}))
        elif method == "tools/list" and not MODE.startswith("call-"):
            tool = '{"name": "t", "inputSchema": %s}'
            answers = {
                "result-string": '{"jsonrpc": "2.0", "id": %s, "result": "oops"}' % ident,
                "error-string": '{"jsonrpc": "2.0", "id": %s, "error": "boom"}' % ident,
                "no-jsonrpc": '{"id": %s, "result": {"tools": []}}' % ident,
                "deep": '{"jsonrpc": "2.0", "id": %s, "result": {"tools": [%s]}}' % (ident, tool % nested(300)),
                "very-deep": '{"jsonrpc": "2.0", "id": %s, "result": {"tools": [%s]}}' % (ident, tool % nested(100_000)),
                "big-number": '{"jsonrpc": "2.0", "id": %s, "result": {"tools": [%s]}}' % (
                    ident, tool % ('{"type": "object", "maximum": 1%s}' % ("0" * 5000))),
            }
            send(answers[MODE])
        elif method == "tools/list":
            send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": [
                {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]}}))
        elif method == "tools/call":
            send('{"jsonrpc": "2.0", "id": %s, "result": "oops"}' % ident)
        elif method == "ping":
            send(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}}))
        else:
            send(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                             "error": {"code": -32601, "message": f"method not found: {method}"}}))


if __name__ == "__main__":
    main()

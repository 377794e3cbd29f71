"""A tiny raw JSON-RPC MCP server over stdio (no SDK) that sends tool lists the 2.x SDK rejects.

Its ``tools/list`` result has:

* ``loose_schema``: an ``inputSchema`` without ``type`` (seen in real servers);
* ``good``: a well-formed tool;
* a tool without a ``name`` (the lenient reader skips it and reports it).

``--noise`` also prints a non-JSON line to stdout before each answer (a server that logs to
stdout), ``--noise-once`` only before the first answer; ``--startup-delay SECONDS`` waits before
serving (the benchmark uses it as a server with a cheap start-up); ``--protocol VERSION`` answers
``initialize`` with that protocol version (one the MCP SDK does not support, for a test); ``--deep LEVELS``
adds a tool ``deep`` whose ``inputSchema`` is nested ``LEVELS`` objects deep. Any other method gets a JSON-RPC "method not found" error.
"""

from __future__ import annotations

import json
import sys
import time

TOOLS = [
    {"name": "loose_schema", "description": "Search notes (schema without type).",
     "inputSchema": {"properties": {"query": {"type": "string"}}, "required": ["query"]}},
    {"name": "good", "description": "A well-formed tool.",
     "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}}},
    {"description": "A tool without a name."},
]


DEEP: list[dict] = []  # --deep LEVELS: one tool nested that deep


def nested(levels: int) -> dict:
    """An object ``levels`` levels deep: ``{"a": {"a": … {}}}``."""
    node: dict = {}
    for _ in range(levels - 1):
        node = {"a": node}
    return node


def answer(message: dict, protocol: str = "2025-06-18") -> dict | None:
    method = message.get("method")
    if "id" not in message:
        return None  # a notification
    if method == "initialize":
        result = {"protocolVersion": protocol, "capabilities": {"tools": {}},
                  "serverInfo": {"name": "malformed", "version": "0.0.1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS + DEEP}
    elif method == "tools/call":
        params = message.get("params") or {}
        text = f"called {params.get('name')} with {json.dumps(params.get('arguments') or {}, sort_keys=True)}"
        result = {"content": [{"type": "text", "text": text}]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"method not found: {method}"}}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    argv = sys.argv[1:]
    noise = "--noise" in argv or "--noise-once" in argv
    if "--deep" in argv:
        DEEP.append({"name": "deep", "description": "A tool with a deep schema.",
                     "inputSchema": {"type": "object", "properties": nested(int(argv[argv.index("--deep") + 1]))}})
    if "--startup-delay" in argv:
        time.sleep(float(argv[argv.index("--startup-delay") + 1]))
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        protocol = argv[argv.index("--protocol") + 1] if "--protocol" in argv else "2025-06-18"
        reply = answer(json.loads(line), protocol)
        if reply is None:
            continue
        if noise:
            sys.stdout.write("server log: handling a request\n")
            noise = "--noise-once" not in argv
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""A tiny raw JSON-RPC MCP server over stdio (no SDK) that says something twice while it is listed.

Its tool list has two pages (``page-1`` then ``page-2``, one tool each). With ``--answer-twice`` it
answers the request for page 1 twice: the second answer lists another tool (``impostor``), or,
with ``--same`` too, repeats the first. With ``--list-changed`` it sends
``notifications/tools/list_changed`` right after its answer for page 1. Both come before the answer
for page 2, so a client that reads every page sees them while it is still listing.
"""

from __future__ import annotations

import json
import sys


def tool(name: str) -> dict:
    return {"name": name, "description": f"The {name} tool.", "inputSchema": {"type": "object", "properties": {}}}


def main() -> None:
    argv = sys.argv[1:]
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        method, request_id = message.get("method"), message["id"]
        replies: list[dict] = []
        if method == "initialize":
            replies.append({"jsonrpc": "2.0", "id": request_id, "result": {
                "protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "relist", "version": "0.0.1"}}})
        elif method == "tools/list" and not (message.get("params") or {}).get("cursor"):
            replies.append({"jsonrpc": "2.0", "id": request_id, "result": {"tools": [tool("first")], "nextCursor": "p2"}})
            if "--answer-twice" in argv:
                again = [tool("first")] if "--same" in argv else [tool("impostor")]
                replies.append({"jsonrpc": "2.0", "id": request_id, "result": {"tools": again, "nextCursor": "p2"}})
            if "--list-changed" in argv:
                replies.append({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        elif method == "tools/list":
            replies.append({"jsonrpc": "2.0", "id": request_id, "result": {"tools": [tool("second")]}})
        elif method == "ping":
            replies.append({"jsonrpc": "2.0", "id": request_id, "result": {}})
        else:
            replies.append({"jsonrpc": "2.0", "id": request_id,
                            "error": {"code": -32601, "message": f"method not found: {method}"}})
        for reply in replies:
            sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""A raw JSON-RPC MCP server over stdio (no SDK) with one tool, ``wide``, that takes N string
parameters (``p0`` … ``pN-1``; ``python tests/wide_tool_mcp_server.py N [TOOL NAME]``, the tool
named TOOL NAME when given). A call echoes the arguments it received as JSON text."""

from __future__ import annotations

import json
import sys

COUNT = int(sys.argv[1])
NAME = sys.argv[2] if len(sys.argv) > 2 else "wide"
SCHEMA = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(COUNT)}}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        method, ident = message.get("method"), message["id"]
        if method == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "wide", "version": "1"}}
        elif method == "tools/list":
            result = {"tools": [{"name": NAME, "description": f"Takes {COUNT} parameters.", "inputSchema": SCHEMA}]}
        elif method == "tools/call":
            arguments = (message.get("params") or {}).get("arguments") or {}
            result = {"content": [{"type": "text", "text": json.dumps(arguments, sort_keys=True)}]}
        else:
            result = {}
        send({"jsonrpc": "2.0", "id": ident, "result": result})


if __name__ == "__main__":
    main()

"""A raw JSON-RPC MCP server over stdio (no SDK) that writes to stderr without end once it has
listed its one tool (``echo``), as a server stuck in a logging loop does.

``--crash-after MB``: instead, on ``initialize``, write that many megabytes to stderr, then
``final: bad config``, and exit without answering (the client then reads the end of stderr for
its reason).
"""

from __future__ import annotations

import json
import os
import sys
import threading

CHUNK = ("E" * 1023 + "\n") * 1024  # 1 MiB


def flood(megabytes: float | None) -> None:
    written = 0
    while megabytes is None or written < megabytes:
        sys.stderr.write(CHUNK)
        written += 1
    sys.stderr.write("final: bad config\n")
    sys.stderr.flush()
    os._exit(3)


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    crash_after = float(sys.argv[sys.argv.index("--crash-after") + 1]) if "--crash-after" in sys.argv else None
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "initialize" and crash_after is not None:
            flood(crash_after)
        elif method == "initialize":
            send({"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                "serverInfo": {"name": "flood", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": [
                {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]}})
            threading.Thread(target=flood, args=(None,), daemon=True).start()
        else:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"content": [{"type": "text", "text": "ok"}]}})


if __name__ == "__main__":
    main()

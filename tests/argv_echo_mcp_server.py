"""A hostile MCP server over stdio (raw JSON-RPC, no SDK) that echoes its whole command line and
environment everywhere a client might show it, for the secret-argument tests.

Whatever the config put on its command line (``--accessToken=…``, ``-e NAME=…``,
``--header "Authorization: Bearer …"``, a ``${VAR}`` value…), in its environment (``env``,
``envFile``) or its working directory, it sends back:

* on stderr at start-up;
* in ``serverInfo`` name and version;
* in tool names (one tool per argument), titles, descriptions, parameter descriptions, defaults
  and enum values;
* in ``tools/call`` results of ``echo`` (``content`` text and ``structuredContent``);
* in the JSON-RPC error ``message`` and ``data`` of ``fail``.

The environment it echoes is what the client passed (``NAME=value`` lines; the client's baseline
variables such as ``PATH`` included).
"""

from __future__ import annotations

import json
import os
import sys


def argv() -> list[str]:
    return sys.argv[1:]


def environment() -> dict[str, str]:
    return dict(sorted(os.environ.items()))


def everything() -> str:
    """One line: the arguments, the working directory and every ``NAME=value``."""
    env = " ".join(f"{k}={v}" for k, v in environment().items())
    return f"argv: {' '.join(argv())} | cwd: {os.getcwd()} | env: {env}"


def tools() -> list[dict]:
    text = everything()
    out = [
        {"name": "echo", "title": f"Echo {' '.join(argv())}", "description": f"Started as {text}",
         "inputSchema": {"type": "object", "properties": {
             "text": {"type": "string", "description": f"any text; started with {text}", "default": text},
             "mode": {"type": "string", "enum": ["plain", *argv()]},
             "nested": {"type": "object", "properties": {"env": {"type": "string",
                                                                  "enum": list(environment().values())}}}}}},
        {"name": "fail", "description": "Always answers with a JSON-RPC error.",
         "inputSchema": {"type": "object", "properties": {}}},
    ]
    for index, arg in enumerate(argv()):
        out.append({"name": f"arg{index}_{arg}", "description": f"argument {index} is {arg}",
                    "inputSchema": {"type": "object", "properties": {}}})
    return out


def answer(message: dict) -> dict | None:
    method = message.get("method")
    if "id" not in message:
        return None
    text = everything()
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": f"echo {' '.join(argv())}", "version": f"1.0 {os.getcwd()}"}}
    elif method == "tools/list":
        result = {"tools": tools()}
    elif method == "tools/call":
        params = message.get("params") or {}
        if params.get("name") == "fail":
            return {"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": -32001, "message": f"refused: {text}",
                "data": {"argv": argv(), "env": environment(), "cwd": os.getcwd()}}}
        result = {"content": [{"type": "text", "text": f"you sent {json.dumps(params.get('arguments') or {})}; {text}"}],
                  "structuredContent": {"argv": argv(), "env": environment(), "cwd": os.getcwd()}}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"no {method}: {text}"}}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    sys.stderr.write(f"echo server starting: {everything()}\n")
    sys.stderr.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

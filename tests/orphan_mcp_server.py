"""A raw JSON-RPC MCP server over stdio (no SDK) that leaves a child behind when it exits.

On start it spawns one child that writes its pid to ``--pid-file`` and sleeps. The child is
started in a new session (``setsid``: its own process group), with its standard streams on
``/dev/null``, so neither closing the server's pipes nor signalling the server's process group
reaches it. ``--hang-list`` never answers ``tools/list`` (its client waits). With ``--bare-env`` the child also starts with an empty environment (a child that
carries nothing of its parent). The server answers ``initialize`` and ``tools/list`` (one tool)
and exits at the end of its input (it answers only once the child has written its pid), leaving the child running unless its client stops it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(600)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--bare-env", action="store_true")
    parser.add_argument("--hang-list", action="store_true", help="never answer tools/list")
    args = parser.parse_args()
    subprocess.Popen([sys.executable, "-c", CHILD, args.pid_file], start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     env={} if args.bare_env else None)
    deadline = time.monotonic() + 30
    while not os.path.exists(args.pid_file) and time.monotonic() < deadline:  # the child is up
        time.sleep(0.02)
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message.get("method") == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "orphan", "version": "0.0.1"}}
        elif message.get("method") == "tools/list" and args.hang_list:
            continue
        elif message.get("method") == "tools/list":
            result = {"tools": [{"name": "noop", "description": "Does nothing.",
                                 "inputSchema": {"type": "object"}}]}
        else:
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                              "error": {"code": -32601, "message": "method not found"}}), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
    # end of input: exit, the child stays


if __name__ == "__main__":
    main()

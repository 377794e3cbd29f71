"""An MCP server (raw JSON-RPC, no SDK) whose ``tools/list`` answer is one very long message.

    python tests/bigreply_mcp_server.py --kib N              # stdio: one line of about N KiB
    python tests/bigreply_mcp_server.py --kib N --http PORT  # Streamable HTTP on 127.0.0.1:PORT/mcp,
                                                             # the answer as one JSON body
    python tests/bigreply_mcp_server.py --kib N --http PORT --gzip  # that body gzip-compressed
                                                                    # (Content-Encoding: gzip)

The one tool's description is ``N`` KiB of ``x``; the answer is written in 64 KiB pieces, so a
client that stops reading stops the server's writes too. ``--endless`` never ends the answer.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PIECE = "x" * 65536


def answer(message: dict, kib: int, endless: bool) -> Iterator[str] | None:
    """The pieces of the answer to ``message`` (None for a notification)."""
    if "id" not in message:
        return None
    method = message.get("method")
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "bigreply", "version": "1"}}
        return iter([json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result})])
    if method == "tools/list":
        def pieces() -> Iterator[str]:
            yield ('{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"long","inputSchema":{"type":"object"},'
                   '"description":"' % json.dumps(message["id"]))
            left = kib * 1024
            while endless or left > 0:
                piece = PIECE if endless or left >= len(PIECE) else PIECE[:left]
                left -= len(piece)
                yield piece
            yield '"}]}}'
        return pieces()
    return iter([json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {}})])


def serve_stdio(kib: int, endless: bool) -> None:
    for line in sys.stdin:
        pieces = answer(json.loads(line), kib, endless)
        if pieces is None:
            continue
        try:
            for piece in pieces:
                sys.stdout.write(piece)
            sys.stdout.write("\n")
            sys.stdout.flush()
        except BrokenPipeError:
            return


def serve_http(port: int, kib: int, endless: bool, gzip: bool = False) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            pieces = answer(json.loads(body), kib, endless)
            if pieces is None:
                self.send_response(202)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if gzip:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16) if gzip else None
            try:
                for piece in pieces:
                    data = packer.compress(piece.encode()) if packer else piece.encode()
                    if data:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                if packer:
                    data = packer.flush()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                return

        def do_GET(self) -> None:
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_DELETE(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, required=True)
    parser.add_argument("--http", type=int, metavar="PORT")
    parser.add_argument("--endless", action="store_true")
    parser.add_argument("--gzip", action="store_true")
    args = parser.parse_args()
    if args.http:
        serve_http(args.http, args.kib, args.endless, args.gzip)
    else:
        serve_stdio(args.kib, args.endless)


if __name__ == "__main__":
    main()

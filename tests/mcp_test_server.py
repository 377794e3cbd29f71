"""A small MCP server for the live tests and the benchmark, written with the installed SDK (2.x).

Tools (in this order; ``tools/list`` is paginated, ``--page-size`` tools per page):

* ``echo(text)``: returns the text;
* ``add(a, b)``: integer sum, as text and as structured content ``{"sum": n}``;
* ``get_env(name)``: the value of an environment variable of the server process (or ``<unset>``);
* ``fail(message?)``: raises, so the client gets a JSON-RPC error;
* ``soft_fail()``: returns a result with ``isError: true``;
* ``slow(seconds)``: sleeps, then answers;
* ``lookup(query, "max results")``: echoes the arguments it received (a property name that
  registration renames);
* ``extra_000`` … (``--extra N``): generated tools, for large catalogs;
* ``configure`` (``--form-tool``): a schema with every kind of field an argument form handles
  (string, bounded integer, number, boolean, enum, arrays of scalars, a nested object) and a
  zero-width space in its description; echoes the arguments it received.

Usage::

    python tests/mcp_test_server.py                    # stdio
    python tests/mcp_test_server.py --http 8765        # streamable HTTP on 127.0.0.1:8765/mcp
    python tests/mcp_test_server.py --sse 8766         # SSE on 127.0.0.1:8766/sse

Options: ``--name NAME`` (server name), ``--page-size N`` (default 3), ``--extra N``,
``--startup-delay SECONDS`` (sleep before serving), ``--require-header 'Name=value'`` (HTTP/SSE:
answer 401 to requests without that header), ``--start-marker FILE`` (append ``NAME PID`` as one
line to FILE on start, so a test can count the server processes that were started), ``--form-tool``,
``--empty-next-cursor`` (the last ``tools/list`` page carries ``"nextCursor": ""`` instead of none),
``--allow-host NAME`` (Streamable HTTP: the SDK's DNS-rebinding protection also admits ``Host: NAME:PORT``,
for a server reached under another name, through a proxy).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

VERSION = "1.2.3"


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


FORM_TOOL_SCHEMA = _obj({
    "title": {"type": "string", "description": "Job title."},
    "count": {"type": "integer", "minimum": 1, "maximum": 10, "description": "How many runs."},
    "ratio": {"type": "number"},
    "verbose": {"type": "boolean"},
    "color": {"type": "string", "enum": ["red", "green", "blue"]},
    "tags": {"type": "array", "items": {"type": "string"}},
    "sizes": {"type": "array", "items": {"type": "integer"}},
    "options": {"type": "object", "properties": {"depth": {"type": "integer"}}, "required": ["depth"]},
}, ["title", "count"])


def build_tools(extra: int, form_tool: bool = False) -> list[types.Tool]:
    """The server's tools in listing order."""
    tools = [
        types.Tool(name="echo", description="Echo the given text back.",
                   input_schema=_obj({"text": {"type": "string", "description": "Text to echo."}}, ["text"])),
        types.Tool(name="add", description="Add two integers.",
                   input_schema=_obj({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"]),
                   annotations=types.ToolAnnotations(read_only_hint=True)),
        types.Tool(name="get_env", description="Read an environment variable of the server process.",
                   input_schema=_obj({"name": {"type": "string"}}, ["name"])),
        types.Tool(name="fail", description="Always raises an error.",
                   input_schema=_obj({"message": {"type": "string"}})),
        types.Tool(name="soft_fail", description="Returns a result flagged isError.",
                   input_schema=_obj({})),
        types.Tool(name="slow", description="Sleep for a number of seconds, then answer.",
                   input_schema=_obj({"seconds": {"type": "number", "minimum": 0}}, ["seconds"])),
        # "max results" is not a valid provider property name: registration renames it to
        # max_results, and a live call must send it back under this name.
        types.Tool(name="lookup", description="Look up records; echoes the arguments it received.",
                   input_schema=_obj({"query": {"type": "string"}, "max results": {"type": "integer"}}, ["query"])),
    ]
    if form_tool:
        tools.append(types.Tool(name="configure", description="Configure\u200b a job; echoes the arguments it received.",
                                input_schema=FORM_TOOL_SCHEMA))
    for i in range(extra):
        tools.append(types.Tool(
            name=f"extra_{i:03d}", description=f"Generated tool number {i} for large catalogs: look up record {i}.",
            input_schema=_obj({"id": {"type": "string", "description": "Record id."},
                               "limit": {"type": "integer", "minimum": 1}}, ["id"])))
    return tools


def _text(text: str) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=text)]


def build_server(name: str, page_size: int, extra: int, form_tool: bool = False,
                 empty_next_cursor: bool = False) -> Server:
    """The low-level server with a paginated ``tools/list`` (its last page with an empty-string
    ``nextCursor`` when ``empty_next_cursor``)."""
    tools = build_tools(extra, form_tool)

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        cursor = params.cursor if params is not None else None
        start = int(cursor) if cursor else 0
        page = tools[start:start + page_size]
        last = "" if empty_next_cursor else None
        next_cursor = str(start + page_size) if start + page_size < len(tools) else last
        return types.ListToolsResult(tools=page, next_cursor=next_cursor)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        name = params.name
        if name == "echo":
            return types.CallToolResult(content=_text(str(args.get("text", ""))))
        if name == "add":
            total = int(args["a"]) + int(args["b"])
            return types.CallToolResult(content=_text(str(total)), structured_content={"sum": total})
        if name == "get_env":
            return types.CallToolResult(content=_text(os.environ.get(str(args.get("name")), "<unset>")))
        if name == "fail":
            raise MCPError(code=-32050, message=f"fail: {args.get('message', 'as requested')}")
        if name == "soft_fail":
            return types.CallToolResult(content=_text("soft failure"), is_error=True)
        if name == "slow":
            await anyio.sleep(float(args.get("seconds", 0)))
            return types.CallToolResult(content=_text(f"slept {args.get('seconds')}"))
        if name in ("lookup", "configure"):
            return types.CallToolResult(content=_text(json.dumps(args, sort_keys=True)))
        if name.startswith("extra_"):
            return types.CallToolResult(content=_text(f"{name}: {args.get('id')}"))
        raise MCPError(code=-32602, message=f"unknown tool: {name}")

    return Server(name, version=VERSION, instructions="A toolsearch test server.",
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _require_header(app: Any, header: str | None) -> Any:
    """ASGI wrapper answering 401 when the required header is missing or different."""
    if not header:
        return app
    key, _, value = header.partition("=")
    key_bytes, value_bytes = key.strip().lower().encode(), value.strip().encode()

    async def wrapped(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and dict(scope.get("headers") or []).get(key_bytes) != value_bytes:
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": b"missing or wrong header"})
            return
        await app(scope, receive, send)

    return wrapped


def _sse_app(server: Server) -> Any:
    from mcp.server.sse import SseServerTransport  # noqa: PLC0415
    from starlette.applications import Starlette  # noqa: PLC0415
    from starlette.responses import Response  # noqa: PLC0415
    from starlette.routing import Mount, Route  # noqa: PLC0415

    sse = SseServerTransport("/messages/")

    async def handle_sse(request: Any) -> Response:
        async with sse.connect_sse(request.scope, request.receive, request._send) as streams:  # noqa: SLF001
            await server.run(streams[0], streams[1], server.create_initialization_options())
        return Response()

    return Starlette(routes=[Route("/sse", endpoint=handle_sse, methods=["GET"]),
                             Mount("/messages/", app=sse.handle_post_message)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="toolsearch-test")
    parser.add_argument("--page-size", type=int, default=3)
    parser.add_argument("--extra", type=int, default=0)
    parser.add_argument("--startup-delay", type=float, default=0.0)
    parser.add_argument("--http", type=int, metavar="PORT")
    parser.add_argument("--sse", type=int, metavar="PORT")
    parser.add_argument("--require-header", metavar="NAME=VALUE")
    parser.add_argument("--start-marker", metavar="FILE")
    parser.add_argument("--form-tool", action="store_true")
    parser.add_argument("--empty-next-cursor", action="store_true")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME")
    args = parser.parse_args(argv)
    if args.start_marker:
        with open(args.start_marker, "a", encoding="utf-8") as marker:
            marker.write(f"{args.name} {os.getpid()}\n")
    if args.startup_delay:
        time.sleep(args.startup_delay)
    server = build_server(args.name, max(1, args.page_size), args.extra, args.form_tool, args.empty_next_cursor)
    if args.http or args.sse:
        import uvicorn  # noqa: PLC0415

        if args.http and args.allow_host:
            from mcp.server.transport_security import TransportSecuritySettings  # noqa: PLC0415

            hosts = ["127.0.0.1", "localhost", "[::1]", *args.allow_host]
            app = server.streamable_http_app(transport_security=TransportSecuritySettings(
                enable_dns_rebinding_protection=True, allowed_hosts=[f"{host}:*" for host in hosts],
                allowed_origins=[f"http://{host}:*" for host in hosts]))
        else:
            app = server.streamable_http_app() if args.http else _sse_app(server)
        uvicorn.run(_require_header(app, args.require_header), host="127.0.0.1", port=args.http or args.sse,
                    log_level="warning")
        return

    from mcp.server.stdio import stdio_server  # noqa: PLC0415

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main(sys.argv[1:])

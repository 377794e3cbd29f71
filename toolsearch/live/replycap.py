"""A size limit on one message from a live server.

The MCP SDK reads a stdio server's output line by line and a Streamable HTTP server's JSON
answer whole, with no limit: a server that writes one endless line (or answers with an endless
body) holds the CPU until the timeout, and an HTTP body grows in memory as fast as the network
delivers it. Server-sent events already have a limit in the SDK (1 MiB an event).

Here one message is at most :data:`~toolsearch.engine.constants.LIVE_MESSAGE_MAX_BYTES`:

* stdio: the server's standard output is read through :class:`BoundedLines`, which counts the
  bytes since the last line break; past the limit it reports the end of the output, so the
  session ends at once (the server is then stopped as usual) and the reason says why;
* HTTP: :func:`bounded_client` counts the bytes of each answer that is not an event stream,
  as decoded when it came compressed (``Content-Encoding: gzip``…), and stops reading past the limit.

Either way the owner's ``on_over`` is called once with a sentence saying what happened, which
:func:`toolsearch.live.client.describe_failure` gives as the server's reason.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.abc

from ..engine import constants as C
from ..engine.wording import counted

#: Called once when a message passes the limit, with the sentence to show.
OverFn = Callable[[str], None]

#: The ``on_over`` of the stdio session being opened in this task (read when the SDK starts the
#: server process, inside ``stdio_client``).
_stdio_over: contextvars.ContextVar[tuple[OverFn, int] | None] = contextvars.ContextVar("toolsearch_stdio_over",
                                                                                         default=None)
#: Called with the process the SDK started for the stdio session being opened in this task.
_stdio_started: contextvars.ContextVar[Callable[[Any], None] | None] = contextvars.ContextVar(
    "toolsearch_stdio_started", default=None)


def over_sentence(limit: int) -> str:
    """The reason shown when one message from a server passes ``limit`` bytes (no secret in it)."""
    return (f"the server sent a message over {_mib(limit)} (limit for one message from a live server); "
            "the rest was not read and the connection was closed")


def _mib(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    return counted(limit, "byte")


class BoundedLines(anyio.abc.ByteReceiveStream):
    """A server's standard output, ending early once one line passes ``limit`` bytes.

    Args:
        inner: the process's stdout stream.
        limit: most bytes between two line breaks.
        on_over: called once with :func:`over_sentence` when a line passes ``limit``.
    """

    def __init__(self, inner: anyio.abc.ByteReceiveStream, limit: int, on_over: OverFn) -> None:
        self.inner = inner
        self.limit = limit
        self.on_over = on_over
        self.run = 0  # bytes since the last line break
        self.over = False

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """The next chunk of at most ``max_bytes`` bytes from the inner stream.

        Raises:
            anyio.EndOfStream: once a line has passed ``limit`` bytes (``on_over`` is then called
                once), and when the inner stream ends.
        """
        if self.over:
            raise anyio.EndOfStream
        chunk = await self.inner.receive(max_bytes)
        first = chunk.find(b"\n")
        last = chunk.rfind(b"\n")
        if first < 0:
            longest, self.run = self.run + len(chunk), self.run + len(chunk)
        else:
            inside = max((len(line) for line in chunk[first + 1:last].split(b"\n")), default=0) if last > first else 0
            longest = max(self.run + first, inside)
            self.run = len(chunk) - last - 1
            longest = max(longest, self.run)
        if longest > self.limit:
            self.over = True
            self.on_over(over_sentence(self.limit))
            raise anyio.EndOfStream
        return chunk

    async def aclose(self) -> None:
        """Close the inner stream."""
        await self.inner.aclose()

    @property
    def extra_attributes(self) -> Any:
        """The inner stream's typed attributes."""
        return self.inner.extra_attributes


def _bound_stdout(process: Any, limit: int, on_over: OverFn) -> Any:
    """``process`` (anyio's, as the SDK starts it) with its stdout read through :class:`BoundedLines`.

    The process object itself is kept (the SDK checks its type when it stops the server); the
    stream is anyio's ``_stdout`` field, which its ``stdout`` property returns.
    """
    inner = getattr(process, "_stdout", None)
    if inner is not None:
        process._stdout = BoundedLines(inner, limit, on_over)
    return process


def install_stdio_limit() -> None:
    """Make the MCP SDK's stdio transport read every server's output through :class:`BoundedLines`
    when the session was opened inside :func:`limited_stdio` (idempotent).

    Raises:
        RuntimeError: the installed MCP SDK no longer starts servers the way this expects (the
            limit could not be put in place; nothing is started without it).
    """
    import mcp.client.stdio as sdk_stdio

    start = getattr(sdk_stdio, "_create_platform_compatible_process", None)
    if start is None:
        raise RuntimeError("this MCP SDK version starts stdio servers in a way toolsearch does not know; "
                           "install a version the project supports (see pyproject.toml)")
    if getattr(start, "_toolsearch_bounded", False):
        return

    async def bounded_start(*args: Any, **kwargs: Any) -> Any:
        process = await start(*args, **kwargs)
        started = _stdio_started.get()
        if started is not None:
            started(process)
        owner = _stdio_over.get()
        return process if owner is None else _bound_stdout(process, owner[1], owner[0])

    bounded_start._toolsearch_bounded = True  # type: ignore[attr-defined]
    sdk_stdio._create_platform_compatible_process = bounded_start


@asynccontextmanager
async def limited_stdio(transport: Any, on_over: OverFn, limit: int | None = None,
                        on_start: Callable[[Any], None] | None = None) -> AsyncIterator[Any]:
    """The SDK's stdio ``transport`` (an async context manager), with the server it starts read
    through :class:`BoundedLines` (``limit``, ``on_over``).

    Args:
        transport: ``mcp.client.stdio.stdio_client(...)``, not yet entered.
        on_over: called once with the reason when a line passes the limit.
        limit: bytes; default :data:`~toolsearch.engine.constants.LIVE_MESSAGE_MAX_BYTES`.
        on_start: called once with the server's process (anyio's ``Process``: its ``returncode``
            tells when it has exited) as soon as the SDK has started it.

    Raises:
        RuntimeError: from :func:`install_stdio_limit`.
    """
    install_stdio_limit()
    limit = C.LIVE_MESSAGE_MAX_BYTES if limit is None else limit
    token: contextvars.Token | None = _stdio_over.set((on_over, limit))
    started: contextvars.Token | None = _stdio_started.set(on_start)
    try:
        async with transport as streams:
            _stdio_over.reset(token)  # the server is started: nothing else in this task is limited
            _stdio_started.reset(started)
            token = started = None
            yield streams
    finally:
        if token is not None:
            _stdio_over.reset(token)
        if started is not None:
            _stdio_started.reset(started)


def bounded_client(on_over: OverFn, headers: dict[str, str] | None = None, timeout: Any = None,
                   auth: Any = None, limit: int | None = None, url: str | None = None) -> Any:
    """An ``httpx2.AsyncClient`` as the MCP SDK makes one (``create_mcp_http_client``: these
    ``headers``, ``timeout`` and ``auth``), whose answers that are not event streams stop past
    ``limit`` bytes: the read raises ``httpx2.StreamError``, which the SDK turns into an error for
    that request, and ``on_over`` is called once.

    Requests go through the proxy the environment names for them (``HTTP_PROXY``, ``HTTPS_PROXY``,
    ``ALL_PROXY``, ``NO_PROXY``: :func:`toolsearch.live.proxies.proxy_mounts` for the server's
    ``url``); a loopback ``url`` is always reached directly. httpx2 reads no proxy variable itself
    for a client with a transport of its own, as this one has.

    Raises:
        ServerError: a proxy variable holds a URL that cannot be used (from
            :func:`~toolsearch.live.proxies.proxy_mounts`; nothing was sent).
    """
    import httpx2

    from .proxies import proxy_mounts  # noqa: PLC0415

    limit = C.LIVE_MESSAGE_MAX_BYTES if limit is None else limit

    class _Body(httpx2.AsyncByteStream):
        """The answer's bytes, decoded here when it came compressed (``Content-Encoding``), so
        the limit counts what the answer decodes to: 2 MB of gzip decode to 2 GB."""

        def __init__(self, inner: Any, encodings: list[str]) -> None:
            from httpx2._decoders import MultiDecoder  # noqa: PLC0415 - decodes in pieces of 1 MiB at most

            self.inner = inner
            self.decoder = MultiDecoder(encodings) if encodings else None

        async def __aiter__(self) -> AsyncIterator[bytes]:
            seen = 0

            def counted_piece(piece: bytes) -> bytes:
                nonlocal seen
                seen += len(piece)
                if seen > limit:
                    on_over(over_sentence(limit))
                    raise httpx2.StreamError(over_sentence(limit))
                return piece

            async for chunk in self.inner:
                for piece in (self.decoder.decode(chunk) if self.decoder is not None else (chunk,)):
                    yield counted_piece(piece)
            if self.decoder is not None:
                for piece in self.decoder.flush():
                    yield counted_piece(piece)

        async def aclose(self) -> None:
            await self.inner.aclose()

    class _Transport(httpx2.AsyncBaseTransport):
        def __init__(self, proxy: Any = None) -> None:
            self.inner = httpx2.AsyncHTTPTransport(proxy=proxy)

        async def handle_async_request(self, request: Any) -> Any:
            response = await self.inner.handle_async_request(request)
            if response.headers.get("content-type", "").lower().startswith("text/event-stream"):
                return response  # each event has the SDK's own limit
            encodings = [value.strip().lower() for value in
                         response.headers.get_list("content-encoding", split_commas=True)]
            encodings = [value for value in encodings if value and value != "identity"]
            headers = response.headers
            if encodings:  # decoded by _Body: the answer handed on is no longer encoded
                headers = httpx2.Headers([(key, value) for key, value in response.headers.multi_items()
                                          if key.lower() not in ("content-encoding", "content-length")])
            return httpx2.Response(status_code=response.status_code, headers=headers,
                                   stream=_Body(response.stream, encodings), extensions=response.extensions,
                                   request=request)

        async def aclose(self) -> None:
            await self.inner.aclose()

    kwargs: dict[str, Any] = {"transport": _Transport(), "mounts": proxy_mounts(url, _Transport)}
    if timeout is not None:
        kwargs["timeout"] = timeout
    if headers is not None:
        kwargs["headers"] = headers
    if auth is not None:
        kwargs["auth"] = auth
    return httpx2.AsyncClient(**kwargs)

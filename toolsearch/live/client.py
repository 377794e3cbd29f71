"""Live MCP servers: connect, list, call (the official ``mcp`` SDK, 2.x).

* :func:`connect_servers` starts/reaches several servers concurrently (one task each, each with
  its own deadline), records the ``initialize`` data (server name and version, protocol version,
  capabilities: docs/reference.md §20, §24.2), follows ``tools/list`` cursors (at most
  :data:`~toolsearch.engine.constants.MCP_LIST_PAGES_MAX` pages, docs/reference.md §20 "pages followed") and returns a
  :class:`~toolsearch.engine.catalog.Catalog` plus one :class:`ServerStatus` per server. A server that
  fails, hangs, crashes or sends malformed tools ends as a ``failed`` status (or a flagged
  problem) and never blocks or breaks the others.
* Lenient listing: every ``tools/list`` page is read from the raw JSON-RPC result as the server
  sent it. When the SDK rejects a page (e.g. an ``inputSchema`` without ``type``) the tools are
  still kept and the rejection is reported as a ``warning`` problem in the catalog.
* :func:`call_tool` starts a server, calls one tool and returns the raw result with timings.
  :class:`LiveDispatcher` plugs into :attr:`toolsearch.engine.bridge.Bridge.dispatcher`, so
  ``Bridge.tool_call`` validates locally (docs/reference.md §9) and then calls the real tool under its raw name.

Connections are per call: every function opens its sessions with the SDK's context managers and
closes them before returning (stdio children are stopped: stdin closed, then SIGTERM, then
SIGKILL, by the SDK; then whatever the server left behind, by :mod:`toolsearch.live.reaper`), so
nothing outlives a call, timeouts included. The one exception is
:class:`LiveConnections` (for the app), which keeps sessions open in a background event loop
until it is closed or garbage-collected.

Nothing here prints, logs or records secrets: failure reasons, flags and problems (stderr tails
and stray stdout lines included) pass through :meth:`ServerSpec.scrub`, which masks env and header
values, every value a ``${VAR}`` reference resolved to, and URL userinfo and query values.

:func:`load_sources` (what the CLI calls for SOURCE files) reads and parses each file once, fast,
and hands the parsed data to the config or the catalog reader; a bad server entry in a config is
that server's failure, not an error for the file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import queue
import threading
import time
import weakref
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence, TypeVar

from ..engine import constants as C
from ..engine.invisible import mark_controls, quoted, yaml_kind
from ..engine.bridge import server_arguments
from ..engine.catalog import EMPTY_NEXT_CURSOR, SNAPSHOT_FAILED, Catalog, Problem, Server, _tools_from_list, combine
from ..engine.errors import ServerError
from .mcpconfig import ServerSpec, scrub_data, secrets_of
from ..engine import readers
from ..engine.readers import source_stem
from ..engine.registration import RegisteredTool
from ..engine.secrets import mask_leading_suffix, mask_trailing_prefix, scrub_text, secret_list
from ..engine.wording import agree, counted

if TYPE_CHECKING:
    import anyio

# asyncio, anyio and this package's reaper (psutil) and reply cap are imported by the functions that
# talk to servers: every command that reads catalog files goes through :func:`load_sources`, and
# would otherwise pay about 0.06 s of CPU to load them.

logger = logging.getLogger(__name__)


class _NoStrayLineText(logging.Filter):
    """Drops the MCP SDK's log record for a stdout line that is not JSON-RPC: it carries the
    line's text unscrubbed (a secret the server printed included), and :class:`_Tap` reports
    those lines itself, secrets masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (isinstance(error, ValueError) or str(record.msg).startswith("Failed to parse JSONRPC message"))


logging.getLogger("mcp.client.stdio").addFilter(_NoStrayLineText())

#: Secret values (and their encoded forms) of every server this process has started or reached:
#: the MCP SDK's own log records are masked with them (:class:`_ScrubSdkRecords`).
_SDK_LOG_SECRETS: set[str] = set()


class _ScrubSdkRecords(logging.Filter):
    """Masks the MCP SDK's log records before any handler sees them: URLs are redacted (userinfo
    and query values) and the secret values of the servers this process connected to are
    replaced by the mask, in the message and in the formatted exception. The SDK logs server
    text and server URLs in some records (SSE events, redirects, OAuth discovery)."""

    def filter(self, record: logging.LogRecord) -> bool:
        secrets = sorted(_SDK_LOG_SECRETS, key=len, reverse=True)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a record whose arguments do not fit its format
            message = str(record.msg)
        record.msg, record.args = scrub_text(message, secrets), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = scrub_text(logging.Formatter().formatException(record.exc_info), secrets)
            record.exc_info = None  # the handler prints exc_text; the raw exception stays unprinted
        return True


_SCRUB_SDK_RECORDS = _ScrubSdkRecords()


def _guard_sdk_logs(spec: ServerSpec) -> None:
    """Add ``spec``'s secrets to the SDK log mask and put the mask on every ``mcp`` logger
    (a logger's filters do not apply to its children, so each one gets it)."""
    import mcp.client.sse, mcp.client.stdio, mcp.client.streamable_http  # noqa: E401,F401,PLC0415 - their loggers

    _SDK_LOG_SECRETS.update(value for value in spec.secret_values() if value)
    if spec.transport != "stdio":
        from .proxies import proxy_secrets  # noqa: PLC0415

        _SDK_LOG_SECRETS.update(secret_list(proxy_secrets()))
    for name, item in list(logging.root.manager.loggerDict.items()):
        if (name == "mcp" or name.startswith("mcp.")) and isinstance(item, logging.Logger) \
                and _SCRUB_SDK_RECORDS not in item.filters:
            item.addFilter(_SCRUB_SDK_RECORDS)

STATES = ("pending", "connecting", "listing", "ok", "failed", "skipped")
_REASON_MAX_CHARS = 400
_STDERR_TAIL_CHARS = 300
#: Bytes read from the end of a stdio child's stderr file for its tail: a server that writes
#: gigabytes to stderr is not read into memory (nor scrubbed) whole.
_STDERR_READ_BYTES = 256 * 1024
#: A stray (not JSON-RPC) stdout line is shown up to this many characters.
_STRAY_LINE_CHARS = 120
#: Seconds between two looks at whether a stdio server being connected has exited.
_EXIT_POLL_SECONDS = 0.02
#: Seconds the MCP SDK gets, once a stdio server has exited, to end the session by itself (it
#: does when the output closes) before the connect fails anyway: a process the server started
#: may hold its output open, and the connect would otherwise wait for its whole timeout. (When
#: that process answers meanwhile, it is the server: the session goes on.)
_EXIT_GRACE_SECONDS = 2.0
#: Seconds a session whose connection ended waits, as it closes, for its stdio server to exit by
#: itself, so that the exit status said is the server's own and not that of being stopped.
_EXIT_SETTLE_SECONDS = 0.3
#: The note added where a server sent back a secret from the config (masked).
SECRET_ECHO_NOTE = (f"the server sent back a value that matches a secret from the config "
                    f"(env, header, URL, ${{VAR}} value or secret argument); shown as {C.SECRET_MASK}")
#: ``origin`` of live servers in catalog problems and registration messages.
LIVE_ORIGIN = "live"


# --- status and results ---------------------------------------------------------------------

@dataclass
class ServerStatus:
    """Progress and outcome of one server.

    Attributes:
        name: the server name.
        transport: ``stdio`` | ``http`` | ``sse``.
        state: ``pending`` → ``connecting`` → ``listing`` → ``ok`` | ``failed``; ``skipped``
            for ``enabled: false`` entries.
        tool_count: tools read (0 until listed).
        pages: ``tools/list`` pages read.
        reason: why it failed or was skipped (secrets scrubbed).
        elapsed: seconds from the start of the connect to the final state, cleanup included.
        info: server info once initialized (``name``, ``version``, ``protocolVersion``…).
        flags: problems worth showing next to the server (lenient parse, page cap, stray output).
    """

    name: str
    transport: str
    state: str = "pending"
    tool_count: int = 0
    pages: int = 0
    reason: str | None = None
    elapsed: float = 0.0
    info: dict[str, Any] | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        """True in a final state."""
        return self.state in ("ok", "failed", "skipped")

    def summary(self) -> str:
        """One line for humans: ``github: ok, 12 tools (2 pages) in 0.84 s``. A line break in the
        server's name (a config key can hold one) is a marker (``⟨U+000A⟩``), so the name never
        starts a line of its own (a CI runner's ``::error::`` command)."""
        return mark_controls(self._summary(), one_line=True)

    def _summary(self) -> str:
        if self.state == "ok":
            pages = f" ({self.pages} pages)" if self.pages > 1 else ""
            text = f"{self.name}: ok, {counted(self.tool_count, 'tool')}{pages} in {self.elapsed:.2f} s"
            if self.flags:
                text += f"; flagged: {'; '.join(self.flags)}"
            return text
        if self.state == "failed":
            return f"{self.name}: failed after {self.elapsed:.2f} s: {self.reason}"
        if self.state == "skipped":
            return f"{self.name}: skipped ({self.reason})"
        return f"{self.name}: {self.state}…"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready copy."""
        return asdict(self)


ProgressFn = Callable[[ServerStatus], None]


@dataclass(frozen=True)
class LiveResult:
    """What :func:`connect_servers` returns.

    Attributes:
        catalog: the servers that answered, with their tools, capabilities and info; failures
            and flagged listings are in ``catalog.problems``.
        statuses: one per spec, in the given order.
        elapsed: wall-clock seconds for the whole connect.
    """

    catalog: Catalog
    statuses: tuple[ServerStatus, ...]
    elapsed: float

    @property
    def failed(self) -> tuple[ServerStatus, ...]:
        """Statuses in state ``failed``."""
        return tuple(s for s in self.statuses if s.state == "failed")


@dataclass(frozen=True)
class CallOutcome:
    """One live tool call.

    Attributes:
        server: the server name.
        tool: the tool's raw name (as the server knows it).
        arguments: the arguments sent (server-side names).
        response: the server's ``tools/call`` result as it sent it (``content``,
            ``structuredContent``, ``isError``…), or ``{"error": message, "code": n}`` for a
            JSON-RPC error, or ``{"error": reason}`` when the server could not be reached.
        ok: True when the server answered with a result (which may still have ``isError``).
        elapsed: seconds in all (start-up, handshake, call, shutdown).
        call_elapsed: seconds of the ``tools/call`` round trip alone, when it was sent.
        reason: why it failed, when it did.
        notes: things worth knowing (e.g. the SDK rejected the result; raw JSON kept).
    """

    server: str
    tool: str
    arguments: Mapping[str, Any]
    response: Mapping[str, Any]
    ok: bool
    elapsed: float
    call_elapsed: float | None = None
    reason: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        """True when the call failed or the result has ``isError: true``."""
        return not self.ok or bool(self.response.get("isError"))

    def request(self) -> dict[str, Any]:
        """The request as the underlying tool: ``{"server", "tool", "arguments"}``."""
        return {"server": self.server, "tool": self.tool, "arguments": dict(self.arguments)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: request, response, timings (seconds, 3 decimals), reason and notes."""
        out: dict[str, Any] = {"request": self.request(), "response": dict(self.response), "ok": self.ok,
                               "elapsed_seconds": round(self.elapsed, 3)}
        if self.call_elapsed is not None:
            out["call_seconds"] = round(self.call_elapsed, 3)
        if self.reason:
            out["reason"] = self.reason
        if self.notes:
            out["notes"] = list(self.notes)
        return out


# --- transport plumbing ---------------------------------------------------------------------

class _Tap:
    """Sees every message both ways, so each result can be read as the raw JSON the server sent.

    Requests are matched to responses by JSON-RPC id: :attr:`results` holds the latest raw
    result per method (``tools/list``, ``tools/call``…). A second answer to a request already
    answered is counted in :attr:`repeated_answers` (the first one is what the SDK returned), and a
    ``notifications/tools/list_changed`` that comes after a ``tools/list`` answer in
    :attr:`list_changed_after_listing`: both were dropped without a word before.
    """

    def __init__(self, scrub: Callable[[str], str] | None = None, secrets: Sequence[str] = ()) -> None:
        self.scrub = scrub or (lambda text: text)  # masks secrets before anything is kept
        self.secrets = tuple(secrets)  # the values ``scrub`` masks (every form), for a cut-off start
        self.methods: dict[Any, str] = {}
        self.results: dict[str, dict[str, Any]] = {}
        # The requests answered so far, by id: the method and, for tools/list, the answer (held by
        # the listing anyway), so that a second answer can be told apart from a copy of the first.
        self._answered_ids: dict[Any, tuple[str, Any]] = {}
        #: Each answer to a request that already had one: ``(method, request id, differs)``,
        #: ``differs`` true when it is an error, or a tools/list result not equal to the first.
        self.repeated_answers: list[tuple[str, Any, bool]] = []
        #: ``notifications/tools/list_changed`` received after the first tools/list answer.
        self.list_changed_after_listing = 0
        self._tools_answered = False
        self.bad_lines = 0
        self.last_bad: str | None = None
        # The end of the stray stdout lines so far, scrubbed (a secret whose start ends it stays
        # as it is, so the next line can complete it): a secret split across stray lines.
        self._stray_before = ""
        self._stray_window = 2 * max(map(len, self.secrets), default=0) + 64
        self._stray_gap = False  # the stray line before was JSON (its text as written is unknown)
        self.ended = False
        self.http_error: str | None = None
        #: Why the connection was closed when one message passed the size limit (:mod:`.replycap`).
        self.too_large: str | None = None
        #: Why the last answer the MCP SDK could not read failed its request (:meth:`unreadable_answer`).
        self.unreadable: str | None = None
        #: The SDK's parser error for a ``tools/list`` answer too deep for it that was read here instead
        #: (:meth:`unreadable_answer`); the listing says so and clears it.
        self.read_past_sdk: str | None = None
        #: Requests from the server not yet answered, per id (:meth:`server_request`, :meth:`sent`).
        self._asked: dict[str, int] = {}
        self._asked_total = 0
        self._progress: Any = None  # an anyio.Event set when an answer reaches the server
        #: A stdio server's process once the SDK has started it (:meth:`started`).
        self.process: Any = None
        #: Messages received from the server so far (JSON-RPC ones).
        self.heard = 0
        self._closing = False
        self._status_at_close: int | None = None

    def started(self, process: Any) -> None:
        """Keep the stdio server's ``process`` (anyio's), so its exit can be told and said."""
        self.process = process

    def exit_status(self) -> int | None:
        """The stdio server's exit status once it has exited by itself (negative: the signal that
        ended it), else ``None`` (still running, not started, or not a stdio server). Once the
        session closes, the status it had then: stopping the server afterwards is not its exit."""
        if self._closing:
            return self._status_at_close
        return None if self.process is None else self.process.returncode

    async def closing(self) -> None:
        """The session is closing, before the SDK stops the server: note its exit status. When
        the connection ended first (its output closed), give it :data:`_EXIT_SETTLE_SECONDS` to
        exit, so a server that exited is said to have (with its status)."""
        import anyio  # noqa: PLC0415

        process = self.process
        if process is not None and self.ended and process.returncode is None:
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(_EXIT_SETTLE_SECONDS):
                    while process.returncode is None:
                        await anyio.sleep(_EXIT_POLL_SECONDS)
        self._status_at_close = None if process is None else process.returncode
        self._closing = True

    def _stray_line(self, line: str) -> str:
        """A stray stdout ``line`` as shown (its first :data:`_STRAY_LINE_CHARS` characters) with
        every secret masked: scrubbed together with the stray lines before it (a secret printed
        across them is masked, see :func:`~toolsearch.engine.secrets.scrub_text`) before it is
        cut, with a trailing start of a secret masked too
        (:func:`~toolsearch.engine.secrets.mask_trailing_prefix`)."""
        # Only the line's start is shown and only its end joins the next line: a long line (up to
        # the 16 MiB message limit) is scrubbed in those two parts, not whole (a second per line).
        # The start is long enough that its scrubbed text passes the shown length (each mask
        # stands for at most one secret), so what is shown is the same.
        head = (_STRAY_LINE_CHARS + 2) * self._stray_window
        long_line = len(line) > 2 * head
        if not self.secrets:
            return self.scrub(line[:head] if long_line else line)[:_STRAY_LINE_CHARS]
        tail = line[-2 * self._stray_window:] if long_line else ""
        if long_line:
            line = line[:head]
        scrubbed = self.scrub(f"{self._stray_before}\n{line}" if self._stray_before else line)
        self._stray_before = (self.scrub(tail) if long_line else scrubbed)[-self._stray_window:]
        shown = mask_trailing_prefix(scrubbed, self.secrets).rpartition("\n")[2]
        if (shown != line and not shown.startswith(C.SECRET_MASK)
                and shown != mask_trailing_prefix(self.scrub(line), self.secrets)):
            shown = C.SECRET_MASK + shown  # a secret begun on an earlier line ends on this one
        if self._stray_gap:
            shown = mask_leading_suffix(shown, self.secrets)
        if len(shown) > _STRAY_LINE_CHARS:  # cut: mask a secret's start the cut left at the end
            shown = mask_trailing_prefix(shown[:_STRAY_LINE_CHARS], self.secrets)
        return shown

    def listing_done(self) -> None:
        """Drop the tools/list answers kept to compare a repeat with: the listing has been read
        (a session kept open for calls would otherwise hold every page until it closes)."""
        self._answered_ids = {key: (method, None) for key, (method, _) in self._answered_ids.items()}

    def note_too_large(self, sentence: str) -> None:
        """Record why the connection ends: one message passed the size limit (:mod:`.replycap`),
        or the server asked too many questions at once (:meth:`server_request`)."""
        if self.too_large is None:
            self.too_large = sentence

    def server_request(self, message: Any) -> None:
        """Count a request or a cancellation from the server (``message``, parsed): the MCP SDK
        answers each request in a task of its own, which waits while the server does not read its
        input (see :meth:`asking_too_much`)."""
        import mcp_types  # noqa: PLC0415

        if isinstance(message, mcp_types.JSONRPCRequest):
            key = str(message.id)
            self._asked[key] = self._asked.get(key, 0) + 1
            self._asked_total += 1
        elif isinstance(message, mcp_types.JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params if isinstance(message.params, dict) else {}
            self._answered(str(params.get("requestId")))  # a request the server cancelled gets no answer

    def asking_too_much(self) -> bool:
        """More than :data:`~toolsearch.engine.constants.LIVE_SERVER_REQUESTS_MAX` requests from
        the server wait for it to read their answers."""
        return self._asked_total > C.LIVE_SERVER_REQUESTS_MAX

    async def wait_for_answers(self) -> bool:
        """Wait until the server reads an answer to one of its requests: False (and the reason
        noted) when it reads none within :data:`~toolsearch.engine.constants.LIVE_SERVER_REQUESTS_WAIT`
        seconds. Without this, a server sending requests and never reading the answers grew memory
        without bound (a task for each)."""
        import anyio  # noqa: PLC0415

        self._progress = progress = anyio.Event()
        with anyio.move_on_after(C.LIVE_SERVER_REQUESTS_WAIT):
            await progress.wait()
        if progress.is_set():
            return True
        self.note_too_large(f"the server sent more than {C.LIVE_SERVER_REQUESTS_MAX:,} requests to toolsearch "
                            "(ping, roots, sampling, elicitation…) and read none of the answers for "
                            f"{C.LIVE_SERVER_REQUESTS_WAIT:g} s (limit); the connection was closed")
        return False

    def _answered(self, key: str) -> None:
        count = self._asked.get(key)
        if count is None:
            return
        if count > 1:
            self._asked[key] = count - 1
        else:
            del self._asked[key]
        self._asked_total -= 1

    async def http_response(self, response: Any) -> None:
        """httpx response hook: remember the last HTTP error status (the SDK reports only a
        generic JSON-RPC error for it)."""
        if response.status_code >= 400:
            self.http_error = f"HTTP {response.status_code} {response.reason_phrase}".strip()
        else:
            self.http_error = None

    def sent(self, item: Any) -> None:
        import mcp_types  # noqa: PLC0415

        message = getattr(item, "message", None)
        if isinstance(message, mcp_types.JSONRPCRequest):
            self.methods[message.id] = message.method

    def delivered(self, item: Any) -> None:
        """``item`` was handed to the transport: an answer to a request from the server counts as given."""
        import mcp_types  # noqa: PLC0415

        message = getattr(item, "message", None)
        if isinstance(message, (mcp_types.JSONRPCResponse, mcp_types.JSONRPCError)) and self._asked:
            self._answered(str(message.id))
            if self._progress is not None:
                self._progress.set()

    def observe(self, item: Any) -> None:
        if isinstance(item, Exception):
            self.bad_lines += 1
            errors = getattr(item, "errors", None)
            try:
                line = errors()[0].get("input") if callable(errors) else None
            except Exception:  # noqa: BLE001
                line = None
            if isinstance(line, str):
                self.last_bad = quoted(self._stray_line(line))
                self._stray_gap = False
                return
            # JSON but not JSON-RPC (a number, a list...): named by its error. It stays part of the
            # stray text, but as written it is gone (1e5 reads as 100000.0), so the start of the
            # next line is masked too where it is the end of a secret.
            self.last_bad = type(item).__name__
            try:
                self._stray_line(json.dumps(line, ensure_ascii=False))
            except (TypeError, ValueError):
                pass
            self._stray_gap = True
            return
        import mcp_types  # noqa: PLC0415

        message = getattr(item, "message", None)
        if isinstance(message, (mcp_types.JSONRPCResponse, mcp_types.JSONRPCError)):
            result = message.result if isinstance(message, mcp_types.JSONRPCResponse) else None
            method = self.methods.pop(message.id, None)
            if method is not None:
                if result is not None:
                    self.results[method] = result
                self._answered_ids[message.id] = (method, result if method == "tools/list" else None)
                self._tools_answered = self._tools_answered or method == "tools/list"
            elif message.id in self._answered_ids:  # the SDK ignores it: the request already has its answer
                method, first = self._answered_ids[message.id]
                self.repeated_answers.append((method, message.id, result is None
                                              or (method == "tools/list" and result != first)))
        elif (isinstance(message, mcp_types.JSONRPCNotification) and message.method == "notifications/tools/list_changed"
              and self._tools_answered):
            self.list_changed_after_listing += 1

    def unreadable_answer(self, error: Exception) -> Any:
        """A JSON-RPC error that stands in for a line the MCP SDK could not read (``error``) when
        that line is the answer to a request in flight, or ``None``.

        Without it the request waits for its whole timeout and then reads as "no answer". With it
        the request fails at once, and :attr:`unreadable` says why: the answer is nested too deeply
        for the SDK's JSON parser, is JSON it cannot read (a number out of range), or is not a
        JSON-RPC response (no ``"jsonrpc": "2.0"``, a ``result`` that is not an object, an ``error``
        without a code and a message). The line is matched to its request by its ``id``; a line too
        deep to parse here either is taken for the answer when exactly one request is in flight.
        """
        import mcp_types  # noqa: PLC0415
        from mcp.shared.message import SessionMessage  # noqa: PLC0415

        if not self.methods:
            return None
        errors = getattr(error, "errors", None)
        try:
            first = errors()[0] if callable(errors) else {}
        except Exception:  # noqa: BLE001
            return None
        raw = first.get("input")
        data: Any = raw
        why: str | None = None
        if isinstance(raw, str):  # the SDK's JSON parser refused the line
            if not raw.lstrip().startswith("{"):
                return None  # a log line, not an answer
            detail = str(first.get("msg", "")).removeprefix("Invalid JSON: ")
            why = (f"is nested too deeply for the MCP SDK's JSON parser ({detail})" if "recursion" in detail
                   else f"is JSON the MCP SDK cannot read ({detail})")
            try:
                data = json.loads(raw, parse_int=str, parse_float=str, parse_constant=str)
            except RecursionError:
                data = None
            except ValueError:
                return None  # not JSON at all: a stray line
        if data is None:
            request_id = next(iter(self.methods)) if len(self.methods) == 1 else None
        elif isinstance(data, dict) and "id" in data and "method" not in data:
            request_id = next((key for key in self.methods if str(key) == str(data["id"])), None)
        else:
            return None
        if request_id is None:
            return None
        listing = self._deep_listing(raw, request_id, why)
        if listing is not None:
            return listing
        if why is None:
            why = _not_a_response(data, error)
        method = self.methods.pop(request_id)
        self.unreadable = f"the server's answer to {method} {why}; not read"
        return SessionMessage(mcp_types.JSONRPCError(
            jsonrpc="2.0", id=request_id, error=mcp_types.ErrorData(code=-32700, message=self.unreadable)))


    def _deep_listing(self, raw: Any, request_id: Any, why: str | None) -> Any:
        """For a ``tools/list`` answer (``raw``, its line) that the SDK's JSON parser refused only for its
        nesting (``why``) and Python's parser reads: the SDK gets an empty page, and the listing reads the
        page's tools from the raw result here (:attr:`results`), as it reads every page. One tool nested
        too deep is then skipped alone by the catalog reader, with its place, where the whole server
        failed before. ``None`` for any other line."""
        import mcp_types  # noqa: PLC0415
        from mcp.shared.message import SessionMessage  # noqa: PLC0415

        if self.methods.get(request_id) != "tools/list" or not why or "nested too deeply" not in why:
            return None

        def refuse(constant: str) -> Any:
            raise ValueError(f"{constant} is not JSON")

        try:
            data = json.loads(raw, parse_constant=refuse)
        except (RecursionError, ValueError):
            return None
        if not (isinstance(data, dict) and data.get("jsonrpc") == "2.0" and isinstance(data.get("result"), dict)
                and "error" not in data):
            return None
        self.methods.pop(request_id)
        self.results["tools/list"] = data["result"]
        self.read_past_sdk = why
        self.heard += 1
        return SessionMessage(mcp_types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result={"tools": []}))


def _not_a_response(data: dict[str, Any], error: Exception) -> str:
    """What makes ``data`` (with an ``id``) no JSON-RPC response, for :meth:`_Tap.unreadable_answer`."""
    if data.get("jsonrpc") != "2.0":
        return 'is not a JSON-RPC response (it has no "jsonrpc": "2.0")'
    if "result" in data and "error" in data:
        return "is not a JSON-RPC response (it has both a result and an error)"
    if "error" in data:
        return 'is not a JSON-RPC response (its "error" is not an object with an integer "code" and a "message")'
    if "result" in data and not isinstance(data["result"], dict):
        return f'is not a JSON-RPC response (its "result" is {yaml_kind(data["result"])}, not an object)'
    if "result" not in data:
        return 'is not a JSON-RPC response (it has neither a "result" nor an "error")'
    return f"is not a JSON-RPC response ({_validation_summary(error, limit=1)})"


class _TapReadStream:
    """A pass-through read stream that shows each item to a :class:`_Tap`."""

    def __init__(self, inner: Any, tap: _Tap):
        self._inner = inner
        self._tap = tap

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        import anyio  # noqa: PLC0415

        try:
            item = await self._inner.receive()
        except anyio.EndOfStream:
            self._tap.ended = True
            raise
        if isinstance(item, Exception):
            answer = self._tap.unreadable_answer(item)
            if answer is not None:
                return answer  # the request fails now, with the reason, instead of at its timeout
        else:
            self._tap.heard += 1
            self._tap.server_request(getattr(item, "message", None))
            while self._tap.asking_too_much():  # read on only as the server reads the answers
                if not await self._tap.wait_for_answers():
                    self._tap.ended = True
                    raise anyio.EndOfStream  # the session ends now; the reason is the tap's
        self._tap.observe(item)
        return item

    def __aiter__(self) -> "_TapReadStream":
        return self

    async def __anext__(self) -> Any:
        import anyio  # noqa: PLC0415

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()

    async def __aenter__(self) -> "_TapReadStream":
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


class _TapWriteStream:
    """A pass-through write stream that tells a :class:`_Tap` which method each request id is."""

    def __init__(self, inner: Any, tap: _Tap):
        self._inner = inner
        self._tap = tap

    def __getattr__(self, name: str) -> Any:  # last_context, close… of the real stream
        return getattr(self._inner, name)

    async def send(self, item: Any) -> None:
        self._tap.sent(item)
        await self._inner.send(item)
        self._tap.delivered(item)  # after the send: a server that reads nothing keeps it waiting

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> "_TapWriteStream":
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


@asynccontextmanager
async def _tapped(transport: Any, tap: _Tap) -> AsyncIterator[tuple[Any, Any]]:
    async with transport as (read_stream, write_stream):
        try:
            yield _TapReadStream(read_stream, tap), _TapWriteStream(write_stream, tap)
        finally:
            await tap.closing()  # before the transport stops the server


@asynccontextmanager
async def _http_transport(spec: ServerSpec, connect_timeout: float, tap: _Tap) -> AsyncIterator[tuple[Any, Any]]:
    from . import replycap  # noqa: PLC0415

    import httpx2  # noqa: PLC0415
    from mcp.client.streamable_http import streamable_http_client  # noqa: PLC0415

    client = replycap.bounded_client(tap.note_too_large, headers=dict(spec.headers) or None,
                                     timeout=httpx2.Timeout(connect_timeout, read=max(connect_timeout, 300.0)),
                                     url=spec.url)
    client.event_hooks["response"].append(tap.http_response)
    async with client:
        async with streamable_http_client(spec.url or "", http_client=client) as streams:
            yield streams


def _unresolved_remote(spec: ServerSpec) -> list[str]:
    """Placeholders still in a remote server's url or headers (docs/reference.md §25.6: refused, not sent)."""
    if spec.transport == "stdio":
        return []
    from .mcpconfig import _PLACEHOLDER  # noqa: PLC0415

    texts = [spec.url or "", *spec.headers.values()]
    return list(dict.fromkeys(m.group(1) for t in texts for m in _PLACEHOLDER.finditer(t)))


@asynccontextmanager
async def open_session(spec: ServerSpec, *, tap: _Tap | None = None, errlog: Any = None,
                       connect_timeout: float = C.LIVE_CONNECT_TIMEOUT_DEFAULT) -> AsyncIterator[Any]:
    """An initialized ``mcp.Client`` for ``spec`` (async context manager; closes the session and
    stops a stdio child on exit).

    Args:
        spec: the server.
        tap: sees raw messages (internal).
        errlog: a real file for a stdio child's stderr (default: discarded); :attr:`StderrTail.file`
            keeps only its end.
        connect_timeout: seconds for HTTP connects.

    Raises:
        ServerError: the spec cannot be used (unresolved placeholders in a remote url/headers,
            a proxy variable that holds no usable proxy URL: :mod:`toolsearch.live.proxies`).
        Exception: whatever the SDK or the transport raises (callers turn it into a reason).
    """
    from . import reaper, replycap  # noqa: PLC0415

    from mcp import Client, StdioServerParameters  # noqa: PLC0415
    from mcp.client.sse import sse_client  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415
    import mcp_types  # noqa: PLC0415

    from .. import __version__  # noqa: PLC0415

    _guard_sdk_logs(spec)
    if tap is None:
        tap = _Tap(spec.scrub, spec.secret_values())
    missing = _unresolved_remote(spec)
    if missing:
        raise ServerError(f"unset {agree(missing, 'variable', 'variables')} in url or headers: " + ", ".join(missing)
                          + f"; set {agree(missing, 'it', 'them')} and connect again (nothing was sent)")
    if spec.transport != "stdio":
        from .proxies import proxy_route  # noqa: PLC0415

        proxy_route(spec.url)  # a proxy variable that cannot be used: one clear reason, before anything is sent
    if spec.transport == "stdio":
        mark = reaper.new_mark()  # inherited by everything the server starts (see reaper)
        params = StdioServerParameters(command=spec.command or "", args=list(spec.args),
                                       env={**spec.env, reaper.ENV_MARK: mark}, cwd=spec.cwd)
        sdk_transport = stdio_client(params, errlog=errlog) if errlog is not None else stdio_client(params)
        transport: Any = _reaped(replycap.limited_stdio(sdk_transport, tap.note_too_large, on_start=tap.started),
                                 mark)
    elif spec.transport == "sse":
        def bounded(headers: Any = None, timeout: Any = None, auth: Any = None) -> Any:
            return replycap.bounded_client(tap.note_too_large, headers=headers, timeout=timeout, auth=auth,
                                           url=spec.url)

        transport = sse_client(spec.url or "", headers=dict(spec.headers) or None, timeout=connect_timeout,
                               httpx_client_factory=bounded)
    else:
        transport = _http_transport(spec, connect_timeout, tap)
    transport = _tapped(transport, tap)
    client = Client(transport, cache=None, mode="legacy" if spec.protocol == "legacy" else "auto",
                    client_info=mcp_types.Implementation(name="toolsearch", version=__version__))
    async with client:
        _bound_output_validation(client)
        yield client


class _FailOpenValidator:
    """A compiled output-schema validator whose ``pattern`` checks time out (see
    :func:`_bound_output_validation`): when one does, the result counts as valid (not validated)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def iter_errors(self, instance: Any) -> Any:
        from ..engine.bridge import SchemaPatternError  # noqa: PLC0415

        try:
            return iter(list(self.inner.iter_errors(instance)))
        except SchemaPatternError:
            return iter(())


def _bound_output_validation(client: Any) -> None:
    """The SDK checks a tool's structured result against the output schema the server listed, with
    Python's ``re`` for its patterns: a server listing ``"pattern": "^(a|aa)+$"`` and returning 60
    ``a`` and a ``!`` would hold the process (CLI or app) for ever, deaf to Ctrl-C and SIGTERM. This
    session's validators match patterns with the bridge's timeout instead
    (:func:`toolsearch.engine.bridge._bounded_validator`), failing open."""
    session = getattr(client, "_session", None)
    build = getattr(session, "_output_schema_validator", None)
    if build is None:
        return
    from ..engine.bridge import _bounded_validator  # noqa: PLC0415

    def bounded(name: str, output_schema: dict[str, Any]) -> Any:
        from jsonschema.validators import validator_for  # noqa: PLC0415
        from referencing import Registry  # noqa: PLC0415

        build(name, output_schema)  # the SDK's own checks (a schema that is not valid raises)
        validator = _FailOpenValidator(_bounded_validator(validator_for(output_schema))(
            output_schema, registry=Registry()))
        session._tool_output_validators[name] = validator
        return validator

    session._output_schema_validator = bounded


@asynccontextmanager
async def _reaped(transport: Any, mark: str) -> AsyncIterator[Any]:
    """The SDK's stdio transport, and then everything the server left behind stopped: its
    process group, the descendants seen before its stdin closed, and every process carrying
    its ``mark`` (:mod:`toolsearch.live.reaper`)."""
    from . import reaper  # noqa: PLC0415

    try:
        async with transport as streams:
            reaper.track(mark)
            try:
                yield streams
            finally:
                reaper.remember(mark)
    finally:
        reaper.stop(mark)  # synchronous: a cancellation cannot cut it short


# --- reasons --------------------------------------------------------------------------------

def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        out: list[BaseException] = []
        for inner in exc.exceptions:
            out.extend(_leaves(inner))
        return out
    return [exc]


def _root_cause(exc: BaseException) -> BaseException:
    import anyio  # noqa: PLC0415

    leaves = [e for e in _leaves(exc) if not isinstance(e, anyio.get_cancelled_exc_class())] or _leaves(exc)
    # Prefer the most telling leaf: OS / HTTP errors over the generic "connection closed".
    for kind in (OSError, ServerError):
        for leaf in leaves:
            if isinstance(leaf, kind):
                return leaf
    return leaves[0]


class StderrTail:
    """Where a stdio child's stderr goes: a pipe of which only the last :data:`_STDERR_READ_BYTES`
    bytes are kept, in memory. A server that writes to stderr without end (while its session is
    held open for the Live servers page, or during a long call) costs that much and no more; a
    temporary file grew by as much as it wrote, until the disk was full.

    A thread drains the pipe as the child writes (so the child never blocks on a full pipe);
    :meth:`tail` drains what is left first, so it holds everything written before it is called.
    Use as a context manager (or :meth:`close`); :attr:`file` is what the child writes to.
    """

    def __init__(self, keep: int = _STDERR_READ_BYTES) -> None:
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        self._read_fd = read_fd
        self.file = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self._keep = keep
        self._kept = bytearray()
        self.cut = False  # bytes before the kept ones were dropped
        self._lock = threading.Lock()
        self._closed = False
        self._eof = False
        self._thread = threading.Thread(target=self._pump, daemon=True, name="toolsearch-stderr")
        self._thread.start()

    def _drain(self) -> None:
        """Read what the pipe holds now (the lock held)."""
        while not self._eof:
            try:
                data = os.read(self._read_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._eof = True
                return
            self._kept += data
            if len(self._kept) > self._keep:
                del self._kept[: len(self._kept) - self._keep]
                self.cut = True

    def _pump(self) -> None:
        import select  # noqa: PLC0415

        try:
            while True:
                with self._lock:
                    if self._closed or self._eof:
                        return
                try:
                    ready, _, _ = select.select([self._read_fd], [], [], 0.2)
                except (OSError, ValueError):
                    return
                if ready:
                    with self._lock:
                        if self._closed:
                            return
                        self._drain()
        finally:
            with self._lock:
                self._drain()
                os.close(self._read_fd)  # only here: the fd is never closed under a select or a read
                self._eof = True

    def tail(self) -> tuple[bytes, bool]:
        """``(the last bytes written, whether earlier ones were dropped)``."""
        with self._lock:
            self._drain()
            return bytes(self._kept), self.cut

    def close(self) -> None:
        """Stop reading (what was kept stays readable through :meth:`tail`)."""
        try:
            self.file.close()
        except OSError:
            pass
        with self._lock:
            self._closed = True
        self._thread.join(timeout=2)

    def __enter__(self) -> "StderrTail":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _stderr_tail(errlog: Any, scrub: Callable[[str], str] | None = None, secrets: Sequence[str] = ()) -> str:
    """The last lines of a stdio child's stderr, secrets masked by ``scrub`` before cutting.

    ``scrub`` sees the whole buffer first (a secret the server printed across two lines is
    masked there, see :func:`~toolsearch.live.mcpconfig.scrub_text`), then the joined tail again.
    With ``secrets`` (the spec's :meth:`~toolsearch.live.mcpconfig.ServerSpec.secret_values`),
    the start of a secret the buffer ends with (the server stopped mid-value) and the end of one
    the tail's cut begins with are masked too.
    """
    if errlog is None:
        return ""
    cut_at_start = False
    try:
        if isinstance(errlog, StderrTail):  # the last _STDERR_READ_BYTES bytes are all it keeps
            data, cut_at_start = errlog.tail()
            text = data.decode("utf-8", errors="replace")
        elif getattr(errlog, "buffer", None) is not None:  # a file: the last _STDERR_READ_BYTES bytes only
            errlog.flush()
            raw = errlog.buffer
            size = raw.seek(0, 2)
            cut_at_start = size > _STDERR_READ_BYTES
            raw.seek(max(0, size - _STDERR_READ_BYTES))
            text = raw.read(_STDERR_READ_BYTES).decode("utf-8", errors="replace")
        else:
            errlog.flush()
            errlog.seek(0)
            text = errlog.read(_STDERR_READ_BYTES)
    except (OSError, ValueError):
        return ""
    if cut_at_start:  # the first line is cut: it may begin inside a secret
        text = text.partition("\n")[2] if "\n" in text else mask_leading_suffix(text, secrets)
    if scrub is not None:
        text = scrub(text)
    if secrets:
        text = mask_trailing_prefix(text.rstrip(), secrets)
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    tail = " | ".join(lines[-3:])
    if scrub is not None:
        tail = scrub(tail)
    cut = tail[-_STDERR_TAIL_CHARS:]
    if len(cut) < len(tail):
        if secrets:  # the cut may begin inside a secret
            cut = mask_leading_suffix(cut, secrets)
        cut = "…" + cut  # it may begin inside a word: say that something came before
    return cut


class ServerExited(Exception):
    """A stdio server's process exited while it was being connected and listed.

    Attributes:
        status: its exit status (negative: the signal that ended it, as in ``subprocess``).
    """

    def __init__(self, status: int) -> None:
        super().__init__(exit_reason(status))
        self.status = status


def exit_reason(status: int) -> str:
    """What a failed connect says when the stdio server's process exited before answering:
    ``the server process exited with status 3 before answering``, or for a process ended by a
    signal (``status`` negative, as in ``subprocess``) ``… was ended by signal 9 (SIGKILL) …``.
    The CLI and the app's live loading both show it (as part of the server's reason)."""
    if status >= 0:
        return f"the server process exited with status {status} before answering"
    import signal  # noqa: PLC0415

    try:
        name = f" ({signal.Signals(-status).name})"
    except ValueError:
        name = ""
    return f"the server process was ended by signal {-status}{name} before answering"


async def _watch_exit(tap: _Tap, stop: Any) -> None:
    """Raise :class:`ServerExited` once the stdio server's process has exited and the MCP SDK has
    not ended the session by itself within :data:`_EXIT_GRACE_SECONDS`, unless something has answered
    on its output, before the exit or meanwhile (a process it started is serving); return once
    ``stop`` (an ``anyio.Event``) is set (listed, or the session ended)."""
    import anyio  # noqa: PLC0415

    while not stop.is_set():
        status = tap.exit_status()
        if status is not None:
            with anyio.move_on_after(_EXIT_GRACE_SECONDS):
                await stop.wait()
            if not stop.is_set() and not tap.heard:
                raise ServerExited(status)
            return
        with anyio.move_on_after(_EXIT_POLL_SECONDS):
            await stop.wait()


def describe_failure(exc: BaseException, spec: ServerSpec, tap: _Tap | None = None, errlog: Any = None) -> str:
    """A one-line, secret-free reason for a failed connect or call."""
    from pydantic import ValidationError  # noqa: PLC0415
    from mcp.shared.exceptions import MCPError  # noqa: PLC0415

    cause = _root_cause(exc)
    stderr = _stderr_tail(errlog, spec.scrub, spec.secret_values())
    if isinstance(cause, (FileNotFoundError, NotADirectoryError)) and spec.transport == "stdio":
        if spec.cwd and not os.path.isdir(spec.cwd):
            reason = f"cannot start {spec.shown_command()!r}: the working directory {spec.cwd!r} does not exist"
        else:
            reason = f"cannot start {spec.shown_command()!r}: command not found"
    elif isinstance(cause, PermissionError) and spec.transport == "stdio":
        reason = f"cannot start {spec.shown_command()!r}: permission denied"
    elif isinstance(cause, ServerError):
        reason = str(cause)
    elif tap is not None and tap.too_large:
        reason = tap.too_large
    elif isinstance(cause, MCPError) and tap is not None and tap.unreadable and cause.message == tap.unreadable:
        reason = tap.unreadable
    elif isinstance(cause, ServerExited):
        reason = exit_reason(cause.status)
    elif isinstance(cause, MCPError) and tap is not None and tap.http_error:
        reason = f"{tap.http_error} from {_redacted_url(spec)}{_through_proxy(spec)}"
    elif isinstance(cause, MCPError):
        if cause.code == -32000 and (tap is None or tap.ended or "closed" in cause.message.lower()):
            reason = "the server closed the connection before answering"
            status = tap.exit_status() if tap is not None else None
            if status is not None:
                reason = exit_reason(status)
            elif spec.transport == "stdio":
                reason = "the server process exited or closed its output before answering"
        else:
            reason = f"the server answered with error {cause.code}: {cause.message}"
    elif isinstance(cause, ValidationError):
        reason = f"the server sent a result the MCP SDK rejects ({_validation_summary(cause)})"
    elif type(cause).__module__.startswith("httpx"):
        reason = _http_reason(cause, spec)
    elif isinstance(cause, OSError):
        reason = f"{type(cause).__name__}: {cause.strerror or cause}"
    elif _from_mcp_sdk(cause):
        # the SDK's own refusals (an unsupported protocol version, a tool result that breaks its
        # output schema) are sentences: say who refused instead of naming a Python class
        reason = f"the MCP SDK refused the server's answer: {cause}"
    else:
        reason = f"{type(cause).__name__}: {cause}".rstrip(": ")
    if stderr:
        reason += f" (stderr: {stderr})"
    if tap is not None and tap.bad_lines and "not JSON-RPC" not in reason:
        reason += f" ({counted(tap.bad_lines, 'line')} on stdout {agree(tap.bad_lines, 'was', 'were')} not JSON-RPC)"
    reason = spec.scrub(" ".join(spec.scrub(reason).split()))
    if spec.transport != "stdio":
        from .proxies import proxy_secrets  # noqa: PLC0415

        reason = scrub_text(reason, secret_list(proxy_secrets()))
    return reason if len(reason) <= _REASON_MAX_CHARS else reason[: _REASON_MAX_CHARS - 1] + C.ELLIPSIS


def _from_mcp_sdk(cause: BaseException) -> bool:
    """Whether ``cause`` is a plain ``RuntimeError`` raised inside the MCP SDK's client code."""
    if type(cause) is not RuntimeError:
        return False
    frame = cause.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and f"{os.sep}mcp{os.sep}" in frame.tb_frame.f_code.co_filename


def _redacted_url(spec: ServerSpec) -> str:
    from .mcpconfig import redact_url  # noqa: PLC0415

    return redact_url(spec.url or "")


def _proxy_named(spec: ServerSpec) -> str:
    """``the proxy http://••••@proxy:3128 (HTTPS_PROXY)`` when ``spec``'s requests go through a
    proxy (:mod:`toolsearch.live.proxies`), else ``""``; the proxy's credentials masked."""
    from .proxies import proxy_route  # noqa: PLC0415

    try:
        route = proxy_route(spec.url) if spec.transport != "stdio" else None
    except ServerError:
        return ""
    return f"the proxy {route.shown} ({route.variable})" if route is not None else ""


def _through_proxy(spec: ServerSpec) -> str:
    """`` through the proxy http://••••@proxy:3128 (HTTPS_PROXY)`` (:func:`_proxy_named`), or ``""``."""
    proxy = _proxy_named(spec)
    return f" through {proxy}" if proxy else ""


def _http_reason(cause: BaseException, spec: ServerSpec) -> str:
    url = _redacted_url(spec)
    name = type(cause).__name__
    via = _through_proxy(spec)
    response = getattr(cause, "response", None)
    if response is not None and getattr(response, "status_code", None):
        return f"HTTP {response.status_code} from {url}{via}"
    if name == "ConnectError" and via:
        return f"cannot connect to {url}{via}: {cause or name}"
    if name == "ConnectError":
        return f"cannot connect to {url} (nothing listening, or the host is unreachable: {cause or name})"
    if name == "ProxyError":  # the proxy refused to open a tunnel (CONNECT) to the server
        return f"{_proxy_named(spec) or 'the proxy'} did not open a connection to {url}: {cause or name}"
    if "Timeout" in name:
        return f"{url}: HTTP timeout ({name}){via}"
    return f"{url}{via}: {name}: {cause}"


def _validation_summary(exc: Any, limit: int = 3) -> str:
    try:
        errors = exc.errors()
    except Exception:  # noqa: BLE001
        return str(exc).splitlines()[0]
    parts = []
    for error in errors[:limit]:
        loc = ".".join(str(x) for x in error.get("loc", ()))
        parts.append(f"{loc}: {error.get('msg', '')}" if loc else str(error.get("msg", "")))
    more = f"; +{len(errors) - limit} more" if len(errors) > limit else ""
    return "; ".join(parts) + more


# --- connecting and listing -----------------------------------------------------------------

def _emit(progress: ProgressFn | None, status: ServerStatus) -> None:
    """Report a copy of ``status``. An ``Exception`` in the callback is logged and ignored (a
    display problem never stops a connect); a ``BaseException`` (a UI rerun signal, Ctrl-C)
    propagates and cancels the connect, closing every session."""
    if progress is None:
        return
    try:
        progress(replace(status, flags=list(status.flags)))
    except Exception:  # noqa: BLE001
        logger.exception("progress callback failed")


def _server_info(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    info: dict[str, Any] = {}
    server_info = client.server_info
    if server_info is not None:
        info["name"] = server_info.name
        info["version"] = server_info.version
        if server_info.title:
            info["title"] = server_info.title
    info["protocolVersion"] = client.protocol_version
    capabilities = client.server_capabilities.model_dump(by_alias=True, exclude_none=True, mode="json")
    return info, capabilities


#: A cursor named in a problem is shown up to this many characters.
_CURSOR_SHOWN_CHARS = 80


def _cursor_digest(cursor: str) -> bytes:
    """A fixed-size stand-in for a ``tools/list`` cursor, to notice one that repeats."""
    return hashlib.sha256(cursor.encode("utf-8", "surrogatepass")).digest()


def _shown_cursor(cursor: Any) -> str:
    """``cursor`` as a problem names it: its ``repr``, cut to :data:`_CURSOR_SHOWN_CHARS` characters
    (a repeated cursor may be megabytes long) with the full length said."""
    text = repr(cursor)
    if len(text) <= _CURSOR_SHOWN_CHARS:
        return text
    length = f"{len(cursor):,} characters" if isinstance(cursor, str) else f"{len(text):,} characters as written"
    return f"{text[:_CURSOR_SHOWN_CHARS]}{C.ELLIPSIS} ({length})"


async def _list_tools(client: Any, tap: _Tap, where: str, status: ServerStatus, progress: ProgressFn | None,
                      max_pages: int, problems: list[Problem]) -> list[Any]:
    """Every ``tools/list`` page, read from the raw results (docs/reference.md §20 "pages followed")."""
    from pydantic import ValidationError  # noqa: PLC0415

    raw_tools: list[Any] = []
    cursor: str | None = None
    # Digests of the cursors so far, not the cursors: a server may send a cursor of megabytes on
    # every page, and holding each one until the listing ends cost its size times the pages.
    seen: set[bytes] = set()
    for page in range(1, max_pages + 1):
        tap.results.pop("tools/list", None)
        rejected: ValidationError | None = None
        try:
            await client.list_tools(cursor=cursor, cache_mode="bypass")
        except ValidationError as exc:
            rejected = exc
        raw = tap.results.get("tools/list")
        if tap.read_past_sdk is not None:  # too deep for the SDK's parser: the page was read here
            problems.append(Problem("warning", f"{where}: tools/list page {page}",
                                    f"the answer {tap.read_past_sdk}; tools read from the raw JSON instead "
                                    "(a tool nested too deeply is skipped alone)"))
            status.flags.append(f"page {page}: too deep for the SDK's parser; read from the raw JSON")
            tap.read_past_sdk = None
        if raw is None:
            if rejected is not None:
                raise rejected
            raise ServerError(f"tools/list page {page}: no result with a 'tools' list was received")
        tools = raw.get("tools")
        if not isinstance(tools, list):
            raise ServerError(f"tools/list page {page}: expected a 'tools' list, got {yaml_kind(tools)}")
        if rejected is not None:
            message = (f"the MCP SDK rejects this tools/list result ({_validation_summary(rejected)}); "
                       "tools kept from the raw JSON (lenient parse)")
            problems.append(Problem("warning", f"{where}: tools/list page {page}", message))
            status.flags.append(f"page {page}: SDK rejected the result; parsed leniently")
        room = C.LIVE_TOOLS_MAX - len(raw_tools)
        raw_tools.extend(tools[:room])
        status.pages = page
        status.tool_count = len(raw_tools)
        _emit(progress, status)
        if len(tools) > room:
            problems.append(Problem("warning", f"{where}: tools/list page {page}",
                                    f"the server lists more than {C.LIVE_TOOLS_MAX:,} tools (limit for one server, "
                                    f"as for a catalog file); the first {C.LIVE_TOOLS_MAX:,} kept, "
                                    f"{counted(len(tools) - room, 'tool')} of this page and any later pages not read"))
            status.flags.append(f"stopped at {C.LIVE_TOOLS_MAX:,} tools (limit)")
            return raw_tools
        next_cursor = raw.get("nextCursor")
        if next_cursor == "":  # the end, but it loops clients that take any string as a cursor
            problems.append(Problem("warning", f"{where}: tools/list page {page}", EMPTY_NEXT_CURSOR))
            status.flags.append("empty-string nextCursor (loops some clients)")
            return raw_tools
        if next_cursor is None:
            return raw_tools
        if not isinstance(next_cursor, str) or _cursor_digest(next_cursor) in seen:
            problems.append(Problem("warning", f"{where}: tools/list page {page}",
                                    f"nextCursor {_shown_cursor(next_cursor)} repeats or is not a string; listing stopped"))
            status.flags.append("pagination stopped: bad or repeated cursor")
            return raw_tools
        seen.add(_cursor_digest(next_cursor))
        cursor = next_cursor
    problems.append(Problem("warning", f"{where}: tools/list",
                            f"stopped after {max_pages} pages; the server has more (docs/reference.md §20)"))
    status.flags.append(f"stopped after {max_pages} pages")
    return raw_tools


def _without_deep_tools(raw_tools: list[Any], where: str, problems: list[Problem], status: ServerStatus,
                        scrub: Callable[[str], str]) -> list[Any]:
    """``raw_tools`` (a server's ``tools/list`` tools, raw) without the tools one of whose values nests more
    than :data:`~toolsearch.engine.readers.MAX_NESTING_DEPTH` levels, each said with its place
    (``tools[3].inputSchema``) as a catalog file's reader says it: the code that reads a tool recurses
    once per level, so one such tool would fail the whole server. The rest are kept. ``scrub`` masks the
    server's secrets in the place (a key is the server's text)."""
    from ..engine import readers  # noqa: PLC0415

    kept = []
    for index, tool in enumerate(raw_tools):
        deep = next((key for key, value in tool.items() if readers.nesting_exceeds(value, readers.MAX_NESTING_DEPTH)),
                    None) if isinstance(tool, dict) else None
        if deep is None:
            kept.append(tool)
            continue
        problems.append(Problem("error", f"{where}: {scrub(readers.place_text(['tools', index, deep]))}",
                                f"nested more than {readers.MAX_NESTING_DEPTH} levels deep (limit); tool skipped"))
    if len(kept) < len(raw_tools):
        status.flags.append(f"{counted(len(raw_tools) - len(kept), 'tool')} nested too deeply skipped")
    return kept


def _answered_twice(tap: _Tap, status: ServerStatus, where: str, problems: list[Problem]) -> None:
    """A warning and a flag for what the server said twice while it was listed: a request answered
    more than once (the SDK keeps the first answer and drops the others), and a
    ``notifications/tools/list_changed`` after a ``tools/list`` answer (the tools shown are the list
    as it was answered). Only what arrived before the listing ended is seen: the session closes
    right after the last page, so a repeat sent after that is never read."""
    by_method: dict[str, list[tuple[Any, bool]]] = {}
    for method, request_id, differs in tap.repeated_answers:
        by_method.setdefault(method, []).append((request_id, differs))
    for method, repeats in by_method.items():
        extra, other = len(repeats), sum(differs for _, differs in repeats)
        requests = len({str(request_id) for request_id, _ in repeats})
        problems.append(Problem("warning", f"{where}: {method}",
                                f"the server answered {counted(requests, f'{method} request')} more than once "
                                f"({counted(extra, 'extra answer')}, "
                                + (("not" if other else "the same as the first") if extra == 1
                                   else f"{other:,} of them not" if other else "each the same as the first")
                                + (" the same as the first" if other else "")
                                + f"); the first answer is kept and {agree(extra, 'the later one', 'the later ones')} "
                                  "ignored"))
        status.flags.append(f"{method} answered twice (first kept)")
    if tap.list_changed_after_listing:
        problems.append(Problem("warning", f"{where}: tools/list",
                                "the server sent notifications/tools/list_changed after answering tools/list: its tool "
                                "list changed while it was being read, so the tools shown (what it answered before) "
                                "may be out of date, or over several pages part old and part new; connect again to "
                                "list them afresh"))
        status.flags.append("tool list changed while listed")
    tap.listing_done()


def _listed(spec: ServerSpec, status: ServerStatus, tap: _Tap, raw_tools: list[Any], tools: list[Any],
            capabilities: dict[str, Any], info: dict[str, Any], where: str, problems: list[Problem]) -> Server:
    """Mark ``status`` ok with its flags, add the stdout problem to ``problems`` and build the server."""
    skipped = len(raw_tools) - len(tools)
    if skipped:
        status.flags.append(f"{counted(skipped, 'malformed tool')} skipped")
    if tap.bad_lines:
        status.flags.append(f"{counted(tap.bad_lines, 'stdout line')} {agree(tap.bad_lines, 'was', 'were')} not JSON-RPC")
        problems.append(Problem("warning", where, f"{counted(tap.bad_lines, 'line')} on the server's stdout "
                                                  f"{agree(tap.bad_lines, 'was not a JSON-RPC message', 'were not JSON-RPC messages')} "
                                                  f"(last: {tap.last_bad})"))
    _answered_twice(tap, status, where, problems)
    status.tool_count = len(tools)
    status.state = "ok"
    return Server(name=spec.name, kind="mcp", tools=tuple(tools), capabilities=capabilities, info=info,
                  config=spec.registration_config(), origin=LIVE_ORIGIN, skipped=skipped)


def timeout_words(stopping: float) -> str:
    """The parenthesis after "no answer within N s while …": ``timeout``, and when stopping the
    server afterwards took a noticeable time (``stopping``, seconds past the budget), that time, so
    the "failed after" figure beside it adds up (``failed after 5.05 s: no answer within 3 s while
    connecting (timeout; stopping the server took 2.04 s more)``)."""
    if stopping < C.LIVE_STOP_NOTE_SECONDS:
        return "timeout"
    return f"timeout; stopping the server took {stopping:.2f} s more"


@asynccontextmanager
async def _exit_watched(tap: _Tap, stdio: bool) -> AsyncIterator[Any]:
    """While inside, a stdio server (``stdio``) that exits fails the connect at once with
    :class:`ServerExited` (see :func:`_watch_exit`) instead of at its timeout. Yields the
    ``anyio.Event`` that ends the watch (set it once listed); what the body raises comes out
    as raised."""
    import anyio  # noqa: PLC0415

    stop = anyio.Event()
    try:
        async with anyio.create_task_group() as watch:
            if stdio:
                watch.start_soon(_watch_exit, tap, stop)
            try:
                yield stop
            finally:
                stop.set()
    except BaseExceptionGroup as group:  # the watch's task group wraps what the body raised
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise


def _load_sdk() -> None:
    """Import the MCP SDK's client parts now (a second or more on a busy machine, once per process)."""
    import mcp  # noqa: F401, PLC0415
    import mcp.client.sse  # noqa: F401, PLC0415
    import mcp.client.stdio  # noqa: F401, PLC0415
    import mcp.client.streamable_http  # noqa: F401, PLC0415
    import mcp_types  # noqa: F401, PLC0415


def _broken_entry(spec: ServerSpec, status: ServerStatus, progress: ProgressFn | None,
                  start: float) -> tuple[None, list[Problem]]:
    """A bad config entry (:attr:`ServerSpec.invalid`): nothing to start, so no task either (200,000
    of them were 200,000 tasks waiting for a turn). Its status fails with the reason, its problem says
    so, and ``progress`` hears of it unless the entry is only counted (:attr:`ServerSpec.counted_only`:
    past the first problems of its file, which the file's warnings count)."""
    status.state = "failed"
    status.reason = spec.scrub(spec.invalid or "")[:_REASON_MAX_CHARS]
    status.elapsed = time.perf_counter() - start
    problem = Problem("error", f"{LIVE_ORIGIN}: server {quoted(spec.name)}", f"not connected: {status.reason}")
    if not spec.counted_only:
        _emit(progress, status)
    return None, [problem]


async def _connect_one(spec: ServerSpec, status: ServerStatus, progress: ProgressFn | None,
                       default_timeout: float, max_pages: int,
                       in_session: Callable[[Any, _Tap, Server, list[Problem]], Awaitable[None]] | None = None,
                       ) -> tuple[Server | None, list[Problem]]:
    """Connect, initialize and list one server. Never raises (except cancellation from outside).

    ``in_session``: awaited with ``(client, tap, server, problems so far)`` once the tools are
    listed, before the session closes (the connect timeout no longer applies to it; it keeps its own budget).
    """
    import anyio  # noqa: PLC0415

    _load_sdk()  # before any clock starts: loading it is not the server's time
    start = time.perf_counter()
    where = f"{LIVE_ORIGIN}: server {quoted(spec.name)}"
    problems: list[Problem] = []
    timeout = spec.connect_timeout or default_timeout
    status.state = "connecting"
    _emit(progress, status)
    server: Server | None = None
    if spec.invalid:  # a bad config entry: nothing to start
        return _broken_entry(spec, status, progress, start)
    tap = _Tap(spec.scrub, spec.secret_values())
    if spec.unresolved:
        names = ", ".join(spec.unresolved)
        status.flags.append(f"unset {agree(spec.unresolved, 'variable', 'variables')} left as written: {names}")
        problems.append(Problem("warning", where, f"{agree(spec.unresolved, 'placeholder', 'placeholders')} left as "
                                                  f"written because the "
                                                  f"{agree(spec.unresolved, 'variable is', 'variables are')} unset "
                                                  f"or empty (docs/reference.md §26.2): {names}"))
    with StderrTail() as errlog:
        try:
            timed_from = time.perf_counter()
            with anyio.fail_after(timeout) as scope:
                async with _exit_watched(tap, spec.transport == "stdio") as stop_watching, \
                        open_session(spec, tap=tap, errlog=errlog.file, connect_timeout=timeout) as client:
                    info, capabilities = _server_info(client)
                    info, echoed_info = scrub_data(info, spec.scrub)  # shown at once: scrub first
                    capabilities, echoed_caps = scrub_data(capabilities, spec.scrub)
                    echoed_info += echoed_caps
                    status.info = info
                    status.state = "listing"
                    _emit(progress, status)
                    raw_tools: list[Any] = []
                    if capabilities.get("tools") is not None:
                        raw_tools = await _list_tools(client, tap, where, status, progress, max_pages, problems)
                    else:
                        status.flags.append("no tools capability; not listed")
                        problems.append(Problem("info", where, "the server does not advertise the tools "
                                                               "capability; no tools listed (docs/reference.md §20)"))
                    raw_tools = _without_deep_tools(raw_tools, where, problems, status, spec.scrub)
                    raw_tools, echoed = scrub_data(raw_tools, spec.scrub)
                    if echoed or echoed_info:
                        status.flags.append(f"{counted(echoed + echoed_info, 'secret echo', 'secret echoes')} masked")
                        problems.append(Problem("warning", where, f"{SECRET_ECHO_NOTE}: "
                                                                  f"{counted(echoed + echoed_info, 'string')} "
                                                                  "in its server info or tools"))
                    tools = _tools_from_list(raw_tools, where, "tools", problems)
                    if in_session is not None:
                        # Listed: report the connect as done now (its time is the listing's, and
                        # its line comes before anything the session's work prints).
                        server = _listed(spec, status, tap, raw_tools, tools, capabilities, info, where, problems)
                        status.elapsed = time.perf_counter() - start
                        problems = [replace(p, message=spec.scrub(p.message)) for p in problems]
                        status.flags = [spec.scrub(flag) for flag in status.flags]
                        _emit(progress, status)
                        scope.deadline = math.inf  # listed: the rest has its own time budget
                        stop_watching.set()
                        await in_session(client, tap, server, list(problems))
            if in_session is not None:
                return server, problems
            server = _listed(spec, status, tap, raw_tools, tools, capabilities, info, where, problems)
        except TimeoutError:
            phase = "listing tools" if status.state == "listing" else "connecting"
            status.state = "failed"
            reason = f"no answer within {timeout:g} s while {phase} ({timeout_words(time.perf_counter() - timed_from - timeout)})"
            tail = _stderr_tail(errlog, spec.scrub, spec.secret_values())
            if tail:
                reason += f" (stderr: {tail})"
            if tap.bad_lines:
                reason += (f" ({counted(tap.bad_lines, 'line')} on stdout {agree(tap.bad_lines, 'was', 'were')} "
                           f"not JSON-RPC; last: {tap.last_bad})")
            status.reason = spec.scrub(reason)[:_REASON_MAX_CHARS]
        except Exception as exc:  # noqa: BLE001 - one server's failure is data, not a crash
            reason = describe_failure(exc, spec, tap, errlog)
            if status.state == "listing" and status.pages:  # a later page failed: say so, and what is lost
                reason = (f"while listing tools, page {status.pages + 1} (the {counted(status.tool_count, 'tool')} "
                          f"of the pages before not kept): {reason}")
                reason = reason if len(reason) <= _REASON_MAX_CHARS else reason[: _REASON_MAX_CHARS - 1] + C.ELLIPSIS
            status.state = "failed"
            status.reason = reason
    status.elapsed = time.perf_counter() - start
    if status.state == "failed":
        problems.append(Problem("error", where, f"not connected: {status.reason}"))
    # Stray stdout lines, stderr tails and SDK messages may echo a secret: scrub every message.
    problems = [replace(p, message=spec.scrub(p.message)) for p in problems]
    status.flags = [spec.scrub(flag) for flag in status.flags]
    _emit(progress, status)
    return server, problems


async def aconnect_servers(specs: Sequence[ServerSpec], *, name: str = "Live servers",
                           timeout: float | None = None, progress: ProgressFn | None = None,
                           max_pages: int = C.MCP_LIST_PAGES_MAX, sources: Sequence[str] = (),
                           extra_problems: Iterable[Problem] = ()) -> LiveResult:
    """Async form of :func:`connect_servers` (same arguments and result).

    A server that fails never raises here (it ends as a ``failed`` status); an exception raised
    from outside the servers (in ``progress``, or a cancellation) is re-raised unwrapped once
    every session is closed.
    """
    import anyio  # noqa: PLC0415

    start = time.perf_counter()
    default_timeout = timeout or C.LIVE_CONNECT_TIMEOUT_DEFAULT
    statuses = [ServerStatus(spec.name, spec.transport) for spec in specs]
    results: list[tuple[Server | None, list[Problem]]] = [(None, []) for _ in specs]

    at_once = anyio.CapacityLimiter(C.LIVE_CONNECT_AT_ONCE)

    async def run(index: int) -> None:
        async with at_once:  # the server's timeout starts inside, once it starts
            results[index] = await _connect_one(specs[index], statuses[index], progress, default_timeout, max_pages)

    try:
        async with anyio.create_task_group() as group:
            broken = []
            for index, spec in enumerate(specs):
                if spec.invalid:  # a broken entry is reported, enabled or not
                    broken.append(index)
                    continue
                if not spec.enabled:
                    statuses[index].state = "skipped"
                    statuses[index].reason = "enabled: false"
                    _emit(progress, statuses[index])
                    continue
                group.start_soon(run, index)
            for index in broken:  # after the skipped ones, before any server has started, as a task of its own did
                results[index] = _broken_entry(specs[index], statuses[index], progress, time.perf_counter())
    except BaseExceptionGroup as exc:
        # Only something from outside a server (e.g. a UI framework's rerun signal raised in the
        # progress callback, or Ctrl-C) gets here; every session is closed by now. Re-raise it
        # unwrapped so the caller sees its own exception type.
        leaves = [e for e in _leaves(exc) if not isinstance(e, anyio.get_cancelled_exc_class())]
        if leaves:
            raise leaves[0] from None
        raise
    servers = [server for server, _ in results if server is not None]
    problems = [*extra_problems, *(p for _, found in results for p in found)]
    catalog = combine([Catalog(name=name, servers=tuple(servers), problems=tuple(problems),
                               sources=tuple(sources) or (LIVE_ORIGIN,))], name=name)
    return LiveResult(catalog=catalog, statuses=tuple(statuses), elapsed=time.perf_counter() - start)


def _run_sync(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run an async function to completion from sync code (a worker thread if a loop runs here)."""
    import asyncio  # noqa: PLC0415
    import anyio  # noqa: PLC0415

    bound = functools.partial(function, *args, **kwargs)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(bound)
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, bound).result()


def connect_servers(specs: Sequence[ServerSpec], *, name: str = "Live servers", timeout: float | None = None,
                    progress: ProgressFn | None = None, max_pages: int = C.MCP_LIST_PAGES_MAX,
                    sources: Sequence[str] = (), extra_problems: Iterable[Problem] = ()) -> LiveResult:
    """Connect to ``specs`` concurrently (at most :data:`~toolsearch.engine.constants.LIVE_CONNECT_AT_ONCE` at
    a time; a server's timeout starts when it starts) and list their tools.

    Args:
        specs: servers to connect (``enabled=False`` ones are reported as ``skipped``).
        name: the catalog's name.
        timeout: seconds per server for connect + handshake + listing when its spec sets no
            ``connect_timeout`` (default :data:`~toolsearch.engine.constants.LIVE_CONNECT_TIMEOUT_DEFAULT`).
        progress: called with a copy of a server's :class:`ServerStatus` at every change
            (connecting, listing after each page, final state), from the calling thread.
        max_pages: ``tools/list`` page cap per server.
        sources: the config files, recorded as the catalog's sources.
        extra_problems: problems to carry into the catalog (e.g. config warnings).

    Returns:
        A :class:`LiveResult`. Never raises for a server's failure: it is a ``failed`` status
        and an ``error`` problem in the catalog.
    """
    return _run_sync(aconnect_servers, specs, name=name, timeout=timeout, progress=progress,
                     max_pages=max_pages, sources=sources, extra_problems=extra_problems)


# --- calling -------------------------------------------------------------------------------

_UTILITY_METHODS = {"list_resources": "resources/list", "read_resource": "resources/read",
                    "list_prompts": "prompts/list", "get_prompt": "prompts/get"}


async def _request(client: Any, tool_name: str, arguments: Mapping[str, Any], utility: str | None) -> Any:
    """Send the request: ``tools/call``, or the MCP method behind a utility tool (docs/reference.md §24)."""
    args = dict(arguments)
    if utility == "list_resources":
        return await client.list_resources(cache_mode="bypass")
    if utility == "read_resource":
        return await client.read_resource(str(args.get("uri", "")), cache_mode="bypass")
    if utility == "list_prompts":
        return await client.list_prompts(cache_mode="bypass")
    if utility == "get_prompt":
        prompt_args = args.get("arguments") if isinstance(args.get("arguments"), Mapping) else None
        return await client.get_prompt(str(args.get("name", "")),
                                       {k: str(v) for k, v in prompt_args.items()} if prompt_args else None)
    return await client.call_tool(tool_name, args)


async def acall_tool(spec: ServerSpec, tool_name: str, arguments: Mapping[str, Any] | None = None,
                     timeout: float | None = None, *, utility: str | None = None,
                     connect_timeout: float | None = None) -> CallOutcome:
    """Async form of :func:`call_tool`."""
    arguments = dict(arguments or {})
    call_timeout = timeout or spec.timeout or C.LIVE_CALL_TIMEOUT_DEFAULT
    connect_timeout = spec.connect_timeout or connect_timeout or C.LIVE_CONNECT_TIMEOUT_DEFAULT
    start = time.perf_counter()
    if spec.invalid:  # a bad config entry: nothing to start
        return _call_outcome(spec, tool_name, arguments, start, reason=spec.scrub(spec.invalid))
    return await _acall(spec, tool_name, arguments, call_timeout, connect_timeout, utility, start)


async def _call_in_session(client: Any, tap: _Tap, spec: ServerSpec, tool_name: str, arguments: dict[str, Any],
                           utility: str | None, notes: list[str]) -> tuple[dict[str, Any] | None, bool, str | None, float]:
    """Send one call on an open session: ``(response, ok, reason, call seconds)``.

    A JSON-RPC error is a response with a reason; a result the SDK rejects is kept raw with a
    note. A closed connection raises (the caller describes it).
    """
    from pydantic import ValidationError  # noqa: PLC0415
    from mcp.shared.exceptions import MCPError  # noqa: PLC0415

    call_start = time.perf_counter()
    method = _UTILITY_METHODS.get(utility or "", "tools/call")
    tap.results.pop(method, None)
    try:
        result = await _request(client, tool_name, arguments, utility)
        raw = tap.results.get(method)
        response = raw if raw is not None else result.model_dump(by_alias=True, exclude_none=True, mode="json")
        return response, True, None, time.perf_counter() - call_start
    except MCPError as exc:
        if exc.code == -32000 and tap.ended:
            raise
        if tap.unreadable and exc.message == tap.unreadable:  # an answer the SDK could not read
            return {"error": spec.scrub(exc.message)}, False, exc.message, time.perf_counter() - call_start
        response = {"error": spec.scrub(str(exc.message)), "code": exc.code}
        if exc.data is not None:
            response["data"] = exc.data if not isinstance(exc.data, str) else spec.scrub(exc.data)
        return response, False, f"the server answered with error {exc.code}: {exc.message}", \
            time.perf_counter() - call_start
    except (ValidationError, RuntimeError) as exc:
        if tap.results.get(method) is None:
            raise
        detail = _validation_summary(exc) if isinstance(exc, ValidationError) else str(exc)
        notes.append(f"the MCP SDK rejects this result ({detail}); raw JSON shown")
        return tap.results[method], True, None, time.perf_counter() - call_start


def _scrub_response(response: dict[str, Any] | None, spec: ServerSpec, notes: list[str]) -> dict[str, Any] | None:
    """``response`` with every echoed secret masked (results, error messages and data at any
    depth); a note is added to ``notes`` when something was masked."""
    if response is None:
        return None
    response, echoed = scrub_data(response, spec.scrub)
    if echoed:
        notes.append(f"{SECRET_ECHO_NOTE} ({counted(echoed, 'string')} in the response)")
    return response


def _call_outcome(target: ServerSpec, tool_name: str, arguments: dict[str, Any], start: float, *,
                  response: dict[str, Any] | None = None, ok: bool = False, reason: str | None = None,
                  call_elapsed: float | None = None, notes: Sequence[str] = ()) -> CallOutcome:
    """The bookkeeping every call path shares: the :class:`CallOutcome` of one call, secrets
    masked in the reason, the response (a note says when something was masked) and the notes;
    without a response, an error response that says why; ``elapsed`` measured from ``start``
    (a :func:`time.perf_counter` value)."""
    notes = list(notes)
    reason = target.scrub(reason) if reason else None  # a stderr tail or stray output may echo a secret
    response = _scrub_response(response, target, notes)
    if response is None:
        response = {"error": f"could not call {tool_name!r} on server {target.name!r}: {reason}"}
    return CallOutcome(server=target.name, tool=tool_name, arguments=arguments, response=response, ok=ok,
                       elapsed=time.perf_counter() - start, call_elapsed=call_elapsed, reason=reason,
                       notes=tuple(target.scrub(note) for note in notes))


async def _acall(spec: ServerSpec, tool_name: str, arguments: dict[str, Any], call_timeout: float,
                 connect_timeout: float, utility: str | None, start: float) -> CallOutcome:
    import anyio  # noqa: PLC0415

    _load_sdk()  # before the connect budget starts: loading it is not the server's time
    tap = _Tap(spec.scrub, spec.secret_values())
    phase = "connecting"
    call_elapsed: float | None = None
    response: dict[str, Any] | None = None
    reason: str | None = None
    notes: list[str] = []
    ok = False
    with StderrTail() as errlog:
        try:
            # One cancel scope for the whole exchange; its deadline moves from the connect
            # budget to the call budget once the session is up.
            timed_from = time.perf_counter()
            with anyio.CancelScope(deadline=anyio.current_time() + connect_timeout) as scope:
                async with _exit_watched(tap, spec.transport == "stdio") as stop_watching, \
                        open_session(spec, tap=tap, errlog=errlog.file, connect_timeout=connect_timeout) as client:
                    phase = "calling"
                    timed_from = time.perf_counter()
                    scope.deadline = anyio.current_time() + call_timeout
                    response, ok, reason, call_elapsed = await _call_in_session(
                        client, tap, spec, tool_name, arguments, utility, notes)
                    stop_watching.set()
                    phase = "closing"
            if scope.cancelled_caught and response is None:
                budget = call_timeout if phase == "calling" else connect_timeout
                reason = (f"no answer within {budget:g} s while {phase} "
                          f"({timeout_words(time.perf_counter() - timed_from - budget)})")
                tail = _stderr_tail(errlog, spec.scrub, spec.secret_values())
                if tail:
                    reason += f" (stderr: {tail})"
        except Exception as exc:  # noqa: BLE001
            reason = describe_failure(exc, spec, tap, errlog)
    return _call_outcome(spec, tool_name, arguments, start, response=response, ok=ok, reason=reason,
                         call_elapsed=call_elapsed, notes=notes)


def call_tool(spec: ServerSpec, tool_name: str, arguments: Mapping[str, Any] | None = None,
              timeout: float | None = None, *, utility: str | None = None,
              connect_timeout: float | None = None) -> CallOutcome:
    """Start (or reach) ``spec``'s server, call one tool, stop it.

    Args:
        spec: the server.
        tool_name: the tool's raw name (as the server knows it).
        arguments: server-side argument names and values.
        timeout: seconds for the call itself (default: the spec's ``timeout``, else
            :data:`~toolsearch.engine.constants.LIVE_CALL_TIMEOUT_DEFAULT`).
        connect_timeout: seconds for start-up and handshake when the spec sets no
            ``connect_timeout`` (default :data:`~toolsearch.engine.constants.LIVE_CONNECT_TIMEOUT_DEFAULT`).
        utility: for a generated utility tool (docs/reference.md §24): ``list_resources``, ``read_resource``,
            ``list_prompts`` or ``get_prompt``; the matching MCP method is called instead.

    Returns:
        A :class:`CallOutcome`; failures (no server, timeout, JSON-RPC error) are in it, not raised.
    """
    return _run_sync(acall_tool, spec, tool_name, arguments, timeout, utility=utility,
                     connect_timeout=connect_timeout)


T = TypeVar("T")


def call_target(specs: Iterable[ServerSpec], tool_name: str) -> ServerSpec | None:
    """The one server a prefixed tool name (``mcp__<server>__<tool>``, docs/reference.md §21) can belong to.

    ``None`` when no enabled, usable server's prefix fits the name, or when several do (then
    every server has to be listed to know).
    """
    from ..engine.registration import sanitize_name_part  # noqa: PLC0415

    fits = [spec for spec in specs
            if tool_name.startswith(f"{C.MCP_TOOL_NAME_PREFIX}{sanitize_name_part(spec.name)}{C.MCP_NAME_SEPARATOR}")]
    if len(fits) != 1 or not fits[0].enabled or fits[0].invalid:
        return None
    return fits[0]


def connect_and_call(spec: ServerSpec, work: Callable[[Server, list[Problem], "LiveDispatcher"], T], *,
                     timeout: float | None = None, connect_timeout: float | None = None,
                     progress: ProgressFn | None = None,
                     max_pages: int = C.MCP_LIST_PAGES_MAX) -> tuple[ServerStatus, list[Problem], T | None]:
    """Start one server, list its tools and call on that same session: the server starts once.

    ``work(server, problems, dispatcher)`` runs in a worker thread while the session is open: it
    gets the listed :class:`~toolsearch.engine.catalog.Server`, the listing's problems so far and a
    :class:`LiveDispatcher` whose calls go
    over the open session (put it on a bridge; each call has ``timeout`` seconds, default the
    spec's ``timeout``, else :data:`~toolsearch.engine.constants.LIVE_CALL_TIMEOUT_DEFAULT`).

    Returns:
        ``(status, problems, result)``: the server's connect status and listing problems (as
        :func:`connect_servers` reports them) and what ``work`` returned, or ``None`` when the
        server did not connect (``work`` is then not run). Exceptions from ``work`` propagate.
    """
    return _run_sync(_aconnect_and_call, spec, work, timeout, connect_timeout, progress, max_pages)


async def _aconnect_and_call(spec: ServerSpec, work: Callable[[Server, list[Problem], "LiveDispatcher"], T],
                             timeout: float | None,
                             connect_timeout: float | None, progress: ProgressFn | None,
                             max_pages: int) -> tuple[ServerStatus, list[Problem], T | None]:
    import anyio.from_thread, anyio.to_thread  # noqa: E401, PLC0415

    start = time.perf_counter()
    status = ServerStatus(spec.name, spec.transport)
    call_timeout = timeout or spec.timeout or C.LIVE_CALL_TIMEOUT_DEFAULT
    results: list[T] = []
    errors: list[BaseException] = []

    async def in_session(client: Any, tap: _Tap, server: Server, problems: list[Problem]) -> None:
        def send(target: ServerSpec, raw_name: str, arguments: dict[str, Any], utility: str | None) -> CallOutcome:
            return anyio.from_thread.run(_asend, client, tap, target, raw_name, arguments, utility, call_timeout,
                                         start)

        dispatcher = LiveDispatcher({spec.name: spec}, timeout, connect_timeout, send=send)
        try:
            results.append(await anyio.to_thread.run_sync(work, server, problems, dispatcher))
        except Exception as exc:  # noqa: BLE001 - re-raised below, outside the session
            errors.append(exc)

    _, problems = await _connect_one(spec, status, progress, connect_timeout or C.LIVE_CONNECT_TIMEOUT_DEFAULT,
                                     max_pages, in_session)
    if errors:
        raise errors[0]
    return status, problems, (results[0] if results else None)


class LiveDispatcher:
    """A :attr:`toolsearch.engine.bridge.Bridge.dispatcher` that calls the real tool.

    ``Bridge.tool_call`` validates the arguments locally (docs/reference.md §9) and only then calls this with
    the resolved :class:`~toolsearch.engine.registration.RegisteredTool` and the coerced arguments;
    the call goes to the tool's server under its raw name, with the arguments mapped back to the
    server's own names (:func:`toolsearch.engine.bridge.server_arguments`). Each call is recorded in
    :attr:`calls` (request as the underlying tool, response, timing).

    Args:
        specs: the servers, by name or as a sequence.
        timeout: seconds per call (default: each spec's ``timeout``).
        connect_timeout: seconds for each server's start-up and handshake when its spec sets
            none (default :data:`~toolsearch.engine.constants.LIVE_CONNECT_TIMEOUT_DEFAULT`).
    """

    def __init__(self, specs: Mapping[str, ServerSpec] | Iterable[ServerSpec], timeout: float | None = None,
                 connect_timeout: float | None = None,
                 send: Callable[[ServerSpec, str, dict[str, Any], str | None], CallOutcome] | None = None) -> None:
        self.specs = dict(specs) if isinstance(specs, Mapping) else {s.name: s for s in specs}
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.send = send  # (spec, raw name, arguments, utility) -> outcome; default: start the server and call
        self.calls: list[CallOutcome] = []

    @property
    def last(self) -> CallOutcome | None:
        """The most recent call, if any."""
        return self.calls[-1] if self.calls else None

    def __call__(self, tool: RegisteredTool, arguments: dict[str, Any]) -> dict[str, Any]:
        spec = self.specs.get(tool.server)
        if spec is None:
            return {"error": f"no connection settings for server {tool.server!r}; tool {tool.name!r} was not called"}
        utility = tool.raw_name if tool.utility else None
        if self.send is not None:
            outcome = self.send(spec, tool.raw_name, server_arguments(tool, arguments), utility)
        else:
            outcome = call_tool(spec, tool.raw_name, server_arguments(tool, arguments), self.timeout,
                                utility=utility, connect_timeout=self.connect_timeout)
        self.calls.append(outcome)
        return dict(outcome.response)


# --- connections held open between calls (the app) -----------------------------------------

async def _asend(client: Any, tap: _Tap, target: ServerSpec, raw_name: str, arguments: dict[str, Any],
                 utility: str | None, call_timeout: float, start: float) -> CallOutcome:
    """One call over an open session, as a :class:`CallOutcome` (never raises): a timeout or a
    connection that went away is the reason; secrets the server echoes back are masked."""
    import anyio  # noqa: PLC0415

    notes: list[str] = []
    response: dict[str, Any] | None = None
    ok, reason, call_elapsed = False, None, None
    with anyio.move_on_after(call_timeout) as scope:
        try:
            response, ok, reason, call_elapsed = await _call_in_session(
                client, tap, target, raw_name, arguments, utility, notes)
        except Exception as exc:  # noqa: BLE001 - the connection went away mid-call
            reason = describe_failure(exc, target, tap)
    if scope.cancelled_caught and response is None:
        reason = f"no answer within {call_timeout:g} s while calling (timeout)"
    return _call_outcome(target, raw_name, arguments, start, response=response, ok=ok, reason=reason,
                         call_elapsed=call_elapsed, notes=notes)


@dataclass
class _Held:
    client: Any
    tap: _Tap
    spec: ServerSpec
    stop: Any  # anyio.Event, set to close the session


def idle_clock() -> float:
    """Seconds on a monotonic clock: what :class:`LiveConnections` measures idle time with
    unless it is given another clock."""
    return time.monotonic()


class _Holder:
    """The part of :class:`LiveConnections` the background loop refers to (so the public object
    can be garbage-collected, which closes this one)."""

    def __init__(self, clock: Callable[[], float], idle_timeout: float | None) -> None:
        import anyio.from_thread  # noqa: E401, PLC0415

        self.portal_cm = anyio.from_thread.start_blocking_portal()
        self.portal = self.portal_cm.__enter__()
        self.lock = threading.Lock()
        self.held: dict[str, _Held] = {}
        self.tasks: list[Any] = []  # concurrent.futures.Future of each server's task
        self.closed = False
        self.close_reason: str | None = None  # "closed", "idle" or "owner gone", once closed
        self.clock = clock
        self.idle_timeout = idle_timeout
        self.last_used = clock()
        self.busy = 0  # calls in flight: a session in use is not idle

    def touch(self) -> None:
        with self.lock:
            self.last_used = self.clock()

    def idle_for(self) -> float:
        """Seconds since the last use (0 while a call is in flight)."""
        with self.lock:
            return 0.0 if self.busy else max(0.0, self.clock() - self.last_used)

    def expire_idle(self) -> bool:
        """Close the sessions when they have been unused for longer than ``idle_timeout``;
        True when this call closed them."""
        if self.closed or self.idle_timeout is None or self.idle_for() <= self.idle_timeout:
            return False
        logger.info("live connections closed: unused for more than %g s", self.idle_timeout)
        self.close("idle")
        return True

    async def hold(self, index: int, spec: ServerSpec, out: "queue.Queue[tuple[str, int, Any]]",
                   default_timeout: float, max_pages: int, at_once: anyio.CapacityLimiter) -> None:
        """Connect and list ``spec`` once ``at_once`` has room (the room is given back when it
        listed or failed, not when its session closes), report it on ``out``, and keep its session
        open until it is closed."""
        import anyio  # noqa: PLC0415

        status = ServerStatus(spec.name, spec.transport)
        stop = anyio.Event()
        reported = False
        slot = object()
        await at_once.acquire_on_behalf_of(slot)
        holding_slot = True

        def give_back() -> None:
            nonlocal holding_slot
            if holding_slot:
                holding_slot = False
                at_once.release_on_behalf_of(slot)

        def emit(copy: ServerStatus) -> None:
            out.put(("status", index, copy))

        async def in_session(client: Any, tap: _Tap, server: Server, problems: list[Problem]) -> None:
            nonlocal reported
            with self.lock:
                self.held[spec.name] = _Held(client, tap, spec, stop)
            reported = True
            out.put(("done", index, (replace(status, flags=[spec.scrub(f) for f in status.flags]), server, problems)))
            give_back()
            try:
                await stop.wait()
            finally:
                with self.lock:
                    self.held.pop(spec.name, None)

        try:
            server, problems = await _connect_one(spec, status, emit, default_timeout, max_pages, in_session)
        finally:
            give_back()
        if not reported:
            out.put(("done", index, (replace(status), server, problems)))

    def close(self, reason: str = "closed") -> None:
        """Close every session (stdio children stopped as in :func:`open_session`) and the loop."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.close_reason = reason
            stops = [held.stop for held in self.held.values()]
        try:
            for stop in stops:
                self.portal.call(stop.set)
            for task in self.tasks:
                if not task.done():
                    task.cancel()  # still connecting: cancelling closes that session too
            for task in self.tasks:
                try:
                    task.result(timeout=30)
                except BaseException:  # noqa: BLE001 - cancelled or failed: closed either way
                    pass
        finally:
            self.portal_cm.__exit__(None, None, None)


def _watch(holder: _Holder, alive: Callable[[], bool] | None, grace: float, check_every: float) -> None:
    """Close ``holder`` once ``alive()`` has been False (or raised) for ``grace`` seconds, or once
    its sessions have been unused for longer than its idle timeout."""
    gone_since: float | None = None
    while not holder.closed:
        time.sleep(check_every)
        if holder.expire_idle() or alive is None:
            continue
        try:
            ok = bool(alive())
        except Exception:  # noqa: BLE001 - cannot tell: count as gone
            ok = False
        if ok:
            gone_since = None
            continue
        now = time.monotonic()
        gone_since = now if gone_since is None else gone_since
        if now - gone_since >= grace:
            logger.info("live connections closed: their owner has gone")
            holder.close("owner gone")


class LiveConnections:
    """MCP sessions kept open between calls: connect once, call many times, one process each.

    A Streamlit page runs top to bottom on every interaction, so a session opened inside a run
    would close when the run ends. This holder keeps its sessions in an event loop on a background
    thread (an anyio blocking portal): :meth:`connect` opens and lists every server there and
    leaves the sessions open; :meth:`send` (a :class:`LiveDispatcher` ``send``) calls a tool over
    the open session; :meth:`close` closes them all (stdin closed, then SIGTERM, then SIGKILL for
    stdio children), and so does the watchdog once they have gone unused for ``idle_timeout``.
    The sessions are also closed when this object is garbage-collected (e.g. the Streamlit
    session that kept it ends) and at interpreter exit.

    Keep one per user session; connect once per holder.

    Args:
        alive: optional check, called every ``check_every`` seconds from a watchdog thread:
            while it returns False for ``grace`` seconds in a row (e.g. the browser session that
            owns this holder has gone), the sessions are closed.
        grace: seconds of ``alive() == False`` before closing (a reconnecting browser keeps them).
        check_every: seconds between checks.
        idle_timeout: seconds the sessions may go unused (no connect, no call, no :meth:`touch`)
            before the watchdog closes them (:attr:`close_reason` is then ``"idle"``); ``None``
            = never. A call in flight is use.
        clock: what idle time is measured with (default :func:`idle_clock`, monotonic seconds);
            tests pass their own.
    """

    def __init__(self, alive: Callable[[], bool] | None = None, grace: float = 60.0,
                 check_every: float = 5.0, idle_timeout: float | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self._holder = _Holder(clock or idle_clock, idle_timeout)
        self._finalizer = weakref.finalize(self, self._holder.close)
        if alive is not None or idle_timeout is not None:
            threading.Thread(target=_watch, args=(self._holder, alive, grace, check_every), daemon=True,
                             name="toolsearch-live-watchdog").start()

    @property
    def idle_timeout(self) -> float | None:
        """Seconds of non-use after which the sessions are closed (``None`` = never)."""
        return self._holder.idle_timeout

    @idle_timeout.setter
    def idle_timeout(self, seconds: float | None) -> None:
        self._holder.idle_timeout = seconds

    @property
    def idle_seconds(self) -> float:
        """Seconds since the sessions were last used (0 while a call is in flight)."""
        return self._holder.idle_for()

    @property
    def close_reason(self) -> str | None:
        """Why the sessions were closed: ``"closed"`` (:meth:`close`), ``"idle"`` (unused for
        longer than :attr:`idle_timeout`) or ``"owner gone"`` (``alive()`` stayed False);
        ``None`` while open."""
        return self._holder.close_reason

    def touch(self) -> None:
        """Count now as use (e.g. the user is working on the page that holds the sessions)."""
        self._holder.touch()

    def expire_idle(self) -> bool:
        """Close the sessions now if they have been unused for longer than :attr:`idle_timeout`
        (what the watchdog does every ``check_every`` seconds); True when this call closed them."""
        return self._holder.expire_idle()

    def connect(self, specs: Sequence[ServerSpec], *, name: str = "Live servers", timeout: float | None = None,
                progress: ProgressFn | None = None, max_pages: int = C.MCP_LIST_PAGES_MAX,
                sources: Sequence[str] = ()) -> LiveResult:
        """Connect and list like :func:`connect_servers`, keeping each session that listed open.

        ``progress`` is called from the calling thread. A ``BaseException`` from it (a UI rerun
        signal, Ctrl-C) closes every session and propagates.

        Raises:
            RuntimeError: the holder is closed.
        """
        import anyio  # noqa: PLC0415

        holder = self._holder
        if holder.closed:
            raise RuntimeError("these live connections are closed; connect with a new holder")
        start = time.perf_counter()
        default_timeout = timeout or C.LIVE_CONNECT_TIMEOUT_DEFAULT
        statuses = [ServerStatus(spec.name, spec.transport) for spec in specs]
        results: list[tuple[Server | None, list[Problem]]] = [(None, []) for _ in specs]
        out: queue.Queue[tuple[str, int, Any]] = queue.Queue()
        waiting = set()
        at_once = holder.portal.call(anyio.CapacityLimiter, C.LIVE_CONNECT_AT_ONCE)  # made on the sessions' loop
        broken = []
        for index, spec in enumerate(specs):
            if spec.invalid:  # a broken entry is reported, enabled or not
                broken.append(index)
                continue
            if not spec.enabled:
                statuses[index].state = "skipped"
                statuses[index].reason = "enabled: false"
                _emit(progress, statuses[index])
                continue
            waiting.add(index)
            holder.tasks.append(holder.portal.start_task_soon(holder.hold, index, spec, out, default_timeout,
                                                              max_pages, at_once))
        try:
            for index in broken:  # nothing to start: failed here, not on the sessions' loop
                results[index] = _broken_entry(specs[index], statuses[index], progress, time.perf_counter())
            while waiting:
                kind, index, payload = out.get()
                if kind == "done":
                    statuses[index], server, problems = payload
                    results[index] = (server, problems)
                    waiting.discard(index)
                else:
                    statuses[index] = payload
                _emit(progress, statuses[index])
        except BaseException:
            self.close()
            raise
        servers = [server for server, _ in results if server is not None]
        problems = [p for _, found in results for p in found]
        catalog = combine([Catalog(name=name, servers=tuple(servers), problems=tuple(problems),
                                   sources=tuple(sources) or (LIVE_ORIGIN,))], name=name)
        holder.touch()
        return LiveResult(catalog=catalog, statuses=tuple(statuses), elapsed=time.perf_counter() - start)

    def is_open(self, server: str) -> bool:
        """True while ``server``'s session is open (and its connection has not ended)."""
        held = self._holder.held.get(server)
        return held is not None and not held.tap.ended and not self._holder.closed

    def end_reason(self, server: str) -> str | None:
        """Why toolsearch closed ``server``'s connection, when it did so at a limit (a message over
        16 MiB, requests whose answers the server did not read); ``None`` otherwise."""
        held = self._holder.held.get(server)
        if held is None or not held.tap.ended:
            return None
        return held.spec.scrub(held.tap.too_large) if held.tap.too_large else None

    @property
    def open_servers(self) -> list[str]:
        """Names of the servers whose session is open."""
        return [name for name in list(self._holder.held) if self.is_open(name)]

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._holder.closed

    def send(self, spec: ServerSpec, raw_name: str, arguments: dict[str, Any], utility: str | None = None,
             timeout: float | None = None) -> CallOutcome:
        """Call ``raw_name`` over ``spec.name``'s open session (the :class:`LiveDispatcher` ``send``
        signature). Never raises: a closed session, a timeout (``timeout`` seconds, default the
        spec's ``timeout``, else :data:`~toolsearch.engine.constants.LIVE_CALL_TIMEOUT_DEFAULT`) or a
        connection that ended is the outcome's reason; a session whose connection ended is dropped."""
        start = time.perf_counter()
        held = self._holder.held.get(spec.name)

        def closed() -> CallOutcome:
            return _call_outcome(spec, raw_name, arguments, start,
                                 reason=f"the session with server {quoted(spec.name)} is closed; connect again")

        if held is None or self._holder.closed:
            return closed()
        call_timeout = timeout or held.spec.timeout or C.LIVE_CALL_TIMEOUT_DEFAULT
        holder = self._holder
        with holder.lock:
            holder.busy += 1
        try:
            outcome = holder.portal.call(_asend, held.client, held.tap, held.spec, raw_name, arguments, utility,
                                         call_timeout, start)
        except RuntimeError:  # closed meanwhile (idle, owner gone): its loop has stopped
            if not holder.closed:
                raise
            return closed()
        finally:
            with holder.lock:
                holder.busy -= 1
                holder.last_used = holder.clock()
        if held.tap.ended:
            self._holder.portal.call(held.stop.set)
        return outcome

    def close(self) -> None:
        """Close every session and stop the background loop (idempotent)."""
        self._finalizer()


def attach_dispatcher(bridge: Any, specs: Mapping[str, ServerSpec] | Iterable[ServerSpec],
                      timeout: float | None = None) -> LiveDispatcher:
    """Install a :class:`LiveDispatcher` on ``bridge`` and return it; ``timeout`` is the seconds
    for one tool call (``None``: each spec's ``timeout``, else the default)."""
    dispatcher = LiveDispatcher(specs, timeout)
    bridge.dispatcher = dispatcher
    return dispatcher


# --- sources: catalog files and config files together ---------------------------------------

def is_connect_failure(problem: Problem) -> bool:
    """True for the ``error`` problem :func:`connect_servers` adds for a server that failed."""
    return (problem.severity == "error" and problem.where.startswith(f"{LIVE_ORIGIN}: server ")
            and problem.message.startswith("not connected: "))


def unread_items(problems: Iterable[Problem]) -> list[str]:
    """Where each catalog error of ``problems`` is (a tool or server the reader skipped, or tools
    registration refuses: names that sanitize alike, none of them registered), in order; a server that
    failed to connect (:func:`is_connect_failure`) is not one. ``recommend`` and ``check`` refuse a
    catalog that has any; the Tuning page says so beside its answer."""
    return [p.where for p in problems if p.severity == "error" and not is_connect_failure(p)]


def unread_count(problems: Iterable[Problem]) -> int:
    """How many items the places :func:`unread_items` gives stand for: a problem that counts a file's
    errors past the named ones (:attr:`Problem.count`) stands for that many."""
    return sum(p.count for p in problems if p.severity == "error" and not is_connect_failure(p))


def unlisted_servers(registration_problems: Iterable[Problem],
                     catalog_problems: Iterable[Problem]) -> tuple[list[str], list[str]]:
    """The servers a catalog lacks because they did not list their tools: those that failed to connect
    now (:func:`is_connect_failure`, among ``registration_problems``), and those a snapshot recorded as
    failed (``catalog_problems``), each a list of names. ``recommend`` and ``check`` refuse such a
    catalog; the Tuning page says so beside its answer."""
    failed = [p.where.split("server ", 1)[1] for p in registration_problems if is_connect_failure(p)]
    saved = [p.where.rsplit(SNAPSHOT_FAILED, 1)[1] for p in catalog_problems
             if p.severity == "warning" and SNAPSHOT_FAILED in p.where]
    return failed, saved


def unique_names(specs: Iterable[ServerSpec]) -> list[ServerSpec]:
    """Specs with repeated names renamed ``name-2``, ``name-3``… (several config files may reuse a
    name), so each live server keeps its own tools and its own dispatch target."""
    taken: set[str] = set()
    out = []
    for spec in specs:
        name, n = spec.name, 1
        while name in taken:
            n += 1
            name = f"{spec.name}-{n}"
        taken.add(name)
        out.append(spec if name == spec.name else replace(spec, name=name))
    return out


@dataclass(frozen=True)
class LoadedSources:
    """Catalog files and live config files combined (:func:`load_sources`).

    Attributes:
        catalog: everything combined, in source order.
        specs: the live servers by (unique) name, for :class:`LiveDispatcher`.
        statuses: one per live server.
        warnings: config-file warnings (``file: place: message``), those not already given to
            ``on_warning`` of :func:`load_sources`.
        connections: the open sessions when loaded with ``keep_open=True`` and a config was among
            the sources (close it when done), else ``None``.
        settings_files: the config files among the sources that also hold a
            ``tools.tool_search`` block (:attr:`McpConfig.has_tool_search`).
        config_servers: each config file among the sources with the (unique) names of its
            servers, in source order: which :attr:`statuses` came from which file.
    """

    catalog: Catalog
    specs: Mapping[str, ServerSpec]
    statuses: tuple[ServerStatus, ...]
    warnings: tuple[str, ...]
    connections: "LiveConnections | None" = None
    settings_files: tuple[str, ...] = ()
    config_servers: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def unlisted_configs(self) -> list[tuple[str, list[str]]]:
        """The config files none of whose servers listed its tools, though at least one tried and
        failed (``enabled: false`` entries are not tries), each with the names of its failed
        servers: nothing was read from such a file, as from an unreadable catalog file. A file
        where some server listed (even no tools) is not one."""
        state = {status.name: status.state for status in self.statuses}
        out = []
        for path, names in self.config_servers:
            failed = [name for name in names if state.get(name) == "failed"]
            if failed and not any(state.get(name) == "ok" for name in names):
                out.append((path, failed))
        return out

    @property
    def live(self) -> bool:
        """True when any source was an MCP client config."""
        return bool(self.statuses)

    def secret_values(self) -> list[str]:
        """Every secret of the config files' servers (:meth:`ServerSpec.secret_values`: env and
        header values, resolved ``${VAR}`` values, URL credentials…, with their encodings), longest
        first: what recorded sessions read against this catalog are scrubbed of
        (:func:`toolsearch.analysis.sessions.scrub_sessions`), as the servers' own output is."""
        return sorted(secrets_of(self.specs.values()), key=len, reverse=True)


def config_file_secrets(path: str | Path | None) -> list[str]:
    """The secrets a harness config file holds besides its ``tools.tool_search`` block: those of
    the MCP servers it configures (Hermes' ``config.yaml`` holds both: ``mcp_servers``), as
    :meth:`LoadedSources.secret_values` gives them for a config given as a catalog, and every text
    or number value under a key that names a secret anywhere in the file (a provider's ``api_key``,
    :func:`~toolsearch.engine.secrets.secret_key_name`; a value that is only ``${VAR}`` names no
    secret), and the secrets inside any other text value as an MCP config's are read
    (:func:`~toolsearch.live.mcpconfig.free_text_secrets`: a ``base_url``'s password and query
    values, a known credential shape); nothing is started. ``[]`` without ``path``, or for a file this reader cannot use (the
    commands read its settings block on their own and say what is wrong with it).
    """
    from ..engine.catalog import _parse_text, read_source_text  # noqa: PLC0415
    from ..engine.errors import ToolsearchError  # noqa: PLC0415
    from ..engine.secrets import secret_key_name  # noqa: PLC0415
    from .mcpconfig import _PLACEHOLDER, free_text_secrets, is_mcp_config, parse_config_data  # noqa: PLC0415

    if not path:
        return []
    try:
        data = _parse_text(read_source_text(Path(path)), str(path))
    except (ToolsearchError, RecursionError):
        return []
    found: set[str] = set()
    pending: list[tuple[Any, bool]] = [(data, False)]  # (value, under a key that names a secret); the reader bounds nesting
    while pending:
        value, secret = pending.pop()
        if isinstance(value, Mapping):
            pending.extend((item, secret or (isinstance(key, str) and secret_key_name(key))) for key, item in value.items())
        elif isinstance(value, list):
            pending.extend((item, secret) for item in value)
        elif secret and isinstance(value, (int, float)) and not isinstance(value, bool):
            found.add(repr(value))  # YAML reads an unquoted PIN or numeric key (api_key: 84736251) as a number
        elif secret and isinstance(value, str) and value.strip() and not _PLACEHOLDER.sub("", value).strip() == "":
            found.add(value.strip())
        elif isinstance(value, str):  # a provider's base_url with a password or a key in its query, a pasted sk-…
            found.update(v.strip() for v in free_text_secrets(value) if v.strip() and _PLACEHOLDER.sub("", v).strip())
    if is_mcp_config(data):
        try:
            servers = parse_config_data(data, str(path), base_dir=Path(path).parent).servers
        except (ToolsearchError, RecursionError):
            servers = []
        found.update(secrets_of(servers))
    return sorted(found, key=len, reverse=True)


def config_file_servers(path: str | Path | None) -> list[str]:
    """The names of the MCP servers a harness config file configures and would start (Hermes'
    ``config.yaml``: its ``mcp_servers`` entries not ``enabled: false``), in file order; nothing is
    started. ``[]`` without ``path``, for a file that configures no server, or one this reader cannot
    use (as :func:`config_file_secrets`)."""
    from ..engine.catalog import _parse_text, read_source_text  # noqa: PLC0415
    from ..engine.errors import ToolsearchError  # noqa: PLC0415
    from .mcpconfig import is_mcp_config, parse_config_data  # noqa: PLC0415

    if not path:
        return []
    try:
        data = _parse_text(read_source_text(Path(path)), str(path))
        if not is_mcp_config(data):
            return []
        return [spec.name for spec in parse_config_data(data, str(path), base_dir=Path(path).parent).enabled]
    except (ToolsearchError, RecursionError):
        return []


def config_file_registration(path: str | Path | None) -> dict[str, tuple[bool, dict[str, Any], str | None]]:
    """Each MCP server a harness config file configures, in file order, with whether it is
    enabled, its per-server registration settings as a catalog records them
    (:meth:`~toolsearch.live.mcpconfig.ServerSpec.registration_config`: ``{"tools": {...}}`` or
    ``{}``) and why its entry cannot be used (``ServerSpec.invalid``, else ``None``); nothing is
    started. ``{}`` where :func:`config_file_servers` gives ``[]``."""
    from ..engine.catalog import _parse_text, read_source_text  # noqa: PLC0415
    from ..engine.errors import ToolsearchError  # noqa: PLC0415
    from .mcpconfig import is_mcp_config, parse_config_data  # noqa: PLC0415

    if not path:
        return {}
    try:
        data = _parse_text(read_source_text(Path(path)), str(path))
        if not is_mcp_config(data):
            return {}
        servers = parse_config_data(data, str(path), base_dir=Path(path).parent).servers
    except (ToolsearchError, RecursionError):
        return {}
    return {spec.name: (spec.enabled, spec.registration_config(), spec.invalid) for spec in servers}


def config_servers_problem(path: str | Path | None) -> str:
    """Why the servers map of the harness config file ``path`` cannot be read (``mcp_servers: [github,
    linear]``: ``config.yaml: mcp_servers must map server names to entries, got a list``), naming the
    file and the key; ``""`` when it can, when the file has no servers map, or when the file itself
    cannot be read (the settings reader says so). Nothing is started."""
    from ..engine.catalog import _parse_text, read_source_text  # noqa: PLC0415
    from ..engine.errors import ConfigError, ToolsearchError  # noqa: PLC0415
    from .mcpconfig import is_mcp_config, parse_config_data  # noqa: PLC0415

    if not path:
        return ""
    try:
        data = _parse_text(read_source_text(Path(path)), str(path))
    except (ToolsearchError, RecursionError):
        return ""
    if not is_mcp_config(data):
        return ""
    try:
        parse_config_data(data, str(path), base_dir=Path(path).parent)
    except ConfigError as exc:
        return str(exc)
    except RecursionError:
        return f"{path}: nested too deeply (or recursive) to read"
    return ""


def read_source(path: str | Path) -> tuple[str, Any]:
    """Read and parse one SOURCE file once: ``("config", McpConfig)`` for an MCP client config
    (top level ``mcpServers`` / ``servers`` as a mapping / ``mcp_servers``), else
    ``("catalog", Catalog)``.

    The text is parsed once, fast (:mod:`json` for JSON-looking text, libyaml otherwise) and the
    parsed data goes on to :func:`~toolsearch.live.mcpconfig.parse_config_data` or
    :func:`~toolsearch.engine.catalog.catalog_from_data`.

    Raises:
        CatalogError: unreadable, not UTF-8, not valid JSON/YAML, nested too deeply, or not a
            catalog shape (the message names the file and the place); also a VS Code config shape
            (``servers`` or ``mcp.servers`` as a mapping) in a file whose name does not end in
            ``.json`` / ``.jsonc`` (:data:`~toolsearch.live.mcpconfig.VSCODE_SUFFIXES`), before
            anything starts.
        ConfigError: an MCP client config that cannot be used at all.
    """
    from ..engine.catalog import _parse_text, catalog_from_data, read_source_text  # noqa: PLC0415
    from ..engine.errors import CatalogError  # noqa: PLC0415
    from .mcpconfig import (config_kind, gemini_settings_path, is_mcp_config, misplaced_vscode_config,  # noqa: PLC0415
                            parse_config_data)

    path = Path(path)
    data = _parse_text(read_source_text(path), str(path))  # within the reading limits (size, aliases, depth)
    try:
        if is_mcp_config(data):
            # a catalog is read deeper (its tools are held to the limit one by one); a config is not
            if readers.nesting_exceeds(data, readers.MAX_NESTING_DEPTH):
                raise (readers.placed_too_deep(readers.data_nesting(data), str(path), CatalogError)
                       or readers.too_deep(CatalogError, str(path)))
            problem = misplaced_vscode_config(config_kind(data), path)
            if problem:  # a YAML "catalog" mapping server names to commands: refused before anything starts
                raise CatalogError(problem)
            return "config", parse_config_data(data, str(path), base_dir=path.parent,
                                               gemini_file=gemini_settings_path(path.absolute()))
        return "catalog", catalog_from_data(data, str(path))
    except RecursionError:
        raise CatalogError(f"{path}: top level: nested too deeply (or recursive) to read") from None


def load_sources(paths: Sequence[str], *, timeout: float | None = None,
                 progress: ProgressFn | None = None, keep_open: bool = False,
                 refuse_configs: str | None = None,
                 on_warning: Callable[[str], None] | None = None) -> LoadedSources:
    """Load catalog files and connect to the servers of MCP client config files.

    A file whose top level is an MCP client config (``mcpServers`` / ``servers`` as a mapping /
    ``mcp_servers``) is connected live; the servers of all config files connect concurrently,
    in one go. Every other file is read as a catalog. Each file is read and parsed once
    (:func:`read_source`). A bad server entry is that server's failure, not an error.

    Args:
        paths: the SOURCE files.
        timeout: seconds per server for connect + listing when its entry sets none.
        progress: per-server status callback (:func:`connect_servers`).
        keep_open: keep each live server's session open after it listed
            (:attr:`LoadedSources.connections`, which the caller must close), so a later call goes
            over the session that listed (``LiveDispatcher(specs, send=connections.send)``)
            instead of starting the server again. Default: each server stops once it has listed.
        refuse_configs: when given, an MCP client config among ``paths`` is refused before any
            server starts, with this text as the reason (``check --strict``: a gate on a file from
            a pull request starts no program the file names).
        on_warning: when given, each config file's warnings go to it as soon as the file is read,
            before any server starts (a URL whose host two readers disagree on, a placeholder left
            unset), and are not repeated in :attr:`LoadedSources.warnings`.

    Raises:
        CatalogError, ConfigError: an unreadable or malformed file (names the file and place), or
            an MCP client config with ``refuse_configs``.
    """
    parts: list[Catalog | None] = []
    specs: list[ServerSpec] = []
    configs: list[str] = []
    warnings: list[str] = []
    settings_files: list[str] = []
    per_config: list[tuple[str, int]] = []
    for path in paths:
        kind, value = read_source(path)
        if kind == "config" and refuse_configs is not None:  # servers start only after this loop
            from ..engine.errors import CatalogError  # noqa: PLC0415
            raise CatalogError(f"{path}: an MCP client config, whose servers would be started (nothing was started); "
                               f"{refuse_configs}")
        if kind == "config":
            per_config.append((str(path), len(value.servers)))
            specs.extend(value.servers)
            if on_warning is None:
                warnings.extend(value.warnings)
            else:
                for warning in value.warnings:
                    on_warning(warning)
            configs.append(str(path))
            if value.has_tool_search:
                settings_files.append(str(path))
            if None not in parts:
                parts.append(None)  # where the live catalog goes
        else:
            parts.append(value)
    statuses: tuple[ServerStatus, ...] = ()
    by_name: dict[str, ServerSpec] = {}
    connections: LiveConnections | None = None
    config_servers: list[tuple[str, tuple[str, ...]]] = []
    if configs:
        unique = unique_names(specs)
        start = 0
        for path, count in per_config:  # unique_names keeps the order: each file's servers in a row
            config_servers.append((path, tuple(spec.name for spec in unique[start:start + count])))
            start += count
        name = source_stem(configs[0]) if len(configs) == 1 else "live servers"
        if keep_open:
            connections = LiveConnections()
            try:
                result = connections.connect(unique, name=name, timeout=timeout, progress=progress, sources=configs)
            except BaseException:
                connections.close()
                raise
        else:
            result = connect_servers(unique, name=name, timeout=timeout, progress=progress, sources=configs)
        parts = [result.catalog if part is None else part for part in parts]
        statuses = result.statuses
        by_name = {spec.name: spec for spec in unique}
    catalogs = [part for part in parts if part is not None]
    catalog = catalogs[0] if len(catalogs) == 1 else combine(catalogs)
    return LoadedSources(catalog=catalog, specs=by_name, statuses=statuses, warnings=tuple(warnings),
                         connections=connections, settings_files=tuple(settings_files),
                         config_servers=tuple(config_servers))


def snapshot_data(result: LiveResult, configs: Sequence[str] = ()) -> dict[str, Any]:
    """The catalog file data for a live result (DESIGN "Catalog file format"), with a
    ``snapshot`` block naming the config files and the servers that failed (reasons are
    secret-free). Env values and headers are never part of it."""
    from ..engine.catalog import catalog_to_data  # noqa: PLC0415

    data = catalog_to_data(result.catalog)
    block: dict[str, Any] = {"configs": [str(c) for c in configs] or list(result.catalog.sources)}
    failed = {s.name: s.reason for s in result.statuses if s.state == "failed"}
    if failed:
        block["failed"] = failed
    skipped = [s.name for s in result.statuses if s.state == "skipped"]
    if skipped:
        block["skipped"] = skipped
    problems = [str(p) for p in result.catalog.problems if p.severity != "info" and not is_connect_failure(p)]
    if problems:
        block["problems"] = problems
    servers = data.pop("servers")
    return {**data, "snapshot": block, "servers": servers}


def dump_snapshot(result: LiveResult, configs: Sequence[str] = ()) -> str:
    """:func:`snapshot_data` as YAML text (:func:`toolsearch.engine.readers.dump_yaml`)."""
    from ..engine.readers import dump_yaml  # noqa: PLC0415

    return dump_yaml(snapshot_data(result, configs))


def catalog_key(catalog: Catalog) -> str:
    """A content key of a catalog (the fingerprint of exported blocks and reports, and the key of
    caches on a live catalog): the first 16 hex digits of the sha256 of the catalog in the
    catalog file format as compact JSON (keys in file order, non-ASCII kept, a value JSON has no
    form for, like a YAML date, as its text). Same servers and
    tools → same key, in any session; 3,500 tools take about 0.1 s (the YAML form took 10 s)."""
    import hashlib  # noqa: PLC0415
    import json  # noqa: PLC0415

    from ..engine.catalog import catalog_to_data  # noqa: PLC0415

    text = json.dumps(catalog_to_data(catalog), ensure_ascii=False, separators=(",", ":"), default=str)
    # a lone surrogate (a JSON file's "\ud800") has no UTF-8 form: its code is hashed as it stands
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

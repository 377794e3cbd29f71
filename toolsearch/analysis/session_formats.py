"""Readers for recorded agent sessions: every format becomes the same :class:`RawSession`.

Formats (``--format`` names), auto-detected by :func:`detect_format`:

* ``hermes-db``: a Hermes session store (``state.db``, SQLite). Opened read-only through a
  ``file:...?mode=ro`` URI, so the reader never writes, never creates the database and never
  takes a write lock; a live Hermes process keeps writing while it reads. Table ``sessions``
  gives the model, ``model_config`` (JSON text) and the token and cache counters; table
  ``messages`` the turns (``role``, ``content``, ``tool_calls`` as JSON text, ``tool_call_id``,
  ``tool_name``). Only rows with ``active = 1`` are read, in ``id`` (insertion) order; rows that
  a compaction archived (``active = 0, compacted = 1``) are counted, not read as steps; their tool
  calls are kept with the compaction (so a search repeated after it can be told).
* ``hermes-export``: what ``hermes sessions export`` writes: one JSON object per session (a
  session row plus its ``messages`` list), as JSON Lines, or one object or a list of them as JSON.
* ``trajectory``: Hermes trajectory files (ShareGPT style, JSON Lines): ``{"conversations":
  [{"from": "system"|"human"|"gpt"|"tool", "value": ...}], "model": ..., ...}``; tool calls are
  ``<tool_call>{json}</tool_call>`` in ``gpt`` turns, results ``<tool_response>{json}
  </tool_response>`` in ``tool`` turns.
* ``claude-code``: Claude Code transcripts (JSON Lines, one entry per line with ``type``,
  ``sessionId`` and a ``message`` in Anthropic shape; ``usage`` counters per assistant entry;
  ``compact_boundary`` system entries and ``isCompactSummary`` user entries for compactions).
* ``anthropic``: Anthropic Messages API ``messages`` arrays (content blocks ``tool_use``,
  ``tool_result``, and server-side tool search: ``server_tool_use`` answered by a
  ``tool_search_tool_result`` block whose ``tool_references`` name the tools found).
* ``openai``: OpenAI Chat Completions ``messages`` arrays (``tool_calls`` on assistant
  messages, ``role: tool`` results with ``tool_call_id``).

For ``anthropic`` and ``openai``, a file holds one conversation (a list of messages, or an
object with ``messages``) or several (a list of those). A malformed line, session or message
is reported as a :class:`SessionProblem` with its place and skipped; the rest loads.
"""

from __future__ import annotations

import datetime
import errno
import json
import os
import re
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence
from urllib.parse import quote

from ..engine.invisible import quoted, yaml_kind
from ..engine import readers
from ..engine.constants import CONTEXT_LENGTH_ARG_MAX
from ..engine.errors import InputLimitError, ToolsearchError
from ..engine.wording import counted

#: Every format name, in detection order for text files.
FORMATS: tuple[str, ...] = ("hermes-db", "hermes-export", "trajectory", "claude-code", "anthropic", "openai")
FORMAT_HELP: dict[str, str] = {
    "hermes-db": "Hermes session store (state.db, SQLite), opened read-only",
    "hermes-export": "hermes sessions export output (JSON Lines or JSON)",
    "trajectory": "Hermes trajectory file (ShareGPT-style JSON Lines)",
    "claude-code": "Claude Code transcript (JSON Lines)",
    "anthropic": "Anthropic Messages API messages, one array or several, server-side tool search blocks included",
    "openai": "OpenAI Chat Completions messages, one array or several",
}
SQLITE_MAGIC = b"SQLite format 3\x00"
#: The first four bytes of a SQLite write-ahead log (``state.db-wal``), in either byte order flag.
SQLITE_WAL_MAGIC = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
#: Token and cache counters read from a Hermes store or summed from Claude Code usage.
COUNTERS: tuple[str, ...] = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
                             "reasoning_tokens")
_CONTEXT_KEYS = ("context_length", "context_window", "model_context_length", "max_context_tokens")
_HERMES_JSON_PREFIX = "\x00json:"  # how the Hermes store marks structured (list/dict) content
_TOOL_CALL_TAG = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
_PLACE_SUFFIX = re.compile(r"(:[0-9]+)?(\[[0-9]+\])?$")  # ":line" and "[index]" after a file name
_TOOL_RESPONSE_TAG = re.compile(r"<tool_response>\s*(.*?)\s*</tool_response>", re.DOTALL)


class SessionSourceError(ToolsearchError):
    """A session source cannot be read at all (missing, not a session file, not a session store)."""


@dataclass(frozen=True)
class SessionProblem:
    """A part of a source that was skipped: ``where`` (file and place) and ``message``."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class _MoreProblems(SessionProblem):
    """The problem that counts the ones of a file past :data:`MAX_NAMED_PROBLEMS`."""

    count: int = 0


@dataclass(frozen=True)
class ToolUse:
    """One tool call the model made.

    Attributes:
        id: the call id that links it to its result ("" when the format has none).
        name: the tool name as the model called it.
        arguments: the arguments as recorded (a dict when they parse; else the raw value).
        server: True for a server-side tool (Anthropic ``server_tool_use``).
    """

    id: str
    name: str
    arguments: Any
    server: bool = False


@dataclass(frozen=True)
class ToolResult:
    """The result of one tool call: ``content`` as recorded (text or blocks), ``is_error`` when
    the format says (``None``: it does not)."""

    id: str
    content: Any
    is_error: bool | None = None
    name: str = ""


@dataclass(frozen=True)
class Compaction:
    """The conversation was compacted here: ``messages`` archived (0 when not known).

    ``earlier``: the tool uses of the archived messages, when the source keeps them apart from
    the active ones (a Hermes store); they are not part of the session's steps.
    """

    messages: int = 0
    earlier: tuple[ToolUse, ...] = ()


Step = ToolUse | ToolResult | Compaction


@dataclass
class RawSession:
    """One session as read, before the tool-search events are extracted.

    Attributes:
        id: the session id (or ``<file>#<n>`` when the format has none).
        origin: where it came from (``file`` or ``file:line``).
        format: one of :data:`FORMATS`.
        model: the model name when recorded.
        context_length: the model's context length in tokens when recorded, else ``None``.
        counters: token and cache counters the source records (keys from :data:`COUNTERS`).
        started_at: POSIX seconds when recorded.
        title: the session title when recorded.
        messages: messages read (active ones for a store).
        steps: tool uses, results and compactions in order.
        source: the file (or upload, or ``-``) it was read from, set when that file is done;
            ``""`` until then. Problems found later are counted per source.
        parent_id, ended_by_compression: a Hermes export's ``parent_session_id`` and whether its
            ``end_reason`` is ``compression`` (what ties a conversation Hermes split at a compression
            together, see :func:`_continuation_roots`).
    """

    id: str
    origin: str
    format: str
    model: str | None = None
    context_length: int | None = None
    counters: dict[str, int] = field(default_factory=dict)
    started_at: float | None = None
    title: str | None = None
    messages: int = 0
    steps: list[Step] = field(default_factory=list)
    source: str = ""
    parent_id: str | None = None
    ended_by_compression: bool = False


@dataclass
class ReadResult:
    """Sessions read from sources, with the problems skipped along the way."""

    sessions: list[RawSession] = field(default_factory=list)
    problems: list[SessionProblem] = field(default_factory=list)


Progress = Callable[[int, int | None], None]  # (sessions read so far, total when known)

#: Problems named one by one for one session file; past them, one line counts the rest. A file of
#: two million lines that are not JSON printed two million lines and held a gigabyte. The cap of
#: catalog files and MCP client configs too: one rule for every input file.
from ..engine.catalog import MAX_NAMED_PROBLEMS  # noqa: E402


def name_first_problems(out: ReadResult, start: int, origin: str) -> None:
    """Keep the first :data:`MAX_NAMED_PROBLEMS` of the problems added since ``start`` (one file's)
    and one more that counts the others; the sessions read from ``origin`` get it as their
    :attr:`RawSession.source` (a session read already keeps the first)."""
    for session in reversed(out.sessions):
        if session.source:
            break
        session.source = origin
    added = out.problems[start:]
    if len(added) <= MAX_NAMED_PROBLEMS + 1:
        return
    del out.problems[start:]
    out.problems.extend(capped_problems(added, origin))


def capped_problems(problems: Sequence[SessionProblem], origin: str) -> list[SessionProblem]:
    """The first :data:`MAX_NAMED_PROBLEMS` of one file's ``problems`` and, past them, one more
    that counts the others (a count line already among them is added in); ``problems`` as they
    are when there are not more than that."""
    if len(problems) <= MAX_NAMED_PROBLEMS + 1:
        return list(problems)
    named = [p for p in problems if not isinstance(p, _MoreProblems)]
    total = len(named) + sum(p.count for p in problems if isinstance(p, _MoreProblems))
    return named[:MAX_NAMED_PROBLEMS] + [_more_problems(origin, total - MAX_NAMED_PROBLEMS)]


def _more_problems(origin: str, count: int) -> SessionProblem:
    return _MoreProblems(origin, f"{count:,} more parts skipped (lines, sessions, messages or calls that cannot "
                                 f"be read); only the first {MAX_NAMED_PROBLEMS} are named", count=count)


# --- detection --------------------------------------------------------------------------------

def detect_format(path: str | Path) -> str:
    """The format of a session file, from its first bytes and first JSON value.

    An empty file (no byte, or only blanks) is :data:`EMPTY_FILE_FORMAT`: ``hermes sessions export``
    writes one for a store that holds no session, and it reads as no session, as that store does.

    Raises:
        SessionSourceError: the file cannot be read or is none of :data:`FORMATS`.
    """
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as exc:
        raise SessionSourceError(f"{path}: cannot read the session file ({exc.strerror or exc})") from None
    if head.startswith(SQLITE_MAGIC):
        return "hermes-db"
    refuse_wal(head, str(path), "give the store itself (state.db): its -wal file is read with it")
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff").strip()
    if not text:
        # what `hermes sessions export` writes for a store with no session: zero lines of JSON Lines
        return EMPTY_FILE_FORMAT
    first = _first_json_value(text)
    if first is None and len(head) == SNIFF_BYTES:
        # the first line is longer than the sniffed head: a Hermes export whose newest session
        # holds a long tool result, say. Its whole first line tells the format.
        first = _first_json_value(_first_line(path).decode("utf-8", errors="replace").lstrip("\ufeff").strip())
    if first is _TooDeep:
        raise readers.too_deep(SessionSourceError, str(path))
    fmt = _format_of(first) or _later_line_format(text)
    if fmt is None:
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:  # bad bytes, not a character cut off by the sniffing window
            if exc.end < len(head) or len(head) < SNIFF_BYTES:
                readers.decode_bytes(head, str(path), SessionSourceError, _expected_text(Path(path)))  # names the line and column
        raise SessionSourceError(f"{path}: not a recognised session format; expected one of "
                                 f"{', '.join(FORMATS)} (use --format to say which)")
    return fmt


#: The format of an empty session file: what ``hermes sessions export`` writes for a store with no
#: session (zero lines). An empty file in a JSON Lines format (this one, ``trajectory``,
#: ``claude-code``) holds no session; one given as ``anthropic`` or ``openai`` (a JSON document) is refused.
EMPTY_FILE_FORMAT = "hermes-export"

#: Bytes of a session file read to tell its format; a first line longer than that is read whole
#: (up to the input size limit) when the head alone does not tell.
SNIFF_BYTES = 64 * 1024


def _first_line(path: Path) -> bytes:
    """The first line of ``path`` (without its line break), read up to the input size limit."""
    chunks: list[bytes] = []
    size = 0
    try:
        with path.open("rb") as fh:
            while size < readers.MAX_INPUT_BYTES:
                chunk = fh.read(1024 * 1024)
                if not chunk:
                    break
                end = chunk.find(b"\n")
                chunks.append(chunk if end < 0 else chunk[:end])
                size += len(chunks[-1])
                if end >= 0:
                    break
    except OSError as exc:
        raise SessionSourceError(f"{path}: cannot read the session file ({exc.strerror or exc})") from None
    return b"".join(chunks)[:readers.MAX_INPUT_BYTES]


def refuse_wal(head: bytes, origin: str, what_to_do: str) -> None:
    """Refuse a SQLite write-ahead log (``state.db-wal``) given in place of its store, saying so
    (its bytes would otherwise be called "not a recognised session format" or "not UTF-8").

    Raises:
        SessionSourceError: ``head`` starts like a write-ahead log.
    """
    if head[:4] in SQLITE_WAL_MAGIC:
        raise SessionSourceError(f"{origin}: a SQLite write-ahead log (the -wal file beside a store), not a session "
                                 f"store; {what_to_do}")


def _first_json_value(text: str) -> Any:
    """The first JSON value of ``text`` (:class:`_TooDeep` when it nests past Python's parser)."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    except RecursionError:
        return _TooDeep
    line = json_lines(text)[0].strip() if text else ""
    try:
        return json.loads(line)
    except ValueError:
        pass
    except RecursionError:
        return _TooDeep
    try:  # a JSON document longer than the sniffed head: decode its first value
        return json.JSONDecoder().raw_decode(text)[0]
    except ValueError:
        return _PartialArray if text.startswith("[") else None
    except RecursionError:
        return _TooDeep


#: Lines of a JSON Lines head tried after a first line that tells no format (cut off, not JSON, not an
#: entry of any format) before the file is called no session format.
SNIFF_LINES = 100


def _later_line_format(text: str) -> str | None:
    """The format of JSON Lines ``text`` told by the first of its next :data:`SNIFF_LINES` lines that
    is an object of a known format, when its first line tells none; ``None`` when none does (or
    ``text`` is one line). The reader then skips the lines before it with a word, as with
    ``--format``: one bad line does not take down the file's sessions."""
    for line in json_lines(text)[1:SNIFF_LINES + 1]:
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or a line cut off by the sniffing window
            continue
        fmt = _format_of(value) if isinstance(value, dict) else None  # a stray list is no line's shape
        if fmt is not None:
            return fmt
    return None


class _TooDeep:  # the sniffed head nests deeper than the JSON parser goes
    pass


class _PartialArray:  # a JSON array cut off by the sniffing window
    pass


def _format_of(value: Any) -> str | None:
    if value is _PartialArray:
        return "openai"  # refined on the full parse by _conversation_format
    if isinstance(value, list):
        if not value:
            return "openai"
        if isinstance(value[0], list):
            return _messages_format(value[0])
        if isinstance(value[0], dict) and ("messages" in value[0] or "conversations" in value[0]):
            return _format_of(value[0])
        return _messages_format(value)
    if not isinstance(value, dict):
        return None
    if "conversations" in value:
        return "trajectory"
    if "sessionId" in value or value.get("type") in ("summary", "file-history-snapshot") or (
            "message" in value and value.get("type") in ("user", "assistant", "system")):
        return "claude-code"
    if isinstance(value.get("messages"), list):
        if "id" in value and ("source" in value or "started_at" in value or "message_count" in value):
            return "hermes-export"
        return _messages_format(value["messages"])
    return None


def _messages_format(messages: Sequence[Any]) -> str:
    """``anthropic`` when any message has content blocks of Anthropic tool types, else ``openai``."""
    for message in messages:
        if not isinstance(message, dict):
            continue
        if message.get("tool_calls") or message.get("role") == "tool":
            return "openai"
        content = message.get("content")
        if isinstance(content, list) and any(isinstance(b, dict) and isinstance(b.get("type"), str) and b["type"] in _ANTHROPIC_BLOCKS
                                             for b in content):
            return "anthropic"
    return "openai"


_ANTHROPIC_BLOCKS = {"tool_use", "tool_result", "server_tool_use", "tool_search_tool_result"}


# --- entry point ------------------------------------------------------------------------------

def not_a_session_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a session file (``a folder; expected a session file``,
    ``a symbolic link that loops …``), or ``None`` for a regular file. ``Path.exists`` answers
    ``False`` for a link that loops and for a folder it may not enter, which read as "no such file"."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return ("a symbolic link that loops (it leads back to itself, directly or through other links); "
                    "expected a session file")
        if exc.errno == errno.EACCES:
            return "not readable (permission denied on the file or a folder on its way)"
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = ""
            return f"a symbolic link to {quoted(target)}, which does not exist; expected a session file"
        return "no such session file"
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "a folder; expected a session file"
    return "not a regular file (a pipe, a device or a socket); expected a session file"


def read_sessions(paths: Iterable[str | Path], fmt: str | None = None, progress: Progress | None = None) -> ReadResult:
    """Read every session of every source.

    Args:
        paths: session files (a Hermes ``state.db``, exports, trajectories, transcripts, message
            arrays); ``-`` is standard input (a file's text, not a store).
        fmt: one of :data:`FORMATS` for every path; ``None`` detects per file.
        progress: called with (sessions read so far, total or ``None``) while reading.

    Returns:
        A :class:`ReadResult`; sessions in source order, and within a source oldest first (a store and
        a Hermes export: by start time, then id, :func:`start_order`; a Claude Code transcript: by its
        entries' timestamps, the same start in the file's order, and the file's order when a session
        has none (:func:`_read_claude_code`); the other formats record no start time that is read, so
        their sessions keep the file's order).

    Raises:
        SessionSourceError: a source cannot be read at all, or ``fmt`` is unknown.
    """
    if fmt is not None and fmt not in FORMATS:
        raise SessionSourceError(f"unknown session format {quoted(fmt)}: expected one of {', '.join(FORMATS)}")
    out = ReadResult()
    for path in paths:
        if str(path) == readers.STDIN_NAME:  # standard input: a session file's text, never a store
            if fmt == "hermes-db":
                raise SessionSourceError("-: a Hermes session store is read where it is, not from standard input; "
                                         "give its path (state.db)")
            data = readers.read_bytes(readers.STDIN_NAME, SessionSourceError, "the session file")
            if data.startswith(SQLITE_MAGIC):
                raise SessionSourceError("-: standard input holds a SQLite session store; give the store's path "
                                         "instead (a store is read where it is)")
            read_text(decode_text(data, readers.STDIN_NAME, out), readers.STDIN_NAME, fmt, out, progress)
            continue
        path = Path(path)
        unreadable = not_a_session_file(path)
        if unreadable:
            raise SessionSourceError(f"{path}: {unreadable}")
        kind = fmt or detect_format(path)
        if kind == "hermes-db":
            start = len(out.problems)
            try:
                read_hermes_db(path, out, progress)
            finally:
                name_first_problems(out, start, str(path))
            continue
        data = readers.read_bytes(path, SessionSourceError, "the session file")
        if data.startswith(SQLITE_MAGIC):  # --format named a text format for a store
            raise SessionSourceError(f"{path}: a SQLite session store, not a file in the {kind} format; read it as hermes-db "
                                     "(leave out --format, or give --format hermes-db)")
        start = len(out.problems)
        try:
            read_text(decode_text(data, str(path), out, _expected_text(path)), str(path), kind, out, progress)
        finally:
            name_first_problems(out, start, str(path))
    return out


#: Names a SQLite store goes by (Hermes' ``state.db``): a file so named that is not one is told so.
_STORE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def _expected_text(path: Path) -> str:
    """What a session file that is not UTF-8 text should have been, for its error: a file named like
    a SQLite store (``state.db``) is told it lacks SQLite's header, rather than to save it as UTF-8."""
    if path.suffix.lower() in _STORE_SUFFIXES:
        return ("not a SQLite session store either (it does not start with SQLite's header): "
                "give a Hermes state.db, or a session export saved as UTF-8")
    return "save the file as UTF-8"


def read_text(text: str, origin: str, fmt: str | None = None, out: ReadResult | None = None,
              progress: Progress | None = None) -> ReadResult:
    """Read sessions from the text of one file (an upload, say); ``fmt`` ``None`` detects it.

    Raises:
        SessionSourceError: the text is none of the formats (or ``hermes-db``, which is binary).
    """
    out = out if out is not None else ReadResult()
    start = len(out.problems)
    try:
        return _read_text(text, origin, fmt, out, progress)
    finally:
        name_first_problems(out, start, origin)


def _read_text(text: str, origin: str, fmt: str | None, out: ReadResult, progress: Progress | None) -> ReadResult:
    text = text.lstrip("\ufeff")
    if not text.strip():  # an export of a store with no session: no session, as the store itself reads
        if fmt in ("anthropic", "openai"):
            raise SessionSourceError(f"{origin}: the file is empty; expected a messages array (JSON) for the {fmt} "
                                     "format")
        if fmt == "hermes-db":
            raise SessionSourceError(f"{origin}: a Hermes session store is a SQLite file; give its path")
        return out
    if fmt is None:
        stripped = text.strip()
        first = _first_json_value(stripped)
        if first is _TooDeep:
            raise readers.too_deep(SessionSourceError, origin)
        fmt = _format_of(first) or _later_line_format(stripped)
        if fmt is None:
            raise SessionSourceError(f"{origin}: not a recognised session format; expected one of "
                                     f"{', '.join(FORMATS[1:])}")
    if fmt == "hermes-db":
        raise SessionSourceError(f"{origin}: a Hermes session store is a SQLite file; give its path")
    before = len(out.sessions)
    if fmt == "claude-code":
        _read_claude_code(text, origin, out)
    else:
        for where, value in _json_values(text, origin, out):
            _read_value(value, where, fmt, out)
            if progress:
                progress(len(out.sessions), None)
    if fmt == "hermes-export":  # a conversation split at compressions is one session, as in the store
        # oldest first, as the store is read (Hermes exports newest first)
        out.sessions[before:] = sorted(_merge_export_continuations(out.sessions[before:]), key=start_order)
    if fmt in ("anthropic", "openai") and len(out.sessions) == before and not out.problems:
        raise SessionSourceError(f"{origin}: no conversation found; expected a messages array")
    return out


#: Where a JSON Lines file breaks lines: ``\n``, ``\r\n`` or ``\r``, never inside a value. (``str.splitlines``
#: also breaks at U+2028, U+2029 and U+0085, which JSON allows unescaped inside a string, and which
#: ``json.dumps(..., ensure_ascii=False)`` writes so.)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def json_lines(text: str) -> list[str]:
    """The lines of a JSON Lines text (see :data:`_LINE_BREAK`)."""
    return _LINE_BREAK.split(text)


def decode_text(data: bytes, origin: str, out: ReadResult, expected: str = "save the file as UTF-8") -> str:
    """The UTF-8 text of a session file's bytes.

    In a JSON Lines file (more than one line, the first a JSON value on its own) a line that is
    not UTF-8 is reported in ``out.problems`` with its place and left out (as a blank line, so the
    other lines keep their numbers); the rest is read. Any other text that is not UTF-8 is refused.

    Raises:
        SessionSourceError: not UTF-8 (outside JSON Lines; the message ends with ``expected``), or
            over the size limit.
    """
    try:
        return readers.decode_bytes(data, origin, SessionSourceError, expected)
    except InputLimitError:
        raise
    except SessionSourceError as refused:
        lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
        filled = [line for line in lines if line.strip()]
        try:
            first = json.loads(filled[0].decode("utf-8", "replace")) if len(filled) > 1 else None
        except (ValueError, RecursionError):
            first = None
        if not isinstance(first, (dict, list)):
            raise refused from None
        kept = []
        for number, line in enumerate(lines, 1):
            try:
                kept.append(line.decode("utf-8"))
            except UnicodeDecodeError as exc:
                bad = line[exc.start:exc.end].hex(" ")
                out.problems.append(SessionProblem(f"{origin}:{number}", f"column {exc.start + 1}: not UTF-8 text "
                                                   f"(byte 0x{bad}); line skipped"))
                kept.append("")
        return "\n".join(kept)


def _json_values(text: str, origin: str, out: ReadResult) -> Iterator[tuple[str, Any]]:
    """The whole text as one JSON value, else one value per non-blank line (JSON Lines); a bad
    line is reported and skipped."""
    readers.check_size(len(text), origin, SessionSourceError)
    try:
        whole = json.loads(text, **readers.RECORDED_JSON)
    except RecursionError:
        raise readers.limit_error(SessionSourceError, f"{origin}: top level: nested more than "
                                  f"{readers.MAX_NESTING_DEPTH} levels deep (limit); not read") from None
    except ValueError as exc:
        whole_error = exc
    else:
        yield origin, readers.check_depth(whole, origin, SessionSourceError)
        return
    lines = json_lines(text)
    if len([ln for ln in lines if ln.strip()]) <= 1:
        out.problems.append(SessionProblem(origin, f"not valid JSON ({whole_error})"))
        return
    unnamed = 0  # lines skipped past MAX_NAMED_PROBLEMS: counted, not named (nor held)
    base = len(out.problems)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{origin}:{number}"
        try:
            value = readers.load_json_line(line, where, SessionSourceError)
        except (ValueError, InputLimitError) as exc:
            if len(out.problems) - base >= MAX_NAMED_PROBLEMS:
                unnamed += 1
            elif isinstance(exc, InputLimitError):
                out.problems.append(SessionProblem(where, f"{str(exc).removeprefix(where + ': ')}; line skipped"))
            else:
                out.problems.append(SessionProblem(where, f"not valid JSON ({exc.msg}); line skipped"))
            continue
        yield where, value
    if unnamed:
        out.problems.append(_more_problems(origin, unnamed))


def _read_value(value: Any, where: str, fmt: str, out: ReadResult) -> None:
    if fmt == "hermes-export":
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            place = where if len(items) == 1 else f"{where}[{i}]"
            try:
                kept_notes: list[SessionProblem] = []
                out.sessions.append(_hermes_export_session(item, place, kept_notes))
                out.problems.extend(kept_notes)
            except _Bad as exc:
                out.problems.append(SessionProblem(place, f"{exc}; session skipped"))
        return
    if fmt == "trajectory":
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            place = where if len(items) == 1 else f"{where}[{i}]"
            try:
                trajectory_notes: list[SessionProblem] = []
                out.sessions.append(_trajectory_session(item, place, trajectory_notes))
                out.problems.extend(trajectory_notes)
            except _Bad as exc:
                out.problems.append(SessionProblem(place, f"{exc}; session skipped"))
        return
    # anthropic / openai: one conversation or a list of them
    conversations: list[tuple[str, Any]]
    if isinstance(value, list) and value and any(_is_conversation(v) for v in value) and \
            not any(isinstance(v, dict) and "role" in v for v in value):
        conversations = [(f"{where}[{i}]", v) for i, v in enumerate(value)]
    else:
        conversations = [(where, value)]
    for place, conv in conversations:
        try:
            notes: list[SessionProblem] = []
            out.sessions.append(_messages_session(conv, place, fmt, len(out.sessions), notes))
            out.problems.extend(notes)
        except _Bad as exc:
            out.problems.append(SessionProblem(place, f"{exc}; conversation skipped"))


def _is_conversation(value: Any) -> bool:
    """A list of messages, or an object with ``messages`` (not a single message)."""
    return isinstance(value, list) or (isinstance(value, dict) and "messages" in value)


class _Bad(Exception):
    """A session that cannot be used (the message says why)."""


# --- Hermes store -----------------------------------------------------------------------------

def _ro_uri(path: Path, immutable: bool = False) -> str:
    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")


def _fingerprint(path: Path) -> tuple[int, int, bool, bool]:
    """(size, mtime) of the database file and whether its ``-wal`` / ``-shm`` files exist."""
    st = path.stat()
    return (st.st_size, st.st_mtime_ns, Path(f"{path}-wal").exists(), Path(f"{path}-shm").exists())


def _is_wal(path: Path) -> bool:
    with path.open("rb") as fh:
        header = fh.read(20)
    return len(header) == 20 and header[18] == 2 and header[19] == 2


def read_hermes_db(path: str | Path, out: ReadResult | None = None, progress: Progress | None = None) -> ReadResult:
    """Read a Hermes ``state.db`` read-only (active messages only, in order).

    How it stays read-only: the database is opened through a ``file:...?mode=ro`` URI with
    ``PRAGMA query_only``, so nothing is ever written and no write lock is taken; in WAL mode a
    reader never blocks Hermes' writer. A WAL store *at rest* (no ``-wal``/``-shm`` files: no
    Hermes process has it open) is read with ``immutable=1`` as well, because a read-only WAL
    connection would otherwise leave new ``-wal``/``-shm`` files next to it; if the file changes
    or a ``-wal`` appears during that read (Hermes started), the result is discarded and the store
    is read again through the ordinary locked read-only path.

    Messages are streamed per session. At most :data:`MAX_STORE_SESSIONS` sessions are read, the
    newest; past it the older ones are left out and a problem says how many.

    Raises:
        SessionSourceError: not a SQLite database, or it has no ``sessions``/``messages`` tables.
    """
    path = Path(path)
    out = out if out is not None else ReadResult()
    try:
        at_rest = _is_wal(path) and not any(_fingerprint(path)[2:])
        before = _fingerprint(path)
    except OSError as exc:
        raise SessionSourceError(f"{path}: cannot read the session store ({exc.strerror or exc})") from None
    if at_rest:
        attempt = ReadResult()
        _read_db(path, attempt, progress, immutable=True)
        if _fingerprint(path) == before:
            out.sessions.extend(attempt.sessions)
            out.problems.extend(attempt.problems)
            return out
    _read_db(path, out, progress, immutable=False)
    return out


#: SQLite virtual-machine steps between two returns to Python while a statement runs (a few
#: milliseconds), so a signal is acted on promptly.
PROGRESS_STEPS = 10_000


def _let_signals_in() -> int:
    """The progress hook: running it lets Python act on a pending signal (Ctrl-C, SIGTERM), whose
    exception makes SQLite interrupt the statement; ``0`` lets the statement go on otherwise."""
    return 0


def _read_db(path: Path, out: ReadResult, progress: Progress | None, immutable: bool) -> None:
    origin = str(path)
    try:
        conn = sqlite3.connect(_ro_uri(path, immutable), uri=True, timeout=5.0, check_same_thread=False)
    except sqlite3.Error as exc:
        raise SessionSourceError(f"{origin}: cannot open the session store read-only ({exc})") from None
    try:
        conn.execute("PRAGMA query_only = ON")
        # SQLite runs one statement (the sort of a large store, say) without returning to Python,
        # so Ctrl-C and SIGTERM waited for it. This hook returns to Python every few thousand
        # steps: a signal's exception then ends the statement as "interrupted" (raised again below).
        conn.set_progress_handler(_let_signals_in, PROGRESS_STEPS)
        not_utf8 = [0]

        def text(data: bytes) -> str:  # one cell that is not UTF-8 cost the whole store before
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                not_utf8[0] += 1
                return data.decode("utf-8", "replace")

        conn.text_factory = text
        try:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
            message_columns = {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):  # SQLITE_BUSY after the timeout: another process holds a write lock
                raise SessionSourceError(f"{origin}: the session store stayed locked by another process for 5 s "
                                         "(a write in progress); try again") from None
            raise SessionSourceError(f"{origin}: not a readable SQLite database ({exc})") from None
        except sqlite3.DatabaseError as exc:
            raise SessionSourceError(f"{origin}: not a readable SQLite database ({exc})") from None
        # SQLite names are case-insensitive (ASCII), so a view named "SESSIONS" is what "FROM sessions" reads
        kinds = {name.lower(): (name, kind) for name, kind in conn.execute(
            "SELECT name, type FROM sqlite_master WHERE lower(name) IN ('sessions', 'messages')")}
        for name in ("sessions", "messages"):  # a view can hold any query, one that never ends too
            written, kind = kinds.get(name, (name, "table"))
            if kind != "table":
                raise SessionSourceError(f"{origin}: not a Hermes session store: {quoted(written)} is a {kind}; "
                                         "expected tables 'sessions' and 'messages'")
        for name in ("sessions", "messages"):
            computed = _computed_when_read(conn, kinds.get(name, (name, "table"))[0])
            if computed:  # SQLite works it out on every read: a 16 KB store can ask for minutes of it
                raise SessionSourceError(f"{origin}: not a Hermes session store: {computed}; expected tables "
                                         "'sessions' and 'messages' that store their values")
        missing = [c for c in ("id",) if c not in columns] + [c for c in ("session_id", "role") if c not in message_columns]
        if not columns or not message_columns or missing:
            raise SessionSourceError(f"{origin}: not a Hermes session store: expected tables 'sessions' and "
                                     "'messages' (with id, session_id, role)")
        version_note = _schema_version_note(conn, origin)
        if version_note is not None:
            out.problems.append(version_note)
        if "tool_calls" not in message_columns and conn.execute(
                "SELECT 1 FROM messages WHERE role = 'tool' LIMIT 1").fetchone():
            # tool results but no calls to read: it read as no tool use at all, without a word
            out.problems.append(SessionProblem(origin, "table 'messages' has no 'tool_calls' column (another Hermes "
                                                       "schema): the store holds tool results, but no tool call "
                                                       "is read from it"))
        _read_store(conn, origin, columns, message_columns, out, progress)
        if not_utf8[0]:
            cells = f"{not_utf8[0]:,} text {'cell is' if not_utf8[0] == 1 else 'cells are'}"
            out.problems.append(SessionProblem(origin, f"{cells} not UTF-8: read with � in place of the bytes "
                                                       "that are not"))
    except sqlite3.OperationalError as exc:
        if str(exc) == "interrupted":  # only a signal's exception in the hook interrupts a statement
            raise KeyboardInterrupt from None
        raise SessionSourceError(f"{origin}: the session store cannot be read ({exc})") from None
    except sqlite3.DatabaseError as exc:
        raise SessionSourceError(f"{origin}: the session store cannot be read ({exc})") from None
    finally:
        conn.close()


def _computed_when_read(conn: sqlite3.Connection, table: str) -> str:
    """Why ``table`` computes its values when it is read (a virtual table, or a column generated
    ``VIRTUAL``, such as ``hex(zeroblob(200000000))``: seconds of work and hundreds of MB per row),
    or ``""`` when it stores them, as Hermes' own tables do."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    if row and isinstance(row[0], str) and re.match(r"\s*CREATE\s+VIRTUAL\s+TABLE", row[0], re.IGNORECASE):
        return f"{quoted(table)} is a virtual table"
    generated = [info[1] for info in conn.execute(f"PRAGMA table_xinfo({_sql_name(table)})") if info[6] == 2]
    if generated:
        return f"{quoted(table)} computes column {quoted(generated[0])} when read (a generated column)"
    return ""


def _sql_name(name: str) -> str:
    """``name`` quoted as an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


#: The newest Hermes store schema (its ``schema_version`` table) this reader was checked against:
#: hermes-agent 0.19.0 writes 22. Older stores lack some columns, which the reader allows for.
HERMES_SCHEMA_VERSION_KNOWN = 22


def _schema_version_note(conn: sqlite3.Connection, origin: str) -> SessionProblem | None:
    """A problem when the store's ``schema_version`` is newer than :data:`HERMES_SCHEMA_VERSION_KNOWN`
    or not a version number: the store is still read by the columns this reader knows, but what a
    newer Hermes keeps elsewhere is not, and that should not pass without a word. ``None`` for a
    known version, or a store without the table (only a table is read: a view can run any query)."""
    kind = conn.execute("SELECT type FROM sqlite_master WHERE lower(name) = 'schema_version'").fetchone()
    if kind is None or kind[0] != "table":
        return None
    rows = conn.execute("SELECT version FROM schema_version LIMIT 2").fetchall()
    where = f"{origin}: table 'schema_version'"
    if len(rows) == 1 and isinstance(rows[0][0], int) and not isinstance(rows[0][0], bool):
        version = rows[0][0]
        if version <= HERMES_SCHEMA_VERSION_KNOWN:
            return None
        return SessionProblem(where, f"version {version:,}, newer than the Hermes store schema this reader knows "
                                     f"(up to {HERMES_SCHEMA_VERSION_KNOWN}); read by the columns it knows, so "
                                     "what a newer Hermes records elsewhere is not read")
    value = rows[0][0] if len(rows) == 1 else None
    got = ("no row" if not rows else "more than one row" if len(rows) > 1
           else quoted(value if len(value) <= 40 else value[:39] + "…") if isinstance(value, str)
           else "an empty cell" if value is None else "a blob" if isinstance(value, bytes) else _a_json_type(value))
    return SessionProblem(where, f"expected one version number, got {got}; the store is read by the columns "
                                 f"of the schema this reader knows (up to {HERMES_SCHEMA_VERSION_KNOWN})")


def _archived_tool_uses(conn: sqlite3.Connection, message_columns: set[str], kept: str = "1") -> dict[str, list[ToolUse]]:
    """``{session id: tool uses}`` of the assistant messages a compaction archived, in order
    (unreadable calls are left out: the archived part is only looked at, not reported on), for
    the messages SQL condition ``kept`` selects."""
    if "tool_calls" not in message_columns:
        return {}
    order = "session_id, id" if "id" in message_columns else "session_id, rowid"
    out: dict[str, list[ToolUse]] = {}
    held: dict[str, int] = {}  # bytes read per session: past MAX_SESSION_BYTES, the rest is not looked at
    size = _cell_bytes("tool_calls")
    for sid, calls, n in conn.execute(f"SELECT {_id_cell('session_id')}, {_within_limit('tool_calls')}, {size} FROM messages "
                                      f"WHERE active = 0 AND compacted = 1 AND role = 'assistant' AND {kept} "
                                      f"AND tool_calls IS NOT NULL ORDER BY {order}"):
        held[_cell_id(sid)] = held.get(_cell_id(sid), 0) + (n if isinstance(n, int) else 0)
        if held[_cell_id(sid)] > MAX_SESSION_BYTES:
            continue
        try:
            parsed = readers.load_embedded_json(calls) if isinstance(calls, str) and calls.strip() else None
        except ValueError:
            continue
        for call in [parsed] if isinstance(parsed, dict) else parsed if isinstance(parsed, list) else []:
            use = _openai_call(call)
            if use is not None:
                out.setdefault(_cell_id(sid), []).append(use)
    return out


def _read_store(conn: sqlite3.Connection, origin: str, columns: set[str], message_columns: set[str],
                out: ReadResult, progress: Progress | None) -> None:
    wanted = ["id", "model", "model_config", "started_at", "title", *COUNTERS]
    select = ", ".join((_within_limit(c) if c in _SESSION_TEXT_CELLS else _id_cell(c) if c == "id" else c)
                       if c in columns else f"NULL AS {c}" for c in wanted)
    select += "".join(f", {_cell_bytes(c) if c in columns else '0'}" for c in _SESSION_TEXT_CELLS)
    order = "started_at, id" if "started_at" in columns else "id"
    count = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
    kept = "1"  # the messages read: of every session, or past the limit, not of the sessions left out
    if count > MAX_STORE_SESSIONS:
        newest = "started_at DESC, id DESC" if "started_at" in columns else "id DESC"
        rows = conn.execute(f"SELECT {select} FROM sessions ORDER BY {newest} LIMIT {MAX_STORE_SESSIONS}").fetchall()
        rows.reverse()
        kept = (f"(session_id IS NULL OR session_id NOT IN (SELECT id FROM sessions WHERE id IS NOT NULL "
                f"ORDER BY {newest} LIMIT -1 OFFSET {MAX_STORE_SESSIONS}))")
        since = _number(rows[0][3]) if rows else None
        when = (f" (started before {_utc_text(since)})" if since is not None and _utc_text(since) else "")
        out.problems.append(SessionProblem(origin, f"{count:,} sessions, over the limit of {MAX_STORE_SESSIONS:,} per "
                                                   f"store: the newest {MAX_STORE_SESSIONS:,} read, the "
                                                   f"{count - MAX_STORE_SESSIONS:,} older ones{when} not read"))
    else:
        rows = conn.execute(f"SELECT {select} FROM sessions ORDER BY {order}").fetchall()
    total = len(rows)
    active = "active = 1" if "active" in message_columns else "1"
    archived: dict[str, int] = {}
    if "compacted" in message_columns and "active" in message_columns:
        for sid, n in conn.execute(f"SELECT {_id_cell('session_id')}, COUNT(*) FROM messages WHERE active = 0 AND "
                                   f"compacted = 1 AND {kept} GROUP BY session_id"):
            archived[_cell_id(sid)] = archived.get(_cell_id(sid), 0) + n
    earlier = _archived_tool_uses(conn, message_columns, kept) if archived else {}
    # Only a tool result's content is read: what the user and the model wrote is never looked at,
    # and a pasted 50 MB log should not pass through memory for nothing (its size still counts).
    mcols = [(f"CASE WHEN role = 'tool' AND {_cell_bytes(c)} <= {MAX_SESSION_BYTES} THEN {c} END AS {c}"
              if c == "content" else _within_limit(c) if c in _LONG_CELLS else _id_cell(c) if c == "session_id" else c)
             if c in message_columns else f"NULL AS {c}"
             for c in ("session_id", "id", "role", "content", "tool_calls", "tool_call_id", "tool_name")]
    mcols += [f"{_cell_bytes(c)} AS size_{c}" if c in message_columns else "0" for c in _LONG_CELLS]
    order_m = "session_id, id" if "id" in message_columns else "session_id, rowid"
    cursor = conn.execute(f"SELECT {', '.join(mcols)} FROM messages WHERE {active} AND {kept} ORDER BY {order_m}")
    by_id: dict[str, RawSession] = {}
    order_ids: list[str] = []
    no_id = sum(1 for row in rows if row[0] is None)
    if no_id:  # read as the text 'None' before, which the messages without a session_id then joined
        out.problems.append(SessionProblem(origin, f"{counted(no_id, 'row')} of 'sessions' with no id; skipped"))
    for row in rows:
        if row[0] is None:
            continue
        sid = _cell_id(row[0])
        if not _is_utf8(row[0]):
            out.problems.append(_id_problem(conn, origin, row[0], sid))
        session = RawSession(id=sid, origin=origin, format="hermes-db", model=_text(row[1]),
                             started_at=_number(row[3]), title=_text(row[4]))
        for column, size in zip(_SESSION_TEXT_CELLS, row[len(wanted):]):
            if isinstance(size, int) and size > MAX_SESSION_BYTES:
                out.problems.append(SessionProblem(f"{origin}: session {quoted(sid)}", f"its {column} is "
                                                   f"{size:,} bytes, over the "
                                                   f"{readers.size_text(MAX_SESSION_BYTES)} limit; left out"))
        config = _json_object(row[2])
        if not config and _unreadable_json(row[2]):
            out.problems.append(SessionProblem(f"{origin}: session {quoted(sid)}", "its model_config is not a JSON object; "
                                               "context length not read (the rest of the session is)"))
        session.context_length = _context_length(config, out.problems, f"{origin}: session {quoted(sid)}")
        counts = {name: _token_count(v.decode("utf-8", "replace") if isinstance(v, bytes) else v,
                                     f"{origin}: session {quoted(sid)}: {name}", out.problems)
                  for name, v in zip(COUNTERS, row[5:])}
        session.counters = {name: v for name, v in counts.items() if v}
        if archived.get(sid):
            session.steps.append(Compaction(archived[sid], tuple(earlier.get(sid, ()))))
        by_id[sid] = session
        order_ids.append(sid)
    current: str | None = None
    pending: list[Mapping[str, Any]] = []
    held = 0  # bytes of the current session's messages read so far
    over = False  # the current session went over MAX_SESSION_BYTES: its later messages are skipped

    def flush() -> None:
        session = by_id.get(current) if current is not None else None
        if session is None:
            if current is not None and pending:
                out.problems.append(SessionProblem(f"{origin}: messages of session {quoted(current)}",
                                                   "no such row in 'sessions'; messages skipped"))
            return
        _add_chat_messages(session, pending, f"{origin}: session {quoted(current)}", out)

    no_session = 0
    for sid, mid, role, content, tool_calls, tool_call_id, tool_name, *sizes in cursor:
        if sid is None:
            no_session += 1
            continue
        sid = _cell_id(sid)
        if sid != current:
            flush()
            current, pending, held, over = sid, [], 0, False
        if over:
            continue
        held += sum(size for size in sizes if isinstance(size, int))
        if held > MAX_SESSION_BYTES:
            over = True
            out.problems.append(SessionProblem(
                f"{origin}: session {quoted(sid)}: messages[{len(pending)}]",
                f"the session's messages pass {readers.size_text(MAX_SESSION_BYTES)} here (limit); "
                "this message and the rest of the session skipped"))
            continue
        pending.append({"id": mid, "role": role, "content": kept_result(_hermes_content(content)), "tool_calls": tool_calls,
                        "tool_call_id": tool_call_id, "tool_name": tool_name})
    flush()
    if no_session:
        out.problems.append(SessionProblem(origin, f"{counted(no_session, 'message')} with no session_id; skipped"))
    continued = _compression_continuations(conn, columns, by_id)
    last: dict[str, int] = {}  # per conversation, the messages of its latest part
    for i, sid in enumerate(order_ids, 1):
        root = continued.get(sid)
        if root is not None:
            _continue(by_id[root], by_id[sid], last.get(root, by_id[root].messages))
            last[root] = by_id[sid].messages
        else:
            out.sessions.append(by_id[sid])
        if progress and (i % 500 == 0 or i == total):
            progress(i, total)


def _compression_continuations(conn: sqlite3.Connection, columns: set[str],
                               by_id: Mapping[str, RawSession]) -> dict[str, str]:
    """``{continuation id: id of the session it continues}`` for a store that split a conversation at
    each compression (Hermes before in-place compaction, or ``compression.in_place: false``): the
    parent is ended with ``end_reason = 'compression'`` and a child session row named by
    ``parent_session_id`` carries on. Hermes itself shows such a chain as one conversation, so it
    is read as one session (the first one's id) with a compaction where the next part starts."""
    if not {"parent_session_id", "end_reason"} <= columns:
        return {}
    parent_of = {_cell_id(child): _cell_id(parent) for child, parent in conn.execute(
        f"SELECT {_id_cell('c.id')}, {_id_cell('c.parent_session_id')} FROM sessions c JOIN sessions p ON p.id = c.parent_session_id "
        "WHERE p.end_reason = 'compression'")}
    return _continuation_roots(parent_of, by_id)


def _merge_export_continuations(sessions: list[RawSession]) -> list[RawSession]:
    """The sessions of one ``hermes sessions export`` file with each compression continuation
    (its ``parent_session_id`` names a session of the file that ended with ``end_reason =
    'compression'``) appended to the session it continues, parts in the order they started, as
    the store reader does (:func:`_compression_continuations`): the same conversation is one
    session whether it is read from the store or from its export."""
    by_id = {s.id: s for s in sessions}
    parent_of = {s.id: s.parent_id for s in sessions
                 if s.parent_id is not None and s.parent_id in by_id and by_id[s.parent_id].ended_by_compression}
    continued = _continuation_roots(parent_of, by_id)
    if not continued:
        return sessions
    order = sorted(range(len(sessions)), key=lambda i: (sessions[i].started_at is None,
                                                        sessions[i].started_at or 0.0, sessions[i].id))
    last: dict[str, int] = {}  # per conversation, the messages of its latest part
    for i in order:
        root = continued.get(sessions[i].id)
        if root is not None:
            _continue(by_id[root], sessions[i], last.get(root, by_id[root].messages))
            last[root] = sessions[i].messages
    return [s for s in sessions if s.id not in continued]


def start_order(session: RawSession) -> tuple[bool, float, str]:
    """The order sessions are listed in, oldest first: by ``started_at``, then id, as a store is
    read (``ORDER BY started_at, id``: SQLite puts a session with no start time first)."""
    return (session.started_at is not None, session.started_at or 0.0, session.id)


def _continuation_roots(parent_of: Mapping[str, str], by_id: Mapping[str, RawSession]) -> dict[str, str]:
    """``{continuation id: id of the first part}`` from ``{child id: parent id}`` of the parts
    whose parent ended with a compression, for the parts read (``by_id``)."""
    # Each part's root, each part walked once (a chain of 30,000 parts walked from every part
    # took a minute): a part on a cycle is its own root (a cycle cannot make a root), a part
    # leading into one has the part where it enters the cycle.
    roots: dict[str, str] = {}
    for start in parent_of:
        path: list[str] = []
        at: dict[str, int] = {}
        node = start
        while node in parent_of and node not in roots and node not in at:
            at[node] = len(path)
            path.append(node)
            node = parent_of[node]
        if node in at:  # path[at[node]:] is a cycle, entered at node
            roots.update({part: part for part in path[at[node]:]})
            roots.update({part: node for part in path[:at[node]]})
        else:
            end = roots.get(node, node)
            roots.update({part: end for part in path})
    out: dict[str, str] = {}
    for child in parent_of:
        root = roots[child]
        if child in by_id and root in by_id and root != child:
            out[child] = root
    return out


def _continue(session: RawSession, part: RawSession, compressed: int) -> None:
    """Append ``part`` (a compression continuation of ``session``) to ``session``, after a
    compaction of ``compressed`` messages: those of the part before it (what that compression
    condensed, as an in-place compaction counts the messages it archives), not every message so far."""
    session.steps.append(Compaction(compressed))
    session.steps.extend(part.steps)
    session.messages += part.messages
    for name, value in part.counters.items():
        session.counters[name] = session.counters.get(name, 0) + value
    session.model = session.model or part.model
    session.context_length = session.context_length or part.context_length


#: Most sessions read from one Hermes store: the newest (by ``started_at``, then id). Every session
#: read is held in memory with its events and replayed; 200,000 sessions of ten messages took 2.6 GB
#: and 143 s to read and replay (``python -m benchmarks.sessions --sessions 200000``). The older
#: sessions past it are not read, and the store's problems say how many and from when.
MAX_STORE_SESSIONS = 50_000


def _utc_text(seconds: float) -> str:
    """``2026-03-01 14:05 UTC`` for a Unix time, ``""`` when it is not one."""
    import datetime  # noqa: PLC0415

    try:
        return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError):
        return ""


#: Most bytes of one session's messages read from a Hermes store (content and tool calls): a
#: session's active messages fit in a model's context, so this is far above any real one. A cell
#: over it never reaches Python (the query hands back NULL in its place).
MAX_SESSION_BYTES = readers.MAX_INPUT_BYTES
_LONG_CELLS = ("content", "tool_calls")
_SESSION_TEXT_CELLS = ("model", "model_config", "title")


def _cell_bytes(column: str) -> str:
    """SQL for the size of ``column``'s cell in bytes (0 for NULL)."""
    return f"coalesce(length(CAST({column} AS BLOB)), 0)"


def _within_limit(column: str) -> str:
    """SQL selecting ``column``, or NULL where its cell is over :data:`MAX_SESSION_BYTES`, so a
    hostile store's one huge cell is never loaded into memory (its size still is, see
    :func:`_cell_bytes`)."""
    return f"CASE WHEN {_cell_bytes(column)} > {MAX_SESSION_BYTES} THEN NULL ELSE {column} END AS {column}"


#: A tool result longer than this (characters) is kept only in the parts the extraction reads
#: (:func:`kept_result`): a store holds every terminal output and file read of every session, and
#: all sessions are held in memory until they are replayed.
RESULT_KEPT_CHARS = 64 * 1024
#: The keys of a JSON object result that the extraction reads (bridge answers, errors, tool references).
_RESULT_KEYS = ("error", "success", "isError", "is_error", "type", "error_code", "results", "matches",
                "not_found", "tool_references")


def kept_result(content: Any) -> Any:
    """A tool result's ``content`` as the extraction needs it (:mod:`toolsearch.analysis.sessions`
    reads success, errors, matches, ``not_found`` and tool references): a text up to
    :data:`RESULT_KEPT_CHARS` as it is; a longer one that is a JSON object reporting a failure
    whole (its text is the error shown), any other object with only the keys of
    :data:`_RESULT_KEYS` (and its ``content`` blocks that are tool references), a JSON list with
    only its tool reference blocks, and any other text (a log, a file read) as ``""``, which
    reads as a result that succeeded, as the whole text did."""
    if not isinstance(content, str) or len(content) <= RESULT_KEPT_CHARS:
        return content
    stripped = content.strip()
    if stripped[:1] not in ("{", "["):
        return ""
    try:
        data = readers.load_embedded_json(stripped)
    except ValueError:
        return ""
    if isinstance(data, list):
        return _reference_blocks(data)
    if not isinstance(data, dict):
        return ""
    if (data.get("error") or data.get("success") is False or data.get("isError") is True
            or data.get("is_error") is True or str(data.get("type", "")).endswith("_error")):
        return data
    kept = {key: data[key] for key in _RESULT_KEYS if key in data}
    if isinstance(data.get("content"), list):
        kept["content"] = _reference_blocks(data["content"])
    return kept


def _reference_blocks(blocks: list[Any]) -> list[Any]:
    return [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_reference"]


def _hermes_content(content: Any) -> Any:
    if isinstance(content, str) and content.startswith(_HERMES_JSON_PREFIX):
        try:
            return readers.load_embedded_json(content[len(_HERMES_JSON_PREFIX):])
        except ValueError:
            return content
    return content


def _json_object(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str) and value.strip():
        try:
            parsed = readers.load_embedded_json(value)
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return {}


def _unreadable_json(value: Any) -> bool:
    """A text cell that holds something but no JSON object (a store damaged by hand or by a crash)."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str) or not value.strip():
        return False
    try:
        return not isinstance(readers.load_embedded_json(value), dict)
    except ValueError:
        return True


def _context_length(config: Mapping[str, Any], notes: list[SessionProblem] | None = None,
                    where: str = "") -> int | None:
    """The context length a session recorded (the first of :data:`_CONTEXT_KEYS` that holds a
    number of tokens from 1 to ``CONTEXT_LENGTH_ARG_MAX``). When none does but one holds something
    else (``-5``, ``0``, ``"200k"``, ``1e30``), that is noted in ``notes`` under ``where``: the
    session is then read with the context length unknown."""
    refused = None
    for key in _CONTEXT_KEYS:
        value = config.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= CONTEXT_LENGTH_ARG_MAX:
            return int(value)
        if value is not None and refused is None:
            refused = key, value
    if refused is not None and notes is not None:
        key, value = refused
        shown = quoted(value) if len(quoted(value)) <= 60 else quoted(value)[:59] + "…"
        notes.append(SessionProblem(where, f"its {key} {shown} is not a number of tokens from 1 to "
                                           f"{CONTEXT_LENGTH_ARG_MAX:,}; context length not read (the rest of the "
                                           "session is)"))
    return None


def _token_count(value: Any, where: str, problems: list[SessionProblem]) -> int | None:
    """A recorded token counter as a count (``None`` when absent); a value that is not a count of
    tokens (text, a fraction, a negative number, ``true``) is named in ``problems`` and not counted.
    A whole number written as a float (``910.0``) is that count."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        value = int(value)  # 910.0: a writer that keeps every number as a float
    if value is None or (value == 0 and not isinstance(value, bool)):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        got = (f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else
               quoted(value) if isinstance(value, str) else _a_json_type(value))
        problems.append(SessionProblem(where, f"expected a count of tokens, got {got}; not counted"))
        return None
    return value


def _a_json_type(value: Any) -> str:
    """What a JSON value is, for a problem (``the number 12.5``, ``a list``, ``true``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"the number {value!r}"
    return "an object" if isinstance(value, dict) else yaml_kind(value)


def _cell_id(value: Any) -> str:
    """A session id cell as text: SQLite keeps whatever type a row was given, and a BLOB id read
    with ``str`` showed as Python's ``b'...'``. Id cells are read as bytes (:func:`_id_cell`), and
    bytes that are not UTF-8 are kept apart, each as a character U+DC80–U+DCFF (Python's
    ``surrogateescape``), which every surface shows as ``⟨\\xNN⟩``
    (:func:`toolsearch.engine.invisible.marker`): two ids that differ only there were both read as
    ``�`` before, and their sessions merged into one."""
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _id_cell(column: str) -> str:
    """SQL selecting an id ``column`` as its bytes (a number as its digits), so :func:`_cell_id`
    sees the bytes that are not UTF-8 instead of the text factory's ``�``."""
    return f"CAST({column} AS BLOB) AS {column.split('.')[-1]}"


def _is_utf8(value: Any) -> bool:
    if not isinstance(value, bytes):
        return True
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _id_problem(conn: sqlite3.Connection, origin: str, cell: bytes, sid: str) -> SessionProblem:
    """The problem for a ``sessions`` row whose id is not UTF-8 text (read apart from the others,
    shown with its bad bytes as ``⟨\\xNN⟩``), naming the store and the row by its ``rowid``."""
    try:
        found = conn.execute("SELECT rowid FROM sessions WHERE CAST(id AS BLOB) = ? LIMIT 1", (cell,)).fetchone()
        row = f"row {found[0]:,}" if found else "a row"
    except sqlite3.OperationalError:  # a table WITHOUT ROWID
        row = "a row"
    where = f"{origin}: {row} of 'sessions'"
    bad = " ".join(f"0x{ord(ch) - 0xDC00:02x}" for ch in sid if 0xDC80 <= ord(ch) <= 0xDCFF)
    return SessionProblem(where, f"its id is not UTF-8 text (byte {bad}): read as session {quoted(sid)}, each such "
                                 "byte shown as ⟨\\xNN⟩, apart from any other id")


def _text(value: Any) -> str | None:
    """A text column as text (SQLite keeps whatever type a row was given: a BLOB, a number)."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    return value if isinstance(value, str) and value else None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# --- OpenAI-shaped messages (Hermes store and export, OpenAI Chat Completions) -----------------

def _add_chat_messages(session: RawSession, messages: Sequence[Any], where: str, out: ReadResult,
                       notes: list[SessionProblem] | None = None) -> None:
    """Each message's calls and results into ``session``; a part that cannot be read goes to
    ``out.problems``, a call kept without its arguments to ``notes`` (``out.problems`` when none)."""
    for index, message in enumerate(messages):
        place = f"{where}: messages[{index}]"
        if not isinstance(message, dict):
            out.problems.append(SessionProblem(place, "expected an object with a 'role'; message skipped"))
            continue
        session.messages += 1
        role = message.get("role")
        if role == "assistant":
            calls = message.get("tool_calls")
            if isinstance(calls, str):
                try:
                    calls = readers.load_embedded_json(calls) if calls.strip() else None
                except ValueError as exc:
                    out.problems.append(SessionProblem(place, f"'tool_calls' {json_trouble(exc)}; calls skipped"))
                    calls = None
            if isinstance(calls, dict):
                calls = [calls]
            if calls is not None and not isinstance(calls, list):
                out.problems.append(SessionProblem(place, "expected 'tool_calls' as a JSON list of calls, got "
                                                          f"{yaml_kind(calls)}; calls skipped"))
                calls = None
            for j, call in enumerate(calls or []):
                use = _openai_call(call)
                if use is None:
                    out.problems.append(SessionProblem(f"{place}.tool_calls[{j}]",
                                                       "expected {id, function: {name, arguments}}; call skipped"))
                else:
                    if isinstance(use.arguments, str):  # a search without its queries, a call without its tool
                        (notes if notes is not None else out.problems).append(SessionProblem(
                            f"{place}.tool_calls[{j}]", f"'arguments' {_arguments_trouble(use.arguments)}; arguments "
                            "skipped (the call is kept)"))
                    session.steps.append(use)
        elif role == "tool":
            session.steps.append(ToolResult(str(message.get("tool_call_id") or ""), message.get("content"),
                                            None, str(message.get("tool_name") or message.get("name") or "")))


def json_trouble(exc: ValueError) -> str:
    """What :func:`readers.load_embedded_json` found wrong, as the end of a sentence about a value:
    ``is nested more than 256 levels deep (limit)`` for JSON that parses but nests past
    :data:`readers.MAX_NESTING_DEPTH` (calling it "not valid JSON" sent users looking for a typo),
    else ``is not valid JSON``."""
    if "nested more than" in str(exc):
        return f"is nested more than {readers.MAX_NESTING_DEPTH} levels deep (limit)"
    return "is not valid JSON"


def _arguments_trouble(text: str) -> str:
    """:func:`json_trouble` for a call's ``arguments`` text that was kept as text (parsed once more:
    only a call whose arguments could not be read pays for it)."""
    try:
        readers.load_embedded_json(text)
    except ValueError as exc:
        return json_trouble(exc)
    return "is not valid JSON"


def _openai_call(call: Any) -> ToolUse | None:
    if not isinstance(call, dict):
        return None
    function = call.get("function") if isinstance(call.get("function"), dict) else call
    name = function.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    return ToolUse(str(call.get("id") or call.get("call_id") or ""), name.strip(), _parse_arguments(function.get("arguments")))


def _parse_arguments(value: Any) -> Any:
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            return readers.load_embedded_json(value)
        except ValueError:
            return value
    return {} if value is None else value


def _hermes_export_session(item: Any, where: str, notes: list[SessionProblem] | None = None) -> RawSession:
    if not isinstance(item, dict) or not isinstance(item.get("messages"), list):
        raise _Bad("expected a session object with a 'messages' list")
    sid = item.get("id") or item.get("session_id")
    if not isinstance(sid, (str, int)) or not str(sid).strip():
        raise _Bad("expected the session's 'id'")
    session = RawSession(id=str(sid), origin=where, format="hermes-export",
                         model=item.get("model") if isinstance(item.get("model"), str) else None,
                         started_at=_number(item.get("started_at")),
                         title=item.get("title") if isinstance(item.get("title"), str) else None)
    parent = item.get("parent_session_id")
    session.parent_id = str(parent) if isinstance(parent, (str, int)) and str(parent).strip() else None
    session.ended_by_compression = item.get("end_reason") == "compression"
    session.context_length = _context_length(_json_object(item.get("model_config")), notes, where)
    counts = {k: _token_count(item.get(k), f"{where}: session {quoted(session.id)}: {k}",
                              notes if notes is not None else []) for k in COUNTERS}
    session.counters = {k: v for k, v in counts.items() if v}
    problems = ReadResult()
    messages = [dict(m, content=_hermes_content(m.get("content"))) if isinstance(m, dict) else m
                for m in item["messages"]]
    _add_chat_messages(session, messages, where, problems, notes)
    _keep_or_refuse(session, problems, notes)
    return session


def _keep_or_refuse(session: RawSession, problems: ReadResult, notes: list[SessionProblem] | None) -> None:
    """A session's parts that could not be read (a message, a call, a block, each said as skipped)
    go to ``notes`` and the rest of the session is kept, as the Hermes store reader keeps it; with no
    ``notes`` to hold them, or no message of the session read, the first one refuses the whole
    session (:class:`_Bad`)."""
    if not problems.problems:
        return
    if notes is None or not session.messages:
        raise _Bad(f"{problems.problems[0].message} (at {problems.problems[0].where})")
    notes.extend(problems.problems)


# --- trajectories -----------------------------------------------------------------------------

def _trajectory_session(item: Any, where: str, notes: list[SessionProblem]) -> RawSession:
    """One trajectory; a turn or a ``<tool_call>`` that cannot be read is skipped alone and noted
    in ``notes`` (a skipped call keeps its place, so later results still pair with their calls)."""
    if not isinstance(item, dict) or not isinstance(item.get("conversations"), list):
        raise _Bad("expected an object with a 'conversations' list")
    sid = item.get("id") or item.get("session_id") or where
    session = RawSession(id=str(sid), origin=where, format="trajectory",
                         model=item.get("model") if isinstance(item.get("model"), str) else None)
    counter = 0
    open_ids: list[str] = []
    for index, turn in enumerate(item["conversations"]):
        if not isinstance(turn, dict) or not isinstance(turn.get("value"), str):
            notes.append(SessionProblem(f"{where}: conversations[{index}]", "expected {from, value}; turn skipped"))
            continue
        session.messages += 1
        speaker = turn.get("from")
        value = turn["value"]
        if speaker == "gpt":
            open_ids = []
            for k, body in enumerate(_TOOL_CALL_TAG.findall(value)):
                counter += 1
                call_id = f"t{counter}"
                open_ids.append(call_id)
                try:
                    call = readers.load_embedded_json(body)
                except ValueError as exc:
                    call = None
                    problem = json_trouble(exc)
                else:
                    problem = "has no 'name'"
                if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                    notes.append(SessionProblem(f"{where}: conversations[{index}]",
                                                f"<tool_call> {k + 1} {problem}; call skipped"))
                    continue
                session.steps.append(ToolUse(call_id, call["name"], _parse_arguments(call.get("arguments"))))
        elif speaker == "tool":
            for k, body in enumerate(_TOOL_RESPONSE_TAG.findall(value)):
                try:
                    response = readers.load_embedded_json(body)
                except ValueError:
                    response = {"content": body}
                if not isinstance(response, dict):
                    response = {"content": response}
                call_id = open_ids[k] if k < len(open_ids) else f"t?{index}.{k}"
                content = response.get("content")
                if not isinstance(content, str):
                    content = json.dumps(content, ensure_ascii=False)
                session.steps.append(ToolResult(call_id, content, None, str(response.get("name") or "")))
    return session


# --- Anthropic messages -----------------------------------------------------------------------

def _messages_session(conv: Any, where: str, fmt: str, n: int, notes: list[SessionProblem] | None = None) -> RawSession:
    """One conversation; a message, call or content block that cannot be read is skipped alone and
    noted in ``notes`` (without ``notes``, it skips the conversation: :class:`_Bad`); a
    conversation that is not a list of messages is :class:`_Bad`."""
    meta: Mapping[str, Any] = {}
    if isinstance(conv, dict):
        meta, messages = conv, conv.get("messages")
    else:
        messages = conv
    if not isinstance(messages, list):
        raise _Bad("expected a list of messages (or an object with 'messages')")
    sid = meta.get("id") or meta.get("session_id") or f"{Path(_PLACE_SUFFIX.sub('', where)).name}#{n + 1}"
    session = RawSession(id=str(sid), origin=where, format=fmt,
                         model=meta.get("model") if isinstance(meta.get("model"), str) else None)
    session.context_length = _context_length(meta, notes, where)
    problems = ReadResult()
    if fmt == "openai":
        _add_chat_messages(session, messages, where, problems, notes)
    else:
        for index, message in enumerate(messages):
            if not isinstance(message, dict) or "role" not in message:
                problems.problems.append(SessionProblem(f"{where}: messages[{index}]",
                                                        "expected {role, content}; message skipped"))
                continue
            session.messages += 1
            _add_anthropic_blocks(session, message.get("content"), f"{where}: messages[{index}]", problems, notes)
    _keep_or_refuse(session, problems, notes)
    return session


def _add_anthropic_blocks(session: RawSession, content: Any, where: str, out: ReadResult,
                          notes: list[SessionProblem] | None = None) -> None:
    if not isinstance(content, list):
        return  # plain text: no tool events
    for index, block in enumerate(content):
        if not isinstance(block, dict):
            got = yaml_kind(block)
            (notes if notes is not None else out.problems).append(SessionProblem(
                f"{where}.content[{index}]", f"expected a content block object, got {got}; block skipped"))
            continue
        kind = block.get("type")
        if kind in ("tool_use", "server_tool_use"):
            name = block.get("name")
            if not isinstance(name, str) or not name:
                out.problems.append(SessionProblem(f"{where}.content[{index}]",
                                                   f"a {kind} block without a 'name'; block skipped"))
                continue
            session.steps.append(ToolUse(str(block.get("id") or ""), name, block.get("input") or {},
                                         server=kind == "server_tool_use"))
        elif kind in ("tool_result", "tool_search_tool_result"):
            session.steps.append(ToolResult(str(block.get("tool_use_id") or ""), block.get("content"),
                                            bool(block["is_error"]) if "is_error" in block else None))


# --- Claude Code ------------------------------------------------------------------------------

def _iso_seconds(value: Any) -> float | None:
    """POSIX seconds of an ISO 8601 time as Claude Code writes an entry's ``timestamp``
    (``2026-11-30T09:15:00.000Z``; one without an offset is read as UTC), else ``None`` (missing,
    not text, not such a time)."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        moment = datetime.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


@dataclass
class _Entry:
    """A Claude Code transcript entry that is part of a session: where it is, its time, and the
    steps (``session.steps[first:last]`` as read in file order) and model it gave."""

    where: str
    seconds: float | None
    first: int
    last: int
    model: str | None = None


def _read_claude_code(text: str, origin: str, out: ReadResult) -> None:
    """Claude Code transcript entries, grouped by ``sessionId``. A session's entries are taken in
    the order of their recorded ``timestamp`` (oldest first; entries of the same time in file
    order) and a session starts at its oldest entry (``started_at``); the sessions of the file are
    listed by that, oldest first (the same start: the file's order). A session with an entry whose ``timestamp`` is missing or
    unreadable keeps the file's order of its entries, and the file keeps its order of sessions when
    a session has no readable time at all; each such case is reported (:class:`SessionProblem`)."""
    sessions: dict[str, RawSession] = {}
    entries: dict[str, list[_Entry]] = {}
    for where, entry in _json_values(text, origin, out):
        items = entry if isinstance(entry, list) else [entry]
        if not items:  # a line (or file) holding an empty list: nothing to read, said so
            out.problems.append(SessionProblem(where, "an empty list holds no transcript entry; skipped"))
        for index, item in enumerate(items, 1):
            if not isinstance(item, dict):
                if isinstance(entry, list):  # each item of a list is named, not the line again
                    out.problems.append(SessionProblem(f"{where}: item {index}",
                                                       "expected a transcript entry object; item skipped"))
                else:
                    out.problems.append(SessionProblem(where, "expected a transcript entry object; line skipped"))
                continue
            raw_id = item.get("sessionId") or item.get("session_id")
            if raw_id is not None and (isinstance(raw_id, bool) or not isinstance(raw_id, (str, int))):
                # a list or an object became a session named by Python's spelling of it ("['a']")
                out.problems.append(SessionProblem(where, f"expected the sessionId as text, got "
                                                          f"{_a_json_type(raw_id)}; line skipped"))
                continue
            kind = item.get("type")
            compaction = kind == "system" and item.get("subtype") == "compact_boundary"
            if not raw_id and not compaction and kind not in ("user", "assistant"):
                continue  # a summary or snapshot that names no session carries nothing: it makes no session
            sid = str(raw_id or Path(origin).stem)
            session = sessions.get(sid)
            if session is None:
                session = sessions[sid] = RawSession(id=sid, origin=origin, format="claude-code")
                entries[sid] = []
            record = _Entry(where, _iso_seconds(item.get("timestamp")), len(session.steps), len(session.steps))
            if compaction:
                session.steps.append(Compaction())
                record.last = len(session.steps)
                entries[sid].append(record)
                continue
            message = item.get("message")
            if kind not in ("user", "assistant"):
                continue  # summaries, snapshots and other entries carry no messages
            if not isinstance(message, dict):
                got = "nothing" if message is None else yaml_kind(message)
                out.problems.append(SessionProblem(where, f"a {kind} entry whose 'message' is not an object "
                                                          f"(got {got}); entry skipped"))
                continue
            if item.get("isCompactSummary"):
                continue
            session.messages += 1
            if kind == "assistant":
                if isinstance(message.get("model"), str) and message["model"] and not message["model"].startswith("<"):
                    record.model = message["model"]
                usage = message.get("usage")
                if isinstance(usage, dict):
                    for key, name in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"),
                                      ("cache_read_input_tokens", "cache_read_tokens"),
                                      ("cache_creation_input_tokens", "cache_write_tokens")):
                        value = _token_count(usage.get(key), f"{where}.message.usage.{key}", out.problems)
                        if value:
                            session.counters[name] = session.counters.get(name, 0) + value
            _add_anthropic_blocks(session, message.get("content"), where, out)
            record.last = len(session.steps)
            entries[sid].append(record)
    for sid, session in sessions.items():
        _order_by_timestamp(session, entries[sid], origin, out)
    ordered = list(sessions.values())
    untimed = [s for s in ordered if s.started_at is None and entries[s.id]]
    if untimed and len(ordered) > 1:
        out.problems.append(SessionProblem(
            origin, f"ordering sessions by time: {counted(len(untimed), 'session')} ({quoted(untimed[0].id)}"
                    f"{' …' if len(untimed) > 1 else ''}) {'has' if len(untimed) == 1 else 'have'} no readable "
                    "timestamp; the sessions are listed in the file's order"))
    else:
        ordered.sort(key=lambda s: s.started_at or 0.0)  # stable: sessions of the same start keep the file's order
    out.sessions.extend(ordered)


def _order_by_timestamp(session: RawSession, entries: list[_Entry], origin: str, out: ReadResult) -> None:
    """``session``'s steps in the order of their entries' timestamps (stable: the file's order
    among entries of the same time), its ``started_at`` the oldest of them and its model the one
    the latest assistant entry names. With an entry whose time is missing or unreadable, the
    steps stay in the file's order (and the model is the last one in the file), and a problem
    names the session, how many entries and the first of them."""
    untimed = [e for e in entries if e.seconds is None]
    if untimed:
        model = next((e.model for e in reversed(entries) if e.model), None)
        session.model = model or session.model
        if len(entries) > 1:  # one entry has no order to keep
            out.problems.append(SessionProblem(
                f"{origin}: session {quoted(session.id)}",
                f"ordering by time: {len(untimed):,} of {counted(len(entries), 'entry', 'entries')} "
                f"{'has' if len(untimed) == 1 else 'have'} no readable timestamp (first at {untimed[0].where}); "
                "the entries are taken in the file's order"))
        return
    ordered = sorted(entries, key=lambda e: e.seconds)  # stable: the same time keeps the file's order
    if ordered != entries:
        steps = session.steps
        session.steps = [step for e in ordered for step in steps[e.first:e.last]]
    if ordered:
        session.started_at = ordered[0].seconds
    session.model = next((e.model for e in reversed(ordered) if e.model), None) or session.model

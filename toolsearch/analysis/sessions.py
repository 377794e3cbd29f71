"""Recorded sessions: what the model searched, what it then called, and what other settings or
another search would have done.

Pipeline (DESIGN.md "Data flow"): :func:`load_sessions` reads any session source
(:mod:`toolsearch.analysis.session_formats`) and extracts each session's bridge events in order
(:func:`extract`); :func:`replay` re-runs every recorded ``tool_search`` query against a catalog
with the current settings and each search variant; :func:`listing_what_if` asks, for each tool a
session called, whether the listing already named it at the session's settings and which
smallest settings would have; :func:`export_queries` turns sessions into a labeled query file for
``toolsearch eval``.

Definitions used everywhere (CLI, app, JSON):

* A *search* is one query of one ``tool_search`` call (a call with three queries is three
  searches). Claude Code's ``ToolSearch`` and Anthropic's server-side tool search
  (``server_tool_use`` named ``tool_search_tool_*``) carry one query each.
* *Called later*: the tools the same session called after that search, through ``tool_call``
  or, for harnesses that load deferred tools into the tools array (Claude Code, Anthropic tool
  search), by calling them directly.
* Outcomes per query: *empty* (no matches); *found called* (the matches contain a tool called
  later); *drift* (replayed matches differ from the recorded ones: the catalog or the engine
  changed since). The recorded outcome needs the recorded result; when the result is missing
  the query counts for replay only.
* A *round trip* is one discovery call (``tool_search`` or ``tool_describe``); *round trips per
  called tool* = discovery calls / distinct tools called through ``tool_call`` (or directly after
  a search).
"""

from __future__ import annotations

import bisect
import functools
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping, Sequence


from ..engine import constants as C
from ..engine import readers
from ..engine.bridge import clean_string_list
from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from ..engine.invisible import marker, quoted, reveal_line, yaml_kind
from ..engine.secrets import (mask_program_options, mask_token_shapes, scrub_data, scrub_text, secret_key_name,
                              secret_option_value)
from ..engine.plan import listing_budget, split_tools
from ..engine.wording import counted
from ..engine.search import gate_term_text, required_coverage, tokenize, tokenize_unicode
from .session_formats import (SQLITE_MAGIC, Compaction, Progress, RawSession, ReadResult, SessionProblem,
                              SessionSourceError, ToolResult, ToolUse, capped_problems, decode_text, json_trouble,
                              name_first_problems, read_sessions, read_text, refuse_wal)
from .quantities import form_word, length_arg, length_label
from .sweep import ListingCounts, listing_ladder, listing_max_tokens_for_budget, threshold_pct_for_budget
from .variants import DEFAULT_VARIANTS, variant_options

#: Names of the harness tool-search tools other than the bridge's own ``tool_search``.
CLAUDE_CODE_SEARCH = "ToolSearch"
SERVER_SEARCH_PREFIX = "tool_search_tool_"
#: Top failed queries kept in the aggregates.
TOP_FAILED = 20
#: Queries per exported task (``tool_search`` accepts at most this many per call).
EXPORT_MAX_QUERIES = C.MAX_QUERIES_PER_CALL


# --- events -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class QueryRecord:
    """One query of a recorded search: ``matches`` as recorded (``None`` when the result is
    missing or unreadable)."""

    query: str
    matches: tuple[str, ...] | None


@dataclass(frozen=True)
class SearchEvent:
    """A recorded search call.

    Attributes:
        step: 1-based position among the session's tool calls.
        tool: the tool the model called (``tool_search``, ``ToolSearch``, ``tool_search_tool_bm25``…).
        queries: the queries, each with its recorded matches.
        limit: the ``limit`` the model asked for (raw; ``None`` when absent).
        error: the recorded error text when the call failed as a whole.
        released: the call has the released Hermes Agent's form (one ``query`` string per call,
            answered with ``matches`` objects) rather than the reference's ``queries`` list.
    """

    step: int
    tool: str
    queries: tuple[QueryRecord, ...]
    limit: Any = None
    error: str | None = None
    released: bool = False

    kind = "search"


@dataclass(frozen=True)
class DescribeEvent:
    """A recorded ``tool_describe`` call: ``names`` asked, ``not_found`` as recorded."""

    step: int
    names: tuple[str, ...]
    not_found: tuple[str, ...] = ()
    error: str | None = None

    kind = "describe"


@dataclass(frozen=True)
class CallEvent:
    """A tool the model called.

    Attributes:
        step: 1-based position among the session's tool calls.
        name: the tool actually called (the target of ``tool_call``, or the tool itself).
        via: ``tool_call`` (through the bridge) or ``direct`` (the tool was in the tools array).
        arguments: the recorded arguments with secret-looking values masked (:func:`mask_secrets`).
        succeeded: from the recorded result (``None`` when there is none).
        error: the recorded error text, masked, cut to 300 characters.
    """

    step: int
    name: str
    via: str
    arguments: Any
    succeeded: bool | None
    error: str | None = None

    kind = "call"


@dataclass(frozen=True)
class CompactionEvent:
    """The conversation was compacted before this point (``messages`` archived, 0 if unknown).

    ``earlier_queries``: the queries of the searches in the archived messages, when the source
    keeps those apart (a Hermes store); secret-looking text masked.
    """

    step: int
    messages: int = 0
    earlier_queries: tuple[str, ...] = ()

    kind = "compaction"


Event = SearchEvent | DescribeEvent | CallEvent | CompactionEvent


@dataclass(frozen=True)
class Session:
    """One session with its tool-search events in order.

    Attributes:
        id, origin, format: where it came from (see :class:`~toolsearch.analysis.session_formats.RawSession`).
        model: the model when recorded; ``context_length``: tokens when recorded.
        counters: token and cache counters when the source has them.
        started_at: POSIX seconds; ``title``: when recorded.
        messages: messages read.
        events: searches, describes, calls and compactions, in order.
        source: the file it was read from (``origin`` without the place in it; ``""`` when not known).
    """

    id: str
    origin: str
    format: str
    model: str | None
    context_length: int | None
    counters: Mapping[str, int]
    started_at: float | None
    title: str | None
    messages: int
    events: tuple[Event, ...]
    source: str = ""

    @property
    def searches(self) -> tuple[SearchEvent, ...]:
        """The session's search events, in order."""
        return tuple(e for e in self.events if isinstance(e, SearchEvent))

    @property
    def calls(self) -> tuple[CallEvent, ...]:
        """The session's call events, in order."""
        return tuple(e for e in self.events if isinstance(e, CallEvent))

    def called_after(self, step: int) -> tuple[str, ...]:
        """Distinct tools called after ``step`` (first-call order).

        Asked once per search, so each answer costs the number of distinct tools called (times the
        logarithm of the calls), not the session's length: a session of 20,000 searches and calls
        took minutes."""
        steps, ordered, positions = self._call_positions
        if not ordered:  # steps out of order (a session built by hand): the plain reading
            return tuple(dict.fromkeys(e.name for e in self.events if isinstance(e, CallEvent) and e.step > step))
        start = bisect.bisect_right(steps, step)
        firsts = []
        for name, at in positions.items():
            i = bisect.bisect_left(at, start)
            if i < len(at):
                firsts.append((at[i], name))
        return tuple(name for _, name in sorted(firsts))

    @functools.cached_property
    def _call_positions(self) -> tuple[list[int], bool, dict[str, list[int]]]:
        """The steps of the calls in order, whether they never go down, and each tool's call indexes."""
        steps: list[int] = []
        positions: dict[str, list[int]] = {}
        for e in self.events:
            if isinstance(e, CallEvent):
                positions.setdefault(e.name, []).append(len(steps))
                steps.append(e.step)
        return steps, all(a <= b for a, b in zip(steps, steps[1:])), positions

    @property
    def round_trips(self) -> int:
        """Discovery calls: ``tool_search`` and ``tool_describe`` (and other search tools)."""
        return sum(1 for e in self.events if isinstance(e, (SearchEvent, DescribeEvent)))

    @property
    def bridged_tools(self) -> tuple[str, ...]:
        """Distinct tools called through ``tool_call`` or directly after a search."""
        first_search = next((e.step for e in self.events if isinstance(e, SearchEvent)), None)
        return tuple(dict.fromkeys(
            e.name for e in self.events if isinstance(e, CallEvent)
            and (e.via == "tool_call" or (first_search is not None and e.step > first_search))))


# --- masking ----------------------------------------------------------------------------------

_secret_key = secret_key_name  # the one rule for a key that names a secret (toolsearch.engine.secrets)
_OPAQUE = re.compile(r"^[A-Za-z0-9+/=_\-]{32,}$")
#: ``NAME=value`` / ``NAME: value`` inside free text (a shell ``export``, a ``curl -H`` header, a
#: ``.env`` line): the value is masked when NAME names a secret, as under a JSON key.
#: A quoted value is read up to its closing quote (or the end of the line), spaces and all:
#: ``DB_PASSWORD='my secret pw'`` is masked whole, and so is a short one (``TOKEN='x y``: the quotes
#: say it is a value); an unquoted value from 4 characters (``key: the`` in prose stays).
_ASSIGNED = re.compile(r"(?<![A-Za-z0-9_.\-])([A-Za-z_][A-Za-z0-9_.\-]{0,63})([ \t]*[:=][ \t]*)(['\"])?"
                       r"((?(3)[^'\"\n]+|[^\s'\"&;,]{4,}))")


_AUTH_WORDS = ("bearer", "basic", "token", "digest")  # ``Authorization: Bearer …``: the credentials are masked


#: A command-line option and its value (``--password VALUE``, ``--api-key=VALUE``, ``-token VALUE``):
#: the value is masked when the option's name names a secret, as under a JSON key; a quoted value
#: up to its closing quote (``--password 'a b c'``: all of it).
_OPTION = re.compile(r"(?<![^\s'\"(])(--?)([A-Za-z][A-Za-z0-9_.\-]{0,63})([ \t]*=[ \t]*|[ \t]+)(['\"])?"
                     r"((?(4)[^'\"\n]+|[^\s'\"&;|]+))")
#: ``curl -u USER:PASSWORD`` / ``--user USER:PASSWORD``: the part after the colon is a password
#: (quoted, ``-u "admin:my pw"``, up to the closing quote).
_USER_OPTION = re.compile(r"(?<![^\s'\"(])(-u|--user)([ \t]*=?[ \t]*)(['\"])?([^\s:'\"]+):((?(3)[^'\"\n]+|[^\s'\"&;|]+))")


def _mask_assigned(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        if not _secret_key(m.group(1)) or m.group(4) == C.SECRET_MASK or m.group(4).lower() in _AUTH_WORDS:
            return m.group(0)
        return m.group(1) + m.group(2) + (m.group(3) or "") + C.SECRET_MASK

    def user(m: re.Match[str]) -> str:
        if C.SECRET_MASK in m.group(5):
            return m.group(0)
        return m.group(1) + m.group(2) + (m.group(3) or "") + m.group(4) + ":" + C.SECRET_MASK
    return _USER_OPTION.sub(user, _mask_options(mask_program_options(_ASSIGNED.sub(one, text))))


def _option_value_masked(m: re.Match[str]) -> bool:
    """Whether the value of an :data:`_OPTION` match is a secret to mask: its option's name names
    one, and the word is its value: after ``=`` any word, after a space any word but the next option
    whose own secret is read (:func:`~toolsearch.engine.secrets.secret_option_value`, as on a
    server's command line: ``--password -hunter`` and ``--token --verbose`` are values, ``--auth -u
    admin:pw`` is not); ``-`` (the standard input) names no secret."""
    value = m.group(5)
    if not _secret_key(m.group(2)) or C.SECRET_MASK in value or value.lower() in _AUTH_WORDS or value == "-":
        return False
    return "=" in m.group(3) or secret_option_value(value)


def _mask_options(text: str) -> str:
    """``text`` with the values of the command-line options in it whose names name a secret masked
    (:func:`_option_value_masked`). A word not taken as a value is read again as an option in turn
    (``--verbose --password x``, ``--token --api-key x``: the second option's value is masked)."""
    out: list[str] = []
    pos = 0
    while (m := _OPTION.search(text, pos)) is not None:
        if _option_value_masked(m):
            out += [text[pos:m.start(5)], C.SECRET_MASK]
            pos = m.end(5)
        else:
            out.append(text[pos:m.start(5)])
            pos = m.start(5)
    return "".join(out) + text[pos:]


def mask_secrets(value: Any, key: str = "") -> Any:
    """``value`` with secret-looking parts replaced by ``••••`` (:data:`~toolsearch.engine.constants.SECRET_MASK`).

    Masked: string values under keys that name a secret (ending in ``password``, ``token``,
    ``api_key``, ``authorization``…, separators and case ignored); known credential shapes anywhere in a
    string, glued to a word or not (``sk-…``, ``ghp_…``, ``xoxb-…``, ``AKIA…``, JWTs, ``Bearer …``:
    :func:`toolsearch.engine.secrets.mask_token_shapes`); the value of ``NAME=value`` or
    ``NAME: value`` in a string when NAME names a secret (``export OPENAI_API_KEY=…``, a
    ``X-Api-Key: …`` header in a command), of a command-line option whose name names one
    (``--password …``, ``--api-key=…``) and the password of ``curl -u USER:PASSWORD``; every value
    (numbers too) under a key that names a secret, however deeply nested; long opaque strings without spaces that mix
    letters and digits (32+ characters); URL credentials and query values
    (:func:`toolsearch.engine.secrets.scrub_text`, as config secrets are masked). Dicts and lists are
    walked; other values are returned unchanged.
    """
    secret = bool(key) and _secret_key(key)
    if isinstance(value, dict):
        # under a key that names a secret (``credentials: {user, pass}``) every value is the secret's
        return {k: mask_secrets(v, key if secret else str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_secrets(v, key) for v in value]
    if secret and isinstance(value, (int, float)) and not isinstance(value, bool):
        return C.SECRET_MASK  # a numeric PIN, client secret or one-time code
    if not isinstance(value, str):
        return value
    if value and secret:
        return C.SECRET_MASK
    return mask_text(value)


def mask_text(text: str) -> str:
    """Secret-looking parts of free text masked (see :func:`mask_secrets`)."""
    if not text:
        return text
    text = _mask_assigned(mask_token_shapes(scrub_text(text)))
    if _OPAQUE.match(text) and re.search(r"\d", text) and re.search(r"[A-Za-z]", text):
        return C.SECRET_MASK
    return text


def mask_query(text: str) -> str:
    """A recorded query with known credential shapes and URL credentials masked
    (:func:`toolsearch.engine.secrets.mask_token_shapes`) and ``NAME=value`` / ``NAME: value`` values
    when NAME names a secret. Unlike :func:`mask_text`, a long word is
    not masked for being opaque: an exact tool name is a common query. Replay searches the masked
    text, so a query that held a secret can differ from the recording there."""
    return _mask_assigned(mask_token_shapes(text))


@functools.lru_cache(maxsize=65_536)  # names repeat across events and sessions: each is masked once
def shown_name(name: str) -> str:
    """A name from a recorded session as it may be shown: a tool name (called, described, matched,
    replayed), a search tool's name, a server name or a session id, with known credential shapes and URL
    credentials masked as in queries (:func:`toolsearch.engine.secrets.mask_token_shapes`). A long
    word is not masked for being opaque (tool names are long words).

    Only what is shown is masked: events keep the name as recorded, so matching against the catalog,
    counting distinct tools and replay use its real value. Every surface that shows session names
    (``toolsearch sessions``, ``recommend --sessions``, ``report``, the Sessions and Tuning pages)
    shows them through this function."""
    return mask_token_shapes(name) if name else name


def shown_names(names: Iterable[str]) -> list[str]:
    """:func:`shown_name` of each name, in order (two masked names stay two entries: a count of
    them still counts both)."""
    return [shown_name(name) for name in names]


def show_invisible(text: str) -> str:
    """``text`` for one table cell or line, shown as it is: every invisible character as the marker
    the rest of the app uses (:func:`toolsearch.engine.invisible.reveal`: ``⟨U+200B⟩``, TAG text decoded),
    and newlines, tabs and other line or paragraph separators as ``⟨U+000A⟩``… too (a cell is one
    line: :func:`toolsearch.engine.invisible.reveal_line`); private-use characters and lone
    surrogates as markers as well."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(marker(ch) if unicodedata.category(ch) in ("Co", "Cs") else ch for ch in reveal_line(text))


# --- extraction -------------------------------------------------------------------------------

def _json(content: Any) -> Any:
    """A tool result's content as JSON when it is JSON text (or text blocks holding it)."""
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        if len(texts) == 1 and isinstance(texts[0], str):
            content = texts[0]
        else:
            return content
    if isinstance(content, str):
        stripped = content.strip()
        if stripped[:1] in ("{", "["):
            try:
                return readers.load_embedded_json(stripped)
            except ValueError:
                return content
    return content


def _error_of(result: ToolResult | None) -> tuple[bool | None, str | None]:
    """(succeeded, error text) of a tool result."""
    if result is None:
        return None, None
    data = _json(result.content)
    if result.is_error:
        return False, _short(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False))
    if isinstance(data, dict):
        if data.get("error"):
            error = data["error"]
            return False, _short(error if isinstance(error, str) else json.dumps(error, ensure_ascii=False))
        if data.get("success") is False or data.get("isError") is True or data.get("is_error") is True:
            return False, _short(json.dumps(data, ensure_ascii=False))
    if isinstance(data, dict) and data.get("type") == "tool_search_tool_result_error":
        return False, str(data.get("error_code") or "error")
    return True, None


#: What an error's one-line summary turns into one space: ordinary spaces, tabs and line breaks.
#: Other characters Python counts as white space (U+2028, U+0085, U+001C..U+001F, U+000B) are kept,
#: so they are shown as markers rather than vanish.
_PLAIN_SPACE = re.compile(r"[ \t\r\n]+")


#: How much of an error text :func:`_short` reads (it shows at most a few hundred characters; a
#: tool's error can be megabytes of output, masked for nothing).
_SHORT_READ_CHARS = 20_000


def _short(text: str, n: int = 300) -> str:
    text = str(text)
    cut = len(text) > _SHORT_READ_CHARS
    if cut:  # up to the last white space before the limit: no credential is read in part
        text = text[:_SHORT_READ_CHARS]
        last_word = len(text.split()[-1]) if text.strip() and not text[-1].isspace() else 0
        if len(text) - last_word >= n:  # a word thousands of characters long is shown, cut, not dropped
            text = text[:len(text) - last_word]
    # Masked before its line breaks become spaces too: a credential cut by one is masked whole.
    text = mask_text(_PLAIN_SPACE.sub(" ", mask_text(text)).strip(" "))
    return text if len(text) <= n and not cut else text[: n - 1] + "…"


def _is_search_tool(use: ToolUse) -> bool:
    return use.name == C.TOOL_SEARCH or use.name == CLAUDE_CODE_SEARCH or (
        use.server and use.name.startswith(SERVER_SEARCH_PREFIX))


def _search_event(step: int, use: ToolUse, result: ToolResult | None) -> SearchEvent:
    args = use.arguments if isinstance(use.arguments, dict) else {}
    data = _json(result.content) if result is not None else None
    if use.name == C.TOOL_SEARCH:
        queries = clean_string_list(args.get("queries"), dedupe=False)
        released = queries is None and "query" in args
        if queries is None:  # released Hermes (0.19): one ``query`` string per call
            queries = clean_string_list(args.get("query"), dedupe=False)
        queries = queries or []
        limit = mask_secrets(args.get("limit"))  # typed by the model: a string is masked like an argument
        groups: dict[int, tuple[str, ...]] = {}
        error = None
        if isinstance(data, dict):
            if "error" in data:
                error = _short(str(data["error"]))
            results = data.get("results")
            for i, group in enumerate(results if isinstance(results, list) else []):  # a result of another shape is unread
                if isinstance(group, dict) and isinstance(group.get("matches"), list):
                    groups[i] = _match_names(group["matches"])
            if "results" not in data and isinstance(data.get("matches"), list) and len(queries) == 1:
                # released Hermes: {"query", "total_available", "matches": [{"name", ...}]}
                groups[0] = _match_names(data["matches"])
        elif result is not None and result.is_error:
            error = _short(str(data))
        records = tuple(QueryRecord(mask_query(q), groups.get(i, () if error else None) if result is not None else None)
                        for i, q in enumerate(queries))
        return SearchEvent(step, use.name, records, limit, error, released)
    # Claude Code ToolSearch / Anthropic server-side tool search: one query, tool references back
    query = args.get("query") if isinstance(args.get("query"), str) else args.get("pattern")
    limit = mask_secrets(args.get("max_results", args.get("limit")))
    matches: tuple[str, ...] | None = None
    error = None
    if result is not None:
        names = _tool_references(data)
        if isinstance(data, dict) and str(data.get("type", "")).endswith("_error"):
            error = str(data.get("error_code") or "error")
            matches = ()
        elif result.is_error:
            error, matches = _short(str(data)), ()
        else:
            matches = tuple(names)
    text = query.strip() if isinstance(query, str) else ""
    return SearchEvent(step, use.name, (QueryRecord(mask_query(text), matches),) if text else (), limit, error)


def _match_names(matches: list[Any]) -> tuple[str, ...]:
    """Tool names of a recorded ``matches`` list: names (the reference bridge) or objects with a
    ``name`` (released Hermes, whose matches carry name, source and description)."""
    return tuple(str(m["name"]) if isinstance(m, dict) and "name" in m else str(m) for m in matches)


def _tool_references(data: Any) -> list[str]:
    """Tool names in ``tool_reference`` blocks (a list of blocks, or ``{"tool_references": [...]}``)."""
    if isinstance(data, dict):
        data = data.get("tool_references", data.get("content", []))
    out = []
    for block in data if isinstance(data, list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_reference" and isinstance(block.get("tool_name"), str):
            out.append(block["tool_name"])
    return out


def _describe_event(step: int, use: ToolUse, result: ToolResult | None) -> DescribeEvent:
    args = use.arguments if isinstance(use.arguments, dict) else {}
    listed = clean_string_list(args.get("names"), dedupe=True)
    single = listed is None  # released Hermes (0.19): one ``name`` per call
    names = tuple(listed if listed is not None else clean_string_list(args.get("name"), dedupe=True) or ())
    data = _json(result.content) if result is not None else None
    not_found: tuple[str, ...] = ()
    error = None
    if isinstance(data, dict):
        if isinstance(data.get("not_found"), list):
            not_found = tuple(str(n) for n in data["not_found"])
        if "error" in data:
            error = _short(str(data["error"]))
            if single and names:  # released Hermes answers an unknown name with an error only
                not_found = names
    return DescribeEvent(step, names, not_found, error)


def _call_targets(arguments: Any, skipped: list[str] | None = None) -> list[tuple[str, Any]]:
    """``(name, arguments)`` per entry of a ``tool_call`` envelope (docs/reference.md §9.1 shapes, leniently).

    What cannot be read as a call (no tool name, ``calls`` that is not a list of calls) is said in
    ``skipped``, one line each, so it is not dropped without a word."""
    notes = skipped if skipped is not None else []
    args = arguments if isinstance(arguments, dict) else {}
    calls = args.get("calls")
    if calls is None:
        name = args.get("name")
        if isinstance(name, str) and name.strip():
            return [(name.strip(), args.get("arguments"))]
        notes.append("expected 'calls' (a list of {name, arguments}) or a 'name'; not counted as a call")
        return []
    if isinstance(calls, str):
        try:
            calls = readers.load_embedded_json(calls)
        except ValueError as exc:
            notes.append(f"'calls' is text that {json_trouble(exc)}; not counted as a call")
            return []
    if isinstance(calls, dict):
        calls = [calls]
    if not isinstance(calls, list):
        notes.append(f"expected 'calls' to be a list of calls, got {_kind(calls)}; not counted as a call")
        return []
    out = []
    for i, entry in enumerate(calls):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"].strip():
            value = entry.get("arguments")
            if isinstance(value, str):
                try:
                    value = readers.load_embedded_json(value) if value.strip() else {}
                except ValueError:
                    pass
            out.append((entry["name"].strip(), value))
        else:
            notes.append(f"calls[{i}]: expected an object with a tool 'name', got "
                         f"{_kind(entry.get('name')) + ' as the name' if isinstance(entry, dict) else _kind(entry)}; "
                         "not counted as a call")
    return out


def _kind(value: Any) -> str:
    """What a value is, in words, for a message: :func:`~toolsearch.engine.invisible.yaml_kind`'s
    words (``null``, ``a whole number``, ``a list``), but ``a blank string`` for a string of spaces
    only and ``an object`` for a mapping (a session store is JSON)."""
    if isinstance(value, str) and not value.strip():
        return "a blank string"
    return "an object" if isinstance(value, dict) else yaml_kind(value)


def extract(raw: RawSession, problems: list[SessionProblem] | None = None) -> Session:
    """The tool-search events of one session, in order (see the module docstring).

    Results are matched to calls by call id; formats without ids (trajectories) are matched in
    order by the reader. A ``tool_call`` entry that names no tool is said in ``problems``.
    """
    results: dict[str, ToolResult] = {}
    for step in raw.steps:
        if isinstance(step, ToolResult) and step.id and step.id not in results:
            results[step.id] = step
    events: list[Event] = []
    n = 0
    for step in raw.steps:
        if isinstance(step, Compaction):
            earlier = tuple(q.query for use in step.earlier if _is_search_tool(use)
                            for q in _search_event(0, use, None).queries)
            events.append(CompactionEvent(n, step.messages, earlier))
            continue
        if not isinstance(step, ToolUse):
            continue
        n += 1
        result = results.get(step.id) if step.id else None
        if _is_search_tool(step):
            events.append(_search_event(n, step, result))
        elif step.name == C.TOOL_DESCRIBE:
            events.append(_describe_event(n, step, result))
        elif step.name == C.TOOL_CALL:
            succeeded, error = _error_of(result)
            skipped: list[str] = []
            for name, arguments in _call_targets(step.arguments, skipped):
                events.append(CallEvent(n, name, "tool_call", mask_secrets(arguments), succeeded, error))
            if problems is not None:
                problems.extend(SessionProblem(f"{raw.origin}: session {quoted(raw.id)}: step {n} (tool_call)", note)
                                for note in skipped)
        else:
            succeeded, error = _error_of(result)
            events.append(CallEvent(n, step.name, "direct", mask_secrets(step.arguments), succeeded, error))
    return Session(raw.id, raw.origin, raw.format, mask_text(raw.model) if raw.model else raw.model,
                   raw.context_length, dict(raw.counters),
                   raw.started_at, mask_text(raw.title) if raw.title else raw.title, raw.messages, tuple(events),
                   raw.source)


@dataclass
class LoadedSessions:
    """Sessions extracted from sources, with what was skipped. A problem's place and message can
    quote the session (its id, a recorded value): they are kept with known credential shapes masked
    (:func:`shown_name`), as everything else read from a session is shown."""

    sessions: list[Session] = field(default_factory=list)
    problems: list[SessionProblem] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.problems = [SessionProblem(shown_name(p.where), shown_name(p.message)) for p in self.problems]


def extract_all(read: ReadResult) -> LoadedSessions:
    """Every session of ``read`` extracted (:func:`extract`), with the reading's problems and then
    the ones extracting found, at most
    :data:`~toolsearch.analysis.session_formats.MAX_NAMED_PROBLEMS` named per file: a file of a
    million calls that name no tool says so in one more line, not a million."""
    sessions: list[Session] = []
    found: dict[str, list[SessionProblem]] = {}
    for raw in read.sessions:
        sessions.append(extract(raw, found.setdefault(raw.source or raw.origin, [])))
    return LoadedSessions(sessions, list(read.problems) + [p for origin, problems in found.items()
                                                           for p in capped_problems(problems, origin)])


def load_sessions(paths: Iterable[str | Path], fmt: str | None = None, progress: Progress | None = None) -> LoadedSessions:
    """Read and extract every session of ``paths`` (see :func:`toolsearch.analysis.session_formats.read_sessions`).

    Raises:
        SessionSourceError: a source cannot be read at all.
    """
    read = read_sessions(paths, fmt, progress)
    return drop_repeated(extract_all(read))


def drop_repeated(loaded: LoadedSessions) -> LoadedSessions:
    """``loaded`` with each session id read once: a session whose id came earlier (the same store
    given twice, a store and its ``hermes sessions export``, a backup copy) is left out and named
    in ``problems`` with both places, so its searches and calls are not counted twice. A session
    read from a Hermes store and from its export is the store's, in either order."""
    at: dict[str, int] = {}  # session id -> its place in kept
    kept: list[Session] = []
    repeated: dict[str, list[SessionProblem]] = {}
    for session in loaded.sessions:
        if session.id in at:
            earlier = kept[at[session.id]]
            if session.format == "hermes-db" and earlier.format == "hermes-export":
                # the store holds what its export leaves out (the messages a compaction archived in
                # place): the store's reading is kept whichever file was given first
                kept[at[session.id]], session, earlier = session, earlier, session
            repeated.setdefault(session.source or session.origin, []).append(SessionProblem(
                f"{session.origin}: session {quoted(session.id)}",
                f"the same session id was read from {earlier.origin}; counted once"))
            continue
        at[session.id] = len(kept)
        kept.append(session)
    return LoadedSessions(kept, list(loaded.problems) + [p for origin, problems in repeated.items()
                                                         for p in capped_problems(problems, origin)])


def load_sessions_text(text: str, origin: str, fmt: str | None = None) -> LoadedSessions:
    """:func:`load_sessions` for the text of one file (an upload)."""
    read = read_text(text, origin, fmt, ReadResult())
    return extract_all(read)


def load_sessions_bytes(data: bytes, name: str, fmt: str | None = None,
                        progress: Progress | None = None) -> LoadedSessions:
    """:func:`load_sessions` for the bytes of one uploaded file named ``name``.

    A SQLite store goes through a private temporary file (SQLite opens files only), read
    read-only and deleted afterwards; places in problems and origins name ``name``, not the
    temporary file. Text must be UTF-8.

    Raises:
        SessionSourceError: unreadable or unrecognised content.
    """
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    if fmt == "hermes-db" or (fmt is None and data.startswith(SQLITE_MAGIC)):
        fd, tmp = tempfile.mkstemp(prefix="toolsearch-session-", suffix=".db")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            loaded = load_sessions([tmp], "hermes-db", progress)
        except SessionSourceError as exc:  # named by the upload, not the temporary copy
            raise type(exc)(str(exc).replace(tmp, name)) from None
        finally:
            for leftover in (tmp, f"{tmp}-wal", f"{tmp}-shm"):
                Path(leftover).unlink(missing_ok=True)
        for session in loaded.sessions:
            object.__setattr__(session, "origin", session.origin.replace(tmp, name))
            object.__setattr__(session, "source", session.source.replace(tmp, name))
        loaded.problems = [SessionProblem(p.where.replace(tmp, name), p.message.replace(tmp, name))
                           for p in loaded.problems]
        return loaded
    if fmt is None:
        refuse_wal(data, name, "upload the store itself (state.db)")
    read = ReadResult()
    try:
        read = read_text(decode_text(data, name, read, "expected UTF-8 text or a SQLite session store"), name, fmt, read)
    finally:
        name_first_problems(read, 0, name)
    return extract_all(read)


def scrub_sessions(loaded: LoadedSessions, secrets: Sequence[str], keep: Collection[str] = ()) -> LoadedSessions:
    """``loaded`` with every value of ``secrets`` masked (``••••``) wherever it stands in a session:
    ids, model, title, queries, recorded matches, tool and search-tool names, described names,
    arguments (keys and values at any depth), error texts, and the problems' places and messages.

    ``secrets`` are the values of the MCP client configs at hand (the one the catalog was listed
    from, the servers a ``--config`` also configures, the app's connected servers), with their
    encodings (:meth:`toolsearch.live.mcpconfig.ServerSpec.secret_values` of every server), masked
    as :func:`toolsearch.engine.secrets.scrub_text` masks them in everything a live server sends.
    Names are masked here too, not only where they are shown: the live catalog's own tool names went
    through the same scrub, so a session's name still matches the catalog's. A name in ``keep`` (the
    tool names the catalog replayed against registers, which every page shows as they are) is kept as
    recorded wherever it stands as a name, so a config value that is also part of an ordinary tool name
    (``pull_request`` in ``mcp__github__create_pull_request``) does not unmatch it from a catalog file.
    Sessions and problems without such a value come back as they are.
    """
    values = [value for value in secrets if value]
    if not values:
        return loaded

    def text(value: str | None) -> str | None:
        return scrub_text(value, values) if value else value

    def name(value: str | None) -> str | None:
        return value if value in keep else text(value)

    def names(items: Sequence[str] | None) -> tuple[str, ...] | None:
        return None if items is None else tuple(name(n) for n in items)

    def event(e: Event) -> Event:
        if isinstance(e, SearchEvent):
            return replace(e, tool=name(e.tool), error=text(e.error), limit=scrub_data(e.limit, text)[0],  # typed text
                           queries=tuple(QueryRecord(text(q.query), names(q.matches)) for q in e.queries))
        if isinstance(e, DescribeEvent):
            return replace(e, names=names(e.names), not_found=names(e.not_found), error=text(e.error))
        if isinstance(e, CallEvent):
            return replace(e, name=name(e.name), arguments=scrub_data(e.arguments, text)[0], error=text(e.error))
        return replace(e, earlier_queries=None if e.earlier_queries is None else
                       tuple(text(q) for q in e.earlier_queries))  # queries, not names

    sessions = [replace(s, id=text(s.id), model=text(s.model), title=text(s.title),
                        events=tuple(event(e) for e in s.events)) for s in loaded.sessions]
    problems = [SessionProblem(text(p.where), text(p.message)) for p in loaded.problems]
    return LoadedSessions(sessions, problems)


# --- replay -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """One query under one variant.

    Attributes:
        matches: the names returned (at the resolved limit).
        empty: no matches.
        found_called: the matches contain a tool the session called later.
        drift: the matches differ from the recorded ones (``None`` without a recorded result).
        why: for an empty result, the reason in words (gate term and its document frequency).
        gate: the query's gate term, a stem (``None`` without tokens).
        gate_word: the query word it came from (``None`` when unknown).
    """

    matches: tuple[str, ...]
    empty: bool
    found_called: bool
    drift: bool | None
    why: str | None = None
    gate: str | None = None
    gate_word: str | None = None

    @property
    def gate_text(self) -> str:
        """The gate term as every surface shows it: word and stem (``engineer → engin``), ``—`` without one."""
        return gate_term_text(self.gate_word, self.gate)


@dataclass(frozen=True)
class QueryReplay:
    """One recorded query, recorded vs replayed.

    Attributes:
        session: the session id; ``model``: its model; ``step``: the search's step.
        query: the query text; ``limit``: the limit used for replay (resolved like the bridge).
        recorded: the recorded matches (``None`` when not recorded).
        called_later: tools the session called after this search.
        replayed: outcome per variant name (``reference`` first).
    """

    session: str
    model: str | None
    step: int
    query: str
    limit: int
    recorded: tuple[str, ...] | None
    called_later: tuple[str, ...]
    replayed: Mapping[str, Outcome]

    @property
    def recorded_empty(self) -> bool | None:
        """The recorded search found nothing (``None`` when nothing was recorded)."""
        return None if self.recorded is None else not self.recorded

    @property
    def recorded_found_called(self) -> bool | None:
        """The recorded matches hold a tool the session called later (``None`` when nothing was
        recorded)."""
        return None if self.recorded is None else bool(set(self.recorded) & set(self.called_later))


@dataclass
class Replay:
    """Every recorded query of every session replayed (see :func:`replay`)."""

    variants: tuple[str, ...]
    queries: list[QueryReplay]
    catalog: str
    deferred_count: int


def replay_variants(asked: Sequence[str] | None) -> tuple[str, ...]:
    """The variants to replay: ``reference`` first, then those asked (default: every variant the
    engine defines, :data:`toolsearch.analysis.evaluation.DEFAULT_VARIANTS`), without repeats.

    Raises:
        VariantError: an unknown variant name.
    """
    names = list(asked) if asked else list(DEFAULT_VARIANTS)
    for name in names:
        variant_options(name)
    return tuple(dict.fromkeys(["reference", *names]))


def why_empty(index: Any, query: str, limit: int) -> tuple[str, str | None, str | None]:
    """Why ``query`` admits nothing on a :class:`~toolsearch.engine.search.SearchIndex`: (reason in words,
    gate term, the query word it came from). The gate term is the query's rarest term (highest IDF,
    first in query order on a tie) and the coverage floor is
    :func:`~toolsearch.engine.search.required_coverage` (docs/reference.md §7.4). The reason names the
    gate term as ``toolsearch explain``, ``toolsearch search`` and the Search page show it, word and
    stem (:func:`~toolsearch.engine.search.gate_term_text`: ``engineer → engin``)."""
    stems = (tokenize_unicode if index.options.tokenizer == "unicode" else tokenize)(query)
    if not stems:
        return "no word the tokenizer reads (nothing to search for)", None, None
    gate = max(stems, key=index.idf)
    word = index.gate_word(query, gate)
    shown = gate_term_text(word, gate)
    answerable = [t for t in dict.fromkeys(stems) if index.df(t) > 0]
    gate_df = index.df(gate)
    if gate_df == 0 and index.options.gate:
        return f"the gate term '{shown}' occurs in no tool", gate, word
    if not answerable:
        return "no query term occurs in any tool", gate, word
    required = required_coverage(len(answerable))
    contain = "1 tool contains" if gate_df == 1 else f"{gate_df:,} tools contain"
    return (f"{contain} the gate term '{shown}', but none covers "
            f"{required} of the {len(answerable)} answerable terms"), gate, word


def replay(sessions: Sequence[Session], inspector: Inspector, config: ToolSearchConfig,
           variants: Sequence[str] | None = None, progress: Progress | None = None) -> Replay:
    """Re-run every recorded query with ``config`` under each variant.

    Args:
        sessions: extracted sessions.
        inspector: the catalog the sessions ran on (registered with its naming).
        config: current settings (defer set, search limits: the recorded ``limit`` is resolved
            the way the bridge resolves it, docs/reference.md §6).
        variants: variant names (:func:`replay_variants`); ``reference`` is always included.
        progress: called with (sessions done, total).

    Returns:
        A :class:`Replay`; identical (variant, query, limit) triples are searched once.

    Raises:
        VariantError: an unknown variant.
    """
    names = replay_variants(variants)
    bridges = {name: inspector.bridge(config, variant_options(name)) for name in names}
    cache: dict[tuple[str, str, int], tuple[tuple[str, ...], frozenset[str], str | None, str | None]] = {}
    out: list[QueryReplay] = []
    total = len(sessions)
    for done, session in enumerate(sessions, 1):
        for event in session.searches:
            later = session.called_after(event.step)
            later_set = set(later)
            for record in event.queries:
                limit = bridges["reference"].resolve_limit(event.limit)
                outcomes: dict[str, Outcome] = {}
                for name, bridge in bridges.items():
                    key = (name, record.query, limit)
                    hit = cache.get(key)
                    if hit is None:
                        notes: list[str] = []
                        if bridge.index.options.query_mode == "regex":  # what the scan could not say itself
                            scan = bridge.index.regex_result(record.query, limit)
                            matches = tuple(n for n, _ in scan.matches)
                            notes = scan.notes()
                        else:
                            matches = tuple(n for n, _ in bridge.index.search(record.query, limit))
                        why, gate, word = (why_empty(bridge.index, record.query, limit) if not matches
                                           else (None, None, None))
                        if notes and not matches:  # a scan stopped at its time limit is no answer: said, not silent
                            why = "; ".join(notes)  # (the gate term of the words search says nothing of a regex)
                        hit = cache[key] = (matches, frozenset(matches), why, gate, word)
                    matches, match_set, why, gate, word = hit
                    outcomes[name] = Outcome(matches, not matches, not later_set.isdisjoint(match_set),
                                             None if record.matches is None else matches != record.matches, why, gate,
                                             word)
                out.append(QueryReplay(session.id, session.model, event.step, record.query, limit, record.matches,
                                       later, outcomes))
        if progress and (done % 200 == 0 or done == total):
            progress(done, total)
    return Replay(names, out, inspector.catalog.name, len(bridges["reference"].deferred))


# --- listing what-if --------------------------------------------------------------------------

@dataclass(frozen=True)
class ListingWhatIf:
    """For one tool a session called: was it named in the listing at the session's settings?

    Attributes:
        session: the session id; ``tool``: the tool's wire name; ``server``: its server.
        context_length: the context length used (the session's, else the one given, else unknown).
        budget: the listing budget at those settings (tokens, docs/reference.md §4).
        listed: its name was in the listing (so the searches just before its call were avoidable).
        searches_before: the ``tool_search`` calls the session made just before calling it (since
            its previous tool call), as :func:`called_tools` counts them: summed over the listed
            tools of the sessions at one context length, they are that length's ``searches_saved``.
        smallest_budget: the smallest budget that lists it (``None``: no budget does).
        threshold_pct: the smallest threshold_pct (steps of 0.1) reaching that budget at this context
            length (``None`` when unknown or unreachable).
        listing_max_tokens: the smallest listing_max_tokens (steps of 1 token) that allows that budget.
    """

    session: str
    tool: str
    server: str
    context_length: int | None
    budget: int
    listed: bool
    searches_before: int
    smallest_budget: int | None
    threshold_pct: float | None
    listing_max_tokens: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names (``session``, ``tool`` and
        ``server`` as shown, :func:`shown_name`)."""
        return {**self.__dict__, "session": shown_name(self.session), "tool": shown_name(self.tool),
                "server": shown_name(self.server)}


#: The heading of :attr:`ListingWhatIf.searches_before` on the Sessions page and in ``toolsearch sessions``;
#: not "round trips before" (the pin what-if's "round trips before first uses" also counts describes).
SEARCHES_JUST_BEFORE_COLUMN = "searches just before"
#: What that column counts, in a sentence (the same page and command).
SEARCHES_JUST_BEFORE_WORDS = ("searches just before: the tool_search calls since the session's previous tool call, "
                              "the ones a listing that names the tool saves (summed over the listed tools, they are "
                              "the searches saved)")


def _listed(step: Any, label: str) -> bool:
    return step is not None and step.form in ("full", "names", "mixed") and label not in step.collapsed


def listing_what_if(sessions: Sequence[Session], inspector: Inspector, config: ToolSearchConfig,
                    context_length: int | None = None, tokenizer: str = C.DEFAULT_TOKENIZER) -> list[ListingWhatIf]:
    """For each deferred tool each session called through the bridge: listed or not, and the
    smallest settings that list it (docs/reference.md §4 budget, §5.4 degradation).

    The session's recorded context length wins over ``context_length`` (tokens); tools the catalog
    does not defer (visible, or unknown to it) are left out.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    bridge = inspector.bridge(config)
    registered = inspector.full_registration.by_name()
    ladder = listing_ladder(inspector.planner, config, tokenizer)
    smallest: dict[str, int | None] = {}
    out: list[ListingWhatIf] = []
    for session in sessions:
        ctx = session.context_length or context_length
        budget = listing_budget(ctx, config.threshold_pct, config.listing_max_tokens)[0]
        at_budget = ladder.step_at(budget) if ladder.activated else None
        # the same called tools and the same searches before each as searches_saved counts
        for called in _called_in(session, bridge, registered, set()):
            label = called.label
            if label not in smallest:
                smallest[label] = _smallest_listing_budget(ladder, label)
            need = smallest[label]
            out.append(ListingWhatIf(
                session.id, called.tool, called.server, ctx, budget, _listed(at_budget, label), called.searches_before,
                need, threshold_pct_for_budget(need, ctx) if need is not None else None,
                listing_max_tokens_for_budget(need) if need is not None else None))
    return out


def _smallest_listing_budget(ladder: Any, label: str) -> int | None:
    if not ladder.activated or not _listed(ladder.step_at(C.LISTING_MAX_TOKENS_MAX), label):
        return None
    low, high = 0, C.LISTING_MAX_TOKENS_MAX
    while low < high:
        mid = (low + high) // 2
        if _listed(ladder.step_at(mid), label):
            high = mid
        else:
            low = mid + 1
    return low


@dataclass(frozen=True)
class CalledTool:
    """A deferred tool a session called (its first call in that session).

    Attributes:
        session: the session id; ``tool``: the wire name; ``server`` and ``label``: where the
            listing groups it.
        searches_before: the ``tool_search`` calls (any search tool) the session made since its
            previous tool call: the round trips a listing that names the tool would have saved.
    """

    session: str
    tool: str
    server: str
    label: str
    searches_before: int


#: What to do about the recorded searches that came back empty (``toolsearch sessions`` under its failed
#: searches, the Sessions page under its Failed searches tab): the table says why each one failed, this
#: says what a user can change.
FAILED_SEARCHES_NEXT_WORDS = (
    "what to do: where a tool should have answered, it lacks the gate term's word: a description in the words "
    "users use lets the search find it, or a listing that names its server spares the search (the listing "
    "what-if); toolsearch explain CATALOG -q QUERY, or the Search page, works a query through. Where no tool "
    "has the capability, an empty result is the right answer")


#: What to do about the recorded searches that found only tools the session did not call (``toolsearch
#: sessions`` and the Sessions page's Failed searches tab, under that table).
MISSED_SEARCHES_NEXT_WORDS = (
    "what to do: toolsearch explain CATALOG -q QUERY, or the Search page, shows where the tool called afterwards "
    "ranks for the query and which rule left it out; a listing that names its server spares the search (the "
    "listing what-if)")


#: What to do about flagged sessions (``toolsearch sessions`` under its flagged sessions, the Sessions page
#: under its Flags tab): both flags are read against the listing what-if.
FLAGS_NEXT_WORDS = (
    "what to do: a compaction drops the messages, not the listing in the tool_search description, so a search "
    "repeated after one is a round trip that a listing naming the tool saves; a session that never searched "
    "either read the names from the listing or guessed them. The listing what-if says which: listed yes or no "
    "for each tool called")


def called_unnamed_next_words(at: Sequence[CalledListed]) -> str | None:
    """What to do when the listing at some of ``at``'s context lengths leaves some of the called
    tools unnamed (``toolsearch sessions`` under its per-length table, the Sessions page under its
    Listing what-if table): where, by how many, and the recommendation that keeps the called servers
    named at those lengths (``recommend --sessions … --keep-called``, the Tuning page's "Keep called
    servers named"). ``None`` when every length names every called tool (or none was called)."""
    short = [c for c in at if c.called_total and c.called_listed < c.called_total]
    if not short:
        return None
    where = ", ".join(f"{length_label(c.context_length)} ({c.called_total - c.called_listed} of {c.called_total})"
                      for c in short)
    lengths = ",".join(length_arg(c.context_length) for c in at)
    return (f"called tools not named at {where}: one setting that keeps the servers the sessions called named at "
            f"these context lengths is toolsearch recommend CATALOG --context-lengths {lengths} --goal listed "
            "--sessions SESSIONS --keep-called, or the Tuning page with these context lengths and "
            "“Keep called servers named” ticked")


#: What the per-length counts say when the sessions called no tool the catalog defers ("0 of 0"), as
#: the Sessions page, ``toolsearch sessions``, ``recommend --sessions`` and the report say it.
NO_DEFERRED_CALLED_WORDS = "the sessions called no tool this catalog defers, so there is nothing for the listing to name"
#: The order sessions are listed in, in words (``toolsearch sessions``, the Sessions page, the docs):
#: :func:`toolsearch.analysis.session_formats.read_sessions` reads them so.
SESSION_ORDER_WORDS = ("oldest first in each source, by recorded start time (formats that record none keep the "
                       "file's order), sources in the order given")
#: What the same counts say when the session sources held no session at all (an empty store, a store
#: of another Hermes home), on the same surfaces: the reason is the sources, not the catalog.
NO_SESSION_READ_WORDS = "no session was read (the session sources hold none), so there is nothing for the listing to name"


def called_tools(sessions: Sequence[Session], inspector: Inspector,
                 config: ToolSearchConfig) -> tuple[list[CalledTool], list[str]]:
    """The deferred tools the sessions called, each session's first call of each, in order; and
    the distinct called tools the catalog does not defer (unknown to it, or visible), sorted:
    targets of ``tool_call``, and direct calls of ``mcp__`` names or of the catalog's tools. The
    harness's own tools (``terminal``, ``read_file``: core tools of the catalog, or direct calls of
    names the catalog does not know) are not counted.

    A tool counts when called through ``tool_call``, or directly after the session's first search
    (harnesses that load found tools into the tools array). Describes are not counted as saved
    round trips: a listing names tools but does not give their parameters.
    """
    bridge = inspector.bridge(config)
    registered = inspector.full_registration.by_name()
    out: list[CalledTool] = []
    other: set[str] = set()
    for session in sessions:
        out.extend(_called_in(session, bridge, registered, other))
    return out, sorted(other)


def _called_in(session: Session, bridge: Any, registered: Mapping[str, Any], other: set[str]) -> list[CalledTool]:
    """:func:`called_tools` for one session (the distinct tools the catalog does not defer go to ``other``)."""
    out: list[CalledTool] = []
    pending = 0
    searched = False
    seen: set[str] = set()
    for event in session.events:
        if isinstance(event, SearchEvent):
            pending += 1
            searched = True
            continue
        if not isinstance(event, CallEvent):
            continue
        searches, pending = pending, 0
        if event.via == "direct" and not searched:
            continue
        tool = bridge.deferred_by_name.get(event.name)
        if tool is None:
            # as catalog_drift: a direct call of a name neither the catalog nor an ``mcp__``
            # prefix claims is the harness's own tool (terminal, read_file), not a catalog's
            known = registered.get(event.name)
            if known is not None and known.kind == "core":
                continue  # the harness's own tool: never deferred, so no listing is about it
            if event.via == "tool_call" or known is not None or _mcp_server(event.name):
                other.add(event.name)
            continue
        if event.name in seen:
            continue
        seen.add(event.name)
        out.append(CalledTool(session.id, event.name, tool.server or tool.label, tool.label, searches))
    return out


@dataclass(frozen=True)
class UncountedCalls:
    """The called tools the per-length counts leave out (:func:`called_tools`' second list), split
    by why: :func:`uncounted_calls` decides, and every surface says it in :meth:`sentences`' words.

    Attributes:
        not_deferred: tools this catalog does not defer at all (another catalog's, renamed since,
            or visible), sorted.
        outside_scope: tools the whole catalog defers that the session scope ``scope`` leaves out,
            sorted; empty without a scope.
        scope: the session scope's name ("" for the whole catalog).
    """

    not_deferred: tuple[str, ...] = ()
    outside_scope: tuple[str, ...] = ()
    scope: str = ""

    def __bool__(self) -> bool:
        return bool(self.not_deferred or self.outside_scope)

    @property
    def names(self) -> tuple[str, ...]:
        """Every uncounted tool, whatever the reason, sorted."""
        return tuple(sorted((*self.not_deferred, *self.outside_scope)))

    def reasons(self, explain: bool = False) -> list[tuple[str, tuple[str, ...]]]:
        """``(why, tools)`` per reason that has tools, the scope first: why is
        ``the session scope 'NAME' does not reach`` or ``this catalog does not defer`` (with
        ``explain``, followed by the usual causes: ``(another catalog's, renamed since, or visible)``)."""
        return [(why, names) for why, names in (
            (f"the session scope {quoted(self.scope)} does not reach", self.outside_scope),
            ("this catalog does not defer" + (" (another catalog's, renamed since, or visible)" if explain else ""),
             self.not_deferred)) if names]

    def sentences(self, also: bool = False, first: int = 8, explain: bool = False) -> list[str]:
        """One sentence per reason (:meth:`reasons`), names as shown (:func:`shown_name`), the
        first ``first`` of each: ``the sessions [also] called 5 tools the session scope 'support'
        does not reach: mcp__github__create_issue, …``. The caller escapes them for its medium."""
        lead = "the sessions also called" if also else "the sessions called"
        return [f"{lead} {counted(len(names), 'tool')} {why}: {', '.join(shown_names(names[:first]))}"
                + (" …" if len(names) > first else "") for why, names in self.reasons(explain)]

    def to_dict(self) -> dict[str, Any]:
        """``called_not_deferred`` (as shown), and with a scope ``called_outside_scope``."""
        out: dict[str, Any] = {"called_not_deferred": shown_names(self.not_deferred)}
        if self.scope:
            out["called_outside_scope"] = shown_names(self.outside_scope)
        return out


def uncounted_calls(names: Iterable[str], inspector: Inspector, config: ToolSearchConfig) -> UncountedCalls:
    """Why each called tool in ``names`` (:func:`called_tools`' second list) is left out of the
    counts on ``inspector``: outside the session scope when the whole catalog defers it but the
    scope does not reach it, else not deferred by this catalog (unknown to it, or visible). The one
    place that decides it, for ``recommend``, ``report``, ``--keep-called`` and the Sessions, Tuning
    and Report pages."""
    names = sorted(set(names))
    if inspector.scope is None:
        return UncountedCalls(tuple(names))
    whole = {t.name for t in split_tools(inspector.full_registration.tools, config.defer)[1]}
    session = {t.name for t in inspector.registration.tools}
    outside = [name for name in names if name in whole and name not in session]
    return UncountedCalls(tuple(name for name in names if name not in outside), tuple(outside), inspector.scope.name)


def listing_evidence(called: Sequence[CalledTool], step: Any) -> dict[str, int]:
    """How a listing (``step``: the chosen :class:`~toolsearch.engine.listing.DegradationStep`, or
    ``None`` for no listing) serves the tools in ``called``.

    Returns:
        ``{"called_listed": distinct called tools the listing names, "called_total": distinct
        called tools, "searches_saved": searches_before summed over the calls of named tools}``.
    """
    names = {c.tool for c in called}
    listed = {c.tool for c in called if _listed(step, c.label)}
    saved = sum(c.searches_before for c in called if c.tool in listed)
    return {"called_listed": len(listed), "called_total": len(names), "searches_saved": saved}


def called_not_listed(called: Sequence[CalledTool], step: Any) -> list[str]:
    """The distinct tools in ``called`` that a listing (``step``, as :func:`listing_evidence`)
    does not name, sorted: the ones the model still has to search for."""
    return sorted({c.tool for c in called if not _listed(step, c.label)})


def recorded_lengths(sessions: Sequence[Session]) -> dict[str, int | None]:
    """Each session's recorded context length (tokens, ``None`` when not recorded) by session id,
    the key :attr:`CalledTool.session` holds."""
    return {s.id: s.context_length for s in sessions}


# --- aggregates -------------------------------------------------------------------------------

@dataclass(frozen=True)
class FailedQuery:
    """A query whose recorded search came back empty, with how often and why (reference replay)."""

    query: str
    count: int
    sessions: int
    gate: str | None
    why: str | None
    replay_empty: bool
    gate_word: str | None = None


@dataclass(frozen=True)
class MissedQuery:
    """A query whose recorded search found tools, none of which its session called afterwards,
    while the session did call tools afterwards: the search found the wrong tools (or the right
    one came from another search). ``called``: the tools those sessions called after it (first
    eight); ``replay_found_called``: the reference search today finds one of them."""

    query: str
    count: int
    sessions: int
    called: list[str]
    replay_found_called: bool


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 6) if whole else None


#: The per-model column of the context lengths the sessions recorded (``aggregates``' ``context_lengths``).
CONTEXT_LENGTHS_COLUMN = "context lengths"


def context_lengths_cell(lengths: Sequence[int | None]) -> str:
    """The context lengths a model's sessions recorded, as the per-model tables write them
    (``toolsearch sessions`` and the Sessions page): shortest first, ``unknown`` last (a session that
    recorded none), e.g. ``"16K, 200K"``; ``"—"`` for no session."""
    return ", ".join(length_label(n) for n in lengths) or "—"


def aggregates(sessions: Sequence[Session], rep: Replay) -> dict[str, Any]:
    """Totals over all sessions and per model (searches per session, empty rates, round trips per
    called tool, the distinct context lengths recorded, ``context_lengths``: tokens, ``None`` for a
    session that recorded none, shortest first), the top failed queries with their gate terms (``top_failed``) and the top queries
    that found only tools their session did not call afterwards (``top_missed``, :class:`MissedQuery`)."""
    by_model: dict[str, list[Session]] = {}
    for s in sessions:
        by_model.setdefault(s.model or "(unknown)", []).append(s)
    queries_by_session: dict[str, list[QueryReplay]] = {}
    for q in rep.queries:
        queries_by_session.setdefault(q.session, []).append(q)

    def figures(group: Sequence[Session]) -> dict[str, Any]:
        qs = [q for s in group for q in queries_by_session.get(s.id, ())]
        recorded = [q for q in qs if q.recorded is not None]
        trips = sum(s.round_trips for s in group)
        tools = sum(len(s.bridged_tools) for s in group)
        return {
            "sessions": len(group), "searches": len(qs),
            "searches_per_session": round(len(qs) / len(group), 4) if group else None,
            "recorded_empty_rate": _rate(sum(1 for q in recorded if not q.recorded), len(recorded)),
            "replay_empty_rate": {v: _rate(sum(1 for q in qs if q.replayed[v].empty), len(qs)) for v in rep.variants},
            "round_trips": trips, "called_tools": tools,
            "round_trips_per_called_tool": round(trips / tools, 4) if tools else None,
            "failed_calls": sum(1 for s in group for c in s.calls if c.succeeded is False),
            "compactions": sum(1 for s in group for e in s.events if isinstance(e, CompactionEvent)),
            "context_lengths": sorted({s.context_length for s in group}, key=lambda n: (n is None, n or 0)),
        }

    failed: dict[str, list[QueryReplay]] = {}
    for q in rep.queries:
        if q.recorded is not None and not q.recorded:
            failed.setdefault(q.query, []).append(q)
    top = sorted(failed.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:TOP_FAILED]
    missed: dict[str, list[QueryReplay]] = {}
    for q in rep.queries:
        if q.recorded and q.called_later and not q.recorded_found_called:
            missed.setdefault(q.query, []).append(q)
    top_missed = sorted(missed.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:TOP_FAILED]
    return {
        "overall": figures(sessions),
        "per_model": {model: figures(group) for model, group in sorted(by_model.items())},
        "top_failed": [FailedQuery(query, len(qs), len({q.session for q in qs}), qs[0].replayed["reference"].gate,
                                   qs[0].replayed["reference"].why, qs[0].replayed["reference"].empty,
                                   qs[0].replayed["reference"].gate_word).__dict__ for query, qs in top],
        "top_missed": [MissedQuery(query, len(qs), len({q.session for q in qs}),
                                   shown_names(list(dict.fromkeys(t for q in qs for t in q.called_later))[:8]),
                                   any(q.replayed["reference"].found_called for q in qs)).__dict__
                       for query, qs in top_missed],
    }


# --- evidence at the lengths being tuned, catalog drift, session flags --------------------------

#: The context lengths the Sessions page asks about besides the sidebar's (tokens).
COMMON_CONTEXT_LENGTHS = (32_000, 200_000, 1_000_000)


def what_if_lengths(context_length: int | None = None) -> list[int | None]:
    """The default context lengths of the what-if: ``context_length`` (when known) first, then
    :data:`COMMON_CONTEXT_LENGTHS`, without repeats (tokens)."""
    return list(dict.fromkeys([*([context_length] if context_length else []), *COMMON_CONTEXT_LENGTHS]))


def with_recorded_lengths(lengths: Sequence[int | None], sessions: Sequence[Session]) -> list[int | None]:
    """``lengths`` and the known context lengths the ``sessions`` recorded
    (:func:`recorded_lengths`), shortest first, unknown (``None``) last, without repeats (tokens):
    a what-if that asks what the sessions saw at their own lengths as well as at ``lengths``."""
    recorded = [n for n in recorded_lengths(sessions).values() if n]
    known = sorted({n for n in [*lengths, *recorded] if n})
    return [*known, *([None] if None in lengths else [])]


@dataclass(frozen=True)
class CalledListed:
    """How one setting's listing at one context length serves the tools the sessions called.

    Attributes:
        context_length: tokens (``None``: unknown, the fixed percentage leg applies).
        budget: the listing budget at that length (tokens, docs/reference.md §4).
        listing_form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none`` at that budget.
        called_listed: distinct deferred tools the sessions called that the listing names.
        called_total: distinct deferred tools the sessions called.
        searches_saved: the ``tool_search`` calls made before calling the named tools (see
            :func:`called_tools`): the round trips the listing would have made unnecessary.
        counts: the listing's outcome by counts (a ``mixed`` listing can name 9 of 10 servers
            or 1 of 10, so the form alone is never shown); ``None`` when not measured.
    """

    context_length: int | None
    budget: int
    listing_form: str
    called_listed: int
    called_total: int
    searches_saved: int
    counts: ListingCounts | None = field(default=None, compare=False, repr=False)

    @property
    def short_label(self) -> str:
        """The listing as a table cell shows it: ``mixed 6/9``, or the form alone when the form
        says how many servers are named (:attr:`ListingCounts.short_label`, as ``sweep``)."""
        return self.counts.short_label if self.counts is not None else form_word(self.listing_form)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above, in that order, the counts as ``servers_named``,
        ``servers_total`` and ``outcome`` (the counted label, as ``recommend --json`` gives it)."""
        out = {key: value for key, value in self.__dict__.items() if key != "counts"}
        if self.counts is not None:
            out.update(servers_named=self.counts.servers_named, servers_total=self.counts.servers_total,
                       outcome=self.counts.label)
        return out


def called_listed_at(sessions: Sequence[Session], inspector: Inspector, config: ToolSearchConfig,
                     context_lengths: Sequence[int | None],
                     tokenizer: str = C.DEFAULT_TOKENIZER) -> list[CalledListed]:
    """For each context length (in the order given), at ``config``'s ``threshold_pct`` and
    ``listing_max_tokens``: how many of the tools the sessions called the listing already names,
    and the round trips that would have saved. The sessions' own recorded lengths are not used:
    this answers "with this setting at these lengths".

    Counting is :func:`called_tools` and :func:`listing_evidence` (the ones ``recommend --sessions``
    uses), so the figures agree with it. Tools the catalog does not defer are not counted.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    called, _ = called_tools(sessions, inspector, config)
    ladder = listing_ladder(inspector.planner, config, tokenizer)
    out: list[CalledListed] = []
    for ctx in context_lengths:
        budget = listing_budget(ctx, config.threshold_pct, config.listing_max_tokens)[0]
        step = ladder.step_at(budget)
        evidence = listing_evidence(called, step)
        out.append(CalledListed(ctx, budget, step.form if step else "none", evidence["called_listed"],
                                evidence["called_total"], evidence["searches_saved"], ladder.counts_of(step)))
    return out


#: What to do when the sessions used servers the catalog lacks (every surface that says the drift, through
#: :meth:`CatalogDrift.words`): tools missing from servers the catalog has are changes since the sessions
#: ran, with nothing to add.
DRIFT_NEXT_WORDS = ("To answer for the servers the sessions used, add a catalog file with the missing servers: "
                    "several catalog files combine into one catalog.")


@dataclass(frozen=True)
class CatalogDrift:
    """Where the sessions' tools and the catalog they are replayed against differ.

    Attributes:
        missing_tools: tool names the sessions called (through ``tool_call``, or directly with an
            ``mcp__`` name), described, or got back from a recorded search, that the catalog
            does not register; sorted.
        missing_servers: servers named by ``mcp__<server>__<tool>`` names in the sessions that the
            catalog does not have; sorted.
        extra_servers: catalog servers (with tools) that no tool name in the sessions belongs to
            (an ``mcp__<server>__`` name of a tool the server no longer has still belongs to it):
            they may be newer than the sessions, or just unused; sorted.
        sessions_with_missing: sessions that mention at least one missing tool.
    """

    missing_tools: tuple[str, ...]
    missing_servers: tuple[str, ...]
    extra_servers: tuple[str, ...]
    sessions_with_missing: int

    @property
    def drifted(self) -> bool:
        """Some tool or server of the sessions is not in the catalog."""
        return bool(self.missing_tools or self.missing_servers)

    def words(self, catalog: str = "the catalog", limit: int = 8,
              consequence: str = "The replay and the what-if describe this catalog, not the one the sessions ran on."
              ) -> str:
        """The difference in one sentence (empty when nothing is missing), e.g. ``"3 tools the
        sessions used are not in team-workspace (mcp__jira__create_issue, …); servers missing:
        jira; the catalog has 2 servers no session mentions."`` and ``consequence``, what the drift
        means for the figures shown beside it; with servers missing, then what to do about them
        (:data:`DRIFT_NEXT_WORDS`)."""
        if not self.drifted:
            return ""
        shown = ", ".join(shown_names(self.missing_tools[:limit])) + (
            f", … ({len(self.missing_tools) - limit} more)" if len(self.missing_tools) > limit else "")
        text = (f"{counted(len(self.missing_tools), 'tool')} the sessions used "
                f"{'is' if len(self.missing_tools) == 1 else 'are'} not in {catalog}")
        text += f" ({shown})" if self.missing_tools else ""
        if self.missing_servers:
            text += f"; servers missing: {', '.join(shown_names(self.missing_servers))}"
        text += (f"; {counted(self.sessions_with_missing, 'session')} affected; the catalog has "
                 f"{counted(len(self.extra_servers), 'server')} no session mentions")
        return f"{text}. {consequence}" + (f" {DRIFT_NEXT_WORDS}" if self.missing_servers else "")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the attributes above (names as shown, :func:`shown_name`) plus ``drifted``
        and ``extra_server_count``."""
        return {"drifted": self.drifted, "missing_tools": shown_names(self.missing_tools),
                "missing_servers": shown_names(self.missing_servers), "extra_servers": shown_names(self.extra_servers),
                "extra_server_count": len(self.extra_servers), "sessions_with_missing": self.sessions_with_missing}


def _mcp_server(name: str) -> str | None:
    """The server part of an ``mcp__<server>__<tool>`` name, else ``None``."""
    if not name.startswith("mcp__"):
        return None
    server, sep, tool = name[5:].partition("__")
    return server if sep and server and tool else None


#: The server part of an ``mcp__<server>__<tool>`` name (``None`` for another name), for callers
#: outside this module (which servers called tools belong to).
mcp_server_of = _mcp_server


def catalog_drift(sessions: Sequence[Session], inspector: Inspector) -> CatalogDrift:
    """Compare the tool names the sessions mention with the catalog's registered tools.

    Mentioned: targets of ``tool_call`` and direct calls of ``mcp__`` names (other direct calls
    can be the harness's own tools, which a catalog need not hold) unless the recorded call
    failed, names ``tool_describe`` found, and recorded search matches: names the sessions' own
    catalog had. The bridge tools themselves are never counted.
    """
    registered = inspector.full_registration.by_name()
    bridge_names = {C.TOOL_SEARCH, "tool_call", "tool_describe", CLAUDE_CODE_SEARCH}
    servers_by_prefix: dict[str, str] = {}
    for tool in registered.values():
        prefix = _mcp_server(tool.name)
        if prefix is not None and tool.server:
            servers_by_prefix.setdefault(prefix, tool.server)
    missing: set[str] = set()
    seen_servers: set[str] = set()
    affected = 0
    for session in sessions:
        names: set[str] = set()
        for event in session.events:
            if isinstance(event, SearchEvent):
                for record in event.queries:
                    names.update(record.matches or ())
            elif isinstance(event, DescribeEvent):
                names.update(n for n in event.names if n not in event.not_found)
            elif isinstance(event, CallEvent) and event.succeeded is not False:
                if event.via == "tool_call" or event.name in registered or _mcp_server(event.name):
                    names.add(event.name)
        names -= bridge_names
        session_missing = {n for n in names if n not in registered}
        affected += bool(session_missing)
        missing |= session_missing
        for name in names:
            tool = registered.get(name)
            if tool is not None and tool.server:
                seen_servers.add(tool.server)
            elif tool is None and _mcp_server(name) in servers_by_prefix:
                seen_servers.add(servers_by_prefix[_mcp_server(name)])  # a tool it no longer has
    missing_servers = sorted({s for s in map(_mcp_server, missing) if s is not None and s not in servers_by_prefix})
    with_tools = {t.server for t in registered.values() if t.server and t.kind != "core"}
    return CatalogDrift(tuple(sorted(missing)), tuple(missing_servers), tuple(sorted(with_tools - seen_servers)),
                        affected)


#: Two queries are "near the same" when their stem sets overlap at least this much (shared
#: stems / all stems), or one holds every stem of the other (at least two).
NEAR_SAME_QUERY = 0.75


@dataclass(frozen=True)
class RepeatedSearch:
    """A query searched after a compaction that repeats one searched before it.

    Attributes:
        step: the repeat's position among the session's tool calls; ``query``: the repeat;
        earlier: the query before the compaction it repeats; ``exact``: same text (ignoring case
        and spacing), else the same or nearly the same search terms.
    """

    step: int
    query: str
    earlier: str
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class SessionFlags:
    """Sessions worth a look.

    Attributes:
        session: the session id.
        deferred_never_searched: the catalog defers tools with these settings and the model called
            tools in this session but never ran a search.
        repeated_after_compaction: searches after a compaction that repeat (or nearly repeat) a
            search from before it: the compaction likely dropped what the first search found.
        compactions: compactions the session records.
    """

    session: str
    deferred_never_searched: bool
    repeated_after_compaction: tuple[RepeatedSearch, ...]
    compactions: int

    @property
    def flagged(self) -> bool:
        """Any flag is set."""
        return self.deferred_never_searched or bool(self.repeated_after_compaction)

    def words(self) -> str:
        """The flags in words (empty when none)."""
        parts = []
        if self.deferred_never_searched:
            parts.append("deferred but never searched")
        if self.repeated_after_compaction:
            parts.append(f"{counted(len(self.repeated_after_compaction), 'search', 'searches')} repeated after a compaction")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``session`` (as shown, :func:`shown_name`), ``deferred_never_searched``,
        ``repeated_after_compaction`` (a list of ``{step, query, earlier, exact}``), ``compactions``."""
        return {"session": shown_name(self.session), "deferred_never_searched": self.deferred_never_searched,
                "repeated_after_compaction": [r.to_dict() for r in self.repeated_after_compaction],
                "compactions": self.compactions}


def _query_key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _stems(text: str) -> frozenset[str]:
    return frozenset(tokenize_unicode(text))


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    if not (a and b):
        return False
    return len(a & b) / len(a | b) >= NEAR_SAME_QUERY or (min(len(a), len(b)) >= 2 and (a <= b or b <= a))


def session_flags(sessions: Sequence[Session], inspector: Inspector, config: ToolSearchConfig,
                  tokenizer: str = C.DEFAULT_TOKENIZER) -> list[SessionFlags]:
    """One :class:`SessionFlags` per session, in order.

    *Deferred but never searched*: tool search is active for the catalog with ``config`` (``enabled``
    not off and some tool is deferred), the session called or described at least one tool, and it made no search.
    *Repeated after a compaction*: a query after a compaction event whose text (ignoring case and
    spacing) or search terms (stem sets overlapping at least :data:`NEAR_SAME_QUERY`, or one
    holding every stem of the other) match a query before it. For a Hermes store the queries before a compaction are read from the
    archived messages (:attr:`CompactionEvent.earlier_queries`); a format that keeps nothing of
    what came before a compaction gives no earlier queries, so nothing repeats there.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    deferring = listing_ladder(inspector.planner, config, tokenizer).activated
    out: list[SessionFlags] = []
    for session in sessions:
        before: list[tuple[str, str, frozenset[str]]] = []  # (query, key, stems) searched so far
        compacted_at: int | None = None  # how many queries came before the latest compaction
        repeats: list[RepeatedSearch] = []
        compactions = 0
        for event in session.events:
            if isinstance(event, CompactionEvent):
                compactions += 1
                # queries a store keeps archived count as searched before this compaction
                before.extend((q, _query_key(q), _stems(q)) for q in event.earlier_queries)
                compacted_at = len(before)
            elif isinstance(event, SearchEvent):
                for record in event.queries:
                    key, stems = _query_key(record.query), _stems(record.query)
                    if compacted_at:
                        earlier = before[:compacted_at]
                        hit = next((q for q, k, _ in earlier if k == key), None)
                        if hit is not None:
                            repeats.append(RepeatedSearch(event.step, record.query, hit, True))
                        else:
                            near = next((q for q, _, s in earlier if _near(stems, s)), None)
                            if near is not None:
                                repeats.append(RepeatedSearch(event.step, record.query, near, False))
                    before.append((record.query, key, stems))
        used_tools = any(isinstance(e, (CallEvent, DescribeEvent)) for e in session.events)
        out.append(SessionFlags(session.id, deferring and used_tools and not session.searches, tuple(repeats),
                                compactions))
    return out


def released_hermes_sessions(sessions: Sequence[Session]) -> int:
    """How many sessions searched in the released Hermes Agent's form (:attr:`SearchEvent.released`)."""
    return sum(1 for s in sessions if any(isinstance(e, SearchEvent) and e.released for e in s.events))


def released_hermes_words(count: int, total: int) -> str:
    """What it means for the evidence that ``count`` of ``total`` sessions were recorded by the
    released Hermes Agent (PyPI ``hermes-agent`` 0.19.0), whose tool search is the earlier design of
    docs/reference.md §12: one query per call and no listing."""
    return (f"{count:,} of {counted(total, 'session')} searched with one query per tool_search call, as the "
            "released Hermes Agent (hermes-agent 0.19.0) does. That release puts no listing in the tool_search "
            "description: its threshold_pct decides whether tool search is on at all (default 10) and it has no "
            "listing_max_tokens. The listing what-ifs here describe the reference behaviour, not the harness that "
            "recorded these sessions, and their searches were ranked by that release's own search, so drift "
            "against the reference is expected.")


def counters_line(counters: Mapping[str, int]) -> str:
    """A session's recorded token and cache counters as one line, e.g. ``input tokens: 1,200 ·
    output tokens: 80`` (the CLI's session header and the page's Timeline)."""
    return " · ".join(f"{k.replace('_', ' ')}: {n:,}" for k, n in counters.items())


# --- JSON report ------------------------------------------------------------------------------

def summary(sessions: Sequence[Session], rep: Replay) -> dict[str, Any]:
    """The ``toolsearch sessions --json`` counts: sessions, searches (one per query), recorded and
    replayed outcomes per variant."""
    recorded = [q for q in rep.queries if q.recorded is not None]
    return {
        "sessions": len(sessions), "searches": len(rep.queries),
        "recorded": {"empty": sum(1 for q in recorded if not q.recorded),
                     "found_called": sum(1 for q in recorded if q.recorded_found_called),
                     "with_result": len(recorded)},
        "replay": {v: {"empty": sum(1 for q in rep.queries if q.replayed[v].empty),
                       "found_called": sum(1 for q in rep.queries if q.replayed[v].found_called),
                       "drift": sum(1 for q in rep.queries if q.replayed[v].drift)} for v in rep.variants},
    }


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready form of one event, as it may be shown: arguments, queries and errors were masked
    when read, names are masked here (:func:`shown_name`)."""
    if isinstance(event, SearchEvent):
        return {"kind": "search", "step": event.step, "tool": shown_name(event.tool), "limit": event.limit,
                "error": event.error,
                "queries": [{"query": q.query, "matches": None if q.matches is None else shown_names(q.matches)}
                            for q in event.queries]}
    if isinstance(event, DescribeEvent):
        return {"kind": "describe", "step": event.step, "names": shown_names(event.names),
                "not_found": shown_names(event.not_found), "error": event.error}
    if isinstance(event, CallEvent):
        return {"kind": "call", "step": event.step, "name": shown_name(event.name), "via": event.via,
                "arguments": event.arguments, "succeeded": event.succeeded, "error": event.error}
    out = {"kind": "compaction", "step": event.step, "messages": event.messages}
    if event.earlier_queries:
        out["earlier_queries"] = list(event.earlier_queries)
    return out


def query_to_dict(q: QueryReplay) -> dict[str, Any]:
    """JSON-ready form of one replayed query (tool names as shown, :func:`shown_name`)."""
    return {
        "step": q.step, "query": q.query, "limit": q.limit,
        "recorded": None if q.recorded is None else {"matches": shown_names(q.recorded), "empty": q.recorded_empty,
                                                     "found_called": q.recorded_found_called},
        "called_later": shown_names(q.called_later),
        "replay": {v: {"matches": shown_names(o.matches), "empty": o.empty, "found_called": o.found_called,
                       "drift": o.drift, "why": o.why, "gate": o.gate, "gate_word": o.gate_word}
                   for v, o in q.replayed.items()},
    }


def report(sessions: Sequence[Session], rep: Replay, what_if: Sequence[ListingWhatIf],
           problems: Sequence[SessionProblem] = (), *, flags: Sequence[SessionFlags] = (),
           drift: CatalogDrift | None = None, at_lengths: Sequence[CalledListed] = (),
           not_deferred: Sequence[str] = ()) -> dict[str, Any]:
    """The whole ``toolsearch sessions --json`` object: :func:`summary` keys, then
    ``per_session`` (events, replayed queries, listing what-if, and ``flags`` when ``flags`` are
    given), ``aggregates`` and ``problems``; with ``drift``, ``catalog_drift``
    (:meth:`CatalogDrift.to_dict`); with ``at_lengths``, ``called_listed`` (one
    :meth:`CalledListed.to_dict` per context length) and ``called_not_deferred`` (``not_deferred``:
    the called tools those counts leave out, as :func:`called_tools` gives them)."""
    queries: dict[str, list[QueryReplay]] = {}
    for q in rep.queries:
        queries.setdefault(q.session, []).append(q)
    whatif: dict[str, list[ListingWhatIf]] = {}
    for w in what_if:
        whatif.setdefault(w.session, []).append(w)
    by_flag = {f.session: f for f in flags}
    data = summary(sessions, rep)
    data["catalog"] = rep.catalog
    data["variants"] = list(rep.variants)
    data["per_session"] = [{
        "id": shown_name(s.id), "origin": s.origin, "format": s.format, "model": s.model, "context_length": s.context_length,
        "title": s.title, "started_at": s.started_at, "messages": s.messages, "counters": dict(s.counters),
        "round_trips": s.round_trips, "called_tools": shown_names(s.bridged_tools),
        "events": [event_to_dict(e) for e in s.events],
        "queries": [query_to_dict(q) for q in queries.get(s.id, ())],
        "listing_what_if": [w.to_dict() for w in whatif.get(s.id, ())],
        **({"flags": by_flag[s.id].to_dict()} if s.id in by_flag else {}),
    } for s in sessions]
    if drift is not None:
        data["catalog_drift"] = drift.to_dict()
    if at_lengths:
        data["called_listed"] = [c.to_dict() for c in at_lengths]
        data["called_not_deferred"] = shown_names(not_deferred)
    data["aggregates"] = aggregates(sessions, rep)
    data["problems"] = [str(p) for p in problems]
    return data


# --- labeled queries --------------------------------------------------------------------------

#: Half of a UTF-16 pair (a JSON file's ``"\ud800"``): YAML writes it as ``"\uD800"``, which no
#: YAML reader (eval's included) reads back.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def export_queries(sessions: Sequence[Session], inspector: Inspector | None = None, name: str = "",
                   left_out: list[str] | None = None) -> dict[str, Any]:
    """A query file for ``toolsearch eval`` (:mod:`toolsearch.analysis.evaluation` format): one task per
    recorded search call whose session called tools later, with its queries (at most
    :data:`EXPORT_MAX_QUERIES`) and those tools as ``expected``.

    With ``inspector``, only tools the catalog defers are kept as expected names (the others
    cannot be found by search); a search left with none is left out. Identical tasks (same
    queries and expected names) are kept once.

    What ``toolsearch eval`` would refuse in the file is left out, one line each in ``left_out``:
    a recorded query longer than ``MAX_QUERY_CHARS``, an expected name with a line break or a tab
    (one such item would make eval refuse the whole file), a query or an expected name with a lone
    surrogate (the YAML file could not be read back), an expected name that holds a credential
    (:func:`shown_name` masks part of it: the file must not carry it, and a masked name would name
    no tool), and the tasks past the first
    ``MAX_QUERY_TASKS`` (eval refuses a file with more; this note comes first, before the
    per-search ones).
    """
    from .evaluation import _LINE_BREAK, MAX_QUERY_CHARS, MAX_QUERY_TASKS  # noqa: PLC0415 (numpy: only when exporting)

    notes = left_out if left_out is not None else []
    first_note = len(notes)
    places: list[str] = []  # where each task comes from, for the note on tasks over the limit
    deferred = set(inspector.bridge(ToolSearchConfig()).deferred_by_name) if inspector is not None else None
    registered = inspector.full_registration.by_name() if inspector is not None else {}
    tasks: list[dict[str, Any]] = []
    seen: set[tuple] = set()
    taken: set[str] = set()
    for session in sessions:
        for event in session.searches:
            where = f"session {quoted(shown_name(session.id))}, search at step {event.step}"
            after = session.called_after(event.step)
            expected = [t for t in after if deferred is None or t in deferred]
            if after and not expected and inspector is not None:
                # a catalog's tool (an mcp__ name, or one it registers but does not defer), not the harness's own
                others = [t for t in after if _mcp_server(t) or (t in registered and registered[t].kind != "core")]
                if others:
                    notes.append(f"{where}: left out: this catalog does not defer the tools the session called "
                                 f"afterwards ({', '.join(shown_names(others[:4]))}{' …' if len(others) > 4 else ''})")
            if any(_LINE_BREAK.search(t) for t in expected):
                notes.append(f"{where}: an expected tool name with a line break or a tab left out")
                expected = [t for t in expected if not _LINE_BREAK.search(t)]
            if any(_LONE_SURROGATE.search(t) for t in expected):
                notes.append(f"{where}: an expected tool name with half of a UTF-16 pair (a lone surrogate, "
                             "which no YAML file holds) left out")
                expected = [t for t in expected if not _LONE_SURROGATE.search(t)]
            if any(shown_name(t) != t for t in expected):  # the file is written: no credential in it
                notes.append(f"{where}: an expected tool name that holds a credential left out "
                             f"({', '.join(shown_names(t for t in expected if shown_name(t) != t))})")
                expected = [t for t in expected if shown_name(t) == t]
            queries = list(dict.fromkeys(q.query for q in event.queries if q.query))[:EXPORT_MAX_QUERIES]
            if not expected:
                continue
            if any(len(q) > MAX_QUERY_CHARS for q in queries):
                notes.append(f"{where}: a query over {MAX_QUERY_CHARS:,} characters left out (toolsearch eval "
                             "reads shorter ones)")
                queries = [q for q in queries if len(q) <= MAX_QUERY_CHARS]
            if any(_LONE_SURROGATE.search(q) for q in queries):
                notes.append(f"{where}: a query with half of a UTF-16 pair (a lone surrogate, which no YAML file "
                             "holds) left out")
                queries = [q for q in queries if not _LONE_SURROGATE.search(q)]
            if not queries:
                continue
            key = (tuple(queries), tuple(expected))
            if key in seen:
                continue
            seen.add(key)
            base = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{shown_name(session.id)}-{event.step}").strip("-") or "task"
            task_id, n = base, 1
            while task_id in taken:  # two session ids can clean up to the same text
                n += 1
                task_id = f"{base}-{n}"
            taken.add(task_id)
            tasks.append({"id": task_id, "queries": queries, "expected": expected,
                          "note": f"session {shown_name(session.id)}, search at step {event.step}"})
            places.append(where)
    if len(tasks) > MAX_QUERY_TASKS:
        over = len(tasks) - MAX_QUERY_TASKS
        notes.insert(first_note, f"{counted(over, 'task')} left out, from {places[MAX_QUERY_TASKS]} on: a query file "
                                 f"holds at most {MAX_QUERY_TASKS:,} tasks (toolsearch eval refuses more), so the "
                                 f"first {MAX_QUERY_TASKS:,} are kept")
        del tasks[MAX_QUERY_TASKS:]
    out: dict[str, Any] = {"name": name or "Labeled queries from recorded sessions"}
    if inspector is not None:
        out["catalog"] = inspector.catalog.name
        out["tool_names"] = inspector.naming
    out["tasks"] = tasks
    return out


def export_queries_yaml(data: Mapping[str, Any]) -> str:
    """:func:`export_queries` output as YAML text (a header comment, then the document)."""
    header = ("# Labeled search tasks taken from recorded sessions: each task is one recorded tool_search call,\n"
              "# expected = the tools the same session called afterwards. Check them before trusting the scores.\n")
    return header + readers.dump_yaml(dict(data), width=120)


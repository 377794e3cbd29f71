"""Catalogs: servers and their tools, loaded from files (DESIGN.md "Catalog file format").

Accepted sources:

* the catalog format (YAML or JSON): ``{name?, servers: [{name, kind?, tools: [...]}]}``;
* a recorded MCP ``tools/list`` result: ``{"tools": [...]}`` (also inside a JSON-RPC
  ``{"result": {...}}`` envelope); the server name comes from a ``server`` key or the file stem;
* a flat list of MCP tools (a common export shape): ``[{server, name, description, inputSchema},
  ...]``, grouped into MCP servers by each tool's ``server`` key (tools without one go to a server
  named after the file stem);
* an OpenAI-style function array: ``[{"type": "function", "function": {...}}, ...]`` or bare
  ``[{name, description, parameters}, ...]``; the server (kind ``plugin``) is the file stem.

A list that mixes the last two shapes is refused (see :func:`_list_shape`).

Loading is lenient per item: one bad tool or server is reported as a :class:`Problem` and
skipped, the rest of the catalog still loads. Only a file that cannot be read or parsed at all
raises :class:`~toolsearch.engine.errors.CatalogError`. Unknown keys are kept in ``extra`` and written
back by :func:`catalog_to_data`.
"""

from __future__ import annotations

import datetime
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from collections.abc import Mapping  # not typing.Mapping: isinstance on it is much slower
from typing import Any, Iterable, Sequence


from .invisible import quoted, quoted_short, shortened, yaml_kind
from . import constants as C
from . import readers
from .errors import CatalogError, InputLimitError
from .gcpause import gc_paused
from .secrets import mask_token_shapes
from .wording import counted

#: The problem message for a ``tools/list`` result whose ``nextCursor`` is the empty string (read
#: from a recorded result here, or met while listing a live server): the listing ends there, but
#: clients that take any string as a cursor request the first page again, forever.
EMPTY_NEXT_CURSOR = ("tools/list returned an empty-string nextCursor: read as the last page, but clients that treat "
                     "any string as a cursor ask for the first page again and loop")

_TOOL_KEYS = ("name", "description", "inputSchema")
_SERVER_KEYS = ("name", "kind", "tools", "capabilities", "info", "config")
_KNOWN_TOOL_KEYS = {key: frozenset((*_TOOL_KEYS, key, "input_schema")) for key in ("inputSchema", "parameters")}


@dataclass(frozen=True)
class Problem:
    """Something wrong or notable in a source that did not stop it from loading.

    Attributes:
        severity: ``error`` (an item was skipped), ``warning`` (an item was repaired) or
            ``info`` (notable but fine, e.g. duplicate names across servers).
        where: ``file: path.inside`` of the item.
        message: what was expected or what happened.
        count: how many items it stands for: 1, or for the problem that counts one file's
            problems of a severity past the first :data:`MAX_NAMED_PROBLEMS`, how many those are.
    """

    severity: str
    where: str
    message: str
    count: int = 1  # the items it stands for: more than one for the line that counts a file's problems past the named ones

    def __str__(self) -> str:
        return f"{self.severity}: {self.where}: {self.message}"

    def to_dict(self) -> dict[str, str]:
        """JSON-ready form, as ``plan --json`` and ``eval --json`` list it under ``problems``:
        ``{"severity": …, "where": …, "message": …}``."""
        return {"severity": self.severity, "where": self.where, "message": self.message}


#: Problems named one by one for one source file; past them, one problem per severity counts the
#: rest. A 6 MB file of 2,000,000 tools without a name printed 2,000,000 lines (245 MB) and held 870 MB.
MAX_NAMED_PROBLEMS = 100

#: What a catalog file's problems past the named ones are, per severity (:func:`more_problems_message`).
CATALOG_PROBLEM_WORDS = {"error": "items skipped", "warning": "items repaired", "info": "notes"}


def more_problems_message(severity: str, count: int, words: Mapping[str, str] = CATALOG_PROBLEM_WORDS) -> str:
    """The message of the problem (or line) that counts ``count`` problems of ``severity`` of one
    source file past its first :data:`MAX_NAMED_PROBLEMS`: ``"1,200 more items skipped past the first
    100 problems of this file (counted, not named)"``. ``words``: what the problems are, per
    severity (catalog files: :data:`CATALOG_PROBLEM_WORDS`; MCP client configs have their own)."""
    return (f"{count:,} more {words.get(severity, 'problems')} past the first {MAX_NAMED_PROBLEMS} problems of this "
            "file (counted, not named)")


class _Problems(list):
    """One source's problems as they are found: the first :data:`MAX_NAMED_PROBLEMS` kept, the rest
    counted per severity (:meth:`done` adds one problem for each count)."""

    def __init__(self, origin: str) -> None:
        super().__init__()
        self.origin = origin
        self.past: dict[str, int] = {}
        #: the tools nested too deeply (:func:`_nesting_places`): the tool's place → the place named
        self.too_deep: dict[str, str] = {}

    def append(self, problem: Problem) -> None:  # type: ignore[override]
        if len(self) < MAX_NAMED_PROBLEMS:
            super().append(problem)
        else:
            self.past[problem.severity] = self.past.get(problem.severity, 0) + problem.count

    def extend(self, problems: Iterable[Problem]) -> None:  # type: ignore[override]
        for problem in problems:
            self.append(problem)

    def done(self) -> tuple[Problem, ...]:
        """The problems kept, then one per severity that counts the others."""
        return (*self, *(Problem(severity, self.origin, more_problems_message(severity, count), count)
                         for severity, count in self.past.items()))


@dataclass(frozen=True)
class Tool:
    """One tool as its server reports it (before registration).

    Attributes:
        name: the server's own tool name.
        description: the raw description; ``None`` when absent.
        input_schema: the raw ``inputSchema`` (any JSON value; normalized at registration).
        extra: every other key of the tool (``annotations``, ``title``, ``outputSchema``…).
        origin: the file it came from, set when its server was merged from several files (so a
            tool listed in more than one of them can say whose definition is kept); ``""``
            otherwise. Not part of the tool's value: equal tools from two files compare equal.
    """

    name: str
    description: str | None = None
    input_schema: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    origin: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class Server:
    """A source of tools: an MCP server, a plugin toolset or the harness's core tools.

    Attributes:
        name: the server name as configured by the user (raw, unsanitized).
        kind: ``mcp`` | ``plugin`` | ``core``.
        tools: tools in the server's own order.
        capabilities: the ``initialize`` capabilities when recorded, else ``None``.
        info: recorded server info (name, version, protocol version), if any.
        config: per-server registration settings in the Hermes shape, e.g.
            ``{"tools": {"include": [...], "exclude": [...], "resources": true}}``.
        origin: the file (or connection) it came from.
        extra: unknown keys, kept.
        skipped: entries of its tool list the reader (or the live client) could not read and
            left out, each reported as an ``error`` problem; ``0`` when every entry was read. A
            server with no tools and ``skipped == 0`` listed none (``tools: []``).
    """

    name: str
    kind: str = "mcp"
    tools: tuple[Tool, ...] = ()
    capabilities: Mapping[str, Any] | None = None
    info: Mapping[str, Any] | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    origin: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    skipped: int = 0


@dataclass(frozen=True)
class Catalog:
    """Servers combined from one or more sources.

    Attributes:
        name: display name.
        servers: servers in source order (the engine sorts where the output must not depend
            on it).
        problems: everything reported while loading and combining.
        sources: the files combined, in order.
        extra: unknown top-level keys of the (first) catalog file.
    """

    name: str
    servers: tuple[Server, ...] = ()
    problems: tuple[Problem, ...] = ()
    sources: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def tool_count(self) -> int:
        """Number of tools over all servers (before registration)."""
        return sum(len(s.tools) for s in self.servers)

    @property
    def label(self) -> str:
        """The name to show beside figures: :attr:`name`, or the source file as given when the
        name is only that one file's stem (``catalog.json`` files in different folders would
        otherwise all be called ``catalog``)."""
        if len(self.sources) == 1 and self.name == readers.source_stem(self.sources[0]):
            return self.sources[0]
        return self.name

    def duplicate_tool_names(self) -> dict[str, list[str]]:
        """Tool names that occur on more than one server: ``{name: [server, ...]}``, sorted."""
        owners: dict[str, list[str]] = {}
        for server in self.servers:
            for name in dict.fromkeys(t.name for t in server.tools):
                owners.setdefault(name, []).append(server.name)
        return {n: sorted(s) for n, s in sorted(owners.items()) if len(s) > 1}


# --- parsing -------------------------------------------------------------------------------

_NOT_JSONC = readers.NOT_JSONC


def parse_jsonc(text: str, origin: str = "input") -> Any:
    """JSON with ``//`` and ``/* */`` comments and trailing commas (JSONC, as VS Code's
    ``mcp.json`` and ``settings.json`` allow), read with the ``json5`` library; returns
    :data:`_NOT_JSONC` when the text has no comment or trailing comma, or does not parse.

    Raises:
        CatalogError: (an :class:`~toolsearch.engine.errors.InputLimitError`) over a reading
            limit (:mod:`toolsearch.engine.readers`).
    """
    return readers.load_jsonc(text, origin, CatalogError)


@gc_paused()
def _parse_text(text: str, origin: str) -> Any:
    """YAML, JSON or JSONC text with a located error message, within the reading limits
    (:func:`toolsearch.engine.readers.load_data`), nested at most
    :data:`~toolsearch.engine.readers.MAX_CATALOG_NESTING_DEPTH` levels: :func:`catalog_from_data`
    holds each tool and the rest of the file to :data:`~toolsearch.engine.readers.MAX_NESTING_DEPTH`.
    A JSON file too deep to parse is refused at the place where it goes too deep, when its text
    tells (:func:`_nesting_places`). Raises :class:`CatalogError`."""
    try:
        return readers.load_data(text, origin, CatalogError, max_depth=readers.MAX_CATALOG_NESTING_DEPTH)
    except InputLimitError as exc:
        if not getattr(exc, "unplaced_depth", False) or text.lstrip()[:1] not in ("{", "["):
            raise
        refusal = _nesting_places(readers.json_nesting(text), _any_tool_place)[1]
        if refusal is None:
            raise
        raise _too_deep_refusal(origin, *refusal) from None


def _too_deep_refusal(origin: str, place: str, limit: int) -> InputLimitError:
    """The refusal of a catalog nested more than ``limit`` levels deep at ``place``."""
    return readers.limit_error(CatalogError, f"{origin}: {place}: nested more than {limit} levels deep (limit); "
                                             "not read")


def _any_tool_place(path: Sequence[Any]) -> bool:
    """Whether ``path`` (from the root, the root's own ``None`` left out) is where a tool sits in
    some catalog shape: ``servers[i].tools[j]``, ``tools[j]``, ``[i]`` and ``[i].function``."""
    n = len(path)
    if n == 4:
        return path[0] == "servers" and path[2] == "tools" and isinstance(path[1], int) and isinstance(path[3], int)
    if n == 2:
        return ((path[0] == "tools" and isinstance(path[1], int))
                or (isinstance(path[0], int) and path[1] == "function"))
    return n == 1 and isinstance(path[0], int)


def _tool_places(data: Any) -> Any:
    """:func:`_any_tool_place` for the shape ``data`` is read as (:func:`catalog_from_data`): a
    catalog's top-level ``tools`` beside its ``servers`` list is not read as tools, so it is held to
    the limit of the rest of the file."""
    if isinstance(data, Mapping) and isinstance(data.get("servers"), list):
        return lambda path: len(path) == 4 and _any_tool_place(path)
    if isinstance(data, Mapping):
        return lambda path: len(path) == 2 and path[0] == "tools" and isinstance(path[1], int)
    return lambda path: len(path) <= 2 and _any_tool_place(path)


def _nesting_places(events: Iterable[tuple[bool, Any]], is_tool: Any) -> tuple[dict[str, str], tuple[str, int] | None]:
    """Where a catalog nests too deeply, from its :func:`~toolsearch.engine.readers.data_nesting`
    (or ``json_nesting``) events: the tools one of whose values nests more than
    :data:`~toolsearch.engine.readers.MAX_NESTING_DEPTH` levels (the value itself level 1), as
    ``{tool place: place of that value}``, and the first place outside the tools deeper than
    :data:`~toolsearch.engine.readers.MAX_NESTING_DEPTH` from the top, or anywhere deeper than
    :data:`~toolsearch.engine.readers.MAX_CATALOG_NESTING_DEPTH`, as ``(place, limit)`` (``None``
    when there is none; the walk stops there). ``is_tool(path)``: whether a path is a tool's."""
    path: list[Any] = []
    tools: list[list[Any]] = []  # the open tools: [depth of the tool itself, named already]
    deep: dict[str, str] = {}
    for opening, key in events:
        if not opening:
            path.pop()
            if tools and len(path) < tools[-1][0]:
                tools.pop()
            continue
        path.append(key)
        depth = len(path)
        if depth > readers.MAX_CATALOG_NESTING_DEPTH:
            return deep, (readers.place_text(path[1:]), readers.MAX_CATALOG_NESTING_DEPTH)
        if is_tool(path[1:]):
            tools.append([depth, False])
        if not tools:
            if depth > readers.MAX_NESTING_DEPTH:
                return deep, (readers.place_text(path[1:]), readers.MAX_NESTING_DEPTH)
        elif depth - tools[-1][0] > readers.MAX_NESTING_DEPTH and not tools[-1][1]:
            base = tools[-1][0]
            deep.setdefault(readers.place_text(path[1:base]), readers.place_text(path[1:base + 1]))
            tools[-1][1] = True
    return deep, None


def _skipped_too_deep(origin: str, path: str, problems: list[Problem]) -> bool:
    """Whether the tool at ``path`` nests too deeply (:attr:`_Problems.too_deep`); if so, the
    error that skips it is added to ``problems``."""
    place = getattr(problems, "too_deep", {}).get(path)
    if place is None:
        return False
    problems.append(Problem("error", f"{origin}: {place}", f"nested more than {readers.MAX_NESTING_DEPTH} levels "
                                                          "deep (limit); tool skipped"))
    return True


def _shown(value: Any) -> str:
    """``value`` quoted as a problem names it, cut past the length a config warning quotes
    (:func:`~.invisible.quoted_short`): a 200,000-character ``kind`` made a warning line as long."""
    return quoted_short(value, C.SHOWN_VALUE_MAX_CHARS)


def _got(raw: Mapping[str, Any], key: str) -> str:
    """What ``raw[key]`` holds instead of a name, for a problem (``""`` when the key is missing,
    ``", got null"`` when it has no value): YAML reads an unquoted ``2024-01-01`` as a date, ``yes``/``off`` as booleans and ``1.0``
    as a number, so the message says what was read and that quotes keep it as text."""
    value = raw.get(key)
    if value is None:
        return ", got null" if key in raw else ""
    quote = " (put the name in quotes to keep it as text)"
    if isinstance(value, bool):
        return f", got the boolean {str(value).lower()}{quote}"
    if isinstance(value, (int, float)):
        shown = repr(value)
        return f", got the number {shown if len(shown) <= 40 else shown[:39] + '…'}{quote}"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f", got the date {value.isoformat()}{quote}"
    if isinstance(value, bytes):
        return ", got binary data (a !!binary value)"
    if isinstance(value, str):
        return ", got a blank string"
    return f", got {yaml_kind(value)}"


def _tool_from_data(raw: Any, origin: str, path: str, problems: list[Problem],
                    schema_key: str = "inputSchema") -> Tool | None:
    if _skipped_too_deep(origin, path, problems):  # before any walk of its values: they may recurse
        return None
    if not isinstance(raw, Mapping):
        problems.append(Problem("error", f"{origin}: {path}",
                                f"expected a tool mapping with a name, got {yaml_kind(raw)}; skipped"))
        return None
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem("error", f"{origin}: {path}",
                                f"expected a non-empty string 'name'{_got(raw, 'name')}; tool skipped"))
        return None
    odd = _non_finite({k: v for k, v in raw.items() if k != "description"})  # a description is repaired below
    if odd is not None:
        where, why, hint = odd
        problems.append(Problem("error", f"{origin}: {path}{where}",
                                f"{why} (a request carrying this tool would not be valid JSON); tool skipped{hint}"))
        return None
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        problems.append(Problem("warning", f"{origin}: {path}.description",
                                f"expected a string, got {yaml_kind(description)}; treated as missing"))
        description = None
    schema = raw.get(schema_key, raw.get("input_schema"))
    if schema is None and schema_key == "inputSchema" and "parameters" in raw:
        problems.append(Problem("warning", f"{origin}: {path}.parameters",
                                "an MCP tool carries its schema in 'inputSchema', not 'parameters'; registered with "
                                "no parameters ('parameters' is kept as an unknown key)"))
    if schema is not None and not isinstance(schema, Mapping):
        problems.append(Problem("warning", f"{origin}: {path}.{schema_key}",
                                f"expected a JSON Schema object, got {yaml_kind(schema)}; "
                                "registered as an empty object schema"))
    if isinstance(schema, Mapping):
        try:
            schema, keys = _text_keys(schema)
        except _KeyClash as clash:
            problems.append(Problem("error", f"{origin}: {path}.{schema_key}{clash.at}",
                                    f"the key {clash.key} is given twice, once as text and once unquoted (which "
                                    "YAML reads as another kind of value), and JSON writes both as the same text; "
                                    "tool skipped; expected each key once"))
            return None
        if keys:
            at, key = keys[0]
            more = f" (and {len(keys) - 1:,} more such key{'s' if len(keys) > 2 else ''})" if len(keys) > 1 else ""
            problems.append(Problem("warning", f"{origin}: {path}.{schema_key}{at}",
                                    f"a key read as {_key_kind(key)} is taken as the text {_key_text(key)!r}, "
                                    f"as JSON writes it{more}; put keys in quotes to keep them as written"))
    if isinstance(schema, Mapping) and "type" not in schema and schema:
        problems.append(Problem("info", f"{origin}: {path}.{schema_key}",
                                "schema has no 'type'; registration adds type object"))
    known = _KNOWN_TOOL_KEYS.get(schema_key) or (*_TOOL_KEYS, schema_key, "input_schema")
    extra = {k: v for k, v in raw.items() if k not in known}
    return Tool(name=name, description=description, input_schema=schema, extra=extra)


_JSON_SCALARS = (str, int, float, bool, type(None))


def _not_json(value: Any) -> tuple[str, str] | None:
    """Why the scalar ``value`` is not a JSON value, as a problem says it, and what to do instead
    (``"; …"`` or ``""``), or ``None`` when it is one. YAML reads an unquoted ``2024-01-01`` as a date, ``!!binary`` as bytes and ``!!set`` as a
    set: none of them is JSON, and writing such a schema out (``describe --sent``, ``plan --json``)
    failed."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{'NaN' if value != value else 'Infinity' if value > 0 else '-Infinity'} is not a JSON number", ""
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return f"the date {value.isoformat()} is not a JSON value", "; put it in quotes to keep it as text"
    if isinstance(value, (bytes, bytearray)):
        return "binary data (a !!binary value) is not a JSON value", ""
    if isinstance(value, (set, frozenset)):
        return "a set (a !!set value) is not a JSON value", "; write a list or a mapping"
    if not isinstance(value, _JSON_SCALARS) and not isinstance(value, (Mapping, list, tuple)):
        return f"{yaml_kind(value)} is not a JSON value", ""
    return None


def _non_finite(data: Any) -> tuple[str, str, str] | None:
    """The first value in ``data`` that is not JSON as ``(".key[i]" path, why, hint)``, or ``None``:
    a NaN or an infinity (``"NaN is not a JSON number"``; Python's parser reads ``NaN``,
    ``Infinity`` and ``1e999``, YAML has ``.nan`` and ``.inf``, and ``json.dumps`` writes them back
    as bare words no JSON reader takes), or a YAML date, binary value or set (:func:`_not_json`)."""
    values: list[Any] = [data]  # a quick pass first: nearly every tool has none
    while values:
        value = values.pop()
        kind = value.__class__
        if kind is dict:  # what the parsers build: checked before the slower abstract-class test
            values.extend(value.values())
        elif kind is str or kind is int or kind is bool or value is None:
            continue
        elif kind is float:
            if not math.isfinite(value):
                break
        elif kind is list or isinstance(value, (list, tuple)):
            values.extend(value)
        elif isinstance(value, Mapping):
            values.extend(value.values())
        elif _not_json(value) is not None:
            break
    else:
        return None
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, where = stack.pop()
        why = _not_json(value)
        if why is not None:
            return where, *why
        if isinstance(value, Mapping):
            stack.extend((v, f"{where}.{k}") for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(value))))
    return None


def _key_kind(key: Any) -> str:
    """What YAML read an unquoted key as, for a problem: ``the boolean true (YAML reads unquoted
    true, yes and on so)``, ``the number 5``, ``null``."""
    if key is None:
        return "null (YAML reads an unquoted null and ~ so)"
    if isinstance(key, bool):
        word = str(key).lower()
        return f"the boolean {word} (YAML reads an unquoted {word}, {'yes and on' if key else 'no and off'} so)"
    if isinstance(key, (int, float)):
        return f"the number {_key_text(key)}"
    if isinstance(key, (datetime.date, datetime.datetime)):
        return f"the date {_key_text(key)}"
    return yaml_kind(key)


def _key_text(key: Any) -> str:
    """A mapping key that is not text as JSON would write it as a key: ``null``, ``true``, ``5``,
    ``1.5`` (``Infinity`` and ``NaN`` as Python's JSON writer spells them); a YAML date in ISO form
    (``2024-01-01``), anything else as Python writes it."""
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    if isinstance(key, (datetime.date, datetime.datetime, datetime.time)):
        return key.isoformat()
    return str(key)


class _KeyClash(Exception):
    """A key that is not text spells, as JSON writes it, the same as a text key of its mapping."""

    def __init__(self, at: str, key: str) -> None:
        super().__init__(at, key)
        self.at, self.key = at, key


def _text_keys(data: Any, where: str = "") -> tuple[Any, list[tuple[str, Any]]]:
    """``data`` with every mapping key that is not text replaced by the text JSON writes for it
    (``null``, ``true``, ``5``, ``1.5``), and the ``(path, key)`` of each such key, first first.
    A YAML catalog's unquoted ``on:``, ``null:`` or ``5:`` under ``properties`` is a boolean, None
    or a number; registration named such a property ``True`` or ``None`` (Python's spelling) while
    the schema the server sends, written as JSON, says ``true`` or ``null``. Keys that collide are
    refused by the reader before this (:mod:`toolsearch.engine.readers`).

    Raises:
        _KeyClash: such a key is written, as JSON writes it, as a text key beside it (``5:`` and
            ``'5':``), so a JSON request would hold one property twice.
    """
    found: list[tuple[str, Any]] = []

    def walk(value: Any, at: str) -> Any:
        if isinstance(value, Mapping):
            out = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    found.append((at, key))
                    key = _key_text(key)  # noqa: PLW2901 - the key as JSON writes it
                    if key in value:
                        raise _KeyClash(at, key)
                out[key] = walk(item, f"{at}.{key}")
            return out
        if isinstance(value, list):
            return [walk(item, f"{at}[{i}]") for i, item in enumerate(value)]
        return value

    stack, plain = [data], True  # a quick pass first: nearly every schema has text keys only
    while stack and plain:
        value = stack.pop()
        if isinstance(value, Mapping):
            plain = all(isinstance(k, str) for k in value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return (data, found) if plain else (walk(data, where), found)


def _skipped(raw: Any, tools: Sequence[Tool]) -> int:
    """How many entries of the raw tool list ``raw`` did not become one of ``tools`` (a value that
    is not a list at all counts as one)."""
    if raw is None:
        return 0
    return len(raw) - len(tools) if isinstance(raw, list) else 1


def _tools_from_list(raw: Any, origin: str, path: str, problems: list[Problem],
                     schema_key: str = "inputSchema") -> tuple[Tool, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.append(Problem("error", f"{origin}: {path}",
                                f"expected a list of tools, got {yaml_kind(raw)}; no tools read"))
        return ()
    tools = []
    for index, item in enumerate(raw):
        tool = _tool_from_data(item, origin, f"{path}[{index}]", problems, schema_key)
        if tool is not None:
            tools.append(tool)
    return tuple(tools)


def _server_from_data(raw: Any, origin: str, path: str, problems: list[Problem]) -> Server | None:
    if not isinstance(raw, Mapping):
        problems.append(Problem("error", f"{origin}: {path}",
                                f"expected a server mapping with name and tools, got {yaml_kind(raw)}; skipped"))
        return None
    name = raw.get("name")
    if not isinstance(name, str):
        problems.append(Problem("error", f"{origin}: {path}.name",
                                f"expected the server name as a string{_got(raw, 'name')}; server skipped"))
        return None
    if not name.strip():
        problems.append(Problem("warning", f"{origin}: {path}.name",
                                "expected a non-empty server name; the server is kept, but its tools are "
                                "listed under a blank group heading"))
    kind = raw.get("kind", "mcp")
    if kind not in C.SERVER_KINDS:
        problems.append(Problem("warning", f"{origin}: {path}.kind",
                                f"expected one of {', '.join(C.SERVER_KINDS)}, got {_shown(kind)}; using mcp"))
        kind = "mcp"
    capabilities = raw.get("capabilities")
    if capabilities is not None and not isinstance(capabilities, Mapping):
        problems.append(Problem("warning", f"{origin}: {path}.capabilities",
                                "expected a mapping; ignored"))
        capabilities = None
    config = raw.get("config") or {}
    if not isinstance(config, Mapping):
        problems.append(Problem("warning", f"{origin}: {path}.config", "expected a mapping; ignored"))
        config = {}
    info = raw.get("info") if isinstance(raw.get("info"), Mapping) else None
    tools = _tools_from_list(raw.get("tools"), origin, f"{path}.tools", problems)
    extra = {k: v for k, v in raw.items() if k not in _SERVER_KEYS}
    return Server(name=name, kind=kind, tools=tools, capabilities=capabilities, info=info,
                  config=config, origin=origin, extra=extra, skipped=_skipped(raw.get("tools"), tools))


def _openai_function(raw: Any, origin: str, path: str, problems: list[Problem]) -> Tool | None:
    if _skipped_too_deep(origin, path, problems):  # a value beside 'function' nests too deeply
        return None
    if isinstance(raw, Mapping) and isinstance(raw.get("function"), Mapping):
        extra = {k: v for k, v in raw.items() if k not in ("type", "function")}
        tool = _tool_from_data(raw["function"], origin, f"{path}.function", problems, "parameters")
        if tool is not None and extra:
            tool = Tool(tool.name, tool.description, tool.input_schema, {**tool.extra, **extra})
        return tool
    return _tool_from_data(raw, origin, path, problems, "parameters")


#: ``Problem.where`` of a server a snapshot file records as failed ends with this, then its name.
SNAPSHOT_FAILED = "snapshot.failed."


def _snapshot_failures(block: Any, origin: str) -> list[Problem]:
    """A warning per server the ``snapshot.failed`` block of a ``toolsearch snapshot`` file names:
    it did not list its tools when the snapshot was taken, so the catalog lacks it (a gate checks
    that file as it would the live config: ``check`` and ``recommend`` refuse it)."""
    failed = block.get("failed") if isinstance(block, Mapping) else None
    if not isinstance(failed, Mapping):
        return []
    return [Problem("warning", f"{origin}: {SNAPSHOT_FAILED}{name}",
                    f"server {quoted_short(str(name))} did not list its tools when this snapshot was taken "
                    f"({mask_token_shapes(str(reason))}), so the catalog lacks it")
            for name, reason in failed.items()]


@gc_paused()
def catalog_from_data(data: Any, origin: str, default_server: str | None = None) -> Catalog:
    """Build a catalog from parsed data in any accepted shape.

    Args:
        data: the parsed YAML/JSON value.
        origin: file name (or label) used in messages.
        default_server: server name for ``tools/list`` and function-array sources without one
            (defaults to the stem of ``origin``).

    Raises:
        CatalogError: the value is not one of the accepted shapes (the message names the
            shapes), or it is an MCP client config (those are connected live, not read).
    """
    problems = _Problems(origin)
    stem = default_server or readers.source_stem(origin) or "tools"
    if isinstance(data, Mapping) and isinstance(data.get("result"), Mapping) and "tools" in data["result"]:
        data = {**data["result"], **({"server": data["server"]} if "server" in data else {})}
    if readers.nesting_exceeds(data, readers.MAX_NESTING_DEPTH):
        # one tool nested too deeply is skipped, with a word; the rest of the file, too deep, is refused
        problems.too_deep, refusal = _nesting_places(readers.data_nesting(data), _tool_places(data))
        if refusal is not None:
            raise _too_deep_refusal(origin, *refusal)
    if isinstance(data, Mapping) and isinstance(data.get("servers"), list):
        servers = []
        for index, raw in enumerate(data["servers"]):
            server = _server_from_data(raw, origin, f"servers[{index}]", problems)
            if server is not None:
                servers.append(server)
        extra = {k: v for k, v in data.items() if k not in ("name", "servers")}
        if isinstance(data.get("tools"), list) and data["tools"]:  # kept as an unknown key, but not counted: say so
            problems.append(Problem("warning", f"{origin}: tools",
                                    f"{counted(len(data['tools']), 'item')} beside the 'servers' list, where no "
                                    "server holds them; not read (a catalog lists each tool under its server's "
                                    "'tools')"))
        problems.extend(_snapshot_failures(data.get("snapshot"), origin))
        name = data.get("name") if isinstance(data.get("name"), str) else stem
        catalog = Catalog(name=name, servers=tuple(servers), problems=problems.done(),
                          sources=(origin,), extra=extra)
        return _merge_servers(catalog)
    if isinstance(data, Mapping) and isinstance(data.get("tools"), list):
        server_name = data.get("server")
        if isinstance(server_name, Mapping):
            server_name = server_name.get("name")
        if not isinstance(server_name, str) or not server_name:
            server_name = stem
        tools = _tools_from_list(data["tools"], origin, "tools", problems)
        if data.get("nextCursor") == "":
            problems.append(Problem("warning", f"{origin}: nextCursor", EMPTY_NEXT_CURSOR))
        elif data.get("nextCursor"):
            problems.append(Problem("warning", f"{origin}: nextCursor",
                                    "this tools/list page has a next cursor; later pages are not in the file"))
        server = Server(name=server_name, kind="mcp", tools=tools, origin=origin, skipped=_skipped(data["tools"], tools),
                        capabilities=data.get("capabilities") if isinstance(data.get("capabilities"), Mapping) else None)
        return Catalog(name=server_name, servers=(server,), problems=problems.done(), sources=(origin,))
    if isinstance(data, list):
        if data and not any(isinstance(item, Mapping) for item in data):
            # Nothing in it is a tool object: not a function array at all, so fail the file.
            raise CatalogError(f"{origin}: [0]: expected a function array (a list of tool objects), "
                               f"got a list whose first item is {yaml_kind(data[0])}")
        if _list_shape(data, origin) == "mcp":
            return _mcp_tool_list(data, origin, stem, problems)
        tools = []
        for index, raw in enumerate(data):
            tool = _openai_function(raw, origin, f"[{index}]", problems)
            if tool is not None:
                tools.append(tool)
        server = Server(name=stem, kind="plugin", tools=tuple(tools), origin=origin, skipped=len(data) - len(tools))
        return Catalog(name=stem, servers=(server,), problems=problems.done(), sources=(origin,))
    if isinstance(data, Mapping) and any(k in data for k in ("mcpServers", "mcp_servers", "servers")):
        key = next(k for k in ("servers", "mcpServers", "mcp_servers") if k in data)
        if not isinstance(data[key], Mapping):  # neither a catalog's list nor a client config's servers
            got = yaml_kind(data[key]) if data[key] is not None else "nothing"
            catalog = "a list of servers (a catalog) or " if key == "servers" else ""
            raise CatalogError(f"{origin}: {key}: expected {catalog}a mapping of server names to their settings "
                               f"(an MCP client config); got {got}")
        raise CatalogError(f"{origin}: this is an MCP client config (mcpServers / servers / mcp_servers), "
                           "not a catalog; its tools are read by connecting to its servers: upload it on the app's "
                           "Live servers page, or give it to a toolsearch command as a source")
    got = yaml_kind(data) if data is not None else "an empty document"
    raise CatalogError(f"{origin}: top level: expected a catalog (a mapping with a 'servers' list), "
                       f"a tools/list result (a mapping with a 'tools' list), a list of MCP tools (each with inputSchema) "
                       f"or a function array (a list of functions); got {got}")


_MCP_SCHEMA_KEYS = ("inputSchema", "input_schema")
_FUNCTION_KEYS = ("function", "parameters")


def _list_shape(data: list, origin: str) -> str:
    """``mcp`` for a flat list of MCP tools, ``function`` for a function array.

    A list whose tool objects carry ``inputSchema`` (or ``input_schema``) is a list of MCP tools;
    one whose objects carry ``function`` or ``parameters`` is a function array; a list with
    neither is a list of MCP tools when some item names its ``server``, else a function array.

    Raises:
        CatalogError: the list mixes both shapes (naming the first item of each), so no reading
            of it keeps every item's schema.
    """
    items = [(i, item) for i, item in enumerate(data) if isinstance(item, Mapping)]
    mcp = next((i for i, item in items if any(k in item for k in _MCP_SCHEMA_KEYS)), None)
    function = next((i for i, item in items if any(k in item for k in _FUNCTION_KEYS)), None)
    if mcp is not None and function is not None:
        raise CatalogError(
            f"{origin}: [{function}]: expected one shape for the whole list: MCP tools (each with inputSchema, "
            f"grouped by their server key, like [{mcp}]) or a function array (each with parameters or function, "
            f"like [{function}]), not both")
    if mcp is not None:
        return "mcp"
    if function is None and any("server" in item for _, item in items):
        return "mcp"
    return "function"


def _mcp_tool_list(data: list, origin: str, stem: str, problems: _Problems) -> Catalog:
    """A flat list of MCP tools (a common export shape), grouped into MCP servers by each tool's
    ``server`` key (a name, or a mapping with a ``name``), in order of first appearance; tools
    without one go to the server named after the file. The ``server`` key is used for grouping;
    every other unknown key is kept on the tool."""
    grouped: dict[str, list[Tool]] = {}
    unnamed = []
    for index, raw in enumerate(data):
        server_name: Any = raw.get("server") if isinstance(raw, Mapping) else None
        if isinstance(server_name, Mapping):
            server_name = server_name.get("name")
        if isinstance(raw, Mapping) and "server" in raw and (not isinstance(server_name, str) or not server_name):
            problems.append(Problem("warning", f"{origin}: [{index}].server",
                                    f"expected a server name (a non-empty string), got {_shown(raw['server'])}; "
                                    f"the tool is put in server {quoted(stem)} (the file name)"))
            server_name = None
        elif isinstance(raw, Mapping) and "server" not in raw:
            unnamed.append(index)
        if isinstance(raw, Mapping):
            raw = {k: v for k, v in raw.items() if k != "server"}
        tool = _tool_from_data(raw, origin, f"[{index}]", problems)
        if tool is not None:
            grouped.setdefault(server_name or stem, []).append(tool)
    if unnamed and len(unnamed) < len(data):
        problems.append(Problem("info", f"{origin}: [{unnamed[0]}]",
                                f"{_counted_tools(len(unnamed))} without a 'server' key; put in server {quoted(stem)} "
                                "(the file name)"))
    servers = tuple(Server(name=name, kind="mcp", tools=tuple(tools), origin=origin) for name, tools in grouped.items())
    return Catalog(name=stem, servers=servers, problems=problems.done(), sources=(origin,))


def _counted_tools(n: int) -> str:
    """``1 tool`` / ``N tools``."""
    return f"{n} tool" if n == 1 else f"{n:,} tools"


#: The end of the warning a server defined more than once gets (:func:`merged_servers` finds it).
MERGED_WORDS = "a harness keys servers by name, so their tools are merged into one server"


def merged_servers(catalog: Catalog) -> tuple[Problem, ...]:
    """The warnings of ``catalog``'s servers defined more than once (in several files, or twice in
    one) whose tools were merged into one server: ``where`` names the server, ``message`` how many
    times and in which files. Empty when no server was merged."""
    return tuple(p for p in catalog.problems if p.severity == "warning" and p.message.endswith(MERGED_WORDS))


def _merge_servers(catalog: Catalog) -> Catalog:
    """Merge servers that share a name and kind, and report it.

    A harness keys servers by name, so two definitions of ``github`` (e.g. from two files) are one
    server: their tools are concatenated, contributions ordered by origin so the result does not
    depend on the order the sources were given in (a tool listed twice is then dropped by
    registration, docs/reference.md §21.5). An MCP server and a plugin toolset of the same name stay separate
    servers; their listing groups merge by label (docs/reference.md §5.2).
    """
    groups: dict[tuple[str, str], list[Server]] = {}
    for server in catalog.servers:
        groups.setdefault((server.name, server.kind), []).append(server)
    problems = list(catalog.problems)
    servers = []
    for (name, kind), parts in groups.items():
        if len(parts) == 1:
            servers.append(parts[0])
            continue
        parts = sorted(parts, key=lambda s: s.origin)  # stable: same-file order is kept
        origins = list(dict.fromkeys(p.origin for p in parts))
        capabilities = None
        for part in parts:
            if part.capabilities is not None:
                capabilities = {**(capabilities or {}), **part.capabilities}
        merged = Server(
            name=name, kind=kind, tools=tuple(t if t.origin else replace(t, origin=p.origin) for p in parts for t in p.tools),
            capabilities=capabilities,
            info=next((p.info for p in parts if p.info), None), config=next((p.config for p in parts if p.config), {}),
            origin=", ".join(o for o in origins if o), extra={k: v for p in reversed(parts) for k, v in p.extra.items()},
            skipped=sum(p.skipped for p in parts))
        problems.append(Problem("warning", f"server {quoted_short(name)}",
                                f"defined {len(parts)} times ({', '.join(o for o in origins if o) or 'one file'}); "
                                + MERGED_WORDS))
        servers.append(merged)
    return Catalog(catalog.name, tuple(servers), tuple(problems), catalog.sources, catalog.extra)


def load_text(text: str, origin: str, default_server: str | None = None) -> Catalog:
    """Parse catalog text (YAML or JSON) from an upload or a file.

    Args:
        text: the file's text.
        origin: the name used in messages and problems.
        default_server: the name a ``tools/list`` result or function array without a server name
            takes, and the catalog's name when it has none (default: the stem of ``origin``); for an
            ``origin`` that is not the file's bare name (``catalog.json (2nd upload)``).

    Raises:
        CatalogError: not valid YAML/JSON, over a reading limit, or not an accepted shape; the
            message names ``origin`` and the place.
    """
    return catalog_from_data(_parse_text(text, origin), origin, default_server)


def load_source(path: str | Path, origin: str | None = None) -> Catalog:
    """Load one catalog file.

    Args:
        path: the file.
        origin: the file's name in messages and problems (default: ``path`` as given); the app
            names a shipped sample ``sample_catalogs/<file>``, not by the folder it is installed in.

    Raises:
        CatalogError: the file cannot be read, is not valid YAML/JSON, or is not an accepted
            shape. The message names the file and the place.
    """
    path = Path(path)
    return load_text(read_source_text(path), origin or str(path))


def read_source_text(path: str | Path) -> str:
    """The UTF-8 text of a source file.

    Raises:
        CatalogError: unreadable (missing, a directory, no permission), larger than the input
            limit, or not UTF-8, naming the file and, for bad bytes, the line, column and byte
            offset.
    """
    return readers.read_text(path, CatalogError)


def combine(catalogs: Iterable[Catalog], name: str | None = None) -> Catalog:
    """Combine catalogs into one; servers defined more than once are merged and reported.

    Duplicate tool names across servers are kept apart (they are different tools) and reported
    as ``info`` problems.
    """
    catalogs = list(catalogs)
    servers = tuple(s for c in catalogs for s in c.servers)
    problems = tuple(p for c in catalogs for p in c.problems)
    sources = tuple(src for c in catalogs for src in c.sources)
    title = name or (catalogs[0].name if len(catalogs) == 1 else " + ".join(c.name for c in catalogs))
    extra = catalogs[0].extra if catalogs else {}
    combined = _merge_servers(Catalog(title, servers, problems, sources, extra))
    extra_problems = [
        Problem("info", f"tool {quoted_short(tool)}", f"defined by several servers ({', '.join(map(shortened, owners))}); kept apart")
        for tool, owners in combined.duplicate_tool_names().items()
    ]
    return Catalog(combined.name, combined.servers, combined.problems + tuple(extra_problems),
                   combined.sources, combined.extra)


def load_sources(paths: Iterable[str | Path]) -> Catalog:
    """Load and combine several catalog files (:func:`load_source` each, then :func:`combine`).

    Args:
        paths: the files, combined in the order given (servers defined in several files are
            merged and reported).

    Raises:
        CatalogError: for the first file that cannot be read, is not valid YAML/JSON, is over a
            reading limit or is not an accepted shape; the message names the file and the place.
    """
    return combine([load_source(p) for p in paths])


def catalog_to_data(catalog: Catalog) -> dict[str, Any]:
    """The catalog in the catalog file format (unknown keys included), ready for YAML/JSON."""
    servers = []
    for server in catalog.servers:
        entry: dict[str, Any] = {"name": server.name, "kind": server.kind}
        if server.info:
            entry["info"] = dict(server.info)
        if server.capabilities is not None:
            entry["capabilities"] = dict(server.capabilities)
        if server.config:
            entry["config"] = dict(server.config)
        entry.update(server.extra)
        tools = []
        for tool in server.tools:
            item: dict[str, Any] = {"name": tool.name}
            if tool.description is not None:
                item["description"] = tool.description
            if tool.input_schema is not None:
                item["inputSchema"] = tool.input_schema
            item.update(tool.extra)
            tools.append(item)
        entry["tools"] = tools
        servers.append(entry)
    return {"name": catalog.name, **dict(catalog.extra), "servers": servers}


def dump_catalog(catalog: Catalog) -> str:
    """The catalog as YAML text in the catalog file format."""
    return readers.dump_yaml(catalog_to_data(catalog))


def to_json(value: Any) -> str:
    """Pretty JSON with non-ASCII kept (for display and downloads)."""
    return json.dumps(value, ensure_ascii=False, indent=2)

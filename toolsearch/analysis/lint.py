"""Catalog lint: what in a catalog will hurt the model or the harness, with a one-line fix each.

Every rule works on the catalog as the reference harness registers it (docs/reference.md §21–§22) and searches
it (docs/reference.md §5.1, §7). Thresholds live in :mod:`toolsearch.engine.constants` (the ``LINT_*`` names and
``PROVIDER_MAX_TOOLS``). Severities:

* ``error``: the harness drops tools, or a provider rejects the whole request;
* ``warning``: the model is likely to miss, misread or overpay for a tool;
* ``info``: worth knowing in a design review, often fine.

Rules (:data:`RULES`, in report order):

* ``load-problem`` (error / warning): a tool or server the loader skipped (error) or repaired
  (warning), as reported while reading the file; ``info`` load notes are left out. A server a
  ``toolsearch snapshot`` file records as failed is an error, as the same server failing live is.
* ``name-invalid`` (error): a name kept as is (plugin and core tools, or ``--tool-names as-is``)
  that OpenAI-style providers reject: not ``^[a-zA-Z0-9_-]{1,64}$``.
* ``sanitized-collision`` (error): two different tools of one server whose wire names are equal
  after sanitizing (``read-file`` and ``read_file``): the reference registers **neither**
  (docs/reference.md §21.5).
* ``cross-server-collision`` (error): a wire name produced by two servers (servers ``my-api``
  and ``my_api`` both exposing ``ping``; or the same name on two servers with ``as-is`` naming):
  the registry keeps the first registration and skips the other.
* ``reserved-name`` (error): a tool whose wire name is a bridge tool's name (``tool_search``,
  ``tool_describe``, ``tool_call``) or the name a provider transport gives the bridge
  (``hermes_tool_search``): the tool and the bridge cannot both be called.
* ``name-over-64`` (warning): a prefixed MCP name over 64 characters; the reference clamps it to
  ``full[:55] + "_" + sha256[:8]`` (docs/reference.md §21.3), and the finding shows the result.
* ``name-unrecognizable`` (warning): a server or tool name (prefixed naming) every character of
  which sanitizing replaces (docs/reference.md §21.2: ``日本語サーバー`` → ``_______``), so the wire name
  keeps nothing of it; the finding names the original and the wire name.
* ``duplicate-in-server`` (warning): a server lists the same tool name more than once; the later
  copies are dropped. When several tools repeat (typically a server defined in two catalog files,
  which the loader merges), one finding for the server, in the loader's words (how many, a few
  names, which file's definitions are kept), with every name in :attr:`Finding.tools`.
* ``description-empty`` (warning): no description, or whitespace only. MCP tools get the generated
  default description (docs/reference.md §22), which says nothing about what the tool does.
* ``description-one-word`` (warning): a one-word description (no whitespace inside; text with
  Han, kana or Hangul never counts, since those scripts do not separate words with spaces).
* ``description-no-ascii-words`` (warning): a deferred tool whose description has no
  ``[A-Za-z0-9]+`` word: the reference search (docs/reference.md §7.1) sees only its name words, label and
  parameter names.
* ``unreachable`` (warning): a deferred tool that none of its own probe queries returns within
  ``search_default_limit``. The probes are (1) its own tool name with ``_ . : -`` as spaces
  (``dns_records_list`` → ``dns records list``) and (2) up to ``LINT_PROBE_MAX_KEYWORDS`` keywords
  of its listing line (the short description of docs/reference.md §5.1, the text a model reads before it
  searches): its ASCII words, lowercased, in order, without repeats, at least
  ``LINT_PROBE_MIN_WORD_CHARS`` characters long, not all digits and not in
  ``LINT_PROBE_STOP_WORDS``. Each probe runs through the reference search; exact-name matches are
  not probes.
* ``schema-large`` (warning): a tool whose definition costs more than ``LINT_SCHEMA_MEDIAN_FACTOR``
  times the catalog's median and more than ``LINT_SCHEMA_MIN_TOKENS`` tokens (chars4, docs/reference.md §3), or
  more than ``LINT_SCHEMA_ABSOLUTE_TOKENS`` whatever the median (small catalogs, where one big
  tool moves the median itself).
* ``description-over-2048`` (warning): a description over ``LINT_DESCRIPTION_MAX_CHARS``
  characters (registration keeps it whole, docs/reference.md §22; ``tool_search`` shows 500 of it).
* ``too-many-tools`` (error / warning): more than ``PROVIDER_MAX_TOOLS`` (128) tools in one
  request, which the OpenAI Chat Completions API (and Azure OpenAI, the same API) rejects. An
  error when the request at these settings exceeds it; a warning when only the eager request
  (tool search off) would.
* ``sdk-rejects`` (error): a tool the official MCP SDK rejects, which makes it reject the whole
  ``tools/list`` result (e.g. an ``inputSchema`` without ``type: "object"``): SDK-based clients
  see none of the server's tools.
* ``hidden-characters`` (error / warning): invisible and format characters in any string the
  model or the client may show (:func:`model_strings`: names, titles, descriptions, annotations,
  input and output schemas at any depth: descriptions, titles, enum values, defaults, examples,
  property names), and in server names (the listing's heading gives them as written): Unicode TAG characters (the ASCII they spell is decoded), runs of variation
  selectors (the text their bytes spell is decoded), zero-width characters, bidi controls, other
  ``Cf`` characters and raw control characters. Ordinary emoji are not findings (a zero-width
  joiner between two emoji, one variation selector, flag tag sequences). The reference strips TAG
  characters from the top-level description at registration (docs/reference.md §22) and does not send the
  title, annotations or output schema to the model, but keeps everything else: the finding says
  whether the model still receives them. An error when TAG, variation-selector or bidi
  characters reach the model.
* ``model-instructions`` (error): text addressed to the model rather than describing the tool:
  hidden-block markers (``<IMPORTANT>``, ``<system>``…), "ignore (all) previous instructions",
  orders to keep something from the user ("do not tell / mention … the user", "keep / hide this
  from the user", :data:`SECRECY_PHRASES`; hiding a window or panel from the user's screen is not
  one), requests to read files, configs or keys and pass them in an argument, and pointers to
  instructions continued in other fields ("the steps continue in the parameter texts"). The
  ignore and secrecy orders are also matched in German, French, Spanish, Italian, Portuguese,
  Russian, Chinese and Japanese, and German read-and-pass requests. Besides each string as sent,
  the checks read: decoded TAG and variation-selector text; identifiers as words
  (``ignore_previous_instructions``, ``ignorePreviousInstructions``); leetspeak with
  ``1 0 3 4 5 7 @ $`` read as ``i/l o e a s t a s``; and the tool's texts joined in order, where a
  text that goes on in the next (it starts in lowercase, or the one before ends on a comma, colon
  or dash) reads as one sentence with it, so an order split across the description and the
  parameter texts is found. Ordinary words ("important", "ignore lines that start with #") are not
  findings.
* ``data-in-url`` (error): a URL in a tool's text that would carry conversation data or secrets
  out: a markdown or HTML image (a client fetches it by itself) whose URL has a template
  placeholder or a query naming conversation or secret data, or any URL whose placeholder names
  such data (``{summary_of_conversation}``, ``${secret}``) or whose query value is such data
  (``?q=chat_history``). Plain links, images without placeholders and API URL templates such as
  ``/repos/{owner}/{repo}`` are not findings.
* ``lookalike-name`` (error / warning): a server whose name reads like another server's but uses
  other characters (``gіthub`` with a Cyrillic ``і`` beside ``github``; ``paypa1`` beside
  ``paypal``), or a tool whose name reads like another server's tool (the confusable skeletons of
  Unicode's UTS #39, :mod:`toolsearch.analysis.lookalike`): an error on the name written with
  characters of another script or full-width forms (on both when neither is). A name written with look-alikes of ASCII
  letters from another script (or full-width letters) with no twin in the catalog is a warning.
  Names that differ only in case, and Latin letters such as ``ß``, are not findings.
* ``shadowing`` (warning): a tool's text names another server's tool (by wire name or a
  distinctive raw name), or tells the model how to use other servers' tools.
* ``rug-pull`` (warning / error, with a baseline snapshot): an existing tool whose description,
  input schema, title, annotations or output schema changed since the saved snapshot (a warning:
  review it before trusting it again); a tool that is new under a name that looks like a tool of
  the snapshot, its server or its own name renamed to a look-alike (an error).
* ``server-empty`` (info): a server that lists no tools.
* ``duplicate-name`` (info): the same tool name on several servers (distinct wire names under
  prefixed naming): the model sees it in several groups and needs the server word to pick one.
* ``first-sentence-clipped`` (info): the listing line of a deferred tool is cut (the short
  description ends with ``…``, docs/reference.md §5.1).
"""

from __future__ import annotations

import re
import statistics
import weakref
from collections.abc import Mapping as _MappingABC
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterator, Mapping, Sequence

import numpy as np

from ..engine import constants as C
from ..engine.transport import ALL_BRIDGE_WIRE_NAMES, RESERVED_NAMES, WIRE_ALIASES
from ..engine.catalog import SNAPSHOT_FAILED, Catalog
from ..engine.config import ToolSearchConfig
from ..engine.invisible import find_hidden, kind_of, quoted, quoted_short, shortened
from .lint_rules import RULES
from .schema_lint import lint_rows as schema_lint_rows, reported_here
from ..engine.inspector import Inspector
from ..engine.listing import short_description
from ..engine.registration import (clamp_tool_name, filter_tool_names, repeated_tools_words, replaced_entirely,
                                   sanitize_name_part, unrecognizable_name_words)

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_NAME_SEPARATORS = re.compile(r"[_.:\-\s]+")
_PROVIDER_NAME = re.compile(C.PROVIDER_TOOL_NAME_PATTERN)
# Chinese and Japanese are written without spaces between words: such text is never "one word".
_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

_SEVERITY_RANK = {s: i for i, s in enumerate(C.LINT_SEVERITIES)}
_RULE_RANK = {r: i for i, r in enumerate(RULES)}


@dataclass(frozen=True)
class Finding:
    """One lint finding.

    Attributes:
        rule: a key of :data:`RULES`.
        severity: ``error`` | ``warning`` | ``info``.
        server: the server's name ("" for catalog-wide findings).
        tool: the server's own tool name ("" for server- or catalog-wide findings).
        name: the wire name the model would see ("" when it gets none).
        message: what is wrong, with the numbers.
        fix: one line saying what to change.
        field: where in the tool, e.g. ``parameters.properties.path.description`` ("" = the tool).
        offset: character offset (code points) in that field, when the finding is at a place.
        tools: for a finding about several tools of one server (``duplicate-in-server`` when more
            than one tool repeats), their own names, every one ("" ``tool``; the message quotes a few).
    """

    rule: str
    severity: str
    server: str
    tool: str
    name: str
    message: str
    fix: str
    field: str = ""
    offset: int | None = None
    tools: tuple[str, ...] = ()

    def subject(self, separator: str = "/") -> str:
        """Whom the finding is about, as the ``lint`` line and the Quality page name it: the server
        and the tool joined by ``separator`` (``"catalog"`` for neither), a name over
        :data:`~toolsearch.engine.constants.SHOWN_NAME_MAX_CHARS` characters cut with ``…`` and
        its length (:func:`~toolsearch.engine.invisible.shortened`); :meth:`to_dict` keeps them whole."""
        return separator.join(shortened(x) for x in (self.server, self.tool) if x) or "catalog"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``field``, ``offset`` and ``tools`` only when set."""
        out: dict[str, Any] = {"rule": self.rule, "severity": self.severity, "server": self.server, "tool": self.tool,
                               "name": self.name, "message": self.message, "fix": self.fix}
        if self.field:
            out["field"] = self.field
        if self.offset is not None:
            out["offset"] = self.offset
        if self.tools:
            out["tools"] = list(self.tools)
        return out


@dataclass(frozen=True)
class LintReport:
    """All findings for one catalog and config.

    Attributes:
        catalog: the catalog's name; ``naming``: ``prefixed`` or ``as-is``.
        findings: sorted by severity, rule (in :data:`RULES` order), server, tool.
        tool_count: registered tools; ``deferred_count``: deferred ones at this config.
        median_schema_tokens: the median tool definition size (chars4 tokens), 0 for no tools.
        limit: the search limit the reachability probes used.
    """

    catalog: str
    naming: str
    findings: tuple[Finding, ...]
    tool_count: int
    deferred_count: int
    median_schema_tokens: float
    limit: int

    def counts(self) -> dict[str, int]:
        """``{severity: number of findings}`` for every severity (zeros included)."""
        out = {s: 0 for s in C.LINT_SEVERITIES}
        for f in self.findings:
            out[f.severity] += 1
        return out

    def by_rule(self) -> dict[str, int]:
        """``{rule: number of findings}`` for the rules that fired, in :data:`RULES` order."""
        out: dict[str, int] = {}
        for f in self.findings:
            out[f.rule] = out.get(f.rule, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """The ``toolsearch lint --json`` object."""
        return {
            "catalog": self.catalog, "tool_names": self.naming, "tool_count": self.tool_count,
            "deferred_count": self.deferred_count, "median_schema_tokens": self.median_schema_tokens,
            "search_limit": self.limit, "counts": self.counts(), "rules": self.by_rule(),
            "findings": [f.to_dict() for f in self.findings],
            "thresholds": {
                "name_max_chars": C.MCP_TOOL_NAME_MAX_LENGTH, "description_max_chars": C.LINT_DESCRIPTION_MAX_CHARS,
                "schema_median_factor": C.LINT_SCHEMA_MEDIAN_FACTOR, "schema_min_tokens": C.LINT_SCHEMA_MIN_TOKENS,
                "schema_absolute_tokens": C.LINT_SCHEMA_ABSOLUTE_TOKENS,
                "provider_max_tools": C.PROVIDER_MAX_TOOLS, "providers": list(C.PROVIDER_MAX_TOOLS_PROVIDERS),
                "short_description_max_chars": C.SHORT_DESCRIPTION_MAX_CHARS,
            },
        }


#: The fix of ``duplicate-in-server``: for one server's list (``False``), for a server defined more
#: than once (in several catalog files, or one file given twice) whose definitions repeat tools
#: (``True``: the loader merged them, and its tools know their file).
_REPEATED_FIX = {False: "List each tool once in the server's tools/list.",
                 True: "Define the server once (in one catalog file), or leave the repeated tools out of all its "
                       "definitions but one."}


def _repeated_tools_finding(server: Any, repeated: Sequence[str]) -> Finding:
    """The one ``duplicate-in-server`` finding for a server that lists several tools more than once
    (``repeated``: their names, in order), in the words of the loader's warning
    (:func:`~toolsearch.engine.registration.repeated_tools_words`: how many, a few names, which
    file's definitions are kept); :attr:`Finding.tools` has every name."""
    first: dict[str, Any] = {}
    listed: dict[str, int] = {}
    files: set[str] = set()
    for tool in server.tools:
        if tool.name in repeated:
            first.setdefault(tool.name, tool)
            listed[tool.name] = listed.get(tool.name, 0) + 1
            files.add(tool.origin)
    return Finding("duplicate-in-server", "warning", server.name, "", "",
                   repeated_tools_words([first[name] for name in repeated], [listed[name] for name in repeated]),
                   _REPEATED_FIX[bool(files - {""})], tools=tuple(repeated))


def probe_keywords(description: str) -> list[str]:
    """The keyword probe words of a description (see the module docstring, ``unreachable``)."""
    short = short_description(description)
    if short.endswith(C.ELLIPSIS):
        short = short[:-1]
    out: list[str] = []
    for word in _ASCII_WORD.findall(short):
        word = word.lower()
        if (len(word) < C.LINT_PROBE_MIN_WORD_CHARS or word.isdigit() or word in C.LINT_PROBE_STOP_WORDS
                or word in out):
            continue
        out.append(word)
        if len(out) == C.LINT_PROBE_MAX_KEYWORDS:
            break
    return out


def name_probe(raw_name: str) -> str:
    """The name probe: the tool's own name with ``_ . : -`` and whitespace as single spaces."""
    return _NAME_SEPARATORS.sub(" ", raw_name).strip()


def _wire(server_name: str, server_kind: str, tool_name: str, naming: str) -> tuple[str, str]:
    """``(wire name, unclamped full name)`` as registration computes them."""
    if naming == "prefixed" and server_kind == "mcp":
        full = C.MCP_TOOL_NAME_PREFIX + sanitize_name_part(server_name) + C.MCP_NAME_SEPARATOR + sanitize_name_part(tool_name)
        return clamp_tool_name(full), full
    return tool_name, tool_name


#: The invisible characters whose ``hidden-characters`` finding can be an error (docs/lint.md).
_ERROR_HIDDEN_KINDS = frozenset({"tag", "variation", "bidi"})


def _strings(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value, dict keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def hidden_character_errors(inspector: Inspector) -> list[Finding]:
    """The error-level ``hidden-characters`` findings of :func:`lint` (TAG characters, runs of
    variation selectors, bidi controls the model receives), for a page that must not wait for the
    whole lint. A quick pass first: a catalog with none of those characters in any server name,
    tool name, description, schema or other field is not linted at all (milliseconds on thousands
    of tools); else :func:`lint` runs at the default settings (the hidden-characters rule does not
    depend on them)."""
    seen: set[str] = set()
    for server in inspector.catalog.servers:
        seen.update(server.name)
        for tool in server.tools:
            for text in _strings([tool.name, tool.description, tool.input_schema, dict(tool.extra)]):
                seen.update(text)
    if not any(kind_of(char) in _ERROR_HIDDEN_KINDS for char in seen):
        return []
    return [f for f in lint(inspector).findings if f.rule == "hidden-characters" and f.severity == "error"]


def lint(inspector: Inspector, config: ToolSearchConfig | None = None, baseline: Catalog | None = None,
         progress: Callable[[float, str], None] | None = None, *, _straightforward: bool = False) -> LintReport:
    """Lint ``inspector``'s catalog as registered with its naming, at ``config`` (default settings
    when ``None``; the defer set and ``search_default_limit`` matter). With ``baseline`` (a saved
    snapshot of the same servers), changed tools are ``rug-pull`` findings. ``progress``, when
    given, is called now and then with the share done (0–1) and a line saying what runs (the
    reachability probes are most of the time on a large catalog). ``_straightforward`` (for
    tests) answers every probe with its own ``index.search`` and runs every text check on every
    string: the same findings, without the batched and pre-filtered fast paths.

    Returns:
        A :class:`LintReport`; the rules are described in the module docstring.
    """
    config = config or ToolSearchConfig()
    catalog, registration, profile = inspector.catalog, inspector.registration, inspector.profile
    naming = inspector.naming
    findings: list[Finding] = []

    def add(rule: str, severity: str, server: str, tool: str, name: str, message: str, fix: str,
            field: str = "", offset: int | None = None) -> None:
        findings.append(Finding(rule, severity, server, tool, name, message, fix, field, offset))

    for problem in catalog.problems:
        if SNAPSHOT_FAILED in problem.where:  # a server missing, as when it fails live: nothing of it is linted
            add("load-problem", "error", "", "", "", f"{problem.where}: {problem.message}",
                "Take the snapshot again once the server lists its tools (toolsearch snapshot CONFIG -o FILE).")
        elif problem.severity in ("error", "warning") and not reported_here(problem):
            add("load-problem", problem.severity, "", "", "", f"{problem.where}: {problem.message}",
                "Fix the item in the catalog file (the message names the place and what was expected).")
    owners = {t.name: t.server for t in registration.tools}
    # --- names ---------------------------------------------------------------------------
    producers: dict[str, list[tuple[str, str]]] = {}  # wire name -> [(server, raw tool)]
    for server in catalog.servers:
        names = [t.name for t in server.tools]
        if server.kind == "mcp":
            tools_cfg = server.config.get("tools") if isinstance(server.config.get("tools"), Mapping) else {}
            kept, _ = filter_tool_names(names, tools_cfg)
            kept_names = set(kept)  # once per server: per tool, 40,000 tools took a minute
            names = [n for n in names if n in kept_names]
        if naming == "prefixed" and server.kind == "mcp" and names and replaced_entirely(server.name):
            first = names[0]
            wire = _wire(server.name, server.kind, first, naming)[0]
            add("name-unrecognizable", "warning", server.name, "", wire,
                unrecognizable_name_words("server", server.name, wire, first),
                "Configure the server under a name with ASCII letters or digits (the config key is the server part "
                "of every wire name).")
        counts: dict[str, int] = {}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        repeated = [n for n in dict.fromkeys(names) if counts[n] > 1]
        if len(repeated) > 1:  # one finding for the server, as the loader's warning: a shared server repeats dozens
            findings.append(_repeated_tools_finding(server, repeated))
        by_wire: dict[str, list[str]] = {}
        for raw in dict.fromkeys(names):
            wire, full = _wire(server.name, server.kind, raw, naming)
            by_wire.setdefault(wire, []).append(raw)
            if naming == "prefixed" and server.kind == "mcp" and replaced_entirely(raw):
                add("name-unrecognizable", "warning", server.name, raw, wire, unrecognizable_name_words("tool", raw, wire),
                    "Ask the server's author for a tool name with ASCII letters or digits; the description is "
                    "then all the model has to go on.")
            if counts[raw] > 1 and len(repeated) == 1:
                copies = [t.origin for t in server.tools if t.name == raw]
                kept = f" (from {copies[0]})" if copies[0] and len(set(copies)) > 1 else ""
                add("duplicate-in-server", "warning", server.name, raw, wire,
                    f"listed {counts[raw]} times; the harness keeps the first{kept} and drops the rest",
                    _REPEATED_FIX[bool(copies[0])])
            if wire != full:
                cut_inside_server = len(C.MCP_TOOL_NAME_PREFIX + sanitize_name_part(server.name) + C.MCP_NAME_SEPARATOR) > \
                    C.MCP_TOOL_NAME_MAX_LENGTH - C.MCP_TOOL_NAME_HASH_LENGTH - 1
                lost = " (the tool's own name is cut off entirely)" if cut_inside_server else ""
                # a name too long to quote whole says its length once, in the cut quote
                size = (quoted_short(full) if len(full) > C.SHOWN_NAME_MAX_CHARS
                        else f"{quoted(full)} is {len(full):,} characters")
                add("name-over-64", "warning", server.name, raw, wire,
                    f"prefixed name {size}; the reference clamps it to {quoted_short(wire)}{lost}",
                    "Shorten the server name in the config (it is in every tool name) or the tool name, so "
                    "mcp__<server>__<tool> fits in 64 characters.")
            elif not _PROVIDER_NAME.match(wire):
                add("name-invalid", "error", server.name, raw, wire,
                    f"name {quoted_short(wire)} ({len(wire)} characters) does not match {C.PROVIDER_TOOL_NAME_PATTERN}; "
                    "OpenAI-style providers reject the whole request",
                    "Rename the tool to at most 64 characters of letters, digits, '_' and '-'.")
        for wire, raws in by_wire.items():
            if len(raws) > 1:
                for raw in raws:
                    others = ", ".join(quoted_short(r) for r in raws if r != raw)
                    verb = "both become" if len(raws) == 2 else "all become"
                    add("sanitized-collision", "error", server.name, raw, "",
                        f"{quoted_short(raw)} and {others} {verb} {quoted_short(wire)}; the reference registers none of them (docs/reference.md §21.5)",
                        "Rename one of them, or leave one out with tools.exclude, so they differ after "
                        "sanitizing.")
            else:
                producers.setdefault(wire, []).append((server.name, raws[0]))
    for wire, made_by in producers.items():
        if len({s for s, _ in made_by}) < 2:
            continue
        owner = owners.get(wire)
        for server_name, raw in made_by:
            if server_name == owner:
                continue
            add("cross-server-collision", "error", server_name, raw, wire,
                f"{quoted_short(wire)} is also produced by server {quoted_short(owner)}; the registry keeps the first registration "
                f"({quoted_short(owner)} here, by server name; a live harness keeps whichever connects first) and skips this one",
                "Rename one of the servers in the config (or the tool) so the wire names differ.")
    if naming == "prefixed":
        kinds: dict[str, str] = {}
        for server in catalog.servers:
            kinds.setdefault(server.name, server.kind)
        for raw, servers in catalog.duplicate_tool_names().items():
            # each finding names every other server: the same list with one left out, cut from one text
            # (a name on thousands of servers made a repr per pair)
            for server_name, count, others in _all_but_each(servers):
                add("duplicate-name", "info", server_name, raw, _wire(server_name, kinds.get(server_name, "mcp"), raw, naming)[0],
                    f"the tool name {quoted_short(raw)} is also on {'server' if count == 1 else 'servers'} "
                    f"{others}: the listing shows it in several groups",
                    "Make each description name its service, so a query can tell the tools apart.")

    # --- descriptions ----------------------------------------------------------------------
    bridge = inspector.bridge(config)
    deferred = {t.name: t for t in bridge.deferred}
    registered = {(t.server, t.raw_name): t for t in registration.tools}
    for server in catalog.servers:
        seen: set[str] = set()
        for tool in server.tools:
            if tool.name in seen:
                continue
            seen.add(tool.name)
            reg = registered.get((server.name, tool.name))
            wire = reg.name if reg is not None else ""
            raw = tool.description
            if raw is None or not raw.strip():
                if server.kind == "mcp" and not raw:
                    default = profile.text("registration", "default_description", tool=tool.name, server=server.name)
                    what = f"no description; the harness substitutes {quoted(default)}"
                else:
                    what = "the description is whitespace only" if raw else "no description"
                add("description-empty", "warning", server.name, tool.name, wire,
                    f"{what}: the listing and the search know only the name",
                    "Write a first sentence saying what the tool does to which object.")
                continue
            if len(raw.split()) == 1 and not _CJK_CHAR.search(raw):
                add("description-one-word", "warning", server.name, tool.name, wire,
                    f"the description is one word ({quoted(raw.strip()[:40])})",
                    "Write a first sentence saying what the tool does to which object.")
            description = reg.description if reg is not None else raw
            if len(description) > C.LINT_DESCRIPTION_MAX_CHARS:
                add("description-over-2048", "warning", server.name, tool.name, wire,
                    f"the description is {len(description):,} characters (over {C.LINT_DESCRIPTION_MAX_CHARS:,}); "
                    f"tool_search shows the first {C.SEARCH_DESCRIPTION_MAX_CHARS}",
                    "Keep the description to what the tool does and when to use it; move reference material "
                    "into parameter descriptions or documentation.")
            if wire in deferred:
                if not _ASCII_WORD.search(description):
                    add("description-no-ascii-words", "warning", server.name, tool.name, wire,
                        "the description has no ASCII word, so the reference search sees only the name words, "
                        "the server label and the parameter names",
                        "Add an English first sentence or keywords beside the original text (or search with a "
                        "Unicode-aware tokenizer).")
                short = short_description(description)
                if short.endswith(C.ELLIPSIS):
                    add("first-sentence-clipped", "info", server.name, tool.name, wire,
                        f"the listing line shows {quoted(short)}",
                        f"Start with a first sentence of at most {C.SHORT_DESCRIPTION_MAX_CHARS} characters; put "
                        "details after it.")

    # --- reachability ------------------------------------------------------------------------
    index = bridge.index
    limit = bridge.resolve_limit(None)
    depth = max(len(index), 1)
    probes_of = [list(dict.fromkeys(p for p in (name_probe(t.raw_name), " ".join(probe_keywords(t.description))) if p))
                 for t in bridge.deferred]
    items = [(t.name, probes) for t, probes in zip(bridge.deferred, probes_of)]
    if _straightforward:
        reached = [any(name in [n for n, _ in index.search(p, limit)] for p in probes) for name, probes in items]
    else:
        reached = _reached(index, limit, items, progress)
    unreachable = [(tool, probes) for tool, probes, ok in zip(bridge.deferred, probes_of, reached) if probes and not ok]
    # Unreachable tools are rare, except where many servers carry the same tools (one MCP server
    # configured many times): then thousands share a few probes, and a full ranking per tool and
    # probe made the lint grow with the square of the tools. Each probe is ranked once for every
    # tool that needs it, and explained once for every tool it does not rank at all.
    if _straightforward:  # a full ranking per tool and probe
        positions: Mapping[tuple[str, str], int | None] = {
            (probe, tool.name): next((i for i, (n, _) in enumerate(index.search(probe, depth), 1) if n == tool.name), None)
            for tool, probes in unreachable for probe in probes}
        why_not = {(probe, tool.name): _why_not(index, probe, tool.name, limit)
                   for tool, probes in unreachable for probe in probes if positions[probe, tool.name] is None}
    else:
        positions = _probe_positions(index, depth, unreachable)
        why_not = _probes_explained(index, limit, [(probe, tool.name) for tool, probes in unreachable
                                                   for probe in _probes_tried(tool.name, probes, positions, limit)
                                                   if positions[probe, tool.name] is None])
    for tool, probes in unreachable:
        outcomes = []  # the full ranking says where each probe put it
        reachable = False
        for probe in _probes_tried(tool.name, probes, positions, limit):
            position = positions[probe, tool.name]
            if position is not None:
                if position <= limit:
                    reachable = True
                    break
                outcomes.append(f"{quoted_short(probe)} → rank {position}")
            else:
                outcomes.append(f"{quoted_short(probe)} → {why_not[probe, tool.name]}")
        if not reachable:
            add("unreachable", "warning", tool.server, tool.raw_name, tool.name,
                f"not in the first {limit} results for its own words: " + "; ".join(outcomes),
                "Make the name and the first sentence say what is specific to this tool (action and object); "
                "near-duplicates compete for the same words.")
    if progress is not None:
        progress(1.0, "Checking the text the model sees")

    # --- schema sizes --------------------------------------------------------------------------
    per_tool = inspector.planner.tool_tokens("chars4")
    sizes = {t.name: per_tool[t.name] for t in registration.tools if t.name not in C.BRIDGE_NAMES}
    median = float(statistics.median(sizes.values())) if sizes else 0.0
    threshold = max(C.LINT_SCHEMA_MEDIAN_FACTOR * median, C.LINT_SCHEMA_MIN_TOKENS)
    by_name = registration.by_name()
    for name, tokens in sizes.items():
        if tokens > threshold or tokens > C.LINT_SCHEMA_ABSOLUTE_TOKENS:
            tool = by_name[name]
            ratio = tokens / median if median else float("inf")
            over = (f"{ratio:.1f}× the catalog median of {median:,g} tokens" if tokens > threshold else
                    f"over {C.LINT_SCHEMA_ABSOLUTE_TOKENS:,} tokens whatever the catalog's median ({median:,g} tokens)")
            add("schema-large", "warning", tool.server, tool.raw_name, name,
                f"the definition is {tokens:,} tokens (chars4), {over}",
                "Trim parameter descriptions and long enums, or split the tool; every tool_describe (and every "
                "eager request) pays for it.")

    # --- tools per request ---------------------------------------------------------------------
    cap = C.PROVIDER_MAX_TOOLS
    providers = " and ".join(C.PROVIDER_MAX_TOOLS_PROVIDERS)
    plan = inspector.plan(config)
    eager = sum(1 for t in registration.tools if t.name not in C.BRIDGE_NAMES)
    if len(plan.tools) > cap:
        if plan.activated:
            how = f"{plan.visible_count:,} visible + {len(C.BRIDGE_NAMES)} bridge tools"
        elif not config.active:
            how = "tool search is off at these settings, so every tool is sent"
        else:
            how = "nothing is deferrable, so tool search is not active and every tool is sent"
        add("too-many-tools", "error", "", "", "",
            f"the request carries {len(plan.tools):,} tools ({how}); {providers} reject more than {cap}",
            "Keep tool search on and defer more tools (name them in defer), or leave some servers out.")
    elif eager > cap:
        add("too-many-tools", "warning", "", "", "",
            f"with tool search off the request would carry {eager:,} tools; {providers} reject more than {cap}",
            "Keep tool search enabled (enabled: auto or on) for these providers.")

    # --- poisoning, SDK acceptance, empty servers, changes since a baseline ----------------------
    for finding in poisoning(catalog, naming, registered, _straightforward=_straightforward):
        findings.append(finding)
    for finding in sdk_rejections(catalog, naming):
        findings.append(finding)
    findings.extend(reserved_names(catalog, naming))
    findings.extend(Finding(*row) for row in schema_lint_rows(inspector))
    for server in catalog.servers:
        if not server.tools and server.kind == "mcp":
            add("server-empty", "info", server.name, "", "", "the server lists no tools; it adds nothing to the catalog",
                "Check the server's configuration (a missing key or permission often empties its list), or leave "
                "it out.")
    if baseline is not None:
        findings.extend(rug_pulls(baseline, catalog, naming))

    findings.sort(key=lambda f: (_SEVERITY_RANK[f.severity], _RULE_RANK[f.rule], f.server, f.tool, f.field,
                                 f.offset or 0, f.message))
    return LintReport(catalog.name, naming, tuple(findings), len(registration.tools), len(bridge.deferred),
                      median, limit)



#: Score-matrix cells (probes × admitted documents) computed at once by :func:`_reached`.
_PROBE_CHUNK_CELLS = 1 << 21
#: A gate term's probes × documents up to which :func:`_reached` scores them one by one in plain
#: floats rather than with arrays (about where the two take the same time).
_SMALL_GROUP_CELLS = 128


#: Probe queries between two progress reports of the search probing.
PROGRESS_EVERY = 1_000


def _reached(index: Any, limit: int, items: list[tuple[str, list[str]]],
             progress: Callable[[float, str], None] | None = None) -> list[bool]:
    """For each ``(wire name, probe queries)`` of ``items``: whether some probe's
    ``index.search(probe, limit)`` returns that name (docs/reference.md §7.4, §7.5), in the same order.

    Probes are tried in order, a tool's next probe only when the earlier ones missed it. Under the
    reference search options the probes are answered in batches: those with the same gate term
    share its postings (the admitted pool), the BM25 term contributions of the pool are computed
    once per term, in the same arithmetic as the BM25 scorer, and each probe's score is their sum
    in query order, so scores and ties are the same to the last bit. A tool is within the limit
    when fewer than ``limit`` admitted documents score above it or tie with it at an earlier
    position. Other options and exact-name probes go through ``index.search``.
    """
    out = [False] * len(items)
    if limit <= 0 or not items:
        return out
    opts = index.options
    bm25 = getattr(index, "_bm25", None)
    fast = (bm25 is not None and opts.gate and not opts.name_substring_fallback
            and opts.min_known_share <= 0 and opts.min_idf_share <= 0)
    position: dict[str, int] = {}
    for i, name in enumerate(index.names):
        position.setdefault(name, i)
    total = sum(len(probes) for _, probes in items)
    done = 0

    def tell() -> None:
        if progress is not None:
            progress(min(done / max(total, 1), 1.0), f"Probing the search: {done:,} of {total:,} probe queries")

    tell()
    if not fast:
        for k, (name, probes) in enumerate(items):
            for probe in probes:
                done += 1
                if name in [n for n, _ in index.search(probe, limit)]:
                    out[k] = True
                    break
            if k % 500 == 0:
                tell()
        return out
    table = _ScoreTable(index)
    analysed: dict[str, Any] = {}
    pending = list(range(len(items)))
    turn = 0
    while pending:
        groups: dict[str, list[tuple[int, int, list[str], list[str], int]]] = {}
        for k in pending:
            name, probes = items[k]
            probe = probes[turn]
            done += 1  # counted back below for the probes that are scored in a group
            found = analysed.get(probe)
            if found is None:
                found = analysed[probe] = index._analyse(probe)
            stems, gate, answerable, required = found
            if index._by_lower.get(probe.strip().lower()):  # an exact-name match: index.search ranks it first
                out[k] = name in [n for n, _ in index.search(probe, limit)]
                continue
            at = position.get(name)
            if not stems or gate is None or at is None:
                continue
            freqs = bm25.doc_freqs[at]
            if gate not in freqs:
                continue  # not admitted: lacks the gate term
            need = required if opts.coverage and required > 1 else 0
            if need and sum(1 for t in answerable if t in freqs) < need:
                continue  # not admitted: below the coverage floor
            groups.setdefault(gate, []).append((k, at, stems, answerable, need))
        # Progress as groups are scored (most of the time): a large catalog's first round is tens
        # of thousands of probes, so the bar moves within it.
        done -= sum(len(tasks) for tasks in groups.values())
        for gate, tasks in groups.items():
            for k, ok in table.within(gate, tasks, limit):
                out[k] = ok
            before, done = done, done + len(tasks)
            if done // PROGRESS_EVERY != before // PROGRESS_EVERY:
                tell()
        tell()
        turn += 1
        pending = [k for k in pending if not out[k] and len(items[k][1]) > turn]
    done = total
    tell()
    return out


class _ScoreTable:
    """The search index's term frequencies as arrays, for :func:`_reached`: per document (in
    index order) its distinct terms (as term ids) and their counts, plus the per-document part of
    the BM25 denominator."""

    def __init__(self, index: Any):
        bm25 = index._bm25
        self.bm25 = bm25
        self.postings = index._postings
        self.term_id = {term: i for i, term in enumerate(self.postings)}
        terms: list[str] = []
        counts: list[int] = []
        sizes = np.zeros(len(bm25.doc_freqs) + 1, dtype=np.int64)
        for d, freqs in enumerate(bm25.doc_freqs):
            terms.extend(freqs)
            counts.extend(freqs.values())
            sizes[d + 1] = len(freqs)
        self.starts = np.cumsum(sizes)
        self.terms = np.fromiter(map(self.term_id.__getitem__, terms), dtype=np.int64, count=len(terms))
        self.counts = np.array(counts, dtype=np.int64)
        doc_len = np.array(bm25.doc_len)
        # The per-document part of the BM25 scorer's denominator, in its own expression.
        self.norm = bm25.k1 * (1 - bm25.b + bm25.b * doc_len / bm25.avgdl)
        self.idf = {term: (bm25.idf.get(term) or 0) for term in self.term_id}
        self.norm_floats = self.norm.tolist()

    def _frequencies(self, pool: np.ndarray, columns: dict[str, int]) -> np.ndarray:
        """``(len(columns) + 1, len(pool))`` counts of each column's term in each pool document
        (the last row stays zero: the padding term)."""
        out = np.zeros((len(columns) + 1, len(pool)), dtype=np.int64)
        lookup = np.full(len(self.term_id), -1, dtype=np.int64)
        for term, column in columns.items():
            if term in self.term_id:
                lookup[self.term_id[term]] = column
        begin, end = self.starts[pool], self.starts[pool + 1]
        sizes = end - begin
        rows = np.repeat(np.arange(len(pool)), sizes)
        flat = np.repeat(begin - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        column = lookup[self.terms[flat]]
        hit = column >= 0
        out[column[hit], rows[hit]] = self.counts[flat[hit]]
        return out

    def within(self, gate: str, tasks: list[tuple[int, int, list[str], list[str], int]],
               limit: int) -> list[tuple[int, bool]]:
        """``[(item, whether it is within limit)]`` for ``tasks`` of one gate term: ``(item, document
        id, query stems, answerable stems, coverage floor or 0)``; each task's document holds the
        gate term and meets the floor. The work is the gate term's documents × its tasks, as for
        one search per probe: where a catalog's words come from a fixed list, both grow with it."""
        if len(self.postings[gate]) * len(tasks) <= _SMALL_GROUP_CELLS:
            return self._within_small(self.postings[gate], tasks, limit)
        pool = np.array(self.postings[gate], dtype=np.int64)
        out: list[tuple[int, bool]] = []
        batch: list[tuple[int, int, list[str], list[str], int]] = []
        columns: dict[str, int] = {}
        for task in tasks:  # batches whose terms × pool stay within the cell budget
            new = [t for t in dict.fromkeys(task[2]) if t not in columns]
            if batch and (len(columns) + len(new) + 1) * len(pool) > _PROBE_CHUNK_CELLS:
                out.extend(self._within(pool, columns, batch, limit))
                batch, columns = [], {}
                new = list(dict.fromkeys(task[2]))
            for term in new:
                columns[term] = len(columns)
            batch.append(task)
        if batch:
            out.extend(self._within(pool, columns, batch, limit))
        return out

    def _within_small(self, pool: list[int], tasks: list[tuple[int, int, list[str], list[str], int]],
                      limit: int) -> list[tuple[int, bool]]:
        """:meth:`within` for a small group, one document at a time in plain floats: the same
        expression and order of additions as the arrays (IEEE doubles either way), without the
        fixed cost of some forty array operations per gate term, which made a catalog of thousands
        of rare gate terms spend most of its probing time there."""
        freqs, norm, idf, k1 = self.bm25.doc_freqs, self.norm_floats, self.idf, self.bm25.k1
        out: list[tuple[int, bool]] = []
        for item, mine, stems, answerable, need in tasks:
            weights = [idf.get(term, 0) for term in stems]

            def score(d: int) -> float:
                held, total = freqs[d], None
                for term, weight in zip(stems, weights):
                    f = held.get(term, 0)
                    part = weight * (f * (k1 + 1) / (f + norm[d]))
                    total = part if total is None else total + part
                return total

            own, ahead = score(mine), 0
            for d in pool:
                if d == mine or (need and sum(1 for t in answerable if freqs[d].get(t, 0) > 0) < need):
                    continue
                theirs = score(d)
                if theirs > own or (theirs == own and d < mine):
                    ahead += 1
                    if ahead >= limit:
                        break
            out.append((item, ahead < limit))
        return out

    def _within(self, pool: np.ndarray, columns: dict[str, int],
                tasks: list[tuple[int, int, list[str], list[str], int]], limit: int) -> list[tuple[int, bool]]:
        bm25 = self.bm25
        pad = len(columns)
        freq = self._frequencies(pool, columns)
        idf = np.array([self.idf.get(term, 0) for term in columns] + [0.0])[:, None]
        # One row per term: its BM25 contribution in each pool document (the scorer's expression).
        contribution = idf * (freq * (bm25.k1 + 1) / (freq + self.norm[pool][None, :]))
        present = (freq > 0).astype(np.int8)
        order = np.arange(len(pool))
        out: list[tuple[int, bool]] = []
        step = max(1, _PROBE_CHUNK_CELLS // max(len(pool), 1))
        for first in range(0, len(tasks), step):
            chunk = tasks[first:first + step]
            width = max(len(stems) for _, _, stems, _, _ in chunk)
            terms = np.full((len(chunk), width), pad, dtype=np.int64)
            for row, (_, _, stems, _, _) in enumerate(chunk):
                terms[row, :len(stems)] = [columns[t] for t in stems]
            score = contribution[terms[:, 0]]
            for j in range(1, width):  # in query order, as the scorer adds them
                score += contribution[terms[:, j]]
            need = np.array([task[4] for task in chunk], dtype=np.int64)
            mine_at = np.searchsorted(pool, np.array([task[1] for task in chunk], dtype=np.int64))
            rows = np.arange(len(chunk))
            mine = score[rows, mine_at][:, None]
            ahead = (score > mine) | ((score == mine) & (order[None, :] < mine_at[:, None]))
            if need.any():
                wide = max(len(answerable) for _, _, _, answerable, _ in chunk)
                held = np.full((len(chunk), wide), pad, dtype=np.int64)
                for row, (_, _, _, answerable, _) in enumerate(chunk):
                    held[row, :len(answerable)] = [columns[t] for t in answerable]
                covered = present[held[:, 0]].astype(np.int64)
                for j in range(1, wide):
                    covered += present[held[:, j]]
                ahead &= covered >= need[:, None]
            count = np.count_nonzero(ahead, axis=1)
            out.extend((task[0], bool(n < limit)) for task, n in zip(chunk, count))
        return out


#: Other servers a ``duplicate-name`` finding names; past it the message says how many more.
OTHERS_NAMED = 10


def _all_but_each(names: Sequence[str]) -> Iterator[tuple[str, int, str]]:
    """For each of ``names``: ``(name, how many others, the first :data:`OTHERS_NAMED` others'
    reprs joined with ", ", then "and N more" when there are more)``, leaving out every copy of
    that name. A tool name on 5,000 servers gives 5,000 findings of a few hundred characters each
    (naming every other server made 250 MB of text)."""
    from collections import Counter  # noqa: PLC0415

    reprs = [quoted_short(name) for name in names]
    copies = Counter(names)
    for name in names:
        shown: list[str] = []
        for other, text in zip(names, reprs):
            if other != name:
                shown.append(text)
                if len(shown) == OTHERS_NAMED:
                    break
        count = len(names) - copies[name]
        more = f" and {count - len(shown):,} more" if count > len(shown) else ""
        yield name, count, ", ".join(shown) + more


def _probe_positions(index, depth: int, tools: list[tuple[Any, list[str]]]) -> dict[tuple[str, str], int | None]:
    """``{(probe, tool name): 1-based rank in the probe's full ranking, or None when not ranked}``
    for every probe of every tool in ``tools``: each distinct probe is searched once, and only the
    positions asked for are kept."""
    wanted: dict[str, set[str]] = {}
    for tool, probes in tools:
        for probe in probes:
            wanted.setdefault(probe, set()).add(tool.name)
    out: dict[tuple[str, str], int | None] = {}
    for probe, names in wanted.items():
        found: dict[str, int] = {}
        for position, (name, _) in enumerate(index.search(probe, depth), 1):
            if name in names and name not in found:
                found[name] = position
        for name in names:
            out[probe, name] = found.get(name)
    return out


def _probes_tried(name: str, probes: list[str], positions: Mapping[tuple[str, str], int | None],
                  limit: int) -> list[str]:
    """The probes of tool ``name`` up to and including the first that ranks it within ``limit``."""
    tried = []
    for probe in probes:
        tried.append(probe)
        position = positions[probe, name]
        if position is not None and position <= limit:
            break
    return tried


def _probes_explained(index, limit: int, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """``{(probe, tool name): why the probe does not rank the tool}`` (:func:`_why_not`), with one
    explanation per distinct probe."""
    names_of: dict[str, set[str]] = {}
    for probe, name in pairs:
        names_of.setdefault(probe, set()).add(name)
    out: dict[tuple[str, str], str] = {}
    for probe, names in names_of.items():
        ex = index.explain(probe, limit, max_candidates=len(index))
        reasons: dict[str, str] = {}
        for candidate in ex.candidates:
            if candidate.name in names and candidate.name not in reasons:
                reasons[candidate.name] = candidate.reason
        for name in names:
            out[probe, name] = _why_not_words(ex, reasons.get(name))
    return out


def _why_not_words(ex: Any, reason: str | None) -> str:
    if not ex.tokens:
        return "no searchable word"
    if reason is None:
        return "shares no term"
    return f"not admitted: {reason}"


def _why_not(index, probe: str, name: str, limit: int) -> str:
    ex = index.explain(probe, limit, max_candidates=len(index))
    candidate = next((c for c in ex.candidates if c.name == name), None)
    return _why_not_words(ex, candidate.reason if candidate is not None else None)


# --- tool poisoning ----------------------------------------------------------------------------

_HIDDEN_HELP = {
    "tag": "Unicode TAG characters (invisible; they spell ASCII text)",
    "variation": "variation selectors in a run (invisible; they can carry a byte each)",
    "bidi": "bidi control characters (they reorder how the text reads)",
    "zero-width": "zero-width characters",
    "format": "invisible format (Cf) characters",
    "control": "raw control characters",
}
_MARKER = re.compile(r"<\s*/?\s*(important|system|instructions?|secret|hidden|admin|assistant|note[ _-]to[ _-]"
                     r"(?:the[ _-])?(?:model|assistant|ai)|sudo)\b[^<>]{0,40}>|\[/?(?:INST|SYSTEM)\]|<\|im_start\|>",
                     re.IGNORECASE)
_IGNORE_PREVIOUS = re.compile(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
                              r"(?:previous|prior|above|earlier|preceding|former|system)\s+"
                              r"(?:instructions?|prompts?|messages?|rules|directions|guidelines)"
                              r"|\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
                              r"(?:instructions?|prompts?|rules|directions|guidelines|everything)\s+(?:above|before\s+this|"
                              r"you\s+(?:were|have\s+been)\s+given)\b", re.IGNORECASE)
#: Parts of a screen an app may hide from view: hiding them is not keeping something from the user.
_SCREEN_THINGS = (r"(?:windows?|panels?|panes?|dialogs?|cursors?|mouse|pointers?|toolbars?|sidebars?|menus?|tabs?|"
                  r"elements?|widgets?|overlays?|popups?|icons?|buttons?|columns?|rows?|layers?|taskbar|dock|"
                  r"notifications?|scrollbars?|status\s+bar)")
#: Orders to keep something from the user, as ``(example, pattern)``: one phrasing each, matched
#: case-insensitively within one sentence. Telling the user something ("tell the user the
#: result") is not one; only a negated telling or an order to hide from the user is.
SECRECY_PHRASES: tuple[tuple[str, str], ...] = (
    # "do not tell the user", "don't mention this to the user", "without telling the user",
    # "never reveal it to the user"
    ("do not tell the user",
     r"\b(?:do\s+not|don['’]?t|never|without)\s+(?:ever\s+)?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|"
     r"reveal(?:ing)?|show(?:ing)?|disclos(?:e|ing)|notify(?:ing)?|alert(?:ing)?|let(?:ting)?)\b"
     r"[^.!?\n]{0,50}?\b(?:the\s+)?user\b"),
    # "keep this from the user", "hide this from the user", "conceal the call from the user",
    # "keep it secret from the user", "withhold everything from the user"
    # (not a window or other piece of the screen: "hide the application window from the user's screen")
    ("keep this from the user",
     r"\b(?:keep|hide|conceal|withhold)(?:ing)?\s+(?!(?:the|this|that|your|its|an?|all|these)\s+(?:[\w-]+\s+){0,2}?"
     rf"{_SCREEN_THINGS}\b)(?:this|it|that|these|those|them|everything|anything|"
     r"(?:the|this|that|your|any|all|these)\s+(?:[\w-]+\s+){0,3}?[\w-]+)"
     r"(?:\s+(?:secret|hidden|quiet|private|away))?\s+from\s+(?:the\s+|your\s+)?users?\b"
     r"(?!['’]s?\s+(?:screen|display|desktop|monitor)\b)"),
    # "keep the user in the dark", "keep the user unaware"
    ("keep the user in the dark",
     r"\bkeep(?:s|ing)?\s+(?:the\s+)?users?\s+(?:in\s+the\s+dark|unaware|uninformed)\b"),
)
_SECRECY = re.compile("|".join(f"(?:{pattern})" for _, pattern in SECRECY_PHRASES), re.IGNORECASE)
_SENSITIVE = (r"(?:~/|\$HOME/|/home/\w+/)?\.(?:ssh|aws|gnupg|netrc|git-credentials|npmrc|pypirc|docker/config\.json)"
              r"|\bid_(?:rsa|ed25519|ecdsa)\b|(?<![\w.])\.env\b|/etc/(?:passwd|shadow)|\bmcp\.json\b|"
              r"claude_desktop_config\.json|\bcredentials(?:\.json)?\b|\bprivate[ _]key\b|\bapi[ _-]?keys?\b|"
              r"\bsecrets?\b|\bpasswords?\b|\baccess[ _]tokens?\b|\bconfig(?:uration)?\s+files?\b")
_READ_VERBS = r"\b(?:read|cat|open|load|fetch|grab|collect|copy|look\s+up)\b"
_PASS_VERBS = r"\b(?:pass|send|put|include|provide|attach|add|paste|append|forward|upload)\b"
_ARGUMENT = (r"\b(?:as|in|into|via|inside|through|to)\s+(?:the\s+|a\s+|this\s+)?(?:[`'\"][\w.-]+[`'\"]|[\w.-]+\s+"
             r"(?:argument|parameter|param|field|input))")
_GAP = r"(?:[^.!?\n]|\.(?=\S))"  # within one sentence (a dot inside a path is not an end)
_EXFILTRATE = re.compile(
    rf"{_READ_VERBS}{_GAP}{{0,60}}?(?:{_SENSITIVE}){_GAP}{{0,60}}?(?:{_PASS_VERBS}|{_ARGUMENT})"
    rf"|{_PASS_VERBS}{_GAP}{{0,40}}?(?:contents?|value|text)\s+of\s+{_GAP}{{0,40}}?(?:{_SENSITIVE})"
    rf"|{_PASS_VERBS}{_GAP}{{0,40}}?(?:{_SENSITIVE}){_GAP}{{0,40}}?{_ARGUMENT}", re.IGNORECASE)
_OTHER_TOOLS = re.compile(r"\b(?:when|whenever|before|after|instead\s+of)\s+(?:you\s+)?(?:use|using|call|calling|invoke|"
                          r"invoking|run|running)\s+(?:any|all|every|other|another|the\s+other)\s+(?:\w+\s+)?"
                          r"(?:tools?|servers?)\b|\b(?:all|any|every)\s+other\s+(?:tools?|servers?)\s+(?:must|should|"
                          r"need|require)", re.IGNORECASE)


# --- the same orders in other languages ------------------------------------------------------------
# A small list of the usual imperative phrasings (German, French, Spanish, Italian, Portuguese,
# Russian, Chinese, Japanese): "ignore the previous instructions", "do not tell the user",
# "hide … from the user", and (German) "read … and pass …". Descriptive sentences in these
# languages ("Ignoriert leere Zeilen", "Zeigt dem Benutzer eine Vorschau") are not matched.
_DE_USER = r"(?:benutzer|nutzer|anwender|user)(?:in|innen|s)?"
_ROMANCE_USER = r"(?:l['’]utilisat(?:eur|rice)|(?:al|del|el)\s+usuario|(?:all['’]|l['’])utente|(?:ao|para\s+o|o)\s+usuário)"
_IGNORE_I18N = re.compile(
    # German
    r"\b(?:ignorier(?:e|en|t)?|missachte(?:n|t)?|vergiss|vergesst|vergessen\s+sie)\s+(?:bitte\s+)?(?:alle\s+|sämtliche\s+|"
    r"die\s+|deine\s+|ihre\s+)?(?:vorherigen|vorigen|bisherigen|früheren|obigen|vorangegangenen|vorstehenden|ursprünglichen)"
    r"\s+(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)"
    # French
    r"|\b(?:ignor(?:e|ez|er)|oubli(?:e|ez|er))\s+(?:toutes\s+)?(?:les\s+|tes\s+|vos\s+)?(?:instructions|consignes|directives|"
    r"règles)\s+(?:précédentes|antérieures|ci-dessus)"
    # Spanish, Italian, Portuguese
    r"|\b(?:ignora|ignore|olvida|dimentica|esqueça)\s+(?:todas\s+|tutte\s+)?(?:las\s+|le\s+|as\s+|tus\s+)?"
    r"(?:instrucciones|istruzioni|instruções)\s+(?:anteriores|previas|precedenti)"
    # Russian
    r"|(?:игнорируй|забудь)(?:те)?\s+(?:все\s+)?(?:предыдущие|прежние|прошлые)\s+(?:инструкции|указания|правила)"
    # Chinese, Japanese
    r"|(?:忽略|无视|無視|忘记|忘記|忽視)(?:掉)?(?:你)?(?:所有|全部|一切)?(?:的)?(?:之前|以前|先前|上面|以上|前面)(?:的)?"
    r"(?:所有|全部|一切)?(?:的)?(?:指令|指示|说明|說明|规则|規則|提示)"
    r"|(?:以前|前|上記|これまで)の(?:すべての|全ての)?(?:指示|命令|指令)を(?:無視|忘れ)", re.IGNORECASE)
_SECRECY_I18N = re.compile(
    # German
    rf"\b(?:sag|sage|sagt|sagen\s+sie|erzähl|erzähle|verrat|verrate|erwähn|erwähne|zeig|zeige)\s+(?:es\s+|das\s+|dies\s+|"
    rf"davon\s+)?(?:dem|den|der)\s+{_DE_USER}\s+(?:davon\s+)?(?:nichts|nicht|niemals|kein)"
    rf"|\bohne\s+(?:es\s+)?(?:den|dem|die)\s+{_DE_USER}\s+(?:davon\s+)?(?:zu\s+)?(?:informieren|benachrichtigen|fragen|warnen|"
    rf"sagen|zu\s+sagen)"
    rf"|\bvor\s+(?:dem|den|der)\s+{_DE_USER}\s+(?:zu\s+)?(?:verbergen|verheimlichen|geheim\s+(?:zu\s+)?halten|verstecken)"
    rf"|\b(?:verbirg|verheimliche|verstecke?)\s+(?:[\w-]+\s+){{0,3}}?vor\s+(?:dem|den|der)\s+{_DE_USER}"
    rf"|\b{_DE_USER}\s+(?:darf|soll|muss)\s+(?:davon\s+|das\s+|es\s+)?(?:nichts|nicht|niemals)\s+(?:erfahren|wissen|merken)"
    # French, Spanish, Italian, Portuguese
    rf"|\bne\s+(?:le\s+|lui\s+|rien\s+)?(?:dis|dites|mentionne[zr]?|révèle[zr]?|montre[zr]?)\s+(?:rien\s+|pas\s+|jamais\s+)"
    rf"(?:de\s+(?:ceci|cela)\s+|ça\s+)?à\s+{_ROMANCE_USER}"
    rf"|\bsans\s+(?:le\s+)?(?:dire|informer|prévenir|avertir)\s+(?:à\s+)?{_ROMANCE_USER}"
    rf"|\bno\s+(?:le\s+)?(?:digas|menciones|cuentes|reveles|muestres|informes)\s+(?:nada\s+|esto\s+)?(?:de\s+esto\s+)?"
    rf"(?:a\s+)?{_ROMANCE_USER}"
    rf"|\bsin\s+(?:decirle|decir|informar|avisar)(?:le)?\s+(?:nada\s+)?(?:a\s+)?{_ROMANCE_USER}"
    rf"|\bnon\s+(?:dire|dirlo|menzionare|rivelare|mostrare)\s+(?:nulla\s+|niente\s+)?{_ROMANCE_USER}"
    rf"|\bsenza\s+(?:dirlo|dire|informare|avvisare)\s+(?:niente\s+|nulla\s+)?{_ROMANCE_USER}"
    rf"|\bnão\s+(?:diga|conte|mencione|revele|mostre)\s+(?:nada\s+)?{_ROMANCE_USER}"
    rf"|\bsem\s+(?:dizer|informar|avisar)\s+(?:nada\s+)?{_ROMANCE_USER}"
    # Russian, Chinese, Japanese
    r"|не\s+(?:говори|сообщай|рассказывай|показывай)(?:те)?\s+(?:об\s+этом\s+|ничего\s+)?пользователю"
    r"|不要(?:告诉|告訴|通知|提醒|让|讓)(?:给)?用户|(?:对|對)用户(?:隐瞒|隱瞞|保密)"
    r"|ユーザー(?:に|には)(?:何も)?(?:伝え|知らせ|言わ|教え)ない", re.IGNORECASE)
_EXFILTRATE_DE = re.compile(
    rf"\b(?:lies|lese|öffne|lade|kopiere)\b{_GAP}{{0,60}}?(?:{_SENSITIVE}){_GAP}{{0,60}}?\b(?:übergib|übergebe|sende|"
    rf"schicke|gib|füge|hänge)\b", re.IGNORECASE)
#: A pointer to instructions continued in other fields ("the steps continue in the parameter texts").
_CONTINUED = re.compile(r"\b(?:rest|remainder|remaining\s+steps|next\s+steps?|steps|instructions?|directions|orders?)\b"
                        r"[^.!?\n]{0,40}?\b(?:continues?|continued|goes\s+on|go\s+on|follows?|are\s+(?:given|listed|found))"
                        r"\s+(?:in|inside|within)\s+(?:the\s+)?(?:parameters?|arguments?|fields?|propert(?:y|ies))\b",
                        re.IGNORECASE)

# --- URLs that carry conversation data ---------------------------------------------------------
#: A URL, with the markdown image (``![x](``) or HTML ``<img src=`` that opens it, if any.
_URL = re.compile(r"(?P<image>!\[[^\]\n]{0,200}\]\(\s*<?|<img\b[^>]{0,200}?\bsrc\s*=\s*[\"']?)?"
                  r"(?P<url>https?://[^\s<>\"'`)\]]+)", re.IGNORECASE)
#: Template placeholders the model would fill in: ``{x}``, ``{{x}}``, ``${x}``, ``<x>``, ``%s``.
_PLACEHOLDER = re.compile(r"\$?\{\{?\s*([^{}\s][^{}]*?)\s*\}?\}|<([A-Za-z_][\w ]*)>|%[sd]|\[([A-Z][A-Z_ ]+)\]")
_CONVERSATION_WORDS = re.compile(r"conversation|chat|context|summar|histor|transcript|messages|prompt|memory|previous|"
                                 r"dialog|earlier|everything", re.IGNORECASE)
_SECRET_WORDS = re.compile(r"secret|passw|credential|api[_-]?key|token|ssh|private[_-]?key|\benv\b|cookie",
                           re.IGNORECASE)


def _url_hits(text: str) -> list[tuple[int, str]]:
    """``[(offset, what)]``: URLs that would carry conversation data or secrets out: a markdown or
    HTML image (which a client fetches by itself) whose URL has a template placeholder or a query
    naming conversation or secret data, or any URL whose placeholder names such data or whose
    query value is such data (``?d={summary_of_conversation}``, ``?q=chat_history``)."""
    from urllib.parse import parse_qsl, urlsplit  # noqa: PLC0415

    hits: list[tuple[int, str]] = []
    for match in _URL.finditer(text):
        url = match.group("url")
        placeholders = [next(g for g in m.groups() if g) if any(m.groups()) else m.group(0)
                        for m in _PLACEHOLDER.finditer(url)]
        try:
            query = parse_qsl(urlsplit(url).query, keep_blank_values=True)
        except ValueError:
            query = []
        sensitive = [p for p in placeholders if _CONVERSATION_WORDS.search(p) or _SECRET_WORDS.search(p)]
        values = [v for _, v in query if _CONVERSATION_WORDS.search(v)]
        image = bool(match.group("image"))
        if image and (placeholders or any(_CONVERSATION_WORDS.search(k) or _SECRET_WORDS.search(k) for k, _ in query)):
            what = "an image URL the model is asked to fill in (a client fetches images by itself, sending the data out)"
        elif sensitive or values:
            what = "a URL that would carry conversation data or secrets"
        else:
            continue
        hits.append((match.start(), f"{what}: {quoted(match.group(0)[:100])}"))
    return hits


def model_strings(tool: Any) -> list[tuple[str, str]]:
    """``[(field, text)]``: every string of a catalog tool the model or the client may show:
    ``name``, ``title``, ``description``; in the input schema (``parameters…``) and the output
    schema (``outputSchema…``): descriptions, titles, enum and const values, defaults and examples
    at any depth, and property names (field ``…properties.<key>``); every string in
    ``annotations`` (``annotations.title``…).
    """
    out: list[tuple[str, str]] = [("name", tool.name)]
    extra = tool.extra if isinstance(tool.extra, Mapping) else {}
    title = extra.get("title")
    if isinstance(title, str):
        out.append(("title", title))
    if isinstance(tool.description, str):
        out.append(("description", tool.description))

    def walk(value: Any, path: str, depth: int) -> None:
        if depth > 64:
            return
        if isinstance(value, str):
            out.append((path, value))
        elif isinstance(value, (dict, _MappingABC)):  # the ABC itself: typing's alias checks slowly
            for key, item in value.items():
                key_text = str(key)
                if path.endswith(".properties"):
                    out.append((f"{path}.{key_text}", key_text))
                walk(item, f"{path}.{key_text}", depth + 1)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]", depth + 1)

    for schema, prefix in ((tool.input_schema, "parameters"), (extra.get("outputSchema"), "outputSchema")):
        if isinstance(schema, Mapping):
            for key, item in schema.items():
                if key in ("type", "required", "$schema"):
                    continue
                walk(item, f"{prefix}.{key}", 1)
    if isinstance(extra.get("annotations"), Mapping):
        walk(extra["annotations"], "annotations", 1)
    # Keep the texts, not the structural words: "type" values, "$ref" targets and formats are
    # not read by the model as prose; a property name is kept (it is part of the call).
    return [(f, t) for f, t in out if not f.endswith((".type", ".$ref", ".format", ".pattern", ".required"))
            and ".required[" not in f and not f.endswith(".type]")]


def _client_only(field: str) -> bool:
    """Whether registration leaves ``field`` out of what the model receives (docs/reference.md §22: the title,
    annotations and output schema are not sent), so only a client shows it."""
    return field == "title" or field.startswith(("annotations", "outputSchema"))


_IGNORE_WHAT = "an order to ignore previous instructions"
_SECRECY_WHAT = "an order to keep something from the user"
_EXFILTRATE_WHAT = "a request to read files, configs or keys and pass them on"
#: ``(pattern, what it finds)`` of the ``model-instructions`` rule, in report order.
_INSTRUCTION_CHECKS = ((_MARKER, "a hidden-block marker"), (_IGNORE_PREVIOUS, _IGNORE_WHAT),
                       (_SECRECY, _SECRECY_WHAT), (_EXFILTRATE, _EXFILTRATE_WHAT), (_IGNORE_I18N, _IGNORE_WHAT),
                       (_SECRECY_I18N, _SECRECY_WHAT), (_EXFILTRATE_DE, _EXFILTRATE_WHAT),
                       (_CONTINUED, "a pointer to instructions continued in other fields"))


def _instruction_matches(text: str, checks: Collection[Any] | None = None) -> list[tuple[int, int, str]]:
    """``[(start, end, what: matched text)]`` of the ``model-instructions`` patterns in ``text``
    (only those of ``checks``, compiled patterns of :data:`_INSTRUCTION_CHECKS`, when given)."""
    return [(match.start(), match.end(), f"{what}: {quoted(match.group(0)[:80])}")
            for regex, what in _INSTRUCTION_CHECKS if checks is None or regex in checks
            for match in regex.finditer(text)]


def _instruction_hits(text: str, checks: Collection[Any] | None = None) -> list[tuple[int, str]]:
    """``[(offset, what: matched text)]`` of the ``model-instructions`` patterns in ``text`` (only
    those of ``checks`` when given, as :func:`_instruction_matches`)."""
    return [(start, what) for start, _, what in _instruction_matches(text, checks)]


# --- other ways to write the same orders --------------------------------------------------------
#: Leetspeak digits and signs read as letters ("1gn0re" → "ignore"); "1" is tried as "i" and "l".
_LEET = (str.maketrans({"1": "i", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}),
         str.maketrans({"1": "l", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}))
_LEETISH = re.compile(r"[A-Za-z][013457@$]|[013457@$][A-Za-z]")
_IDENTIFIER_SEPARATORS = "_-.:/"
#: Between two texts of a tool that do not read as one sentence: none of the patterns crosses it.
_BREAK = "\n<.\n"


_NO_SPACE = re.compile(r"\S{5,256}")
#: Where an identifier's words meet: a run of separators, or a lowercase letter before a capital.
_ID_BREAK = re.compile(r"[_\-.:/]+|(?<=[a-z])(?=[A-Z])")


def _identifier_words(text: str) -> tuple[str, list[int]] | None:
    """An identifier read as words (``ignore_previous_instructions`` / ``ignorePreviousInstructions``
    → ``ignore previous instructions``) and, for each character of that, its offset in ``text``;
    ``None`` for text with whitespace, over 256 characters, or of fewer than three words."""
    if not _NO_SPACE.fullmatch(text):
        return None
    breaks = [m.span() for m in _ID_BREAK.finditer(text)]
    inner = [(a, b) for a, b in breaks if 0 < a and b < len(text)]
    if len(inner) < 2:
        return None
    words: list[tuple[int, int]] = []
    position = 0
    for a, b in breaks:
        if a > position:
            words.append((position, a))
        position = max(position, b)
    if position < len(text):
        words.append((position, len(text)))
    parts: list[str] = []
    where: list[int] = []
    for k, (a, b) in enumerate(words):
        if k:  # the space stands for the separator (or the capital) after the word before
            parts.append(" ")
            where.append(words[k - 1][1])
        parts.append(text[a:b])
        where.extend(range(a, b))
    view = "".join(parts)
    return (view, where) if view.count(" ") >= 2 else None


def _views(strings: list[tuple[str, str]]) -> list[tuple[str, str, Any]]:
    """Other readings of a tool's strings for the instruction checks, as ``(how, text, where)``;
    ``where(offset)`` gives ``(field, offset in it, the fields a match there spans)``:

    * ``identifier``: the tool name, a property name or an enum or const value read as words;
    * ``leetspeak``: a string (or an identifier's words) with leetspeak digits read as letters;
    * ``joined``: the tool's prose (everything but names and property names) in order, a text that
      goes on in the next joined to it by a space, so an order split across the description and
      the parameter texts reads as one sentence.
    """
    out: list[tuple[str, str, Any]] = []
    for field, text in strings:
        readings: list[tuple[str, str, list[int] | None]] = [("", text, None)]
        identifier = field == "name" or ".enum[" in field or field.endswith(".const") or _is_property_name(field, text)
        words = _identifier_words(text) if identifier else None
        if words is not None:
            out.append(("identifier", words[0], _mapper(field, words[1])))
            readings.append(("identifier", words[0], words[1]))
        for how, reading, where in readings:
            if _LEETISH.search(reading):
                for table in _LEET:
                    leet = reading.translate(table)
                    if leet != reading:
                        out.append(("leetspeak", leet, _mapper(field, where)))
    prose = [(field, text) for field, text in strings if field != "name" and not _is_property_name(field, text)]
    if len(prose) > 1:
        # A text that goes on in the next one (it starts in lowercase, or the previous one ends on
        # a comma, colon or dash) is joined with a space; otherwise with a break no check crosses.
        starts, position, parts = [], 0, []
        for k, (_, text) in enumerate(prose):
            if k:
                previous = prose[k - 1][1].rstrip()
                goes_on = text.lstrip()[:1].islower() or previous[-1:] in tuple(",;:-–—…(")
                parts.append(" " if goes_on else _BREAK)
                position += len(parts[-1])
            starts.append(position)
            parts.append(text)
            position += len(text)
        if " " not in parts[1::2]:
            return out  # no text goes on in the next: nothing can be split across them
        joined = "".join(parts)

        def where(offset: int, end: int | None = None) -> tuple[str, int, list[str]]:
            import bisect  # noqa: PLC0415

            k = bisect.bisect_right(starts, offset) - 1
            last = bisect.bisect_right(starts, (end if end is not None else offset + 1) - 1) - 1
            return prose[k][0], offset - starts[k], [prose[j][0] for j in range(k, last + 1)]

        out.append(("joined", joined, where))
    return out


def _mapper(field: str, where: list[int] | None) -> Any:
    def mapped(offset: int, end: int | None = None) -> tuple[str, int, list[str]]:
        return field, (where[offset] if where is not None and offset < len(where) else offset), [field]
    return mapped


def _is_property_name(field: str, text: str) -> bool:
    return field.endswith(f".properties.{text}")


def poisoning(catalog: Catalog, naming: str, registered: Mapping[tuple[str, str], Any] | None = None, *,
              _straightforward: bool = False) -> list[Finding]:
    """``hidden-characters``, ``model-instructions``, ``data-in-url``, ``shadowing`` and
    ``lookalike-name`` findings (see the module docstring) over every string the model or the
    client may show (:func:`model_strings`), and the instruction checks also over other readings
    of them (:func:`_views`: identifiers as words, leetspeak, a tool's texts joined).
    ``_straightforward`` (for tests) runs every check on every string instead of only where
    :func:`_flagged` says a check can fire."""
    registered = registered or {}
    findings: list[Finding] = []
    # name -> [(server, tool)] for every wire name and every distinctive raw name (one lookup per
    # word of a text, so large catalogs stay fast).
    names: dict[str, list[tuple[str, str]]] = {}
    for other in catalog.servers:
        for tool in other.tools:
            names.setdefault(_wire(other.name, other.kind, tool.name, naming)[0], []).append((other.name, tool.name))
            if len(tool.name) >= 6 and re.search(r"[_\-]|[a-z][A-Z]", tool.name):
                names.setdefault(tool.name, []).append((other.name, tool.name))
    own_names = {server.name: {t.name for t in server.tools} for server in catalog.servers}
    named_tools = None if _straightforward else _NamedTools(names)
    # Every string first, then each check once over all of them joined (regex scans in C); only
    # the strings a check can fire on are looked at one by one, with the same code as before.
    checked: list[tuple[Any, Any, str]] = []  # (server, tool, wire name): the findings depend on these alone
    for server in catalog.servers:
        seen: set[str] = set()
        for tool in server.tools:
            if tool.name in seen:
                continue
            seen.add(tool.name)
            reg = registered.get((server.name, tool.name))
            checked.append((server, tool, reg.name if reg is not None else _wire(server.name, server.kind, tool.name,
                                                                                  naming)[0]))
    # The report runs lint and then its own poisoning table on the same catalog: the same catalog,
    # naming and wire names give the same findings, computed once (a second pass took a fifth of
    # the report's time on a large catalog).
    key = (naming, _straightforward, tuple(wire for _, _, wire in checked))
    last = _POISONING_MEMO.get("last")  # one read: another thread (an app session) may replace it meanwhile
    if last is not None and last[0]() is catalog and last[1] == key:
        return list(last[2])
    entries: list[tuple[Any, Any, str, list[tuple[str, str]], list[tuple[str, str, Any]]]] = []
    for server, tool, wire in checked:
        strings = model_strings(tool)
        entries.append((server, tool, wire, strings, _views(strings)))
    texts: list[str] = []
    prose: list[str] = []
    for *_, strings, views in entries:
        texts.extend(text for _, text in strings)
        prose.extend("" if field == "name" else text for field, text in strings)
        texts.extend(text for _, text, _ in views)
        prose.extend("" for _ in views)
    if _straightforward:  # every text, every check (None: all of them)
        instructions: dict[int, set[Any] | None] = dict.fromkeys(range(len(texts)))
        shadows = set(range(len(texts)))
    else:
        instructions, shadows = _flagged(texts, prose, names)
    at = 0
    for server, tool, wire, strings, views in entries:
        reported: set[tuple[str, int, str]] = set()

        def add(rule: str, severity: str, message: str, fix: str, field: str, offset: int | None) -> None:
            findings.append(Finding(rule, severity, server.name, tool.name, wire, message, fix, field, offset))

        def instruct(field: str, offset: int, what: str, how: str = "") -> None:
            key = (field, offset, what.split(":")[0])
            if key in reported:
                return
            reported.add(key)
            add("model-instructions", "error", f"text addressed to the model{how}: {what}",
                "Rewrite it to describe what the tool does; a tool's text must not instruct the model.", field, offset)

        for field, text in strings:
            flagged_instruction, flagged_shadow = at in instructions, at in shadows
            checks = instructions.get(at)
            at += 1
            for hidden in find_hidden(text):
                renamed = field == "name" and hidden.text not in wire
                stripped = (hidden.kind == "tag" and field == "description") or renamed
                client_only = _client_only(field)
                if renamed:
                    fate = (f"the server sent them; the registered name is {quoted_short(wire)}, so the model does not "
                            "receive them (a client that keeps names as sent does)")
                elif stripped:
                    fate = ("the server sent them; registration strips TAG characters from the description "
                            "(docs/reference.md §22), so the model does not receive them")
                elif client_only:
                    fate = "registration does not send this field to the model, but a client may show it"
                else:
                    fate = "the model receives them as sent"
                decoded = f" spelling {quoted(hidden.decoded)}" if hidden.decoded else ""
                severity = ("error" if hidden.kind in ("tag", "variation", "bidi") and not stripped and not client_only
                            else "warning")
                add("hidden-characters", severity,
                    f"{len(hidden.text)} {_HIDDEN_HELP[hidden.kind]}{decoded} ({hidden.codepoints}); {fate}",
                    "Remove the invisible characters from the tool text (and distrust a server that sends "
                    "them).", field, hidden.offset)
                if hidden.decoded:
                    carrier = "TAG" if hidden.kind == "tag" else "variation-selector"
                    for offset, what in _instruction_hits(hidden.decoded):
                        add("model-instructions", "error", f"hidden {carrier} text carries {what}",
                            "Remove the hidden text; a tool description should only describe the tool.",
                            field, hidden.offset + offset)
            if flagged_instruction:
                for offset, what in _instruction_hits(text, checks):
                    instruct(field, offset, what)
                for offset, what in (_url_hits(text) if checks is None or _URL in checks else ()):
                    add("data-in-url", "error", what,
                        "Remove the URL; a tool's text must not ask the model to put conversation data or secrets "
                        "into a link or image.", field, offset)
            if field == "name" or not flagged_shadow:
                continue
            shadowed = (_shadow_hits(text, names, server.name, own_names[server.name]) if named_tools is None
                        else named_tools.hits(text, server.name, own_names[server.name]))
            for offset, what in shadowed:
                add("shadowing", "warning", what,
                    "A tool should describe itself only; remove references to other servers' tools.", field, offset)
        for how, text, where in views:
            flagged_instruction = at in instructions
            checks = instructions.get(at)
            at += 1
            if not flagged_instruction:
                continue
            for start, end, what in _instruction_matches(text, checks):
                field, offset, spanned = where(start, end)
                if how == "joined":
                    if len(spanned) < 2:
                        continue  # inside one string: the string's own check reports it
                    instruct(field, offset, what, f", split across {' and '.join(dict.fromkeys(spanned))}")
                elif how == "identifier":
                    instruct(field, offset, what, " (an identifier read as words)")
                else:
                    instruct(field, offset, what, " (leetspeak read as letters)")
    for server in catalog.servers:  # the listing's group heading names the server as written
        for hidden in find_hidden(server.name):
            decoded = f" spelling {quoted(hidden.decoded)}" if hidden.decoded else ""
            findings.append(Finding(
                "hidden-characters", "error" if hidden.kind in ("tag", "variation", "bidi") else "warning",
                server.name, "", "",
                f"{len(hidden.text)} {_HIDDEN_HELP[hidden.kind]}{decoded} ({hidden.codepoints}) in the server name; "
                "the model receives them in the listing's heading for this server (tool names replace them)",
                "Rename the server in the client config so its name has no invisible characters.",
                "server name", hidden.offset))
    findings.extend(lookalikes(catalog, naming, _straightforward=_straightforward))
    _POISONING_MEMO["last"] = (weakref.ref(catalog), key, tuple(findings))
    return findings


#: The last :func:`poisoning` call under ``"last"``: ``(weak reference to its catalog, (naming,
#: straightforward, wire names), findings)`` (empty before the first).
_POISONING_MEMO: dict[str, tuple[Any, tuple, tuple[Finding, ...]]] = {}


def lookalikes(catalog: Catalog, naming: str = "prefixed", *, _straightforward: bool = False) -> list[Finding]:
    """``lookalike-name`` findings: a server (or a tool of another server) whose name reads like
    another one's but is written with other characters (``gіthub`` with a Cyrillic ``і`` beside
    ``github``; :mod:`toolsearch.analysis.lookalike`): an error, on the name(s) written with
    characters of another script or full-width forms (on both when neither is, ``paypa1`` and
    ``paypal``). A name written with
    characters of other scripts (or full-width forms) that read as ASCII letters, with no twin in
    the catalog, is a warning. ``_straightforward`` (for tests) compares every two names of a
    group of look-alikes (:class:`_LookalikeGroup` finds the same first twin and count in time
    linear in the group)."""
    import unicodedata  # noqa: PLC0415

    from .lookalike import looks_alike, odd_characters, skeleton  # noqa: PLC0415

    findings: list[Finding] = []
    fix = ("Check where this server comes from; rename it (in the config) so that no two names differ only by "
           "look-alike characters.")

    def disguised(name: str) -> bool:
        # letters of the Latin script itself (ß, ł) are ordinary spelling, not disguise
        return any(not c.isascii() and not unicodedata.name(c, "").startswith("LATIN ") for c in name)

    def blamed(a: str, b: str) -> list[str]:
        odd = [n for n in (a, b) if disguised(n)]
        return odd or [a, b]

    def groups(items: list[tuple[str, Any]]) -> list[dict[str, list[Any]]]:
        """Items by skeleton, then by name: the groups with look-alike names (two names or more)."""
        by_skeleton: dict[str, dict[str, list[Any]]] = {}
        for name, item in items:
            by_skeleton.setdefault(skeleton(name), {}).setdefault(name, []).append(item)
        return [group for group in by_skeleton.values() if len(group) > 1]

    twinned: set[str] = set()
    for group in groups([(s.name, s) for s in catalog.servers]):
        indexed = None if _straightforward else _LookalikeGroup(group, disguised, lambda item: item.name)
        for name in group:
            if indexed is None:
                others = [m for m in group if looks_alike(name, m) and name in blamed(name, m)]
                twin = others[0] if others else None
            else:
                found = indexed.twin(name, None)
                twin = found[0][0] if found else None
            if twin is None:
                continue
            twinned.add(name)
            findings.append(Finding("lookalike-name", "error", name, "", "",
                                    f"server {quoted_short(name)} looks like server {quoted_short(twin)} "
                                    f"({odd_characters(name, twin)}): its tools can pass for the other server's",
                                    fix))
    for group in groups([(t.name, (s, t)) for s in catalog.servers for t in s.tools]):
        indexed = None if _straightforward else _LookalikeGroup(group, disguised, lambda item: item[0].name)
        for name, items in group.items():
            if indexed is None:
                others = [(m, item) for m in group if looks_alike(name, m) and name in blamed(name, m)
                          for item in group[m]]
            for server, tool in items:
                if indexed is None:
                    elsewhere = [(m, other_server) for m, (other_server, _) in others
                                 if other_server.name != server.name]
                    if not elsewhere:
                        continue  # look-alikes within one server: the sanitizing and duplicate checks see those
                    (first, first_server), more = elsewhere[0], len(elsewhere) - 1
                else:
                    found = indexed.twin(name, server.name)
                    if found is None:
                        continue
                    (first, (first_server, _)), count = found
                    more = count - 1
                twinned.add(f"{server.name}\0{name}")
                also = f" (and {more} more)" if more else ""
                findings.append(Finding(
                    "lookalike-name", "error", server.name, tool.name,
                    _wire(server.name, server.kind, tool.name, naming)[0],
                    f"tool {quoted_short(name)} looks like {shortened(first_server.name)}'s tool {quoted_short(first)}{also} "
                    f"({odd_characters(name, first)}): a model or a user can take one for the other",
                    "Rename the tool so it does not pass for another server's tool, or leave the server out.", "name"))
    for server in catalog.servers:
        candidates = [("", server.name)] + [(t.name, t.name) for t in server.tools]
        for tool_name, name in candidates:
            if not disguised(name) or not skeleton(name).isascii():
                continue
            if (not tool_name and name in twinned) or (tool_name and f"{server.name}\0{name}" in twinned):
                continue
            what = "server" if not tool_name else "tool"
            findings.append(Finding(
                "lookalike-name", "warning", server.name, tool_name,
                _wire(server.name, server.kind, tool_name, naming)[0] if tool_name else "",
                f"the {what} name {quoted_short(name)} is written with characters that look like ASCII letters "
                f"({odd_characters(name)}): it reads like a name it is not",
                "Use the plain ASCII name, or check where this server comes from.", "name" if tool_name else ""))
    return findings


class _LookalikeGroup:
    """One group of look-alike names (equal skeletons), indexed so that each name's first twin and
    number of twins are found without comparing it with every other name of the group (a group of
    thousands of names, e.g. one name written with ``l``, ``1`` and ``I`` in every combination,
    took minutes).

    The twins of ``name`` are the entries ``(other name, item)`` of the group, in the group's order
    (names in order, each name's items in order), whose name differs from ``name`` beyond case
    (:func:`~toolsearch.analysis.lookalike.looks_alike` within a group) and on which the blame
    falls on ``name``: every entry if ``name`` is disguised, else only entries of undisguised
    names. With ``server``, the entries whose item is on that server (by ``server_of``) are left
    out too (look-alikes within one server are the sanitizing and duplicate checks' business).
    """

    def __init__(self, group: Mapping[str, Sequence[Any]], disguised: Callable[[str], bool],
                 server_of: Callable[[Any], str]) -> None:
        self._disguised = {name: disguised(name) for name in group}
        # pool True: every entry; pool False: the entries of undisguised names
        self._pools = {pool: _TwinPool([(name, item, name.casefold(), server_of(item))
                                        for name, items in group.items() if pool or not self._disguised[name]
                                        for item in items])
                       for pool in (True, False)}

    def twin(self, name: str, server: str | None) -> tuple[tuple[str, Any], int] | None:
        """``((first twin's name, its item), number of twins)`` of ``name`` (leaving out
        ``server``'s entries when given), or ``None`` when it has none."""
        return self._pools[self._disguised[name]].first(name.casefold(), server)


class _TwinPool:
    """Entries ``(name, item, casefolded name, server)`` in order, answering "the first entry whose
    casefolded name is not ``c`` (and whose server is not ``s``), and how many there are" in
    constant time, from a few entries and counts found once."""

    def __init__(self, entries: list[tuple[str, Any, str, str]]) -> None:
        from collections import Counter

        self.entries = entries
        self.by_fold = Counter(e[2] for e in entries)
        self.by_server = Counter(e[3] for e in entries)
        self.by_both = Counter((e[2], e[3]) for e in entries)

        def first(where: Callable[[tuple[str, Any, str, str]], bool]) -> tuple[str, Any, str, str] | None:
            return next((e for e in entries if where(e)), None)

        a = entries[0] if entries else None
        # first entry of another casefolded name than the first's (b), and of those the first on
        # another server than b's (b2); first entry on another server than the first's (c), and
        # of those the first with another casefolded name than c's (c2)
        b = first(lambda e: e[2] != a[2]) if a else None
        b2 = first(lambda e: e[2] != a[2] and e[3] != b[3]) if a and b else None
        c = first(lambda e: e[3] != a[3]) if a else None
        c2 = first(lambda e: e[3] != a[3] and e[2] != c[2]) if a and c else None
        self.a, self.b, self.b2, self.c, self.c2 = a, b, b2, c, c2

    def first(self, fold: str, server: str | None) -> tuple[tuple[str, Any], int] | None:
        """The first entry whose casefolded name is not ``fold`` and, with ``server``, whose server
        is not ``server``, as ``((name, item), count of such entries)``; ``None`` if there is none."""
        a = self.a
        if a is None:
            return None
        if server is None:
            count = len(self.entries) - self.by_fold[fold]
            found = a if a[2] != fold else self.b
        else:
            count = (len(self.entries) - self.by_fold[fold] - self.by_server[server]
                     + self.by_both[fold, server])
            if a[2] != fold and a[3] != server:
                found = a
            elif a[2] == fold:  # past every entry of a's casefolded name: b, else the first of those on another server
                found = self.b if self.b is not None and self.b[3] != server else self.b2
            else:  # a is on the server (another casefolded name): c, else the first of those of another name
                found = self.c if self.c is not None and self.c[2] != fold else self.c2
        if found is None or count == 0:
            return None
        return (found[0], found[1]), count


#: Joins the strings of a catalog for one scan: none of the checks' patterns can match across it
#: (a newline ends their sentences, ``<`` ends a marker, ``.`` is no word character).
_JOIN = "\n<.\n"


#: Words every match of a check contains, as groups: a text can match only if, for each group,
#: it holds one of the group's words (lowercased; see :func:`_lowered`). Each pattern's
#: alternatives are listed beside it; no word holds whitespace or a newline.
_ANCHORS: dict[Any, tuple[tuple[str, ...], ...]] = {
    # "<" of the tag markers, "[" of [INST] and [SYSTEM]
    _MARKER: (("<", "["),),
    # every alternative starts with one of the four verbs
    _IGNORE_PREVIOUS: (("ignore", "disregard", "forget", "override"),),
    # every phrase names the user; "do not" / "don't" / "never" / "without", or
    # "keep" / "hide" / "conceal" / "withhold"
    _SECRECY: (("user",), ("not", "don", "never", "without", "keep", "hide", "conceal", "withhold")),
    # every alternative holds a sensitive thing (_SENSITIVE, alternative by alternative) and a
    # read verb (_READ_VERBS, "look up") or a pass verb (_PASS_VERBS)
    _EXFILTRATE: ((".ssh", ".aws", ".gnupg", ".netrc", ".npmrc", ".pypirc", "config", "id_rsa", "id_ed25519",
                   "id_ecdsa", ".env", "/etc/passwd", "/etc/shadow", "mcp.json", "credentials", "private key",
                   "private_key", "apikey", "api key", "api_key", "api-key", "secret", "password", "access token",
                   "access_token"),
                  ("read", "cat", "open", "load", "fetch", "grab", "collect", "copy", "look", "pass", "send", "put",
                   "include", "provide", "attach", "add", "paste", "append", "forward", "upload")),
    # "when(ever)" / "before" / "after" / "instead of" ... tools or servers; "all / any / every
    # other" tools or servers
    _OTHER_TOOLS: (("tool", "server"), ("when", "before", "after", "instead", "other")),
    # the verbs of each language's "ignore" ("ignor" also covers ignora / ignore / ignorez)
    _IGNORE_I18N: (("ignor", "missacht", "vergiss", "vergesst", "vergessen", "oubli", "olvid", "dimentic", "esqueç",
                    "игнорир", "забуд", "忽略", "无视", "無視", "忘记", "忘記", "忽視", "忘れ"),),
    # every phrase names the user (German, Romance, Russian, Chinese, Japanese words)
    _SECRECY_I18N: (("nutzer", "anwender", "user", "utilisat", "usuario", "utente", "usuário", "пользовател", "用户",
                     "ユーザー"),),
    # the German read verbs
    _EXFILTRATE_DE: (("lies", "lese", "öffne", "lade", "kopiere"),),
    # "in the parameter(s) / argument(s) / field(s) / property"
    _CONTINUED: (("param", "argument", "field", "propert"),),
    # every URL starts with http
    _URL: (("http",),),
}
#: The non-ASCII characters the case-insensitive patterns match to an ASCII letter (İ ı → i,
#: ſ → s, K → k): replaced before lowercasing, so every match's letters are ASCII lowercase.
_ASCII_FOLD = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}


def _lowered(texts: list[str]) -> tuple[str, list[int]] | None:
    """``(the texts joined by newlines, folded by :data:`_ASCII_FOLD` and lowercased, the start
    of each text in it)``, or ``None`` if lowercasing changed a length (offsets would shift)."""
    joined = "\n".join(texts)
    for char, ascii_letter in _ASCII_FOLD.items():
        if char in joined:
            joined = joined.replace(char, ascii_letter)
    low = joined.lower()
    if len(low) != len(joined):
        return None
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    return low, starts


def _holding(lowered: tuple[str, list[int]], groups: tuple[tuple[str, ...], ...]) -> list[int]:
    """Indexes of the texts that hold, for every group, one of its words (ascending)."""
    import bisect  # noqa: PLC0415

    low, starts = lowered
    found: set[int] | None = None
    for group in groups:
        having: set[int] = set()
        for word in group:  # no word holds a newline, so every occurrence is inside one text
            at = low.find(word)
            while at >= 0:
                owner = bisect.bisect_right(starts, at) - 1
                having.add(owner)
                nxt = starts[owner + 1] if owner + 1 < len(starts) else len(low)
                at = low.find(word, nxt)  # the rest of this text cannot add anything
        found = having if found is None else found & having
        if not found:
            return []
    return sorted(found or ())


def _flagged(texts: list[str], prose: list[str], names: Mapping[str, Any]) -> tuple[dict[int, set[Any]], set[int]]:
    """``({index of a text where an instruction or URL pattern matches: the patterns that match
    there}, indexes of ``prose`` texts (the texts, names blanked) with a word that names a tool or
    with the other-tools pattern)``: a superset of where each per-text check fires, so a text is
    checked one by one only with the patterns that can fire on it (a URL in a description, common
    in real catalogs, no longer runs every instruction pattern over that text). Each pattern runs only over the texts that hold
    its :data:`_ANCHORS` words, joined by :data:`_JOIN` (none of the patterns can match across it:
    a newline ends their sentences, ``<`` ends a marker, ``.`` is no word character)."""
    import bisect  # noqa: PLC0415

    def owners(regex: Any, chosen: list[int], pool: list[str]) -> set[int]:
        begins, position = [], 0
        for k in chosen:
            begins.append(position)
            position += len(pool[k]) + len(_JOIN)
        joined = _JOIN.join(pool[k] for k in chosen)
        return {chosen[bisect.bisect_right(begins, m.start()) - 1] for m in regex.finditer(joined)}

    lowered = _lowered(texts)
    everything = list(range(len(texts)))
    instructions: dict[int, set[Any]] = {}
    for regex in (_MARKER, _IGNORE_PREVIOUS, _SECRECY, _EXFILTRATE, _IGNORE_I18N, _SECRECY_I18N, _EXFILTRATE_DE,
                  _CONTINUED, _URL):
        chosen = _holding(lowered, _ANCHORS[regex]) if lowered is not None else everything
        if chosen:
            for index in owners(regex, chosen, texts):
                instructions.setdefault(index, set()).add(regex)
    lowered_prose = _lowered(prose)
    chosen = _holding(lowered_prose, _ANCHORS[_OTHER_TOOLS]) if lowered_prose is not None else everything
    shadows = owners(_OTHER_TOOLS, chosen, prose) if chosen else set()
    joined = _JOIN.join(prose)
    named = set(_WORD.findall(joined)).intersection(names)
    if named:
        starts, position = [], 0
        for text in prose:
            starts.append(position)
            position += len(text) + len(_JOIN)
        if len(named) > 500:
            matches = (m for m in _WORD.finditer(joined) if m.group(0) in named)
        else:
            alternatives = "|".join(re.escape(w) for w in sorted(named, key=len, reverse=True))
            matches = re.finditer(rf"(?<![\w-])(?:{alternatives})(?![\w-])", joined)
        shadows |= {bisect.bisect_right(starts, m.start()) - 1 for m in matches}
    return instructions, shadows


_WORD = re.compile(r"[\w-]+")


#: Other servers' tools that one word of a text is said to name, a ``shadowing`` finding each; past
#: it one more finding at the word says how many more servers have such a tool (a tool name on
#: thousands of servers, named in the text of thousands of others, made a finding per pair).
SHADOWED_NAMED = OTHERS_NAMED


def _more_shadowed(word: str, more: int) -> str:
    """The ``shadowing`` message for the other servers past :data:`SHADOWED_NAMED` that ``word`` names."""
    return (f"names {quoted_short(word)}, a tool on {more:,} more other {'server' if more == 1 else 'servers'} too "
            f"(only the first {SHADOWED_NAMED} are named, one finding each; these are not listed)")


def _shadow_hits(text: str, names: Mapping[str, list[tuple[str, str]]], server: str,
                 own: set[str]) -> list[tuple[int, str]]:
    """``(offset, message)`` of each ``shadowing`` hit in ``text`` of a tool of ``server`` (whose
    own tool names are ``own``): every word naming another server's tool (``names``: word → the
    ``(server, tool)`` pairs it names), at most :data:`SHADOWED_NAMED` per word and then one hit
    counting the rest, and the other-tools pattern. The straightforward reading of every pair;
    :func:`_shadow_hits_indexed` gives the same hits without walking a word's pairs past the ones named."""
    hits: list[tuple[int, str]] = []
    reported: set[tuple[str, str]] = set()
    for match in _WORD.finditer(text):
        word = match.group(0)
        listed = more = 0
        for other, tool in names.get(word, ()):
            # another server's tool; a raw name the server itself also has refers to its own tool
            if other == server or (word == tool and word in own) or (other, tool) in reported:
                continue
            reported.add((other, tool))
            if listed == SHADOWED_NAMED:
                more += 1
                continue
            listed += 1
            hits.append((match.start(), f"names {shortened(other)}'s tool {quoted_short(tool)} (another server)"))
        if more:
            hits.append((match.start(), _more_shadowed(word, more)))
    match = _OTHER_TOOLS.search(text)
    if match:
        hits.append((match.start(), f"tells the model how to use other tools: {quoted(match.group(0)[:80])}"))
    return hits


class _NamedTools:
    """The words of :func:`_shadow_hits` (every wire name and distinctive raw name → the
    ``(server, tool)`` pairs it names), indexed so that a word naming tools on thousands of servers
    is answered from counts: its distinct pairs in catalog order and, for a word with more than
    :data:`SHADOWED_NAMED` pairs, the pairs whose tool is not the word itself (a server's text
    naming its own tool skips the others), their set and their counts per server."""

    def __init__(self, names: Mapping[str, list[tuple[str, str]]]) -> None:
        from collections import Counter

        self.pairs: dict[str, list[tuple[str, str]]] = dict(names)  # most words name one tool: kept as they are
        self.not_itself: dict[str, list[tuple[str, str]]] = {}
        self.many: dict[str, tuple[set[tuple[str, str]], Counter, Counter]] = {}
        for word, found in names.items():
            if len(found) == 1:
                continue
            pairs = self.pairs[word] = list(dict.fromkeys(found))
            if len(pairs) > SHADOWED_NAMED:
                self.not_itself[word] = [p for p in pairs if p[1] != word]
                self.many[word] = (set(pairs), Counter(o for o, _ in pairs),
                                   Counter(o for o, t in pairs if t == word))

    def hits(self, text: str, server: str, own: set[str]) -> list[tuple[int, str]]:
        """:func:`_shadow_hits` of ``text`` for a tool of ``server`` with own tool names ``own``."""
        hits: list[tuple[int, str]] = []
        reported: set[tuple[str, str]] = set()
        counted: dict[str, bool] = {}  # words past SHADOWED_NAMED in this text -> whether the server has that tool

        def in_counted(pair: tuple[str, str]) -> bool:
            return any(pair in self.many[w][0] and not (mine and pair[1] == w) for w, mine in counted.items())

        for match in _WORD.finditer(text):
            word = match.group(0)
            pairs = self.pairs.get(word)
            if not pairs or word in counted:
                continue
            mine = word in own
            if mine:  # the server's own tool of that name: the pairs naming the word's own tool are left out
                candidates = self.not_itself[word] if word in self.many else [p for p in pairs if p[1] != word]
            else:
                candidates = pairs
            listed = 0
            for pair in candidates:
                if pair[0] == server or pair in reported or (counted and in_counted(pair)):
                    continue
                if listed == SHADOWED_NAMED:
                    break
                listed += 1
                reported.add(pair)
                hits.append((match.start(), f"names {shortened(pair[0])}'s tool {quoted_short(pair[1])} (another server)"))
            else:
                continue
            # past the first SHADOWED_NAMED: count the candidates not on this server and not reported
            members, by_server, itself_by_server = self.many[word]
            on_server = by_server[server] - (itself_by_server[server] if mine else 0)
            seen = sum(1 for pair in reported if pair in members and pair[0] != server and not (mine and pair[1] == word))
            more = len(candidates) - on_server - seen
            counted[word] = mine
            if more:
                hits.append((match.start(), _more_shadowed(word, more)))
        match = _OTHER_TOOLS.search(text)
        if match:
            hits.append((match.start(), f"tells the model how to use other tools: {quoted(match.group(0)[:80])}"))
        return hits


# --- what the official SDK rejects -------------------------------------------------------------

def sdk_rejections(catalog: Catalog, naming: str = "prefixed") -> list[Finding]:
    """``sdk-rejects`` findings: MCP tools the official ``mcp`` SDK's ``Tool`` model rejects (one
    such tool makes SDK clients reject the server's whole ``tools/list`` result)."""
    try:
        # The wire model the SDK client validates a 2025-11-25 tools/list result with (the
        # top-level Tool model is lenient; the per-version one is what rejects a listing).
        from mcp_types import _v2025_11_25 as wire  # noqa: PLC0415
        from pydantic import ValidationError  # noqa: PLC0415
    except ImportError:  # pragma: no cover - another SDK layout: nothing to check against
        return []
    findings: list[Finding] = []
    for server in catalog.servers:
        if server.kind != "mcp":
            continue
        for tool in server.tools:
            raw: dict[str, Any] = {**dict(tool.extra), "name": tool.name}
            if tool.description is not None:
                raw["description"] = tool.description
            if tool.input_schema is not None:  # a missing one is "Field required" to the SDK: not filled in here
                raw["inputSchema"] = tool.input_schema
            try:
                wire.Tool.model_validate(raw)
            except ValidationError as exc:
                errors = exc.errors()
                first = errors[0] if errors else {}
                where = ".".join(str(x) for x in first.get("loc", ()))
                detail = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", exc))
                findings.append(Finding(
                    "sdk-rejects", "error", server.name, tool.name, _wire(server.name, server.kind, tool.name, naming)[0],
                    f"the MCP SDK rejects this tool ({detail}), and with it the server's whole tools/list result: "
                    "SDK-based clients see none of its tools",
                    _sdk_fix(where, tool.input_schema is None), "parameters" if where.startswith("inputSchema") else where))
    return findings


def _sdk_fix(where: str, no_input_schema: bool = False) -> str:
    """The fix line of an ``sdk-rejects`` finding, naming the part of the tool the SDK rejected
    (``no_input_schema``: the tool has none at all, which this catalog's reader fills in as an empty
    object schema, but the SDK does not)."""
    if where == "inputSchema" and no_input_schema:
        return ('Add an inputSchema: every MCP tool needs one, {"type": "object"} for a tool without '
                "parameters.")
    if where.startswith("outputSchema"):
        return 'Fix the outputSchema: it must be an object schema with "type": "object" (or leave it out).'
    if where.startswith("inputSchema"):
        return 'Fix the inputSchema: it must be an object schema with "type": "object".'
    return f"Fix the tool definition at {where or 'its top level'} to match the MCP Tool schema."


# --- changes since a saved snapshot ------------------------------------------------------------

def rug_pulls(before: Catalog, after: Catalog, naming: str = "prefixed") -> list[Finding]:
    """``rug-pull`` findings: tools present in both catalogs (same server and tool name) whose
    description, input schema, title, annotations or output schema differ (a warning), and tools
    that are new under a name that looks like a tool of the baseline (``github/create_issue``
    now ``gіthub/create_issue``, :mod:`toolsearch.analysis.lookalike`; an error). A server that
    changes an approved tool's text later is the "rug pull" pattern of tool poisoning; the finding
    says what changed."""
    import json  # noqa: PLC0415

    from .lookalike import odd_characters, skeleton  # noqa: PLC0415

    def same(a: Any, b: Any) -> bool:
        return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)

    def extra(tool: Any, key: str) -> Any:
        return tool.extra.get(key) if isinstance(tool.extra, Mapping) else None

    old = {(s.name, t.name): t for s in before.servers for t in s.tools}
    by_skeleton: dict[tuple[str, str], tuple[str, str]] = {}
    for server_name, tool_name in old:
        by_skeleton.setdefault((skeleton(server_name), skeleton(tool_name)), (server_name, tool_name))
    findings: list[Finding] = []
    for server in after.servers:
        for tool in server.tools:
            wire = _wire(server.name, server.kind, tool.name, naming)[0]
            previous = old.get((server.name, tool.name))
            if previous is None:
                twin = by_skeleton.get((skeleton(server.name), skeleton(tool.name)))
                if twin is not None and twin != (server.name, tool.name) and \
                        (twin[0].casefold(), twin[1].casefold()) != (server.name.casefold(), tool.name.casefold()):
                    now, then = f"{server.name}/{tool.name}", f"{twin[0]}/{twin[1]}"
                    findings.append(Finding(
                        "rug-pull", "error", server.name, tool.name, wire,
                        f"new since the baseline snapshot under a name that looks like {quoted_short(then)} "
                        f"({odd_characters(now, then) or 'look-alike characters'}): possible impersonation of an "
                        "approved tool",
                        "Compare the names character by character; trust the tool only if the rename is expected.",
                        "name"))
                continue
            changed = []  # (what, field)
            if (previous.description or "") != (tool.description or ""):
                changed.append(("description", "description"))
            if not same(previous.input_schema, tool.input_schema):
                changed.append(("input schema", "parameters"))
            for key, what in (("title", "title"), ("annotations", "annotations"), ("outputSchema", "output schema")):
                if not same(extra(previous, key), extra(tool, key)):
                    changed.append((what, key))
            if not changed:
                continue
            findings.append(Finding(
                "rug-pull", "warning", server.name, tool.name, wire,
                f"the {' and '.join(w for w, _ in changed)} changed since the baseline snapshot: possible rug pull "
                "(a server changing an approved tool's text)",
                "Review the new text before trusting the tool again; pin the server version if the change is "
                "unexpected.", changed[0][1] if len(changed) == 1 else ""))
    return findings


def reserved_names(catalog: Catalog, naming: str = "prefixed") -> list[Finding]:
    """``reserved-name`` findings: a tool whose wire name is a bridge tool's name (``tool_search``,
    ``tool_describe``, ``tool_call``: the harness drops the catalog tool and keeps its own bridge,
    error) or a bridge wire alias (``hermes_tool_search``: on the transports that reserve
    ``tool_search`` the model's calls to that name go to the bridge, error). Names are compared as
    registered with ``naming``, so prefixed MCP tools never collide.
    """
    aliased_on = sorted(t for t, names in RESERVED_NAMES.items() if names)
    out: list[Finding] = []
    for server in catalog.servers:
        for tool in server.tools:
            wire = _wire(server.name, server.kind, tool.name, naming)[0]
            if wire not in ALL_BRIDGE_WIRE_NAMES:
                continue
            if wire in C.BRIDGE_NAMES:
                message = (f"'{wire}' is the name of a bridge tool: the harness drops this tool before assembly "
                           f"and the model only ever reaches its own bridge")
            else:
                bridge = next(k for k, v in WIRE_ALIASES.items() if v == wire)
                message = (f"'{wire}' is the name the {bridge} bridge goes out under on {', '.join(aliased_on)}: "
                           f"calls to it are mapped back to the bridge, never to this tool")
            out.append(Finding("reserved-name", "error", server.name, tool.name, wire, message,
                               "Rename the tool (or register the server's tools prefixed) so its wire name is not "
                               "a bridge name."))
    return out

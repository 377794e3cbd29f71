"""Catalog lint: what in a catalog will hurt the model or the harness, with a one-line fix each.

Every rule works on the catalog as the reference harness registers it (REG §1–§2) and searches
it (RB §5.1, §7). Thresholds live in :mod:`toolsearch.constants` (the ``LINT_*`` names and
``PROVIDER_MAX_TOOLS``). Severities:

* ``error``: the harness drops tools, or a provider rejects the whole request;
* ``warning``: the model is likely to miss, misread or overpay for a tool;
* ``info``: worth knowing in a design review, often fine.

Rules (:data:`RULES`, in report order):

* ``load-problem`` (error / warning): a tool or server the loader skipped (error) or repaired
  (warning), as reported while reading the file; ``info`` load notes are left out.
* ``name-invalid`` (error): a name kept as is (plugin and core tools, or ``--tool-names as-is``)
  that OpenAI-style providers reject: not ``^[a-zA-Z0-9_-]{1,64}$``.
* ``sanitized-collision`` (error): two different tools of one server whose wire names are equal
  after sanitizing (``read-file`` and ``read_file``): the reference registers **neither**
  (REG §1.5).
* ``cross-server-collision`` (error): a wire name produced by two servers (servers ``my-api``
  and ``my_api`` both exposing ``ping``; or the same name on two servers with ``as-is`` naming):
  the registry keeps the first registration and skips the other.
* ``name-over-64`` (warning): a prefixed MCP name over 64 characters; the reference clamps it to
  ``full[:55] + "_" + sha256[:8]`` (REG §1.3), and the finding shows the result.
* ``duplicate-in-server`` (warning): a server lists the same tool name more than once; the later
  copies are dropped.
* ``description-empty`` (warning): no description, or whitespace only. MCP tools get the generated
  default description (REG §2), which says nothing about what the tool does.
* ``description-one-word`` (warning): a one-word description (no whitespace inside; text with
  Han, kana or Hangul never counts, since those scripts do not separate words with spaces).
* ``description-no-ascii-words`` (warning): a deferred tool whose description has no
  ``[A-Za-z0-9]+`` word: the reference search (RB §7.1) sees only its name words, label and
  parameter names.
* ``unreachable`` (warning): a deferred tool that none of its own probe queries returns within
  ``search_default_limit``. The probes are (1) its own tool name with ``_ . : -`` as spaces
  (``dns_records_list`` → ``dns records list``) and (2) up to ``LINT_PROBE_MAX_KEYWORDS`` keywords
  of its listing line (the short description of RB §5.1, the text a model reads before it
  searches): its ASCII words, lowercased, in order, without repeats, at least
  ``LINT_PROBE_MIN_WORD_CHARS`` characters long, not all digits and not in
  ``LINT_PROBE_STOP_WORDS``. Each probe runs through the reference search; exact-name matches are
  not probes.
* ``schema-large`` (warning): a tool whose definition costs more than ``LINT_SCHEMA_MEDIAN_FACTOR``
  times the catalog's median and more than ``LINT_SCHEMA_MIN_TOKENS`` tokens (chars4, RB §3).
* ``description-over-2048`` (warning): a description over ``LINT_DESCRIPTION_MAX_CHARS``
  characters (registration keeps it whole, REG §2; ``tool_search`` shows 500 of it).
* ``too-many-tools`` (error / warning): more than ``PROVIDER_MAX_TOOLS`` (128) tools in one
  request, which the OpenAI Chat Completions API (and Azure OpenAI, the same API) rejects. An
  error when the request at these settings exceeds it; a warning when only the eager request
  (tool search off) would.
* ``duplicate-name`` (info): the same tool name on several servers (distinct wire names under
  prefixed naming): the model sees it in several groups and needs the server word to pick one.
* ``first-sentence-clipped`` (info): the listing line of a deferred tool is cut (the short
  description ends with ``…``, RB §5.1).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import Any, Mapping

from . import constants as C
from .config import ToolSearchConfig
from .inspector import Inspector
from .listing import short_description
from .registration import clamp_tool_name, filter_tool_names, sanitize_name_part

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_NAME_SEPARATORS = re.compile(r"[_.:\-\s]+")
_PROVIDER_NAME = re.compile(C.PROVIDER_TOOL_NAME_PATTERN)
# Chinese and Japanese are written without spaces between words: such text is never "one word".
_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

#: Rule id → what it checks, in report order.
RULES: dict[str, str] = {
    "load-problem": "an item the loader skipped (error) or repaired (warning)",
    "name-invalid": "a name kept as is that OpenAI-style providers reject (^[a-zA-Z0-9_-]{1,64}$)",
    "sanitized-collision": "tools of one server that are equal after sanitizing: none is registered",
    "cross-server-collision": "a wire name produced by two servers: the later one is skipped",
    "too-many-tools": f"more than {C.PROVIDER_MAX_TOOLS} tools in one request ({', '.join(C.PROVIDER_MAX_TOOLS_PROVIDERS)})",
    "name-over-64": "a prefixed name over 64 characters, clamped with a hash suffix",
    "duplicate-in-server": "a server lists the same tool name twice; later copies are dropped",
    "description-empty": "no description (or whitespace only)",
    "description-one-word": "a one-word description",
    "description-no-ascii-words": "no ASCII word in the description: invisible to the reference search",
    "unreachable": "no probe built from the tool's own name or listing words returns it within the limit",
    "schema-large": "a schema far above the catalog's typical size",
    "description-over-2048": f"a description over {C.LINT_DESCRIPTION_MAX_CHARS:,} characters",
    "duplicate-name": "the same tool name on several servers",
    "first-sentence-clipped": "the listing line is cut at 60 characters (ends with …)",
}
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
    """

    rule: str
    severity: str
    server: str
    tool: str
    name: str
    message: str
    fix: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "severity": self.severity, "server": self.server, "tool": self.tool,
                "name": self.name, "message": self.message, "fix": self.fix}


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
                "provider_max_tools": C.PROVIDER_MAX_TOOLS, "providers": list(C.PROVIDER_MAX_TOOLS_PROVIDERS),
                "short_description_max_chars": C.SHORT_DESCRIPTION_MAX_CHARS,
            },
        }


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


def lint(inspector: Inspector, config: ToolSearchConfig | None = None) -> LintReport:
    """Lint ``inspector``'s catalog as registered with its naming, at ``config`` (default settings
    when ``None``; the defer set and ``search_default_limit`` matter).

    Returns:
        A :class:`LintReport`; the rules are described in the module docstring.
    """
    config = config or ToolSearchConfig()
    catalog, registration, profile = inspector.catalog, inspector.registration, inspector.profile
    naming = inspector.naming
    findings: list[Finding] = []

    def add(rule: str, severity: str, server: str, tool: str, name: str, message: str, fix: str) -> None:
        findings.append(Finding(rule, severity, server, tool, name, message, fix))

    for problem in catalog.problems:
        if problem.severity in ("error", "warning"):
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
            names = [n for n in names if n in set(kept)]
        counts: dict[str, int] = {}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        by_wire: dict[str, list[str]] = {}
        for raw in dict.fromkeys(names):
            wire, full = _wire(server.name, server.kind, raw, naming)
            by_wire.setdefault(wire, []).append(raw)
            if counts[raw] > 1:
                add("duplicate-in-server", "warning", server.name, raw, wire,
                    f"listed {counts[raw]} times; the harness keeps the first and drops the rest",
                    "List each tool once in the server's tools/list.")
            if wire != full:
                cut_inside_server = len(C.MCP_TOOL_NAME_PREFIX + sanitize_name_part(server.name) + C.MCP_NAME_SEPARATOR) > \
                    C.MCP_TOOL_NAME_MAX_LENGTH - C.MCP_TOOL_NAME_HASH_LENGTH - 1
                lost = " (the tool's own name is cut off entirely)" if cut_inside_server else ""
                add("name-over-64", "warning", server.name, raw, wire,
                    f"prefixed name {full!r} is {len(full)} characters; the reference clamps it to {wire!r}{lost}",
                    "Shorten the server name in the config (it is in every tool name) or the tool name, so "
                    "mcp__<server>__<tool> fits in 64 characters.")
            elif not _PROVIDER_NAME.match(wire):
                add("name-invalid", "error", server.name, raw, wire,
                    f"name {wire!r} ({len(wire)} characters) does not match {C.PROVIDER_TOOL_NAME_PATTERN}; "
                    "OpenAI-style providers reject the whole request",
                    "Rename the tool to at most 64 characters of letters, digits, '_' and '-'.")
        for wire, raws in by_wire.items():
            if len(raws) > 1:
                for raw in raws:
                    others = ", ".join(repr(r) for r in raws if r != raw)
                    verb = "both become" if len(raws) == 2 else "all become"
                    add("sanitized-collision", "error", server.name, raw, "",
                        f"{raw!r} and {others} {verb} {wire!r}; the reference registers none of them (REG §1.5)",
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
                f"{wire!r} is also produced by server {owner!r}; the registry keeps the first registration "
                f"({owner!r} here, by server name; a live harness keeps whichever connects first) and skips this one",
                "Rename one of the servers in the config (or the tool) so the wire names differ.")
    if naming == "prefixed":
        for raw, servers in catalog.duplicate_tool_names().items():
            for server_name in servers:
                others = ", ".join(repr(s) for s in servers if s != server_name)
                add("duplicate-name", "info", server_name, raw, _wire_of(catalog, server_name, raw, naming),
                    f"the tool name {raw!r} is also on server(s) {others}: the listing shows it in several groups",
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
                    what = f"no description; the harness substitutes {default!r}"
                else:
                    what = "the description is whitespace only" if raw else "no description"
                add("description-empty", "warning", server.name, tool.name, wire,
                    f"{what}: the listing and the search know only the name",
                    "Write a first sentence saying what the tool does to which object.")
                continue
            if len(raw.split()) == 1 and not _CJK_CHAR.search(raw):
                add("description-one-word", "warning", server.name, tool.name, wire,
                    f"the description is one word ({raw.strip()[:40]!r})",
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
                        f"the listing line shows {short!r}",
                        f"Start with a first sentence of at most {C.SHORT_DESCRIPTION_MAX_CHARS} characters; put "
                        "details after it.")

    # --- reachability ------------------------------------------------------------------------
    index = bridge.index
    limit = bridge.resolve_limit(None)
    depth = max(len(index), 1)
    for tool in bridge.deferred:
        probes = [p for p in (name_probe(tool.raw_name), " ".join(probe_keywords(tool.description))) if p]
        outcomes = []
        reachable = False
        for probe in dict.fromkeys(probes):
            ranking = [n for n, _ in index.search(probe, depth)]
            if tool.name in ranking:
                position = ranking.index(tool.name) + 1
                if position <= limit:
                    reachable = True
                    break
                outcomes.append(f"{probe!r} → rank {position}")
            else:
                outcomes.append(f"{probe!r} → {_why_not(index, probe, tool.name, limit)}")
        if probes and not reachable:
            add("unreachable", "warning", tool.server, tool.raw_name, tool.name,
                f"not in the first {limit} results for its own words: " + "; ".join(outcomes),
                "Make the name and the first sentence say what is specific to this tool (action and object); "
                "near-duplicates compete for the same words.")

    # --- schema sizes --------------------------------------------------------------------------
    per_tool = inspector.planner.tool_tokens("chars4")
    sizes = {t.name: per_tool[t.name] for t in registration.tools if t.name not in C.BRIDGE_NAMES}
    median = float(statistics.median(sizes.values())) if sizes else 0.0
    threshold = max(C.LINT_SCHEMA_MEDIAN_FACTOR * median, C.LINT_SCHEMA_MIN_TOKENS)
    by_name = registration.by_name()
    for name, tokens in sizes.items():
        if tokens > threshold:
            tool = by_name[name]
            ratio = tokens / median if median else float("inf")
            add("schema-large", "warning", tool.server, tool.raw_name, name,
                f"the definition is {tokens:,} tokens (chars4), {ratio:.1f}× the catalog median of {median:g}",
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

    findings.sort(key=lambda f: (_SEVERITY_RANK[f.severity], _RULE_RANK[f.rule], f.server, f.tool, f.message))
    return LintReport(catalog.name, naming, tuple(findings), len(registration.tools), len(bridge.deferred),
                      median, limit)


def _wire_of(catalog, server_name: str, raw: str, naming: str) -> str:
    kind = next((s.kind for s in catalog.servers if s.name == server_name), "mcp")
    return _wire(server_name, kind, raw, naming)[0]


def _why_not(index, probe: str, name: str, limit: int) -> str:
    ex = index.explain(probe, limit, max_candidates=len(index))
    if not ex.tokens:
        return "no searchable word"
    candidate = next((c for c in ex.candidates if c.name == name), None)
    if candidate is None:
        return "shares no term"
    return f"not admitted: {candidate.reason}"

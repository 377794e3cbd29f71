"""How a harness turns catalog tools into tool definitions (docs/reference.md §21–§25, §27).

MCP tools get the reference naming (``mcp__<server>__<tool>``, sanitized, clamped to 64
characters with a hash suffix), the default description when they have none, TAG-character
stripping, Stage A + Stage B schema normalization, include/exclude filters and, when the catalog
records the capability, the per-server resource/prompt utility tools. Plugin and core tools keep
their names and go through Stage B only. ``naming="as-is"`` keeps every catalog name unchanged.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence  # not typing.Mapping: isinstance on it is much slower
from typing import Any

from .invisible import quoted, quoted_short, yaml_kind
from . import constants as C
from .catalog import Catalog, Problem, Server, Tool
from .gcpause import gc_paused
from .profile import Profile, default_profile
from .schema import property_renames, register_input_schema, sanitize_tool_definition
from .wording import counted

_UNSAFE_NAME_CHARS = re.compile(C.UNSAFE_NAME_CHARS)
_TAG_RE = re.compile("(\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F)|[\U000E0000-\U000E007F]")
_TAG_PRESENT = re.compile("[\U000E0000-\U000E007F]")


def sanitize_name_part(value: str | None) -> str:
    """docs/reference.md §21.2: every code point outside ``[A-Za-z0-9_]`` becomes one ``_``; ``None`` → ``""``."""
    return _UNSAFE_NAME_CHARS.sub("_", value or "")


def replaced_entirely(name: str | None) -> bool:
    """Whether sanitizing (docs/reference.md §21.2) replaces every character of a server or tool name
    that has something besides ``_``: nothing of it is left in the wire name to recognize
    (``日本語サーバー`` → ``_______``)."""
    return bool((name or "").strip("_")) and not sanitize_name_part(name).strip("_")


def unrecognizable_name_words(what: str, original: str, wire: str, tool: str | None = None) -> str:
    """What registration notes and ``lint`` (``name-unrecognizable``) say of a name
    :func:`replaced_entirely` replaces: ``what`` is ``"server"`` or ``"tool"``; ``wire`` the wire
    name of the tool (of ``tool``, one of the server's tools, for a server)."""
    if what == "server":
        return (f"sanitizing replaces every character of the server name {quoted_short(original)}, so its wire names "
                f"keep nothing of it ({quoted_short(tool or '')} is {quoted_short(wire)}; docs/reference.md §21.2)")
    return (f"sanitizing replaces every character of the tool name {quoted_short(original)}, so its wire name "
            f"{quoted_short(wire)} keeps nothing of it (docs/reference.md §21.2)")


def clamp_tool_name(full: str) -> str:
    """docs/reference.md §21.3: names over 64 characters become ``full[:55] + "_" + sha256(full)[:8]``."""
    if len(full) <= C.MCP_TOOL_NAME_MAX_LENGTH:
        return full
    digest = hashlib.sha256(full.encode("utf-8", "surrogatepass")).hexdigest()[: C.MCP_TOOL_NAME_HASH_LENGTH]
    keep = C.MCP_TOOL_NAME_MAX_LENGTH - C.MCP_TOOL_NAME_HASH_LENGTH - 1
    return f"{full[:keep]}_{digest}"


def mcp_prefixed_tool_name(server: str | None, tool: str | None) -> str:
    """The wire name of an MCP tool (docs/reference.md §21.1–§21.3): ``mcp__S(server)__S(tool)``, clamped."""
    full = C.MCP_TOOL_NAME_PREFIX + sanitize_name_part(server) + C.MCP_NAME_SEPARATOR + sanitize_name_part(tool)
    return clamp_tool_name(full)


def strip_tag_characters(text: str) -> str:
    """docs/reference.md §22: remove Unicode TAG characters (U+E0000..U+E007F) except whole emoji tag sequences."""
    if not _TAG_PRESENT.search(text):
        return text
    return _TAG_RE.sub(lambda m: m.group(1) or "", text)


def parse_bool_like(value: Any, default: bool = True) -> tuple[bool, bool]:
    """docs/reference.md §25.2 bool-like values. Returns ``(value, recognised)``; unrecognised gives ``default``."""
    if value is None:
        return default, True
    if isinstance(value, (bool, int, float)):
        return bool(value), True
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True, True
        if text in ("false", "0", "no", "off"):
            return False, True
    return default, False


def _patterns(value: Any) -> list[str] | None:
    """include/exclude value forms (docs/reference.md §25.1): list → strings, string → one pattern, else None."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    return None


def _matches(name: str, patterns: list[str]) -> bool:
    if name in patterns:
        return True
    return any(any(ch in p for ch in "*?[") and fnmatch.fnmatchcase(name, p) for p in patterns)


def filter_tool_names(names: list[str], tools_config: Mapping[str, Any] | None) -> tuple[list[str], list[str]]:
    """Apply ``tools.include`` / ``tools.exclude`` to raw tool names (docs/reference.md §25.1).

    Returns ``(kept, warnings)``. Include (a string or list, even empty) wins and exclude is then
    ignored; an invalid include/exclude type is warned about and treated as absent.
    """
    tools_config = tools_config or {}
    warnings: list[str] = []
    include_raw, exclude_raw = tools_config.get("include"), tools_config.get("exclude")
    include = _patterns(include_raw)
    exclude = _patterns(exclude_raw)
    if include_raw is not None and include is None:
        warnings.append(f"tools.include: expected a list or a string, got {yaml_kind(include_raw)}; ignored")
    if exclude_raw is not None and exclude is None:
        warnings.append(f"tools.exclude: expected a list or a string, got {yaml_kind(exclude_raw)}; ignored")
    if include is not None:
        return [n for n in names if _matches(n, include)], warnings
    if exclude:
        return [n for n in names if not _matches(n, exclude)], warnings
    return list(names), warnings


@dataclass(frozen=True)
class RegisteredTool:
    """A tool definition as the harness registers it.

    Attributes:
        name: the wire name the model sees.
        server: the owning server's name (raw), or ``""`` for an unregistered tool.
        kind: ``mcp`` | ``plugin`` | ``core`` | ``unregistered``.
        raw_name: the name the server knows the tool by (dispatch uses it).
        toolset: registry toolset (``mcp-<server>`` for MCP, the server name otherwise), or
            ``None`` when unregistered.
        label: the listing group label (docs/reference.md §5.2).
        definition: ``{"type": "function", "function": {name, description, parameters}}``
            after Stage B: exactly what the model would receive.
        utility: True for generated resource/prompt utility tools.
        annotations: the tool's MCP annotations, if any.
        renames: top-level parameter names Stage B renamed, ``{wire name: server name}``.
    """

    name: str
    server: str
    kind: str
    raw_name: str
    toolset: str | None
    label: str
    definition: Mapping[str, Any] = field(repr=False)
    utility: bool = False
    annotations: Mapping[str, Any] | None = None
    renames: Mapping[str, str] | None = None

    @property
    def description(self) -> str:
        """The registered description (docs/reference.md §22), as text."""
        return self.definition["function"].get("description") or ""

    @property
    def parameters(self) -> Mapping[str, Any]:
        """The registered parameters schema."""
        return self.definition["function"].get("parameters") or {}

    @property
    def source(self) -> str:
        """``mcp`` for ``mcp-*`` toolsets, ``plugin`` for any other toolset, ``other`` when unregistered (docs/reference.md §7.6)."""
        if self.toolset is None:
            return "other"
        return "mcp" if self.toolset.startswith(C.MCP_TOOLSET_PREFIX) else "plugin"

    @property
    def source_name(self) -> str:
        """The raw toolset name, or ``""`` for unregistered tools (docs/reference.md §7.6)."""
        return self.toolset or ""


def make_tool(name: str, description: str = "", parameters: Any = None, *, kind: str = "mcp",
              server: str | None = None, toolset: str | None = None, raw_name: str | None = None) -> RegisteredTool:
    """Build one registered tool directly (tests, conformance fixtures, OpenAI-style input).

    ``kind="mcp"`` with ``server`` gives toolset ``mcp-<server>`` (docs/reference.md §27);
    ``kind="unregistered"`` gives no toolset and the label ``other`` (§5.2). The parameters go
    through Stage B (§23.2).
    """
    if toolset is None and kind != "unregistered":
        toolset = (C.MCP_TOOLSET_PREFIX + (server or "")) if kind == "mcp" else (server or "")
    label = _label_for(toolset)
    definition = sanitize_tool_definition(
        {"type": "function", "function": {"name": name, "description": description,
                                          "parameters": parameters if parameters is not None else {"type": "object", "properties": {}}}})
    return RegisteredTool(name=name, server=server or "", kind=kind, raw_name=raw_name or name,
                          toolset=toolset, label=label, definition=definition)


def _label_for(toolset: str | None) -> str:
    """docs/reference.md §5.2: ``mcp-<server>`` → ``<server>`` (prefix stripped once); other toolsets as is; none → ``other``."""
    if toolset is None:
        return C.UNREGISTERED_LABEL
    if toolset.startswith(C.MCP_TOOLSET_PREFIX):
        return toolset[len(C.MCP_TOOLSET_PREFIX):]
    return toolset


@dataclass(frozen=True)
class Registration:
    """The registered tool definitions of a catalog.

    Attributes:
        tools: the pre-assembly tool list, sorted by wire name (then server), as the registry
            emits it (docs/reference.md §28: tools are ordered by name).
        problems: collisions, skipped tools and filter warnings.
        naming: ``prefixed`` or ``as-is``.
        server_kinds: ``{server: kind}`` for every catalog server (zero-tool servers included).
    """

    tools: tuple[RegisteredTool, ...]
    problems: tuple[Problem, ...]
    naming: str
    server_kinds: Mapping[str, str]

    def by_name(self) -> dict[str, RegisteredTool]:
        """``{wire name: tool}``."""
        return {t.name: t for t in self.tools}


def registration_effect(server: Server, tools_config: Mapping[str, Any] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a per-server ``tools`` block (``include``, ``exclude``, ``resources``, ``prompts``)
    does to ``server`` (docs/reference.md §24, §25.1): the names of its own tools that are
    registered, in its order, and the utility kinds it gets (``resources``, ``prompts``: on, and
    announced by the server). Two blocks with the same effect register the same tools
    (``resources: true`` is the default; an ``exclude`` naming no tool of the server leaves it as is)."""
    tools_config = tools_config if isinstance(tools_config, Mapping) else {}
    names = [t.name for t in server.tools]
    kept = tuple(filter_tool_names(names, tools_config)[0]) if server.kind == "mcp" else tuple(names)
    caps = server.capabilities if server.kind == "mcp" and server.capabilities is not None else {}
    utilities = tuple(kind for kind in ("resources", "prompts")
                      if parse_bool_like(tools_config.get(kind))[0] and caps.get(kind) is not None)
    return kept, utilities


def _utility_tools(server: Server, profile: Profile) -> list[tuple[str, str, dict]]:
    """docs/reference.md §24: ``(key, description, parameters)`` for the utilities this server gets."""
    caps = server.capabilities
    if caps is None or server.kind != "mcp":
        return []
    tools_cfg = server.config.get("tools") if isinstance(server.config.get("tools"), Mapping) else {}
    name = server.name
    out: list[tuple[str, str, dict]] = []
    resources_on, _ = parse_bool_like(tools_cfg.get("resources"))
    prompts_on, _ = parse_bool_like(tools_cfg.get("prompts"))
    text = profile.text
    if resources_on and caps.get("resources") is not None:
        out.append(("list_resources", text("registration", "list_resources", server=name),
                    {"type": "object", "properties": {}}))
        out.append(("read_resource", text("registration", "read_resource", server=name),
                    {"type": "object", "properties": {"uri": {"type": "string", "description": text("registration", "uri")}},
                     "required": ["uri"]}))
    if prompts_on and caps.get("prompts") is not None:
        out.append(("list_prompts", text("registration", "list_prompts", server=name),
                    {"type": "object", "properties": {}}))
        out.append(("get_prompt", text("registration", "get_prompt", server=name),
                    {"type": "object", "properties": {
                        "name": {"type": "string", "description": text("registration", "prompt_name")},
                        "arguments": {"type": "object", "description": text("registration", "prompt_arguments"),
                                      "properties": {}, "additionalProperties": True}},
                     "required": ["name"]}))
    return out


def _register_server(server: Server, naming: str, profile: Profile, problems: list[Problem]) -> list[RegisteredTool]:
    where = f"{server.origin or 'catalog'}: server {quoted_short(server.name)}"
    tools_cfg = server.config.get("tools") if isinstance(server.config.get("tools"), Mapping) else {}
    native = list(server.tools)
    if server.kind == "mcp":
        kept, warnings = filter_tool_names([t.name for t in native], tools_cfg)
        problems.extend(Problem("warning", where, w) for w in warnings)
        kept_set = set(kept)
        dropped = [t.name for t in native if t.name not in kept_set]
        if dropped:
            problems.append(Problem("info", where, f"{counted(len(dropped), 'tool')} left out by tools.include/exclude"))
        native = [t for t in native if t.name in kept_set]
    prefixed = naming == "prefixed" and server.kind == "mcp"
    toolset = (C.MCP_TOOLSET_PREFIX + server.name) if server.kind == "mcp" else server.name
    label = _label_for(toolset)

    candidates: list[tuple[str, Tool | None, str, str, Any, bool, Any]] = []
    server_prefix = C.MCP_TOOL_NAME_PREFIX + sanitize_name_part(server.name) + C.MCP_NAME_SEPARATOR
    if prefixed and native and replaced_entirely(server.name):  # a note, nothing changes (§21.2 as is)
        problems.append(Problem("info", where, unrecognizable_name_words(
            "server", server.name, clamp_tool_name(server_prefix + sanitize_name_part(native[0].name)), native[0].name)))
    for tool in native:
        # mcp_prefixed_tool_name, with the server's part sanitized once per server
        part = sanitize_name_part(tool.name)
        wire = clamp_tool_name(server_prefix + part) if prefixed else tool.name
        if prefixed and not part.strip("_") and tool.name.strip("_"):  # replaced_entirely, sanitized once
            problems.append(Problem("info", where, unrecognizable_name_words("tool", tool.name, wire)))
        description = tool.description
        if server.kind == "mcp":
            description = strip_tag_characters(description) if description else profile.text(
                "registration", "default_description", tool=tool.name, server=server.name)
            schema, parameters = register_input_schema(tool.input_schema)
        else:
            description = description or ""
            schema = tool.input_schema if tool.input_schema is not None else {"type": "object", "properties": {}}
            parameters = None
        candidates.append((wire, tool, tool.name, description, schema, False, parameters))
    for key, description, schema in _utility_tools(server, profile):
        wire = mcp_prefixed_tool_name(server.name, key) if prefixed else key
        candidates.append((wire, None, key, description, schema, True, None))

    # docs/reference.md §21.5: same tool twice → later dropped; utility vs native → native wins; different
    # natives on one wire name → all skipped (fail closed).
    by_wire: dict[str, list[tuple]] = {}
    for cand in candidates:
        by_wire.setdefault(cand[0], []).append(cand)
    registered = []
    repeated: list[Tool] = []  # the kept definition of each tool listed more than once: one line for them all
    listed: list[int] = []  # how many times each of them is listed
    for wire, group in by_wire.items():
        if len(group) == 1:  # the usual case: one candidate for the name, nothing to report
            chosen = group[0]
        else:
            chosen = _resolve_same_wire(wire, group, where, problems, repeated, listed)
            if chosen is None:
                continue
        wire_name, tool, raw_name, description, schema, utility, parameters = chosen
        if parameters is not None:
            # Stage B already ran with stage A (register_input_schema): the same value as
            # sanitize_tool_definition gives, without another deep copy and scan.
            definition = {"type": "function", "function": {
                "name": wire_name, "description": description, "parameters": parameters}}
        else:
            definition = sanitize_tool_definition(
                {"type": "function", "function": {"name": wire_name, "description": description, "parameters": schema}})
        annotations = tool.extra.get("annotations") if tool is not None else None
        if wire_name != raw_name and len(wire_name) == C.MCP_TOOL_NAME_MAX_LENGTH and len(
                server_prefix + sanitize_name_part(raw_name)) > C.MCP_TOOL_NAME_MAX_LENGTH:
            problems.append(Problem("info", where, f"tool {quoted_short(raw_name)}: prefixed name is over 64 characters; "
                                                   f"clamped to {quoted_short(wire_name)}"))
        registered.append(RegisteredTool(
            name=wire_name, server=server.name, kind=server.kind, raw_name=raw_name, toolset=toolset,
            label=label, definition=definition, utility=utility,
            annotations=annotations if isinstance(annotations, Mapping) else None,
            renames=property_renames(schema) or None))
    if repeated:
        problems.append(Problem("warning", where, repeated_tools_words(repeated, listed)))
    return registered


#: How many tool names a line about repeated tools quotes before "and N more".
REPEATED_NAMES_SHOWN = 3


def repeated_tools_words(kept: list[Tool], listed: Sequence[int] | None = None) -> str:
    """The one warning for a server's tools listed more than once (docs/reference.md §21.5: the
    first definition of each is registered, the later ones are dropped), as the command line and
    the app's sidebar show it: how many, the first :data:`REPEATED_NAMES_SHOWN` names and "and N
    more", and, for a server merged from several files, which file's definitions are kept.

    With ``listed``, each quoted name listed more than twice says how many times, and the line how many
    definitions are dropped, so a tool listed 20,000 times does not read as one listed twice.

    Args:
        kept: the definition kept for each repeated tool, in registration order (its
            :attr:`~toolsearch.engine.catalog.Tool.origin` names the file it came from, if known).
        listed: how many times each tool of ``kept`` is listed (2 or more), in the same order.
    """
    names = [quoted_short(t.name) for t in kept[:REPEATED_NAMES_SHOWN]]
    if listed is not None:
        names = [f"{name} {count:,} times" if count > 2 else name for name, count in zip(names, listed)]
    more = len(kept) - len(names)
    named = ", ".join(names) + (f" and {more:,} more" if more else "")
    files: dict[str, int] = {}
    for tool in kept:
        if tool.origin:
            files[tool.origin] = files.get(tool.origin, 0) + 1
    if len(files) == 1 and sum(files.values()) == len(kept):
        source = f", from {next(iter(files))},"
    elif files:
        source = " (" + "; ".join(f"from {origin} for {counted(n, 'tool')}" for origin, n in files.items()) + "),"
    else:
        source = ""
    dropped = None if listed is None else sum(listed) - len(kept)
    others = ("the others are dropped" if dropped is None else "the other is dropped" if dropped == 1
              else f"the other {dropped:,} are dropped")
    if len(kept) == 1:
        times = f" ({listed[0]:,} times)" if listed is not None and listed[0] > 2 else ""
        return (f"tool {quoted_short(kept[0].name)} is listed more than once{times}; the first definition is "
                f"kept{source} and {others}")
    return (f"{len(kept):,} tools are listed more than once ({named}); the first definition of each is "
            f"kept{source} and {others}")


def _resolve_same_wire(wire: str, group: list[tuple], where: str, problems: list[Problem],
                       repeated: list[Tool], listed: list[int]) -> tuple | None:
    """docs/reference.md §21.5 for several candidates on one wire name: the one registered, or
    ``None``. A tool listed more than once is added to ``repeated`` (its kept definition), for the
    server's one line about them (:func:`repeated_tools_words`), and how many times to ``listed``."""
    natives = [c for c in group if not c[5]]
    distinct_raw = list(dict.fromkeys(c[2] for c in natives))
    if len(distinct_raw) > 1:
        problems.append(Problem("error", where, f"tools {', '.join(quoted_short(r) for r in distinct_raw)} all map to "
                                                f"{quoted_short(wire)}; none of them is registered (docs/reference.md §21.5)"))
        return None
    chosen = natives[0] if natives else group[0]
    if len(natives) > 1:
        repeated.append(chosen[1])
        listed.append(len(natives))
    if natives and len(group) > len(natives):
        problems.append(Problem("info", where, f"the server's own {quoted_short(chosen[2])} replaces the generated utility tool"))
    return chosen


def _shared_names(catalog: Catalog) -> list[Problem]:
    """A warning per server name used by sources of different kinds (a core toolset ``web`` and
    an MCP server ``web``): the harness registers them as different toolsets (``web`` and
    ``mcp-web``), but both get the listing label ``web``, so their deferred tools share one
    listing group (docs/reference.md §5.2)."""
    kinds: dict[str, dict[str, None]] = {}
    for server in catalog.servers:
        kinds.setdefault(server.name, {})[server.kind] = None
    out = []
    for name, found in sorted(kinds.items()):
        if len(found) < 2:
            continue
        order = sorted(found, key=C.SERVER_KINDS.index)
        toolsets = ", ".join(quoted_short(C.MCP_TOOLSET_PREFIX + name if kind == "mcp" else name) for kind in order)
        out.append(Problem("warning", f"server {quoted_short(name)}",
                           f"the name is used by sources of {len(order)} kinds ({', '.join(order)}): the harness keeps "
                           f"them apart as toolsets {toolsets}, shown as separate rows, but they share the listing "
                           f"label {quoted_short(name)}, so their deferred tools are listed in one group"))
    return out


@gc_paused()
def register_catalog(catalog: Catalog, naming: str = "prefixed", profile: Profile | None = None) -> Registration:
    """Register every server of ``catalog`` (docs/reference.md §20: helper tools §24,
    collisions §21.5, the toolset §27).

    Servers are registered in name order, so "first registration wins" across servers is
    deterministic whatever the input order; the result is sorted by wire name.

    Raises:
        ValueError: ``naming`` is not ``prefixed`` or ``as-is``.
    """
    if naming not in C.TOOL_NAMING:
        raise ValueError(f"naming must be one of {C.TOOL_NAMING}, got {quoted(naming)}")
    profile = profile or default_profile()
    problems: list[Problem] = []
    owners: dict[str, RegisteredTool] = {}
    for server in sorted(catalog.servers, key=lambda s: (s.name, s.kind)):
        for tool in _register_server(server, naming, profile, problems):
            owner = owners.get(tool.name)
            if owner is not None:
                problems.append(Problem(
                    "warning", f"{server.origin or 'catalog'}: server {quoted_short(server.name)}",
                    f"tool name {quoted_short(tool.name)} is already registered by server {quoted_short(owner.server)}; "
                    "the registry keeps the first and skips this one"))
                continue
            owners[tool.name] = tool
    tools = tuple(sorted(owners.values(), key=lambda t: (t.name, t.server)))
    problems.extend(_shared_names(catalog))
    kinds = {s.name: s.kind for s in catalog.servers}
    return Registration(tools=tools, problems=tuple(catalog.problems) + tuple(problems), naming=naming,
                        server_kinds=kinds)

"""Scoped sessions: what a subagent, a worker or a restricted user actually sees (docs/reference.md §2
"the session's own tool list").

The reference builds every catalog (assembly, search, describe, call) from the **session's own
pre-assembly tool list**, never from the whole registry, so a session that enables only some
toolsets can neither find nor call the others through the bridge tools. A :class:`Scope` names
such a session: a subset of servers (toolsets) and, optionally, of tools (``include`` /
``exclude`` patterns with the registration filter rules of docs/reference.md §25.1).

Applying a scope to a registered catalog (:func:`scoped_registration`) gives the session's
pre-assembly list; the whole registration stays the *registry*, so the bridge can tell an unknown
name from one that exists but is outside the session (docs/reference.md §8, §9.2, §11).

Scopes come from the command line (:func:`parse_scope_arg`), from a scope file
(:func:`load_scope_file`, YAML with a ``scopes`` mapping or list) or from a Hermes
``config.yaml``'s ``platform_toolsets`` (one scope per platform, :func:`scopes_from_hermes_config`).
"""

from __future__ import annotations

import difflib
import fnmatch
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import yaml

from .invisible import quoted, quoted_short, yaml_kind
from . import constants as C
from . import readers
from .catalog import Problem
from .errors import ToolsearchError
from .registration import RegisteredTool, Registration, parse_bool_like

#: Hermes' sentinel entry in a ``platform_toolsets`` list: no MCP server for that platform.
NO_MCP = "no_mcp"
_SCOPE_KEYS = ("servers", "include", "exclude", "description")


#: Characters a ``--scope`` value (and a link's server list) escapes with a backslash inside a name.
LIST_SPECIALS = "\\,;"


def escape_item(item: str) -> str:
    """``item`` for a comma- or semicolon-separated list: ``\\``, ``,`` and ``;`` get a backslash, so
    :func:`split_escaped` gives the item back (``a,b`` → ``a\\,b``)."""
    return "".join("\\" + ch if ch in LIST_SPECIALS else ch for ch in item)


def join_escaped(items: Iterable[str], sep: str = ",") -> str:
    """``items`` joined with ``sep``, each escaped (:func:`escape_item`)."""
    return sep.join(escape_item(item) for item in items)


def split_escaped(text: str, sep: str = ",", *, unescape: bool = True) -> list[str]:
    """``text`` split at each ``sep`` that no backslash escapes; with ``unescape``, ``\\,``, ``\\;`` and
    ``\\\\`` in each part become the character itself (any other backslash is kept as typed), else the
    parts keep their escapes (for a second split). ``split_escaped(join_escaped(xs)) == xs``."""
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in LIST_SPECIALS:
            current.append(text[i + 1] if unescape else text[i:i + 2])
            i += 2
            continue
        if ch == sep:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


class ScopeError(ToolsearchError):
    """A scope definition that cannot be used (the message names the file or flag and the place)."""


def _is_glob(pattern: str) -> bool:
    return any(ch in pattern for ch in "*?[")


@functools.lru_cache(maxsize=256)
def _matcher(patterns: tuple[str, ...]) -> tuple[frozenset[str], re.Pattern[str] | None]:
    """The exact entries of ``patterns`` as a set, and its globs as one regular expression (each
    alternative is ``fnmatch``'s own translation, anchored at both ends)."""
    globs = [p for p in patterns if _is_glob(p)]
    return frozenset(patterns), (re.compile("|".join(fnmatch.translate(p) for p in globs)) if globs else None)


def matches(name: str, patterns: Sequence[str]) -> bool:
    """docs/reference.md §25.1 matching: exact membership first, then entries with ``*``, ``?`` or ``[`` as
    case-sensitive globs (``fnmatchcase``); other entries match only the identical name."""
    exact, globs = _matcher(tuple(patterns))
    return name in exact or (globs is not None and globs.match(name) is not None)


@dataclass(frozen=True)
class PlatformRule:
    """A Hermes ``platform_toolsets.<platform>`` list, kept as written (resolved per catalog).

    Attributes:
        entries: the platform's toolset names, in file order.
        disabled: ``agent.disabled_toolsets`` (applied last, to every platform).
        mcp_disabled: servers the config's ``mcp_servers`` block switches off (``enabled: false``).
    """

    entries: tuple[str, ...]
    disabled: tuple[str, ...] = ()
    mcp_disabled: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scope:
    """A named session tool set.

    Attributes:
        name: the scope's name (unique among the scopes in use).
        servers: server entries, exact names or globs; an MCP server also answers to its
            toolset name ``mcp-<server>`` (docs/reference.md §27). ``None`` means every server.
        include: tool patterns; when given (even empty) only matching tools are in the session
            and ``exclude`` is ignored ("include wins", docs/reference.md §25.1).
        exclude: tool patterns left out of the session.
        description: free text shown next to the name.
        origin: where it was defined (``--scope``, ``scopes.yaml: scopes.support``).
        platform: set for a scope read from a Hermes ``platform_toolsets`` list; then the
            platform rule decides the servers and ``servers`` is ``None``.

    A tool pattern matches a tool when it matches its wire name (``mcp__github__create_issue``)
    or the server's own name for it (``create_issue``).
    """

    name: str
    servers: tuple[str, ...] | None = None
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    description: str = ""
    origin: str = ""
    platform: PlatformRule | None = field(default=None, compare=True)

    # -- servers -------------------------------------------------------------------------
    def server_names(self, server_kinds: Mapping[str, str]) -> frozenset[str]:
        """The servers of a catalog (``{server: kind}``) this scope reaches."""
        if self.platform is not None:
            return _platform_servers(self.platform, server_kinds)
        if self.servers is None:
            return frozenset(server_kinds)
        return frozenset(s for s, kind in server_kinds.items() if _server_matches(s, kind, self.servers))

    def unmatched_servers(self, server_kinds: Mapping[str, str]) -> list[str]:
        """Server entries that name no server of the catalog (typos, servers not loaded)."""
        if self.servers is None:
            return []
        return [e for e in self.servers
                if not any(_server_matches(s, kind, (e,)) for s, kind in server_kinds.items())]

    # -- tools ---------------------------------------------------------------------------
    def allows_tool(self, tool: RegisteredTool) -> bool:
        """The include/exclude patterns alone (servers aside)."""
        names = (tool.name, tool.raw_name)
        if self.include is not None:
            return any(matches(n, self.include) for n in names)
        if self.exclude:
            return not any(matches(n, self.exclude) for n in names)
        return True

    def session_tools(self, registration: Registration) -> list[RegisteredTool]:
        """The session's pre-assembly tool list: the registry's tools of reachable servers that
        the tool patterns allow, in registry order (docs/reference.md §2 "the session's own tool list")."""
        reachable = self.server_names(_server_kinds(registration))
        return [t for t in registration.tools if t.server in reachable and self.allows_tool(t)]

    # -- display -------------------------------------------------------------------------
    def describe(self) -> str:
        """One line: ``support: servers linear, slack; exclude delete_*``."""
        if self.platform is not None:
            servers = "Hermes platform toolsets " + (", ".join(self.platform.entries) or "(empty list)")
        elif self.servers is None:
            servers = "every server"
        else:
            servers = "servers " + (", ".join(self.servers) or "(none)")
        parts = [servers]
        if self.include is not None:
            parts.append("include " + (", ".join(self.include) or "(nothing)"))
        elif self.exclude:
            parts.append("exclude " + ", ".join(self.exclude))
        return f"{self.name}: " + "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``name``, ``servers``, ``include``, ``exclude`` first)."""
        out: dict[str, Any] = {"name": self.name, "servers": list(self.servers) if self.servers is not None else None,
                               "include": list(self.include) if self.include is not None else None,
                               "exclude": list(self.exclude)}
        if self.description:
            out["description"] = self.description
        if self.platform is not None:
            out["platform_toolsets"] = list(self.platform.entries)
            if self.platform.disabled:
                out["disabled_toolsets"] = list(self.platform.disabled)
        if self.origin:
            out["origin"] = self.origin
        return out

    def to_arg(self) -> str | None:
        """The scope as a ``--scope`` value (``NAME=SERVER,...[;include=...][;exclude=...]``), or
        ``None`` for a Hermes platform scope (its rule has no command-line form)."""
        if self.platform is not None:
            return None
        text = f"{self.name}=" + ("*" if self.servers is None else join_escaped(self.servers))
        if self.include is not None:
            text += ";include=" + join_escaped(self.include)
        elif self.exclude:
            text += ";exclude=" + join_escaped(self.exclude)
        return text

    def to_file_entry(self) -> dict[str, Any]:
        """The scope as one entry of a scope file's ``scopes`` mapping (no name, no origin)."""
        entry: dict[str, Any] = {}
        if self.servers is not None:
            entry["servers"] = list(self.servers)
        if self.include is not None:
            entry["include"] = list(self.include)
        if self.exclude:
            entry["exclude"] = list(self.exclude)
        if self.description:
            entry["description"] = self.description
        return entry


def _server_kinds(registration: Registration) -> dict[str, str]:
    kinds = dict(registration.server_kinds)
    for tool in registration.tools:
        kinds.setdefault(tool.server, tool.kind)
    return kinds


def _server_matches(server: str, kind: str, entries: Sequence[str]) -> bool:
    if matches(server, entries):
        return True
    return kind == "mcp" and matches(C.MCP_TOOLSET_PREFIX + server, entries)


def _platform_servers(rule: PlatformRule, server_kinds: Mapping[str, str]) -> frozenset[str]:
    """The Hermes per-platform rule for MCP servers, with ``agent.disabled_toolsets`` last.

    Every enabled MCP server is reachable unless the list names one or more of them (then only
    those: an allowlist) or holds the ``no_mcp`` sentinel (then none). Servers of other kinds
    (plugin toolsets, core tools) stay reachable: the built-in toolset selection is not modelled.
    """
    entries = set(rule.entries)
    mcp = {s for s, kind in server_kinds.items() if kind == "mcp" and s not in rule.mcp_disabled}
    explicit = {s for s in mcp if s in entries or C.MCP_TOOLSET_PREFIX + s in entries}
    if NO_MCP in entries:
        chosen: set[str] = set()
    elif explicit:
        chosen = explicit
    else:
        chosen = mcp
    others = {s for s, kind in server_kinds.items() if kind != "mcp"}
    disabled = set(rule.disabled)
    return frozenset(s for s in chosen | others
                     if s not in disabled and C.MCP_TOOLSET_PREFIX + s not in disabled)


def scoped_registration(registration: Registration, scope: Scope) -> Registration:
    """The registration a session with ``scope`` sees: its tools and its servers only.

    Problems are the whole catalog's (they concern loading, not the session).
    """
    reachable = scope.server_names(_server_kinds(registration))
    tools = tuple(t for t in registration.tools if t.server in reachable and scope.allows_tool(t))
    kinds = {s: k for s, k in registration.server_kinds.items() if s in reachable}
    return Registration(tools=tools, problems=registration.problems, naming=registration.naming, server_kinds=kinds)


def _nearest_server(entry: str, servers: Iterable[str]) -> str:
    """``"; did you mean 'slack'?"`` for a scope entry that is a misspelt server name (the one it
    equals but for case, else the closest by difflib's ratio, at least 0.6); ``""`` for a pattern
    or when nothing is close."""
    if _is_glob(entry):
        return ""
    names = sorted(servers)
    guess = next((n for n in names if n.casefold() == entry.casefold()), None)
    if guess is None:
        close = difflib.get_close_matches(entry, names, n=1, cutoff=0.6)
        guess = close[0] if close else None
    return f"; did you mean {quoted(guess)}?" if guess else ""


def unmatched_server_notes(scope: Scope, server_kinds: Mapping[str, str], most: int | None = None,
                           name_chars: int | None = None) -> list[str]:
    """One note per server entry of ``scope`` that names no server of the catalog, whose servers
    and kinds are ``server_kinds``: ``"scope 'support': server 'slak' is not in the catalog; did
    you mean 'slack'?"`` (names quoted, invisible characters shown). The command line's ``scopes``
    and the app's scope picker say these words.

    Args:
        most: the most entries named (``None``: all); past it, one last note counts the others
            (``"scope 'support': 2,995 more servers it names are not in the catalog either"``), so
            a scope from a link cannot fill a warning with names of its choosing.
        name_chars: the most characters of an entry quoted (``None``: whole); a longer one is cut
            with ``…`` and its length (:func:`~.invisible.quoted_short`)."""
    entries = scope.unmatched_servers(server_kinds)
    shown = entries if most is None else entries[:most]
    notes = [f"scope {quoted(scope.name)}: server {quoted(e) if name_chars is None else quoted_short(e, name_chars)} "
             f"is not in the catalog{_nearest_server(e, server_kinds)}" for e in shown]
    if len(entries) > len(shown):
        more = len(entries) - len(shown)
        notes.append(f"scope {quoted(scope.name)}: {more:,} more {'server' if more == 1 else 'servers'} it names "
                     f"{'is' if more == 1 else 'are'} not in the catalog either")
    return notes


def scope_notes(scope: Scope, registration: Registration) -> list[str]:
    """Human notes about a scope on a catalog: entries that name no server, patterns that match
    no tool of the reachable servers."""
    kinds = _server_kinds(registration)
    notes = unmatched_server_notes(scope, kinds)
    reachable = scope.server_names(kinds)
    tools = [t for t in registration.tools if t.server in reachable]
    names = {n for t in tools for n in (t.name, t.raw_name)}
    for label, patterns in (("include", scope.include), ("exclude", scope.exclude if scope.include is None else ())):
        for pattern in patterns or ():
            if pattern not in names and not (_is_glob(pattern) and any(matches(n, (pattern,)) for n in names)):
                notes.append(f"scope {quoted(scope.name)}: {label} pattern {quoted(pattern)} matches no tool of its servers")
    return notes


# --- parsing ------------------------------------------------------------------------------------

def _check_patterns(entries: Sequence[str] | None, where: str) -> None:
    """Refuse a list with more than :data:`~.constants.SCOPE_MAX_PATTERNS` wildcard patterns."""
    count = sum(1 for e in entries or () if _is_glob(e))
    if count > C.SCOPE_MAX_PATTERNS:
        raise ScopeError(f"{where}: {count:,} patterns with wildcards (*, ? or [), over the limit of "
                         f"{C.SCOPE_MAX_PATTERNS} in one list; not read")


def _strings(value: Any, where: str, what: str) -> tuple[str, ...]:
    """A YAML list of strings, or one string (one entry); blanks dropped."""
    if isinstance(value, str):
        items: list[Any] = [value]
    elif isinstance(value, list):
        items = value
    else:
        raise ScopeError(f"{where}: expected a list of {what} (or one string), got {yaml_kind(value)}")
    out = []
    for index, item in enumerate(items):
        if not isinstance(item, (str, int, float)) or isinstance(item, bool):
            raise ScopeError(f"{where}[{index}]: expected a string, got {yaml_kind(item)}")
        text = str(item).strip()
        if text:
            out.append(text)
    _check_patterns(out, where)
    return tuple(dict.fromkeys(out))


def _check_name(name: Any, where: str) -> str:
    if not isinstance(name, str) or not name.strip():
        got = "" if isinstance(name, str) or name is None else f", got {quoted(name)}"  # YAML reads 2024-01-01 as a date
        raise ScopeError(f"{where}: expected a non-empty scope name{got}")
    name = name.strip()
    if "=" in name or "," in name:
        raise ScopeError(f"{where}: scope name {quoted(name)} must not contain '=' or ','")
    return name


def scope_from_mapping(name: Any, data: Any, where: str) -> Scope:
    """One scope from a mapping ``{servers, include, exclude, description}``.

    ``servers`` absent or null means every server; ``"*"`` too. Raises :class:`ScopeError`
    naming ``where`` and the key.
    """
    name = _check_name(name, where)
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ScopeError(f"{where}: expected a mapping with keys {', '.join(_SCOPE_KEYS)}, got {yaml_kind(data)}")
    unknown = [k for k in data if k not in (*_SCOPE_KEYS, "name")]
    if unknown:
        raise ScopeError(f"{where}: unknown key {quoted(unknown[0])} (expected {', '.join(_SCOPE_KEYS)})")
    servers_raw = data.get("servers")
    servers = None if servers_raw is None else _strings(servers_raw, f"{where}.servers", "server names")
    include_raw = data.get("include")
    include = None if include_raw is None else _strings(include_raw, f"{where}.include", "tool patterns")
    exclude = () if data.get("exclude") is None else _strings(data["exclude"], f"{where}.exclude", "tool patterns")
    description = data.get("description") or ""
    if not isinstance(description, str):
        raise ScopeError(f"{where}.description: expected text, got {yaml_kind(description)}")
    return Scope(name=name, servers=servers, include=include, exclude=exclude, description=description.strip(),
                 origin=where)


def parse_scope_arg(text: str, where: str | None = None) -> Scope:
    """``--scope NAME=SERVER,SERVER[;include=P,P][;exclude=P,P]``.

    ``NAME=`` with nothing after it is a scope with no server; ``NAME=*`` reaches every server. A
    server name or pattern that holds ``,``, ``;`` or ``\\`` writes it with a backslash before it
    (``a\\,b``), as :meth:`Scope.to_arg` does. ``where``: what an error message starts with
    (default ``--scope 'TEXT'``, and ``--scope 'NAME'`` for a list of patterns), e.g. ``"scope"``
    for a link's value, whose notice quotes the text itself.
    Raises :class:`ScopeError` for a missing ``=``, an empty name, an unknown ``;key=`` or a list
    with too many wildcard patterns.
    """
    named = where
    where = f"--scope {quoted(text)}" if where is None else where
    if "=" not in text:
        raise ScopeError(f"{where}: expected NAME=SERVER,SERVER (e.g. support=slack,linear)")
    name, _, rest = text.partition("=")
    name = _check_name(name, where)
    parts = split_escaped(rest, ";", unescape=False)
    servers = tuple(dict.fromkeys(s.strip() for s in split_escaped(parts[0]) if s.strip()))
    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        key = key.strip()
        patterns = tuple(dict.fromkeys(p.strip() for p in split_escaped(value) if p.strip()))
        if not eq or key not in ("include", "exclude"):
            raise ScopeError(f"{where}: expected ';include=PATTERN,...' or ';exclude=PATTERN,...' after the servers, "
                             f"got {quoted(part)}")
        _check_patterns(patterns, f"{named or '--scope ' + quoted(name)}: {key}")
        if key == "include":
            include = patterns
        else:
            exclude = patterns
    _check_patterns(servers, f"{named or '--scope ' + quoted(name)}: servers")
    return Scope(name=name, servers=None if servers == ("*",) else servers, include=include, exclude=exclude,
                 origin="--scope")


def scopes_from_data(data: Any, origin: str) -> tuple[list[Scope], list[Problem]]:
    """Scopes from a parsed scope file or Hermes config.

    Accepted shapes: ``scopes:`` as a mapping ``{name: {servers, include, exclude, description}}``
    or a list of such mappings with a ``name``; or a Hermes ``config.yaml`` with
    ``platform_toolsets`` (see :func:`scopes_from_hermes_config`). A bad scope is skipped with an
    ``error`` problem naming the place; the others load.

    Raises:
        ScopeError: the document has neither shape.
    """
    if not isinstance(data, Mapping):
        raise ScopeError(f"{origin}: top level: expected a mapping with a 'scopes' key "
                         f"(or a Hermes config.yaml with platform_toolsets), got {yaml_kind(data)}")
    if "scopes" not in data:
        if "platform_toolsets" in data:
            return scopes_from_hermes_config(data, origin)
        raise ScopeError(f"{origin}: top level: expected a 'scopes' key (or a Hermes config.yaml with platform_toolsets)")
    raw = data["scopes"]
    items: list[tuple[Any, Any, str]] = []
    if isinstance(raw, Mapping):
        items = [(name, value, f"{origin}: scopes.{name}") for name, value in raw.items()]
    elif isinstance(raw, list):
        for index, value in enumerate(raw):
            name = value.get("name") if isinstance(value, Mapping) else None
            items.append((name, value, f"{origin}: scopes[{index}]"))
    else:
        raise ScopeError(f"{origin}: scopes: expected a mapping of scope names (or a list of scopes), "
                         f"got {yaml_kind(raw)}")
    scopes: list[Scope] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for name, value, where in items:
        try:
            scope = scope_from_mapping(name, value, where)
        except ScopeError as exc:
            place, message = _split_place(str(exc), where)
            problems.append(Problem("error", place, message + "; scope skipped"))
            continue
        if scope.name in seen:
            problems.append(Problem("error", where, f"scope {quoted(scope.name)} is already defined at {seen[scope.name]}; "
                                                    "this one is skipped"))
            continue
        seen[scope.name] = where
        scopes.append(scope)
    return scopes, problems


def _split_place(text: str, where: str) -> tuple[str, str]:
    """``("file: scopes.a.servers", "expected ...")`` from an error text that starts with ``where``."""
    if text.startswith(where):
        place, sep, message = text[len(where):].partition(": ")
        if sep:
            return where + place, message
    return where, text


def _toolset_names(values: list[Any], where: str, problems: list[Problem]) -> tuple[str, ...]:
    """The toolset names of a Hermes list (``platform_toolsets.<platform>``, ``agent.disabled_toolsets``), each
    once, in order: text or a whole number, trimmed. Any other entry (null, true/false, a date, a mapping…)
    and an empty name are left out with a ``warning`` naming the entry, so a mistyped ``no_mcp`` is never
    dropped without a word."""
    names: list[str] = []
    for index, item in enumerate(values):
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            problems.append(Problem("warning", f"{where}[{index}]",
                                    f"expected a toolset name, got {yaml_kind(item)}; entry ignored"))
        elif not str(item).strip():
            problems.append(Problem("warning", f"{where}[{index}]", "an empty toolset name; entry ignored"))
        else:
            names.append(str(item).strip())
    return tuple(dict.fromkeys(names))


def scopes_from_hermes_config(data: Mapping[str, Any], origin: str) -> tuple[list[Scope], list[Problem]]:
    """One scope per platform of a Hermes ``config.yaml``'s ``platform_toolsets``.

    What the format has and what is read:

    * ``platform_toolsets.<platform>``: a list of toolset names. Entries naming MCP servers
      (``github`` or ``mcp-github``) make an allowlist of MCP servers for that platform; with
      none named every enabled MCP server is reachable; the ``no_mcp`` entry reaches none.
    * ``mcp_servers.<name>.enabled: false`` takes that server away from every platform.
    * ``agent.disabled_toolsets`` is applied last, to every platform.

    Built-in toolset names (``hermes-cli``, ``web``…) are not modelled: plugin and core servers
    of the catalog stay reachable unless disabled. A platform whose value is not a list is
    skipped with an ``error`` problem.

    Raises:
        ScopeError: ``platform_toolsets`` is not a mapping (the message names ``origin``).
    """
    problems: list[Problem] = []
    raw = data.get("platform_toolsets")
    if not isinstance(raw, Mapping):
        raise ScopeError(f"{origin}: platform_toolsets: expected a mapping of platform names to toolset lists, "
                         f"got {yaml_kind(raw)}")
    agent = data.get("agent") if isinstance(data.get("agent"), Mapping) else {}
    disabled_raw = agent.get("disabled_toolsets") or []
    disabled: tuple[str, ...] = ()
    if isinstance(disabled_raw, list):
        disabled = _toolset_names(disabled_raw, f"{origin}: agent.disabled_toolsets", problems)
    else:
        problems.append(Problem("warning", f"{origin}: agent.disabled_toolsets",
                                f"expected a list of toolset names, got {yaml_kind(disabled_raw)}; ignored"))
    servers_cfg = data.get("mcp_servers") if isinstance(data.get("mcp_servers"), Mapping) else {}
    mcp_disabled = tuple(sorted(str(name) for name, cfg in servers_cfg.items()
                                if isinstance(cfg, Mapping) and not parse_bool_like(cfg.get("enabled"))[0]))
    scopes: list[Scope] = []
    for platform, value in raw.items():
        where = f"{origin}: platform_toolsets.{platform}"
        if not isinstance(value, list):
            problems.append(Problem("error", where, f"expected a list of toolset names, got {yaml_kind(value)}; "
                                                    "platform skipped"))
            continue
        entries = _toolset_names(value, where, problems)
        try:
            name = _check_name(str(platform), where)
        except ScopeError as exc:
            problems.append(Problem("error", where, str(exc).removeprefix(where + ": ") + "; platform skipped"))
            continue
        scopes.append(Scope(name=name, description=f"Hermes platform {name}", origin=where,
                            platform=PlatformRule(entries, disabled, mcp_disabled)))
    return scopes, problems


def scopes_from_text(text: str, origin: str) -> tuple[list[Scope], list[Problem]]:
    """Parse scope-file YAML text (uploads, the app's editor). Raises :class:`ScopeError`."""
    return scopes_from_data(readers.load_yaml(text, origin, ScopeError), origin)


def load_scope_file(path: str | Path) -> tuple[list[Scope], list[Problem]]:
    """Read a scope file (or a Hermes ``config.yaml``). Raises :class:`ScopeError`."""
    path = Path(path)
    return scopes_from_text(readers.read_text(path, ScopeError, "scope file"), str(path))


def dump_scopes(scopes: Iterable[Scope], server_kinds: Mapping[str, str] | None = None) -> str:
    """Scopes as a scope file (YAML), in the given order.

    A Hermes platform scope has no file form of its own: with ``server_kinds`` (``{server: kind}``
    of a catalog) it is written with the servers it reaches there; without, it is left out.
    """
    entries: dict[str, Any] = {}
    for scope in scopes:
        if scope.platform is not None:
            if server_kinds is None:
                continue
            scope = Scope(scope.name, tuple(sorted(scope.server_names(server_kinds))), scope.include, scope.exclude,
                          scope.description)
        entries[scope.name] = scope.to_file_entry()
    data = {"scopes": entries}
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=False, allow_unicode=True)


def select_scopes(defined: Sequence[Scope], from_file: Sequence[Scope], selected: Sequence[str]) -> list[Scope]:
    """The scopes in use: those defined on the command line, plus those of the scope file (all of
    them when no bare name is given, else the named ones, in the order named).

    Raises:
        ScopeError: a selected name is not in the file, or two scopes share a name.
    """
    by_name = {s.name: s for s in from_file}
    out: list[Scope] = list(defined)
    if selected:
        for name in selected:
            if name not in by_name:
                known = ", ".join(by_name) or "none: give --scope-file FILE"
                raise ScopeError(f"--scope {name}: no scope of that name in the scope file (scopes: {known})")
            out.append(by_name[name])
    else:
        out.extend(from_file)
    seen: set[str] = set()
    for scope in out:
        if scope.name in seen:
            raise ScopeError(f"scope {quoted(scope.name)} is defined twice ({scope.origin}); give each scope its own name")
        seen.add(scope.name)
    return out

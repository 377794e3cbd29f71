"""What registration loses from a tool's input schema, per tool: what the server sent against
what the model receives.

Registration (``docs/catalog-format.md``, "What registration changes") rewrites every input
schema before the model sees it. Most rewrites keep the meaning; three kinds lose something
without a word, and this module names them:

* ``schema-root-dropped``: a root ``anyOf`` / ``oneOf`` / ``allOf`` (or ``not`` / ``enum``) that
  the global sanitizer removes (only the root object's own ``properties`` survive). When the
  parameters lived in those branches the model sees a tool with no parameters (an ``error``);
  when only constraints did (e.g. "``id`` or ``slug`` is required"), a ``warning``.
* ``schema-ref-unresolved``: a ``$ref`` in what the model receives that points at nothing (a
  missing definition, a remote document, a path the rewrites moved): the parameter arrives
  without a type (a ``warning``).
* ``schema-ref-unsupported``: ``$ref`` pointers into ``$defs`` that do resolve, but that many
  clients and model providers cannot follow, so those parameters arrive without their types
  there (a ``warning``).

Each loss comes with a one-line fix. :func:`schema_view` gives the whole comparison for one
tool; :func:`catalog_schema_losses` every loss of a catalog (for plan notes and lint).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Mapping  # not typing.Mapping: isinstance on it is much slower
from typing import Any

from ..engine.invisible import quoted, reveal_line
from ..engine.catalog import EMPTY_NEXT_CURSOR, Problem, Tool
from ..engine.inspector import Inspector
from ..engine.registration import RegisteredTool
from ..engine.schema import normalize_mcp_input_schema

#: Rule id → what it checks (merged into :data:`toolsearch.analysis.lint.RULES`): the schema losses,
#: and two about how sources are read: ``server-name-shared`` (from the registration warning) and
#: ``next-cursor-empty`` (from the load problem, which :func:`reported_here` claims).
READING_RULES: dict[str, str] = {
    "schema-root-dropped": "a root anyOf/oneOf/allOf that registration removes: its parameters or constraints are lost",
    "schema-ref-unresolved": "a $ref the model receives that points at nothing",
    "schema-ref-unsupported": "$ref/$defs in the parameters, which many clients and providers cannot resolve",
    "server-name-shared": "sources of different kinds with one name (a core toolset and an MCP server 'web'): "
                          "one listing group",
    "next-cursor-empty": "a tools/list result with an empty-string nextCursor, which loops some clients",
}

#: Root keywords the global sanitizer removes (root only).
ROOT_COMBINATORS = ("allOf", "anyOf", "oneOf", "not", "enum")
_ROOT_COMBINATOR_SET = frozenset(ROOT_COMBINATORS)
#: Keys whose values are data, never schemas (a ``$ref`` key inside them is not a reference).
_DATA_KEYS = frozenset({"enum", "const", "default", "examples", "required", "dependentRequired"})

_FIX = {
    "schema-root-dropped": "Declare every parameter in the root 'properties' (merge allOf branches; for alternatives, "
                           "list all properties and say in their descriptions which go together): registration keeps "
                           "only the root object.",
    "schema-ref-unresolved": "Point the $ref at a definition under $defs in the same inputSchema, or inline the "
                             "schema it stands for.",
    "schema-ref-unsupported": "Inline the $defs definitions where they are used (dereference the schema), so clients "
                              "that cannot resolve $ref still see each parameter's type.",
    "server-name-shared": "Rename the MCP server in the client config (e.g. 'web-mcp'), so its tools get their own "
                          "listing group and the toolset names cannot be confused.",
    "next-cursor-empty": "Fix the server: leave nextCursor out (or null) on the last tools/list page; an empty "
                         "string is not an end marker for every client.",
}


@dataclass(frozen=True)
class SchemaLoss:
    """One thing the model does not receive from a tool's input schema.

    Attributes:
        rule: a key of :data:`READING_RULES`.
        severity: ``error`` (the model loses parameters) or ``warning``.
        path: where, as a dotted path: ``inputSchema.<...>`` in what the server sent, or
            ``parameters.<...>`` in what the model receives.
        message: what is lost, in words.
        fix: one line saying what to change in the server's schema.
    """

    rule: str
    severity: str
    path: str
    message: str
    fix: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"rule": self.rule, "severity": self.severity, "path": self.path, "message": self.message,
                "fix": self.fix}


@dataclass(frozen=True)
class SchemaView:
    """One tool's input schema as the server sent it and as the model receives it.

    Attributes:
        name: the wire name; ``server`` / ``kind``: its server; ``tool``: the server's own name.
        sent: the ``inputSchema`` (``parameters`` for a function array) from the catalog, as sent;
            ``None`` for a generated utility tool or a tool sent without one.
        received: the registered ``parameters``, exactly what the model receives.
        renames: top-level parameter names registration renamed, ``{received: sent}``.
        losses: what registration lost (:func:`schema_losses`).
    """

    name: str
    server: str
    kind: str
    tool: str
    sent: Any
    received: Mapping[str, Any]
    renames: Mapping[str, str]
    losses: tuple[SchemaLoss, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"name": self.name, "server": self.server, "kind": self.kind, "tool": self.tool, "sent": self.sent,
                "received": self.received, "renamed": dict(self.renames),
                "losses": [loss.to_dict() for loss in self.losses]}


#: The fix when a dropped root combinator held constraints only (its parameters are all kept).
_CONSTRAINTS_FIX = ("State the rule in the descriptions (e.g. 'give id or slug'); registration keeps only the root "
                    "object's properties, so the model can follow it only from the text.")


def _loss(rule: str, severity: str, path: str, message: str, fix: str | None = None) -> SchemaLoss:
    return SchemaLoss(rule, severity, path, message, fix or _FIX[rule])


def _pointer(root: Any, ref: str) -> bool:
    """Whether the local JSON pointer ``ref`` (``#`` or ``#/a/b``) resolves inside ``root``."""
    if ref == "#":
        return True
    if not ref.startswith("#/"):
        return False
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _refs(node: Any, path: str, out: list[tuple[str, str]]) -> None:
    """Every ``$ref`` string in schema positions of ``node``: ``(path, ref)``, in document order."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            out.append((f"{path}.$ref", ref))
        for key, value in node.items():
            if key in _DATA_KEYS or key == "$ref":
                continue
            if isinstance(value, (Mapping, list)):
                _refs(value, f"{path}.{key}", out)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            if isinstance(item, (Mapping, list)):
                _refs(item, f"{path}[{index}]", out)


def _branch_properties(branches: Any, root: Mapping[str, Any]) -> list[str]:
    """Property names declared by the branches of a root combinator (following local ``$ref``s
    one level and nested combinators), in order, without repeats."""
    names: dict[str, None] = {}

    def visit(node: Any, depth: int) -> None:
        if depth > 8:
            return
        if isinstance(node, list):
            for item in node:
                visit(item, depth + 1)
            return
        if not isinstance(node, Mapping):
            return
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = root
            for part in ref[2:].split("/"):
                target = target.get(part) if isinstance(target, Mapping) else None
            visit(target, depth + 1)
        props = node.get("properties")
        if isinstance(props, Mapping):
            names.update(dict.fromkeys(str(k) for k in props))
        for key in ("allOf", "anyOf", "oneOf"):
            if isinstance(node.get(key), list):
                visit(node[key], depth + 1)

    visit(branches, 0)
    return list(names)


def schema_losses(sent: Any, received: Mapping[str, Any], kind: str = "mcp") -> list[SchemaLoss]:
    """What the model does not get of ``sent`` when it receives ``received``.

    Args:
        sent: the tool's ``inputSchema`` as the server sent it (any JSON value).
        received: the registered ``parameters`` (stage A and B for MCP tools, B for others).
        kind: the server kind; MCP schemas go through the MCP normalizer first, so a root
            nullable union that it collapses into an object is not a loss.

    Returns:
        The losses, root combinators first, then ``$ref`` problems in document order.
    """
    losses: list[SchemaLoss] = []
    before = (normalize_mcp_input_schema(sent) if kind == "mcp" else sent) if isinstance(sent, Mapping) else None
    if isinstance(before, Mapping):
        kept = received.get("properties") if isinstance(received.get("properties"), Mapping) else {}
        for key in ROOT_COMBINATORS:
            if key not in before or key in received:
                continue
            declared = _branch_properties(before[key], before) if key in ("allOf", "anyOf", "oneOf") else []
            # names from the sent schema, one line each: a key holding a line break must not start a
            # line of its own in a message (a forged CI annotation, a fake verdict line)
            lost = [reveal_line(name) for name in declared if name not in kept]
            if lost and not kept:
                losses.append(_loss("schema-root-dropped", "error", f"inputSchema.{key}",
                                    f"the root {key} is removed at registration and the parameters are declared only "
                                    f"in it ({', '.join(lost)}): the model sees a tool with no parameters"))
            elif lost:
                losses.append(_loss("schema-root-dropped", "error", f"inputSchema.{key}",
                                    f"the root {key} is removed at registration; parameters declared only in it are "
                                    f"lost: {', '.join(lost)}"))
            else:
                losses.append(_loss("schema-root-dropped", "warning", f"inputSchema.{key}",
                                    f"the root {key} is removed at registration: the constraints it states (e.g. "
                                    "which parameters go together or are required) do not reach the model",
                                    _CONSTRAINTS_FIX))
    refs: list[tuple[str, str]] = []
    _refs(received, "parameters", refs)
    resolved: list[str] = []
    for path, ref in refs:
        if ref.startswith("#") and _pointer(received, ref):
            resolved.append(ref)
            continue
        where = "outside the schema (the harness does not fetch it)" if not ref.startswith("#") else "to nothing"
        losses.append(_loss("schema-ref-unresolved", "warning", path,
                            f"$ref {quoted(ref)} points {where} in what the model receives: that parameter arrives "
                            "without a type"))
    if resolved:
        targets = list(dict.fromkeys(resolved))
        shown = ", ".join(reveal_line(ref) for ref in targets[:5]) + (f" and {len(targets) - 5} more" if len(targets) > 5 else "")
        losses.append(_loss("schema-ref-unsupported", "warning", "parameters",
                            f"the model receives {len(resolved)} $ref pointer{'s' if len(resolved) != 1 else ''} "
                            f"({shown}); many clients and model providers cannot resolve $ref/$defs, and with "
                            "those the parameters arrive without their types"))
    return losses


def _catalog_tools(inspector: Inspector) -> dict[tuple[str, str, str], Tool]:
    """``{(server, kind, raw tool name): first such catalog tool}``."""
    out: dict[tuple[str, str, str], Tool] = {}
    for server in inspector.catalog.servers:
        for tool in server.tools:
            out.setdefault((server.name, server.kind, tool.name), tool)
    return out


def _view(tool: RegisteredTool, sent_tool: Tool | None) -> SchemaView:
    sent = sent_tool.input_schema if sent_tool is not None and not tool.utility else None
    received = tool.parameters
    losses = tuple(schema_losses(sent, received, tool.kind)) if sent is not None else ()
    return SchemaView(tool.name, tool.server, tool.kind, tool.raw_name, sent, received, dict(tool.renames or {}),
                      losses)


def schema_view(inspector: Inspector, name: str) -> SchemaView | None:
    """The sent-against-received view of the registered tool with wire name ``name`` (in the
    inspector's whole registration), or ``None`` when no registered tool has that name."""
    tool = inspector.full_registration.by_name().get(name)
    if tool is None:
        return None
    return _view(tool, _catalog_tools(inspector).get((tool.server, tool.kind, tool.raw_name)))


def catalog_schema_losses(inspector: Inspector) -> list[SchemaView]:
    """The views of every registered tool that loses something at registration, by wire name.

    Only tools whose sent schema has a root combinator or a ``$ref`` are examined in full, so
    this stays cheap on large catalogs.
    """
    catalog_tools = _catalog_tools(inspector)
    planner = inspector.planner
    out = []
    for tool in inspector.registration.tools:
        if tool.utility:
            continue
        sent_tool = catalog_tools.get((tool.server, tool.kind, tool.raw_name))
        sent = sent_tool.input_schema if sent_tool is not None else None
        if type(sent) is not dict and not isinstance(sent, Mapping):
            continue
        # Cheap pre-checks: a root combinator in what was sent, or "$ref" in what is received.
        if _ROOT_COMBINATOR_SET.isdisjoint(sent) and '"$ref"' not in planner.definition_json(tool.name):
            continue
        view = _view(tool, sent_tool)
        if view.losses:
            out.append(view)
    return out


def lint_rows(inspector: Inspector) -> list[tuple[str, str, str, str, str, str, str, str]]:
    """Lint findings for every schema loss of the catalog and every server name shared by sources
    of different kinds, as ``(rule, severity, server, tool, wire name, message, fix, field)`` rows
    (the fields of :class:`toolsearch.analysis.lint.Finding`)."""
    rows = [(loss.rule, loss.severity, view.server, view.tool, view.name, loss.message, loss.fix, loss.path)
            for view in catalog_schema_losses(inspector) for loss in view.losses]
    kinds: dict[str, dict[str, None]] = {}
    for server in inspector.catalog.servers:
        kinds.setdefault(server.name, {})[server.kind] = None
    for name, found in sorted(kinds.items()):
        if len(found) > 1:
            rows.append(("server-name-shared", "warning", name, "", "",
                         f"the name {quoted(name)} is used by sources of kinds {' and '.join(sorted(found))}: the harness keeps "
                         f"them apart as different toolsets, but both have the listing label {quoted(name)}, so their "
                         "deferred tools are listed in one group", _FIX["server-name-shared"], ""))
    for problem in inspector.catalog.problems:
        if reported_here(problem):
            named = re.search(r"server '([^']*)'", problem.where)
            server = named.group(1) if named else (servers[0].name if len(servers := inspector.catalog.servers) == 1
                                                   else "")
            rows.append(("next-cursor-empty", "warning", server, "", "", f"{problem.where}: {problem.message}",
                         _FIX["next-cursor-empty"], ""))
    return rows


def reported_here(problem: Problem) -> bool:
    """Whether a load problem is a finding of this module's rules (so the lint's generic
    ``load-problem`` rule leaves it out)."""
    return problem.message == EMPTY_NEXT_CURSOR

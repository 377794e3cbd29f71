"""Scopes of one catalog side by side: what each session costs and reaches (docs/reference.md §2
"the session's own tool list").

Built on :meth:`toolsearch.engine.inspector.Inspector.scoped`: every figure is the plan or the bridge of
the scoped session itself, so the comparison, the CLI and the app agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..engine.bridge import example_arguments
from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from ..engine.scopes import Scope
from . import quantities as Q
from .sweep import plan_counts


@dataclass(frozen=True)
class ScopeRow:
    """One session in the comparison.

    Attributes:
        scope: the scope's name, or ``None`` for the whole catalog.
        servers: servers the session reaches, sorted.
        session_tools / catalog_tools: tools in the session / in the whole catalog.
        deferred / visible: how the session's tools split.
        tier, form, budget: the plan (budget and listing tokens in the planning tokenizer).
        listing_tokens: the embedded listing.
        tokens_per_request: the model-visible tools array (display tokenizer).
        eager_tokens: every session schema up front (display tokenizer).
    """

    scope: str | None
    servers: tuple[str, ...]
    session_tools: int
    catalog_tools: int
    deferred: int
    visible: int
    tier: int
    form: str
    budget: int
    listing_tokens: int
    tokens_per_request: int
    eager_tokens: int
    #: the listing as a table cell names it, with its counts when mixed (``mixed 3/9``; as ``sweep``)
    short_label: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"scope": self.scope, "servers": list(self.servers), "session_tools": self.session_tools,
                "catalog_tools": self.catalog_tools, "deferred": self.deferred, "visible": self.visible,
                "tier": self.tier, "listing_form": self.form, "budget": self.budget,
                "listing_tokens": self.listing_tokens, "tokens_per_request": self.tokens_per_request,
                "eager_tokens": self.eager_tokens}


def compare_scopes(inspector: Inspector, scopes: Sequence[Scope | None], config: ToolSearchConfig,
                   context_length: int | None = None, tokenizer: str = "chars4",
                   display_tokenizer: str | None = None) -> list[ScopeRow]:
    """One :class:`ScopeRow` per scope (``None`` = the whole catalog), in the given order.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    rows = []
    for scope in scopes:
        session = inspector.scoped(scope)
        plan = session.plan(config, context_length, tokenizer, display_tokenizer)
        rows.append(ScopeRow(
            scope=scope.name if scope is not None else None,
            servers=tuple(sorted(session.registration.server_kinds)),
            session_tools=len(session.registration.tools), catalog_tools=len(session.full_registration.tools),
            deferred=Q.deferred_tools(plan), visible=plan.visible_count, tier=plan.tier,
            form=plan.listing_form, budget=Q.budget(plan), listing_tokens=Q.listing(plan),
            tokens_per_request=Q.tools_array(plan), eager_tokens=Q.all_schemas_up_front(plan),
            short_label=plan_counts(plan).short_label))
    return rows


def reach_matrix(inspector: Inspector, scopes: Sequence[Scope]) -> dict[str, dict[str, tuple[int, int]]]:
    """Which scope reaches which server: ``{scope: {server: (tools in the session, tools of the server)}}``.

    Every server of the catalog is a key of every row, in name order; ``(0, n)`` means the
    session cannot reach that server at all (a pattern can also leave a reachable server at 0).
    """
    root = inspector.scoped(None)
    totals: dict[str, int] = {s: 0 for s in sorted(root.registration.server_kinds)}
    for tool in root.registration.tools:
        totals[tool.server] = totals.get(tool.server, 0) + 1
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for scope in scopes:
        counts: dict[str, int] = {}
        for tool in root.scoped(scope).registration.tools:
            counts[tool.server] = counts.get(tool.server, 0) + 1
        out[scope.name] = {server: (counts.get(server, 0), total) for server, total in totals.items()}
    return out


@dataclass(frozen=True)
class Probe:
    """What one session gets for one tool name through the bridge.

    Attributes:
        scope: the scope's name (``None`` = the whole catalog).
        in_session: the tool is in the session's tool list.
        found_by_name: ``tool_search`` with the exact name returns it first (docs/reference.md §7.4).
        describe: ``schema``, ``not found`` or the error text of ``tool_describe``.
        call: ``would run`` / ``runs directly`` or the error text of ``tool_call`` with a template of
            the required arguments.
    """

    scope: str | None
    in_session: bool
    found_by_name: bool
    describe: str
    call: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names."""
        return {"scope": self.scope, "in_session": self.in_session, "found_by_name": self.found_by_name,
                "describe": self.describe, "call": self.call}


def probe_tool(inspector: Inspector, scopes: Sequence[Scope | None], name: str, config: ToolSearchConfig) -> list[Probe]:
    """Search, describe and call ``name`` in every scope's session (docs/reference.md §7, §8, §9.2)."""
    out = []
    full = inspector.scoped(None).registration.by_name()
    for scope in scopes:
        session = inspector.scoped(scope)
        bridge = session.bridge(config)
        search = bridge.tool_search({"queries": [name], "limit": 1})
        found = "results" in search and search["results"][0]["matches"][:1] == [name]
        described = bridge.tool_describe({"names": [name]})
        if name in described.get("tools", {}):
            describe = "schema"
        elif name in described.get("errors", {}):
            describe = described["errors"][name]
        else:
            describe = "not found"
        tool = full.get(name)
        arguments = example_arguments(tool.parameters) if tool is not None else {}
        check = bridge.check_call({"calls": [{"name": name, "arguments": arguments}]})
        call = check.error["error"] if check.error is not None else "would run (through tool_call)"
        out.append(Probe(scope.name if scope is not None else None,
                         any(t.name == name for t in session.registration.tools), found, describe, call))
    return out

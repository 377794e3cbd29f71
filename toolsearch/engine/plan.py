"""The disclosure plan: what the model sees for a catalog, config and context length (docs/reference.md §2–§6).

:class:`Planner` holds everything that does not depend on the budget (classification per defer
set, rendered group blocks, per-tool and per-server token costs), so :meth:`Planner.plan` after a
slider move only picks the listing form and assembles the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from . import constants as C
from .config import ToolSearchConfig
from .gcpause import gc_paused
from .listing import GroupBlocks, ListingChoice, choose_listing, render_groups
from .profile import Profile, default_profile
from .registration import RegisteredTool, Registration
from .tokens import Tokenizer, chars4, compact_json, get_tokenizer


def listing_budget(context_length: int | None, threshold_pct: float, listing_max_tokens: int) -> tuple[int, int, str]:
    """docs/reference.md §4: ``max(0, min(listing_max_tokens, pct_leg))`` in tokens.

    ``pct_leg = int(context_length × (threshold_pct / 100.0))`` for a known positive context
    length (the division first, in binary floating point, then truncation), else 10,000.

    Returns:
        ``(budget, pct_leg, winner)`` where ``winner`` is ``"listing_max_tokens"``,
        ``"threshold_pct"`` or ``"unknown-context fallback"`` (which leg of the min decided;
        the cap wins ties).
    """
    known = context_length is not None and context_length > 0
    pct_leg = int(context_length * (threshold_pct / 100.0)) if known else C.UNKNOWN_CONTEXT_PCT_LEG
    budget = max(0, min(listing_max_tokens, pct_leg))
    if listing_max_tokens <= pct_leg:
        winner = "listing_max_tokens"
    else:
        winner = "threshold_pct" if known else "unknown-context fallback"
    return budget, pct_leg, winner


def is_deferrable(tool: RegisteredTool, defer: Iterable[str] | None) -> bool:
    """docs/reference.md §2 classification of one (non-bridge) tool.

    In the effective defer set → deferrable (core tools too). Otherwise core → visible;
    unregistered → visible (never silently dropped); MCP and plugin toolsets → deferrable.
    A nameless tool is never deferrable.
    """
    if not tool.name:
        return False
    if defer is not None and tool.name in defer:
        return True
    if tool.kind in ("core", "unregistered") or tool.toolset is None:
        return False
    return True


def split_tools(tools: Sequence[RegisteredTool], defer: Iterable[str] | None) -> tuple[list[RegisteredTool], list[RegisteredTool]]:
    """Drop bridge names, then split into ``(visible, deferred)``, order kept (docs/reference.md §2)."""
    defer_set = set(defer) if defer is not None else None
    visible, deferred = [], []
    for tool in tools:
        if tool.name in C.BRIDGE_NAMES:
            continue
        (deferred if is_deferrable(tool, defer_set) else visible).append(tool)
    return visible, deferred


def bridge_definitions(description: str, profile: Profile) -> list[dict[str, Any]]:
    """The three bridge tools in order, with fixed key order (docs/reference.md §6)."""
    t = profile.text
    return [
        {"type": "function", "function": {
            "name": C.TOOL_SEARCH, "description": description,
            "parameters": {"type": "object", "properties": {
                "queries": {"type": "array", "items": {"type": "string"}, "description": t("tool_search", "queries")},
                "limit": {"type": "integer", "description": t("tool_search", "limit")},
            }, "required": ["queries"]}}},
        {"type": "function", "function": {
            "name": C.TOOL_DESCRIBE, "description": t("tool_describe", "description"),
            "parameters": {"type": "object", "properties": {
                "names": {"type": "array", "items": {"type": "string"}, "description": t("tool_describe", "names")},
            }, "required": ["names"]}}},
        {"type": "function", "function": {
            "name": C.TOOL_CALL, "description": t("tool_call", "description"),
            "parameters": {"type": "object", "properties": {
                "calls": {"type": "array", "description": t("tool_call", "calls"), "items": {
                    "type": "object", "properties": {
                        "name": {"type": "string", "description": t("tool_call", "name")},
                        "arguments": {"type": "object", "description": t("tool_call", "arguments")},
                    }, "required": ["name", "arguments"]}},
            }, "required": ["calls"]}}},
    ]


def tool_search_description(deferred_count: int, form: str, listing: str | None, profile: Profile) -> str:
    """docs/reference.md §5.6: base text, then (unless form ``none``) a blank line, the framing paragraph for
    the form, a blank line and the listing."""
    base = profile.text("tool_search", "description", count=deferred_count)
    if form == "none" or listing is None:
        return base
    if form == "groups":
        framing = profile.text("framing", "groups")
    else:
        framing = profile.text("framing", "listed")
        if form == "mixed":
            framing += " " + profile.text("framing", "mixed_extra")
    return f"{base}\n\n{framing}\n\n{listing}"


@dataclass(frozen=True)
class ServerPlan:
    """One server in a plan.

    Attributes:
        name, kind: the server.
        label: its listing group label.
        tool_count: registered tools.
        deferred_count / visible_count: how they split.
        state: ``full`` | ``names`` | ``summary`` | ``hidden`` | ``visible``.
        schema_tokens: its tools' full definitions (display tokenizer; chars4 sums before rounding).
        full_tokens / names_tokens / summary_tokens: its group block in each form (display
            tokenizer); 0 when it has no deferred tools.
        collapse_rank: 1-based position in the docs/reference.md §5.4 collapse order, ``None`` if not listed.
        reason: why it has this state, in words.
    """

    name: str
    kind: str
    label: str
    tool_count: int
    deferred_count: int
    visible_count: int
    state: str
    schema_tokens: int
    full_tokens: int
    names_tokens: int
    summary_tokens: int
    collapse_rank: int | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (CLI contract keys first)."""
        return {
            "name": self.name, "kind": self.kind, "tool_count": self.tool_count, "state": self.state,
            "schema_tokens": self.schema_tokens, "full_tokens": self.full_tokens,
            "names_tokens": self.names_tokens, "summary_tokens": self.summary_tokens,
            "label": self.label, "deferred_count": self.deferred_count, "visible_count": self.visible_count,
            "collapse_rank": self.collapse_rank, "reason": self.reason,
        }


@dataclass(frozen=True)
class Plan:
    """Everything the model sees for one setting, with the reasons.

    Token figures are in the display tokenizer unless named ``*_chars4``; ``listing_tokens`` is
    measured in the planning tokenizer (the one the budget test uses).

    ``tools_tokens`` ("tools array with tool search") is the model-visible tools array at these
    settings and ``eager_tokens`` ("all schemas up front") the tools array with nothing deferred
    (tool search off); both are measured by :func:`~toolsearch.engine.tokens.tools_array_tokens`,
    so in tier 0 they are equal. ``deferred_tokens`` ("deferred schemas") is the reference's
    deferred-tools estimate (chars4: rounded once over the deferred definitions; BPE: each
    definition counted alone, summed). See ``docs/quantities.md``.
    """

    activated: bool
    tier: int
    listing_form: str
    budget: int
    pct_leg: int
    budget_winner: str
    context_length: int | None
    config: ToolSearchConfig
    planning_tokenizer: str
    display_tokenizer: str
    deferred_count: int
    visible_count: int
    deferred_tokens: int
    deferred_tokens_chars4: int
    listing: str | None
    listing_tokens: int
    tool_search_description: str | None
    tool_definitions: Sequence[Mapping[str, Any]] = field(repr=False)
    tools_tokens: int
    eager_tokens: int
    servers: list[ServerPlan]
    steps: tuple
    collapse_order: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def tools(self) -> list[dict[str, Any]]:
        """The model-visible tools array: one ``{"type": "function", "function": {...}}`` per tool,
        in request order (docs/reference.md §2, §6).

        Built on first use from :attr:`tool_definitions` (the registered definitions, shared with
        the planner and never changed) and then kept, so a plan costs no per-tool work until its
        array is read; each entry is a fresh top-level dict, so changing one changes neither the
        registration nor another plan.
        """
        tools = self.__dict__.get("_tools")
        if tools is None:
            tools = [dict(definition) for definition in self.tool_definitions]
            object.__setattr__(self, "_tools", tools)
        return tools

    def to_dict(self) -> dict[str, Any]:
        """The ``plan --json`` object (DESIGN.md CLI contract keys, then extras)."""
        return {
            "tier": self.tier, "listing_form": self.listing_form, "budget": self.budget,
            "context_length": self.context_length, "deferred_count": self.deferred_count,
            "deferred_tokens": self.deferred_tokens, "listing_tokens": self.listing_tokens,
            "listing": self.listing, "tool_search_description": self.tool_search_description,
            "tools": self.tools,
            "servers": [s.to_dict() for s in self.servers],
            "activated": self.activated, "pct_leg": self.pct_leg, "budget_winner": self.budget_winner,
            "visible_count": self.visible_count, "deferred_tokens_chars4": self.deferred_tokens_chars4,
            "tools_tokens": self.tools_tokens, "eager_tokens": self.eager_tokens,
            "planning_tokenizer": self.planning_tokenizer, "display_tokenizer": self.display_tokenizer,
            "collapse_order": list(self.collapse_order),
            "steps": [s.to_dict() for s in self.steps],
            "config": self.config.to_block(),
            "notes": list(self.notes),
        }


@dataclass
class _Deferral:
    """Budget-independent work for one defer set."""

    visible: list[RegisteredTool]
    deferred: list[RegisteredTool]
    groups: list[GroupBlocks]
    label_of_server: dict[str, str]
    visible_definitions: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class _ServerSums:
    """Budget-independent figures of one server for one defer set and display tokenizer."""

    name: str
    kind: str
    label: str
    tools: tuple[RegisteredTool, ...]
    deferred_count: int
    schema_tokens: int
    full_tokens: int
    names_tokens: int
    summary_tokens: int


@dataclass(frozen=True)
class _Sums:
    """Budget-independent sums for one defer set and display tokenizer (computed once).

    With these, a re-plan costs the listing choice plus work per server, never work per tool.
    """

    eager_tokens: int
    deferred_tokens: int
    deferred_chars4: int
    visible_chars: int  # compact-JSON length of the visible tools' definitions, summed
    servers: tuple[_ServerSums, ...]


class Planner:
    """Plans for one registered catalog and wording profile.

    Args:
        registration: the registered catalog (tools in pre-assembly order).
        profile: the wording; defaults to the shipped profile.

    Per-tool definition sizes, per-defer-set groups and per-tokenizer block costs are computed
    once and reused by every :meth:`plan` call.
    """

    @gc_paused()
    def __init__(self, registration: Registration, profile: Profile | None = None) -> None:
        self.registration = registration
        self.profile = profile or default_profile()
        self.tools = list(registration.tools)
        self._json = {t.name: compact_json(t.definition) for t in self.tools}
        self._chars = {name: len(text) for name, text in self._json.items()}  # code points
        self._deferrals: dict[tuple[str, ...] | None, _Deferral] = {}
        self._costs: dict[tuple, dict[str, Any]] = {}
        self._sums: dict[tuple, _Sums] = {}
        self._tier0_tokens: dict[str, int] = {}
        self._listing_counts: dict[str, dict[tuple[str, bool], int]] = {}
        self._all_tools = [t for t in self.tools if t.name not in C.BRIDGE_NAMES]
        self._all_definitions = tuple(t.definition for t in self._all_tools)
        self.header = self.profile.text("listing", "header")

    def definition_json(self, name: str) -> str:
        """The compact JSON of registered tool ``name``'s definition (docs/reference.md §3 serialization),
        computed once at construction. Raises ``KeyError`` for a name not registered."""
        return self._json[name]

    # -- cached pieces ------------------------------------------------------------------
    def deferral(self, defer: Sequence[str] | None) -> _Deferral:
        """Visible/deferred split (docs/reference.md §2) and rendered groups (§5.2, §5.3) for a defer
        set (cached)."""
        key = tuple(sorted(defer)) if defer is not None else None
        cached = self._deferrals.get(key)
        if cached is None:
            visible, deferred = split_tools(self.tools, key)
            groups = render_groups(((t.label, t.name, t.description) for t in deferred), self.profile)
            label_of_server = {t.server: t.label for t in deferred}
            cached = self._deferrals[key] = _Deferral(visible, deferred, groups, label_of_server,
                                                      tuple(t.definition for t in visible))
        return cached

    def _block_costs(self, deferral: _Deferral, tokenizer: Tokenizer) -> dict[str, Any]:
        key = (id(deferral), tokenizer.name)
        cached = self._costs.get(key)
        if cached is None:
            count = tokenizer.count
            cached = {
                g.label: (count(g.full), count(g.names_block), count(g.summary)) for g in deferral.groups
            }
            self._costs[key] = cached
        return cached

    def _sums_for(self, deferral: _Deferral, tokenizer: Tokenizer) -> _Sums:
        """Per-catalog, per-server and per-form sums for a defer set and display tokenizer (cached)."""
        key = (id(deferral), tokenizer.name)
        cached = self._sums.get(key)
        if cached is not None:
            return cached
        costs = self._block_costs(deferral, tokenizer)
        # One row per source as the harness keys it: a core toolset and an MCP server that share
        # a name are two toolsets (``web`` and ``mcp-web``), so two rows.
        by_server: dict[tuple[str, str], list[RegisteredTool]] = {}
        for tool in self.tools:
            by_server.setdefault((tool.server, tool.kind), []).append(tool)
        named = {server for server, _ in by_server}
        for server, kind in self.registration.server_kinds.items():  # servers without tools
            if server not in named:
                by_server.setdefault((server, kind), [])
        deferred_names = {t.name for t in deferral.deferred}
        servers = []
        for server, kind in sorted(by_server):
            tools = by_server[server, kind]
            n_def = sum(1 for t in tools if t.name in deferred_names)
            label = deferral.label_of_server.get(server, tools[0].label if tools else server)
            full, names, summary = costs.get(label, (0, 0, 0)) if n_def else (0, 0, 0)
            servers.append(_ServerSums(server, kind, label, tuple(tools), n_def,
                                       self._schema_tokens(tools, tokenizer), full, names, summary))
        chars = self._chars
        deferred_chars4 = chars4(sum(chars[t.name] for t in deferral.deferred))
        cached = self._sums[key] = _Sums(
            eager_tokens=self._eager_tokens(tokenizer),
            deferred_tokens=(self._schema_tokens(deferral.deferred, tokenizer) if tokenizer.exact
                             else deferred_chars4),
            deferred_chars4=deferred_chars4,
            visible_chars=sum(chars[t.name] for t in deferral.visible),
            servers=tuple(servers))
        return cached

    def _tools_tokens(self, tools: Sequence[Mapping[str, Any]], activated: bool, deferral: _Deferral,
                      sums: _Sums, tokenizer: Tokenizer) -> int:
        """Tokens of the model-visible tools array (docs/reference.md §3), without re-measuring cached parts.

        chars4 sums the per-definition compact-JSON lengths (the cached ones for catalog tools)
        and rounds once. A BPE tokenizer counts the whole array as one text; at tier 0 that
        array does not depend on the budget, so its count is cached.
        """
        if not activated:
            return self._eager_tokens(tokenizer)
        if not tokenizer.exact:
            bridges = tools[len(deferral.visible):]
            return chars4(sums.visible_chars + sum(len(compact_json(t)) for t in bridges))
        return tokenizer.count(compact_json(list(tools)))

    def _eager_tokens(self, tokenizer: Tokenizer) -> int:
        """"All schemas up front": the tier-0 tools array (every non-bridge tool's definition),
        measured as :func:`~toolsearch.engine.tokens.tools_array_tokens` does (cached per tokenizer)."""
        cached = self._tier0_tokens.get(tokenizer.name)
        if cached is None:
            if not self._all_definitions:
                cached = 0  # no tools, no array
            elif tokenizer.exact:
                cached = tokenizer.count(compact_json(list(self._all_definitions)))
            else:
                cached = chars4(sum(self._chars[t.name] for t in self._all_tools))
            self._tier0_tokens[tokenizer.name] = cached
        return cached

    def _schema_tokens(self, tools: Iterable[RegisteredTool], tokenizer: Tokenizer) -> int:
        if not tokenizer.exact:
            chars = self._chars
            return chars4(sum(chars[t.name] for t in tools))
        key = ("schema", tokenizer.name)
        per_tool = self._costs.get(key)
        if per_tool is None:
            per_tool = self._costs[key] = {n: tokenizer.count(j) for n, j in self._json.items()}
        return sum(per_tool[t.name] for t in tools)

    @gc_paused()
    def tool_tokens(self, tokenizer: str) -> dict[str, int]:
        """Tokens of each registered tool's full definition, ``{wire name: tokens}``.

        Each definition is measured alone as compact JSON (docs/reference.md §3 serialization) with
        ``tokenizer`` (``chars4`` rounds up per tool, so for chars4 the per-tool figures can sum
        to a few tokens more than a server's ``schema_tokens``, which rounds once over the sum).
        Computed once per tokenizer and cached on the planner.

        Raises:
            TokenizerError: an unknown tokenizer name.
        """
        tk = get_tokenizer(tokenizer)
        # BPE counts per tool are what _schema_tokens caches under ("schema", name): share them.
        key = ("schema", tk.name) if tk.exact else ("tool_tokens", tk.name)
        cached = self._costs.get(key)
        if cached is None:
            cached = self._costs[key] = {n: tk.count(j) for n, j in self._json.items()}
        return dict(cached)

    # -- the plan -------------------------------------------------------------------------
    @gc_paused()
    def plan(self, config: ToolSearchConfig, context_length: int | None = None,
             tokenizer: str = C.DEFAULT_TOKENIZER, display_tokenizer: str | None = None) -> Plan:
        """Plan what the model sees (docs/reference.md §2, §4, §5, §6).

        Args:
            config: effective ``tools.tool_search`` settings.
            context_length: the model's context length in tokens; ``None``, 0 or negative
                mean unknown (budget fallback, docs/reference.md §4).
            tokenizer: the planning tokenizer, which decides whether a listing fits.
            display_tokenizer: the tokenizer for reported costs (defaults to ``tokenizer``).

        Raises:
            TokenizerError: an unknown tokenizer name.
        """
        plan_tk = get_tokenizer(tokenizer)
        show_tk = get_tokenizer(display_tokenizer or tokenizer)
        notes = [n for n in (plan_tk.note, show_tk.note) if n]
        notes.extend(config.warnings)
        if context_length is not None and context_length < 0:
            notes.append(f"context length {context_length} is negative: treated as unknown (docs/reference.md §4 fallback)")
        deferral = self.deferral(config.defer)
        budget, pct_leg, winner = listing_budget(context_length, config.threshold_pct, config.listing_max_tokens)
        activated = config.active and bool(deferral.deferred)
        all_tools = self._all_tools
        sums = self._sums_for(deferral, show_tk)

        if not activated:
            choice = ListingChoice("none", None, 0, {}, (), ())
            tools: Sequence[Mapping[str, Any]] = self._all_definitions  # shared, never changed
            description = None
            tier = 0
            form = "none"
        else:
            if config.listing_enabled:
                count = None if not plan_tk.exact else plan_tk.count
                cache = self._listing_counts.setdefault(plan_tk.name, {}) if plan_tk.exact else None
                choice = choose_listing(deferral.groups, budget, self.header, count, bpe=plan_tk.exact, cache=cache)
            else:
                choice = ListingChoice("none", None, 0, {g.label: "hidden" for g in deferral.groups},
                                       tuple(g.label for g in deferral.groups), ())
            form = choice.form
            tier = 1 if form in ("full", "names", "mixed") else 2
            description = tool_search_description(len(deferral.deferred), form, choice.text, self.profile)
            tools = deferral.visible_definitions + tuple(bridge_definitions(description, self.profile))
        tools_tokens = self._tools_tokens(tools, activated, deferral, sums, show_tk)
        servers = self._server_plans(sums, choice, activated, config)
        return Plan(
            activated=activated, tier=tier, listing_form=form, budget=budget, pct_leg=pct_leg,
            budget_winner=winner, context_length=context_length, config=config,
            planning_tokenizer=plan_tk.effective, display_tokenizer=show_tk.effective,
            deferred_count=len(deferral.deferred), visible_count=len(deferral.visible) if activated else len(all_tools),
            deferred_tokens=sums.deferred_tokens, deferred_tokens_chars4=sums.deferred_chars4,
            listing=choice.text, listing_tokens=choice.tokens, tool_search_description=description,
            tool_definitions=tools, tools_tokens=tools_tokens, eager_tokens=sums.eager_tokens, servers=servers,
            steps=choice.steps, collapse_order=choice.collapse_order, notes=tuple(notes),
        )

    def _server_plans(self, sums: _Sums, choice: ListingChoice, activated: bool,
                      config: ToolSearchConfig) -> list[ServerPlan]:
        rank = {label: i for i, label in enumerate(choice.collapse_order, 1)}
        out = []
        for srv in sums.servers:
            tools, n_def, label = srv.tools, srv.deferred_count, srv.label
            state, reason = self._state(srv.name, tools, n_def, label, choice, activated, config, rank)
            out.append(ServerPlan(
                name=srv.name, kind=srv.kind, label=label, tool_count=len(tools), deferred_count=n_def,
                visible_count=len(tools) - n_def if activated else len(tools), state=state,
                schema_tokens=srv.schema_tokens, full_tokens=srv.full_tokens, names_tokens=srv.names_tokens,
                summary_tokens=srv.summary_tokens, collapse_rank=rank.get(label) if n_def else None,
                reason=reason))
        return out

    @staticmethod
    def _state(server, tools, n_def, label, choice, activated, config, rank) -> tuple[str, str]:
        if not tools:
            return "hidden", "no tools registered, so no group in the listing"
        if not activated:
            why = "tool search is off" if not config.active else "nothing in the catalog is deferrable"
            return "visible", f"tier 0: {why}; every schema is sent"
        if n_def == 0:
            return "visible", "core tools stay in the tools array unless named in defer"
        state = choice.states.get(label, "hidden")
        if not config.listing_enabled:
            return "hidden", "listing: off, so only the bridge tools are described"
        if choice.form == "full":
            return state, "the whole listing fits with full lines"
        if choice.form == "names":
            return state, "full lines did not fit; every group fits as names"
        if choice.form == "none":
            return "hidden", "even all summary lines exceed the budget"
        position = rank.get(label)
        if state == "summary":
            return state, f"collapsed to a summary line (collapse order #{position}: larger names blocks go first)"
        return state, f"kept as names (collapse order #{position}; the listing fit before its turn)"



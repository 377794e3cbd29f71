"""Per-server facts on two sides, server by server: the one shape behind every two-sided server table.

Two questions draw a table of servers with a state on each side: *what changes when a setting
changes* (two plans: the sidebar's and another setting or catalog) and *what the best collapse
would change* (the reference's collapse and the what-if's, under one plan). Both come here as
:class:`ServerPair` rows, with the same quantities under the same names as the one-sided
per-server table: tools (registered), names block and summary line in tokens (the plan's
``names_tokens`` / ``summary_tokens``, docs/quantities.md) and the state (``full``, ``names``,
``summary``, ``hidden``, ``visible``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.plan import Plan
from .collapse import CollapseComparison


@dataclass(frozen=True)
class ServerPair:
    """One server on side A and side B.

    Attributes:
        server: the server's name.
        kind: ``mcp`` | ``plugin`` | ``core`` (side A's, else side B's).
        label: its listing group label (side A's, else side B's).
        tools_a, tools_b: registered tools on each side; ``None`` when the side has no such server.
        state_a, state_b: its state on each side (``None``: not on that side).
        names_tokens_a, names_tokens_b: its names block in tokens (the plan's display tokenizer).
        summary_tokens_a, summary_tokens_b: its summary line in tokens (the same tokenizer).
        names_chars, summary_chars: for a collapse what-if counted in characters (chars4), the
            block and line in characters, the units the collapse choice adds up; else ``None``.
    """

    server: str
    kind: str
    label: str
    tools_a: int | None
    tools_b: int | None
    state_a: str | None
    state_b: str | None
    names_tokens_a: int | None
    names_tokens_b: int | None
    summary_tokens_a: int | None
    summary_tokens_b: int | None
    names_chars: int | None = None
    summary_chars: int | None = None

    @property
    def changed(self) -> bool:
        """The state differs between the sides (a server on one side only counts as changed)."""
        return self.state_a != self.state_b

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def plan_pairs(plan_a: Plan, plan_b: Plan) -> list[ServerPair]:
    """The servers of two plans side by side: A's servers in A's plan order, then servers only in B
    (in B's order).

    Args:
        plan_a, plan_b: two plans, of one catalog or of two (servers are matched by name).

    Returns:
        One :class:`ServerPair` per server present on either side.
    """
    by_b = {s.name: s for s in plan_b.servers}
    by_a = {s.name: s for s in plan_a.servers}  # once: a set of A's names per server of B took 9 s at 10,000 servers
    names = [s.name for s in plan_a.servers] + [s.name for s in plan_b.servers if s.name not in by_a]
    rows = []
    for name in names:
        a, b = by_a.get(name), by_b.get(name)
        first = a or b
        assert first is not None
        rows.append(ServerPair(
            server=name, kind=first.kind, label=first.label,
            tools_a=a.tool_count if a else None, tools_b=b.tool_count if b else None,
            state_a=a.state if a else None, state_b=b.state if b else None,
            names_tokens_a=a.names_tokens if a else None, names_tokens_b=b.names_tokens if b else None,
            summary_tokens_a=a.summary_tokens if a else None, summary_tokens_b=b.summary_tokens if b else None))
    return rows


def collapse_pairs(cmp: CollapseComparison, plan: Plan) -> list[ServerPair]:
    """The collapse what-if's servers as pairs: side A the reference's state, side B the best
    choice's, sizes from ``plan`` (the plan the comparison was made for), in the comparison's order.

    Args:
        cmp: :func:`toolsearch.analysis.collapse.compare_collapse` of the plan's settings.
        plan: the plan at the same settings (its servers give kind, tools and token sizes).

    Returns:
        One :class:`ServerPair` per server of ``cmp``; ``names_chars`` / ``summary_chars`` are set
        when the comparison counts in characters (chars4).
    """
    by_name = {s.name: s for s in plan.servers}
    chars = cmp.units == "characters"
    rows = []
    for s in cmp.servers:
        p = by_name.get(s.server)
        names = p.names_tokens if p else s.names_tokens
        summary = p.summary_tokens if p else s.summary_tokens
        tools = p.tool_count if p else s.deferred_count
        rows.append(ServerPair(
            server=s.server, kind=p.kind if p else "mcp", label=s.label, tools_a=tools, tools_b=tools,
            state_a=s.reference, state_b=s.best, names_tokens_a=names, names_tokens_b=names,
            summary_tokens_a=summary, summary_tokens_b=summary,
            names_chars=s.names_units if chars else None, summary_chars=s.summary_units if chars else None))
    return rows

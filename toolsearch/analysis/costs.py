"""What each tool costs in tokens, split into its description and the rest of its definition.

Each registered tool's definition (what the model receives when the tool is sent in full) is
counted alone as compact JSON, the same figure the app's Costs page shows per tool (Tool schema
(counted alone)). Its description is counted alone too; the rest (name, parameters and the JSON
around them) is the tool's signature, ``signature_tokens``. Not to be confused with ``plan``'s
per-server ``schema_tokens`` (Server schemas: the whole definitions, rounded once per server); a
server's ``total_tokens`` here adds its tools up as each is counted alone, so with chars4 it can be
up to one token per tool above that figure (docs/quantities.md). A tool is an outlier when its
definition is far above the catalog's usual size: above the upper Tukey fence,
Q3 + 1.5 × (Q3 − Q1) of every tool's total.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.inspector import Inspector
from ..engine.tokens import get_tokenizer

#: Fewer tools than this: no outlier is flagged (quartiles of a handful of sizes say little).
OUTLIER_MIN_TOOLS = 4
#: Tukey's factor: an outlier is above Q3 + OUTLIER_IQR_FACTOR × (Q3 − Q1).
OUTLIER_IQR_FACTOR = 1.5
#: ``--sort`` keys: column name -> how rows are ordered (largest first for numbers).
SORT_KEYS = ("total", "description", "signature", "name", "server")


@dataclass(frozen=True)
class ToolCostRow:
    """One tool's cost (tokens in the display tokenizer).

    Attributes:
        name: the wire name the model sees; ``server`` the owning server.
        description_tokens: the description counted alone.
        signature_tokens: the rest of the definition: ``total_tokens - description_tokens`` (name,
            parameters and JSON framing; never below 0).
        total_tokens: the whole definition as compact JSON, counted alone.
        share: ``total_tokens`` as a fraction of the eager cost (0..1).
        outlier: above the catalog's upper fence (see :data:`OUTLIER_IQR_FACTOR`).
        deferred: sent behind tool search at these settings (else sent in full).
    """

    name: str
    server: str
    description_tokens: int
    signature_tokens: int
    total_tokens: int
    share: float
    outlier: bool
    deferred: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above (``share`` rounded to 6 digits)."""
        return {**self.__dict__, "share": round(self.share, 6)}


@dataclass(frozen=True)
class ServerCostRow:
    """One server's totals over its tools (tokens in the display tokenizer): each figure adds up its
    tools' rows, so ``total_tokens`` is the sum of tools counted alone, not ``plan``'s Server schemas
    (rounded once per server)."""

    server: str
    kind: str
    tools: int
    description_tokens: int
    signature_tokens: int
    total_tokens: int
    share: float
    outliers: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above (``share`` rounded to 6 digits)."""
        return {**self.__dict__, "share": round(self.share, 6)}


@dataclass(frozen=True)
class CostReport:
    """Per-tool and per-server costs of a catalog.

    Attributes:
        tools: one row per registered tool, in the order asked for (:func:`sorted_tools`).
        servers: one row per server, largest total first.
        eager_tokens: every tool's definition sent in full (the app's "All schemas" figure).
        outlier_fence: the total above which a tool is an outlier, or ``None`` (too few tools).
        planning_tokenizer: decides whether the listing fits (what ``deferred`` is planned with).
        display_tokenizer: counts every figure here.
    """

    tools: tuple[ToolCostRow, ...]
    servers: tuple[ServerCostRow, ...]
    eager_tokens: int
    outlier_fence: float | None
    planning_tokenizer: str
    display_tokenizer: str

    def to_dict(self) -> dict[str, Any]:
        """The ``costs --json`` object: ``planning_tokenizer``, ``display_tokenizer``,
        ``eager_tokens``, ``outlier_fence``, ``tools``, ``servers``."""
        return {"planning_tokenizer": self.planning_tokenizer, "display_tokenizer": self.display_tokenizer,
                "eager_tokens": self.eager_tokens, "outlier_fence": self.outlier_fence,
                "tools": [t.to_dict() for t in self.tools], "servers": [s.to_dict() for s in self.servers]}


def outlier_fence(totals: list[int]) -> float | None:
    """Q3 + 1.5 × (Q3 − Q1) of ``totals`` (tokens; quartiles by the inclusive method), or ``None``
    for fewer than :data:`OUTLIER_MIN_TOOLS` values."""
    if len(totals) < OUTLIER_MIN_TOOLS:
        return None
    q1, _, q3 = statistics.quantiles(totals, n=4, method="inclusive")
    return q3 + OUTLIER_IQR_FACTOR * (q3 - q1)


def sorted_tools(rows: list[ToolCostRow], sort: str) -> list[ToolCostRow]:
    """``rows`` ordered by ``sort`` (one of :data:`SORT_KEYS`): token columns largest first, names
    A to Z; ties by server, then name.

    Raises:
        ValueError: an unknown sort key.
    """
    if sort not in SORT_KEYS:
        raise ValueError(f"sort must be one of {', '.join(SORT_KEYS)}, got {sort!r}")
    if sort == "name":
        return sorted(rows, key=lambda r: (r.name, r.server))
    if sort == "server":
        return sorted(rows, key=lambda r: (r.server, -r.total_tokens, r.name))
    column = {"total": "total_tokens", "description": "description_tokens", "signature": "signature_tokens"}[sort]
    return sorted(rows, key=lambda r: (-getattr(r, column), r.server, r.name))


def tool_costs(inspector: Inspector, config: ToolSearchConfig, tokenizer: str = C.DEFAULT_TOKENIZER,
               display_tokenizer: str | None = None, context_length: int | None = None,
               sort: str = "total") -> CostReport:
    """Per-tool and per-server token costs of ``inspector``'s catalog.

    Args:
        inspector: the registered catalog.
        config: the settings (which tools are deferred depends on them).
        tokenizer: the planning tokenizer; ``display_tokenizer`` counts the costs (default: the same).
        context_length: tokens, or ``None`` for unknown (only whether a tool is deferred uses it).
        sort: the tool order, one of :data:`SORT_KEYS`.

    Raises:
        TokenizerError: an unknown tokenizer name.
        ValueError: an unknown sort key.
    """
    display = display_tokenizer or tokenizer
    plan = inspector.plan(config, context_length, tokenizer, display)
    counter = get_tokenizer(display)
    totals = inspector.planner.tool_tokens(display)
    deferred = {t.name for t in inspector.planner.deferral(config.defer).deferred} if plan.activated else set()
    tools = inspector.registration.tools
    fence = outlier_fence([totals[t.name] for t in tools])
    eager = plan.eager_tokens
    rows = []
    for t in tools:
        total = totals[t.name]
        description = counter.count(t.description) if t.description else 0
        rows.append(ToolCostRow(name=t.name, server=t.server, description_tokens=description,
                                signature_tokens=max(total - description, 0), total_tokens=total,
                                share=total / eager if eager else 0.0,
                                outlier=fence is not None and total > fence, deferred=t.name in deferred))
    by_server: dict[str, list[ToolCostRow]] = {}
    for row in rows:
        by_server.setdefault(row.server, []).append(row)
    kinds = {s.name: s.kind for s in plan.servers}
    servers = [ServerCostRow(server=name, kind=kinds.get(name, next((t.kind for t in tools if t.server == name), "")),
                             tools=len(group), description_tokens=sum(r.description_tokens for r in group),
                             signature_tokens=sum(r.signature_tokens for r in group),
                             total_tokens=sum(r.total_tokens for r in group),
                             share=sum(r.total_tokens for r in group) / eager if eager else 0.0,
                             outliers=sum(r.outlier for r in group)) for name, group in by_server.items()]
    servers.sort(key=lambda s: (-s.total_tokens, s.server))
    return CostReport(tools=tuple(sorted_tools(rows, sort)), servers=tuple(servers), eager_tokens=eager,
                      outlier_fence=fence, planning_tokenizer=plan.planning_tokenizer,
                      display_tokenizer=plan.display_tokenizer)

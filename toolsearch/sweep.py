"""Plans over a grid of context lengths × threshold_pct (× listing_max_tokens)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from . import constants as C
from .config import ToolSearchConfig
from .plan import Planner

DEFAULT_CONTEXT_LENGTHS: tuple[int, ...] = C.CONTEXT_PRESETS
DEFAULT_THRESHOLD_PCTS: tuple[float, ...] = (1.0, 2.0, 5.0, 10.0, 20.0)


@dataclass(frozen=True)
class SweepRow:
    """One grid point: the settings and what the plan chose.

    ``states`` maps server name → state (full | names | summary | hidden | visible).
    """

    context_length: int | None
    threshold_pct: float
    listing_max_tokens: int
    budget: int
    budget_winner: str
    tier: int
    listing_form: str
    listing_tokens: int
    tools_tokens: int
    states: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return dict(self.__dict__)


def sweep(planner: Planner, config: ToolSearchConfig, context_lengths: Sequence[int | None] = DEFAULT_CONTEXT_LENGTHS,
          threshold_pcts: Sequence[float] = DEFAULT_THRESHOLD_PCTS,
          listing_max_tokens: Sequence[int] | None = None, tokenizer: str = C.DEFAULT_TOKENIZER) -> list[SweepRow]:
    """Plan every combination (listing caps outermost, then threshold_pct, then context length).

    Values are parsed and clamped like config values (RB §1.1). Returns one row per combination.
    """
    caps = list(listing_max_tokens) if listing_max_tokens else [config.listing_max_tokens]
    rows = []
    for cap in caps:
        for pct in threshold_pcts:
            point = config.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
            for context in context_lengths:
                plan = planner.plan(point, context, tokenizer)
                rows.append(SweepRow(
                    context_length=context, threshold_pct=point.threshold_pct,
                    listing_max_tokens=point.listing_max_tokens, budget=plan.budget,
                    budget_winner=plan.budget_winner, tier=plan.tier, listing_form=plan.listing_form,
                    listing_tokens=plan.listing_tokens, tools_tokens=plan.tools_tokens,
                    states={s.name: s.state for s in plan.servers}))
    return rows

"""One ``threshold_pct`` and one ``listing_max_tokens`` for every context length a config serves.

A harness config holds a single ``tools.tool_search`` block for every model the user runs, so a
recommendation has to reach its goal at each of those context lengths at once. Built on the
listing ladder of :mod:`toolsearch.analysis.sweep` (the form depends on the budget alone, docs/reference.md §5.4, and
only gets better as the budget grows), so a recommendation costs one plan.

Why the answer is exact and tight: let B be the smallest budget that reaches the goal. Every
listed context length needs ``min(listing_max_tokens, pct leg) >= B`` (docs/reference.md §4). The smallest cap
is ``max(200, B)``; the percentage leg ``int(c × (pct / 100))`` grows with both the context
length and ``threshold_pct``, so the smallest ``threshold_pct`` on the 0.1 grid is the one that
gives the shortest listed context length a leg of B. Both are the smallest possible values, so
every length gets the smallest budget that reaches the goal, which is also the listing with the
fewest tokens among those that reach it (a larger budget can only pick an earlier, larger
candidate). 0.1 less or 1 token less gives a budget below B at some listed length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.plan import listing_budget
from .sweep import FORM_RANK, Ladder, at_least, smallest_budget

#: Goals in order from the most demanding to the least, with the worst form that still meets each.
GOAL_FORMS: dict[str, str] = {"full": "full", "names": "names", "listed": "mixed", "any": "groups"}
GOALS: tuple[str, ...] = tuple(GOAL_FORMS)
#: What each goal means, in words (CLI text and app).
GOAL_WORDS: dict[str, str] = {
    "full": "every tool with its short description (form full)",
    "names": "every server at names or better",
    "listed": "tool names listed (tier 1)",
    "any": "some listing (summary lines or better)",
}
#: Resolution of the recommended threshold_pct (%): the answer is exact to this step.
THRESHOLD_PCT_RESOLUTION = 0.1
_PCT_STEPS = round(C.THRESHOLD_PCT_MAX / THRESHOLD_PCT_RESOLUTION)


@dataclass(frozen=True)
class ContextOutcome:
    """What one context length gets with given settings.

    Attributes:
        context_length: tokens, or ``None`` for unknown (the percentage leg is then 10,000).
        budget: the listing budget in tokens (docs/reference.md §4).
        tier: 0, 1 or 2 (docs/reference.md §5.5).
        listing_form: ``full`` | ``names`` | ``mixed`` | ``groups`` | ``none``.
        listing_tokens: the listing's size in planning tokens (0 when nothing is listed).
    """

    context_length: int | None
    budget: int
    tier: int
    listing_form: str
    listing_tokens: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys above, in that order."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class MultiRecommendation:
    """The settings for a goal over several context lengths (see :func:`recommend_for_contexts`).

    Attributes:
        goal: the goal asked for (``full`` | ``names`` | ``listed`` | ``any``).
        reached: the settings reach ``goal`` at every listed context length.
        reached_goal: the goal the settings do reach everywhere (``goal`` when ``reached``; else
            the most demanding weaker goal that can be reached, or ``None`` when none can).
        threshold_pct: recommended ``threshold_pct`` (%), exact to 0.1.
        listing_max_tokens: recommended ``listing_max_tokens`` (tokens), exact to 1.
        budget_needed: the smallest budget (tokens) that reaches ``reached_goal``, or ``None``.
        contexts: one outcome per listed context length, in the order given.
        reason: why ``goal`` cannot be reached (empty when it is).
        planning_tokenizer: the tokenizer the ladder was measured with.
    """

    goal: str
    reached: bool
    reached_goal: str | None
    threshold_pct: float
    listing_max_tokens: int
    budget_needed: int | None
    contexts: tuple[ContextOutcome, ...]
    reason: str
    planning_tokenizer: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``threshold_pct``, ``listing_max_tokens``, ``goal``, ``contexts``, then
        ``reached``, ``reached_goal``, ``budget_needed``, ``reason``, ``planning_tokenizer``."""
        return {"threshold_pct": self.threshold_pct, "listing_max_tokens": self.listing_max_tokens,
                "goal": self.goal, "contexts": [c.to_dict() for c in self.contexts],
                "reached": self.reached, "reached_goal": self.reached_goal, "budget_needed": self.budget_needed,
                "reason": self.reason, "planning_tokenizer": self.planning_tokenizer}

    def apply(self, config: ToolSearchConfig) -> ToolSearchConfig:
        """``config`` with the recommended threshold_pct and listing_max_tokens."""
        return config.with_overrides(threshold_pct=self.threshold_pct, listing_max_tokens=self.listing_max_tokens)


def outcomes(ladder: Ladder, threshold_pct: float, listing_max_tokens: int,
             context_lengths: Sequence[int | None]) -> tuple[ContextOutcome, ...]:
    """Budget, tier, form and listing tokens at each context length (in the order given) for
    one ``threshold_pct`` (%) and ``listing_max_tokens`` (tokens), read off ``ladder``."""
    out = []
    for context in context_lengths:
        budget, _, _ = listing_budget(context, threshold_pct, listing_max_tokens)
        out.append(ContextOutcome(context, budget, ladder.tier_at(budget), ladder.form_at(budget),
                                  ladder.tokens_at(budget)))
    return tuple(out)


def smallest_threshold_pct(budget: int, context_length: int) -> float | None:
    """The smallest ``threshold_pct`` on the 0.1 grid (0.0..100.0) whose percentage leg at
    ``context_length`` tokens is at least ``budget`` tokens, with the docs/reference.md §4 arithmetic
    (``int(context_length × (pct / 100.0))``, truncation included). ``None`` when 100% is not
    enough. Binary search: the leg never shrinks as ``threshold_pct`` grows."""
    def leg(k: int) -> int:
        return int(context_length * ((k / 10) / 100.0))

    if leg(_PCT_STEPS) < budget:
        return None
    low, high = 0, _PCT_STEPS
    while low < high:
        mid = (low + high) // 2
        if leg(mid) >= budget:
            high = mid
        else:
            low = mid + 1
    return low / 10


def _settings_for(ladder: Ladder, goal: str, context_lengths: Sequence[int | None],
                  current_pct: float) -> tuple[float, int, int] | str:
    """``(threshold_pct, listing_max_tokens, budget)`` reaching ``goal`` everywhere, or a reason."""
    budget = smallest_budget(ladder, at_least(GOAL_FORMS[goal]))
    if budget is None:
        return f"the smallest listing that meets it needs more than {C.LISTING_MAX_TOKENS_MAX:,} tokens"
    cap = max(C.LISTING_MAX_TOKENS_MIN, budget)
    known = [c for c in context_lengths if c is not None and c > 0]
    if len(known) < len(context_lengths) and budget > C.UNKNOWN_CONTEXT_PCT_LEG:
        return (f"it needs a budget of {budget:,} tokens; with an unknown context length the budget is at most "
                f"{C.UNKNOWN_CONTEXT_PCT_LEG:,}")
    if not known:
        return current_pct, cap, budget  # threshold_pct does not matter with only unknown lengths
    shortest = min(known)
    pct = smallest_threshold_pct(budget, shortest)
    if pct is None:
        return (f"it needs a budget of {budget:,} tokens, more than 100% of the shortest context length "
                f"({shortest:,} tokens)")
    return pct, cap, budget


def recommend_for_contexts(ladder: Ladder, config: ToolSearchConfig, context_lengths: Sequence[int | None],
                           goal: str) -> MultiRecommendation:
    """The ``threshold_pct`` and ``listing_max_tokens`` that reach ``goal`` at every context length
    in ``context_lengths`` with the fewest listing tokens; exact to 0.1 % and 1 token, and tight
    (0.1 less or 1 token less breaks the goal at some listed length, unless that value is at the
    bottom of its range, docs/reference.md §1.1).

    Goals: ``full`` (every tool with its short description), ``names`` (every server at names or
    better), ``listed`` (tier 1: form full, names or mixed), ``any`` (some listing: groups or
    better).

    When ``goal`` cannot be reached at every length, the result has ``reached=False``, the reason,
    and the settings of the most demanding weaker goal that can be reached everywhere; when none
    can, the largest settings (100 %, 60,000 tokens), which give every length its best form.

    Args:
        ladder: :func:`toolsearch.analysis.sweep.listing_ladder` for the catalog, config and tokenizer.
        config: the current settings (only its threshold_pct is used, when every listed length
            is unknown and threshold_pct therefore does not matter).
        context_lengths: tokens (``None`` = unknown), at least one; outcomes keep this order.
        goal: one of :data:`GOALS`.

    Raises:
        ValueError: an unknown goal or an empty list of context lengths.
    """
    if goal not in GOAL_FORMS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
    if not context_lengths:
        raise ValueError("at least one context length is needed")
    lengths = list(context_lengths)
    if not ladder.activated:
        reason = "tool search is not active (enabled: off, or nothing is deferrable)"
    elif not ladder.listing_enabled:
        reason = "listing is off, so no listing is ever embedded"
    else:
        reason = ""
    found = None if reason else _settings_for(ladder, goal, lengths, config.threshold_pct)
    if isinstance(found, tuple):
        pct, cap, budget = found
        return MultiRecommendation(goal, True, goal, pct, cap, budget, outcomes(ladder, pct, cap, lengths), "",
                                   ladder.planning_tokenizer)
    reason = reason or str(found)
    if not ladder.activated or not ladder.listing_enabled:
        weaker: list[str] = []
    else:
        weaker = [g for g in GOALS if FORM_RANK[GOAL_FORMS[g]] > FORM_RANK[GOAL_FORMS[goal]]]
    for other in weaker:
        fallback = _settings_for(ladder, other, lengths, config.threshold_pct)
        if isinstance(fallback, tuple):
            pct, cap, budget = fallback
            return MultiRecommendation(goal, False, other, pct, cap, budget, outcomes(ladder, pct, cap, lengths),
                                       reason, ladder.planning_tokenizer)
    pct, cap = C.THRESHOLD_PCT_MAX, C.LISTING_MAX_TOKENS_MAX
    return MultiRecommendation(goal, False, None, pct, cap, None, outcomes(ladder, pct, cap, lengths), reason,
                               ladder.planning_tokenizer)


def lowered_lengths(current: Sequence[ContextOutcome], recommended: Sequence[ContextOutcome]) -> list[int | None]:
    """The context lengths where ``recommended`` gives a worse listing form than ``current``
    (same lengths, same order)."""
    return [a.context_length for a, b in zip(current, recommended)
            if FORM_RANK[b.listing_form] > FORM_RANK[a.listing_form]]

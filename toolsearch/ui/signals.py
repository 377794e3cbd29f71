"""Signals shared by the Overview, What-the-model-sees and Tuning pages: the verdict when tool
search costs more than sending every schema, a request larger than the context, the tier-2 banner,
and the note that the reference decides with chars4. Every figure comes from the plan."""

from __future__ import annotations

import streamlit as st

from toolsearch.engine import constants as C
from toolsearch.engine.plan import Plan
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.recommend import smallest_threshold_pct
from toolsearch.analysis.sweep import names_budget
from toolsearch.analysis.strategies import ALL_UPFRONT, STRATEGY_LABELS, TIERED
from toolsearch.analysis.wording import cap_words, settings_words, threshold_words

#: Names and tooltips used for the same quantities on every page (from the library's named quantities).
TOOLS_ARRAY = Q.TOOLS_ARRAY.name
TOOLS_ARRAY_HELP = Q.TOOLS_ARRAY.definition + " The same number on every page."
ALL_SCHEMAS = Q.ALL_SCHEMAS.name
ALL_SCHEMAS_HELP = (Q.ALL_SCHEMAS.definition + " The same number on every page, and the Strategies page's "
                    "“All up front” before skills are added.")
#: The strategy that sends everything up front (its name in every Strategies table and chart).
ALL_UPFRONT_STRATEGY = STRATEGY_LABELS[ALL_UPFRONT]
#: Under the Overview's cost metrics: what "All schemas up front" counts and where a related but
#: different figure appears.
ALL_SCHEMAS_CAPTION = (f"{ALL_SCHEMAS}: the tools array if nothing were deferred, measured as one array. The "
                       f"Strategies page's “{ALL_UPFRONT_STRATEGY}” is the same figure plus the skill listing when "
                       "skills are loaded; the Costs page counts each tool alone (chars4 rounds up per tool), so "
                       "its per-tool figures add up to a few tokens more.")


def all_upfront_note(upfront_tokens: int, breakdown: dict[str, int], tokenizer: str,
                     eager_tokens: int | None) -> str:
    """How the Strategies page's "All up front" relates to "All schemas up front".

    Args:
        upfront_tokens: the strategy's prompt before the first turn (tokens, ``tokenizer``).
        breakdown: its tokens per prompt piece (``{"schema": …, "skill listing": …}``).
        eager_tokens: the Overview's figure for the same catalog and tokenizer, or ``None`` when
            the page compares another catalog (the worked example).

    Returns:
        One sentence naming what each figure counts, with both numbers and the difference.
    """
    pieces = " + ".join(f"{n:,} ({ALL_SCHEMAS if p == 'schema' else p})" for p, n in breakdown.items() if n)
    text = f"{ALL_UPFRONT_STRATEGY}: {upfront_tokens:,} tokens ({tokenizer}) before the first turn = {pieces}."
    if eager_tokens is None:
        return text + f" The Overview's “{ALL_SCHEMAS}” counts the sidebar's catalog, not this one."
    diff = upfront_tokens - eager_tokens
    if diff == 0:
        return text + f" The same number as the Overview's “{ALL_SCHEMAS}”."
    return text + (f" The Overview's “{ALL_SCHEMAS}” ({eager_tokens:,}) is the tools array alone: "
                   + (f"{diff:,} tokens fewer." if diff > 0 else f"{-diff:,} tokens more."))


def tiered_note(upfront_tokens: int, breakdown: dict[str, int], tokenizer: str, tools_tokens: int) -> str | None:
    """How the Strategies page's tiered strategy relates to "Tools array with tool search", when
    it adds a piece (the skill listing) to the same tools array; ``None`` when the two are the same
    number or the strategy's tools array is another one (another catalog, scope or count).

    Args:
        upfront_tokens: the tiered strategy's prompt before the first turn (tokens, ``tokenizer``).
        breakdown: its tokens per prompt piece (``{"tools array": …, "skill listing": …}``).
        tools_tokens: the Overview's figure for the sidebar's settings.
    """
    if breakdown.get("tools array") != tools_tokens or upfront_tokens == tools_tokens:
        return None
    pieces = " + ".join(f"{n:,} ({TOOLS_ARRAY if p == 'tools array' else p})" for p, n in breakdown.items() if n)
    return (f"{STRATEGY_LABELS[TIERED]}: {upfront_tokens:,} tokens ({tokenizer}) before the first turn = {pieces}. "
            f"The Overview's “{TOOLS_ARRAY}” ({tools_tokens:,}) is the tools array alone: "
            f"{upfront_tokens - tools_tokens:,} tokens fewer.")


def tier2_banner(plan: Plan) -> None:
    """A prominent warning in tier 2: the model sees no tool names at all."""
    if plan.activated and plan.tier == 2:
        what = ("one summary line per server (form summary)" if plan.listing_form == "groups"
                else "no listing at all, only the bridge tools' own text")
        st.error(f"Tier 2: the model sees no tool names, {what}. It has to find every deferred tool with "
                 f"tool_search before it can use it. {tier2_remedy(plan)}", icon=":material/report:")


def tier2_remedy(plan: Plan) -> str:
    """What lifts a tier-2 plan out of tier 2: the setting that actually limits it (the listing
    switch, or the leg of the budget's min that decided it), never one that would change nothing,
    with the budget that names a tool and the value that reaches it. When the tools array alone is
    larger than the context length, it says that no request fits whatever the listing."""
    cfg = plan.config
    cap, budget, context = cfg.listing_max_tokens, plan.budget, plan.context_length
    tuning = "the Tuning page shows what each setting reaches"
    if not cfg.listing_enabled:
        return ("The listing is switched off (listing: off), so no budget brings tool names back: set listing "
                "to auto or on.")
    if not (context and context > 0):
        if plan.pct_leg <= cap:
            return (f"The context length is unknown, so the budget is the fallback of {budget:,} tokens "
                    f"(listing_max_tokens, {cap:,}, is not what limits it): choose the context length in the "
                    "sidebar, and threshold_pct sizes the budget.")
        return (f"The budget ({budget:,} tokens) is listing_max_tokens: raise it (up to {plan.pct_leg:,} tokens, "
                f"the fallback for an unknown context length; {tuning}).")
    need = names_budget(plan.steps)
    pct = smallest_threshold_pct(need, context) if need is not None else None
    share = f"threshold_pct's {cfg.threshold_pct:g}% of the context length ({Q.length_label(context)})"
    if need is None:  # no listing step names a tool: say only which setting limits the budget
        return (f"The budget ({budget:,} tokens) is " + (share if plan.pct_leg < cap else "listing_max_tokens")
                + f" ({tuning}).")
    limit = (share if plan.pct_leg < cap else f"both listing_max_tokens and {share}" if plan.pct_leg == cap
             else "listing_max_tokens")
    why = f"The budget ({budget:,} tokens) is {limit}; tool names need a budget of at least {need:,} tokens"
    raise_cap = need > cap  # listing_max_tokens must rise to it
    raise_pct = need > plan.pct_leg  # threshold_pct must rise to it
    if raise_pct and pct is None:
        why += f", which no threshold_pct gives at this context length (100% is {context:,} tokens)."
    else:
        steps = (settings_words(pct, need) if raise_pct and raise_cap else threshold_words(pct) if raise_pct
                 else cap_words(need))
        why += f": {steps} give{'' if raise_pct and raise_cap else 's'} it here ({tuning})."
    if plan.tools_tokens > context:
        why += (f" No request fits this context in any case: the tools array alone ({plan.tools_tokens:,} tokens, "
                f"{plan.display_tokenizer}) is larger than the context length ({Q.length_label(context)}), and a listing only adds to it.")
    return why


def cost_verdict(plan: Plan) -> None:
    """When tool search makes the request larger than sending every schema: say so, with the cost."""
    words = Q.costs_more_words(plan)
    if words:
        st.error(f"{words[0].upper()}{words[1:]}.", icon=":material/payments:")


def context_overflow(plan: Plan, context_length: int | None) -> None:
    """Warn when a request's tools alone are larger than the context length, or when only tool search
    makes the request fit (:func:`~toolsearch.analysis.quantities.context_overflow_words`, as ``plan``
    prints it)."""
    words = Q.context_overflow_words(plan, context_length)
    if words:
        st.warning(f"{words[0].upper()}{words[1:]}.", icon=":material/warning:")


def planning_tokenizer_note(planning_tokenizer: str) -> None:
    """Say that the reference decides with chars4 when another planning tokenizer is chosen."""
    if planning_tokenizer != C.DEFAULT_TOKENIZER:
        st.info(f"Planning tokenizer {planning_tokenizer}: the reference harness decides whether a listing fits with "
                "chars4 (characters ÷ 4), so forms and tiers here can differ from the harness's. Choose chars4 in "
                "the sidebar to see the harness's own decisions.")

"""Signals shared by the Overview, What-the-model-sees and Tuning pages: the verdict when tool
search costs more than sending every schema, a request larger than the context, the tier-2 banner,
and the note that the reference decides with chars4. Every figure comes from the plan."""

from __future__ import annotations

import streamlit as st

from toolsearch.engine import constants as C
from toolsearch.engine.plan import Plan
from toolsearch.analysis.strategies import ALL_UPFRONT, STRATEGY_LABELS

#: Names and tooltips used for the same quantities on every page.
TOOLS_ARRAY = "Tools array with tool search"
TOOLS_ARRAY_HELP = ("The model-visible tools array at these settings: visible tools plus the three bridge tools with "
                    "the embedded listing (in tier 0, every schema as is). The same number on every page.")
ALL_SCHEMAS = "All schemas up front"
ALL_SCHEMAS_HELP = ("Every registered tool's full definition in one tools array, estimated the way the reference "
                    "does (chars4 rounds once over the whole array, RB §3). The Costs page counts each tool alone and "
                    "the Strategies page's 'All up front' counts each prompt piece alone, so their sums can be "
                    "higher.")
#: The strategy that sends everything up front (its name in every Strategies table and chart).
ALL_UPFRONT_STRATEGY = STRATEGY_LABELS[ALL_UPFRONT]
#: Under the Overview's cost metrics: what "All schemas up front" counts and why the Strategies page's
#: "All up front" strategy shows a higher figure for the same catalog.
ALL_SCHEMAS_CAPTION = (f"{ALL_SCHEMAS}: the tools array alone, every tool's full definition, estimated once over the "
                       "whole array as the reference does (RB §3). The Strategies page's “All up front” strategy "
                       "counts each tool definition alone and adds the skill listing when skills are loaded, so it shows "
                       "more tokens for the same catalog.")


def all_upfront_note(upfront_tokens: int, breakdown: dict[str, int], tokenizer: str,
                     eager_tokens: int | None) -> str:
    """Why the Strategies page's "All up front" differs from the Overview's "All schemas up front".

    Args:
        upfront_tokens: the strategy's prompt before the first turn (tokens, ``tokenizer``).
        breakdown: its tokens per prompt piece (``{"schema": …, "skill listing": …}``).
        eager_tokens: the Overview's figure for the same catalog and tokenizer, or ``None`` when
            the page compares another catalog (the worked example).

    Returns:
        One sentence naming what each figure counts, with both numbers and the difference.
    """
    pieces = " + ".join(f"{n:,} ({'tool definitions, each counted alone' if p == 'schema' else p})"
                        for p, n in breakdown.items() if n)
    text = (f"{ALL_UPFRONT_STRATEGY}: {upfront_tokens:,} tokens ({tokenizer}) before the first turn = {pieces}.")
    if eager_tokens is None:
        return text + (f" The Overview's “{ALL_SCHEMAS}” counts the sidebar's catalog, not this one.")
    diff = upfront_tokens - eager_tokens
    return text + (f" The Overview's “{ALL_SCHEMAS}” ({eager_tokens:,}) is the tools array alone, estimated once "
                   f"over the whole array as the reference does (RB §3), with no skills: "
                   + (f"{diff:,} tokens fewer." if diff > 0 else f"{-diff:,} tokens more." if diff < 0 else "the same."))


def tier2_banner(plan: Plan) -> None:
    """A prominent warning in tier 2: the model sees no tool names at all."""
    if plan.activated and plan.tier == 2:
        what = ("one summary line per server" if plan.listing_form == "groups"
                else "no listing at all, only the bridge tools' own text")
        st.error(f"Tier 2: the model sees no tool names, {what}. It has to find every deferred tool with "
                 "tool_search before it can use it. Raise listing_max_tokens or threshold_pct (the Tuning page "
                 "shows what each reaches).", icon=":material/report:")


def cost_verdict(plan: Plan) -> None:
    """When tool search makes the request larger than sending every schema: say so, with the cost."""
    extra = plan.tools_tokens - plan.eager_tokens
    if plan.activated and extra > 0:
        st.error(f"Tool search adds {extra:,} tokens per request here; consider `enabled: off`.", icon=":material/payments:")


def context_overflow(plan: Plan, context_length: int | None) -> None:
    """Warn when a request's tools alone are larger than the context length."""
    if not context_length:
        return
    if plan.tools_tokens > context_length:
        st.warning(f"The tools array alone ({plan.tools_tokens:,} tokens, {plan.display_tokenizer}) is larger than "
                   f"the context length ({context_length:,} tokens): no request with these settings fits the model.",
                   icon=":material/warning:")
    elif plan.eager_tokens > context_length:
        st.warning(f"Sending every schema up front ({plan.eager_tokens:,} tokens, {plan.display_tokenizer}) would "
                   f"not fit the context length ({context_length:,} tokens); with tool search the request fits.",
                   icon=":material/warning:")


def planning_tokenizer_note(planning_tokenizer: str) -> None:
    """Say that the reference decides with chars4 when another planning tokenizer is chosen."""
    if planning_tokenizer != C.DEFAULT_TOKENIZER:
        st.info(f"Planning tokenizer {planning_tokenizer}: the reference harness decides whether a listing fits with "
                "chars4 (characters ÷ 4), so forms and tiers here can differ from the harness's. Choose chars4 in "
                "the sidebar to see the harness's own decisions.")

"""Signals shared by the Overview, What-the-model-sees and Tuning pages: the verdict when tool
search costs more than sending every schema, a request larger than the context, the tier-2 banner,
and the note that the reference decides with chars4. Every figure comes from the plan."""

from __future__ import annotations

import streamlit as st

from toolsearch.engine import constants as C
from toolsearch.engine.plan import Plan

#: Names and tooltips used for the same quantities on every page.
TOOLS_ARRAY = "Tools array with tool search"
TOOLS_ARRAY_HELP = ("The model-visible tools array at these settings: visible tools plus the three bridge tools with "
                    "the embedded listing (in tier 0, every schema as is). The same number on every page.")
ALL_SCHEMAS = "All schemas up front"
ALL_SCHEMAS_HELP = ("Every registered tool's full definition in one tools array, estimated the way the reference "
                    "does (chars4 rounds once over the whole array, RB §3). The Costs page counts each tool alone and "
                    "the Strategies page's 'All up front' counts each prompt piece alone, so their sums can be "
                    "higher.")


def tier2_banner(plan: Plan) -> None:
    """A prominent warning in tier 2: the model sees no tool names at all."""
    if plan.activated and plan.tier == 2:
        what = ("one summary line per server" if plan.listing_form == "groups"
                else "no listing at all, only the bridge tools' own text")
        st.error(f"Tier 2: the model sees no tool names, {what}. It has to find every deferred tool with "
                 "tool_search before it can use it. Raise listing_max_tokens or threshold_pct (the Tuning page "
                 "shows what each reaches).", icon="🚨")


def cost_verdict(plan: Plan) -> None:
    """When tool search makes the request larger than sending every schema: say so, with the cost."""
    extra = plan.tools_tokens - plan.eager_tokens
    if plan.activated and extra > 0:
        st.error(f"Tool search adds {extra:,} tokens per request here; consider `enabled: off`.", icon="💸")


def context_overflow(plan: Plan, context_length: int | None) -> None:
    """Warn when a request's tools alone are larger than the context length."""
    if not context_length:
        return
    if plan.tools_tokens > context_length:
        st.warning(f"The tools array alone ({plan.tools_tokens:,} tokens, {plan.display_tokenizer}) is larger than "
                   f"the context length ({context_length:,} tokens): no request with these settings fits the model.",
                   icon="⚠️")
    elif plan.eager_tokens > context_length:
        st.warning(f"Sending every schema up front ({plan.eager_tokens:,} tokens, {plan.display_tokenizer}) would "
                   f"not fit the context length ({context_length:,} tokens); with tool search the request fits.",
                   icon="⚠️")


def planning_tokenizer_note(planning_tokenizer: str) -> None:
    """Say that the reference decides with chars4 when another planning tokenizer is chosen."""
    if planning_tokenizer != C.DEFAULT_TOKENIZER:
        st.info(f"Planning tokenizer {planning_tokenizer}: the reference harness decides whether a listing fits with "
                "chars4 (characters ÷ 4), so forms and tiers here can differ from the harness's. Choose chars4 in "
                "the sidebar to see the harness's own decisions.")

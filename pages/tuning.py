"""Tuning: which threshold_pct and listing_max_tokens give which listing, and the settings a
reviewer is looking for. Every number comes from ``toolsearch.sweep``; this page only lays it out."""

import pandas as pd
import streamlit as st

from pages import charts, common
from toolsearch.config import dump_config_block
from toolsearch.report import GOALS
from toolsearch.sweep import (HEATMAP_CONTEXT_LENGTHS, HEATMAP_THRESHOLD_PCTS, Ladder, curve_bounds,
                              curve_context_lengths,
                              form_grid, listing_ladder, recommend)

GOAL_WORDS = dict(GOALS)


def ladder_for(v: common.View) -> Ladder:
    """The listing ladder for the sidebar's catalog, enabled/listing/defer and planning tokenizer.

    It does not depend on threshold_pct, listing_max_tokens or the context length, so it is kept
    across slider moves (one entry per inspector object and setting; the entry holds the
    inspector, so its ``id`` cannot be reused while the entry exists).
    """
    key = (id(v.inspector), v.config.enabled, v.config.listing, v.config.defer, v.tokenizer)
    memo = st.session_state.setdefault("_tuning_ladders", {})
    hit = memo.get(key)
    if hit is None or hit[0] is not v.inspector:
        if len(memo) >= 8:
            memo.clear()
        hit = memo[key] = (v.inspector, listing_ladder(v.inspector.planner, v.config, v.tokenizer))
    return hit[1]


def ctx_text(n: int | None) -> str:
    return f"{n:,} tokens" if n else "unknown"


v = common.view()
st.title("Tuning")
if common.require_catalog(v):
    cfg, ctx = v.config, v.context_length
    ladder = ladder_for(v)
    common.tier_badge(v.plan)
    st.caption(f"Sidebar: context length {ctx_text(ctx)} · threshold_pct {cfg.threshold_pct:g}% · "
               f"listing_max_tokens {cfg.listing_max_tokens:,} tokens · planning tokenizer {ladder.planning_tokenizer}. "
               "The listing form depends only on the budget = min(listing_max_tokens, threshold_pct% of the context "
               "length), so every chart below is read off one measurement of each degradation step.")
    if not ladder.activated:
        st.info("Tool search is not active (enabled: off, or nothing in the catalog is deferrable): every "
                "setting gives tier 0, so there is nothing to tune here.")
    elif not ladder.listing_enabled:
        st.info("listing: off — the tool_search description never embeds a listing (tier 2, form none at every "
                "budget). Set listing to auto or on in the sidebar to tune the budget.")

    # (a) heatmap ------------------------------------------------------------------------------
    st.subheader("Listing form over context length × threshold_pct")
    grid = form_grid(ladder, cfg, HEATMAP_CONTEXT_LENGTHS, HEATMAP_THRESHOLD_PCTS)
    st.plotly_chart(charts.sweep_figure(grid, current=(ctx, cfg.threshold_pct)), key="tuning_heatmap",
                    width="stretch")
    ring = ("The ring marks the sidebar setting." if ctx else
            "Context length unknown: the sidebar setting uses the fixed 10,000-token percentage leg, so it is not marked.")
    st.caption(f"At listing_max_tokens {cfg.listing_max_tokens:,} tokens. Each cell names the form the listing "
               f"takes there; hover for the budget, the listing size and the tier. {ring}")
    with st.expander("The grid as a table"):
        st.dataframe(pd.DataFrame([{
            "context length (tokens)": p.context_length, "threshold_pct (%)": p.threshold_pct,
            "budget (tokens)": p.budget, "decided by": p.budget_winner, "tier": p.tier, "form": p.listing_form,
            "listing (tokens)": p.listing_tokens} for p in grid]), hide_index=True, width="stretch", key="tuning_grid")

    # (b) listing tokens vs budget ---------------------------------------------------------------
    st.subheader("Listing tokens vs budget over context length")
    low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens,
                             min(HEATMAP_CONTEXT_LENGTHS[0], ctx or HEATMAP_CONTEXT_LENGTHS[0]),
                             max(HEATMAP_CONTEXT_LENGTHS[-1], ctx or HEATMAP_CONTEXT_LENGTHS[-1]))
    curve = form_grid(ladder, cfg, curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens, low, high),
                      [cfg.threshold_pct])
    sizes = ladder.sizes()
    st.plotly_chart(charts.listing_curve_figure(curve, sizes, ctx), key="tuning_curve", width="stretch")
    if sizes:
        st.caption(f"At threshold_pct {cfg.threshold_pct:g}% and listing_max_tokens {cfg.listing_max_tokens:,} tokens. "
                   "The budget grows with the context length until the cap flattens it; where it reaches a dashed "
                   "line, that form fits (full listing "
                   f"{sizes.get('full', 0):,} tokens, names listing {sizes.get('names', 0):,} tokens, all summary "
                   f"lines {sizes.get('groups', 0):,} tokens; in between, the largest servers collapse one by one).")

    # (c) the settings a reviewer is looking for --------------------------------------------------
    st.subheader("Settings a reviewer is looking for")
    st.caption(f"For the sidebar's context length ({ctx_text(ctx)}): the smallest budget that reaches each form, "
               "the threshold_pct and listing_max_tokens that give it (rounded up to the slider steps of 0.5% and "
               "100 tokens), and from which context length the current threshold_pct and cap reach it.")
    recs = {goal: recommend(ladder, cfg, ctx, goal) for goal, _ in GOALS}

    def pct_cell(rec, short: bool = False) -> str:
        if rec.budget is None:
            return "—"
        if rec.threshold_pct is not None:
            return f"{rec.threshold_pct:g}%"
        if not ctx:  # unknown context: the percentage leg is a fixed 10,000 tokens
            if short:
                return "any" if rec.reachable else "not reachable"
            return ("any (context unknown: fixed 10,000-token leg)" if rec.reachable
                    else "not reachable (context unknown: fixed 10,000-token leg)")
        return "over 100%" if short else "over 100% (not reachable)"

    def from_cell(rec) -> str:
        if rec.context_length_from is None:
            return "never (cap or threshold_pct too small)"
        return f"{rec.context_length_from:,} tokens"

    st.table(pd.DataFrame([{
        "goal": GOAL_WORDS[goal],
        "smallest budget (tokens)": f"{rec.budget:,}" if rec.budget is not None else "not reachable",
        f"threshold_pct at {ctx_text(ctx)}": pct_cell(rec),
        "listing_max_tokens ≥ (tokens)": f"{rec.listing_max_tokens:,}" if rec.listing_max_tokens else "—",
        "from context length (current pct and cap)": from_cell(rec),
        "met now": "yes" if rec.met else "no",
    } for goal, rec in recs.items()]).set_index("goal"))

    goal = st.selectbox("Goal", [g for g, _ in GOALS], index=1, key="tuning_goal",
                        format_func=lambda g: GOAL_WORDS[g])
    rec = recs[goal]
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Smallest budget", f"{rec.budget:,} tokens" if rec.budget is not None else "not reachable",
              help="The smallest min(listing_max_tokens, percentage leg) that reaches the goal (binary search over "
                   "0–60,000 tokens).")
    m2.metric(f"threshold_pct at {ctx_text(ctx)}", pct_cell(rec, short=True))
    m3.metric("listing_max_tokens", f"{rec.listing_max_tokens:,} tokens" if rec.listing_max_tokens else "—")
    m4.metric("Met now", "yes" if rec.met else "no")

    tier1 = recs["mixed"]
    facts = [f"At threshold_pct **{cfg.threshold_pct:g}%** and listing_max_tokens **{cfg.listing_max_tokens:,} tokens**:"]
    if tier1.context_length_from is None:
        facts.append("- tier 2 (summary lines or a bare bridge) at every context length")
    elif tier1.context_length_below is not None:
        facts.append(f"- tier 2 up to a context length of **{tier1.context_length_below:,} tokens**; "
                     f"tier 1 from {tier1.context_length_from:,} tokens")
    else:
        facts.append("- tier 1 at every context length")
    for g in ("names", "full"):
        r = recs[g]
        if r.budget is None:
            facts.append(f"- {GOAL_WORDS[g]}: never (the listing is larger than 60,000 tokens, or listing is off)")
        elif r.context_length_from is None:
            why = (f"needs a budget of {r.budget:,} tokens; the cap is {cfg.listing_max_tokens:,}"
                   if cfg.listing_max_tokens < r.budget else f"needs a budget of {r.budget:,} tokens")
            facts.append(f"- {GOAL_WORDS[g]}: never at these settings ({why})")
        else:
            facts.append(f"- {GOAL_WORDS[g]}: from a context length of **{r.context_length_from:,} tokens**")
    if ladder.activated:
        st.markdown("\n".join(facts))

    # (d) the tools.tool_search block ----------------------------------------------------------
    st.subheader("The tools.tool_search block")
    apply = st.toggle(f"Apply the recommended threshold_pct and listing_max_tokens for: {GOAL_WORDS[goal]}",
                      key="tuning_apply", disabled=not rec.reachable,
                      help="Only when the goal can be reached at the sidebar's context length.")
    chosen = rec.apply(cfg) if apply and rec.reachable else cfg
    block = dump_config_block(chosen)
    if chosen is not cfg:
        check = v.plan_for(ctx, chosen)
        st.success(f"With these values at {ctx_text(ctx)}: budget {check.budget:,} tokens → tier {check.tier}, "
                   f"form {check.listing_form}, listing {check.listing_tokens:,} tokens.")
    st.code(block, language="yaml")
    st.download_button("Download tool_search.yaml", block, file_name="tool_search.yaml", mime="application/x-yaml",
                       key="tuning_download", icon="⬇️")

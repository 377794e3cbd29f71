"""What the model sees: the exact tools array and tool_search description, and a comparison."""

import difflib
import json

import pandas as pd
import streamlit as st

from pages import common, signals
from toolsearch.catalog import to_json

v = common.view()
st.title("What the model sees")
if common.require_catalog(v):
    plan = v.plan
    common.tier_badge(plan)
    signals.tier2_banner(plan)
    signals.planning_tokenizer_note(plan.planning_tokenizer)
    tools_json = json.dumps(plan.tools, ensure_ascii=False, indent=2)
    c1, c2, c3 = st.columns(3)
    c1.metric(f"{signals.TOOLS_ARRAY} ({plan.display_tokenizer})", common.fmt_tokens(plan.tools_tokens),
              f"{len(plan.tools)} tool definitions", delta_color="off", delta_arrow="off", help=signals.TOOLS_ARRAY_HELP)
    c2.metric(f"Listing ({plan.planning_tokenizer})", common.fmt_tokens(plan.listing_tokens), f"budget {plan.budget:,} tokens", delta_color="off", delta_arrow="off")
    desc = plan.tool_search_description or ""
    c3.metric("tool_search description", f"{len(desc):,} characters",
              f"{-(-len(desc) // 4):,} tokens (chars4)" if desc else "no bridge in tier 0", delta_color="off", delta_arrow="off",
              help="The description text alone, counted raw; inside the tools array it is JSON-escaped and sits in "
                   "the tool_search definition, so the tools array figure is larger.")
    signals.cost_verdict(plan)
    signals.context_overflow(plan, v.context_length)

    tab_desc, tab_array, tab_servers = st.tabs(["tool_search description", "Tools array (JSON)", "Per-server states"])
    with tab_desc:
        if plan.tool_search_description is None:
            st.info("Tier 0: tool search is not active, so there is no tool_search tool; every schema is sent as is.")
        else:
            st.caption("Exactly as embedded in the tool_search definition. Tool names and descriptions are shown as plain text.")
            st.code(common.visible(plan.tool_search_description), language=None, wrap_lines=True)
            st.download_button("Download description (.txt)", plan.tool_search_description,
                               file_name="tool_search_description.txt", mime="text/plain")
    with tab_array:
        st.caption("The model-visible tools array in order: visible tools, then tool_search, tool_describe, tool_call.")
        st.code(common.visible(tools_json), language="json", height=500)
        st.download_button("Download tools array (.json)", tools_json, file_name="tools.json", mime="application/json")
    with tab_servers:
        st.dataframe(common.style_states(pd.DataFrame(common.server_table(plan))), hide_index=True, width="stretch")
        if plan.collapse_order:
            st.caption("Collapse order (largest names block first, ties by label):")
            st.text(" → ".join(plan.collapse_order))

    st.subheader("Compare two settings")
    st.caption("Left: the sidebar settings. Right: another context length and threshold_pct, same catalog and cap.")
    a, b = st.columns(2)
    choice = b.selectbox("Compare with context length", common.CONTEXT_CHOICES, index=1, key="cmp_ctx")
    custom = None
    if choice == "custom":
        custom = b.number_input("Custom context length (tokens)", min_value=1, value=64_000, step=1000, key="cmp_ctx_custom")
    other_pct = b.slider("threshold_pct (%) for the right side", 0.0, 100.0, float(v.config.threshold_pct), 0.5, key="cmp_pct")
    other_ctx = None if choice == "unknown" else (int(custom) if choice == "custom" else common.PRESET_LABELS[choice])
    other = v.plan_for(other_ctx, v.config.with_overrides(threshold_pct=other_pct))
    rows = [
        {"": "context length", "left": f"{v.context_length:,}" if v.context_length else "unknown",
         "right": f"{other_ctx:,}" if other_ctx else "unknown"},
        {"": "budget (tokens)", "left": f"{plan.budget:,}", "right": f"{other.budget:,}"},
        {"": "tier", "left": str(plan.tier), "right": str(other.tier)},
        {"": "form", "left": plan.listing_form, "right": other.listing_form},
        {"": "listing (tokens)", "left": f"{plan.listing_tokens:,}", "right": f"{other.listing_tokens:,}"},
        {"": "tools array (tokens)", "left": f"{plan.tools_tokens:,}", "right": f"{other.tools_tokens:,}"},
    ]
    left_states = {s.name: s.state for s in plan.servers}
    for s in other.servers:
        if left_states.get(s.name) != s.state:
            rows.append({"": f"server {s.name}", "left": left_states.get(s.name, "—"), "right": s.state})
    same = (plan.tool_search_description == other.tool_search_description and plan.tools == other.tools)
    a.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if same:
        st.success("Identical bytes: both settings send exactly the same tools array (the prompt cache would hit).")
    else:
        left_text = (plan.tool_search_description or "(no tool_search: tier 0)").splitlines()
        right_text = (other.tool_search_description or "(no tool_search: tier 0)").splitlines()
        diff = "\n".join(difflib.unified_diff(left_text, right_text, "left (sidebar)", "right (comparison)", lineterm="", n=1))
        st.caption("Differences in the tool_search description (unified diff: − left, + right):")
        st.code(diff or "(descriptions equal; the difference is elsewhere in the tools array)", language="diff", height=400)

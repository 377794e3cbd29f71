"""What the model sees: the exact tools array and tool_search description, and a comparison."""

import json

import streamlit as st

from toolsearch.ui import common, signals, textdiff
from toolsearch.ui.tables import literal_table
from toolsearch.analysis.sweep import plan_counts
from toolsearch.analysis.invisible import reveal_data
from toolsearch.engine.transport import TRANSPORTS, transport_note, wire_tools

#: The tools array is shown whole up to this many characters of JSON; above it, one page of
#: tools at a time (the whole array stays one click away as a download).
FULL_ARRAY_CHARS = 150_000
TOOLS_PER_PAGE = 25
TABS = ["tool_search description", "Tools array (JSON)", "Per-server states", "Compare two settings"]


def tools_json(tools: list) -> str:
    """The tools array as pretty-printed JSON (2-space indent, non-ASCII kept)."""
    return json.dumps(tools, ensure_ascii=False, indent=2)


def show_tools_array(plan) -> None:
    """The model-visible tools array: whole when small, else paginated; text or a tree view."""
    transport = st.selectbox("Provider transport", TRANSPORTS, key="mv_transport",
                             help="Where a provider reserves tool_search (OpenAI Responses, xAI), the bridge goes out "
                                  "as hermes_tool_search and is mapped back before dispatch.")
    tools = plan.tools if transport == TRANSPORTS[0] else wire_tools(plan.tools, transport, plan.activated)
    st.caption("The model-visible tools array in order: visible tools, then tool_search, tool_describe, tool_call."
               + ("" if transport == TRANSPORTS[0] else " " + transport_note(transport, plan.activated) + "."))
    text = tools_json(tools)
    mode = st.segmented_control("View", ["Text", "Tree"], default="Text", key="mv_array_view",
                                help="Text: the exact pretty-printed JSON. Tree: the same array as a collapsible tree.")
    st.download_button("Download tools array (.json)", lambda: tools_json(tools), file_name="tools.json",
                       mime="application/json", key="mv_array_download")
    shown = tools
    if len(text) > FULL_ARRAY_CHARS:
        pages = -(-len(tools) // TOOLS_PER_PAGE)
        page = st.number_input(f"Page (of {pages:,}; {TOOLS_PER_PAGE} tools a page)", min_value=1, max_value=pages,
                               value=1, step=1, key="mv_array_page")
        start = (int(page) - 1) * TOOLS_PER_PAGE
        shown = tools[start:start + TOOLS_PER_PAGE]
        st.caption(f"{len(text):,} characters of JSON for {len(tools):,} tools: showing tools "
                   f"{start + 1:,}–{start + len(shown):,} (array positions). The download has the whole array.")
        text = tools_json(shown)
    if mode == "Tree":
        st.json(reveal_data(shown), expanded=1)
    else:
        st.code(common.visible(text), language="json", height=500 if text.count("\n") > 25 else "content")


def show_compare(v, plan) -> None:
    """Side by side: the sidebar settings against another context length and threshold_pct."""
    st.caption("Left: the sidebar settings. Right: another context length and threshold_pct, same catalog and cap.")
    c1, c2 = st.columns(2)
    choice = c1.selectbox("Compare with context length", common.CONTEXT_CHOICES, index=1, key="cmp_ctx")
    custom = None
    if choice == "custom":
        custom = c1.number_input("Custom context length (tokens)", min_value=1, value=64_000, step=1000, key="cmp_ctx_custom")
    other_pct = c2.slider("threshold_pct (%) for the right side", 0.0, 100.0, float(v.config.threshold_pct), 0.5,
                          format="%.1f", key="cmp_pct")
    other_ctx = None if choice == "unknown" else (int(custom) if choice == "custom" else common.PRESET_LABELS[choice])
    other = v.plan_for(other_ctx, v.config.with_overrides(threshold_pct=other_pct))
    rows = [
        {"": "context length", "left": f"{v.context_length:,}" if v.context_length else "unknown",
         "right": f"{other_ctx:,}" if other_ctx else "unknown"},
        {"": "budget (tokens)", "left": f"{plan.budget:,}", "right": f"{other.budget:,}"},
        {"": "tier", "left": str(plan.tier), "right": str(other.tier)},
        {"": "form", "left": plan_counts(plan).label, "right": plan_counts(other).label},
        {"": "listing (tokens)", "left": f"{plan.listing_tokens:,}", "right": f"{other.listing_tokens:,}"},
        {"": f"{signals.TOOLS_ARRAY.lower()} (tokens)", "left": f"{plan.tools_tokens:,}",
         "right": f"{other.tools_tokens:,}"},
    ]
    left_states = {s.name: s.state for s in plan.servers}
    for s in other.servers:
        if left_states.get(s.name) != s.state:
            rows.append({"": f"server {s.name}", "left": left_states.get(s.name, "—"), "right": s.state})
    state_css = common.STATE_STYLES["state"]  # the form and the server states in the state colors

    def colored(row, column: str) -> str:
        states = row[""] == "form" or row[""].startswith("server ")
        # the form row reads "mixed · 9 of 10 servers named (…)": colored by its first word, the form
        return state_css(str(row[column]).split(" ")[0]) if states and column in ("left", "right") else ""

    literal_table(rows, key="mv_compare", cell_css=colored)
    same = (plan.tool_search_description == other.tool_search_description and plan.tools == other.tools)
    if same:
        st.success("Identical bytes: both settings send exactly the same tools array (the prompt cache would hit).")
        return
    left_text = (plan.tool_search_description or "(no tool_search: tier 0)").splitlines()
    right_text = (other.tool_search_description or "(no tool_search: tier 0)").splitlines()
    if left_text == right_text:
        st.info("The tool_search descriptions are equal; the difference is elsewhere in the tools array.")
        return
    st.caption(textdiff.caption())
    st.html(textdiff.side_by_side(left_text, right_text, left_title="left (sidebar settings)",
                                  right_title="right (comparison)", key="mv_compare_diff"))


@st.fragment
def body(v, plan) -> None:
    """The tabs. A fragment: switching tabs, paging the array or changing the comparison reruns
    only this part; only the open tab is drawn (and sent to the browser)."""
    tab_desc, tab_array, tab_servers, tab_compare = st.tabs(TABS, key="mv_tab", on_change="rerun")
    if tab_desc.open:
        with tab_desc:
            if plan.tool_search_description is None:
                st.info("Tier 0: tool search is not active, so there is no tool_search tool; every schema is sent as is.")
            else:
                st.caption("Exactly as embedded in the tool_search definition. Tool names and descriptions are shown as plain text.")
                st.code(common.visible(plan.tool_search_description), language=None, wrap_lines=True,
                        height=600 if plan.tool_search_description.count("\n") > 30 else "content")
                st.download_button("Download description (.txt)", plan.tool_search_description,
                                   file_name="tool_search_description.txt", mime="text/plain")
    if tab_array.open:
        with tab_array:
            show_tools_array(plan)
    if tab_servers.open:
        with tab_servers:
            common.server_dataframe(plan)
            if plan.collapse_order:
                st.caption("Collapse order (largest names block first, ties by label):")
                st.text(" → ".join(plan.collapse_order))
    if tab_compare.open:
        with tab_compare:
            show_compare(v, plan)


v = common.view()
st.title("What the model sees")
if common.require_catalog(v):
    plan = v.plan
    common.tier_badge(plan)
    signals.tier2_banner(plan)
    signals.planning_tokenizer_note(plan.planning_tokenizer)
    # A wrapping row of content-wide metrics: at 1024 px a metric moves to the next line instead of
    # cutting its label.
    c1 = c2 = c3 = st.container(horizontal=True, gap="large")
    c1.metric(f"{signals.TOOLS_ARRAY} (tokens, {plan.display_tokenizer})", f"{plan.tools_tokens:,}",
              f"{len(plan.tools):,} tool definitions", delta_color="off", delta_arrow="off", help=signals.TOOLS_ARRAY_HELP,
              width="content")
    c2.metric(f"Listing (tokens, {plan.planning_tokenizer})", f"{plan.listing_tokens:,}", f"budget {plan.budget:,} tokens",
              delta_color="off", delta_arrow="off", width="content")
    desc = plan.tool_search_description or ""
    c3.metric("tool_search description (characters)", f"{len(desc):,}",
              f"{-(-len(desc) // 4):,} tokens (chars4)" if desc else "no bridge in tier 0", delta_color="off", delta_arrow="off",
              help="The description text alone, counted raw; inside the tools array it is JSON-escaped and sits in "
                   "the tool_search definition, so the tools array figure is larger.", width="content")
    signals.cost_verdict(plan)
    signals.context_overflow(plan, v.context_length)

    body(v, plan)

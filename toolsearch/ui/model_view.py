"""What the model sees: the exact tools array and tool_search description, and the per-server states.
Comparing two settings is the Compare & collapse page's first section (toolsearch/ui/compare.py)."""

import json
from pathlib import Path

import streamlit as st

from toolsearch.analysis.quantities import tool_search_description_tokens
from toolsearch.ui import common, signals
from toolsearch.engine.invisible import json_text, reveal_data
from toolsearch.engine.transport import TRANSPORTS, transport_note, wire_tools

#: The tools array is shown whole up to this many characters of JSON; above it, one page of
#: tools at a time (the whole array stays one click away as a download).
FULL_ARRAY_CHARS = 150_000
TOOLS_PER_PAGE = 25
TABS = ["tool_search description", "Tools array (JSON)", "Per-server states"]


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
    st.download_button("Download tools array (.json)", lambda: json_text(tools), file_name="tools.json",  # as plan --json
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
        st.code(common.visible(text), language="json", wrap_lines=True,  # long descriptions read whole
                height=500 if text.count("\n") > 25 else "content")


@st.fragment
def body(v, plan) -> None:
    """The tabs. A fragment: switching tabs or paging the array reruns only this part; only the
    open tab is drawn (and sent to the browser)."""
    tab_desc, tab_array, tab_servers = st.tabs(TABS, key="mv_tab", on_change="rerun")
    if tab_desc.open:
        with tab_desc:
            if plan.tool_search_description is None:
                st.info("Tier 0: tool search is not active, so there is no tool_search tool; every schema is sent as is.")
            else:
                hidden = common.visible(plan.tool_search_description) != plan.tool_search_description
                st.caption("Exactly as embedded in the tool_search definition. Tool names and descriptions are shown as "
                           "plain text." if not hidden else
                           "As embedded in the tool_search definition, except that each invisible character is shown as "
                           "a marker that stands in for it: its code point in angle brackets, such as ⟨U\\+202E⟩ for a "
                           "right-to-left override. The model receives the characters themselves; the download below "
                           "holds the exact text. Tool names and descriptions are shown as plain text.")
                st.code(common.visible(plan.tool_search_description), language=None, wrap_lines=True,
                        height=600 if plan.tool_search_description.count("\n") > 30 else "content")
                # a lone surrogate (a JSON catalog's "\ud800") has no UTF-8 form: written as that escape
                st.download_button("Download description (.txt)",
                                   plan.tool_search_description.encode("utf-8", "backslashreplace"),
                                   file_name="tool_search_description.txt", mime="text/plain")
    if tab_array.open:
        with tab_array:
            show_tools_array(plan)
    if tab_servers.open:
        with tab_servers:
            common.server_dataframe(plan)
            if plan.collapse_order:
                st.caption("Collapse order (largest names block first, ties by label):")
                st.text(common.visible(" → ".join(plan.collapse_order)))


v = common.view()
st.title("What the model sees")
st.caption("The exact tools array and tool_search description the model receives at the sidebar's settings, "
           "and why each server's part of the listing is in the state it is.")
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
              f"{tool_search_description_tokens(desc, plan.planning_tokenizer):,} tokens ({plan.planning_tokenizer})"
              if desc else "no bridge in tier 0", delta_color="off", delta_arrow="off",
              help="The description text alone, counted raw; inside the tools array it is JSON-escaped and sits in "
                   "the tool_search definition, so the tools array figure is larger.", width="content")
    signals.cost_verdict(plan)
    signals.context_overflow(plan, v.context_length)

    st.page_link(str(Path(__file__).with_name("cache_diff.py")), icon=":material/difference:",
                 label="Compare with other settings or another catalog: Compare & collapse")
    body(v, plan)

"""Costs: what each server and tool costs in tokens, and which block the current settings use."""

import pandas as pd
import streamlit as st

from toolsearch.analysis import charts
from toolsearch.ui import common
from toolsearch.ui.tables import literal_table
from toolsearch.analysis import quantities as Q

TOP_TOOLS = 50

@st.fragment
def server_costs(v, plan) -> None:
    """The per-server chart and its scale toggle (a fragment: the toggle reruns only this chart)."""
    log_y = st.toggle("Log scale (tokens)", value=True, key="costs_log_y",
                      help="On by default: full schemas are often 10–1000× a server's listing block. "
                           "Bars start at 1 token; zero-cost bars do not show on a log axis.")
    st.plotly_chart(common.figure(v, "server_costs", lambda: charts.server_costs_figure(plan, log_y), log_y),
                    key="costs_servers", width="stretch")


@st.fragment
def tool_tabs(v, plan, rows, tk: str) -> None:
    """The costliest tools as a treemap, a bar chart or a table, in tabs: only the open tab is drawn
    (and sent), and a fragment, so switching tabs reruns this part alone."""
    tree_tab, bar_tab, table_tab = st.tabs(["Treemap (server → tool)", "Bar chart", "Table"], key="costs_tools_tab",
                                           on_change="rerun")
    if tree_tab.open:  # only the open tab is drawn (and sent)
        with tree_tab:
            st.plotly_chart(common.figure(v, "tool_tree", lambda: charts.tool_tree_figure(
                rows, tk, plan.budget if plan.activated else None)), key="costs_tool_tree", width="stretch")
    if bar_tab.open:
        with bar_tab:
            st.plotly_chart(common.figure(v, "tool_bar", lambda: charts.tool_bar_figure(
                rows, tk, plan.budget if plan.activated else None)), key="costs_tool_bar", width="stretch")
    if table_tab.open:
        with table_tab:
            literal_table([{
                "tool": common.table_name(r.name), "server": common.table_name(r.server), f"{Q.TOOL_SCHEMA_COLUMN} (tokens, {tk})": r.tokens,
                "deferred": r.deferred, "server state": r.state,
                "description (first 80 characters)": r.description[:80],
            } for r in rows], key="costs_tools_table", styles={"server state": common.STATE_STYLES["state"]},
                nowrap=("server state",))


v = common.view()
st.title("Costs")
if common.require_catalog(v):
    plan = v.plan
    ins = v.inspector
    common.tier_badge(plan)
    tk = plan.display_tokenizer
    st.caption(f"Token figures in the display tokenizer ({tk}). Budget at the current settings: "
               f"{plan.budget:,} tokens; listing: {plan.listing_tokens:,} tokens ({plan.planning_tokenizer}).")

    st.subheader("The listing against the budget")
    if not plan.activated:
        st.info("Tier 0: tool search is not active, so there is no listing and no budget to fill; every schema "
                "is sent as is (see the per-server costs below).")
    elif plan.deferred_count:
        st.caption("One bar: the listing sent at these settings, one segment per server in collapse order "
                   "(the first to collapse on the left), colored by its state; the white segment is the header "
                   f"and framing text. Tokens in the planning tokenizer ({plan.planning_tokenizer}), the one that "
                   "decides what fits. The dashed line is the budget; the black line marks the cut. Segments are "
                   "labeled #rank (and the server where it fits); the key below names every segment, left to right.")
        st.plotly_chart(common.figure(v, "listing_budget", lambda: charts.listing_budget_figure(v.planning_plan)),
                        key="costs_listing_budget", width="stretch")
        st.markdown("**Key: the bar's segments, left to right**")
        common.static_or_scrolling(pd.DataFrame(charts.listing_key_rows(v.planning_plan)), key="costs_listing_key")

    st.subheader("Per-server costs")
    if plan.deferred_count == 0:
        st.info("No deferred tools in this catalog at these settings: every tool is sent with its full schema, "
                "so there is no listing and no per-server block to compare. Load a catalog with MCP or plugin "
                "servers, or name tools in the defer set.")
    else:
        st.caption("For each server, in collapse order: its tools' full schemas (what it costs without tool search) "
                   "and its group block in the listing as full lines, names only, or one summary line. The outlined "
                   "bar is the one the current settings use; the label under each server names its state. The "
                   "dashed line is the budget of the whole listing.")
        server_costs(v, plan)
        table_box = st.expander("Per-server table", key="costs_server_table", on_change="rerun")
        if table_box.open:  # drawn only when opened
            with table_box:
                common.server_dataframe(plan)

        st.subheader("Collapse order")
        rows = charts.collapse_rows(plan)
        if not rows:
            st.info("No collapse order at these settings (tier 0: tool search is off, so nothing is listed).")
        else:
            st.caption("When the names listing does not fit the budget, servers collapse to their summary line one "
                       "at a time in this order: largest names block first (measured in characters, ties by label; "
                       f"docs/reference.md §5.4). Sizes in tokens ({tk}); the state is the result at the current settings.")
            st.plotly_chart(common.figure(v, "collapse", lambda: charts.collapse_figure(
                rows, tk, plan.budget, plan.planning_tokenizer)), key="costs_collapse", width="stretch")
            table = pd.DataFrame([{
                "collapse #": r.rank, "server": common.table_name(r.server), "group label": common.table_name(r.label),
                Q.SERVER_TOKEN_COLUMNS["names_tokens"]: r.names_tokens,
                Q.SERVER_TOKEN_COLUMNS["summary_tokens"]: r.summary_tokens, "state": r.state,
            } for r in rows])
            if all(r.label == r.server for r in rows):
                table = table.drop(columns="group label")  # same as the server everywhere: save the width
            table_box = st.expander("Collapse order table", expanded=len(rows) <= 12, key="costs_collapse_table",
                                    on_change="rerun")
            if table_box.open:  # drawn only when open
                with table_box:
                    common.static_or_scrolling(table, key="costs_collapse_order")

    st.subheader(f"Costliest tools (top {TOP_TOOLS})")
    tools = ins.registration.tools
    if not tools:
        st.info("This catalog registers no tools.")
    else:
        tokens = Q.tool_schemas(ins.planner, v.display_tokenizer)
        state_of = {s.name: s.state for s in plan.servers}
        # Per catalog and tokenizer (or defer set), not per slider move: each walks every tool.
        deferred = common.memo(ins.planner, ("deferred names", v.config.defer),
                               lambda: frozenset(t.name for t in ins.planner.deferral(v.config.defer).deferred))
        ranked, total_tokens = common.memo(ins.planner, ("costliest", v.display_tokenizer), lambda: (
            sorted(tools, key=lambda t: (-tokens[t.name], t.name))[:TOP_TOOLS],
            Q.tool_schemas_sum(ins.planner, v.display_tokenizer)))
        rows = [charts.ToolCost(server=t.server, tool=t.raw_name, name=t.name, tokens=tokens[t.name],
                                description=t.description, state=state_of.get(t.server, "visible"),
                                deferred=t.name in deferred) for t in ranked]
        shown = sum(r.tokens for r in rows)
        eager = Q.all_schemas_up_front(plan)
        extra = total_tokens - eager
        relation = ("the same as" if extra == 0 else f"{extra:,} more than" if extra > 0 else f"{-extra:,} fewer than")
        st.caption(f"{Q.TOOL_SCHEMA.name} ({tk}): each tool's full definition as compact JSON, counted on its own. "
                   f"The top {len(rows)} of {len(tools):,} tools hold {shown:,} tokens; all {len(tools):,} add up to "
                   f"{total_tokens:,}, {relation} “{Q.ALL_SCHEMAS.name}” ({eager:,}), which measures the whole "
                   "array once (chars4 rounds once, not per tool). "
                   "Treemap colors: schema size; bar colors: the server's state at the current settings. Hover for details.")
        tool_tabs(v, plan, rows, tk)

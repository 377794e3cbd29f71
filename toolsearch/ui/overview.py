"""Overview: the catalog at a glance and what tool search costs at the current settings."""

from pathlib import Path

import streamlit as st

from toolsearch.ui.tables import literal_table
from toolsearch.ui import common, signals
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.lint import hidden_character_errors
from toolsearch.analysis.wording import counted

v = common.view()
st.title("Overview")
st.caption("What one request costs at the sidebar's catalog, context length and settings, with and without tool search, "
           "and how the listing budget is decided.")
# The question a new user comes with, one click from the page they land on.
st.page_link(str(Path(__file__).with_name("tuning.py")), icon=":material/tune:",
             label="One setting to ship for every context length you run: Tuning")
if common.require_catalog(v):
    plan = v.plan
    ins = v.inspector
    st.text(common.visible_name(f"Catalog: {ins.catalog.name} · {counted(len(ins.catalog.servers), 'server')} · source: {v.source_label}"))
    common.tier_badge(plan)
    hidden = common.memo(ins.planner, ("hidden_character_errors",), lambda: hidden_character_errors(ins))
    if hidden:  # text that reorders or hides what the model reads: said here, not only on the lint page
        places = "; ".join(common.md_escape(common.visible_name(f"{f.subject()}: {f.field or 'tool'}")) for f in hidden[:5])
        st.error(f"Invisible characters the model receives ({counted(len(hidden), 'error')} of the lint rule "
                 f"hidden-characters): {places}{' …' if len(hidden) > 5 else ''}. They are shown here as markers "
                 "such as ⟨U\\+202E⟩; Search quality & lint lists each with its fix.", icon=":material/visibility_off:")
    signals.tier2_banner(plan)
    signals.planning_tokenizer_note(plan.planning_tokenizer)

    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Servers", f"{len(plan.servers):,}")
    c2.metric("Tools", f"{len(ins.registration.tools):,}", help="Registered tool definitions (after naming and filters, with the resource and prompt tools the harness adds).")
    c3.metric("Deferred tools", f"{Q.deferred_tools(plan):,}",
              help=None if plan.activated else f"Tool search is not active: {counted(plan.deferred_count, 'tool')} could be deferred.")
    c4.metric("Visible tools", f"{plan.visible_count:,}", help="Sent with their full schemas (core tools, or everything in tier 0).")
    helpers = Q.helper_tools_words(ins.registration)
    if helpers:  # the Live servers page and a server's own tools/list count fewer tools: say why
        st.caption(common.md_escape(common.visible(helpers + ".")))

    st.subheader(f"Cost per request (tokens, {plan.display_tokenizer})")
    # Values without the unit (it is in the heading); a wrapping row of content-wide metrics, so at
    # narrow widths one moves to the next line instead of cutting its label or value.
    e1 = e2 = e3 = st.container(horizontal=True, gap="large")
    eager, tools = Q.all_schemas_up_front(plan), Q.tools_array(plan)
    e1.metric(signals.ALL_SCHEMAS, f"{eager:,}",
              common.pct_of_context(eager, v.context_length), delta_color="off", delta_arrow="off",
              help=signals.ALL_SCHEMAS_HELP, width="content")
    e2.metric(signals.TOOLS_ARRAY, f"{tools:,}",
              common.pct_of_context(tools, v.context_length), delta_color="off", delta_arrow="off",
              help=signals.TOOLS_ARRAY_HELP, width="content")
    saved = Q.saved_per_request(plan)
    if saved >= 0:
        e3.metric(Q.SAVED.name, f"{saved:,}", Q.saved_share_words(plan),
                  delta_color="normal", width="content")
    else:  # a cost: red, with the verdict below
        e3.metric(Q.SAVED.name, f"{saved:,}",
                  f"-{-saved:,} tokens: tool search costs more than every schema", delta_color="normal",
                  help="Negative: the bridge tools and listing are larger than the schemas they replace.", width="content")
    st.caption(signals.ALL_SCHEMAS_CAPTION)
    signals.cost_verdict(plan)
    signals.context_overflow(plan, v.context_length)

    st.subheader("Listing budget")
    ctx = Q.length_label(v.context_length)
    # The unit follows the number, as in the report: "10,000 tokens (fixed fallback: …)".
    pct_text = (f"int({v.context_length:,} × {v.config.threshold_pct:g} / 100) = {plan.pct_leg:,} tokens"
                if v.context_length else f"{plan.pct_leg:,} tokens (fixed fallback: context length unknown)")
    st.markdown(
        f"- Context length: **{ctx}**\n"
        f"- Percentage leg: {pct_text}\n"
        f"- Cap (`listing_max_tokens`): {v.config.listing_max_tokens:,} tokens\n"
        f"- **Budget = min(cap, percentage leg) = {plan.budget:,} tokens**, decided by *{plan.budget_winner}*\n"
        f"- Listing: **{plan.listing_tokens:,} tokens** ({plan.planning_tokenizer}), "
        f"{'fits' if plan.listing_form != 'none' else ('tool search is not active (tier 0)' if not plan.activated else 'listing is off' if not v.config.listing_enabled else 'not even the summary lines fit')}")
    if plan.steps:
        st.caption(f"Degradation steps tried against the budget of {plan.budget:,} tokens (reference order: full → "
                   "names → collapse the largest server first). The first step that fits, in bold, is the listing sent.")
        common.steps_table(plan)

    st.subheader("Servers")
    common.server_dataframe(plan)

    st.subheader("Schema size by tokenizer")
    big = len(ins.registration.tools) > 500
    if big and not st.toggle("Count with o200k_base and cl100k_base too", key="bpe_sizes",
                             help="Real BPE counts of every schema take a few seconds on catalogs this large; "
                                  "they are computed once per catalog and then cached."):
        st.caption(f"{len(ins.registration.tools):,} tools: switch on the toggle to count every schema with the BPE tokenizers.")
    sizes = []
    all_col, deferred_col, array_col = (f"{q.name.lower()} (tokens)" for q in (Q.ALL_SCHEMAS, Q.DEFERRED_SCHEMAS, Q.TOOLS_ARRAY))
    for name in (("chars4",) if big and not st.session_state.get("bpe_sizes") else ("chars4", "o200k_base", "cl100k_base")):
        with st.spinner(f"Counting every schema with {name}…", show_time=True):  # seconds the first time
            other = v.inspector.plan(v.config, v.context_length, v.tokenizer, name)
        # each column under the name the metrics above and every other surface give the figure (quantities.py)
        sizes.append({"tokenizer": other.display_tokenizer, all_col: Q.all_schemas_up_front(other),
                      deferred_col: Q.deferred_schemas(other), array_col: Q.tools_array(other)})
    literal_table(sizes, key="overview_sizes", nowrap=("tokenizer",))
    above = [row["tokenizer"] for row in sizes if row[deferred_col] > row[all_col]]
    st.caption(f"{Q.ALL_SCHEMAS.name.lower()}: the whole tools array with nothing deferred, counted as one text. "
               f"{Q.DEFERRED_SCHEMAS.name.lower()}: "
               "the deferred tools' definitions, the harness's estimate (chars4 rounds once over their sum; a BPE "
               "tokenizer counts each definition alone and adds them up)."
               + (f" That is why, with {' and '.join(above)} here, the deferred schemas add up to more than the "
                  "whole array that holds them." if above else "")
               # beside "Deferred tools 0" above: say whose definitions these are
               + ("" if plan.activated else f" Tool search is not active here, so nothing is deferred: the deferred "
                  f"schemas are those of the {counted(plan.deferred_count, 'tool')} it would defer."))

    for note in plan.notes:
        st.warning(note)
    problems = [p for p in ins.registration.problems if p.severity == "info"]
    if problems:  # errors and warnings are at the top of every page (common.require_catalog)
        with st.expander(f"Catalog notes ({len(problems)})"):
            literal_table([{"severity": p.severity, "where": p.where, "message": p.message} for p in problems],
                          key="catalog_notes", nowrap=("severity",))

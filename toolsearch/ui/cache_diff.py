"""Compare & collapse: (a) compare two settings: what changes (figures, prompt cache, server
states, the description) when side B differs from the sidebar, drawn by :mod:`toolsearch.ui.compare`;
(b) the better-collapse what-if. Every number comes from ``toolsearch.analysis``
(``cachediff``, ``collapse``, ``serverpairs``, ``quantities``); catalog text (server and tool names,
descriptions, listing excerpts) is shown only through st.code, st.text and literal-text tables
(toolsearch/ui/tables.py)."""

from __future__ import annotations

import streamlit as st

from toolsearch.analysis.collapse import METHOD_HEADING, CollapseComparison, compare_collapse, method_words
from toolsearch.analysis.quantities import form_word
from toolsearch.analysis.serverpairs import collapse_pairs
from toolsearch.ui import common, compare
from toolsearch.ui.collapse_views import VERDICT_BADGE, shared as _shared
from toolsearch.ui.plan_blocks import server_pair_table

#: The collapse what-if's state columns (the same table as the Compare view's, other side names).
REFERENCE, BEST = "reference", "best (what-if)"


def show_collapse(v: common.View) -> CollapseComparison:
    """Reference vs best collapse at the sidebar settings, and over the context presets."""
    planner = v.inspector.planner
    with st.spinner("Comparing the collapse choices…", show_time=True):
        cmp = _shared(planner, ("compare", v.config, v.context_length, v.tokenizer),
                      lambda: compare_collapse(planner, v.config, v.context_length, v.tokenizer))
    st.info("**What-if, not the reference behavior.** Every other page shows the reference's greedy collapse "
            "(largest names block first, docs/reference.md §5.4). This section computes the best choice under the same budget: "
            "fewest servers collapsed, then most tool names shown, then the shortest listing (ties: the reference's "
            "collapse order).", icon=":material/science:")
    label, color = VERDICT_BADGE[cmp.verdict]
    st.badge(label, color=color)
    st.text(common.visible(f"Verdict: {cmp.summary}"))
    st.caption(f"Budget {cmp.budget:,} tokens ({cmp.tokenizer}). {METHOD_HEADING.capitalize()}: "
               f"{method_words(cmp.method, cmp.exact)}.")
    left, right = st.columns(2)
    for col, title, outcome, desc_tokens in ((left, "Reference (what the model sees)", cmp.reference,
                                              cmp.reference_description_tokens),
                                             (right, "Best choice (what-if)", cmp.best, cmp.best_description_tokens)):
        with col.container(border=True):
            st.markdown(f"**{title}**")
            row = st.container(horizontal=True, gap="medium")  # wraps rather than cutting a label
            row.metric("Form", form_word(outcome.form), width="content")
            row.metric("Servers named", f"{outcome.kept} of {cmp.groups}", width="content",
                       help="Servers whose tools are named in the listing (full lines or names only), not "
                            "collapsed to a summary line.")
            row.metric("Tool names shown", f"{outcome.names_shown:,}", width="content")
            row.metric("Listing", f"{outcome.tokens:,} tokens", f"tool_search description {desc_tokens:,} tokens",
                       delta_color="off", delta_arrow="off", width="content")
    st.caption(f"Per-server sizes in tokens ({v.plan.display_tokenizer}), as in every per-server table"
               + ("." if cmp.units == "tokens" else
                  f", and in characters: {cmp.tokenizer} counts a listing as its characters ÷ 4, rounded up once "
                  "for the whole listing, so the collapse choice adds servers up in characters."))
    server_pair_table(collapse_pairs(cmp, v.plan), key="cd_collapse_servers", left=REFERENCE, right=BEST)
    st.caption("Outlined: the what-if state differs from the reference.")
    with st.expander("The two listings (exact text)"):
        a, b = st.columns(2)
        a.caption("Reference")
        a.code(common.visible(cmp.reference.text) or "(no listing: form none)", language=None, wrap_lines=True)
        b.caption("Best choice (what-if)")
        b.code(common.visible(cmp.best.text) or "(no listing: form none)", language=None, wrap_lines=True)
    st.caption("The best collapse at each context length you run is on the Tuning page, next to the "
               "recommended settings.")
    return cmp


v = common.view()
st.title("Compare & collapse")
if common.require_catalog(v):
    st.subheader("Compare two settings")
    st.caption("What changes when one or more settings change: the figures, whether the prompt cache still hits, "
               "each server's state and the tool_search description. Side A is the sidebar: its catalog and "
               "settings. Side B starts equal to it; change any of B's settings or upload another catalog (e.g. a "
               "newer snapshot).")
    compare.show(v)
    st.divider()
    st.subheader("Better collapse (what-if)")
    show_collapse(v)

"""Report: one self-contained HTML file of the current catalog and settings, for a design review.

The HTML is built by :func:`toolsearch.report.build_report`; this page adds the plotly figures
(from ``pages.charts``) and offers the download. Catalog text is never rendered here: the
preview is shown as code.
"""

import streamlit as st

from pages import charts, common
from toolsearch.report import build_report
from toolsearch.sweep import form_grid, listing_ladder

PREVIEW_CHARS = 2000

v = common.view()
st.title("Report")
if common.require_catalog(v):
    cfg, ctx = v.config, v.context_length
    plan = v.plan
    common.tier_badge(plan)
    st.markdown(
        "A single HTML file for a design review: catalog summary, settings and budget arithmetic, tier and form, "
        "the per-server table, the degradation steps, the per-server costs chart, the listing-form heatmap over "
        "context length × threshold_pct, the settings that reach each form, and the exact `tool_search` "
        "description. It loads nothing from the network (plotly.js is embedded once), so it opens offline and can "
        "be attached to a review.")
    signature = (id(v.inspector), v.source_label, cfg, ctx, v.tokenizer, v.display_tokenizer)
    if st.button("Build report", type="primary", key="build_report", icon="📄"):
        with st.spinner("Building the report…"):
            ladder = listing_ladder(v.inspector.planner, cfg, v.tokenizer)
            figures = charts.figures_html({
                f"Per-server costs ({plan.display_tokenizer}, log scale)": charts.costs_figure(plan),
                "Listing form heatmap (context length × threshold_pct, hover for budgets)": charts.sweep_figure(
                    form_grid(ladder, cfg), current=(ctx, cfg.threshold_pct)),
            })
            st.session_state["report_html"] = build_report(
                v.inspector, cfg, ctx, v.tokenizer, v.display_tokenizer, figures,
                source_label=v.source_label, state_colors=common.STATE_COLORS)
            st.session_state["report_signature"] = signature

    html_text = st.session_state.get("report_html")
    if html_text is None:
        st.info("Press **Build report** to create the HTML file for the sidebar's catalog and settings.")
    else:
        if st.session_state.get("report_signature") != signature:
            st.warning("The sidebar settings or the catalog changed since this report was built. "
                       "Press **Build report** again to include them.")
        size = len(html_text.encode("utf-8"))
        c1, c2 = st.columns([1, 2])
        c1.metric("Report size", f"{size / 1024:,.0f} KiB", f"{size:,} bytes", delta_color="off", delta_arrow="off",
                  help="Most of it is plotly.js, embedded once so that the file opens offline.")
        c2.download_button("Download report (.html)", html_text.encode("utf-8"), file_name="toolsearch-report.html",
                           mime="text/html", key="report_download", type="primary", icon="⬇️")
        body = html_text[html_text.find("<body>"):] if "<body>" in html_text else html_text
        st.caption(f"Start of the report body (first {PREVIEW_CHARS:,} of {len(html_text):,} characters; the style "
                   "sheet before it is left out), shown as text:")
        st.code(body[:PREVIEW_CHARS], language="html", wrap_lines=True)

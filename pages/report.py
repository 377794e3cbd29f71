"""Report: one self-contained HTML file of the current catalog and settings, for a design review.

The HTML is built by :func:`toolsearch.analysis.report.build_report`; this page adds the plotly figures
(from ``pages.charts``), the results computed for the same catalog and settings (search, search
quality, lint, and the strategies when the Strategies page ran), shows the report as it renders
and offers the download. Catalog text inside the report is escaped by the builder.
"""

from datetime import datetime, timezone
from pathlib import Path

import streamlit as st

from pages import charts, common, palette
from toolsearch.engine.errors import ToolsearchError
from toolsearch.analysis.evaluation import DEFAULT_VARIANTS, evaluate, load_queries
from toolsearch.analysis.lint import lint
from toolsearch.live.client import catalog_key
from toolsearch.analysis.report import build_report

DEFAULT_QUERIES = "create issue\npost message channel\nsearch errors"
NO_QUERY_FILE = "none"
PREVIEW_HEIGHT = 900  # px: the rendered report scrolls inside this frame


def query_files() -> dict[str, Path]:
    """The shipped labeled query files by stem."""
    folder = common.SAMPLES_DIR / "queries"
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.exists() else {}


v = common.view()
st.title("Report")
if common.require_catalog(v):
    cfg, ctx = v.config, v.context_length
    plan = v.plan
    ins = v.inspector
    common.tier_badge(plan)
    st.markdown(
        "A single HTML file for a design review: the date, toolsearch version, catalog fingerprint and settings; "
        "catalog summary and budget arithmetic, tier and form, the per-server table, the degradation steps, the "
        "listing-form table over context length × threshold_pct, the settings that reach each form, the listing "
        "against its budget and the per-server costs, the exact `tool_search` description, and the search, search "
        "quality, lint and strategy results. It loads nothing from the network (plotly.js is embedded once), so it "
        "opens offline and can be attached to a review.")

    files = query_files()
    c1, c2 = st.columns(2)
    queries_text = c1.text_area("Search queries to include (one per line)",
                                st.session_state.get("search_queries", DEFAULT_QUERIES), height=120,
                                key="report_queries")
    default_file = v.source_label if v.source_label in files else NO_QUERY_FILE
    options = [NO_QUERY_FILE, *files]
    query_file = c2.selectbox("Search quality: labeled query file", options, index=options.index(default_file),
                              key="report_query_file",
                              help="Scored with the default variants, as on the Search quality page.")
    include_lint = c2.toggle("Include the lint findings", value=True, key="report_lint")
    strategies = st.session_state.get("_strategies_for_report")
    c2.caption("Strategies: " + (f"included ({common.md_escape(strategies['label'])})" if strategies else
                                 "not computed yet: open the Strategies page first to include them."))
    queries = [q.strip() for q in queries_text.splitlines() if q.strip()]
    signature = (id(ins), v.source_label, cfg, ctx, v.tokenizer, v.display_tokenizer, tuple(queries), query_file,
                 include_lint, id(strategies))

    if st.button("Build report", type="primary", key="build_report", icon=":material/description:"):
        with st.status("Building the report…", expanded=False) as status:
            search = None
            if queries and plan.activated and plan.deferred_count:
                status.update(label="Running the search queries…")
                search = ins.bridge(cfg).tool_search({"queries": queries})
            evaluation = None
            if query_file != NO_QUERY_FILE:
                status.update(label="Scoring the query file…")
                try:
                    evaluation = evaluate(ins, load_queries(files[query_file]), DEFAULT_VARIANTS, cfg)
                except ToolsearchError as exc:
                    st.error(f"Search quality left out: {common.md_escape(exc)}", icon=":material/error:")
            lint_report = None
            if include_lint:
                status.update(label="Linting the catalog…")
                lint_report = lint(ins, cfg)
            status.update(label="Drawing the charts…")
            figures = charts.figures_html({
                f"The listing against the budget ({plan.planning_tokenizer})": charts.listing_budget_figure(v.planning_plan),
                f"Per-server costs ({plan.display_tokenizer}, log scale)": charts.costs_figure(plan),
            }) if plan.activated and plan.deferred_count else charts.figures_html({
                f"Per-server costs ({plan.display_tokenizer}, log scale)": charts.costs_figure(plan)})
            st.session_state["report_html"] = build_report(
                ins, cfg, ctx, v.tokenizer, v.display_tokenizer, figures,
                source_label=v.source_label, state_colors=common.STATE_COLORS,
                generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                fingerprint=catalog_key(ins.catalog), search=search, lint_report=lint_report,
                evaluation=evaluation, strategies=strategies["results"] if strategies else None,
                strategies_label=strategies["label"] if strategies else None,
                severity_colors=palette.SEVERITY_COLORS, strategy_colors=palette.STRATEGY_COLORS)
            st.session_state["report_signature"] = signature
            status.update(label="Report built", state="complete")

    html_text = st.session_state.get("report_html")
    if html_text is None:
        st.info("Press **Build report** to create the HTML file for the sidebar's catalog and settings.")
    else:
        if st.session_state.get("report_signature") != signature:
            st.warning("The sidebar settings, the catalog or the choices above changed since this report was built. "
                       "Press **Build report** again to include them.")
        size = len(html_text.encode("utf-8"))
        c1, c2 = st.columns([1, 2])
        c1.metric("Report size", f"{size / 1024:,.0f} KiB", f"{size:,} bytes", delta_color="off", delta_arrow="off",
                  help="Most of it is plotly.js, embedded once so that the file opens offline.")
        c2.download_button("Download report (.html)", html_text.encode("utf-8"), file_name="toolsearch-report.html",
                           mime="text/html", key="report_download", type="primary", icon=":material/download:")
        st.caption("The report as it renders (scroll inside the frame). It is built here, with every piece of "
                   "catalog text escaped, so it shows that text literally.")
        st.iframe(html_text, height=PREVIEW_HEIGHT)

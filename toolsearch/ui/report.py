"""Report: one self-contained HTML file of the current catalog and settings, for a design review.

The HTML is built by :func:`toolsearch.analysis.review.review_report` (as ``toolsearch report``
builds it): the plotly figures and the results computed for the same catalog and settings (search,
search quality, lint and the disclosure strategies); this page picks the inputs, shows the report
as it renders and offers the download. The strategies are the Strategies page's last results in
this session, or else computed with that page's defaults (the sample skills; the sample task on
the team-workspace catalog). Catalog text inside the report is escaped by the builder, and the
preview runs the report's scripts in a sandboxed frame with an opaque origin
(:func:`toolsearch.ui.preview.sandboxed_html`), never with the app's.
"""


from pathlib import Path

import streamlit as st

from toolsearch.analysis import review
from toolsearch.analysis.report import tier_and_form
from toolsearch.analysis.review import DEFAULT_QUERIES, StrategyComparison
from toolsearch.analysis.wording import settings_words
from toolsearch.engine.inspector import Inspector
from toolsearch.ui import common, preview
from toolsearch.ui.recommendation import (compared_settings, ctx_text, dropped_words, missing_words, question_for_report,
                                         question_words, recommendation_for)

NO_QUERY_FILE = "none"
#: Where the report's single-length sections are planned when it carries the Tuning page's lengths.
LENGTH_SHORTEST, LENGTH_SIDEBAR = "shortest", "sidebar"
LENGTHS_NAME = "the Tuning page's context lengths"
PREVIEW_HEIGHT = 900  # px: the rendered report scrolls inside this frame


def query_files() -> dict:
    """The shipped labeled query files by stem."""
    return review.shipped_query_files(common.SAMPLES_DIR / "queries")


@st.cache_resource(max_entries=8, show_spinner=False)
def default_strategies(key: tuple, _inspector: Inspector, catalog: str, source_label: str) -> StrategyComparison:
    """The Strategies page's default comparison for the sidebar catalog
    (:func:`toolsearch.analysis.review.default_strategies`), kept per inspector and settings
    (``key``): building the report again costs nothing; the first build takes well under a second
    on 3,000 tools."""
    _, config, context_length, planning_tokenizer, display_tokenizer = key
    return review.default_strategies(_inspector, catalog, source_label, config, context_length,
                                     planning_tokenizer, display_tokenizer)


v = common.view()
st.title("Report")
if common.require_catalog(v):
    cfg, ctx = v.config, v.context_length
    plan = v.plan
    ins = v.inspector
    common.tier_badge(plan, common.SIDEBAR_SETTINGS)  # not the recommendation's: said on the bar
    st.markdown(
        "A single HTML file for a design review: the date, toolsearch version, catalog fingerprint and settings; "
        "the settings the Tuning page recommends across context lengths, with their config block; the catalog "
        "summary and budget arithmetic, tier and form, the per-server table, the degradation steps, the "
        "listing-form table over context length × threshold_pct, the settings that reach each form, the listing "
        "against its budget and the per-server costs, the exact `tool_search` description, and the search, search "
        "quality, lint and strategy results. It loads nothing from the network (plotly.js is embedded once), so it "
        "opens offline and can be attached to a review.")

    files = query_files()
    c1, c2 = st.columns(2)
    queries_text = c1.text_area("Search queries to include (one per line)",
                                st.session_state.get("search_queries", DEFAULT_QUERIES), height=120,
                                key="report_queries")
    default_file = v.source_label if review.default_query_file(v.source_label, files) else NO_QUERY_FILE
    options = [NO_QUERY_FILE, *files]
    query_file = c2.selectbox("Search quality: labeled query file", options, index=options.index(default_file),
                              key="report_query_file",
                              help="Scored with the default variants, as on the Search quality page.")
    include_lint = c2.toggle("Include the lint findings", value=True, key="report_lint")
    strategies = st.session_state.get("_strategies_for_report")
    c2.caption("Strategies: " + (f"the Strategies page's last results ({common.md_escape(common.visible(strategies['label']))})"
                                 if strategies else "computed when the report is built, with the Strategies page's "
                                 "defaults (sample skills and task); open that page to choose others."))
    asked = question_for_report(v)
    found = (recommendation_for(v, asked.question), asked.question) if asked.question is not None else None
    left_out_servers = dropped_words(asked.dropped)
    c1.caption("Recommended settings across context lengths: " + (
        common.md_escape(common.visible(
            # the two numbers to ship, as the Tuning page's metrics give them, before any report is built
            settings_words(found[0].threshold_pct, found[0].listing_max_tokens)
            + ("" if found[0].reached else " (the best reachable setting: the goal is out of reach)")
            + f", for the Tuning page's goal ({question_words(found[1], found[0])}); the report sets them beside the "
            "sidebar's current settings; change the context lengths and goal there."
            + (f" {left_out_servers}" if left_out_servers else ""))) if found else
        f"not included: fix the {asked.blocked_by} on the Tuning page to include them (its goal cannot be asked: "
        f"{common.md_escape(common.visible(asked.error))})"))
    if found:  # the same words as the Tuning page's answer: the block is for the catalog without it
        for words in missing_words(v):
            c1.warning(common.md_escape(common.visible(words)), icon=":material/report:")
    # the recommendation is the report's main answer: one click to where its question is changed
    c1.page_link(str(Path(__file__).with_name("tuning.py")), icon=":material/tune:",
                 label="Context lengths and goal: Tuning")  # whole at 1024 px
    if found:  # as toolsearch report without --context-length: the shortest listed length, unless chosen
        shortest = review.report_context_length(None, found[1].lengths, given=False, lengths_name=LENGTHS_NAME)[0]
        # Short enough to read whole in the half-width box at 1024 px; the help and the report say more.
        labels = {LENGTH_SHORTEST: f"{ctx_text(shortest)} (Tuning's shortest)",
                  LENGTH_SIDEBAR: f"{ctx_text(ctx)} (sidebar)"}
        where = c1.selectbox(
            "Other sections planned at", list(labels), format_func=labels.__getitem__, key="report_length",
            help="The settings, budget, servers, costs and strategies are for one context length: the shortest of "
                 "the Tuning page's context lengths (the default; the budget is smallest there, so the listing is "
                 "tightest) or the sidebar's context length.")
        ctx, ctx_note = review.report_context_length(ctx, found[1].lengths, given=where == LENGTH_SIDEBAR,
                                                     lengths_name=LENGTHS_NAME)
        if ctx != v.context_length:  # the tier bar above is the sidebar's length: say what the report's gets
            c1.caption(f"The bar at the top is for the sidebar's context length ({ctx_text(v.context_length)}); "
                       f"at {ctx_text(ctx)}, where the report's other sections are planned: "
                       f"{tier_and_form(v.plan_for(ctx))}.")
    else:
        ctx_note = ""
    queries = [q.strip() for q in queries_text.splitlines() if q.strip()]
    signature = (id(ins), v.source_label, cfg, ctx, v.tokenizer, v.display_tokenizer, tuple(queries), query_file,
                 include_lint, id(strategies), found[1] if found else None)

    if st.button("Build report", type="primary", key="build_report", icon=":material/description:"):
        with st.status("Building the report…", expanded=False) as status:
            left_out: list[str] = []
            st.session_state["report_html"] = review.review_report(
                ins, cfg, ctx, v.tokenizer, v.display_tokenizer, source_label=v.source_label,
                fingerprint=common.whole_catalog_key(v), queries=queries,
                query_file=files[query_file] if query_file != NO_QUERY_FILE else None, include_lint=include_lint,
                strategies=StrategyComparison(strategies["label"], tuple(strategies["results"])) if strategies else None,
                strategies_for=lambda: default_strategies((id(ins), cfg, ctx, v.tokenizer, v.display_tokenizer), ins,
                                                          str(st.session_state.get("catalog", "")), v.source_label),
                progress=lambda text: status.update(label=text), problems=left_out,
                recommendation=found[0] if found else None, recommendation_warnings=missing_words(v) if found else (),
                catalogs=common.shipped_sample_files(),  # the block's gate line, as the Tuning page's
                context_note=ctx_note, compared_with=compared_settings(cfg))  # the Tuning page's yardstick
            for problem in left_out:
                st.error(common.md_escape(problem), icon=":material/error:")
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
        st.caption("The report as it renders (scroll inside the frame; a table wider than the frame scrolls "
                   "sideways in its own box, with its scrollbar under its rows). It is built here, with every piece "
                   "of catalog text escaped, so it shows that text literally.")
        preview.sandboxed_html(html_text, height=PREVIEW_HEIGHT, title="The report as it renders")

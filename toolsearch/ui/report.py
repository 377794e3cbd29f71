"""Report: one self-contained HTML file of the current catalog and settings, for a design review.

The HTML is built by :func:`toolsearch.analysis.report.build_report`; this page adds the plotly figures
(from ``toolsearch.ui.charts``), the results computed for the same catalog and settings (search, search
quality, lint and the disclosure strategies), shows the report as it renders and offers the
download. The strategies are the Strategies page's last results in this session, or else computed
here with that page's defaults (the sample skills; the sample task on the team-workspace catalog).
Catalog text inside the report is escaped by the builder.
"""

from datetime import datetime, timezone
from pathlib import Path

import streamlit as st

from toolsearch.ui import charts, common, palette
from toolsearch.engine.errors import ToolsearchError
from toolsearch.analysis.evaluation import DEFAULT_VARIANTS, evaluate, load_queries
from toolsearch.analysis.lint import lint
from toolsearch.live.client import catalog_key
from toolsearch.analysis.report import build_report
from toolsearch.analysis.skills import SkillSet, load_skills
from toolsearch.analysis.strategies import StrategyModel, StrategySettings, Task, load_events, task_summary
from toolsearch.analysis.wording import counted
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.samples import samples_dir

DEFAULT_QUERIES = "create issue\npost message channel\nsearch errors"
NO_QUERY_FILE = "none"
PREVIEW_HEIGHT = 900  # px: the rendered report scrolls inside this frame
SAMPLE_SKILLS = samples_dir("sample_skills")
#: The sample events (sample_skills/events.yaml) are written for this catalog, as on the Strategies page.
SAMPLE_EVENTS_CATALOG = "team-workspace"


def query_files() -> dict[str, Path]:
    """The shipped labeled query files by stem."""
    folder = common.SAMPLES_DIR / "queries"
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.exists() else {}


@st.cache_resource(max_entries=8, show_spinner=False)
def default_strategies(key: tuple, _inspector: Inspector, catalog: str, source_label: str) -> dict:
    """The Strategies page's default comparison for the sidebar catalog: the sample skills, the
    sample task on the team-workspace catalog (no task elsewhere), the sidebar's tokenizers, context
    length and config. ``{"label", "results"}``, kept per inspector and settings (``key``): building
    the report again costs nothing; the first build takes well under a second on 3,000 tools."""
    _, config, context_length, planning_tokenizer, display_tokenizer = key
    try:
        skills = load_skills(SAMPLE_SKILLS) if SAMPLE_SKILLS.exists() else SkillSet()
    except ToolsearchError:
        skills = SkillSet()
    task = Task()
    events_file = SAMPLE_SKILLS / "events.yaml"
    if catalog == SAMPLE_EVENTS_CATALOG and events_file.exists():
        try:
            events = load_events(events_file)
        except ToolsearchError:
            events = ()
        tools = {t.name for t in _inspector.registration.tools}
        read = tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "read_skill" and str(e.arg) in skills.names))
        used = tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "call" and str(e.arg) in tools))
        task = Task(read, used)
    settings = StrategySettings(tokenizer=display_tokenizer, config=config, context_length=context_length,
                                planning_tokenizer=planning_tokenizer)
    results = StrategyModel(_inspector, skills, settings).results(task)
    what = counted(len(skills.names), "sample skill") if skills.names else "no skills"
    return {"label": f"{source_label}: {what}, {task_summary(task)}, tokens in {display_tokenizer} "
                     "(the Strategies page's defaults)", "results": results}


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
    c2.caption("Strategies: " + (f"the Strategies page's last results ({common.md_escape(strategies['label'])})"
                                 if strategies else "computed when the report is built, with the Strategies page's "
                                 "defaults (sample skills and task); open that page to choose others."))
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
            if strategies is None:
                status.update(label="Comparing the disclosure strategies…")
                try:
                    strategies = default_strategies(
                        (id(ins), cfg, ctx, v.tokenizer, v.display_tokenizer), ins,
                        str(st.session_state.get("catalog", "")),
                        v.source_label)
                except ToolsearchError as exc:
                    st.error(f"Disclosure strategies left out: {common.md_escape(exc)}", icon=":material/error:")
            status.update(label="Drawing the charts…")
            listing_title = f"The listing against the budget ({plan.planning_tokenizer})"
            figures = charts.figures_html({
                listing_title: charts.listing_budget_figure(v.planning_plan),
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
                severity_colors=palette.SEVERITY_COLORS, strategy_colors=palette.STRATEGY_COLORS,
                figure_keys={listing_title: charts.listing_key_rows(v.planning_plan)})
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

"""Search quality & lint: a labeled query file scored against the search (variants side by side,
misses explained) and the catalog lint findings.

Every number comes from ``toolsearch.analysis.evaluation`` and ``toolsearch.analysis.lint``. Catalog text and
query-file text (tool names, queries, descriptions, messages) are untrusted: they are shown only
through literal-text tables (toolsearch/ui/tables.py), st.text and st.code, and escaped before they reach a
plotly figure.
"""

from __future__ import annotations

import hashlib
import html
import json
import weakref
from pathlib import Path
from typing import Any, Callable, Sequence

import plotly.graph_objects as go
import streamlit as st

from toolsearch.analysis import palette
from toolsearch.ui import common
from toolsearch.ui.tables import literal_table
from toolsearch.engine import constants as C
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes
from toolsearch.analysis.variants import AVAILABLE_VARIANTS, UNAVAILABLE, load_problem, variant_sources
from toolsearch.analysis.evaluation import (EMPTY_OR_NOT_ACCURACY, NONSENSE_QUERIES_EMPTY, NONSENSE_TASKS_EMPTY, emptiness_definitions,
                                             DEFAULT_VARIANTS, EMBEDDING_PROGRESS, MISS_CAUSE_HELP, VARIANT_HELP, Evaluation, QueryFile,
                                            evaluate, evaluate_folds, evaluate_tuned, load_queries, load_queries_text, naming_mismatch, nothing_deferred,
                                            one_sided_folds, one_sided_tuning, repeated_tasks, seen_across_folds, seen_in_tuning, tuning_unknown_note,
                                            task_cell)
from toolsearch.analysis.lint import RULES, LintReport, lint
from toolsearch.analysis.wording import counted, evaluation_share, mean_reciprocal_rank
from toolsearch.engine.invisible import json_text, reveal, shortened
from toolsearch.ui.text import md_escape
from toolsearch.ui.sources import TEXT_UPLOAD_MB

UPLOAD = "Upload a query file…"
#: The Parameters choices: how each variant's parameters are set.
#: What gives out-of-sample figures, in the page's own terms (the CLI names its flags instead).
PAGE_TUNING_HINT = 'choosing "tuned by folds" or "tuned on a tuning file" under Parameters'
REGISTERED, BY_FOLDS, ON_TUNING_FILE = "registered", "tuned by folds (out of sample)", "tuned on a tuning file (out of sample)"
#: How many of the query file's expected names that are not deferred tools the page lists.
UNKNOWN_SHOWN = 20
#: Extra combinations offered beside the single switches.
COMBOS = ("unicode+no-gate", "unicode+name-substring", "unicode+agent")
#: Colors per lint severity: the app's palette for this meaning (toolsearch/analysis/palette.py); variants: palette.variant_colors.
SEVERITY_COLORS = palette.SEVERITY_COLORS
METRIC_COLUMNS = ("recall@1", f"recall@{C.EVAL_RECALL_K}", "recall@limit", "MRR", NONSENSE_TASKS_EMPTY.label,
                  EMPTY_OR_NOT_ACCURACY.label)


def queries_dir() -> Path:
    """The shipped query files (``sample_catalogs/queries``)."""
    return common.SAMPLES_DIR / "queries"


@st.cache_resource
def _results() -> weakref.WeakKeyDictionary:
    """Engine results per inspector, shared by every session (the sidebar caches inspectors the
    same way); an entry goes away with its inspector."""
    return weakref.WeakKeyDictionary()


def _memo(key: tuple, owner: Any, make: Callable[[], Any]) -> Any:
    """``make()`` once per ``owner`` (the inspector object) and ``key``; at most 12 results each,
    the least recently used dropped first (so the lint report outlives its filtered tables)."""
    store = _results().setdefault(owner, {})
    if key in store:
        store[key] = store.pop(key)
    else:
        while len(store) >= 12:
            del store[next(iter(store))]
        store[key] = make()
    return store[key]


#: Lint findings drawn in the table at most (a large catalog can have tens of thousands); the
#: downloadable report has them all.
LINT_ROWS_SHOWN = 500


def _lint_with_progress(ins: Any, config: Any) -> LintReport:
    """:func:`lint` with a progress bar while it runs (a minute or more at 50,000 tools; then cached)."""
    bar = st.progress(0.0, text="Linting the catalog…")
    try:
        report = lint(ins, config, progress=lambda share, text: bar.progress(min(share, 1.0), text=text))
    finally:
        bar.empty()
    common.freeze_cached()
    return report


def metrics_rows(ev: Evaluation) -> list[dict[str, Any]]:
    """One row per variant: the overall metrics (fractions 0–1) and the counts."""
    rows = []
    for variant in ev.variants:
        m = variant.metrics
        rows.append({
            "variant": variant.name, "recall@1": m.recall_at_1, f"recall@{ev.k}": m.recall_at_k,
            "recall@limit": m.recall_at_limit, "MRR": m.mrr, NONSENSE_TASKS_EMPTY.label: m.abstention_rate,
            f"query recall@{ev.k}": m.query_recall_at_k, NONSENSE_QUERIES_EMPTY.label: m.nonsense_queries_empty,
            EMPTY_OR_NOT_ACCURACY.label: m.abstention_accuracy,
            "answered": f"{m.answered}/{m.positive}", "abstained": f"{m.abstained}/{m.abstention}",
            "misses by cause": " · ".join(f"{c} {n}" for c, n in m.miss_causes.items()) or "none",
        })
    return rows


def share_columns(ev: Evaluation) -> tuple[str, ...]:
    """The columns of :func:`metrics_rows` that hold shares (0–1); MRR (a mean of 1/rank, also 0 to
    1) is the one figure column that is not a share."""
    return (*(c for c in METRIC_COLUMNS if c != "MRR"), f"query recall@{ev.k}", NONSENSE_QUERIES_EMPTY.label)


def metric_formats(ev: Evaluation) -> dict[str, Callable[[float | None], str]]:
    """How each figure column of :func:`metrics_rows` reads, in the table, the chart's labels and
    its hover: shares as :func:`~toolsearch.analysis.wording.evaluation_share` (``0.938``), MRR as
    :func:`~toolsearch.analysis.wording.mean_reciprocal_rank` (``0.711``), exactly as
    ``toolsearch eval`` and the HTML report print them; an empty cell where there is nothing to
    divide by."""
    return {**{c: (lambda x: evaluation_share(x, "")) for c in share_columns(ev)},
            "MRR": lambda x: mean_reciprocal_rank(x, "")}


def sample_words(ev: Evaluation) -> str:
    """How the page heads the figures of ``ev``: ``"in sample (registered parameters)"``, ``"out of
    sample (tuned on a tuning file)"`` or ``"out of sample (tuned by K folds)"``; the file names
    are in :meth:`Evaluation.protocol_note`'s line beneath."""
    if ev.protocol == "tune/test":
        return "out of sample (tuned on a tuning file)"
    if ev.protocol.endswith("-fold"):
        return f"out of sample (tuned by {ev.protocol.removesuffix('-fold')} folds)"
    return "in sample (registered parameters)"


#: Height of one bar's slot in the metrics chart (px): room for a 10-px label beside every bar.
BAR_SLOT_PX = 16


def metrics_figure(ev: Evaluation) -> go.Figure:
    """Grouped horizontal bars: one group per metric (top to bottom in table order), one bar per
    variant (top to bottom in the table's variant order), on one axis from 0 to 1: the shares and
    MRR read as the table above it and ``toolsearch eval`` print them.

    Each bar is labeled with its value (``0.833``, ``0.711`` for MRR: :func:`metric_formats`) just
    past its end, on its own line: the chart grows by :data:`BAR_SLOT_PX` per bar, so labels never
    overlap however many variants are compared. The axis ticks are written by the same function."""
    fig = go.Figure()
    metrics = list(METRIC_COLUMNS)
    formats = metric_formats(ev)
    colors = palette.variant_colors([v.name for v in ev.variants])
    for variant in ev.variants:
        m = variant.metrics
        values = [m.recall_at_1, m.recall_at_k, m.recall_at_limit, m.mrr, m.abstention_rate, m.abstention_accuracy]
        name = html.escape(variant.name)
        fig.add_bar(name=name, orientation="h", y=metrics, x=values, marker_color=colors[variant.name],
                    text=[formats[metric](x) for metric, x in zip(metrics, values)], textposition="outside",
                    cliponaxis=False, constraintext="none", textfont=dict(size=10),
                    hovertemplate=f"<b>{name}</b><br>%{{y}}: %{{text}}<extra></extra>")
    bars = len(metrics) * max(1, len(ev.variants))
    ticks = [0, 0.25, 0.5, 0.75, 1]
    fig.update_layout(barmode="group", height=130 + BAR_SLOT_PX * bars, margin=dict(t=40, b=10, l=10, r=10),
                      bargap=0.2, bargroupgap=0.0, font=dict(family="Source Sans Pro, sans-serif", size=13),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0, title_text="variant:",
                                  traceorder="normal"),
                      # The chart is often read (and shared) alone: its axis says in or out of sample.
                      xaxis=dict(range=[0, 1.16], title=f"share or MRR (0 to 1), {sample_words(ev)}",
                                 tickvals=ticks, ticktext=[evaluation_share(t) for t in ticks]),
                      # The axis runs top to bottom: the first metric's group on top and, inside each
                      # group, the bars in table order (plotly stacks a group's bars up the axis).
                      yaxis=dict(categoryorder="array", categoryarray=metrics, autorange="reversed",
                                 automargin=True))
    return fig


#: Variants in one table of the Per task section: with the task column, seven columns fit a
#: 1024 px window with the sidebar open (about 560 px) without scrolling sideways.
TASK_TABLE_VARIANTS = 6


def variant_groups(names: Sequence[str], most: int = TASK_TABLE_VARIANTS) -> list[list[str]]:
    """``names`` in order, in as few groups of at most ``most`` as there can be, as even as
    possible (eleven: six and five); one empty group for none."""
    tables = max(1, -(-len(names) // most))
    size = max(1, -(-len(names) // tables))
    return [list(names[i:i + size]) for i in range(0, len(names), size)] or [[]]


def task_rows(ev: Evaluation) -> list[dict[str, Any]]:
    """One row per task: its queries, expected tools and the outcome under each variant."""
    rows = []
    for i, task in enumerate(ev.query_file.tasks):
        row: dict[str, Any] = {"task": task.id}
        for variant in ev.variants:
            row[variant.name] = task_cell(variant.tasks[i], ev.limit)
        row["queries"] = " | ".join(task.queries)
        row["expected"] = ", ".join(task.expected) or "(nothing: abstention)"
        rows.append(row)
    return rows


def miss_rows(ev: Evaluation, variant: str) -> list[dict[str, Any]]:
    """The explained misses of one variant, in four columns (so each is read in full): the task
    with its query beneath, the expected tool, the cause with its rank and gate term, and why."""
    rows = []
    for m in ev.variant(variant).misses:
        cause = m.cause + (f", rank {m.rank:,}" if m.rank is not None else "") + \
            (f", gate term {m.gate}" if m.gate else "")
        rows.append({"task / query": (f"{common.visible_name(m.task)}\n{common.visible_name(m.query)}" if m.query
                                      else common.visible_name(m.task)), "expected tool": common.visible_name(m.tool), "cause": cause, "why": m.detail})
    return rows


def lint_where(finding) -> str:
    """Where a finding is, on up to two lines: the wire name the model sees (else server · tool, or
    "catalog"), then the field and character offset when the finding is at a place."""
    first = common.visible_name(shortened(finding.name) if finding.name else finding.subject(" · "))
    place = finding.field + (f" @ character {finding.offset:,}" if finding.offset is not None else "")
    return f"{first}\n{place}" if place else first


def lint_rows(report: LintReport, severities: list[str], rules: list[str]) -> list[dict[str, Any]]:
    """The findings with one of ``severities`` and (when given) one of ``rules``: five columns, so
    that the finding and its fix have room to be read in full."""
    return [{"severity": f.severity, "rule": f.rule, "where": lint_where(f), "finding": f.message, "fix": f.fix}
            for f in report.findings if f.severity in severities and (not rules or f.rule in rules)]


def severity_style(value: Any) -> str:
    """CSS for a ``severity`` cell: its color from :data:`SEVERITY_COLORS`."""
    return palette.cell_style(SEVERITY_COLORS.get(value))


def choose_query_file(catalog_key: str, role: str = "") -> tuple[QueryFile | None, str | None]:
    """The query-file widgets; returns the parsed file (or ``None``) and an error message.
    ``role`` ``"tune"`` gives the tuning file's own widgets (upload chosen first: a shipped file
    is scored by default, and a file cannot be both)."""
    shipped = sorted(queries_dir().glob("*.yaml"))
    options = [p.name for p in shipped] + [UPLOAD]
    if role == "tune":
        label, key, default = "Tuning query file", f"quality_tune_file:{catalog_key}", len(options) - 1
        help_text = ("The tasks each variant's parameters are tuned on. They must not share a task id or group with "
                     "the scored file: the scored figures are then out of sample, as with toolsearch eval --tune.")
    else:
        label, key = "Labeled query file", f"quality_file:{catalog_key}"
        default = next((i for i, p in enumerate(shipped) if p.stem == catalog_key), len(options) - 1)
        help_text = ("A YAML file of tasks: id, one or more queries, the expected wire names (empty = nothing should "
                     "be found). The shipped files are written for the sample catalogs of the same name; "
                     "docs/quality.md describes the format.")
    choice = st.selectbox(label, options, index=default, key=key, help=help_text)
    if choice != UPLOAD:
        try:
            # Named by its file name, as an upload is: the page never shows where the package lies on disk.
            return load_queries(queries_dir() / choice, origin=f"{choice} (shipped)"), None
        except ToolsearchError as exc:
            return None, str(exc)
    upload = st.file_uploader("Tuning query file (YAML or JSON)" if role == "tune" else "Query file (YAML or JSON)",
                              max_upload_size=TEXT_UPLOAD_MB,
                              type=["yaml", "yml", "json"], key="quality_tune_upload" if role == "tune" else "quality_upload")
    if upload is None:
        return None, None
    try:
        return load_queries_text(decode_bytes(upload.getvalue(), upload.name), upload.name), None
    except ToolsearchError as exc:
        return None, str(exc)


def file_digest(queries: QueryFile) -> str:
    """A short digest of everything scoring reads from a query file (the groups decide the folds
    and the tune/test refusal; the name and origin are in the protocol line, the refusals and the
    downloaded evaluation, so the same tasks under another name are scored again)."""
    return hashlib.sha256(json.dumps([queries.name, queries.origin,
                                      [[t.id, t.queries, t.expected, t.group] for t in queries.tasks]],
                                     ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()[:16]


v = common.view()
st.title("Search quality & lint")
if common.require_catalog(v):
    ins = v.inspector
    config = v.config
    catalog_key = str(st.session_state.get("catalog", ""))

    # --- search quality -------------------------------------------------------------------
    st.header("Search quality")
    st.caption("Each task is one tool_search call: its queries and the tools a correct search returns. Ranks are "
               "the best position over the task's queries; recall@k is the share of expected tools ranked k or "
               "better; MRR is 1/best rank when within the limit, else 0; query recall@k counts each query alone. "
               f"Shares of {emptiness_definitions()}. "
               "reference is what the model gets; every other variant is a what-if. "
               f"Limit: {config.search_default_limit} (the sidebar's search_default_limit).")
    left, right = st.columns([2, 3])
    with left:
        queries, error = choose_query_file(catalog_key)
    variants = right.multiselect(
        "Variants", [*AVAILABLE_VARIANTS, *COMBOS], default=list(DEFAULT_VARIANTS), key="quality_variants", wrap=True,
        help="; ".join(f"{name}: {text}" for name, text in VARIANT_HELP.items()) + ". Combinations apply several "
             "switches at once. semantic is not selected at first: it loads a sentence-embedding model and "
             "embeds the catalog (cached after the first run).")
    right.caption("Where they come from: " + variant_sources([*AVAILABLE_VARIANTS, *COMBOS])
                  + "; the others are switches of the reference.")
    for name, reason in UNAVAILABLE.items():
        right.caption(f"{name}: not offered here; {reason}")
    folds = 0
    tuning: QueryFile | None = None
    protocol = right.radio(
        "Parameters", [REGISTERED, BY_FOLDS, ON_TUNING_FILE], key="quality_protocol", horizontal=True,
        help="registered: each variant's own values, nothing tuned (in sample). Tuned by folds: the tasks are split "
             "into K folds by group; each fold is scored with parameters tuned on the other folds only, as "
             "toolsearch eval --folds K does. Tuned on a tuning file: the parameters are tuned on a second query "
             "file only, then the labeled file is scored with them, as toolsearch eval --tune FILE --test FILE "
             "does. Both tuned forms give figures that hold out of sample.")
    if protocol == BY_FOLDS:
        folds = int(right.number_input("Folds (K)", min_value=2, max_value=20, value=5, step=1, key="quality_folds"))
    elif protocol == ON_TUNING_FILE:
        with right:
            tuning, tuning_error = choose_query_file(catalog_key, "tune")
        if tuning_error and not error:
            error = tuning_error
    help_box = right.expander("What the variants change", key="quality_variant_help_open", on_change="rerun")
    if help_box.open:  # drawn only when opened
        literal_table([{"variant": n, "what it changes": t} for n, t in VARIANT_HELP.items()], key="quality_variant_help",
                      nowrap=("variant",), container=help_box)
    ev: Evaluation | None = None
    if error:
        st.error(md_escape(reveal(error)), icon=":material/error:")
    elif queries is None:
        st.info("Choose a shipped query file or upload one to score this catalog's search.")
    elif protocol == ON_TUNING_FILE and tuning is None:
        st.info("Choose or upload the tuning query file: the parameters are tuned on it, then the labeled query "
                "file is scored with them.")
    elif not variants:
        st.info("Choose at least one variant.")
    elif load_problem(variants):  # e.g. the semantic extra installed but broken
        st.error(load_problem(variants), icon=":material/error:")
    else:
        # Everything scoring reads: the groups decide the folds.
        key = ("eval", file_digest(queries), tuple(variants), config.defer, config.search_default_limit,
               config.max_search_limit, folds, file_digest(tuning) if tuning is not None else "")
        # A progress bar alone, no spinner: a run stopped with the app's Stop button leaves its last
        # state on the page, and a spinner would keep turning as if scoring went on.
        bar = st.empty()
        if key not in _results().get(ins, {}):  # a figure already scored is shown at once
            bar.progress(0.0, text="Scoring the query file…")

        def progress(done: int, total: int, variant: str) -> None:
            # "tuning evidence (fold 2 of 5) on" while a fold is tuned, else the variant scored
            if variant.endswith(EMBEDDING_PROGRESS):
                text = common.embedding_progress_text(variant.removesuffix(EMBEDDING_PROGRESS).strip(), done, total)
            elif variant.startswith("tuning "):
                text = f"Tuning {variant.removeprefix('tuning ')} {done:,} of {total:,} tasks"
            else:
                text = f"Scoring {variant}: {done:,} of {total:,} tasks"
            bar.progress(done / max(total, 1), text=text)

        def score() -> Evaluation:
            if tuning is not None:
                return evaluate_tuned(ins, tuning, queries, variants, config, progress=progress)
            if folds:
                return evaluate_folds(ins, queries, folds, variants, config, progress=progress)
            return evaluate(ins, queries, variants, config, progress=progress)

        try:
            ev = _memo(key, ins, score)
        except ToolsearchError as exc:  # e.g. more folds than the file has task groups, a task in both files
            ev = None
            st.error(md_escape(reveal(str(exc))), icon=":material/error:")
        bar.empty()
    if ev is not None:
        for which, qf in (("Query file", queries), ("Tuning file", tuning)):
            if qf is not None and naming_mismatch(qf, ins.naming):
                st.warning(md_escape(f"{which} {qf.name!r}: {naming_mismatch(qf, ins.naming)}; switch 'Tool names' "
                                     "in the sidebar."), icon=":material/warning:")
        for which, qf in (("Query file", queries), ("Tuning file", tuning)):
            if qf is not None and repeated_tasks(qf.tasks):
                st.warning(f"{which} {md_escape(reveal(repr(qf.name)))}: {md_escape(repeated_tasks(qf.tasks))}.",
                           icon=":material/warning:")
        if nothing_deferred(ev.deferred_count):
            st.warning(f"The {nothing_deferred(ev.deferred_count)}.", icon=":material/warning:")
        if ev.unknown_expected:
            st.warning(f"{counted(len(ev.unknown_expected), 'expected name')} not among the deferred tools of this "
                       "catalog (a query "
                       "file for another catalog, another tool naming, or a typo). They count as misses:")
            more = len(ev.unknown_expected) - UNKNOWN_SHOWN  # a list cut short must say so
            st.text("\n".join([*map(reveal, ev.unknown_expected[:UNKNOWN_SHOWN]),
                               *([f"and {more:,} more"] if more > 0 else [])]))
        common.embedding_cache_notice()
        if folds and one_sided_tuning(queries.tasks):
            st.warning(f"Tuned by folds with {one_sided_tuning(queries.tasks)}.", icon=":material/warning:")
        if folds and one_sided_folds(queries.tasks, folds):
            st.warning(f"Tuned by folds: {md_escape(one_sided_folds(queries.tasks, folds))}.", icon=":material/warning:")
        if folds and seen_across_folds(queries.tasks, folds):
            st.warning(f"Tuned by folds: {md_escape(seen_across_folds(queries.tasks, folds))}.", icon=":material/warning:")
        if tuning is not None:
            for problem in (one_sided_tuning(tuning.tasks), tuning_unknown_note(ev.tuning_unknown_expected)):
                if problem:
                    st.warning(f"Tuning file {md_escape(reveal(repr(tuning.name)))}: {md_escape(problem)}.",
                               icon=":material/warning:")
            if seen_in_tuning(tuning.tasks, queries.tasks):
                st.warning(f"{md_escape(seen_in_tuning(tuning.tasks, queries.tasks))}.", icon=":material/warning:")
        st.subheader(f"Figures {sample_words(ev)}")
        st.text("\n".join(map(reveal, [ev.protocol_note(PAGE_TUNING_HINT), *ev.tuned_lines()])))
        # which variant is best here and what the best recall costs, or why no variant can be picked
        st.text(reveal(ev.trade_off()))
        for line in ev.time_limit_lines():  # regex scans stopped at their time limit or not run: failures
            st.warning(md_escape(line) + ".", icon=":material/timer_off:")
        st.text(f"{reveal(queries.name)}: {counted(len(queries.tasks), 'task')} "
                f"({ev.variants[0].metrics.positive:,} with expected tools, "
                f"{counted(ev.variants[0].metrics.abstention, 'abstention test')}) on "
                f"{counted(ev.deferred_count, 'deferred tool')}; limit {ev.limit}")
        # Two tables of few columns each (the shares, then the per-query shares and counts), so that
        # every cell is read in full at 1024 px. Shares as eval, the chart and the report print them: 0.833.
        metric_rows = metrics_rows(ev)
        shares = ["variant", *METRIC_COLUMNS]
        fractions = metric_formats(ev)
        literal_table(metric_rows, key="quality_metrics", columns=shares, formats=fractions)
        literal_table(metric_rows, key="quality_counts", columns=["variant", *(c for c in metric_rows[0] if c not in shares)],
                      formats=fractions)
        st.plotly_chart(metrics_figure(ev), key="quality_chart", width="stretch")

        st.subheader("Per task")
        st.caption("Best rank of any expected tool under each variant: a number within the limit is found; "
                   "(n) was ranked below the limit; — was not admitted. Abstention tasks show empty (correct) or "
                   "NOT EMPTY. stopped / not run: a regex scan stopped at its time limit or was not run (the run's "
                   f"time budget was spent), counted as a failure. At most {TASK_TABLE_VARIANTS} variants a table.")
        rows = task_rows(ev)
        # At most TASK_TABLE_VARIANTS variants a table, so that every cell is read in full at 1024 px
        # (eleven variants in one table scrolled sideways); each table names the tasks again.
        for number, names in enumerate(variant_groups([v.name for v in ev.variants]), 1):
            literal_table(rows, key="quality_tasks" if number == 1 else f"quality_tasks_{number}", columns=["task", *names])
        queries_box = st.expander(f"The {counted(len(rows), 'task')}: queries and expected tools",
                                  key="quality_task_queries_open", on_change="rerun")
        if queries_box.open:  # drawn only when opened
            literal_table(rows, key="quality_task_queries", columns=["task", "queries", "expected"],
                          container=queries_box)

        st.subheader("Misses, explained")
        shown = st.selectbox("Variant", [x.name for x in ev.variants], key="quality_miss_variant")
        misses = miss_rows(ev, shown)
        if not misses:
            st.success(f"No misses under {shown}: every expected tool is within the limit.")
        else:
            st.caption("One row per expected tool not returned within the limit, and per query of its task. "
                       "Causes: " + ", ".join(f"{cause} ({text})" for cause, text in MISS_CAUSE_HELP.items()) + ".")
            literal_table(misses, key="quality_misses")
        st.download_button("Download the evaluation (JSON)", json_text(ev.to_dict()),
                           file_name="evaluation.json", mime="application/json", key="quality_eval_download")

    # --- lint --------------------------------------------------------------------------------
    st.header("Catalog lint")
    lint_key = ("lint", config.defer, config.search_default_limit, config.max_search_limit, config.enabled)
    report = _memo(lint_key, ins, lambda: _lint_with_progress(ins, config))
    counts = report.counts()
    # A wrapping row of content-wide metrics: at narrow widths one moves to the next line instead
    # of cutting its label or value.
    c1 = c2 = c3 = c4 = st.container(horizontal=True, gap="large")
    c1.metric("Errors", f"{counts['error']:,}", help="The harness drops tools, or a provider rejects the whole request.",
              width="content")
    c2.metric("Warnings", f"{counts['warning']:,}", help="The model is likely to miss, misread or overpay for a tool.",
              width="content")
    c3.metric("Info", f"{counts['info']:,}", help="Worth knowing in a design review; often fine.", width="content")
    c4.metric("Median tool schema", f"{report.median_schema_tokens:,.0f} tokens",
              help="chars4 tokens of one tool definition; schema-large compares against it.", width="content")
    f1, f2 = st.columns([1, 2])
    severities = f1.multiselect("Severity", list(C.LINT_SEVERITIES), default=list(C.LINT_SEVERITIES),
                                key="lint_severity", wrap=True)
    fired = list(report.by_rule())
    rules = f2.multiselect("Rules (none chosen: all)", fired, key="lint_rules", wrap=True,
                           help="Only the rules that fired on this catalog are offered.")
    rows = _memo(("lint-rows", lint_key, tuple(severities), tuple(rules)), ins,
                 lambda: lint_rows(report, severities, rules))
    if report.findings:
        st.caption("By rule: " + " · ".join(f"{rule} {n:,}" for rule, n in report.by_rule().items()))
    if not report.findings:
        st.success("No findings: nothing in this catalog trips a lint rule at these settings.")
    elif not rows:
        st.info("No finding matches the filters.")
    else:
        st.caption(f"{len(rows):,} of {len(report.findings):,} findings. Reachability probes use the reference "
                   f"search at limit {report.limit}; names are the wire names the model sees.")
        if len(rows) > LINT_ROWS_SHOWN:
            st.info(f"The table shows the first {LINT_ROWS_SHOWN:,} of these {len(rows):,} findings (errors first); "
                    "the lint report below has them all.", icon=":material/table_rows:")
        # On a narrow page the finding and its fix each take a line of the table's width under the rule
        # (beside three other columns they were a fifth of it each).
        literal_table(rows[:LINT_ROWS_SHOWN], key="lint_table", styles={"severity": severity_style},
                      nowrap=("severity",), stack=("finding", "fix"))
    rules_box = st.expander("What each rule checks", key="quality_rules_open", on_change="rerun")
    if rules_box.open:  # drawn only when opened
        literal_table([{"rule": r, "checks": t, "findings": report.by_rule().get(r, 0)} for r, t in RULES.items()],
                      key="quality_rules", container=rules_box)
    st.download_button("Download the lint report (JSON)",
                       _memo(("lint-json", lint_key), ins,
                             lambda: json_text(report.to_dict())),  # as lint --json writes it
                       file_name="lint.json", mime="application/json", key="quality_lint_download")

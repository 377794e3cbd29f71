"""A self-contained HTML report of one catalog at one setting, for a design review.

:func:`build_report` returns one HTML document with no external resources: the catalog summary,
the settings and the budget arithmetic (docs/reference.md §4), tier and form, the per-server table, the
degradation steps, a table of the listing form over context length × threshold_pct, the
settings that reach each form, the exact ``tool_search`` description and the catalog notes.
Charts are passed in as ready-made HTML fragments (the app renders its plotly figures), so this
module needs no plotting library.

Every piece of catalog text (server and tool names, descriptions, labels, notes) is untrusted
and goes through :func:`html.escape`; a description containing ``<script>`` appears literally.
The output is deterministic: the same inputs give the same bytes (the generation time is an
argument, like every other input).

Besides the plan, the report carries the results the caller computed for the same catalog and
settings: ``tool_search`` responses, the lint report, a search-quality evaluation and the
disclosure strategies; each is a section, or a line saying it was not computed.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .. import __version__
from ..engine import constants as C
from ..engine.config import ToolSearchConfig, changed_keys, dump_config_block
from ..engine.inspector import Inspector
from . import quantities as Q
from ..engine.invisible import reveal, reveal_data, reveal_html, shortened
from .recommend import (reserved_words, OUTCOME_COLUMNS, SESSION_COLUMNS, SESSION_COLUMNS_WORDS, MultiRecommendation, export_block,
                        not_deferred_words, request_cost_lines, lowered_changes, outcome_rows, recommendation_lines, sessions_line,
                        with_core_only,
                        verdict_line)
from .sweep import plan_counts
from .wording import (cap_words, counted, evaluation_share, mean_reciprocal_rank, settings_name, settings_words,
                      severity_counts)
from ..engine.listing import collapsed_words
from ..engine.plan import Plan
from .sweep import (HEATMAP_CONTEXT_LENGTHS, HEATMAP_THRESHOLD_PCTS, form_grid, heat_rows, listing_ladder,
                    recommend)

if TYPE_CHECKING:  # the result types, for hints only (the report reads their public fields)
    from .evaluation import Evaluation
    from .lint import LintReport
    from .strategies import StrategyResult

#: Goals listed in the "settings that reach each form" table, with their wording.
GOALS: tuple[tuple[str, str], ...] = (
    ("full", "form full (every tool with its short description)"),
    ("names", "every server at names or better"),
    ("mixed", "tier 1 (tool names listed)"),
    ("groups", "any listing (summary lines or better)"),
)

# Tables scroll sideways inside their own box. In a narrow window (the app's preview at 1024 px)
# a table is at most 85% of the window's height (the listing-form grid still whole), so its sideways
# scrollbar is in view beside the rows being read and its header stays on top; the scrollbar is always drawn (a scrollbar color turns overlay
# scrollbars off) and a shadow marks a side with more columns (the "local" white covers it at the end).
_CSS = """
mark.hidden-char{background:#ffd8d8;color:#82071e;border-radius:3px;padding:0 2px;font-weight:600}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:1200px;
     padding:0 1rem;color:#1f2328;line-height:1.45}
h1{font-size:1.7rem;margin-bottom:.2rem} h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #d0d7de;
     padding-bottom:.2rem} .sub{color:#57606a;margin-top:0}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem;display:block;max-width:100%;overflow-x:auto} th,td{border:1px solid #d0d7de;padding:.25rem .5rem;
     text-align:left;vertical-align:top} th{background:#f6f8fa} td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.75rem;overflow:auto;white-space:pre-wrap;
     word-break:break-word;font-size:.85rem}
.badge{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600;margin-right:.5rem}
.state{font-weight:600} .grid td{text-align:center;font-size:.8rem;min-width:3.5rem}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:.1rem 1rem;margin:.5rem 0}
dl.meta dt{color:#57606a} dl.meta dd{margin:0;font-variant-numeric:tabular-nums}
.grid th{text-align:center} .muted{color:#57606a} footer{margin-top:3rem;color:#57606a;font-size:.85rem}
table{scrollbar-color:#8c959f #eaeef2;
  background:linear-gradient(to right,#fff 40%,rgba(255,255,255,0)) left/1.5rem 100% no-repeat local,
    linear-gradient(to left,#fff 40%,rgba(255,255,255,0)) right/1.5rem 100% no-repeat local,
    linear-gradient(to right,rgba(31,35,40,.22),rgba(31,35,40,0)) left/.75rem 100% no-repeat scroll,
    linear-gradient(to left,rgba(31,35,40,.22),rgba(31,35,40,0)) right/.75rem 100% no-repeat scroll}
@media (max-width:1000px){table{max-height:85vh;overflow:auto} th{position:sticky;top:0}}
"""


def _luminance(color: str) -> float:
    """WCAG 2.x relative luminance of a ``#rrggbb`` color (0 black … 1 white)."""
    value = color.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"expected a #rrggbb color, got {color!r}")
    channels = []
    for i in (0, 2, 4):
        c = int(value[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG 2.x contrast ratio of two ``#rrggbb`` colors (1.0 … 21.0; AA for normal text needs
    4.5). Raises ``ValueError`` for another color syntax."""
    a, b = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def text_on(background: str) -> str:
    """``#000000`` or ``#ffffff``, whichever contrasts more with ``background`` (``#rrggbb``)."""
    return "#000000" if contrast_ratio("#000000", background) >= contrast_ratio("#ffffff", background) else "#ffffff"


def esc(value: Any, one_line: bool = False) -> str:
    """``html.escape(str(value))`` with quotes escaped too, and invisible characters shown as
    highlighted markers (``⟨U+200B⟩``, ``⟨U+001B⟩``, decoded TAG text;
    :func:`toolsearch.engine.invisible.reveal_html`): the one way catalog text enters HTML. With
    ``one_line`` (a table cell, as the CLI's tables write one), line breaks and tabs are markers too
    (``⟨U+000A⟩``), where HTML would draw them as a space."""
    return reveal_html(str(value), one_line=one_line)


def _tokens(n: int) -> str:
    return f"{n:,} tokens"


def _context(n: int | None, note: str = "") -> str:
    """A context length as the report names it, as every other surface writes one
    (:func:`~toolsearch.analysis.quantities.length_label`: ``200K``, ``12,345 tokens``, ``unknown``);
    ``note`` (why this length) in parentheses after it."""
    return Q.length_label(n) + (f" ({note})" if note else "")



def _wrap_name(name: str) -> str:
    """A column name such as ``listing_tokens``, escaped, with a break opportunity after each ``_``
    (``<wbr>``: no character is added, so the name copies and searches as the CLI and JSON write it)."""
    return esc(name, one_line=True).replace("_", "_<wbr>")


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]], numeric: Iterable[int] = (),
           cell_style: Any = None, css_class: str = "", wrap_names: bool = False) -> str:
    """An HTML table; every cell is escaped. ``cell_style(row, col, value)`` may return a CSS
    string for a cell (only called with engine values, never catalog text as style). With
    ``wrap_names``, a header such as ``listing_tokens`` may wrap after its underscores
    (:func:`_wrap_name`), so a table of the CLI's column names fits a narrow window."""
    numeric = set(numeric)
    head = _wrap_name if wrap_names else (lambda h: esc(h, one_line=True))
    out = [f'<table class="{css_class}">' if css_class else "<table>",
           "<tr>" + "".join(f"<th>{head(h)}</th>" for h in header) + "</tr>"]
    for r, row in enumerate(rows):
        cells = []
        for c, value in enumerate(row):
            text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else ("—" if value is None else value)
            style = cell_style(r, c, value) if cell_style else ""
            attrs = (' class="num"' if c in numeric else "") + (f' style="{esc(style)}"' if style else "")
            cells.append(f"<td{attrs}>{esc(text, one_line=True)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _key(rows: Sequence[Mapping[str, Any]] | None, colors: Mapping[str, str], limit: int = C.REPORT_SERVER_ROWS) -> str:
    """The key table under a figure (see ``figure_keys`` of :func:`build_report`); past ``limit``
    rows (one per listed server) the first ``limit``, with a line saying how many are not shown."""
    if not rows:
        return ""
    header = list(rows[0])
    state = header.index("state") if "state" in header else None

    def style(r: int, c: int, value: Any) -> str:
        return f"{_filled(colors[value])};font-weight:600" if c == state and value in colors else ""

    numeric = [i for i, h in enumerate(header) if isinstance(rows[0][h], int) and not isinstance(rows[0][h], bool)]
    lead = ("Key: every part of the chart, in order." if len(rows) <= limit
            else f"Key: the parts of the chart, in order (the first {limit:,} of {len(rows):,}).")
    more = ("" if len(rows) <= limit else
            f'<p class="muted">The first {limit:,} of {len(rows):,} parts of the chart; the other {len(rows) - limit:,} '
            "are not shown here (<code>toolsearch plan --json</code> lists every server under <code>servers</code>, "
            "in the chart's order under <code>collapse_order</code>).</p>")
    return (f'<p class="muted">{lead}</p>'
            + _table(header, [[row.get(h) for h in header] for row in rows[:limit]], numeric=numeric, cell_style=style)
            + more)


def _color(colors: Mapping[str, str], key: str) -> str:
    return colors.get(key, "#57606a")


def _summary(plan: Plan, inspector: Inspector, source_label: str | None, context_length: int | None) -> str:
    def pct(n: int) -> str:
        share = Q.context_share(n, context_length)
        return f" ({share} of context)" if share else ""

    eager, tools, saved = Q.all_schemas_up_front(plan), Q.tools_array(plan), Q.saved_per_request(plan)
    rows = [
        ("catalog", inspector.catalog.name),
        ("source", source_label or ", ".join(inspector.catalog.sources) or "—"),
        *([("session scope", f"{inspector.scope.describe()} ({len(inspector.registration.tools):,} of "
                             f"{counted(len(inspector.full_registration.tools), 'tool')})")]
          if inspector.scope is not None else []),
        ("servers", f"{len(plan.servers):,}"),
        ("tools (registered)", f"{len(inspector.registration.tools):,}"),
        ("deferred tools", f"{Q.deferred_tools(plan):,}"
                           + ("" if plan.activated else f" (tool search is not active: {counted(plan.deferred_count, 'tool')} "
                                                        "could be deferred)")),
        ("visible tools", f"{plan.visible_count:,}"),
        (f"{Q.ALL_SCHEMAS.name.lower()} ({plan.display_tokenizer})", _tokens(eager) + pct(eager)),
        (f"{Q.TOOLS_ARRAY.name.lower()} ({plan.display_tokenizer})", _tokens(tools) + pct(tools)),
        (f"{Q.DEFERRED_SCHEMAS.name.lower()} ({plan.display_tokenizer})", _tokens(Q.deferred_schemas(plan))),
        (Q.SAVED.name.lower(), _tokens(saved) + (f" ({Q.saved_share_words(plan)})" if Q.saved_share_words(plan) else "")),
    ]
    if Q.costs_more_words(plan):
        rows.append(("verdict", Q.costs_more_words(plan)))
    return _table(["", "value"], rows)


def _settings(plan: Plan, config: ToolSearchConfig, inspector: Inspector, context_length: int | None,
              context_note: str = "", recommended: MultiRecommendation | None = None) -> str:
    """The settings the report's listing figures are computed at. With a recommendation shown
    (``recommended``), said to be the current settings, not the ones to ship."""
    lead = ""
    if recommended is not None:
        lead = ("<p><strong>" + esc(current_settings_words(config, recommended)) + "</strong></p>")
    rows = [
        ("context length", _context(context_length, context_note)),
        ("planning tokenizer (decides what fits)", plan.planning_tokenizer),
        ("display tokenizer (costs shown)", plan.display_tokenizer),
        ("tool names", inspector.naming),
        ("wording profile", f"{inspector.profile.name} ({inspector.profile.source})"),
    ]
    named = settings_name(config.threshold_pct, config.listing_max_tokens).split()[0]  # "default" or "current"
    parts = [lead + _table(["setting", "value"], rows),
             "<p>The " + (f"{named} " if recommended is not None else "") + "<code>tools.tool_search</code> block (only the keys that differ from the reference defaults"
             + ("" if changed_keys(config) else
                f"; none do here: {settings_words(config.threshold_pct, config.listing_max_tokens)} are the defaults")
             + "):</p>",
             f"<pre>{esc(dump_config_block(config))}</pre>"]
    if config.warnings:
        parts.append("<ul>" + "".join(f"<li>{esc(w)}</li>" for w in config.warnings) + "</ul>")
    return "\n".join(parts)


def _budget(plan: Plan, config: ToolSearchConfig, context_length: int | None, context_note: str = "") -> str:
    if context_length:
        leg = (f"int({context_length:,} × {config.threshold_pct:g} / 100) = {plan.pct_leg:,} tokens"
               + (f" (context length {Q.length_label(context_length)}, {context_note})" if context_note else ""))
    else:
        leg = f"{plan.pct_leg:,} tokens (fixed fallback: context length unknown)"
    fits = ("nothing fits or the listing is off" if plan.listing_form == "none" else "fits")
    items = [
        f"Percentage leg: {leg}",
        f"Cap (listing_max_tokens): {config.listing_max_tokens:,} tokens",
        f"<b>Budget = min(cap, percentage leg) = {plan.budget:,} tokens</b>, decided by {esc(plan.budget_winner)}",
        f"Listing: {plan.listing_tokens:,} tokens ({esc(plan.planning_tokenizer)}), {fits}",
    ]
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _filled(color: str) -> str:
    """CSS for text on a filled ``color``: the background and black or white text, whichever
    contrasts more (WCAG AA)."""
    return f"background:{color};color:{text_on(color)}"


def _tier(plan: Plan, colors: Mapping[str, str]) -> str:
    tier_text = Q.TIER_LABELS
    tier_color = {0: _color(colors, "none"), 1: _color(colors, "full"), 2: _color(colors, "groups")}
    return (f'<p><span class="badge" style="{esc(_filled(tier_color[plan.tier]))}">{esc(tier_text[plan.tier])}</span>'
            f'<span class="badge" style="{esc(_filled(_color(colors, plan.listing_form)))}">'
            f"Form: {esc(plan_counts(plan).label)}</span></p>")


def _not_shown(shown: int, total: int, noun: str, where: str) -> str:
    """The line under a per-server table cut at ``shown`` of ``total`` rows (empty when nothing is
    cut): how many are not shown and where every one is (``toolsearch plan --json``'s ``where``)."""
    if total <= shown:
        return ""
    return (f'<p class="muted">The first {shown:,} of {total:,} {noun}; the other {total - shown:,} are not shown here '
            f"(<code>toolsearch plan --json</code> lists every one under <code>{esc(where)}</code>).</p>")


def _servers(plan: Plan, colors: Mapping[str, str], limit: int = C.REPORT_SERVER_ROWS) -> str:
    header = ["server", "kind", "tools", "state", "collapse #", *Q.SERVER_TOKEN_COLUMNS.values(), "why"]
    shown = plan.servers[:limit]
    rows = [(s.name, s.kind, s.tool_count, s.state, s.collapse_rank, s.schema_tokens, s.full_tokens,
             s.names_tokens, s.summary_tokens, s.reason) for s in shown]
    states = [s.state for s in shown]

    def style(r: int, c: int, value: Any) -> str:
        return f"{_filled(_color(colors, states[r]))};font-weight:600" if c == 3 else ""

    note = ""
    if plan.collapse_order:
        order = plan.collapse_order
        more = (f" → … ({len(order) - limit:,} more: <code>toolsearch plan --json</code> lists every one under "
                "<code>collapse_order</code>)" if len(order) > limit else "")
        note = ("<p class=\"muted\">Collapse order (largest names block first, ties by label): "
                + " → ".join(esc(label) for label in order[:limit]) + more + "</p>")
    return (_table(header, rows, numeric=(2, 4, 5, 6, 7, 8), cell_style=style)
            + _not_shown(len(shown), len(plan.servers), "servers", "servers") + note)


def _steps(plan: Plan, limit: int = C.REPORT_SERVER_ROWS) -> str:
    """The degradation steps; past ``limit`` steps (one per collapsed server) the first and the
    last ``limit // 2`` (where the listing comes to fit), with a line saying which are not shown."""
    if not plan.steps:
        return "<p class=\"muted\">No degradation: tool search or the listing is off.</p>"
    count = len(plan.steps)
    kept = range(count) if count <= limit else [*range(limit // 2), *range(count - limit // 2, count)]
    rows = [(i + 1, Q.form_word(plan.steps[i].form), collapsed_words(plan.steps[i].collapsed), plan.steps[i].tokens,
             "yes" if plan.steps[i].fits else "no") for i in kept]
    lead = ""
    if count > limit:
        head, tail = limit // 2, count - limit // 2 + 1
        lead = (f'<p class="muted">Steps 1–{head:,} and {tail:,}–{count:,} of {count:,}; the other '
                f"{count - 2 * (limit // 2):,} are not shown here (<code>toolsearch plan --json</code> lists every one "
                "under <code>steps</code>).</p>")
    return lead + _table(["step", "form", "collapsed servers", "listing (tokens)", f"fits in {plan.budget:,}"],
                         rows, numeric=(0, 3))


def _grid(inspector: Inspector, config: ToolSearchConfig, tokenizer: str, colors: Mapping[str, str],
          context_lengths: Sequence[int], threshold_pcts: Sequence[float]) -> str:
    ladder = listing_ladder(inspector.planner, config, tokenizer)
    points = form_grid(ladder, config, context_lengths, threshold_pcts)
    by_key = {(p.threshold_pct, p.context_length): p for p in points}
    header = "<tr><th>threshold_pct (rows) / context length (columns)</th>" + "".join(
        f"<th>{esc(Q.length_label(c))}</th>" for c in context_lengths) + "</tr>"
    rows = []
    for pct in heat_rows(p.threshold_pct for p in points):  # largest on top, as the Tuning page's table
        cells = []
        for context in context_lengths:
            p = by_key[(pct, context)]
            title = (f"budget {p.budget:,} tokens, listing {p.listing_tokens:,} tokens, tier {p.tier}, "
                     f"{p.label}")
            cells.append(f'<td style="{esc(_filled(_color(colors, p.listing_form)))}" title="{esc(title)}">'
                         f"{esc(p.short_label)}<br>{p.budget:,}</td>")
        rows.append(f"<tr><th>{pct:g}%</th>" + "".join(cells) + "</tr>")
    legend = " ".join(f'<span class="badge" style="{esc(_filled(_color(colors, f)))}">{esc(Q.form_word(f))}</span>'
                      for f in C.FORMS)
    return (f"<p>At {cap_words(config.listing_max_tokens)} (planning tokenizer {esc(ladder.planning_tokenizer)}). "
            f"Each cell: form and budget (tokens). {legend}</p>"
            f'<table class="grid">{header}{"".join(rows)}</table>')


def _goals(inspector: Inspector, config: ToolSearchConfig, context_length: int | None, tokenizer: str,
           recommendation: MultiRecommendation | None = None) -> str:
    """The smallest settings that reach each form with every server counted; with a recommendation
    whose goal excepts or keeps servers, a line first says that its budget is another figure."""
    ladder = listing_ladder(inspector.planner, config, tokenizer)
    lead = ""
    if recommendation is not None and (recommendation.except_servers or recommendation.keep_servers):
        lead = ('<p class="muted">Each goal here counts every server of the catalog; the recommended settings '
                f"above are chosen for their own goal ({esc(recommendation.goal_words)}), so their budget need not "
                "match a row here.</p>")
    rows = []
    for goal, words in GOALS:
        rec = recommend(ladder, config, context_length, goal)
        if rec.budget is None:
            rows.append((words, None, None, None, "never", "no"))
            continue
        pct = f"{rec.threshold_pct:g}%" if rec.threshold_pct is not None else (
            "any (context unknown)" if rec.reachable else "over 100%")
        from_ctx = (f"{rec.context_length_from:,} tokens" if rec.context_length_from is not None
                    else "never (cap or threshold_pct too small)")
        rows.append((words, rec.budget, pct, rec.listing_max_tokens, from_ctx, "yes" if rec.met else "no"))
    return lead + _table(["goal", "smallest budget (tokens)", f"threshold_pct at {_context(context_length)}",
                          "listing_max_tokens at least (tokens)",
                          f"from context length (at {config.threshold_pct:g}%, cap {config.listing_max_tokens:,})",
                          "met now"], rows, numeric=(1, 3))


def _recommendation(rec: MultiRecommendation | None, inspector: Inspector, config: ToolSearchConfig,
                    fingerprint: str | None, profile_path: str | None, catalogs: Sequence[str] = (),
                    warnings: Sequence[str] = (), client_configs: Sequence[str] = (),
                    compared_with: ToolSearchConfig | None = None, config_file: str = "config.yaml") -> str:
    """The multi-length recommendation as ``toolsearch recommend`` words it (the same lines, the
    same per-length table and the same harness config block as ``recommend --yaml``); where it
    lists less is weighed against ``compared_with`` (default: ``config``)."""
    if rec is None:
        return ('<p class="muted">Not computed: it needs the context lengths the config serves and a goal '
                "(<code>toolsearch report --context-lengths … --goal …</code>; in the app, the Tuning page's context "
                "lengths and goal).</p>")
    ladder = listing_ladder(inspector.planner, config, rec.planning_tokenizer)
    # the lengths where only built-in tools are named: the same function as recommend's and the Tuning page's
    rec = with_core_only(rec, ladder, {s.name: s.kind for s in inspector.catalog.servers})
    sessions = any(c.called_total is not None for c in rec.contexts)
    base = compared_with if compared_with is not None else config
    lowered = lowered_changes(ladder, base, rec)
    request_costs = request_cost_lines(rec, inspector.planner, config)  # as the summary above says it for its length
    lines = recommendation_lines(rec, base, lowered, ladder, surface="report", request_costs=request_costs)
    verdict = verdict_line(rec)  # the first line of recommend's text output
    block = export_block(rec, base, catalog_name=inspector.catalog.name, fingerprint=fingerprint or "—",
                         version=__version__, tool_names=inspector.naming, profile=profile_path,
                         scope=inspector.scope.name if inspector.scope is not None else None,
                         catalogs=catalogs, client_configs=client_configs, config_file=config_file,
                         lowered=lowered, ladder=ladder, request_costs=request_costs)
    differs = ""
    if (rec.threshold_pct, rec.listing_max_tokens) != (config.threshold_pct, config.listing_max_tokens):
        differs = ("<p class=\"muted\">" + esc(
            "The rest of this report shows the settings it was built with "
            f"({settings_words(config.threshold_pct, config.listing_max_tokens)}); the block below is the one to ship for this goal.")
            + "</p>")
    warned = "".join(f"<p><strong>Warning:</strong> {esc(words)}</p>" for words in warnings)
    # With the sessions' called servers kept named, "Not keepable" names the same tools (with their servers) as
    # "Not counted" would: one paragraph, each tool named once, as on the command line and the Tuning page.
    keepable_said = rec.keep_called is not None and bool(rec.keep_called.not_keepable)
    return (f"<p><strong>{esc(verdict)}</strong></p>{warned}{differs}<ul>" + "".join(f"<li>{esc(line)}</li>" for line in lines)
            + "</ul>" + _table((*OUTCOME_COLUMNS, *(SESSION_COLUMNS if sessions else ())),
                                 outcome_rows(rec, sessions=sessions), numeric=(0, 1, 2, 4, 6, 8),
                                 css_class="outcomes", wrap_names=True)
            + (f"<p class=\"muted\">{esc(sessions_line(rec) or SESSION_COLUMNS_WORDS)}</p>" if sessions else "")
            + (f"<p><strong>Catalog drift:</strong> {esc(rec.sessions_drift, one_line=True)}</p>" if sessions and rec.sessions_drift
               else "")
            + (f"<p><strong>Not counted:</strong> {esc(not_deferred_words(rec.sessions_not_deferred), one_line=True)}</p>"
               if sessions and rec.sessions_not_deferred and not keepable_said else "")
            + (f"<p><strong>Not keepable:</strong> {esc(rec.keep_called.not_keepable_words(), one_line=True)}</p>"
               if rec.keep_called is not None and rec.keep_called.not_keepable else "")
            + (f"<p><strong>Recorded by another release:</strong> {esc(rec.sessions_note)}</p>"
               if sessions and rec.sessions_note else "")
            + f"<p>{esc(_block_intro(rec, inspector))}</p><pre>{esc(block)}</pre>")


def _block_intro(rec: MultiRecommendation, inspector: Inspector) -> str:
    """The sentence above the config block: it names the gate line only where the block has one
    (a goal reached, for the whole catalog; ``toolsearch check`` judges no session scope)."""
    if not rec.reached:
        return "The harness config block, with where it came from (no # gate: line: the goal is not reached):"
    if inspector.scope is not None:
        return ("The harness config block, with where it came from (no # gate: line: toolsearch check judges the "
                "whole catalog, not a session scope):")
    return "The harness config block, with where it came from and the check that gates a catalog on it:"


def _notes(plan: Plan, inspector: Inspector, notes: Sequence[str] = ()) -> str:
    items = ([esc(n) for n in notes] + [esc(n) for n in plan.notes]
             + [esc(str(p)) for p in inspector.registration.problems])
    if not items:
        return "<p class=\"muted\">None.</p>"
    return "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def _poisoning(inspector: Inspector, limit: int = 300) -> str:
    """Hidden characters, instructions to the model, URLs carrying conversation data, look-alike
    names and shadowing (:func:`toolsearch.analysis.lint.poisoning`): the first ``limit`` findings,
    as the lint table shows them, and a line saying how many more there are."""
    from .lint import poisoning  # noqa: PLC0415

    found = poisoning(inspector.catalog, inspector.naming)
    if not found:
        return ("<p class=\"muted\">No hidden characters, instructions to the model, URLs carrying conversation data, "
                "look-alike names or references to other servers' tools.</p>")
    rows = [(f.severity, f.rule, shortened(f.server), shortened(f.tool), f.field, "" if f.offset is None else f.offset,
             f.message)
            for f in found[:limit]]
    more = (f'<p class="muted">The first {limit:,} of {len(found):,} findings (<code>toolsearch lint</code> lists every '
            "one).</p>" if len(found) > limit else "")
    return _table(["severity", "rule", "server", "tool", "field", "offset", "finding"], rows, numeric=(5,)) + more


def _meta(generated: str | None, fingerprint: str | None, source_label: str | None, plan: Plan,
          config: ToolSearchConfig, context_length: int | None, context_note: str = "", current: bool = False) -> str:
    rows = [("generated", generated or "—"), ("toolsearch version", __version__),
            ("catalog fingerprint", fingerprint or "—"), ("source", source_label or "—"),
            (settings_name(config.threshold_pct, config.listing_max_tokens) if current else "settings", f"context length {_context(context_length, context_note)} · "
                         f"{settings_words(config.threshold_pct, config.listing_max_tokens)} · enabled {config.enabled} · "
                         f"listing {config.listing} · planning tokenizer {plan.planning_tokenizer} · "
                         f"display tokenizer {plan.display_tokenizer}")]
    return '<dl class="meta">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows) + "</dl>"


def _visible_json(value: Any) -> str:
    """``value`` as indented JSON with every string's invisible and control characters as markers
    (:func:`toolsearch.engine.invisible.reveal_data`), as the app's JSON views and the CLI show it:
    ``⟨U+001B⟩``, where JSON's own escape would be ``\\u001b``."""
    return json.dumps(reveal_data(value), ensure_ascii=False, indent=2)


def _search(search: Mapping[str, Any] | None) -> str:
    if search is None:
        return '<p class="muted">Not computed.</p>'
    if "results" not in search:  # an error response of the bridge
        return f"<pre>{esc(_visible_json(search))}</pre>"
    rows = [(i + 1, r.get("query", ""), len(r.get("matches", [])), ", ".join(r.get("matches", [])) or "no matches")
            for i, r in enumerate(search["results"])]
    return (_table(["#", "query", "matches", "matched tools (best first)"], rows, numeric=(0, 2))
            + "<details><summary>The exact tool_search response (JSON)</summary>"
            f"<pre>{esc(_visible_json(search))}</pre></details>")


def _lint(report: "LintReport | None", colors: Mapping[str, str], limit: int = 300) -> str:
    if report is None:
        return '<p class="muted">Not computed.</p>'
    counts = report.counts()
    summary = severity_counts(counts)
    if not report.findings:
        return f"<p>No findings ({esc(summary)}).</p>"
    shown = report.findings[:limit]

    def style(r: int, c: int, value: Any) -> str:
        return f"{_filled(colors[value])};font-weight:600" if c == 0 and value in colors else ""

    more = (f'<p class="muted">The first {limit:,} of {len(report.findings):,} findings.</p>'
            if len(report.findings) > limit else "")
    table = _table(["severity", "rule", "server", "tool", "finding", "fix"],
                   [(f.severity, f.rule, shortened(f.server) or "—", shortened(f.tool) or "—", f.message, f.fix)
                    for f in shown],
                   cell_style=style) + more
    opened = " open" if len(report.findings) <= 20 else ""
    return (f"<p>{esc(summary)}.</p><details{opened}><summary>{counted(len(report.findings), 'finding')}</summary>"
            f"{table}</details>")


def _quality(evaluation: "Evaluation | None") -> str:
    if evaluation is None:
        return '<p class="muted">Not computed.</p>'

    from .evaluation import EMPTY_OR_NOT_ACCURACY, NONSENSE_QUERIES_EMPTY  # noqa: PLC0415  (names as eval's)

    share = evaluation_share  # as eval and the Search quality page print them: 0.833

    # Beside the per-task figures, the per-query pair that eval, the Quality page and the docs lead
    # with: a variant that never comes back empty still scores well on empty-or-not accuracy alone.
    rows = [(v.name, share(v.metrics.recall_at_1), share(v.metrics.recall_at_k), share(v.metrics.recall_at_limit),
             mean_reciprocal_rank(v.metrics.mrr), share(v.metrics.query_recall_at_k), share(v.metrics.nonsense_queries_empty),
             share(v.metrics.abstention_accuracy), v.metrics.tasks)
            for v in evaluation.variants]
    head = (f"<p>Query file {esc(evaluation.query_file.name)} · "
            f"{counted(len(evaluation.query_file.tasks), 'task')} · limit {evaluation.limit} · "
            f"{counted(evaluation.deferred_count, 'deferred tool')} searched.</p>"
            # In sample or out of sample, as eval and the Quality page say it: an in-sample figure is no result.
            f"<p>{esc(evaluation.protocol_note())}.</p>"
            # Which variant the tuning rule picks on these figures (or why none can be), as eval and
            # the Quality page say it.
            f"<p>{esc(evaluation.trade_off())}.</p>")
    # Regex scans that stopped at their time limit or were not run, as eval and the Quality page say it.
    head += "".join(f"<p>{esc(line)}.</p>" for line in evaluation.time_limit_lines())
    if evaluation.unknown_expected:  # e.g. a session scope's report scored on the whole catalog's queries
        shown = ", ".join(evaluation.unknown_expected[:5]) + (" …" if len(evaluation.unknown_expected) > 5 else "")
        head += (f"<p>{esc(counted(len(evaluation.unknown_expected), 'expected name'))} "
                 f"{'is' if len(evaluation.unknown_expected) == 1 else 'are'} not among the deferred tools searched "
                 f"(outside the session scope, or the query file is for another catalog); they count as misses: "
                 f"{esc(shown)}</p>")
    return head + _table(["variant", "recall@1", f"recall@{evaluation.k}", "recall@limit", "MRR",
                          f"query recall@{evaluation.k}", NONSENSE_QUERIES_EMPTY.label, EMPTY_OR_NOT_ACCURACY.label, "tasks"],
                         rows, numeric=(1, 2, 3, 4, 5, 6, 7, 8))


def _strategies(results: "Sequence[StrategyResult] | None", label: str | None, colors: Mapping[str, str]) -> str:
    if not results:
        return '<p class="muted">Not computed (open the Strategies page, then build the report again).</p>'

    def style(r: int, c: int, value: Any) -> str:
        color = colors.get(results[r].strategy)
        return f"{_filled(color)};font-weight:600" if c == 0 and color else ""

    rows = [(r.label, r.upfront_tokens, r.task_tokens, r.round_trips, r.cache_breaks) for r in results]
    note = ""
    upfront = next((r for r in results if r.strategy == "all_upfront"), None)
    if upfront is not None:
        schemas = upfront.upfront_breakdown.get("schema", 0)
        extra = upfront.upfront_tokens - schemas
        note = (f'<p class="muted">{esc(upfront.label)}: {schemas:,} tokens of tool definitions before the first turn '
                f"(the {esc(Q.ALL_SCHEMAS.name.lower())} figure of the summary, for the same catalog and tokenizer)"
                + (f" + {extra:,} tokens of skill listing" if extra else "") + ".</p>")
    return ((f"<p>For {esc(label)}.</p>" if label else "")
            + _table(["strategy", "up front (tokens)", "task (tokens)", "round trips", "cache breaks"], rows,
                     numeric=(1, 2, 3, 4), cell_style=style) + note)



def recommended_words(rec: MultiRecommendation) -> str:
    """The recommendation in one line, as the report's subtitle leads with it: ``Recommended: threshold_pct
    5.1, listing_max_tokens 1,621 (every server at names or better at 32K, 200K and 1M)``, or, out of
    reach, ``Best reachable (goal not reached): …``: the two values of the config block under
    Recommended settings across context lengths."""
    lengths = ", ".join(Q.length_label(c.context_length) for c in rec.contexts)
    head = "Recommended" if rec.reached else "Best reachable (goal not reached)"
    asked = "".join([f"; {rec.headroom_pct:g}% headroom" if rec.headroom_pct else "",
                     f"; {reserved_words(rec.reserve_pct)}" if rec.reserve_pct else ""])
    return (f"{head}: {settings_words(rec.threshold_pct, rec.listing_max_tokens)} "
            f"({rec.goal_words}; context lengths {lengths}{asked})")


def current_settings_words(config: ToolSearchConfig, rec: MultiRecommendation) -> str:
    """Which settings the report's listing figures are computed at, beside a recommendation: the
    ``config`` ones (the "default settings" when they are the defaults, else the "current settings",
    :func:`~toolsearch.analysis.wording.settings_name`), said to differ from the recommended ones, or to be them."""
    now = settings_words(config.threshold_pct, config.listing_max_tokens)
    named = settings_name(config.threshold_pct, config.listing_max_tokens).capitalize()
    which = "recommended" if rec.reached else "best reachable"
    if (rec.threshold_pct, rec.listing_max_tokens) == (config.threshold_pct, config.listing_max_tokens):
        return f"{named} ({now}): the {which} ones; the figures below are computed at them."
    return (f"{named} ({now}), not the {which} ones: the listing, budget, tier, server and cost "
            "figures below are computed at these; the "
            + ("recommended block to ship" if rec.reached else "best reachable setting's block (the goal is not reached)")
            + " is under Recommended settings across context lengths.")


def tier_and_form(plan: Plan) -> str:
    """``tier 1 · form names · 9 of 9 servers named (178 tools)``: the outcome the report's subtitle
    names, and the Report page beside it when the page's tier bar is for another context length."""
    return f"tier {plan.tier} · form {plan_counts(plan).label}"

def build_report(inspector: Inspector, config: ToolSearchConfig, context_length: int | None,
                 tokenizer: str = C.DEFAULT_TOKENIZER, display_tokenizer: str | None = None,
                 figures: Mapping[str, str] | None = None, *, source_label: str | None = None,
                 state_colors: Mapping[str, str] | None = None,
                 context_lengths: Sequence[int] = HEATMAP_CONTEXT_LENGTHS,
                 threshold_pcts: Sequence[float] = HEATMAP_THRESHOLD_PCTS,
                 generated: str | None = None, fingerprint: str | None = None,
                 search: Mapping[str, Any] | None = None, lint_report: "LintReport | None" = None,
                 evaluation: "Evaluation | None" = None, strategies: "Sequence[StrategyResult] | None" = None,
                 strategies_label: str | None = None, severity_colors: Mapping[str, str] | None = None,
                 strategy_colors: Mapping[str, str] | None = None,
                 figure_keys: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
                 recommendation: MultiRecommendation | None = None, profile_path: str | None = None,
                 catalogs: Sequence[str] = (), recommendation_warnings: Sequence[str] = (),
                 context_note: str = "", client_configs: Sequence[str] = (),
                 compared_with: ToolSearchConfig | None = None, config_file: str = "config.yaml",
                 notes: Sequence[str] = ()) -> str:
    """The HTML report (one self-contained document, UTF-8 text).

    Args:
        inspector: the registered catalog.
        config: the ``tools.tool_search`` settings.
        context_length: tokens, or ``None`` for unknown.
        tokenizer: the planning tokenizer; ``display_tokenizer`` the one for costs (defaults to
            ``tokenizer``).
        figures: ``{title: html fragment}`` inserted in order after the tables. The fragments
            are inserted as they are, so they must be HTML the caller generated (e.g. plotly's
            ``to_html(full_html=False)``, whose data is JSON-escaped) and must not load anything
            from the network; titles are escaped.
        source_label: where the catalog came from, for the summary.
        state_colors: CSS colors per state/form (``full``, ``names``, ``mixed``, ``summary``,
            ``groups``, ``hidden``, ``none``, ``visible``); missing ones are gray.
        context_lengths, threshold_pcts: the grid of the form table (tokens; %).
        generated: when the report was made, as the caller wants it shown (e.g. ISO 8601 UTC);
            ``fingerprint``: a content key of the catalog (e.g. 16 hex digits of a sha256).
        search: a ``tool_search`` response (the bridge's dict) for the queries of interest.
        lint_report, evaluation, strategies: results computed for the same catalog and settings
            (``strategies_label`` names the catalog and task they are for); ``severity_colors``
            and ``strategy_colors`` fill their first column. ``None``: "not computed".
        figure_keys: ``{figure title: rows}``: a key table printed under that figure (each row a
            mapping column → value, every cell escaped; a ``state`` column is filled with its
            ``state_colors``), so a reader can name every part of the chart without hovering.
        recommendation: one ``threshold_pct`` and ``listing_max_tokens`` for several context
            lengths (:func:`toolsearch.analysis.recommend.recommend_for_contexts` on the same catalog
            and ``config``), shown with ``toolsearch recommend``'s lines, table and config block;
            ``None``: the section says how to get one. ``profile_path``: the wording profile file
            the catalog was registered with, for the block's ``# gate:`` line (``None``: the shipped
            one); ``catalogs``: the catalog files as given, which that line names (none: ``CATALOG``,
            as in the app), and ``client_configs`` the MCP client configs among them, which that line
            reads from the catalog file a ``# snapshot:`` line saves; ``config_file``: the harness
            config that line reads (``report --config`` as typed); ``recommendation_warnings``: sentences (plain text) shown as warnings
            under its verdict, e.g. what the catalog lacks that ``toolsearch recommend`` refuses
            it for (the app's pages; the command refuses such a catalog instead).
        context_note: why the report is planned at ``context_length`` (e.g. ``the shortest of
            --context-lengths``), said beside the length wherever the report names it; empty: nothing.
        compared_with: the settings the recommendation replaces, for its "lists less than" line and
            block comment (the app's settings before "Apply to the sidebar"); ``None``: ``config``.
        notes: sentences (plain text) put first in the Notes section, e.g. how the harness config's
            MCP servers disagree with the catalog's
            (:meth:`toolsearch.live.config_agreement.ServerAgreement.sentences`).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    colors = dict(state_colors or {})
    plan = inspector.plan(config, context_length, tokenizer, display_tokenizer)
    name = inspector.catalog.name
    recommended_section = ("Recommended settings across context lengths",
                           _recommendation(recommendation, inspector, config, fingerprint, profile_path, catalogs,
                                           recommendation_warnings, client_configs, compared_with, config_file))
    # With a recommendation, the report leads with it (the answer of a design review); the settings the
    # figures are computed at follow it, labeled as the current ones, so a skimming reader does not
    # take the current block (often "{}", the defaults) for the one to ship.
    sections = [
        *([recommended_section] if recommendation is not None else []),
        ("About this report", _meta(generated, fingerprint, source_label, plan, config, context_length,
                                           context_note, current=recommendation is not None)),
        ("Catalog", _summary(plan, inspector, source_label, context_length)),
        (settings_name(config.threshold_pct, config.listing_max_tokens).capitalize()
         + " (the figures below are computed at these)" if recommendation is not None else "Settings",
         _settings(plan, config, inspector, context_length, context_note, recommendation)),
        *([recommended_section] if recommendation is None else []),
        ("Listing budget", _budget(plan, config, context_length, context_note)),
        ("Tier and form", _tier(plan, colors)),
        ("Servers", _servers(plan, colors)),
        ("Degradation steps", _steps(plan)),
        ("Listing form over context length × threshold_pct (table)",
         _grid(inspector, config, tokenizer, colors, context_lengths, threshold_pcts)),
        ("Settings that reach each form", _goals(inspector, config, context_length, tokenizer, recommendation)),
    ]
    keys = dict(figure_keys or {})
    for title, fragment in (figures or {}).items():
        sections.append((title, f'<div class="figure">{fragment}</div>' + _key(keys.get(title), colors)))
    sections += [
        ("Search (tool_search responses)", _search(search)),
        ("Search quality", _quality(evaluation)),
        ("Lint", _lint(lint_report, dict(severity_colors or {}))),
        ("Disclosure strategies", _strategies(strategies, strategies_label, dict(strategy_colors or {}))),
    ]
    description = plan.tool_search_description
    sections.append((
        "tool_search description (as the model receives it)",
        f"<pre>{esc(description)}</pre>" if description is not None
        else "<p class=\"muted\">Tier 0: tool search is not active, so there is no tool_search tool.</p>"))
    sections.append(("Tool poisoning checks", _poisoning(inspector)))
    sections.append(("Notes", _notes(plan, inspector, notes)))
    body = "\n".join(f"<section><h2>{esc(title)}</h2>\n{content}\n</section>" for title, content in sections)
    heading = name + (f" (scope {inspector.scope.name})" if inspector.scope is not None else "")
    subtitle = ((f"Session scope {inspector.scope.name} ({len(inspector.registration.tools):,} of "
                 f"{len(inspector.full_registration.tools):,} tools) · " if inspector.scope is not None else "")
                + (f"Figures below at the {settings_name(config.threshold_pct, config.listing_max_tokens)}: context length "
                   if recommendation is not None
                   else "Context length ")
                + f"{_context(context_length, context_note)} · "
                f"{settings_words(config.threshold_pct, config.listing_max_tokens)} · {tier_and_form(plan)}")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        # A title is plain text (no <mark>): the markers alone.
        f"<title>toolsearch report: {html.escape(reveal(heading))}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>toolsearch report: {esc(heading)}</h1>\n"
        + (f"<p class=\"lead\"><strong>{esc(recommended_words(recommendation))}</strong></p>\n"
           if recommendation is not None else "")
        + f"<p class=\"sub\">{esc(subtitle)}</p>\n{body}\n"
        f"<footer>Generated by toolsearch {esc(__version__)}{' on ' + esc(generated) if generated else ''}. "
        "Catalog text is shown as plain text.</footer>\n"
        "</body>\n</html>\n"
    )


__all__ = ["build_report", "contrast_ratio", "current_settings_words", "esc", "recommended_words", "text_on", "GOALS"]

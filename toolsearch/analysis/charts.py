"""Plotly figures shared by the Costs page (and any page or report that shows the same charts).

Only presentation lives here: every number comes from the engine's :class:`~toolsearch.engine.plan.Plan`
or :meth:`~toolsearch.engine.plan.Planner.tool_tokens`. Catalog text (server and tool names,
descriptions) is untrusted: plotly renders a subset of HTML in labels and hover text, so every
such string goes through :func:`esc` before it reaches a figure.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Sequence

import plotly.graph_objects as go

from toolsearch.analysis import palette
from toolsearch.analysis.palette import COST_KIND_COLORS, STATE_COLORS
from toolsearch.engine.invisible import reveal, shortened
from toolsearch.analysis.quantities import TOOL_SCHEMA_COLUMN, form_word, length_label
from toolsearch.analysis.wording import cap_words, threshold_words
from toolsearch.engine.plan import Plan, ServerPlan

#: The four per-server cost kinds: (ServerPlan field, legend label, color). Their colors are the
#: cost-kind palette (one slate hue, dark to light), never a state color: a server's state is named
#: under its bars, and the bar its state uses is outlined.
COST_KINDS: tuple[tuple[str, str, str], ...] = tuple(
    (field_name, label, COST_KIND_COLORS[label]) for field_name, label in (
        ("schema_tokens", "full schemas"), ("full_tokens", "full block"), ("names_tokens", "names block"),
        ("summary_tokens", "summary line")))
COST_COLORS = dict(COST_KIND_COLORS)
#: Which cost kind a server's state puts in front of the model (``hidden``: none of them).
STATE_KIND = {"visible": "schema_tokens", "full": "full_tokens", "names": "names_tokens", "summary": "summary_tokens"}
#: The budget line on every cost chart, drawn above the bars on a wider, half-transparent white
#: line (its halo), so it reads across a dark bar as well as over the plot; the bar shows through
#: the halo, so a bar ending just above the budget is not cut short by a white band.
BUDGET_LINE = dict(color="#B2182B", width=2, dash="dash")
BUDGET_HALO = dict(color="rgba(255,255,255,0.5)", width=6)
FONT = dict(family="Source Sans Pro, sans-serif", size=13)
#: Figures with more traces than this are built without plotly's per-property validation.
VALIDATE_TRACES = 60


class _Fig:
    """A figure spec collected as plain dicts and validated once by :meth:`build` (plotly validates
    every ``add_*`` call on a ``go.Figure`` separately, and ``add_vline`` is slower still: on a
    slider move the Costs page redraws five figures). Implements the ``go.Figure`` methods these
    charts use, with the same arguments."""

    def __init__(self) -> None:
        self.data: list[dict] = []
        self.layout: dict = {}
        self.shapes: list[dict] = []
        self.annotations: list[dict] = []

    def add_bar(self, **kw) -> None:
        self.data.append({"type": "bar", **kw})

    def add_scatter(self, **kw) -> None:
        self.data.append({"type": "scatter", **kw})

    def add_vline(self, x: float, line: dict, layer: str = "above") -> None:
        self.shapes.append(dict(type="line", xref="x", x0=x, x1=x, yref="y domain", y0=0, y1=1, line=line,
                                layer=layer))

    def add_hline(self, y: float, line: dict, layer: str = "above") -> None:
        self.shapes.append(dict(type="line", yref="y", y0=y, y1=y, xref="x domain", x0=0, x1=1, line=line,
                                layer=layer))

    def add_annotation(self, **kw) -> None:
        self.annotations.append(kw)

    def update_layout(self, **kw) -> None:
        self.layout.update(kw)

    def _axis(self, name: str, kw: dict) -> None:
        axis = dict(self.layout.get(name) or {})
        axis.update(kw)
        self.layout[name] = axis

    def update_xaxes(self, **kw) -> None:
        self._axis("xaxis", kw)

    def update_yaxes(self, **kw) -> None:
        self._axis("yaxis", kw)

    def build(self) -> go.Figure:
        layout = dict(self.layout)
        for key in ("xaxis_title", "yaxis_title"):
            if key in layout:
                self._axis(key[:5], {"title": {"text": layout.pop(key)}})
                layout[key[:5]] = self.layout[key[:5]]
        if self.shapes:
            layout["shapes"] = self.shapes
        if self.annotations:
            layout["annotations"] = self.annotations
        if len(self.data) <= VALIDATE_TRACES or _has_underscore_key(self.data):
            return go.Figure({"data": self.data, "layout": layout})
        # Validating hundreds of traces (one bar per server of a large catalog) takes about a
        # second. The layout is still validated; traces written with plain property names (no
        # magic underscores) are taken as they are: the same code with few traces is validated
        # (every test catalog), so a spec mistake still shows there.
        checked = go.Figure({"layout": layout}).layout.to_plotly_json()
        return go.Figure({"data": self.data, "layout": checked}, _validate=False)


def log_axis_ticks(values: Sequence[float]) -> tuple[list[float], list[str]]:
    """Tick values and their texts for a log axis over ``values`` (positive numbers, e.g. tokens):
    the 1-2-5 series from just below the smallest to just above the largest, written in full with
    thousands separators (``"200"``, ``"1,000"``), never as the bare leading digit ("2") a log axis
    spanning less than a decade otherwise shows. Empty lists when no value is positive."""
    positive = [v for v in values if v > 0]
    if not positive:
        return [], []
    low, high = min(positive), max(positive)
    ticks: list[float] = []
    decade = 10 ** math.floor(math.log10(low))
    while decade <= high * 10:
        for m in (1, 2, 5):
            v = m * decade
            if low / 2.5 <= v <= high * 2.5:
                ticks.append(v)
        decade *= 10
    return ticks, [f"{v:,.0f}" if v >= 1 else f"{v:g}" for v in ticks]

def _has_underscore_key(value: object) -> bool:
    """Whether a trace spec uses a magic-underscore key (``marker_color``), which only
    validation expands."""
    if isinstance(value, dict):
        return any("_" in str(k) or _has_underscore_key(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_underscore_key(v) for v in value if isinstance(v, (dict, list)))
    return False


def esc(text: object) -> str:
    """Catalog text made safe for plotly labels and hover text (``<`` ``>`` ``&`` ``"`` escaped),
    cut past 200 characters with ``…`` and its length (:func:`~toolsearch.engine.invisible.shortened`,
    as the tables show a name): a 100,000-character server name made a hover box of a few screens."""
    return html.escape(reveal(shortened(str(text))), quote=True)  # invisible characters as visible markers


#: Longest name an axis label shows (a two-line x label, a collapse-order y label); a longer one
#: ends in "…" (the hover and the tables give more): a 100,000-character server name squeezed the
#: plot to a sliver beside its label. Room for the longest sample server name (61 characters).
AXIS_NAME_CHARS = 64


def axis_name(name: str, chars: int = AXIS_NAME_CHARS) -> str:
    """``name`` whole up to ``chars`` characters, else its first ``chars - 1`` and ``…``."""
    return name if len(name) <= chars else name[:chars - 1] + "…"


def axis_names(names: Sequence[str], chars: int = AXIS_NAME_CHARS) -> list[str]:
    """:func:`axis_name` of each of ``names`` (in order), made unique: a chart draws one bar per
    distinct label, so two long names that share their first ``chars - 1`` characters were merged
    into one bar. Each cut name whose label another name also gets ends in ``… (1)``, ``… (2)``…
    instead, numbered in the order given and still at most ``chars`` characters (the hover names it
    whole); a name short enough to show whole is never changed, and equal names stay equal."""
    labels = [axis_name(n, chars) for n in names]
    sharing: dict[str, set[str]] = {}  # a cut label → the distinct names cut to it
    for name, label in zip(names, labels):
        if label != name:
            sharing.setdefault(label, set()).add(name)
    taken = {label for name, label in zip(names, labels) if label == name}  # whole names keep their label
    given: dict[str, str] = {}  # a cut name's label, so an equal name gets the same one
    numbered: dict[str, int] = {}
    for name, label in zip(names, labels):
        if label == name or name in given:
            continue
        if len(sharing[label]) > 1 or label in taken:
            while True:
                numbered[label] = numbered.get(label, 0) + 1
                tag = f" ({numbered[label]})"
                unique = name[:max(chars - 1 - len(tag), 1)] + "…" + tag
                if unique not in taken:
                    break
            label = unique
        taken.add(label)
        given[name] = label
    return [given.get(name, label) for name, label in zip(names, labels)]


#: Above this many servers, the per-server chart's x labels are one line each, turned upright:
#: two-line labels turned by plotly overlap their neighbours (45 servers at 1024 px).
ONE_LINE_TICKS_ABOVE = 12


#: Longest server name an upright x label shows in full; a longer one ends in "…" (the hover, the
#: key and the per-server table give it whole), so one long name does not squeeze the plot.
TICK_NAME_CHARS = 24


def _state_tick(server: ServerPlan, name: str, one_line: bool = False) -> str:
    """The x label of ``server``: ``name`` (its :func:`axis_names` label) and its state."""
    color = STATE_COLORS.get(server.state, "#616161")
    return f"{esc(name)}{' ' if one_line else '<br>'}<span style='color:{color}'>■</span> {server.state}"


def server_order(plan: Plan) -> list[ServerPlan]:
    """Servers in the order every Costs chart uses: docs/reference.md §5.4 collapse order first (rank 1, the
    first to collapse, leftmost/topmost), then servers with nothing listed by schema size."""
    return sorted(plan.servers, key=lambda s: (s.collapse_rank is None, s.collapse_rank or 0, -s.schema_tokens, s.name))


def add_budget_line(fig: _Fig, budget: int, *, axis: str, label: bool = True, log: bool = False,
                    span: float = 0) -> None:
    """Draw the listing budget (tokens) on ``fig``: a dashed red line above every bar (on a white
    halo, so it shows across dark bars too) and, with ``label``, a direct label ``budget N tokens``
    on a white box at the line's end where the bars are shortest.

    Args:
        axis: ``"y"`` for a horizontal line at ``budget`` on the y axis (label at the right end,
            above the line), ``"x"`` for a vertical line at ``budget`` on the x axis (label at the
            bottom, right of the line; left of it when the line is in the right part of the axis,
            so the label is never pushed past the plot's edge).
        log: the y axis is logarithmic (an annotation's y is then given as its log10).
        span: the largest value the bars reach on the line's axis (tokens), for placing the label.
    """
    add = fig.add_hline if axis == "y" else fig.add_vline
    add(budget, BUDGET_HALO, layer="above")
    add(budget, BUDGET_LINE, layer="above")
    if not label:
        return
    box = dict(text=f"budget {budget:,} tokens", showarrow=False, font=dict(size=12, color=BUDGET_LINE["color"]),
               bgcolor="rgba(255,255,255,0.9)", borderpad=2)
    if axis == "y":
        fig.add_annotation(xref="x domain", x=1, xanchor="right", yref="y",
                           y=math.log10(max(budget, 1)) if log else budget, yanchor="bottom", **box)
    else:
        left = budget >= 0.6 * max(span, budget)
        fig.add_annotation(xref="x", x=budget, xanchor="right" if left else "left", xshift=-4 if left else 4,
                           yref="y domain", y=0, yanchor="bottom", **box)


def _budget_label(plan: Plan) -> str:
    return f"listing budget {plan.budget:,} tokens ({plan.planning_tokenizer}, whole listing)"


def server_costs_figure(plan: Plan, log_y: bool = False) -> go.Figure:
    """Grouped bars per server: full schemas, full block, names block, summary line (tokens), with
    the listing budget as a dashed line.

    Servers are in :func:`server_order` (collapse order). Bars take the cost-kind palette; the bar
    for the block the server's state uses at these settings has a black outline, and the x label
    names the state next to a square in its state color. On a log axis the bars start at 1 token,
    so a small summary line is drawn to its true proportion instead of as a sliver.
    """
    servers = server_order(plan)
    one_line = len(servers) > ONE_LINE_TICKS_ABOVE
    names = axis_names([s.name for s in servers], TICK_NAME_CHARS if one_line else AXIS_NAME_CHARS)
    ticks = [_state_tick(s, name, one_line) for s, name in zip(servers, names)]
    fig = _Fig()
    for field_name, label, color in COST_KINDS:
        values = [getattr(s, field_name) for s in servers]
        chosen = [STATE_KIND.get(s.state) == field_name for s in servers]
        fig.add_bar(
            name=label, x=ticks, y=values, showlegend=False,
            marker=dict(color=color, line=dict(color=["#000000" if c else color for c in chosen],
                                               width=[2 if c else 0 for c in chosen])),
            legendgroup=label, offsetgroup=label,
            customdata=[[esc(s.name), s.kind, s.state, s.tool_count, s.deferred_count,
                         "◀ used at the current settings" if c else ""] for s, c in zip(servers, chosen)],
            hovertemplate=(f"<b>%{{customdata[0]}}</b> · {label}<br>%{{y:,}} tokens<br>"
                           "kind %{customdata[1]} · %{customdata[3]} tools (%{customdata[4]} deferred)<br>"
                           "state: %{customdata[2]} %{customdata[5]}<extra></extra>"),
        )
    # Legend entries drawn apart from the bars: a bar trace's swatch copies its first bar, which may
    # carry the "used" outline. The swatches are the bars' exact colors.
    for _, label, color in COST_KINDS:
        fig.add_scatter(x=[None], y=[None], mode="markers", name=label, legendgroup=label, hoverinfo="skip",
                        marker=dict(symbol="square", size=13, color=color))
    fig.add_scatter(x=[None], y=[None], mode="markers", name="outlined: used at the current settings",
                    marker=dict(symbol="square", size=13, color="#ffffff", line=dict(color="#000000", width=2)),
                    hoverinfo="skip")
    fig.add_scatter(x=[None], y=[None], mode="lines", name=_budget_label(plan), line=BUDGET_LINE, hoverinfo="skip")
    if plan.activated:
        add_budget_line(fig, max(plan.budget, 1), axis="y", log=log_y)
    fig.update_layout(
        barmode="group", font=FONT, height=480, margin=dict(t=40, b=10, l=10, r=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, title_text="cost kind:"),
        yaxis_title=f"tokens ({plan.display_tokenizer})", xaxis_title="server in collapse order (state at the current settings)",
        hoverlabel=dict(align="left"),
    )
    if log_y:
        top = max([getattr(s, f) for s in servers for f, _, _ in COST_KINDS] + [plan.budget, 10])
        fig.update_yaxes(type="log", range=[0, math.log10(top) + 0.15])
    fig.update_yaxes(tickformat=",")
    if one_line:  # upright labels take room below the plot: give it back to the bars
        fig.update_xaxes(tickangle=-90)
        fig.update_layout(height=640)
    return fig.build()


@dataclass(frozen=True)
class CollapseRow:
    """One listed server in docs/reference.md §5.4 collapse order (presentation rows for the table and chart)."""

    rank: int
    server: str
    label: str
    names_tokens: int
    summary_tokens: int
    state: str


def collapse_rows(plan: Plan) -> list[CollapseRow]:
    """Servers with a collapse rank, in collapse order (rank 1 collapses first)."""
    ranked = sorted((s for s in plan.servers if s.collapse_rank is not None), key=lambda s: (s.collapse_rank, s.name))
    return [CollapseRow(s.collapse_rank, s.name, s.label, s.names_tokens, s.summary_tokens, s.state) for s in ranked]


def collapse_figure(rows: Sequence[CollapseRow], tokenizer: str, budget: int | None = None,
                    planning_tokenizer: str | None = None) -> go.Figure:
    """Horizontal bars of names-block size in collapse order (first to collapse at the top),
    colored by each server's state, with the whole listing's budget (tokens) as a dashed line."""
    labels = [f"#{r.rank} {esc(axis_name(r.server))}" for r in rows]
    fig = _Fig()
    for state in dict.fromkeys(r.state for r in rows):
        picked = [(lab, r) for lab, r in zip(labels, rows) if r.state == state]
        fig.add_bar(
            name=state, orientation="h", y=[lab for lab, _ in picked], x=[r.names_tokens for _, r in picked],
            marker_color=STATE_COLORS.get(state, "#616161"),
            customdata=[[r.rank, esc(r.server), esc(r.label), r.summary_tokens, r.state] for _, r in picked],
            hovertemplate=("<b>#%{customdata[0]} %{customdata[1]}</b> (group %{customdata[2]})<br>"
                           "names block: %{x:,} tokens<br>summary line: %{customdata[3]:,} tokens<br>"
                           "state: %{customdata[4]}<extra></extra>"),
        )
    if budget is not None:
        add_budget_line(fig, budget, axis="x", span=max((r.names_tokens for r in rows), default=0))
        fig.add_scatter(x=[None], y=[None], mode="lines", line=BUDGET_LINE, hoverinfo="skip",
                        name=f"budget {budget:,} tokens ({planning_tokenizer or tokenizer}, whole listing)")
    fig.update_layout(
        font=FONT, height=max(240, 28 * len(rows) + 130), margin=dict(t=40, b=10, l=10, r=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, title_text="state:"),
        xaxis_title=f"names block (tokens, {tokenizer})", yaxis_title="collapse order",
        hoverlabel=dict(align="left"),
    )
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)))
    fig.update_xaxes(tickformat=",", rangemode="tozero")
    return fig.build()


#: Tokens each state puts in the listing, per server (``hidden`` and ``visible``: none).
LISTED_KIND = {"full": "full_tokens", "names": "names_tokens", "summary": "summary_tokens"}
#: Narrowest plot area the stacked listing bar gets (px: the Costs page at a 1024-px window) and the
#: width of one label character at the label size (px): a segment is labeled only where its label
#: fits at that width, so no label is shrunk below :data:`LABEL_SIZE` or spills over a neighbor.
PLOT_WIDTH_MIN = 600
CHAR_PX = 7.0
LABEL_SIZE = 12


@dataclass(frozen=True)
class ListingSegment:
    """One segment of the stacked listing bar, left to right.

    ``key`` is the segment's name in the chart and in the key table beneath it (``#3`` for the
    server third in collapse order, ``header`` for the header and framing text); ``label`` is the
    text drawn on the segment, ``""`` when the segment is too narrow (hover, and the key table,
    name it then)."""

    key: str
    server: str
    state: str
    tokens: int
    label: str


def _segment_label(key: str, server: str, tokens: int, axis_max: float) -> str:
    room = tokens / axis_max * PLOT_WIDTH_MIN - 6  # px inside the segment, less the text padding
    for text in (f"{key} {server}", key):
        if len(text) * CHAR_PX <= room:
            return text
    return ""


def all_summaries_tokens(plan: Plan) -> int:
    """Tokens (planning tokenizer) of the last degradation step, every server as its summary line:
    the listing the bar draws when nothing fits. It is the last row of the steps table (Overview,
    report), so both read the same number; an earlier mixed step can be smaller, when a server's
    names block is shorter than its summary line. Requires ``plan.steps``."""
    return plan.steps[-1].tokens


def listing_segments(plan: Plan) -> tuple[list[ListingSegment], float, bool]:
    """The stacked bar's segments in order, the x axis maximum (tokens) and whether nothing fits.

    Servers come in docs/reference.md §5.4 collapse order with the tokens their state puts in the listing (when
    nothing fits: the summary lines of the last step tried, :func:`all_summaries_tokens`), then the header and
    framing text."""
    servers = [s for s in server_order(plan) if s.collapse_rank is not None]
    nothing_fits = plan.listing_form == "none" and bool(plan.steps)
    blocks = []
    for s in servers:
        kind = "summary_tokens" if nothing_fits else LISTED_KIND.get(s.state)
        blocks.append(getattr(s, kind) if kind else 0)
    listed = all_summaries_tokens(plan) if nothing_fits else plan.listing_tokens
    framing = max(0, listed - sum(blocks)) if plan.listing_form != "none" or nothing_fits else 0
    total = sum(blocks) + framing
    if nothing_fits:
        total = max(total, listed)
    axis_max = max(total, plan.budget, 1) * 1.08
    segments = [ListingSegment(f"#{s.collapse_rank}", s.name, s.state, tokens,
                               _segment_label(f"#{s.collapse_rank}", reveal(s.name), tokens, axis_max))
                for s, tokens in zip(servers, blocks)]
    if framing:
        segments.append(ListingSegment("header", "", "", framing, ""))
    return segments, axis_max, nothing_fits


def listing_key_rows(plan: Plan) -> list[dict]:
    """The key beneath the stacked bar: one row per segment, left to right, so a reader can name
    every segment, however narrow, without hovering."""
    segments, _, nothing_fits = listing_segments(plan)
    budget = max(plan.budget, 1)
    return [{"segment": seg.key, "server": reveal(shortened(seg.server)) if seg.server else "header and framing text", "state": seg.state or "—",
             ("summary line needed (tokens)" if nothing_fits else "in the listing (tokens)"): seg.tokens,
             "share of the budget": f"{100 * seg.tokens / budget:.1f}%",
             "label on the bar": seg.label or ("— (the white segment at the end)" if seg.key == "header"
                                               else "— (too narrow: see this row)")} for seg in segments]


def listing_budget_figure(plan: Plan) -> go.Figure:
    """One stacked bar: the listing at these settings against the budget (tokens, planning tokenizer).

    Args:
        plan: a plan whose display tokenizer is its planning tokenizer (so the server blocks and
            the budget are in the same units).

    Segments (:func:`listing_segments`) are the listed servers in docs/reference.md §5.4 collapse order (rank 1,
    the first to collapse, on the left), each as long as the block its state puts in the listing
    and colored by that state; the header and framing text is the last, white segment. Each
    segment is labeled ``#rank server`` or ``#rank`` where that fits at the narrowest plot width,
    in black or white by the fill's contrast; a narrower one has hover text and its row in
    :func:`listing_key_rows`. The budget is a dashed line. The cut is marked with a black line and
    a label: where collapse stopped (the servers left of it were collapsed to summary lines), or,
    when nothing fits, the last step tried (every server a summary line).
    """
    servers = [s for s in server_order(plan) if s.collapse_rank is not None]
    segments, axis_max, nothing_fits = listing_segments(plan)
    fig = _Fig()
    blocks = [seg.tokens for seg in segments[:len(servers)]]
    for s, seg in zip(servers, segments):
        color = STATE_COLORS.get(s.state, "#616161")
        fig.add_bar(
            orientation="h", y=["listing"], x=[seg.tokens], name=f"#{s.collapse_rank} {esc(s.name)}", showlegend=False,
            # Nothing fits: the segments are the summary lines of the last step tried, hatched.
            marker=dict(color=color, line=dict(color="#ffffff", width=1),
                        pattern=dict(shape="/" if nothing_fits else "", fgcolor="#4D4D4D")),
            text=[esc(seg.label)], textposition="inside", insidetextanchor="middle",
            textfont=dict(color=palette.text_on(color), size=LABEL_SIZE),
            customdata=[[s.collapse_rank, esc(s.name), s.state, s.names_tokens, s.summary_tokens]],
            hovertemplate=("<b>#%{customdata[0]} %{customdata[1]}</b> · state %{customdata[2]}<br>"
                           + ("its summary line would need %{x:,} tokens" if nothing_fits else
                              "in the listing: %{x:,} tokens")
                           + "<br>names block %{customdata[3]:,} · "
                           "summary line %{customdata[4]:,} tokens<extra></extra>"))
    framing = segments[-1].tokens if len(segments) > len(servers) else 0
    if framing:
        fig.add_bar(orientation="h", y=["listing"], x=[framing], name="header and framing", showlegend=False,
                    marker=dict(color="#ffffff", line=dict(color="#4D4D4D", width=1)),
                    hovertemplate="header and framing text: %{x:,} tokens<extra></extra>")
    for state in dict.fromkeys(s.state for s in servers):
        fig.add_scatter(x=[None], y=[None], mode="markers", name=state, hoverinfo="skip",
                        marker=dict(symbol="square", size=13, color=STATE_COLORS.get(state, "#616161")))
    fig.add_scatter(x=[None], y=[None], mode="lines", line=BUDGET_LINE, hoverinfo="skip",
                    name=f"budget {plan.budget:,} tokens")
    add_budget_line(fig, plan.budget, axis="x", label=False)  # the legend and the cut label say it
    collapsed = [s for s in servers if s.state == "summary"]
    if plan.listing_form == "none" and plan.steps:
        needed = all_summaries_tokens(plan)
        fig.add_vline(x=needed, line=dict(color="#000000", width=3))
        cut_text = (f"nothing fits: the last step tried (every server as its summary line, hatched) "
                    f"needs {needed:,} tokens")
    elif collapsed:
        cut_at = sum(b for s, b in zip(servers, blocks) if s.state == "summary")
        fig.add_vline(x=cut_at, line=dict(color="#000000", width=3))
        last = max(s.collapse_rank for s in collapsed)
        cut_text = (f"cut after #{last}: servers #1–#{last} collapsed to summary lines" if last > 1
                    else "cut after #1: the first server collapsed to its summary line")
    elif plan.listing_form == "none":
        cut_text = "no listing"
    else:
        cut_text = f"fits: {plan.listing_tokens:,} of {plan.budget:,} tokens, nothing collapsed"
    fig.add_annotation(x=0, y=1.0, xref="paper", yref="paper", yanchor="bottom", xanchor="left", showarrow=False,
                       text=cut_text, font=dict(size=13, color="#000000"),
                       bgcolor="#ffffff")  # on a white box, as the budget label: it reads on the dark theme too
    fig.update_layout(
        barmode="stack", font=FONT, height=230, margin=dict(t=60, b=10, l=10, r=10), hoverlabel=dict(align="left"),
        legend=dict(orientation="h", yanchor="top", y=-0.45, x=0, title_text="state:"),
        # A label that would still not fit is hidden, never shrunk below the label size.
        uniformtext=dict(minsize=LABEL_SIZE, mode="hide"),
        xaxis=dict(title=f"tokens ({plan.planning_tokenizer})", tickformat=",", range=[0, axis_max]),
        yaxis=dict(showticklabels=False),
    )
    return fig.build()


@dataclass(frozen=True)
class ToolCost:
    """One tool's schema cost for the costliest-tools charts."""

    server: str
    tool: str  # the server's own name for the tool (short tile label)
    name: str  # the wire name the model sees
    tokens: int
    description: str
    state: str
    deferred: bool


#: Tool schema size (tokens) in the treemap: a sequential scale readable with any color vision.
TOOL_SIZE_SCALE = "Cividis"


#: A treemap tile label longer than this (characters) is split onto two lines at the ``_``, ``-`` or
#: ``.`` nearest its middle: a long tool name on one line is too wide for most tiles at 1024 px.
TILE_LINE_CHARS = 14


def tile_label(name: str) -> str:
    """A treemap tile's label for ``name`` (already escaped): on two lines (``<br>``) at the word
    separator nearest the middle when longer than :data:`TILE_LINE_CHARS` characters and it has
    one, else as is. ``create_pull_request_review`` → ``create_pull<br>_request_review``."""
    if len(name) <= TILE_LINE_CHARS:
        return name
    cuts = [i for i, ch in enumerate(name) if ch in "_-." and 0 < i < len(name) - 1]
    if not cuts:
        return name
    cut = min(cuts, key=lambda i: (abs(len(name) - 2 * i), i))
    return f"{name[:cut]}<br>{name[cut:]}"


def tool_tree_figure(rows: Sequence[ToolCost], tokenizer: str, budget: int | None = None) -> go.Figure:
    """Treemap server → tool sized by schema tokens; tool tiles colored by their size (a sequential
    scale, so the costliest tools stand out at any setting), server tiles name their state.

    Labels are sized for a main column about 560 px wide (1024 px with the sidebar open): the color
    scale lies under the tiles (beside them it took a third of the width), long tool names take two
    lines (:func:`tile_label`), and a tile shows its label and tokens at 10 px or more, or none
    (the hover and the Table tab name every tool)."""
    servers: dict[str, list[tuple[int, ToolCost]]] = {}
    for i, r in enumerate(rows):
        servers.setdefault(r.server, []).append((i, r))
    ids, labels, parents, values, colors, custom = [], [], [], [], [], []
    for server, tools in servers.items():
        total = sum(t.tokens for _, t in tools)
        state = tools[0][1].state
        ids.append(f"s:{server}")
        labels.append(f"{esc(server)} ({state})")
        parents.append("")
        values.append(total)
        colors.append(max(t.tokens for _, t in tools))
        custom.append([esc(server), f"server {esc(server)}", total, state, f"{len(tools)} of the top tools"])
        for i, t in tools:
            ids.append(f"t:{i}")
            labels.append(tile_label(esc(t.tool)))
            parents.append(f"s:{server}")
            values.append(t.tokens)
            colors.append(t.tokens)
            custom.append([esc(t.server), esc(t.name), t.tokens, t.state, esc(t.description[:80])])
    fig = _Fig()
    fig.data.append(dict(
        type="treemap", ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
        marker=dict(colors=colors, colorscale=TOOL_SIZE_SCALE, line=dict(color="white", width=1),
                    colorbar=dict(title=dict(text=f"{TOOL_SCHEMA_COLUMN} (tokens, {tokenizer})", side="top"),
                                  tickformat=",", thickness=12, orientation="h", x=0.5, xanchor="center",
                                  y=-0.02, yanchor="top", len=0.7)),
        customdata=custom, textinfo="label+value",
        texttemplate="%{label}<br>%{value:,}",
        hovertemplate=("<b>%{customdata[1]}</b><br>server: %{customdata[0]} (state %{customdata[3]})<br>"
                       f"%{{value:,}} tokens ({tokenizer})<br>%{{customdata[4]}}<extra></extra>"),
        tiling=dict(pad=2), pathbar=dict(visible=True),
    ))
    title = None
    if budget is not None and rows:
        title = (f"Listing budget {budget:,} tokens; the costliest tool's schema alone is "
                 f"{max(r.tokens for r in rows):,} tokens")
    # A label too small to read at 10 px is left out (the Table tab lists every tool), never shrunk.
    fig.update_layout(font=FONT, height=640, margin=dict(t=40, b=80, l=10, r=10), hoverlabel=dict(align="left"),
                      uniformtext=dict(minsize=10, mode="hide"),
                      title=dict(text=title, font=dict(size=13)) if title else None)
    return fig.build()


def tool_bar_figure(rows: Sequence[ToolCost], tokenizer: str, budget: int | None = None) -> go.Figure:
    """Horizontal bars of the costliest tools (largest at the top), colored by server state, with
    the listing budget as a dashed line."""
    labels = [esc(r.name) for r in rows]
    fig = _Fig()
    for state in dict.fromkeys(r.state for r in rows):
        picked = [(lab, r) for lab, r in zip(labels, rows) if r.state == state]
        fig.add_bar(
            name=f"server state: {state}", orientation="h", y=[lab for lab, _ in picked],
            x=[r.tokens for _, r in picked], marker_color=STATE_COLORS.get(state, "#616161"),
            customdata=[[esc(r.server), esc(r.name), esc(r.description[:80]), "deferred" if r.deferred else "visible"]
                        for _, r in picked],
            hovertemplate=("<b>%{customdata[1]}</b><br>server: %{customdata[0]}<br>%{x:,} tokens<br>"
                           "%{customdata[3]} tool<br>%{customdata[2]}<extra></extra>"),
        )
    if budget is not None:
        add_budget_line(fig, budget, axis="x", span=max((r.tokens for r in rows), default=0))
        fig.add_scatter(x=[None], y=[None], mode="lines", line=BUDGET_LINE, hoverinfo="skip",
                        name=f"listing budget {budget:,} tokens")
    fig.update_layout(
        font=FONT, height=max(300, 20 * len(rows) + 120), margin=dict(t=40, b=10, l=10, r=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), bargap=0.25,
        xaxis_title=f"{TOOL_SCHEMA_COLUMN} (tokens, {tokenizer})", hoverlabel=dict(align="left"),
    )
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True)
    fig.update_xaxes(tickformat=",")
    return fig.build()


# --- Tuning and Report figures --------------------------------------------------------------
# sweep_figure(rows, current) — listing form over context length × threshold_pct (heatmap);
# listing_curve_figure(points, sizes, current_context) — budget vs listing tokens over context;
# costs_figure(plan) — the per-server costs chart under the name the Report page uses;
# figures_html(figures) — HTML fragments with plotly.js embedded once (run after the page has
#   opened), for the HTML report.

from toolsearch.engine.constants import FORMS  # noqa: E402  (best to worst: full … none)


def costs_figure(plan: Plan) -> go.Figure:
    """The per-server costs chart (:func:`server_costs_figure` on a log axis, since full schemas
    and summary lines differ by orders of magnitude)."""
    return server_costs_figure(plan, log_y=True)


def context_label(n: int) -> str:
    """A context length over a column or at an axis tick, as every surface writes one
    (:func:`~toolsearch.analysis.quantities.length_label`): ``8000`` → ``8K``, ``1000000`` → ``1M``,
    ``12345`` → ``12,345 tokens``."""
    return length_label(n)


def _log_edges(values: Sequence[float]) -> list[float]:
    """Cell edges for a heatmap on a log axis: geometric midpoints, the outer edges mirrored."""
    if len(values) == 1:
        return [values[0] / 1.25, values[0] * 1.25]
    mids = [(a * b) ** 0.5 for a, b in zip(values, values[1:])]
    return [values[0] ** 2 / mids[0], *mids, values[-1] ** 2 / mids[-1]]


def column_position(context_length: int, contexts: Sequence[int]) -> float:
    """Where ``context_length`` (tokens) falls on the heat map's evenly spaced columns: the column
    index of a grid length, in between by log interpolation, and past either end by the spacing of
    the two outer columns. ``contexts`` ascending, at least one."""
    if len(contexts) == 1:
        return 0.0
    logs = [math.log(c) for c in contexts]
    x = math.log(context_length)
    j = max(0, min(len(logs) - 2, sum(1 for v in logs[1:-1] if v <= x)))
    return j + (x - logs[j]) / (logs[j + 1] - logs[j])


def sweep_figure(rows: Sequence, current: tuple[int | None, float] | None = None,
                 y_axis: str = "threshold_pct") -> go.Figure:
    """Listing form over context length × ``y_axis``, as a heatmap: one evenly spaced column per
    context length (so close lengths such as 100K and 128K get columns as wide as the others and
    their labels do not collide), rows on a log axis.

    Args:
        rows: :class:`toolsearch.analysis.sweep.SweepRow` or :class:`toolsearch.analysis.sweep.GridPoint` items for
            one listing_max_tokens (``y_axis="threshold_pct"``) or one threshold_pct
            (``y_axis="listing_max_tokens"``); rows with an unknown context length are skipped.
        current: ``(context_length, y value)`` to mark with a ring (the sidebar setting).
        y_axis: ``threshold_pct`` (%) or ``listing_max_tokens`` (tokens).

    Cells are colored by form with :data:`STATE_COLORS` and name the form; the colorbar names
    every form; hover gives the budget and the listing size (tokens), the tier and which leg
    of the budget decided.
    """
    by_pct = y_axis == "threshold_pct"

    def yval(r):
        return r.threshold_pct if by_pct else r.listing_max_tokens

    def ylabel(v) -> str:
        return f"{v:g}%" if by_pct else f"{v:,}"

    rows = [r for r in rows if r.context_length]
    contexts = sorted({r.context_length for r in rows})
    ys = sorted({yval(r) for r in rows})
    cell = {(yval(r), r.context_length): r for r in rows}
    rank = {f: i for i, f in enumerate(FORMS)}
    z, text, custom = [], [], []
    for y in ys:
        z.append([]), text.append([]), custom.append([])
        for ctx in contexts:
            r = cell.get((y, ctx))
            z[-1].append(rank[r.listing_form] if r else None)
            text[-1].append(form_word(r.listing_form) if r else "")
            custom[-1].append([r.budget, r.listing_tokens, r.tier, getattr(r, "label", form_word(r.listing_form)), r.budget_winner,
                               f"{ctx:,}", ylabel(y)] if r else [None] * 7)
    n = len(FORMS)
    colorscale = []
    for i, form in enumerate(FORMS):
        colorscale += [[i / n, STATE_COLORS[form]], [(i + 1) / n, STATE_COLORS[form]]]
    y_hover = "threshold_pct %{customdata[6]}" if by_pct else "listing_max_tokens %{customdata[6]} tokens"
    fig = go.Figure(go.Heatmap(
        z=z, x=list(range(len(contexts))), y=_log_edges(ys), zmin=-0.5, zmax=n - 0.5, colorscale=colorscale,
        customdata=custom, xgap=1, ygap=1,
        # The key under the chart, not beside it: the columns keep the width for their labels.
        colorbar=dict(title=dict(text="listing form", side="top"), tickvals=list(range(n)), ticktext=[form_word(f) for f in FORMS],
                      orientation="h", thickness=14, len=0.7, x=0, xanchor="left", y=-0.2, yanchor="top"),
        hovertemplate=("context length %{customdata[5]} tokens · " + y_hover +
                       "<br><b>%{customdata[3]}</b> · tier %{customdata[2]}"
                       "<br>budget %{customdata[0]:,} tokens (decided by %{customdata[4]})"
                       "<br>listing %{customdata[1]:,} tokens<extra></extra>"),
    ))
    # Cell labels as a text trace: a heatmap's text takes one color for every cell, and plotly's
    # automatic choice puts white on green and pink (about 3:1). Here each label is black or white,
    # whichever reaches WCAG AA (4.5:1) on its cell's fill.
    # One label per run of equal cells in a row, at the run's center (rows on a log axis: the
    # geometric mean of the row's edges): the same information as a label per cell, with a fraction
    # of the text for the browser to lay out on every slider move.
    ye = _log_edges(ys)
    labels = []
    for i in range(len(ys)):
        j = 0
        while j < len(contexts):
            end = j
            while end + 1 < len(contexts) and text[i][end + 1] == text[i][j]:
                end += 1
            if text[i][j]:
                labels.append(((j + end) / 2, (ye[i] * ye[i + 1]) ** 0.5, text[i][j],
                               palette.text_on(STATE_COLORS[text[i][j]])))
            j = end + 1
    fig.add_trace(go.Scatter(
        x=[c for c, _, _, _ in labels], y=[y for _, y, _, _ in labels], mode="text", showlegend=False,
        text=[t for _, _, t, _ in labels], textposition="middle center", hoverinfo="skip", name="cell labels",
        textfont=dict(size=10, color=[color for _, _, _, color in labels]),
    ))
    x_range = [-0.5, len(contexts) - 0.5]
    if current and current[0] and ys:
        ring_x = column_position(current[0], contexts)
        x_range = [min(x_range[0], ring_x - 0.5), max(x_range[1], ring_x + 0.5)]  # a ring off the grid stays in view
        fig.add_trace(go.Scatter(
            x=[ring_x], y=[current[1] if current[1] > 0 else ys[0]], mode="markers",
            showlegend=False,
            marker=dict(symbol="circle-open", size=24, color="black", line=dict(width=3)),
            hovertemplate=f"sidebar setting: {current[0]:,} tokens, {ylabel(current[1])}<extra></extra>",
        ))
    if by_pct:
        cap = rows[0].listing_max_tokens if rows else None
        title = f"at {cap_words(cap)}" if cap else None
        y_title = "threshold_pct (% of context, log scale)"
    else:
        pct = rows[0].threshold_pct if rows else None
        title = f"at {threshold_words(pct)}" if pct is not None else None
        y_title = "listing_max_tokens (tokens, log scale)"
    fig.update_layout(
        font=FONT, height=540, margin=dict(t=40, b=10, l=10, r=10), hoverlabel=dict(align="left"),
        title=dict(text=title, font=dict(size=13)),
        xaxis=dict(title="context length (tokens; one column per length)", tickvals=list(range(len(contexts))),
                   ticktext=[context_label(c) for c in contexts], range=x_range,
                   showgrid=False, zeroline=False),
        yaxis=dict(type="log", title=y_title, tickvals=ys,
                   ticktext=[ylabel(v) for v in ys], showgrid=False, zeroline=False),
    )
    return fig


#: The Listing vs budget chart switches to a log y axis when its largest size is more than this
#: many times its smallest (a linear axis would flatten the small lines onto zero).
CURVE_LOG_RATIO = 50


def listing_curve_figure(points: Sequence, sizes: dict[str, int], current_context: int | None = None) -> go.Figure:
    """Budget and listing tokens over context length (log x) at one threshold_pct and cap.

    Args:
        points: :class:`toolsearch.analysis.sweep.GridPoint` items in ascending context length, e.g.
            ``form_grid(ladder, config, curve_context_lengths(ladder, pct, cap), [pct])``.
        sizes: ``{"full" | "names" | "groups": tokens}`` from ``Ladder.sizes()``, drawn as
            dashed reference lines, each labelled at its right end: where the budget line reaches
            one, that form fits. The y axis ends 30% above the largest size (on a log axis, at least
            an eighth of its height above it, room for the label), so a budget far above every size
            runs off the top. When the sizes and listings span more than
            :data:`CURVE_LOG_RATIO` (a catalog of thousands of tools: a 40-token summary block
            against an 80,000-token full listing), the y axis is logarithmic, so every line stays
            readable.
        current_context: the sidebar's context length (tokens), marked with a dotted line that
            has its own legend entry.
    """
    points = [p for p in points if p.context_length]
    xs = [p.context_length for p in points]
    fig = go.Figure()
    fig.add_scatter(
        x=xs, y=[p.budget for p in points], name="budget", mode="lines", line=dict(color="#212121", width=3),
        customdata=[[p.budget_winner] for p in points],
        hovertemplate="context %{x:,} tokens<br>budget %{y:,} tokens (decided by %{customdata[0]})<extra></extra>")
    fig.add_scatter(
        x=xs, y=[p.listing_tokens for p in points], name="listing", mode="lines", line_shape="hv",
        line=dict(color="#616161", width=2),
        hoverinfo="skip")
    for form in FORMS:
        picked = [p for p in points if p.listing_form == form]
        if picked:
            fig.add_scatter(
                x=[p.context_length for p in picked], y=[p.listing_tokens for p in picked], mode="markers",
                name=f"listing: {form_word(form)}", marker=dict(color=STATE_COLORS[form], size=7),
                customdata=[[p.tier, p.budget] for p in picked],
                hovertemplate=(f"<b>form {form_word(form)}</b> · tier %{{customdata[0]}}<br>context %{{x:,}} tokens"
                               "<br>listing %{y:,} tokens<br>budget %{customdata[1]:,} tokens<extra></extra>"))
    # Reference lines as legend entries (not annotations): sizes can be close together.
    words = {"full": "full listing", "names": "names listing", "groups": "all summary lines"}
    for form in ("full", "names", "groups"):
        if form in sizes and xs:
            fig.add_scatter(
                x=[xs[0], xs[-1]], y=[sizes[form]] * 2, mode="lines+text", name=f"{words[form]}: {sizes[form]:,} tokens",
                line=dict(color=palette.line_shade(STATE_COLORS[form]), dash="dash", width=2),
                text=["", f"{words[form]} {sizes[form]:,}"], textposition="top left",
                textfont=dict(color=palette.line_shade(STATE_COLORS[form])),
                hovertemplate=f"{words[form]}: {sizes[form]:,} tokens<extra></extra>")
    if current_context:
        sidebar_line = dict(color="#757575", dash="dot", width=2)
        fig.add_vline(x=current_context, line=sidebar_line,
                      annotation_text=f"sidebar: {length_label(current_context)}", annotation_position="top left")
        # The dotted line's own legend entry (a vertical line has none).
        fig.add_scatter(x=[None], y=[None], mode="lines", line=sidebar_line, hoverinfo="skip",
                        name=f"sidebar context length: {length_label(current_context)}")
    ticks = [c for c in (1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 200_000, 400_000,
                         1_000_000, 2_000_000, 4_000_000, 10_000_000) if xs and xs[0] <= c <= xs[-1]]
    # Show where the budget crosses the listing sizes; a budget far above them runs off the top.
    if sizes:
        top = max([p.listing_tokens for p in points] + list(sizes.values())) * 1.3
    else:  # nothing to list: just the budget
        top = max([p.budget for p in points] + [1]) * 1.05
    positive = [v for v in [*(p.listing_tokens for p in points), *sizes.values()] if v > 0]
    log_y = bool(positive) and max(positive) / min(positive) > CURVE_LOG_RATIO
    if log_y:
        # 30 % above the top line is a sliver of a log axis: keep an eighth of the height above it,
        # room for that line's label (written above its right end)
        low, high = math.log10(min(positive) / 2), math.log10(max(positive))
        yaxis = dict(type="log", title="tokens (planning tokenizer, log scale)", tickformat=",",
                     range=[low, max(math.log10(top), high + (high - low) / 7)])
    else:
        yaxis = dict(title="tokens (planning tokenizer)", range=[0, top], tickformat=",")
    fig.update_layout(
        font=FONT, height=470, margin=dict(t=40, b=10, l=10, r=10), hoverlabel=dict(align="left"),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        xaxis=dict(type="log", title="context length (tokens, log scale)", tickvals=ticks,
                   ticktext=[context_label(c) for c in ticks]),
        yaxis=yaxis,
    )
    return fig


#: Type of the report's chart scripts: not run while the page is parsed, run by the loader below.
CHART_SCRIPT_TYPE = "text/x-toolsearch-chart"
#: Element id of the script element holding plotly.js as text.
PLOTLY_JS_ID = "toolsearch-plotly-js"
#: Shown in place of each chart until it is drawn (and kept, reworded, if it cannot be).
CHART_LOADING = ('<p class="chart-loading" style="color:#57606a;font-style:italic;margin:.4rem 0">Chart loading… '
                 '(drawn by the plotly.js embedded in this file once the page has opened)</p>'
                 '<noscript><p style="color:#57606a">This chart needs JavaScript.</p></noscript>')
# After the page's load event: plotly.js (held as text, so neither parsing the page nor its load
# event waits for it) runs as a script of its own, then each chart's script runs and its "Chart
# loading…" line goes. Until then every text and table of the report is on screen.
_CHART_LOADER = """<script>(function () {
  function each(selector, f) { Array.prototype.forEach.call(document.querySelectorAll(selector), f); }
  function failed(e) {
    each('.chart-loading', function (p) { p.textContent = 'The chart could not be drawn: ' + e; });
  }
  function draw(charts, i) {  /* one chart per task, so the page answers input in between */
    if (i >= charts.length) {
      each('.chart-loading', function (p) { p.parentNode.removeChild(p); });
      return;
    }
    try {
      var run = document.createElement('script'); run.text = charts[i].text;
      charts[i].parentNode.replaceChild(run, charts[i]);
    } catch (e) { failed(e); return; }
    setTimeout(function () { draw(charts, i + 1); }, 0);
  }
  function load() {
    try {
      var plotly = document.createElement('script');
      plotly.text = document.getElementById('%(id)s').text;
      document.head.appendChild(plotly);
    } catch (e) { failed(e); return; }
    if (!window.Plotly) { failed('plotly.js did not run'); return; }
    setTimeout(function () { draw(document.querySelectorAll('script[type="%(type)s"]'), 0); }, 0);
  }
  if (document.readyState === 'complete') { setTimeout(load, 0); }
  else { window.addEventListener('load', function () { setTimeout(load, 0); }); }
})();</script>""" % {"type": CHART_SCRIPT_TYPE, "id": PLOTLY_JS_ID}


def figures_html(figures: dict[str, go.Figure]) -> dict[str, str]:
    """``{title: html fragment}`` for :func:`toolsearch.analysis.report.build_report`: plotly.js is
    embedded in the first fragment only (the others reuse it), so the report needs no network.

    plotly.js (4.8 MB) is embedded as text and run after the page's ``load`` event, and each
    chart's script only then: the report's text and tables show (and scroll) without waiting for
    it, and each chart says "Chart loading…" until it is drawn.

    Raises:
        ValueError: the installed plotly.js holds ``</script``, so it cannot be embedded as text.
    """
    from plotly.offline import get_plotlyjs  # noqa: PLC0415

    out = {}
    for i, (title, fig) in enumerate(figures.items()):
        # A copy: outside Streamlit the axes need room for their labels. A figure built without
        # validating its traces (one per server of a large catalog, see _Fig.build) is copied
        # without it too: validating 20,000 traces took most of a report's time.
        fig = go.Figure(fig) if len(fig.data) <= VALIDATE_TRACES else go.Figure(fig, _validate=False)
        fig.update_xaxes(automargin=True)
        fig.update_yaxes(automargin=True)
        fig.update_layout(template="plotly_white")
        # a fixed id per chart (plotly draws a random one): the same inputs write the same report
        chart = fig.to_html(full_html=False, include_plotlyjs=False, config={"displaylogo": False},
                            div_id=f"toolsearch-chart-{i}")
        chart = CHART_LOADING + chart.replace("<script>", f'<script type="{CHART_SCRIPT_TYPE}">')
        if i == 0:
            plotly_js = get_plotlyjs()
            if "</script" in plotly_js.lower():  # cannot be held in a script element as it is
                raise ValueError("plotly.js contains '</script': it cannot be embedded as text")
            chart = ("<script>window.PlotlyConfig = {MathJaxConfig: 'local'};</script>"
                     f'<script type="text/plain" id="{PLOTLY_JS_ID}">{plotly_js}</script>{_CHART_LOADER}' + chart)
        out[title] = chart
    return out


# --- Strategies figures --------------------------------------------------------------------
# STRATEGY_COLORS — one color per disclosure strategy, used by every Strategies table and chart;
# strategy_metrics_figure(results, tokenizer) — up-front tokens, task tokens, round trips and
# cache breaks per strategy; upfront_breakdown_figure(results, tokenizer) — what the prompt holds
# before the first turn; timeline_figure(steps, tokenizer) — prompt size after each event.

from plotly.subplots import make_subplots  # noqa: E402

from toolsearch.analysis.strategies import STRATEGY_LABELS  # noqa: E402

#: One color per strategy and per prompt piece: the app's palettes for these meanings.
STRATEGY_COLORS: dict[str, str] = palette.STRATEGY_COLORS
PIECE_COLORS: dict[str, str] = palette.PIECE_COLORS


def strategy_metrics_figure(results: Sequence, tokenizer: str) -> go.Figure:
    """Four panels, one above the other, of horizontal bars, one bar per strategy in its
    :data:`STRATEGY_COLORS` color: up-front tokens, task tokens, round trips (before the first
    call of each tool, summed) and cache breaks. Strategy names sit on the y axis and each value
    beside its bar at one size, so nothing overlaps or shrinks at 1024 px.

    Args:
        results: :class:`toolsearch.analysis.strategies.StrategyResult` items.
        tokenizer: named on the token axes.
    """
    titles = (f"Up front (tokens, {tokenizer})", f"Task (tokens, {tokenizer})",
              "Round trips to first calls (count)", "Cache breaks in the task (count)")
    fig = make_subplots(rows=4, cols=1, subplot_titles=titles, vertical_spacing=0.07)
    labels = [STRATEGY_LABELS[r.strategy] for r in results]
    panels = (("upfront_tokens", "tokens"), ("task_tokens", "tokens"), ("round_trips", "round trips"),
              ("cache_breaks", "cache breaks"))
    for row, (field_name, unit) in enumerate(panels, 1):
        values = [getattr(r, field_name) for r in results]
        fig.add_bar(
            y=labels, x=values, orientation="h", row=row, col=1, showlegend=False,
            marker_color=[STRATEGY_COLORS[r.strategy] for r in results],
            text=[f"{v:,}" for v in values], textposition="outside", cliponaxis=False,
            textfont=dict(size=11), constraintext="none",
            hovertemplate=f"<b>%{{y}}</b><br>%{{x:,}} {unit}<extra></extra>",
        )
        fig.update_xaxes(tickformat=",", rangemode="tozero", row=row, col=1,
                         range=[0, max(values + [1]) * 1.25])
        fig.update_yaxes(autorange="reversed", row=row, col=1)
    fig.update_layout(font=FONT, height=150 + 34 * len(results) * 4, margin=dict(t=40, b=10, l=10, r=30),
                      hoverlabel=dict(align="left"), bargap=0.25)
    return fig


def upfront_breakdown_figure(results: Sequence, tokenizer: str) -> go.Figure:
    """Horizontal stacked bars: each strategy's prompt before the first turn, split by piece form
    (tool schemas, tools array, name + description stubs, namespaces, search tool, skill
    listing, pinned bodies), in tokens."""
    labels = [STRATEGY_LABELS[r.strategy] for r in results]
    forms = list(dict.fromkeys(f for r in results for f in r.upfront_breakdown))
    fig = go.Figure()
    for form in forms:
        values = [r.upfront_breakdown.get(form, 0) for r in results]
        fig.add_bar(name=form, orientation="h", y=labels, x=values, marker_color=PIECE_COLORS.get(form, "#9e9e9e"),
                    hovertemplate=f"<b>%{{y}}</b><br>{esc(form)}: %{{x:,}} tokens<extra></extra>")
    fig.update_layout(
        barmode="stack", font=FONT, height=max(280, 44 * len(results) + 120), margin=dict(t=40, b=10, l=10, r=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, title_text="piece:"),
        xaxis_title=f"prompt before the first turn (tokens, {tokenizer})", hoverlabel=dict(align="left"),
    )
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True)
    fig.update_xaxes(tickformat=",")
    return fig


def timeline_figure(steps: Sequence, tokenizer: str) -> go.Figure:
    """Prompt size (tokens) per strategy after each event, one line per strategy in its color.

    An ``x`` marker shows a step after which the strategy's cached prefix broke; a hollow
    circle a step whose event failed for that strategy (e.g. a call before the skill was read).
    Event labels (tool, skill, server names, queries) are escaped for plotly.
    """
    fig = go.Figure()
    xs = [s.index for s in steps]
    ticks = [f"{s.index}: {esc(s.event.label()) if s.event else 'start'}" for s in steps]
    for strategy in (s.strategy for s in steps[0].states) if steps else ():
        states = [step.state(strategy) for step in steps]
        color = STRATEGY_COLORS[strategy]
        fig.add_scatter(
            x=xs, y=[st.prompt_tokens for st in states], mode="lines+markers", name=STRATEGY_LABELS[strategy],
            line=dict(color=color, width=2, shape="hv"), marker=dict(color=color, size=6),
            customdata=[[t, st.outcome, esc(st.message[:140]), "holds" if st.cache_holds else "BREAKS",
                         esc(st.cache_note[:120])] for t, st in zip(ticks, states)],
            hovertemplate=(f"<b>{STRATEGY_LABELS[strategy]}</b><br>step %{{customdata[0]}}<br>"
                           "prompt: %{y:,} tokens<br>%{customdata[1]}: %{customdata[2]}<br>"
                           "cached prefix %{customdata[3]}: %{customdata[4]}<extra></extra>"),
        )
        broke = [(x, st) for x, st in zip(xs, states) if not st.cache_holds]
        if broke:
            fig.add_scatter(x=[x for x, _ in broke], y=[st.prompt_tokens for _, st in broke], mode="markers",
                            showlegend=False, marker=dict(symbol="x", size=13, color=color, line=dict(width=1)),
                            hoverinfo="skip")
        failed = [(x, st) for x, st in zip(xs, states) if st.outcome == "failed"]
        if failed:
            fig.add_scatter(x=[x for x, _ in failed], y=[st.prompt_tokens for _, st in failed], mode="markers",
                            showlegend=False, hoverinfo="skip",
                            marker=dict(symbol="circle-open", size=15, color=color, line=dict(width=2)))
    fig.add_scatter(x=[None], y=[None], mode="markers", name="cache breaks after this event",
                    marker=dict(symbol="x", size=12, color="#424242"), hoverinfo="skip")
    fig.add_scatter(x=[None], y=[None], mode="markers", name="event failed",
                    marker=dict(symbol="circle-open", size=13, color="#424242", line=dict(width=2)), hoverinfo="skip")
    fig.update_layout(
        font=FONT, height=480, margin=dict(t=40, b=10, l=10, r=10), hoverlabel=dict(align="left"),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        yaxis=dict(title=f"prompt (tokens, {tokenizer})", tickformat=",", rangemode="tozero"),
        xaxis=dict(title="event", tickvals=xs, ticktext=ticks, tickangle=-35, automargin=True),
    )
    return fig

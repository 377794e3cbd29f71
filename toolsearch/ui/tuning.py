"""Tuning: which threshold_pct and listing_max_tokens give which listing, and the settings a
reviewer is looking for. Every number comes from ``toolsearch.analysis.sweep``; this page only lays it out."""

from dataclasses import replace
from typing import Callable

import plotly.graph_objects as go
import streamlit as st

from toolsearch.analysis import charts
from toolsearch.analysis.quantities import form_word, length_label
from toolsearch.ui import common, signals
from toolsearch.ui.recommendation import (PATH_PREFIX, SERVER_LISTS, SESSION_UPLOADS, compared_settings, ctx_text,
                                         dropped_servers, remember_replaced, dropped_words,
                                         ladder_for, missing_words, question_from_state, recommendation_for)
from toolsearch.ui import session_sources as sources
from toolsearch.ui.collapse_views import show_collapse_table
from toolsearch.ui.tables import form_grid_html, literal_table
from toolsearch import __version__
from toolsearch.analysis.recommend import GOAL_WORDS as MULTI_GOAL_WORDS
from toolsearch.analysis.recommend import GOALS as MULTI_GOALS
from toolsearch.analysis.recommend import (more_unnamed_words, shown_unnamed)
from toolsearch.analysis.recommend import (called_unnamed_lines, request_cost_lines, shorter_length_lines, export_block, keep_called_lines,
                                           keep_forces_lines, frontier, headroom_action_words, reserve_line_words, headroom_listing_as_much, large_share_lines, more_headroom_clause,
                                           lowered_changes, lowered_servers, lowered_where, every_length_words, no_tools_lines,
                                           lower_goal_lines, core_only_lines, keeping_goal, worst_words,
                                           outcome_change, outcomes, outside_scope_lines, recommend_for_contexts,
                                           verdict_line, lengths_scope_words, unnamed_reason, MultiRecommendation)
from toolsearch.analysis.report import tier_and_form
from toolsearch.analysis.wording import (CALLED_LISTED_COLUMN, cap_words, settings_name, settings_words, share_cell,
                                         threshold_value, threshold_words)
from toolsearch.analysis.harnesses import PINNED_SCHEMA_COLUMN, PINNED_SCHEMA_WORDS, pin_hot_tools
from toolsearch.analysis.sessions import listing_evidence, shown_name
from toolsearch.engine import constants as C
from toolsearch.analysis.sweep import (FORM_RANK, HEATMAP_CONTEXT_LENGTHS, HEATMAP_LISTING_MAX_TOKENS, HEATMAP_THRESHOLD_PCTS,
                              Ladder, curve_bounds, curve_context_lengths, form_grid, recommend)

#: The checkbox that keeps every server the recorded sessions called named (``--keep-called``).
KEEP_CALLED_LABEL = "Keep called servers named"
#: The budget metric when the goal is out of reach: the smallest budget that gives the best reachable
#: listing (``budget_needed``), which the setting's own budget at a length may exceed (the cap's floor of
#: 200 tokens, or threshold_pct's share of a longer length). Not "budget needed": the box beside it says
#: the budget the goal needs ("it needs a budget of 3,656 tokens"), another quantity.
BEST_REACHABLE_BUDGET_LABEL = "Smallest budget for the best reachable listing"
#: The budget metric when the goal is reached but its lengths need different budgets: the largest of
#: them (``budget_needed``); the help gives each length's, as ``recommend``'s "budget needed" line does.
LARGEST_BUDGET_LABEL = "Largest budget needed"


def answer_name(multi: MultiRecommendation) -> str:
    """What the page calls the settings it gives, as ``toolsearch recommend`` does: ``Recommended``
    when the goal is reached, ``Best reachable`` when it is not (the CLI's "best reachable setting"),
    so a setting that meets no goal is never labeled as the one to ship."""
    return "Recommended" if multi.reached else "Best reachable"


#: The help of "Apply … to the sidebar" when the goal is out of reach.
NOT_REACHED_HELP = ("The goal is not reached: sets the sidebar's threshold_pct and listing_max_tokens to the best "
                    "reachable setting, to look at what it gives.")


def action_labels(multi: MultiRecommendation) -> tuple[str, str]:
    """The labels of the page's two actions, the apply button and the block's download: when the
    goal is out of reach they say the setting is the best reachable one, not an answer to ship."""
    if multi.reached:
        return "Apply to the sidebar", "Download tool_search.yaml"
    return "Apply the best reachable setting to the sidebar", "Download tool_search.yaml (goal not reached)"


def budget_label(multi: MultiRecommendation) -> str:
    """The label of the page's budget metric (``multi.budget_needed``), one name per quantity:
    ``Budget needed at every length`` (``Budget needed`` for one length), the name of ``recommend``'s
    line, when the goal is reached with one budget at every length; :data:`LARGEST_BUDGET_LABEL` when
    the lengths need different budgets; :data:`BEST_REACHABLE_BUDGET_LABEL` when the goal is out of
    reach (the figure is then the best reachable listing's, not what the goal needs)."""
    if not multi.reached:
        return BEST_REACHABLE_BUDGET_LABEL
    if not multi.one_budget:
        return LARGEST_BUDGET_LABEL
    return "Budget needed at every length" if len(multi.contexts) > 1 else "Budget needed"
#: The goal selector's label: the goal of every listed length without one of its own.
GOAL_LABEL = "Goal (all other lengths)"
#: The goal selector's options, short enough to read whole in its half-width column at 1024 px; each
#: starts with the goal's key, as ``--goal`` and *Other goal at some lengths* take it, and the help
#: gives each in full (``GOAL_WORDS``, the words of ``recommend``).
GOAL_OPTIONS: dict[str, str] = {"full": "full · every tool described", "names": "names · every server named",
                                "listed": "listed · tool names listed", "any": "any · some listing"}
#: What each goal asks of the listing, in the goal selector's help (the option names it short).
GOAL_HELP: dict[str, str] = {
    "full": f"{MULTI_GOAL_WORDS['full']}: every server at full lines",
    "names": f"{MULTI_GOAL_WORDS['names']}: no server collapses to a summary line",
    "listed": f"{MULTI_GOAL_WORDS['listed']}: at least one server named, the others may collapse",
    "any": f"{MULTI_GOAL_WORDS['any']}: summary lines are enough"}
#: The preset shown once the list of context lengths matches none of the presets.
CUSTOM = "Custom"
parse_lengths = common.parse_context_lengths
#: Sets of context lengths people run one config with (the first is the default).
CONTEXT_SETS: dict[str, str] = {
    "Typical mix (32K, 128K, 200K, 1M)": "32k, 128k, 200k, 1m",
    "Local models (8K, 32K, 128K)": "8k, 32k, 128k",
    "Hosted models (128K, 200K, 400K)": "128k, 200k, 400k",
    "Long context (200K, 1M)": "200k, 1m",
    "Every preset (8K to 1M)": "8k, 32k, 128k, 200k, 400k, 1m",
}


def _preset_chosen() -> None:
    chosen = st.session_state["tuning_context_preset"]
    if chosen in CONTEXT_SETS:
        st.session_state["tuning_contexts"] = CONTEXT_SETS[chosen]


def preset_of(text: str) -> str:
    """The preset whose context lengths ``text`` lists (same lengths, same order), else ``Custom``."""
    lengths, error = parse_lengths(text)
    for name, value in CONTEXT_SETS.items():
        if not error and parse_lengths(value)[0] == lengths:
            return name
    return CUSTOM


def _clear_session_uploads() -> None:
    st.session_state[SESSION_UPLOADS] = []
    st.session_state.pop(f"{PATH_PREFIX}_path_read", None)


def session_controls(where) -> None:
    """Sample sessions (in the link; drawn in ``where``) and, under them, the user's own session
    files: uploads (kept for the browser session) and a file on this machine (read on request)."""
    where.multiselect("Sample sessions as evidence", list(sources.sample_files()), key="tuning_session_samples",
                   help="Recorded sessions shipped with toolsearch (the team-workspace catalog's); add your own "
                        "files below.")
    kept = st.session_state.get(SESSION_UPLOADS) or []
    path_read = st.session_state.get(f"{PATH_PREFIX}_path_read")
    own = [name for name, _ in kept] + ([path_read] if path_read else [])
    # A fixed label: a label that changed with the files would close the expander on every upload.
    with st.expander("Your own session files: upload, or read one on this machine", expanded=False):
        st.caption(f"{sources.FORMATS_WORDS[0].upper()}{sources.FORMATS_WORDS[1:]}. Several files combine; secrets "
                   "in them are masked, and nothing leaves this machine.")
        st.file_uploader("Session files", type=sources.UPLOAD_TYPES, accept_multiple_files=True,
                         key="tuning_session_upload", on_change=sources.store_uploads("tuning_session_upload",
                                                                                       SESSION_UPLOADS),
                         help="Kept for this browser session, on every page, until you clear them.")
        sources.local_path_controls(st, PATH_PREFIX)
        if own:
            st.caption("Loaded: " + ", ".join(common.md_escape(common.visible(name)) for name in own))
        if own and not st.session_state.get("tuning_session_upload"):
            # files kept from an earlier page (the uploader above is empty): a way to drop them; an
            # uploaded file still in the uploader is removed with its own ×
            st.button("Clear my session files", key="tuning_session_clear", on_click=_clear_session_uploads)


#: Session keys: the headroom in use before the field's change, and why a typed headroom was refused.
HEADROOM_KEPT, HEADROOM_REFUSED = "_tuning_headroom_kept", "_tuning_headroom_refused"
#: The same for *Reserve (%)*.
RESERVE_KEPT, RESERVE_REFUSED = "_tuning_reserve_kept", "_tuning_reserve_refused"


def headroom_text(value: float) -> str:
    """A headroom as typed (``-5``, ``12.5``, ``12.345``): every digit it has, no ``.0``."""
    text = repr(float(value))
    return text.removesuffix(".0")


def _headroom_typed() -> None:
    """on_change of *Headroom (%)*: a value ``recommend --headroom`` refuses (below 0, above
    :data:`~toolsearch.engine.constants.HEADROOM_PCT_MAX`, finer than 0.01) is not used: the field
    goes back to the headroom in use, and why is said under it (:func:`toolsearch.ui.common.headroom_error`,
    the words a link's ``headroom=`` gets)."""
    _percent_typed("tuning_headroom", common.headroom_error, HEADROOM_KEPT, HEADROOM_REFUSED, "headroom",
                   C.HEADROOM_PCT_DEFAULT)


def _reserve_typed() -> None:
    """on_change of *Reserve (%)*: as :func:`_headroom_typed`, with ``recommend --reserve``'s range
    (0 to :data:`~toolsearch.engine.constants.RESERVE_PCT_MAX`) and words (:func:`toolsearch.ui.common.reserve_error`)."""
    _percent_typed("tuning_reserve", common.reserve_error, RESERVE_KEPT, RESERVE_REFUSED, "reserve",
                   C.RESERVE_PCT_DEFAULT)


def _percent_typed(key: str, error: Callable[[str], str | None], kept_key: str, refused_key: str, noun: str, default: float) -> None:
    """A percentage field's value that ``error`` refuses goes back to the value in use (``kept_key``),
    and why is kept under ``refused_key`` to be said under the field."""
    typed = st.session_state.get(key)
    why = error(headroom_text(typed)) if typed is not None else None
    if why:
        kept = st.session_state.get(kept_key, default)
        st.session_state[key] = kept
        st.session_state[refused_key] = f"{why[:-1]}; the {noun} stays {kept:g}%."


def _apply_to_sidebar(threshold_pct: float, listing_max_tokens: int, replaced: tuple[float, int]) -> None:
    # what the click replaced stays the yardstick of "lists less than" (compared_settings)
    remember_replaced((threshold_pct, listing_max_tokens), replaced)
    st.session_state["threshold_pct"] = threshold_pct
    st.session_state["listing_max_tokens"] = listing_max_tokens


#: The lengths of the best-collapse table while the typed list has an error (not a preset of the
#: Preset selector: the context lengths of the sidebar's choices and an unknown one, named in the caption).
FALLBACK_LENGTHS: list[int | None] = [*C.CONTEXT_PRESETS, None]

#: The views of the listing form, one tab each (only the open one is drawn and sent).
CHART_TABS = ["Over threshold_pct", "Over listing_max_tokens", "Listing vs budget"]


def block_for(v: common.View, multi, cfg, ladder) -> str:
    """The exported ``tools.tool_search`` block of ``multi`` for the sidebar's catalog (the text of
    ``toolsearch recommend --yaml``, with where it lists less than the sidebar's settings, measured
    on ``ladder``); its gate line names the shipped sample files the catalog is made of
    (:func:`~toolsearch.ui.common.shipped_sample_files`), else ``CATALOG``."""
    fingerprint = common.whole_catalog_key(v)
    base = compared_settings(cfg)  # after "Apply to the sidebar": the settings it replaced
    return export_block(multi, base, catalog_name=v.inspector.catalog.name, fingerprint=fingerprint,
                        version=__version__, tool_names=v.inspector.naming,
                        scope=v.inspector.scope.name if v.inspector.scope is not None else None,
                        catalogs=common.shipped_sample_files(), lowered=lowered_changes(ladder, base, multi),
                        ladder=ladder, request_costs=request_cost_lines(multi, v.inspector.planner, cfg))


def with_value(values: tuple, value) -> list:
    """``values`` with ``value`` added in order (when known and not already there): the heat
    tables get a row or column for the sidebar setting, so its cell is always on the grid."""
    return sorted({*values, value}) if value is not None else list(values)


@st.cache_resource(max_entries=32, show_spinner=False)
def curve_chart(curve: list, sizes: tuple, ctx: int | None):
    """:func:`charts.listing_curve_figure`, kept per curve, ladder sizes and context length."""
    return charts.listing_curve_figure(curve, dict(sizes), ctx)


def one_form(grid: list, ladder: Ladder) -> None:
    """When every cell of a grid has the same form, say why: the largest budget in it and what the
    better forms would need (tokens, the planning tokenizer's)."""
    forms = {p.listing_form for p in grid}
    if len(forms) != 1 or not grid:
        return
    form = forms.pop()
    top = max(grid, key=lambda p: p.budget)
    sizes = ladder.sizes()
    better = [f"the {name} listing {sizes[name]:,} tokens" for name in ("names", "full")
              if name in sizes and FORM_RANK[name] < FORM_RANK[form]]
    capped = " (listing_max_tokens caps it)" if top.budget_winner == "listing_max_tokens" else ""
    st.info(f"Every cell gives the form “{form_word(form)}”: the largest budget in this grid is {top.budget:,} tokens{capped}"
            + (f", and a better form needs more ({', '.join(better)})" if better else "")
            + ". The “Over listing_max_tokens” tab shows what a larger cap changes.", icon=":material/info:")


#: Up to this many servers (or called tools), the frontier's y axis has a tick at every whole number.
FRONTIER_EVERY_TICK = 15


def frontier_chart(points: list, marks: list[tuple[str, int, int, str]], y_title: str) -> go.Figure:
    """Listing tokens (log x) against ``y`` for every listing a length can get, with the
    ``(name, listing tokens, y, symbol)`` marks on top."""
    fig = go.Figure(go.Scatter(
        x=[p[0] for p in points], y=[p[1] for p in points], mode="lines+markers", line_shape="hv",
        name="every reachable listing", text=[p[2] for p in points],
        hovertemplate="%{text}<br>listing %{x:,} tokens<extra></extra>"))
    for i, (name, x, y, symbol) in enumerate(marks):
        # each mark a size smaller than the one before, so an open marker shows around a later one on the same point
        fig.add_trace(go.Scatter(x=[x], y=[y], mode="markers", name=name,
                                 marker=dict(size=22 - 6 * i if len(marks) > 1 else 14, symbol=symbol),
                                 hovertemplate=f"{name}<br>listing %{{x:,}} tokens<br>{y_title} %{{y}}<extra></extra>"))
    tickvals, ticktext = charts.log_axis_ticks([p[0] for p in points] + [m[1] for m in marks])
    top = max([y for y in [p[1] for p in points] + [m[2] for m in marks] if y is not None] + [0])
    # a count: every whole number a tick while they fit, so the highest point (all servers named) has its own
    steps = dict(tickmode="linear", tick0=0, dtick=1) if top <= FRONTIER_EVERY_TICK else {}
    fig.update_layout(xaxis=dict(type="log", title="listing tokens per request (log scale)", tickvals=tickvals,
                                 ticktext=ticktext),
                      # room above the highest mark, and a top margin for the chart's toolbar, so neither hides it
                      yaxis=dict(title=y_title, range=[0, top + 0.8], **steps),
                      height=360, margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h", y=-0.25))
    return fig


def show_frontier(ladder: Ladder, lengths: list, now: tuple, multi, called) -> None:
    """The frontier of one listed context length: every listing a setting can give there, the
    sidebar setting and the recommendation marked."""
    index = st.selectbox("Context length", list(range(len(lengths))), key="tuning_frontier_length",
                         format_func=lambda i: ctx_text(lengths[i]))
    index = index if index is not None and index < len(lengths) else 0
    by_calls = called is not None and st.toggle("y axis: recorded called tools the listing names",
                                                key="tuning_frontier_calls")
    points = frontier(ladder, lengths[index], called)
    current, recommended = now[index], multi.contexts[index]
    if by_calls:
        y_title = CALLED_LISTED_COLUMN
        xy = [(p.listing_tokens, p.called_listed, p.outcome) for p in points]
        marks = [("sidebar", current.listing_tokens, listing_evidence(called, ladder.step_at(current.budget))["called_listed"],
                  "diamond-open"),
                 (answer_name(multi).lower(), recommended.listing_tokens, recommended.called_listed, "star")]
    else:
        y_title = "servers named"
        xy = [(p.listing_tokens, p.servers_named, p.outcome) for p in points]
        marks = [("sidebar", current.listing_tokens, current.servers_named, "diamond-open"),
                 (answer_name(multi).lower(), recommended.listing_tokens, recommended.servers_named, "star")]
    st.plotly_chart(frontier_chart(xy, marks, y_title), key="tuning_frontier", width="stretch")
    rows = [{"listing (tokens)": p.listing_tokens, "smallest budget (tokens)": p.budget, "listing": p.outcome,
             "marked": ", ".join(name for name, x, _, _ in marks if x == p.listing_tokens)} for p in points]
    if called is not None:
        for row, p in zip(rows, points):
            row[CALLED_LISTED_COLUMN] = p.called_listed
    literal_table(rows, key="tuning_frontier_table")
    st.caption(f"At {ctx_text(lengths[index])}: each point is a listing some threshold_pct and listing_max_tokens give "
               "there (the largest servers collapse first, so fewer tokens name fewer servers). Points above the "
               "length's largest budget are left out.")


def show_pins(v: common.View, multi, lengths: list, evidence: list, labels: list[str]) -> None:
    """The "pin the hot tools" what-if at the recommended setting and every known length
    (:func:`toolsearch.analysis.harnesses.pin_hot_tools`)."""
    st.markdown("**Pin the hot tools** · a proposed Hermes setting")
    st.caption("What if the tools your sessions called most were never deferred? Their full schemas would be sent on "
               "every request, and the model would never have to search for them. In Hermes that is "
               "`tools.tool_search.eager`, or `defer: false` on a server: a proposal, not in released Hermes. "
               f"Computed at the recommended {settings_words(multi.threshold_pct, multi.listing_max_tokens)}.")
    count = st.number_input("Tools to pin (most called first)", min_value=1, max_value=20, value=5, step=1,
                            key="tuning_pin_count", width=220)
    config = replace(v.config, threshold_pct=multi.threshold_pct, listing_max_tokens=multi.listing_max_tokens)
    known = [n for n in lengths if n]
    key = ("tuning pins", tuple(labels), tuple(id(s) for s in evidence), tuple(known), config, v.tokenizer, int(count))
    hot, what_ifs = common.memo(v.inspector.planner, key, lambda: pin_hot_tools(
        evidence, v.inspector, known, config, v.tokenizer, int(count)), size=4)
    if not hot:
        st.info("The recorded sessions called no tool this catalog defers: nothing to pin.", icon=":material/info:")
        return
    if not what_ifs:
        st.info("A pin's cost needs a known context length: add one to the list above.", icon=":material/info:")
        return
    per_tool = {p.name: p for p in what_ifs[0].per_tool}
    literal_table([{"tool": shown_name(name), "calls": calls, "first uses": per_tool[name].first_uses,
                    "round trips before first uses": per_tool[name].discovery_calls,
                    f"{PINNED_SCHEMA_COLUMN} (tokens, {v.tokenizer})": per_tool[name].schema_tokens}
                   for name, calls in hot],
                  key="tuning_pins_tools")
    literal_table([{"context length": ctx_text(w.after.context_length),
                    "tools array, recommended setting (tokens)": w.before.upfront_tokens,
                    "with the pins (tokens)": w.after.upfront_tokens,
                    "cost per request (tokens)": f"{w.cost_tokens:+,}",
                    "round trips saved": w.round_trips_saved} for w in what_ifs], key="tuning_pins")
    st.caption(f"{PINNED_SCHEMA_WORDS} First uses: each pinned tool's first call in a session and after each "
               "compaction, when the model "
               "has to find it again. Round trips before first uses: the tool_search and tool_describe calls the "
               "sessions made just before those first uses (since the previous tool call), as recorded. Round trips "
               "saved: those of every pinned tool, over all the recorded sessions. Cost per request: the pinned schemas sent every time, net of the listing "
               "lines they no longer need; counted with the planning tokenizer."
               + (" Lengths marked unknown are left out: a pin's cost needs a known context length."
                  if len(known) < len(lengths) else ""))


def recommended_outcome_words(v: common.View, multi: MultiRecommendation) -> str:
    """What the recommended settings give at the sidebar's context length, in the words of the
    report's subtitle (:func:`toolsearch.analysis.report.tier_and_form`), beside what the tier bar at
    the top of the page is for (the sidebar's settings), e.g. ``At the sidebar's context length
    (200K) the recommended settings give tier 1 · form names · 9 of 9 servers named (178 tools);
    the bar at the top is the sidebar's own settings.``"""
    ctx = ctx_text(v.context_length)
    which = answer_name(multi).lower()  # "best reachable" when the goal is not reached
    if (multi.threshold_pct, multi.listing_max_tokens) == (v.config.threshold_pct, v.config.listing_max_tokens):
        return f"The sidebar holds the {which} settings: the bar at the top is their outcome at {ctx}."
    return (f"At the sidebar's context length ({ctx}) the {which} settings give "
            f"{tier_and_form(v.plan_for(v.context_length, multi.apply(v.config)))}; the bar at the top is the "
            "sidebar's own settings.")


v = common.view()
st.title("Tuning")
if common.require_catalog(v):
    cfg, ctx = v.config, v.context_length
    ladder = ladder_for(v)
    common.tier_badge(v.plan, common.SIDEBAR_SETTINGS)  # not the recommendation's: said on the bar
    signals.tier2_banner(v.plan)
    st.caption(f"Sidebar: context length {ctx_text(ctx)} · {settings_words(cfg.threshold_pct, cfg.listing_max_tokens)} · "
               f"planning tokenizer {ladder.planning_tokenizer}. "
               "The listing form depends only on the budget = min(listing_max_tokens, threshold_pct% of the context "
               "length), so every grid and chart below is read off one measurement of each degradation step.")
    signals.planning_tokenizer_note(ladder.planning_tokenizer)
    if not ladder.activated:
        st.info("Tool search is not active (enabled: off, or nothing in the catalog is deferrable): every "
                "setting gives tier 0, so there is nothing to tune here.")
    elif not ladder.listing_enabled:
        st.info("listing: off — the tool_search description never embeds a listing (tier 2, form none at every "
                "budget). Set listing to auto or on in the sidebar to tune the budget.")

    # (a) one setting for every context length the config serves ---------------------------------
    st.subheader("One setting for every context length you run")
    st.caption("A harness config holds one threshold_pct and one listing_max_tokens for every model it serves. "
               "The recommendation reaches the goal at each context length below at once, with the fewest listing "
               "tokens; it is exact to 0.1% and 1 token. When the goal is out of reach somewhere, the best reachable "
               "setting keeps the goal at the lengths where it fits and gives the others the most they can hold, "
               "says which servers cannot be named and why, and the per-length goal that is reached. The list, the goal, the headroom and the reserve are kept across pages and in the link.")
    st.session_state["tuning_context_preset"] = preset_of(st.session_state.get("tuning_contexts", ""))
    servers = [server.name for server in ladder.servers]
    dropped = dropped_servers(servers)  # a link, or another catalog, may name servers this one lacks
    for item in dropped:  # one warning per list
        st.warning(common.md_escape(common.visible(dropped_words([item]))), icon=":material/link_off:")
    for key, _label in SERVER_LISTS:  # the multiselects can only hold this catalog's servers
        st.session_state[key] = [name for name in st.session_state.get(key) or [] if name in servers]
    # Preset and goal side by side, the free list under them: at 1024 px three columns cut the
    # chosen preset and goal.
    c1, c3 = st.columns(2)
    c1.selectbox("Preset", [*CONTEXT_SETS, CUSTOM], key="tuning_context_preset", on_change=_preset_chosen,
                 help="Common sets of model context lengths; edit the list under it freely (the preset then "
                      "says Custom).")
    st.text_input("Context lengths (tokens)", key="tuning_contexts",
                  help="Comma-separated, e.g. 32k, 128k, 200k, 1m; 'unknown' for a model whose context length the "
                       "harness does not know (fixed 10,000-token percentage leg).")
    repeats = common.context_length_repeats(st.session_state.get("tuning_contexts") or "")
    if repeats:  # counted once, as --context-lengths does: said, not dropped silently
        st.caption(common.md_escape(common.visible(repeats)))
    c3.selectbox(GOAL_LABEL, list(MULTI_GOALS), key="tuning_multi_goal", format_func=GOAL_OPTIONS.__getitem__,
                 help="What the listing in the tool_search description must still give at every listed length "
                      "without a goal of its own (Other goal at some lengths, below). When it does "
                      "not fit its budget, each server's part shrinks, largest first: full lines (each "
                      "tool with its short description) → names only → one summary line → nothing. "
                      + " ".join(f"**{GOAL_OPTIONS[g]}**: {GOAL_HELP[g]}." for g in MULTI_GOALS))
    c3.text_input("Other goal at some lengths (optional)", key="tuning_length_goals",
                  placeholder="e.g. 200k=full, 1m=full",
                  help="LENGTH=GOAL items for lengths of the list that need another goal (full, names, listed or "
                       "any), e.g. names at 32K but every tool with its description from 200K up. A longer length "
                       "never gets a smaller budget than a shorter one, so it may get more than it asks.")
    listed, listed_error = common.parse_context_lengths(st.session_state.get("tuning_contexts") or "")
    pasted = common.length_goals_note(st.session_state.get("tuning_length_goals") or "",
                                      st.session_state.get("tuning_multi_goal"), None if listed_error else listed)
    if pasted:  # a --goal value pasted whole: its items are used, and where its leading goal goes is said
        c3.caption(common.md_escape(common.visible(pasted)))
    c4, c5 = st.columns(2)
    c4.multiselect("May collapse (exceptions)", servers, key="tuning_except", format_func=common.visible,
                   help="Servers that may become one summary line: “every server named except these”.")
    c5.multiselect("Must stay named", servers, key="tuning_keep", format_func=common.visible,
                   help="Servers that must stay at names or better, whatever the goal.")
    c6, c7 = st.columns(2)
    # no min or max of its own: the browser kept a value out of range without a word, so it is checked here
    st.session_state[HEADROOM_KEPT] = st.session_state.get("tuning_headroom", C.HEADROOM_PCT_DEFAULT)
    c6.number_input("Headroom (%)", step=5.0, format="%g", key="tuning_headroom", on_change=_headroom_typed,
                    help="Keep the budget at least this much above the listing at every length, so the setting "
                         f"survives catalog growth. 0 gives the tight answer; at most {C.HEADROOM_PCT_MAX:g}%, "
                         "with at most two decimals.")
    refused = st.session_state.pop(HEADROOM_REFUSED, None)
    if refused:  # said once, under the field
        c6.warning(common.md_escape(refused), icon=":material/warning:")
    st.session_state[RESERVE_KEPT] = st.session_state.get("tuning_reserve", C.RESERVE_PCT_DEFAULT)
    c6.number_input("Reserve (%)", step=5.0, format="%g", key="tuning_reserve", on_change=_reserve_typed,
                    help="Keep at least this share of every context length free of the tools array, for the system "
                         "prompt, the conversation and the reply: a setting whose request leaves less is not "
                         f"recommended. 0 lets the tools array take the whole context; at most {C.RESERVE_PCT_MAX:g}%. "
                         "`toolsearch recommend --reserve` and `check --reserve` take the same value.")
    refused = st.session_state.pop(RESERVE_REFUSED, None)
    if refused:
        c6.warning(common.md_escape(refused), icon=":material/warning:")
    session_controls(c7)
    if (st.session_state.get("tuning_session_samples") or st.session_state.get(SESSION_UPLOADS)
            or st.session_state.get(f"{PATH_PREFIX}_path_read")):
        c7.checkbox(KEEP_CALLED_LABEL, key="tuning_keep_called",
                    help="Adds every server whose tools the recorded sessions called to Must stay named for the "
                         "recommendation (a server under May collapse stays excepted). "
                         "`toolsearch recommend --sessions ... --keep-called` does the same.")
    asked = question_from_state(v, servers)
    lengths, lengths_error = parse_lengths(st.session_state["tuning_contexts"])
    multi = None
    blocked_by = asked.blocked_by
    if asked.question is None:
        st.error(common.md_escape(common.visible(asked.error)), icon=":material/warning:")
    else:
        q = asked.question
        excepted, kept, headroom, length_goals = list(q.except_servers), list(q.keep_servers), q.headroom_pct, asked.length_goals
        multi = recommendation_for(v, q)
        # the lengths no request fits whatever the settings, first: the answer below is for the others
        for unfit in multi.unfit:
            st.error(common.md_escape(unfit.words[0].upper() + unfit.words[1:] + "."), icon=":material/block:")
        answer_lengths = [c.context_length for c in multi.contexts]  # the lengths the answer is for, in order
        if multi.length_goals:
            st.caption(common.md_escape(f"Goal: {multi.goal_words}."))
        have_sessions = asked.sessions is not None
        called: list = list(q.called or ())
        if asked.sessions is not None:
            evidence, evidence_labels = asked.sessions.sessions, asked.sessions.labels
            found, note = asked.sessions.drift, asked.sessions.note
            st.caption(common.md_escape(common.visible(
                f"Evidence: {len(evidence):,} recorded session{'s' if len(evidence) != 1 else ''} from "
                f"{', '.join(evidence_labels)}; they called {len({c.tool for c in called}):,} distinct deferred "
                "tools of this catalog. "
                + (f"With “{KEEP_CALLED_LABEL}” ticked, the servers of those tools stay at "
                   "names or better (below); the rest of the recommendation comes from the goal. They also show how "
                   "it serves those tools (called tools listed by name, searches saved)." if q.keep_called is not None
                   else "They do not move the recommendation, which comes from the goal: they show how it serves "
                   "those tools (called tools listed by name, searches saved). To keep a called tool named, tick "
                   f"“{KEEP_CALLED_LABEL}”, or add its server under Must stay named."))))
            for line in keep_called_lines(multi):  # which servers the sessions added to Must stay named
                st.info(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/push_pin:")
            if q.keep_called is not None and q.keep_called.not_keepable:
                said = q.keep_called.not_keepable_words()
                st.warning(common.md_escape(common.visible_name(said[0].upper() + said[1:] + ".")),
                           icon=":material/warning:")
            if note:
                st.info(common.md_escape(note), icon=":material/history:")
            keepable_said = q.keep_called is not None and bool(q.keep_called.not_keepable)  # the same tools, said above
            for said in () if keepable_said else asked.sessions.uncounted.sentences(explain=True):
                st.warning(common.md_escape(common.visible_name(said[0].upper() + said[1:] + ".")), icon=":material/warning:")
            if asked.sessions.drift_words:
                said = found.words(v.inspector.catalog.name, consequence=(
                    "“called tools listed by name” and “searches saved” below count this catalog's listing, not the one "
                    "the sessions ran on."))
                st.warning(common.md_escape(common.visible_name(f"Catalog drift: {said}")), icon=":material/warning:")
        for line in keep_forces_lines(multi):  # what the kept servers keep named besides, as recommend says it
            st.info(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/push_pin:")
        for words in missing_words(v):  # not in the answer, and the command line refuses the catalog for it
            st.warning(common.md_escape(common.visible(words)), icon=":material/report:")
        now = outcomes(ladder, cfg.threshold_pct, cfg.listing_max_tokens, answer_lengths)
        worst = multi.worst
        if multi.reached and multi.unfit:  # reached only where a request fits: recommend exits 1 here
            st.warning(verdict_line(multi), icon=":material/warning:")
        elif multi.reached:  # the verdict, as recommend's first line says it (not reached: the box below)
            st.success(verdict_line(multi), icon=":material/check_circle:")
        row = st.container(horizontal=True, gap="medium")  # wraps at narrow widths instead of cutting
        answer = answer_name(multi)  # "Best reachable" when the goal is not reached, as recommend says it
        row.metric(f"{answer} threshold_pct", threshold_value(multi.threshold_pct), width="content")
        row.metric(f"{answer} listing_max_tokens", f"{multi.listing_max_tokens:,} tokens", width="content")
        # the fewest named at any listed length, where that is (as recommend's "N of M servers named at 32K"):
        # "at every length" only when every length names as many, not over a minimum some lengths exceed
        row.metric(f"Servers named at {worst_words(multi)}", f"{worst.servers_named:,} of {worst.servers_total:,}",
                   width="content", help="Tool search is not active at these lengths: there is no listing to name "
                                         "a server, and every tool is sent with its full schema." if multi.inactive
                   else None if len(multi.contexts) == 1 else
                   "The fewest servers named at any listed length, and the lengths that name that few; the table "
                   "below gives each length's count.")
        # not reached: the figure is the best reachable setting's budget, not what the goal needs
        # (the box below gives that); one label for each quantity
        if not multi.one_budget and multi.reached:  # one figure per length: in the table below
            with_headroom = f"with {multi.headroom_pct:g}% headroom" if multi.headroom_pct else None
            row.metric(budget_label(multi), f"{multi.budget_needed:,} tokens", with_headroom, delta_color="off",
                       delta_arrow="off", width="content",
                       help=f"The budget each length's own goal needs: {multi.budget_words}"
                            + (f" ({with_headroom})." if with_headroom else "."))
        else:
            # with headroom the figure is above the listing: say so, in the words of toolsearch recommend
            with_headroom = f"with {multi.headroom_pct:g}% headroom" if multi.headroom_pct and multi.reached else None
            # out of reach: the smallest budget that gives the best reachable listing, not the budget the setting
            # gives (that is each length's own, in the table: "38 of 64 budget tokens")
            # as recommend's "budget needed" line: "at every length" only where there are two or more
            row.metric(budget_label(multi),
                       # no budget: nothing is listed at the shortest length, or listing is off (the box below
                       # says which); "not reachable" under "best reachable" contradicted itself
                       f"{multi.budget_needed:,} tokens" if multi.budget_needed is not None else "none",
                       with_headroom, delta_color="off", delta_arrow="off", width="content")
        # the recommendation's own outcome where the bar at the top gives the sidebar's: the bar is not the answer
        st.caption(recommended_outcome_words(v, multi))
        if multi.cap_floor_words:  # the two metrics above differ: say why, in the words of toolsearch recommend
            st.caption(common.md_escape(multi.cap_floor_words + "."))
        if multi.all_unfit:  # no setting fits a request at any listed length: nothing to choose between
            st.error(f"Not reachable at {lengths_scope_words(multi)}: {multi.reason}.", icon=":material/block:")
        elif not multi.reached:
            # where the fewest are named, as recommend's "best reachable setting (…)" line says it: a longer length
            # can name more than the shortest, and "at every length (0 of 1)" read as if none named more
            st.error(f"Not reachable at {lengths_scope_words(multi)}: {multi.reason}. The values above name "
                     f"{worst.servers_named:,} of {worst.servers_total:,} servers at {worst_words(multi)}, with "
                     f"{multi.fallback_words}.", icon=":material/block:")
        if multi.unnamed:
            # the reasons name servers: catalog text, invisible characters shown as markers as in the block
            # (a per-length goal one of them carries in the page's words: the goal, and what to enter in its field);
            # the first ones by name and the rest counted, as recommend prints them
            more = more_unnamed_words(multi)
            st.markdown("**Not named:**\n" + "\n".join(
                f"- {common.md_escape(common.visible(unnamed_reason(multi, u, 'app')))}" for u in shown_unnamed(multi))
                + (f"\n\n{common.md_escape(more)}" if more else ""))
        for line in lower_goal_lines(multi, "app"):  # the goal that is reached: recommend's line, in the page's words
            st.info(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/tune:")
        for line in core_only_lines(multi):  # a goal met by built-in tools alone, as recommend says it
            st.warning(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/report:")
        for line in no_tools_lines(multi):  # servers no count includes: named, as recommend names them
            st.warning(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/report:")
        for line in large_share_lines(multi, "app"):  # what the listing leaves for the conversation
            st.warning(common.md_escape(line[0].upper() + line[1:] + "."), icon=":material/data_usage:")
        for line in called_unnamed_lines(multi):  # the evidence: which tools the sessions used are lost
            st.info(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/history:")
        for line in shorter_length_lines(multi):  # the sessions ran where the list does not reach
            st.warning(common.md_escape(common.visible(line[0].upper() + line[1:] + ".")), icon=":material/history:")
        outside = outside_scope_lines(multi)
        if outside:  # a harness has one tools.tool_search block: the other sessions get these settings too
            st.warning(common.md_escape(common.visible(
                "These settings are for the session scope in the sidebar, but a harness config has one "
                "tools.tool_search block for every session. With them:")) + "\n\n" + "\n".join(
                f"- {common.md_escape(common.visible(line))}" for line in outside), icon=":material/group_work:")
        growth = multi.growth_words
        action = headroom_action_words(multi, "app")  # the words recommend prints, naming this page's field
        st.caption(f"Headroom {multi.headroom_words}: {'the setting ' if growth.startswith('absorbs') else ''}{growth}."
                   + (f" {action[0].upper()}{action[1:]}." if action else "")
                   + (f" Reserve: {reserve_line_words(multi)}." if multi.reserve_pct else ""))
        for line in request_cost_lines(multi, v.inspector.planner, cfg):  # as recommend and the Overview page say it
            st.warning(common.md_escape(line[0].upper() + line[1:] + "."), icon=":material/trending_up:")
        singles = {c: recommend_for_contexts(ladder, cfg, [c], multi.goal_at(c), except_servers=excepted,
                                             keep_servers=kept, headroom_pct=headroom) for c in answer_lengths}
        # where it lists less, with the servers it no longer names (the words of toolsearch recommend)
        lowered = lowered_changes(ladder, cfg, multi)
        lowered_at = dict(lowered)
        # for the warning (markdown): the server names escaped, the rest as recommend writes it
        lowered_md = [(c, change if not lost else f"{change}; no longer named: "
                       + ", ".join(common.md_escape(common.visible(name)) for name in lost))
                      for c, change, lost in lowered_servers(ladder, cfg, multi)]
        rows = []
        # the sidebar's settings by what they are: "default" while they are the defaults, as the block says it
        sidebar_name = settings_name(cfg.threshold_pct, cfg.listing_max_tokens)  # "default settings" / "current settings"
        sidebar_word = sidebar_name.split()[0]
        for a, b in zip(now, multi.contexts):
            alone = singles[a.context_length]
            rows.append({
                "context length": ctx_text(a.context_length),
                **({"goal": multi.goal_at(a.context_length) + (" (gets more)" if b in multi.beyond_goal else "")}
                   if multi.length_goals else {}),
                f"{sidebar_word}: listing": f"{a.outcome}\n{a.listing_tokens:,} of {a.budget:,} budget tokens",
                f"{answer.lower()}: listing": f"{b.outcome}\n{b.listing_tokens:,} of {b.budget:,} budget tokens",
                "change": lowered_at.get(a.context_length, outcome_change(a, b)),
                "this length alone": (f"{threshold_value(alone.threshold_pct)} / {alone.listing_max_tokens:,} tokens"
                                      + ("" if alone.reached else " (best reachable)")),
            })
            if b.called_total is not None:
                rows[-1][CALLED_LISTED_COLUMN] = share_cell(b.called_listed or 0, b.called_total)
                rows[-1]["searches saved"] = b.searches_saved
        literal_table(rows, key="tuning_multi_table")
        st.caption(f"{sidebar_word.capitalize()}: {settings_words(cfg.threshold_pct, cfg.listing_max_tokens)} "
                   f"(the sidebar). {answer}: {settings_words(multi.threshold_pct, multi.listing_max_tokens)}. "
                   f"“This length alone”: the answer if the config served only "
                   f"that length. Listing tokens are counted with {ladder.planning_tokenizer}."
                   + (" Called tools listed by name: of the deferred tools the recorded sessions called, how many this listing "
                      "names; searches saved: the tool_search calls made just before calling a named tool."
                      if called else ""))
        if lowered:
            # the lengths, changes and servers no longer named as recommend writes them (32K, 1M): one function for both
            where = lowered_where(lowered_md)
            keeping = keeping_goal(ladder, cfg, multi)  # the verified goal that keeps them, as recommend says it
            if multi.reached:
                clause = more_headroom_clause(headroom_listing_as_much(ladder, cfg, multi), sidebar_word,
                                              every_length_words([c.context_length for c in multi.contexts]))
                stricter = (f"choose a stricter goal ({GOAL_LABEL})" if keeping is not None and "," not in keeping.goal
                            else "give those lengths a stricter goal (Other goal at some lengths)")
                why = ("It is the cheapest setting that still meets the goal. One setting serves every length: to list "
                       f"more there, {stricter} or keep the {sidebar_name}. {clause[0].upper()}{clause[1:]}.")
            else:  # the goal is out of reach: this is the best reachable setting, which meets no goal
                why = ("The goal is out of reach, and it is the best reachable setting. One setting serves every length: "
                       "to list more there, give the lengths where the goal is out of reach a goal of their own (Other "
                       f"goal at some lengths), or keep the {sidebar_name}.")
            subject = "The recommendation" if multi.reached else "The best reachable setting"
            keep_words = keeping.words(sidebar_word, "app") if keeping is not None else ""  # the goal in words
            keep = ("\n\n" + common.md_escape(common.visible(keep_words[0].upper() + keep_words[1:]))
                    + ".") if keeping is not None else ""
            st.warning(f"{subject} lists less than the {sidebar_name} at {where}. {why}{keep}",
                       icon=":material/warning:")
        base = compared_settings(cfg)
        if base is not cfg:  # applied: the sidebar holds it now; say what it lists less than the settings it replaced
            replaced_md = [(c, change if not lost else f"{change}; no longer named: "
                            + ", ".join(common.md_escape(common.visible(name)) for name in lost))
                           for c, change, lost in lowered_servers(ladder, base, multi)]
            thing = "recommendation" if multi.reached else "best reachable setting"
            applied = (f"The sidebar holds a {thing} applied in place of "
                       f"{settings_words(base.threshold_pct, base.listing_max_tokens)}")
            if replaced_md:
                st.warning(f"{applied}. Against those settings this {thing} lists less at "
                           f"{lowered_where(replaced_md)}; its block says so.", icon=":material/warning:")
            else:
                st.info(f"{applied}; this {thing} lists no less than those at any listed length.",
                        icon=":material/info:")
        same = (multi.threshold_pct, multi.listing_max_tokens) == (cfg.threshold_pct, cfg.listing_max_tokens)
        # the setting to ship, next to the answer: a reviewer need not scroll past the grids for it
        actions = st.container(horizontal=True, gap="small")
        apply_label, download_label = action_labels(multi)
        # out of reach the answer is no setting to ship: the buttons say so and are not the page's primary action
        actions.button(apply_label, key="tuning_apply_multi", type="primary" if multi.reached else "secondary",
                       disabled=same, on_click=_apply_to_sidebar,
                       args=(multi.threshold_pct, multi.listing_max_tokens, (cfg.threshold_pct, cfg.listing_max_tokens)),
                       help=("The sidebar already uses these values." if same else
                             "Sets the sidebar's threshold_pct and listing_max_tokens to the recommendation."
                             if multi.reached else NOT_REACHED_HELP))
        actions.download_button(download_label, block_for(v, multi, cfg, ladder), file_name="tool_search.yaml",
                                mime="application/x-yaml", key="tuning_download_top", icon=":material/download:",
                                help=("The tools.tool_search block of this recommendation, with where it came from "
                                      "(shown in full at the end of this page)." if multi.reached else
                                      "The tools.tool_search block of the best reachable setting, which does not reach "
                                      "the goal (its comments say where it falls short; shown in full at the end of "
                                      "this page)."))
        frontier_box = st.expander("Frontier: listing tokens against servers named, per context length",
                                   key="tuning_frontier_open", on_change="rerun")
        if frontier_box.open:  # drawn only when opened
            with frontier_box:
                show_frontier(ladder, answer_lengths, now, multi, called if have_sessions else None)
        if have_sessions:
            show_pins(v, multi, lengths, evidence, evidence_labels)

    # best collapse per context length (a what-if beside the reference's greedy collapse) -----------
    # at the recommended settings when there is a recommendation: the table answers "what would the
    # setting this page proposes collapse?", beside the answer above; else the sidebar's
    collapse_config = multi.apply(cfg) if multi is not None else cfg
    st.markdown(f"**Best collapse per context length** at the "
                f"{answer_name(multi).lower() if multi is not None else 'sidebar'} settings "
                f"({settings_words(collapse_config.threshold_pct, collapse_config.listing_max_tokens)})")
    st.caption("The reference collapses the largest names block first. For each context length of the list "
               "above this compares that choice with the best one under the same budget: fewest servers "
               "collapsed, then most tool names shown, then the shortest listing. A what-if, not what the model "
               "sees." + ("" if not lengths_error else " The list above has an error, so the table shows "
                          + ", ".join(ctx_text(n) for n in FALLBACK_LENGTHS[:-1])
                          + " and an unknown context length instead."))
    show_collapse_table(v, "tuning_collapse", lengths if not lengths_error else FALLBACK_LENGTHS, collapse_config)

    # (b) listing form and budget: three charts in tabs, only the open one drawn --------------------
    st.subheader("Listing form over context length, threshold_pct and listing_max_tokens")
    grid = form_grid(ladder, cfg, with_value(HEATMAP_CONTEXT_LENGTHS, ctx),
                     with_value(HEATMAP_THRESHOLD_PCTS, cfg.threshold_pct))
    over_pct, over_cap, over_ctx = st.tabs(CHART_TABS, key="tuning_chart", on_change="rerun")
    ring = ("The outlined cell is the sidebar setting; its row and column say “sidebar” (added to the grid "
            "when the setting is between grid values)." if ctx else
            "Context length unknown: the sidebar setting uses the fixed 10,000-token percentage leg, so it is not "
            "marked.")
    if over_pct.open:
        with over_pct:
            st.html(form_grid_html(grid, key="tuning_heatmap", current=(ctx, cfg.threshold_pct)))
            st.caption(f"At {cap_words(cfg.listing_max_tokens)}, over threshold_pct. Each cell names "
                       f"the form the listing takes there; hover for the budget, the listing size and the tier. {ring}")
            one_form(grid, ladder)
            grid_box = st.expander("The grid as a table", key="tuning_grid_open", on_change="rerun")
            if grid_box.open:  # drawn only when opened
                with grid_box:
                    literal_table([{
                        "context length": length_label(p.context_length), "threshold_pct (%)": p.threshold_pct,
                        "budget (tokens)": p.budget, "decided by": p.budget_winner, "tier": p.tier,
                        "form": p.short_label, "listing (tokens)": p.listing_tokens} for p in grid], key="tuning_grid",
                        formats={"threshold_pct (%)": "{:g}"})  # 2, 4.7: as threshold_value writes it
    if over_cap.open:
        with over_cap:
            cap_grid = form_grid(ladder, cfg, with_value(HEATMAP_CONTEXT_LENGTHS, ctx), [cfg.threshold_pct],
                                 with_value(HEATMAP_LISTING_MAX_TOKENS, cfg.listing_max_tokens))
            st.html(form_grid_html(cap_grid, key="tuning_heatmap_cap", y_axis="listing_max_tokens",
                                   current=(ctx, cfg.listing_max_tokens)))
            st.caption(f"At {threshold_words(cfg.threshold_pct)}, over listing_max_tokens: shows where the cap binds. "
                       f"Each cell names the form the listing takes there; hover for the budget, the listing size and "
                       f"the tier. {ring}")
    if over_ctx.open:
        with over_ctx:
            low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens,
                                     min(HEATMAP_CONTEXT_LENGTHS[0], ctx or HEATMAP_CONTEXT_LENGTHS[0]),
                                     max(HEATMAP_CONTEXT_LENGTHS[-1], ctx or HEATMAP_CONTEXT_LENGTHS[-1]))
            curve = form_grid(ladder, cfg, curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens,
                                                                 low, high), [cfg.threshold_pct])
            sizes = ladder.sizes()
            st.plotly_chart(curve_chart(curve, tuple(sorted(sizes.items())), ctx), key="tuning_curve", width="stretch")
            if sizes:
                st.caption(f"At {settings_words(cfg.threshold_pct, cfg.listing_max_tokens)}. The budget grows with the context length until the "
                           "cap flattens it; where it reaches a dashed line, that form fits (full listing "
                           f"{sizes.get('full', 0):,} tokens, names listing {sizes.get('names', 0):,} tokens, all "
                           f"summary lines {sizes.get('groups', 0):,} tokens; in between, the largest servers "
                           "collapse one by one).")

    # (d) what the sidebar setting gives over context length -----------------------------------
    if ladder.activated:
        recs = {goal: recommend(ladder, cfg, ctx, goal) for goal in ("mixed", "names", "full")}
        tier1 = recs["mixed"]
        facts = [f"At **{settings_words(cfg.threshold_pct, cfg.listing_max_tokens)}** (the sidebar):"]
        if tier1.context_length_from is None:
            facts.append("- tier 2 (server summaries or no listing) at every context length")
        elif tier1.context_length_below is not None:
            facts.append(f"- tier 2 up to a context length of **{tier1.context_length_below:,} tokens**; "
                         f"tier 1 from {tier1.context_length_from:,} tokens")
        else:
            facts.append("- tier 1 at every context length")
        for g in ("names", "full"):
            r = recs[g]
            words = MULTI_GOAL_WORDS[g]
            if r.budget is None:  # say which: a reader cannot act on "too large, or off"
                size = ladder.sizes().get(g)
                why = ("listing is off" if not ladder.listing_enabled or size is None else
                       f"the {g} listing takes {size:,} tokens, more than the largest listing_max_tokens, "
                       f"{C.LISTING_MAX_TOKENS_MAX:,}")
                facts.append(f"- {words}: never ({why})")
            elif r.context_length_from is None:
                why = (f"needs a budget of {r.budget:,} tokens; the cap is {cfg.listing_max_tokens:,}"
                       if cfg.listing_max_tokens < r.budget else f"needs a budget of {r.budget:,} tokens")
                facts.append(f"- {words}: never at these settings ({why})")
            else:
                facts.append(f"- {words}: from a context length of **{r.context_length_from:,} tokens**")
        st.markdown("\n".join(facts))

    # (e) the tools.tool_search block ----------------------------------------------------------
    st.subheader("The tools.tool_search block")
    if multi is not None:
        block = block_for(v, multi, cfg, ladder)
        st.caption(("The recommendation above" if multi.reached else
                    "The best reachable setting above (the goal is not reached, and the block says so)")
                   + " as a harness config block: both budget keys always, enabled, listing "
                   "and defer when the sidebar sets them; the comments say which catalog, context lengths, goal and "
                   "headroom produced it and what each length gets. `toolsearch recommend --yaml` prints the same.")
        st.code(block, language="yaml", wrap_lines=True)  # its comment lines are longer than the page is wide
        st.download_button(action_labels(multi)[1], block, file_name="tool_search.yaml", mime="application/x-yaml",
                           key="tuning_download", icon=":material/download:")
    else:
        st.info(f"Fix the {blocked_by} above to get the block.", icon=":material/info:")

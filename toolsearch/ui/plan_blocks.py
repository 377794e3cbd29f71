"""Blocks that show a plan on any page: the tier bar, the degradation steps and the per-server table."""

from __future__ import annotations

import html
from typing import Any

import streamlit as st

from toolsearch.analysis.sweep import plan_counts
from toolsearch.analysis.quantities import SERVER_TOKEN_COLUMNS, TIER_LABELS, form_word, length_label
from toolsearch.analysis.wording import counted, threshold_value
from toolsearch.engine.listing import collapsed_words
from toolsearch.engine.plan import Plan
from toolsearch.analysis import palette
from toolsearch.ui.sources import LIVE
from toolsearch.ui.styles import SENT_STEP_CSS, STATE_COLORS, STATE_STYLES
from toolsearch.ui.tables import literal_table
from toolsearch.ui.text import md_escape, table_name, thousands, visible


TIER_BADGE = {0: (TIER_LABELS[0], "gray"), 1: (TIER_LABELS[1], "green"), 2: (TIER_LABELS[2], "orange")}


FORM_HELP = {
    "full": "every deferred tool listed with its short description",
    "names": "every deferred tool listed by name only",
    "mixed": "the largest servers collapsed to one summary line, the rest by name",
    "groups": "one summary line per server",
    "none": "no listing: only the bridge tools' own text",
}


#: How the tier bar names the sidebar's settings on the pages that also give a recommendation.
SIDEBAR_SETTINGS = "Sidebar settings"


def settings_words(plan: Plan, whose: str) -> str:
    """Whose settings ``plan`` is for and their figures, as the tier bar opens with them on pages
    that also show other settings: ``Sidebar settings (5%, 4,000 tokens) at 200K`` (threshold_pct,
    listing_max_tokens in tokens, context length as :func:`~toolsearch.analysis.quantities.length_label`
    writes it)."""
    return (f"{whose} ({threshold_value(plan.config.threshold_pct)}, {plan.config.listing_max_tokens:,} tokens) "
            f"at {length_label(plan.context_length)}")


def tier_badge(plan: Plan, whose: str | None = None) -> None:
    """Tier and form as one colored bar (the form's state color), and a notice under it when they
    changed since the previous run (a slider move that crosses a tier boundary is hard to miss).

    ``whose`` (e.g. ``"Sidebar settings"``) opens the bar with whose settings it shows and their
    figures (:func:`settings_words`): on a page that also gives a recommendation, a bar without it
    reads as the recommendation's outcome."""
    label, _ = TIER_BADGE[plan.tier]
    color = STATE_COLORS[plan.listing_form] if plan.activated else STATE_COLORS["visible"]
    text = palette.text_on(color)
    words = (FORM_HELP[plan.listing_form] if plan.activated else
             "tool search is not active: every schema is sent as is, with no bridge tools")
    # Engine values only (tier number, form name, fixed wording): safe as HTML.
    st.markdown(
        f'<div data-testid="tier-bar" style="background:{color};color:{text};padding:.45rem .8rem;'
        f'border-radius:.5rem;font-size:1.05rem;margin:.2rem 0 .6rem 0">'
        + (f'{html.escape(settings_words(plan, whose))}: ' if whose else '')
        + f'<b>{label}</b> &nbsp;·&nbsp; <b>Form: {html.escape(plan_counts(plan).label)}</b> &nbsp;·&nbsp; {words}</div>',
        unsafe_allow_html=True)
    view = st.session_state.get("_view")
    source = getattr(view, "source_label", None)  # the sidebar's View, when the router made one
    now = (plan.tier, plan.listing_form, source)
    before = st.session_state.get("_last_tier_form")
    st.session_state["_last_tier_form"] = now
    if before is not None and before[:2] != now[:2]:
        change = []
        if before[0] != now[0]:
            change.append(f"tier {before[0]} → {now[0]}")
        if before[1] != now[1]:
            change.append(f"form {before[1]} → {now[1]}")
        # The catalog source is not named here (this line is HTML, and a source label is user text).
        cause = "the catalog" if before[2] != now[2] else "the last setting"
        message = f"Changed with {cause}: " + ", ".join(change)
        st.markdown(
            f'<div data-testid="tier-change" style="border:2px solid #000;border-radius:.5rem;padding:.35rem .8rem;'
            f'margin-bottom:.6rem;font-weight:600">⚑ {message}</div>', unsafe_allow_html=True)
        # Said once, here under the tier bar: a toast with the same words doubled it.


def steps_table(plan: Plan) -> None:
    """The degradation steps as a static table (no inner scroll): the step that was sent in bold."""
    import pandas as pd

    sent = next((i for i, s in enumerate(plan.steps) if s.fits), None)
    table = pd.DataFrame([{"step": i + 1, "form": form_word(s.form), "collapsed servers": collapsed_words(s.collapsed, table_name) or "—",
                           "listing (tokens)": s.tokens, "fits": "yes" if s.fits else "no"}
                          for i, s in enumerate(plan.steps)])
    if len(table) > STATIC_TABLE_ROWS:  # hundreds of servers: the table scrolls (and pages), so say where
        st.caption(f"{counted(len(table), 'step')}; the one sent is step {sent + 1:,}." if sent is not None else
                   f"{counted(len(table), 'step')}; none fits.")
    literal_table(table, key="steps_table", styles=STATE_STYLES,
                  cell_css=lambda row, column: SENT_STEP_CSS if sent is not None and row["step"] == sent + 1 else "")


def server_table(plan: Plan) -> list[dict[str, Any]]:
    """Rows for the per-server table (plain values; Streamlit shows them as text)."""
    return [{
        "server": table_name(s.name), "kind": s.kind, "tools": s.tool_count, "state": s.state,
        "collapse #": str(s.collapse_rank) if s.collapse_rank else "—",
        **{column: getattr(s, key) for key, column in SERVER_TOKEN_COLUMNS.items()}, "why": s.reason,
    } for s in plan.servers] + _down_live_servers()


def _down_live_servers() -> list[dict[str, Any]]:
    """Rows for live servers that failed or were skipped (no tools, so not in the plan), when
    the live catalog is shown."""
    result = st.session_state.get("live_result")
    if st.session_state.get("catalog") != LIVE or result is None:
        return []
    return [{"server": table_name(s.name), "kind": "mcp", "tools": 0, "state": s.state, "collapse #": "—",
             **dict.fromkeys(SERVER_TOKEN_COLUMNS.values(), 0),
             "why": visible(s.reason or "")} for s in result.statuses if s.state in ("failed", "skipped")]


def style_states(df, columns: tuple[str, ...] = ("state",)):
    """Color the state columns with :data:`STATE_COLORS` (text in black or white, whichever
    contrasts more) and print integer columns with thousands separators (``29,700``), as the
    metrics do. Returns a pandas Styler, or ``df`` itself when it is empty."""
    def color(value: Any) -> str:
        return palette.cell_style(STATE_COLORS.get(value))
    if df.empty:
        return df
    styler = df.style.format(thousands, subset=int_columns(df))
    present = [c for c in columns if c in df.columns]
    if "why" in df.columns:  # prose: room to read it instead of a sliver beside the numbers
        styler = styler.map(lambda _: "min-width: 15rem", subset=["why"])
    return styler.map(color, subset=present) if present else styler


def int_columns(df) -> list[str]:
    """The integer-valued columns of a DataFrame (booleans excluded)."""
    import pandas as pd

    return [c for c in df.columns if pd.api.types.is_integer_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]


def number_columns(df) -> dict[str, Any]:
    """``column_config`` for ``st.dataframe``: integers right-aligned with thousands separators
    in any browser locale; a ``why`` column wide enough to read."""
    config: dict[str, Any] = {}
    if "why" in df.columns:
        config["why"] = st.column_config.TextColumn("why", width="large")
    return config


#: Up to this many servers the per-server table gives the reasons below it, grouped; above it the
#: reasons are a column of the table, and long tables offer a sort order.
STATIC_TABLE_ROWS = 40


def static_or_scrolling(table, key: str = "table") -> None:
    """A table with state colors and thousands separators, as a literal-text table (every cell in
    full, catalog text never read as Markdown; it scrolls above 15 rows and pages above 200, see
    :func:`toolsearch.ui.tables.literal_table`). ``key`` names it (its ``data-table`` attribute)."""
    literal_table(table, key=key, styles=STATE_STYLES)


def sort_control(table, key: str, default: str):
    """A "Sort by" picker over ``table``'s columns for long tables (those a reader scans for the
    largest or a name): numbers sort largest first, text A to Z, ties keep the table order. The
    choice is kept per ``key`` (session key ``<key>_sort``); ``default`` is the first choice's
    label (the table's own order). Returns the table in the chosen order."""
    import pandas as pd  # noqa: PLC0415

    columns = [str(c) for c in table.columns]
    choice = st.selectbox("Sort by", [default, *columns], key=f"{key}_sort",
                          help="Numbers largest first, text A to Z.")
    if choice == default or choice not in columns:
        return table
    values = table[choice]
    numeric = pd.to_numeric(values, errors="coerce")
    if numeric.notna().any():  # "—" and other text go last
        order = sorted(range(len(table)), key=lambda i: (pd.isna(numeric.iloc[i]), -(numeric.iloc[i] if
                                                          pd.notna(numeric.iloc[i]) else 0)))
    else:
        order = sorted(range(len(table)), key=lambda i: str(values.iloc[i]).casefold())
    return table.iloc[order]


def reasons(plan: Plan) -> dict[str, list[str]]:
    """``{why: [server, ...]}`` in table order: each server's state reason and the servers it covers."""
    out: dict[str, list[str]] = {}
    for s in plan.servers:
        out.setdefault(s.reason, []).append(s.name)
    return out


def server_dataframe(plan: Plan, key: str | None = None) -> None:
    """The per-server table: state cells in the state colors, numbers with thousands separators,
    the ``why`` column in full."""
    import pandas as pd

    table = pd.DataFrame(server_table(plan))
    if table.empty:
        st.info("No servers.")
    elif len(table) <= STATIC_TABLE_ROWS:
        # The reasons are prose: below the table, one line per reason with its servers, so that
        # neither they nor the numbers are cut at any width.
        # nine short columns: with the usual cell padding a few pixels wider than an expander at 1024 px
        literal_table(table.drop(columns="why"), key=key or "server_table", styles=STATE_STYLES, tight=True)
        why: dict[str, list[str]] = {}  # from the rows: live servers that failed have a reason too
        for server, reason in zip(table["server"], table["why"]):
            why.setdefault(reason, []).append(server)
        st.markdown("\n".join(f"- **{md_escape(reason)}**: {', '.join(md_escape(s) for s in servers)}"
                               for reason, servers in why.items()))
    else:  # many servers: the reasons in a column (a list of them would be as long as the table)
        name = key or "server_table"
        kinds = set(table["kind"])
        if len(kinds) == 1:  # the same in every row: room for the reasons instead
            st.caption(f"Every server is of kind {next(iter(kinds))}.")
            table = table.drop(columns="kind")
        literal_table(sort_control(table, name, "plan order"), key=name,
                      styles=STATE_STYLES, nowrap=("kind", "state"))


#: The outline that marks a changed state in a two-sided server table.
CHANGED_CSS = "outline:3px solid #000;outline-offset:-3px;font-weight:700"


def _pair_value(a: Any, b: Any) -> Any:
    """One cell for a figure on two sides: the figure when equal (or on one side only), else ``a → b``."""
    if a is None or b is None or a == b:
        return a if a is not None else b
    return f"{thousands(a)} → {thousands(b)}"


def server_pair_rows(pairs: list, left: str, right: str) -> list[dict[str, Any]]:
    """Rows of the two-sided per-server table (see :func:`server_pair_table`): ``server``, ``tools``,
    ``names block (tokens)``, ``summary line (tokens)`` (a figure that differs between
    the sides reads ``a → b``), the characters columns when the pairs carry them, then the state on
    each side under the column names ``left`` and ``right`` (``—``: not on that side)."""
    chars = any(p.names_chars is not None for p in pairs)
    return [{
        "server": table_name(p.server) if p.label == p.server else f"{table_name(p.server)}\n(group {table_name(p.label)})",
        "tools": _pair_value(p.tools_a, p.tools_b),
        SERVER_TOKEN_COLUMNS["names_tokens"]: _pair_value(p.names_tokens_a, p.names_tokens_b),
        SERVER_TOKEN_COLUMNS["summary_tokens"]: _pair_value(p.summary_tokens_a, p.summary_tokens_b),
        **({"names block (characters)": p.names_chars, "summary line (characters)": p.summary_chars} if chars else {}),
        left: p.state_a or "—", right: p.state_b or "—",
    } for p in pairs]


def server_pair_table(pairs: list, *, key: str, left: str, right: str, only_changed: bool = False) -> None:
    """The per-server table of two sides (one function for every page that shows one: the
    Compare view and the collapse what-if): the same columns and units as the one-sided
    per-server table, a state column per side in the state colors, and the side-B state outlined
    where it differs from side A. ``pairs`` are :class:`toolsearch.analysis.serverpairs.ServerPair`
    rows; ``only_changed`` keeps only the servers whose state changes."""
    import pandas as pd

    shown = [p for p in pairs if p.changed] if only_changed else list(pairs)
    if not shown:
        st.info("No server changes state." if only_changed else "No servers.")
        return
    table = pd.DataFrame(server_pair_rows(shown, left, right))
    state_css = STATE_STYLES["state"]

    def outline(row: dict, column: str) -> str:
        return CHANGED_CSS if column == right and row[right] != row[left] else ""

    literal_table(table, key=key, styles={left: state_css, right: state_css}, nowrap=(left, right),
                  cell_css=outline)

"""Compare two settings: the one view that answers "what changes if I change a setting".

Side A is the sidebar (its catalog and every setting). Side B starts equal to it and can vary
every setting the sidebar has that shapes what the model is sent: the catalog (the same one or
another file), the session scope, context length, threshold_pct, listing_max_tokens, enabled,
listing, the planning tokenizer and the tool naming. A B setting the user has not changed follows
the sidebar. The view shows, in this order: the settings and outcome of both sides, the prompt
cache verdict with the reusable prefix, one per-server table of both sides' states, the first
difference and its causes, and the tool_search descriptions side by side.

Every figure comes from the library: the plans (:mod:`toolsearch.analysis.quantities`,
:func:`toolsearch.analysis.sweep.plan_counts`), the byte comparison
(:func:`toolsearch.analysis.cachediff.compare`) and the server pairs
(:func:`toolsearch.analysis.serverpairs.plan_pairs`); this module only lays them out.
"""

from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from toolsearch.analysis import quantities as Q
from toolsearch.analysis.wording import threshold_value
from toolsearch.analysis.cachediff import CACHE_EXPLANATION, CacheDiff, Side, compare
from toolsearch.analysis.serverpairs import plan_pairs
from toolsearch.analysis.sweep import plan_counts
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import load_text
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.plan import Plan
from toolsearch.engine.readers import decode_bytes
from toolsearch.ui import common, textdiff
from toolsearch.ui.plan_blocks import STATIC_TABLE_ROWS, server_pair_table
from toolsearch.ui.scope_sidebar import WHOLE_CATALOG, app_scopes
from toolsearch.ui.tables import literal_table
from toolsearch.ui.sources import TEXT_UPLOAD_MB

SAME = "Same catalog (the sidebar's)"
UPLOADED = "Another catalog file (upload)"
#: The column names of side A and side B in every table of this view.
A_COL, B_COL = "A (sidebar)", "B"

#: Side B's settings: name → (B's widget key, the sidebar's session key, the sidebar's default).
B_SETTINGS: dict[str, tuple[str, str, Any]] = {
    "context length": ("cmp_b_ctx", "ctx_choice", "200K"),
    "custom context length": ("cmp_b_ctx_custom", "ctx_custom", 64_000),
    "threshold_pct": ("cmp_b_pct", "threshold_pct", C.THRESHOLD_PCT_DEFAULT),
    "listing_max_tokens": ("cmp_b_cap", "listing_max_tokens", C.LISTING_MAX_TOKENS_DEFAULT),
    "enabled": ("cmp_b_enabled", "enabled", C.ENABLED_DEFAULT),
    "listing": ("cmp_b_listing", "listing", C.LISTING_DEFAULT),
    "planning tokenizer": ("cmp_b_tokenizer", "tokenizer", C.DEFAULT_TOKENIZER),
    "tool names": ("cmp_b_naming", "naming", "prefixed"),
    "scope": ("cmp_b_scope", "scope_choice", WHOLE_CATALOG),
}
#: Where side B remembers the sidebar values it last followed.
_BASE = "_cmp_b_base"


def _a_values() -> dict[str, Any]:
    """The sidebar's current value of each of B's settings."""
    return {name: st.session_state.get(a_key, default) for name, (_, a_key, default) in B_SETTINGS.items()}


def _settle_b(key: str, name: str) -> None:
    """on_change of B's budget boxes: the box takes the value B computes with
    (:func:`~toolsearch.ui.common.settle_budget_value`), and a note says what was changed."""
    used, note = common.settle_budget_value(name, st.session_state[key])
    st.session_state[key] = used
    st.session_state["_cmp_b_note"] = note


def follow_a() -> None:
    """Before B's widgets are drawn: a B setting that is unset, or still equal to the sidebar value
    it last followed, takes the sidebar's current value. So B starts equal to A, and the settings
    the user has not changed on B keep following the sidebar."""
    state = st.session_state
    a = _a_values()
    base = state.get(_BASE) or {}
    for name, value in a.items():
        key = B_SETTINGS[name][0]
        if key not in state or (name in base and state[key] == base[name]):
            state[key] = value
    state[_BASE] = a


def reset_b() -> None:
    """Button callback: every B setting back to the sidebar's, and B's catalog back to the sidebar's."""
    for name, value in _a_values().items():
        st.session_state[B_SETTINGS[name][0]] = value
    st.session_state[_BASE] = _a_values()
    st.session_state["cmp_b_source"] = SAME


def _context_length(choice: str, custom: int) -> int | None:
    return None if choice == "unknown" else (int(custom) if choice == "custom" else common.PRESET_LABELS[choice])


def _upload_inspector(data: bytes, name: str, naming: str, root: Inspector) -> Inspector:
    """B's uploaded catalog registered with B's naming and the sidebar's wording profile (kept for
    this browser session, per file content and naming; the last four)."""
    key = (hashlib.sha256(data).hexdigest()[:16], naming, id(root.profile))
    store = st.session_state.setdefault("_cmp_b_uploads", {})
    if key not in store:
        while len(store) >= 4:
            store.pop(next(iter(store)))
        store[key] = Inspector(load_text(decode_bytes(data, name), name), naming, root.profile)
    return store[key]


def side_b_controls(v: common.View) -> tuple[Side | None, str | None]:
    """Side B's widgets; returns ``(side, error)``: the side, or ``None`` while B waits for its
    catalog file (``error`` then says why, or is ``None`` when no file is chosen yet)."""
    follow_a()
    state = st.session_state
    names = [s.name for s in app_scopes()]
    if state.get("cmp_b_scope") not in (WHOLE_CATALOG, *names):
        state["cmp_b_scope"] = WHOLE_CATALOG
    box = st.container(border=True)
    head = box.columns([3, 1], vertical_alignment="center")
    head[0].markdown("**Side B** starts equal to the sidebar (side A); a setting you change here stays, "
                     "the others follow the sidebar.")
    head[1].button("Reset B to A", key="cmp_b_reset", on_click=reset_b, icon=":material/restart_alt:",
                   width="stretch", help="Every B setting back to the sidebar's, and the sidebar's catalog.")
    row = box.columns([1.3, 1, 1])
    source = row[0].radio("B: catalog", [SAME, UPLOADED], key="cmp_b_source")
    upload = None
    if source == UPLOADED:
        upload = row[0].file_uploader("B: catalog file", max_upload_size=TEXT_UPLOAD_MB, type=["yaml", "yml", "json"], key="cmp_b_upload",
                                      help="A catalog YAML/JSON, a recorded tools/list result or a function array, "
                                           "e.g. a newer snapshot of the same servers.")
    row[1].selectbox("B: session scope", [WHOLE_CATALOG, *names], key="cmp_b_scope", disabled=not names,
                     format_func=common.visible,
                     help="A scope defined in the sidebar (Session scope → Edit scopes)." if names else
                          "No scope is defined: define one in the sidebar (Session scope → Edit scopes).")
    row[2].selectbox("B: tool names", list(C.TOOL_NAMING), key="cmp_b_naming",
                     help="prefixed: mcp__<server>__<tool>, as the reference registers MCP tools; "
                          "as-is: catalog names.")
    budget = box.columns(3)
    budget[0].selectbox("B: context length", common.CONTEXT_CHOICES, key="cmp_b_ctx",
                        help="'unknown' uses the reference fallback of 10,000 for the percentage leg.")
    if state["cmp_b_ctx"] == "custom":
        budget[0].number_input("B: custom context length (tokens)", min_value=1, max_value=C.CONTEXT_LENGTH_MAX,
                               step=1000, key="cmp_b_ctx_custom")
    # as the sidebar's boxes: out of range is clamped, threshold_pct kept to 0.1 steps, with a note
    budget[1].number_input("B: threshold_pct (%)", step=common.THRESHOLD_PCT_STEP, format=common.THRESHOLD_PCT_FORMAT,
                           key="cmp_b_pct",
                           on_change=_settle_b, args=("cmp_b_pct", "threshold_pct"),
                           help="Share of the context length the listing may use (0.1 steps, 0–100).")
    budget[2].number_input("B: listing_max_tokens", step=1, key="cmp_b_cap",
                           on_change=_settle_b, args=("cmp_b_cap", "listing_max_tokens"),
                           help="Cap on the listing budget (200–60,000 tokens).")
    if state.get("_cmp_b_note"):
        box.info(f"B: {state['_cmp_b_note']}", icon=":material/info:")
    switches = box.columns(3)
    switches[0].selectbox("B: enabled", list(C.TRI_STATE_VALUES), key="cmp_b_enabled")
    switches[1].selectbox("B: listing", list(C.TRI_STATE_VALUES), key="cmp_b_listing")
    switches[2].selectbox("B: planning tokenizer", list(C.TOKENIZERS), key="cmp_b_tokenizer",
                          help="Decides whether the listing fits. Token figures of both sides are counted with the "
                               f"sidebar's display tokenizer ({v.display_tokenizer}).")

    naming = state["cmp_b_naming"]
    root = v.inspector.scoped(None)
    if source == UPLOADED:
        if upload is None:
            return None, None
        try:
            inspector = _upload_inspector(upload.getvalue(), upload.name, naming, root)
        except ToolsearchError as exc:
            return None, str(exc)
        label = upload.name
        common.problems_notice(inspector.registration.problems, label, key="cmp_b_problems",
                               head=f"B's catalog {common.md_escape(common.visible(label))}", rest="The rest of it is compared.")
    else:
        inspector = root if naming == root.naming else common.memo(
            root, ("compare naming", naming), lambda: Inspector(root.catalog, naming, root.profile))
        label = v.source_label
    scope = next((s for s in app_scopes() if s.name == state["cmp_b_scope"]), None)
    config = v.config.with_overrides(threshold_pct=float(state["cmp_b_pct"]),
                                     listing_max_tokens=int(state["cmp_b_cap"]),
                                     enabled=state["cmp_b_enabled"], listing=state["cmp_b_listing"])
    ctx = _context_length(state["cmp_b_ctx"], state.get("cmp_b_ctx_custom", 64_000))
    return Side(inspector.scoped(scope), config, ctx, state["cmp_b_tokenizer"], "B", label), None


def _ctx_text(n: int | None) -> str:
    return Q.length_label(n)  # as every surface writes a length: 200K, 12,345 tokens, unknown


def _scope_text(side: Side) -> str:
    scope = side.inspector.scope
    return scope.name if scope is not None else WHOLE_CATALOG


def _rows(facts: list[tuple[str, str, str]]) -> list[dict[str, str]]:
    return [{"": k, A_COL: x, B_COL: y, "differs": "●" if x != y else ""} for k, x, y in facts]


def settings_rows(a: Side, b: Side) -> list[dict[str, str]]:
    """Both sides' settings, one row per setting (values as text), with a ``differs`` marker."""
    return _rows([
        ("catalog", a.source, b.source),
        ("session scope", _scope_text(a), _scope_text(b)),
        ("context length", _ctx_text(a.context_length), _ctx_text(b.context_length)),
        ("threshold_pct", threshold_value(a.config.threshold_pct), threshold_value(b.config.threshold_pct)),
        ("listing_max_tokens", f"{a.config.listing_max_tokens:,}", f"{b.config.listing_max_tokens:,}"),
        ("enabled", a.config.enabled, b.config.enabled),
        ("listing", a.config.listing, b.config.listing),
        ("planning tokenizer", a.tokenizer, b.tokenizer),
        ("tool names", a.inspector.naming, b.inspector.naming),
    ])


def outcome_rows(plan_a: Plan, plan_b: Plan, diff: CacheDiff) -> list[dict[str, str]]:
    """What each side sends, one row per figure, with a ``differs`` marker. The figures are the
    plans' named quantities (the same functions as on every page): the budget and the listing in
    the planning tokenizer (the one that decides what fits), the tools array in the display
    tokenizer; the listing form by its counts (:func:`toolsearch.analysis.sweep.plan_counts`)."""
    tk = plan_a.display_tokenizer
    return _rows([
        (f"{Q.BUDGET.name.lower()} (tokens, planning tokenizer)", f"{Q.budget(plan_a):,}", f"{Q.budget(plan_b):,}"),
        ("tier", str(plan_a.tier), str(plan_b.tier)),
        ("listing form", plan_counts(plan_a).label, plan_counts(plan_b).label),
        (f"{Q.LISTING.name.lower()} (tokens, planning tokenizer)", f"{Q.listing(plan_a):,}", f"{Q.listing(plan_b):,}"),
        ("deferred tools", f"{Q.deferred_tools(plan_a):,}", f"{Q.deferred_tools(plan_b):,}"),
        (f"{Q.TOOLS_ARRAY.name.lower()} (tokens, {tk})", f"{Q.tools_array(plan_a):,}", f"{Q.tools_array(plan_b):,}"),
        ("tools array serialized (characters)", f"{diff.a.tools_characters:,}", f"{diff.b.tools_characters:,}"),
    ])


def _row_css(row: dict, column: str) -> str:
    """A row that differs in bold; the listing form in its state color (by its first word, the form)."""
    if row[""] == "listing form" and column in (A_COL, B_COL):
        return common.STATE_STYLES["state"](Q.form_word(str(row[column]).split(" ")[0]))
    return "font-weight:700" if row["differs"] and column in ("", "differs") else ""


def cause_lines(causes) -> str:
    """One bullet per cause: ``• <kind in words>: <message>`` (plain text: messages hold catalog
    names), each one line: a line break in a name is a marker, so a bullet cannot draw another."""
    return "\n".join(common.visible_name(f"• {c.kind.replace('_', ' ')}: {c.message}") for c in causes)


def show_cache(diff: CacheDiff) -> None:
    """The prompt cache verdict and the reusable prefix."""
    r = diff.reusable
    if diff.cache_hit:
        st.badge("Prompt cache: HIT — identical bytes", icon=":material/check_circle:", color="green")
    else:
        st.badge("Prompt cache: MISS — the prefix changes", icon=":material/cancel:", color="red")
    # A wrapping row of content-wide metrics: at narrow widths a metric moves to the next line
    # instead of cutting its label.
    row = st.container(horizontal=True, gap="medium")
    row.metric("Reusable prefix (characters)", f"{r.characters:,}", f"of {r.total_characters_b:,} in B",
               delta_color="off", delta_arrow="off", width="content",
               help="Characters of the tools array serialized as compact JSON, its brackets and commas included.")
    row.metric(f"Reusable prefix (tokens, {r.tokenizer})", f"{r.tokens:,}", f"of {r.total_tokens_b:,} in B",
               delta_color="off", delta_arrow="off", width="content",
               help=f"B's total is its “{Q.TOOLS_ARRAY.name}”, the same figure as on the Overview.")
    row.metric("Share of B served from the cache", f"{100 * r.share_of_b:.1f}%",
               "everything after the first difference is recomputed" if not diff.cache_hit else "the whole tools array",
               delta_color="off", delta_arrow="off", width="content")


def show_servers(plan_a: Plan, plan_b: Plan) -> None:
    """One per-server table: each server's state on A and on B, changed ones outlined."""
    pairs = plan_pairs(plan_a, plan_b)
    changed = sum(p.changed for p in pairs)
    st.markdown(f"**Servers** · {changed:,} of {len(pairs):,} change state")
    only = st.toggle("Only servers that change", key="cmp_only_changed", value=len(pairs) > STATIC_TABLE_ROWS)
    st.caption(f"Sizes in tokens ({plan_a.display_tokenizer}), as in every per-server table; a size that differs "
               f"between the sides reads “A → B”. Outlined: B's state differs from A's.")
    server_pair_table(pairs, key="cmp_servers", left=A_COL, right=B_COL, only_changed=only)


def show_difference(diff: CacheDiff) -> None:
    """The first difference in the tools array and in the description, the causes and the notes."""
    if diff.tools is not None:
        t = diff.tools
        st.markdown("**First difference in the tools array** (compact JSON, as the estimator serializes it)")
        where = [f"character {t.first.offset:,} (UTF-8 byte {t.first.byte_offset:,})"]
        if t.path_a or t.path_b:
            where.append(f"A continues at {t.path_a or 'the end of the array'}"
                         + (f" (tool {t.tool_a})" if t.tool_a else ""))
            where.append(f"B continues at {t.path_b or 'the end of the array'}"
                         + (f" (tool {t.tool_b})" if t.tool_b else ""))
        if t.string_line:
            where.append(f"inside that string: line {t.string_line}, column {t.string_column}")
        st.text(common.visible("\n".join(where)))
        st.code(common.visible(t.first.render(label_before_caret=True)), language=None)
    if diff.description is not None:
        d = diff.description
        st.markdown("**First difference in the tool_search description** (raw text)")
        st.text(common.visible(f"line {d.line}, column {d.column} (character {d.offset:,})\n"
                               f"A: {diff.region_a}\nB: {diff.region_b}"))
        st.code(common.visible(d.render(label_before_caret=True)), language=None)
    if diff.causes:
        st.markdown("**Causes** (found by comparing catalogs, settings and plans)")
        st.text(cause_lines(diff.causes))
    if diff.notes:
        with st.expander(f"Differences that do not change the prefix ({len(diff.notes)})", expanded=diff.cache_hit):
            st.text(cause_lines(diff.notes))


def show_descriptions(plan_a: Plan, plan_b: Plan) -> None:
    """The tool_search descriptions side by side, when they differ."""
    left = plan_a.tool_search_description
    right = plan_b.tool_search_description
    if left == right:
        if left is not None:
            st.caption("The tool_search descriptions are identical.")
        return
    st.markdown("**The tool_search descriptions side by side**")
    st.caption(textdiff.caption())
    st.html(textdiff.side_by_side((left or "(no tool_search: tier 0)").splitlines(),
                                  (right or "(no tool_search: tier 0)").splitlines(),
                                  left_title="A (sidebar settings)", right_title="B", key="cmp_description_diff"))


def show(v: common.View) -> None:
    """The whole Compare view for the sidebar's :class:`~toolsearch.ui.common.View` (side A)."""
    side_b, error = side_b_controls(v)
    if error:
        st.error(common.md_escape(common.visible(error)), icon=":material/error:")
    if side_b is None:
        if not error:
            st.info("Upload B's catalog file to compare.")
        return
    side_a = Side(v.inspector, v.config, v.context_length, v.tokenizer, "A", v.source_label)
    with st.spinner("Comparing the two tools arrays…", show_time=True):
        plan_a = v.plan
        plan_b = side_b.inspector.plan(side_b.config, side_b.context_length, side_b.tokenizer, v.display_tokenizer)
        diff = compare(side_a, side_b, v.display_tokenizer)
    # One above the other: side by side, the listing form's counts would wrap word by word at 1024 px.
    st.markdown("**Settings** (in bold: the ones that differ)")
    literal_table(settings_rows(side_a, side_b), key="cmp_settings", nowrap=("differs",), cell_css=_row_css)
    st.markdown("**What each side sends**")
    literal_table(outcome_rows(plan_a, plan_b, diff), key="cmp_outcome", nowrap=("differs",), cell_css=_row_css)
    show_cache(diff)
    show_servers(plan_a, plan_b)
    show_difference(diff)
    show_descriptions(plan_a, plan_b)
    st.caption(CACHE_EXPLANATION)

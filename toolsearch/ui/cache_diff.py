"""Cache & collapse: (a) does a change break the prompt cache, and where; (b) the better-collapse
what-if. Every number comes from ``toolsearch.analysis.cachediff`` and ``toolsearch.analysis.collapse``; catalog
text (server and tool names, descriptions, listing excerpts) is shown only through st.code,
st.text and literal-text tables (toolsearch/ui/tables.py)."""

from __future__ import annotations

import hashlib
import weakref
from typing import Any, Callable

import pandas as pd
import streamlit as st

from toolsearch.analysis import palette
from toolsearch.ui import common
from toolsearch.ui.tables import literal_table
from toolsearch.engine import constants as C
from toolsearch.analysis.cachediff import CACHE_EXPLANATION, CacheDiff, Side, compare
from toolsearch.engine.catalog import load_text
from toolsearch.analysis.collapse import CollapseComparison, collapse_table, compare_collapse
from toolsearch.analysis.quantities import TOOLS_ARRAY, form_word
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes
from toolsearch.engine.inspector import Inspector

SAME = "Same catalog (the sidebar's)"
UPLOADED = "Another catalog file (upload)"
VERDICT_BADGE = {
    "same": ("Reference choice is already the best", "green"),
    "not_applicable": ("No listing to collapse", "gray"),
    "smaller_listing": ("What-if: shorter listing", "blue"),
    "more_names": ("What-if: more tool names shown", "violet"),
    "fewer_collapsed": ("What-if: fewer servers collapsed", "violet"),
    "missed_fit": ("What-if: the reference missed a fitting listing", "red"),
}


def _memo(key: tuple, owner: Any, make: Callable[[], Any]) -> Any:
    """Per-session memo for derived inspectors; ``owner`` must be the same object on a hit."""
    store = st.session_state.setdefault("_cache_diff_memo", {})
    hit = store.get(key)
    if hit is None or hit[0] is not owner:
        if len(store) >= 8:
            store.clear()
        hit = store[key] = (owner, make())
    return hit[1]


@st.cache_resource
def _shared_results() -> weakref.WeakKeyDictionary:
    """Collapse results per planner, shared by every session (an entry goes with its planner)."""
    return weakref.WeakKeyDictionary()


def _shared(owner: Any, key: tuple, make: Callable[[], Any]) -> Any:
    """``make()`` once per ``owner`` and ``key``; the 16 most recently used results are kept. A
    slider moved back to an earlier value is then answered without recomputing."""
    store = _shared_results().setdefault(owner, {})
    if key in store:
        store[key] = store.pop(key)
    else:
        while len(store) >= 16:
            del store[next(iter(store))]
        store[key] = make()
    return store[key]


def _ctx_text(n: int | None) -> str:
    return f"{n:,}" if n else "unknown"


def side_b_controls(v: common.View) -> tuple[Side | None, str | None]:
    """The widgets for side B; returns the side (or ``None`` while no file is uploaded) and an error."""
    st.markdown("**Side B**: change one or more settings, or compare with another catalog file.")
    col1, col2, col3, col4 = st.columns([1.3, 1, 1, 1])
    source = col1.radio("B's catalog", [SAME, UPLOADED], key="cd_source")
    choice = col2.selectbox("B: context length", common.CONTEXT_CHOICES, key="cd_ctx",
                            index=common.CONTEXT_CHOICES.index(st.session_state.get("ctx_choice", "200K")))
    ctx = None if choice == "unknown" else common.PRESET_LABELS.get(choice)
    if choice == "custom":
        ctx = int(col2.number_input("B: custom context length (tokens)", min_value=1, max_value=C.CONTEXT_LENGTH_MAX,
                                    value=v.context_length or 64_000, step=1000, key="cd_ctx_custom"))
    # One decimal, as the sidebar's threshold_pct input shows it (5.0, not 5.00).
    pct = col3.number_input("B: threshold_pct (%)", C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX,
                            value=float(v.config.threshold_pct), step=0.1, format="%.1f", key="cd_pct")
    cap = col3.number_input("B: listing_max_tokens", C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX,
                            value=int(v.config.listing_max_tokens), step=100, key="cd_cap")
    naming = col4.radio("B: tool names", list(C.TOOL_NAMING), key="cd_naming", horizontal=True,
                        index=list(C.TOOL_NAMING).index(v.inspector.naming))
    config: ToolSearchConfig = v.config.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
    profile = v.inspector.profile
    if source == UPLOADED:
        upload = col1.file_uploader("B's catalog file", type=["yaml", "yml", "json"], key="cd_upload",
                                    help="A catalog YAML/JSON, a recorded tools/list result or a function array, "
                                         "e.g. a newer snapshot of the same servers.")
        if upload is None:
            return None, None
        data = upload.getvalue()
        digest = hashlib.sha256(data).hexdigest()[:16]
        try:
            text = decode_bytes(data, upload.name)
            inspector = _memo(("upload", digest, naming), profile,
                              lambda: Inspector(load_text(text, upload.name), naming, profile))
        except ToolsearchError as exc:
            return None, str(exc)
        label = upload.name
    else:
        inspector = v.inspector if naming == v.inspector.naming else _memo(
            ("naming", id(v.inspector), naming), v.inspector, lambda: Inspector(v.inspector.catalog, naming, profile))
        label = v.source_label
    return Side(inspector, config, ctx, v.tokenizer, "B", label), None


def settings_table(diff: CacheDiff) -> pd.DataFrame:
    """Both sides' settings and outcome, one row per fact (values as text)."""
    a, b = diff.a, diff.b
    rows = [
        ("catalog", a.source, b.source),
        ("context length", _ctx_text(a.context_length), _ctx_text(b.context_length)),
        ("threshold_pct", f"{a.threshold_pct:g}", f"{b.threshold_pct:g}"),
        ("listing_max_tokens", f"{a.listing_max_tokens:,}", f"{b.listing_max_tokens:,}"),
        ("tool names", a.naming, b.naming),
        ("budget (tokens)", f"{a.budget:,}", f"{b.budget:,}"),
        ("tier", str(a.tier), str(b.tier)),
        ("listing form", a.listing_outcome, b.listing_outcome),
        ("deferred tools", f"{a.deferred_count:,}", f"{b.deferred_count:,}"),
        ("tools array serialized (characters)", f"{a.tools_characters:,}", f"{b.tools_characters:,}"),
        (f"{TOOLS_ARRAY.name.lower()} (tokens, {diff.reusable.tokenizer})", f"{a.tools_tokens:,}",
         f"{b.tools_tokens:,}"),
    ]
    return pd.DataFrame([{"": k, "A (sidebar)": x, "B": y, "differs": "●" if x != y else ""} for k, x, y in rows])


def cause_lines(causes) -> str:
    """One bullet per cause: ``• <kind in words>: <message>`` (plain text: messages hold catalog names)."""
    return "\n".join(f"• {c.kind.replace('_', ' ')}: {c.message}" for c in causes)


def show_diff(diff: CacheDiff) -> None:
    """Badge, reusable prefix, first differences with excerpts, causes."""
    r = diff.reusable
    if diff.cache_hit:
        st.badge("Prompt cache: HIT — identical bytes", icon=":material/check_circle:", color="green")
    else:
        st.badge("Prompt cache: MISS — the prefix changes", icon=":material/cancel:", color="red")
    # A wrapping row of content-wide metrics: at narrow widths a metric moves to the next line
    # instead of cutting its label.
    row = st.container(horizontal=True, gap="medium")
    c1 = c2 = c3 = row
    c1.metric("Reusable prefix (characters)", f"{r.characters:,}", f"of {r.total_characters_b:,} in B",
              delta_color="off", delta_arrow="off", width="content",
              help="Characters of the tools array serialized as compact JSON, its brackets and commas included.")
    c2.metric(f"Reusable prefix (tokens, {r.tokenizer})", f"{r.tokens:,}", f"of {r.total_tokens_b:,} in B",
              delta_color="off", delta_arrow="off", width="content",
              help=f"B's total is its “{TOOLS_ARRAY.name}”, the same figure as on the Overview.")
    c3.metric("Share of B served from the cache", f"{100 * r.share_of_b:.1f}%",
              "everything after the first difference is recomputed" if not diff.cache_hit else "the whole tools array",
              delta_color="off", delta_arrow="off", width="content")
    literal_table(settings_table(diff), key="cd_settings", nowrap=("differs",))
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
        st.text("\n".join(where))
        st.code(common.visible(t.first.render()), language=None)
    if diff.description is not None:
        d = diff.description
        st.markdown("**First difference in the tool_search description** (raw text)")
        st.text(f"line {d.line}, column {d.column} (character {d.offset:,})\n"
                f"A: {diff.region_a}\nB: {diff.region_b}")
        st.code(common.visible(d.render()), language=None)
    if diff.causes:
        st.markdown("**Causes** (found by comparing catalogs, settings and plans)")
        st.text(cause_lines(diff.causes))
    if diff.notes:
        with st.expander(f"Differences that do not change the prefix ({len(diff.notes)})", expanded=diff.cache_hit):
            st.text(cause_lines(diff.notes))
    st.caption(CACHE_EXPLANATION)


def _state_style(value: Any) -> str:
    """CSS for a state cell: the state's color (the same on every page)."""
    return palette.cell_style(common.STATE_COLORS.get(value))


def server_rows(cmp: CollapseComparison) -> pd.DataFrame:
    """Per-server states under the reference and the what-if; sizes in tokens (as on every page),
    and for chars4 also in characters (the units the collapse choice adds up), labeled."""
    chars = cmp.units == "characters"
    return pd.DataFrame([{
        "server": s.server if s.label == s.server else f"{s.server}\n(group {s.label})", "tools": s.deferred_count,
        "names block (tokens)": s.names_tokens, "summary line (tokens)": s.summary_tokens,
        **({"names block (characters)": s.names_units, "summary line (characters)": s.summary_units} if chars else {}),
        "reference": s.reference, "best (what-if)": s.best,
    } for s in cmp.servers])


def _changed_outline(row: dict, column: str) -> str:
    """A black outline on the what-if state where it differs from the reference."""
    return ("outline:3px solid #000;outline-offset:-3px;font-weight:700"
            if column == "best (what-if)" and row["best (what-if)"] != row["reference"] else "")


def show_collapse(v: common.View) -> CollapseComparison:
    """Reference vs best collapse at the sidebar settings, and over the context presets."""
    planner = v.inspector.planner
    with st.spinner("Comparing the collapse choices…", show_time=True):
        cmp = _shared(planner, ("compare", v.config, v.context_length, v.tokenizer),
                      lambda: compare_collapse(planner, v.config, v.context_length, v.tokenizer))
    st.info("**What-if, not the reference behavior.** Every other page shows the reference's greedy collapse "
            "(largest names block first, docs/reference.md §5.4). This section computes the best choice under the same budget: "
            "fewest groups collapsed, then most tool names shown, then the shortest listing (ties: the reference's "
            "collapse order).", icon=":material/science:")
    label, color = VERDICT_BADGE[cmp.verdict]
    st.badge(label, color=color)
    st.text(f"Verdict: {cmp.summary}")
    st.caption(f"Budget {cmp.budget:,} tokens ({cmp.tokenizer}) · method: {cmp.method}"
               + ("" if cmp.exact else " (approximate: not proven optimal)"))
    left, right = st.columns(2)
    for col, title, outcome, desc_tokens in ((left, "Reference (what the model sees)", cmp.reference,
                                              cmp.reference_description_tokens),
                                             (right, "Best choice (what-if)", cmp.best, cmp.best_description_tokens)):
        with col.container(border=True):
            st.markdown(f"**{title}**")
            row = st.container(horizontal=True, gap="medium")  # wraps rather than cutting a label
            row.metric("Form", form_word(outcome.form), width="content")
            row.metric("Groups at names", f"{outcome.kept} of {cmp.groups}", width="content")
            row.metric("Tool names shown", f"{outcome.names_shown:,}", width="content")
            row.metric("Listing", f"{outcome.tokens:,} tokens", f"tool_search description {desc_tokens:,} tokens",
                       delta_color="off", delta_arrow="off", width="content")
    df = server_rows(cmp)
    st.caption("Per-server sizes in tokens, as counted for the budget and shown on every page." if cmp.units == "tokens"
               else f"Per-server sizes in tokens ({cmp.tokenizer}), as on every page, and in characters: "
               f"{cmp.tokenizer} counts a listing as its characters ÷ 4, rounded up once for the whole listing, so "
               "the collapse choice adds servers up in characters.")
    literal_table(df, key="cd_collapse_servers", styles={"reference": _state_style, "best (what-if)": _state_style},
                  nowrap=("reference", "best (what-if)"), cell_css=_changed_outline)
    st.caption("Outlined: the what-if state differs from the reference.")
    with st.expander("The two listings (exact text)"):
        a, b = st.columns(2)
        a.caption("Reference")
        a.code(cmp.reference.text or "(no listing: form none)", language=None, wrap_lines=True)
        b.caption("Best choice (what-if)")
        b.code(cmp.best.text or "(no listing: form none)", language=None, wrap_lines=True)
    st.markdown("**Over the context-length presets** (sidebar threshold_pct and listing_max_tokens)")
    rows = _shared(planner, ("table", v.config, v.tokenizer),
                   lambda: collapse_table(planner, v.config, [*C.CONTEXT_PRESETS, None], v.tokenizer))
    literal_table([{
        "context length (tokens)": _ctx_text(r.context_length), "budget (tokens)": r.budget,
        "reference form": form_word(r.reference_form), "best form": form_word(r.best_form),
        "groups at names (ref → best)": f"{r.reference_kept} → {r.best_kept}",
        "tool names (ref → best)": f"{r.reference_names:,} → {r.best_names:,}",
        "verdict": VERDICT_BADGE[r.verdict][0],
    } for r in rows], key="cd_collapse_presets")
    return cmp


v = common.view()
st.title("Cache & collapse")
if common.require_catalog(v):
    st.subheader("Cache-stability diff")
    st.caption("Side A is the sidebar: its catalog and settings. Side B starts equal to it; change B's settings or "
               "upload another catalog (e.g. a newer snapshot) and see whether the model-visible prefix stays "
               "byte-identical, where it first differs, and why.")
    side_b, error = side_b_controls(v)
    if error:
        st.error(error, icon=":material/error:")
    if side_b is None:
        st.info("Upload B's catalog file to compare.")
    else:
        side_a = Side(v.inspector, v.config, v.context_length, v.tokenizer, "A", v.source_label)
        with st.spinner("Comparing the two tools arrays…", show_time=True):
            diff = compare(side_a, side_b, v.display_tokenizer)
        show_diff(diff)
    st.divider()
    st.subheader("Better collapse (what-if)")
    show_collapse(v)

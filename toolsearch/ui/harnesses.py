"""Harnesses: the same catalog under Claude Code, Qwen Code, kiro-cli, count and Strands switches,
with flip points, knob values and pins as a what-if. Everything is computed by
:mod:`toolsearch.analysis.harnesses`; this view only asks and shows."""

import streamlit as st

from toolsearch.analysis import harnesses as H
from toolsearch.analysis.quantities import length_label
from toolsearch.ui import common
from toolsearch.ui import session_sources as sources
from toolsearch.ui.cache import memo
from toolsearch.ui.tables import literal_table

#: Context lengths offered, and the ones shown first.
LENGTH_CHOICES = dict(common.PRESET_LABELS)
DEFAULT_LENGTHS = ["200K", "1M"]
NO_SESSIONS = "none"


def _sample_sessions() -> dict[str, str]:
    return {name: str(path) for name, path in sources.sample_files().items()}


def _sessions(name: str):
    if name == NO_SESSIONS:
        return None
    return sources.load_path(_sample_sessions()[name]).sessions


v = common.view()
st.title("Harnesses")
st.caption("The same catalog under other harnesses' tool-search switches: whether tool search is active, what the "
           "model receives up front, the context length where the rule flips for this catalog and the knob value "
           "for either outcome. Hermes is this app's exact engine; every other row is a labeled model of the "
           "harness's documented behaviour (see the sources below and docs/harnesses.md).")
if common.require_catalog(v):
    inspector = v.inspector
    lengths_chosen = st.multiselect("Context lengths", list(LENGTH_CHOICES), default=DEFAULT_LENGTHS,
                                    key="harness_lengths")
    with st.expander("Settings per harness", expanded=False):
        st.caption("Comma-separated settings; each is one row per context length.")
        texts = {
            H.CLAUDE_CODE: st.text_input("Claude Code ENABLE_TOOL_SEARCH (unset, unset-third-party, true, auto, "
                                         "auto:N, false)", ", ".join(H.DEFAULT_SETTINGS[H.CLAUDE_CODE]),
                                         key="harness_claude"),
            H.QWEN_CODE: st.text_input("Qwen Code tools.toolSearch.threshold (percent)",
                                       ", ".join(H.DEFAULT_SETTINGS[H.QWEN_CODE]), key="harness_qwen"),
            H.KIRO_CLI: st.text_input("kiro-cli minPct%/minTokens, or off", ", ".join(H.DEFAULT_SETTINGS[H.KIRO_CLI]),
                                      key="harness_kiro"),
            H.COUNT: st.text_input("Count trigger: defer from N tools", ", ".join(H.DEFAULT_SETTINGS[H.COUNT]),
                                   key="harness_count"),
            H.STRANDS: st.text_input("Strands DeferConditions (toolCount=N, schemaTokens=N or N%, joined with +)",
                                     ", ".join(H.DEFAULT_SETTINGS[H.STRANDS]), key="harness_strands"),
        }
    lengths = [LENGTH_CHOICES[k] for k in LENGTH_CHOICES if k in lengths_chosen]
    try:
        settings = H.parse_settings(f"{harness}={value.strip()}" for harness, text in texts.items()
                                    for value in text.split(",") if value.strip())
        key = ("harness rows", tuple(lengths), tuple(sorted(settings.items())), v.config, v.tokenizer)
        rows = memo(inspector.planner, key, lambda: H.harness_rows(inspector, lengths, v.config, v.tokenizer, settings)) \
            if lengths else []
    except H.HarnessError as exc:
        st.error(str(exc), icon=":material/error:")
        rows = []
    if not lengths:
        st.info("Choose at least one context length.")
    st.text(common.visible_name(f"Catalog: {inspector.catalog.name} \u00b7 tokens in {v.tokenizer} \u00b7 Hermes settings from the sidebar"))
    for length in lengths:
        st.subheader(H.length_heading(length))  # as toolsearch harnesses heads the same rows
        here = [r for r in rows if r.context_length == length]
        literal_table([H.row_cells(r) for r in here], key=f"harness_rows_{length}",
                      nowrap=("active", "up front (tokens)", H.FLIP_COLUMN))
        # The knob sentences are prose: a table of their own keeps them readable at narrow widths.
        literal_table([{"harness": H.HARNESS_LABELS[r.harness], "setting": r.setting, "knob for your goal": r.knob}
                       for r in here], key=f"harness_knobs_{length}")
        # What a row assumes or leaves out (e.g. descriptions Claude Code cuts, which is why its "full
        # schemas" can be fewer tokens than another harness's): said under the rows it explains.
        notes = [f"{H.HARNESS_LABELS[r.harness]} ({r.setting}): {note}" for r in here for note in r.notes]
        if notes:
            st.caption(common.md_escape(common.visible("Notes: " + "; ".join(notes) + ".")))
    st.caption("Up front: the catalog's tools as the model receives them before the first turn (schemas that "
               "stay, plus the names or name-and-description lines of the deferred tools; Hermes: its whole tools "
               "array). Flips at: the smallest context length at which 'active' changes for this catalog; "
               f"{H.NO_FLIP} where the length plays no part.")

    st.subheader("Pins: what if some tools were never deferred?")
    st.warning("Hermes' pins (mcp_servers.<name>.defer: false, tools.tool_search.eager) are a proposal, not in "
               "released Hermes. Claude Code's alwaysLoad is released.", icon=":material/science:")
    samples = _sample_sessions()
    session_name = st.selectbox("Recorded sessions (their most-called tools are the default pins)",
                                [NO_SESSIONS, *samples], key="harness_sessions")
    sessions = _sessions(session_name)
    registered = [t for t in inspector.registration.tools if t.name not in ("tool_search", "tool_describe", "tool_call")]
    suggested = [name for name, _ in H.most_called_tools(sessions, inspector)] if sessions else []
    servers = st.multiselect("Pin servers", sorted({t.server for t in registered if H.is_harness_deferrable(t)}),
                             key="harness_pin_servers", format_func=common.visible)
    tools = st.multiselect("Pin tools", [t.name for t in registered if H.is_harness_deferrable(t)],
                           default=suggested, key=f"harness_pin_tools_{session_name}", format_func=common.visible)
    if sessions is not None and not suggested:
        st.info("None of the recorded sessions' calls are tools of this catalog.")
    try:
        pins = H.resolve_pins(inspector, servers, tools)
    except H.HarnessError as exc:
        st.error(str(exc), icon=":material/error:")
        pins = ()
    if pins and lengths:
        what_ifs = memo(inspector.planner, ("harness pins", pins, tuple(lengths), session_name, v.config, v.tokenizer),
                        lambda: [H.pin_what_if(inspector, harness, pins, length, sessions, v.config, v.tokenizer)
                                 for length in lengths for harness in (H.CLAUDE_CODE, H.HERMES)])
        literal_table([{
            "harness": w.label, "context length": length_label(w.after.context_length),
            "pinned tools": str(len(w.pinned)),
            # "up front (tokens)" as in the tables above, without and with the pins
            "up front without pins (tokens)": f"{w.before.upfront_tokens:,}",
            "up front with the pins (tokens)": f"{w.after.upfront_tokens:,}",
            "cost per request (tokens)": f"{w.cost_tokens:+,}",
            "round trips saved": "\u2014" if w.round_trips_saved is None else f"{w.round_trips_saved:,}",
            "sessions": str(w.sessions),
        } for w in what_ifs], key="harness_pins", nowrap=("cost per request (tokens)",))
        st.caption("Cost per request: the pinned full schemas sent on every request (for Hermes, net of the listing "
                   "lines they no longer need). Round trips saved: the discovery calls (tool_search, tool_describe, "
                   "Claude Code's ToolSearch) the recorded sessions made just before each pinned tool's first use in a "
                   "session and after each compaction, as recorded.")
    elif not pins:
        st.caption("Pick servers or tools to pin, or load recorded sessions.")

    st.subheader("Sources")
    literal_table([{"harness": H.HARNESS_LABELS[h], "kind": H.kind_word(h == H.HERMES),
                    "source": H.SOURCES[h]} for h in H.HARNESSES], key="harness_sources")

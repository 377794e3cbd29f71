"""Sessions: what the model actually searched and called in recorded sessions, replayed against the
sidebar's catalog with the current settings and each search variant.

Every number comes from ``toolsearch.analysis.sessions``. Session text (queries, tool names, arguments,
errors, model names) is untrusted: it is shown only through literal-text tables (toolsearch/ui/tables.py), st.text and st.code.
A session store is opened read-only; nothing here starts a process.
"""

from __future__ import annotations

import json
import weakref
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd
import streamlit as st

from toolsearch.ui import common
from toolsearch.ui import session_sources as sources
from toolsearch.ui.tables import literal_table
from toolsearch.analysis.wording import (CALLED_LISTED_COLUMN, GATE_TERM_WORDS, counted, per_count, percent, settings_words,
                                         share_cell)
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.invisible import json_text, quoted
from toolsearch.analysis.evaluation import DEFAULT_VARIANTS, VARIANT_HELP
from toolsearch.analysis.variants import variant_sources
from toolsearch.analysis.session_formats import FORMAT_HELP, FORMATS
from toolsearch.analysis.quantities import gate_term_text, length_arg, length_label
from toolsearch.analysis.sessions import (CONTEXT_LENGTHS_COLUMN, NO_DEFERRED_CALLED_WORDS, context_lengths_cell, SEARCHES_JUST_BEFORE_COLUMN, SEARCHES_JUST_BEFORE_WORDS, SESSION_ORDER_WORDS, LoadedSessions, Replay, Session, aggregates, called_listed_at, called_tools,
                                 catalog_drift, event_to_dict, export_queries, export_queries_yaml, listing_what_if, replay, session_flags, show_invisible, report, summary,
                                 what_if_lengths, with_recorded_lengths, counters_line, released_hermes_sessions,
                                 released_hermes_words, scrub_sessions, shown_name, shown_names,
                                 uncounted_calls, FAILED_SEARCHES_NEXT_WORDS, FLAGS_NEXT_WORDS, MISSED_SEARCHES_NEXT_WORDS,
                                 called_unnamed_next_words)

SAMPLE = "Sample sessions"
UPLOAD = "Upload a session file"
LOCAL = "A file on this machine"
AUTO = "detect"
sample_files = sources.sample_files


@st.cache_resource
def _results() -> weakref.WeakKeyDictionary:
    """Replays per inspector (the sidebar caches inspectors); an entry goes away with its inspector."""
    return weakref.WeakKeyDictionary()


def _memo(key: tuple, owner: Any, loaded: LoadedSessions, make: Callable[[], Any]) -> Any:
    """``make()`` once per inspector, loaded sessions and ``key``. The entry keeps ``loaded``
    alive, so the ``id`` in its key cannot be reused by other sessions while it exists."""
    store = _results().setdefault(owner, {})
    full = (id(loaded), *key)
    if full in store:
        store[full] = store.pop(full)  # most recently used last
    else:
        while len(store) >= 8:
            del store[next(iter(store))]
        store[full] = (loaded, make())
    return store[full][1]


def _source(bar: Any) -> tuple[LoadedSessions | None, str]:
    """The chosen sessions (or ``None``) and a label."""
    fmt_choice = st.session_state.get("sessions_format", AUTO)
    fmt = None if fmt_choice == AUTO else fmt_choice
    kind = st.session_state.get("sessions_source", SAMPLE)
    if kind == SAMPLE:
        path = sample_files()[st.session_state.get("sessions_sample") or next(iter(sample_files()))]
        return sources.load_path(path, fmt, bar), path.name
    if kind == UPLOAD:
        upload = st.session_state.get("sessions_upload")
        if upload is None:
            st.info(f"Upload a session file: {sources.FORMATS_WORDS}.")
            return None, ""
        return sources.load_upload(upload.name, upload.getvalue(), fmt, bar), upload.name
    path_text = st.session_state.get("sessions_path_read")
    if not path_text:
        st.info("Type the path of a session file (for example ~/.hermes/state.db) and press Read. "
                "A session store is opened read-only.")
        return None, ""
    path = Path(path_text).expanduser()
    return sources.load_path(path, fmt, bar), str(path)


def lengths_text(lengths: list[int | None]) -> str:
    """``[32000, 1000000, None]`` → ``"32k, 1m, unknown"`` (the text the lengths input shows)."""
    return ", ".join(length_arg(n or None) for n in lengths)  # as --context-lengths takes them


#: The what-if's context lengths are read as the Tuning page reads its own (one parser, one set of
#: messages and limits).
parse_lengths = common.parse_context_lengths


def _lengths_input(sidebar_context: int | None, where: Any, sessions: Sequence[Any] = ()) -> list[int | None]:
    """The what-if's context lengths: a text input that starts at the context lengths the loaded
    ``sessions`` recorded, the sidebar's context length and the lengths being tuned on the Tuning
    page (32K / 200K / 1M while that list is untouched), shortest first
    (:func:`~toolsearch.analysis.sessions.with_recorded_lengths`), and follows them until edited."""
    tuned, error = parse_lengths(st.session_state.get("tuning_contexts") or common.TUNING_CONTEXTS_DEFAULT)
    if error or st.session_state.get("tuning_contexts", common.TUNING_CONTEXTS_DEFAULT) == common.TUNING_CONTEXTS_DEFAULT:
        asked = what_if_lengths(sidebar_context)
    else:
        asked = list(dict.fromkeys([*([sidebar_context] if sidebar_context else []), *tuned]))
    default = lengths_text(with_recorded_lengths(asked, sessions))
    # the user's list lives outside the widget too: Streamlit forgets a widget's value on other pages
    kept = st.session_state.get("_sessions_lengths_kept")
    if st.session_state.get("sessions_lengths") in (None, st.session_state.get("_sessions_lengths_default")):
        st.session_state["sessions_lengths"] = kept if kept is not None else default
    st.session_state["_sessions_lengths_default"] = default

    def keep() -> None:
        value = st.session_state["sessions_lengths"]
        st.session_state["_sessions_lengths_kept"] = None if value == st.session_state["_sessions_lengths_default"] else value

    where.text_input("Context lengths to ask about", key="sessions_lengths", on_change=keep,
                     help="Comma-separated (32k, 200k, 1m, unknown). Starts at the context lengths your sessions "
                          "ran at, the sidebar's context length and the lengths on the Tuning page (the common "
                          "32K, 200K and 1M until you edit that list), shortest first, and follows them until you "
                          "edit it.")
    ran_at = with_recorded_lengths([], sessions)
    if ran_at:
        where.caption(f"Your sessions ran at {', '.join(length_label(n) for n in ran_at)}: the list includes those "
                      "lengths, shortest first.")
    lengths, error = parse_lengths(st.session_state["sessions_lengths"])
    if error:
        where.error(common.md_escape(error), icon=":material/warning:")
    repeats = common.context_length_repeats(st.session_state["sessions_lengths"])
    if repeats:  # counted once, as --context-lengths does: said, not dropped silently
        where.caption(common.md_escape(common.visible(repeats)))
    return lengths


def _visible_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """A table of session text with invisible characters made visible (text cells only)."""
    return pd.DataFrame([{k: show_invisible(v) if isinstance(v, str) else v for k, v in row.items()} for row in rows])


#: The page's views, one tab each. Short enough that all of them fit in one row at 1024 px with the
#: sidebar open (tests/test_browser_layout.py): a tab that does not fit hides behind a scroll arrow.
VIEWS = ["Recorded vs replayed", "Failed searches", "Listing what-if", "Per model", "Timeline", "Flags"]
#: The listing what-if tables' context length column: each length as every surface writes it
#: (:func:`~toolsearch.analysis.quantities.length_label`: ``32K``, ``12,345 tokens``, ``unknown``).
CONTEXT_COLUMN = "context length"
#: The per-called-tool what-if's two tables, the same rows in each (session, tool and context
#: length name the row): whether the listing named the tool, and the smallest settings that would.
WHAT_IF_LISTED = ("session", "tool", "server", CONTEXT_COLUMN, "budget (tokens)", "listed", SEARCHES_JUST_BEFORE_COLUMN)
WHAT_IF_SMALLEST = ("session", "tool", CONTEXT_COLUMN, "smallest budget", "threshold_pct", "listing_max_tokens")


def what_if_rows(what_if: Sequence[Any]) -> list[dict[str, Any]]:
    """One row per :class:`~toolsearch.analysis.sessions.ListingWhatIf` with every column of the
    what-if; its two tables show :data:`WHAT_IF_LISTED` and :data:`WHAT_IF_SMALLEST` of them."""
    return [{"session": shown_name(w.session), "tool": shown_name(w.tool), "server": shown_name(w.server),
             CONTEXT_COLUMN: length_label(w.context_length),
             "budget (tokens)": w.budget, "listed": "yes" if w.listed else "no",
             SEARCHES_JUST_BEFORE_COLUMN: w.searches_before, "smallest budget": w.smallest_budget,
             "threshold_pct": w.threshold_pct, "listing_max_tokens": w.listing_max_tokens} for w in what_if]


#: The Recorded vs replayed columns: counts of searches (one per query), the unit in the heading.
EMPTY, FOUND_CALLED, DRIFT = "empty (searches)", "found a called tool (searches)", "drift (searches)"


def variant_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Recorded vs replayed per variant (one row each; ``recorded`` first)."""
    rows = [{"outcome of": "recorded", EMPTY: data["recorded"]["empty"],
             FOUND_CALLED: data["recorded"]["found_called"], DRIFT: None}]
    for name, d in data["replay"].items():
        rows.append({"outcome of": f"replayed: {name}", EMPTY: d["empty"], FOUND_CALLED: d["found_called"],
                     DRIFT: d["drift"]})
    return rows


def _share(rate: float | None) -> str | None:
    return None if rate is None else percent(rate)


#: The per-model columns shown in a second table, after the figures ``toolsearch sessions`` prints.
MODEL_EVENT_COLUMNS = (CONTEXT_LENGTHS_COLUMN, "failed calls", "compactions")


def model_rows(agg: dict[str, Any], reference: str = "reference") -> list[dict[str, Any]]:
    """Aggregates per model. The empty figures are shares of the model's searches (a percentage),
    not the counts the Recorded vs replayed tab calls "empty (searches)"."""
    return [{"model": model, "sessions": f["sessions"], "searches": f["searches"],
             "searches per session": per_count(f["searches_per_session"] or 0),
             "searches empty (recorded, %)": _share(f["recorded_empty_rate"]),
             f"searches empty ({reference}, %)": _share(f["replay_empty_rate"][reference]),
             "round trips per called tool": per_count(f["round_trips_per_called_tool"]),
             CONTEXT_LENGTHS_COLUMN: context_lengths_cell(f["context_lengths"]), "failed calls": f["failed_calls"],
             "compactions": f["compactions"]} for model, f in agg["per_model"].items()]


def timeline_rows(session: Session, rep: Replay) -> list[dict[str, Any]]:
    """One row per event (a search: one row per query) with recorded and replayed matches."""
    queries = {(q.step, q.query): q for q in rep.queries if q.session == session.id}
    rows: list[dict[str, Any]] = []
    for event in session.events:
        d = event_to_dict(event)
        if d["kind"] == "search":
            if not d["queries"]:  # a call with no readable query (the bridge answered with an error, say)
                rows.append({"step": d["step"], "event": f"search ({d['tool']})", "detail": "(no query recorded)",
                             "recorded": f"error: {d['error']}" if d["error"] else "(not recorded)"})
            for record in d["queries"]:
                q = queries.get((d["step"], record["query"]))
                row = {"step": d["step"], "event": f"search ({d['tool']})", "detail": record["query"],
                       "recorded": "(not recorded)" if record["matches"] is None else
                       (", ".join(record["matches"]) or "(empty)")}
                for name, o in (q.replayed.items() if q else ()):
                    row[name] = (", ".join(shown_names(o.matches)) or f"(empty: {o.why})") + (" · drift" if o.drift else "")
                rows.append(row)
        elif d["kind"] == "describe":
            rows.append({"step": d["step"], "event": "describe", "detail": ", ".join(d["names"]),
                         "recorded": ("not found: " + ", ".join(d["not_found"])) if d["not_found"] else "found"})
        elif d["kind"] == "call":
            state = {True: "ok", False: "failed", None: "no result"}[d["succeeded"]]
            rows.append({"step": d["step"], "event": f"call via {d['via']}",
                         "detail": f"{d['name']} {json.dumps(d['arguments'], ensure_ascii=False)}",
                         "recorded": state + (f": {d['error']}" if d["error"] else "")})
        else:
            rows.append({"step": d["step"], "event": "compaction",
                         "detail": f"{d['messages']} messages archived" if d["messages"] else "", "recorded": ""})
    return rows


def render() -> None:
    # The view first: on a fresh server's first request (a deep link to /sessions) Streamlit runs this
    # script without the router, and common.view() then runs the router, which renders this page, and
    # ends the outer run; anything written before it stayed above the page (the title twice).
    v = common.view()
    st.title("Sessions")
    st.caption("What the model actually searched and called in recorded sessions, and what the current settings "
               "and each search variant would have returned. The sessions are replayed against the catalog chosen "
               "in the sidebar; everything stays on this machine.")
    if not common.require_catalog(v):
        return
    assert v.inspector is not None

    col1, col2 = st.columns([2, 3])
    col1.radio("Sessions from", [SAMPLE, UPLOAD, LOCAL], key="sessions_source", horizontal=False)
    kind = st.session_state["sessions_source"]
    if kind == SAMPLE:
        counts = ", ".join(f"{name} ({len(sources.load_path(path).sessions)})" for name, path in sample_files().items())
        col2.selectbox("Sample file", list(sample_files()), key="sessions_sample",
                       help=f"Recorded sessions on the team-workspace catalog, one file per supported format: {counts}. "
                            "state.db was written by Hermes' own session writer.")
    elif kind == UPLOAD:
        col2.file_uploader("Session file", type=sources.UPLOAD_TYPES, key="sessions_upload")
    else:
        sources.local_path_controls(col2, "sessions")
    col3, col4 = st.columns([1, 3])
    col3.selectbox("Format", [AUTO, *FORMATS], key="sessions_format",
                   help="; ".join(f"{k}: {t}" for k, t in FORMAT_HELP.items()))
    col4.multiselect("Search variants to replay (reference is always replayed)", list(DEFAULT_VARIANTS),
                     default=list(DEFAULT_VARIANTS), key="sessions_variants", wrap=True,
                     help="; ".join(f"{k}: {t}" for k, t in VARIANT_HELP.items()))
    col4.caption("Where they come from: " + variant_sources(DEFAULT_VARIANTS) + "; the others are switches of the "
                 "reference.")

    bar = st.empty()
    try:
        loaded, label = _source(bar)
    except ToolsearchError as exc:
        bar.empty()
        sources.show_error(str(exc))
        return
    if loaded is None:
        bar.empty()
        return
    secrets = sources.config_secrets()
    if secrets:  # servers were connected: their config's values are masked in the sessions, as in their output
        loaded = _memo(("scrubbed", hash(tuple(secrets))), v.inspector, loaded,
                       lambda raw=loaded: scrub_sessions(raw, secrets, keep=v.inspector.full_registration.by_name()))
    variants = tuple(st.session_state.get("sessions_variants") or DEFAULT_VARIANTS)
    progress = sources.progress(bar, "Replaying")
    # A replay depends on the settings only through the bridge (defer set and search limits):
    # a slider move does not replay again.
    replay_key = ("replay", v.config.defer, v.config.search_default_limit, v.config.max_search_limit, variants)
    rep = _memo(replay_key, v.inspector, loaded,
                lambda: replay(loaded.sessions, v.inspector, v.config, variants, progress))
    what_if = _memo(("whatif", v.config, v.context_length, v.tokenizer), v.inspector, loaded,
                    lambda: listing_what_if(loaded.sessions, v.inspector, v.config, v.context_length, v.tokenizer))
    flags = _memo(("flags", v.config.defer, v.config.enabled), v.inspector, loaded,
                  lambda: session_flags(loaded.sessions, v.inspector, v.config))
    drift = _memo(("drift",), v.inspector, loaded, lambda: catalog_drift(loaded.sessions, v.inspector))
    bar.empty()
    data = summary(loaded.sessions, rep)
    agg = aggregates(loaded.sessions, rep)

    sources.show_problems(loaded.problems)
    st.text(show_invisible(f"{label}: {counted(data['sessions'], 'session')} on catalog {rep.catalog} "
                           f"({rep.deferred_count:,} deferred tools)"))
    if drift.drifted:
        st.warning(common.md_escape(show_invisible("The sessions ran on another catalog: "
                                                   + drift.words(f"“{rep.catalog}”"))), icon=":material/difference:")
    released = released_hermes_sessions(loaded.sessions)
    if released:
        st.info(common.md_escape(released_hermes_words(released, len(loaded.sessions))), icon=":material/history:")
    flagged = [f for f in flags if f.flagged]
    row = st.container(horizontal=True, gap="medium")  # wraps at narrow widths instead of cutting labels
    row.metric("Sessions", f"{data['sessions']:,}", width="content")
    row.metric("Searches (one per query)", f"{data['searches']:,}", width="content")
    row.metric("Recorded empty", f"{data['recorded']['empty']:,}", width="content")
    row.metric("Recorded found a called tool", f"{data['recorded']['found_called']:,}", width="content")
    row.metric("Flagged sessions", f"{len(flagged):,}", width="content",
               help="Deferred but never searched, or a search repeated after a compaction: see the Flags tab.")
    if not loaded.sessions:
        st.info("No session in this source.")
        return

    # The downloads sit above the views, not in a tab of their own: seven tabs did not fit the page at
    # 1024 px with the sidebar open, and the last one hid behind the tab bar's scroll arrow. Filled
    # after the views: the report holds the what-if at the lengths asked about in one of them.
    downloads = st.container()
    tabs = st.tabs(VIEWS)
    with tabs[0]:
        st.caption("Counts of searches (one per query). empty: no matches · found a called tool: the matches "
                   "contain a tool the session called later · drift: replayed matches differ from the recorded ones "
                   "(the catalog or the engine changed).")
        literal_table(variant_rows(data), key="sessions_variant_table")
    with tabs[1]:
        failed = agg["top_failed"]
        if not failed:
            st.info("No recorded search came back empty.")
        else:
            st.caption("Recorded searches that came back empty, most frequent first, with the gate term that "
                       f"stopped them under the reference search today. {GATE_TERM_WORDS}")
            literal_table(_visible_frame([{"query": f["query"], "times": f["count"], "sessions": f["sessions"],
                                           "gate term": gate_term_text(f["gate_word"], f["gate"]),
                                           "why (reference, now)": f["why"] if f["replay_empty"] else "finds matches now"}
                                          for f in failed]), key="sessions_failed")
            if any(f["replay_empty"] for f in failed):  # still empty today: what would change that
                st.caption(common.md_escape(FAILED_SEARCHES_NEXT_WORDS[0].upper() + FAILED_SEARCHES_NEXT_WORDS[1:] + "."))
        missed = agg["top_missed"]
        if missed:
            st.caption("Recorded searches that found tools, none of which the session called afterwards, while it "
                       "did call other tools afterwards: the search found the wrong tools (or the right one came "
                       "from another search).")
            literal_table(_visible_frame([{"query": m["query"], "times": m["count"], "sessions": m["sessions"],
                                           "called afterwards": ", ".join(m["called"]),
                                           "reference finds one now": "yes" if m["replay_found_called"] else "no"}
                                          for m in missed]), key="sessions_missed")
            st.caption(common.md_escape(MISSED_SEARCHES_NEXT_WORDS[0].upper() + MISSED_SEARCHES_NEXT_WORDS[1:] + "."))
    with tabs[2]:
        st.caption(f"With the sidebar's settings ({settings_words(v.config.threshold_pct, v.config.listing_max_tokens)}), "
                   "at the context lengths you serve: how many of the "
                   "deferred tools the sessions called the listing already names, and the tool_search calls made "
                   "before calling them (searches the listing would have saved).")
        lengths = _lengths_input(v.context_length, st, loaded.sessions)
        at: list = []
        if lengths:
            at = _memo(("at_lengths", v.config, tuple(lengths), v.tokenizer), v.inspector, loaded,
                       lambda: called_listed_at(loaded.sessions, v.inspector, v.config, lengths, v.tokenizer))
            for c in at:
                where = length_label(c.context_length) if c.context_length else "an unknown context length"
                # "deferred": the count leaves out the called tools this catalog does not defer (named below)
                st.text(f"At {where}: the listing names {c.called_listed} of the "
                        f"{counted(c.called_total, 'deferred tool')} your models called; "
                        f"{counted(c.searches_saved, 'search', 'searches')} saved." if c.called_total else
                        f"At {where}: {NO_DEFERRED_CALLED_WORDS}.")
            uncounted = _memo(("not_deferred", v.config), v.inspector, loaded,
                              lambda: uncounted_calls(called_tools(loaded.sessions, v.inspector, v.config)[1],
                                                      v.inspector, v.config))
            # the "of M" counts deferred tools of this session only: outside the scope, or not deferred at all
            for said in uncounted.sentences(also=True):
                st.caption(common.md_escape(show_invisible(f"Not counted: {said}")))
            literal_table([{CONTEXT_COLUMN: length_label(c.context_length),
                            "budget (tokens)": c.budget, "listing": c.short_label,
                            # one column, "listed/called" as every table writes a count out of a total
                            CALLED_LISTED_COLUMN: share_cell(c.called_listed, c.called_total),
                            "searches saved": c.searches_saved} for c in at], key="sessions_at_lengths",
                          nowrap=(CALLED_LISTED_COLUMN,))
            unnamed = called_unnamed_next_words(at)
            if unnamed:  # a count short of its total: where the next step is
                st.info(common.md_escape(unnamed[0].upper() + unnamed[1:] + "."), icon=":material/tune:")
        st.caption("Per called tool, at each session's own recorded context length: was its name already in the listing at the "
                   "session's context length (else the sidebar's) and the sidebar's threshold_pct and "
                   "listing_max_tokens? If so the searches just before its call were avoidable. "
                   f"{SEARCHES_JUST_BEFORE_WORDS[0].upper()}{SEARCHES_JUST_BEFORE_WORDS[1:]}. Smallest settings: the "
                   "smallest budget that lists it, and the threshold_pct (steps of 0.1) and listing_max_tokens "
                   "(steps of 1 token) that reach that budget.")
        if not what_if:
            st.info("No session called a deferred tool of this catalog.")
        else:
            # Two tables of the same rows, each read in full at 1024 px (ten columns in one scrolled
            # sideways): listed or not at the session's settings, then the smallest settings that list it.
            frame = _visible_frame(what_if_rows(what_if))
            literal_table(frame[list(WHAT_IF_LISTED)], key="sessions_whatif")
            st.caption("Smallest settings that list each called tool, at the session's context length:")
            literal_table(frame[list(WHAT_IF_SMALLEST)], key="sessions_whatif_smallest",
                          formats={"threshold_pct": "{:g}"})
    with tabs[3]:
        st.caption("searches empty (%): the share of the model's searches (one per query) that came back with no "
                   "match, as recorded (of those whose result was recorded) and as the reference search replays "
                   "them today · round trips per called tool: tool_search and tool_describe calls per distinct tool "
                   "the model called through tool_call, or directly after its first search.")
        # Two tables of the same rows, each read in full at 1024 px (nine columns in one put the last
        # ones behind a sideways scroll): the figures `toolsearch sessions` prints per model, then the
        # failed calls and compactions.
        per_model = _visible_frame(model_rows(agg))
        literal_table(per_model[[c for c in per_model.columns if c not in MODEL_EVENT_COLUMNS]],
                      key="sessions_models")
        st.caption("Context lengths the sessions recorded, failed tool calls and context compactions per model:")
        literal_table(per_model[["model", *MODEL_EVENT_COLUMNS]], key="sessions_models_events")
    with tabs[4]:
        ids = [s.id for s in loaded.sessions]
        chosen = st.selectbox("Session", ids, key="sessions_pick", format_func=lambda i: show_invisible(shown_name(i)),
                              help=f"Listed {SESSION_ORDER_WORDS}.")
        session = next(s for s in loaded.sessions if s.id == chosen)
        ctx = length_label(session.context_length) if session.context_length else "not recorded"
        st.text(show_invisible(f"model: {session.model or 'not recorded'} · context length: {ctx} · format: {session.format} · "
                f"{counted(session.messages, 'message')} · {counted(session.round_trips, 'round trip')}"
                + (f" · title: {session.title}" if session.title else "")))
        flag = next((f for f in flags if f.session == chosen), None)
        if flag is not None and flag.flagged:
            st.warning(common.md_escape(f"Flagged: {flag.words()}"), icon=":material/flag:")
        if session.counters:
            st.text(counters_line(session.counters))
        rows = timeline_rows(session, rep)
        # One column per replayed variant made a table of 15 columns (a sideways scroll of three pages
        # at 1024 px): the reference is shown, the other variants on request.
        shown = st.multiselect("Replayed searches to show beside the recorded ones", list(rep.variants),
                               default=["reference"], key="sessions_timeline_variants", wrap=True,
                               help="One column each: the matches that variant returns for the recorded query today "
                                    "(· drift where they differ from the recorded ones). All of them compared in "
                                    "counts: the Recorded vs replayed tab.")
        hidden = set(rep.variants) - set(shown)
        rows = [{k: value for k, value in row.items() if k not in hidden} for row in rows]
        if rows:
            literal_table(_visible_frame(rows), key="sessions_timeline")
        else:
            st.info("This session made no tool call.")
    with tabs[5]:
        st.caption("deferred but never searched: the catalog defers tools with these settings and the model called "
                   "tools, but never searched for one · repeated after a compaction: a search after a compaction "
                   "repeats (or nearly repeats) one from before it, so the compaction likely dropped what it found.")
        if not flagged:
            st.info(f"No flagged session among {counted(len(flags), 'session')}.")
        else:
            literal_table(_visible_frame([{
                "session": shown_name(f.session), "flags": f.words(), "compactions": f.compactions,
                "repeated searches": "; ".join(f"#{r.step} {quoted(r.query)} (before: {quoted(r.earlier)})"
                                               for r in f.repeated_after_compaction)} for f in flagged]),
                key="sessions_flags")
            st.caption(common.md_escape(FLAGS_NEXT_WORDS[0].upper() + FLAGS_NEXT_WORDS[1:] + "."))
    with downloads:
        left_out: list[str] = []
        labeled = export_queries(loaded.sessions, v.inspector, name=f"Labeled queries from {label}", left_out=left_out)
        buttons = st.container(horizontal=True, gap="small")  # wraps at narrow widths
        buttons.download_button("Download labeled queries (YAML)", export_queries_yaml(labeled),
                                file_name="session-queries.yaml", mime="application/x-yaml", key="sessions_export",
                                disabled=not labeled["tasks"])
        buttons.download_button("Download the full report (JSON)",
                                json_text(report(loaded.sessions, rep, what_if, loaded.problems, flags=flags,
                                                 drift=drift, at_lengths=at)),  # as sessions --json writes it
                                file_name="sessions-report.json", mime="application/json",
                                key="sessions_report")
        st.caption(f"{counted(len(labeled['tasks']), 'labeled task')}: each recorded search labeled with the tools its session "
                   "called afterwards (searches followed by no call are left out; at most 7 queries per task). "
                   "Score them on the Search quality page or with `toolsearch eval`.")
        if left_out:
            with st.expander(f"Not in the labeled queries ({len(left_out):,})"):
                for note in left_out[:sources.PROBLEMS_SHOWN]:
                    st.warning(common.md_escape(show_invisible(f"Not in the download: {note}")),
                               icon=":material/warning:")
                if len(left_out) > sources.PROBLEMS_SHOWN:
                    st.warning(f"… and {len(left_out) - sources.PROBLEMS_SHOWN:,} more left out of the download",
                               icon=":material/warning:")


render()

"""Search: what tool_search, tool_describe and tool_call return for the current catalog and settings.

Every response shown is the bridge's own output (``to_wire``), byte for byte; the tables beside it
are readable views of the same data. Tool names and descriptions are shown only in code blocks,
plain text and literal-text tables (toolsearch/ui/tables.py; never markdown).
"""

import json
from typing import Any, Callable, Iterable

import streamlit as st

from toolsearch.ui import common
from toolsearch.ui.picker import pick_many, pick_one
from toolsearch.ui.tables import element_key, literal_table
from toolsearch.ui.text import query_heading
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import example_arguments, to_wire
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.invisible import reveal_data
from toolsearch.analysis.quantities import bridge_response_words, gate_term_text
from toolsearch.analysis.wording import COVERAGE_FLOOR_WORDS, GATE_TERM_WORDS
from toolsearch.engine.readers import load_typed_json
from toolsearch.analysis.schema_lint import schema_view
from toolsearch.analysis.variants import (REFERENCE, UNAVAILABLE, VARIANT_HELP, VARIANTS, variant_with_source,
                                          side_by_side, side_by_side_cells, side_by_side_names, variant_sources,
                                          variant_options)

DEFAULT_QUERIES = "create issue\npost message channel\nsearch errors\nzebra"
LONG_JSON = 2_500  # characters: longer responses get a scrolling code block
VIEWS = ["Pretty", "Tree"]
TABS = ["Results", "Describe", "Call validation"]
#: The tool column of a results table is as wide as its longest name up to this many characters
#: (a longer name wraps at its underscores), and at most :data:`NAME_COLUMN_MAX_SHARE` percent of
#: the table, so that on a narrow page the description beside it keeps room; a name then wraps onto
#: two lines rather than four.
NAME_COLUMN_MAX_CHARS = 34
NAME_COLUMN_MAX_SHARE = 28
#: With the descriptions stacked under their matches (a narrow page), the tool column may take this
#: percentage of the table, so that a name up to :data:`NAME_COLUMN_MAX_CHARS` characters keeps one line at 1024 px.
NAME_COLUMN_STACKED_SHARE = 45
#: Wire names are lowercase letters, digits and underscores: 0.9 to 1 ch a character in the
#: app's font, so 1.1 ch a character holds a name on one line.
NAME_CH_PER_CHARACTER = 1.1
#: The results table's long column: on a narrow page (below :data:`toolsearch.ui.tables.STACK_BELOW_PX`)
#: each description is a line of its own under its match, as wide as the table, instead of a fifth of
#: it. Stacking also makes the table a size container, so a cell can size itself by a share of it (``cqw``).
DESCRIPTION_COLUMN = "description (clipped)"


def show_wire(response: dict, display_tokenizer: str, key: str) -> str:
    """One bridge response: its size, the exact bytes (one line, folded) and a readable view
    (pretty-printed JSON or a collapsible tree). Strings are shown literally, invisible characters
    as markers; returns the exact wire text."""
    wire = to_wire(response)
    st.caption(bridge_response_words(response, display_tokenizer))
    with st.expander("Exact bytes (one line, as the model reads them)"):
        st.code(common.visible(wire), language="json", wrap_lines=True,
                height=360 if len(wire) > LONG_JSON else "content")
    mode = st.segmented_control("View", VIEWS, default=VIEWS[0], key=f"{key}_view",
                                help="Pretty: the same JSON indented, one value a line. Tree: a collapsible tree.")
    if mode == "Tree":
        st.json(reveal_data(response), expanded=2)
    else:
        pretty = common.visible_json(response)
        # wrapped: a long value (an error, a description, a hint) reads whole, not cut at the block's edge
        st.code(pretty, language="json", wrap_lines=True, height=480 if pretty.count("\n") > 30 else "content")
    return wire


def name_column_css(names: Iterable[str]) -> Callable[[Any], str]:
    """A ``styles`` entry for :func:`toolsearch.ui.tables.literal_table`: every tool cell asks for the width
    of the longest of ``names`` (at most :data:`NAME_COLUMN_MAX_CHARS` characters), but no more than
    :data:`NAME_COLUMN_MAX_SHARE` percent of the table (``width:min(34.1ch,28cqw)``; the table must be
    a size container: a table with stacked columns is one, :data:`DESCRIPTION_COLUMN`). A cell's width is the column's preferred width:
    the browser gives it when there is room and shrinks the column, down to its longest piece
    between underscores, when there is not."""
    longest = min(max((len(n) for n in names), default=0), NAME_COLUMN_MAX_CHARS)
    css = f"width:min({longest * NAME_CH_PER_CHARACTER:.1f}ch,{NAME_COLUMN_MAX_SHARE}cqw)"
    return lambda _name: css


def results_tracks(names: Iterable[str]) -> str:
    """The results table's columns while its descriptions are stacked (``stack_tracks`` of
    :func:`toolsearch.ui.tables.literal_table`): rank, score, source and required args sized by their
    content, the tool column at least as wide as the longest of ``names`` (up to
    :data:`NAME_COLUMN_MAX_CHARS` characters) or :data:`NAME_COLUMN_STACKED_SHARE` percent of the table."""
    longest = min(max((len(n) for n in names), default=0), NAME_COLUMN_MAX_CHARS)
    return (f"auto minmax(min({longest * NAME_CH_PER_CHARACTER:.1f}ch,{NAME_COLUMN_STACKED_SHARE}cqw),max-content) "
            "auto auto auto")


def score_text(score: float | None) -> str:
    """A BM25 score as the tables show it: three decimals; ``Infinity`` for an exact-name match;
    ``—`` when unknown (a regex scan stopped at its time limit may differ from one run to the next)."""
    return "—" if score is None else "Infinity" if score == float("inf") else f"{score:.3f}"




def score_column(options) -> str:
    """The heading of the results table's score column for a variant's search ``options``: what
    the number is (BM25 for the reference; the regex variant's 2 and 1, the semantic sum, the
    name bonus otherwise)."""
    if options.query_mode == "regex":
        return "score (2 = name match, 1 = text match)"
    if options.ranker == "semantic":
        return "score (cosine + BM25 share)"
    if options.name_coverage_bonus > 0:
        return "score (BM25 + name bonus)"
    return "score (BM25)"


def variant_choice_label(name: str) -> str:
    """How the variant picker shows a variant."""
    if name == REFERENCE:
        return f"{name} · what the model gets"
    source = variant_with_source(name).removeprefix(name)
    return f"{name} · what-if{source}" + (" · not installed" if name in UNAVAILABLE else "")


def show_explanation(ex, key: str, score_heading: str = "score (BM25)") -> None:
    """The full explanation of one query (docs/reference.md §7): tokens, terms, gate, coverage, every candidate.
    ``score_heading`` heads the candidates' score column (:func:`score_column` of the variant).

    Stems and tool names are shown with ``st.text`` and literal-text tables only (never markdown)."""
    st.caption("How the search answers this query (docs/reference.md §7): tokenize and stem, take the rarest stem as the gate "
               "term, require enough of the answerable terms (coverage floor), rank by BM25.")
    st.text(common.visible("Tokens → stems:  " + ("   ".join(f"{raw} → {stem}" for raw, stem in ex.tokens)
                                                  or "(no word tokens: nothing to search)")))
    if ex.ignored:
        st.text("Ignored by this variant:  " + "   ".join(f"{term} ({why})" for term, why in ex.ignored))
    reason = ex.empty_reason()
    if reason:
        st.text(common.visible("Nothing found: " + reason))
    # A wrapping row of content-wide metrics: at 1024 px one moves to the next line instead of
    # cutting its label.
    m1 = m2 = m3 = m4 = st.container(horizontal=True, gap="large")
    m1.metric("Gate term", ex.gate_text, help="The query word whose stem has the highest IDF (rarest in the "
              "catalog), shown as word → stem; documents must contain the stem. Ties go to the first in query "
              "order.", width="content")
    m2.metric("Answerable terms", f"{len(ex.answerable)} of {len(ex.terms)}",
              help="Distinct stems that occur in at least one deferred tool (df > 0).", width="content")
    m3.metric("Required coverage", f"{ex.required} term{'s' if ex.required != 1 else ''}",
              help=f"1 below {C.MIN_ANSWERABLE_TERMS_FOR_COVERAGE} answerable terms, else "
                   f"ceil({C.MIN_QUERY_TERM_COVERAGE} × answerable).", width="content")
    m4.metric("Corpus", f"{ex.corpus_size:,} tools", f"avgdl {ex.avgdl:.1f} tokens", delta_color="off",
              delta_arrow="off", width="content")
    if (ex.gate_required and ex.gate is not None and ex.gate not in ex.answerable and ex.gate.isascii()
            and (ex.gate_word or "").isascii()):
        # ASCII words and stems are [a-z0-9]+ only, so this text cannot carry markdown.
        st.warning(f"The gate term `{ex.gate_text}` occurs in no deferred tool, so nothing is admitted except an "
                   "exact-name match. This is the reference behavior (docs/reference.md §7.4): drop or replace that word.")
    if ex.terms:
        words = {}
        for raw, term in ex.tokens:
            words.setdefault(term, raw.lower())
        literal_table([{
            "term (word → stem)": gate_term_text(words.get(t.stem), t.stem), "df (tools)": t.df, "IDF": t.idf,
            "answerable": t.df > 0, "gate": "◆ gate term" if t.stem == ex.gate else "",
        } for t in ex.terms], key=f"{key}_terms", formats={"IDF": "{:.4f}"})
    if not ex.candidates:
        st.info("No tool shares a stem with this query, and no tool has this exact name.")
        return
    admitted = sum(1 for c in ex.candidates if c.admitted)
    st.caption("Tools that contain any query stem (or match the name exactly), admitted first, best "
               f"score first; at most 200 are listed. Listed: {len(ex.candidates)}, of which {admitted} "
               f"admitted; {len(ex.matches)} returned at limit {ex.limit}. ◆ marks the gate term.")
    # Six columns, so that each is read in full at 1024 px: whether a tool has the gate term shows
    # in its matched terms (◆) and in the reason.
    literal_table([{
        "rank": c.rank, "tool": c.name, score_heading: c.score,
        "matched terms": ", ".join(f"{t} ◆" if t == ex.gate else t for t in c.matched_terms),
        "admitted": "yes" if c.admitted else (f"no: {c.rule}" if c.rule else "no"), "reason": c.reason,
    } for c in ex.candidates], key=f"{key}_candidates", formats={score_heading: score_text})  # rank "—" when not returned


def search_tab(v, bridge, dtk: str) -> None:
    """tool_search: the variant, the queries and limit, then per query why and what it returns."""
    variant = st.selectbox(
        "Search variant", list(VARIANTS), key="search_variant", format_func=variant_choice_label,
        help="reference: the search the model really gets (docs/reference.md §7). Every other variant is a what-if, to see "
             "what a different search would return: " + "; ".join(
                 f"{name}: {text}" for name, text in VARIANT_HELP.items() if name != REFERENCE) + ".")
    if variant in UNAVAILABLE:
        st.error(f"The {variant} variant cannot run here: {UNAVAILABLE[variant]}", icon=":material/error:")
        return
    what_if = variant != REFERENCE
    search_bridge = v.inspector.bridge(v.config, variant_options(variant)) if what_if else bridge
    if what_if:
        st.warning(f"What-if: these results come from the {variant} variant. The model gets the reference "
                   "search; pick reference to see what it receives.", icon=":material/science:")
    q_col, l_col = st.columns([4, 1])
    text = q_col.text_area(
        "Queries (one per line)", DEFAULT_QUERIES, height=185, key="search_queries",
        help=f"Each line is one entry of `queries`; blank lines are dropped as the bridge does. "
             f"At most {C.MAX_QUERIES_PER_CALL} per call. A query equal to a tool's exact name ranks "
             "that tool first. Press Ctrl+Enter or click outside to run.")
    limit = l_col.number_input(
        "limit", min_value=0, max_value=2 * C.MAX_SEARCH_LIMIT_MAX, value=None, step=1, key="search_limit",
        placeholder=f"default ({v.config.search_default_limit})",
        help="Matches per query. Empty: not sent, so the bridge uses search_default_limit. The bridge "
             "clamps any value to [1, max_search_limit].")
    effective = bridge.resolve_limit(limit)
    l_col.caption(f"Effective limit: {effective}")
    arguments = {"queries": text.splitlines()}
    if limit is not None:
        arguments["limit"] = int(limit)
    # Kept per bridge (one per catalog, defer set, search limits and variant): a slider move
    # leaves them as they are, and each explanation walks every tool that shares a query word.
    try:
        common.embed_with_progress(search_bridge.index, variant)  # minutes on a new large catalog
        response = common.memo(search_bridge, ("tool_search", json.dumps(arguments)),
                               lambda: search_bridge.tool_search(arguments), size=32)
    except ToolsearchError as exc:  # e.g. the semantic extra installed but broken
        st.error(f"The {variant} variant cannot run here: {exc}", icon=":material/error:")
        return

    if "error" in response:
        st.subheader("Response (exact JSON)")
        show_wire(response, dtk, "search_response")
        st.warning("tool_search returned an error instead of matches (the `error` above is exactly what the "
                   "model would read). Fix the queries to see results.")
        return
    common.embedding_cache_notice()
    readable, exact, beside = st.tabs(["Matches per query", "What-if response (JSON)" if what_if
                                       else "Response (exact JSON)", "Side by side"])
    with beside:
        names = side_by_side_names(variant)
        sources = variant_sources(names)
        st.caption("The names each search returns for the same queries and limit: the reference (what the model "
                   "gets), the picked variant, and other harnesses' rankers as what-ifs.")
        if sources:  # a line of its own, outside the collapsed help: the column headings are bare names
            st.caption(f"Where they come from: {sources}; the others are switches of the reference.")
        with st.expander("What each column's search does"):
            literal_table([{"search": n, "what it does": VARIANT_HELP[n]} for n in names],
                          key="search_side_by_side_help", nowrap=("search",))
        queries = [g["query"] for g in response["results"]]
        rows = common.memo(bridge, ("side_by_side", variant, json.dumps(queries), effective),
                           lambda: side_by_side(v.inspector, v.config, queries, names, effective), size=32)
        for number, (query, row) in enumerate(zip(queries, rows), 1):
            st.text(query_heading(number, query))
            for name, notes in row.notes.items():
                for note in notes:
                    st.caption(f"{name}: {note}")
            cells = side_by_side_cells(row, names)
            if not cells:
                st.info("No search returns anything for this query.")
                continue
            literal_table([{"rank": r + 1, **dict(zip(names, line))} for r, line in enumerate(cells)],
                          key=f"search_side_by_side_{number}")
    with exact:
        show_wire(response, dtk, "search_response")
    with readable:
        st.caption("Ranked as returned, with each match's score (BM25 for the reference; the column heading says "
                   "what it is for a what-if; higher is better; an exact-name "
                   "match scores Infinity and ranks first). Descriptions are clipped to 500 characters as in "
                   "the response. Under each query: why the result is what it is; open the full "
                   f"explanation below it. {GATE_TERM_WORDS} {COVERAGE_FLOOR_WORDS}")
        for number, group in enumerate(response["results"], 1):
            with st.container(border=True):
                st.text(query_heading(number, group["query"]))
                semantic = search_bridge.index.options.ranker == "semantic"
                # Regex mode: the BM25 explanation does not apply; the scan says what it did (one scan).
                scan = common.memo(search_bridge, ("regex scan", group["query"], effective),
                                   lambda: search_bridge.index.regex_scan(group["query"], effective), size=32) \
                    if search_bridge.index.options.query_mode == "regex" else None
                ex = None if semantic or scan is not None else common.memo(
                    search_bridge, ("explain", group["query"], effective),
                    lambda: search_bridge.index.explain(group["query"], effective), size=32)
                why = st.container(key=f"{common.WHY_KEY}{number}")  # caption style (common.WHY_LINE_CSS)
                if scan is not None:
                    why.text(common.visible_name("Why: " + scan.why()))
                    for note in scan.notes():
                        st.warning(f"Note: {note}", icon=":material/warning:")
                elif semantic and not group["matches"]:  # the cosine and the thresholds, as the CLI's why
                    why.text("Why: nothing returned: " + common.memo(
                         search_bridge, ("semantic shortfall", group["query"], effective),
                         lambda: search_bridge.index.semantic_shortfall(group["query"], effective), size=32))
                elif semantic:
                    why.text("Why: ranked by the cosine between the query's sentence embedding and each tool's, plus "
                             "the variant's share of BM25; the score column shows that sum. Empty when the best "
                             "cosine is below the variant's threshold.")
                else:
                    why.text(common.visible_name("Why: " + ex.summary()))  # one line; it names the best excluded tool
                if group["matches"]:
                    scores = dict(scan.matches) if scan is not None else common.memo(
                        search_bridge, ("scores", group["query"], effective),
                        lambda: dict(search_bridge.index.search(group["query"], effective)), size=32)
                    heading = score_column(search_bridge.index.options)
                    literal_table([{
                        "rank": rank, "tool": name, heading: scores.get(name),
                        "source": response["tools"][name]["source"],
                        "required args": ", ".join(response["tools"][name]["required"]),
                        DESCRIPTION_COLUMN: response["tools"][name]["description"],
                    } for rank, name in enumerate(group["matches"], 1)], key=f"search_results_{number}",
                        formats={heading: score_text}, styles={"tool": name_column_css(group["matches"])},
                        stack=(DESCRIPTION_COLUMN,), stack_tracks=results_tracks(group["matches"]))
                else:
                    st.info("No matches. The model gets the connected sources and a hint instead:")
                    if group.get("available_sources"):
                        sources = group["available_sources"]
                        # tool_count counts the source's deferred tools only, not the visible ones other
                        # pages count under "tools" (core: 1 here, 6 on the Overview).
                        literal_table([{"available source": s["name"], "deferred tools": s["tool_count"]}
                                       for s in sources],
                                      key=f"search_sources_{number}")
                    if group.get("hint"):
                        st.text(f"hint: {group['hint']}")
                if ex is None:
                    continue
                box = st.expander(f"Full explanation of query {number}", key=f"explain_{number}_open",
                                  on_change="rerun")
                if box.open:  # drawn only when opened (a rerun of this fragment alone)
                    with box:
                        show_explanation(ex, f"explain_{number}", score_column(search_bridge.index.options))


def describe_tab(bridge, dtk: str) -> None:
    """tool_describe: chosen deferred tools plus free names, and the bridge's response."""
    names = common.memo(bridge, ("deferred names",), lambda: list(bridge.deferred_by_name))
    d_col, x_col = st.columns([3, 2])
    with d_col:  # above a few thousand tools: a filter box that sends only the matching names
        chosen = pick_many("Deferred tools", names, key="describe_names", owner=bridge, default=names[:1],
                           help=f"At most {C.MAX_DESCRIBE_NAMES_PER_CALL} names per call.")
    extra = x_col.text_input("Other names (comma-separated)", "no_such_tool", key="describe_extra",
                             help="Names that are not deferred tools come back in not_found (or errors).")
    described = [*chosen, *(n for n in extra.split(","))]
    st.caption("Arguments sent (the bridge drops blank names and duplicates):")
    st.code(common.visible(json.dumps({"names": described}, ensure_ascii=False)), language="json", wrap_lines=True)
    d_response = bridge.tool_describe({"names": described})
    if "error" in d_response:
        st.warning("tool_describe returned an error (below): choose at least one name, and at most "
                   f"{C.MAX_DESCRIBE_NAMES_PER_CALL}.")
    elif d_response.get("not_found") or d_response.get("errors"):
        st.caption(f"{len(d_response['tools'])} described · {len(d_response.get('not_found', []))} in "
                   f"not_found · {len(d_response.get('errors', {}))} in errors")
    st.subheader("Response")
    show_wire(d_response, dtk, "describe_response")


def sent_vs_received(inspector, name: str) -> None:
    """The tool's input schema as the server sent it beside what the model receives, and what
    registration lost (nothing for a tool with no sent schema)."""
    view = schema_view(inspector, name) if inspector is not None else None
    if view is None or view.sent is None:
        return
    lost = f" · {len(view.losses)} lost at registration" if view.losses else ""
    with st.expander(f"Input schema: sent by the server vs received by the model{lost}"):
        if view.losses:
            literal_table([{"severity": x.severity, "where": x.path, "lost": x.message, "fix": x.fix}
                           for x in view.losses], key=f"schema_losses:{name}")
        left, right = st.columns(2)
        left.caption("Sent by the server")
        left.code(common.visible_json(view.sent), language="json", wrap_lines=True, height=300)
        right.caption("Received by the model (after registration)")
        right.code(common.visible_json(view.received), language="json", wrap_lines=True, height=300)


def call_tab(bridge, dtk: str, inspector=None) -> None:
    """tool_call: arguments checked against the tool's schema, and the bridge's response."""
    st.caption("Validates the arguments against the tool's schema as the bridge does (docs/reference.md §9). For a file "
               "catalog nothing is run: a valid call returns the `dispatch` that would be sent to the server.")
    names = common.memo(bridge, ("deferred names",), lambda: list(bridge.deferred_by_name))
    name = pick_one("Deferred tool", names, key="call_tool", owner=bridge)
    if name is None:
        return
    tool = bridge.deferred_by_name[name]
    with st.expander("Parameters schema (as registered)"):
        st.code(common.visible_json(tool.parameters), language="json", wrap_lines=True, height=300)
    sent_vs_received(inspector, name)
    example = json.dumps(example_arguments(tool.parameters), ensure_ascii=False, indent=2)
    args_text = st.text_area("Arguments (JSON object)", example, height=160, key=element_key(f"call_args:{name}"),
                             help="Prefilled with the required properties (empty strings, 0, false, [] …). "
                                  "Edit and press Ctrl+Enter.")
    try:
        call_args = load_typed_json(args_text)
    except ValueError as exc:
        st.error(f"The arguments are not valid JSON: {exc}. Nothing was sent to tool_call.", icon=":material/warning:")
        return
    request = {"calls": [{"name": name, "arguments": call_args}]}
    check = bridge.check_call(request)
    c_response = bridge.tool_call(request)
    if "error" in c_response:
        if "path" in c_response:
            st.warning("Validation failed: the model gets the error, the JSON path and the schema "
                       "constraint shown here, plus the tool's parameters and a hint.")
            literal_table([{"path": c_response["path"], "constraint": c_response["constraint"]}], key="call_path")
        else:
            st.warning("tool_call returned an error (shown below).")
    elif "dispatch" in c_response:
        if check.validated:
            st.success("Valid: this is what would be dispatched to the server (its own tool and argument "
                       "names).")
        else:
            st.info(f"Not validated ({check.skipped}); the bridge fails open and would dispatch as shown.")
    st.subheader("Response")
    show_wire(c_response, dtk, "call_response")


@st.fragment
def body(v, bridge) -> None:
    """The three bridge tools in tabs. A fragment: editing queries, names or arguments reruns only
    this part; only the open tab is computed and drawn (and sent to the browser)."""
    results, describe, call = st.tabs(TABS, key="search_tab", on_change="rerun")
    if results.open:
        with results:
            search_tab(v, bridge, v.display_tokenizer)
    if describe.open:
        with describe:
            describe_tab(bridge, v.display_tokenizer)
    if call.open:
        with call:
            call_tab(bridge, v.display_tokenizer, v.inspector)


v = common.view()
st.title("Search")
if common.require_catalog(v):
    with st.spinner("Indexing the deferred tools for search (once per catalog and settings)…", show_time=True):
        bridge = v.inspector.bridge(v.config)
    st.caption(f"The bridge tools over {len(bridge.deferred):,} deferred tools. Search limit: default "
               f"{v.config.search_default_limit}, maximum {v.config.max_search_limit} (sidebar). "
               "Responses are exactly what the model would receive. Results: tool_search; Describe: "
               "tool_describe; Call validation: tool_call.")
    if not v.plan.activated:
        st.info("Tool search is not active at these settings (tier 0), so the model would not get these bridge "
                "tools. The responses below show what they would return.")
    if not bridge.deferred:
        st.info("No deferred tools: tool_search has nothing to search and tool_describe / tool_call have nothing "
                "to resolve. Load a catalog with MCP or plugin servers, or name tools in the defer set.")
    else:
        body(v, bridge)

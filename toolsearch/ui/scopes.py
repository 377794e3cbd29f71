"""Scopes: the catalog's sessions side by side (cost, tier, form) and which scope reaches which server."""

import pandas as pd
import streamlit as st

from toolsearch.ui import common
from toolsearch.ui.picker import pick_one
from toolsearch.ui.tables import literal_table
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.scope_compare import compare_scopes, probe_tool, reach_matrix
from toolsearch.engine.scopes import Scope

#: Up to this many scopes the reach matrix is a literal table with one column per scope.
MATRIX_COLUMNS = 12
#: The per-scope tools array column: the same quantity, under the same name, as on the Overview.
TOOLS_COLUMN = f"{Q.TOOLS_ARRAY.name.lower()} (tokens)"

v = common.view()
st.title("Scopes")
st.caption("A subagent, a background worker or a gateway platform that enables only some servers sees only their "
           "tools: its listing, its budget use and its searches are built from its own tool list, and a tool "
           "outside it can be neither found nor called through the bridge tools. Define scopes in the sidebar "
           "(Session scope → Edit scopes), or load a scope file or a Hermes config.yaml there.")
if common.require_catalog(v):
    root = v.inspector.scoped(None)
    scopes = common.app_scopes()
    if not scopes:
        st.info("No scopes yet. In the sidebar, open Session scope → Edit scopes, give a name, pick servers and press "
                "Save scope; or load a scope file.")
        if st.button("Add one scope per server", key="scopes_per_server",
                     help="A quick start: one scope named after each server, reaching only that server."):
            for server in sorted(s.name for s in root.catalog.servers):
                common.put_scope(Scope(server, (server,), origin="one scope per server"))
            st.rerun()
    else:
        sessions: list[Scope | None] = [None, *scopes]
        rows = compare_scopes(root, sessions, v.config, v.context_length, v.tokenizer, v.display_tokenizer)
        st.subheader("Side by side")
        st.text(common.visible_name(f"Catalog: {root.catalog.name} · context length "
                                   f"{f'{v.context_length:,}' if v.context_length else 'unknown'} · tokens in {v.display_tokenizer}"
                                   + (f" (budget and listing in {v.tokenizer}, the planning tokenizer)"
                                      if v.tokenizer != v.display_tokenizer else "")))
        table = pd.DataFrame([{
            "scope": common.visible(row.scope or common.WHOLE_CATALOG), "tier": row.tier, "form": row.short_label,
            TOOLS_COLUMN: row.tokens_per_request,
            "% of context": Q.context_share(row.tokens_per_request, v.context_length) or "—",
            "tools reachable": f"{row.session_tools} of {row.catalog_tools}",
            "budget (tokens)": row.budget, "listing (tokens)": row.listing_tokens,
            "deferred": row.deferred, "visible": row.visible, f"{Q.ALL_SCHEMAS.name.lower()} (tokens)": row.eager_tokens,
            "servers reached": ", ".join(row.servers) or "—",
        } for row in rows])
        literal_table(table, key="scopes_compare", styles={"form": common.STATE_STYLES["state"]}, nowrap=("form",))
        st.caption(f"{Q.TOOLS_ARRAY.name}: the model-visible tools array of that session (visible tools plus the "
                   "bridge tools with its listing), sent with every request. The budget is the same for every "
                   "session; what fits in it is not.")
        st.bar_chart(table.set_index("scope")[[TOOLS_COLUMN]], horizontal=True, height=60 + 40 * len(rows),
                     x_label="", y_label=f"{Q.TOOLS_ARRAY.name.lower()} ({v.display_tokenizer})")

        st.subheader("Which scope can reach which server")
        matrix = reach_matrix(root, scopes)
        servers = list(next(iter(matrix.values())))

        def reach_text(n: int, total: int) -> str:
            return "—" if n == 0 else f"{n}/{total}" if n < total else "all"

        def shade(value) -> str:
            state = "full" if value == "all" else "hidden" if value == "—" else "summary"
            return common.STATE_STYLES["state"](state)
        if len(scopes) <= MATRIX_COLUMNS:
            # One row per server, one column per scope: a catalog has far more servers than a
            # deployment has scopes, and rows can scroll and page where columns cannot.
            cells = [{"server": server, **{name: reach_text(*reach[server]) for name, reach in matrix.items()}}
                     for server in servers]
            literal_table(cells, key="scopes_matrix", styles={name: shade for name in matrix},
                          nowrap=tuple(matrix))
        else:  # more scopes than columns fit across the page: a grid that scrolls sideways
            # A canvas grid shows text as it is: names with invisible characters get their markers here.
            cells = pd.DataFrame([{"scope": common.visible(name),
                                   **{common.visible(server): reach_text(n, total) for server, (n, total) in reach.items()}}
                                  for name, reach in matrix.items()])
            st.dataframe(cells.style.map(shade, subset=[common.visible(s) for s in servers]), hide_index=True,
                         width="stretch", key="scopes_matrix")
        st.caption("all: every tool of the server is in the session · n/m: tool patterns keep n of its m tools · "
                   "—: the session cannot reach the server (searches never return its tools; a call gets "
                   "'not available in this session').")

        st.subheader("Can a session reach this tool?")
        names = common.memo(root.planner, ("tool names",), lambda: [t.name for t in root.registration.tools])
        first_deferrable = next((i for i, t in enumerate(root.registration.tools) if t.kind in ("mcp", "plugin")), 0)
        chosen = pick_one("Tool", names, index=first_deferrable, key="scopes_probe_tool", owner=root.planner,
                          help="Exact-name search, tool_describe and tool_call for this name in every session.")
        if chosen:
            probes = probe_tool(root, sessions, chosen, v.config)
            literal_table([{
                "scope": p.scope or common.WHOLE_CATALOG, "in the session": "yes" if p.in_session else "no",
                "tool_search finds it by name": "yes" if p.found_by_name else "no",
                "tool_describe": p.describe, "tool_call": p.call,
            } for p in probes], key="scopes_probe")

        with st.expander("Scope definitions"):
            literal_table([{"scope": s.name, "definition": s.describe().split(": ", 1)[1],
                            "command line": s.to_arg() or "(Hermes platform rule)",
                            "from": s.origin} for s in scopes], key="scopes_definitions")

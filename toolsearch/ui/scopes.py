"""Scopes: the catalog's sessions side by side (cost, tier, form) and which scope reaches which server."""

from pathlib import Path

import pandas as pd
import streamlit as st

from toolsearch.ui import common
from toolsearch.ui.picker import pick_one
from toolsearch.ui.tables import literal_table
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.scope_compare import compare_scopes, probe_tool, reach_matrix
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes
from toolsearch.engine.scopes import Scope, scopes_from_text

#: Up to this many scopes the reach matrix is a literal table with one column per scope.
MATRIX_COLUMNS = 12
#: The per-scope tools array column: the same quantity, under the same name, as on the Overview.
TOOLS_COLUMN = f"{Q.TOOLS_ARRAY.name.lower()} (tokens)"
#: The side-by-side columns shown in their own table, after what each scope sends.
REACH_COLUMNS = ("tools reachable", "deferred", "visible", "servers reached")



def sample_scope_files() -> dict[str, Path]:
    """The shipped sample scope files (``sample_catalogs/scopes/*.yaml``) by file name; none when the
    folder is missing (a trimmed install)."""
    folder = common.SAMPLES_DIR / "scopes"
    return {path.name: path for path in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}


def load_sample_scopes(path: Path) -> None:
    """Define the scopes of the sample scope file ``path`` (as the sidebar's upload does, by the same
    reader); what it cannot use is kept as notes the sidebar shows."""
    try:
        loaded, problems = scopes_from_text(decode_bytes(path.read_bytes(), path.name), path.name)
    except ToolsearchError as exc:
        st.session_state["scope_upload_notes"] = [f"{path.name}: {exc}"]
        return
    for scope in loaded:
        common.put_scope(scope)
    st.session_state["scope_upload_notes"] = [str(p) for p in problems]


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
        samples = sample_scope_files()
        if samples:  # a quick start, as other pages offer their samples: the sample catalog's own scopes first
            catalog_name = str(st.session_state.get("catalog", ""))
            names = sorted(samples, key=lambda name: (name != f"{catalog_name}.yaml", name))
            picked = st.selectbox("Sample scope file", names, key="scopes_sample_file",
                                  help="Scope files shipped with toolsearch (sample_catalogs/scopes), each written "
                                       "for the sample catalog of the same name.")
            if st.button("Load the sample scopes", key="scopes_load_sample", type="primary",
                         icon=":material/upload_file:"):
                load_sample_scopes(samples[picked])
                st.rerun()
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
                                   f"{Q.length_label(v.context_length)} · tokens in {v.display_tokenizer}"
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
        # Two tables of the same rows, each read in full at 1024 px (twelve columns in one scrolled
        # sideways): what each scope sends, then what it reaches.
        literal_table(table[[c for c in table.columns if c not in REACH_COLUMNS]], key="scopes_compare",
                      styles={"form": common.STATE_STYLES["state"]}, nowrap=("form",))
        st.caption(f"{Q.TOOLS_ARRAY.name}: the model-visible tools array of that session (visible tools plus the "
                   "bridge tools with its listing), sent with every request. The budget is the same for every "
                   "session; what fits in it is not.")
        # In the table's order (the whole catalog first, then the scopes as defined), not alphabetical.
        st.bar_chart(table.set_index("scope")[[TOOLS_COLUMN]], horizontal=True, height=60 + 40 * len(rows),
                     x_label="", y_label=f"{Q.TOOLS_ARRAY.name.lower()} ({v.display_tokenizer})", sort=False)
        st.caption("What each scope reaches: its tools of the catalog's, deferred and visible, and its servers.")
        literal_table(table[["scope", *REACH_COLUMNS]], key="scopes_reach")

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

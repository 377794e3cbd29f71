"""Session scopes in the sidebar: the scope picker and the scope editor (define, load, remove,
upload and download scopes for this browser session)."""

from __future__ import annotations

import hashlib

import streamlit as st

from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes
from toolsearch.engine.scopes import (Scope, ScopeError, dump_scopes, parse_scope_arg, scope_from_mapping, scopes_from_text,
                                      unmatched_server_notes)
from toolsearch.ui.text import link_ignored_words, md_escape, visible, visible_name
from toolsearch.ui.sources import TEXT_UPLOAD_MB

WHOLE_CATALOG = "Whole catalog"


def app_scopes() -> list[Scope]:
    """The scopes defined in this browser session, in order."""
    return list(st.session_state.get("scopes", []))


def put_scope(scope: Scope) -> None:
    """Add a scope to this browser session's scopes, replacing one of the same name."""
    scopes = [s for s in app_scopes() if s.name != scope.name]
    st.session_state["scopes"] = [*scopes, scope]


def selected_scope() -> Scope | None:
    """The scope picked in the sidebar (``None`` = the whole catalog), without drawing the picker."""
    chosen = st.session_state.get("scope_choice", WHOLE_CATALOG)
    return next((s for s in app_scopes() if s.name == chosen), None)


def _selected_scope_arg() -> str | None:
    """The selected scope in ``--scope`` syntax, for the URL (a link then reproduces it)."""
    chosen = st.session_state.get("scope_choice", WHOLE_CATALOG)
    scope = next((s for s in app_scopes() if s.name == chosen), None)
    return scope.to_arg() if scope is not None else None


def _save_scope_from_editor() -> None:
    """Button callback: the editor's fields become a scope (replacing one of the same name)."""
    state = st.session_state

    def patterns(key: str) -> list[str]:
        return [p.strip() for p in str(state.get(key) or "").split(",") if p.strip()]
    include = patterns("scope_edit_include")
    data = {"servers": list(state.get("scope_edit_servers") or []), "exclude": patterns("scope_edit_exclude"),
            "include": include or None}
    try:
        scope = scope_from_mapping(state.get("scope_edit_name"), data, "scope editor")
    except ScopeError as exc:
        state["scope_editor_error"] = str(exc)
        return
    state.pop("scope_editor_error", None)
    put_scope(scope)
    state["scope_choice"] = scope.name


def _load_scope_into_editor() -> None:
    """Button callback: the selected scope's definition fills the editor's fields."""
    state = st.session_state
    scope = next((s for s in app_scopes() if s.name == state.get("scope_choice")), None)
    if scope is None:
        return
    state["scope_edit_name"] = scope.name
    state["scope_edit_servers"] = [s for s in (scope.servers or ()) if s in state.get("_scope_server_options", ())]
    state["scope_edit_include"] = ", ".join(scope.include or ())
    state["scope_edit_exclude"] = ", ".join(scope.exclude)


def _remove_scope() -> None:
    name = st.session_state.get("scope_remove")
    st.session_state["scopes"] = [s for s in app_scopes() if s.name != name]
    if st.session_state.get("scope_choice") == name:
        st.session_state["scope_choice"] = WHOLE_CATALOG


def _scope_from_link(text: str) -> None:
    """Define and select the scope a link's ``scope=`` value defines (``NAME=SERVER,SERVER[;include=
    P,P][;exclude=P,P]``, as the command line's ``--scope``), or leave a notice that names the value
    as given (invisible characters shown, cut when long), why it cannot be used and what the key
    takes, in the words of the other link notices; the whole catalog is then shown."""

    state = st.session_state
    try:
        scope = parse_scope_arg(text, where="scope")
    except ScopeError as exc:
        why = f"{exc}."  # "scope: expected NAME=SERVER,SERVER (e.g. support=slack,linear)."
    else:
        if len(scope.name) <= C.LINK_NAME_MAX_CHARS:
            put_scope(scope)
            state["scope_choice"] = scope.name
            return
        # the name becomes the picker's selected label: a crafted link must not choose its words
        why = (f"scope: expected a scope name of at most {C.LINK_NAME_MAX_CHARS} characters before the =, got one "
               f"of {len(scope.name):,}.")
    state.setdefault("_link_notices", []).append(
        (link_ignored_words([("scope", text, why)], instead="the whole catalog is shown"), False))


#: The most server names a note about a scope's unknown server lists.
SERVERS_NAMED = 10


def _servers_words(servers: list[str]) -> str:
    """``"The catalog's servers: github, linear and slack."``: what a scope's server entry is
    expected to name (at most :data:`SERVERS_NAMED` names, invisible characters shown)."""
    if not servers:
        return "The catalog has no servers."
    named = [visible_name(name) for name in servers[:SERVERS_NAMED]]
    if len(servers) > SERVERS_NAMED:
        named.append(f"{len(servers) - SERVERS_NAMED:,} more")
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"The catalog's {'server' if len(servers) == 1 else 'servers'}: {listed}."


#: The "Edit scopes" expander's key (open or folded), and the editor's fields.
SCOPE_EDITOR = "scope_editor_open"
SCOPE_EDITOR_KEYS = ("scope_edit_name", "scope_edit_servers", "scope_edit_include", "scope_edit_exclude")


def _scope_sidebar(sb, catalog: Catalog | None) -> Scope | None:
    """The "Session scope" sidebar section: pick a scope, define or load scopes. Returns the
    selected scope (``None`` = the whole catalog)."""
    state = st.session_state
    if not state.get("_scope_initialised"):
        state["_scope_initialised"] = True
        text = st.query_params.get("scope")
        if text:  # a link only defines and selects a scope; it loads nothing else
            _scope_from_link(text)
    names = [s.name for s in app_scopes()]
    if state.get("scope_choice") not in (WHOLE_CATALOG, *names):
        state["scope_choice"] = WHOLE_CATALOG
    sb.header("Session scope")
    sb.selectbox("Scope", [WHOLE_CATALOG, *names], key="scope_choice", format_func=visible,
                 help="What one session sees: a subagent, a worker or a gateway platform that enables only some "
                      "servers. Every page then plans, searches, describes and calls as that session; tools outside "
                      "it are not found, and calling one gives the reference's 'not available in this session' error.")
    servers = sorted(s.name for s in catalog.servers) if catalog is not None else []
    state["_scope_server_options"] = servers
    chosen = next((s for s in app_scopes() if s.name == state["scope_choice"]), None)
    if chosen is not None and catalog is not None:  # a scope from a link or a file may name servers of another catalog
        notes = [note if note.endswith("?") else note + "."
                 for note in unmatched_server_notes(chosen, {s.name: s.kind for s in catalog.servers},
                                                   most=C.LINK_NAMES_MAX, name_chars=C.LINK_NAME_MAX_CHARS)]
        if notes:
            sb.warning(md_escape(" ".join([*notes, _servers_words(servers)])), icon=":material/warning:")
    for key in SCOPE_EDITOR_KEYS:  # kept while the editor is folded (its widgets are not drawn then)
        if key in state:
            state[key] = state[key]
    if state.get("scope_edit_servers"):  # servers of another catalog are not options here
        state["scope_edit_servers"] = [s for s in state["scope_edit_servers"] if s in servers]
    editor = sb.expander("Edit scopes", expanded=False, key=SCOPE_EDITOR, on_change="rerun")
    if not editor.open:  # drawn only when open: nine widgets fewer to send and draw on every run
        return next((s for s in app_scopes() if s.name == state["scope_choice"]), None)
    with editor:
        if state["scope_choice"] != WHOLE_CATALOG:
            st.button("Edit the selected scope", key="scope_load", on_click=_load_scope_into_editor,
                      help="Fill the fields below with the selected scope; save under the same name to replace it.")
        st.text_input("Name", key="scope_edit_name", placeholder="support")
        st.multiselect("Servers", servers, key="scope_edit_servers", format_func=visible)
        st.text_input("Only these tools (patterns, comma-separated)", key="scope_edit_include",
                      help="Optional whitelist: exact names or globs (* ? [..]) matched against the wire name "
                           "(mcp__slack__post_message) or the server's own name (post_message). When given, "
                           "the exclusions below are ignored.")
        st.text_input("Leave out tools (patterns, comma-separated)", key="scope_edit_exclude", placeholder="delete_*")
        st.button("Save scope", key="scope_save", on_click=_save_scope_from_editor, width="stretch")
        if state.get("scope_editor_error"):
            st.error(md_escape(state["scope_editor_error"]), icon=":material/warning:")
        upload = st.file_uploader("Load scopes (scope file or Hermes config.yaml)", max_upload_size=TEXT_UPLOAD_MB, type=["yaml", "yml"],
                                  key="scope_upload",
                                  help="A YAML file with a 'scopes' mapping, or a Hermes config.yaml: each "
                                       "platform_toolsets entry becomes one scope.")
        if upload is not None:
            digest = hashlib.sha256(upload.getvalue()).hexdigest()
            if state.get("_scope_upload_digest") != digest:  # apply each file once
                state["_scope_upload_digest"] = digest
                try:
                    loaded, problems = scopes_from_text(decode_bytes(upload.getvalue(), upload.name), upload.name)
                    for scope in loaded:
                        put_scope(scope)
                    state["scope_upload_notes"] = [str(p) for p in problems]
                except ToolsearchError as exc:  # a scope problem, a bad byte or a size limit
                    message = str(exc)  # it names the file, and the place in it
                    state["scope_upload_notes"] = [message if message.startswith(upload.name)
                                                   else f"{upload.name}: {message}"]
                st.rerun()
        for note in state.get("scope_upload_notes", []):
            st.warning(md_escape(note), icon=":material/warning:")
        if names:
            st.selectbox("Remove a scope", names, key="scope_remove", format_func=visible)
            st.button("Remove", key="scope_remove_button", on_click=_remove_scope)
            st.download_button("Download scopes (YAML)", dump_scopes(app_scopes(), {s.name: s.kind for s in catalog.servers} if catalog is not None else None),
                               file_name="scopes.yaml",
                               mime="application/x-yaml", key="scope_download")
    return next((s for s in app_scopes() if s.name == state["scope_choice"]), None)

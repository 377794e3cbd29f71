"""Live servers: connect your own MCP servers, see their tools, call one, save a snapshot.

Servers start only after **Connect** (or **Call**) and then **Start** on the confirmation that
shows the exact command line, working directory and env keys: never on page load, a link, an
upload or a rerun. A browser that is not on this machine also needs the launch token printed in
the app's terminal (:mod:`toolsearch.live.guard`).
After Start, each server's session stays open (:class:`toolsearch.live.client.LiveConnections`: an event
loop on a background thread), so a Call goes over it and starts nothing. **Disconnect**, a new
Connect, a minute after the browser session ends (tab closed; a watchdog asks Streamlit's runtime),
sessions left unused for the idle time set on the page (default
:data:`~toolsearch.engine.constants.LIVE_IDLE_MINUTES_DEFAULT` minutes; the page says so when the
user comes back and offers Reconnect, which goes through the same confirmation) or the app
stopping closes them (stdio children are stopped). A call whose
session has ended (the server exited, or after Disconnect) starts its server again, behind the
same confirmation. Env values and header values are kept in this session only and are shown as
••••.
"""

from __future__ import annotations

import json

import streamlit as st

from toolsearch.ui import common, schema_form
from toolsearch.engine.invisible import json_text, yaml_kind
from toolsearch.ui.tables import SCROLL_HEIGHT, SCROLL_ROWS, literal_table, table_html
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.config import parse_config
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes, load_typed_json
from toolsearch.live.guard import token_matches
from toolsearch.live.proxies import proxy_line
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.wording import counted
from toolsearch.engine.inspector import Inspector
from toolsearch.live.client import LiveConnections, LiveDispatcher, catalog_key, dump_snapshot, is_connect_failure, unique_names
from toolsearch.live.mcpconfig import parse_config_text, spec_from_fields
from toolsearch.ui.sources import LIVE_SPECS, TEXT_UPLOAD_MB

FORM_SPECS = "live_form_specs"      # list[ServerSpec] added with the form
CATALOG = "live_catalog"            # toolsearch Catalog of the last connect (read by the sidebar)
CATALOG_KEY = "live_catalog_key"    # its content key (toolsearch.live.client.catalog_key), for caches
RESULT = "live_result"              # LiveResult of the last connect
SPECS = LIVE_SPECS                  # {server name: ServerSpec} that were connected (for calls)
LAST_CALL = "live_last_call"        # what the last "Call" showed
PENDING = "live_pending"            # a launch waiting for confirmation: {"action", "specs", ...}
CONNECTIONS = "live_connections"    # LiveConnections holding the sessions of the last connect open
SUMMARY = "live_summary"            # {"label", "state"} of the last connect, shown on every run
LAUNCH = "live_launch"              # {"specs", "timeout", "upload"} of the last connect (for Reconnect)
IDLE = "live_idle_minutes"          # minutes an open session may go unused before it is closed
FIELD_ERRORS = "live_field_errors"  # {"tool", "errors": {field: message}, "general": str | None}
FORM_LAST = "live_form_last"        # {"tool", "prefix", "parameters", "arguments"} of the last form run
STATE_ICONS = {"pending": "…", "connecting": "→", "listing": "≡", "ok": "✓", "failed": "✗", "skipped": "–"}
TRANSPORT_LABELS = {"stdio": "stdio (command)", "http": "Streamable HTTP (URL)", "sse": "SSE (URL)"}


def _lines(text: str, separator: str) -> dict[str, str]:
    """``KEY=VALUE`` (or ``Name: value``) lines → dict; blank lines and ``#`` comments skipped."""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, found, value = line.partition(separator)
        if not found or not key.strip():
            raise ValueError(f"expected 'NAME{separator}value', got a line without {separator!r}")
        out[key.strip()] = value.strip()
    return out


def _add_server() -> None:
    """Form callback: build a spec from the fields, then clear the secret fields."""
    s = st.session_state
    transport = s.get("live_transport", "stdio")
    try:
        if transport == "stdio":
            spec = spec_from_fields(s.get("live_name", ""), command=s.get("live_command", "").strip() or None,
                                    args=s.get("live_args", ""), env=_lines(s.get("live_env", ""), "="),
                                    cwd=s.get("live_cwd", "").strip() or None)
        else:
            spec = spec_from_fields(s.get("live_name", ""), url=s.get("live_url", "").strip() or None,
                                    headers=_lines(s.get("live_headers", ""), ":"), transport=transport)
    except (ToolsearchError, ValueError) as exc:
        s["live_form_error"] = str(exc)
        return
    s["live_form_error"] = None
    s[FORM_SPECS] = [*(x for x in s.get(FORM_SPECS, []) if x.name != spec.name), spec]
    for key in ("live_name", "live_command", "live_args", "live_env", "live_cwd", "live_url", "live_headers"):
        s[key] = ""


def _spec_rows(specs, source: str, show_unset: bool = True) -> list[dict]:
    """One row per spec, secrets masked. ``show_unset``: include the "unset variables" column
    (it tells which variables this app's process has, so only for a browser allowed to know)."""
    rows = []
    for spec in specs:
        shown = spec.redacted()
        target = shown.get("url") if spec.transport != "stdio" else shown.get("command")
        secrets = shown.get("env") or shown.get("headers") or {}
        rows.append({
            "source": source, "server": spec.name, "transport": spec.transport, "command or URL": target,
            "args": " ".join(shown.get("args", [])),
            "env / headers": ", ".join(f"{k}={v}" for k, v in secrets.items()),
            "enabled": spec.enabled, "unset variables": ", ".join(spec.unresolved),
            "problem": spec.scrub(spec.invalid) if spec.invalid else "",  # fails on Connect; the others still run
        })
        if not show_unset:
            del rows[-1]["unset variables"]
    return rows


def _status_rows(statuses) -> list[dict]:
    return [{
        "": STATE_ICONS.get(s.state, ""), "server": s.name, "state": s.state, "tools": s.tool_count,
        "pages": s.pages, "seconds": round(s.elapsed, 2) if s.done else None,
        "server info": " ".join(str(x) for x in ((s.info or {}).get("name"), (s.info or {}).get("version")) if x),
        "protocol": (s.info or {}).get("protocolVersion", ""),
        "reason / flags": s.reason or "; ".join(s.flags),
    } for s in statuses]


#: The status table's seconds, as measured (two decimals).
STATUS_FORMATS = {"seconds": "{:.2f}"}


def _client_check():
    """Whether this browser is on this machine (:func:`toolsearch.ui.common.client_check`)."""
    return common.client_check()


def _may_see_environment(check=None) -> bool:
    """Whether this browser may learn which environment variables the app's process has (which
    ``${VAR}`` references are set): a browser on this machine, or one whose launch token field
    holds the token printed in the app's terminal."""
    check = check or _client_check()
    return check.local or any(token_matches(st.session_state.get(f"live_token_{action}"))
                              for action in ("connect", "call"))


def _confirm_launch(action: str) -> bool:
    """Show the pending launch (exact command line, working directory, env keys with values
    masked; URLs redacted) with one Start button. True only in the run where Start was pressed
    and the launch is allowed; the pending launch is then consumed, so a rerun starts nothing."""
    pending = st.session_state.get(PENDING)
    if not pending or pending["action"] != action:
        return False
    specs = [spec for spec in pending["specs"] if spec.enabled and not spec.invalid]  # the others start nothing
    verb = "start or reach" if action == "connect" else "start"
    check = _client_check()
    # Set variables show as ••••, unset ones as written: for a browser elsewhere without the token,
    # everything as written, so the confirmation does not tell which variables are set.
    expanded = _may_see_environment(check)
    with st.container(border=True, key=f"live_confirm_{action}"):
        st.markdown(f"**Confirm: {verb} {counted(len(specs), 'server')}"
                    + (f" to call {common.md_escape(common.visible(pending['tool']))}**" if action == "call" else "**"))
        for spec in specs:
            # Config text is untrusted too: invisible characters (a bidi override can make a
            # command read differently) are shown as markers, and a line break in a one-line
            # field too (a name or a working directory could otherwise print a line of its own,
            # "environment added: none", above the real one).
            preview = spec.launch_preview(expanded=expanded)
            st.text(common.visible_name(f"{spec.name} ({preview['transport']})"))
            for warning in preview["warnings"]:  # a URL whose host a Node program reads differently from the one shown
                st.warning(common.md_escape(common.visible_name(warning)), icon=":material/warning:")
            if preview["transport"] == "stdio":
                st.code(common.visible(preview["command_line"]), language="bash", wrap_lines=True)
                st.text(common.visible_name(f"working directory: {preview['cwd'] or 'the app’s working directory'}"))
                env = preview["env"]
                st.text(common.visible_name("environment added: " + (", ".join(f"{k}={v}" for k, v in env.items())
                                                                     if env else "none")))
            else:
                st.code(common.visible(preview["url"]), language=None, wrap_lines=True)
                headers = preview["headers"]
                st.text(common.visible_name("headers: " + (", ".join(f"{k}: {v}" for k, v in headers.items())
                                                           if headers else "none")))
                if expanded:  # which proxy variables are set is the environment's: said only to whom may see it
                    st.text(common.visible_name("proxy: " + proxy_line(spec.url)))
        skipped = len(pending["specs"]) - len(specs)
        if skipped:
            st.caption(f"{skipped} more {'server is' if skipped == 1 else 'servers are'} disabled or have a bad entry: "
                       "nothing is started for them.")
        if not check.local:
            st.warning("This browser is not on the machine that runs the app ("
                       + common.md_escape(check.reason) + "). Enter the launch token printed in the app's "
                       "terminal to start servers from here.", icon=":material/lock:")
            st.text_input("Launch token", type="password", key=f"live_token_{action}")
        left, right = st.columns(2)
        start = left.button("Start", type="primary", key=f"live_start_{action}")
        if right.button("Cancel", key=f"live_cancel_{action}"):
            st.session_state.pop(PENDING, None)
            st.rerun()
        if not start:
            return False
        if not check.local and not token_matches(st.session_state.get(f"live_token_{action}")):
            st.error("Refused: nothing was started. A browser that is not on this machine needs the launch "
                     "token printed in the app's terminal.", icon=":material/block:")
            return False
    st.session_state.pop(PENDING, None)
    return True


def _session_alive():
    """A check that this browser session is still connected to the app (for the watchdog that
    closes the open sessions after the tab is gone), or ``None`` where Streamlit's runtime is not
    running (tests)."""
    try:
        from streamlit import runtime  # noqa: PLC0415
        from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: PLC0415

        ctx = get_script_run_ctx()
        if ctx is None or not runtime.exists():
            return None
        instance, session_id = runtime.get_instance(), ctx.session_id
    except Exception:  # noqa: BLE001 - an internal API changed: rely on garbage collection
        return None
    return lambda: instance.is_active_session(session_id)


def _reconnect_button() -> None:
    """Reconnect: the last connect's servers again, behind the same launch confirmation (this
    button only asks; nothing starts before Start)."""
    launch = st.session_state.get(LAUNCH)
    if launch and st.button("Reconnect", key="live_reconnect", icon=":material/refresh:",
                            help="Shows the launch confirmation again; the servers start only on Start."):
        st.session_state[PENDING] = {"action": "connect", **launch}
        st.rerun()


def _idle_minutes(connections) -> str:
    return f"{(connections.idle_timeout or 0) / 60:g}"


def _connection_line() -> None:
    """Which sessions are open (calls reuse them), with Disconnect; or that they were closed
    (after Disconnect or for being unused too long, with Reconnect)."""
    connections = st.session_state.get(CONNECTIONS)
    if connections is None:
        return
    if connections.closed and connections.close_reason == "idle":
        st.warning(f"The sessions were closed after {_idle_minutes(connections)} minutes without use, and the "
                   "servers were stopped. The tools stay listed here. Reconnect shows the launch confirmation "
                   "again; a call starts its server for that call only, after the confirmation.",
                   icon=":material/timer_off:")
        _reconnect_button()
        return
    open_names = connections.open_servers
    if open_names:
        left, right = st.columns([4, 1], vertical_alignment="center")
        left.caption("Open sessions: " + ", ".join(common.md_escape(common.visible(n)) for n in open_names)
                     + ". Calls go over them; nothing is started again. Disconnect stops the servers.")
        if right.button("Disconnect", key="live_disconnect", icon=":material/link_off:"):
            connections.close()
            st.rerun()
    elif connections.closed:
        st.caption("Disconnected: the servers were stopped. The tools stay listed here; a call starts its "
                   "server again after the confirmation.")
        _reconnect_button()
    else:
        st.caption("No session is open any more (the servers exited or closed the connection). A call starts "
                   "its server again after the confirmation.")


#: Characters of a schema or a response shown in one code block. Past it the block is cut and the
#: whole JSON is offered as a download: a block of megabytes (a 200,000-value enum, a 30 MB result)
#: is sent and drawn again on every rerun, and made each interaction with the page take seconds.
SHOWN_JSON_MAX_CHARS = 200_000


def _json_block(value, key: str, file_name: str) -> None:
    """``value`` as JSON in a code block (invisible characters as markers), cut past
    :data:`SHOWN_JSON_MAX_CHARS` with a note and a download of the whole JSON."""
    text = common.visible_json(value)
    if len(text) <= SHOWN_JSON_MAX_CHARS:
        st.code(text, language="json")
        return
    st.code(text[:SHOWN_JSON_MAX_CHARS] + "\n" + C.ELLIPSIS, language="json")
    st.caption(f"Cut at {SHOWN_JSON_MAX_CHARS:,} of {len(text):,} characters: a longer block would slow every "
               "interaction with this page. The download has the whole JSON.")
    st.download_button("Download the whole JSON", lambda: json_text(value),
                       file_name=file_name, mime="application/json", key=key)


def _tools_table(catalog, inspector: Inspector, tokenizer: str) -> None:
    """Per server: each tool's name, the first line of its description and its definition's size."""
    tokens = inspector.planner.tool_tokens(tokenizer)
    wire = {(t.server, t.raw_name): t.name for t in inspector.registration.tools}
    for server in catalog.servers:
        with st.expander(f"{common.md_escape(common.visible_name(server.name))} · {counted(len(server.tools), 'tool')}",
                         expanded=len(catalog.servers) == 1):
            rows = []
            for tool in server.tools:
                first = (tool.description or "").strip().splitlines()[0] if (tool.description or "").strip() else ""
                short = first if len(first) <= 120 else first[:119] + C.ELLIPSIS
                name = wire.get((server.name, tool.name))
                rows.append({"tool": common.visible_name(tool.name), "description": common.visible(short),
                             f"schema ({tokenizer} tokens)": tokens.get(name) if name else None,
                             "the model sees it as": common.visible(name) if name else "not registered (filtered)"})
            if rows:
                literal_table(rows, key=f"live_tools:{server.name}")
            else:
                st.caption("No tools.")


def _switch_raw() -> None:
    """Toggle callback: carry the arguments between the form and the raw JSON editor."""
    s = st.session_state
    last = s.get(FORM_LAST)
    if not last or last["tool"] != s.get("live_tool"):
        return
    if s.get("live_raw"):  # form → raw: start from what the form holds
        s["live_arguments"] = json.dumps(last["arguments"], ensure_ascii=False, indent=2)
        return
    try:  # raw → form: fill the fields the JSON sets (anything else is left to the raw editor)
        arguments = load_typed_json(s.get("live_arguments") or "{}")
    except ValueError:
        return
    if isinstance(arguments, dict):
        for key, value in schema_form.widget_values(last["prefix"], last["parameters"], arguments).items():
            s[key] = value


def _field_errors(response: dict) -> tuple[dict[str, str], str | None]:
    """A ``tool_call`` validation error split by field: ``({field: message}, message for the whole
    object or None)``. ``required`` errors name every missing field (docs/reference.md §9.3)."""
    message = str(response.get("error", ""))
    path, constraint = response.get("path"), response.get("constraint")
    if constraint == "required" and path == "arguments":
        required = (response.get("parameters") or {}).get("required") or []
        missing = [name for name in required if isinstance(name, str) and name in message]
        if missing:
            return {name: "Required: tool_call refuses the call without it." for name in missing}, message
    field = schema_form.field_of_path(path) if isinstance(path, str) else None
    if field is not None:
        return {field: message}, None
    return {}, message


def _dispatch(bridge, dispatcher: LiveDispatcher, name: str, arguments: dict, reused: bool) -> None:
    """Run ``tool_call`` with ``dispatcher`` and keep what it showed in :data:`LAST_CALL`."""
    bridge.dispatcher = dispatcher
    try:
        response = bridge.tool_call({"calls": [{"name": name, "arguments": arguments}]})
    finally:
        bridge.dispatcher = None
    outcome = dispatcher.last
    st.session_state[LAST_CALL] = {"tool": name, "response": response, "reused": reused,
                                   "outcome": outcome.to_dict() if outcome else None}


def _call(bridge, name: str, arguments: dict | None, problems: dict[str, str]) -> None:
    """The Call button: validate as ``tool_call`` would, then call over the open session, or ask
    to start the server (the session has ended) behind the launch confirmation."""
    st.session_state[FIELD_ERRORS] = None
    st.session_state.pop(PENDING, None)
    if problems or arguments is None:
        st.session_state[FIELD_ERRORS] = {"tool": name, "errors": {k: v for k, v in problems.items() if k != "*"},
                                          "general": problems.get("*")}
        st.session_state[LAST_CALL] = None
        return
    check = bridge.check_call({"calls": [{"name": name, "arguments": arguments}]})
    if check.error is not None:  # nothing is sent, and nothing has to start
        errors, general = _field_errors(check.error)
        st.session_state[FIELD_ERRORS] = {"tool": name, "errors": errors, "general": general}
        st.session_state[LAST_CALL] = {"tool": name, "response": check.error, "outcome": None}
        return
    tool = bridge.deferred_by_name[name]
    specs = st.session_state.get(SPECS, {})
    connections = st.session_state.get(CONNECTIONS)
    if connections is not None and connections.is_open(tool.server):
        dispatcher = LiveDispatcher(specs, send=connections.send)
        with st.spinner(common.md_escape(common.visible(f"Calling {tool.raw_name} on {tool.server}…"))):
            _dispatch(bridge, dispatcher, name, arguments, reused=True)
        return
    server = common.md_escape(common.visible(tool.server))  # a config's name: shown literally, never as Markdown
    if connections is not None and connections.closed and connections.close_reason == "idle":
        why = (f"The sessions were closed after {_idle_minutes(connections)} minutes without use, so this call "
               f"starts {server} again, for this call only. Confirm below.")
    elif connections is not None and connections.closed:
        why = (f"The sessions were closed (Disconnect), so this call starts {server} again, for this "
               "call only. Confirm below.")
    elif connections is not None and connections.end_reason(tool.server):
        why = (f"The session with {server} has ended: "
               f"{common.md_escape(common.visible(connections.end_reason(tool.server)))}. So this call "
               "starts it again, for this call only. Confirm below.")
    else:
        why = (f"The session with {server} has ended (the server exited or closed the connection), so "
               "this call starts it again, for this call only. Confirm below.")
    target = specs.get(tool.server)
    st.session_state[LAST_CALL] = None
    st.session_state[PENDING] = {"action": "call", "tool": name, "arguments": arguments, "why": why,
                                 "specs": [target] if target is not None else []}


def _inspector() -> Inspector:
    """The registered live catalog for the sidebar's tool naming (rebuilt when either changes)."""
    naming = st.session_state.get("naming", "prefixed")
    catalog = st.session_state[CATALOG]
    cached = st.session_state.get("live_inspector")
    if cached is None or cached[0] is not catalog or cached[1] != naming:
        cached = (catalog, naming, Inspector(catalog, naming))
        st.session_state["live_inspector"] = cached
    return cached[2]


def _tool_search_config():
    view = st.session_state.get("_view")
    return view.config if view is not None else parse_config({})


common.view()  # the shared sidebar (and the router, when Streamlit runs this page on its own)
st.title("Live servers")
st.caption("Connect your own MCP servers, see their tools and what the model would receive, call one, and "
           "save a snapshot. Servers start only when you confirm a Connect or a Call (the confirmation "
           "shows the exact command line); env and header values are shown as ••••.")

# --- servers to connect -----------------------------------------------------------------------
st.subheader("1 · Servers")
upload = st.file_uploader("MCP client config file", max_upload_size=TEXT_UPLOAD_MB, type=["json", "yaml", "yml"], key="live_config_upload",
                          help="Claude Desktop / Claude Code / Cursor (mcpServers), VS Code (servers) or the "
                               "Hermes config.yaml (mcp_servers). ${VAR} references are resolved from the "
                               "environment. Reading the file starts nothing.")
file_specs = []
file_warnings: list[str] = []
if upload is not None:
    try:
        # An envFile names a file on this machine: not opened for a browser elsewhere.
        parsed = parse_config_text(decode_bytes(upload.getvalue(), upload.name), upload.name,
                                   env_files=common.client_check().local)
        file_specs = list(parsed.servers)
        file_warnings = list(parsed.warnings)
    except ToolsearchError as exc:
        st.error(common.md_escape(common.visible(str(exc))), icon=":material/warning:")
for warning in file_warnings:
    st.warning(common.md_escape(common.visible(warning)), icon=":material/warning:")

with st.expander("Add a server by hand", expanded=upload is None and not st.session_state.get(FORM_SPECS)):
    st.radio("Transport", list(TRANSPORT_LABELS), format_func=TRANSPORT_LABELS.get, key="live_transport",
             horizontal=True)
    st.text_input("Server name", key="live_name", placeholder="e.g. notes")
    if st.session_state.get("live_transport", "stdio") == "stdio":
        st.text_input("Command", key="live_command", placeholder="e.g. npx, uvx, python")
        st.text_input("Arguments (shell-style)", key="live_args", placeholder="-y @modelcontextprotocol/server-memory")
        st.text_area("Environment (one KEY=VALUE per line)", key="live_env", height=80,
                     help="Values are secrets: after Add they are shown as ••••. ${VAR} takes a variable "
                          "from this app's environment.")
        st.text_input("Working directory (optional)", key="live_cwd")
    else:
        st.text_input("URL", key="live_url", placeholder="http://127.0.0.1:8000/mcp")
        st.text_area("Headers (one 'Name: value' per line)", key="live_headers", height=80,
                     help="Values are secrets: after Add they are shown as ••••.")
    st.button("Add server", key="live_add", on_click=_add_server)
    if st.session_state.get("live_form_error"):
        st.error(common.md_escape(common.visible(st.session_state["live_form_error"])), icon=":material/warning:")

form_specs = list(st.session_state.get(FORM_SPECS, []))
specs = [*file_specs, *form_specs]
if specs:
    show_unset = _may_see_environment()
    rows = (_spec_rows(file_specs, upload.name if upload is not None else "file", show_unset)
            + _spec_rows(form_specs, "form", show_unset))
    literal_table(rows, key="live_specs", nowrap=("source", "transport"))
    if not show_unset and any("${" in json.dumps(spec.display, default=str) for spec in specs):
        st.caption("Which " + common.md_escape("${VAR}") + " references this app's environment leaves unset is "
                   "shown only to a browser on the machine that runs the app, or after the launch token is "
                   "entered in the launch confirmation.")
    if form_specs and st.button("Remove the servers added by hand", key="live_clear"):
        st.session_state[FORM_SPECS] = []
        st.rerun()
else:
    st.info("Upload a config file or add a server to begin.")

# --- connect -----------------------------------------------------------------------------------
st.subheader("2 · Connect")
timeout = st.number_input("Timeout per server (seconds, connect + listing)", min_value=1.0, max_value=600.0,
                          value=float(C.LIVE_CONNECT_TIMEOUT_DEFAULT), step=5.0, key="live_timeout",
                          help="Used when the config sets no connect_timeout for a server. Servers connect "
                               "concurrently, so the whole connect takes about as long as the slowest one.")
idle_minutes = st.number_input("Close unused sessions after (minutes)", min_value=1.0, max_value=1440.0,
                               value=float(C.LIVE_IDLE_MINUTES_DEFAULT), step=1.0, key=IDLE,
                               help="After Connect, each server's session stays open for calls. One left unused "
                                    "this long (no call and nothing done on this page) is closed and its server "
                                    "stopped; Reconnect starts it again after the confirmation.")
held = st.session_state.get(CONNECTIONS)
if held is not None and not held.closed:
    held.idle_timeout = idle_minutes * 60
    if not held.expire_idle():  # coming back after the idle time: closed, and the page says so
        held.touch()  # working on this page is use
if st.button("Connect", type="primary", key="live_connect", disabled=not specs):
    # Nothing starts here: the launch waits for an explicit Start on the confirmation below.
    st.session_state[PENDING] = {"action": "connect", "specs": unique_names(specs), "timeout": timeout,
                                 "upload": upload.name if upload is not None else None}
pending = st.session_state.get(PENDING) or {}
if _confirm_launch("connect"):
    unique = pending["specs"]
    upload_name = pending["upload"]
    statuses = {spec.name: None for spec in unique}
    with st.status(f"Connecting {counted(len(unique), 'server')}…", expanded=True) as box:
        table = st.empty()

        def show(status) -> None:
            statuses[status.name] = status
            rows = _status_rows([s for s in statuses.values() if s is not None])
            # One element in the placeholder: the table itself, scrolling when long (no page picker).
            table.html(table_html(rows, key="live_status_progress", formats=STATUS_FORMATS,
                                  height=SCROLL_HEIGHT if len(rows) > SCROLL_ROWS else None))

        name = upload_name.rsplit(".", 1)[0] if upload_name else "Live servers"
        connections = LiveConnections(alive=_session_alive(), idle_timeout=idle_minutes * 60)
        result = connections.connect(unique, name=name, timeout=pending["timeout"], progress=show,
                                     sources=[upload_name] if upload_name else ["form"])
        failed = len(result.failed)
        ok = sum(1 for s in result.statuses if s.state == "ok")
        summary = {"label": f"{ok} connected · {counted(result.catalog.tool_count, 'tool')}"
                            + (f" · {failed} failed" if failed else "") + f" · {result.elapsed:.2f} s",
                   "state": "error" if failed and not ok else "complete", "failed": failed}
        box.update(label=summary["label"], state=summary["state"], expanded=bool(failed))
    st.session_state[RESULT] = result
    st.session_state[SUMMARY] = summary
    if result.catalog.servers:  # a connect where every server failed keeps the previous catalog
        previous = st.session_state.get(CONNECTIONS)
        if previous is not None:
            previous.close()
        st.session_state[CONNECTIONS] = connections
        st.session_state[CATALOG] = result.catalog
        st.session_state[CATALOG_KEY] = catalog_key(result.catalog)
        st.session_state[SPECS] = {spec.name: spec for spec in unique}
        st.session_state[LAUNCH] = {"specs": unique, "timeout": pending["timeout"], "upload": upload_name}
        st.session_state[LAST_CALL] = None
        st.session_state[FIELD_ERRORS] = None
    else:
        connections.close()
    st.rerun()  # draw the page from the kept state: the summary and tables look the same on every run

result = st.session_state.get(RESULT)
if result is not None:
    catalog = result.catalog
    summary = st.session_state.get(SUMMARY) or {"label": "connected", "state": "complete", "failed": 0}
    flagged_servers = any(s.flags for s in result.statuses)
    with st.status(summary["label"], state=summary["state"], expanded=bool(summary["failed"] or flagged_servers)):
        literal_table(_status_rows(result.statuses), key="live_status", formats=STATUS_FORMATS)
    _connection_line()
    flagged = [p for p in catalog.problems if p.severity != "info" and not is_connect_failure(p)]
    if flagged:
        with st.expander(f"Flagged while listing ({len(flagged)})"):
            literal_table([{"severity": p.severity, "where": p.where, "message": p.message} for p in flagged],
                          key="live_flagged", nowrap=("severity",))  # one row each, as every problem list shows them
    if not catalog.servers:
        st.error("No server connected; see the reasons above. "
                 + ("The previous live catalog is kept." if st.session_state.get(CATALOG) is not None else ""))
    else:
        st.success(f"Live catalog **{common.md_escape(common.visible(catalog.name))}**: {counted(len(catalog.servers), 'server')}, {counted(catalog.tool_count, 'tool')}. "
                   "Choose **Live servers** as the catalog source in the sidebar to inspect it on every page.")
        # Written when clicked, not on every rerun: the YAML of a large catalog takes seconds.
        st.download_button("Download snapshot (catalog YAML)", lambda: dump_snapshot(result, list(catalog.sources)),
                           file_name=f"{catalog.name}-snapshot.yaml", mime="application/x-yaml", key="live_download",
                           help="The catalog file format with server info and capabilities; no env values or "
                                "headers. Load it later as a catalog file to review offline.")

if st.session_state.get(CATALOG) is not None and st.session_state[CATALOG].servers:
    inspector = _inspector()
    bridge = inspector.bridge(_tool_search_config())

    st.subheader("3 · Tools")
    helpers = Q.helper_tools_words(inspector.registration)
    if helpers:  # each server below lists its own tools; the other pages count the registered ones
        st.caption(common.md_escape(common.visible(helpers + ".")))
    _tools_table(st.session_state[CATALOG], inspector, st.session_state.get("display_tokenizer", C.DEFAULT_TOKENIZER))

    # --- search ----------------------------------------------------------------------------------
    st.subheader("4 · Search these tools")
    query = st.text_input("tool_search query", key="live_query", placeholder="e.g. create an issue")
    if query.strip():
        response = bridge.tool_search({"queries": [query]})
        if "error" in response:
            st.error(common.md_escape(common.visible(response["error"])))
        else:
            matches = response["results"][0]["matches"]
            if matches:
                literal_table([{"tool": name, "server": bridge.deferred_by_name[name].server,
                                "description": response["tools"][name]["description"][:160]}
                               for name in matches], key="live_matches")
            else:
                st.info("No matches.")
            with st.expander("tool_search response (JSON)"):
                st.code(common.visible(to_wire(response)), language="json")

    # --- call ------------------------------------------------------------------------------------
    st.subheader("5 · Call a tool")
    names = sorted(bridge.deferred_by_name)
    if not names:
        st.info("No deferred tools to call.")
    else:
        chosen = st.selectbox("Tool", names, key="live_tool", format_func=common.visible)
        tool = bridge.deferred_by_name[chosen]
        st.text(common.visible(f"{tool.server} · {tool.raw_name}: {tool.description[:300]}"))
        with st.expander("Parameters (as the model sees them)"):
            _json_block(tool.parameters, "live_parameters_download", "parameters.json")
        field_errors = st.session_state.get(FIELD_ERRORS) or {}
        if field_errors.get("tool") != chosen:
            field_errors = {}
        errors = field_errors.get("errors", {})
        field_count = len(schema_form.fields_of(tool.parameters))
        if field_count > schema_form.MAX_FIELDS:  # a widget each would make every rerun slow
            st.caption(f"This tool has {field_count:,} parameters, more than the form draws "
                       f"({schema_form.MAX_FIELDS}): write the argument object as JSON.")
            raw = True
        else:
            raw = st.toggle("Raw JSON (the whole argument object)", key="live_raw", on_change=_switch_raw)
        problems: dict[str, str] = {}
        if raw:
            st.session_state.setdefault("live_arguments", "{}")
            arguments_text = st.text_area("Arguments (JSON object)", key="live_arguments", height=140)
            arguments = None
            try:
                arguments = load_typed_json(arguments_text or "{}")
                if not isinstance(arguments, dict):
                    problems["*"] = f"Arguments: expected a JSON object, got {yaml_kind(arguments)}"
            except ValueError as exc:
                problems["*"] = f"Arguments: not valid JSON ({exc})"
        else:
            prefix = f"live_arg::{chosen}"
            if not schema_form.fields_of(tool.parameters):
                st.caption("This tool takes no arguments.")
            arguments, problems = schema_form.render(prefix, tool.parameters, errors)
            st.session_state[FORM_LAST] = {"tool": chosen, "prefix": prefix, "parameters": tool.parameters,
                                           "arguments": arguments}
            st.caption("Fields marked * are required; empty optional fields are not sent.")
        general = problems.get("*") or field_errors.get("general")
        if general:
            st.error(common.md_escape(common.visible(general)), icon=":material/error:")
        if raw and errors and not general:
            for name, message in errors.items():
                st.error(common.md_escape(common.visible(f"{name}: {message}")), icon=":material/error:")
        if st.button("Call", key="live_call", type="primary"):
            _call(bridge, chosen, arguments, problems)
            st.rerun()  # draw the field errors, the confirmation or the result from the kept state
        pending = st.session_state.get(PENDING) or {}
        if pending.get("action") == "call" and pending.get("why"):
            st.info(pending["why"], icon=":material/info:")
        if pending.get("action") == "call" and pending.get("tool") in bridge.deferred_by_name and \
                _confirm_launch("call"):
            called = bridge.deferred_by_name[pending["tool"]]
            dispatcher = LiveDispatcher(st.session_state.get(SPECS, {}))
            with st.spinner(common.md_escape(common.visible(f"Starting {called.server} and calling {called.raw_name}…"))):
                _dispatch(bridge, dispatcher, pending["tool"], pending["arguments"], reused=False)
        shown = st.session_state.get(LAST_CALL)
        if shown:
            if "error" in shown and "response" not in shown:
                st.error("The call failed:", icon=":material/error:")
                st.code(shown["error"], language=None, wrap_lines=True)
            elif shown["outcome"] is None:
                st.warning(f"Not sent: `tool_call` for {common.md_escape(common.visible(shown['tool']))} stopped before dispatch "
                           "(local validation, docs/reference.md §9).", icon=":material/block:")
                _json_block(shown["response"], "live_response_download", "response.json")
            else:
                outcome = shown["outcome"]
                c1, c2 = st.columns(2)
                c1.metric("Total (over the open session)" if shown.get("reused")
                          else "Total (start, handshake, call, stop)", f"{outcome['elapsed_seconds']:.3f} s")
                c2.metric("tools/call round trip", f"{outcome['call_seconds']:.3f} s"
                          if "call_seconds" in outcome else "—")
                if outcome.get("reason"):
                    # Server text: shown literally (an error message may carry links or images).
                    st.error(common.md_escape(common.visible(outcome["reason"])), icon=":material/warning:")
                for note in outcome.get("notes", []):
                    st.warning(common.md_escape(common.visible(note)), icon=":material/warning:")
                left, right = st.columns(2)
                with left:
                    st.markdown("**Request, as the underlying tool**")
                    st.code(json.dumps(outcome["request"], ensure_ascii=False, indent=2), language="json")
                with right:
                    st.markdown("**Response**")
                    _json_block(shown["response"], "live_response_download", "response.json")

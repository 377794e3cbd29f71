"""Shared app frame: sidebar controls, URL mirroring, cached engine objects, colors.

Pages import :func:`view` to get the current :class:`View`. Everything computed here comes from
the engine (`toolsearch`); this module only wires Streamlit widgets to it.
"""

from __future__ import annotations

import hashlib
import runpy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from toolsearch import constants as C
from toolsearch.catalog import Catalog, combine, load_source, load_text
from toolsearch.config import ToolSearchConfig, parse_config
from toolsearch.errors import ToolsearchError
from toolsearch.guard import ClientCheck, check_client
from toolsearch.inspector import Inspector
from toolsearch.invisible import reveal, reveal_data
from toolsearch.live import catalog_key
from toolsearch.plan import Plan
from toolsearch.profile import Profile, default_profile, profile_from_text
from toolsearch.scopes import Scope, ScopeError, dump_scopes, parse_scope_arg, scope_from_mapping, scopes_from_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES_DIR = ROOT / "sample_catalogs"
DEFAULT_SAMPLE = "team-workspace"
UPLOAD = "Upload files…"
LIVE = "Live servers"

#: One color per state / form, used by every table and chart.
STATE_COLORS = {
    "full": "#2e7d32",     # green: everything shown
    "names": "#1565c0",    # blue: names only
    "mixed": "#6a1b9a",    # violet: some servers collapsed
    "summary": "#ef6c00",  # orange: one summary line
    "groups": "#ef6c00",
    "hidden": "#9e9e9e",   # gray: nothing listed
    "none": "#9e9e9e",
    "visible": "#00838f",  # teal: schema sent directly
}
TIER_BADGE = {0: ("Tier 0 · no bridge", "gray"), 1: ("Tier 1 · listing embedded", "green"),
              2: ("Tier 2 · summaries or bare bridge", "orange")}
FORM_HELP = {
    "full": "every deferred tool listed with its short description",
    "names": "every deferred tool listed by name only",
    "mixed": "the largest servers collapsed to one summary line, the rest by name",
    "groups": "one summary line per server",
    "none": "no listing: only the bridge tools' own text",
}
PRESET_LABELS = {"8K": 8_000, "32K": 32_000, "128K": 128_000, "200K": 200_000, "400K": 400_000, "1M": 1_000_000}
CONTEXT_CHOICES = [*PRESET_LABELS, "custom", "unknown"]


def sample_catalogs() -> dict[str, Path]:
    """``{stem: path}`` of the shipped sample catalogs, default first."""
    paths = sorted(SAMPLES_DIR.glob("*.yaml"))
    found = {p.stem: p for p in paths}
    if DEFAULT_SAMPLE in found:
        found = {DEFAULT_SAMPLE: found.pop(DEFAULT_SAMPLE), **found}
    return found


@st.cache_resource(show_spinner="Registering the catalog…", max_entries=24)
def _inspector(key: str, naming: str, profile_key: str, _catalog: Catalog, _profile: Profile) -> Inspector:
    return Inspector(_catalog, naming, _profile)


@st.cache_resource(show_spinner="Loading the catalog…", max_entries=16)
def _read_sample(path: str, mtime: float) -> Catalog:
    return load_source(path)


@dataclass
class View:
    """What every page needs for the current sidebar settings."""

    inspector: Inspector | None
    config: ToolSearchConfig
    context_length: int | None
    tokenizer: str
    display_tokenizer: str
    source_label: str
    errors: list[str] = field(default_factory=list)
    _plan: Plan | None = None

    @property
    def plan(self) -> Plan:
        """The plan for the current settings (computed once per run)."""
        if self._plan is None:
            assert self.inspector is not None
            self._plan = self.inspector.plan(self.config, self.context_length, self.tokenizer, self.display_tokenizer)
        return self._plan

    def plan_for(self, context_length: int | None, config: ToolSearchConfig | None = None) -> Plan:
        """A plan for other settings, same catalog and tokenizers."""
        assert self.inspector is not None
        return self.inspector.plan(config or self.config, context_length, self.tokenizer, self.display_tokenizer)


# --- URL query string ------------------------------------------------------------------------
_QP = {  # query key -> (session key, parser)
    "catalog": ("catalog", str), "ctx": ("ctx_choice", str), "ctxn": ("ctx_custom", int),
    "pct": ("threshold_pct", float), "cap": ("listing_max_tokens", int), "listing": ("listing", str),
    "enabled": ("enabled", str), "limit": ("search_default_limit", int), "maxlimit": ("max_search_limit", int),
    "tok": ("tokenizer", str), "dtok": ("display_tokenizer", str), "names": ("naming", str),
}
_DEFAULTS = {
    "catalog": DEFAULT_SAMPLE, "ctx_choice": "200K", "ctx_custom": 64_000,
    "threshold_pct": C.THRESHOLD_PCT_DEFAULT, "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT,
    "listing": C.LISTING_DEFAULT, "enabled": C.ENABLED_DEFAULT,
    "search_default_limit": C.SEARCH_DEFAULT_LIMIT_DEFAULT, "max_search_limit": C.MAX_SEARCH_LIMIT_DEFAULT,
    "tokenizer": C.DEFAULT_TOKENIZER, "display_tokenizer": C.DEFAULT_TOKENIZER, "naming": "prefixed",
}
_CHOICES = {"ctx_choice": CONTEXT_CHOICES, "listing": list(C.TRI_STATE_VALUES), "enabled": list(C.TRI_STATE_VALUES),
            "tokenizer": list(C.TOKENIZERS), "display_tokenizer": list(C.TOKENIZERS), "naming": list(C.TOOL_NAMING)}
_RANGES = {"threshold_pct": (C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX),
           "listing_max_tokens": (C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX),
           "search_default_limit": (1, C.MAX_SEARCH_LIMIT_MAX), "max_search_limit": (C.MAX_SEARCH_LIMIT_MIN, C.MAX_SEARCH_LIMIT_MAX),
           "ctx_custom": (1, C.CONTEXT_LENGTH_MAX)}


def _init_state() -> None:
    """Seed widget state from defaults and, once per session, from the URL.

    A link only sets values; it never loads a file from elsewhere or starts a server: an unknown
    catalog name falls back to the default sample.
    """
    if st.session_state.get("_initialised"):
        return
    state = dict(_DEFAULTS)
    params = st.query_params
    for qkey, (skey, parse) in _QP.items():
        if qkey not in params:
            continue
        try:
            value = parse(params[qkey])
        except (TypeError, ValueError):
            continue
        if skey in _CHOICES and value not in _CHOICES[skey]:
            continue
        if skey in _RANGES:  # nan, inf and out-of-range values are ignored (the default stays)
            low, high = _RANGES[skey]
            if not low <= value <= high:
                continue
        state[skey] = value
    if state["catalog"] not in sample_catalogs():
        state["catalog"] = DEFAULT_SAMPLE
    for key, value in state.items():
        st.session_state.setdefault(key, value)
    st.session_state["_initialised"] = True


def _sync_url() -> None:
    values = {}
    for qkey, (skey, _) in _QP.items():
        value = st.session_state.get(skey)
        if skey == "ctx_custom" and st.session_state.get("ctx_choice") != "custom":
            continue
        if skey == "catalog" and value in (UPLOAD, LIVE):
            continue
        if value is not None and value != _DEFAULTS.get(skey):
            values[qkey] = str(value)
    scope_arg = _selected_scope_arg()
    if scope_arg:
        values["scope"] = scope_arg
    if dict(st.query_params) != values:
        st.query_params.from_dict(values)


def context_length_from_state() -> int | None:
    """The context length the sidebar selects (``None`` = unknown)."""
    choice = st.session_state.get("ctx_choice", "200K")
    if choice == "unknown":
        return None
    if choice == "custom":
        return int(st.session_state.get("ctx_custom", 64_000))
    return PRESET_LABELS[choice]


#: Number inputs shown with the budget sliders: (setting key, its number input's key).
EXACT_INPUTS = (("threshold_pct", "threshold_pct_exact"), ("listing_max_tokens", "listing_max_tokens_exact"))


def _copy_state(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]


def _budget_controls(sb) -> None:
    """threshold_pct and listing_max_tokens: a slider for the whole range (bounds from
    ``toolsearch.constants``) and a number input under it, exact to 0.1 % and 1 token. Both edit
    the same setting (session keys ``threshold_pct`` / ``listing_max_tokens``, mirrored to the URL
    as ``pct`` / ``cap``)."""
    for key, exact in EXACT_INPUTS:  # before the widgets exist: show the setting's current value
        if st.session_state.get(exact) != st.session_state[key]:
            st.session_state[exact] = st.session_state[key]
    sb.slider("threshold_pct (% of context)", C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX, step=0.1, format="%.1f",
              key="threshold_pct", on_change=_copy_state, args=("threshold_pct", "threshold_pct_exact"),
              help="Share of the context length the listing may use.")
    sb.number_input("threshold_pct (%)", min_value=C.THRESHOLD_PCT_MIN, max_value=C.THRESHOLD_PCT_MAX, step=0.1,
                    format="%.1f", key="threshold_pct_exact", on_change=_copy_state,
                    args=("threshold_pct_exact", "threshold_pct"), label_visibility="collapsed",
                    help="Type an exact value (0.1 steps); the realistic range is about 0.5–10%.")
    sb.slider("listing_max_tokens (tokens)", C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX, step=1,
              key="listing_max_tokens", on_change=_copy_state, args=("listing_max_tokens", "listing_max_tokens_exact"),
              help="Cap on the listing budget.")
    sb.number_input("listing_max_tokens", min_value=C.LISTING_MAX_TOKENS_MIN, max_value=C.LISTING_MAX_TOKENS_MAX,
                    step=1, key="listing_max_tokens_exact", on_change=_copy_state,
                    args=("listing_max_tokens_exact", "listing_max_tokens"), label_visibility="collapsed",
                    help="Type an exact number of tokens; the realistic range is about 1,000–10,000.")


def sidebar() -> View:
    """Render the shared sidebar and return the current :class:`View`."""
    _init_state()
    errors: list[str] = []
    samples = sample_catalogs()
    sb = st.sidebar
    sb.header("Catalog")
    options = [*samples, UPLOAD, LIVE]
    sb.selectbox("Catalog source", options, key="catalog",
                 help="A sample catalog shipped with toolsearch, or your own files (catalog YAML/JSON, "
                      "a recorded tools/list result, or an OpenAI-style function array).")
    catalog: Catalog | None = None
    source_label = st.session_state["catalog"]
    if st.session_state["catalog"] == UPLOAD:
        uploads = sb.file_uploader("Catalog files", type=["yaml", "yml", "json"], accept_multiple_files=True,
                                   key="uploads", help="Several files combine into one catalog.")
        loaded = []
        for upload in uploads or []:
            try:
                loaded.append(load_text(upload.getvalue().decode("utf-8"), upload.name))
            except UnicodeDecodeError:
                errors.append(f"{upload.name}: expected UTF-8 text")
            except ToolsearchError as exc:
                errors.append(str(exc))
        if loaded:
            catalog = combine(loaded)
            digest = hashlib.sha256(b"".join(u.getvalue() for u in uploads)).hexdigest()[:16]
            source_key = f"upload:{digest}"
            source_label = " + ".join(c.name for c in loaded)
        else:
            source_key = ""
    elif st.session_state["catalog"] == LIVE:
        catalog = st.session_state.get("live_catalog")
        if catalog is None:
            errors.append("No live catalog yet: open the Live servers page, add your servers and press Connect.")
            source_key = ""
        else:
            source_key = f"live:{st.session_state.get('live_catalog_key') or catalog_key(catalog)}"
            source_label = f"{catalog.name} (live)"
    else:
        path = samples[st.session_state["catalog"]]
        try:
            catalog = _read_sample(str(path), path.stat().st_mtime)
            source_key = f"sample:{path}:{path.stat().st_mtime}"
        except ToolsearchError as exc:
            errors.append(str(exc))
            source_key = ""

    scope = _scope_sidebar(sb, catalog)

    sb.header("Model and budget")
    sb.selectbox("Context length", CONTEXT_CHOICES, key="ctx_choice",
                 help="The model's context window in tokens. 'unknown' uses the reference fallback of 10,000 for the percentage leg.")
    if st.session_state["ctx_choice"] == "custom":
        sb.number_input("Custom context length (tokens)", min_value=1, max_value=C.CONTEXT_LENGTH_MAX, step=1000, key="ctx_custom")
    _budget_controls(sb)
    col1, col2 = sb.columns(2)
    col1.selectbox("enabled", list(C.TRI_STATE_VALUES), key="enabled")
    col2.selectbox("listing", list(C.TRI_STATE_VALUES), key="listing")
    col1.number_input("search_default_limit", min_value=1, max_value=C.MAX_SEARCH_LIMIT_MAX, key="search_default_limit")
    col2.number_input("max_search_limit", min_value=C.MAX_SEARCH_LIMIT_MIN, max_value=C.MAX_SEARCH_LIMIT_MAX, key="max_search_limit")

    sb.header("Counting and naming")
    sb.selectbox("Planning tokenizer", list(C.TOKENIZERS), key="tokenizer",
                 help="Decides whether the listing fits. chars4 (characters ÷ 4) is what the reference harness uses.")
    sb.selectbox("Display tokenizer", list(C.TOKENIZERS), key="display_tokenizer",
                 help="Used for the token costs shown in tables and charts.")
    sb.radio("Tool names", list(C.TOOL_NAMING), key="naming", horizontal=True,
             help="prefixed: mcp__<server>__<tool>, as the reference registers MCP tools; as-is: catalog names.")
    profile = default_profile()
    profile_key = "default"
    profile_upload = sb.file_uploader("Wording profile (YAML)", type=["yaml", "yml"], key="profile_upload",
                                      help="Optional: your harness's exact wording. Default: the toolsearch profile.")
    sb.download_button("Download the default profile", (ROOT / "toolsearch" / "profiles" / "default.yaml").read_bytes(),
                        file_name="toolsearch-profile.yaml", mime="application/x-yaml", key="profile_download",
                        help="A starting point for your own wording: every key is required.")
    if profile_upload is not None:
        try:
            profile = profile_from_text(profile_upload.getvalue().decode("utf-8"), profile_upload.name)
            profile_key = hashlib.sha256(profile_upload.getvalue()).hexdigest()[:16]
        except (ToolsearchError, UnicodeDecodeError) as exc:
            errors.append(f"Wording profile not used: {exc}")

    config = parse_config({
        "enabled": st.session_state["enabled"], "listing": st.session_state["listing"],
        "threshold_pct": st.session_state["threshold_pct"], "listing_max_tokens": st.session_state["listing_max_tokens"],
        "search_default_limit": st.session_state["search_default_limit"],
        "max_search_limit": st.session_state["max_search_limit"],
    })
    _sync_url()
    inspector = None
    if catalog is not None:
        inspector = _inspector(source_key, st.session_state["naming"], profile_key, catalog, profile).scoped(scope)
    return View(inspector=inspector, config=config, context_length=context_length_from_state(),
                tokenizer=st.session_state["tokenizer"], display_tokenizer=st.session_state["display_tokenizer"],
                source_label=source_label, errors=errors)


# --- session scopes (sidebar picker and editor) ----------------------------------------------------
WHOLE_CATALOG = "Whole catalog"


def app_scopes() -> list[Scope]:
    """The scopes defined in this browser session, in order."""
    return list(st.session_state.get("scopes", []))


def put_scope(scope: Scope) -> None:
    """Add a scope to this browser session's scopes, replacing one of the same name."""
    scopes = [s for s in app_scopes() if s.name != scope.name]
    st.session_state["scopes"] = [*scopes, scope]


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


def _scope_sidebar(sb, catalog: Catalog | None) -> Scope | None:
    """The "Session scope" sidebar section: pick a scope, define or load scopes. Returns the
    selected scope (``None`` = the whole catalog)."""
    state = st.session_state
    if not state.get("_scope_initialised"):
        state["_scope_initialised"] = True
        text = st.query_params.get("scope")
        if text:  # a link only defines and selects a scope; it loads nothing else
            try:
                scope = parse_scope_arg(text)
                put_scope(scope)
                state["scope_choice"] = scope.name
            except ScopeError:
                pass
    names = [s.name for s in app_scopes()]
    if state.get("scope_choice") not in (WHOLE_CATALOG, *names):
        state["scope_choice"] = WHOLE_CATALOG
    sb.header("Session scope")
    sb.selectbox("Scope", [WHOLE_CATALOG, *names], key="scope_choice",
                 help="What one session sees: a subagent, a worker or a gateway platform that enables only some "
                      "servers. Every page then plans, searches, describes and calls as that session; tools outside "
                      "it are not found, and calling one gives the reference's 'not available in this session' error.")
    servers = sorted(s.name for s in catalog.servers) if catalog is not None else []
    state["_scope_server_options"] = servers
    with sb.expander("Edit scopes", expanded=not names):
        if state["scope_choice"] != WHOLE_CATALOG:
            st.button("Edit the selected scope", key="scope_load", on_click=_load_scope_into_editor,
                      help="Fill the fields below with the selected scope; save under the same name to replace it.")
        st.text_input("Name", key="scope_edit_name", placeholder="support")
        st.multiselect("Servers", servers, key="scope_edit_servers")
        st.text_input("Only these tools (patterns, comma-separated)", key="scope_edit_include",
                      help="Optional whitelist: exact names or globs (* ? [..]) matched against the wire name "
                           "(mcp__slack__post_message) or the server's own name (post_message). When given, "
                           "the exclusions below are ignored.")
        st.text_input("Leave out tools (patterns, comma-separated)", key="scope_edit_exclude", placeholder="delete_*")
        st.button("Save scope", key="scope_save", on_click=_save_scope_from_editor, width="stretch")
        if state.get("scope_editor_error"):
            st.error(md_escape(state["scope_editor_error"]), icon="⚠️")
        upload = st.file_uploader("Load scopes (scope file or Hermes config.yaml)", type=["yaml", "yml"],
                                  key="scope_upload",
                                  help="A YAML file with a 'scopes' mapping, or a Hermes config.yaml: each "
                                       "platform_toolsets entry becomes one scope.")
        if upload is not None:
            digest = hashlib.sha256(upload.getvalue()).hexdigest()
            if state.get("_scope_upload_digest") != digest:  # apply each file once
                state["_scope_upload_digest"] = digest
                try:
                    loaded, problems = scopes_from_text(upload.getvalue().decode("utf-8"), upload.name)
                    for scope in loaded:
                        put_scope(scope)
                    state["scope_upload_notes"] = [str(p) for p in problems]
                except (ScopeError, UnicodeDecodeError) as exc:
                    state["scope_upload_notes"] = [f"{upload.name}: {exc}"]
                st.rerun()
        for note in state.get("scope_upload_notes", []):
            st.warning(md_escape(note), icon="⚠️")
        if names:
            st.selectbox("Remove a scope", names, key="scope_remove")
            st.button("Remove", key="scope_remove_button", on_click=_remove_scope)
            st.download_button("Download scopes (YAML)", dump_scopes(app_scopes(), {s.name: s.kind for s in catalog.servers} if catalog is not None else None),
                               file_name="scopes.yaml",
                               mime="application/x-yaml", key="scope_download")
    return next((s for s in app_scopes() if s.name == state["scope_choice"]), None)


def view() -> View:
    """The :class:`View` for this run.

    ``app.py`` computes it before running the page. Streamlit treats a ``pages/`` folder next to
    the entry script as its legacy multipage mode until ``st.navigation`` has been called once in
    the process (the first run of a fresh server, e.g. a deep link to ``/search``, and every
    AppTest run); it then runs a page script without ``app.py``. In that case this function runs
    ``app.py`` itself, so the sidebar, widget state and routing are the same either way.
    """
    current = st.session_state.get("_view")
    if current is not None:
        return current
    if PagesManager.uses_pages_directory:
        # Streamlit ran this page without the router: run the router (which renders the sidebar
        # and then this page), and end this outer run.
        runpy.run_path(str(ROOT / "app.py"), run_name="__main__")
        st.stop()
    return sidebar()


def require_catalog(v: View) -> bool:
    """Show errors and an empty state; True when there is a catalog to show."""
    for error in v.errors:  # they quote catalog files and servers: shown literally
        st.error(md_escape(visible(error)), icon="⚠️")
    if v.inspector is None:
        st.info("No catalog loaded. Choose a sample catalog in the sidebar, or upload catalog files "
                "(catalog YAML/JSON, a recorded tools/list result, or a function array).")
        return False
    return True


def _peer_address() -> str | None:
    """The TCP peer of this session's connection, or ``None`` when there is none to tell.

    Not ``st.context.ip_address``: it says ``None`` both for a loopback peer and for a session
    with no peer at all (Streamlit's agent API, ``server.enableAgentApi``, runs sessions from
    HTTP requests whose Host header anyone can write), so it cannot tell "this machine" from
    "unknown"."""
    from streamlit.runtime import get_instance  # noqa: PLC0415
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: PLC0415

    ctx = get_script_run_ctx()
    client = get_instance().get_client(ctx.session_id) if ctx is not None else None
    context = getattr(client, "client_context", None) if client is not None else None
    remote_ip = getattr(context, "remote_ip", None) if context is not None else None
    return remote_ip if isinstance(remote_ip, str) and remote_ip else None


def client_check() -> ClientCheck:
    """Whether this browser is on the machine that runs the app
    (:func:`toolsearch.guard.check_client` over the connection's peer address and
    ``st.context.headers``); anything unknown counts as not. Pages ask it before starting a
    process or reading a path typed into the page."""
    try:
        peer = _peer_address()
        headers = dict(st.context.headers)
    except Exception:  # noqa: BLE001 - no request context: fail closed
        peer, headers = None, {}
    if peer is None:
        return ClientCheck(False, "the app cannot tell where this browser connects from")
    return check_client(peer, headers)


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|~<>$:&=")


def md_escape(text: str) -> str:
    """Untrusted text made literal inside a Streamlit markdown string (backslash escapes; no HTML,
    links, emphasis, math or colour directives). Prefer ``st.text``/``st.code`` where possible."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text)).replace("\n", " ")


def visible(text: Any) -> Any:
    """Untrusted tool text with invisible characters shown as markers (``⟨U+200B⟩``, decoded TAG
    text as ``⟨TAG '…'⟩``; :func:`toolsearch.invisible.reveal`); other values unchanged. Use it
    wherever tool names, descriptions or schemas from a catalog or server are shown."""
    return reveal(text) if isinstance(text, str) else text


def visible_json(value: Any) -> str:
    """``value`` as indented JSON for ``st.code``, every string through :func:`visible`."""
    import json  # noqa: PLC0415

    return json.dumps(reveal_data(value), ensure_ascii=False, indent=2)


def fmt_tokens(n: int) -> str:
    """``12,345 tokens``."""
    return f"{n:,} tokens"


def pct_of_context(tokens: int, context_length: int | None) -> str:
    """Share of the context length, or an em dash when it is unknown."""
    if not context_length:
        return "— (context unknown)"
    return f"{100 * tokens / context_length:.1f}% of context"


def tier_badge(plan: Plan) -> None:
    """Tier and form as colored badges."""
    label, color = TIER_BADGE[plan.tier]
    cols = st.columns([2, 1, 3])
    with cols[0]:
        st.badge(label, color=color)
    with cols[1]:
        st.badge(f"Form: {plan.listing_form}", color={"full": "green", "names": "blue", "mixed": "violet",
                                                        "groups": "orange", "none": "gray"}[plan.listing_form])
    cols[2].caption(FORM_HELP[plan.listing_form] if plan.activated else
                    "tool search is not active: every schema is sent as is, with no bridge tools")


def server_table(plan: Plan) -> list[dict[str, Any]]:
    """Rows for the per-server table (plain values; Streamlit shows them as text)."""
    return [{
        "server": visible(s.name), "kind": s.kind, "tools": s.tool_count, "state": s.state,
        "collapse #": str(s.collapse_rank) if s.collapse_rank else "—", "schemas (tokens)": s.schema_tokens, "full block (tokens)": s.full_tokens,
        "names block (tokens)": s.names_tokens, "summary line (tokens)": s.summary_tokens, "why": s.reason,
    } for s in plan.servers] + _down_live_servers()


def _down_live_servers() -> list[dict[str, Any]]:
    """Rows for live servers that failed or were skipped (no tools, so not in the plan), when
    the live catalog is shown."""
    result = st.session_state.get("live_result")
    if st.session_state.get("catalog") != LIVE or result is None:
        return []
    return [{"server": visible(s.name), "kind": "mcp", "tools": 0, "state": s.state, "collapse #": "—",
             "schemas (tokens)": 0, "full block (tokens)": 0, "names block (tokens)": 0, "summary line (tokens)": 0,
             "why": visible(s.reason or "")} for s in result.statuses if s.state in ("failed", "skipped")]


def style_states(df):
    """Color the ``state`` column with :data:`STATE_COLORS`."""
    def color(value: Any) -> str:
        c = STATE_COLORS.get(value)
        return f"color: white; background-color: {c}" if c else ""
    if df.empty or "state" not in df.columns:
        return df
    return df.style.map(color, subset=["state"])

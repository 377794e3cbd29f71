"""Shared app frame: sidebar controls, URL mirroring, cached engine objects, colors.

Pages import :func:`view` to get the current :class:`View`. Everything computed here comes from
the engine (`toolsearch`); this module only wires Streamlit widgets to it.
"""

from __future__ import annotations

import gc
import hashlib
import html
import runpy
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from pages import palette
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog, combine, load_source, load_text
from toolsearch.engine.config import ToolSearchConfig, parse_config
from toolsearch.engine.errors import ToolsearchError
from toolsearch.live.guard import ClientCheck, check_client
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.invisible import reveal, reveal_data
from toolsearch.analysis.sweep import plan_counts
from toolsearch.analysis.wording import counted
from toolsearch.live.client import catalog_key
from toolsearch.engine.plan import Plan
from toolsearch.engine.profile import Profile, default_profile, profile_from_text
from toolsearch.engine.scopes import Scope, ScopeError, dump_scopes, parse_scope_arg, scope_from_mapping, scopes_from_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES_DIR = ROOT / "sample_catalogs"
DEFAULT_SAMPLE = "team-workspace"
UPLOAD = "Upload files…"
LIVE = "Live servers"

#: One color per state / form, used by every table and chart (see pages/palette.py).
STATE_COLORS = palette.STATE_COLORS
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


def freeze_cached() -> None:
    """Take every object alive now out of the cyclic garbage collector's reach (``gc.freeze``).

    Call it after building a long-lived cached object (a catalog, its registration, a lint
    report): a large catalog is millions of objects, and each full collection would otherwise walk
    them all again (about a second at 50,000 tools). Objects in no reference cycle are still freed
    by reference counting when the cache drops them; for the rest (an inspector refers to itself)
    the cache's release hook, :func:`release_cached`, hands them back to the collector."""
    gc.freeze()


#: Set when a cache has let go of a frozen object: the next run collects once (see release_cached).
_RELEASED = {"pending": False}


def release_cached(_value: Any) -> None:
    """``on_release`` of the caches whose objects :func:`freeze_cached` froze: the frozen objects go
    back to the cyclic collector (``gc.unfreeze``), so the released one can be freed even where it
    refers to itself; :func:`collect_released` then collects and freezes again, after the run has
    dropped its last reference. Without this, an evicted catalog stayed in memory for good."""
    gc.unfreeze()
    _RELEASED["pending"] = True


def collect_released() -> None:
    """After a cache released an object (:func:`release_cached`): one full collection, which frees
    it, then everything still alive is frozen again. Costs about a second at 50,000 tools, once
    per release; does nothing otherwise."""
    if _RELEASED["pending"]:
        _RELEASED["pending"] = False
        gc.collect()
        gc.freeze()


@st.cache_resource
def _memo_store() -> "weakref.WeakKeyDictionary":
    return weakref.WeakKeyDictionary()


def memo(owner: Any, key: tuple, make: Any, size: int = 16) -> Any:
    """``make()`` once per ``owner`` (an engine object such as a planner, which the sidebar's
    cache keeps alive) and ``key``, shared by every browser session; the ``size`` most recently
    used results per owner are kept, and all of them go with their owner. For results that scale
    with the catalog but not with a slider move."""
    store = _memo_store().setdefault(owner, {})
    if key in store:
        store[key] = store.pop(key)
    else:
        while len(store) >= size:
            del store[next(iter(store))]
        store[key] = make()
    return store[key]


@st.cache_resource(show_spinner="Registering the catalog…", max_entries=24, on_release=release_cached)
def _inspector(key: str, naming: str, profile_key: str, _catalog: Catalog, _profile: Profile) -> Inspector:
    inspector = Inspector(_catalog, naming, _profile)
    freeze_cached()
    return inspector


@st.cache_resource(show_spinner="Loading the catalog…", max_entries=16, on_release=release_cached)
def _read_sample(path: str, mtime: float) -> Catalog:
    catalog = load_source(path)
    freeze_cached()
    return catalog


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
    #: What identifies the catalog shown, without holding it: ``(source key, tool naming, wording
    #: profile key, scope)`` (the source key names a sample file and its modification time, an
    #: upload's digest or a live catalog's content key). Caches kept per browser session key on it.
    catalog_key: tuple = ()

    @property
    def plan(self) -> Plan:
        """The plan for the current settings (computed once per run)."""
        if self._plan is None:
            assert self.inspector is not None
            self._plan = self.inspector.plan(self.config, self.context_length, self.tokenizer, self.display_tokenizer)
        return self._plan

    @property
    def planning_plan(self) -> Plan:
        """The current plan with costs counted in the planning tokenizer (the units of the budget)."""
        if self.display_tokenizer == self.tokenizer:
            return self.plan
        assert self.inspector is not None
        return self.inspector.plan(self.config, self.context_length, self.tokenizer, self.tokenizer)

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
    # the Tuning page's question: kept across pages and in the link
    "lengths": ("tuning_contexts", str), "goal": ("tuning_multi_goal", str), "headroom": ("tuning_headroom", float),
    "except": ("tuning_except", lambda text: [s for s in text.split(",") if s]),
    "keep": ("tuning_keep", lambda text: [s for s in text.split(",") if s]),
}
#: Default context lengths of the Tuning page (its first preset).
TUNING_CONTEXTS_DEFAULT = "32k, 128k, 200k, 1m"
_DEFAULTS = {
    "catalog": DEFAULT_SAMPLE, "ctx_choice": "200K", "ctx_custom": 64_000,
    "threshold_pct": C.THRESHOLD_PCT_DEFAULT, "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT,
    "listing": C.LISTING_DEFAULT, "enabled": C.ENABLED_DEFAULT,
    "search_default_limit": C.SEARCH_DEFAULT_LIMIT_DEFAULT, "max_search_limit": C.MAX_SEARCH_LIMIT_DEFAULT,
    "tokenizer": C.DEFAULT_TOKENIZER, "display_tokenizer": C.DEFAULT_TOKENIZER, "naming": "prefixed",
    "tuning_contexts": TUNING_CONTEXTS_DEFAULT, "tuning_multi_goal": "names", "tuning_headroom": 0.0,
    "tuning_except": [], "tuning_keep": [],
}
_CHOICES = {"ctx_choice": CONTEXT_CHOICES, "listing": list(C.TRI_STATE_VALUES), "enabled": list(C.TRI_STATE_VALUES),
            "tokenizer": list(C.TOKENIZERS), "display_tokenizer": list(C.TOKENIZERS), "naming": list(C.TOOL_NAMING),
            "tuning_multi_goal": ["full", "names", "listed", "any"]}
_RANGES = {"threshold_pct": (C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX),
           "listing_max_tokens": (C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX),
           "search_default_limit": (1, C.MAX_SEARCH_LIMIT_MAX), "max_search_limit": (C.MAX_SEARCH_LIMIT_MIN, C.MAX_SEARCH_LIMIT_MAX),
           "ctx_custom": (1, C.CONTEXT_LENGTH_MAX), "tuning_headroom": (0.0, 1000.0)}


#: Sidebar control groups, and the groups each page shows (by url_path; "" is the Overview). A
#: page not listed here shows every group. Hidden controls keep their values (see _keep_state).
CONTROL_GROUPS = ("scope", "budget", "switches", "search", "counting", "profile")
PAGE_CONTROLS: dict[str, tuple[str, ...]] = {
    "": ("scope", "budget", "switches", "counting", "profile"),
    "model_view": ("scope", "budget", "switches", "counting", "profile"),
    "search": ("scope", "budget", "switches", "search", "counting", "profile"),
    "costs": ("scope", "budget", "switches", "counting", "profile"),
    "tuning": ("scope", "budget", "switches", "counting", "profile"),
    "live": (),
    "cache_diff": ("scope", "budget", "switches", "counting", "profile"),
    "quality": ("scope", "search", "counting"),
    "strategies": ("scope", "budget", "switches", "search", "counting", "profile"),
    "scopes": ("scope", "budget", "switches", "search", "counting", "profile"),
    "sessions": ("scope", "budget", "switches", "search", "counting", "profile"),
    "report": ("scope", "budget", "switches", "search", "counting", "profile"),
}
#: URL values that stand for a catalog a link cannot carry (uploaded files, live servers).
_LINK_SOURCES = {"upload": UPLOAD, "live": LIVE}


def _init_state() -> None:
    """Seed widget state from defaults and, once per session, from the URL.

    A link only sets values; it never loads a file from elsewhere or starts a server: an unknown
    catalog name falls back to the default sample, and so does a link made while uploaded files
    or live servers were shown (neither travels in a link). Each fallback leaves a notice.
    """
    if st.session_state.get("_initialised"):
        return
    state = {key: (list(value) if isinstance(value, list) else value) for key, value in _DEFAULTS.items()}
    params = st.query_params
    ignored = []
    for qkey, (skey, parse) in _QP.items():
        if qkey not in params:
            continue
        try:
            value = parse(params[qkey])
        except (TypeError, ValueError):
            ignored.append(qkey)
            continue
        if skey in _CHOICES and value not in _CHOICES[skey]:
            ignored.append(qkey)
            continue
        if skey in _RANGES:  # nan, inf and out-of-range values are ignored (the default stays)
            low, high = _RANGES[skey]
            if not low <= value <= high:
                continue
        state[skey] = value
    notices = []  # (text, shown until the catalog changes: else shown on the first page only)
    asked = state["catalog"]
    if asked not in sample_catalogs():
        state["catalog"] = DEFAULT_SAMPLE
        if asked in _LINK_SOURCES:
            what = "uploaded files" if asked == "upload" else "live servers"
            notices.append((f"This link was made while {what} were shown; they are not part of a link, so the "
                            f"default sample catalog “{DEFAULT_SAMPLE}” is shown instead. Choose "
                            f"“{_LINK_SOURCES[asked]}” under Catalog source to load them again.", True))
        else:
            notices.append((f"The link names a catalog “{md_escape(asked)}” that is not a shipped sample, so the "
                            f"default sample catalog “{DEFAULT_SAMPLE}” is shown instead.", True))
    if ignored:
        notices.append(("The link's value for " + ", ".join(ignored) + " is not valid here and was ignored; "
                        "the default is used.", False))
    st.session_state["_link_notices"] = notices
    for key, value in state.items():
        st.session_state.setdefault(key, value)
    st.session_state["_initialised"] = True


def _keep_state() -> None:
    """Keep every sidebar value while its widget is not shown: Streamlit forgets the value of a
    widget that a run does not draw, and each page draws only the controls it uses. Writing the
    value back before the widgets are drawn makes it survive."""
    for key in _DEFAULTS:
        if key in st.session_state:
            value = st.session_state[key]
            st.session_state[key] = list(value) if isinstance(value, list) else value


def _sync_url() -> None:
    values = {}
    for qkey, (skey, _) in _QP.items():
        value = st.session_state.get(skey)
        if skey == "ctx_custom" and st.session_state.get("ctx_choice") != "custom":
            continue
        if skey == "catalog" and value in (UPLOAD, LIVE):
            value = "upload" if value == UPLOAD else "live"  # a marker: the link cannot carry them
        if value is not None and value != _DEFAULTS.get(skey):
            values[qkey] = ",".join(value) if isinstance(value, list) else str(value)
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
    ``toolsearch.engine.constants``) and a number input under it, exact to 0.1 % and 1 token. Both edit
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


def link_notices() -> None:
    """Show, at the top of the page, why a shared link's settings were not all applied (until the
    user picks another catalog)."""
    notices = st.session_state.get("_link_notices") or []
    if st.session_state.get("catalog") != DEFAULT_SAMPLE:
        notices = [(text, sticky) for text, sticky in notices if not sticky]
    for text, _ in notices:
        st.warning(text, icon=":material/link_off:")
    st.session_state["_link_notices"] = [(text, sticky) for text, sticky in notices if sticky]


def _store_uploads() -> None:
    """on_change of the catalog uploader: keep the files' bytes for the session, so the catalog
    survives reruns and pages that do not draw the uploader."""
    files = st.session_state.get("uploads") or []
    st.session_state["_upload_store"] = [(f.name, f.getvalue()) for f in files]


def _clear_uploads() -> None:
    st.session_state["_upload_store"] = []


@st.cache_resource(show_spinner="Loading the uploaded files…", max_entries=8)
def _load_uploads(digest: str, _files: tuple[tuple[str, bytes], ...]) -> tuple[Catalog | None, list[str]]:
    loaded, errors = [], []
    for name, data in _files:
        try:
            loaded.append(load_text(data.decode("utf-8"), name))
        except UnicodeDecodeError:
            errors.append(f"{name}: expected UTF-8 text")
        except ToolsearchError as exc:
            errors.append(str(exc))
    return (combine(loaded) if loaded else None), errors


def _catalog_controls(sb, samples: dict[str, Path], errors: list[str]) -> tuple[Catalog | None, str, str]:
    """The catalog source controls; returns ``(catalog, cache key, label)``."""
    sb.header("Catalog")
    options = [*samples, UPLOAD, LIVE]
    sb.selectbox("Catalog source", options, key="catalog",
                 help="A sample catalog shipped with toolsearch, or your own files (catalog YAML/JSON, "
                      "a recorded tools/list result, or an OpenAI-style function array).")
    catalog: Catalog | None = None
    source_label = st.session_state["catalog"]
    source_key = ""
    if st.session_state["catalog"] == UPLOAD:
        sb.file_uploader("Catalog files", type=["yaml", "yml", "json"], accept_multiple_files=True,
                         key="uploads", on_change=_store_uploads,
                         help="Several files combine into one catalog. They stay loaded for this browser "
                              "session (until you clear them), on every page.")
        files = tuple(st.session_state.get("_upload_store") or ())
        if files:
            digest = hashlib.sha256(b"\0".join(n.encode() + b"\0" + d for n, d in files)).hexdigest()[:16]
            catalog, load_errors = _load_uploads(digest, files)
            errors.extend(load_errors)
            if not st.session_state.get("uploads"):
                sb.caption("Kept for this session: " + ", ".join(md_escape(n) for n, _ in files))
                sb.button("Clear uploaded files", key="uploads_clear", on_click=_clear_uploads)
            if catalog is not None:
                source_key = f"upload:{digest}"
                source_label = catalog.name
    elif st.session_state["catalog"] == LIVE:
        catalog = st.session_state.get("live_catalog")
        if catalog is None:
            errors.append("No live catalog yet: open the Live servers page, add your servers and press Connect.")
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
    return catalog, source_key, source_label


def sidebar(page: str | None = None) -> View:
    """Render the shared sidebar and return the current :class:`View`.

    Args:
        page: the current page's url_path (``""`` for the Overview); it picks the control groups
            shown (:data:`PAGE_CONTROLS`). ``None`` shows every group.
    """
    _init_state()
    _keep_state()
    groups = set(PAGE_CONTROLS.get(page, CONTROL_GROUPS) if page is not None else CONTROL_GROUPS)
    errors: list[str] = []
    sb = st.sidebar
    catalog, source_key, source_label = _catalog_controls(sb, sample_catalogs(), errors)
    scope = _scope_sidebar(sb, catalog) if "scope" in groups else selected_scope()

    if "budget" in groups:
        sb.header("Model and budget")
        sb.selectbox("Context length", CONTEXT_CHOICES, key="ctx_choice",
                     help="The model's context window in tokens. 'unknown' uses the reference fallback of 10,000 for the percentage leg.")
        if st.session_state["ctx_choice"] == "custom":
            sb.number_input("Custom context length (tokens)", min_value=1, max_value=C.CONTEXT_LENGTH_MAX, step=1000, key="ctx_custom")
        _budget_controls(sb)
    if "switches" in groups:
        with sb.expander(f"Tool search switches · enabled {st.session_state['enabled']} · "
                         f"listing {st.session_state['listing']}"):
            col1, col2 = st.columns(2)
            col1.selectbox("enabled", list(C.TRI_STATE_VALUES), key="enabled")
            col2.selectbox("listing", list(C.TRI_STATE_VALUES), key="listing")
    if "search" in groups:
        with sb.expander(f"Search limits · default {st.session_state['search_default_limit']} · "
                         f"max {st.session_state['max_search_limit']}"):
            st.number_input("search_default_limit", min_value=1, max_value=C.MAX_SEARCH_LIMIT_MAX,
                            key="search_default_limit", help="Matches per query when the model gives no limit.")
            st.number_input("max_search_limit", min_value=C.MAX_SEARCH_LIMIT_MIN, max_value=C.MAX_SEARCH_LIMIT_MAX,
                            key="max_search_limit", help="The largest limit the model may ask for.")
    if "counting" in groups:
        with sb.expander(f"Counting and naming · {st.session_state['tokenizer']} · {st.session_state['naming']}"):
            st.selectbox("Planning tokenizer", list(C.TOKENIZERS), key="tokenizer",
                         help="Decides whether the listing fits. chars4 (characters ÷ 4) is what the reference harness uses.")
            st.selectbox("Display tokenizer", list(C.TOKENIZERS), key="display_tokenizer",
                         help="Used for the token costs shown in tables and charts.")
            st.radio("Tool names", list(C.TOOL_NAMING), key="naming", horizontal=True,
                     help="prefixed: mcp__<server>__<tool>, as the reference registers MCP tools; as-is: catalog names.")
    profile, profile_key = _profile_controls(sb, "profile" in groups, errors)

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
    collect_released()  # a catalog the cache just let go of: freed now, not at some later collection
    return View(inspector=inspector, config=config, context_length=context_length_from_state(),
                tokenizer=st.session_state["tokenizer"], display_tokenizer=st.session_state["display_tokenizer"],
                source_label=source_label, errors=errors,
                catalog_key=(source_key, st.session_state["naming"], profile_key, scope) if catalog is not None else ())


# --- session scopes (sidebar picker and editor) ----------------------------------------------------
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
        st.multiselect("Servers", servers, key="scope_edit_servers")
        st.text_input("Only these tools (patterns, comma-separated)", key="scope_edit_include",
                      help="Optional whitelist: exact names or globs (* ? [..]) matched against the wire name "
                           "(mcp__slack__post_message) or the server's own name (post_message). When given, "
                           "the exclusions below are ignored.")
        st.text_input("Leave out tools (patterns, comma-separated)", key="scope_edit_exclude", placeholder="delete_*")
        st.button("Save scope", key="scope_save", on_click=_save_scope_from_editor, width="stretch")
        if state.get("scope_editor_error"):
            st.error(md_escape(state["scope_editor_error"]), icon=":material/warning:")
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
            st.warning(md_escape(note), icon=":material/warning:")
        if names:
            st.selectbox("Remove a scope", names, key="scope_remove")
            st.button("Remove", key="scope_remove_button", on_click=_remove_scope)
            st.download_button("Download scopes (YAML)", dump_scopes(app_scopes(), {s.name: s.kind for s in catalog.servers} if catalog is not None else None),
                               file_name="scopes.yaml",
                               mime="application/x-yaml", key="scope_download")
    return next((s for s in app_scopes() if s.name == state["scope_choice"]), None)


def _store_profile() -> None:
    upload = st.session_state.get("profile_upload")
    st.session_state["_profile_store"] = (upload.name, upload.getvalue()) if upload is not None else None


def _profile_controls(sb, shown: bool, errors: list[str]) -> tuple[Profile, str]:
    """The wording-profile uploader (kept for the session like catalog uploads); returns the
    profile and its cache key."""
    stored = st.session_state.get("_profile_store")
    if shown:
        label = f"Wording profile · {stored[0] if stored else 'default'}"
        with sb.expander(label):
            st.file_uploader("Wording profile (YAML)", type=["yaml", "yml"], key="profile_upload",
                             on_change=_store_profile,
                             help="Optional: your harness's exact wording. Default: the toolsearch profile.")
            st.download_button("Download the default profile",
                               (ROOT / "toolsearch" / "engine" / "profiles" / "default.yaml").read_bytes(),
                               file_name="toolsearch-profile.yaml", mime="application/x-yaml", key="profile_download",
                               help="A starting point for your own wording: every key is required.")
    if stored:
        name, data = stored
        try:
            return profile_from_text(data.decode("utf-8"), name), hashlib.sha256(data).hexdigest()[:16]
        except (ToolsearchError, UnicodeDecodeError) as exc:
            errors.append(f"Wording profile not used: {exc}")
    return default_profile(), "default"


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


#: Figures kept per browser session (see :func:`figure`); the oldest go first above this many.
FIGURE_MEMO_SIZE = 48


def figure(v: View, name: str, build: Any, *extra: Any) -> Any:
    """``build()`` (a plotly figure for the current catalog and settings), kept for this browser
    session per catalog, settings and ``extra``: moving a slider back to a value seen before, or a
    rerun that changes nothing the figure shows (a widget elsewhere on the page), reuses it
    instead of building it again (tens of milliseconds each). Entries are keyed on
    :attr:`View.catalog_key`, which names the catalog without holding it: a catalog that the
    sidebar's cache lets go of is freed even while this session keeps its figures."""
    key = (name, v.catalog_key, v.config, v.context_length, v.tokenizer, v.display_tokenizer, *extra)
    memo = st.session_state.setdefault("_figure_memo", {})
    hit = memo.get(key)
    if hit is not None:
        memo[key] = memo.pop(key)  # most recently used last
        return hit
    fig = build()
    memo[key] = fig
    while len(memo) > FIGURE_MEMO_SIZE:
        memo.pop(next(iter(memo)))
    return fig


def require_catalog(v: View) -> bool:
    """Show errors, the catalog's skipped and repaired items, and an empty state, at the top of the
    page; True when there is a catalog to show."""
    for error in v.errors:  # they quote catalog files and servers: shown literally
        st.error(md_escape(visible(error)), icon=":material/error:")
    if v.inspector is None:
        st.info("No catalog loaded. Choose a sample catalog in the sidebar, or upload catalog files "
                "(catalog YAML/JSON, a recorded tools/list result, or a function array).")
        return False
    catalog_problems(v)
    return True


def catalog_problems(v: View) -> None:
    """Skipped (error) and repaired (warning) items of the loaded catalog, in one notice at the top."""
    assert v.inspector is not None
    problems = [p for p in v.inspector.registration.problems if p.severity in ("error", "warning")]
    if not problems:
        return
    skipped = sum(p.severity == "error" for p in problems)
    repaired = len(problems) - skipped
    parts = ([f"{skipped:,} item{'s' if skipped != 1 else ''} skipped"] if skipped else []) + \
            ([f"{repaired:,} repaired"] if repaired else [])
    box = st.error if skipped else st.warning
    box(f"The catalog loaded with problems: {' and '.join(parts)}. The rest of the catalog is shown.",
        icon=":material/report:")
    with st.expander(f"Problems in {md_escape(v.source_label)} ({len(problems):,})", expanded=skipped > 0 and len(problems) <= 5):
        from pages.tables import literal_table

        literal_table([{"severity": p.severity, "where": p.where, "message": p.message} for p in problems],
                      key="catalog_problems", nowrap=("severity",))


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
    (:func:`toolsearch.live.guard.check_client` over the connection's peer address and
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
    text as ``⟨TAG '…'⟩``; :func:`toolsearch.analysis.invisible.reveal`); other values unchanged. Use it
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
    """Tier and form as one colored bar (the form's state color), and a notice when they changed
    since the previous run (a slider move that crosses a tier boundary is hard to miss)."""
    label, _ = TIER_BADGE[plan.tier]
    color = STATE_COLORS[plan.listing_form] if plan.activated else STATE_COLORS["visible"]
    text = palette.text_on(color)
    words = (FORM_HELP[plan.listing_form] if plan.activated else
             "tool search is not active: every schema is sent as is, with no bridge tools")
    # Engine values only (tier number, form name, fixed wording): safe as HTML.
    st.markdown(
        f'<div data-testid="tier-bar" style="background:{color};color:{text};padding:.45rem .8rem;'
        f'border-radius:.5rem;font-size:1.05rem;margin:.2rem 0 .6rem 0">'
        f'<b>{label}</b> &nbsp;·&nbsp; <b>Form: {html.escape(plan_counts(plan).label)}</b> &nbsp;·&nbsp; {words}</div>',
        unsafe_allow_html=True)
    view = st.session_state.get("_view")
    source = view.source_label if isinstance(view, View) else None
    now = (plan.tier, plan.listing_form, source)
    before = st.session_state.get("_last_tier_form")
    st.session_state["_last_tier_form"] = now
    if before is not None and before[:2] != now[:2]:
        change = []
        if before[0] != now[0]:
            change.append(f"tier {before[0]} → {now[0]}")
        if before[1] != now[1]:
            change.append(f"form {before[1]} → {now[1]}")
        # The catalog source is not named here (this line is HTML, and a source label is user text).
        cause = "the catalog" if before[2] != now[2] else "the last setting"
        message = f"Changed with {cause}: " + ", ".join(change)
        st.markdown(
            f'<div data-testid="tier-change" style="border:2px solid #000;border-radius:.5rem;padding:.35rem .8rem;'
            f'margin-bottom:.6rem;font-weight:600">⚑ {message}</div>', unsafe_allow_html=True)
        st.toast(message, icon=":material/swap_vert:")


def steps_table(plan: Plan) -> None:
    """The degradation steps as a static table (no inner scroll): the step that was sent in bold."""
    import pandas as pd

    sent = next((i for i, s in enumerate(plan.steps) if s.fits), None)
    table = pd.DataFrame([{"step": i + 1, "form": s.form, "collapsed servers": ", ".join(s.collapsed) or "—",
                           "listing (tokens)": s.tokens, "fits": "yes" if s.fits else "no"}
                          for i, s in enumerate(plan.steps)])

    from pages.tables import literal_table

    if len(table) > STATIC_TABLE_ROWS:  # hundreds of servers: the table scrolls (and pages), so say where
        st.caption(f"{counted(len(table), 'step')}; the one sent is step {sent + 1:,}." if sent is not None else
                   f"{counted(len(table), 'step')}; none fits.")
    literal_table(table, key="steps_table", styles=STATE_STYLES,
                  cell_css=lambda row, column: SENT_STEP_CSS if sent is not None and row["step"] == sent + 1 else "")


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


def _state_css(value: Any) -> str:
    """CSS for a state cell: the state's color with black or white text (AA contrast)."""
    return palette.cell_style(STATE_COLORS.get(value))


#: A working indicator for runs over 250 ms (see app.py): hidden until the app's root says a run is
#: in progress (``data-test-script-state``), then shown after a delay, with a bar sliding along the
#: top of the window. Its element container takes no room in the page.
BUSY_BAR_HTML = """<style>
.stElementContainer:has(.ts-busy){position:absolute;height:0;margin:0;overflow:visible}
.ts-busy{position:fixed;top:0;left:0;right:0;height:4px;z-index:1000000;pointer-events:none;opacity:0;
  overflow:hidden;background:rgba(0,114,178,.18)}
.ts-busy::before{content:"";position:absolute;top:0;bottom:0;left:0;width:30%;background:#0072B2;
  transform:translateX(-100%)}
[data-test-script-state="running"] .ts-busy,[data-test-script-state="rerunRequested"] .ts-busy{
  animation:ts-busy-in 0s linear .25s forwards}
[data-test-script-state="running"] .ts-busy::before,[data-test-script-state="rerunRequested"] .ts-busy::before{
  animation:ts-busy-slide 1.1s ease-in-out .25s infinite}
@keyframes ts-busy-in{to{opacity:1}}
@keyframes ts-busy-slide{from{transform:translateX(-100%)}to{transform:translateX(340%)}}
@media (prefers-reduced-motion:reduce){
  [data-test-script-state="running"] .ts-busy::before{animation:none;transform:none;width:100%}}
</style><div class="ts-busy" data-testid="busy-bar" role="status" aria-label="Working"></div>"""

#: Page-wide layout rules (see app.py). A wrapping row of metrics (``st.container(horizontal=True)``
#: holding only metrics) keeps its own gap between metrics side by side, but when a narrow page
#: moves a metric to the next line, the lines sit 1rem apart (the page's spacing between elements),
#: not a whole gap apart (4rem for ``gap="large"``), so the moved metric stays with its row.
METRIC_ROWS_CSS = ("<style>[data-testid=stHorizontalBlock]:has(> [data-testid=stElementContainer] > "
                   "[data-testid=stMetric]){row-gap:1rem}</style>")

#: ``styles`` for :func:`pages.tables.literal_table`: state cells in the state colors.
STATE_STYLES = {"state": _state_css}
#: The sent step of the degradation table.
SENT_STEP_CSS = "font-weight:700;background-color:#F0F0F0"


def style_states(df, columns: tuple[str, ...] = ("state",)):
    """Color the state columns with :data:`STATE_COLORS` (text in black or white, whichever
    contrasts more) and print integer columns with thousands separators (``29,700``), as the
    metrics do. Returns a pandas Styler, or ``df`` itself when it is empty."""
    def color(value: Any) -> str:
        return palette.cell_style(STATE_COLORS.get(value))
    if df.empty:
        return df
    styler = df.style.format(thousands, subset=int_columns(df))
    present = [c for c in columns if c in df.columns]
    if "why" in df.columns:  # prose: room to read it instead of a sliver beside the numbers
        styler = styler.map(lambda _: "min-width: 15rem", subset=["why"])
    return styler.map(color, subset=present) if present else styler


def thousands(value: Any) -> str:
    """``29700`` → ``29,700``; other values as text (``None`` → ``—``)."""
    if value is None:
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    try:
        if float(value).is_integer() and not isinstance(value, bool):
            return f"{int(value):,}"
    except (TypeError, ValueError):
        pass
    return str(value)


def int_columns(df) -> list[str]:
    """The integer-valued columns of a DataFrame (booleans excluded)."""
    import pandas as pd

    return [c for c in df.columns if pd.api.types.is_integer_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]


def number_columns(df) -> dict[str, Any]:
    """``column_config`` for ``st.dataframe``: integers right-aligned with thousands separators
    in any browser locale; a ``why`` column wide enough to read."""
    config: dict[str, Any] = {}
    if "why" in df.columns:
        config["why"] = st.column_config.TextColumn("why", width="large")
    return config


#: Up to this many servers the per-server table gives the reasons below it, grouped; above it the
#: reasons are a column of the table, and long tables offer a sort order.
STATIC_TABLE_ROWS = 40


def static_or_scrolling(table, key: str = "table") -> None:
    """A table with state colors and thousands separators, as a literal-text table (every cell in
    full, catalog text never read as Markdown; it scrolls above 15 rows and pages above 200, see
    :func:`pages.tables.literal_table`). ``key`` names it (its ``data-table`` attribute)."""
    from pages.tables import literal_table

    literal_table(table, key=key, styles=STATE_STYLES)


def sort_control(table, key: str, default: str):
    """A "Sort by" picker over ``table``'s columns for long tables (those a reader scans for the
    largest or a name): numbers sort largest first, text A to Z, ties keep the table order. The
    choice is kept per ``key`` (session key ``<key>_sort``); ``default`` is the first choice's
    label (the table's own order). Returns the table in the chosen order."""
    import pandas as pd  # noqa: PLC0415

    columns = [str(c) for c in table.columns]
    choice = st.selectbox("Sort by", [default, *columns], key=f"{key}_sort",
                          help="Numbers largest first, text A to Z.")
    if choice == default or choice not in columns:
        return table
    values = table[choice]
    numeric = pd.to_numeric(values, errors="coerce")
    if numeric.notna().any():  # "—" and other text go last
        order = sorted(range(len(table)), key=lambda i: (pd.isna(numeric.iloc[i]), -(numeric.iloc[i] if
                                                          pd.notna(numeric.iloc[i]) else 0)))
    else:
        order = sorted(range(len(table)), key=lambda i: str(values.iloc[i]).casefold())
    return table.iloc[order]


def reasons(plan: Plan) -> dict[str, list[str]]:
    """``{why: [server, ...]}`` in table order: each server's state reason and the servers it covers."""
    out: dict[str, list[str]] = {}
    for s in plan.servers:
        out.setdefault(s.reason, []).append(s.name)
    return out


def server_dataframe(plan: Plan, key: str | None = None) -> None:
    """The per-server table: state cells in the state colors, numbers with thousands separators,
    the ``why`` column in full."""
    import pandas as pd

    table = pd.DataFrame(server_table(plan))
    if table.empty:
        st.info("No servers.")
    elif len(table) <= STATIC_TABLE_ROWS:
        # The reasons are prose: below the table, one line per reason with its servers, so that
        # neither they nor the numbers are cut at any width.
        from pages.tables import literal_table

        literal_table(table.drop(columns="why"), key=key or "server_table", styles=STATE_STYLES)
        why: dict[str, list[str]] = {}  # from the rows: live servers that failed have a reason too
        for server, reason in zip(table["server"], table["why"]):
            why.setdefault(reason, []).append(server)
        st.markdown("\n".join(f"- **{md_escape(reason)}**: {', '.join(md_escape(s) for s in servers)}"
                               for reason, servers in why.items()))
    else:  # many servers: the reasons in a column (a list of them would be as long as the table)
        from pages.tables import literal_table

        name = key or "server_table"
        kinds = set(table["kind"])
        if len(kinds) == 1:  # the same in every row: room for the reasons instead
            st.caption(f"Every server is of kind {next(iter(kinds))}.")
            table = table.drop(columns="kind")
        literal_table(sort_control(table, name, "plan order"), key=name,
                      styles=STATE_STYLES, nowrap=("kind", "state"))

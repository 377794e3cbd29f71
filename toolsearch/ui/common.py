"""The app frame's state: the shared sidebar, its settings mirrored in the URL, and the View.

Pages call :func:`view` to get the current :class:`View` (catalog, settings, plan). The frame's
other pieces live in their own modules and are re-exported here for the views (one import):
:mod:`~toolsearch.ui.text` (literal text and numbers), :mod:`~toolsearch.ui.styles` (CSS and cell
colors), :mod:`~toolsearch.ui.cache` (cached engine objects and figures),
:mod:`~toolsearch.ui.origin` (where this browser connects from), :mod:`~toolsearch.ui.sources`
(catalog source labels) and :mod:`~toolsearch.ui.plan_blocks` (the tier bar, steps and server
tables). Everything computed comes from the engine (``toolsearch``); this module only wires
Streamlit widgets to it.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import re
import runpy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog, combine, load_text, merged_servers
from toolsearch.engine.config import ToolSearchConfig, changed_keys, clamped_words, parse_config
from toolsearch.engine.wording import counted, settings_words
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.readers import decode_bytes, source_stem
from toolsearch.engine.invisible import shortened
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.samples import docs_elsewhere, samples_dir
from toolsearch.cli.textfmt import goal_argument, headroom_pct, parse_listing_max_tokens, parse_threshold_pct, reserve_pct
from toolsearch.cli.textfmt import context_lengths_with_repeats
from toolsearch.live.client import catalog_key
from toolsearch.engine.plan import Plan
from toolsearch.engine.profile import DEFAULT_PROFILE_PATH, Profile, default_profile, profile_from_text
from toolsearch.engine.scopes import join_escaped, split_escaped
from toolsearch.ui.cache import (_inspector, _read_sample, collect_released, figure, freeze_cached,  # noqa: F401
                                 memo, release_cached)
from toolsearch.ui.origin import client_check  # noqa: F401
from toolsearch.ui.harness_upload import HarnessUpload, harness_upload
from toolsearch.ui.text import _ordinal, upload_labels  # noqa: F401
from toolsearch.ui.scope_sidebar import (WHOLE_CATALOG, _scope_sidebar, _selected_scope_arg, app_scopes,  # noqa: F401
                                         put_scope, selected_scope)
from toolsearch.ui.plan_blocks import (FORM_HELP, SIDEBAR_SETTINGS, STATIC_TABLE_ROWS, TIER_BADGE, int_columns,  # noqa: F401
                                       number_columns, reasons, server_dataframe, server_table, sort_control,
                                       static_or_scrolling, steps_table, style_states, tier_badge)
from toolsearch.ui.session_sources import sample_files as sample_session_files
from toolsearch.ui.sources import COMBINE, COMBINE_PARAM, DEFAULT_SAMPLE, LIVE, TEXT_UPLOAD_MB, UPLOAD
from toolsearch.ui.styles import (BUSY_BAR_HTML, METRIC_ROWS_CSS, NO_GRID_CSV_CSS, SENT_STEP_CSS, SLIDER_VALUE_CSS,  # noqa: F401
                                  STATE_COLORS, STATE_STYLES, WHOLE_TAGS_CSS, WHY_KEY, WHY_LINE_CSS)
from toolsearch.ui.text import (fmt_tokens, link_ignored_words, link_name, md_escape, pct_of_context,  # noqa: F401
                              table_name, thousands, visible, visible_json, visible_name)

SAMPLES_DIR = samples_dir("sample_catalogs")

PRESET_LABELS = {"8K": 8_000, "32K": 32_000, "128K": 128_000, "200K": 200_000, "400K": 400_000, "1M": 1_000_000}
CONTEXT_CHOICES = [*PRESET_LABELS, "custom", "unknown"]


def sample_catalogs() -> dict[str, Path]:
    """``{stem: path}`` of the shipped sample catalogs, default first."""
    paths = sorted(SAMPLES_DIR.glob("*.yaml"))
    found = {p.stem: p for p in paths}
    if DEFAULT_SAMPLE in found:
        found = {DEFAULT_SAMPLE: found.pop(DEFAULT_SAMPLE), **found}
    return found


def shipped_sample_files() -> list[str]:
    """The catalog files of the sidebar's catalog as a command names them, when it is made of
    shipped samples only (a sample, and any samples combined with it): ``sample_catalogs/NAME.yaml``
    each, relative to the project, which ``toolsearch`` reads from any folder (the checkout's file,
    or an installed wheel's copy). ``[]`` for uploaded files and live servers, alone or combined:
    they have no path a user can run a command on again, so a command shows ``CATALOG`` there."""
    samples = sample_catalogs()
    names = [st.session_state.get("catalog"), *(st.session_state.get("catalog_more") or [])]
    if not all(name in samples for name in names):
        return []
    return [f"{SAMPLES_DIR.name}/{samples[name].name}" for name in names]


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


def _flag(text: str) -> bool:
    """A yes/no value of a link (``True`` / ``False``, as the link writes it; ``1`` / ``0``).

    Raises:
        ValueError: anything else (the link's value is then ignored, with a notice)."""
    words = {"true": True, "1": True, "false": False, "0": False}
    if text.strip().lower() not in words:
        raise ValueError(text)
    return words[text.strip().lower()]


_QP = {  # query key -> (session key, parser)
    "catalog": ("catalog", str), "ctx": ("ctx_choice", str), "ctxn": ("ctx_custom", int),
    # pct, cap and headroom as the command line's options read them (5%, 4k, 10%), checked first by _FIELD_CHECKS
    "pct": ("threshold_pct", lambda text: float(parse_threshold_pct(text))),
    "cap": ("listing_max_tokens", lambda text: int(parse_listing_max_tokens(text))), "listing": ("listing", str),
    "enabled": ("enabled", str), "limit": ("search_default_limit", int), "maxlimit": ("max_search_limit", int),
    "tok": ("tokenizer", str), "dtok": ("display_tokenizer", str), "names": ("naming", str),
    # the Tuning page's question: kept across pages and in the link
    "lengths": ("tuning_contexts", str), "goal": ("tuning_multi_goal", str), "headroom": ("tuning_headroom", headroom_pct),
    "reserve": ("tuning_reserve", reserve_pct), "goals": ("tuning_length_goals", str),
    # server names may hold commas: written with a backslash before them (join_escaped)
    "except": ("tuning_except", lambda text: [s for s in split_escaped(text) if s]),
    "keep": ("tuning_keep", lambda text: [s for s in split_escaped(text) if s]),
    "keepcalled": ("tuning_keep_called", _flag),
    "sessions": ("tuning_session_samples", lambda text: list(dict.fromkeys(s for s in split_escaped(text) if s))),
}
#: Default context lengths of the Tuning page (its first preset).
TUNING_CONTEXTS_DEFAULT = "32k, 128k, 200k, 1m"
_DEFAULTS = {
    "catalog": DEFAULT_SAMPLE, "ctx_choice": "200K", "ctx_custom": 64_000,
    "threshold_pct": C.THRESHOLD_PCT_DEFAULT, "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT,
    "listing": C.LISTING_DEFAULT, "enabled": C.ENABLED_DEFAULT,
    "search_default_limit": C.SEARCH_DEFAULT_LIMIT_DEFAULT, "max_search_limit": C.MAX_SEARCH_LIMIT_DEFAULT,
    "tokenizer": C.DEFAULT_TOKENIZER, "display_tokenizer": C.DEFAULT_TOKENIZER, "naming": "prefixed",
    "tuning_contexts": TUNING_CONTEXTS_DEFAULT, "tuning_multi_goal": "names", "tuning_headroom": C.HEADROOM_PCT_DEFAULT,
    "tuning_reserve": C.RESERVE_PCT_DEFAULT, "tuning_length_goals": "",
    "tuning_except": [], "tuning_keep": [], "tuning_keep_called": False, "tuning_session_samples": [],
}
_CHOICES = {"ctx_choice": CONTEXT_CHOICES, "listing": list(C.TRI_STATE_VALUES), "enabled": list(C.TRI_STATE_VALUES),
            "tokenizer": list(C.TOKENIZERS), "display_tokenizer": list(C.TOKENIZERS), "naming": list(C.TOOL_NAMING),
            "tuning_multi_goal": ["full", "names", "listed", "any"]}
_RANGES = {"threshold_pct": (C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX),
           "listing_max_tokens": (C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX),
           "search_default_limit": (1, C.MAX_SEARCH_LIMIT_MAX), "max_search_limit": (C.MAX_SEARCH_LIMIT_MIN, C.MAX_SEARCH_LIMIT_MAX),
           "ctx_custom": (1, C.CONTEXT_LENGTH_MAX), "tuning_headroom": (0.0, C.HEADROOM_PCT_MAX),
           "tuning_reserve": (0.0, C.RESERVE_PCT_MAX)}
#: List values whose every item must be one of these (names of shipped sample files).
_LIST_CHOICES = {"tuning_session_samples": lambda: list(sample_session_files())}


#: The most context lengths one list may name: each is a plan (and a row or column of every table
#: on the page), so a link with thousands of them would keep the page busy for minutes.
MAX_CONTEXT_LENGTHS = 100


def items_over_limit(text: str) -> int | None:
    """The number of items of a comma-separated list of context lengths (``32k, 128k``) or of
    per-length goals (``200k=full, 1m=full``) when more than :data:`MAX_CONTEXT_LENGTHS` of them
    differ, else ``None``. Counted before anything is parsed, so a list of thousands is refused at
    once, whatever its items are."""
    parts = text.split(",")
    if len(parts) > MAX_CONTEXT_LENGTHS and len({p.strip().lower() for p in parts}) > MAX_CONTEXT_LENGTHS:
        return len(parts)
    return None


def parse_context_lengths(text: str) -> tuple[list[int | None], str | None]:
    """Context lengths from a comma-separated text (``32k, 128k, 1m``, ``unknown``), duplicates
    counted once (:func:`context_length_repeats` says so), order kept, read by the command line's own parser
    (:func:`toolsearch.cli.textfmt.context_lengths_with_repeats`, so an empty item, a thousands separator
    or a bad number gets the message ``--context-lengths`` gives); or that message, or one saying
    that the list names more than :data:`MAX_CONTEXT_LENGTHS` lengths (:func:`items_over_limit`)."""
    count = items_over_limit(text)
    if count is not None:
        return [], (f"Context lengths: at most {MAX_CONTEXT_LENGTHS} lengths, this list has {count:,}; "
                    "keep the lengths of the models you run.")
    try:
        lengths, _repeats = context_lengths_with_repeats(text)
    except argparse.ArgumentTypeError as exc:
        return [], f"Context lengths: {exc}."
    return lengths, None


def context_length_repeats(text: str) -> str | None:
    """What a list of context lengths counts once because it gives a length more than once
    (``32k, 32000``), in the words ``--context-lengths`` warns with
    (:func:`toolsearch.cli.textfmt.context_lengths_with_repeats`): ``"Context lengths: 32000
    repeats 32k (32,000 tokens); counted once."``, for a caption under the field; ``None`` when no
    length repeats, or when the list has an error (:func:`parse_context_lengths` says that)."""
    if parse_context_lengths(text)[1] is not None:
        return None
    repeats = context_lengths_with_repeats(text)[1]
    return f"Context lengths: {'; '.join(repeats)}." if repeats else None


#: A ``--goal`` option pasted in front of a field's goals (``--goal names,128k=full``, ``--goal=…``).
_GOAL_OPTION = re.compile(r"^\s*--goal(?:\s*=\s*|\s+)")


def _pasted_goal(text: str) -> tuple[str, str | None]:
    """``text`` without a leading ``--goal`` and, when what is left starts with a bare goal before
    ``LENGTH=GOAL`` items (``names,128k=full``, as ``recommend --goal`` takes it), the items and that
    goal; else ``text`` (the ``--goal`` taken off) and ``None``."""
    text = _GOAL_OPTION.sub("", text, count=1)
    try:
        parsed = goal_argument(text, empty_items=True)
    except argparse.ArgumentTypeError:
        return text, None
    if parsed.goal is None or not parsed.by_length:
        return text, None
    items = [p.strip() for p in text.split(",") if p.strip() and "=" in p]
    return ", ".join(items), parsed.goal


def length_goals_note(text: str, goal: str | None,
                      context_lengths: Sequence[int | None] | None = None) -> str | None:
    """What :func:`parse_length_goals` read from a ``--goal`` value pasted whole into the *Other goal
    at some lengths* field (plain text, for a caption under the field; ``goal``: the goal selector's).

    * ``--goal names,128k=full``: its ``LENGTH=GOAL`` items are used, and its leading goal belongs
      in the goal selector, which holds ``goal``.
    * ``--goal 200k=full`` (no leading goal, which ``recommend --goal`` refuses unless every length
      is named): its items are used, and the lengths of ``context_lengths`` it does not name take the
      goal selector's goal, named with them; where it names every length, that the selector's goal
      is not used. Without ``context_lengths``, "the other lengths".

    ``None`` when nothing was pasted as ``--goal`` (items typed as the field takes them), or the text
    has an error (said as an error)."""
    items, leading = _pasted_goal(text)
    by_length, error = parse_length_goals(text)
    if error is not None:
        return None
    if leading is not None:
        where = ("which holds it" if goal == leading else
                 f"which holds {goal}: choose {leading} there to use it" if goal else "which sets it")
        return (f"Other goals: read as {items}. The leading goal, {leading}, is the goal of every other length: it "
                f"belongs in “Goal (all other lengths)”, {where}.")
    if not _GOAL_OPTION.match(text) or not by_length:
        return None
    from toolsearch.analysis.quantities import length_label  # noqa: PLC0415

    read = ", ".join(p.strip() for p in items.split(",") if p.strip())
    others = None if context_lengths is None else [c for c in context_lengths if c not in by_length]
    if others == []:
        return (f"Other goals: read as {read}. It gives every listed length a goal of its own, so “Goal (all other "
                "lengths)” is not used.")
    if others is None:
        named = "the other lengths"
    else:
        labels = [length_label(c) for c in others]
        named = "the other " + ("length, " if len(labels) == 1 else "lengths, ") + (
            labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]) + ","
    held = f", {goal}" if goal else ""
    return (f"Other goals: read as {read}. It has no goal before its LENGTH=GOAL items, so {named} take the goal "
            f"in “Goal (all other lengths)”{held}.")


def parse_length_goals(text: str) -> tuple[dict[int | None, str], str | None]:
    """Per-length goals from text such as ``200k=full, 1m=full`` (the ``LENGTH=GOAL`` items of
    ``recommend --goal``; blank: none); or an error message naming the first bad item, or one
    saying that the list has more than :data:`MAX_CONTEXT_LENGTHS` items (:func:`items_over_limit`:
    each goal is for a length of the context lengths, which hold no more). A bare goal alone is
    refused: the page's goal selector gives the goal of the other lengths. A ``--goal`` value pasted
    whole (``--goal names,128k=full``) gives its ``LENGTH=GOAL`` items, and
    :func:`length_goals_note` says where its leading goal belongs."""
    if not text.strip():
        return {}, None
    text = _pasted_goal(text)[0]
    count = items_over_limit(text)
    if count is not None:
        return {}, (f"Other goals: at most {MAX_CONTEXT_LENGTHS} lengths, this list has {count:,}; give a goal "
                    "only to lengths of the context lengths.")
    try:
        parsed = goal_argument(text)  # the parser of --goal: an empty item is refused, as in the context lengths field
    except argparse.ArgumentTypeError as exc:
        return {}, f"Other goals: {str(exc).rstrip('.?')}{'?' if str(exc).endswith('?') else '.'}"
    if parsed.goal is not None:
        return {}, (f"Other goals: {parsed.goal!r} has no length; write LENGTH=GOAL items such as 200k=full "
                    "(the goal selector, Goal (all other lengths), sets the other lengths).")
    return parsed.by_length, None


#: Text values checked by a parser (an error message means the link's value is ignored).
_TEXT_CHECKS = {"tuning_contexts": lambda text: parse_context_lengths(text)[1],
                "tuning_length_goals": lambda text: parse_length_goals(text)[1]}


def headroom_error(text: str) -> str | None:
    """Why a headroom, as typed in the Tuning page's *Headroom (%)* field or given by a link
    (``headroom=``), cannot be used, in the words of ``recommend --headroom``
    (:func:`toolsearch.cli.textfmt.headroom_pct`: 0 to 1000 %, at most two decimals):
    ``"Headroom (%): expected 0 to 1000 (%), got '-5'."``; ``None`` when it can."""
    return _option_error("Headroom (%)", headroom_pct)(text)


def reserve_error(text: str) -> str | None:
    """Why a reserve, as typed in the Tuning page's *Reserve (%)* field or given by a link
    (``reserve=``), cannot be used, in the words of ``recommend --reserve``
    (:func:`toolsearch.cli.textfmt.reserve_pct`: 0 to 90 %, at most two decimals):
    ``"Reserve (%): expected 0 to 90 (%), got '95'."``; ``None`` when it can."""
    return _option_error("Reserve (%)", reserve_pct)(text)


def tuning_reserve() -> float:
    """The Tuning page's *Reserve (%)* in use (0 to 90): the share of every context length its answer
    keeps free of the tools array (``recommend --reserve``); 0 when the field holds nothing usable."""
    value = st.session_state.get("tuning_reserve")
    try:
        value = float(value or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return value if 0.0 <= value <= C.RESERVE_PCT_MAX else 0.0


def _option_error(label: str, parse) -> Any:
    """A check of a link's text by a command-line option's parser: ``"LABEL: its message."`` or ``None``."""
    def check(text: str) -> str | None:
        try:
            parse(text)
        except argparse.ArgumentTypeError as exc:
            return f"{label}: {exc}."
        return None
    return check


#: What a link's value is checked with before it is read: the message of the field that takes the
#: same text on the page (the Tuning page's context lengths, other goals and headroom), or of the
#: option that takes it on the command line (threshold_pct and listing_max_tokens, whose sidebar
#: boxes take only numbers), so a link's value and a typed one are refused in the same words.
_FIELD_CHECKS = {**_TEXT_CHECKS, "tuning_headroom": headroom_error, "tuning_reserve": reserve_error,
                 "threshold_pct": _option_error("threshold_pct", parse_threshold_pct),
                 "listing_max_tokens": _option_error("listing_max_tokens", parse_listing_max_tokens)}


def _link_expected(qkey: str, skey: str) -> str:
    """What a link's ``qkey`` takes, for a value that no field's check refuses (:data:`_FIELD_CHECKS`)
    but that cannot be used: ``"ctx: expected one of 8K, …, custom (its tokens in ctxn=) or unknown."``."""
    if skey in _CHOICES:
        options = [f"{o} (its tokens in ctxn=)" if skey == "ctx_choice" and o == "custom" else o
                   for o in _CHOICES[skey]]
        return f"{qkey}: expected one of {', '.join(options[:-1])} or {options[-1]}."
    if skey == "tuning_keep_called":
        return f"{qkey}: expected true or false."
    if skey in _RANGES:
        low, high = _RANGES[skey]
        return f"{qkey}: expected a whole number from {low:,} to {high:,}."
    return f"{qkey}: expected another value."


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
    ignored: list[tuple[str, str, str]] = []  # values not used at all: (query key, value as given, why)
    left_out = []  # lists with names that are not shipped samples
    too_long: list[tuple[str, int]] = []  # lists of lengths or goals over MAX_CONTEXT_LENGTHS items: (key, items)
    settled: list[str] = []  # budget values used clamped or rounded, each with its note
    for qkey, (skey, parse) in _QP.items():
        if qkey not in params:
            continue
        raw = params[qkey]
        if skey in _TEXT_CHECKS and items_over_limit(raw) is not None:  # said at once, with the limit
            too_long.append((qkey, items_over_limit(raw)))
            continue
        why = _FIELD_CHECKS[skey](raw) if skey in _FIELD_CHECKS else None
        if why:  # in the words the field (or the option) gives for the same text
            ignored.append((qkey, raw, why))
            continue
        try:
            value = parse(raw)
        except (TypeError, ValueError, argparse.ArgumentTypeError):
            ignored.append((qkey, raw, _link_expected(qkey, skey)))
            continue
        if skey in _CHOICES and value not in _CHOICES[skey]:
            ignored.append((qkey, raw, _link_expected(qkey, skey)))
            continue
        if skey in _BUDGET_RANGES:  # clamped (and threshold_pct rounded) as a typed value is; nan and inf are ignored
            try:
                value, note = settle_budget_value(skey, value, typed=raw)
            except ValueError:
                ignored.append((qkey, raw, _link_expected(qkey, skey)))
                continue
            if note:
                settled.append(f"The link's {qkey}: {note}")
        elif skey in _RANGES:  # nan, inf and out-of-range values are ignored (the default stays)
            low, high = _RANGES[skey]
            if not low <= value <= high:
                ignored.append((qkey, raw, _link_expected(qkey, skey)))
                continue
        if skey in _LIST_CHOICES:  # unknown names are left out, and said so
            known = _LIST_CHOICES[skey]()
            if any(item not in known for item in value):
                left_out.append(_left_out_words(qkey, [item for item in value if item not in known], known))
            value = [item for item in value if item in known]
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
            notices.append((f"The link names a catalog {link_name(asked)} that is not a shipped sample, so the "
                            f"default sample catalog “{DEFAULT_SAMPLE}” is shown instead.", True))
    if ignored:
        notices.append((link_ignored_words(ignored), False))
    notices.extend((f"The link's value for {qkey} is not valid here and was ignored: it has {count:,} items, and a list "
                    f"holds at most {MAX_CONTEXT_LENGTHS} lengths; the default is used.", False)
                   for qkey, count in too_long)
    notices.extend((text, False) for text in settled)
    notices.extend((text, False) for text in left_out)
    _combine_from_link(params, notices)
    st.session_state["_link_notices"] = notices
    for key, value in state.items():
        st.session_state.setdefault(key, value)
    st.session_state["_initialised"] = True


def _keep_state() -> None:
    """Keep every sidebar value while its widget is not shown: Streamlit forgets the value of a
    widget that a run does not draw, and each page draws only the controls it uses. Writing the
    value back before the widgets are drawn makes it survive."""
    for key in (*_DEFAULTS, "scope_choice"):
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
            values[qkey] = join_escaped(value) if isinstance(value, list) else str(value)
    scope_arg = _selected_scope_arg()
    if scope_arg:
        values["scope"] = scope_arg
    if st.session_state.get("catalog") != LIVE and st.session_state.get("catalog_more"):
        values[COMBINE_PARAM] = ",".join(st.session_state["catalog_more"])
    if dict(st.query_params) != values:
        st.query_params.from_dict(values)


def whole_catalog_key(v: "View") -> str:
    """The fingerprint of the sidebar's whole catalog (:func:`~toolsearch.live.client.catalog_key`),
    also while a session scope is chosen: exported blocks and reports name the catalog, and the same
    catalog keeps one fingerprint whatever the scope, as in ``toolsearch recommend --yaml`` and
    ``toolsearch report``. Hashing thousands of tools takes a moment: once per catalog, not per
    slider move."""
    whole = v.inspector.scoped(None)
    return memo(whole.planner, ("catalog_key",), lambda: catalog_key(whole.catalog))


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
#: The app's threshold_pct step (%): its sliders show one decimal, so a value is kept to it.
THRESHOLD_PCT_STEP = 0.1
#: How the threshold_pct boxes show their value (printf style): ``5`` and ``4.7``, as every other
#: surface writes a threshold_pct (``5%``), not ``5.0`` (values are kept to :data:`THRESHOLD_PCT_STEP`,
#: so ``%g`` never shows more than one decimal). The listing_max_tokens boxes keep Streamlit's ``%d``
#: (``4000``): a box's format must print a plain number, so ``4,000`` is refused there; the slider
#: above each box shows the value with its separator and its label gives the unit.
THRESHOLD_PCT_FORMAT = "%g"
_BUDGET_RANGES = {"threshold_pct": (C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX),
                  "listing_max_tokens": (C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX)}


def settle_budget_value(name: str, value: float, typed: str | None = None) -> tuple[float | int, str | None]:
    """The value the app uses for a typed or linked ``threshold_pct`` (%) or ``listing_max_tokens``
    (tokens), and a note saying how it differs from what was given (``None``: used as given).

    Out of range, the value is clamped as the reference clamps such a config value
    (docs/reference.md §1: threshold_pct to 0–100, listing_max_tokens to 200–60,000), as the command
    line does; threshold_pct is then rounded to the app's 0.1 steps, so the number a slider or box
    shows is the number every page computes with.

    ``typed``: the value as the user wrote it (a link's ``1e400``), which the note names; else the
    number is written out.

    Raises:
        ValueError: ``value`` is not a finite number."""
    low, high = _BUDGET_RANGES[name]
    try:
        number = float(value)
    except OverflowError:  # a whole number too large for a float: outside the range, clamped
        number = math.copysign(1e300, value)
    if not math.isfinite(number):
        raise ValueError(f"{name} {value!r} is not a finite number")
    clamped = min(max(number, low), high)
    used: float | int = round(clamped, 1) if name == "threshold_pct" else int(clamped)
    if clamped != number:
        # the words of the command line's and the config file's warning (clamped_words), after the
        # value as given (a whole number written out, as the command line names a typed one)
        given = (md_escape(visible(shortened(typed.strip()))) if typed is not None else
                 f"{int(number)}" if number.is_integer() and abs(number) < 1e15 else f"{number:g}")
        return used, (f"{name} {given} {clamped_words(name, used)}, as the harness clamps such a config "
                      "value.")
    if used != number:
        return used, (f"{name} {number:g}% is rounded to {used:g}%: the app works in steps of "
                      f"{THRESHOLD_PCT_STEP:g}%.")
    return used, None


def _settle_state(source: str, key: str, exact: str) -> None:
    """on_change of a budget slider or box: both widgets and the setting take the settled value
    (:func:`settle_budget_value`), and a note under them says what was changed."""
    used, note = settle_budget_value(key, st.session_state[source])
    st.session_state[key] = used
    st.session_state[exact] = used
    st.session_state["_budget_note"] = note


def _budget_controls(sb) -> None:
    """threshold_pct and listing_max_tokens: a slider for the whole range (bounds from
    ``toolsearch.engine.constants``) and a number input under it, exact to 0.1 % and 1 token. Both edit
    the same setting (session keys ``threshold_pct`` / ``listing_max_tokens``, mirrored to the URL
    as ``pct`` / ``cap``)."""
    for key, exact in EXACT_INPUTS:  # before the widgets exist: show the setting's current value
        st.session_state[key] = settle_budget_value(key, st.session_state[key])[0]
        if st.session_state.get(exact) != st.session_state[key]:
            st.session_state[exact] = st.session_state[key]
    # The boxes have no bounds of their own: a typed value out of range is clamped, as the harness
    # and the command line clamp it, and the box then shows the value used (never a refused one).
    sb.slider("threshold_pct (% of context)", C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX,
              value=st.session_state["threshold_pct"], step=THRESHOLD_PCT_STEP, format=THRESHOLD_PCT_FORMAT, key="threshold_pct",
              on_change=_settle_state, args=("threshold_pct", "threshold_pct", "threshold_pct_exact"),
              help="Share of the context length the listing may use.")
    sb.number_input("threshold_pct (%)", value=st.session_state["threshold_pct_exact"], step=THRESHOLD_PCT_STEP,
                    format=THRESHOLD_PCT_FORMAT, key="threshold_pct_exact", on_change=_settle_state,
                    args=("threshold_pct_exact", "threshold_pct", "threshold_pct_exact"), label_visibility="collapsed",
                    help="Type an exact value (0.1 steps, 0–100); the realistic range is about 0.5–10%.")
    sb.slider("listing_max_tokens (tokens)", C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX,
              value=st.session_state["listing_max_tokens"], step=1, format="%,d", key="listing_max_tokens",
              on_change=_settle_state, args=("listing_max_tokens", "listing_max_tokens", "listing_max_tokens_exact"),
              help="Cap on the listing budget.")
    sb.number_input("listing_max_tokens", value=st.session_state["listing_max_tokens_exact"], step=1,
                    key="listing_max_tokens_exact", on_change=_settle_state,
                    args=("listing_max_tokens_exact", "listing_max_tokens", "listing_max_tokens_exact"),
                    label_visibility="collapsed",
                    help="Type an exact number of tokens (200–60,000); the realistic range is about 1,000–10,000.")
    source = st.session_state.get(SETTINGS_FROM)
    if source and tuple(source["values"]) == (st.session_state["threshold_pct"], st.session_state["listing_max_tokens"]):
        sb.caption(f"threshold_pct and listing_max_tokens from {md_escape(visible_name(source['name']))} "
                   "(its tools.tool_search block).")
    if st.session_state.get("_budget_note"):
        sb.info(st.session_state["_budget_note"], icon=":material/info:")


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


class Upload(NamedTuple):
    """One uploaded catalog file: ``name`` as it was uploaded, ``label`` as every note, warning and
    error names it (:func:`upload_labels`), and its bytes."""

    name: str
    label: str
    data: bytes


def unique_uploads(files: Sequence[tuple[str, bytes]]) -> tuple[list[Upload], list[str]]:
    """The uploaded files ``(name, bytes)`` with each content read once, in upload order, each with
    its :func:`upload_labels` label, and a sentence for each file left out because a file with the
    same bytes is already loaded (Streamlit's uploader keeps a file uploaded again beside the first
    copy: merged with itself, a catalog named every server twice and repaired them all), naming both
    by their labels. ``([], [])`` for no files."""
    kept: list[Upload] = []
    first: dict[bytes, str] = {}
    repeats: list[str] = []
    for (name, data), label in zip(files, upload_labels(files)):
        digest = hashlib.sha256(data).digest()
        if digest in first:
            shown = visible_name(label)
            repeats.append(f"{shown} is already loaded; read once." if label == first[digest] else
                           f"{shown} has the same content as {visible_name(first[digest])}, which is already loaded; "
                           "read once.")
            continue
        first[digest] = label
        kept.append(Upload(name, label, data))
    return kept, repeats


@st.cache_resource(show_spinner="Loading the uploaded files…", max_entries=8)
def _load_uploads(digest: str, _files: tuple[Upload, ...]
                  ) -> tuple[Catalog | None, list[str], list[HarnessUpload]]:
    """The uploaded files read as one catalog, the errors of those that are not one, and the harness
    configs among them (read for their settings, not refused as a catalog). Each file is named by its
    label in every message and problem; a server or catalog named after the file takes the file's
    own stem (``catalog``, not ``catalog.json (2nd upload)``)."""
    loaded, errors, harnesses = [], [], []
    for name, label, data in _files:
        text = None
        try:
            text = decode_bytes(data, label)
            loaded.append(load_text(text, label, source_stem(name) or None))
        except ToolsearchError as exc:
            # only a file that is no catalog is looked at again: a harness config.yaml
            harness = harness_upload(text, label) if text is not None else None
            if harness is None:
                errors.append(str(exc))
            else:
                harnesses.append(harness)
    return (combine(loaded) if loaded else None), errors, harnesses


#: ``st.session_state`` key: the harness config whose settings the sidebar took (file name and the
#: ``(threshold_pct, listing_max_tokens)`` it set), named under the inputs while they hold them.
SETTINGS_FROM = "_settings_from"


def _use_harness_settings(name: str, threshold_pct: float, listing_max_tokens: int) -> None:
    """on_click of "Use its settings": the sidebar's threshold_pct and listing_max_tokens become the
    file's (settled as a typed value is: clamped, threshold_pct in 0.1 steps), the file named as their source."""
    pct, pct_note = settle_budget_value("threshold_pct", threshold_pct)
    cap, cap_note = settle_budget_value("listing_max_tokens", listing_max_tokens)
    for key, value in (("threshold_pct", pct), ("listing_max_tokens", cap)):
        st.session_state[key] = value
        st.session_state[f"{key}_exact"] = value
    st.session_state["_budget_note"] = " ".join(n for n in (pct_note, cap_note) if n) or None
    st.session_state[SETTINGS_FROM] = {"name": name, "values": (pct, cap)}


def _harness_notes(sb, harnesses: Sequence[HarnessUpload]) -> None:
    """Under the catalog uploader, per harness config uploaded: what it sets, a button that reads its
    threshold_pct and listing_max_tokens into the sidebar, what else it holds, and where its servers
    can be listed (nothing is started from an upload)."""
    for i, h in enumerate(harnesses):
        name = md_escape(visible_name(h.name))
        if h.error:
            sb.error(md_escape(visible(h.error)), icon=":material/warning:")
        elif h.config is None:
            sb.info(f"{name} is a harness config, not a catalog. It has no tools.tool_search block, so the "
                    "defaults apply to it; there are no settings to read.", icon=":material/settings:")
        else:
            cfg = h.config
            sb.info(f"{name} is a harness config, not a catalog. Its tools.tool_search block sets "
                    f"{settings_words(cfg.threshold_pct, cfg.listing_max_tokens)}.", icon=":material/settings:")
            now = (st.session_state.get("threshold_pct"), st.session_state.get("listing_max_tokens"))
            held = now == (settle_budget_value("threshold_pct", cfg.threshold_pct)[0],
                           settle_budget_value("listing_max_tokens", cfg.listing_max_tokens)[0])
            sb.button("Use its threshold_pct and listing_max_tokens", key=f"harness_settings_{i}",
                      on_click=_use_harness_settings, args=(h.name, cfg.threshold_pct, cfg.listing_max_tokens),
                      disabled=held, help="The sidebar already holds them." if held else
                      "Sets the sidebar's threshold_pct and listing_max_tokens to the file's.")
            others = [key for key in changed_keys(cfg) if key not in ("threshold_pct", "listing_max_tokens")]
            if others:
                sb.caption(f"It also sets {', '.join(others)}, which this button does not read: set "
                           + ("enabled and listing under Tool search switches" if set(others) <= {"enabled", "listing"}
                              else "them in the sidebar where it has them") + ".")
            for warning in cfg.warnings:
                sb.warning(md_escape(visible(warning)), icon=":material/warning:")
        if h.servers:
            sb.caption(f"Its {counted(h.servers, 'MCP server')} (mcp_servers) can be listed on the Live servers "
                       "page: upload the file there. Nothing is started from this upload.")


def _catalog_controls(sb, samples: dict[str, Path], errors: list[str]) -> tuple[Catalog | None, str, str]:
    """The catalog source controls; returns ``(catalog, cache key, label)``."""
    sb.header("Catalog")
    options = [*samples, UPLOAD, LIVE]
    sb.selectbox("Catalog source", options, key="catalog",
                 help="A sample catalog shipped with toolsearch, or your own files (catalog YAML/JSON, "
                      "a recorded tools/list result, or an OpenAI-style function array; a harness config.yaml "
                      "among them is read for its tools.tool_search settings).")
    catalog: Catalog | None = None
    source_label = st.session_state["catalog"]
    source_key = ""
    if st.session_state["catalog"] == UPLOAD:
        sb.file_uploader("Catalog files", max_upload_size=TEXT_UPLOAD_MB, type=["yaml", "yml", "json"], accept_multiple_files=True,
                         key="uploads", on_change=_store_uploads,
                         help="Several files combine into one catalog. They stay loaded for this browser "
                              "session (until you clear them), on every page.")
        files, repeats = unique_uploads(st.session_state.get("_upload_store") or ())
        files = tuple(files)
        for said in repeats:  # a file uploaded again: read once, and said so where the files are
            sb.caption(md_escape(said))
        if files:
            digest = hashlib.sha256(b"\0".join(f.label.encode() + b"\0" + f.data for f in files)).hexdigest()[:16]
            catalog, load_errors, harnesses = _load_uploads(digest, files)
            errors.extend(load_errors)
            _harness_notes(sb, harnesses)
            if not st.session_state.get("uploads"):
                sb.caption("Kept for this session: " + ", ".join(md_escape(visible_name(f.label)) for f in files))
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
    if st.session_state["catalog"] != LIVE:
        catalog, source_key, source_label = _combined(sb, samples, catalog, source_key, source_label, errors)
    return catalog, source_key, source_label


# --- several samples and uploads combined ----------------------------------------------------

def _left_out_words(qkey: str, unknown: Sequence[str], known: Sequence[str]) -> str:
    """The notice for the names in a link's list ``qkey`` that are not shipped samples: which names
    (as :func:`link_name` quotes them, at most :data:`MAX_NAMES_SHOWN`), that they were left out, and
    the names the list takes (``known``), so a file name typed for a sample name can be put right."""
    shown = [link_name(name) for name in list(dict.fromkeys(unknown))[:MAX_NAMES_SHOWN]]
    more = len(dict.fromkeys(unknown)) - len(shown)
    if more:
        shown.append(f"{more:,} more")
    names = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    one = len(dict.fromkeys(unknown)) == 1
    return (f"The link's value for {qkey} names {names}, which {'is not a shipped sample; it was' if one else 'are not shipped samples; they were'} "
            f"left out. Shipped samples: {', '.join(md_escape(name) for name in known)}.")


#: The most unknown names a link notice quotes (a hand-made link may hold any number).
MAX_NAMES_SHOWN = C.LINK_NAMES_MAX


def _combine_from_link(params: Any, notices: list) -> None:
    """Seed the samples to combine from the URL (``with=a,b``); unknown names are left out, and said so."""
    asked = [n.strip() for n in str(params.get(COMBINE_PARAM) or "").split(",") if n.strip()]
    known = [n for n in dict.fromkeys(asked) if n in sample_catalogs()]
    unknown = [n for n in dict.fromkeys(asked) if n not in sample_catalogs()]
    if unknown:
        notices.append((_left_out_words(COMBINE_PARAM, unknown, list(sample_catalogs())), False))
    st.session_state.setdefault("catalog_more", known)


@st.cache_resource(show_spinner="Combining catalogs…", max_entries=4, on_release=release_cached)
def _combine_cached(key: str, _catalogs: tuple[Catalog, ...]) -> Catalog:
    catalog = combine(_catalogs)
    freeze_cached()
    return catalog


def _combined(sb, samples: dict[str, Path], catalog: Catalog | None, source_key: str, source_label: str,
              errors: list[str]) -> tuple[Catalog | None, str, str]:
    """The samples multiselect under the catalog source: the chosen samples combined with the
    source (a sample or the uploaded files) into one catalog (``combine``)."""
    primary = st.session_state["catalog"]
    options = [n for n in samples if n != primary]
    st.session_state["catalog_more"] = [n for n in st.session_state.get("catalog_more") or [] if n in options]
    sb.multiselect(COMBINE, options, key="catalog_more",
                   help="Add shipped sample catalogs to the source above: their servers combine into one catalog "
                        "(servers with the same name merge).")
    more = st.session_state["catalog_more"]
    if not more or catalog is None:
        return catalog, source_key, source_label
    parts, keys = [catalog], [source_key]
    for name in more:
        path = samples[name]
        try:
            parts.append(_read_sample(str(path), path.stat().st_mtime))
            keys.append(f"sample:{path}:{path.stat().st_mtime}")
        except ToolsearchError as exc:
            errors.append(str(exc))
    if len(parts) == 1:
        return catalog, source_key, source_label
    key = "combined:" + "|".join(keys)
    combined = _combine_cached(key, tuple(parts))
    return combined, key, " + ".join([source_label, *more])


#: How many merged servers the sidebar names one by one (the rest are counted).
MERGED_SHOWN = 5


def merged_notice(where: Any, catalog: Catalog | None) -> None:
    """Under the catalog controls: the servers defined more than once in the loaded files (or the
    samples combined with them) whose tools were merged into one server, in the words the command
    line writes on stderr and in ``--json``'s problems (:func:`~toolsearch.engine.catalog.merged_servers`).
    Nothing when no server was merged."""
    merged = merged_servers(catalog) if catalog is not None else ()
    if not merged:
        return
    lines = [f"{p.where[0].upper()}{p.where[1:]}: {p.message}." for p in merged[:MERGED_SHOWN]]
    if len(merged) > MERGED_SHOWN:
        lines.append(f"… and {len(merged) - MERGED_SHOWN:,} more servers merged (all of them under Problems at "
                     "the top of the page).")
    where.warning("\n\n".join(md_escape(visible(line)) for line in lines), icon=":material/merge:")


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
    merged_notice(sb, catalog)
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
    docs = docs_elsewhere()
    if docs is not None:  # an installed copy: the captions' docs/… pages are inside the package
        sb.caption(f"Captions cite pages of the manual as docs/… (docs/reference.md §7 and so on); this copy keeps them in {md_escape(str(docs))}")

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


def _store_profile() -> None:
    upload = st.session_state.get("profile_upload")
    st.session_state["_profile_store"] = (upload.name, upload.getvalue()) if upload is not None else None


def _profile_controls(sb, shown: bool, errors: list[str]) -> tuple[Profile, str]:
    """The wording-profile uploader (kept for the session like catalog uploads); returns the
    profile and its cache key."""
    stored = st.session_state.get("_profile_store")
    if shown:
        label = f"Wording profile · {md_escape(visible(stored[0])) if stored else 'default'}"  # a file name: any text
        with sb.expander(label):
            st.file_uploader("Wording profile (YAML)", max_upload_size=TEXT_UPLOAD_MB, type=["yaml", "yml"], key="profile_upload",
                             on_change=_store_profile,
                             help="Optional: your harness's exact wording. Default: the toolsearch profile.")
            st.download_button("Download the default profile",
                               DEFAULT_PROFILE_PATH.read_bytes(),
                               file_name="toolsearch-profile.yaml", mime="application/x-yaml", key="profile_download",
                               help="A starting point for your own wording: every key is required.")
    if stored:
        name, data = stored
        try:
            return profile_from_text(decode_bytes(data, name), name), hashlib.sha256(data).hexdigest()[:16]
        except ToolsearchError as exc:
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
        runpy.run_path(get_script_run_ctx().pages_manager.main_script_path, run_name="__main__")
        st.stop()
    return sidebar()


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
    from toolsearch.analysis.quantities import inspector_empty_words  # noqa: PLC0415

    empty = inspector_empty_words(v.inspector)
    if empty:  # the words plan warns with and check, lint and recommend refuse with
        st.warning(md_escape(visible(empty + ".")), icon=":material/warning:")
    return True


def catalog_problems(v: View) -> None:
    """Skipped (error) and repaired (warning) items of the loaded catalog, in one notice at the top."""
    assert v.inspector is not None
    problems_notice(v.inspector.registration.problems, v.source_label)


def problems_notice(all_problems: Sequence[Any], label: str, key: str = "catalog_problems",
                    head: str = "The catalog", rest: str = "The rest of the catalog is shown.") -> None:
    """One notice of a catalog's skipped (error) and repaired (warning) items, and a table of them
    in an expander named after ``label`` (nothing when there are none). ``head`` is Markdown."""
    problems = [p for p in all_problems if p.severity in ("error", "warning")]
    if not problems:
        return
    skipped = sum(p.severity == "error" for p in problems)
    repaired = len(problems) - skipped
    parts = ([f"{skipped:,} item{'s' if skipped != 1 else ''} skipped"] if skipped else []) + \
            ([f"{repaired:,} repaired"] if repaired else [])
    box = st.error if skipped else st.warning
    box(f"{head} loaded with problems: {' and '.join(parts)}. {rest}", icon=":material/report:")
    with st.expander(f"Problems in {md_escape(visible(label))} ({len(problems):,})",
                     expanded=skipped > 0 and len(problems) <= 5):
        from toolsearch.ui.tables import literal_table

        literal_table([{"severity": p.severity, "where": p.where, "message": p.message} for p in problems],
                      key=key, nowrap=("severity",))




def embedding_progress_text(variant: str, done: int, total: int) -> str:
    """The progress bar's words while a semantic variant embeds the catalog's tool texts (the
    Search and Quality pages)."""
    return (f"Embedding the tool texts for {variant}: {done:,} of {total:,} (a new catalog's first run; "
            "kept for the next)")


def embed_with_progress(index: Any, variant: str) -> None:
    """Embed ``index``'s tool texts (a semantic ranker's) with a progress bar that goes away when
    done; instant when they are cached. Raises what
    :meth:`~toolsearch.engine.search.SearchIndex.catalog_vectors` raises."""
    if index.options.ranker != "semantic" or not index.docs:
        return
    bar = st.empty()
    try:
        index.catalog_vectors(lambda done, total: bar.progress(done / max(total, 1),
                                                               text=embedding_progress_text(variant, done, total)))
    finally:
        bar.empty()


def embedding_cache_notice() -> None:
    """A warning when the semantic variant could not keep a catalog's embeddings on disk
    (:func:`toolsearch.engine.embedding.disk_cache_problem`), as the CLI prints it."""
    from toolsearch.engine import embedding  # noqa: PLC0415

    problem = embedding.disk_cache_problem()
    if problem:
        st.warning(md_escape(problem[0].upper() + problem[1:] + "."), icon=":material/warning:")

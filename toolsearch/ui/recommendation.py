"""The Tuning page's question and recommendation, shared with the Report page.

The Tuning page computes one ``threshold_pct`` and ``listing_max_tokens`` for several context
lengths; the Report page carries the same recommendation in the HTML file. What is kept between
the pages is the question (context lengths, goal, exceptions, headroom, the recorded sessions chosen
as evidence), in the session state and the link, not the answer: both pages ask it of the sidebar's
current catalog and settings with :func:`question_from_state`, so an applied recommendation, a moved
slider, another session scope or another tool naming never leaves a stale answer in the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Collection, Sequence

import streamlit as st

from toolsearch.analysis.recommend import (reserved_words, KeepCalled, LengthGoals, MultiRecommendation, add_session_evidence,
                                           add_whole_catalog, keep_called, recommend_for_contexts, servers_without_tools,
                                           session_drift_words, with_core_only)
from toolsearch.analysis.sessions import (CalledTool, CatalogDrift, LoadedSessions, Session, UncountedCalls,
                                          called_tools, catalog_drift, drop_repeated, released_hermes_sessions,
                                          recorded_lengths, released_hermes_words, scrub_sessions, uncounted_calls)
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.sweep import Ladder, listing_ladder
from toolsearch.analysis.wording import agree, counted
from toolsearch.engine import constants as C
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.errors import ToolsearchError
from toolsearch.live.client import unlisted_servers, unread_count, unread_items
from toolsearch.ui import common
from toolsearch.ui import session_sources as sources

#: Where the uploaded session files are kept for the browser session (name, bytes).
SESSION_UPLOADS = "_tuning_session_uploads"
#: Key prefix of the session-file path controls.
PATH_PREFIX = "tuning_sessions"
#: The Tuning page's server lists: session key and the label the page gives the list.
SERVER_LISTS = (("tuning_except", "May collapse"), ("tuning_keep", "Must stay named"))


def ladder_for(v: common.View) -> Ladder:
    """The listing ladder for the sidebar's catalog, enabled/listing/defer and planning tokenizer, with
    the Tuning page's reserve (:func:`toolsearch.ui.common.tuning_reserve`).

    It does not depend on threshold_pct, listing_max_tokens or the context length, so it is kept
    across slider moves (one entry per inspector object and setting; the entry holds the
    inspector, so its ``id`` cannot be reused while the entry exists).
    """
    return _ladder(v.inspector, v)


def _ladder(inspector, v: common.View) -> Ladder:
    """:func:`ladder_for` for ``inspector`` (the sidebar's, or its whole catalog's when a scope is picked)."""
    key = (id(inspector), v.config.enabled, v.config.listing, v.config.defer, v.tokenizer)
    memo = st.session_state.setdefault("_tuning_ladders", {})
    hit = memo.get(key)
    if hit is None or hit[0] is not inspector:
        if len(memo) >= 8:
            memo.clear()
        hit = memo[key] = (inspector, listing_ladder(inspector.planner, v.config, v.tokenizer))
    reserve = common.tuning_reserve()
    # the reserve changes only which budgets fit a request: the measured ladder is kept, its tools arrays too
    return replace(hit[1], reserve_pct=reserve) if reserve else hit[1]


@dataclass(frozen=True)
class Question:
    """What the Tuning page asks: the context lengths (tokens, ``None`` = unknown), the goal and
    per-length goals, the servers that may collapse or must stay named, the headroom (%), and the
    deferred tools recorded sessions called (``None`` without sessions) with where they came from and
    how many sessions were read, their catalog drift in words (empty: none), and what it means that
    they were recorded by another release (empty: nothing), and the called tools the session does
    not defer and why (not counted: :func:`toolsearch.analysis.sessions.uncounted_calls`). With *Keep called servers named* ticked and sessions
    loaded, ``keep_called`` says which servers that added to ``keep_servers`` (which holds them
    too: the goal's whole keep set, as ``recommend --keep-called`` passes it on). ``recorded_lengths``:
    each session's recorded context length by id (:func:`toolsearch.analysis.sessions.recorded_lengths`)."""

    lengths: tuple[int | None, ...]
    goal: str
    length_goals: LengthGoals
    except_servers: tuple[str, ...]
    keep_servers: tuple[str, ...]
    headroom_pct: float
    called: tuple[CalledTool, ...] | None
    sessions_label: str
    sessions_read: int | None = None
    sessions_drift: str = ""
    sessions_note: str = ""
    sessions_not_deferred: UncountedCalls = UncountedCalls()
    keep_called: KeepCalled | None = None
    recorded_lengths: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True)
class SessionsAsked:
    """The recorded sessions chosen as evidence, read against the sidebar's catalog: the sessions
    (each read once), where they came from, the deferred tools they called, the called tools the
    session does not defer and why (:func:`toolsearch.analysis.sessions.uncounted_calls`), the catalog drift and its words (empty: none), and the words on
    sessions recorded by the released Hermes Agent (empty: none)."""

    sessions: list[Session]
    labels: list[str]
    called: list[CalledTool]
    uncounted: UncountedCalls
    drift: CatalogDrift
    drift_words: str
    note: str


@dataclass(frozen=True)
class Asked:
    """The Tuning question as the session state holds it, read against one catalog.

    ``question`` is ``None`` when it cannot be asked; then ``blocked_by`` names the fields in error
    (such as "context lengths") and ``error`` says what is wrong. ``dropped`` names, per server list
    label ("May collapse", "Must stay named"), the servers the list names that the catalog lacks:
    they are left out of the question. ``sessions`` is ``None`` without recorded sessions."""

    question: Question | None
    blocked_by: str = ""
    error: str = ""
    dropped: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sessions: SessionsAsked | None = None
    length_goals: dict = field(default_factory=dict)


def session_evidence(keep: Collection[str] = ()) -> tuple[list, list[str]]:
    """The sessions chosen as evidence (samples, uploads, a local file) and their labels; each bad
    source shows one error line and the others still load. ``keep``: the catalog's tool names, kept as
    recorded when the connected servers' config values are masked (:func:`toolsearch.analysis.sessions.scrub_sessions`)."""
    sessions: list = []
    labels: list[str] = []
    problems: list = []
    samples = sources.sample_files()
    chosen = [(name, samples[name]) for name in st.session_state.get("tuning_session_samples") or [] if name in samples]
    path_read = st.session_state.get(f"{PATH_PREFIX}_path_read")
    if path_read:
        chosen.append((path_read, path_read))
    for label, path in chosen:
        try:
            loaded = sources.load_path(path)
        except ToolsearchError as exc:
            sources.show_error(str(exc))
            continue
        sessions.extend(loaded.sessions)
        problems.extend(loaded.problems)
        labels.append(label)
    uploaded, errors = sources.load_uploads(st.session_state.get(SESSION_UPLOADS) or [])
    for error in errors:
        sources.show_error(error)
    for name, loaded in uploaded:
        sessions.extend(loaded.sessions)
        problems.extend(loaded.problems)
        labels.append(name)
    once = drop_repeated(LoadedSessions(sessions, problems))  # a sample and its export, a file given twice
    once = scrub_sessions(once, sources.config_secrets(), keep=keep)  # connected servers' config values, as on the Sessions page
    sources.show_problems(once.problems)
    return once.sessions, labels


def _sessions_asked(v: common.View) -> SessionsAsked | None:
    """The chosen recorded sessions read against the sidebar's catalog (the same drift check as
    ``recommend --sessions`` and the Sessions page); ``None`` when none is chosen."""
    sessions, labels = session_evidence(v.inspector.full_registration.by_name() if v.inspector is not None else ())
    if not labels:
        return None
    assert v.inspector is not None
    called, unknown = called_tools(sessions, v.inspector, v.config)
    uncounted = uncounted_calls(unknown, v.inspector, v.config)  # outside the scope, or not deferred at all
    found = catalog_drift(sessions, v.inspector)
    released = released_hermes_sessions(sessions)
    return SessionsAsked(sessions, labels, called, uncounted, found,
                         session_drift_words(found, v.inspector.catalog.name),  # the report's words
                         released_hermes_words(released, len(sessions)) if released else "")


def question_from_state(v: common.View, servers: Sequence[str]) -> Asked:
    """The Tuning question held in the session state (the Tuning page's controls, or a link),
    read against the sidebar's catalog, whose server names are ``servers``.

    Nothing is written to the session state. Lengths and per-length goals are parsed as the page's
    fields are (:func:`toolsearch.ui.common.parse_context_lengths`,
    :func:`toolsearch.ui.common.parse_length_goals`); a per-length goal for a length not in the
    list, or a server in both lists, blocks the question like a parse error. Recorded sessions are
    read only for a question that can be asked (a bad session source shows one error line)."""
    dropped = dropped_servers(servers)
    lists = {key: [name for name in st.session_state.get(key) or [] if name in servers] for key, _ in SERVER_LISTS}
    lengths, lengths_error = common.parse_context_lengths(st.session_state.get("tuning_contexts") or "")
    length_goals, goals_error = common.parse_length_goals(st.session_state.get("tuning_length_goals") or "")
    if not lengths_error and not goals_error:
        stray = [c for c in length_goals if c not in lengths]
        if stray:
            goals_error = (f"Other goals: {', '.join(ctx_text(c) for c in stray)} "
                           f"{'is' if len(stray) == 1 else 'are'} not in the context lengths; add "
                           f"{'it' if len(stray) == 1 else 'them'} there or remove the goal.")
    excepted, kept = lists["tuning_except"], lists["tuning_keep"]
    both = sorted(set(excepted) & set(kept))
    if lengths_error or goals_error:
        return Asked(None, "context lengths" if lengths_error else "other goals", lengths_error or goals_error,
                     dropped)
    if both:
        return Asked(None, "servers in both lists",
                     f"{', '.join(both)}: a server cannot both collapse and stay named; remove it from one list.",
                     dropped)
    asked_sessions = _sessions_asked(v)
    headroom = float(st.session_state.get("tuning_headroom") or 0.0)
    kept_called = None
    if st.session_state.get("tuning_keep_called") and asked_sessions is not None:
        # the same servers recommend --keep-called adds, from the same called tools
        kept_called = keep_called(asked_sessions.called, asked_sessions.uncounted,
                                  [s.name for s in v.inspector.scoped(None).catalog.servers], kept, excepted,
                                  len(asked_sessions.sessions))
        kept = list(kept_called.keep_servers(kept))
    question = Question(
        tuple(lengths), str(st.session_state.get("tuning_multi_goal") or "names"), tuple(length_goals.items()),
        tuple(excepted), tuple(kept), headroom,
        tuple(asked_sessions.called) if asked_sessions else None,
        ", ".join(asked_sessions.labels) if asked_sessions else "",
        len(asked_sessions.sessions) if asked_sessions else None,
        asked_sessions.drift_words if asked_sessions else "", asked_sessions.note if asked_sessions else "",
        asked_sessions.uncounted if asked_sessions else UncountedCalls(), kept_called,
        tuple(recorded_lengths(asked_sessions.sessions).items()) if asked_sessions else ())
    return Asked(question, dropped=dropped, sessions=asked_sessions, length_goals=length_goals)


def recommendation_for(v: common.View, q: Question) -> MultiRecommendation:
    """The recommendation the question ``q`` gets on the sidebar's catalog and current settings:
    :func:`toolsearch.analysis.recommend.recommend_for_contexts`, with the recorded sessions'
    evidence added when ``q`` has sessions (:func:`toolsearch.analysis.recommend.add_session_evidence`)."""
    ladder = ladder_for(v)
    rec = recommend_for_contexts(ladder, v.config, list(q.lengths), q.goal, except_servers=list(q.except_servers),
                                 keep_servers=list(q.keep_servers), headroom_pct=q.headroom_pct,
                                 length_goals=dict(q.length_goals))
    rec = replace(rec, no_tools=servers_without_tools(v.inspector))  # no count shows them: named, as recommend does
    # a goal met by built-in tools alone, as recommend finds it (the catalog's own server kinds)
    rec = with_core_only(rec, ladder, {s.name: s.kind for s in v.inspector.catalog.servers})
    if q.keep_called is not None:
        rec = replace(rec, keep_called=q.keep_called)
    if q.called is not None:
        rec = add_session_evidence(rec, ladder, list(q.called), q.sessions_read, q.sessions_drift, q.sessions_note,
                                   q.sessions_not_deferred, dict(q.recorded_lengths))
    if v.inspector.scope is not None:  # the block is harness-wide: what every other session gets with it
        rec = add_whole_catalog(rec, _ladder(v.inspector.scoped(None), v), v.inspector.scope.name)
    return rec


def missing_words(v: common.View) -> list[str]:
    """What the sidebar's catalog lacks that ``toolsearch recommend`` refuses it for (servers that did
    not list their tools, catalog errors), one sentence each, plain text: the Tuning page's answer and
    the Report page's recommendation are for the catalog without it, and say so."""
    assert v.inspector is not None
    failed, saved = unlisted_servers(v.inspector.registration.problems, v.inspector.catalog.problems)
    unlisted = failed + saved
    unread = unread_items(v.inspector.registration.problems)
    words = []
    if unlisted:
        words.append(f"{counted(len(unlisted), 'server')} did not list {agree(unlisted, 'its', 'their')} tools "
                     f"({', '.join(unlisted)}): these settings are for the catalog without "
                     f"{agree(unlisted, 'it', 'them')}, and toolsearch recommend and the block's # gate: command "
                     "(toolsearch check) refuse the catalog until every server lists its tools.")
    if unread:
        count = unread_count(v.inspector.registration.problems)
        words.append(f"The catalog has {counted(count, 'catalog error')} ({unread[0]}"
                     + (f" and {count - 1:,} more" if count > 1 else "") + "): these settings are for the "
                     "catalog without what was skipped, and toolsearch recommend and the block's # gate: command "
                     "(toolsearch check) refuse the catalog until the file is fixed.")
    return words


def question_for_report(v: common.View) -> Asked:
    """The Tuning question for the Report page, read against the sidebar's catalog
    (:func:`question_from_state`): the Tuning page's fields as the session state holds them, which
    start at the same defaults as that page (``TUNING_CONTEXTS_DEFAULT``, goal names, the default
    headroom: one place, :mod:`toolsearch.ui.common`), so a report built before the Tuning page was
    opened carries the recommendation the Tuning page would show."""
    return question_from_state(v, [server.name for server in ladder_for(v).servers])


def dropped_servers(servers: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per server list of the question (its label, e.g. "May collapse"), the servers it names that
    are not among ``servers`` (a link, or another catalog, may name them); lists without any are
    left out."""
    found = []
    for key, label in SERVER_LISTS:
        missing = tuple(name for name in st.session_state.get(key) or [] if name not in servers)
        if missing:
            found.append((label, missing))
    return tuple(found)


def _dropped_name(name: str) -> str:
    """A server name a list names that the catalog lacks (a link's ``keep=`` or ``except=`` may carry
    any text), as :func:`dropped_words` quotes it: in “”, whole up to
    :data:`~toolsearch.engine.constants.LINK_NAME_MAX_CHARS` characters and a longer one cut with ``…``
    and its length, so a crafted link cannot put a sentence of its own into the page's warning."""
    if len(name) <= C.LINK_NAME_MAX_CHARS:
        return f"“{name}”"
    return f"“{name[:C.LINK_NAME_MAX_CHARS - 1]}…” ({len(name):,} characters)"


def dropped_words(dropped: Sequence[tuple[str, Sequence[str]]]) -> str:
    """:func:`dropped_servers` in words ("" when none), e.g.
    ``May collapse: “jira” is not a server of this catalog; left out.``: each name quoted and cut
    (:func:`_dropped_name`), at most :data:`~toolsearch.ui.common.MAX_NAMES_SHOWN` per list and the
    rest counted. Plain text: callers mark invisible characters and escape Markdown."""
    out = []
    for label, names in dropped:
        unique = list(dict.fromkeys(names))
        shown = ", ".join(_dropped_name(name) for name in unique[:common.MAX_NAMES_SHOWN])
        more = len(unique) - common.MAX_NAMES_SHOWN
        shown += f" and {more:,} more" if more > 0 else ""
        out.append(f"{label}: {shown} {'is not a server' if len(unique) == 1 else 'are not servers'} "
                   "of this catalog; left out.")
    return " ".join(out)


def ctx_text(n: int | None) -> str:
    """A context length for the Tuning and Report pages' captions, options and per-length rows, as
    ``recommend`` writes it (:func:`toolsearch.analysis.quantities.length_label`): ``32K``,
    ``12,345 tokens``, or ``unknown`` (``None``)."""
    return length_label(n)


#: ``st.session_state`` key: the values "Apply to the sidebar" set (``applied``) and the
#: threshold_pct and listing_max_tokens they replaced (``replaced``).
REPLACED_KEY = "_tuning_replaced"


def remember_replaced(applied: tuple[float, int], replaced: tuple[float, int]) -> None:
    """Record that "Apply to the sidebar" set ``applied`` (threshold_pct, listing_max_tokens) in place
    of ``replaced``; a second apply while the first still holds keeps the first one's ``replaced``."""
    prior = st.session_state.get(REPLACED_KEY)
    if prior and tuple(prior["applied"]) == tuple(replaced):
        replaced = tuple(prior["replaced"])
    st.session_state[REPLACED_KEY] = {"applied": tuple(applied), "replaced": tuple(replaced)}


def compared_settings(cfg: ToolSearchConfig) -> ToolSearchConfig:
    """The settings a recommendation is weighed against ("lists less than ... at 200K"): the
    sidebar's ``cfg``, or, while the sidebar still holds what "Apply to the sidebar" put there, the
    same config with the threshold_pct and listing_max_tokens that click replaced. Applying a
    recommendation then does not erase from its exported block, the Tuning page and the report
    where it lists less than the settings it replaces (as ``toolsearch recommend --yaml`` says)."""
    applied = st.session_state.get(REPLACED_KEY)
    if applied and tuple(applied["applied"]) == (cfg.threshold_pct, cfg.listing_max_tokens):
        threshold_pct, listing_max_tokens = applied["replaced"]
        return replace(cfg, threshold_pct=threshold_pct, listing_max_tokens=listing_max_tokens)
    return cfg


def question_words(q: Question, rec: MultiRecommendation) -> str:
    """One line for the Report page: which recommendation the report will carry."""
    lengths = ", ".join(ctx_text(c) for c in q.lengths)
    return (f"{rec.goal_words}; context lengths {lengths}"
            + (f", {q.headroom_pct:g}% headroom" if q.headroom_pct else "")
            + (f", {reserved_words(rec.reserve_pct)}" if rec.reserve_pct else "")
            + (f", with the sessions of {q.sessions_label}" if q.called is not None else "")
            + (", keeping the servers they called named" if q.keep_called is not None else ""))


__all__: Sequence[str] = ("Asked", "PATH_PREFIX", "Question", "SESSION_UPLOADS", "SERVER_LISTS",
                          "REPLACED_KEY", "SessionsAsked", "compared_settings", "ctx_text", "dropped_servers", "dropped_words", "ladder_for", "question_for_report",
                          "question_from_state", "question_words", "recommendation_for", "remember_replaced", "session_evidence")

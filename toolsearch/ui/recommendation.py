"""The Tuning page's recommendation, shared with the Report page.

The Tuning page computes one ``threshold_pct`` and ``listing_max_tokens`` for several context
lengths; the Report page carries the same recommendation in the HTML file. What is kept between
the pages is the question (context lengths, goal, exceptions, headroom, the tools recorded sessions
called), not the answer: the Report page asks it again of the sidebar's current catalog and
settings, so an applied recommendation or a moved slider never leaves a stale answer in the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import streamlit as st

from toolsearch.analysis.recommend import (LengthGoals, MultiRecommendation, add_session_evidence,
                                           recommend_for_contexts)
from toolsearch.analysis.sessions import CalledTool
from toolsearch.analysis.sweep import Ladder, listing_ladder
from toolsearch.ui import common

_STATE_KEY = "_recommendation_for_report"


def ladder_for(v: common.View) -> Ladder:
    """The listing ladder for the sidebar's catalog, enabled/listing/defer and planning tokenizer.

    It does not depend on threshold_pct, listing_max_tokens or the context length, so it is kept
    across slider moves (one entry per inspector object and setting; the entry holds the
    inspector, so its ``id`` cannot be reused while the entry exists).
    """
    key = (id(v.inspector), v.config.enabled, v.config.listing, v.config.defer, v.tokenizer)
    memo = st.session_state.setdefault("_tuning_ladders", {})
    hit = memo.get(key)
    if hit is None or hit[0] is not v.inspector:
        if len(memo) >= 8:
            memo.clear()
        hit = memo[key] = (v.inspector, listing_ladder(v.inspector.planner, v.config, v.tokenizer))
    return hit[1]


@dataclass(frozen=True)
class Question:
    """What the Tuning page asked: the context lengths (tokens, ``None`` = unknown), the goal and
    per-length goals, the servers that may collapse or must stay named, the headroom (%), and the
    deferred tools recorded sessions called (``None`` without sessions) with where they came from and
    how many sessions were read, their catalog drift in words (empty: none), and what it means that
    they were recorded by another release (empty: nothing)."""

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


def _anchor(v: common.View, with_naming: bool) -> tuple:
    """What a question is tied to: the catalog source and the session scope (the servers it names
    must be the same), and the tool naming when recorded sessions were matched to the catalog's
    tool names. A wording profile changes no server or tool, so the question survives it, and so it
    does a naming change when no session was read."""
    if not v.catalog_key:  # no catalog loaded
        return ()
    source, naming, _profile, scope = v.catalog_key
    return (source, scope, naming) if with_naming else (source, scope)


def remember(v: common.View, question: Question) -> None:
    """Keep the Tuning page's question for the Report page, tied to the sidebar's catalog."""
    st.session_state[_STATE_KEY] = (_anchor(v, question.called is not None), question)


def remember_blocked(v: common.View, blocked_by: str) -> None:
    """The Tuning page's last goal cannot be asked (``blocked_by`` names the fields in error, such as
    "context lengths"): the Report page says so instead of carrying an earlier goal."""
    st.session_state[_STATE_KEY] = (_anchor(v, False), blocked_by)


def _kept(v: common.View) -> Question | str | None:
    """The Tuning page's last question (or what blocked it) when it was asked of this catalog."""
    kept = st.session_state.get(_STATE_KEY)
    if kept is None:
        return None
    anchor, question = kept
    with_naming = isinstance(question, Question) and question.called is not None
    return question if anchor == _anchor(v, with_naming) else None


def asked_elsewhere(v: common.View) -> str | None:
    """When the Tuning page's last question was asked of this catalog source but with another
    session scope (or, with recorded sessions, other tool naming), what differs in words, e.g.
    ``the session scope “Whole catalog”``; ``None`` otherwise (nothing asked, another catalog, or
    the question applies here)."""
    kept = st.session_state.get(_STATE_KEY)
    if kept is None or not v.catalog_key or _kept(v) is not None:
        return None
    anchor = kept[0]
    source, naming, _profile, scope = v.catalog_key
    if not anchor or anchor[0] != source:
        return None
    differs = []
    if anchor[1] != scope:
        differs.append(f"the session scope “{anchor[1].name if anchor[1] is not None else 'Whole catalog'}”")
    if len(anchor) == 3 and anchor[2] != naming:
        differs.append(f"tool names {anchor[2]} (its recorded sessions are matched by tool name)")
    return " and ".join(differs) or None


def blocked_for_report(v: common.View) -> str | None:
    """What keeps the Tuning page's last goal on the sidebar's catalog from being asked (the fields
    in error), or ``None``."""
    kept = _kept(v)
    return kept if isinstance(kept, str) else None


def recommendation_for_report(v: common.View) -> tuple[MultiRecommendation, Question] | None:
    """The Tuning page's last question asked again of the sidebar's catalog and current settings,
    with the question; ``None`` when the Tuning page has not been opened on this catalog (the same
    source and session scope; the same tool naming too when sessions were read), or its last goal
    there could not be asked (:func:`blocked_for_report`)."""
    kept = _kept(v)
    if not isinstance(kept, Question):
        return None
    q: Question = kept
    ladder = ladder_for(v)
    rec = recommend_for_contexts(ladder, v.config, list(q.lengths), q.goal, except_servers=list(q.except_servers),
                                 keep_servers=list(q.keep_servers), headroom_pct=q.headroom_pct,
                                 length_goals=dict(q.length_goals))
    if q.called is not None:
        rec = add_session_evidence(rec, ladder, list(q.called), q.sessions_read, q.sessions_drift, q.sessions_note)
    return rec, q


def question_words(q: Question, rec: MultiRecommendation) -> str:
    """One line for the Report page: which recommendation the report will carry."""
    lengths = ", ".join(f"{c:,}" if c else "unknown" for c in q.lengths)
    return (f"{rec.goal_words}; context lengths {lengths}"
            + (f", {q.headroom_pct:g}% headroom" if q.headroom_pct else "")
            + (f", with the sessions of {q.sessions_label}" if q.called is not None else ""))


__all__: Sequence[str] = ("Question", "asked_elsewhere", "blocked_for_report", "ladder_for", "question_words", "recommendation_for_report",
                          "remember", "remember_blocked")

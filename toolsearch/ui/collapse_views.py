"""Shared pieces of the collapse what-if views: the verdict badges, a per-planner result store and
the best-collapse-per-context-length table (shown on the Tuning page). Every number comes from
``toolsearch.analysis.collapse``; this module only lays it out."""

from __future__ import annotations

import weakref
from typing import Any, Callable

import streamlit as st

from toolsearch.analysis.collapse import CollapseRow, collapse_table
from toolsearch.analysis.quantities import length_label
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.ui import common
from toolsearch.ui.tables import literal_table

#: verdict → (badge text, badge color).
VERDICT_BADGE = {
    "same": ("Reference choice is already the best", "green"),
    "not_applicable": ("No listing to collapse", "gray"),
    "smaller_listing": ("What-if: shorter listing", "blue"),
    "more_names": ("What-if: more tool names shown", "violet"),
    "fewer_collapsed": ("What-if: fewer servers collapsed", "violet"),
    "missed_fit": ("What-if: the reference missed a fitting listing", "red"),
}

@st.cache_resource
def _shared_results() -> weakref.WeakKeyDictionary:
    """Collapse results per planner, shared by every session (an entry goes with its planner)."""
    return weakref.WeakKeyDictionary()


def shared(owner: Any, key: tuple, make: Callable[[], Any]) -> Any:
    """``make()`` once per ``owner`` and ``key``; the 16 most recently used results are kept. A
    slider moved back to an earlier value is then answered without recomputing."""
    store = _shared_results().setdefault(owner, {})
    if key in store:
        store[key] = store.pop(key)
    else:
        while len(store) >= 16:
            del store[next(iter(store))]
        store[key] = make()
    return store[key]


def ctx_text(n: int | None) -> str:
    """A context length as every surface writes one
    (:func:`~toolsearch.analysis.quantities.length_label`: ``32K``, ``12,345 tokens``, ``unknown``)."""
    return length_label(n)


def collapse_rows(v: common.View, lengths: list[int | None],
                  config: ToolSearchConfig | None = None) -> list[CollapseRow]:
    """:func:`collapse_table` of the sidebar's planner and tokenizer over ``lengths`` (tokens,
    ``None`` = unknown; kept per planner), with ``config`` (default: the sidebar's)."""
    planner = v.inspector.planner
    config = config if config is not None else v.config
    return shared(planner, ("table", config, v.tokenizer, tuple(lengths)),
                  lambda: collapse_table(planner, config, lengths, v.tokenizer))


def show_collapse_table(v: common.View, key: str, lengths: list[int | None],
                        config: ToolSearchConfig | None = None) -> list[CollapseRow]:
    """The reference collapse against the best one at each of ``lengths`` with ``config``'s
    threshold_pct and listing_max_tokens (default: the sidebar's), as a literal-text table under
    ``key``; returns the rows."""
    with st.spinner("Comparing the collapse choices…", show_time=True):
        rows = collapse_rows(v, lengths, config)
    literal_table([{
        "context length": ctx_text(r.context_length), "budget (tokens)": r.budget,
        "reference form": r.form_label("reference"), "best form": r.form_label("best"),
        "tool names (ref → best)": f"{r.reference_names:,} → {r.best_names:,}",
        "verdict": VERDICT_BADGE[r.verdict][0],
    } for r in rows], key=key)
    return rows

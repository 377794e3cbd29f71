"""Cached engine objects and per-session memos shared by the views.

The sidebar's catalogs and inspectors are kept per process (``st.cache_resource``) and taken out
of the cyclic garbage collector's reach while cached; figures are kept per browser session.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import streamlit as st

from toolsearch.engine.catalog import Catalog, load_source
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.profile import Profile


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
    # named as shipped (sample_catalogs/<file>) in problems, not by the folder it is installed in
    catalog = load_source(path, f"sample_catalogs/{Path(path).name}")
    freeze_cached()
    return catalog


#: Figures kept per browser session (see :func:`figure`); the oldest go first above this many.
FIGURE_MEMO_SIZE = 48


def figure(v: Any, name: str, build: Any, *extra: Any) -> Any:
    """``build()`` (a plotly figure for the current catalog and settings; ``v`` is the sidebar's
    :class:`toolsearch.ui.common.View`), kept for this browser
    session per catalog, settings and ``extra``: moving a slider back to a value seen before, or a
    rerun that changes nothing the figure shows (a widget elsewhere on the page), reuses it
    instead of building it again (tens of milliseconds each). Entries are keyed on
    :attr:`toolsearch.ui.common.View.catalog_key`, which names the catalog without holding it: a catalog that the
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

"""Tool pickers that stay small on large catalogs.

A select box sends every option to the browser: at 50,000 tools the wire names alone are about
1.5 MB, sent again whenever the widget is drawn. Up to :data:`PICKER_THRESHOLD` names the pickers
here are the plain Streamlit select boxes; above it they are a filter box (search as you type:
every word must occur in the tool's wire name) over a select box that holds at most
:data:`PICKER_LIMIT` matching names, with a count of the matches. Names are shown literally, with
invisible characters as markers.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import streamlit as st

from toolsearch.ui import common

#: Above this many names a picker filters on the server and sends only the matches.
PICKER_THRESHOLD = 2_000
#: At most this many matching names are offered at a time.
PICKER_LIMIT = 200


def match_names(names: Sequence[str], text: str, limit: int = PICKER_LIMIT) -> tuple[list[str], int]:
    """The names that contain every word of ``text`` (case-insensitive substrings).

    Ranked in three groups, each in the order of ``names``: the name equal to ``text``; names
    that start with the first word, or whose tool part (after the last ``__`` of a prefixed MCP
    name such as ``mcp__github__create_issue``) does; then every other match. An empty ``text``
    matches every name.

    Args:
        names: tool wire names, in catalog order.
        text: what the user typed; surrounding and repeated whitespace is ignored.
        limit: at most this many names are returned (``>= 0``).

    Returns:
        ``(the first limit matches, the number of matches in all)``.
    """
    words = text.casefold().split()
    if not words:
        return list(names[:limit]), len(names)
    whole, first = " ".join(words), words[0]
    exact: list[str] = []
    prefix: list[str] = []
    other: list[str] = []
    for name in names:
        folded = name.casefold()
        if not all(word in folded for word in words):
            continue
        if folded == whole:
            exact.append(name)
        elif folded.startswith(first) or folded.rpartition("__")[2].startswith(first):
            prefix.append(name)
        else:
            other.append(name)
    ranked = exact + prefix + other
    return ranked[:limit], len(ranked)


def _matches(owner: Any, names: Sequence[str], text: str) -> tuple[list[str], int]:
    """:func:`match_names`, kept per ``owner`` (see :func:`toolsearch.ui.common.memo`) and text."""
    return common.memo(owner, ("picker matches", len(names), " ".join(text.casefold().split())),
                       lambda: match_names(names, text), size=16)


def _count_line(shown: int, total: int, of: int) -> str:
    line = f"{total:,} of {of:,} tools match"
    if total > shown:
        line += f"; the first {shown:,} are offered: type more of the name to narrow them"
    return line + "."


def _filter_box(key: str, of: int, container: Any, on_change: Callable[[], None] | None = None) -> str:
    return container.text_input(
        f"Filter tools ({of:,}): part of the name", key=f"{key}_filter", placeholder="e.g. create_issue",
        on_change=on_change,
        help="Type words from the tool's wire name (mcp__server__tool); every word must occur, in any case. "
             f"At most {PICKER_LIMIT} matching names are offered at a time: the catalog is too large to send "
             "every name to the browser.")


def pick_one(label: str, names: Sequence[str], *, key: str, owner: Any, index: int = 0, help: str | None = None,
             container: Any = None) -> str | None:
    """One tool name: ``st.selectbox`` over ``names`` up to :data:`PICKER_THRESHOLD` of them, else a
    filter box (session key ``<key>_filter``) over a select box of at most :data:`PICKER_LIMIT`
    matches. The chosen name (session key ``key``) stays chosen while the filter changes, until
    the user picks another; a filter that no longer matches it moves the choice to its first match.

    Args:
        label: the select box's label.
        names: the tool names (wire names), in catalog order; not empty.
        key: the select box's session key.
        owner: an engine object the catalog cache keeps alive (a bridge, a planner): matches are
            kept per owner and filter text.
        index: the default choice's position in ``names``.
        help: the select box's tooltip.
        container: where to draw (default ``st``).

    Returns:
        The chosen name, or ``None`` when nothing is chosen.
    """
    target = container if container is not None else st
    if len(names) <= PICKER_THRESHOLD:
        return target.selectbox(label, names, index=index, key=key, help=help, format_func=common.visible)

    def refilter() -> None:  # on_change of the filter: a choice the filter rules out moves to its first match
        found, _ = _matches(owner, names, st.session_state.get(f"{key}_filter", ""))
        if found and st.session_state.get(key) not in found:
            st.session_state[key] = found[0]

    text = _filter_box(key, len(names), target, refilter)
    found, total = _matches(owner, names, text)
    current = st.session_state.get(key)
    if current is None or current not in _known(owner, names):
        current = names[index] if not text.strip() or not found else found[0]
    options = found if current in found else [current, *found]
    target.caption(_count_line(len(found), total, len(names)))
    return target.selectbox(label, options, index=options.index(current), key=key, help=help,
                            format_func=common.visible)


def pick_many(label: str, names: Sequence[str], *, key: str, owner: Any, default: Sequence[str] = (),
              help: str | None = None, container: Any = None) -> list[str]:
    """Tool names: ``st.multiselect`` over ``names`` up to :data:`PICKER_THRESHOLD` of them, else a
    filter box (session key ``<key>_filter``) over a multiselect that offers the names already
    chosen plus at most :data:`PICKER_LIMIT` matches; a choice stays chosen while the filter
    changes. See :func:`pick_one` for the arguments; ``default``: the first run's choice.

    Returns:
        The chosen names, in the order chosen.
    """
    target = container if container is not None else st
    if len(names) <= PICKER_THRESHOLD:
        return target.multiselect(label, names, default=list(default), key=key, help=help, wrap=True,
                                  format_func=common.visible)
    text = _filter_box(key, len(names), target)
    found, total = _matches(owner, names, text)
    known = _known(owner, names)
    chosen = [n for n in (st.session_state.get(key) if key in st.session_state else default) if n in known]
    taken = set(chosen)
    options = [*chosen, *(n for n in found if n not in taken)]
    offered = set(options)
    target.caption(_count_line(len(found), total, len(names)))
    # The first run's choice only; a default must be among the options on every run.
    return target.multiselect(label, options, default=[n for n in default if n in offered], key=key, help=help,
                              wrap=True, format_func=common.visible)


def _known(owner: Any, names: Sequence[str]) -> frozenset[str]:
    """``frozenset(names)``, kept per ``owner``."""
    return common.memo(owner, ("picker names", len(names)), lambda: frozenset(names), size=16)


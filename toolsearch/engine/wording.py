"""Counts in words for every message a user reads: ``1 tool``, ``2 tools``, ``1 line was``,
``3 lines were``; never ``tool(s)``.

It lives in the engine so the engine's own problems (registration) and the live layer's can use
it; ``toolsearch.analysis.wording`` re-exports it for the report, the CLI and the app.
"""

from __future__ import annotations

from typing import Sized


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` with thousands separators and the noun in the right number.

    Args:
        n: the count (any integer; only exactly 1 takes the singular).
        singular: the noun for one, e.g. ``"tool"`` or ``"skill read"``.
        plural: the noun for any other count; default ``singular + "s"``.

    Returns:
        e.g. ``counted(1, "tool")`` → ``"1 tool"``, ``counted(1200, "query", "queries")`` →
        ``"1,200 queries"``, ``counted(0, "error")`` → ``"0 errors"``.
    """
    return f"{n:,} {singular if n == 1 else (plural or singular + 's')}"


def agree(n: int | Sized, one: str, many: str) -> str:
    """The word or phrase agreeing with a count: ``one`` for exactly 1, else ``many``.

    Args:
        n: the count, or a sized collection (a list of names) whose length is the count.
        one: the form for exactly one, e.g. ``"was"`` or ``"variable"``.
        many: the form for 0 or 2 and more, e.g. ``"were"`` or ``"variables"``.

    Returns:
        ``one`` or ``many``; e.g. ``agree(1, "was", "were")`` → ``"was"``,
        ``agree(["A", "B"], "variable", "variables")`` → ``"variables"``.
    """
    count = n if isinstance(n, int) else len(n)
    return one if count == 1 else many


__all__ = ["counted", "agree"]

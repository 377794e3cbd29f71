"""Counts in words for every message a user reads: ``1 tool``, ``2 tools``, ``1 line was``,
``3 lines were``; never ``tool(s)``. And the two listing-budget settings in words,
``threshold_pct 5%, listing_max_tokens 4,000``, the one way every sentence names them.

It lives in the engine so the engine's own problems (registration) and the live layer's can use
it; ``toolsearch.analysis.wording`` re-exports it for the report, the CLI and the app.
"""

from __future__ import annotations

from typing import Sized

from . import constants as C


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


def threshold_value(threshold_pct: float) -> str:
    """A ``threshold_pct`` value as every surface shows it to a reader (a sentence, a metric, a table
    cell): the number without trailing zeros and a percent sign.

    Args:
        threshold_pct: the share of the context length, in percent (``5`` means 5%).

    Returns:
        e.g. ``threshold_value(2.0)`` → ``"2%"``, ``threshold_value(73.7)`` → ``"73.7%"``. YAML and
        JSON keep the number itself (``threshold_pct: 2.0``).
    """
    return f"{threshold_pct:g}%"


def threshold_words(threshold_pct: float) -> str:
    """``threshold_pct`` as prose names it: the setting's name, the value and a percent sign.

    Args:
        threshold_pct: the share of the context length, in percent (``5`` means 5%).

    Returns:
        e.g. ``threshold_words(5)`` → ``"threshold_pct 5%"``, ``threshold_words(4.7)`` →
        ``"threshold_pct 4.7%"``. Machine-readable outputs (YAML, JSON, CSV, table cells) keep the
        bare number (``threshold_pct: 5``).
    """
    return f"threshold_pct {threshold_value(threshold_pct)}"


def cap_words(listing_max_tokens: int) -> str:
    """``listing_max_tokens`` alone as every sentence names it: thousands separators, no unit word.

    Args:
        listing_max_tokens: the listing's cap, in tokens.

    Returns:
        e.g. ``cap_words(4000)`` → ``"listing_max_tokens 4,000"``.
    """
    return f"listing_max_tokens {listing_max_tokens:,}"


def settings_words(threshold_pct: float, listing_max_tokens: int) -> str:
    """The two listing-budget settings as every sentence names them (the CLI, the report, the app):
    ``threshold_pct`` with a percent sign, ``listing_max_tokens`` with thousands separators and no
    unit word.

    Args:
        threshold_pct: the share of the context length, in percent.
        listing_max_tokens: the listing's cap, in tokens.

    Returns:
        e.g. ``settings_words(5, 4000)`` → ``"threshold_pct 5%, listing_max_tokens 4,000"``.
    """
    return f"{threshold_words(threshold_pct)}, {cap_words(listing_max_tokens)}"


def settings_name(threshold_pct: float, listing_max_tokens: int) -> str:
    """What a sentence calls the settings it compares with: ``"default settings"`` when both
    values are the reference defaults (threshold_pct 5%, listing_max_tokens 4,000), else
    ``"current settings"`` (a config's or the sidebar's own values). The one rule the Tuning page,
    the report and ``recommend`` follow, so the defaults are never called "current" on one line and
    "default" on the next.

    Args:
        threshold_pct: the share of the context length, in percent.
        listing_max_tokens: the listing's cap, in tokens.

    Returns:
        ``"default settings"`` or ``"current settings"``.
    """
    defaults = (threshold_pct, listing_max_tokens) == (C.THRESHOLD_PCT_DEFAULT, C.LISTING_MAX_TOKENS_DEFAULT)
    return "default settings" if defaults else "current settings"


__all__ = ["counted", "agree", "threshold_value", "threshold_words", "cap_words", "settings_words", "settings_name"]

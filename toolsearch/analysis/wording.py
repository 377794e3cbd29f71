"""Counts in words: ``1 warning``, ``8 warnings``, ``0 errors`` — one rule for the report, the CLI
and the app's summaries, so no count reads ``0 error`` or ``1 tool(s)``."""

from __future__ import annotations

from typing import Mapping

#: How each lint severity is counted (``info`` is not a countable noun on its own).
SEVERITY_NOUNS: dict[str, tuple[str, str]] = {
    "error": ("error", "errors"), "warning": ("warning", "warnings"), "info": ("info note", "info notes"),
}


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


def severity_counts(counts: Mapping[str, int], sep: str = " · ") -> str:
    """Lint counts per severity in words, in the mapping's order: ``"0 errors · 1 warning · 3 info
    notes"``. Unknown severities are counted with their own name."""
    return sep.join(counted(n, *SEVERITY_NOUNS.get(sev, (sev, sev))) for sev, n in counts.items())


__all__ = ["counted", "severity_counts", "SEVERITY_NOUNS"]

"""Counts in words: ``1 warning``, ``8 warnings``, ``0 errors`` — one rule for the report, the CLI
and the app's summaries, so no count reads ``0 error`` or ``1 tool(s)``.

:func:`counted`, :func:`agree`, :func:`threshold_words` and :func:`settings_words` live in
``toolsearch.engine.wording`` (so the engine and the live layer use them too) and are re-exported
here."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from ..engine.wording import agree, cap_words, counted, settings_name, settings_words, threshold_value, threshold_words

#: How each lint severity is counted (``info`` is not a countable noun on its own).
SEVERITY_NOUNS: dict[str, tuple[str, str]] = {
    "error": ("error", "errors"), "warning": ("warning", "warnings"), "info": ("info note", "info notes"),
}


#: Each kind of condition ``toolsearch check`` can miss (:attr:`toolsearch.analysis.check.Miss.kind`)
#: in a few words: what its verdict says was missed (:func:`toolsearch.analysis.check.missed_conditions`),
#: the title of its annotation (``check --format github``) and the cause a failing row of its table names.
MISS_WORDS: dict[str, str] = {"fit": "no request fits", "keep": "a server to keep collapsed", "goal": "goal missed",
                              "size": "listing over the limit", "headroom": "headroom missed",
                              "worse": "worse than the baseline", "reserve": "reserve missed"}


def percent(share: float | None) -> str:
    """A share (0-1) as the app and the CLI print it: one decimal and a percent sign (``28.6%``);
    ``"—"`` for ``None`` (nothing to divide by)."""
    return "—" if share is None else f"{share:.1%}"


def share_cell(part: int, whole: int) -> str:
    """A count out of a total in a table cell, ``7/9`` (servers named, called tools listed): every
    table says it so (``recommend``, ``check``, the report, the Tuning page, ``sessions``); a
    sentence says ``7 of 9``."""
    return f"{part}/{whole}"


#: The app's name for ``called_listed`` (the deferred tools the sessions called that the listing
#: names), on the Sessions and Tuning pages alike.
CALLED_LISTED_COLUMN = "called tools listed by name"


def per_count(value: float | None) -> str:
    """An average count (searches per session, round trips per called tool) as the app and the CLI
    print it: two decimals with thousands separators (``200.67``); ``"—"`` for ``None``."""
    return "—" if value is None else f"{value:,.2f}"


def evaluation_share(share: float | None, missing: str = "—") -> str:
    """A search-quality share as ``toolsearch eval``, the Search quality page, the HTML report, the
    README and the docs print it: a fraction from 0 to 1 with three decimals (``0.938``), never a
    percentage, so that it reads on the scale of MRR beside it. Used for recall@1, recall@k,
    recall@limit, nonsense tasks empty, query recall@k, nonsense queries empty (called "absent
    empty" for the third-party sets) and empty-or-not accuracy, and for the targets set on them (``0.950`` of
    nonsense queries empty); ``missing`` when there is nothing to divide by.

    Shares that are not search-quality figures (of the context, of a budget, of recorded searches)
    stay :func:`percent`."""
    return missing if share is None else f"{share:.3f}"


def mean_reciprocal_rank(mrr: float | None, missing: str = "—") -> str:
    """MRR as ``toolsearch eval``, the Search quality page and the HTML report print it: a mean of
    1/rank from 0 to 1 with three decimals (``0.711``), not a share, so never a percentage (the
    shares beside it read the same way: :func:`evaluation_share`); ``missing`` when there is
    nothing to average."""
    return missing if mrr is None else f"{mrr:.3f}"


def severity_counts(counts: Mapping[str, int], sep: str = " · ") -> str:
    """Lint counts per severity in words, in the mapping's order: ``"0 errors · 1 warning · 3 info
    notes"``. Unknown severities are counted with their own name."""
    return sep.join(counted(n, *SEVERITY_NOUNS.get(sev, (sev, sev))) for sev, n in counts.items())


def shown_path(path: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None,
               home: str | os.PathLike[str] | None = None) -> str:
    """A file or folder path as a reader should see it: relative to the working folder when it is
    inside it (``sample_skills/pdf/SKILL.md``), else ``~/…`` when it is inside the home folder
    (``~/skills/pdf/SKILL.md``), else as given (absolute).

    Args:
        path: absolute, or relative to ``cwd``.
        cwd: the working folder (default: the process's).
        home: the home folder (default: ``~`` expanded; none when it cannot be found).

    Returns:
        The shortened path with the platform's separators; ``"."`` for the working folder itself.
        Nothing is read from the disk (no symlink is resolved).
    """
    cwd_path = Path(os.path.abspath(cwd if cwd is not None else os.getcwd()))
    full = Path(os.path.abspath(cwd_path / path))
    if full == cwd_path or cwd_path in full.parents:
        return str(full.relative_to(cwd_path))
    if home is None:
        expanded = os.path.expanduser("~")
        home = expanded if expanded != "~" else None
    if home is not None:
        home_path = Path(os.path.abspath(home))
        if full == home_path:
            return "~"
        if home_path in full.parents and home_path != Path(home_path.anchor):
            return str(Path("~") / full.relative_to(home_path))
    return str(full) if Path(path).is_absolute() else str(path)


__all__ = ["counted", "agree", "cap_words", "settings_name", "settings_words", "threshold_value", "threshold_words", "severity_counts", "shown_path", "SEVERITY_NOUNS"]


#: The gate term and the coverage floor (docs/reference.md §7.4) in plain words, where a page first
#: shows them (the Search page's "Why" lines, the Sessions page's failed searches).
GATE_TERM_WORDS = ("Gate term: the query's rarest word, stemmed (errors → error): only tools that contain it can "
                   "match, besides a tool whose name is the whole query.")
COVERAGE_FLOOR_WORDS = ("Coverage floor: how many of the query's words a tool must contain (1 for up to three words "
                        "the catalog knows, otherwise half of them, rounded up).")

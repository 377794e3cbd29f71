"""Small helpers shared by the command-line modules: argument types and plain-text tables."""

from __future__ import annotations

import argparse
from typing import Any, Sequence

from ..engine import constants as C


def parse_context_length(text: str) -> int | None:
    """argparse type for a context length in tokens: ``200000``, ``200k``, ``1m`` or ``unknown``.

    Returns ``None`` for unknown. Raises :class:`argparse.ArgumentTypeError` for anything else,
    including ``inf``/``nan`` and values beyond any real context window.
    """
    value = text.strip().lower().replace("_", "").replace(",", "")
    if value in ("unknown", "none", ""):
        return None
    multiplier = 1
    if value.endswith("k"):
        value, multiplier = value[:-1], 1_000
    elif value.endswith("m"):
        value, multiplier = value[:-1], 1_000_000
    try:
        number = float(value) * multiplier
        if not number < C.CONTEXT_LENGTH_MAX * 1000:  # also rejects inf and nan
            raise ValueError
        return int(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of tokens (e.g. 200000, 200k) or 'unknown', got {text!r}") from None


def parse_seconds(text: str) -> float:
    """argparse type for a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def text_table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> str:
    """Left-aligned columns separated by two spaces, a dashed rule under the header, no trailing spaces."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines.extend("  ".join(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in rows)
    return "\n".join(lines)

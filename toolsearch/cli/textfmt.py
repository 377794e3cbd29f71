"""Small helpers shared by the command-line modules: argument types and plain-text tables."""

from __future__ import annotations

import argparse
import math
from typing import Any, Sequence

from ..engine import constants as C


def parse_context_length(text: str) -> int | None:
    """argparse type for a context length in tokens: ``200000``, ``200k``, ``1m`` or ``unknown``.

    Returns ``None`` for unknown. Raises :class:`argparse.ArgumentTypeError` (argparse names the
    flag) for anything else: not a number, ``inf``/``nan``, 0 or fewer tokens (below one token
    after truncation), or more than ``CONTEXT_LENGTH_ARG_MAX`` tokens; the message gives the
    accepted range.
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
        if not 1 <= number <= C.CONTEXT_LENGTH_ARG_MAX:  # also rejects inf and nan
            raise ValueError
        return int(number)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a positive number of tokens from 1 to {C.CONTEXT_LENGTH_ARG_MAX:,} (e.g. 200000, 200k, 1m) "
            f"or 'unknown', got {text!r}") from None


def parse_threshold_pct(text: str) -> str:
    """argparse type for ``--threshold-pct``: any finite number (``5``, ``2.5``, ``5%``).

    Returns the text as given (without a trailing ``%``), so the config parser clamps it to
    ``THRESHOLD_PCT_MIN``..``THRESHOLD_PCT_MAX`` as the reference clamps a harness config, with
    its warning line. Raises :class:`argparse.ArgumentTypeError` for text that is not a number.
    """
    value = text.strip().removesuffix("%").strip()
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(
            f"expected a number of percent from {C.THRESHOLD_PCT_MIN:g} to {C.THRESHOLD_PCT_MAX:g} "
            f"(values outside are clamped), got {text!r}")
    return value


def parse_listing_max_tokens(text: str) -> str:
    """argparse type for ``--listing-max-tokens``: a whole number of tokens (``4000``, ``4_000``).

    Returns the number's text, so the config parser clamps it to
    ``LISTING_MAX_TOKENS_MIN``..``LISTING_MAX_TOKENS_MAX`` as the reference does, with its warning
    line. Raises :class:`argparse.ArgumentTypeError` for anything that is not a whole number.
    """
    value = text.strip().replace("_", "").replace(",", "")
    try:
        int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of tokens from {C.LISTING_MAX_TOKENS_MIN} to {C.LISTING_MAX_TOKENS_MAX} "
            f"(values outside are clamped), got {text!r}") from None
    return value


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

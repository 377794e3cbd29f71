"""Pieces shared by the command-line modules: the parser class, the plan settings arguments, the
config they make, live-connection progress and load warnings.

Both :mod:`toolsearch.cli.commands` and the subcommand modules import these, so they live here
rather than in ``commands`` (which imports the subcommand modules).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from typing import Sequence

from ..engine import constants as C
from ..engine.config import ToolSearchConfig, load_config, parse_config
from ..engine.inspector import Inspector
from .textfmt import parse_context_length as _context_length


_INVALID_CHOICE = re.compile(r"invalid choice: '?([^'(]*?)'? \(choose from (.*)\)")


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to a misspelled ``word`` (difflib's ratio, at least 0.6), or ``None``."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(message: str) -> str:
    """A "did you mean" hint for argparse's "invalid choice" message (a misspelled command or
    option value); ``""`` when there is nothing close."""
    match = _INVALID_CHOICE.search(message)
    if match is None:
        return ""
    choices = [c.strip().strip("'\"") for c in match.group(2).split(",")]
    guess = nearest(match.group(1), choices)
    return f"; did you mean '{guess}'?" if guess else ""


def unrecognized(parser: argparse.ArgumentParser, extra: Sequence[str]) -> str:
    """The message for arguments ``parser`` does not know, naming the nearest option of ``parser``
    for each misspelled flag (``--jsn`` → ``--json``)."""
    options = [o for action in parser._actions for o in action.option_strings]  # noqa: SLF001 - argparse has no API
    hints = []
    for arg in extra:
        if arg.startswith("-"):
            guess = nearest(arg.split("=", 1)[0], options)
            if guess:
                hints.append(f"did you mean '{guess}' for '{arg}'?")
    return f"unrecognized arguments: {' '.join(extra)}" + (f"; {'; '.join(hints)}" if hints else "")


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on one stderr line (DESIGN.md: one-line message, exit 2), and the
    nearest command or value named when one is misspelled."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}{did_you_mean(message)}\n")


def live_progress(status) -> None:
    """Final per-server lines on stderr while servers connect."""
    if status.done:
        print(f"toolsearch: live: {status.summary()}", file=sys.stderr, flush=True)


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the plan settings (context length, threshold_pct, listing_max_tokens, listing, enabled,
    planning tokenizer) to a subcommand parser; :func:`config_from_args` reads them."""
    parser.add_argument("--context-length", type=_context_length, default=None, metavar="N",
                        help="model context length in tokens (e.g. 200000, 200k) or 'unknown' (default)")
    parser.add_argument("--threshold-pct", metavar="P", help=f"percent of context for the listing (0-100, default {C.THRESHOLD_PCT_DEFAULT:g})")
    parser.add_argument("--listing-max-tokens", metavar="M", help=f"listing budget cap ({C.LISTING_MAX_TOKENS_MIN}-{C.LISTING_MAX_TOKENS_MAX}, default {C.LISTING_MAX_TOKENS_DEFAULT})")
    parser.add_argument("--listing", choices=C.TRI_STATE_VALUES,
                        help="embed the listing of deferred tools in the tool_search description: auto and on do "
                             "(the default), off sends the bridge tools with no listing")
    parser.add_argument("--enabled", choices=C.TRI_STATE_VALUES,
                        help="tool search itself: auto and on defer what can be deferred (the default), off sends "
                             "every tool with its full schema")
    parser.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                        help="tokenizer that decides whether the listing fits (chars4 = the reference's estimate)")


def config_from_args(args: argparse.Namespace) -> ToolSearchConfig:
    """The ``tools.tool_search`` settings: ``--config``'s block (else the defaults) with the flags
    given on top.

    Raises:
        ConfigError: an unreadable or invalid config file or flag value.
    """
    config = load_config(args.config) if args.config else parse_config({})
    overrides = {key: getattr(args, key, None) for key in ("threshold_pct", "listing_max_tokens", "listing", "enabled")}
    if isinstance(overrides.get("listing_max_tokens"), list):
        overrides["listing_max_tokens"] = None
    return config.with_overrides(**overrides) if any(v is not None for v in overrides.values()) else config


def report_loaded(warnings: Sequence[str], config: ToolSearchConfig, inspector: Inspector) -> None:
    """Config and catalog warnings on stderr (live connect failures were reported as they happened)."""
    from ..live.client import is_connect_failure  # noqa: PLC0415

    for warning in [*warnings, *config.warnings]:
        print(f"toolsearch: warning: {warning}", file=sys.stderr)
    for problem in inspector.registration.problems:
        if problem.severity != "info" and not is_connect_failure(problem):  # already reported live
            print(f"toolsearch: catalog {problem.severity}: {problem.where}: {problem.message}", file=sys.stderr)

"""Pieces shared by the command-line modules: the parser class, the plan settings arguments, the
config they make, live-connection progress and load warnings.

Both :mod:`toolsearch.cli.commands` and the subcommand modules import these, so they live here
rather than in ``commands`` (which imports the subcommand modules).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ..engine import constants as C
from ..engine.config import ToolSearchConfig, load_config, parse_config
from ..engine.inspector import Inspector
from .textfmt import parse_context_length as _context_length


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on one stderr line (DESIGN.md: one-line message, exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


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

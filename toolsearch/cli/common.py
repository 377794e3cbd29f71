"""Pieces shared by the command-line modules: the parser class and live-connection progress.

Both :mod:`toolsearch.cli.commands` and the subcommand modules import these, so they live here
rather than in ``commands`` (which imports the subcommand modules).
"""

from __future__ import annotations

import argparse
import sys


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on one stderr line (DESIGN.md: one-line message, exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def live_progress(status) -> None:
    """Final per-server lines on stderr while servers connect."""
    if status.done:
        print(f"toolsearch: live: {status.summary()}", file=sys.stderr, flush=True)

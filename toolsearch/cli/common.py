"""Pieces shared by the command-line modules: the parser class, live-connection progress and the
terminal-safe JSON writer (:func:`print_json`).

Both :mod:`toolsearch.cli.commands` and the subcommand modules import these, so they live here
rather than in ``commands`` (which imports the subcommand modules).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from typing import Any


class Parser(argparse.ArgumentParser):
    """argparse with usage errors on one stderr line (DESIGN.md: one-line message, exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def live_progress(status) -> None:
    """Final per-server lines on stderr while servers connect."""
    if status.done:
        print(f"toolsearch: live: {status.summary()}", file=sys.stderr, flush=True)


#: Characters a JSON string may carry raw but a terminal must not receive: C0/C1 controls and DEL
#: (``Cc``), format characters (``Cf``: bidi controls, zero-width characters, TAG characters…),
#: lone surrogates (``Cs``) and the line/paragraph separators (``Zl``, ``Zp``).
_JSON_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NON_ASCII_OR_DEL = re.compile("[^\x00-\x7e]")


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if unicodedata.category(char) not in _JSON_ESCAPED_CATEGORIES:
        return char
    code = ord(char)
    if code > 0xFFFF:  # astral (e.g. TAG characters U+E0000…): a UTF-16 surrogate pair, as JSON spells it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def dumps_json(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON text that is safe to print on a terminal.

    Readable characters stay as they are (``ensure_ascii`` is off), but every character that a
    terminal would act on or hide is written as a ``\\uXXXX`` escape: controls (including DEL and
    C1), all ``Cf`` format characters (bidi overrides such as U+202E, zero-width characters,
    U+E0001… TAG characters as surrogate pairs), lone surrogates and U+2028/U+2029. Escapes are only
    possible inside JSON strings, so the text stays valid JSON and ``json.loads`` gives back
    ``value`` exactly.

    Args:
        value: anything :func:`json.dumps` accepts.
        indent: spaces per level, or ``None`` for one line.

    Returns:
        The JSON text, without a trailing newline.

    Raises:
        TypeError / ValueError: as :func:`json.dumps` for values JSON cannot hold.
    """
    return _NON_ASCII_OR_DEL.sub(_json_escape, json.dumps(value, ensure_ascii=False, indent=indent))


def print_json(value: Any, indent: int | None = 2) -> None:
    """Print :func:`dumps_json` of ``value`` on stdout (every ``--json`` output goes through this)."""
    print(dumps_json(value, indent))

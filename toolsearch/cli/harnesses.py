"""``toolsearch harnesses``: one catalog under other harnesses' tool-search switches.

A thin shell over :mod:`toolsearch.analysis.harnesses`: parsing and printing only. Wired into the
``toolsearch`` console script by :mod:`toolsearch.cli.commands` through :func:`add_parser` and
:func:`run`::

    toolsearch harnesses CATALOG... --context-lengths N,N,... [--setting HARNESS=VALUE]...
                         [--pin-server NAME]... [--pin-tool NAME]... [--sessions FILE]... [--json]

``--json`` prints a list of rows (``harness``, ``setting``, ``context_length``, ``active``,
``upfront_tokens``, ``visible``, ``flip_at``, ``source``, then extras). Exit status 0, or 2 for bad
arguments or unreadable files (one line on stderr naming the file and the problem).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engine.invisible import quoted
from ..engine.wording import counted
from ..analysis import harnesses as H
from ..engine import constants as C
from ..engine.config import parse_config
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from .common import Once, add_timeout_argument, load_harness_config, note_unused_settings, print_json
from .examples import epilog
from .textfmt import context_length_items, one_line, parse_context_length, parse_context_lengths, text_table

COMMANDS = ("harnesses",)

EXAMPLES = ("toolsearch harnesses sample_catalogs/five-servers.yaml --context-lengths 200k,1m",
            "toolsearch harnesses sample_catalogs/github-full.yaml --context-lengths 128k "
            "--setting claude-code=auto:5 --pin-server github --json")


def _lengths(text: str) -> list[int]:
    """argparse type of ``--context-lengths``: known lengths only (the harness rules are
    percentages of one), read as every command reads the option (:func:`parse_context_lengths`:
    a repeated length counted once, with one warning line naming its spellings)."""
    for part in context_length_items(text):
        if parse_context_length(part) is None:
            raise argparse.ArgumentTypeError(f"the harness rules need known context lengths, got {quoted(part.strip())}")
    values = parse_context_lengths(text)
    if not values:
        raise argparse.ArgumentTypeError("expected at least one context length, e.g. 200k,1m")
    return [value for value in values if value is not None]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``harnesses`` subcommand to an ``add_subparsers()`` object and return its parser."""
    p = subparsers.add_parser(
        "harnesses", help="the same catalog under the switches of Hermes, Claude Code, Qwen Code, kiro-cli, count and Strands",
        description="For each harness rule and context length: whether tool search is active, the tokens and "
                    "what the model sees up front, the context length where the rule flips for this catalog, "
                    "and the knob value for either outcome. Hermes is the exact engine; the others are labeled "
                    "models of documented behaviour.",
        epilog=epilog(EXAMPLES), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sources", nargs="+", metavar="CATALOG",
                   help="catalog files (or MCP client config files, whose servers are started and listed live)")
    p.add_argument("--context-lengths", type=_lengths, action=Once, required=True, metavar="N,N,...",
                   help="context lengths in tokens, e.g. 128k,200k,1m")
    p.add_argument("--setting", action="append", default=[], metavar="HARNESS=VALUE",
                   help="replace a harness's default settings (repeatable): hermes=auto|on|off|config, "
                        "claude-code=unset|unset-third-party|true|auto|auto:N|false, qwen-code=N%%, "
                        "kiro-cli=P%%/TOKENS|off, count=N, strands=toolCount=N+schemaTokens=N%%")
    p.add_argument("--harness", action="append", choices=H.HARNESSES, default=None,
                   help="only these harnesses (repeatable; default all)")
    p.add_argument("--pin-server", action="append", default=[], metavar="NAME",
                   help="what-if: pin every tool of this server (Claude Code alwaysLoad; Hermes' proposed "
                        "defer: false, not released)")
    p.add_argument("--pin-tool", action="append", default=[], metavar="NAME",
                   help="what-if: pin this tool (wire name, server tool name or mcp-<server> toolset)")
    p.add_argument("--sessions", action="append", default=[], metavar="FILE",
                   help="recorded sessions: round trips the pins save; without pins, their most-called tools "
                        "are pinned")
    p.add_argument("--config", action=Once, metavar="FILE", help="Hermes config.yaml (tools.tool_search)")
    p.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                   help="prefixed (default) registers MCP tools as mcp__<server>__<tool>, as the reference does; "
                        "as-is keeps catalog names")
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER, help="counts every figure")
    add_timeout_argument(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of rows")
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``toolsearch harnesses`` for parsed ``args``. Returns the exit status (0, or 2 on errors)."""
    try:
        return _run(args)
    except ToolsearchError as exc:
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:
        return 0


def _run(args: argparse.Namespace) -> int:
    from .common import load_sources, report_loaded, server_refusal  # noqa: PLC0415

    settings = H.parse_settings(args.setting)
    config = load_harness_config(args.config) if args.config else parse_config({})
    loaded = load_sources(args.sources, timeout=args.timeout, refuse_configs=server_refusal(args))
    note_unused_settings(loaded.settings_files, args.config)
    inspector = Inspector(loaded.catalog, args.tool_names)
    report_loaded(loaded.warnings, config, inspector)  # the catalog's problems too: a skipped tool is named
    from .common import config_servers_said  # noqa: PLC0415

    config_servers_said(args.config, inspector)
    sessions = None
    if args.sessions:
        from ..analysis.sessions import load_sessions  # noqa: PLC0415 - only with --sessions

        read = load_sessions(args.sessions)
        for problem in read.problems:
            print(f"toolsearch: sessions: {problem}", file=sys.stderr)
        sessions = read.sessions
    pins = H.resolve_pins(inspector, args.pin_server, args.pin_tool)
    if not pins and sessions:
        pins = tuple(sorted(name for name, _ in H.most_called_tools(sessions, inspector)))
    harnesses = tuple(args.harness) if args.harness else H.HARNESSES
    rows = H.harness_rows(inspector, args.context_lengths, config, args.tokenizer, settings, harnesses)
    what_ifs = []
    if pins:
        for length in args.context_lengths:
            for harness in (H.CLAUDE_CODE, H.HERMES):
                if harness in harnesses:
                    what_ifs.append(H.pin_what_if(inspector, harness, pins, length, sessions, config, args.tokenizer))
    if args.json:
        out = [r.to_dict() for r in rows]
        out.extend(w.row_dict() for w in what_ifs)
        print_json(out)
        return 0
    print(f"catalog: {one_line(inspector.catalog.name or ', '.join(args.sources))} \u2014 tokenizer {args.tokenizer}")
    for length in args.context_lengths:
        print()
        print(H.length_heading(length))  # the page's heading, the page's columns and cells
        table = [list(H.row_cells(r).values()) for r in rows if r.context_length == length]
        print(text_table(table, H.ROW_COLUMNS))
        for r in rows:
            if r.context_length == length:
                print(f"  {H.HARNESS_LABELS[r.harness]} ({r.setting}): {r.knob}")
                for note in r.notes:  # as the Harnesses page says them under the table
                    print(f"  {H.HARNESS_LABELS[r.harness]} ({r.setting}): note: {note}")
        for w in what_ifs:
            if w.after.context_length == length:
                saved = "no sessions loaded" if w.round_trips_saved is None else \
                    f"saves {counted(w.round_trips_saved, 'round trip')} in {counted(w.sessions, 'recorded session')}"
                print(f"  pins, {w.label}: {counted(len(w.pinned), 'tool')} cost "
                      f"{w.cost_tokens:+,} tokens on every request; {saved}")
    if pins:
        print()
        print("pinned: " + ", ".join(pins))
    print()
    print("sources:")
    for harness in harnesses:
        print(f"  {H.HARNESS_LABELS[harness]}: {H.SOURCES[harness]}")
    return 0

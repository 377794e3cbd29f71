"""``toolsearch`` command line: a thin shell over the engine (DESIGN.md "CLI contract").

Exit status 0 on success, 2 for bad arguments or unreadable sources (one line on stderr naming
the file and the problem; never a traceback for a user mistake).
"""

from __future__ import annotations

import argparse
import codecs
import errno
import logging
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..engine import constants as C
from .scopes import add_scope_arguments, one_scope, scope_line, scope_summary, scopes_from_args
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.search import FILLER_NOTE
from ..engine.profile import load_profile
from ..engine import readers
from ..engine.readers import load_typed_json
from ..engine.transport import TRANSPORTS, transport_note, wire_names, wire_tools
from .textfmt import (list_items, one_line, output_file, output_problem, write_output_file, parse_context_lengths, parse_listing_max_tokens as _listing_max_tokens,
                      parse_seconds as _seconds, parse_threshold_pct as _threshold_pct, terminal_safe as _terminal_safe, legacy_command_safe,
                      THOUSANDS_ZERO_GROUP, name_cell, runner_safe, split_context_lengths, text_table as _table,
                      whole_number)
from ..engine.invisible import quoted, quoted_key, quoted_short, reveal, reveal_data, reveal_line
from ..analysis.schema_lint import catalog_schema_losses, schema_view
from ..analysis.sweep import DEFAULT_CONTEXT_LENGTHS, DEFAULT_THRESHOLD_PCTS, listing_ladder, plan_counts, sweep
from ..analysis.variants import (REFERENCE, VARIANT_HELP, VariantError, canonical_name, is_reference, side_by_side, side_by_side_cells,
                                 side_by_side_names, variant_label, variant_options)
from ..analysis import quantities as Q
from ..analysis.quantities import form_word
from ..analysis.wording import counted, settings_words
from .. import __version__
from .examples import add_examples
from .textfmt import goal_argument, typed_float
from .common import (GOAL_HELP, RESERVE_HELP, Parser, reserve_pct, cites_docs_page, problem_line, goal_for, keep_for, read_session_evidence, headroom_pct, add_settings_arguments as _settings, config_from_args as _config, dumps_json, live_progress,
                     print_json, refuse_unlisted_servers, refuse_unread_items, report_loaded as _report_loaded, unrecognized,
                     use_shipped_samples, write_csv, write_data, decided, broken_pipe_status, forget_decided_status,
                     placeholder_error, missing_sample_error, stdout_onto_input_error, refuse_stdout_onto, input_written_over, Once, note_unused_settings, config_servers_said, with_server_agreement, warn_empty_catalog, flag_warning, empty_query_warning, gate_files,
                     load_sources, add_no_servers_argument, server_refusal)

if TYPE_CHECKING:
    from ..live.mcpconfig import ServerSpec

# A command imports what only it needs (live servers, recommendations, the subcommand modules'
# analyses) when it runs: ``--help`` and ``plan`` should not pay for ``recommend``'s or ``eval``'s.


class UsageError(ToolsearchError):
    """A command-line value that cannot be used."""




def _float_list(text: str) -> list[float]:
    """``--threshold-pcts``: comma-separated numbers (each checked like ``--threshold-pct``),
    duplicates dropped, order kept (as ``--context-lengths``)."""
    return list(dict.fromkeys(typed_float(_threshold_pct(part))
                              for part in list_items(text, "numbers of percent", "a number of percent such as 2.5")))


def _cap_list(text: str) -> list[int]:
    """``sweep --listing-max-tokens``: comma-separated whole numbers of tokens, duplicates dropped,
    order kept (as ``--context-lengths``); ``4,000`` refused as there (it would read as 4 and 0), but
    ``100,300`` is two values."""
    split_context_lengths(text, "the values", "value", THOUSANDS_ZERO_GROUP)
    return list(dict.fromkeys(_listing_max_tokens(part) for part in
                              list_items(text, "whole numbers of tokens", "a whole number of tokens such as 4000")))




def _variant(text: str) -> str:
    try:
        variant_options(text)
    except VariantError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return canonical_name(text)


def _variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", type=_variant, default=REFERENCE, metavar="VARIANT",
                        help=f"search variant (default {REFERENCE}: what the model gets; any other is a what-if). "
                             + "; ".join(f"{name}: {text}" for name, text in VARIANT_HELP.items()).replace("%", "%%")
                             + ". Combine with '+', e.g. unicode+no-gate")


def _synth_tools(text: str) -> int:
    value = _positive_int(text)
    if value > C.SYNTH_MAX_TOOLS:
        raise argparse.ArgumentTypeError(f"expected at most {C.SYNTH_MAX_TOOLS:,} tools (a larger catalog file is "
                                         f"over the size toolsearch reads back), got {quoted(text)}")
    return value


def _seed(text: str) -> int:
    """``synth --seed``: any whole number (:func:`~.textfmt.whole_number`)."""
    return whole_number(text, "expected a whole number")


def _positive_int(text: str) -> int:
    return whole_number(text, "expected a whole number above 0", least=1)


def _response_tokenizer_argument(parser: argparse.ArgumentParser) -> None:
    """``--tokenizer`` of ``search`` and ``describe``: what the bridge response's size on the
    text output's last line is counted with."""
    parser.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                        help="tokenizer the response's size is counted with, on its last line (the Search page's "
                             f"display tokenizer; default {C.DEFAULT_TOKENIZER})")


def _common(parser: argparse.ArgumentParser, output: Any = None, json_help: str = "print JSON") -> None:
    """The arguments every catalog command takes; ``--json`` goes into ``output`` when given (a
    mutually exclusive group of the command's output formats), with ``json_help`` as its help
    (a command with a ``--format`` option says it is ``--format json``)."""
    parser.add_argument("sources", nargs="+", metavar="SOURCE",
                        help="catalog files (catalog YAML/JSON, recorded tools/list JSON, function arrays) or "
                             "MCP client config files (mcpServers / servers / mcp_servers: their servers are "
                             "started and listed live)")
    add_no_servers_argument(parser)
    parser.add_argument("--connect-timeout", type=_seconds, default=None, metavar="SECONDS",
                        help=f"live servers: seconds per server for start-up + handshake + listing when the config "
                             f"sets no connect_timeout (default {C.LIVE_CONNECT_TIMEOUT_DEFAULT:g})")
    if parser.prog.split()[-1] == "call":
        timeout_help = (f"live servers: seconds for the tool call itself (default: the config's timeout, else "
                        f"{C.LIVE_CALL_TIMEOUT_DEFAULT:g}); a larger value also raises the connect budget "
                        "(in the other commands, backward compatible: the same as --connect-timeout)")
    else:  # the other commands call no tool: --timeout is the connect budget (kept for older scripts)
        timeout_help = "the same as --connect-timeout"
    parser.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS", help=timeout_help)
    parser.add_argument("--config", action=Once, metavar="FILE",
                        help="harness config.yaml; its tools.tool_search block is used")
    parser.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                        help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    parser.add_argument("--profile", metavar="FILE", help="wording profile YAML (default: the shipped one)")
    (output or parser).add_argument("--json", action="store_true", help=json_help)
    add_scope_arguments(parser)


class _OneQuery(argparse.Action):
    """``explain -q``: one query. A second ``-q`` is refused rather than replacing the first, since
    ``search -q`` is repeatable and a user may expect the same here."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"argument {option_string}: explain takes one query, and {option_string} was given again "
                         "(run explain once per query; search -q takes several)")
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (subcommands plan, search, describe, explain, call, sweep, recommend, snapshot, synth, ...)."""
    parser = Parser(prog="toolsearch", description="Inspect progressive tool disclosure (tool search) for a tool catalog.")
    parser.add_argument("--version", action="version", version=f"toolsearch {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("plan", help="what the model sees: tier, listing form, budget, per-server states")
    _common(p)
    _settings(p)
    p.add_argument("--transport", choices=TRANSPORTS, default=None,
                   help="show the tools array as sent on this provider transport: where tool_search is reserved "
                        "(openai-responses, xai) the bridge goes out as hermes_tool_search (default: names as they are)")

    p = sub.add_parser("search", help="run tool_search queries and print the response (exit 1 when the bridge "
                                      "answers with an error)",
                       description="Run one tool_search call with every query given and print the response. Exit "
                                   "status 0 when the bridge answers with matches (or none), 1 when it answers with "
                                   "an error (a blank query, too many queries), 2 for bad input.")
    _common(p)
    p.add_argument("-q", "--query", action="append", required=True, dest="queries", metavar="QUERY",
                   help="a query as the model would send it (repeatable: one tool_search call with every query)")
    p.add_argument("--limit", type=_search_limit, metavar="N",
                   help="matches per query, a whole number (clamped to 1..max_search_limit, as the bridge clamps "
                        "the model's limit)")
    _response_tokenizer_argument(p)
    _variant_argument(p)
    p.add_argument("--side-by-side", action="store_true",
                   help="instead of the response: per query, the names the reference, the --variant and other "
                        "harnesses' rankers (anthropic-bm25, anthropic-regex, hermes-name-bonus) return, in columns")

    p = sub.add_parser("describe", help="run tool_describe for names and print the response (exit 1 when a name "
                                        "is not found or refused)",
                       usage="toolsearch describe SOURCE... NAME... [options]",
                       description="Run one tool_describe call for the names given and print the response. Exit "
                                   "status 0 when every name is described, 1 when a name is not found or refused "
                                   "(the response says which), 2 for bad input.")
    _common(p)
    _names_after_sources(p)
    _response_tokenizer_argument(p)
    p.add_argument("--sent", action="store_true",
                   help="instead: each tool's input schema as the server sent it against the parameters the model "
                        "receives after registration, and what registration lost")
    p.set_defaults(split_names=True)

    p = sub.add_parser("explain", help="explain one query: stems, IDF, gate term, coverage, candidates")
    _common(p)
    p.add_argument("-q", "--query", required=True, metavar="QUERY", action=_OneQuery,
                   help="the query to explain (one; search -q takes several)")
    p.add_argument("--limit", type=_search_limit, metavar="N",
                   help="matches shown, a whole number (clamped to 1..max_search_limit, as the bridge clamps "
                        "the model's limit)")
    _variant_argument(p)

    p = sub.add_parser("call", help="validate a tool_call locally, then show what would be dispatched "
                                    "(catalog files) or call the real tool (MCP config files); exit 1 when it is "
                                    "refused or the tool reports an error",
                       usage="toolsearch call SOURCE... NAME [-a JSON] [options]",
                       description="Validate one tool_call as the bridge does; with catalog files print what "
                                   "would be dispatched, with MCP client config files call the real tool. Exit "
                                   "status 0 when the call passes (and the real tool succeeds), 1 when the "
                                   "bridge refuses it (the response says why) or the tool reports an error, 2 "
                                   "for bad input.")
    _common(p)
    _names_after_sources(p)
    p.add_argument("--arguments", "-a", default="{}", metavar="JSON", help="the call's arguments as a JSON object")
    p.set_defaults(split_names=True)

    p = sub.add_parser("sweep", help="plans over context lengths x threshold_pct")
    sweep_output = p.add_mutually_exclusive_group()
    _common(p, sweep_output)
    p.add_argument("--context-lengths", type=parse_context_lengths, action=Once, default=list(DEFAULT_CONTEXT_LENGTHS),
                   metavar="N,N,...",
                   help="context lengths in tokens, comma-separated ('unknown' allowed; default "
                        + ",".join(str(c) if c else "unknown" for c in DEFAULT_CONTEXT_LENGTHS) + ")")
    p.add_argument("--threshold-pcts", type=_float_list, action=Once, default=None, metavar="P,P,...",
                   help="threshold_pct values in %%, comma-separated (default: the config's with --config, else "
                        + ",".join(f"{p:g}" for p in DEFAULT_THRESHOLD_PCTS) + ")")
    p.add_argument("--listing-max-tokens", type=_cap_list, action=Once, default=None, metavar="M[,M...]",
                   help="listing_max_tokens values in tokens, comma-separated (default: the config's)")
    sweep_output.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                   help="tokenizer that decides whether the listing fits (chars4 = the reference's estimate)")

    p = sub.add_parser("recommend", help="one threshold_pct and listing_max_tokens that reach a goal at every "
                                         "listed context length (exit 1 when none does)",
                       description="One threshold_pct and listing_max_tokens that reach the goal at every listed "
                                   "context length. Exit status 0 when a setting does, 1 when none does (the best "
                                   "reachable one is printed, with why), 2 for bad input.")
    _common(p, json_help="the same as --format json")
    p.add_argument("--context-lengths", type=parse_context_lengths, action=Once, required=True, metavar="N,N,...",
                   help="the context lengths the config serves, e.g. 32k,128k,200k,1m")
    p.add_argument("--goal", type=goal_argument, action=Once, required=True, metavar="GOAL|LENGTH=GOAL,...",
                   help=GOAL_HELP)
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                   help="tokenizer that decides whether the listing fits (chars4 = the reference's estimate)")
    p.add_argument("--except", dest="except_servers", action="append", default=[], metavar="SERVER",
                   help="a server that may collapse to a summary line (relaxes goal names); repeatable")
    p.add_argument("--keep", dest="keep_servers", action="append", default=[], metavar="SERVER",
                   help="a server that must stay at names or better (any goal); repeatable")
    p.add_argument("--headroom", type=headroom_pct, action=Once, default=C.HEADROOM_PCT_DEFAULT, metavar="PCT",
                   help="keep the budget at least PCT %% above the listing at every length (default 0: tight): "
                        "the room the catalog grows into before the listing changes")
    p.add_argument("--reserve", type=reserve_pct, action=Once, default=C.RESERVE_PCT_DEFAULT, metavar="PCT",
                   help=RESERVE_HELP)
    p.add_argument("--sessions", dest="session_sources", action="extend", nargs="+", default=[], metavar="SRC",
                   help="recorded sessions (Hermes state.db, exports, transcripts): how many of the tools they "
                        "called the setting lists by name at each length")
    p.add_argument("--keep-called", action="store_true",
                   help="with --sessions: keep every server whose tools the sessions called at names or better, "
                        "as if each were given with --keep (an --except server stays excepted); the output names "
                        "the servers it added")
    p.add_argument("--format", choices=RECOMMEND_FORMATS, default=None,
                   help="text (default); markdown (for a pull request comment: the table and the gate line); "
                        "json; yaml: the harness config block (tools: tool_search:) with where it came from and, "
                        "when the goal is reached, a '# gate:' line: the toolsearch check command that fails a "
                        "build when the goal breaks (without --headroom: growth spends the headroom)")
    p.add_argument("--yaml", action="store_true", help="the same as --format yaml")

    p = sub.add_parser("snapshot", help="connect to the servers of MCP client config files and write their "
                                        "tools as a catalog file (server info included; exit 1 when a server did not "
                                        "list its tools)",
                       description="Connect to the servers of MCP client config files and write their tools as a "
                                   "catalog file, server info included. Exit status 0 when every server listed its "
                                   "tools, 1 when one did not (the file is written and records it under "
                                   "snapshot.failed; check refuses such a file), 2 for bad input.")
    p.add_argument("configs", nargs="+", metavar="CONFIG", help="MCP client config files")
    p.add_argument("-o", "--output", type=output_file, metavar="FILE",
                   help="catalog YAML to write (default: standard output)")
    p.add_argument("--timeout", "--connect-timeout", dest="timeout", type=_seconds, default=None, metavar="SECONDS",
                   help=f"seconds per server for connect + listing when the config sets none "
                        f"(default {C.LIVE_CONNECT_TIMEOUT_DEFAULT:g})")
    p.add_argument("--name", help="catalog name (default: the config file name)")

    p = sub.add_parser("synth", help="write a synthetic catalog of any size (deterministic; for scale tests "
                                     "and benchmarks)")
    p.add_argument("--tools", type=_synth_tools, default=50_000, metavar="N",
                   help=f"number of tools (default 50000, at most {C.SYNTH_MAX_TOOLS:,}: a larger file is over "
                        "the size toolsearch reads back)")
    p.add_argument("--servers", type=_positive_int, default=200, metavar="N", help="number of servers (default 200)")
    p.add_argument("--seed", type=_seed, default=0, metavar="N", help="seed for names and schemas (default 0)")
    p.add_argument("--name", help="catalog name (default: says the size and seed)")
    p.add_argument("-o", "--output", type=output_file, metavar="FILE",
                   help="catalog file to write, in JSON syntax (default: standard output, unless that is a terminal)")

    # Commands that live in their own modules (each loads its sources and reports its errors).
    from . import app as cli_app, diff as cli_diff, quality as cli_quality, review as cli_review, sessions as cli_sessions, strategies as cli_strategies  # noqa: PLC0415
    from . import harnesses as cli_harnesses  # noqa: PLC0415

    cli_strategies.add_parser(sub)
    cli_harnesses.add_parser(sub)
    cli_quality.add_parsers(sub)
    cli_diff.add_parsers(sub)
    cli_sessions.add_parser(sub)
    cli_review.add_parsers(sub)
    cli_app.add_parser(sub)
    add_examples(sub)
    return parser


def _names_after_sources(parser: argparse.ArgumentParser) -> None:
    """``describe`` and ``call``: the positionals are the sources, then the tool names."""
    for action in parser._actions:  # noqa: SLF001 - argparse has no API to edit an added argument
        if action.dest == "sources":
            action.metavar = "SOURCE... NAME"
            action.help = ("catalog files (or MCP client config files), then the tool wire names: the leading "
                           "arguments that name existing files are the sources, the rest are names")
    parser.set_defaults(split_names=True)


def _extension_command(args: argparse.Namespace) -> int | None:
    """Run ``strategies``, ``eval``, ``lint``, ``diff`` or ``collapse``; ``None`` for the others."""
    from . import app as cli_app, diff as cli_diff, quality as cli_quality, review as cli_review, sessions as cli_sessions, strategies as cli_strategies  # noqa: PLC0415

    from . import harnesses as cli_harnesses  # noqa: PLC0415

    if args.command == "strategies":
        return cli_strategies.run(args)
    for module in (cli_harnesses, cli_quality, cli_diff, cli_sessions, cli_review, cli_app):
        if args.command in module.COMMANDS:
            return module.run(args)
    return None


def _names_a_file(value: str) -> bool:
    """Whether ``value`` is the path of an existing file; a value that cannot be a path (too long
    for the file system, a NUL character) is not one."""
    try:
        return Path(value).is_file()
    except (OSError, ValueError):
        return False


def _split_sources(values: Sequence[str]) -> tuple[list[str], list[str]]:
    """Leading values that name existing files are sources; the rest are tool names."""
    sources: list[str] = []
    for i, value in enumerate(values):
        if _names_a_file(value):
            sources.append(value)
        else:
            return sources, list(values[i:])
    return sources, []



def _down_servers(statuses: Sequence[Any]) -> list[dict[str, Any]]:
    """``plan --json`` ``servers`` entries for live servers that failed or were skipped: state
    ``failed`` | ``skipped`` and the reason, no tools and no tokens."""
    return [{"name": s.name, "kind": "mcp", "tool_count": 0, "state": s.state, "reason": s.reason,
             "schema_tokens": 0, "full_tokens": 0, "names_tokens": 0, "summary_tokens": 0}
            for s in statuses if s.state in ("failed", "skipped")]


def _cmd_plan(args, inspector: Inspector, config: ToolSearchConfig, scopes: Sequence[Any] = (),
              statuses: Sequence[Any] = ()) -> int:
    """One plan; with scopes, one plan per scope (a JSON array when there are several) and, in
    text, a side-by-side table of the scopes after their plans."""
    if len(scopes) > 1:
        sessions = [inspector.scoped(scope) for scope in scopes]
        if args.json:
            print_json([_plan_data(args, session, config) for session in sessions])
            return 0
        rows = []
        for index, session in enumerate(sessions):
            if index:
                print()
            print("=" * 8 + f" scope {one_line(session.scope.name)} " + "=" * 8)
            _print_plan(args, session, config)
            plan = session.plan(config, args.context_length, args.tokenizer)
            rows.append([session.scope.name, plan.tier, plan_counts(plan).short_label, f"{plan.budget:,}", f"{plan.tools_tokens:,}",
                         f"{len(session.registration.tools)}/{len(session.full_registration.tools)}",
                         ", ".join(sorted(session.registration.server_kinds)) or "—"])
        print()
        print("scopes side by side:")
        print(_table(rows, ["scope", "tier", "form", "budget", Q.TOOLS_ARRAY.name.lower(), "tools", "servers"]))
        return 0
    # Live servers that failed or were skipped belong to the whole catalog's table only.
    down = [] if scopes else _down_servers(statuses)
    if scopes:
        inspector = inspector.scoped(scopes[0])
    if args.json:
        print_json(_plan_data(args, inspector, config, down))
        return 0
    _print_plan(args, inspector, config, down)
    return 0


def _plan_data(args, inspector: Inspector, config: ToolSearchConfig,
               down: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    plan = inspector.plan(config, args.context_length, args.tokenizer)
    data = plan.to_dict()
    transport = getattr(args, "transport", None)
    if transport is not None:  # without --transport the object stays exactly as before
        data["tools"] = wire_tools(data["tools"], transport, plan.activated)
        data["transport"] = transport
        data["bridge_wire_names"] = wire_names(transport) if plan.activated else {}
    data["servers"] = [*data["servers"], *down]
    data["problems"] = [p.to_dict() for p in inspector.registration.problems]
    data["schema_losses"] = [{"name": view.name, "server": view.server, "tool": view.tool, **loss.to_dict()}
                             for view in catalog_schema_losses(inspector) for loss in view.losses]
    if inspector.scope is not None:
        data["scope"] = scope_summary(inspector)
    # the notes the text output prints about what a request costs, in its words ([]: none)
    data["request_costs"] = Q.request_cost_words(plan, plan.context_length)
    return data


def _print_plan(args, inspector: Inspector, config: ToolSearchConfig, down: Sequence[dict[str, Any]] = ()) -> None:
    plan = inspector.plan(config, args.context_length, args.tokenizer)
    ctx = Q.length_label(plan.context_length if plan.context_length and plan.context_length > 0 else None)
    print(f"catalog: {one_line(inspector.catalog.name)} ({counted(len(inspector.full_registration.tools), 'tool')})")
    if inspector.scope is not None:
        print(_terminal_safe(scope_line(inspector)))
    print(f"context length: {ctx}; {settings_words(config.threshold_pct, config.listing_max_tokens)}")
    print(f"budget: {plan.budget:,} tokens = min({config.listing_max_tokens:,}, {plan.pct_leg:,}); decided by {plan.budget_winner}")
    could = "" if plan.activated else f" (tool search is not active: {plan.deferred_count:,} could be)"
    print(f"tier {plan.tier}, listing form {plan_counts(plan).label}; {Q.deferred_tools(plan):,} deferred{could}, "
          f"{plan.visible_count:,} visible")
    print(f"{Q.LISTING.name.lower()}: {Q.listing(plan):,} tokens ({plan.planning_tokenizer})")
    print(f"{Q.TOOLS_ARRAY.name.lower()}: {Q.tools_array(plan):,} tokens; {Q.ALL_SCHEMAS.name.lower()}: "
          f"{Q.all_schemas_up_front(plan):,} tokens; {Q.DEFERRED_SCHEMAS.name.lower()}: "
          f"{Q.deferred_schemas(plan):,} tokens ({plan.display_tokenizer})")
    if plan.activated:  # as the Overview's metric and the report's summary say it
        saved, share = Q.saved_per_request(plan), Q.saved_share_words(plan)
        more = Q.costs_more_words(plan)
        print(f"{Q.SAVED.name.lower()}: {saved:,} tokens" + (f" ({share})" if share else "") + (f": {more}" if more else ""))
    overflow = Q.context_overflow_words(plan, plan.context_length)  # as the Overview page warns it
    if overflow:
        print(f"note: {overflow}")
    if getattr(args, "transport", None) is not None:
        print(transport_note(args.transport, plan.activated))
    for note in plan.notes:
        if note in config.warnings:  # said on stderr as a warning already (report_loaded)
            continue
        print(one_line(f"note: {note}"))
    helpers = Q.helper_tools_words(inspector.full_registration)
    if helpers:  # the tool counts above include them; the servers' own lists (live: lines) do not
        print(_terminal_safe(one_line(f"note: {helpers}")))
    for problem in inspector.registration.problems:
        if problem.severity == "info":  # errors and warnings already went to stderr
            print(one_line(f"note: {problem.where}: {problem.message}"))  # the place names the file
    _print_schema_losses(inspector)
    print()
    rows = [[name_cell(s.name), s.kind, s.tool_count, form_word(s.state), *(getattr(s, key) for key in Q.SERVER_TOKEN_COLUMNS),
             s.collapse_rank or ""] for s in plan.servers]
    rows += [[name_cell(d["name"]), "mcp", 0, d["state"], "", "", "", "", ""] for d in down]
    print(_table(rows, ["server", "kind", "tools", "state", *Q.SERVER_TOKEN_COLUMNS.values(), "collapse #"]))
    for d in down:
        print(runner_safe(one_line(f"{name_cell(d['name'])}: {d['state']}: {d['reason']}")))
    if plan.listing:
        print()
        print(_listing_shown(plan.listing, inspector))


def _listing_shown(listing: str, inspector: Inspector) -> str:
    """The listing as the terminal shows it: its lines as the model gets them, controls as markers,
    and a group label or tool name that holds a line break (or a tab) with it as a marker too. A name
    is one line: a server named ``x\\n::error::…`` must not print a line of its own (a CI log reads such
    a line as an annotation, or as a verdict). Descriptions need nothing: their whitespace runs are
    already one space in the listing."""
    tools = inspector.registration.tools
    names = {name for tool in tools for name in (tool.label, tool.name) if isinstance(name, str)}
    for name in sorted((n for n in names if one_line(n) != _terminal_safe(n)), key=len, reverse=True):
        listing = listing.replace(name, one_line(name))
    # A group heading starts its line with the server's label: '::error::x tools (1):' would be a
    # runner command in a CI log (runner_safe marks the first colon).
    return "\n".join(map(runner_safe, _terminal_safe(listing).split("\n")))


#: Schema-loss notes printed under a plan before the rest is summed up in one line.
SCHEMA_LOSS_NOTES_SHOWN = 10


def _print_schema_losses(inspector: Inspector) -> None:
    """One ``note: schema loss:`` line per thing registration drops from a tool's input schema."""
    losses = [(view, loss) for view in catalog_schema_losses(inspector) for loss in view.losses]
    for view, loss in losses[:SCHEMA_LOSS_NOTES_SHOWN]:
        print(_terminal_safe(reveal(f"note: schema loss: {view.name}: {loss.path}: {loss.message}")))
    if len(losses) > SCHEMA_LOSS_NOTES_SHOWN:
        print(f"note: schema loss: {len(losses) - SCHEMA_LOSS_NOTES_SHOWN:,} more; "
              "'toolsearch lint' lists them all with fixes, 'toolsearch describe --sent NAME' compares one tool")


def _variant_note(args) -> str | None:
    """The label of a ``--variant`` run: ``None`` for the default (the reference)."""
    if args.variant == REFERENCE:
        return None
    if is_reference(args.variant):
        return f"variant: {variant_label(args.variant)}"
    return f"variant: {variant_label(args.variant)} (the model gets the reference search)"


def _print_side_by_side(args, inspector: Inspector, config: ToolSearchConfig, queries: list[str], limit: Any) -> int:
    names = side_by_side_names(args.variant)
    rows = side_by_side(inspector, config, queries, names, limit)
    if args.json:
        print_json({"columns": [{"variant": n, "label": variant_label(n)} for n in names],
                    "queries": [{"query": q, "matches": {n: list(row.matches[n]) for n in names},
                                 "notes": {n: list(notes) for n, notes in row.notes.items()}}
                                for q, row in zip(queries, rows)]}, indent=None)
        return 0
    print("columns: " + "; ".join(variant_label(n) for n in names))
    for query, row in zip(queries, rows):
        print(reveal(one_line(f"query: {query}")))
        for name, notes in row.notes.items():
            for note in notes:
                print(f"  note ({name}): {note}")
        table = [[str(r + 1), *cells] for r, cells in enumerate(side_by_side_cells(row, names))]
        print(_terminal_safe(_table(table, ["rank", *names])) if table else "  no variant matched anything")
    return 0


def _search_limit(text: str) -> int:
    """argparse type of ``search --limit`` and ``explain --limit``: a whole number as every
    whole-number option reads it (:func:`toolsearch.cli.textfmt.whole_number`: ``5``, ``1e1``,
    ``1_0``). Its range is left to the bridge, which clamps it as it clamps the model's limit
    (docs/reference.md §6; :func:`_say_limit` says so).

    Raises:
        argparse.ArgumentTypeError: not a whole number (``abc``, ``nan``, ``2.5``).
    """
    return whole_number(text, "expected a whole number of matches per query (e.g. 5)")


def _say_limit(given: int | None, bridge: Any) -> int:
    """The limit the bridge runs for ``--limit`` (docs/reference.md §6: clamped to
    1..max_search_limit), said on stderr when it is not the number given."""
    resolved = bridge.resolve_limit(given)
    if given is not None and given != resolved:
        print(f"toolsearch: note: --limit {given:,} is read as {resolved}, as the bridge reads the model's limit: "
              f"clamped to 1..{bridge.config.max_search_limit} (max_search_limit)", file=sys.stderr)
    return resolved


def _cmd_search(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    bridge = inspector.bridge(config, variant_options(args.variant))
    request: dict[str, Any] = {"queries": args.queries}
    blank = empty_query_warning(args.queries)
    if blank:  # the response is the bridge's, unchanged; the user hears what it dropped
        print(_terminal_safe(reveal(one_line(f"toolsearch: warning: {blank}"))), file=sys.stderr)
    if args.limit is not None:
        request["limit"] = args.limit
    _say_limit(request.get("limit"), bridge)
    response = bridge.tool_search(request)
    note = _variant_note(args)
    if args.json and getattr(args, "side_by_side", False) and "error" not in response:
        return _print_side_by_side(args, inspector, config, [g["query"] for g in response["results"]],
                                   request.get("limit"))
    if args.json:
        if note and not is_reference(args.variant):  # stdout stays exactly the response object
            print(f"toolsearch: note: {note}", file=sys.stderr)
        if "error" not in response and not is_reference(args.variant):
            # What the text output says under a query (a pattern matched as literal text, a scan
            # stopped, a never-empty variant's filler) goes to stderr, as the variant's note does.
            limit = bridge.resolve_limit(request.get("limit"))
            for number, group in enumerate(response["results"], 1):
                for line in bridge.index.search_with_notes(group["query"], limit)[1]:
                    print(_terminal_safe(reveal(one_line(f"toolsearch: note: query {number} {quoted(group['query'])}: "
                                                         f"{line}"))), file=sys.stderr)
        print_json(response, indent=None)
        return 0 if "error" not in response else 1
    if inspector.scope is not None:
        print(_terminal_safe(scope_line(inspector)))
    if note:
        print(note)
    if "error" in response:
        print(f"tool_search error: {response['error']}")
        return 1
    limit = bridge.resolve_limit(request.get("limit"))
    if getattr(args, "side_by_side", False):
        return _print_side_by_side(args, inspector, config, [g["query"] for g in response["results"]],
                                   request.get("limit"))
    regex_mode = bridge.index.options.query_mode == "regex"
    for group in response["results"]:
        print(reveal(one_line(f"query: {group['query']}")))
        scan = bridge.index.regex_scan(group["query"], limit) if regex_mode else None
        found, notes = (scan.matches, scan.notes()) if scan is not None else \
            bridge.index.search_with_notes(group["query"], limit)
        scores = dict(found)
        for line in notes:
            print(f"  note: {line}")
        if not group["matches"]:
            print("  no matches")
            for source in group.get("available_sources", []):
                print(reveal(f"  available source: {reveal_line(source['name'])} ({counted(source['tool_count'], 'tool')})"))
            why = scan.why() if scan is not None else _why_empty(bridge.index, group["query"], limit)
            print(_terminal_safe(f"  why: {why}"))
        for rank, name in enumerate(group["matches"], 1):
            score = scores.get(name)
            shown = "—" if score is None else "exact name" if score == float("inf") else f"{score:.3f}"
            print(_terminal_safe(reveal(f"  {rank}. {reveal_line(name)}  [{shown}]  "  # a name is one line
                                        f"{_result_line_text(response['tools'][name]['description'])}")))
    print(f"response: {Q.bridge_response_words(response, args.tokenizer)}")
    return 0


#: characters of a description shown on a search result's line
RESULT_LINE_CHARS = 90


def _result_line_text(description: str) -> str:
    """A description for one result line: whitespace runs (newlines too) made one space, and
    over :data:`RESULT_LINE_CHARS` characters cut there with ``…``, so the cut is visible."""
    text = " ".join(str(description).split())
    return text if len(text) <= RESULT_LINE_CHARS else text[:RESULT_LINE_CHARS].rstrip() + C.ELLIPSIS


def _cmd_describe(args, inspector: Inspector, config: ToolSearchConfig, names: list[str]) -> int:
    if not names:
        raise UsageError("describe: expected at least one tool NAME after the SOURCE files")
    if args.sent:
        return _describe_sent(args, inspector, names)
    response = inspector.bridge(config).tool_describe({"names": names})
    print_json(response, indent=None if args.json else 2)
    if not args.json:  # --json is the response object alone
        print(f"response: {Q.bridge_response_words(response, args.tokenizer)}")
    # As --sent does: the response is printed whole, and a name the model could not have described
    # (not found, or refused such as a tool that is not deferred) makes the run fail for a script.
    return 1 if "error" in response or response.get("not_found") or response.get("errors") else 0


def _describe_sent(args, inspector: Inspector, names: list[str]) -> int:
    """``describe --sent``: sent vs received input schema per tool (exit 1 when a name is unknown)."""
    views = {name: schema_view(inspector, name) for name in dict.fromkeys(names)}
    missing = [name for name, view in views.items() if view is None]
    if args.json:
        data: dict[str, Any] = {"tools": {name: view.to_dict() for name, view in views.items() if view is not None}}
        if missing:
            data["not_found"] = missing
        print_json(data, indent=None)
        return 1 if missing else 0
    for index, (name, view) in enumerate(views.items()):
        if index:
            print()
        if view is None:
            print(reveal(one_line(f"{name}: no registered tool has this name")))
            continue
        print(reveal_line(f"{view.name} (server {quoted(view.server)}, {view.kind}; the server calls it "
                                  f"{quoted(view.tool)})"))  # one line, whatever the name holds
        print("sent by the server (input schema):")
        print("(none: listed without one, or a generated utility tool)" if view.sent is None
              else dumps_json(reveal_data(view.sent)))  # markers in strings, as the app shows a schema
        print("received by the model (parameters after registration):")
        print(dumps_json(reveal_data(view.received)))
        for wire, raw in view.renames.items():
            print(_terminal_safe(reveal(f"renamed: {quoted_key(raw)} is {quoted(wire)} for the model "
                                        "(calls are mapped back)")))
        if not view.losses:
            print("lost at registration: nothing")
        for loss in view.losses:
            print(_terminal_safe(reveal(f"lost at registration: {loss.severity}: {loss.path}: {loss.message}")))
            print(_terminal_safe(f"    fix: {loss.fix}"))
    return 1 if missing else 0


def _why_empty(index: Any, query: str, limit: int) -> str:
    """One line on why ``query`` found nothing: the BM25 explanation, or the semantic thresholds."""
    if index.options.ranker != "semantic":
        return index.explain(query, limit).summary()
    return index.semantic_shortfall(query, limit)


def _print_regex_explain(args, scan: Any) -> int:
    """``explain`` under a regex-mode variant: the matches (name or text), the notes and why."""
    rows = [{"rank": r, "tool": name, "matched": "name" if score == 2.0 else "description or parameters"}
            for r, (name, score) in enumerate(scan.matches, 1)]
    if args.json:
        print_json({"query": args.query, "variant": args.variant, "what_if": not is_reference(args.variant),
                    "query_mode": "regex", "matches": rows, "literal": scan.literal, "timed_out": scan.timed_out,
                    "too_long": scan.too_long, "notes": scan.notes(), "why": scan.why()})
        return 0
    note = _variant_note(args)
    if note:
        print(note)
    print(reveal(one_line(f"query: {args.query}")))
    for line in scan.notes():
        print(f"note: {line}")
    print(f"why: {scan.why()}")
    if rows:
        print(_terminal_safe(_table([[r["rank"], r["tool"], r["matched"]] for r in rows], ["rank", "tool", "matched"])))
    return 0


def _print_semantic_explain(args, data: dict[str, Any]) -> int:
    if args.json:
        print_json({**data, "variant": args.variant, "what_if": True})
        return 0
    print(_variant_note(args))
    print(reveal(one_line(f"query: {data['query']}")))
    print(f"ranked by the cosine between sentence embeddings, plus {data['lexical_weight']:g} x BM25 / best BM25; "
          f"empty unless the first match's cosine >= {data['min_cosine']:g} and its score leads the second's by >= "
          f"{data['min_cosine_margin']:g}")
    if data["best_cosine"] is not None:
        margin = "—" if data["margin"] is None else f"{data['margin']:.3f}"
        print(f"first match's cosine {data['best_cosine']:.3f}, score lead over the second {margin}: "
              + ("result empty" if data["empty"] else "answered"))
    rows = [[str(c["rank"]), c["tool"], "exact name" if c["score"] == float("inf") else f"{c['cosine']:.3f}",
             "exact name" if c["score"] == float("inf") else f"{c['score']:.3f}", "yes" if c["returned"] else "no"]
            for c in data["candidates"]]
    print(_terminal_safe(_table(rows, ["rank", "tool", "cosine", "score", "returned"])) if rows else "no tools")
    return 0


def _cmd_explain(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    if not args.query.strip():  # the bridge trims each query and drops a blank one: nothing runs
        raise UsageError("explain: the query is blank; tool_search drops a blank query (a call with nothing else "
                         "gets an error), so there is no search to explain")
    bridge = inspector.bridge(config, variant_options(args.variant))
    limit = _say_limit(args.limit, bridge)
    if bridge.index.options.ranker == "semantic":
        return _print_semantic_explain(args, bridge.index.semantic_explain(args.query, limit))
    if bridge.index.options.query_mode == "regex":  # the BM25 rules do not apply to a pattern
        return _print_regex_explain(args, bridge.index.regex_scan(args.query, limit))
    ex = bridge.index.explain(args.query, limit)
    if args.json:
        data = explanation_to_dict(ex)
        data["variant"] = args.variant
        data["what_if"] = not is_reference(args.variant)
        print_json(data)
        return 0
    note = _variant_note(args)
    if note:
        print(note)
    # The query is the user's text: bidi controls and zero-width characters as markers, as search shows it.
    print(reveal(one_line(f"query: {ex.query}")))  # one line: a tab or line break as an escape
    print(reveal(_terminal_safe("tokens: " + (", ".join(f"{raw} → {stem}" for raw, stem in ex.tokens) or "(none)"))))
    if ex.ignored:
        print(reveal(_terminal_safe("ignored: " + ", ".join(f"{term} ({why})" for term, why in ex.ignored))))
    reason = ex.empty_reason()
    if reason:
        print(f"nothing found: {reason}")
    if ex.terms:
        words: dict[str, str] = {}
        for raw, term in ex.tokens:
            words.setdefault(term, raw.lower())
        print(_terminal_safe(_table([[words.get(t.stem, ""), t.stem, t.df, f"{t.idf:.4f}", "gate" if t.stem == ex.gate else ""]
                                     for t in ex.terms], ["word", "stem", "df", "idf", "role"])))
    gate = "none" if ex.gate is None else f"{ex.gate_text} (in {ex.gate_df} tool{'s' if ex.gate_df != 1 else ''})"
    if ex.gate is not None and not ex.gate_required:
        gate += ", not required by this variant"
    print(_terminal_safe(f"gate term: {gate}; answerable terms: {len(ex.answerable)}; "
                         f"required coverage: {ex.required}"))
    print("excluded: " + (", ".join(f"{count:,} by the {_RULE_WORDS[rule]}" for rule, count in ex.excluded.items())
                          or "none"))
    print(f"N = {ex.corpus_size:,} documents, avgdl = {ex.avgdl:.2f} tokens")
    if ex.filler:
        print(_terminal_safe(f"{FILLER_NOTE}: {', '.join(ex.matches)}"))
    rows = [[c.rank or "", c.name, "inf" if c.score == float("inf") else f"{c.score:.3f}",
             "yes" if c.admitted else "no", c.reason] for c in ex.candidates[:EXPLAIN_ROWS_SHOWN]]
    if rows:
        print(_terminal_safe(_table(rows, ["rank", "tool", "score", "admitted", "why"])))
    if len(ex.candidates) > EXPLAIN_ROWS_SHOWN:  # a table cut short says so
        print(f"{EXPLAIN_ROWS_SHOWN} of {len(ex.candidates):,} candidates shown (at most 200 are listed: tools that "
              f"contain a query stem, admitted first); --json shows all {len(ex.candidates):,}")
    return 0


#: Candidate rows the text output of explain prints (``--json`` has every listed candidate).
EXPLAIN_ROWS_SHOWN = 40


#: How explain names each admission rule.
_RULE_WORDS = {"gate": "gate term", "coverage": "coverage floor", "known-share": "known-words share",
               "idf-share": "IDF share"}


def explanation_to_dict(ex) -> dict[str, Any]:
    """JSON-ready form of a :class:`~toolsearch.engine.search.Explanation` (``inf`` scores as ``"inf"``)."""
    def score(x: float) -> Any:
        return "inf" if x == float("inf") else round(x, 6)
    return {
        "query": ex.query, "tokens": [list(t) for t in ex.tokens],
        "terms": [{"stem": t.stem, "df": t.df, "idf": round(t.idf, 6)} for t in ex.terms],
        "gate": ex.gate, "gate_word": ex.gate_word, "gate_df": ex.gate_df, "gate_required": ex.gate_required,
        "answerable": list(ex.answerable), "required_coverage": ex.required,
        "ignored": [{"term": t, "why": why} for t, why in ex.ignored], "excluded": dict(ex.excluded),
        "nothing_found": ex.empty_reason(), "filler": ex.filler,
        "corpus_size": ex.corpus_size, "avgdl": round(ex.avgdl, 4), "limit": ex.limit,
        "matches": list(ex.matches),
        "candidates": [{"name": c.name, "score": score(c.score), "has_gate": c.has_gate,
                        "matched_terms": list(c.matched_terms), "admitted": c.admitted, "rank": c.rank,
                        "reason": c.reason, "rule": c.rule or None} for c in ex.candidates],
    }


def _connect_timeout(args) -> float | None:
    """Seconds per live server for connect + listing: ``--connect-timeout``; else ``--timeout``
    (backward compatible), which in ``call`` is the call's budget and only ever raises the
    connect budget above the default."""
    if getattr(args, "connect_timeout", None):
        return args.connect_timeout
    timeout = getattr(args, "timeout", None)
    if timeout is None:
        return None
    return max(timeout, C.LIVE_CONNECT_TIMEOUT_DEFAULT) if args.command == "call" else timeout


def _unreachable(name: str, bridge, statuses: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """For a tool name the catalog does not know: ``(owners, others)``: the live servers that did
    not connect (or were not started) whose ``mcp__<server>__`` prefix the name has, and the
    rest of them."""
    from ..engine.registration import sanitize_name_part  # noqa: PLC0415

    down = [s for s in statuses if s.state in ("failed", "skipped")]
    if not down or name in bridge.registry:
        return [], []
    owners = [s for s in down
              if name.startswith(f"{C.MCP_TOOL_NAME_PREFIX}{sanitize_name_part(s.name)}{C.MCP_NAME_SEPARATOR}")]
    return owners, [s for s in down if s not in owners]


def _down(status) -> str:
    verb = "did not connect" if status.state == "failed" else "was not started"
    return f"server {quoted(status.name)} {verb} ({status.reason})"


def _cmd_call(args, inspector: Inspector, config: ToolSearchConfig, names: list[str],
              specs: dict[str, ServerSpec] | None = None, statuses: Sequence[Any] = (),
              dispatcher: Any = None, agreement: Any = None) -> int:
    if len(names) != 1:
        how = "pass the call's arguments with -a JSON (--arguments), e.g. -a '{\"title\": \"Bug\"}'"
        extra = next((n for n in names[1:] if n.strip()[:1] in ("{", "[")), None)
        if extra is not None:  # toolsearch call CATALOG TOOL '{}': the arguments given as a word
            raise UsageError(f"call: {quoted_short(extra)} after the tool NAME reads as another tool name; {how}")
        raise UsageError(f"call: expected exactly one tool NAME after the SOURCE files; {how}")
    try:
        arguments = load_typed_json(args.arguments)
    except ValueError as exc:
        raise UsageError(f"--arguments: not valid JSON ({exc})") from None
    bridge = inspector.bridge(config)
    owner = next((tool.server for tool in inspector.registration.tools if tool.name == names[0]), None)
    why = agreement.not_run(owner) if agreement is not None and owner else ""
    if why:  # the figures and the call are for the catalog; the harness would not have the tool
        print(one_line(f"toolsearch: warning: the harness would not run server {quoted(owner)} ({why}), so its "
                       f"model could not call {quoted(names[0])}; the call goes to the catalog's server as listed"),
              file=sys.stderr)
    owners, others = _unreachable(names[0], bridge, statuses)
    if owners:  # its server failed to connect or list: say so, not "unknown tool"
        message = f"cannot call {quoted(names[0])}: " + "; ".join(_down(s) for s in owners)
        print_json({"error": message}, None if args.json else 2)
        print(f"toolsearch: call failed: {message}", file=sys.stderr)
        return 1
    if others and args.tool_names != "prefixed":  # as-is names do not say which server they belong to
        print(f"toolsearch: note: {quoted(names[0])} may belong to a live server that is not available: "
              + "; ".join(_down(s) for s in others), file=sys.stderr)
    if dispatcher is None and specs:
        from ..live.client import LiveDispatcher  # noqa: PLC0415

        dispatcher = LiveDispatcher(specs, args.timeout, connect_timeout=_connect_timeout(args))
    if dispatcher is not None:
        bridge.dispatcher = dispatcher
    check = bridge.check_call({"calls": [{"name": names[0], "arguments": arguments}]})
    if check.error is None and not check.validated and check.skipped:  # fail open, as the Search page says
        what = "it is called as given" if dispatcher is not None else "it would be dispatched as shown"
        print(one_line(f"toolsearch: note: the call was not validated ({check.skipped}); the bridge fails open, "
                       f"so {what}"), file=sys.stderr)
    try:
        response = bridge.tool_call({"calls": [{"name": names[0], "arguments": arguments}]})
    finally:
        bridge.dispatcher = None  # the bridge is cached; never leave a live dispatcher on it
    outcome = dispatcher.last if dispatcher is not None else None
    if outcome is None:  # a file catalog, or local validation stopped the call
        print_json(response, indent=None if args.json else 2)
        return 0 if "error" not in response else 1
    if args.json:
        print_json(outcome.to_dict(), None)
    else:
        request = outcome.request()
        print(f"request (as the underlying tool): server {quoted(request['server'])}, tool {quoted(request['tool'])}")
        print("arguments: " + dumps_json(request["arguments"]))
        print("response: " + dumps_json(response))
        timing = f"timing: {outcome.elapsed:.3f} s in all (start-up, handshake, call, shutdown)"
        if outcome.call_elapsed is not None:
            timing += f"; tools/call round trip {outcome.call_elapsed:.3f} s"
        print(timing)
        for note in outcome.notes:
            print(f"note: {note}")
    if outcome.reason:
        print(f"toolsearch: call failed: {outcome.reason}", file=sys.stderr)
    return 0 if not outcome.is_error else 1


def _call_one_server(args, names: list[str], config: ToolSearchConfig, profile) -> int | None:
    """``call`` when an MCP config names the tool's server: start only that server, once, and
    list, validate and call on one session. ``None`` when that cannot be known from the name
    (as-is names, no config, a prefix several servers share): then every server is listed."""
    if len(names) != 1 or args.tool_names != "prefixed" or args.scope or args.scope_file:
        return None  # a scope may name servers beyond the target: list them all
    if server_refusal(args):
        return None  # the listing path refuses the config before anything starts
    from ..engine.catalog import Catalog, combine  # noqa: PLC0415
    from ..live.client import call_target, connect_and_call, read_source, unique_names  # noqa: PLC0415
    from .common import say_config_warning  # noqa: PLC0415

    parts = [(path, *read_source(path)) for path in args.sources]
    configs = [(path, value) for path, kind, value in parts if kind == "config"]
    if not configs:
        return None
    target = call_target(unique_names([spec for _, value in configs for spec in value.servers]), names[0])
    if target is None:
        return None
    for _, value in configs:  # before the server starts, as for every command that starts servers
        for warning in value.warnings:
            say_config_warning(warning)
    live_name = readers.source_stem(configs[0][0]) if len(configs) == 1 else "live servers"

    def work(server, problems, dispatcher) -> int:
        live = combine([Catalog(name=live_name, servers=(server,), problems=tuple(problems),
                                sources=tuple(str(path) for path, _ in configs))], name=live_name)
        catalogs: list[Catalog] = []
        placed = False
        for _, kind, value in parts:  # the live servers sit where the first config file was
            if kind == "catalog":
                catalogs.append(value)
            elif not placed:
                catalogs.append(live)
                placed = True
        inspector = Inspector(catalogs[0] if len(catalogs) == 1 else combine(catalogs), args.tool_names, profile)
        _report_loaded((), config, inspector)
        agreement = config_servers_said(getattr(args, "config", None), inspector)
        return _cmd_call(args, inspector, config, names, dispatcher=dispatcher, agreement=agreement)

    status, _, result = connect_and_call(target, work, timeout=args.timeout, connect_timeout=_connect_timeout(args),
                                         progress=live_progress)
    if result is not None:
        return result
    message = f"cannot call {quoted(names[0])}: {_down(status)}"
    print_json({"error": message}, None if args.json else 2)
    print(f"toolsearch: call failed: {message}", file=sys.stderr)
    return 1


def _call_over_listing_sessions(args, names: list[str], config: ToolSearchConfig, profile) -> int:
    """``call`` when the tool's server cannot be told from its name (as-is names, a scope, a prefix
    several servers share): every server of the configs connects and lists, their sessions stay
    open, and the call goes over the session of the server that listed the tool, so no server
    starts twice. Every session is closed before returning."""
    from ..live.client import LiveDispatcher, load_sources  # noqa: PLC0415
    from .common import say_config_warning  # noqa: PLC0415

    loaded = load_sources(args.sources, timeout=_connect_timeout(args), progress=live_progress, keep_open=True,
                          refuse_configs=server_refusal(args), on_warning=say_config_warning)
    connections = loaded.connections
    try:
        inspector = Inspector(loaded.catalog, args.tool_names, profile)
        _report_loaded(loaded.warnings, config, inspector)
        note_unused_settings(loaded.settings_files, getattr(args, "config", None))
        scopes = scopes_from_args(args, inspector)
        agreement = config_servers_said(getattr(args, "config", None), inspector, scopes=scopes)
        scope = one_scope(args.command, scopes)
        if scope is not None:
            inspector = inspector.scoped(scope)
            print(f"toolsearch: {scope_line(inspector)}", file=sys.stderr)
        specs = dict(loaded.specs)
        dispatcher = None
        if connections is not None:
            def send(spec, raw_name, arguments, utility):
                return connections.send(spec, raw_name, arguments, utility, timeout=args.timeout)

            dispatcher = LiveDispatcher(specs, args.timeout, send=send)
        return _cmd_call(args, inspector, config, names, specs, loaded.statuses, dispatcher=dispatcher,
                         agreement=agreement)
    finally:
        if connections is not None:
            connections.close()


def _cmd_snapshot(args) -> int:
    from ..live.client import connect_servers, dump_snapshot, unique_names  # noqa: PLC0415
    from ..live.mcpconfig import load_mcp_config  # noqa: PLC0415

    for path in args.configs:
        # -o naming a config it reads would replace the harness config (its mcp_servers) with the catalog
        refuse_stdout_onto(path, "config")
        if input_written_over(args.output, [("a config", path)]):
            raise UsageError(f"{args.output}: -o: that file is a config this snapshot reads; write the catalog to "
                             "another file (e.g. -o catalog.yaml)")
    # judged before any server starts: a run that cannot save its catalog starts none
    problem = output_problem(args.output) if args.output else None
    if problem is not None:
        raise UsageError(f"{args.output}: cannot write file ({problem}); no server was started")
    specs: list[ServerSpec] = []
    for path in args.configs:
        parsed = load_mcp_config(path)
        for warning in parsed.warnings:
            print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
        specs.extend(parsed.servers)
    name = args.name or (readers.source_stem(args.configs[0]) if len(args.configs) == 1 else "live servers")
    result = connect_servers(unique_names(specs), name=name, timeout=args.timeout, sources=list(args.configs),
                             progress=live_progress)
    text = dump_snapshot(result, args.configs)
    catalog = result.catalog
    for problem in catalog.problems:
        if problem.severity == "warning":
            print(problem_line(problem), file=sys.stderr)
    if args.output:
        try:
            write_output_file(args.output, text)
        except OSError as exc:
            raise UsageError(f"{args.output}: cannot write file ({exc.strerror or exc})") from None
        print(one_line(f"toolsearch: wrote {args.output}: {counted(len(catalog.servers), 'server')}, "
                       f"{counted(catalog.tool_count, 'tool')} in {result.elapsed:.2f} s"), file=sys.stderr)
    else:
        write_data(text)
    return 1 if result.failed else 0


def _cmd_synth(args) -> int:
    from ..analysis.synthetic import dump_catalog_json, large_catalog  # noqa: PLC0415

    if not args.output and sys.stdout.isatty():  # as gzip does: megabytes of JSON help nobody on a terminal
        raise UsageError("synth: standard output is a terminal; write the catalog with -o FILE "
                         "(or redirect it: > FILE)")
    catalog = large_catalog(args.tools, args.servers, args.seed, args.name)
    text = dump_catalog_json(catalog)
    if not args.output:
        write_data(text)
        return 0
    try:
        write_output_file(args.output, text)
    except OSError as exc:
        raise UsageError(f"{args.output}: cannot write file ({exc.strerror or exc})") from None
    print(one_line(f"toolsearch: wrote {args.output}: {counted(len(catalog.servers), 'server')}, "
                   f"{counted(catalog.tool_count, 'tool')}, "
                   f"{len(text.encode('utf-8')):,} bytes"), file=sys.stderr)
    return 0


def _quiet_sdk_logging() -> None:
    """The MCP SDK logs server misbehaviour (e.g. non-JSON lines on a server's stdout) with
    tracebacks; toolsearch reports those itself as flagged problems, so keep them off the terminal."""
    for name in ("mcp", "client", "httpx2", "httpcore2"):
        logging.getLogger(name).addHandler(logging.NullHandler())


def _cmd_sweep(args, inspector: Inspector, config: ToolSearchConfig, scopes: Sequence[Any] = ()) -> int:
    """The sweep table; with scopes, the rows of every scope in turn, each named in a ``scope``
    column (JSON: a ``scope`` key per row)."""
    sessions = [inspector.scoped(scope) for scope in scopes] or [inspector]
    if args.threshold_pcts is None:  # like --listing-max-tokens: an exported block checks back as it is
        args.threshold_pcts = [config.threshold_pct] if args.config else list(DEFAULT_THRESHOLD_PCTS)
    # Grid values outside the config ranges are clamped like config values: say so, once each.
    lists = {"threshold_pct": "--threshold-pcts value", "listing_max_tokens": "--listing-max-tokens value"}
    clamped = dict.fromkeys(flag_warning(w, {"threshold_pct": pct, "listing_max_tokens": cap}, lists)
                            for pct in args.threshold_pcts for cap in (args.listing_max_tokens or [None])
                            for w in config.with_overrides(threshold_pct=pct, listing_max_tokens=cap).warnings
                            if w not in config.warnings)
    for warning in clamped:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    named: list[tuple[str | None, Any]] = []
    for session in sessions:
        for row in sweep(session.planner, config, args.context_lengths, args.threshold_pcts,
                         args.listing_max_tokens, args.tokenizer):
            named.append((session.scope.name if session.scope is not None else None, row))
    rows = [row for _, row in named]
    servers = sorted({name for row in rows for name in row.states})
    if args.json:
        print_json([({"scope": name, **row.to_dict()} if name is not None else row.to_dict()) for name, row in named])
        return 0
    lead = ["scope"] if scopes else []
    header = [*lead, "context_length", "threshold_pct", "listing_max_tokens", "budget", "tier", "listing_form",
              "listing_tokens", *servers]
    table = [[*([name] if scopes else []), r.context_length if r.context_length else "unknown", f"{r.threshold_pct:g}",
              r.listing_max_tokens, r.budget, r.tier, r.listing_form, r.listing_tokens,
              *[r.states.get(s, "—" if scopes else "") for s in servers]] for name, r in named]
    if args.csv:
        write_csv(header, table)
    else:
        # The form as counts (mixed 5/9, as the app's grids say it); CSV keeps the value, with the
        # per-server columns beside it.
        # The length as recommend's table writes it (200K); CSV keeps the number.
        form, length = header.index("listing_form"), header.index("context_length")
        print(_table([[*row[:length], Q.length_label(r.context_length), *row[length + 1:form],
                       r.counts.short_label if r.counts is not None else form_word(row[form]),
                       *row[form + 1:]] for row, (_, r) in zip(table, named)], header))
        # a reader new to the counts gets the key the app's grids give, on the first mixed row
        mixed = next((r.counts for r in rows if r.counts is not None and r.listing_form == "mixed"), None)
        if mixed is not None:
            print("listing_form " + Q.mixed_label_words(mixed.short_label, mixed.servers_named, mixed.servers_total))
    return 0


#: ``toolsearch recommend --format`` values; ``--json`` and ``--yaml`` are the same as json and yaml.
RECOMMEND_FORMATS = ("text", "markdown", "json", "yaml")


def recommend_format(args: argparse.Namespace) -> str:
    """The output format ``recommend`` was asked for: ``--format``, or its aliases ``--json`` and
    ``--yaml``; ``text`` when none is given. Raises :class:`UsageError` when they name two formats."""
    asked = {f for f, given in (("json", args.json), ("yaml", args.yaml), (args.format, args.format)) if given}
    if len(asked) > 1:
        options = [f"--format {args.format}" if args.format else None, "--json" if args.json else None,
                   "--yaml" if args.yaml else None]
        raise UsageError(f"recommend: {' and '.join(o for o in options if o)}: choose one")
    return asked.pop() if asked else "text"


def _cmd_recommend(args, inspector: Inspector, config: ToolSearchConfig, secrets: Sequence[str] = (),
                   config_servers: Sequence[tuple[str, Sequence[str]]] = (), agreement: Any = None) -> int:
    from .. import __version__  # noqa: PLC0415
    from ..analysis.sessions import shown_names  # noqa: PLC0415
    from ..analysis.recommend import (OUTCOME_COLUMNS, SESSION_COLUMNS, add_session_evidence,  # noqa: PLC0415
                                      add_whole_catalog, request_cost_lines, export_block, headroom_listing_as_much, lowered_changes, lowered_servers, outcome_rows, recommend_for_contexts,
                                      recommendation_lines, servers_without_tools, sessions_line,
                                      gate_line_text, gate_lines, verdict_line,
                                      more_than_goal_dicts, raised_changes, not_reached_block_words, with_core_only, keeping_goal)
    from .review import recommendation_markdown  # noqa: PLC0415
    from ..analysis.config_gate import defaulted_keys  # noqa: PLC0415
    from ..live.client import catalog_key  # noqa: PLC0415

    refuse_unlisted_servers("recommend", "", inspector)
    refuse_unread_items("recommend", inspector)
    if not args.context_lengths:
        raise UsageError("recommend: --context-lengths: expected at least one context length")
    fmt = recommend_format(args)
    goal, length_goals = goal_for("recommend", args, inspector)
    if args.keep_called and not args.session_sources:
        keep_for("recommend", args, inspector, None)  # refuses: the servers to keep come from the sessions
    ladder = listing_ladder(inspector.planner, config, args.tokenizer, args.reserve)
    evidence = read_session_evidence(args.session_sources, inspector, config, secrets,
                                     args.keep_called) if args.session_sources else None
    keep, kept_called = keep_for("recommend", args, inspector, evidence)
    rec = recommend_for_contexts(ladder, config, args.context_lengths, goal, except_servers=args.except_servers,
                                 keep_servers=keep, headroom_pct=args.headroom, length_goals=length_goals)
    rec = replace(rec, no_tools=servers_without_tools(inspector))  # named wherever the answer is read
    # a goal met by built-in tools alone, every MCP server a summary line: said, not only counted
    rec = with_core_only(rec, ladder, {s.name: s.kind for s in inspector.catalog.servers})
    # the config starts other servers than the catalog lists, or registers them otherwise: said with the
    # answer, and beside the gate line that check --strict would refuse
    rec = with_server_agreement(rec, agreement, inspector, config)
    if kept_called is not None:
        rec = replace(rec, keep_called=kept_called)
    if evidence is not None:
        rec = add_session_evidence(rec, ladder, evidence.called, evidence.sessions_read, note=evidence.note,
                                   recorded_lengths=evidence.lengths)
    if inspector.scope is not None:  # the block is harness-wide: what every other session gets with it
        rec = add_whole_catalog(rec, listing_ladder(inspector.scoped(None).planner, config, args.tokenizer,
                                                    args.reserve), inspector.scope.name)
    # a listed length no request fits is not reached, whatever the answer for the others (check fails it)
    status = decided(0 if rec.reached and not rec.unfit else 1)
    lowered = lowered_changes(ladder, config, rec)  # where it lists less than the current settings
    request_costs = request_cost_lines(rec, inspector.planner, config)  # as plan says it: tool search itself costs more
    if fmt == "yaml":
        sys.stdout.write(export_block(rec, config, catalog_name=inspector.catalog.name,
                                      fingerprint=catalog_key(inspector.scoped(None).catalog), version=__version__,
                                      tool_names=args.tool_names, profile=args.profile,
                                      scope=inspector.scope.name if inspector.scope is not None else None,
                                      **gate_files(args.sources, config_servers, args.config), lowered=lowered,
                                      ladder=ladder, request_costs=request_costs))
        if not rec.reached:  # standard output is likely a file: say why its block is commented out
            print(f"toolsearch: note: {not_reached_block_words(rec)}", file=sys.stderr)
        elif rec.unfit:  # exit 1 with a block to use: say why
            print(f"toolsearch: note: {verdict_line(rec)}", file=sys.stderr)
        return status
    if fmt == "json":
        data = rec.to_dict()
        data["current"] = {"threshold_pct": config.threshold_pct, "listing_max_tokens": config.listing_max_tokens,
                           # the settings the config file meant a value for (a misspelt key) but were read as the default
                           "default_in_place_of_config": defaulted_keys(config)}
        data["lower_than_current"] = [{"context_length": c, "change": change, "no_longer_named": list(lost)}
                                      for c, change, lost in lowered_servers(ladder, config, rec)]
        data["higher_than_current"] = ([{"context_length": c, "change": change}
                                        for c, change in raised_changes(ladder, config, rec)]
                                       if not rec.inactive else [])
        data["more_than_goal"] = more_than_goal_dicts(rec)
        # the command the text's gate line and the block's '# gate:' comment give (None: no gate line)
        data["gate"] = next((command for label, command, _ in gate_lines(
            rec, tool_names=args.tool_names, profile=args.profile,
            scope=inspector.scope.name if inspector.scope is not None else None,
            **gate_files(args.sources, config_servers, args.config)) if label == "gate"), None)
        # the figure the "lists less" line and the Tuning page give: one function for every surface
        data["headroom_listing_as_much"] = headroom_listing_as_much(ladder, config, rec)
        # the goal that keeps what the current settings list where this answer lists less: the "lists less" line's
        keeping = keeping_goal(ladder, config, rec)
        data["keeping_goal"] = keeping.to_dict() if keeping is not None else None
        # where no request fits or tool search costs more than it saves: the lines the text output prints
        data["request_costs"] = request_costs
        if args.session_sources:
            data["sessions"] = {"read": evidence.sessions_read, **evidence.uncounted.to_dict(),
                                "catalog_drift": evidence.drift.to_dict(),
                                "called_not_named": [{"context_length": c.context_length, "tools": shown_names(tools)}
                                                     for c, tools in zip(rec.contexts, rec.called_unnamed)],
                                "shorter_lengths": [{**s.to_dict(), "called_not_named": shown_names(s.called_not_named)}
                                                    for s in rec.shorter_lengths]}
        if agreement is not None and agreement.config_path:  # the servers by name, as the sentences name them
            data["config_agreement"] = agreement.to_dict()
        if inspector.scope is not None:
            data["scope"] = scope_summary(inspector)
            data["outside_scope"] = [{"context_length": c.context_length, "outcome": c.outcome,
                                      "servers_named": c.servers_named, "servers_total": c.servers_total,
                                      "not_named": list(lost)} for c, lost in rec.outside_scope]
        print_json(data)
        return status
    header = list(OUTCOME_COLUMNS) + (list(SESSION_COLUMNS) if args.session_sources else [])
    rows = outcome_rows(rec, sessions=bool(args.session_sources))
    if fmt == "markdown":
        sys.stdout.write(recommendation_markdown(rec, config, lowered, header, rows,
                                                 sessions=sessions_line(rec) if args.session_sources else None,
                                                 tool_names=args.tool_names, profile=args.profile,
                                                 scope=inspector.scope.name if inspector.scope is not None else None,
                                                 **gate_files(args.sources, config_servers, args.config), ladder=ladder,
                                                 request_costs=request_costs))
        return status
    print(verdict_line(rec))  # the report's verdict, above the same lines
    for line in recommendation_lines(rec, config, lowered, ladder, request_costs=request_costs):
        print(one_line(line))  # one line each: a tab or line break in a server name is written as an escape
    print(_table(rows, header))
    if args.session_sources:
        print(sessions_line(rec))
    # the command that gates a build on the answer, as the config block's '# gate:' comment writes it
    for label, command, words in gate_lines(rec, tool_names=args.tool_names, profile=args.profile,
                                            scope=inspector.scope.name if inspector.scope is not None else None,
                                            **gate_files(args.sources, config_servers, args.config)):
        print(one_line(gate_line_text(label, command, words)))
    return status


def _escape_unencodable(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler ``toolsearch-escape``: each character the encoding lacks as a JSON
    escape (``\\u2192``; a surrogate pair above U+FFFF), so JSON output stays valid JSON."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), error.end


codecs.register_error("toolsearch-escape", _escape_unencodable)


class OutputUnwritable(Exception):
    """Standard output cannot take what the command prints: it is closed (``>&-``) or the write
    failed (a full disk, ``> /dev/full``). :func:`main` ends the command with one line and status 2
    (a closed pipe is not this: see :func:`~toolsearch.cli.common.broken_pipe_status`)."""


#: Controls a terminal must not receive, in data output (:meth:`TerminalSafeStream.write_data`).
_DATA_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class TerminalSafeStream:
    """A text stream wrapper that never lets a raw control or invisible character through: text
    from servers, catalogs and sessions is untrusted, ESC / BEL / CSI / OSC sequences would drive
    the terminal, and bidi overrides, zero-width and TAG characters would reorder or hide what it
    shows. Every C0 control except newline and tab, DEL and every C1 control, and every other
    invisible character, is written as the marker the app and the report show (``⟨U+001B⟩``,
    ``⟨U+202E⟩``, :func:`~toolsearch.engine.invisible.reveal`); JSON output is unaffected (it
    already escapes both). A ``##[`` or ``##vso[``, which a GitHub Actions runner or an Azure Pipelines
    agent reads as a command anywhere in a line, is written ``#⟨U+0023⟩[``, ``#⟨U+0023⟩vso[``
    (:func:`~toolsearch.cli.textfmt.legacy_command_safe`; JSON writes ``##\\u005b``, ``##vso\\u005b``).
    Data meant for a file (CSV, a catalog) goes through :meth:`write_data`."""

    def __init__(self, inner: Any, name: str = "standard output"):
        self._inner = inner
        #: For standard output, a failed write raises :class:`OutputUnwritable`; for standard
        #: error (``name`` None) it is dropped: there is nowhere left to say anything.
        self._name = name
        try:
            encoding = codecs.lookup(getattr(inner, "encoding", None) or "utf-8").name
        except LookupError:
            encoding = "utf-8"
        #: The stream's encoding when it cannot write every character (PYTHONIOENCODING=ascii, a
        #: Windows code page): characters it lacks are written as \uXXXX escapes, as JSON writes
        #: them, instead of ending the command with UnicodeEncodeError. None for UTF-8.
        self._narrow = None if encoding.startswith("utf-") else encoding

    def _encodable(self, text: str) -> str:
        if self._narrow is None:
            return text
        return text.encode(self._narrow, "toolsearch-escape").decode(self._narrow)

    #: Whether anything written named a ``docs/`` page (:func:`main` then says where they are).
    cited_docs = False

    def _put(self, text: str, flush: bool = False) -> None:
        """Write ``text`` to the real stream (see :attr:`_name` for what a failure does)."""
        try:
            if self._inner is None:  # the descriptor was closed when the command started
                if not text:
                    return  # a flush with nothing written
                raise OSError(errno.EBADF, "it is closed")
            if text:
                self._inner.write(text)
            if flush:
                self._inner.flush()
        except BrokenPipeError:
            if self._name is not None:
                raise  # the reader stopped early (| head): the command keeps its decided status
        except OSError as exc:
            if self._name is not None:
                raise OutputUnwritable(f"cannot write {self._name} ({exc.strerror or exc})") from None

    def flush(self) -> None:
        self._put("", flush=True)

    def write(self, text: str) -> int:
        if not self.cited_docs and cites_docs_page(text):
            self.cited_docs = True
        # a line of text is a line of a CI log: '##[' or '##vso[' in it (catalog, server or session text) is marked
        self._put(self._encodable(legacy_command_safe(reveal(_terminal_safe(text)))))
        return len(text)

    def write_data(self, text: str) -> int:
        """Write ``text`` with its controls escaped but its format characters as they are (CSV
        and catalog text that a program or a file receives). CSV cells already carry markers
        (:func:`~toolsearch.cli.common.write_csv`); what is left is JSON, where a raw DEL or C1
        control may stand inside a string, so it is written as the JSON escape of the same
        character (``\\u007f``) and the catalog reads back unchanged.

        On a terminal the data is read, not stored: it is written as :meth:`write` writes text,
        invisible characters as markers (a bidi override in a CSV cell or a snapshot's YAML
        reordered what the terminal showed)."""
        if self._is_terminal():
            self._put(self._encodable(legacy_command_safe(reveal(_terminal_safe(text)))))
            return len(text)
        self._put(self._encodable(_DATA_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)))
        return len(text)

    def _is_terminal(self) -> bool:
        try:
            return self._inner is not None and bool(self._inner.isatty())
        except (AttributeError, ValueError, OSError):  # closed, or not a file
            return False

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def rewrite_line(self, text: str) -> None:
        """Go back to the start of the line and write ``text`` (made safe) over it, for progress
        lines: the only carriage return this stream lets through is this one."""
        self._put("\r" + self._encodable(legacy_command_safe(_terminal_safe(text))), flush=True)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, encoding, isatty… of the real stream
        return getattr(self._inner, name)


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of subcommand ``command``."""
    for action in parser._actions:  # noqa: SLF001 - argparse has no API for it
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            return action.choices.get(command, parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``toolsearch`` console script. Returns the exit status.

    Standard output and standard error go through :class:`TerminalSafeStream` while the command
    runs, usage errors included (they quote the arguments as typed).
    """
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafeStream(sys.stdout), TerminalSafeStream(sys.stderr, None)
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if args.command == "app":  # everything after "app" goes to streamlit run
            args.streamlit_options = extra
        elif extra:
            parser.error(unrecognized(_subparser(parser, args.command), extra))
    except BaseException:
        sys.stdout, sys.stderr = streams
        raise
    _quiet_sdk_logging()
    embedding = sys.modules.get("toolsearch.engine.embedding")
    if embedding is not None:  # a previous command in this process (tests) is not this one's
        embedding.forget_disk_cache_problem()
    try:
        forget_decided_status()
        readers.forget_stdin()
        use_shipped_samples(args)
        placeholder = placeholder_error(args) or missing_sample_error(args) or stdout_onto_input_error(args)
        if placeholder is not None:
            print(one_line(f"toolsearch: error: {placeholder}"), file=sys.stderr)
            return 2
        try:
            status = _interruptible(_run, args)
            try:
                sys.stdout.flush()  # a full disk may refuse only the last block
            except BrokenPipeError:  # the reader stopped early: the decided status stands
                pass
        except OutputUnwritable as exc:  # a closed standard output, a full disk: not a verdict
            print(one_line(f"toolsearch: error: {exc}; the output is incomplete"), file=sys.stderr)
            return 2
        embedding = sys.modules.get("toolsearch.engine.embedding")
        if embedding is not None and embedding.disk_cache_problem():
            print(one_line(f"toolsearch: warning: {embedding.disk_cache_problem()}"), file=sys.stderr)
        return status
    finally:
        if getattr(sys.stderr, "cited_docs", False):
            # a warning or note named a docs/ page: say where an installed copy keeps them (once)
            from ..analysis.samples import docs_elsewhere  # noqa: PLC0415

            folder = docs_elsewhere()
            if folder is not None:
                print(f"toolsearch: note: the docs/ pages named above are in {folder}", file=sys.stderr)
        sys.stdout, sys.stderr = streams


#: Seconds a stdio child gets to exit after its stdin closes, and after SIGTERM before SIGKILL,
#: once toolsearch itself is terminated (the SDK waits 2 s each in normal shutdowns).
TERMINATE_CHILD_GRACE = 0.25


def _shorten_child_grace() -> None:
    """Make the SDK's stdio shutdown quick once we are being terminated, so the whole command
    ends well within 2 s while still stopping every child (stdin closed, SIGTERM, SIGKILL)."""
    stdio = sys.modules.get("mcp.client.stdio")
    for name in ("PROCESS_TERMINATION_TIMEOUT", "FORCE_KILL_TIMEOUT"):
        if stdio is not None and isinstance(getattr(stdio, name, None), (int, float)):
            setattr(stdio, name, min(getattr(stdio, name), TERMINATE_CHILD_GRACE))
    reaper = sys.modules.get("toolsearch.live.reaper")
    if reaper is not None:  # what servers left behind: the same short grace
        reaper.shorten_grace(TERMINATE_CHILD_GRACE)


def _drop_interrupt_records(record: logging.LogRecord) -> bool:
    """A logging filter: ``False`` for a record whose exception is the interrupt itself (asyncio's
    "Task exception was never retrieved" for a task the termination landed in), ``True`` for any
    other record."""
    exc = record.exc_info[1] if record.exc_info else None
    return not (exc is not None and _is_cancellation(exc))


def _is_cancellation(exc: BaseException) -> bool:
    """Ctrl-C, or the cancellation asyncio's runner leaves when it is interrupted (asyncio is
    imported by the commands that connect to servers, and only then can it be the one)."""
    asyncio = sys.modules.get("asyncio")
    return isinstance(exc, KeyboardInterrupt) or (asyncio is not None and isinstance(exc, asyncio.CancelledError))


def _interruptible(run, args: argparse.Namespace) -> int:
    """``run(args)`` with SIGTERM and Ctrl-C turned into a clean cancellation.

    SIGTERM is handled like Ctrl-C: while live servers connect, asyncio's runner cancels the
    connect, so the SDK's context managers close every session and stop every stdio child
    before the command ends. Either ends with one line on stderr and status 130 (Ctrl-C) or
    143 (SIGTERM), never a traceback.
    """
    import signal  # noqa: PLC0415

    terminated: list[int] = []

    def on_sigterm(signum: int, frame: Any) -> None:
        terminated.append(signum)
        _shorten_child_grace()
        # The interrupt may land in a task other than the command's (a server's reader, say);
        # asyncio then logs that task's KeyboardInterrupt as never retrieved: the command is
        # ending on purpose, and says so once.
        asyncio_log = logging.getLogger("asyncio")
        if _drop_interrupt_records not in asyncio_log.filters:
            asyncio_log.addFilter(_drop_interrupt_records)
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler) and handler is not signal.default_int_handler:
            handler(signal.SIGINT, frame)  # asyncio's runner: cancel the main task, then KeyboardInterrupt
            return
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:  # not the main thread (main() called from a worker): leave signals alone
        previous = None
    try:
        status = run(args)
        if terminated:  # a cancellation absorbed on the way out: still report it
            raise KeyboardInterrupt
        return status
    except BaseException as exc:
        if not _is_cancellation(exc):
            raise
        print("toolsearch: terminated" if terminated else "toolsearch: interrupted", file=sys.stderr, flush=True)
        return 143 if terminated else 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command (:func:`main` without the signal handling)."""
    status = _extension_command(args)
    if status is not None:
        return status
    try:
        if args.command == "snapshot":
            return _cmd_snapshot(args)
        if args.command == "synth":
            return _cmd_synth(args)
        names: list[str] = []
        if getattr(args, "split_names", False):
            args.sources, names = _split_sources(args.sources)
            if not args.sources:
                raise UsageError(f"{args.command}: the first argument must be a catalog file that exists "
                                 f"(got {quoted(names[0])})")
        profile = load_profile(args.profile) if args.profile else None
        config = _config(args)
        if args.command == "call":
            status = _call_one_server(args, names, config, profile)
            if status is not None:
                return status
            return _call_over_listing_sessions(args, names, config, profile)
        loaded = load_sources(args.sources, timeout=_connect_timeout(args), refuse_configs=server_refusal(args))
        inspector = Inspector(loaded.catalog, args.tool_names, profile)
        _report_loaded(loaded.warnings, config, inspector)
        note_unused_settings(loaded.settings_files, getattr(args, "config", None))
        scopes = scopes_from_args(args, inspector)  # before the server warnings: they speak of the scopes' servers
        agreement = config_servers_said(getattr(args, "config", None), inspector, scopes=scopes)
        if args.command != "recommend":  # recommend refuses it, in the same words
            warn_empty_catalog(inspector)
        if args.command == "plan":
            return _cmd_plan(args, inspector, config, scopes, loaded.statuses)
        if args.command == "sweep":
            return _cmd_sweep(args, inspector, config, scopes)
        scope = one_scope(args.command, scopes)
        if scope is not None:
            inspector = inspector.scoped(scope)
            if args.json or args.command != "search":
                print(f"toolsearch: {scope_line(inspector)}", file=sys.stderr)
        if args.command == "search":
            return _cmd_search(args, inspector, config)
        if args.command == "describe":
            return _cmd_describe(args, inspector, config, names)
        if args.command == "explain":
            return _cmd_explain(args, inspector, config)
        if args.command == "call":
            return _cmd_call(args, inspector, config, names, dict(loaded.specs), loaded.statuses)
        if args.command == "recommend":
            from ..live.client import config_file_secrets  # noqa: PLC0415

            return _cmd_recommend(args, inspector, config,
                                  [*loaded.secret_values(), *config_file_secrets(getattr(args, "config", None))],
                                  loaded.config_servers, agreement)
        return _cmd_sweep(args, inspector, config)
    except ToolsearchError as exc:
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:  # e.g. piped into head: a decided verdict still stands
        return broken_pipe_status()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``toolsearch report``, ``costs`` and ``check``: a catalog's review report, per-tool costs and a build gate.

A thin shell over :mod:`toolsearch.analysis.review`, :mod:`toolsearch.analysis.costs` and
:mod:`toolsearch.analysis.check` (parsing and printing only)::

    toolsearch report CATALOG... [settings] -o FILE.html [-q QUERY]... [--query-file FILE] [--no-lint]
                      [--no-strategies] [--display-tokenizer T] [--scope NAME=SERVER,... | --scope-file FILE]
    toolsearch costs CATALOG... [settings] [--sort KEY] [--display-tokenizer T] [--json | --csv]
    toolsearch check CATALOG... --context-lengths N,N,... --goal G [settings] [--max-listing-tokens N]
                     [--baseline OLD_CATALOG]... [--baseline-config OLD_CONFIG] [--fail-on-worse]
                     [--format text|markdown|json|github]

Exit status 0 on success, 2 for bad arguments or unreadable files (one line on stderr naming the
file and the problem); ``check`` exits 1 when the goal does not hold at some context length (or,
with ``--fail-on-worse``, when the change makes disclosure worse than the baseline).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..engine.invisible import quoted
from ..analysis import quantities as Q
from ..analysis import costs as costs_mod
from ..analysis.sweep import listing_ladder
from ..analysis.wording import MISS_WORDS, agree, counted, settings_words, share_cell
from ..analysis.review import DEFAULT_QUERIES, companion_query_file, source_date_epoch_problem, default_strategies, report_context_length, \
    review_report
from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.readers import source_stem
from ..engine.inspector import Inspector
from ..engine.profile import load_profile
from .examples import epilog
from .textfmt import goal_argument
from .common import (GOAL_HELP, gate_files, load_harness_config, input_written_over, Once, add_settings_arguments, add_timeout_argument, broken_pipe_status, config_from_args, decided, goal_for,
                     headroom_pct, reserve_pct, RESERVE_HELP, load_sources, server_refusal,
                     keep_for, print_json, read_session_evidence, refuse_unlisted_servers, refuse_unread_items, report_loaded,
                     reported_problems,
                     note_unused_settings, config_servers_said, with_server_agreement, agreement_in_scope,
                     warn_empty_catalog, with_flags, write_csv)
from .scopes import add_scope_arguments, one_scope, scope_line, scopes_from_args
from ..live.config_agreement import ServerAgreement
from .textfmt import (github_command, name_cell, one_line, output_file, parse_context_lengths, runner_safe,
                      text_table, whole_number, write_output_file)

if TYPE_CHECKING:
    from ..analysis import check as check_mod
    from ..analysis.recommend import MultiRecommendation

# The check and the recommendation are imported when check or report runs: costs and every other
# command's start (the parser) need neither.

COMMANDS = ("report", "costs", "check")
#: ``report``'s ``--context-length`` when it is not given (``None`` is ``--context-length unknown``,
#: given): with ``--context-lengths``, the report is then planned at the shortest of them.
CONTEXT_LENGTH_NOT_GIVEN = object()


class ReviewUsageError(ToolsearchError):
    """A command-line value of these commands that cannot be used."""


def _tokens(text: str) -> int:
    """``check --max-listing-tokens``: a positive whole number of tokens. 0 is refused: every
    listing is larger, so the check could only fail."""
    return whole_number(text, "expected a positive whole number of tokens (e.g. 4000)", least=1, unit="tokens")


def _catalog_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sources", nargs="+", metavar="CATALOG",
                   help="catalog files (catalog YAML/JSON, recorded tools/list JSON, function arrays) or MCP client "
                        "config files (their servers are started and listed live)")
    p.add_argument("--config", action=Once, metavar="FILE", help="harness config.yaml; its tools.tool_search block is used "
                                                    "(flags given here override it)")
    p.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                   help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    p.add_argument("--profile", metavar="FILE", help="wording profile YAML (default: the shipped one)")
    add_timeout_argument(p)
    add_settings_arguments(p)


def _display_tokenizer(p: argparse.ArgumentParser) -> None:
    p.add_argument("--display-tokenizer", choices=C.TOKENIZERS, default=None, metavar="T",
                   help=f"tokenizer for the token costs shown ({', '.join(C.TOKENIZERS)}; default: --tokenizer)")


def _epilog(*examples: str) -> str:
    return epilog(examples)


def add_parsers(sub: Any) -> None:
    """Add ``report``, ``costs`` and ``check`` to an ``add_subparsers()`` object."""
    raw = argparse.RawDescriptionHelpFormatter
    p = sub.add_parser(
        "report", help="write the design-review report (one self-contained HTML file, as the app's Report page)",
        description="Write the same self-contained HTML report as the app's Report page: settings, budget "
                    "arithmetic, tier and form, per-server table, listing-form table, charts (plotly.js embedded "
                    "once, nothing loaded from the network), search, search quality, lint and strategies.",
        formatter_class=raw, epilog=_epilog(
            "toolsearch report sample_catalogs/team-workspace.yaml --context-length 200k -o report.html",
            "toolsearch report sample_catalogs/team-workspace.yaml --context-lengths 32k,200k,1m --goal names "
            "-q 'create issue' -o review.html"))
    _catalog_arguments(p)
    p.set_defaults(context_length=CONTEXT_LENGTH_NOT_GIVEN)
    for action in p._actions:  # noqa: SLF001 - argparse has no API to edit an added argument
        if action.dest == "context_length":
            action.help = ("model context length in tokens (e.g. 200000, 200k) or 'unknown' (default); with "
                           "--context-lengths, the default is the shortest of them")
    _display_tokenizer(p)
    add_scope_arguments(p)
    p.add_argument("-o", "--output", required=True, type=output_file, metavar="FILE.html",
                   help="the HTML file to write")
    p.add_argument("-q", "--query", action="append", dest="queries", metavar="QUERY",
                   help="a tool_search query whose response the report shows (repeatable; default: "
                        + "; ".join(DEFAULT_QUERIES.splitlines()) + ")")
    p.add_argument("--query-file", metavar="FILE",
                   help="a labeled query file to score (default: the shipped one named like the catalog, if any)")
    p.add_argument("--no-lint", action="store_true", help="leave the lint findings out")
    p.add_argument("--no-strategies", action="store_true", help="leave the disclosure strategies out")
    p.add_argument("--context-lengths", type=parse_context_lengths, action=Once, default=None, metavar="N,N,...",
                   help="with --goal: the context lengths the config serves (e.g. 32k,200k,1m); the report then "
                        "carries the settings that reach the goal at all of them, as recommend gives them, and its "
                        "other sections are for the shortest of them unless --context-length is given")
    p.add_argument("--goal", type=goal_argument, action=Once, default=None, metavar="GOAL|LENGTH=GOAL,...",
                   help="with --context-lengths: the goal of that recommendation (" + GOAL_HELP + ")")
    p.add_argument("--except", dest="except_servers", action="append", default=[], metavar="SERVER",
                   help="with --goal: a server that may collapse to a summary line (as recommend --except); repeatable")
    p.add_argument("--keep", dest="keep_servers", action="append", default=[], metavar="SERVER",
                   help="with --goal: a server that must stay at names or better (as recommend --keep); repeatable")
    p.add_argument("--headroom", type=headroom_pct, action=Once, default=None, metavar="PCT",  # None: not given (0 is a value)
                   help="with --goal: keep the budget at least PCT %% above the listing (as recommend --headroom)")
    p.add_argument("--reserve", type=reserve_pct, action=Once, default=None, metavar="PCT",  # None: not given
                   help="with --goal: keep at least PCT %% of every context length free of the tools array (as "
                        "recommend --reserve)")
    p.add_argument("--sessions", dest="session_sources", action="extend", nargs="+", default=[], metavar="SRC",
                   help="with --goal: recorded sessions (Hermes state.db, exports, transcripts): how many of the tools "
                        "they called the recommended setting lists by name at each length (as recommend --sessions)")
    p.add_argument("--keep-called", action="store_true",
                   help="with --sessions: keep every server whose tools the sessions called at names or better "
                        "(as recommend --keep-called)")

    p = sub.add_parser(
        "costs", help="per-tool token costs (description, signature and tool schema), per-server totals, outliers",
        description="What each tool costs in tokens: its description counted alone, its signature (the rest "
                    "of its definition: name, parameters, JSON) and the whole (tool schema, JSON total_tokens), "
                    "its share of the eager cost (every schema sent in full) and whether it is an outlier (above "
                    "Q3 + 1.5 x IQR of every tool's schema); then per-server totals (each tool counted alone, added up: with "
                    "chars4 up to one token per tool above plan's per-server schemas, rounded once per "
                    "server). Tokens in the display tokenizer; both tokenizers are named.",
        formatter_class=raw, epilog=_epilog(
            "toolsearch costs sample_catalogs/five-servers.yaml --sort signature",
            "toolsearch costs sample_catalogs/team-workspace.yaml --display-tokenizer o200k_base --csv > costs.csv"))
    _catalog_arguments(p)
    _display_tokenizer(p)
    p.add_argument("--sort", choices=costs_mod.SORT_KEYS, default="total",
                   help="tool order: total (the tool schema, JSON total_tokens), description or signature "
                        "tokens (largest first), name or server (default total)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object (tools, servers, tokenizers)")
    out.add_argument("--csv", action="store_true", help="print the per-tool rows as CSV")

    p = sub.add_parser(
        "check", help="fail a build when the catalog misses a disclosure goal at some context length (exit 1)",
        description="Check that the config's settings reach a goal at every listed context length: exit 0 when "
                    "they do, 1 when they do not (saying where and why, and which settings would), 2 for bad "
                    "input. With --baseline (the catalog before a change), each length also shows what changed "
                    "in tier, form, listing tokens and the prompt-cache prefix; --fail-on-worse also fails where "
                    "that change makes disclosure worse: a server both catalogs have in a worse state (visible, "
                    "then full, names, summary, hidden; so a higher tier that costs such a server), not a larger "
                    "listing alone. --format github prints one GitHub Actions annotation per failure.",
        formatter_class=raw, epilog=_epilog(
            "toolsearch check sample_catalogs/team-workspace.yaml --context-lengths 32k,200k --goal names",
            "toolsearch check docs/examples/diff-tuesday.yaml --baseline docs/examples/diff-monday.yaml "
            "--context-lengths 128k,1m --goal full "
            "--max-listing-tokens 3000 --fail-on-worse --format github"))
    _catalog_arguments(p)
    for action in p._actions:  # noqa: SLF001 - argparse has no API to edit an added argument
        if action.dest == "context_length":  # refused in run(): the lengths are --context-lengths
            action.help = argparse.SUPPRESS
    p.add_argument("--context-lengths", type=parse_context_lengths, action=Once, required=True, metavar="N,N,...",
                   help="the context lengths the config serves, e.g. 32k,200k,1m ('unknown' allowed)")
    p.add_argument("--goal", type=goal_argument, action=Once, required=True, metavar="GOAL|LENGTH=GOAL,...",
                   help=GOAL_HELP)
    p.add_argument("--max-listing-tokens", type=_tokens, default=None, metavar="N",
                   help="also fail when the listing is larger than N tokens (planning tokenizer)")
    p.add_argument("--except", dest="except_servers", action="append", default=[], metavar="SERVER",
                   help="a server that may collapse to a summary line (relaxes goal names; as recommend --except); "
                        "repeatable")
    p.add_argument("--keep", dest="keep_servers", action="append", default=[], metavar="SERVER",
                   help="a server that must stay at names or better (any goal; as recommend --keep); repeatable")
    p.add_argument("--sessions", dest="session_sources", action="extend", nargs="+", default=[], metavar="SRC",
                   help="with --keep-called: recorded sessions (Hermes state.db, exports, transcripts) whose called "
                        "tools name the servers to keep")
    p.add_argument("--keep-called", action="store_true",
                   help="with --sessions: every server whose tools the sessions called must stay at names or better, "
                        "as if given with --keep (as recommend --keep-called, whose # gate: line names them with "
                        "--keep instead)")
    p.add_argument("--headroom", type=headroom_pct, action=Once, default=C.HEADROOM_PCT_DEFAULT, metavar="PCT",
                   help="also fail where the budget is less than PCT %% above today's listing (as recommend "
                        "--headroom; default 0). Growth spends that room, so a block recommended with PCT %% fails "
                        "this at the first tool added; its # gate: line leaves --headroom out")
    p.add_argument("--reserve", type=reserve_pct, action=Once, default=C.RESERVE_PCT_DEFAULT, metavar="PCT",
                   help=RESERVE_HELP + " (as recommend --reserve, whose # gate: line keeps it)")
    p.add_argument("--baseline", action="append", default=None, metavar="OLD_CATALOG",
                   help="the catalog before the change (repeatable: its files combine), checked with the same "
                        "settings unless --baseline-config gives the old ones; adds what changed per context length")
    p.add_argument("--baseline-config", action=Once, default=None, metavar="OLD_CONFIG",
                   help="the harness config.yaml before the change: the baseline is planned with its "
                        "tools.tool_search block (and the settings flags given here), so a change of settings shows "
                        "against the baseline too; needs --baseline")
    p.add_argument("--fail-on-worse", action="store_true",
                   help="with --baseline: also fail (exit 1) at a context length where the change makes disclosure "
                        "worse than the baseline: a server both catalogs have in a worse state (visible, then full, "
                        "names, summary, hidden), so also a higher tier that costs such a server; new servers and a "
                        "larger listing alone are not worse")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--format", choices=("text", "markdown", "json", "github"), default="text",
                        help="text (default), markdown (for a pull request comment), json, or github (GitHub Actions "
                             "annotations: one ::error line per failure, then a summary line)")
    output.add_argument("--json", dest="format", action="store_const", const="json",
                        help="the same as --format json")
    p.add_argument("--strict", action="store_true",
                   help="exit 2 when the config or a settings flag has a warning (an unknown or misspelt key, a "
                        "value out of range, no tools.tool_search block), or when no settings are given (no --config, "
                        "--threshold-pct or --listing-max-tokens): the gate then checks only settings someone wrote; and "
                        "when the config's mcp_servers starts a server the catalog lacks, or sets one up otherwise than "
                        "the catalog was listed with (enabled, tools.include/exclude; snapshot it again); it also "
                        "starts no server: an MCP client config given as the catalog or --baseline is refused")


def _load(args: argparse.Namespace, sources: Sequence[str],
          config: ToolSearchConfig, option: str = "") -> tuple[Inspector, list[str], Any]:
    """The catalog of ``sources``, the secrets of the MCP client configs among them and of the
    servers ``--config`` configures (:meth:`~toolsearch.live.client.LoadedSources.secret_values`,
    :func:`~toolsearch.live.client.config_file_secrets`: masked in the recorded sessions read as
    evidence, ``--sessions``), and the client configs with their servers
    (:attr:`~toolsearch.live.client.LoadedSources.config_servers`, for the report's gate line)."""
    from ..live.client import config_file_secrets  # noqa: PLC0415

    profile = load_profile(args.profile) if args.profile else None
    # check --strict gates files a pull request may change: it reads catalogs and starts nothing
    refuse = (f"check --strict starts no server: give {option + ' ' if option else ''}the catalog "
              f"'toolsearch snapshot' saves from it, or drop --strict") if getattr(args, "strict", False) else None
    refuse = refuse or server_refusal(args, option)
    loaded = load_sources(list(sources), timeout=args.timeout, option=option, refuse_configs=refuse)
    inspector = Inspector(loaded.catalog, args.tool_names, profile)
    report_loaded(loaded.warnings, None if option else config, inspector)  # the settings' warnings once
    if args.command == "check" and getattr(args, "format", None) == "github":
        for line in github_loaded_lines(None if option else config, loaded.warnings, reported_problems(inspector),
                                        sources, strict=getattr(args, "strict", False), baseline=bool(option)):
            print(line)
    note_unused_settings(loaded.settings_files, getattr(args, "config", None))
    return (inspector, [*loaded.secret_values(), *config_file_secrets(getattr(args, "config", None))],
            loaded.config_servers)


def github_loaded_lines(config: ToolSearchConfig | None, source_warnings: Sequence[str], problems: Sequence[Any],
                        sources: Sequence[str], *, strict: bool = False, baseline: bool = False,
                        config_option: str = "") -> list[str]:
    """``check --format github``: the warnings stderr says on reading the settings and the catalog,
    as workflow commands too, so a pull request shows what to fix where the log alone said it:
    one per config warning (``::warning``, or ``::error`` under ``--strict``, which refuses to gate
    on them; ``file=`` and ``line=`` the place it names, from
    :meth:`~toolsearch.engine.config.ToolSearchConfig.located_warnings`), one per source warning and
    one per catalog problem (:func:`~toolsearch.cli.common.reported_problems`: ``::error`` for an item
    skipped, which check refuses, ``::warning`` for one repaired; ``file=`` the catalog when it is
    one file). ``config``: ``None`` when its warnings were annotated already. ``baseline``: the
    catalog before the change (``--baseline``), which is not gated, so every line is a warning.
    ``config_option``: the option that gave ``config`` (``--baseline-config``), said before each of
    its messages."""
    lines = []
    side = "baseline " if baseline or config_option else ""
    for warning in config.located_warnings() if config is not None else ():
        where = {"file": warning.file} if warning.file is not None else {}
        if warning.file is not None and warning.line is not None:
            where["line"] = str(warning.line)
        message = f"{config_option}: {warning.message}" if config_option else warning.message
        lines.append(github_command("error" if strict and not side else "warning", message,
                                    title=f"toolsearch check: {side}config warning", **where))
    one_file = {"file": sources[0]} if len(sources) == 1 and sources[0] != "-" else {}
    for warning in source_warnings:
        lines.append(github_command("warning", warning, title=f"toolsearch check: {side}catalog warning", **one_file))
    for problem in problems:
        level = "error" if problem.severity == "error" and not side else "warning"
        lines.append(github_command(level, f"{problem.where}: {problem.message}",
                                    title=f"toolsearch check: {side}catalog {problem.severity}", **one_file))
    return lines


def _source_label(sources: Sequence[str]) -> str:
    """The catalog's name in the report: the file stems (a shipped sample's name, as the app says it)."""
    return ", ".join(source_stem(s) for s in sources)


def run(args: argparse.Namespace) -> int:
    """Run ``report``, ``costs`` or ``check``; the exit status."""
    config: ToolSearchConfig | None = None  # what check --format markdown's refusal says was read
    agreement: Any = None
    try:
        if args.command == "check" and args.context_length is not None:
            raise ReviewUsageError("check: --context-length: check plans at each of --context-lengths only; "
                                   "put the length there (--context-lengths 32k,200k,...)")
        if args.command == "check" and args.fail_on_worse and not args.baseline:  # refused before any file is read
            raise ReviewUsageError("check: --fail-on-worse: worse than what? add --baseline OLD_CATALOG (the catalog "
                                   "before the change)")
        config = config_from_args(args)
        if (getattr(args, "strict", False) and not args.config
                and all(getattr(args, key, None) is None for key in ("threshold_pct", "listing_max_tokens"))):
            # no settings given at all: the gate would pass or fail the defaults, which nobody wrote
            raise ReviewUsageError(f"check --strict: no --config and no --threshold-pct or --listing-max-tokens, so "
                                   f"it would check the defaults ({settings_words(config.threshold_pct, config.listing_max_tokens)}); "
                                   "give the harness config with "
                                   "--config FILE, or drop --strict to check the defaults")
        inspector, secrets, config_servers = _load(args, args.sources, config)
        # report's scope, before the server warnings: they speak of the servers it reaches (check and
        # costs take no scope)
        scopes = scopes_from_args(args, inspector) if args.command == "report" else []
        agreement = config_servers_said(args.config, inspector, scopes=scopes)
        if getattr(args, "strict", False) and not agreement.agrees:
            # the gate would judge a catalog in which a new server's tools took no room, count tools the
            # harness leaves out, or count a server it does not start
            raise ReviewUsageError(f"check --strict: {agreement.refusal()}")
        if getattr(args, "strict", False) and config.warnings:
            # a flag out of range (--listing-max-tokens 100) warns under the option typed (common.flag_warning)
            flags = [f"--{key.replace('_', '-')}" for key in ("threshold_pct", "listing_max_tokens", "listing", "enabled")
                     if getattr(args, key, None) is not None
                     and any(w.startswith(f"--{key.replace('_', '-')} ") for w in config.warnings)]
            parts = ([] if len(flags) == len(config.warnings) else ["the config"]) + flags
            count = len(config.warnings)
            whose = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
            raise ReviewUsageError(f"check --strict: {whose} {'has' if len(parts) == 1 else 'have'} "
                                   f"{counted(count, 'warning')} (above); fix {'it' if count == 1 else 'them'}, "
                                   "or drop --strict to check the settings as read")
        if args.command == "report":
            if args.context_lengths is None:  # with a goal, the recommendation refuses it in the same words
                warn_empty_catalog(inspector)  # as plan: the report's figures are for nothing at all
            scope = one_scope("report", scopes)
            if scope is not None:
                inspector = inspector.scoped(scope)
            return _report(args, inspector, config, secrets, config_servers, agreement)
        if args.command == "costs":
            return _costs(args, inspector, config)
        return _check(args, inspector, config, secrets, agreement)
    except ToolsearchError as exc:
        if args.command == "check" and getattr(args, "format", None) == "github":
            # a pull request that breaks the catalog gets an annotation saying why, not only a red step
            print(github_command("error", str(exc), title="toolsearch check: bad input"))
        if args.command == "check" and getattr(args, "format", None) == "markdown":
            # a job that posts standard output as a comment posts why the gate did not run, not an empty one
            sys.stdout.write(refusal_markdown(str(exc), config, agreement))
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:  # e.g. piped into head: the verdict still stands
        return broken_pipe_status()


def refusal_markdown(error: str, config: ToolSearchConfig | None, agreement: Any = None) -> str:
    """``check --format markdown`` when the check does not run (exit 2: a ``--strict`` refusal, a
    catalog that does not parse): a heading, the warnings the refusal points at (the settings'
    ``config`` warnings, and how the config's servers disagree with the catalog's, ``agreement``),
    each as a ``warning:`` item, and the error line as an ``error:`` item, as stderr says them. Text
    from files is escaped (:func:`_md`). Returns text ending in a newline."""
    out = ["### toolsearch check did not run (exit 2)", ""]
    warnings = list(config.warnings) if config is not None else []
    if agreement is not None and not agreement.agrees:
        warnings += agreement.sentences()
    out += [f"- warning: {_md(one_line(w))}" for w in warnings]
    out.append(f"- error: {_md(one_line(error))}")
    return "\n".join(out) + "\n"


# --- report -------------------------------------------------------------------------------------

def _report_recommendation(args: argparse.Namespace, inspector: Inspector, config: ToolSearchConfig,
                           secrets: Sequence[str] = ()) -> MultiRecommendation | None:
    """The recommendation the report carries: ``recommend``'s for ``--context-lengths`` and
    ``--goal`` (both or neither), or ``None``. ``secrets``: the catalog's config values, masked in
    the ``--sessions`` read as evidence."""
    from ..analysis.recommend import (add_session_evidence, add_whole_catalog,  # noqa: PLC0415
                                      recommend_for_contexts, servers_without_tools, session_drift_words)

    given = [option for option, value in (("--except", args.except_servers), ("--keep", args.keep_servers),
                                          ("--headroom", args.headroom is not None),
                                          ("--reserve", args.reserve is not None),
                                          ("--sessions", args.session_sources), ("--keep-called", args.keep_called))
             if value]
    if args.goal is None and args.context_lengths is None:
        if given:
            raise ReviewUsageError(f"report: {given[0]}: only with --goal and --context-lengths")
        return None
    if args.goal is None or args.context_lengths is None:
        missing = "--goal" if args.goal is None else "--context-lengths"
        raise ReviewUsageError(f"report: {missing}: needed too: the recommendation is for a goal at the context "
                               "lengths the config serves (e.g. --context-lengths 32k,200k --goal names)")
    refuse_unlisted_servers("report", "", inspector)
    refuse_unread_items("report", inspector)
    goal, length_goals = goal_for("report", args, inspector)
    if args.keep_called and not args.session_sources:
        keep_for("report", args, inspector, None)  # refuses: the servers to keep come from the sessions
    ladder = listing_ladder(inspector.planner, config, args.tokenizer, args.reserve or 0.0)
    evidence = read_session_evidence(args.session_sources, inspector, config, secrets,
                                     args.keep_called) if args.session_sources else None
    keep, kept_called = keep_for("report", args, inspector, evidence)
    rec = recommend_for_contexts(ladder, config, args.context_lengths, goal, except_servers=args.except_servers,
                                 keep_servers=keep, headroom_pct=args.headroom or 0.0,
                                 length_goals=length_goals)
    rec = replace(rec, no_tools=servers_without_tools(inspector))  # as recommend names them
    if kept_called is not None:
        rec = replace(rec, keep_called=kept_called)
    if evidence is not None:
        rec = add_session_evidence(rec, ladder, evidence.called, evidence.sessions_read,
                                   session_drift_words(evidence.drift, inspector.catalog.name), evidence.note,
                                   evidence.uncounted, evidence.lengths)
    if inspector.scope is not None:  # the block is harness-wide: what every other session gets with it
        rec = add_whole_catalog(rec, listing_ladder(inspector.scoped(None).planner, config, args.tokenizer,
                                                    args.reserve or 0.0), inspector.scope.name)
    return rec


def _refuse_writing_an_input(args: argparse.Namespace, output: Path, query_file: Path | None) -> None:
    """Refuse ``-o`` naming a file the report reads (a catalog, the config, the scope file, the
    wording profile, the query file, a session file): a slip such as ``-o catalog.yaml`` replaced
    that input with the HTML. Raises :class:`ReviewUsageError`."""
    inputs = [("the catalog", s) for s in args.sources] + [
        (what, path) for what, path in (("--config", args.config), ("--scope-file", getattr(args, "scope_file", None)),
                                        ("--profile", args.profile), ("the query file", query_file))
        if path] + [("--sessions", s) for s in args.session_sources]
    what = input_written_over(output, inputs)
    if what:
        raise ReviewUsageError(f"{args.output}: -o: that file is an input of this report ({what}); "
                               "write the report to another file")


def _query_file_shown(args: argparse.Namespace, query_file: Path) -> str:
    """The query file as the user can find it: as typed, else the shipped one's path (relative to
    the working folder when it is inside it). Its bare name read like the catalog's own file
    (``query file team-workspace.yaml`` for the catalog team-workspace.yaml)."""
    from ..analysis.wording import shown_path  # noqa: PLC0415

    if args.query_file:
        return str(args.query_file)
    return shown_path(query_file)


def _report(args: argparse.Namespace, inspector: Inspector, config: ToolSearchConfig,
            secrets: Sequence[str] = (), config_servers: Sequence[tuple[str, Sequence[str]]] = (),
            agreement: ServerAgreement | None = None) -> int:
    from ..live.client import catalog_key  # noqa: PLC0415

    display = args.display_tokenizer or args.tokenizer
    catalog = source_stem(args.sources[0]) if len(args.sources) == 1 else ""
    if args.query_file:
        query_file: Path | None = Path(args.query_file)
        if not query_file.is_file():
            raise ReviewUsageError(f"{args.query_file}: --query-file: no such file")
    else:
        query_file = companion_query_file(args.sources)
    output = Path(args.output)
    if not output.parent.is_dir():
        raise ReviewUsageError(f"{args.output}: -o: the folder {quoted(str(output.parent))} does not exist")
    _refuse_writing_an_input(args, output, query_file)
    left_out: list[str] = []
    recommendation = with_server_agreement(_report_recommendation(args, inspector, config, secrets), agreement,
                                           inspector, config)
    given = args.context_length is not CONTEXT_LENGTH_NOT_GIVEN
    context_length, context_note = report_context_length(
        args.context_length if given else None, args.context_lengths, given=given, lengths_name="--context-lengths")
    html_text = review_report(
        inspector, config, context_length, args.tokenizer, display, source_label=_source_label(args.sources),
        fingerprint=catalog_key(inspector.scoped(None).catalog),  # the whole catalog's, also for a scope
        queries=args.queries if args.queries is not None else DEFAULT_QUERIES.splitlines(),
        query_file=query_file, include_lint=not args.no_lint,
        strategies_for=None if args.no_strategies else lambda: default_strategies(
            inspector, catalog, _source_label(args.sources), config, context_length, args.tokenizer, display),
        problems=left_out, recommendation=recommendation, profile_path=args.profile,
        **gate_files(args.sources, config_servers, args.config),  # the snapshot and gate lines, as recommend --yaml's
        context_note=context_note,
        # with a goal or not, as plan's notes; a scoped report's of the servers its scope reaches
        notes=agreement_in_scope(agreement, inspector).sentences() if agreement is not None else ())
    if inspector.scope is not None:  # said once the report is built: an error stays the only line
        print(f"toolsearch: {scope_line(inspector)}", file=sys.stderr)
    for problem in left_out:
        print(one_line(f"toolsearch: warning: {problem}"), file=sys.stderr)
    epoch_problem = source_date_epoch_problem()
    if epoch_problem is not None:  # a build that meant to compare two reports byte for byte
        print(one_line(f"toolsearch: warning: {one_line(epoch_problem)}"), file=sys.stderr)
    try:
        write_output_file(args.output, html_text)
    except OSError as exc:
        raise ReviewUsageError(f"{args.output}: cannot write the report: {exc.strerror or exc}") from None
    size = len(html_text.encode("utf-8"))
    print(one_line(f"toolsearch: wrote {args.output} ({size / 1024:,.0f} KiB, self-contained"
                   f"{', query file ' + _query_file_shown(args, query_file) if query_file else ''})"), file=sys.stderr)
    return 0


# --- costs --------------------------------------------------------------------------------------

def _share(value: float) -> str:
    return f"{100 * value:.1f}%"


#: The headings of ``costs``' two text tables. A heading names one quantity: none of them is a
#: heading ``plan`` gives a different figure (``tests/test_cli_review.py`` checks it).
COSTS_TOOL_COLUMNS = ("name", "server", "description", "signature", Q.TOOL_SCHEMA_COLUMN, "share", "outlier")
COSTS_SERVER_COLUMNS = ("server", "kind", "tools", "description", "signature", "total", "share", "outliers")


def _costs(args: argparse.Namespace, inspector: Inspector, config: ToolSearchConfig) -> int:
    result = costs_mod.tool_costs(inspector, config, args.tokenizer, args.display_tokenizer, args.context_length,
                                  args.sort)
    if args.json:
        print_json(result.to_dict())
        return 0
    header = ["name", "server", "description_tokens", "signature_tokens", "total_tokens", "share", "outlier"]
    if args.csv:
        write_csv(header, [[t.name, t.server, t.description_tokens, t.signature_tokens, t.total_tokens,
                            f"{t.share:.6f}", "yes" if t.outlier else "no"] for t in result.tools])
        return 0
    fence = f"{result.outlier_fence:,.0f}" if result.outlier_fence is not None else "none (fewer than " \
        f"{costs_mod.OUTLIER_MIN_TOOLS} tools)"
    print(f"tokens in {result.display_tokenizer} (display tokenizer); planning tokenizer {result.planning_tokenizer}")
    counted_alone = sum(t.total_tokens for t in result.tools)
    print(f"{Q.ALL_SCHEMAS.name.lower()} (every tool's schema sent in full, measured as one array): "
          f"{result.eager_tokens:,} tokens; each tool below is counted alone (they add up to {counted_alone:,}); "
          f"outlier above {fence} tokens")
    print(text_table([[name_cell(t.name), name_cell(t.server), f"{t.description_tokens:,}", f"{t.signature_tokens:,}", f"{t.total_tokens:,}",
                       _share(t.share), "outlier" if t.outlier else ""] for t in result.tools],
                     list(COSTS_TOOL_COLUMNS)))
    print()
    print("per server (total: its tools counted alone, added up; plan's \"schemas (tokens)\" rounds once per "
          "server, so with chars4 it can be lower by up to one token per tool)")
    print(text_table([[name_cell(s.server), s.kind, f"{s.tools:,}", f"{s.description_tokens:,}", f"{s.signature_tokens:,}",
                       f"{s.total_tokens:,}", _share(s.share), f"{s.outliers:,}"] for s in result.servers],
                     list(COSTS_SERVER_COLUMNS)))
    return 0


# --- check --------------------------------------------------------------------------------------

def _length(value: int | None) -> str:
    """A context length in check's table, goal line and settings line, as ``recommend`` writes it
    (:func:`toolsearch.analysis.quantities.length_label`: ``32K``, ``1M``, ``12,345 tokens``,
    ``unknown``); ``--format json`` keeps the number."""
    return Q.length_label(value)


def _md(text: str) -> str:
    """Catalog text inside a Markdown table cell: shown literally. A word holding ``@`` goes in a
    code span, the one place a pull-request comment does not read ``@user`` or ``@org/team`` as a
    mention (a backslash before ``@`` is still one): a server name must not ping anyone. A word
    GitHub would make a link of (``https://…``, ``www.…``, also after a ``(``, ``*``, ``_`` or ``~``,
    as in ``(www.example.com)``) is a code span too, and ``&`` is escaped, so ``&#64;team`` or
    ``&commat;team`` stays text instead of becoming ``@team``. A ``$`` is escaped too: GitHub draws
    ``$…$`` and ``$$…$$`` as math, so a server named ``$x^2$`` showed as a formula."""
    special = set("\\`*_[]|<>~&$")
    words = []
    for word in str(text).replace("\n", " ").split(" "):
        if "@" in word or "://" in word or "www." in word.lower():
            fence = "`" * (max((len(run) for run in re.findall("`+", word)), default=0) + 1)
            pad = " " if word.startswith("`") or word.endswith("`") else ""
            words.append(f"{fence}{pad}{word.replace('|', chr(92) + '|')}{pad}{fence}")  # a pipe splits a table cell even in code
        else:
            words.append("".join("\\" + ch if ch in special else ch for ch in word))
    return " ".join(words)


def _code(text: str) -> str:
    """``text`` as one Markdown code span (a command to copy): shown literally, whatever backticks it holds."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def recommendation_markdown(rec: Any, config: ToolSearchConfig, lowered: Sequence[tuple[int | None, str]],
                            header: Sequence[str], rows: Sequence[Sequence[Any]], *, sessions: str | None = None,
                            tool_names: str = "prefixed", profile: str | None = None, scope: str | None = None,
                            catalogs: Sequence[str] = (), client_configs: Sequence[str] = (), ladder: Any = None,
                            config_file: str = "config.yaml", request_costs: Sequence[str] = ()) -> str:
    """``toolsearch recommend --format markdown``: a pull request comment with a heading (reached or
    not), the recommendation's lines as a list (the words of
    :func:`~toolsearch.analysis.recommend.recommendation_lines`), the per-length table (``header``
    and ``rows`` of :func:`~toolsearch.analysis.recommend.outcome_rows`, numbers with thousands
    separators), the ``sessions`` line under it and the gate line
    (:func:`~toolsearch.analysis.recommend.gate_lines`, the command in a code span). Catalog text
    (server names) is escaped: it shows literally and pings no one. ``ladder``: the one ``rec`` was read off,
    for the headroom that lists as much as ``config``; ``request_costs``: where tool search costs more than it
    saves (:func:`~toolsearch.analysis.recommend.request_cost_lines`). Returns text ending in a newline."""
    from ..analysis.recommend import gate_lines, recommendation_lines, verdict_words  # noqa: PLC0415

    out = [f"### toolsearch recommend: {_md(rec.goal_words)}, {verdict_words(rec)}", ""]
    out += [f"- {_md(line)}" for line in recommendation_lines(rec, config, lowered, ladder, request_costs=request_costs)]
    out += ["", "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(_md(f"{cell:,}" if isinstance(cell, int) else cell) for cell in row) + " |"
            for row in rows]
    if sessions:
        out += ["", _md(sessions)]
    for label, command, words in gate_lines(rec, tool_names=tool_names, profile=profile, scope=scope,
                                            catalogs=catalogs, client_configs=client_configs,
                                            config_file=config_file):
        out += ["", f"**{label[0].upper()}{label[1:]}:** " + (_code(command) + (f" ({_md(words)})" if words else "")
                                                             if command else _md(words))]
    return "\n".join(out) + "\n"


def _change_text(change: check_mod.BaselineChange | None, outcome: Any) -> str:
    """The "against the baseline" cell of ``check --format markdown``, the cause of a cache miss
    included (:func:`_cause_words`)."""
    cell, cause = _change_parts(change, outcome, short=False)
    return "; ".join(part for part in (cell, cause) if part)


def _change_parts(change: check_mod.BaselineChange | None, outcome: Any, short: bool) -> tuple[str, str]:
    """The change at one length against the baseline, in words, apart from what changes the tools
    array's prefix (:func:`_cause_words`, ``""`` when nothing does). ``short``: the cell of the text
    table, a CI log's line, with the listing's change as a delta alone (the row's listing_tokens
    column gives the new figure)."""
    if change is None:
        return "", ""
    b = change.before
    parts = []
    if (b.tier, b.listing_form) != (outcome.tier, outcome.listing_form):
        parts.append(f"tier {b.tier} {Q.form_word(b.listing_form)} → tier {outcome.tier} {Q.form_word(outcome.listing_form)}")
    if b.listing_tokens != outcome.listing_tokens:
        delta = outcome.listing_tokens - b.listing_tokens
        parts.append(f"listing {delta:+,} tokens" if short else
                     f"listing {b.listing_tokens:,} → {outcome.listing_tokens:,} tokens ({delta:+,})")
    if change.cache_hit:
        parts.append("prompt cache: identical tools array")
    else:
        parts.append(f"{'cache' if short else 'prompt cache'}: {change.reusable_tokens:,} of {change.total_tokens:,} "
                     "tokens reusable")
    return ("; ".join(parts) if parts else "no change"), _cause_words(change)


def _cause_words(change: check_mod.BaselineChange) -> str:
    """What first changes the tools array's prefix against the baseline, and how many more
    differences do (``toolsearch diff`` lists them); ``""`` on a cache hit or without a cause."""
    if change.cache_hit or not change.first_cause:
        return ""
    return change.first_cause + (
        f" {counted(change.more_causes, 'more difference')} "
        f"{agree(change.more_causes, 'changes', 'change')} the prefix too; toolsearch diff lists them."
        if change.more_causes else "")


def _baseline_cells(lengths: Sequence[check_mod.LengthCheck]) -> tuple[list[str], list[str]]:
    """For ``check``'s text table: a short "against the baseline" cell per length, and below the
    table each distinct cause of a cache miss once, numbered (``[1] server 'core' added: …``), the
    cells pointing at it by number: the long sentence repeated on every row made a CI log's table
    unreadable."""
    cells, notes, numbers = [], [], {}
    for c in lengths:
        cell, cause = _change_parts(c.change, c.outcome, short=True)
        if cause:
            if cause not in numbers:
                numbers[cause] = len(numbers) + 1
                notes.append(cause)
            cell += f" [{numbers[cause]}]"
        cells.append(cell)
    where = {n: [_length(c.outcome.context_length) for c in lengths
                 if c.change is not None and numbers.get(_change_parts(c.change, c.outcome, short=True)[1]) == n]
             for n in numbers.values()}
    lines = [f"[{i}] at {', '.join(where[i])}, what first changes the tools array (where the cache's reusable "
             f"part ends): {cause}"
             for i, cause in enumerate(notes, 1)]
    return cells, lines


def _verdict_lines(result: check_mod.CheckResult) -> list[str]:
    """Where and why the goal fails, one line per condition missed naming the lengths it is missed at
    (:func:`toolsearch.analysis.check.failure_lines`), and the settings that would reach it (a tab
    or line break in a server name written as an escape, :func:`~toolsearch.cli.textfmt.one_line`)."""
    from ..analysis.check import failure_lines  # noqa: PLC0415

    # one line per condition missed
    return [one_line(line) for line in failure_lines(result)] + [line for _, line in _suggestion_lines(result)]


def _suggestion_lines(result: check_mod.CheckResult) -> list[tuple[str, str]]:
    """The settings that would reach the goal, or why none does, as ``(kind, line)``: ``settings``
    for that line, ``large share`` for each length where the suggested listing takes a large share
    of the context, said as ``recommend`` says it (:func:`toolsearch.analysis.recommend.large_share_lines`);
    empty when the check passes or only the baseline comparison fails it."""
    from ..analysis.recommend import (LISTING_OFF_ACTION, LISTING_OFF_REASON, as_listed_words,  # noqa: PLC0415
                                      every_length_words,
                                      large_share_lines)

    s = result.suggestion
    if s is None:
        return []
    where = every_length_words([c.context_length for c in s.contexts])  # one length checked: that length
    if not s.reached:
        return [("settings", f"no setting reaches it {where}{as_listed_words(s)}: {s.reason}"
                             + (f"; {LISTING_OFF_ACTION}" if s.reason == LISTING_OFF_REASON else "")
                             + (f"; {s.lower_goal_words}" if s.lower_goal_words else ""))]  # as recommend suggests it
    line = (f"settings that reach it {where}{as_listed_words(s)}: {settings_words(s.threshold_pct, s.listing_max_tokens)}"
            + (f" (listing up to {max(o.listing_tokens for o in s.contexts):,} tokens)" if s.contexts else "")
            + (f", with {s.headroom_pct:g}% headroom" if s.headroom_pct else
               "; tight, with no room to grow: toolsearch recommend --headroom PCT leaves some"))
    return [("settings", line)] + [("large share", one_line(share)) for share in large_share_lines(s)]


#: The annotation title of each kind of failure (:attr:`toolsearch.analysis.check.Miss.kind`).
GITHUB_TITLES = {kind: f"toolsearch check: {words}" for kind, words in MISS_WORDS.items()}


def _goal_cell_servers(c: check_mod.LengthCheck) -> str:
    """What the goal cell of ``check``'s table adds after holds/FAILS: where the goal fails, why, in
    short (the servers whose collapse fails it, :attr:`LengthCheck.failing_servers`, at most three,
    then any other condition missed, as the annotation titles name it); with ``--except``, the
    excepted servers collapsed at that length (a row naming only the servers the goal let go would
    point a CI log's reader at the wrong one)."""
    failing = c.failing_servers
    shown = ", ".join(map(name_cell, failing[:3])) + (f" and {len(failing) - 3} more" if len(failing) > 3 else "")
    causes = [f"collapsed: {shown}"] if failing else []
    # a failure that is no server's (headroom, size, baseline): its condition, as the annotation titles say it
    causes += list(dict.fromkeys(MISS_WORDS[m.kind] for m in c.misses if m.kind not in ("keep", "goal")))
    excepted = f"; excepted, collapsed: {', '.join(map(name_cell, c.excepted_collapsed))}" if c.excepted_collapsed else ""
    return "".join(f", {cause}" for cause in causes) + excepted


def _github_lines(result: check_mod.CheckResult, config: ToolSearchConfig, sources: Sequence[str],
                  notes: Sequence[str] = ()) -> list[str]:
    """``check --format github``: an ``::error`` annotation per failure line
    (:func:`toolsearch.analysis.check.failure_items`), a ``::warning`` per length where the change
    makes disclosure worse than the baseline when ``--fail-on-worse`` does not gate it, a
    ``::notice`` with the settings that would reach the goal (and one per length where they take a
    large share of the context), then one summary line naming the conditions missed
    (:func:`toolsearch.analysis.check.verdict_words`; never starting with ``::``). ``file=`` names
    the catalog when it is one file."""
    from ..analysis.check import failure_items, verdict_words, worse_lines  # noqa: PLC0415
    from ..analysis.recommend import keep_forces_lines  # noqa: PLC0415

    where = {"file": sources[0]} if len(sources) == 1 and sources[0] != "-" else {}
    lines = [f"toolsearch check: {line}" for line in notes]
    items = failure_items(result)
    for kind, line in items:
        lines.append(github_command("error", line, title=GITHUB_TITLES.get(kind, "toolsearch check"), **where))
    if not result.fail_on_worse:
        for line in worse_lines(result):
            lines.append(github_command("warning", line, title=GITHUB_TITLES["worse"], **where))
    for kind, line in _suggestion_lines(result):  # the settings that would reach the goal
        lines.append(github_command("notice", line, title=f"toolsearch check: {kind}"))
    for line in keep_forces_lines(result):  # as recommend says it; server names are catalog text
        lines.append(github_command("notice", line, title="toolsearch check: servers kept named"))
    verdict = "passed" if result.passed else f"failed ({counted(len(items), 'condition')} missed)"
    settings = f"{_settings_words(config)}, planning tokenizer {result.planning_tokenizer}"
    old = result.baseline_config
    if old is not None and _settings_words(old) != _settings_words(config):  # as the text output says it
        settings += f" (baseline: {_settings_words(old)})"
    # not a command: '##[error]…' in a server name would make it one (the runner's legacy form, read anywhere)
    lines.append(runner_safe(one_line(f"toolsearch check {verdict}: {verdict_words(result)}; {settings}")))
    return lines


def _settings_words(config: ToolSearchConfig) -> str:
    """The settings a listing depends on, as the check's settings line says them."""
    words = settings_words(config.threshold_pct, config.listing_max_tokens)
    for key, default in (("enabled", C.ENABLED_DEFAULT), ("listing", C.LISTING_DEFAULT)):
        if getattr(config, key) != default:
            words += f", {key} {getattr(config, key)}"
    return words


def _check(args: argparse.Namespace, inspector: Inspector, config: ToolSearchConfig,
           secrets: Sequence[str] = (), agreement: ServerAgreement | None = None) -> int:
    from ..analysis import check as check_mod  # noqa: PLC0415
    from ..analysis.recommend import SESSION_COLUMNS, keep_called_lines, keep_forces_lines, session_columns_line  # noqa: PLC0415

    goal, length_goals = goal_for("check", args, inspector)
    if args.session_sources and not args.keep_called:  # the sessions would change nothing: say so, not ignore them
        raise ReviewUsageError("check: --sessions: only with --keep-called: check reads recorded sessions for the "
                               "servers they called, which then must stay named")
    if args.keep_called and not args.session_sources:
        keep_for("check", args, inspector, None)  # refuses: the servers to keep come from the sessions
    if args.baseline_config is not None and not args.baseline:
        raise ReviewUsageError("check: --baseline-config: the settings before the change need the catalog before "
                               "it: add --baseline OLD_CATALOG (the same catalog file, when only the config changed)")
    baseline_config = None
    if args.baseline_config is not None:
        read = load_harness_config(args.baseline_config)
        baseline_config = with_flags(read, {key: getattr(args, key, None) for key in
                                            ("threshold_pct", "listing_max_tokens", "listing", "enabled")})
        for warning in baseline_config.warnings:  # the old config is not gated: --strict judges the new one
            print(one_line(f"toolsearch: warning: --baseline-config: {warning}"), file=sys.stderr)
        if args.format == "github":
            for line in github_loaded_lines(baseline_config, (), (), (), config_option="--baseline-config"):
                print(line)
    baseline = _load(args, args.baseline, config, "--baseline")[0] if args.baseline else None
    for side, loaded in (("", inspector), ("--baseline: ", baseline)):
        refuse_unlisted_servers("check", side, loaded)
    refuse_unread_items("check", inspector)
    # the same keep set recommend --keep-called takes from the same sessions (one code path)
    evidence = read_session_evidence(args.session_sources, inspector, config, secrets,
                                     args.keep_called) if args.session_sources else None
    keep, kept_called = keep_for("check", args, inspector, evidence)
    result = check_mod.check_catalog(inspector, config, args.context_lengths, goal, args.tokenizer,
                                     max_listing_tokens=args.max_listing_tokens, baseline=baseline,
                                     except_servers=args.except_servers, keep_servers=keep,
                                     headroom_pct=args.headroom, length_goals=length_goals,
                                     baseline_config=baseline_config,
                                     called=evidence.called if evidence is not None else None,
                                     fail_on_worse=args.fail_on_worse, reserve_pct=args.reserve)
    # the suggested settings, like recommend's, are for the servers as the catalog lists them
    result = replace(result, suggestion=with_server_agreement(result.suggestion, agreement, config=config))
    if result.suggestion is not None:  # a goal met by built-in tools alone: named as recommend names it
        from ..analysis.recommend import with_core_only  # noqa: PLC0415
        result = replace(result, suggestion=with_core_only(
            result.suggestion, listing_ladder(inspector.planner, config, args.tokenizer, args.reserve),
            {s.name: s.kind for s in inspector.catalog.servers}))
    status = decided(0 if result.passed else 1)
    called_lines = [one_line(line) for line in keep_called_lines(kept_called)]
    if args.format == "json":
        data = result.to_dict()
        if kept_called is not None:
            data["keep_called"] = kept_called.to_dict()
        print_json(data)
        return status
    if args.format == "github":
        for line in _github_lines(result, config, args.sources, called_lines):
            print(line)
        return status
    lengths = ", ".join(_length(c.outcome.context_length) for c in result.lengths)
    settings = f"{_settings_words(config)}, planning tokenizer {result.planning_tokenizer}"  # enabled off is said
    old = result.baseline_config
    if old is not None and _settings_words(old) != _settings_words(config):
        settings += f" (baseline: {_settings_words(old)})"
    # the columns of recommend's table: a mixed listing is never reported without its counts
    header = ["context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named", "tools_named", "goal"]
    rows = [[_length(c.outcome.context_length), f"{c.outcome.budget:,}", str(c.outcome.tier),
             Q.form_word(c.outcome.listing_form),
             f"{c.outcome.listing_tokens:,}", share_cell(c.outcome.servers_named, c.outcome.servers_total),
             f"{c.outcome.tools_named:,}",
             ("holds" if c.holds else "FAILS") + (f" ({c.goal})" if result.length_goals else "")
             + _goal_cell_servers(c)]
            for c in result.lengths]
    if evidence is not None:  # recommend --sessions' columns, from the same counting
        header[-1:-1] = SESSION_COLUMNS
        for row, c in zip(rows, result.lengths):
            row[-1:-1] = [share_cell(c.outcome.called_listed or 0, c.outcome.called_total or 0),
                          f"{c.outcome.searches_saved or 0:,}"]
    baseline_notes: list[str] = []
    if baseline is not None:
        header.append("against the baseline")
        if args.format == "markdown":  # a pull-request comment wraps a long cell
            for row, c in zip(rows, result.lengths):
                row.append(_change_text(c.change, c.outcome))
        else:  # a CI log does not: a short cell, each cause once under the table
            cells, baseline_notes = _baseline_cells(result.lengths)
            for row, cell in zip(rows, cells):
                row.append(cell)
    # where it fails, as the lines under the table word it (the goal line names every length checked)
    verdict = "passed" if result.passed else " ".join(filter(None, ("failed", check_mod.failing_at(result))))
    # as recommend says it, after the servers the sessions called: what keeping them keeps named besides
    called_lines += [one_line(line) for line in keep_forces_lines(result)]
    columns_line = (one_line(session_columns_line(evidence.sessions_read, [c.outcome for c in result.lengths]))
                    if evidence is not None else None)
    if args.format == "markdown":
        # server names are catalog text; the lengths are on the next line
        print(f"### toolsearch check {verdict}: {_md(check_mod.verdict_words(result, lengths=False))}")
        print()
        print(f"Context lengths {lengths} · {settings}")
        print()
        if called_lines:
            for line in called_lines:
                print(f"- {_md(line)}")
            print()
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            print("| " + " | ".join(_md(cell) for cell in row) + " |")
        if columns_line:
            print()
            print(_md(columns_line))
        if not result.passed:
            print()
            for line in _verdict_lines(result):
                print(f"- {_md(line)}")
        return status
    # server names in these lines are catalog text: '##[error]…' is a runner command anywhere in a line
    print(runner_safe(f"toolsearch check {verdict}: {check_mod.verdict_words(result)}"))
    print(runner_safe(settings))
    for line in called_lines:
        print(runner_safe(line))
    print(text_table(rows, header))
    for line in baseline_notes:  # server names are catalog text
        print(runner_safe(one_line(line)))
    if columns_line:
        print(runner_safe(columns_line))
    for line in _verdict_lines(result):
        print(runner_safe(line))
    return status

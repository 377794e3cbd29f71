"""``toolsearch strategies``: the six disclosure strategies side by side for one catalog.

A thin shell over :mod:`toolsearch.analysis.strategies`: parsing and printing only. Wired into the
``toolsearch`` console script by :mod:`toolsearch.cli.commands` through :func:`add_parser` and :func:`run`::

    toolsearch strategies CATALOG... [--skills DIR|FILE] [--events FILE] [--read SKILL] [--use TOOL]
                          [--tokenizer T] [--tool-tokens N] [--non-deferred TOOL] [--pin SKILL]
                          [--mid-conversation-tools] [--search-variant bm25|regex] [--json]

``--json`` prints a JSON array with one object per strategy (``strategy``, ``upfront_tokens``,
``task_tokens``, ``round_trips``, ``cache_breaks``, ``per_tool``…, and ``timeline`` when
``--events`` is given). Exit status 0 on success, 2 for bad arguments or unreadable files (one line
on stderr naming the file and the problem).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Sequence

from ..engine import constants as C
from .common import Once, Parser, add_timeout_argument, load_harness_config, problem_line, note_unused_settings, print_json
from .textfmt import one_line, parse_context_length as _context_length, text_table as _table, whole_number
from .scopes import add_scope_arguments, one_scope, scope_line, scope_summary, scopes_from_args
from ..engine.config import parse_config
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..analysis.wording import counted
from ..analysis.quantities import length_label

if TYPE_CHECKING:
    from ..analysis.strategies import StrategyModel, Task, TimelineStep

# The strategy model and the skills are imported when the command runs, not with the parser every
# command builds.


def _count(text: str) -> int:
    return whole_number(text, "expected a whole number ≥ 0", least=0)


def _positive(text: str) -> int:
    return whole_number(text, "expected a whole number ≥ 1", least=1)






def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``strategies`` subcommand to an ``add_subparsers()`` object and return its parser."""
    p = subparsers.add_parser(
        "strategies", help="compare disclosure strategies: all up front, tiered, provider search, skill-linked",
        description="Up-front tokens, task tokens, round trips and cache breaks of six disclosure strategies for "
                    "the same catalog, skills and task; with --events, a timeline after each event.")
    p.add_argument("sources", nargs="+", metavar="CATALOG",
                   help="catalog files (or MCP client config files, whose servers are started and listed live)")
    p.add_argument("--skills", metavar="DIR|FILE",
                   help="a folder of SKILL.md files, one SKILL.md, or a YAML list of skills")
    p.add_argument("--events", metavar="FILE",
                   help="YAML list of events (- {read_skill: NAME}, - {call: TOOL}, - {search: QUERY}, "
                        "- {describe: TOOL}, - compaction, - {add_server: NAME}, - {remove_server: NAME}); "
                        "its reads and calls are also the task")
    p.add_argument("--read", action="append", default=[], metavar="SKILL", help="a skill the task reads (repeatable)")
    p.add_argument("--use", action="append", default=[], metavar="TOOL",
                   help="a tool wire name the task uses (repeatable)")
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER, help="counts every piece")
    p.add_argument("--tool-tokens", type=_count, default=None, metavar="N",
                   help="count every tool definition as N tokens instead of measuring it")
    p.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                   help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    p.add_argument("--config", action=Once, metavar="FILE", help="harness config.yaml for the tiered strategy (tools.tool_search)")
    p.add_argument("--context-length", type=_context_length, default=None, metavar="N",
                   help="context length for the tiered budget (e.g. 200k; default unknown)")
    p.add_argument("--non-deferred", action="append", default=None, metavar="TOOL",
                   help="provider search: keep this tool non-deferred (repeatable; default: the core tools)")
    p.add_argument("--search-variant", choices=C.ANTHROPIC_SEARCH_VARIANTS, default="bm25",
                   help="Anthropic search tool: bm25 (query) or regex (pattern)")
    p.add_argument("--search-results", type=_positive, default=None, metavar="N",
                   help=f"results per provider search (default {C.ANTHROPIC_SEARCH_RESULTS_DEFAULT})")
    p.add_argument("--no-server-groups", action="store_true",
                   help="OpenAI: defer each tool as a function instead of grouping each MCP server")
    p.add_argument("--pin", action="append", default=[], metavar="SKILL",
                   help="skill-linked: a skill in the input from the start, with its tools (repeatable)")
    p.add_argument("--mid-conversation-tools", action="store_true",
                   help="skill-linked: the model takes tools mid-conversation without touching tools (cache survives)")
    add_timeout_argument(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON: one object per strategy (with --events and a --context-length, each also "
                        "carries harness_switches: Claude Code's and Qwen Code's decision at every step, as the "
                        "text's switch table)")
    add_scope_arguments(p)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``toolsearch strategies`` for parsed ``args``. Returns the exit status (0, or 2 on errors)."""
    try:
        return _run(args)
    except ToolsearchError as exc:
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0


def _progress(status: Any) -> None:
    if getattr(status, "done", False):
        print(f"toolsearch: live: {status.summary()}", file=sys.stderr, flush=True)


def build_model(args: argparse.Namespace) -> tuple[StrategyModel, tuple, Task]:
    """Load the catalog, skills and events named by ``args``; return ``(model, events, task)``.

    Warnings go to stderr. Raises :class:`~toolsearch.engine.errors.ToolsearchError` subclasses for
    unreadable files and unknown names.
    """
    from ..analysis.skills import load_skills  # noqa: PLC0415
    from ..analysis.strategies import StrategyModel, StrategySettings, Task, load_events, task_from_events  # noqa: PLC0415
    from ..live.client import is_connect_failure  # noqa: PLC0415 - live is optional at import time
    from .common import load_sources, server_refusal  # noqa: PLC0415

    config = load_harness_config(args.config) if args.config else parse_config({})
    loaded = load_sources(args.sources, timeout=args.timeout, progress=_progress, refuse_configs=server_refusal(args))
    inspector = Inspector(loaded.catalog, args.tool_names)
    for warning in [*loaded.warnings, *config.warnings]:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    note_unused_settings(loaded.settings_files, args.config)
    for problem in inspector.registration.problems:
        if problem.severity != "info" and not is_connect_failure(problem):
            print(problem_line(problem), file=sys.stderr)
    from .common import config_servers_said  # noqa: PLC0415

    scopes = scopes_from_args(args, inspector)
    config_servers_said(args.config, inspector, scopes=scopes)  # of the servers the scope reaches
    inspector = inspector.scoped(one_scope("strategies", scopes))
    skills = load_skills(args.skills) if args.skills else None
    for problem in (skills.problems if skills else ()):
        if problem.severity != "info":
            # one line: a folder in a skills tree may be named with a line break (``x\n::error::…``)
            print(one_line(f"toolsearch: skills {problem.severity}: {problem.where}: {problem.message}"),
                  file=sys.stderr)
    skipped: list[str] = []  # a bad event is skipped with its place; the others are replayed
    events = load_events(args.events, skipped) if args.events else ()
    for warning in skipped:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    results = args.search_results
    settings = StrategySettings(
        tokenizer=args.tokenizer, tool_tokens=args.tool_tokens, config=config, context_length=args.context_length,
        non_deferred=tuple(args.non_deferred) if args.non_deferred is not None else None,
        search_variant=args.search_variant,
        anthropic_search_results=results or C.ANTHROPIC_SEARCH_RESULTS_DEFAULT,
        openai_search_results=results or C.OPENAI_SEARCH_RESULTS_ASSUMED,
        group_servers=not args.no_server_groups, pinned_skills=tuple(args.pin),
        mid_conversation_tools=args.mid_conversation_tools)
    model = StrategyModel(inspector, skills, settings)
    for problem in model.problems:
        if problem.severity != "info":
            print(one_line(f"toolsearch: {problem.severity}: {problem.where}: {problem.message}"), file=sys.stderr)
    model.check_events(events, args.events or "--events")
    from_events = task_from_events(events)
    task = Task(tuple(dict.fromkeys([*from_events.skills_read, *args.read])),
                tuple(dict.fromkeys([*from_events.tools_used, *args.use])))
    model.check_task(task, "--read/--use")
    return model, events, task




def timeline_to_dicts(timeline: Sequence[TimelineStep], strategy: str) -> list[dict[str, Any]]:
    """One strategy's timeline as JSON-ready dicts (step 0 is the start, ``event`` null)."""
    return [{"step": step.index, "event": step.event.to_data() if step.event else None,
             **step.state(strategy).to_dict()} for step in timeline]


def _run(args: argparse.Namespace) -> int:
    from ..analysis.strategies import (  # noqa: PLC0415
        CALLABLE_COLUMN,
        TOOLS_SHOWN_COLUMN,
        harness_switches,
        read_before_call_words,
    )

    model, events, task = build_model(args)
    results = model.results(task)
    timeline = model.timeline(events) if events else ()
    if args.json:
        switches = [step.to_dict() for step in harness_switches(model, events)] if events else []
        out = []
        for result in results:
            item = result.to_dict()
            if model.inspector.scope is not None:
                item["scope"] = scope_summary(model.inspector)
            if timeline:
                item["timeline"] = timeline_to_dicts(timeline, result.strategy)
            if switches:  # the same for every strategy: what other harnesses would decide at each step
                item["harness_switches"] = switches
            out.append(item)
        print_json(out)
        return 0
    ins = model.inspector
    tk = model.settings.tokenizer
    print(f"catalog: {one_line(ins.catalog.name)} ({counted(len(model.tools), 'tool')}); skills: {len(model.skills)}; tokenizer {tk}"
          + (f"; every tool counted as {model.settings.tool_tokens:,} tokens" if model.settings.tool_tokens is not None else ""))
    if ins.scope is not None:
        print(scope_line(ins))
    print(f"task: reads {', '.join(task.skills_read) or 'no skills'}; uses {', '.join(task.tools_used) or 'no tools'}")
    print()
    print(_table([[r.label, f"{r.upfront_tokens:,}", f"{r.task_tokens:,}", r.round_trips, r.cache_breaks,
                   read_before_call_words(r.read_before_call), r.tools_upfront, r.callable_upfront] for r in results],
                 ["strategy", "up front (tokens)", "task (tokens)", "round trips", "cache breaks",
                  "read before call", TOOLS_SHOWN_COLUMN, CALLABLE_COLUMN]))
    if task.tools_used:
        print()
        print("round trips before the first call of each tool:")
        print(_table([[tool, *[r.per_tool[i].round_trips for r in results]] for i, tool in enumerate(task.tools_used)],
                     ["tool", *[r.strategy for r in results]]))
    for result in results:
        for note in result.notes:
            print(f"note: {result.strategy}: {note}")
    if not (args.skills or args.events or args.read or args.use):
        from ..analysis.review import STRATEGIES_START_WORDS  # noqa: PLC0415

        print(f"note: {STRATEGIES_START_WORDS}")
    if timeline:
        print()
        print("timeline (prompt tokens; 'x' = the cached prefix broke; '!' = the event failed):")
        rows = []
        for step in timeline:
            cells = []
            for state in step.states:
                mark = ("" if state.cache_holds else " x") + (" !" if state.outcome == "failed" else "")
                cells.append(f"{state.prompt_tokens:,}{mark}")
            rows.append([step.index, step.event.label() if step.event else "start", *cells])
        print(_table(rows, ["step", "event", *[s.strategy for s in timeline[0].states]]))
        start_note = model.timeline_start_note(events)
        if start_note:
            print(f"note:{start_note}")
        failed = [(step.index, state) for step in timeline for state in step.states if state.outcome == "failed"]
        for index, state in failed:
            print(f"step {index}: {state.strategy}: {state.message}")
        _print_switches(model, events)
    return 0


def _print_switches(model: StrategyModel, events) -> None:
    """Claude Code's auto and Qwen Code's threshold along the timeline (models; known context length only)."""
    from ..analysis.strategies import harness_switches  # noqa: PLC0415

    switches = harness_switches(model, events)
    if not switches:
        return
    print()
    print(f"other harnesses' switches at {length_label(model.settings.context_length)} (models: Claude Code "
          f"ENABLE_TOOL_SEARCH=auto re-decides at every request; Qwen Code threshold 10% at session start and "
          f"after a compaction):")
    rows = [[s.index, s.event.label() if s.event else "start", f"{s.mcp_tokens:,}", "defers" if s.claude_code else "up front",
             ("defers" if s.qwen_code else "up front") + (" (pending change)" if s.qwen_pending != s.qwen_code else ""),
             s.note] for s in switches]
    print(_table(rows, ["step", "event", "MCP tokens", "Claude Code auto", "Qwen Code", "note"]))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``strategies`` on its own (``python -m toolsearch.cli.strategies CATALOG ...``)."""
    parser = Parser(prog="toolsearch")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    return run(parser.parse_args(["strategies", *(sys.argv[1:] if argv is None else argv)]))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

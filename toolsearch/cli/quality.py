"""``toolsearch eval`` and ``toolsearch lint``: thin shells over :mod:`toolsearch.analysis.evaluation` and
:mod:`toolsearch.analysis.lint`.

Wiring (in :mod:`toolsearch.cli.commands`): call :func:`add_parsers` with the subparsers object in
``build_parser``, and in ``main`` return :func:`run` right after parsing when
``args.command in COMMANDS`` (it loads its own catalog and handles its own errors).

Exit status: 0 on success; for ``lint``, 1 when there is at least one ``error`` finding; 2 for bad
arguments or unreadable files (one line on stderr naming the file and the problem).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ..engine import constants as C
from .common import (Once, add_timeout_argument, problem_line, server_refusal, broken_pipe_status, load_harness_config, decided, docs_note, dumps_json, print_json, refuse_empty_catalog,
                     rewrite_progress_line)
from .textfmt import github_command, name_cell, one_line, runner_safe, text_table as _table, whole_number
from ..engine.catalog import load_sources
from ..engine.config import ToolSearchConfig, parse_config
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.invisible import quoted, reveal
from ..analysis.variants import (DEFAULT_VARIANTS, VARIANT_HELP, VariantError, canonical_name, variant_options, variant_sources,
                                 variant_with_source)
from ..analysis.lint_rules import RULES
from ..analysis.wording import counted, evaluation_share, mean_reciprocal_rank, severity_counts
from ..engine.profile import load_profile

if TYPE_CHECKING:
    from ..analysis.evaluation import Evaluation
    from ..analysis.lint import LintReport

# The evaluation and the lint checks are imported when eval or lint runs: building the parser
# (every command's start) needs only their help texts.

COMMANDS = ("eval", "lint")


def _variant(text: str) -> str:
    try:
        variant_options(text)
    except VariantError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return canonical_name(text)


def _whole_number_at_least(least: int):
    """An argparse type: a whole number of at least ``least``, refused with what was given."""
    def parse(text: str) -> int:
        wanted = "a positive whole number" if least == 1 else f"a whole number of at least {least}"
        return whole_number(text, f"expected {wanted}", least=least)
    return parse


_positive_int = _whole_number_at_least(1)


def _shared(parser: argparse.ArgumentParser, formats: Sequence[str] = ()) -> None:
    """The options ``eval`` and ``lint`` share. ``formats``: the choices of a ``--format`` option
    beside ``--json`` (which is then ``--format json``); none: ``--json`` alone."""
    parser.add_argument("--config", action=Once, metavar="FILE",
                        help="harness config.yaml; its tools.tool_search block is used (defer set, search limits)")
    parser.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                        help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    parser.add_argument("--profile", metavar="FILE", help="wording profile YAML (default: the shipped one)")
    if not formats:
        parser.add_argument("--json", action="store_true", help="print JSON")
        return
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--format", choices=formats, default="text",
                        help="text (default), json, or github (GitHub Actions annotations: one ::error, ::warning or "
                             "::notice line per finding by its severity, then a summary line)")
    output.add_argument("--json", dest="format", action="store_const", const="json", help="the same as --format json")


def add_parsers(subparsers: Any) -> None:
    """Add the ``eval`` and ``lint`` subcommands to ``toolsearch``'s subparsers."""
    variants = "; ".join(f"{name}: {text}" for name, text in VARIANT_HELP.items())
    p = subparsers.add_parser(
        "eval", help="search quality on a labeled query file: recall@k, MRR, abstention, misses explained",
        usage="toolsearch eval CATALOG... [QUERIES] [options]",
        description="Score a labeled query file against the search of a catalog, variants side by side. "
                    "Several catalog files combine into one catalog, as plan, search and sessions --catalog combine "
                    "them (a server defined in several files is merged, and said so on stderr); the query file is "
                    "always the last file, so 'eval a.yaml b.yaml queries.yaml' scores queries.yaml on a.yaml and "
                    "b.yaml combined, and 'eval CATALOG QUERIES' is unchanged. "
                    f"Variants: {variants}. Combine switches with '+', e.g. unicode+no-gate.")
    p.add_argument("files", nargs="+", metavar="CATALOG",
                   help="catalog files (catalog YAML/JSON, tools/list JSON, function array) or MCP client configs "
                        "(their servers are connected, as in plan); several combine into one catalog, as in plan. "
                        "The labeled query file (YAML: tasks with queries and expected names) comes last: with two "
                        "files or more the last one is QUERIES, so 'eval CATALOG QUERIES' reads as it always did. "
                        "With --test FILE every file given is a catalog; one file and no --test: the shipped query "
                        "file named like the catalog, if any, as report finds it")
    p.add_argument("--test", metavar="FILE", help="the query file to score (instead of QUERIES: every file before "
                                                  "the options is then a catalog), with --tune")
    p.add_argument("--tune", metavar="FILE", help="tune each variant's parameters on this query file only, then score "
                                                  "QUERIES (--test) with the tuned values (out of sample)")
    p.add_argument("--folds", type=_whole_number_at_least(2), metavar="K",
                   help="K-fold evaluation of QUERIES: each fold is scored with parameters tuned on the other folds "
                        "(tasks of one group stay in one fold; the split is seeded and deterministic)")
    p.add_argument("--progress", action="store_true",
                   help="print progress on stderr (default: only when stderr is a terminal)")
    p.add_argument("--variant", action="append", type=_variant, dest="variants", metavar="VARIANT",
                   help=f"variant to evaluate, repeatable (default: {', '.join(DEFAULT_VARIANTS)}; "
                        "semantic only by name: it needs the optional extra toolsearch[semantic])")
    p.add_argument("--limit", type=_positive_int, metavar="N",
                   help="matches per query (default: search_default_limit; clamped to max_search_limit)")
    add_timeout_argument(p)
    _shared(p)

    p = subparsers.add_parser(
        "lint", help="catalog problems that hurt the model or the harness, each with a one-line fix (exit 1 "
                     "when one is an error)",
        description="Lint a catalog as the reference registers and searches it. Rules: "
                    + "; ".join(f"{rule}: {text}" for rule, text in RULES.items())
                    + ". Exit status 1 when there is an error finding; 2 for bad input, a catalog with no tools "
                      "at all included (nothing to lint).")
    p.add_argument("sources", nargs="+", metavar="CATALOG", help="catalog files (several combine into one catalog) or "
                                                                 "MCP client configs (connected, as in plan)")
    p.add_argument("--severity", choices=C.LINT_SEVERITIES, default="info",
                   help="show findings of this severity and above (default: info, i.e. all)")
    p.add_argument("--baseline", action="append", default=None, metavar="SNAPSHOT",
                   help="a saved snapshot (catalog file) of the same servers (repeatable: its files combine, as "
                        "the catalogs do): tools whose description, schemas, title or annotations changed since, "
                        "or that came back under a look-alike name, are flagged as possible rug pulls")
    add_timeout_argument(p)
    _shared(p, ("text", "json", "github"))


def connect_sources(sources: Sequence[str], timeout: float | None = None, config_path: str | None = None,
                    refuse_configs: str | None = None) -> Any:
    """The catalog of SOURCE files, as ``plan`` builds it: MCP client config files are connected
    live (per-server progress and config warnings on stderr; ``timeout`` seconds per server when
    the config sets none), other files are read as catalogs. A source that holds a
    ``tools.tool_search`` block other than ``config_path`` (the ``--config`` file) gets a note on
    stderr (:func:`~toolsearch.cli.common.note_unused_settings`). ``refuse_configs``: refuse an MCP
    client config before any server starts, with this reason (``--no-servers``:
    :func:`~toolsearch.cli.common.server_refusal`)."""
    from .common import load_sources as load_live, note_unused_settings  # noqa: PLC0415

    loaded = load_live(sources, timeout=timeout, refuse_configs=refuse_configs)
    for warning in loaded.warnings:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    note_unused_settings(loaded.settings_files, config_path)
    return loaded.catalog


def _setup(args: argparse.Namespace, sources: Sequence[str], report: bool = True) -> tuple[Inspector, ToolSearchConfig]:
    profile = load_profile(args.profile) if args.profile else None
    config = load_harness_config(args.config) if args.config else parse_config({})
    inspector = Inspector(connect_sources(sources, getattr(args, "timeout", None), args.config, server_refusal(args)),
                          args.tool_names, profile)
    for warning in config.warnings:
        print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
    for problem in inspector.registration.problems if report else ():  # lint reports them itself
        if problem.severity != "info":
            print(problem_line(problem), file=sys.stderr)
    from .common import config_servers_said  # noqa: PLC0415

    # the servers the harness would run, as plan says them; a server with no tools is a finding of lint's own
    config_servers_said(args.config, inspector, empty=False)
    return inspector, config




def _progress(done: int, total: int, label: str) -> None:
    """One progress line on stderr, rewritten in place: ``eval: VARIANT 120/1,000 tasks`` (``tool
    texts`` while a catalog is embedded)."""
    from ..analysis.evaluation import progress_unit  # noqa: PLC0415

    rewrite_progress_line(f"toolsearch: eval: {label} {done:,}/{total:,} {progress_unit(label)}")


def format_evaluation(ev: Evaluation) -> str:
    """The text report of ``toolsearch eval``: metrics per variant, best rank per task, misses."""
    from ..analysis.evaluation import (EMPTY_OR_NOT_ACCURACY, NONSENSE_QUERIES_EMPTY, NONSENSE_TASKS_EMPTY,  # noqa: PLC0415
                                       emptiness_definitions, task_cell)

    k = ev.k
    # Names, ids, queries and tool names come from the query file and the catalog: invisible
    # characters are shown as markers (the stream only escapes controls).
    out = [f"query file: {reveal(ev.query_file.name)} ({counted(len(ev.query_file.tasks), 'task')}) on catalog "
           f"{reveal(one_line(ev.catalog))} "
           f"({counted(ev.deferred_count, 'deferred tool')}, names {ev.naming}); limit {ev.limit}"]
    rows = []
    for v in ev.variants:
        m = v.metrics
        share = evaluation_share  # as the Search quality page and the report print them: 0.938
        rows.append([v.name, share(m.recall_at_1), share(m.recall_at_k), share(m.recall_at_limit),
                     mean_reciprocal_rank(m.mrr),
                     share(m.abstention_rate), share(m.query_recall_at_k), share(m.nonsense_queries_empty),
                     share(m.abstention_accuracy), f"{m.answered}/{m.positive}", f"{m.abstained}/{m.abstention}"])
    out += ["", _table(rows, ["variant", "recall@1", f"recall@{k}", "recall@limit", "MRR", NONSENSE_TASKS_EMPTY.label,
                              f"query recall@{k}", NONSENSE_QUERIES_EMPTY.label, EMPTY_OR_NOT_ACCURACY.label,
                              "answered", "abstained"]),
            f"{emptiness_definitions()}; query recall@{k}: queries of tasks with expected tools whose first {k} "
            "matches hold one, each query alone; answered: tasks with expected tools that returned something; "
            "abstained: nonsense tasks left empty. reference is what the model gets; the others are what-ifs."]
    sources = variant_sources([v.name for v in ev.variants])
    if sources:  # as the Search quality page's caption says it; "the others" only when there are any
        own = any(variant_with_source(v.name) == v.name for v in ev.variants)
        out.append(f"where they come from: {sources}" + ("; the others are switches of the reference" if own else ""))
    out += [reveal(ev.protocol_note()), *(f"  {line}" for line in ev.tuned_lines())]
    out.append(reveal(ev.trade_off()))  # the verdict, or why there is none
    out += [one_line(line) for line in ev.time_limit_lines()]  # task ids revealed by first_names
    task_rows = []
    for i, task in enumerate(ev.query_file.tasks):
        task_rows.append([reveal(name_cell(task.id)), *[task_cell(v.tasks[i], ev.limit) for v in ev.variants]])
    legend = "best rank per task ((n): ranked below the limit; —: not admitted; abstention tasks: empty or not"
    if ev.time_limit_lines():
        legend += "; stopped / not run: a regex scan stopped at its time limit or was not run, a failure"
    out += ["", legend + ")",
            _table(task_rows, ["task", *[v.name for v in ev.variants]])]
    first = ev.variants[0]
    out += ["", f"misses ({first.name}; --json lists every variant's): {len(first.misses)}"]
    for miss in first.misses:
        where = f" for {quoted(miss.query)}" if miss.query else ""
        # indented, but the runner trims leading whitespace: a task id '::error::…' is marked
        out.append(runner_safe(reveal(one_line(f"  {name_cell(miss.task)}: {name_cell(miss.tool)}")))
                   + f"{where}: {miss.cause}: {reveal(miss.detail)}")
    if ev.unknown_expected:
        out += ["", "expected names that are not deferred tools here: " + ", ".join(map(reveal, ev.unknown_expected))]
    return "\n".join(out)


def format_lint(report: LintReport, severity: str = "info") -> str:
    """The text report of ``toolsearch lint`` for findings at ``severity`` and above."""
    return "\n".join(lint_lines(report, severity))


def lint_lines(report: LintReport, severity: str = "info") -> Iterator[str]:
    """:func:`format_lint` line by line (the command prints them so: the findings of a catalog with a
    tool on thousands of servers are hundreds of MB of text, and one string of them was held
    several times over while it was made safe and written)."""
    keep = C.LINT_SEVERITIES[: C.LINT_SEVERITIES.index(severity) + 1]
    counts = report.counts()
    yield (f"catalog: {one_line(report.catalog)} ({counted(report.tool_count, 'tool')}, {report.deferred_count:,} deferred, "
           f"names {report.naming}); " + severity_counts({s: counts[s] for s in C.LINT_SEVERITIES}, ", "))
    for f in report.findings:
        if f.severity not in keep:
            continue
        where = f.subject("/")
        if f.field:
            where += f": {f.field}" + (f" @{f.offset}" if f.offset is not None else "")
        yield reveal(f"{f.severity}: {f.rule}: {one_line(where)}: {one_line(f.message)}")
        yield f"    fix: {one_line(f.fix)}"


#: The annotation command of each finding severity (``lint --format github``).
GITHUB_COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def lint_github_lines(report: LintReport, severity: str = "info", sources: Sequence[str] = ()) -> Iterator[str]:
    """``lint --format github``: one GitHub Actions workflow command per finding at ``severity`` and
    above (``::error``, ``::warning`` or ``::notice`` by its severity; the title names the rule, the
    message the server/tool, the field, what is wrong and the fix; ``file=`` the catalog when it is
    one file), then the summary line :func:`lint_lines` starts with, which never starts with ``::``.
    Catalog text is escaped as the runner requires (:func:`~toolsearch.cli.textfmt.github_command`)."""
    keep = C.LINT_SEVERITIES[: C.LINT_SEVERITIES.index(severity) + 1]
    where_file = {"file": sources[0]} if len(sources) == 1 and sources[0] != "-" else {}
    for f in report.findings:
        if f.severity not in keep:
            continue
        where = f.subject("/")
        if f.field:
            where += f": {f.field}" + (f" @{f.offset}" if f.offset is not None else "")
        yield github_command(GITHUB_COMMANDS[f.severity], f"{where}: {f.message} (fix: {f.fix})",
                             title=f"toolsearch lint: {f.rule}", **where_file)
    # "catalog: NAME (N tools, …); 1 error, …": not a command, so '##[' in the name is marked (runner_safe)
    yield runner_safe(next(iter(lint_lines(report, severity))))


def eval_files(files: Sequence[str], test: str | None) -> tuple[list[str], str | None]:
    """``eval``'s files split into the catalog files and the query file: with ``test`` (``--test
    FILE``) every file is a catalog and ``test`` is the query file; else, with two files or more,
    the last one is the query file (so ``eval CATALOG QUERIES`` reads as it did when eval took one
    catalog) and the others the catalogs, combined as every command combines its files; one file
    alone is the catalog, and the query file ``None`` (the caller looks for the shipped one)."""
    if test is not None:
        return list(files), test
    if len(files) >= 2:
        return list(files[:-1]), files[-1]
    return list(files), None


def _refuse_two_query_files(catalogs: Sequence[str], test: str | None) -> None:
    """After the catalog files could not be read: when ``--test`` gave the query file and the last
    file before the options is a query file too (``eval CATALOG QUERIES --test FILE``), refuse the
    two query files in one line rather than let the catalog reader say it is no catalog. Returns
    quietly otherwise (the caller raises the reader's error).

    Raises:
        ToolsearchError: naming the file read as a query file (exit status 2).
    """
    from ..analysis.evaluation import load_queries  # noqa: PLC0415

    if test is None or len(catalogs) < 2 or catalogs[-1] == "-":
        return
    try:
        load_queries(catalogs[-1])
    except (ToolsearchError, OSError):
        return
    raise ToolsearchError(f"{catalogs[-1]}: a query file, and --test {test} gives the query file too: with --test "
                          "every file before the options is a catalog; give the query file either last or as "
                          "--test, not both")


def run(args: argparse.Namespace) -> int:
    """Run ``eval`` or ``lint`` for parsed ``args``. Returns the exit status."""
    from ..analysis.evaluation import (evaluate, evaluate_folds, evaluate_tuned, first_names,  # noqa: PLC0415
                                       load_queries, naming_mismatch, nothing_deferred, one_sided_folds, one_sided_tuning,
                                       repeated_tasks, seen_across_folds, seen_in_tuning, tuning_unknown_note)
    from ..analysis.lint import lint  # noqa: PLC0415

    try:
        if args.command == "eval":
            catalogs, path = eval_files(args.files, args.test)
            if not path:
                from ..analysis.review import companion_query_file, shipped_query_files  # noqa: PLC0415
                from ..engine.readers import source_stem  # noqa: PLC0415
                from ..analysis.wording import shown_path  # noqa: PLC0415

                found = companion_query_file(catalogs)
                if found is None:
                    shipped = ", ".join(shipped_query_files()) or "none"
                    raise ToolsearchError(
                        f"expected a query file (QUERIES or --test FILE): none ships for {quoted(source_stem(catalogs[0]))} "
                        f"(shipped query files, found by the catalog's name as report finds them: {shipped})")
                path = shown_path(found)
                print(f"toolsearch: note: query file {path} (shipped for this catalog, as report finds it; "
                      "give QUERIES to score another)", file=sys.stderr)
            if args.tune and args.folds:
                raise ToolsearchError("give either --tune FILE or --folds K, not both")
            queries = load_queries(path)
            tuning = load_queries(args.tune) if args.tune else None
            try:
                inspector, config = _setup(args, catalogs)
            except ToolsearchError:
                _refuse_two_query_files(catalogs, args.test)
                raise
            variants = args.variants or DEFAULT_VARIANTS
            progress = _progress if args.progress or sys.stderr.isatty() else None
            if tuning is not None:
                ev = evaluate_tuned(inspector, tuning, queries, variants, config, args.limit, progress=progress)
            elif args.folds:
                ev = evaluate_folds(inspector, queries, args.folds, variants, config, args.limit, progress=progress)
            else:
                ev = evaluate(inspector, queries, variants, config, args.limit, progress=progress)
            if progress is not None:
                print(file=sys.stderr)
            if args.limit is not None and args.limit != ev.limit:  # said as search --limit says it
                print(f"toolsearch: note: --limit {args.limit:,} is read as {ev.limit}, as the bridge reads the model's "
                      f"limit: clamped to 1..{config.max_search_limit} (max_search_limit)", file=sys.stderr)
            for named, qf in ((path, queries), (args.tune, tuning)):
                if qf is not None and naming_mismatch(qf, inspector.naming):
                    print(one_line(f"toolsearch: warning: {named}: {naming_mismatch(qf, inspector.naming)} "
                                   f"(--tool-names {qf.tool_names} reads the catalog that way)"), file=sys.stderr)
            tuned_on = (args.tune, tuning.tasks) if tuning is not None else (path, queries.tasks) if args.folds else None
            if tuned_on is not None and one_sided_tuning(tuned_on[1]):
                print(one_line(f"toolsearch: warning: {tuned_on[0]}: {one_sided_tuning(tuned_on[1])}"), file=sys.stderr)
            if args.folds and one_sided_folds(queries.tasks, args.folds):
                print(one_line(f"toolsearch: warning: {path}: {one_sided_folds(queries.tasks, args.folds)}"), file=sys.stderr)
            for named, qf in ((path, queries), (args.tune, tuning)):
                if qf is not None and repeated_tasks(qf.tasks):
                    print(one_line(f"toolsearch: warning: {named}: {repeated_tasks(qf.tasks)}"), file=sys.stderr)
            seen = (seen_in_tuning(tuning.tasks, queries.tasks) if tuning is not None
                    else seen_across_folds(queries.tasks, args.folds) if args.folds else "")
            if seen:
                print(one_line(f"toolsearch: warning: {path}: {seen}"), file=sys.stderr)
            if ev.tuning_unknown_expected:
                print(one_line(f"toolsearch: warning: {args.tune}: {tuning_unknown_note(ev.tuning_unknown_expected)}"),
                      file=sys.stderr)
            if nothing_deferred(ev.deferred_count):
                print(one_line(f"toolsearch: warning: {', '.join(catalogs)}: {nothing_deferred(ev.deferred_count)}"), file=sys.stderr)
            for line in ev.time_limit_lines():
                print(one_line(f"toolsearch: warning: {path}: {line}"), file=sys.stderr)
            if ev.unknown_expected:
                print(one_line(f"toolsearch: warning: {path}: {counted(len(ev.unknown_expected), 'expected name')} not "
                               f"among the deferred tools of this catalog: {first_names(ev.unknown_expected)}"),
                      file=sys.stderr)
            if args.json:  # the catalog's problems (a merged server, a skipped tool) as plan --json lists them
                print(dumps_json({**ev.to_dict(), "problems": [p.to_dict() for p in inspector.registration.problems]}))
            else:
                print(format_evaluation(ev))
            return 0
        if args.command == "lint":
            inspector, config = _setup(args, args.sources, report=False)
            baseline = load_sources(args.baseline) if args.baseline else None
            if baseline is not None:  # a baseline tool that was not read is not compared: say so
                for problem in baseline.problems:
                    if problem.severity != "info":
                        print(problem_line(problem, prefix="toolsearch: --baseline: "), file=sys.stderr)
            report = lint(inspector, config, baseline)
            if not report.counts()["error"]:  # a file whose every tool was skipped has its findings
                refuse_empty_catalog("lint", inspector, "there is nothing to lint, and no findings would read as a clean catalog")
            status = decided(1 if report.counts()["error"] else 0)
            if args.format == "github":
                for line in lint_github_lines(report, args.severity, args.sources):
                    print(line)
            elif args.format == "json":
                data = report.to_dict()
                keep = C.LINT_SEVERITIES[: C.LINT_SEVERITIES.index(args.severity) + 1]
                data["findings"] = [f for f in data["findings"] if f["severity"] in keep]
                print_json(data)
            else:
                cites = False
                for line in lint_lines(report, args.severity):
                    cites = cites or "docs/" in line
                    print(line)
                if cites and docs_note():  # the cited pages: where an installed copy keeps them
                    print(docs_note().rstrip("\n"))
            return status
        raise ToolsearchError(f"unknown command {args.command!r}")
    except ToolsearchError as exc:
        if args.command == "lint" and getattr(args, "format", None) == "github":
            # as check --format github: a catalog that cannot be linted says why on the pull request too
            print(github_command("error", str(exc), title="toolsearch lint: bad input"))
        print(one_line(f"toolsearch: error: {reveal(str(exc))}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head: a decided verdict still stands
        return broken_pipe_status()

"""``toolsearch sessions``: recorded sessions replayed against a catalog. A thin shell over
:mod:`toolsearch.analysis.sessions` (parsing and printing only), wired into :mod:`toolsearch.cli.commands` through
:func:`add_parser` and :func:`run`::

    toolsearch sessions SESSIONS... --catalog SOURCE... [--config FILE] [--context-length N]
                        [--context-lengths N,N,...] [--variant V]... [--format F] [--json]
                        [--export-queries FILE]

``--json`` prints one object: ``sessions``, ``searches`` (one per query), ``recorded``
(``empty``, ``found_called``), ``replay`` (per variant: ``empty``, ``found_called``, ``drift``;
``reference`` always), ``per_session`` (events, queries recorded vs replayed, listing what-if),
``aggregates`` (overall, per model, top failed queries, top missed queries) and ``problems`` (the catalog's
warnings and errors as stderr words them, e.g. a server defined in several files and merged; skipped lines and
sessions); ``catalog_drift`` (tools and servers of the sessions missing from the catalog);
``called_listed`` (per context length of ``--context-lengths``: the setting's budget and form,
``called_listed``, ``called_total``, ``searches_saved``); each ``per_session`` item has
``flags`` (``deferred_never_searched``, ``repeated_after_compaction``, ``compactions``). Exit status 0 on success; 2 for bad arguments or unreadable sources (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..engine import constants as C
from ..engine.config import parse_config
from ..engine.errors import ToolsearchError
from ..analysis.variants import DEFAULT_VARIANTS, VARIANT_HELP, VariantError, canonical_name, variant_options
from ..engine.inspector import Inspector
from ..engine.profile import load_profile
from ..engine.invisible import quoted
from ..analysis.session_formats import FORMAT_HELP, FORMATS
from ..analysis.quantities import length_label
from ..analysis.wording import CALLED_LISTED_COLUMN, counted, per_count, percent, share_cell
from .common import Once, add_timeout_argument, load_harness_config, problem_line, input_written_over, note_unused_settings, print_json, rewrite_progress_line
from .textfmt import one_line, output_file, write_output_file, parse_context_length as _context_length, parse_context_lengths, text_table as _table

if TYPE_CHECKING:
    from ..analysis.sessions import CalledListed, CatalogDrift, ListingWhatIf, Replay, Session, SessionFlags

# The sessions analysis is imported when the command runs: every command's start builds this
# command's parser, which needs only the session formats' help.

COMMANDS = ("sessions",)


def _variant(text: str) -> str:
    try:
        variant_options(text)
    except VariantError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return canonical_name(text)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``sessions`` subcommand to ``toolsearch``'s subparsers and return its parser."""
    variants = "; ".join(f"{name}: {text}" for name, text in VARIANT_HELP.items())
    formats = "; ".join(f"{name}: {text}" for name, text in FORMAT_HELP.items())
    p = subparsers.add_parser(
        "sessions", help="recorded sessions: what the model searched and called, replayed with current settings "
                         "and search variants",
        description="Read recorded sessions (a Hermes state.db read-only, session exports, trajectories, Claude "
                    "Code transcripts, Anthropic or OpenAI message arrays) and replay every recorded tool_search "
                    f"query against a catalog. Formats: {formats}. Variants: {variants}.")
    p.add_argument("sessions", nargs="+", metavar="SESSIONS", help="session files (format detected per file)")
    p.add_argument("--catalog", action="extend", nargs="+", required=True, metavar="SOURCE",
                   help="the catalog the sessions ran on: catalog files, a snapshot, or an MCP client config "
                        "(its servers are started and listed live)")
    p.add_argument("--config", action=Once, metavar="FILE", help="harness config.yaml; its tools.tool_search block is used")
    p.add_argument("--context-length", type=_context_length, default=None, metavar="N",
                   help="context length for sessions that do not record one (tokens, e.g. 200k; default unknown)")
    p.add_argument("--context-lengths", type=parse_context_lengths, action=Once, default=None, metavar="N,N,...",
                   help="context lengths to ask, at the current threshold_pct and listing_max_tokens, how many "
                        "of the called tools the listing already names (default: the lengths the sessions "
                        "recorded, --context-length when given, and 32k,200k,1m, shortest first)")
    p.add_argument("--variant", action="append", type=_variant, dest="variants", metavar="V",
                   help=f"search variant to replay, repeatable (default: all: {', '.join(DEFAULT_VARIANTS)}); "
                        "reference is always replayed")
    p.add_argument("--format", choices=FORMATS, default=None, help="session format for every file (default: detect)")
    p.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                   help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    p.add_argument("--profile", metavar="FILE", help="wording profile YAML (default: the shipped one)")
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                   help="tokenizer that decides whether the listing fits (listing what-if)")
    add_timeout_argument(p)
    p.add_argument("--export-queries", type=output_file, metavar="FILE",
                   help="write a labeled query file for 'toolsearch eval': each recorded search labeled with the "
                        "tools its session called afterwards (score it on the same catalog files, the query file "
                        "last: toolsearch eval CATALOG... FILE)")
    p.add_argument("--json", action="store_true", help="print JSON")
    return p


def _progress(label: str):
    """A progress line on stderr when it is a terminal (large stores take a few seconds)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int | None) -> None:
        text = f"{done:,}/{total:,}" if total else f"{done:,}"
        rewrite_progress_line(f"toolsearch: {label}: {text}", "" if total is None or done < total else "\n")
    return show


def _safe(text: Any) -> str:
    """Session text for a terminal: invisible and control characters written as ``⟨U+XXXX⟩``."""
    from ..analysis.sessions import show_invisible  # noqa: PLC0415

    return show_invisible(str(text))


def _names(names: Sequence[str] | None, limit: int = 4) -> str:
    """Tool names as shown (:func:`~toolsearch.analysis.sessions.shown_name`), the first ``limit``."""
    from ..analysis.sessions import shown_names  # noqa: PLC0415

    if names is None:
        return "(not recorded)"
    if not names:
        return "(empty)"
    shown = ", ".join(shown_names(names[:limit]))
    return shown + (f" (+{len(names) - limit})" if len(names) > limit else "")


def _length(n: int | None) -> str:
    """A context length as every surface writes one (``32K``, ``12,345 tokens``, ``unknown``)."""
    return length_label(n)


def format_text(sessions: Sequence[Session], rep: Replay, what_if: Sequence[ListingWhatIf],
                inspector: Inspector, *, flags: Sequence[SessionFlags] = (), drift: CatalogDrift | None = None,
                at_lengths: Sequence[CalledListed] = (), not_deferred: Sequence[str] = ()) -> str:
    """The text report of ``toolsearch sessions``."""
    from ..analysis.sessions import (CONTEXT_LENGTHS_COLUMN, context_lengths_cell,  # noqa: PLC0415
                                     FAILED_SEARCHES_NEXT_WORDS, NO_DEFERRED_CALLED_WORDS, NO_SESSION_READ_WORDS,  # noqa: PLC0415
                                     FLAGS_NEXT_WORDS, MISSED_SEARCHES_NEXT_WORDS, SEARCHES_JUST_BEFORE_COLUMN, called_unnamed_next_words,
                                     SEARCHES_JUST_BEFORE_WORDS, SESSION_ORDER_WORDS, aggregates, counters_line, gate_term_text,
                                     released_hermes_sessions, released_hermes_words, shown_name, shown_names, summary)

    data = summary(sessions, rep)
    agg = aggregates(sessions, rep)
    formats = sorted({s.format for s in sessions})
    out = [f"sessions: {len(sessions):,} ({', '.join(formats) or 'no session in the sources given'}); catalog {_safe(rep.catalog)} "
           f"({rep.deferred_count:,} deferred tools, names {inspector.naming})"]
    if drift is not None and drift.drifted:
        out.append(f"warning: catalog drift: {_safe(drift.words(rep.catalog))}")
    released = released_hermes_sessions(sessions)
    if released:
        out.append(f"note: {released_hermes_words(released, len(sessions))}")
    out += [
           f"searches: {data['searches']:,} (one per query); recorded: {data['recorded']['empty']:,} empty, "
           f"{data['recorded']['found_called']:,} found a tool the session called later "
           f"({data['recorded']['with_result']:,} with a recorded result)", ""]
    rows = [[v, d["empty"], d["found_called"], d["drift"]] for v, d in data["replay"].items()]
    out += ["replayed with the current settings:", _table(rows, ["variant", "empty", "found called", "drift"]), ""]
    model_rows = []
    for model, f in agg["per_model"].items():
        model_rows.append([_safe(model), f["sessions"], f["searches"], per_count(f["searches_per_session"] or 0),
                           percent(f["recorded_empty_rate"]), percent(f["replay_empty_rate"]["reference"]),
                           per_count(f["round_trips_per_called_tool"]), context_lengths_cell(f["context_lengths"])])
    out += ["per model:", _table(model_rows, ["model", "sessions", "searches", "searches per session",
                                              "searches empty (recorded, %)", "searches empty (reference, %)",
                                              "round trips per called tool", CONTEXT_LENGTHS_COLUMN]), ""]
    if agg["top_failed"]:
        fail_rows = [[_safe(f["query"]), f["count"], _safe(gate_term_text(f["gate_word"], f["gate"])),
                      _safe(f["why"]) if f["replay_empty"] else "finds matches now"] for f in agg["top_failed"]]
        out += ["failed searches (recorded empty):", _table(fail_rows, ["query", "times", "gate term", "why"])]
        if any(f["replay_empty"] for f in agg["top_failed"]):  # still empty today: say what would change that
            out.append(FAILED_SEARCHES_NEXT_WORDS)
        out.append("")
    if agg["top_missed"]:
        miss_rows = [[_safe(m["query"]), m["count"], _safe(_names(m["called"], 3)),
                      "yes" if m["replay_found_called"] else "no"] for m in agg["top_missed"]]
        out += ["searches that found only tools the session did not call (it called other tools afterwards):",
                _table(miss_rows, ["query", "times", "called afterwards", "reference finds one now"]),
                MISSED_SEARCHES_NEXT_WORDS, ""]
    if what_if:
        wrows = [[_safe(shown_name(w.session)), _safe(shown_name(w.tool)), "yes" if w.listed else "no", w.searches_before,
                  _length(w.context_length), w.budget,
                  "—" if w.smallest_budget is None else w.smallest_budget,
                  "—" if w.threshold_pct is None else f"{w.threshold_pct:g}",
                  "—" if w.listing_max_tokens is None else w.listing_max_tokens] for w in what_if]
        out += [("listing what-if (was the called tool named in the listing at the session's context length, with the "
                 "current threshold_pct and listing_max_tokens?):"),
                _table(wrows, ["session", "tool", "listed", SEARCHES_JUST_BEFORE_COLUMN, "context length", "budget", "smallest budget",
                               "threshold_pct", "listing_max_tokens"]), SEARCHES_JUST_BEFORE_WORDS, ""]
    if at_lengths:
        lrows = [[_length(c.context_length), c.budget, c.short_label, share_cell(c.called_listed, c.called_total),
                  c.searches_saved] for c in at_lengths]
        out += ["called tools already listed by name, at the current threshold_pct and listing_max_tokens:",
                _table(lrows, ["context length", "budget", "form", CALLED_LISTED_COLUMN, "searches saved"])]
        if all(not c.called_total for c in at_lengths):  # every row "0/0"
            out.append(f"note: {NO_SESSION_READ_WORDS if not sessions else NO_DEFERRED_CALLED_WORDS}")
        unnamed = called_unnamed_next_words(at_lengths)
        if unnamed:
            out.append(unnamed)
        if not_deferred:  # the "of M" counts deferred tools of this catalog only
            out.append(f"not counted: the sessions also called {counted(len(not_deferred), 'tool')} this catalog "
                       f"does not defer: {_safe(_names(list(not_deferred), 8))}")
        out.append("")
    flagged = [f for f in flags if f.flagged]
    if flags:
        out.append(f"flagged sessions: {len(flagged):,} of {len(flags):,}" + (":" if flagged else ""))
        for f in flagged:
            out.append(f"  {_safe(shown_name(f.session))}: {f.words()}")
            for r in f.repeated_after_compaction:
                how = "same query" if r.exact else "near the same"
                out.append(f"    #{r.step} '{_safe(r.query)}' after a compaction ({how} as '{_safe(r.earlier)}')")
        if flagged:
            out.append(FLAGS_NEXT_WORDS)
        out.append("")
    by_flag = {f.session: f for f in flags}
    by_session: dict[str, list] = {}
    for q in rep.queries:
        by_session.setdefault(q.session, []).append(q)
    if sessions:
        out.append(f"per session: {SESSION_ORDER_WORDS}:")
    for s in sessions:
        ctx = _length(s.context_length)
        flag = by_flag.get(s.id)
        out.append(f"session {_safe(shown_name(s.id))} ({_safe(s.model or 'model not recorded')}, context length {ctx}, "
                   f"{counted(s.messages, 'message')}, {counted(s.round_trips, 'round trip')})"
                   + (f" [flag: {flag.words()}]" if flag is not None and flag.flagged else ""))
        if s.counters:  # what the session cost, as recorded (the page's Timeline shows the same line)
            out.append("  " + counters_line(s.counters))
        queries = {(q.step, q.query): q for q in by_session.get(s.id, ())}
        for e in s.events:
            if e.kind == "search":
                if not e.queries:  # a call with no readable query (the bridge answered with an error, say)
                    out.append(f"  #{e.step} search via {_safe(shown_name(e.tool))}: no query recorded")
                for record in e.queries:
                    q = queries.get((e.step, record.query))
                    ref = q.replayed["reference"] if q else None
                    line = f"  #{e.step} search '{_safe(record.query)}': recorded {_safe(_names(record.matches))}"
                    if ref is not None:
                        line += f"; reference now {_safe(_names(ref.matches))}"
                        if ref.drift:
                            line += " [drift]"
                        if ref.why:
                            line += f" ({_safe(ref.why)})"
                    out.append(line)
                if e.error:
                    out.append(f"     error: {_safe(e.error)}")
            elif e.kind == "describe":
                nf = f"; not found: {', '.join(shown_names(e.not_found))}" if e.not_found else ""
                out.append(f"  #{e.step} describe {_safe(', '.join(shown_names(e.names)))}{_safe(nf)}")
            elif e.kind == "call":
                state = {True: "ok", False: "failed", None: "no result"}[e.succeeded]
                args = json.dumps(e.arguments, ensure_ascii=False)  # shown through _safe below
                args = args if len(args) <= 120 else args[:119] + "…"
                out.append(f"  #{e.step} call {_safe(shown_name(e.name))} via {e.via}: {state} {_safe(args)}")
                if e.error:
                    out.append(f"     error: {_safe(e.error)}")
            else:
                out.append("  compaction" + (f" ({e.messages} messages archived)" if e.messages else "")
                           + (f"; searched before it: {_safe(', '.join(quoted(q) for q in e.earlier_queries))}"
                              if e.earlier_queries else ""))
        out.append("")
    return "\n".join(out).rstrip()


def _refuse_writing_an_input(args: argparse.Namespace) -> None:
    """Refuse ``--export-queries`` naming a file this command reads (a session file, a catalog, the
    config, the wording profile): ``--export-queries state.db`` replaced the Hermes session store
    itself with the YAML. Raises :class:`ToolsearchError`."""
    output = Path(args.export_queries)
    inputs = [("a session file", s) for s in args.sessions] + [("the catalog", s) for s in args.catalog] + [
        (what, path) for what, path in (("--config", args.config), ("--profile", args.profile)) if path]
    what = input_written_over(output, inputs)
    if what:
        raise ToolsearchError(f"{args.export_queries}: --export-queries: that file is an input of this command "
                              f"({what}); write the queries to another file (e.g. --export-queries queries.yaml)")


def run(args: argparse.Namespace) -> int:
    """Run ``toolsearch sessions`` for parsed ``args``. Returns the exit status."""
    from ..analysis.sessions import (called_listed_at, called_tools, catalog_drift, export_queries,  # noqa: PLC0415
                                     export_queries_yaml, listing_what_if, load_sessions, replay, report, scrub_sessions,
                                     session_flags, what_if_lengths, with_recorded_lengths)

    try:
        if args.export_queries:
            _refuse_writing_an_input(args)
        profile = load_profile(args.profile) if args.profile else None
        config = load_harness_config(args.config) if args.config else parse_config({})
        from ..live.client import config_file_secrets, is_connect_failure  # noqa: PLC0415
        from .common import load_sources, server_refusal  # noqa: PLC0415

        loaded_catalog = load_sources(args.catalog, timeout=args.timeout, option="--catalog",
                                      refuse_configs=server_refusal(args, "--catalog"))
        inspector = Inspector(loaded_catalog.catalog, args.tool_names, profile)
        for warning in [*loaded_catalog.warnings, *config.warnings]:
            print(one_line(f"toolsearch: warning: {warning}"), file=sys.stderr)
        note_unused_settings(loaded_catalog.settings_files, args.config)
        from .common import config_servers_said  # noqa: PLC0415

        config_servers_said(args.config, inspector)
        # what stderr says of the catalog (a server defined in several files and merged, say) is in
        # --json's problems too, as stderr words it
        catalog_problems = [problem_line(problem, prefix="")
                            for problem in inspector.registration.problems
                            if problem.severity != "info" and not is_connect_failure(problem)]
        for line in catalog_problems:
            print(f"toolsearch: {line}", file=sys.stderr)
        # a value of the config the catalog was listed from is masked in the sessions as in the servers' output
        loaded = scrub_sessions(load_sessions(args.sessions, args.format, _progress("reading sessions")),
                                [*loaded_catalog.secret_values(), *config_file_secrets(args.config)],
                                keep=inspector.full_registration.by_name())
        for problem in loaded.problems:
            print(f"toolsearch: skipped: {_safe(problem)}", file=sys.stderr)
        rep = replay(loaded.sessions, inspector, config, args.variants, _progress("replaying"))
        what_if = listing_what_if(loaded.sessions, inspector, config, args.context_length, args.tokenizer)
        lengths = args.context_lengths or with_recorded_lengths(what_if_lengths(args.context_length), loaded.sessions)
        extra = {"flags": session_flags(loaded.sessions, inspector, config),
                 "drift": catalog_drift(loaded.sessions, inspector),
                 "at_lengths": called_listed_at(loaded.sessions, inspector, config, lengths, args.tokenizer),
                 "not_deferred": called_tools(loaded.sessions, inspector, config)[1]}
        if args.export_queries:
            left_out: list[str] = []
            data = export_queries(loaded.sessions, inspector, name="Labeled queries from " +
                                  ", ".join(Path(p).name for p in args.sessions), left_out=left_out)
            for note in left_out:
                print(one_line(f"toolsearch: warning: {args.export_queries}: {one_line(note)}"), file=sys.stderr)
            try:
                write_output_file(args.export_queries, export_queries_yaml(data))
            except OSError as exc:
                raise ToolsearchError(f"{args.export_queries}: cannot write file ({exc.strerror or exc})") from None
            print(one_line(f"toolsearch: wrote {args.export_queries}: {counted(len(data['tasks']), 'labeled task')}"),
                  file=sys.stderr)
        if args.json:
            print_json(report(loaded.sessions, rep, what_if, [*catalog_problems, *loaded.problems], **extra))
        else:
            print(format_text(loaded.sessions, rep, what_if, inspector, **extra))
        return 0
    except ToolsearchError as exc:
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:
        return 0

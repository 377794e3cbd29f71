"""``toolsearch`` command line: a thin shell over the engine (DESIGN.md "CLI contract").

Exit status 0 on success, 2 for bad arguments or unreadable sources (one line on stderr naming
the file and the problem; never a traceback for a user mistake).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from . import constants as C
from .bridge import to_wire
from .config import ToolSearchConfig, load_config, parse_config
from .errors import ToolsearchError
from .inspector import Inspector
from .profile import load_profile
from .sweep import DEFAULT_CONTEXT_LENGTHS, DEFAULT_THRESHOLD_PCTS, sweep


class UsageError(ToolsearchError):
    """A command-line value that cannot be used."""


def _context_length(text: str) -> int | None:
    value = text.strip().lower().replace("_", "").replace(",", "")
    if value in ("unknown", "none", ""):
        return None
    multiplier = 1
    if value.endswith("k"):
        value, multiplier = value[:-1], 1_000
    elif value.endswith("m"):
        value, multiplier = value[:-1], 1_000_000
    try:
        return int(float(value) * multiplier)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of tokens (e.g. 200000, 200k) or 'unknown', got {text!r}") from None


def _int_list(text: str) -> list[int | None]:
    return [_context_length(part) for part in text.split(",") if part.strip()]


def _float_list(text: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="+", metavar="SOURCE",
                        help="catalog files (catalog YAML/JSON, recorded tools/list JSON, function arrays)")
    parser.add_argument("--config", metavar="FILE", help="harness config.yaml; its tools.tool_search block is used")
    parser.add_argument("--tool-names", choices=C.TOOL_NAMING, default="prefixed",
                        help="prefixed: mcp__<server>__<tool> as the reference registers them; as-is: catalog names")
    parser.add_argument("--profile", metavar="FILE", help="wording profile YAML (default: the shipped one)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _settings(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--context-length", type=_context_length, default=None, metavar="N",
                        help="model context length in tokens (e.g. 200000, 200k) or 'unknown' (default)")
    parser.add_argument("--threshold-pct", metavar="P", help=f"percent of context for the listing (0-100, default {C.THRESHOLD_PCT_DEFAULT:g})")
    parser.add_argument("--listing-max-tokens", metavar="M", help=f"listing budget cap ({C.LISTING_MAX_TOKENS_MIN}-{C.LISTING_MAX_TOKENS_MAX}, default {C.LISTING_MAX_TOKENS_DEFAULT})")
    parser.add_argument("--listing", choices=C.TRI_STATE_VALUES)
    parser.add_argument("--enabled", choices=C.TRI_STATE_VALUES)
    parser.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER,
                        help="tokenizer that decides whether the listing fits (chars4 = the reference's estimate)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (subcommands plan, search, describe, explain, call, sweep)."""
    parser = argparse.ArgumentParser(prog="toolsearch", description="Inspect progressive tool disclosure (tool search) for a tool catalog.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("plan", help="what the model sees: tier, listing form, budget, per-server states")
    _common(p)
    _settings(p)

    p = sub.add_parser("search", help="run tool_search queries and print the response")
    _common(p)
    p.add_argument("-q", "--query", action="append", required=True, dest="queries", metavar="QUERY")
    p.add_argument("--limit", metavar="N", help="matches per query (clamped like the reference)")

    p = sub.add_parser("describe", help="run tool_describe for names and print the response")
    _common(p)
    p.set_defaults(split_names=True)

    p = sub.add_parser("explain", help="explain one query: stems, IDF, gate term, coverage, candidates")
    _common(p)
    p.add_argument("-q", "--query", required=True, metavar="QUERY")
    p.add_argument("--limit", metavar="N")

    p = sub.add_parser("call", help="validate a tool_call locally and show what would be dispatched")
    _common(p)
    p.add_argument("--arguments", "-a", default="{}", metavar="JSON", help="the call's arguments as a JSON object")
    p.set_defaults(split_names=True)

    p = sub.add_parser("sweep", help="plans over context lengths x threshold_pct")
    _common(p)
    p.add_argument("--context-lengths", type=_int_list, default=list(DEFAULT_CONTEXT_LENGTHS), metavar="N,N,...")
    p.add_argument("--threshold-pcts", type=_float_list, default=list(DEFAULT_THRESHOLD_PCTS), metavar="P,P,...")
    p.add_argument("--listing-max-tokens", type=_int_list, default=None, metavar="M[,M...]")
    p.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("--tokenizer", choices=C.TOKENIZERS, default=C.DEFAULT_TOKENIZER)
    return parser


def _split_sources(values: Sequence[str]) -> tuple[list[str], list[str]]:
    """Leading values that name existing files are sources; the rest are tool names."""
    sources: list[str] = []
    for i, value in enumerate(values):
        if Path(value).is_file():
            sources.append(value)
        else:
            return sources, list(values[i:])
    return sources, []


def _config(args: argparse.Namespace) -> ToolSearchConfig:
    config = load_config(args.config) if args.config else parse_config({})
    overrides = {key: getattr(args, key, None) for key in ("threshold_pct", "listing_max_tokens", "listing", "enabled")}
    if isinstance(overrides.get("listing_max_tokens"), list):
        overrides["listing_max_tokens"] = None
    return config.with_overrides(**overrides) if any(v is not None for v in overrides.values()) else config


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _table(rows: list[list[Any]], header: list[str]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines.extend("  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in rows)
    return "\n".join(lines)


def _cmd_plan(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    plan = inspector.plan(config, args.context_length, args.tokenizer)
    if args.json:
        _print_json(plan.to_dict())
        return 0
    ctx = f"{plan.context_length:,} tokens" if plan.context_length and plan.context_length > 0 else "unknown"
    print(f"catalog: {inspector.catalog.name} ({len(inspector.registration.tools)} tools)")
    print(f"context length: {ctx}; threshold_pct {config.threshold_pct:g}%; listing_max_tokens {config.listing_max_tokens:,}")
    print(f"budget: {plan.budget:,} tokens = min({config.listing_max_tokens:,}, {plan.pct_leg:,}); decided by {plan.budget_winner}")
    print(f"tier {plan.tier}, listing form {plan.listing_form}; {plan.deferred_count} deferred ({plan.deferred_tokens:,} tokens of schemas), "
          f"{plan.visible_count} visible")
    print(f"listing: {plan.listing_tokens:,} tokens ({plan.planning_tokenizer}); model-visible tools array: {plan.tools_tokens:,} tokens "
          f"vs {plan.eager_tokens:,} tokens with every schema up front")
    for note in plan.notes:
        print(f"note: {note}")
    print()
    rows = [[s.name, s.kind, s.tool_count, s.state, s.schema_tokens, s.full_tokens, s.names_tokens, s.summary_tokens,
             s.collapse_rank or ""] for s in plan.servers]
    print(_table(rows, ["server", "kind", "tools", "state", "schema tok", "full tok", "names tok", "summary tok", "collapse #"]))
    if plan.listing:
        print()
        print(plan.listing)
    return 0


def _cmd_search(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    bridge = inspector.bridge(config)
    request: dict[str, Any] = {"queries": args.queries}
    if args.limit is not None:
        request["limit"] = args.limit
    response = bridge.tool_search(request)
    if args.json:
        print(to_wire(response))
        return 0 if "error" not in response else 1
    if "error" in response:
        print(f"tool_search error: {response['error']}")
        return 1
    limit = bridge.resolve_limit(request.get("limit"))
    for group in response["results"]:
        print(f"query: {group['query']}")
        scores = dict(bridge.index.search(group["query"], limit))
        if not group["matches"]:
            print("  no matches")
            for source in group.get("available_sources", []):
                print(f"  available source: {source['name']} ({source['tool_count']} tools)")
        for rank, name in enumerate(group["matches"], 1):
            score = scores.get(name)
            shown = "exact name" if score == float("inf") else f"{score:.3f}"
            print(f"  {rank}. {name}  [{shown}]  {response['tools'][name]['description'][:90]}")
    return 0


def _cmd_describe(args, inspector: Inspector, config: ToolSearchConfig, names: list[str]) -> int:
    if not names:
        raise UsageError("describe: expected at least one tool NAME after the SOURCE files")
    response = inspector.bridge(config).tool_describe({"names": names})
    if args.json:
        print(to_wire(response))
    else:
        print(json.dumps(response, ensure_ascii=False, indent=2))
    return 0 if "error" not in response else 1


def _cmd_explain(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    bridge = inspector.bridge(config)
    limit = bridge.resolve_limit(args.limit)
    ex = bridge.index.explain(args.query, limit)
    if args.json:
        _print_json(explanation_to_dict(ex))
        return 0
    print(f"query: {ex.query}")
    print("tokens: " + ", ".join(f"{raw}->{stem}" for raw, stem in ex.tokens))
    print(_table([[t.stem, t.df, f"{t.idf:.4f}", "gate" if t.stem == ex.gate else ""] for t in ex.terms],
                 ["stem", "df", "idf", ""]))
    print(f"gate term: {ex.gate}; answerable terms: {len(ex.answerable)}; required coverage: {ex.required}")
    print(f"N = {ex.corpus_size} documents, avgdl = {ex.avgdl:.2f} tokens")
    rows = [[c.rank or "", c.name, "inf" if c.score == float("inf") else f"{c.score:.3f}",
             "yes" if c.admitted else "no", c.reason] for c in ex.candidates[:40]]
    print(_table(rows, ["rank", "tool", "score", "admitted", "why"]))
    return 0


def explanation_to_dict(ex) -> dict[str, Any]:
    """JSON-ready form of a :class:`~toolsearch.search.Explanation` (``inf`` scores as ``"inf"``)."""
    def score(x: float) -> Any:
        return "inf" if x == float("inf") else round(x, 6)
    return {
        "query": ex.query, "tokens": [list(t) for t in ex.tokens],
        "terms": [{"stem": t.stem, "df": t.df, "idf": round(t.idf, 6)} for t in ex.terms],
        "gate": ex.gate, "answerable": list(ex.answerable), "required_coverage": ex.required,
        "corpus_size": ex.corpus_size, "avgdl": round(ex.avgdl, 4), "limit": ex.limit,
        "matches": list(ex.matches),
        "candidates": [{"name": c.name, "score": score(c.score), "has_gate": c.has_gate,
                        "matched_terms": list(c.matched_terms), "admitted": c.admitted, "rank": c.rank,
                        "reason": c.reason} for c in ex.candidates],
    }


def _cmd_call(args, inspector: Inspector, config: ToolSearchConfig, names: list[str]) -> int:
    if len(names) != 1:
        raise UsageError("call: expected exactly one tool NAME after the SOURCE files")
    try:
        arguments = json.loads(args.arguments)
    except ValueError as exc:
        raise UsageError(f"--arguments: not valid JSON ({exc})") from None
    response = inspector.bridge(config).tool_call({"calls": [{"name": names[0], "arguments": arguments}]})
    print(to_wire(response) if args.json else json.dumps(response, ensure_ascii=False, indent=2))
    return 0 if "error" not in response else 1


def _cmd_sweep(args, inspector: Inspector, config: ToolSearchConfig) -> int:
    rows = sweep(inspector.planner, config, args.context_lengths, args.threshold_pcts,
                 args.listing_max_tokens, args.tokenizer)
    servers = sorted({name for row in rows for name in row.states})
    if args.json:
        _print_json([row.to_dict() for row in rows])
        return 0
    header = ["context_length", "threshold_pct", "listing_max_tokens", "budget", "tier", "listing_form",
              "listing_tokens", *servers]
    table = [[r.context_length if r.context_length else "unknown", f"{r.threshold_pct:g}", r.listing_max_tokens,
              r.budget, r.tier, r.listing_form, r.listing_tokens, *[r.states.get(s, "") for s in servers]] for r in rows]
    if args.csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(table)
        sys.stdout.write(out.getvalue())
    else:
        print(_table(table, header))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``toolsearch`` console script. Returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        names: list[str] = []
        if getattr(args, "split_names", False):
            args.sources, names = _split_sources(args.sources)
            if not args.sources:
                raise UsageError(f"{args.command}: the first argument must be a catalog file that exists "
                                 f"(got {names[0]!r})")
        profile = load_profile(args.profile) if args.profile else None
        config = _config(args)
        inspector = Inspector.from_files(args.sources, args.tool_names, profile)
        for warning in config.warnings:
            print(f"toolsearch: warning: {warning}", file=sys.stderr)
        for problem in inspector.registration.problems:
            if problem.severity != "info":
                print(f"toolsearch: catalog {problem.severity}: {problem.where}: {problem.message}", file=sys.stderr)
        if args.command == "plan":
            return _cmd_plan(args, inspector, config)
        if args.command == "search":
            return _cmd_search(args, inspector, config)
        if args.command == "describe":
            return _cmd_describe(args, inspector, config, names)
        if args.command == "explain":
            return _cmd_explain(args, inspector, config)
        if args.command == "call":
            return _cmd_call(args, inspector, config, names)
        return _cmd_sweep(args, inspector, config)
    except ToolsearchError as exc:
        print(f"toolsearch: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``toolsearch diff`` and ``toolsearch collapse``: thin CLI shells over
:mod:`toolsearch.analysis.cachediff` and :mod:`toolsearch.analysis.collapse`.

Wiring (in :mod:`toolsearch.cli.commands`): call :func:`add_parsers` with the subparsers object in
``build_parser``, and in ``main``, right after parsing, ``if args.command in cli_diff.COMMANDS:
return cli_diff.run(args)``. Both commands load their own catalog files (an MCP client config's servers
connect, as in plan, within ``--timeout``).

Exit status: ``diff`` 0 when the tools arrays are byte-identical (the prompt cache hits), 1 when
they differ (like ``diff(1)``, so a CI step can fail on a cache-breaking change); ``collapse`` 0.
Both: 2 for bad arguments or unreadable files, with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import constants as C
from .common import Once, add_timeout_argument, problem_line, server_refusal, as_typed, load_harness_config, broken_pipe_status, decided, print_json, with_flags
from .textfmt import name_cell, one_line, text_table as _table
from ..analysis.quantities import SERVER_TOKEN_COLUMNS, form_word, length_label
from ..analysis.wording import settings_words
from ..engine.config import ToolSearchConfig, parse_config
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.profile import Profile, load_profile

if TYPE_CHECKING:
    from ..analysis.cachediff import CacheDiff, Side
    from ..analysis.collapse import CollapseComparison

# The comparisons are imported when diff or collapse runs, not with the parser every command builds.

COMMANDS = ("diff", "collapse")

def _settings_flags(parser: argparse.ArgumentParser, suffix: str = "", side: str | None = None) -> None:
    """``--context-length`` … ``--config`` (shared) or ``--context-length-a`` … (one side)."""
    from .textfmt import parse_context_length as _context_length, parse_listing_max_tokens, parse_threshold_pct  # noqa: PLC0415

    who = f" for side {side.upper()} (overrides the shared flag)" if side else ""
    flag = lambda stem: f"--{stem}{suffix}"  # noqa: E731
    parser.add_argument(flag("context-length"), type=_context_length, default=None, metavar="N",
                        help=f"model context length in tokens (e.g. 200000, 200k) or 'unknown'{who}")
    parser.add_argument(flag("threshold-pct"), type=parse_threshold_pct, metavar="P",
                        help=f"percent of context for the listing (0-100, default {C.THRESHOLD_PCT_DEFAULT:g}){who}")
    parser.add_argument(flag("listing-max-tokens"), type=parse_listing_max_tokens, metavar="M",
                        help=f"listing budget cap ({C.LISTING_MAX_TOKENS_MIN:,}-{C.LISTING_MAX_TOKENS_MAX:,}, "
                             f"default {C.LISTING_MAX_TOKENS_DEFAULT:,}){who}")
    parser.add_argument(flag("listing"), choices=C.TRI_STATE_VALUES, help=f"listing auto|on|off{who}")
    parser.add_argument(flag("enabled"), choices=C.TRI_STATE_VALUES, help=f"tool search auto|on|off{who}")
    parser.add_argument(flag("tool-names"), choices=C.TOOL_NAMING, default=None if side else "prefixed",
                        help=f"prefixed (mcp__<server>__<tool>, default) or as-is{who}")
    parser.add_argument(flag("tokenizer"), choices=C.TOKENIZERS, default=None if side else C.DEFAULT_TOKENIZER,
                        help=f"planning tokenizer (chars4 = the reference's estimate){who}")
    parser.add_argument(flag("profile"), metavar="FILE", help=f"wording profile YAML{who}")
    parser.add_argument(flag("config"), action=Once, metavar="FILE", help=f"harness config.yaml (tools.tool_search block){who}")


def add_parsers(subparsers: Any) -> None:
    """Add the ``diff`` and ``collapse`` subcommands to a ``toolsearch`` subparsers object."""
    p = subparsers.add_parser(
        "diff", help="where two catalogs or settings first differ in the model-visible prefix, and whether "
                     "the prompt cache still hits (exit 1 when it does not)",
        description="Compare the model-visible tools array (and the tool_search description in it) of two "
                    "setups byte for byte: A and B are catalog files (the same file twice to compare settings). "
                    "Exit status 0 when identical (cache hit), 1 when different.")
    p.add_argument("a", metavar="A", help="catalog file for side A (the earlier setup)")
    p.add_argument("b", metavar="B", help="catalog file for side B (the later setup)")
    _settings_flags(p)
    for side in ("a", "b"):
        _settings_flags(p, f"-{side}", side)
    add_timeout_argument(p)
    p.add_argument("--json", action="store_true", help="print JSON")

    p = subparsers.add_parser(
        "collapse", help="what-if: the best collapse choice under the same budget vs the reference's greedy one",
        description="What-if, not the reference behavior: compare the reference listing (docs/reference.md §5.4 greedy, largest "
                    "names block first) with the best choice under the same budget (most servers kept at names, "
                    "then most tool names shown).")
    p.add_argument("catalog", metavar="CATALOG", help="catalog file")
    _settings_flags(p)
    add_timeout_argument(p)
    p.add_argument("--json", action="store_true", help="print JSON")


# --- building sides ------------------------------------------------------------------------

def _pick(args: argparse.Namespace, key: str, side: str | None) -> Any:
    if side is not None:
        value = getattr(args, f"{key}_{side}", None)
        if value is not None:
            return value
    return getattr(args, key, None)


def _config(args: argparse.Namespace, side: str | None) -> ToolSearchConfig:
    path = _pick(args, "config", side)
    config = load_harness_config(path) if path else parse_config({})
    keys = ("threshold_pct", "listing_max_tokens", "listing", "enabled")
    overrides = {key: _pick(args, key, side) for key in keys}
    options = {key: f"--{key.replace('_', '-')}-{side}" for key in keys  # the side's own flag, when it was given
               if side is not None and getattr(args, f"{key}_{side}", None) is not None}
    return with_flags(config, overrides, options)  # the file's warnings (a misspelt key) are kept beside the flags


def _inspector(path: str, naming: str, profile_path: str | None, cache: dict, config_path: str | None = None,
               timeout: float | None = None, refuse_configs: str | None = None) -> Inspector:
    key = (str(Path(path).resolve()), naming, profile_path)
    if key not in cache:
        profile: Profile | None = load_profile(profile_path) if profile_path else None
        from .quality import connect_sources  # noqa: PLC0415

        # a config file connects, as in plan
        cache[key] = Inspector(connect_sources([path], timeout, config_path, refuse_configs), naming, profile)
    return cache[key]


def _side(args: argparse.Namespace, side: str, path: str, cache: dict) -> Side:
    from ..analysis.cachediff import Side  # noqa: PLC0415

    inspector = _inspector(path, _pick(args, "tool_names", side), _pick(args, "profile", side), cache,
                           _pick(args, "config", side), args.timeout, server_refusal(args))
    return Side(inspector, _config(args, side), _pick(args, "context_length", side),
                _pick(args, "tokenizer", side), side.upper(), as_typed(path))


def _warn(config: ToolSearchConfig, inspector: Inspector, label: str, config_path: str | None = None) -> None:
    from .common import config_servers_said  # noqa: PLC0415

    for warning in config.warnings:
        print(one_line(f"toolsearch: warning ({label}): {warning}"), file=sys.stderr)
    for problem in inspector.registration.problems:
        if problem.severity != "info":  # a warning says what was dropped or changed (a tool defined twice)
            print(problem_line(problem, f" ({label})"), file=sys.stderr)
    config_servers_said(config_path, inspector)  # each sentence names the config file and the servers


# --- printing ----------------------------------------------------------------------------

def _ctx(n: int | None) -> str:
    """A side's context length after "context length", as every surface writes one
    (:func:`~toolsearch.analysis.quantities.length_label`: ``200K``, ``70 tokens``, ``unknown``)."""
    return length_label(n if n and n > 0 else None)


def format_diff(diff: CacheDiff) -> str:
    """The human-readable ``diff`` report (plain text)."""
    out = []
    for s in (diff.a, diff.b):
        out.append(f"{s.label}: {one_line(s.source)} · context length {_ctx(s.context_length)} · "
                   f"{settings_words(s.threshold_pct, s.listing_max_tokens)} · {s.tokenizer} · {s.naming} names"
                   f"{'' if s.profile == 'toolsearch default' else ' · profile ' + s.profile}")
        out.append(f"   budget {s.budget:,} tokens → tier {s.tier}, form {s.listing_outcome if s.listing_form == 'mixed' else form_word(s.listing_form)}; {s.deferred_count:,} deferred, "
                   f"{s.visible_count:,} visible; tools array with tool search {s.tools_tokens:,} tokens "
                   f"({diff.reusable.tokenizer}; {s.tools_characters:,} characters serialized)")
    out.append("")
    r = diff.reusable
    if diff.cache_hit:
        out.append(f"prompt cache: HIT: the tools arrays are byte-identical ({r.total_characters_a:,} characters, "
                   f"{r.total_tokens_a:,} tokens reusable)")
    else:
        t = diff.tools
        assert t is not None
        out.append("prompt cache: MISS: the tools arrays differ")
        where = f" at {t.path_b or t.path_a}" if (t.path_a or t.path_b) else ""
        tool = t.tool_b or t.tool_a
        out.append(f"first difference in the tools array (compact JSON): character {t.first.offset:,} "
                   f"(byte {t.first.byte_offset:,}){where}" + (f" (tool {tool})" if tool else "")
                   + (f", line {t.string_line}, column {t.string_column} of that string" if t.string_line else ""))
        out.extend("  " + line for line in t.first.render().splitlines())
        if diff.description is not None:
            d = diff.description
            out.append(f"first difference in the tool_search description: line {d.line}, column {d.column} "
                       f"(character {d.offset:,})")
            out.append(f"  A: {diff.region_a}")
            out.append(f"  B: {diff.region_b}")
            out.extend("  " + line for line in d.render().splitlines())
        out.append(f"reusable prefix: {r.characters:,} characters ({r.bytes:,} bytes) = {r.tokens:,} tokens "
                   f"({r.tokenizer}) of B's {r.total_tokens_b:,} ({100 * r.share_of_b:.1f}%); everything after "
                   "the first difference is recomputed")
    if diff.causes:
        out.append("causes:")
        out.extend(f"  - {c.message}" for c in diff.causes)
    if diff.notes:
        out.append("differences that do not change the prefix:" if not diff.cache_hit else "notes:")
        out.extend(f"  - {c.message}" for c in diff.notes)
    return "\n".join(out)




def _server_table(cmp: CollapseComparison) -> str:
    labels = any(s.label != s.server for s in cmp.servers)  # a label column only when it says something
    chars = cmp.units == "characters"  # chars4 adds up characters: shown too, labeled
    rows = [[name_cell(s.server), *([name_cell(s.label)] if labels else []), s.deferred_count, s.names_tokens, s.summary_tokens,
             *([s.names_units, s.summary_units] if chars else []), form_word(s.reference),
             form_word(s.best) + (" *" if s.best != s.reference else "")] for s in cmp.servers]
    return _table(rows, ["server", *(["label"] if labels else []), "deferred", SERVER_TOKEN_COLUMNS["names_tokens"],
                         SERVER_TOKEN_COLUMNS["summary_tokens"],
                         *(["names block (characters)", "summary line (characters)"] if chars else []),
                         "reference", "best (what-if)"])


def format_collapse(cmp: CollapseComparison, catalog: str) -> str:
    """The human-readable ``collapse`` report (plain text)."""
    from ..analysis.collapse import METHOD_HEADING, method_words  # noqa: PLC0415

    ref, best = cmp.reference, cmp.best
    out = [
        "WHAT-IF, not the reference behavior: the best collapse choice under the same budget.",
        f"catalog: {one_line(catalog)} ({cmp.groups} servers) · context length {_ctx(cmp.context_length)} · "
        f"{settings_words(cmp.threshold_pct, cmp.listing_max_tokens)} → budget {cmp.budget:,} tokens "
        f"({cmp.tokenizer})",
        f"verdict: {cmp.summary}",
        f"{METHOD_HEADING}: {method_words(cmp.method, cmp.exact)}",  # the app's words; --json keeps `method`
        "objective: fewest servers collapsed to a summary line, then most tool names shown, then the shortest listing, "
        "then the reference collapse order",
        "",
        _table([
            ["form", form_word(ref.form), form_word(best.form)],
            ["servers named", f"{ref.kept} of {cmp.groups}", f"{best.kept} of {cmp.groups}"],
            ["servers at summary", len(ref.collapsed), len(best.collapsed)],
            ["tool names shown", f"{ref.names_shown:,}", f"{best.names_shown:,}"],
            ["listing tokens", f"{ref.tokens:,}", f"{best.tokens:,}"],
            ["tool_search description tokens", f"{cmp.reference_description_tokens:,}",
             f"{cmp.best_description_tokens:,}"],
        ], ["", "reference", "best (what-if)"]),
        "",
        _server_table(cmp),
    ]
    if cmp.differs:
        out.append("* differs from the reference")
    return "\n".join(out)


# --- running -----------------------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    """Run ``diff`` or ``collapse`` for parsed ``args``; returns the exit status."""
    from ..analysis.cachediff import compare  # noqa: PLC0415
    from ..analysis.collapse import compare_collapse  # noqa: PLC0415

    try:
        cache: dict = {}
        if args.command == "diff":
            a = _side(args, "a", args.a, cache)
            b = _side(args, "b", args.b, cache)
            _warn(a.config, a.inspector, "A", _pick(args, "config", "a"))
            if b.inspector is not a.inspector or b.config != a.config:
                _warn(b.config, b.inspector, "B", _pick(args, "config", "b"))
            diff = compare(a, b)
            from ..analysis.lint import rug_pulls  # noqa: PLC0415

            pulls = rug_pulls(a.inspector.catalog, b.inspector.catalog, b.inspector.naming)
            status = decided(0 if diff.cache_hit else 1)
            if args.json:
                data = diff.to_dict()
                data["rug_pulls"] = [f.to_dict() for f in pulls]
                print_json(data)
            else:
                print(format_diff(diff))
                if pulls:
                    print("tools whose text changed (review before trusting them again):")
                    for f in pulls:
                        if " changed since" not in f.message:  # a look-alike rename
                            print(f"  - {f.server}/{f.tool}: {f.message}")
                            continue
                        what = f.message.split(" changed since", 1)[0].removeprefix("the ")
                        print(f"  - possible rug pull: {f.server}/{f.tool} ({what} changed)")
            return status
        inspector = _inspector(args.catalog, args.tool_names, args.profile, cache, args.config, args.timeout, server_refusal(args))
        config = _config(args, None)
        _warn(config, inspector, args.catalog, args.config)
        cmp = compare_collapse(inspector.planner, config, args.context_length, args.tokenizer)
        if args.json:
            print_json(cmp.to_dict())
        else:
            print(format_collapse(cmp, inspector.catalog.name))
        return 0
    except ToolsearchError as exc:
        print(f"toolsearch: error: {one_line(str(exc))}", file=sys.stderr)  # one line, whatever the input held
        return 2
    except BrokenPipeError:  # e.g. piped into head: a decided verdict still stands
        return broken_pipe_status()


def build_parser() -> argparse.ArgumentParser:
    """A parser with only ``diff`` and ``collapse`` (for tests and ``python -m toolsearch.cli.diff``)."""
    from .common import Parser  # noqa: PLC0415

    parser = Parser(prog="toolsearch")
    add_parsers(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` with :func:`build_parser` and :func:`run` it."""
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

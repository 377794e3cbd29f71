"""Lint benchmark: prints the CPU time of ``toolsearch.analysis.lint.lint`` and of its parts.

Usage: ``python -m benchmarks.lint [CATALOG]`` (default: a ``toolsearch synth --tools 50000
--servers 200`` catalog, written once into the temporary folder, outside the measured part), or
``python -m benchmarks.lint --tools 6000 --servers 80`` for another synthetic size, or
``python -m benchmarks.lint --copies 5000`` for 5,000 servers that are copies of four small
servers (one MCP server configured many times: most tools are unreachable, and every tool name
is on 1,250 servers: each duplicate-name finding names ten of the others and counts the rest), or
``python -m benchmarks.lint --rare-words 20000`` for 20,000 tools in 200 servers named and described
with words of a vocabulary that grows with the catalog (three words per tool, drawn with Zipf-like
weights: thousands of gate terms, most held by a handful of tools). The catalog
is loaded and its search index built first (the app has them before the lint page opens), then
the lint runs once at default settings. Prints numbers; it asserts nothing.

Target: at 50,000 tools in 200 servers, well under 30 s of CPU for the lint (ideally under
15 s). CPU times are printed because wall times on a shared machine depend on its load (the
load average is printed too).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import tempfile
import time
from pathlib import Path

from benchmarks.engine import synthetic_file
from toolsearch.analysis import lint as L
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector

COPIED = {
    "github": [("create_issue", "Open a new issue in a repository."), ("list_issues", "List issues of a repository."),
               ("search_code", "Search code across repositories.")],
    "slack": [("post_message", "Post a message to a channel."), ("list_channels", "List the channels of a workspace.")],
    "postgres": [("query", "Run a read-only SQL query."), ("list_tables", "List the tables of a database.")],
    "files": [("read_file", "Read a file from disk."), ("write_file", "Write a file to disk."),
              ("search", "Search files by name.")],
}


def copies_file(servers: int) -> Path:
    """A catalog of ``servers`` servers, each a copy of one of :data:`COPIED` (``github-00000``,
    ``slack-00001``, …), in the temporary folder."""
    path = Path(tempfile.gettempdir()) / f"toolsearch-lint-copies-{servers}.json"
    kinds = list(COPIED)
    data = {"name": f"{servers:,} copies of {len(kinds)} servers", "servers": [
        {"name": f"{kinds[k % len(kinds)]}-{k:05d}", "tools": [
            {"name": name, "description": text,
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Input."}}}}
            for name, text in COPIED[kinds[k % len(kinds)]]]} for k in range(servers)]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def rare_words_file(tools: int) -> Path:
    """A catalog of ``tools`` tools in ``tools // 100`` servers, in the temporary folder: names of
    three words and descriptions of nine, drawn (seeded) from ``3 × tools`` made-up words with
    weights ``1 / rank``."""
    path = Path(tempfile.gettempdir()) / f"toolsearch-lint-rare-words-{tools}.json"
    if path.exists():
        return path
    rng = random.Random(tools)
    vocab = ["".join(rng.choice("bcdfghjklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(3 * tools)]
    weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(vocab))))
    data = {"name": f"{tools:,} tools of rare words", "servers": [
        {"name": f"s{k:04d}", "tools": [
            {"name": "_".join(rng.choices(vocab, cum_weights=weights, k=3)),
             "description": " ".join(rng.choices(vocab, cum_weights=weights, k=9)).capitalize() + ".",
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}} for _ in range(100)]}
        for k in range(max(tools // 100, 1))]}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", nargs="?", help="a catalog file (default: a synthetic one)")
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--servers", type=int, default=200)
    parser.add_argument("--copies", type=int, help="servers made from four small ones, instead of a synthetic catalog")
    parser.add_argument("--rare-words", type=int, help="tools of words from a growing vocabulary, instead of a synthetic "
                        "catalog")
    args = parser.parse_args()
    path = (Path(args.catalog) if args.catalog else copies_file(args.copies) if args.copies
            else rare_words_file(args.rare_words) if args.rare_words else synthetic_file(args.tools, args.servers))
    print(f"catalog: {path}  (load average {os.getloadavg()[0]:.1f} at start)")

    cpu = time.process_time()
    inspector = Inspector(load_source(path))
    config = ToolSearchConfig()
    inspector.bridge(config)
    inspector.plan(config)
    print(f"load + register + index + plan (not part of the lint): CPU {time.process_time() - cpu:.2f} s")

    parts: dict[str, float] = {}

    def timed(name: str, function):
        def run(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                parts[name] = parts.get(name, 0.0) + time.process_time() - start
        return run

    originals = {name: getattr(L, name) for name in ("_reached", "poisoning", "sdk_rejections", "_probe_positions",
                                                     "_probes_explained")}
    L._reached = timed("reachability probes", originals["_reached"])
    L._probe_positions = timed("ranking the probes of unreachable tools", originals["_probe_positions"])
    L._probes_explained = timed("explaining unreachable tools", originals["_probes_explained"])
    L.poisoning = timed("text checks (hidden characters, instructions, shadowing)", originals["poisoning"])
    L.sdk_rejections = timed("MCP SDK acceptance", originals["sdk_rejections"])
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        report = L.lint(inspector, config)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        for name, function in originals.items():
            setattr(L, name, function)
    print(f"lint: CPU {cpu:.2f} s, wall {wall:.2f} s (load average {os.getloadavg()[0]:.1f} at the end)")
    for name, seconds in parts.items():
        print(f"  {name}: CPU {seconds:.2f} s")
    print(f"  everything else (names, descriptions, schema sizes, request size): "
          f"CPU {cpu - sum(v for k, v in parts.items() if 'part' not in k):.2f} s")
    print(f"findings: {len(report.findings):,} {report.by_rule()}; their messages: "
          f"{sum(len(f.message) for f in report.findings):,} characters")
    print(f"peak memory of the process (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024:,} MB")


if __name__ == "__main__":
    main()

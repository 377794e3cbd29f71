"""Lint benchmark: prints the CPU time of ``toolsearch.analysis.lint.lint`` and of its parts.

Usage: ``python -m benchmarks.lint [CATALOG]`` (default: a ``toolsearch synth --tools 50000
--servers 200`` catalog, written once into the temporary folder, outside the measured part), or
``python -m benchmarks.lint --tools 6000 --servers 80`` for another synthetic size. The catalog
is loaded and its search index built first (the app has them before the lint page opens), then
the lint runs once at default settings. Prints numbers; it asserts nothing.

Target: at 50,000 tools in 200 servers, well under 30 s of CPU for the lint (ideally under
15 s). CPU times are printed because wall times on a shared machine depend on its load (the
load average is printed too).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from benchmarks.engine import synthetic_file
from toolsearch.analysis import lint as L
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", nargs="?", help="a catalog file (default: a synthetic one)")
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--servers", type=int, default=200)
    args = parser.parse_args()
    path = Path(args.catalog) if args.catalog else synthetic_file(args.tools, args.servers)
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

    originals = {name: getattr(L, name) for name in ("_reached", "poisoning", "sdk_rejections", "_why_not")}
    L._reached = timed("reachability probes", originals["_reached"])
    L._why_not = timed("explaining unreachable tools (part)", originals["_why_not"])
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
    print(f"findings: {len(report.findings):,} {report.by_rule()}")


if __name__ == "__main__":
    main()

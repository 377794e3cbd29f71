"""Engine benchmark: prints load/register/count, re-plan, index build and search timings.

Usage: ``python -m benchmarks.engine [CATALOG]`` (default: the ~3,300-tool Cloudflare-scale
sample), or ``python -m benchmarks.engine --tools 50000 --servers 200`` for a synthetic catalog
of that size (written once with ``toolsearch synth`` into the temporary folder, outside the
measured process). Prints numbers; it asserts nothing. ``--write-docs`` also writes them into
docs/performance.md.

Targets: at 3,300 tools, load + register + count ≤ 1.5 s, re-plan median ≤ 5 ms, index build
≤ 300 ms, search median ≤ 2 ms per query, peak RSS ≤ 300 MB. At 50,000 tools in 200 servers,
load + register + first plan < 6 s, re-plan median < 50 ms (and not growing with the tool
count), one query < 20 ms, peak RSS < 1.5 GB. Wall times on a shared machine depend on its
load, so CPU times are printed beside them.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.plan import Planner
from toolsearch.engine.registration import register_catalog
from toolsearch.engine.bridge import Bridge

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
QUERIES = [
    "dns records list", "workers script upload", "zone settings update", "firewall rules create",
    "r2 bucket delete", "pages project deployment", "load balancer pool health", "account members list",
    "cache purge", "ssl certificate pack order", "waiting room event", "kv namespace write",
    "nonexistentword dns", "accounts_workers_scripts_upload", "list", "tunnel configuration get",
    # words of the synthetic catalogs (toolsearch synth)
    "create billing invoice", "export crm customer report", "delete shipment", "approve payroll contract",
    "list_tickets_comment", "search logs query history", "restore storage bucket version", "sync",
]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def synthetic_file(tools: int, servers: int, seed: int = 0) -> Path:
    """A ``toolsearch synth`` catalog in the temporary folder (written once per size and seed)."""
    path = Path(tempfile.gettempdir()) / f"toolsearch-synth-{tools}-{servers}-{seed}.json"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.part")
        subprocess.run([sys.executable, "-m", "toolsearch", "synth", "--tools", str(tools), "--servers",
                        str(servers), "--seed", str(seed), "-o", str(partial)], check=True)
        partial.replace(path)
    return path


_LINES: list[str] = []


def _out(line: str) -> None:
    """Print one result line and keep it for ``--write-docs``."""
    print(line)
    _LINES.append(line)


def write_docs(doc: Path = ROOT / "docs" / "performance.md") -> None:
    """Write the lines of the last :func:`main` run into ``doc``'s ``<!-- figures:engine -->`` block.

    Raises:
        ValueError: ``doc`` has no such block.
    """
    from benchmarks.docs_figures import write_block  # noqa: PLC0415

    text = ("Last written by `python -m benchmarks.engine --write-docs` on "
            f"{time.strftime('%Y-%m-%d')}:\n\n```text\n" + "\n".join(_LINES) + "\n```\n")
    write_block(doc, "engine", text)


def main(path: str | None = None) -> None:
    """Run the benchmark on ``path`` and print the figures."""
    path = Path(path) if path else DEFAULT
    _out(f"machine: {os.cpu_count()} CPUs; load average before the run: "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    c0 = time.process_time()
    t0 = time.perf_counter()
    catalog = load_source(path)
    t1, c1 = time.perf_counter(), time.process_time()
    registration = register_catalog(catalog)
    t2, c2 = time.perf_counter(), time.process_time()
    planner = Planner(registration)
    config = parse_config({})
    first = planner.plan(config, 200_000)
    t3 = time.perf_counter()
    c3 = time.process_time()
    _out(f"catalog: {path.name}: {len(registration.tools)} tools, {len(catalog.servers)} servers")
    _out(f"load: {_ms(t1 - t0)}; register: {_ms(t2 - t1)}; count + first plan: {_ms(t3 - t2)}; "
          f"total: {_ms(t3 - t0)} (CPU time {_ms(c3 - c0)}: load {_ms(c1 - c0)}, register {_ms(c2 - c1)}, "
          f"count + first plan {_ms(c3 - c2)})")
    _out(f"first plan: tier {first.tier}, form {first.listing_form}, deferred {first.deferred_tokens:,} tokens")
    # The CLI's path: toolsearch.live.client.load_sources sniffs (config or catalog?) and loads in one parse.
    from toolsearch.live.client import load_sources  # noqa: PLC0415

    start = time.perf_counter()
    cli_catalog = load_sources([str(path)]).catalog
    cli_registration = register_catalog(cli_catalog)
    Planner(cli_registration).plan(config, 200_000)
    _out(f"CLI path (toolsearch.live.client.load_sources + register + first plan): "
          f"{_ms(time.perf_counter() - start)}")

    timings, cpu = [], []
    contexts = [8_000, 32_000, 128_000, 200_000, 400_000, 1_000_000]
    for i in range(300):
        cfg = config.with_overrides(threshold_pct=1 + (i % 40) * 0.5, listing_max_tokens=200 + (i * 997) % 59_800)
        start, cpu_start = time.perf_counter(), time.process_time()
        planner.plan(cfg, contexts[i % len(contexts)])
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    _out(f"re-plan after a slider change: median {_ms(statistics.median(timings))}, "
          f"p95 {_ms(sorted(timings)[int(0.95 * len(timings))])} over {len(timings)} plans "
          f"(CPU time median {_ms(statistics.median(cpu))})")
    timings = []
    for i in range(40):  # tool search off: tier 0, the whole tools array
        start = time.perf_counter()
        planner.plan(config.with_overrides(enabled="off"), contexts[i % len(contexts)])
        timings.append(time.perf_counter() - start)
    _out(f"re-plan at tier 0 (tool search off): median {_ms(statistics.median(timings))}")
    timings = []
    for i in range(40):  # a BPE planning tokenizer: each listing block counted once, then sums
        cfg = config.with_overrides(threshold_pct=1 + (i % 40) * 0.5, listing_max_tokens=200 + (i * 997) % 59_800)
        start = time.perf_counter()
        planner.plan(cfg, contexts[i % len(contexts)], "o200k_base", "chars4")
        timings.append(time.perf_counter() - start)
    _out(f"re-plan with o200k_base as the planning tokenizer: first {_ms(timings[0])} (counts every block once), "
          f"then median {_ms(statistics.median(timings[1:]))}")
    timings = []
    for i in range(60):  # the other display tokenizer and listing off: their own caches, then cheap
        cfg = config.with_overrides(threshold_pct=1 + (i % 40) * 0.5, listing="off" if i % 3 == 0 else "auto")
        start = time.perf_counter()
        planner.plan(cfg, contexts[i % len(contexts)], "chars4", "o200k_base")
        timings.append(time.perf_counter() - start)
    _out(f"re-plan with o200k_base display costs: first {_ms(timings[0])} (counts every block once), "
          f"then median {_ms(statistics.median(timings[1:]))}")

    start = time.perf_counter()
    bridge = Bridge(registration.tools, config)
    build = time.perf_counter() - start
    _out(f"search index build: {_ms(build)} ({len(bridge.index)} documents)")
    per_query, cpu = [], []
    for _ in range(20):
        for query in QUERIES:
            start, cpu_start = time.perf_counter(), time.process_time()
            bridge.index.search(query, 5)
            per_query.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cpu_start)
    _out(f"search: median {_ms(statistics.median(per_query))}, p95 {_ms(sorted(per_query)[int(0.95 * len(per_query))])} "
          f"per query over {len(per_query)} queries (CPU time median {_ms(statistics.median(cpu))})")
    start = time.perf_counter()
    bridge.tool_search({"queries": QUERIES[:7]})
    _out(f"tool_search with 7 queries (full response): {_ms(time.perf_counter() - start)}")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _out(f"peak memory (max RSS): {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__.splitlines()[0])
    parser.add_argument("catalog", nargs="?", help="catalog file (default: cloudflare-flat.yaml)")
    parser.add_argument("--tools", type=int, help="benchmark a synthetic catalog of this many tools instead")
    parser.add_argument("--servers", type=int, default=200, help="servers of the synthetic catalog (default 200)")
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the figures into docs/performance.md (default catalog only)")
    options = parser.parse_args()
    if options.write_docs and (options.tools or options.catalog):
        parser.error("--write-docs writes the default catalog's figures only")
    main(str(synthetic_file(options.tools, options.servers)) if options.tools else options.catalog)
    if options.write_docs:
        write_docs()

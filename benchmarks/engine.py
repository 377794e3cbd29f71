"""Engine benchmark: prints load/register/count, re-plan, index build and search timings.

Usage: ``python -m benchmarks.engine [CATALOG]`` (default: the ~3,300-tool Cloudflare-scale
sample). Prints numbers; it asserts nothing. Targets (issue 2): load + register + count ≤ 1.5 s;
re-plan median ≤ 5 ms; index build ≤ 300 ms; search median ≤ 2 ms per query; peak RSS ≤ 300 MB.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time
from pathlib import Path

from toolsearch.catalog import load_source
from toolsearch.config import parse_config
from toolsearch.plan import Planner
from toolsearch.registration import register_catalog
from toolsearch.bridge import Bridge

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
QUERIES = [
    "dns records list", "workers script upload", "zone settings update", "firewall rules create",
    "r2 bucket delete", "pages project deployment", "load balancer pool health", "account members list",
    "cache purge", "ssl certificate pack order", "waiting room event", "kv namespace write",
    "nonexistentword dns", "accounts_workers_scripts_upload", "list", "tunnel configuration get",
]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main(path: str | None = None) -> None:
    """Run the benchmark on ``path`` and print the figures."""
    path = Path(path) if path else DEFAULT
    t0 = time.perf_counter()
    catalog = load_source(path)
    t1 = time.perf_counter()
    registration = register_catalog(catalog)
    t2 = time.perf_counter()
    planner = Planner(registration)
    config = parse_config({})
    first = planner.plan(config, 200_000)
    t3 = time.perf_counter()
    print(f"catalog: {path.name}: {len(registration.tools)} tools, {len(catalog.servers)} servers")
    print(f"load: {_ms(t1 - t0)}; register: {_ms(t2 - t1)}; count + first plan: {_ms(t3 - t2)}; "
          f"total: {_ms(t3 - t0)}")
    print(f"first plan: tier {first.tier}, form {first.listing_form}, deferred {first.deferred_tokens:,} tokens")
    # The CLI's path: toolsearch.live.load_sources sniffs (config or catalog?) and loads in one parse.
    from toolsearch.live import load_sources  # noqa: PLC0415

    start = time.perf_counter()
    cli_catalog = load_sources([str(path)]).catalog
    cli_registration = register_catalog(cli_catalog)
    Planner(cli_registration).plan(config, 200_000)
    print(f"CLI path (toolsearch.live.load_sources + register + first plan): "
          f"{_ms(time.perf_counter() - start)}")

    timings = []
    contexts = [8_000, 32_000, 128_000, 200_000, 400_000, 1_000_000]
    for i in range(300):
        cfg = config.with_overrides(threshold_pct=1 + (i % 40) * 0.5, listing_max_tokens=200 + (i * 997) % 59_800)
        start = time.perf_counter()
        planner.plan(cfg, contexts[i % len(contexts)])
        timings.append(time.perf_counter() - start)
    print(f"re-plan after a slider change: median {_ms(statistics.median(timings))}, "
          f"p95 {_ms(sorted(timings)[int(0.95 * len(timings))])} over {len(timings)} plans")

    start = time.perf_counter()
    bridge = Bridge(registration.tools, config)
    build = time.perf_counter() - start
    print(f"search index build: {_ms(build)} ({len(bridge.index)} documents)")
    per_query = []
    for _ in range(20):
        for query in QUERIES:
            start = time.perf_counter()
            bridge.index.search(query, 5)
            per_query.append(time.perf_counter() - start)
    print(f"search: median {_ms(statistics.median(per_query))}, p95 {_ms(sorted(per_query)[int(0.95 * len(per_query))])} "
          f"per query over {len(per_query)} queries")
    start = time.perf_counter()
    bridge.tool_search({"queries": QUERIES[:7]})
    print(f"tool_search with 7 queries (full response): {_ms(time.perf_counter() - start)}")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory (max RSS): {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

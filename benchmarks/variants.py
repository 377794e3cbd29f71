"""Search-variant cost benchmark (prints numbers, asserts nothing).

Usage: ``python -m benchmarks.variants [CATALOG]`` (default ``cloudflare-flat``). For every
registered variant: the time to build the index over the deferred tools, and the median time per
``search`` and per ``explain`` over the queries of the shipped agent-style query files.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.analysis.evaluation import load_queries
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.variants import DEFAULT_VARIANTS, variant_options

ROOT = Path(__file__).resolve().parent.parent
QUERY_FILES = ("team-workspace-agent.yaml", "unreal-editor-agent.yaml")


def main(catalog: str = "cloudflare-flat") -> None:
    """Print index-build and per-query timings of each variant on ``catalog``."""
    inspector = Inspector(load_source(ROOT / "sample_catalogs" / f"{catalog}.yaml"))
    queries = [q for name in QUERY_FILES for t in load_queries(ROOT / "sample_catalogs" / "queries" / name).tasks
               for q in t.queries]
    config = parse_config({})
    print(f"{catalog}: {inspector.catalog.tool_count} tools, {len(queries)} queries")
    for name in DEFAULT_VARIANTS:
        start = time.perf_counter()
        bridge = inspector.bridge(config, variant_options(name))
        build = time.perf_counter() - start
        search, explain = [], []
        for query in queries:
            t0 = time.perf_counter()
            bridge.index.search(query, 5)
            t1 = time.perf_counter()
            bridge.index.explain(query, 5)
            search.append(t1 - t0)
            explain.append(time.perf_counter() - t1)
        print(f"  {name:15s} index {build * 1000:8.1f} ms   search median {statistics.median(search) * 1000:6.2f} ms"
              f"   explain median {statistics.median(explain) * 1000:6.2f} ms")


if __name__ == "__main__":
    main(*sys.argv[1:2])

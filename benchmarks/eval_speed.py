"""Eval speed: every registered variant, 1,000 tasks over 2,500 tools (prints numbers).

Usage: ``python -m benchmarks.eval_speed [--tasks N] [--tools N]``.

The catalog is the two third-party sets' catalogs (``benchmarks/data``) plus the first tools of
``sample_catalogs/cloudflare-flat.yaml`` up to ``--tools``; the tasks are every task of the two
sets' ``all.json`` plus the shipped Cloudflare query file, repeated in order up to ``--tasks``
(ids made unique). ``toolsearch eval`` runs exactly this: every variant, misses explained.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import yaml

from toolsearch.analysis.evaluation import evaluate, load_queries
from toolsearch.analysis.variants import DEFAULT_VARIANTS
from toolsearch.engine.catalog import load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
SETS = ("metatool", "bfcl-live")


def workload(tasks: int, tools: int):
    """``(Inspector, QueryFile)`` of the benchmark: ``tools`` tools, ``tasks`` tasks."""
    flat: list[dict] = []
    for name in SETS:
        flat += json.loads((DATA / name / "catalog.json").read_text(encoding="utf-8"))
    cloud = yaml.safe_load((ROOT / "sample_catalogs" / "cloudflare-flat.yaml").read_text(encoding="utf-8"))
    server = cloud["servers"][0]
    for t in server["tools"][:max(0, tools - len(flat))]:
        item = copy.deepcopy(t)
        item["server"] = server["name"]
        item.setdefault("inputSchema", {"type": "object", "properties": {}})
        flat.append(item)
    inspector = Inspector(load_text(json.dumps(flat), "eval-speed.json"))
    files = [load_queries(DATA / name / "all.json") for name in SETS]
    files.append(load_queries(ROOT / "sample_catalogs" / "queries" / "cloudflare-flat.yaml"))
    pool = [t for f in files for t in f.tasks]
    chosen = [replace(pool[i % len(pool)], id=f"{i}-{pool[i % len(pool)].id}") for i in range(tasks)]
    return inspector, replace(files[0], name="eval speed", tasks=tuple(chosen))


def main(argv: list[str] | None = None) -> None:
    """Print the eval time of every variant and the total."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--tools", type=int, default=2500)
    args = parser.parse_args(argv)
    inspector, queries = workload(args.tasks, args.tools)
    config = parse_config({})
    deferred = len(inspector.bridge(config).deferred)
    print(f"eval speed: {len(queries.tasks):,} tasks, {deferred:,} deferred tools, "
          f"{len(DEFAULT_VARIANTS)} variants, misses explained")
    total = 0.0
    for name in DEFAULT_VARIANTS:
        start = time.perf_counter()
        ev = evaluate(inspector, queries, [name], config)
        took = time.perf_counter() - start
        total += took
        print(f"  {name:18s} {took:6.2f} s  ({len(ev.variants[0].misses):,} misses explained)")
        sys.stdout.flush()
    print(f"total: {total:.1f} s for every variant")


if __name__ == "__main__":
    main()

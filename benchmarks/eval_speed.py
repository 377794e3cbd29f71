"""Eval speed: every registered variant, 1,000 tasks over 2,500 tools (prints numbers).

Usage: ``python -m benchmarks.eval_speed [--tasks N] [--tools N]``.

The catalog is the two third-party sets' catalogs (``benchmarks/data``) plus the first tools of
``sample_catalogs/cloudflare-flat.yaml`` up to ``--tools``; the tasks are every task of the two
sets' ``all.json`` plus the shipped Cloudflare query file, repeated in order up to ``--tasks``
(ids made unique). ``toolsearch eval`` runs exactly this: every variant, misses explained.

The ``semantic`` variant (when its optional extra is installed) is timed three times: cold (no
embedding in memory nor on disk: the 2,500 tool texts and every query are embedded, the model
loaded), changed (the same catalog with 1 % of its tools' descriptions edited, after the cold
run: only those tools are embedded, the others come from the per-text store; the queries again)
and warm (catalog embeddings from the cache, as a second run on the same catalog finds them; the
queries embedded again). The total counts the warm run; the other two are printed on their own lines.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import yaml

from toolsearch.analysis.evaluation import evaluate, evaluate_folds, load_queries
from toolsearch.analysis.variants import AVAILABLE_VARIANTS, DEFAULT_VARIANTS, variant_options
from toolsearch.engine import embedding
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


def measure(tasks: int = 1000, tools: int = 2500,
            out=None) -> tuple[list[tuple[str, float, int]], float | None, float | None]:
    """``([(variant, seconds, misses explained)], cold semantic seconds or None, changed-catalog
    semantic seconds or None)`` for every variant that can run here; the semantic variant's row is
    its warm run (catalog embeddings cached, queries embedded again). ``out``: a stream to print
    each row to as it is measured."""
    inspector, queries = workload(tasks, tools)
    config = parse_config({})
    rows = []
    cold = changed = None
    for name in AVAILABLE_VARIANTS:
        semantic = variant_options(name).ranker == "semantic"
        if semantic:
            cold, changed = _cold_semantic(inspector, queries, name, config)
            if out is not None:
                print(f"  semantic, changed catalog (1 % of the tools edited, only they embedded): {changed:.1f} s",
                      file=out, flush=True)
            embedding.clear_memory_cache(catalogs=False)  # the warm run embeds its queries again
        start = time.perf_counter()
        ev = evaluate(inspector, queries, [name], config)
        rows.append((name, time.perf_counter() - start, len(ev.variants[0].misses)))
        if out is not None:
            print(f"  {name:18s} {rows[-1][1]:6.2f} s  ({rows[-1][2]:,} misses explained)"
                  + ("  [catalog embeddings cached]" if semantic else ""), file=out, flush=True)
    return rows, cold, changed


def measure_folds(tasks: int = 1000, tools: int = 2500, folds: int = 5, out=None) -> float:
    """Seconds of ``toolsearch eval --folds FOLDS`` with the default variants on the workload
    (each variant with parameters tuned on the other folds, misses explained)."""
    inspector, queries = workload(tasks, tools)
    start = time.perf_counter()
    evaluate_folds(inspector, queries, folds, DEFAULT_VARIANTS, parse_config({}))
    seconds = time.perf_counter() - start
    if out is not None:
        print(f"out of sample (--folds {folds}), the {len(DEFAULT_VARIANTS)} default variants: {seconds:.1f} s",
              file=out, flush=True)
    return seconds


def main(argv: list[str] | None = None) -> None:
    """Print the eval time of every variant and the total."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--tools", type=int, default=2500)
    args = parser.parse_args(argv)
    print(f"eval speed: {args.tasks:,} tasks, {args.tools:,} tools, {len(AVAILABLE_VARIANTS)} variants, "
          "misses explained", flush=True)
    rows, cold, _ = measure(args.tasks, args.tools, sys.stdout)
    print(f"total: {sum(r[1] for r in rows):.1f} s for every variant")
    if cold is not None:
        print(f"semantic, cold (model loaded, every tool and query embedded): {cold:.1f} s")
    measure_folds(args.tasks, args.tools, out=sys.stdout)


def changed_catalog(inspector: Inspector, share: float = 0.01) -> Inspector:
    """The same catalog with every ``1 / share``-th tool's description edited (1 %: 25 of 2,500)."""
    flat = []
    step = max(1, round(1 / share))
    tools = [(server.name, tool) for server in inspector.catalog.servers for tool in server.tools]
    for i, (server, tool) in enumerate(tools):
        item = {"server": server, "name": tool.name, "description": tool.description or "",
                "inputSchema": tool.input_schema}
        if i % step == 0:
            item["description"] += " (edited)"
        flat.append(item)
    return Inspector(load_text(json.dumps(flat), "eval-speed-changed.json"))


def _cold_semantic(inspector, queries, name: str, config) -> tuple[float, float]:
    """Seconds of one evaluation of ``name`` with empty embedding caches (memory and disk), then of
    one on :func:`changed_catalog` with that run's disk cache (memory cleared)."""
    embedding.clear_memory_cache()
    saved = os.environ.get("XDG_CACHE_HOME")
    with tempfile.TemporaryDirectory() as empty:
        os.environ["XDG_CACHE_HOME"] = empty
        try:
            start = time.perf_counter()
            evaluate(inspector, queries, [name], config)
            cold = time.perf_counter() - start
            edited = changed_catalog(inspector)
            embedding.clear_memory_cache()
            start = time.perf_counter()
            evaluate(edited, queries, [name], config)
            changed = time.perf_counter() - start
            # The warm run finds the catalog's vectors in memory, as a second run in one process would.
            inspector.bridge(config, variant_options(name)).index.catalog_vectors()
            return cold, changed
        finally:
            if saved is None:
                os.environ.pop("XDG_CACHE_HOME", None)
            else:
                os.environ["XDG_CACHE_HOME"] = saved


if __name__ == "__main__":
    main()

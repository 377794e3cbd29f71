"""Strategies timeline benchmark: prints the CPU time of ``StrategyModel.timeline`` for a growing
number of events (the ``toolsearch strategies --events FILE`` timeline), up to the limit of
:data:`toolsearch.analysis.strategies.MAX_EVENTS` per timeline.

Usage: ``python -m benchmarks.strategies_events [--sizes 625,1250,2500,5000]``. The catalog and
skills are the shipped worked example (``sample_catalogs/seed-worked-example``: 200 tools, 50
skills); the events are searches and describes with no compaction, so every strategy's conversation
keeps growing (the case where a copy of the conversation per step grew with the square of the
events). The model is built first, outside the measured part. The time per event should stay about
the same as the events grow. Prints numbers; it asserts nothing. CPU times are printed because wall
times on a shared machine depend on its load (the load average is printed too).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from toolsearch.analysis.skills import load_skills
from toolsearch.analysis.strategies import Event, StrategyModel
from toolsearch.engine.catalog import load_source
from toolsearch.engine.inspector import Inspector

SEED = Path(__file__).resolve().parent.parent / "sample_catalogs" / "seed-worked-example"


def events(count: int) -> list[Event]:
    """``count`` events: two searches, then a describe of the first tool, over and over."""
    return [Event("describe", ("mcp__s01__tool_001",)) if i % 3 == 0 else Event("search", f"tool {i}")
            for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="625,1250,2500,5000", help="event counts, comma-separated")
    args = parser.parse_args()
    model = StrategyModel(Inspector(load_source(SEED / "catalog.yaml")), load_skills(SEED / "skills"))
    model.timeline(events(10))  # indexes and plans cached before the clock starts
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for count in (int(size) for size in args.sizes.split(",")):
        start = time.process_time()
        steps = model.timeline(events(count))
        seconds = time.process_time() - start
        print(f"{count:>6,} events: {seconds:6.2f} s CPU, {seconds / count * 1000:6.2f} ms per event "
              f"({len(steps):,} steps)")


if __name__ == "__main__":
    main()

"""Plan at scale: ``toolsearch plan`` (text and ``--json``) and the app's plan views on a catalog
of many one-tool servers, where the listing degrades one server per step.

Usage: ``python -m benchmarks.plan_scale [--servers 10000] [--no-app]``. The catalog is a
``toolsearch synth --tools N --servers N`` file (written once into the temporary folder). Each CLI
run is its own process: its wall time, CPU time, peak memory (max RSS) and output size are
printed, and for ``plan --json`` also the size its ``steps`` would have with every step listing
the servers it collapsed (computed from the output, not produced). Then the Overview, What the
model sees, Costs, Compare & collapse and Tuning pages are rendered with Streamlit's AppTest
(first render, then a slider move). Prints numbers; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.engine import synthetic_file

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["toolsearch/ui/overview.py", "toolsearch/ui/model_view.py", "toolsearch/ui/costs.py", "toolsearch/ui/cache_diff.py",
         "toolsearch/ui/tuning.py"]


def run_cli(*args: str) -> tuple[bytes, float, float, int]:
    """``toolsearch ARGS`` in its own process: (stdout, wall s, CPU s, max RSS in MB)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "toolsearch", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, cwd=ROOT)
    out = process.stdout.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"toolsearch {' '.join(args)}: exit status {process.returncode}")
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def listed_steps_bytes(out: bytes) -> int:
    """The size of ``plan --json`` output ``out`` if every step listed its collapsed labels (the
    first ``collapsed_count`` of ``collapse_order``) as ``"collapsed": [...]`` in place of
    ``collapsed_count`` and ``collapsed_label``: worked out from the sizes of the labels, without
    writing it."""
    from toolsearch.cli.common import dumps_json

    data = json.loads(out)
    prefix = [0]
    for label in data["collapse_order"]:
        prefix.append(prefix[-1] + len(dumps_json(label).encode()))
    total = len(out)
    for step in data["steps"]:
        count = step["collapsed_count"]
        now = len(f'"collapsed_count": {count},\n      "collapsed_label": '.encode()) + len(
            dumps_json(step["collapsed_label"]).encode())
        # '"collapsed": [' newline, each label on a line of its own at 8 spaces, ',' between, newline, 6 spaces, ']'
        listed = len(b'"collapsed": []') if count == 0 else 21 + prefix[count] + 10 * count
        total += listed - now
    return total


def cli(path: Path) -> None:
    for args in (["plan", str(path)], ["plan", str(path), "--json"]):
        out, wall, cpu, rss = run_cli(*args)
        print(f"toolsearch {' '.join(args[:1] + ['CATALOG'] + args[2:])}: wall {wall:.2f} s, CPU {cpu:.2f} s, "
              f"max RSS {rss:,} MB, output {len(out):,} bytes")
        if "--json" in args:
            steps = json.loads(out)["steps"]
            print(f"  {len(steps):,} degradation steps; with the collapsed servers listed at every step the "
                  f"output would be {listed_steps_bytes(out):,} bytes")


def app(path: Path) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui import common

    with tempfile.TemporaryDirectory() as folder:
        name = path.stem
        (Path(folder) / f"{name}.yaml").symlink_to(path)
        (Path(folder) / "queries").symlink_to(ROOT / "sample_catalogs" / "queries")
        common.SAMPLES_DIR = Path(folder)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
        at.query_params["catalog"] = name
        start = time.perf_counter()
        at.run()
        if at.exception:
            raise SystemExit(f"app raised: {at.exception[0].message}")
        print(f"app, first load of Overview (cold caches: load, register, plan): {time.perf_counter() - start:.2f} s")
        for page in PAGES:
            at.switch_page(page)
            start = time.perf_counter()
            at.run()
            first = time.perf_counter() - start
            slider = at.sidebar.slider(key="threshold_pct")
            start = time.perf_counter()
            slider.set_value(7.5 if slider.value != 7.5 else 10.0).run()
            move = time.perf_counter() - start
            if at.exception:
                raise SystemExit(f"{page} raised: {at.exception[0].message}")
            print(f"  {page}: render {first:.2f} s, after a slider move {move:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10_000, help="one-tool servers (default 10,000)")
    parser.add_argument("--no-app", action="store_true", help="only the command line")
    args = parser.parse_args()
    path = synthetic_file(args.servers, args.servers)
    print(f"catalog: {path.name}: {args.servers:,} servers of one tool each "
          f"({path.stat().st_size:,} bytes); {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    cli(path)
    if not args.no_app:
        app(path)


if __name__ == "__main__":
    main()

"""MCP client config flood benchmark: ``toolsearch plan`` on configs of many broken entries (each
neither ``command`` nor ``url``), as a process of its own: CPU time, peak memory and the lines it
prints on stderr, per size.

Usage: ``python -m benchmarks.config_flood [--sizes 20000,200000] [--secret-sizes 2000,8000]``.
``--secret-sizes``: configs whose broken entries each carry a secret in ``env`` (every reason is
masked against the file's secrets). The configs are written into
the temporary folder first, outside the measured part. Every entry fails without starting anything;
the first 100 problems of the file are named, one line counts the rest, and the refusal counts every
failed server. Prints numbers; it asserts nothing. The time and memory should grow about linearly
with the entries (CPU times are printed because wall times on a shared machine depend on its load).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def flood_file(entries: int, secrets: bool = False) -> Path:
    """A config of ``entries`` broken entries (``{"args": ["x"]}``, with ``secrets`` also an
    ``env`` secret of its own each), in the temporary folder."""
    path = Path(tempfile.gettempdir()) / f"toolsearch-config-flood-{entries}{'-secrets' if secrets else ''}.json"
    entry = (lambda i: {"args": ["x"], "env": {"API_KEY": f"sk-flood-{i:07d}-abcdefgh"}}) if secrets else \
        (lambda i: {"args": ["x"]})
    path.write_text(json.dumps({"mcpServers": {f"s{i}": entry(i) for i in range(entries)}}), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,200000", help="entry counts, comma-separated")
    parser.add_argument("--secret-sizes", default="2000,8000",
                        help="entry counts of configs whose entries each carry a secret, comma-separated")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}")
    runs = [(int(size), False) for size in args.sizes.split(",") if size] + \
        [(int(size), True) for size in args.secret_sizes.split(",") if size]
    for entries, secrets in runs:
        path = flood_file(entries, secrets)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(path)], capture_output=True,
                                text=True, encoding="utf-8")
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        kind = "broken entries with a secret each" if secrets else "broken entries"
        print(f"{entries:>8,} {kind}: exit {result.returncode}, {cpu:6.2f} s CPU ({wall:.2f} s wall), "
              f"peak {after.ru_maxrss / 1024:,.0f} MB (the largest run so far), "
              f"{len(result.stderr.splitlines()):,} lines on stderr")


if __name__ == "__main__":
    main()

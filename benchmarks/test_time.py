"""Test-suite timing: how long the README's test command and its fast subset take on this machine.

Usage: ``python -m benchmarks.test_time [--write docs/development.md] [PYTEST ARGS...]``. Runs
``python -m pytest`` (the README's command: every test), then
``python -m pytest -m "not browser and not live"`` (the fast subset), each timed, and prints both.
The limit for the whole suite on the CI machine (2 cores) is 12 minutes. With ``--write FILE``,
the figures replace the block between ``<!-- test-time:start -->`` and ``<!-- test-time:end -->``
in FILE. The exit status is pytest's (the first non-zero one).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_SECONDS = 12 * 60
FAST = "not browser and not live"
NO_TESTS = 5  # pytest's status when a selection has no test (e.g. a file without browser tests)
BLOCK = re.compile(r"(<!-- test-time:start -->\n).*?(<!-- test-time:end -->)", re.DOTALL)


def timed(marks: str | None, extra: list[str]) -> tuple[int, float]:
    """Run ``python -m pytest [-m MARKS] EXTRA...`` in the checkout; ``(exit status, seconds)``."""
    start = time.perf_counter()
    status = subprocess.call([sys.executable, "-m", "pytest", *(["-m", marks] if marks else []), *extra], cwd=ROOT)
    return (0 if status == NO_TESTS else status), time.perf_counter() - start


def minutes(seconds: float) -> str:
    """``7 min 12 s``."""
    return f"{int(seconds // 60)} min {round(seconds % 60):02d} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.test_time", description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="FILE", help="write the figures into FILE's test-time block")
    args, extra = parser.parse_known_args(argv)
    whole_status, whole = timed(None, extra)
    fast_status, fast = timed(FAST, extra)
    lines = [f"- the README's command, `python -m pytest`: {minutes(whole)} "
             f"({'within' if whole <= LIMIT_SECONDS else 'OVER'} the {LIMIT_SECONDS // 60}-minute limit)",
             f"- the fast subset, `python -m pytest -m \"{FAST}\"`: {minutes(fast)}"]
    print("\ntest time, " + f"{os.cpu_count()} CPUs:\n" + "\n".join(lines), flush=True)
    if args.write:
        path = Path(args.write)
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d")
        block = (f"Measured on {stamp} with `python -m benchmarks.test_time` on a machine with "
                 f"{os.cpu_count()} CPUs:\n\n" + "\n".join(lines) + "\n")
        text = path.read_text(encoding="utf-8")
        if not BLOCK.search(text):
            print(f"{path}: no test-time block to write into", file=sys.stderr)
            return 2
        path.write_text(BLOCK.sub(lambda m: m.group(1) + block + m.group(2), text), encoding="utf-8")
    return whole_status or fast_status


if __name__ == "__main__":
    sys.exit(main())

"""Masking benchmark: how long the launch confirmation of one MCP config entry takes to build
(:meth:`toolsearch.live.mcpconfig.ServerSpec.launch_preview`: secret arguments masked, the entry's
secrets gathered and scrubbed, URLs read both ways) for long crafted arguments, per size.

Usage: ``python -m benchmarks.masking [--sizes 1000,4000]``. Each size N builds: a JSON argument of
N ``"api_key_i": "…"`` pairs (``--config '{…}'``), N ``--token`` options, N arguments each a URL
whose host reads two ways, and N numbers under secret keys. Prints seconds per case; asserts
nothing. Each should grow about linearly with N.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from toolsearch.live.mcpconfig import mask_arguments, parse_config_data


def cases(size: int) -> dict[str, list[str]]:
    """The argument lists measured at ``size``."""
    tokens: list[str] = []
    for i in range(size):
        tokens += ["--token", f"tok{i:07d}abcdef"]
    return {
        "JSON pairs under secret keys": ["--config", json.dumps({f"api_key_{i}": f"val{i:07d}xyz" for i in range(size)})],
        "JSON numbers under secret keys": ["--env", json.dumps({f"API_KEY_{i}": 10_000_000 + i for i in range(size)})],
        "--token options": tokens,
        "URLs whose host reads two ways": ["mcp-remote", *(f"https://e{i}.example\\@mcp.linear.app/sse" for i in range(size))],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000", help="sizes, comma-separated")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for size in (int(s) for s in args.sizes.split(",") if s):
        for name, argv in cases(size).items():
            chars = sum(len(a) for a in argv)
            start = time.perf_counter()
            (spec,) = parse_config_data({"mcpServers": {"s": {"command": "srv", "args": argv}}}, "mcp.json").servers
            parsed = time.perf_counter()
            spec.launch_preview()
            previewed = time.perf_counter()
            mask_arguments(argv)
            masked = time.perf_counter()
            print(f"{size:>6,} {name} ({chars:,} characters): parse {parsed - start:.2f} s, "
                  f"launch confirmation {previewed - parsed:.2f} s, masked arguments {masked - previewed:.2f} s")


if __name__ == "__main__":
    main()

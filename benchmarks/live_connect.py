"""Live-connect benchmark: concurrent connects and the cost of listing a large server.

Usage: ``python -m benchmarks.live_connect [REPEATS]`` (default 3; medians are printed).

* Five local test servers (``tests/mcp_test_server.py`` over stdio, each a fresh Python process):
  each connected alone, then all five at once. Connecting N servers should take about as long
  as the slowest one, not the sum. Two sets: plain start-ups (CPU-bound Python imports, which
  compete for the machine's cores when run together) and start-ups that also wait 0.2–1.0 s
  (``--startup-delay``, like a server that fetches a package or opens a remote session); and
  light servers (``tests/malformed_mcp_server.py``, stdlib only) that wait 0.2–1.0 s, where the
  client's own concurrency shows without CPU contention.
* A 200-tool server (page size 50, so 4 ``tools/list`` pages): the time from the end of the
  handshake to the end of listing, next to a 7-tool server's, and its whole connect.
* One stray stdout line (not JSON-RPC) as long as the 16 MiB message limit allows, from a server
  whose entry has secrets: the time to keep it, masked, for the server's status (only its start
  is shown and only its end can join the next line, so only those are scrubbed).

Prints numbers; it asserts nothing. Times are wall-clock seconds and include process start-up
and shutdown; on a small machine the five start-ups compete for CPU.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from toolsearch.live.client import connect_servers
from toolsearch.live.mcpconfig import ServerSpec, spec_from_fields

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"
LIGHT = ROOT / "tests" / "malformed_mcp_server.py"


def _spec(name: str, *extra: str) -> ServerSpec:
    return spec_from_fields(name, command=sys.executable, args=[str(SERVER), "--name", name, *extra])


def _connect(specs: list[ServerSpec]) -> tuple[float, dict[str, float], dict[str, int]]:
    """Wall time of one concurrent connect, per-server listing seconds and tool counts."""
    listing_started: dict[str, float] = {}
    listing: dict[str, float] = {}

    def progress(status) -> None:
        now = time.perf_counter()
        if status.state == "listing" and status.name not in listing_started:
            listing_started[status.name] = now
        elif status.state == "ok":
            listing[status.name] = now - listing_started.get(status.name, now)

    start = time.perf_counter()
    result = connect_servers(specs, progress=progress, timeout=120)
    total = time.perf_counter() - start
    failed = [s.summary() for s in result.statuses if s.state != "ok"]
    if failed:
        raise SystemExit("benchmark server failed: " + "; ".join(failed))
    return total, listing, {s.name: s.tool_count for s in result.statuses}


def _concurrency(label: str, specs: list[ServerSpec], repeats: int) -> None:
    singles: dict[str, list[float]] = {s.name: [] for s in specs}
    together: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        for spec in specs:
            singles[spec.name].append(_connect([spec])[0])
        cpu_start = time.process_time()
        together.append(_connect(specs)[0])
        cpu.append(time.process_time() - cpu_start)
    median = statistics.median
    single = {n: median(v) for n, v in singles.items()}
    slowest = max(single.values())
    print(f"[{label}] single connect, each server alone: " + ", ".join(f"{n} {t:.3f}" for n, t in single.items()))
    print(f"[{label}] slowest single connect: {slowest:.3f}")
    print(f"[{label}] sum of single connects: {sum(single.values()):.3f}")
    print(f"[{label}] 5 servers connected concurrently, total: {median(together):.3f}")
    print(f"[{label}] concurrent total / slowest single: {median(together) / slowest:.2f}")
    print(f"[{label}] client CPU time during the concurrent connect: {median(cpu):.3f}")


def _stray_line(repeats: int) -> None:
    from mcp_types import jsonrpc_message_adapter  # noqa: PLC0415

    from toolsearch.live.client import _Tap  # noqa: PLC0415

    spec = spec_from_fields("s", command="srv", args=["--token=argSECRET/7373+w"], env={"API_KEY": "sk-0123456789abcdef"})
    line = "log " * (16 * 1024 * 1024 // 4 - 1)
    try:
        jsonrpc_message_adapter.validate_json(line)
    except ValueError as exc:
        error = exc
    times = []
    for _ in range(repeats):
        tap = _Tap(spec.scrub, spec.secret_values())
        start = time.perf_counter()
        tap.observe(error)
        times.append(time.perf_counter() - start)
    print(f"keeping one {len(line) / 2**20:.0f} MiB stray stdout line, masked: {statistics.median(times):.4f}")


def main(repeats: int = 3) -> None:
    """Run the benchmark ``repeats`` times and print medians (seconds)."""
    _connect([_spec("warmup")])  # file-system caches, .pyc files
    print(f"repeats: {repeats} (medians, seconds)")
    _concurrency("plain start-up", [_spec(f"s{i}") for i in range(1, 6)], repeats)
    _concurrency("start-up waits 0.2-1.0 s",
                 [_spec(f"w{i}", "--startup-delay", f"{0.2 * i:.1f}") for i in range(1, 6)], repeats)
    _concurrency("light servers, waits 0.2-1.0 s",
                 [spec_from_fields(f"l{i}", command=sys.executable, args=[str(LIGHT), "--startup-delay", f"{0.2 * i:.1f}"])
                  for i in range(1, 6)], repeats)
    small_list: list[float] = []
    large_list: list[float] = []
    small_total: list[float] = []
    large_total: list[float] = []
    for _ in range(repeats):
        total, listing, _counts = _connect([_spec("small")])
        small_total.append(total)
        small_list.append(listing["small"])
        total, listing, counts = _connect([_spec("large", "--extra", "193", "--page-size", "50")])
        assert counts["large"] == 200
        large_total.append(total)
        large_list.append(listing["large"])
    median = statistics.median
    print(f"listing 7 tools (1 server, 3 pages): {median(small_list):.3f}")
    print(f"listing 200 tools (1 server, 4 pages): {median(large_list):.3f}")
    print(f"extra listing time for 200 tools vs 7: {median(large_list) - median(small_list):.3f}")
    print(f"whole connect, 7-tool server: {median(small_total):.3f}; 200-tool server: {median(large_total):.3f}")
    _stray_line(repeats)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)

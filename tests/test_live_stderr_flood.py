"""A server that writes to stderr without end costs a fixed amount, however long its session
stays open.

The Live servers page holds each session open (ten minutes unused by default); a stdio server's
stderr went to a temporary file that grew by everything it wrote (150 MB a second for a server
stuck in a logging loop: a full disk in minutes). Only the end of stderr is ever shown, so only
the end is kept, in memory.

The server is ``tests/stderr_flood_mcp_server.py``.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import pytest

from toolsearch.live import client
from toolsearch.live.client import LiveConnections, call_tool, connect_servers
from toolsearch.live.mcpconfig import spec_from_fields

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "stderr_flood_mcp_server.py"


def _temporary_files() -> dict[tuple[int, int], int]:
    """Size of each temporary file this process holds open, by (device, inode)."""
    sizes = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(tempfile.gettempdir()):
                status = os.fstat(int(fd))
                sizes[(status.st_dev, status.st_ino)] = status.st_size
        except OSError:
            continue
    return sizes


def _temporary_growth(before: dict[tuple[int, int], int]) -> int:
    """Bytes the temporary files this process holds open grew by since ``before`` (files opened
    since count whole; files another test left open in this worker count only by their growth)."""
    return sum(max(0, size - before.get(key, 0)) for key, size in _temporary_files().items())


def _written_to_stderr(pid: int) -> int:
    """Bytes the process ``pid`` has written (its stderr, for the flood server)."""
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="reads /proc")
def test_a_held_session_keeps_only_the_end_of_a_flooding_servers_stderr() -> None:
    import psutil

    temporary_before = _temporary_files()
    connections = LiveConnections()
    try:
        spec = spec_from_fields("flood", command=sys.executable, args=[str(SERVER)])
        result = connections.connect([spec])
        assert [s.state for s in result.statuses] == ["ok"], result.statuses
        server = next(p for p in psutil.Process().children(recursive=True) if str(SERVER) in " ".join(p.cmdline()))
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        deadline = time.monotonic() + 60
        while _written_to_stderr(server.pid) < 200 * 2**20 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _written_to_stderr(server.pid) >= 200 * 2**20  # the server did write that much
        assert _temporary_growth(temporary_before) < 2**20, "stderr went to a temporary file"
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss_before < 64 * 2**20
        outcome = connections.send(spec, "echo", {})
        assert outcome.ok, outcome  # the session still answers
    finally:
        connections.close()


def test_a_server_that_floods_stderr_and_exits_still_shows_the_end_of_it() -> None:
    spec = spec_from_fields("flood", command=sys.executable, args=[str(SERVER), "--crash-after", "20"])
    outcome = call_tool(spec, "echo", {}, timeout=60)
    assert not outcome.ok and outcome.reason.endswith("| final: bad config)"), outcome.reason
    status = connect_servers([spec], timeout=60).statuses[0]
    assert status.state == "failed" and status.reason.endswith("| final: bad config)"), status.reason
    crashed = spec_from_fields("crash", command=sys.executable,
                               args=["-c", "import sys; sys.stderr.write('x' * 3_000_000 + '\\nfatal: no token\\n')"])
    status = connect_servers([crashed], timeout=60).statuses[0]
    assert status.state == "failed" and status.reason.endswith("(stderr: fatal: no token)"), status.reason
    assert len(status.reason) <= client._REASON_MAX_CHARS


def test_a_stderr_tail_cut_short_says_so() -> None:
    """The shown tail is the last characters of the last lines; cut inside a word, it read as if
    the server had written that half word first ("(stderr: amed 'mcp.server.fastmcp'...")."""
    line = "ModuleNotFoundError: No module named 'mcp.server.fastmcp'. " + "This is a long hint. " * 20
    crashed = spec_from_fields("crash", command=sys.executable,
                               args=["-c", f"import sys; sys.stderr.write({line!r} + '\\n'); sys.exit(1)"])
    status = connect_servers([crashed], timeout=60).statuses[0]
    assert status.state == "failed", status.reason
    shown = status.reason.partition("(stderr: ")[2]
    assert shown.startswith("…") and shown.endswith("This is a long hint.)"), status.reason
    assert len(shown) - 2 == client._STDERR_TAIL_CHARS  # the marker and the closing parenthesis aside
    short = spec_from_fields("short", command=sys.executable,
                             args=["-c", "import sys; sys.stderr.write('fatal: no token\\n'); sys.exit(1)"])
    status = connect_servers([short], timeout=60).statuses[0]
    assert status.reason.endswith("(stderr: fatal: no token)"), status.reason

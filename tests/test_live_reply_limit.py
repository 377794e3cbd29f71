"""One message from a live server has a size limit (``toolsearch.live.replycap``).

Without it, a stdio server writing one endless line held a CPU core until the connect timeout and
then read as "no answer within 30 s"; a Streamable HTTP server answering with an endless JSON body
grew the client's memory as fast as the loopback delivered it. The server is
``tests/bigreply_mcp_server.py``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
import yaml
from conftest import free_port, run_cli_process

from toolsearch.engine import constants as C
from toolsearch.live import replycap
from toolsearch.live.client import connect_servers
from toolsearch.live.mcpconfig import spec_from_fields

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
BIG = ROOT / "tests" / "bigreply_mcp_server.py"
GOOD = ROOT / "tests" / "mcp_test_server.py"
LIMIT_WORDS = "over 16 MiB (limit for one message from a live server)"


def _stdio(name: str, *args: str):
    return spec_from_fields(name, command=sys.executable, args=[str(BIG), *args])


def _statuses(result):
    return {status.name: status for status in result.statuses}


def test_an_endless_stdio_line_ends_the_connection_at_the_limit_and_the_other_servers_connect() -> None:
    good = spec_from_fields("good", command=sys.executable, args=[str(GOOD)])
    start = time.perf_counter()
    result = connect_servers([_stdio("endless", "--kib", "1", "--endless"), good])
    elapsed = time.perf_counter() - start
    statuses = _statuses(result)
    assert statuses["endless"].state == "failed"
    assert LIMIT_WORDS in statuses["endless"].reason
    assert "timeout" not in statuses["endless"].reason
    assert statuses["good"].state == "ok" and statuses["good"].tool_count > 0
    assert elapsed < C.LIVE_CONNECT_TIMEOUT_DEFAULT  # ended by the limit, not by the timeout
    assert any(LIMIT_WORDS in problem.message for problem in result.catalog.problems)


def test_a_message_under_the_limit_is_read_whole_and_one_over_it_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(C, "LIVE_MESSAGE_MAX_BYTES", 1024 * 1024)
    result = connect_servers([_stdio("under", "--kib", "1000"), _stdio("over", "--kib", "1030")])
    statuses = _statuses(result)
    assert statuses["under"].state == "ok"
    (server,) = [s for s in result.catalog.servers if s.name == "under"]
    assert len(server.tools[0].description) == 1000 * 1024
    assert statuses["over"].state == "failed"
    assert "over 1 MiB (limit for one message from a live server)" in statuses["over"].reason


def _http_server(*args: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(BIG), "--http", str(port), *args])
    deadline = time.time() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.time() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the test server did not start") from None
            time.sleep(0.1)
    return proc, f"http://127.0.0.1:{port}/mcp"


def test_an_endless_http_answer_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    proc, url = _http_server("--kib", "1", "--endless")
    try:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result = connect_servers([spec_from_fields("endless", url=url)])
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    finally:
        proc.kill()
        proc.wait()
    status = _statuses(result)["endless"]
    assert status.state == "failed"
    assert LIMIT_WORDS in status.reason
    assert grown_kib < 200 * 1024  # the answer was not read on (it never ends)

    monkeypatch.setattr(C, "LIVE_MESSAGE_MAX_BYTES", 1024 * 1024)
    proc, url = _http_server("--kib", "1000")
    try:
        result = connect_servers([spec_from_fields("under", url=url)])
    finally:
        proc.kill()
        proc.wait()
    status = _statuses(result)["under"]
    assert status.state == "ok" and status.tool_count == 1


def test_a_compressed_http_answer_counts_as_it_decodes(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    # 1 GiB of description, gzip-compressed to about 1 MB: the limit counts the decoded bytes
    proc, url = _http_server("--kib", str(1024 * 1024), "--gzip")
    try:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result = connect_servers([spec_from_fields("bomb", url=url)])
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    finally:
        proc.kill()
        proc.wait()
    status = _statuses(result)["bomb"]
    assert status.state == "failed"
    assert LIMIT_WORDS in status.reason
    assert grown_kib < 200 * 1024

    monkeypatch.setattr(C, "LIVE_MESSAGE_MAX_BYTES", 1024 * 1024)
    proc, url = _http_server("--kib", "1000", "--gzip")
    try:
        result = connect_servers([spec_from_fields("under", url=url)])
    finally:
        proc.kill()
        proc.wait()
    status = _statuses(result)["under"]
    assert status.state == "ok" and status.tool_count == 1
    (server,) = result.catalog.servers
    assert server.tools[0].description == "x" * (1000 * 1024)  # read whole, decoded once


def test_snapshot_names_the_limit_without_a_traceback(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "endless": {"command": sys.executable, "args": [str(BIG), "--kib", "1", "--endless"]},
        "good": {"command": sys.executable, "args": [str(GOOD)]}}}))
    out = tmp_path / "snapshot.yaml"
    # a connect timeout well past the time 16 MiB take on a loaded machine: the limit must end it
    done = run_cli_process("snapshot", config, "-o", out, "--timeout", "240")
    assert "endless: failed after" in done.stderr and LIMIT_WORDS in done.stderr
    assert "Traceback" not in done.stderr and "StreamError" not in done.stderr
    snapshot = yaml.safe_load(out.read_text())
    assert [server["name"] for server in snapshot["servers"]] == ["good"]
    assert LIMIT_WORDS in " ".join(snapshot["snapshot"]["failed"]["endless"].split())


class _Chunks(anyio.abc.ByteReceiveStream):
    """A byte stream that hands out the given chunks, then ends."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)

    async def receive(self, max_bytes: int = 65536) -> bytes:
        if not self.chunks:
            raise anyio.EndOfStream
        return self.chunks.pop(0)

    async def aclose(self) -> None:
        pass


def _read(chunks: list[bytes], limit: int) -> tuple[bytes, list[str]]:
    seen: list[str] = []

    async def main() -> bytes:
        stream = replycap.BoundedLines(_Chunks(chunks), limit, seen.append)
        out = b""
        try:
            while True:
                out += await stream.receive()
        except anyio.EndOfStream:
            return out

    return anyio.run(main), seen


@pytest.mark.parametrize("chunks, passes", [
    ([b"aaaa\n", b"bbbb\n"], True),                  # each line exactly at the limit
    ([b"aa", b"aa\nbb", b"bb\n"], True),             # lines split across chunks, each at the limit
    ([b"aa", b"aaa\n"], False),                      # a line of 5 split across chunks
    ([b"a\nbbbbb\nc\n"], False),                     # a long line inside one chunk
    ([b"aaaa\nbb", b"bbb"], False),                  # the last line, still open, passes the limit
    ([b"\n" * 20], True),                            # many empty lines
])
def test_bounded_lines_counts_bytes_between_line_breaks(chunks: list[bytes], passes: bool) -> None:
    out, seen = _read(chunks, limit=4)
    if passes:
        assert out == b"".join(chunks) and seen == []
    else:
        assert seen == [replycap.over_sentence(4)]
        assert len(out) < len(b"".join(chunks))  # the chunk that passed the limit is not handed on


def test_the_security_page_states_the_limit_the_code_applies() -> None:
    text = " ".join((ROOT / "docs" / "security.md").read_text(encoding="utf-8").split())
    assert f"One message from a live server is at most {C.LIVE_MESSAGE_MAX_BYTES // (1024 * 1024)} MiB" in text
    assert replycap.over_sentence(C.LIVE_MESSAGE_MAX_BYTES) in text

"""A live server that floods toolsearch: megabyte cursors on every ``tools/list`` page, and
requests to the client that it never reads the answers to."""

from __future__ import annotations

import gc
import json
import sys
import time
import weakref
from pathlib import Path

import anyio
import pytest

from toolsearch.engine import constants as C
from toolsearch.live.client import connect_servers
from toolsearch.live.mcpconfig import spec_from_fields
from toolsearch.live.client import ServerStatus, _list_tools, _Tap

pytestmark = pytest.mark.live


class _Cursor(str):
    """A cursor the test can watch (plain ``str`` takes no weak reference)."""


class _PagingClient:
    """Stands in for ``mcp.Client``: every ``tools/list`` page has one tool and a new cursor of
    ``size`` characters; ``alive`` counts, at each page, the earlier cursors still in memory."""

    def __init__(self, tap: _Tap, size: int, repeat_at: int | None = None) -> None:
        self.tap = tap
        self.size = size
        self.repeat_at = repeat_at
        self.refs: list[weakref.ref] = []
        self.alive: list[int] = []

    async def list_tools(self, cursor: str | None = None, cache_mode: str = "bypass") -> None:
        gc.collect()
        # the cursor just sent back is in use; those before it are no longer needed
        self.alive.append(sum(ref() is not None for ref in self.refs[:-1]))
        page = len(self.refs) + 1
        if self.repeat_at is not None and page >= self.repeat_at:
            next_cursor = str(cursor)
        else:
            next_cursor = _Cursor(f"{page}:" + "c" * self.size)
            self.refs.append(weakref.ref(next_cursor))
        self.tap.results["tools/list"] = {"tools": [{"name": f"t{page}", "inputSchema": {"type": "object"}}],
                                          "nextCursor": next_cursor}


def _list(client: _PagingClient, tap: _Tap, pages: int) -> tuple[list, list, ServerStatus]:
    problems: list = []
    status = ServerStatus("big", "stdio")

    async def run() -> list:
        return await _list_tools(client, tap, "live: server 'big'", status, None, pages, problems)

    return anyio.run(run), problems, status


def test_earlier_cursors_are_not_kept_while_the_listing_goes_on() -> None:
    tap = _Tap()
    client = _PagingClient(tap, size=1024 * 1024)
    tools, problems, status = _list(client, tap, pages=12)
    assert len(tools) == 12 and status.pages == 12
    assert max(client.alive) == 0  # 12 pages of 1 MiB cursors held no more than the one in use
    assert any("stopped after 12 pages" in p.message for p in problems)


def test_a_repeated_huge_cursor_is_named_cut_short() -> None:
    tap = _Tap()
    client = _PagingClient(tap, size=2 * 1024 * 1024, repeat_at=3)
    tools, problems, status = _list(client, tap, pages=50)
    assert len(tools) == 3
    (problem,) = [p for p in problems if "repeats" in p.message]
    assert len(problem.message) < 400
    assert "2,097,154 characters" in problem.message
    assert "pagination stopped: bad or repeated cursor" in status.flags


FLOOD = Path(__file__).resolve().parent / "request_flood_mcp_server.py"
GOOD = Path(__file__).resolve().parent / "mcp_test_server.py"
FLOOD_WORDS = ("requests to toolsearch (ping, roots, sampling, elicitation…) and read none of the answers for "
               f"{C.LIVE_SERVER_REQUESTS_WAIT:g} s (limit)")


def test_a_server_that_sends_requests_and_never_reads_the_answers_is_closed_at_the_limit() -> None:
    flood = spec_from_fields("asker", command=sys.executable, args=[str(FLOOD), "--requests", "100000"])
    good = spec_from_fields("good", command=sys.executable, args=[str(GOOD)])
    start = time.perf_counter()
    result = connect_servers([flood, good], timeout=60)  # far past the limit's time, even on a loaded machine
    elapsed = time.perf_counter() - start
    statuses = {status.name: status for status in result.statuses}
    assert statuses["asker"].state == "failed"
    assert f"more than {C.LIVE_SERVER_REQUESTS_MAX:,} {FLOOD_WORDS}" in statuses["asker"].reason
    assert "timeout" not in statuses["asker"].reason
    assert statuses["good"].state == "ok" and statuses["good"].tool_count > 0
    assert elapsed < 50  # closed at the limit, not at the timeout (memory grew all the while)


def test_a_server_that_reads_the_answers_may_send_many_requests() -> None:
    reading = spec_from_fields("asker", command=sys.executable,
                               args=[str(FLOOD), "--requests", "5000", "--reading"])
    result = connect_servers([reading], timeout=60)
    (status,) = result.statuses
    assert status.state == "ok", status.reason
    assert status.tool_count == 1


class _WidePages:
    """Stands in for ``mcp.Client``: every ``tools/list`` page has ``per_page`` tools and a next cursor."""

    def __init__(self, tap: _Tap, per_page: int) -> None:
        self.tap = tap
        self.per_page = per_page
        self.pages = 0

    async def list_tools(self, cursor: str | None = None, cache_mode: str = "bypass") -> None:
        self.pages += 1
        first = (self.pages - 1) * self.per_page
        self.tap.results["tools/list"] = {
            "tools": [{"name": f"t{first + n}", "inputSchema": {"type": "object"}} for n in range(self.per_page)],
            "nextCursor": f"page{self.pages + 1}"}


def test_a_server_listing_more_tools_than_a_catalog_file_may_hold_is_cut_at_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(C, "LIVE_TOOLS_MAX", 1000)
    tap = _Tap()
    client = _WidePages(tap, per_page=300)
    tools, problems, status = _list(client, tap, pages=50)  # type: ignore[arg-type]
    assert len(tools) == 1000 and client.pages == 4  # 300 + 300 + 300 + 100 of the fourth page
    assert [tool["name"] for tool in tools[-2:]] == ["t998", "t999"]
    (problem,) = [p for p in problems if "more than 1,000 tools" in p.message]
    assert "the first 1,000 kept, 200 tools of this page and any later pages not read" in problem.message
    assert "stopped at 1,000 tools (limit)" in status.flags


def test_the_tool_limit_is_what_a_catalog_file_may_hold() -> None:
    assert C.LIVE_TOOLS_MAX == C.SYNTH_MAX_TOOLS


def test_an_http_server_that_acknowledges_the_answers_may_send_them_in_a_burst() -> None:
    import socket
    import subprocess

    from conftest import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, str(FLOOD), "--requests", "3000", "--reading", "--http", str(port)])
    try:
        deadline = time.time() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.time() < deadline and proc.poll() is None, "the test server did not start"
                time.sleep(0.1)
        result = connect_servers([spec_from_fields("asker", url=f"http://127.0.0.1:{port}/mcp")], timeout=60)
    finally:
        proc.kill()
        proc.wait()
    (status,) = result.statuses
    assert status.state == "ok", status.reason  # the answers' POSTs were slower than the requests came
    assert status.tool_count == 1


def test_a_held_session_closed_at_the_request_limit_says_why() -> None:
    from toolsearch.live.client import LiveConnections

    spec = spec_from_fields("asker", command=sys.executable, args=[str(FLOOD), "--requests", "100000", "--later"])
    connections = LiveConnections()
    try:
        result = connections.connect([spec], timeout=20)
        assert result.statuses[0].state == "ok"
        deadline = time.time() + 30
        while connections.is_open("asker"):
            assert time.time() < deadline, "the session stayed open"
            time.sleep(0.2)
        reason = connections.end_reason("asker")
        assert reason is not None and FLOOD_WORDS in reason
    finally:
        connections.close()


def test_the_live_page_names_why_a_held_session_ended(tmp_path) -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"asker": {
        "command": sys.executable, "args": [str(FLOOD), "--requests", "100000", "--later"]}}}))
    at = AppTest.from_file(str(root / "toolsearch" / "ui" / "live.py"), default_timeout=120)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", config.read_bytes(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    try:
        connections = at.session_state["live_connections"]
        deadline = time.time() + 30
        while connections.is_open("asker"):
            assert time.time() < deadline, "the session stayed open"
            time.sleep(0.2)
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        shown = " ".join(info.value for info in at.info)
        assert "The session with asker has ended: the server sent more than 1,000" in shown
        assert "read none of the answers" in shown
    finally:
        at.session_state["live_connections"].close()

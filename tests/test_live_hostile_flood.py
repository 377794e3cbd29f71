"""A live server that floods toolsearch: megabyte cursors on every ``tools/list`` page, and
requests to the client that it never reads the answers to."""

from __future__ import annotations

import gc
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
FLOOD_WORDS = "requests to toolsearch (ping, roots, sampling, elicitation…) without reading the answers (limit)"


def test_a_server_that_sends_requests_and_never_reads_the_answers_is_closed_at_the_limit() -> None:
    flood = spec_from_fields("asker", command=sys.executable, args=[str(FLOOD), "--requests", "100000"])
    good = spec_from_fields("good", command=sys.executable, args=[str(GOOD)])
    start = time.perf_counter()
    result = connect_servers([flood, good], timeout=20)
    elapsed = time.perf_counter() - start
    statuses = {status.name: status for status in result.statuses}
    assert statuses["asker"].state == "failed"
    assert f"more than {C.LIVE_SERVER_REQUESTS_MAX:,} {FLOOD_WORDS}" in statuses["asker"].reason
    assert "timeout" not in statuses["asker"].reason
    assert statuses["good"].state == "ok" and statuses["good"].tool_count > 0
    assert elapsed < 15  # closed at the limit, not at the timeout (memory grew all the while)


def test_a_server_that_reads_the_answers_may_send_many_requests() -> None:
    reading = spec_from_fields("asker", command=sys.executable,
                               args=[str(FLOOD), "--requests", "5000", "--reading"])
    result = connect_servers([reading], timeout=60)
    (status,) = result.statuses
    assert status.state == "ok", status.reason
    assert status.tool_count == 1

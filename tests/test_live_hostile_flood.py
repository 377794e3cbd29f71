"""A live server that floods toolsearch: megabyte cursors on every ``tools/list`` page, and
requests to the client that it never reads the answers to."""

from __future__ import annotations

import gc
import weakref

import anyio

from toolsearch.live import client as live
from toolsearch.live.client import ServerStatus, _list_tools, _Tap


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

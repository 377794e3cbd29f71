"""An answer the MCP SDK cannot read fails its request at once, saying why.

A ``tools/list`` (or ``initialize``, or ``tools/call``) answer that is nested too deeply for the
SDK's JSON parser and for Python's, holds a number it cannot read, or is not a JSON-RPC response (a ``result`` that
is a string, an ``error`` without a code, no ``"jsonrpc": "2.0"``) used to be dropped by the SDK as
a stray line: the request waited for the whole timeout (30 s by default, the Live servers page
waiting with it) and the server then read as "no answer within 30 s (timeout)".

The server is ``tests/unreadable_mcp_server.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from toolsearch.live.client import call_tool, connect_servers
from toolsearch.live.mcpconfig import parse_config_data

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "unreadable_mcp_server.py"
GOOD = ROOT / "tests" / "mcp_test_server.py"
TIMEOUT = 60.0
WHY = {
    "result-string": "the server's answer to tools/list is not a JSON-RPC response (its \"result\" is a string, "
                     "not an object); not read",
    "error-string": "the server's answer to tools/list is not a JSON-RPC response (its \"error\" is not an object "
                    "with an integer \"code\" and a \"message\"); not read",
    "no-jsonrpc": "the server's answer to tools/list is not a JSON-RPC response (it has no \"jsonrpc\": \"2.0\"); "
                  "not read",
    "very-deep": "the server's answer to tools/list is nested too deeply for the MCP SDK's JSON parser (recursion "
                 "limit exceeded at line 1 column ",
    "big-number": "the server's answer to tools/list is JSON the MCP SDK cannot read (number out of range at line 1 "
                  "column ",
    "initialize": "the server's answer to initialize is not a JSON-RPC response (its \"result\" is a string, not an "
                  "object); not read",
}


def _specs(*modes: str):
    servers = {mode: {"command": sys.executable, "args": [str(SERVER), mode]} for mode in modes}
    servers["good"] = {"command": sys.executable, "args": [str(GOOD), "--name", "good"]}
    return parse_config_data({"mcpServers": servers}, "mcp.json").servers


def test_each_unreadable_answer_fails_its_server_at_once_with_the_reason() -> None:
    start = time.perf_counter()
    result = connect_servers(_specs(*WHY), timeout=TIMEOUT)
    elapsed = time.perf_counter() - start
    statuses = {s.name: s for s in result.statuses}
    assert statuses["good"].state == "ok" and statuses["good"].tool_count > 0
    for mode, why in WHY.items():
        status = statuses[mode]
        assert status.state == "failed", status
        assert status.reason.startswith(why), (mode, status.reason)
        assert "timeout" not in status.reason, status.reason
        # The log line is the one stray line: the answer is not counted among them.
        assert status.reason.endswith("(1 line on stdout was not JSON-RPC)"), status.reason
        assert status.elapsed < TIMEOUT / 2, status
    assert elapsed < TIMEOUT / 2


def test_an_answer_too_deep_for_the_sdk_alone_is_read_here_and_its_deep_tool_skipped() -> None:
    # nested 300 levels: past the SDK's JSON parser (about 200), within Python's; the page is read from the raw
    # JSON, and its one tool, past the 256-level limit of a tool, is skipped alone (tests/test_live_deep_schema.py)
    result = connect_servers(_specs("deep"), timeout=TIMEOUT)
    status = {s.name: s for s in result.statuses}["deep"]
    assert (status.state, status.tool_count) == ("ok", 0), status
    assert "page 1: too deep for the SDK's parser; read from the raw JSON" in status.flags
    assert [p.where for p in result.catalog.problems if "levels deep (limit); tool skipped" in p.message] == [
        "live: server 'deep': tools[0].inputSchema"]
    assert status.elapsed < TIMEOUT / 2


def test_an_unreadable_tools_call_answer_is_the_calls_reason_at_once() -> None:
    spec = _specs("call-result-string")[0]
    outcome = call_tool(spec, "echo", {"text": "hi"}, timeout=TIMEOUT)
    assert not outcome.ok
    assert outcome.reason == ("the server's answer to tools/call is not a JSON-RPC response (its \"result\" is a "
                              "string, not an object); not read")
    assert outcome.response == {"error": outcome.reason}
    assert outcome.elapsed < TIMEOUT / 2


def test_a_server_that_fails_on_a_later_page_says_which_and_what_is_not_kept() -> None:
    status = connect_servers(_specs("crash-on-page-2")[:1], timeout=TIMEOUT).statuses[0]
    assert status.state == "failed"
    assert status.reason == ("while listing tools, page 2 (the 2 tools of the pages before not kept): the server "
                             "process exited with status 3 before answering (1 line on stdout was not JSON-RPC)"), \
        status.reason

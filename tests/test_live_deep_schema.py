"""A live server whose tools/list answer nests deeper than the MCP SDK's JSON parser reads (about 200
levels): the page is read from the raw JSON, a tool nested more than 256 levels is skipped alone with its
place, and the server's other tools are kept. Before, the whole server failed ("nested too deeply for the
MCP SDK's JSON parser … not read") because of one tool."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import run_cli, write_json
from toolsearch.engine import readers
from toolsearch.live.client import connect_servers
from toolsearch.live.mcpconfig import spec_from_fields

pytestmark = pytest.mark.live

MALFORMED = Path(__file__).resolve().parent / "malformed_mcp_server.py"
PAGE_WARNING = ("the answer is nested too deeply for the MCP SDK's JSON parser (recursion limit exceeded at line 1 "
                "column ")


def _connect(levels: int):
    result = connect_servers([spec_from_fields("m", command=sys.executable, args=[str(MALFORMED), "--deep", str(levels)])])
    (status,) = result.statuses
    return result, status


def test_a_tool_too_deep_for_the_sdk_but_within_the_limit_is_read() -> None:
    result, status = _connect(220)
    assert (status.state, status.tool_count) == ("ok", 3), status.reason
    assert "deep" in [t.name for s in result.catalog.servers for t in s.tools]
    assert "page 1: too deep for the SDK's parser; read from the raw JSON" in status.flags
    assert any(p.severity == "warning" and p.message.startswith(PAGE_WARNING) for p in result.catalog.problems)


@pytest.mark.parametrize("levels", [300, 900])
def test_a_tool_past_the_limit_is_skipped_alone(levels: int) -> None:
    result, status = _connect(levels)
    assert status.state == "ok", status.reason
    names = [t.name for s in result.catalog.servers for t in s.tools]
    assert names == ["loose_schema", "good"]
    skipped = [(p.severity, p.where, p.message) for p in result.catalog.problems if "levels deep" in p.message]
    assert skipped == [("error", "live: server 'm': tools[3].inputSchema",
                        f"nested more than {readers.MAX_NESTING_DEPTH} levels deep (limit); tool skipped")]
    assert "1 tool nested too deeply skipped" in status.flags


def test_the_command_line_says_so_and_plans_the_rest(tmp_path: Path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"m": {
        "command": sys.executable, "args": [str(MALFORMED), "--deep", "300"]}}})
    done = run_cli("plan", str(config), "--json")
    assert done.returncode == 0, done.stderr
    assert "tools[3].inputSchema: nested more than 256 levels deep (limit); tool skipped" in done.stderr
    assert "Traceback" not in done.stderr
    plan = json.loads(done.stdout)
    assert plan["deferred_count"] == 2, plan.get("deferred_count")

"""lint on tools and names the harness or the MCP SDK treat differently from what the file says:
a tool with no inputSchema (the SDK rejects it; the reader fills in an empty object schema), and
names that sanitizing replaces beyond recognition."""

from __future__ import annotations

import json

from conftest import run_cli, write_yaml


def test_a_tool_without_input_schema_is_flagged_as_the_sdk_rejects_it(tmp_path):
    """The reader registers a tool with no inputSchema with no parameters; the MCP SDK's Tool model
    says "inputSchema Field required" and rejects the whole tools/list. lint says so, as it does for
    a schema without type; a function-array tool (no MCP SDK involved) is not flagged."""
    import mcp.types  # the SDK the finding speaks for
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="inputSchema"):
        mcp.types.Tool(name="x")
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [{"name": "a", "tools": [
        {"name": "x", "description": "Does x."},
        {"name": "y", "description": "Does y.", "inputSchema": {"type": "object"}}]}]})
    done = run_cli("lint", catalog, "--json", "--severity", "error")
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert [(f["rule"], f["server"], f["tool"], f["field"]) for f in findings] == [("sdk-rejects", "a", "x", "parameters")]
    assert findings[0]["message"].startswith("the MCP SDK rejects this tool (inputSchema: Field required)")
    assert findings[0]["fix"] == ('Add an inputSchema: every MCP tool needs one, {"type": "object"} for a tool '
                                  "without parameters.")
    functions = tmp_path / "functions.json"
    functions.write_text(json.dumps([{"type": "function", "function": {"name": "x", "description": "Does x."}}]),
                         encoding="utf-8")
    assert "sdk-rejects" not in run_cli("lint", functions, "--json").stdout


CJK = {"servers": [
    {"name": "日本語サーバー", "tools": [{"name": "検索", "description": "search files", "inputSchema": {"type": "object"}},
                                   {"name": "ファイル_read", "description": "read a file", "inputSchema": {"type": "object"}}]},
    {"name": "docs", "tools": [{"name": "搜索", "description": "search docs", "inputSchema": {"type": "object"}}]}]}


def test_a_name_sanitizing_replaces_entirely_is_named_with_its_wire_name(tmp_path):
    """'日本語サーバー' becomes 'mcp_________' with no word from the reference: lint warns
    (name-unrecognizable) and plan notes it, naming the original and the wire name, though no two
    names collide. A name with an ASCII letter or digit left ('ファイル_read') is not flagged; with
    as-is names nothing is replaced."""
    catalog = write_yaml(tmp_path / "cjk.yaml", CJK)
    done = run_cli("lint", catalog, "--json")
    found = [(f["rule"], f["server"], f["tool"], f["name"], f["message"]) for f in json.loads(done.stdout)["findings"]
             if f["rule"] == "name-unrecognizable"]
    assert sorted(found) == sorted([
        ("name-unrecognizable", "日本語サーバー", "", "mcp_____________",
         "sanitizing replaces every character of the server name '日本語サーバー', so its wire names keep nothing of it "
         "('検索' is 'mcp_____________'; docs/reference.md §21.2)"),
        ("name-unrecognizable", "日本語サーバー", "検索", "mcp_____________",
         "sanitizing replaces every character of the tool name '検索', so its wire name 'mcp_____________' keeps "
         "nothing of it (docs/reference.md §21.2)"),
        ("name-unrecognizable", "docs", "搜索", "mcp__docs____",
         "sanitizing replaces every character of the tool name '搜索', so its wire name 'mcp__docs____' keeps "
         "nothing of it (docs/reference.md §21.2)")])
    notes = [line for line in run_cli("plan", catalog).stdout.splitlines() if "sanitizing replaces" in line]
    assert notes == [f"note: {catalog}: server 'docs': sanitizing replaces every character of the tool name '搜索', so "
                     "its wire name 'mcp__docs____' keeps nothing of it (docs/reference.md §21.2)",
                     f"note: {catalog}: server '日本語サーバー': sanitizing replaces every character of the server name "
                     "'日本語サーバー', so its wire names keep nothing of it ('検索' is 'mcp_____________'; "
                     "docs/reference.md §21.2)",
                     f"note: {catalog}: server '日本語サーバー': sanitizing replaces every character of the tool name "
                     "'検索', so its wire name 'mcp_____________' keeps nothing of it (docs/reference.md §21.2)"]
    assert "name-unrecognizable" not in run_cli("lint", catalog, "--tool-names", "as-is", "--json").stdout

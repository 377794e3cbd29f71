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

"""Every command that reads a catalog names what the reader dropped or changed: ``harnesses`` said
nothing about a skipped tool, and ``diff`` and ``collapse`` named only errors, so a tool defined
twice (the second definition dropped) or an unknown ``kind`` passed without a word there."""

from __future__ import annotations

import pytest

from conftest import run_cli, write_yaml

CATALOG = {"name": "Twice", "servers": [
    {"name": "github", "tools": [
        {"name": "create_issue", "description": "Open a new issue.", "inputSchema": {"type": "object"}},
        {"name": "create_issue", "description": "A second definition.", "inputSchema": {"type": "object"}},
        {"name": 7, "description": "A number for a name."}]},
    {"name": "slack", "kind": "weird", "tools": [
        {"name": "post_message", "description": "Post a message.", "inputSchema": {"type": "object"}}]},
]}


@pytest.mark.parametrize("argv, label", [
    (("harnesses", "{c}", "--context-lengths", "200k"), ""),
    (("diff", "{c}", "{c}"), " (A)"),
    (("collapse", "{c}"), " ({c})"),
])
def test_catalog_problems_named(tmp_path, argv, label):
    catalog = write_yaml(tmp_path / "twice.yaml", CATALOG)
    result = run_cli(*(a.format(c=catalog) for a in argv))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    prefix = f"toolsearch: catalog {{}}{label.format(c=catalog)}: "
    lines = result.stderr.splitlines()
    assert (prefix.format("warning") + f"{catalog}: server 'github': tool 'create_issue' is listed more than once; "
            "the first definition is kept and the other is dropped") in lines, result.stderr
    assert (prefix.format("warning") + f"{catalog}: servers[1].kind: expected one of mcp, plugin, core, "
            "got 'weird'; using mcp") in lines, result.stderr
    assert (prefix.format("error") + f"{catalog}: servers[0].tools[2]: expected a non-empty string 'name', got the "
            "number 7 (put the name in quotes to keep it as text); tool skipped") in lines, result.stderr

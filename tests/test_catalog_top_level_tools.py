"""A catalog file with a ``servers`` list and a top-level ``tools`` list: the tools there belong to
no server and are not read, which the catalog said nothing about (they were kept as an unknown key,
so ``plan`` counted one tool fewer than the file holds without a word)."""

from __future__ import annotations

from conftest import run_cli, write_json

CATALOG = {"name": "Both", "servers": [{"name": "a", "tools": [
    {"name": "x", "description": "Do x.", "inputSchema": {"type": "object"}}]}],
    "tools": [{"name": "y", "description": "Do y.", "inputSchema": {"type": "object"}},
              {"name": "z", "description": "Do z.", "inputSchema": {"type": "object"}}]}


def test_top_level_tools_beside_servers_are_named(tmp_path):
    catalog = write_json(tmp_path / "both.json", CATALOG)
    result = run_cli("plan", catalog)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"toolsearch: catalog warning: {catalog}: tools: 2 items beside the 'servers' list, where no server holds "
        "them; not read (a catalog lists each tool under its server's 'tools')"]
    assert "catalog: Both (1 tool)" in result.stdout


def test_a_catalog_without_top_level_tools_has_no_such_warning(tmp_path):
    catalog = write_json(tmp_path / "one.json", {**CATALOG, "tools": []})
    result = run_cli("plan", catalog)
    assert result.returncode == 0 and result.stderr == "", result.stderr

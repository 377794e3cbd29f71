"""Shipping a recommended setting and gating it, as a platform engineer does: recommend, save the
block, run its ``# gate:`` line on later catalogs. What the gate says when it fails must let the
reader act without another tool: which server the listing traded away, and why."""

from __future__ import annotations

from pathlib import Path

import yaml

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _big_server(path: Path, name: str = "warehouse", tools: int = 300) -> Path:
    schema = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    path.write_text(yaml.safe_dump({"name": "Warehouse", "servers": [{"name": name, "kind": "mcp", "tools": [
        {"name": f"op_{i:03d}", "description": f"Warehouse operation {i} on inventory records.", "inputSchema": schema}
        for i in range(tools)]}]}), encoding="utf-8")
    return path


def test_a_failing_gate_names_the_server_that_collapsed(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                    "--yaml")
    assert block.returncode == 0, block.stderr
    config.write_text(block.stdout, encoding="utf-8")
    grown = (TEAM, _big_server(tmp_path / "warehouse.yaml"))
    for fmt in ("text", "markdown", "json"):
        result = run_cli("check", *grown, "--config", config, "--strict", "--context-lengths", "32k,200k,1m",
                         "--goal", "names", "--format", fmt)
        assert result.returncode == 1, (result.stdout, result.stderr)
        # the 300-tool server is the largest names block, so the reference collapses it first
        assert "collapsed to a summary line: warehouse" in result.stdout, result.stdout


def test_a_failure_with_exceptions_says_summary_as_the_table_does() -> None:
    # 100 tokens of context list nothing; the goal "any" accepts summary lines, and says so by that word
    result = run_cli("check", TEAM, "--context-lengths", "100", "--goal", "any", "--except", "github")
    assert result.returncode == 1, result.stderr
    assert "the goal needs summary or better" in result.stdout and "groups" not in result.stdout, result.stdout

"""``toolsearch eval`` on a catalog that defers nothing says so, instead of printing a table of
zeros and perfect abstention as if the search had been measured."""

from __future__ import annotations

from conftest import run_cli, write_yaml
from toolsearch.analysis.evaluation import nothing_deferred

QUERIES = {"tasks": [{"id": "rain", "query": "weather in paris", "expected": ["mcp__w__forecast"]},
                     {"id": "none", "query": "bake a cake", "expected": []}]}


def test_eval_warns_when_the_catalog_defers_no_tools(tmp_path):
    queries = write_yaml(tmp_path / "q.yaml", QUERIES)
    empty = write_yaml(tmp_path / "empty.yaml", {"servers": []})
    result = run_cli("eval", empty, queries)
    assert result.returncode == 0, result.stderr
    assert f"toolsearch: warning: {empty}: {nothing_deferred(0)}" in result.stderr.splitlines()
    # a catalog with deferred tools gets no such warning
    full = write_yaml(tmp_path / "full.yaml", {"servers": [{"name": "w", "tools": [
        {"name": "forecast", "description": "Weather forecast for a city.",
         "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}]})
    assert "defers no tools" not in run_cli("eval", full, queries).stderr
    assert nothing_deferred(1) == ""

"""A YAML catalog whose tool holds a value JSON has not (an unquoted date, a ``!!binary`` value, a
``!!set``) is one bad tool: it is skipped with a line naming the place and what to write instead,
as a NaN is, and every other tool is read. ``describe --sent`` used to end in a traceback
(``Object of type date is not JSON serializable``) while plan counted the schema as if it were JSON."""

from __future__ import annotations

import json

from conftest import run_cli

CATALOG = """\
name: Dates
servers:
  - name: s1
    tools:
      - name: when
        description: Schedule a run.
        inputSchema: {type: object, properties: {day: {type: string, default: 2024-01-01}}}
      - name: blob
        description: Store a blob.
        inputSchema: {type: object, properties: {b: {default: !!binary aGVsbG8=}}}
      - name: pick
        description: Pick a name.
        inputSchema: {type: object, properties: !!set {a, b}}
      - name: okay
        description: 2024-01-02
        inputSchema: {type: object, properties: {q: {type: string}}}
"""

LINES = [
    "toolsearch: catalog error: {c}: servers[0].tools[0].inputSchema.properties.day.default: the date 2024-01-01 "
    "is not a JSON value (a request carrying this tool would not be valid JSON); tool skipped; put it in quotes to "
    "keep it as text",
    "toolsearch: catalog error: {c}: servers[0].tools[1].inputSchema.properties.b.default: binary data (a !!binary "
    "value) is not a JSON value (a request carrying this tool would not be valid JSON); tool skipped",
    "toolsearch: catalog error: {c}: servers[0].tools[2].inputSchema.properties: a set (a !!set value) is not a JSON "
    "value (a request carrying this tool would not be valid JSON); tool skipped; write a list or a mapping",
    # a description of the wrong type is repaired, not a reason to skip the tool
    "toolsearch: catalog warning: {c}: servers[0].tools[3].description: expected a string, got a date; treated as missing",
]


def test_describe_sent_skips_non_json_tools(tmp_path):
    catalog = tmp_path / "dates.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    result = run_cli("describe", "--sent", "--json", str(catalog), "mcp__s1__when", "mcp__s1__okay")
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [line.format(c=catalog) for line in LINES]
    data = json.loads(result.stdout)
    assert list(data["tools"]) == ["mcp__s1__okay"] and data["not_found"] == ["mcp__s1__when"]
    assert result.returncode == 1


def test_plan_counts_only_json_tools(tmp_path):
    catalog = tmp_path / "dates.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    result = run_cli("plan", "--json", str(catalog))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [line.format(c=catalog) for line in LINES]
    assert json.loads(result.stdout)["deferred_count"] == 1

"""A GitHub Actions runner reads ``##[error]…`` as a command anywhere in a line of a CI log (its
legacy form), not only at the start. Tables marked it already; a sentence naming catalog, server or
session text (a note, a warning on stderr, a lint finding, a search result, a sessions report
line) printed it raw. Every line the CLI prints as text now writes ``#⟨U+0023⟩[``; ``--json``
writes the bracket as ``\\u005b`` (the same value once parsed) and ``--csv`` keeps the data as it is."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from conftest import run_cli, write_json

HOSTILE = "##[error]x"
MARKED = "#⟨U+0023⟩[error]x"


def _catalog(tmp_path: Path) -> Path:
    return write_json(tmp_path / "hostile.json", {"name": "cat" + HOSTILE, "servers": [
        {"name": "srv" + HOSTILE, "tools": [
            {"name": "t" + HOSTILE, "description": HOSTILE + " Create an issue in the repo.",
             "inputSchema": {"type": "object"}},
            {"name": "t" + HOSTILE, "description": "Listed twice.", "inputSchema": {"type": "object"}},
            {"name": "other", "description": "", "inputSchema": {"type": "object"}}]},
        {"name": "github", "tools": [{"name": "create_issue", "description": "Open an issue.",
                                      "inputSchema": {"type": "object"}}]}]})


def _sessions(tmp_path: Path) -> Path:
    query = "issue " + HOSTILE
    tool = f"mcp__srv{HOSTILE}__t{HOSTILE}"
    return write_json(tmp_path / "sessions.json", [{"id": "s" + HOSTILE, "model": "m" + HOSTILE, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "tool_search", "arguments": json.dumps({"queries": [query]})}}]},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": json.dumps(
            {"queries": [query], "total_available": 3, "results": [{"query": query, "matches": []}], "tools": {}})},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {
            "name": "tool_call", "arguments": json.dumps({"calls": [{"name": tool, "arguments": {}}]})}}]},
        {"role": "tool", "tool_call_id": "c2", "tool_name": "tool_call", "content": "{}"}]}])


def _no_legacy_command(result) -> None:
    for stream in (result.stdout, result.stderr):
        assert "##[" not in stream, [line for line in stream.splitlines() if "##[" in line]


def test_sentences_of_text_output_mark_the_legacy_runner_command(tmp_path: Path):
    catalog = _catalog(tmp_path)
    plan = run_cli("plan", catalog, "--context-length", "1000")
    _no_legacy_command(plan)
    assert f"catalog: cat{MARKED} (3 tools)" in plan.stdout
    # the duplicate tool, said on stderr
    assert f"server 'srv{MARKED}': tool 't{MARKED}' is listed more than once" in plan.stderr

    search = run_cli("search", catalog, "-q", "issue")
    _no_legacy_command(search)
    assert f"]  {MARKED} Create an issue in the repo.\n" in search.stdout

    lint = run_cli("lint", catalog)
    _no_legacy_command(lint)
    assert f"warning: duplicate-in-server: srv{MARKED}/t{MARKED}: listed 2 times" in lint.stdout
    assert f"substitutes 'MCP tool other from server srv{MARKED}'" in lint.stdout

    collapse = run_cli("collapse", catalog, "--context-length", "2k")
    _no_legacy_command(collapse)
    assert f"catalog: cat{MARKED} (2 servers)" in collapse.stdout


def test_sessions_report_lines_mark_the_legacy_runner_command(tmp_path: Path):
    result = run_cli("sessions", _sessions(tmp_path), "--catalog", _catalog(tmp_path))
    assert result.returncode == 0, result.stderr
    _no_legacy_command(result)
    assert f"session s{MARKED} (m{MARKED}, context length unknown," in result.stdout
    assert f"  #1 search 'issue {MARKED}': recorded (empty)" in result.stdout


def test_json_escapes_the_bracket_and_csv_keeps_the_data(tmp_path: Path):
    catalog = _catalog(tmp_path)
    result = run_cli("search", catalog, "-q", "issue", "--json")
    _no_legacy_command(result)
    assert "##\\u005berror]x" in result.stdout
    tools = json.loads(result.stdout)["tools"]
    assert tools["mcp__srv___error_x__t___error_x"]["description"] == HOSTILE + " Create an issue in the repo."
    plan = json.loads(run_cli("plan", catalog, "--json").stdout)
    assert "srv" + HOSTILE in [s["name"] for s in plan["servers"]]
    rows = list(csv.reader(io.StringIO(run_cli("costs", catalog, "--csv").stdout)))
    assert "srv" + HOSTILE in [row[1] for row in rows[1:]]

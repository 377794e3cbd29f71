"""A CI runner reads some log commands anywhere in a line, not only at its start: a GitHub Actions
runner its legacy form ``##[error]…``, an Azure Pipelines agent every ``##vso[…]…``
(``##vso[task.setvariable variable=X]1`` sets a pipeline variable). Tables marked ``##[`` already; a
sentence naming catalog, server or session text (a note, a warning on stderr, a lint finding, a search
result, a sessions report line) printed it raw, and ``##vso[`` went through every output. Every line the
CLI prints as text now writes ``#⟨U+0023⟩[``, ``#⟨U+0023⟩vso[``; ``--json`` writes the bracket as
``\\u005b`` (the same value once parsed), and ``--csv`` marks a cell as a line of text is marked."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from conftest import run_cli, write_json

#: The forms the runners read anywhere in a line, each with the text ``##`` starts.
FORMS = ["##[error]x", "##vso[task.setvariable variable=X]1"]


@pytest.fixture(params=FORMS, ids=["github-legacy", "azure-vso"])
def hostile(request) -> str:
    return request.param


def marked(hostile: str) -> str:
    """``hostile`` as text output shows it: its second ``#`` as the marker."""
    return "#⟨U+0023⟩" + hostile[2:]


def _catalog(tmp_path: Path, hostile: str) -> Path:
    return write_json(tmp_path / "hostile.json", {"name": "cat" + hostile, "servers": [
        {"name": "srv" + hostile, "tools": [
            {"name": "t" + hostile, "description": hostile + " Create an issue in the repo.",
             "inputSchema": {"type": "object"}},
            {"name": "t" + hostile, "description": "Listed twice.", "inputSchema": {"type": "object"}},
            {"name": "other", "description": "", "inputSchema": {"type": "object"}}]},
        {"name": "github", "tools": [{"name": "create_issue", "description": "Open an issue.",
                                      "inputSchema": {"type": "object"}}]}]})


def _sessions(tmp_path: Path, hostile: str) -> Path:
    query = "issue " + hostile
    tool = f"mcp__srv{hostile}__t{hostile}"
    return write_json(tmp_path / "sessions.json", [{"id": "s" + hostile, "model": "m" + hostile, "messages": [
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
        for form in ("##[", "##vso["):
            assert form not in stream, [line for line in stream.splitlines() if form in line]


def test_sentences_of_text_output_mark_the_legacy_runner_command(tmp_path: Path, hostile: str):
    catalog, shown = _catalog(tmp_path, hostile), marked(hostile)
    plan = run_cli("plan", catalog, "--context-length", "1000")
    _no_legacy_command(plan)
    assert f"catalog: cat{shown} (3 tools)" in plan.stdout
    # the duplicate tool, said on stderr
    assert f"server 'srv{shown}': tool 't{shown}' is listed more than once" in plan.stderr

    search = run_cli("search", catalog, "-q", "issue")
    _no_legacy_command(search)
    assert f"]  {shown} Create an issue in the repo.\n" in search.stdout

    lint = run_cli("lint", catalog)
    _no_legacy_command(lint)
    assert f"warning: duplicate-in-server: srv{shown}/t{shown}: listed 2 times" in lint.stdout
    assert f"substitutes 'MCP tool other from server srv{shown}'" in lint.stdout

    collapse = run_cli("collapse", catalog, "--context-length", "2k")
    _no_legacy_command(collapse)
    assert f"catalog: cat{shown} (2 servers)" in collapse.stdout


def test_sessions_report_lines_mark_the_legacy_runner_command(tmp_path: Path, hostile: str):
    shown = marked(hostile)
    result = run_cli("sessions", _sessions(tmp_path, hostile), "--catalog", _catalog(tmp_path, hostile))
    assert result.returncode == 0, result.stderr
    _no_legacy_command(result)
    assert f"session s{shown} (m{shown}, context length unknown," in result.stdout
    assert f"  #1 search 'issue {shown}': recorded (empty)" in result.stdout
    as_json = run_cli("sessions", _sessions(tmp_path, hostile), "--catalog", _catalog(tmp_path, hostile), "--json")
    _no_legacy_command(as_json)
    assert "s" + hostile in json.dumps(json.loads(as_json.stdout), ensure_ascii=False)


def test_json_escapes_the_bracket_and_csv_marks_it(tmp_path: Path, hostile: str):
    catalog = _catalog(tmp_path, hostile)
    result = run_cli("search", catalog, "-q", "issue", "--json")
    _no_legacy_command(result)
    assert hostile.replace("[", "\\u005b", 1) + " Create an issue in the repo." in result.stdout
    tools = json.loads(result.stdout)["tools"]
    assert sorted(tool["description"] for tool in tools.values()) == sorted(
        [hostile + " Create an issue in the repo.", "Open an issue."])
    for command in (["plan"], ["costs"], ["collapse", "--context-length", "2k"], ["lint"]):
        result = run_cli(*command, catalog, "--json")
        _no_legacy_command(result)
        assert "srv" + hostile in json.dumps(json.loads(result.stdout), ensure_ascii=False), command
    plan = json.loads(run_cli("plan", catalog, "--json").stdout)
    assert "srv" + hostile in [s["name"] for s in plan["servers"]]
    # a CSV printed into a CI log is lines of that log (an Azure agent cannot be told to stop reading
    # commands), so a cell marks the command as a line of text does, as it marks a control character
    for command in (["costs"], ["sweep"]):
        result = run_cli(*command, catalog, "--csv")
        _no_legacy_command(result)
        assert "srv" + marked(hostile) in result.stdout, command
    rows = list(csv.reader(io.StringIO(run_cli("costs", catalog, "--csv").stdout)))
    assert "srv" + marked(hostile) in [row[1] for row in rows[1:]]


@pytest.mark.live
def test_a_failed_server_s_stderr_and_name_are_marked(tmp_path: Path, hostile: str):
    """A live server that fails to start is named with the end of its stderr on standard error."""
    script = f"import sys; sys.stderr.write({('fatal ' + hostile)!r} + chr(10)); sys.exit(3)"
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"bad" + hostile: {
        "command": sys.executable, "args": ["-c", script]}}})
    result = run_cli("plan", config, "--timeout", "30")
    assert result.returncode == 2, result.stderr
    _no_legacy_command(result)
    assert f"toolsearch: live: bad{marked(hostile)}: failed after" in result.stderr
    assert f"(stderr: fatal {marked(hostile)})" in result.stderr


def test_the_one_guard_marks_both_forms_and_nothing_else():
    from toolsearch.cli.common import dumps_json
    from toolsearch.cli.textfmt import RUNNER_ANYWHERE_COMMANDS, legacy_command_safe

    assert RUNNER_ANYWHERE_COMMANDS == ("##[", "##vso[")
    text = "a ##[error]x ###vso[task.setvariable variable=X]1 ##VSO[y] #vso[z] ##vso ["
    assert legacy_command_safe(text) == ("a #⟨U+0023⟩[error]x ##⟨U+0023⟩vso[task.setvariable variable=X]1 "
                                         "##VSO[y] #vso[z] ##vso [")
    value = {"k ##vso[a]": [text, "\\##vso[b]"]}
    dumped = dumps_json(value, None)
    assert "##[" not in dumped and "##vso[" not in dumped
    assert json.loads(dumped) == value


def test_a_line_break_in_a_csv_cell_starts_no_runner_command(tmp_path: Path):
    """CSV keeps a line break inside a quoted cell, and a CI log reads it as the start of a line: a
    server named ``sx\\n::error file=a::FORGED`` printed a line that was exactly a runner command.
    Each line of a cell has its leading ``::`` marked as a text line's is."""
    name = "sx\n::error file=a::FORGED\n  ::add-mask::x\n##[error]Z"
    catalog = write_json(tmp_path / "nl.json", {"servers": [{"name": name, "tools": [
        {"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}]})
    for command in (["costs"], ["sweep"]):
        result = run_cli(*command, catalog, "--no-servers", "--csv")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert not [line for line in lines if line.lstrip().startswith("::") or "##[" in line], lines
        assert "⟨U+003A⟩:error file=a::FORGED" in result.stdout, command
    rows = list(csv.reader(io.StringIO(run_cli("costs", catalog, "--no-servers", "--csv").stdout)))
    assert "sx\n⟨U+003A⟩:error file=a::FORGED\n  ⟨U+003A⟩:add-mask::x\n#⟨U+0023⟩[error]Z" in [row[1] for row in rows[1:]]

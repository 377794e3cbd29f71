"""Hostile names in the text tables of ``plan``, ``costs``, ``collapse`` and ``eval``.

* A 100,000-character server name (and a 300-character tool name) is cut in every text table with
  ``…`` and its length, as messages name it; ``--json`` and ``--csv`` keep it whole.
* A name that starts with ``::`` never starts a line, even after leading spaces: the GitHub Actions
  runner trims leading whitespace before it reads ``::error::…`` as a command, so indenting would
  not help. Its first colon is shown as the marker ``⟨U+003A⟩`` instead.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from conftest import run_cli, write_json, write_yaml

LONG_SERVER = "s" * 100_000
LONG_TOOL = "t" * 300
SHORT_SERVER = "s" * 199 + "… (100,000 characters)"
SHORT_TOOL = "t" * 199 + "… (300 characters)"
COMMAND_SERVER = "::error::forged server"
COMMAND_TOOL = "::warning::forged tool"
#: A table cell is at most this wide: a shortened name (about 220 characters) plus room for markers.
LINE_MAX = 1_000


def _catalog(tmp_path: Path) -> Path:
    return write_json(tmp_path / "hostile.json", {"name": "hostile", "servers": [
        {"name": LONG_SERVER, "tools": [{"name": LONG_TOOL, "description": "A tool.", "inputSchema": {"type": "object"}}]},
        {"name": COMMAND_SERVER, "tools": [{"name": COMMAND_TOOL, "description": "Send a message.",
                                            "inputSchema": {"type": "object"}}]},
        {"name": "github", "tools": [{"name": "create_issue", "description": "Open an issue.",
                                      "inputSchema": {"type": "object"}}]},
    ]})


def _runner_commands(text: str) -> list[str]:
    """Lines the runner reads as a command: ``::`` first after leading whitespace (``TrimStart``)."""
    return [line for line in text.splitlines() if line.lstrip().startswith("::")]


def test_runner_safe_marks_a_leading_double_colon_after_whitespace_too():
    from toolsearch.cli.textfmt import name_cell, runner_safe, text_table

    assert runner_safe("::error::x") == "⟨U+003A⟩:error::x"
    assert runner_safe("  \t::error::x") == "  \t⟨U+003A⟩:error::x"
    assert runner_safe("a::error::x") == "a::error::x"
    assert runner_safe(":one colon") == ":one colon"
    assert runner_safe("a ##[error]x ###[warning]y") == "a #⟨U+0023⟩[error]x ##⟨U+0023⟩[warning]y"
    assert runner_safe("::a ##vso[task.setvariable variable=X]1") == (
        "⟨U+003A⟩:a #⟨U+0023⟩vso[task.setvariable variable=X]1")
    table = text_table([["", "::error::x"], ["::warning::y", 1]], ["a", "b"])
    assert _runner_commands(table) == []
    assert "⟨U+003A⟩:warning::y" in table and "⟨U+003A⟩:error::x" in table
    assert name_cell(LONG_SERVER) == SHORT_SERVER
    assert name_cell("github") == "github"


def test_plan_table_cuts_a_long_server_name_and_json_keeps_it(tmp_path: Path):
    catalog = _catalog(tmp_path)
    result = run_cli("plan", catalog, "--context-length", "1m", "--threshold-pct", "50",
                     "--listing-max-tokens", "60000")
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("\n\n")[1]  # the per-server table, between the figures and the listing
    assert table.startswith("server "), table[:100]
    rows = table.splitlines()
    assert len(rows) == 5
    assert all(len(row) < LINE_MAX for row in rows), [len(row) for row in rows]
    assert any(row.startswith(SHORT_SERVER + "  ") for row in rows)
    assert any(row.startswith("⟨U+003A⟩:error::forged server  ") for row in rows)
    # the listing is what the model gets: its group heading keeps the name, but not at a line start
    assert "⟨U+003A⟩:error::forged server tools (1):" in result.stdout
    assert _runner_commands(result.stdout) == []
    data = json.loads(run_cli("plan", catalog, "--json").stdout)
    assert LONG_SERVER in [s["name"] for s in data["servers"]]
    assert COMMAND_SERVER in [s["name"] for s in data["servers"]]


def test_costs_tables_cut_long_names_and_mark_runner_commands(tmp_path: Path):
    catalog = _catalog(tmp_path)
    result = run_cli("costs", catalog, "--tool-names", "as-is")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) < LINE_MAX for line in lines), max(map(len, lines))
    assert any(line.startswith(SHORT_TOOL + "  " + SHORT_SERVER) for line in lines)
    assert any(re.match(r"⟨U\+003A⟩:warning::forged tool +⟨U\+003A⟩:error::forged server  ", line) for line in lines)
    assert any(line.startswith(SHORT_SERVER + "  mcp") for line in lines)
    assert _runner_commands(result.stdout) == []
    rows = list(csv.reader(io.StringIO(run_cli("costs", catalog, "--tool-names", "as-is", "--csv").stdout)))
    assert [LONG_TOOL, LONG_SERVER] in [row[:2] for row in rows]
    data = json.loads(run_cli("costs", catalog, "--tool-names", "as-is", "--json").stdout)
    assert LONG_SERVER in [s["server"] for s in data["servers"]]


def test_collapse_server_table_cuts_long_names_and_marks_runner_commands(tmp_path: Path):
    result = run_cli("collapse", _catalog(tmp_path), "--context-length", "1m")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) < LINE_MAX for line in lines), max(map(len, lines))
    assert any(line.startswith(SHORT_SERVER + "  ") for line in lines)
    assert any(line.startswith("⟨U+003A⟩:error::forged server  ") for line in lines)
    assert _runner_commands(result.stdout) == []


def test_eval_task_table_and_misses_mark_a_task_id_that_is_a_runner_command(tmp_path: Path):
    catalog = _catalog(tmp_path)
    queries = write_yaml(tmp_path / "queries.yaml", {"name": "hostile", "tool_names": "as-is", "tasks": [
        {"id": "::error::forged task", "queries": ["zzz qqq"], "expected": ["create_issue"]},
        {"id": "ok", "queries": ["open an issue"], "expected": ["create_issue"]},
    ]})
    result = run_cli("eval", catalog, queries, "--tool-names", "as-is")
    assert result.returncode == 0, result.stderr
    assert _runner_commands(result.stdout) == []
    assert any(line.startswith("⟨U+003A⟩:error::forged task  ") for line in result.stdout.splitlines())
    assert "  ⟨U+003A⟩:error::forged task: create_issue for 'zzz qqq'" in result.stdout


#: The log commands a runner reads anywhere in a line: GitHub's legacy form and Azure Pipelines'.
ANYWHERE = pytest.mark.parametrize("form", ["##[error]", "##vso[task.setvariable variable=X]"],
                                   ids=["github-legacy", "azure-vso"])


@ANYWHERE
def test_the_legacy_runner_command_form_is_marked_anywhere_in_a_table_or_listing_line(tmp_path: Path, form: str):
    """The runner also reads ``##[error]…`` as a command, anywhere in a line (its legacy form), and an
    Azure Pipelines agent ``##vso[…]…``."""
    catalog = write_json(tmp_path / "legacy.json", {"servers": [{"name": f"a {form}forged", "tools": [
        {"name": "t", "description": "A tool.", "inputSchema": {"type": "object"}}]}]})
    for args in (["plan", catalog, "--context-length", "200k"], ["costs", catalog], ["collapse", catalog]):
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
        assert "##[" not in result.stdout and "##vso[" not in result.stdout, args
        assert f"a #⟨U+0023⟩{form[2:]}forged" in result.stdout, args


@ANYWHERE
def test_check_marks_the_legacy_runner_command_form_in_its_failure_lines(tmp_path: Path, form: str):
    """``check`` names collapsed servers in its failure lines; the Markdown format escapes ``[``."""
    servers = [{"name": f"big {form}forged {i}", "tools": [
        {"name": f"tool_{j}", "description": "Does one thing among many. " * 8, "inputSchema": {"type": "object"}}
        for j in range(30)]} for i in range(3)]
    catalog = write_json(tmp_path / "legacy.json", {"servers": servers})
    result = run_cli("check", catalog, "--context-lengths", "8k", "--goal", "names", "--keep", servers[0]["name"])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "##[" not in result.stdout and "##vso[" not in result.stdout
    assert f"big #⟨U+0023⟩{form[2:]}forged" in result.stdout
    markdown = run_cli("check", catalog, "--context-lengths", "8k", "--goal", "names", "--format", "markdown")
    escaped = form.replace("[", "\\[").replace("]", "\\]")
    assert "##[" not in markdown.stdout and "##vso[" not in markdown.stdout
    assert f"big {escaped}forged" in markdown.stdout


@ANYWHERE
def test_the_summary_line_of_format_github_marks_the_legacy_runner_command_form(tmp_path: Path, form: str):
    """``--format github``: every line but the summary is a ``::`` command (a GitHub runner then reads
    no legacy ``##[`` in it); the summary line is plain text, so ``##[`` there is marked. An Azure
    agent reads ``##vso[`` in any line, so it is marked in the ``::`` lines too."""
    servers = [{"name": f"big {form}forged {i}", "tools": [
        {"name": f"tool_{j}", "description": "Does one thing among many. " * 8, "inputSchema": {"type": "object"}}
        for j in range(30)]} for i in range(3)]
    catalog = write_json(tmp_path / "legacy.json", {"name": f"cat {form}x", "servers": servers})
    check = run_cli("check", catalog, "--context-lengths", "8k", "--goal", "names", "--keep", servers[0]["name"],
                    "--format", "github")
    lint = run_cli("lint", catalog, "--format", "github")
    for result in (check, lint):
        plain = [line for line in result.stdout.splitlines() if not line.startswith("::")]
        assert plain and not [line for line in plain if "##[" in line], result.stdout
        assert "##vso[" not in result.stdout
    assert f"big #⟨U+0023⟩{form[2:]}forged 0" in check.stdout.splitlines()[-1]
    assert f"cat #⟨U+0023⟩{form[2:]}x" in lint.stdout.splitlines()[-1]

"""``toolsearch harnesses`` end to end in a subprocess; expected figures are built by hand from the
catalog (two MCP tools and one core tool) and each harness's documented rule."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from conftest import ceil4, compact, run_cli, write_yaml

ROOT = Path(__file__).resolve().parent.parent

TINY = {
    "name": "Tiny",
    "servers": [
        {"name": "github", "tools": [
            {"name": "create_issue", "description": "Open a new issue in a repository.",
             "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}},
            {"name": "list_issues", "description": "List issues."},
        ]},
        {"name": "shell", "kind": "core", "tools": [{"name": "terminal", "description": "Run a shell command."}]},
    ],
}
CREATE = {"type": "function", "function": {
    "name": "mcp__github__create_issue", "description": "Open a new issue in a repository.",
    "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}}
LIST = {"type": "function", "function": {
    "name": "mcp__github__list_issues", "description": "List issues.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}
TERMINAL = {"type": "function", "function": {
    "name": "terminal", "description": "Run a shell command.",
    "parameters": {"type": "object", "properties": {}, "required": []}}}
MCP_TOKENS = ceil4(len(compact(CREATE)) + len(compact(LIST)))
CORE_TOKENS = ceil4(len(compact(TERMINAL)))
NAMES_TOKENS = ceil4("mcp__github__create_issue\nmcp__github__list_issues")


@pytest.fixture
def tiny(tmp_path):
    return write_yaml(tmp_path / "tiny.yaml", TINY)


def rows_of(*args) -> list[dict]:
    result = run_cli("harnesses", *args, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def pick(rows, harness, length=None):
    return [r for r in rows if r["harness"] == harness and (length is None or r["context_length"] == length)]


def test_json_rows_follow_each_rule(tiny):
    small, large = 1_000, 1_000_000
    rows = rows_of(tiny, "--context-lengths", f"{small},{large}")
    assert all(list(r)[:8] == ["harness", "setting", "context_length", "active", "upfront_tokens", "visible",
                               "flip_at", "source"] for r in rows)
    unset, auto = pick(rows, "claude-code", large)
    assert (unset["setting"], unset["active"], unset["visible"]) == ("unset", True, "names")
    assert unset["upfront_tokens"] == CORE_TOKENS + NAMES_TOKENS
    # auto: the MCP schemas (a few dozen tokens) are under 10 % of 1M, so they go up front
    assert (auto["active"], auto["visible"], auto["upfront_tokens"]) == (False, "full schemas", CORE_TOKENS + MCP_TOKENS)
    assert auto["flip_at"] == math.ceil(MCP_TOKENS * 100 / 10)
    assert pick(rows, "claude-code", small)[1]["active"] is (MCP_TOKENS * 100 > 10 * small)
    qwen = pick(rows, "qwen-code", large)[0]
    assert (qwen["setting"], qwen["active"], qwen["flip_at"]) == ("threshold 10%", False, math.ceil(MCP_TOKENS * 10))
    count = pick(rows, "count", large)[0]
    assert (count["active"], count["flip_at"]) == (False, None)   # 3 tools: under 15
    hermes = pick(rows, "hermes", large)[0]
    assert (hermes["active"], hermes["exact"], hermes["flip_at"]) == (True, True, None)
    plan = json.loads(run_cli("plan", tiny, "--context-length", str(large), "--json").stdout)
    assert hermes["upfront_tokens"] == plan["tools_tokens"]
    assert hermes["measured_tokens"] == plan["deferred_tokens"]


def test_settings_flag_replaces_defaults(tiny):
    rows = rows_of(tiny, "--context-lengths", "200k", "--setting", "claude-code=auto:0",
                   "--setting", "count=2", "--harness", "claude-code", "--harness", "count")
    assert [(r["harness"], r["setting"], r["active"]) for r in rows] == [
        ("claude-code", "auto:0", True), ("count", "from 2 tools", True)]


def test_text_output_has_table_knobs_and_sources(tiny):
    result = run_cli("harnesses", tiny, "--context-lengths", "1m")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "\nAt 1M\n" in out  # the page's heading for the length's rows
    assert "up front (tokens)  visible" in out and "flips at (context length, tokens)" in out  # the app's heading
    assert "Claude Code              model" in out and "Hermes Agent             exact" in out
    assert "https://kiro.dev/docs/cli/mcp/tool-search/" in out
    n = math.ceil(MCP_TOKENS * 100 / 1_000_000) - 1
    assert f"with auto:N, N \u2264 {n} defers at 1M" in out


def test_pins_rows_and_sessions(tiny):
    rows = rows_of(tiny, "--context-lengths", "1m", "--pin-tool", "create_issue")
    pinned = [r for r in rows if "pinned" in r]
    assert {r["harness"] for r in pinned} == {"claude-code", "hermes"}
    hermes = next(r for r in pinned if r["harness"] == "hermes")
    assert hermes["released"] is False and hermes["pinned"] == ["mcp__github__create_issue"]
    assert "eager pins (proposed)" in hermes["setting"]
    assert any("not in released Hermes" in n for n in hermes["notes"])
    claude = next(r for r in pinned if r["harness"] == "claude-code")
    # alwaysLoad: the pinned schema joins the core one (counted together, chars4 rounds once); only the
    # other MCP tool is announced by name
    assert claude["upfront_tokens"] == ceil4(len(compact(TERMINAL)) + len(compact(CREATE))) + ceil4("mcp__github__list_issues")
    assert claude["round_trips_saved"] is None


def test_sessions_default_pins_are_the_most_called_tools():
    catalog = ROOT / "sample_catalogs" / "five-servers.yaml"
    sessions = ROOT / "sample_sessions" / "claude-code.jsonl"
    rows = rows_of(catalog, "--context-lengths", "200k", "--sessions", sessions, "--harness", "hermes")
    pinned = [r for r in rows if "pinned" in r]
    assert len(pinned) == 1 and pinned[0]["pinned"]
    # the discovery calls the sessions recorded before the pinned tools' first uses (the library's figure)
    from toolsearch.analysis import harnesses as H
    from toolsearch.analysis.sessions import load_sessions
    recorded = load_sessions([sessions]).sessions
    assert pinned[0]["round_trips_saved"] == sum(H.discovery_before_first_uses(recorded, pinned[0]["pinned"]).values()) > 0


@pytest.mark.parametrize("args, message", [
    (["--context-lengths", "unknown"], "known context lengths"),
    (["--context-lengths", "200k", "--setting", "claude-code=auto:200"], "claude-code setting 'auto:200'"),
    (["--context-lengths", "200k", "--setting", "cursor=on"], "HARNESS=VALUE"),
    (["--context-lengths", "200k", "--pin-server", "nope"], "no server named 'nope'"),
])
def test_bad_arguments_are_one_line_errors(tiny, args, message):
    result = run_cli("harnesses", tiny, *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_help_shows_two_examples_with_shipped_catalogs():
    result = run_cli("harnesses", "--help")
    assert result.returncode == 0
    examples = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("toolsearch harnesses")]
    assert len(examples) == 2
    for line in examples:
        path = line.split()[2]
        assert (ROOT / path).is_file(), path


def test_text_output_says_each_rows_notes():
    """A row's notes are printed under its knob, as the Harnesses page says them: team-workspace has one
    description Claude Code cuts, which is why its 'full schemas' are fewer tokens than Qwen Code's."""
    result = run_cli("harnesses", str(ROOT / "sample_catalogs" / "team-workspace.yaml"), "--context-lengths", "1m",
                     "--harness", "claude-code")
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if ": note: " in line]
    assert notes == [f"  Claude Code ({setting}): note: 1 description over 2,048 characters cut by Claude Code"
                     for setting in ("unset", "auto")], result.stdout


def test_pin_lines_count_tools_and_sessions_in_words(tiny):
    """The text output's pin lines said "1 tool(s)" and "1 recorded session(s)": counts read right for one."""
    result = run_cli("harnesses", tiny, "--context-lengths", "1m", "--pin-tool", "create_issue")
    assert result.returncode == 0, result.stderr
    assert "(s)" not in result.stdout
    assert "pins, Claude Code: 1 tool cost " in result.stdout and "; no sessions loaded" in result.stdout
    catalog = ROOT / "sample_catalogs" / "five-servers.yaml"
    sessions = ROOT / "sample_sessions" / "claude-code.jsonl"
    result = run_cli("harnesses", catalog, "--context-lengths", "200k", "--sessions", sessions, "--harness", "hermes")
    assert result.returncode == 0, result.stderr
    assert "(s)" not in result.stdout
    assert re.search(r"pins, Hermes Agent \(not released\): \d+ tools? cost [+-][\d,]+ tokens on every "
                     r"request; saves [\d,]+ round trips? in 3 recorded sessions\n", result.stdout), result.stdout

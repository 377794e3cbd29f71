"""Counts in user-facing messages read right for one and for many: ``1 tool``, ``2 tools``,
``1 line was``, ``3 lines were``; never ``tool(s)``. Checked through the console script (plan,
strategies) and a real MCP server over stdio."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import run_cli, write_json, write_yaml
from toolsearch.analysis import wording as analysis_wording
from toolsearch.engine.wording import agree, counted

ROOT = Path(__file__).resolve().parent.parent
MALFORMED = ROOT / "tests" / "malformed_mcp_server.py"
TOOLS = [{"name": "get_user", "description": "Get a user."},
         {"name": "list_users", "description": "List users."},
         {"name": "delete_user", "description": "Delete a user."}]


def test_counted_and_agree_take_the_singular_only_for_one() -> None:
    assert [counted(n, "tool") for n in (0, 1, 2, 1200)] == ["0 tools", "1 tool", "2 tools", "1,200 tools"]
    assert [counted(n, "secret echo", "secret echoes") for n in (1, 9)] == ["1 secret echo", "9 secret echoes"]
    assert [agree(n, "was", "were") for n in (0, 1, 3)] == ["were", "was", "were"]
    assert [agree(names, "variable", "variables") for names in (["A"], ["A", "B"], ())] == [
        "variable", "variables", "variables"]
    # the analysis layer re-exports the engine's helpers (existing imports keep working)
    assert analysis_wording.counted is counted and analysis_wording.agree is agree


@pytest.mark.parametrize(("exclude", "message"), [
    (["delete_user"], "1 tool left out by tools.include/exclude"),
    (["delete_user", "list_users"], "2 tools left out by tools.include/exclude"),
])
def test_plan_counts_the_tools_that_include_exclude_leaves_out(tmp_path, exclude, message) -> None:
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [
        {"name": "gh", "tools": TOOLS, "config": {"tools": {"exclude": exclude}}}]})
    result = run_cli("plan", catalog, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["problems"] == [{"severity": "info", "where": f"{catalog}: server 'gh'", "message": message}]
    assert data["deferred_count"] == 3 - len(exclude)


def test_strategies_timeline_counts_unlocked_tools_and_unknown_names(tmp_path) -> None:
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [{"name": "gh", "tools": TOOLS}]})
    skills = tmp_path / "skills"
    for name, linked in (("one", "mcp__gh__get_user mcp__gh__nope"),
                         ("two", "mcp__gh__list_users mcp__gh__delete_user mcp__gh__x mcp__gh__y")):
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Skill {name}.\nmetadata:\n"
                                                f"  include_tools: {linked}\n---\nBody.\n", encoding="utf-8")
    events = write_yaml(tmp_path / "events.yaml", [{"read_skill": "one"}, "compaction",
                                                   {"read_skill": "two"}, "compaction"])
    result = run_cli("strategies", catalog, "--skills", "skills", "--events", events, "--tool-tokens", "40", "--json",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    linked = next(d for d in json.loads(result.stdout) if d["strategy"] == "skill_linked")
    assert [step["message"].split("; ", 1)[-1] for step in linked["timeline"][1:]] == [
        "1 tool unlocked, appended to tools (40 tokens)",
        "1 unlocked tool is no longer callable, removed from tools",
        "2 tools unlocked, appended to tools (80 tokens)",
        "2 unlocked tools are no longer callable, removed from tools",
    ]
    hint = "ignored (include_tools takes tool wire names, e.g. mcp__github__create_issue)"
    one, two = (Path("skills") / n / "SKILL.md" for n in ("one", "two"))
    warnings = [line for line in result.stderr.splitlines() if "include_tools" in line]
    assert warnings == [
        f"toolsearch: warning: {one}: metadata.include_tools: skill 'one' names mcp__gh__nope, "
        f"not a tool of this catalog; {hint}",
        f"toolsearch: warning: {two}: metadata.include_tools: skill 'two' names mcp__gh__x, "
        f"mcp__gh__y, not tools of this catalog; {hint}",
    ]


@pytest.mark.parametrize(("flag", "lines", "counted_lines"), [
    ("--noise-once", 1, "1 line on the server's stdout was not a JSON-RPC message"),
    ("--noise", 3, "3 lines on the server's stdout were not JSON-RPC messages"),
])
def test_plan_counts_stray_stdout_lines_of_a_live_server(tmp_path, flag, lines, counted_lines) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "noisy": {"command": sys.executable, "args": [str(MALFORMED), flag]}}})
    result = run_cli("plan", config, "--json")
    assert result.returncode == 0, result.stderr
    verb = "was" if lines == 1 else "were"
    status = next(line for line in result.stderr.splitlines() if line.startswith("toolsearch: live: noisy: ok"))
    assert status.endswith(f"; 1 malformed tool skipped; {lines} stdout "
                           f"{'line' if lines == 1 else 'lines'} {verb} not JSON-RPC"), status
    assert (f"toolsearch: catalog warning: live: server 'noisy': {counted_lines} "
            f"(last: 'server log: handling a request')") in result.stderr.splitlines()


@pytest.mark.parametrize(("header", "expected", "warning"), [
    ("Bearer ${TOOLSEARCH_TEST_UNSET_A}",
     "unset variable in url or headers: TOOLSEARCH_TEST_UNSET_A; set it and connect again (nothing was sent)",
     "placeholder left as written because the variable is unset or empty (docs/reference.md §26.2): TOOLSEARCH_TEST_UNSET_A"),
    ("${TOOLSEARCH_TEST_UNSET_A} ${TOOLSEARCH_TEST_UNSET_B}",
     "unset variables in url or headers: TOOLSEARCH_TEST_UNSET_A, TOOLSEARCH_TEST_UNSET_B; "
     "set them and connect again (nothing was sent)",
     "placeholders left as written because the variables are unset or empty (docs/reference.md §26.2): "
     "TOOLSEARCH_TEST_UNSET_A, TOOLSEARCH_TEST_UNSET_B"),
])
def test_a_remote_server_names_its_unset_variables_in_the_right_number(tmp_path, monkeypatch, header, expected,
                                                                       warning) -> None:
    monkeypatch.delenv("TOOLSEARCH_TEST_UNSET_A", raising=False)
    monkeypatch.delenv("TOOLSEARCH_TEST_UNSET_B", raising=False)
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": header}}}})
    result = run_cli("plan", config, "--json")
    lines = result.stderr.splitlines()
    assert [re.sub(r"failed after [0-9.]+ s", "failed after N s", line) for line in lines[:1]] == [
        f"toolsearch: live: remote: failed after N s: {expected}"], result.stderr
    assert f"toolsearch: catalog warning: live: server 'remote': {warning}" in lines


@pytest.mark.parametrize(("tools", "heading"), [(TOOLS[:1], "catalog: One (1 tool)"),
                                                (TOOLS[:2], "catalog: One (2 tools)")])
def test_plan_and_strategies_headings_count_the_catalog_tools(tmp_path, tools, heading) -> None:
    catalog = write_yaml(tmp_path / "catalog.yaml", {"name": "One", "servers": [{"name": "gh", "tools": tools}]})
    plan = run_cli("plan", catalog)
    assert plan.returncode == 0, plan.stderr
    assert plan.stdout.splitlines()[0] == heading
    strategies = run_cli("strategies", catalog)
    assert strategies.returncode == 0, strategies.stderr
    assert strategies.stdout.splitlines()[0].startswith(heading + "; skills: 0; tokenizer ")


def test_snapshot_and_synth_count_servers_and_tools(tmp_path) -> None:
    out = tmp_path / "one.json"
    synth = run_cli("synth", "--tools", "1", "--servers", "1", "-o", out)
    assert synth.returncode == 0, synth.stderr
    assert synth.stderr.startswith(f"toolsearch: wrote {out}: 1 server, 1 tool, ")
    assert json.loads(out.read_text(encoding="utf-8"))["name"] == "Synthetic catalog: 1 tool on 1 server (seed 0)"
    many = run_cli("synth", "--tools", "4", "--servers", "2", "-o", out)
    assert many.stderr.startswith(f"toolsearch: wrote {out}: 2 servers, 4 tools, ")


def test_a_live_server_status_counts_its_tools() -> None:
    from toolsearch.live.client import ServerStatus

    one = ServerStatus("gh", "stdio", state="ok", tool_count=1, pages=1, elapsed=0.5)
    assert one.summary() == "gh: ok, 1 tool in 0.50 s"
    two = ServerStatus("gh", "stdio", state="ok", tool_count=2, pages=2, elapsed=0.5, flags=["x"])
    assert two.summary() == "gh: ok, 2 tools (2 pages) in 0.50 s; flagged: x"

"""Reserved names: the bridge's wire name per provider transport (plan --transport) and the
``reserved-name`` lint rule for catalog tools that collide with a bridge name or its alias."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli, write_yaml
from toolsearch.analysis.lint import lint
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.catalog import load_sources
from toolsearch.engine.transport import TRANSPORTS, transport_note, wire_name, wire_names, wire_tools

TINY = {"name": "Tiny", "servers": [
    {"name": "github", "tools": [{"name": "create_issue", "description": "Open a new issue."}]},
    {"name": "shell", "kind": "core", "tools": [{"name": "terminal", "description": "Run a shell command."}]},
]}
CLASH = {"name": "Clash", "servers": [
    {"name": "search", "kind": "plugin", "tools": [
        {"name": "tool_search", "description": "Search our docs."},
        {"name": "hermes_tool_search", "description": "Search Hermes things."},
        {"name": "lookup", "description": "Look a thing up."}]},
    {"name": "github", "tools": [{"name": "tool_call", "description": "An MCP tool with a bridge-like name."}]},
]}


@pytest.fixture
def tiny(tmp_path):
    return write_yaml(tmp_path / "tiny.yaml", TINY)


def test_wire_names_per_transport():
    assert TRANSPORTS[0] == "chat-completions"
    assert wire_name("tool_search") == "tool_search"
    assert wire_name("tool_search", "xai") == "hermes_tool_search"
    assert wire_name("tool_search", "openai-responses") == "hermes_tool_search"
    assert wire_names("xai") == {"tool_search": "hermes_tool_search", "tool_describe": "tool_describe",
                                 "tool_call": "tool_call"}
    with pytest.raises(ValueError, match="unknown transport"):
        wire_name("tool_search", "grpc")


def test_wire_tools_rename_only_the_reserved_bridge(tiny):
    plan = Inspector.from_files([tiny]).plan(ToolSearchConfig(), 200_000)
    sent = wire_tools(plan.tools, "xai", plan.activated)
    assert [t["function"]["name"] for t in plan.tools][-3:] == ["tool_search", "tool_describe", "tool_call"]
    assert [t["function"]["name"] for t in sent][-3:] == ["hermes_tool_search", "tool_describe", "tool_call"]
    for before, after in zip(plan.tools, sent):
        assert {**after["function"], "name": before["function"]["name"]} == before["function"]
    assert wire_tools(plan.tools, "chat-completions", True) == plan.tools
    assert plan.tools[-3]["function"]["name"] == "tool_search"  # the plan's own array is not changed
    off = Inspector.from_files([tiny]).plan(ToolSearchConfig(enabled="off"), 200_000)
    assert wire_tools(off.tools, "xai", off.activated) == off.tools
    assert "no bridge tools" in transport_note("xai", False)


def test_plan_default_output_is_unchanged_and_transport_shows_the_alias(tiny):
    default = run_cli("plan", tiny, "--context-length", "200k", "--json")
    assert default.returncode == 0, default.stderr
    data = json.loads(default.stdout)
    assert "transport" not in data and "bridge_wire_names" not in data
    inspector = Inspector(load_sources([tiny]))
    assert data["tools"] == json.loads(json.dumps(inspector.plan(ToolSearchConfig(), 200_000).tools))
    xai = json.loads(run_cli("plan", tiny, "--context-length", "200k", "--json", "--transport", "xai").stdout)
    assert xai["transport"] == "xai" and xai["bridge_wire_names"]["tool_search"] == "hermes_tool_search"
    assert [t["function"]["name"] for t in xai["tools"]] == [
        "terminal", "hermes_tool_search", "tool_describe", "tool_call"]
    assert {k: v for k, v in xai.items() if k not in ("tools", "transport", "bridge_wire_names")} == \
        {k: v for k, v in data.items() if k != "tools"}
    text = run_cli("plan", tiny, "--context-length", "200k").stdout
    assert "transport" not in text
    text_xai = run_cli("plan", tiny, "--context-length", "200k", "--transport", "openai-responses").stdout
    assert "transport openai-responses: tool_search is reserved there, sent as hermes_tool_search" in text_xai


def test_lint_flags_tools_named_like_the_bridge(tmp_path):
    path = write_yaml(tmp_path / "clash.yaml", CLASH)
    report = lint(Inspector(load_sources([path]), "as-is"))
    found = sorted((f.server, f.tool, f.severity) for f in report.findings if f.rule == "reserved-name")
    assert found == [("github", "tool_call", "error"), ("search", "hermes_tool_search", "error"),
                     ("search", "tool_search", "error")]
    prefixed = lint(Inspector(load_sources([path])))
    # prefixed: the MCP tool becomes mcp__github__tool_call; plugin tools keep their names
    assert sorted(f.tool for f in prefixed.findings if f.rule == "reserved-name") == ["hermes_tool_search", "tool_search"]


def test_lint_cli_reports_the_rule(tmp_path):
    path = write_yaml(tmp_path / "clash.yaml", CLASH)
    result = run_cli("lint", path, "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    hits = [f for f in findings if f["rule"] == "reserved-name"]
    assert {f["tool"] for f in hits} == {"tool_search", "hermes_tool_search"}
    assert all("hermes_tool_search" in f["message"] or "bridge tool" in f["message"] for f in hits)


def test_model_view_shows_the_array_per_transport():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": "team-workspace"})
    at.run()
    at.switch_page("toolsearch/ui/model_view.py").run()
    at.session_state["mv_tab"] = "Tools array (JSON)"
    at.run()
    assert not at.exception, at.exception
    plan = Inspector.from_files([root / "sample_catalogs" / "team-workspace.yaml"]).plan(ToolSearchConfig(), 200_000)
    assert json.dumps(plan.tools, ensure_ascii=False, indent=2) in [c.value for c in at.code]  # default: as is
    at.selectbox(key="mv_transport").set_value("xai").run()
    assert not at.exception, at.exception
    shown = json.loads(next(c.value for c in at.code if c.value.startswith("[")))
    assert shown == wire_tools(plan.tools, "xai", plan.activated)
    assert [t["function"]["name"] for t in shown][-3:] == ["hermes_tool_search", "tool_describe", "tool_call"]
    assert any("sent as hermes_tool_search" in c.value for c in at.caption)

"""A server defined in several catalog files is merged into one server: that is said where the user
looks, not only on stderr: in ``sessions --json``'s problems (as ``plan --json`` and ``lint --json``
carry it) and in the app's sidebar under the catalog controls."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.ui.text import md_escape

ROOT = Path(__file__).absolute().parent.parent
SESSIONS = ROOT / "sample_sessions" / "openai-messages.json"
MERGED = ("defined 2 times ({a}, {b}); a harness keys servers by name, so their tools are merged into one server")


def _two_files(tmp_path: Path) -> tuple[Path, Path]:
    tool = {"type": "object", "properties": {"title": {"type": "string"}}}
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(yaml.safe_dump({"servers": [{"name": "github", "tools": [
        {"name": "create_issue", "description": "Open a new issue.", "inputSchema": tool}]}]}), encoding="utf-8")
    b.write_text(yaml.safe_dump({"servers": [{"name": "github", "tools": [
        {"name": "list_issues", "description": "List issues.", "inputSchema": tool}]},
        {"name": "slack", "tools": [{"name": "post_message", "description": "Post.", "inputSchema": tool}]}]}),
        encoding="utf-8")
    return a, b


def test_sessions_json_problems_carry_the_merge(tmp_path):
    a, b = _two_files(tmp_path)
    done = run_cli("sessions", SESSIONS, "--catalog", a, b, "--json")
    assert done.returncode == 0, done.stderr
    line = f"catalog warning: server 'github': {MERGED.format(a=a, b=b)}"
    assert f"toolsearch: {line}" in done.stderr.splitlines()
    assert json.loads(done.stdout)["problems"] == [line]
    # one catalog file, nothing merged: no problem
    alone = run_cli("sessions", SESSIONS, "--catalog", b, "--json")
    assert json.loads(alone.stdout)["problems"] == []


def test_plan_and_lint_json_carry_the_merge(tmp_path):
    a, b = _two_files(tmp_path)
    plan = json.loads(run_cli("plan", a, b, "--json").stdout)
    assert {"severity": "warning", "where": "server 'github'", "message": MERGED.format(a=a, b=b)} in plan["problems"]
    lint = json.loads(run_cli("lint", a, b, "--json").stdout)
    assert any(f["message"] == f"server 'github': {MERGED.format(a=a, b=b)}" for f in lint["findings"])


def test_sidebar_says_which_servers_were_merged():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"with": "github-full"})
    at.run()
    assert not at.exception, at.exception
    said = [w.value for w in at.sidebar.warning]
    assert said == [md_escape("Server 'github': defined 2 times (sample_catalogs/github-full.yaml, "
                              "sample_catalogs/team-workspace.yaml); a harness keys servers by name, so their tools "
                              "are merged into one server.")], said
    # the default sample alone merges nothing: no warning
    plain = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    plain.run()
    assert not [w.value for w in plain.sidebar.warning]

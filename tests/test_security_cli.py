"""Secrets and terminal safety against a hostile stdio MCP server (``tests/hostile_mcp_server.py``).

Whatever the server echoes (stderr, server info, tool names, descriptions, schema defaults and
enums, JSON-RPC error message and data, tool results), no secret from the config reaches stdout,
stderr, JSON or a snapshot, and no raw control character reaches the terminal.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from conftest import run_cli_process as run_cli, write_json
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_mcp_server.py"
ENV_SECRET = "envSECRET-4242-abcd"
ARG_SECRET = "argSECRET-9999-wxyz"
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MASK = C.SECRET_MASK


@pytest.fixture()
def hostile_config(tmp_path) -> Path:
    return write_json(tmp_path / "mcp.json", {"mcpServers": {
        "hostile": {"command": sys.executable, "args": [str(HOSTILE), f"--token={ARG_SECRET}"],
                    "env": {"HOSTILE_SECRET": ENV_SECRET}},
        "crash": {"command": sys.executable, "args": [str(HOSTILE), "--crash", "--api-key", ARG_SECRET],
                  "env": {"HOSTILE_SECRET": ENV_SECRET}}}})


def _clean(*texts: str) -> None:
    for text in texts:
        assert ENV_SECRET not in text and ARG_SECRET not in text
        assert "envSECRET" not in text and "argSECRET" not in text  # not even a cut-off piece
        assert not RAW_CONTROL.search(text), repr(RAW_CONTROL.search(text).group())


def test_plan_json_and_text_never_show_an_echoed_secret_or_a_raw_escape(hostile_config) -> None:
    result = run_cli("plan", hostile_config, "--json")
    _clean(result.stdout, result.stderr)
    data = json.loads(result.stdout)
    hostile = next(s for s in data["servers"] if s["name"] == "hostile")
    assert hostile["tool_count"] == 3
    assert "- mcp__hostile__leak_____: A tool named after the secret \x1b[31mred" in data["listing"]  # JSON-escaped
    assert "toolsearch: live: hostile: ok, 3 tools" in result.stderr
    assert "flagged: 9 secret echoes masked" in result.stderr
    assert "the server sent back a value that matches a secret from the config" in result.stderr
    crash = [line for line in result.stderr.splitlines() if line.startswith("toolsearch: live: crash: failed")]
    assert len(crash) == 1 and f"hostile server starting with {MASK}" in crash[0]
    assert "⟨U+001B⟩[31mred" in crash[0]  # the escape is shown, not sent
    text = run_cli("plan", hostile_config)
    _clean(text.stdout, text.stderr)
    assert "⟨U+0007⟩bell ⟨U+001B⟩]0;pwned…" in text.stdout  # BEL and the OSC title sequence, as markers


def test_describe_shows_masked_defaults_enums_and_names(hostile_config) -> None:
    result = run_cli("describe", hostile_config, "mcp__hostile__echo", "--json")
    _clean(result.stdout, result.stderr)
    tool = json.loads(result.stdout)["tools"]["mcp__hostile__echo"]
    props = tool["parameters"]["properties"]
    assert props["text"]["default"] == f"{MASK} {MASK}"
    assert props["mode"]["enum"] == ["plain", f"{MASK} {MASK}"]
    assert props["nested"]["properties"]["deep"]["default"] == f"x{MASK} {MASK}x"
    assert f"Uses key {MASK} {MASK}." in tool["description"]


def test_call_results_and_error_data_are_masked_with_a_note(hostile_config) -> None:
    ok = run_cli("call", hostile_config, "mcp__hostile__echo", "-a", '{"text": "hi"}', "--json")
    _clean(ok.stdout, ok.stderr)
    outcome = json.loads(ok.stdout)
    assert outcome["response"]["structuredContent"] == {"secret": f"{MASK} {MASK}", "deep": [{"k": f"{MASK} {MASK}"}]}
    assert any(n.startswith("the server sent back a value that matches a secret from the config") for n in outcome["notes"])
    failed = run_cli("call", hostile_config, "mcp__hostile__fail", "--json")
    _clean(failed.stdout, failed.stderr)
    response = json.loads(failed.stdout)["response"]
    assert response["code"] == -32001 and response["error"].startswith(f"denied for {MASK} {MASK}")
    assert response["data"] == {"detail": {"list": [f"secret={MASK} {MASK}", 7, {"again": f"{MASK} {MASK}"}]},
                                "raw": f"{MASK} {MASK}"}
    text = run_cli("call", hostile_config, "mcp__hostile__echo", "-a", '{"text": "hi"}')
    _clean(text.stdout, text.stderr)
    assert "note: the server sent back a value that matches a secret" in text.stdout


def test_snapshot_file_and_output_are_clean(hostile_config, tmp_path) -> None:
    out = tmp_path / "snap.yaml"
    result = run_cli("snapshot", hostile_config, "-o", out)
    _clean(result.stdout, result.stderr)
    text = out.read_text(encoding="utf-8")
    assert ENV_SECRET not in text and ARG_SECRET not in text
    data = yaml.safe_load(text)
    server = data["servers"][0]
    assert server["info"]["name"].startswith(f"hostile {MASK} {MASK}")
    assert [t["name"] for t in server["tools"]] == ["echo", "fail", f"leak_{MASK}"]
    stdout = run_cli("snapshot", hostile_config)
    _clean(stdout.stdout, stdout.stderr)


def test_secret_arguments_are_masked_in_messages(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"gone": {
        "command": "/nonexistent/bin/server", "args": ["--password", "pw-secret-123", f"--api-key={ARG_SECRET}"]}}})
    result = run_cli("plan", config, "--json")
    _clean(result.stdout, result.stderr)
    assert "pw-secret-123" not in result.stderr


def test_secret_options_inside_a_command_that_holds_a_whole_command_line_are_masked(tmp_path) -> None:
    """``command`` written as a whole command line (no program has that name, so it fails to start,
    and the failure names it): its secret options are masked as they are in ``args``."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"whole": {
        "command": f"{sys.executable} -m server --token {ARG_SECRET} --api-key=cmd-secret-4711 -e KEY=env-secret-77"}}})
    result = run_cli("plan", config)
    _clean(result.stdout, result.stderr)
    assert "cmd-secret-4711" not in result.stdout + result.stderr
    assert "env-secret-77" not in result.stdout + result.stderr
    assert f"-m server --token {MASK} --api-key={MASK} -e KEY={MASK}" in result.stderr

"""Commands that read SOURCE files through the shared loader (:func:`toolsearch.cli.common.load_sources`),
given MCP client config files whose servers do not list their tools, run as a user runs them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import run_cli, timed_out, write_json

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUERIES = ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"
SESSIONS = ROOT / "sample_sessions" / "hermes-export.jsonl"
SERVER = Path(__file__).resolve().parent / "mcp_test_server.py"


def _unlisted(path: Path, failed: str, option: str = "") -> str:
    """The last stderr line for a config none of whose servers listed its tools."""
    count = failed.count("'") // 2
    servers, reason, fix = (("1 server", "the reason is", "the server") if count == 1
                            else (f"{count} servers", "the reasons are", "the servers"))
    return (f"toolsearch: error: {option}{path}: no server listed its tools ({servers} failed: {failed}; {reason} "
            f"above), so nothing was read from it; fix {fix}, or give a catalog saved by toolsearch snapshot")


def _refused(done, line: str) -> None:
    assert (done.returncode, done.stdout) == (2, ""), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == line, done.stderr


def test_plan_and_costs_refuse_a_config_whose_every_server_failed(tmp_path):
    """plan printed an empty plan and exited 0 (tier 0, "0 tools") when no server of the config
    started: each server's failure is said on its own line, then the file is refused, exit 2."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "gone": {"command": str(tmp_path / "no-such-server")}, "broken": {"args": ["x"]}}})
    for command in ("plan", "costs"):
        done = run_cli(command, config)
        _refused(done, _unlisted(config, "'gone', 'broken'"))
        assert "toolsearch: live: gone: failed after " in done.stderr
        assert f"cannot start '{tmp_path / 'no-such-server'}': command not found" in done.stderr
        assert "toolsearch: live: broken: failed after " in done.stderr
    # beside a catalog file that reads, the config is still an unreadable source (as a missing file is)
    _refused(run_cli("plan", TEAM, config, "--json"), _unlisted(config, "'gone', 'broken'"))


@pytest.mark.parametrize("args", [
    ("search", "{c}", "-q", "create issue"), ("describe", "{c}", "mcp__github__create_issue"),
    ("explain", "{c}", "-q", "create issue"), ("sweep", "{c}"), ("recommend", "{c}", "--context-lengths", "32k",
    "--goal", "names"), ("check", "{c}", "--context-lengths", "32k", "--goal", "names"), ("report", "{c}", "-o", "{o}"),
    ("eval", "{c}", str(QUERIES)), ("lint", "{c}"), ("diff", str(TEAM), "{c}"), ("collapse", "{c}"),
    ("strategies", "{c}"), ("harnesses", "{c}", "--context-lengths", "32k"),
], ids=lambda args: args[0])
def test_every_command_of_the_shared_loader_refuses_it(tmp_path, args):
    """An entry that cannot be used (no command, no url) fails without starting anything: the
    same refusal in every command that reads SOURCE files."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"broken": {"args": ["x"]}}})
    out = tmp_path / "report.html"
    _refused(run_cli(*[a.format(c=config, o=out) for a in args]), _unlisted(config, "'broken'"))
    assert not out.exists()


def test_the_option_that_named_the_config_is_said(tmp_path):
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"broken": {"args": ["x"]}}})
    _refused(run_cli("check", TEAM, "--baseline", config, "--context-lengths", "32k", "--goal", "names"),
             _unlisted(config, "'broken'", "--baseline: "))
    _refused(run_cli("sessions", SESSIONS, "--catalog", config), _unlisted(config, "'broken'", "--catalog: "))


@pytest.mark.live
def test_a_config_where_some_server_listed_still_works_with_the_failure_warned(tmp_path):
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "local": {"command": sys.executable, "args": [str(SERVER), "--name", "local"]},
        "broken": {"args": ["x"]}}})
    done = run_cli("costs", config, "--json")
    assert done.returncode == 0, done.stderr
    assert {s["server"] for s in json.loads(done.stdout)["servers"]} == {"local"}
    assert "toolsearch: live: broken: failed after " in done.stderr and "error" not in done.stderr


@pytest.mark.live
def test_recommend_refusing_a_partly_listed_config_gives_a_way_out(tmp_path):
    """``recommend`` refuses a config one of whose servers did not list its tools; its advice was
    "use a catalog saved by toolsearch snapshot", and a snapshot taken then records the server as
    failed, which ``recommend`` refuses in turn. The line now also offers leaving the server out, and
    says which snapshot does: one taken while the server listed its tools."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "local": {"command": sys.executable, "args": [str(SERVER), "--name", "local"]},
        "broken": {"args": ["x"]}}})
    done = run_cli("recommend", config, "--context-lengths", "32k", "--goal", "names")
    _refused(done, "toolsearch: error: recommend: 1 server did not list its tools ('broken'; the reason is above), "
                   "so the catalog is incomplete; fix the server or leave it out of the config, or give a catalog "
                   "toolsearch snapshot saved while it listed its tools (a snapshot taken now records it as failed)")


@pytest.mark.parametrize("args", [
    ("check", "{c}", "--context-lengths", "32k", "--goal", "names"), ("costs", "{c}"), ("report", "{c}", "-o", "{o}"),
    ("eval", "{c}", str(QUERIES)), ("diff", "{c}", str(TEAM)), ("collapse", "{c}"),
], ids=lambda args: args[0])
def test_timeout_bounds_the_connect_as_in_plan(tmp_path, args):
    """These commands had no --timeout, so a server that never answers held them for the default
    connect budget; they take plan's option (alias --connect-timeout), for that budget."""
    helped = " ".join(run_cli(args[0], "--help").stdout.split())
    assert "--timeout SECONDS, --connect-timeout SECONDS live servers: seconds per server for start-up + " \
           "handshake + listing when the config sets no connect_timeout" in helped, helped
    mute = write_json(tmp_path / "mcp.json", {"mcpServers": {"mute": {
        "command": sys.executable, "args": ["-c", "import time; time.sleep(60)"]}}})
    out = tmp_path / "report.html"
    done = run_cli(*[a.format(c=mute, o=out) for a in args], "--timeout", "1")
    assert "toolsearch: live: mute: failed after " in done.stderr
    assert re.search(timed_out("1", "connecting"), done.stderr), done.stderr
    _refused(done, _unlisted(mute, "'mute'"))


@pytest.mark.live
def test_recommend_and_check_name_twelve_failed_servers_and_count_the_rest(tmp_path):
    """With some servers listed and many failed, the refusal named every failed server on its one
    line (each already has a line of its own above), and said "the reason is" for all of them."""
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "local": {"command": sys.executable, "args": [str(SERVER), "--name", "local"]},
        **{f"broken{i:02d}": {"args": ["x"]} for i in range(20)}}})
    named = ", ".join(f"'broken{i:02d}'" for i in range(12))
    for command, extra in (("recommend", ()), ("check", ("--threshold-pct", "5"))):
        done = run_cli(command, config, "--context-lengths", "32k", "--goal", "names", *extra)
        _refused(done, f"toolsearch: error: {command}: 20 servers did not list their tools ({named} and 8 more; the "
                       "reasons are above), so the catalog is incomplete; fix the servers or leave them out of the "
                       "config, or give a catalog toolsearch snapshot saved while they listed their tools (a snapshot "
                       "taken now records them as failed)")
        assert all(f"toolsearch: live: broken{i:02d}: failed after " in done.stderr for i in range(20))

"""``recommend --keep-called`` (and ``report --keep-called``): every server whose tools the recorded
sessions called is kept at names or better, as if given with ``--keep``, and the output says
which servers were added. The shipped sessions (team-workspace) call github, linear, slack and
grafana; with goal ``listed`` the plain recommendation collapses all of them to summary lines."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
STATE = ROOT / "sample_sessions" / "state.db"
LENGTHS = ("--context-lengths", "32k,200k,1m", "--goal", "listed")
CALLED = ["github", "grafana", "linear", "slack"]  # sorted by name


def _json(*args: object) -> dict:
    result = run_cli("recommend", *args, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def test_keep_called_keeps_every_called_server_named_and_says_which() -> None:
    # the case the option is for: the sessions alone do not move the recommendation
    plain = _json(TEAM, *LENGTHS, "--sessions", STATE)
    assert set(CALLED) <= {u["name"] for u in plain["unnamed"]}
    assert all(c["called_listed"] == 0 and c["called_total"] == 7 for c in plain["contexts"])
    data = _json(TEAM, *LENGTHS, "--sessions", STATE, "--keep-called")
    assert data["reached"] is True
    assert data["keep"] == CALLED
    assert not {u["name"] for u in data["unnamed"]} & set(CALLED)
    assert all(c["called_listed"] == c["called_total"] == 7 for c in data["contexts"])
    added = data["keep_called"]["added"]
    assert [(s["name"], s["tools_called"]) for s in added] == [("github", 2), ("grafana", 3), ("linear", 1),
                                                                ("slack", 1)]
    assert added[0]["tools"] == ["mcp__github__create_issue", "mcp__github__get_job_logs"]
    assert data["keep_called"]["not_keepable"] == []

    text = run_cli("recommend", TEAM, *LENGTHS, "--sessions", STATE, "--keep-called")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[2] == ("kept named because the sessions called them: github (2 tools called), grafana (3 tools called), "
                        "linear (1 tool called), slack (1 tool called)")
    assert "kept named at every length: github, grafana, linear, slack" in lines[1]


def test_keep_called_is_keep_given_by_hand() -> None:
    # one path: the same settings as naming each server with --keep
    by_hand = _json(TEAM, *LENGTHS, "--sessions", STATE, *[w for s in CALLED for w in ("--keep", s)])
    called = _json(TEAM, *LENGTHS, "--sessions", STATE, "--keep-called")
    assert (called["threshold_pct"], called["listing_max_tokens"]) == (by_hand["threshold_pct"],
                                                                       by_hand["listing_max_tokens"])
    assert called["contexts"] == by_hand["contexts"]


def test_keep_called_with_keep_and_except() -> None:
    data = _json(TEAM, *LENGTHS, "--sessions", STATE, "--keep-called", "--keep", "slack", "--except", "github")
    kc = data["keep_called"]
    assert [s["name"] for s in kc["added"]] == ["grafana", "linear"]
    assert [s["name"] for s in kc["given"]] == ["slack"]
    assert [s["name"] for s in kc["excepted"]] == ["github"]  # the explicit exception wins
    assert data["keep"] == ["slack", "grafana", "linear"]
    assert "github" in {u["name"] for u in data["unnamed"]}
    text = run_cli("recommend", TEAM, *LENGTHS, "--sessions", STATE, "--keep-called", "--except", "github")
    assert ("called in the sessions but allowed to collapse (an exception wins): github (2 tools called)"
            in text.stdout.splitlines())


def test_yaml_block_is_unchanged_in_form_and_its_gate_keeps_them() -> None:
    result = run_cli("recommend", TEAM, *LENGTHS, "--sessions", STATE, "--keep-called", "--yaml")
    assert result.returncode == 0, result.stderr
    assert set(yaml.safe_load(result.stdout)["tools"]["tool_search"]) == {"threshold_pct", "listing_max_tokens"}
    comments = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert "# kept named because the sessions called them: github (2 tools called), grafana (3 tools called), " \
           "linear (1 tool called), slack (1 tool called)" in comments
    gate = next(line for line in comments if line.startswith("# gate: "))
    assert gate.endswith("--goal listed --keep github --keep grafana --keep linear --keep slack")


def test_called_tools_of_another_catalog_are_named_in_a_warning() -> None:
    # five-servers has no linear server and lacks some of the github and grafana tools called
    result = run_cli("recommend", FIVE, *LENGTHS, "--sessions", STATE, "--keep-called", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [s["name"] for s in data["keep_called"]["added"]] == ["github", "slack"]
    assert data["keep_called"]["not_keepable_servers"] == [
        {"name": "github", "tools": 1, "in_catalog": True}, {"name": "grafana", "tools": 3, "in_catalog": True},
        {"name": "linear", "tools": 1, "in_catalog": False}]
    single = ("toolsearch: warning: --keep-called: 5 called tools are not deferred tools of this catalog "
              "(another catalog's, renamed since, or visible), so they keep no server named: servers github (1 tool), "
              "grafana (3 tools), linear (1 tool, not a server of this catalog): mcp__github__get_job_logs, "
              "mcp__grafana__get_current_oncall_users, mcp__grafana__get_dashboard_panel_queries, "
              "mcp__grafana__search_dashboards, mcp__linear__list_my_issues")
    not_deferred = ["mcp__github__get_job_logs", "mcp__grafana__get_current_oncall_users",
                    "mcp__grafana__get_dashboard_panel_queries", "mcp__grafana__search_dashboards",
                    "mcp__linear__list_my_issues"]
    # one warning (not a second one from the counts) names each tool the counts leave out, once
    for command in (("recommend", "--json"), ("check",)):
        said = run_cli(command[0], FIVE, *LENGTHS, "--sessions", STATE, "--keep-called", *command[1:])
        assert "Traceback" not in said.stderr
        warnings = [line for line in said.stderr.splitlines()
                    if line.startswith("toolsearch: warning: ") and "catalog drift" not in line]
        assert warnings == [single], command
        assert all("\n".join(warnings).count(name) == 1 for name in not_deferred)


def test_keep_called_without_sessions_is_refused() -> None:
    for command in (("recommend", TEAM, *LENGTHS), ("report", TEAM, *LENGTHS, "-o", "unused.html")):
        result = run_cli(*command, "--keep-called")
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr == (f"toolsearch: error: {command[0]}: --keep-called: needs --sessions SRC: the servers it "
                                 "keeps named are those whose tools the recorded sessions called\n")


def test_report_carries_the_kept_servers(tmp_path: Path) -> None:
    out = tmp_path / "review.html"
    result = run_cli("report", FIVE, *LENGTHS, "--sessions", STATE, "--keep-called", "-o", out)
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert "<li>kept named because the sessions called them: github (1 tool called), slack (1 tool called)</li>" in html
    assert "<strong>Not keepable:</strong> 5 called tools are not deferred tools of this catalog" in html
    assert "--keep github --keep slack" in html  # the block's gate line


def test_check_keep_called_has_recommends_session_columns() -> None:
    # one quantity, one number: check --sessions --keep-called counts the called tools the listing
    # names as recommend --sessions does, at the same settings
    rec = _json(TEAM, *LENGTHS, "--sessions", STATE, "--keep-called")
    settings = ("--threshold-pct", str(rec["threshold_pct"]), "--listing-max-tokens", str(rec["listing_max_tokens"]))
    checked = run_cli("check", TEAM, *LENGTHS, *settings, "--sessions", STATE, "--keep-called", "--format", "json")
    assert checked.returncode == 0, checked.stderr
    keys = ("context_length", "called_listed", "called_total", "searches_saved")
    got = [{k: c[k] for k in keys} for c in json.loads(checked.stdout)["contexts"]]
    assert got == [{k: c[k] for k in keys} for c in rec["contexts"]]
    assert got == [{"context_length": n, "called_listed": 7, "called_total": 7, "searches_saved": 9}
                   for n in (32_000, 200_000, 1_000_000)]

    text = run_cli("check", TEAM, *LENGTHS, *settings, "--sessions", STATE, "--keep-called")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    header = next(line for line in lines if line.startswith("context_length"))
    assert header.split() == ["context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named",
                              "tools_named", "called_listed", "searches_saved", "goal"]
    assert lines[lines.index(header) + 2].split() == ["32K", "1,473", "1", "names", "1,473", "9/9", "178", "7/7",
                                                      "9", "holds"]
    assert lines[-1] == ("sessions: 7 sessions read; called_listed: of the deferred tools the sessions called, how "
                         "many the listing names at that length; searches_saved: tool_search calls made just before "
                         "calling a named tool")
    markdown = run_cli("check", TEAM, *LENGTHS, *settings, "--sessions", STATE, "--keep-called", "--format", "markdown")
    assert ("| context_length | budget | tier | listing_form | listing_tokens | servers_named | tools_named | "
            "called_listed | searches_saved | goal |") in markdown.stdout.splitlines()
    # without sessions, check's table is as before
    plain = run_cli("check", TEAM, *LENGTHS, *settings)
    assert "called_listed" not in plain.stdout

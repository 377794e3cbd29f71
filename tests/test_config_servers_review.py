"""A harness config (``--config``) and the catalog that disagree about servers, said by every command.

A servers map that is not a mapping was ignored (``check --strict`` passed); commands that plan with
``--config`` besides plan/sweep/costs/check/search/recommend said nothing; the report kept the
disagreement on stderr; a core or plugin server was taken for an MCP server of the same name;
``recommend`` with a scope spoke of a gate it did not give and of servers outside the scope.
"""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
TEAM = "team-workspace.yaml"
SETTINGS = "tools:\n  tool_search: {threshold_pct: 4.7, listing_max_tokens: 1473}\n"


def workspace(tmp_path: Path, servers: str, files=(TEAM,)) -> Path:
    for name in files:
        shutil.copy(ROOT / "sample_catalogs" / name, tmp_path / name)
    (tmp_path / "c.yaml").write_text(SETTINGS + servers, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("servers", "got"), [("mcp_servers: [github, linear]\n", "a list"),
                                               ("mcp_servers: github\n", "a string")])
def test_a_servers_map_that_is_not_a_mapping_is_said_and_refused_by_the_gate(tmp_path, servers, got):
    where = workspace(tmp_path, servers)
    problem = f"c.yaml: mcp_servers must map server names to entries, got {got}"
    plan = run_cli("plan", TEAM, "--config", "c.yaml", "--context-length", "32k", cwd=where)
    assert plan.returncode == 0, plan.stderr
    assert [line for line in plan.stderr.splitlines() if problem in line] == [
        (f"toolsearch: warning: {problem}: these figures cannot tell which servers the harness runs, so every "
         "catalog server is counted as listed; fix mcp_servers in c.yaml")]
    strict = run_cli("check", TEAM, "--config", "c.yaml", "--strict", "--context-lengths", "32k", "--goal", "names",
                     cwd=where)
    assert (strict.returncode, strict.stdout) == (2, "")
    assert strict.stderr.splitlines()[-1] == (
        "toolsearch: error: check --strict: mcp_servers in c.yaml cannot be read (the warning above): the gate could "
        "not tell which servers the harness runs; fix it, or drop --strict to check the catalog as it is")


#: team-workspace.yaml's MCP servers as a Hermes config starts them, grafana disabled.
GRAFANA_OFF = "mcp_servers:\n" + "".join(
    f"  {name}: {{command: {name}-mcp{', enabled: false' if name == 'grafana' else ''}}}\n"
    for name in ("github", "linear", "slack", "notion", "sentry", "grafana", "filesystem", "playwright"))
DISABLED = ("toolsearch: warning: c.yaml sets up 1 MCP server otherwise than the catalog was listed with "
            "('grafana': enabled: false): these figures count its tools as the catalog lists it; ")


def test_every_command_that_takes_config_names_a_disabled_server(tmp_path):
    where = workspace(tmp_path, GRAFANA_OFF)
    shutil.copy(ROOT / "sample_catalogs" / "queries" / TEAM, where / "queries.yaml")
    for command in (["lint", TEAM], ["diff", TEAM, TEAM], ["collapse", TEAM, "--context-length", "32k"],
                    ["strategies", TEAM], ["harnesses", TEAM, "--context-lengths", "32k"],
                    ["eval", TEAM, "queries.yaml"]):
        result = run_cli(*command, "--config", "c.yaml", cwd=where)
        assert result.returncode == 0, (command, result.stderr)
        assert sum(line.startswith(DISABLED) for line in result.stderr.splitlines()) == 1, (command, result.stderr)
    call = run_cli("call", TEAM, "mcp__grafana__search_dashboards", "-a", "{}", "--config", "c.yaml", cwd=where)
    lines = call.stderr.splitlines()
    assert sum(line.startswith(DISABLED) for line in lines) == 1, call.stderr
    assert ("toolsearch: warning: the harness would not run server 'grafana' (enabled: false in c.yaml), so its model "
            "could not call 'mcp__grafana__search_dashboards'; the call goes to the catalog's server as listed") in lines


def test_the_report_notes_a_disabled_server_without_a_goal(tmp_path):
    where = workspace(tmp_path, GRAFANA_OFF)
    result = run_cli("report", TEAM, "--config", "c.yaml", "--context-length", "200k", "--no-lint", "--no-strategies",
                     "-o", "r.html", cwd=where)
    assert result.returncode == 0, result.stderr
    page = (where / "r.html").read_text(encoding="utf-8")
    notes = page[page.index("<h2>Notes</h2>"):]
    assert html.escape(DISABLED[len("toolsearch: warning: "):]) in notes


@pytest.mark.parametrize(("entry", "said"), [
    ("{command: core-mcp, enabled: false}", None),
    ("{command: core-mcp}", "toolsearch: warning: c.yaml configures 1 MCP server the catalog does not have ('core'): "
                            "these figures are for a catalog without it; ")])
def test_a_core_server_is_not_the_mcp_server_of_the_same_name(tmp_path, entry, said):
    where = workspace(tmp_path, GRAFANA_OFF.replace("grafana-mcp, enabled: false", "grafana-mcp") + f"  core: {entry}\n")
    strict = run_cli("check", TEAM, "--config", "c.yaml", "--strict", "--context-lengths", "200k", "--goal", "any",
                     cwd=where)
    if said is None:  # a disabled server the catalog lacks is not started, so not missed
        assert (strict.returncode, strict.stderr) == (0, ""), strict.stderr
    else:
        assert strict.returncode == 2
        assert strict.stderr.splitlines()[0].startswith(said), strict.stderr


def test_a_scoped_answer_speaks_only_of_its_servers_and_of_no_gate(tmp_path):
    where = workspace(tmp_path, GRAFANA_OFF)
    shutil.copy(ROOT / "sample_catalogs" / "scopes" / TEAM, where / "scopes.yaml")

    def answer(scope: str, *more: str):
        result = run_cli("recommend", TEAM, "--config", "c.yaml", "--context-lengths", "200k", "--goal", "any",
                         "--scope-file", "scopes.yaml", "--scope", scope, *more, cwd=where)
        assert result.returncode == 0, result.stderr
        return result.stdout

    support = json.loads(answer("support", "--json"))  # slack, linear, notion: grafana is not the scope's
    assert (support["config_servers"], support["gate_refused"]) == ([], None)
    assert "for the catalog as listed" not in answer("support")
    oncall = json.loads(answer("oncall", "--json"))  # grafana is: said, but there is no gate to refuse
    assert oncall["gate_refused"] is None
    assert [line[:len(DISABLED) - 21] for line in oncall["config_servers"]] == [DISABLED[21:]]
    lines = answer("oncall").splitlines()
    assert lines[-1] == "gate: none for scope oncall: toolsearch check judges the whole catalog"


def test_checks_suggested_settings_are_for_the_catalog_as_listed(tmp_path):
    where = workspace(tmp_path, GRAFANA_OFF)
    missed = run_cli("check", TEAM, "--config", "c.yaml", "--context-lengths", "32k", "--goal", "full", cwd=where)
    assert missed.returncode == 1, missed.stderr
    # one length checked: the line names it, not "every length"
    said = [line for line in missed.stdout.splitlines() if "reach" in line and "at 32K for the catalog" in line]
    assert len(said) == 1 and (said[0].startswith("settings that reach it at 32K for the catalog as listed: ")
                               or said[0].startswith("no setting reaches it at 32K for the catalog as listed: ")), said


def test_an_entry_that_cannot_be_used_is_to_be_fixed_not_listed_again(tmp_path):
    where = workspace(tmp_path, GRAFANA_OFF.replace("grafana-mcp, enabled: false", "grafana-mcp")
                      .replace("{command: github-mcp}", "{}"))
    plan = run_cli("plan", TEAM, "--config", "c.yaml", "--context-length", "200k", cwd=where)
    said = [line for line in plan.stderr.splitlines() if "'github': an entry that cannot be used" in line]
    assert len(said) == 1, plan.stderr
    assert said[0].endswith("these figures count its tools as the catalog lists it; fix the entry in mcp_servers "
                            "of c.yaml"), said[0]


def test_a_hermes_scope_that_leaves_the_disabled_server_out_says_nothing_of_it(tmp_path):
    """The config is also the scope file: its platform reaches every enabled MCP server, so the
    disabled one is outside the scope, and the scoped answer has nothing to say about it."""
    where = workspace(tmp_path, GRAFANA_OFF + "platform_toolsets:\n  cli: [hermes-cli]\n")
    result = run_cli("recommend", TEAM, "--config", "c.yaml", "--scope-file", "c.yaml", "--scope", "cli",
                     "--context-lengths", "200k", "--goal", "any", "--json", cwd=where)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["config_servers"], data["gate_refused"]) == ([], None)

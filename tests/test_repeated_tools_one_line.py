"""Two catalog files that share servers repeat their tools: each server gets one warning that says
how many of its tools are listed more than once, names a few of them, and says whose definition
is kept (the first, by file, as registration keeps it), on the command line and in the app's
problems table alike, instead of one line per repeated tool."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli, write_yaml
from toolsearch.engine.catalog import load_sources
from toolsearch.engine.registration import register_catalog

ROOT = Path(__file__).absolute().parent.parent
FIVE = "sample_catalogs/five-servers.yaml"
TEAM = "sample_catalogs/team-workspace.yaml"
SCHEMA = {"type": "object", "properties": {}}


def _tool(name: str, description: str) -> dict:
    return {"name": name, "description": description, "inputSchema": SCHEMA}


def test_two_samples_sharing_servers_get_one_line_per_server():
    done = run_cli("plan", FIVE, TEAM, "--context-length", "200k", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    repeated = [line for line in done.stderr.splitlines() if "listed more than once" in line]
    assert len(repeated) == 4, done.stderr  # github, grafana, sentry, slack: one line each, not one per tool
    where = f"toolsearch: catalog warning: {FIVE}, {TEAM}: server"
    assert f"{where} 'github': 29 tools are listed more than once ('get_me', 'search_repositories', " \
           f"'get_file_contents' and 26 more); the first definition of each is kept, from {FIVE}, and the other " \
           "29 are dropped" in repeated
    assert f"{where} 'sentry': 5 tools are listed more than once ('find_issues', 'get_issue_details', " \
           f"'update_issue' and 2 more); the first definition of each is kept, from {FIVE}, and the other " \
           "5 are dropped" in repeated
    assert len(done.stderr.splitlines()) == 8  # four servers merged, four lines of repeated tools


def test_the_kept_definition_is_named_by_file_and_the_same_is_registered(tmp_path):
    """Three files: 'search' is kept from a.yaml, 'fetch' from b.yaml (the first file, in file order,
    that lists it); the line says so, and the registered descriptions are those files'."""
    a, b, c = (tmp_path / f"{n}.yaml" for n in "abc")
    write_yaml(a, {"servers": [{"name": "github", "tools": [_tool("search", "Search, as a.yaml has it.")]}]})
    write_yaml(b, {"servers": [{"name": "github", "tools": [_tool("search", "Search, as b.yaml has it."),
                                                             _tool("fetch", "Fetch, as b.yaml has it.")]}]})
    write_yaml(c, {"servers": [{"name": "github", "tools": [_tool("fetch", "Fetch, as c.yaml has it.")]}]})
    registration = register_catalog(load_sources([c, a, b]))  # any order given: the files' order decides
    described = {t.name: t.description for t in registration.tools}
    assert described == {"mcp__github__search": "Search, as a.yaml has it.", "mcp__github__fetch": "Fetch, as b.yaml has it."}
    said = [p.message for p in registration.problems if "listed more than once" in p.message]
    assert said == [f"2 tools are listed more than once ('search', 'fetch'); the first definition of each is kept "
                    f"(from {a} for 1 tool; from {b} for 1 tool), and the other 2 are dropped"]


def test_one_file_repeating_its_tools_names_no_file(tmp_path):
    catalog = tmp_path / "c.yaml"
    write_yaml(catalog, {"servers": [{"name": "s", "tools": [_tool(f"t{i}", "Do it.") for i in range(5)] * 2}]})
    registration = register_catalog(load_sources([catalog]))
    assert len(registration.tools) == 5
    assert [str(p) for p in registration.problems if "listed more than once" in p.message] == [
        f"warning: {catalog}: server 's': 5 tools are listed more than once ('t0', 't1', 't2' and 2 more); the first "
        "definition of each is kept and the other 5 are dropped"]


def test_the_app_problems_table_has_the_same_one_line():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"with": "github-full"})
    at.run()
    assert not at.exception, at.exception
    rows = literal_tables(at)["catalog_problems"].to_dict("records")
    repeated = [r for r in rows if "listed more than once" in r["message"]]
    cli = run_cli("plan", "sample_catalogs/github-full.yaml", TEAM, cwd=ROOT)
    assert [f"toolsearch: catalog warning: {r['where']}: {r['message']}" for r in repeated] == [
        line for line in cli.stderr.splitlines() if "listed more than once" in line]
    assert len(repeated) == 1 and repeated[0]["message"].startswith("40 tools are listed more than once"), repeated


def test_the_line_says_how_many_definitions_are_dropped(tmp_path):
    """20,000 copies of a tool no longer read as two: the names listed more than twice say how many
    times, and the line how many definitions are dropped."""
    catalog = tmp_path / "c.json"
    catalog.write_text(json.dumps({"servers": [{"name": "s", "tools": [_tool("a", "Do a.")] * 20_000
                                                + [_tool("b", "Do b.")] * 2 + [_tool("c", "Do c.")]}]}), encoding="utf-8")
    done = run_cli("plan", catalog)
    assert f"toolsearch: catalog warning: {catalog}: server 's': 2 tools are listed more than once ('a' 20,000 times, " \
           "'b'); the first definition of each is kept and the other 20,000 are dropped" in done.stderr.splitlines()
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"servers": [{"name": "s", "tools": [_tool("a", "Do a.")] * 3}]}), encoding="utf-8")
    assert f"toolsearch: catalog warning: {one}: server 's': tool 'a' is listed more than once (3 times); the first " \
           "definition is kept and the other 2 are dropped" in run_cli("plan", one).stderr.splitlines()

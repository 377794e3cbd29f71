"""``toolsearch report``, ``costs`` and ``check``, run as a user runs them (the console script)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli, write_yaml
from toolsearch.analysis.quantities import length_label
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"
TEAM = SAMPLES / "team-workspace.yaml"
FIVE = SAMPLES / "five-servers.yaml"
GENERATED = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")


def _normalized(html_text: str) -> str:
    """The report without what differs between two builds of the same inputs: the date (each chart's
    element has a fixed id, tests/test_report_reproducible.py)."""
    return GENERATED.sub("DATE", html_text)


# --- costs ---------------------------------------------------------------------------------------

def test_costs_json_splits_every_tool_and_adds_up_per_server():
    done = run_cli("costs", FIVE, "--display-tokenizer", "o200k_base", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["planning_tokenizer"], data["display_tokenizer"]) == ("chars4", "o200k_base")
    ins = inspector_of([FIVE])
    plan = ins.plan(parse_config({}), None, "chars4", "o200k_base")
    assert data["eager_tokens"] == plan.eager_tokens  # the app's "All schemas" figure
    totals = ins.planner.tool_tokens("o200k_base")
    assert sorted(t["name"] for t in data["tools"]) == sorted(totals)
    assert [t["total_tokens"] for t in data["tools"]] == sorted(totals.values(), reverse=True)  # --sort total
    for tool in data["tools"]:
        assert tool["total_tokens"] == totals[tool["name"]]
        assert tool["description_tokens"] + tool["signature_tokens"] == tool["total_tokens"]
        assert tool["description_tokens"] > 0
        assert tool["share"] == pytest.approx(tool["total_tokens"] / plan.eager_tokens, abs=1e-6)
        assert tool["outlier"] == (tool["total_tokens"] > data["outlier_fence"])
    # The Slack tools of this sample carry huge block-kit schemas: far above the others.
    outliers = {t["name"] for t in data["tools"] if t["outlier"]}
    assert outliers and all(name.startswith("mcp__slack__") for name in outliers)
    for server in data["servers"]:
        mine = [t for t in data["tools"] if t["server"] == server["server"]]
        assert server["tools"] == len(mine)
        assert server["total_tokens"] == sum(t["total_tokens"] for t in mine)
        assert server["signature_tokens"] == sum(t["signature_tokens"] for t in mine)
        assert server["outliers"] == sum(t["outlier"] for t in mine)
    assert [s["total_tokens"] for s in data["servers"]] == sorted((s["total_tokens"] for s in data["servers"]),
                                                                   reverse=True)


def test_costs_heads_a_tools_whole_definition_as_the_costs_page_does():
    """A tool's whole definition counted alone (Tool schema (counted alone)) was "total" in costs'
    tool table and "schema (tokens, …)" in the Costs page's costliest tools: one figure, from one
    function, now under one heading, "tool schema" (the page adds the unit)."""
    from toolsearch.analysis import quantities as Q  # noqa: PLC0415

    lines = run_cli("costs", FIVE).stdout.splitlines()
    head, rows = _text_rows(lines[2:])
    assert head == ["name", "server", "description", "signature", "tool schema", "share", "outlier"]
    alone = Q.tool_schemas(inspector_of([FIVE]).planner, "chars4")
    assert {row[0]: int(row[4].replace(",", "")) for row in rows} == alone
    assert head[4] == Q.TOOL_SCHEMA_COLUMN  # the Costs page's heading (test_app_search_costs.py reads it there)


def test_costs_text_names_both_tokenizers_and_csv_sorts():
    done = run_cli("costs", FIVE, "--tokenizer", "cl100k_base", "--display-tokenizer", "o200k_base")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert "o200k_base (display tokenizer)" in first and "planning tokenizer cl100k_base" in first
    assert "\nper server (total: its tools counted alone, added up; plan's \"schemas (tokens)\" rounds once per " \
           "server, so with chars4 it can be lower by up to one token per tool)\n" in done.stdout
    done = run_cli("costs", FIVE, "--csv", "--sort", "name")
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(rows[0]) == ["name", "server", "description_tokens", "signature_tokens", "total_tokens", "share",
                             "outlier"]
    assert [r["name"] for r in rows] == sorted(r["name"] for r in rows)
    assert len(rows) == len(inspector_of([FIVE]).registration.tools)
    done = run_cli("costs", FIVE, "--csv", "--sort", "description")
    values = [int(r["description_tokens"]) for r in csv.DictReader(io.StringIO(done.stdout))]
    assert values == sorted(values, reverse=True)
    done = run_cli("costs", FIVE, "--csv", "--sort", "signature")
    values = [int(r["signature_tokens"]) for r in csv.DictReader(io.StringIO(done.stdout))]
    assert values == sorted(values, reverse=True) and len(set(values)) > 1
    assert run_cli("costs", FIVE, "--sort", "schema").returncode == 2  # the old name, now plan's word only


def _word(heading: str) -> str:
    """A column heading or JSON key reduced to the word a reader compares: ``schemas (tokens)``,
    ``schema`` and ``schema_tokens`` all read ``schema``."""
    word = re.sub(r"\s*\(tokens[^)]*\)$", "", heading.lower()).removesuffix("_tokens").replace("_", " ")
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _text_rows(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """A text table (heading, rule, rows up to a blank line) as its headings and cell lists."""
    head = re.split(r"  +", lines[0].strip())
    rows = []
    for line in lines[2:]:
        if not line.strip():
            break
        rows.append(re.split(r"  +", line.strip()))
    return head, rows


@pytest.mark.parametrize("tokenizer", ["chars4", "o200k_base"])
def test_costs_and_plan_give_one_name_one_figure(tokenizer):
    """``costs`` called a tool's definition without its description "schema" (JSON
    ``schema_tokens``, github 25,360 in the team workspace) while ``plan`` calls a server's whole
    definitions "schemas (tokens)" (``schema_tokens``, 29,700). Every heading and key the two share
    (up to case, plural and "(tokens)") must hold the same figure for every server; with chars4 the
    costs total differs from plan's schemas, so it must not share that name."""
    plan_json = json.loads(run_cli("plan", TEAM, "--tokenizer", tokenizer, "--json").stdout)
    costs_json = json.loads(run_cli("costs", TEAM, "--tokenizer", tokenizer, "--json").stdout)
    plan_servers = {s["name"]: {_word(k): v for k, v in s.items()} for s in plan_json["servers"]}
    costs_servers = {s["server"]: {_word(k): v for k, v in s.items()} for s in costs_json["servers"]}
    shared = set(next(iter(plan_servers.values()))) & set(next(iter(costs_servers.values())))
    assert shared == {"kind"}, shared
    for name, row in costs_servers.items():
        assert all(row[k] == plan_servers[name][k] for k in shared), name
    tool_keys = {_word(k) for k in costs_json["tools"][0]}
    assert tool_keys & set(next(iter(plan_servers.values()))) == {"name"}  # a tool's name there, a server's here
    # The text tables: plan's per-server table and costs' per-server and per-tool tables.
    plan_lines = run_cli("plan", TEAM, "--tokenizer", tokenizer).stdout.splitlines()
    first = next(i for i, line in enumerate(plan_lines) if line.startswith("server  "))
    plan_head, plan_rows = _text_rows(plan_lines[first:])
    costs_lines = run_cli("costs", TEAM, "--tokenizer", tokenizer).stdout.splitlines()
    start = next(i for i, line in enumerate(costs_lines) if line.startswith("per server")) + 1
    costs_head, costs_rows = _text_rows(costs_lines[start:])
    tool_head, _ = _text_rows(costs_lines[2:])
    plan_cells = {row[0]: dict(zip(map(_word, plan_head), row)) for row in plan_rows}
    shared = set(map(_word, plan_head)) & set(map(_word, costs_head))
    assert shared == {"server", "kind", "tool"}, shared
    for row in costs_rows:
        cells = dict(zip(map(_word, costs_head), row))
        assert all(cells[k] == plan_cells[cells["server"]][k] for k in shared), row
    assert set(map(_word, tool_head)) & set(map(_word, plan_head)) == {"server"}
    # Both figures are still what their names say: costs' total adds up tools counted alone.
    plan_schemas = {s["name"]: s["schema_tokens"] for s in plan_json["servers"]}
    differ = {s["server"] for s in costs_json["servers"] if s["total_tokens"] != plan_schemas[s["server"]]}
    assert bool(differ) == (tokenizer == "chars4")
    for server in costs_json["servers"]:  # chars4 rounds per tool: at most one token per tool above
        assert 0 <= server["total_tokens"] - plan_schemas[server["server"]] < max(server["tools"], 1)


def test_costs_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("servers: 3\n", encoding="utf-8")
    done = run_cli("costs", bad)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "bad.yaml" in done.stderr
    assert run_cli("costs", FIVE, "--json", "--csv").returncode == 2


# --- check ---------------------------------------------------------------------------------------

def test_check_passes_where_the_goal_holds():
    done = run_cli("check", TEAM, "--context-lengths", "200k,1m", "--goal", "full")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("toolsearch check passed: every tool with its short description")
    assert "FAILS" not in done.stdout


def test_check_fails_saying_where_and_why_and_its_suggestion_passes():
    done = run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full", "--format", "json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["passed"] is False
    by_length = {c["context_length"]: c for c in data["contexts"]}
    assert by_length[200_000]["holds"] is True
    assert by_length[32_000]["holds"] is False
    assert by_length[32_000]["listing_form"] != "full"
    suggestion = data["suggestion"]
    assert suggestion["reached"] is True
    text = run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full")
    assert text.returncode == 1
    assert "toolsearch check failed" in text.stdout
    assert f"at 32K: the listing is {by_length[32_000]['listing_form']}" in text.stdout
    assert f"threshold_pct {suggestion['threshold_pct']:g}%, listing_max_tokens {suggestion['listing_max_tokens']:,}" \
        in text.stdout
    again = run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full",
                    "--threshold-pct", str(suggestion["threshold_pct"]),
                    "--listing-max-tokens", str(suggestion["listing_max_tokens"]))
    assert again.returncode == 0, again.stdout


def test_check_listing_limit_and_config_file(tmp_path):
    done = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "any", "--max-listing-tokens", "100")
    assert done.returncode == 1
    assert "above the limit of 100" in done.stdout
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"listing": "off"}}})
    done = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "any", "--config", config)
    assert done.returncode == 1
    assert "the listing is none · nothing listed (0 of 9 servers named), tier 2," in done.stdout


@pytest.mark.parametrize("value", ["0", "-5", "0k", "0.0"])
def test_check_refuses_a_listing_limit_below_one_token(value):
    """``--max-listing-tokens 0`` (or less) was accepted and then failed every check ("above the
    limit of 0"): every listing is larger. It is bad input, refused before any catalog is read."""
    done = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "any", "--max-listing-tokens", value)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"toolsearch check: error: argument --max-listing-tokens: expected a positive whole number of tokens "
        f"(e.g. 4000), got '{value}'"]
    assert run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "any",
                   "--max-listing-tokens", "1").returncode == 1


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_text(tmp_path):
    """A server named ``=HYPERLINK(…)`` (or starting with ``+``, ``-``, ``@``) is a formula when
    the CSV of ``costs`` or ``sweep`` is opened in a spreadsheet; it gets a leading ``'``."""
    names = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)"]
    cat = write_yaml(tmp_path / "f.yaml", {"servers": [
        {"name": name, "tools": [{"name": f"tool_{i}", "description": "Tell them."}]} for i, name in enumerate(names)]})
    costs = list(csv.DictReader(io.StringIO(run_cli("costs", cat, "--csv").stdout)))
    assert sorted(row["server"] for row in costs) == sorted("'" + name for name in names)
    assert all(row["total_tokens"].isdigit() for row in costs)
    sweep = list(csv.reader(io.StringIO(run_cli("sweep", cat, "--csv", "--context-lengths", "32k").stdout)))
    assert sorted(sweep[0][-4:]) == sorted("'" + name for name in names) and sweep[1][0] == "32000"


def test_check_markdown_never_mentions_a_user_or_team_named_by_the_catalog(tmp_path):
    """A server named ``@org/team`` in a pull request comment would ping the team (a backslash
    before ``@`` does not stop GitHub's mentions); every word holding ``@`` is a code span."""
    cat = write_yaml(tmp_path / "at.yaml", {"servers": [
        {"name": "@org/team", "tools": [{"name": f"tool_{i}", "description": "Tell them."} for i in range(3)]},
        {"name": "a`b@c|d", "tools": [{"name": "x", "description": "y"}]}]})
    done = run_cli("check", cat, "--context-lengths", "32k", "--goal", "full", "--except", "@org/team",
                   "--keep", "a`b@c|d", "--format", "markdown")
    heading = done.stdout.splitlines()[0]
    assert "except `@org/team` (may collapse)" in heading, heading
    assert "``a`b@c\\|d``" in heading, heading
    outside = re.sub(r"(`+)(.+?)\1", "", done.stdout)  # what is left outside code spans
    assert "@" not in outside, outside


def test_check_markdown_keeps_entities_and_links_in_server_names_as_text(tmp_path):
    """``&#64;team`` renders as ``@team`` (a mention) and ``https://…`` or ``www.…`` as a link in a
    pull request comment: the ampersand is escaped and a link-like word is a code span."""
    names = ["&#64;org/team", "&commat;someone", "https://evil.example/x", "www.evil.example"]
    cat = write_yaml(tmp_path / "ent.yaml", {"servers": [
        {"name": name, "tools": [{"name": f"tool_{i}", "description": "Tell them."}]} for i, name in enumerate(names)]})
    done = run_cli("check", cat, "--context-lengths", "32k", "--goal", "full",
                   *[arg for name in names for arg in ("--keep", name)], "--format", "markdown")
    heading = done.stdout.splitlines()[0]
    assert "\\&#64;org/team" in heading and "\\&commat;someone" in heading, heading
    assert "`https://evil.example/x," in heading and "`www.evil.example`" in heading, heading
    outside = re.sub(r"(`+)(.+?)\1", "", done.stdout)
    assert not re.search(r"(?<!\\)&", outside) and "://" not in outside and "www." not in outside, outside


def test_check_markdown_for_a_pull_request_with_a_baseline(tmp_path):
    data = yaml.safe_load(FIVE.read_text(encoding="utf-8"))
    data["servers"].append({"name": "ops_tools|beta", "tools": [
        {"name": f"tool_{i}", "description": f"Operations tool number {i}.",
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}} for i in range(3)]})
    new = write_yaml(tmp_path / "new.yaml", data)
    done = run_cli("check", new, "--baseline", FIVE, "--context-lengths", "32k,200k", "--goal", "any",
                   "--format", "markdown")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "### toolsearch check passed: some listing (summary lines or better)"
    table = [line for line in lines if line.startswith("|")]
    assert table[0] == ("| context_length | budget | tier | listing_form | listing_tokens | servers_named | tools_named "
                        "| goal | against the baseline |")
    assert table[1] == "|---|---|---|---|---|---|---|---|---|"
    assert len(table) == 4 and all(line.count(" | ") == 8 for line in table[2:])  # the pipe in the name is escaped
    assert "ops\\_tools\\|beta" in done.stdout and "prompt cache:" in done.stdout
    # The baseline's side is what checking the baseline alone reports.
    new_json = json.loads(run_cli("check", new, "--baseline", FIVE, "--context-lengths", "32k,200k", "--goal", "any",
                                  "--format", "json").stdout)
    old_json = json.loads(run_cli("check", FIVE, "--context-lengths", "32k,200k", "--goal", "any",
                                  "--format", "json").stdout)
    for mine, old in zip(new_json["contexts"], old_json["contexts"]):
        before = {k: old[k] for k in mine["baseline"]["before"]}
        assert mine["baseline"]["before"] == before
        assert {"context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named"} <= set(before)
        assert mine["baseline"]["cache_hit"] is False
        assert 0 < mine["baseline"]["reusable_tokens"] < mine["baseline"]["total_tokens"]
    same = run_cli("check", FIVE, "--baseline", FIVE, "--context-lengths", "200k", "--goal", "any")
    assert same.returncode == 0 and "prompt cache: identical tools array" in same.stdout


def test_check_baseline_config_plans_the_baseline_with_the_old_settings(tmp_path):
    """A change of settings alone (same catalog, a lower listing_max_tokens): with
    --baseline-config the baseline is the old config's listing, so the change shows; without it
    the baseline gets the new settings and reads as identical."""
    old = write_yaml(tmp_path / "old.yaml", {"tools": {"tool_search": {"listing_max_tokens": 4000}}})
    new = write_yaml(tmp_path / "new.yaml", {"tools": {"tool_search": {"listing_max_tokens": 1000}}})
    args = ("check", TEAM, "--config", new, "--baseline", TEAM, "--context-lengths", "200k", "--goal", "any")
    same = run_cli(*args)
    assert same.returncode == 0 and "prompt cache: identical tools array" in same.stdout
    done = run_cli(*args, "--baseline-config", old)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == ("threshold_pct 5%, listing_max_tokens 1,000, planning tokenizer chars4 "
                                           "(baseline: threshold_pct 5%, listing_max_tokens 4,000)")
    assert "identical tools array" not in done.stdout and "tier 1 full → tier 1 " in done.stdout
    data = json.loads(run_cli(*args, "--baseline-config", old, "--json").stdout)
    assert data["baseline_settings"] == {"threshold_pct": 5.0, "listing_max_tokens": 4000, "enabled": "auto",
                                         "listing": "auto"}
    assert data["contexts"][0]["baseline"]["before"]["budget"] == 4000 and data["contexts"][0]["budget"] == 1000
    assert data["contexts"][0]["baseline"]["cache_hit"] is False
    assert json.loads(run_cli(*args, "--json").stdout)["baseline_settings"]["listing_max_tokens"] == 1000
    alone = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "any", "--baseline-config", old)
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.startswith("toolsearch: error: check: --baseline-config: ") and "--baseline" in alone.stderr
    typo = write_yaml(tmp_path / "typo.yaml", {"tools": {"tool_search": {"listing_max_token": 4000}}})
    strict = run_cli(*args, "--baseline-config", typo, "--strict")  # --strict judges the new config only
    assert strict.returncode == 0, strict.stderr
    assert strict.stderr == (f"toolsearch: warning: --baseline-config: {typo}: line 3: tools.tool_search."
                             "listing_max_token: unknown key, ignored; did you mean listing_max_tokens?\n")
    missing = run_cli(*args, "--baseline-config", tmp_path / "gone.yaml")
    assert missing.returncode == 2 and "gone.yaml: cannot read config file" in missing.stderr


def test_keep_of_a_server_with_no_tools_is_refused(tmp_path):
    """A kept server whose tools/list came back empty is in no listing: check passed "empty at names
    or better" with nothing named. check and recommend refuse it (exit 2); a kept server whose
    tools are all visible (core) is still accepted."""
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [
        {"name": "empty", "tools": []},
        {"name": "web", "tools": [{"name": "fetch", "description": "Fetch a URL.",
                                   "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]}]})
    for command in ("check", "recommend"):
        done = run_cli(command, catalog, "--context-lengths", "32k", "--goal", "names", "--keep", "empty")
        assert (done.returncode, done.stdout) == (2, ""), done.stdout
        assert done.stderr == ("toolsearch: warning: server 'empty' lists no tools in the catalog: it takes no room "
                               "in the listing and no goal counts it; if it has tools, list them into the catalog "
                               "again (toolsearch snapshot CONFIG -o CATALOG)\n"
                               f"toolsearch: error: {command}: --keep: server 'empty' has no tools in this catalog, "
                               "so no listing names it; fix the server (a missing key or permission often empties "
                               "its list) or drop --keep empty\n")
        assert run_cli(command, catalog, "--context-lengths", "32k", "--goal", "names", "--keep", "web").returncode == 0
    assert run_cli("check", TEAM, "--context-lengths", "32k", "--goal", "any", "--keep", "core").returncode == 0


def test_check_settings_line_says_tool_search_is_off(tmp_path):
    """A config that turns tool search off passes every goal (every schema is sent); the settings
    line said only "threshold_pct 5%, listing_max_tokens 4,000", as if nothing were unusual."""
    off = write_yaml(tmp_path / "off.yaml", {"tools": {"tool_search": {"enabled": False, "listing": "off"}}})
    # 1M: with every schema sent up front, a request fits there (not at 32K: check fails there)
    done = run_cli("check", TEAM, "--config", off, "--context-lengths", "1m", "--goal", "names")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == ("threshold_pct 5%, listing_max_tokens 4,000, enabled off, listing off, "
                                           "planning tokenizer chars4")
    plain = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "names")
    assert plain.stdout.splitlines()[1] == "threshold_pct 5%, listing_max_tokens 4,000, planning tokenizer chars4"


def test_check_refuses_a_snapshot_that_records_failed_servers(tmp_path):
    """A ``toolsearch snapshot`` file keeps the servers that failed under ``snapshot.failed``; the
    same config given live is refused (exit 2), but the snapshot passed with those servers
    missing. Now check and recommend refuse it too, and every command warns."""
    data = yaml.safe_load(FIVE.read_text(encoding="utf-8"))
    data["snapshot"] = {"configs": ["config.yaml"], "failed": {
        "linear": "cannot connect to https://mcp.linear.app/sse?token=sk-live-0123456789abcdefghijkl"}}
    snap = write_yaml(tmp_path / "snap.yaml", data)
    warning = (f"toolsearch: catalog warning: {snap}: snapshot.failed.linear: server 'linear' did not list its "
               "tools when this snapshot was taken (cannot connect to https://mcp.linear.app/sse?token=••••), "
               "so the catalog lacks it")
    for command in ("check", "recommend"):
        done = run_cli(command, snap, "--context-lengths", "200k", "--goal", "any")
        assert (done.returncode, done.stdout) == (2, ""), done.stdout
        assert done.stderr.splitlines() == [warning, (
            f"toolsearch: error: {command}: 1 server did not list its tools when the snapshot was taken (linear; "
            "above), so the catalog lacks it; take the snapshot again once it lists its tools")]
    planned = run_cli("plan", snap)
    assert planned.returncode == 0 and planned.stderr.splitlines() == [warning]
    # lint, the poisoning gate: the missing server is an error (exit 1), as when the config's server fails live
    linted = run_cli("lint", snap, "--json")
    assert linted.returncode == 1
    assert [f for f in json.loads(linted.stdout)["findings"] if f["severity"] == "error"] == [{
        "rule": "load-problem", "severity": "error", "server": "", "tool": "", "name": "",
        "message": warning.removeprefix("toolsearch: catalog warning: "),
        "fix": "Take the snapshot again once the server lists its tools (toolsearch snapshot CONFIG -o FILE)."}]
    del data["snapshot"]["failed"]
    assert run_cli("check", write_yaml(snap, data), "--context-lengths", "200k", "--goal", "any").returncode == 0


def test_check_bad_input_exits_2(tmp_path):
    assert run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "everything").returncode == 2
    done = run_cli("check", TEAM, "--context-lengths", "lots", "--goal", "any")
    assert done.returncode == 2 and "lots" in done.stderr
    done = run_cli("check", tmp_path / "missing.yaml", "--context-lengths", "200k", "--goal", "any")
    assert done.returncode == 2 and "missing.yaml" in done.stderr and "Traceback" not in done.stderr


def test_check_never_suggests_settings_whose_listing_is_over_the_limit():
    """Names for the team workspace need 1,473 listing tokens: under --max-listing-tokens 1000 no
    setting passes. Before, check offered threshold_pct 4.7 / listing_max_tokens 1,473 as settings
    "that reach it", and check with them failed again on the same limit."""
    args = ("check", TEAM, "--context-lengths", "32k,128k", "--goal", "names", "--max-listing-tokens", "1000")
    done = run_cli(*args)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == (
        "no setting reaches it at every length: the smallest listing that reaches the goal is 1,473 tokens at 32K, "
        "1,473 tokens at 128K, above the limit of 1,000 tokens (--max-listing-tokens)")
    suggestion = json.loads(run_cli(*args, "--format", "json").stdout)["suggestion"]
    assert (suggestion["reached"], suggestion["listing_max_tokens"]) == (False, 1473)
    # within the limit, the suggested settings pass the same check
    args = ("check", TEAM, "--context-lengths", "32k,128k", "--goal", "names", "--max-listing-tokens", "1500")
    suggestion = json.loads(run_cli(*args, "--format", "json").stdout)["suggestion"]
    assert suggestion["reached"] is True
    assert run_cli(*args, "--threshold-pct", str(suggestion["threshold_pct"]),
                   "--listing-max-tokens", str(suggestion["listing_max_tokens"])).returncode == 0


def test_check_and_recommend_refuse_a_catalog_file_with_a_skipped_tool(tmp_path):
    """A tool the reader skipped (here: no name) is not in the catalog judged; a file whose every
    tool was skipped has no tools, tier 0, and passed every goal. Both exit 2 now; a baseline with
    one is still compared (the change may be the fix)."""
    good = {"name": "create_issue", "description": "Open an issue.", "inputSchema": {"type": "object"}}
    bad = {"description": "A tool without a name.", "inputSchema": {"type": "object"}}
    one_bad = write_yaml(tmp_path / "one-bad.yaml", {"servers": [{"name": "github", "tools": [good, bad]}]})
    all_bad = write_yaml(tmp_path / "all-bad.yaml", {"servers": [{"name": "github", "tools": [bad, bad]}]})
    fixed = write_yaml(tmp_path / "fixed.yaml", {"servers": [{"name": "github", "tools": [good]}]})
    goal = ("--context-lengths", "32k", "--goal", "names")
    done = run_cli("check", all_bad, *goal)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1] == (
        f"toolsearch: error: check: 2 catalog errors ({all_bad}: servers[0].tools[0] and 1 more; above): what was "
        "skipped would be missing from the verdict; fix the catalog file")
    done = run_cli("check", one_bad, *goal)
    assert done.returncode == 2 and f"1 catalog error ({one_bad}: servers[0].tools[1]; above)" in done.stderr
    done = run_cli("recommend", one_bad, *goal)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1].endswith("would be missing from the settings; fix the catalog file")
    assert run_cli("check", fixed, "--baseline", one_bad, *goal).returncode == 0


def test_check_refuses_a_single_context_length_beside_the_list():
    """check plans only at --context-lengths: before, --context-length 1m beside them was ignored
    without a word, and the verdict was for 32K alone."""
    done = run_cli("check", TEAM, "--context-length", "1m", "--context-lengths", "32k", "--goal", "full")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("toolsearch: error: check: --context-length: check plans at each of --context-lengths "
                           "only; put the length there (--context-lengths 32k,200k,...)\n")
    assert "--context-length N" not in run_cli("check", "--help").stdout


def test_check_refuses_a_catalog_whose_live_server_did_not_list_its_tools(tmp_path):
    """A gate on an MCP client config: a server that fails to start leaves a catalog without it (with
    no server at all, tier 0, which passes every goal). check exits 2 naming it, never 0."""
    import sys  # noqa: PLC0415

    server = Path(__file__).resolve().parent / "mcp_test_server.py"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "good": {"command": sys.executable, "args": [str(server)]},
        "gone": {"command": str(tmp_path / "no-such-server")},
        "broken": {"args": ["x"]}}}), encoding="utf-8")
    done = run_cli("check", config, "--context-lengths", "32k", "--goal", "any")
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("toolsearch: error: check: 2 servers did not list their tools (")
    assert "'gone'" in last and "'broken'" in last and "'good'" not in last and "Traceback" not in done.stderr
    only_broken = tmp_path / "broken.json"
    only_broken.write_text(json.dumps({"mcpServers": {"broken": {"args": ["x"]}}}), encoding="utf-8")
    assert run_cli("check", only_broken, "--context-lengths", "32k", "--goal", "full").returncode == 2
    # a config none of whose servers listed is an unreadable source, for the baseline too
    done = run_cli("check", TEAM, "--baseline", only_broken, "--context-lengths", "32k", "--goal", "any")
    assert done.returncode == 2 and f"error: --baseline: {only_broken}: no server listed its tools (1 server " \
                                    "failed: 'broken'" in done.stderr
    # recommend would give settings for the catalog without them, and its --yaml a block to ship
    done = run_cli("recommend", only_broken, "--context-lengths", "32k", "--goal", "names", "--yaml")
    assert done.returncode == 2 and done.stdout == ""
    assert f"toolsearch: error: {only_broken}: no server listed its tools (1 server failed: 'broken'" in done.stderr


# --- report --------------------------------------------------------------------------------------

def _page_report(monkeypatch, tuning: dict | None = None, scope: str | None = None) -> str:
    """The Report page's HTML for the default sample at 200K (sidebar defaults otherwise); with
    ``tuning`` ({widget key: value}), after the Tuning page was opened and set so; with ``scope``
    (a link's ``scope=`` value), in that session scope."""
    monkeypatch.setattr(PagesManager, "uses_pages_directory", False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["ctx"] = "200K"
    if scope is not None:
        at.query_params["scope"] = scope
    at.run()
    if scope is not None:
        assert at.sidebar.selectbox(key="scope_choice").value == scope.split("=")[0]
    if tuning is not None:
        at.switch_page("toolsearch/ui/tuning.py").run()
        for key, value in tuning.items():
            at.session_state[key] = value
        at.run()
        assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/report.py").run()
    at.selectbox(key="report_length").set_value("sidebar").run()  # planned at 200K, as --context-length 200k
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    return at.session_state["report_html"]


#: The Tuning page's default question, which the Report page carries before that page is opened.
TUNING_DEFAULTS = ("--context-lengths", "32k,128k,200k,1m", "--goal", "names")


@pytest.fixture(scope="module")
def report_at_200k(tmp_path_factory) -> tuple[Path, str]:
    """``report`` of the team sample at 200K with every section (the command's defaults otherwise),
    built once for the tests of this file that compare against it: its output path and HTML."""
    out = tmp_path_factory.mktemp("report") / "report.html"
    # the recommendation of the Tuning page's default question, as the Report page carries it; the catalog
    # named from the project folder, as the page's gate line names the shipped sample
    done = run_cli("report", "sample_catalogs/team-workspace.yaml", "--context-length", "200k", *TUNING_DEFAULTS,
                   "-o", out, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stderr
    return out, out.read_text(encoding="utf-8")


def test_report_is_the_report_page_html(tmp_path, monkeypatch, report_at_200k):
    # the query file scored by default is named by its path: its bare name is the catalog's
    # (the lint and strategies sections have no part in that line)
    quick = ("--no-lint", "--no-strategies")
    from_elsewhere = run_cli("report", TEAM, *quick, "-o", tmp_path / "r1.html", cwd=tmp_path)
    shipped = ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"
    assert from_elsewhere.stderr.endswith(f"KiB, self-contained, query file {shipped})\n"), from_elsewhere.stderr
    from_root = run_cli("report", "sample_catalogs/team-workspace.yaml", *quick, "-o", tmp_path / "r2.html", cwd=ROOT)
    assert from_root.stderr.endswith("KiB, self-contained, query file sample_catalogs/queries/team-workspace.yaml)\n")
    html_text = report_at_200k[1]
    assert html_text.count("window.PlotlyConfig") == 1  # plotly.js embedded once
    assert not re.search(r"""<script[^>]+src\s*=\s*["']?(https?:)?//""", html_text, re.IGNORECASE)
    page = _page_report(monkeypatch)
    assert _normalized(html_text) == _normalized(page)
    assert 'id="toolsearch-chart-0"' in html_text and GENERATED.search(html_text)


def test_report_carries_the_recommendation_as_recommend_gives_it(tmp_path, monkeypatch):
    """``report --context-lengths … --goal …``: the report has recommend's lines, table and config
    block (the same figures), and equals the Report page's after the Tuning page asked the same."""
    out = tmp_path / "report.html"
    args = ["--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10"]
    done = run_cli("report", TEAM, "--context-length", "200k", *args, "-o", out)
    assert done.returncode == 0, done.stderr
    html_text = out.read_text(encoding="utf-8")
    start = html_text.index("<h2>Recommended settings across context lengths</h2>")
    section = html_text[start:html_text.index("<h2>", start + 1)]
    text = run_cli("recommend", TEAM, *args)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    table_at = next(i for i, line in enumerate(lines) if line.startswith("context_length"))
    assert table_at >= 5
    # recommend's first line is the verdict the report puts above its list, in the same words
    assert lines[0] == "Reached at every listed context length."
    assert f"<p><strong>{html.escape(lines[0])}</strong></p>" in section
    for line in lines[1:table_at]:  # every other line above recommend's table, in the same words
        assert f"<li>{html.escape(line)}</li>" in section, line
    data = json.loads(run_cli("recommend", TEAM, *args, "--json").stdout)
    for c in data["contexts"]:  # the per-length table: the same budget and listing tokens
        # the length as recommend's table writes it (200K)
        assert f'<td class="num">{length_label(c["context_length"])}</td><td class="num">{c["budget"]:,}</td>' in section
        assert f'<td class="num">{c["listing_tokens"]:,}</td>' in section
    block = run_cli("recommend", TEAM, *args, "--yaml").stdout
    assert f"<pre>{html.escape(block)}</pre>" in section  # the block to ship, with its gate line
    assert "Reached at every listed context length." in section
    # the report was built with other settings than the block: the section says which to ship
    assert ("The rest of this report shows the settings it was built with (threshold_pct 5%, listing_max_tokens "
            "4,000); the block below is the one to ship for this goal.") in section
    applied = tmp_path / "applied.html"
    done = run_cli("report", TEAM, "--context-length", "200k", *args, "--threshold-pct", str(data["threshold_pct"]),
                   "--listing-max-tokens", str(data["listing_max_tokens"]), "-o", applied, "--no-lint", "--no-strategies")
    assert done.returncode == 0, done.stderr
    assert "The rest of this report shows the settings" not in applied.read_text(encoding="utf-8")
    page = _page_report(monkeypatch, {"tuning_contexts": "32k, 200k, 1m", "tuning_multi_goal": "names",
                                      "tuning_headroom": 10.0})
    start = page.index("<h2>Recommended settings across context lengths</h2>")
    page_section = page[start:page.index("<h2>", start + 1)]
    # the page's catalog is the shipped sample: its gate line names it as a command takes it from the
    # project folder (sample_catalogs/...), where recommend names the path it was given; the rest is the same
    gate = next(line for line in block.splitlines() if line.startswith("# gate: "))
    assert gate.startswith(f"# gate: toolsearch check {TEAM} --config config.yaml")
    assert page_section == section.replace(html.escape(gate), html.escape(
        gate.replace(str(TEAM), "sample_catalogs/team-workspace.yaml")))
    # with the sessions as evidence: recommend's two session columns, the same counts
    sessions = ROOT / "sample_sessions" / "state.db"
    done = run_cli("report", TEAM, *args, "--sessions", sessions, "-o", out, "--no-lint", "--no-strategies")
    assert done.returncode == 0, done.stderr
    with_sessions = out.read_text(encoding="utf-8")
    data = json.loads(run_cli("recommend", TEAM, *args, "--sessions", sessions, "--json").stdout)
    assert "<th>called_<wbr>listed</th><th>searches_<wbr>saved</th>" in with_sessions
    for c in data["contexts"]:
        assert (f'<td>{c["called_listed"]}/{c["called_total"]}</td><td class="num">{c["searches_saved"]:,}</td>'
                in with_sessions)
    # without a goal the section says how to get one; half a question is refused in one line
    done = run_cli("report", TEAM, "-o", out, "--no-lint", "--no-strategies")
    assert done.returncode == 0 and "Not computed: it needs the context lengths" in out.read_text(encoding="utf-8")
    for bad, word in ((["--goal", "names"], "--context-lengths: needed too"),
                      (["--context-lengths", "32k"], "--goal: needed too"),
                      (["--headroom", "5"], "--headroom: only with --goal and --context-lengths"),
                      (["--sessions", str(sessions)], "--sessions: only with --goal and --context-lengths"),
                      ([*args, "--keep", "nope"], "report: --keep: no server named 'nope'")):
        done = run_cli("report", TEAM, *bad, "-o", tmp_path / "x.html")
        assert done.returncode == 2 and word in done.stderr, (bad, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.html").exists()


def test_report_in_a_scope_is_the_report_page_in_that_scope(tmp_path, monkeypatch, report_at_200k):
    """``report --scope``: the session scope's report, as the Report page builds it with that scope
    picked in the sidebar; its recommendation says the gate has no scope; two scopes are refused."""
    out = tmp_path / "report.html"
    scope = "support=linear,slack"
    args = ["--context-length", "200k", "--scope", scope, "-o", out]
    done = run_cli("report", "sample_catalogs/team-workspace.yaml", *args, *TUNING_DEFAULTS, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "toolsearch: scope support: servers linear, slack (reaches linear, slack)" in done.stderr
    html_text = out.read_text(encoding="utf-8")
    assert "<th>session scope</th>" in html_text or ">session scope<" in html_text
    # the headline names the scope, not only a row of the catalog table
    assert "<h1>toolsearch report: Team workspace (scope support)</h1>" in html_text
    assert re.search(r'<p class="sub">Session scope support \(\d+ of 183 tools\) · Figures below at the default '
                     r'settings: context length', html_text)
    assert _normalized(html_text) != _normalized(report_at_200k[1])  # the whole catalog's
    assert _normalized(html_text) == _normalized(_page_report(monkeypatch, scope=scope))
    done = run_cli("report", TEAM, *args, "--context-lengths", "32k,200k", "--goal", "names",
                   "--no-lint", "--no-strategies")
    assert done.returncode == 0, done.stderr
    assert "# gate: none for scope support: toolsearch check judges the whole catalog" in out.read_text(encoding="utf-8")
    done = run_cli("report", TEAM, "--scope", scope, "--scope", "chat=slack", "-o", tmp_path / "two.html")
    assert done.returncode == 2 and "report answers for one session: pick one scope" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "two.html").exists()


def test_report_bad_output_folder_exits_2(tmp_path):
    done = run_cli("report", FIVE, "-o", tmp_path / "no" / "such" / "report.html")
    assert done.returncode == 2
    assert "does not exist" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_check_baseline_says_how_many_more_differences_break_the_cache():
    """The baseline column gives the first cause and says how many more there are: with servers
    added and one removed, "server 'core' added" alone would hide the rest (toolsearch diff lists them)."""
    done = run_cli("check", TEAM, "--baseline", FIVE, "--context-lengths", "32k", "--goal", "any", "--format", "json")
    change = json.loads(done.stdout)["contexts"][0]["baseline"]
    assert change["first_cause"] == "server 'core' added: only on new (6 tools)."
    assert change["more_causes"] == 15
    text = run_cli("check", TEAM, "--baseline", FIVE, "--context-lengths", "32k", "--goal", "any")
    assert ("server 'core' added: only on new (6 tools). 15 more differences change the prefix too; "
            "toolsearch diff lists them.") in text.stdout


def test_check_counts_a_mixed_listing_as_recommend_does():
    """A mixed listing names 5 of 9 servers or 1 of 9: check's table says how many, in the same
    columns as recommend's, never "mixed" alone."""
    done = run_cli("check", TEAM, "--context-lengths", "32k", "--threshold-pct", "2", "--goal", "listed")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2].split() == ["context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named",
                                "tools_named", "goal"]
    assert lines[4].split() == ["32K", "640", "1", "mixed", "581", "5/9", "62", "holds"]


def test_report_recommendation_says_how_many_sessions_were_read_and_refuses_headroom_alone(tmp_path):
    """The line recommend prints under its table with --sessions ("sessions: 7 sessions read; ...")
    is the report's too; ``--headroom 0`` without a goal is half a question, refused like ``--headroom 5``."""
    args = ["--context-lengths", "32k,1m", "--goal", "names", "--sessions", ROOT / "sample_sessions" / "state.db"]
    text = run_cli("recommend", TEAM, *args)
    assert text.returncode == 0, text.stderr
    line, gate = text.stdout.splitlines()[-2:]  # under the table: the sessions line, then the gate line
    assert line.startswith("sessions: 7 sessions read; called_listed: ")
    assert gate.startswith("gate: toolsearch check ")
    out = tmp_path / "report.html"
    done = run_cli("report", TEAM, *args, "-o", out, "--no-lint", "--no-strategies")
    assert done.returncode == 0, done.stderr
    assert f'<p class="muted">{html.escape(line)}</p>' in out.read_text(encoding="utf-8")
    done = run_cli("report", TEAM, "--headroom", "0", "-o", tmp_path / "x.html", "--no-lint", "--no-strategies")
    assert done.returncode == 2 and not (tmp_path / "x.html").exists()
    assert done.stderr == "toolsearch: error: report: --headroom: only with --goal and --context-lengths\n"


def test_report_scope_with_hostile_names_keeps_every_stderr_line_one_line(tmp_path):
    """A scope name, server entry or pattern holding a newline (from --scope or a scope file) is
    shown with the newline escaped: on stderr each line of toolsearch's stays one line, and an
    error is the only line, with exit status 2 and no file written."""
    out = tmp_path / "r.html"
    scopes = tmp_path / "scopes.yaml"
    write_yaml(scopes, {"scopes": {"a\ntoolsearch: wrote fake.html": {"servers": ["slack"]},
                                   "b\nc": {"servers": ["slack"], "bogus": 1}}})
    for argv, status in (
            (["--scope", "a\nb=slack", "--context-lengths", "32k,1m", "--goal", "names"], 0),
            (["--scope", "x=slack\nevil;include=a\nb"], 0),
            (["--scope-file", scopes, "--scope", "a\ntoolsearch: wrote fake.html"], 0),
            (["--scope", "a\nb"], 2),
            (["--scope-file", scopes, "--scope", "sup\nport"], 2)):
        out.unlink(missing_ok=True)
        done = run_cli("report", TEAM, *argv, "-o", out, "--no-lint", "--no-strategies")
        assert done.returncode == status, (argv, done.stderr)
        lines = done.stderr.splitlines()
        assert all(line.startswith("toolsearch: ") for line in lines), (argv, lines)
        if status:
            assert lines[-1].startswith("toolsearch: error: --scope ") and not out.exists()
            assert len(lines) == 1 or lines[0].startswith("toolsearch: scope file error: ")  # the skipped "b\nc"
        else:
            assert out.exists() and lines[-1].startswith("toolsearch: wrote ")
    done = run_cli("report", TEAM, "--scope", "a\nb=slack", "-o", out, "--no-lint", "--no-strategies")
    assert "toolsearch: scope a⟨U+000A⟩b: servers slack (reaches slack); 15 of 183 tools in the session" in done.stderr
    done = run_cli("plan", TEAM, "--scope", "a\nb=slack", "--scope", "c=github")
    assert "======== scope a⟨U+000A⟩b ========" in done.stdout.splitlines()
    for command in (["plan", TEAM], ["recommend", TEAM, "--context-lengths", "32k", "--goal", "names"],
                    ["strategies", TEAM]):
        done = run_cli(*command, "--scope", "a\nb")
        assert done.returncode == 2 and done.stderr == (
            "toolsearch: error: --scope a⟨U+000A⟩b: expected NAME=SERVER,SERVER (or give --scope-file FILE to pick a "
            "scope from it by name)\n"), (command, done.stderr)


def test_report_scope_except_or_keep_outside_the_scope_says_so_on_one_line(tmp_path):
    """--except/--keep naming a server the catalog has but the session scope does not reach: the
    error says the server is outside the scope (not that the catalog has no such server), and it is
    the only line on stderr: the scope's line comes once the report is built."""
    out = tmp_path / "r.html"
    base = ["--scope-file", SAMPLES / "scopes" / "team-workspace.yaml", "--scope", "support",
            "--context-lengths", "32k,200k", "--goal", "names", "-o", out, "--no-lint", "--no-strategies"]
    for option in ("--except", "--keep"):
        done = run_cli("report", TEAM, *base, option, "github")
        assert done.returncode == 2 and not out.exists()
        assert done.stderr == (f"toolsearch: error: report: {option}: server 'github' is outside the session scope "
                               "'support' (it reaches linear, slack, notion); give the scope's servers only\n")
    done = run_cli("report", TEAM, *base, "--except", "nope")
    assert done.stderr == ("toolsearch: error: report: --except: no server named 'nope' in the catalog "
                           "(servers: linear, slack, notion)\n")
    done = run_cli("recommend", TEAM, *base[:-4], "--keep", "github")
    assert done.returncode == 2 and "--keep: server 'github' is outside the session scope 'support'" in done.stderr


def test_report_block_intro_names_a_gate_line_only_where_the_block_has_one(tmp_path):
    """The sentence above the report's config block promises 'the check that gates a catalog on it'
    only when the block carries a # gate: line (not for a session scope, not when the goal is missed)."""
    promise = "the check that gates a catalog on it"
    common = ["--no-lint", "--no-strategies", "--goal", "names"]
    for argv, gate in ((["--context-lengths", "32k,1m"], True),
                       (["--context-lengths", "32k,1m", "--scope", "support=slack,linear"], False)):
        out = tmp_path / "r.html"
        assert run_cli("report", TEAM, *argv, *common, "-o", out).returncode == 0
        text = out.read_text(encoding="utf-8")
        assert ("# gate: toolsearch check" in text) is gate and (promise in text) is gate
    out = tmp_path / "miss.html"
    cloud = SAMPLES / "cloudflare-flat.yaml"
    assert run_cli("report", TEAM, cloud, "--context-lengths", "32k,1m", *common, "-o", out).returncode == 0
    text = out.read_text(encoding="utf-8")
    assert "\n# gate:" not in text and promise not in text and "no # gate: line: the goal is not reached" in text


def test_report_refuses_to_write_over_a_file_it_reads(tmp_path):
    """``-o`` naming the catalog, the config, the scope file or a session file is refused (exit 2,
    one line, the file untouched): ``report catalog.yaml -o catalog.yaml`` replaced the catalog
    with the HTML report."""
    catalog = tmp_path / "catalog.yaml"
    catalog.write_bytes(FIVE.read_bytes())
    scopes = tmp_path / "scopes.yaml"
    write_yaml(scopes, {"scopes": {"chat": {"servers": ["slack"]}}})
    config = tmp_path / "config.yaml"
    write_yaml(config, {"tools": {"tool_search": {"threshold_pct": 5}}})
    sessions = tmp_path / "s.db"
    sessions.write_bytes((ROOT / "sample_sessions" / "state.db").read_bytes())
    goal = ["--context-lengths", "32k", "--goal", "any", "--sessions", sessions]
    for target, what in ((catalog, "the catalog"), (config, "--config"), (scopes, "--scope-file"),
                         (sessions, "--sessions")):
        before = target.read_bytes()
        done = run_cli("report", catalog, "--config", config, "--scope-file", scopes, *goal, "--no-lint",
                       "--no-strategies", "-o", target)
        assert done.returncode == 2 and target.read_bytes() == before
        assert done.stderr == (f"toolsearch: error: {target}: -o: that file is an input of this report ({what}); "
                               "write the report to another file\n")
    done = run_cli("report", catalog, "--no-lint", "--no-strategies", "-o", tmp_path / "." / "catalog.yaml")
    assert done.returncode == 2 and catalog.read_bytes() == FIVE.read_bytes()
    out = tmp_path / "report.html"
    out.write_text("old", encoding="utf-8")
    assert run_cli("report", catalog, "--no-lint", "--no-strategies", "-o", out).returncode == 0  # an old report
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_report_scope_file_with_no_usable_scope_is_one_error_line_saying_why(tmp_path):
    """A scope file whose every scope is skipped: the error line itself says why (the first
    problem, and how many more), instead of a problem line followed by 'no usable scope'."""
    scopes = tmp_path / "scopes.yaml"
    write_yaml(scopes, {"scopes": {"a": {"servers": ["slack"], "bogus": 1}, "b": 5}})
    out = tmp_path / "r.html"
    done = run_cli("report", TEAM, "--scope-file", scopes, "-o", out)
    assert done.returncode == 2 and not out.exists()
    assert done.stderr == (f"toolsearch: error: {scopes}: no usable scope in the file (scopes.a: unknown key 'bogus' "
                           "(expected servers, include, exclude, description); scope skipped; 1 more like it)\n")


def test_report_in_a_scope_says_which_expected_tools_of_the_query_file_it_cannot_find(tmp_path):
    """A session scope's report scores the catalog's labeled queries on the session's tools: the
    search-quality section says how many expected names are not searched (they count as misses),
    so 30% recall reads as the scope's doing, not the search's. The whole catalog's report has no such line."""
    out = tmp_path / "r.html"
    done = run_cli("report", TEAM, "--scope-file", SAMPLES / "scopes" / "team-workspace.yaml", "--scope", "support",
                   "--no-lint", "--no-strategies", "-o", out)
    assert done.returncode == 0, done.stderr
    assert ("<p>11 expected names are not among the deferred tools searched (outside the session scope, or the query "
            "file is for another catalog); they count as misses: mcp__github__create_issue, "
            "mcp__github__create_pull_request, mcp__github__get_job_logs, mcp__sentry__find_issues, "
            "mcp__grafana__query_prometheus …</p>") in out.read_text(encoding="utf-8")
    assert run_cli("report", TEAM, "--no-lint", "--no-strategies", "-o", out).returncode == 0
    assert "expected name" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("content", [{"servers": []}, {"tools": []}, [], {"servers": [{"name": "github", "tools": []}]}])
def test_check_and_recommend_refuse_a_catalog_with_no_tools(tmp_path, content):
    """An export step that wrote an empty catalog (no servers, an empty tools/list result, an empty
    function array, a server without tools) is tier 0 and passed every goal: the gate said "passed"
    with nothing judged. check, recommend and report's recommendation exit 2 naming the file; an
    empty baseline is still compared (the catalog may be new)."""
    empty = write_yaml(tmp_path / "catalog.yaml", content)
    goal = ("--context-lengths", "32k", "--goal", "names")
    for command in ("check", "recommend"):
        done = run_cli(command, empty, *goal)
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr == (f"toolsearch: error: {command}: {empty}: no tools, so every goal would hold with "
                               "nothing judged; give the catalog the harness serves\n")
    done = run_cli("report", empty, *goal, "-o", tmp_path / "report.html")
    assert done.returncode == 2 and "report: " in done.stderr and not (tmp_path / "report.html").exists()
    assert run_cli("check", TEAM, "--baseline", empty, *goal).returncode == 0


@pytest.mark.parametrize("content", [{"servers": []}, {"tools": []}, [],
                                     {"servers": [{"name": "github", "tools": []}, {"name": "slack", "tools": []}]}])
def test_lint_refuses_a_catalog_with_no_tools_as_check_does(tmp_path, content):
    """lint printed "0 errors, 0 warnings" and exited 0 on a catalog with no tools (no servers,
    every server empty), where check refuses it: the same refusal now, exit 2 and one line naming
    the file, in text and JSON. A file whose every tool was skipped is still linted (its errors)."""
    empty = write_yaml(tmp_path / "catalog.yaml", content)
    for extra in ((), ("--json",)):
        done = run_cli("lint", empty, *extra)
        assert (done.returncode, done.stdout) == (2, ""), done.stdout + done.stderr
        assert done.stderr == (f"toolsearch: error: lint: {empty}: no tools, so there is nothing to lint, and no "
                               "findings would read as a clean catalog; give the catalog the harness serves\n")
    skipped = write_yaml(tmp_path / "skipped.yaml", {"servers": [{"name": "github", "tools": [{"description": "x"}]}]})
    done = run_cli("lint", skipped)
    assert done.returncode == 1 and "error: load-problem: catalog: " in done.stdout, done.stdout + done.stderr
    assert "nothing to lint" in " ".join(run_cli("lint", "--help").stdout.split())


def test_check_and_recommend_refuse_tools_registration_leaves_out(tmp_path):
    """Two tools whose names sanitize alike ('read-file', 'read_file') are none of them registered:
    the harness lacks both. check printed "catalog error" and passed "every tool with its short
    description" on the third tool alone; it exits 2 now, as for a tool the reader skipped."""
    tools = [{"name": name, "description": "Read a file.", "inputSchema": {"type": "object"}}
             for name in ("read-file", "read_file", "list_files")]
    catalog = write_yaml(tmp_path / "catalog.yaml", {"servers": [{"name": "docs", "tools": tools}]})
    goal = ("--context-lengths", "32k", "--goal", "full")
    for command in ("check", "recommend"):
        done = run_cli(command, catalog, *goal)
        assert (done.returncode, done.stdout) == (2, ""), done.stdout
        assert "none of them is registered" in done.stderr
        assert done.stderr.splitlines()[-1].startswith(f"toolsearch: error: {command}: 1 catalog error ({catalog}: "
                                                       "server 'docs'; above)")
    assert run_cli("check", catalog, *goal, "--tool-names", "as-is").returncode == 0  # no collision as-is
    assert run_cli("check", TEAM, "--baseline", catalog, *goal[:2], "--goal", "any").returncode == 0


def test_check_rows_name_the_excepted_servers_the_listing_collapsed(tmp_path):
    """``check --except github`` named github in its header only: a row reading "7/9 servers named,
    holds" did not say which servers the pass let go. Each row names the excepted servers
    collapsed at that length (text, Markdown, JSON ``excepted_collapsed``), and a row where none
    is collapsed names nothing."""
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"threshold_pct": 3,
                                                                             "listing_max_tokens": 4000}}})
    args = ("check", TEAM, "--config", config, "--context-lengths", "32k,40k,64k", "--goal", "names",
            "--except", "github", "--except", "grafana")
    text = run_cli(*args)
    assert text.returncode == 0, text.stderr
    rows = {line.split()[0]: line for line in text.stdout.splitlines()[4:7]}
    assert rows["32K"].endswith("holds; excepted, collapsed: github, grafana")
    assert rows["40K"].endswith("holds; excepted, collapsed: github")
    assert rows["64K"].endswith("holds"), rows
    data = json.loads(run_cli(*args, "--json").stdout)
    assert [c["excepted_collapsed"] for c in data["contexts"]] == [["github", "grafana"], ["github"], []]
    markdown = run_cli(*args, "--format", "markdown").stdout
    assert "| holds; excepted, collapsed: github, grafana |" in markdown


def test_check_failing_row_names_the_failing_server_before_the_excepted_ones(tmp_path):
    """A failing row of ``check --except github`` read "FAILS; excepted, collapsed: github": the only
    server the table named was the one the goal let go, while the one that failed it (grafana) was
    named only under the table. The cell names the failing servers first (text and Markdown, from
    ``LengthCheck.failing_servers``), so a CI log's reader is not sent to the excepted one."""
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"threshold_pct": 3,
                                                                             "listing_max_tokens": 4000}}})
    args = ("check", TEAM, "--config", config, "--context-lengths", "32k,40k,64k", "--goal", "names",
            "--except", "github")
    text = run_cli(*args)
    assert text.returncode == 1, text.stderr
    rows = {line.split()[0]: line for line in text.stdout.splitlines()[4:7]}
    assert rows["32K"].endswith("FAILS, collapsed: grafana; excepted, collapsed: github"), rows
    assert rows["40K"].endswith("holds; excepted, collapsed: github"), rows
    assert rows["64K"].endswith("holds"), rows
    assert "(collapsed and not excepted: grafana)" in text.stdout
    markdown = run_cli(*args, "--format", "markdown").stdout
    assert "| FAILS, collapsed: grafana; excepted, collapsed: github |" in markdown
    data = json.loads(run_cli(*args, "--json").stdout)
    assert [c["failing_servers"] for c in data["contexts"]] == [["grafana"], [], []]
    # a failure that is no server's says its condition, with or without excepted servers beside it
    more = run_cli(*args[:-2], "--except", "grafana", "--except", "github", "--headroom", "50",
                   "--max-listing-tokens", "1000")
    assert more.returncode == 1, more.stderr
    rows = {line.split()[0]: line for line in more.stdout.splitlines()[4:7]}
    assert rows["32K"].endswith("FAILS, headroom missed; excepted, collapsed: github, grafana"), rows
    assert rows["40K"].endswith("FAILS, listing over the limit, headroom missed; excepted, collapsed: github"), rows
    assert rows["64K"].endswith("FAILS, listing over the limit, headroom missed"), rows
    # and without --except, the failing servers
    plain = run_cli(*args[:-2], "--keep", "github")
    rows = {line.split()[0]: line for line in plain.stdout.splitlines()[4:7]}
    assert rows["32K"].endswith("FAILS, collapsed: github, grafana"), rows
    assert rows["40K"].endswith("FAILS, collapsed: github"), rows
    assert [c["excepted_collapsed"] for c in data["contexts"]] == [["github"], ["github"], []]


def test_check_baseline_text_keeps_the_cause_out_of_the_table():
    """check --baseline in a CI log: each row's "against the baseline" cell is short, and what first
    changes the tools array is said once under the table, numbered, with the lengths it is for."""
    text = run_cli("check", TEAM, "--baseline", FIVE, "--context-lengths", "32k,200k,1m", "--goal", "any")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    rows = lines[4:7]
    cells = [row.split("holds", 1)[1].strip() for row in rows]
    data = json.loads(run_cli("check", TEAM, "--baseline", FIVE, "--context-lengths", "32k,200k,1m", "--goal", "any",
                              "--format", "json").stdout)
    changes = [c["baseline"] for c in data["contexts"]]
    for cell, change in zip(cells, changes):
        assert len(cell) < 100, cell
        assert change["first_cause"] not in cell
        assert f"cache: {change['reusable_tokens']:,} of {change['total_tokens']:,} tokens reusable" in cell
    assert [cell[-3:] for cell in cells] == ["[1]", "[2]", "[2]"]  # 200K and 1M share one cause
    notes = [line for line in lines if line.startswith("[")]
    length = [row.split()[0] for row in rows]  # each length as the table writes it
    assert notes == [
        f"[1] at {length[0]}, what first changes the tools array (where the cache's reusable part ends): "
        f"{changes[0]['first_cause']} {changes[0]['more_causes']} more differences change the prefix too; "
        "toolsearch diff lists them.",
        f"[2] at {length[1]}, {length[2]}, what first changes the tools array (where the cache's reusable part ends): "
        f"{changes[1]['first_cause']} {changes[1]['more_causes']} more differences change the prefix too; "
        "toolsearch diff lists them."]
    assert text.stdout.count(changes[0]["first_cause"]) == 2  # once per distinct sentence, not per row


def test_report_of_a_catalog_without_tools_warns_as_plan_does(tmp_path):
    """``plan`` and ``sweep`` of a catalog with no tools warn that every figure is for an empty
    catalog; ``report`` wrote its HTML file for it without a word. It warns in the same words and
    still writes the file (exit 0); with a goal it refuses, as ``recommend`` does."""
    catalog = write_yaml(tmp_path / "empty.yaml", {"servers": []})
    out = tmp_path / "r.html"
    done = run_cli("report", catalog, "-o", out)
    assert done.returncode == 0, done.stderr
    warning = (f"toolsearch: warning: {catalog}: no tools, so every figure is for an empty catalog (tier 0: nothing "
               "to defer or list); give the catalog the harness serves")
    assert warning in done.stderr.splitlines(), done.stderr
    assert warning in run_cli("plan", catalog).stderr.splitlines()
    assert out.stat().st_size > 0
    refused = run_cli("report", catalog, "--context-lengths", "32k", "--goal", "names", "-o", out)
    assert refused.returncode == 2 and warning not in refused.stderr, refused.stderr

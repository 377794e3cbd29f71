"""Servers kept named (``--keep``, ``--keep-called``, the Tuning page's Must stay named) can keep other
servers named too: the listing collapses the largest names block first, so a kept server with a large
names block keeps every server after it named. ``recommend`` and the Tuning page say which, why and
what it costs (the budget needed with and without the kept servers)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis.recommend import recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
STATE = ROOT / "sample_sessions" / "state.db"
LENGTHS = [32_000, 200_000, 1_000_000]


def _expected(keep: list[str], forced: str) -> str:
    config = parse_config({})
    ladder = listing_ladder(inspector_of([TEAM]).planner, config)
    kept = recommend_for_contexts(ladder, config, LENGTHS, "listed", keep_servers=keep)
    alone = recommend_for_contexts(ladder, config, LENGTHS, "listed")
    assert alone.worst.servers_named == 1 and kept.worst.servers_named == 9  # the kept ones force the rest
    return (f"keeping github named keeps {forced} named too: the listing collapses "
            f"the largest names block first, and github's is collapsed before any of theirs; budget needed "
            f"{kept.budget_needed:,} tokens with the kept servers, {alone.budget_needed:,} for the goal alone")


def test_recommend_keep_called_says_what_the_kept_servers_force():
    words = _expected(["github", "grafana", "linear", "slack"], "playwright, notion, filesystem and sentry")
    done = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--sessions", STATE,
                   "--keep-called")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2].startswith("kept named because the sessions called them: github")
    assert lines[3] == words
    # a kept server that keeps no other named: nothing said
    small = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--keep", "sentry")
    assert not any(line.startswith("keeping ") for line in small.stdout.splitlines())
    assert " named too: " not in small.stdout and "for the goal alone" not in small.stdout


def test_tuning_page_says_what_the_kept_servers_force():
    # grafana and linear are not kept here: named only because github is
    words = _expected(["github", "slack"], "grafana, playwright, linear, notion, filesystem and sentry")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k, 200k, 1m", "goal": "listed", "keep": "github,slack"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    shown = [i.value.replace("\\", "") for i in at.info]
    assert words[0].upper() + words[1:] + "." in shown, shown


def test_check_keep_called_says_what_the_kept_servers_force_as_recommend_does():
    """``check --keep-called`` read the same sessions and kept the same servers named, but did not say
    what keeping them keeps named besides: the same line as ``recommend``'s, in every format."""
    words = _expected(["github", "grafana", "linear", "slack"], "playwright, notion, filesystem and sentry")
    args = ("check", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--sessions", STATE, "--keep-called")
    rec = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--sessions", STATE,
                  "--keep-called")
    assert words in rec.stdout.splitlines()
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr  # the goal holds: the line is said all the same
    lines = done.stdout.splitlines()
    assert lines[2].startswith("kept named because the sessions called them: github")
    assert lines[3] == words
    markdown = run_cli(*args, "--format", "markdown")
    assert f"- {words}" in markdown.stdout.splitlines()
    data = json.loads(run_cli(*args, "--format", "json").stdout)
    assert data["keep_forces"] == words
    github = run_cli(*args, "--format", "github").stdout.splitlines()
    assert f"::notice title=toolsearch check%3A servers kept named::{words}" in github, github
    # a kept server that keeps no other named: nothing said
    small = run_cli("check", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--keep", "sentry")
    assert "for the goal alone" not in small.stdout
    assert json.loads(run_cli("check", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--keep", "sentry",
                              "--format", "json").stdout)["keep_forces"] == ""


def test_a_kept_server_no_length_names_keeps_no_other_named() -> None:
    """``--keep github`` at 2,500 tokens and 32K is out of reach (github's names need more than the largest
    budget whose request fits 2,500 tokens), so the best reachable setting names 8 of 9 servers there, github not among them. The answer still
    said "keeping github named keeps playwright, linear, … named too; budget needed 924 tokens with the
    kept servers": a server it did not keep named, and the best reachable listing's budget called the kept
    servers' need. Where a kept server is collapsed, nothing else named is put down to keeping it."""
    done = run_cli("recommend", TEAM, "--context-lengths", "2500,32k", "--goal", "listed", "--keep", "github", "--json")
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    # 32K keeps the goal (github named there), 2,500 tokens gets its best reachable listing, github collapsed
    assert data["reached"] is False and [c["servers_named"] for c in data["contexts"]] == [8, 9]
    assert "github" in {u["name"] for u in data["unnamed"]}
    # what keeping github named does is said where it is named (32K), without a budget called its need
    assert data["keep_forces"].startswith("keeping github named keeps grafana, playwright, ")
    assert "budget needed" not in data["keep_forces"]
    only_short = json.loads(run_cli("recommend", TEAM, "--context-lengths", "2500", "--goal", "listed", "--keep", "github",
                                    "--json").stdout)
    assert only_short["reached"] is False and only_short["keep_forces"] == ""
    # reached, the line stays (the sample's own case)
    reached = json.loads(run_cli("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "listed", "--keep", "github",
                                 "--json").stdout)
    assert reached["reached"] is True and reached["keep_forces"].startswith("keeping github named keeps ")


def test_the_budget_needed_figures_say_when_they_hold_the_headroom(tmp_path) -> None:
    """With ``--headroom 10`` both figures of the line hold the headroom (1,621 and 175 tokens on the
    sample), where ``check`` without ``--headroom`` (the gate line's command) gives 1,473 and 159: the
    line says ``(with 10% headroom)``, the same words on every surface (one function), and the
    ``--yaml`` block carries the line as a comment, as it does the goal's other lines."""
    config = parse_config({})
    ladder = listing_ladder(inspector_of([TEAM]).planner, config)
    lengths = [32_000, 128_000, 200_000]
    kept = recommend_for_contexts(ladder, config, lengths, "listed", keep_servers=["github"], headroom_pct=10)
    alone = recommend_for_contexts(ladder, config, lengths, "listed", headroom_pct=10)
    assert (kept.budget_needed, alone.budget_needed) == (1621, 175)
    head = ("keeping github named keeps grafana, playwright, linear, notion, slack, filesystem and sentry named too: "
            "the listing collapses the largest names block first, and github's is collapsed before any of theirs; ")
    words = head + "budget needed 1,621 tokens with the kept servers, 175 for the goal alone (with 10% headroom)"
    assert kept.keep_forces == words
    args = [TEAM, "--context-lengths", "32k,128k,200k", "--goal", "listed", "--keep", "github"]
    assert words in run_cli("recommend", *args, "--headroom", "10").stdout.splitlines()
    assert json.loads(run_cli("recommend", *args, "--headroom", "10", "--json").stdout)["keep_forces"] == words
    block = run_cli("recommend", *args, "--headroom", "10", "--yaml").stdout
    assert f"# {words}" in block.splitlines()
    path = tmp_path / "block.yaml"
    path.write_text(block, encoding="utf-8")
    assert words in run_cli("check", *args, "--config", path, "--headroom", "10").stdout.splitlines()
    # without the headroom: the smaller figures, and no headroom said
    assert (head + "budget needed 1,473 tokens with the kept servers, 159 for the goal alone"
            in run_cli("check", *args, "--config", path).stdout.splitlines())

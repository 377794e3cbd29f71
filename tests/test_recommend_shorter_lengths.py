"""Recorded sessions that ran at a context length shorter than every listed one: the recommendation
says what its settings give there, in ``recommend`` (text and ``--json``), the report and the
Tuning page, in the same words and figures.

The shipped ``sample_sessions/state.db`` holds 3 sessions recorded at 16,000 tokens (gpt-5-mini)
and 3 at 200,000; with ``--keep-called`` grafana is kept named *because* sessions called it, and
exactly those sessions ran at 16K, where the recommended budget collapses it.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.conftest import run_cli
from conftest import inspector_of
from toolsearch.analysis.recommend import (add_session_evidence, outcomes, recommend_for_contexts,
                                           shorter_length_lines)
from toolsearch.analysis.sessions import called_tools, load_sessions, recorded_lengths
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
STORE = ROOT / "sample_sessions" / "state.db"
ARGS = ["recommend", str(CATALOG), "--context-lengths", "32k,200k,1m", "--goal", "listed",
        "--sessions", str(STORE), "--keep-called"]
GRAFANA = ("mcp__grafana__get_current_oncall_users, mcp__grafana__get_dashboard_panel_queries, "
           "mcp__grafana__search_dashboards")


def library(lengths: list[int]):
    inspector = inspector_of([CATALOG])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config)
    sessions = load_sessions([STORE]).sessions
    called, _ = called_tools(sessions, inspector, config)
    rec = recommend_for_contexts(ladder, config, lengths, "listed",
                                 keep_servers=["github", "grafana", "linear", "slack"])
    return add_session_evidence(rec, ladder, called, len(sessions), recorded_lengths=recorded_lengths(sessions)), ladder


def test_a_shorter_recorded_length_is_said_with_the_tools_it_loses():
    rec, ladder = library([32_000, 200_000, 1_000_000])
    (short,) = rec.shorter_lengths
    (there,) = outcomes(ladder, rec.threshold_pct, rec.listing_max_tokens, [16_000])
    assert short.outcome.context_length == 16_000 and short.sessions == 3
    assert (short.outcome.budget, short.outcome.outcome) == (there.budget, there.outcome) == (
        752, "mixed · 6 of 9 servers named (86 tools)")
    assert short.called_not_named == tuple(GRAFANA.split(", "))
    line = ("the sessions also ran at 16K (3 sessions), shorter than every listed context length: there "
            "these settings give mixed · 6 of 9 servers named (86 tools) within a budget of 752 tokens; 3 of the 4 tools "
            f"called there are not named ({GRAFANA}); add 16k to the context lengths to tune for it")
    assert shorter_length_lines(rec) == [line]

    result = run_cli(*ARGS)
    assert result.returncode == 0, result.stderr
    assert line in result.stdout.splitlines()
    data = json.loads(run_cli(*ARGS, "--json").stdout)
    assert data["sessions"]["shorter_lengths"] == [{
        "context_length": 16_000, "sessions": 3, "budget": 752, "listing_form": "mixed", "listing_tokens": 739,
        "servers_named": 6, "servers_total": 9, "tools_named": 86, "outcome": "mixed · 6 of 9 servers named (86 tools)",
        "called_listed": 1, "called_total": 4, "called_not_named": GRAFANA.split(", ")}]
    assert data["sessions"]["shorter_lengths"][0]["listing_tokens"] == short.outcome.listing_tokens
    # the exported block records it too, above the gate line
    block = run_cli(*ARGS, "--yaml").stdout.splitlines()
    assert block.index(f"# {line}") < [i for i, text in enumerate(block) if text.startswith("# gate:")][0]


def test_only_lengths_shorter_than_every_listed_one_are_said():
    # 16K listed: nothing left out. 8K listed: 16K sits between two listed lengths, so it gets at
    # least what 8K gets, and is not said either
    for lengths in ([16_000, 200_000], [8_000, 32_000]):
        rec, _ = library(lengths)
        assert rec.shorter_lengths == () and shorter_length_lines(rec) == []
    result = run_cli(*ARGS[:3], "16k,200k", *ARGS[4:])
    assert "the sessions also ran at" not in result.stdout
    assert json.loads(run_cli(*ARGS[:3], "16k,200k", *ARGS[4:], "--json").stdout)["sessions"]["shorter_lengths"] == []


def test_the_report_and_the_tuning_page_say_it_in_the_same_words(tmp_path):
    rec, _ = library([32_000, 200_000, 1_000_000])
    (line,) = shorter_length_lines(rec)
    out = tmp_path / "review.html"
    result = run_cli("report", str(CATALOG), "--context-lengths", "32k,200k,1m", "--goal", "listed",
                     "--sessions", str(STORE), "--keep-called", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert line.replace("→", "&#8594;") in out.read_text(encoding="utf-8") or line in out.read_text(encoding="utf-8")

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "listed", "sessions": "state.db", "keepcalled": "1"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    said = [str(w.value).replace("\\", "") for w in at.warning if "shorter than every listed" in str(w.value)]
    assert said == [line[0].upper() + line[1:] + "."], said


def test_a_shorter_length_that_lists_nothing_or_everything_is_said_so():
    base = ["recommend", str(CATALOG), "--context-lengths", "32k,200k", "--sessions", str(STORE)]
    nothing = [line for line in run_cli(*base, "--goal", "listed").stdout.splitlines() if "also ran" in line]
    assert nothing == [
        "the sessions also ran at 16K (3 sessions), shorter than every listed context length: there these "
        "settings give none · nothing listed (0 of 9 servers named) within a budget of 80 tokens; none of the 4 tools called "
        "there is named (mcp__grafana__get_current_oncall_users, mcp__grafana__get_dashboard_panel_queries, "
        "mcp__grafana__search_dashboards, mcp__slack__slack_post_message); add 16k to the context lengths to tune "
        "for it"]
    every = [line for line in run_cli(*base, "--goal", "full").stdout.splitlines() if "also ran" in line]
    assert every == [
        "the sessions also ran at 16K (3 sessions), shorter than every listed context length: there these "
        "settings give names · 9 of 9 servers named (178 tools) within a budget of 1,840 tokens; every tool called there is "
        "named (4 of 4); add 16k to the context lengths to tune for it"]

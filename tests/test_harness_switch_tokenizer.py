"""Claude Code's ``auto`` switch at a context length is one answer on the Harnesses page (and
``toolsearch harnesses``) and on the Strategies page's table of other harnesses' switches: both
count the MCP tokens with the planning tokenizer. The Strategies page counted them with the display
tokenizer, so with chars4 planning and o200k_base display at 740K it said Claude Code sends every
schema up front (70,907 tokens, under 10%) where the Harnesses rule defers (77,871 tokens)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import inspector_of, literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis import harnesses as H
from toolsearch.analysis.strategies import (
    StrategyModel,
    StrategySettings,
    harness_switches,
    load_events,
)

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
EVENTS = ROOT / "sample_skills" / "events.yaml"
LENGTH = 740_000


def _switches(tokenizer: str, planning: str | None):
    model = StrategyModel(inspector_of([TEAM]), settings=StrategySettings(
        tokenizer=tokenizer, planning_tokenizer=planning, context_length=LENGTH))
    return model, harness_switches(model, load_events(EVENTS))


def test_the_switches_count_with_the_planning_tokenizer() -> None:
    _, chars4 = _switches("chars4", None)
    _, o200k = _switches("o200k_base", None)
    assert chars4[0].mcp_tokens > LENGTH // 10 > o200k[0].mcp_tokens  # the case: the tokenizers disagree
    model, mixed = _switches("o200k_base", "chars4")  # the app's sidebar: display o200k_base, planning chars4
    assert [(s.mcp_tokens, s.claude_code) for s in mixed] == [(s.mcp_tokens, s.claude_code) for s in chars4]
    present = model.all_servers - model._held_back(load_events(EVENTS))
    figures = H.catalog_figures(model.inspector.planner, model.present_tools(present), "chars4")
    assert mixed[0].mcp_tokens == figures.claude_deferrable_tokens
    # the Harnesses rule at the same length with the same tokenizer defers too
    rows = json.loads(run_cli("harnesses", str(TEAM), "--context-lengths", str(LENGTH), "--harness", "claude-code",
                              "--setting", "claude-code=auto", "--json").stdout)
    assert [r["active"] for r in rows] == [True] and mixed[0].claude_code is True


def test_strategies_page_shows_the_planning_tokenizer_switch() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update({"dtok": "o200k_base", "ctx": "custom", "ctxn": str(LENGTH)})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["strat_harness_switches"]
    _, chars4 = _switches("chars4", None)
    assert (table["MCP tokens"].iloc[0], table["Claude Code auto"].iloc[0]) == (f"{chars4[0].mcp_tokens:,}", "defers")
    assert any("MCP tokens in chars4, the planning tokenizer" in c.value for c in at.caption)

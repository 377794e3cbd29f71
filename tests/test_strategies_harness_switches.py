"""Other harnesses' switches on the strategies timeline: a server added mid-session flips Claude
Code's ``auto`` at the next request, Qwen Code's threshold only at the next session start or
compaction."""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of, run_cli
from toolsearch.analysis import harnesses as H
from toolsearch.analysis.strategies import StrategyModel, StrategySettings, events_from_text, harness_switches

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
EVENTS = """
- {add_server: github}
- {call: mcp__slack__slack_post_message}
- compaction
- {remove_server: github}
"""


def model(length):
    return StrategyModel(inspector_of([FIVE]), None, StrategySettings(context_length=length))


def mcp_tokens(servers: set[str]) -> int:
    inspector = inspector_of([FIVE])
    tools = [t for t in inspector.registration.tools if t.server in servers]
    return H.catalog_figures(inspector.planner, tools).claude_deferrable_tokens


def test_add_server_flips_claude_at_the_next_request_and_qwen_only_after_compaction():
    m = model(400_000)
    everything = {t.server for t in m.inspector.registration.tools}
    without = mcp_tokens(everything - {"github"})
    with_github = mcp_tokens(everything)
    # the catalog sits on both sides of 10 % of 400K once github connects
    assert without * 100 <= 10 * 400_000 < with_github * 100
    steps = harness_switches(m, events_from_text(EVENTS, "events"))
    assert [s.mcp_tokens for s in steps] == [without, with_github, with_github, with_github, without]
    assert [s.claude_code for s in steps] == [False, True, True, True, False]
    assert [s.qwen_code for s in steps] == [False, False, False, True, True]
    assert [s.qwen_pending for s in steps] == [False, True, True, True, False]
    assert "Claude Code flips at the next request" in steps[1].note
    assert "compaction: Qwen Code decides again" in steps[3].note


def test_no_switches_without_a_context_length():
    assert harness_switches(model(None), events_from_text(EVENTS, "events")) == ()


def test_strategies_cli_prints_the_switches(tmp_path):
    events = tmp_path / "events.yaml"
    events.write_text(EVENTS, encoding="utf-8")
    result = run_cli("strategies", FIVE, "--events", events, "--context-length", "400k")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "other harnesses' switches at 400K (models" in out
    switches = out.split("other harnesses' switches")[1]
    line = next(l for l in switches.splitlines() if l.startswith("1 ") and "add_server github" in l)
    assert "defers" in line and "up front (pending change)" in line


def test_strategies_json_carries_the_switch_table(tmp_path):
    """``strategies --json`` gives the same switch steps as the text's table, in every strategy's
    object; without a context length there are none (both rules are shares of it)."""
    import json

    events = tmp_path / "events.yaml"
    events.write_text(EVENTS, encoding="utf-8")
    result = run_cli("strategies", FIVE, "--events", events, "--context-length", "400k", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    expected = [s.to_dict() for s in harness_switches(model(400_000), events_from_text(EVENTS, "events"))]
    assert expected and all(item["harness_switches"] == expected for item in data)
    assert [s["claude_code"] for s in expected] == [False, True, True, True, False]
    assert data[0]["harness_switches"][1]["event"] == {"add_server": "github"}
    result = run_cli("strategies", FIVE, "--events", events, "--json")
    assert result.returncode == 0 and all("harness_switches" not in item for item in json.loads(result.stdout))


def test_strategies_page_shows_the_switches_under_the_timeline():
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    timeline = tables["strat_timeline_table"]
    switches = tables["strat_harness_switches"]
    assert list(switches["step"]) == list(timeline["step"])
    assert list(switches["event"]) == list(timeline["event"])
    assert set(switches["Claude Code auto"]) <= {"defers", "up front"}
    assert list(switches["note"])[0] == "session start: both decide"


def test_each_set_of_servers_is_measured_once(monkeypatch):
    """The switches measure the connected servers' tools at every event; a set seen before reuses
    its figures (each measure serializes every tool: seconds per slider move on 3,000 tools)."""
    calls: list[int] = []
    real = H.catalog_figures
    monkeypatch.setattr(H, "catalog_figures", lambda *a, **k: calls.append(1) or real(*a, **k))
    steps = harness_switches(model(400_000), events_from_text(EVENTS, "events"))
    assert len(steps) == 5 and len(calls) == 2  # with and without github

"""Harness rules (toolsearch.analysis.harnesses): each rule checked against its documented examples,
flip points checked against the rule itself, Hermes' row against the engine, and the pins what-if."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import inspector_of
from toolsearch.analysis import harnesses as H
from toolsearch.analysis.sessions import load_sessions
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.registration import make_tool
from toolsearch.engine.tokens import chars4, compact_json, tools_array_tokens

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"


@pytest.fixture(scope="module")
def five() -> Inspector:
    return inspector_of([FIVE])


# --- Claude Code: ENABLE_TOOL_SEARCH ----------------------------------------------------------

@pytest.mark.parametrize("text, mode, pct, first_party", [
    ("", "unset", 10.0, True), ("unset", "unset", 10.0, True), ("unset-third-party", "unset", 10.0, False),
    ("true", "true", 10.0, True), ("false", "false", 10.0, True), ("auto", "auto", 10.0, True),
    ("auto:5", "auto", 5.0, True), ("AUTO:0", "auto", 0.0, True), ("auto:100", "auto", 100.0, True),
])
def test_claude_setting_parses_documented_values(text, mode, pct, first_party):
    s = H.parse_claude_setting(text)
    assert (s.mode, s.pct, s.first_party) == (mode, pct, first_party)


@pytest.mark.parametrize("text", ["auto:150", "auto:-1", "auto:x", "maybe", "auto:nan"])
def test_claude_setting_rejects_other_values(text):
    with pytest.raises(H.HarnessError, match="claude-code setting"):
        H.parse_claude_setting(text)


def test_claude_auto5_defers_only_over_five_percent():
    # Documented: "auto:5 activates when tool definitions exceed 5% of the context window".
    s = H.parse_claude_setting("auto:5")
    assert H.claude_code_active(s, 10_001, 200_000) is True
    assert H.claude_code_active(s, 10_000, 200_000) is False   # exactly 5 %: not exceeded


def test_claude_auto_report_of_19_tools_at_4_7_percent():
    # A reported setup: 19 MCP tools, ~9.3k tokens, 4.7 % of a 200K window: auto (10 %) keeps them
    # up front, a 4 % threshold would defer them.
    assert H.claude_code_active(H.parse_claude_setting("auto"), 9_300, 200_000) is False
    assert H.claude_code_active(H.parse_claude_setting("auto:4"), 9_300, 200_000) is True


def test_claude_unset_true_false_and_third_party():
    assert H.claude_code_active(H.parse_claude_setting("unset"), 1, 1_000_000) is True
    assert H.claude_code_active(H.parse_claude_setting("true"), 1, 1_000_000) is True
    assert H.claude_code_active(H.parse_claude_setting("false"), 10**9, 1_000) is False
    assert H.claude_code_active(H.parse_claude_setting("unset-third-party"), 10**9, 1_000) is False
    assert H.claude_code_active(H.parse_claude_setting("true"), 10**9, 1_000, has_mcp_tools=False) is False


def test_claude_description_cut_at_2048_characters():
    long = make_tool("t", "x" * 3000, server="s")
    exact = make_tool("u", "y" * 2048, server="s")
    cut = H.claude_definition(long)["function"]["description"]
    assert cut == "x" * 2048 + "\u2026 [truncated]"
    assert H.claude_definition(exact) is exact.definition
    assert long.description == "x" * 3000  # the registered tool is not changed


def test_claude_cut_lowers_the_measured_tokens(five):
    big = make_tool("big", "z" * 10_000, server="s")
    full_chars = len(compact_json(big.definition))
    cut_chars = len(compact_json(H.claude_definition(big)))
    assert cut_chars == full_chars - 10_000 + 2048 + len(H.CLAUDE_TRUNCATION_SUFFIX)
    assert tools_array_tokens([H.claude_definition(big)], "chars4") == chars4(cut_chars)
    assert tools_array_tokens([big.definition], "chars4") == chars4(full_chars)


# --- Qwen Code ------------------------------------------------------------------------------

def test_qwen_preloads_when_the_estimate_fits_the_budget():
    # PR: preload when "estimated N <= budget M"; a tiny tool (0.1 %) fits the 10 % default.
    assert H.qwen_code_active(10.0, 200, 200_000) is False
    assert H.qwen_code_active(10.0, 20_000, 200_000) is False   # N == M: fits
    assert H.qwen_code_active(10.0, 20_001, 200_000) is True


def test_qwen_threshold_zero_always_defers():
    assert H.qwen_code_active(0.0, 1, 10_000_000) is True


# --- kiro-cli -------------------------------------------------------------------------------

def test_kiro_either_threshold_is_enough():
    # Defaults 5 % or 50,000 tokens, OR logic.
    assert H.kiro_cli_active(True, 5, 50_000, 60_000, 2_000_000) is True    # only the token leg
    assert H.kiro_cli_active(True, 5, 50_000, 40_000, 2_000_000) is False   # neither
    assert H.kiro_cli_active(True, 5, 50_000, 40_000, 500_000) is True      # only the percent leg
    assert H.kiro_cli_active(True, 0, 0, 1, 10_000_000) is True             # both 0: always
    assert H.kiro_cli_active(False, 0, 0, 10**9, 1_000) is False            # off by default


def test_kiro_setting_parsing():
    assert H.parse_kiro_setting("5%/50000") == (True, 5.0, 50_000)
    assert H.parse_kiro_setting("off")[0] is False
    for bad in ("5%", "x/1", "5%/-3", "150%/1"):
        with pytest.raises(H.HarnessError, match="kiro-cli"):
            H.parse_kiro_setting(bad)


# --- count trigger and Strands ----------------------------------------------------------------

def test_count_trigger_from_15_tools():
    assert H.count_active(15, 14) is False
    assert H.count_active(15, 15) is True


def test_strands_conditions_at_or_above_and_any_is_enough():
    c = H.parse_strands("toolCount=15")
    assert H.strands_active(c, 15, 0, 200_000) is True
    assert H.strands_active(c, 14, 0, 200_000) is False
    pct = H.parse_strands("schemaTokens=5%")
    assert H.strands_active(pct, 1, 10_000, 200_000) is True      # exactly 5 %: at or above
    assert H.strands_active(pct, 1, 9_999, 200_000) is False
    both = H.parse_strands("toolCount=100+schemaTokens=8000")
    assert H.strands_active(both, 3, 8_000, 10**7) is True
    assert H.strands_active(H.parse_strands("none"), 1, 1, 10**7) is True   # no conditions: always
    with pytest.raises(H.HarnessError, match="unknown condition"):
        H.parse_strands("tools=3")


# --- rows on a real catalog -----------------------------------------------------------------

def test_eager_tokens_are_the_plans(five):
    for tokenizer in ("chars4", "o200k_base"):
        plan = five.plan(ToolSearchConfig(), 200_000, tokenizer)
        figures = H.catalog_figures(five.planner, tokenizer=tokenizer)
        assert figures.eager_tokens == plan.eager_tokens
        assert figures.kept_tokens == 0 and figures.deferrable_tokens == plan.eager_tokens  # every tool is MCP


@pytest.mark.parametrize("harness, setting", [
    ("claude-code", "auto"), ("claude-code", "auto:7"), ("qwen-code", "10%"), ("qwen-code", "3"),
    ("kiro-cli", "5%/100000"), ("strands", "schemaTokens=5%"),
])
def test_flip_at_is_where_active_changes(five, harness, setting):
    figures = H.catalog_figures(five.planner)
    row = H.harness_row(harness, setting, five, figures, 200_000)
    assert row.flip_at is not None
    below = H.harness_row(harness, setting, five, figures, row.flip_at - 1)
    at = H.harness_row(harness, setting, five, figures, row.flip_at)
    small = H.harness_row(harness, setting, five, figures, 1_000)
    assert below.active == small.active is True
    assert at.active is False
    assert at.visible == H.FULL and at.upfront_tokens > below.upfront_tokens


def test_flip_is_none_where_the_length_plays_no_part(five):
    figures = H.catalog_figures(five.planner)
    for harness, setting in (("hermes", "config"), ("claude-code", "unset"), ("count", "15"),
                             ("kiro-cli", "5%/50000")):  # the catalog's MCP specs exceed 50,000 tokens
        assert H.harness_row(harness, setting, five, figures, 200_000).flip_at is None


def test_claude_knob_names_the_largest_deferring_n(five):
    figures = H.catalog_figures(five.planner)
    row = H.claude_code(figures, 1_000_000, "auto")
    n = H.max_pct_exceeded(figures.claude_deferrable_tokens, 1_000_000)
    assert f"N \u2264 {n} defers at 1M" in row.knob
    assert H.claude_code(figures, 1_000_000, f"auto:{n}").active is True
    assert H.claude_code(figures, 1_000_000, f"auto:{n + 1}").active is False


def test_hermes_row_is_the_plan(five):
    cfg = ToolSearchConfig()
    for length in (32_000, 1_000_000):
        plan = five.plan(cfg, length)
        row = H.hermes(five, length, cfg)
        assert (row.active, row.upfront_tokens, row.exact) == (plan.activated, plan.tools_tokens, True)
        assert row.flip_at is None
    off = H.hermes(five, 200_000, cfg, setting="off")
    assert off.active is False and off.visible == H.FULL
    assert off.upfront_tokens == five.plan(ToolSearchConfig(enabled="off"), 200_000).tools_tokens


def test_hermes_visible_follows_the_listing_form(five):
    """Hermes' ``visible`` says what its listing form shows: full lines carry each tool's short
    description (as the Overview says), the names form only names, no listing nothing."""
    seen = {}
    for pct in (5.0, 0.5, 0.01):
        cfg = ToolSearchConfig(threshold_pct=pct)
        seen[five.plan(cfg, 200_000).listing_form] = H.hermes(five, 200_000, cfg).visible
    assert seen == {"full": H.NAMES_DESCRIPTIONS, "names": H.NAMES, "none": H.NOTHING}


def test_rows_cover_every_harness_and_length(five):
    rows = H.harness_rows(five, [200_000, 1_000_000])
    assert {r.harness for r in rows} == set(H.HARNESSES)
    assert [r.context_length for r in rows][0] == 200_000
    assert all(r.source == H.SOURCES[r.harness] for r in rows)
    assert list(rows[0].to_dict())[:8] == ["harness", "setting", "context_length", "active", "upfront_tokens",
                                           "visible", "flip_at", "source"]
    with pytest.raises(H.HarnessError, match="known length"):
        H.harness_rows(five, [None])


def test_settings_parse_and_refuse(five):
    assert H.parse_settings(["claude-code=auto:3", "claude-code=false"]) == {"claude-code": ("auto:3", "false")}
    with pytest.raises(H.HarnessError, match="HARNESS=VALUE"):
        H.parse_settings(["cursor=on"])
    with pytest.raises(H.HarnessError, match="qwen-code threshold"):
        H.parse_settings(["qwen-code=200%"])


# --- pins ---------------------------------------------------------------------------------------

def test_hermes_pin_cost_is_the_engines_difference(five):
    pins = H.resolve_pins(five, servers=["slack"])
    assert pins and all(p.startswith("mcp__slack__") for p in pins)
    result = H.pin_what_if(five, "hermes", pins, 200_000)
    plain = five.plan(ToolSearchConfig(), 200_000)
    pinned = H.pinned_inspector(five, pins).plan(ToolSearchConfig(), 200_000)
    assert result.cost_tokens == pinned.tools_tokens - plain.tools_tokens
    assert set(pins) <= {t["function"]["name"] for t in pinned.tools}
    assert result.released is False and "not in released Hermes" in result.notes[0]
    assert five.plan(ToolSearchConfig(), 200_000).tools_tokens == plain.tools_tokens  # original untouched


def test_claude_pin_moves_schemas_up_front(five):
    pins = H.resolve_pins(five, tools=["slack_post_message"])
    result = H.pin_what_if(five, "claude-code", pins, 200_000)
    schema = result.per_tool[0].schema_tokens
    assert result.after.upfront_tokens > result.before.upfront_tokens
    rest = [t for t in five.registration.tools if H.is_harness_deferrable(t) and t.name not in pins]
    assert result.after.measured_tokens == tools_array_tokens([H.claude_definition(t) for t in rest], "chars4")
    assert result.before.measured_tokens - result.after.measured_tokens in (schema, schema - 1)  # chars4 rounds once
    assert result.after.deferred_count == result.before.deferred_count - 1


def test_pins_from_sessions_count_first_uses_and_compactions(five):
    sessions = load_sessions([ROOT / "sample_sessions" / "claude-code.jsonl"]).sessions
    top = H.most_called_tools(sessions, five, limit=2)
    known = {t.name for t in five.registration.tools}
    counts: dict = {}
    for s in sessions:
        for e in s.calls:
            if e.name in known:
                counts[e.name] = counts.get(e.name, 0) + 1
    assert list(top) == sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
    assert "mcp__github__get_job_logs" not in known  # called in the sessions, not a tool of this catalog
    names = [name for name, _ in top]
    uses = H.first_uses(sessions, names)
    expected = 0
    for s in sessions:
        seen: set = set()
        for e in s.events:
            if e.kind == "compaction":
                seen = set()
            elif e.kind == "call" and e.name in names and e.name not in seen:
                seen.add(e.name)
                expected += 1
    assert sum(uses.values()) == expected > 0
    # round trips saved: the discovery calls recorded just before each first use (since the previous
    # tool call), not first uses times an assumed number of round trips
    discovery = 0
    for s in sessions:
        seen, pending = set(), 0
        for e in s.events:
            if e.kind == "compaction":
                seen = set()
            elif e.kind in ("search", "describe"):
                pending += 1
            elif e.kind == "call":
                if e.name in names and e.name not in seen:
                    seen.add(e.name)
                    discovery += pending
                pending = 0
    assert sum(H.discovery_before_first_uses(sessions, names).values()) == discovery > 0
    for harness in ("hermes", "claude-code"):
        result = H.pin_what_if(five, harness, names, 200_000, sessions=sessions)
        assert result.round_trips_saved == discovery
        assert [(p.first_uses, p.discovery_calls) for p in result.per_tool] == [
            (uses[p.name], H.discovery_before_first_uses(sessions, names)[p.name]) for p in result.per_tool]


def test_a_pin_saves_the_discovery_calls_recorded_before_first_uses_not_an_assumed_two():
    """One session: a search and two describes before the first use of create_issue (3 round trips),
    then a second call of it (not a first use). First uses × 2 said 2; the session says 3."""
    from toolsearch.analysis.sessions import load_sessions_text

    def call(cid, name, args):
        return {"role": "assistant", "content": "", "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}

    tool = "mcp__github__create_issue"
    messages = [call("c1", "tool_search", {"queries": ["open an issue"]}),
                {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"results": [{"query": "open an issue",
                                                                                          "matches": [tool]}]})},
                call("c2", "tool_describe", {"names": [tool]}), {"role": "tool", "tool_call_id": "c2", "content": "{}"},
                call("c3", "tool_describe", {"names": [tool]}), {"role": "tool", "tool_call_id": "c3", "content": "{}"},
                call("c4", "tool_call", {"name": tool, "arguments": {"title": "a"}}),
                {"role": "tool", "tool_call_id": "c4", "content": "{}"},
                call("c5", "tool_call", {"name": tool, "arguments": {"title": "b"}}),
                {"role": "tool", "tool_call_id": "c5", "content": "{}"}]
    sessions = load_sessions_text(json.dumps({"id": "s", "messages": messages}), "one.json").sessions
    five = inspector_of([ROOT / "sample_catalogs" / "five-servers.yaml"])
    assert H.first_uses(sessions, [tool]) == {tool: 1}
    result = H.pin_what_if(five, "hermes", [tool], 200_000, sessions=sessions)
    assert result.round_trips_saved == 3
    assert result.per_tool[0].to_dict() == {"name": tool, "schema_tokens": result.per_tool[0].schema_tokens,
                                            "calls": 2, "first_uses": 1, "discovery_calls": 3}


def test_pins_refuse_unknown_names(five):
    with pytest.raises(H.HarnessError, match="no server named 'nope'"):
        H.resolve_pins(five, servers=["nope"])
    with pytest.raises(H.HarnessError, match="no tool or toolset named"):
        H.resolve_pins(five, tools=["nope"])
    with pytest.raises(H.HarnessError, match="claude-code or hermes"):
        H.pin_what_if(five, "qwen-code", [], 200_000)


def test_docs_cite_every_modelled_rule_source():
    text = (ROOT / "docs" / "harnesses.md").read_text(encoding="utf-8")
    for harness, source in H.SOURCES.items():
        if harness == H.HERMES:
            continue
        for url in (part.strip() for part in source.split(" ; ")):
            assert url.split("/docs/en/")[-1] in text or url in text, (harness, url)
    for label in ("documented", "as reported", "proposal"):
        assert f"| {label}" in text


def test_pin_hot_tools_pins_the_most_called_deferred_tools_at_each_known_length():
    team = inspector_of([ROOT / "sample_catalogs" / "team-workspace.yaml"])
    sessions = load_sessions([ROOT / "sample_sessions" / "state.db"]).sessions
    config = ToolSearchConfig()
    deferred = team.bridge(config).deferred_by_name
    hot, what_ifs = H.pin_hot_tools(sessions, team, [32_000, None, 1_000_000, 32_000], config, limit=3)
    every = [(n, c) for n, c in H.most_called_tools(sessions, team, limit=1000) if n in deferred]
    assert list(hot) == every[:3] and len(hot) == 3
    # one what-if per known length, repeats and unknown lengths left out, each the library's pin_what_if
    assert [w.after.context_length for w in what_ifs] == [32_000, 1_000_000]
    for w in what_ifs:
        same = H.pin_what_if(team, "hermes", [n for n, _ in hot], w.after.context_length, sessions, config)
        assert (w.pinned, w.cost_tokens, w.round_trips_saved) == (same.pinned, same.cost_tokens, same.round_trips_saved)
        assert w.cost_tokens > 0 and w.round_trips_saved > 0 and not w.released
    # with nothing deferred there is nothing to pin
    assert H.pin_hot_tools(sessions, team, [32_000], ToolSearchConfig(enabled="off")) == ((), [])

"""Sessions as evidence for a setting: the what-if at the context lengths being tuned, catalog
drift, and per-session flags (deferred but never searched; searches repeated after a
compaction), through the library and ``toolsearch sessions`` (text and ``--json``).

Session stores are written by Hermes' own ``hermes_state.SessionDB`` (see tests/test_sessions.py:
``$TOOLSEARCH_HERMES_PYTHON`` names the interpreter of a hermes-agent environment), including
a real compaction (Hermes' ``archive_and_compact``).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.test_sessions import CATALOG, SAMPLES, search_response, tool_calls, write_store
from conftest import inspector_of
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.sessions import (called_listed_at, called_tools, catalog_drift, listing_evidence,
                                          load_sessions, session_flags, what_if_lengths)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.analysis.wording import share_cell
from toolsearch.engine.config import parse_config
from toolsearch.engine.plan import listing_budget

ROOT = Path(__file__).absolute().parent.parent
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"


def search(call_id: str, query: str, matches: list[str]) -> list[dict]:
    return [{"role": "assistant", "content": "", "tool_calls": tool_calls(call_id, "tool_search", {"queries": [query]})},
            {"role": "tool", "tool_call_id": call_id, "tool_name": "tool_search",
             "content": search_response(query, matches)}]


def call(call_id: str, name: str, arguments: dict) -> list[dict]:
    return [{"role": "assistant", "content": "", "tool_calls": tool_calls(
                call_id, "tool_call", {"name": name, "arguments": arguments})},
            {"role": "tool", "tool_call_id": call_id, "tool_name": "tool_call", "content": "{\"ok\": true}"}]


#: s-repeat: searches, is compacted by Hermes, then searches the same thing twice (once exactly,
#: once reworded); s-blind: calls a deferred tool without ever searching; s-fine: searches once.
SPEC = {"sessions": [
    {"id": "s-repeat", "model": "openai/gpt-5-mini", "model_config": {"context_length": 16000},
     "messages": [
         {"role": "user", "content": "Post the release note to Slack"},
         *search("r1", "slack post message", ["mcp__slack__slack_post_message"]),
         {"compact": [{"role": "user", "content": "Summary: the user wants a release note posted to Slack."}]},
         *search("r2", "Slack  post MESSAGE", ["mcp__slack__slack_post_message"]),
         *search("r3", "post a slack message", ["mcp__slack__slack_post_message"]),
         *search("r4", "grafana dashboards", ["mcp__grafana__search_dashboards"]),
         *call("r5", "mcp__slack__slack_post_message", {"channel_id": "C1", "text": "2.4 is out"})]},
    {"id": "s-blind", "model": "anthropic/claude-sonnet-4.5",
     "messages": [
         {"role": "user", "content": "Open an issue for the flaky test"},
         *call("b1", "mcp__github__create_issue", {"owner": "o", "repo": "r", "title": "Flaky"})]},
    {"id": "s-fine", "model": "anthropic/claude-sonnet-4.5",
     "messages": [
         {"role": "user", "content": "Who is on call?"},
         *search("f1", "on-call schedule", ["mcp__grafana__get_current_oncall_users"]),
         *call("f2", "mcp__grafana__get_current_oncall_users", {"schedule_id": "S1"})]},
]}


def test_flags_on_a_store_hermes_wrote_and_compacted(tmp_path):
    db = write_store(tmp_path, SPEC)
    sessions = load_sessions([db]).sessions
    inspector = inspector_of([CATALOG])
    flags = {f.session: f for f in session_flags(sessions, inspector, parse_config({}))}
    repeat = flags["s-repeat"]
    assert repeat.compactions == 1 and not repeat.deferred_never_searched
    # the query before the compaction was archived by Hermes; the two after it repeat it, the third does not
    assert [(r.query, r.earlier, r.exact) for r in repeat.repeated_after_compaction] == [
        ("Slack  post MESSAGE", "slack post message", True),
        ("post a slack message", "slack post message", False)]
    assert flags["s-blind"].deferred_never_searched and not flags["s-blind"].repeated_after_compaction
    assert not flags["s-fine"].flagged
    # with nothing deferred there is nothing the model failed to search for
    off = {f.session: f for f in session_flags(sessions, inspector, parse_config({"enabled": "off"}))}
    assert not off["s-blind"].deferred_never_searched


def test_cli_reports_flags_drift_and_lengths_on_a_hermes_store(tmp_path):
    db = write_store(tmp_path, SPEC)
    done = run_cli("sessions", db, "--catalog", CATALOG, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    flags = {s["id"]: s["flags"] for s in data["per_session"]}
    assert flags["s-blind"] == {"session": "s-blind", "deferred_never_searched": True,
                                "repeated_after_compaction": [], "compactions": 0}
    assert [r["query"] for r in flags["s-repeat"]["repeated_after_compaction"]] == ["Slack  post MESSAGE",
                                                                                    "post a slack message"]
    compaction = next(e for e in next(s for s in data["per_session"] if s["id"] == "s-repeat")["events"]
                      if e["kind"] == "compaction")
    assert compaction["earlier_queries"] == ["slack post message"]
    assert data["catalog_drift"]["drifted"] is False and data["catalog_drift"]["missing_tools"] == []
    # default lengths: the 16K a session recorded, then 32K, 200K, 1M (no --context-length), each
    # with the library's figures
    sessions = load_sessions([db]).sessions
    assert 16_000 in {s.context_length for s in sessions}
    inspector = inspector_of([CATALOG])
    expected = called_listed_at(sessions, inspector, parse_config({}), [16_000, 32_000, 200_000, 1_000_000])
    assert data["called_listed"] == [c.to_dict() for c in expected]
    assert [c["called_total"] for c in data["called_listed"]] == [3, 3, 3, 3]

    text = run_cli("sessions", db, "--catalog", CATALOG, "--context-lengths", "16k,1m")
    assert text.returncode == 0, text.stderr
    out = text.stdout
    assert "flagged sessions: 2 of 3:" in out
    assert "  s-blind: deferred but never searched" in out
    assert "  s-repeat: 2 searches repeated after a compaction" in out
    # Hermes archived the first search: the steps after the compaction count from 1
    assert "    #1 'Slack  post MESSAGE' after a compaction (same query as 'slack post message')" in out
    assert "    #2 'post a slack message' after a compaction (near the same as 'slack post message')" in out
    assert "  compaction (3 messages archived); searched before it: 'slack post message'" in out
    assert "session s-blind (anthropic/claude-sonnet-4.5, context length unknown, 3 messages, 0 round trips) " \
           "[flag: deferred but never searched]" in out
    rows = [line.split() for line in out.split("searches saved\n", 1)[1].splitlines()[1:3]]
    at = called_listed_at(sessions, inspector, parse_config({}), [16_000, 1_000_000])
    assert [c.listing_form for c in at] == ["mixed", "full"]
    assert rows == [[length_label(c.context_length), f"{c.budget:,}", *c.short_label.split(),
                     share_cell(c.called_listed, c.called_total), str(c.searches_saved)] for c in at]
    assert "catalog drift" not in out


def test_cli_default_lengths_include_the_lengths_the_sessions_ran_at():
    """With no --context-lengths, the what-if asks at the lengths the sessions recorded (the sample
    store's 16K and 200K) as well as --context-length and 32K/200K/1M, shortest first."""
    done = run_cli("sessions", SAMPLES / "state.db", "--catalog", CATALOG, "--context-length", "64k", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    recorded = {s["context_length"] for s in data["per_session"]} - {None}
    assert 16_000 in recorded
    assert [c["context_length"] for c in data["called_listed"]] == [16_000, 32_000, 64_000, 200_000, 1_000_000]
    given = run_cli("sessions", SAMPLES / "state.db", "--catalog", CATALOG, "--context-lengths", "1m", "--json")
    assert [c["context_length"] for c in json.loads(given.stdout)["called_listed"]] == [1_000_000]


def test_called_listed_at_uses_the_lengths_given_not_the_sessions_own():
    sessions = load_sessions([SAMPLES / "state.db"]).sessions
    inspector = inspector_of([CATALOG])
    config = parse_config({"threshold_pct": 3.0, "listing_max_tokens": 1200})
    called, _ = called_tools(sessions, inspector, config)
    ladder = listing_ladder(inspector.planner, config)
    rows = called_listed_at(sessions, inspector, config, [16_000, 1_000_000, None])
    assert [r.context_length for r in rows] == [16_000, 1_000_000, None]
    for row in rows:
        budget = listing_budget(row.context_length, 3.0, 1200)[0]
        assert row.budget == budget
        assert {"called_listed": row.called_listed, "called_total": row.called_total,
                "searches_saved": row.searches_saved} == listing_evidence(called, ladder.step_at(budget))
    # a smaller budget names fewer of the called tools; the total does not change
    assert rows[0].called_listed < rows[1].called_listed and rows[0].called_total == rows[1].called_total == 7
    assert what_if_lengths(16_000) == [16_000, 32_000, 200_000, 1_000_000]
    assert what_if_lengths(200_000) == [200_000, 32_000, 1_000_000]
    assert what_if_lengths(None) == [32_000, 200_000, 1_000_000]


def test_drift_against_another_catalog_in_text_and_json():
    done = run_cli("sessions", SAMPLES / "state.db", "--catalog", CLOUDFLARE, "--json")
    assert done.returncode == 0, done.stderr
    drift = json.loads(done.stdout)["catalog_drift"]
    assert drift["missing_servers"] == ["github", "grafana", "linear", "notion", "slack"]
    assert "mcp__github__create_issue" in drift["missing_tools"]
    assert drift["extra_servers"] == ["cloudflare"] and drift["extra_server_count"] == 1
    assert drift["sessions_with_missing"] == 7
    text = run_cli("sessions", SAMPLES / "state.db", "--catalog", CLOUDFLARE)
    line = next(x for x in text.stdout.splitlines() if x.startswith("warning: catalog drift:"))
    assert f"{len(drift['missing_tools'])} tools the sessions used are not in Cloudflare flat API" in line
    assert "servers missing: github, grafana, linear, notion, slack" in line
    assert "the catalog has 1 server no session mentions" in line
    # the listing on this catalog is all summary lines: shown as "summary", and nothing called is named
    table = text.stdout.split("searches saved\n", 1)[1].splitlines()[1:4]
    assert [row.split()[2:] for row in table] == [["summary", "0/0", "0"]] * 3
    # the catalog the samples were recorded on, the app's default: no drift (a recorded describe that
    # came back "not found" is not drift either: the sessions' catalog lacked it too)
    own = catalog_drift(load_sessions([SAMPLES / "state.db"]).sessions, inspector_of([CATALOG]))
    assert own.missing_tools == () and own.missing_servers == () and not own.drifted


def _cc(sid: str, n: int, kind: str, message: dict | None = None, **extra) -> str:
    entry = {"sessionId": sid, "uuid": f"{sid}-{n}", "type": kind, **extra}
    if message is not None:
        entry["message"] = message
    return json.dumps(entry)


def test_claude_code_transcript_keeps_both_sides_of_a_compaction(tmp_path):
    sid = "cc-1"

    def tool_search(n: int, query: str) -> list[str]:
        return [_cc(sid, n, "assistant", {"role": "assistant", "model": "claude-sonnet-4.5", "content": [
                    {"type": "tool_use", "id": f"t{n}", "name": "ToolSearch", "input": {"query": query}}]}),
                _cc(sid, n + 1, "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}",
                    "content": [{"type": "tool_reference", "tool_name": "mcp__github__create_issue"}]}]})]

    lines = [_cc(sid, 0, "user", {"role": "user", "content": "open an issue"}),
             *tool_search(1, "create github issue"),
             _cc(sid, 3, "system", subtype="compact_boundary"),
             _cc(sid, 4, "user", {"role": "user", "content": "Summary of the conversation"}, isCompactSummary=True),
             *tool_search(5, "github issue create"),
             *tool_search(7, "github issue")]
    path = tmp_path / "cc.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    flags = session_flags(load_sessions([path]).sessions, inspector_of([CATALOG]), parse_config({}))
    # the reordered query repeats the earlier one; the shorter one holds two of its terms: near the same
    assert [(r.step, r.query, r.earlier, r.exact) for r in flags[0].repeated_after_compaction] == [
        (2, "github issue create", "create github issue", False), (3, "github issue", "create github issue", False)]
    assert not flags[0].deferred_never_searched  # it searched (and called nothing)


def test_session_lines_count_in_words() -> None:
    """A session with one round trip says "1 round trip", not "1 round trips"."""
    root = Path(__file__).absolute().parent.parent
    out = run_cli("sessions", root / "sample_sessions" / "state.db", "--catalog",
                  root / "sample_catalogs" / "team-workspace.yaml")
    assert out.returncode == 0, out.stderr
    assert "session 20261128_170000_d4 (openai/gpt-5-mini, context length 16K, 5 messages, 1 round trip)" in out.stdout
    assert "1 round trips" not in out.stdout


#: A conversation Hermes split at a compression (its store before in-place compaction, and today
#: with ``compression.in_place: false``): the first part is ended with end_reason 'compression' and
#: a child row carries on. And a subagent: a child of a session that did not end by compression.
SPLIT = {"sessions": [
    {"id": "s-long", "model": "openai/gpt-5-mini", "model_config": {"context_length": 16000},
     "tokens": {"input_tokens": 1000, "output_tokens": 100}, "end_reason": "compression",
     "messages": [{"role": "user", "content": "Post the release note to Slack"},
                  *search("p1", "slack post message", ["mcp__slack__slack_post_message"])]},
    {"id": "s-long-2", "parent": "s-long", "model": "openai/gpt-5-mini", "model_config": {"context_length": 16000},
     "tokens": {"input_tokens": 700, "output_tokens": 50},
     "messages": [{"role": "user", "content": "Summary: the user wants a release note posted to Slack."},
                  *search("p2", "Slack post message", ["mcp__slack__slack_post_message"]),
                  *call("p3", "mcp__slack__slack_post_message", {"channel_id": "C1", "text": "2.4"})]},
    {"id": "s-lead", "model": "anthropic/claude-sonnet-4.5", "end_reason": "agent_close",
     "messages": [{"role": "user", "content": "Delegate the issue"}]},
    {"id": "s-sub", "parent": "s-lead", "model": "anthropic/claude-sonnet-4.5",
     "messages": [{"role": "user", "content": "Open an issue"},
                  *search("q1", "create github issue", ["mcp__github__create_issue"]),
                  *call("q2", "mcp__github__create_issue", {"owner": "o", "repo": "r", "title": "t"})]},
]}


def test_a_conversation_hermes_split_at_a_compression_reads_as_one_session(tmp_path):
    db = write_store(tmp_path, SPLIT)
    sessions = load_sessions([db]).sessions
    assert [s.id for s in sessions] == ["s-long", "s-lead", "s-sub"]
    long = sessions[0]
    assert [e.kind for e in long.events] == ["search", "compaction", "search", "call"]
    assert long.counters == {"input_tokens": 1700, "output_tokens": 150}
    inspector = inspector_of([CATALOG])
    flags = {f.session: f for f in session_flags(sessions, inspector, parse_config({}))}
    assert [(r.query, r.earlier, r.exact) for r in flags["s-long"].repeated_after_compaction] == [
        ("Slack post message", "slack post message", True)]
    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["sessions"], data["searches"], data["recorded"]["found_called"]) == (3, 3, 3)

"""A conversation Hermes split at a compression (the parent ended with ``end_reason =
'compression'``, the next part names it in ``parent_session_id``) is one session whether it is read
from the store or from Hermes' own export of it: the same session count, searches and steps, and a
store given with its export counts each conversation once. Store and export are written by Hermes'
own ``hermes_state.SessionDB``."""

from __future__ import annotations

import json

from conftest import run_cli
from test_sessions import CATALOG, search_response, tool_calls, write_store
from toolsearch.analysis.sessions import event_to_dict, load_sessions


def _part(sid: str, query: str, tool: str, **extra) -> dict:
    return {"id": sid, "model": "anthropic/claude-sonnet-4.5", "model_config": {"context_length": 200000}, **extra,
            "messages": [
                {"role": "user", "content": f"next: {query}"},
                {"role": "assistant", "content": "", "tool_calls": tool_calls(f"{sid}-1", "tool_search",
                                                                             {"queries": [query]})},
                {"role": "tool", "tool_call_id": f"{sid}-1", "tool_name": "tool_search",
                 "content": search_response(query, [tool])},
                {"role": "assistant", "content": "", "tool_calls": tool_calls(f"{sid}-2", "tool_call",
                                                                             {"name": tool, "arguments": {}})},
                {"role": "tool", "tool_call_id": f"{sid}-2", "tool_name": "tool_call", "content": "{\"ok\": true}"}]}


SPEC = {"sessions": [
    _part("triage-1", "list my linear issues", "mcp__linear__list_my_issues", end_reason="compression",
          tokens={"input_tokens": 1000, "output_tokens": 10}),
    _part("triage-2", "update linear issue", "mcp__linear__update_issue", parent="triage-1",
          end_reason="compression", tokens={"input_tokens": 500, "output_tokens": 5}),
    _part("triage-3", "slack post message", "mcp__slack__slack_post_message", parent="triage-2",
          tokens={"input_tokens": 200, "output_tokens": 2}),
    _part("other", "create github issue", "mcp__github__create_issue"),
    # a subagent's session names a parent that did not end with a compression: a session of its own
    _part("sub", "search grafana dashboards", "mcp__grafana__search_dashboards", parent="other"),
]}


def _shape(loaded) -> dict:
    return {s.id: (s.messages, dict(s.counters), [event_to_dict(e) for e in s.events]) for s in loaded.sessions}


def test_a_split_conversation_reads_the_same_from_the_store_and_its_export(tmp_path):
    db = write_store(tmp_path, SPEC, export=True)
    export = tmp_path / "state.db.export.jsonl"
    store, exported = load_sessions([db]), load_sessions([export])
    assert sorted(s.id for s in store.sessions) == ["other", "sub", "triage-1"]
    assert _shape(exported) == _shape(store)
    triage = next(s for s in exported.sessions if s.id == "triage-1")
    assert [e.kind for e in triage.events] == ["search", "call", "compaction", "search", "call", "compaction",
                                               "search", "call"]
    # each compaction counts the messages of the part it condensed (5 each), not every message so far
    assert [e.messages for e in triage.events if e.kind == "compaction"] == [5, 5] and triage.messages == 15
    assert triage.counters == {"input_tokens": 1700, "output_tokens": 17}

    both = run_cli("sessions", db, export, "--catalog", CATALOG, "--json")
    assert both.returncode == 0, both.stderr
    data = json.loads(both.stdout)
    assert (data["sessions"], data["searches"]) == (3, 5)


def test_a_store_given_with_its_export_reads_the_same_in_either_order(tmp_path):
    """The export holds only the active messages, so a compaction in place is not in it: whichever
    file comes first, each session is the store's reading (its compaction, its flag)."""
    compacted = _part("compacted", "search grafana dashboards", "mcp__grafana__search_dashboards")
    compacted["messages"] = compacted["messages"][:3] + [  # searched, compacted in place, searched again
        {"compact": [{"role": "user", "content": "Summary: looking at grafana dashboards"}]}] + \
        _part("again", "grafana dashboards search", "mcp__grafana__search_dashboards")["messages"][1:]
    db = write_store(tmp_path, {"sessions": [compacted, *SPEC["sessions"]]}, export=True)
    export = tmp_path / "state.db.export.jsonl"

    def read(*paths) -> dict:
        done = run_cli("sessions", *paths, "--catalog", CATALOG, "--json")
        assert done.returncode == 0, done.stderr
        data = json.loads(done.stdout)
        return {"sessions": data["sessions"], "searches": data["searches"],
                "per_session": sorted(data["per_session"], key=lambda s: s["id"])}

    store_first, export_first = read(db, export), read(export, db)
    assert export_first == store_first
    flagged = next(s for s in store_first["per_session"] if s["id"] == "compacted")
    assert flagged["flags"]["repeated_after_compaction"] and flagged["flags"]["compactions"] == 1

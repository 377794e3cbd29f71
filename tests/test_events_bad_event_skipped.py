"""A bad event in an events file is skipped with its place; the other events are replayed.

The whole file was refused at its first bad event (``toolsearch strategies --events``), so one
mistyped event cost the rest of the timeline.
"""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, literal_tables, run_cli
from toolsearch.analysis.strategies import Event, StrategyError, parse_events

TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def test_the_cli_skips_the_bad_events_and_replays_the_rest(tmp_path):
    events = tmp_path / "events.yaml"
    events.write_text("- compaction\n- {cal: mcp__github__create_issue}\n- {search: github issue}\n- {call: ''}\n"
                      "- {call: mcp__github__create_issue}\n", encoding="utf-8")
    done = run_cli("strategies", TEAM, "--events", events, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"toolsearch: warning: {events}: [1]: unknown event 'cal'; expected one of search, describe, read_skill, call, "
        "compaction, add_server, remove_server; event skipped",
        f"toolsearch: warning: {events}: [3].call: expected a tool wire name as a non-empty string, got ''; event skipped",
    ]
    timeline = json.loads(done.stdout)[0]["timeline"]
    assert [step["event"] for step in timeline if step["step"]] == [
        "compaction", {"search": "github issue"}, {"call": "mcp__github__create_issue"}]


def test_an_unknown_name_after_a_skipped_event_keeps_its_place(tmp_path):
    events = tmp_path / "events.yaml"
    events.write_text("- {call: ''}\n- {call: mcp__nope}\n", encoding="utf-8")
    done = run_cli("strategies", TEAM, "--events", events)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"toolsearch: error: {events}: [1].call: 'mcp__nope' is not a tool of "
                                            "this catalog (use the wire name, e.g. mcp__github__create_issue)")


def test_the_library_skips_only_when_given_a_warnings_list():
    skipped: list[str] = []
    assert parse_events(["compaction", {"compaction": 3}], "e.yaml", skipped) == (Event("compaction"),)
    assert skipped == ["e.yaml: [1].compaction: compaction takes no argument, got 3; event skipped"]
    with pytest.raises(StrategyError, match=r"^e.yaml: \[1\].compaction: compaction takes no argument, got 3$"):
        parse_events(["compaction", {"compaction": 3}], "e.yaml")


def test_the_page_loads_the_good_events_of_an_uploaded_file_and_warns_of_the_bad():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "strategies.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    at.file_uploader(key="strat_events_upload").set_value(
        ("events.yaml", b"- {cal: x}\n- {search: github issue}\n", "application/x-yaml"))
    at.run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error if "Events file" in e.value]
    assert [w.value for w in at.warning if "event skipped" in w.value] == [
        "events\\.yaml\\: \\[0\\]\\: unknown event 'cal'; expected one of search, describe, read\\_skill, call, "
        "compaction, add\\_server, remove\\_server; event skipped"]
    steps = next(t for t in literal_tables(at).values() if "step" in t.columns)
    assert steps["event"].tolist()[1:] == ["search github issue"]  # after the start

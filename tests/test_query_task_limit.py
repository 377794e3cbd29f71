"""The task limit of query files: ``toolsearch eval`` refuses a file with more than
``MAX_QUERY_TASKS`` tasks in one line (200,000 tasks were read and searched for minutes), and
``toolsearch sessions --export-queries`` never writes a file eval would refuse for it: it keeps
the first ``MAX_QUERY_TASKS`` tasks and says how many it left out and from where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli, write_yaml
from toolsearch.analysis import evaluation
from toolsearch.analysis.evaluation import MAX_QUERY_TASKS, QueryFileError, load_queries, parse_queries
from toolsearch.engine.errors import InputLimitError

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
DOCS = ROOT / "docs"
POST = "mcp__slack__slack_post_message"


def tasks(n: int) -> dict:
    return {"tasks": [{"id": f"t{i}", "query": f"post message {i}", "expected": [POST]} for i in range(n)]}


def test_eval_refuses_a_file_over_the_limit_in_one_line(tmp_path):
    path = tmp_path / "many.json"
    path.write_text(json.dumps(tasks(MAX_QUERY_TASKS + 1)), encoding="utf-8")
    done = run_cli("eval", CATALOG, path, "--variant", "reference")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch: error: {path}: 20,001 tasks, over the limit of 20,000 per query file; "
                           "split it into smaller files\n")


def test_the_limit_is_checked_before_the_tasks_and_is_an_input_limit(monkeypatch):
    # Task 2 is malformed, but the count is what is refused: no task is checked over the limit.
    monkeypatch.setattr(evaluation, "MAX_QUERY_TASKS", 2)
    data = {"tasks": [{"id": "a", "query": "x", "expected": []}, {"id": "b"}, {"id": "c"}]}
    with pytest.raises(InputLimitError) as info:
        parse_queries(data, "q.yaml")
    assert isinstance(info.value, QueryFileError)
    assert str(info.value) == "q.yaml: 3 tasks, over the limit of 2 per query file; split it into smaller files"


def test_a_file_at_the_limit_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(evaluation, "MAX_QUERY_TASKS", 3)
    at = write_yaml(tmp_path / "at.yaml", tasks(3))
    over = write_yaml(tmp_path / "over.yaml", tasks(4))
    done = run_cli("eval", CATALOG, at, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tasks"] == 3
    done = run_cli("eval", CATALOG, over, "--variant", "reference")
    assert (done.returncode, done.stderr) == (
        2, f"toolsearch: error: {over}: 4 tasks, over the limit of 3 per query file; split it into smaller files\n")


def test_shipped_query_files_are_far_below_the_limit():
    """docs/quality.md: "the largest shipped file has a few hundred"."""
    files = [*ROOT.glob("benchmarks/data/*/*.json"), *ROOT.glob("sample_catalogs/queries/*.yaml")]
    sizes = {f.name: len(load_queries(f).tasks) for f in files if f.name != "catalog.json"}
    assert len(sizes) >= 10
    assert 100 <= max(sizes.values()) < 1000 and max(sizes.values()) * 20 < MAX_QUERY_TASKS


def conversation(cid: str, searches: int) -> dict:
    """A conversation of ``searches`` searches, each followed by a call of a deferred tool."""
    messages = []
    for k in range(searches):
        messages += [
            {"role": "assistant", "tool_calls": [{"id": f"s{k}", "type": "function", "function": {
                "name": "tool_search", "arguments": json.dumps({"queries": [f"slack post message {cid} {k}"]})}}]},
            {"role": "assistant", "tool_calls": [{"id": f"c{k}", "type": "function", "function": {
                "name": "tool_call", "arguments": json.dumps({"calls": [{"name": POST, "arguments": {}}]})}}]}]
    return {"id": cid, "messages": messages}


def test_export_keeps_the_first_tasks_up_to_the_limit_and_says_what_it_left_out(tmp_path, monkeypatch):
    sessions = tmp_path / "conv.json"
    sessions.write_text(json.dumps([conversation("c1", 2), conversation("c2", 3)]), encoding="utf-8")
    out = tmp_path / "labeled.yaml"
    done = run_cli("sessions", sessions, "--catalog", CATALOG, "--export-queries", out)
    assert done.returncode == 0, done.stderr
    assert len(load_queries(out).tasks) == 5 and "left out" not in done.stderr

    monkeypatch.setattr(evaluation, "MAX_QUERY_TASKS", 3)
    done = run_cli("sessions", sessions, "--catalog", CATALOG, "--export-queries", out)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert (f"toolsearch: warning: {out}: 2 tasks left out, from session 'c2', search at step 3 on: a query file "
            "holds at most 3 tasks (toolsearch eval refuses more), so the first 3 are kept") in lines
    assert f"toolsearch: wrote {out}: 3 labeled tasks" in lines
    assert [t.id for t in load_queries(out).tasks] == ["c1-1", "c1-3", "c2-1"]
    assert run_cli("eval", CATALOG, out, "--variant", "reference").returncode == 0


def test_docs_quote_the_limit():
    def text(name: str) -> str:
        return " ".join((DOCS / name).read_text(encoding="utf-8").split())

    assert f"A query file holds at most {MAX_QUERY_TASKS:,} tasks" in text("quality.md")
    assert f"holds at most {MAX_QUERY_TASKS:,} tasks, since each task" in text("security.md")
    assert (f"the tasks past eval's limit of {MAX_QUERY_TASKS:,} per file (the first {MAX_QUERY_TASKS:,} are "
            "written") in text("sessions.md")


def test_the_sessions_page_says_what_the_download_leaves_out_even_past_the_notes_it_shows(tmp_path, monkeypatch):
    """The page shows the first notes on what its labeled-queries download leaves out: the note on
    the task limit comes first, and the notes it does not show are counted, not dropped."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token
    from toolsearch.ui import session_sources
    from toolsearch.ui.common import md_escape

    searches = 25
    conv = conversation("c1", searches)
    for k, message in enumerate(conv["messages"][0::2]):  # each search also has a query too long for eval
        message["tool_calls"][0]["function"]["arguments"] = json.dumps(
            {"queries": [f"slack post message {k}", "send " * 500]})
    transcript = tmp_path / "many.json"
    transcript.write_text(json.dumps([conv]), encoding="utf-8")
    monkeypatch.setattr(evaluation, "MAX_QUERY_TASKS", 2)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(transcript)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    shown = [w.value for w in at.warning if "download" in w.value]
    assert shown[0] == md_escape(f"Not in the download: {searches - 2} tasks left out, from session 'c1', search at "
                                 "step 5 on: a query file holds at most 2 tasks (toolsearch eval refuses more), so "
                                 "the first 2 are kept")
    assert len(shown) == session_sources.PROBLEMS_SHOWN + 1
    assert shown[-1] == f"… and {searches + 1 - session_sources.PROBLEMS_SHOWN} more left out of the download"
    assert "2 labeled tasks" in " ".join(c.value for c in at.caption)


def test_export_leaves_out_a_query_with_a_lone_surrogate_and_eval_reads_the_file(tmp_path):
    """A recorded query may hold half of a UTF-16 pair (``"\\ud800"`` in a JSON session file). YAML
    writes it as ``"\\uD800"``, which no YAML reader reads back: eval refused the exported file
    ('found invalid Unicode character escape code'). That query is left out, with a word; the
    search's other queries are kept."""
    call = {"id": "c1", "type": "function", "function": {"name": "tool_search", "arguments": json.dumps(
        {"queries": ["post a slack message\ud800", "slack post message"]})}}
    post = {"id": "c2", "type": "function", "function": {"name": POST, "arguments": "{}"}}
    session = tmp_path / "s.json"
    session.write_text(json.dumps([{"id": "s1", "model": "m", "messages": [
        {"role": "user", "content": "post it"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": "{}"},
        {"role": "assistant", "content": "", "tool_calls": [post]}]}]), encoding="utf-8")
    out = tmp_path / "q.yaml"
    done = run_cli("sessions", session, "--catalog", CATALOG, "--export-queries", out)
    assert done.returncode == 0, done.stderr
    assert (f"toolsearch: warning: {out}: session 's1', search at step 1: a query with half of a UTF-16 pair (a lone "
            "surrogate, which no YAML file holds) left out\n") in done.stderr
    assert [t.queries for t in load_queries(out).tasks] == [("slack post message",)]
    assert run_cli("eval", CATALOG, out, "--variant", "reference").returncode == 0

"""What the evidence from recorded sessions counts, on stores written by Hermes' own
``hermes_state.SessionDB`` (``$TOOLSEARCH_HERMES_PYTHON``, see tests/test_sessions.py): the
harness's own tools are not "called tools this catalog does not defer", a server named only by a
renamed tool is still a server the sessions mention, and ``toolsearch sessions`` says which called
tools its "N of M" leaves out.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.test_sessions import CATALOG, search_response, tool_calls, write_store


def _step(call_id: str, name: str, arguments: dict, content: str) -> list[dict]:
    return [{"role": "assistant", "content": "", "tool_calls": tool_calls(call_id, name, arguments)},
            {"role": "tool", "tool_call_id": call_id, "tool_name": name, "content": content}]


#: s-pr searches, runs the harness's own terminal and read_file, then calls a deferred tool;
#: s-renamed calls a GitHub tool renamed since; s-sentry calls a Sentry tool the catalog no longer has.
SPEC = {"sessions": [
    {"id": "s-pr", "model": "openai/gpt-5-mini", "model_config": {"context_length": 32000}, "messages": [
        {"role": "user", "content": "Which PRs are open? Then run the tests."},
        *_step("a1", "tool_search", {"queries": ["list pull requests"]},
               search_response("list pull requests", ["mcp__github__list_pull_requests"])),
        *_step("a2", "terminal", {"command": "pytest -q"}, "{\"output\": \"3 passed\"}"),
        *_step("a3", "read_file", {"path": "README.md"}, "{\"content\": \"x\"}"),
        *_step("a4", "tool_call", {"name": "mcp__github__list_pull_requests", "arguments": {"owner": "o", "repo": "r"}},
               "{\"items\": []}")]},
    {"id": "s-renamed", "model": "openai/gpt-5-mini", "model_config": {"context_length": 32000}, "messages": [
        {"role": "user", "content": "logs of the failed job"},
        *_step("b1", "tool_search", {"queries": ["download job logs"]},
               search_response("download job logs", ["mcp__github__download_job_logs"])),
        *_step("b2", "tool_call", {"name": "mcp__github__download_job_logs", "arguments": {"job_id": 7}},
               "{\"logs\": \"...\"}")]},
    {"id": "s-sentry", "model": "anthropic/claude-sonnet-4.5", "model_config": {"context_length": 200000}, "messages": [
        {"role": "user", "content": "sentry issues"},
        *_step("c1", "mcp__sentry__list_project_errors", {"project": "api"}, "{\"issues\": []}")]},
]}


def test_the_harness_own_tools_are_not_called_tools_the_catalog_does_not_defer(tmp_path):
    db = write_store(tmp_path, SPEC)
    done = run_cli("recommend", CATALOG, "--sessions", db, "--context-lengths", "32k", "--goal", "names")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if "does not defer" in x)
    assert line.endswith("the sessions called 1 tool this catalog does not defer: mcp__github__download_job_logs")
    assert "terminal" not in done.stderr and "read_file" not in done.stderr


def test_a_server_named_only_by_a_tool_it_no_longer_has_is_mentioned(tmp_path):
    db = write_store(tmp_path, SPEC)
    drift = json.loads(run_cli("sessions", db, "--catalog", CATALOG, "--json").stdout)["catalog_drift"]
    assert drift["missing_tools"] == ["mcp__github__download_job_logs", "mcp__sentry__list_project_errors"]
    assert "sentry" not in drift["extra_servers"]
    assert drift["missing_servers"] == []


#: s-sentry's direct call came before any search, so it is not evidence about the listing at all
NOT_COUNTED = "the sessions also called 1 tool this catalog does not defer: mcp__github__download_job_logs"


def test_sessions_says_which_called_tools_its_counts_leave_out(tmp_path):
    """'1 of 1 called tools listed' while the sessions called two more tools the catalog lacks
    would read as 'every tool my models called is listed'."""
    db = write_store(tmp_path, SPEC)
    text = run_cli("sessions", db, "--catalog", CATALOG, "--context-lengths", "32k")
    assert text.returncode == 0, text.stderr
    table = text.stdout.split("called tools already listed by name")[1]
    assert "1/1" in table.split("\n\n")[0]  # a table cell, as recommend --sessions writes it
    assert f"not counted: {NOT_COUNTED}" in table.split("\n\n")[0]
    data = json.loads(run_cli("sessions", db, "--catalog", CATALOG, "--context-lengths", "32k", "--json").stdout)
    assert data["called_listed"][0]["called_total"] == 1
    assert data["called_not_deferred"] == ["mcp__github__download_job_logs"]


def test_sessions_page_says_which_called_tools_its_counts_leave_out(tmp_path):
    from streamlit.testing.v1 import AppTest

    from tests.test_app_sessions import open_page
    from toolsearch.live.guard import launch_token
    from toolsearch.ui.common import md_escape

    db = write_store(tmp_path, SPEC)
    at: AppTest = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert md_escape(f"Not counted: {NOT_COUNTED}") in [c.value for c in at.caption]
    # the sentence counts deferred tools only: "1 of the 1 tools your models called" was untrue (they called 2)
    sentences = [t.value for t in at.text if t.value.startswith("At ")]
    assert "At 32K: the listing names 1 of the 1 deferred tool your models called; 0 searches saved." \
        in sentences, sentences


def test_sessions_page_with_searches_only_says_no_deferred_tool_was_called(tmp_path):
    """Sessions that searched but called nothing: no "0 of the 0 tools" sentence."""
    from streamlit.testing.v1 import AppTest

    from tests.test_app_sessions import open_page
    from toolsearch.live.guard import launch_token

    spec = {"sessions": [{"id": "s-looked", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "can you post to slack?"},
        *_step("a1", "tool_search", {"queries": ["slack post message"]},
               search_response("slack post message", ["mcp__slack__slack_post_message"]))]}]}
    db = write_store(tmp_path, spec)
    at: AppTest = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    sentences = [t.value for t in at.text if t.value.startswith("At ")]
    assert sentences and all(x.endswith(": the sessions called no tool this catalog defers, so there is nothing "
                                        "for the listing to name.") for x in sentences), sentences


def test_a_cell_that_is_not_utf8_costs_that_cell_not_the_store(tmp_path):
    import sqlite3

    db = write_store(tmp_path, SPEC)
    with sqlite3.connect(db) as conn:  # one damaged byte in one session's model name
        conn.execute("UPDATE sessions SET model = CAST(X'6770742dff' AS TEXT) WHERE id = 's-renamed'")
    done = run_cli("sessions", db, "--catalog", CATALOG, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [s["id"] for s in data["per_session"]] == ["s-pr", "s-renamed", "s-sentry"]
    assert data["per_session"][1]["model"] == "gpt-\ufffd"
    assert data["searches"] == 2
    assert data["problems"] == [f"{db}: 1 text cell is not UTF-8: read with \ufffd in place of the bytes that are not"]


def test_a_store_without_the_tool_calls_column_says_its_calls_are_not_read(tmp_path):
    import sqlite3

    db = write_store(tmp_path, SPEC)
    with sqlite3.connect(db) as conn:  # a Hermes schema that names the column otherwise
        conn.execute("ALTER TABLE messages RENAME COLUMN tool_calls TO tool_calls_json")
    done = run_cli("sessions", db, "--catalog", CATALOG)
    assert done.returncode == 0, done.stderr
    assert (f"toolsearch: skipped: {db}: table 'messages' has no 'tool_calls' column (another Hermes schema): "
            "the store holds tool results, but no tool call is read from it") in done.stderr.splitlines()
    assert done.stdout.startswith("sessions: 3 (hermes-db)")


def test_a_store_another_process_keeps_locked_is_said_to_be_locked_not_unreadable(tmp_path):
    import sqlite3

    db = write_store(tmp_path, SPEC)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = DELETE")  # a rollback journal: a writer's lock keeps readers out
        holder.execute("BEGIN EXCLUSIVE")
        done = run_cli("sessions", db, "--catalog", CATALOG)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert done.returncode == 2
    assert done.stderr == (f"toolsearch: error: {db}: the session store stayed locked by another process for 5 s "
                           "(a write in progress); try again\n")


def test_the_report_says_which_called_tools_its_counts_leave_out(tmp_path):
    import html

    db = write_store(tmp_path, SPEC)
    out = tmp_path / "report.html"
    done = run_cli("report", CATALOG, "--sessions", db, "--context-lengths", "32k", "--goal", "names", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert f"<strong>Not counted:</strong> {html.escape(NOT_COUNTED)}</p>" in page


def test_export_says_which_searches_it_leaves_out_for_tools_the_catalog_lacks(tmp_path):
    db = write_store(tmp_path, SPEC)
    out = tmp_path / "labeled.yaml"
    done = run_cli("sessions", db, "--catalog", CATALOG, "--export-queries", out)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert (f"toolsearch: warning: {out}: session 's-renamed', search at step 1: left out: this catalog does not "
            "defer the tools the session called afterwards (mcp__github__download_job_logs)") in lines
    assert f"toolsearch: wrote {out}: 1 labeled task" in lines
    assert not any("s-pr" in line for line in lines)  # its terminal and read_file are the harness's own


def test_sessions_and_recommend_say_when_no_deferred_tool_was_called(tmp_path):
    """An empty session and one that only searched: every row reads "0/0"; both commands say why
    in the words the Sessions page uses."""
    from toolsearch.analysis.sessions import NO_DEFERRED_CALLED_WORDS

    spec = {"sessions": [
        {"id": "s-empty", "model": "openai/gpt-5-mini", "messages": []},
        {"id": "s-looked", "model": "openai/gpt-5-mini", "messages": [
            {"role": "user", "content": "can you post to slack?"},
            *_step("a1", "tool_search", {"queries": ["slack post message"]},
                   search_response("slack post message", ["mcp__slack__slack_post_message"]))]}]}
    db = write_store(tmp_path, spec)
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--context-lengths", "32k")
    assert text.returncode == 0, text.stderr
    table = text.stdout.split("called tools already listed by name")[1].split("\n\n")[0]
    assert "0/0" in table and f"note: {NO_DEFERRED_CALLED_WORDS}" in table.splitlines()
    assert "session s-empty (" in text.stdout  # the empty session is still reported
    rec = run_cli("recommend", CATALOG, "--sessions", db, "--context-lengths", "32k", "--goal", "names")
    assert rec.returncode == 0, rec.stderr
    assert rec.stdout.rstrip().splitlines()[-2].endswith(f"; {NO_DEFERRED_CALLED_WORDS}")  # above the gate line
    # with a called deferred tool the note is absent
    assert NO_DEFERRED_CALLED_WORDS not in run_cli("sessions", write_store(tmp_path, SPEC, "other.db"), "--catalog",
                                                   CATALOG, "--variant", "reference").stdout


def test_listing_what_if_text_names_the_context_length_each_row_used(tmp_path):
    """The per-session what-if's budget depends on the session's context length; the text says which
    (recorded, or unknown: the budget is then listing_max_tokens), as the page's column does."""
    spec = {"sessions": [
        SPEC["sessions"][0],
        {"id": "s-nolength", "model": "openai/gpt-5-mini", "messages": [
            {"role": "user", "content": "who am I on github"},
            *_step("d1", "tool_search", {"queries": ["github me"]}, search_response("github me", ["mcp__github__get_me"])),
            *_step("d2", "tool_call", {"name": "mcp__github__get_me", "arguments": {}}, "{\"login\": \"o\"}")]}]}
    db = write_store(tmp_path, spec)
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference")
    assert text.returncode == 0, text.stderr
    block = text.stdout.split("listing what-if (")[1].split("\n\n")[0].splitlines()
    assert "context length" in block[1]
    rows = {line.split()[0]: line.split() for line in block[3:]}
    assert rows["s-pr"][4:6] == ["32K", "1,600"]
    assert rows["s-nolength"][4:6] == ["unknown", "4,000"]

"""Sessions recorded by the released Hermes Agent (PyPI ``hermes-agent``), bridge answers included.

The released Hermes' ``tool_search`` takes one ``query`` string and answers
``{"query", "total_available", "matches": [{"name", "source", "source_name", "description"}]}``;
its ``tool_describe`` takes one ``name`` and answers an unknown name with ``{"error": ...}`` only.
Here those answers are produced by Hermes' own ``tools.tool_search.dispatch_tool_search`` /
``dispatch_tool_describe`` (over MCP tools registered in Hermes' own registry under Hermes' own
names), and the store is written by Hermes' own ``hermes_state.SessionDB``
(``$TOOLSEARCH_HERMES_PYTHON``, see tests/test_sessions.py).
"""

from __future__ import annotations

import html
import json
import subprocess

from tests.conftest import run_cli
from tests.test_sessions import CATALOG, hermes_python, tool_calls, write_store
from toolsearch.analysis.sessions import load_sessions

#: Runs in the hermes-agent environment: registers three team-workspace tools the way Hermes
#: registers MCP tools, then prints Hermes' own bridge answers for the calls read from stdin.
BRIDGE = r"""
import json, sys
from tools import tool_search as ts
from tools.mcp_tool import mcp_prefixed_tool_name
from tools.registry import registry
tools = [("slack", "slack_post_message", "Post a message to a Slack channel."),
         ("github", "create_issue", "Open a new issue in a GitHub repository."),
         ("grafana", "search_dashboards", "Search Grafana dashboards by title or tag.")]
defs = []
for server, tool, text in tools:
    schema = {"name": mcp_prefixed_tool_name(server, tool), "description": text,
              "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}}
    registry.register(schema["name"], "mcp-" + server, schema, handler=lambda **kw: "{}")
    defs.append({"type": "function", "function": schema})
config = ts.ToolSearchConfig.from_raw({})
out = []
for name, args in json.load(sys.stdin):
    if name == "tool_search":
        out.append(ts.dispatch_tool_search(args, current_tool_defs=defs, config=config))
    else:
        out.append(ts.dispatch_tool_describe(args, current_tool_defs=defs))
print(json.dumps(out))
"""

CALLS = [("tool_search", {"query": "post slack message"}),
         ("tool_search", {"query": "rotate kubernetes secret", "limit": 3}),
         ("tool_describe", {"name": "mcp__slack__slack_post_message"}),
         ("tool_describe", {"name": "mcp__slack__slack_send_message"})]


def hermes_answers(calls: list = CALLS) -> list[str]:
    done = subprocess.run([hermes_python(), "-c", BRIDGE], input=json.dumps(calls), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def released_spec() -> dict:
    answers = hermes_answers()
    # what Hermes 0.19 itself answers (the shapes this test is about)
    assert json.loads(answers[0])["matches"][0]["name"] == "mcp__slack__slack_post_message"
    assert json.loads(answers[1])["matches"] == []
    assert "error" in json.loads(answers[3]) and "not_found" not in json.loads(answers[3])
    messages = [{"role": "user", "content": "Tell #release that 2.4 is out"}]
    for n, ((name, args), answer) in enumerate(zip(CALLS, answers), 1):
        messages += [{"role": "assistant", "content": "", "tool_calls": tool_calls(f"c{n}", name, args)},
                     {"role": "tool", "tool_call_id": f"c{n}", "tool_name": name, "content": answer}]
    messages += [{"role": "assistant", "content": "", "tool_calls": tool_calls("c9", "tool_call", {
                     "name": "mcp__slack__slack_post_message", "arguments": {"channel_id": "C1", "text": "2.4"}})},
                 {"role": "tool", "tool_call_id": "c9", "tool_name": "mcp__slack__slack_post_message",
                  "content": "{\"ok\": true}"}]
    return {"sessions": [{"id": "s-released", "model": "openai/gpt-5-mini",
                          "model_config": {"context_length": 32000}, "messages": messages}]}


def test_searches_and_describes_of_the_released_hermes_are_read(tmp_path):
    db = write_store(tmp_path, released_spec())
    session = load_sessions([db]).sessions[0]
    kinds = [(e.kind, e.step) for e in session.events]
    assert kinds == [("search", 1), ("search", 2), ("describe", 3), ("describe", 4), ("call", 5)]
    first, second, found, missing = session.events[:4]
    assert [(q.query, q.matches) for q in first.queries] == [
        ("post slack message", ("mcp__slack__slack_post_message",))]
    assert (second.limit, [(q.query, q.matches) for q in second.queries]) == (3, [("rotate kubernetes secret", ())])
    assert (found.names, found.not_found) == (("mcp__slack__slack_post_message",), ())
    assert (missing.names, missing.not_found) == (("mcp__slack__slack_send_message",),
                                                  ("mcp__slack__slack_send_message",))
    assert missing.error.startswith("'mcp__slack__slack_send_message' is not a deferrable tool")

    done = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["searches"], data["recorded"]) == (2, {"empty": 1, "found_called": 1, "with_result": 2})
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference").stdout
    assert "#1 search 'post slack message': recorded mcp__slack__slack_post_message;" in text
    assert "#4 describe mcp__slack__slack_send_message; not found: mcp__slack__slack_send_message" in text


def test_a_search_the_bridge_rejected_is_shown_with_its_error(tmp_path):
    """A ``tool_search`` call without a query, which Hermes answers with an error: the text report
    and the page's Timeline show it at its step with the error (the text had a bare error line
    under no step, the page had no row for it)."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables
    from toolsearch.live.guard import launch_token

    (answer,) = hermes_answers([("tool_search", {"query": ""})])
    assert json.loads(answer) == {"error": "query is required"}
    spec = {"sessions": [{"id": "s-empty-query", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "find the slack tool"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("e1", "tool_search", {"query": ""})},
        {"role": "tool", "tool_call_id": "e1", "tool_name": "tool_search", "content": answer}]}]}
    db = write_store(tmp_path, spec)
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference").stdout.splitlines()
    at_step = text.index("  #1 search via tool_search: no query recorded")
    assert text[at_step + 1] == "     error: query is required"

    at = AppTest.from_file(str(CATALOG.parent.parent / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    rows = literal_tables(at)["sessions_timeline"].to_dict("records")
    assert [(r["step"], r["event"], r["detail"], r["recorded"]) for r in rows] == [
        ("1", "search (tool_search)", "(no query recorded)", "error: query is required")]


NOTE = ("1 of 1 session searched with one query per tool_search call, as the released Hermes Agent "
        "(hermes-agent 0.19.0) does. That release puts no listing in the tool_search description: its "
        "threshold_pct decides whether tool search is on at all (default 10) and it has no listing_max_tokens.")


def test_evidence_from_the_released_hermes_says_what_its_settings_mean(tmp_path):
    """The released Hermes' threshold_pct is an on/off gate and it has no listing: the CLI, the
    Sessions page and the Tuning page say so above the listing what-ifs (a newcomer read them as
    what their Hermes did). Sessions in the reference's form get no such note."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.live.guard import launch_token

    db = write_store(tmp_path, released_spec())
    text = run_cli("sessions", db, "--catalog", CATALOG, "--variant", "reference").stdout
    assert f"note: {NOTE}" in text
    sample = CATALOG.parent.parent / "sample_sessions" / "state.db"
    assert "note:" not in run_cli("sessions", sample, "--catalog", CATALOG, "--variant", "reference").stdout

    at = AppTest.from_file(str(CATALOG.parent.parent / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert any(i.value.replace("\\", "").startswith(NOTE) for i in at.info)

    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_sessions_token").set_value(launch_token()).run()
    at.text_input(key="tuning_sessions_path").set_value(str(db)).run()
    at.button(key="tuning_sessions_read").click().run()
    assert not at.exception, at.exception
    assert any(i.value.replace("\\", "").startswith(NOTE) for i in at.info)
    # the Report page carries the Tuning page's evidence, and the note with it
    at.switch_page("toolsearch/ui/report.py").run()
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    assert f"<strong>Recorded by another release:</strong> {html.escape(NOTE)}" in at.session_state["report_html"]


def test_recommend_and_report_with_released_hermes_sessions_say_it_too(tmp_path):
    """``--sessions`` of recommend and report: the same note on stderr as ``toolsearch sessions``."""
    db = write_store(tmp_path, released_spec())
    rec = run_cli("recommend", CATALOG, "--context-lengths", "32k,200k", "--goal", "names", "--sessions", db)
    assert rec.returncode == 0, rec.stderr
    assert f"toolsearch: note: {NOTE}" in rec.stderr
    report = run_cli("report", CATALOG, "--context-lengths", "32k", "--goal", "names", "--sessions", db,
                     "-o", tmp_path / "review.html")
    assert report.returncode == 0, report.stderr
    assert f"toolsearch: note: {NOTE}" in report.stderr
    # and in the file, beside the called-tools figures it qualifies (the reader of the file has no stderr)
    written = (tmp_path / "review.html").read_text(encoding="utf-8")
    assert f"<strong>Recorded by another release:</strong> {html.escape(NOTE)}" in written
    plain = run_cli("report", CATALOG, "--context-lengths", "32k", "--goal", "names", "--sessions",
                    CATALOG.parent.parent / "sample_sessions" / "state.db", "-o", tmp_path / "plain.html")
    assert plain.returncode == 0, plain.stderr
    assert "Recorded by another release" not in (tmp_path / "plain.html").read_text(encoding="utf-8")

"""The Tuning page with the user's own recorded sessions as evidence, and its question in the link.

Streamlit ``AppTest``: session files are uploaded through the page's uploader (several at once,
one of them broken), or read from a path on this machine, including a store written by Hermes'
own session writer (``$TOOLSEARCH_HERMES_PYTHON``, see tests/test_sessions.py). Every figure is
compared with the library's answer on the same files: called tools listed by name and searches saved per
context length (``recommend.add_session_evidence``), the frontier's called-tools axis
(``recommend.frontier``) and the pin-the-hot-tools what-if (``harnesses.pin_hot_tools``).

The link tests open the app with query parameters, as a shared link does, and read the page's
widgets and ``at.query_params`` back.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from tests.test_sessions import tool_calls, write_store
from tests.test_sessions_evidence import SPEC as HERMES_SPEC
from toolsearch.analysis.harnesses import pin_hot_tools
from toolsearch.analysis.recommend import add_session_evidence, frontier, recommend_for_contexts
from toolsearch.analysis.sessions import called_tools, load_sessions, load_sessions_bytes
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.live.guard import launch_token

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
SAMPLE_SESSIONS = ROOT / "sample_sessions"
LENGTHS = [16_000, 200_000, 1_000_000]
SECRET = "ghp_TopSecretValue0123456789abcdefABCDEF"

#: An OpenAI messages array: searches, then calls a deferred tool with a secret in its arguments.
OPENAI = [
    {"role": "user", "content": "Post the release note"},
    {"role": "assistant", "content": "", "tool_calls": tool_calls("a", "tool_search", {"queries": ["post to slack"]})},
    {"role": "tool", "tool_call_id": "a", "content": json.dumps(
        {"queries": ["post to slack"], "total_available": 178,
         "results": [{"query": "post to slack", "matches": ["mcp__slack__slack_post_message"]}], "tools": {}})},
    {"role": "assistant", "content": "", "tool_calls": tool_calls("b", "tool_call", {
        "name": "mcp__slack__slack_post_message", "arguments": {"channel_id": "C1", "token": SECRET}})},
    {"role": "tool", "tool_call_id": "b", "content": "{\"ok\": true}"},
    {"role": "assistant", "content": "", "tool_calls": tool_calls("c", "tool_call", {
        "name": "mcp__linear__create_issue", "arguments": {"title": "x"}})},
    {"role": "tool", "tool_call_id": "c", "content": "{\"ok\": true}"},
]


def open_tuning(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def shown(at: AppTest) -> str:
    """Every text the page shows."""
    return "\n".join([*(c.value for c in at.code), *(t.value for t in at.text), *(m.value for m in at.markdown),
                      *(c.value for c in at.caption), *(h.value for h in at.html),
                      *(str(x.value) for x in [*at.warning, *at.error, *at.success, *at.info])])


def expected(sessions: list, lengths: list[int]):
    """The library's figures for these sessions on the default sample at the default sidebar."""
    inspector = inspector_of([CATALOG])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config)
    called, unknown = called_tools(sessions, inspector, config)
    rec = add_session_evidence(recommend_for_contexts(ladder, config, lengths, "names"), ladder, called)
    pins = pin_hot_tools(sessions, inspector, lengths,
                         replace(config, threshold_pct=rec.threshold_pct, listing_max_tokens=rec.listing_max_tokens))
    return rec, called, unknown, pins, ladder


def check_figures(at: AppTest, sessions: list, lengths: list[int]) -> None:
    rec, called, _, (hot, what_ifs), ladder = expected(sessions, lengths)
    tables = literal_tables(at)
    rows = tables["tuning_multi_table"].to_dict("records")
    # as recommend --sessions and the report write the same figure in a table cell: 7/7, not 7 of 7
    assert [r["called tools listed by name"] for r in rows] == [f"{c.called_listed}/{c.called_total}" for c in rec.contexts]
    assert [r["searches saved"] for r in rows] == [str(c.searches_saved) for c in rec.contexts]
    assert [r["tool"] for r in tables["tuning_pins_tools"].to_dict("records")] == [name for name, _ in hot]
    # each pinned tool's own figure under its own name: "full schema" is what the Harnesses page calls the
    # form that sends every schema, and the Costs page's "tool schema" counts a definition without the array
    per_tool = {p.name: p.schema_tokens for p in what_ifs[0].per_tool}
    assert list(tables["tuning_pins_tools"].columns) == ["tool", "calls", "first uses", "round trips before first uses",
                                                         "pinned schema (tokens, chars4)"]
    by_name = {p.name: p for p in what_ifs[0].per_tool}
    assert [r["round trips before first uses"] for r in tables["tuning_pins_tools"].to_dict("records")] == [
        f"{by_name[name].discovery_calls:,}" for name, _ in hot]
    # the round trips the pins save are the recorded discovery calls before first uses, summed
    assert all(w.round_trips_saved == sum(p.discovery_calls for p in w.per_tool) for w in what_ifs)
    assert [r["pinned schema (tokens, chars4)"] for r in tables["tuning_pins_tools"].to_dict("records")] == [
        f"{per_tool[name]:,}" for name, _ in hot]
    assert any(c.value.startswith("Pinned schema: the tool's definition as a pin sends it on every request")
               for c in at.caption)
    pins = tables["tuning_pins"].to_dict("records")
    assert [(r["cost per request (tokens)"], r["round trips saved"]) for r in pins] == [
        (f"{w.cost_tokens:+,}", f"{w.round_trips_saved:,}") for w in what_ifs]
    # the column without the pins is the tools array at the recommended setting, and says so: the
    # sidebar's (the Overview's "Tools array with tool search") is another figure when they differ
    assert [r["tools array, recommended setting (tokens)"] for r in pins] == [
        f"{w.before.upfront_tokens:,}" for w in what_ifs]
    assert not any("today" in column for column in tables["tuning_pins"].columns)
    # the frontier's y axis: recorded called tools the listing names, at the first length
    at.session_state["tuning_frontier_open"] = True
    at.run()
    at.toggle(key="tuning_frontier_calls").set_value(True).run()
    assert not at.exception, at.exception
    points = frontier(ladder, lengths[0], called)
    rows = literal_tables(at)["tuning_frontier_table"].to_dict("records")
    assert [(r["listing (tokens)"], r["called tools listed by name"]) for r in rows] == [
        (f"{p.listing_tokens:,}", str(p.called_listed)) for p in points]


def test_uploaded_session_files_are_evidence_and_a_bad_one_hides_nothing():
    openai = json.dumps(OPENAI).encode()
    export = (SAMPLE_SESSIONS / "hermes-export.jsonl").read_bytes()
    at = open_tuning({"lengths": "16k,200k,1m"})
    at.file_uploader(key="tuning_session_upload").set_value([
        ("release.json", openai, "application/json"),
        ("broken.jsonl", b"{\"id\": \"x\", \"messages\": [\n", "application/json"),
        ("export.jsonl", export, "application/json")]).run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].replace("\\", "").startswith("broken.jsonl")  # one line, naming the file
    sessions = [*load_sessions_bytes(openai, "release.json").sessions, *load_sessions_bytes(export, "export.jsonl").sessions]
    assert len(sessions) == 8
    evidence = next(c.value for c in at.caption if c.value.startswith("Evidence"))
    assert evidence.replace("\\", "").startswith("Evidence: 8 recorded sessions from release.json, export.jsonl")
    check_figures(at, sessions, LENGTHS)
    assert SECRET not in shown(at)
    # the uploads stay for the browser session, on every page, until cleared
    at.switch_page("toolsearch/ui/overview.py").run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert any(c.value.startswith("Evidence") and "8 recorded" in c.value for c in at.caption)
    at.button(key="tuning_session_clear").click().run()
    assert not [c for c in at.caption if c.value.startswith("Evidence")]
    assert "tuning_pins" not in literal_tables(at)


def test_a_hermes_store_written_by_hermes_and_read_from_this_machine(tmp_path):
    db = write_store(tmp_path, HERMES_SPEC)
    at = open_tuning({"lengths": "16k,200k,1m", "sessions": "trajectory.jsonl"})
    at.text_input(key="tuning_sessions_token").set_value(launch_token()).run()  # AppTest counts as another machine
    at.text_input(key="tuning_sessions_path").set_value(str(tmp_path / "missing.db")).run()
    at.button(key="tuning_sessions_read").click().run()
    # a missing file: one error line, and the sample still counts
    assert [e.value.replace("\\", "") for e in at.error] == [f"{tmp_path / 'missing.db'}: no such session file"]
    assert any(c.value.startswith("Evidence") for c in at.caption)
    at.text_input(key="tuning_sessions_path").set_value(str(db)).run()
    at.button(key="tuning_sessions_read").click().run()
    assert not at.exception and not at.error
    sessions = [*load_sessions([SAMPLE_SESSIONS / "trajectory.jsonl"]).sessions, *load_sessions([db]).sessions]
    check_figures(at, sessions, LENGTHS)


def test_reading_a_path_needs_the_token_from_another_machine(tmp_path):
    at = open_tuning()
    at.text_input(key="tuning_sessions_path").set_value(str(SAMPLE_SESSIONS / "state.db")).run()
    at.button(key="tuning_sessions_read").click().run()
    assert any(e.value.startswith("Refused: nothing was read") for e in at.error)
    assert not [c for c in at.caption if c.value.startswith("Evidence")]


def test_the_question_is_in_the_link_and_survives_a_page_switch():
    query = {"lengths": "32k,200k,1m", "goal": "listed", "headroom": "10", "except": "github", "keep": "slack",
             "sessions": "state.db,trajectory.jsonl"}
    at = open_tuning(query)
    assert not at.warning or not [w for w in at.warning if "link" in w.value]
    assert at.text_input(key="tuning_contexts").value == "32k,200k,1m"
    assert at.selectbox(key="tuning_context_preset").value == "Custom"
    assert at.selectbox(key="tuning_multi_goal").value == "listed"
    assert at.number_input(key="tuning_headroom").value == 10.0
    assert (at.multiselect(key="tuning_except").value, at.multiselect(key="tuning_keep").value) == (["github"], ["slack"])
    assert at.multiselect(key="tuning_session_samples").value == ["state.db", "trajectory.jsonl"]
    assert any(c.value.startswith("Evidence") and "14 recorded" in c.value for c in at.caption)
    # editing the page updates the link
    at.selectbox(key="tuning_context_preset").set_value("Long context (200K, 1M)").run()
    at.number_input(key="tuning_headroom").set_value(25.0).run()
    at.multiselect(key="tuning_session_samples").set_value(["anthropic-messages.json"]).run()
    at.multiselect(key="tuning_except").set_value([]).run()
    params = {k: (v[0] if isinstance(v, list) else v) for k, v in dict(at.query_params).items()}
    assert {k: params.get(k) for k in ("lengths", "goal", "headroom", "except", "keep", "sessions")} == {
        "lengths": "200k, 1m", "goal": "listed", "headroom": "25.0", "except": None, "keep": "slack",
        "sessions": "anthropic-messages.json"}
    # another page and back: the same question
    at.switch_page("toolsearch/ui/costs.py").run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert at.selectbox(key="tuning_context_preset").value == "Long context (200K, 1M)"
    assert (at.selectbox(key="tuning_multi_goal").value, at.number_input(key="tuning_headroom").value) == ("listed", 25.0)
    assert at.multiselect(key="tuning_session_samples").value == ["anthropic-messages.json"]
    # the link made now reopens the same answer
    again = open_tuning(params)
    assert again.code[0].value == at.code[0].value
    assert literal_tables(again)["tuning_multi_table"].equals(literal_tables(at)["tuning_multi_table"])


@pytest.mark.parametrize("query,key", [
    ({"lengths": "32k,lots"}, "lengths"), ({"lengths": "0"}, "lengths"), ({"headroom": "nan"}, "headroom"),
    ({"headroom": "-5"}, "headroom"), ({"headroom": "lots"}, "headroom"), ({"goal": "best"}, "goal"),
    ({"sessions": "../../etc/passwd"}, "sessions"), ({"sessions": "state.db,nope.db"}, "sessions"),
])
def test_bad_link_values_are_ignored_with_a_notice(query, key):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    notices = [w.value for w in at.warning if "ignored" in w.value or "left out" in w.value]
    assert len(notices) == 1 and (f"for {key}, " in notices[0] or f"for {key} names" in notices[0] or f"link's {key} names" in notices[0]), notices
    state = at.session_state
    assert state["tuning_contexts"] == "32k, 128k, 200k, 1m" or key != "lengths"
    assert state["tuning_headroom"] == 0.0 or key != "headroom"
    assert state["tuning_multi_goal"] == "names" or key != "goal"
    assert state["tuning_session_samples"] == (["state.db"] if query.get("sessions", "").startswith("state.db") else [])
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception


def test_a_link_naming_servers_the_catalog_lacks_says_so():
    at = open_tuning({"except": "github,nope", "keep": "ghost"})
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert "May collapse: “nope” is not a server of this catalog; left out." in warnings
    assert "Must stay named: “ghost” is not a server of this catalog; left out." in warnings
    assert at.multiselect(key="tuning_except").value == ["github"]


def test_one_tool_the_catalog_does_not_defer_is_one_tool():
    """The warning about called tools the catalog lacks counts them in words ("1 tool", as
    ``toolsearch recommend --sessions`` says it), not "1 tools"."""
    calls = [*OPENAI[:3],
             {"role": "assistant", "content": "", "tool_calls": tool_calls("j", "tool_call", {
                 "name": "mcp__jira__create_ticket", "arguments": {"summary": "x"}})},
             {"role": "tool", "tool_call_id": "j", "content": "{\"ok\": true}"}]
    at = open_tuning({"lengths": "16k,200k,1m"})
    at.file_uploader(key="tuning_session_upload").set_value([
        ("jira.json", json.dumps(calls).encode(), "application/json")]).run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if "does not defer" in w.value).replace("\\", "")
    assert warning.startswith("The sessions called 1 tool this catalog does not defer")
    assert "mcp__jira__create_ticket" in warning


def test_the_sample_store_and_its_export_count_each_session_once():
    """state.db and hermes-export.jsonl hold the same seven sessions (Hermes' store and its own
    export): chosen together they are seven sessions of evidence, not fourteen, and the page says
    which were read twice."""
    at = open_tuning({"lengths": "16k,200k,1m"})
    at.multiselect(key="tuning_session_samples").set_value(["state.db", "hermes-export.jsonl"]).run()
    assert not at.exception, at.exception
    evidence = next(c.value for c in at.caption if c.value.startswith("Evidence")).replace("\\", "")
    assert evidence.startswith("Evidence: 7 recorded sessions from state.db, hermes-export.jsonl")
    # the sessions are read as a check of the recommendation, not as its input, and the page says so
    assert evidence.endswith("tools of this catalog. They do not move the recommendation, which comes from the goal: "
                             "they show how it serves those tools (called tools listed by name, searches saved). To "
                             "keep a called tool named, tick “Keep called servers named”, or add its "
                             "server under Must stay named.")
    sessions = load_sessions([SAMPLE_SESSIONS / "state.db"]).sessions
    check_figures(at, sessions, LENGTHS)
    repeats = [w.value for w in at.warning if "the same session id was read from" in w.value]
    assert len(repeats) == 7


def test_called_tools_the_recommendation_leaves_unnamed_are_named_on_the_page():
    # the question of `recommend --context-lengths 16k,200k --goal names,16k=listed --sessions
    # state.db`: at 16K the listing names none of the seven tools the sessions called, and the page
    # says which, in the CLI's words
    at = open_tuning({"lengths": "16k,200k", "goals": "16k=listed", "sessions": "state.db"})
    infos = [str(x.value).replace("\\", "") for x in at.info if "not named" in str(x.value)]
    assert infos == ["Called in the sessions but not named at 16K: 7 of 7 tools (mcp__github__create_issue, "
                     "mcp__github__get_job_logs, mcp__grafana__get_current_oncall_users, "
                     "mcp__grafana__get_dashboard_panel_queries, mcp__grafana__search_dashboards, "
                     "mcp__linear__list_my_issues, mcp__slack__slack_post_message); the model has to search for "
                     "them."], infos
    at = open_tuning({"lengths": "32k,200k", "sessions": "state.db"})  # every called tool named: no such line
    assert not [x for x in at.info if "not named" in str(x.value)]


def test_the_block_to_ship_is_offered_next_to_the_answer():
    # A reviewer gets the block beside "Apply to the sidebar", above the frontier, the pins and the
    # grids, not only at the end of the page; both downloads are the same file.
    at = open_tuning({"with": "cloudflare-flat", "lengths": "32k,200k,1m", "headroom": "10", "sessions": "state.db"})
    # (out of reach here, so both actions say it is the best reachable setting: tests/test_app_tuning_names.py)
    apply, download = "Apply the best reachable setting to the sidebar", "Download tool_search.yaml (goal not reached)"
    buttons = [b for b in at.get("download_button") if b.proto.label == download]
    assert len(buttons) == 2, [b.proto.label for b in at.get("download_button")]
    labels = [getattr(e, "label", None) or getattr(getattr(e, "proto", None), "label", None)
              for e in at.main.children.values() for e in _walk(e)]
    first_download = labels.index(download)
    assert labels.index(apply) < first_download < labels.index(
        "Frontier: listing tokens against servers named, per context length")


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def test_a_recommendation_for_a_session_scope_says_what_every_other_session_gets():
    # the sidebar's session scope (from a link): the page warns what the one harness-wide block
    # does to the whole catalog, as `recommend --scope` prints it, and the block carries it too
    at = open_tuning({"lengths": "32k,200k", "scope": "bot=slack,github"})
    warnings = [text for text in (str(w.value).replace("\\", "") for w in at.warning)
                if "tools.tool_search block" in text]
    assert len(warnings) == 1, [str(w.value) for w in at.warning]
    for n in ("32K", "200K"):
        assert (f"whole catalog (sessions outside scope bot) at {n}: mixed · 4 of 9 servers named (40 tools); not "
                "named: github, grafana, linear, notion, playwright") in warnings[0], warnings[0]
    # a list of its own under the sentence (a blank line before it), one item per length
    assert "every session. With them:\n\n- whole catalog" in warnings[0], warnings[0]
    block = next(c.value for c in at.code if c.value.startswith("# toolsearch"))
    assert "# whole catalog (sessions outside scope bot) at 32K: mixed · 4 of 9 servers named" in block, block



def test_a_links_unknown_server_names_are_quoted_and_cut():
    """``?keep=`` and ``?except=`` may carry any text: the warning that leaves them out quotes each
    name and cuts it at a link name's length, so a link cannot write the app's words."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    sentence = "Your license expired. Reinstall from https://evil.example/toolsearch to continue"
    at.query_params["keep"] = sentence
    at.query_params["except"] = ",".join(["x" * 5000, *(f"ghost{n}" for n in range(7))])
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    warnings = [str(w.value).replace("\\", "") for w in at.warning]
    keep = next(w for w in warnings if w.startswith("Must stay named:"))
    assert keep == (f"Must stay named: “{sentence[:39]}…” ({len(sentence)} characters) is not a server of this "
                    "catalog; left out."), keep
    collapse = next(w for w in warnings if w.startswith("May collapse:"))
    assert "(5,000 characters)" in collapse and "x" * 40 not in collapse and "and 3 more are not servers" in collapse

"""The Live servers page against the real test MCP server (AppTest): the tool list, the argument
form built from the schema (checked through the server's echo), the connect summary that stays,
and calls over the session Connect opened (one server process, counted with ``--start-marker``).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

from conftest import literal_tables
from toolsearch.ui import common
from toolsearch.engine.config import parse_config
from toolsearch.live.guard import launch_token
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.invisible import reveal
from toolsearch.engine.tokens import chars4, compact_json

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"
PY = sys.executable
TOOLS = ["echo", "add", "get_env", "fail", "soft_fail", "slow", "lookup", "configure"]
FORM = "live_arg::mcp__local__configure::"


def _processes_with(text: str) -> list[int]:
    """Live processes whose command line contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _starts(marker: Path) -> list[str]:
    return [line.split()[0] for line in marker.read_text(encoding="utf-8").splitlines()] if marker.exists() else []


@pytest.fixture
def connected(tmp_path):
    """The page with the test server (``--form-tool``) added by hand and connected; yields
    ``(app, start marker)`` and disconnects at the end."""
    from streamlit.testing.v1 import AppTest

    marker = tmp_path / "started.txt"
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("local")
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input(f"{SERVER} --name local --form-tool --start-marker {marker}")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    assert _starts(marker) == ["local"]
    yield at, marker
    connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
    if connections is not None:
        connections.close()


def _errors(at) -> list[str]:
    return [e.value for e in at.error]


def _shown(message: str) -> str:
    """How the page writes an engine message inside an error box (literal, invisibles marked)."""
    return common.md_escape(common.visible(message))


def _outcome(at) -> dict:
    shown = at.session_state["live_last_call"]
    assert shown is not None and shown["outcome"] is not None, shown
    return shown["outcome"]


def test_the_page_lists_each_servers_tools_with_description_and_schema_size(connected) -> None:
    at, _ = connected
    assert "local · 8 tools" in [e.label for e in at.expander]
    table = literal_tables(at)["live_tools:local"]
    assert list(table["tool"]) == TOOLS
    assert list(table["the model sees it as"]) == [f"mcp__local__{name}" for name in TOOLS]
    rows = table.set_index("tool")
    assert rows.loc["add", "description"] == "Add two integers."
    # The zero-width space in configure's description is shown as a marker, never as itself.
    description = rows.loc["configure", "description"]
    assert description == reveal("Configure\u200b a job; echoes the arguments it received.")
    assert "\u200b" not in description and description != "Configure a job; echoes the arguments it received."
    # Schema size: the registered definition as compact JSON, in chars4 tokens.
    registered = {t.name: t for t in Inspector(at.session_state["live_catalog"]).registration.tools}
    for name in TOOLS:
        expected = chars4(len(compact_json(registered[f"mcp__local__{name}"].definition)))
        assert rows.loc[name, "schema (chars4 tokens)"] == f"{expected:,}"
    size = {name: int(rows.loc[name, "schema (chars4 tokens)"].replace(",", "")) for name in ("configure", "add")}
    assert size["configure"] > size["add"]


def test_the_connect_summary_stays_after_other_interactions(connected) -> None:
    at, _ = connected
    labels = [s.label for s in at.status]
    assert len(labels) == 1 and re.fullmatch(r"1 connected · 8 tools · \d+\.\d\d s", labels[0]), labels
    at.text_input(key="live_query").input("add two integers").run()
    at.selectbox(key="live_tool").select("mcp__local__echo").run()
    at.text_input(key=FORM.replace("configure", "echo") + "text").input("hello").run()
    assert [s.label for s in at.status] == labels
    status = literal_tables(at)["live_status"]
    assert list(status["state"]) == ["ok"] and list(status["tools"]) == ["8"]


def test_the_schema_form_sends_exactly_the_filled_fields(connected) -> None:
    at, marker = connected
    at.selectbox(key="live_tool").select("mcp__local__configure").run()
    assert not at.exception, at.exception
    labels = {w.key: w.label for w in [*at.text_input, *at.number_input, *at.selectbox, *at.text_area]
              if w.key and w.key.startswith(FORM)}
    assert labels == {
        FORM + "title": "title * (string)", FORM + "count": "count * (integer)", FORM + "ratio": "ratio (number)",
        FORM + "verbose": "verbose (boolean)", FORM + "color": "color (enum)",
        FORM + "tags": "tags (array of string) · one item per line",
        FORM + "sizes": "sizes (array of integer) · one item per line", FORM + "options": "options (object) · JSON"}
    count = at.number_input(key=FORM + "count")
    assert (count.min, count.max, count.value) == (1, 10, None)
    assert at.selectbox(key=FORM + "color").options == ["(not set)", "red", "green", "blue"]
    assert at.selectbox(key=FORM + "verbose").options == ["(not set)", "true", "false"]
    at.text_input(key=FORM + "title").input("Nightly")
    at.number_input(key=FORM + "count").set_value(3)
    at.selectbox(key=FORM + "color").select("green")
    at.selectbox(key=FORM + "verbose").select("false")
    at.text_area(key=FORM + "tags").input("alpha\nbeta gamma\n")
    at.text_area(key=FORM + "sizes").input("1\n 20 ")
    at.text_area(key=FORM + "options").input('{"depth": 2}')
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    expected = {"title": "Nightly", "count": 3, "color": "green", "verbose": False, "tags": ["alpha", "beta gamma"],
                "sizes": [1, 20], "options": {"depth": 2}}  # ratio was left empty: not sent
    outcome = _outcome(at)
    assert outcome["request"] == {"server": "local", "tool": "configure", "arguments": expected}
    assert json.loads(outcome["response"]["content"][0]["text"]) == expected  # what the server received
    assert _starts(marker) == ["local"]


def test_field_errors_are_the_engines_and_stop_the_call(connected) -> None:
    at, marker = connected
    at.selectbox(key="live_tool").select("mcp__local__configure").run()
    at.text_input(key=FORM + "title").input("t")
    at.text_area(key=FORM + "sizes").input("1\nx")
    at.text_area(key=FORM + "options").input('{"depth": "deep"}')
    at.button(key="live_call").click().run()
    assert _errors(at) == [_shown("line 2: expected an integer, got 'x'")]  # read by the form: nothing sent
    assert at.session_state["live_last_call"] is None
    at.text_area(key=FORM + "sizes").input("1\n2")
    at.button(key="live_call").click().run()
    bridge = Inspector(at.session_state["live_catalog"]).bridge(parse_config({}))
    missing = bridge.check_call({"name": "mcp__local__configure",
                                 "arguments": {"title": "t", "sizes": [1, 2], "options": {"depth": "deep"}}}).error
    assert missing["constraint"] == "required"
    assert _errors(at) == [_shown("Required: tool_call refuses the call without it."), _shown(missing["error"])]
    assert at.session_state["live_last_call"]["outcome"] is None  # not sent
    at.number_input(key=FORM + "count").set_value(2)
    at.button(key="live_call").click().run()
    wrong = bridge.check_call({"name": "mcp__local__configure", "arguments": {
        "title": "t", "count": 2, "sizes": [1, 2], "options": {"depth": "deep"}}}).error
    assert wrong["path"] == "arguments.options.depth" and wrong["constraint"] == "type"
    assert _errors(at) == [_shown(wrong["error"])]
    assert at.session_state["live_last_call"] == {"tool": "mcp__local__configure", "response": wrong, "outcome": None}
    at.text_area(key=FORM + "options").input('{"depth": 4}')
    at.button(key="live_call").click().run()
    assert _errors(at) == []
    assert _outcome(at)["request"]["arguments"] == {"title": "t", "count": 2, "sizes": [1, 2], "options": {"depth": 4}}
    assert _starts(marker) == ["local"]


def test_the_raw_json_toggle_carries_the_arguments_both_ways(connected) -> None:
    at, _ = connected
    at.selectbox(key="live_tool").select("mcp__local__configure").run()
    at.text_input(key=FORM + "title").input("Weekly")
    at.number_input(key=FORM + "count").set_value(5).run()
    at.toggle(key="live_raw").set_value(True).run()
    assert json.loads(at.text_area(key="live_arguments").value) == {"title": "Weekly", "count": 5}
    assert not [w for w in at.text_input if w.key and w.key.startswith(FORM)]  # the form is replaced
    at.text_area(key="live_arguments").input('{"title": "Weekly", "count": "7", "color": "blue", "ratio": 0.5}')
    at.button(key="live_call").click().run()
    # tool_call coerces "7" to 7 (docs/reference.md §9.3) before it is sent, as the model's call would be.
    assert _outcome(at)["request"]["arguments"] == {"title": "Weekly", "count": 7, "color": "blue", "ratio": 0.5}
    at.text_area(key="live_arguments").input('{"title": "Back", "count": 2, "tags": ["x", "y"], "verbose": true}')
    at.toggle(key="live_raw").set_value(False).run()
    assert at.text_input(key=FORM + "title").value == "Back"
    assert at.number_input(key=FORM + "count").value == 2
    assert at.text_area(key=FORM + "tags").value == "x\ny"
    assert at.selectbox(key=FORM + "verbose").value == "true"
    at.button(key="live_call").click().run()
    assert _outcome(at)["request"]["arguments"] == {"title": "Back", "count": 2, "tags": ["x", "y"], "verbose": True}
    at.toggle(key="live_raw").set_value(True).run()
    at.text_area(key="live_arguments").input("[1, 2]")
    at.button(key="live_call").click().run()
    assert _errors(at) == [_shown("Arguments: expected a JSON object, got a list")]


def test_calls_after_connect_reuse_the_session_and_disconnect_stops_the_server(connected) -> None:
    at, marker = connected
    assert len(_processes_with(str(marker))) == 1  # the session Connect opened is still open
    at.selectbox(key="live_tool").select("mcp__local__add").run()
    for a, b in ((2, 3), (10, -4)):
        at.number_input(key="live_arg::mcp__local__add::a").set_value(a)
        at.number_input(key="live_arg::mcp__local__add::b").set_value(b)
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        assert not [c for c in at.code if c.language == "bash"]  # no launch to confirm: nothing starts
        assert _outcome(at)["response"]["structuredContent"] == {"sum": a + b}
        assert [m.label for m in at.metric][0] == "Total (over the open session)"
    at.selectbox(key="live_tool").select("mcp__local__echo").run()
    at.text_input(key="live_arg::mcp__local__echo::text").input("once")
    at.button(key="live_call").click().run()
    assert _outcome(at)["response"]["content"][0]["text"] == "once"
    assert _starts(marker) == ["local"]  # one server process for the connect and three calls
    assert any(c.value.startswith("Open sessions: local.") for c in at.caption)
    at.button(key="live_disconnect").click().run()
    assert _wait_for(lambda: not _processes_with(str(marker)), 15), "the server outlived Disconnect"
    assert any(c.value.startswith("Disconnected: the servers were stopped.") for c in at.caption)
    # With the session closed, a call has to start the server: the launch confirmation again.
    at.button(key="live_call").click().run()
    assert _starts(marker) == ["local"]
    assert [i.value for i in at.info] == ["The sessions were closed (Disconnect), so this call starts local again, "
                                          "for this call only. Confirm below."]
    assert [c.value for c in at.code if c.language == "bash"][-1].endswith(f"--form-tool --start-marker {marker}")
    at.button(key="live_start_call").click().run()  # no token: refused
    assert _starts(marker) == ["local"] and at.session_state["live_last_call"] is None
    at.text_input(key="live_token_call").input(launch_token())
    at.button(key="live_start_call").click().run()
    assert _outcome(at)["response"]["content"][0]["text"] == "once"
    assert _starts(marker) == ["local", "local"]
    assert [m.label for m in at.metric][0] == "Total (start, handshake, call, stop)"
    assert _wait_for(lambda: not _processes_with(str(marker)), 15), "the one-call server was not stopped"


def test_live_connections_keep_sessions_open_until_closed_or_collected(tmp_path) -> None:
    import gc

    from toolsearch.live.client import LiveConnections, LiveDispatcher
    from toolsearch.live.mcpconfig import spec_from_fields

    marker = tmp_path / "started.txt"
    specs = [spec_from_fields(name, command=PY, args=[str(SERVER), "--name", name, "--start-marker", str(marker)])
             for name in ("alpha", "beta")]
    specs.append(spec_from_fields("gone", command="toolsearch-no-such-command-xyz"))
    seen = []
    connections = LiveConnections()
    result = connections.connect(specs, progress=lambda status: seen.append((status.name, status.state)))
    assert [(s.name, s.state, s.tool_count) for s in result.statuses] == [
        ("alpha", "ok", 7), ("beta", "ok", 7), ("gone", "failed", 0)]
    assert result.statuses[2].reason == "cannot start 'toolsearch-no-such-command-xyz': command not found"
    assert [s.name for s in result.catalog.servers] == ["alpha", "beta"]
    assert ("alpha", "ok") in seen and ("gone", "failed") in seen
    assert sorted(connections.open_servers) == ["alpha", "beta"]
    # Calls through a dispatcher go over the open sessions, as often as wanted.
    bridge = Inspector(result.catalog).bridge(parse_config({}))
    bridge.dispatcher = LiveDispatcher(specs, send=connections.send)
    for a in range(3):
        response = bridge.tool_call({"name": "mcp__beta__add", "arguments": {"a": a, "b": 1}})
        assert response["structuredContent"] == {"sum": a + 1}
    assert bridge.tool_call({"name": "mcp__alpha__lookup", "arguments": {"query": "q", "max_results": 2}})[
        "content"][0]["text"] == '{"max results": 2, "query": "q"}'
    assert sorted(_starts(marker)) == ["alpha", "beta"]  # one process per server in all
    assert len(_processes_with(str(marker))) == 2
    connections.close()
    assert connections.closed and connections.open_servers == []
    assert _wait_for(lambda: not _processes_with(str(marker)), 15)
    closed = connections.send(specs[0], "add", {"a": 1, "b": 2})
    assert not closed.ok and closed.reason == "the session with server 'alpha' is closed; connect again"
    # Dropping the last reference (a Streamlit session that ends) closes the sessions too.
    marker.unlink()
    again = LiveConnections()
    again.connect(specs[:1])
    assert len(_processes_with(str(marker))) == 1
    del again
    gc.collect()
    assert _wait_for(lambda: not _processes_with(str(marker)), 15), "a collected holder left its server running"


def test_live_connections_close_when_their_owner_has_gone(tmp_path) -> None:
    from toolsearch.live.client import LiveConnections
    from toolsearch.live.mcpconfig import spec_from_fields

    marker = tmp_path / "started.txt"
    owner = {"alive": True}
    spec = spec_from_fields("solo", command=PY, args=[str(SERVER), "--name", "solo", "--start-marker", str(marker)])
    connections = LiveConnections(alive=lambda: owner["alive"], grace=1.0, check_every=0.2)
    connections.connect([spec])
    time.sleep(1.5)  # alive: kept open
    assert connections.open_servers == ["solo"] and len(_processes_with(str(marker))) == 1
    owner["alive"] = False  # the browser session has gone
    assert _wait_for(lambda: connections.closed, 15)
    assert _wait_for(lambda: not _processes_with(str(marker)), 15)


def test_the_call_spinner_names_the_tool_and_server_literally(tmp_path, monkeypatch) -> None:
    """The spinner's text is Markdown: a server named like a link (a name from an uploaded
    config) must read as text, invisible characters as markers."""
    import streamlit
    from streamlit.testing.v1 import AppTest

    shown: list[str] = []
    spinner = streamlit.spinner
    monkeypatch.setattr(streamlit, "spinner", lambda text, **kw: (shown.append(text), spinner(text, **kw))[1])
    marker = tmp_path / "started.txt"
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    name = "[lo](https://evil.example)\u200b"
    at.text_input(key="live_name").input(name)
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input(f"{SERVER} --name local --start-marker {marker}")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    try:
        assert not at.exception, at.exception
        tool = next(o for o in at.selectbox(key="live_tool").options if o.endswith("__echo"))
        at.selectbox(key="live_tool").select(tool).run()
        at.text_input(key=f"live_arg::{tool}::text").input("once")
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        assert _outcome(at)["response"]["content"][0]["text"] == "once"
        assert [t for t in shown if t.startswith("Calling")] == [
            common.md_escape(common.visible(f"Calling echo on {name}…"))]
        assert "https://" not in shown[-1].replace("`[lo](https://evil.example)", "")  # only inside the code span
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()

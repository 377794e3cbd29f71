"""Live MCP tests against real servers (no mocks).

* ``tests/mcp_test_server.py`` (the installed SDK): stdio, Streamable HTTP and SSE on 127.0.0.1,
  paginated listing, a real call, errors, a slow tool.
* ``tests/malformed_mcp_server.py``: raw JSON-RPC with tools the SDK rejects (lenient listing).
* Failure cases: a command that does not exist, a server that exits at once, one that never
  answers, a URL with nothing listening; each ends as a per-server failure with a reason while
  the other servers' tools are still there.
* Third-party servers installed by ``.ci/run``: ``mcp-server-time`` (PyPI) and
  ``@modelcontextprotocol/server-memory`` / ``server-everything`` (npm). They skip with the
  reason only when not installed and ``CI`` is unset; in CI they must run.
* The CLI (``snapshot`` → ``plan``, live ``call``) and the Live servers page (AppTest).
"""

from __future__ import annotations

import json
import re
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import literal_tables, run_cli, timed_out, write_json, write_yaml
from toolsearch.engine import constants as C
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.live.client import LiveDispatcher, attach_dispatcher, call_tool, connect_servers, load_sources
from toolsearch.live.mcpconfig import ServerSpec, parse_config_data, spec_from_fields

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"
MALFORMED = ROOT / "tests" / "malformed_mcp_server.py"
PY = sys.executable
TOKEN = "s3cret-test-token"
TEST_TOOLS = ["echo", "add", "get_env", "fail", "soft_fail", "slow", "lookup"]


def stdio(name: str, *extra: str, **fields) -> ServerSpec:
    """The test server over stdio, named ``name``."""
    return spec_from_fields(name, command=PY, args=[str(SERVER), "--name", name, *extra], **fields)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve(*args: str):
    """Run the test server with ``args`` until the block ends; yields its port."""
    port = free_port()
    flag = "--http" if "--sse" not in args else None
    command = [PY, str(SERVER), *args, *([flag, str(port)] if flag else [str(port)])]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"test server exited: {proc.stderr.read().decode()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("test server did not start listening")
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def http_url():
    with serve("--name", "remote", "--require-header", f"Authorization=Bearer {TOKEN}") as port:
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture(scope="module")
def sse_url():
    with serve("--name", "events", "--sse") as port:
        yield f"http://127.0.0.1:{port}/sse"


def processes_with(marker: str) -> list[int]:
    """Live processes whose command line contains ``marker`` (zombies have no command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def by_name(result):
    return {s.name: s for s in result.statuses}


def text_of(response) -> str:
    return "".join(block.get("text", "") for block in response["content"])


# --- the test server --------------------------------------------------------------------------

def test_stdio_listing_follows_pagination_and_records_server_info() -> None:
    result = connect_servers([stdio("local", "--page-size", "2")], timeout=120)  # the first start on a busy worker
    (status,) = result.statuses
    assert (status.state, status.tool_count, status.pages, status.reason) == ("ok", 7, 4, None)
    (server,) = result.catalog.servers
    assert [t.name for t in server.tools] == TEST_TOOLS
    assert server.info == {"name": "local", "version": "1.2.3", "protocolVersion": server.info["protocolVersion"]}
    assert server.info["protocolVersion"] in ("2025-11-25", "2026-07-28")
    assert server.capabilities["tools"] == {"listChanged": False}
    assert server.kind == "mcp" and result.catalog.problems == ()
    assert server.tools[1].extra == {"annotations": {"readOnlyHint": True}}
    assert server.tools[1].input_schema == {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                                            "required": ["a", "b"]}


def test_streamable_http_with_a_secret_header(http_url) -> None:
    good = spec_from_fields("remote", url=http_url, headers={"Authorization": f"Bearer {TOKEN}"})
    missing = spec_from_fields("no-header", url=http_url)
    result = connect_servers([good, missing])
    status = by_name(result)
    assert (status["remote"].state, status["remote"].tool_count, status["remote"].pages) == ("ok", 7, 3)
    assert status["remote"].info["name"] == "remote"
    assert status["no-header"].state == "failed"
    assert status["no-header"].reason == f"HTTP 401 Unauthorized from {http_url}"
    assert [s.name for s in result.catalog.servers] == ["remote"]
    assert TOKEN not in repr(good) and TOKEN not in json.dumps([s.to_dict() for s in result.statuses])
    outcome = call_tool(good, "add", {"a": 20, "b": 22})
    assert outcome.ok and outcome.response["structuredContent"] == {"sum": 42}


def test_sse_transport(sse_url) -> None:
    spec = spec_from_fields("events", url=sse_url, transport="sse")
    result = connect_servers([spec])
    assert (result.statuses[0].state, result.statuses[0].tool_count) == ("ok", 7)
    assert text_of(call_tool(spec, "echo", {"text": "over sse"}).response) == "over sse"


def test_a_real_call_returns_the_servers_result_and_timing() -> None:
    outcome = call_tool(stdio("local"), "add", {"a": 2, "b": 3})
    assert outcome.ok and not outcome.is_error and outcome.reason is None
    assert outcome.response["content"] == [{"type": "text", "text": "5"}]
    assert outcome.response["structuredContent"] == {"sum": 5}
    assert outcome.request() == {"server": "local", "tool": "add", "arguments": {"a": 2, "b": 3}}
    assert 0 < outcome.call_elapsed < outcome.elapsed


def test_env_reaches_the_server_and_is_never_shown() -> None:
    spec = stdio("local", env={"TS_SECRET": "hunter2-hunter2"})
    assert spec.redacted()["env"] == {"TS_SECRET": C.SECRET_MASK}
    assert "hunter2" not in repr(spec)
    outcome = call_tool(spec, "get_env", {"name": "TS_SECRET"})
    # The server got the value (it echoes it back exactly), and the echo is masked with a note.
    assert text_of(outcome.response) == C.SECRET_MASK
    assert any(note.startswith("the server sent back a value that matches a secret") for note in outcome.notes)


def test_tool_errors_timeouts_and_missing_servers_come_back_as_outcomes() -> None:
    spec = stdio("local")
    failed = call_tool(spec, "fail", {"message": "boom"})
    assert (failed.ok, failed.response) == (False, {"error": "fail: boom", "code": -32050})
    assert failed.reason == "the server answered with error -32050: fail: boom"
    soft = call_tool(spec, "soft_fail")
    assert soft.ok and soft.is_error and text_of(soft.response) == "soft failure"
    slow = call_tool(spec, "slow", {"seconds": 60}, timeout=1.5)
    assert not slow.ok and re.fullmatch(timed_out("1.5", "calling"), slow.reason), slow.reason
    assert slow.elapsed < 20
    gone = call_tool(spec_from_fields("gone", command="toolsearch-no-such-command-xyz"), "x")
    assert gone.response == {"error": "could not call 'x' on server 'gone': cannot start "
                                      "'toolsearch-no-such-command-xyz': command not found"}


# --- tool_call through the bridge (docs/reference.md §9) ----------------------------------------------------------

def test_tool_call_validates_locally_then_calls_the_real_tool() -> None:
    spec = stdio("local")
    result = connect_servers([spec])
    bridge = Inspector(result.catalog).bridge(parse_config({}))
    dispatcher = attach_dispatcher(bridge, [spec])
    try:
        missing = bridge.tool_call({"name": "mcp__local__add", "arguments": {"a": 1}})
        assert (missing["constraint"], missing["path"]) == ("required", "arguments")
        wrong = bridge.tool_call({"calls": [{"name": "mcp__local__add", "arguments": {"a": "x", "b": 1}}]})
        assert (wrong["constraint"], wrong["path"]) == ("type", "arguments.a")
        assert dispatcher.calls == []  # validation failures never reach the server
        # "max results" is registered as max_results (docs/reference.md §23.2); coercion turns "3" into 3.
        response = bridge.tool_call({"calls": [{"name": "mcp__local__lookup",
                                                "arguments": {"query": "q", "max_results": "3"}}]})
    finally:
        bridge.dispatcher = None
    assert text_of(response) == '{"max results": 3, "query": "q"}'
    assert len(dispatcher.calls) == 1
    assert dispatcher.last.request() == {"server": "local", "tool": "lookup", "arguments": {"query": "q", "max results": 3}}


def test_dispatcher_without_settings_for_a_server_does_not_call() -> None:
    result = connect_servers([stdio("local")])
    bridge = Inspector(result.catalog).bridge(parse_config({}))
    bridge.dispatcher = LiveDispatcher({})
    try:
        response = bridge.tool_call({"name": "mcp__local__echo", "arguments": {"text": "x"}})
    finally:
        bridge.dispatcher = None
    assert response == {"error": "no connection settings for server 'local'; tool 'mcp__local__echo' was not called"}


# --- failures never block or break the others ------------------------------------------------------


def test_a_protocol_version_the_sdk_refuses_is_named_as_the_sdk_refusing_it() -> None:
    """The SDK raises a plain RuntimeError for it: the reason is a sentence, not a Python class."""
    result = connect_servers([spec_from_fields("old", command=PY, args=[str(MALFORMED), "--protocol", "1999-01-01"]),
                              stdio("good")])
    status = by_name(result)
    assert status["old"].state == "failed"
    assert status["old"].reason == ("the MCP SDK refused the server's answer: "
                                    "Unsupported protocol version from the server: 1999-01-01")
    assert (status["good"].state, status["good"].tool_count) == ("ok", 7)

def test_each_failure_is_a_per_server_error_and_the_others_keep_their_tools() -> None:
    marker = f"toolsearch-hang-{uuid.uuid4().hex}"
    specs = [
        stdio("good"),
        spec_from_fields("missing", command="toolsearch-no-such-command-xyz"),
        spec_from_fields("exits", command=PY, args=["-c", "import sys; sys.stderr.write('boom: bad config\\n'); sys.exit(3)"]),
        spec_from_fields("hangs", command=PY, args=["-c", "import time, sys; time.sleep(120)", marker], connect_timeout=3),
        spec_from_fields("nothing-listening", url=f"http://127.0.0.1:{free_port()}/mcp"),
        spec_from_fields("malformed", command=PY, args=[str(MALFORMED)]),
        spec_from_fields("unset-credential", url="http://127.0.0.1:9/mcp",
                         headers={"Authorization": "Bearer ${TOOLSEARCH_TEST_UNSET_TOKEN}"}),
    ]
    seen = []
    result = connect_servers(specs, progress=lambda s: seen.append((s.name, s.state)))
    status = by_name(result)
    assert (status["good"].state, status["good"].tool_count) == ("ok", 7)
    assert status["missing"].reason == "cannot start 'toolsearch-no-such-command-xyz': command not found"
    assert status["exits"].reason == ("the server process exited with status 3 before answering "
                                      "(stderr: boom: bad config)")
    assert re.fullmatch(timed_out("3", "connecting"), status["hangs"].reason), status["hangs"].reason
    assert status["nothing-listening"].reason.startswith("cannot connect to http://127.0.0.1:")
    assert status["unset-credential"].reason == ("unset variable in url or headers: TOOLSEARCH_TEST_UNSET_TOKEN; "
                                                 "set it and connect again (nothing was sent)")
    assert {n for n, s in status.items() if s.state == "failed"} == {
        "missing", "exits", "hangs", "nothing-listening", "unset-credential"}
    # Lenient listing: the SDK rejects the malformed list; the tools with a name are kept and flagged.
    assert (status["malformed"].state, status["malformed"].tool_count) == ("ok", 2)
    servers = {s.name: s for s in result.catalog.servers}
    assert sorted(servers) == ["good", "malformed"]
    assert [t.name for t in servers["malformed"].tools] == ["loose_schema", "good"]
    assert servers["malformed"].tools[0].input_schema == {"properties": {"query": {"type": "string"}}, "required": ["query"]}
    problems = [str(p) for p in result.catalog.problems]
    assert any(p.startswith("warning: live: server 'malformed': tools/list page 1: the MCP SDK rejects this "
                            "tools/list result (tools.0.inputSchema.type: Field required") and p.endswith("(lenient parse)")
               for p in problems), problems
    assert "error: live: server 'malformed': tools[2]: expected a non-empty string 'name'; tool skipped" in problems
    assert any(re.fullmatch("error: live: server 'hangs': not connected: " + timed_out("3", "connecting"), p)
               for p in problems), problems
    # Registration of what was listed still works (the loose schema gets type object).
    registered = Inspector(result.catalog).registration.by_name()
    assert registered["mcp__malformed__loose_schema"].parameters["type"] == "object"
    # Progress: every server went through connecting to a final state; no orphans are left.
    assert {n for n, state in seen if state == "connecting"} == {s.name for s in specs}
    assert all(s.done for s in result.statuses)
    assert processes_with(marker) == []


def test_a_server_with_stray_stdout_lines_is_flagged_not_failed() -> None:
    result = connect_servers([spec_from_fields("noisy", command=PY, args=[str(MALFORMED), "--noise"])])
    (status,) = result.statuses
    assert (status.state, status.tool_count) == ("ok", 2)
    assert "3 stdout lines were not JSON-RPC" in status.flags
    assert any("3 lines on the server's stdout were not JSON-RPC messages (last: 'server log: handling a request')"
               in p.message for p in result.catalog.problems)


def test_a_call_on_a_malformed_server_keeps_the_raw_result() -> None:
    outcome = call_tool(spec_from_fields("m", command=PY, args=[str(MALFORMED)]), "loose_schema", {"query": "x"})
    assert outcome.ok
    assert outcome.response == {"content": [{"type": "text", "text": 'called loose_schema with {"query": "x"}'}]}


def test_page_cap_stops_listing() -> None:
    result = connect_servers([stdio("local", "--page-size", "1")], max_pages=3)
    (status,) = result.statuses
    assert (status.state, status.tool_count, status.pages) == ("ok", 3, 3)
    assert status.flags == ["stopped after 3 pages"]
    assert [p.message for p in result.catalog.problems] == [
        "stopped after 3 pages; the server has more (docs/reference.md §20)"]


def test_disabled_servers_are_not_started(tmp_path) -> None:
    marker = tmp_path / "started"
    spec = spec_from_fields("off", command=PY, args=["-c", f"open({str(marker)!r}, 'w')"])
    from dataclasses import replace
    result = connect_servers([replace(spec, enabled=False)])
    assert (result.statuses[0].state, result.statuses[0].reason) == ("skipped", "enabled: false")
    assert not marker.exists() and result.catalog.servers == ()


@pytest.mark.parametrize("held", [False, True], ids=["connect_servers", "LiveConnections.connect"])
def test_a_large_config_starts_a_few_servers_at_a_time(monkeypatch, held) -> None:
    """Servers connect at most ``LIVE_CONNECT_AT_ONCE`` at a time (the others stay pending); each
    server's timeout starts when it starts, so all of them list, each in under its own timeout.
    With the Live page's held sessions the room is given back when a server listed, not when its
    session closes."""
    from toolsearch.engine import constants as C
    from toolsearch.live.client import LiveConnections

    monkeypatch.setattr(C, "LIVE_CONNECT_AT_ONCE", 2)
    specs = [stdio(f"s{i}", "--startup-delay", "0.6", connect_timeout=20) for i in range(5)]
    state: dict[str, str] = {}
    most = 0

    def progress(status) -> None:
        nonlocal most
        state[status.name] = status.state
        most = max(most, sum(value in ("connecting", "listing") for value in state.values()))

    if held:
        connections = LiveConnections()
        try:
            result = connections.connect(specs, progress=progress)
            assert sorted(connections.open_servers) == [spec.name for spec in specs]
        finally:
            connections.close()
    else:
        result = connect_servers(specs, progress=progress)
    assert [s.state for s in result.statuses] == ["ok"] * 5, [(s.name, s.reason) for s in result.statuses]
    assert most == 2, most
    assert all(status.elapsed < 20 for status in result.statuses)


# --- third-party servers from the registries ---------------------------------------------------------

def _installed(env_var: str, name: str, *candidates: Path) -> str:
    """The server's command, or skip (outside CI) / fail (in CI) with the reason."""
    value = os.environ.get(env_var)
    if value:
        return value
    for candidate in candidates:
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    message = f"{name} is not installed (.ci/run installs it; or set {env_var} to its command)"
    if os.environ.get("CI"):
        pytest.fail(f"CI must have {message}")
    pytest.skip(message)


NODE_BIN = ROOT / ".ci" / "node" / "node_modules" / ".bin"


def test_mcp_server_time_from_pypi() -> None:
    command = _installed("TOOLSEARCH_MCP_TIME", "mcp-server-time", ROOT / ".ci" / "venv-time" / "bin" / "mcp-server-time")
    spec = spec_from_fields("time", command=command)
    result = connect_servers([spec])
    (server,) = result.catalog.servers
    assert [t.name for t in server.tools] == ["get_current_time", "convert_time"]
    assert server.info["name"] == "mcp-time"
    outcome = call_tool(spec, "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"})
    assert outcome.ok, outcome.reason
    target = outcome.response["structuredContent"]["target"]
    assert (target["timezone"], target["datetime"][10:]) == ("Asia/Tokyo", "T21:00:00+09:00")
    assert outcome.response["structuredContent"]["time_difference"] == "+9.0h"


def test_the_live_page_says_which_tools_the_harness_adds_to_mcp_server_time() -> None:
    """mcp-server-time lists 2 tools and announces resources and prompts, so it registers 6: the
    page's tool list shows its own 2 under "time · 2 tools", and the line above it says where the
    other 4 come from, as the Overview and plan do."""
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    from toolsearch.live.guard import launch_token  # noqa: PLC0415

    command = _installed("TOOLSEARCH_MCP_TIME", "mcp-server-time", ROOT / ".ci" / "venv-time" / "bin" / "mcp-server-time")
    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("time")
    at.text_input(key="live_command").input(command)
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    try:
        assert not at.exception, at.exception
        assert "time · 2 tools" in [e.label for e in at.expander]
        captions = [c.value.replace("\\", "") for c in at.caption]
        assert ("4 of the 6 registered tools are resource and prompt tools the harness adds for servers that "
                "announce those capabilities (4 for time; docs/reference.md §24): a server's own tools/list does not "
                "count them.") in captions, captions
    finally:
        connections = at.session_state["live_connections"] if "live_connections" in at.session_state else None
        if connections is not None:
            connections.close()


def test_server_memory_from_npm(tmp_path) -> None:
    command = _installed("TOOLSEARCH_MCP_MEMORY", "mcp-server-memory", NODE_BIN / "mcp-server-memory")
    spec = spec_from_fields("memory", command=command, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    result = connect_servers([spec])
    (server,) = result.catalog.servers
    assert [t.name for t in server.tools] == ["create_entities", "create_relations", "add_observations", "delete_entities",
                                              "delete_observations", "delete_relations", "read_graph", "search_nodes",
                                              "open_nodes"]
    entity = {"name": "toolsearch", "entityType": "project", "observations": ["inspects tool search"]}
    created = call_tool(spec, "create_entities", {"entities": [entity]})
    assert created.ok and created.response["structuredContent"] == {"entities": [entity]}
    # A second server process reads what the first one stored.
    graph = call_tool(spec, "read_graph", {})
    assert graph.response["structuredContent"] == {"entities": [entity], "relations": []}


def test_server_everything_from_npm_with_utilities() -> None:
    command = _installed("TOOLSEARCH_MCP_EVERYTHING", "mcp-server-everything", NODE_BIN / "mcp-server-everything")
    spec = spec_from_fields("everything", command=command)
    result = connect_servers([spec])
    (server,) = result.catalog.servers
    assert len(server.tools) == 13 and "get-sum" in [t.name for t in server.tools]
    assert {"tools", "resources", "prompts"} <= set(server.capabilities)
    # Capabilities were recorded, so registration adds the resource and prompt utilities (docs/reference.md §24);
    # "get-sum" is registered as get_sum (docs/reference.md §21.2) and dispatched under its raw name.
    inspector = Inspector(result.catalog)
    names = set(inspector.registration.by_name())
    assert {"mcp__everything__list_resources", "mcp__everything__read_resource", "mcp__everything__list_prompts",
            "mcp__everything__get_prompt", "mcp__everything__get_sum"} <= names
    bridge = inspector.bridge(parse_config({}))
    dispatcher = attach_dispatcher(bridge, [spec])
    try:
        summed = bridge.tool_call({"name": "mcp__everything__get_sum", "arguments": {"a": 2, "b": "3"}})
        prompts = bridge.tool_call({"name": "mcp__everything__list_prompts", "arguments": {}})
    finally:
        bridge.dispatcher = None
    assert text_of(summed) == "The sum of 2 and 3 is 5."
    assert dispatcher.calls[0].request() == {"server": "everything", "tool": "get-sum", "arguments": {"a": 2, "b": 3}}
    assert prompts["prompts"] and all("name" in p for p in prompts["prompts"])


# --- CLI ------------------------------------------------------------------------------------------

@pytest.fixture
def config_file(tmp_path) -> Path:
    return write_json(tmp_path / ".mcp.json", {"mcpServers": {
        "local": {"command": PY, "args": [str(SERVER), "--name", "local"], "env": {"TS_SECRET": "${TS_TEST_SECRET}"}},
    }})


def test_cli_snapshot_writes_a_catalog_that_plan_reads(config_file, tmp_path) -> None:
    out = tmp_path / "catalog.yaml"
    env = {**os.environ, "TS_TEST_SECRET": "hunter2-hunter2"}
    result = subprocess.run([*_cli(), "snapshot", str(config_file), "-o", str(out)], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("toolsearch: live: local: ok, 7 tools (3 pages) in ")
    assert lines[-1].startswith(f"toolsearch: wrote {out}: 1 server, 7 tools in ")
    text = out.read_text(encoding="utf-8")
    assert "hunter2" not in text and "TS_SECRET" not in text
    planned = run_cli("plan", out, "--json")
    assert planned.returncode == 0, planned.stderr
    data = json.loads(planned.stdout)
    assert data["deferred_count"] == 7
    assert [(s["name"], s["tool_count"]) for s in data["servers"]] == [("local", 7)]
    # The live plan and the snapshot's plan give the model the same tools array, byte for byte.
    live = run_cli("plan", config_file, "--json")
    assert live.returncode == 0, live.stderr
    assert json.loads(live.stdout)["tools"] == data["tools"]
    assert live.stderr.startswith("toolsearch: live: local: ok, 7 tools")


def _cli() -> list[str]:
    from conftest import toolsearch_command
    return toolsearch_command()


def test_cli_snapshot_reports_failed_servers_and_still_writes(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "local": {"command": PY, "args": [str(SERVER)]},
        "gone": {"command": "toolsearch-no-such-command-xyz"}}})
    out = tmp_path / "snap.yaml"
    result = run_cli("snapshot", config, "-o", out)
    assert result.returncode == 1
    assert ("toolsearch: live: gone: failed after" in result.stderr
            and "cannot start 'toolsearch-no-such-command-xyz': command not found" in result.stderr)
    import yaml
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["snapshot"] == {"configs": [str(config)],
                                "failed": {"gone": "cannot start 'toolsearch-no-such-command-xyz': command not found"}}
    assert [s["name"] for s in data["servers"]] == ["local"]
    assert data["servers"][0]["info"]["name"] == "toolsearch-test"


def test_cli_search_describe_and_call_on_a_config(config_file) -> None:
    found = run_cli("search", config_file, "-q", "add two integers", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["matches"][0] == "mcp__local__add"
    described = run_cli("describe", config_file, "mcp__local__lookup", "--json")
    assert list(json.loads(described.stdout)["tools"]["mcp__local__lookup"]["parameters"]["properties"]) == [
        "query", "max_results"]
    called = run_cli("call", config_file, "mcp__local__lookup", "-a", '{"query": "q", "max_results": "3"}', "--json")
    assert called.returncode == 0, called.stderr
    data = json.loads(called.stdout)
    assert data["request"] == {"server": "local", "tool": "lookup", "arguments": {"query": "q", "max results": 3}}
    assert text_of(data["response"]) == '{"max results": 3, "query": "q"}'
    assert data["ok"] is True and data["call_seconds"] <= data["elapsed_seconds"]
    human = run_cli("call", config_file, "mcp__local__add", "-a", '{"a": 1, "b": 2}')
    assert human.returncode == 0
    assert human.stdout.startswith("request (as the underlying tool): server 'local', tool 'add'\n")
    assert "tools/call round trip" in human.stdout
    refused = run_cli("call", config_file, "mcp__local__add", "-a", '{"a": 1}', "--json")
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["constraint"] == "required"  # not sent: no request/response block


def test_cli_explain_and_sweep_accept_a_config(config_file) -> None:
    explained = run_cli("explain", config_file, "-q", "echo text", "--json")
    assert explained.returncode == 0 and json.loads(explained.stdout)["matches"][0] == "mcp__local__echo"
    swept = run_cli("sweep", config_file, "--context-lengths", "8000", "--threshold-pcts", "5", "--csv")
    assert swept.returncode == 0 and swept.stdout.splitlines()[0].endswith(",local")


def test_load_sources_mixes_catalog_files_and_configs(config_file, tmp_path) -> None:
    catalog_file = write_json(tmp_path / "tools.json", {"server": "static", "tools": [{"name": "ping"}]})
    loaded = load_sources([str(catalog_file), str(config_file)])
    assert [s.name for s in loaded.catalog.servers] == ["static", "local"]
    assert loaded.live and list(loaded.specs) == ["local"]


# --- the app page (AppTest) ----------------------------------------------------------------------------

def _page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    return at


def _start(at, action: str = "connect", token: bool = True):
    """Confirm the pending launch: the AppTest browser has no request headers, so the guard asks
    for the launch token (as for a browser on another machine)."""
    from toolsearch.live.guard import launch_token

    if token:
        at.text_input(key=f"live_token_{action}").input(launch_token())
    return at.button(key=f"live_start_{action}").click().run()


def _status_table(at):
    """The per-server connect status table."""
    return literal_tables(at)["live_status"]


def _rendered(at) -> str:
    parts = [str(df.value.to_dict()) for df in at.dataframe] + [h.value.replace("<wbr>", "") for h in at.html]
    parts += [c.value for c in at.code] + [m.value for m in at.markdown] + [e.value for e in at.error]
    return "\n".join(parts)


def test_app_connects_a_server_from_the_form_searches_and_calls() -> None:
    at = _page()
    assert "live_catalog" not in at.session_state
    at.text_input(key="live_name").input("local")
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input(f"{SERVER} --name local")
    at.text_area(key="live_env").input("TS_SECRET=hunter2-hunter2")
    at.button(key="live_add").click().run()
    assert at.session_state["live_env"] == ""  # the secret field is cleared after Add
    assert "live_catalog" not in at.session_state  # adding a server starts nothing
    assert f"TS_SECRET={C.SECRET_MASK}" in _rendered(at)
    at.button(key="live_connect").click().run()
    assert "live_catalog" not in at.session_state  # Connect only asks for confirmation
    _start(at)
    assert not at.exception, at.exception
    catalog = at.session_state["live_catalog"]
    assert [(s.name, len(s.tools)) for s in catalog.servers] == [("local", 7)]
    statuses = _status_table(at)
    assert list(statuses["state"]) == ["ok"] and list(statuses["tools"]) == ["7"]
    assert at.download_button  # the snapshot download is offered
    at.text_input(key="live_query").input("add two integers").run()
    assert list(literal_tables(at)["live_matches"]["tool"])[0] == "mcp__local__add"
    at.selectbox(key="live_tool").select("mcp__local__add").run()
    at.toggle(key="live_raw").set_value(True).run()
    at.text_area(key="live_arguments").input('{"a": "4", "b": 5}').run()
    at.button(key="live_call").click().run()  # over the session Connect opened: nothing to confirm
    assert not at.exception, at.exception
    codes = [json.loads(c.value) for c in at.code if c.language == "json" and c.value.startswith("{")]
    assert {"server": "local", "tool": "add", "arguments": {"a": 4, "b": 5}} in codes
    assert any(c.get("structuredContent") == {"sum": 9} for c in codes)
    assert "hunter2" not in _rendered(at)


def test_app_uploaded_config_starts_nothing_until_connect(tmp_path) -> None:
    marker = tmp_path / "started"
    config = {"mcpServers": {
        "local": {"command": PY, "args": [str(SERVER), "--name", "local"]},
        "touch": {"command": PY, "args": ["-c", f"open({str(marker)!r}, 'w')"]},
        "gone": {"command": "toolsearch-no-such-command-xyz"},
        "notamap": "oops"}}  # a bad entry: that server's failure on Connect, not an error for the file
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(config).encode(), "application/json"))
    at.run()
    assert not at.exception, at.exception
    assert not marker.exists() and "live_catalog" not in at.session_state
    assert not at.error, [e.value for e in at.error]
    at.button(key="live_connect").click().run()
    assert not marker.exists()
    _start(at)
    assert marker.exists()
    statuses = _status_table(at).set_index("server")
    assert statuses.loc["local", "state"] == "ok" and statuses.loc["local", "tools"] == "7"
    assert statuses.loc["gone", "state"] == "failed"
    assert statuses.loc["gone", "reason / flags"] == "cannot start 'toolsearch-no-such-command-xyz': command not found"
    assert statuses.loc["notamap", "state"] == "failed"
    assert statuses.loc["notamap", "reason / flags"] == ("mcp.json: mcpServers.notamap: expected a mapping with "
                                                         "'command' or 'url', got a string")
    assert [s.name for s in at.session_state["live_catalog"].servers] == ["local"]


def test_problems_flagged_while_listing_are_rows_with_a_line_break_in_a_name_shown(tmp_path) -> None:
    """The page's "Flagged while listing" list was a text line per problem: a server named
    ``noisy\nwarning · all: …`` in an uploaded config drew a second problem line of its own. The
    problems are a table (as every other problem list), a line break in a name a marker."""
    config = {"mcpServers": {"noisy\nwarning · all: fine": {"command": PY, "args": [str(MALFORMED), "--noise"]}}}
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(config).encode(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    _start(at)
    assert not at.exception, at.exception
    flagged = literal_tables(at)["live_flagged"]
    stray = flagged[flagged["message"].str.contains("stdout were not JSON-RPC")]
    assert len(stray) == 1 and list(stray["severity"]) == ["warning"], flagged.to_dict("records")
    assert "noisy⟨U+000A⟩warning · all: fine" in stray["where"].iloc[0], stray["where"].iloc[0]
    assert not any(t.value.startswith("warning · all") for t in at.text)


def test_hermes_and_vscode_configs_connect_and_filters_apply(tmp_path) -> None:
    hermes = tmp_path / "config.yaml"
    hermes.write_text(
        "tools:\n  tool_search:\n    threshold_pct: 10\n"
        "mcp_servers:\n"
        f"  notes:\n    command: {json.dumps(PY)}\n    args: [{json.dumps(str(SERVER))}, '--name', 'notes']\n"
        "    tools:\n      include: [add, 'ec*']\n"
        "  'off':\n    command: toolsearch-no-such-command-xyz\n    enabled: false\n", encoding="utf-8")
    vscode = write_json(tmp_path / "mcp.json", {"servers": {"docs": {"type": "stdio", "command": PY,
                                                                     "args": [str(SERVER), "--name", "docs"]}}})
    loaded = load_sources([str(hermes), str(vscode)])
    assert [(s.name, s.state) for s in loaded.statuses] == [("notes", "ok"), ("off", "skipped"), ("docs", "ok")]
    assert [s.name for s in loaded.catalog.servers] == ["notes", "docs"]
    assert loaded.catalog.servers[0].config == {"tools": {"include": ["add", "ec*"]}}
    names = [t.name for t in Inspector(loaded.catalog).registration.tools if t.server == "notes"]
    assert names == ["mcp__notes__add", "mcp__notes__echo"]  # tools.include (docs/reference.md §25.1) on live tools
    # The same file is also the harness config: --config reads its tools.tool_search block.
    planned = run_cli("plan", hermes, "--config", hermes, "--context-length", "100000", "--json")
    assert planned.returncode == 0, planned.stderr
    data = json.loads(planned.stdout)
    assert (data["deferred_count"], data["budget"]) == (2, 4000)
    assert "toolsearch: live: off: skipped (enabled: false)" in planned.stderr


@pytest.mark.parametrize("name", ["catalog.yaml", "catalog.yml", "catalog", "mcp.JSONC.txt"])
def test_a_catalog_looking_file_mapping_servers_to_commands_starts_nothing(tmp_path, name) -> None:
    """VS Code's shape (``servers`` as a mapping) is a config only in a .json/.jsonc file: a YAML
    "catalog" that maps server names to commands is refused before anything runs."""
    mark = tmp_path / "started"
    data = {"name": "Friendly catalog", "servers": {"docs": {
        "command": PY, "args": ["-c", "import pathlib, sys; pathlib.Path(sys.argv[1]).touch()", str(mark)]}}}
    trojan = write_yaml(tmp_path / name, data)
    for command in (["plan", trojan], ["snapshot", trojan, "-o", tmp_path / "out.yaml"]):
        result = run_cli(*command)
        assert result.returncode == 2, result.stderr
        assert (f"{trojan}: servers: expected a list of servers (a catalog); a mapping of server names "
                "to commands is a VS Code MCP config, read only from a .json or .jsonc file "
                "(nothing was started)") in result.stderr
    assert not mark.exists()
    # The same text in a .jsonc file is VS Code's config, and its server starts when given as SOURCE.
    config = write_json(tmp_path / "mcp.jsonc", data)
    run_cli("plan", config)
    assert mark.exists()


def test_a_missing_working_directory_is_named(tmp_path) -> None:
    result = connect_servers([stdio("local", cwd=str(tmp_path / "nope"))])
    assert result.statuses[0].reason == (f"cannot start {PY!r}: the working directory "
                                         f"{str(tmp_path / 'nope')!r} does not exist")


# --- review fixes: secrets, fast sources, bad entries, signals, call timeouts ----------------

URLTOK = "urlTOKEN-12345-secret"
ARGTOK = "argTOKEN-67890-secret"


def _secret_config(tmp_path) -> Path:
    """A config whose failures and stray output all carry secrets from ${...} references."""
    port = free_port()
    noisy = ("import runpy, sys; print('hello', sys.argv[1], flush=True); "
             "sys.argv = [sys.argv[2], '--name', 'noisy']; runpy.run_path(sys.argv[0], run_name='__main__')")
    return write_json(tmp_path / "secrets.json", {"mcpServers": {
        "q": {"url": f"http://127.0.0.1:{port}/mcp?api_key=${{TS_URLTOK}}"},
        "u": {"url": f"http://admin:${{TS_URLTOK}}@127.0.0.1:{port}/mcp"},
        "lit": {"url": f"http://127.0.0.1:{port}/mcp?token=abc"},
        "path": {"command": "/nonexistent/${TS_ARGTOK}/bin"},
        "err": {"command": PY, "args": ["-c", "import sys; print('bad token', sys.argv[1], file=sys.stderr); "
                                              "sys.exit(3)", "${TS_ARGTOK}"]},
        "out": {"command": PY, "args": ["-c", "import sys, time; print('not json ' + sys.argv[1], flush=True); "
                                              "time.sleep(60)", "${TS_ARGTOK}"], "connect_timeout": 3},
        "noisy": {"command": PY, "args": ["-c", noisy, "${TS_ARGTOK}", str(SERVER)]},
    }})


def test_secrets_from_interpolation_never_reach_stderr_or_snapshots(tmp_path) -> None:
    config = _secret_config(tmp_path)
    out = tmp_path / "snap.yaml"
    env = {**os.environ, "TS_URLTOK": URLTOK, "TS_ARGTOK": ARGTOK}
    result = subprocess.run([*_cli(), "snapshot", str(config), "-o", str(out)], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 1, result.stderr
    text = out.read_text(encoding="utf-8")
    for shown in (result.stderr, result.stdout, text):
        assert URLTOK not in shown and ARGTOK not in shown and "token=abc" not in shown
        assert "urlTOKEN" not in shown and "argTOKEN" not in shown  # not even a cut-off piece
    import yaml
    failed = yaml.safe_load(text)["snapshot"]["failed"]
    mask = C.SECRET_MASK
    assert set(failed) == {"q", "u", "lit", "path", "err", "out"}
    assert f"?api_key={mask}" in failed["q"] and f"http://{mask}@127.0.0.1:" in failed["u"]
    assert f"?token={mask}" in failed["lit"]
    assert failed["path"] == f"cannot start '/nonexistent/{mask}/bin': command not found"
    assert failed["err"].endswith(f"(stderr: bad token {mask})")
    assert f"last: 'not json {mask}'" in failed["out"]
    problems = yaml.safe_load(text)["snapshot"]["problems"]
    assert any(f"(last: 'hello {mask}')" in p for p in problems), problems
    assert "toolsearch: live: noisy: ok, 7 tools" in result.stderr


def test_app_never_shows_interpolated_secrets(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TS_URLTOK", URLTOK)
    monkeypatch.setenv("TS_ARGTOK", ARGTOK)
    config = _secret_config(tmp_path)
    at = _page()
    at.file_uploader(key="live_config_upload").set_value(("secrets.json", config.read_bytes(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    _start(at)
    assert not at.exception, at.exception
    shown = _rendered(at) + "\n".join(str(x.value) for x in [*at.warning, *at.success, *at.info])
    statuses = _status_table(at).set_index("server")
    assert statuses.loc["noisy", "state"] == "ok"
    assert statuses.loc["path", "reason / flags"] == f"cannot start '/nonexistent/{C.SECRET_MASK}/bin': command not found"
    assert "urlTOKEN" not in shown and "argTOKEN" not in shown and "token=abc" not in shown
    download = at.session_state["live_result"]
    from toolsearch.live.client import dump_snapshot
    snapshot = dump_snapshot(download)
    assert "urlTOKEN" not in snapshot and "argTOKEN" not in snapshot


def test_load_sources_parses_each_file_once_without_pure_python_yaml(tmp_path, monkeypatch, config_file) -> None:
    import yaml

    import toolsearch.engine.catalog as catalog_module

    def refuse(*args, **kwargs):
        raise AssertionError("pure-Python yaml.safe_load was used")

    calls = []
    real = catalog_module._parse_text
    monkeypatch.setattr(yaml, "safe_load", refuse)
    monkeypatch.setattr(catalog_module, "_parse_text", lambda text, origin: calls.append(origin) or real(text, origin))
    yaml_catalog = tmp_path / "block.yaml"
    yaml_catalog.write_text("servers:\n  - name: static\n    tools:\n      - name: ping\n", encoding="utf-8")
    loaded = load_sources([str(yaml_catalog), str(config_file)])
    assert [s.name for s in loaded.catalog.servers] == ["static", "local"]
    assert calls == [str(yaml_catalog), str(config_file)]  # one parse per file, sniffing included


def test_cli_plan_on_the_largest_sample() -> None:
    # Speed is measured by benchmarks/engine.py, not asserted here (a timed test only measures the load).
    result = run_cli("plan", ROOT / "sample_catalogs" / "cloudflare-flat.yaml", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deferred_count"] == 3300


def test_bad_entries_fail_alone_and_the_others_connect(tmp_path) -> None:
    config = write_json(tmp_path / "weird.json", {"mcpServers": {
        "good": {"command": PY, "args": [str(SERVER), "--name", "good"]},
        "notamap": "oops",
        "nocommand": {"args": ["x"]},
        "badurl": {"url": "ftp://example.com/x"},
        "relurl": {"url": "not a url"},
    }})
    out = tmp_path / "snap.yaml"
    result = run_cli("snapshot", config, "-o", out)
    assert result.returncode == 1, result.stderr
    import yaml
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert [s["name"] for s in data["servers"]] == ["good"] and len(data["servers"][0]["tools"]) == 7
    failed = data["snapshot"]["failed"]
    assert failed == {
        "notamap": f"{config}: mcpServers.notamap: expected a mapping with 'command' or 'url', got a string",
        "nocommand": f"{config}: mcpServers.nocommand: expected 'command' (a non-empty string) for a stdio server, "
                     "or 'url' for a remote one",
        "badurl": f"{config}: mcpServers.badurl.url: expected an http:// or https:// URL with a host, "
                  "got 'ftp://example.com/x'",
        "relurl": f"{config}: mcpServers.relurl.url: expected an http:// or https:// URL with a host, got 'not a url'",
    }
    for name, reason in failed.items():  # refused before anything starts: well under a second, even under load
        assert re.search(rf"toolsearch: live: {name}: failed after 0\.\d\d s: {re.escape(reason)}\n", result.stderr)
    # The same file as a SOURCE: the good server's tools are searchable; calling a bad entry's
    # tool names the server and the reason.
    found = run_cli("search", config, "-q", "add two integers", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"][0]["matches"][0] == "mcp__good__add"
    called = run_cli("call", config, "mcp__notamap__x", "--json")
    assert called.returncode == 1
    assert json.loads(called.stdout) == {"error": f"cannot call 'mcp__notamap__x': server 'notamap' did not connect "
                                                  f"({failed['notamap']})"}


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.parametrize("signame, status, line", [("SIGTERM", 143, "toolsearch: terminated"),
                                                   ("SIGINT", 130, "toolsearch: interrupted")])
def test_a_signal_during_a_live_connect_stops_the_children(tmp_path, signame, status, line) -> None:
    import signal

    marker = f"toolsearch-sig-{uuid.uuid4().hex}"
    config = write_json(tmp_path / "hang.json", {"mcpServers": {
        "hang": {"command": PY, "args": ["-c", "import time; time.sleep(300)", marker]}}})
    proc = subprocess.Popen([*_cli(), "plan", str(config), "--timeout", "120"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert _wait_for(lambda: processes_with(marker), 60), "the server never started"
        time.sleep(0.5)
        proc.send_signal(getattr(signal, signame))
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status, err
    assert err == line + "\n" and out == ""
    assert _wait_for(lambda: not processes_with(marker), 5), "a server child outlived the CLI"


def test_cli_call_starts_only_the_target_server_once(tmp_path) -> None:
    started = tmp_path / "started.txt"
    marker = ["--start-marker", str(started)]
    config = write_json(tmp_path / "three.json", {"mcpServers": {
        name: {"command": PY, "args": [str(SERVER), "--name", name, *marker]} for name in ("alpha", "local", "omega")}})
    called = run_cli("call", config, "mcp__local__add", "-a", '{"a": 2, "b": 3}', "--json")
    assert called.returncode == 0, called.stderr
    data = json.loads(called.stdout)
    assert data["request"] == {"server": "local", "tool": "add", "arguments": {"a": 2, "b": 3}}
    assert data["response"]["structuredContent"] == {"sum": 5}
    lines = started.read_text(encoding="utf-8").splitlines()
    assert [line.split()[0] for line in lines] == ["local"]  # one process: listed and called on one session
    assert "toolsearch: live: local: ok, 7 tools (3 pages) in " in called.stderr
    assert "alpha" not in called.stderr and "omega" not in called.stderr
    # Local validation still sees the server's real tools: a missing argument is refused, not sent.
    started.unlink()
    refused = run_cli("call", config, "mcp__local__add", "-a", '{"a": 1}', "--json")
    assert refused.returncode == 1 and json.loads(refused.stdout)["constraint"] == "required"
    assert [line.split()[0] for line in started.read_text(encoding="utf-8").splitlines()] == ["local"]
    # A tool the target does not have is unknown, without starting any other server.
    started.unlink()
    unknown = run_cli("call", config, "mcp__local__nope", "--json")
    assert unknown.returncode == 1 and "error" in json.loads(unknown.stdout)
    assert [line.split()[0] for line in started.read_text(encoding="utf-8").splitlines()] == ["local"]
    # With a catalog file beside the config, the file's tools are there too; still one process.
    started.unlink()
    extra = write_json(tmp_path / "docs.json", {"servers": [{"name": "docs", "tools": [
        {"name": "search_docs", "description": "Search the docs.", "inputSchema": {"type": "object"}}]}]})
    mixed = run_cli("call", extra, config, "mcp__local__echo", "-a", '{"text": "hi"}', "--json")
    assert mixed.returncode == 0, mixed.stderr
    assert text_of(json.loads(mixed.stdout)["response"]) == "hi"
    assert [line.split()[0] for line in started.read_text(encoding="utf-8").splitlines()] == ["local"]
    # A name no server's prefix fits: every server is listed, as before (so the error can say why).
    started.unlink()
    anyone = run_cli("call", config, "nobody_add", "--json")
    assert anyone.returncode == 1
    assert sorted(line.split()[0] for line in started.read_text(encoding="utf-8").splitlines()) == [
        "alpha", "local", "omega"]


def test_cli_call_with_as_is_names_calls_over_the_listing_session(tmp_path) -> None:
    """An as-is name does not say which server has the tool, so every server lists; the call then
    goes over the session of the server that listed it: each server starts exactly once."""
    started = tmp_path / "started.txt"
    config = write_json(tmp_path / "three.json", {"mcpServers": {
        name: {"command": PY, "args": [str(SERVER), "--name", name, "--start-marker", str(started)]}
        for name in ("alpha", "local", "omega")}})
    called = run_cli("call", config, "add", "-a", '{"a": 2, "b": 3}', "--tool-names", "as-is", "--json")
    assert called.returncode == 0, called.stderr
    data = json.loads(called.stdout)
    assert data["request"]["tool"] == "add" and data["request"]["arguments"] == {"a": 2, "b": 3}
    assert data["response"]["structuredContent"] == {"sum": 5}
    starts = sorted(line.split()[0] for line in started.read_text(encoding="utf-8").splitlines())
    assert starts == ["alpha", "local", "omega"]  # listed once each; the call did not start its server again
    # The same with a prefixed name that no server's prefix fits (every server lists, nothing is called).
    started.unlink()
    unknown = run_cli("call", config, "nobody_add", "--json")
    assert unknown.returncode == 1
    assert sorted(line.split()[0] for line in started.read_text(encoding="utf-8").splitlines()) == [
        "alpha", "local", "omega"]


def test_cli_call_timeout_is_for_the_call_and_a_failed_server_is_named(tmp_path) -> None:
    config = write_json(tmp_path / "slow.json", {"mcpServers": {
        "local": {"command": PY, "args": [str(SERVER), "--name", "local", "--startup-delay", "1.5"]}}})
    # --timeout 1 bounds the call, not the (slower) start-up.
    slow = run_cli("call", config, "mcp__local__slow", "-a", '{"seconds": 30}', "--timeout", "1", "--json")
    assert slow.returncode == 1, slow.stderr
    data = json.loads(slow.stdout)
    assert re.fullmatch(timed_out("1", "calling"), data["reason"]), data["reason"]
    assert data["request"] == {"server": "local", "tool": "slow", "arguments": {"seconds": 30}}
    # A server that did not connect is named with its reason, not reported as an unknown tool.
    down = run_cli("call", config, "mcp__local__add", "-a", '{"a": 1, "b": 2}', "--connect-timeout", "0.5")
    assert down.returncode == 1
    message = (re.escape("cannot call 'mcp__local__add': server 'local' did not connect (")
               + timed_out("0.5", "connecting") + re.escape(")"))
    assert list(json.loads(down.stdout)) == ["error"] and re.fullmatch(message, json.loads(down.stdout)["error"])
    assert re.search(f"toolsearch: call failed: {message}\n$", down.stderr), down.stderr
    assert "not a known tool" not in down.stdout + down.stderr
    helped = run_cli("call", "--help")
    assert "--connect-timeout" in helped.stdout and "backward compatible" in " ".join(helped.stdout.split())


def test_sigterm_with_sigint_ignored_exits_fast_and_leaves_no_child(tmp_path) -> None:
    """``toolsearch … &`` in a script or CI: the shell starts it with SIGINT ignored; SIGTERM
    while servers start must still end it at once (not after the 120 s start timeout), status 143, no
    traceback, no child left. The bound is loose on purpose: CI runs three workers on two cores."""
    import signal

    marker = f"toolsearch-sigign-{uuid.uuid4().hex}"
    config = write_json(tmp_path / "hang.json", {"mcpServers": {
        "hang": {"command": PY, "args": ["-c", "import time; time.sleep(300)", marker]},
        "hang2": {"command": PY, "args": ["-c", "import time; time.sleep(300)", marker]}}})
    proc = subprocess.Popen([*_cli(), "plan", str(config), "--timeout", "120"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert _wait_for(lambda: len(processes_with(marker)) == 2, 60), "the servers never started"
        time.sleep(0.3)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        elapsed = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, err
    assert err == "toolsearch: terminated\n" and out == ""
    assert elapsed < 15.0, elapsed
    assert _wait_for(lambda: not processes_with(marker), 5), "a server child outlived the CLI"


def test_hermes_timeouts_mcp_connect_and_tool_call_are_honored(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "timeouts:\n  mcp:\n    connect: 1.5\n    tool_call: 1\n"
        "mcp_servers:\n"
        f"  local:\n    command: {json.dumps(PY)}\n    args: [{json.dumps(str(SERVER))}, '--name', 'local']\n"
        f"    connect_timeout: 60\n"
        f"  hang:\n    command: {json.dumps(PY)}\n    args: ['-c', 'import time; time.sleep(60)']\n", encoding="utf-8")
    result = run_cli("call", config, "mcp__local__slow", "-a", '{"seconds": 5}', "--json")
    outcome = json.loads(result.stdout)
    assert result.returncode == 1 and re.match(timed_out("1", "calling"), outcome["reason"]), outcome["reason"]
    lines = result.stderr.splitlines()  # call starts only the tool's server; its line comes first
    assert lines[0].startswith("toolsearch: live: local: ok, 7 tools (3 pages) in ")
    assert len(lines) == 2 and re.fullmatch("toolsearch: call failed: " + timed_out("1", "calling"), lines[1]), lines
    hung = run_cli("call", config, "mcp__hang__anything", "--json")
    assert hung.returncode == 1 and "toolsearch: live: hang: failed after " in hung.stderr
    assert re.search(timed_out("1.5", "connecting"), hung.stderr), hung.stderr


def test_lint_eval_diff_and_collapse_connect_a_config_like_plan(config_file, tmp_path) -> None:
    linted = run_cli("lint", config_file, "--json")
    assert "toolsearch: live: local: ok, 7 tools" in linted.stderr
    assert json.loads(linted.stdout)["tool_count"] == 7
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [{"id": "add", "queries": ["add two integers"],
                                                          "expected": ["mcp__local__add"]}]})
    evaluated = run_cli("eval", config_file, queries, "--json")
    assert evaluated.returncode == 0, evaluated.stderr
    assert json.loads(evaluated.stdout)["variants"][0]["metrics"]["recall_at_1"] == 1.0
    snapshot = tmp_path / "snap.yaml"
    assert run_cli("snapshot", config_file, "-o", snapshot).returncode == 0
    diffed = run_cli("diff", snapshot, config_file)
    assert "prompt cache: HIT" in diffed.stdout and "toolsearch: live: local: ok" in diffed.stderr
    collapsed = run_cli("collapse", config_file, "--context-length", "8k", "--json")
    assert collapsed.returncode == 0 and "toolsearch: live: local: ok" in collapsed.stderr


def test_plan_lists_failed_and_skipped_servers_with_their_reason(tmp_path) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "local": {"command": PY, "args": [str(SERVER), "--name", "local"]},
        "gone": {"command": "toolsearch-no-such-command-xyz"},
        "off": {"command": PY, "enabled": False}}})
    result = run_cli("plan", config, "--json")
    servers = {s["name"]: s for s in json.loads(result.stdout)["servers"]}
    assert servers["local"]["state"] in ("full", "names", "summary", "hidden")
    assert (servers["gone"]["state"], servers["gone"]["reason"]) == (
        "failed", "cannot start 'toolsearch-no-such-command-xyz': command not found")
    assert (servers["off"]["state"], servers["off"]["reason"], servers["off"]["tool_count"]) == ("skipped", "enabled: false", 0)
    text = run_cli("plan", config).stdout
    assert "gone: failed: cannot start 'toolsearch-no-such-command-xyz': command not found" in text
    assert re.search(r"^off +mcp +0 +skipped$", text, re.MULTILINE)


def test_the_stderr_tail_reads_only_the_end_of_a_flood() -> None:
    """A server that writes megabytes to stderr before it fails: only the end of the file is read
    (and scrubbed) for the failure's stderr tail, and a secret cut by the start of what is read is
    not shown in part."""
    import io

    from toolsearch.live import client

    class Counting(io.BytesIO):
        largest = 0

        def read(self, size=-1):
            data = super().read(size)
            Counting.largest = max(Counting.largest, len(data))
            return data

    secret = "tok-" + "s3cr3t" * 5
    raw = Counting()
    log = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", write_through=True)
    log.write(("noise " * 20 + "\n") * 100_000 + f"value {secret}\n" + "final: bad config\n")
    spec = spec_from_fields("s", command=PY, env={"TOKEN": secret})
    tail = client._stderr_tail(log, spec.scrub, spec.secret_values())
    assert tail.endswith("| final: bad config"), tail
    assert f"value {C.SECRET_MASK}" in tail and "s3cr3t" not in tail
    assert Counting.largest <= client._STDERR_READ_BYTES


def test_an_output_schema_pattern_that_backtracks_for_ever_does_not_hang_a_call(tmp_path) -> None:
    """The SDK checks a structured result against the server's output schema; under Python's
    ``re`` a server's ``^(a|aa)+$`` with 60 ``a`` and a ``!`` held the process for ever, deaf to
    SIGTERM. The pattern runs with a timeout, and the result is shown unvalidated."""
    from conftest import toolsearch_command

    config = write_json(tmp_path / "mcp.json", {"mcpServers": {"r": {
        "command": PY, "args": [str(Path(__file__).with_name("redos_mcp_server.py"))], "timeout": 20}}})
    done = subprocess.run([*toolsearch_command(), "call", str(config), "mcp__r__evil", "-a", "{}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"v": "' + "a" * 60 + '!"' in done.stdout


def test_a_config_entry_that_is_not_a_server_shows_no_made_up_transport_or_switch() -> None:
    """An entry that is not a server (``bad: 3``) read as "stdio, enabled" in the Live page's
    table beside its problem, and a disabled broken one as enabled. The transport is what the
    entry says (``unknown`` when it says nothing), ``enabled`` is the entry's own, and every
    broken entry is still reported as failed with its reason on Connect, disabled or not."""
    from toolsearch.ui.live import _spec_rows

    specs = parse_config_data({"mcpServers": {
        "bad": 3, "half": {"enabled": False, "foo": 1}, "remote": {"url": 5}, "cmd": {"command": "x", "args": 7}}},
        "mcp.json").servers
    rows = {r["server"]: r for r in _spec_rows(specs, "mcp.json")}
    assert (rows["bad"]["transport"], rows["bad"]["enabled"]) == ("unknown", True)
    assert (rows["half"]["transport"], rows["half"]["enabled"]) == ("unknown", False)
    assert rows["cmd"]["transport"] == "stdio" and rows["cmd"]["command or URL"] == "x"
    assert all(rows[n]["problem"].startswith(f"mcp.json: mcpServers.{n}") for n in rows), rows
    result = connect_servers(specs)
    statuses = {s.name: s for s in result.statuses}
    assert {n: s.state for n, s in statuses.items()} == dict.fromkeys(rows, "failed")
    assert statuses["half"].reason.startswith("mcp.json: mcpServers.half: expected 'command'")

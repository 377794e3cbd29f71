"""A stdio server whose command exits at once fails its connect at once, saying that the process
exited and with which status (and the end of its stderr, secrets masked), on the command line
and on the Live servers page alike (:func:`toolsearch.live.client.exit_reason`).

Before, the reason was "the server process exited or closed its output before answering" with no
status, and a server whose command exited but left a process of its own holding its output
(a launcher that starts the real server and returns) waited for the whole connect timeout and was
reported as one ("no answer within 30 s while connecting (timeout)").
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from conftest import literal_tables, run_cli_process, write_json
from toolsearch.engine import constants as C
from toolsearch.live.client import call_tool, connect_servers, exit_reason
from toolsearch.live.guard import launch_token
from toolsearch.live.mcpconfig import spec_from_fields

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
TIMEOUT = 30  # the connect budget: every failure here must come long before it
SECRET = "s3cr3t-exit-value-77"
#: Exits with status 3 after printing a secret from its environment to stderr.
EXIT_3 = "import os, sys; sys.stderr.write('fatal: bad key ' + os.environ['API_KEY'] + '\\n'); sys.exit(3)"
#: Starts a process that keeps its stdin and stdout open, then exits with status 4 (a launcher).
LAUNCHER = ("import subprocess, sys; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
            "sys.stderr.write('launched\\n'); sys.exit(4)")


def test_the_exit_status_and_stderr_are_the_reason() -> None:
    assert exit_reason(3) == "the server process exited with status 3 before answering"
    assert exit_reason(-9) == "the server process was ended by signal 9 (SIGKILL) before answering"


def test_a_server_that_exits_at_once_fails_at_once_with_its_exit_status() -> None:
    specs = [spec_from_fields("false", command="/bin/false"),
             spec_from_fields("three", command=PY, args=["-c", EXIT_3], env={"API_KEY": SECRET}),
             spec_from_fields("launcher", command=PY, args=["-c", LAUNCHER])]
    started = time.perf_counter()
    result = connect_servers(specs, timeout=TIMEOUT)
    took = time.perf_counter() - started
    reasons = {s.name: s.reason for s in result.statuses}
    assert reasons == {
        "false": exit_reason(1),
        "three": f"{exit_reason(3)} (stderr: fatal: bad key {C.SECRET_MASK})",
        "launcher": f"{exit_reason(4)} (stderr: launched)",
    }, reasons
    assert all(s.state == "failed" and s.elapsed < TIMEOUT / 3 for s in result.statuses), result.statuses
    assert took < TIMEOUT / 2, took


def test_a_call_to_a_server_that_exits_says_so_at_once() -> None:
    for spec, status, tail in ((spec_from_fields("three", command=PY, args=["-c", EXIT_3], env={"API_KEY": SECRET}), 3,
                                f" (stderr: fatal: bad key {C.SECRET_MASK})"),
                               (spec_from_fields("launcher", command=PY, args=["-c", LAUNCHER]), 4, " (stderr: launched)")):
        outcome = call_tool(spec, "anything", {}, timeout=TIMEOUT, connect_timeout=TIMEOUT)
        assert not outcome.ok and outcome.reason == exit_reason(status) + tail, outcome.reason
        assert outcome.elapsed < TIMEOUT / 3, outcome.elapsed


#: A raw stdio MCP server that answers ``initialize`` at once and ``tools/list`` (one tool) after
#: ``SLOW_LIST`` seconds.
SLOW_LIST = 3
SLOW_SERVER = f"""
import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = {{"protocolVersion": "2025-06-18", "capabilities": {{"tools": {{}}}},
                  "serverInfo": {{"name": "slow", "version": "1"}}}}
    elif message["method"] == "tools/list":
        time.sleep({SLOW_LIST})
        result = {{"tools": [{{"name": "t", "inputSchema": {{"type": "object"}}}}]}}
    else:
        result = {{}}
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": message["id"], "result": result}}) + "\\n")
    sys.stdout.flush()
"""


@pytest.mark.parametrize("linger, listing", [(0, SLOW_LIST), (1, 5)], ids=["exits-at-once", "exits-after-the-child-answered"])
def test_a_launcher_whose_child_serves_on_its_output_still_connects(linger: float, listing: int) -> None:
    """The command exits but a process it started answers on the inherited output: that process is
    the server, and the connect goes on (only a silent output fails at once), however long its
    listing takes within the budget; also when the child answered ``initialize`` before the
    launcher's exit was seen (a busy machine: the listing then took longer than the grace)."""
    server = SLOW_SERVER.replace(f"time.sleep({SLOW_LIST})", f"time.sleep({listing})")
    launcher = (f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {server!r}]); "
                f"time.sleep({linger}); sys.exit(0)")
    status = connect_servers([spec_from_fields("launched", command=PY, args=["-c", launcher])],
                             timeout=TIMEOUT).statuses[0]
    assert (status.state, status.tool_count, status.reason) == ("ok", 1, None), status
    assert status.elapsed > listing


@pytest.mark.parametrize("command", ["plan", "snapshot"])
def test_the_command_line_says_the_process_exited(tmp_path, command) -> None:
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "false": {"command": "/bin/false"},
        "three": {"command": PY, "args": ["-c", EXIT_3], "env": {"API_KEY": SECRET}},
        "launcher": {"command": PY, "args": ["-c", LAUNCHER]}}})
    done = run_cli_process(command, config, "--timeout", str(TIMEOUT))
    assert SECRET not in done.stdout + done.stderr
    lines = {}
    for line in done.stderr.splitlines():
        match = re.fullmatch(r"toolsearch: live: (\S+): failed after (\d+\.\d\d) s: (.*)", line)
        if match:
            lines[match.group(1)] = (float(match.group(2)), match.group(3))
    assert {name: reason for name, (_, reason) in lines.items()} == {
        "false": exit_reason(1),
        "three": f"{exit_reason(3)} (stderr: fatal: bad key {C.SECRET_MASK})",
        "launcher": f"{exit_reason(4)} (stderr: launched)",
    }, done.stderr
    assert all(seconds < TIMEOUT / 3 for seconds, _ in lines.values()), done.stderr


def test_the_live_servers_page_says_the_process_exited() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("three")
    at.text_input(key="live_command").input(PY)
    at.text_input(key="live_args").input("-c 'import sys; sys.stderr.write(\"fatal: no config\\n\"); sys.exit(3)'")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    table = literal_tables(at)["live_status"].set_index("server")
    assert table.loc["three", "state"] == "failed"
    assert table.loc["three", "reason / flags"] == f"{exit_reason(3)} (stderr: fatal: no config)"
    assert float(table.loc["three", "seconds"]) < TIMEOUT / 3

"""A server that says something twice while it is listed is flagged, not silently believed.

The MCP SDK keeps the first answer to a request and drops any later one with the same id, and
nothing read ``notifications/tools/list_changed``: a server that answered a ``tools/list`` page
twice (with another tool list the second time), or said its list changed in the middle of a
paginated listing, loaded as if nothing had happened. Each is now a warning on the server's load
result (a catalog problem, where the other load warnings are) and a flag on its status.

The server is ``tests/relist_mcp_server.py`` (two pages; the repeat or the notification comes
before page 2's answer, so it arrives while the listing is under way).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolsearch.live.client import connect_servers
from toolsearch.live.mcpconfig import spec_from_fields

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "relist_mcp_server.py"
WHERE = "live: server 'relist': tools/list"
TWICE = ("the server answered 1 tools/list request more than once (1 extra answer, not the same as the first); "
         "the first answer is kept and the later one ignored")
TWICE_SAME = ("the server answered 1 tools/list request more than once (1 extra answer, the same as the first); "
              "the first answer is kept and the later one ignored")
CHANGED = ("the server sent notifications/tools/list_changed after answering tools/list: its tool list changed while "
           "it was being read, so the tools shown (what it answered before) may be out of date, or over several "
           "pages part old and part new; connect again to list them afresh")


def connect(*flags: str):
    result = connect_servers([spec_from_fields("relist", command=sys.executable, args=[str(SERVER), *flags])])
    (status,) = result.statuses
    tools = [t.name for s in result.catalog.servers for t in s.tools]
    return status, tools, [(p.severity, p.where, p.message) for p in result.catalog.problems]


def test_a_page_answered_twice_keeps_the_first_answer_and_says_so() -> None:
    status, tools, problems = connect("--answer-twice")
    assert (status.state, status.pages, tools) == ("ok", 2, ["first", "second"])  # not "impostor"
    assert status.flags == ["tools/list answered twice (first kept)"]
    assert problems == [("warning", WHERE, TWICE)]


def test_a_repeat_of_the_same_answer_is_named_as_such() -> None:
    status, tools, problems = connect("--answer-twice", "--same")
    assert tools == ["first", "second"]
    assert problems == [("warning", WHERE, TWICE_SAME)]


def test_a_list_changed_notification_during_the_listing_is_a_warning() -> None:
    status, tools, problems = connect("--list-changed")
    assert (status.state, tools) == ("ok", ["first", "second"])
    assert status.flags == ["tool list changed while listed"]
    assert problems == [("warning", WHERE, CHANGED)]


def test_a_server_that_says_everything_once_gets_no_warning() -> None:
    status, tools, problems = connect()
    assert (status.state, status.flags, tools, problems) == ("ok", [], ["first", "second"], [])


def test_the_cli_prints_both_warnings_with_the_other_load_warnings(tmp_path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"relist": {
        "command": sys.executable, "args": [str(SERVER), "--answer-twice", "--list-changed"]}}}), encoding="utf-8")
    # A process of this checkout's code (python -m from the checkout, as run_cli_process's console
    # script would import the installed copy's).
    done = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(config)], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert f"toolsearch: catalog warning: {WHERE}: {TWICE}" in lines
    assert f"toolsearch: catalog warning: {WHERE}: {CHANGED}" in lines
    assert any(line.startswith("toolsearch: live: relist: ok, 2 tools (2 pages)") and line.endswith(
        "flagged: tools/list answered twice (first kept); tool list changed while listed") for line in lines), lines


def test_the_tap_counts_only_what_follows_an_answer_and_keeps_no_page_after_the_listing() -> None:
    """A list_changed sent before the first tools/list answer (a server that registers its tools at
    start-up) is what that answer already shows: no warning. After the listing the tap holds no
    page to compare with (a session kept open for calls would hold them all)."""
    import mcp_types
    from mcp.shared.message import SessionMessage

    from toolsearch.live.client import _Tap

    def msg(**fields):
        return SessionMessage(fields.pop("kind")(jsonrpc="2.0", **fields))

    tap = _Tap()
    tap.sent(msg(kind=mcp_types.JSONRPCRequest, id=7, method="tools/list"))
    tap.observe(msg(kind=mcp_types.JSONRPCNotification, method="notifications/tools/list_changed"))
    assert tap.list_changed_after_listing == 0
    tap.observe(msg(kind=mcp_types.JSONRPCResponse, id=7, result={"tools": []}))
    tap.observe(msg(kind=mcp_types.JSONRPCResponse, id=7, result={"tools": []}))
    tap.observe(msg(kind=mcp_types.JSONRPCError, id=7, error=mcp_types.ErrorData(code=-1, message="late")))
    tap.observe(msg(kind=mcp_types.JSONRPCNotification, method="notifications/tools/list_changed"))
    assert tap.repeated_answers == [("tools/list", 7, False), ("tools/list", 7, True)]
    assert tap.list_changed_after_listing == 1
    tap.listing_done()
    assert tap._answered_ids == {7: ("tools/list", None)}

"""Server and tool names from a config or a server are shown literally in the Live servers page's
call messages (the box that says a call starts a server again, the launch confirmation of a call
and the "not sent" warning) and in its tools table (a newline in a tool name is a marker, not a
second line).

The box showed a server name as Markdown (a config entry named ``[docs](https://evil.example)``
became a link), and the other two showed a tool name kept as the server spells it (tool names
``as-is``) with its invisible characters raw (a right-to-left override reversing the text after
it).

The server is ``tests/wide_tool_mcp_server.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolsearch.live.guard import launch_token
from toolsearch.ui import common

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "wide_tool_mcp_server.py"
SERVER_NAME = "[docs](https://evil.example)"
TOOL = "run\u202etxt.exe"


def test_a_call_that_starts_a_server_again_names_it_literally() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.session_state["naming"] = "as-is"
    at.run()
    at.text_input(key="live_name").input(SERVER_NAME)
    at.text_input(key="live_command").input(sys.executable)
    at.text_input(key="live_args").input(f"{SERVER} 1 '{TOOL}'")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="live_tool").value == TOOL
    at.button(key="live_disconnect").click().run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    boxes = [i.value for i in at.info]
    assert any("so this call starts " + common.md_escape(SERVER_NAME) + " again" in box for box in boxes), boxes
    heading = [m.value for m in at.markdown if m.value.startswith("**Confirm:")]
    assert heading == ["**Confirm: start 1 server to call " + common.md_escape(common.visible(TOOL)) + "**"], heading
    assert "\u202e" not in heading[0] and "⟨U\\+202E⟩" in heading[0], repr(heading[0])
    # Arguments the tool's schema refuses: nothing is sent, and the warning names the tool literally.
    at.toggle(key="live_raw").set_value(True).run()
    at.text_area(key="live_arguments").input('{"p0": 7}').run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning if w.value.startswith("Not sent")]
    assert len(warnings) == 1 and "\u202e" not in warnings[0] and "⟨U\\+202E⟩" in warnings[0], warnings


def test_a_newline_in_a_tool_name_is_shown_as_a_marker_in_the_tools_table() -> None:
    from conftest import literal_tables
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.session_state["naming"] = "as-is"
    at.run()
    at.text_input(key="live_name").input("wide")
    at.text_input(key="live_command").input(sys.executable)
    at.text_input(key="live_args").input(f"{SERVER} 1 'list\nfiles'")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    try:
        table = literal_tables(at)["live_tools:wide"]
        assert list(table["tool"]) == ["list⟨U+000A⟩files"], list(table["tool"])
    finally:
        at.session_state["live_connections"].close()

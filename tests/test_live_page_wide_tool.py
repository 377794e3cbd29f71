"""A tool with thousands of parameters does not make the Live servers page slow.

The Call form drew one widget per top-level parameter on every rerun (about 10 ms each): a tool
with 3,000 parameters, picked by default as the first tool, made each interaction with the page
take half a minute. Past :data:`toolsearch.ui.schema_form.MAX_FIELDS` the arguments are written
as one JSON object instead, and the page says why.

The server is ``tests/wide_tool_mcp_server.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from toolsearch.live.guard import launch_token
from toolsearch.ui import schema_form

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "wide_tool_mcp_server.py"


def _connected(count: int):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("wide")
    at.text_input(key="live_command").input(sys.executable)
    at.text_input(key="live_args").input(f"{SERVER} {count}")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    return at


def _form_widgets(at) -> list[str]:
    return [w.key for w in [*at.text_input, *at.text_area, *at.number_input, *at.selectbox, *at.checkbox]
            if w.key and w.key.startswith("live_arg::")]


def test_a_tool_with_thousands_of_parameters_is_called_with_a_json_object() -> None:
    at = _connected(3000)
    try:
        assert at.selectbox(key="live_tool").value == "mcp__wide__wide"
        assert _form_widgets(at) == []
        assert any(c.value == f"This tool has 3,000 parameters, more than the form draws ({schema_form.MAX_FIELDS}): "
                   "write the argument object as JSON." for c in at.caption)
        at.text_area(key="live_arguments").input('{"p7": "seven", "p2999": "last"}').run()
        at.button(key="live_call").click().run()
        assert not at.exception, at.exception
        outcome = at.session_state["live_last_call"]["outcome"]
        assert json.loads(outcome["response"]["content"][0]["text"]) == {"p7": "seven", "p2999": "last"}
    finally:
        at.session_state["live_connections"].close()


def test_a_tool_within_the_limit_keeps_its_form() -> None:
    at = _connected(schema_form.MAX_FIELDS)
    try:
        assert len(_form_widgets(at)) == schema_form.MAX_FIELDS
        assert not any("more than the form draws" in c.value for c in at.caption)
    finally:
        at.session_state["live_connections"].close()

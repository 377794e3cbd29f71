"""A Claude-Desktop-style config uploaded as a catalog file in the sidebar was refused with
"connect to its servers live to read their tools", without saying where that is done: the
message now names the Live servers page (and, for the library, a command's source)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent

CONFIG = {"mcpServers": {"time": {"command": "mcp-server-time", "args": ["--local-timezone", "UTC"]}}}


def test_a_client_config_uploaded_as_a_catalog_says_where_to_connect_it() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("claude_desktop_config.json", json.dumps(CONFIG).encode())]
    at.run()
    assert not at.exception, at.exception
    expected = ("claude_desktop_config.json: this is an MCP client config (mcpServers / servers / mcp_servers), "
                "not a catalog; its tools are read by connecting to its servers: upload it on the app's Live "
                "servers page, or give it to a toolsearch command as a source")
    assert common.md_escape(common.visible(expected)) in [e.value for e in at.error]
    assert [i.value for i in at.info][0].startswith("No catalog loaded.")

"""The launch confirmation of the Live servers page shows a config's one-line fields on one line:
a line break in a server name, a working directory or an environment variable name is a marker
(``⟨U+000A⟩``), never a line of its own. A config could otherwise print a fake "environment
added: none" above the real line. Nothing is started: the test stops at the confirmation."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = {"mcpServers": {
    "notes (stdio)\nfiles": {"command": "true", "cwd": "/tmp\nenvironment added: none",
                             "env": {"A\nheaders: none": "x"}},
    "web\nweb2": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-A": "y"}},
}}


def test_one_line_fields_of_the_launch_confirmation_show_line_breaks_as_markers() -> None:
    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=120)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(CONFIG).encode(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    assert not at.exception, at.exception
    lines = [t.value for t in at.text]
    assert "notes (stdio)⟨U+000A⟩files (stdio)" in lines, lines
    assert "working directory: /tmp⟨U+000A⟩environment added: none" in lines, lines
    assert "environment added: A⟨U+000A⟩headers: none=••••" in lines, lines
    assert "web⟨U+000A⟩web2 (http)" in lines, lines
    assert "headers: X-A: ••••" in lines, lines
    assert not any("\n" in line for line in lines), lines

"""Large live catalogs and results keep the Live servers page quick.

* The snapshot download's YAML was written on every rerun of the page (seconds for a large
  catalog: 3 s for one tool with a 200,000-value enum); it is written when the button is clicked.
* A schema or a response of megabytes was drawn whole in a code block on every rerun; past 200,000
  characters the block is cut, said so, and the whole JSON is a download.

The server is ``tests/mcp_test_server.py`` (its ``echo`` returns the text it is given).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolsearch.live.guard import launch_token

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "mcp_test_server.py"


@pytest.fixture
def page(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from toolsearch.live import client

    written = []
    real = client.dump_snapshot
    monkeypatch.setattr(client, "dump_snapshot", lambda *args, **kwargs: written.append(1) or real(*args, **kwargs))
    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    at.text_input(key="live_name").input("local")
    at.text_input(key="live_command").input(sys.executable)
    at.text_input(key="live_args").input(f"{SERVER} --name local --extra 20")
    at.button(key="live_add").click().run()
    at.button(key="live_connect").click().run()
    at.text_input(key="live_token_connect").input(launch_token())
    at.button(key="live_start_connect").click().run()
    assert not at.exception, at.exception
    yield at, written
    at.session_state["live_connections"].close()


def test_the_snapshot_is_written_only_when_downloaded(page) -> None:
    at, written = page
    at.text_input(key="live_query").input("look up a record").run()
    at.text_input(key="live_query").input("echo text").run()
    assert not at.exception, at.exception
    assert [b for b in at.get("download_button") if b.proto.label == "Download snapshot (catalog YAML)"]
    assert written == []


def test_a_response_of_megabytes_is_cut_in_the_page_and_whole_in_the_download(page) -> None:
    at, _ = page
    at.selectbox(key="live_tool").select("mcp__local__echo").run()
    text = "0123456789" * 50_000
    at.text_input(key="live_arg::mcp__local__echo::text").input(text).run()
    at.button(key="live_call").click().run()
    assert not at.exception, at.exception
    assert at.session_state["live_last_call"]["outcome"]["response"]["content"][0]["text"] == text
    cut = [c.value for c in at.caption if c.value.startswith("Cut at ")]
    assert len(cut) == 1 and cut[0].endswith("The download has the whole JSON."), cut
    shown = int(cut[0].split()[2].replace(",", ""))  # "Cut at 200,000 of 500,123 characters: …"
    assert shown <= 200_000
    blocks = [c.value for c in at.code if c.language == "json" and "0123456789" in c.value and '"content"' in c.value]
    assert len(blocks) == 1 and len(blocks[0]) <= shown + 2, [len(b) for b in blocks]
    assert [b for b in at.get("download_button") if b.proto.label == "Download the whole JSON"]

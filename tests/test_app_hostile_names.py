"""Names from catalogs, scope files and links in the app's pickers and sentences (Streamlit
``AppTest``): a server or scope name with invisible characters shows them as markers
(``⟨U+200B⟩``), and one with Markdown in it reads literally."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
ZW, RLO = "\u200b", "\u202e"
CATALOG = {"name": "Hostile names", "servers": [
    {"name": "git" + ZW + "hub", "tools": [
        {"name": "create_issue", "description": "Open an issue in a repository.", "inputSchema": {"type": "object"}},
        {"name": "list_repos", "description": "List the repositories of a user.", "inputSchema": {"type": "object"}}]},
    {"name": "**md**" + RLO, "tools": [
        {"name": "post_message", "description": "Post a message to a channel.", "inputSchema": {"type": "object"}}]},
]}
SHOWN = ["**md**⟨U+202E⟩", "git⟨U+200B⟩hub"]


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["scope"] = "sup" + RLO + "port=git" + ZW + "hub"  # a link defines and selects it
    at.session_state["scope_editor_open"] = True
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("hostile.json", json.dumps(CATALOG).encode())]
    at.run()
    assert not at.exception, at.exception
    return at


def test_pickers_show_invisible_characters_in_names_as_markers():
    at = _app()
    scope = at.sidebar.selectbox(key="scope_choice")
    assert scope.options == ["Whole catalog", "sup⟨U+202E⟩port"]
    assert scope.value == "sup" + RLO + "port"  # the value itself is the name as written
    assert at.sidebar.multiselect(key="scope_edit_servers").options == SHOWN
    assert at.sidebar.selectbox(key="scope_remove").options == ["sup⟨U+202E⟩port"]
    scope.set_value("Whole catalog").run()  # the pages below list the servers of the selected scope
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert at.multiselect(key="tuning_except").options == SHOWN
    assert at.multiselect(key="tuning_keep").options == SHOWN
    at.switch_page("toolsearch/ui/harnesses.py").run()
    assert at.multiselect(key="harness_pin_servers").options == SHOWN
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert at.selectbox(key="cmp_b_scope").options == ["Whole catalog", "sup⟨U+202E⟩port"]
    assert not at.exception, at.exception

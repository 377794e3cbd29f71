"""Invisible characters the model receives (an error of the lint rule hidden-characters) are an
alert on the Overview, not only a row on the lint page; "What the model sees" says that its markers
stand in for them, and uses the one marker the command line writes (Streamlit ``AppTest``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from conftest import inspector_of, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.lint import hidden_character_errors, lint
from toolsearch.engine.inspector import Inspector
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
RLO = "\u202e"
CATALOG = {"name": "rlo", "servers": [
    {"name": "git" + RLO + "hub", "tools": [
        {"name": "create_issue", "description": "Open an issue.", "inputSchema": {"type": "object"}}]},
    {"name": "slack", "tools": [
        {"name": "post", "description": "Post a message.", "inputSchema": {"type": "object"}}]},
]}


def _app(page: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("rlo.json", json.dumps(CATALOG).encode())]
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def test_the_overview_alerts_on_a_bidi_control_in_a_server_name():
    errors = [e.value for e in _app().error if "Invisible characters" in e.value]
    assert errors == [("Invisible characters the model receives (1 error of the lint rule hidden-characters): "
                      "git⟨U\\+202E⟩hub\\: server name. They are shown here as markers such as ⟨U\\+202E⟩; Search "
                      "quality & lint lists each with its fix.")]


def test_a_clean_catalog_has_no_alert():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not [e for e in at.error if "Invisible characters" in e.value]


def test_hidden_character_errors_are_lints_errors_and_skip_a_clean_catalog(tmp_path):
    path = tmp_path / "rlo.json"
    path.write_text(json.dumps(CATALOG), encoding="utf-8")
    rlo = Inspector.from_files([path], "prefixed")
    expected = [f for f in lint(rlo).findings if f.rule == "hidden-characters" and f.severity == "error"]
    assert hidden_character_errors(rlo) == expected and len(expected) == 1
    flat = inspector_of([ROOT / "sample_catalogs" / "cloudflare-flat.yaml"], "prefixed")
    start = time.perf_counter()
    assert hidden_character_errors(flat) == []
    assert time.perf_counter() - start < 1.0  # the quick pass, not the whole lint (seconds here)


def test_what_the_model_sees_says_the_markers_stand_in(tmp_path):
    at = _app("toolsearch/ui/model_view.py")
    captions = [c.value for c in at.caption if "tool_search definition" in c.value]
    assert captions and captions[0].startswith("As embedded in the tool_search definition, except that each invisible "
                                               "character is shown as a marker that stands in for it"), captions
    assert "Exactly as embedded" not in captions[0]
    (code,) = [c.value for c in at.code if "tools (1):" in c.value]
    assert "git⟨U+202E⟩hub tools (1):" in code
    path = tmp_path / "rlo.json"
    path.write_text(json.dumps(CATALOG), encoding="utf-8")
    cli = run_cli("plan", path)
    assert "git⟨U+202E⟩hub" in cli.stdout  # the one marker on both surfaces

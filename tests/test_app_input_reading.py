"""AppTest: the Search page's Call validation tab shows a tool's input schema as the server sent it
beside what the model receives, with what registration lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import literal_tables, write_yaml
from toolsearch.engine.catalog import load_source

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run the AppTest through app.py's st.navigation router (as a served app does)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def test_call_tab_shows_sent_vs_received_and_the_loss() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["catalog"] = "hard-cases"
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/search.py").run()
    at.session_state["search_tab"] = "Call validation"
    at.run()
    name = "mcp__legacy_crm__log_activity"
    at.selectbox(key="call_tool").set_value(name).run()
    assert not at.exception, at.exception
    labels = [e.label for e in at.expander]
    assert "Input schema: sent by the server vs received by the model · 1 lost at registration" in labels
    losses = literal_tables(at)[f"schema_losses:{name}"].to_dict("records")
    assert [(row["severity"], row["where"]) for row in losses] == [("error", "inputSchema.anyOf")]
    assert "the model sees a tool with no parameters" in losses[0]["lost"]
    sent = next(s for s in load_source(ROOT / "sample_catalogs" / "hard-cases.yaml").servers
                if s.name == "legacy-crm").tools
    raw = next(t for t in sent if t.name == "log_activity").input_schema
    codes = [c.value for c in at.code]
    assert json.dumps(raw, ensure_ascii=False, indent=2) in codes
    assert json.dumps({"type": "object", "properties": {}, "required": []}, indent=2) in codes


def test_overview_server_table_has_a_row_per_kind_and_the_warning(tmp_path, monkeypatch) -> None:
    from toolsearch.ui import common

    from test_input_reading import SHARED, SHARED_WARNING

    folder = tmp_path / "samples"
    folder.mkdir()
    write_yaml(folder / "shared.yaml", SHARED)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["catalog"] = "shared"
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/overview.py").run()
    assert not at.exception, at.exception
    rows = literal_tables(at)["server_table"].to_dict("records")
    assert [(r["server"], r["kind"], r["tools"]) for r in rows] == [("web", "core", "2"), ("web", "mcp", "1")]
    problems = literal_tables(at)["catalog_problems"].to_dict("records")
    where, message = SHARED_WARNING.split(": ", 1)
    assert {"severity": "warning", "where": where, "message": message} in problems


def test_a_shipped_sample_is_named_as_shipped_in_its_problems() -> None:
    """The problems of a shipped sample name it ``sample_catalogs/<file>``, not by the folder the
    checkout or the installed package sits in."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["catalog"] = "hard-cases"
    at.run()
    assert not at.exception, at.exception
    where = list(literal_tables(at)["catalog_problems"]["where"])
    assert where and all(w.startswith("sample_catalogs/hard-cases.yaml: server '") for w in where), where
    assert not any(str(ROOT) in w for w in where)

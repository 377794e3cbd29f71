"""A 100,000-character server name (and a 300-character tool name) in the app's tables: the
server tables of Overview, Model view and Costs, the Costs page's tools, collapse-order and
listing-key tables cut it with ``…`` and its length, as the command line's tables do, so one name
cannot fill screens of a single cell; the other servers' rows read as before."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import literal_tables
from streamlit.testing.v1 import AppTest

from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
LONG_SERVER = "s" * 100_000
LONG_TOOL = "t" * 300
SHORT_SERVER = "s" * 199 + "… (100,000 characters)"
SHORT_TOOL = "t" * 199 + "… (300 characters)"
CATALOG = {"name": "long names", "servers": [
    {"name": LONG_SERVER, "tools": [{"name": LONG_TOOL, "description": "A tool.", "inputSchema": {"type": "object"}}]},
    {"name": "github", "tools": [{"name": "create_issue", "description": "Open an issue.",
                                  "inputSchema": {"type": "object"}}]},
]}


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("long.json", json.dumps(CATALOG).encode())]
    at.session_state["naming"] = "as-is"
    at.run()
    assert not at.exception, at.exception
    return at


def _no_long_cell(tables) -> None:
    for key, table in tables.items():
        for column in table.columns:
            assert all(len(str(cell)) < 1_000 for cell in table[column]), (key, column)


def test_server_tables_cut_a_long_server_name():
    at = _app()
    tables = literal_tables(at)
    assert sorted(tables["server_table"]["server"]) == ["github", SHORT_SERVER]
    _no_long_cell(tables)
    # the reasons below the table name the servers as the table does
    assert LONG_SERVER not in "\n".join(m.value for m in at.markdown)

    at.switch_page("toolsearch/ui/model_view.py")
    at.session_state["mv_tab"] = "Per-server states"
    at.run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    assert sorted(tables["server_table"]["server"]) == ["github", SHORT_SERVER]
    _no_long_cell(tables)


def test_costs_tables_cut_long_server_and_tool_names():
    at = _app()
    at.switch_page("toolsearch/ui/costs.py")
    at.session_state["costs_tools_tab"] = "Table"
    at.session_state["costs_server_table"] = True  # the per-server table's expander, open as a click opens it
    at.run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    assert sorted(tables["costs_tools_table"]["tool"]) == ["create_issue", SHORT_TOOL]
    assert sorted(tables["costs_tools_table"]["server"]) == ["github", SHORT_SERVER]
    assert SHORT_SERVER in list(tables["costs_collapse_order"]["server"])
    _no_long_cell(tables)


def test_table_name_keeps_short_names_and_cuts_long_ones():
    assert common.table_name("git\u200bhub") == "git⟨U+200B⟩hub"
    assert common.table_name(LONG_SERVER) == SHORT_SERVER
    assert common.table_name(None) is None


def test_charts_cut_a_long_server_name_in_labels_and_hover():
    """The Costs charts: an axis label shows at most 64 characters of a name (the plot kept its
    width), the hover text at most 200 and the length, as the tables do."""
    from toolsearch.analysis import charts
    from toolsearch.engine.catalog import load_text
    from toolsearch.engine.config import parse_config
    from toolsearch.engine.inspector import Inspector

    plan = Inspector(load_text(json.dumps(CATALOG), "long.json")).plan(parse_config({}), 200_000)
    costs = charts.server_costs_figure(plan)
    ticks = [str(x) for trace in costs.data for x in (trace.x or ())]
    assert ticks and max(map(len, ticks)) < 200, max(map(len, ticks))
    assert any(t.startswith("s" * 63 + "…") for t in ticks)
    collapse = charts.collapse_figure(charts.collapse_rows(plan), "chars4", plan.budget)
    labels = [str(y) for trace in collapse.data for y in (trace.y or ()) if y is not None]
    assert "#1 " + "s" * 63 + "…" in labels
    hover = [str(v) for trace in collapse.data for row in (trace.customdata or ()) for v in row]
    assert SHORT_SERVER in hover and LONG_SERVER not in hover

"""The tool pickers of large catalogs (toolsearch/ui/picker.py): a filter box that sends only matching names.

Above ``PICKER_THRESHOLD`` deferred tools the Search page's Describe and Call validation tabs, the
Scopes page's probe and the Strategies page's tool choice offer at most ``PICKER_LIMIT`` names,
filtered on the server; below it they are the plain select boxes. The AppTests run on a
``toolsearch synth`` catalog of 2,500 tools served as a sample catalog.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import literal_tables
from toolsearch.ui import common
from toolsearch.ui.picker import PICKER_LIMIT, PICKER_THRESHOLD, match_names
from toolsearch.analysis.synthetic import dump_catalog_json, large_catalog
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
TOOLS, SERVERS = 2_500, 20
CATALOG = "synthetic-picker"


# --- match_names -----------------------------------------------------------------------------------

NAMES = ["mcp__github__create_issue", "mcp__github__list_issues", "mcp__jira__Create_Ticket",
         "create", "mcp__create__ping", "issue_create_helper", "mcp__slack__post_message"]


def test_match_names_ranks_exact_then_prefix_then_substring():
    # "create" itself; names starting with it or whose tool part does (catalog order); the rest.
    assert match_names(NAMES, "create") == (
        ["create", "mcp__github__create_issue", "mcp__jira__Create_Ticket", "mcp__create__ping",
         "issue_create_helper"], 5)
    assert match_names(NAMES, "  CREATE  ") == match_names(NAMES, "create")


def test_match_names_needs_every_word_and_counts_past_the_limit():
    assert match_names(NAMES, "issue github") == (["mcp__github__create_issue", "mcp__github__list_issues"], 2)
    assert match_names(NAMES, "issue zebra") == ([], 0)
    assert match_names(NAMES, "mcp", limit=2) == (["mcp__github__create_issue", "mcp__github__list_issues"], 5)
    assert match_names(NAMES, "", limit=3) == (NAMES[:3], len(NAMES))
    assert match_names(NAMES, "e", limit=0) == ([], 7)


# --- the app ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def catalog_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("picker") / f"{CATALOG}.yaml"
    path.write_text(dump_catalog_json(large_catalog(TOOLS, SERVERS)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def bridge(catalog_file):
    return Inspector(load_source(catalog_file)).bridge(ToolSearchConfig())


@pytest.fixture
def samples(tmp_path, monkeypatch, catalog_file) -> Path:
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / f"{CATALOG}.yaml").symlink_to(catalog_file)
    for name in ("team-workspace.yaml", "queries"):
        (folder / name).symlink_to(ROOT / "sample_catalogs" / name)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    return folder


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run every AppTest run through app.py's router (see tests/test_app_search_costs.py)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def open_tab(catalog: str, label: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = catalog
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.session_state["search_tab"] = label
    at.run()
    assert not at.exception, at.exception
    return at


def contains_all(names, words):
    return [n for n in names if all(w in n.lower() for w in words)]


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_describe_offers_only_matches_and_keeps_the_choice(samples, bridge):
    names = list(bridge.deferred_by_name)
    assert len(names) == TOOLS > PICKER_THRESHOLD
    at = open_tab(CATALOG, "Describe")
    picker = at.multiselect(key="describe_names")
    assert picker.value == [names[0]]
    assert picker.options == names[:PICKER_LIMIT]  # not 2,500 names
    assert f"{TOOLS:,} of {TOOLS:,} tools match; the first {PICKER_LIMIT} are offered: type more of the name " \
           "to narrow them." in captions(at)

    at.text_input(key="describe_names_filter").set_value("wiki comment").run()
    expected = contains_all(names, ["wiki", "comment"])
    assert 0 < len(expected) < PICKER_LIMIT
    # The kept choice first, then the matches (none of them starts with "wiki": catalog order).
    assert at.multiselect(key="describe_names").options == [names[0], *expected]
    assert f"{len(expected):,} of {TOOLS:,} tools match." in captions(at)

    at.multiselect(key="describe_names").set_value([names[0], expected[-1]]).run()
    at.text_input(key="describe_names_filter").set_value("zebra").run()
    assert at.multiselect(key="describe_names").options == [names[0], expected[-1]]  # chosen names stay
    assert at.multiselect(key="describe_names").value == [names[0], expected[-1]]
    assert f"0 of {TOOLS:,} tools match." in captions(at)
    response = bridge.tool_describe({"names": [names[0], expected[-1], "no_such_tool"]})
    assert to_wire(response) in [c.value for c in at.code]


def test_call_filter_moves_the_choice_to_its_first_match(samples, bridge):
    names = list(bridge.deferred_by_name)
    at = open_tab(CATALOG, "Call validation")
    assert at.selectbox(key="call_tool").value == names[0]
    assert at.selectbox(key="call_tool").options == names[:PICKER_LIMIT]

    at.text_input(key="call_tool_filter").set_value("validate_wiki").run()
    expected = contains_all(names, ["validate_wiki"])
    first = expected[0]
    assert at.selectbox(key="call_tool").value == first
    assert at.selectbox(key="call_tool").options == expected
    tool = bridge.deferred_by_name[first]
    request = {"calls": [{"name": first, "arguments": json.loads(at.text_area(key=f"call_args:{first}").value)}]}
    assert to_wire(bridge.tool_call(request)) in [c.value for c in at.code]
    assert tool.name == first

    # The exact name ranks first, whatever the catalog order.
    at.text_input(key="call_tool_filter").set_value(expected[-1].upper()).run()
    assert at.selectbox(key="call_tool").value == expected[-1]
    assert at.selectbox(key="call_tool").options == [expected[-1]]
    # A filter that matches nothing keeps the current choice.
    at.text_input(key="call_tool_filter").set_value("zebra").run()
    assert at.selectbox(key="call_tool").value == expected[-1]
    assert f"0 of {TOOLS:,} tools match." in captions(at)


def test_small_catalogs_keep_the_plain_select_boxes(samples):
    at = open_tab("team-workspace", "Call validation")
    bridge = Inspector(load_source(samples / "team-workspace.yaml")).bridge(ToolSearchConfig())
    assert at.selectbox(key="call_tool").options == [common.visible(n) for n in bridge.deferred_by_name]
    assert not [t for t in at.text_input if t.key == "call_tool_filter"]


def test_scopes_probe_uses_the_filter_on_a_large_catalog(samples, bridge):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = CATALOG
    at.run()
    at.switch_page("toolsearch/ui/scopes.py").run()
    at.button(key="scopes_per_server").click().run()
    assert not at.exception, at.exception
    # 20 scopes: more than the reach matrix's literal table has columns for, so it scrolls sideways.
    matrix = next(df.value for df in at.dataframe if list(df.value.columns)[:1] == ["scope"])
    assert len(matrix) == SERVERS and len(matrix.columns) == SERVERS + 1
    assert "scopes_matrix" not in literal_tables(at) and "scopes_compare" in literal_tables(at)
    probe = at.selectbox(key="scopes_probe_tool")
    assert len(probe.options) <= PICKER_LIMIT + 1
    at.text_input(key="scopes_probe_tool_filter").set_value("approve alerts report").run()
    expected = contains_all(list(bridge.deferred_by_name), ["approve", "alerts", "report"])
    assert at.selectbox(key="scopes_probe_tool").value == expected[0]
    assert at.selectbox(key="scopes_probe_tool").options == expected

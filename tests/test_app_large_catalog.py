"""Every page of the app on a large synthetic catalog (AppTest), and the fast paths that make it
usable there.

The catalog is made by the ``toolsearch synth`` generator (6,000 tools on 80 servers, and one server of 400 tools without descriptions: more
servers than the static tables and the validated charts handle, and enough tools that anything
quadratic in the tool count shows) and served from a temporary samples folder, as the other app
tests do. Each page is rendered, then the threshold_pct slider is moved; the page must raise
nothing and show its key elements with the catalog's numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import heat_cells, literal_tables
from toolsearch.analysis import charts
from toolsearch.ui import common
from toolsearch.analysis.lint import _reached, lint, name_probe, probe_keywords
from toolsearch.analysis.synthetic import dump_catalog_json, large_catalog
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import ToolSearchConfig
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
#: The synthetic catalog, plus one server of tools without descriptions (so the lint has more
#: findings than its table draws).
SYNTH_TOOLS, SYNTH_SERVERS, BARE_TOOLS = 6_000, 80, 400
N_TOOLS, N_SERVERS = SYNTH_TOOLS + BARE_TOOLS, SYNTH_SERVERS + 1
CATALOG = "synthetic-large"


@pytest.fixture(scope="module")
def catalog_file(tmp_path_factory) -> Path:
    data = json.loads(dump_catalog_json(large_catalog(SYNTH_TOOLS, SYNTH_SERVERS)))
    data["servers"].append({"name": "bare", "tools": [
        {"name": f"op_{i:03d}", "inputSchema": {"type": "object", "properties": {}}} for i in range(BARE_TOOLS)]})
    path = tmp_path_factory.mktemp("large") / f"{CATALOG}.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def big_inspector(catalog_file) -> Inspector:
    return Inspector(load_source(catalog_file))


@pytest.fixture
def samples(tmp_path, monkeypatch, catalog_file) -> Path:
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / f"{CATALOG}.yaml").symlink_to(catalog_file)
    (folder / "queries").symlink_to(ROOT / "sample_catalogs" / "queries")
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


def _texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "text", "info", "warning", "success") for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


#: page file → (title, a check of the page's key elements)
def _check_overview(at: AppTest, ins: Inspector) -> None:
    assert _metric(at, "Tools") == f"{N_TOOLS:,}"
    assert _metric(at, "Servers") == f"{N_SERVERS:,}"
    # More servers than the grouped-reasons layout holds: the reasons are a column of the literal
    # table, which has every server (one page: fewer than 200 rows) and a sort order.
    plan = ins.plan(ToolSearchConfig(), 200_000)  # the sidebar's defaults: the page is checked before any move
    table = literal_tables(at)["server_table"]
    assert len(table) == N_SERVERS and "why" in table.columns
    assert "kind" not in table.columns and "Every server is of kind mcp." in [c.value for c in at.caption]
    assert list(table["server"]) == [s.name for s in plan.servers]
    assert list(table["why"]) == [s.reason for s in plan.servers]
    assert not at.dataframe, "no canvas tables on the Overview"
    at.selectbox(key="server_table_sort").set_value("tools").run()
    ordered = sorted(plan.servers, key=lambda s: -s.tool_count)  # stable: ties keep the plan's order
    assert list(literal_tables(at)["server_table"]["server"]) == [s.name for s in ordered]
    at.selectbox(key="server_table_sort").set_value("plan order").run()


def _check_model_view(at: AppTest, ins: Inspector) -> None:
    assert at.code, "the tools array / tool_search description is shown"


def _check_search(at: AppTest, ins: Inspector) -> None:
    assert at.text_input or at.text_area, "the query box is there"


def _check_costs(at: AppTest, ins: Inspector) -> None:
    keys = {c.proto.id for c in at.get("plotly_chart")}
    assert len(keys) >= 3
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    # The listing-budget bar has one segment per listed server (built without per-trace validation).
    assert any(sum(1 for t in s["data"] if t.get("type") == "bar" and t.get("orientation") == "h") >= N_SERVERS
               for s in specs)


def _check_tuning(at: AppTest, ins: Inspector) -> None:
    cells = heat_cells(at, "tuning_heatmap")
    assert cells and sum(1 for c in cells if c.get("aria-current") == "true") == 1, "the heat table, setting marked"


def _check_live(at: AppTest, ins: Inspector) -> None:
    assert at.button, "the Live servers page offers its controls"


def _check_cache_diff(at: AppTest, ins: Inspector) -> None:
    # Side B starts equal to the sidebar: the same bytes, a cache hit.
    assert "Prompt cache: HIT" in _texts(at)  # st.badge is markdown
    assert len(literal_tables(at)["cd_collapse_servers"]) == N_SERVERS, "the per-server collapse table"


def _check_quality(at: AppTest, ins: Inspector) -> None:
    report = lint(ins, ToolSearchConfig())
    counts = report.counts()
    assert _metric(at, "Errors") == str(counts["error"])
    assert _metric(at, "Warnings") == str(counts["warning"])
    table = literal_tables(at)["lint_table"]
    shown = 500  # toolsearch/ui/quality.py LINT_ROWS_SHOWN: the table is capped, the report download has all
    page = 200  # toolsearch/ui/tables.py PAGE_ROWS: the capped table is shown a page at a time
    assert report.by_rule()["description-empty"] == BARE_TOOLS
    assert len(report.findings) > shown
    assert len(table) == page
    assert list(table["rule"]) == [f.rule for f in report.findings][:page]
    at.number_input(key="lint_table_page").set_value(3).run()  # the last page ends at the cap
    assert list(literal_tables(at)["lint_table"]["rule"]) == [f.rule for f in report.findings][2 * page:shown]
    assert f"The table shows the first {shown:,} of these {len(report.findings):,} findings" in _texts(at)


def _check_strategies(at: AppTest, ins: Inspector) -> None:
    assert literal_tables(at) or at.get("plotly_chart")


def _check_harnesses(at: AppTest, ins: Inspector) -> None:
    tables = literal_tables(at)
    assert {"harness_rows_200000", "harness_rows_1000000", "harness_sources"} <= set(tables)
    assert list(tables["harness_rows_200000"]["kind"])[0] == "exact"


def _check_scopes(at: AppTest, ins: Inspector) -> None:
    assert "Scopes" in [t.value for t in at.title]


def _check_sessions(at: AppTest, ins: Inspector) -> None:
    assert "Sessions" in [t.value for t in at.title]


def _check_report(at: AppTest, ins: Inspector) -> None:
    assert at.button or at.get("download_button")


PAGES = {
    "overview": ("Overview", _check_overview), "model_view": ("What the model sees", _check_model_view),
    "search": ("Search", _check_search), "costs": ("Costs", _check_costs), "tuning": ("Tuning", _check_tuning),
    "live": ("Live servers", _check_live), "cache_diff": ("Compare & collapse", _check_cache_diff),
    "quality": ("Search quality & lint", _check_quality), "strategies": ("Strategies", _check_strategies),
    "harnesses": ("Harnesses", _check_harnesses),
    "scopes": ("Scopes", _check_scopes), "sessions": ("Sessions", _check_sessions), "report": ("Report", _check_report),
}


def test_every_page_renders_on_a_large_catalog(samples, big_inspector):
    """Each page, then a slider move on it: no exception, the page's title and key elements."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.session_state["catalog"] = CATALOG
    at.run()
    assert not at.exception, at.exception
    assert at.sidebar.selectbox(key="catalog").value == CATALOG
    for page, (title, check) in PAGES.items():
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, (page, at.exception)
        assert title in [t.value for t in at.title], page
        check(at, big_inspector)
        sliders = [s for s in at.sidebar.slider if s.key == "threshold_pct"]
        if sliders:
            sliders[0].set_value(2.0 if sliders[0].value != 2.0 else 3.0).run()
            assert not at.exception, (page, "after a slider move", at.exception)
            assert title in [t.value for t in at.title], page


def test_reachability_fast_path_matches_the_search(big_inspector, monkeypatch):
    """The lint's batched reachability check answers exactly as ``index.search(probe, limit)``
    does, for every deferred tool's probes (and its raw name), at several limits."""
    bridge = big_inspector.bridge(ToolSearchConfig())
    index = bridge.index
    tools = bridge.deferred[::15]
    assert len(tools) > 400
    cases = [(tool.name, probe) for tool in tools
             for probe in (name_probe(tool.raw_name), " ".join(probe_keywords(tool.description)), "list page", "zz")]
    disagreements, within = [], 0
    for limit in (1, 5):
        searched = []
        with monkeypatch.context() as patch:  # the batched path answers without index.search
            patch.setattr(index, "search", lambda *a: searched.append(a) or [])
            got = _reached(index, limit, [(name, [probe]) for name, probe in cases])
        assert searched == []
        for (name, probe), answer in zip(cases, got):
            want = name in [n for n, _ in index.search(probe, limit)]
            within += answer
            if answer != want:
                disagreements.append((limit, probe, name, answer, want))
    assert disagreements == []
    assert within > len(tools)  # most tools are found by their own words: the check is not vacuous


def test_many_trace_figures_match_the_validated_build():
    """A figure over more traces than :data:`pages.charts.VALIDATE_TRACES` (built without plotly's
    per-trace validation) serializes exactly as the validated build does."""
    plan = Inspector(large_catalog(1_500, 90)).plan(ToolSearchConfig(), 200_000)
    fast = charts.listing_budget_figure(plan)
    assert len(fast.data) > charts.VALIDATE_TRACES
    original = charts.VALIDATE_TRACES
    try:
        charts.VALIDATE_TRACES = 10_000
        checked = charts.listing_budget_figure(plan)
    finally:
        charts.VALIDATE_TRACES = original
    assert json.loads(fast.to_json()) == json.loads(checked.to_json())


def test_the_performance_page_names_this_catalog_and_the_picker_limit():
    from toolsearch.ui.picker import PICKER_LIMIT

    text = " ".join((ROOT / "docs" / "performance.md").read_text(encoding="utf-8").split())
    assert f"`tests/test_app_large_catalog.py` renders every page on a {N_TOOLS:,}-tool catalog" in text
    assert f"large tool pickers send at most {PICKER_LIMIT} names" in text

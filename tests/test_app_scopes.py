"""AppTest tests for session scopes: the sidebar picker and editor, every page planning as the
selected session, and the Scopes page (side by side, server matrix, tool probe).

Each test drives the app the way a user does and compares what it shows with the engine's own
output for the same scope.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from toolsearch.engine.config import parse_config
from toolsearch.engine.profile import default_profile
from toolsearch.analysis.scope_compare import compare_scopes
from toolsearch.engine.scopes import Scope

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_catalogs" / "team-workspace.yaml"
SUPPORT = Scope("support", ("slack", "linear"), exclude=("*delete*",))
CONFIG = parse_config({"threshold_pct": 5.0, "listing_max_tokens": 4000, "enabled": "auto", "listing": "auto",
                       "search_default_limit": 5, "max_search_limit": 25})


def _app(**query) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.session_state["scope_editor_open"] = True  # the "Edit scopes" expander, as a click opens it
    at.run()
    assert not at.exception, at.exception
    return at


def _define(at: AppTest, name: str, servers: list[str], exclude: str = "", include: str = "") -> AppTest:
    at.sidebar.text_input(key="scope_edit_name").input(name)
    at.sidebar.multiselect(key="scope_edit_servers").set_value(servers)
    at.sidebar.text_input(key="scope_edit_include").input(include)
    at.sidebar.text_input(key="scope_edit_exclude").input(exclude)
    at.sidebar.button(key="scope_save").click().run()
    assert not at.exception, at.exception
    return at


def _metric(at, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def _engine(scope: Scope | None):
    return inspector_of([SAMPLE]).scoped(scope).plan(CONFIG, 200_000)


def test_editor_defines_and_selects_a_scope_and_overview_plans_for_it():
    at = _define(_app(), "support", ["slack", "linear"], exclude="*delete*")
    picker = at.sidebar.selectbox(key="scope_choice")
    assert picker.options == ["Whole catalog", "support"]
    assert picker.value == "support"
    plan = _engine(SUPPORT)
    whole = _engine(None)
    assert plan.deferred_count != whole.deferred_count
    assert _metric(at, "Deferred tools") == f"{plan.deferred_count:,}"
    assert _metric(at, "Tools array with tool search") == f"{plan.tools_tokens:,}"  # the unit is in the heading
    assert _metric(at, "All schemas up front") == f"{plan.eager_tokens:,}"
    table = literal_tables(at)["server_table"]
    assert list(table["server"]) == ["linear", "slack"]
    assert at.query_params["scope"] == "support=slack,linear;exclude=*delete*"

    # edit it: the selected scope fills the editor; saving under the same name replaces it
    at.sidebar.button(key="scope_load").click().run()
    assert (at.sidebar.text_input(key="scope_edit_name").value, at.sidebar.multiselect(key="scope_edit_servers").value,
            at.sidebar.text_input(key="scope_edit_exclude").value) == ("support", ["slack", "linear"], "*delete*")
    at.sidebar.multiselect(key="scope_edit_servers").set_value(["slack"])
    at.sidebar.button(key="scope_save").click().run()
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog", "support"]
    assert _metric(at, "Deferred tools") == f"{_engine(Scope('support', ('slack',), exclude=('*delete*',))).deferred_count:,}"

    # back to the whole catalog
    at.sidebar.selectbox(key="scope_choice").set_value("Whole catalog").run()
    assert _metric(at, "Deferred tools") == f"{whole.deferred_count:,}"


def test_editor_rejects_a_scope_without_a_name_and_removes_scopes():
    at = _define(_app(), "", ["slack"])
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog"]
    assert [e.value for e in at.sidebar.error] == ["scope editor\\: expected a non\\-empty scope name"]
    at = _define(at, "chat", ["slack"])
    _define(at, "tracker", ["linear", "github"])
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog", "chat", "tracker"]
    at.sidebar.selectbox(key="scope_remove").set_value("tracker")
    at.sidebar.button(key="scope_remove_button").click().run()
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog", "chat"]
    assert at.sidebar.selectbox(key="scope_choice").value == "Whole catalog"


def test_a_bad_scope_upload_is_one_line_naming_the_file_once():
    at = _app()
    at.sidebar.file_uploader(key="scope_upload").set_value(("scopes.yaml", b"scopes: 5\n", "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert [w.value.replace("\\", "") for w in at.sidebar.warning] == [
        "scopes.yaml: scopes: expected a mapping of scope names (or a list of scopes), got a whole number"]


def test_a_link_defines_and_selects_the_scope():
    at = _app(scope="support=slack,linear;exclude=*delete*")
    assert at.sidebar.selectbox(key="scope_choice").value == "support"
    assert _metric(at, "Deferred tools") == f"{_engine(SUPPORT).deferred_count:,}"
    bad = _app(scope="no equals sign")
    assert bad.sidebar.selectbox(key="scope_choice").options == ["Whole catalog"]
    # Not dropped without a word: named like any other link value that cannot be used.
    assert [w.value for w in bad.warning if "scope" in w.value] == [
        "The link's value for scope, “no equals sign”, is not valid here and was ignored; the whole catalog is "
        "shown. scope\\: expected NAME\\=SERVER,SERVER \\(e\\.g\\. support\\=slack,linear\\)\\."]


def test_a_link_with_thousands_of_wildcard_patterns_is_ignored_with_a_word():
    """A link's scope is tried on every tool name on every run: 9,000 patterns kept the page busy
    for a minute per slider move on the largest sample. Over the limit it is ignored, said like any
    other link value that cannot be used, and the whole catalog is planned."""
    patterns = ",".join(f"x{i}*" for i in range(9000))
    at = _app(scope=f"ro=*;exclude={patterns}")
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog"]
    (notice,) = [w.value for w in at.warning if "scope" in w.value]
    assert notice.startswith("The link's value for scope, “ro\\=\\*;exclude\\=x0\\*,x1\\*,x2\\*,x3\\*,x4\\*,x5\\*,"
                             "x6…” (61,902 characters), is not valid here and was ignored"), notice
    assert notice.endswith("; the whole catalog is shown. scope\\: exclude\\: 9,000 patterns with wildcards \\(\\*, ? "
                           "or \\[\\), over the limit of 256 in one list; not read\\."), notice
    assert _metric(at, "Deferred tools") == f"{_engine(None).deferred_count:,}"


def test_scopes_page_side_by_side_matrix_and_probe():
    at = _define(_app(), "support", ["slack", "linear"], exclude="*delete*")
    _define(at, "ops", ["grafana", "sentry"])
    at.switch_page("toolsearch/ui/scopes.py").run()
    assert not at.exception, at.exception
    ops = Scope("ops", ("grafana", "sentry"))
    expected = compare_scopes(inspector_of([SAMPLE]), [None, SUPPORT, ops], CONFIG, 200_000)
    compare = literal_tables(at)["scopes_compare"]
    assert list(compare["scope"]) == ["Whole catalog", "support", "ops"]
    assert list(compare["tools array with tool search (tokens)"]) == [f"{r.tokens_per_request:,}" for r in expected]
    assert list(compare["tier"]) == [str(r.tier) for r in expected]
    assert list(compare["form"]) == [r.short_label for r in expected]
    assert list(compare["budget (tokens)"]) == [f"{r.budget:,}" for r in expected]
    reach = literal_tables(at)["scopes_reach"]
    assert list(reach["scope"]) == list(compare["scope"])
    assert list(reach["tools reachable"]) == [f"{r.session_tools} of {r.catalog_tools}" for r in expected]
    assert list(reach["servers reached"])[1:] == ["linear, slack", "grafana, sentry"]
    caption = next(t.value for t in at.text if t.value.startswith("Catalog: "))
    assert " · context length 200K · tokens in " in caption, caption  # as every surface labels a length

    matrix = literal_tables(at)["scopes_matrix"]  # one row per server, one column per scope
    assert list(matrix.columns) == ["server", "support", "ops"]
    assert list(matrix["server"]) == sorted(inspector_of([SAMPLE]).registration.server_kinds)
    rows = {row["server"]: row for _, row in matrix.iterrows()}
    assert (rows["slack"]["support"], rows["github"]["support"], rows["grafana"]["ops"], rows["slack"]["ops"]) == (
        "all", "—", "all", "—")

    at.selectbox(key="scopes_probe_tool").set_value("mcp__grafana__create_incident").run()
    probe = literal_tables(at)["scopes_probe"]
    by_scope = {row["scope"]: row for _, row in probe.iterrows()}
    out_of_scope = default_profile().text("errors", "out_of_scope", name="mcp__grafana__create_incident")
    assert by_scope["support"]["tool_call"] == out_of_scope
    assert by_scope["support"]["tool_describe"] == "not found"
    assert by_scope["support"]["tool_search finds it by name"] == "no"
    assert by_scope["ops"]["tool_describe"] == "schema"
    assert by_scope["ops"]["tool_search finds it by name"] == "yes"


def test_scopes_page_quick_start_and_strategies_page_names_withheld_tools():
    at = _app()
    at.switch_page("toolsearch/ui/scopes.py").run()
    at.button(key="scopes_per_server").click().run()
    assert not at.exception, at.exception
    options = at.sidebar.selectbox(key="scope_choice").options
    assert options[:3] == ["Whole catalog", "core", "filesystem"] and "slack" in options
    at.sidebar.selectbox(key="scope_choice").set_value("grafana").run()
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    line = next(t.value for t in at.text if t.value.startswith("Scope grafana:"))
    assert line.startswith("Scope grafana: 30 of 183 tools in the session.")
    assert "mcp__github__get_job_logs" in line


def test_every_page_renders_for_a_scoped_session():
    at = _app(scope="oncall=core,grafana,sentry,slack")
    for page in ("model_view", "search", "costs", "tuning", "cache_diff", "quality", "strategies", "report", "live",
                 "search"):  # back from the Live page, which has no scope picker: the choice is still there
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, (page, at.exception)
        if page == "live":  # no scope picker there; the choice is kept for the next page
            assert at.session_state["scope_choice"] == "oncall"
        else:
            assert at.sidebar.selectbox(key="scope_choice").value == "oncall"


def test_a_server_name_with_a_comma_survives_the_link():
    """An uploaded catalog whose server is named ``eu,west``: the scope picked on it and the Tuning
    page's "May collapse" list go into the link with the comma escaped (``eu\\,west``), and a link
    written so reads back the one server, not ``eu`` and ``west``."""
    import yaml

    from toolsearch.ui import common

    catalog = {"name": "Commas", "servers": [
        {"name": "eu,west", "tools": [{"name": "list_regions", "description": "List the regions.",
                                        "inputSchema": {"type": "object"}}]},
        {"name": "us", "tools": [{"name": "list_zones", "description": "List the zones.",
                                   "inputSchema": {"type": "object"}}]}]}
    at = _app()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("commas.yaml", yaml.safe_dump(catalog).encode())]  # what an upload stores
    at.run()
    assert not at.exception, at.exception
    _define(at, "eu", ["eu,west"])
    assert at.sidebar.selectbox(key="scope_choice").value == "eu"
    assert at.query_params["scope"] == "eu=eu\\,west", at.query_params
    assert _metric(at, "Deferred tools") == "1"
    at.sidebar.selectbox(key="scope_choice").set_value("Whole catalog").run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.multiselect(key="tuning_except").set_value(["eu,west"]).run()
    assert not at.exception, at.exception
    assert at.query_params["except"] == "eu\\,west", at.query_params
    # the link read back (a fresh browser session): one server named eu,west
    back = _app(scope="eu=eu\\,west", keep="eu\\,west,us")
    assert back.session_state["tuning_keep"] == ["eu,west", "us"]
    assert back.sidebar.selectbox(key="scope_choice").value == "eu"


def test_scopes_page_counts_a_mixed_listing():
    """At 8K the whole catalog's listing is mixed: the side-by-side table named it "mixed" alone, where
    every other table and grid gives the counts ("mixed 3/9", as sweep)."""
    at = _define(_app(ctx="8K"), "support", ["slack", "linear"], exclude="*delete*")
    at.switch_page("toolsearch/ui/scopes.py").run()
    assert not at.exception, at.exception
    compare = literal_tables(at)["scopes_compare"]
    expected = compare_scopes(inspector_of([SAMPLE]), [None, SUPPORT], CONFIG, 8_000)
    assert expected[0].form == "mixed"
    assert list(compare["form"]) == ["mixed 3/9", expected[1].short_label]


def test_scopes_page_loads_the_shipped_sample_scopes():
    """The Scopes page opened with no scopes offers the shipped sample scope files (the catalog's own
    first); loading one defines its scopes, as reading the same file does."""
    from toolsearch.engine.scopes import scopes_from_text

    sample = ROOT / "sample_catalogs" / "scopes" / "team-workspace.yaml"
    expected, _ = scopes_from_text(sample.read_text(encoding="utf-8"), sample.name)
    at = _app()
    at.switch_page("toolsearch/ui/scopes.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="scopes_sample_file").value == "team-workspace.yaml"
    at.button(key="scopes_load_sample").click().run()
    assert not at.exception, at.exception
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog", *[s.name for s in expected]]
    table = literal_tables(at)["scopes_compare"]
    assert list(table["scope"])[1:] == [s.name for s in expected]


def test_scopes_side_by_side_reads_in_full_at_1024_px():
    """The side by side is two tables of the same rows: what each scope sends (eight columns), then
    what it reaches (its tools, deferred and visible, its servers). One table of twelve columns was
    wider than the page at 1024 px: the last ones, the servers reached among them, sat behind a
    sideways scroll."""
    at = _app()
    at.switch_page("toolsearch/ui/scopes.py").run()
    at.button(key="scopes_load_sample").click().run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    assert list(tables["scopes_compare"].columns) == [
        "scope", "tier", "form", "tools array with tool search (tokens)", "% of context", "budget (tokens)",
        "listing (tokens)", "all schemas up front (tokens)"]
    reach = tables["scopes_reach"]
    assert list(reach.columns) == ["scope", "tools reachable", "deferred", "visible", "servers reached"]
    assert list(reach["scope"]) == list(tables["scopes_compare"]["scope"])
    assert list(reach["servers reached"])[0] == ", ".join(sorted(
        ["core", "filesystem", "github", "grafana", "linear", "notion", "playwright", "sentry", "slack"]))


def test_scopes_bar_chart_keeps_the_table_order():
    """The side-by-side bar chart lists the scopes in the table's order (the whole catalog first, then
    the scopes as the file defines them): sorted alphabetically it put "oncall" above "support", the
    other way round from the table right above it."""
    import json

    at = _app()
    at.switch_page("toolsearch/ui/scopes.py").run()
    at.button(key="scopes_load_sample").click().run()
    assert not at.exception, at.exception
    table = literal_tables(at)["scopes_compare"]
    assert list(table["scope"]) == ["Whole catalog", "code-review", "support", "oncall"]
    charts = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", "") == "vega_lite_chart":
                charts.append(json.loads(child.proto.spec))
            walk(child)
    walk(at._tree)
    bars = [c for c in charts if c["encoding"]["y"].get("field") == "scope"]
    assert len(bars) == 1, charts
    y = bars[0]["encoding"]["y"]
    assert "sort" in y and y["sort"] is None, y  # data order: the table's


def test_a_link_value_that_cannot_be_read_is_quoted_with_its_invisible_characters():
    """The notice names the value as given, invisible characters shown, and what the key takes, as
    the other link notices do; it said only that the value was not valid."""
    at = _app(scope="sup\u200bport")
    (notice,) = [w.value for w in at.warning if "scope" in w.value]
    assert notice == ("The link's value for scope, “sup⟨U\\+200B⟩port”, is not valid here and was ignored; the whole "
                      "catalog is shown. scope\\: expected NAME\\=SERVER,SERVER \\(e\\.g\\. support\\=slack,linear\\)\\.")
    at = _app(scope="=slack")
    (notice,) = [w.value for w in at.warning if "scope" in w.value]
    assert notice.endswith("the whole catalog is shown. scope\\: expected a non\\-empty scope name\\."), notice


def test_a_link_scope_naming_servers_the_catalog_lacks_says_so_with_the_servers():
    """A scope whose servers are not in the catalog is defined (a link can be meant for another
    catalog) and said under the picker: each unknown server, a near name, and the catalog's servers."""
    at = _app(scope="support=slak,nosuch")
    assert at.sidebar.selectbox(key="scope_choice").value == "support"
    servers = "core, filesystem, github, grafana, linear, notion, playwright, sentry and slack"
    assert [w.value for w in at.sidebar.warning] == [
        "scope 'support'\\: server 'slak' is not in the catalog; did you mean 'slack'? scope 'support'\\: server "
        f"'nosuch' is not in the catalog\\. The catalog's servers\\: {servers}\\."]
    assert not [w.value for w in _app(scope="support=slack").sidebar.warning]


def test_a_scope_that_reaches_no_tool_says_the_scope_is_empty_not_the_file():
    """A scope of servers the catalog lacks leaves no tool: the page said "FILE: no tools … give the
    catalog the harness serves", blaming a file that has 183 tools; it names the scope instead."""
    at = _app(scope="support=nosuch")
    said = [w.value for w in at.warning if "no tool" in w.value]
    assert len(said) == 1 and said[0].startswith("scope 'support' reaches no tool of sample\\_catalogs"), said
    assert said[0].endswith("give the scope servers the catalog has\\."), said
    assert not [w.value for w in at.warning if "no tools, so" in w.value]

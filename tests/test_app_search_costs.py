"""AppTest tests for the Search and Costs pages.

Each test drives the page the way a user does and compares what it shows (the exact JSON in the
code blocks, the dataframes, the plotly figures) with the engine's own output for the same
catalog and settings.

The catalogs are served from a temporary samples folder (``pages.common.SAMPLES_DIR`` is
patched): a small hand-written catalog with hard cases (``<script>`` and markdown in a
description) and a core-only catalog for the empty state, plus the shipped samples (the detailed
tests also run on ``five-servers`` and ``issue-tracker``; every shipped sample gets a smoke test).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import literal_tables
from toolsearch.ui import common
from toolsearch.analysis.palette import COST_KIND_COLORS, STATE_COLORS
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import example_arguments, to_wire
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.tokens import get_tokenizer
from toolsearch.ui.search import score_text

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "sample_catalogs"
SHIPPED_UNDER_TEST = [name for name in ("five-servers", "issue-tracker") if (SHIPPED / f"{name}.yaml").exists()]
SHIPPED_ALL = sorted(p.stem for p in SHIPPED.glob("*.yaml"))

SCRIPT = "<script>alert('x')</script>"
HARD = {
    "name": "UI hard cases",
    "servers": [
        {"name": "github", "tools": [
            {"name": "create_issue", "description": "Open a new issue in a repository.",
             "inputSchema": {"type": "object", "properties": {
                 "owner": {"type": "string", "minLength": 1}, "repo": {"type": "string"},
                 "title": {"type": "string"}, "labels": {"type": "array", "items": {"type": "string"}},
                 "draft": {"type": "boolean"}},
                 "required": ["owner", "repo", "title", "draft"]}},
            {"name": "list_issues", "description": "List issues in a repository, filtered by state.",
             "inputSchema": {"type": "object", "properties": {
                 "repo": {"type": "string"}, "state": {"type": "string", "enum": ["open", "closed"]},
                 "per_page": {"type": "integer", "maximum": 100}}, "required": ["repo", "state"]}},
            {"name": "search_code", "description": "Search code across repositories.",
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
        ]},
        {"name": "slack", "tools": [
            {"name": "post_message", "description": "Post a message to a Slack channel.",
             "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}, "text": {"type": "string"}},
                             "required": ["channel", "text"]}},
            {"name": "list_channels", "description": "List the channels in the workspace.",
             "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer"}}}},
        ]},
        {"name": "webtools", "tools": [
            {"name": "render_html",
             "description": f"Render {SCRIPT} into a page; see [the docs](https://example.com/docs) and **bold** <b>now</b>.",
             "inputSchema": {"type": "object", "properties": {"html": {"type": "string"}}, "required": ["html"]}},
        ]},
        {"name": "core", "kind": "core", "tools": [
            {"name": "read_file", "description": "Read a file.",
             "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
        ]},
    ],
}
CORE_ONLY = {"name": "Core only", "servers": [{"name": "core", "kind": "core", "tools": [
    {"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object", "properties": {}}}]}]}

#: The sidebar's defaults, as pages/common.py seeds them.
DEFAULT_CONFIG = {
    "enabled": C.ENABLED_DEFAULT, "listing": C.LISTING_DEFAULT, "threshold_pct": C.THRESHOLD_PCT_DEFAULT,
    "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT, "search_default_limit": C.SEARCH_DEFAULT_LIMIT_DEFAULT,
    "max_search_limit": C.MAX_SEARCH_LIMIT_DEFAULT,
}
DEFAULT_CONTEXT = 200_000


@pytest.fixture(autouse=True)
def samples(tmp_path, monkeypatch) -> Path:
    """A samples folder with the test catalogs (and the shipped ones under test)."""
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "ui-hard-cases.yaml").write_text(yaml.safe_dump(HARD, sort_keys=False), encoding="utf-8")
    (folder / "core-only.yaml").write_text(yaml.safe_dump(CORE_ONLY, sort_keys=False), encoding="utf-8")
    for name in SHIPPED_ALL:
        (folder / f"{name}.yaml").symlink_to(SHIPPED / f"{name}.yaml")
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    return folder


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run every AppTest run through app.py's st.navigation router.

    AppTest resets ``PagesManager.uses_pages_directory`` before each run, and because a ``pages/``
    folder sits next to app.py, Streamlit's legacy multipage mode would then run a switched-to page
    file on its own, without app.py's sidebar. A served app leaves that mode for good the first
    time app.py calls st.navigation; this puts each test run in that state.
    """
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def open_page(catalog: str, page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = catalog
    at.run()
    assert not at.exception, at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert at.sidebar.selectbox(key="catalog").value == catalog
    return at


def engine(samples: Path, catalog: str) -> Inspector:
    return Inspector(load_source(samples / f"{catalog}.yaml"))


def bridge_for(samples: Path, catalog: str, **overrides):
    return engine(samples, catalog).bridge(parse_config({**DEFAULT_CONFIG, **overrides}))


def plan_for(samples: Path, catalog: str, context_length=DEFAULT_CONTEXT, **overrides):
    return engine(samples, catalog).plan(parse_config({**DEFAULT_CONFIG, **overrides}), context_length)


def rendered_text(at: AppTest) -> list[str]:
    """Everything shown through markdown-rendering elements (which must never carry catalog text)."""
    out = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title", "header", "subheader"):
        out.extend(str(e.value) for e in getattr(at, kind))
    out.extend(str(m.label) + str(m.value) for m in at.metric)
    return out


def tab(at: AppTest, label: str):
    """The Search page's tab with this label."""
    return next(t for t in at.tabs if t.label == label)


def open_search_tab(at: AppTest, label: str) -> None:
    """Open one of the Search page's tabs, as a click on it does (only the open tab is drawn)."""
    at.session_state["search_tab"] = label
    at.run()
    assert not at.exception, at.exception


def queries_for(bridge) -> list[str]:
    """A word query from the first deferred tool, an exact name, a query that matches nothing."""
    first, last = bridge.deferred[0], bridge.deferred[-1]
    return [first.raw_name.replace("_", " "), "", last.name, "xyzzy plugh"]


# --- Search ------------------------------------------------------------------------------

@pytest.mark.parametrize("catalog", ["ui-hard-cases", *SHIPPED_UNDER_TEST])
def test_tool_search_json_and_readable_view_match_the_engine(samples, catalog):
    at = open_page(catalog, "toolsearch/ui/search.py")
    bridge = bridge_for(samples, catalog)
    queries = queries_for(bridge)
    at.text_area(key="search_queries").set_value("\n".join(queries))
    at.number_input(key="search_limit").set_value(3).run()
    assert not at.exception, at.exception

    expected = bridge.tool_search({"queries": queries, "limit": 3})
    assert "error" not in expected
    readable, exact = tab(at, "Matches per query"), tab(at, "Response (exact JSON)")
    assert exact.code[0].value == to_wire(expected)
    assert exact.code[0].language == "json"
    assert "Effective limit: 3" in [c.value for c in at.caption]

    # The match and source tables of the cards (each card's explanation has its own tables).
    result_frames = [t for t in literal_tables(readable).values()
                     if {"description (clipped)", "available source"} & set(t.columns)]
    frames = iter(result_frames)
    texts = [t.value for t in readable.text]
    for number, group in enumerate(expected["results"], 1):
        assert f"Query {number}: {group['query']}" in texts
        if group["matches"]:
            table = next(frames)
            scores = dict(bridge.index.search(group["query"], 3))
            assert list(table["tool"]) == group["matches"]
            assert list(table["rank"]) == [str(r) for r in range(1, len(group["matches"]) + 1)]
            assert list(table["score (BM25)"]) == [score_text(scores[n]) for n in group["matches"]]
            assert list(table["description (clipped)"]) == [expected["tools"][n]["description"] for n in group["matches"]]
            assert list(table["required args"]) == [", ".join(expected["tools"][n]["required"]) for n in group["matches"]]
        else:
            table = next(frames)
            assert [{"name": n, "tool_count": c} for n, c in zip(table["available source"], table["deferred tools"])] \
                == [{"name": g["name"], "tool_count": f"{g['tool_count']:,}"} for g in group["available_sources"]]
            assert f"hint: {group['hint']}" in texts
    # The exact-name query ranks its tool first with an infinite score.
    exact_group = expected["results"][1]
    assert exact_group["matches"][0] == bridge.deferred[-1].name
    assert result_frames[1]["score (BM25)"][0] == "Infinity"
    # Every card says why, from the engine's explanation of its query.
    for group in expected["results"]:
        assert "Why: " + bridge.index.explain(group["query"], 3).summary() in texts


def test_limit_is_clamped_by_the_engine(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    bridge = bridge_for(samples, "ui-hard-cases")
    at.text_area(key="search_queries").set_value("issue").run()
    for value, effective in ((0, 1), (2, 2), (99, C.MAX_SEARCH_LIMIT_DEFAULT)):
        at.number_input(key="search_limit").set_value(value).run()
        assert f"Effective limit: {effective}" in [c.value for c in at.caption]
        assert tab(at, "Response (exact JSON)").code[0].value == to_wire(bridge.tool_search({"queries": ["issue"], "limit": value}))
    # Cleared: no limit is sent and the sidebar's search_default_limit applies.
    at.sidebar.number_input(key="search_default_limit").set_value(1)
    at.number_input(key="search_limit").set_value(None).run()
    assert "Effective limit: 1" in [c.value for c in at.caption]
    expected = bridge_for(samples, "ui-hard-cases", search_default_limit=1).tool_search({"queries": ["issue"]})
    assert tab(at, "Response (exact JSON)").code[0].value == to_wire(expected)
    assert len(expected["results"][0]["matches"]) == 1


def test_too_many_queries_shows_the_bridge_error(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    queries = [f"query {i}" for i in range(C.MAX_QUERIES_PER_CALL + 1)]
    at.text_area(key="search_queries").set_value("\n".join(queries)).run()
    assert not at.exception
    expected = bridge_for(samples, "ui-hard-cases").tool_search({"queries": queries})
    assert set(expected) == {"error"}
    assert at.code[0].value == to_wire(expected)
    assert any("tool_search returned an error" in w.value for w in at.warning)
    assert [t.label for t in at.tabs] == ["Results", "Describe", "Call validation"]  # no readable view for an error


def test_readable_json_views_wrap_long_values(samples):
    """The pretty-printed responses and the parameters schema wrap their lines: at 1024 px a bridge
    error ("queries must contain at least one non-empty string …") or a description was cut at the
    block's edge, behind a sideways scroll."""
    at = open_page("team-workspace", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("").run()
    assert not at.exception, at.exception
    error = at.code[-1]
    assert set(json.loads(error.value)) == {"error"} and len(error.value.splitlines()[1]) > 60
    assert error.proto.wrap_lines
    open_search_tab(at, "Describe")
    assert at.code[-1].value.startswith("{\n") and at.code[-1].proto.wrap_lines
    open_search_tab(at, "Call validation")
    assert all(c.proto.wrap_lines for c in at.code), [c.value[:40] for c in at.code if not c.proto.wrap_lines]


def test_explain_a_query(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("create issue\nlist issues in repository").run()
    assert not at.exception
    at.session_state["explain_2_open"] = True  # as a click on its expander does (drawn only when open)
    at.run()
    bridge = bridge_for(samples, "ui-hard-cases")
    ex = bridge.index.explain("list issues in repository", bridge.config.search_default_limit)
    # The second card's expander holds the full explanation of the second query.
    assert [e.label for e in at.expander][:2] == ["Full explanation of query 1", "Full explanation of query 2"]
    panel = at.expander[1]

    assert "Tokens → stems:  " + "   ".join(f"{r} → {s}" for r, s in ex.tokens) in [t.value for t in panel.text]
    metrics = {m.label: m.value for m in panel.metric}
    assert metrics["Gate term"] == ex.gate_text  # word → stem
    assert metrics["Answerable terms"] == f"{len(ex.answerable)} of {len(ex.terms)}"
    assert metrics["Required coverage"].startswith(f"{ex.required} term")

    terms = next(t for t in literal_tables(panel).values() if "term (word → stem)" in t.columns)
    words = dict(reversed([(s, r.lower()) for r, s in ex.tokens]))  # the first word of each stem
    assert list(terms["term (word → stem)"]) == [t.stem if words[t.stem] == t.stem else f"{words[t.stem]} → {t.stem}"
                                                for t in ex.terms]
    assert list(terms["df (tools)"]) == [f"{t.df:,}" for t in ex.terms]
    assert list(terms["IDF"]) == [f"{t.idf:.4f}" for t in ex.terms]
    assert list(terms["gate"]) == ["◆ gate term" if t.stem == ex.gate else "" for t in ex.terms]

    cands = next(t for t in literal_tables(panel).values() if "reason" in t.columns)
    assert list(cands["tool"]) == [c.name for c in ex.candidates]
    assert list(cands["score (BM25)"]) == [score_text(c.score) for c in ex.candidates]
    assert list(cands["admitted"]) == ["yes" if c.admitted else (f"no: {c.rule}" if c.rule else "no")
                                       for c in ex.candidates]
    assert list(cands["reason"]) == [c.reason for c in ex.candidates]
    assert list(cands["matched terms"]) == [", ".join(f"{t} ◆" if t == ex.gate else t for t in c.matched_terms)
                                            for c in ex.candidates]
    assert [ex.gate in c.matched_terms for c in ex.candidates] == [c.has_gate for c in ex.candidates]
    assert list(cands["rank"]) == ["—" if c.rank is None else f"{c.rank:,}" for c in ex.candidates]
    assert any(not c.admitted for c in ex.candidates)  # the table shows rejections, too


def test_explain_warns_when_the_gate_term_is_nowhere(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("create issue zebra").run()
    at.session_state["explain_1_open"] = True  # the explanation is drawn when its expander is open
    at.run()
    bridge = bridge_for(samples, "ui-hard-cases")
    ex = bridge.index.explain("create issue zebra", 5)
    assert ex.gate == "zebra" and not ex.matches
    assert any("`zebra` occurs in no deferred tool" in w.value for w in at.warning)


def test_tool_describe_with_not_found(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    bridge = bridge_for(samples, "ui-hard-cases")
    names = [bridge.deferred[0].name, bridge.deferred[2].name]
    open_search_tab(at, "Describe")
    at.multiselect(key="describe_names").set_value(names)
    at.text_input(key="describe_extra").set_value("nope, read_file, ").run()
    assert not at.exception
    sent = [*names, "nope", " read_file", " "]
    expected = bridge.tool_describe({"names": sent})
    assert list(expected["tools"]) == names
    assert expected["not_found"] == ["nope"]  # not a tool at all
    assert list(expected["errors"]) == ["read_file"]  # a core tool: registered, but not deferrable
    codes = [c.value for c in at.code]
    assert json.dumps({"names": sent}, ensure_ascii=False) in codes
    assert to_wire(expected) in codes


def test_tool_call_validation_dispatch_and_bad_json(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    bridge = bridge_for(samples, "ui-hard-cases")
    name = "mcp__github__create_issue"
    open_search_tab(at, "Call validation")
    at.selectbox(key="call_tool").set_value(name).run()
    tool = bridge.deferred_by_name[name]
    area = at.text_area(key=f"call_args:{name}")
    prefilled = json.loads(area.value)
    assert prefilled == example_arguments(tool.parameters) == {"owner": "", "repo": "", "title": "", "draft": False}

    # The prefilled template fails minLength on owner: the bridge's validation error, verbatim.
    expected = bridge.tool_call({"calls": [{"name": name, "arguments": prefilled}]})
    assert expected["path"] == "arguments.owner" and expected["constraint"] == "minLength"
    assert to_wire(expected) in [c.value for c in at.code]
    path_table = literal_tables(at)["call_path"]
    assert path_table.to_dict("records") == [{"path": "arguments.owner", "constraint": "minLength"}]
    assert any("Validation failed" in w.value for w in at.warning)

    # Valid arguments (a string "true" is coerced for the boolean): the dispatch preview.
    args = {"owner": "octo", "repo": "r", "title": "Bug", "draft": "true"}
    at.text_area(key=f"call_args:{name}").set_value(json.dumps(args)).run()
    expected = bridge.tool_call({"calls": [{"name": name, "arguments": args}]})
    assert expected["dispatch"]["arguments"]["draft"] is True
    assert to_wire(expected) in [c.value for c in at.code]
    assert any("Valid" in s.value for s in at.success)

    # Bad JSON: a message in the page, no traceback, nothing sent.
    at.text_area(key=f"call_args:{name}").set_value('{"owner": ').run()
    assert not at.exception
    assert len(at.error) == 1 and "not valid JSON" in at.error[0].value
    assert not any('"dispatch"' in c.value or '"error"' in c.value for c in at.code)


def test_untrusted_description_is_shown_literally_on_search(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("render html page").run()
    assert not at.exception
    table = literal_tables(tab(at, "Matches per query"))["search_results_1"]
    assert SCRIPT in table["description (clipped)"][0]
    tables_html = " ".join(h.value for h in tab(at, "Matches per query").html)
    assert "<script>" not in tables_html and html.escape(SCRIPT, quote=False) in tables_html  # escaped: literal text
    assert "[the docs](https://example.com/docs)" in table["description (clipped)"][0]
    assert SCRIPT in tab(at, "Response (exact JSON)").code[0].value  # tool_search JSON
    for text in rendered_text(at):
        assert "<script>" not in text and "[the docs]" not in text and "**bold**" not in text
    open_search_tab(at, "Describe")
    at.multiselect(key="describe_names").set_value(["mcp__webtools__render_html"]).run()
    assert not at.exception
    assert any(SCRIPT in c.value for c in at.code[1:])  # tool_describe JSON
    for text in rendered_text(at):
        assert "<script>" not in text and "[the docs]" not in text and "**bold**" not in text


def test_search_page_tabs_why_line_and_json_views(samples):
    """Results / Describe / Call validation tabs, only the open one drawn; per query the Why line and
    the folded full explanation; each response as exact bytes, pretty-printed JSON and a tree."""
    at = open_page("team-workspace", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("send a slack message").run()
    assert not at.exception, at.exception
    assert [t.label for t in at.tabs] == ["Results", "Matches per query", "Response (exact JSON)", "Side by side",
                                          "Describe", "Call validation"]
    texts = [t.value for t in at.text]
    assert "Query 1: send a slack message" in texts
    assert "Why: Gate term 'send' in 2 tools; excluded: 125 by the gate, 0 by the coverage floor; best excluded: " \
           "mcp__slack__slack_schedule_message (score 7.607): lacks the gate term 'send'." in texts
    assert [e.label for e in at.main.expander] == ["Full explanation of query 1",
                                                   "Exact bytes (one line, as the model reads them)",
                                                   "What each column's search does"]
    assert not at.main.multiselect and not [s for s in at.main.selectbox if s.key == "call_tool"]  # closed tabs
    expected = bridge_for(samples, "team-workspace").tool_search({"queries": ["send a slack message"]})
    exact = tab(at, "Response (exact JSON)")
    assert [c.value for c in exact.code] == [to_wire(expected), json.dumps(expected, ensure_ascii=False, indent=2)]
    assert exact.code[1].value.count("\n") > 10 and "\n" not in exact.code[0].value
    at.session_state["search_response_view"] = "Tree"
    at.run()
    assert json.loads(tab(at, "Response (exact JSON)").json[0].value) == expected
    assert len(tab(at, "Response (exact JSON)").code) == 1  # the exact bytes stay one click away

    open_search_tab(at, "Describe")
    assert "Query 1: send a slack message" not in [t.value for t in at.text]  # Results no longer drawn
    first = bridge_for(samples, "team-workspace").deferred[0].name
    assert at.multiselect(key="describe_names").value == [first]
    described = bridge_for(samples, "team-workspace").tool_describe({"names": [first, "no_such_tool"]})
    assert [c.value for c in at.code][1:] == [to_wire(described), json.dumps(described, ensure_ascii=False, indent=2)]
    assert "1 described · 1 in not_found · 0 in errors" in [c.value for c in at.caption]


def test_search_json_shows_invisible_characters(samples):
    hidden = {"name": "Hidden", "servers": [{"name": "notes", "tools": [
        {"name": "read_note", "description": "Read a note.\u200b Ignore\u202e previous",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]}]}
    (samples / "zero-width.yaml").write_text(yaml.safe_dump(hidden, sort_keys=False, allow_unicode=True),
                                             encoding="utf-8")
    at = open_page("zero-width", "toolsearch/ui/search.py")
    open_search_tab(at, "Describe")
    assert at.multiselect(key="describe_names").value == ["mcp__notes__read_note"]
    pretty = at.code[-1].value
    shown = json.loads(pretty)["tools"]["mcp__notes__read_note"]["description"]
    assert shown == common.visible("Read a note.\u200b Ignore\u202e previous") == \
        "Read a note.⟨U+200B⟩ Ignore⟨U+202E⟩ previous"
    assert "\u200b" not in pretty and "\u202e" not in pretty
    at.session_state["describe_response_view"] = "Tree"
    at.run()
    tree = json.loads(at.json[0].value)
    assert tree["tools"]["mcp__notes__read_note"]["description"] == "Read a note.⟨U+200B⟩ Ignore⟨U+202E⟩ previous"


def test_search_empty_state_without_deferred_tools():
    at = open_page("core-only", "toolsearch/ui/search.py")
    assert any("No deferred tools" in i.value for i in at.info)
    assert not at.text_area and not at.code


# --- Costs -------------------------------------------------------------------------------

def charts(at: AppTest) -> list[dict]:
    """The page's plotly figures (AppTest exposes st.plotly_chart as an element whose proto holds
    the figure JSON in ``spec``), in page order."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def open_tools_tab(at: AppTest, label: str) -> None:
    """Open one of the Costs page's costliest-tools tabs, as a click on it does (only the open tab
    is drawn)."""
    at.session_state["costs_tools_tab"] = label
    at.run()
    assert not at.exception, at.exception


def costs_charts(at: AppTest) -> list[dict]:
    """Every Costs chart in page order: those drawn with the first tools tab (the treemap) open,
    then the bar chart (its tab opened); the treemap's tab is open again afterwards."""
    figures = charts(at)
    open_tools_tab(at, "Bar chart")
    figures.append(charts(at)[-1])
    open_tools_tab(at, "Treemap (server → tool)")
    return figures


def budget_lines(figure: dict, axis: str) -> list[float]:
    """Positions of the dashed budget lines (layout shapes) across ``axis`` ("x" or "y")."""
    other = "y" if axis == "x" else "x"
    return [shape[f"{axis}0"] for shape in figure["layout"].get("shapes", [])
            if shape["line"].get("dash") == "dash" and shape[f"{axis}0"] == shape[f"{axis}1"]
            and shape[f"{other}ref"].endswith("domain")]


def check_listing_budget_bar(figure: dict, plan) -> None:
    """The stacked bar of the listing against the budget (planning tokenizer = display here)."""
    bars = [t for t in figure["data"] if t["type"] == "bar"]
    listed = sorted((s for s in plan.servers if s.collapse_rank is not None), key=lambda s: s.collapse_rank)
    kind = {"full": "full_tokens", "names": "names_tokens", "summary": "summary_tokens"}
    servers = bars[:len(listed)]
    assert [t["name"] for t in servers] == [f"#{s.collapse_rank} {s.name}" for s in listed]  # collapse order
    if plan.listing_form == "none":  # nothing fits: the summary lines of the last step tried
        assert [t["x"][0] for t in servers] == [s.summary_tokens for s in listed]
    else:
        assert [t["x"][0] for t in servers] == [getattr(s, kind[s.state]) if s.state in kind else 0 for s in listed]
    assert [t["marker"]["color"] for t in servers] == [STATE_COLORS[s.state] for s in listed]
    assert budget_lines(figure, "x") == [plan.budget]
    cuts = [shape["x0"] for shape in figure["layout"]["shapes"] if shape["line"].get("width") == 3]
    note = figure["layout"]["annotations"][0]["text"]
    collapsed = [s for s in listed if s.state == "summary"]
    if plan.listing_form == "none":
        # The bar draws every server as its summary line: the steps table's last row (Overview, report),
        # not a smaller mixed step whose makeup the bar does not show.
        last = plan.steps[-1]
        assert len(last.collapsed) == len(listed)
        assert cuts == [last.tokens] and note == (f"nothing fits: the last step tried (every server as its summary "
                                                  f"line, hatched) needs {last.tokens:,} tokens")
        framing = [t["x"][0] for t in bars[len(listed):]]
        assert sum(s.summary_tokens for s in listed) + sum(framing) == last.tokens
    elif collapsed:
        assert cuts == [sum(s.summary_tokens for s in collapsed)]
        assert note.startswith(f"cut after #{max(s.collapse_rank for s in collapsed)}")
    else:
        assert cuts == [] and note == f"fits: {plan.listing_tokens:,} of {plan.budget:,} tokens, nothing collapsed"


def set_budget(at: AppTest, ctx_choice: str, custom: int | None, threshold_pct: float) -> None:
    at.sidebar.selectbox(key="ctx_choice").set_value(ctx_choice).run()
    if custom is not None:
        at.sidebar.number_input(key="ctx_custom").set_value(custom)
    at.sidebar.slider(key="threshold_pct").set_value(threshold_pct).run()
    assert not at.exception, at.exception


#: (context choice, custom context length, threshold_pct) → the form the hard-case catalog gets.
BUDGETS = [
    ("200K", None, 5.0, "full"),
    ("8K", None, 1.0, "names"),     # budget 80 tokens
    ("custom", 6_900, 1.0, "mixed"),  # budget 69: the largest server collapses to its summary line
    ("8K", None, 0.5, "none"),      # budget 40: even the summary lines do not fit
]


@pytest.mark.parametrize("catalog", ["ui-hard-cases", *SHIPPED_UNDER_TEST])
@pytest.mark.parametrize("ctx_choice,custom,pct,form", BUDGETS)
def test_costs_charts_and_collapse_order_match_the_plan(samples, catalog, ctx_choice, custom, pct, form):
    at = open_page(catalog, "toolsearch/ui/costs.py")
    set_budget(at, ctx_choice, custom, pct)
    context_length = custom or common.PRESET_LABELS[ctx_choice]
    plan = plan_for(samples, catalog, context_length, threshold_pct=pct)
    if catalog == "ui-hard-cases":
        assert plan.listing_form == form
        assert {"full": {"full"}, "names": {"names"}, "mixed": {"names", "summary"}, "none": {"hidden"}}[form] \
            == {s.state for s in plan.servers if s.kind == "mcp"}
    figures = costs_charts(at)
    assert len(figures) == 5  # listing vs budget, per-server costs, collapse order, treemap, bar chart
    check_listing_budget_bar(figures[0], plan)
    figures = figures[1:]

    # Every Costs chart orders servers the same way: collapse order, then the unlisted by schema size.
    servers = sorted(plan.servers, key=lambda s: (s.collapse_rank is None, s.collapse_rank or 0, -s.schema_tokens, s.name))
    used = {"visible": "schema_tokens", "full": "full_tokens", "names": "names_tokens", "summary": "summary_tokens"}
    bars = [t for t in figures[0]["data"] if t["type"] == "bar"]
    assert [t["offsetgroup"] for t in bars] == ["full schemas", "full block", "names block", "summary line"]
    for trace, field in zip(bars, ("schema_tokens", "full_tokens", "names_tokens", "summary_tokens")):
        assert trace["y"] == [getattr(s, field) for s in servers]
        # The bar the server's state uses is outlined; the state is in the tick label and hover.
        assert trace["marker"]["line"]["width"] == [2 if used.get(s.state) == field else 0 for s in servers]
        assert [x.split("</span> ")[-1] for x in trace["x"]] == [s.state for s in servers]
        assert [c[2] for c in trace["customdata"]] == [s.state for s in servers]
        assert trace["marker"]["color"] == COST_KIND_COLORS[trace["name"]]  # the legend swatch is the bar color
    assert figures[0]["layout"]["yaxis"]["title"]["text"] == f"tokens ({plan.display_tokenizer})"
    # The budget is drawn on every cost chart: a dashed line at the budget.
    assert budget_lines(figures[0], "y") == [plan.budget]
    assert budget_lines(figures[1], "x") == [plan.budget]
    assert budget_lines(figures[3], "x") == [plan.budget]
    assert f"Listing budget {plan.budget:,} tokens" in figures[2]["layout"]["title"]["text"]

    ranked = sorted((s for s in plan.servers if s.collapse_rank is not None), key=lambda s: s.collapse_rank)
    assert [s.label for s in ranked] == list(plan.collapse_order)
    table = literal_tables(at)["costs_collapse_order"]
    assert list(table["collapse #"]) == [f"{s.collapse_rank:,}" for s in ranked]
    assert list(table["server"]) == [s.name for s in ranked]
    assert list(table["names block (tokens)"]) == [f"{s.names_tokens:,}" for s in ranked]
    assert list(table["summary line (tokens)"]) == [f"{s.summary_tokens:,}" for s in ranked]
    assert list(table["state"]) == [s.state for s in ranked]
    collapse_bars = [t for t in figures[1]["data"] if t["type"] == "bar"]
    shown = {y: x for t in collapse_bars for y, x in zip(t["y"], t["x"])}
    assert shown == {f"#{s.collapse_rank} {s.name}": s.names_tokens for s in ranked}


def test_costs_tier_0_marks_the_schemas(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/costs.py")
    at.sidebar.selectbox(key="enabled").set_value("off").run()
    plan = plan_for(samples, "ui-hard-cases", enabled="off")
    assert plan.tier == 0 and {s.state for s in plan.servers} == {"visible"}
    figures = costs_charts(at)
    assert len(figures) == 3 and any("Tier 0" in i.value for i in at.info)  # no listing, so no listing bar
    schemas = figures[0]["data"][0]
    assert schemas["marker"]["line"]["width"] == [2] * len(plan.servers)
    assert any("No collapse order" in i.value for i in at.info)


def test_costs_log_scale_and_costliest_tools(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/costs.py")
    yaxis = charts(at)[1]["layout"]["yaxis"]
    assert yaxis["type"] == "log"  # the default
    assert yaxis["range"][0] == 0  # bars start at 1 token: a 16-token summary line is no sliver
    at.toggle(key="costs_log_y").set_value(False).run()
    assert charts(at)[1]["layout"]["yaxis"].get("type") != "log"

    ins = engine(samples, "ui-hard-cases")
    tokens = ins.planner.tool_tokens("chars4")
    assert tokens == {t.name: get_tokenizer("chars4").count_json(t.definition) for t in ins.registration.tools}
    ranked = sorted(ins.registration.tools, key=lambda t: (-tokens[t.name], t.name))[:50]
    open_tools_tab(at, "Table")
    table = literal_tables(at)["costs_tools_table"]
    assert list(table["tool"]) == [common.visible(t.name) for t in ranked]
    # one quantity, one name: the costs command heads the same figure "tool schema" (a server's
    # "schemas (tokens)" is another figure, rounded once per server)
    assert list(table["tool schema (tokens, chars4)"]) == [f"{tokens[t.name]:,}" for t in ranked]
    open_tools_tab(at, "Treemap (server → tool)")
    tree = charts(at)[3]["data"][0]
    assert tree["type"] == "treemap"
    leaves = {int(i[2:]): v for i, v in zip(tree["ids"], tree["values"]) if i.startswith("t:")}
    assert [leaves[i] for i in range(len(ranked))] == [tokens[t.name] for t in ranked]
    # Tiles are colored by their size, not by one state color (in tier 1 'full' every server shares it).
    colors = {int(i[2:]): c for i, c in zip(tree["ids"], tree["marker"]["colors"]) if i.startswith("t:")}
    assert colors == leaves and len(set(colors.values())) > 1


def test_costs_escape_untrusted_text_in_plotly(samples):
    at = open_page("ui-hard-cases", "toolsearch/ui/costs.py")
    specs = json.dumps(costs_charts(at))  # every chart, the one in the closed tab too
    assert "<script>" not in specs and "<b>now" not in specs
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in specs
    open_tools_tab(at, "Table")
    table = literal_tables(at)["costs_tools_table"]
    assert any(SCRIPT in d for d in table["description (first 80 characters)"])
    for text in rendered_text(at):
        assert "<script>" not in text and "[the docs]" not in text


def test_costs_empty_state_without_deferred_tools():
    at = open_page("core-only", "toolsearch/ui/costs.py")
    assert not at.exception
    assert any("No deferred tools" in i.value for i in at.info)
    assert len(costs_charts(at)) == 2  # only the costliest-tools charts (treemap and bar chart, one tab each)


# --- Every shipped sample ------------------------------------------------------------------

@pytest.mark.parametrize("catalog", SHIPPED_ALL)
def test_both_pages_render_every_shipped_sample(samples, catalog):
    at = open_page(catalog, "toolsearch/ui/search.py")
    bridge = bridge_for(samples, catalog)
    if bridge.deferred:
        expected = bridge.tool_search({"queries": at.text_area(key="search_queries").value.splitlines()})
        assert tab(at, "Response (exact JSON)").code[0].value == to_wire(expected)
    at.switch_page("toolsearch/ui/costs.py").run()
    assert not at.exception, at.exception
    plan = plan_for(samples, catalog)
    assert len(costs_charts(at)) == (5 if plan.deferred_count and plan.activated else 2)


@pytest.mark.skipif("hard-cases" not in SHIPPED_ALL, reason="sample_catalogs/hard-cases.yaml not generated yet")
def test_shipped_hard_cases_markup_is_literal(samples):
    name = "mcp__web_clipper__clip_page"
    at = open_page("hard-cases", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value(name).run()
    description = bridge_for(samples, "hard-cases").deferred_by_name[name].description
    assert "<script>alert(1)</script>" in description and "[click](http://example.com)" in description
    assert literal_tables(tab(at, "Matches per query"))["search_results_1"]["description (clipped)"][0] == \
        description[:500] + ("…" if len(description) > 500 else "")
    for text in rendered_text(at):
        assert "<script>" not in text and "[click](" not in text
    open_search_tab(at, "Describe")
    at.multiselect(key="describe_names").set_value([name]).run()
    assert any(description in json.loads(c.value).get("tools", {}).get(name, {}).get("description", "")
               for c in at.code if c.value.startswith('{"tools"'))
    for text in rendered_text(at):
        assert "<script>" not in text and "[click](" not in text
    at.switch_page("toolsearch/ui/costs.py").run()
    specs = json.dumps([json.loads(c.proto.spec) for c in at.get("plotly_chart")])
    assert "<script>" not in specs and "&lt;script&gt;alert(1)&lt;/script&gt;" in specs
    for text in rendered_text(at):
        assert "<script>" not in text


# --- Engine helpers the pages use ----------------------------------------------------------

def test_example_arguments_fills_required_properties_only():
    schema = {"type": "object", "properties": {
        "s": {"type": "string"}, "n": {"type": ["integer", "null"]}, "e": {"enum": ["b", "a"]},
        "c": {"const": 3}, "o": {"anyOf": [{"type": "null"}, {"type": "boolean"}]}, "x": {},
        "opt": {"type": "string"}}, "required": ["s", "n", "e", "c", "o", "x", "undeclared"]}
    assert example_arguments(schema) == {"s": "", "n": 0, "e": "b", "c": 3, "o": False, "x": "", "undeclared": ""}
    assert example_arguments({"type": "object"}) == {}
    assert example_arguments(None) == {}


def test_costs_figures_follow_a_slider_moved_back_and_forth(samples):
    """The Costs figures are kept per catalog and settings: moving the slider away and back shows
    the figures of the value it is at, each time."""
    at = open_page("ui-hard-cases", "toolsearch/ui/costs.py")
    seen = {}
    for pct in (5.0, 0.5, 5.0, 0.5):
        set_budget(at, "200K", None, pct)
        plan = plan_for(samples, "ui-hard-cases", 200_000, threshold_pct=pct)
        figures = charts(at)
        check_listing_budget_bar(figures[0], plan)
        assert budget_lines(figures[1], "y") == [plan.budget]
        seen.setdefault(pct, figures)
        assert figures == seen[pct]  # the same figures as the first time at this value
    assert seen[5.0] != seen[0.5]


def test_a_tab_or_an_invisible_character_in_a_query_is_shown_as_a_marker():
    """A query is one line: its heading shows a tab as ⟨U+0009⟩ (it read as blank space) and a
    zero-width space as ⟨U+200B⟩."""
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    at.text_area(key="search_queries").set_value("create\tissue\nlist\u200bissues").run()
    assert not at.exception
    headings = [t.value for t in at.text if t.value.startswith("Query ")]
    # the Results tab and the Side by side tab head each query the same way
    assert headings == ["Query 1: create⟨U+0009⟩issue", "Query 2: list⟨U+200B⟩issues"] * 2, headings


def test_a_long_query_heading_is_cut_with_its_length():
    """A 10,000-character query is headed by its first 200 characters and its length (it filled the
    page above its results); the response's JSON still holds it whole."""
    at = open_page("ui-hard-cases", "toolsearch/ui/search.py")
    query = "create issue " + "x" * 9_987
    at.text_area(key="search_queries").set_value(query).run()
    assert not at.exception
    headings = [t.value for t in at.text if t.value.startswith("Query ")]
    cut = f"Query 1: {query[:200]}… (10,000 characters; the response's JSON tab holds the whole query)"
    assert headings == [cut] * 2, [h[:80] for h in headings]
    assert any(query in block.value for block in at.code), "the exact JSON lost the query"


def test_side_by_side_names_where_each_column_comes_from():
    """The Side by side tab's columns are bare variant names; a caption line above them (not the
    collapsed help) says where the other harnesses' rankers come from, in the words search
    --side-by-side prints."""
    from toolsearch.analysis.variants import VARIANT_SOURCE, side_by_side_names
    at = open_page("team-workspace", "toolsearch/ui/search.py")
    caption = next(c.value for c in at.caption if c.value.startswith("Where they come from: "))
    named = [n for n in side_by_side_names() if n in VARIANT_SOURCE]
    assert named, "no column with a source"
    for name in named:
        assert f"{name}: {VARIANT_SOURCE[name]}" in caption, caption


def _in_order(node, folded: bool = False):
    """Every element under ``node`` in page order, as ``(element, inside an expander)``."""
    for child in getattr(node, "children", {}).values():
        inside = folded or getattr(child, "type", "") == "expandable"
        yield child, inside
        yield from _in_order(child, inside)


def test_gate_term_and_coverage_floor_are_explained_before_the_first_why_line():
    """The Why line under each query names the gate term and the coverage floor; the words that say
    what they are stood only in the folded full explanation. They now stand, unfolded, above the first
    query, and in the Sessions page's failed searches next to its "gate term" column."""
    from toolsearch.analysis.wording import COVERAGE_FLOOR_WORDS, GATE_TERM_WORDS

    at = open_page("team-workspace", "toolsearch/ui/search.py")
    shown = [(getattr(e, "type", ""), getattr(e, "value", None), folded) for e, folded in _in_order(at.main)]
    first_why = next(i for i, (kind, value, _) in enumerate(shown)
                     if kind == "text" and str(value).startswith("Why: Gate term"))
    explained = [i for i, (kind, value, folded) in enumerate(shown) if kind in ("markdown", "caption") and not folded
                 and GATE_TERM_WORDS in str(value) and COVERAGE_FLOOR_WORDS in str(value)]
    assert explained and explained[0] < first_why, shown[:first_why + 1]
    assert "rarest word" in GATE_TERM_WORDS and "gate" not in GATE_TERM_WORDS.split(":", 1)[1].lower()

    from tests.test_app_sessions import open_page as open_sessions

    sessions = open_sessions()
    captions = [c.value for c in sessions.caption if "gate term that stopped them" in c.value]
    assert captions and all(GATE_TERM_WORDS in c for c in captions), captions

"""One quantity, one number: each named quantity computed through every surface that shows it.

For each sample catalog below, every named quantity of :mod:`toolsearch.analysis.quantities` is
read from the library, from the CLI (``plan``, ``strategies``, ``diff``, ``collapse``, ``--json``
and text, run as a user runs them), from the app's pages (Streamlit AppTest, the sidebar at its
defaults with the catalog chosen) and from the HTML report the Report page builds, and the test
asserts that every surface shows the same number under the same name.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli
from toolsearch.analysis import quantities as Q
from toolsearch.ui.sources import UPLOAD
from toolsearch.analysis.strategies import StrategyModel, StrategySettings
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.search import gate_term_text, stem

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"
#: Two catalogs of different shape: nine servers with a core toolset, and five MCP servers.
CATALOGS = ("team-workspace", "five-servers")
CONTEXT = 200_000  # the app's default context length (200K)
PAGES = ("overview", "model_view", "costs", "cache_diff", "strategies", "report")


def _path(catalog: str) -> Path:
    return SAMPLES / f"{catalog}.yaml"


@lru_cache(maxsize=None)
def _inspector(catalog: str) -> Inspector:
    return Inspector.from_files([_path(catalog)])


def _plan(catalog: str, tokenizer: str = "chars4", **config: Any):
    return _inspector(catalog).plan(parse_config(config), CONTEXT, tokenizer)


@lru_cache(maxsize=None)
def _stdout(*args: str) -> str:
    """What ``toolsearch ARGS`` prints (exit 0), run once per distinct command line in this file:
    the commands here only read the shipped samples and write nothing, so a second run of the same
    line prints the same text (the tests asked for 27 command lines 73 times)."""
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _json(*args: Any) -> Any:
    return json.loads(_stdout(*map(str, args)))  # parsed anew for each caller


def _text(*args: Any) -> str:
    return _stdout(*map(str, args))


def _number(text: str) -> int:
    return int(text.replace(",", ""))


# --- the app: every page once per catalog ---------------------------------------------------------------

class PageText:
    """What one page shows: metrics by label, every caption/markdown/text, literal tables."""

    def __init__(self, at: AppTest) -> None:
        self.metrics = {m.label: (m.value, m.delta) for m in at.metric}
        self.texts = [e.value for kind in ("caption", "markdown", "text") for e in getattr(at, kind)]
        self.tables = literal_tables(at)

    def metric(self, label: str) -> str:
        assert label in self.metrics, f"no metric {label!r}: {list(self.metrics)}"
        return self.metrics[label][0]

    def joined(self) -> str:
        return "\n".join(str(t) for t in self.texts)


@lru_cache(maxsize=None)
def _app(catalog: str) -> tuple[dict[str, PageText], str]:
    """Each page of :data:`PAGES` as the sidebar shows ``catalog`` at its defaults, and the report HTML."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    assert not at.exception, at.exception
    at.sidebar.selectbox(key="catalog").set_value(catalog).run()
    assert not at.exception, at.exception
    pages = {}
    for page in PAGES:
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, (page, at.exception)
        if page == "costs":  # the collapse-order table is drawn only when its expander is open
            at.session_state["costs_collapse_table"] = True
            at.run()
        pages[page] = PageText(at)
    # The report is planned at the shortest of the Tuning page's lengths unless the sidebar's is
    # picked; the other pages show the sidebar's, so the report is built at it here.
    at.selectbox(key="report_length").set_value("sidebar").run()
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    return pages, at.session_state["report_html"]


def _report_row(report: str, label: str) -> int:
    """The first number of the report's summary row named ``label`` (``<td>label</td><td>N tokens…``)."""
    match = re.search(r"<td[^>]*>" + re.escape(html.escape(label)) + r"</td>\s*<td[^>]*>([\d,]+) tokens", report)
    assert match, f"no report row {label!r}"
    return _number(match.group(1))


# --- the quantities --------------------------------------------------------------------------------------

@pytest.mark.parametrize("catalog", CATALOGS)
def test_all_schemas_up_front_is_one_number_on_every_surface(catalog):
    plan = _plan(catalog)
    expected = Q.all_schemas_up_front(plan)
    # Library: the tools array with nothing deferred, measured once over the whole array.
    assert expected == _plan(catalog, enabled="off").tools_tokens
    assert expected < Q.tool_schemas_sum(_inspector(catalog).planner, "chars4")  # chars4 rounds per tool there
    assert StrategyModel(_inspector(catalog)).result("all_upfront").upfront_tokens == expected
    # CLI: plan --json, plan text, strategies --json (no skills): the same number.
    path = _path(catalog)
    assert _json("plan", path, "--context-length", CONTEXT, "--json")["eager_tokens"] == expected
    assert f"all schemas up front: {expected:,} tokens" in _text("plan", path, "--context-length", CONTEXT)
    by_strategy = {r["strategy"]: r for r in _json("strategies", path, "--context-length", CONTEXT, "--json")}
    assert by_strategy["all_upfront"]["upfront_tokens"] == expected
    assert by_strategy["all_upfront"]["upfront_breakdown"] == {"schema": expected}
    costs = _json("costs", path, "--context-length", CONTEXT, "--json")
    assert costs["eager_tokens"] == expected
    per_tool = sum(t["total_tokens"] for t in costs["tools"])
    assert (f"all schemas up front (every tool's schema sent in full, measured as one array): {expected:,} tokens; "
            f"each tool below is counted alone (they add up to {per_tool:,})"
            in _text("costs", path, "--context-length", CONTEXT))
    assert (f"note: all_upfront: the tool definitions are one tools array of {expected:,} tokens"
            in _text("strategies", path, "--context-length", CONTEXT))
    # App: the Overview's metric, the Costs caption, the Strategies note, the report.
    pages, report = _app(catalog)
    assert pages["overview"].metric(Q.ALL_SCHEMAS.name) == f"{expected:,}"
    assert f"“{Q.ALL_SCHEMAS.name}” ({expected:,})" in pages["costs"].joined()
    assert f"{expected:,} ({Q.ALL_SCHEMAS.name})" in pages["strategies"].joined()
    assert _report_row(report, f"{Q.ALL_SCHEMAS.name.lower()} (chars4)") == expected
    assert f"All up front: {expected:,} tokens of tool definitions before the first turn (the all schemas up front figure" in report


@pytest.mark.parametrize("catalog", CATALOGS)
def test_the_report_command_shows_the_same_figures(catalog, tmp_path):
    """``toolsearch report`` writes the same summary figures, under the same names, as the library."""
    plan = _plan(catalog)
    out = tmp_path / "report.html"
    result = run_cli("report", _path(catalog), "--context-length", CONTEXT, "-o", out)
    assert result.returncode == 0, result.stderr
    report = out.read_text(encoding="utf-8")
    assert _report_row(report, f"{Q.ALL_SCHEMAS.name.lower()} (chars4)") == Q.all_schemas_up_front(plan)
    assert _report_row(report, f"{Q.TOOLS_ARRAY.name.lower()} (chars4)") == Q.tools_array(plan)
    assert _report_row(report, f"{Q.DEFERRED_SCHEMAS.name.lower()} (chars4)") == Q.deferred_schemas(plan)
    assert _report_row(report, Q.SAVED.name.lower()) == Q.saved_per_request(plan)
    assert f"Listing: {Q.listing(plan):,} tokens (chars4)" in report


@pytest.mark.parametrize("catalog", CATALOGS)
def test_tools_array_is_one_number_on_every_surface(catalog):
    plan = _plan(catalog)
    expected = Q.tools_array(plan)
    path = _path(catalog)
    assert _json("plan", path, "--context-length", CONTEXT, "--json")["tools_tokens"] == expected
    assert f"tools array with tool search: {expected:,} tokens" in _text("plan", path, "--context-length", CONTEXT)
    # The prompt-cache diff counts the same array: its totals are this figure, not ceil(serialized / 4).
    diff = _json("diff", path, path, "--context-length", CONTEXT, "--json")
    assert (diff["a"]["tools_tokens"], diff["reusable_prefix"]["total_tokens_b"]) == (expected, expected)
    assert diff["a"]["tools_characters"] > 4 * (expected - 1)  # brackets and commas are in the characters only
    tiered = {r["strategy"]: r for r in _json("strategies", path, "--context-length", CONTEXT, "--json")}["tiered"]
    assert tiered["upfront_tokens"] == expected
    pages, report = _app(catalog)
    assert pages["overview"].metric(Q.TOOLS_ARRAY.name) == f"{expected:,}"
    assert pages["model_view"].metric(f"{Q.TOOLS_ARRAY.name} (tokens, chars4)") == f"{expected:,}"
    cache = pages["cache_diff"]
    assert cache.metric("Reusable prefix (tokens, chars4)") == f"{expected:,}"
    assert cache.metrics["Reusable prefix (tokens, chars4)"][1] == f"of {expected:,} in B"
    settings = cache.tables["cmp_outcome"]
    row = settings[settings[""] == f"{Q.TOOLS_ARRAY.name.lower()} (tokens, chars4)"]
    assert list(row["A (sidebar)"]) == [f"{expected:,}"] and list(row["B"]) == [f"{expected:,}"]
    assert _report_row(report, f"{Q.TOOLS_ARRAY.name.lower()} (chars4)") == expected


@pytest.mark.parametrize("catalog", CATALOGS)
def test_deferred_schemas_listing_and_budget_are_one_number_on_every_surface(catalog):
    plan = _plan(catalog)
    path = _path(catalog)
    data = _json("plan", path, "--context-length", CONTEXT, "--json")
    figures = Q.figures(plan)
    assert {k: data[k] for k in ("eager_tokens", "tools_tokens", "deferred_tokens", "listing_tokens", "budget")} == \
        {k: v for k, v in figures.items() if k != "saved_tokens"}
    text = _text("plan", path, "--context-length", CONTEXT)
    assert f"deferred schemas: {Q.deferred_schemas(plan):,} tokens" in text
    assert f"listing: {Q.listing(plan):,} tokens (chars4)" in text
    pages, report = _app(catalog)
    assert _report_row(report, f"{Q.DEFERRED_SCHEMAS.name.lower()} (chars4)") == Q.deferred_schemas(plan)
    assert pages["model_view"].metric("Listing (tokens, chars4)") == f"{Q.listing(plan):,}"
    assert f"Listing: **{Q.listing(plan):,} tokens** (chars4)" in pages["overview"].joined()
    assert f"Listing: {Q.listing(plan):,} tokens (chars4)" in report
    assert f"Budget = min(cap, percentage leg) = {Q.budget(plan):,} tokens" in pages["overview"].joined()
    saved = Q.saved_per_request(plan)
    assert pages["overview"].metric(Q.SAVED.name) == f"{saved:,}"
    assert _report_row(report, Q.SAVED.name.lower()) == saved
    assert f"saved per request: {saved:,} tokens ({Q.saved_share_words(plan)})\n" in text


def test_plan_says_when_tool_search_costs_more_than_it_saves(tmp_path):
    # two small tools: the bridge tools and the listing outweigh the schemas they defer
    path = tmp_path / "tiny.yaml"
    path.write_text("servers:\n- name: notes\n  tools:\n  - name: add_note\n    description: Add a note.\n"
                    "  - name: list_notes\n    description: List notes.\n", encoding="utf-8")
    plan = Inspector.from_files([path]).plan(parse_config({}), CONTEXT, "chars4")
    saved = Q.saved_per_request(plan)
    assert saved < 0 and Q.saved_share_words(plan) is None
    text = run_cli("plan", path, "--context-length", CONTEXT).stdout
    assert f"\nsaved per request: {saved:,} tokens: tool search adds {-saved:,} tokens per request here; " \
           "consider enabled: off\n" in text
    # the Overview, with the same file uploaded, says it in the same words (at its default 200K)
    overview = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    overview.run()
    overview.sidebar.selectbox(key="catalog").set_value(UPLOAD).run()
    overview.session_state["_upload_store"] = [("tiny.yaml", path.read_bytes())]
    overview.run()
    assert not overview.exception, overview.exception
    assert [e.value for e in overview.error] == [f"Tool search adds {-saved:,} tokens per request here; consider "
                                                 "enabled: off."]
    off = run_cli("plan", path, "--context-length", CONTEXT, "--enabled", "off")
    assert off.returncode == 0 and "saved per request" not in off.stdout  # nothing deferred, nothing to save


@pytest.mark.parametrize("catalog", CATALOGS)
def test_names_and_summary_sizes_are_tokens_on_every_surface(catalog):
    plan = _plan(catalog)
    blocks = Q.server_blocks(plan)
    listed = {name: b for name, b in blocks.items() if b["names_tokens"]}
    assert listed
    path = _path(catalog)
    cli = {s["name"]: s for s in _json("plan", path, "--context-length", CONTEXT, "--json")["servers"]}
    collapse = {s["server"]: s for s in _json("collapse", path, "--context-length", CONTEXT, "--json")["servers"]}
    pages, report = _app(catalog)
    cache = pages["cache_diff"].tables["cd_collapse_servers"]
    cache_rows = {r["server"]: r for r in cache.to_dict("records")}
    order = pages["costs"].tables["costs_collapse_order"]
    order_rows = {r["server"]: r for r in order.to_dict("records")}
    for name, b in listed.items():
        assert (cli[name]["names_tokens"], cli[name]["summary_tokens"]) == (b["names_tokens"], b["summary_tokens"])
        assert (collapse[name]["names_tokens"], collapse[name]["summary_tokens"]) == \
            (b["names_tokens"], b["summary_tokens"])
        # Compare & collapse: tokens first (characters also, labeled as such).
        assert (cache_rows[name]["names block (tokens)"], cache_rows[name]["summary line (tokens)"]) == \
            (f"{b['names_tokens']:,}", f"{b['summary_tokens']:,}")
        assert cache_rows[name]["names block (characters)"] == f"{collapse[name]['names_units']:,}"
        assert (order_rows[name]["names block (tokens)"], order_rows[name]["summary line (tokens)"]) == \
            (f"{b['names_tokens']:,}", f"{b['summary_tokens']:,}")
        row = re.search(r"<tr><td[^>]*>" + re.escape(html.escape(name)) + r"</td>(.*?)</tr>", report)
        assert row, name
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))
        # kind, tools, state, collapse #, schemas, full block, names block, summary line, why
        assert [cells[4], cells[6], cells[7]] == [f"{b['schema_tokens']:,}", f"{b['names_tokens']:,}",
                                                  f"{b['summary_tokens']:,}"]


@pytest.mark.parametrize("catalog", CATALOGS)
def test_plan_heads_its_server_columns_as_the_pages_and_the_report_do(catalog):
    """plan's text table headed the per-server figures "schema tok", "full tok", "names tok",
    "summary tok", where the pages (Overview, What the model sees) and the report write "schemas (tokens)" and
    so on: the same names now, each cell under its heading."""
    pages, report = _app(catalog)
    page = list(pages["overview"].tables["server_table"].columns)  # as What the model sees shows it
    names = ["schemas (tokens)", "full block (tokens)", "names block (tokens)", "summary line (tokens)"]
    assert [c for c in page if c in names] == names
    for name in names:
        assert re.search(r"<th[^>]*>" + re.escape(html.escape(name)) + "</th>", report), name
    text = _text("plan", _path(catalog), "--context-length", CONTEXT)
    head = next(line for line in text.splitlines() if line.startswith("server  "))
    rule = text.splitlines()[text.splitlines().index(head) + 1]
    assert re.split(r"  +", head) == ["server", "kind", "tools", "state", *names, "collapse #"]
    starts = [m.start() for m in re.finditer(r"-+", rule)]
    assert starts == [m.start() for m in re.finditer(r"\S+(?: \S+)*", head)]  # the rule is under each heading
    plan = _plan(catalog)
    for server in plan.servers:  # each figure starts where its heading does
        row = next(line for line in text.splitlines() if line.startswith(server.name + " "))
        for name, key in zip(names, ("schema_tokens", "full_tokens", "names_tokens", "summary_tokens")):
            start = head.index(name)
            assert row[start:].split("  ")[0] == f"{getattr(server, key):,}", (server.name, name, row)


def test_the_strategies_page_adds_only_the_skill_listing_to_all_schemas_up_front():
    """With the sample skills (the Strategies page's default), "All up front" is "All schemas up front"
    plus the skill listing, and the page says so with both numbers."""
    pages, _ = _app("team-workspace")
    plan = _plan("team-workspace")
    note = next(t for t in pages["strategies"].texts if str(t).startswith("All up front: "))
    up_front, eager, listing = map(_number, re.match(
        r"All up front: ([\d,]+) tokens \(chars4\) before the first turn = ([\d,]+) \(All schemas up front\) "
        r"\+ ([\d,]+) \(skill listing\)\.", note).groups())
    assert eager == Q.all_schemas_up_front(plan) and up_front == eager + listing and listing > 0


def test_the_strategies_page_says_its_tiered_figure_is_the_tools_array_plus_the_skill_listing():
    """The tiered strategy's up-front figure is the Overview's "Tools array with tool search" plus the
    skill listing; the page names both numbers, so 5,385 beside the Overview's 4,913 is explained."""
    pages, _ = _app("team-workspace")
    plan = _plan("team-workspace")
    note = next(t for t in pages["strategies"].texts if str(t).startswith("Tiered listing + bridge tools: "))
    up_front, tools, listing, again = map(_number, re.match(
        r"Tiered listing \+ bridge tools: ([\d,]+) tokens \(chars4\) before the first turn = ([\d,]+) \(Tools array "
        r"with tool search\) \+ ([\d,]+) \(skill listing\)\. The Overview's “Tools array with tool search” "
        r"\(([\d,]+)\) is the tools array alone: [\d,]+ tokens fewer\.", note).groups())
    assert tools == again == Q.tools_array(plan) and up_front == tools + listing and listing > 0
    rows = {row["strategy"]: row for row in pages["strategies"].tables["strat_table"].to_dict("records")}
    assert _number(rows["Tiered listing + bridge tools"]["up front (tokens, chars4)"]) == up_front


@pytest.mark.parametrize("tokenizer", ["o200k_base", "cl100k_base"])
def test_bpe_all_schemas_up_front_is_the_tier_0_array_and_the_all_up_front_strategy(tokenizer):
    ins = _inspector("team-workspace")
    plan = ins.plan(parse_config({}), CONTEXT, "chars4", tokenizer)
    off = ins.plan(parse_config({"enabled": "off"}), CONTEXT, "chars4", tokenizer)
    assert plan.eager_tokens == off.tools_tokens
    model = StrategyModel(ins, None, StrategySettings(tokenizer=tokenizer, context_length=CONTEXT))
    assert model.result("all_upfront").upfront_tokens == plan.eager_tokens
    path = _path("team-workspace")
    cli_plan = _json("plan", path, "--context-length", CONTEXT, "--tokenizer", tokenizer, "--json")
    cli_strategies = {r["strategy"]: r for r in _json("strategies", path, "--context-length", CONTEXT,
                                                       "--tokenizer", tokenizer, "--json")}
    assert cli_plan["eager_tokens"] == cli_strategies["all_upfront"]["upfront_tokens"] == plan.eager_tokens


def test_a_large_catalog_has_one_all_schemas_figure():
    """The Cloudflare sample (thousands of tools): plan and strategies agree, and the per-tool sum is
    named apart (it is higher by the per-tool rounding)."""
    path = _path("cloudflare-flat")
    eager = _json("plan", path, "--context-length", CONTEXT, "--json")["eager_tokens"]
    by_strategy = {r["strategy"]: r for r in _json("strategies", path, "--context-length", CONTEXT, "--json")}
    assert by_strategy["all_upfront"]["upfront_tokens"] == eager
    planner = Inspector.from_files([path]).planner
    assert Q.tool_schemas_sum(planner, "chars4") > eager


# --- words ----------------------------------------------------------------------------------------------

def test_the_form_groups_is_shown_as_summary():
    """A budget that fits only the summary line (one server, 8K): JSON keeps ``groups``; every text
    says ``summary``, the word of the per-server state."""
    path = _path("github-full")
    plan = _inspector("github-full").plan(parse_config({}), 8_000)
    assert plan.listing_form == "groups" and {s.state for s in plan.servers} == {"summary"}
    assert _json("plan", path, "--context-length", "8000", "--json")["listing_form"] == "groups"
    assert "listing form summary · 0 of 1 servers named (1 summary line);" in _text("plan", path, "--context-length", "8000")
    assert Q.form_word("groups") == "summary" and Q.form_word("mixed") == "mixed"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value("github-full").run()
    at.sidebar.selectbox(key="ctx_choice").set_value("8K").run()
    assert not at.exception, at.exception
    bar = next(m.value for m in at.markdown if 'data-testid="tier-bar"' in m.value)
    assert "<b>Form: summary · 0 of 1 servers named (1 summary line)</b>" in bar and "groups" not in bar
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    settings = literal_tables(at)["cmp_outcome"]
    assert list(settings[settings[""] == "listing form"]["A (sidebar)"]) == ["summary · 0 of 1 servers named (1 summary line)"]


def test_gate_terms_show_word_and_stem():
    assert gate_term_text("create", "creat") == "create → creat"
    assert gate_term_text("send", "send") == "send" and gate_term_text(None, None) == "—"
    path = _path("team-workspace")
    text = _text("explain", path, "-q", "create issue")
    assert "gate term: create → creat (in " in text
    data = _json("explain", path, "-q", "create issue", "--json")
    assert (data["gate"], data["gate_word"]) == ("creat", "create")  # JSON keeps the stem under "gate"
    empty = _text("search", path, "-q", "create zzzfrobnicate")
    assert f"why: Gate term '{gate_term_text('zzzfrobnicate', stem('zzzfrobnicate'))}' in 0 tools" in empty
    assert stem("zzzfrobnicate") != "zzzfrobnicate"  # so the line shows a word and its stem
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value("create issue").run()
    at.session_state["explain_1_open"] = True
    at.run()
    assert not at.exception, at.exception
    panel = at.expander[0]
    assert {m.label: m.value for m in panel.metric}["Gate term"] == "create → creat"
    terms = literal_tables(at)["explain_1_terms"]
    assert list(terms["term (word → stem)"]) == ["create → creat", "issue → issu"]


@pytest.mark.parametrize("catalog", CATALOGS)
def test_the_costs_figures_are_the_named_quantities(catalog):
    """``costs --json`` carries the costs quantities under their keys: a tool's total is Tool schema
    (counted alone), its signature that minus its description, a server's total its tools added up,
    which with chars4 is not Server schemas (a different name: plan's ``schema_tokens``)."""
    costs = _json("costs", _path(catalog), "--context-length", CONTEXT, "--json")
    alone = Q.tool_schemas(_inspector(catalog).planner, "chars4")
    for tool in costs["tools"]:
        assert tool["total_tokens"] == alone[tool["name"]]
        assert tool[Q.TOOL_SIGNATURE.key] == tool["total_tokens"] - tool[Q.TOOL_DESCRIPTION.key]
    blocks = Q.server_blocks(_plan(catalog))
    assert Q.SERVER_SCHEMAS.key not in costs["servers"][0] and Q.SERVER_SCHEMAS.key not in costs["tools"][0]
    above = 0
    for server in costs["servers"]:
        mine = [t for t in costs["tools"] if t["server"] == server["server"]]
        assert server[Q.SERVER_TOOLS_TOTAL.key] == sum(t["total_tokens"] for t in mine)
        assert 0 <= server[Q.SERVER_TOOLS_TOTAL.key] - blocks[server["server"]][Q.SERVER_SCHEMAS.key] < len(mine)
        above += server[Q.SERVER_TOOLS_TOTAL.key] > blocks[server["server"]][Q.SERVER_SCHEMAS.key]
    assert above  # chars4 rounds per tool: the two figures differ, hence two names


def test_the_glossary_names_every_quantity():
    """docs/quantities.md defines each named quantity under the name the surfaces show."""
    text = (ROOT / "docs" / "quantities.md").read_text(encoding="utf-8")
    for quantity in Q.QUANTITIES:
        short = quantity.name.replace(" (strategy)", "")  # the glossary row says "(strategy)" after the name
        assert f"**{quantity.name}**" in text or f"**{short}**" in text, quantity.name


def test_deferred_tools_is_one_number_when_tool_search_is_off():
    """With tool search off nothing is deferred: the Overview, the Compare table and the report all
    say 0 (the report with how many could be), where the report and Compare said 178, beside 183
    visible tools out of 183."""
    plan = _plan("team-workspace", enabled="off")
    assert (plan.activated, plan.deferred_count, Q.deferred_tools(plan)) == (False, 178, 0)
    assert Q.deferred_tools(_plan("team-workspace")) == 178
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update({"enabled": "off"})
    at.run()
    assert not at.exception, at.exception
    assert PageText(at).metric("Deferred tools") == "0"
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    [row] = [r for r in literal_tables(at)["cmp_outcome"].to_dict("records") if r[""] == "deferred tools"]
    assert (row["A (sidebar)"], row["B"]) == ("0", "0")
    at.switch_page("toolsearch/ui/report.py").run()
    at.toggle(key="report_lint").set_value(False)
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    report = at.session_state["report_html"]
    assert re.search(r"<td[^>]*>deferred tools</td>\s*<td[^>]*>0 \(tool search is not active: 178 tools could be "
                     r"deferred\)</td>", report), re.findall(r"deferred tools</td>\s*<td[^>]*>[^<]*", report)

"""AppTest tests for the app frame, the Overview page and "What the model sees".

Each test drives the sidebar the way a user does and compares what the page shows with the
engine's own output for the same settings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from toolsearch.analysis.recommend import smallest_threshold_pct
from toolsearch.analysis.sweep import names_budget
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    return at


def _engine(catalog: str, context_length, **config):
    inspector = inspector_of([SAMPLES / f"{catalog}.yaml"])
    return inspector.plan(parse_config(config), context_length)


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _metric(at, label_start: str):
    for metric in at.metric:
        if metric.label.startswith(label_start):
            return metric.value
    raise AssertionError(f"no metric {label_start!r}: {[m.label for m in at.metric]}")


def _token_metric(at, label_start: str) -> str:
    """A token metric: the unit is in the heading above (``Cost per request (tokens, chars4)``),
    the value is the number (short enough not to be cut at 1024 px)."""
    assert any(h.value.startswith("Cost per request (tokens, ") for h in at.subheader)
    for metric in at.metric:
        if metric.label.startswith(label_start):
            return metric.value
    raise AssertionError(f"no metric {label_start!r}: {[m.label for m in at.metric]}")


def test_default_catalog_opens_in_tier_1_at_200k():
    at = _app()
    plan = _engine("team-workspace", 200_000)
    assert plan.tier == 1
    text = _markdown(at)
    assert f"Tier {plan.tier}" in text
    assert f"Form: {plan.listing_form}" in text
    assert f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens" in text
    assert _metric(at, "Deferred tools") == str(plan.deferred_count)
    assert _token_metric(at, "Tools array with tool search") == f"{plan.tools_tokens:,}"
    assert _token_metric(at, "All schemas up front") == f"{plan.eager_tokens:,}"


def test_context_length_changes_form_and_states():
    at = _app()
    at.sidebar.selectbox(key="ctx_choice").set_value("32K").run()
    plan = _engine("team-workspace", 32_000)
    assert plan.listing_form != _engine("team-workspace", 200_000).listing_form
    assert f"Form: {plan.listing_form}" in _markdown(at)
    table = literal_tables(at)["server_table"]  # the per-server table
    shown = dict(zip(table["server"], table["state"]))
    assert shown == {s.name: s.state for s in plan.servers}
    # Why each server has its state: one line per reason under the table, naming its servers.
    text = _markdown(at).replace("\\", "")
    for server in plan.servers:
        line = next(x for x in text.splitlines() if x.startswith(f"- **{server.reason}**: "))
        assert server.name in line.split(": ", 1)[1].split(", ")


@pytest.mark.parametrize("key,value,config", [
    ("threshold_pct", 1.0, {"threshold_pct": 1.0}),
    ("listing_max_tokens", 200, {"listing_max_tokens": 200}),
])
def test_budget_sliders(key, value, config):
    at = _app()
    at.sidebar.slider(key=key).set_value(value).run()
    plan = _engine("team-workspace", 200_000, **config)
    assert f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens" in _markdown(at)
    assert f"Form: {plan.listing_form}" in _markdown(at)


def test_unknown_context_and_listing_off_and_disabled():
    at = _app()
    at.sidebar.selectbox(key="ctx_choice").set_value("unknown").run()
    # the figure reads as the report writes it: the unit beside the number, the reason after
    assert "Percentage leg: 10,000 tokens (fixed fallback: context length unknown)" in _markdown(at)
    at.sidebar.selectbox(key="listing").set_value("off").run()
    assert "Tier 2" in _markdown(at) and "Form: none" in _markdown(at)
    at.sidebar.selectbox(key="enabled").set_value("off").run()
    plan = _engine("team-workspace", None, enabled="off")
    assert plan.tier == 0 and "Tier 0" in _markdown(at)
    assert _token_metric(at, "Tools array with tool search") == f"{plan.tools_tokens:,}"
    deferred = next(m for m in at.metric if m.label.startswith("Deferred tools"))
    assert (deferred.value, deferred.proto.help) == (
        "0", f"Tool search is not active: {plan.deferred_count:,} tools could be deferred.")
    # the schema table's "deferred schemas" beside "Deferred tools 0": its caption says whose they are
    [caption] = [c.value for c in at.caption if c.value.startswith("all schemas up front: the whole tools array")]
    assert caption.endswith("Tool search is not active here, so nothing is deferred: the deferred schemas are those "
                            f"of the {plan.deferred_count:,} tools it would defer.")
    at.sidebar.selectbox(key="enabled").set_value("auto").run()
    [caption] = [c.value for c in at.caption if c.value.startswith("all schemas up front: the whole tools array")]
    assert "not active" not in caption


def _open_tab(at, label: str) -> None:
    """Open one of the model view's tabs, as a click on it does (only the open tab is drawn)."""
    at.session_state["mv_tab"] = label
    at.run()
    assert not at.exception, at.exception


def test_model_view_shows_exact_description_and_array():
    at = _app()
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert not at.exception
    plan = _engine("team-workspace", 200_000)
    codes = [c.value for c in at.code]
    assert plan.tool_search_description in codes
    assert not any(c.startswith("[") for c in codes)  # the closed tabs are not drawn (nor sent)
    _open_tab(at, "Tools array (JSON)")
    codes = [c.value for c in at.code]
    assert json.dumps(plan.tools, ensure_ascii=False, indent=2) in codes
    # its description lines run past the block at 1024 px: wrapped, not cut at the block's edge
    array = next(c for c in at.code if c.value.startswith("["))
    assert max(map(len, array.value.splitlines())) > 120 and array.proto.wrap_lines
    at.segmented_control(key="mv_array_view").set_value("Tree").run()
    assert not at.code and at.json[0].value == json.dumps(plan.tools)  # the same array as a tree


def test_model_view_paginates_a_large_tools_array():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": "cloudflare-flat", "enabled": "off"})
    at.run()
    at.switch_page("toolsearch/ui/model_view.py").run()
    _open_tab(at, "Tools array (JSON)")
    plan = _engine("cloudflare-flat", 200_000, enabled="off")
    assert plan.tier == 0 and len(plan.tools) > 3000
    assert [json.loads(c.value) for c in at.code] == [plan.tools[:25]]  # one page, never the 2.7 MB array
    at.number_input(key="mv_array_page").set_value(3).run()
    assert [json.loads(c.value) for c in at.code] == [plan.tools[50:75]]


def test_tool_naming_as_is():
    at = _app()
    at.sidebar.radio(key="naming").set_value("as-is").run()
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert at.sidebar.radio(key="naming").value == "as-is"  # kept across the page switch
    description = next(c.value for c in at.code if c.value.startswith("Search "))
    assert "mcp__" not in description


def test_url_reproduces_settings():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": "five-servers", "ctx": "32K", "pct": "2.0", "cap": "3000"})
    at.run()
    plan = _engine("five-servers", 32_000, threshold_pct=2.0, listing_max_tokens=3000)
    assert f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens" in _markdown(at)
    # A link never loads files from elsewhere: unknown catalog names fall back to the default sample.
    at2 = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at2.query_params.update({"catalog": "../../etc/passwd"})
    at2.run()
    assert not at2.exception
    assert at2.sidebar.selectbox(key="catalog").value == "team-workspace"


def test_untrusted_text_helpers():
    import pandas as pd

    from toolsearch.ui import common

    # A catalog with no servers gives an empty per-server table: no styling, no KeyError.
    empty = pd.DataFrame([])
    assert common.style_states(empty) is empty
    escaped = common.md_escape("**b** [x](http://e.example) $E$ :red[r] <script>")
    # Markdown characters backslash-escaped; the word holding a URL is a code span (never a link).
    assert escaped == r"\*\*b\*\* `[x](http://e.example)` \$E\$ \:red\[r\] \<script\>"


def test_collapse_rank_column_is_text():
    from toolsearch.ui import common

    plan = _engine("hard-cases", 200_000, enabled="off")
    rows = common.server_table(plan)
    assert {row["collapse #"] for row in rows} == {"—"}
    assert plan.tier == 0


# --- exact budget controls and the signals ------------------------------------------------------------

def test_number_inputs_set_exact_values_and_keep_the_slider_in_step():
    at = _app()
    at.sidebar.number_input(key="threshold_pct_exact").set_value(0.7).run()
    at.sidebar.number_input(key="listing_max_tokens_exact").set_value(1234).run()
    assert not at.exception
    plan = _engine("team-workspace", 200_000, threshold_pct=0.7, listing_max_tokens=1234)
    assert plan.budget == 1234  # int(200,000 × 0.007) = 1,400 > the 1,234 cap
    assert f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens" in _markdown(at)
    assert at.sidebar.slider(key="threshold_pct").value == 0.7
    assert at.sidebar.slider(key="listing_max_tokens").value == 1234
    assert (at.query_params["pct"], at.query_params["cap"]) in ((["0.7"], ["1234"]), ("0.7", "1234"))
    # and the other way: moving the slider updates the number input
    at.sidebar.slider(key="listing_max_tokens").set_value(3001).run()
    assert at.sidebar.number_input(key="listing_max_tokens_exact").value == 3001


def test_tier2_banner_and_context_overflow_warning():
    at = _app()
    at.sidebar.selectbox(key="listing").set_value("off").run()
    assert any(e.value.startswith("Tier 2: the model sees no tool names, no listing at all") for e in at.error)
    at.sidebar.selectbox(key="listing").set_value("auto").run()
    assert not any(e.value.startswith("Tier 2") for e in at.error)
    at.sidebar.selectbox(key="ctx_choice").set_value("8K").run()
    plan = _engine("team-workspace", 8_000)
    assert plan.eager_tokens > 8_000 >= plan.tools_tokens
    assert [w.value for w in at.warning if "context length" in w.value] == [
        f"Sending every schema up front ({plan.eager_tokens:,} tokens, chars4) would not fit the context length "
        f"(8K); with tool search the request fits."]


def _tier2_error(at) -> str:
    [error] = [e.value for e in at.error if e.value.startswith("Tier 2")]
    return error


def test_tier2_banner_names_the_setting_that_limits_the_listing():
    """The tier-2 banner's advice changes something: listing off is lifted by the listing switch,
    a budget decided by threshold_pct by threshold_pct, one decided by listing_max_tokens by it."""
    at = _app()
    at.sidebar.selectbox(key="listing").set_value("off").run()
    assert _tier2_error(at).endswith("The listing is switched off (listing: off), so no budget brings tool names "
                                     "back: set listing to auto or on.")
    at.sidebar.selectbox(key="listing").set_value("auto").run()
    at.sidebar.selectbox(key="catalog").set_value("github-full").run()
    at.sidebar.selectbox(key="ctx_choice").set_value("8K").run()
    plan = _engine("github-full", 8_000)
    assert (plan.tier, plan.budget, plan.budget_winner) == (2, 400, "threshold_pct")
    need = names_budget(plan.steps)
    assert need == 815 and smallest_threshold_pct(need, 8_000) == 10.2
    assert _tier2_error(at).endswith("The budget (400 tokens) is threshold_pct's 5% of the context length (8K); tool "
                                     "names need a budget of at least 815 tokens: threshold_pct 10.2% gives it here "
                                     "(the Tuning page shows what each setting reaches).")
    at.sidebar.selectbox(key="ctx_choice").set_value("1M").run()
    at.sidebar.number_input(key="listing_max_tokens_exact").set_value(200).run()
    plan = _engine("github-full", 1_000_000, listing_max_tokens=200)
    assert (plan.tier, plan.budget, plan.budget_winner) == (2, 200, "listing_max_tokens")
    assert _tier2_error(at).endswith("The budget (200 tokens) is listing_max_tokens; tool names need a budget of at "
                                     "least 815 tokens: listing_max_tokens 815 gives it here (the Tuning page shows "
                                     "what each setting reaches).")


def test_tier2_banner_at_a_1000_token_context():
    """At a 1,000-token context the banner said "raise threshold_pct (up to listing_max_tokens, 4,000
    tokens, which caps the budget next…": no threshold_pct gives 4,000 tokens there, and the tools array
    alone is already larger than the context. It now says the budget tool names need, the threshold_pct
    that gives it, and that no request fits this context whatever the listing."""
    at = _app()
    at.sidebar.selectbox(key="ctx_choice").set_value("custom").run()
    at.sidebar.number_input(key="ctx_custom").set_value(1000).run()
    assert not at.exception, at.exception
    plan = _engine("team-workspace", 1_000)
    need = names_budget(plan.steps)
    assert (plan.tier, plan.budget, plan.tools_tokens, need) == (2, 50, 1_160, 159)
    assert smallest_threshold_pct(need, 1_000) == 15.9
    error = _tier2_error(at)
    assert "4,000" not in error and "caps the budget next" not in error, error
    assert error.endswith("The budget (50 tokens) is threshold_pct's 5% of the context length (1K); tool names need a "
                          "budget of at least 159 tokens: threshold_pct 15.9% gives it here (the Tuning page shows "
                          "what each setting reaches). No request fits this context in any case: the tools array "
                          "alone (1,160 tokens, chars4) is larger than the context length (1K), and a listing only adds to it.")
    for page in ("toolsearch/ui/tuning.py", "toolsearch/ui/model_view.py"):  # the same banner on every page
        at.switch_page(page).run()
        assert not at.exception, at.exception
        assert _tier2_error(at) == error


def test_tier2_banner_when_no_threshold_pct_reaches_tool_names():
    """A context shorter than the budget tool names need: no threshold_pct is offered, none would do."""
    from toolsearch.ui.signals import tier2_remedy

    plan = _engine("github-full", 700, threshold_pct=50, listing_max_tokens=200)
    assert tier2_remedy(plan) == (
        "The budget (200 tokens) is listing_max_tokens; tool names need a budget of at least 815 tokens, which no "
        "threshold_pct gives at this context length (100% is 700 tokens). No request fits this context in any case: "
        "the tools array alone (801 tokens, chars4) is larger than the context length (700 tokens), and a listing only adds to it.")


def test_schema_size_table_explains_deferred_above_all_schemas():
    """GitHub alone defers every tool: with o200k_base its deferred definitions, counted one by one,
    add up to more than the whole array; the caption under the table says why, for that tokenizer only."""
    at = _app()
    at.sidebar.selectbox(key="catalog").set_value("github-full").run()
    inspector = inspector_of([SAMPLES / "github-full.yaml"])
    plans = {tk: inspector.plan(parse_config({}), 200_000, "chars4", tk) for tk in ("chars4", "o200k_base", "cl100k_base")}
    above = [tk for tk, p in plans.items() if p.deferred_tokens > p.eager_tokens]
    assert above == ["o200k_base"], {tk: (p.deferred_tokens, p.eager_tokens) for tk, p in plans.items()}
    [caption] = [c.value for c in at.caption if c.value.startswith("all schemas up front: the whole tools array")]
    assert caption.endswith("That is why, with o200k_base here, the deferred schemas add up to more than the whole "
                            "array that holds them.")


def _signals_script():
    import streamlit as st

    from toolsearch.ui import signals
    from toolsearch.engine.catalog import Catalog, Server, Tool
    from toolsearch.engine.config import parse_config
    from toolsearch.engine.inspector import Inspector

    tiny = Catalog(name="tiny", servers=(Server(name="one", tools=(Tool(name="ping", description="Ping."),)),))
    plan = Inspector(tiny, "as-is").plan(parse_config({}), 200_000)
    st.metric("eager", plan.eager_tokens)
    st.metric("tools", plan.tools_tokens)
    signals.cost_verdict(plan)
    signals.tier2_banner(plan)


def test_cost_verdict_when_tool_search_costs_more():
    at = AppTest.from_function(_signals_script, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    eager, tools = (int(m.value) for m in at.metric)
    assert tools > eager  # one tiny tool: three bridge tools cost more than its schema
    assert [e.value for e in at.error] == [
        f"Tool search adds {tools - eager:,} tokens per request here; consider enabled: off."]


def test_a_clipped_parameter_description_keeps_a_url_literal():
    # The tooltip of a call form's field shows 500 characters of the description. Clipping the
    # escaped text could cut a URL's code span open, and the URL became a link again.
    from toolsearch.ui import schema_form

    description = "x" * 480 + " see https://evil.example/steal?data=1 for more"
    field = schema_form.Field("q", {"type": "string", "description": description}, False, "string", None)
    tip = schema_form._help(field)
    assert tip == "x" * 480 + " see `https://evil.ex`"
    assert tip.count("`") == 2  # the code span is closed: the clipped URL is text, never a link


def test_a_line_break_in_a_server_name_is_shown_as_a_marker_in_the_server_table():
    """A server name is one line: ``gh\\nub`` read as ``gh ub`` in the reasons list below the
    server table (Markdown turns a line break into a space), indistinguishable from a server
    really named ``gh ub``. The table and the list show the break as ``⟨U+000A⟩``."""
    from toolsearch.engine.catalog import load_text
    from toolsearch.ui import common

    catalog = load_text(json.dumps({"servers": [
        {"name": "gh\nub", "tools": [{"name": "t1", "description": "Lists the open issues of a repository."}]},
        {"name": "gh ub", "tools": [{"name": "t2", "description": "Lists the open pull requests."}]}]}), "nl.json")
    plan = Inspector(catalog).plan(parse_config({}))
    names = [row["server"] for row in common.server_table(plan)]
    assert sorted(names) == ["gh ub", "gh⟨U+000A⟩ub"]


def test_overview_and_model_view_say_what_they_are_for():
    """A new user lands on Overview: under each title, one line says what the page answers, and
    Overview links to the Tuning page for a setting to ship."""
    at = _app()
    captions = [c.value for c in at.main.caption]
    assert any(c.startswith("What one request costs") for c in captions), captions
    assert [(link.label, link.proto.page.rsplit("/", 1)[-1]) for link in at.main.get("page_link")] == [
        ("One setting to ship for every context length you run: Tuning", "tuning")]
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.main.caption]
    assert any(c.startswith("The exact tools array and tool_search description the model receives") for c in captions), captions


def test_share_of_a_small_context_reads_with_a_thousands_separator():
    """At a 1,000-token context every schema up front is 8,299.8% of it: written as the page writes
    every other number (the metric read "8299.8% of context"); the report writes it the same way."""
    from toolsearch.ui.text import pct_of_context
    assert pct_of_context(82_998, 1_000) == "8,299.8% of context"
    assert pct_of_context(4_913, 200_000) == "2.5% of context"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"ctx": "custom", "ctxn": "1000"})
    at.run()
    assert not at.exception, at.exception
    eager = next(m for m in at.metric if m.label == "All schemas up front")
    assert (eager.value, eager.delta) == ("82,998", "8,299.8% of context")


def test_tier_label_is_one_plain_label_on_the_page_and_in_the_report():
    """The tier bar and the HTML report's badge name tier 2 in the same words, without the code's
    "bare bridge": at a 1,000-token context the bar read "Tier 2 · summaries or bare bridge"."""
    from toolsearch.analysis.quantities import TIER_LABELS
    from toolsearch.analysis.report import build_report, esc

    assert TIER_LABELS[2] == "Tier 2 · server summaries or no listing"
    assert not any("bare" in label for label in TIER_LABELS.values())
    at = _app()
    at.sidebar.selectbox(key="ctx_choice").set_value("custom").run()
    at.sidebar.number_input(key="ctx_custom").set_value(1000).run()
    bar = next(m.value for m in at.markdown if 'data-testid="tier-bar"' in m.value)
    assert f"<b>{TIER_LABELS[2]}</b>" in bar
    inspector = inspector_of([SAMPLES / "team-workspace.yaml"])
    report = build_report(inspector, parse_config({}), 1_000)
    assert f">{esc(TIER_LABELS[2])}</span>" in report and "bare bridge" not in report


def test_schema_size_table_names_each_figure_as_the_metrics_do():
    """The "Schema size by tokenizer" table headed the figure the metric above calls "All schemas up front"
    "all schemas": one quantity under two names on one page. Its columns are now the quantities' own names
    (toolsearch/analysis/quantities.py), and the chars4 row gives the metrics' numbers."""
    from toolsearch.analysis import quantities as Q

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    sizes = literal_tables(at)["overview_sizes"]
    names = [f"{q.name.lower()} (tokens)" for q in (Q.ALL_SCHEMAS, Q.DEFERRED_SCHEMAS, Q.TOOLS_ARRAY)]
    assert list(sizes.columns) == ["tokenizer", *names]
    metrics = {m.label: m.value for m in at.metric}
    chars4 = sizes[sizes["tokenizer"] == "chars4"].iloc[0]
    assert chars4[names[0]] == metrics[Q.ALL_SCHEMAS.name]
    assert chars4[names[2]] == metrics[Q.TOOLS_ARRAY.name]
    caption = next(c.value for c in at.caption if "the whole tools array with nothing deferred" in c.value)
    assert caption.startswith("all schemas up front: ") and "deferred schemas: " in caption

"""Readability of the charts, colors and wording: text on every heat-map cell reaches WCAG AA,
every strategy line reaches 3:1 against the plot, the report always carries the strategies, the
two "up front" figures say what each counts, the quality chart uses one number format with labels
that cannot overlap, every segment of the listing bar can be named without hovering, and counts
read "1 warning" / "8 warnings".

Pages are driven through Streamlit's AppTest on the shipped team-workspace sample and compared
with the engine's own numbers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import heat_cells, inspector_of, literal_tables
from toolsearch.analysis import charts, palette
from toolsearch.ui import signals
from toolsearch.analysis.palette import STATE_COLORS, STRATEGY_COLORS, contrast_ratio
from toolsearch.analysis.lint import lint
from toolsearch.analysis.report import build_report
from toolsearch.analysis.skills import load_skills
from toolsearch.analysis.strategies import (ALL_UPFRONT, STRATEGIES, StrategyModel, StrategySettings, Task,
                                            load_events, task_summary)
from toolsearch.analysis.wording import counted, severity_counts
from toolsearch.analysis.sweep import form_grid, listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.engine.constants import FORMS
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"
SKILLS = ROOT / "sample_skills"
DEFAULT = SAMPLES / "team-workspace.yaml"
needs_samples = pytest.mark.skipif(not DEFAULT.exists(), reason="sample_catalogs/team-workspace.yaml is missing")


def open_page(page: str, query: dict[str, str] | None = None, catalog: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    if catalog:
        at.session_state["catalog"] = catalog
    at.run()
    assert not at.exception, at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def figures(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def inspector(name: str = "team-workspace") -> Inspector:
    return inspector_of([SAMPLES / f"{name}.yaml"], "prefixed")


# --- 1. heat maps: every cell's text reaches AA on its fill -------------------------------------------

def check_heatmap_text(figure: dict) -> set[str]:
    """Every run of equal filled cells in a row carries its form's name once, at the run's center,
    in a color reaching 4.5:1 on the fill (taken from the heat map's own colorscale and z); returns
    the text colors used."""
    heat = figure["data"][0]
    assert heat["type"] == "heatmap" and "texttemplate" not in heat  # no single-color cell text
    labels = [t for t in figure["data"] if t.get("mode") == "text"]
    assert len(labels) == 1
    label = labels[0]
    at_point = {(x, y): (text, color) for x, y, text, color in
                zip(label["x"], label["y"], label["text"], label["textfont"]["color"])}
    columns, edges_y = heat["x"], heat["y"]
    assert columns == list(range(len(columns)))  # evenly spaced columns: close lengths do not crowd
    used = set()
    runs = 0
    for i, row in enumerate(heat["z"]):
        j = 0
        while j < len(row):  # each run of equal cells in a row carries one label, at its center
            end = j
            while end + 1 < len(row) and row[end + 1] == row[j]:
                end += 1
            if row[j] is not None:
                runs += 1
                (x, y), = [(x, y) for (x, y) in at_point if x == (j + end) / 2 and edges_y[i] < y < edges_y[i + 1]]
                text, color = at_point[(x, y)]
                fill = heat["colorscale"][2 * row[j]][1]  # two stops per form: [i/n, c], [(i+1)/n, c]
                assert text == FORMS[row[j]]
                assert contrast_ratio(color, fill) >= 4.5, (text, color, fill)
                used.add(color)
            j = end + 1
    assert runs == len(at_point)
    return used


@needs_samples
def test_tuning_heat_tables_text_reaches_aa_on_every_cell():
    at = open_page("toolsearch/ui/tuning.py", {"ctx": "128K", "pct": "3.0", "cap": "2500"})
    cells = heat_cells(at, "tuning_heatmap")
    at.session_state["tuning_chart"] = "Over listing_max_tokens"
    at.run()
    assert not at.exception, at.exception
    cells += heat_cells(at, "tuning_heatmap_cap")
    assert len(cells) > 100
    used = set()
    for cell in cells:
        style = dict(part.split(":", 1) for part in cell["style"].split(";") if part)
        assert cell["text"].split()[0] == cell["data-form"] and style["background"] == STATE_COLORS[cell["data-form"]]
        assert contrast_ratio(style["color"], style["background"]) >= 4.5, cell
        used.add(style["color"])
    assert used == {"#000000", "#ffffff"}  # both: black on green, pink, orange, grey; white on blue


def test_report_heatmap_text_reaches_aa_on_every_cell():
    """The report's heat map (a chart, as the report is a static page) labels each run of cells."""
    config = parse_config({"listing_max_tokens": 2500})
    ins = inspector()
    grid = form_grid(listing_ladder(ins.planner, config), config)
    figure = charts.sweep_figure(grid, current=(128_000, 3.0)).to_plotly_json()
    assert len(check_heatmap_text(figure)) >= 1


def test_state_fills_that_failed_with_white_text_now_get_black():
    # plotly's automatic cell text was white on these (about 3:1)
    for form in ("full", "mixed"):
        assert contrast_ratio("#ffffff", STATE_COLORS[form]) < 4.5
        assert palette.text_on(STATE_COLORS[form]) == "#000000"
        assert contrast_ratio("#000000", STATE_COLORS[form]) >= 4.5


def test_lint_severity_colors_are_far_from_every_state_color():
    """A warning cell must not read as a summary state: every severity color is at least
    MIN_DELTA_E (CIEDE2000, measured by coloraide) from every state color, and from each other;
    its text still reaches AA."""
    from coloraide import Color

    assert palette.MIN_DELTA_E == 20.0
    for severity, color in palette.SEVERITY_COLORS.items():
        distances = {state: Color(color).delta_e(fill, method="2000") for state, fill in STATE_COLORS.items()}
        closest = min(distances, key=distances.get)
        assert distances[closest] >= palette.MIN_DELTA_E, (severity, color, closest, round(distances[closest], 1))
        assert contrast_ratio(palette.text_on(color), color) >= 4.5, severity
    severities = list(palette.SEVERITY_COLORS.values())
    assert all(Color(a).delta_e(b, method="2000") >= palette.MIN_DELTA_E
               for i, a in enumerate(severities) for b in severities[i + 1:])
    # the amber that read as the summary orange was only 6.9 away: the measure tells them apart
    assert round(Color("#F4B942").delta_e(STATE_COLORS["summary"], method="2000"), 1) == 6.9


# --- 2. strategy lines reach 3:1 against the plot ------------------------------------------------------

def test_every_strategy_color_reaches_3_to_1_on_white():
    assert set(STRATEGY_COLORS) == set(STRATEGIES)
    for strategy, color in STRATEGY_COLORS.items():
        assert contrast_ratio(color, "#ffffff") >= 3.0, (strategy, color)


@needs_samples
def test_strategies_timeline_lines_reach_3_to_1_against_the_plot_background():
    at = open_page("toolsearch/ui/strategies.py", catalog="team-workspace")
    timeline = [f for f in figures(at) if any("lines" in (t.get("mode") or "") for t in f["data"])]
    assert len(timeline) == 1
    fig = timeline[0]
    background = fig["layout"].get("plot_bgcolor", "#ffffff")  # the app's light theme draws on white
    lines = [t for t in fig["data"] if "lines" in (t.get("mode") or "")]
    assert len(lines) == len(STRATEGIES)
    assert "Provider search (Anthropic)" in [t["name"] for t in lines]
    for trace in lines:
        assert contrast_ratio(trace["line"]["color"], background) >= 3.0, trace["name"]
        assert trace["marker"]["color"] == trace["line"]["color"]


# --- 3. the report always carries the strategies -------------------------------------------------------

def default_results(name: str = "team-workspace", context_length: int = 32_000):
    ins = inspector(name)
    skills = load_skills(SKILLS)
    task = Task()
    if name == "team-workspace":
        events = load_events(SKILLS / "events.yaml")
        tools = {t.name for t in ins.registration.tools}
        task = Task(tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "read_skill" and str(e.arg) in skills.names)),
                    tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "call" and str(e.arg) in tools)))
    settings = StrategySettings(config=parse_config({}), context_length=context_length, planning_tokenizer="chars4")
    return StrategyModel(ins, skills, settings).results(task), task


def strategies_section(html_text: str) -> str:
    return html_text[html_text.index("<h2>Disclosure strategies</h2>"):html_text.index("<h2>tool_search description")]


@needs_samples
def test_report_computes_the_strategies_without_the_strategies_page():
    at = open_page("toolsearch/ui/report.py", {"ctx": "32K"}, catalog="team-workspace")
    assert any("computed when the report is built" in c.value for c in at.caption)
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    section = strategies_section(at.session_state["report_html"])
    assert "Not computed" not in section
    results, task = default_results()
    assert task.skills_read and task.tools_used  # the sample task runs on this catalog
    assert f"For team-workspace: 13 sample skills, {task_summary(task)}, tokens in chars4" in section
    for r in results:
        row = (f'{r.label}</td><td class="num">{r.upfront_tokens:,}</td><td class="num">{r.task_tokens:,}</td>'
               f'<td class="num">{r.round_trips:,}</td><td class="num">{r.cache_breaks:,}</td>')
        assert row in section, r.label
    # The same numbers as the Strategies page shows with its defaults.
    page = open_page("toolsearch/ui/strategies.py", {"ctx": "32K"}, catalog="team-workspace")
    table = literal_tables(page)["strat_table"]
    assert list(table["up front (tokens, chars4)"]) == [f"{r.upfront_tokens:,}" for r in results]
    assert list(table["task (tokens, chars4)"]) == [f"{r.task_tokens:,}" for r in results]


@needs_samples
def test_report_strategies_on_a_catalog_without_the_sample_task():
    at = open_page("toolsearch/ui/report.py", {"ctx": "32K"}, catalog="five-servers")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    section = strategies_section(at.session_state["report_html"])
    results, _ = default_results("five-servers")
    assert "0 skill reads, 0 tools used" in section
    assert section.count("<tr>") == 1 + len(STRATEGIES)
    assert f'<td class="num">{results[0].upfront_tokens:,}</td>' in section


# --- 4. one name for one thing, and why the two "up front" figures differ -------------------------------

@needs_samples
def test_overview_and_strategies_say_what_each_up_front_figure_counts():
    at = open_page("toolsearch/ui/overview.py", catalog="team-workspace")
    plan = inspector().plan(parse_config({}), 200_000)
    metric = [m for m in at.metric if m.label == signals.ALL_SCHEMAS][0]
    assert metric.value == f"{plan.eager_tokens:,}"
    assert signals.ALL_SCHEMAS_CAPTION in [c.value for c in at.caption]
    assert "counts each tool alone" in signals.ALL_SCHEMAS_CAPTION  # the Costs page's per-tool figures

    page = open_page("toolsearch/ui/strategies.py", catalog="team-workspace")
    results, _ = default_results(context_length=200_000)
    upfront = [r for r in results if r.strategy == ALL_UPFRONT][0]
    assert upfront.upfront_tokens > plan.eager_tokens
    schema, listing = upfront.upfront_breakdown["schema"], upfront.upfront_breakdown["skill listing"]
    assert schema == plan.eager_tokens  # the same figure, under the same name
    expected = (f"All up front: {upfront.upfront_tokens:,} tokens (chars4) before the first turn = {schema:,} (All "
                f"schemas up front) + {listing:,} (skill listing). The Overview's “All schemas up front” "
                f"({plan.eager_tokens:,}) is the tools array alone: {listing:,} tokens fewer.")
    assert expected in [c.value for c in page.caption]
    # the worked example is another catalog: no comparison with the sidebar's figure
    page.radio(key="strat_source").set_value("Worked example").run()
    assert not page.exception, page.exception
    notes = [c.value for c in page.caption if c.value.startswith("All up front:")]
    assert len(notes) == 1 and notes[0].endswith("counts the sidebar's catalog, not this one.")


# --- 5. the quality chart: one format, labels that cannot overlap ---------------------------------------

@needs_samples
def test_quality_chart_and_table_use_one_share_format():
    """Shares and MRR read on one scale, as toolsearch eval prints them: 0.833, not 83.33%."""
    at = open_page("toolsearch/ui/quality.py", catalog="team-workspace")
    chart = [f for f in figures(at) if f["data"] and f["data"][0]["type"] == "bar"][0]
    assert chart["layout"]["xaxis"]["tickvals"] == [0, 0.25, 0.5, 0.75, 1]
    assert chart["layout"]["xaxis"]["ticktext"] == ["0.000", "0.250", "0.500", "0.750", "1.000"]
    bars = sum(len(trace["x"]) for trace in chart["data"])
    # horizontal bars, each label past its bar's end in a slot of its own (16 px for 10-px text)
    assert chart["layout"]["height"] >= 130 + 16 * bars
    for trace in chart["data"]:
        assert trace["orientation"] == "h" and trace["textposition"] == "outside"
        assert trace["textfont"]["size"] <= 10 and trace["constraintext"] == "none"
        assert "%{text}" in trace["hovertemplate"]  # the hover reads as the label
        for value, text in zip(trace["x"], trace["text"]):
            if value is None:
                assert text == ""
            else:  # a share or MRR (a mean of 1/rank): both as toolsearch eval prints them
                assert re.fullmatch(r"[01]\.\d{3}", text) and text == f"{value:.3f}", (value, text)
    assert chart["layout"]["xaxis"]["title"]["text"].startswith("share or MRR (0 to 1), ")
    assert "%" not in json.dumps(chart["layout"]["xaxis"])
    tables = literal_tables(at)
    shares = {"quality_metrics": ["recall@1", "recall@5", "recall@limit", "MRR", "nonsense tasks empty",
                                   "empty-or-not accuracy"],
              "quality_counts": ["query recall@5", "nonsense queries empty"]}
    for key, columns in shares.items():
        table = tables[key]
        for column in columns:
            for cell in table[column]:
                assert cell == "" or re.fullmatch(r"[01]\.\d{3}", cell), (key, column, cell)
        assert any(cell for column in columns for cell in table[column])


# --- 6. every segment of the listing bar can be named without hovering ---------------------------------

@needs_samples
@pytest.mark.parametrize("query", [{"ctx": "200K"}, {"ctx": "128K", "pct": "2.0"}, {"ctx": "32K", "pct": "1.0"}])
def test_listing_bar_segments_are_labeled_or_keyed(query):
    at = open_page("toolsearch/ui/costs.py", query, catalog="team-workspace")
    fig = figures(at)[0]
    assert fig["layout"]["uniformtext"] == {"minsize": 12, "mode": "hide"}  # hidden, never shrunk
    bars = [t for t in fig["data"] if t["type"] == "bar"]
    rows = literal_tables(at)["costs_listing_key"]
    assert "segment" in rows.columns
    assert len(rows) == len(bars)
    axis_max = fig["layout"]["xaxis"]["range"][1]
    unlabeled = 0
    for bar, (_, row) in zip(bars, rows.iterrows()):
        tokens = bar["x"][0]
        assert int(str(row.iloc[3]).replace(",", "")) == tokens
        if bar["name"] == "header and framing":
            assert row["segment"] == "header" and row["label on the bar"] == "— (the white segment at the end)"
            continue
        assert bar["name"].startswith(row["segment"] + " ") and bar["name"].endswith(row["server"])
        text = bar["text"][0]
        if text:
            assert text in (row["segment"], f"{row['segment']} {row['server']}")
            # fits at the narrowest plot width with 7 px per character at 12 px
            assert len(text) * 7 + 6 <= tokens / axis_max * charts.PLOT_WIDTH_MIN
            assert row["label on the bar"] == text
            assert contrast_ratio(bar["textfont"]["color"], bar["marker"]["color"]) >= 4.5
        else:
            unlabeled += 1
            assert row["label on the bar"].startswith("— (too narrow")
    if query == {"ctx": "200K"}:
        assert unlabeled > 0  # the full listing has slivers: the key is what names them


# --- 7. counts in words ---------------------------------------------------------------------------------

def test_counted_and_severity_counts():
    assert counted(0, "error") == "0 errors"
    assert counted(1, "warning") == "1 warning"
    assert counted(1_200, "query", "queries") == "1,200 queries"
    assert counted(1, "tool used", "tools used") == "1 tool used"
    assert severity_counts({"error": 0, "warning": 1, "info": 79}) == "0 errors · 1 warning · 79 info notes"
    assert severity_counts({"error": 1, "warning": 8, "info": 1}, ", ") == "1 error, 8 warnings, 1 info note"
    assert task_summary(Task(("a",), ())) == "1 skill read, 0 tools used"


@needs_samples
def test_report_counts_read_right():
    ins, config = inspector(), parse_config({})
    counts = lint(ins, config).counts()
    html_text = build_report(ins, config, 200_000, lint_report=lint(ins, config))
    assert f"<p>{severity_counts(counts)}.</p>" in html_text
    assert f"<p>{counts['error']:,} errors · {counts['warning']:,} warnings" in html_text
    text = re.sub(r"<[^>]+>", " ", html_text)
    assert "(s)" not in text
    assert not re.search(r"\b(0|[2-9]|\d{2,}) (error|warning|finding|task|tool|server|skill read)\b", text)


def test_cli_lint_summary_reads_right():
    from conftest import run_cli  # noqa: PLC0415

    result = run_cli("lint", str(DEFAULT))
    first = result.stdout.splitlines()[0]
    assert re.search(r"; \d+ errors?, \d+ warnings?, \d+ info notes?$", first), first
    assert ", 0 error," not in first and " 1 warnings" not in first


@needs_samples
def test_report_lists_every_listing_bar_segment_under_the_chart():
    at = open_page("toolsearch/ui/report.py", {"ctx": "200K"}, catalog="team-workspace")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html_text = at.session_state["report_html"]
    title = "<h2>The listing against the budget (chars4)</h2>"
    section = html_text[html_text.index(title):html_text.index("<h2>", html_text.index(title) + 5)]
    plan = inspector().plan(parse_config({}), 200_000)
    rows = charts.listing_key_rows(plan)
    assert "Key: every part of the chart, in order." in section
    assert section.count("<tr>") == 1 + len(rows)
    for row in rows:
        assert f"<td>{row['segment']}</td><td>{row['server']}</td>" in section
    assert any(r["label on the bar"].startswith("— (too narrow") for r in rows)  # the slivers are named here


@needs_samples
def test_nothing_fits_bar_reads_the_steps_tables_last_row():
    """Team workspace at 8K and 0.5 %: step 10 (core still by name) needs 159 tokens, step 11 (every
    server a summary line) 168. The bar draws step 11's makeup, so it says step 11's figure, the one
    the Overview's steps table ends on; the header segment is what the summary lines leave."""
    plan = inspector().plan(parse_config({"threshold_pct": 0.5}), 8_000)
    assert plan.listing_form == "none"
    assert [step.tokens for step in plan.steps[-2:]] == [159, 168]
    figure = charts.listing_budget_figure(plan)
    note = figure.layout.annotations[0].text
    assert note == "nothing fits: the last step tried (every server as its summary line, hatched) needs 168 tokens"
    assert [shape.x0 for shape in figure.layout.shapes if shape.line.width == 3] == [168]
    rows = charts.listing_key_rows(plan)
    assert sum(r["summary line needed (tokens)"] for r in rows) == 168
    assert rows[-1]["segment"] == "header" and rows[-1]["summary line needed (tokens)"] == 21


# --- reference lines on the listing-over-context curve -----------------------------------------------

def test_line_shade_reaches_3_to_1_and_keeps_dark_colors():
    for color in set(STATE_COLORS.values()):
        shade = palette.line_shade(color)
        assert contrast_ratio(shade, "#ffffff") >= 3.0, (color, shade)
        if contrast_ratio(color, "#ffffff") >= 3.0:
            assert shade == color
    assert palette.line_shade("#E69F00") != "#E69F00"  # orange alone is about 2:1 on white


@needs_samples
def test_listing_curve_reference_lines_reach_3_to_1_on_white():
    from toolsearch.analysis.sweep import curve_bounds, curve_context_lengths, form_grid, listing_ladder

    ins = inspector("team-workspace")
    cfg = parse_config({})
    ladder = listing_ladder(ins.planner, cfg)
    low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens, 8_000, 1_000_000)
    contexts = curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens, low, high)
    points = form_grid(ladder, cfg, contexts, [cfg.threshold_pct])
    fig = charts.listing_curve_figure(points, ladder.sizes(), 32_000).to_plotly_json()
    dashed = [t for t in fig["data"] if (t.get("line") or {}).get("dash") == "dash"]
    assert {t["name"].split(":")[0] for t in dashed} == {"full listing", "names listing", "all summary lines"}
    for trace in dashed:
        assert contrast_ratio(trace["line"]["color"], "#ffffff") >= 3.0, trace["name"]


# --- icons: only Material icons (shipped with Streamlit), never emoji a machine may lack -----------------

def test_every_icon_is_a_material_icon():
    """An emoji icon renders as an empty box where no emoji font is installed (the tier-2 banner's
    did); Material icons come with Streamlit's own font."""
    ui = Path(__file__).resolve().parent.parent / "toolsearch" / "ui"
    icons = [(path.name, match) for path in sorted(ui.glob("*.py"))
             for match in re.findall(r'icon="([^"]*)"', path.read_text(encoding="utf-8"))]
    icons += [("router.py", icon) for _stem, _title, icon in __import__("toolsearch.ui.router", fromlist=["_"]).PAGES]
    assert len(icons) > 15
    assert [i for i in icons if not i[1].startswith(":material/")] == []


def test_heat_grid_key_explains_mixed_with_this_catalogs_counts():
    """The grid's key explains the "mixed N/M" label with a cell of this grid (9 servers here), not a
    fixed "mixed 9/10" a 9-server catalog never shows; a grid with no mixed cell has no such sentence."""
    from toolsearch.ui.tables import form_grid_html
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    html = form_grid_html(form_grid(ladder, config, [8_000, 200_000], [5.0]), key="k")
    # an item of the key, as the swatches are (the key wraps between items), not loose text after " · ":
    # at 1024 px that wrapped to a line of its own beginning with the dot
    assert '<span class="example">“mixed 3/9”: 3 of 9 servers named, the rest as summary lines</span></div>' in html
    assert " · “mixed" not in html
    assert "9/10" not in html
    assert "servers named, the rest" not in form_grid_html(form_grid(ladder, config, [200_000], [5.0]), key="k")


def test_heat_grid_summary_cells_read_whole():
    """At 1024 px the Tuning page's eleven context lengths leave each cell about 46 px, narrower than
    "summary" at the grid's size: on a catalog that collapses everywhere (3,300 tools on one server)
    the word ran into its neighbours, then broke as "sum-" / "mary". It is whole in every cell, and a
    grid that shows it sizes its cells' text so that it fits its column (never larger than .8rem)."""
    from toolsearch.ui.tables import SUMMARY_EMS, form_grid_html, heat_cell_font
    config = parse_config({})
    ladder = listing_ladder(inspector("cloudflare-flat").planner, config)
    points = form_grid(ladder, config, [8_000, 200_000, 1_000_000], [5.0])
    assert {p.short_label for p in points} == {"summary"}
    html = form_grid_html(points, key="k")
    cells = re.findall(r'<td[^>]*data-form="[^"]*"[^>]*>([^<]*)</td>', html)
    assert cells == ["summary"] * 3 and "&shy;" not in html
    assert f'<div class="ts-heat" data-table="k" style="--cell-font:{heat_cell_font(3)}">' in html
    assert heat_cell_font(11) == f"min(.8rem,calc((100cqw - 2.8rem - 13px) / 11 / {SUMMARY_EMS}))"
    # a grid without "summary" keeps its size
    team = listing_ladder(inspector("team-workspace").planner, config)
    assert 'style="--cell-font' not in form_grid_html(form_grid(team, config, [200_000], [5.0]), key="k")

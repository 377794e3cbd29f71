"""Charts drawn by plotly.js in Debian's Chromium: what a reader sees, measured on the SVG.

Each figure is written to a standalone HTML file with plotly.js inlined (no request leaves the
machine) and opened at 1400 and 1024 px; the assertions read the drawn bars, lines and legend.
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import inspector_of
from toolsearch.analysis.evaluation import evaluate, load_queries
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def chromium(chromium_browser):
    """The test process's Chromium (tests/conftest.py); the contexts a test opened close after it."""
    before = set(chromium_browser.contexts)
    yield chromium_browser
    for context in chromium_browser.contexts:
        if context not in before:
            context.close()


def draw(chromium, fig, tmp_path: Path, name: str, width: int):
    """Open ``fig`` in a page ``width`` px wide; returns the page once plotly.js has drawn it."""
    path = tmp_path / f"{name}.html"
    fig.update_layout(width=width - 40)
    path.write_text(fig.to_html(include_plotlyjs=True, full_html=True), encoding="utf-8")
    page = chromium.new_context(viewport={"width": width, "height": 1000}).new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector(".js-plotly-plot .main-svg")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".js-plotly-plot").screenshot(path=str(ARTIFACTS / f"chart-{name}-{width}.png"))
    assert outside == []
    return page


#: Each bar trace's drawn bars: ``[[{top, bottom, left, right}, ...] per trace]`` (px, page).
BARS_JS = """() => Array.from(document.querySelectorAll('.barlayer .trace.bars')).map(t =>
    Array.from(t.querySelectorAll('.point path')).map(p => {
        const r = p.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
    }))"""


@pytest.mark.parametrize("width", [1400, 1024])
def test_quality_bars_are_in_table_order_top_to_bottom(chromium, tmp_path, width):
    from toolsearch.ui.quality import metrics_figure, metrics_rows

    ins = inspector_of([SAMPLES / "team-workspace.yaml"])
    ev = evaluate(ins, load_queries(SAMPLES / "queries" / "team-workspace.yaml"),
                  variants=["reference", "no-gate", "plain-bm25"])
    assert [r["variant"] for r in metrics_rows(ev)] == ["reference", "no-gate", "plain-bm25"]
    page = draw(chromium, metrics_figure(ev), tmp_path, "quality", width)
    bars = page.evaluate(BARS_JS)
    assert len(bars) == 3 and all(len(t) == 6 for t in bars)
    for metric in range(6):  # in every group, the variants top to bottom as in the table
        tops = [bars[variant][metric]["top"] for variant in range(3)]
        assert tops == sorted(tops) and len(set(tops)) == 3, (metric, tops)
    # the groups top to bottom in the table's metric order
    firsts = [bars[0][metric]["top"] for metric in range(6)]
    assert firsts == sorted(firsts)
    legend = page.evaluate("() => Array.from(document.querySelectorAll('.legend .traces .legendtext'))"
                           ".map(t => t.textContent)")
    assert legend == ["reference", "no-gate", "plain-bm25"]
    page.context.close()


@pytest.mark.parametrize("width", [1400, 1024])
def test_costs_budget_line_is_drawn_over_the_tallest_bar_with_its_label(chromium, tmp_path, width):
    from toolsearch.analysis import charts

    plan = inspector_of([SAMPLES / "team-workspace.yaml"]).plan(parse_config({}), 32_000)
    fig = charts.server_costs_figure(plan, log_y=True)
    page = draw(chromium, fig, tmp_path, "server-costs", width)
    # the dashed line is in the layer drawn after the bars, and crosses the tallest bar
    order = page.evaluate("""() => {
        const svg = document.querySelector('.js-plotly-plot');
        const dashed = Array.from(svg.querySelectorAll('.layer-above .shapelayer path'))
            .filter(p => (p.style.strokeDasharray || '') !== '' && p.style.strokeDasharray !== 'none');
        const bars = svg.querySelector('.barlayer');
        return {dashed: dashed.length,
                after: dashed.every(p => bars.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING),
                below: svg.querySelectorAll('.layer-below .shapelayer path').length,
                line: dashed.length ? (() => { const r = dashed[0].getBoundingClientRect();
                                               return {top: r.top, left: r.left, right: r.right}; })() : null};
    }""")
    assert order["dashed"] == 1 and order["after"] and order["below"] == 0, order
    tallest = max((b for trace in page.evaluate(BARS_JS) for b in trace), key=lambda b: b["bottom"] - b["top"])
    assert tallest["top"] < order["line"]["top"] < tallest["bottom"]  # the line crosses it…
    assert order["line"]["left"] <= tallest["left"] and order["line"]["right"] >= tallest["right"]  # …in full
    # its label: on a white box, right of the plot, just above the line
    label = page.evaluate("""() => Array.from(document.querySelectorAll('.annotation')).map(a => {
        const r = a.getBoundingClientRect(); const bg = a.querySelector('.bg');
        return {text: a.textContent, bottom: r.bottom, fill: bg ? bg.style.fill : ''};
    })""")
    assert [a["text"] for a in label] == [f"budget {plan.budget:,} tokens"]
    assert label[0]["fill"].replace(" ", "") in ("rgba(255,255,255,0.9)", "rgb(255,255,255)")
    assert abs(label[0]["bottom"] - order["line"]["top"]) < 6
    page.context.close()


def test_a_bar_crossing_the_budget_line_is_not_cut_by_its_halo(chromium, tmp_path):
    """The halo under the dashed budget line was opaque white, 6 px wide: on the log axis it cut a
    band out of every bar it crossed, so a server whose schemas are a little above the budget
    (sentry, 4,148 tokens against 4,000) read as ending below it, and one a little further above
    (notion) as a bar with a detached sliver. The halo now lets the bar show through: the pixel just
    under the red line, inside the halo, in the middle of a bar that crosses it, is the bar's color
    lightened, not white."""
    import io  # noqa: PLC0415

    from PIL import Image  # noqa: PLC0415

    from toolsearch.analysis import charts

    plan = inspector_of([SAMPLES / "team-workspace.yaml"]).plan(parse_config({}), 200_000)
    page = draw(chromium, charts.server_costs_figure(plan, log_y=True), tmp_path, "server-costs-halo", 1024)
    line = page.evaluate("""() => Array.from(document.querySelectorAll('.layer-above .shapelayer path'))
        .map(p => ({y: p.getBoundingClientRect().top, width: parseFloat(p.style.strokeWidth)}))""")
    center = line[-1]["y"]  # the dashed line, drawn last, over its halo
    below = center + line[-1]["width"] / 2 + 1  # under the red line, inside the wider halo
    assert line[0]["width"] > line[-1]["width"] + 2
    crossing = [b for trace in page.evaluate(BARS_JS) for b in trace if b["top"] < center - 4 and b["bottom"] > center + 4]
    assert len(crossing) >= 3  # github, grafana, slack and notion's full schemas
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    for bar in crossing:
        x = int((bar["left"] + bar["right"]) / 2)
        inside = shot.getpixel((x, int(center) + 20))  # the bar itself, under the line (a log axis bar runs to its foot)
        under_halo = shot.getpixel((x, int(below)))
        assert max(under_halo) < 235, (bar, under_halo)  # not a white gap…
        assert under_halo != inside  # …but the halo still marks the line across the bar
    page.context.close()


def test_listing_curve_legend_names_the_sidebar_line(chromium, tmp_path):
    from toolsearch.analysis import charts
    from toolsearch.analysis.sweep import curve_bounds, curve_context_lengths, form_grid, listing_ladder

    ins = inspector_of([SAMPLES / "team-workspace.yaml"])
    cfg = parse_config({})
    ladder = listing_ladder(ins.planner, cfg)
    low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens, 8_000, 1_000_000)
    points = form_grid(ladder, cfg, curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens,
                                                          low, high), [cfg.threshold_pct])
    page = draw(chromium, charts.listing_curve_figure(points, ladder.sizes(), 32_000), tmp_path, "curve", 1024)
    entries = page.evaluate("""() => Array.from(document.querySelectorAll('.legend .traces')).map(t => ({
        text: t.querySelector('.legendtext').textContent,
        dash: (t.querySelector('.legendlines path') || {style: {}}).style.strokeDasharray || ''}))""")
    sidebar = [e for e in entries if e["text"] == "sidebar context length: 32K"]  # length_label, as everywhere
    assert len(sidebar) == 1 and sidebar[0]["dash"] not in ("", "none"), entries
    page.context.close()


@pytest.mark.parametrize("context_length", [32_000, 2_000])  # label left, then right of the line
def test_collapse_chart_budget_label_stays_inside_the_chart(chromium, tmp_path, context_length):
    """The budget label sits beside its line at the bottom, on the side with room: never past the
    chart's edge, wherever the budget falls on the axis."""
    from toolsearch.analysis import charts

    plan = inspector_of([SAMPLES / "team-workspace.yaml"]).plan(parse_config({}), context_length)
    rows = charts.collapse_rows(plan)
    fig = charts.collapse_figure(rows, "chars4", plan.budget, plan.planning_tokenizer)
    page = draw(chromium, fig, tmp_path, f"collapse-{context_length}", 1024)
    box = page.evaluate("""() => {
        const chart = document.querySelector('.js-plotly-plot').getBoundingClientRect();
        const a = document.querySelector('.annotation').getBoundingClientRect();
        const line = Array.from(document.querySelectorAll('.layer-above .shapelayer path'))
            .find(p => (p.style.strokeDasharray || 'none') !== 'none').getBoundingClientRect();
        const text = document.querySelector('.annotation').textContent;
        return {text, left: a.left, right: a.right, chart_left: chart.left, chart_right: chart.right,
                line: line.left};
    }""")
    assert box["text"] == f"budget {plan.budget:,} tokens"
    assert box["chart_left"] <= box["left"] and box["right"] <= box["chart_right"], box
    assert box["right"] <= box["line"] or box["left"] >= box["line"], box  # beside the line, not across it
    page.context.close()


@pytest.mark.parametrize("width", [1400, 1024])
def test_per_server_cost_labels_do_not_overlap_with_many_servers(chromium, tmp_path, width):
    """45 servers, one with a 60-character name: each x label is one upright line, no label overlaps
    the next, and the long name is shortened so the bars keep their height."""
    import json

    from toolsearch.analysis import charts

    names = [f"server-{i:02d}" for i in range(44)] + ["x" * 60]
    catalog = {"name": "many", "servers": [
        {"name": name, "tools": [{"name": f"tool_{j}", "description": f"Does thing {j} " + "word " * (i % 9),
                                  "inputSchema": {"type": "object"}} for j in range(3 + i % 5)]}
        for i, name in enumerate(names)]}
    path = tmp_path / "many.json"
    path.write_text(json.dumps(catalog), encoding="utf-8")
    plan = Inspector.from_files([path]).plan(parse_config({}), 32_000)
    page = draw(chromium, charts.server_costs_figure(plan, log_y=True), tmp_path, "server-costs-many", width)
    ticks = page.evaluate("""() => Array.from(document.querySelectorAll('.xtick text')).map(t => {
        const r = t.getBoundingClientRect(); return {left: r.left, right: r.right, text: t.textContent}; })""")
    assert len(ticks) >= 20, ticks
    overlaps = [(a["text"], b["text"]) for a, b in zip(ticks, ticks[1:]) if a["right"] > b["left"] + 0.5]
    assert overlaps == [], overlaps
    texts = [t["text"] for t in ticks]
    assert not any("x" * 30 in t for t in texts), texts
    plot = page.evaluate("() => document.querySelector('.draglayer .nsewdrag').getBoundingClientRect().height")
    assert plot > 250, plot
    page.context.close()


#: The treemap's drawn tile labels: ``[text, shown]`` per tile (plotly.js hides, ``display: none``,
#: a label that would need less than the uniformtext minimum).
TILE_LABELS_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot g.slice')).map(g => {
    const t = g.querySelector('text.slicetext');
    return [t ? t.textContent : '', !!t && getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0];
})"""


@pytest.mark.parametrize("width", [570, 1400])
def test_treemap_labels_most_large_tool_tiles(chromium, tmp_path, width):
    """The Costs page's treemap of the 50 costliest tools, drawn 530 px wide (the main column at
    1024 px with the sidebar open) and 1360 px: at 530 px at least 12 tool tiles carry their name
    and tokens (2 did, beside a color scale that took a third of the width), at 1360 px at least 40;
    the largest tile (slack's 4,158-token tool) is always labeled."""
    from test_treemap_labels import costliest_rows  # noqa: PLC0415

    from toolsearch.analysis import charts  # noqa: PLC0415

    rows = costliest_rows()
    page = draw(chromium, charts.tool_tree_figure(rows, "chars4", 4_000), tmp_path, "tool-tree", width)
    tiles = page.evaluate(TILE_LABELS_JS)
    servers = {f"{r.server} ({r.state})" for r in rows}
    shown = [text for text, visible in tiles if visible and text.strip() and text not in servers]
    assert len(shown) >= (12 if width < 1024 else 40), shown
    assert any(text.startswith("slack_post_message") and text.endswith("4,158") for text in shown), shown
    page.context.close()

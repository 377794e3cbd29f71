"""A context length reads the same on every surface (``length_label``: ``8K``, ``12,345 tokens``):
the Overview's budget list, its overflow warning and the report's heat-table headings wrote it in
full (``8,000 tokens``, ``12,345``)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.report import build_report
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"


def _overview(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    return at


def test_overview_labels_the_context_length_of_its_budget_and_its_warning() -> None:
    at = _overview({"ctx": "8K"})
    text = "\n".join(m.value for m in at.markdown)
    assert "- Context length: **8K**\n" in text, text
    at = _overview({"ctx": "custom", "ctxn": "12345"})
    text = "\n".join(m.value for m in at.markdown)
    assert f"- Context length: **{length_label(12_345)}**\n" in text, text
    assert "- Context length: **12,345 tokens**\n" in text
    # the tools array alone larger than the context length: the warning labels it the same way
    at = _overview({"catalog": "github-full", "ctx": "custom", "ctxn": "700", "pct": "50", "cap": "200"})
    warnings = [w.value for w in at.warning if "context length" in w.value]
    assert any("larger than the context length (700 tokens): no request" in w for w in warnings), warnings
    at = _overview({"catalog": "team-workspace", "ctx": "custom", "ctxn": "1000"})
    warnings = [w.value for w in at.warning if "context length" in w.value]
    assert any("larger than the context length (1K): no request" in w for w in warnings), warnings


def test_report_heat_table_headings_are_length_labels() -> None:
    ins = inspector_of([SAMPLES / "five-servers.yaml"])
    report = build_report(ins, parse_config({}), 200_000, context_lengths=[12_345, 32_000, 1_000_000],
                          threshold_pcts=[5.0])
    section = report[report.index("<h2>Listing form over context length"):]
    table = section[section.index('<table class="grid">'):section.index("</table>")]
    heads = re.findall(r"<th>([^<]+)</th>", table.split("</tr>")[0])
    assert heads[-3:] == ["12,345 tokens", "32K", "1M"], heads
    assert heads[-3:] == [length_label(n) for n in (12_345, 32_000, 1_000_000)]


def test_listing_curve_labels_the_sidebar_line_with_the_length_label() -> None:
    """The listing curve's legend named the sidebar's line ``sidebar context length: 32,000 tokens``
    where every other label writes ``32K``."""
    from toolsearch.analysis import charts
    from toolsearch.analysis.sweep import curve_bounds, curve_context_lengths, form_grid, listing_ladder

    ins = inspector_of([SAMPLES / "team-workspace.yaml"])
    cfg = parse_config({})
    ladder = listing_ladder(ins.planner, cfg)
    low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens, 8_000, 1_000_000)
    points = form_grid(ladder, cfg, curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens,
                                                          low, high), [cfg.threshold_pct])
    for length, label in ((32_000, "32K"), (1_000_000, "1M"), (12_345, "12,345 tokens")):
        assert length_label(length) == label
        figure = charts.listing_curve_figure(points, ladder.sizes(), length).to_plotly_json()
        names = [trace.get("name") for trace in figure["data"] if str(trace.get("name", "")).startswith("sidebar")]
        assert names == [f"sidebar context length: {label}"], names
        notes = [a["text"] for a in figure["layout"].get("annotations", []) if a["text"].startswith("sidebar")]
        assert notes == [f"sidebar: {label}"], notes

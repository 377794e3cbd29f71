"""The report's heat table (listing form over context length × threshold_pct) and the Tuning
page's read the same way: the largest threshold_pct on top, as a chart's y axis rises. The report
listed them smallest first while the Tuning page put the largest on top."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import inspector_of
from toolsearch.analysis.report import build_report
from toolsearch.analysis.sweep import HEATMAP_CONTEXT_LENGTHS, form_grid, heat_rows, listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.ui.tables import form_grid_html

ROOT = Path(__file__).absolute().parent.parent
PCTS = [2.0, 0.5, 10.0, 5.0, 150.0]  # out of order, and one the config clamps to 100


def _report_rows(html_text: str) -> list[str]:
    section = html_text[html_text.index("<h2>Listing form over context length"):]
    table = section[section.index('<table class="grid">'):section.index("</table>")]
    return re.findall(r"<tr><th>([^<]+)</th><td", table)


def _tuning_rows(html_text: str) -> list[str]:
    return re.findall(r'<th class="y" scope="row">([^<]+)</th>', html_text)


def test_report_and_tuning_heat_tables_list_threshold_pct_largest_first() -> None:
    ins = inspector_of([ROOT / "sample_catalogs" / "five-servers.yaml"])
    config = parse_config({})
    report = build_report(ins, config, 200_000, context_lengths=[32_000, 200_000], threshold_pcts=PCTS)
    tuning = form_grid_html(form_grid(listing_ladder(ins.planner, config), config, [32_000, 200_000], PCTS), key="t")
    assert _report_rows(report) == ["100%", "10%", "5%", "2%", "0.5%"]
    assert _tuning_rows(tuning) == _report_rows(report)


def test_heat_rows_are_distinct_and_descending() -> None:
    assert heat_rows([0.5, 30.0, 5.0, 5.0, 1.0]) == [30.0, 5.0, 1.0, 0.5]
    assert heat_rows(p.listing_max_tokens for p in form_grid(
        listing_ladder(inspector_of([ROOT / "sample_catalogs" / "five-servers.yaml"]).planner, parse_config({})),
        parse_config({}), HEATMAP_CONTEXT_LENGTHS[:2], [5.0], [500, 60_000, 4_000])) == [60_000, 4_000, 500]

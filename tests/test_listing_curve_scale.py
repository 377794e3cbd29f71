"""The "Listing vs budget" chart stays readable on a catalog of thousands of tools: when the
listing sizes span a wide range (a few dozen tokens of summary lines against tens of thousands
for the full listing) the y axis is logarithmic and each reference line carries its label."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from conftest import inspector_of
from toolsearch.analysis import charts
from toolsearch.analysis.sweep import curve_bounds, curve_context_lengths, form_grid, listing_ladder
from toolsearch.engine.config import parse_config

SAMPLES = Path(__file__).resolve().parent.parent / "sample_catalogs"


def curve(name: str):
    inspector = inspector_of([SAMPLES / f"{name}.yaml"])
    cfg = parse_config({})
    ladder = listing_ladder(inspector.planner, cfg)
    low, high = curve_bounds(ladder, cfg.threshold_pct, cfg.listing_max_tokens, 8_000, 1_000_000)
    points = form_grid(ladder, cfg, curve_context_lengths(ladder, cfg.threshold_pct, cfg.listing_max_tokens, low, high),
                       [cfg.threshold_pct])
    return inspector, ladder, charts.listing_curve_figure(points, ladder.sizes(), 200_000).to_plotly_json()


def test_large_catalog_gets_a_log_axis_that_shows_every_reference_line():
    inspector, ladder, fig = curve("cloudflare-flat")
    assert inspector.catalog.tool_count > 3000
    sizes = ladder.sizes()
    assert max(sizes.values()) / min(sizes.values()) > charts.CURVE_LOG_RATIO
    yaxis = fig["layout"]["yaxis"]
    assert yaxis["type"] == "log"
    low, high = yaxis["range"]
    for form, tokens in sizes.items():  # every dashed line is inside the visible range, well above the floor
        assert low < math.log10(tokens) < high, form
    # on a linear axis from 0 the summary line would sit under 0.1% of the height
    assert min(sizes.values()) / (max(sizes.values()) * 1.3) < 0.001
    dashed = [t for t in fig["data"] if (t.get("line") or {}).get("dash") == "dash"]
    assert sorted(t["text"][-1] for t in dashed) == sorted([
        f"all summary lines {sizes['groups']:,}", f"full listing {sizes['full']:,}", f"names listing {sizes['names']:,}"])


@pytest.mark.parametrize("name", ["team-workspace", "five-servers"])
def test_small_catalog_keeps_a_linear_axis_from_zero(name):
    _, ladder, fig = curve(name)
    sizes = ladder.sizes()
    assert max(sizes.values()) / min(sizes.values()) <= charts.CURVE_LOG_RATIO
    yaxis = fig["layout"]["yaxis"]
    assert yaxis.get("type") in (None, "linear") and yaxis["range"][0] == 0

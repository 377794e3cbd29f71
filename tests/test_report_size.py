"""The HTML report of the app's default catalog, built as the Report page builds it: plotly.js
embedded exactly once and the file under 6 MB (its opening time is measured by
``python -m benchmarks.report``, not here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.report import PLOTLY_MARK, build
from pages.common import DEFAULT_SAMPLE

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / f"{DEFAULT_SAMPLE}.yaml"


@pytest.mark.skipif(not CATALOG.exists(), reason="the default sample catalog is not generated")
def test_default_catalog_report_embeds_plotly_once_and_stays_under_6_mb() -> None:
    html, _, n_figures = build(CATALOG)
    assert n_figures == 2 and html.count('class="figure"') == 2
    assert html.count(PLOTLY_MARK) == 1
    assert len(re.findall(r"\* plotly\.js v\d+\.\d+\.\d+", html)) == 1  # the library's own banner
    assert html.count("Plotly.newPlot(") == 2  # both charts drawn with that one copy
    assert not re.search(r"<script[^>]+src=", html)  # nothing loaded from elsewhere
    size = len(html.encode("utf-8"))
    assert 1_000_000 < size < 6_000_000, size

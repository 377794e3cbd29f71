"""The HTML report of the app's default catalog, built as the Report page builds it: plotly.js
embedded exactly once and the file under 6 MB (its opening time is measured by
``python -m benchmarks.report``, not here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.report import PLOTLY_MARK, build
from toolsearch.ui.common import DEFAULT_SAMPLE

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


def test_report_shows_its_text_first_and_then_draws_every_chart(tmp_path, chromium_browser) -> None:
    """Opened from disk in Chromium: until plotly.js has run each chart says it is loading (no chart
    script runs while the page is parsed); after the load event both charts are drawn, the
    "Chart loading…" lines are gone, and no script error occurred."""
    from toolsearch.analysis.charts import CHART_SCRIPT_TYPE

    html, _, n_figures = build(CATALOG)
    assert html.count('class="chart-loading"') == n_figures == 2
    assert html.count(f'<script type="{CHART_SCRIPT_TYPE}">') == 2  # held back while the page is parsed
    assert html.index("<h2>Servers</h2>") < html.index("* plotly.js v")  # the tables come first in the file
    path = tmp_path / "report.html"
    path.write_text(html, encoding="utf-8")
    context = chromium_browser.new_context()  # the test process's Chromium (tests/conftest.py)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(path.as_uri(), wait_until="domcontentloaded")
        assert "toolsearch report" in page.inner_text("h1")
        page.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 2", timeout=60_000)
        assert page.locator(".chart-loading").count() == 0
        assert page.locator(".js-plotly-plot").count() == 2
    finally:
        context.close()
    assert errors == []

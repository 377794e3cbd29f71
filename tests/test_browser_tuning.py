"""Real-browser test of the Tuning page's main job, done as a harness engineer would do it.

The question: "my harness serves 32K, 200K and 1M models and connects the default sample's servers
plus the Cloudflare one; what do I ship?" ``streamlit run app.py`` (the fixtures of
tests/test_browser.py) is driven by Playwright in Debian's Chromium: the two sample catalogs are
uploaded together through the sidebar's "Upload files…" source (several files combine into one
catalog), the lengths and a 10 % headroom are typed on the Tuning page, and the answer and the
exported ``tools.tool_search`` block are read off the page, in at most six user steps. The numbers
are cross-checked with the library on the same combined catalog. A screenshot goes to
``test-artifacts/``.
"""

from __future__ import annotations

import re

import pytest

from test_browser import ARTIFACTS, ROOT, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)
from toolsearch import __version__
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.recommend import export_block, lowered_changes, recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.live.client import catalog_key

pytestmark = pytest.mark.browser

CATALOGS = [ROOT / "sample_catalogs" / "team-workspace.yaml", ROOT / "sample_catalogs" / "cloudflare-flat.yaml"]
LENGTHS_TYPED = "32k, 200k, 1m"
LENGTHS = [32_000, 200_000, 1_000_000]
HEADROOM = 10.0
MAX_STEPS = 6

TABLE_JS = """(key) => {
    const table = document.querySelector(`[data-testid=stMain] [data-table="${key}"] table`);
    if (!table) return null;
    const head = Array.from(table.querySelectorAll('thead th')).map(th => th.innerText.trim());
    return Array.from(table.querySelectorAll('tbody tr')).map(tr => Object.fromEntries(
        Array.from(tr.querySelectorAll('td')).map((td, i) => [head[i], td.innerText.trim()])));
}"""


def _metric(page, label: str) -> str:
    """The value of the main area's metric whose label is ``label``."""
    metric = page.locator("[data-testid=stMain] [data-testid=stMetric]").filter(
        has=page.locator("[data-testid=stMetricLabel]", has_text=label))
    return metric.locator("[data-testid=stMetricValue]").inner_text().strip()


def _no_exception(page, step: str) -> None:
    assert page.locator("[data-testid=stException]").count() == 0, f"an exception is shown after: {step}"


def test_ship_one_setting_for_32k_200k_1m_on_the_combined_catalog(browser, app_url):  # noqa: F811
    # What the library answers on the same combined catalog (the default sidebar settings).
    inspector = Inspector.from_files(CATALOGS)
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config)
    expected = recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=HEADROOM)
    # the question's premise: cloudflare cannot be named at 32K; the best reachable setting names it where it fits
    assert [c.servers_named for c in expected.contexts] == [9, 10, 10]
    assert [u.name for u in expected.unnamed] == ["cloudflare"]
    expected_block = export_block(expected, config, catalog_name=inspector.catalog.name,
                                  fingerprint=catalog_key(inspector.catalog), version=__version__,
                                  catalogs=[f"sample_catalogs/{path.name}" for path in CATALOGS],
                                  lowered=lowered_changes(ladder, config, expected), ladder=ladder)

    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1400, "height": 1100})
    page = context.new_page()
    steps: list[str] = []

    def done(step: str) -> None:
        """One user step is over: the page is quiet again and shows no exception."""
        steps.append(step)
        _settled(page)
        _no_exception(page, step)

    try:
        # 1. Open the app on the Tuning page.
        page.goto(f"{app_url}/tuning")
        done("open the Tuning page")
        assert page.get_by_role("heading", name="Tuning").count() >= 1

        # 2. Catalog source "Upload files…" in the sidebar, then both catalogs in one go.
        source = page.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first
        source.click()
        page.keyboard.type("Upload")
        page.keyboard.press("Enter")
        _settled(page)
        page.locator("[data-testid=stSidebar] input[type=file]").first.set_input_files([str(p) for p in CATALOGS])
        page.get_by_text(inspector.catalog.name, exact=False).first.wait_for(timeout=120_000)
        done("upload both catalogs")
        assert page.get_by_role("heading", name="Tuning").count() >= 1  # still on the Tuning page

        # 3. The context lengths the harness serves.
        lengths = page.get_by_role("textbox", name="Context lengths (tokens)")
        lengths.fill(LENGTHS_TYPED)
        lengths.press("Enter")
        done("enter the context lengths")

        # 4. Headroom for catalog growth.
        headroom = page.get_by_role("spinbutton", name="Headroom (%)")
        headroom.fill(f"{HEADROOM:g}")
        headroom.press("Enter")
        done("set the headroom")
        assert headroom.input_value() == f"{HEADROOM:g}"  # as typed ("10"), not "10.00"

        # 5. Read the answer: the metrics, the per-length table and what cannot be named.
        page.locator("[data-testid=stMain] [data-table=tuning_multi_table]").scroll_into_view_if_needed()
        done("read the recommendation")
        main = page.inner_text("[data-testid=stMain]")
        # the fewest named at any length, and where (recommend: "9 of 10 servers named at 32K"); 200K and 1M name 10
        assert _metric(page, "Servers named at 32K") == "9 of 10"
        # cloudflare cannot be named at 32K: the answer is the best reachable setting, named so as recommend names it
        assert not expected.reached
        assert _metric(page, "Best reachable threshold_pct") == f"{expected.threshold_pct:g}%"
        assert _metric(page, "Best reachable listing_max_tokens") == f"{expected.listing_max_tokens:,} tokens"
        rows = page.evaluate(TABLE_JS, "tuning_multi_table")
        assert [r["context length"] for r in rows] == [length_label(n) for n in LENGTHS], rows
        for row, want in zip(rows, expected.contexts):
            answer = row["best reachable: listing"]
            assert f"{want.servers_named} of 10 servers named" in answer, row  # 9 at 32K, 10 where the goal fits
            listing, budget = (int(n.replace(",", "")) for n in
                               re.search(r"([\d,]+) of ([\d,]+) budget tokens", answer).groups())
            assert budget >= listing * (1 + HEADROOM / 100), f"no {HEADROOM:g}% headroom at {row['context length']}"
            assert "same form" not in row["change"], row  # never trades a named server away silently
        for got, want in zip(rows, expected.contexts):
            assert f"{want.listing_tokens:,} of {want.budget:,} budget tokens" in got["best reachable: listing"]
        assert "Not named:" in main
        reason = expected.unnamed[0].reason
        assert reason.startswith("cloudflare") and reason in main  # which server, and why
        assert f"Headroom {HEADROOM:g}%" in main

        # 6. Read (copy) the exported block.
        code = page.locator("[data-testid=stMain] [data-testid=stCode]").last
        code.scroll_into_view_if_needed()
        done("copy the tools.tool_search block")
        block = code.inner_text().strip()
        # the goal is not reached at 32K: the block is there, commented out, with why
        assert "the goal is not reached, so the block is commented out" in block
        assert re.search(rf"^#\s+threshold_pct: {re.escape(f'{expected.threshold_pct:g}')}$", block, re.M), block
        assert re.search(rf"^#\s+listing_max_tokens: {expected.listing_max_tokens}$", block, re.M), block
        assert block.index("tools:") < block.index("tool_search:") < block.index("threshold_pct:")
        comments = "\n".join(line for line in block.splitlines() if line.startswith("#"))
        assert f"toolsearch {__version__}" in comments
        assert f"fingerprint {catalog_key(inspector.catalog)}" in comments
        assert inspector.catalog.name in comments
        assert "context lengths: 32K, 200K, 1M" in comments
        assert "goal: every server at names or better" in comments
        assert f"headroom: {HEADROOM:g}%" in comments
        assert block == expected_block.strip()  # what `toolsearch recommend --yaml` prints too

        page.screenshot(path=str(ARTIFACTS / "tuning-combined-32k-200k-1m.png"), full_page=True)
        assert len(steps) <= MAX_STEPS, steps
    finally:
        context.close()

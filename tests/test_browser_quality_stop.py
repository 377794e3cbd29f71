"""The Search quality page in Chromium while a long evaluation runs: its progress bar moves, the
app's Stop button leaves no spinner turning as if scoring went on, and the next change scores
again to the end."""

from __future__ import annotations

import pytest
from test_browser import ROOT, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)

pytestmark = pytest.mark.browser
DATA = ROOT / "benchmarks" / "data" / "bfcl-live"


def test_stop_mid_evaluation_leaves_no_spinner_and_the_page_scores_again(browser, app_url):
    context = browser.new_context(viewport={"width": 1024, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/quality")
        _settled(page)
        side = page.locator("[data-testid=stSidebar]")
        side.locator("[data-testid=stSelectbox]").first.click()
        page.get_by_role("option", name="Upload files…").click()
        _settled(page)
        side.locator("input[type=file]").first.set_input_files(DATA / "catalog.json")
        _settled(page)
        main = page.locator("[data-testid=stMain]")
        main.get_by_text("tuned by folds (out of sample)").click()
        _settled(page)
        main.locator("[data-testid=stSelectbox]").first.click()
        page.get_by_role("option", name="Upload a query file…").click()
        _settled(page)
        main.locator("input[type=file]").first.set_input_files(DATA / "test.json")
        bar = main.locator("[data-testid=stProgress]")
        bar.first.wait_for(timeout=30_000)  # 238 tasks, 11 variants, 5 folds: seconds, not instant
        page.wait_for_timeout(1_000)
        page.get_by_role("button", name="Stop").first.click()
        page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=30_000)
        page.wait_for_timeout(2_000)
        assert main.locator("[data-testid=stSpinner]").count() == 0
        folds = main.locator("[data-testid=stNumberInput] input").first
        folds.fill("4")
        folds.press("Enter")
        _settled(page, timeout=300_000)
        assert main.locator("h3", has_text="Figures out of sample (tuned by 4 folds)").count() == 1
        assert bar.count() == 0 and main.locator("[data-testid=stSpinner]").count() == 0
    finally:
        context.close()

"""Real-browser check at 1024 px: tables, labels, chosen values and chips are read in full.

``streamlit run app.py`` (the fixtures of tests/test_browser.py) driven by Playwright in Debian's
Chromium. On each page with long-text tables, every literal-text table (pages/tables.py) fits its
box sideways, no number in it is cut, and no widget label, metric, chosen select value or chip
row in the main area is cut. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from test_browser import ARTIFACTS, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)

pytestmark = pytest.mark.browser

#: Elements whose text must never be cut: each is checked together with its descendants.
WATCHED = ", ".join((
    "[data-testid=stMain] [data-testid=stWidgetLabel]",
    "[data-testid=stMain] [data-testid=stMetricLabel]",
    "[data-testid=stMain] [data-testid=stMetricValue]",
    "[data-testid=stMain] [data-testid=stMetricDelta]",
    "[data-testid=stMain] [data-testid=stSelectbox] [data-rac]",
    "[data-testid=stMain] [data-testid=stMultiSelectTagsContainer]",
    "[data-testid=stMain] .ts-table",
    "[data-testid=stMain] .ts-table td",
    "[data-testid=stMain] .ts-table th",
))

CUT_JS = """(selector) => {
    const cut = [];
    const seen = new Set();
    for (const root of document.querySelectorAll(selector)) {
        for (const e of [root, ...root.querySelectorAll('*')]) {
            // (a select box shows its chosen value in an input: its scrollWidth is the text's width)
            if (seen.has(e) || !e.clientWidth || !e.offsetParent || e.tagName === 'svg') continue;
            seen.add(e);
            if (e.scrollWidth > e.clientWidth + 1) {
                cut.push(`${e.tagName.toLowerCase()}.${e.className || ''}[${e.closest('[data-table]') ?
                          e.closest('[data-table]').dataset.table : ''}]: ${(e.value || e.innerText || '').slice(0, 60)}`);
            }
        }
    }
    return cut;
}"""

TABLES_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-table]')).map(t => t.dataset.table)"""

#: page (url path and query) → literal-text tables it must show at its defaults.
PAGES = {
    "": ["server_table", "steps_table"],  # Overview: metrics, server and step tables
    "?catalog=cloudflare-flat": ["server_table"],  # Overview in tier 2, with its banner
    "costs": ["costs_listing_key", "costs_collapse_order"],
    "quality": ["quality_metrics", "quality_counts", "quality_tasks", "lint_table"],
    "quality?catalog=cloudflare-flat": ["lint_table"],
    "tuning": ["tuning_multi_table"],
    "strategies": ["strat_table", "strat_timeline_table", "strat_skills"],
    "search": ["search_results_1"],
    "cache_diff": ["cd_settings", "cd_collapse_servers", "cd_collapse_presets"],
    "model_view": ["mv_compare"],  # in its Compare tab
    "sessions": [],  # the replay variants' chips
}


@pytest.fixture(scope="module")
def narrow(browser):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": 1024, "height": 1000})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("path", list(PAGES))
def test_nothing_is_cut_at_1024_px(narrow, app_url, path):  # noqa: F811 - the imported fixture
    ARTIFACTS.mkdir(exist_ok=True)
    page = narrow
    page.goto(f"{app_url}/{path}")
    _settled(page)
    assert not page.locator("[data-testid=stException]").count(), path
    if path == "search":  # the Describe tab: several long tool names chosen as chips
        page.get_by_role("tab", name="Describe").click()
        _settled(page)
        chips = page.get_by_role("combobox", name="Deferred tools")
        for typed in ("mcp__github__create", "mcp__slack__slack_post", "mcp__notion__create"):
            chips.click()
            page.keyboard.type(typed)
            page.keyboard.press("Enter")
            _settled(page)
        page.keyboard.press("Escape")
        tags = page.locator("[data-testid=stMain] [data-testid=stMultiSelectTagsContainer] [data-tag]")
        assert tags.count() >= 4, tags.count()
        page.get_by_role("tab", name="Results").click()
        _settled(page)
        chip_cut = page.evaluate(CUT_JS, "[data-testid=stMain] [data-testid=stMultiSelectTagsContainer]")
        assert chip_cut == [], chip_cut
    if path == "model_view":  # the comparison table is in its own tab
        page.get_by_role("tab", name="Compare two settings").click()
        _settled(page)
    tables = page.evaluate(TABLES_JS)
    assert set(PAGES[path]) <= set(tables), tables
    name = path.replace("?catalog=", "-") or "overview"
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": 1024, "height": min(height, 9000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(ARTIFACTS / f"cut-check-{name}-1024.png"), full_page=True)
    cut = page.evaluate(CUT_JS, WATCHED)
    page.set_viewport_size({"width": 1024, "height": 1000})
    assert cut == [], f"{path} at 1024 px: cut text {cut}"

"""Real-browser check at 1024 px: tables, labels, chosen values and chips are read in full.

``streamlit run app.py`` (the fixtures of tests/test_browser.py) driven by Playwright in Debian's
Chromium. On each page with long-text tables, no cell of a literal-text table (toolsearch/ui/tables.py) is
cut, no text in one wraps inside a word of 12 characters or fewer (a table whose columns cannot
fit scrolls sideways instead), no widget label, metric, chosen select value or chip row in the
main area is cut, and no tab bar hides a tab behind its scroll arrow. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
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
    "[data-testid=stMain] .ts-table td",
    "[data-testid=stMain] .ts-table th",
    "[data-testid=stMain] .ts-heat td",  # the Tuning page's listing-form grid: "mixed 3/9" in full
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

#: Every place a literal-table cell's text wraps to a new line inside a word (a run of characters
#: between spaces, hyphens, slashes and underscores) of at most ``maxWord`` characters, found from
#: each character's rectangle (a Range per character): ``table: "kin|d" in "kind"``.
SPLIT_JS = r"""(maxWord) => {
    // For every literal-table cell: the line breaks inside it (per-character rectangles), and any
    // that falls inside a word of at most maxWord characters.
    const sep = /[\s\-\/_]/;
    const found = [];
    for (const table of document.querySelectorAll('[data-testid=stMain] .ts-table')) {
        const key = table.dataset.table;
        const cells = Array.from(table.querySelectorAll('th, td')).slice(0, 1500);
        for (const cell of cells) {
            const chars = [];  // [character, top, node boundary before it]
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            let node;
            while ((node = walker.nextNode())) {
                for (let i = 0; i < node.data.length; i++) {
                    range.setStart(node, i);
                    range.setEnd(node, i + 1);
                    const rects = range.getClientRects();
                    chars.push([node.data[i], rects.length ? rects[0].top : null, rects.length ? rects[0].height : 0]);
                }
            }
            const text = chars.map(c => c[0]).join('');
            let prev = -1;
            for (let i = 0; i < chars.length; i++) {
                if (chars[i][1] === null || /\s/.test(chars[i][0])) continue;
                if (prev >= 0 && chars[i][1] > chars[prev][1] + chars[prev][2] / 2) {
                    // a new line starts at i; was the break between two characters of one word?
                    const between = text.slice(prev + 1, i);
                    if (!sep.test(chars[prev][0]) && !sep.test(between)) {
                        let a = prev, b = i;
                        while (a > 0 && !sep.test(text[a - 1])) a--;
                        while (b < text.length - 1 && !sep.test(text[b + 1])) b++;
                        const word = text.slice(a, b + 1);
                        if (word.length <= maxWord) {
                            found.push(`${key}: "${text.slice(a, prev + 1)}|${text.slice(i, b + 1)}" in "${text.slice(0, 60)}"`);
                        }
                    }
                }
                prev = i;
            }
        }
    }
    return found;
}"""

#: Tab bars in the main area whose tabs do not all fit (the rest hide behind a scroll arrow): their labels.
SCROLLING_TABS_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [role=tablist]'))
    .filter(bar => bar.offsetParent && bar.scrollWidth > bar.clientWidth + 1)
    .map(bar => Array.from(bar.querySelectorAll('[role=tab]')).map(tab => tab.innerText))"""

TABLES_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-table]')).map(t => t.dataset.table)"""

#: page (url path and query) → literal-text tables it must show at its defaults.
PAGES = {
    "": ["server_table", "steps_table"],  # Overview: metrics, server and step tables
    "?catalog=cloudflare-flat": ["server_table"],  # Overview in tier 2, with its banner
    "costs": ["costs_listing_key", "costs_collapse_order", "server_table"],  # with the per-server table open
    "costs?catalog=cloudflare-flat": ["server_table"],  # large numbers in the narrow expander
    "quality": ["quality_metrics", "quality_counts", "quality_tasks", "lint_table"],
    "quality?catalog=cloudflare-flat": ["lint_table"],
    "tuning": ["tuning_multi_table", "tuning_collapse"],
    # with sample sessions as evidence: the checkbox that keeps the servers they called named
    "tuning?lengths=32k,200k,1m&goal=listed&sessions=state.db&keepcalled=1": ["tuning_multi_table"],
    "strategies": ["strat_table", "strat_timeline_table", "strat_skills"],
    "search": ["search_results_1"],
    "cache_diff": ["cmp_settings", "cmp_outcome", "cmp_servers", "cd_collapse_servers"],
    "sessions": [],  # the replay variants' chips
    "model_view": [],
    "report": [],
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
    if PAGES[path] and not path.startswith("costs"):  # (the Costs tables wait for a click below)
        # on a busy machine the first run may not have started when the app looks idle
        wanted = json.dumps(PAGES[path])
        page.wait_for_function(f"() => {{ const have = ({TABLES_JS})(); "
                               f"return {wanted}.every(t => have.includes(t)) }}", timeout=120_000)
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
    if path.startswith("costs"):  # the per-server table, in an expander (the narrowest box)
        page.get_by_text("Per-server table").click()
        _settled(page)
    tables = page.evaluate(TABLES_JS)
    assert set(PAGES[path]) <= set(tables), tables
    name = path.replace("?catalog=", "-").split("?")[0] + ("-sessions" if "sessions=" in path else "") or "overview"
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": 1024, "height": min(height, 9000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(ARTIFACTS / f"cut-check-{name}-1024.png"), full_page=True)
    cut = page.evaluate(CUT_JS, WATCHED)
    split = page.evaluate(SPLIT_JS, 12)
    scrolling = page.evaluate(SCROLLING_TABS_JS)
    page.set_viewport_size({"width": 1024, "height": 1000})
    assert cut == [], f"{path} at 1024 px: cut text {cut}"
    assert scrolling == [], f"{path} at 1024 px: tabs hidden behind a scroll arrow {scrolling}"
    assert split == [], f"{path} at 1024 px: words split across lines {split}"

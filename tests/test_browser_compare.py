"""Real-browser checks at 1024 and 1400 px: the Compare view (first section of Compare & collapse):
changing side B's settings and its side-by-side diff; wrapped metric rows and the search results'
tool-name column.

``streamlit run app.py`` driven by Playwright in Debian's Chromium (fixtures of
tests/test_browser.py). Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from test_browser import ARTIFACTS, _resize, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)
from test_browser_tables import SPLIT_JS

pytestmark = pytest.mark.browser

#: The split-word check of the literal tables, run over the diff's text cells instead.
DIFF_SPLIT_JS = SPLIT_JS.replace("'[data-testid=stMain] .ts-table'", "'[data-testid=stMain] .ts-diff'").replace(
    "querySelectorAll('th, td')", "querySelectorAll('td.t')")
assert DIFF_SPLIT_JS.count(".ts-diff") == 1 and "td.t" in DIFF_SPLIT_JS

#: The diff box, its table and the two text columns: widths in px.
DIFF_BOX_JS = """() => {
    const box = document.querySelector('[data-testid=stMain] .ts-diff');
    const main = document.querySelector('[data-testid=stMainBlockContainer]').getBoundingClientRect();
    const cols = Array.from(box.querySelectorAll('tbody tr.same td.t, tbody tr.changed td.t')).slice(0, 2)
        .map(td => td.getBoundingClientRect().width);
    return {scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right,
            mainRight: main.right, tableWidth: box.querySelector('table').getBoundingClientRect().width, cols,
            overflowing: Array.from(box.querySelectorAll('*')).filter(e => e.scrollWidth > e.clientWidth + 1)
                .map(e => e.tagName + '.' + e.className + ': ' + e.innerText.slice(0, 40))};
}"""


@pytest.fixture(scope="module")
def page(browser):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context.new_page()
    context.close()


def _screenshot(page, name: str, width: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(height, 9000)})
    page.wait_for_timeout(400)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": width, "height": 1000})


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the main area's selectbox labeled ``label``."""
    page.get_by_role("combobox", name=label).click()
    page.get_by_role("option", name=option, exact=True).click()
    _settled(page)


def _type_number(page, label: str, value: str) -> None:
    box = page.get_by_role("spinbutton", name=label)
    box.fill(value)
    box.press("Enter")
    _settled(page)


#: The text of each row of a literal table: {first cell: [cells]}.
TABLE_ROWS_JS = """key => Object.fromEntries(Array.from(
    document.querySelectorAll(`[data-testid=stMain] [data-table="${key}"] tbody tr`))
    .map(tr => { const cells = Array.from(tr.children).map(td => td.innerText.trim());
                 return [cells[0], cells.slice(1)]; }))"""
#: The header of a literal table.
TABLE_HEAD_JS = """key => Array.from(
    document.querySelectorAll(`[data-testid=stMain] [data-table="${key}"] thead th`)).map(th => th.innerText.trim())"""


def test_changing_b_context_length_and_cap_misses_the_cache_and_changes_servers(page, app_url):
    """A user on the default catalog at 8K: B at 32K with a cap of 1,500 tokens. The page says the
    prompt cache misses, the budget row differs, and a server changes state (outlined)."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{app_url}/cache_diff?ctx=8K")
    _settled(page)
    page.get_by_text("Prompt cache: HIT").wait_for(timeout=60_000)  # B starts equal to the sidebar
    _choose(page, "B: context length", "32K")
    _type_number(page, "B: listing_max_tokens", "1500")
    page.get_by_text("Prompt cache: MISS").wait_for(timeout=60_000)
    settings = page.evaluate(TABLE_ROWS_JS, "cmp_settings")
    assert settings["context length"] == ["8K", "32K", "●"], settings
    assert settings["listing_max_tokens"] == ["4,000", "1,500", "●"], settings
    outcome = page.evaluate(TABLE_ROWS_JS, "cmp_outcome")
    assert outcome["budget (tokens, planning tokenizer)"] == ["400", "1,500", "●"], outcome
    head = page.evaluate(TABLE_HEAD_JS, "cmp_servers")
    a, b = head.index("A (sidebar)"), head.index("B")
    servers = page.evaluate(TABLE_ROWS_JS, "cmp_servers")
    changed = {name: (cells[a - 1], cells[b - 1]) for name, cells in servers.items() if cells[a - 1] != cells[b - 1]}
    assert changed and all(x in ("names", "summary") and y in ("names", "summary") for x, y in changed.values()), servers
    outlined = page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid=stMain] [data-table=cmp_servers] td[style*="outline"]')).map(td => td.innerText.trim())""")
    assert len(outlined) == len(changed), (outlined, changed)
    page.get_by_text("Only servers that change").click()
    _settled(page)
    assert set(page.evaluate(TABLE_ROWS_JS, "cmp_servers")) == set(changed)
    _screenshot(page, "compare-view", 1400)


def test_compare_diff_fits_with_two_equal_columns(page, app_url):
    """At 1024 px and at 1400 px (the page opened once at 1024 px, then laid out again at 1400 px:
    the server sends the same page at any width) the diff of the two listings fits its column."""
    _resize(page, 1024)
    page.goto(f"{app_url}/cache_diff")
    _settled(page)
    _choose(page, "B: context length", "8K")
    page.locator(".ts-diff").wait_for(timeout=60_000)
    for width in (1024, 1400):
        _resize(page, width)
        box = page.evaluate(DIFF_BOX_JS)
        assert box["scroll"] <= box["client"] + 1, (width, box)  # never scrolls sideways
        assert box["right"] <= box["mainRight"] + 1, (width, box)  # inside the page's content column
        assert box["overflowing"] == [], (width, box["overflowing"])
        left, right = box["cols"]
        assert abs(left - right) <= 1 and left > 150, (width, box)  # two equal text columns
        split = page.evaluate(DIFF_SPLIT_JS, 12)
        assert split == [], f"words of 12 characters or fewer split across lines at {width} px: {split}"
        tables = page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-table^=cmp_]'))
            .map(t => [t.dataset.table, t.scrollWidth, t.clientWidth])""")
        assert {t[0] for t in tables} == {"cmp_settings", "cmp_outcome", "cmp_servers"}, tables
        assert all(scroll <= client + 1 for _, scroll, client in tables), (width, tables)  # none scrolls sideways
        _screenshot(page, "compare-diff", width)


#: For each row of metrics (a horizontal container of metrics): the vertical gaps between its lines.
METRIC_GAPS_JS = """() => {
    const out = [];
    for (const row of document.querySelectorAll('[data-testid=stMain] [data-testid=stHorizontalBlock]')) {
        const items = Array.from(row.children).filter(c => c.querySelector(':scope > [data-testid=stMetric]'));
        if (items.length < 2 || items.length !== row.children.length) continue;
        const lines = [];
        for (const item of items) {
            const r = item.getBoundingClientRect();
            const line = lines.find(l => Math.abs(l.top - r.top) < 2);
            if (line) line.bottom = Math.max(line.bottom, r.bottom); else lines.push({top: r.top, bottom: r.bottom});
        }
        lines.sort((a, b) => a.top - b.top);
        const gaps = lines.slice(1).map((l, i) => Math.round(l.top - lines[i].bottom));
        out.push({metrics: items.length, lines: lines.length, gaps});
    }
    return out;
}"""


def test_wrapped_metric_rows_stay_together_at_1024_px(page, app_url):
    """At 1024 px a metric that moves to the next line sits 16 px (the page's spacing) under its row."""
    page.set_viewport_size({"width": 1024, "height": 1000})
    wrapped = 0
    for path in ("", "model_view", "tuning", "cache_diff"):
        page.goto(f"{app_url}/{path}")
        _settled(page)
        # On a busy machine the page can read "not running" before its first run drew anything.
        page.locator("[data-testid=stMain] [data-testid=stMetric]").first.wait_for(timeout=120_000)
        _settled(page)
        rows = page.evaluate(METRIC_GAPS_JS)
        assert rows, path
        for row in rows:
            wrapped += row["lines"] > 1
            assert all(gap <= 17 for gap in row["gaps"]), (path, row)
        _screenshot(page, f"metric-rows-{path or 'overview'}", 1024)
    assert wrapped >= 2  # the Overview's and the model view's rows wrap at this width


#: Lines of text in each tool cell of the search results tables: [name, lines].
NAME_LINES_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-table^=search_results_] tbody tr'))
    .map(tr => { const td = tr.children[1]; const range = document.createRange(); range.selectNodeContents(td);
                 const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
                 return [td.innerText.replace(/\\n/g, ''), tops.size]; })"""


@pytest.mark.parametrize("width, most_lines", [(1400, 1), (1024, 2)])
def test_search_result_names_have_room(page, app_url, width, most_lines):
    """A typical wire name (up to 34 characters) is one line at 1400 px and at most two at 1024 px."""
    page.set_viewport_size({"width": width, "height": 1000})
    page.goto(f"{app_url}/search")
    _settled(page)
    page.locator("[data-table=search_results_1]").wait_for(timeout=60_000)
    names = page.evaluate(NAME_LINES_JS)
    assert len(names) >= 10 and any(len(n) >= 30 for n, _ in names), names
    assert [(n, lines) for n, lines in names if len(n) <= 34 and lines > most_lines] == []
    widths = page.evaluate("""() => Array.from(document.querySelectorAll('[data-table^=search_results_]'))
        .map(t => [t.scrollWidth, t.clientWidth])""")
    assert all(scroll <= client + 1 for scroll, client in widths), widths  # no sideways scroll


#: Contrast (WCAG) of the first unchanged line's text and line number in the diff against the ground
#: they are drawn on (the nearest ancestor with a background, else the page's).
DIFF_CONTRAST_JS = """() => {
    const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const ground = e => { for (; e; e = e.parentElement) { const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) return c; } return [255, 255, 255, 1]; };
    const row = document.querySelector('[data-testid=stMain] .ts-diff tbody tr.same');
    return Array.from(row.querySelectorAll('td')).slice(0, 2).map(td => ratio(rgba(getComputedStyle(td).color), ground(td)));
}"""


def test_compare_diff_reads_on_the_dark_theme(browser, app_url):  # noqa: F811
    """With the browser in dark mode (Streamlit's dark theme), the diff's unchanged lines and their
    numbers reach 4.5:1 against what they are drawn on: its dark text sat on the dark page before."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{app_url}/cache_diff")
        _settled(page)
        _choose(page, "B: context length", "8K")
        page.locator(".ts-diff tbody tr.same").first.wait_for(timeout=60_000)
        number, text = page.evaluate(DIFF_CONTRAST_JS)
        assert number >= 4.5 and text >= 4.5, (number, text)
        _screenshot(page, "compare-diff-dark", 1400)
    finally:
        context.close()


#: Each code box of the main area that shows a first difference: the caret label's box and the
#: visible box of the element that scrolls it.
CARET_LABEL_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-testid=stCode] code'))
    .filter(code => code.textContent.includes('first difference')).map(code => {
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        let node, label = null;
        while ((node = walker.nextNode())) {
            const at = node.data.indexOf('first difference');
            if (at >= 0) { const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 16);
                           label = r.getBoundingClientRect(); break; }
        }
        let box = code;
        while (box && box.scrollWidth <= box.clientWidth + 1 && box.parentElement) box = box.parentElement;
        const seen = (box || code).getBoundingClientRect();
        return {text: code.textContent.split('\\n').pop(), left: label.left, right: label.right,
                boxLeft: seen.left, boxRight: seen.right};
    })"""


def test_first_difference_caret_label_is_in_sight(page, app_url):
    """At 1024 px the code boxes under "First difference in the tools array / in the tool_search
    description" are narrower than their excerpts: the caret's label used to run past the box's edge
    ("^ first diffe"). It now ends at the caret, inside the box, without scrolling it. At 1024 px and
    at 1400 px (the page opened once at 1024 px, then laid out again at 1400 px)."""
    _resize(page, 1024)
    page.goto(f"{app_url}/cache_diff")
    _settled(page)
    _type_number(page, "B: listing_max_tokens", "1000")
    page.get_by_text("Prompt cache: MISS").wait_for(timeout=60_000)
    for width in (1024, 1400):
        _resize(page, width)
        labels = page.evaluate(CARET_LABEL_JS)
        assert len(labels) == 2, (width, labels)
        for label in labels:
            assert label["text"].rstrip().endswith("first difference ^"), (width, label)
            assert label["boxLeft"] - 1 <= label["left"] and label["right"] <= label["boxRight"] + 1, (width, label)
        _screenshot(page, "compare-caret", width)

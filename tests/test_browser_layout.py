"""Real-browser layout at 1024 px with the sidebar open (and 1400 px): long text gets room, every view is in sight.

``streamlit run app.py`` (the fixtures of tests/test_browser.py) driven by Playwright in Debian's
Chromium. The Search page's descriptions sit on a line of their own under their match when the
results table is narrow, and beside it when it is wide; every view of the Sessions and Strategies
pages can be seen and clicked without scrolling a tab bar. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest

from test_browser import ARTIFACTS, _resize, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)
from toolsearch.analysis.strategies import SKILL_LINKED, STRATEGY_LABELS

pytestmark = pytest.mark.browser

#: The Sessions page's views (toolsearch/ui/sessions.py ``VIEWS``), each with a table only it shows.
SESSIONS_VIEWS = {"Recorded vs replayed": "sessions_variant_table", "Failed searches": "sessions_failed",
                  "Listing what-if": "sessions_whatif", "Per model": "sessions_models",
                  "Timeline": "sessions_timeline", "Flags": "sessions_flags"}

#: Per row of the first results table: the table's width, and the tool and description cells' boxes.
RESULT_CELLS_JS = """() => {
    const t = document.querySelector('[data-testid=stMain] [data-table=search_results_1]');
    const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, bottom: r.bottom, width: r.width}; };
    const heads = Array.from(t.querySelectorAll('thead th')).map(th => th.innerText.replace(/\\n/g, ' '));
    const d = heads.indexOf('description (clipped)');
    return {table: t.clientWidth, heads, rows: Array.from(t.querySelectorAll('tbody tr')).map(tr => ({
        tool: box(tr.children[1]), description: box(tr.children[d]), text: tr.children[d].innerText}))};
}"""

#: Every tab of every tab bar in the main area: its label, whether the bar scrolls, and whether the
#: tab lies inside the bar's visible box.
TABS_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [role=tablist]'))
    .filter(bar => bar.offsetParent).map(bar => {
        const b = bar.getBoundingClientRect();
        return {scrolls: bar.scrollWidth > bar.clientWidth + 1, tabs: Array.from(bar.querySelectorAll('[role=tab]')).map(tab => {
            const r = tab.getBoundingClientRect();
            return [tab.innerText, r.left >= b.left - 1 && r.right <= b.right + 1];
        })};
    })"""


def _open(browser, app_url, path: str, width: int):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.goto(f"{app_url}/{path}")
    _settled(page)
    return context, page


def test_search_descriptions_have_room(browser, app_url):  # noqa: F811
    """At 1024 px (a results table about 530 px wide) each description is a line of its own under its
    tool, nearly as wide as the table; at 1400 px it is the last column, beside the tool. (The page
    is opened once at 1024 px and laid out again at 1400 px: the server sends it the same at any
    width, and which way a description goes is a CSS container query.)"""
    ARTIFACTS.mkdir(exist_ok=True)
    context, page = _open(browser, app_url, "search", 1024)
    try:
        page.locator("[data-table=search_results_1]").wait_for(timeout=120_000)
        for width in (1024, 1400):
            _resize(page, width)
            got = page.evaluate(RESULT_CELLS_JS)
            page.screenshot(path=str(ARTIFACTS / f"layout-search-{width}.png"), full_page=True)
            assert got["heads"][-1] == "description (clipped)" and len(got["rows"]) >= 3, got
            for row in got["rows"]:
                tool, description = row["tool"], row["description"]
                if width == 1024:
                    assert got["table"] < 760, got["table"]  # the narrow case this test is about
                    assert description["top"] >= tool["bottom"] - 1, row
                    assert description["width"] >= 0.8 * got["table"], (row, got["table"])
                else:
                    assert abs(description["top"] - tool["top"]) <= 1, row
                    assert description["left"] > tool["left"] + tool["width"] - 1, row
    finally:
        context.close()


def test_every_sessions_view_is_in_sight_at_1024_px(browser, app_url):  # noqa: F811
    """The Sessions page's tab bar does not scroll: each view's tab lies inside it and opens its view;
    the downloads are on the page without opening a tab."""
    context, page = _open(browser, app_url, "sessions", 1024)
    try:
        page.get_by_role("tab", name="Recorded vs replayed").wait_for(timeout=120_000)
        for label in ("Download labeled queries (YAML)", "Download the full report (JSON)"):
            page.get_by_role("button", name=label).wait_for(state="visible", timeout=60_000)  # drawn last
        _settled(page)
        bars = page.evaluate(TABS_JS)
        assert [[label for label, _ in bar["tabs"]] for bar in bars] == [list(SESSIONS_VIEWS)], bars
        assert bars[0]["scrolls"] is False and all(inside for _, inside in bars[0]["tabs"]), bars
        for view, table in SESSIONS_VIEWS.items():
            page.get_by_role("tab", name=view).click()  # no scrolling of the tab bar first
            page.locator(f"[data-testid=stMain] [data-table={table}]").wait_for(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "layout-sessions-1024.png"), full_page=True)
    finally:
        context.close()


def test_every_strategy_at_a_step_is_in_sight_at_1024_px(browser, app_url):  # noqa: F811
    """The Strategies page's step view offers every strategy as a segment inside the main column
    (they wrap onto a second row), and a click shows that strategy's tools."""
    context, page = _open(browser, app_url, "strategies", 1024)
    try:
        group = page.get_by_role("radiogroup", name="Strategy at this step")  # a segmented control
        group.wait_for(timeout=120_000)
        main = page.locator("[data-testid=stMain] [data-testid=stMainBlockContainer]").bounding_box()
        for label in STRATEGY_LABELS.values():
            button = group.get_by_role("radio", name=label, exact=True)
            box = button.bounding_box()
            assert box is not None and box["x"] >= main["x"] and box["x"] + box["width"] <= main["x"] + main["width"], label
        group.get_by_role("radio", name=STRATEGY_LABELS[SKILL_LINKED], exact=True).click()
        _settled(page)
        assert page.locator("[data-testid=stMain] [data-table=strat_visible_skill_linked]").count() == 1
        assert page.locator("[data-testid=stMain] [data-table=strat_visible_all_upfront]").count() == 0
        page.screenshot(path=str(ARTIFACTS / "layout-strategies-1024.png"), full_page=True)
    finally:
        context.close()


def test_lint_findings_and_fixes_have_room_at_1024_px(browser, app_url):  # noqa: F811
    """The lint table's finding and fix each take a line of the table's width under the rule at 1024 px."""
    context, page = _open(browser, app_url, "quality", 1024)
    try:
        table = page.locator("[data-testid=stMain] [data-table=lint_table]")
        table.wait_for(timeout=180_000)
        rows = page.evaluate("""() => Array.from(document.querySelectorAll('[data-table=lint_table] tbody tr')).slice(0, 5)
            .map(tr => Array.from(tr.children).map(td => { const r = td.getBoundingClientRect(); return [r.top, r.bottom, r.width]; }))""")
        width = page.evaluate("() => document.querySelector('[data-table=lint_table]').clientWidth")
        assert rows and width < 760
        for severity, rule, where, finding, fix in rows:
            assert finding[0] >= rule[1] - 1 and fix[0] >= finding[1] - 1, (rule, finding, fix)
            assert finding[2] >= 0.75 * width and fix[2] >= 0.75 * width, (finding, fix, width)
    finally:
        context.close()


#: Every page link in the main area: its label and whether the label is wider than its box (Streamlit
#: cuts a page link's label to one line and hides the rest).
PAGE_LINKS_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-testid=stPageLink]'))
    .filter(link => link.offsetParent).map(link => {
        const label = link.querySelector('[data-testid=stMarkdownContainer]').parentElement;
        return [label.innerText.trim(), label.scrollWidth > label.clientWidth + 1];
    })"""


@pytest.mark.parametrize("path, label", [("", "One setting to ship for every context length you run: Tuning"),
                                         ("report", "Context lengths and goal: Tuning"),
                                         ("model_view", "Compare with other settings or another catalog: "
                                                        "Compare & collapse")])
def test_page_link_labels_are_whole_at_1024_px(browser, app_url, path, label):  # noqa: F811
    """A page link's label reads in full at 1024 px with the sidebar open: the Report page's link to
    Tuning sits in a half-width column, where a longer label lost its last word."""
    context, page = _open(browser, app_url, path, 1024)
    try:
        page.locator("[data-testid=stMain] [data-testid=stPageLink]").first.wait_for(timeout=120_000)
        links = page.evaluate(PAGE_LINKS_JS)
        assert [text for text, _ in links] == [label], links
        assert not any(cut for _, cut in links), links
    finally:
        context.close()


#: Every select box in the main area: its label, the text it shows for its chosen option, and whether
#: that text is wider than its box (a select box shows its chosen option in an input, whose scrollWidth
#: is the text's width, as tests/test_browser_tables.py measures it).
SELECTS_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] [data-testid=stSelectbox]'))
    .filter(box => box.offsetParent).map(box => {
        const label = box.querySelector('[data-testid=stWidgetLabel]');
        const input = box.querySelector('input');
        return [label ? label.innerText.trim() : '', input.value, input.scrollWidth > input.clientWidth + 1];
    })"""


@pytest.mark.parametrize("width", [1024, 1400])
def test_tuning_goal_options_read_whole(browser, app_url, width):  # noqa: F811
    """The Tuning page's goal selector at 1024 px with the sidebar open showed "every tool with its short
    description (fo…": its options are short now (the help says each in full), and every option of
    it reads whole at 1024 px and at 1400 px, as do the page's other select boxes."""
    from toolsearch.ui.tuning import GOAL_LABEL, GOAL_OPTIONS  # noqa: PLC0415

    ARTIFACTS.mkdir(exist_ok=True)
    context, page = _open(browser, app_url, "tuning?lengths=3k,200k&goal=full", width)
    try:
        page.get_by_text(GOAL_LABEL, exact=True).first.wait_for(timeout=120_000)
        for goal, option in GOAL_OPTIONS.items():
            if goal != "full":  # choose each option in turn, as a user does, and read it in the box
                page.get_by_role("combobox", name=GOAL_LABEL).click()
                page.get_by_role("option", name=option, exact=True).click()
                _settled(page)
            selects = page.evaluate(SELECTS_JS)
            goal_box = [s for s in selects if s[0] == GOAL_LABEL]
            assert goal_box and goal_box[0][1] == option, selects
            assert not any(cut for *_, cut in selects), (width, selects)
        page.screenshot(path=str(ARTIFACTS / f"layout-tuning-goal-{width}.png"), full_page=False)
    finally:
        context.close()


#: The contrast ratio (WCAG) of every text the checks name against the page's own background, as
#: ``[what, ratio]``: the Tuning page's form grid (axis labels, the "sidebar" marks and the key), the
#: outlined cell's halo, the Costs page's listing bar caption (against its own box when it has one),
#: and the Strategies page's Step slider (its value, and its two end labels). Opacity is folded into the color.
CONTRAST_JS = """(what) => {
    const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const page = rgba(getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor);
    const over = (fg, alpha) => fg.slice(0, 3).map((c, i) => c * alpha + page[i] * (1 - alpha));
    const opacity = e => { let o = 1; for (; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
    const text = e => { const cs = getComputedStyle(e); const c = rgba(cs.color); return ratio(over(c, c[3] * opacity(e)), page); };
    const out = [];
    if (what === 'grid') {
        for (const e of document.querySelectorAll('[data-testid=stMain] .ts-heat th, [data-testid=stMain] .ts-heat .at-mark, '
                                                  + '[data-testid=stMain] .ts-heat .key'))
            if (e.innerText.trim()) out.push([e.innerText.trim().split('\\n')[0], text(e)]);
        const at = document.querySelector('[data-testid=stMain] .ts-heat td.at');
        const cs = getComputedStyle(at);
        const ring = [rgba(cs.outlineColor), ...(cs.boxShadow.match(/rgba?\\([^)]*\\)/g) || []).map(rgba)];
        out.push(['outlined cell', Math.max(...ring.map(c => ratio(c, page)))]);
    } else if (what === 'step') {
        const slider = document.querySelector('[data-testid=stMain] .st-key-strat_step [data-testid=stSlider]');
        for (const e of slider.querySelectorAll('[data-testid=stSliderThumbValue] p, [data-testid=stSliderTickBar] p'))
            out.push([(e.closest('[data-testid=stSliderTickBar]') ? 'end label ' : 'value ') + e.innerText.trim(), text(e)]);
    } else {
        const note = document.querySelector('[data-testid=stMain] .js-plotly-plot .annotation-text');
        // on its own box when it has one (plotly draws an annotation's bgcolor as a rect.bg), else on the page
        const box = note.closest('.annotation').querySelector('rect.bg');
        const ground = box && Number(box.style.fillOpacity || 1) > 0 && box.style.fill !== 'rgba(0, 0, 0, 0)'
            ? over(rgba(box.style.fill), Number(box.style.fillOpacity || 1)) : page;
        out.push([note.textContent, ratio(rgba(getComputedStyle(note).fill), ground)]);
    }
    return out;
}"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_grid_labels_and_listing_caption_read_on_either_theme(browser, app_url, scheme):  # noqa: F811
    """With the browser in dark mode (Streamlit then uses its dark theme) as in light mode, the Tuning
    page's form grid labels and key reach 4.5:1 against the page, its outlined cell 3:1, and the Costs
    page's caption over the listing bar 4.5:1: they were fixed dark greys, unreadable on the dark theme."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/tuning")
        page.locator("[data-testid=stMain] .ts-heat td.at").first.wait_for(timeout=180_000)
        _settled(page)
        grid = page.evaluate(CONTRAST_JS, "grid")
        page.screenshot(path=str(ARTIFACTS / f"layout-tuning-grid-{scheme}.png"), full_page=True)
        assert any(label.startswith("listing form:") for label, _ in grid), grid
        for label, ratio in grid:
            assert ratio >= (3 if label == "outlined cell" else 4.5), (label, ratio)
        page.goto(f"{app_url}/costs")
        page.locator("[data-testid=stMain] .js-plotly-plot .annotation-text").first.wait_for(timeout=180_000)
        _settled(page)
        ((caption, ratio),) = page.evaluate(CONTRAST_JS, "bar")
        assert caption.startswith("fits:") and ratio >= 4.5, (caption, ratio)
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_strategies_step_slider_reads_on_either_theme(browser, app_url, scheme):  # noqa: F811
    """The Strategies page's Step slider at 1400 px: its value (the step's event) and its two end
    labels reach 4.5:1 against the page on either theme. Streamlit shows the end labels only while
    the slider is hovered or focused (hidden, they measure 1:1), so they are measured hovered; the
    value was drawn in the primary color, 3.9:1 on the dark theme."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/strategies")
        slider = page.locator("[data-testid=stMain] .st-key-strat_step [data-testid=stSlider]")
        slider.wait_for(timeout=180_000)
        _settled(page)
        slider.hover()
        page.wait_for_timeout(600)  # the end labels fade in
        labels = page.evaluate(CONTRAST_JS, "step")
        page.screenshot(path=str(ARTIFACTS / f"layout-strategies-step-{scheme}.png"))
        assert [label for label, _ in labels][:2] == ["value 12: call mcp__sentry__find_issues",
                                                      "end label 0: start"], labels
        assert len(labels) == 3, labels
        low = [(label, round(ratio, 2)) for label, ratio in labels if ratio < 4.5]
        assert low == [], low
    finally:
        context.close()


#: Every main-area table cell drawn on a fill of its own (an inline background): its text, the
#: contrast (WCAG) of its text color against that fill, and its table's key.
FILLED_CELLS_JS = """() => {
    const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    return Array.from(document.querySelectorAll('[data-testid=stMain] [data-table] td[style*="background"]'))
        .filter(td => td.innerText.trim()).map(td => { const cs = getComputedStyle(td);
            return [td.innerText.trim(), ratio(rgba(cs.color), rgba(cs.backgroundColor)),
                    td.closest('[data-table]').getAttribute('data-table')]; });
}"""


@pytest.mark.parametrize("path, tables", [("", {"steps_table", "server_table"}),
                                          ("strategies", {"strat_timeline_table"})])
def test_filled_cells_read_on_the_dark_theme(browser, app_url, path, tables):  # noqa: F811
    """In dark mode every table cell on a fill of its own reads at 4.5:1 against that fill: the
    Overview's sent degradation step (bold, on a light grey) and the Strategies timeline's shaded
    cells (cache broke, event failed) took the dark theme's light text onto their light fills."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{path}")
        page.locator("[data-testid=stMain] [data-table] td[style*=background]").first.wait_for(timeout=180_000)
        _settled(page)
        cells = page.evaluate(FILLED_CELLS_JS)
        assert tables <= {table for _, _, table in cells}, cells
        low = [(text, round(ratio, 2), table) for text, ratio, table in cells if ratio < 4.5]
        assert low == [], low
    finally:
        context.close()


#: Each "summary" cell of the Tuning page's form grid: how many lines its text takes, and its text's
#: width against the cell's.
SUMMARY_CELLS_JS = """() => Array.from(document.querySelectorAll('[data-testid=stMain] .ts-heat td[data-form=groups]'))
    .map(td => { const r = document.createRange(); r.selectNodeContents(td);
                 const rects = Array.from(r.getClientRects()).filter(x => x.width > 0);
                 return {text: td.textContent, lines: new Set(rects.map(x => Math.round(x.top))).size,
                         text_width: r.getBoundingClientRect().width, cell: td.getBoundingClientRect().width,
                         overflows: td.scrollWidth > td.clientWidth + 1}; })"""

#: The Tuning page's form grid's rows title ("threshold_pct (%)"): how many lines its text takes, and
#: where it ends against where the columns' title ("context length (tokens)") starts, on the same row.
AXIS_TITLES_JS = """() => { const box = e => { const r = document.createRange(); r.selectNodeContents(e); return r; };
    const grid = document.querySelector('[data-testid=stMain] .ts-heat');
    const corner = box(grid.querySelector('th.corner')), x = box(grid.querySelector('th.x'));
    const rects = Array.from(corner.getClientRects()).filter(r => r.width > 0);
    return {text: grid.querySelector('th.corner').textContent, lines: new Set(rects.map(r => Math.round(r.top))).size,
            end: corner.getBoundingClientRect().right, x_start: x.getBoundingClientRect().left}; }"""


def test_summary_reads_whole_in_the_tuning_grid(browser, app_url):  # noqa: F811
    """On a catalog whose listing collapses to summary lines at small budgets (issue-tracker), every
    "summary" cell of the form grid shows the word whole on one line, inside its cell: at 1024 px it
    broke as "sum-" / "mary" (and before that ran into the next cell). The rows' title, threshold_pct (%),
    reads on one line, clear of the columns' title (it broke as "threshold_" / "pct (%)"). At 1024 px and at 1400 px
    (the page opened once, then laid out again at 1400 px: the server sends it the same at any width)."""
    context, page = _open(browser, app_url, "tuning?catalog=issue-tracker", 1024)
    try:
        page.locator("[data-testid=stMain] .ts-heat td.at").first.wait_for(timeout=180_000)
        _settled(page)
        for width in (1024, 1400):
            _resize(page, width)
            cells = page.evaluate(SUMMARY_CELLS_JS)
            assert len(cells) >= 3, cells
            for cell in cells:
                assert cell["text"] == "summary" and cell["lines"] == 1 and not cell["overflows"], (width, cell)
                assert cell["text_width"] <= cell["cell"], (width, cell)
            # the rows' title on one line: it broke inside the name as "threshold_" / "pct (%)"
            titles = page.evaluate(AXIS_TITLES_JS)
            assert titles["text"] == "threshold_pct (%)" and titles["lines"] == 1, (width, titles)
            assert titles["end"] < titles["x_start"], (width, titles)  # clear of the columns' title
            page.locator("[data-testid=stMain] .ts-heat").first.screenshot(
                path=str(ARTIFACTS / f"layout-tuning-summary-{width}.png"))
    finally:
        context.close()


def test_every_chosen_search_variant_is_in_sight_at_1024_px(browser, app_url):  # noqa: F811
    """The Search quality page's Variants box at 1024 px: its eleven default variants wrap to six
    lines, past the five Streamlit shows before it scrolls them inside the box, and the last line was
    cut through the middle. The box shows every chosen variant whole, without scrolling."""
    context, page = _open(browser, app_url, "quality", 1024)
    try:
        box = page.locator("[data-testid=stMain] .st-key-quality_variants [data-testid=stMultiSelectTagsContainer]")
        box.wait_for(timeout=180_000)
        _settled(page)
        got = page.evaluate("""() => {
            const box = document.querySelector('[data-testid=stMain] .st-key-quality_variants [data-testid=stMultiSelectTagsContainer]');
            const seen = box.getBoundingClientRect();
            const rows = Array.from(box.querySelectorAll('[data-tag]')).map(t => t.getBoundingClientRect());
            return {scroll: box.scrollHeight, client: box.clientHeight, tags: rows.length,
                    lines: new Set(rows.map(r => Math.round(r.top))).size,
                    hidden: rows.filter(r => r.top < seen.top - 1 || r.bottom > seen.bottom + 1).length};
        }""")
        assert got["tags"] >= 11 and got["lines"] >= 6, got  # the case this test is about
        assert got["scroll"] <= got["client"] + 1 and got["hidden"] == 0, got
    finally:
        context.close()


#: A literal table's visible width and the width of what it holds (the same when nothing scrolls sideways).
TABLE_WIDTH_JS = """(key) => { const t = document.querySelector(`[data-testid=stMain] [data-table=${key}]`);
    return t ? {client: t.clientWidth, scroll: t.scrollWidth} : null; }"""


def test_per_task_and_what_if_tables_do_not_scroll_sideways(browser, app_url):  # noqa: F811
    """The Per task table (a column per variant), the per-called-tool what-if (ten columns), the
    Sessions page's Per model table (nine) and the Scopes page's side by side (twelve) scrolled
    sideways at 1024 px; each is now split into tables of at most eight columns, read in full. The
    Costs page's per-server table (nine short columns, in an expander) was 3 px wider than its box
    at 1024 px; its cells are padded less there. Checked at 1024 px and at 1400 px: each page is
    opened once at 1024 px and then laid out again at 1400 px (the server sends the same page at
    any width; the tables' narrow styles are CSS container queries, applied again on a resize)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for path, tab, keys in (("quality", None, ("quality_tasks", "quality_tasks_2")),
                            ("sessions", "Listing what-if", ("sessions_whatif", "sessions_whatif_smallest")),
                            ("sessions", "Per model", ("sessions_models", "sessions_models_events")),
                            ("scopes", "Load the sample scopes", ("scopes_compare", "scopes_reach")),
                            ("costs", "Per-server table", ("server_table",))):
        context, page = _open(browser, app_url, path, 1024)
        try:
            if tab and path == "scopes":  # no scopes yet: load the shipped sample scopes
                page.get_by_role("button", name=tab).wait_for(timeout=120_000)
                page.get_by_role("button", name=tab).click()
            elif tab and path == "costs":  # drawn when its expander is opened
                page.get_by_text(tab, exact=True).wait_for(timeout=120_000)
                page.get_by_text(tab, exact=True).click()
            elif tab:
                page.get_by_role("tab", name=tab).wait_for(timeout=120_000)
                page.get_by_role("tab", name=tab).click()
            for key in keys:
                page.locator(f"[data-testid=stMain] [data-table={key}]").wait_for(timeout=120_000)
            _settled(page)
            for width in (1024, 1400):
                _resize(page, width)
                page.screenshot(path=str(ARTIFACTS / f"layout-{path}-{keys[0]}-split-{width}.png"), full_page=True)
                for key in keys:
                    got = page.evaluate(TABLE_WIDTH_JS, key)
                    assert got is not None and got["scroll"] <= got["client"] + 1, (path, key, width, got)
        finally:
            context.close()


#: The Search page's first query card: its title's and its "Why:" line's font size (px) and opacity.
WHY_LINE_JS = """() => {
    const card = document.querySelector('[data-testid=stMain] [data-table=search_results_1]').closest('[data-testid=stVerticalBlock]');
    return Array.from(card.querySelectorAll('[data-testid=stText]')).slice(0, 2).map(e => {
        const cs = getComputedStyle(e);
        return [e.innerText.split(':')[0], parseFloat(cs.fontSize), Number(cs.opacity)];
    });
}"""


def test_query_cards_why_line_is_secondary_to_the_title(browser, app_url):  # noqa: F811
    """A query card's "Why:" line is in caption style under the card's title: smaller and dimmer.
    It was plain text as large as the title, and wrapping to three lines it read as the heading.
    At 1024 px and at 1400 px (the page opened once, then laid out again at 1400 px)."""
    context, page = _open(browser, app_url, "search", 1024)
    try:
        page.locator("[data-table=search_results_1]").wait_for(timeout=120_000)
        _settled(page)
        for width in (1024, 1400):
            _resize(page, width)
            (title, title_px, title_opacity), (why, why_px, why_opacity) = page.evaluate(WHY_LINE_JS)
            page.screenshot(path=str(ARTIFACTS / f"layout-search-why-{width}.png"))
            assert (title, why) == ("Query 1", "Why"), width
            assert why_px < title_px and why_px == 14, (width, why_px, title_px)
            assert why_opacity < title_opacity == 1, width
    finally:
        context.close()


#: Every table of the report in the Report page's preview frame that is wider than its box: whether it
#: scrolls sideways in its own box, its height against the frame's, and its scrollbar color.
PREVIEW_TABLES_JS = """() => Array.from(document.querySelectorAll('table'))
    .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => { const cs = getComputedStyle(t);
        return {head: t.querySelector('th') ? t.querySelector('th').innerText.slice(0, 40) : '', overflow: cs.overflowX,
                height: t.getBoundingClientRect().height, frame: window.innerHeight, scrollbar: cs.scrollbarColor}; })"""


def test_report_preview_tables_scroll_sideways_in_sight(browser, app_url):  # noqa: F811
    """The Report page's preview (the report in a frame about 560 px wide at 1024 px): a table wider
    than the frame scrolls sideways in its own box, at most as tall as the frame, so its scrollbar sits
    under the rows being read, and the scrollbar is always drawn (a scrollbar color turns overlay
    scrollbars off). The lint table (94 rows) was as tall as the whole report, its sideways scrollbar
    screens below the columns it cut, and overlay scrollbars showed none at all. At 1024 px and at
    1400 px: the report is built once, at 1024 px, and the page laid out again at 1400 px (the
    frame's document is the same at any width; the frame takes the page's new width)."""
    context, page = _open(browser, app_url, "report", 1024)
    try:
        page.get_by_role("button", name="Build report").wait_for(timeout=120_000)
        page.get_by_role("button", name="Build report").click()
        frame = page.locator("[data-testid=stMain] iframe")
        frame.wait_for(timeout=300_000)
        _settled(page)
        inner = frame.element_handle().content_frame()
        inner.wait_for_selector("table")
        for width in (1024, 1400):
            _resize(page, width)
            # the frame's own document has been laid out at the frame's new width
            inner.wait_for_function("w => window.innerWidth === w", arg=frame.evaluate("f => f.clientWidth"))
            wide = inner.evaluate(PREVIEW_TABLES_JS)
            frame.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"layout-report-preview-{width}.png"))
            assert len(wide) >= (5 if width == 1024 else 1), (width, wide)  # the case this test is about
            for table in wide:
                assert table["overflow"] in ("auto", "scroll") and table["height"] <= table["frame"], (width, table)
                assert table["scrollbar"] != "auto", (width, table)
    finally:
        context.close()


#: The report's per-length recommendation table (class ``outcomes``): its widths, and per header cell
#: its text and how many lines it takes.
OUTCOME_TABLE_JS = """() => { const t = document.querySelector('table.outcomes');
    return {scroll: t.scrollWidth, client: t.clientWidth, heads: Array.from(t.querySelectorAll('th')).map(th => ({
        text: th.textContent, lines: Math.round(th.getBoundingClientRect().height
            / parseFloat(getComputedStyle(th).lineHeight))}))}; }"""


@pytest.mark.parametrize("width", [1024, 1400])
def test_report_recommendation_table_fits_without_scrolling(chromium_browser, tmp_path, width):
    """The report file in a window 1024 px wide: the per-length table of the recommendation with the
    sessions' two columns (nine columns of the CLI's names, ``context_length`` … ``searches_saved``)
    scrolled sideways in its box, each name one unbreakable word. Its headers now wrap after an
    underscore where the window is narrow (the names copy as written), so the table fits; at 1400 px
    every header stays on one line."""
    from conftest import run_cli  # noqa: PLC0415

    out = tmp_path / "review.html"
    result = run_cli("report", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k,1m",
                     "--goal", "names", "--sessions", "sample_sessions/state.db", "-o", out)
    assert result.returncode == 0, result.stderr
    context = chromium_browser.new_context(viewport={"width": width, "height": 1000})
    try:
        page = context.new_page()
        page.goto(out.as_uri())
        table = page.evaluate(OUTCOME_TABLE_JS)
        page.locator("table.outcomes").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"layout-report-outcomes-{width}.png"))
        assert [h["text"] for h in table["heads"]] == [
            "context_length", "budget", "tier", "listing_form", "listing_tokens", "servers_named", "tools_named",
            "called_listed", "searches_saved"]
        assert table["scroll"] <= table["client"] + 1, table
        assert max(h["lines"] for h in table["heads"]) == (2 if width == 1024 else 1), table
    finally:
        context.close()

"""Real-browser test: ``streamlit run app.py`` on 127.0.0.1 driven by Playwright in Debian's Chromium.

Skips (with the reason) only where Chromium is absent outside CI; in CI it must run.
Screenshots are saved to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import inspector_of
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):
        raise RuntimeError("CI must have Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
                allow_module_level=True)

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser(chromium_browser, app_url):
    """The test process's Chromium (tests/conftest.py), once the app is up: tests open contexts."""
    return chromium_browser


@pytest.fixture(scope="module")
def page(browser):
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1500, "height": 1100})
    yield context.new_page()
    context.close()


def _expected_plan(catalog: str, **overrides):
    inspector = inspector_of([ROOT / "sample_catalogs" / f"{catalog}.yaml"])
    return inspector, inspector.plan(parse_config(overrides.pop("config", {})), **overrides)


def _wait_text(page, text: str, timeout: float = 90_000) -> None:
    page.get_by_text(text, exact=False).first.wait_for(timeout=timeout)


def test_overview_slider_changes_the_budget(page, app_url):
    _, plan = _expected_plan("team-workspace", context_length=200_000)
    page.goto(app_url)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    _wait_text(page, f"Tier {plan.tier}")  # the tier bar (drawn as the run finishes on a busy machine)
    assert page.get_by_text(f"Tier {plan.tier}", exact=False).count() >= 1
    page.screenshot(path=str(ARTIFACTS / "overview.png"), full_page=True)

    # Move the listing_max_tokens slider to its minimum with the keyboard, as a user would.
    slider = page.get_by_role("slider").nth(1)
    slider.focus()
    slider.press("Home")
    _, small = _expected_plan("team-workspace", context_length=200_000, config={"listing_max_tokens": 200})
    _wait_text(page, f"Budget = min(cap, percentage leg) = {small.budget:,} tokens")
    _wait_text(page, f"Form: {small.listing_form}")
    assert f"Form: {small.listing_form}" in page.inner_text("body")
    assert re.search(r"cap=200\b", page.url), page.url  # the setting is mirrored in the URL
    page.screenshot(path=str(ARTIFACTS / "overview-slider-min.png"), full_page=True)


def test_link_reproduces_the_view(page, app_url):
    _, plan = _expected_plan("five-servers", context_length=32_000, config={"threshold_pct": 2})
    page.goto(f"{app_url}/?catalog=five-servers&ctx=32K&pct=2.0")
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    # The tier bar is drawn as the run finishes, after the budget line on a busy machine.
    _wait_text(page, f"Form: {plan.listing_form}")
    assert f"Form: {plan.listing_form}" in page.inner_text("body")


def test_search_page_runs_queries(page, app_url):
    inspector, _ = _expected_plan("team-workspace", context_length=200_000)
    expected = inspector.bridge(parse_config({})).tool_search({"queries": ["slack post message", "zebra"]})
    page.goto(f"{app_url}/search")
    box = page.get_by_role("textbox", name="Queries (one per line)")
    box.wait_for(timeout=90_000)
    box.fill("slack post message\nzebra")
    box.press("Control+Enter")
    _wait_text(page, "Query 2: zebra")
    _wait_text(page, "Query 1: slack post message")
    _wait_text(page, "No matches")
    top = expected["results"][0]["matches"][0]
    page.get_by_role("tab", name="Response (exact JSON)").click()
    page.get_by_text(f'"{top}"', exact=False).filter(visible=True).first.wait_for(timeout=90_000)
    body = page.inner_text("body")
    assert '"total_available": ' + str(expected["total_available"]) in body
    assert expected["results"][1]["matches"] == []
    assert '"available_sources": ' in body  # the empty group carries the sources and the hint
    page.screenshot(path=str(ARTIFACTS / "search.png"), full_page=True)


def test_number_inputs_typed_change_the_plan(page, app_url):
    page.goto(app_url)
    _, plan = _expected_plan("team-workspace", context_length=200_000)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {plan.budget:,} tokens")
    # Type exact values, as a user tuning to 0.1% and 1 token would.
    cap = page.get_by_role("spinbutton", name="listing_max_tokens", exact=True)
    cap.fill("1234")
    cap.press("Enter")
    _, capped = _expected_plan("team-workspace", context_length=200_000, config={"listing_max_tokens": 1234})
    assert capped.budget == 1234
    _wait_text(page, f"Budget = min(cap, percentage leg) = {capped.budget:,} tokens")
    _wait_text(page, f"Form: {capped.listing_form}")
    assert f"Form: {capped.listing_form}" in page.inner_text("body")
    pct = page.get_by_role("spinbutton", name="threshold_pct (%)", exact=True)
    assert pct.input_value() == "5"  # as every surface writes a threshold_pct (5%), not 5.0
    assert page.get_by_test_id("stSliderThumbValue").nth(0).inner_text() == "5"  # the slider above it too
    pct.fill("0.3")
    pct.press("Enter")
    _, both = _expected_plan("team-workspace", context_length=200_000,
                             config={"listing_max_tokens": 1234, "threshold_pct": 0.3})
    assert both.budget == 600  # int(200,000 × 0.003)
    _wait_text(page, f"Budget = min(cap, percentage leg) = {both.budget:,} tokens")
    _wait_text(page, f"Form: {both.listing_form}")
    assert f"Form: {both.listing_form}" in page.inner_text("body")
    assert re.search(r"pct=0\.3\b", page.url) and re.search(r"cap=1234\b", page.url), page.url
    assert pct.input_value() == "0.3"
    assert page.get_by_test_id("stSliderThumbValue").nth(0).inner_text() == "0.3"
    # the slider follows the typed value, written as the rest of the app writes token counts
    assert page.get_by_test_id("stSliderThumbValue").nth(1).inner_text() == "1,234"
    page.screenshot(path=str(ARTIFACTS / "overview-number-inputs.png"), full_page=True)


def test_search_page_says_why_and_opens_the_explanation(page, app_url):
    page.goto(f"{app_url}/search")
    box = page.get_by_role("textbox", name="Queries (one per line)")
    box.wait_for(timeout=90_000)
    box.fill("send a slack message")
    box.press("Control+Enter")
    _wait_text(page, "Why: Gate term 'send' in 2 tools; excluded: 125 by the gate, 0 by the coverage floor; "
                     "best excluded: mcp__slack__slack_schedule_message (score 7.607): lacks the gate term 'send'.")
    assert "Tokens → stems:" not in page.inner_text("body")  # folded until asked for
    page.get_by_text("Full explanation of query 1").click()  # one click
    _wait_text(page, "Tokens → stems:  send → send   a → a   slack → slack   message → messag")
    page.screenshot(path=str(ARTIFACTS / "search-why.png"), full_page=True)


#: Streamlit's mark of a page that has had no script run yet (``data-test-script-state`` on the stApp
#: element, "initial" until the first run's new-session message, which sets "running" in the same render).
FIRST_RUN_PENDING_JS = """() => { const app = document.querySelector('[data-testid=stApp]');
    return !app || app.getAttribute('data-test-script-state') === 'initial'; }"""


def _settled(page, timeout: float = 120_000) -> None:
    """Wait until the app's script run has ended (Streamlit marks it on the stApp element).

    On a page that has had no run yet (just loaded: no stApp element, or its state is still
    "initial"), the first "notRunning" is the end of its first run, so that is the wait. After
    an interaction the page still reads "notRunning" until the server starts the run it asked
    for, so there the run must have had time to start (800 ms) and must then end."""
    first_run = page.evaluate(FIRST_RUN_PENDING_JS)
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=timeout)
    if first_run:
        return
    page.wait_for_timeout(800)
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=timeout)


#: Resolves once the browser has drawn two more frames (resize observers run before a frame is drawn).
NEXT_FRAMES_JS = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _resize(page, width: int, height: int = 1000) -> None:
    """Lay the open page out again at ``width`` × ``height`` px, as a user resizing the window does:
    the server is not asked again (it sends the same page at any width); the CSS applies at once,
    and whatever the page's scripts size on a resize is sized by the next frames."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(NEXT_FRAMES_JS)


MY_PAGES = ["", "model_view", "costs", "strategies", "cache_diff", "quality", "report"]


@pytest.mark.parametrize("width", [1400])
def test_pages_at_1400_px(browser, app_url, width):
    """Every page renders offline (no request leaves 127.0.0.1), no headline number is cut, and
    every chart on the Costs page carries the budget. Full-page screenshots go to test-artifacts/.
    (At 1024 px, tests/test_browser_tables.py opens every page and checks the metric values with
    every other text that must not be cut.)"""
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith(app_url) and not r.url.startswith(("data:", "blob:", "about:")) else None)
    try:
        for name in MY_PAGES:
            page.goto(f"{app_url}/{name}")
            _settled(page)
            assert not page.locator("[data-testid=stException]").count(), name
            if not name:  # the menu shows every page under its section heading, none folded away
                from toolsearch.ui.router import PAGES, SECTIONS  # noqa: PLC0415
                nav = page.locator("[data-testid=stSidebarNav]").inner_text()
                assert "View" not in nav and "more" not in nav, nav
                icons = {icon.split("/")[-1].strip(":") for _stem, _title, icon in PAGES}  # drawn as ligatures
                assert [line.strip() for line in nav.splitlines() if line.strip() and line.strip() not in icons] == [
                    item for heading, stems in SECTIONS
                    for item in (heading, *[title for stem, title, _icon in PAGES if stem in stems])]
            cut = page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid=stMetricValue]'))
                .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)""")
            assert cut == [], f"{name or 'overview'} at {width} px: truncated metric values {cut}"
            height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
            page.set_viewport_size({"width": width, "height": min(height, 8000)})
            page.wait_for_timeout(500)
            page.screenshot(path=str(ARTIFACTS / f"page-{name or 'overview'}-{width}.png"), full_page=True)
            page.set_viewport_size({"width": width, "height": 1000})
            if name == "costs":
                script = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(g => ({
                    shapes: (g.layout.shapes || []).filter(s => s.line && s.line.dash === 'dash').length,
                    title: (g.layout.title && g.layout.title.text) || '',
                    type: g.data[0] && g.data[0].type}))"""
                page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length == 4 && Array.from("
                                       "document.querySelectorAll('.js-plotly-plot')).every(g => g.layout)", timeout=60_000)
                charts = page.evaluate(script)  # the costliest tools' treemap tab is open
                page.get_by_role("tab", name="Bar chart").click()  # only the open tab is drawn
                page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length == 4 && "
                                       "!Array.from(document.querySelectorAll('.js-plotly-plot')).some("
                                       "g => g.data[0] && g.data[0].type === 'treemap')", timeout=60_000)
                charts.append(page.evaluate(script)[-1])  # the bar chart: the last chart on the page
                page.get_by_role("tab", name="Treemap (server → tool)").click()
                _settled(page)
                assert len(charts) == 5, charts
                for chart in charts:  # a dashed budget line, or the budget in the title (the treemap)
                    assert chart["shapes"] == 1 or "budget" in chart["title"].lower(), chart
        assert outside == [], outside
    finally:
        context.close()


def test_running_indicator_and_tier_change_notice(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        # Our own busy bar (hidden at rest, shown a quarter second into a run, at the top of the
        # window) and Streamlit's running indicator, both seen during a long first run (cold caches:
        # the server computes while the browser waits, so the page can be sampled often).
        bar = ("() => { const b = document.querySelector('[data-testid=busy-bar]');"
               " const a = document.querySelector('[data-testid=stApp]');"
               " if (!b || !a) return null; const r = b.getBoundingClientRect();"
               " return [a.getAttribute('data-test-script-state'), Number(getComputedStyle(b).opacity),"
               " r.top, r.height, r.width]; }")
        # Streamlit draws its running indicator only once a run has lasted a while, and may take it
        # away between two samples: an observer in the page records every time it is in the DOM.
        page.add_init_script("""new MutationObserver(() => {
            if (document.querySelector('[data-testid=stStatusWidget]')) window.__statusSeen = true;
        }).observe(document, {childList: true, subtree: true});""")
        page.goto(f"{app_url}/")  # a server's first request may run the page without app.py (no bar then)
        _settled(page)
        # A long cold run: three large samples combined, whose strategies no other test computes.
        page.goto(f"{app_url}/strategies?catalog=unreal-editor&with=cloudflare-flat,grafana-full")
        shown = []
        for _ in range(1500):
            sample = page.evaluate(bar)
            if sample is not None and sample[0] != "notRunning":
                shown.append(sample[1])
            if page.locator("[data-testid=stApp][data-test-script-state=notRunning]").count() and \
                    page.get_by_text("Per strategy").count():
                break
            page.wait_for_timeout(15)
        seen = page.evaluate("() => window.__statusSeen === true")
        assert seen, "the running indicator never showed during a run"
        assert 1 in shown, f"the busy bar never showed during a run ({len(shown)} samples while running)"
        _settled(page)
        state, opacity, top, height, width = page.evaluate(bar)
        assert (state, opacity, top) == ("notRunning", 0, 0) and height >= 3 and width >= 1000
        # A slider move that changes the tier is announced at the top of the page.
        page.goto(f"{app_url}/")
        _settled(page)
        _, before = _expected_plan("team-workspace", context_length=200_000)
        slider = page.get_by_role("slider").nth(0)  # threshold_pct
        slider.focus()
        slider.press("Home")
        _, after = _expected_plan("team-workspace", context_length=200_000, config={"threshold_pct": 0.0})
        assert (before.tier, before.listing_form) != (after.tier, after.listing_form)
        _wait_text(page, "Changed with the last setting")
        change = [f"tier {before.tier} → {after.tier}"] if before.tier != after.tier else []
        if before.listing_form != after.listing_form:
            change.append(f"form {before.listing_form} → {after.listing_form}")
        assert f"Changed with the last setting: {', '.join(change)}" in page.inner_text("body")
    finally:
        context.close()


def test_upload_stays_loaded_across_pages(browser, app_url, tmp_path):
    """Upload a catalog with one broken tool through the sidebar's file picker, as a user does: the
    problem is reported at the top, and the catalog stays loaded on other pages and back."""
    catalog = tmp_path / "mine.yaml"
    catalog.write_text("name: Mine uploaded\nservers:\n  - name: docs\n    tools:\n"
                       "      - name: search_docs\n        description: Search the docs.\n"
                       "      - description: no name here\n", encoding="utf-8")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/")
        _settled(page)
        box = page.locator("[data-testid=stSidebar] [data-testid=stSelectbox]").first
        box.click()
        page.keyboard.type("Upload")
        page.keyboard.press("Enter")
        _settled(page)
        page.locator("[data-testid=stSidebar] input[type=file]").first.set_input_files(str(catalog))
        _wait_text(page, "Catalog: Mine uploaded")
        _wait_text(page, "The catalog loaded with problems: 1 item skipped")
        page.get_by_role("link", name="Live servers").click()
        _settled(page)
        page.get_by_role("link", name="Overview").click()
        _settled(page)
        _wait_text(page, "Catalog: Mine uploaded")
        assert "mine.yaml" in page.inner_text("[data-testid=stSidebar]")  # the uploader or the "kept" line
        page.reload()  # a reload starts a new session: the upload is gone, and the page says so
        _settled(page)
        _wait_text(page, "This link was made while uploaded files were shown")
    finally:
        context.close()

"""Real-browser check: the Report page's preview runs the report in an opaque origin.

The report carries its own scripts (plotly.js, several MB). Shown through ``st.iframe`` they ran
with the app's origin (Streamlit sandboxes that frame with ``allow-same-origin allow-scripts``), so a
script in the report could read the app's page, its cookies and storage, or talk to its websocket.
Catalog text is escaped in the report; this checks the second wall: a catalog whose tool description
carries script is uploaded as a user does, the report is built, and from inside the preview frame
the origin is opaque, the app's page, cookies, storage and websocket are out of reach, a link can
neither navigate the app's window nor open a new one, and the charts still draw (and download).
"""

from __future__ import annotations

import json
import re

import pytest

from test_browser import ARTIFACTS, _settled, _wait_text, browser  # noqa: F401 - the shared browser fixture

pytestmark = pytest.mark.browser

#: A tool description that would run script if the report did not escape it, and reach the app's
#: page if the preview were same-origin.
PAYLOAD = ("<script>top.__pwned = 1; parent.document.title = 'pwned'</script>"
           "<img src=x onerror=\"top.__pwned = 2\"> Reads a page.")
CATALOG = f"""name: Hostile preview
servers:
  - name: docs
    tools:
      - name: read_page
        description: {json.dumps(PAYLOAD)}
        inputSchema: {{type: object, properties: {{url: {{type: string}}}}, required: [url]}}
      - name: search_docs
        description: Search the docs.
"""

#: Run inside the preview frame: what its scripts can reach.
REACH_JS = """async (appUrl) => {
    const tryIt = f => { try { const v = f(); return v === undefined ? 'undefined' : String(v); }
                         catch (e) { return 'throws ' + e.name; } };
    const socket = await new Promise(done => {
        let ws;
        try { ws = new WebSocket(appUrl.replace(/^http/, 'ws') + '/_stcore/stream'); }
        catch (e) { done('throws ' + e.name); return; }
        ws.onopen = () => { ws.close(); done('open'); };
        ws.onerror = () => done('refused');
        setTimeout(() => done('no answer'), 10000);
    });
    return {origin: window.origin,
            parentDocument: tryIt(() => parent.document.title),
            topDocument: tryIt(() => top.document.title),
            cookie: tryIt(() => document.cookie),
            localStorage: tryIt(() => localStorage.length),
            sessionStorage: tryIt(() => sessionStorage.length),
            topLocation: tryIt(() => { top.location.href = appUrl + '/?navigated=1'; return 'assigned'; }),
            popup: tryIt(() => window.open(appUrl + '/?popup=1')),
            socket};
}"""

#: Run inside the preview frame: the payload as text, and no element made from it.
PAYLOAD_JS = """() => ({
    text: document.body.innerText,
    scripts: Array.from(document.scripts).filter(s => s.text.includes('__pwned')).length,
    images: document.querySelectorAll('img[src=x]').length})"""


def test_report_preview_runs_in_an_opaque_origin(browser, app_url, tmp_path):  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    catalog = tmp_path / "hostile-preview.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
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
        _wait_text(page, "Catalog: Hostile preview")
        page.get_by_role("link", name="Report").click()
        _settled(page)
        page.get_by_role("button", name="Build report").click()
        frame = page.locator("[data-testid=stMain] iframe")
        frame.wait_for(timeout=300_000)
        _settled(page)
        app_page_url = page.url

        # The frame: scripts only (and downloads), never the app's origin, the top window or popups.
        sandbox = frame.get_attribute("sandbox")
        assert sandbox is not None and sorted(sandbox.split()) == ["allow-downloads", "allow-scripts"], sandbox
        assert frame.evaluate("f => Math.round(f.getBoundingClientRect().height)") == 900  # as before

        inner = frame.element_handle().content_frame()
        inner.wait_for_selector(".js-plotly-plot svg.main-svg", timeout=120_000)
        reach = inner.evaluate(REACH_JS, app_url)
        assert reach["origin"] == "null", reach
        for what in ("parentDocument", "topDocument", "cookie", "localStorage", "sessionStorage"):
            assert reach[what] == "throws SecurityError", (what, reach)
        assert reach["topLocation"].startswith("throws"), reach
        assert reach["popup"] in ("null", "throws SecurityError"), reach
        assert reach["socket"] == "refused", reach  # the app refuses a websocket from Origin: null

        # A link clicked in the report stays inside the frame: the app's window is not navigated, no
        # window opens.
        inner.evaluate("""(appUrl) => { for (const target of ['_top', '_blank', '_parent']) {
            const a = document.createElement('a'); a.href = appUrl + '/?clicked=' + target.slice(1);
            a.target = target; document.body.appendChild(a); a.click(); } }""", app_url)
        page.wait_for_timeout(2_000)
        assert page.url == app_page_url and len(context.pages) == 1, (page.url, context.pages)
        assert page.evaluate("() => [window.__pwned, document.title.includes('pwned')]") == [None, False]

        # The payload is text in the report, not script or an image.
        shown = inner.evaluate(PAYLOAD_JS)
        assert shown["scripts"] == 0 and shown["images"] == 0, shown
        assert "<script>top.__pwned = 1;" in shown["text"], shown["text"][:2000]

        # Every chart of the report draws in the preview, and its "Download plot as a PNG" works.
        charts = inner.evaluate("""() => [document.querySelectorAll('[id^=toolsearch-chart-]').length,
            Array.from(document.querySelectorAll('.js-plotly-plot')).filter(p => p.querySelector('svg.main-svg')).length]""")
        assert charts[0] >= 2 and charts[0] == charts[1], charts
        plot = inner.locator(".js-plotly-plot").first
        frame.scroll_into_view_if_needed()  # Chromium draws no frames for a cross-origin frame out of sight
        plot.scroll_into_view_if_needed()
        plot.hover()
        with page.expect_download(timeout=60_000) as download:
            inner.locator(".js-plotly-plot").first.locator(
                ".modebar-btn[data-title='Download plot as a PNG']").click()
        assert re.fullmatch(r".+\.png", download.value.suggested_filename), download.value.suggested_filename
        page.screenshot(path=str(ARTIFACTS / "report-preview-sandboxed.png"))
    finally:
        context.close()

"""Real-browser check: Streamlit's grids offer no "Download as CSV".

Streamlit's own CSV download of an ``st.dataframe`` or ``st.data_editor`` writes every cell as it
is, so an events argument, a server or a scope named ``=HYPERLINK(…)`` became a formula in a
spreadsheet (toolsearch's own CSV output puts a ``'`` before such a cell). The app hides that
button on every grid; the grid's other tools (search, fullscreen) stay.
"""

from __future__ import annotations

import pytest

from test_browser import _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)

pytestmark = pytest.mark.browser

TOOLBAR_JS = """() => [...document.querySelectorAll('[data-testid=stElementToolbarButton] button')]
    .filter(b => b.closest('[data-testid=stElementContainer]').querySelector('[data-testid=stDataFrame]'))
    .map(b => [b.getAttribute('aria-label'), b.offsetParent !== null])"""


def test_the_events_editor_has_no_csv_download(browser, app_url):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/strategies")
        _settled(page)
        page.get_by_text("Events for the timeline").first.click()
        page.locator("[data-testid=stDataFrame]").first.hover()
        page.wait_for_timeout(800)
        shown = dict(page.evaluate(TOOLBAR_JS))
    finally:
        context.close()
    assert shown.get("Search") is True and shown.get("Fullscreen") is True, shown
    assert shown.get("Download as CSV") is False, shown

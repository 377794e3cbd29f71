"""Real-browser check: a long camelCase identifier in a literal-text table breaks between its words.

``streamlit run app.py`` (the fixtures of tests/test_browser.py) driven by Playwright in Debian's
Chromium. The Search page's result tables list each tool's required arguments; Sentry's
``search_events`` needs ``naturalLanguageQuery`` (20 letters), which used to break anywhere
(``naturalLanguageQ|uery`` at 1400 px). At 1400 and 1024 px every line break inside a run of
letters in those tables falls between the words of a camelCase identifier, and at 1400 px
``organizationSlug`` is not broken at all.
"""

from __future__ import annotations

import re

import pytest

from test_browser import _resize, _settled, browser  # noqa: F401 - the shared browser fixture (app_url is in conftest)

pytestmark = pytest.mark.browser

#: Every line break inside a run of letters and digits in the search result tables, as
#: ``[word, index of the first character on the new line]`` (a Range per character).
BREAKS_JS = r"""() => {
    const found = [];
    for (const table of document.querySelectorAll('[data-testid=stMain] [data-table^=search_results] table')) {
        for (const cell of table.querySelectorAll('td')) {
            const chars = [];
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
            for (let i = 1; i < chars.length; i++) {
                const [a, b] = [chars[i - 1], chars[i]];
                if (a[1] === null || b[1] === null || !/[A-Za-z0-9]/.test(a[0]) || !/[A-Za-z0-9]/.test(b[0])) continue;
                if (b[1] > a[1] + a[2] / 2) {
                    let s = i - 1, e = i;
                    while (s > 0 && /[A-Za-z0-9]/.test(text[s - 1])) s--;
                    while (e < text.length - 1 && /[A-Za-z0-9]/.test(text[e + 1])) e++;
                    found.push([text.slice(s, e + 1), i - s]);
                }
            }
        }
    }
    return found;
}"""


def test_camel_case_arguments_break_between_their_words(browser, app_url):  # noqa: F811
    """At 1400 px and at 1024 px (the page opened once at 1400 px, then laid out again at 1024 px:
    the server sends the same page at any width) an identifier that wraps wraps between its words."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/search")
        _settled(page)
        page.wait_for_selector("[data-testid=stMain] [data-table=search_results_3]", timeout=120_000)
        assert not page.locator("[data-testid=stException]").count()
        for width in (1400, 1024):
            _resize(page, width)
            text = page.inner_text("[data-testid=stMain] [data-table=search_results_3]")
            assert "naturalLanguageQuery" in text.replace("\n", ""), text[:400]
            breaks = page.evaluate(BREAKS_JS)
            bad = [f"{word[:at]}|{word[at:]}" for word, at in breaks
                   if not (word[at - 1].islower() and word[at].isupper())
                   and all(len(piece) <= 12 for piece in re.split(r"(?<=[a-z])(?=[A-Z])", word))]
            assert bad == [], f"at {width} px, identifiers broken inside a word: {bad}"
            if width == 1400:  # the column keeps its minimum width: a 16-letter argument reads whole
                assert not [word for word, _ in breaks if word == "organizationSlug"], breaks
    finally:
        context.close()

"""Catalog text is never a live link: not in the app's Markdown, not in the HTML report.

Streamlit renders captions, alerts, expander labels and help texts as GitHub-flavoured Markdown,
whose autolinking turns ``https://…``, ``www.…`` and e-mail addresses found in the *text* into
links, after backslash escapes are resolved. So escaping characters is not enough: such a word has
to leave the text (a code span). :func:`autolinked` applies GFM's autolink rules to a Markdown
source the way the renderer sees it: code spans are not text, escapes are resolved.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from toolsearch.ui import common, text as ui_text

ROOT = Path(__file__).resolve().parent.parent
URL = "https://evil.example/x"
HOSTILE = {"name": URL, "servers": [
    {"name": "docs", "tools": [
        {"name": "search_docs", "description": "Search the docs at www.evil.example or mail admin@evil.example.",
         "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        {"name": "read_doc", "description": "Read one page.", "inputSchema": {"type": "object"}},
    ]},
]}

_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
# GFM's literal autolinks (URL with a scheme, www., e-mail), as the renderer looks for them in text.
_GFM_AUTOLINK = re.compile(r"(?i)(?:https?://|www(?=\.))[-.\w]+[^ \t\r\n]*|[-.\w+]+@[-\w]+(?:\.[-\w]+)+")


def autolinked(markdown: str) -> list[str]:
    """The words of ``markdown`` that GFM would turn into links (none inside code spans)."""
    text = _CODE_SPAN.sub(" ", markdown)
    return _GFM_AUTOLINK.findall(_ESCAPE.sub(r"\1", text))


def test_the_checker_finds_what_backslash_escapes_leave_linked():
    # The escape-only form (what the pages used) still autolinks; a code span does not.
    assert autolinked(r"Strategies: https\:/\/evil\.example/x") == ["https://evil.example/x"]
    assert autolinked("see www\\.evil\\.example") == ["www.evil.example"]
    assert autolinked("`https://evil.example/x` and ``a`b@c.de``") == []


@pytest.mark.parametrize("text", [
    URL, f"Catalog {URL}, 2 servers", "mail admin@evil.example now", "WWW.evil.example", "(http://a.b/c)",
    "xmpp:someone@evil.example", "mailto:x@evil.example", "``https://a.b/`x`", "line\nhttps://a.b",
])
def test_md_escape_never_leaves_an_autolink(text):
    shown = common.md_escape(text)
    assert autolinked(shown) == []
    # Still the same text to read: the code spans hold the words unchanged.
    words = [m.group(2).strip() for m in _CODE_SPAN.finditer(shown)]
    for word in re.split(r"\s+", text):
        if ui_text._LINKISH.search(word):
            assert word in words


def test_md_escape_keeps_other_text_literal():
    assert common.md_escape("a *b* [c](d) $x$") == r"a \*b\* \[c\]\(d\) \$x\$"
    assert common.md_escape("two\nlines") == "two lines"
    assert common.md_escape("two\nlines", keep_newlines=True) == "two\nlines"


@pytest.fixture
def router_mode(monkeypatch):
    """Run the AppTest through app.py's st.navigation router (see test_app_search_costs)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


#: Elements whose text is not Markdown (shown as plain text, code, or raw HTML without autolinking).
PLAIN = {"text", "code", "html", "iframe", "json", "exception"}


def markdown_sources(at: AppTest) -> list[str]:
    """Every Markdown string the page sends: markdown, captions, alerts, toasts, expander labels,
    widget labels and help texts."""
    found: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and getattr(node, "type", None) not in PLAIN:
            for field in ("body", "label", "help", "text"):
                value = getattr(proto, field, None)
                if isinstance(value, str) and value:
                    found.append(value)
        for child in getattr(node, "children", {}).values() if isinstance(getattr(node, "children", None), dict) else ():
            walk(child)

    walk(at._tree)
    return found


def test_report_page_shows_a_url_catalog_name_as_text(router_mode):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("hostile.yaml", yaml.safe_dump(HOSTILE).encode())]
    at.run()
    at.switch_page("toolsearch/ui/strategies.py").run()  # the Report page then names these results
    assert not at.exception, at.exception
    assert [s for s in markdown_sources(at) if autolinked(s)] == []
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    sources = markdown_sources(at)
    assert any(URL in _ESCAPE.sub(r"\1", s) for s in sources)  # the page names the catalog…
    assert [s for s in sources if autolinked(s)] == []  # …as text, never as a link
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html_text = at.session_state["report_html"]
    assert URL in html_text
    assert not re.search(r"<a\b[^>]*evil\.example", html_text, re.I)
    assert [s for s in markdown_sources(at) if autolinked(s)] == []

"""The Report page's tier bar (every page's first line) is for the sidebar's context length, while
the report's own sections are planned at the shortest of the Tuning page's lengths: at 200K the bar
read "Form: full" above a report whose first line reads "form names", with nothing on the page to
say why. A line under the length choice names both lengths and the outcome the report carries, in
the report's own words (Streamlit ``AppTest``)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent


def _report_page(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    return at


def _bar_lines(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption if str(c.value).startswith("The bar at the top")]


def test_the_page_says_which_length_the_bar_and_the_report_are_for():
    at = _report_page({"ctx": "200K", "lengths": "32k,200k,1m", "goal": "names"})
    assert _bar_lines(at) == [
        "The bar at the top is for the sidebar's context length (200K); at 32K, where the "
        "report's other sections are planned: tier 1 · form names · 9 of 9 servers named (178 tools)."]
    at.toggle(key="report_lint").set_value(False)
    at.text_area(key="report_queries").set_value("create issue")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    subtitle = re.search(r'<p class="sub">(.*?)</p>', at.session_state["report_html"]).group(1)
    assert subtitle.endswith("· tier 1 · form names · 9 of 9 servers named (178 tools)"), subtitle


def test_no_line_when_the_report_is_planned_at_the_sidebar_length():
    at = _report_page({"ctx": "32K", "lengths": "32k,200k,1m", "goal": "names"})
    assert _bar_lines(at) == []
    at = _report_page({"ctx": "200K", "lengths": "32k,200k,1m", "goal": "names"})
    at.selectbox(key="report_length").set_value("sidebar").run()
    assert _bar_lines(at) == []

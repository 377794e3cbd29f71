"""The context length of a report's single-length sections when it carries a recommendation.

``toolsearch report --context-lengths … --goal …`` without ``--context-length`` plans the header,
the settings, the budget, the servers and the rest at the shortest listed length (where the listing
is tightest) and says so beside the length; ``--context-length`` given, ``unknown`` included, still
wins. The Report page does the same with the Tuning page's lengths, through the same function
(:func:`toolsearch.analysis.review.report_context_length`), unless the sidebar's length is chosen.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis.report import esc
from toolsearch.analysis.review import report_context_length
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = ("--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10")
QUICK = ("--no-lint", "--no-strategies", "-q", "create issue")


def _budget_line(context_length: int | None) -> str:
    plan = inspector_of([TEAM]).plan(parse_config({}), context_length)
    return f"<b>Budget = min(cap, percentage leg) = {plan.budget:,} tokens</b>"


#: How the subtitle starts when the report carries a recommendation: the figures are the current settings'.
CURRENT = "Figures below at the default settings: context length"  # the defaults: named so, as recommend does


def _subtitle(html_text: str) -> str:
    return re.search(r'<p class="sub">([^<]*)</p>', html_text).group(1)


def test_report_with_lengths_is_planned_at_the_shortest_unless_a_length_is_given(tmp_path):
    out = tmp_path / "review.html"
    done = run_cli("report", TEAM, *LENGTHS, *QUICK, "-o", out)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    said = esc("32K (the shortest of --context-lengths)")
    assert _subtitle(text).startswith(f"{CURRENT} {said} · threshold_pct 5%")
    assert f"<dd>context length {said} · threshold_pct 5%" in text  # About this report
    assert f"<td>context length</td><td>{said}</td>" in text  # Settings
    assert _budget_line(32_000) in text and _budget_line(32_000) != _budget_line(None)
    assert "int(32,000 × 5 / 100) = 1,600 tokens (context length 32K, the shortest of --context-lengths)" \
        in text
    assert "fixed fallback" not in text and "threshold_pct at 32K" in text
    # --context-length given wins, unknown included, and nothing is said beside it
    for given, words, budget in (("1m", "1M", 1_000_000), ("unknown", "unknown", None)):
        done = run_cli("report", TEAM, "--context-length", given, *LENGTHS, *QUICK, "-o", out)
        assert done.returncode == 0, done.stderr
        text = out.read_text(encoding="utf-8")
        assert _subtitle(text).startswith(f"{CURRENT} {words} · threshold_pct 5%"), given
        assert "shortest of" not in text and _budget_line(budget) in text
    assert "fixed fallback: context length unknown" in text
    helped = run_cli("report", "--help")
    assert "shortest of them unless --context-length is given" in " ".join(helped.stdout.split())


def test_report_context_length_function():
    assert report_context_length(None, [200_000, None, 32_000], given=False, lengths_name="L") == (
        32_000, "the shortest of L")
    assert report_context_length(None, [200_000], given=True, lengths_name="L") == (None, "")
    assert report_context_length(64_000, None, given=False, lengths_name="L") == (64_000, "")
    assert report_context_length(64_000, [None], given=False, lengths_name="L") == (None, "")


def _report_page(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/report.py").run()
    assert not at.exception, at.exception
    at.toggle(key="report_lint").set_value(False)
    at.text_area(key="report_queries").set_value("create issue")
    return at


def test_report_page_plans_at_the_shortest_tuning_length_unless_the_sidebar_is_chosen():
    at = _report_page({"ctx": "200K", "lengths": "200k,32k,1m", "goal": "names"})
    choice = at.selectbox(key="report_length")
    assert choice.value == "shortest" and choice.options == [
        "32K (Tuning's shortest)",
        "200K (sidebar)"]
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    text = at.session_state["report_html"]
    said = esc("32K (the shortest of the Tuning page's context lengths)")
    assert _subtitle(text).startswith(f"{CURRENT} {said} · threshold_pct 5%")
    assert _budget_line(32_000) in text
    at.selectbox(key="report_length").set_value("sidebar").run()
    assert any("changed since this report was built" in w.value for w in at.warning)
    at.button(key="build_report").click().run()
    text = at.session_state["report_html"]
    assert _subtitle(text).startswith(f"{CURRENT} 200K · threshold_pct 5%")
    assert "shortest of" not in text and _budget_line(200_000) in text
    # without lengths in the link: the Tuning page's default lengths, whose shortest is 32K; the sidebar's on request
    plain = _report_page({"ctx": "unknown"})
    assert plain.selectbox(key="report_length").options == ["32K (Tuning's shortest)", "unknown (sidebar)"]
    plain.selectbox(key="report_length").set_value("sidebar").run()
    plain.button(key="build_report").click().run()
    assert _subtitle(plain.session_state["report_html"]).startswith(f"{CURRENT} unknown · ")


def test_report_length_choices_read_whole_in_their_half_width_box():
    """The choice sits in half of the page: at 1024 px wide with the sidebar open its box shows about
    38 characters, so each option, even at a 1M shortest length, fits in 36 (the longer wording cut
    off mid-word there, "… the shortest of the Tunii")."""
    at = _report_page({"ctx": "unknown", "lengths": "1m,2m", "goal": "names"})
    options = at.selectbox(key="report_length").options
    assert options == ["1M (Tuning's shortest)", "unknown (sidebar)"]
    assert max(len(o) for o in options) <= 36

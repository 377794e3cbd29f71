"""Tuning page, "Apply to the sidebar": the click makes the recommendation the sidebar's setting, but
the block to ship still says where it lists less than the settings it replaced, as ``toolsearch
recommend --yaml`` does for the same question. Before this, the "lists less than the default
settings ... at 200K (lower form: full → names)" line left the downloaded block, the page's warning
and the report once the sidebar held the recommendation."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
LOWERED = ("# lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 200K (lower form: "
           "full → names), 1M (lower form: full → names) · it is the cheapest setting that meets the goal · --goal "
           "names,200k=full,1m=full keeps what the default settings list at 200K and 1M; that goal takes threshold_pct "
           "5.1%, listing_max_tokens 4,022: a listing of 1,473 tokens at 32K (4.6% of the context), 3,656 tokens at 200K "
           "(1.8% of the context) and 3,656 tokens at 1M (0.4% of the context) · more headroom "
           "lists at least as much as the default settings at every length only from 149% headroom on")


def _block(at: AppTest) -> str:
    return next(c.value for c in at.code if c.value.startswith("# toolsearch"))


def test_applied_recommendation_keeps_saying_what_it_lists_less_than():
    cli = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k,1m", "--goal",
                  "names", "--headroom", "10", "--yaml", cwd=ROOT)
    assert cli.returncode == 0, cli.stderr
    assert LOWERED in cli.stdout.splitlines()

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m", "headroom": "10"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert _block(at) == cli.stdout.rstrip("\n")  # st.code drops the last newline

    at.button(key="tuning_apply_multi").click().run()
    assert not at.exception, at.exception
    assert (at.session_state["threshold_pct"], at.session_state["listing_max_tokens"]) == (5.1, 1621)
    assert _block(at) == cli.stdout.rstrip("\n")  # the same block as before the click, the one recommend --yaml prints
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert ("The sidebar holds a recommendation applied in place of threshold_pct 5%, listing_max_tokens 4,000. "
            "Against those settings this recommendation lists less at 200K (lower form: full → names), "
            "1M (lower form: full → names); its block says so.") in warnings, warnings

    # the report built now carries the same block
    at.switch_page("toolsearch/ui/report.py").run()
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html_text = at.session_state["report_html"]
    assert "lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 200K" in html_text

    # a sidebar moved away from the applied values is the yardstick again
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.session_state["threshold_pct"] = 10.0
    at.session_state["listing_max_tokens"] = 8000
    at.run()
    assert not at.exception, at.exception
    assert "lists less than the current settings (threshold_pct 10%, listing_max_tokens 8,000)" in _block(at)
    assert not any("The sidebar holds a recommendation applied" in w.value for w in at.warning)

"""The budget a slider or box shows is the budget every page computes with (Streamlit ``AppTest``):
a threshold_pct finer than the app's 0.1 steps is rounded, and an out-of-range threshold_pct or
listing_max_tokens is clamped as the harness clamps such a config value (and as ``toolsearch plan``
does), each with a note; never refused while the box shows the refused value."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from toolsearch.ui.common import settle_budget_value

ROOT = Path(__file__).resolve().parent.parent


def _open(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def _overview_pct(at: AppTest) -> str:
    line = next(m.value for m in at.markdown if "Percentage leg" in m.value)
    return line.split("Percentage leg: ")[1].split("\n")[0]


def _shown(at: AppTest) -> tuple[float, float, int, int]:
    return (at.sidebar.slider(key="threshold_pct").value, at.sidebar.number_input(key="threshold_pct_exact").value,
            at.sidebar.slider(key="listing_max_tokens").value, at.sidebar.number_input(key="listing_max_tokens_exact").value)


def test_settle_budget_value_rounds_and_clamps_with_a_note():
    assert settle_budget_value("threshold_pct", 2.5) == (2.5, None)
    assert settle_budget_value("threshold_pct", 0.05) == (
        0.1, "threshold_pct 0.05% is rounded to 0.1%: the app works in steps of 0.1%.")
    assert settle_budget_value("threshold_pct", 150) == (
        100.0, "threshold_pct 150 is outside 0..100, so it was clamped to 100%, as the harness clamps such a config value.")
    assert settle_budget_value("threshold_pct", -5)[0] == 0.0
    assert settle_budget_value("listing_max_tokens", 0) == (
        200, ("listing_max_tokens 0 is outside 200..60,000, so it was clamped to 200 tokens, as the harness clamps "
              "such a config value."))
    assert settle_budget_value("listing_max_tokens", 100_000)[0] == 60_000
    with pytest.raises(ValueError):
        settle_budget_value("threshold_pct", float("nan"))


def test_a_link_finer_than_the_step_is_shown_and_used_rounded():
    at = _open({"pct": "0.05"})
    assert _shown(at)[:2] == (0.1, 0.1)
    assert _overview_pct(at) == "int(200,000 × 0.1 / 100) = 200 tokens"
    assert any("pct: threshold_pct 0.05% is rounded to 0.1%" in w.value for w in at.warning), [w.value for w in at.warning]


def test_a_link_out_of_range_is_clamped_as_the_cli_does():
    at = _open({"pct": "150", "cap": "0"})
    assert _shown(at) == (100.0, 100.0, 200, 200)
    assert _overview_pct(at) == "int(200,000 × 100 / 100) = 200,000 tokens"
    texts = [w.value for w in at.warning]
    assert any("clamped to 100%" in t for t in texts) and any("clamped to 200 tokens" in t for t in texts), texts


@pytest.mark.parametrize("typed, used, pct_line", [
    (0.05, 0.1, "int(200,000 × 0.1 / 100) = 200 tokens"),
    (150.0, 100.0, "int(200,000 × 100 / 100) = 200,000 tokens"),
    (2.5, 2.5, "int(200,000 × 2.5 / 100) = 5,000 tokens"),
])
def test_a_typed_threshold_pct_is_the_one_shown_and_used(typed, used, pct_line):
    at = _open()
    at.sidebar.number_input(key="threshold_pct_exact").set_value(typed).run()
    assert not at.exception, at.exception
    assert _shown(at)[:2] == (used, used)
    assert _overview_pct(at) == pct_line
    notes = [i.value for i in at.sidebar.info if "threshold_pct" in i.value]
    assert bool(notes) == (typed != used), notes


def test_a_typed_cap_out_of_range_is_clamped_and_shown():
    at = _open()
    at.sidebar.number_input(key="listing_max_tokens_exact").set_value(0).run()
    assert not at.exception, at.exception
    assert _shown(at)[2:] == (200, 200)
    assert "- Cap (`listing_max_tokens`): 200 tokens" in "\n".join(m.value for m in at.markdown)
    assert any("clamped to 200 tokens" in i.value for i in at.sidebar.info)


def test_compare_b_box_shows_the_value_b_uses():
    at = _open({"pct": "0.05"})
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    assert at.number_input(key="cmp_b_pct").value == 0.1  # follows the sidebar's rounded value
    at.number_input(key="cmp_b_pct").set_value(0.26).run()
    assert at.number_input(key="cmp_b_pct").value == 0.3
    at.number_input(key="cmp_b_cap").set_value(99_999).run()
    assert at.number_input(key="cmp_b_cap").value == 60_000
    assert any(i.value.startswith("B: listing_max_tokens 99999") for i in at.info), [i.value for i in at.info]

"""Tuning page (Streamlit ``AppTest``): when nothing can be listed at the shortest length, the
"not reachable" box says the largest settings were taken, not "the fewest listing tokens"; the budget
metric is then named for what it is, the best reachable setting's budget."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui.common import md_escape
from toolsearch.ui.tuning import BEST_REACHABLE_BUDGET_LABEL

ROOT = Path(__file__).absolute().parent.parent


def _box(query: dict[str, str], metrics: dict | None = None) -> str:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    if metrics is not None:
        metrics.update({m.label: m.value for m in at.metric})
    return next(e.value for e in at.error if e.value.startswith("Not reachable at every listed context length"))


def test_nothing_listable_at_the_shortest_length_is_said_so():
    # (nothing listable at a length a request fits: tests/test_app_tuning_unfit.py; 100 tokens fits none)
    metrics: dict = {}
    box = _box({"lengths": "32k, 200k, 1m", "with": "cloudflare-flat"}, metrics)  # the usual case keeps its words
    assert box.endswith("9 of 10 servers at 32K, with the goal kept at 200K and 1M, where it fits, and the fewest "
                        "listing tokens."), box
    # Out of reach, the budget metric is the best reachable setting's: the largest of its lengths' budgets
    # (46,241 tokens at 200K and 1M, where the goal is kept; the cap it needs)
    assert "it needs a budget of 46,241 tokens" in box
    assert metrics[BEST_REACHABLE_BUDGET_LABEL] == "46,241 tokens", metrics
    assert "Budget needed at every length" not in metrics



def test_best_reachable_budget_is_named_for_what_it_is_and_the_cap_floor_is_explained():
    """Cloudflare alone cannot be named at 32K: the best reachable listing is one summary line of 38
    tokens. The metric said "Budget of the best reachable setting: 38 tokens" while that setting
    (threshold_pct 0.2%, listing_max_tokens 200) gives budgets of 64 and 200 tokens, which the table
    beside it shows ("38 of 64 budget tokens"): two numbers for "the setting's budget". The metric is
    the budget the best reachable listing needs, and the caption says why listing_max_tokens is above it,
    as it does when the goal is reached."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    # 32K alone: longer lengths would keep the goal and take the cap up with them
    at.query_params.update({"catalog": "cloudflare-flat", "lengths": "32k", "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert "Budget of the best reachable setting" not in metrics
    assert metrics[BEST_REACHABLE_BUDGET_LABEL] == "38 tokens", metrics
    assert metrics["Best reachable listing_max_tokens"] == "200 tokens", metrics
    captions = [c.value for c in at.caption]
    assert any(c.startswith(md_escape("listing_max_tokens 200 is its smallest value")) and "above the 38 tokens needed" in c
               for c in captions), captions


def test_the_goal_suggested_for_a_server_left_out_reaches_the_goal_when_typed_in():
    """At 16K, 32K and 1M Cloudflare's names fit at 1M only. The page suggested a goal of its own for
    16K alone ("16k=listed"), which keeps names at 32K, out of reach there too: typed into *Other goal at
    some lengths* it was still not reached. It suggests the lower goal for both short lengths, and those
    items, typed in, reach it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "16k, 32k, 1m", "goal": "names", "with": "cloudflare-flat"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    line = next(m.value for m in at.markdown if "cloudflare" in m.value and "goal of" in m.value)
    assert md_escape("a goal of their own for 16K and 32K keeps the goal at 1M (goal: ") in line
    assert md_escape("· Other goal at some lengths: 16k=listed, 32k=listed); that goal takes") in line
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "16k, 32k, 1m", "goal": "names", "goals": "16k=listed, 32k=listed",
                            "with": "cloudflare-flat"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == ["Reached at every listed context length."]

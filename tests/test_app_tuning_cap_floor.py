"""Tuning page (Streamlit ``AppTest``) and ``toolsearch recommend``: when the budget needed is below
listing_max_tokens' smallest value (200 tokens), the recommended listing_max_tokens (200) and the
budget needed (159 tokens on the team-workspace sample, goal "tool names listed") are two different
figures side by side; both surfaces say why, in the same words, and say nothing when the cap equals the
budget needed."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
LENGTHS = "32k,128k,200k,1m"
FLOOR_WORDS = ("listing_max_tokens 200 is its smallest value (a harness raises a smaller one to 200), above the "
               "159 tokens needed: where threshold_pct's share of the context length is larger, the budget is 200 tokens")


def _page(goal: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "lengths": LENGTHS, "goal": goal})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def _cli(goal: str) -> list[str]:
    result = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", LENGTHS, "--goal", goal,
                     cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _plain(markdown: str) -> str:
    return markdown.replace("\\", "")


def test_the_cap_floor_is_said_where_the_cap_is_above_the_budget_needed():
    at = _page("listed")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Recommended listing_max_tokens"] == "200 tokens", metrics
    assert metrics["Budget needed at every length"] == "159 tokens", metrics
    captions = [_plain(c.value) for c in at.caption]
    assert FLOOR_WORDS + "." in captions, captions
    lines = _cli("listed")
    assert lines[3:6] == ["listing_max_tokens: 200", "budget needed at every length: 159 tokens", FLOOR_WORDS]


def test_no_floor_words_when_the_cap_is_the_budget_needed():
    at = _page("names")
    assert not [c.value for c in at.caption if "smallest value" in c.value]
    assert not [line for line in _cli("names") if "smallest value" in line]


def test_one_listed_length_is_named_in_the_metric_labels():
    """With one context length the labels name it ("Servers named at 200K") and the budget reads
    "Budget needed" as recommend's line does: "at every length" over one length read as if others
    had been weighed."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "lengths": "200k", "goal": "listed"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    labels = [m.label for m in at.metric]
    assert "Servers named at 200K" in labels and "Budget needed" in labels, labels
    assert not [label for label in labels if "every length" in label], labels
    result = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "200k", "--goal", "listed",
                     cwd=ROOT)
    budget = next(m.value for m in at.metric if m.label == "Budget needed")
    assert f"budget needed: {budget}" in result.stdout.splitlines()

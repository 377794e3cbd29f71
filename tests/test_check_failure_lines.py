"""``toolsearch check``'s failure lines: one line per condition missed, naming every context length
it is missed at, instead of one line per condition per length. The JSON keeps one sentence per
condition in each length's ``failures``."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
GATE = ("check", TEAM, "--context-lengths", "4k,8k,16k", "--goal", "names", "--keep", "github")


def _failure_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith(("at ", "- at "))]


def test_a_condition_missed_at_three_lengths_is_one_line_naming_them() -> None:
    done = run_cli(*GATE)
    assert done.returncode == 1, done.stderr
    assert _failure_lines(done.stdout) == [
        "at 4K, 8K and 16K: github must stay named but is collapsed to a summary line within "
        "budgets of 200, 400 and 800 tokens",
        "at 4K, 8K and 16K: the listing is mixed (tier 1; 1, 3 and 6 of 9 servers named) within "
        "budgets of 200, 400 and 800 tokens; the goal needs names or better (collapsed to a summary line: github, "
        "grafana, playwright; also at 4K and 8K: linear, notion, slack; also at 4K: filesystem, sentry)"]
    assert done.stdout.splitlines()[-2].startswith("settings that reach it at every length: ")
    # the suggestion takes a large share at 4K: said as recommend says it
    assert done.stdout.splitlines()[-1].startswith("large share at 4K: the listing takes 1,473 tokens, 36.8% ")
    markdown = run_cli(*GATE, "--format", "markdown")
    assert markdown.returncode == 1
    assert len(_failure_lines(markdown.stdout)) == 2


def test_the_json_keeps_each_lengths_sentences() -> None:
    data = json.loads(run_cli(*GATE, "--json").stdout)
    assert data["passed"] is False
    assert [len(c["failures"]) for c in data["contexts"]] == [2, 2, 2]
    assert data["contexts"][0]["failures"] == [
        "github must stay named but is collapsed to a summary line within a budget of 200 tokens",
        "the listing is mixed · 1 of 9 servers named (1 tool), tier 1, within a budget of 200 tokens; the goal "
        "needs names or better (collapsed to a summary line: github, grafana, playwright, linear, notion, slack, "
        "filesystem, sentry)"]


def test_a_condition_missed_at_one_length_keeps_its_sentence() -> None:
    done = run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "full")
    assert done.returncode == 1
    assert _failure_lines(done.stdout) == [
        "at 32K: the listing is names · 9 of 9 servers named (178 tools), tier 1, within a budget of "
        "1,600 tokens; the goal needs full"]


def test_figures_that_differ_by_length_are_given_in_the_lengths_order() -> None:
    """The size limit and the headroom: one line each, with each length's figure; the headroom
    lines differ where one length could keep its room with a smaller listing and one could not."""
    done = run_cli("check", TEAM, "--context-lengths", "unknown,32k,200k", "--goal", "names", "--headroom", "10",
                   "--max-listing-tokens", "1000")
    assert done.returncode == 1
    assert _failure_lines(done.stdout) == [
        "at an unknown context length and at 32K and 200K: the listing is 3,656, 1,473 and 3,656 "
        "tokens, above the limit of 1,000",
        "at an unknown context length and at 200K: the budget of 4,000 tokens leaves 344 tokens above "
        "the 3,656-token listing; 10% headroom needs a budget of at least 4,022, or a smaller one with 10% above a "
        "smaller listing the goal still accepts (the goal needs names; this listing is full)",
        "at 32K: the budget of 1,600 tokens leaves 127 tokens above the 1,473-token listing; 10% "
        "headroom needs a budget of at least 1,621"]


def test_excepted_servers_are_left_out_of_the_collapsed_ones() -> None:
    done = run_cli("check", TEAM, CLOUDFLARE, "--context-lengths", "8k,16k,32k", "--goal", "names",
                   "--except", "cloudflare")
    assert done.returncode == 1
    assert _failure_lines(done.stdout) == [
        "at 8K and 16K: the listing is mixed (tier 1; 3 and 6 of 10 servers named) within budgets of "
        "400 and 800 tokens; the goal needs names or better (collapsed and not excepted: github, grafana, "
        "playwright; also at 8K: linear, notion, slack)"]

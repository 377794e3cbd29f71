"""``toolsearch check``'s verdict names the conditions it missed, before what it checked: a change
worse than the baseline with the goal and the size limit held read "failed …: some listing …;
listing at most 4,000 tokens", the two conditions that held. Every format says it from one
function (:func:`toolsearch.analysis.check.missed_conditions`). And the settings it suggests say,
as ``recommend`` does, where their listing takes a large share of the context."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
MONDAY = ROOT / "docs" / "examples" / "diff-monday.yaml"
TUESDAY = ROOT / "docs" / "examples" / "diff-tuesday.yaml"
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
UNREAL = ROOT / "sample_catalogs" / "unreal-editor.yaml"
WORSE = ("check", TUESDAY, "--baseline", MONDAY, "--context-lengths", "4600,200k", "--goal", "any",
         "--threshold-pct", "2", "--fail-on-worse", "--max-listing-tokens", "4000")
CHECKED = ("some listing (summary lines or better); listing at most 4,000 tokens; no worse than the baseline")


def test_a_change_worse_than_the_baseline_is_the_condition_named_in_every_format() -> None:
    text = run_cli(*WORSE)
    assert text.returncode == 1, text.stderr
    assert text.stdout.splitlines()[0] == ("toolsearch check failed at 4,600 tokens: worse than the baseline · "
                                           f"checked {CHECKED} at 4,600 tokens, 200K")
    markdown = run_cli(*WORSE, "--format", "markdown")
    assert markdown.stdout.splitlines()[0] == ("### toolsearch check failed at 4,600 tokens: worse than the baseline "
                                               f"· checked {CHECKED}")
    github = run_cli(*WORSE, "--format", "github")
    assert github.stdout.splitlines()[-1] == ("toolsearch check failed (1 condition missed): worse than the baseline "
                                              f"· checked {CHECKED} at 4,600 tokens, 200K; threshold_pct 2%, "
                                              "listing_max_tokens 4,000, planning tokenizer chars4")
    data = json.loads(run_cli(*WORSE, "--format", "json").stdout)
    assert data["missed"] == ["worse than the baseline"]


def test_a_listing_over_the_limit_is_named_beside_the_goal_missed() -> None:
    args = ("check", FIVE, "--context-lengths", "4k,1m", "--goal", "full", "--max-listing-tokens", "300")
    text = run_cli(*args)
    assert text.returncode == 1, text.stderr
    assert text.stdout.splitlines()[0] == (
        "toolsearch check failed at every length: goal missed and listing over the limit · checked every tool "
        "with its short description (form full); listing at most 300 tokens at 4K, 1M")
    assert json.loads(run_cli(*args, "--format", "json").stdout)["missed"] == ["goal missed",
                                                                                "listing over the limit"]


def test_a_passing_check_names_what_it_checked_and_misses_nothing() -> None:
    args = ("check", TUESDAY, "--baseline", TUESDAY, "--context-lengths", "4600,200k", "--goal", "any",
            "--threshold-pct", "2", "--fail-on-worse")
    done = run_cli(*args)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[0] == ("toolsearch check passed: some listing (summary lines or better); "
                                           "no worse than the baseline at 4,600 tokens, 200K")
    assert json.loads(run_cli(*args, "--format", "json").stdout)["missed"] == []


def test_suggested_settings_with_a_large_share_say_so_as_recommend_does() -> None:
    """Unreal's names need a budget of 9,637 tokens, 30.1 % of 32K: recommend says it takes a large
    share there, and check's suggestion, the same settings, says it in the same words."""
    gate = ("--context-lengths", "32k,128k,200k,1m", "--goal", "names")
    recommended = run_cli("recommend", TEAM, UNREAL, *gate)
    share = [line for line in recommended.stdout.splitlines() if line.startswith("large share ")]
    assert share == [("large share at 32K: the listing takes 9,637 tokens, 30.1% of the context, and the whole tools "
                      "array 10,853, leaving 21,147 tokens for the system prompt, the conversation and the reply; a lower "
                      "goal for that length, or a reserve for the conversation (--reserve PCT), leaves it more room")]
    text = run_cli("check", TEAM, UNREAL, *gate)
    assert text.returncode == 1
    lines = text.stdout.splitlines()
    assert lines[-2].startswith("settings that reach it at every length: threshold_pct 30.2%, listing_max_tokens 9,637")
    assert lines[-1] == share[0]
    markdown = run_cli("check", TEAM, UNREAL, *gate, "--format", "markdown").stdout
    assert f"\n- {share[0]}\n" in markdown
    github = run_cli("check", TEAM, UNREAL, *gate, "--format", "github").stdout
    assert f"::notice title=toolsearch check%3A large share::{share[0].replace('%', '%25')}\n" in github
    data = json.loads(run_cli("check", TEAM, UNREAL, *gate, "--format", "json").stdout)
    assert data["suggestion"]["large_share"] == [{"context_length": 32_000, "listing_tokens": 9_637, "share_pct": 30.1}]

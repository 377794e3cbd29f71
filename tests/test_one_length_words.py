"""With one listed context length, the lines name that length rather than "every length": the
headroom advice, the "more headroom" clause of the lists-less line, and check's suggestion."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"


def test_recommend_at_one_length_names_it() -> None:
    done = run_cli("recommend", TEAM, "--context-lengths", "200k", "--goal", "names")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[5].endswith("--headroom 10 keeps the budget at least 10% above the listing at 200K"), lines[5]
    assert lines[6].endswith(" · more headroom lists at least as much as the default settings at 200K only from 149% headroom on")
    assert "every length" not in done.stdout


def test_check_at_one_length_names_it() -> None:
    passed = run_cli("check", TEAM, "--context-lengths", "200k", "--goal", "full", "--threshold-pct", "1")
    assert passed.stdout.splitlines()[-1].startswith("settings that reach it at 200K: threshold_pct 1.9%, ")
    failed = run_cli("check", TEAM, CLOUDFLARE, "--context-lengths", "32k", "--goal", "names")
    assert failed.stdout.splitlines()[-1] == ("no setting reaches it at 32K: it needs a budget of 46,241 tokens, more "
                                              "than the whole 32K context (32,000 tokens)")
    assert "every length" not in passed.stdout + failed.stdout

"""A goal out of reach at the shortest length whose budget is past the largest ``listing_max_tokens``
too says so: "more than 100% of the shortest context length (32K)" alone read as if leaving 32K out
would reach it, while no length can (with 50 % headroom, names on team-workspace + Cloudflare needs
69,362 tokens, above 60,000). ``recommend`` and ``check`` give the same words."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = (ROOT / "sample_catalogs" / "team-workspace.yaml", ROOT / "sample_catalogs" / "cloudflare-flat.yaml")
LENGTHS = ("--context-lengths", "32k,200k,1m", "--goal", "names")
REASON = ("it needs a budget of 69,362 tokens (with 50% headroom), more than 100% of the shortest context length "
          "(32K), and more than the largest listing_max_tokens (60,000 tokens), which no context length lifts")


def test_the_reason_says_the_budget_is_past_the_largest_cap_too():
    text = run_cli("recommend", *CATALOG, *LENGTHS, "--headroom", "50")
    assert text.returncode == 1, text.stderr
    assert f"not reachable at every listed context length: {REASON}" in text.stdout.splitlines(), text.stdout
    data = json.loads(run_cli("recommend", *CATALOG, *LENGTHS, "--headroom", "50", "--json").stdout)
    assert data["reason"] == REASON
    check = run_cli("check", *CATALOG, *LENGTHS, "--headroom", "50", "--threshold-pct", "30",
                    "--listing-max-tokens", "60000")
    assert f"no setting reaches it at every length: {REASON}" in check.stdout.splitlines(), check.stdout


def test_a_budget_within_the_cap_keeps_the_short_reason():
    text = run_cli("recommend", *CATALOG, *LENGTHS)
    assert ("not reachable at every listed context length: it needs a budget of 46,241 tokens, more than 100% of "
            "the shortest context length (32K)") in text.stdout.splitlines(), text.stdout

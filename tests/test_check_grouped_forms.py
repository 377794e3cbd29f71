"""check: a goal missed at several lengths in different listing forms names each form with its
lengths, instead of "the listing is none and mixed (tier 2 and 1; …)" that left the reader to pair
forms with lengths."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
ARGS = ("check", ROOT / "sample_catalogs" / "team-workspace.yaml", "--context-lengths", "1k,2k,32k,64k",
        "--goal", "names", "--threshold-pct", "1")


def test_each_form_is_named_with_its_lengths() -> None:
    done = run_cli(*ARGS)
    assert done.returncode == 1, done.stderr
    assert ("\nat 1K, 2K, 32K and 64K: the listing is none at 1K and 2K (tier 2; 0 of 9 servers named; budgets "
            "of 10 and 20 tokens) and mixed at 32K and 64K (tier 1; 2 and 5 of 9 servers named; budgets of 320 "
            "and 640 tokens); the goal needs names or better (collapsed to a summary line: at 32K and 64K: github, "
            "grafana, playwright, linear; also at 32K: notion, slack, filesystem)\n") in done.stdout
    assert "none and mixed" not in done.stdout


def test_one_form_at_every_length_keeps_one_sentence() -> None:
    done = run_cli("check", ROOT / "sample_catalogs" / "cloudflare-flat.yaml", "--context-lengths", "32k,200k",
                   "--goal", "names")
    assert ("\nat 32K and 200K: the listing is summary (tier 2; 0 of 1 servers named) within budgets of 1,600 and "
            "4,000 tokens; the goal needs names or better (collapsed to a summary line: cloudflare)\n") in done.stdout


def test_json_failures_stay_per_length() -> None:
    data = json.loads(run_cli(*ARGS, "--json").stdout)
    assert [c["listing_form"] for c in data["contexts"]] == ["none", "none", "mixed", "mixed"]

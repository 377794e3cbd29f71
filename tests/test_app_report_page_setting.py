"""The Report page names the setting its report carries, before any report is built: the
recommended threshold_pct and listing_max_tokens, the same numbers (and the same way written) as
the Tuning page's metrics and ``toolsearch recommend``, and says so when the goal is out of reach
and the numbers are only the best reachable setting."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from test_app_tuning_report import carried_caption, metric, open_page

ROOT = Path(__file__).absolute().parent.parent


def _cli(*catalogs: str, lengths: str, extra: tuple[str, ...] = ()) -> dict:
    done = run_cli("recommend", *catalogs, "--context-lengths", lengths, "--goal", "names", *extra, "--json", cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_report_page_shows_the_recommended_numbers_of_tuning_and_recommend():
    query = {"lengths": "32k,200k,1m", "headroom": "10"}
    cli = _cli("sample_catalogs/team-workspace.yaml", lengths="32k,200k,1m", extra=("--headroom", "10"))
    assert (cli["threshold_pct"], cli["listing_max_tokens"]) == (5.1, 1621)
    report = open_page("toolsearch/ui/report.py", query)
    assert carried_caption(report).startswith(
        "Recommended settings across context lengths: threshold_pct 5.1%, listing_max_tokens 1,621, for the "
        "Tuning page's goal (every server at names or better; context lengths 32K, 200K, 1M, 10% headroom); ")
    tuning = open_page("toolsearch/ui/tuning.py", query)
    assert metric(tuning, "Recommended threshold_pct") == "5.1%"
    assert metric(tuning, "Recommended listing_max_tokens") == "1,621 tokens"


def test_report_page_says_when_the_numbers_are_only_the_best_reachable():
    query = {"lengths": "32k,200k,1m", "with": "cloudflare-flat"}
    cli = _cli("sample_catalogs/team-workspace.yaml", "sample_catalogs/cloudflare-flat.yaml", lengths="32k,200k,1m")
    assert not cli["reached"] and (cli["threshold_pct"], cli["listing_max_tokens"]) == (23.2, 46_241)
    caption = carried_caption(open_page("toolsearch/ui/report.py", query))
    assert caption.startswith(
        "Recommended settings across context lengths: threshold_pct 23.2%, listing_max_tokens 46,241 (the best "
        "reachable setting: the goal is out of reach), for the Tuning page's goal (every server at names or better; "
        "context lengths 32K, 200K, 1M); "), caption

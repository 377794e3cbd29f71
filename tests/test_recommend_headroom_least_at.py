"""``recommend --json`` gives the lengths where the setting keeps the least headroom
(``headroom_least_at``) beside how much it keeps there (``headroom_kept_pct``): the text's headroom
line, the ``--yaml`` comment and the Tuning page name those lengths, and the JSON gave the figure
without them. The lengths come from the function that feeds the text
(:attr:`~toolsearch.analysis.recommend.MultiRecommendation.headroom_least_at`)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"


def test_the_json_names_where_the_least_headroom_is_kept_when_the_text_names_another_length():
    # 200K and 1M keep 29% of the 50% asked; the growth words name 32K (the fewest tokens of room)
    args = ("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "50")
    text = run_cli(*args).stdout
    assert "headroom: 50% asked, 29% kept at 200K and 1M · " in text, text
    data = json.loads(run_cli(*args, "--json").stdout)
    assert (data["headroom_kept_pct"], data["headroom_least_at"]) == (29, [200_000, 1_000_000])


def test_the_json_names_the_one_length_the_growth_words_name():
    args = ("recommend", TEAM, "--context-lengths", "8k", "--goal", "names", "--headroom", "200")
    assert "148% kept · absorbs 2,182 tokens of listing growth (about 263 tools) at 8K " in run_cli(*args).stdout
    data = json.loads(run_cli(*args, "--json").stdout)
    assert (data["headroom_kept_pct"], data["headroom_least_at"]) == (148, [8_000])


def test_the_headroom_asked_is_kept_and_no_length_is_named():
    data = json.loads(run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names",
                              "--headroom", "10", "--json").stdout)
    assert (data["headroom_kept_pct"], data["headroom_least_at"]) == (None, [])

"""``recommend`` says where one setting lists more than a length's own goal asks: a better form
than the goal's, and, as here, a mixed listing naming more servers than a ``listed`` goal needs.
With Cloudflare's 46,241-token names block, 200K and 1M need threshold_pct 23.2 %, which gives 32K
(goal listed, 177 tokens needed) a budget of 7,423 tokens: nine of ten servers named. The line said
so for ``1m=full`` but not here. A form better than the goal's that is the cheapest the goal allows
(the one server of a catalog, a kept server) is not more than it asks."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

from toolsearch.analysis.recommend import recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
GITHUB = ROOT / "sample_catalogs" / "github-full.yaml"
REASON = ("one threshold_pct and one listing_max_tokens serve every length, and the budget never shrinks as the "
          "context length grows")


def test_a_mixed_listing_naming_more_than_a_listed_goal_needs_is_said() -> None:
    args = ("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed")
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "budget needed: 177 tokens at 32K; 46,241 tokens at 200K and 1M" in lines
    assert f"more than the goal asks at 32K (mixed, 9 of 10 servers named): {REASON}" in lines
    data = json.loads(run_cli(*args, "--json").stdout)
    first = data["contexts"][0]
    assert (first["budget"], first["budget_needed"]) == (7_423, 177)


def test_the_full_form_beyond_names_is_said_with_the_same_reason() -> None:
    done = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names,1m=full")
    assert f"more than the goal asks at 200K (full): {REASON}" in done.stdout.splitlines()


def test_one_goal_with_the_caps_smallest_value_says_where_it_lists_more() -> None:
    """106 tokens are needed; the cap cannot go below 200, which 200K and 1M then get."""
    done = run_cli("recommend", ROOT / "sample_catalogs" / "five-servers.yaml", "--context-lengths", "32k,200k,1m",
                   "--goal", "listed")
    lines = done.stdout.splitlines()
    assert "budget needed at every length: 106 tokens" in lines
    assert (f"more than the goal asks at 200K (mixed, 3 of 5 servers named), 1M (mixed, 3 of 5 servers named): "
            f"{REASON}") in lines


def test_the_cheapest_listing_in_a_better_form_is_not_more() -> None:
    """github-full has one server: the cheapest listing naming a tool names them all (form names),
    better than mixed, yet exactly what the goal listed needs at 32K."""
    done = run_cli("recommend", GITHUB, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed")
    assert done.returncode == 0
    assert "more than the goal asks" not in done.stdout
    config = parse_config({})
    ladder = listing_ladder(Inspector(load_source(TEAM)).planner, config)
    kept = recommend_for_contexts(ladder, config, [32_000, 200_000], "listed", keep_servers=["github"])
    assert [c.listing_form for c in kept.contexts] == ["names", "names"] and kept.beyond_goal == ()

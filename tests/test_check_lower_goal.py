"""check: a goal out of reach because a listed length is too short for it suggests the lower
per-length goal recommend suggests, from the same computation (text and --json)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
# naming the one server needs 44,789 tokens: more than the whole 32K context, not more than 200K's
ARGS = (CLOUDFLARE, "--context-lengths", "32k,200k", "--goal", "names")
SUGGESTION = ("a goal of its own for 32K keeps the goal at 200K "
              "(32k=any; on the command line --goal names,32k=any); that goal takes threshold_pct 22.4%, "
              "listing_max_tokens 44,789: a listing of 38 tokens at 32K (0.1% of the context) and "
              "44,789 tokens at 200K (22.4% of the context)")


def test_check_failing_at_a_too_short_length_suggests_the_lower_goal() -> None:
    text = run_cli("check", *ARGS)
    assert text.returncode == 1, text.stderr
    assert ("\nno setting reaches it at every length: it needs a budget of 44,789 tokens, more than 100% of the "
            f"shortest context length (32K); {SUGGESTION}\n") in text.stdout
    data = json.loads(run_cli("check", *ARGS, "--json").stdout)
    assert data["suggestion"]["lower_goal"] == "names,32k=any"


def test_recommend_suggests_the_same_goal_and_cost() -> None:
    text = run_cli("recommend", *ARGS)
    assert ("(32k=any; on the command line --goal names,32k=any); that goal takes threshold_pct 22.4%, "
            "listing_max_tokens 44,789: a listing of 38 tokens at 32K") in text.stdout
    assert json.loads(run_cli("recommend", *ARGS, "--json").stdout)["lower_goal"] == "names,32k=any"


def test_the_suggested_goal_and_settings_pass_the_check() -> None:
    passed = run_cli("check", CLOUDFLARE, "--context-lengths", "32k,200k", "--goal", "names,32k=any",
                     "--threshold-pct", "22.4", "--listing-max-tokens", "44789")
    assert passed.returncode == 0, passed.stdout


def test_a_goal_reachable_everywhere_suggests_no_lower_goal() -> None:
    data = json.loads(run_cli("check", CLOUDFLARE, "--context-lengths", "200k,1m", "--goal", "names", "--json").stdout)
    assert data["suggestion"]["reached"] is True and data["suggestion"]["lower_goal"] is None


TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
KEPT = (TEAM, CLOUDFLARE, "--context-lengths", "32k,200k", "--keep", "github", "--keep", "cloudflare")
KEPT_WORDS = ("cloudflare is kept named at every length, which no setting does at 32K, whatever the goal there: "
              "leave 32K out of the context lengths, or stop keeping it named")


def test_a_kept_server_too_large_for_a_length_suggests_no_lower_goal() -> None:
    """A kept server no setting names at 32K keeps any goal for 32K out of reach: check says what would
    reach it (with one goal and with per-length goals) instead of a lower goal that fails too."""
    for goal in ("names", "names,32k=listed"):
        text = run_cli("check", *KEPT, "--goal", goal)
        assert text.returncode == 1, text.stderr
        last = text.stdout.splitlines()[-1]
        assert last.startswith("no setting reaches it at every length: ") and last.endswith(f"; {KEPT_WORDS}"), last
        assert "--goal names,32k" not in text.stdout
        assert json.loads(run_cli("check", *KEPT, "--goal", goal, "--json").stdout)["suggestion"]["lower_goal"] is None
    said = run_cli("recommend", *KEPT, "--goal", "names")
    assert ("not named: cloudflare: naming it needs a budget of 46,241 tokens, more than the whole 32K context "
            "(32,000 tokens); named at 200K; it is kept named, which no setting does at 32K, whatever the goal there: leave 32K out "
            "of the context lengths, or stop keeping it named") in said.stdout.splitlines(), said.stdout
    assert json.loads(run_cli("recommend", *KEPT, "--goal", "names", "--json").stdout)["lower_goal"] is None


def test_with_200_headroom_no_goal_of_its_own_reaches_8k_so_none_is_suggested() -> None:
    """team-workspace at 8K and 1M, every server named, 200% headroom: no per-length goal is suggested,
    and rightly: every listing short of the full one (3,656 tokens) is within 200% of the next larger
    listing, so no goal at all keeps that room at 8K (the full listing with it needs 10,968 tokens); the
    reason says which headroom reaches the goal instead."""
    args = (str(TEAM), "--context-lengths", "8k,1m", "--headroom", "200", "--json")
    data = json.loads(run_cli("recommend", *args, "--goal", "names").stdout)
    assert data["lower_goal"] is None and data["reason"].endswith("; 148% headroom or less reaches it")
    for goal in ("listed", "any"):
        alone = json.loads(run_cli("recommend", str(TEAM), "--context-lengths", "8k", "--headroom", "200", "--json",
                                   "--goal", goal).stdout)
        assert alone["reached"] is False and alone["goal_budget"] == 10_968


def test_the_goal_of_its_own_is_the_one_reached_with_the_headroom() -> None:
    """grafana-full at 8K and 1M, names, 500% headroom: 8K's best reachable listing is the full one (the
    goal fits there, with 273% of room), whose form meets "listed", yet "listed" with 500% of room is out
    of reach at 8K while "any" (one summary line) keeps it: the suggestion is the goal 8K reaches with the
    headroom asked, verified, not the one its listing's form meets."""
    grafana = ROOT / "sample_catalogs" / "grafana-full.yaml"
    args = (str(grafana), "--context-lengths", "8k,1m", "--goal", "names", "--headroom", "500", "--json")
    data = json.loads(run_cli("recommend", *args).stdout)
    assert [c["listing_form"] for c in data["contexts"]] == ["full", "full"]
    assert data["lower_goal"] == "names,8k=any"
    suggested = json.loads(run_cli("recommend", str(grafana), "--context-lengths", "8k,1m", "--goal", "names,8k=any",
                                   "--headroom", "500", "--json").stdout)
    assert suggested["reached"] is True

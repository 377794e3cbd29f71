"""The answer never makes the request longer than the context: at each listed length the budget stays at
or below the largest one whose request (the tools array with the listing it chooses) still fits
(``Ladder.request_limit``), and ``check`` fails settings whose listing overflows it.

Before: the best reachable answer on team-workspace at 1,200 tokens was 100% / 60,000 tokens, whose
tools array (2,419 tokens) did not fit, and at 2K a listing of 1,473 tokens "reached" names in a request of
about 2,700 tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import inspector_of, run_cli
from toolsearch.analysis.check import check_catalog
from toolsearch.analysis.recommend import GOALS, recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder, plan_at_budget
from toolsearch.engine.config import parse_config

SAMPLES = Path(__file__).resolve().parent.parent / "sample_catalogs"
TEAM = SAMPLES / "team-workspace.yaml"


@pytest.fixture(scope="module")
def team():
    inspector = inspector_of([TEAM])
    config = parse_config({})
    return inspector, config, listing_ladder(inspector.planner, config)


def _tools_array(inspector, config, rec, context_length: int) -> int:
    return inspector.planner.plan(rec.apply(config), context_length).tools_tokens


@pytest.mark.parametrize("context_length", [1_200, 1_500, 2_000, 2_345, 3_000, 4_000])
def test_the_limit_is_the_last_budget_whose_request_fits(team, context_length: int) -> None:
    inspector, config, ladder = team
    limit = ladder.request_limit(context_length)
    # every budget from 0 up: the request fits up to the limit and not one token past it
    fitting = [b for b in range(0, context_length + 1)
               if plan_at_budget(inspector.planner, config, b).tools_tokens <= context_length]
    first_over = next((b for b in range(context_length + 1) if b not in set(fitting)), None)
    assert limit == (context_length if first_over is None else first_over - 1)
    assert ladder.request_fits(context_length, limit) and (first_over is None
                                                           or not ladder.request_fits(context_length, limit + 1))
    assert ladder.request_limit(None) is None and ladder.request_fits(None, 60_000)


@pytest.mark.parametrize("catalog", ["team-workspace.yaml", "github-full.yaml", "cloudflare-flat.yaml",
                                     "five-servers.yaml"])
@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("headroom", [0, 10])
def test_no_answer_overflows_the_request(catalog: str, goal: str, headroom: int) -> None:
    inspector = inspector_of([SAMPLES / catalog])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config)
    bare = ladder.bare_tools_tokens
    lengths = [n for n in (bare + 200, bare + 900, 2 * bare + 1_000, 8_000, 32_000) if n > bare]
    for chosen in ([lengths[0]], lengths[:2], lengths[1:3], [lengths[0], 32_000], lengths):
        rec = recommend_for_contexts(ladder, config, chosen, goal, headroom_pct=headroom)
        for c in rec.contexts:
            assert _tools_array(inspector, config, rec, c.context_length) <= c.context_length, (chosen, c)
        if rec.reached:  # a reached goal is reached in a request that fits
            assert not any(m.kind == "fit" for lc in check_catalog(
                inspector, rec.apply(config), chosen, goal, "chars4", headroom_pct=headroom).lengths for m in lc.misses)


def test_team_workspace_at_2k_names_what_fits_beside_the_tools_array(team) -> None:
    inspector, config, ladder = team
    done = run_cli("recommend", str(TEAM), "--context-lengths", "2k,32k", "--goal", "names")
    assert done.returncode == 1, done.stderr
    assert ("not reachable at every listed context length: it needs a budget of 1,473 tokens, more than the largest "
            "budget whose request fits the 2K context (923 tokens)") in done.stdout.splitlines()
    assert "no request with these settings fits" not in done.stdout
    data = json.loads(run_cli("recommend", str(TEAM), "--context-lengths", "2k,32k", "--goal", "names",
                              "--json").stdout)
    two_k = data["contexts"][0]
    assert two_k["budget"] <= 923 and two_k["servers_named"] == 6
    assert ladder.request_tokens(924) > 2_000 >= ladder.request_tokens(923)


def test_nothing_fits_beside_the_tools_array_lists_nothing_there(team) -> None:
    inspector, config, ladder = team
    done = run_cli("recommend", str(TEAM), "--context-lengths", "1200,10m", "--goal", "names")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert ("best reachable setting (0 of 9 servers named at 1,200 tokens, the largest settings whose request fits "
            "every listed length, as nothing can be listed beside the tools array at the shortest length and they "
            "give every other length its best form): threshold_pct 13.2%, listing_max_tokens 60,000") in lines, lines
    assert "no request with these settings fits" not in done.stdout
    rec = recommend_for_contexts(ladder, config, [1_200, 10_000_000], "names")
    assert [c.listing_form for c in rec.contexts] == ["none", "full"]
    # 13.3% would give 1,200 tokens a budget of 159, whose listing does not fit beside the tools array
    assert not ladder.request_fits(1_200, int(1_200 * 0.133))


def test_check_fails_settings_whose_listing_overflows(team) -> None:
    done = run_cli("check", str(TEAM), "--context-lengths", "2k,32k", "--goal", "any", "--threshold-pct", "100")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no request fits" in done.stdout
    assert ("the tools array with this listing (2,687 tokens, chars4) is larger than the context length (2K): "
            "no request with these settings fits the model") in done.stdout
    data = json.loads(run_cli("check", str(TEAM), "--context-lengths", "2k,32k", "--goal", "any",
                              "--threshold-pct", "100", "--json").stdout)
    assert [c["holds"] for c in data["contexts"]] == [False, True] and data["missed"] == ["no request fits"]
    # the suggestion is a setting check passes
    suggestion = data["suggestion"]
    again = run_cli("check", str(TEAM), "--context-lengths", "2k,32k", "--goal", "any",
                    "--threshold-pct", str(suggestion["threshold_pct"]),
                    "--listing-max-tokens", str(suggestion["listing_max_tokens"]))
    assert again.returncode == 0, again.stdout


def test_the_tuning_guide_quotes_these_figures(team) -> None:
    _, _, ladder = team
    doc = " ".join((SAMPLES.parent / "docs" / "tuning.md").read_text(encoding="utf-8").split())
    assert ladder.bare_tools_tokens == 1_160 and ladder.request_limit(2_000) == 923
    for quoted in ("(923 tokens at 2K on the team-workspace sample, where the tools array with nothing listed takes 1,160)",
                   "`it needs a budget of 1,473 tokens, more than the largest budget whose request fits the 2K context "
                   "(923 tokens)`",
                   "`the tools array with this listing (2,687 tokens, chars4) is larger than the context length (2K)`",
                   "(13.2 % at 1,200 tokens on the same sample, listing nothing there)"):
        assert quoted in doc, quoted


def test_a_server_no_length_names_says_each_lengths_limit(tmp_path: Path) -> None:
    """On a catalog whose names listing needs more than 60,000 tokens, a server left unnamed at every
    length says why at each: the request at the short lengths, the largest listing_max_tokens at the long
    ones (the line named only the short lengths, as if 200K and 1M named it)."""
    catalog = tmp_path / "synth.json"
    assert run_cli("synth", "--tools", "8000", "--servers", "100", "-o", str(catalog)).returncode == 0
    data = json.loads(run_cli("recommend", str(catalog), "--context-lengths", "8k,200k,1m", "--goal", "names",
                              "--json").stdout)
    assert data["reached"] is False and data["goal_budget"] > 60_000
    reasons = [u["reason"] for u in data["unnamed"] if u["reason"].startswith(f"{u['name']}: naming it needs")]
    big = [r for r in reasons if int(r.split("needs a budget of ")[1].split(" ")[0].replace(",", "")) > 60_000]
    assert big and all("more than the largest budget whose request fits the 8K context (" in r
                       and r.endswith("and more than the largest listing_max_tokens (60,000 tokens) at 200K and 1M")
                       for r in big), big[:2]
    assert all(t <= c["context_length"] for c, t in zip(data["contexts"], (c["tools_tokens"] for c in data["contexts"])))

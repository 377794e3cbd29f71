"""A length too short for its goal with the headroom asked still gets a listing that meets the goal
where one fits, with as much of the room as a listing can keep there, and one setting for every
length gives each the listing its own answer gives it.

Checked against the exact listing: every context's figures are re-planned with the recommended
settings (:class:`~toolsearch.engine.plan.Planner`) and judged as ``check`` judges them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import inspector_of, run_cli

from toolsearch.analysis.recommend import (
    GOALS,
    _short_of_room,
    recommend_for_contexts,
    requirement_failures,
)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
UNREAL = ROOT / "sample_catalogs" / "unreal-editor.yaml"


@pytest.fixture(scope="module")
def team():
    inspector = inspector_of([TEAM])
    return inspector, listing_ladder(inspector.planner, parse_config({}), "chars4")


@pytest.fixture(scope="module")
def unreal():
    inspector = inspector_of([UNREAL])
    return inspector, listing_ladder(inspector.planner, parse_config({}), "chars4")


def _exact(inspector, rec):
    """Each context re-planned with the recommended settings: (budget, listing tokens) as planned."""
    settings = rec.apply(parse_config({}))
    out = []
    for c in rec.contexts:
        plan = inspector.planner.plan(settings, c.context_length, tokenizer="chars4")
        assert (plan.budget, plan.listing_tokens, plan.listing_form) == (c.budget, c.listing_tokens, c.listing_form)
        out.append((plan.budget, plan.listing_tokens))
    return out


def test_names_at_1m_listed_at_8k_with_200_headroom(team) -> None:
    # 8K alone cannot keep 200% above any listing that meets "listed"; 148% above the names listing is the
    # most a listing keeps there. The smallest threshold_pct giving 8K its largest budget below the full
    # listing (3,655) gives 3,656: the full listing with no room. Before: 8K got 2 of 9 servers named in a
    # budget of 223 (2 tokens of room) from the mixed listing's own largest budget, 220, rounded up.
    inspector, ladder = team
    rec = recommend_for_contexts(ladder, parse_config({}), [8_000, 1_000_000], "names", headroom_pct=200,
                                 length_goals={8_000: "listed"})
    assert not rec.reached
    assert (rec.threshold_pct, rec.listing_max_tokens) == (45.6, 10_968)
    assert _exact(inspector, rec) == [(3_648, 1_473), (10_968, 3_656)]
    assert [(c.servers_named, c.servers_total) for c in rec.contexts] == [(9, 9), (9, 9)]
    assert rec.headroom_kept_pct == 147
    assert rec.goal_kept_at == (1_000_000,)
    # the length alone: the same listing, with one token more room (no other length to share the grid with)
    alone = recommend_for_contexts(ladder, parse_config({}), [8_000], "listed", headroom_pct=200)
    assert (alone.contexts[0].budget, alone.contexts[0].listing_tokens, alone.headroom_kept_pct) == (3_655, 1_473, 148)


def test_the_cli_names_every_server_at_8k() -> None:
    result = run_cli("recommend", str(TEAM), "--context-lengths", "8k,1m", "--goal", "names,8k=listed",
                     "--headroom", "200")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert "headroom: 200% asked, 147% kept · absorbs 2,175 tokens of listing growth (about 262 tools) at 8K before the listing changes" in lines
    assert "8K              3,648   1     names         1,473           9/9            178" in lines


def test_a_goal_reachable_without_the_room_is_met_not_traded_for_room(unreal) -> None:
    # names fits 16K (8,308 tokens) but not with 100% above it; a mixed listing (3 of 4 named) keeps the
    # 100%. Before: 16K got that mixed listing, less than the goal asks where the goal fits.
    inspector, ladder = unreal
    rec = recommend_for_contexts(ladder, parse_config({}), [16_000, 1_000_000], "names", headroom_pct=100)
    assert not rec.reached
    assert _exact(inspector, rec) == [(16_000, 8_308), (16_616, 8_308)]
    assert [c.listing_form for c in rec.contexts] == ["names", "names"]
    assert (rec.threshold_pct, rec.listing_max_tokens, rec.headroom_kept_pct) == (100.0, 16_616, 92)
    assert rec.goal_kept_at == (1_000_000,)


@pytest.mark.parametrize("lengths", [[8_000, 1_000_000], [8_000, 32_000, 1_000_000], [2_000, 200_000], [16_000, 1_000_000]])
@pytest.mark.parametrize("headroom", [50, 200, 500])
@pytest.mark.parametrize("catalog", ["team", "unreal"])
def test_never_less_than_the_goal_where_the_goal_is_reachable(request, catalog, lengths, headroom) -> None:
    """At every length where some listing meets that length's goal (without the headroom), the answer's
    listing, re-planned exactly, meets it; where the goal fits with its room, the room is kept too."""
    inspector, ladder = request.getfixturevalue(catalog)
    config = parse_config({})
    for goal in GOALS:
        for short_goal in GOALS:
            rec = recommend_for_contexts(ladder, config, lengths, goal, headroom_pct=headroom,
                                         length_goals={lengths[0]: short_goal})
            _exact(inspector, rec)
            for c in rec.contexts:
                own = rec.goal_at(c.context_length)
                if recommend_for_contexts(ladder, config, [c.context_length], own).reached:
                    assert not requirement_failures(ladder, c, own), (goal, short_goal, c)
                if recommend_for_contexts(ladder, config, [c.context_length], own, headroom_pct=headroom).reached \
                        and all(recommend_for_contexts(ladder, config, [o.context_length], rec.goal_at(o.context_length),
                                                       headroom_pct=headroom).reached for o in rec.contexts):
                    assert not _short_of_room(c, headroom), (goal, short_goal, c)


def test_a_longer_length_keeps_its_goal_with_its_room_before_a_short_length_keeps_its_own_listing(team) -> None:
    # 8K's own answer is the names listing (148% of room, the most it keeps); with it, 32K's budget is at
    # most 4 × 3,655 and full with 500% above it needs 21,936 there. 32K keeps its goal with its room (it
    # fits), and 8K gets the full listing, which meets its goal, with the most room left (the whole 8K).
    inspector, ladder = team
    rec = recommend_for_contexts(ladder, parse_config({}), [8_000, 32_000, 1_000_000], "full", headroom_pct=500,
                                 length_goals={8_000: "listed"})
    assert not rec.reached
    assert _exact(inspector, rec) == [(8_000, 3_656), (21_936, 3_656), (21_936, 3_656)]
    assert rec.goal_kept_at == (32_000, 1_000_000) and rec.headroom_kept_pct == 118


def test_the_docs_figures_of_the_short_length_rule(team) -> None:
    """docs/tuning.md's Headroom section: with --goal listed at 8K and 200% headroom, the names listing
    with 148% kept, not one server named with 38% (the smallest listing meeting the goal, in the largest
    budget below the next larger listing)."""
    _, ladder = team
    rec = recommend_for_contexts(ladder, parse_config({}), [8_000], "listed", headroom_pct=200)
    assert (rec.contexts[0].listing_form, rec.headroom_kept_pct) == ("names", 148)
    one = next(i for i, step in enumerate(ladder.steps) if ladder.counts_of(step).servers_named == 1)
    room = min(step.tokens for step in ladder.steps[:one]) - 1 - ladder.steps[one].tokens
    assert room * 100 // ladder.steps[one].tokens == 38
    text = " ".join((ROOT / "docs" / "tuning.md").read_text(encoding="utf-8").split())
    assert ("with `--goal listed` at 8K and 200 % headroom, that is the names listing with 148 % kept, not one server "
            "named with 38 %.") in text


def test_a_goal_that_fits_no_length_still_names_at_each_length_what_it_alone_names() -> None:
    # every tool in full (81,251 tokens) fits none of the lengths: the answer gave every length the
    # shortest length's listing (a summary line, 0 of 1 named), though 200K and 1M name cloudflare alone,
    # and --goal names, a weaker goal, named it there
    inspector = inspector_of([ROOT / "sample_catalogs" / "cloudflare-flat.yaml"])
    ladder = listing_ladder(inspector.planner, parse_config({}), "chars4")
    lengths = [8_000, 32_000, 200_000, 1_000_000]
    for goal in ("full", "names"):
        rec = recommend_for_contexts(ladder, parse_config({}), lengths, goal)
        assert not rec.reached
        _exact(inspector, rec)
        for c in rec.contexts:
            alone = recommend_for_contexts(ladder, parse_config({}), [c.context_length], goal).contexts[0]
            assert ladder.counts_of(ladder.step_at(c.budget)).servers_named >= \
                ladder.counts_of(ladder.step_at(alone.budget)).servers_named, (goal, c.context_length)
        assert [c.listing_form for c in rec.contexts][2:] == ["names", "names"], goal
    done = run_cli("recommend", str(ROOT / "sample_catalogs" / "cloudflare-flat.yaml"), "--context-lengths",
                   "8k,32k,200k,1m", "--goal", "full")
    assert done.returncode == 1, done.stderr
    assert "named at 200K and 1M" in done.stdout, done.stdout


def test_the_least_room_is_named_where_it_is_when_the_growth_words_name_another_length() -> None:
    # 32K keeps 544% (8,109 tokens), 200K and 1M 29% (13,759 tokens): the share and the tokens are least
    # at different lengths, and "50% asked, 29% kept · absorbs 8,109 tokens … at 32K" read as 32K's
    catalogs = [str(TEAM), str(ROOT / "sample_catalogs" / "cloudflare-flat.yaml")]
    done = run_cli("recommend", *catalogs, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "50")
    line = next(x for x in done.stdout.splitlines() if x.startswith("headroom: "))
    assert line.startswith("headroom: 50% asked, 29% kept at 200K and 1M · absorbs 8,109 tokens"), line
    assert line.endswith("at 32K before the listing changes"), line


def test_a_kept_server_named_at_longer_lengths_is_not_called_unnameable_under_headroom() -> None:
    # with 500% headroom its need (the full listing's budget six times over) passes every length, and the
    # line said "no listed length can name it, so stop keeping it named" beside "named at 16K … 2M"
    samples = ROOT / "sample_catalogs"
    catalogs = [str(samples / f) for f in ("team-workspace.yaml", "cloudflare-flat.yaml", "unreal-editor.yaml",
                                           "five-servers.yaml")]
    args = ["--context-lengths", "4k,8k,16k,32k,128k,200k,1m,2m", "--goal", "full", "--keep", "unreal"]
    lines = {}
    for headroom in ("0", "500"):
        done = run_cli("recommend", *catalogs, *args, "--headroom", headroom)
        lines[headroom] = next(x for x in done.stdout.splitlines() if x.startswith("not named: unreal:"))
    for line in lines.values():
        assert "no listed length can name it" not in line, line
        assert line.endswith("which no setting does at 4K and 8K, whatever the goal there: leave 4K and 8K out of "
                             "the context lengths, or stop keeping it named"), line

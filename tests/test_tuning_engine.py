"""The tuning functions of ``toolsearch.analysis.sweep``: the listing ladder, plans at an exact budget,
the smallest budget / threshold_pct / listing_max_tokens / context length that reach a form,
the fast grid (checked against :func:`sweep`) and the line-chart context lengths.

Listing sizes depend on the wording, so they are computed here from the active profile's text
(docs/reference.md §5.2–§5.4 layout, chars4 = ceil(characters / 4)), never hard-coded.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ceil4, obj, registration
from toolsearch.engine import constants as C
from toolsearch.engine.config import parse_config
from toolsearch.engine.plan import Planner, listing_budget
from toolsearch.engine.profile import default_profile
from toolsearch.engine.registration import make_tool
from toolsearch.analysis.sweep import (FORM_RANK, HEATMAP_CONTEXT_LENGTHS, HEATMAP_THRESHOLD_PCTS, at_least,
                              curve_bounds, curve_context_lengths, form_grid, listing_ladder,
                              listing_max_tokens_for_budget,
                              plan_at_budget, recommend, smallest_budget, smallest_context_length, sweep,
                              threshold_pct_for_budget)

# Long tool names, so each server's names block is longer than its summary line: then every
# degradation step is smaller than the one before and each goal has its own boundary.
ALPHA = [f"alpha_tool_number_{i:02}" for i in range(12)]
BETA = ["beta_ping_the_service_now", "beta_status_overview_all", "beta_restart_everything"]
CORE = "terminal"


def _description(name: str) -> str:
    return f"Do the {name.replace('_', ' ')} job for the team."


def _tools():
    tools = [make_tool(n, _description(n), obj("x"), server="alpha") for n in ALPHA]
    tools += [make_tool(n, _description(n), obj(), server="beta") for n in BETA]
    tools.append(make_tool(CORE, "Run a shell command.", obj("command"), kind="core", server="core"))
    return tools


@pytest.fixture
def planner() -> Planner:
    return Planner(registration(_tools(), {"alpha": "mcp", "beta": "mcp", "core": "core"}))


def expected_steps() -> list[tuple[str, int]]:
    """(form, chars4 tokens) of every degradation candidate, from the profile's text."""
    p = default_profile()
    header = p.text("listing", "header")
    sep = p.sections["listing"]["names_separator"]
    alpha_head = p.text("listing", "group_heading", label="alpha", count=len(ALPHA))
    beta_head = p.text("listing", "group_heading", label="beta", count=len(BETA))
    # descriptions are one sentence under 60 characters, so the short description is the whole text
    assert all(len(_description(n)) <= C.SHORT_DESCRIPTION_MAX_CHARS for n in ALPHA + BETA)
    alpha_full = "\n".join([alpha_head] + [p.text("listing", "full_line", name=n, description=_description(n))
                                           for n in sorted(ALPHA)])
    beta_full = "\n".join([beta_head] + [p.text("listing", "full_line", name=n, description=_description(n))
                                         for n in sorted(BETA)])
    alpha_names = alpha_head + "\n" + sep.join(sorted(ALPHA))
    beta_names = beta_head + "\n" + sep.join(sorted(BETA))
    alpha_sum = p.text("listing", "summary_line", label="alpha", count=len(ALPHA))
    beta_sum = p.text("listing", "summary_line", label="beta", count=len(BETA))
    assert len(alpha_names) > len(beta_names)  # so alpha collapses first (docs/reference.md §5.4)

    def size(*blocks: str) -> int:
        return ceil4("\n".join([header, *blocks]))

    return [("full", size(alpha_full, beta_full)), ("names", size(alpha_names, beta_names)),
            ("mixed", size(alpha_sum, beta_names)), ("groups", size(alpha_sum, beta_sum))]


def expected_smallest(goal: str) -> int:
    """The first candidate that fits decides, so a goal is reached from the smallest size among the
    candidates at least as good as the goal."""
    return min(tokens for form, tokens in expected_steps() if FORM_RANK[form] <= FORM_RANK[goal])


# --- the ladder and exact budgets --------------------------------------------------------------------

def test_ladder_measures_every_candidate(planner):
    ladder = listing_ladder(planner, parse_config({}))
    assert ladder.activated and ladder.listing_enabled
    assert [(s.form, s.tokens) for s in ladder.steps] == expected_steps()
    assert [s.collapsed for s in ladder.steps] == [(), (), ("alpha",), ("alpha", "beta")]
    steps = dict(expected_steps())
    assert ladder.sizes() == {"full": steps["full"], "names": steps["names"], "groups": steps["groups"]}


@pytest.mark.parametrize("budget", [0, 1, 57, 200, 4000, C.LISTING_MAX_TOKENS_MAX])
def test_plan_at_budget_gives_that_budget(planner, budget):
    plan = plan_at_budget(planner, parse_config({}), budget)
    assert plan.budget == budget


@pytest.mark.parametrize("budget", [-1, C.LISTING_MAX_TOKENS_MAX + 1])
def test_plan_at_budget_rejects_out_of_range(planner, budget):
    with pytest.raises(ValueError, match=rf"budget must be 0\.\.60,000 tokens, got {budget:,}$"):
        plan_at_budget(planner, parse_config({}), budget)


@settings(max_examples=60, deadline=None)
@given(budget=st.integers(min_value=0, max_value=700))
def test_ladder_agrees_with_the_planner_at_every_budget(budget):
    planner = Planner(registration(_tools(), {"alpha": "mcp", "beta": "mcp", "core": "core"}))
    config = parse_config({})
    ladder = listing_ladder(planner, config)
    plan = plan_at_budget(planner, config, budget)
    assert (ladder.form_at(budget), ladder.tier_at(budget), ladder.tokens_at(budget)) == (
        plan.listing_form, plan.tier, plan.listing_tokens)
    # a larger budget never gives a worse form
    assert FORM_RANK[ladder.form_at(budget + 1)] <= FORM_RANK[ladder.form_at(budget)]


# --- smallest budget -----------------------------------------------------------------------------------

@pytest.mark.parametrize("goal", ["full", "names", "mixed", "groups"])
def test_smallest_budget_per_goal(planner, goal):
    config = parse_config({})
    budget = smallest_budget(listing_ladder(planner, config), at_least(goal))
    assert budget == expected_smallest(goal)
    # checked with real plans on both sides of the boundary
    assert FORM_RANK[plan_at_budget(planner, config, budget).listing_form] <= FORM_RANK[goal]
    assert FORM_RANK[plan_at_budget(planner, config, budget - 1).listing_form] > FORM_RANK[goal]


def test_smallest_budget_values_are_distinct_here(planner):
    # the hand-made catalog is chosen so that every goal has its own boundary
    steps = dict(expected_steps())
    assert steps["full"] > steps["names"] > steps["mixed"] > steps["groups"]
    assert [expected_smallest(g) for g in ("full", "names", "mixed", "groups")] == [
        steps["full"], steps["names"], steps["mixed"], steps["groups"]]


def test_smallest_budget_unreachable(planner):
    config = parse_config({})
    ladder = listing_ladder(planner, config)
    assert smallest_budget(ladder, at_least("full"), high=expected_smallest("full") - 1) is None
    assert smallest_budget(ladder, at_least("none")) == 0
    for off in ({"listing": "off"}, {"enabled": "off"}):
        ladder_off = listing_ladder(planner, parse_config(off))
        assert smallest_budget(ladder_off, at_least("groups")) is None
        assert ladder_off.sizes() == {}
    assert listing_ladder(planner, parse_config({"enabled": "off"})).tier_at(60000) == 0
    assert listing_ladder(planner, parse_config({"listing": "off"})).tier_at(60000) == 2


def test_at_least_rejects_unknown_form():
    with pytest.raises(ValueError, match="form must be one of"):
        at_least("everything")


# --- context length, threshold_pct and cap arithmetic (docs/reference.md §4) -------------------------------------------

def test_smallest_context_length():
    assert smallest_context_length(1000, 5.0, 4000) == 20_000            # 19,999 × 0.05 = 999.95 → 999
    assert smallest_context_length(0, 5.0, 4000) == 1
    assert smallest_context_length(4001, 5.0, 4000) is None              # above the cap
    assert smallest_context_length(1000, 0.0, 4000) is None              # 0% never reaches it
    # 100 × (57 / 100.0) = 56.99999999999999 in binary floating point → 56: the next length is needed
    assert listing_budget(100, 57.0, 60000)[0] == 56
    assert smallest_context_length(57, 57.0, 60000) == 101


def test_threshold_pct_for_budget():
    assert threshold_pct_for_budget(2760, 200_000) == 1.4               # 1.38% rounded up to the 0.1 step
    assert threshold_pct_for_budget(2760, 200_000, step=0.5) == 1.5     # ... or to a 0.5 step
    assert threshold_pct_for_budget(2000, 200_000) == 1.0               # exactly on the grid
    assert threshold_pct_for_budget(0, 200_000) == 0.0
    assert threshold_pct_for_budget(57, 100, step=1.0) == 58.0           # 57% truncates to 56 tokens
    assert threshold_pct_for_budget(57, 100) == 57.1
    assert threshold_pct_for_budget(300, 200) is None                   # more than 100% of the context
    assert threshold_pct_for_budget(100, None) is None                  # unknown: fixed 10,000 leg


def test_listing_max_tokens_for_budget():
    assert [listing_max_tokens_for_budget(b) for b in (0, 150, 201, 2760, 2800, 60000)] == [
        200, 200, 201, 2760, 2800, 60000]
    assert [listing_max_tokens_for_budget(b, step=100) for b in (201, 2760)] == [300, 2800]
    assert listing_max_tokens_for_budget(60001) is None


# --- recommendations ---------------------------------------------------------------------------------

def test_recommend_names_at_a_small_context(planner):
    config = parse_config({"threshold_pct": 1.0, "listing_max_tokens": 4000})
    ladder = listing_ladder(planner, config)
    names = expected_smallest("names")
    rec = recommend(ladder, config, 8_000, "names")       # budget now: int(8000 × 0.01) = 80
    assert rec.budget == names
    assert rec.threshold_pct == threshold_pct_for_budget(names, 8_000)
    assert rec.listing_max_tokens == listing_max_tokens_for_budget(names)
    assert rec.reachable and rec.met is (80 >= names)
    assert rec.context_length_from == smallest_context_length(names, 1.0, 4000) == names * 100
    assert rec.context_length_below == names * 100 - 1
    applied = rec.apply(config)
    assert (applied.threshold_pct, applied.listing_max_tokens) == (rec.threshold_pct, rec.listing_max_tokens)
    plan = planner.plan(applied, 8_000)
    assert plan.budget >= names and FORM_RANK[plan.listing_form] <= FORM_RANK["names"]


def test_recommend_unknown_context_and_unreachable(planner):
    config = parse_config({"listing_max_tokens": 200})
    ladder = listing_ladder(planner, config)
    rec = recommend(ladder, config, None, "full")
    assert rec.threshold_pct is None and rec.reachable          # only the cap matters: leg is 10,000
    assert rec.apply(config).listing_max_tokens == listing_max_tokens_for_budget(expected_smallest("full"))
    assert rec.apply(config).threshold_pct == config.threshold_pct
    assert rec.context_length_from is None                       # the 200-token cap never reaches it
    tiny = recommend(ladder, config, 100, "full")                # 100% of 100 tokens is not enough
    assert tiny.threshold_pct is None and not tiny.reachable and tiny.apply(config) == config
    off = recommend(listing_ladder(planner, parse_config({"listing": "off"})), config, 200_000, "groups")
    assert off.budget is None and not off.reachable and not off.met


# --- grids ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("block", [{}, {"listing_max_tokens": 200}, {"listing": "off"}, {"enabled": "off"}])
def test_form_grid_matches_sweep(planner, block):
    config = parse_config(block)
    contexts = [*HEATMAP_CONTEXT_LENGTHS, None, 1_500]
    rows = sweep(planner, config, contexts, HEATMAP_THRESHOLD_PCTS, [200, 400, 4000])
    grid = form_grid(listing_ladder(planner, config), config, contexts, HEATMAP_THRESHOLD_PCTS, [200, 400, 4000])
    fields = ("context_length", "threshold_pct", "listing_max_tokens", "budget", "budget_winner", "tier",
              "listing_form", "listing_tokens")
    assert [tuple(getattr(r, f) for f in fields) for r in rows] == [tuple(getattr(g, f) for f in fields) for g in grid]


def test_curve_context_lengths_contain_every_change(planner):
    config = parse_config({})
    ladder = listing_ladder(planner, config)
    lengths = curve_context_lengths(ladder, 0.5, 4000, 8_000, 1_000_000, points=5)
    assert lengths == sorted(set(lengths)) and lengths[0] == 8_000 and lengths[-1] == 1_000_000
    for target in [tokens for _, tokens in expected_steps()] + [4000]:
        first = smallest_context_length(target, 0.5, 4000)
        for c in (first - 1, first):
            assert c in lengths or not 8_000 <= c <= 1_000_000
    # along the curve the form only gets better
    forms = [p.listing_form for p in form_grid(ladder, config, lengths, [0.5])]
    assert all(FORM_RANK[b] <= FORM_RANK[a] for a, b in zip(forms, forms[1:]))


def test_curve_bounds_widen_to_show_every_change(planner):
    ladder = listing_ladder(planner, parse_config({}))
    sizes = [tokens for _, tokens in expected_steps()]
    assert sizes == [298, 114, 60, 52]  # full, names, mixed, groups: docs/reference.md §5.3 lengths with the reference's wording
    # 50%: every candidate fits below 8K, so the range starts at half the first crossing
    first_small = smallest_context_length(min(sizes), 50.0, 4000)
    assert first_small == 2 * min(sizes)
    assert curve_bounds(ladder, 50.0, 4000) == (first_small // 2, 1_000_000)
    # 0.01%: the full listing (298 tokens) needs 2.98M tokens of context, so the range ends at twice that
    first_full = smallest_context_length(max(sizes), 0.01, 60000)
    assert first_full == 2_980_000
    assert curve_bounds(ladder, 0.01, 60000) == (8_000, 2 * first_full)
    # a cap below a candidate: that candidate never fits, so it does not widen the range
    assert curve_bounds(ladder, 0.01, 200) == (8_000, 2 * smallest_context_length(114, 0.01, 200))
    assert curve_bounds(listing_ladder(planner, parse_config({"listing": "off"})), 0.01, 200) == (8_000, 1_000_000)

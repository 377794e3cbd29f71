"""``toolsearch recommend`` and :func:`toolsearch.analysis.recommend.recommend_for_contexts`: one
threshold_pct and listing_max_tokens for every context length a config serves.

The expected settings are worked out by hand from the spec (docs/reference.md §4 budget arithmetic, docs/reference.md §5.3
block lengths with the reference's wording lengths, chars4 = ceil(characters / 4)); a brute-force
search over every setting cross-checks exactness, tightness and "fewest listing tokens".
"""

from __future__ import annotations

from dataclasses import replace

import json

import pytest
import yaml

from conftest import registration, run_cli, write_yaml
from toolsearch.engine import constants as C
from toolsearch.engine.config import parse_config
from toolsearch.engine.plan import Planner, listing_budget
from toolsearch.analysis.recommend import GOAL_FORMS, recommend_for_contexts, smallest_threshold_pct
from toolsearch.engine.registration import make_tool
from toolsearch.analysis.sweep import FORM_RANK, listing_ladder

# "big": 60 tools t00..t59 ("Run it."), "small": one tool s1 ("Ping."). With the 81-character header:
#   full   = 81 + "big tools (60):" 15 + 60 × "- t00: Run it." 14 + "small tools (1):" 16 + "- s1: Ping." 11
#            + 63 newlines = 1026 characters -> 257 tokens
#   names  = 81 + 15 + (60 × 3 + 59 × 2 = 298) + 16 + "s1" 2 + 4 newlines = 416 -> 104
#   mixed  = big collapses first (names block 314 > 19): 81 + "big (60 tools — …)" 61 + 16 + 2 + 3 = 163 -> 41
#   groups = 81 + 61 + "small (1 tools — …)" 62 + 2 = 206 -> 52
BIG = [(f"t{i:02d}", "Run it.") for i in range(60)]
SMALL = [("s1", "Ping.")]
STEPS = [("full", 257), ("names", 104), ("mixed", 41), ("groups", 52)]
FOUR = [32_000, 128_000, 200_000, 1_000_000]


def _planner() -> Planner:
    tools = [make_tool(n, d, server="big") for n, d in BIG] + [make_tool(n, d, server="small") for n, d in SMALL]
    return Planner(registration(tools))


@pytest.fixture(scope="module")
def ladder():
    lad = listing_ladder(_planner(), parse_config({}))
    assert [(s.form, s.tokens) for s in lad.steps] == STEPS
    # the budget arithmetic at lengths of a few hundred tokens, shorter than the bridge tools (699): the
    # tools array is not weighed here (no request fits them, so recommend leaves them out:
    # tests/test_recommend_unfit_lengths.py)
    assert lad.bare_tools_tokens == 699
    return replace(lad, bare_tools_tokens=0, request_tokens_at=None)


def _catalog(tmp_path):
    return write_yaml(tmp_path / "two.yaml", {"name": "two", "servers": [
        {"name": "big", "tools": [{"name": n, "description": d} for n, d in BIG]},
        {"name": "small", "tools": [{"name": n, "description": d} for n, d in SMALL]}]})


@pytest.mark.parametrize("goal,contexts,pct,cap,expected", [
    # full needs 257: cap 257; 32,000 × 0.009 = 288 >= 257 but × 0.008 = 256 (0.8 breaks it)
    ("full", FOUR, 0.9, 257, [(257, "full", 257)] * 4),
    # names needs 104 (< 200, so the cap sits at the bottom of its range); 32,000 × 0.004 = 128, × 0.003 = 96
    ("names", FOUR, 0.4, 200, [(128, "names", 104)] + [(200, "names", 104)] * 3),
    # tier 1 needs 41 (mixed); 32,000 × 0.002 = 64, × 0.001 = 32. The cap's floor of 200 gives names above.
    ("listed", FOUR, 0.2, 200, [(64, "mixed", 41)] + [(200, "names", 104)] * 3),
    # any listing: the first candidate that fits at 41 is mixed (groups is larger, 52)
    ("any", FOUR, 0.2, 200, [(64, "mixed", 41)] + [(200, "names", 104)] * 3),
    # one short context: 8,000 × 0.033 = 264 >= 257, × 0.032 = 256
    ("full", [8_000], 3.3, 257, [(257, "full", 257)]),
    # order is kept; an unknown length has a fixed 10,000 leg, so only the known ones set threshold_pct
    ("full", [1_000_000, None, 32_000], 0.9, 257, [(257, "full", 257)] * 3),
])
def test_recommend_exact_settings(ladder, goal, contexts, pct, cap, expected) -> None:
    rec = recommend_for_contexts(ladder, parse_config({}), contexts, goal)
    assert (rec.reached, rec.reached_goal, rec.threshold_pct, rec.listing_max_tokens) == (True, goal, pct, cap)
    assert [c.context_length for c in rec.contexts] == list(contexts)
    assert [(c.budget, c.listing_form, c.listing_tokens) for c in rec.contexts] == expected
    assert all(c.tier == 1 for c in rec.contexts)


def test_unreachable_goal_gives_the_best_reachable_setting(ladder) -> None:
    # 200 tokens of context cannot hold 257 even at 100%; names (104) can: 200 × 0.52 = 104. 32K fits the
    # goal: the best reachable setting keeps it there (full, 257) rather than list names at both lengths
    rec = recommend_for_contexts(ladder, parse_config({}), [200, 32_000], "full")
    assert (rec.reached, rec.reached_goal, rec.threshold_pct, rec.listing_max_tokens) == (False, "names", 52.0, 257)
    assert rec.reason == ("it needs a budget of 257 tokens, more than 100% of the shortest context length "
                          "(200 tokens)")  # not a compact length (32K): the count of tokens
    assert [(c.budget, c.listing_form) for c in rec.contexts] == [(104, "names"), (257, "full")]
    assert (rec.goal_budget, rec.budget_needed, rec.length_budgets) == (257, 257, (104, 257))
    assert rec.goal_kept_at == (32_000,) and rec.lower_goal == "full,200=names"
    assert rec.fallback_words == "the goal kept at 32K, where it fits, and the fewest listing tokens"
    reached = recommend_for_contexts(ladder, parse_config({}), [32_000], "full")
    assert reached.goal_budget == reached.budget_needed == 257
    assert recommend_for_contexts(ladder, parse_config({}), [40], "any").goal_budget == 41
    per_length = recommend_for_contexts(ladder, parse_config({}), [200, 32_000], "names", length_goals={200: "full"})
    assert (per_length.reached, per_length.goal_budget) == (False, 257)


def test_nothing_reachable(ladder) -> None:
    # 40 tokens of context: even 100% is below every candidate (smallest 41)
    rec = recommend_for_contexts(ladder, parse_config({}), [40], "any")
    assert (rec.reached, rec.reached_goal, rec.threshold_pct, rec.listing_max_tokens) == (False, None, 100.0, 60000)
    assert [(c.budget, c.tier, c.listing_form, c.listing_tokens) for c in rec.contexts] == [(40, 2, "none", 0)]
    off_config = parse_config({"listing": "off", "threshold_pct": 2, "listing_max_tokens": 3000})
    off = listing_ladder(_planner(), off_config)
    rec = recommend_for_contexts(off, off_config, FOUR, "any")
    assert not rec.reached and rec.reason == "listing is off, so no listing is ever embedded"
    # no setting lists anything: the current settings are kept (100 % / 60,000 would be a trap the
    # day the listing is switched on), and the answer says why
    assert (rec.threshold_pct, rec.listing_max_tokens) == (2.0, 3000)
    assert rec.fallback_words == "the current settings, as no setting lists anything while the listing is off"


@pytest.mark.parametrize("goal", sorted(GOAL_FORMS))
@pytest.mark.parametrize("headroom", [0, 25])
def test_tool_search_off_reaches_every_goal_with_the_current_settings(goal, headroom) -> None:
    """enabled: off is tier 0 at every length: every schema is sent, so the goal holds (as check
    judges it) and the settings change nothing; they are kept, not raised to 100 % / 60,000."""
    config = parse_config({"enabled": "off", "threshold_pct": 3, "listing_max_tokens": 2500})
    rec = recommend_for_contexts(listing_ladder(_planner(), config), config, FOUR, goal, headroom_pct=headroom)
    assert (rec.reached, rec.reached_goal, rec.reason) == (True, goal, "")
    assert (rec.threshold_pct, rec.listing_max_tokens, rec.budget_needed) == (3.0, 2500, 0)
    assert rec.inactive and {c.tier for c in rec.contexts} == {0}
    assert rec.unnamed == ()  # no server is "not named": none needs a listing
    assert {c.outcome for c in rec.contexts} == {"tool search not active · every schema sent"}
    active = recommend_for_contexts(listing_ladder(_planner(), parse_config({})), parse_config({}), FOUR, goal)
    assert not active.inactive


def test_bad_arguments(ladder) -> None:
    with pytest.raises(ValueError, match="goal must be one of full, names, listed, any"):
        recommend_for_contexts(ladder, parse_config({}), FOUR, "mixed")
    with pytest.raises(ValueError, match="at least one context length"):
        recommend_for_contexts(ladder, parse_config({}), [], "full")


def test_smallest_threshold_pct_uses_the_reference_arithmetic() -> None:
    # docs/reference.md §4: 200,000 at 29% gives 57,999, so 57,999 is reached at 29.0 and 58,000 needs 29.1
    assert smallest_threshold_pct(57_999, 200_000) == 29.0
    assert smallest_threshold_pct(58_000, 200_000) == 29.1
    assert smallest_threshold_pct(0, 1) == 0.0
    assert smallest_threshold_pct(2, 1) is None


@pytest.mark.parametrize("contexts", [FOUR, [3_000, 1_000_000], [700]])
@pytest.mark.parametrize("goal", list(GOAL_FORMS))
def test_brute_force_cross_check(ladder, contexts, goal) -> None:
    """Every threshold_pct on the 0.1 grid × every cap from 200 to 320 (the largest candidate is 257): the recommendation is a
    setting that reaches the goal everywhere, no such setting has a smaller threshold_pct or cap, and
    none gives fewer listing tokens at any listed length."""
    want = FORM_RANK[GOAL_FORMS[goal]]
    rec = recommend_for_contexts(ladder, parse_config({}), contexts, goal)

    at_budget: dict[int, tuple[int, int]] = {}

    def tokens(pct: float, cap: int) -> list[int] | None:
        out = []
        for c in contexts:
            budget = listing_budget(c, pct, cap)[0]
            if budget not in at_budget:
                at_budget[budget] = (FORM_RANK[ladder.form_at(budget)], ladder.tokens_at(budget))
            rank, size = at_budget[budget]
            if rank > want:
                return None
            out.append(size)
        return out

    feasible = {(k / 10, cap): t for k in range(0, 1001) for cap in range(C.LISTING_MAX_TOKENS_MIN, 321)
                if (t := tokens(k / 10, cap)) is not None}
    if not feasible:
        assert not rec.reached
        return
    assert rec.reached
    assert (rec.threshold_pct, rec.listing_max_tokens) in feasible
    assert rec.threshold_pct == min(p for p, _ in feasible)
    assert rec.listing_max_tokens == min(c for _, c in feasible)
    best = feasible[(rec.threshold_pct, rec.listing_max_tokens)]
    assert all(all(b <= o for b, o in zip(best, other)) for other in feasible.values())
    # tight: one step less breaks it somewhere (unless at the bottom of the range)
    if rec.threshold_pct > 0:
        assert tokens(round(rec.threshold_pct - 0.1, 1), rec.listing_max_tokens) is None
    if rec.listing_max_tokens > C.LISTING_MAX_TOKENS_MIN:
        assert tokens(rec.threshold_pct, rec.listing_max_tokens - 1) is None


def test_outcomes_match_full_plans(ladder) -> None:
    rec = recommend_for_contexts(ladder, parse_config({}), FOUR, "names")
    planner = _planner()
    for outcome in rec.contexts:
        plan = planner.plan(rec.apply(parse_config({})), outcome.context_length)
        assert (plan.budget, plan.tier, plan.listing_form, plan.listing_tokens) == (
            outcome.budget, outcome.tier, outcome.listing_form, outcome.listing_tokens)


# --- the console script -------------------------------------------------------------------

def test_cli_recommend_json(tmp_path) -> None:
    result = run_cli("recommend", str(_catalog(tmp_path)), "--tool-names", "as-is",
                     "--context-lengths", "32k,128k,200k,1m", "--goal", "full", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out)[:4] == ["threshold_pct", "listing_max_tokens", "goal", "contexts"]
    assert (out["threshold_pct"], out["listing_max_tokens"], out["goal"]) == (0.9, 257, "full")
    assert out["contexts"] == [{"context_length": c, "budget": 257, "tier": 1, "listing_form": "full",
                                "listing_tokens": 257, "servers_named": 2, "servers_total": 2, "tools_named": 61,
                                "outcome": "full · 2 of 2 servers named (61 tools)", "headroom_tokens": 0,
                                "goal": "full", "budget_needed": 257, "goal_budget": 257, "tools_tokens": 1021}
                               for c in FOUR]
    assert out["goal_words"] == "every tool with its short description (form full)"


def test_cli_recommend_text_and_config(tmp_path) -> None:
    # a config with listing off: nothing reachable, exit 1 with the best setting
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"listing": "off"}}})
    result = run_cli("recommend", str(_catalog(tmp_path)), "--tool-names", "as-is", "--config", str(config),
                     "--context-lengths", "32k", "--goal", "any")
    assert result.returncode == 1, result.stderr
    assert "not reachable at the context length 32K: listing is off" in result.stdout
    result = run_cli("recommend", str(_catalog(tmp_path)), "--tool-names", "as-is",
                     "--context-lengths", "32k,128k", "--goal", "names")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Reached at every listed context length."
    assert lines[2:5] == ["threshold_pct: 0.4", "listing_max_tokens: 200", "budget needed at every length: 104 tokens"]
    assert lines[-1].startswith("gate: toolsearch check ")
    assert lines[-3:-1] == ["32K             128     1     names         104             2/2            61",
                          "128K            200     1     names         104             2/2            61"]
    # the cap is at its floor, above the budget needed: said under the figures
    assert lines[5] == ("listing_max_tokens 200 is its smallest value (a harness raises a smaller one to 200), above the "
                        "104 tokens needed: where threshold_pct's share of the context length is larger, the budget is "
                        "200 tokens")
    assert lines[6] == "headroom: 0% · absorbs 24 tokens of listing growth (about 14 tools) at 32K before the listing changes"


def test_cli_recommend_unreachable_exit_1(tmp_path) -> None:
    # No request fits 200 tokens (the tools array alone is 699): that length is left out, and 32K reaches
    # the goal. (The best reachable figures at 200 tokens are the budget arithmetic's, tested above.)
    left_out = run_cli("recommend", str(_catalog(tmp_path)), "--tool-names", "as-is",
                       "--context-lengths", "200,32k", "--goal", "full", "--json")
    assert left_out.returncode == 1  # not reached at 200 tokens, as check fails there
    data = json.loads(left_out.stdout)
    assert [u["context_length"] for u in data["unfit_lengths"]] == [200] and data["reached"] is True
    assert [c["context_length"] for c in data["contexts"]] == [32_000]
    # a goal out of reach at a length that fits still exits 1
    many = write_yaml(tmp_path / "many.yaml", {"servers": [
        {"name": f"s{s:03d}", "tools": [{"name": f"t{i}", "description": "Does a thing.",
                                         "inputSchema": {"type": "object"}} for i in range(2)]} for s in range(250)]})
    result = run_cli("recommend", str(many), "--context-lengths", "2k,32k", "--goal", "names", "--json")
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["reached"] is False and out["unfit_lengths"] == []
    assert out["reason"].startswith("it needs a budget of 2,833 tokens,")


def test_cli_recommend_usage_errors(tmp_path) -> None:
    result = run_cli("recommend", str(_catalog(tmp_path)), "--context-lengths", "32k", "--goal", "best")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "argument --goal: 'best': expected a goal (full, names, listed, any)" in result.stderr
    result = run_cli("recommend", str(_catalog(tmp_path)), "--context-lengths", "lots", "--goal", "any")
    assert result.returncode == 2 and "expected a positive number of tokens" in result.stderr
    result = run_cli("recommend", str(tmp_path / "missing.yaml"), "--context-lengths", "32k", "--goal", "any")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_the_fingerprint_is_a_content_key_of_any_catalog(tmp_path) -> None:
    """The exported block's fingerprint: the same content gives the same key from YAML (with or
    without a comment) or JSON, one changed description another key. It was the hash of the
    catalog's YAML dump: 10 s on a 3,500-tool catalog. (A value JSON has no form for, such as an
    unquoted YAML date, is a catalog error now, and recommend refuses the file.)"""
    import re as _re

    text = ("name: dates\nservers:\n  - name: s\n    tools:\n      - name: t\n        description: when\n"
            "        inputSchema: {type: object, properties: {d: {type: string, default: '2024-01-01'}}}\n")

    def fingerprint(path) -> str:
        result = run_cli("recommend", str(path), "--context-lengths", "32k", "--goal", "full", "--yaml")
        assert result.returncode == 0, result.stderr
        return _re.search(r"\(fingerprint ([0-9a-f]{16})\)", result.stdout).group(1)

    first = tmp_path / "a.yaml"
    first.write_text(text, encoding="utf-8")
    same = tmp_path / "b.yaml"
    same.write_text(text.replace("servers:", "# a comment\nservers:"), encoding="utf-8")
    as_json = tmp_path / "d.json"
    as_json.write_text(json.dumps(yaml.safe_load(text)), encoding="utf-8")
    other = tmp_path / "c.yaml"
    other.write_text(text.replace("when", "when?"), encoding="utf-8")
    assert fingerprint(first) == fingerprint(same) == fingerprint(as_json) != fingerprint(other)
    dated = tmp_path / "e.yaml"
    dated.write_text(text.replace("'2024-01-01'", "2024-01-01"), encoding="utf-8")
    result = run_cli("recommend", str(dated), "--context-lengths", "32k", "--goal", "full", "--yaml")
    assert result.returncode == 2 and "properties.d.default: the date 2024-01-01" in result.stderr


def test_the_servers_left_unnamed_cost_one_state_table_per_length(monkeypatch) -> None:
    """Each server the recommendation leaves unnamed says at which lengths it is unnamed; the states
    at a length were worked out again for every such server (a table of every server each time), so
    10,000 one-tool servers took 205 s on the Tuning page. They are worked out once per length, and
    the reasons are the same."""
    from toolsearch.analysis.sweep import Ladder

    n = 300
    planner = Planner(registration([make_tool(f"t{k}", "Do it.", server=f"s{k:03d}") for k in range(n)]))
    lad = listing_ladder(planner, parse_config({}))
    assert len(lad.steps) == n + 2
    calls = []
    original = Ladder.states_of
    monkeypatch.setattr(Ladder, "states_of", lambda self, step: calls.append(step) or original(self, step))
    lengths = [600, 1_000, 1_200]
    rec = recommend_for_contexts(lad, parse_config({}), lengths, "names")
    assert not rec.reached and len(rec.unnamed) > n // 2
    # a few per length (each length's own answer is worked out too), never once per server and length (over 500)
    assert len(calls) <= 6 * len(lengths), len(calls)
    assert all(server.reason.startswith(f"{server.name}: naming it needs a budget of") for server in rec.unnamed)


def test_the_goal_test_of_a_step_does_not_walk_its_collapsed_servers_without_a_reason(ladder) -> None:
    """The recommendation tests the goal at every step, and step k collapses k servers: a set of
    them per step grew with the square of the servers. Without servers to keep nothing is walked;
    with exceptions, the walk stops at the first collapsed server that is not excepted."""
    from toolsearch.analysis.recommend import _requirement
    from toolsearch.engine.listing import DegradationStep

    class Walked(tuple):
        reads = 0

        def __iter__(self):
            for label in super().__iter__():
                Walked.reads += 1
                yield label

    step = DegradationStep("mixed", Walked(("big", "small") * 500), 41, False)
    assert _requirement(ladder, "listed", (), ())(step) and Walked.reads == 0
    assert not _requirement(ladder, "names", ["small"], ())(step) and Walked.reads == 1  # 'big' is not excepted
    assert _requirement(ladder, "names", ["big", "small"], ())(DegradationStep("mixed", ("big", "small"), 41, False))
    assert not _requirement(ladder, "listed", (), ["small"])(DegradationStep("mixed", ("big", "small"), 41, False))
    assert _requirement(ladder, "listed", (), ["small"])(DegradationStep("mixed", ("big",), 41, False))

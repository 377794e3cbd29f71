"""A goal per context length (``recommend --goal names,1m=full``, ``check`` the same, the Tuning
page's "Other goal at some lengths"): each length reaches its own goal with the smallest
settings, checked by brute force against the listing ladder, and the CLI says it per length."""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from toolsearch.analysis.check import check_catalog
from toolsearch.analysis.recommend import (budget_with_headroom, goal_statement, outcomes,
                                           recommend_for_contexts, requirement_failures)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.cli.textfmt import goal_argument
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = [32_000, 200_000, 1_000_000]


@pytest.fixture(scope="module")
def ladder():
    return listing_ladder(Inspector(load_source(TEAM)).planner, parse_config({}))


def meets(ladder, outcome, goal: str, headroom: float = 0.0) -> bool:
    """The goal (and headroom) holds at one length: the form is the goal's or better."""
    if requirement_failures(ladder, outcome, goal):
        return False
    return outcome.listing_tokens == 0 or outcome.budget >= budget_with_headroom(outcome.listing_tokens, headroom)


GOAL_SETS = [dict(zip(LENGTHS, goals)) for goals in itertools.product(("any", "names", "full"), repeat=3)
             if len(set(goals)) > 1]


@pytest.mark.parametrize("goals", GOAL_SETS, ids=lambda g: ",".join(f"{k // 1000}k={v}" for k, v in g.items()))
def test_each_length_reaches_its_own_goal_and_the_answer_is_tight(ladder, goals):
    first = goals[LENGTHS[0]]
    rec = recommend_for_contexts(ladder, parse_config({}), LENGTHS, first, length_goals=goals)
    assert rec.reached, rec.reason
    for c in rec.contexts:
        assert meets(ladder, c, goals[c.context_length]), (c, goals)
        assert rec.goal_at(c.context_length) == goals[c.context_length]
    # tight: 0.1 % less or one token less breaks some length's goal
    lower_pct = outcomes(ladder, round(rec.threshold_pct - 0.1, 1), rec.listing_max_tokens, LENGTHS)
    assert not all(meets(ladder, c, goals[c.context_length]) for c in lower_pct)
    if rec.listing_max_tokens > C.LISTING_MAX_TOKENS_MIN:
        lower_cap = outcomes(ladder, rec.threshold_pct, rec.listing_max_tokens - 1, LENGTHS)
        assert not all(meets(ladder, c, goals[c.context_length]) for c in lower_cap)
    # each length needs what a recommendation for it alone needs
    more = []
    for c, need in zip(rec.contexts, rec.length_budgets):
        alone = recommend_for_contexts(ladder, parse_config({}), [c.context_length], goals[c.context_length])
        assert need == alone.budget_needed and c.budget >= need
        if c.listing_tokens > alone.contexts[0].listing_tokens:
            more.append(c.context_length)
    # and the lengths that get a larger listing than their own goal alone gets are the ones said to (a
    # better form is not always one: the cheapest listing for "any" can be mixed, better than summary lines)
    assert [c.context_length for c in rec.beyond_goal] == more


def test_headroom_holds_at_every_length_with_per_length_goals(ladder):
    goals = {32_000: "names", 1_000_000: "full"}
    rec = recommend_for_contexts(ladder, parse_config({}), LENGTHS, "names", length_goals=goals, headroom_pct=10)
    assert rec.reached
    for c in rec.contexts:
        assert meets(ladder, c, goals.get(c.context_length, "names"), 10), c
    # 200K gets the budget of 1M's goal, not a budget between that leaves a larger listing less room
    assert rec.contexts[1].listing_form == "full"


@pytest.mark.parametrize("catalog, lengths, goal, length_goals, headroom", [
    # the cap's floor (200) gives 200K a larger listing than the 128 tokens listed needs, without 20 % room
    ("five-servers", [200_000], "listed", {}, 20),
    ("five-servers", [8_000, 32_000, 64_000], "listed", {}, 20),
    # unknown needs names with room (2,026 tokens), 3K gets 660: a 581-token listing; no request fits 1K
    ("team-workspace", [None, 1_000, 3_000, 8_000], "any", {None: "names"}, 37.5),
])
def test_reached_means_check_passes_with_the_same_headroom(catalog, lengths, goal, length_goals, headroom):
    """'reached' is only said where every length keeps its goal and the headroom; check agrees."""
    ins = Inspector(load_source(ROOT / "sample_catalogs" / f"{catalog}.yaml"))
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(ins.planner, config), config, lengths, goal,
                                 length_goals=length_goals, headroom_pct=headroom)
    applied = rec.apply(config)
    # the answer is for the lengths a request fits (1K does not fit team-workspace's tools array: it is
    # said first and left out); check agrees there, and fails where no request fits
    fit = [c.context_length for c in rec.contexts]
    result = check_catalog(ins, applied, fit, goal, "chars4", length_goals={c: g for c, g in length_goals.items()
                                                                           if c in fit}, headroom_pct=headroom)
    assert rec.reached == result.passed, (rec.reached, rec.reason, [c.failures for c in result.lengths])
    for unfit in rec.unfit:
        alone = check_catalog(ins, applied, [unfit.context_length], goal, "chars4", headroom_pct=headroom)
        assert not alone.passed and "no setting fits" in " ".join(alone.lengths[0].failures)
    if rec.reached:  # tight: one token less of cap or 0.1 % less breaks it somewhere
        for pct, cap in ((round(rec.threshold_pct - 0.1, 1), rec.listing_max_tokens),
                         (rec.threshold_pct, rec.listing_max_tokens - 1)):
            if pct >= 0 and cap >= C.LISTING_MAX_TOKENS_MIN:
                lower = config.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
                assert not check_catalog(ins, lower, lengths, goal, "chars4", length_goals=length_goals,
                                         headroom_pct=headroom).passed
    else:
        assert rec.reason == ("no setting keeps 37.5% headroom at every length: the smallest that gives each length "
                              "its goal gives 3K a 581-token listing in a budget of 660 tokens, less than 37.5% "
                              "above it")


def test_the_same_goal_everywhere_is_the_plain_answer(ladder):
    config = parse_config({})
    plain = recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=5)
    same = recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=5,
                                  length_goals={c: "names" for c in LENGTHS})
    assert same == plain and not same.length_goals and same.goal_words == "every server at names or better"


def test_a_length_out_of_reach_is_named_and_the_others_get_their_goal(ladder):
    rec = recommend_for_contexts(ladder, parse_config({}), [3_000, 200_000], "full",
                                 length_goals={200_000: "names"})
    assert not rec.reached
    assert rec.reason.startswith("at 3K: it needs a budget of ")
    # a length that is not the shortest is not called the shortest
    other = recommend_for_contexts(ladder, parse_config({}), [2_000, 3_000], "any", length_goals={3_000: "full"})
    assert other.reason == "at 3K: it needs a budget of 3,656 tokens, more than the whole 3K context (3,000 tokens)"
    assert rec.contexts[1].listing_form in ("full", "names")  # 200K reaches names
    assert rec.contexts[0].servers_named == rec.contexts[0].servers_total  # the best 3K can do: every server named


def test_bad_per_length_goals_are_refused(ladder):
    with pytest.raises(ValueError, match=r"a goal is given for 64K, which is not among the context lengths"):
        recommend_for_contexts(ladder, parse_config({}), LENGTHS, "names", length_goals={64_000: "full"})
    with pytest.raises(ValueError, match="goal must be one of"):
        recommend_for_contexts(ladder, parse_config({}), LENGTHS, "names", length_goals={32_000: "most"})


def test_goal_words_group_lengths_by_goal():
    assert goal_statement("names", ((200_000, "full"), (1_000_000, "full")), ("github",), (),
                          LENGTHS) == ("every server at names or better at 32K; every tool with its short description "
                                       "(form full) at 200K and 1M; at every length, github may collapse")
    # the servers' requirements are not read as belonging to the last length named
    assert goal_statement("names", ((1_000_000, "full"),), ("slack",), ("github",), LENGTHS) == (
        "every server at names or better at 32K and 200K; every tool with its short description (form full) at 1M; "
        "at every length, slack may collapse; kept named at every length: github")


def test_goal_words_show_invisible_characters_in_server_names():
    assert goal_statement("names", ((1_000_000, "full"),), ("ev\u202eil",), (), LENGTHS).endswith(
        "at every length, ev⟨U+202E⟩il may collapse")
    assert goal_statement("names", (), ("ev\u202eil",)) == "every server at names or better, except ev⟨U+202E⟩il (may collapse)"


def test_goal_argument_syntax():
    assert goal_argument("names") .goal == "names"
    parsed = goal_argument(" names , 200k=full,unknown=any")
    assert (parsed.goal, parsed.by_length) == ("names", {200_000: "full", None: "any"})
    assert parsed.resolve([32_000, 200_000, None]) == ("names", {200_000: "full", None: "any"})
    assert goal_argument("32k=any,1m=full").resolve([32_000, 1_000_000]) == ("any", {32_000: "any", 1_000_000: "full"})
    with pytest.raises(ValueError, match="no goal for 200K"):
        goal_argument("32k=any").resolve([32_000, 200_000])
    for bad in ("", "names,full", "32k=names,32000=full", "lots=full", "32k=most"):
        with pytest.raises(Exception):
            goal_argument(bad)


def test_goal_argument_and_the_app_fields_refuse_an_empty_item_alike():
    from toolsearch.ui.common import parse_context_lengths, parse_length_goals  # noqa: PLC0415

    with pytest.raises(argparse.ArgumentTypeError, match=r"^item 2 of 'names,,1m=full' is empty: expected a goal"):
        goal_argument("names,,1m=full")
    assert goal_argument("names,,1m=full", empty_items=True).by_length == {1_000_000: "full"}
    # the Tuning page's text fields refuse a blank item with the command line's words, lengths and goals alike
    goals, problem = parse_length_goals("200k=full,,1m=full,")
    assert goals == {} and problem.startswith("Other goals: item 2 of '200k=full,,1m=full,' is empty: expected a goal")
    lengths, problem = parse_context_lengths("32k,,200k,")
    assert lengths == [] and problem.startswith("Context lengths: item 2 of '32k,,200k,' is empty: expected a "
                                                "context length")


def test_cli_recommend_per_length_text_json_and_yaml():
    args = ["recommend", str(TEAM), "--context-lengths", "32k,200k,1m", "--goal", "names,1m=full"]
    text = run_cli(*args)
    assert text.returncode == 0, text.stderr
    rec = recommend_for_contexts(listing_ladder(Inspector(load_source(TEAM)).planner, parse_config({})),
                                 parse_config({}), LENGTHS, "names", length_goals={1_000_000: "full"})
    lines = text.stdout.splitlines()
    assert lines[0] == "Reached at every listed context length."
    assert lines[1].startswith("goal: every server at names or better at 32K and 200K; every tool with its short "
                               "description (form full) at 1M · ")
    assert f"listing_max_tokens: {rec.listing_max_tokens}" in lines
    assert f"budget needed: {rec.budget_words}" in lines
    assert any(x.startswith("more than the goal asks at 200K (full): ") for x in lines)
    data = json.loads(run_cli(*args, "--json").stdout)
    assert [c["goal"] for c in data["contexts"]] == ["names", "names", "full"]
    assert [c["budget_needed"] for c in data["contexts"]] == list(rec.length_budgets)
    assert data["goal_words"] == rec.goal_words and data["reached"] is True
    block = run_cli(*args, "--yaml").stdout
    assert f"# goal: {rec.goal_words}" in block.splitlines()
    assert yaml.safe_load(block)["tools"]["tool_search"]["listing_max_tokens"] == rec.listing_max_tokens


@pytest.mark.parametrize("goal, error", [
    ("names,64k=full", "recommend: --goal: a goal is given for 64K, which is not among --context-lengths (32K, 200K, 1M); "
                       "add it to --context-lengths, or leave its goal out of --goal\n"),
    ("32k=names", "recommend: --goal: no goal for 200K, 1M"),
    ("names,fulll", "argument --goal: 'fulll': expected a goal (full, names, listed, any) or LENGTH=GOAL"),
    # a blank length is not read as 'unknown'
    ("names,=full", "argument --goal: '=full': no length before '='; write LENGTH=GOAL such as 200k=full"),
    ("names,1m=full,1000k=names", "argument --goal: '1000k=names': '1m=full' already gives that length a goal"),
])
def test_cli_recommend_bad_goal_is_a_usage_error(goal, error):
    result = run_cli("recommend", str(TEAM), "--context-lengths", "32k,200k,1m", "--goal", goal)
    assert result.returncode == 2 and error in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, shown", [
    (("--goal", "names,\x1b[31mfull"), "'⟨U+001B⟩[31mfull': expected a goal"),
    (("--goal", "names,1m=full,1000k=\u202enames"), "'1000k=⟨U+202E⟩names': expected a goal"),
    (("--goal", "names", "--limit", "\x1b]8;;x\x07"), None),
])
def test_cli_typed_values_in_errors_show_control_characters_as_markers(args, shown):
    """A value typed on the command line is quoted in an error or note with the markers every
    surface uses: the terminal never receives the raw control character."""
    result = run_cli("recommend", str(TEAM), "--context-lengths", "32k,200k,1m", *args)
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr and "\u202e" not in result.stderr
    if shown is not None:
        assert result.returncode == 2 and shown in result.stderr, result.stderr
    else:  # recommend takes no --limit: a usage error that names the value with markers, if at all
        assert result.returncode == 2 and "Traceback" not in result.stderr


def test_cli_check_per_length_goals():
    ok = run_cli("check", str(TEAM), "--context-lengths", "32k,200k,1m", "--goal", "names,1m=full")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.splitlines()[0] == ("toolsearch check passed: every server at names or better at 32K and 200K; "
                                         "every tool with its short description (form full) at 1M")
    assert "holds (full)" in ok.stdout and "holds (names)" in ok.stdout
    # a tiny percentage: 32K lists nothing (its goal any fails), 1M lists less than full
    bad = run_cli("check", str(TEAM), "--context-lengths", "32k,200k,1m", "--goal", "any,1m=full",
                  "--threshold-pct", "0.1", "--format", "json")
    assert bad.returncode == 1
    data = json.loads(bad.stdout)
    assert [(c["goal"], c["holds"]) for c in data["contexts"]] == [("any", False), ("any", True), ("full", False)]
    ins = Inspector(load_source(TEAM))
    result = check_catalog(ins, parse_config({"threshold_pct": 0.1}), LENGTHS, "any", "chars4",
                           length_goals={1_000_000: "full"})
    assert data["suggestion"]["threshold_pct"] == result.suggestion.threshold_pct
    # the suggestion reaches each length's own goal
    ladder = listing_ladder(ins.planner, parse_config({}))
    for c, goal in zip(result.suggestion.contexts, ("any", "any", "full")):
        assert meets(ladder, c, goal)


def test_cli_check_markdown_heading_shows_server_names_literally(tmp_path):
    catalog = tmp_path / "evil.yaml"
    catalog.write_text(yaml.safe_dump({"servers": [
        {"name": "<img src=x onerror=alert(1)>*a*", "tools": [{"name": "t1", "description": "One.",
                                                              "inputSchema": {"type": "object"}}]},
        {"name": "plain", "tools": [{"name": "t2", "description": "Two.", "inputSchema": {"type": "object"}}]}]}))
    result = run_cli("check", str(catalog), "--context-lengths", "32k,1m", "--goal", "names,1m=full",
                     "--except", "<img src=x onerror=alert(1)>*a*", "--format", "markdown")
    heading = result.stdout.splitlines()[0]
    assert heading.endswith("; at every length, \\<img src=x onerror=alert(1)\\>\\*a\\* may collapse"), heading


def test_budget_needed_is_the_budget_the_settings_were_chosen_for():
    """With headroom, the cap's floor of 200 tokens can give a length more than its goal's smallest
    budget and so a larger listing: the budget said to be needed is that listing's, with its room,
    and the text names it per length when the lengths differ."""
    five = ROOT / "sample_catalogs" / "five-servers.yaml"
    ladder = listing_ladder(Inspector(load_source(five)).planner, parse_config({}))
    rec = recommend_for_contexts(ladder, parse_config({}), [200_000], "listed", headroom_pct=20)
    assert rec.reached and rec.listing_max_tokens > C.LISTING_MAX_TOKENS_MIN  # the floor alone lacks the room
    (only,) = rec.contexts
    assert rec.budget_needed == only.budget == budget_with_headroom(only.listing_tokens, 20)
    text = run_cli("recommend", five, "--context-lengths", "32k,200k", "--goal", "listed", "--headroom", "20")
    two = recommend_for_contexts(ladder, parse_config({}), [32_000, 200_000], "listed", headroom_pct=20)
    assert not two.one_budget
    assert f"budget needed: {two.budget_words} (with 20% headroom)" in text.stdout.splitlines()
    assert [c.budget >= b for c, b in zip(two.contexts, two.length_budgets)] == [True, True]


def test_a_goal_run_into_a_length_goal_asks_for_commas() -> None:
    # 'names;1m=full' was read as the length 'names;1m' ("expected a positive number of tokens")
    for text, fixed in (("names;1m=full", "names,1m=full"), ("full 200k=names", "full,200k=names")):
        with pytest.raises(argparse.ArgumentTypeError) as caught:
            goal_argument(text)
        assert str(caught.value) == (f"'{text}': expected LENGTH=GOAL such as 200k=full, got a goal "
                                     f"('{text.split(';')[0].split()[0]}') in the length; separate the items "
                                     f"with commas ('{fixed}')"), caught.value
    with pytest.raises(argparse.ArgumentTypeError, match="expected a positive number of tokens"):
        goal_argument("abc=full")  # no goal in it: the length's own error
    done = run_cli("recommend", str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml"),
                   "--goal", "names;1m=full")
    assert done.returncode == 2 and "separate the items with commas ('names,1m=full')" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
